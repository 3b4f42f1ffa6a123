"""gpunp: NumPy-compatible arrays on the GPU.

``import gpunp as np`` gives NumPy's names for arrays that live in the memory
of an NVIDIA or AMD GPU (or of the host, with the host backend). The work is
done by a C engine; see ``gpunp.show_config()`` for what it runs on.
"""

import importlib as _importlib
import os as _os
import sys as _sys

import numpy as _numpy

from gpunp._lib import BackendError, CompileError, ffi as _ffi, lib as _lib_c
from gpunp import _lib as _lib_py

__version__ = _ffi.string(_lib_c.gp_version_string()).decode()


def _nvidia_wheel_dirs() -> str:
    """Library folders of the nvidia-* wheels on sys.path (for the CUDA
    backend to search; nothing is loaded here)."""
    dirs = []
    for p in _sys.path:
        root = _os.path.join(p or ".", "nvidia")
        if _os.path.isdir(root):
            for sub in sorted(_os.listdir(root)):
                for lib in ("lib", _os.path.join("cu13", "lib")):
                    d = _os.path.join(root, sub, lib)
                    if _os.path.isdir(d):
                        dirs.append(d)
    return ":".join(dirs)


_lib_c.gp_runtime_set_library_path(_nvidia_wheel_dirs().encode())

from gpunp import _ndarray  # noqa: E402
from gpunp._ndarray import ndarray  # noqa: E402
from gpunp._flatiter import flatiter  # noqa: E402
from gpunp._ufunc import ufunc, UFUNCS as _UFUNCS, ALIASES as _ALIASES  # noqa: E402

globals().update(_UFUNCS)
globals().update({alias: _UFUNCS[name] for alias, name in _ALIASES.items()})

from gpunp._creation import (  # noqa: E402
    arange, array, asarray, ascontiguousarray, asfortranarray, asnumpy, empty,
    empty_like, eye, frombuffer, fromiter, full, full_like, identity, ones, ones_like, zeros,
    zeros_like,
)
from gpunp._ranges import geomspace, linspace, logspace  # noqa: E402
from gpunp._reduction import (  # noqa: E402
    all, amax, amin, any, argmax, argmin, cumprod, cumsum, max, mean, min, prod, sum,
)
from gpunp._manipulation import (  # noqa: E402
    astype, broadcast_arrays, broadcast_shapes, broadcast_to, copy, ndim, permute_dims, ravel,
    reshape, shape, size, squeeze, swapaxes, transpose,
)
from gpunp._dtypes import can_cast, promote_types, result_type  # noqa: E402
from gpunp._joining import (  # noqa: E402
    atleast_1d, atleast_2d, atleast_3d, column_stack, concatenate, dstack, expand_dims, hstack,
    stack, vstack)
from gpunp._shaping import (  # noqa: E402
    append, array_split, copyto, dsplit, flip, fliplr, flipud, hsplit, moveaxis, repeat, resize,
    roll, rollaxis, rot90, split, tile, trim_zeros, vsplit)
from gpunp._matrices import (  # noqa: E402
    diag, diagflat, diagonal, fromfunction, indices, ix_, meshgrid, ravel_multi_index, trace,
    tri, tril, triu, unravel_index, vander)
from gpunp._indexing import (  # noqa: E402
    argwhere, choose, compress, count_nonzero, extract, flatnonzero, nonzero, place, put,
    put_along_axis, select, take, take_along_axis, where)
from gpunp._index_tricks import (  # noqa: E402
    apply_along_axis, apply_over_axes, c_, diag_indices, diag_indices_from, fill_diagonal,
    index_exp, mask_indices, mgrid, ndenumerate, ndindex, ogrid, piecewise, putmask, r_, s_,
    tril_indices, tril_indices_from, triu_indices, triu_indices_from)
from gpunp._products import dot, inner, matmul, outer, tensordot, vdot  # noqa: E402
from gpunp._einsum import block, einsum, einsum_path, kron  # noqa: E402
from gpunp._statistics import ptp, std, var  # noqa: E402
from gpunp._nanfunctions import (  # noqa: E402
    nanargmax, nanargmin, nancumprod, nancumsum, nanmax, nanmean, nanmin, nanprod, nanstd,
    nansum, nanvar)
from gpunp._histograms import (  # noqa: E402
    bincount, histogram, histogram2d, histogram_bin_edges, histogramdd)
from gpunp._sorting import (  # noqa: E402
    argpartition, argsort, lexsort, partition, searchsorted, sort)
from gpunp._quantiles import (  # noqa: E402
    median, nanmedian, nanpercentile, nanquantile, percentile, quantile)
from gpunp._statistics import average, corrcoef, cov  # noqa: E402
from gpunp._differences import diff, ediff1d, gradient  # noqa: E402
from gpunp._comparisons import (  # noqa: E402
    allclose, around, array_equal, array_equiv, clip, isclose, round)
from gpunp._signal import convolve, correlate, digitize, interp  # noqa: E402
from gpunp._sets import (  # noqa: E402
    intersect1d, isin, setdiff1d, setxor1d, union1d, unique, unique_all, unique_counts,
    unique_inverse, unique_values)
from gpunp._complex import angle, imag, real  # noqa: E402
from gpunp._interop import from_dlpack  # noqa: E402
from gpunp._padding import delete, insert, pad  # noqa: E402
from gpunp._array_api import (  # noqa: E402
    __array_api_version__, __array_namespace_info__, concat, cumulative_prod, cumulative_sum,
    imag, isdtype, matrix_transpose, real, unstack, vecdot)
from gpunp._type_check import (  # noqa: E402
    common_type, fix, iscomplex, iscomplexobj, isfortran, isneginf, isposinf, isreal, isrealobj,
    min_scalar_type, nan_to_num, real_if_close)
from gpunp._function_base import (  # noqa: E402
    asanyarray, asarray_chkfinite, bartlett, blackman, broadcast, cross, hamming, hanning,
    may_share_memory, require, row_stack, shares_memory, sinc, sort_complex, trapezoid, unwrap)
from gpunp._host_io import (  # noqa: E402
    array2string, array_repr, array_str, fromfile, fromstring, genfromtxt, load, loadtxt, save,
    savetxt, savez, savez_compressed, vectorize)
from gpunp._polynomial import (  # noqa: E402
    poly, poly1d, polyadd, polyder, polydiv, polyfit, polyint, polymul, polysub, polyval,
    roots)
from gpunp._bits import packbits, unpackbits  # noqa: E402
from gpunp._special import i0, kaiser  # noqa: E402
from gpunp._vecmat import matvec, vecmat  # noqa: E402
from gpunp._kernel import (  # noqa: E402
    ElementwiseKernel, RawKernel, RawModule, ReductionKernel)
from gpunp._fusion import fuse  # noqa: E402
from gpunp._config import backend, show_config  # noqa: E402
from gpunp._idioms import (  # noqa: E402
    clear_memo, get_array_module, memoize, scatter_add, scatter_max, scatter_min)
from gpunp import cuda  # noqa: E402
from gpunp.cuda import get_default_memory_pool, get_default_pinned_memory_pool  # noqa: E402

# NumPy's dtypes, scalar types and constants, shared (a dtype is host data)
from numpy import (  # noqa: E402
    bool_, complex64, complex128, dtype, e, euler_gamma, float16, float32, float64,
    finfo, iinfo, inf, int8, int16, int32, int64, intp, nan, newaxis, pi, uint8, uint16,
    uint32, uint64, uintp, issubdtype,
    number, integer, signedinteger, unsignedinteger, floating, complexfloating,
    inexact, generic,
)
from numpy import (  # noqa: E402
    byte, ubyte, short, ushort, intc, uintc, long, ulong, longlong, ulonglong, uint,
    True_, False_, little_endian, typecodes, ScalarType, sctypeDict, dtypes,
)
# NumPy's other scalar types, for dtype tests (`issubdtype(x.dtype, str_)`):
# gpunp holds no arrays of them, and refuses to make one with TypeError
from numpy import (  # noqa: E402
    bytes_, character, clongdouble, datetime64, flexible, longdouble, object_, str_,
    timedelta64, void,
)
# Questions about Python objects and dtypes, and printing, answered by
# NumPy: its print options govern gpunp's repr (a host copy printed by
# NumPy). gpunp's kernels raise no floating-point warnings, so the errstate
# family changes only what NumPy computes (docs/differences.md).
from numpy import (  # noqa: E402
    base_repr, binary_repr, errstate, format_float_positional, format_float_scientific,
    get_printoptions, getbufsize, geterr, geterrcall, isscalar, iterable, mintypecode,
    printoptions, set_printoptions, setbufsize, seterr, seterrcall, typename,
)
from numpy import bool_ as bool  # noqa: E402,A001
from numpy.exceptions import AxisError  # noqa: E402
from numpy import exceptions  # noqa: E402

complex_ = complex128
float_ = float64
int_ = int64
half, single, double = float16, float32, float64
csingle, cdouble = complex64, complex128


# The methods and operators of ndarray made by the modules above (the tables
# at the end of gpunp/_ndarray.py)
_ndarray.attach_methods()

# automatic fusion (off unless GPUNP_FUSION=1): needs the methods above
from gpunp._lazy import flush as _flush_fusion, fusion, fusion_enabled, set_fusion  # noqa: E402,F401

# Dask's dispatch tables get lazy entries for gpunp's chunk functions
# (gpunp.dask), now or when Dask is imported; Dask is not imported here
from gpunp import _dask_hook  # noqa: E402
_dask_hook.install()

# Submodules loaded at first use (__getattr__), to keep `import gpunp` fast:
# gpunp.testing loads numpy.testing (a third of the import time), gpunp.random
# numpy.random, and the others are not needed by the rest of the package
# (gpunp.engine, the C ABI's public binding, is for extensions and gpunp.scipy).
_LAZY_SUBMODULES = ("dask", "emath", "engine", "fft", "lib", "linalg", "polynomial",
                    "profiler", "random", "scipy", "testing", "typing", "x")

# The public names, as numpy.__all__ lists NumPy's: every name above that
# does not start with an underscore, the submodules loaded at first use, and
# the two dunders NumPy lists too.
__all__ = sorted({n for n in globals() if not n.startswith("_")} | set(_LAZY_SUBMODULES)
                 | {"__version__", "__array_namespace_info__"})


def __getattr__(name):
    if name in _LAZY_SUBMODULES:
        return _importlib.import_module("gpunp." + name)
    if name == "bfloat16":
        # ml_dtypes' type, as JAX and CuPy use it; loaded at first use (its
        # import costs more than NumPy's), absent without ml_dtypes
        try:
            return _lib_py.bfloat16().type
        except TypeError as e:
            raise AttributeError(f"module 'gpunp' has no attribute 'bfloat16' ({e})") from None
    if name == "special":
        # SciPy's array API support (SCIPY_ARRAY_API=1) looks a special
        # function up as `xp.special.<name>` in a namespace it does not know
        # (the Array API's anticipated `special` extension): gpunp's are
        # gpunp.scipy.special's, so SciPy's statistics built on them
        # (scipy.stats.entropy...) run on the device. Not in __all__: NumPy
        # has no `special`.
        return _importlib.import_module("gpunp.scipy.special")
    raise AttributeError(f"module 'gpunp' has no attribute {name!r}")
