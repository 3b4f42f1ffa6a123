"""``ufunc.outer``, ``ufunc.reduceat`` and ``ufunc.at`` for every ufunc of the
op table, built from the engine's ufunc calls, reductions, gathers and
scatters: the data stays on the device; only index lists are read on the
host, where they usually come from.

``at`` applies the updates in rounds: round r holds the r-th occurrence of
every destination, so a round's destinations are distinct and one gather,
one ufunc call and one scatter apply it; each destination still sees its
updates in NumPy's order, so duplicates accumulate (``add.at(a, [0, 0], 1)``
adds 2) with NumPy's rounding, on the host and on a GPU alike. A list with
k repeats of one index takes k rounds, except integer ``add``/``subtract``:
their sums wrap alike in any order, so one scatter-add applies them all."""

from __future__ import annotations

import numpy

from gpunp import _lib
from gpunp._creation import asarray, empty, zeros
from gpunp._manipulation import broadcast_to
from gpunp._ndarray import ndarray


#: the integer dtypes the engine's scatter-add takes
_ATOMIC_INTS = tuple(numpy.dtype(t) for t in ("int32", "uint32", "int64", "uint64"))


def _device(x):
    return x if isinstance(x, ndarray) else asarray(x)


def _host_index(x):
    """An index item as NumPy indexing takes it: device arrays are read back
    (an index list is small next to the data it picks)."""
    if isinstance(x, ndarray):
        return x.get()
    if isinstance(x, list):
        return [_host_index(v) for v in x] if any(isinstance(v, ndarray) for v in x) else x
    return x


def refuse_scalar(axis, method):
    """NumPy's errors for accumulate or reduceat of a 0-d array: it reads
    and checks the axes first (against no dimensions, but for the int 0 or
    -1 a 0-d array keeps), then refuses the scalar."""
    if axis is not None and (isinstance(axis, tuple) or
                             _lib.c_int(axis, ValueError) not in (0, -1)):
        _lib.normalize_axis_tuple(axis, 0, error=ValueError)
    raise TypeError(f"cannot {method} on a scalar")


def outer(uf, a, b, **kwargs):
    """uf(a[..., None, ...], b): the result's shape is a.shape + b.shape.
    Both operands are arrays first (a Python scalar is a strong 0-d array
    there, as in NumPy's outer)."""
    if uf.nin != 2:
        raise ValueError("outer product only supported for binary functions")
    a, b = _device(a), _device(b)
    return uf(a.reshape(a.shape + (1,) * b.ndim), b, **kwargs)


def reduceat(uf, array, indices, axis=0, dtype=None, out=None):
    """NumPy's reduceat along `axis`: segment i reduces
    array[indices[i]:indices[i + 1]] (the last one up to the end); where
    indices[i] >= indices[i + 1] it is array[indices[i]]. One reduction
    per segment of two or more elements (a copy for one), written into its
    slice of the result."""
    if uf.nin != 2:
        raise ValueError("reduceat only supported for binary functions")
    if uf.nout != 1:
        raise ValueError("reduceat only supported for functions returning a single value")
    a = _device(array)
    if a.ndim == 0:
        refuse_scalar(axis, "reduceat")
    ax = _lib.normalize_axis(axis, a.ndim, ValueError)
    idx = numpy.asarray(_host_index(indices))
    if idx.ndim != 1:
        raise ValueError("object too deep for desired array" if idx.ndim > 1
                         else "object of too small depth for desired array")
    if idx.dtype.kind not in "biu":
        idx = idx.astype(numpy.intp)  # NumPy casts other numbers to intp
    idx = idx.astype(numpy.intp, casting="safe")
    n = a.shape[ax]
    for i in idx.tolist():
        if not 0 <= i < n:
            raise IndexError(f"index {i} out-of-bounds in {uf.__name__}.reduceat [0, {n})")

    def seg(lo, hi):
        return a[(slice(None),) * ax + (slice(lo, hi),)]

    shape = a.shape[:ax] + (len(idx),) + a.shape[ax + 1:]
    if out is not None:
        res = out[0] if isinstance(out, tuple) else out
        if not isinstance(res, ndarray):
            raise TypeError("output must be a gpunp.ndarray")
        if res.shape != shape:
            raise ValueError(f"output has shape {res.shape}, reduceat gives {shape}")
    # the loop (its dtype, its TypeError) is the reduction's, resolved on one
    # element of a's dtype so that it holds with no segment or no element too:
    # add of bool counts in int64, logical_and of int8 gives bool, less of
    # int8 has no loop
    probe = uf.reduce(zeros(1, a.dtype), dtype=dtype,
                      out=None if out is None else empty((), res.dtype))
    if out is None:
        res = empty(shape, probe.dtype)
    starts = idx.tolist()
    for j, lo in enumerate(starts):
        hi = starts[j + 1] if j + 1 < len(starts) else n
        dst = res[(slice(None),) * ax + (slice(j, j + 1),)]
        if hi - lo > 1:
            uf.reduce(seg(lo, hi), axis=ax, dtype=dtype, out=dst, keepdims=True)
        else:
            # a segment of one element is that element, cast through the
            # loop: reduce would start from the identity, and
            # hypot.reduce([-3.]) is 3.0 where hypot.reduceat is -3.0
            one = seg(lo, lo + 1)
            dst[...] = one if dtype is None else one.astype(dtype)
    return res


def _coordinates(shape, index):
    """The coordinates (one host intp array per dimension, of the indexed
    result's shape) of the elements `a[index]` names, with NumPy's own
    index rules and errors: each dimension's coordinate grid, broadcast
    without memory, indexed like the array."""
    if not shape:
        picked = numpy.zeros((), numpy.intp)[index]  # validates the index
        return (), numpy.shape(picked)
    coords = []
    for d, n in enumerate(shape):
        grid = numpy.arange(n, dtype=numpy.intp).reshape((1,) * d + (n,) + (1,) * (len(shape) - d - 1))
        coords.append(numpy.broadcast_to(grid, shape)[index])
    return tuple(coords), coords[0].shape


def _rounds(flat):
    """Positions of `flat` (1-D destinations) grouped by occurrence: round r
    lists, in order, the positions holding the r-th occurrence of their
    destination."""
    n = flat.size
    if n == 0:
        return []
    order = numpy.argsort(flat, kind="stable")
    fs = flat[order]
    new = numpy.ones(n, bool)
    new[1:] = fs[1:] != fs[:-1]
    start = numpy.maximum.accumulate(numpy.where(new, numpy.arange(n), 0))
    rank = numpy.empty(n, numpy.intp)
    rank[order] = numpy.arange(n) - start
    by_rank = numpy.argsort(rank, kind="stable")
    counts = numpy.bincount(rank)
    return numpy.split(by_rank, numpy.cumsum(counts)[:-1])


def _at_operand(uf, a, b, index):
    """`b` as a device array, as NumPy's at takes it (a Python scalar is a
    strong array). A Python int outside int64 and uint64 is an object array
    to NumPy, which gpunp does not have: TypeError, where NumPy's would
    come, before the index is checked if NumPy's ufunc has no object loop,
    else after it."""
    h = numpy.asarray(_host_index(b))
    if h.dtype == object:
        ref = getattr(numpy, uf.__name__, None)
        if ref is not None and any("O" in t for t in ref.types):
            _coordinates(a.shape, index)
        raise TypeError(f"gpunp does not support dtype {h.dtype!r} (the operand {b!r} of "
                        f"{uf.__name__}.at)")
    return asarray(h)


def at(uf, a, indices, b=None):
    """Unbuffered in-place uf on the elements a[indices] (with b's
    elements): duplicates apply once per occurrence, in order. The loop
    takes a's dtype and b's as arrays (a Python scalar is strong here, as in
    NumPy's at) and its result is cast to a's dtype unsafely, as NumPy
    does."""
    if not isinstance(a, ndarray):
        raise TypeError("first operand must be array")
    if uf.nout != 1:
        raise ValueError("Only single output ufuncs supported at this time")
    if uf.nin == 2 and b is None:
        raise ValueError("second operand needed for ufunc")
    if uf.nin == 1 and b is not None:
        raise ValueError("second operand provided when ufunc is unary")
    if not a.flags.writeable:
        raise ValueError("output array is read-only")
    if isinstance(indices, tuple):
        index = tuple(_host_index(x) for x in indices)
    else:
        index = _host_index(indices)
    # NumPy's order of errors: the loop (TypeError), then the index
    # (IndexError), then the shapes (ValueError)
    bb = None if b is None else b if isinstance(b, ndarray) else _at_operand(uf, a, b, index)
    uf.resolve_dtypes((a.dtype,) + (() if bb is None else (bb.dtype,)) + (None,),
                      casting="unsafe")
    coords, rshape = _coordinates(a.shape, index)
    if b is not None:
        try:
            fits = numpy.broadcast_shapes(bb.shape, rshape) == tuple(rshape)
        except ValueError:
            fits = False
        if not fits:
            raise ValueError("array is not broadcastable to correct shape")
    size = int(numpy.prod(rshape, dtype=numpy.int64))
    if size == 0:
        return None
    if not coords:  # a 0-d array: each selection is the one element
        rounds = [numpy.arange(size)]
        flatc = ()
    else:
        flatc = tuple(c.reshape(-1) for c in coords)
        rounds = _rounds(numpy.ravel_multi_index(flatc, a.shape))
    bflat = None
    if b is not None:
        bflat = broadcast_to(bb, rshape).reshape(-1)
    # each round's result goes to a buffer of a's dtype, not over its own
    # operand: a complex comparison written over a complex operand
    # (equal(2+3j, 2, out=x) with x the operand) reads the imaginary part
    # after the real result is written, and gives 1+0j
    if not coords:
        # a 0-d array takes every update in turn
        view = a.reshape(1)
        for k in range(size):
            args = (view,) if bflat is None else (view, bflat[k:k + 1])
            view[...] = uf(*args, out=empty(1, a.dtype), casting="unsafe")
        return None
    if (uf.__name__ in ("add", "subtract") and bflat is not None and len(rounds) > 1 and
            a.dtype in _ATOMIC_INTS and
            uf.resolve_dtypes((a.dtype, bb.dtype, None), casting="unsafe") == (a.dtype,) * 3):
        # integer sums wrap the same in any order: one scatter-add
        vals = bflat if uf.__name__ == "add" else uf(zeros((), a.dtype), bflat)
        idx = [asarray(c) for c in flatc]
        # held by a name: a temporary's handle would be freed before the call
        vals = vals.astype(a.dtype, copy=False)
        _lib.check(_lib.lib.gp_array_scatter_add(
            a._h, len(idx), _lib.ffi.new("gp_array_t *[]", [x._h for x in idx]),
            _lib.ffi.new("int32_t[]", list(range(len(idx)))), _lib.lib.GP_TAKE_RAISE, vals._h))
        return None
    for sel in rounds:
        where = tuple(c[sel] for c in flatc)
        cur = a[where]
        args = (cur,) if bflat is None else (cur, bflat[sel])
        a[where] = uf(*args, out=empty(cur.shape, a.dtype), casting="unsafe")
    return None
