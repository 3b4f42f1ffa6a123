"""Direct solvers: spsolve, splu, spilu, factorized, spsolve_triangular.

What runs:

- spsolve of a sparse A: the backend's sparse direct solver where it has
  one (on CUDA cuSOLVER's sparse QR, csrlsvqr, one right-hand side at a
  time; ``_device.csr_solve``); elsewhere (the host backend, HIP, a CUDA
  whose cuSOLVER lacks that API) and for a dense A, the dense matrix and
  ``gpunp.linalg.solve`` (LU with partial pivoting on the device), for
  matrices of at most ``DENSE_LIMIT`` rows;
- splu and factorized: a dense LU with partial pivoting on the device (one
  step per column: pivot search, row swap, rank-1 update), whose triangular
  factors are inverted once, so each later ``solve`` is two matrix products;
- spilu: that LU with the entries of L and U smaller than ``drop_tol`` times
  their column's largest entry in A dropped (``fill_factor``, ``drop_rule``
  and the SuperLU options are accepted and ignored);
- spsolve_triangular: sparse, level by level: each round solves every row
  whose dependencies are solved, with scatter-adds over the entries (as many
  rounds as the dependency graph is deep).

splu, spilu and factorized stay dense on every backend (cusolverSp has no
factorisation to keep and reuse; cuDSS is not wired). Past ``DENSE_LIMIT``
rows the dense methods raise NotImplementedError rather than fill the
device with an n x n matrix."""

import warnings

import numpy

import gpunp as gp

from .. import _device
from ..csgraph._csr import (_dense_result, canonical_coo, csr_from_mask, csr_parts, device,
                            is_sparse, scatter_reduce)

__all__ = ["MatrixRankWarning", "SuperLU", "factorized", "spilu", "splu", "spsolve",
           "spsolve_triangular"]

# The largest n for which the dense fallbacks form an n x n matrix
# (8192^2 float64 is 512 MiB).
DENSE_LIMIT = 8192


class MatrixRankWarning(UserWarning):
    """The matrix of spsolve is exactly singular."""


def _square(A, what="matrix must be square"):
    if len(A.shape) != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(f"{what} (has shape {tuple(A.shape)})")
    return A.shape[0]


def _dense_of(A, dtype=None):
    n = A.shape[0]
    if n > DENSE_LIMIT:
        raise NotImplementedError(
            f"gpunp has no sparse direct solver yet: its dense fallback takes matrices of "
            f"at most {DENSE_LIMIT} rows, this one has {n}; use an iterative solver "
            f"(cg, gmres, ...)")
    if is_sparse(A):
        indptr, indices, data, shape = csr_parts(A)
        rows, cols, vals = canonical_coo(indptr, indices, data, shape)
        out = gp.zeros(shape, dtype=dtype or vals.dtype)
        out[rows, cols] = vals.astype(out.dtype)
        return out
    a = device(A)
    return a.astype(dtype) if dtype is not None else a


def _solve_dtype(*dtypes):
    """SuperLU's types: float32, float64, complex64, complex128."""
    dt = numpy.result_type(*dtypes)
    if dt.kind not in "fc":
        return numpy.dtype(numpy.float64)
    return numpy.result_type(dt, numpy.float32)


def solution_kind(A):
    """(like, format) of a sparse solution of ``A X = B``, as SciPy's
    spsolve (and inv) build it: A's own class where A is CSR or CSC (SuperLU
    reads those), else the csc_array SciPy converts A to."""
    if is_sparse(A) and A.format in ("csr", "csc"):
        return A, A.format
    return None, "csc"


def spsolve(A, b, permc_spec=None, use_umfpack=True):
    """Solve ``A x = b`` for a square A (sparse or dense), as
    scipy.sparse.linalg.spsolve: a vector b (shape (N,) or (N, 1)) gives a
    1-d x, a matrix b a matrix. A singular A warns MatrixRankWarning and
    returns NaNs. A sparse b of several columns gives a sparse x
    (``solution_kind``). Runs the backend's sparse direct solver, else
    gpunp.linalg.solve on A's dense form (see the module's note)."""
    n = _square(A)
    b_sparse = is_sparse(b)
    bd = _dense_of(b) if b_sparse else device(b)
    vector = bd.ndim == 1 or (bd.ndim == 2 and bd.shape[1] == 1)
    if bd.shape[0] != n:
        raise ValueError(f"matrix - rhs dimension mismatch ({tuple(A.shape)} - {bd.shape[0]})")
    dtype = _solve_dtype(A.dtype, bd.dtype)
    rhs = bd.astype(dtype).reshape(n, -1)
    x = _library_solve(A, rhs) if is_sparse(A) and n and rhs.shape[1] else None
    if x is None:
        a = _dense_of(A, dtype)
        try:
            x = gp.linalg.solve(a, rhs) if n else gp.zeros((0, rhs.shape[1]), dtype=dtype)
            if _lost(x, rhs, a):
                raise gp.linalg.LinAlgError("singular")
        except gp.linalg.LinAlgError:
            x = False
    if x is False:
        warnings.warn("Matrix is exactly singular", MatrixRankWarning, stacklevel=2)
        x = gp.full(rhs.shape, numpy.nan, dtype=dtype)
    if vector:
        return x.ravel()
    return _dense_result(x, *solution_kind(A)) if b_sparse else x


def _lost(x, rhs, a):
    """Whether a solution went non-finite from finite operands: a singular
    matrix the factorisation did not stop at (rounding left its pivot
    nonzero)."""
    return (not bool(gp.all(gp.isfinite(x))) and bool(gp.all(gp.isfinite(rhs)))
            and bool(gp.all(gp.isfinite(a))))


def _library_solve(A, rhs):
    """x of ``A x = rhs`` (rhs n x k) by the backend's sparse direct solver;
    False where A is singular; None where the backend has none."""
    c = A.tocsr()
    if not c.has_canonical_format:
        c = c.copy()
        c.sum_duplicates()
    indptr, indices, data, shape = csr_parts(c)
    data = data.astype(rhs.dtype)
    try:
        xt, singular = _device.csr_solve(shape[0], indptr, indices, data,
                                         gp.ascontiguousarray(rhs.T))
    except NotImplementedError:
        return None
    if singular >= 0 or _lost(xt, rhs, data):
        return False
    return xt.T


def _dense_lu(a):
    """(lu, order): P a = L U with L unit lower and U upper packed in lu, and
    order[k] the row of `a` that became row k. Raises RuntimeError on a zero
    pivot, as SuperLU does."""
    n = a.shape[0]
    lu = a.copy()
    order = numpy.arange(n)
    for k in range(n):
        col = gp.abs(lu[k:, k])
        p = int(gp.argmax(col))
        if float(col[p]) == 0:
            raise RuntimeError("Factor is exactly singular")
        p += k
        if p != k:
            lu[[k, p]] = lu[[p, k]]
            order[[k, p]] = order[[p, k]]
        if k + 1 < n:
            lu[k + 1:, k] = lu[k + 1:, k] / lu[k, k]
            lu[k + 1:, k + 1:] -= gp.outer(lu[k + 1:, k], lu[k, k + 1:])
    return lu, order


class SuperLU:
    """An LU factorisation ``Pr A Pc = L U``, as scipy.sparse.linalg.SuperLU:
    ``shape``, ``nnz``, ``perm_r``, ``perm_c``, ``L``, ``U`` and
    ``solve(rhs, trans='N')``. gpunp's is dense (see the module's note);
    perm_c is the identity."""

    def __init__(self, lu, order, dtype):
        n = lu.shape[0]
        self.shape = (n, n)
        self.dtype = dtype
        eye = gp.eye(n, dtype=dtype)
        self._L = gp.tril(lu, -1) + eye
        self._U = gp.triu(lu)
        self.perm_r = gp.asarray(numpy.argsort(order)).astype(gp.int32)
        self.perm_c = gp.arange(n, dtype=gp.int32)
        self._order = gp.asarray(order)
        self.nnz = int(gp.count_nonzero(self._L)) + int(gp.count_nonzero(self._U))
        # inverted once: every solve is then two products on the device
        self._Linv = gp.linalg.inv(self._L) if n else eye
        self._Uinv = gp.linalg.inv(self._U) if n else eye

    @property
    def L(self):
        return _dense_result(self._L, format="csc")  # SuperLU's: a csc_array

    @property
    def U(self):
        return _dense_result(self._U, format="csc")

    def solve(self, rhs, trans="N"):
        """x with ``A x = rhs`` (trans 'N'), ``A^T x = rhs`` ('T') or
        ``A^H x = rhs`` ('H'); rhs of shape (N,) or (N, K)."""
        if trans not in ("N", "T", "H"):
            raise ValueError("trans must be N, T, or H")
        b = device(rhs)
        if b.ndim not in (1, 2) or b.shape[0] != self.shape[0]:
            raise ValueError(f"Shape of b must be ({self.shape[0]},) or "
                             f"({self.shape[0]}, K), not {b.shape}")
        dtype = numpy.result_type(self.dtype, b.dtype)
        b = b.astype(dtype)
        if trans == "N":
            return self._Uinv @ (self._Linv @ b[self._order])
        conj = gp.conj if trans == "H" else (lambda m: m)
        y = conj(self._Linv).T @ (conj(self._Uinv).T @ b)
        out = gp.empty_like(y)
        out[self._order] = y
        return out


def _factor(A):
    n = _square(A, "can only factor square matrices")
    dtype = _solve_dtype(A.dtype)
    a = _dense_of(A, dtype)
    lu, order = _dense_lu(a) if n else (a, numpy.arange(0))
    return a, lu, order, dtype


def splu(A, permc_spec=None, diag_pivot_thresh=None, relax=None, panel_size=None,
         options=None):
    """The LU factorisation of a square matrix, as scipy.sparse.linalg.splu
    (a SuperLU object); gpunp's is a dense LU on the device, and the
    ordering and SuperLU options are accepted and ignored."""
    _, lu, order, dtype = _factor(A)
    return SuperLU(lu, order, dtype)


def spilu(A, drop_tol=None, fill_factor=None, drop_rule=None, permc_spec=None,
          diag_pivot_thresh=None, relax=None, panel_size=None, options=None):
    """An incomplete LU factorisation for preconditioning, as
    scipy.sparse.linalg.spilu: gpunp's is the dense LU with the entries of L
    and U below ``drop_tol`` (default 1e-4) times the largest magnitude of
    their column of A dropped, so its ``solve`` approximates A's inverse."""
    a, lu, order, dtype = _factor(A)
    tol = 1e-4 if drop_tol is None else float(drop_tol)
    n = a.shape[0]
    if n:
        colmax = gp.max(gp.abs(a), axis=0)
        small = gp.abs(lu) < tol * colmax[None, :]
        small = small & ~gp.eye(n, dtype=bool)
        lu = gp.where(small, 0, lu)
    return SuperLU(lu, order, dtype)


def factorized(A):
    """A function solving ``A x = b`` for many b from one factorisation
    (splu's)."""
    return splu(A).solve


def spsolve_triangular(A, b, lower=True, overwrite_A=False, overwrite_b=False,
                       unit_diagonal=False):
    """Solve ``A x = b`` for a triangular A, as
    scipy.sparse.linalg.spsolve_triangular; only A's lower (or upper)
    triangle is read. Runs on the sparse structure, level by level (see the
    module's note)."""
    if len(A.shape) != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(f"A must be a square matrix but its shape is {tuple(A.shape)}.")
    n = A.shape[0]
    if is_sparse(A):
        indptr, indices, data, shape = csr_parts(A)
        rows, cols, vals = canonical_coo(indptr, indices, data, shape)
    else:
        a = device(A)
        indptr, cols, vals = csr_from_mask(a, a != 0)
        rows = gp.repeat(gp.arange(n), gp.diff(indptr))
    b = device(b)
    if b.ndim not in (1, 2):
        raise ValueError(f"b must have 1 or 2 dims but its shape is {b.shape}.")
    if b.shape[0] != n:
        raise ValueError("The size of the dimensions of A must be equal to the size of the "
                         f"first dimension of b but the shape of A is {tuple(A.shape)} and "
                         f"the shape of b is {b.shape}.")
    dtype = numpy.promote_types(numpy.promote_types(A.dtype, numpy.float32), b.dtype)
    on_diag = rows == cols
    diag = scatter_reduce(gp.add, rows[on_diag], vals[on_diag].astype(dtype), n, 0)
    if unit_diagonal:
        diag = gp.ones(n, dtype=dtype)
    elif n and bool(gp.any(diag == 0)):
        raise gp.linalg.LinAlgError("A is singular: zero entry on diagonal.")
    strict = (cols < rows) if lower else (cols > rows)
    r, c, v = rows[strict], cols[strict], vals[strict].astype(dtype)
    rhs = b.astype(dtype).reshape(n, -1)
    x = gp.zeros_like(rhs)
    acc = gp.zeros_like(rhs)          # sum of the solved part of each row
    # unsolved dependencies of each row
    waiting = scatter_reduce(gp.add, r, gp.ones(r.shape[0], dtype=gp.int64), n, 0)
    solved = gp.zeros(n, dtype=bool)
    while True:
        ready = (~solved) & (waiting == 0)
        if not bool(gp.any(ready)):
            break
        x = gp.where(ready[:, None], (rhs - acc) / diag[:, None], x)
        solved = solved | ready
        # the entries that read a row solved in this round
        fresh = ready[c]
        fr, fc, fv = r[fresh], c[fresh], v[fresh]
        acc = acc + scatter_reduce(gp.add, fr, fv[:, None] * x[fc], n, 0, dtype)
        waiting = waiting - scatter_reduce(gp.add, fr, gp.ones(fr.shape[0], dtype=gp.int64),
                                           n, 0)
    return x.reshape(b.shape)
