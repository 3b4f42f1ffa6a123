"""The hot kernels of gpunp.scipy.sparse on the engine (csrc/include/gp_sparse.h).

Three products of a CSR matrix, given as its shape and its three arrays
(gpunp arrays: ``indptr`` and ``indices`` both int32 or both int64, ``data``
bool, int32, int64, float32, float64, complex64 or complex128):

- ``csr_matvec(shape, indptr, indices, data, x)``: ``A @ x`` for ``x`` of
  shape ``(shape[1],)``;
- ``csr_matmat(shape, indptr, indices, data, X)``: ``A @ X`` for a dense
  ``X`` of shape ``(shape[1], k)``;
- ``csr_spgemm(shape_a, a_indptr, a_indices, a_data, shape_b, b_indptr,
  b_indices, b_data)``: ``A @ B`` as ``(indptr, indices, data)`` of a CSR
  matrix of shape ``(shape_a[0], shape_b[1])``, each row's indices sorted and
  distinct, sums that are exactly zero left out; int32 indices when they
  fit, else int64.

And one solve, where the backend has a sparse direct solver (cuSOLVER's
sparse QR on CUDA; the host and HIP have none):

- ``csr_solve(n, indptr, indices, data, B)``: ``(X, singular)`` with
  ``A X[i] = B[i]`` for each row of ``B`` (shape ``(n,)`` or ``(k, n)``, of
  A's float or complex dtype), A's rows sorted and distinct; ``singular``
  is -1, or a row where A was found exactly singular (X is then
  meaningless). ``NotImplementedError`` where the backend has no solver.

Results are new C-contiguous arrays of ``numpy.result_type`` of the two
operands' dtypes, computed as SciPy's sparsetools compute them (on the host
backend bit for bit). Rows may hold unsorted and repeated indices. A shape
that does not fit is SciPy's ``ValueError('dimension mismatch')``; an index
or indptr value outside the matrix is an ``IndexError`` (on a GPU at the
next point the host waits for the device).
"""

from __future__ import annotations

import operator

import gpunp
from gpunp import engine

__all__ = ["csr_matvec", "csr_matmat", "csr_spgemm", "csr_solve"]


def _shape(shape) -> tuple:
    try:
        m, n = (operator.index(v) for v in shape)
    except (TypeError, ValueError):
        raise TypeError(f"shape must be a tuple of two integers, not {shape!r}") from None
    if m < 0 or n < 0:
        raise ValueError(f"'shape' elements cannot be negative: {shape!r}")
    return m, n


def _arrays(*arrays) -> list:
    for a in arrays:
        if not isinstance(a, gpunp.ndarray):
            raise TypeError(f"expected gpunp arrays, got {type(a).__name__} "
                            "(convert with gpunp.asarray)")
    return [engine.handle(a) for a in arrays]


def _matmul(shape, indptr, indices, data, x, ndim: int):
    m, n = _shape(shape)
    handles = _arrays(indptr, indices, data, x)
    if x.ndim != ndim or x.shape[0] != n:
        raise ValueError("dimension mismatch")
    out = engine.ffi.new("gp_array_t **")
    engine.check(engine.lib.gp_csr_matmul(m, n, *handles, out))
    return engine.adopt(out[0])


def csr_matvec(shape, indptr, indices, data, x):
    """``A @ x`` for the CSR matrix A and a 1-d ``x`` of shape[1] elements."""
    return _matmul(shape, indptr, indices, data, x, 1)


def csr_matmat(shape, indptr, indices, data, X):
    """``A @ X`` for the CSR matrix A and a 2-d ``X`` of shape[1] rows."""
    return _matmul(shape, indptr, indices, data, X, 2)


def csr_spgemm(shape_a, a_indptr, a_indices, a_data, shape_b, b_indptr, b_indices, b_data):
    """``A @ B`` of two CSR matrices, as CSR ``(indptr, indices, data)``."""
    am, an = _shape(shape_a)
    bm, bn = _shape(shape_b)
    handles = _arrays(a_indptr, a_indices, a_data, b_indptr, b_indices, b_data)
    if an != bm:
        raise ValueError("dimension mismatch")
    out = engine.ffi.new("gp_array_t *[3]")
    engine.check(engine.lib.gp_csr_spgemm(am, an, *handles[:3], bm, bn, *handles[3:],
                                          out + 0, out + 1, out + 2))
    return tuple(engine.adopt(out[i]) for i in range(3))


def csr_solve(n, indptr, indices, data, B):
    """``(X, singular)``: ``A X[i] = B[i]`` by the backend's sparse direct
    solver, for the n x n CSR matrix A (canonical rows)."""
    m, _ = _shape((n, n))
    handles = _arrays(indptr, indices, data, B)
    out = engine.ffi.new("gp_array_t **")
    singular = engine.ffi.new("int64_t *")
    engine.check(engine.lib.gp_csr_solve(m, *handles, out, singular))
    return engine.adopt(out[0]), int(singular[0])
