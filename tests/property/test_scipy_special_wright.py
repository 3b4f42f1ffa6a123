"""gpunp.scipy.special's wright_bessel and log_wright_bessel against SciPy's.

Phi(a, b, x) = sum_k x^k / (k! Gamma(a k + b)) is a sum of positive terms
(a, b, x >= 0), so the series itself, every term of a window about the
largest summed in NumPy's float64 (``_series``), is a judge that needs no
method of SciPy's or gpunp's. Its error, and gpunp's, is the rounding of
the terms' exponents k log x - log Gamma(k + 1) - log Gamma(a k + b), which
are each about as large as ``E`` below (the peak's k log x is also the
function's condition number in x): the allowance is ``PER_E`` times E times
eps on log Phi, plus a few ULPs.

SciPy's own value is within 1e-11 of the series over most of the domain,
but its integral representation (Luchko's, by Gauss-Laguerre quadrature)
is far off at large b and x: log_wright_bessel(0.024, 24.25, 5212.2) is
SciPy's 4749.43, the series' 4650.90 (and gpunp's); log_wright_bessel(0.893,
37.6, 84583) SciPy's 925.4, the series' 577.9 (wright_bessel: SciPy's inf,
the series' 1.0e251); between a = 0.5 and 1.8 from b = 100 and x = 1e5
SciPy gives NaN, or -inf (wright_bessel(0.2300346, 41.68014, 8173.939), a
sum of positive terms past the doubles); and its e^x / Gamma(b) at a = 0 overflows before the
quotient does (wright_bessel(0, 1e-300, 720): SciPy's inf, 4.9e12). So each point is compared with
SciPy where SciPy agrees with the series to ``SCIPY_RTOL`` (the accuracy
SciPy's sources claim, 1e-11 to 1e-8 by region) and with the series
everywhere. Past x = 1e5 (the series' window grows as sqrt(x)) the values
are held to Wright's recurrence a x Phi(a, a + b, x) + (b - 1) Phi(a, b, x)
= Phi(a, b - 1, x) (every term positive for b >= 1) and to SciPy where it
takes its asymptotic expansion (a below 5, x large against b^2).

Each hypothesis example is one seed for a few hundred points in one array:
one kernel per function and dtype."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import scipy.special as ss
from hypothesis import given, settings, strategies as st
from scipy.special import gammaln

import gpunp as gp
import gpunp.scipy.special as sp

SEEDS = st.integers(0, 2**32 - 1)
EPS = np.finfo(np.float64).eps
# log Phi's allowed error in units of E eps (gpunp's and the series' rounding
# of exponents of size E; measured: up to 2.7)
PER_E = 8
# SciPy's accuracy where its methods hold (xsf's wright_bessel.h: 1e-11 for the
# series and the small-a expansion, down to 1e-8 for the asymptotic one)
SCIPY_RTOL = 1e-8
# ... and for its asymptotic expansion near a = 5, where its sources say 1e-7
# (log_wright_bessel(4.848989413474615, 2.0380842772839904, 14645145.978412498):
# SciPy 19.98231515, the series and gpunp 19.98231340)
SCIPY_ASYMPTOTIC_RTOL = 1e-7
NAMES = ("wright_bessel", "log_wright_bessel")


def _scipy(name, *args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return getattr(ss, name)(*args)


def _gpunp(name, *args):
    return getattr(sp, name)(*[gp.asarray(v) for v in args]).get()


def _series(a, b, x):
    """(log Phi, E) by the series: the largest term's index by bisection on
    the ratio of successive terms (it falls with k: log Gamma is convex),
    then every term within 14 sqrt(k + 1) + 60 of it, relative to the
    largest; the window's end terms must be below 1e-18 of the sum"""
    a, b, x = (np.asarray(v, np.float64) for v in np.broadcast_arrays(a, b, x))
    with np.errstate(all="ignore"):
        lx = np.log(x)

        def rises(k):  # term k + 1 above term k
            return lx - np.log(k + 1) - (gammaln(a * (k + 1) + b) - gammaln(a * k + b)) > 0
        lo, hi = np.zeros_like(x), np.ceil(x) + 2
        for _ in range(int(np.log2(np.max(hi, initial=2))) + 2):
            mid = np.floor((lo + hi) / 2)
            up = rises(mid)
            lo, hi = np.where(up, mid + 1, lo), np.where(up, hi, mid)
        k0 = lo
        # the windows' widths, rows of like widths together
        width = (14 * np.sqrt(k0 + 1)).astype(np.int64) + 60
        out = np.empty_like(x)
        order = np.argsort(width)
        for rows in np.array_split(order, max(1, len(order) // 64)):
            w = int(width[rows].max())
            k = k0[rows, None] + np.arange(-w, w + 1)[None, :]
            a2, b2, lx2 = a[rows, None], b[rows, None], lx[rows, None]
            lt = np.where(k >= 0, k * lx2 - gammaln(k + 1) - gammaln(a2 * k + b2), -np.inf)
            lt = np.where((k == 0) & (x[rows, None] == 0), -gammaln(b2), lt)
            top = np.max(lt, axis=1)
            top = np.where(np.isfinite(top), top, 0.0)  # Phi(a, 0, 0) = 0: every term 0
            rel = np.exp(lt - top[:, None])
            s = rel.sum(axis=1)
            assert np.all((rel[:, 0] <= 1e-18 * s) | (k[:, 0] < 0))
            assert np.all(rel[:, -1] <= 1e-18 * s)
            out[rows] = top + np.log(s)
        kk = np.where(x == 0, 0.0, k0)
        size = 1 + np.abs(kk * np.where(x == 0, 0, lx)) + gammaln(kk + 1) + np.abs(gammaln(a * kk + b))
        return out, size


def _check(what, got, ref, allowed, args):
    """|got - ref| <= allowed, or both the same NaN/inf/0"""
    with np.errstate(all="ignore"):
        err = np.abs(got - ref)
    bad = ~(err <= allowed) & ~((got == ref) | (np.isnan(got) & np.isnan(ref)))
    if bad.any():
        i = np.flatnonzero(bad)[0]
        raise AssertionError(f"{what}{tuple(float(v[i]) for v in args)}: gpunp {got[i]!r}, "
                             f"reference {ref[i]!r}, off {err[i]:.3g} > {allowed[i]:.3g}")


def _against_series_and_scipy(a, b, x):
    """both functions at (a, b, x) (float64 arrays, x <= 1e5) against the
    series everywhere and against SciPy where SciPy agrees with the series"""
    ref, size = _series(a, b, x)
    tol_log = PER_E * size * EPS
    for name in NAMES:
        got = _gpunp(name, a, b, x)
        sc = _scipy(name, a, b, x)
        with np.errstate(all="ignore"):
            want = ref if name == "log_wright_bessel" else np.exp(ref)
            # on the log: absolute; on Phi: relative (plus Phi's subnormal spacing)
            allowed = (tol_log + 4 * EPS * np.abs(ref) if name == "log_wright_bessel"
                       else (tol_log + 4 * EPS) * np.abs(want) + 4 * 2.0**-1074)
            _check(f"{name} (series)", got, want, allowed, (a, b, x))
            floor = 1.0 if name == "log_wright_bessel" else 0.0
            sc_ok = np.isfinite(want) & (np.abs(sc - want) <= SCIPY_RTOL * np.maximum(np.abs(want), floor))
            sc_ok |= (sc == want)
            _check(f"{name} (SciPy)", np.where(sc_ok, got, sc), sc,
                   allowed + SCIPY_RTOL * np.abs(sc), (a, b, x))


def _draw(rng, n):
    """a, b in [0, 5] and [0, 50] uniformly, and log-uniformly from 1e-10 to
    178 (SciPy's NaN from 178.47, where its 1 / Gamma(a k + b) underflows);
    x log-uniform in [1e-6, 1e5]; some exact zeros of each"""
    def mix(top):
        v = np.where(rng.random(n) < 0.5, rng.uniform(0, top, n), 10 ** rng.uniform(-10, 2.25, n))
        return np.where(rng.random(n) < 0.04, 0.0, v)
    x = np.where(rng.random(n) < 0.03, 0.0, 10 ** rng.uniform(-6, 5, n))
    return mix(5.0), mix(50.0), x


@settings(max_examples=10, deadline=None)
@given(SEEDS)
def test_matches_series_and_scipy(seed):
    rng = np.random.default_rng(seed)
    _against_series_and_scipy(*_draw(rng, 300))


def test_float32_loops():
    """SciPy's float loops compute in double and round once: gpunp's give
    float32 of its double value, within 2 float32 ULPs of SciPy's where
    SciPy's double is within SCIPY_RTOL of gpunp's"""
    rng = np.random.default_rng(7)
    a, b, x = (v.astype(np.float32) for v in _draw(rng, 2000))
    for name in NAMES:
        got = _gpunp(name, a, b, x)
        assert got.dtype == np.float32
        got64 = _gpunp(name, *(v.astype(np.float64) for v in (a, b, x)))
        with np.errstate(all="ignore"):
            np.testing.assert_array_equal(got, got64.astype(np.float32))
            sc = _scipy(name, a, b, x)
            assert sc.dtype == np.float32
            sc64 = _scipy(name, *(v.astype(np.float64) for v in (a, b, x)))
            ok = np.isfinite(got64) & (np.abs(sc64 - got64) <= SCIPY_RTOL * np.abs(got64))
            ok |= (sc64 == got64)
            spacing = np.spacing(np.abs(sc).astype(np.float32)).astype(np.float64)
            _check(f"{name} float32", np.where(ok, got, sc).astype(np.float64), sc.astype(np.float64),
                   2 * spacing, (a, b, x))


# SciPy's NaN from a or b = LAST on (where its 1 / Gamma(a k + b) is 0)
LAST = 178.47241115886637
# arguments at and past SciPy's edges: NaN, signed zeros, negatives, SciPy's
# NaN from 178.47 on, infinities, x past e^709.78
EDGES_AB = [np.nan, -np.inf, -1.0, -0.0, 0.0, 1e-300, 1e-8, 0.5, 1.0, 2.5, 7.0, 50.0, 178.47,
            178.48, 1e3, np.inf]
EDGES_X = [np.nan, -np.inf, -1.0, -0.0, 0.0, 5e-324, 1e-300, 0.5, 1.0, 30.0, 700.0, 720.0,
           1e5, np.inf]


def test_edges():
    """every combination of the edge values: SciPy's NaN, inf and 0 where
    it gives them, the series' values elsewhere. One SciPy value is not
    its function's: wright_bessel(0, 0, x) = e^x / Gamma(0) = 0, which
    SciPy gives as NaN once its e^x overflows (x = 720: inf times 0);
    gpunp gives 0, log_wright_bessel -inf (SciPy's too)."""
    a, b, x = (np.array(v) for v in zip(*itertools.product(EDGES_AB, EDGES_AB, EDGES_X)))
    inside = (a >= 0) & (b >= 0) & (x >= 0) & (a < LAST) & (b < LAST) & np.isfinite(x)
    inside &= np.isfinite(a) & np.isfinite(b)
    for name in NAMES:
        got = _gpunp(name, a, b, x)
        sc = _scipy(name, a, b, x)
        scipy_nan_at_zero = ((name == "wright_bessel") & (a == 0) & (b == 0) & (x > 709.78)
                             & np.isfinite(x))
        np.testing.assert_array_equal(got[scipy_nan_at_zero], 0.0)
        assert np.isnan(sc[scipy_nan_at_zero]).all()
        keep = ~inside & ~scipy_nan_at_zero
        np.testing.assert_array_equal(got[keep], sc[keep])
    ai, bi, xi = a[inside], b[inside], x[inside]
    _against_series_and_scipy(ai, bi, xi)


@settings(max_examples=8, deadline=None)
@given(SEEDS)
def test_large_x(seed):
    """x log-uniform in [1e5, 1.6e308]: log_wright_bessel held to Wright's
    recurrence (b >= 1, every term positive) to PER_E eps of the largest of
    its logs times log x (E's size there), and to SciPy's
    asymptotic expansion (a < 5, (a x)^(1/(1+a)) >= 14 + b^2 / (2 (1 + a)),
    SciPy's region for it, a x a double) within SCIPY_ASYMPTOTIC_RTOL"""
    rng = np.random.default_rng(seed)
    n = 300
    a = np.where(rng.random(n) < 0.5, rng.uniform(0, 5, n), 10 ** rng.uniform(-8, 2, n))
    b = 1 + rng.uniform(0, 50, n)
    x = 10 ** rng.uniform(5, 308.2, n)
    three = _gpunp("log_wright_bessel", np.concatenate([a, a, a]),
                   np.concatenate([b - 1, a + b, b]), np.concatenate([x, x, x]))
    lo, up, mid = three[:n], three[n:2 * n], three[2 * n:]
    with np.errstate(divide="ignore"):
        rhs = np.logaddexp(np.log(a) + np.log(x) + up, np.log(b - 1) + mid)
    # the terms' exponents are up to log x times the logs themselves (k log x
    # against log Phi ~ k at a small a)
    big = np.maximum.reduce([np.abs(lo), np.abs(up), np.abs(mid)])
    _check("wright recurrence (relative to the largest log)", lo / big, rhs / big,
           PER_E * EPS * np.log(x), (a, b, x))
    with np.errstate(over="ignore"):
        z = np.exp((np.log(a) + np.log(x)) / (1 + a))
        # (where a x is a double: SciPy's NaN past it)
        asym = (a < 5) & (z >= 14 + b * b / (2 * (1 + a))) & np.isfinite(a * x)
    sc = _scipy("log_wright_bessel", a[asym], b[asym], x[asym])
    _check("log_wright_bessel (SciPy asymptotic)", mid[asym], sc,
           SCIPY_ASYMPTOTIC_RTOL * np.abs(sc), (a[asym], b[asym], x[asym]))


def test_far_values():
    """points where SciPy's value is not its function's, judged by the
    series summed over k = 0 ... 2e5 (every peak here is below 1.1e5):
    log_wright_bessel(50, 1, 1e308) (SciPy's large-a series: 1205383.37,
    the series 1205384.04), (178.4, 178.4, 1e308) (SciPy -744.44, the series
    -744.758), (3, 0, 5e-324) (SciPy's log of an underflowed sum: -inf),
    (1e-300, 0, 1e5) (SciPy's expansion in a: 100002.6, the series 99320.74,
    x + log(a x)); and wright_bessel(1e-300, 0, 1e5) overflows as SciPy's"""
    a = np.array([50.0, 178.4, 3.0, 1e-300])
    b = np.array([1.0, 178.4, 0.0, 0.0])
    x = np.array([1e308, 1e308, 5e-324, 1e5])
    k = np.arange(0, 2e5)[None, :]
    with np.errstate(all="ignore"):
        lt = k * np.log(x)[:, None] - gammaln(k + 1) - gammaln(a[:, None] * k + b[:, None])
        top = lt.max(axis=1)
        ref = top + np.log(np.exp(lt - top[:, None]).sum(axis=1))
        kk = np.argmax(lt, axis=1).astype(np.float64)
        size = 1 + np.abs(kk * np.log(x)) + gammaln(kk + 1) + np.abs(gammaln(a * kk + b))
    got = _gpunp("log_wright_bessel", a, b, x)
    _check("log_wright_bessel", got, ref, PER_E * size * EPS + 4 * EPS * np.abs(ref), (a, b, x))
    assert _gpunp("wright_bessel", a[3:], b[3:], x[3:])[0] == np.inf
