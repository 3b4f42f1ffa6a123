"""``minkowski_distance``, ``minkowski_distance_p`` and ``distance_matrix``
(scipy.spatial's, from its kd-tree module)."""

from __future__ import annotations

import math

import numpy as np

import gpunp as gp

from .._host import as_device
from . import distance as _distance


def _promoted(x, y):
    """x and y in their common dtype with float64, as SciPy promotes them."""
    x, y = as_device(x), as_device(y)
    dt = np.promote_types(np.promote_types(x.dtype, y.dtype), np.float64)
    return x.astype(dt), y.astype(dt)


def minkowski_distance_p(x, y, p=2.0):
    """sum |y - x|^p over the last axis (max for p = inf, no power for p = 1);
    x and y broadcast."""
    x, y = _promoted(x, y)
    d = gp.abs(y - x)
    if p == math.inf:
        return gp.amax(d, axis=-1)
    if p == 1:
        return gp.sum(d, axis=-1)
    return gp.sum(d ** p, axis=-1)


def minkowski_distance(x, y, p=2.0):
    """The Minkowski p-distance over the last axis; x and y broadcast."""
    if p == math.inf or p == 1:
        return minkowski_distance_p(x, y, p)
    return minkowski_distance_p(x, y, p) ** (1.0 / p)


def distance_matrix(x, y, p=2.0, threshold=1000000):
    """The (m, n) matrix of Minkowski p-distances between the rows of x
    (m, k) and y (n, k). One kernel pass per output element on real input
    (SciPy's `threshold` only chose between its two host loops, so it is
    accepted and has no effect); complex input goes through the broadcast
    formula."""
    x, y = as_device(x), as_device(y)
    if x.ndim != 2:
        raise ValueError(f"x must be 2-dimensional, got {x.ndim} dimensions")
    m, k = x.shape
    if y.ndim != 2:
        raise ValueError(f"y must be 2-dimensional, got {y.ndim} dimensions")
    n, kk = y.shape
    if k != kk:
        raise ValueError(f"x contains {k}-dimensional vectors but y contains "
                         f"{kk}-dimensional vectors")
    if x.dtype.kind == "c" or y.dtype.kind == "c":
        return minkowski_distance(x[:, None, :], y[None, :, :], p)
    if p == 0:
        raise ZeroDivisionError("float division by zero")  # SciPy's 1. / p
    row = ("cityblock" if p == 1 else "maxabs" if p == math.inf
           else "euclidean" if p == 2 else "minkowski")
    x, y = _promoted(x, y)
    out = gp.empty((m, n), dtype=np.float64)
    return _distance._run(row, gp.ascontiguousarray(x), gp.ascontiguousarray(y), None, None,
                          float(p), out)
