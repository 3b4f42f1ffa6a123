"""gpunp.scipy.signal's symmetric IIR filters and 2-d B-spline filters
against SciPy's: symiirorder1 (real and complex), symiirorder2 (including
the omega = 0 special case), cspline2d (interpolating and smoothing),
qspline2d, sepfir2d, spline_filter and firwin_2d, in float32, float64 and
complex128, and the errors of bad input (including SciPy's boundary sums
that do not converge)."""

from __future__ import annotations

import numpy as np
import scipy.signal as ss

import gpunp as gp
import gpunp.scipy.signal as gs
from property.signal_compare import outcome, same

RNG = np.random.default_rng(11)
def data(shape, dt):
    x = RNG.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        x = x + 1j * RNG.standard_normal(shape)
    return x.astype(dt)


def test_symiirorder_and_splines():
    x = data((4, 41), np.float64)
    same(gs.symiirorder1(gp.asarray(x), 0.5, 0.3), ss.symiirorder1(x, 0.5, 0.3), 1e-12)
    same(gs.symiirorder1(gp.asarray(x[0]), -1.5, -0.6, 1e-4),
         ss.symiirorder1(x[0], -1.5, -0.6, 1e-4), 1e-12)
    same(gs.symiirorder2(gp.asarray(x), 0.5, 0.3), ss.symiirorder2(x, 0.5, 0.3), 1e-12)
    for omega in (0.0, np.pi):  # SciPy's special cases of the impulse response
        same(gs.symiirorder2(gp.asarray(x[1]), 0.3, omega), ss.symiirorder2(x[1], 0.3, omega),
             1e-12)
    img = data((12, 17), np.float64)
    same(gs.cspline2d(gp.asarray(img)), ss.cspline2d(img), 1e-12)
    same(gs.cspline2d(gp.asarray(img), 0.1), ss.cspline2d(img, 0.1), 1e-12)
    same(gs.qspline2d(gp.asarray(img)), ss.qspline2d(img), 1e-12)
    same(gs.sepfir2d(gp.asarray(img), [1, 2, 3.0, 4, 5], [1, -1, 0.5]),
         ss.sepfir2d(img, [1, 2, 3.0, 4, 5], [1, -1, 0.5]), 1e-12)
    same(gs.spline_filter(gp.asarray(img), 0.1), ss.spline_filter(img, 0.1), 1e-12)


def test_single_and_complex():
    # each dtype through each kind of pass, not every function in every dtype
    # (a new dtype compiles its own kernels)
    img = data((12, 17), np.float32)
    same(gs.cspline2d(gp.asarray(img)), ss.cspline2d(img), 2e-6)
    row = data(41, np.float32)
    same(gs.symiirorder2(gp.asarray(row), 0.5, 0.3), ss.symiirorder2(row, 0.5, 0.3), 2e-6)
    z = data((4, 41), np.complex128)
    same(gs.symiirorder1(gp.asarray(z), 1 - 1j, 0.3 + 0.2j), ss.symiirorder1(z, 1 - 1j, 0.3 + 0.2j),
         1e-12)
    zimg = data((12, 17), np.complex128)
    same(gs.qspline2d(gp.asarray(zimg)), ss.qspline2d(zimg), 1e-12)
    same(gs.sepfir2d(gp.asarray(zimg), [1, 2, 3.0], [1, -1, 0.5]),
         ss.sepfir2d(zimg, [1, 2, 3.0], [1, -1, 0.5]), 1e-12)
    same(outcome(gs.symiirorder2, gp.asarray(z), 0.5, 0.3), outcome(ss.symiirorder2, z, 0.5, 0.3))


def test_long_and_default_smoothing():
    img = data((70, 80), np.float64)
    same(gs.spline_filter(gp.asarray(img)), ss.spline_filter(img))
    same(gs.cspline2d(gp.asarray(img), 1.0, 1e-3), ss.cspline2d(img, 1.0, 1e-3))
    same(gs.sepfir2d(gp.asarray(np.arange(20).reshape(4, 5)), [1, 2, 3.0], [1]),
         ss.sepfir2d(np.arange(20).reshape(4, 5), [1, 2, 3.0], [1]))


def test_firwin_2d():
    same(gs.firwin_2d((5, 7), ("hamming", "hann"), fc=0.3),
         ss.firwin_2d((5, 7), ("hamming", "hann"), fc=0.3))
    same(gs.firwin_2d((9, 6), "hamming", fc=0.3, circular=True),
         ss.firwin_2d((9, 6), "hamming", fc=0.3, circular=True))
    same(gs.firwin_2d((5, 5), ("boxcar", ("kaiser", 5.0)), fc=[100, 300], fs=1000),
         ss.firwin_2d((5, 5), ("boxcar", ("kaiser", 5.0)), fc=[100, 300], fs=1000))
    for args, kw in [(((5,), "hamming"), {"fc": 0.3}), (((5, 5), "hamming"), {"circular": True}),
                     (((5, 5), ("hann",)), {"fc": 0.3})]:
        same(outcome(gs.firwin_2d, *args, **kw), outcome(ss.firwin_2d, *args, **kw))


def test_errors():
    x = data((3, 30), np.float64)
    img = data((12, 17), np.float64)
    cases = [("symiirorder1", (x, 1.0, 1.0)), ("symiirorder1", (x[:, :1], 1.0, 0.5)),
             ("symiirorder1", (x.reshape(3, 5, 6), 1.0, 0.5)),
             ("symiirorder1", (x[:, :4], 1.0, 0.9)),
             ("symiirorder2", (x, 1.0, 0.3)), ("symiirorder2", (x.reshape(3, 5, 6), 0.5, 0.3)),
             ("symiirorder2", (x[:, :5], 0.9, 0.3)), ("cspline2d", (img, 1.0)),
             ("qspline2d", (img, 1.0)), ("sepfir2d", (img, [1, 2], [1])),
             ("sepfir2d", (img, [1], [1, 2, 3, 4])), ("sepfir2d", (img[0], [1], [1])),
             ("sepfir2d", (img[None], [1], [1])), ("spline_filter", (img.astype(int),)),
             ("spline_filter", (img,))]
    for name, args in cases:
        ga = (gp.asarray(args[0]),) + args[1:]
        same(outcome(getattr(gs, name), *ga), outcome(getattr(ss, name), *args))
