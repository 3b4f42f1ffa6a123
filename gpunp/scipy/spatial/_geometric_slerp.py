"""``geometric_slerp`` (scipy.spatial.geometric_slerp): spherical linear
interpolation on the unit n-sphere, with gpunp operations."""

from __future__ import annotations

import math
import warnings

import numpy as np

import gpunp as gp

from .._host import as_device


def geometric_slerp(start, end, t, tol=1e-7):
    """Points along the great circle from `start` to `end` (unit vectors of
    one size >= 2) at the fractions `t` (a scalar gives one point, 1-d t a
    (t.size, n) array). `tol` is how close to 2 their distance may come
    before they count as antipodes (a warning: the path is ambiguous)."""
    start = as_device(start).astype(np.float64)
    end = as_device(end).astype(np.float64)
    t = as_device(t)
    if t.ndim > 1:
        raise ValueError("The interpolation parameter value must be one dimensional.")
    if start.ndim != 1 or end.ndim != 1:
        raise ValueError("Start and end coordinates must be one-dimensional")
    if start.size != end.size:
        raise ValueError("The dimensions of start and end must match (have same size)")
    if start.size < 2 or end.size < 2:
        raise ValueError("The start and end coordinates must both be in at least "
                         "two-dimensional space")
    if bool(gp.array_equal(start, end)):
        return gp.linspace(start, start, t.size)
    for coord in (start, end):
        if not abs(float(gp.linalg.norm(coord)) - 1.0) <= 1e-9:
            raise ValueError("start and end are not on a unit n-sphere")
    if not isinstance(tol, float):
        raise ValueError("tol must be a float")
    tol = math.fabs(tol)
    if abs(float(gp.linalg.norm(start - end)) - 2.0) <= tol:
        warnings.warn("start and end are antipodes using the specified tolerance; this may "
                      "cause ambiguous slerp paths", stacklevel=2)
    t = t.astype(np.float64)
    if t.size == 0:
        return gp.empty((0, start.size))
    return _slerp(start, end, gp.atleast_1d(t)).reshape(-1) if t.ndim == 0 \
        else _slerp(start, end, t)


def _slerp(start, end, t):
    # an orthonormal basis of the plane of start and end (QR of the two
    # columns, signs fixed so R's diagonal is non-negative), the angle
    # between them from its R, then cos/sin combinations of the basis
    q, r = gp.linalg.qr(gp.stack([start, end]).T)
    signs = 2 * (gp.diagonal(r) >= 0) - 1
    q = q.T * signs[:, None]
    r = r.T * signs[:, None]
    omega = gp.arctan2(gp.linalg.det(r), gp.dot(start, end))
    return q[0] * gp.cos(t * omega)[:, None] + q[1] * gp.sin(t * omega)[:, None]
