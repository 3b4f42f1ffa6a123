"""gpunp.scipy.stats' distributions against SciPy's: every method, frozen
and unfrozen, with loc and scale broadcast against the argument, points
outside the support, invalid parameters and NaN.

A method whose special function gpunp.scipy.special lacks raises
NotImplementedError naming it; the test then checks that the function is
indeed missing, so the comparison with SciPy starts by itself when it lands."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
import scipy.stats as ss

import gpunp as gp
import gpunp.scipy.special as sp
import gpunp.scipy.stats as gs

# name -> (shape parameters, loc, scale); loc and scale arrays broadcast against x's rows
CASES = {
    "norm": ((), np.array([[0.0], [0.5]]), np.array([[1.0], [2.0]])),
    "uniform": ((), -1.0, 3.0),
    "expon": ((), 0.0, np.array([[0.5], [2.0]])),
    "gamma": ((np.array([[0.5], [2.5], [400.0]]),), 0.0, 1.5),
    "chi2": ((np.array([[3.0], [600.0]]),), 0.1, 1.0),
    "beta": ((2.0, np.array([[0.7], [3.5]])), 0.0, 1.0),
    "t": ((np.array([[1.5], [6.0]]),), 0.0, 1.0),
    "poisson": ((np.array([[0.5], [3.2]]),), 0, None),
    "binom": ((10, np.array([[0.3], [1.0]])), 0, None),
}
DISCRETE = {"poisson", "binom"}
X = np.array([-1.5, 0.0, 0.3, 1.0, 2.0, 7.0, 30.0, np.inf, np.nan])
Q = np.array([0.0, 1e-8, 0.01, 0.3, 0.5, 0.99, 1.0, 1.5, np.nan])


def _params(name):
    shapes, loc, scale = CASES[name]
    kw = {"loc": loc} if scale is None else {"loc": loc, "scale": scale}
    return shapes, kw


def _dev(v):
    return gp.asarray(v) if isinstance(v, np.ndarray) else v


def _run(mine_fn, theirs_fn, rtol=1e-12):
    """Compare, or check that NotImplementedError names a special function
    gpunp.scipy.special really lacks."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = theirs_fn()
        try:
            mine = mine_fn()
        except NotImplementedError as e:
            missing = re.search(r"gpunp\.scipy\.special\.(\w+)", str(e)).group(1)
            assert not hasattr(sp, missing), missing
            return False
    if isinstance(theirs, tuple):
        assert len(mine) == len(theirs)
        for m, t in zip(mine, theirs):
            _close(m, t, rtol)
    else:
        _close(mine, theirs, rtol)
    return True


def _close(mine, theirs, rtol):
    m = gp.asnumpy(gp.asarray(mine))
    t = np.asarray(theirs)
    assert m.shape == t.shape
    assert m.dtype == np.float64 or t.dtype.kind == "i"
    np.testing.assert_allclose(m, t, rtol=rtol, atol=1e-300, equal_nan=True)


def _methods(name):
    point = ["pmf", "logpmf"] if name in DISCRETE else ["pdf", "logpdf"]
    return point + ["cdf", "logcdf", "sf", "logsf"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_functions_of_x(name):
    shapes, kw = _params(name)
    D, G = getattr(ss, name), getattr(gs, name)
    dshapes, dkw = [_dev(s) for s in shapes], {k: _dev(v) for k, v in kw.items()}
    for method in _methods(name):
        _run(lambda: getattr(G, method)(gp.asarray(X), *dshapes, **dkw),
             lambda: getattr(D, method)(X, *shapes, **kw))
    for method in ["ppf", "isf"]:
        _run(lambda: getattr(G, method)(gp.asarray(Q), *dshapes, **dkw),
             lambda: getattr(D, method)(Q, *shapes, **kw))


@pytest.mark.parametrize("name", sorted(CASES))
def test_moments_and_frozen(name):
    shapes, kw = _params(name)
    D, G = getattr(ss, name), getattr(gs, name)
    dshapes, dkw = [_dev(s) for s in shapes], {k: _dev(v) for k, v in kw.items()}
    frozen, theirs = G(*dshapes, **dkw), D(*shapes, **kw)
    for method in ["mean", "var", "std", "entropy", "median", "support"]:
        _run(lambda: getattr(G, method)(*dshapes, **dkw), lambda: getattr(D, method)(*shapes, **kw),
             rtol=1e-10)
        _run(getattr(frozen, method), getattr(theirs, method), rtol=1e-10)
    _run(lambda: G.stats(*dshapes, moments="mvsk", **dkw),
         lambda: D.stats(*shapes, moments="mvsk", **kw), rtol=1e-10)
    _run(lambda: frozen.stats("sk"), lambda: theirs.stats("sk"), rtol=1e-10)
    for order in range(5):
        _run(lambda: frozen.moment(order), lambda: theirs.moment(order), rtol=1e-9)
    _run(lambda: frozen.interval(0.9), lambda: theirs.interval(0.9))
    method = _methods(name)[0]
    _run(lambda: getattr(frozen, method)(gp.asarray(X)), lambda: getattr(theirs, method)(X))


def test_unfrozen_positional_loc_scale_and_float32():
    x = np.linspace(-3, 3, 7).astype(np.float32)
    _close(gs.norm.pdf(gp.asarray(x), 0.5, 2.0), ss.norm.pdf(x, 0.5, 2.0), 1e-12)
    _close(gs.expon.cdf(gp.asarray(x), -1.0), ss.expon.cdf(x, -1.0), 1e-12)
    _close(gs.gamma.logpdf(gp.asarray(x), 2.0, 0.0, 3.0), ss.gamma.logpdf(x, 2.0, 0.0, 3.0), 1e-12)
    _close(gs.norm.cdf(1.5), ss.norm.cdf(1.5), 1e-15)
    assert gs.norm.cdf(1.5).ndim == 0


@pytest.mark.parametrize("name", ["norm", "gamma", "beta", "t", "poisson", "binom"])
def test_invalid_parameters_are_nan(name):
    bad = {"norm": ((), {"scale": -1.0}), "gamma": ((-1.0,), {}), "beta": ((1.0, 0.0), {}),
           "t": ((0.0,), {}), "poisson": ((-2.0,), {}), "binom": ((3.5, 0.5), {})}[name]
    shapes, kw = bad
    method = _methods(name)[0]
    _run(lambda: getattr(getattr(gs, name), method)(gp.asarray(X), *shapes, **kw),
         lambda: getattr(getattr(ss, name), method)(X, *shapes, **kw))
    _run(lambda: getattr(gs, name).mean(*shapes, **kw),
         lambda: getattr(ss, name).mean(*shapes, **kw))
    with pytest.raises(ValueError, match="Domain error"):
        getattr(gs, name).rvs(*shapes, size=3, random_state=0, **kw)


def test_argument_errors():
    with pytest.raises(TypeError, match="missing 1 required positional argument"):
        gs.gamma.pdf(gp.asarray(X))
    with pytest.raises(TypeError):
        gs.norm.pdf(gp.asarray(X), 0, 1, 2)
    with pytest.raises(TypeError):
        gs.norm.pdf(gp.asarray(X), loc=0, bogus=1)
    with pytest.raises(TypeError):
        gs.norm.pdf(X)  # a NumPy array is not moved implicitly
    with pytest.raises(ValueError, match="confidence"):
        gs.norm.interval(1.5)


# sample sizes and the KS p-value floor keep a false failure at about 1e-6 a draw
@pytest.mark.parametrize("name", sorted(CASES))
def test_rvs(name):
    shapes, kw = _params(name)
    shapes = [np.asarray(s).ravel()[-1] for s in shapes]
    kw = {k: np.asarray(v).ravel()[-1] for k, v in kw.items()}
    G, D = getattr(gs, name), getattr(ss, name)
    a = G.rvs(*shapes, size=(4000,), random_state=7, **kw)
    b = G(*shapes, **kw).rvs(size=4000, random_state=7)
    np.testing.assert_array_equal(gp.asnumpy(a), gp.asnumpy(b))
    assert a.shape == (4000,)
    assert (a.dtype == gp.int64) == (name in DISCRETE)
    sample = gp.asnumpy(a)
    if name in DISCRETE:
        mean, var = D.stats(*shapes, **kw)
        assert abs(sample.mean() - mean) <= 6 * np.sqrt(var / sample.size)
    else:
        assert ss.kstest(sample, D(*shapes, **kw).cdf).pvalue > 1e-6
    rng = gp.random.default_rng(3)
    assert G.rvs(*shapes, size=(2, 3), random_state=rng, **kw).shape == (2, 3)
