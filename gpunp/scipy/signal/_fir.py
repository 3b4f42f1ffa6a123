"""FIR design by the window method (firwin) and Kaiser's formulas: a few
hundred numbers computed on the host in float64, as SciPy computes them."""

from __future__ import annotations

import warnings

import numpy as np

import gpunp as gp
from gpunp.scipy._version import scipy_version

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


def firwin2(numtaps, freq, gain, *, nfreqs=None, window="hamming", antisymmetric=False,
            fs=None):
    """A linear-phase FIR filter of numtaps whose gain at the frequencies
    freq is gain (piecewise linear between): the inverse FFT of the sampled
    response, shifted to be causal and windowed."""
    freq = np.asarray(gp.asnumpy(gp.asarray(freq)), dtype=np.float64)
    gain = np.asarray(gp.asnumpy(gp.asarray(gain)), dtype=np.float64)
    if fs is not None and (np.ndim(fs) != 0 or fs <= 0):
        raise ValueError("Sampling frequency fs must be a single finite positive number.")
    nyq = 0.5 * (2 if fs is None else fs)
    if freq.shape[0] != gain.shape[0]:
        raise ValueError("freq and gain must be of same length.")
    if nfreqs is not None and numtaps >= nfreqs:
        raise ValueError(f"ntaps must be less than nfreqs, but firwin2 was called with "
                         f"ntaps={numtaps} and nfreqs={nfreqs}")
    if freq[0] != 0 or freq[-1] != nyq:
        raise ValueError("freq must start with 0 and end with fs/2.")
    d = np.diff(freq)
    if np.any(d < 0):
        raise ValueError("The values in freq must be nondecreasing.")
    if np.any(d[:-1] + d[1:] == 0):
        raise ValueError("A value in freq must not occur more than twice.")
    if freq[1] == 0:
        raise ValueError("Value 0 must not be repeated in freq")
    if freq[-2] == nyq:
        raise ValueError("Value fs/2 must not be repeated in freq")
    ftype = (4 if numtaps % 2 == 0 else 3) if antisymmetric else (2 if numtaps % 2 == 0 else 1)
    if ftype == 2 and gain[-1] != 0.0:
        raise ValueError("A Type II filter must have zero gain at the Nyquist frequency.")
    if ftype == 3 and (gain[0] != 0.0 or gain[-1] != 0.0):
        raise ValueError("A Type III filter must have zero gain at zero and Nyquist "
                         "frequencies.")
    if ftype == 4 and gain[0] != 0.0:
        raise ValueError("A Type IV filter must have zero gain at zero frequency.")
    if nfreqs is None:
        nfreqs = 1 + 2 ** int(np.ceil(np.log2(numtaps)))
    if np.any(d == 0):
        # a step (a repeated frequency) becomes a steep slope of width 2 eps
        freq = freq.copy()
        eps = np.finfo(np.float64).eps * nyq
        for k in range(len(freq) - 1):
            if freq[k] == freq[k + 1]:
                freq[k] -= eps
                freq[k + 1] += eps
        if np.any(np.diff(freq) <= 0):
            raise ValueError("freq cannot contain numbers that are too close (within eps * "
                             f"(fs/2): {eps}) to a repeated value")
    x = np.linspace(0.0, nyq, nfreqs)
    fx = np.interp(x, freq, gain)
    shift = np.exp(-(numtaps - 1) / 2.0 * 1j * np.pi * x / nyq)
    if ftype > 2:
        shift = shift * 1j
    full = np.fft.irfft(fx * shift)
    win = gp.asnumpy(get_window(window, numtaps, fftbins=False)) if window is not None else 1
    out = full[:numtaps] * win
    if ftype == 3:
        out[out.size // 2] = 0.0
    return gp.asarray(out)


def minimum_phase(h, method="homomorphic", n_fft=None, *, half=True):
    """The minimum-phase FIR filter of a linear-phase one ('homomorphic': the
    cepstrum folded onto its causal half; 'hilbert': the discrete Hilbert
    transform of the log magnitude), computed with FFTs on the host."""
    h = np.asarray(gp.asnumpy(gp.asarray(h)))
    if h.dtype.kind == "c":
        raise ValueError("Complex filters not supported")
    if h.ndim != 1 or h.shape[0] <= 2:
        raise ValueError("h must be 1-D and at least 2 samples long")
    n_half = h.shape[0] // 2
    if not np.any(h[-n_half:][::-1] - h[:n_half] <= 1e-8 + 1e-6 * abs(h[:n_half])):
        warnings.warn("h does not appear to by symmetric, conversion may fail", RuntimeWarning,
                      stacklevel=2)
    if not isinstance(method, str) or method not in ("homomorphic", "hilbert"):
        raise ValueError(f'method must be "homomorphic" or "hilbert", got {method!r}')
    if method == "hilbert" and not half:
        raise ValueError("`half=False` is only supported when `method='homomorphic'`")
    if n_fft is None:
        n_fft = 2 ** int(np.ceil(np.log2(2 * (h.shape[0] - 1) / 0.01)))
    n_fft = int(n_fft)
    if n_fft < h.shape[0]:
        raise ValueError(f"n_fft must be at least len(h)=={len(h)}")
    if method == "hilbert":
        w = np.arange(n_fft, dtype=np.float64) * (2 * np.pi / n_fft * n_half)
        H = np.real(np.fft.fft(h, n_fft) * np.exp(1j * w))
        dp, ds = max(H) - 1, 0 - min(H)
        S = 4.0 / (np.sqrt(1 + dp + ds) + np.sqrt(1 - dp + ds)) ** 2
        H = np.sqrt((H + ds) * S) + 1e-10
        sig = np.zeros(n_fft)
        mid = n_fft // 2
        sig[1:mid], sig[mid + 1:] = 1, -1
        hmin = np.real(np.fft.ifft(H * np.exp(np.fft.fft(sig * np.fft.ifft(np.log(H))))))
    else:
        mag = np.abs(np.fft.fft(h, n_fft))
        mag = np.log(mag + 1e-7 * np.min(mag[mag > 0]))
        if half:
            mag = mag * 0.5
        cep = np.real(np.fft.ifft(mag))
        win = np.zeros(n_fft)
        win[0] = 1
        stop = n_fft // 2
        win[1:stop] = 2
        if scipy_version() >= 11800:
            # SciPy 1.18 fixed the fold (scipy#22806 era): the Nyquist bin of
            # an even n_fft counts once and the last bin of an odd one twice.
            win[stop] = 1 + n_fft % 2
        elif n_fft % 2:
            win[stop] = 1
        hmin = np.fft.ifft(np.exp(np.fft.fft(cep * win))).real
    n_out = (n_half + h.shape[0] % 2) if half else h.shape[0]
    return gp.asarray(hmin[:n_out])


def firls(numtaps, bands, desired, *, weight=None, fs=None):
    """The linear-phase FIR filter of odd numtaps whose response is closest,
    in weighted least squares, to the piecewise-linear desired gains over
    the bands: a (Toeplitz + Hankel) system of (numtaps + 1) / 2 unknowns."""
    bands = np.asarray(gp.asnumpy(bands) if isinstance(bands, gp.ndarray) else bands)
    desired = np.asarray(gp.asnumpy(desired) if isinstance(desired, gp.ndarray) else desired)
    if fs is not None and (np.ndim(fs) != 0 or fs <= 0):
        raise ValueError("Sampling frequency fs must be a single finite positive number.")
    nyq = 0.5 * (2 if fs is None else fs)
    numtaps = int(numtaps)
    if numtaps % 2 == 0 or numtaps < 1:
        raise ValueError("numtaps must be odd and >= 1")
    M = (numtaps - 1) // 2
    bands = bands.flatten() / float(nyq)
    if len(bands) % 2 != 0:
        raise ValueError("bands must contain frequency pairs.")
    if (bands < 0).any() or (bands > 1).any():
        raise ValueError("bands must be between 0 and 1 relative to Nyquist")
    bands = bands.reshape((-1, 2))
    desired = desired.flatten()
    if bands.size != desired.size:
        raise ValueError(f"desired must have one entry per frequency, got {desired.size} gains "
                         f"for {bands.size} frequencies.")
    desired = desired.reshape((-1, 2))
    if (np.diff(bands) <= 0).any() or (np.diff(bands[:, 0]) < 0).any():
        raise ValueError("bands must be monotonically nondecreasing and have width > 0.")
    if (bands[:-1, 1] > bands[1:, 0]).any():
        raise ValueError("bands must not overlap.")
    if (desired < 0).any():
        raise ValueError("desired must be non-negative.")
    weight = np.ones(len(desired)) if weight is None else np.asarray(weight).flatten()
    if len(weight) != len(desired):
        raise ValueError("weight must be the same size as the number of band pairs "
                         f"({len(bands)}).")
    if (weight < 0).any():
        raise ValueError("weight must be non-negative.")
    n = np.arange(numtaps)[:, None, None]
    # the normal equations: the weighted band integrals of cos(k w) cos(j w)
    q = np.dot(np.diff(np.sinc(bands * n) * bands, axis=2)[:, :, 0], weight)
    i = np.arange(M + 1)
    Q = q[np.abs(i[:, None] - i[None, :])] + q[i[:, None] + i[None, :]]
    n = n[:M + 1]
    m = np.diff(desired, axis=1) / np.diff(bands, axis=1)
    c = desired[:, [0]] - bands[:, [0]] * m
    b = bands * (m * bands + c) * np.sinc(bands * n)
    b[0] -= m * bands * bands / 2.0
    b[1:] += m * np.cos(n[1:] * np.pi * bands) / (np.pi * n[1:]) ** 2
    b = np.dot(np.diff(b, axis=2)[:, :, 0], weight)
    try:
        a = np.linalg.solve(Q, b)
        if np.linalg.cond(Q) > 1 / np.finfo(np.float64).eps:
            raise np.linalg.LinAlgError("ill-conditioned")
    except np.linalg.LinAlgError:  # a rank-deficient system: least squares
        a = np.linalg.lstsq(Q, b, rcond=None)[0]
    return gp.asarray(np.hstack((a[:0:-1], 2 * a[0], a[1:])))
