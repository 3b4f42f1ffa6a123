"""Matrix functions of sparse matrices: inv, expm, matrix_power, and the
structure queries is_sptriangular and spbandwidth.

inv, expm and matrix_power compute on the dense matrix on the device (the
same fallback as spsolve's, see _dsolve) and give for a sparse input a
sparse result of the class SciPy's has (``_csr_result``); the structure
queries read only the stored entries."""

import math

import numpy

import gpunp as gp

from ..csgraph._csr import _dense_result, csr_parts, device, entry_rows, is_sparse
from ._dsolve import _dense_of, solution_kind, spsolve

__all__ = ["expm", "inv", "is_sptriangular", "matrix_power", "spbandwidth"]

# Higham (2005): the [13/13] Pade approximant's coefficients and the 1-norm
# up to which it reaches double precision
_PADE13 = (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800.,
           129060195264000., 10559470521600., 670442572800., 33522128640., 1323241920.,
           40840800., 960960., 16380., 182., 1.)
_THETA13 = 5.371920351148152


# The class of SciPy's result for a sparse input, by the input's format:
# expm's products keep CSR and CSC, turn COO into CSR, and its solve turns the
# others into a csc_array (``solution_kind``); matrix_power's products keep
# every format but COO, which becomes CSR.
_EXPM_FORMAT = {"csr": "csr", "csc": "csc", "coo": "csr"}
_POWER_FORMAT = {"coo": "csr"}


def inv(A):
    """The inverse of a sparse square matrix, as scipy.sparse.linalg.inv
    (spsolve of the identity; sparse of spsolve's class)."""
    if not is_sparse(A):
        raise TypeError("Input must be a sparse arrays")
    n = A.shape[0]
    x = spsolve(A, gp.eye(n, dtype=numpy.result_type(A.dtype, numpy.float32)))
    if n == 1:
        return x.reshape(1)  # as SciPy: spsolve of a one-column identity is a vector
    return _dense_result(x, *solution_kind(A))


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
    if not is_sparse(A):
        return out
    if power == 0:
        return _dense_result(out, format="dia")  # SciPy's eye_array
    fmt = A.format if power == 1 else _POWER_FORMAT.get(A.format, A.format)
    return _dense_result(out, like=A, format=fmt)


def expm(A):
    """The matrix exponential by scaling and squaring of the [13/13] Pade
    approximant (Higham, 2005), as scipy.sparse.linalg.expm; products and
    the solve run on the device."""
    if len(A.shape) != 2 or A.shape[0] != A.shape[1]:
        raise ValueError("expected a square matrix")
    a = _dense_of(A)
    n = a.shape[0]
    if n <= 1:
        # SciPy's exact cases keep the input's class
        r = gp.exp(a) if n else a
        return _dense_result(r, like=A, format=A.format) if is_sparse(A) else r
    if a.dtype.kind not in "fc":
        a = a.astype(gp.float64)
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
    if not is_sparse(A):
        return r
    fmt = _EXPM_FORMAT.get(A.format)
    return _dense_result(r, like=A, format=fmt) if fmt else _dense_result(r, format="csc")


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
