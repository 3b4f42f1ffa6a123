"""gpunp.scipy.spatial's small geometric functions against SciPy's:
distance_matrix (every p, dtypes, NaN), minkowski_distance(_p) with
broadcasting, procrustes, geometric_slerp (scalar, 1-d and empty t,
antipodes, the errors)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.spatial as ss

import gpunp as gp
import gpunp.scipy.spatial as gs

RNG = np.random.default_rng(3)


def outcome(f, *a, **k):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return f(*a, **k)
    except Exception as e:  # noqa: BLE001 - the kind of error is compared
        return e


def same(g, r, rtol=1e-12, atol=1e-14):
    if isinstance(r, Exception):
        assert isinstance(g, type(r)), (r, g)
        return
    assert not isinstance(g, Exception), g
    g = gp.asnumpy(gp.asarray(g))
    r = np.asarray(r)
    assert g.shape == r.shape and g.dtype == r.dtype, (g.shape, r.shape, g.dtype, r.dtype)
    np.testing.assert_allclose(g, r, rtol=rtol, atol=atol, equal_nan=True)


@pytest.mark.parametrize("p", [2, 1, np.inf, 3, 0.5])
def test_distance_matrix(p):
    x, y = RNG.standard_normal((7, 3)), RNG.standard_normal((5, 3))
    x[2, 1] = np.nan  # NaN propagates for every p, max included
    same(gs.distance_matrix(gp.asarray(x), gp.asarray(y), p), ss.distance_matrix(x, y, p))
    same(gs.distance_matrix(gp.asarray(x), gp.asarray(y), p, threshold=1),
         ss.distance_matrix(x, y, p, threshold=1))


def test_distance_matrix_dtypes_and_errors():
    x = RNG.integers(-5, 5, (4, 2)).astype(np.int32)
    y = RNG.standard_normal((3, 2)).astype(np.float32)
    same(gs.distance_matrix(gp.asarray(x), gp.asarray(y)), ss.distance_matrix(x, y))
    xc = x + 1j * RNG.standard_normal((4, 2))
    same(gs.distance_matrix(gp.asarray(xc), gp.asarray(y), 3), ss.distance_matrix(xc, y, 3))
    for a, b, p in ((x, y[:, :1], 2), (x[0], y, 2), (x, y, 0)):
        same(outcome(gs.distance_matrix, gp.asarray(a), gp.asarray(b), p),
             outcome(ss.distance_matrix, a, b, p))
    same(gs.distance_matrix(gp.zeros((0, 2)), gp.asarray(y)),
         ss.distance_matrix(np.zeros((0, 2)), y))


@pytest.mark.parametrize("p", [2, 1, np.inf, 1.5])
def test_minkowski_distance(p):
    x, y = RNG.standard_normal((4, 1, 3)), RNG.standard_normal((5, 3))
    same(gs.minkowski_distance(gp.asarray(x), gp.asarray(y), p),
         ss.minkowski_distance(x, y, p))
    same(gs.minkowski_distance_p(gp.asarray(x), gp.asarray(y), p),
         ss.minkowski_distance_p(x, y, p))
    xi = RNG.integers(0, 4, 3)
    same(gs.minkowski_distance_p(gp.asarray(xi), gp.asarray(xi[::-1].copy()), p),
         ss.minkowski_distance_p(xi, xi[::-1], p))


def deprecations(f, *args):
    """The messages of the DeprecationWarnings f(*args) gives (each once)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        f(*args)
    return {str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)}


def test_kdtree_module_deprecations():
    """SciPy 1.18 deprecates minkowski_distance(_p) and distance_matrix (a
    warning for each of them that SciPy's function calls); 1.17 does not:
    gpunp warns as the running SciPy."""
    x, y = RNG.random((3, 2)), RNG.random((4, 2))
    for name in ("minkowski_distance", "minkowski_distance_p", "distance_matrix"):
        args = (x, y) if name == "distance_matrix" else (x[0], y)
        assert deprecations(getattr(gs, name), *map(gp.asarray, args)) == \
            deprecations(getattr(ss, name), *args)


def test_procrustes():
    a = RNG.standard_normal((10, 3))
    rot, _ = np.linalg.qr(RNG.standard_normal((3, 3)))
    for b in (a @ rot * 2.5 + 1.0 + RNG.standard_normal((10, 3)) * 0.01,
              RNG.standard_normal((10, 3)), a[:, :1] @ np.ones((1, 3))):
        g = gs.procrustes(gp.asarray(a), gp.asarray(b))
        r = ss.procrustes(a, b)
        for gg, rr in zip(g, r):
            same(gg, rr, 1e-10, 1e-12)
    for a1, b1 in ((a, a[:, :2]), (a[0], a[0]), (np.zeros((0, 2)), np.zeros((0, 2))),
                   (np.ones((4, 2)), a[:4, :2])):
        same(outcome(gs.procrustes, gp.asarray(a1), gp.asarray(b1)),
             outcome(ss.procrustes, a1, b1))


def test_geometric_slerp():
    start = np.array([1.0, 0.0, 0.0])
    end = np.array([0.0, 0.6, 0.8])
    for t in (np.linspace(0, 1, 7), 0.3, np.array(0.25), np.zeros(0), np.array([1.5, -0.5])):
        same(gs.geometric_slerp(gp.asarray(start), gp.asarray(end), gp.asarray(t)),
             ss.geometric_slerp(start, end, t), 1e-12, 1e-15)
    same(gs.geometric_slerp(gp.asarray(start), gp.asarray(start), gp.linspace(0, 1, 3)),
         ss.geometric_slerp(start, start, np.linspace(0, 1, 3)))
    # antipodes warn (and still interpolate, as SciPy does)
    with pytest.warns(UserWarning, match="antipodes"):
        g = gs.geometric_slerp(gp.asarray([1.0, 0.0]), gp.asarray([-1.0, 0.0]),
                               gp.asarray([0.0, 1.0]))
    with pytest.warns(UserWarning, match="antipodes"):
        r = ss.geometric_slerp(np.array([1.0, 0.0]), np.array([-1.0, 0.0]), [0.0, 1.0])
    same(g, r)
    u = np.array([1.0, 0.0])
    for args, kw in (((start, end, np.ones((2, 2))), {}), ((start[None], end, 0.5), {}),
                     ((start, end[:2] / 0.6, 0.5), {}), ((np.ones(1), np.ones(1), 0.5), {}),
                     ((start * 2, end, 0.5), {}), ((start, end, 0.5), {"tol": 1}),
                     ((u, -u, [0.5]), {"tol": 0.1})):
        same(outcome(gs.geometric_slerp, *[gp.asarray(a) for a in args], **kw),
             outcome(ss.geometric_slerp, *args, **kw))
