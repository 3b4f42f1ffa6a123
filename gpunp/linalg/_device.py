"""gpunp.linalg on a GPU: NumPy's factorizations from the engine's dense
solvers (gp_solver_run, cuSOLVER on CUDA) and gpunp's own ops.

Every input is first copied, in NumPy's computation dtype (double or
complex double, as numpy.linalg computes), into a batch of column-major
matrices (:func:`fortran_copy`): the solvers read that layout and overwrite
their input, so the copy is needed anyway and no transpose flag is. Each
solver writes a LAPACK info word per matrix on the device; a function that
raises LinAlgError reads the info array back with one small copy
(:func:`failed`) and raises where NumPy would (a zero pivot, a matrix not
positive definite, no convergence). Results are cast to NumPy's result
dtype and made C-contiguous, as NumPy's are.
"""

from __future__ import annotations

import functools
import os

import numpy

import gpunp
from gpunp import _lib
from gpunp._lib import check, ffi, lib
from gpunp.linalg._common import (
    EigResult, EighResult, LinAlgError, QRResult, SlogdetResult, SVDResult, complex_dtype, conj,
    isnan, real_dtype)

GETRF, GETRS, POTRF, GEQRF, ORGQR, SYEVD, GESVD, GEEV, GESVDJ, SYEVJ = (
    lib.GP_SOLVER_GETRF, lib.GP_SOLVER_GETRS, lib.GP_SOLVER_POTRF, lib.GP_SOLVER_GEQRF,
    lib.GP_SOLVER_ORGQR, lib.GP_SOLVER_SYEVD, lib.GP_SOLVER_GESVD, lib.GP_SOLVER_GEEV,
    lib.GP_SOLVER_GESVDJ, lib.GP_SOLVER_SYEVJ)
UPPER, VECTORS, FULL = lib.GP_SOLVER_UPPER, lib.GP_SOLVER_VECTORS, lib.GP_SOLVER_FULL


def run(routine: int, flags: int, *args) -> None:
    """One engine call: `routine` over the batch, in place; None for an
    absent argument; the last argument is the info array."""
    hs = ffi.new("gp_array_t *[]", [ffi.NULL if a is None else a._h for a in args])
    check(lib.gp_solver_run(routine, flags, len(args), hs))


def fortran_empty(batch: tuple, rows: int, cols: int, dt) -> gpunp.ndarray:
    """A batch of column-major rows x cols matrices (uninitialised)."""
    return gpunp.empty(tuple(batch) + (cols, rows), dt).swapaxes(-1, -2)


def fortran_copy(a: gpunp.ndarray, dt) -> gpunp.ndarray:
    """A copy of `a` (..., m, n) in `dt` as a batch of column-major matrices."""
    f = fortran_empty(a.shape[:-2], a.shape[-2], a.shape[-1], dt)
    f[...] = a
    return f


def available(routine: int) -> bool:
    out = ffi.new("int32_t *")
    check(lib.gp_solver_available(routine, out))
    return bool(out[0])


def info_array(batch: tuple) -> gpunp.ndarray:
    return gpunp.empty(tuple(batch), numpy.int32)


def failed(info: gpunp.ndarray) -> bool:
    """Whether any matrix's info word reports a failure (one copy to the host)."""
    return info.size > 0 and bool((info.get() > 0).any())


def _result(a: gpunp.ndarray, dt) -> gpunp.ndarray:
    return gpunp.ascontiguousarray(a.astype(dt, copy=False))


# ---- LU: solve, inv, det, slogdet -----------------------------------------------------

def lu(a: gpunp.ndarray, t, raise_singular: bool = True):
    """The LU factors of every matrix of `a` (square), with the pivots and
    the info array; LinAlgError for an exactly singular matrix when asked."""
    batch, n = a.shape[:-2], a.shape[-1]
    f = fortran_copy(a, t)
    ipiv = gpunp.empty(batch + (n,), numpy.int64)
    info = info_array(batch)
    run(GETRF, 0, f, ipiv, info)
    if raise_singular and failed(info):
        raise LinAlgError("Singular matrix")
    return f, ipiv, info


def lu_solve(f, ipiv, b: gpunp.ndarray, t) -> gpunp.ndarray:
    """X with A X = B for B of shape (..., n, k) broadcast to f's batch."""
    batch = f.shape[:-2]
    x = fortran_copy(gpunp.broadcast_to(b, batch + b.shape[-2:]), t)
    run(GETRS, 0, f, ipiv, x, info_array(batch))
    return x


def solve(a, b, t, result_t):
    n = a.shape[-1]
    vector = b.ndim == 1
    bm = b[:, None] if vector else b
    if bm.shape[-2] != n:
        sig = "(m,m),(m)->(m)" if vector else "(m,m),(m,n)->(m,n)"
        raise ValueError(f"solve{'1' if vector else ''}: Input operand 1 has a mismatch in its "
                         f"core dimension 0, with gufunc signature {sig} (size "
                         f"{bm.shape[-2]} is different from {n})")
    batch = gpunp.broadcast_shapes(a.shape[:-2], bm.shape[:-2])
    if bm.size == 0 and _lib._numpy_version() < 20400:
        # NumPy before 2.4 answers an empty b without factoring a, so a
        # singular a raises nothing there
        x = gpunp.empty(batch + bm.shape[-2:], result_t)
        return x[..., 0] if vector else x
    # the factors' info is read once, after the solve is queued behind them:
    # reading it between would leave the device idle while the host waits
    f, ipiv, info = lu(gpunp.broadcast_to(a, batch + (n, n)), t, raise_singular=False)
    x = lu_solve(f, ipiv, bm, t)
    if failed(info):
        raise LinAlgError("Singular matrix")
    x = _result(x, result_t)
    return x[..., 0] if vector else x


def inv(a, t, result_t, raise_singular: bool = True):
    """The inverses; with raise_singular False a singular matrix's inverse
    is NaN (NumPy's inv with its errors ignored, as cond uses it)."""
    n = a.shape[-1]
    f, ipiv, info = lu(a, t, raise_singular=False)
    x = lu_solve(f, ipiv, gpunp.eye(n, dtype=t), t)
    if not raise_singular:
        x = gpunp.where((info > 0)[..., None, None], numpy.nan, x)
    elif failed(info):  # read after the solve is queued (as solve's)
        raise LinAlgError("Singular matrix")
    return _result(x, result_t)


def _lu_parts(a, t):
    """The diagonal of U and the sign of the permutation, in `t`."""
    n = a.shape[-1]
    f, ipiv, _ = lu(a, t, raise_singular=False)
    d = gpunp.diagonal(f, axis1=-2, axis2=-1)
    swaps = gpunp.count_nonzero(ipiv != gpunp.arange(1, n + 1, dtype=numpy.int64), axis=-1)
    return d, (1 - 2 * (swaps % 2)).astype(t)


def det(a, t, result_t):
    d, psign = _lu_parts(a, t)
    return (gpunp.prod(d, axis=-1) * psign).astype(result_t)


def slogdet(a, t, result_t):
    d, psign = _lu_parts(a, t)
    absd = abs(d)
    zero = gpunp.any(absd == 0, axis=-1)
    unit = d / absd if t.kind == "c" else gpunp.sign(d)
    sign = gpunp.where(zero, 0, gpunp.prod(unit, axis=-1) * psign)
    logdet = gpunp.where(zero, -numpy.inf, gpunp.sum(gpunp.log(absd), axis=-1))
    return SlogdetResult(sign.astype(result_t), logdet.astype(real_dtype(result_t)))


# ---- Cholesky, QR ---------------------------------------------------------------------

def cholesky(a, t, result_t, upper: bool):
    f = fortran_copy(a, t)
    info = info_array(a.shape[:-2])
    run(POTRF, UPPER if upper else 0, f, info)
    if failed(info):
        raise LinAlgError("Matrix is not positive definite")
    return _result(gpunp.triu(f) if upper else gpunp.tril(f), result_t)


def qr(a, t, result_t, mode: str):
    batch, (m, n) = a.shape[:-2], a.shape[-2:]
    k = min(m, n)
    f = fortran_copy(a, t)
    tau = gpunp.empty(batch + (k,), t)
    info = info_array(batch)
    run(GEQRF, 0, f, tau, info)
    if failed(info):
        raise LinAlgError("Incorrect argument found while performing QR factorization")
    if mode == "r":
        return _result(gpunp.triu(f[..., :k, :]), result_t)
    if mode == "raw":
        # NumPy's h is LAPACK's column-major output read as a C array
        return _result(f.swapaxes(-1, -2), result_t), _result(tau, result_t)
    if mode == "economic":
        return _result(f, result_t)
    mc = m if mode == "complete" and m > n else k
    if k == 0:
        q = gpunp.broadcast_to(gpunp.eye(m, mc, dtype=t), batch + (m, mc))
    else:
        q = fortran_empty(batch, m, mc, t)
        q[...] = 0
        q[..., :, :k] = f[..., :, :k]
        run(ORGQR, 0, q, tau, info_array(batch))
    return QRResult(_result(q, result_t), _result(gpunp.triu(f[..., :mc, :]), result_t))


# ---- eigenproblems --------------------------------------------------------------------

def eigh(a, t, result_t, uplo: str, vectors: bool):
    """syevd, one call a matrix; a batch of matrices up to 32 x 32 by
    Jacobi rotations in one call (syevjBatched), then by syevd where one
    of them did not converge."""
    batch, n = a.shape[:-2], a.shape[-1]
    flags = (VECTORS if vectors else 0) | (UPPER if uplo == "U" else 0)
    w = gpunp.empty(batch + (n,), real_dtype(t))
    info = info_array(batch)
    f = None
    if 0 < n <= 32 and numpy.prod(batch, dtype=int) > 1 and available(SYEVJ):
        f = fortran_copy(a, t)
        run(SYEVJ, flags, f, w, info)
        if failed(info):
            f = None
    if f is None:
        f = fortran_copy(a, t)
        run(SYEVD, flags, f, w, info)
        if failed(info):
            raise LinAlgError("Eigenvalues did not converge")
    w = _result(w, real_dtype(result_t))
    return EighResult(w, _result(f, result_t)) if vectors else w


def _pair_vectors(w, vr):
    """Complex eigenvectors from LAPACK's real ones: for a conjugate pair
    w[j], w[j+1] (Im w[j] > 0) the vectors are vr[:, j] +- i vr[:, j+1]."""
    if vr.shape[-1] == 0:
        return vr.astype(complex_dtype(vr.dtype))
    im = w.imag[..., None, :]
    zero = gpunp.zeros(vr.shape[:-1] + (1,), vr.dtype)
    nxt = gpunp.concatenate([vr[..., 1:], zero], axis=-1)
    prv = gpunp.concatenate([zero, vr[..., :-1]], axis=-1)
    return gpunp.where(im > 0, vr + 1j * nxt, gpunp.where(im < 0, prv - 1j * vr, vr + 0j))


@functools.cache
def _real_eigenvalues_stay_real() -> bool:
    """Whether the running NumPy gives a real matrix's eig results a real
    dtype when every eigenvalue is real (NumPy 2.4 does; 2.5 returns them
    complex always)."""
    return numpy.linalg.eigvals(numpy.eye(1)).dtype.kind == "f"


def eig(a, t, result_t, vectors: bool):
    batch, n = a.shape[:-2], a.shape[-1]
    f = fortran_copy(a, t)
    w = gpunp.empty(batch + (n,), complex_dtype(t))
    vr = fortran_empty(batch, n, n, t) if vectors else None
    info = info_array(batch)
    run(GEEV, VECTORS if vectors else 0, f, w, vr, info)
    if failed(info):
        raise LinAlgError("Eigenvalues did not converge")
    if t.kind == "c":
        rt = result_t
        v = vr
    elif _real_eigenvalues_stay_real() and not bool(gpunp.any(w.imag != 0)):
        rt = real_dtype(result_t)
        w, v = w.real, vr
    else:
        rt = complex_dtype(result_t)
        v = _pair_vectors(w, vr) if vectors else None
    w = _result(w, rt)
    return EigResult(w, _result(v, rt)) if vectors else w


# ---- the singular value decomposition ------------------------------------------------

def svd(a, t, result_t, full_matrices: bool, compute_uv: bool):
    """The SVD by one-sided Jacobi rotations (cuSOLVER's gesvdj, PyTorch's
    default driver: 325 ms for a 2048 x 2048 float64 matrix on the H200,
    gesvd 621), or, where it did not converge or is not available, by
    gesvd."""
    if a.dtype.kind in "fc" and bool(gpunp.any(isnan(a))):
        # NumPy's divide-and-conquer SVD (gesdd) fails on NaN; gesvd need not
        raise LinAlgError("SVD did not converge")
    m, n = a.shape[-2:]
    if _jacobi_svd() and m * n < 2 ** 31 and available(GESVDJ):
        r = _svd_jacobi(a, t, result_t, full_matrices, compute_uv)
        if r is not None:
            return r
    return _svd_qr(a, t, result_t, full_matrices, compute_uv)


@functools.cache
def _jacobi_svd() -> bool:
    """GPUNP_TUNE_SVD=gesvd keeps every SVD on gesvd (python -m bench.tune svd)."""
    return os.environ.get("GPUNP_TUNE_SVD", "gesvdj") != "gesvd"


def _svd_jacobi(a, t, result_t, full_matrices: bool, compute_uv: bool):
    """gesvdj gives V, not V^H, for any m and n, and always computes U and V;
    None when a matrix did not converge. Batches of small matrices go in one
    batched call, which computes full U and V only: the economic ones are
    their first columns."""
    batch, (m, n) = a.shape[:-2], a.shape[-2:]
    k = min(m, n)
    small = max(m, n) <= 32 and numpy.prod(batch, dtype=int) > 1
    full = (full_matrices and compute_uv) or small
    f = fortran_copy(a, t)
    s = gpunp.empty(batch + (k,), real_dtype(t))
    info = info_array(batch)
    u = fortran_empty(batch, m, m if full else k, t)
    v = fortran_empty(batch, n, n if full else k, t)
    if k == 0:  # the solver returns at once for an empty matrix: LAPACK's identity
        u[...] = gpunp.eye(*u.shape[-2:], dtype=t)
        v[...] = gpunp.eye(*v.shape[-2:], dtype=t)
    run(GESVDJ, FULL if full else 0, f, s, u, v, info)
    if failed(info):
        return None
    # gesvdj can give a zero singular value as -0.0, which turns 1 / s and
    # cond's s_max / s_min into -inf
    s = _result(abs(s), real_dtype(result_t))
    if not compute_uv:
        return s
    if full and not full_matrices:
        u, v = u[..., :k], v[..., :k]
    return SVDResult(_result(u, result_t), s, _result(conj(v.swapaxes(-1, -2)), result_t))


def _svd_qr(a, t, result_t, full_matrices: bool, compute_uv: bool):
    """cuSOLVER's gesvd needs m >= n: a wide matrix is decomposed as its
    conjugate transpose, A^H = U' S V'^H, so A = V' S U'^H."""
    batch, (m, n) = a.shape[:-2], a.shape[-2:]
    tall = m >= n
    src = a if tall else conj(a.swapaxes(-1, -2))
    M, N = max(m, n), min(m, n)
    f = fortran_copy(src, t)
    s = gpunp.empty(batch + (N,), real_dtype(t))
    info = info_array(batch)
    u = vt = None
    flags = 0
    ucols = M if full_matrices else N
    if compute_uv:
        u, vt = fortran_empty(batch, M, ucols, t), fortran_empty(batch, N, N, t)
        flags = VECTORS | (FULL if full_matrices else 0)
        if M == 0 or N == 0:
            # the solver returns at once for an empty matrix: LAPACK's identity
            u[...] = gpunp.eye(M, ucols, dtype=t)
            vt[...] = gpunp.eye(N, dtype=t)
    run(GESVD, flags, f, s, u, vt, info)
    if failed(info):
        raise LinAlgError("SVD did not converge")
    s = _result(abs(s), real_dtype(result_t))  # no -0.0, as in _svd_jacobi
    if not compute_uv:
        return s
    if not tall:
        u, vt = conj(vt.swapaxes(-1, -2)), conj(u.swapaxes(-1, -2))
    return SVDResult(_result(u, result_t), s, _result(vt, result_t))


def svd_hermitian(a, t, result_t, compute_uv: bool):
    """NumPy's SVD of a Hermitian matrix: from its eigen decomposition (the
    lower triangle), values |w| in descending order."""
    if compute_uv:
        w, v = eigh(a, t, t, "L", True)
    else:
        w = eigh(a, t, t, "L", False)
    s = abs(w)
    # each value's place in NumPy's order (argsort ascending, reversed: of
    # equal values the later comes first), found by comparisons (gpunp has
    # no sort): the values above it, and the equal ones after it
    n = s.shape[-1]
    later = gpunp.arange(n)[None, :] > gpunp.arange(n)[:, None]
    si, sj = s[..., :, None], s[..., None, :]
    place = gpunp.count_nonzero((sj > si) | ((sj == si) & later), axis=-1)
    s_sorted = gpunp.empty_like(s)
    gpunp.put_along_axis(s_sorted, place, s, axis=-1)
    if not compute_uv:
        return _result(s_sorted, real_dtype(result_t))
    cols = gpunp.broadcast_to(place[..., None, :], v.shape)
    u = gpunp.empty_like(v)
    gpunp.put_along_axis(u, cols, v, axis=-1)
    sgn = gpunp.empty_like(w)
    gpunp.put_along_axis(sgn, place, gpunp.where(w < 0, -1.0, 1.0).astype(w.dtype), axis=-1)
    vt = conj((u * sgn[..., None, :]).swapaxes(-1, -2))
    return SVDResult(_result(u, result_t), _result(s_sorted, real_dtype(result_t)),
                     _result(vt, result_t))


# ---- compositions over the factorizations (NumPy's definitions) -----------------------

def lstsq(a, b, rcond, t, result_t):
    """Least squares from the SVD: x = V S^+ U^H b, singular values at or
    below rcond * max(s) taken as zero (LAPACK gelsd's rule)."""
    m, n = a.shape
    k = b.shape[1]
    rt = real_dtype(result_t)
    if rcond < 0:
        rcond = numpy.finfo(t).eps
    if m == 0 or n == 0:
        x = gpunp.zeros((n, k), t)
        s = gpunp.empty((0,), real_dtype(t))
        rank = 0
    else:
        u, s, vh = svd(a, t, t, False, True)
        keep = s > rcond * gpunp.max(s)
        rank = int(gpunp.count_nonzero(keep))
        sinv = gpunp.where(keep, 1 / gpunp.where(keep, s, 1), 0)
        bt = b.astype(t)
        x = gpunp.matmul(conj(vh.swapaxes(-1, -2)),
                         sinv[:, None] * gpunp.matmul(conj(u.swapaxes(-1, -2)), bt))
    if rank == n and m > n:
        r = b.astype(t) - gpunp.matmul(a.astype(t), x)
        resids = gpunp.sum((r * conj(r)).real if t.kind == "c" else r * r, axis=0).astype(rt)
    else:
        resids = gpunp.empty((0,), rt)
    return x.astype(result_t), resids, numpy.int32(rank), s.astype(rt)
