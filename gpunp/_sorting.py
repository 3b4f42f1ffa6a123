"""Sorting and searching: searchsorted, sort, argsort, lexsort, partition,
argpartition (NumPy's "Sorting, searching, and counting" chapter).

The engine does the work (gp_sort.h): a generated bisection kernel for
searchsorted, stable LSD radix sorts for the sorts. NumPy's order holds
throughout: NaNs last, -0.0 equal to 0.0, complex numbers in NumPy's NaN
classes."""

from __future__ import annotations

import numpy

from gpunp._lib import check, ffi, lib
from gpunp._ndarray import _wrap, ndarray

_SIDES = {"left": lib.GP_SEARCH_LEFT, "right": lib.GP_SEARCH_RIGHT}


def _array(x) -> ndarray:
    from gpunp._creation import asarray
    return x if isinstance(x, ndarray) else asarray(x)


def _side_code(side) -> int:
    if not isinstance(side, str):
        raise TypeError(f"search side must be str, not {type(side).__name__}")
    try:
        return _SIDES[side]
    except KeyError:
        raise ValueError("search side must be one of 'left' or 'right'") from None


def searchsorted(a, v, side="left", sorter=None):
    """numpy.searchsorted: int64 indices of v's shape (a 0-d array for a
    scalar v). `a` and `v` are compared in their promoted dtype, as NumPy
    does (a Python scalar counts as its default NumPy dtype)."""
    code = _side_code(side)
    a = _array(a)
    if isinstance(v, ndarray):
        vdt = v.dtype
    else:
        host = numpy.asarray(v)
        vdt = host.dtype
        v = _array(host)
    dt = numpy.promote_types(a.dtype, vdt)
    if a.ndim != 1:
        raise ValueError("object too deep for desired array" if a.ndim else
                         "object of too small depth for desired array")
    a = a.astype(dt, copy=False)
    v = v.astype(dt, copy=False)
    sorter_h = ffi.NULL
    if sorter is not None:
        sorter = _array(sorter)
        if sorter.dtype.kind not in "iu":
            raise TypeError("sorter must only contain integers")
        if sorter.ndim != 1 or sorter.size != a.size:
            raise ValueError("sorter.size must equal a.size")
        sorter = sorter.astype(numpy.int64, copy=False)
        if sorter.size and (int(sorter.min()) < 0 or int(sorter.max()) >= a.size):
            raise ValueError("Sorter index out of range.")
        sorter_h = sorter._h
    out = ffi.new("gp_array_t **")
    check(lib.gp_array_searchsorted(a._h, v._h, code, sorter_h, out))
    return _wrap(out[0])


def _searchsorted_method(self, v, side="left", sorter=None):
    return searchsorted(self, v, side=side, sorter=sorter)


ndarray.searchsorted = _searchsorted_method
