"""gpunp.scipy.stats against SciPy on drawn samples: float32 and float64,
1-D and 2-D, axis None/0/-1, NaNs under each nan_policy, empty and
length-1 slices, and many ties (small integers) for rankdata, mode and
spearmanr."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.stats as ss
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import gpunp as gp
import gpunp.scipy.stats as gs

DTYPES = st.sampled_from([np.float32, np.float64])
SHAPES = hnp.array_shapes(min_dims=1, max_dims=2, min_side=0, max_side=6)
AXES = st.sampled_from([None, 0, -1])
POLICIES = st.sampled_from(["propagate", "omit"])


@st.composite
def samples(draw, positive=False, nans=True, dtypes=st.just(np.float64)):
    """(sample, axis): small integers as floats (so ties are many and the
    moments are exact enough to compare), sometimes a NaN. float32 only
    where asked (each op compiles a kernel per dtype)."""
    dt = draw(dtypes)
    shape = draw(SHAPES)
    lo = 1 if positive else -9
    x = draw(hnp.arrays(np.float64, shape, elements=st.integers(lo, 9).map(float)))
    if nans and x.size and draw(st.booleans()):
        x.flat[draw(st.integers(0, x.size - 1))] = np.nan
    return x.astype(dt), draw(AXES)


def _compare(mine_fn, theirs_fn, x, rtol):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            theirs = theirs_fn(x)
        except (ValueError, ZeroDivisionError) as e:
            with pytest.raises(type(e)):
                mine_fn(gp.asarray(x))
            return
        mine = mine_fn(gp.asarray(x))
    for m, t in zip(mine if isinstance(mine, tuple) else (mine,),
                    theirs if isinstance(theirs, tuple) else (theirs,)):
        m, t = gp.asnumpy(gp.asarray(m)), np.asarray(t)
        assert m.shape == t.shape
        assert m.dtype == t.dtype, (m.dtype, t.dtype)
        np.testing.assert_allclose(m, t, rtol=rtol, atol=rtol, equal_nan=True)


def _rtol(x):
    return 2e-4 if x.dtype == np.float32 else 1e-9


MOMENTS = ["skew", "kurtosis", "sem", "variation", "moment"]


@settings(max_examples=30)
@given(samples(dtypes=DTYPES), POLICIES, st.sampled_from(MOMENTS), st.booleans())
def test_moment_statistics(sample, nan_policy, name, bias):
    x, axis = sample
    kw = {"axis": axis, "nan_policy": nan_policy}
    if name in ("skew", "kurtosis"):
        kw["bias"] = bias
    if name == "moment":
        kw["order"] = 2 + bias
    _compare(lambda a: getattr(gs, name)(a, **kw), lambda a: getattr(ss, name)(a, **kw), x,
             _rtol(x))


def _constant_slices(x, axis, nan_policy):
    """Where the slices along `axis` (None: all of x) hold one value (NaNs
    left out under "omit", where a slice of NaNs only is no constant)."""
    a = x.reshape(1, -1) if axis is None else np.moveaxis(x, axis, -1)
    if a.shape[-1] == 0:
        return np.zeros(a.shape[:-1], bool)[() if axis is not None else 0]
    lo, hi = (np.nanmin, np.nanmax) if nan_policy == "omit" else (np.min, np.max)
    same = lo(a, axis=-1) == hi(a, axis=-1)
    return same[0] if axis is None else same


@settings(max_examples=25)
@given(samples(positive=True), POLICIES, st.sampled_from(["gmean", "hmean", "entropy",
                                                          "boxcox_llf"]))
def test_positive_statistics(sample, nan_policy, name):
    x, axis = sample
    if name == "boxcox_llf":
        mine = lambda a: gs.boxcox_llf(0.5, a, axis=axis, nan_policy=nan_policy)  # noqa: E731

        def theirs(a):
            # a constant slice's variance is 0 and its llf +inf; SciPy's own
            # is rounding's (its log-space variance came out 1e-61 on a GPU
            # machine's NumPy: boxcox_llf(0.5, [2., 2.]) = 70.7)
            llf = ss.boxcox_llf(0.5, a, axis=axis, nan_policy=nan_policy)
            return np.where(_constant_slices(a, axis, nan_policy), np.inf, llf)[()]
    else:
        mine = lambda a: getattr(gs, name)(a, axis=axis, nan_policy=nan_policy)  # noqa: E731
        theirs = lambda a: getattr(ss, name)(a, axis=axis, nan_policy=nan_policy)  # noqa: E731
    _compare(mine, theirs, x, _rtol(x))


@settings(max_examples=25)
@given(samples(), POLICIES, st.sampled_from(["zscore", "iqr", "median_abs_deviation",
                                             "trim_mean", "mode"]))
def test_order_statistics_and_scores(sample, nan_policy, name):
    x, axis = sample
    kw = {"axis": axis, "nan_policy": nan_policy}
    if name == "trim_mean":
        kw["proportiontocut"] = 0.25
    if name == "mode" and axis is None and x.ndim > 1:
        kw["axis"] = 0
    _compare(lambda a: getattr(gs, name)(a, **kw), lambda a: getattr(ss, name)(a, **kw), x,
             _rtol(x))


@settings(max_examples=30)
@given(samples(), st.sampled_from(["average", "min", "max", "dense", "ordinal"]),
       st.sampled_from(["propagate", "omit"]))
def test_rankdata(sample, method, nan_policy):
    x, axis = sample
    _compare(lambda a: gs.rankdata(a, method, axis=axis, nan_policy=nan_policy),
             lambda a: ss.rankdata(a, method, axis=axis, nan_policy=nan_policy), x, 0)


@settings(max_examples=25)
@given(st.integers(2, 12).flatmap(lambda n: st.tuples(
    hnp.arrays(np.float64, n, elements=st.integers(-5, 5).map(float)),
    hnp.arrays(np.float64, n, elements=st.integers(-5, 5).map(float)))))
def test_correlations(xy):
    x, y = xy
    _compare(lambda a: gs.pearsonr(a, gp.asarray(y)).statistic,
             lambda a: ss.pearsonr(a, y).statistic, x, 1e-10)
    _compare(lambda a: gs.spearmanr(a, gp.asarray(y)).statistic,
             lambda a: ss.spearmanr(a, y).statistic, x, 1e-10)


@settings(max_examples=25)
@given(hnp.arrays(np.float64, st.integers(0, 8),
                  elements=st.floats(-40, 40) | st.sampled_from([np.nan, np.inf, -np.inf])),
       st.floats(-3, 3), st.floats(0.1, 4))
def test_norm(x, loc, scale):
    for method in ["pdf", "logpdf", "cdf", "logcdf", "sf", "logsf"]:
        _compare(lambda a: getattr(gs.norm, method)(a, loc, scale),
                 lambda a: getattr(ss.norm, method)(a, loc, scale), x, 1e-12)
    q = np.clip(np.abs(x) / 40, 0, 1)
    for method in ["ppf", "isf"]:
        _compare(lambda a: getattr(gs.norm, method)(a, loc, scale),
                 lambda a: getattr(ss.norm, method)(a, loc, scale), q, 1e-12)
