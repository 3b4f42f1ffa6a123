"""Property tests of gpunp.scipy.signal's spectral analysis against SciPy:
welch, csd, coherence, periodogram, spectrogram (every mode), stft and
istft (boundaries, padding, scalings, both axes, complex and float32
signals, round trips), check_COLA / check_NOLA, the chirp z-transform,
the zoom FFT, Lomb-Scargle and vector strength; and peak finding with
every criterion of find_peaks, peak_prominences, peak_widths and the
relative extrema."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.signal as ss
from hypothesis import given, settings, strategies as st

import gpunp as gp
import gpunp.scipy.signal as gs
from gpunp.scipy.signal._peaks import PeakPropertyWarning

from .signal_compare import outcome, same


ALL = (np.float64, np.float32, np.complex128)


@st.composite
def signals(draw, max_len=300, dtypes=ALL):
    """A 1-2 dimensional signal, its axis, and a generator. Each dtype's
    kernels compile once, cold, in CI's time: the tests that do not turn on
    the dtype draw fewer."""
    ndim = draw(st.integers(1, 2))
    shape = [draw(st.integers(1, 3)) for _ in range(ndim)]
    axis = draw(st.integers(-ndim, ndim - 1))
    shape[axis] = draw(st.integers(1, max_len))
    dtype = draw(st.sampled_from(dtypes))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    x = rng.standard_normal(shape)
    if dtype == np.complex128:
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype), axis, rng


def tol(x):
    return 2e-5 if x.dtype in (np.float32, np.complex64) else 1e-9


@st.composite
def segmenting(draw):
    nperseg = draw(st.sampled_from([None, 1, 8, 31, 64]))
    noverlap = None if nperseg is None or draw(st.booleans()) else \
        draw(st.integers(0, max(nperseg - 1, 0)))
    nfft = None if nperseg is None or draw(st.booleans()) else nperseg + draw(st.integers(0, 9))
    return {"nperseg": nperseg, "noverlap": noverlap, "nfft": nfft}


@settings(max_examples=40)
@given(signals(), segmenting(), st.sampled_from(["hann_periodic", "hamming", "boxcar"]),
       st.sampled_from(["constant", "linear", False]), st.sampled_from(["density", "spectrum"]),
       st.sampled_from(["mean", "median"]), st.booleans())
def test_welch_csd(sig, seg, window, detrend, scaling, average, onesided):
    x, axis, rng = sig
    kw = dict(seg, window=window, detrend=detrend, scaling=scaling, average=average,
              return_onesided=onesided, axis=axis)
    same(outcome(gs.welch, gp.asarray(x), **kw), outcome(ss.welch, x, **kw), tol(x))
    y = rng.standard_normal(x.shape).astype(x.dtype)
    same(outcome(gs.csd, gp.asarray(x), gp.asarray(y), **kw), outcome(ss.csd, x, y, **kw),
         tol(x))


@settings(max_examples=20)
@given(signals(dtypes=(np.float64,)), segmenting())
def test_coherence_periodogram(sig, seg):
    x, axis, rng = sig
    y = rng.standard_normal(x.shape)
    same(outcome(gs.coherence, gp.asarray(x), gp.asarray(y), axis=axis, **seg),
         outcome(ss.coherence, x, y, axis=axis, **seg), 1e-6 if x.dtype != np.float64 else 1e-8)
    for nfft in (None, seg["nfft"], 5):
        same(outcome(gs.periodogram, gp.asarray(x), nfft=nfft, axis=axis),
             outcome(ss.periodogram, x, nfft=nfft, axis=axis), tol(x))


@settings(max_examples=25)
@given(signals(dtypes=(np.float64, np.complex128)), segmenting(),
       st.sampled_from(["psd", "complex", "magnitude", "angle", "phase"]))
def test_spectrogram(sig, seg, mode):
    x, axis, _ = sig
    same(outcome(gs.spectrogram, gp.asarray(x), axis=axis, mode=mode, **seg),
         outcome(ss.spectrogram, x, axis=axis, mode=mode, **seg), tol(x))


@settings(max_examples=30)
@given(signals(), st.sampled_from([8, 16, 31]), st.sampled_from([None, 3]),
       st.sampled_from(["zeros", "even", "odd", "constant", None]), st.booleans(),
       st.sampled_from(["spectrum", "psd"]), st.booleans())
def test_stft_istft(sig, nperseg, noverlap, boundary, padded, scaling, onesided):
    x, axis, _ = sig
    kw = dict(nperseg=nperseg, noverlap=noverlap, boundary=boundary, padded=padded,
              scaling=scaling, return_onesided=onesided, axis=axis)
    r = outcome(ss.stft, x, **kw)
    same(outcome(gs.stft, gp.asarray(x), **kw), r, tol(x))
    if isinstance(r, Exception):
        return
    Z = r[2]
    if ikw_onesided_bins(Z, x, axis, onesided) == 1:
        # one frequency bin of a one-sided STFT makes istft's FFT length 0,
        # where SciPy's irfft(n=0) returns its input unchanged and gpunp's
        # raises NumPy's ValueError: nothing meaningful to compare
        return
    ikw = dict(nperseg=nperseg, noverlap=noverlap, scaling=scaling,
               input_onesided=onesided and x.dtype.kind != "c",
               boundary=boundary is not None, time_axis=-1,
               freq_axis=(axis % x.ndim) if x.ndim > 1 else -2)
    same(outcome(gs.istft, gp.asarray(Z), **ikw), outcome(ss.istft, Z, **ikw), tol(x))


def ikw_onesided_bins(Z, x, axis, onesided):
    """The number of frequency bins of a one-sided STFT (0 if two-sided)."""
    if not onesided or x.dtype.kind == "c":
        return 0
    return Z.shape[axis % x.ndim] if x.ndim > 1 else Z.shape[0]


@pytest.mark.parametrize("window,nperseg,noverlap", [
    ("hann", 64, 32), ("hann", 64, 20), ("boxcar", 10, 0), (np.ones(9), 9, 3),
    ("hamming", 30, 15), ("hann", 8, 7), ("hann", 8, 8), ("hann", 0, 0), (np.ones(9), 8, 3),
    (np.ones((2, 2)), 2, 1), ("bartlett", 16, -1)])
def test_cola_nola(window, nperseg, noverlap):
    for name in ("check_COLA", "check_NOLA"):
        same(outcome(getattr(gs, name), window, nperseg, noverlap),
             outcome(getattr(ss, name), window, nperseg, noverlap))


@settings(max_examples=25)
@given(signals(max_len=40, dtypes=(np.float64, np.complex128)),
       st.sampled_from([None, 1, 7, 50]),
       st.sampled_from([None, np.exp(-0.1j), 1.01 * np.exp(-0.3j)]),
       st.sampled_from([1, 0.9 + 0.1j]))
def test_czt(sig, m, w, a):
    x, axis, _ = sig
    same(outcome(gs.czt, gp.asarray(x), m, w, a, axis=axis),
         outcome(ss.czt, x, m, w, a, axis=axis), 1e-4 if x.dtype == np.float32 else 1e-8)
    same(outcome(gs.czt_points, m or 5, w, a), outcome(ss.czt_points, m or 5, w, a))


@pytest.mark.parametrize("fn,m,endpoint,fs", [(0.5, None, False, 2), ([0.1, 0.4], 30, True, 2),
                                              ([10, 30], 7, False, 100), ([1, 2, 3], 4, False, 2)])
def test_zoom_fft(fn, m, endpoint, fs):
    x = np.random.default_rng(5).standard_normal((3, 20))
    same(outcome(gs.zoom_fft, gp.asarray(x), fn, m, fs=fs, endpoint=endpoint),
         outcome(ss.zoom_fft, x, fn, m, fs=fs, endpoint=endpoint), 1e-8)
    same(outcome(gs.ZoomFFT(20, fn, m, fs=fs).points if np.size(fn) < 3 else lambda: 0),
         outcome(ss.ZoomFFT(20, fn, m, fs=fs).points if np.size(fn) < 3 else lambda: 0))


def test_czt_classes_and_errors():
    x = np.random.default_rng(6).standard_normal((3, 20))
    same(gs.CZT(5, 7).points(), ss.CZT(5, 7).points())
    same(outcome(gs.CZT(5), gp.asarray(x)), outcome(ss.CZT(5), x))
    same(outcome(gs.czt, gp.asarray(x), 0), outcome(ss.czt, x, 0))
    same(outcome(gs.CZT, 0), outcome(ss.CZT, 0))


@pytest.mark.parametrize("normalize", [False, True, "amplitude", "nope"])
@pytest.mark.parametrize("floating_mean", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_lombscargle(normalize, floating_mean, weighted):
    rng = np.random.default_rng(7)
    t = np.sort(rng.uniform(0, 10, 50))
    y = np.sin(2 * t) + 0.5 + rng.standard_normal(50) * 0.1
    f = np.linspace(0.1, 5, 40)
    w = rng.uniform(0.5, 2, 50) if weighted else None
    same(outcome(gs.lombscargle, gp.asarray(t), gp.asarray(y), gp.asarray(f),
                 normalize=normalize, floating_mean=floating_mean,
                 weights=None if w is None else gp.asarray(w)),
         outcome(ss.lombscargle, t, y, f, normalize=normalize, floating_mean=floating_mean,
                 weights=w))
    same(outcome(gs.lombscargle, gp.asarray(t), gp.asarray(y), gp.asarray(f[:1])),
         outcome(ss.lombscargle, t, y, f[:1]))
    with pytest.warns(DeprecationWarning):
        g = gs.lombscargle(gp.asarray(t), gp.asarray(y), gp.asarray(f), precenter=True)
    with pytest.warns(DeprecationWarning):
        same(g, ss.lombscargle(t, y, f, precenter=True))
    same(outcome(gs.lombscargle, gp.asarray(t), gp.asarray(y[:3]), gp.asarray(f)),
         outcome(ss.lombscargle, t, y[:3], f))


def test_vectorstrength():
    ev = np.random.default_rng(8).uniform(0, 10, 30)
    same(gs.vectorstrength(gp.asarray(ev), 2.0), ss.vectorstrength(ev, 2.0))
    same(gs.vectorstrength(gp.asarray(ev), gp.asarray([1.0, 2, 3])),
         ss.vectorstrength(ev, [1.0, 2, 3]))
    for bad in [(ev, -1.0), (ev[None], 1.0), (ev, np.ones((2, 2)))]:
        same(outcome(gs.vectorstrength, gp.asarray(bad[0]), gp.asarray(bad[1])),
             outcome(ss.vectorstrength, *bad))


@st.composite
def peaky(draw):
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = draw(st.integers(0, 150))
    if draw(st.booleans()):
        return np.round(rng.standard_normal(n) * 3) / 2  # flat tops
    return np.cumsum(rng.standard_normal(n))


CRITERIA = [{}, {"height": 0.5}, {"height": (None, 1)}, {"threshold": 0.2},
            {"threshold": (0.1, 2)}, {"distance": 3}, {"distance": 7.5}, {"prominence": 1},
            {"prominence": (0.5, 3), "wlen": 15}, {"width": 2},
            {"width": (1, 5), "rel_height": 0.8}, {"plateau_size": 2},
            {"plateau_size": (1, 1)},
            {"height": 0, "threshold": 0, "distance": 2, "prominence": 0, "width": 0,
             "plateau_size": 1}]


@settings(max_examples=30)
@given(peaky(), st.sampled_from(CRITERIA))
def test_find_peaks(x, criteria):
    same(outcome(gs.find_peaks, gp.asarray(x), **criteria), outcome(ss.find_peaks, x, **criteria))
    h = x * 0 + 0.3  # an interval border per sample
    same(outcome(gs.find_peaks, gp.asarray(x), height=gp.asarray(h)),
         outcome(ss.find_peaks, x, height=h))


@settings(max_examples=30)
@given(peaky(), st.sampled_from([None, 5, 20.5]), st.sampled_from([0, 0.5, 1, 2]))
def test_prominences_widths(x, wlen, rel_height):
    peaks, _ = ss.find_peaks(x)
    same(outcome(gs.peak_prominences, gp.asarray(x), gp.asarray(peaks), wlen),
         outcome(ss.peak_prominences, x, peaks, wlen))
    same(outcome(gs.peak_widths, gp.asarray(x), gp.asarray(peaks), rel_height, None, wlen),
         outcome(ss.peak_widths, x, peaks, rel_height, None, wlen))


def test_peak_errors():
    x = np.array([0, 1, 0, 2, 0.0])
    for f, args in [("peak_prominences", (x, [5])), ("peak_prominences", (x, [1], 1)),
                    ("peak_prominences", (x, [1.5])), ("peak_widths", (x, [1], -1)),
                    ("peak_widths", (x, [1], 0.5, (np.ones(2), np.array([0]), np.array([2])))),
                    ("peak_widths", (x, [1], 0.5, (np.ones(1), np.array([2]), np.array([2]))))]:
        same(outcome(getattr(gs, f), *args), outcome(getattr(ss, f), *args))
    same(outcome(gs.find_peaks, gp.asarray(x), distance=0), outcome(ss.find_peaks, x, distance=0))
    same(outcome(gs.find_peaks, gp.ones((2, 2))), outcome(ss.find_peaks, np.ones((2, 2))))
    nan = np.array([0, np.nan, 1, 0, np.nan, np.nan, 2, 1.0])
    same(gs.find_peaks(gp.asarray(nan)), ss.find_peaks(nan))
    with pytest.warns(PeakPropertyWarning):
        gs.peak_prominences(gp.asarray(x), gp.asarray([0]))


@pytest.mark.parametrize("order", [1, 2, 3])
@pytest.mark.parametrize("mode", ["clip", "wrap"])
@pytest.mark.parametrize("axis", [0, 1])
def test_relative_extrema(order, mode, axis):
    X = np.round(np.random.default_rng(order).standard_normal((4, 30)), 1)
    same(gs.argrelmax(gp.asarray(X), axis, order, mode), ss.argrelmax(X, axis, order, mode))
    same(gs.argrelmin(gp.asarray(X), axis, order, mode), ss.argrelmin(X, axis, order, mode))
    same(gs.argrelextrema(gp.asarray(X), np.greater_equal, axis, order, mode),
         ss.argrelextrema(X, np.greater_equal, axis, order, mode))
    same(outcome(gs.argrelmax, gp.asarray(X), axis, 0), outcome(ss.argrelmax, X, axis, 0))


@pytest.mark.parametrize("widths", [np.arange(1, 10), [2, 5, 10], np.arange(1, 30, 3)])
def test_find_peaks_cwt(widths):
    rng = np.random.default_rng(9)
    t = np.arange(200)
    x = np.sin(t * 6 * np.pi / 199) + 0.3 * rng.standard_normal(200)
    x = x + 3 * np.exp(-((t - 80) / 5.0) ** 2)
    for kw in ({}, {"min_snr": 2}, {"min_length": 2, "gap_thresh": 2},
               {"window_size": 7, "noise_perc": 20},
               {"max_distances": np.ones(len(widths)) * 3}, {"max_distances": [1]}):
        same(outcome(gs.find_peaks_cwt, gp.asarray(x), widths, **kw),
             outcome(ss.find_peaks_cwt, x, widths, **kw))
