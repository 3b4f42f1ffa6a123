"""expm_multiply: ``expm(t A) @ B`` without forming expm(A), by Al-Mohy and
Higham's truncated Taylor series (2011), as scipy.sparse.linalg's."""

import math
import warnings

import numpy

import gpunp as gp

from ..csgraph._csr import canonical_coo, csr_parts, device, is_sparse, scatter_reduce
from ._interface import LinearOperator, aslinearoperator
from ._norm import onenormest

__all__ = ["expm_multiply"]

# theta_m: the largest t*norm(A) for which m Taylor terms reach double
# precision (Higham, Functions of Matrices, table A.3; Al-Mohy and Higham
# 2011, table 3.1)
_THETA = {1: 2.29e-16, 2: 2.58e-8, 3: 1.39e-5, 4: 3.40e-4, 5: 2.40e-3, 6: 9.07e-3,
          7: 2.38e-2, 8: 5.00e-2, 9: 8.96e-2, 10: 1.44e-1, 11: 2.14e-1, 12: 3.00e-1,
          13: 4.00e-1, 14: 5.14e-1, 15: 6.41e-1, 16: 7.81e-1, 17: 9.31e-1, 18: 1.09,
          19: 1.26, 20: 1.44, 21: 1.62, 22: 1.82, 23: 2.01, 24: 2.22, 25: 2.43, 26: 2.64,
          27: 2.86, 28: 3.08, 29: 3.31, 30: 3.54, 35: 4.7, 40: 6.0, 45: 7.2, 50: 8.5,
          55: 9.9}


class _Shifted(LinearOperator):
    """A - mu I, for an explicit matrix or an operator."""

    def __init__(self, A, mu, dtype):
        super().__init__(dtype, A.shape)
        self.A, self.mu = A, mu

    def _matmat(self, X):
        return self.A @ X - self.mu * X

    def _matvec(self, x):
        return self.A @ x - self.mu * x

    def _adjoint(self):
        return _Shifted(aslinearoperator(self.A).H, numpy.conj(self.mu), self.dtype)


def _trace_and_norm(A, n):
    """(trace(A), a function giving norm(A - mu I, 1)): exact for a dense
    or sparse matrix; (None, None) for an operator."""
    if isinstance(A, gp.ndarray):
        return complex(gp.trace(A)), lambda mu: float(gp.max(gp.sum(
            gp.abs(A - mu * gp.eye(n, dtype=A.dtype)), axis=0))) if n else 0.0
    if is_sparse(A):
        indptr, indices, data, shape = csr_parts(A)
        rows, cols, vals = canonical_coo(indptr, indices, data, shape)
        trace = complex(gp.sum(gp.where(rows == cols, vals, 0)))

        def shifted_norm(mu):
            # the diagonal's stored value and its shift must add before abs
            on = rows == cols
            diag = scatter_reduce(gp.add, rows[on], vals[on], n, 0,
                                  numpy.result_type(vals.dtype, type(mu)))
            off = ~on
            sums = scatter_reduce(gp.add, cols[off], gp.abs(vals[off]).astype(numpy.float64),
                                  n, 0)
            sums = sums + gp.abs(diag - mu)
            return float(gp.max(sums)) if n else 0.0
        return trace, shifted_norm
    return None, None


def _simple(A, B, t, traceA, tol):
    """expm(t A) @ B for one t (Al-Mohy and Higham's Algorithm 3.2)."""
    n = A.shape[0]
    if B.shape[0] != n:
        raise ValueError(f"shapes of matrices A {A.shape} and B {B.shape} are incompatible")
    trace, shifted_norm = _trace_and_norm(A, n)
    if traceA is not None:
        trace = traceA
    if trace is None:
        warnings.warn("Trace of LinearOperator not available, it will be estimated. "
                      "Provide `traceA` to ensure performance.", stacklevel=3)
        trace = 0.0  # gpunp skips the shift: it only saves work, never accuracy
    mu = trace / n if n else 0.0
    mu = mu.real if isinstance(mu, complex) and mu.imag == 0 else mu
    dtype = numpy.result_type(A.dtype, B.dtype, numpy.float64 if tol < 1e-10 else
                              numpy.float32)
    if shifted_norm is not None:
        norm1 = shifted_norm(mu)
    else:
        shifted = _Shifted(A, mu, dtype)
        norm1 = onenormest(shifted) if n else 0.0
    if t * norm1 == 0:
        m_star, s = 0, 1
    else:
        m_star, s = _pick(t * norm1)
    F = B.astype(dtype)
    eta = numpy.exp(t * mu / s)
    Bk = F
    for _ in range(s):
        c1 = float(gp.max(gp.abs(Bk))) if Bk.size else 0.0
        for j in range(1, m_star + 1):
            Bk = (t / (s * j)) * (A @ Bk - mu * Bk)
            c2, fnorm = (float(v) for v in gp.stack(
                [gp.max(gp.abs(Bk)), gp.max(gp.abs(F + Bk))]).get().real) if Bk.size \
                else (0.0, 0.0)
            F = F + Bk
            if c1 + c2 <= tol * fnorm:
                break
            c1 = c2
        F = eta * F
        Bk = F
    return F


def _pick(tnorm):
    """(m, s) minimising the products m*s with s = ceil(tnorm / theta_m)."""
    best = None
    for m, th in _THETA.items():
        s = max(math.ceil(tnorm / th), 1)
        if best is None or m * s < best[0] * best[1]:
            best = (m, s)
    return best


def _as_matrix(A):
    if isinstance(A, LinearOperator) or is_sparse(A):
        return A
    return device(A)


def expm_multiply(A, B, start=None, stop=None, num=None, endpoint=None, traceA=None):
    """``expm(A) @ B``, or ``expm(t*A) @ B`` at ``num`` points t of
    ``linspace(start, stop, num, endpoint)`` (an array of shape
    ``(num,) + B.shape``); A a square dense or sparse matrix or a
    LinearOperator (give ``traceA`` for an operator). Each product runs on
    the device; the number of Taylor terms and steps comes from the exact
    1-norm of A (onenormest for an operator)."""
    A = _as_matrix(A)
    B = device(B)
    if len(A.shape) != 2 or A.shape[0] != A.shape[1]:
        raise ValueError("expected A to be like a square matrix")
    if B.ndim not in (1, 2):
        raise ValueError("expected B to be like a matrix or a vector")
    dtype = numpy.result_type(A.dtype if A.dtype is not None else numpy.float64, B.dtype)
    tol = 2.0 ** -24 if dtype in (numpy.float32, numpy.complex64) else 2.0 ** -53
    if all(arg is None for arg in (start, stop, num, endpoint)):
        return _simple(A, B, 1.0, traceA, tol)
    start = 0.0 if start is None else start
    stop = 1.0 if stop is None else stop
    num = 50 if num is None else num
    endpoint = True if endpoint is None else endpoint
    times = numpy.linspace(start, stop, num, endpoint=endpoint)
    out = []
    X = _simple(A, B, float(times[0]), traceA, tol) if num else None
    for k in range(num):
        if k:
            X = _simple(A, X, float(times[k] - times[k - 1]), traceA, tol)
        out.append(X)
    if not out:
        return gp.empty((0,) + B.shape, dtype=dtype)
    return gp.stack(out)
