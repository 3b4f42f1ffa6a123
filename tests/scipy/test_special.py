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
    args = [X] * theirs.nin
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
        ss.airy(gp.asarray(X))  # not in gpunp.scipy.special: NumPy's TypeError
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


A = np.array([[0.0, 1.0, -np.inf, 3.0], [-np.inf, -np.inf, -np.inf, -np.inf],
              [1000.0, 999.0, -1.0, 2.0]])


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_logsumexp_matches_scipy(axis, keepdims):
    got = sp.logsumexp(gp.asarray(A), axis=axis, keepdims=keepdims)
    want = ss.logsumexp(A, axis=axis, keepdims=keepdims)
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(got.get(), want, rtol=1e-14)


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
