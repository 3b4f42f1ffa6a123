"""gpunp.scipy.signal.windows against scipy.signal.windows: every window of
SciPy's list, symmetric and periodic, of lengths 0, 1, odd and even; every
name get_window knows; the errors SciPy raises."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.signal.windows as sw

import gpunp as gp
import gpunp.scipy.signal as gs
import gpunp.scipy.signal.windows as gw

# each window's parameters (beyond M) in one representative setting
PARAMS = {"general_cosine": ([0.5, 0.3, 0.2],), "general_hamming": (0.6,), "tukey": (0.3,),
          "kaiser": (5.0,), "kaiser_bessel_derived": (3.0,), "gaussian": (2.5,),
          "general_gaussian": (1.5, 3.0), "chebwin": (60,), "exponential": (),
          "taylor": (5, 35), "dpss": (2.0,)}
WINDOWS = [n for n in sw.__all__ if n != "get_window"]
LENGTHS = [0, 1, 2, 7, 16, 33]


def outcome(f, *a, **k):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return f(*a, **k)
    except Exception as e:  # noqa: BLE001 - the kind of error is compared
        return e


def same(r, g):
    if isinstance(r, Exception):
        assert type(g) is type(r), (r, g)
        assert str(g) == str(r)
        return
    assert isinstance(g, gp.ndarray), g
    g = gp.asnumpy(g)
    assert g.shape == r.shape and g.dtype == r.dtype
    np.testing.assert_allclose(g, r, rtol=1e-10, atol=1e-12)


def test_names_are_scipys():
    assert sorted(gw.__all__) == sorted(sw.__all__)
    assert gs.get_window is gw.get_window


@pytest.mark.parametrize("name", WINDOWS)
@pytest.mark.parametrize("sym", [True, False])
def test_window(name, sym):
    for M in LENGTHS:
        args = PARAMS.get(name, ())
        same(outcome(getattr(sw, name), M, *args, sym=sym),
             outcome(getattr(gw, name), M, *args, sym=sym))


@pytest.mark.parametrize("name", ["hann", "tukey", "kaiser", "general_gaussian"])
def test_sym_by_position(name):
    args = PARAMS.get(name, ())
    same(sw.__dict__[name](9, *args, False), getattr(gw, name)(9, *args, False))


def test_parameter_ranges():
    for a in (0, 1, 1.5, -0.5):
        same(sw.tukey(11, a), gw.tukey(11, a))
    for at in (30, 45, 100, -80):
        same(outcome(sw.chebwin, 12, at), outcome(gw.chebwin, 12, at))
    same(sw.taylor(20, 3, 25, norm=False), gw.taylor(20, 3, 25, norm=False))
    same(sw.exponential(12, 3, 2.0, sym=False), gw.exponential(12, 3, 2.0, sym=False))
    with pytest.warns(UserWarning):
        gw.chebwin(10, 30)


@pytest.mark.parametrize("norm", [None, 2, "approximate", "subsample"])
@pytest.mark.parametrize("M", [9, 16])
def test_dpss(norm, M):
    for kmax in (None, 1, 4):
        for sym in (True, False):
            r = sw.dpss(M, 2.5, kmax, sym=sym, norm=norm, return_ratios=True)
            g = gw.dpss(M, 2.5, kmax, sym=sym, norm=norm, return_ratios=True)
            same(r[0], g[0])
            np.testing.assert_allclose(gp.asnumpy(gp.asarray(g[1])), r[1], rtol=1e-9)


def test_dpss_errors():
    for args in [(8, 4), (8, 0), (8, 2, 9), (8, 2, 0)]:
        same(outcome(sw.dpss, *args), outcome(gw.dpss, *args))
    same(outcome(sw.dpss, 8, 2, norm="bad"), outcome(gw.dpss, 8, 2, norm="bad"))
    same(outcome(sw.dpss, 1, 2), outcome(gw.dpss, 1, 2))


def test_kaiser_bessel_derived_errors():
    same(outcome(sw.kaiser_bessel_derived, 7, 3), outcome(gw.kaiser_bessel_derived, 7, 3))
    same(outcome(sw.kaiser_bessel_derived, 8, 3, sym=False),
         outcome(gw.kaiser_bessel_derived, 8, 3, sym=False))


@pytest.mark.parametrize("M", [-1, 2.5])
def test_bad_lengths(M):
    for name in ("hann", "kaiser", "exponential", "dpss"):
        args = PARAMS.get(name, ())
        same(outcome(getattr(sw, name), M, *args), outcome(getattr(gw, name), M, *args))
    same(outcome(sw.exponential, 5, 2), outcome(gw.exponential, 5, 2))


def test_get_window_every_name():
    from scipy.signal.windows._windows import _WIN_FUNC_DATA
    assert len(_WIN_FUNC_DATA) == 25
    for names, (fn, params) in _WIN_FUNC_DATA.items():
        for name in names:
            w = (name, *PARAMS[fn.__name__]) if params is True else name
            for fftbins in (True, False):
                same(outcome(sw.get_window, w, 12, fftbins),
                     outcome(gw.get_window, w, 12, fftbins))


@pytest.mark.parametrize("window", ["hann_symmetric", "hann_periodic", ("tukey", 0.2),
                                    ("hann", 3), "kaiser", ("dpss", 2, 3), "nope",
                                    ("exponential", None, 2.0), ("general_cosine", [1, 1])])
def test_get_window_forms(window):
    same(outcome(sw.get_window, window, 10), outcome(gw.get_window, window, 10))
