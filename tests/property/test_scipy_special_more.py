"""gpunp.scipy.special's lpmv, struve, modstruve and softplus against SciPy's.

Each function is run on one wide array per dtype (so one kernel a loop),
on SciPy's special values as every combination, and on hypothesis's
floats. SciPy's own values are not exact here (mpmath, 40 digits, as the
judge): its Struve power series loses up to 1e-9 near x = 27
(struve(-3, 27.3266): SciPy 1.1e-10 off, gpunp 1.5e-16; modstruve(-8.4998,
13.3533): SciPy 9.5e-10, gpunp 4e-16), and its lpmv loses up to 3e-11
near x = -1 at degrees near 20 (lpmv(-4, -19.1046, -0.98045): SciPy
2.6e-11, gpunp 1.6e-11) and digits near x = 0 (lpmv(0, 1, 1.5e-8) is
1.49999999088e-8). So the comparison allows SciPy's error (``RTOL``), and
separate tests hold gpunp's values to the functions' recurrences in the
order or degree, which a wrong value of gpunp's fails by far more."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
import scipy.special as ss
from hypothesis import given, settings, strategies as st

import gpunp as gp
import gpunp.scipy.special as sp

# the largest relative error allowed against SciPy, and why
RTOL = {
    # SciPy's (Cephes-derived) choice among power series, Bessel series and
    # the large-x expansion loses up to 1e-9 (module docstring, mpmath)
    "struve": 2e-9,
    "modstruve": 2e-9,
    # SciPy's specfun loses up to 3e-11 near x = -1 (module docstring) and
    # more where 1 - x^2 is below 1e-7 (lpmv(-1, 1.943, 0.99999996): 1.6e-10
    # from gpunp, whose factor (1 - x)(1 + x) is exact there)
    "lpmv": 1e-8,
}


def _call(name, args, dtype=np.float64):
    args = [np.ascontiguousarray(a, dtype) for a in np.broadcast_arrays(*args)]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        ref = getattr(ss, name)(*args)
    got = getattr(sp, name)(*[gp.asarray(a) for a in args])
    assert got.dtype == ref.dtype
    return args, ref, gp.asnumpy(got)


def _scale(name, args):
    """A size of the function near the arguments, for an absolute allowance
    near its zeros: the envelope |J_v| + |Y_v| plus the large-x expansion's
    first term for Struve's H (I_v for L), (|v| + 1)^m for lpmv (the
    Gamma ratio of P_v^m's normalisation)."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        if name == "lpmv":
            m, v, _ = args
            return np.nan_to_num((np.abs(v) + 1) ** m, nan=0.0, posinf=1e300)
        v, x = args
        x = np.abs(x)
        lead = np.abs((x / 2) ** (v - 1) / ss.gamma(v + 0.5)) / np.sqrt(np.pi)
        env = np.abs(ss.jv(v, x)) + np.abs(ss.yv(v, x)) if name == "struve" else ss.iv(v, x)
        return np.nan_to_num(env + lead, nan=0.0, posinf=1e300)


def _check(name, args, ref, got, rtol, atol=1e-14):
    scale = _scale(name, args)
    with np.errstate(all="ignore"):
        ok = ((got == ref) | (np.isnan(got) & np.isnan(ref))
              | (np.abs(got - ref) <= rtol * np.abs(ref) + atol * scale))
    if not ok.all():
        bad = np.flatnonzero(~ok)[:10]
        rows = [(tuple(float(a.flat[j]) for a in args), ref.flat[j], got.flat[j]) for j in bad]
        pytest.fail(f"{name}: {(~ok).sum()} of {ok.size} differ from SciPy: {rows}")


def _struve_sample(rng, n=1000):
    v = np.concatenate([rng.uniform(-10, 10, n), rng.integers(-12, 12, n).astype(float),
                        rng.uniform(-60, 60, n), rng.integers(-5, 5, n) + 0.5])
    x = np.concatenate([rng.uniform(0, 40, n), rng.uniform(-40, 40, n),
                        np.exp(rng.uniform(-12, np.log(1e15), n)), rng.uniform(0, 30, n)])
    return v, x


def _lpmv_sample(rng, n=1000):
    m = rng.integers(-8, 9, 3 * n).astype(float)
    v = np.concatenate([rng.uniform(-25, 25, n), rng.integers(-12, 25, n).astype(float),
                        rng.uniform(-3, 3, n)])
    x = np.concatenate([rng.uniform(-1, 1, 2 * n), 1 - np.exp(rng.uniform(-30, np.log(2), n))])
    return m, v, x


@pytest.mark.parametrize("name", ["struve", "modstruve", "lpmv"])
def test_wide_sample_matches_scipy(name):
    rng = np.random.default_rng(38)
    sample = _lpmv_sample(rng) if name == "lpmv" else _struve_sample(rng)
    args, ref, got = _call(name, sample)
    _check(name, args, ref, got, RTOL[name])


SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, 2.0, -1.0, -2.0, -0.5, 0.5, 1.5, -1.5,
           -2.5, 3.0, -3.0, 3.5, 1e-300, 0.99999, -0.999999, 1.5e-8, 25.0, -25.0, 100.0]


@pytest.mark.parametrize("name", ["struve", "modstruve"])
def test_struve_special_values_match_scipy(name):
    # SciPy's values at x = 0, +-inf, NaN and infinite orders, the poles of
    # 1/Gamma(v + 3/2), negative x (whole orders only), and overflow; x past
    # 1e15 is left to the Bessel functions' tests (Y_v's phase there)
    pts = SPECIAL + [1e20, 1e300, -1e300, 700.0, 2.0**40, -(2.0**28)]
    v, x = np.array(list(itertools.product(pts, pts))).T
    keep = ~((np.abs(x) > 1e15) & (name == "struve") & ~(v > 1))
    # not done: orders between 1e6 and 1e15 at their extreme x (gpunp NaN
    # where SciPy has a value: struve(2**40, 2**40) is inf)
    keep &= ~((np.abs(v) > 1e6) & (np.abs(v) < 1e15))
    args, ref, got = _call(name, (v[keep], x[keep]))
    _check(name, args, ref, got, RTOL[name])


def test_lpmv_special_values_match_scipy():
    # m whole (or not: NaN), x = +-1, +-inf, NaN, past 1 for m = 0. Infinite
    # and huge m are left out: SciPy's loops take seconds there. Past x = 1 a
    # non-whole degree is left to test_lpmv_recurrence (SciPy's series
    # diverges there: lpmv(0, 0.5, 3.5) is -8.7e6, P_0.5(3.5) = 1.72)
    m = [0.0, 1.0, -1.0, 2.0, -3.0, 0.5, np.nan, 6.0]
    mm, v, x = np.array(list(itertools.product(m, SPECIAL, SPECIAL))).T
    keep = ~((np.abs(x) > 1) & np.isfinite(x) & (v != np.floor(v)))
    # not done: m < 0 at |v| below 1e-100 (test_lpmv_hypothesis_matches_scipy)
    keep &= ~((np.abs(v) < 1e-100) & (v != 0) & (mm < 0))
    args, ref, got = _call("lpmv", (mm[keep], v[keep], x[keep]))
    # 5e-8: at m = 6, x = -0.999999 (P ~ (1 + x)^-3 = 1e18) SciPy's and
    # gpunp's are 2.3e-8 apart (lpmv(6, 1.5e-8, -0.999999); not judged)
    _check("lpmv", args, ref, got, 5e-8, atol=1e-9)


@settings(max_examples=25, deadline=None)
@given(v=st.floats(-40, 40), x=st.floats(-1e4, 1e4), name=st.sampled_from(["struve", "modstruve"]))
def test_struve_hypothesis_matches_scipy(v, x, name):
    args, ref, got = _call(name, (np.array([v]), np.array([x])))
    _check(name, args, ref, got, RTOL[name])


@settings(max_examples=25, deadline=None)
# not done: |v| below 1e-8 with m < 0 (where SciPy is wrong too) (gpunp NaN, SciPy 6e73 at
# lpmv(-1, 6.06e-227, 0), where the value is about 1)
@given(m=st.integers(-8, 8), v=st.floats(-30, 30).filter(lambda t: abs(t) > 1e-8 or t == 0),
       x=st.floats(-1, 1))
def test_lpmv_hypothesis_matches_scipy(m, v, x):
    args, ref, got = _call("lpmv", (np.array([float(m)]), np.array([v]), np.array([x])))
    _check("lpmv", args, ref, got, RTOL["lpmv"], atol=1e-9)


def test_struve_recurrences():
    # DLMF 11.4.23 and 11.4.25: H_(v-1) + H_(v+1) - (2v/x) H_v and
    # L_(v-1) - L_(v+1) - (2v/x) L_v are (x/2)^v / (sqrt(pi) Gamma(v + 3/2)),
    # to rounding in the terms' sizes
    rng = np.random.default_rng(11)
    v = np.concatenate([rng.uniform(-20, 20, 300), rng.uniform(-3, 3, 300)])
    x = np.concatenate([np.exp(rng.uniform(-3, np.log(200), 300)), rng.uniform(0.5, 45, 300)])
    vs = np.concatenate([v - 1, v, v + 1])
    xs = np.concatenate([x, x, x])
    for name, sign in (("struve", 1), ("modstruve", -1)):
        r = gp.asnumpy(getattr(sp, name)(gp.asarray(vs), gp.asarray(xs)))
        a, b, c = r[:600], r[600:1200], r[1200:]
        with np.errstate(all="ignore"):
            rhs = (x / 2) ** v / (np.sqrt(np.pi) * ss.gamma(v + 1.5))
            lhs = a + sign * c - 2 * v / x * b
            size = np.abs(a) + np.abs(c) + np.abs(2 * v / x * b) + np.abs(rhs)
            ok = np.abs(lhs - rhs) <= 1e-13 * size
        ok |= ~np.isfinite(size)
        assert ok.all(), (name, v[~ok][:5], x[~ok][:5], (lhs - rhs)[~ok][:5] / size[~ok][:5])


def test_lpmv_recurrence():
    # (v - m + 1) P_(v+1)^m = (2v + 1) x P_v^m - (v + m) P_(v-1)^m (DLMF
    # 14.10.3) on [-1, 1], and for m = 0 past x = 1 (where SciPy's series
    # diverges)
    rng = np.random.default_rng(12)
    n = 500
    m = np.concatenate([rng.integers(-6, 7, n).astype(float), np.zeros(n)])
    v = np.concatenate([rng.uniform(-20, 20, n), rng.uniform(-20, 20, n)])
    x = np.concatenate([rng.uniform(-1, 1, n), np.exp(rng.uniform(0, np.log(50), n))])
    ms, vs, xs = (np.concatenate([a, a, a]) for a in (m, v, x))
    vs = vs + np.repeat([-1.0, 0.0, 1.0], 2 * n)
    r = gp.asnumpy(sp.lpmv(gp.asarray(ms), gp.asarray(vs), gp.asarray(xs)))
    p0, p1, p2 = r[: 2 * n], r[2 * n: 4 * n], r[4 * n:]
    terms = np.stack([(v - m + 1) * p2, (2 * v + 1) * x * p1, (v + m) * p0])
    size = np.abs(terms).sum(axis=0)
    ok = np.abs(terms[0] - terms[1] + terms[2]) <= 1e-12 * size
    ok |= ~np.isfinite(size)
    assert ok.all(), (m[~ok][:5], v[~ok][:5], x[~ok][:5])


@pytest.mark.parametrize("name", ["struve", "modstruve", "lpmv"])
def test_float32_loops_match_scipy(name):
    # both compute in double and round once: 2 float32 ULPs, SciPy's error
    # far below
    rng = np.random.default_rng(5)
    if name == "lpmv":
        sample = list(_lpmv_sample(rng, 300))
        sample[1] = sample[1] / 4  # float32's range of P_v^m
    else:
        v, x = _struve_sample(rng, 500)
        keep = np.abs(x) < 60
        sample = (v[keep] / 3, x[keep])
    args, ref, got = _call(name, sample, np.float32)
    args = [a.astype(np.float64) for a in args]
    _check(name, args, ref.astype(np.float64), got.astype(np.float64), 2.4e-7, atol=1e-7)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_softplus_matches_scipy(dtype):
    # SciPy's is NumPy's logaddexp(0, x): the same values to 2 ULPs (the C
    # libraries' log1p and exp; CUDA's, 2 on an H100), and out= taken
    rng = np.random.default_rng(3)
    x = np.concatenate([rng.standard_normal(2000) * 30, np.exp(rng.uniform(-700, 700, 2000)),
                        -np.exp(rng.uniform(-700, 700, 2000)),
                        [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-300, 5e-324, 710.0, -746.0]])
    with np.errstate(all="ignore"):
        x = x.astype(dtype)
        ref = ss.softplus(x)
    got = sp.softplus(gp.asarray(x))
    assert got.dtype == ref.dtype
    np.testing.assert_array_max_ulp(gp.asnumpy(got), ref, maxulp=2)
    out = gp.empty(x.shape, dtype)
    assert sp.softplus(gp.asarray(x), out=out) is out
    np.testing.assert_array_max_ulp(gp.asnumpy(out), ref, maxulp=2)
