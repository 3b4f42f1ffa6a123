"""Growing and shrinking arrays along axes: ``pad`` (every mode of
numpy.pad, and a callable), ``insert`` and ``delete``. The result is a new
array whose padded or kept parts are written from views: slices of the input,
edges, reflected and wrapped chunks of the result itself, statistics of
slices. So the engine's copy kernels, reductions and ufuncs do the work on
every backend; only the index arguments (widths, positions, masks) are host
data, as they decide the result's shape."""

from __future__ import annotations

import operator

import numpy

from gpunp import _lib
from gpunp._creation import _array, array, empty
from gpunp._ndarray import ndarray
from gpunp._quantiles import median
from gpunp._ranges import linspace
from gpunp._reduction import amax, amin, mean
from gpunp._shaping import moveaxis
from gpunp._ufunc import UFUNCS

_ALL = slice(None)
_INTP = numpy.dtype(numpy.intp)


def _at(axis: int, sl) -> tuple:
    """A key selecting `sl` along `axis` and everything along the others."""
    return (_ALL,) * axis + (sl, Ellipsis)


def _host(x):
    """An index-like argument as host data (a device array is copied back)."""
    return x.get() if isinstance(x, ndarray) else x


def _order_of(a: ndarray) -> str:
    """NumPy's layout for a rebuilt array: F for Fortran-only input, else C."""
    f = a.flags
    return "F" if f.f_contiguous and not f.c_contiguous else "C"


# ---- pad ----------------------------------------------------------------------------------

def _pairs(x, ndim: int, as_index=False) -> list:
    """A (before, after) pair per axis from a scalar, a pair or an (ndim, 2)
    array-like, broadcast as numpy.pad does; widths rounded to integers and
    refused when negative."""
    if x is None:
        return [(None, None)] * ndim
    x = numpy.array(_host(x))
    if as_index:
        x = numpy.round(x).astype(_INTP, copy=False)
    if x.ndim < 3 and (x.size == 1 or (x.size == 2 and x.shape != (2, 1))):
        flat = x.ravel()
        pair = (flat[0], flat[-1])
        if as_index and (pair[0] < 0 or pair[1] < 0):
            raise ValueError("index can't contain negative values")
        return [pair] * ndim
    if as_index and x.size and x.min() < 0:
        raise ValueError("index can't contain negative values")
    return numpy.broadcast_to(x, (ndim, 2)).tolist()


def _widths(pad_width, ndim: int) -> list:
    if isinstance(pad_width, dict):
        seq = [(0, 0)] * ndim
        for axis, width in pad_width.items():
            if isinstance(width, int):
                seq[axis] = (width, width)
            elif isinstance(width, tuple) and len(width) == 2 and \
                    all(isinstance(w, int) for w in width):
                seq[axis] = width
            else:
                raise TypeError(f"pad_width entry for axis {axis} must be an int or a pair "
                                f"of ints, not {width!r}")
        pad_width = seq
    w = numpy.asarray(_host(pad_width))
    if w.dtype.kind != "i":
        raise TypeError("`pad_width` must be of integral type.")
    return [(int(b), int(a)) for b, a in _pairs(w, ndim, as_index=True)]


def _as_element(value, dt: numpy.dtype):
    """`value` converted to `dt` exactly as NumPy's assignment converts it
    (its overflow and NaN errors included), as a NumPy scalar."""
    cell = numpy.empty((), dt)
    cell[()] = value
    return cell[()]


def _fill_sides(p: ndarray, axis: int, widths, values) -> None:
    """Writes values[0] into the `before` pad of `axis` and values[1] into the
    `after` pad (scalars or arrays that broadcast to those slices)."""
    n = p.shape[axis]
    p[_at(axis, slice(None, widths[0]))] = values[0]
    p[_at(axis, slice(n - widths[1], None))] = values[1]


def _edges(p: ndarray, axis: int, widths) -> tuple:
    lo, hi = widths[0], p.shape[axis] - widths[1]
    return p[_at(axis, slice(lo, lo + 1))], p[_at(axis, slice(hi - 1, hi))]


def _floor(x: ndarray) -> ndarray:
    fl = UFUNCS.get("floor")
    # floor division by one is exactly the floor for every finite float
    return fl(x) if fl is not None else UFUNCS["floor_divide"](x, 1.0)


def _round_half_even(x: ndarray) -> ndarray:
    """numpy.round of a float array (ties to even), from ufuncs the engine has."""
    rint = UFUNCS.get("rint")
    if rint is not None:
        return rint(x)
    f = _floor(x)
    d = x - f
    up = UFUNCS["logical_or"](d > 0.5, UFUNCS["logical_and"](
        d == 0.5, UFUNCS["remainder"](f, 2.0) == 1.0))
    return f + up


def _ramps(p: ndarray, axis: int, widths, ends) -> tuple:
    left, right = (
        linspace(end, edge.squeeze(axis), num=w, endpoint=False, dtype=p.dtype, axis=axis)
        for end, edge, w in zip(ends, _edges(p, axis, widths), widths))
    return left, right[_at(axis, slice(None, None, -1))]


_STATS = {"maximum": amax, "minimum": amin, "mean": mean, "median": median}


def _stats(p: ndarray, axis: int, widths, lengths, func) -> tuple:
    lo, hi = widths[0], p.shape[axis] - widths[1]
    n = hi - lo
    nl, nr = (n if ln is None or ln > n else ln for ln in lengths)
    if (nl == 0 or nr == 0) and func in (amax, amin):
        raise ValueError("stat_length of 0 yields no value for padding")
    out = []
    for sl in (slice(lo, lo + nl), slice(hi - nr, hi)):
        s = func(p[_at(axis, sl)], axis=axis, keepdims=True)
        if p.dtype.kind in "iu" and s.dtype.kind == "f":
            s = _round_half_even(s)
        out.append(s)
        if nl == nr == n:  # both sides see the whole axis
            out.append(s)
            break
    return tuple(out)


def _reflect(p: ndarray, axis: int, widths, n: int, odd: bool, symmetric: bool) -> None:
    """Mirrors the data along `axis` into both pads, as numpy.pad does: in
    rounds, each mirroring a whole number of periods of what is filled so
    far (so 'odd' values, 2 * edge - mirror, are rounded as NumPy's are)."""
    before, after = widths
    size = p.shape[axis]
    while before > 0 or after > 0:
        filled = size - before - after
        if symmetric:
            chunk, skip = filled // n * n, 0
        else:
            chunk, skip = (filled - 1) // (n - 1) * (n - 1), 1
        if before > 0:
            k = min(chunk, before)
            src = p[_at(axis, slice(before + skip + k - 1, before + skip - 1, -1))]
            if odd:
                src = 2 * p[_at(axis, slice(before, before + 1))] - src
            p[_at(axis, slice(before - k, before))] = src
            before -= k
        if after > 0:
            k = min(chunk, after)
            end = size - after  # one past the last filled element
            src = p[_at(axis, slice(end - 1 - skip, end - 1 - skip - k if
                                    end - 1 - skip - k >= 0 else None, -1))]
            if odd:
                src = 2 * p[_at(axis, slice(end - 1, end))] - src
            p[_at(axis, slice(end, end + k))] = src
            after -= k


def _wrap(p: ndarray, axis: int, widths, n: int) -> None:
    """Copies whole periods of the filled part into the pads, nearest first."""
    before, after = widths
    size = p.shape[axis]
    while before > 0 or after > 0:
        period = (size - before - after) // n * n
        if before > 0:
            k = min(period, before)
            p[_at(axis, slice(before - k, before))] = \
                p[_at(axis, slice(before + period - k, before + period))]
            before -= k
        if after > 0:
            k = min(period, after)
            end = size - after
            p[_at(axis, slice(end, end + k))] = p[_at(axis, slice(end - period, end - period + k))]
            after -= k


_KWARGS = {"empty": (), "edge": (), "wrap": (), "constant": ("constant_values",),
           "linear_ramp": ("end_values",), "maximum": ("stat_length",),
           "mean": ("stat_length",), "median": ("stat_length",), "minimum": ("stat_length",),
           "reflect": ("reflect_type",), "symmetric": ("reflect_type",)}


def pad(array, pad_width, mode="constant", **kwargs) -> ndarray:
    """numpy.pad: every mode, a callable mode, and pad_width, constant_values,
    end_values, stat_length and reflect_type in NumPy's forms."""
    a = _array(array)
    nd = a.ndim
    widths = _widths(pad_width, nd)
    if not callable(mode):
        try:
            unknown = set(kwargs) - set(_KWARGS[mode])
        except (KeyError, TypeError):
            raise ValueError(f"mode '{mode}' is not supported") from None
        if unknown:
            raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unknown}")
    shape = tuple(b + s + e for s, (b, e) in zip(a.shape, widths))
    p = empty(shape, a.dtype, _order_of(a))
    inner = tuple(slice(b, b + s) for s, (b, _) in zip(a.shape, widths))
    if callable(mode):
        p.fill(0)
        p[inner] = a
        for axis in range(nd):
            view = moveaxis(p, axis, -1)
            for ind in numpy.ndindex(view.shape[:-1]):
                mode(view[ind + (Ellipsis,)], widths[axis], axis, kwargs)
        return p
    p[inner] = a

    def region(axis):
        # the axes after `axis` are not padded yet: only their data part
        return p[(_ALL,) * (axis + 1) + inner[axis + 1:]]

    if mode == "constant":
        values = _pairs(kwargs.get("constant_values", 0), nd)
        for axis in range(nd):
            _fill_sides(region(axis), axis, widths[axis],
                        [_as_element(v, a.dtype) for v in values[axis]])
        return p
    if mode == "empty":
        return p
    if a.size == 0:
        for axis in range(nd):
            if a.shape[axis] == 0 and any(widths[axis]):
                raise ValueError(f"can't extend empty axis {axis} using modes other than "
                                 "'constant' or 'empty'")
        return p
    if mode in ("reflect", "symmetric"):
        odd = kwargs.get("reflect_type", "even") == "odd"
    for axis in range(nd):
        r, w, n = region(axis), widths[axis], a.shape[axis]
        if mode == "edge" or (mode in ("reflect", "symmetric") and n == 1 and any(w)):
            _fill_sides(r, axis, w, _edges(r, axis, w))
        elif mode == "linear_ramp":
            ends = _pairs(kwargs.get("end_values", 0), nd)
            _fill_sides(r, axis, w, _ramps(r, axis, w, ends[axis]))
        elif mode in _STATS:
            lengths = _pairs(kwargs.get("stat_length"), nd, as_index=True)
            _fill_sides(r, axis, w, _stats(r, axis, w, lengths[axis], _STATS[mode]))
        elif mode in ("reflect", "symmetric"):
            _reflect(r, axis, w, n, odd, mode == "symmetric")
        else:  # wrap
            _wrap(r, axis, w, n)
    return p


# ---- insert and delete ---------------------------------------------------------------------

def _along(arr, axis):
    """The array and axis insert and delete work on: a flattened array for
    axis=None."""
    a = _array(arr)
    order = _order_of(a)
    if axis is None:
        a = a.ravel() if a.ndim != 1 else a
        return a, a.ndim - 1, order
    return a, _lib.normalize_axis(axis, a.ndim), order


def _without(a: ndarray, axis: int, lo: int, hi: int, order: str) -> ndarray:
    """A new array of `a` less the block [lo, hi) along `axis`: the pieces
    either side of it."""
    shape = list(a.shape)
    shape[axis] -= hi - lo
    new = empty(tuple(shape), a.dtype, order)
    new[_at(axis, slice(None, lo))] = a[_at(axis, slice(None, lo))]
    new[_at(axis, slice(lo, None))] = a[_at(axis, slice(hi, None))]
    return new


def delete(arr, obj, axis=None) -> ndarray:
    """numpy.delete: obj an int, a slice, an integer array or a boolean mask."""
    a, axis, order = _along(arr, axis)
    n = a.shape[axis]
    if isinstance(obj, slice):
        gone = range(*obj.indices(n))
        if len(gone) == 0:
            return a.copy(order)
        keep = numpy.ones(n, dtype=bool)
        keep[obj] = False
        if gone.step in (1, -1):
            return _without(a, axis, min(gone[0], gone[-1]), max(gone[0], gone[-1]) + 1, order)
        return a[_at(axis, keep)].copy(order)
    single = isinstance(obj, (int, numpy.integer)) and not isinstance(obj, bool)
    if not single:
        given = obj
        obj = numpy.asarray(_host(obj))
        if obj.size == 0 and not isinstance(given, (numpy.ndarray, ndarray)):
            obj = obj.astype(_INTP)
        elif obj.size == 1 and obj.dtype.kind in "ui":
            obj, single = obj.item(), True
    if single:
        if obj < -n or obj >= n:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
        obj = int(obj) + n if obj < 0 else int(obj)
        return _without(a, axis, obj, obj + 1, order)
    if obj.dtype == bool:
        if obj.shape != (n,):
            raise ValueError("boolean array argument obj to delete must be one dimensional "
                             f"and match the axis length of {n}")
        keep = ~obj
    else:
        keep = numpy.ones(n, dtype=bool)
        keep[obj,] = False
    return a[_at(axis, keep)]


def insert(arr, obj, values, axis=None) -> ndarray:
    """numpy.insert: values placed before the positions `obj` (an int, a
    slice, an integer array or a boolean mask) along `axis`."""
    a, axis, order = _along(arr, axis)
    n = a.shape[axis]
    shape = list(a.shape)
    if isinstance(obj, slice):
        indices = numpy.arange(*obj.indices(n), dtype=_INTP)
    else:
        indices = numpy.array(_host(obj))
        if indices.dtype == bool:
            if indices.ndim != 1:
                raise ValueError("boolean array argument obj to insert must be one "
                                 "dimensional")
            indices = numpy.flatnonzero(indices)
        elif indices.ndim > 1:
            raise ValueError("index array argument obj to insert must be one dimensional "
                             "or scalar")
    if indices.size == 1:
        index = indices.item()
        if index < -n or index > n:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
        index = operator.index(index) + (n if index < 0 else 0)
        vals = array(values, copy=None, ndmin=a.ndim, dtype=a.dtype)
        if indices.ndim == 0:
            vals = moveaxis(vals, 0, axis)
        k = vals.shape[axis]
        shape[axis] += k
        new = empty(tuple(shape), a.dtype, order)
        new[_at(axis, slice(None, index))] = a[_at(axis, slice(None, index))]
        new[_at(axis, slice(index, index + k))] = vals
        new[_at(axis, slice(index + k, None))] = a[_at(axis, slice(index, None))]
        return new
    if indices.size == 0 and not isinstance(obj, (numpy.ndarray, ndarray)):
        indices = indices.astype(_INTP)
    indices = indices.copy()
    indices[indices < 0] += n
    k = len(indices)
    # each inserted value lands after those before it (a stable order)
    indices[indices.argsort(kind="stable")] += numpy.arange(k)
    shape[axis] += k
    old = numpy.ones(shape[axis], dtype=bool)
    old[indices] = False
    new = empty(tuple(shape), a.dtype, order)
    if k:
        new[_at(axis, indices)] = values
    else:
        # nothing to write, but NumPy's check of the values' shape: the same
        # assignment into a host array of the result's shape with no memory
        mock = numpy.lib.stride_tricks.as_strided(numpy.zeros(1, numpy.int8), tuple(shape),
                                                  (0,) * len(shape), writeable=True)
        mock[_at(axis, indices)] = numpy.zeros(numpy.shape(values), numpy.int8)
    new[_at(axis, old)] = a
    return new
