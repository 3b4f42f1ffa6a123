"""Reductions: sum, prod, min/max, any/all (ufunc reductions), mean, and
argmin/argmax — as functions and as ndarray methods."""

from __future__ import annotations

import operator

from gpunp import _lib
from gpunp._lib import check, ffi, lib
from gpunp._ndarray import _wrap, ndarray
from gpunp._ufunc import UFUNCS, _NO_VALUE, _axes, _single_out, _as_input


def _array(a) -> ndarray:
    return a if isinstance(a, ndarray) else _as_input(a)


def _no_where(where, name):
    if where is not True:
        raise NotImplementedError(f"{name} with where= is not supported yet")


def _ufunc_reduction(ufunc_name, doc):
    uf = UFUNCS[ufunc_name]

    def reduction(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NO_VALUE,
                  where=True):
        _no_where(where, ufunc_name)
        return uf.reduce(_array(a), axis=axis, dtype=dtype, out=out, keepdims=keepdims,
                         initial=initial)
    reduction.__doc__ = doc
    return reduction


sum = _ufunc_reduction("add", "Sum of the elements over the given axes (numpy.sum).")
prod = _ufunc_reduction("multiply", "Product of the elements over the given axes (numpy.prod).")
max = _ufunc_reduction("maximum", "Maximum over the given axes (numpy.max); NaN propagates.")
min = _ufunc_reduction("minimum", "Minimum over the given axes (numpy.min); NaN propagates.")
amax, amin = max, min


def _logical(ufunc_name, doc):
    uf = UFUNCS[ufunc_name]

    def reduction(a, axis=None, out=None, keepdims=False, *, where=True):
        _no_where(where, ufunc_name)
        return uf.reduce(_array(a), axis=axis, out=out, keepdims=keepdims)
    reduction.__doc__ = doc
    return reduction


any = _logical("logical_or", "Whether any element is true over the given axes (numpy.any).")
all = _logical("logical_and", "Whether all elements are true over the given axes (numpy.all).")


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """Arithmetic mean over the given axes (numpy.mean); integers average in
    float64, float16 in float32."""
    _no_where(where, "mean")
    a = _array(a)
    o = _single_out(out, "mean")
    naxes, axes = _axes(axis, a.ndim)
    res = ffi.new("gp_array_t **")
    if o is not None:
        res[0] = o._h
    check(lib.gp_array_mean(a._h, naxes, axes, bool(keepdims),
                            -1 if dtype is None else _lib.dtype_code(dtype), res))
    return o if o is not None else _wrap(res[0])


def _arg(maximum):
    def argext(a, axis=None, out=None, *, keepdims=False):
        a = _array(a)
        o = _single_out(out, "argmax" if maximum else "argmin")
        res = ffi.new("gp_array_t **")
        if o is not None:
            res[0] = o._h
        ax = lib.GP_AXIS_NONE if axis is None else operator.index(axis)
        check(lib.gp_array_argextreme(a._h, maximum, ax, bool(keepdims), res))
        return o if o is not None else _wrap(res[0])
    argext.__name__ = "argmax" if maximum else "argmin"
    argext.__doc__ = (f"Index of the first {'maximum' if maximum else 'minimum'} along an "
                      f"axis (numpy.{argext.__name__}); NaN counts as extreme.")
    return argext


argmax = _arg(1)
argmin = _arg(0)


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


for _name, _fn, _uf in (("sum", sum, "add"), ("prod", prod, "multiply"),
                        ("max", max, "maximum"), ("min", min, "minimum"),
                        ("any", any, "logical_or"), ("all", all, "logical_and")):
    setattr(ndarray, _name, _full_reduction_method(_fn, _uf))
for _name, _fn in (("mean", mean), ("argmax", argmax), ("argmin", argmin)):
    setattr(ndarray, _name, _method(_fn))
