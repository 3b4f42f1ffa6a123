"""Reductions: sum, prod, min/max, any/all (ufunc reductions), mean, and
argmin/argmax — as functions and as ndarray methods."""

from __future__ import annotations

import warnings

import numpy

from gpunp import _lib
from gpunp._creation import _array
from gpunp._fusion import Var as _FuseVar
from gpunp._lib import check, ffi, lib
from gpunp._ndarray import _wrap
from gpunp._shaping import copyto
from gpunp._ufunc import UFUNCS, _NO_VALUE, _masked, _reduce_call, _single_out, where_mask

_NULL = ffi.NULL


def _axes(axis, ndim, scalar_axis_ok=True):
    """(naxes, axes) for the engine: None is every axis, a tuple those axes
    (the empty tuple none). A 0-d array also takes the single int axis 0 or
    -1 as every axis: NumPy keeps that for backwards compatibility (not in
    mean). Each axis is read as NumPy's ufunc reductions read it."""
    if axis is None:
        return 0, _NULL
    if isinstance(axis, tuple):
        # NumPy checks each axis' bounds before it reads the next
        ax = [_lib.normalize_axis(a, ndim, ValueError) for a in axis]
        return len(ax), ffi.new("int32_t[]", ax) if ax else ffi.new("int32_t[1]")
    a = _lib.c_int(axis, ValueError)
    if ndim == 0 and scalar_axis_ok and a in (0, -1):
        return 0, _NULL
    return 1, ffi.new("int32_t[1]", [a])


def _reduce(ufunc, name, a, axis, dtype, out, keepdims, initial, where):
    if type(a) is _FuseVar:  # inside a function gpunp.fuse traces
        return a._reduce(name, axis=axis, dtype=dtype, out=out, keepdims=keepdims,
                         **({} if initial is _NO_VALUE else {"initial": initial}),
                         **({} if where is True else {"where": where}))
    a = _array(a)
    o = _single_out(out, name)
    naxes, axes = _axes(axis, a.ndim)
    if where is not True:
        a = _masked(ufunc, a, where, dtype, initial)
    return _reduce_call(ufunc._id, a, o, naxes, axes, keepdims, dtype, initial)


def _ufunc_reduction(ufunc_name, public_name, doc):
    ufunc = UFUNCS[ufunc_name]

    def reduction(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NO_VALUE,
                  where=True):
        return _reduce(ufunc, public_name, a, axis, dtype, out, keepdims, initial, where)
    reduction.__name__ = public_name
    reduction.__doc__ = doc
    return reduction


sum = _ufunc_reduction("add", "sum", "Sum of the elements over the given axes (numpy.sum).")
prod = _ufunc_reduction("multiply", "prod",
                        "Product of the elements over the given axes (numpy.prod).")
max = _ufunc_reduction("maximum", "max",
                       "Maximum over the given axes (numpy.max); NaN propagates.")
min = _ufunc_reduction("minimum", "min",
                       "Minimum over the given axes (numpy.min); NaN propagates.")
amax, amin = max, min


def _logical(ufunc_name, public_name, doc):
    ufunc = UFUNCS[ufunc_name]

    def reduction(a, axis=None, out=None, keepdims=False, *, where=True):
        return _reduce(ufunc, public_name, a, axis, None, out, keepdims, _NO_VALUE, where)
    reduction.__name__ = public_name
    reduction.__doc__ = doc
    return reduction


any = _logical("logical_or", "any",
               "Whether any element is true over the given axes (numpy.any).")
all = _logical("logical_and", "all",
               "Whether all elements are true over the given axes (numpy.all).")


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """Arithmetic mean over the given axes (numpy.mean); integers average in
    float64, float16 in float32."""
    if type(a) is _FuseVar:  # inside a function gpunp.fuse traces
        return a._reduce("mean", axis=axis, dtype=dtype, out=out, keepdims=keepdims,
                         **({} if where is True else {"where": where}))
    a = _array(a)
    o = _single_out(out, "mean")
    if axis is not None and where is True:
        # NumPy's mean counts the elements first, reading each axis as a C
        # argument (OverflowError past a C int), and then sums (bools
        # refused); with where= it counts with a sum
        _lib.normalize_axis_tuple(axis, a.ndim, allow_duplicate=True)
    naxes, axes = _axes(axis, a.ndim, scalar_axis_ok=False)
    if where is not True:
        return _masked_mean(a, axis, dtype, o, keepdims, where)
    res = ffi.new("gp_array_t **")
    if o is not None:
        res[0] = o._h
    check(lib.gp_array_mean(a._h, naxes, axes, bool(keepdims),
                            -1 if dtype is None else _lib.dtype_code(dtype), res))
    return o if o is not None else _wrap(res[0])


def masked_count(a, axis, keepdims, where):
    """How many elements where= keeps in each reduced slice (int64)."""
    return sum(where_mask(where, a.shape), axis=axis, dtype=numpy.intp, keepdims=keepdims)


def _masked_mean(a, axis, dtype, out, keepdims, where):
    """NumPy's mean with where=: the kept elements' sum over their count."""
    count = masked_count(a, axis, keepdims, where)
    if bool(any(count == 0)):
        warnings.warn("Mean of empty slice.", RuntimeWarning, stacklevel=3)
    res_dt = None
    if dtype is None and a.dtype.kind in "biu":
        dtype = numpy.float64
    elif dtype is None and _lib.dtype_code(a.dtype) in (_lib.FLOAT16, _lib.BFLOAT16):
        dtype, res_dt = numpy.float32, a.dtype  # the 16-bit floats sum in float32
    total = sum(a, axis=axis, dtype=dtype, keepdims=keepdims, where=where)
    r = UFUNCS["true_divide"](total, count, out=total, casting="unsafe")
    if res_dt is not None:
        r = r.astype(res_dt)
    if out is None:
        return r
    copyto(out, r, casting="unsafe")
    return out


def _arg(maximum):
    name = "argmax" if maximum else "argmin"

    def argext(a, axis=None, out=None, *, keepdims=False):
        a = _array(a)
        o = _single_out(out, name)
        res = ffi.new("gp_array_t **")
        if o is not None:
            res[0] = o._h
        if axis is None:
            ax = lib.GP_AXIS_NONE
        else:
            ax = _lib.c_int(axis, ValueError)
            if ax == lib.GP_AXIS_NONE:
                raise _lib._axis_error(
                    f"axis {ax} is out of bounds for array of dimension {a.ndim}")
            if a.ndim == 0 and ax in (0, -1):
                ax = lib.GP_AXIS_NONE
        check(lib.gp_array_argextreme(a._h, maximum, ax, bool(keepdims), res))
        return o if o is not None else _wrap(res[0])
    argext.__name__ = name
    argext.__doc__ = (f"Index of the first {'maximum' if maximum else 'minimum'} along an "
                      f"axis (numpy.{name}); NaN counts as extreme.")
    return argext


argmax = _arg(1)
argmin = _arg(0)


def _cumulative(ufunc_name, public_name, doc):
    accumulate = UFUNCS[ufunc_name].accumulate

    def cumulative(a, axis=None, dtype=None, out=None):
        a = _array(a)
        if axis is None and a.ndim == 1:
            axis = 0  # already flat: no view to make (a row of bench/ times this call)
        elif axis is None or a.ndim == 0:  # NumPy takes a 0-d array's axis 0 as the flat one
            if axis is not None:
                _lib.normalize_axis(axis, 1, ValueError)
            a, axis = a.reshape(-1), 0
        else:
            axis = _lib.normalize_axis(axis, a.ndim, ValueError)
        return accumulate(a, axis=axis, dtype=dtype, out=out)
    cumulative.__name__ = public_name
    cumulative.__doc__ = doc
    return cumulative


cumsum = _cumulative("add", "cumsum", "Cumulative sum along an axis, or of the flattened array "
                                      "(numpy.cumsum).")
cumprod = _cumulative("multiply", "cumprod", "Cumulative product along an axis, or of the "
                                             "flattened array (numpy.cumprod).")

# ---- methods ------------------------------------------------------------------------

def _method(fn):
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    method.__name__ = fn.__name__
    method.__doc__ = fn.__doc__
    return method


def _full_reduction_method(fn, ufunc_name):
    """The method, with a fast path for the common call without arguments
    (a reduction over every axis: one engine call)."""
    uid = UFUNCS[ufunc_name]._id
    reduce, out_cell, null = lib.gp_ufunc_reduce, _lib.out_cell, ffi.NULL

    def method(self, *args, **kwargs):
        if args or kwargs:
            return fn(self, *args, **kwargs)
        out = out_cell()
        out[0] = null
        s = reduce(uid, self._h, 0, null, 0, -1, null, out)
        if s:
            raise _lib.error(s)
        return _wrap(out[0])
    method.__name__ = fn.__name__
    method.__doc__ = fn.__doc__
    return method


# the rows of gpunp._ndarray.METHODS
_sum_method = _full_reduction_method(sum, "add")
_prod_method = _full_reduction_method(prod, "multiply")
_max_method = _full_reduction_method(max, "maximum")
_min_method = _full_reduction_method(min, "minimum")
_any_method = _full_reduction_method(any, "logical_or")
_all_method = _full_reduction_method(all, "logical_and")
_mean_method = _method(mean)
_argmax_method = _method(argmax)
_argmin_method = _method(argmin)
_cumsum_method = _method(cumsum)
_cumprod_method = _method(cumprod)
