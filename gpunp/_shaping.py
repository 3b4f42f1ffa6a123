"""Rearranging arrays (numpy.split and its forms, tile, repeat, flip, roll,
rot90, moveaxis, rollaxis, append, resize, trim_zeros, copyto; broadcasting
is in _manipulation). Each is a view (slices, reversed slices, transposes,
broadcasts) or copies into slices of a new array, so the engine's copy
kernels do the work on every backend."""

from __future__ import annotations

import itertools

import numpy

from gpunp import _lib
from gpunp._creation import _array, arange, asarray, empty, empty_like, zeros_like
from gpunp._dtypes import can_cast
from gpunp._joining import concatenate
from gpunp._lib import check, ffi, lib
from gpunp._ndarray import _as_intp, ndarray
from gpunp._ufunc import UFUNCS

_REVERSE = slice(None, None, -1)
_ALL = slice(None)


# ---- splitting ------------------------------------------------------------------------

def array_split(ary, indices_or_sections, axis=0) -> list:
    # NumPy measures an array along `axis` (IndexError out of range) and
    # anything else by len(): a scalar is its TypeError, and a nested list
    # counts its outer length whatever the axis
    total = ary.shape[axis] if hasattr(ary, "shape") else len(ary)
    ary = _array(ary)
    try:
        sections = len(indices_or_sections) + 1
        points = [0] + list(indices_or_sections) + [total]
    except TypeError:
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.") from None
        each, extras = divmod(total, sections)
        sizes = [0] + extras * [each + 1] + (sections - extras) * [each]
        points = list(itertools.accumulate(sizes))
    swapped = ary.swapaxes(axis, 0)
    return [swapped[points[i]:points[i + 1]].swapaxes(axis, 0) for i in range(sections)]


def split(ary, indices_or_sections, axis=0) -> list:
    try:
        len(indices_or_sections)
    except TypeError:
        # NumPy reads the argument's own shape, converting nothing: a list or
        # a scalar has none (AttributeError), a 0-d array too few axes
        if ary.shape[axis] % indices_or_sections:
            raise ValueError("array split does not result in an equal division") from None
    return array_split(ary, indices_or_sections, axis)


def _split_at_least(ary, indices_or_sections, nd, axis, name) -> list:
    ary = _array(ary)
    if ary.ndim < nd:
        raise ValueError(f"{name} only works on arrays of {nd} or more dimensions")
    return split(ary, indices_or_sections, axis)


def hsplit(ary, indices_or_sections) -> list:
    ary = _array(ary)
    return _split_at_least(ary, indices_or_sections, 1, 1 if ary.ndim > 1 else 0, "hsplit")


def vsplit(ary, indices_or_sections) -> list:
    return _split_at_least(ary, indices_or_sections, 2, 0, "vsplit")


def dsplit(ary, indices_or_sections) -> list:
    return _split_at_least(ary, indices_or_sections, 3, 2, "dsplit")


# ---- repeating --------------------------------------------------------------------------

def _spread(a: ndarray, ax: int, r: int, out: ndarray) -> None:
    """Writes each element of `a` along axis `ax` `r` times in a row into
    `out` (a's shape with r * a.shape[ax] along ax): one broadcast copy into
    a view of `out` that splits the axis in two."""
    shape = a.shape
    head, tail = shape[:ax + 1], shape[ax + 1:]
    out.reshape(head + (r,) + tail, copy=False)[...] = a.reshape(head + (1,) + tail)


#: runs of equal counts past which repeat gathers instead of copying run by run
_MAX_RUNS = 16


def repeat(a, repeats, axis=None) -> ndarray:
    a = _array(a)
    if axis is None or a.ndim == 0:
        a = a.ravel()
    ax = _lib.normalize_axis(0 if axis is None else axis, a.ndim, ValueError)
    counts = numpy.array(repeats.get() if isinstance(repeats, ndarray) else repeats,
                         dtype=numpy.intp)
    if counts.ndim > 1:
        raise ValueError("repeats must be an integer or a 1-d sequence of integers")
    counts = counts.reshape(-1)
    shape = a.shape
    n = shape[ax]
    if counts.size == 1:
        r = int(counts[0])
        out = empty(shape[:ax] + (n * r,) + shape[ax + 1:], a.dtype)  # NumPy's error if < 0
        if out.size:
            _spread(a, ax, r, out)
        return out
    if counts.size != n:
        raise ValueError(f"operands could not be broadcast together with shape ({n},) "
                         f"({counts.size},)")
    if (counts < 0).any():
        raise ValueError("repeats may not contain negative values.")
    out = empty(shape[:ax] + (int(counts.sum()),) + shape[ax + 1:], a.dtype)
    if out.size == 0:
        return out
    if numpy.count_nonzero(counts[1:] != counts[:-1]) >= _MAX_RUNS:
        # many runs: one gather, each output position's source found by a
        # search of the running counts on the device
        from gpunp._indexing import take
        from gpunp._sorting import searchsorted
        ends = asarray(numpy.cumsum(counts))
        return take(a, searchsorted(ends, arange(out.shape[ax]), side="right"), axis=ax)
    # one broadcast copy per run of elements repeated equally often
    head = (_ALL,) * ax
    start = pos = 0
    for r, run in itertools.groupby(counts.tolist()):
        m = len(list(run))
        if r:
            _spread(a[head + (slice(start, start + m),)], ax, r,
                    out[head + (slice(pos, pos + m * r),)])
        start, pos = start + m, pos + m * r
    return out


def tile(A, reps) -> ndarray:
    try:
        tup = tuple(reps)
    except TypeError:
        tup = (reps,)
    d = len(tup)
    c = _array(A)
    if c.ndim < d:
        c = c.reshape((1,) * (d - c.ndim) + c.shape)
    if all(x == 1 for x in tup):
        return c.copy("K")
    tup = (1,) * (c.ndim - d) + tuple(_lib.index(t) for t in tup)
    shape_out = tuple(s * t for s, t in zip(c.shape, tup))
    if c.size == 0:
        return c.reshape(shape_out)
    for t in tup:  # NumPy repeats by each as an intp
        if _as_intp(t) < 0:
            raise ValueError("negative dimensions are not allowed")
    # the result, seen with an axis of repetitions before each axis of A,
    # is A broadcast along those axes
    out = empty(shape_out, c.dtype)
    inter = tuple(x for st in zip(tup, c.shape) for x in st)
    if out.size:
        out.reshape(inter, copy=False)[...] = c.reshape(
            tuple(x for s in c.shape for x in (1, s)))
    return out


def resize(a, new_shape) -> ndarray:
    if isinstance(new_shape, (int, numpy.integer)):
        new_shape = (new_shape,)
    a = _array(a).ravel()
    new_size = 1
    for n in new_shape:
        new_size *= n
        if n < 0:
            raise ValueError("all elements of `new_shape` must be non-negative")
    if a.size == 0 or new_size == 0:
        return zeros_like(a, shape=new_shape)
    repeats = -(-new_size // a.size)
    whole = empty((repeats, a.size), a.dtype)
    whole[...] = a
    return whole.reshape(-1)[:new_size].reshape(new_shape)


def append(arr, values, axis=None) -> ndarray:
    arr = _array(arr)
    if axis is None:
        if arr.ndim != 1:
            arr = arr.ravel()
        values = _array(values).ravel()
        axis = arr.ndim - 1
    return concatenate((arr, values), axis=axis)


# ---- reversing, rolling, rotating, moving axes ---------------------------------------

def flip(m, axis=None) -> ndarray:
    m = _array(m)
    if axis is None:
        return m[(_REVERSE,) * m.ndim]
    axes = _lib.normalize_axis_tuple(axis, m.ndim)
    return m[tuple(_REVERSE if d in axes else _ALL for d in range(m.ndim))]


def fliplr(m) -> ndarray:
    m = _array(m)
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return m[:, ::-1]


def flipud(m) -> ndarray:
    m = _array(m)
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return m[::-1, ...]


def roll(a, shift, axis=None) -> ndarray:
    a = _array(a)
    if axis is None:
        return roll(a.ravel(), shift, 0).reshape(a.shape)
    axes = _lib.normalize_axis_tuple(axis, a.ndim, allow_duplicate=True)
    if isinstance(shift, ndarray):
        shift = shift.tolist()
    pairs = numpy.broadcast(shift, axes)
    if pairs.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    shifts = dict.fromkeys(range(a.ndim), 0)
    for sh, ax in pairs:
        shifts[ax] += int(sh)
    rolls = [((_ALL, _ALL),)] * a.ndim
    for ax, offset in shifts.items():
        offset %= a.shape[ax] or 1
        if offset:
            # (from, to) slices of the two pieces along the axis
            rolls[ax] = ((slice(None, -offset), slice(offset, None)),
                         (slice(-offset, None), slice(None, offset)))
    result = empty_like(a)
    for pieces in itertools.product(*rolls):
        src, dst = zip(*pieces)
        result[dst] = a[src]
    return result


def rot90(m, k=1, axes=(0, 1)) -> ndarray:
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    m = _array(m)
    nd = m.ndim
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == nd:
        raise ValueError("Axes must be different.")
    if not (-nd <= axes[0] < nd and -nd <= axes[1] < nd):
        raise ValueError(f"Axes={axes} out of range for array of ndim={nd}.")
    k %= 4
    if k == 0:
        return m[:]
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    perm = list(range(nd))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return flip(m, axes[1]).transpose(perm)
    return flip(m.transpose(perm), axes[1])


def moveaxis(a, source, destination) -> ndarray:
    a = _array(a)
    source = _lib.normalize_axis_tuple(source, a.ndim, "source")
    destination = _lib.normalize_axis_tuple(destination, a.ndim, "destination")
    if len(source) != len(destination):
        raise ValueError("`source` and `destination` arguments must have the same number "
                         "of elements")
    order = [n for n in range(a.ndim) if n not in source]
    for dest, src in sorted(zip(destination, source)):
        order.insert(dest, src)
    return a.transpose(order)


def rollaxis(a, axis, start=0) -> ndarray:
    a = _array(a)
    n = a.ndim
    axis = _lib.normalize_axis(axis, n)
    start = _lib.index(start)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise numpy.exceptions.AxisError(
            f"'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in")
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return a.transpose(axes)


# ---- trimming and copying --------------------------------------------------------------

def trim_zeros(filt, trim="fb", axis=None):
    a = _array(filt)
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    nd = a.ndim
    axes = tuple(range(nd)) if axis is None else _lib.normalize_axis_tuple(axis, nd, "axis")
    if not axes:
        return filt
    nonzero = a.astype(numpy.bool_)
    # the first and last index along each axis with a nonzero element
    bounds = []
    for d in range(nd):
        others = tuple(x for x in range(nd) if x != d)
        hit = numpy.flatnonzero(nonzero.any(axis=others).get()) if a.size else []
        if not len(hit):
            bounds = [(0, 0)] * nd  # all zero: every axis trimmed to nothing
            break
        bounds.append((int(hit[0]) if "f" in trim else None,
                       int(hit[-1]) + 1 if "b" in trim else None))
    sl = tuple(slice(*bounds[d]) if d in axes else _ALL for d in range(nd))
    return filt[sl[0]] if nd == 1 else filt[sl]


def _scalar_source(src, dst, casting):
    """A scalar `src` of copyto converted to dst's dtype by NumPy itself: its
    rules for weak Python scalars (NEP 50), its casting checks and the errors
    they raise (which change between NumPy versions: 2.5 reports an int too
    large for int64 before the casting rule) are then NumPy's exactly."""
    host = numpy.empty((), dst.dtype)
    numpy.copyto(host, src, casting=casting)
    return host[()]


def copyto(dst, src, casting="same_kind", where=True) -> None:
    if not isinstance(dst, ndarray):
        raise TypeError(f"copyto() argument 1 must be a gpunp.ndarray, not "
                        f"{type(dst).__name__}")
    code = _lib.casting_code(casting)
    if _lib.is_scalar(src):
        src = _scalar_source(src, dst, casting)
    else:
        src = _array(src)
        if not can_cast(src.dtype, dst.dtype, casting):
            raise TypeError(f"Cannot cast array data from {src.dtype!r} to {dst.dtype!r} "
                            f"according to the rule {casting!r}")
        # NumPy drops leading axes of length one that dst lacks
        while src.ndim > dst.ndim and src.shape[0] == 1:
            src = src[0]
    if where is True:
        if isinstance(src, ndarray):
            check(lib.gp_array_assign(dst._h, src._h, code))
        else:
            s = ffi.new("gp_scalar_t *")
            _lib.put_scalar(s, src)
            check(lib.gp_array_fill(dst._h, s))
        return
    # a masked copy: maximum(x, x) is x for every dtype (NaN included)
    where = _array(where)
    if where.dtype != numpy.bool_:  # only bool casts safely to bool
        raise TypeError(f"Cannot cast array data from {where.dtype!r} to dtype('bool') "
                        "according to the rule 'safe'")
    if where.ndim > dst.ndim or any(w not in (1, n) for w, n in
                                   zip(where.shape[::-1], dst.shape[::-1])):
        raise ValueError(f"could not broadcast where mask from shape {where.shape} into "
                         f"shape {dst.shape}")
    UFUNCS["maximum"](src, src, out=dst, where=where, casting="unsafe")


def _repeat_method(self, repeats, axis=None):
    return repeat(self, repeats, axis)


_repeat_method.__name__ = "repeat"
