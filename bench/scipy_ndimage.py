"""scipy.ndimage rows: gpunp.scipy.ndimage against cupyx.scipy.ndimage (and
SciPy on the host at the quick sizes). `rows(quick)` gives the Workloads;
the lead hooks them into workloads().

Every library's answer is checked before it is timed, at a sample of
output points against SciPy on the host: a point's value is SciPy's on the
input around it (the filters, at interior points, whose window lies inside)
or SciPy's map_coordinates of the whole input at that point (the
interpolations), so a full-size reference never runs on the host."""

from __future__ import annotations

import functools

import numpy as np

from .workloads import Workload, _host_f32, _scipy

SAMPLES = 64


def _ndimage(lib, n, quick_n):
    if lib.name == "numpy" and n > quick_n:
        return None  # SciPy on the host: only at the quick sizes
    return _scipy(lib, "ndimage")


def _host(lib, x):
    if hasattr(x, "get"):
        return x.get()
    return np.asarray(x)


@functools.lru_cache(maxsize=4)
def _points(shape, margin, seed=0):
    """SAMPLES output points at least `margin` from every edge."""
    rng = np.random.default_rng(seed)
    return tuple(rng.integers(margin, n - margin, SAMPLES) for n in shape)


def _at(lib, res, pts):
    """The library's result at the sample points, on the host."""
    if lib.name == "numpy":
        return res[pts]
    idx = tuple(lib.asarray(p) for p in pts)
    return _host(lib, res[idx])


def _check(lib, got, want, rtol):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    scale = max(float(np.abs(want).max()), 1e-30)
    if got.shape != want.shape or not np.allclose(got, want, rtol=0, atol=rtol * scale):
        raise AssertionError(f"{lib.name}'s answer differs from SciPy's")


def _window_values(h, pts, radius, fn):
    """fn (SciPy's filter of the block around a point) at each sample point."""
    import scipy.ndimage as sn
    out = []
    for p in zip(*pts):
        block = h[tuple(slice(c - radius, c + radius + 1) for c in p)]
        out.append(fn(sn, block)[(radius,) * h.ndim])
    return np.array(out)


def _gaussian(shape, quick_n):
    def make(lib, n):
        nd = _ndimage(lib, n, quick_n)
        if nd is None:
            return None
        h = _host_f32(shape, 0)
        a = lib.asarray(h)

        def fn():
            return nd.gaussian_filter(a, 4.0)
        pts = _points(shape, 17)
        want = _window_values(h.astype(np.float64), pts, 16,
                              lambda sn, b: sn.gaussian_filter(b, 4.0))
        _check(lib, _at(lib, fn(), pts), want, 1e-4)
        return fn
    return make


def _median(shape, quick_n):
    def make(lib, n):
        nd = _ndimage(lib, n, quick_n)
        if nd is None:
            return None
        h = _host_f32(shape, 0)
        a = lib.asarray(h)

        def fn():
            return nd.median_filter(a, size=5)
        pts = _points(shape, 3)
        want = [np.median(h[tuple(slice(c - 2, c + 3) for c in p)]) for p in zip(*pts)]
        _check(lib, _at(lib, fn(), pts), want, 0)
        return fn
    return make


@functools.lru_cache(maxsize=2)
def _coordinates(side):
    rng = np.random.default_rng(1)
    return rng.uniform(0, side - 1, (2, side, side)).astype(np.float32)


def _map_coordinates(side, quick_n):
    def make(lib, n):
        nd = _ndimage(lib, n, quick_n)
        if nd is None:
            return None
        h = _host_f32((side, side), 0)
        c = _coordinates(side)
        a, ca = lib.asarray(h), lib.asarray(c)

        def fn():
            return nd.map_coordinates(a, ca, order=3)
        import scipy.ndimage as sn
        pts = _points((side, side), 0)
        want = sn.map_coordinates(h, c[(slice(None),) + pts], order=3)
        _check(lib, _at(lib, fn(), pts), want, 1e-4)
        return fn
    return make


def _zoom(side, order, quick_n):
    def make(lib, n):
        nd = _ndimage(lib, n, quick_n)
        if nd is None:
            return None
        shape = (side,) * 3
        h = _host_f32(shape, 0)
        a = lib.asarray(h)

        def fn():
            return nd.zoom(a, 2, order=order)
        import scipy.ndimage as sn
        pts = _points((2 * side,) * 3, 0)
        # zoom maps output o to input o * (n - 1) / (2n - 1)
        coords = np.array(pts, np.float64) * ((side - 1) / (2 * side - 1))
        want = sn.map_coordinates(h, coords, order=order)
        _check(lib, _at(lib, fn(), pts), want, 1e-4)
        return fn
    return make


def rows(quick: bool) -> list:
    quick_n = 1 << 18
    g2, g3, med, mc, z = (512, 64, 512, 512, 32) if quick else (8192, 512, 4096, 4096, 512)
    return [
        Workload(f"ndimage gaussian_filter sigma=4, {g2}x{g2} float32", "ms", g2 * g2,
                 _gaussian((g2, g2), quick_n)),
        Workload(f"ndimage gaussian_filter sigma=4, {g3}^3 float32", "ms", g3 ** 3,
                 _gaussian((g3,) * 3, quick_n)),
        Workload(f"ndimage median_filter size=5, {med}x{med} float32", "ms", med * med,
                 _median((med, med), quick_n)),
        Workload(f"ndimage map_coordinates order=3, {mc}x{mc} float32 at {mc}x{mc} points",
                 "ms", mc * mc, _map_coordinates(mc, quick_n)),
        Workload(f"ndimage zoom x2 order=1, {z}^3 float32", "ms", z ** 3, _zoom(z, 1, quick_n)),
        Workload(f"ndimage zoom x2 order=3, {z}^3 float32", "ms", z ** 3, _zoom(z, 3, quick_n)),
    ]
