"""The chirp z-transform (Bluestein's algorithm: the transform at m points
of a spiral as one convolution, by three FFTs of gpunp.fft), the zoom FFT
built on it, the Lomb-Scargle periodogram and the vector strength."""

from __future__ import annotations

import cmath
import numbers
import warnings

import numpy as np

import gpunp as gp

from ._convolve import _fast_len


def _sizes(n, m):
    if n < 1 or not isinstance(n, numbers.Integral):
        raise ValueError(f"Invalid number of CZT data points ({n}) specified. n must be "
                         "positive and integer type.")
    if m is None:
        return n
    if m < 1 or not isinstance(m, numbers.Integral):
        raise ValueError(f"Invalid number of CZT output points ({m}) specified. m must be "
                         "positive and integer type.")
    return m


def czt_points(m, w=None, a=1 + 0j):
    """The m points of the z-plane where the chirp z-transform is evaluated."""
    m = _sizes(1, m)
    k = np.arange(m)
    a = 1.0 * a
    if w is None:
        return gp.asarray(a * np.exp(2j * np.pi * k / m))
    return gp.asarray(a * (1.0 * w) ** -k)


class CZT:
    """A chirp z-transform of inputs of length n at m points a w^-k, set up
    once (the chirp's spectrum) and applied to any number of signals."""

    def __init__(self, n, m=None, w=None, a=1 + 0j):
        m = _sizes(n, m)
        k = np.arange(max(m, n), dtype=np.min_scalar_type(-max(m, n) ** 2))
        if w is None:
            w = cmath.exp(-2j * np.pi / m)
            # k^2 reduced mod 2m keeps the chirp's phase exact for large k
            wk2 = np.exp(-(1j * np.pi * ((k ** 2) % (2 * m))) / m)
        else:
            wk2 = w ** (k ** 2 / 2.0)
        self.w, self.a = w, 1.0 * a
        self._setup(n, m, (1.0 * a) ** -k[:n] * wk2[:n], wk2)

    def _setup(self, n, m, awk2, wk2):
        self.m, self.n = m, n
        self._nfft = _fast_len(n + m - 1)
        self._Awk2 = gp.asarray(awk2)
        self._Fwk2 = gp.fft.fft(gp.asarray(1 / np.hstack((wk2[n - 1:0:-1], wk2[:m]))),
                                self._nfft)
        self._wk2 = gp.asarray(wk2[:m])
        self._yidx = slice(n - 1, n + m - 1)

    def __call__(self, x, *, axis=-1):
        """The transform of x along axis (whose length must be n)."""
        x = gp.asarray(x)
        if x.shape[axis] != self.n:
            raise ValueError(f"CZT defined for length {self.n}, not {x.shape[axis]}")
        xm = gp.moveaxis(x, axis, -1)
        y = gp.fft.ifft(self._Fwk2 * gp.fft.fft(xm * self._Awk2, self._nfft))
        y = y[..., self._yidx] * self._wk2
        return gp.ascontiguousarray(gp.moveaxis(y, -1, axis))

    def points(self):
        """The points where this transform evaluates the z-transform."""
        return czt_points(self.m, self.w, self.a)


class ZoomFFT(CZT):
    """The DFT of inputs of length n at m frequencies spanning fn (f1, f2),
    a chirp z-transform along an arc of the unit circle."""

    def __init__(self, n, fn, m=None, *, fs=2, endpoint=False):
        m = _sizes(n, m)
        k = np.arange(max(m, n), dtype=np.min_scalar_type(-max(m, n) ** 2))
        if np.size(fn) == 2:
            f1, f2 = fn
        elif np.size(fn) == 1:
            f1, f2 = 0.0, fn
        else:
            raise ValueError("fn must be a scalar or 2-length sequence")
        self.f1, self.f2, self.fs = f1, f2, fs
        scale = ((f2 - f1) * m) / (fs * (m - 1)) if endpoint else (f2 - f1) / fs
        wk2 = np.exp(-(1j * np.pi * scale * k ** 2) / m)
        self.w = cmath.exp(-2j * np.pi / m * scale)
        self.a = cmath.exp(2j * np.pi * f1 / fs)
        self._setup(n, m, np.exp(-2j * np.pi * f1 / fs * k[:n]) * wk2[:n], wk2)


def czt(x, m=None, w=None, a=1 + 0j, *, axis=-1):
    """The chirp z-transform of x along axis at m points a w^-k."""
    x = gp.asarray(x)
    return CZT(x.shape[axis], m=m, w=w, a=a)(x, axis=axis)


def zoom_fft(x, fn, m=None, *, fs=2, endpoint=False, axis=-1):
    """The DFT of x along axis at m frequencies over fn."""
    x = gp.asarray(x)
    return ZoomFFT(x.shape[axis], fn, m=m, fs=fs, endpoint=endpoint)(x, axis=axis)


_NOVALUE = object()


def lombscargle(x, y, freqs, *, precenter=_NOVALUE, normalize=False, weights=None,
                floating_mean=False):
    """The (weighted, generalised) Lomb-Scargle periodogram of samples y at
    unevenly spaced times x, at angular frequencies freqs: sums over the
    samples for every frequency at once, as products of N x F matrices."""
    y_host_shape = np.shape(gp.asnumpy(gp.asarray(y))) if not isinstance(y, gp.ndarray) \
        else y.shape
    w = gp.ones(y_host_shape, dtype=np.float64) if weights is None else \
        gp.asarray(weights).astype(np.float64)
    x = gp.asarray(x).astype(np.float64)
    y = gp.asarray(y).astype(np.float64)
    freqs = gp.asarray(freqs).astype(np.float64)
    if not (x.ndim == 1 and x.size > 0 and x.shape == y.shape == w.shape):
        raise ValueError("Parameters x, y, weights must be 1-D arrays of equal non-zero "
                         "length!")
    if not (freqs.ndim == 1 and freqs.size > 0):
        raise ValueError("Parameter freqs must be a 1-D array of non-zero length!")
    if not (bool(gp.all(w >= 0)) and float(gp.sum(w)) > 0):
        raise ValueError("Parameter weights must have only non-negative entries which sum "
                         "to a positive value!")
    if isinstance(normalize, bool):
        normalize = "normalize" if normalize else "power"
    if normalize not in ("power", "normalize", "amplitude"):
        raise ValueError("Normalize must be: False (or 'power'), True (or 'normalize'), or "
                         "'amplitude'.")
    w = w * (1.0 / gp.sum(w))
    if precenter is not _NOVALUE:
        warnings.warn("Use of parameter 'precenter' is deprecated as of SciPy 1.17.0 and "
                      "will be removed in 1.19.0. Please leave 'precenter' unspecified. "
                      "Passing True to 'precenter' can be exactly substituted by passing "
                      "'y = (y - y.mean())' into the input. Consider setting "
                      "`floating_mean` to True instead.", DeprecationWarning, stacklevel=2)
        if precenter:
            y = y - gp.mean(y)
    wt = x[:, None] * freqs[None, :]  # (N, F)
    cos, sin = gp.cos(wt), gp.sin(wt)
    wy = w * y
    Y = gp.sum(wy)
    CC = gp.matmul(w, cos * cos)
    CS = gp.matmul(w, cos * sin)
    SS = 1.0 - CC
    if floating_mean:
        C, S = gp.matmul(w, cos), gp.matmul(w, sin)
        CC, SS, CS = CC - C * C, SS - S * S, CS - C * S
    tau = 0.5 * gp.arctan2(2.0 * CS, CC - SS)
    wtt = wt - tau[None, :]
    cos, sin = gp.cos(wtt), gp.sin(wtt)
    YC, YS = gp.matmul(wy, cos), gp.matmul(wy, sin)
    CC = gp.matmul(w, cos * cos)
    SS = 1.0 - CC
    if floating_mean:
        C, S = gp.matmul(w, cos), gp.matmul(w, sin)
        YC, YS = YC - Y * C, YS - Y * S
        CC, SS = CC - C * C, SS - S * S
    eps = np.finfo(np.float64).epsneg
    CC = gp.maximum(CC, eps)
    SS = gp.maximum(SS, eps)
    a, b = YC / CC, YS / SS
    p = 2.0 * (a * YC + b * YS)
    if normalize == "power":
        p = p * (float(x.shape[0]) / 4.0)
    elif normalize == "normalize":
        YY = gp.sum(wy * y)
        if floating_mean:
            YY = YY - Y * Y
        p = p * (0.5 / YY)
    else:
        p = (a + 1j * b) * gp.exp(1j * tau)
    return p[0] if p.size == 1 else p


def vectorstrength(events, period):
    """The vector strength and phase of events for each period: the mean of
    the unit vectors exp(2 pi i event / period)."""
    ev = gp.asarray(events)
    per = gp.asarray(period)
    if ev.ndim > 1:
        raise ValueError("events cannot have dimensions more than 1")
    if per.ndim > 1:
        raise ValueError("period cannot have dimensions more than 1")
    scalar = per.ndim == 0
    ev = ev.reshape(1, -1)
    per = per.reshape(1, -1)
    if bool(gp.any(per <= 0)):
        raise ValueError("periods must be positive")
    vec = gp.exp(gp.matmul((2j * np.pi / per.T).astype(np.complex128),
                           ev.astype(np.complex128)))
    mean = gp.mean(vec, axis=1)
    strength, phase = gp.abs(mean), gp.angle(mean)
    if scalar:
        strength, phase = strength[0], phase[0]
    return strength, phase
