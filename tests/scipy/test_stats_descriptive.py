"""gpunp.scipy.stats' descriptive statistics against SciPy's: every
function on a 2-D sample with a NaN along each axis and each nan_policy,
float32 and integer input, empty and length-1 slices, keepdims, and SciPy's
errors. Random samples of any shape are tests/property/test_scipy_stats.py's."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.stats as ss

import gpunp as gp
import gpunp.scipy.stats as gs

RNG = np.random.default_rng(1234)
X = RNG.standard_normal((5, 7))
X[1, 2] = np.nan
POS = np.abs(X) + 0.25

# name -> (extra arguments, positive data only, accepts keepdims)
REDUCTIONS = {
    "skew": ({}, False, True),
    "kurtosis": ({}, False, True),
    "moment": ({"order": 3}, False, True),
    "sem": ({}, False, True),
    "variation": ({}, False, True),
    "gmean": ({}, True, True),
    "hmean": ({}, True, True),
    "pmean": ({"p": 1.5}, True, True),
    "entropy": ({}, True, True),
    "iqr": ({}, False, True),
    "median_abs_deviation": ({}, False, True),
    "trim_mean": ({"proportiontocut": 0.2}, False, True),
    "boxcox_llf": ({"lmb": 0.5}, True, True),
    "tmean": ({"limits": (-1, 1)}, False, True),
    "tvar": ({"limits": (-1, 1)}, False, True),
    "tstd": ({"limits": (-1, 1), "inclusive": (False, True)}, False, True),
    "tsem": ({"limits": (-1.5, None)}, False, True),
    "tmin": ({"lowerlimit": -0.5}, False, True),
    "tmax": ({"upperlimit": 0.5, "inclusive": False}, False, True),
}


def _call(mod, name, x, **kw):
    extra, _, _ = REDUCTIONS.get(name, ({}, False, False))
    kw = {**extra, **kw}
    if name == "boxcox_llf":
        lmb = kw.pop("lmb")
        return getattr(mod, name)(lmb, x, **kw)
    return getattr(mod, name)(x, **kw)


def _check(mine, theirs, rtol=1e-10, dtype=None):
    if mine is None and theirs is None:  # both raised
        return
    mine_np = gp.asnumpy(mine)
    theirs = np.asarray(theirs)
    assert mine_np.shape == theirs.shape
    if dtype is not None:
        assert mine_np.dtype == theirs.dtype
    np.testing.assert_allclose(mine_np, theirs, rtol=rtol, atol=rtol * 1e-3, equal_nan=True)


def _both(name, x, **kw):
    """gpunp's and SciPy's answers, or, where SciPy raises, the check that
    gpunp raises the same exception (then None, None)."""
    mine_kw = {k: gp.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            theirs = _call(ss, name, x, **kw)
        except Exception as e:
            with pytest.raises(type(e)):
                _call(gs, name, gp.asarray(x), **mine_kw)
            return None, None
        mine = _call(gs, name, gp.asarray(x), **mine_kw)
    return mine, theirs


# every function along the last axis; the other axes (each a reduction
# kernel of its own) for a few, and for all in tests/property/
CASES = [(name, -1) for name in sorted(REDUCTIONS)] + [
    (name, axis) for name in ("skew", "gmean", "iqr", "tmean", "trim_mean", "entropy")
    for axis in (0, None)]


@pytest.mark.parametrize("name, axis", CASES)
@pytest.mark.parametrize("nan_policy", ["propagate", "omit"])
def test_reduction_matches_scipy(name, axis, nan_policy):
    x = POS if REDUCTIONS[name][1] else X
    mine, theirs = _both(name, x, axis=axis, nan_policy=nan_policy)
    _check(mine, theirs, dtype=True)


# float32 (a kernel per op and dtype) for a few: the others share their code
@pytest.mark.parametrize("name", ["skew", "gmean", "iqr", "tvar", "boxcox_llf"])
def test_reduction_keepdims_float32(name):
    x = (POS if REDUCTIONS[name][1] else X)[[0, 2, 3]].astype(np.float32)
    mine, theirs = _both(name, x, axis=1, keepdims=True)
    _check(mine, theirs, rtol=2e-5, dtype=True)


@pytest.mark.parametrize("name", ["skew", "kurtosis", "gmean", "sem", "variation", "entropy",
                                  "iqr", "tmean", "tmin", "moment"])
def test_integer_input(name):
    x = np.array([[3, 1, 4, 1, 5], [9, 2, 6, 5, 3]], dtype=np.int32)
    mine, theirs = _both(name, x, axis=1)
    _check(mine, theirs, dtype=True)


@pytest.mark.parametrize("name", ["skew", "kurtosis", "moment", "sem", "variation", "gmean",
                                  "hmean", "iqr", "median_abs_deviation", "trim_mean",
                                  "entropy", "tvar"])
@pytest.mark.parametrize("n", [0, 1])
def test_empty_and_single(name, n):
    x = np.full((3, n), 2.0)
    mine, theirs = _both(name, x, axis=1)
    _check(mine, theirs)


@pytest.mark.parametrize("name", ["skew", "kurtosis", "sem", "gmean", "iqr", "trim_mean",
                                  "zscore", "entropy", "mode"])
def test_nan_policy_raise_and_bad_policy(name):
    with pytest.raises(ValueError, match="contains nan"):
        _call(gs, name, gp.asarray(X), nan_policy="raise")
    with pytest.raises(ValueError, match="nan_policy must be one of"):
        _call(gs, name, gp.asarray(X), nan_policy="maybe")


@pytest.mark.parametrize("bias", [True, False])
def test_skew_kurtosis_bias_and_constant_slices(bias):
    x = np.vstack([X[[0, 2]], np.full(7, 3.0), np.arange(7.0)])
    for name, kw in [("skew", {}), ("kurtosis", {}), ("kurtosis", {"fisher": False})]:
        mine, theirs = _both(name, x, axis=1, bias=bias, **kw)
        _check(mine, theirs)


def test_moment_orders_and_center():
    for kw in [{"order": 0}, {"order": 1}, {"order": [1, 2, 4]}, {"order": 2, "center": 0.5},
               {"order": 3, "center": 0.0}]:
        mine, theirs = _both("moment", X[[0, 2]], axis=1, **kw)
        _check(mine, theirs)
    with pytest.raises(ValueError):
        gs.moment(gp.asarray(X), order=1.5)


def test_means_weights_and_dtype():
    w = np.arange(1.0, 8.0)
    for name in ["gmean", "hmean"]:
        mine, theirs = _both(name, POS, axis=1, weights=w)
        _check(mine, theirs)
    mine, theirs = _both("pmean", POS, axis=1, p=-2, weights=w)
    _check(mine, theirs)
    mine, theirs = _both("pmean", POS, axis=0, p=0)
    _check(mine, theirs)
    mine, theirs = _both("gmean", POS.astype(np.float32), axis=0, dtype=np.float64)
    _check(mine, theirs, dtype=True)
    neg = np.array([[-1.0, 2.0], [1.0, 2.0]])
    for name, kw in [("hmean", {}), ("pmean", {"p": 2})]:
        mine, theirs = _both(name, neg, axis=1, **kw)
        _check(mine, theirs)


@pytest.mark.parametrize("scale", [1.0, "normal", 2.5])
def test_iqr_and_mad_options(scale):
    for kw in [{"rng": (10, 90)}, {"interpolation": "midpoint"}, {"interpolation": "lower"}]:
        mine, theirs = _both("iqr", X[[0, 2, 3]], axis=1, scale=scale, **kw)
        _check(mine, theirs)
    mine, theirs = _both("median_abs_deviation", X[[0, 2]], axis=1, scale=scale)
    _check(mine, theirs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mine = gs.median_abs_deviation(gp.asarray(X[0]), center=gp.mean)
        theirs = ss.median_abs_deviation(X[0], center=np.mean)
    _check(mine, theirs)
    with pytest.raises(ValueError):
        gs.iqr(gp.asarray(X), scale="bogus")


def test_zscore_zmap():
    for axis in [0, 1, None]:
        for pol in ["propagate", "omit"]:
            for ddof in [0, 1]:
                mine, theirs = _both("zscore", X, axis=axis, nan_policy=pol, ddof=ddof)
                _check(mine, theirs)
    c = X[[0, 2, 3]]
    _check(gs.zmap(gp.asarray(X[4]), gp.asarray(c), axis=0), ss.zmap(X[4], c, axis=0))
    x32 = X[[0, 2]].astype(np.float32)
    mine, theirs = _both("zscore", x32, axis=1)
    _check(mine, theirs, rtol=2e-6, dtype=True)
    mine, theirs = _both("zscore", np.array([[1, 2, 3], [4, 4, 4]]), axis=1)
    _check(mine, theirs, dtype=True)


def test_entropy_two_distributions_and_base():
    p, q = POS[[0, 2]], POS[[3, 4]]
    for kw in [{}, {"base": 2}]:
        _check(gs.entropy(gp.asarray(p), gp.asarray(q), axis=1, **kw),
               ss.entropy(p, q, axis=1, **kw))
        _check(gs.entropy(gp.asarray(p), **kw), ss.entropy(p, **kw))
    _check(gs.entropy(gp.asarray(p), gp.asarray(q[0]), axis=1), ss.entropy(p, q[0], axis=1))
    with pytest.raises(ValueError, match="incompatible"):
        gs.entropy(gp.asarray([1.0, 2.0]), gp.asarray([1.0, 2.0, 3.0]))


def test_trim_mean_boxcox_errors_and_cases():
    for p in [0.0, 0.1, 0.5]:
        mine, theirs = _both("trim_mean", X, axis=0, nan_policy="omit", proportiontocut=p)
        _check(mine, theirs)
    with pytest.raises(ValueError, match="Proportion too big"):
        gs.trim_mean(gp.asarray(X), 0.6)
    for lmb in [0, -1.5, 3.0]:
        mine, theirs = _both("boxcox_llf", POS, axis=1, lmb=lmb)
        _check(mine, theirs, rtol=1e-9)
    big = np.array([1e-3, 1.0, 1e3, 1e5])
    _check(gs.boxcox_llf(60.0, gp.asarray(big)), ss.boxcox_llf(60.0, big), rtol=1e-9)


def test_describe():
    for axis in [0, 1, None]:
        for kw in [{}, {"ddof": 0, "bias": False}]:
            x = X[[0, 2, 3]]
            mine = gs.describe(gp.asarray(x), axis=axis, **kw)
            theirs = ss.describe(x, axis=axis, **kw)
            assert mine.nobs == theirs.nobs
            for a, b in zip([*mine.minmax, *mine[2:]], [*theirs.minmax, *theirs[2:]]):
                _check(a, b)
    d = gs.describe(gp.asarray([3, 1, 2]))
    assert d.minmax[0].dtype == gp.int64 and float(d.mean) == 2.0
    with pytest.raises(ValueError, match="must not be empty"):
        gs.describe(gp.asarray([]))


@pytest.mark.parametrize("nan_policy", ["propagate", "omit"])
def test_mode_ties_and_nans(nan_policy):
    x = np.array([[2, 2, 1, 1, 3, np.nan], [np.nan, np.nan, 1, 5, 5, 4],
                  [np.nan] * 6, [7, 1, 7, 1, 7, 1]])
    for axis in [0, 1, None]:
        mine, theirs = _both("mode", x, axis=axis, nan_policy=nan_policy)
        _check(mine.mode, theirs.mode)
        _check(mine.count, theirs.count)
    xi = np.array([[3, 3, 1, 1, 2], [0, 9, 9, 0, 9]], dtype=np.int16)
    mine, theirs = _both("mode", xi, axis=1, keepdims=True)
    _check(mine.mode, theirs.mode, dtype=True)
    _check(mine.count, theirs.count)
    mine, theirs = _both("mode", np.zeros((2, 0)), axis=1)
    _check(mine.mode, theirs.mode)
    # one slice, all NaN: its count is 0.0 in a's dtype under 'omit'
    for x1 in [np.array([np.nan]), np.array([np.nan, 1.0, 1.0])]:
        mine, theirs = _both("mode", x1, nan_policy=nan_policy)
        _check(mine.count, theirs.count, dtype=True)


def test_trimmed_limits_and_all_out():
    x = np.arange(10.0).reshape(2, 5)
    for name, kw in [("tmean", {"limits": (2, 7), "axis": 1}),
                     ("tvar", {"limits": (2, 7), "inclusive": (False, False), "axis": 1}),
                     ("tmin", {"lowerlimit": 3, "axis": 1}), ("tmax", {"upperlimit": 3, "axis": 1}),
                     ("tmin", {"lowerlimit": 3, "axis": None})]:
        mine, theirs = _both(name, x, **kw)
        _check(mine, theirs)
    _check(gs.tmin(gp.arange(5), 3), ss.tmin(np.arange(5), 3), dtype=True)
    with pytest.raises(ValueError, match="No array values"):
        gs.tmean(gp.asarray(x), (20, 30))


def test_trimboth_trim1_sigmaclip():
    x = RNG.permutation(20).astype(np.float64).reshape(4, 5)
    for axis in [0, 1]:
        for p in [0.0, 0.2, 0.4]:
            np.testing.assert_array_equal(gp.asnumpy(gs.trimboth(gp.asarray(x), p, axis=axis)),
                                          np.sort(ss.trimboth(x, p, axis=axis), axis=axis))
            for tail in ["left", "right"]:
                np.testing.assert_array_equal(
                    gp.asnumpy(gs.trim1(gp.asarray(x), p, tail, axis=axis)),
                    np.sort(ss.trim1(x, p, tail, axis=axis), axis=axis))
    with pytest.raises(ValueError, match="Proportion too big"):
        gs.trimboth(gp.asarray(x), 0.5, axis=0)
    y = np.r_[RNG.standard_normal(50), 30.0, -25.0]
    for low, high in [(4, 4), (1.5, 2)]:
        mine, theirs = gs.sigmaclip(gp.asarray(y), low, high), ss.sigmaclip(y, low, high)
        np.testing.assert_allclose(np.sort(gp.asnumpy(mine.clipped)), np.sort(theirs.clipped))
        _check(mine.lower, theirs.lower)
        _check(mine.upper, theirs.upper)


def test_percentileofscore():
    a = np.array([1, 2, 2, 3, 4, 4, 4, 9.0])
    for kind in ["rank", "weak", "strict", "mean"]:
        for score in [2, 4, [0, 2.5, 4, 10, np.nan]]:
            _check(gs.percentileofscore(gp.asarray(a), gp.asarray(score), kind=kind),
                   ss.percentileofscore(a, score, kind=kind))
    an = np.r_[a, np.nan]
    for pol in ["propagate", "omit"]:
        _check(gs.percentileofscore(gp.asarray(an), 4, nan_policy=pol),
               ss.percentileofscore(an, 4, nan_policy=pol))
    with pytest.raises(ValueError, match="kind"):
        gs.percentileofscore(gp.asarray(a), 2, kind="nope")


def test_cumfreq_relfreq():
    a = np.array([1, 4, 2, 1, 3, 1, 7.5])
    w = np.arange(7.0)
    for kw in [{}, {"numbins": 4}, {"numbins": 3, "defaultreallimits": (0, 5)},
               {"numbins": 5, "weights": w}]:
        for name in ["cumfreq", "relfreq"]:
            mine = getattr(gs, name)(gp.asarray(a), **{k: gp.asarray(v) if k == "weights" else v
                                                      for k, v in kw.items()})
            theirs = getattr(ss, name)(a, **kw)
            _check(mine[0], theirs[0])
            _check(mine.lowerlimit, theirs.lowerlimit)
            _check(mine.binsize, theirs.binsize)
            assert mine.extrapoints == theirs.extrapoints
