"""Sorting and searching: searchsorted, sort, argsort, lexsort, partition,
argpartition (NumPy's "Sorting, searching, and counting" chapter).

The engine does the work (gp_sort.h): a generated bisection kernel for
searchsorted, stable LSD radix sorts for the sorts. NumPy's order holds
throughout: NaNs last, -0.0 equal to 0.0, complex numbers in NumPy's NaN
classes."""

from __future__ import annotations

import operator

import numpy

from gpunp import _lib
from gpunp._creation import asarray
from gpunp._indexing import take_along_axis
from gpunp._lib import check, ffi, lib
from gpunp._ndarray import _wrap, ndarray
from gpunp._shaping import flip

_SIDES = {"left": lib.GP_SEARCH_LEFT, "right": lib.GP_SEARCH_RIGHT}


def _array(x) -> ndarray:
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




# ---- sort, argsort ------------------------------------------------------------------------

def _check_kind(kind, stable) -> None:
    """NumPy's checks of kind= and stable=. Every kind sorts stably here
    (docs/differences.md): a stable sort has one answer, the same on every
    backend."""
    if kind is not None:
        if stable is not None:
            raise ValueError("`kind` and keyword parameters can't be provided at the same "
                             "time. Use only one of them.")
        if not isinstance(kind, str):
            raise TypeError(f"sort kind must be str, not {type(kind).__name__}")
        if not kind or kind[0].lower() not in "qhms":
            raise ValueError(f"sort kind must be one of 'quick', 'heap', or 'stable' "
                             f"(got {kind!r})")


def _check_order(order) -> None:
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")


def _sorted(a: ndarray, axis, indices: bool) -> ndarray:
    """The sort along `axis`, an int the caller read as its NumPy function
    reads it (c_int's two kinds of error), or None."""
    # normalized here, as an axis that happens to equal GP_AXIS_NONE is no None
    ax = lib.GP_AXIS_NONE if axis is None else _lib.normalize_axis(axis, a.ndim)
    out = ffi.new("gp_array_t **")
    check(lib.gp_array_sort(a._h, ax, 1 if indices else 0, out))
    return _wrap(out[0])


def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False) -> ndarray:
    """numpy.sort: a sorted copy (stable, NaNs last); the array API's
    descending=."""
    _check_kind(kind, stable)
    _check_order(order)
    a = _array(a)
    if axis is not None:
        axis = _lib.c_int(axis)  # NumPy's sort and argsort read it differently
    return _descending(a, axis, False) if descending else _sorted(a, axis, False)


def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False) -> ndarray:
    """numpy.argsort: int64 indices that sort `a` along `axis`, those of
    NumPy's stable argsort; the array API's descending=."""
    _check_kind(kind, stable)
    _check_order(order)
    a = _array(a)
    if axis is not None:
        axis = _lib.c_int(axis, ValueError)
    if a.ndim == 0:
        a = a.reshape(1)  # NumPy sorts a 0-d array as a 1-d one
    return _descending(a, axis, True) if descending else _sorted(a, axis, True)


def _descending(a, axis, indices):
    """The ascending order reversed (NaNs first), equal elements still in
    their order: the ascending sort of the reversed array, reversed."""
    if axis is None:
        a, axis = a.reshape(-1), -1
    if a.ndim == 0:
        return _sorted(a, axis, indices)
    axis = _lib.normalize_axis(axis, a.ndim)
    r = _sorted(flip(a, axis), axis, indices)
    if indices:
        r = (a.shape[axis] - 1) - r
    return flip(r, axis)


def _sort_method(self, axis=-1, kind=None, order=None, *, stable=None) -> None:
    axis = _lib.c_int(axis)  # the method takes no axis=None (NumPy's TypeError)
    _check_kind(kind, stable)
    _check_order(order)
    if not self.flags.writeable:
        raise ValueError("assignment destination is read-only")
    self[...] = _sorted(self, axis, False)


def _argsort_method(self, axis=-1, kind=None, order=None, *, stable=None) -> ndarray:
    return argsort(self, axis, kind, order, stable=stable)




def lexsort(keys, axis=-1) -> ndarray:
    """numpy.lexsort: indices sorting by the last key, then the one before...
    as successive stable argsorts, from the first key to the last."""
    axis = _lib.c_int(axis)
    if isinstance(keys, ndarray) and keys.ndim == 0:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    keys = [_array(k) for k in keys]
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    shape = keys[0].shape
    if any(k.shape != shape for k in keys):
        raise ValueError("all keys need to be the same shape")
    if len(shape) == 0:
        # NumPy gives the index 0 of the one element, as of a 1-d array
        _lib.normalize_axis(axis, 1)
        return argsort(keys[0])[0]
    order = argsort(keys[0], axis=axis)
    for k in keys[1:]:
        step = argsort(take_along_axis(k, order, axis=axis), axis=axis)
        order = take_along_axis(order, step, axis=axis)
    return order


# ---- partition, argpartition -------------------------------------------------------------

def _check_kth(kth, n: int, size: int) -> None:
    """NumPy's checks of kth (an int or a sequence of ints, each in [-n, n))."""
    host = numpy.asarray(kth.get() if isinstance(kth, ndarray) else kth)
    if host.dtype.kind == "b":
        raise ValueError("Booleans unacceptable as partition index")
    if host.ndim > 1:
        raise ValueError("kth must be an integer or a 1-d sequence of integers")
    if host.dtype.kind not in "iu":
        if host.size == 0:
            return
        raise TypeError("Partition index must be integer")
    if size == 0:
        return
    for k in host.reshape(-1).tolist():
        k = operator.index(k)
        if not -n <= k < n:
            raise ValueError(f"kth(={k + n if k < 0 else k}) out of bounds ({n})")


def _partition(a, kth, axis, kind, order, indices: bool) -> ndarray:
    if kind != "introselect":
        raise ValueError(f"select kind must be 'introselect' (got {kind!r})")
    _check_order(order)
    a = _array(a)
    if axis is None:
        a = a.reshape(-1)
        axis = -1
    if indices and a.ndim == 0:
        a = a.reshape(1)
    ax = _lib.normalize_axis(axis, a.ndim, ValueError if indices else OverflowError)
    _check_kth(kth, a.shape[ax], a.size)
    # a full sort satisfies the partition contract for every kth at once
    return _sorted(a, ax, indices)


def partition(a, kth, axis=-1, kind="introselect", order=None) -> ndarray:
    """numpy.partition: every kth element is where a sort puts it, smaller
    (or equal) ones before, larger after. Here the whole axis is sorted."""
    return _partition(a, kth, axis, kind, order, False)


def argpartition(a, kth, axis=-1, kind="introselect", order=None) -> ndarray:
    """numpy.argpartition: the indices of partition's arrangement."""
    return _partition(a, kth, axis, kind, order, True)


def _partition_method(self, kth, axis=-1, kind="introselect", order=None) -> None:
    axis = _lib.c_int(axis)
    if not self.flags.writeable:
        raise ValueError("assignment destination is read-only")
    self[...] = _partition(self, kth, axis, kind, order, False)


def _argpartition_method(self, kth, axis=-1, kind="introselect", order=None) -> ndarray:
    return _partition(self, kth, axis, kind, order, True)


