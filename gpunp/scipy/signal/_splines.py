"""B-spline coefficients of signals (the cubic and quadratic interpolating
splines, the smoothing cubic) by causal and anti-causal first- and
second-order IIR passes (gpunp's scans), their evaluation, and the Gaussian
approximation of a B-spline."""

from __future__ import annotations

import math

import numpy as np

import gpunp as gp

from ._lfilter import lfilter, lfiltic, sosfilt


def gauss_spline(x, n):
    """The Gaussian approximation of the B-spline basis function of order n."""
    x = gp.asarray(x)
    s2 = (n + 1) / 12.0
    return 1 / math.sqrt(2 * math.pi * s2) * gp.exp(-x ** 2 / 2 / s2)


def _mirror_coeff(signal, zi, gain):
    """The interpolating spline's coefficients for the pole zi: a causal
    pass from the mirror-symmetric start, an anti-causal pass back."""
    s = gp.asarray(signal)
    K = s.shape[0]
    powers = gp.asarray(zi ** np.arange(K))
    total = gp.sum(powers * s)
    if K == 1:
        return gp.reshape(zi / (zi - 1) * (s[0] + zi * total), (1,))
    a = np.r_[1, -zi]
    state = lfiltic(1, a, gp.reshape(total, (1,)))
    yplus, _ = lfilter(np.ones(1), a, s, zi=state)
    last = zi / (zi - 1) * yplus[K - 1]
    state = lfiltic(-zi, a, gp.reshape(last, (1,)))
    out, _ = lfilter(np.asarray([-zi]), a, yplus[-2::-1], zi=state)
    return gp.concatenate([out[::-1], gp.reshape(last, (1,))]) * gain


def _hc(k, cs, rho, omega):
    return cs / np.sin(omega) * rho ** k * np.sin(omega * (k + 1)) * (k > -1)


def _hs(k, cs, rho, omega):
    c0 = (cs * cs * (1 + rho * rho) / (1 - rho * rho)
          / (1 - 2 * rho * rho * np.cos(2 * omega) + rho ** 4))
    gamma = (1 - rho * rho) / (1 + rho * rho) / np.tan(omega)
    ak = np.abs(k)
    return c0 * rho ** ak * (np.cos(omega * ak) + gamma * np.sin(omega * ak))


def _smooth_coeff(signal, lam):
    """The smoothing cubic spline's coefficients: a second-order pole pair
    (rho e^{+-i omega}) run forwards and backwards from the mirror-symmetric
    boundary states."""
    xi = 1 - 96 * lam + 24 * lam * math.sqrt(3 + 144 * lam)
    omega = math.atan2(math.sqrt(144 * lam - 1), math.sqrt(xi))
    rho = (24 * lam - 1 - math.sqrt(xi)) / (24 * lam)
    rho = rho * math.sqrt((48 * lam + 24 * lam * math.sqrt(3 + 144 * lam)) / xi)
    cs = 1 - 2 * rho * math.cos(omega) + rho * rho
    s = gp.asarray(signal)
    K = s.shape[0]
    k = np.arange(K)

    def dot(w, v):
        return gp.sum(gp.asarray(w) * v)

    z2 = _hc(0, cs, rho, omega) * s[0] + dot(_hc(k + 1, cs, rho, omega), s)
    z1 = (_hc(0, cs, rho, omega) * s[0] + _hc(1, cs, rho, omega) * s[1]
          + dot(_hc(k + 2, cs, rho, omega), s))
    a = np.r_[1, -2 * rho * math.cos(omega), rho * rho]
    sos = np.r_[cs, 0, 0, a].reshape(1, -1)
    zi = lfiltic(cs, a, gp.stack([z1, z2])).reshape(1, -1)
    yp, _ = sosfilt(sos, s[2:], zi=zi)
    yp = gp.concatenate([gp.stack([z2, z1]), yp])
    rev = s[::-1]
    z2 = dot(_hs(k, cs, rho, omega) + _hs(k + 1, cs, rho, omega), rev)
    z1 = dot(_hs(k - 1, cs, rho, omega) + _hs(k + 2, cs, rho, omega), rev)
    zi = lfiltic(cs, a, gp.stack([z1, z2])).reshape(1, -1)
    y, _ = sosfilt(sos, yp[-3::-1], zi=zi)
    return gp.concatenate([y[::-1], gp.stack([z1, z2])])


def cspline1d(signal, lamb=0.0):
    """The cubic B-spline coefficients of a 1-d signal with mirror-symmetric
    ends (interpolating, or smoothing with weight lamb)."""
    if lamb != 0.0:
        return _smooth_coeff(signal, lamb)
    return _mirror_coeff(signal, -2 + math.sqrt(3), 6.0)


def qspline1d(signal, lamb=0.0):
    """The quadratic B-spline coefficients of a 1-d signal with
    mirror-symmetric ends."""
    if lamb != 0.0:
        raise ValueError("Smoothing quadratic splines not supported yet.")
    return _mirror_coeff(signal, -3 + 2 * math.sqrt(2.0), 8.0)


def _cubic(x):
    ax = gp.abs(x)
    inner = 2.0 / 3.0 - ax ** 2 + ax ** 3 / 2.0
    outer = (2 - ax) ** 3 / 6.0
    return gp.where(ax < 1, inner, gp.where(ax < 2, outer, 0.0))


def _quadratic(x):
    ax = gp.abs(x)
    inner = 0.75 - ax ** 2
    outer = (ax - 1.5) ** 2 / 2.0
    return gp.where(ax < 0.5, inner, gp.where(ax < 1.5, outer, 0.0))


def _spline_eval(cj, newx, dx, x0, basis, reach):
    cj = gp.asarray(cj)
    x = (gp.asarray(newx) - x0) / float(dx)
    if x.size == 0:
        return gp.zeros(x.shape, dtype=cj.dtype if cj.dtype.kind == "c" else np.float64)
    if cj.size == 0:
        raise ValueError("Spline coefficients 'cj' must not be empty.")
    N = cj.shape[0]
    # mirror-symmetric extension: reflect about 0 and N - 1 until inside
    for _ in range(64):
        out = (x < 0) | (x > N - 1)
        if not bool(gp.any(out)):
            break
        x = gp.where(x < 0, -x, gp.where(x > N - 1, 2 * (N - 1) - x, x))
    lower = gp.floor(x - reach).astype(np.int64) + 1
    total = 0
    for i in range(3 if basis is _quadratic else 4):
        j = lower + i
        total = total + cj[gp.clip(j, 0, N - 1)] * basis(x - j)
    return total


def cspline1d_eval(cj, newx, dx=1.0, x0=0):
    """The cubic spline of coefficients cj (knots dx apart from x0, mirrored
    at the ends) at newx."""
    return _spline_eval(cj, newx, dx, x0, _cubic, 2)


def qspline1d_eval(cj, newx, dx=1.0, x0=0):
    """The quadratic spline of coefficients cj at newx."""
    return _spline_eval(cj, newx, dx, x0, _quadratic, 1.5)
