"""Joining arrays (numpy.concatenate, stack, vstack, hstack, dstack,
column_stack) and the shape helpers they stand on (expand_dims,
atleast_1d/2d/3d). Each piece is a view or a copy into a slice of the
result, so the engine's copy kernels do the work on every backend."""

from __future__ import annotations

import numpy

from gpunp import _lib
from gpunp._creation import _array, empty
from gpunp._dtypes import can_cast, result_type
from gpunp._ndarray import ndarray


def _sequence(arrays, what) -> list:
    if isinstance(arrays, ndarray):
        return [arrays[k] for k in range(len(arrays))] if arrays.ndim else [arrays]
    if not hasattr(arrays, "__getitem__"):  # a generator or iterator, which NumPy refuses
        raise TypeError("The first input argument needs to be a sequence" if what == "concatenate"
                        else 'arrays to stack must be passed as a "sequence" type such as list '
                             'or tuple.')
    try:
        out = [_array(a) for a in arrays]
    except TypeError:
        for a in arrays:
            if isinstance(a, numpy.ndarray):
                # what `gpunp_array + numpy_array` says: the fix is the user's copy
                raise TypeError(f"{what}() got a NumPy array: gpunp does not move NumPy "
                                "arrays to the device implicitly; use gpunp.asarray(x)") from None
        raise TypeError(f"{what}() argument must be a sequence of arrays") from None
    return out


def expand_dims(a, axis) -> ndarray:
    a = _array(a)
    axes = (axis,) if not isinstance(axis, (tuple, list)) else tuple(axis)
    nd = a.ndim + len(axes)
    where = [_lib.normalize_axis(x, nd) for x in axes]
    if len(set(where)) != len(where):
        raise ValueError("repeated axis")
    rest = iter(a.shape)
    return a.reshape(tuple(1 if d in where else next(rest) for d in range(nd)))


def _at_least(arys, nd) -> list:
    """Views of each with at least `nd` dimensions, placed as NumPy's
    atleast_*d place them: (N,) -> (1, N) and (1, N, 1), (M, N) -> (M, N, 1)."""
    place = {1: lambda s: (1,),
             2: lambda s: (1,) + s + (1,) * (1 - len(s)),
             3: lambda s: {0: (1, 1, 1), 1: (1,) + s + (1,), 2: s + (1,)}[len(s)]}[nd]
    res = []
    for a in arys:
        a = _array(a)
        res.append(a.reshape(place(a.shape)) if a.ndim < nd else a)
    return res


def _one_or_tuple(res):
    return res[0] if len(res) == 1 else tuple(res)


def atleast_1d(*arys):
    return _one_or_tuple(_at_least(arys, 1))


def atleast_2d(*arys):
    return _one_or_tuple(_at_least(arys, 2))


def atleast_3d(*arys):
    return _one_or_tuple(_at_least(arys, 3))


def concatenate(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind") -> ndarray:
    arrays = _sequence(arrays, "concatenate")
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    if out is not None and dtype is not None:
        raise TypeError("concatenate() only takes `out` or `dtype` as an argument, but both "
                        "were provided.")
    if axis is not None:
        axis = _lib.c_int(axis, ValueError)  # NumPy reads it before it looks at the arrays
    if axis is None:
        arrays = [a.ravel() for a in arrays]
        axis = 0
    nd = arrays[0].ndim
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    ax = _lib.normalize_axis(axis, nd)  # NumPy checks the axis before the other ranks
    for k, a in enumerate(arrays):
        if a.ndim != nd:
            raise ValueError(
                "all the input arrays must have same number of dimensions, but the array at "
                f"index 0 has {nd} dimension(s) and the array at index {k} has {a.ndim} "
                "dimension(s)")
    first = arrays[0].shape
    for k, a in enumerate(arrays):
        for d in range(nd):
            if d != ax and a.shape[d] != first[d]:
                raise ValueError(
                    "all the input array dimensions except for the concatenation axis must "
                    f"match exactly, but along dimension {d}, the array at index 0 has size "
                    f"{first[d]} and the array at index {k} has size {a.shape[d]}")
    shape = first[:ax] + (sum(a.shape[ax] for a in arrays),) + first[ax + 1:]
    if out is not None:
        if not isinstance(out, ndarray):
            raise TypeError("out must be a gpunp array")
        if out.shape != shape:
            raise ValueError("Output array is the wrong shape")
        to = out.dtype
    else:
        to = numpy.dtype(dtype) if dtype is not None else result_type(*arrays)
    for a in arrays:
        if not can_cast(a.dtype, to, casting):
            raise TypeError(f"Cannot cast array data from {a.dtype!r} to {to!r} according to "
                            f"the rule {casting!r}")
    if out is None:
        fortran = all(a.flags.f_contiguous and not a.flags.c_contiguous for a in arrays)
        out = empty(shape, to, order="F" if fortran else "C")
    start = 0
    head = (slice(None),) * ax
    for a in arrays:
        n = a.shape[ax]
        out[head + (slice(start, start + n),)] = a
        start += n
    return out


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind") -> ndarray:
    arrays = _sequence(arrays, "stack")
    if not arrays:
        raise ValueError("need at least one array to stack")
    if any(a.shape != arrays[0].shape for a in arrays):
        raise ValueError("all input arrays must have the same shape")
    ax = _lib.normalize_axis(axis, arrays[0].ndim + 1)
    return concatenate([expand_dims(a, ax) for a in arrays], axis=ax, out=out, dtype=dtype,
                       casting=casting)


def vstack(tup, *, dtype=None, casting="same_kind") -> ndarray:
    return concatenate(_at_least(_sequence(tup, "vstack"), 2), 0, dtype=dtype, casting=casting)


def hstack(tup, *, dtype=None, casting="same_kind") -> ndarray:
    arrs = _at_least(_sequence(tup, "hstack"), 1)
    return concatenate(arrs, 0 if arrs and arrs[0].ndim == 1 else 1, dtype=dtype,
                       casting=casting)


def dstack(tup) -> ndarray:
    return concatenate(_at_least(_sequence(tup, "dstack"), 3), 2)


def column_stack(tup) -> ndarray:
    arrs = [a.reshape(a.size, 1) if a.ndim < 2 else a for a in _sequence(tup, "column_stack")]
    return concatenate(arrs, 1)
