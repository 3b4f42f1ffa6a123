"""What the parts of gpunp.random's Generator share: NumPy's readings of
`size`, `out`, `dtype` and integer parameters."""

from __future__ import annotations

import operator

import numpy

from gpunp._creation import empty
from gpunp._ndarray import _shape_tuple, ndarray

_F32 = numpy.dtype(numpy.float32)
_F64 = numpy.dtype(numpy.float64)


def _shape(size) -> tuple:
    """NumPy's `size` argument as a shape; () for None."""
    if size is None:
        return ()
    try:
        return _shape_tuple(size)
    except TypeError:
        raise TypeError("expected a sequence of integers or a single integer, "
                        f"got '{size}'") from None


def _empty(shape, dtype) -> ndarray:
    return empty(shape, dtype)


def _check_out(out, dtype, size, name: str) -> ndarray:
    """NumPy's checks of an `out` argument; the array to fill."""
    if not isinstance(out, ndarray):
        raise TypeError(f"out must be a gpunp.ndarray, not {type(out).__name__}")
    f = out.flags
    if not ((f.c_contiguous or f.f_contiguous) and f.writeable):
        raise ValueError("Supplied output array must be contiguous, writable, aligned, and in "
                         "machine byte-order.")
    if out.dtype != dtype:
        raise TypeError(f"Supplied output array has the wrong type. Expected {dtype}, got "
                        f"{out.dtype}")
    if size is not None and _shape(size) != out.shape:
        raise ValueError("size must match out.shape when used together")
    return out


def _float_dtype(dtype, name: str) -> numpy.dtype:
    dt = numpy.dtype(dtype)
    if dt != _F64 and dt != _F32:
        raise TypeError(f"Unsupported dtype {dt!r} for {name}")
    return dt


def _integer(x, what: str) -> int:
    if isinstance(x, ndarray):
        x = x.get()
    if numpy.ndim(x) != 0:
        raise NotImplementedError(f"gpunp.random: array-valued {what} is not supported yet")
    if isinstance(x, (bool, numpy.bool_)):
        return int(x)
    try:
        return operator.index(x)
    except TypeError:
        return int(x)  # a float truncates, as NumPy's conversion does
