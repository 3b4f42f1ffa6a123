"""scipy.linalg's solvers and factorizations on gpunp.linalg.

Everything here is gpunp.linalg (the engine's solvers on a GPU, LAPACK
through NumPy on the host backend) and gpunp operations, with SciPy's
signatures, checks (``check_finite``: ValueError for inf or NaN) and
errors. The ``overwrite_*`` arguments are accepted and ignored: the
factorizations copy their input anyway (gpunp.linalg's column-major copy).

Triangular solves have no engine entry of their own yet: a triangular
system is turned upper triangular (rows and columns reversed for a lower
one) and solved by halves, recursively, as a blocked trsm does: matrix
products, and gpunp.linalg.solve for diagonal blocks of order 128 or less,
on which LU's partial pivoting never swaps, so their arithmetic is back
substitution's. The work is O(n^2 k) in products plus O(128^2 n) in the
small solves."""

from __future__ import annotations

import warnings

import numpy

import gpunp
import gpunp.linalg as _la

from gpunp.scipy._version import scipy_version
from gpunp.scipy.linalg._batch import as_device
LinAlgError = numpy.linalg.LinAlgError


class LinAlgWarning(RuntimeWarning):
    """The warning SciPy gives for an ill-conditioned or singular matrix
    (SciPy's own class when SciPy is installed)."""


try:  # the same class as SciPy's, so its filters catch gpunp's warnings
    from scipy.linalg import LinAlgWarning  # noqa: F811
except ImportError:  # pragma: no cover - SciPy is optional at run time
    pass


def asarray_validated(a, check_finite=True) -> gpunp.ndarray:
    """a as a gpunp array in a dtype LAPACK takes (integers and bools as
    float64, float16 as float32); with check_finite, SciPy's ValueError
    for an inf or a NaN."""
    a = as_device(a)
    if a.dtype.kind in "biu":
        a = a.astype(numpy.float64)
    elif a.dtype == numpy.float16:
        a = a.astype(numpy.float32)
    elif a.dtype.kind not in "fc":
        raise ValueError(f"object arrays and dtype {a.dtype} are not supported")
    if check_finite and a.size and not bool(gpunp.all(gpunp.isfinite(a))):
        raise ValueError("array must not contain infs or NaNs")
    return a


# what SciPy raises for a matrix that is not square, by function
_NOT_SQUARE = {
    "cholesky": (ValueError, "Input array is expected to be square but has the shape: "
                             "{shape}."),
    "inv": (ValueError, "Expected square matrix, got a1.shape={shape}"),
    "det": (ValueError, "Last 2 dimensions of the array must be square but received shape "
                        "{shape}."),
    "eigh": (ValueError, 'expected square "a" matrix'),
    "eig": (ValueError, "expected square matrix"),
    "expm": (LinAlgError, "Last 2 dimensions of the array must be square"),
    "logm": (ValueError, "expected a square matrix"),
    "trig": (ValueError, "expected square array_like input"),
}
# SciPy 1.18's batched cholesky and eig reword theirs
_NOT_SQUARE_SINCE_1_18 = {
    "cholesky": (ValueError, "Expected a square matrix or batch thereof, got a1.shape={shape}"),
    "eig": (ValueError, "Expected a square matrix or a batch of square matrices. Got "
                        "a.shape = {shape}"),
}


def svd_needs_matrix(a) -> None:
    """The ValueError of SciPy's svd (and of pinv, orth, null_space, which
    call it) for fewer than two dimensions; SciPy 1.18 reworded it."""
    if a.ndim < 2:
        raise ValueError(f"Expected at least ndim=2, got a1.ndim={a.ndim}"
                         if scipy_version() >= 11800 else "expected matrix")


def require_square(a, kind: str) -> None:
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        table = _NOT_SQUARE_SINCE_1_18 if scipy_version() >= 11800 else {}
        cls, text = table.get(kind, _NOT_SQUARE[kind])
        # SciPy's cholesky names a vector's shape as a row's
        shape = (1,) + a.shape if kind == "cholesky" and a.ndim < 2 else a.shape
        raise cls(text.format(shape=shape))


def _h(a):
    """The conjugate transpose of the last two axes."""
    t = gpunp.swapaxes(a, -1, -2)
    return gpunp.conj(t) if t.dtype.kind == "c" else t


def _scipy_on_host(name, *args, **kwargs):
    """scipy.linalg.<name> on host copies of the gpunp arrays among args,
    its arrays (nested in tuples too) returned as gpunp arrays: for what
    no device routine computes. Needs SciPy."""
    import scipy.linalg

    def host(v):
        return gpunp.asnumpy(v) if isinstance(v, gpunp.ndarray) else v

    def back(r):
        if isinstance(r, tuple):
            return tuple(back(x) for x in r)
        return gpunp.asarray(r) if isinstance(r, (numpy.ndarray, numpy.generic)) else r
    return back(getattr(scipy.linalg, name)(*[host(v) for v in args],
                                            **{k: host(v) for k, v in kwargs.items()}))


# ---- triangular systems -----------------------------------------------------------------

_TRANS = {0: 0, 1: 1, 2: 2, "N": 0, "T": 1, "C": 2}


# the order up to which a triangular block is solved by one LU solve
_BLOCK = 128


def _upper_solve(u, b):
    """X with U X = B, U upper triangular with no zero on its diagonal,
    by halves: the lower half of X from U's last diagonal block, then the
    upper half from the first after one matrix product, so the work is
    matrix products but for blocks of order _BLOCK, each solved by LU
    (which never pivots on a triangle)."""
    n = u.shape[-1]
    if n <= _BLOCK:
        return _la.solve(u, b)
    h = n // 2
    x2 = _upper_solve(u[..., h:, h:], b[..., h:, :])
    x1 = _upper_solve(u[..., :h, :h], b[..., :h, :] - u[..., :h, h:] @ x2)
    return gpunp.concatenate([x1, x2], axis=-2)


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False,
                     check_finite=True):
    """Solve a x = b for a triangular (scipy.linalg.solve_triangular); only
    the triangle named by `lower` is read."""
    a = asarray_validated(a, check_finite)
    b = asarray_validated(b, check_finite)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("expected square matrix")
    if trans not in _TRANS:
        raise ValueError("invalid trans value")
    n = a.shape[-1]
    vector = b.ndim == 1
    if b.shape[-2 if not vector else 0] != n:
        raise ValueError(f"shapes of a {a.shape} and b {b.shape} are incompatible")
    t = numpy.result_type(a.dtype, b.dtype)
    tri = gpunp.tril(a) if lower else gpunp.triu(a)
    if unit_diagonal:
        tri = gpunp.where(gpunp.eye(n, dtype=bool), 1, tri)
    elif n:
        zero = gpunp.asnumpy(gpunp.diagonal(tri, axis1=-2, axis2=-1) == 0)
        if zero.any():
            i = int(numpy.nonzero(zero.reshape(-1, n).any(axis=0))[0][0])
            raise LinAlgError(f"singular matrix: resolution failed at diagonal {i}")
    code = _TRANS[trans]
    if code:
        tri = gpunp.swapaxes(tri, -1, -2)
        if code == 2 and tri.dtype.kind == "c":
            tri = gpunp.conj(tri)
        lower = not lower
    bm = b[:, None] if vector else b
    if n == 0 or bm.size == 0:
        x = gpunp.zeros(gpunp.broadcast_shapes(a.shape[:-2], bm.shape[:-2]) + bm.shape[-2:], t)
    elif lower:
        # reversing rows and columns turns a lower triangle into an upper one
        x = _upper_solve(tri[..., ::-1, ::-1], bm[..., ::-1, :])[..., ::-1, :]
    else:
        x = _upper_solve(tri, bm)
    x = gpunp.ascontiguousarray(x.astype(t, copy=False))
    return x[..., 0] if vector else x


# ---- LU ---------------------------------------------------------------------------------

def lu_factor(a, overwrite_a=False, check_finite=True):
    """(lu, piv) of scipy.linalg.lu_factor: getrf's factors, the 0-based
    pivot rows; a LinAlgWarning for an exactly zero pivot."""
    a = asarray_validated(a, check_finite)
    if a.ndim < 2:
        raise ValueError("expected matrix")
    lu, piv, info = _la.lu_factor(a)
    bad = gpunp.asnumpy(info)
    if bad.size and (bad > 0).any():
        warnings.warn(f"Diagonal number {int(bad[bad > 0].flat[0])} is exactly zero. "
                      "Singular matrix.", LinAlgWarning, stacklevel=2)
    return lu, piv


def _permutation(piv: numpy.ndarray, m: int) -> numpy.ndarray:
    """perm with (P A)[i] = A[perm[i]] for the row swaps piv (host ints:
    one small copy; SciPy applies them in a loop as well)."""
    flat = piv.reshape(-1, piv.shape[-1])
    perm = numpy.tile(numpy.arange(m), (flat.shape[0], 1))
    rows = numpy.arange(flat.shape[0])
    for j in range(flat.shape[1]):
        p = flat[:, j]
        top = perm[rows, j].copy()
        perm[rows, j] = perm[rows, p]
        perm[rows, p] = top
    return perm.reshape(piv.shape[:-1] + (m,))


def _take_rows(b, perm):
    """b[..., perm, :] per batch element."""
    idx = gpunp.asarray(perm)
    batch = gpunp.broadcast_shapes(b.shape[:-2], idx.shape[:-1])
    b = gpunp.broadcast_to(b, batch + b.shape[-2:])
    idx = gpunp.broadcast_to(idx, batch + idx.shape[-1:])
    return gpunp.take_along_axis(b, idx[..., None], axis=-2)


def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    """Solve a x = b (trans 0), a^T x = b (1) or a^H x = b (2) from
    lu_factor's (lu, piv) (scipy.linalg.lu_solve)."""
    lu, piv = lu_and_piv
    lu = asarray_validated(lu, check_finite)
    b = asarray_validated(b, check_finite)
    n = lu.shape[-1]
    if trans not in _TRANS:
        raise ValueError("invalid trans value")
    vector = b.ndim == 1
    bm = b[:, None] if vector else b
    if lu.ndim < 2 or lu.shape[-2] != n:
        raise ValueError("expected square matrix")
    if bm.shape[-2] != n:
        raise ValueError(f"Shapes of lu {lu.shape} and b {b.shape} are incompatible")
    t = numpy.result_type(lu.dtype, b.dtype)
    if n == 0 or b.size == 0:
        return gpunp.empty(gpunp.broadcast_shapes(lu.shape[:-2], bm.shape[:-2]) + b.shape[-2:]
                           if not vector else b.shape, t)
    perm = _permutation(gpunp.asnumpy(piv).astype(numpy.int64), n)
    code = _TRANS[trans]
    if code == 0:
        y = solve_triangular(lu, _take_rows(bm, perm), lower=True, unit_diagonal=True,
                             check_finite=False)
        x = solve_triangular(lu, y, check_finite=False)
    else:
        y = solve_triangular(lu, bm, trans=code, check_finite=False)
        z = solve_triangular(lu, y, trans=code, lower=True, unit_diagonal=True,
                             check_finite=False)
        x = _take_rows(z, numpy.argsort(perm, axis=-1))
    x = gpunp.ascontiguousarray(x.astype(t, copy=False))
    return x[..., 0] if vector else x


def lu(a, permute_l=False, overwrite_a=False, check_finite=True, p_indices=False):
    """(p, l, u), (pl, u) with permute_l, p as row indices with p_indices
    (scipy.linalg.lu): a = p @ l @ u, l unit lower trapezoidal."""
    a = asarray_validated(a, check_finite)
    if a.ndim < 2:
        raise ValueError("The input array must be at least two-dimensional.")
    m, n = a.shape[-2:]
    k = min(m, n)
    nd = a.shape[:-2]
    if k == 0:
        # SciPy's shapes for an empty matrix (P is 0 x 0 whatever m is)
        l_, u = gpunp.empty(nd + (m, k), a.dtype), gpunp.empty(nd + (k, n), a.dtype)
        if permute_l:
            return l_, u
        p = (gpunp.empty(nd + (0,), numpy.int32) if p_indices else
             gpunp.empty(nd + (0, 0), numpy.finfo(a.dtype).dtype))
        return p, l_, u
    f, piv, _ = _la.lu_factor(a)
    l_ = gpunp.tril(f[..., :, :k], -1) + gpunp.eye(m, k, dtype=f.dtype)
    u = gpunp.triu(f[..., :k, :])
    perm = _permutation(gpunp.asnumpy(piv).astype(numpy.int64), m)
    # a = P L U with row i of L U being row perm[i] of a
    inv = numpy.argsort(perm, axis=-1)
    if permute_l:
        return gpunp.ascontiguousarray(_take_rows(l_, inv)), u
    if p_indices:
        # (SciPy's 1 x 1 answer is int64, its others int32)
        pdt = numpy.int64 if (m, n) == (1, 1) else numpy.int32
        return gpunp.asarray(perm.astype(pdt)), l_, u
    # SciPy's P is real even for a complex a (but a 1 x 1 one's, a's dtype)
    pdt = f.dtype if (m, n) == (1, 1) else numpy.finfo(f.dtype).dtype
    p = (numpy.arange(m)[:, None] == perm[..., None, :]).astype(pdt)
    return gpunp.asarray(p), gpunp.ascontiguousarray(l_), u


# ---- Cholesky ---------------------------------------------------------------------------

def _cholesky_lower(a):
    try:
        return _la.cholesky(a)
    except LinAlgError:
        raise LinAlgError("the leading minor of the array is not positive definite") from None


def cholesky(a, lower=False, overwrite_a=False, check_finite=True):
    """The Cholesky factor, upper (a = U^H U) unless lower (scipy.linalg.cholesky)."""
    a = asarray_validated(a, check_finite)
    require_square(a, "cholesky")
    c = _cholesky_lower(a)
    return c if lower else gpunp.ascontiguousarray(_h(c))


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True):
    """(c, lower): the factor in c's named triangle (scipy.linalg.cho_factor);
    in the other, a's entries as LAPACK's potrf leaves them, or zeros as
    SciPy 1.18 writes them unless overwrite_a."""
    a = asarray_validated(a, check_finite)
    require_square(a, "cholesky")
    c = cholesky(a, lower=lower, check_finite=False)
    if scipy_version() >= 11800 and not overwrite_a:
        return c, lower
    n = a.shape[-1]
    keep = gpunp.tri(n, dtype=bool) if lower else gpunp.tri(n, dtype=bool).T
    return gpunp.where(keep, c, a), lower


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
    """Solve a x = b from cho_factor's (c, lower) (scipy.linalg.cho_solve)."""
    c, lower = c_and_lower
    c = asarray_validated(c, check_finite)
    b = asarray_validated(b, check_finite)
    if c.ndim < 2 or c.shape[-1] != c.shape[-2]:
        raise ValueError("The factored matrix c is not square.")
    if c.shape[-1] != b.shape[0 if b.ndim == 1 else -2]:
        raise ValueError(f"incompatible dimensions ({c.shape} and {b.shape})")
    if lower:
        y = solve_triangular(c, b, lower=True, check_finite=False)
        return solve_triangular(c, y, trans=2, lower=True, check_finite=False)
    y = solve_triangular(c, b, trans=2, check_finite=False)
    return solve_triangular(c, y, check_finite=False)


# ---- general systems and inverses ---------------------------------------------------------

_ASSUME = {"gen": "gen", "general": "gen", "sym": "sym", "symmetric": "sym", "her": "her",
           "hermitian": "her", "pos": "pos", "positive definite": "pos",
           "diagonal": "diagonal", "upper triangular": "upper", "lower triangular": "lower",
           "tridiagonal": "gen", "banded": "gen"}


def _from_triangle(a, lower, hermitian):
    """The symmetric (Hermitian) matrix that a's named triangle defines."""
    t = gpunp.tril(a, -1) if lower else gpunp.triu(a, 1)
    other = _h(t) if hermitian else gpunp.swapaxes(t, -1, -2)
    d = gpunp.diagonal(a, axis1=-2, axis2=-1)
    if hermitian and d.dtype.kind == "c":
        d = d.real.astype(a.dtype)
    return t + other + d[..., None, :] * gpunp.eye(a.shape[-1], dtype=a.dtype)


def solve(a, b, lower=False, overwrite_a=False, overwrite_b=False, check_finite=True,
          assume_a=None, transposed=False):
    """Solve a x = b (scipy.linalg.solve), a's structure from assume_a:
    general (LU), symmetric or Hermitian (from the triangle `lower` names),
    positive definite (Cholesky), diagonal or triangular."""
    a = asarray_validated(a, check_finite)
    b = asarray_validated(b, check_finite)
    kind = _ASSUME.get("gen" if assume_a is None else assume_a)
    if kind is None:
        raise ValueError(f"{assume_a} is not a recognized matrix structure")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("Input a needs to be a square matrix.")
    n = a.shape[-1]
    vector = b.ndim == 1
    bm = b[:, None] if vector else b
    if bm.shape[-2] != n:
        raise ValueError(f"incompatible shapes: a1.shape={a.shape} and b1.shape={b.shape}")
    t = numpy.result_type(a.dtype, b.dtype)
    if transposed:
        a = gpunp.swapaxes(a, -1, -2)
        lower = not lower
        kind = {"upper": "lower", "lower": "upper"}.get(kind, kind)
    if kind in ("upper", "lower"):
        x = solve_triangular(a, bm, lower=kind == "lower", check_finite=False)
    elif kind == "diagonal":
        d = gpunp.diagonal(a, axis1=-2, axis2=-1)
        if n and bool(gpunp.any(d == 0)):
            raise LinAlgError("A singular matrix detected: slice(s) [0] are singular.")
        x = bm / d[..., :, None]
    elif kind == "pos":
        c = cholesky(_from_triangle(a, lower, True), lower=True, check_finite=False)
        x = cho_solve((c, True), bm, check_finite=False)
    else:
        if kind in ("sym", "her"):
            a = _from_triangle(a, lower, kind == "her")
        batch = gpunp.broadcast_shapes(a.shape[:-2], bm.shape[:-2])
        try:
            x = _la.solve(gpunp.broadcast_to(a, batch + a.shape[-2:]),
                          gpunp.broadcast_to(bm, batch + bm.shape[-2:]))
        except LinAlgError:
            raise LinAlgError("A singular matrix detected: slice(s) [0] are singular.") from None
    x = gpunp.ascontiguousarray(gpunp.asarray(x).astype(t, copy=False))
    return x[..., 0] if vector else x


def inv(a, overwrite_a=False, check_finite=True, *, assume_a=None, lower=False):
    """The inverse (scipy.linalg.inv)."""
    a = asarray_validated(a, check_finite)
    require_square(a, "inv")
    try:
        return _la.inv(a)
    except LinAlgError:
        raise LinAlgError("A singular matrix detected: slice(s) [0] are singular.") from None


def det(a, overwrite_a=False, check_finite=True):
    """The determinant (scipy.linalg.det)."""
    a = asarray_validated(a, check_finite)
    require_square(a, "det")
    if a.shape[-1] == 0:
        return gpunp.ones(a.shape[:-2], a.dtype)[()] if a.ndim > 2 else gpunp.asarray(1.0)
    return _la.det(a)


def lstsq(a, b, cond=None, overwrite_a=False, overwrite_b=False, check_finite=True,
          lapack_driver=None):
    """(x, residues, rank, s) of scipy.linalg.lstsq (an SVD solve, gelsd's);
    over a batch of a, b (..., M, K) as SciPy's."""
    a, b = as_device(a), as_device(b)
    if a.ndim > 2:
        from gpunp.scipy.linalg._batch import over_batch
        return over_batch(2, 2)(_lstsq)(a, b, cond, overwrite_a, overwrite_b, check_finite,
                                       lapack_driver)
    return _lstsq(a, b, cond, overwrite_a, overwrite_b, check_finite, lapack_driver)


def _lstsq(a, b, cond=None, overwrite_a=False, overwrite_b=False, check_finite=True,
          lapack_driver=None):
    """(x, residues, rank, s) of scipy.linalg.lstsq (an SVD solve, gelsd's)."""
    if lapack_driver not in (None, "gelsd", "gelsy", "gelss"):
        raise ValueError(f'LAPACK driver "{lapack_driver}" is not found')
    a = asarray_validated(a, check_finite)
    b = asarray_validated(b, check_finite)
    if a.ndim != 2:
        raise ValueError("Input array a should be 2D")
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"Shape mismatch: a and b should have the same number of rows "
                         f"({a.shape[0]} != {b.shape[0]}).")
    if a.shape[0] == 0 or a.shape[1] == 0:
        # SciPy's answer for an empty system: x = 0, residues |b|^2 by column
        x = gpunp.zeros((a.shape[1],) + b.shape[1:], numpy.result_type(a.dtype, b.dtype))
        res = gpunp.sum(gpunp.abs(b) ** 2, axis=0) if a.shape[1] == 0 else gpunp.empty(
            0, numpy.finfo(x.dtype).dtype)
        return x, gpunp.asarray(res), 0, gpunp.empty(0, numpy.finfo(x.dtype).dtype)
    x, res, rank, s = _la.lstsq(a, b, rcond=cond)
    if lapack_driver == "gelsy":
        s = None
    return x, res, int(rank), s


def pinv(a, *, atol=None, rtol=None, return_rank=False, check_finite=True):
    """The pseudo-inverse from the SVD, singular values below
    atol + rtol * max(s) dropped (scipy.linalg.pinv)."""
    a = asarray_validated(a, check_finite)
    svd_needs_matrix(a)
    u, s, vh = _la.svd(a, full_matrices=False)
    t = s.dtype
    smax = gpunp.max(s, axis=-1, keepdims=True) if s.shape[-1] else gpunp.zeros(
        s.shape[:-1] + (1,), t)
    atol = 0.0 if atol is None else atol
    if rtol is None:
        rtol = max(a.shape[-2:]) * numpy.finfo(t).eps if atol == 0.0 else 0.0
    keep = s > (atol + rtol * smax)
    rank = gpunp.count_nonzero(keep, axis=-1)
    sinv = gpunp.where(keep, 1 / gpunp.where(keep, s, 1), 0).astype(t)
    b = gpunp.matmul(_h(vh) * sinv[..., None, :], _h(u))
    b = gpunp.ascontiguousarray(b.astype(a.dtype, copy=False))
    if return_rank:
        return b, (int(rank) if rank.ndim == 0 else rank)
    return b


def norm(a, ord=None, axis=None, keepdims=False, check_finite=True):
    """scipy.linalg.norm (numpy.linalg.norm after the finiteness check)."""
    a = asarray_validated(a, check_finite)
    return _la.norm(a, ord=ord, axis=axis, keepdims=keepdims)


# ---- eigenproblems and the SVD ------------------------------------------------------------

def eig(a, b=None, left=False, right=True, overwrite_a=False, overwrite_b=False,
        check_finite=True, homogeneous_eigvals=False):
    """Eigenvalues (complex, as SciPy's) and right eigenvectors (scipy.linalg.eig);
    the generalized problem (b) and left vectors are not supported yet."""
    if b is not None or left or homogeneous_eigvals:
        # the generalized problem and left vectors have no device routine
        # (cuSOLVER has no ggev): SciPy's on a host copy, as the Schur family
        return _scipy_on_host("eig", a, b, left=left, right=right, check_finite=check_finite,
                              homogeneous_eigvals=homogeneous_eigvals)
    a = asarray_validated(a, check_finite)
    require_square(a, "eig")
    ct = numpy.result_type(a.dtype, numpy.complex64)
    if a.size == 0:
        # (SciPy's eigenvectors of an empty matrix keep a's dtype)
        w = gpunp.empty(a.shape[:-1], ct)
        return (w, gpunp.empty(a.shape, a.dtype)) if right else w
    w, v = _la.eig(a)
    w = w.astype(ct, copy=False)
    return (w, v.astype(ct, copy=False)) if right else w


def eigvals(a, b=None, overwrite_a=False, check_finite=True, homogeneous_eigvals=False):
    """scipy.linalg.eigvals."""
    return eig(a, b, right=False, check_finite=check_finite,
               homogeneous_eigvals=homogeneous_eigvals)


def eigh(a, b=None, *, lower=True, eigvals_only=False, overwrite_a=False, overwrite_b=False,
         type=1, check_finite=True, subset_by_index=None, subset_by_value=None, driver=None):
    """The eigenvalues (ascending) and eigenvectors of a Hermitian matrix,
    read from its `lower` triangle (scipy.linalg.eigh); with b, the
    problem a v = w b v (type 1) through b's Cholesky factor. A subset is
    cut from the full decomposition."""
    a = asarray_validated(a, check_finite)
    require_square(a, "eigh")
    if driver not in (None, "ev", "evd", "evr", "evx", "gv", "gvd", "gvx"):
        raise ValueError(f'"{driver}" is unknown. Possible values are "None", "ev", "evd", '
                         '"evr", "evx", "gv", "gvd", "gvx".')
    if subset_by_index is not None and subset_by_value is not None:
        raise ValueError("Either index or value subset can be requested.")
    uplo = "L" if lower else "U"
    if b is not None:
        if type != 1:
            raise NotImplementedError("gpunp.scipy.linalg.eigh: only type 1 with b")
        b = asarray_validated(b, check_finite)
        if b.shape != a.shape:
            raise ValueError(f"wrong b dimensions {b.shape}, should be {a.shape}")
        c = cholesky(_from_triangle(b, lower, True), lower=True, check_finite=False)
        # L^-1 A L^-H has the same eigenvalues; its vectors map back by L^-H
        x = solve_triangular(c, _from_triangle(a, lower, True), lower=True, check_finite=False)
        m = solve_triangular(c, _h(x), lower=True, check_finite=False)
        w, v = _la.eigh(m)
        v = solve_triangular(c, v, trans=2, lower=True, check_finite=False)
    elif eigvals_only:
        w, v = _la.eigvalsh(a, UPLO=uplo), None
    else:
        w, v = _la.eigh(a, UPLO=uplo)
    n = a.shape[-1]
    if subset_by_index is not None:
        lo, hi = (int(i) for i in subset_by_index)
        if not 0 <= lo <= hi < n:
            raise ValueError("Requested eigenvalue indices are not valid. Valid range is "
                             f"[0, {n - 1}] and start <= end, but start={lo}, end={hi} is "
                             "given")
        w = w[..., lo:hi + 1]
        v = None if v is None else v[..., lo:hi + 1]
    elif subset_by_value is not None:
        lo, hi = subset_by_value
        if not lo < hi:
            raise ValueError("Requested eigenvalue bounds are not valid. Valid range is "
                             f"(-inf, inf] and lo < hi, but lo={lo}, hi={hi} is given")
        if w.ndim > 1:
            # how many values fall in the range differs by matrix: one at a
            # time, stacked (SciPy's batching)
            from gpunp.scipy.linalg._batch import over_batch
            return over_batch(2)(eigh)(a, None if b is None else b, lower=lower,
                                       eigvals_only=eigvals_only, type=type,
                                       check_finite=False, subset_by_value=subset_by_value)
        keep = gpunp.asnumpy((w > lo) & (w <= hi))
        idx = numpy.nonzero(keep)[-1]
        w = w[gpunp.asarray(idx)]
        v = None if v is None else v[:, gpunp.asarray(idx)]
    w = gpunp.ascontiguousarray(w)
    return w if eigvals_only else (w, gpunp.ascontiguousarray(v))


def eigvalsh(a, b=None, *, lower=True, overwrite_a=False, overwrite_b=False, type=1,
             check_finite=True, subset_by_index=None, subset_by_value=None, driver=None):
    """scipy.linalg.eigvalsh."""
    return eigh(a, b, lower=lower, eigvals_only=True, type=type, check_finite=check_finite,
                subset_by_index=subset_by_index, subset_by_value=subset_by_value,
                driver=driver)


def svd(a, full_matrices=True, compute_uv=True, overwrite_a=False, check_finite=True,
        lapack_driver="gesdd"):
    """(u, s, vh) or s (scipy.linalg.svd); both LAPACK drivers are the
    engine's SVD."""
    a = asarray_validated(a, check_finite)
    if lapack_driver not in ("gesdd", "gesvd"):
        raise ValueError(f'lapack_driver must be "gesdd" or "gesvd", not "{lapack_driver}"')
    svd_needs_matrix(a)
    if not compute_uv:
        return _la.svd(a, compute_uv=False)
    u, s, vh = _la.svd(a, full_matrices=full_matrices)
    return u, s, vh


def svdvals(a, overwrite_a=False, check_finite=True):
    """The singular values, descending (scipy.linalg.svdvals)."""
    return svd(a, compute_uv=False, check_finite=check_finite)


def qr(a, overwrite_a=False, lwork=None, mode="full", pivoting=False, check_finite=True):
    """Q and R (scipy.linalg.qr); modes "full", "economic", "r"; no pivoting yet."""
    if mode not in ("full", "r", "economic", "raw"):
        raise ValueError("Mode argument should be one of ['full', 'r', 'economic', 'raw']")
    if pivoting or mode == "raw":
        # column pivoting (geqp3) and LAPACK's raw reflectors have no device
        # routine: SciPy's on a host copy
        return _scipy_on_host("qr", a, mode=mode, pivoting=pivoting, check_finite=check_finite)
    a = asarray_validated(a, check_finite)
    if a.ndim < 2:
        raise ValueError("Expected at least a 2-D array" if scipy_version() >= 11800
                         else "expected a 2-D array")
    if mode == "r":
        return (_la.qr(a, mode="complete")[1],)
    q, r = _la.qr(a, mode="complete" if mode == "full" else "reduced")
    return q, r


def rq(a, overwrite_a=False, lwork=None, mode="full", check_finite=True):
    """R and Q with a = R Q, R upper trapezoidal at the right, Q unitary
    (scipy.linalg.rq), from the QR factorization of a's reversed rows,
    conjugate-transposed."""
    if mode not in ("full", "r", "economic"):
        raise ValueError("Mode argument should be one of ['full', 'r', 'economic']")
    a = asarray_validated(a, check_finite)
    if a.ndim < 2:
        raise ValueError("expected matrix")
    m, n = a.shape[-2:]
    q1, r1 = _la.qr(_h(a[..., ::-1, :]), mode="reduced" if mode == "economic" else "complete")
    # a[::-1] = r1^H q1^H, so a = (P r1^H P')(P' q1^H) with P, P' reversals
    r = gpunp.ascontiguousarray(_h(r1)[..., ::-1, ::-1])
    q = gpunp.ascontiguousarray(_h(q1)[..., ::-1, :])
    if mode == "r":
        return r
    return r, q


def cdf2rdf(w, v):
    """The real block diagonal form (wr, vr) of a real matrix's complex
    eigendecomposition (scipy.linalg.cdf2rdf): each conjugate pair (j, k)
    becomes the block [[Re w_j, Im w_j], [Im w_k, Re w_k]] of wr, and vr =
    v U with U mixing the pair's columns, (v_j - v_k) i / 2 and
    (v_j + v_k) / 2. Finding the pairs reads w (n values a matrix) back;
    the product runs on the device."""
    w, v = asarray_validated(w), asarray_validated(v)
    if w.ndim < 1:
        raise ValueError("expected w to be at least 1D")
    if v.ndim < 2:
        raise ValueError("expected v to be at least 2D")
    if v.ndim != w.ndim + 1:
        raise ValueError("expected eigenvectors array to have exactly one dimension more "
                         "than eigenvalues array")
    n = w.shape[-1]
    if v.shape[-2] != v.shape[-1]:
        raise ValueError("expected v to be a square matrix or stacked square matrices: "
                         "v.shape[-2] = v.shape[-1]")
    if v.shape[-1] != n:
        raise ValueError("expected the same number of eigenvalues as eigenvectors")
    hw = gpunp.asnumpy(w).astype(numpy.complex128, copy=False).reshape(-1, n)
    cplx = hw.imag != 0
    if (cplx.sum(axis=-1) % 2).any():
        raise ValueError("expected complex-conjugate pairs of eigenvalues")
    wr = numpy.zeros(hw.shape + (n,), numpy.finfo(numpy.result_type(w.dtype)).dtype)
    u = numpy.zeros(hw.shape + (n,), numpy.complex128)
    idx = numpy.arange(n)
    for b in range(hw.shape[0]):
        wr[b, idx, idx] = hw[b].real
        u[b, idx, idx] = 1
        pos = numpy.nonzero(cplx[b])[0]
        # conjugate pairs are adjacent, the first of each at an even place
        for j, k in zip(pos[0::2], pos[1::2]):
            wr[b, j, k], wr[b, k, j] = hw[b, j].imag, hw[b, k].imag
            u[b, j, j], u[b, j, k], u[b, k, j], u[b, k, k] = 0.5j, 0.5, -0.5j, 0.5
    shape = w.shape[:-1] + (n, n)
    # (SciPy's vr is double precision whatever v's precision)
    vr = (v.astype(numpy.complex128) @ gpunp.asarray(u.reshape(shape))).real
    return gpunp.asarray(wr.reshape(shape)), gpunp.ascontiguousarray(vr)
