"""Property tests of gpunp.scipy.spatial.Delaunay's device queries and of
the interpolators built on it and on the KDTree, against SciPy: random and
grid point sets (cocircular points, shared edges) in 2 and 3 dimensions,
with repeated points, query points on vertices, on edges and outside the
hull."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.interpolate as si
import scipy.spatial as ss
from hypothesis import given, settings, strategies as st

import gpunp as gp
import gpunp.scipy.interpolate as gi
import gpunp.scipy.spatial as gsp


@st.composite
def clouds(draw):
    nd = draw(st.sampled_from([2, 3]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = draw(st.integers(2 ** nd + 2, 40))
    if draw(st.booleans()):
        pts = rng.integers(0, 4, (n, nd)).astype(np.float64)   # a grid
        pts[: 2 ** nd] = np.indices((2,) * nd).reshape(nd, -1).T * 3   # not flat
    else:
        pts = rng.random((n, nd))
    pts[-2:] = pts[:2]                                           # repeated points
    nq = 40
    q = rng.random((nq, nd)) * 1.4 - 0.2
    if n:
        q[:8] = pts[rng.integers(0, n, 8)]                       # on vertices
        q[8:16] = (pts[rng.integers(0, n, 8)] + pts[rng.integers(0, n, 8)]) / 2
    return pts, q


def coordinates(tri, s, x):
    """x's barycentric coordinates in simplex s of SciPy's tri, in SciPy's
    order of operations (a sliver's are too sensitive for a matmul's)."""
    t, nd = tri.transform[s].tolist(), len(x)
    c = []
    for j in range(nd):
        cj = 0.0
        for q in range(nd):
            cj += t[j][q] * (float(x[q]) - t[nd][q])
        c.append(cj)
    last = 1.0
    for cj in c:
        last -= cj
    return c + [last]


def holds(tri, s, x, eps=1.5e-7):
    return all(-eps <= cj <= 1 + eps for cj in coordinates(tri, s, x))


@settings(max_examples=15)
@given(clouds())
def test_find_simplex(case):
    pts, q = case
    try:
        s = ss.Delaunay(pts)
    except ss.QhullError:                     # a flat set: Qhull's error from gpunp too
        with pytest.raises(ss.QhullError):
            gsp.Delaunay(gp.asarray(pts))
        return
    g = gsp.Delaunay(gp.asarray(pts))
    brute = s.find_simplex(q, bruteforce=True)
    np.testing.assert_array_equal(gp.asnumpy(g.find_simplex(gp.asarray(q), bruteforce=True)),
                                  brute)
    # SciPy's walk answers from where its last answer was: on a shared face or
    # the hull's boundary another simplex holding the point, or -1, may come
    got, ref = gp.asnumpy(g.find_simplex(gp.asarray(q))), s.find_simplex(q)
    for k in np.flatnonzero(got != ref):
        if got[k] == -1:
            assert brute[k] == -1, (k, ref[k])
        else:
            assert holds(s, got[k], q[k]), (k, got[k], ref[k])


@settings(max_examples=12)
@given(clouds(), st.sampled_from(["nearest", "linear", "cubic"]))
def test_griddata(case, method):
    pts, q = case
    vals = np.cos(pts.sum(axis=1)) + pts[:, 0]
    if method == "cubic" and pts.shape[1] != 2:
        method = "linear"
    try:
        ref = si.griddata(pts, vals, q, method=method)
    except ss.QhullError:
        with pytest.raises(ss.QhullError):
            gi.griddata(gp.asarray(pts), gp.asarray(vals), gp.asarray(q), method=method)
        return
    got = gp.asnumpy(gi.griddata(gp.asarray(pts), gp.asarray(vals), gp.asarray(q),
                                 method=method))
    assert got.shape == ref.shape and got.dtype == ref.dtype
    if method == "nearest":
        # among points at exactly the nearest distance any one's value is right
        d = np.sqrt(((q[:, None, :] - pts[None, :, :]) ** 2).sum(-1))
        for k in range(len(q)):
            assert got[k] in vals[d[k] == d[k].min()] or got[k] == ref[k]
        return
    # SciPy's walk starts where its last answer was: on a grid's degenerate
    # (nearly flat) simplices, which hold a point within eps where it is not
    # on them, its value for a point depends on the point before. Such a
    # point must be held by the simplex gpunp took, and have its value there.
    off = ~np.isclose(got, ref, rtol=1e-10, atol=1e-10, equal_nan=True)
    if off.any():
        assert method == "linear"
        tri = ss.Delaunay(pts)
        mine = gp.asnumpy(gsp.Delaunay(gp.asarray(pts)).find_simplex(gp.asarray(q)))
        for k in np.flatnonzero(off):
            assert holds(tri, mine[k], q[k])
            ref[k] = 0.0
            for cj, m in zip(coordinates(tri, mine[k], q[k]), tri.simplices[mine[k]]):
                ref[k] = ref[k] + cj * vals[m]
    np.testing.assert_array_equal(np.isnan(got), np.isnan(ref))
    np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-10)
