"""NEP 18: ``__array_function__``. NumPy functions called on gpunp arrays run
gpunp's function of the same name; a function gpunp lacks raises NumPy's
TypeError rather than quietly running on the host."""

from __future__ import annotations

import numpy

from gpunp._ndarray import ndarray

#: the NumPy functions gpunp implements under the same name
ARRAY_FUNCTIONS = (
    "all", "amax", "amin", "angle", "any", "append", "argmax", "argmin", "argwhere", "array_split",
    "astype", "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_arrays", "broadcast_shapes",
    "broadcast_to", "can_cast", "choose", "column_stack", "compress", "concatenate", "copy",
    "copyto", "count_nonzero", "cumprod", "cumsum", "diag", "diagflat", "diagonal", "dot",
    "dsplit", "dstack", "empty_like", "expand_dims", "extract", "flatnonzero", "flip", "fliplr",
    "flipud", "fromfunction", "full_like", "geomspace", "hsplit", "hstack", "imag", "indices",
    "inner", "ix_", "logspace", "matmul", "max", "mean", "meshgrid", "min", "moveaxis", "ndim",
    "nonzero", "ones_like", "outer", "permute_dims", "place", "prod", "ptp", "put",
    "put_along_axis", "ravel", "ravel_multi_index", "real", "repeat", "reshape", "resize",
    "result_type", "roll", "rollaxis", "rot90", "select", "shape", "size", "split", "squeeze",
    "stack", "std", "sum", "swapaxes", "take", "take_along_axis", "tensordot", "tile", "trace",
    "transpose", "tri", "tril", "trim_zeros", "triu", "unravel_index", "vander", "var", "vdot",
    "vsplit", "vstack", "where", "zeros_like",
    # sorting, searching and sets (gpunp._sorting, gpunp._sets)
    "argpartition", "argsort", "intersect1d", "isin", "lexsort", "partition", "searchsorted",
    "setdiff1d", "setxor1d", "sort", "union1d", "unique", "unique_all", "unique_counts",
    "unique_inverse", "unique_values",
)
# statistics (issue 7): the nan-functions, scans and statistics, histograms
ARRAY_FUNCTIONS += (
    "nanargmax", "nanargmin", "nancumprod", "nancumsum", "nanmax", "nanmean", "nanmin",
    "nanprod", "nanstd", "nansum", "nanvar",
    "bincount", "histogram", "histogram2d", "histogram_bin_edges", "histogramdd",
    "median", "nanmedian", "nanpercentile", "nanquantile", "percentile", "quantile",
    "allclose", "around", "array_equal", "array_equiv", "average", "clip", "convolve",
    "corrcoef", "correlate", "cov", "diff", "digitize", "ediff1d", "gradient", "interp",
    "isclose", "round",
)

# index tricks (gpunp._index_tricks)
ARRAY_FUNCTIONS += (
    "apply_along_axis", "apply_over_axes", "diag_indices_from", "fill_diagonal", "piecewise",
    "putmask", "tril_indices_from", "triu_indices_from",
)

#: the numpy.linalg functions gpunp.linalg implements (all of them)
LINALG_FUNCTIONS = (
    "cholesky", "cond", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv",
    "lstsq", "matmul", "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose",
    "multi_dot", "norm", "outer", "pinv", "qr", "slogdet", "solve", "svd", "svdvals",
    "tensordot", "tensorinv", "tensorsolve", "trace", "vecdot", "vector_norm",
)

#: the numpy.fft functions, which gpunp.fft implements under the same name
FFT_FUNCTIONS = (
    "fft", "fft2", "fftn", "fftshift", "hfft", "ifft", "ifft2", "ifftn", "ifftshift", "ihfft",
    "irfft", "irfft2", "irfftn", "rfft", "rfft2", "rfftn",
)
# padding, inserting and deleting; the creation functions that take like=
# (NumPy hands them to the like= array's __array_function__); the array API
# standard's names
ARRAY_FUNCTIONS += (
    "delete", "frombuffer", "fromiter", "insert", "linspace", "pad",
    "concat", "cumulative_prod", "cumulative_sum", "imag", "matrix_transpose", "real",
    "unstack",
    "block", "einsum", "einsum_path", "kron",
)

# type tests and value clean-ups (gpunp._type_check); printing and files
# (gpunp._host_io)
ARRAY_FUNCTIONS += (
    "common_type", "fix", "iscomplex", "iscomplexobj", "isneginf", "isposinf", "isreal",
    "isrealobj", "min_scalar_type", "nan_to_num", "real_if_close",
    "array2string", "array_repr", "array_str", "save", "savetxt", "savez", "savez_compressed",
    # numerical helpers (gpunp._function_base)
    "cross", "may_share_memory", "shares_memory", "sinc", "sort_complex", "trapezoid",
    "unwrap", "row_stack",
)

# polynomials, bits, special functions (gpunp._polynomial, _bits, _special)
ARRAY_FUNCTIONS += (
    "poly", "polyadd", "polyder", "polydiv", "polyfit", "polyint", "polymul", "polysub",
    "polyval", "roots", "packbits", "unpackbits", "i0",
)

_TABLE: dict = {}


def _table() -> dict:
    if not _TABLE:
        import gpunp
        for name in ARRAY_FUNCTIONS:
            np_fn = getattr(numpy, name, None)
            gp_fn = getattr(gpunp, name, None)
            if np_fn is not None and gp_fn is not None:
                _TABLE[np_fn] = gp_fn
        from gpunp import linalg
        for name in LINALG_FUNCTIONS:
            _TABLE[getattr(numpy.linalg, name)] = getattr(linalg, name)
        import gpunp.fft
        for name in FFT_FUNCTIONS:
            _TABLE[getattr(numpy.fft, name)] = getattr(gpunp.fft, name)
        from gpunp.lib import stride_tricks
        _TABLE[numpy.lib.stride_tricks.sliding_window_view] = stride_tricks.sliding_window_view
    return _TABLE


def _array_function(self, func, types, args, kwargs):
    impl = _table().get(func)
    if impl is None:
        return NotImplemented
    for t in types:
        if not issubclass(t, ndarray):
            return NotImplemented
    return impl(*args, **kwargs)


ndarray.__array_function__ = _array_function
