"""Property tests of gpunp.scipy.signal's convolution and correlation
against SciPy: N-d shapes (odd, length 1, either input the larger), every
mode and method, real, complex and integer dtypes, fftconvolve's and
oaconvolve's axes, the 2-d boundaries, the method choice and the errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.signal as ss
from hypothesis import given, settings, strategies as st

import gpunp as gp
import gpunp.scipy.signal as gs

DTYPES = [np.float64, np.float32, np.complex128, np.int32]
MODES = ["full", "same", "valid"]


def outcome(f, *a, **k):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return f(*a, **k)
    except Exception as e:  # noqa: BLE001 - the kind of error is compared
        return e


def coarsest(*arrays):
    """float32 where any input is single precision: SciPy's FFT path
    transforms each input in its own precision, so its result is only that
    good (gpunp's transforms both in the wider one)."""
    return np.float32 if any(a.dtype in (np.float32, np.complex64) for a in arrays) \
        else np.float64


def check(r, g, dtype):
    if isinstance(r, Exception):
        assert type(g) is type(r), (r, g)
        return
    assert not isinstance(g, Exception), g
    if isinstance(r, str):
        assert g == r
        return
    g = gp.asnumpy(gp.asarray(g))
    r = np.asarray(r)
    assert g.shape == r.shape and g.dtype == r.dtype, (g.shape, r.shape, g.dtype, r.dtype)
    eps = np.finfo(np.float32).eps if np.dtype(dtype) == np.float32 else 1e-13
    scale = max(1.0, float(np.abs(r).max())) if r.size else 1.0
    np.testing.assert_allclose(g, r, rtol=0, atol=50 * eps * scale * max(1, r.ndim))


def values(draw, shape, dtype):
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    x = rng.integers(-9, 10, shape) if dtype == np.int32 else rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


@st.composite
def pairs(draw, max_ndim=3, max_len=9):
    ndim = draw(st.integers(1, max_ndim))
    s1 = tuple(draw(st.integers(1, max_len)) for _ in range(ndim))
    s2 = tuple(draw(st.integers(1, max_len)) for _ in range(ndim))
    # one dtype for both, or float32 with float64 (each new pair of dtypes
    # compiles kernels, which CI's time budget pays for cold)
    d1 = draw(st.sampled_from(DTYPES))
    d2 = np.float64 if d1 == np.float32 and draw(st.booleans()) else d1
    return values(draw, s1, d1), values(draw, s2, d2)


@settings(max_examples=40)
@given(pairs(), st.sampled_from(MODES), st.sampled_from(["direct", "fft", "auto"]),
       st.sampled_from(["convolve", "correlate"]))
def test_convolve_correlate(xy, mode, method, name):
    x, y = xy
    r = outcome(getattr(ss, name), x, y, mode, method)
    g = outcome(getattr(gs, name), gp.asarray(x), gp.asarray(y), mode, method)
    check(r, g, coarsest(x, y))


@settings(max_examples=30)
@given(pairs(), st.sampled_from(MODES), st.sampled_from(["fftconvolve", "oaconvolve"]))
def test_fftconvolve_oaconvolve(xy, mode, name):
    x, y = xy
    r = outcome(getattr(ss, name), x, y, mode)
    g = outcome(getattr(gs, name), gp.asarray(x), gp.asarray(y), mode)
    check(r, g, coarsest(x, y))


@settings(max_examples=20)
@given(st.integers(0, 2**32 - 1), st.integers(1, 300), st.integers(1, 40),
       st.sampled_from(MODES), st.sampled_from(["fftconvolve", "oaconvolve"]),
       st.sampled_from([np.float64, np.complex128]))
def test_long_signal_along_an_axis(seed, n, k, mode, name, dtype):
    """A batch of long signals and short kernels along axis 1: overlap-add's
    blocks, and the other axis broadcast (3 against 1)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((3, n)).astype(dtype)
    y = rng.standard_normal((1, k)).astype(dtype)
    r = outcome(getattr(ss, name), x, y, mode, axes=1)
    g = outcome(getattr(gs, name), gp.asarray(x), gp.asarray(y), mode, axes=1)
    check(r, g, dtype)


@pytest.mark.parametrize("axes", [0, [1], (0, 1), [-1], [2], [0, 0], []])
def test_fftconvolve_axes(axes):
    x = np.arange(24.0).reshape(4, 6)
    y = np.arange(1.0, 7.0).reshape(2, 3)
    for mode in MODES:
        for name in ("fftconvolve", "oaconvolve"):
            r = outcome(getattr(ss, name), x, y[:1] if axes in (0,) else y, mode, axes=axes)
            g = outcome(getattr(gs, name), gp.asarray(x), gp.asarray(y[:1] if axes in (0,)
                                                                      else y), mode, axes=axes)
            check(r, g, np.float64)


@settings(max_examples=30)
@given(pairs(max_ndim=2, max_len=7), st.sampled_from(MODES),
       st.sampled_from(["fill", "wrap", "symm"]), st.sampled_from([0, 2.5]),
       st.sampled_from(["convolve2d", "correlate2d"]))
def test_2d(xy, mode, boundary, fill, name):
    x, y = xy
    if x.ndim == 1:
        x, y = x[None, :], y[:, None]
    r = outcome(getattr(ss, name), x, y, mode, boundary, fill)
    g = outcome(getattr(gs, name), gp.asarray(x), gp.asarray(y), mode, boundary, fill)
    check(r, g, coarsest(x, y))


@settings(max_examples=30)
@given(pairs(max_len=40), st.sampled_from(MODES))
def test_choose_conv_method(xy, mode):
    x, y = xy
    assert gs.choose_conv_method(gp.asarray(x), gp.asarray(y), mode) == \
        ss.choose_conv_method(x, y, mode)


def test_choose_conv_method_large_integers_and_measure():
    x = np.full(64, 2**40, dtype=np.int64)
    assert gs.choose_conv_method(gp.asarray(x), gp.asarray(x)) == "direct"
    assert ss.choose_conv_method(x, x) == "direct"
    m, times = gs.choose_conv_method(gp.ones(50), gp.ones(7), measure=True)
    assert m in ("fft", "direct") and set(times) == {"fft", "direct"}


@pytest.mark.parametrize("n1,n2", [(1, 1), (5, 3), (3, 5), (4, 4), (6, 1), (2, 7)])
def test_correlation_lags(n1, n2):
    for mode in MODES:
        check(ss.correlation_lags(n1, n2, mode), gs.correlation_lags(n1, n2, mode), np.int64)
    check(outcome(ss.correlation_lags, 3, 2, "bad"), outcome(gs.correlation_lags, 3, 2, "bad"),
          None)


@pytest.mark.parametrize("name", ["convolve", "correlate", "fftconvolve", "oaconvolve"])
def test_scalars_errors_and_empty(name):
    f, g = getattr(ss, name), getattr(gs, name)
    check(f(np.float64(2), np.float64(3)), g(gp.asarray(2.0), gp.asarray(3.0)), np.float64)
    a, b = np.ones((2, 3)), np.ones(3)
    check(outcome(f, a, b), outcome(g, gp.asarray(a), gp.asarray(b)), None)
    a, b = np.ones((2, 3)), np.ones((3, 2))
    check(outcome(f, a, b, "valid"), outcome(g, gp.asarray(a), gp.asarray(b), "valid"), None)
    check(outcome(f, np.ones(3), np.ones(2), "bad"),
          outcome(g, gp.ones(3), gp.ones(2), "bad"), None)
    if name in ("convolve", "correlate"):
        check(outcome(f, np.ones(3), np.ones(2), "full", "bad"),
              outcome(g, gp.ones(3), gp.ones(2), "full", "bad"), None)
    else:
        check(outcome(f, np.ones(0), np.ones(2)), outcome(g, gp.ones(0), gp.ones(2)), None)


def test_2d_errors():
    for name in ("convolve2d", "correlate2d"):
        f, g = getattr(ss, name), getattr(gs, name)
        check(outcome(f, np.ones(3), np.ones(3)), outcome(g, gp.ones(3), gp.ones(3)), None)
        check(outcome(f, np.ones((3, 3)), np.ones((2, 2)), boundary="bad"),
              outcome(g, gp.ones((3, 3)), gp.ones((2, 2)), boundary="bad"), None)


def test_fft_method_warns_on_nan():
    x = np.array([np.nan, 1.0, 2.0] + [0.0] * 200)
    with pytest.warns(RuntimeWarning):
        gs.convolve(gp.asarray(x), gp.ones(150), method="fft")
