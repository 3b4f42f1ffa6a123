"""gpunp.scipy.stats' gaussian_kde and binned statistics against SciPy's."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.stats as ss

import gpunp as gp
import gpunp.scipy.stats as gs

RNG = np.random.default_rng(5)


def _close(mine, theirs, rtol=1e-12, atol=0.0):
    m = gp.asnumpy(gp.asarray(mine))
    t = np.asarray(theirs)
    assert m.shape == t.shape
    np.testing.assert_allclose(m, t, rtol=rtol, atol=atol, equal_nan=True)


@pytest.mark.parametrize("bw", [None, "scott", "silverman", 0.3, lambda k: 0.5 * k.scotts_factor()])
def test_kde_1d_bandwidths(bw):
    x = RNG.standard_normal(60)
    p = np.linspace(-5, 5, 11)
    mine, theirs = gs.gaussian_kde(gp.asarray(x), bw), ss.gaussian_kde(x, bw)
    assert mine.factor == pytest.approx(theirs.factor, rel=1e-14)
    _close(mine(gp.asarray(p)), theirs(p), 1e-12)
    _close(mine.evaluate(gp.asarray(p)), theirs.evaluate(p), 1e-12)
    _close(mine.pdf(gp.asarray(p)), theirs.pdf(p), 1e-12)
    _close(mine.logpdf(gp.asarray(p)), theirs.logpdf(p), 1e-12)
    _close(mine.covariance, theirs.covariance, 1e-12)


def test_kde_weighted_2d_far_points_and_integral():
    x = RNG.standard_normal((2, 40))
    w = RNG.random(40)
    p = RNG.standard_normal((2, 9)) * 3
    mine = gs.gaussian_kde(gp.asarray(x), weights=gp.asarray(w))
    theirs = ss.gaussian_kde(x, weights=w)
    assert mine.neff == pytest.approx(theirs.neff, rel=1e-13)
    _close(mine(gp.asarray(p)), theirs(p), 1e-11)
    # far away the density underflows; the log is summed in the log domain
    _close(mine.logpdf(gp.asarray(p * 30)), theirs.logpdf(p * 30), 1e-11)
    mean, cov = np.array([0.5, 0.1]), np.array([[1.0, 0.2], [0.2, 2.0]])
    _close(mine.integrate_gaussian(gp.asarray(mean), gp.asarray(cov)),
           theirs.integrate_gaussian(mean, cov), 1e-12)
    s = mine.resample(500, seed=3)
    assert s.shape == (2, 500)
    np.testing.assert_array_equal(gp.asnumpy(s), gp.asnumpy(mine.resample(500, seed=3)))
    # a single point given as a (d,) vector, as SciPy accepts it
    _close(mine(gp.asarray(p[:, 0])), theirs(p[:, 0]), 1e-11)


def test_kde_float32_and_errors():
    x = RNG.standard_normal(30).astype(np.float32)
    mine, theirs = gs.gaussian_kde(gp.asarray(x)), ss.gaussian_kde(x)
    r = mine(gp.asarray(x[:5]))
    assert r.dtype == theirs(x[:5]).dtype
    _close(r, theirs(x[:5]), 1e-6)
    with pytest.raises(ValueError):
        gs.gaussian_kde(gp.asarray([1.0]))
    with pytest.raises(ValueError):
        gs.gaussian_kde(gp.asarray(x), bw_method="wide")
    with pytest.raises(ValueError):
        gs.gaussian_kde(gp.asarray(RNG.standard_normal((3, 2))))
    with pytest.raises(ValueError):
        gs.gaussian_kde(gp.asarray(RNG.standard_normal((2, 20))))(gp.asarray(np.zeros((3, 4))))


STATS = ["mean", "std", "median", "count", "sum", "min", "max"]


@pytest.mark.parametrize("statistic", STATS + ["callable"])
def test_binned_statistic_1d_2d_dd(statistic):
    x, y = RNG.random(80), RNG.random(80)
    v = RNG.standard_normal(80)
    x[3] = 1.0  # a value on the last edge of a user range
    if statistic == "callable":
        mine_stat = lambda a: gp.max(a) - gp.min(a) if a.size else np.nan  # noqa: E731
        theirs_stat = np.ptp
    else:
        mine_stat = theirs_stat = statistic
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for kw in [{"bins": 7}, {"bins": [0.0, 0.2, 0.5, 1.0]}, {"bins": 4, "range": (0.1, 1.0)}]:
            mine = gs.binned_statistic(gp.asarray(x), gp.asarray(v), mine_stat,
                                       **{k: gp.asarray(b) if k == "bins" and isinstance(b, list)
                                          else b for k, b in kw.items()})
            theirs = ss.binned_statistic(x, v, theirs_stat, **kw)
            _close(mine.statistic, theirs.statistic, 1e-12, 1e-15)
            _close(mine.bin_edges, theirs.bin_edges)
            np.testing.assert_array_equal(gp.asnumpy(mine.binnumber), theirs.binnumber)
        v2 = np.vstack([v, v * v])
        for expand in [False, True]:
            mine = gs.binned_statistic_2d(gp.asarray(x), gp.asarray(y), gp.asarray(v2), mine_stat,
                                          bins=[3, 4], range=[(0, 0.8), (0.1, 1)],
                                          expand_binnumbers=expand)
            theirs = ss.binned_statistic_2d(x, y, v2, theirs_stat, bins=[3, 4],
                                            range=[(0, 0.8), (0.1, 1)], expand_binnumbers=expand)
            _close(mine.statistic, theirs.statistic, 1e-12, 1e-15)
            _close(mine.x_edge, theirs.x_edge)
            np.testing.assert_array_equal(gp.asnumpy(mine.binnumber), theirs.binnumber)
        sample = np.c_[x, y, v]
        mine = gs.binned_statistic_dd(gp.asarray(sample), gp.asarray(v), mine_stat, bins=3)
        theirs = ss.binned_statistic_dd(sample, v, theirs_stat, bins=3)
        _close(mine.statistic, theirs.statistic, 1e-12, 1e-15)
        again = gs.binned_statistic_dd(gp.asarray(sample), gp.asarray(v * 2), mine_stat,
                                       binned_statistic_result=mine)
        _close(again.statistic, ss.binned_statistic_dd(sample, v * 2, theirs_stat,
                                                       binned_statistic_result=theirs).statistic,
               1e-12, 1e-15)


def test_binned_errors_and_constant_sample():
    x = np.full(5, 2.0)
    mine = gs.binned_statistic(gp.asarray(x), gp.asarray(np.arange(5.0)), "sum", bins=3)
    theirs = ss.binned_statistic(x, np.arange(5.0), "sum", bins=3)
    _close(mine.statistic, theirs.statistic)
    _close(mine.bin_edges, theirs.bin_edges)
    with pytest.raises(ValueError):
        gs.binned_statistic(gp.asarray(x), gp.asarray(x), "mode")
    with pytest.raises(AttributeError):
        gs.binned_statistic(gp.asarray(x), gp.asarray(x[:3]))
