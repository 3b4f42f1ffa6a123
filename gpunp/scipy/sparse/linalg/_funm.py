"""``funm_multiply_krylov``: ``f(t A) b`` by a restarted Krylov method
(Afanasjew, Eiermann, Ernst and Güttel), as SciPy's.

Each cycle builds m Arnoldi (or, for a Hermitian A, Lanczos) vectors on the
device, reading each step's new Hessenberg entries in one transfer; the
Hessenberg matrix of all cycles so far (at most ``m * max_restarts`` square)
is kept on the host, and ``f`` is applied to it as a gpunp array on the
device (``f`` is gpunp's function: ``gpunp.scipy.linalg.expm``, a lambda of
gpunp operations...)."""

import numpy

import gpunp as gp

from ..csgraph._csr import device
from ._interface import aslinearoperator

__all__ = ["funm_multiply_krylov"]

_NAME = "scipy.sparse.linalg.funm_multiply_krylov"


def _arnoldi(A, v0, scale, V, H, m, hermitian):
    """Fills V[0..m] (rows, on the device) and H (host, (m+1) x m) from v0 / scale.
    Returns (breakdown, steps): SciPy's breakdown test is an absolute eps**2."""
    tol = numpy.finfo(V.dtype).eps ** 2
    V[0] = v0 / scale
    for k in range(m):
        w = A.matvec(V[k])
        if hermitian:
            if k > 0:
                w = w - H[k, k - 1] * V[k - 1]
            h = gp.vdot(w, V[k]).reshape(1) if w.dtype.kind == "c" else \
                gp.dot(w, V[k]).reshape(1)
            w = w - h[0] * V[k]
            lo = k
        else:
            basis = V[:k + 1]
            # classical Gram-Schmidt done twice: two products instead of k dots
            h = basis.conj() @ w
            w = w - h @ basis
            h2 = basis.conj() @ w
            w = w - h2 @ basis
            h = h + h2
            lo = 0
        got = gp.concatenate([h.astype(V.dtype),
                              gp.linalg.norm(w).reshape(1).astype(V.dtype)]).get()
        H[lo:k + 1, k] = got[:-1]
        beta = got[-1].real
        H[k + 1, k] = beta
        if beta < tol:
            return True, k
        V[k + 1] = w / beta
        if hermitian and k < m - 1:
            H[k, k + 1] = beta
    return False, m


def funm_multiply_krylov(f, A, b, *, assume_a="general", t=1.0, atol=0.0, rtol=1e-6,
                         restart_every_m=None, max_restarts=20):
    """``f(t A) @ b`` by a restarted Krylov method; as
    scipy.sparse.linalg.funm_multiply_krylov, except that ``f`` is handed the
    small projected matrix as a gpunp array (and may return a gpunp or NumPy
    array)."""
    if assume_a not in ("hermitian", "general", "her", "gen"):
        raise ValueError(f"{_NAME}: {assume_a} is not a recognized matrix structure")
    hermitian = assume_a in ("her", "hermitian")
    b = device(b)
    if b.ndim != 1:
        raise ValueError(f"{_NAME}: argument 'b' must be a 1D array.")
    n = b.shape[0]
    m = int(min(20, n) if restart_every_m is None else restart_every_m)
    max_restarts = int(max_restarts)
    if m <= 0:
        raise ValueError(f"{_NAME}: argument 'restart_every_m' must be positive.")
    if max_restarts <= 0:
        raise ValueError(f"{_NAME}: argument 'max_restarts' must be positive.")
    max_restarts = min(max_restarts, int(n / m) + 1)
    bnorm = float(gp.linalg.norm(b))
    if atol is None or isinstance(atol, str) or not atol >= 0:
        raise ValueError(f"'{_NAME}' called with invalid `atol`={atol}; if set, `atol` "
                         "must be a real, non-negative number.")
    atol = max(float(atol), float(rtol) * bnorm)
    if bnorm == 0:
        return b.copy()
    A = aslinearoperator(A)
    # NumPy's common_type: inexact, at least float64 for integers
    dtype = numpy.result_type(*(d if d.kind in "fc" else numpy.float64
                                for d in (numpy.dtype(A.dtype or b.dtype), b.dtype)))
    V = gp.zeros((m + 1, n), dtype=dtype)
    H = numpy.zeros((m * max_restarts + 1, m * max_restarts), dtype=dtype)

    def coefficients(end):
        fH = f(gp.asarray(t * H[:end, :end]))
        return gp.asarray(fH)[:, 0].astype(dtype)

    breakdown, j = _arnoldi(A, b.astype(dtype), bnorm, V, H[:m + 1, :m], m, hermitian)
    fH0 = coefficients(j)
    y = bnorm * (fH0 @ V[:j])
    if breakdown:
        return y
    update_norm = float(gp.linalg.norm(bnorm * fH0))
    restart = 1
    while restart < max_restarts and update_norm > atol:
        begin, end = restart * m, (restart + 1) * m
        breakdown, j = _arnoldi(A, V[m].copy(), 1.0, V, H[begin:end + 1, begin:end], m,
                                hermitian)
        end = begin + j if breakdown else end
        part = coefficients(end)[begin:end]
        y = y + bnorm * (part @ V[:j])
        if breakdown:
            return y
        update_norm = float(gp.linalg.norm(bnorm * part))
        restart += 1
    return y
