"""gpunp.linalg: numpy.linalg for gpunp arrays (every name of NumPy 2's
numpy.linalg). Factorizations run on the GPU through the engine's dense
solvers (cuSOLVER on CUDA) and on the host backend through NumPy itself;
see gpunp/linalg/_linalg.py."""

from gpunp.linalg._common import (
    EigResult, EighResult, LinAlgError, QRResult, SlogdetResult, SVDResult)
from gpunp.linalg._linalg import (
    cholesky, cond, cross, det, diagonal, eig, eigh, eigvals, eigvalsh, inv, lstsq, lu_factor, matmul,
    matrix_norm, matrix_power, matrix_rank, matrix_transpose, multi_dot, norm, outer, pinv, qr,
    slogdet, solve, svd, svdvals, tensordot, tensorinv, tensorsolve, trace, vecdot, vector_norm)

__all__ = [
    "matrix_power", "solve", "tensorsolve", "tensorinv", "inv", "cholesky", "eigvals",
    "eigvalsh", "pinv", "slogdet", "det", "svd", "svdvals", "eig", "eigh", "lstsq", "norm", "qr",
    "cond", "matrix_rank", "LinAlgError", "multi_dot", "trace", "diagonal", "cross", "outer",
    "tensordot", "matmul", "matrix_transpose", "matrix_norm", "vector_norm", "vecdot",
    "lu_factor",  # a gpunp extension (getrf), which gpunp.scipy.linalg builds on
]
