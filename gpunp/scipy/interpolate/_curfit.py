"""FITPACK's smoothing spline (curfit with s > 0, Dierckx 1975/1993), on the
host with NumPy: knots are added one interval at a time where the
weighted residuals are largest until the least-squares spline's residual
sum fp falls below s, then the weight p of the smoothing term (jumps of
the k-th derivative at the interior knots) is found by rational
interpolation so that fp(p) = s. Least squares by NumPy's QR (FITPACK uses
Givens rotations: the same solutions up to rounding)."""

from __future__ import annotations

import numpy

from ._bsplines import _basis, _intervals

TOL = 0.001
MAXIT = 20


def _design(x, t, k):
    n = len(t) - k - 1
    ell = _intervals(t, k, x)
    a = numpy.zeros((len(x), n))
    a[numpy.arange(len(x))[:, None], (ell - k)[:, None] + numpy.arange(k + 1)] = \
        _basis(t, k, x, ell)
    return a


def _lsq(x, y, w, t, k, extra=None):
    """Coefficients and residual sum fp of the weighted least squares on
    knots t (with extra rows, zero right-hand side, appended), and the
    diagonal of the triangular factor."""
    a = _design(x, t, k) * w[:, None]
    rhs = y * w
    if extra is not None:
        a = numpy.vstack([a, extra])
        rhs = numpy.concatenate([rhs, numpy.zeros(extra.shape[0])])
    c = numpy.linalg.lstsq(a, rhs, rcond=None)[0]
    res = (w * (y - _design(x, t, k) @ c)) ** 2
    return c, float(res.sum()), res


def _intervals_fp(x, t, k, res):
    """FITPACK's fpint: the residuals of each knot interval, a point on an
    interior knot shared half and half."""
    n = len(t)
    nrint = n - 2 * k - 1
    fpint = numpy.zeros(nrint)
    fpart, i, knot = 0.0, 0, k + 1
    for it in range(len(x)):
        new = knot <= n - k - 2 and x[it] >= t[knot]
        if new:
            knot += 1
        fpart += res[it]
        if new:
            fpint[i] = fpart - res[it] / 2
            i += 1
            fpart = res[it] / 2
    fpint[nrint - 1] = fpart
    return fpint


def _add_knot(x, t, k, fpint, nrdata):
    """FITPACK's fpknot: a knot at the middle data point of the interval with
    the largest residual sum (among those with data inside); the residuals
    and counts split in proportion."""
    nrint = len(fpint)
    fpmax, number, maxpt, maxbeg = 0.0, 0, 0, 0
    jbegin = 0
    for j in range(nrint):
        if fpint[j] > fpmax and nrdata[j] != 0:
            fpmax, number, maxpt, maxbeg = fpint[j], j, nrdata[j], jbegin
        jbegin += nrdata[j] + 1
    ihalf = maxpt // 2 + 1
    knot = x[maxbeg + ihalf]
    fpint = list(fpint)
    nrdata = list(nrdata)
    left, right = ihalf - 1, maxpt - ihalf
    nrdata[number:number + 1] = [left, right]
    fpint[number:number + 1] = [fpmax * left / maxpt, fpmax * right / maxpt]
    t = numpy.concatenate([t[:number + k + 1], [knot], t[number + k + 1:]])
    return t, numpy.array(fpint), nrdata


def _jumps(t, k):
    """FITPACK's fpdisc: the jumps of the B-splines' k-th derivative at the
    interior knots, one row per knot (scaled by the mean interval)."""
    n = len(t)
    nrint = n - 2 * k - 1
    delta = t[n - k - 1] - t[k]
    b = numpy.zeros((nrint - 1, n - k - 1))
    for row in range(nrint - 1):
        j = row + k + 1
        for a in range(k + 2):
            i = row + a
            prod = 1.0
            for q in range(k + 2):
                if i + q != j:
                    prod *= t[j] - t[i + q]
            b[row, i] = (t[i + k + 1] - t[i]) / prod
    return b * (delta / nrint) ** k


def _rational(p1, f1, p2, f2, p3, f3):
    """FITPACK's fprati: the zero of the rational interpolant through three
    points (p3 = inf when negative)."""
    if p3 < 0:
        return (p1 * (f1 - f3) * f2 - p2 * (f2 - f3) * f1) / ((f1 - f2) * f3)
    h1, h2, h3 = f1 * (f2 - f3), f2 * (f3 - f1), f3 * (f1 - f2)
    return -(p1 * p2 * h3 + p2 * p3 * h1 + p3 * p1 * h2) / (p1 * h1 + p2 * h2 + p3 * h3)


def smoothing_fit(x, y, w, xb, xe, k, s, interpolate):
    """(t, c, fp, ier) as FITPACK's curfit (iopt=0) for s > 0;
    interpolate(x, y) gives the interpolating fit's (t, c) when the knots
    reach their maximum."""
    m = len(x)
    acc = TOL * s
    nmin, nmax = 2 * k + 2, m + k + 1
    t = numpy.array([xb] * (k + 1) + [xe] * (k + 1), dtype=float)
    nrdata = [m - 2]
    fp0 = fpold = 0.0
    nplus = 0
    for _ in range(m):
        n = len(t)
        c, fp, res = _lsq(x, y, w, t, k)
        if n == nmin:
            fp0 = fp
        fpms = fp - s
        if abs(fpms) < acc:
            return t, c, fp, (-2 if n == nmin else 0)
        if fpms < 0:
            break
        if n == nmax:
            tt, cc = interpolate()
            return tt, cc, 0.0, -1
        fpint = _intervals_fp(x, t, k, res)
        if n == nmin:
            nplus = 1
        else:
            npl1 = nplus * 2
            if fpold - fp > acc:
                npl1 = int(nplus * fpms / (fpold - fp))
            nplus = min(nplus * 2, max(npl1, nplus // 2, 1))
        fpold = fp
        for _ in range(nplus):
            t, fpint, nrdata = _add_knot(x, t, k, fpint, nrdata)
            if len(t) == nmax:
                tt, cc = interpolate()
                return tt, cc, 0.0, -1
    else:
        return t, c, fp, 0
    if len(t) == nmin:
        return t, c, fp, -2
    # part 2: the smoothing spline on these knots, fp(p) = s
    b = _jumps(t, k)
    a = _design(x, t, k) * w[:, None]
    r = numpy.linalg.qr(a, mode="r")
    nk1 = len(t) - k - 1
    p = nk1 / float(numpy.abs(numpy.diag(r)).sum())
    p1, f1, p3, f3 = 0.0, fp0 - s, -1.0, fpms
    ich1 = ich3 = 0
    con1, con4, con9 = 0.1, 0.04, 0.9
    ier = 3
    for _ in range(MAXIT):
        c, fp, _res = _lsq(x, y, w, t, k, extra=b / p)
        p2, f2 = p, fp - s
        if abs(f2) < acc:
            ier = 0
            break
        if ich3 == 0:
            if f2 - f3 <= acc:  # p too large
                p3, f3 = p2, f2
                p = p * con4
                if p <= p1:
                    p = p1 * con9 + p2 * con1
                continue
            if f2 < 0:
                ich3 = 1
        if ich1 == 0:
            if f1 - f2 <= acc:  # p too small
                p1, f1 = p2, f2
                p = p / con4
                if p3 >= 0 and p >= p3:
                    p = p2 * con1 + p3 * con9
                continue
            if f2 > 0:
                ich1 = 1
        if f2 >= f1 or f2 <= f3:
            ier = 2
            break
        p = _rational(p1, f1, p2, f2, p3, f3)
        if f2 < 0:
            p3, f3 = p2, f2
        else:
            p1, f1 = p2, f2
    return t, c, fp, ier
