"""``minkowski_distance``, ``minkowski_distance_p`` and ``distance_matrix``
(scipy.spatial's, from its kd-tree module)."""

from __future__ import annotations

import math
import warnings

import numpy as np

import gpunp as gp

from .._host import as_device
from .._version import scipy_version
from . import distance as _distance


def _promoted(x, y):
    """x and y in their common dtype with float64, as SciPy promotes them."""
    x, y = as_device(x), as_device(y)
    dt = np.promote_types(np.promote_types(x.dtype, y.dtype), np.float64)
    return x.astype(dt), y.astype(dt)


def _deprecated(*names):
    """SciPy 1.18 deprecates the kd-tree module's distance functions (to go
    in 1.20); gpunp warns as the running SciPy does, also for the ones that
    SciPy's function calls (minkowski_distance calls minkowski_distance_p,
    distance_matrix both)."""
    if scipy_version() < 11800:
        return
    for name in names:
        replacement = "cdist" if name == "distance_matrix" else "minkowski"
        warnings.warn(f"`{name}` is deprecated in favor of `scipy.spatial.distance."
                      f"{replacement}` as of SciPy 1.18.0 and will be removed in SciPy "
                      "1.20.0.", DeprecationWarning, stacklevel=3)


def minkowski_distance_p(x, y, p=2.0):
    """sum |y - x|^p over the last axis (max for p = inf, no power for p = 1);
    x and y broadcast."""
    _deprecated("minkowski_distance_p")
    return _minkowski_distance_p(x, y, p)


def _minkowski_distance_p(x, y, p):
    x, y = _promoted(x, y)
    d = gp.abs(y - x)
    if p == math.inf:
        return gp.amax(d, axis=-1)
    if p == 1:
        return gp.sum(d, axis=-1)
    return gp.sum(d ** p, axis=-1)


def minkowski_distance(x, y, p=2.0):
    """The Minkowski p-distance over the last axis; x and y broadcast."""
    _deprecated("minkowski_distance", "minkowski_distance_p")
    return _minkowski_distance(x, y, p)


def _minkowski_distance(x, y, p):
    if p == math.inf or p == 1:
        return _minkowski_distance_p(x, y, p)
    return _minkowski_distance_p(x, y, p) ** (1.0 / p)


def distance_matrix(x, y, p=2.0, threshold=1000000):
    """The (m, n) matrix of Minkowski p-distances between the rows of x
    (m, k) and y (n, k). One kernel pass per output element on real input
    (SciPy's `threshold` only chose between its two host loops, so it is
    accepted and has no effect); complex input goes through the broadcast
    formula."""
    _deprecated("distance_matrix", "minkowski_distance", "minkowski_distance_p")
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
        return _minkowski_distance(x[:, None, :], y[None, :, :], p)
    if p == 0:
        raise ZeroDivisionError("float division by zero")  # SciPy's 1. / p
    row = ("cityblock" if p == 1 else "maxabs" if p == math.inf
           else "euclidean" if p == 2 else "minkowski")
    x, y = _promoted(x, y)
    out = gp.empty((m, n), dtype=np.float64)
    return _distance._run(row, gp.ascontiguousarray(x), gp.ascontiguousarray(y), None, None,
                          float(p), out)
