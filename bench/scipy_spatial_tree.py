"""Bench rows for gpunp.scipy.spatial's KDTree and scipy.interpolate's
griddata, side by side with cupyx.scipy (and SciPy on the host for NumPy):
the tree's build of 2^22 3-D float64 points, its k=8 query of 2^20 points
(timed apart from the build), and griddata's linear interpolation of 2^16
scattered 2-D points at 2^20 points. Each library's answer is compared with
SciPy's before it is timed. The lead hooks `rows(quick)` into the table."""

from __future__ import annotations

import functools

import numpy as np

from bench.workloads import Workload, _checked, _scipy, _to_host


@functools.lru_cache(maxsize=4)
def _points(n, m, seed):
    return np.random.default_rng(seed).random((n, m))


@functools.lru_cache(maxsize=2)
def _scipy_tree(n):
    import scipy.spatial
    return scipy.spatial.cKDTree(_points(n, 3, 0))


def _probe(n):
    """Query points whose answers check a tree (a few thousand, so SciPy's
    reference stays quick)."""
    return _points(min(n, 4096), 3, 2)


def _tree_build(lib, n):
    spatial = _scipy(lib, "spatial")
    if spatial is None or not hasattr(spatial, "KDTree"):
        return None
    a = lib.asarray(_points(n, 3, 0))
    probe = lib.asarray(_probe(n))
    want = _scipy_tree(n).query(_probe(n), k=8)[0]
    _checked(lib, lambda: spatial.KDTree(a).query(probe, k=8)[0], want, 1e-12)
    return lambda: spatial.KDTree(a)


def _tree_query(nq):
    def make(lib, n):
        spatial = _scipy(lib, "spatial")
        if spatial is None or not hasattr(spatial, "KDTree"):
            return None
        tree = spatial.KDTree(lib.asarray(_points(n, 3, 0)))
        q = lib.asarray(_points(nq, 3, 1))
        want = _scipy_tree(n).query(_probe(n), k=8)[0]
        probe = lib.asarray(_probe(n))
        _checked(lib, lambda: tree.query(probe, k=8)[0], want, 1e-12)
        return lambda: tree.query(q, k=8)
    return make


def _griddata(nq):
    def make(lib, n):
        interpolate = _scipy(lib, "interpolate")
        if interpolate is None or not hasattr(interpolate, "griddata"):
            return None
        import scipy.interpolate
        pts, xi = _points(n, 2, 3), _points(nq, 2, 4) * 1.1 - 0.05
        vals = np.sin(6 * pts[:, 0]) * pts[:, 1]
        want = np.nan_to_num(scipy.interpolate.griddata(pts, vals, xi, method="linear"))
        p, v, x = lib.asarray(pts), lib.asarray(vals), lib.asarray(xi)

        def fn():
            return interpolate.griddata(p, v, x, method="linear")
        got = np.nan_to_num(_to_host(lib, fn()))
        if not np.allclose(got, want, rtol=0, atol=1e-9):
            raise AssertionError(f"{lib.name}'s griddata differs from SciPy's")
        return fn
    return make


def rows(quick: bool) -> list:
    """The rows: n is the tree's points (griddata's scattered points)."""
    ntree, nq = (1 << 16, 1 << 14) if quick else (1 << 22, 1 << 20)
    ngrid, ngq = (1 << 12, 1 << 14) if quick else (1 << 16, 1 << 20)
    return [
        Workload(f"KDTree build, {ntree} 3-D float64 points", "ms", ntree, _tree_build),
        Workload(f"KDTree.query k=8, {nq} points in {ntree} (3-D float64)", "ms", ntree,
                 _tree_query(nq)),
        Workload(f"griddata linear, {ngrid} 2-D points at {ngq} points", "ms", ngrid,
                 _griddata(ngq)),
    ]
