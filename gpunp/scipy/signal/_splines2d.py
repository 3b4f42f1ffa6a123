"""Symmetric (zero-phase) IIR filters of first and second order with
mirror-symmetric boundaries, the 2-d B-spline coefficients built from them
(cspline2d, qspline2d), the separable mirror-symmetric FIR filter sepfir2d,
spline_filter, and firwin_2d.

Each filter runs on the device over every row at once: the boundary
states are dot products with the first (or last) K samples, K where the
impulse response falls below SciPy's precision (found on the host, as
SciPy's loop finds it, so the sums are SciPy's), and the recursions are
gpunp's lfilter/sosfilt scans."""

from __future__ import annotations

import math

import numpy as np

import gpunp as gp

from ._fir import _firwin_host
from ._lfilter import lfilter, sosfilt

_NO_CONVERGENCE = "Sum to find symmetric boundary conditions did not converge."


def _floating(x):
    """x as a gpunp array of a floating dtype (integers become float64)."""
    x = gp.asarray(x)
    if x.dtype.kind in "biu":
        return x.astype(np.float64)
    if x.dtype == np.float16:
        return x.astype(np.float32)
    return x


def _precision(x, precision):
    """SciPy's default precision of the boundary sums by dtype."""
    if precision <= 0.0 or precision > 1.0:
        return 1e-6 if x.dtype in (np.float32, np.complex64) else 1e-11
    return precision


def _terms(values, tol, n):
    """How many terms of a boundary sum SciPy's loop adds: it stops after
    the first term whose square is not above tol (a NaN term stops it too:
    the sum is then NaN, not an error), and fails where that takes n terms
    or more."""
    small = np.flatnonzero(~(np.abs(values[:n]) ** 2 > tol))
    if small.size == 0 or small[0] + 1 >= n:
        raise ValueError(_NO_CONVERGENCE)
    return int(small[0]) + 1


def _rows(x):
    if x.ndim > 2:
        raise ValueError("Input must be 1D or 2D")
    return (x[None, :], True) if x.ndim == 1 else (x, False)


def symiirorder1(signal, c0, z1, precision=-1.0):
    """The zero-phase first-order filter c0 / ((1 - z1 z^-1)(1 - z1 z)) of
    each row with mirror-symmetric boundaries: a causal then an anti-causal
    pass."""
    x = _floating(signal)
    if abs(z1) >= 1:
        raise ValueError("|z1| must be less than 1.0")
    x, squeeze = _rows(x)
    dt = x.dtype
    if dt.kind == "f":
        z1 = np.real(z1)  # SciPy's kernel takes z1's real part for real signals
    tol = _precision(x, precision) ** 2
    N = x.shape[1]
    powers = np.asarray(z1, np.result_type(dt, type(z1))) ** np.arange(1, N + 1)
    K = _terms(powers, tol, N)
    # the causal pass from the mirror-symmetric start x[0] + sum z1^(k+1) x[k]
    y0 = x[:, 0] + gp.matmul(x[:, :K], gp.asarray(powers[:K].astype(dt)))
    a = np.array([1, -z1]).astype(dt)
    y1, _ = lfilter(np.ones(1, dt), a, x[:, 1:], zi=(y0 * z1)[:, None])
    y1 = gp.concatenate([y0[:, None], y1.astype(dt)], axis=1)
    last = (-c0 / (z1 - 1.0)) * y1[:, -1:]
    out, _ = lfilter(np.array([c0]).astype(dt), a, y1[:, -2::-1], zi=last * z1)
    out = gp.concatenate([out[:, ::-1], last], axis=1).astype(dt)
    return out[0] if squeeze else out


def _hc(k, cs, r, omega):
    """The causal two-pole filter's impulse response at k >= 0."""
    k = np.asarray(k, np.float64)
    if omega == 0.0:
        return cs * r ** k * (k + 1)
    if omega == math.pi:
        return cs * r ** k * (k + 1) * (1 - 2 * (k % 2))
    return cs * r ** k * np.sin(omega * (k + 1)) / np.sin(omega)


def _hs(k, cs, rsq, omega):
    """The zero-phase two-pole filter's impulse response at k."""
    k = np.abs(np.asarray(k, np.float64))
    rk = rsq ** (k / 2.0)
    if omega in (0.0, math.pi):
        c0 = (1 + rsq) / (1 - rsq) ** 3 * cs * cs
        gamma = (1 - rsq) / (1 + rsq) * (1 if omega == 0.0 else (1 - 2 * (k % 2)))
        return c0 * rk * (1 + gamma * k)
    c0 = cs * cs * (1 + rsq) / (1 - rsq) / (1 - 2 * rsq * math.cos(2 * omega) + rsq * rsq)
    gamma = (1 - rsq) / (1 + rsq) / math.tan(omega)
    return c0 * rk * (np.cos(omega * k) + gamma * np.sin(omega * k))


def symiirorder2(input, r, omega, precision=-1.0):
    """The zero-phase filter of the pole pair r e^(+-i omega) of each row
    with mirror-symmetric boundaries: a causal then an anti-causal pass of
    cs / (1 - 2 r cos(omega) z^-1 + r^2 z^-2)."""
    x = _floating(input)
    if r >= 1.0:
        raise ValueError("r must be less than 1.0")
    x, squeeze = _rows(x)
    if x.dtype.kind == "c":
        raise TypeError(f"Cannot cast array data from dtype('{x.dtype}') to "
                        "dtype('float64') according to the rule 'safe'")
    dt = x.dtype
    prec = _precision(x, precision)
    N = x.shape[1]
    rsq = r * r
    a2, a3 = 2 * r * math.cos(omega), -rsq
    cs = 1 - 2 * r * math.cos(omega) + rsq
    k = np.arange(N + 2)
    hc = _hc(k, cs, r, omega)
    # the forward pass's states y[-1], y[-2] from the mirror-symmetric start
    K1 = _terms(hc[1:], prec * prec, N)
    K2 = _terms(hc[2:], prec * prec, N)
    f0 = hc[0] * x[:, 0] + gp.matmul(x[:, :K1], gp.asarray(hc[1:K1 + 1].astype(dt)))
    f1 = (hc[0] * x[:, 1] + hc[1] * x[:, 0]
          + gp.matmul(x[:, :K2], gp.asarray(hc[2:K2 + 2].astype(dt))))
    # the backward pass's (SciPy compares these terms with the unsquared precision)
    w0 = _hs(k, cs, rsq, omega) + _hs(k + 1, cs, rsq, omega)
    w1 = _hs(k - 1, cs, rsq, omega) + _hs(k + 2, cs, rsq, omega)
    B1, B2 = _terms(w0, prec, N), _terms(w1, prec, N)
    rev = x[:, ::-1]
    b0 = gp.matmul(rev[:, :B1], gp.asarray(w0[:B1].astype(dt)))
    b1 = gp.matmul(rev[:, :B2], gp.asarray(w1[:B2].astype(dt)))
    sos = np.array([[cs, 0, 0, 1, -a2, -a3]]).astype(dt)

    def state(s0, s1):
        return gp.stack([a3 * s0 + a2 * s1, a3 * s1], axis=1)[None].astype(dt)

    yf, _ = sosfilt(sos, x[:, 2:], zi=state(f0, f1))
    yf = gp.concatenate([f0[:, None].astype(dt), f1[:, None].astype(dt), yf], axis=1)
    y, _ = sosfilt(sos, yf[:, -3::-1], zi=state(b0, b1))
    out = gp.concatenate([y[:, ::-1], b1[:, None].astype(dt), b0[:, None].astype(dt)],
                         axis=1).astype(dt)
    return out[0] if squeeze else out


def _along(func, x, axis, *args):
    """func (which filters the rows of a 2-d array) applied along axis of x."""
    xm = gp.moveaxis(x, axis, -1)
    shape = xm.shape
    out = func(gp.ascontiguousarray(xm).reshape(-1, shape[-1]) if x.ndim > 1 else xm, *args)
    return gp.ascontiguousarray(gp.moveaxis(out.reshape(shape), -1, axis))


def _cubic_root(lamb):
    """The pole pair (r, omega) of the smoothing cubic spline of lamb."""
    t = math.sqrt(3 + 144 * lamb)
    xi = 1 - 96 * lamb + 24 * lamb * t
    omega = math.atan(math.sqrt((144 * lamb - 1.0) / xi))
    r = (24 * lamb - 1 - math.sqrt(xi)) / (24 * lamb) * math.sqrt(48 * lamb + 24 * lamb * t) \
        / math.sqrt(xi)
    return r, omega


def _spline_precision(x, precision):
    if precision < 0.0 or precision >= 1.0:
        return 1e-3 if x.dtype in (np.float32, np.complex64) else 1e-6
    return precision


def cspline2d(signal, lamb=0.0, precision=-1.0):
    """The 2-d cubic B-spline coefficients of an image (smoothing ones for
    lamb > 1/144), filtering its rows then its columns."""
    x = _floating(signal)
    prec = _spline_precision(x, precision)
    if lamb <= 1 / 144.0:
        r = -2 + math.sqrt(3.0)
        out = _along(symiirorder1, x, -1, -r * 6.0, r, prec)
        return _along(symiirorder1, out, 0, -r * 6.0, r, prec)
    r, omega = _cubic_root(lamb)
    out = _along(symiirorder2, x, -1, r, omega, prec)
    return _along(symiirorder2, out, 0, r, omega, prec)


def qspline2d(signal, lamb=0.0, precision=-1.0):
    """The 2-d quadratic B-spline coefficients of an image."""
    x = _floating(signal)
    prec = _spline_precision(x, precision)
    if lamb > 0:
        raise ValueError("lambda must be negative or zero")
    r = -3 + 2 * math.sqrt(2.0)
    out = _along(symiirorder1, x, -1, -r * 8.0, r, prec)
    return _along(symiirorder1, out, 0, -r * 8.0, r, prec)


def _fir_mirror(x, h, axis):
    """The odd-length FIR h along axis of x, x extended by its mirror image
    about each end (the end sample repeated, as SciPy's kernel does)."""
    half = len(h) // 2
    if half == 0:
        return x * gp.asarray(h)[0]
    pad = [(0, 0)] * x.ndim
    pad[axis] = (half, half)
    xp = gp.pad(x, pad, mode="symmetric")
    win = gp.lib.stride_tricks.sliding_window_view(gp.moveaxis(xp, axis, -1), len(h), axis=-1)
    out = gp.matmul(win, gp.asarray(np.ascontiguousarray(h[::-1])))
    return gp.moveaxis(out, -1, axis)


def sepfir2d(input, hrow, hcol):
    """The image filtered by the odd-length FIR hrow along its rows and hcol
    along its columns, with mirror-symmetric boundaries."""
    x = gp.asarray(input)
    if x.ndim != 2:
        raise ValueError("object of too small depth for desired array" if x.ndim < 2 else
                         "object too deep for desired array")
    dt = np.result_type(x.dtype, np.float32)
    if dt.kind not in "fc":
        dt = np.dtype(np.float64)
    if dt == np.float16:
        dt = np.dtype(np.float32)
    hr = np.asarray(gp.asnumpy(hrow) if isinstance(hrow, gp.ndarray) else hrow).astype(dt)
    hc = np.asarray(gp.asnumpy(hcol) if isinstance(hcol, gp.ndarray) else hcol).astype(dt)
    if hr.ndim != 1 or hc.ndim != 1:
        raise ValueError("object too deep for desired array")
    if len(hr) % 2 != 1 or len(hc) % 2 != 1:
        raise ValueError("hrow and hcol must be odd length")
    # SciPy's kernel reads outside the image where a filter is longer than
    # it; a mirror extension of any length is defined, so none is refused
    out = _fir_mirror(x.astype(dt), hr, 1)
    return gp.ascontiguousarray(_fir_mirror(out, hc, 0).astype(dt))


def spline_filter(Iin, lmbda=5.0):
    """The image smoothed by the cubic B-spline of smoothing lmbda: its
    coefficients filtered by the spline's sampled kernel [1, 4, 1] / 6."""
    x = gp.asarray(Iin)
    if x.dtype not in (np.float32, np.float64, np.complex64, np.complex128):
        raise TypeError(f"Invalid data type for Iin: Iin.dtype = {x.dtype!r}")
    intype = x.dtype
    h = np.array([1.0, 4.0, 1.0], np.float32) / 6.0
    if intype == np.complex128:
        x = x.astype(np.complex64)
    return sepfir2d(cspline2d(x, lmbda), h, h).astype(intype)


def firwin_2d(hsize, window, *, fc=None, fs=2, circular=False, pass_zero=True, scale=True):
    """A 2-d FIR filter by the window method: the outer product of two 1-d
    firwin filters, or (circular) one 1-d filter swept around the centre."""
    if len(hsize) != 2:
        raise ValueError("hsize must be a 2-element tuple or list")
    if circular:
        if fc is None:
            raise ValueError("Cutoff frequency `fc` must be provided when `circular` is True")
        n_r = max(hsize[0], hsize[1]) * 8  # the 1-d filter oversampled 8 times
        win_r = _firwin_host(n_r, fc, None, window, True, True, fs)
        f1, f2 = np.meshgrid(np.linspace(-1, 1, hsize[0]), np.linspace(-1, 1, hsize[1]))
        r = np.sqrt(f1 ** 2 + f2 ** 2)
        return gp.asarray(np.interp(r, np.linspace(0, 1, n_r), win_r))
    if len(window) != 2:
        raise ValueError("window must be a 2-element tuple or list")
    rows = _firwin_host(hsize[0], fc, None, window[0], True, True, fs)
    cols = _firwin_host(hsize[1], fc, None, window[1], True, True, fs)
    return gp.asarray(np.outer(rows, cols))
