"""gpunp.scipy.signal's Savitzky-Golay, median, order and Wiener filters
against SciPy's: odd and even windows, every derivative up to past the
polynomial order, every boundary mode, both axes, float32 and integers."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.signal as ss

import gpunp as gp
import gpunp.scipy.signal as gs
from property.signal_compare import outcome, same

RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 17))
IM = RNG.standard_normal((6, 7))


@pytest.mark.parametrize("wl,po", [(5, 2), (7, 3), (6, 2), (4, 3), (3, 0), (9, 4), (3, 3)])
def test_savgol_coeffs(wl, po):
    for deriv in (0, 1, 2, 5):
        for pos in (None, 0, 2, 9):
            for use in ("conv", "dot", "nope"):
                same(outcome(gs.savgol_coeffs, wl, po, deriv, 1.5, pos, use),
                     outcome(ss.savgol_coeffs, wl, po, deriv, 1.5, pos, use))


@pytest.mark.parametrize("wl,po", [(5, 2), (6, 2), (4, 3), (17, 5), (18, 3)])
@pytest.mark.parametrize("mode", ["interp", "mirror", "constant", "nearest", "wrap", "nope"])
def test_savgol_filter(wl, po, mode):
    for deriv in (0, 1, 3):
        same(outcome(gs.savgol_filter, gp.asarray(X), wl, po, deriv, 0.5, -1, mode, 1.5),
             outcome(ss.savgol_filter, X, wl, po, deriv, 0.5, -1, mode, 1.5), 1e-8)
    same(outcome(gs.savgol_filter, gp.asarray(X.T), wl, po, 1, 1.0, 0, mode),
         outcome(ss.savgol_filter, X.T, wl, po, 1, 1.0, 0, mode), 1e-8)


def test_savgol_dtypes():
    same(gs.savgol_filter(gp.asarray(X.astype(np.float32)), 5, 2),
         ss.savgol_filter(X.astype(np.float32), 5, 2), 1e-5)
    same(gs.savgol_filter(gp.arange(20), 5, 2), ss.savgol_filter(np.arange(20), 5, 2))


@pytest.mark.parametrize("ks", [None, 3, [3, 5], [1, 3], [9, 1], 4])
def test_medfilt(ks):
    same(outcome(gs.medfilt, gp.asarray(IM), ks), outcome(ss.medfilt, IM, ks))
    same(outcome(gs.medfilt2d, gp.asarray(IM), ks), outcome(ss.medfilt2d, IM, ks))
    i32 = (IM * 10).astype(np.int32)
    same(outcome(gs.medfilt, gp.asarray(i32), ks), outcome(ss.medfilt, i32, ks))
    u8 = (IM * 10 + 50).astype(np.uint8)
    same(outcome(gs.medfilt2d, gp.asarray(u8), ks), outcome(ss.medfilt2d, u8, ks))
    f32 = IM.astype(np.float32)
    same(outcome(gs.medfilt2d, gp.asarray(f32), ks), outcome(ss.medfilt2d, f32, ks))


def test_medfilt_other_shapes_and_dtypes():
    same(gs.medfilt(gp.asarray(X[0]), 5), ss.medfilt(X[0], 5))
    v3 = RNG.standard_normal((3, 4, 5))
    same(gs.medfilt(gp.asarray(v3)), ss.medfilt(v3))
    same(outcome(gs.medfilt, gp.asarray(IM + 1j)), outcome(ss.medfilt, IM + 1j))
    same(gs.medfilt2d(gp.asarray(IM.astype(np.int16))), ss.medfilt2d(IM.astype(np.int16)))


@pytest.mark.parametrize("rank", [0, 2, 4, 5, -1])
def test_order_filter(rank):
    dom = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]])
    same(outcome(gs.order_filter, gp.asarray(IM), gp.asarray(dom), rank),
         outcome(ss.order_filter, IM, dom, rank))
    same(gs.order_filter(gp.asarray(X[0]), np.ones(5), 1), ss.order_filter(X[0], np.ones(5), 1))
    same(outcome(gs.order_filter, gp.asarray(X[0]), np.ones(4), 1),
         outcome(ss.order_filter, X[0], np.ones(4), 1))


@pytest.mark.parametrize("mysize", [None, 3, [3, 5]])
@pytest.mark.parametrize("noise", [None, 0.5])
def test_wiener(mysize, noise):
    same(gs.wiener(gp.asarray(IM), mysize, noise), ss.wiener(IM, mysize, noise))


@pytest.mark.parametrize("n", [1, 2, 3, 10, 31])
def test_splines(n):
    x = np.random.default_rng(n).standard_normal(n)
    same(outcome(gs.cspline1d, gp.asarray(x)), outcome(ss.cspline1d, x))
    same(outcome(gs.qspline1d, gp.asarray(x)), outcome(ss.qspline1d, x))
    same(outcome(gs.qspline1d, gp.asarray(x), 1.0), outcome(ss.qspline1d, x, 1.0))
    if n > 2:
        for lam in (0.5, 2.0):
            same(gs.cspline1d(gp.asarray(x), lam), ss.cspline1d(x, lam))
    if n == 1:
        return  # SciPy's evaluation recurses forever mirroring about 0 and N - 1 = 0
    nx = np.linspace(-3, n + 3, 57)
    cj, qj = ss.cspline1d(x), ss.qspline1d(x)
    same(gs.cspline1d_eval(gp.asarray(cj), gp.asarray(nx)), ss.cspline1d_eval(cj, nx))
    same(gs.qspline1d_eval(gp.asarray(qj), gp.asarray(nx), 0.5, -1),
         ss.qspline1d_eval(qj, nx, 0.5, -1))


def test_gauss_spline():
    x = np.linspace(-3, 3, 11)
    for n in (0, 3):
        same(gs.gauss_spline(gp.asarray(x), n), ss.gauss_spline(x, n))
