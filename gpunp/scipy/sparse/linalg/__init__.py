"""``gpunp.scipy.sparse.linalg``: ``scipy.sparse.linalg`` for gpunp arrays.

Operators (``LinearOperator``, ``aslinearoperator``) and Krylov solvers
(``cg``, ``cgs``, ``bicg``, ``bicgstab``, ``gmres``, ``minres``) take any
operator: a gpunp array, a sparse matrix (anything with ``tocsr``), a
LinearOperator. Their vectors stay on the device."""

from ._interface import LinearOperator, aslinearoperator
from ._isolve import bicg, bicgstab, cg, cgs, gmres, minres

__all__ = ["LinearOperator", "aslinearoperator", "bicg", "bicgstab", "cg", "cgs", "gmres",
           "minres"]
