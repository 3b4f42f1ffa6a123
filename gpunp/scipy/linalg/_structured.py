"""scipy.linalg's solvers for structured matrices (banded, Toeplitz,
tridiagonal), subspace angles and the Frechet derivative of expm, on the
device.

A banded or Toeplitz matrix is made dense on the device (one gather per
diagonal) and handed to the dense solvers: O(n^3) work where LAPACK's band
and Levinson solvers take O(n b^2) and O(n^2), but all of it in the
engine's factorizations, which on a GPU outrun a sequential recurrence for
the orders these are used at. The answers are the same; where SciPy's
algorithm fails on a matrix the dense one solves (Levinson on a singular
leading minor past the first), gpunp answers."""

from __future__ import annotations

import numpy

import gpunp
import gpunp.linalg as _la

from gpunp.scipy.linalg._batch import as_device
from gpunp.scipy.linalg._decomp import (
    LinAlgError, asarray_validated, cho_solve, cholesky, eigh, solve, svdvals)
from gpunp.scipy.linalg._matfuncs import expm, orth
from gpunp.scipy.linalg._special_matrices import toeplitz


def _from_bands(ab, lower, upper, n):
    """The n x n matrix whose diagonal at offset upper - k is row k of ab
    (LAPACK's band storage: a[i, j] = ab[upper + i - j, j])."""
    dense = gpunp.zeros((n, n), ab.dtype)
    for k in range(lower + upper + 1):
        d = upper - k
        cols = gpunp.arange(max(d, 0), min(n, n + d))
        if cols.size:
            dense[cols - d, cols] = ab[k, cols]
    return dense


def _rhs_dtype(*arrays):
    t = numpy.result_type(*[a.dtype for a in arrays])
    return t if t.kind in "fc" else numpy.dtype(numpy.float64)


def solve_banded(l_and_u, ab, b, overwrite_ab=False, overwrite_b=False, check_finite=True):
    """Solve a x = b for a banded a in LAPACK's band storage
    (scipy.linalg.solve_banded)."""
    lower, upper = (int(v) for v in l_and_u)
    ab = asarray_validated(ab, check_finite)
    b = asarray_validated(b, check_finite)
    if ab.shape[-1] != b.shape[0]:
        raise ValueError("shapes of ab and b are not compatible.")
    if lower + upper + 1 != ab.shape[0]:
        raise ValueError("invalid values for the number of lower and upper diagonals: "
                         f"l+u+1 ({lower + upper + 1}) does not equal ab.shape[0] "
                         f"({ab.shape[0]})")
    a = _from_bands(ab, lower, upper, ab.shape[-1])
    try:
        return solve(a, b, check_finite=False)
    except LinAlgError:
        raise LinAlgError("singular matrix") from None


def _hermitian_from_bands(ab, lower):
    n, w = ab.shape[-1], ab.shape[0] - 1
    if lower:
        tri = _from_bands(ab, w, 0, n)
    else:
        tri = _from_bands(ab, 0, w, n)
    off = gpunp.conj(tri.T) if tri.dtype.kind == "c" else tri.T
    d = gpunp.diagonal(tri)
    return tri + off - gpunp.diag(d.real if d.dtype.kind == "c" else d).astype(tri.dtype)


def solveh_banded(ab, b, overwrite_ab=False, overwrite_b=False, lower=False,
                  check_finite=True):
    """Solve a x = b for a Hermitian positive definite banded a
    (scipy.linalg.solveh_banded)."""
    ab = asarray_validated(ab, check_finite)
    b = asarray_validated(b, check_finite)
    if ab.shape[-1] != b.shape[0]:
        raise ValueError("shapes of ab and b are not compatible.")
    a = _hermitian_from_bands(ab, lower)
    try:
        c = cholesky(a, lower=True, check_finite=False)
    except LinAlgError:
        # SciPy names the order of the failing minor
        raise LinAlgError(f"{_first_bad_minor(a)}th leading minor not positive "
                          "definite") from None
    return cho_solve((c, True), b, check_finite=False)


def _first_bad_minor(a) -> int:
    """The order of a's first leading minor that is not positive definite,
    by bisection over Cholesky factorizations of leading blocks (a minor
    that is not positive definite has no larger one that is); only on the
    error path."""
    n = a.shape[-1]
    lo, hi = 1, n
    while lo < hi:  # bisect: minors up to mid are positive definite or not
        mid = (lo + hi) // 2
        try:
            _la.cholesky(a[:mid, :mid])
            lo = mid + 1
        except numpy.linalg.LinAlgError:
            hi = mid
    return lo


def solve_toeplitz(c_or_cr, b, check_finite=True):
    """Solve T x = b for the Toeplitz matrix T of first column c (and first
    row r) (scipy.linalg.solve_toeplitz), as a dense solve. SciPy's Levinson
    recursion raises where a leading minor of T is singular; gpunp raises
    where the first one is (c[0] = 0) and solves T where a later one is but
    T is not."""
    if isinstance(c_or_cr, tuple):
        c, r = (gpunp.ravel(asarray_validated(v, check_finite)) for v in c_or_cr)
    else:
        c = gpunp.ravel(asarray_validated(c_or_cr, check_finite))
        r = gpunp.conj(c)
    b = asarray_validated(b, check_finite)
    if b.shape[0] != c.size:
        raise ValueError("Incompatible c and b dimensions.")
    if c.size and bool(c[0] == 0):
        # Levinson's recursion starts by dividing by T's first leading minor
        raise LinAlgError("Singular principal minor")
    x = solve(toeplitz(c, r), b, check_finite=False)
    return x.astype(_rhs_dtype(c, r, b), copy=False)


def eigh_tridiagonal(d, e, eigvals_only=False, select="a", select_range=None,
                     check_finite=True, tol=0.0, lapack_driver="auto"):
    """The eigenvalues (and vectors) of the real symmetric tridiagonal
    matrix of diagonal d and off-diagonal e (scipy.linalg.eigh_tridiagonal),
    from the dense matrix's eigh on the device."""
    d = asarray_validated(d, check_finite)
    e = asarray_validated(e, check_finite)
    for name, v in (("d", d), ("e", e)):
        if v.ndim != 1:
            raise ValueError(f"expected 1-D {name}")
        if v.dtype.kind == "c":
            raise TypeError("Only real arrays currently supported")
    if d.size != e.size + 1:
        raise ValueError(f"d ({d.size}) must have one more element than e ({e.size})")
    if lapack_driver not in ("auto", "stemr", "sterf", "stebz", "stev"):
        raise ValueError(f"lapack_driver must be str in ('auto', 'stemr', 'sterf', 'stebz', "
                         f"'stev'), got {lapack_driver}")
    t = numpy.result_type(d.dtype, e.dtype)
    a = gpunp.diag(d.astype(t)) + gpunp.diag(e.astype(t), 1) + gpunp.diag(e.astype(t), -1)
    return eigh(a, eigvals_only=eigvals_only, check_finite=False,
                **_select(select, select_range))


def eigvalsh_tridiagonal(d, e, select="a", select_range=None, check_finite=True, tol=0.0,
                         lapack_driver="auto"):
    """scipy.linalg.eigvalsh_tridiagonal."""
    return eigh_tridiagonal(d, e, eigvals_only=True, select=select,
                            select_range=select_range, check_finite=check_finite, tol=tol,
                            lapack_driver=lapack_driver)


def subspace_angles(A, B):
    """The principal angles between the ranges of A and B, largest first
    (scipy.linalg.subspace_angles): cosines are the singular values of
    QA^H QB; angles whose cosine is near 1 come from the singular values of
    the residual instead, whose arcsine is accurate there."""
    a = asarray_validated(A)
    b = asarray_validated(B)
    for x in (a, b):
        if x.ndim != 2:
            raise ValueError(f"expected 2D array, got shape {x.shape}")
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"A and B must have the same number of rows, got {a.shape[0]} and "
                         f"{b.shape[0]}")
    qa, qb = orth(a), orth(b)
    cross = gpunp.conj(qa.T) @ qb
    cos = svdvals(cross, check_finite=False)
    resid = qb - qa @ cross if qa.shape[1] >= qb.shape[1] else qa - qb @ gpunp.conj(cross.T)
    near = cos * cos >= 0.5
    sin = gpunp.arcsin(gpunp.clip(svdvals(resid, check_finite=False), -1.0, 1.0)) \
        if bool(gpunp.any(near)) else 0.0
    return gpunp.where(near, sin, gpunp.arccos(gpunp.clip(cos[::-1], -1.0, 1.0)))


def expm_frechet(A, E, method=None, compute_expm=True, check_finite=True):
    """expm(A) and the Frechet derivative of expm at A in the direction E
    (scipy.linalg.expm_frechet), from the exponential of the block matrix
    [[A, E], [0, A]], whose upper right block is the derivative."""
    a = asarray_validated(A, check_finite)
    e = asarray_validated(E, check_finite)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError("expected A to be a square matrix")
    if e.ndim != 2 or e.shape[0] != e.shape[1]:
        raise ValueError("expected E to be a square matrix")
    if a.shape != e.shape:
        raise ValueError("expected A and E to be the same shape")
    if method not in (None, "SPS", "blockEnlarge"):
        raise ValueError(f"Unknown implementation {method}")
    n = a.shape[0]
    t = numpy.result_type(a.dtype, e.dtype, numpy.float64)
    m = gpunp.zeros((2 * n, 2 * n), t)
    m[:n, :n] = a
    m[n:, n:] = a
    m[:n, n:] = e
    x = expm(m)
    ea, frechet = gpunp.ascontiguousarray(x[:n, :n]), gpunp.ascontiguousarray(x[:n, n:])
    return (ea, frechet) if compute_expm else frechet


def _to_bands(dense, ab, lower, upper):
    """ab with its band entries replaced by dense's (the inverse of
    _from_bands; the unused corners of the storage keep ab's values, as
    LAPACK leaves them)."""
    out = ab.astype(dense.dtype, copy=True)
    n = dense.shape[-1]
    for k in range(lower + upper + 1):
        d = upper - k
        cols = gpunp.arange(max(d, 0), min(n, n + d))
        if cols.size:
            out[k, cols] = dense[cols - d, cols]
    return out


def cholesky_banded(ab, overwrite_ab=False, lower=False, check_finite=True):
    """The Cholesky factor of a Hermitian positive definite banded matrix,
    in the same band storage (scipy.linalg.cholesky_banded)."""
    ab = asarray_validated(ab, check_finite)
    w = ab.shape[0] - 1
    a = _hermitian_from_bands(ab, lower)
    try:
        c = cholesky(a, lower=lower, check_finite=False)
    except LinAlgError:
        raise LinAlgError(f"{_first_bad_minor(a)}-th leading minor not positive "
                          "definite") from None
    return _to_bands(c, ab, w if lower else 0, 0 if lower else w)


def cho_solve_banded(cb_and_lower, b, overwrite_b=False, check_finite=True):
    """Solve a x = b from cholesky_banded's factor (scipy.linalg.cho_solve_banded)."""
    cb, lower = cb_and_lower
    cb = asarray_validated(cb, check_finite)
    b = asarray_validated(b, check_finite)
    if cb.shape[-1] != b.shape[0]:
        raise ValueError("shapes of cb and b are not compatible.")
    w = cb.shape[0] - 1
    c = _from_bands(cb, w, 0, cb.shape[-1]) if lower else _from_bands(cb, 0, w, cb.shape[-1])
    return cho_solve((c, lower), b, check_finite=False)


def _select(select, select_range):
    if select in ("a", "all", 0):
        return {}
    if select in ("v", "value", 1):
        return {"subset_by_value": select_range}
    if select in ("i", "index", 2):
        return {"subset_by_index": select_range}
    raise ValueError(f"invalid argument for select: {select!r}")


def eig_banded(a_band, lower=False, eigvals_only=False, overwrite_a_band=False, select="a",
               select_range=None, max_ev=0, check_finite=True):
    """The eigenvalues (and vectors) of a Hermitian banded matrix in band
    storage (scipy.linalg.eig_banded), from the dense matrix's eigh."""
    ab = asarray_validated(a_band, check_finite)
    if ab.ndim != 2:
        raise ValueError("expected a 2-D array")
    a = _hermitian_from_bands(ab, lower)
    return eigh(a, eigvals_only=eigvals_only, check_finite=False,
                **_select(select, select_range))


def eigvals_banded(a_band, lower=False, overwrite_a_band=False, select="a", select_range=None,
                   check_finite=True):
    """scipy.linalg.eigvals_banded."""
    return eig_banded(a_band, lower=lower, eigvals_only=True, select=select,
                      select_range=select_range, check_finite=check_finite)
