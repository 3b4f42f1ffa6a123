"""Fourier-domain filters: the input is an FFT (complex, or a real FFT of
length n along `axis`), multiplied by a separable factor built from small
per-axis tables on the host and broadcast on the device."""

from __future__ import annotations

import operator

import numpy as np

import gpunp as gp

from . import _ni_support as ns

_REAL_OUT = (np.complex64, np.complex128, np.float32, np.float64)


def _output(output, input, complex_only):
    allowed = _REAL_OUT[:2] if complex_only else _REAL_OUT
    if output is None:
        dt = input.dtype if input.dtype.type in allowed else \
            (np.complex128 if complex_only else np.float64)
        return gp.zeros(input.shape, dtype=dt)
    if type(output) is type:
        if output not in allowed:
            raise RuntimeError("output type not supported")
        return gp.zeros(input.shape, dtype=output)
    if output.shape != input.shape:
        raise RuntimeError("output shape not correct")
    return output


def _freqs(dim, n, on_axis):
    """The sample frequencies k of an axis: 0..dim-1 along a real FFT's axis
    (n >= 0), else NumPy's fft order 0, 1, ..., -dim//2, ..., -1."""
    if on_axis and n >= 0:
        return np.arange(dim, dtype=np.float64)
    return np.concatenate([np.arange((dim + 1) // 2), np.arange(-(dim // 2), 0)]).astype(
        np.float64)


def _length(input, kk, axis, n):
    return (input.shape[kk] if n < 0 else n) if kk == axis else input.shape[kk]


def _tables(input, params, n, axis, kind):
    tabs = []
    for kk, p in enumerate(params):
        dim = input.shape[kk]
        k = _freqs(dim, n, kk == axis)
        length = _length(input, kk, axis, n)
        if kind == "gaussian":
            if dim <= 1:
                continue
            a = p * np.pi / length
            t = -2.0 * a * a * k * k
            tabs.append((kk, np.where(np.abs(t) > 50.0, 0.0, np.exp(t))))
        elif kind == "uniform":
            if dim <= 1:
                continue
            a = np.pi * p / length
            with np.errstate(invalid="ignore", divide="ignore"):
                t = np.sin(a * k) / (a * k) if a > 0.0 else np.zeros_like(k)
            t[0] = 1.0
            tabs.append((kk, t))
        else:
            a = np.pi * p / length if dim > 1 else 0.0
            t = k * a if dim > 1 else np.ones(dim)
            tabs.append((kk, t * t if input.ndim > 1 else t))
    return tabs


def _broadcast(ndim, kk, t):
    shape = [1] * ndim
    shape[kk] = len(t)
    return gp.asarray(t.reshape(shape))


def _apply(input, factor, output):
    x = input if input.dtype.kind == "c" else input.astype(np.float64)
    output[...] = x * factor
    return output


def _prepare(input, value, n, axis, output, complex_only=False):
    input = ns.device_input(input)
    output = _output(output, input, complex_only)
    axis = ns.normalize_axis(axis, input.ndim)
    params = np.asarray(ns.normalize_sequence(value, input.ndim), dtype=np.float64)
    return input, params, operator.index(n), axis, output


def _product(input, tabs):
    f = gp.ones((1,) * input.ndim, dtype=np.float64)
    for kk, t in tabs:
        f = f * _broadcast(input.ndim, kk, t)
    return f


def fourier_gaussian(input, sigma, n=-1, axis=-1, output=None):
    """Multidimensional Gaussian filter in the Fourier domain."""
    input, sig, n, axis, output = _prepare(input, sigma, n, axis, output)
    return _apply(input, _product(input, _tables(input, sig, n, axis, "gaussian")), output)


def fourier_uniform(input, size, n=-1, axis=-1, output=None):
    """Multidimensional uniform filter in the Fourier domain."""
    input, sizes, n, axis, output = _prepare(input, size, n, axis, output)
    return _apply(input, _product(input, _tables(input, sizes, n, axis, "uniform")), output)


def fourier_ellipsoid(input, size, n=-1, axis=-1, output=None):
    """Multidimensional ellipsoid filter in the Fourier domain (1-3 dims)."""
    x = ns.device_input(input)
    if x.ndim > 3:
        raise NotImplementedError("Only 1d, 2d and 3d inputs are supported")
    x, sizes, n, axis, output = _prepare(x, size, n, axis, output)
    if output.size == 0:
        return output
    tabs = _tables(x, sizes, n, axis, "ellipsoid")
    if x.ndim == 1:
        t = tabs[0][1]
        with np.errstate(invalid="ignore", divide="ignore"):
            f = gp.asarray(np.where(t != 0, np.sin(t) / np.where(t != 0, t, 1.0), 1.0))
    else:
        r = gp.zeros((1,) * x.ndim, dtype=np.float64)
        for kk, t in tabs:
            r = r + _broadcast(x.ndim, kk, t)
        r = gp.sqrt(r)
        safe = gp.where(r > 0.0, r, 1.0)
        if x.ndim == 2:
            f = gp.where(r > 0.0, 2.0 * gp.scipy.special.j1(safe) / safe, 1.0)
        else:
            f = gp.where(r > 0.0, 3.0 * (gp.sin(safe) - safe * gp.cos(safe)) / safe ** 3, 1.0)
    return _apply(x, f, output)


def fourier_shift(input, shift, n=-1, axis=-1, output=None):
    """Multidimensional shift filter in the Fourier domain: the input times
    exp(-2 pi i k shift / length) per axis."""
    input, shifts, n, axis, output = _prepare(input, shift, n, axis, output, complex_only=True)
    phase = gp.zeros((1,) * input.ndim, dtype=np.float64)
    for kk in range(input.ndim):
        dim = input.shape[kk]
        s = -2.0 * np.pi * shifts[kk] / _length(input, kk, axis, n)
        phase = phase + _broadcast(input.ndim, kk, s * _freqs(dim, n, kk == axis))
    c, s = gp.cos(phase), gp.sin(phase)
    if input.dtype.kind == "c":
        re, im = input.real.astype(np.float64), input.imag.astype(np.float64)
        output.real[...] = re * c - im * s
        output.imag[...] = re * s + im * c
    else:
        x = input.astype(np.float64)
        output.real[...] = x * c
        output.imag[...] = x * s
    return output
