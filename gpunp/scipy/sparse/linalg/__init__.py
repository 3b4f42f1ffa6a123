"""``gpunp.scipy.sparse.linalg``: ``scipy.sparse.linalg`` for gpunp arrays.

Operators (``LinearOperator``, ``aslinearoperator``) and Krylov solvers
(``cg``, ``cgs``, ``bicg``, ``bicgstab``, ``gmres``, ``minres``) take any
operator: a gpunp array, a sparse matrix (anything with ``tocsr``), a
LinearOperator. Their vectors stay on the device."""

from ._interface import LinearOperator, aslinearoperator
from ._isolve import bicg, bicgstab, cg, cgs, gmres, minres, qmr, tfqmr
from ._dsolve import (MatrixRankWarning, SuperLU, factorized, spilu, splu, spsolve,
                      spsolve_triangular)
from ._eigen import ArpackError, ArpackNoConvergence, eigsh, lobpcg, svds
from ._expm import expm_multiply
from ._lsq import lsmr, lsqr
from ._matfuncs import expm, inv, is_sptriangular, matrix_power, spbandwidth
from ._norm import norm, onenormest

__all__ = ["LinearOperator", "aslinearoperator", "bicg", "bicgstab", "cg", "cgs", "gmres",
           "minres", "qmr", "tfqmr", "lsmr", "lsqr", "expm_multiply", "norm", "onenormest",
           "ArpackError", "ArpackNoConvergence", "eigsh", "lobpcg", "svds",
           "MatrixRankWarning", "SuperLU", "factorized", "spilu", "splu", "spsolve",
           "spsolve_triangular", "expm", "inv", "is_sptriangular", "matrix_power",
           "spbandwidth"]
