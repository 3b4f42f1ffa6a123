"""Advanced indexing (integer and boolean arrays in an index) and the
indexing routines built on it: take, put, take_along_axis, put_along_axis,
compress, extract, nonzero, flatnonzero, argwhere, count_nonzero, where,
place, select, choose.

An advanced index is brought to one form: a basic view of the array in
which every advanced item is a full axis, the index arrays (boolean ones
through nonzero), and the axes they index. The engine's gather (or scatter)
kernel reads (or writes) the view, transposed so that the indexed axes lead,
through an output laid out as NumPy lays out its result: the broadcast
index shape first, then the other axes, transposed back where NumPy puts the
indexed dimensions in place (adjacent advanced indices)."""

from __future__ import annotations

import warnings

import numpy

from gpunp import _fusion, _lib
from gpunp._fusion import TRACED as _FUSE_TYPES
from gpunp._creation import arange, asarray, empty
from gpunp._dtypes import result_type
from gpunp._joining import stack
from gpunp._lib import check, ffi, lib
from gpunp._manipulation import broadcast_arrays, broadcast_shapes, broadcast_to
from gpunp._ndarray import (_BAD_INDEX, _INT64_MAX, _INT64_MIN, _ONE_ELLIPSIS,
                            _contains_device_arrays, _element_value, _index_int_item,
                            _to_host_nested, _wrap, ndarray)
from gpunp._reduction import any as _any
from gpunp._shaping import copyto, resize
from gpunp._ufunc import UFUNCS

_MODES = {"raise": lib.GP_TAKE_RAISE, "wrap": lib.GP_TAKE_WRAP, "clip": lib.GP_TAKE_CLIP}
_INTP = numpy.dtype(numpy.intp)


def _upload(host: numpy.ndarray) -> ndarray:
    return asarray(host)


def _convert(k):
    """One item of an index as ('basic', item) or ('int', array) or
    ('bool', array): arrays keep their device or host home."""
    if k is None or k is Ellipsis or isinstance(k, slice):
        return "basic", k
    if isinstance(k, (bool, numpy.bool_)):
        return "bool", numpy.asarray(k, dtype=bool)
    if isinstance(k, (list, tuple)):
        try:
            arr = numpy.asarray(k)
        except ValueError:
            raise IndexError(_BAD_INDEX) from None
        if arr.size == 0 and arr.dtype.kind == "f":
            arr = arr.astype(_INTP)  # NumPy takes [] as an empty integer index
        k = arr
    if isinstance(k, (ndarray, numpy.ndarray)):
        kind = k.dtype.kind
        if kind == "b":
            return "bool", k
        if kind in "iu":
            if k.ndim == 0:
                return "basic", _index_int_item(int(k))
            return "int", k
        raise IndexError(_BAD_INDEX)
    return "basic", _index_int_item(k)


def _plan(a: ndarray, key):
    """(view, arrays, axes, positions, adjacent): the basic view of `a` with
    a full axis at each advanced item, the device index arrays, the axes of
    `a` they index (for messages), the view's axis of each, and whether the
    advanced items are adjacent (the index dims then stay in their place)."""
    if type(key) is not tuple:
        key = (key,)
    items = []
    for k in key:  # NumPy refuses a second ellipsis before it reads the items after it
        if k is Ellipsis and any(j is Ellipsis for _, j in items):
            raise IndexError(_ONE_ELLIPSIS)
        items.append(_convert(k))
    consumed = 0
    for kind, k in items:
        if kind == "bool":
            consumed += k.ndim
        elif kind == "int" or (k is not None and k is not Ellipsis):
            consumed += 1
    nd = a.ndim
    if consumed > nd:
        raise IndexError(f"too many indices for array: array is {nd}-dimensional, but "
                         f"{consumed} were indexed")
    basic, arrays, axes, positions = [], [], [], []
    dim = vdim = 0
    # NumPy puts the index dims first when anything but advanced items lies
    # between two of them, an Ellipsis of no dims included
    advanced_seen = gap = split = False
    for kind, k in items:
        if kind != "basic" or not (k is None or k is Ellipsis or isinstance(k, slice)):
            split |= gap
            advanced_seen = True
        elif advanced_seen:
            gap = True
        if kind == "basic":
            if k is None:
                basic.append(None)
                vdim += 1
            elif k is Ellipsis:
                for _ in range(nd - consumed):
                    basic.append(slice(None))
                dim += nd - consumed
                vdim += nd - consumed
            elif isinstance(k, slice):
                basic.append(k)
                dim += 1
                vdim += 1
            else:
                # an integer beside arrays is a 0-d index array (its place
                # counts in NumPy's placement rule), checked first as NumPy does
                n = a.shape[dim]
                if not -n <= k < n:
                    raise IndexError(f"index {k} is out of bounds for axis {dim} with size {n}")
                basic.append(slice(None))
                arrays.append(_upload(numpy.asarray(k, dtype=_INTP)))
                axes.append(dim)
                positions.append(vdim)
                dim += 1
                vdim += 1
        elif kind == "int":
            basic.append(slice(None))
            arrays.append(k if isinstance(k, ndarray) else _upload(k))
            axes.append(dim)
            positions.append(vdim)
            dim += 1
            vdim += 1
        elif k.ndim == 0:
            # a scalar boolean: a new axis of length 1, indexed by [0] (True)
            # or by nothing (False)
            basic.append(None)
            arrays.append(_upload(numpy.zeros(1 if bool(k) else 0, _INTP)))
            axes.append(0)
            positions.append(vdim)
            vdim += 1
        else:
            for j in range(k.ndim):
                n, m = a.shape[dim + j], k.shape[j]
                if n != m and m != 0:  # NumPy lets an empty dimension select nothing
                    raise IndexError(
                        f"boolean index did not match indexed array along axis {dim + j}; "
                        f"size of axis is {n} but size of corresponding boolean axis is {m}")
            if isinstance(k, ndarray):
                found = nonzero(k)
            else:
                found = tuple(_upload(r.astype(_INTP)) for r in numpy.nonzero(k))
            for j, r in enumerate(found):
                basic.append(slice(None))
                arrays.append(r)
                axes.append(dim + j)
                positions.append(vdim + j)
            dim += k.ndim
            vdim += k.ndim
    view = a[tuple(basic)]
    return view, arrays, axes, positions, not split


def _layout(view: ndarray, arrays, positions, adjacent):
    """(source, shape, perm): the view transposed so that the indexed axes
    lead, the result's shape in NumPy's placement, and the permutation of
    the result's axes that gives the (index shape + other axes) order."""
    try:
        bshape = numpy.broadcast_shapes(*(r.shape for r in arrays))
    except ValueError:
        shapes = " ".join(str(tuple(r.shape)) for r in arrays)
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together with "
                         f"shapes {shapes}") from None
    rest = [d for d in range(view.ndim) if d not in positions]
    src = view.transpose(positions + rest) if positions != list(range(len(positions))) \
        else view
    at = positions[0] if adjacent else 0
    rshape = [view.shape[d] for d in rest]
    shape = tuple(rshape[:at]) + tuple(bshape) + tuple(rshape[at:])
    nb, nr = len(bshape), len(rshape)
    perm = [nb + r for r in range(at)] + list(range(nb)) + [nb + r for r in range(at, nr)]
    return src, tuple(bshape) + tuple(rshape), shape, perm, at


def _handles(arrays):
    return ffi.new("gp_array_t *[]", [r._h for r in arrays])


def _masked(a: ndarray, mask: ndarray) -> ndarray:
    """a[mask] for a mask of a's shape (truth of any dtype): the engine
    compacts the elements in one pass, without the coordinates a gather
    would read."""
    out = ffi.new("gp_array_t **")
    check(lib.gp_array_masked(a._h, mask._h, out))
    return _wrap(out[0])


def getitem(a: ndarray, key) -> ndarray:
    if (isinstance(key, ndarray) and key.dtype == numpy.bool_ and key.ndim
            and key.shape == a.shape):
        return _masked(a, key)
    view, arrays, axes, positions, adjacent = _plan(a, key)
    if not arrays:  # 0-d integer arrays only: a basic index
        return view
    src, gshape, shape, perm, at = _layout(view, arrays, positions, adjacent)
    out = empty(gshape, a.dtype)
    check(lib.gp_array_gather(src._h, len(arrays), _handles(arrays),
                              ffi.new("int32_t[]", axes), lib.GP_TAKE_RAISE, out._h))
    if at == 0:
        return out
    return out.transpose(perm)


def _values(value, dtype) -> ndarray:
    """The values of an assignment as a device array, converted as NumPy
    converts them for an array of `dtype`."""
    if isinstance(value, ndarray):
        return value
    if isinstance(value, (list, tuple)) and _contains_device_arrays(value):
        value = _to_host_nested(value)
    if isinstance(value, (list, tuple, numpy.ndarray)):
        return _upload(numpy.asarray(value, dtype=dtype))
    return _upload(numpy.asarray(_element_value(value, dtype), dtype=dtype))


def setitem(a: ndarray, key, value) -> None:
    view, arrays, axes, positions, adjacent = _plan(a, key)
    if not arrays:  # 0-d integer arrays only: a basic index
        view[...] = value
        return
    src, gshape, shape, perm, at = _layout(view, arrays, positions, adjacent)
    v = _values(value, a.dtype)
    # NumPy drops leading axes of length one the result lacks
    while v.ndim > len(shape) and v.shape[0] == 1:
        v = v[0]
    vs = tuple(v.shape)
    ok = len(vs) <= len(shape) and all(m in (1, n) for m, n in zip(vs[::-1], shape[::-1]))
    if not ok:
        raise ValueError(f"shape mismatch: value array of shape {vs} could not be broadcast to "
                         f"indexing result of shape {shape}")
    v = broadcast_to(v, shape)
    if at:
        v = v.transpose(list(numpy.argsort(perm)))
    check(lib.gp_array_scatter(src._h, len(arrays), _handles(arrays),
                               ffi.new("int32_t[]", axes), lib.GP_TAKE_RAISE, v._h))


# ---- indexing routines -----------------------------------------------------------------------

def _array(x) -> ndarray:
    return x if isinstance(x, ndarray) else asarray(x)


def nonzero(a) -> tuple:
    a = _array(a)
    out = ffi.new("gp_array_t **")
    check(lib.gp_array_nonzero(a._h, out))
    rows = _wrap(out[0])
    return tuple(rows[d] for d in range(a.ndim))


def flatnonzero(a) -> ndarray:
    return nonzero(_array(a).ravel())[0]


def argwhere(a) -> ndarray:
    a = _array(a)
    if a.ndim == 0:
        return argwhere(a.reshape(1))[:, :0]
    out = ffi.new("gp_array_t **")
    check(lib.gp_array_nonzero(a._h, out))
    return _wrap(out[0]).T


def count_nonzero(a, axis=None, *, keepdims=False):
    a = _array(a)
    found = UFUNCS["not_equal"](a, 0) if a.dtype.kind != "b" else a
    return found.sum(axis=axis, dtype=_INTP, keepdims=keepdims)


def _index_array(indices, casting: str) -> ndarray:
    """Indices for take (`casting` 'same_kind') and put ('safe'), as NumPy
    converts them to intp: an array under the rule, anything else as if
    assigned (a float truncates, an int past int64 overflows)."""
    if not isinstance(indices, (ndarray, numpy.ndarray)):
        if _contains_device_arrays(indices):  # a list of device arrays
            indices = _to_host_nested(indices)
        return _upload(numpy.asarray(indices, dtype=_INTP))
    if not numpy.can_cast(indices.dtype, _INTP, casting):
        raise TypeError(f"Cannot cast array data from {indices.dtype!r} to {_INTP!r} according "
                        f"to the rule {casting!r}")
    idx = indices if isinstance(indices, ndarray) else _upload(indices)
    return idx.astype(_INTP) if idx.dtype.kind == "b" else idx


def _mode(mode) -> int:
    try:
        return _MODES[mode]
    except (KeyError, TypeError):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})") \
            from None


_AXIS0 = ffi.new("int32_t[]", [0])


def take(a, indices, axis=None, out=None, mode="raise"):
    a = _array(a)
    m = _mode(mode)
    idx = _index_array(indices, "same_kind")
    if axis is None:
        a = a if a.ndim == 1 else a.ravel()
        axis = 0
    else:
        if a.ndim == 0:
            a = a.reshape(1)  # NumPy takes a 0-d array's axis 0 as of length 1
        axis = _lib.normalize_axis(axis, a.ndim, ValueError)
    if out is None and a.ndim == 1:
        # the common call (bench/'s take row is timed with the GPU waiting
        # on this path): one gather into a result of the indices' shape
        res = empty(idx.shape, a.dtype)
        check(lib.gp_array_gather(a._h, 1, _handles([idx]), _AXIS0, m, res._h))
        return res
    src = a.transpose([axis] + [d for d in range(a.ndim) if d != axis]) if axis else a
    ni = idx.ndim
    shape = a.shape[:axis] + idx.shape + a.shape[axis + 1:]
    gshape = idx.shape + a.shape[:axis] + a.shape[axis + 1:]
    res = empty(gshape, a.dtype)
    # NumPy's take checks the indices once per element of the axes before
    # `axis`: none when those are empty
    if numpy.prod(a.shape[:axis], dtype=numpy.int64) > 0:
        check(lib.gp_array_gather(src._h, 1, _handles([idx]), ffi.new("int32_t[]", [axis]), m,
                                  res._h))
    if axis:
        perm = [ni + r for r in range(axis)] + list(range(ni)) + \
            [ni + r for r in range(axis, a.ndim - 1)]
        res = res.transpose(perm).copy()
    assert res.shape == shape
    if out is not None:
        if not isinstance(out, ndarray):
            raise TypeError("out must be a gpunp.ndarray")
        if out.shape != shape:
            raise ValueError("output array does not match result of ndarray.take")
        copyto(out, res, casting="safe")
        return out
    return res


def _flat_target(a: ndarray):
    """A 1-d writeable view of `a` in C order, or (copy, True) when `a` is
    not C-contiguous (the caller writes the copy back)."""
    if a.flags.c_contiguous:
        return a.reshape(-1), False
    return a.flatten(), True


def put(a, ind, v, mode="raise") -> None:
    if not isinstance(a, ndarray):
        raise TypeError(f"argument 1 must be gpunp.ndarray, not {type(a).__name__}")
    m = _mode(mode)
    idx = _index_array(ind, "safe").ravel()
    if idx.size == 0:
        return
    vals = _values(v, a.dtype).ravel()
    if vals.size == 0:
        return
    if vals.size != idx.size:
        vals = resize(vals, (idx.size,))
    if a.size == 0 and m != lib.GP_TAKE_RAISE:
        raise IndexError("cannot replace elements of an empty array")
    flat, copied = _flat_target(a)
    check(lib.gp_array_scatter(flat._h, 1, _handles([idx]), ffi.new("int32_t[]", [0]), m,
                               vals._h))
    if copied:
        a[...] = flat.reshape(a.shape)


def _along_axis_index(arr: ndarray, indices: ndarray, axis: int) -> tuple:
    """The fancy index of take_along_axis: `indices` on `axis`, aranges
    shaped to broadcast on the other axes (NumPy's own construction)."""
    nd = arr.ndim
    shape_ones = (1,) * indices.ndim
    fancy = []
    for d in range(nd):
        if d == axis:
            fancy.append(indices)
        else:
            ind_shape = shape_ones[:d] + (-1,) + shape_ones[d + 1:]
            fancy.append(arange(arr.shape[d]).reshape(ind_shape))
    return tuple(fancy)


def _along_axis_args(arr, indices, axis, name):
    arr = _array(arr)
    indices = _array(indices)
    if indices.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        arr = arr.ravel()
        axis = 0
    else:
        axis = _lib.normalize_axis(axis, arr.ndim)
    if arr.ndim != indices.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    return arr, indices, axis


def take_along_axis(arr, indices, axis=-1):
    arr, indices, axis = _along_axis_args(arr, indices, axis, "take_along_axis")
    return arr[_along_axis_index(arr, indices, axis)]


def put_along_axis(arr, indices, values, axis) -> None:
    if not isinstance(arr, ndarray):
        raise TypeError("put_along_axis needs a gpunp.ndarray")
    target = arr
    a, indices, axis = _along_axis_args(arr, indices, axis, "put_along_axis")
    if a is not target and not a.flags.c_contiguous:
        raise ValueError("put_along_axis with axis=None needs a contiguous array")
    a[_along_axis_index(a, indices, axis)] = values


def compress(condition, a, axis=None, out=None):
    cond = _array(condition)
    if cond.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    idx = nonzero(cond.astype(bool) if cond.dtype.kind != "b" else cond)[0]
    return take(a, idx, axis=axis, out=out)


def extract(condition, arr):
    cond, flat = _array(condition).ravel(), _array(arr).ravel()
    if cond.size == flat.size:
        return _masked(flat, cond)
    return take(flat, nonzero(cond)[0])


def where(condition, x=None, y=None):
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    if {type(condition), type(x), type(y)} & _FUSE_TYPES:  # inside gpunp.fuse's tracing
        return _fusion.where(condition, x, y)
    x, y = (asarray(v) if isinstance(v, (list, tuple)) else v for v in (x, y))  # array-likes
    cond = _array(condition)
    if cond.dtype.kind != "b":
        cond = UFUNCS["not_equal"](cond, 0) if cond.dtype.kind != "c" else \
            UFUNCS["not_equal"](cond, 0)
    dt = result_type(x, y)
    shape = broadcast_shapes(cond.shape, numpy.shape(x) if not isinstance(x, ndarray)
                             else x.shape, numpy.shape(y) if not isinstance(y, ndarray)
                             else y.shape)
    out = empty(shape, dt)
    copyto(out, _where_operand(y, dt), casting="unsafe")
    copyto(out, _where_operand(x, dt), casting="unsafe", where=cond)
    return out


def _where_operand(v, dt):
    """A Python scalar in the result dtype by the running NumPy's own where
    (NumPy 2.4 casts where(c, uint8_array, -1) to 255, 2.5 raises
    OverflowError)."""
    if isinstance(v, (bool, int, float, complex)) and not (
            type(v) is int and not _INT64_MIN <= v <= _INT64_MAX):
        with numpy.errstate(all="ignore"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return _upload(numpy.where(False, numpy.zeros((), dt), v).astype(dt))
    return v


def place(arr, mask, vals) -> None:
    if not isinstance(arr, ndarray):
        raise TypeError(f"argument 1 must be gpunp.ndarray, not {type(arr).__name__}")
    m = _array(mask).ravel()
    if m.size != arr.size:
        raise ValueError("place: mask and data must be the same size")
    m = m.astype(bool) if m.dtype.kind != "b" else m
    vals = _values(vals, arr.dtype).ravel()
    n = int(count_nonzero(m))
    if n == 0:
        return
    if vals.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    flat, copied = _flat_target(arr)
    flat[m] = resize(vals, (n,))
    if copied:
        arr[...] = flat.reshape(arr.shape)


def select(condlist, choicelist, default=0):
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(choicelist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    conds = [_array(c) for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype.kind != "b":
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    choices = [asarray(c) if isinstance(c, (list, tuple)) else c for c in choicelist]
    dt = result_type(*choices, default)
    shapes = [c.shape for c in conds] + [numpy.shape(c) if not isinstance(c, ndarray)
                                         else c.shape for c in choices]
    out = empty(broadcast_shapes(*shapes), dt)
    copyto(out, default, casting="unsafe")
    # the first true condition wins: write the last first
    for c, ch in zip(conds[::-1], choices[::-1]):
        copyto(out, ch, casting="unsafe", where=c)
    return out


def choose(a, choices, out=None, mode="raise"):
    m = _mode(mode)
    idx = _array(a)
    if idx.dtype.kind not in "biu":
        raise TypeError(f"Cannot cast array data from {idx.dtype!r} to {_INTP!r} according to "
                        "the rule 'safe'")
    chs = [_array(c) for c in choices]
    if not chs:
        raise ValueError("0-length sequence.")
    n = len(chs)
    dt = result_type(*chs)
    parts = broadcast_arrays(idx, *chs)
    idx, chs = parts[0], [c.astype(dt, copy=False) for c in parts[1:]]
    if m == lib.GP_TAKE_WRAP:
        idx = idx.astype(_INTP) % n
    elif m == lib.GP_TAKE_CLIP:
        idx = UFUNCS["clip"](idx.astype(_INTP), 0, n - 1) if "clip" in UFUNCS else \
            UFUNCS["minimum"](UFUNCS["maximum"](idx.astype(_INTP), 0), n - 1)
    else:
        idx = idx.astype(_INTP)
        if idx.size and bool(_any(UFUNCS["logical_or"](UFUNCS["less"](idx, 0),
                                                       UFUNCS["greater_equal"](idx, n)))):
            raise ValueError("invalid entry in choice array")
    stacked = stack(chs)
    nd = idx.ndim
    fancy = [idx] + [arange(idx.shape[d]).reshape((1,) * d + (-1,) + (1,) * (nd - d - 1))
                     for d in range(nd)]
    res = stacked[tuple(fancy)]
    if out is not None:
        copyto(out, res)
        return out
    return res


# ---- NumPy's ndarray methods of the same names -----------------------------------------
# (rows of gpunp._ndarray.METHODS) take, choose and nonzero are the functions,
# which take the array first as the methods take self; put (NumPy's method
# names its arguments indices, values) and compress (the array second) need
# their own

def _put_method(self, indices, values, mode="raise") -> None:
    put(self, indices, values, mode=mode)


def _compress_method(self, condition, axis=None, out=None):
    return compress(condition, self, axis=axis, out=out)
