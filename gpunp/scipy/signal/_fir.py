"""FIR design by the window method (firwin) and Kaiser's formulas: a few
hundred numbers computed on the host in float64, as SciPy computes them."""

from __future__ import annotations

import numpy as np

import gpunp as gp

from .windows._windows import get_window


def kaiser_beta(a):
    """The Kaiser window's beta for a stopband attenuation of a dB."""
    if a > 50:
        return 0.1102 * (a - 8.7)
    if a > 21:
        return 0.5842 * (a - 21) ** 0.4 + 0.07886 * (a - 21)
    return 0.0


def kaiser_atten(numtaps, width):
    """The attenuation (dB) of a Kaiser FIR filter of numtaps and transition
    width (a fraction of Nyquist)."""
    return 2.285 * (numtaps - 1) * np.pi * width + 7.95


def kaiserord(ripple, width):
    """numtaps and beta of a Kaiser window FIR filter for ripple dB and a
    transition width (a fraction of Nyquist)."""
    A = abs(ripple)
    if A < 8:
        raise ValueError("Requested maximum ripple attenuation "
                         f"{A:f} is too small for the Kaiser formula.")
    beta = kaiser_beta(A)
    numtaps = (A - 7.95) / 2.285 / (np.pi * width) + 1
    return int(np.ceil(numtaps)), beta


def _firwin_host(numtaps, cutoff, width=None, window="hamming", pass_zero=True, scale=True,
                 fs=None):
    if fs is not None and (np.ndim(fs) != 0 or not np.isfinite(fs) or fs <= 0):
        raise ValueError("Sampling frequency fs must be a single finite positive number.")
    nyq = 0.5 * (2 if fs is None else fs)
    cutoff = np.atleast_1d(np.asarray(gp.asnumpy(gp.asarray(cutoff)), dtype=np.float64)) / nyq
    if cutoff.ndim > 1:
        raise ValueError("The cutoff argument must be at most one-dimensional.")
    if cutoff.size == 0:
        raise ValueError("At least one cutoff frequency must be given.")
    if cutoff.min() <= 0 or cutoff.max() >= 1:
        raise ValueError("Invalid cutoff frequency: frequencies must be greater than 0 and "
                         "less than fs/2.")
    if np.any(np.diff(cutoff) <= 0):
        raise ValueError("Invalid cutoff frequencies: the frequencies must be strictly "
                         "increasing.")
    if width is not None:
        window = ("kaiser", kaiser_beta(kaiser_atten(numtaps, float(width) / nyq)))
    if pass_zero in ("bandstop", "lowpass"):
        if pass_zero == "lowpass" and cutoff.size != 1:
            raise ValueError(f'cutoff must have one element if pass_zero=="lowpass", got '
                             f'{cutoff.shape}')
        if pass_zero == "bandstop" and cutoff.size <= 1:
            raise ValueError('cutoff must have at least two elements if pass_zero=="bandstop"'
                             f', got {cutoff.shape}')
        pass_zero = True
    elif pass_zero in ("bandpass", "highpass"):
        if pass_zero == "highpass" and cutoff.size != 1:
            raise ValueError(f'cutoff must have one element if pass_zero=="highpass", got '
                             f'{cutoff.shape}')
        if pass_zero == "bandpass" and cutoff.size <= 1:
            raise ValueError('cutoff must have at least two elements if pass_zero=="bandpass"'
                             f', got {cutoff.shape}')
        pass_zero = False
    elif not (pass_zero is True or pass_zero is False):
        raise ValueError(f"Parameter {pass_zero=} not in (True, False, 'bandpass', "
                         "'lowpass', 'highpass', 'bandstop')")
    pass_nyquist = (cutoff.size % 2 == 0) == pass_zero
    if pass_nyquist and numtaps % 2 == 0:
        raise ValueError("A filter with an even number of coefficients must have zero "
                         "response at the Nyquist frequency.")
    edges = np.concatenate([np.zeros(int(pass_zero)), cutoff, np.ones(int(pass_nyquist))])
    bands = edges.reshape(-1, 2)
    m = np.arange(numtaps) - 0.5 * (numtaps - 1)
    # the ideal response: a difference of sincs per pass band, windowed
    h = sum(r * np.sinc(r * m) - lo * np.sinc(lo * m) for lo, r in bands)
    h = h * gp.asnumpy(get_window(window, numtaps, fftbins=False))
    if scale:
        lo, r = bands[0]
        f = 0.0 if lo == 0 else 1.0 if r == 1 else 0.5 * (lo + r)
        h = h / np.sum(h * np.cos(np.pi * m * f))
    return h


def firwin(numtaps, cutoff, *, width=None, window="hamming", pass_zero=True, scale=True,
           fs=None):
    """A linear-phase FIR filter of numtaps by the window method, pass bands
    between the cutoffs (lowpass, highpass, bandpass, bandstop)."""
    return gp.asarray(_firwin_host(numtaps, cutoff, width, window, pass_zero, scale, fs))
