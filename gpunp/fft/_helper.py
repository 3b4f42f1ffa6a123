"""numpy.fft's helpers: fftfreq, rfftfreq (sample frequencies, made on the
current device or on `device`) and fftshift, ifftshift (rolls)."""

from __future__ import annotations

import contextlib

import numpy
from gpunp._creation import arange, asarray
from gpunp._joining import concatenate
from gpunp._shaping import roll
from gpunp.cuda import Device

_INTEGER = (int, numpy.integer)


def _on(device):
    """The block runs with `device` current (None: the current device)."""
    if device is None:
        return contextlib.nullcontext()
    if isinstance(device, Device):
        return device
    raise ValueError(f"gpunp.fft makes its arrays on a gpunp.cuda.Device, not on {device!r}")


def _frequencies(n, d, device, last, dtype):
    if not isinstance(n, _INTEGER):
        raise ValueError("n should be an integer")
    val = 1.0 / (n * d)
    # fftfreq's empty(n) refuses these, after the division
    if not last and isinstance(n, bool):
        raise TypeError(f"expected a sequence of integers or a single integer, got '{n}'")
    if not last and n < 0:
        raise ValueError("negative dimensions are not allowed")
    with _on(device):
        if last:
            results = arange(0, n // 2 + 1, dtype=int)
        else:
            results = concatenate([arange(0, (n - 1) // 2 + 1, dtype=int),
                                   arange(-(n // 2), 0, dtype=int)])
        r = results * val
        return r if dtype is None else r.astype(_real_float(dtype))


def _real_float(dtype):
    # the array API's dtype= (NumPy's helpers have none): a real float
    dt = numpy.dtype(dtype)
    if dt.kind != "f":
        raise ValueError(f"dtype must be a real floating-point dtype, not {dt}")
    return dt


def fftfreq(n, d=1.0, device=None, *, dtype=None):
    """The sample frequencies of an n-point transform with sample spacing d
    (numpy.fft.fftfreq; dtype= from the array API)."""
    return _frequencies(n, d, device, False, dtype)


def rfftfreq(n, d=1.0, device=None, *, dtype=None):
    """The sample frequencies of rfft's half spectrum (numpy.fft.rfftfreq;
    dtype= from the array API)."""
    return _frequencies(n, d, device, True, dtype)


def _shift(x, axes, sign):
    x = asarray(x)
    if axes is None:
        axes = tuple(range(x.ndim))
        shift = [sign * (dim // 2) for dim in x.shape]
    elif isinstance(axes, _INTEGER):
        shift = sign * (x.shape[axes] // 2)
    else:
        shift = [sign * (x.shape[ax] // 2) for ax in axes]
    return roll(x, shift, axes)


def fftshift(x, axes=None):
    """The zero-frequency term moved to the centre (numpy.fft.fftshift)."""
    return _shift(x, axes, 1)


def ifftshift(x, axes=None):
    """The inverse of fftshift (numpy.fft.ifftshift)."""
    return _shift(x, axes, -1)


__all__ = ["fftfreq", "rfftfreq", "fftshift", "ifftshift"]
