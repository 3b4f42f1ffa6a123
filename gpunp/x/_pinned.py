"""NumPy arrays in page-locked host memory (cupyx's ``empty_pinned`` and
kin), from ``gpunp.cuda.alloc_pinned_memory``: the host side of
asynchronous copies (``a.get(out=p, stream=s, blocking=False)``,
``a.set(p, stream=s)``). The memory goes back to its pool when the array
(and every view of it) is gone."""

from __future__ import annotations

import math
import operator

import numpy

from gpunp.cuda.pinned_memory import alloc_pinned_memory


def _shape(shape) -> tuple:
    try:
        return tuple(operator.index(n) for n in shape)
    except TypeError:
        return (operator.index(shape),)


def empty_pinned(shape, dtype=float, order="C") -> numpy.ndarray:
    """An uninitialised NumPy array in page-locked memory."""
    shape, dtype = _shape(shape), numpy.dtype(dtype)
    if order not in ("C", "F"):
        raise ValueError("order must be 'C' or 'F'")
    if any(n < 0 for n in shape):
        raise ValueError("negative dimensions are not allowed")
    nbytes = math.prod(shape) * dtype.itemsize
    mem = alloc_pinned_memory(nbytes)
    return numpy.ndarray(shape, dtype, buffer=mem.buffer()[:nbytes], order=order)


def zeros_pinned(shape, dtype=float, order="C") -> numpy.ndarray:
    """A NumPy array of zeros in page-locked memory."""
    out = empty_pinned(shape, dtype, order)
    out.fill(0)
    return out


def _like(a, dtype, order, shape):
    a = numpy.asarray(a) if not hasattr(a, "shape") else a
    dtype = a.dtype if dtype is None else dtype
    shape = a.shape if shape is None else shape
    if order in ("A", "K"):
        f = getattr(getattr(a, "flags", None), "f_contiguous", False)
        c = getattr(getattr(a, "flags", None), "c_contiguous", True)
        order = "F" if f and not c else "C"
    return shape, dtype, order


def empty_like_pinned(a, dtype=None, order="K", subok=None, shape=None) -> numpy.ndarray:
    """empty_pinned of the shape and dtype of `a`."""
    if subok is not None:
        raise TypeError("subok is not supported")
    return empty_pinned(*_like(a, dtype, order, shape))


def zeros_like_pinned(a, dtype=None, order="K", subok=None, shape=None) -> numpy.ndarray:
    """zeros_pinned of the shape and dtype of `a`."""
    if subok is not None:
        raise TypeError("subok is not supported")
    return zeros_pinned(*_like(a, dtype, order, shape))
