"""``gpunp.scipy.sparse``: ``scipy.sparse`` for gpunp arrays, name for name.

Sparse arrays (``csr_array``...) and matrices (``csr_matrix``...) whose index
and value arrays are gpunp arrays on the device, in the CSR, CSC, COO, DIA and
BSR formats; their arithmetic, products, reductions and conversions run on
the device (products through ``_device.py``: cuSPARSE on CUDA, generated
kernels elsewhere). ``x.get()`` (or ``gpunp.asnumpy(x)``) gives the SciPy
object of the same format and flavour; the constructors take SciPy objects.

Where SciPy gives a ``numpy.matrix`` (a sparse matrix's ``todense()``, its
reductions along an axis) gpunp gives a 2-D gpunp array of the same shape.
The LIL and DOK formats (``lil_array``, ``dok_array``...), which exist for
building a matrix entry by entry, live on the host as SciPy's own objects;
their conversions and arithmetic give device formats. ``linalg`` and ``csgraph`` load at first use.
"""

import importlib as _importlib
import os as _os

from gpunp.scipy._version import scipy_version as _scipy_version
from gpunp.scipy.sparse._sputils import (
    SparseEfficiencyWarning, SparseWarning, get_index_dtype)
from gpunp.scipy.sparse._base import (
    isspmatrix, isspmatrix_bsr, isspmatrix_coo, isspmatrix_csc, isspmatrix_csr, isspmatrix_dia,
    isspmatrix_dok, isspmatrix_lil, issparse, sparray, spmatrix)
from gpunp.scipy.sparse._coo import coo_array, coo_matrix
from gpunp.scipy.sparse._compressed import csc_array, csc_matrix, csr_array, csr_matrix
from gpunp.scipy.sparse._dia import dia_array, dia_matrix
from gpunp.scipy.sparse._bsr import bsr_array, bsr_matrix
from gpunp.scipy.sparse._lil_dok import dok_array, dok_matrix, lil_array, lil_matrix
from gpunp.scipy.sparse._construct import (
    block_array, block_diag, bmat, diags, diags_array, expand_dims, eye, eye_array, find,
    hstack, identity, kron, kronsum, load_npz, matrix_transpose, permute_dims, rand, random,
    random_array, safely_cast_index_arrays, save_npz, spdiags, swapaxes, tril, triu, vstack)

# the subpackages, written beside this package and loaded at first use; one not
# there yet is no name of this package
_SUBPACKAGES = tuple(n for n in ("csgraph", "linalg")
                     if _os.path.isdir(_os.path.join(_os.path.dirname(__file__), n)))

__all__ = [
    "block_array", "block_diag", "bmat", "diags", "diags_array", "expand_dims", "eye",
    "eye_array", "find", "hstack", "identity", "kron", "kronsum", "load_npz", "permute_dims",
    "rand", "random", "random_array", "safely_cast_index_arrays", "save_npz", "spdiags",
    "swapaxes", "tril", "triu", "vstack",
    "SparseEfficiencyWarning", "SparseWarning", "bsr_array", "bsr_matrix", "coo_array",
    "coo_matrix", "csc_array", "csc_matrix", "csr_array", "csr_matrix", "dia_array",
    "dia_matrix", "dok_array", "dok_matrix", "get_index_dtype", "issparse", "isspmatrix",
    "isspmatrix_bsr", "isspmatrix_coo", "isspmatrix_csc", "isspmatrix_csr", "isspmatrix_dia",
    "isspmatrix_dok", "isspmatrix_lil", "lil_array", "lil_matrix", "sparray", "spmatrix",
] + list(_SUBPACKAGES)
if _scipy_version() >= 11800:  # new in SciPy 1.18
    __all__.append("matrix_transpose")


def __getattr__(name):
    if name in _SUBPACKAGES:
        return _importlib.import_module("gpunp.scipy.sparse." + name)
    raise AttributeError(f"module 'gpunp.scipy.sparse' has no attribute {name!r}")
