"""Property tests of gpunp.scipy.signal's IIR filtering (lfilter's scan,
sosfilt, filtfilt, sosfiltfilt and their initial conditions) against SciPy:
random stable filters of order up to 8 (direct form) and 12 (second-order
sections, where SciPy's lfilter of each section is the reference too), every
axis of 1-3 dimensional signals of length 0, 1 and odd, real and complex
signals and coefficients, with and without initial states."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.signal as ss
from hypothesis import given, settings, strategies as st

import gpunp as gp
import gpunp.scipy.signal as gs


def outcome(f, *a, **k):
    try:
        return f(*a, **k)
    except Exception as e:  # noqa: BLE001 - the kind of error is compared
        return e


def close(g, r, single=False, tol=None):
    """g (gpunp's) against r (SciPy's): the same exception, or the same
    shape and dtype and values within tol (by default a relative 1e-9 of
    the largest value, 1e-4 in single precision: the scan sums the
    recurrence in another order than SciPy's loop)."""
    if isinstance(r, Exception):
        assert type(g) is type(r), (r, g)
        return
    if isinstance(r, tuple):
        assert isinstance(g, tuple) and len(g) == len(r)
        tols = tol if isinstance(tol, tuple) else (tol,) * len(r)
        for gg, rr, tt in zip(g, r, tols):
            close(gg, rr, single, tt)
        return
    g = gp.asnumpy(g)
    assert g.shape == r.shape and g.dtype == r.dtype, (g.shape, r.shape, g.dtype, r.dtype)
    if tol is None:
        tol = (1e-4 if single else 1e-9) * max(1.0, float(np.abs(r).max()) if r.size else 1.0)
    np.testing.assert_allclose(g, r, rtol=0, atol=tol)


def wide(v):
    """v in extended precision (long double), for SciPy's exact-as-possible
    answer."""
    if v is None:
        return None
    v = np.asarray(v)
    return v.astype(np.clongdouble if v.dtype.kind == "c" else np.longdouble)


def lfilter_tolerance(r, b, a, x, axis, zi):
    """How far SciPy's own answer is from SciPy's in long double (the
    filter's conditioning at this precision), times 4, plus rounding: the
    chunked filter must be as accurate as SciPy's loop, not equal to it bit
    for bit (a direct-form filter of order 8 loses 8 digits in either). One
    tolerance for each output (y, and zf, whose states may be far larger
    than y)."""
    hi = ss.lfilter(wide(b), wide(a), wide(x), axis, wide(zi))

    def tol(y, yh):
        scale = max(1.0, float(np.abs(y).max()) if y.size else 1.0)
        err = float(np.abs(y - yh).max()) if y.size else 0.0
        return 4 * err + (1e-6 if y.dtype in (np.float32, np.complex64) else 1e-12) * scale

    if isinstance(r, tuple):
        return tuple(tol(v, vh) for v, vh in zip(r, hi))
    return tol(r, hi)


def stable_poly(rng, order, complex_=False, radius=0.9):
    """A monic polynomial whose roots lie within radius of the origin (real
    coefficients: conjugate pairs and real roots)."""
    if complex_:
        z = radius * np.sqrt(rng.uniform(0, 1, order)) * np.exp(
            2j * np.pi * rng.uniform(size=order))
        return np.atleast_1d(np.poly(z))
    pairs, single = divmod(order, 2)
    z = list(radius * rng.uniform(-1, 1, single))
    for _ in range(pairs):
        p = radius * np.sqrt(rng.uniform()) * np.exp(1j * np.pi * rng.uniform())
        z += [p, np.conj(p)]
    return np.atleast_1d(np.real(np.poly(z)))


@st.composite
def signals(draw):
    ndim = draw(st.integers(1, 3))
    shape = [draw(st.integers(1, 4)) for _ in range(ndim)]
    axis = draw(st.integers(-ndim, ndim - 1))
    shape[axis] = draw(st.sampled_from([0, 1, 2, 7, 31, 64, 129]))
    dtype = draw(st.sampled_from([np.float64, np.float32, np.complex128]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    x = rng.standard_normal(shape)
    if dtype == np.complex128:
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype), axis, rng


@settings(max_examples=40)
@given(signals(), st.integers(0, 8), st.integers(0, 8), st.booleans(), st.booleans())
def test_lfilter(sig, na, nb, with_zi, complex_coeffs):
    x, axis, rng = sig
    single = x.dtype == np.float32
    a = stable_poly(rng, na, complex_coeffs and not single) * rng.uniform(0.5, 2)
    b = rng.standard_normal(nb + 1)
    if single:
        a, b = a.astype(np.float32), b.astype(np.float32)
    p = max(len(a), len(b)) - 1
    zi = None
    if with_zi:
        zshape = list(x.shape)
        zshape[axis] = p
        zi = rng.standard_normal(zshape).astype(x.dtype)
    g = outcome(gs.lfilter, b, a, gp.asarray(x), axis, None if zi is None else gp.asarray(zi))
    if with_zi and x.shape[axis] == 0 and len(a) > 1:
        # SciPy 1.17's C filter returns an uninitialised final state for an
        # empty signal; the state of an empty signal is the initial one
        close(g[1], zi.astype(np.result_type(zi, a, b)), single)
        return
    r = outcome(ss.lfilter, b, a, x, axis, zi)
    if isinstance(r, Exception):
        close(g, r)
        return
    close(g, r, single, tol=lfilter_tolerance(r, b, a, x, axis, zi))


@settings(max_examples=25)
@given(signals(), st.integers(1, 6), st.booleans())
def test_sosfilt_up_to_order_12(sig, sections, with_zi):
    x, axis, rng = sig
    if x.dtype == np.complex128:
        x = x.real.copy()
    single = x.dtype == np.float32
    sos = np.array([np.concatenate([rng.standard_normal(3), stable_poly(rng, 2)])
                    for _ in range(sections)])
    if single:
        sos = sos.astype(np.float32)
    zshape = (sections,) + x.shape[:axis % x.ndim] + (2,) + x.shape[axis % x.ndim + 1:]
    zi = rng.standard_normal(zshape).astype(x.dtype) if with_zi else None
    g = outcome(gs.sosfilt, sos, gp.asarray(x), axis, None if zi is None else gp.asarray(zi))
    r = outcome(ss.sosfilt, sos, x, axis, zi)
    close(g, r, single)
    if isinstance(r, Exception):
        return
    # the reference the issue names: SciPy's lfilter of each section in turn
    y = x
    for s in range(sections):
        y = ss.lfilter(sos[s, :3], sos[s, 3:], y, axis, None if zi is None else zi[s])
        if zi is not None:
            y = y[0]
    close(g[0] if with_zi else g, y, single)


@settings(max_examples=20)
@given(signals(), st.integers(1, 5), st.sampled_from(["odd", "even", "constant", None]),
       st.sampled_from([None, 0, 3]))
def test_filtfilt_and_sosfiltfilt(sig, order, padtype, padlen):
    """Both pad methods of filtfilt (the padded ends, Gustafsson's initial
    states, on the whole signal or irlen samples of each end) and
    sosfiltfilt."""
    x, axis, rng = sig
    single = x.dtype == np.float32
    b, a = ss.butter(order, rng.uniform(0.1, 0.6))
    r = outcome(ss.filtfilt, b, a, x, axis, padtype, padlen)
    g = outcome(gs.filtfilt, b, a, gp.asarray(x), axis, padtype, padlen)
    close(g, r, single)
    irlen = [None, 3, 20][order % 3]
    r = outcome(ss.filtfilt, b, a, x, axis, method="gust", irlen=irlen)
    g = outcome(gs.filtfilt, b, a, gp.asarray(x), axis, method="gust", irlen=irlen)
    close(g, r, single)
    sos = ss.butter(order, rng.uniform(0.1, 0.6), output="sos")
    r = outcome(ss.sosfiltfilt, sos, x, axis, padtype, padlen)
    g = outcome(gs.sosfiltfilt, sos, gp.asarray(x), axis, padtype, padlen)
    close(g, r, single)


@pytest.mark.parametrize("b,a", [([1, 2, 3], [1, -0.5]), ([1.0], [1, -0.5, 0.25]),
                                 ([0.5, 0.5], [2.0]), ([1, 1j], [1, 0.3j]), ([2.0], [4.0]),
                                 # SciPy 1.18 refuses a leading zero of a and a pole at
                                 # 1, and keeps float32
                                 ([1, 2], [0, 1, -0.5]), ([1, 2], [1, -1]),
                                 (np.float32([1, 2]), np.float32([1, -0.5]))])
def test_initial_conditions(b, a):
    for f in ("lfilter_zi",):
        close(outcome(getattr(gs, f), b, a), outcome(getattr(ss, f), b, a))
    close(outcome(gs.lfiltic, b, a, [1.0, 2.0, 3.0]), outcome(ss.lfiltic, b, a, [1.0, 2.0, 3.0]))
    close(outcome(gs.lfiltic, b, a, [1.0], [4.0, 5.0, 6.0]),
          outcome(ss.lfiltic, b, a, [1.0], [4.0, 5.0, 6.0]))


def test_sosfilt_zi_and_steady_state():
    sos = ss.butter(9, 0.2, output="sos")
    close(gs.sosfilt_zi(sos), ss.sosfilt_zi(sos))
    close(gs.sosfilt_zi(sos.astype(np.float32)), ss.sosfilt_zi(sos.astype(np.float32)), True)
    unit = np.array([[1, 0, 0, 1, 0, 0]])
    close(gs.sosfilt_zi(unit), ss.sosfilt_zi(unit))


def test_a_long_signal_is_scanned():
    """2^16 samples of an order-8 filter: the doubling scan over 16 steps
    against SciPy's sequential loop."""
    b, a = ss.butter(8, 0.05)
    x = np.random.default_rng(3).standard_normal((2, 1 << 16))
    r = ss.lfilter(b, a, x)
    close(gs.lfilter(b, a, gp.asarray(x)), r, tol=lfilter_tolerance(r, b, a, x, -1, None))


def test_errors():
    x = np.ones(5)
    cases = [((np.ones((2, 2)), [1], x), {}), (([], [1], x), {}), (([1], [[1]], x), {}),
             (([1], [0, 1], x), {}), (([1], [1, 2], np.ones(5, int)), {}),
             (([1], [2], np.ones(5, int)), {}), (([1], [1, 0.5], np.float64(1)), {}),
             (([1], [1, 0.5], x), {"axis": 1}), (([1, 2], [1, 0.5], x), {"zi": [1, 2]}),
             (([1, 2], [1, 0.5], np.ones((2, 5))), {"zi": np.ones((3, 1))})]
    for args, kw in cases:
        close(outcome(gs.lfilter, *args, **kw), outcome(ss.lfilter, *args, **kw))
    sos = ss.butter(4, 0.2, output="sos")
    for bad in (sos[:, :5], sos * 2, sos[None]):
        close(outcome(gs.sosfilt, bad, x), outcome(ss.sosfilt, bad, x))
    close(outcome(gs.sosfilt, sos, x, zi=np.ones((2, 3))),
          outcome(ss.sosfilt, sos, x, zi=np.ones((2, 3))))
    close(outcome(gs.filtfilt, [1], [1, 0.5], x, padlen=5),
          outcome(ss.filtfilt, [1], [1, 0.5], x, padlen=5))
    close(outcome(gs.filtfilt, [1], [1, 0.5], x, padtype="bad"),
          outcome(ss.filtfilt, [1], [1, 0.5], x, padtype="bad"))
    close(outcome(gs.filtfilt, [1], [1, 0.5], x, method="bad"),
          outcome(ss.filtfilt, [1], [1, 0.5], x, method="bad"))
    close(outcome(gs.sosfiltfilt, sos, np.ones(20)), outcome(ss.sosfiltfilt, sos, np.ones(20)))


def chunks(b, a, n, nsig):
    """How many chunks a signal of n samples is filtered in (so that the
    states carried between chunks, and between groups of chunks past
    _GROUP, are what a test checks)."""
    from gpunp.scipy.signal import _lfilter as impl
    S = impl._pow2(max(len(a), len(b)) - 1)
    an = np.zeros(S + 1)
    an[:len(a)] = np.real(a)
    cf = np.concatenate([np.zeros(S + 1), an])
    return -(-n // impl._plan("tf", cf, S, n, nsig)[0]), impl._GROUP


def test_long_signals_carry_states_between_chunks():
    """Signals long enough for many chunks, along the first axis and the
    last, with initial states: a direct-form filter of order 12, complex
    coefficients, a complex signal through a real filter, float32, and six
    sections against SciPy's lfilter of each section in turn."""
    rng = np.random.default_rng(7)
    a12 = stable_poly(rng, 12, radius=0.8)
    b12 = rng.standard_normal(13)
    x = rng.standard_normal((1500, 3))
    assert chunks(b12, a12, 1500, 3)[0] > 1
    zi = rng.standard_normal((12, 3))
    r = ss.lfilter(b12, a12, x, 0, zi)
    close(gs.lfilter(b12, a12, gp.asarray(x), 0, gp.asarray(zi)), r,
          tol=lfilter_tolerance(r, b12, a12, x, 0, zi))
    ac = stable_poly(rng, 3, complex_=True, radius=0.8)
    bc = rng.standard_normal(3) + 1j * rng.standard_normal(3)
    xc = rng.standard_normal((2, 4001)) + 1j * rng.standard_normal((2, 4001))
    zc = rng.standard_normal((2, 3)) + 1j * rng.standard_normal((2, 3))
    r = ss.lfilter(bc, ac, xc, -1, zc)
    close(gs.lfilter(bc, ac, gp.asarray(xc), -1, gp.asarray(zc)), r,
          tol=lfilter_tolerance(r, bc, ac, xc, -1, zc))
    b, a = ss.butter(4, 0.3)
    k, group = chunks(b, a, 4001, 4)
    assert k > group
    r = ss.lfilter(b, a, xc, -1, zc[:, :1] * np.ones(4))
    close(gs.lfilter(b, a, gp.asarray(xc), -1, gp.asarray(zc[:, :1] * np.ones(4))), r,
          tol=lfilter_tolerance(r, b, a, xc, -1, zc[:, :1] * np.ones(4)))
    xs = x.T.astype(np.float32)
    r = ss.lfilter(b.astype(np.float32), a.astype(np.float32), xs)
    close(gs.lfilter(b.astype(np.float32), a.astype(np.float32), gp.asarray(xs)), r, True)
    sos = np.array([np.concatenate([rng.standard_normal(3), stable_poly(rng, 2, radius=0.8)])
                    for _ in range(6)])
    zs = rng.standard_normal((6, 3, 2))
    g = gs.sosfilt(sos, gp.asarray(xs), -1, gp.asarray(zs))
    close(g, ss.sosfilt(sos, xs, -1, zs), True)
    y = xs
    for s in range(6):
        y = ss.lfilter(sos[s, :3], sos[s, 3:], y, -1, zs[s])[0]
    close(g[0], y, True)


def test_narrow_band_sections_are_chunked():
    """butter(8, 0.01) as sections: the later sections' states are some
    1e10 times the first's, and the plan measures each in its own size, so
    the signal is still cut in chunks (and filtered as SciPy does)."""
    from gpunp.scipy.signal import _lfilter as impl
    sos = ss.butter(8, 0.01, output="sos")
    x = np.random.default_rng(9).standard_normal((1, 6000))
    assert impl._plan("sos", sos.reshape(-1).astype(float), 8, 6000, 1)[0] < 6000
    close(gs.sosfilt(sos, gp.asarray(x)), ss.sosfilt(sos, x))


def test_nan_coefficients_and_unstable_filters():
    """NaN coefficients give NaN where SciPy's loop does (no root finding
    to fail); an unstable filter grows as SciPy's, to inf and NaN where
    SciPy's does."""
    x = np.random.default_rng(8).standard_normal((2, 700))
    for b, a in (([1, np.nan], [1, -0.5]), ([1, 2], [1, np.nan, 0.2]), ([np.nan], [1, 0.5]),
                 ([1, 0.5], [1, -1.01]), ([1.0], [1, -2.5, 1.5]), ([1.0], [1, -3.0]),
                 ([1.0], [1, 0.5j - 1.2])):
        r = ss.lfilter(b, a, x)
        g = gp.asnumpy(gs.lfilter(b, a, gp.asarray(x)))
        assert g.dtype == r.dtype
        np.testing.assert_array_equal(np.isnan(g), np.isnan(r))
        np.testing.assert_array_equal(np.isinf(g), np.isinf(r))
        fin = np.isfinite(r)
        np.testing.assert_allclose(g[fin], r[fin], rtol=1e-9, atol=1e-12)
