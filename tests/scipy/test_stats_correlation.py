"""gpunp.scipy.stats' rankdata, correlations, linregress and t-tests
against SciPy's. Their p-values wait for gpunp.scipy.special's stdtr and
betaincc: reading one raises NotImplementedError naming the missing
function, which the tests check is really missing, so the comparison starts
by itself when it lands."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
import scipy.stats as ss

import gpunp as gp
import gpunp.scipy.special as sp
import gpunp.scipy.stats as gs

RNG = np.random.default_rng(99)
TIES = np.array([[3, 1, 4, 1, 5, 9, 2, 6], [5, 5, 5, 5, 1, 1, 2, 2], [0, 0, 0, 0, 0, 0, 0, 0]],
                dtype=np.float64)


def _close(mine, theirs, rtol=1e-12):
    m = gp.asnumpy(gp.asarray(mine))
    t = np.asarray(theirs)
    assert m.shape == t.shape
    np.testing.assert_allclose(m, t, rtol=rtol, atol=1e-14, equal_nan=True)


def _pvalue(mine, theirs, rtol=1e-10):
    try:
        p = mine.pvalue
    except NotImplementedError as e:
        missing = re.search(r"gpunp\.scipy\.special\.(\w+)", str(e)).group(1)
        assert not hasattr(sp, missing), missing
        return
    _close(p, theirs.pvalue, rtol)


@pytest.mark.parametrize("method", ["average", "min", "max", "dense", "ordinal"])
def test_rankdata_ties_axes_and_dtype(method):
    for axis in [None, 0, 1] if method == "average" else [1]:
        mine = gs.rankdata(gp.asarray(TIES), method, axis=axis)
        theirs = ss.rankdata(TIES, method, axis=axis)
        _close(mine, theirs)
        assert mine.dtype == theirs.dtype

def test_rankdata_integers():
    ints = TIES.astype(np.int32)[:2]
    mine, theirs = gs.rankdata(gp.asarray(ints), "min", axis=1), ss.rankdata(ints, "min", axis=1)
    _close(mine, theirs)
    assert mine.dtype == theirs.dtype


@pytest.mark.parametrize("nan_policy", ["propagate", "omit"])
def test_rankdata_nans(nan_policy):
    x = TIES.copy()
    x[0, 2] = x[1, 0] = x[1, 3] = np.nan
    for method in ["average", "min", "ordinal", "dense", "max"]:
        for axis in [None, 1] if method == "average" else [1]:
            mine = gs.rankdata(gp.asarray(x), method, axis=axis, nan_policy=nan_policy)
            theirs = ss.rankdata(x, method, axis=axis, nan_policy=nan_policy)
            _close(mine, theirs)
            assert mine.dtype == theirs.dtype
    with pytest.raises(ValueError, match="contains nan"):
        gs.rankdata(gp.asarray(x), nan_policy="raise")


def test_rankdata_edges_and_errors():
    for x in [np.array([]), np.zeros((2, 0)), np.array(5.0), np.array([7.0])]:
        axis = 1 if x.ndim == 2 else None
        mine, theirs = gs.rankdata(gp.asarray(x), axis=axis), ss.rankdata(x, axis=axis)
        _close(mine, theirs)
        assert mine.dtype == theirs.dtype
    with pytest.raises(ValueError, match="unknown method"):
        gs.rankdata(gp.asarray([1.0]), "foo")
    with pytest.raises(np.exceptions.AxisError):
        gs.rankdata(gp.asarray([1.0]), axis=2)


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_pearsonr(alternative):
    x = RNG.standard_normal((4, 12))
    y = x + RNG.standard_normal((4, 12))
    for axis in [1, -1]:
        mine = gs.pearsonr(gp.asarray(x), gp.asarray(y), axis=axis, alternative=alternative)
        theirs = ss.pearsonr(x, y, axis=axis, alternative=alternative)
        _close(mine.statistic, theirs.statistic)
        _pvalue(mine, theirs)
    mine = gs.pearsonr(gp.asarray(x[0]), gp.asarray(y[0]), alternative=alternative)
    theirs = ss.pearsonr(x[0], y[0], alternative=alternative)
    for level in [0.95, 0.8]:
        for a, b in zip(mine.confidence_interval(level), theirs.confidence_interval(level)):
            _close(a, b)
    big = x[0] * 1e200
    _close(gs.pearsonr(gp.asarray(big), gp.asarray(y[0])).statistic,
           ss.pearsonr(big, y[0]).statistic)
    x32 = x[0].astype(np.float32)
    r32 = gs.pearsonr(gp.asarray(x32), gp.asarray(x32[::-1])).statistic
    assert r32.dtype == gp.float32
    _close(r32, ss.pearsonr(x32, x32[::-1]).statistic, 1e-5)


def test_pearsonr_errors_and_constant():
    with pytest.raises(ValueError, match="at least 2"):
        gs.pearsonr(gp.asarray([1.0]), gp.asarray([2.0]))
    with pytest.raises(ValueError, match="same length"):
        gs.pearsonr(gp.asarray([1.0, 2, 3]), gp.asarray([2.0, 3]))
    with pytest.raises(ValueError, match="alternative"):
        gs.pearsonr(gp.asarray([1.0, 2, 3]), gp.asarray([2.0, 3, 1]), alternative="both")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _close(gs.pearsonr(gp.asarray([1.0, 1, 1]), gp.asarray([2.0, 3, 1])).statistic,
               ss.pearsonr([1.0, 1, 1], [2.0, 3, 1]).statistic)


def test_spearmanr():
    x = RNG.integers(0, 5, 15).astype(np.float64)  # ties
    y = x + RNG.integers(0, 3, 15)
    for alt in ["two-sided", "greater"]:
        mine = gs.spearmanr(gp.asarray(x), gp.asarray(y), alternative=alt)
        theirs = ss.spearmanr(x, y, alternative=alt)
        _close(mine.statistic, theirs.statistic)
        _pvalue(mine, theirs)
    m = RNG.standard_normal((10, 4))
    for axis in [0, 1]:
        _close(gs.spearmanr(gp.asarray(m), axis=axis).statistic,
               ss.spearmanr(m, axis=axis).statistic)
    _close(gs.spearmanr(gp.asarray(m[:, :2]), gp.asarray(m[:, 2:])).statistic,
           ss.spearmanr(m[:, :2], m[:, 2:]).statistic)
    xn = x.copy()
    xn[3] = np.nan
    _close(gs.spearmanr(gp.asarray(xn), gp.asarray(y)).statistic, ss.spearmanr(xn, y).statistic)
    with pytest.raises(ValueError, match="contains nan"):
        gs.spearmanr(gp.asarray(xn), gp.asarray(y), nan_policy="raise")
    with pytest.raises(ValueError):
        gs.spearmanr(gp.asarray(x))


def test_linregress():
    x = RNG.standard_normal(30)
    y = 2.5 * x - 1 + RNG.standard_normal(30)
    for alt in ["two-sided", "less"]:
        mine = gs.linregress(gp.asarray(x), gp.asarray(y), alternative=alt)
        theirs = ss.linregress(x, y, alternative=alt)
        for f in ["slope", "intercept", "rvalue", "stderr", "intercept_stderr"]:
            _close(getattr(mine, f), getattr(theirs, f), 1e-10)
        _pvalue(mine, theirs)

    def same_line(xy):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = ss.linregress(*xy)
        mine = gs.linregress(*map(gp.asarray, xy))
        for f in ["slope", "intercept", "rvalue", "stderr", "intercept_stderr"]:
            _close(getattr(mine, f), getattr(theirs, f))
        _pvalue(mine, theirs)

    same_line(([1.0, 2.0], [3.0, 3.0]))
    # identical x values: an error until SciPy 1.18, NaNs since
    same_x = ([1.0, 1.0, 1.0], [1.0, 2.0, 3.0])
    try:
        theirs = ss.linregress(*same_x)
    except ValueError:
        with pytest.raises(ValueError, match="identical"):
            gs.linregress(*map(gp.asarray, same_x))
    else:
        same_line(same_x)
    same_line(([1.0, 2.0, 3.0], [2.0, 2.0, 2.0]))
    same_line(([1.0, 2.0], [3.0, 4.0]))


@pytest.mark.parametrize("nan_policy", ["propagate", "omit"])
def test_ttests(nan_policy):
    a = RNG.standard_normal((5, 9)) + 0.3
    b = RNG.standard_normal((5, 9))
    a[1, 3] = np.nan
    cases = [(gs.ttest_1samp, ss.ttest_1samp, (a, 0.2), {}),
             (gs.ttest_ind, ss.ttest_ind, (a, b), {}),
             (gs.ttest_ind, ss.ttest_ind, (a, b[:1, :6]), {"equal_var": False, "axis": 1}),
             (gs.ttest_rel, ss.ttest_rel, (a, b), {"alternative": "less"})]
    for mine_fn, theirs_fn, args, kw in cases:
        for axis in [kw.pop("axis", 0), None]:
            if axis is None and mine_fn is gs.ttest_ind and args[1].shape != a.shape:
                continue
            dev = [gp.asarray(x) if isinstance(x, np.ndarray) else x for x in args]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                mine = mine_fn(*dev, axis=axis, nan_policy=nan_policy, **kw)
                theirs = theirs_fn(*args, axis=axis, nan_policy=nan_policy, **kw)
            _close(mine.statistic, theirs.statistic, 1e-10)
            _close(mine.df, theirs.df, 1e-10)
            _pvalue(mine, theirs)
    with pytest.raises(ValueError, match="contains nan"):
        gs.ttest_1samp(gp.asarray(a), 0.0, nan_policy="raise")
