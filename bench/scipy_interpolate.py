"""Bench rows of gpunp.scipy.interpolate against cupyx.scipy.interpolate
(and SciPy on the host at the quick sizes): the evaluation at many points,
each interpolator built once outside the timing. Every library's answer is
checked against SciPy's on the host before it is timed. The lead hooks
`rows(quick)` into bench/workloads.py's list."""

from __future__ import annotations

import functools

import numpy as np

from .workloads import Workload, _checked, _scipy

# SciPy on the host is timed at the quick sizes only (a call at the full
# sizes takes seconds)
QUICK_POINTS = 1 << 16


@functools.lru_cache(maxsize=4)
def _inputs(name, n, side):
    rng = np.random.default_rng(7)
    if name == "rgi":
        grid = tuple(np.linspace(0.0, 1.0, side) for _ in range(3))
        values = rng.random((side, side, side))
        return grid, values, rng.random((n, 3))
    x = np.sort(rng.random(side))
    x[0], x[-1] = 0.0, 1.0
    y = np.sin(12 * x) + 0.1 * rng.standard_normal(side)
    return x, y, rng.random(n)


@functools.lru_cache(maxsize=2)
def _want(name, n, side):
    import scipy.interpolate as si
    return _CALLS[name](si, *_inputs(name, n, side))()


def _rgi(mod, grid, values, pts):
    f = mod.RegularGridInterpolator(grid, values, method="linear")
    return lambda: f(pts)


def _cubic(mod, x, y, pts):
    f = mod.CubicSpline(x, y)
    return lambda: f(pts)


def _interp1d(mod, x, y, pts):
    f = mod.interp1d(x, y, kind="linear")
    return lambda: f(pts)


_CALLS = {"rgi": _rgi, "cubic": _cubic, "interp1d": _interp1d}


def _row(name, side):
    def make(lib, n):
        if lib.name not in ("gpunp", "cupy", "numpy") or (lib.name == "numpy"
                                                        and n > QUICK_POINTS):
            return None
        mod = _scipy(lib, "interpolate")
        if mod is None:
            return None
        host = _inputs(name, n, side)
        dev = [tuple(lib.asarray(g) for g in a) if isinstance(a, tuple) else lib.asarray(a)
               for a in host] if lib.name != "numpy" else list(host)
        return _checked(lib, _CALLS[name](mod, *dev), _want(name, n, side), 1e-6)
    return make


def rows(quick: bool) -> list:
    n = 1 << (16 if quick else 24)
    side = 32 if quick else 256
    knots = 1 << (10 if quick else 16)
    return [
        Workload(f"interpolate RegularGridInterpolator linear, {side}^3 grid, {n} points",
                 "ms", n, _row("rgi", side)),
        Workload(f"interpolate CubicSpline, {knots} knots, {n} points", "ms", n,
                 _row("cubic", knots)),
        Workload(f"interpolate interp1d linear, {knots} knots, {n} points", "ms", n,
                 _row("interp1d", knots)),
    ]
