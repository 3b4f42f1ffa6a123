"""Matrix functions of sparse matrices: inv, expm, matrix_power, and the
structure queries is_sptriangular and spbandwidth.

inv, expm and matrix_power compute on the dense matrix on the device (the
same fallback as spsolve's, see _dsolve) and return a CSR result
(``_csr_result``) for a sparse input; the structure queries read only the
stored entries."""

import math

import numpy

import gpunp as gp

from ..csgraph._csr import _csr_result, csr_from_mask, csr_parts, device, entry_rows, is_sparse
from ._dsolve import _dense_of, spsolve

__all__ = ["expm", "inv", "is_sptriangular", "matrix_power", "spbandwidth"]

# Higham (2005): the [13/13] Pade approximant's coefficients and the 1-norm
# up to which it reaches double precision
_PADE13 = (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800.,
           129060195264000., 10559470521600., 670442572800., 33522128640., 1323241920.,
           40840800., 960960., 16380., 182., 1.)
_THETA13 = 5.371920351148152


def _sparse_out(dense):
    indptr, indices, data = csr_from_mask(dense, dense != 0)
    return _csr_result(data, indices, indptr, dense.shape)


def inv(A):
    """The inverse of a sparse square matrix, as scipy.sparse.linalg.inv
    (spsolve of the identity; a CSR result)."""
    if not is_sparse(A):
        raise TypeError("Input must be a sparse arrays")
    n = A.shape[0]
    x = spsolve(A, gp.eye(n, dtype=numpy.result_type(A.dtype, numpy.float32)))
    if n == 1:
        return x.reshape(1)  # as SciPy: spsolve of a one-column identity is a vector
    return _sparse_out(x)


def matrix_power(A, power):
    """``A`` to an integer power >= 0 by repeated squaring on the device,
    as scipy.sparse.linalg.matrix_power."""
    if len(A.shape) != 2 or A.shape[0] != A.shape[1]:
        raise TypeError("sparse matrix is not square")
    if isinstance(power, bool) or not isinstance(power, (int, numpy.integer)):
        raise ValueError("exponent must be an integer")
    if power < 0:
        raise ValueError("exponent must be >= 0")
    out = gp.linalg.matrix_power(_dense_of(A), int(power))
    return _sparse_out(out) if is_sparse(A) else out


def expm(A):
    """The matrix exponential by scaling and squaring of the [13/13] Pade
    approximant (Higham, 2005), as scipy.sparse.linalg.expm; products and
    the solve run on the device."""
    if len(A.shape) != 2 or A.shape[0] != A.shape[1]:
        raise ValueError("expected a square matrix")
    a = _dense_of(A)
    if a.dtype.kind not in "fc":
        a = a.astype(gp.float64)
    n = a.shape[0]
    if n == 0:
        return _sparse_out(a) if is_sparse(A) else a
    norm1 = float(gp.max(gp.sum(gp.abs(a), axis=0)))
    s = max(0, math.ceil(math.log2(norm1 / _THETA13))) if norm1 > 0 else 0
    a = a * (2.0 ** -s)
    eye = gp.eye(n, dtype=a.dtype)
    a2 = a @ a
    a4 = a2 @ a2
    a6 = a4 @ a2
    b = _PADE13
    u = a @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 + b[3] * a2
             + b[1] * eye)
    v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 \
        + b[0] * eye
    r = gp.linalg.solve(v - u, v + u)
    for _ in range(s):
        r = r @ r
    return _sparse_out(r) if is_sparse(A) else r


def _entries(A):
    if is_sparse(A):
        indptr, indices, _, _ = csr_parts(A)
        return entry_rows(indptr).astype(gp.int64), indices.astype(gp.int64)
    a = device(A)
    rows, cols = gp.nonzero(a)
    return rows, cols


def is_sptriangular(A):
    """``(lower, upper)``: whether every stored entry is on or below
    (above) the diagonal, as scipy.sparse.linalg.is_sptriangular."""
    rows, cols = _entries(A)
    return bool(gp.all(cols <= rows)), bool(gp.all(cols >= rows))


def spbandwidth(A):
    """``(below, above)``: how far stored entries reach below and above the
    diagonal, as scipy.sparse.linalg.spbandwidth ((0, 0) for no entries,
    where SciPy's reduction of nothing fails)."""
    rows, cols = _entries(A)
    if rows.shape[0] == 0:
        return 0, 0
    gap = cols - rows
    return max(-int(gp.min(gap)), 0), max(int(gp.max(gap)), 0)
