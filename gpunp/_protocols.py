"""NEP 18: ``__array_function__``. NumPy functions called on gpunp arrays run
gpunp's function of the same name; a function gpunp lacks raises NumPy's
TypeError rather than quietly running on the host."""

from __future__ import annotations

import numpy

from gpunp._ndarray import ndarray

#: the NumPy functions gpunp implements under the same name
ARRAY_FUNCTIONS = (
    "all", "amax", "amin", "any", "append", "argmax", "argmin", "argwhere", "array_split",
    "astype", "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_arrays", "broadcast_shapes",
    "broadcast_to", "can_cast", "choose", "column_stack", "compress", "concatenate", "copy",
    "copyto", "count_nonzero", "cumprod", "cumsum", "diag", "diagflat", "diagonal", "dot",
    "dsplit", "dstack", "empty_like", "expand_dims", "extract", "flatnonzero", "flip", "fliplr",
    "flipud", "fromfunction", "full_like", "geomspace", "hsplit", "hstack", "indices", "inner",
    "ix_", "logspace", "matmul", "max", "mean", "meshgrid", "min", "moveaxis", "ndim",
    "nonzero", "ones_like", "outer", "permute_dims", "place", "prod", "ptp", "put",
    "put_along_axis", "ravel", "ravel_multi_index", "repeat", "reshape", "resize",
    "result_type", "roll", "rollaxis", "rot90", "select", "shape", "size", "split", "squeeze",
    "stack", "std", "sum", "swapaxes", "take", "take_along_axis", "tensordot", "tile", "trace",
    "transpose", "tri", "tril", "trim_zeros", "triu", "unravel_index", "vander", "var", "vdot",
    "vsplit", "vstack", "where", "zeros_like",
)
# padding, inserting and deleting; the creation functions that take like=
# (NumPy hands them to the like= array's __array_function__); the array API
# standard's names
ARRAY_FUNCTIONS += (
    "delete", "frombuffer", "fromiter", "insert", "linspace", "pad",
    "concat", "cumulative_prod", "cumulative_sum", "imag", "matrix_transpose", "real",
    "unstack",
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
