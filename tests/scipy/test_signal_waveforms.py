"""gpunp.scipy.signal's waveforms against SciPy's: sawtooth and square
over their parameter's range (NaN outside), every chirp method, gausspulse's
outputs and cutoff, sweep_poly, unit_impulse's index forms, and
max_len_seq for every register length with default and custom taps."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.signal as ss

import gpunp as gp
import gpunp.scipy.signal as gs

T = np.linspace(-12, 12, 97)


def outcome(f, *a, **k):
    try:
        return f(*a, **k)
    except Exception as e:  # noqa: BLE001 - the kind of error is compared
        return e


def same(g, r):
    if isinstance(r, Exception):
        assert type(g) is type(r) and str(g) == str(r), (g, r)
        return
    if isinstance(r, tuple):
        for gg, rr in zip(g, r, strict=True):
            same(gg, rr)
        return
    g = gp.asnumpy(gp.asarray(g))
    r = np.asarray(r)
    assert g.shape == r.shape and g.dtype == r.dtype, (g.shape, r.shape, g.dtype, r.dtype)
    np.testing.assert_allclose(g, r, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", ["sawtooth", "square"])
def test_periodic(name):
    for w in (0, 0.25, 0.5, 1, 1.5, -0.2):
        same(getattr(gs, name)(gp.asarray(T), w), getattr(ss, name)(T, w))
    w = np.linspace(-0.5, 1.5, T.size)  # a width per sample, broadcast
    same(getattr(gs, name)(gp.asarray(T), gp.asarray(w)), getattr(ss, name)(T, w))
    same(getattr(gs, name)(gp.asarray(T.astype(np.float32))), getattr(ss, name)(
        T.astype(np.float32)))
    # the result dtype: float64 before SciPy 1.18, promoted from t and w after
    t32, ti = T.astype(np.float32), np.arange(9)
    for t, w in ((t32, np.float64(0.5)), (t32, w.astype(np.float32)), (ti, 0.5)):
        same(getattr(gs, name)(gp.asarray(t), gp.asarray(w) if isinstance(w, np.ndarray) else w),
             getattr(ss, name)(t, w))


@pytest.mark.parametrize("method", ["linear", "quadratic", "logarithmic", "hyperbolic",
                                    "lin", "q", "log", "hyp"])
def test_chirp(method):
    t = np.linspace(0, 10, 101)
    for vz in (True, False):
        for cplx in (False, True):
            same(gs.chirp(gp.asarray(t), 6, 10, 1, method, 45, vz, complex=cplx),
                 ss.chirp(t, 6, 10, 1, method, 45, vz, complex=cplx))
    same(gs.chirp(gp.asarray(t), 2, 10, 2, method), ss.chirp(t, 2, 10, 2, method))


def test_chirp_errors():
    for args in [(1, 5, -1, "log"), (0, 5, 1, "hyp"), (1, 5, 2, "nope")]:
        same(outcome(gs.chirp, gp.asarray(T), *args), outcome(ss.chirp, T, *args))


def test_gausspulse():
    t = np.linspace(-1e-3, 1e-3, 51)
    for quad in (False, True):
        for env in (False, True):
            same(gs.gausspulse(gp.asarray(t), 5000, 0.4, -3, retquad=quad, retenv=env),
                 ss.gausspulse(t, 5000, 0.4, -3, retquad=quad, retenv=env))
    assert gs.gausspulse("cutoff", 3000, tpr=-40) == ss.gausspulse("cutoff", 3000, tpr=-40)
    for kw in [{"fc": -1}, {"bw": 0}, {"bwr": 1}]:
        same(outcome(gs.gausspulse, gp.asarray(t), **kw), outcome(ss.gausspulse, t, **kw))
    same(outcome(gs.gausspulse, "cutoff", tpr=1), outcome(ss.gausspulse, "cutoff", tpr=1))
    same(outcome(gs.gausspulse, "nope"), outcome(ss.gausspulse, "nope"))


def test_sweep_poly():
    for poly in ([0.5, -1, 2], np.poly1d([0.025, -0.36, 1.25, 2.0]), [3.0]):
        same(gs.sweep_poly(gp.asarray(T), poly, 30), ss.sweep_poly(T, poly, 30))


@pytest.mark.parametrize("shape,idx", [(7, None), (7, 3), ((3, 4), None), ((3, 4), "mid"),
                                       ((3, 4), 2), ((3, 4), (2, 3)), ((2, 3, 4), (1, 0, 2))])
def test_unit_impulse(shape, idx):
    same(gs.unit_impulse(shape, idx), ss.unit_impulse(shape, idx))
    same(gs.unit_impulse(shape, idx, dtype=np.complex64),
         ss.unit_impulse(shape, idx, dtype=np.complex64))


@pytest.mark.parametrize("nbits", range(2, 17))
def test_max_len_seq(nbits):
    same(gs.max_len_seq(nbits), ss.max_len_seq(nbits))
    state = np.arange(nbits) % 3 == 0
    for length in (0, 1, 2 * nbits + 1):
        for taps in (None, [nbits - 1, 1], [0], [nbits]):
            same(gs.max_len_seq(nbits, state, length, taps),
                 ss.max_len_seq(nbits, state, length, taps))


def test_max_len_seq_errors():
    for args in [(1,), (33,), (4, [0, 0, 0, 0]), (4, [1, 1]), (4, None, -1), (4, None, 5, [5]),
                 (4, None, 5, [])]:
        same(outcome(gs.max_len_seq, *args), outcome(ss.max_len_seq, *args))
