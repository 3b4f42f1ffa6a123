"""make_smoothing_spline: the cubic smoothing spline (minimising
sum w_i (y_i - g(x_i))^2 + lam * integral g''^2), fitted on the host by
Reinsch's algorithm (a pentadiagonal system for the second derivatives at
the data points), lam chosen by generalised cross-validation when not
given (Brent's bounded minimisation on [0, n], as SciPy's
minimize_scalar(method='bounded')). The result is SciPy's B-spline (knots
at every x, natural ends), evaluated on the device."""

from __future__ import annotations

import numpy

from gpunp.scipy._optimize import fminbound

from ._banded import solve_banded
from ._bsplines import BSpline, _host, make_interp_spline


def _reinsch(x):
    """Reinsch's matrices as diagonals: Q (n, n-2), the second divided
    differences (column j at rows j, j+1, j+2), and R (n-2, n-2), the
    tridiagonal Gram matrix of the piecewise linear second derivative."""
    h = numpy.diff(x)
    q = (1 / h[:-1], -1 / h[:-1] - 1 / h[1:], 1 / h[1:])
    r = ((h[:-1] + h[1:]) / 3, h[1:-1] / 6)
    return q, r


def _qt_winv_q(q, w):
    """The diagonals (0, 1, 2) of the pentadiagonal Q^T W^-1 Q."""
    q0, q1, q2 = q
    p0 = q0 ** 2 / w[:-2] + q1 ** 2 / w[1:-1] + q2 ** 2 / w[2:]
    p1 = q1[:-1] * q0[1:] / w[1:-2] + q2[:-1] * q1[1:] / w[2:-1]
    p2 = q2[:-2] * q0[2:] / w[2:-2]
    return p0, p1, p2


def _band_inverse_trace(m, p):
    """trace(M^-1 P) for symmetric pentadiagonal M (positive definite) and P,
    both as diagonals: the band of M^-1 by Takahashi's recursion over
    M = L D L^T, without forming M^-1."""
    d0, d1, d2 = m
    n = len(d0)
    dia, l1, l2 = numpy.zeros(n), numpy.zeros(n), numpy.zeros(n)
    for i in range(n):
        s = d0[i]
        if i >= 1:
            s -= l1[i - 1] ** 2 * dia[i - 1]
        if i >= 2:
            s -= l2[i - 2] ** 2 * dia[i - 2]
        dia[i] = s
        if i + 1 < n:
            v = d1[i]
            if i >= 1:
                v -= l2[i - 1] * l1[i - 1] * dia[i - 1]
            l1[i] = v / s
        if i + 2 < n:
            l2[i] = d2[i] / s
    s0, s1, s2 = numpy.zeros(n + 2), numpy.zeros(n + 2), numpy.zeros(n + 2)
    for i in range(n - 1, -1, -1):
        s2[i] = -l1[i] * s1[i + 1] - l2[i] * s0[i + 2]
        s1[i] = -l1[i] * s0[i + 1] - l2[i] * s1[i + 1]
        s0[i] = 1 / dia[i] - l1[i] * s1[i] - l2[i] * s2[i]
    p0, p1, p2 = p
    return float(numpy.sum(s0[:n] * p0) + 2 * numpy.sum(s1[:n - 1] * p1)
                 + 2 * numpy.sum(s2[:n - 2] * p2))


def _fit(q, r, p, w, y, lam):
    """The smoothed values g at the data points (y one column), and the
    system's diagonals M = R + lam Q^T W^-1 Q."""
    n = len(w)
    m = (r[0] + lam * p[0], numpy.r_[r[1], 0.0][:n - 3] + lam * p[1], lam * p[2])
    ab = numpy.zeros((5, n - 2))
    ab[2] = m[0]
    ab[1, 1:] = ab[3, :-1] = m[1]
    ab[0, 2:] = ab[4, :-2] = m[2]
    q0, q1, q2 = q
    qty = q0 * y[:-2] + q1 * y[1:-1] + q2 * y[2:]
    gamma = solve_banded((2, 2), ab, qty)
    qg = numpy.zeros(n)
    qg[:-2] += q0 * gamma
    qg[1:-1] += q1 * gamma
    qg[2:] += q2 * gamma
    return y - lam * qg / w, m


def _gcv(lam, q, r, p, w, y):
    """Generalised cross-validation: (RSS / n) / (1 - trace(A) / n)^2, with
    trace(A) = n - lam trace(M^-1 Q^T W^-1 Q)."""
    n = len(w)
    g, m = _fit(q, r, p, w, y, lam)
    tr = n - lam * _band_inverse_trace(m, p)
    return float(numpy.sum((y - g) ** 2)) / n / (1 - tr / n) ** 2


def make_smoothing_spline(x, y, w=None, lam=None, *, axis=0):
    """The cubic smoothing spline of (x, y) with weights w and penalty lam
    (chosen by generalised cross-validation when None)."""
    x = numpy.ascontiguousarray(_host(x), dtype=float)
    y = numpy.ascontiguousarray(_host(y), dtype=float)
    if any(x[1:] - x[:-1] <= 0):
        raise ValueError("``x`` should be an ascending array")
    if x.ndim != 1 or x.shape[0] != y.shape[axis]:
        raise ValueError(f"``x`` should be 1D and x.shape = {x.shape!r} == y.shape = "
                         f"{y.shape!r}")
    if w is None:
        w = numpy.ones(len(x))
    else:
        w = numpy.ascontiguousarray(_host(w), dtype=float)
        if any(w <= 0):
            raise ValueError("Invalid vector of weights")
    n = x.shape[0]
    if n <= 4:
        raise ValueError("``x`` and ``y`` length must be at least 5")
    axis = axis % y.ndim
    y = numpy.moveaxis(y, axis, 0)
    rest = y.shape[1:]
    y2 = y.reshape(n, -1)
    q, r = _reinsch(x)
    p = _qt_winv_q(q, w)
    if lam is None:
        lams = [fminbound(lambda v, c=c: _gcv(v, q, r, p, w, y2[:, c]), 0, n)
                for c in range(y2.shape[1])]
    elif numpy.ndim(lam) == 0 and lam < 0.0:
        raise ValueError("Regularization parameter should be non-negative")
    else:
        lams = [float(lam)] * y2.shape[1]
    g = numpy.stack([_fit(q, r, p, w, y2[:, c], lv)[0] for c, lv in enumerate(lams)], axis=1)
    spl = make_interp_spline(x, g.reshape((n,) + rest), k=3, bc_type="natural")
    return BSpline.construct_fast(spl.t, spl.c, 3, axis=axis)
