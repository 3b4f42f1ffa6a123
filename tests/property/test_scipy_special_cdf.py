"""The incomplete gamma and beta functions for large parameters (Temme's
uniform expansions), against SciPy where SciPy's own value is right, and
against the normal or Wilson-Hilferty limit where it is not.

Each hypothesis example is one seed for a few hundred points in one array,
so that every function costs one kernel compile. Points are drawn as
x = mean + z sd: the only x at which a huge parameter's function is neither
0 nor 1 to double precision.

Where SciPy is wrong (so the comparison is narrowed, or made against
another reference):
- gammainc / gammaincc past |x - a| = 4.5 sqrt(a) with a beyond about 3e4:
  SciPy leaves its asymptotic series there for the power series and the
  continued fraction, stopped at 2000 terms (gammainc(1e8, 99940000) is
  SciPy's 6.995e-10; Wilson-Hilferty's cube and gpunp's give 9.795e-10).
- betainc for both parameters large: SciPy's lower tail disagrees with its
  own upper tail at the complement (betainc(1e16, 1e16, 0.5 - 2**-27) is
  0.0175439545144752, betaincc(1e16, 1e16, 0.5 + 2**-27) 0.0175439541744760,
  which the normal limit gives); its betaincc is the reference here, on
  x and 1 - x both exact."""

from __future__ import annotations

import numpy as np
import scipy.special as ss
from hypothesis import given, settings, strategies as st

import gpunp as gp
import gpunp.scipy.special as sp

SEEDS = st.integers(0, 2**32 - 1)
EPS = np.finfo(np.float64).eps


def _ulps(got, ref):
    with np.errstate(all="ignore"):
        return np.abs(got - ref) / np.spacing(np.maximum(np.abs(ref), np.finfo(np.float64).tiny))


def _check(name, got, ref, allowed, args):
    err = _ulps(got, ref)
    bad = ~(err <= allowed) & ~((got == ref) | (np.isnan(got) & np.isnan(ref)))
    if bad.any():
        i = np.flatnonzero(bad)[0]
        raise AssertionError(f"{name}{tuple(float(np.ravel(a)[i]) for a in args)}: gpunp "
                             f"{got[i]!r}, reference {ref[i]!r}, {err[i]:.3g} ULPs > "
                             f"{allowed[i]:.3g}")


def _log_ulps(ref, per):
    """`per` ULPs per unit of |log result|: e^-E turns E's last-bit error
    into |E| ULPs, in gpunp's and in SciPy's exponent alike"""
    with np.errstate(divide="ignore"):
        return per * np.nan_to_num(np.abs(np.log(np.abs(ref))), posinf=0.0)


@settings(max_examples=12, deadline=None)
@given(SEEDS)
def test_gammainc_large_a(seed):
    """a log-uniform in [1e4, 1e300] within 4.4 sd of the mean (after x's
    rounding), where SciPy uses its own asymptotic series: 64 ULPs plus 128 per unit of |log P|
    (as test_scipy_special's gammainc)."""
    rng = np.random.default_rng(seed)
    a = 10 ** rng.uniform(4, 300, 400)
    x = a + rng.uniform(-4.4, 4.4, 400) * np.sqrt(a)
    # x's rounding moves it by up to ulp(a) / sqrt(a) sd past 1e30
    keep = np.abs(x - a) < 4.4 * np.sqrt(a)
    a, x = a[keep], x[keep]
    for name in ("gammainc", "gammaincc"):
        ref = getattr(ss, name)(a, x)
        got = getattr(sp, name)(gp.asarray(a), gp.asarray(x)).get()
        _check(name, got, ref, 64 + _log_ulps(ref, 128), (a, x))


@settings(max_examples=12, deadline=None)
@given(SEEDS)
def test_gammainc_tails(seed):
    """a in [1e4, 3e4] (SciPy's series and fraction converge within their
    2000 terms) out to 40 sd, both sides of the switch at |x - a| = 0.3 a:
    as test_gammainc_large_a."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(1e4, 3e4, 400)
    x = np.maximum(a + rng.uniform(-40, 40, 400) * np.sqrt(a), 0)
    for name in ("gammainc", "gammaincc"):
        ref = getattr(ss, name)(a, x)
        got = getattr(sp, name)(gp.asarray(a), gp.asarray(x)).get()
        _check(name, got, ref, 64 + _log_ulps(ref, 128), (a, x))


@settings(max_examples=12, deadline=None)
@given(SEEDS)
def test_gammainc_huge_a_tails(seed):
    """a in [1e8, 1e300] out to 30 sd, where SciPy's tails are wrong,
    against Wilson and Hilferty's normal cube: (x/a)^(1/3) is normal with
    mean 1 - 1/(9a) and variance 1/(9a) up to O(z^3 / sqrt(a)^3) in the
    deviate, so their logs may differ by 1e-9 plus 10 z^4 / a."""
    rng = np.random.default_rng(seed)
    a = 10 ** rng.uniform(8, 300, 400)
    z = rng.uniform(-30, 30, 400)
    x = a + z * np.sqrt(a)
    # (x / a)^(1/3) - 1 from v = (x - a) / a, exact: x / a would round the
    # deviation away
    w = 3 * np.sqrt(a) * (np.expm1(np.log1p((x - a) / a) / 3) + 1 / (9 * a))
    got = np.log(sp.gammainc(gp.asarray(a), gp.asarray(x)).get())
    gotc = np.log(sp.gammaincc(gp.asarray(a), gp.asarray(x)).get())
    allowed = 1e-9 + 10 * z**4 / a
    for name, g, ref in (("gammainc", got, ss.log_ndtr(w)), ("gammaincc", gotc, ss.log_ndtr(-w))):
        # below the doubles (log -745) the result is 0; a subnormal's
        # error is absolute (a few of the smallest subnormal)
        under, subnormal = ref < -746, ref < -708
        tol = allowed * np.maximum(1, np.abs(ref))
        with np.errstate(under="ignore"):
            sub_bad = ~(np.abs(np.exp(g) - np.exp(ref)) <= tol * np.exp(ref) + 1e-322)
        bad = np.where(under, g > -700, np.where(subnormal, sub_bad, ~(np.abs(g - ref) <= tol)))
        assert not bad.any(), (name, a[bad][:3], x[bad][:3], g[bad][:3], ref[bad][:3])


def _beta_points(rng, lo, hi, n, zmax):
    """a, b log-uniform in [10^lo, 10^hi], x = mean + z sd rounded to a
    multiple of 2^-53 so that x and 1 - x are both exact"""
    a = 10 ** rng.uniform(lo, hi, n)
    b = 10 ** rng.uniform(lo, hi, n)
    s = a + b
    sd = np.sqrt(a / s * (b / s) / (s + 1))
    x = np.clip(a / s + rng.uniform(-zmax, zmax, n) * sd, 0, 1)
    x = np.round(x * 2.0**53) / 2.0**53
    return a, b, x, sd


def _x_condition(x, sd, ref):
    """|d log I / d log x| at the normal limit, x / sd phi(z) / I: a result
    formed from x's deviation from the mean has that many times the ULPs
    of the deviation's rounding (SciPy's forms x (a + b) - a without
    carrying a + b's)"""
    with np.errstate(all="ignore"):
        z = ss.ndtri(np.clip(ref, 1e-300, 1))
        c = x / sd * np.exp(-z * z / 2) / np.sqrt(2 * np.pi) / np.maximum(ref, 1e-300)
    return np.nan_to_num(c, nan=0.0, posinf=0.0)


@settings(max_examples=12, deadline=None)
@given(SEEDS)
def test_betainc_large_ab(seed):
    """a, b in [3e4, 1e15] within 8 sd of the mean (past that SciPy's is at
    times NaN: betaincc(5.017e16, 2.39e15, 0.9545) is), against SciPy's betaincc
    (the lower tail as betaincc(b, a, 1 - x)): 64 ULPs plus 64 per unit of
    |log I| (as test_scipy_special's betainc), plus 2 per unit of x's
    condition (SciPy's rounding of the deviation; gpunp carries it)."""
    rng = np.random.default_rng(seed)
    a, b, x, sd = _beta_points(rng, 4.5, 15, 400, 8)
    refs = {"betainc": ss.betaincc(b, a, 1 - x), "betaincc": ss.betaincc(a, b, x)}
    for name, ref in refs.items():
        got = getattr(sp, name)(gp.asarray(a), gp.asarray(b), gp.asarray(x)).get()
        allowed = 64 + _log_ulps(ref, 64) + 2 * _x_condition(x, sd, ref)
        _check(name, got, ref, allowed, (a, b, x))


@settings(max_examples=8, deadline=None)
@given(SEEDS)
def test_betaincinv_large_ab(seed):
    """betaincinv for a, b in [3e4, 1e15] (SciPy's range, as above): SciPy's betaincc (its consistent
    tail) at gpunp's root is the probability, within 64 ULPs plus 2 per unit
    of the root's condition and 64 per unit of |log p| (the forward function's
    allowance above). SciPy's own root is its wrong lower tail's:
    betaincinv(1e16, 1e16, 0.75) is SciPy's 0.5000000022155673, the normal
    limit's 0.5 + 0.6744897 sd = 0.5000000023846811."""
    rng = np.random.default_rng(seed)
    a = 10 ** rng.uniform(4.5, 15, 200)
    b = 10 ** rng.uniform(4.5, 15, 200)
    p = rng.uniform(0.001, 0.999, 200)
    x = sp.betaincinv(gp.asarray(a), gp.asarray(b), gp.asarray(p)).get()
    s = a + b
    sd = np.sqrt(a / s * (b / s) / (s + 1))
    q = ss.betaincc(a, b, x)
    cond = _x_condition(x, sd, q) + _x_condition(x, sd, 1 - q)
    allowed = 64 + _log_ulps(1 - p, 64) + 10 * cond
    _check("betaincinv", 1 - q, p, allowed, (a, b, p))


@settings(max_examples=8, deadline=None)
@given(SEEDS)
def test_betainc_huge_equal(seed):
    """a = b in [1e17, 1e300], past SciPy's range (above), out to 30 sd: the normal
    limit, whose error for a = b (no skew) is O(z^4 / (a + b)) in the log;
    and I_x(a, b) = 1 - I_1-x(b, a) = betaincc(b, a, 1 - x) exactly"""
    rng = np.random.default_rng(seed)
    a = 10 ** rng.uniform(17, 300, 300)
    x = 0.5 + rng.uniform(-30, 30, 300) * 0.5 / np.sqrt(2 * a)
    x = np.round(x * 2.0**53) / 2.0**53
    z = (x - 0.5) * 2 * np.sqrt(2 * a + 1)
    A, X = gp.asarray(a), gp.asarray(x)
    low = sp.betainc(A, A, X).get()
    assert np.array_equal(low, sp.betaincc(A, A, gp.asarray(1 - x)).get())
    with np.errstate(divide="ignore"):
        got = np.log(low)
    ref = ss.log_ndtr(z)
    under, subnormal = ref < -746, ref < -708
    tol = 1e-13 * np.maximum(1, np.abs(ref))
    with np.errstate(under="ignore"):
        sub_bad = ~(np.abs(low - np.exp(ref)) <= tol * np.exp(ref) + 1e-322)
    bad = np.where(under, got > -700, np.where(subnormal, sub_bad, ~(np.abs(got - ref) <= tol)))
    assert not bad.any(), (a[bad][:3], x[bad][:3], got[bad][:3], ref[bad][:3])


def test_large_parameter_values():
    """hand-picked: the brief's cases, the switch points, a + b past the
    doubles (the normal limit), and the incomplete gamma at a = 1e300"""
    a = np.array([1e16, 3e4, 6e4, 5e307, 1e300])
    b = np.array([1e16, 3e4, 6e4, 5e307, 1e300])
    x = np.array([0.5, 0.5, 0.5, 0.5, 0.5])
    for name in ("betainc", "betaincc"):
        got = getattr(sp, name)(gp.asarray(a), gp.asarray(b), gp.asarray(x)).get()
        np.testing.assert_allclose(got, 0.5, rtol=1e-15)
    half = sp.betaincinv(gp.asarray(1e16), gp.asarray(1e16), gp.asarray(0.75)).get()
    sd = 0.5 / np.sqrt(2e16 + 1)
    assert abs(half - (0.5 + ss.ndtri(0.75) * sd)) < 1e-15
    # P(a, a) = 1/2 + 1 / (3 sqrt(2 pi a)) + O(1/a^(3/2)), Q its complement
    for A in (1e4, 1e8, 1e16, 1e100, 1e300):
        lead = 1 / (3 * np.sqrt(2 * np.pi * A))
        P = sp.gammainc(gp.asarray(A), gp.asarray(A)).get()
        Q = sp.gammaincc(gp.asarray(A), gp.asarray(A)).get()
        assert abs(P - (0.5 + lead)) < 1e-15 + A**-1.5, (A, P)
        assert abs(Q - (0.5 - lead)) < 1e-15 + A**-1.5, (A, Q)
        assert abs(P + Q - 1) < 2e-16
    # far from a (E past the doubles' exponent) exactly 0 and 1, as SciPy's
    A = np.array([1e300, 1e300, 1e100, 1e100, 5e4, 5e4, 1e9])
    X = np.array([1.2e300, 0.8e300, 1.01e100, 0.99e100, 6e4, 4e4, 1e9 + 2e6])
    for name in ("gammainc", "gammaincc"):
        got = getattr(sp, name)(gp.asarray(A), gp.asarray(X)).get()
        np.testing.assert_array_equal(got, getattr(ss, name)(A, X))
    B = np.array([1e300, 1e300, 1e5, 1e5])
    Xb = np.array([0.501, 0.499, 0.6, 0.4])
    for name in ("betainc", "betaincc"):
        got = getattr(sp, name)(gp.asarray(B), gp.asarray(B), gp.asarray(Xb)).get()
        np.testing.assert_array_equal(got, np.where((Xb > 0.5) == (name == "betainc"), 1.0, 0.0))
