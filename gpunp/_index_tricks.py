"""Index tricks: the index arrays of triangles and diagonals, filling a
diagonal or a mask in place, the grid and concatenation builders (mgrid,
ogrid, r_, c_), and the Python-level loops of apply_along_axis,
apply_over_axes and piecewise. Everything is built from other gpunp
functions (tri, nonzero, arange, linspace, concatenate, masked copies), so
every backend runs it; only ndenumerate reads the array on the host, once,
because it hands out host scalars."""

from __future__ import annotations

import math

import numpy

from gpunp import _lib
from gpunp._creation import arange, array, asarray, ones, zeros, zeros_like
from gpunp._indexing import _flat_target, _values, nonzero
from gpunp._joining import concatenate, expand_dims, stack
from gpunp._matrices import indices, tri
from gpunp._ndarray import ndarray
from gpunp._ranges import linspace
from gpunp._reduction import any as _any
from gpunp._shaping import copyto, resize
from gpunp._ufunc import UFUNCS

# pure index arithmetic on the host: NumPy's own objects
index_exp = numpy.index_exp
s_ = numpy.s_
ndindex = numpy.ndindex


# ---- index arrays of triangles and diagonals -------------------------------------------

def tril_indices(n, k=0, m=None) -> tuple:
    return nonzero(tri(n, m, k=k, dtype=bool))


def triu_indices(n, k=0, m=None) -> tuple:
    # the upper triangle from k on is what the lower one to k - 1 leaves out
    return nonzero(UFUNCS["logical_not"](tri(n, m, k=k - 1, dtype=bool)))


def _square_2d(arr) -> ndarray:
    arr = asarray(arr)
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return arr


def tril_indices_from(arr, k=0) -> tuple:
    arr = _square_2d(arr)
    return tril_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def triu_indices_from(arr, k=0) -> tuple:
    arr = _square_2d(arr)
    return triu_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def diag_indices(n, ndim=2) -> tuple:
    idx = arange(n)
    return (idx,) * ndim


def _equal_sides(a: ndarray) -> None:
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if any(d != a.shape[0] for d in a.shape):
        raise ValueError("All dimensions of input must be of equal length")


def diag_indices_from(arr) -> tuple:
    arr = asarray(arr)
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    _equal_sides(arr)
    return diag_indices(arr.shape[0], arr.ndim)


def mask_indices(n, mask_func, k=0) -> tuple:
    a = asarray(mask_func(ones((n, n), int), k))
    return nonzero(UFUNCS["not_equal"](a, 0))


# ---- filling in place ----------------------------------------------------------------------

def _cycled_into(target: ndarray, values, where=None) -> None:
    """Writes `values` (any array-like) into the 1-d view `target`, repeated
    to its length as NumPy's flat assignments repeat them; nothing is
    written when `values` is empty."""
    vals = _values(values, target.dtype).ravel()
    if vals.size == 0 or target.size == 0:
        return
    copyto(target, resize(vals, (target.size,)), casting="unsafe",
           where=True if where is None else where)


def fill_diagonal(a, val, wrap=False) -> None:
    if not isinstance(a, ndarray):
        raise TypeError(f"fill_diagonal needs a gpunp.ndarray, not {type(a).__name__}")
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    end = None
    if a.ndim == 2:
        # a tall matrix's diagonal restarts one row below the square's end
        # only with wrap=True
        step = a.shape[1] + 1
        if not wrap:
            end = a.shape[1] * a.shape[1]
    else:
        _equal_sides(a)
        step, block = 1, 1
        for d in a.shape[:-1]:
            block *= d
            step += block
    flat, copied = _flat_target(a)
    _cycled_into(flat[:end:step], val)
    if copied:
        a[...] = flat.reshape(a.shape)


def putmask(a, mask, values) -> None:
    if not isinstance(a, ndarray):
        raise TypeError("argument a of putmask must be a gpunp.ndarray")
    m = asarray(mask)
    if m.size != a.size:
        raise ValueError("putmask: mask and data must be the same size")
    m = m.ravel().astype(bool, copy=False)
    if isinstance(values, (ndarray, numpy.ndarray)) and not numpy.can_cast(
            values.dtype, a.dtype, "safe"):
        # arrays must cast safely; other values convert as a's dtype converts them
        raise TypeError(f"Cannot cast array data from {values.dtype!r} to {a.dtype!r} "
                        "according to the rule 'safe'")
    flat, copied = _flat_target(a)
    # values repeat by position in `a`, not by the count of true elements
    _cycled_into(flat, values, where=m)
    if copied:
        a[...] = flat.reshape(a.shape)


# ---- grids ----------------------------------------------------------------------------

def _is_complex_step(step) -> bool:
    return isinstance(step, (complex, numpy.complexfloating))


def _slice_parts(key: slice):
    start = 0 if key.start is None else key.start
    step = 1 if key.step is None else key.step
    return start, key.stop, step


class _Grid:
    """mgrid (dense) and ogrid (sparse). A real step is arange's; a complex
    step's magnitude is a number of points from start to stop inclusive."""

    def __init__(self, sparse: bool):
        self.sparse = sparse

    def __getitem__(self, key):
        if not hasattr(key, "__len__"):
            return self._one(key)
        try:
            return self._many(key)
        except (IndexError, TypeError):
            # NumPy retries a failed sequence of slices as one slice
            raise AttributeError(f"{type(key).__name__!r} object has no attribute 'step'") \
                from None

    def _many(self, key):
        sizes, parts = [], [0]  # the 0: at least arange's default integer
        for k in range(len(key)):
            start, stop, step = _slice_parts(key[k])
            if _is_complex_step(step):
                step = abs(step)
                sizes.append(int(step))
            else:
                sizes.append(math.ceil((stop - start) / step))
            parts += [start, stop, step]
        typ = numpy.result_type(*parts)
        grids = [arange(s, dtype=typ) for s in sizes] if self.sparse else indices(sizes, typ)
        for i, k in enumerate(key):
            start, stop, step = _slice_parts(k)
            if _is_complex_step(step):
                step = int(abs(step))
                if step != 1:
                    step = (stop - start) / float(step - 1)
            # a dense grid keeps its dtype (the assignment casts back)
            grids[i] = grids[i] * step + start
        if not self.sparse:
            return grids
        nd = len(sizes)
        return tuple(g.reshape((1,) * i + (-1,) + (1,) * (nd - i - 1))
                     for i, g in enumerate(grids))

    @staticmethod
    def _one(key: slice):
        start, stop, step = _slice_parts(key)
        if not _is_complex_step(step):
            return arange(start, stop, None if key.step is None else step)
        size = int(abs(step))
        typ = numpy.result_type(start, stop, abs(step))
        delta = (stop - start) / float(size - 1) if size != 1 else size
        return arange(0, size, 1, dtype=typ) * delta + start

    def __len__(self):
        return 0


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)


# ---- concatenation builders ------------------------------------------------------------

def _directive(item: str, axis: int, ndmin: int, trans1d: int):
    """The (axis, ndmin, trans1d) a string directive such as '-1' or '0,2,0'
    sets."""
    if "," in item:
        parts = item.split(",")
        try:
            axis, ndmin = (int(x) for x in parts[:2])
            if len(parts) == 3:
                trans1d = int(parts[2])
        except Exception as exc:
            raise ValueError(f"unknown special directive {item!r}") from exc
        return axis, ndmin, trans1d
    try:
        return int(item), ndmin, trans1d
    except (ValueError, TypeError) as exc:
        raise ValueError("unknown special directive") from exc


def _raised(obj: ndarray, ndim_before: int, ndmin: int, trans1d: int) -> ndarray:
    """`obj` (already ndmin-d) with its original axes moved to start at
    `trans1d` among the ndmin axes, as r_'s third directive number asks."""
    if trans1d == -1 or ndim_before >= ndmin:
        return obj
    k2, k1 = ndmin - ndim_before, trans1d
    if k1 < 0:
        k1 += k2 + 1
    axes = list(range(ndmin))
    return obj.transpose(axes[:k1] + axes[k2:] + axes[k1:k2])


class _Concatenator:
    """r_ and c_: slices become ranges (complex steps: linspace points),
    scalars and arrays are joined along `axis` after raising each to `ndmin`
    dimensions; a leading string sets axis, ndmin and trans1d."""

    def __init__(self, axis=0, ndmin=1, trans1d=-1):
        self.axis, self.ndmin, self.trans1d = axis, ndmin, trans1d

    def __getitem__(self, key):
        if isinstance(key, str):
            raise NotImplementedError("r_ and c_ of a matrix string (numpy.bmat's syntax) "
                                      "need a matrix class, which gpunp has not")
        if not isinstance(key, tuple):
            key = (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        matrix = column = False
        objs, kinds = [], []
        for k, item in enumerate(key):
            if isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    matrix, column = True, item == "c"
                else:
                    axis, ndmin, trans1d = _directive(item, axis, ndmin, trans1d)
                continue
            if isinstance(item, slice):
                start, stop, step = _slice_parts(item)
                if _is_complex_step(step):
                    obj = linspace(start, stop, num=int(abs(step)))
                else:
                    obj = arange(start, stop, step)
                if ndmin > 1:
                    obj = array(obj, copy=None, ndmin=ndmin)
                    if trans1d != -1:
                        obj = obj.swapaxes(-1, trans1d)
                kinds.append(obj.dtype)
            elif type(item) in numpy.ScalarType:
                obj = item
                kinds.append(item)  # a Python scalar stays weak in the result type
            else:
                before = numpy.ndim(item) if not isinstance(item, ndarray) else item.ndim
                obj = _raised(array(item, copy=None, ndmin=ndmin), before, ndmin, trans1d)
                kinds.append(obj.dtype)
            objs.append(obj)
        if kinds:
            dt = numpy.result_type(*kinds)
            objs = [array(o, copy=None, ndmin=ndmin, dtype=dt) for o in objs]
        res = concatenate(tuple(objs), axis=axis)
        if matrix:
            # gpunp has no matrix class: the 2-d array a matrix would hold
            oldndim = res.ndim
            res = res.reshape(1, -1) if oldndim == 1 else res
            if column and oldndim == 1:
                res = res.T
        return res

    def __len__(self):
        return 0


r_ = _Concatenator(0)
c_ = _Concatenator(-1, ndmin=2, trans1d=0)


class ndenumerate:
    """(index, value) pairs in C order, values as NumPy scalars: the array
    is copied to the host once, as the values are host objects anyway."""

    def __init__(self, arr):
        host = arr.get() if isinstance(arr, ndarray) else numpy.asarray(arr)
        self._iter = numpy.ndenumerate(host)

    def __next__(self):
        return next(self._iter)

    def __iter__(self):
        return self


# ---- Python-level loops ------------------------------------------------------------------

def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    arr = asarray(arr)
    nd = arr.ndim
    axis = _lib.normalize_axis(axis, nd)
    # the applied axis last, so each call takes view[index + (...,)]
    view = arr.transpose([d for d in range(nd) if d != axis] + [axis])
    outer = ndindex(view.shape[:-1])
    try:
        first = next(outer)
    except StopIteration:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0") from None
    res = asarray(func1d(view[first + (Ellipsis,)], *args, **kwargs))
    buff = zeros(view.shape[:-1] + res.shape, res.dtype)
    buff[first + (Ellipsis,)] = res
    for ind in outer:
        buff[ind + (Ellipsis,)] = asarray(func1d(view[ind + (Ellipsis,)], *args, **kwargs))
    # the result's own axes go where the applied axis was
    dims = list(range(buff.ndim))
    lead = buff.ndim - res.ndim
    return buff.transpose(dims[:axis] + dims[lead:] + dims[axis:lead])


def apply_over_axes(func, a, axes):
    val = asarray(a)
    n = val.ndim
    if numpy.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = n + axis
        res = asarray(func(val, axis))
        if res.ndim != val.ndim:
            res = expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val


def _conditions(condlist) -> ndarray:
    """condlist as one boolean array, stacked on the device when it is a
    list of gpunp arrays."""
    if isinstance(condlist, (list, tuple)) and condlist and all(
            isinstance(c, ndarray) for c in condlist):
        return stack([c.astype(bool, copy=False) for c in condlist])
    return asarray(condlist, dtype=bool)


def piecewise(x, condlist, funclist, *args, **kw):
    x = asarray(x)
    n2 = len(funclist)
    scalar = numpy.isscalar(condlist) or (isinstance(condlist, ndarray) and condlist.ndim == 0)
    if not scalar:
        first = condlist[0]  # raises IndexError for an empty condlist, as NumPy
        # a gpunp array's elements are 0-d arrays where NumPy's are scalars
        nested = isinstance(first, (list, numpy.ndarray)) or (
            isinstance(first, ndarray) and (first.ndim > 0 or not isinstance(condlist, ndarray)))
    if scalar or (not nested and x.ndim != 0):
        condlist = [condlist]
    conds = _conditions(condlist)
    n = len(conds)
    if n == n2 - 1:
        # the extra function applies where no condition holds
        otherwise = UFUNCS["logical_not"](_any(conds, axis=0, keepdims=True))
        conds = concatenate([conds, otherwise], axis=0)
        n += 1
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = zeros_like(x)
    for cond, func in zip(conds, funclist):
        if not callable(func):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y
