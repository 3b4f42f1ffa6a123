"""``gpunp.scipy.sparse.linalg``: ``scipy.sparse.linalg`` for gpunp arrays.

- Operators: ``LinearOperator`` (SciPy's lazy algebra), ``aslinearoperator``.
- Krylov solvers (``cg``, ``cgs``, ``bicg``, ``bicgstab``, ``gmres``,
  ``minres``, ``qmr``, ``tfqmr``, and ``lgmres`` and ``gcrotmk``, which
  carry vectors across restarts) and least squares (``lsqr``, ``lsmr``):
  SciPy's algorithms and return values; vectors stay on the device and the
  host reads only the scalars a decision needs.
- Eigenvalues: ``eigsh`` (thick-restart Lanczos, shift-invert), ``eigs``
  (restarted Arnoldi), ``svds``,
  ``lobpcg``.
- ``norm``, ``onenormest``, ``expm_multiply``, ``funm_multiply_krylov``, ``expm``, ``inv``,
  ``matrix_power``, ``is_sptriangular``, ``spbandwidth``.
- Direct solvers (``spsolve``, ``splu``, ``spilu``, ``factorized``) run a
  dense LU on the device up to 8192 rows (no sparse direct solver is wired
  into the engine yet); ``spsolve_triangular`` is sparse, level by level;
  ``use_solver`` takes SciPy's keywords and changes nothing.

An operator argument is a gpunp array, a sparse matrix (anything with
``tocsr``) or a LinearOperator."""


from ._interface import LinearOperator, aslinearoperator
from ._laplacian_nd import LaplacianNd
from ._isolve import bicg, bicgstab, cg, cgs, gmres, minres, qmr, tfqmr
from ._dsolve import (MatrixRankWarning, SuperLU, factorized, spilu, splu, spsolve,
                      spsolve_triangular)
from ._eigen import ArpackError, ArpackNoConvergence, eigs, eigsh, lobpcg, svds
from ._expm import expm_multiply
from ._lsq import lsmr, lsqr
from ._recycle import gcrotmk, lgmres, use_solver
from ._funm import funm_multiply_krylov
from ._matfuncs import expm, inv, is_sptriangular, matrix_power, spbandwidth
from ._norm import norm, onenormest

__all__ = ["LinearOperator", "aslinearoperator", "bicg", "bicgstab", "cg", "cgs", "gmres",
           "minres", "qmr", "tfqmr", "gcrotmk", "lgmres", "use_solver", "funm_multiply_krylov", "lsmr", "lsqr", "expm_multiply", "norm", "onenormest",
           "ArpackError", "ArpackNoConvergence", "eigs", "eigsh", "lobpcg", "svds",
           "MatrixRankWarning", "SuperLU", "factorized", "spilu", "splu", "spsolve",
           "spsolve_triangular", "expm", "inv", "is_sptriangular", "matrix_power",
           "spbandwidth", "LaplacianNd"]
