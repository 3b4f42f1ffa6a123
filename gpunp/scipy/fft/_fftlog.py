"""scipy.fft's fast Hankel transform (Hamilton's FFTLog): a real FFT of
the signal, a product with the transform's coefficients, an inverse real
FFT, reversed. The n/2 + 1 coefficients are ratios of complex gamma
functions that SciPy itself computes on the CPU; so does gpunp (with
scipy.special.loggamma, so fht needs SciPy installed), and the transforms
run on the device."""

from __future__ import annotations

import math
import warnings

import numpy

import gpunp
import gpunp.fft as _fft

from gpunp.scipy.fft._helper import as_device

_LN2 = math.log(2)


def _coefficients(n, dln, mu, offset, bias, inverse):
    """u[m] = 2^q Γ(x+ + iy) / Γ(x- - iy) (2 / kr)^(2iy), y = pi m / (n dln),
    with x± = (mu + 1 ± q) / 2, q the bias and ln kr the offset."""
    from scipy.special import loggamma, poch
    q = bias
    xp, xm = (mu + 1 + q) / 2, (mu + 1 - q) / 2
    y = numpy.linspace(0, math.pi * (n // 2) / (n * dln), n // 2 + 1)
    logu = (q * _LN2 + 2j * y * (_LN2 - offset) + loggamma(xp + 1j * y)
            - loggamma(xm - 1j * y))
    u = numpy.exp(logu)
    if n % 2 == 0:
        # the Nyquist term of a real signal's spectrum is real
        u.imag[-1] = 0
    if not numpy.isfinite(u[0]):
        # the gamma ratio at y = 0 taken as a limit
        u[0] = 2 ** q * poch(xm, xp - xm)
    if numpy.isinf(u[0]) and not inverse:
        warnings.warn("singular transform; consider changing the bias", stacklevel=4)
        u[0] = 0
    elif u[0] == 0 and inverse:
        warnings.warn("singular inverse transform; consider changing the bias", stacklevel=4)
        u[0] = numpy.inf
    return u


def _run(a, dln, mu, offset, bias, inverse):
    a = as_device(a)
    if a.dtype.kind not in "fc":
        a = a.astype(numpy.float64)
    n = a.shape[-1]
    if bias != 0:
        j = gpunp.arange(n, dtype=numpy.float64) - (n - 1) / 2
        sign = 1 if inverse else -1
        a = a * gpunp.exp(sign * bias * (j * dln + (offset if inverse else 0.0)))
    u = gpunp.asarray(_coefficients(n, dln, mu, offset, bias, inverse))
    spectrum = _fft.rfft(a, axis=-1)
    spectrum = spectrum / gpunp.conj(u) if inverse else spectrum * u
    r = _fft.irfft(spectrum, n, axis=-1)[..., ::-1]
    if bias != 0:
        r = r * gpunp.exp(-bias * (j * dln + offset)) if not inverse else (
            r * gpunp.exp(bias * j * dln))
    return gpunp.ascontiguousarray(r)


def fht(a, dln, mu, offset=0.0, bias=0.0):
    """The fast Hankel transform of a periodic, logarithmically spaced
    signal along its last axis (scipy.fft.fht)."""
    return _run(a, dln, mu, offset, bias, False)


def ifht(A, dln, mu, offset=0.0, bias=0.0):
    """The inverse of :func:`fht` (scipy.fft.ifht)."""
    return _run(A, dln, mu, offset, bias, True)


def fhtoffset(dln, mu, initial=0.0, bias=0.0):
    """The offset nearest `initial` that meets FFTLog's low-ringing
    condition (scipy.fft.fhtoffset): a host computation on scalars."""
    from scipy.special import loggamma
    q = bias
    xp, xm = (mu + 1 + q) / 2, (mu + 1 - q) / 2
    y = math.pi / (2 * dln)
    phase = (loggamma(xp + 1j * y).imag + loggamma(xm + 1j * y).imag) / math.pi
    arg = (_LN2 - initial) / dln + phase
    return initial + (arg - numpy.round(arg)) * dln
