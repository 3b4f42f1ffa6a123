"""``RotationSpline`` (scipy.spatial.transform.RotationSpline): a rotation
path through given rotations at given times with continuous angular
velocity and acceleration.

On each interval the rotation is R_i * exp(v(t)), v a cubic in the local
time with v(0) = 0 and v(dt_i) the rotation vector from R_i to R_{i+1}.
Matching angular rates and accelerations at the knots is a block
tridiagonal system in the rates (3 x 3 blocks), non-linear through the
acceleration term: it is solved by a few fixed-point steps, each one banded
solve (gpunp.scipy.linalg.solve_banded), as SciPy does. The cubic's
coefficients stay on the device, and evaluation is elementwise there."""

from __future__ import annotations

import numpy as np

import gpunp as gp

from ..._host import as_device
from ._rotation import Rotation

_SMALL = 1e-4  # below this angle the coefficient functions use their series


def _skew(v):
    """The cross-product matrices [v]x of vectors v (n, 3)."""
    z = gp.zeros_like(v[:, 0])
    x, y, w = v[:, 0], v[:, 1], v[:, 2]
    return gp.stack([z, -w, y, w, z, -x, -y, x, z], axis=-1).reshape(-1, 3, 3)


def _norm(v):
    return gp.sqrt(gp.sum(v * v, axis=1))


def _series(nm, exact, series):
    """exact(nm) where nm > _SMALL, else series(nm) (exact divides by ~0 there)."""
    small = nm <= _SMALL
    safe = gp.where(small, 1.0, nm)
    return gp.where(small, series(nm), exact(safe))


def _rate_to_rotvec_dot(v):
    """The matrices taking an angular rate to the derivative of the rotation vector v."""
    k = _series(_norm(v), lambda n: (1 - 0.5 * n / gp.tan(0.5 * n)) / n ** 2,
                lambda n: 1 / 12 + n ** 2 / 720)
    s = _skew(v)
    return gp.eye(3) + 0.5 * s + k[:, None, None] * (s @ s)


def _rotvec_dot_to_rate(v):
    """The inverse map: the derivative of v to the angular rate."""
    n = _norm(v)
    k1 = _series(n, lambda n: (1 - gp.cos(n)) / n ** 2, lambda n: 0.5 - n ** 2 / 24)
    k2 = _series(n, lambda n: (n - gp.sin(n)) / n ** 3, lambda n: 1 / 6 - n ** 2 / 120)
    s = _skew(v)
    return gp.eye(3) - k1[:, None, None] * s + k2[:, None, None] * (s @ s)


def _cross(a, b):
    return gp.stack([a[:, 1] * b[:, 2] - a[:, 2] * b[:, 1],
                     a[:, 2] * b[:, 0] - a[:, 0] * b[:, 2],
                     a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]], axis=-1)


def _accel_nonlinear(v, vd):
    """The part of the angular acceleration quadratic in the derivative vd."""
    n = _norm(v)
    dp = gp.sum(v * vd, axis=1)[:, None]
    cp = _cross(v, vd)
    ccp, dccp = _cross(v, cp), _cross(vd, cp)
    k1 = _series(n, lambda n: (-n * gp.sin(n) - 2 * (gp.cos(n) - 1)) / n ** 4,
                 lambda n: 1 / 12 - n ** 2 / 180)
    k2 = _series(n, lambda n: (-2 * n + 3 * gp.sin(n) - n * gp.cos(n)) / n ** 5,
                 lambda n: -1 / 60 + n ** 2 / 12604)
    k3 = _series(n, lambda n: (n - gp.sin(n)) / n ** 3, lambda n: 1 / 6 - n ** 2 / 120)
    return dp * (k1[:, None] * cp + k2[:, None] * ccp) + k3[:, None] * dccp


def _apply(m, v):
    return (m @ v[:, :, None])[:, :, 0]


def _banded(lower, upper, diag):
    """The (5 + 5 + 1, 3n) band storage of the block tridiagonal matrix with
    3 x 3 blocks `lower` below and `upper` above the diagonal (n - 1 each)
    and the scalar blocks diag * I (n) on it; built on the host (its size
    is 33 numbers a rotation)."""
    lo, up, d = gp.asnumpy(lower), gp.asnumpy(upper), gp.asnumpy(diag)
    n = len(d)
    band = np.zeros((11, 3 * n))
    for blk, rows0, cols0 in ((lo, 3, 0), (up, 0, 3)):
        for b in range(len(blk)):
            for r in range(3):
                for c in range(3):
                    i, j = rows0 + 3 * b + r, cols0 + 3 * b + c
                    band[5 + i - j, j] = blk[b, r, c]
    band[5, :] = np.repeat(d, 3)
    return gp.asarray(band)


class RotationSpline:
    """Interpolate rotations with continuous angular rate and acceleration."""

    MAX_ITER = 10
    TOL = 1e-9

    def _solve_for_angular_rates(self, dt, rates, rotvecs):
        # imported here so that gpunp.scipy.spatial loads no other subpackage
        import gpunp.scipy.linalg as sla
        first = rates[0]
        A = _rate_to_rotvec_dot(rotvecs)
        A_inv = _rotvec_dot_to_rate(rotvecs)
        band = _banded(2 * A_inv[1:-1] / dt[1:-1, None, None],
                       2 * A[1:-1] / dt[1:-1, None, None], 4 * (1 / dt[:-1] + 1 / dt[1:]))
        b0 = 6 * (rotvecs[:-1] / dt[:-1, None] ** 2 + rotvecs[1:] / dt[1:, None] ** 2)
        b0[0] = b0[0] - 2 / dt[0] * (A_inv[0] @ first)
        b0[-1] = b0[-1] - 2 / dt[-1] * (A[-1] @ rates[-1])
        for _ in range(self.MAX_ITER):
            vd = _apply(A, rates)
            b = b0 - _accel_nonlinear(rotvecs[:-1], vd[:-1])
            new = sla.solve_banded((5, 5), band, b.reshape(-1)).reshape(-1, 3)
            delta = gp.abs(new - rates[:-1])
            rates = gp.concatenate([new, rates[-1:]])
            if bool(gp.all(delta < self.TOL * (1 + gp.abs(new)))):
                break
        vd = _apply(A, rates)
        return gp.concatenate([first[None], rates[:-1]]), vd

    def __init__(self, times, rotations):
        if rotations.single:
            raise ValueError("`rotations` must be a sequence of rotations.")
        if len(rotations.shape) > 1:
            raise ValueError("Rotations with more than 1 leading dimension are not supported.")
        if len(rotations) == 1:
            raise ValueError("`rotations` must contain at least 2 rotations.")
        times = as_device(times).astype(np.float64)
        if times.ndim != 1:
            raise ValueError("`times` must be 1-dimensional.")
        if len(times) != len(rotations):
            raise ValueError("Expected number of rotations to be equal to number of timestamps "
                             f"given, got {len(rotations)} rotations and {len(times)} "
                             "timestamps.")
        dt = gp.diff(times)
        if bool(gp.any(dt <= 0)):
            raise ValueError("Values in `times` must be in a strictly increasing order.")
        rotvecs = (rotations[:-1].inv() * rotations[1:]).as_rotvec().astype(np.float64)
        rates = rotvecs / dt[:, None]
        if len(rotations) == 2:
            vd = rates
        else:
            rates, vd = self._solve_for_angular_rates(dt, rates, rotvecs)
        h = dt[:, None]
        # v(x) = c0 x^3 + c1 x^2 + c2 x on each interval (x = t - t_i)
        self._coeff = gp.stack([(-2 * rotvecs + h * rates + h * vd) / h ** 3,
                                (3 * rotvecs - 2 * h * rates - h * vd) / h ** 2, rates])
        self.times = times
        self.rotations = rotations

    def __call__(self, times, order=0):
        """The rotations (order 0), angular rates (1) or angular
        accelerations (2) at `times` (a scalar or 1-d); outside the knots the
        end intervals' cubics extend."""
        if order not in (0, 1, 2):
            raise ValueError("`order` must be 0, 1 or 2.")
        t = as_device(times).astype(np.float64)
        if t.ndim > 1:
            raise ValueError("`times` must be at most 1-dimensional.")
        single = t.ndim == 0
        t = gp.atleast_1d(t)
        nseg = len(self.times) - 1
        idx = gp.clip(gp.searchsorted(self.times, t, side="right") - 1, 0, nseg - 1)
        x = (t - self.times[idx])[:, None]
        c0, c1, c2 = self._coeff[0][idx], self._coeff[1][idx], self._coeff[2][idx]
        v = ((c0 * x + c1) * x + c2) * x
        if order == 0:
            result = self.rotations[idx] * Rotation.from_rotvec(v)
        else:
            vd = (3 * c0 * x + 2 * c1) * x + c2
            result = _apply(_rotvec_dot_to_rate(v), vd)
            if order == 2:
                vdd = 6 * c0 * x + 2 * c1
                result = _apply(_rotvec_dot_to_rate(v), vdd) + _accel_nonlinear(v, vd)
        return result[0] if single else result
