"""gpunp.scipy.special as a module: its ufuncs (names, loops, the ufunc
machinery), SciPy's own functions dispatching to them, the functions that
are not ufuncs (zeta, polygamma, multigammaln, spherical_yn, logsumexp,
softmax, log_softmax), and the errors. The values themselves are
tests/property/test_scipy_special.py's."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import tempfile
import warnings

import numpy as np
import pytest
import scipy.special as ss

import gpunp as gp
import gpunp.scipy.special as sp

UFUNCS = sorted(n for n in sp.__all__ if isinstance(getattr(sp, n), gp.ufunc))
REAL = set("fdl")


def test_every_name_is_scipys():
    for name in sp.__all__:
        assert hasattr(ss, name), name


@pytest.mark.parametrize("name", UFUNCS)
def test_ufunc_is_scipys_real_loops(name):
    mine, theirs = getattr(sp, name), getattr(ss, name)
    assert (mine.nin, mine.nout) == (theirs.nin, theirs.nout)
    assert mine.__name__ == theirs.__name__
    assert repr(mine) == repr(theirs)
    real = [t for t in theirs.types if set(t) - set("->") <= REAL]
    assert mine.types == real


def test_digamma_is_psi_and_sinc_is_numpys():
    assert sp.digamma is sp.psi and ss.digamma is ss.psi
    assert sp.sinc is gp.sinc and ss.sinc is np.sinc
    np.testing.assert_allclose(ss.sinc(gp.asarray(X)).get(), np.sinc(X), rtol=1e-15)


def test_cupys_names_that_scipy_removed():
    """btdtr, btdtri and sph_harm: CuPy still has them, SciPy 1.17 not
    (so they stay out of __all__); each is its SciPy successor."""
    assert sp.btdtr is sp.betainc and sp.btdtri is sp.betaincinv
    assert not {"btdtr", "btdtri", "sph_harm"} & set(sp.__all__)
    m, n = np.array([-2, 0, 1, 3]), np.array([2, 4, 1, 5])
    theta, phi = np.array([0.3, 5.9, 2.0, 1.1]), np.array([0.2, 1.5, 3.0, 0.7])
    got = sp.sph_harm(gp.asarray(m), gp.asarray(n), gp.asarray(theta), gp.asarray(phi)).get()
    np.testing.assert_allclose(got, ss.sph_harm_y(n, m, phi, theta), rtol=1e-13)


def test_import_gpunp_scipy_special_loads_nothing_of_scipy():
    code = ("import sys, gpunp.scipy.special; "
            "print(' '.join(m for m in sys.modules if m == 'scipy' or m.startswith('scipy.')))")
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(gp.__file__).parent.parent))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=tempfile.gettempdir(), env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == ""


# ---- SciPy's ufuncs on gpunp arrays ---------------------------------------------------

X = np.array([0.25, 1.5, 2.5, 7.0])


@pytest.mark.parametrize("name", UFUNCS)
def test_scipy_ufunc_runs_gpunps(name):
    theirs = getattr(ss, name)
    # an argument that every loop takes as an integer (eval_hermite's n) gets integers
    args = [X.astype(np.int64) if all(t[k] == "l" for t in theirs.types) else X
            for k in range(theirs.nin)]
    got = theirs(*[gp.asarray(a) for a in args])
    outs = got if isinstance(got, tuple) else (got,)
    assert all(isinstance(o, gp.ndarray) for o in outs)
    want = getattr(sp, name)(*[gp.asarray(a) for a in args])
    wants = want if isinstance(want, tuple) else (want,)
    for o, w in zip(outs, wants, strict=True):
        np.testing.assert_array_equal(o.get(), w.get())


def test_scipys_private_ufuncs_behind_zeta_dispatch():
    x = gp.asarray([1.5, 2.5, 4.0])
    r = ss.zeta(x)
    assert isinstance(r, gp.ndarray)
    np.testing.assert_allclose(r.get(), ss.zeta(x.get()), rtol=1e-15)
    r = ss.zeta(x, 2.0)
    np.testing.assert_allclose(r.get(), ss.zeta(x.get(), 2.0), rtol=1e-15)


def test_scipy_ufunc_out_and_where():
    x = gp.asarray([1.5, 2.5])
    o = gp.empty(2)
    assert ss.gamma(x, out=o) is o
    np.testing.assert_allclose(o.get(), ss.gamma(x.get()), rtol=1e-15)
    o = gp.zeros(2)
    sp.gamma(x, where=gp.asarray([True, False]), out=o)
    assert o.get()[1] == 0 and o.get()[0] == sp.gamma(gp.asarray(1.5)).get()


def test_broadcasting_strided_and_outer():
    a = gp.asarray(np.arange(1.0, 7.0).reshape(2, 3))
    got = ss.xlogy(a[:, ::2], gp.asarray([[2.0], [3.0]]))
    h = np.arange(1.0, 7.0).reshape(2, 3)
    np.testing.assert_allclose(got.get(), ss.xlogy(h[:, ::2], [[2.0], [3.0]]), rtol=1e-15)
    np.testing.assert_allclose(sp.xlogy.outer(gp.asarray(X), gp.asarray(X)).get(),
                               ss.xlogy.outer(X, X), rtol=1e-15)
    z = sp.gamma(gp.asarray(2.5))
    assert z.shape == () and z.get() == ss.gamma(2.5)


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.float16, np.float32, np.float64, np.bool_])
def test_result_dtype_is_scipys(dtype):
    x = np.array([1, 2], dtype=dtype)
    for f in ("gamma", "entr", "beta", "expn"):
        theirs = getattr(ss, f)
        args = [x] * theirs.nin
        assert getattr(sp, f)(*[gp.asarray(a) for a in args]).dtype == theirs(*args).dtype
    # a Python float beside a float32 array: SciPy's "dd->d"
    f32 = np.array([2.0], np.float32)
    assert sp.beta(gp.asarray(f32), 3.0).dtype == ss.beta(f32, 3.0).dtype


def test_each_scipys_resolution_is_followed():
    # CI has one SciPy; the other's resolution is what the engine switches
    # to: 1.18 resolves gamma, beta... as NumPy its own (float32 first, a
    # Python float weak), 1.17 takes float64 for both
    import gpunp.engine as engine
    from gpunp.scipy._version import scipy_version
    f32, i16 = gp.asarray(np.array([2.0], np.float32)), gp.asarray(np.array([2], np.int16))
    try:
        for version, want in ((11800, np.float32), (11700, np.float64)):
            engine.check(engine.lib.gp_set_scipy_version(version))
            assert sp.beta(f32, 3.0).dtype == want and sp.gamma(i16).dtype == want
            assert sp.gamma(f32).dtype == np.float32 and sp.expn(i16, 1.0).dtype == np.float64
            # a kernel made under the other version is not kept: bdtrik(0, 0, 0)
            # is 1.17's NaN and 1.18's 0
            got = sp.bdtrik(*[gp.zeros(1)] * 3).get()[0]
            assert got == 0 if version == 11800 else np.isnan(got)
    finally:
        engine.check(engine.lib.gp_set_scipy_version(min(scipy_version(), 2**31 - 1)))
    with pytest.raises(ValueError):
        engine.check(engine.lib.gp_set_scipy_version(99))


def test_betaincc_of_a_tiny_parameter_keeps_its_digits():
    # 1 - I_x(a, b) is of order a there (found on a GPU run: it was 1 - the
    # fraction, 2.2e-16 at (3.1e-304, 1, 0.0078125))
    a = np.array([3.132385375698442e-304, 1e-21, 1e-25, 2e-300, 5e-46])
    b = np.array([1.0, 2.5, 0.3, 10.0, 0.43])
    x = np.array([0.0078125, 0.3, 0.5, 0.4, 0.1032])
    got = sp.betaincc(*(gp.asarray(v) for v in (a, b, x))).get()
    np.testing.assert_allclose(got, ss.betaincc(a, b, x), rtol=1e-14)
    got = sp.betainc(*(gp.asarray(v) for v in (b, a, 1 - x))).get()
    np.testing.assert_allclose(got, ss.betainc(b, a, 1 - x), rtol=1e-14)


def test_stdtr_of_many_degrees_near_t_sqrt_3():
    # I_x(df/2, 1/2) near x = 1 - 3 / df, where its continued fraction is
    # slowest, lost up to 1e-8 of the tail at df = 8e7 (mpmath agrees with
    # SciPy's there); and stdtrit, refined on it
    df = 10.0 ** np.linspace(1.3, 8, 24)
    t = -np.sqrt(3) * np.linspace(0.5, 1.5, 24)
    got = sp.stdtr(gp.asarray(df), gp.asarray(t)).get()
    np.testing.assert_allclose(got, ss.stdtr(df, t), rtol=2e-14)
    p = ss.stdtr(df, t)
    np.testing.assert_allclose(sp.stdtrit(gp.asarray(df), gp.asarray(p)).get(), t, rtol=2e-14)


def test_betainc_of_a_huge_parameter_near_x_1():
    # I_x(a, b) for a huge a, x near 1 tends to Q(b, -(a + (b-1)/2) log x)
    # (found by hypothesis: (2^52, 0.5, 1 - 2^-53) was 0.2258, SciPy 0.3173);
    # a huge and b moderate, and both huge (SciPy's betainc is Boost's)
    a = np.array([4503599627370496.0, 4503599627370496.0, 1e15, 1e16, 1e18, 3e17])
    b = np.array([0.5, 5.0, 3.0, 0.5, 1e-3, 40.0])
    x = np.array([0.9999999999999999, 0.9999999999999999, 0.999999999999998,
                  1 - 1e-16 * 0.5, 1 - 1e-17, 1 - 1.3e-16])
    for f in ("betainc", "betaincc"):
        got = getattr(sp, f)(*(gp.asarray(v) for v in (a, b, x))).get()
        np.testing.assert_allclose(got, getattr(ss, f)(a, b, x), rtol=1e-13)
        # the mirror: I_x(a, b) = 1 - I_{1-x}(b, a)
        got = getattr(sp, f)(*(gp.asarray(v) for v in (b, a, 1 - x))).get()
        np.testing.assert_allclose(got, getattr(ss, f)(b, a, 1 - x), rtol=1e-13)


def test_errors_are_scipys():
    z = gp.asarray([1 + 1j])
    with pytest.raises(TypeError, match="not supported for the input types"):
        sp.gamma(z)  # gpunp has the real loops only
    with pytest.raises(TypeError):
        ss.gamma(z)
    with pytest.raises(TypeError):
        ss.mathieu_a(gp.asarray(X), X)  # not in gpunp.scipy.special: NumPy's TypeError
    with pytest.raises(TypeError):
        ss.xlogy(gp.asarray(X), X)  # a host array is never moved implicitly
    with pytest.raises(TypeError):
        ss.gamma(gp.asarray(X), out=np.empty(4))
    with pytest.raises(ValueError):
        sp.beta(gp.asarray([1.0, 2.0]), gp.asarray([1.0, 2.0, 3.0]))


# ---- the functions that are not ufuncs --------------------------------------------------

def test_polygamma_and_multigammaln():
    n = np.array([0, 1, 2, 3])
    x = np.array([0.5, 1.5, 2.5, 10.0])
    np.testing.assert_allclose(sp.polygamma(gp.asarray(n), gp.asarray(x)).get(),
                               ss.polygamma(n, x), rtol=1e-13)
    a = np.array([3.0, 4.5, 10.0])
    np.testing.assert_allclose(sp.multigammaln(gp.asarray(a), 3).get(), ss.multigammaln(a, 3),
                               rtol=1e-14)
    for d in (0, -1):  # SciPy's values: an empty sum
        assert float(sp.multigammaln(gp.asarray(a), d).get()) == ss.multigammaln(a, d)
    for bad, err in ((1.5, ValueError), (2.0, TypeError)):
        with pytest.raises(err):
            ss.multigammaln(a, bad)
        with pytest.raises(err):
            sp.multigammaln(gp.asarray(a), bad)
    with pytest.raises(ValueError):
        ss.multigammaln(np.array([0.5]), 3)
    with pytest.raises(ValueError):
        sp.multigammaln(gp.asarray([0.5]), 3)


def test_spherical_yn_matches_scipy():
    """y_n and its derivative against SciPy's on orders to 60 (the
    recurrence's growth and its overflow to -inf), both signs of x, and the
    special values; within 8 ULPs plus 2 per step of the recurrence (SciPy
    runs the same recurrence), the derivative's relative to its terms."""
    rng = np.random.default_rng(3)
    n = np.concatenate([rng.integers(0, 60, 200), [0, 1, 2, 3, -1, 2, 1, 0, 2, 300, 5]])
    x = np.concatenate([rng.uniform(-30, 30, 100), 10.0 ** rng.uniform(-3, 3, 100),
                        [0.0, -0.0, np.inf, -np.inf, np.nan, -0.0, 1e-300, 1e300, 0.5, 1.0, -2.0]])
    for derivative in (False, True):
        with np.errstate(all="ignore"):
            want = ss.spherical_yn(n, x, derivative)
        got = sp.spherical_yn(gp.asarray(n), gp.asarray(x), derivative)
        assert isinstance(got, gp.ndarray) and got.dtype == want.dtype
        got = got.get()
        same = (got == want) | (np.isnan(got) & np.isnan(want))
        finite = np.isfinite(got) & np.isfinite(want)
        with np.errstate(all="ignore"):
            # the derivative y_{n-1} - (n + 1) / x y_n cancels near its zeros:
            # an absolute error of its terms' size
            terms = np.abs(ss.spherical_yn(np.maximum(n - 1, 0), x)) + \
                (n + 1) / np.abs(x) * np.abs(ss.spherical_yn(n, x)) if derivative else 0
            env = np.maximum(np.abs(want), np.nan_to_num(terms))
            err = np.abs(got - want) / np.spacing(env)
        assert np.all(same | (finite & (err <= 8 + 2 * n))), (n[~same], x[~same])
    # the float loop and a float n (truncated, as SciPy's asarray(n, long))
    xf = np.array([0.5, 2.0, 7.0], np.float32)
    got = sp.spherical_yn(gp.asarray(np.array([1, 2, 3])), gp.asarray(xf))
    assert got.dtype == np.float32
    np.testing.assert_allclose(got.get(), ss.spherical_yn(np.array([1, 2, 3]), xf), rtol=1e-6)
    assert float(sp.spherical_yn(2.7, 1.0).get()) == ss.spherical_yn(2.7, 1.0)


SPHERICAL_Z = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-300, -1e-300, 0.5, -0.5, 3.0, -3.0,
                        1e-8, 40.0, 1e4])


@pytest.mark.parametrize("kind", ["jn", "in", "kn"])
def test_spherical_jn_in_kn_match_scipy(kind):
    """j_n, i_n, k_n and their derivatives against SciPy's, orders to 60,
    both signs of z, and the special values. SciPy's are up to 150 ULPs off at
    orders near 50 (mpmath: spherical_in(56, 2.834) 134 ULPs, spherical_jn(52,
    29.99) 102; gpunp's 1, 3): 256 ULPs and 8 per unit of the order, relative
    to the terms where a derivative (f_n-1 - (n + 1)/z f_n) or k_n(-x) =
    -(-1)^n k_n(x) - pi i_n(x) cancels."""
    theirs, mine = getattr(ss, f"spherical_{kind}"), getattr(sp, f"spherical_{kind}")
    rng = np.random.default_rng(5)
    n = np.concatenate([rng.integers(0, 60, 200), np.repeat([0, 1, 2, 5, 300, -1], 14)])
    z = np.concatenate([rng.uniform(-30, 30, 100), 10.0 ** rng.uniform(-3, 2.5, 100),
                        np.tile(SPHERICAL_Z, 6)])
    if kind == "in":
        z = np.clip(z, -700, 700)  # SciPy's iv is NaN past 1.07e9, early inf past 700
    for derivative in (False, True):
        with np.errstate(all="ignore"):
            want = theirs(n, z, derivative)
            a = np.abs(z)
            terms = np.abs(theirs(np.maximum(n - 1, 0), z)) + (n + 1) / a * np.abs(theirs(n, z))
            if kind == "kn":
                terms = terms + np.pi * np.abs(ss.spherical_in(n, a)) + np.abs(theirs(n, a))
        if kind != "kn":
            # SciPy's i_n(z) for a tiny z is its iv(n + 1/2, z), 0 early: the
            # value there is z^n / (2n + 1)!! (its derivative n z^(n-1) / (2n + 1)!!,
            # and i_0' = i_1)
            tiny = (np.abs(z) < 1e-9) & (n >= 0)
            with np.errstate(all="ignore"):
                dfact = np.array([np.prod(np.arange(1.0, 2 * k + 2, 2)) for k in np.maximum(n, 0)])
                lead = np.where(n == 0, 1.0, z ** n / dfact)
                slope = np.where(n == 0, z / 3 * (1 if kind == "in" else -1),
                                 np.where(n == 1, 1 / 3, n * z ** (n - 1) / dfact))
            want = np.where(tiny, slope if derivative else lead, want)
        if kind == "kn":
            # SciPy's k_n(-x) is NaN where it overflows: -(-1)^n k_n(x) - pi i_n(x)
            with np.errstate(all="ignore"):
                a = np.abs(z)
                refl = (np.where(n % 2 == 0, -1.0, 1.0) * theirs(n, a, derivative) *
                        (-1 if derivative else 1) - np.pi * ss.spherical_in(n, a, derivative) *
                        (-1 if derivative else 1))
            want = np.where((z < 0) & np.isnan(want) & (n >= 0) & np.isfinite(z), refl, want)
        got = mine(gp.asarray(n), gp.asarray(z), derivative)
        assert isinstance(got, gp.ndarray) and got.dtype == want.dtype
        got = got.get()
        same = (got == want) | (np.isnan(got) & np.isnan(want))
        finite = np.isfinite(got) & np.isfinite(want)
        with np.errstate(all="ignore"):
            env = np.maximum(np.abs(want), np.nan_to_num(terms, posinf=0.0))
            err = np.abs(got - want) / np.spacing(np.maximum(env, 1e-300))
        ok = same | (finite & (err <= 256 + 8 * np.abs(n)))
        assert np.all(ok), list(zip(n[~ok], z[~ok], got[~ok], want[~ok]))[:8]
    xf = np.array([0.5, 2.0, 7.0], np.float32)
    got = mine(gp.asarray(np.array([1, 2, 3])), gp.asarray(xf))
    assert got.dtype == np.float32
    # SciPy's float loop computes in float: a float32 ULP of the envelope
    np.testing.assert_allclose(got.get(), theirs(np.array([1, 2, 3]), xf), rtol=1e-6, atol=3e-8)
    np.testing.assert_allclose(float(mine(2.7, 1.0).get()), theirs(2.7, 1.0), rtol=1e-14)


A = np.array([[0.0, 1.0, -np.inf, 3.0], [-np.inf, -np.inf, -np.inf, -np.inf],
              [1000.0, 999.0, -1.0, 2.0]])


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_logsumexp_matches_scipy(axis, keepdims):
    got = sp.logsumexp(gp.asarray(A), axis=axis, keepdims=keepdims)
    want = ss.logsumexp(A, axis=axis, keepdims=keepdims)
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(got.get(), want, rtol=1e-14)


@pytest.mark.parametrize("dtype, rtol", [(np.float32, 2e-6), (np.float64, 1e-13)])
def test_logsumexp_in_one_pass_matches_scipy(dtype, rtol):
    # rows long enough to be split into partials, whose running maxima and
    # sums then combine; rising rows move a thread's maximum at every element
    rng = np.random.default_rng(5)
    h = (rng.standard_normal((6, 20000)) * 30).astype(dtype)
    h[1] = np.linspace(-500, 80, h.shape[1])
    h[2, 7], h[3, :] = np.inf, -np.inf
    h[4, 11], h[4, 12] = np.inf, -np.inf
    h[5, 3] = np.nan
    for axis in (None, 0, 1, (0, 1)):
        with np.errstate(all="ignore"):
            want = ss.logsumexp(h, axis=axis)
            numpys = np.logaddexp.reduce(h, axis=axis)
        got = sp.logsumexp(gp.asarray(h), axis=axis)
        assert got.dtype == np.asarray(want).dtype
        # max + log(sum) cancels near 0: a few ulps of both terms, absolutely
        top = np.abs(np.max(np.where(np.isfinite(h), h, -np.inf), axis=axis))
        n = h.size // np.size(want)
        atol = 4 * np.finfo(dtype).eps * (np.where(np.isfinite(top), top, 0) + np.log(n) + 1)
        for mine, theirs in ((got.get(), want),
                             (gp.logaddexp.reduce(gp.asarray(h), axis=axis).get(), numpys)):
            np.testing.assert_array_equal(np.isnan(mine), np.isnan(theirs))
            with np.errstate(invalid="ignore"):  # inf - inf where both are inf
                ok = np.isnan(theirs) | (mine == theirs) | \
                    (np.abs(mine - theirs) <= atol + rtol * np.abs(theirs))
            assert np.all(ok), (axis, mine[~ok], theirs[~ok])


@pytest.mark.parametrize("name", ["erf", "gamma", "j0"])
def test_float32_slots_are_scipys_float_loop_within_an_ulp(name):
    # the rows whose float loop has its own form (gpk_sf_erf_f32 in float,
    # gpk_sf_gamma_f32 by a shorter fit, gpk_sf_j0_f32 by rows in float and
    # double): every 4099th float of either sign, subnormals, the forms'
    # ends, 0, inf and NaN, and the 300 floats either side of J0's zeros
    # below 64 (where the value is J0's relative accuracy or nothing)
    zeros = np.float32(ss.jn_zeros(0, 20)).view(np.uint32).astype(np.int64)
    bits = np.concatenate([np.arange(0, 0x7F800000, 4099, dtype=np.uint32),
                           np.array([1, 0x00800000, 0x3F7FFFFF, 0x3F800000, 0x3FA00000,
                                     0x407FFFFF, 0x40800000, 0x413FFFFF, 0x41400000,
                                     0x420C2000, 0x427FFFFF, 0x42800000, 0x7F800000,
                                     0x7FC00000], np.uint32),
                           (zeros[:, None] + np.arange(-300, 301)).astype(np.uint32).ravel()])
    x = np.concatenate([bits.view(np.float32), -bits.view(np.float32)])
    if name == "j0":  # from 2^22, SciPy's phase x - pi/4, rounded, is off by more than
        x = x[~(np.abs(x) >= 2.0**22)]  # a float's rounding (gpunp's reduces x exactly)
    with np.errstate(all="ignore"):
        want = getattr(ss, name)(x)
    got = getattr(sp, name)(gp.asarray(x)).get()
    assert got.dtype == np.float32
    num = ~np.isnan(want)
    np.testing.assert_array_equal(np.signbit(got[num]), np.signbit(want[num]))
    same = (got == want) | (np.isnan(got) & ~num)
    assert np.all(np.isfinite(want[~same]))
    off = np.abs(got[~same].astype(np.float64) - want[~same]) / np.spacing(np.abs(want[~same]))
    assert off.size < x.size // 100 and np.all(off <= 1), (x[~same][off > 1], off.max())


def test_poch_at_infinite_a_matches_scipy():
    # SciPy's 0 for m in [-2, 0) at +inf (gpunp's NaN below -1: a random draw)
    m = np.array([-3, -2.5, -2, -1.9, -1.5, -1, -0.5, 0, 0.5, 1, 2, 2.1, 3, np.inf, -np.inf])
    for a in (np.inf, -np.inf):
        got = sp.poch(gp.full(m.shape, a), gp.asarray(m)).get()
        np.testing.assert_array_equal(got, ss.poch(np.full(m.shape, a), m))


def test_logsumexp_with_b_and_sign():
    b = np.array([[1.0, -2.0, 3.0, 0.0], [1.0, 1.0, 1.0, 1.0], [0.5, -0.5, 2.0, 0.0]])
    with np.errstate(all="ignore"):
        want = ss.logsumexp(A, axis=1, b=b)
        want_r, want_s = ss.logsumexp(A, axis=1, b=b, return_sign=True)
    np.testing.assert_allclose(sp.logsumexp(gp.asarray(A), axis=1, b=gp.asarray(b)).get(), want,
                               rtol=1e-14)
    r, s = sp.logsumexp(gp.asarray(A), axis=1, b=gp.asarray(b), return_sign=True)
    np.testing.assert_allclose(r.get(), want_r, rtol=1e-14)
    np.testing.assert_array_equal(s.get(), want_s)


def test_logsumexp_of_integers_and_empty():
    i = np.arange(6).reshape(2, 3)
    np.testing.assert_allclose(sp.logsumexp(gp.asarray(i), axis=0).get(),
                               ss.logsumexp(i, axis=0), rtol=1e-15)
    e = np.zeros((0, 3))
    np.testing.assert_array_equal(sp.logsumexp(gp.asarray(e), axis=0).get(),
                                  ss.logsumexp(e, axis=0))


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_softmax_and_log_softmax_match_scipy(axis):
    x = np.array([[1.0, 2.0, 3.0], [1000.0, 1000.0, -5.0]])
    np.testing.assert_allclose(sp.softmax(gp.asarray(x), axis=axis).get(),
                               ss.softmax(x, axis=axis), rtol=1e-14)
    np.testing.assert_allclose(sp.log_softmax(gp.asarray(x), axis=axis).get(),
                               ss.log_softmax(x, axis=axis), rtol=1e-14)


def test_scipys_logsumexp_on_gpunp_arrays_with_array_api():
    """SciPy's own logsumexp, softmax and log_softmax take gpunp arrays when
    SCIPY_ARRAY_API=1 (gpunp's __array_namespace__); without it SciPy
    converts to NumPy and gpunp refuses the implicit transfer."""
    code = ("import numpy as np, gpunp as gp, scipy.special as ss\n"
            "x = gp.asarray(np.arange(12.).reshape(3, 4))\n"
            "r = ss.logsumexp(x, axis=1)\n"
            "assert isinstance(r, gp.ndarray), type(r)\n"
            "np.testing.assert_allclose(r.get(), ss.logsumexp(x.get(), axis=1), rtol=1e-14)\n"
            "s = ss.softmax(x, axis=0)\n"
            "assert isinstance(s, gp.ndarray)\n"
            "np.testing.assert_allclose(s.get(), ss.softmax(x.get(), axis=0), rtol=1e-14)\n"
            "print('ok')\n")
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(gp.__file__).parent.parent),
               SCIPY_ARRAY_API="1")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=tempfile.gettempdir(), env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"


def test_lambertw_wrapper_and_scipys_on_gpunp_arrays():
    # complex results from the real row _lambertw_parts; SciPy's lambertw
    # reaches it through its private ufunc _lambertw
    z = np.array([0.5, -0.2, -1.0, 3.0 + 2.0j, 1e5])
    for k in (0, -1, 2):
        got = ss.lambertw(gp.asarray(z), k)
        assert isinstance(got, gp.ndarray) and got.dtype == np.complex128
        np.testing.assert_allclose(got.get(), ss.lambertw(z, k), rtol=1e-14)
    # k truncated to an integer as SciPy's cast to long does; an array k
    # broadcasts; a float32 or complex64 z gives complex128
    np.testing.assert_array_equal(sp.lambertw(gp.asarray(z), 1.7).get(),
                                  sp.lambertw(gp.asarray(z), 1).get())
    ks = np.array([0, -1, 1, 2, -2])
    np.testing.assert_allclose(sp.lambertw(gp.asarray(z), gp.asarray(ks)).get(),
                               ss.lambertw(z, ks), rtol=1e-14)
    for dt in (np.float32, np.complex64, np.int16):
        x = np.array([1, 2], dt)
        assert sp.lambertw(gp.asarray(x)).dtype == ss.lambertw(x).dtype
    # tol ends Halley's steps once one is below tol |w|, as SciPy's (where it
    # stops depends on the first guess, which is gpunp's own)
    np.testing.assert_allclose(sp.lambertw(gp.asarray(z), 0, 1e-2).get(), ss.lambertw(z),
                               rtol=1e-2)
    with pytest.raises(TypeError):
        sp.lambertw("a")


def test_smirnov_integer_loop_is_scipys():
    # "ld->d": n as int64, NaN from 2^31 and below 1 (SciPy's int conversion)
    n = np.array([1, 2, 7, 300, 10**6 + 5, 2**31 - 1, 2**31, 2**40, 0, -3], np.int64)
    x = np.array([0.3, 0.6, 0.05, 0.01, 1e-4, 1e-6, 0.1, 0.1, 0.5, 0.5])
    for f in ("smirnov", "smirnovi"):
        got = getattr(sp, f)(gp.asarray(n), gp.asarray(x))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = getattr(ss, f)(n, x)
        assert got.dtype == want.dtype == np.float64
        np.testing.assert_allclose(got.get(), want, rtol=1e-13, equal_nan=True)


def test_wofz_wrapper_and_scipys_on_gpunp_arrays():
    # complex results from the real row _wofz_parts; SciPy's ufunc wofz
    # handed a gpunp array runs the wrapper
    z = np.array([0.5, -0.2 + 1j, 3.0 - 2.0j, 1e5j, 0.0])
    got = ss.wofz(gp.asarray(z))
    assert isinstance(got, gp.ndarray) and got.dtype == np.complex128
    np.testing.assert_allclose(got.get(), ss.wofz(z), rtol=1e-13)
    o = gp.zeros(5, gp.complex128)
    assert sp.wofz(gp.asarray(z), out=o) is o
    np.testing.assert_allclose(o.get(), ss.wofz(z), rtol=1e-13)
    assert sp.wofz(1.5).shape == () and complex(sp.wofz(1.5).get()) == pytest.approx(
        ss.wofz(1.5), rel=1e-14)
    with pytest.raises(TypeError):
        sp.wofz("a")
    with pytest.raises(TypeError):
        sp.wofz(gp.asarray(z), out=gp.zeros(5))


@pytest.mark.parametrize("version", [11700, 11800])
def test_wofz_result_dtype_follows_each_scipy(version):
    # SciPy 1.17 takes its complex64 loop for complex64 alone, 1.18 for every
    # dtype that casts safely to complex64 (its loops "F->F D->D" resolved as
    # NumPy resolves its own)
    import gpunp.scipy.special._wofz as w
    from gpunp.scipy._version import scipy_version
    small = (np.float32, np.float16, np.int8, np.int16, np.uint16, np.bool_)
    for dt in small + (np.complex64, np.complex128, np.float64, np.int32, np.int64):
        want = np.complex64 if dt == np.complex64 or (version >= 11800 and dt in small) \
            else np.complex128
        assert w._result_dtype(np.dtype(dt), version) == want, dt
    if (version >= 11800) == (scipy_version() >= 11800):  # the installed SciPy's own
        for dt in (np.float32, np.int16, np.complex64, np.complex128, np.float64):
            x = np.array([1, 0], dt)
            assert sp.wofz(gp.asarray(x)).dtype == ss.wofz(x).dtype, dt
        assert sp.wofz(1.0).dtype == ss.wofz(1.0).dtype


@pytest.mark.parametrize("name", ["hankel1", "hankel2", "hankel1e", "hankel2e"])
def test_hankel_scipys_on_gpunp_arrays(name):
    # SciPy's ufunc handed gpunp arrays runs gpunp's wrapper over the real
    # row _<name>_parts (the values: tests/property/test_scipy_special.py)
    theirs = getattr(ss, name)
    assert getattr(sp, name).__name__ == name
    v = np.array([2.5, -3.0, 0.5, 7.25, 1.0])
    z = np.array([1 + 1j, -2 + 0.5j, 3 - 4j, -5 - 0.01j, 20.0 + 0j])
    got = theirs(gp.asarray(v), gp.asarray(z))
    assert isinstance(got, gp.ndarray) and got.dtype == np.complex128
    np.testing.assert_allclose(got.get(), theirs(v, z), rtol=1e-13)


def test_hankel_wrapper_broadcasts_and_refuses_as_scipy():
    # one function: the four share the wrapper (each layout is a kernel)
    z = np.array([1 + 1j, -2 + 0.5j, 3 - 4j, -5 - 0.01j, 20.0 + 0j])
    v = np.array([[0.5], [-3.0], [7.25]])
    got = sp.hankel1(gp.asarray(v), gp.asarray(z))
    assert got.shape == (3, 5)
    np.testing.assert_allclose(got.get(), ss.hankel1(v, z), rtol=1e-13)
    np.testing.assert_allclose(sp.hankel1(2.5, gp.asarray(z)).get(), ss.hankel1(2.5, z), rtol=1e-13)
    # lists as gpunp's ufuncs take them
    np.testing.assert_allclose(sp.hankel1([0.5, 1.5], [1 + 1j, 2.0]).get(),
                               ss.hankel1([0.5, 1.5], [1 + 1j, 2.0]), rtol=1e-13)
    # a complex order and non-numbers: SciPy's no-loop TypeError; a NumPy
    # array: gpunp's TypeError, as its ufuncs'
    for bad in [(1j, 1.0), ("a", 1.0), (1.0, "a")]:
        with pytest.raises(TypeError):
            ss.hankel1(*bad)
        with pytest.raises(TypeError):
            sp.hankel1(*bad)
    with pytest.raises(TypeError, match="not supported for the input types"):
        sp.hankel1(gp.asarray([1j]), 1.0)
    with pytest.raises(TypeError, match="implicitly"):
        sp.hankel1(1.0, z)


def test_hankel_result_dtypes_are_scipys():
    # NumPy scalars and arrays strong, Python numbers weak, a real z is z + 0i
    # (int8 fits complex64, int64 does not); one function: the four share
    # the wrapper (each case is a kernel compiled)
    cases = [(np.float32(1), 2 + 0j), (1.0, np.array([1], np.complex64)),
             (np.int8(1), np.int8(2)), (np.float32(1), np.array([3], np.int64)),
             (np.array([1], np.int8), 2), (2.0, np.array([1], np.int8))]
    for v, z in cases:
        # NumPy scalars as they are (strong), arrays moved
        dev = [gp.asarray(x) if isinstance(x, np.ndarray) else x for x in (v, z)]
        ref = ss.hankel1(v, z)
        out = sp.hankel1(*dev)
        assert out.dtype == ref.dtype, (v, z, out.dtype, ref.dtype)
        assert out.shape == np.shape(ref)
        np.testing.assert_allclose(out.get(), ref, rtol=1e-6 if ref.dtype == np.complex64 else 1e-13)


# ---- orthogonal polynomials and spherical harmonics -------------------------------------

POLY_INT = ("eval_chebyt", "eval_chebyu", "eval_chebyc", "eval_chebys", "eval_sh_chebyt",
            "eval_sh_chebyu", "eval_hermite", "eval_hermitenorm")


def _hermite_terms(n, x, physicists):
    """the largest magnitude of the Hermite recurrence's terms (the recurrence
    with every sign made positive): the scale of its rounding"""
    x = np.sqrt(2) * np.abs(x) if physicists else np.abs(x)
    y3, y2 = np.zeros_like(x), np.ones_like(x)
    big = np.ones_like(x)
    with np.errstate(all="ignore"):
        for k in range(int(n.max()), 1, -1):
            on = k <= n  # each element's loop runs from its own n
            y1 = np.where(on, x * y2 + k * y3, y2)
            y3, y2 = np.where(on, y2, y3), y1
            big = np.maximum(big, y2)
        big = np.maximum(big, x * y2 + y3)
        return big * (2.0 ** (n / 2) if physicists else 1)


@pytest.mark.parametrize("name", POLY_INT)
def test_orthogonal_polynomial_integer_loop_is_scipys(name):
    """The integer-degree loop ("ld->d") against SciPy's, negative degrees,
    both sides of [-1, 1], overflow and the special values: the host gives
    SciPy's bits (the same recurrence); a GPU's fused multiply-adds move each
    step's rounding, an absolute error of 8 eps per step of the terms' scale
    ((n + 1)^2 for Chebyshev's, the positive recurrence's for Hermite's)."""
    rng = np.random.default_rng(5)
    n = rng.integers(-70, 70, 600)
    x = np.concatenate([rng.uniform(-1.2, 1.2, 200), rng.uniform(-1e3, 1e3, 100),
                        10.0 ** rng.uniform(-300, 300, 100) * rng.choice([-1, 1], 100),
                        rng.uniform(-3, 3, 190),
                        [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, 2.0, 1e308]])
    with np.errstate(all="ignore"):
        want = getattr(ss, name)(n, x)
    got = getattr(sp, name)(gp.asarray(n), gp.asarray(x))
    assert got.dtype == want.dtype == np.float64
    got = got.get()
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    an = np.abs(n).astype(np.float64)
    scale = _hermite_terms(an, x, name == "eval_hermite") if "herm" in name else (1 + an) ** 2
    with np.errstate(all="ignore"):
        close = np.abs(got - want) <= 8 * 2.2e-16 * (1 + an) * np.maximum(scale, np.abs(want))
    assert np.all(same | (np.isfinite(got) & close)), (n[~same][:5], x[~same][:5])


@pytest.mark.parametrize("name", POLY_INT[:6])
def test_chebyshev_real_degree(name):
    """The real-degree loop ("dd->d"): a whole n is the integer loop's value
    (SciPy's goes through hyp2f1, far from its own integer loop there); any
    other n the closed forms cos(n t) and sin((n + 1) t) / sin t of x = cos t
    (cosh and sinh beyond 1), against NumPy's; x past -1 has no real value
    for such an n: NaN (SciPy's hyp2f1 gives inf). The float loop ("ff->f")
    is the double one rounded."""
    f = getattr(sp, name)
    rng = np.random.default_rng(6)
    n = np.round(rng.uniform(-30, 30, 300), 3)
    n[:20] = np.arange(-10, 10)
    arg = {"eval_chebyc": lambda x: 2 * x, "eval_chebys": lambda x: 2 * x,
           "eval_sh_chebyt": lambda x: (x + 1) / 2, "eval_sh_chebyu": lambda x: (x + 1) / 2}
    t = np.concatenate([rng.uniform(-1, 1, 150), rng.uniform(1, 3, 100), rng.uniform(-3, -1, 50)])
    x = arg.get(name, lambda v: v)(t)
    got = f(gp.asarray(n), gp.asarray(x)).get()
    t = {"eval_chebyc": x / 2, "eval_chebys": x / 2, "eval_sh_chebyt": 2 * x - 1,
         "eval_sh_chebyu": 2 * x - 1}.get(name, x)
    whole = n == np.floor(n)
    kind_t = name in ("eval_chebyt", "eval_chebyc", "eval_sh_chebyt")
    with np.errstate(all="ignore"):
        inside = np.arccos(np.clip(t, -1, 1))
        outside = np.arccosh(np.maximum(np.abs(t), 1))
        if kind_t:
            closed = np.where(np.abs(t) <= 1, np.cos(n * inside), np.cosh(n * outside))
        else:
            closed = np.where(np.abs(t) <= 1, np.sin((n + 1) * inside) / np.sin(inside),
                              np.sinh((n + 1) * outside) / np.sinh(outside))
        closed = np.where(t < -1, np.nan, closed)
        if name == "eval_chebyc":
            closed = 2 * closed
        want = np.where(whole, getattr(ss, name)(n.astype(np.int64), x), closed)
    # the closed forms' phase n acos(t) is rounded: |n| eps of the envelope
    env = 1 if kind_t else 1 / np.maximum(np.sqrt(np.abs(1 - t * t)), 1e-3)
    tol = 64 * 2.2e-16 * (1 + np.abs(n)) * np.maximum(np.abs(want), env)
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan)
    assert np.all(np.abs(got - want)[~nan] <= tol[~nan] * (1 + (~whole)[~nan] * 4))
    if name not in ("eval_chebyt", "eval_sh_chebyu"):
        return  # the float loops share one conversion: two of them are checked (CI's time)
    got32 = f(gp.asarray(n.astype(np.float32)), gp.asarray(x.astype(np.float32)))
    assert got32.dtype == np.float32
    want32 = f(gp.asarray(n.astype(np.float32).astype(np.float64)),
               gp.asarray(x.astype(np.float32).astype(np.float64))).get().astype(np.float32)
    np.testing.assert_array_equal(got32.get(), want32)


def test_orthogonal_polynomial_dtypes_are_scipys():
    f32, i16 = np.array([2.0, 0.3], np.float32), np.array([2, 3], np.int16)
    for name in ("eval_chebyt", "eval_hermite"):
        theirs, mine = getattr(ss, name), getattr(sp, name)
        # (a float32 array beside a Python float is left out: every SF row of the
        # table takes "dd" there where SciPy takes "ff", poch's and expn's too)
        for a, b in ((i16, f32), (3, f32), (f32, i16), (i16, i16), (f32, f32)):
            try:
                want = theirs(a, b).dtype
            except TypeError:
                with pytest.raises(TypeError):
                    mine(*(gp.asarray(v) if isinstance(v, np.ndarray) else v for v in (a, b)))
                continue
            got = mine(*(gp.asarray(v) if isinstance(v, np.ndarray) else v for v in (a, b)))
            assert got.dtype == want, (name, a, b)


def test_sph_harm_y_matches_scipy():
    """Y_n^m against SciPy's for degrees to 500, |m| above and below n, any
    theta and phi and the special values: an absolute error of 4 eps (1 + n +
    |m phi|) of the envelope sqrt((2n + 1) / 4 pi) (the recurrence's steps
    and the phase m phi, each rounded). SciPy's own is NaN past degree 640
    or so (its int products overflow), so the degrees stay below."""
    rng = np.random.default_rng(7)
    k = 2000
    n = rng.integers(-3, 500, k)
    m = rng.integers(-500, 500, k)
    m = np.where(rng.random(k) < 0.7, m % (np.maximum(n, 1) + 1) * np.sign(m), m)
    theta = np.concatenate([rng.uniform(-10, 10, k // 2), rng.uniform(0, np.pi, k // 2)])
    phi = rng.uniform(-10, 10, k)
    special = np.array([0.0, -0.0, np.pi, np.nan, np.inf, -np.inf, 1e300, 1e-300])
    sn, sm, st, sf = (a.ravel() for a in np.meshgrid([0, 1, 2, 5], [0, 1, -2, 7], special,
                                                      special, indexing="ij"))
    n, m = np.concatenate([n, sn]), np.concatenate([m, sm])
    theta, phi = np.concatenate([theta, st]), np.concatenate([phi, sf])
    with np.errstate(all="ignore"):
        want = ss.sph_harm_y(n, m, theta, phi)
    got = sp.sph_harm_y(gp.asarray(n), gp.asarray(m), gp.asarray(theta), gp.asarray(phi))
    assert isinstance(got, gp.ndarray) and got.dtype == want.dtype == np.complex128
    got = got.get()
    env = np.sqrt((2 * np.maximum(n, 0) + 1) / (4 * np.pi))
    with np.errstate(all="ignore"):
        tol = 4 * 2.2e-16 * env * (1 + np.abs(n) + np.nan_to_num(np.abs(m * phi)))
    for part in ("real", "imag"):
        g, w = getattr(got, part), getattr(want, part)
        same = (g == w) | (np.isnan(g) & np.isnan(w))
        assert np.all(same | (np.abs(g - w) <= tol)), (n[~same][:4], m[~same][:4])


def test_sph_harm_y_shapes_scalars_and_errors():
    got = sp.sph_harm_y(gp.asarray([[1], [2]]), 0, gp.asarray([0.5, 1.0, 2.0]), 0.25)
    want = ss.sph_harm_y(np.array([[1], [2]]), 0, np.array([0.5, 1.0, 2.0]), 0.25)
    assert got.shape == want.shape == (2, 3)
    np.testing.assert_allclose(got.get(), want, rtol=1e-14)
    # Python ints and floats; float32 angles take SciPy 1.17's double loop
    # (complex128), SciPy 1.18's float loop (complex64, SciPy's computed in
    # float: a few float32 ULPs apart), and beside a Python float the double
    assert complex(sp.sph_harm_y(3, 2, 0.5, 0.7).get()) == pytest.approx(
        ss.sph_harm_y(3, 2, 0.5, 0.7), rel=1e-14)
    a32 = np.array([0.5, 0.7], np.float32)
    for theta, phi in ((a32, a32), (a32, 0.7), (a32.astype(np.int16), a32)):
        want = ss.sph_harm_y(3, -2, theta, phi)
        got = sp.sph_harm_y(3, -2, gp.asarray(theta), gp.asarray(phi))
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got.get(), want,
                                   rtol=1e-14 if want.dtype == np.complex128 else 4e-6)
    assert complex(sp.sph_harm_y(3, 2, 0.5, 0.7, diff_n=0.0).get()) == pytest.approx(
        ss.sph_harm_y(3, 2, 0.5, 0.7, diff_n=0.0), rel=1e-14)
    for bad in (1.5, -1, 3):
        with pytest.raises(ValueError):
            ss.sph_harm_y(3, 2, 0.5, 0.7, diff_n=bad)
        with pytest.raises(ValueError):
            sp.sph_harm_y(3, 2, 0.5, 0.7, diff_n=bad)
    with pytest.raises(TypeError):
        sp.sph_harm_y(3, 2, 0.5, 0.7, diff_n="a")
    with pytest.raises(NotImplementedError):
        sp.sph_harm_y(3, 2, 0.5, 0.7, diff_n=1)  # SciPy's derivatives are not here
    for n, theta in ((3.0, 0.5), (np.uint64(3), 0.5), (3, 0.5 + 1j)):
        with pytest.raises(TypeError, match="not supported for the input types"):
            ss.sph_harm_y(n, 2, theta, 0.7)
        with pytest.raises(TypeError, match="not supported for the input types"):
            sp.sph_harm_y(gp.asarray(n), 2, gp.asarray(theta), 0.7)
    # SciPy's multi-ufunc converts its arguments to NumPy before its ufunc:
    # gpunp's refusal of the implicit transfer
    with pytest.raises(TypeError, match="Implicit conversion"):
        ss.sph_harm_y(gp.asarray([3]), 2, gp.asarray([0.5]), 0.7)


# ---- comb, perm and the factorials ------------------------------------------------------

_N = np.array([5, 6, -1, 3, 10, 0, 70, 2])
_K = np.array([2, 6, 1, 4, 3, 0, 35, -1])
_NF = np.array([0, 1, 2, 5, 20, -3, 15, 19])
COUNTING = [("comb", (_N, _K), {}), ("comb", (5, 2), {}), ("comb", (5.5, 2), {}),
            ("comb", (-1, 2), {}),
            ("comb", (np.array([5.5, 3.2]), np.array([2.0, 1.5])), {}),
            ("comb", (100, 50), {}), ("comb", (_N, _K), {"repetition": True}),
            ("comb", (0, 0), {"repetition": True}), ("comb", (5, 3), {"repetition": True}),
            ("perm", (_N, _K), {}), ("perm", (5.0, 2), {}), ("perm", (5.5, 2), {}),
            ("perm", (np.array([7]), np.array([3])), {}), ("perm", (100, 50), {}),
            ("perm", (np.array([5.5, 3.2]), np.array([2.0, 1.5])), {})]
for _f, _k in (("factorial", ()), ("factorial2", ()), ("factorialk", (3,)),
               ("factorialk", (10,))):
    for _n in (_NF, 5, -2, 0, np.int64(7), 7.0, np.array([], np.int64), True, None, np.nan,
               np.array([2.5, np.nan, -1.0, 4.0]), 3 + 1j, 40):
        COUNTING.append((_f, (_n,) + _k, {}))
    for _n in (np.array([2.5, np.nan, -1.0, 4.0, -2.5]), 2.5, -1):
        COUNTING.append((_f, (_n,) + _k, {"extend": "complex"}))
    COUNTING += [(_f, (_NF,) + _k, {"extend": "bad"}),
                 (_f, (_NF,) + _k, {"exact": True, "extend": "complex"})]
# the other dtypes where SciPy's result follows them (gamma's float32 and
# int8 loops; factorial2 and factorialk share one path)
COUNTING += [("factorial", (_NF.astype(np.int8),), {}),
             ("factorialk", (_NF.astype(np.int8), 3), {}),
             ("factorial", (np.array([2.5, 3], np.float32),), {}),
             ("factorial", (np.float32(2.5),), {}), ("factorial", (_NF,), {"extend": "complex"}),
             ("factorialk", (np.array([2.5, 3], np.float32), 3), {"extend": "complex"})]
for _kk in (0, -1, 2.5, "a", True):
    COUNTING += [("factorialk", (5, _kk), {}), ("factorialk", (5, _kk), {"extend": "complex"})]


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize("case", range(len(COUNTING)))
def test_counting_functions_are_scipys(case, exact):
    """comb, perm, factorial, factorial2, factorialk against SciPy: the
    value and dtype (a 0-d gpunp array for SciPy's NumPy scalar, Python ints
    for the exact scalars, int64 arrays for the exact arrays), and the
    exception's type and message for the inputs SciPy refuses."""
    name, args, kw = COUNTING[case]
    kw = dict(kw, exact=exact) if not (exact and "exact" in kw) else kw
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want, err = getattr(ss, name)(*args, **kw), None
        except (ValueError, TypeError) as e:
            want, err = None, e
    mine = [gp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    if err is not None:
        with pytest.raises(type(err)) as got:
            getattr(sp, name)(*mine, **kw)
        assert str(got.value).split(":")[0] == str(err).split(":")[0]
        return
    if np.iscomplexobj(want):
        # a negative k with extend='complex': SciPy's result is complex, and
        # gpunp's special functions have no complex loops
        with pytest.raises(TypeError, match="no complex loops"):
            getattr(sp, name)(*mine, **kw)
        return
    if getattr(want, "dtype", None) == object:
        # SciPy's exact k > 9 array is an object array of Python ints: not a gpunp array's
        assert want.dtype == object
        with pytest.raises(OverflowError):
            getattr(sp, name)(*mine, **kw)
        return
    got = getattr(sp, name)(*mine, **kw)
    if isinstance(want, int):
        assert type(got) is int and got == want
        return
    assert isinstance(got, gp.ndarray)
    want = np.asarray(want)
    got = got.get()
    assert got.dtype == want.dtype and got.shape == want.shape
    # binom's and poch's allowance (their TOL rows: 8 ULPs per unit of the
    # arguments' log Gammas, some 800 at comb(100, 50))
    np.testing.assert_allclose(got, want, rtol=5e-12 if want.dtype == np.float64 else 1e-6,
                               atol=0)


def test_exact_factorial_past_int64_is_refused():
    """SciPy gives an object array of Python ints past 20! (int64's end);
    a gpunp array cannot hold one"""
    n = np.array([3, 21])
    assert ss.factorial(n, exact=True).dtype == object
    with pytest.raises(OverflowError, match="object array"):
        sp.factorial(gp.asarray(n), exact=True)
    np.testing.assert_array_equal(sp.factorial(gp.asarray([3, 20]), exact=True).get(),
                                  ss.factorial(np.array([3, 20]), exact=True))


# ---- diric, bernoulli, euler ------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 3, 4, 7, 0, -1, 2.5, "array"])
def test_diric_matches_scipy(n):
    """the kernel, its limits (+-1) near x = 2 pi k, NaN for a bad n, in the
    dtype SciPy gives (float32 for float32 x and n, float64 otherwise)"""
    x = np.concatenate([np.linspace(-20, 20, 401), 2 * np.pi * np.arange(-3, 4),
                        [np.nan, np.inf, 1e-9, -1e-9]])
    nn = np.resize(np.array([1, 2, 3, 6]), x.shape) if n == "array" else n
    for xs, ns in ((x, nn), (x.astype(np.float32), np.float32(nn) if n != "array" else
                             nn.astype(np.float32)), (np.arange(-5, 5), 3)):
        with np.errstate(all="ignore"):
            want = ss.diric(xs, ns)
        got = sp.diric(gp.asarray(xs), gp.asarray(ns) if isinstance(ns, np.ndarray) else ns)
        assert got.dtype == want.dtype and got.shape == want.shape
        # SciPy's float32 loop rounds x / 2 and sin(x / 2) in float32: near
        # x = 2 pi k an error of eps32 |x| / |sin(x / 2)| (gpunp's in double)
        eps = np.finfo(want.dtype).eps
        with np.errstate(all="ignore"):
            h = np.asarray(xs, np.float64) / 2
            tol = 8 * eps * (1 + np.abs(h) / np.maximum(np.abs(np.sin(h)), 1e-3))
        got = got.get()
        same = (got == want) | (np.isnan(got) & np.isnan(want))
        assert np.all(same | (np.abs(got - want) <= tol)), xs[~same]


def test_bernoulli_and_euler_match_scipy():
    """B_0 .. B_n and E_0 .. E_n: exact numbers rounded once (B_12 is
    -691/2730 to the last bit), SciPy's to within its own error (specfun's
    B_4 is 1.7e-12 from -1/30), and the same overflow to +-inf past B_258
    and E_186"""
    from fractions import Fraction
    for n in (0, 1, 2, 5, 30, 300, 3.0, 2.5, np.int64(7)):
        for name in ("bernoulli", "euler"):
            want = getattr(ss, name)(n)
            got = getattr(sp, name)(n)
            assert isinstance(got, gp.ndarray) and got.dtype == want.dtype == np.float64
            got = got.get()
            assert got.shape == want.shape
            np.testing.assert_array_equal(np.sign(got), np.sign(want))
            np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
            finite = np.isfinite(want)
            np.testing.assert_allclose(got[finite], want[finite], rtol=1e-11, atol=0)
    assert sp.bernoulli(12).get()[12] == float(Fraction(-691, 2730))
    assert sp.euler(10).get()[10] == -50521.0
    for bad in (-1, np.array([3]), gp.asarray(3)):
        with pytest.raises(ValueError, match="non-negative integer"):
            sp.bernoulli(bad)
        with pytest.raises(ValueError, match="non-negative integer"):
            sp.euler(bad)
    with pytest.raises(ValueError):
        ss.bernoulli(np.array([3]))


# ---- Legendre, Laguerre, Gegenbauer and Jacobi polynomials (sfpoly) ---------------------

# name: (the number of parameters between n and x, where they are drawn)
OPOLY = {"eval_legendre": 0, "eval_sh_legendre": 0, "eval_laguerre": 0, "eval_genlaguerre": 1,
         "eval_gegenbauer": 1, "eval_jacobi": 2, "eval_sh_jacobi": 2}


def _opoly_params(name, rng, k):
    """the parameters (alpha, beta; p, q for the shifted Jacobi) where SciPy's
    polynomials are defined (alpha, beta > -1; p - q > -1, q > 0)"""
    if name == "eval_sh_jacobi":
        q = rng.uniform(0.05, 5, k)
        return [q + rng.uniform(-0.9, 4, k), q]
    return [rng.uniform(-0.9, 4, k) for _ in range(OPOLY[name])]


@pytest.mark.parametrize("name", sorted(OPOLY))
def test_orthogonal_polynomial_integer_loop_matches_scipy(name):
    """The integer-degree loop ("l...->d") against SciPy's: its recurrence
    step for step (the host's bits but for binom's prefactor, gpunp's within
    an ULP or two of the exact value where SciPy's is not), negative
    degrees, both sides of [-1, 1] and the special values. A GPU's fused
    multiply-adds move each step's rounding: 8 eps per step of the terms'
    scale (the polynomial's size at |x| + 2, where no term cancels)."""
    rng = np.random.default_rng(11)
    k = 400
    n = rng.integers(-40, 60, k)
    x = np.concatenate([rng.uniform(-1.2, 1.2, 150), rng.uniform(-30, 30, 100),
                        10.0 ** rng.uniform(-300, 300, 60) * rng.choice([-1, 1], 60),
                        rng.uniform(-1e-5, 1e-5, 80),
                        [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, 2.0, 1e308]])
    if name in ("eval_sh_legendre", "eval_sh_jacobi"):
        x = (x + 1) / 2
    params = _opoly_params(name, rng, k)
    f, g = getattr(ss, name), getattr(sp, name)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = f(n, *params, x)
        scale = np.abs(f(np.abs(n), *params, np.abs(x) + 2))
    got = g(*(gp.asarray(v) for v in (n, *params, x)))
    assert got.dtype == want.dtype == np.float64
    got = got.get()
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    with np.errstate(all="ignore"):
        tol = 8 * 2.2e-16 * (1 + np.abs(n)) * np.maximum(np.nan_to_num(scale), np.abs(want))
        close = np.abs(got - want) <= tol
    assert np.all(same | (np.isfinite(got) & close)), (n[~same & ~close][:5],
                                                        x[~same & ~close][:5])


def _hyp_decimal(a, b, c, z, two=True):
    """the hypergeometric series 2F1(a, b; c; z) (or 1F1(a; c; z) without
    `two`) summed in 60-digit decimals: free of the cancellation that a
    large degree brings to double's sum"""
    from decimal import Decimal, localcontext
    with localcontext() as ctx:
        ctx.prec = 60
        a, b, c, z = (Decimal(float(v)) for v in (a, b, c, z))
        s = t = Decimal(1)
        big = abs(a) + abs(b)
        for k in range(20000):
            t = t * (a + k) * ((b + k) if two else 1) / ((c + k) * (k + 1)) * z
            s += t
            if t == 0 or (k > big and abs(t) < abs(s) * Decimal(10) ** -40):
                break
        return float(s)


def _opoly_reference(name, n, params, x):
    """the real degree's value by its hypergeometric form (A&S 22.5), the
    series in decimals and the Gamma prefactor in double (a few ULPs)"""
    if name == "eval_sh_legendre":
        return _opoly_reference("eval_legendre", n, params, 2 * x - 1)
    if name == "eval_sh_jacobi":
        p, q = params
        return (_opoly_reference("eval_jacobi", n, (p - q, q - 1), 2 * x - 1) /
                ss.binom(2 * n + p - 1, n))
    if name == "eval_legendre":
        return _hyp_decimal(-n, n + 1, 1, (1 - x) / 2)
    if name in ("eval_laguerre", "eval_genlaguerre"):
        alpha = params[0] if params else 0.0
        return ss.binom(n + alpha, n) * _hyp_decimal(-n, 0, alpha + 1, x, two=False)
    if name == "eval_gegenbauer":
        (alpha,) = params
        d = ss.gamma(n + 2 * alpha) / ss.gamma(n + 1) / ss.gamma(2 * alpha)
        return d * _hyp_decimal(-n, n + 2 * alpha, alpha + 0.5, (1 - x) / 2)
    alpha, beta = params
    return ss.binom(n + alpha, n) * _hyp_decimal(-n, n + alpha + beta + 1, alpha + 1, (1 - x) / 2)


@pytest.mark.parametrize("name", sorted(OPOLY))
def test_orthogonal_polynomial_real_degree(name):
    """The real-degree loop ("d...->d") at degrees that are not whole, against
    the hypergeometric series in 60-digit decimals (where it converges:
    (1 - x) / 2 in (-1, 0.95]; Laguerre's everywhere): SciPy's own hyp2f1 is
    up to 1e-4 off there at degrees near 20 (eval_legendre(18.818, -0.6994):
    0.1832845, the value 0.1833107), so SciPy is the reference only where it
    agrees with the decimal sum. Past x = -1 a real degree has no real
    value: SciPy's inf (its hyp2f1's), as gpunp's."""
    rng = np.random.default_rng(12)
    k = 40
    n = np.round(rng.uniform(0.05, 24, k), 3)
    n = np.where(n == np.floor(n), n + 0.5, n)
    if name in ("eval_legendre", "eval_sh_legendre", "eval_laguerre", "eval_genlaguerre"):
        n[::3] = -n[::3]  # Legendre's P_-n-1 = P_n; Laguerre's 1F1 of a positive a
    if name in ("eval_laguerre", "eval_genlaguerre"):
        x = rng.uniform(-12, 12, k)
    else:
        x = np.concatenate([rng.uniform(-0.9, 1, k - 8), rng.uniform(1, 2.8, 8)])
        if name in ("eval_sh_legendre", "eval_sh_jacobi"):
            x = (x + 1) / 2
    params = _opoly_params(name, rng, k)
    got = getattr(sp, name)(*(gp.asarray(v) for v in (n, *params, x))).get()
    ref = np.array([_opoly_reference(name, n[i], [p[i] for p in params], x[i])
                    for i in range(k)])
    # a few ULPs of each of the two start values and the recurrence's steps,
    # of the value or near its zeros of the polynomial's size (its value at
    # x = 1, the prefactor)
    env = np.array([abs(_opoly_reference(name, n[i], [p[i] for p in params],
                                         1.0 if name not in ("eval_laguerre",
                                                             "eval_genlaguerre") else 0.0))
                    for i in range(k)])
    tol = 4e-14 * (1 + np.abs(n)) * np.maximum(np.abs(ref), env)
    if name in ("eval_laguerre", "eval_genlaguerre"):
        # a negative degree is 1F1's series alone, whose terms cancel: 1e-9
        # (SciPy's Boost as far off: eval_laguerre(-19.472, -8.488) both
        # 1e-9 from mpmath's)
        tol = np.where(n < 0, 2e-9 * np.abs(ref), tol * (1 + np.abs(x)))
    assert np.all(np.abs(got - ref) <= tol), (n[np.abs(got - ref) > tol],
                                              x[np.abs(got - ref) > tol])
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = getattr(ss, name)(n, *params, x)
    agree = np.abs(want - ref) <= tol
    assert agree.sum() >= k // 4
    assert np.all(np.abs(got - want)[agree] <= 2 * tol[agree])
    # past -1 (x = 0 for the shifted ones): SciPy's inf times the prefactor
    if name not in ("eval_laguerre", "eval_genlaguerre"):
        xo = -1.5 if name not in ("eval_sh_legendre", "eval_sh_jacobi") else -0.25
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = getattr(ss, name)(n, *params, xo)
        got = getattr(sp, name)(*(gp.asarray(v) for v in (n, *params)), xo).get()
        np.testing.assert_array_equal(got, want)


def test_orthogonal_polynomial_whole_real_degree_is_the_integer_loop():
    """A whole degree in the real loop ("dd->d") is the integer loop's value
    (SciPy's real loop goes through hyp2f1, NaN at eval_legendre(14.0, 1e300)
    where its own integer loop's is inf, and its hyp1f1 3e-8 from its
    integer loop at eval_laguerre(38.0, 3.968)); the float loop is the double
    one rounded once."""
    rng = np.random.default_rng(13)
    n = rng.integers(-10, 40, 200)
    x = np.concatenate([rng.uniform(-3, 3, 190), [1e300, -1e300, np.inf, -np.inf, np.nan,
                                                  0.0, 1.0, -1.0, 1e-7, 5.0]])
    for name in ("eval_legendre", "eval_laguerre", "eval_jacobi"):
        params = [np.full(200, 0.25)] * OPOLY[name]
        f = getattr(sp, name)
        args = [gp.asarray(v) for v in (*params, x)]
        whole = f(gp.asarray(n.astype(np.float64)), *args).get()
        np.testing.assert_array_equal(whole, f(gp.asarray(n), *args).get())
        with np.errstate(all="ignore"):
            # (SciPy's Jacobi of a negative degree is its hyp2f1's, gpunp's 2F1 another)
            np.testing.assert_allclose(whole, getattr(ss, name)(n, *params, x), rtol=1e-13)
    # the float loop: the double loop's value rounded
    n32, x32 = np.float32(rng.uniform(0, 20, 50)), np.float32(rng.uniform(-1, 1, 50))
    got = sp.eval_gegenbauer(gp.asarray(n32), np.float32(0.75), gp.asarray(x32))
    assert got.dtype == np.float32
    want = sp.eval_gegenbauer(gp.asarray(n32.astype(np.float64)), 0.75,
                              gp.asarray(x32.astype(np.float64))).get().astype(np.float32)
    np.testing.assert_array_equal(got.get(), want)


def test_orthogonal_polynomial_scipy_release_edges():
    """Where SciPy 1.18 changed the polynomials, the running SciPy's answer:
    Gegenbauer's alpha = 0 (1.18: 0; 1.17: 1 at n = 0, else 0 through its
    real loop, NaN where that overflows) and x < 0 (1.18 by C_n(-x) =
    (-1)^n C_n(x)); Jacobi's alpha = -1, |beta| = 1 (1.18: (x - 1) factored
    out; 1.17: NaN). (A whole degree in the float loops is the integer
    loop's, which 1.17's real loops are not: test above.)"""
    n = np.arange(0, 8)
    x = np.array([0.5, -0.3, 1e200, -2.0, 0.0])[:, None]
    for name, params in (("eval_gegenbauer", [0.0]), ("eval_gegenbauer", [0.4]),
                         ("eval_jacobi", [-1.0, 1.0]), ("eval_jacobi", [-1.0, -1.0]),
                         ("eval_sh_jacobi", [1.0, 2.0])):
        # (x = 1e200 with the integer degrees for Gegenbauer's only: 1.18's Jacobi
        # at alpha = -1 goes through its hyp2f1 there, NaN where the value overflows)
        xi = x if name == "eval_gegenbauer" else x[[0, 1, 3, 4]]
        # (not checked: a real degree below 1 at alpha = -1, where 2F1's c is 0:
        # SciPy 1.18's eval_sh_jacobi(0.5, 1, 2, x) is finite, gpunp's NaN)
        real = [] if name == "eval_sh_jacobi" else [(n + 0.5, x[[0, 1, 3, 4]])]
        for deg, xs in [(n, xi)] + real:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = getattr(ss, name)(deg, *params, xs)
            got = getattr(sp, name)(gp.asarray(deg), *params, gp.asarray(xs)).get()
            same = (got == want) | (np.isnan(got) & np.isnan(want))
            # (1.18's factored form and gpunp's recurrence round apart: absolute
            # near the zeros, 2.8e-17 for 0 at eval_jacobi(5, -1, -1, 0))
            close = np.abs(got - want) <= 1e-13 * np.maximum(np.abs(want), 1)
            assert np.all(same | close), (name, params, deg, got, want)


def test_orthogonal_polynomial_domains_and_dtypes():
    # alpha <= -1: NaN in both loops (SciPy's domain error)
    for name in ("eval_genlaguerre",):
        got = getattr(sp, name)(gp.asarray([2, 3]), gp.asarray([-1.0, -2.5]), 0.5).get()
        assert np.all(np.isnan(got))
        got = getattr(sp, name)(gp.asarray([2.5, 3.0]), gp.asarray([-1.0, -2.5]), 0.5).get()
        assert np.all(np.isnan(got))
    f32, i16 = np.array([2.0, 0.3], np.float32), np.array([2, 3], np.int16)
    for name in ("eval_legendre", "eval_jacobi"):
        theirs, mine = getattr(ss, name), getattr(sp, name)
        extra = [f32] * OPOLY[name]
        for a, b in ((i16, f32), (f32, f32), (i16, i16), (f32, i16)):
            want = theirs(a, *extra, b).dtype
            got = mine(*(gp.asarray(v) for v in (a, *extra, b)))
            assert got.dtype == want, (name, a.dtype, b.dtype)
