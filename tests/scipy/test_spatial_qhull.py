"""gpunp.scipy.spatial.Delaunay and ConvexHull against SciPy's: the same
arrays (Qhull runs on the host for both), and the device queries
(find_simplex by walk and by brute force, plane_distance, lift_points)
equal to SciPy's."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.spatial as ss

import gpunp as gp
import gpunp.scipy.spatial as gsp

RNG = np.random.default_rng(7)


def cloud(nd, n=50):
    pts = RNG.random((n, nd))
    if nd == 2:   # a grid corner and centre: cocircular points, shared edges
        pts = np.vstack([pts, [[0, 0], [1, 0], [0, 1], [1, 1], [0.5, 0.5]]])
    return pts


def queries(pts, n=300):
    q = RNG.random((n, pts.shape[1])) * 1.4 - 0.2
    q[:15] = pts[:15]                                 # on vertices
    q[15:30] = (pts[:15] + pts[1:16]) / 2             # on segments, maybe edges
    q[30] = np.nan
    return q


def holds(tri, s, x, eps=100 * np.finfo(float).eps):
    """Whether simplex s of SciPy's tri holds x within eps."""
    t = tri.transform[s]
    c = t[:-1] @ (x - t[-1])
    c = np.append(c, 1 - c.sum())
    return np.all((c >= -eps * 10) & (c <= 1 + eps * 10))


@pytest.mark.parametrize("nd", [2, 3])
def test_find_simplex(nd):
    pts = cloud(nd)
    g, s = gsp.Delaunay(gp.asarray(pts)), ss.Delaunay(pts)
    q = queries(pts)
    got = gp.asnumpy(g.find_simplex(gp.asarray(q), bruteforce=True))
    ref = s.find_simplex(q, bruteforce=True)
    assert got.dtype == ref.dtype
    np.testing.assert_array_equal(got, ref)
    got = gp.asnumpy(g.find_simplex(gp.asarray(q)))
    ref = s.find_simplex(q)
    np.testing.assert_array_equal(got == -1, ref == -1)
    for k in np.flatnonzero(got != ref):              # on a shared face: either holds it
        assert holds(s, got[k], q[k]) and holds(s, ref[k], q[k])
    assert (got != ref).sum() <= 30
    shaped = g.find_simplex(gp.asarray(q[:12].reshape(3, 4, nd)), tol=1e-3)
    np.testing.assert_array_equal(gp.asnumpy(shaped) == -1,
                                  s.find_simplex(q[:12].reshape(3, 4, nd), tol=1e-3) == -1)
    with pytest.raises(ValueError):
        g.find_simplex(gp.asarray(q[:, :1]))


def test_degenerate_simplices_use_brute_force_as_scipy():
    # nearly collinear points: Qhull keeps slivers whose transforms are nan
    x = np.linspace(0, 1, 12)
    pts = np.c_[x, 1e-14 * RNG.random(12)]
    pts = np.vstack([pts, [[0.5, 1.0]]])
    g, s = gsp.Delaunay(gp.asarray(pts), qhull_options="QJ"), ss.Delaunay(pts,
                                                                         qhull_options="QJ")
    assert np.isnan(s.transform[:, 0, 0]).any()
    q = np.c_[np.linspace(-0.1, 1.1, 40), np.linspace(0, 0.5, 40) ** 3]
    np.testing.assert_array_equal(gp.asnumpy(g.find_simplex(gp.asarray(q), bruteforce=True)),
                                  s.find_simplex(q, bruteforce=True))
    np.testing.assert_array_equal(gp.asnumpy(g.find_simplex(gp.asarray(q))) == -1,
                                  s.find_simplex(q) == -1)


@pytest.mark.parametrize("nd", [2, 3])
def test_attributes_and_plane_distance(nd):
    pts = cloud(nd, 30)
    g, s = gsp.Delaunay(gp.asarray(pts)), ss.Delaunay(pts)
    for name in ("points", "simplices", "neighbors", "equations", "transform",
                 "vertex_to_simplex", "convex_hull", "coplanar", "min_bound", "max_bound"):
        a, b = gp.asnumpy(getattr(g, name)), getattr(s, name)
        assert a.dtype == b.dtype, name
        np.testing.assert_array_equal(a, b)
    for a, b in zip(g.vertex_neighbor_vertices, s.vertex_neighbor_vertices):
        np.testing.assert_array_equal(gp.asnumpy(a), b)
    for name in ("ndim", "npoints", "nsimplex", "paraboloid_scale", "paraboloid_shift",
                 "furthest_site"):
        assert getattr(g, name) == getattr(s, name)
    q = queries(pts, 51)[31:].reshape(-1, 1, nd)
    np.testing.assert_array_equal(gp.asnumpy(g.plane_distance(gp.asarray(q))),
                                  s.plane_distance(q))
    np.testing.assert_array_equal(gp.asnumpy(g.lift_points(gp.asarray(q))), s.lift_points(q))


def test_incremental():
    pts = cloud(2, 20)
    more = RNG.random((10, 2)) * 2
    g = gsp.Delaunay(gp.asarray(pts), incremental=True)
    s = ss.Delaunay(pts, incremental=True)
    g.add_points(gp.asarray(more))
    s.add_points(more)
    np.testing.assert_array_equal(gp.asnumpy(g.simplices), s.simplices)
    q = queries(np.vstack([pts, more]), 50)
    np.testing.assert_array_equal(gp.asnumpy(g.find_simplex(gp.asarray(q), bruteforce=True)),
                                  s.find_simplex(q, bruteforce=True))
    g.close()
    s.close()


@pytest.mark.parametrize("nd", [2, 3])
def test_convex_hull(nd):
    pts = cloud(nd, 40)
    g, s = gsp.ConvexHull(gp.asarray(pts)), ss.ConvexHull(pts)
    for name in ("points", "simplices", "neighbors", "equations", "vertices", "coplanar",
                 "min_bound", "max_bound"):
        a, b = gp.asnumpy(getattr(g, name)), getattr(s, name)
        assert a.dtype == b.dtype, name
        np.testing.assert_array_equal(a, b)
    assert (g.volume, g.area, g.ndim, g.npoints, g.nsimplex, g.good) == \
        (s.volume, s.area, s.ndim, s.npoints, s.nsimplex, s.good)


def test_bad_input_is_scipys_error():
    for make in (lambda m, a: m.Delaunay(a(np.zeros(5))),
                 lambda m, a: m.Delaunay(a(np.zeros((2, 2)))),
                 lambda m, a: m.ConvexHull(a(np.zeros((3, 3))))):
        with pytest.raises(Exception) as ref:
            make(ss, lambda x: x)
        with pytest.raises(type(ref.value)):
            make(gsp, gp.asarray)
    with pytest.raises(TypeError):
        gsp.Delaunay(cloud(2))
