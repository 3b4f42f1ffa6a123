"""Spectral analysis: segments of the signal as one strided view, each
detrended, windowed and transformed by one batched FFT (gpunp.fft), their
products averaged: periodogram, welch, csd, coherence, spectrogram, stft;
istft by overlap-add in a few vector operations; the COLA/NOLA checks."""

from __future__ import annotations

import warnings

import numpy as np

import gpunp as gp

from ._resample import detrend as _detrend
from .windows._windows import get_window


def _host_window(window, nperseg):
    return np.asarray(gp.asnumpy(get_window(window, nperseg)))


def _as_host(v):
    return np.asarray(gp.asnumpy(v)) if isinstance(v, gp.ndarray) else np.asarray(v)


def _segments(x, nperseg, step):
    """x[..., p * step : p * step + nperseg] for each p, as (..., p, nperseg)."""
    if nperseg == 1 and step == 1:
        return x[..., None]
    return gp.lib.stride_tricks.sliding_window_view(x, nperseg, axis=-1)[..., ::step, :]


def _detrender(detrend):
    if detrend is False or detrend is None:
        return lambda d: d
    if callable(detrend):
        return detrend
    return lambda d: _detrend(d, type=detrend, axis=-1)


def _spectra(x, win, detr, nperseg, step, nfft, onesided):
    """The windowed FFTs of every segment: (..., segment, frequency)."""
    s = detr(_segments(x, nperseg, step))
    s = s * gp.asarray(win)
    if onesided:
        return gp.fft.rfft(s.real if s.dtype.kind == "c" else s, n=nfft, axis=-1)
    return gp.fft.fft(s, n=nfft, axis=-1)


def _median_bias(n):
    ii = 2 * np.arange(1.0, (n - 1) // 2 + 1)
    return 1 + np.sum(1.0 / (ii + 1) - 1.0 / ii)


def _pad_to(v, n):
    if v.shape[-1] >= n:
        return v
    return gp.pad(v, [(0, 0)] * (v.ndim - 1) + [(0, n - v.shape[-1])])


def csd(x, y, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None,
        detrend="constant", return_onesided=True, scaling="density", axis=-1,
        average="mean"):
    """The cross power spectral density of x and y by Welch's method: the
    mean (or median) over overlapping windowed segments of conj(X) Y."""
    same = y is x
    axis = int(axis)
    x = gp.asarray(x)
    y = x if same else gp.asarray(y)
    if not same:
        xo, yo = list(x.shape), list(y.shape)
        xo.pop(axis)
        yo.pop(axis)
        try:
            outer = np.broadcast_shapes(tuple(xo), tuple(yo))
        except ValueError as e:
            raise ValueError("x and y cannot be broadcast together.") from e
        if x.size == 0 or y.size == 0:
            shape = outer + (min(x.shape[axis], y.shape[axis]),)
            e = gp.moveaxis(gp.empty(shape), -1, axis)
            return e, e
        out_dtype = np.result_type(x.dtype, y.dtype, np.complex64)
    else:
        if x.size == 0:
            return gp.empty(x.shape), gp.empty(x.shape)
        out_dtype = np.result_type(x.dtype, np.complex64)
    n = x.shape[axis] if same else max(x.shape[axis], y.shape[axis])
    if isinstance(window, (str, tuple)):
        nperseg = int(nperseg) if nperseg is not None else 256
        if nperseg < 1:
            raise ValueError(f"Parameter {nperseg=} is not a positive integer!")
        if n < nperseg:
            warnings.warn(f"{nperseg=} is greater than signal length max(len(x), len(y)) = "
                          f"{n}, using nperseg = {n}", stacklevel=3)
            nperseg = n
        win = _host_window(window, nperseg)
    else:
        win = _as_host(window)
        if nperseg is None:
            nperseg = len(win)
    if nperseg != len(win):
        raise ValueError(f"{nperseg=} does not equal {len(win)=}")
    nfft = int(nfft) if nfft is not None else nperseg
    if nfft < nperseg:
        raise ValueError(f"{nfft=} must be greater than or equal to {nperseg=}!")
    noverlap = int(noverlap) if noverlap is not None else nperseg // 2
    if noverlap >= nperseg:
        raise ValueError(f"{noverlap=} must be less than {nperseg=}!")
    if scaling not in ("spectrum", "density"):
        raise ValueError(f"Parameter {scaling=} not in {{'spectrum': 'magnitude', "
                         "'density': 'psd'}!")
    if average not in ("mean", "median"):
        raise ValueError(f"Parameter {average=} must be 'median' or 'mean'!")
    onesided = return_onesided and x.dtype.kind != "c" and y.dtype.kind != "c"
    step = nperseg - noverlap
    # SciPy's ShortTimeFFT computes in double precision
    wide = np.complex128 if (x.dtype.kind == "c" or y.dtype.kind == "c") else np.float64
    xm = _pad_to(gp.moveaxis(x, axis, -1).astype(wide), n)
    detr = _detrender(detrend)
    win = win.astype(np.float64) if win.dtype.kind != "c" else win
    X = _spectra(xm, win, detr, nperseg, step, nfft, onesided)
    if same:
        P = (gp.conj(X) * X).real
    else:
        ym = _pad_to(gp.moveaxis(y, axis, -1).astype(wide), n)
        Y = _spectra(ym, win, detr, nperseg, step, nfft, onesided)
        P = gp.conj(X) * Y
    scale = 1.0 / (fs * np.sum(np.abs(win) ** 2)) if scaling == "density" else \
        1.0 / np.abs(np.sum(win)) ** 2
    P = P * scale
    nseg = P.shape[-2]
    if onesided:
        hi = nfft // 2 if nfft % 2 == 0 else P.shape[-1]
        P[..., 1:hi] = P[..., 1:hi] * 2
    if nseg > 1:
        if average == "median":
            if P.dtype.kind == "c":
                P = gp.median(P.real, axis=-2) + 1j * gp.median(P.imag, axis=-2)
            else:
                P = gp.median(P, axis=-2)
            P = P / _median_bias(nseg)
        else:
            P = gp.mean(P, axis=-2)
    else:
        P = P.reshape(P.shape[:-2] + P.shape[-1:])
    P = P.astype(out_dtype)
    if same:
        P = P.real
    freqs = np.fft.rfftfreq(nfft, 1 / fs) if onesided else np.fft.fftfreq(nfft, 1 / fs)
    return gp.asarray(freqs), gp.ascontiguousarray(gp.moveaxis(P, -1, axis))


def welch(x, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None,
          detrend="constant", return_onesided=True, scaling="density", axis=-1,
          average="mean"):
    """The power spectral density of x by Welch's method."""
    f, P = csd(x, x, fs=fs, window=window, nperseg=nperseg, noverlap=noverlap, nfft=nfft,
               detrend=detrend, return_onesided=return_onesided, scaling=scaling, axis=axis,
               average=average)
    return f, P.real


def periodogram(x, fs=1.0, window="boxcar", nfft=None, detrend="constant",
                return_onesided=True, scaling="density", axis=-1):
    """The power spectral density of x from one windowed FFT of all of it."""
    x = gp.asarray(x)
    if x.size == 0:
        return gp.empty(x.shape), gp.empty(x.shape)
    if window is None:
        window = "boxcar"
    n = x.shape[axis]
    if nfft is None or nfft == n:
        nperseg = n
    elif nfft > n:
        nperseg = n
    else:
        s = [slice(None)] * x.ndim
        s[axis] = slice(None, nfft)
        x = x[tuple(s)]
        nperseg, nfft = nfft, None
    if hasattr(window, "size") and window.size != nperseg:
        raise ValueError("the size of the window must be the same size of the input on the "
                         "specified axis")
    return welch(x, fs=fs, window=window, nperseg=nperseg, noverlap=0, nfft=nfft,
                 detrend=detrend, return_onesided=return_onesided, scaling=scaling,
                 axis=axis)


def coherence(x, y, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None,
              detrend="constant", axis=-1):
    """The magnitude-squared coherence |Pxy|^2 / (Pxx Pyy) of x and y."""
    kw = dict(fs=fs, window=window, nperseg=nperseg, noverlap=noverlap, nfft=nfft,
              detrend=detrend, axis=axis)
    f, Pxx = welch(x, **kw)
    _, Pyy = welch(y, **kw)
    _, Pxy = csd(x, y, **kw)
    return f, gp.abs(Pxy) ** 2 / Pxx / Pyy


def _triage(window, nperseg, n):
    if isinstance(window, (str, tuple)):
        nperseg = 256 if nperseg is None else nperseg
        if nperseg > n:
            warnings.warn(f"nperseg = {nperseg:d} is greater than input length  = {n:d}, "
                          f"using nperseg = {n:d}", stacklevel=3)
            nperseg = n
        return _host_window(window, nperseg), nperseg
    win = _as_host(window)
    if win.ndim != 1:
        raise ValueError("window must be 1-D")
    if n < win.shape[-1]:
        raise ValueError("window is longer than input signal")
    if nperseg is None:
        nperseg = win.shape[0]
    elif nperseg != win.shape[0]:
        raise ValueError("value specified for nperseg is different from length of window")
    return win, nperseg


def _odd_even_const_zero(x, n, kind):
    if kind == "zeros":
        return gp.pad(x, [(0, 0)] * (x.ndim - 1) + [(n, n)])
    if n < 1:
        return x
    if n > x.shape[-1] - 1:
        raise ValueError(f"The extension length n ({n}) is too big. It must not exceed "
                         f"x.shape[axis]-1, which is {x.shape[-1] - 1}.")
    first, last = x[..., :1], x[..., -1:]
    if kind == "constant":
        return gp.concatenate([gp.broadcast_to(first, x.shape[:-1] + (n,)), x,
                               gp.broadcast_to(last, x.shape[:-1] + (n,))], axis=-1)
    left, right = gp.flip(x[..., 1:n + 1], axis=-1), gp.flip(x[..., -n - 1:-1], axis=-1)
    if kind == "odd":
        left, right = 2 * first - left, 2 * last - right
    return gp.concatenate([left, x, right], axis=-1)


def _spectral_helper(x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided,
                     scaling, axis, mode, boundary=None, padded=False):
    """SciPy's short-time spectra of x alone: 'psd' (|X|^2 scaled) or 'stft'."""
    if boundary not in ("even", "odd", "constant", "zeros", None):
        raise ValueError(f"Unknown boundary option '{boundary}', must be one of: "
                         "['even', 'odd', 'constant', 'zeros', None]")
    axis = int(axis)
    x = gp.asarray(x)
    outdtype = np.result_type(x.dtype, np.complex64)
    if x.size == 0:
        e = gp.empty(x.shape)
        return e, e, e
    if x.ndim > 1 and axis != -1:
        x = gp.moveaxis(x, axis, -1)
    if nperseg is not None:
        nperseg = int(nperseg)
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
    win, nperseg = _triage(window, nperseg, x.shape[-1])
    if nfft is None:
        nfft = nperseg
    elif nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    nfft = int(nfft)
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    step = nperseg - noverlap
    if boundary is not None:
        x = _odd_even_const_zero(x, nperseg // 2, boundary)
    if padded:
        nadd = (-(x.shape[-1] - nperseg) % step) % nperseg
        x = gp.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, nadd)])
    if np.result_type(win.dtype, np.complex64) != outdtype:
        win = win.astype(outdtype)
    if scaling == "density":
        scale = 1.0 / (fs * (win * win).sum())
    elif scaling == "spectrum":
        scale = 1.0 / win.sum() ** 2
    else:
        raise ValueError(f"Unknown scaling: {scaling!r}")
    if mode == "stft":
        scale = np.sqrt(scale)
    onesided = bool(return_onesided)
    if onesided and x.dtype.kind == "c":
        onesided = False
        warnings.warn("Input data is complex, switching to return_onesided=False",
                      stacklevel=3)
    freqs = np.fft.rfftfreq(nfft, 1 / fs) if onesided else np.fft.fftfreq(nfft, 1 / fs)
    if callable(detrend) and axis != -1:
        user = detrend

        def detrend(d):  # the user's function sees the time axis where it was
            return gp.moveaxis(user(gp.moveaxis(d, -1, axis)), axis, -1)
    S = _spectra(x, win, _detrender(detrend), nperseg, step, nfft, onesided)
    if mode == "psd":
        S = gp.conj(S) * S
    S = S * scale
    if onesided and mode == "psd":
        hi = S.shape[-1] if nfft % 2 else S.shape[-1] - 1
        S[..., 1:hi] = S[..., 1:hi] * 2
    time = np.arange(nperseg / 2, x.shape[-1] - nperseg / 2 + 1, nperseg - noverlap) / float(fs)
    if boundary is not None:
        time -= (nperseg / 2) / fs
    S = S.astype(outdtype)
    if mode != "stft":
        S = S.real
    a = axis - 1 if axis < 0 else axis
    # (..., segment, frequency) -> frequencies at axis, segments last
    S = gp.moveaxis(gp.swapaxes(S, -1, -2), -2, a)
    return gp.asarray(freqs), gp.asarray(time), gp.ascontiguousarray(S)


def spectrogram(x, fs=1.0, window=("tukey_periodic", 0.25), nperseg=None, noverlap=None,
                nfft=None, detrend="constant", return_onesided=True, scaling="density",
                axis=-1, mode="psd"):
    """Short-time spectra of x on consecutive segments: 'psd', 'complex',
    'magnitude', 'angle' or 'phase' (unwrapped along time)."""
    modes = ["psd", "complex", "magnitude", "angle", "phase"]
    if mode not in modes:
        raise ValueError(f"unknown value for mode {mode}, must be one of {modes}")
    x = gp.asarray(x)
    win, nperseg = _triage(window, nperseg, x.shape[axis])
    noverlap = nperseg // 8 if noverlap is None else noverlap
    f, t, S = _spectral_helper(x, fs, win, nperseg, noverlap, nfft, detrend,
                               return_onesided, scaling, axis,
                               "psd" if mode == "psd" else "stft")
    if mode == "magnitude":
        S = gp.abs(S)
    elif mode in ("angle", "phase"):
        S = gp.angle(S)
        if mode == "phase":
            S = gp.unwrap(S, axis=axis - 1 if axis < 0 else axis)
    return f, t, S


def stft(x, fs=1.0, window="hann_periodic", nperseg=256, noverlap=None, nfft=None,
         detrend=False, return_onesided=True, boundary="zeros", padded=True, axis=-1,
         scaling="spectrum"):
    """The short-time Fourier transform of x: frequencies, segment times and
    the spectra (frequencies at axis, segments last)."""
    if scaling == "psd":
        scaling = "density"
    elif scaling != "spectrum":
        raise ValueError(f"Parameter {scaling=} not in ['spectrum', 'psd']!")
    return _spectral_helper(x, fs, window, nperseg, noverlap, nfft, detrend,
                            return_onesided, scaling, axis, "stft", boundary, padded)


def istft(Zxx, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None,
          input_onesided=True, boundary=True, time_axis=-1, freq_axis=-2,
          scaling="spectrum"):
    """The inverse of stft: each segment's inverse FFT, windowed, overlapped
    and added, divided by the summed squared window."""
    Z = gp.asarray(Zxx)
    Z = Z.astype(np.result_type(Z.dtype, np.complex64)) if Z.dtype.kind != "c" else Z
    Z = Z.astype(np.result_type(Z.dtype, np.complex128)) if Z.dtype.kind in "biu" else Z
    freq_axis, time_axis = int(freq_axis), int(time_axis)
    if Z.ndim < 2:
        raise ValueError("Input stft must be at least 2d!")
    if freq_axis == time_axis:
        raise ValueError("Must specify differing time and frequency axes!")
    nseg = Z.shape[time_axis]
    n_default = 2 * (Z.shape[freq_axis] - 1) if input_onesided else Z.shape[freq_axis]
    if nperseg is None:
        nperseg = n_default
    else:
        nperseg = int(nperseg)
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
    if nfft is None:
        nfft = nperseg if input_onesided and nperseg == n_default + 1 else n_default
    elif nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    nfft = int(nfft)
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    step = nperseg - noverlap
    fa, ta = freq_axis % Z.ndim, time_axis % Z.ndim
    outer = [a for a in range(Z.ndim) if a not in (fa, ta)]
    Z = gp.transpose(Z, outer + [fa, ta])
    if isinstance(window, (str, tuple)):
        win = _host_window(window, nperseg)
    else:
        win = _as_host(window)
        if win.ndim != 1:
            raise ValueError("window must be 1-D")
        if win.shape[0] != nperseg:
            raise ValueError(f"window must have length of {nperseg}")
    inv = gp.fft.irfft if input_onesided else gp.fft.ifft
    xs = inv(Z, axis=-2, n=nfft)[..., :nperseg, :]
    if np.result_type(win.dtype, xs.dtype) != xs.dtype:
        win = win.astype(xs.dtype)
    if scaling == "spectrum":
        xs = xs * win.sum()
    elif scaling == "psd":
        xs = xs * np.sqrt(fs * np.sum(win ** 2))
    else:
        raise ValueError(f"Parameter {scaling=} not in ['spectrum', 'psd']!")
    # overlap-add: segments K apart (K step >= nperseg) never overlap, so
    # each of the K residues is laid end to end and added at once
    seg = gp.swapaxes(xs, -1, -2) * gp.asarray(win)  # (..., nseg, nperseg)
    length = nperseg + (nseg - 1) * step
    K = -(-nperseg // step)
    x = gp.zeros(seg.shape[:-2] + (length + K * step,), dtype=seg.dtype)
    for r in range(min(K, nseg)):
        grp = seg[..., r::K, :]
        m = grp.shape[-2]
        laid = gp.pad(grp, [(0, 0)] * (grp.ndim - 1) + [(0, K * step - nperseg)])
        laid = laid.reshape(laid.shape[:-2] + (m * K * step,))
        s = r * step
        x[..., s:s + m * K * step] = x[..., s:s + m * K * step] + laid
    x = x[..., :length]
    w2 = win.real ** 2 if win.dtype.kind == "c" else win ** 2
    norm = np.zeros(length)
    for ii in range(nseg):  # on the host: nseg additions of nperseg numbers
        norm[ii * step:ii * step + nperseg] += w2
    if boundary:
        h = nperseg // 2
        x = x[..., h:-h]
        norm = norm[h:-h]
    if np.sum(norm > 1e-10) != len(norm):
        warnings.warn("NOLA condition failed, STFT may not be invertible."
                      + (" Possibly due to missing boundary" if not boundary else ""),
                      stacklevel=2)
    x = x / gp.asarray(np.where(norm > 1e-10, norm, 1.0).astype(x.real.dtype))
    if input_onesided:
        x = x.real
    if x.ndim > 1 and ta != Z.ndim - 1:
        x = gp.moveaxis(x, -1, ta - 1 if fa < ta else ta)
    time = np.arange(x.shape[0]) / float(fs)
    return gp.asarray(time), gp.ascontiguousarray(x)


def _bin_sums(window, nperseg, noverlap, power):
    if isinstance(window, (str, tuple)):
        win = _host_window(window, nperseg)
    else:
        win = _as_host(window)
        if win.ndim != 1:
            raise ValueError("window must be 1-D")
        if win.shape[0] != nperseg:
            raise ValueError("window must have length of nperseg")
    w = win ** power
    step = nperseg - noverlap
    sums = sum(w[i * step:(i + 1) * step] for i in range(nperseg // step))
    if nperseg % step:
        sums[:nperseg % step] += w[-(nperseg % step):]
    return sums


def check_COLA(window, nperseg, noverlap, tol=1e-10):
    """Whether the window's overlapped sum is constant (Constant OverLap
    Add), so that averaged segments weight every sample alike."""
    nperseg = int(nperseg)
    if nperseg < 1:
        raise ValueError("nperseg must be a positive integer")
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    s = _bin_sums(window, nperseg, int(noverlap), 1)
    return bool(np.max(np.abs(s - np.median(s))) < tol)


def check_NOLA(window, nperseg, noverlap, tol=1e-10):
    """Whether the squared window's overlapped sum is nowhere zero (Nonzero
    OverLap Add), so that istft can invert stft."""
    nperseg = int(nperseg)
    if nperseg < 1:
        raise ValueError("nperseg must be a positive integer")
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg")
    if noverlap < 0:
        raise ValueError("noverlap must be a nonnegative integer")
    return bool(np.min(_bin_sums(window, nperseg, int(noverlap), 2)) > tol)
