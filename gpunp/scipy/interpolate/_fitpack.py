"""FITPACK's interface (splrep, splev, splder, splantider, splint, sproot,
spalde, and the UnivariateSpline family) over gpunp arrays: tck tuples of
device arrays, evaluated by the B-spline kernel.

Fits on the host: interpolation (s=0) with FITPACK's knots, solved as a
banded collocation system; least squares on given knots (task=-1,
LSQUnivariateSpline); FITPACK's smoothing search for s > 0 (_curfit).
FITPACK's continuation of a fit from its previous knots (task=1,
set_smoothing_factor) and periodic fits (per=1) raise NotImplementedError."""

from __future__ import annotations

import math
import warnings

import numpy

import gpunp
from gpunp.scipy._host import as_device

from ._bsplines import BSpline, _basis, _splantider, _splder, make_interp_spline, make_lsq_spline
from ._curfit import smoothing_fit
from ._ppoly import _real_roots

_SMOOTHING = ("FITPACK's continuation of a smoothing fit from its previous knots (splrep's "
              "task=1, UnivariateSpline.set_smoothing_factor) is not implemented in gpunp; "
              "fit again with the new s")
_EXT = {0: 0, "extrapolate": 0, 1: 1, "zeros": 1, 2: 2, "raise": 2, 3: 3, "const": 3}


def _host(a):
    return a.get() if isinstance(a, gpunp.ndarray) else numpy.asarray(a)


def _parametric(c):
    try:
        c[0][0]
    except Exception:
        return False
    return True


def _interp_knots(x, k, xb, xe):
    """FITPACK's knots for s=0: interior ones at data points (odd k) or
    midpoints (even k), the ends xb and xe repeated k+1 times."""
    m = len(x)
    if k % 2:
        inner = x[k // 2 + 1:k // 2 + 1 + m - k - 1]
    else:
        mid = (x[1:] + x[:-1]) / 2
        inner = mid[k // 2:k // 2 + m - k - 1]
    return numpy.concatenate([[xb] * (k + 1), inner, [xe] * (k + 1)])


def _fit(x, y, w, xb, xe, k, s, t):
    """FITPACK's fit on the host: (t, c padded to len(t), fp, ier), or an
    error as curfit's."""
    if numpy.any(x[1:] < x[:-1]) or xb > x[0] or xe < x[-1] or numpy.any(w <= 0):
        raise ValueError("Error on input data")

    def interpolating():
        if numpy.any(x[1:] == x[:-1]):
            raise ValueError("Error on input data")
        knots = _interp_knots(x, k, xb, xe)
        return knots, make_interp_spline(x, y, k=k, t=knots).c.get()
    if t is not None:
        tt = numpy.concatenate([[xb] * (k + 1), _host(t).astype(float), [xe] * (k + 1)])
        c = make_lsq_spline(x, y, tt, k, w=w).c.get()
        fp, ier = float(numpy.sum((w * (_eval_host((tt, c, k), x) - y)) ** 2)), 0
    elif s > 0:
        tt, c, fp, ier = smoothing_fit(x, y.astype(float), w, xb, xe, k, s, interpolating)
    else:
        (tt, c), fp, ier = interpolating(), 0.0, -1
    return tt, numpy.concatenate([c, numpy.zeros(len(tt) - len(c))]), fp, ier


_IER = {0: "The spline has a residual sum of squares fp such that abs(fp-s)/s<=0.001",
        -1: "The spline is an interpolating spline (fp=0)",
        -2: "The spline is weighted least-squares polynomial of degree k.\nfp gives the upper "
            "bound fp0 for the smoothing factor s",
        2: "A theoretically impossible result when finding a smoothing spline\nwith fp = s. "
           "Probable cause: s too small. (abs(fp-s)/s>0.001)",
        3: "The maximal number of iterations (20) allowed for finding smoothing\nspline with "
           "fp=s has been reached. Probable cause: s too small.\n(abs(fp-s)/s>0.001)"}


def splrep(x, y, w=None, xb=None, xe=None, k=3, task=0, s=None, t=None, full_output=0, per=0,
           quiet=1):
    """The B-spline representation (t, c, k) of a 1-d curve through (x, y)."""
    x, y = numpy.atleast_1d(_host(x)).astype(float), numpy.atleast_1d(_host(y))
    m = len(x)
    if w is None:
        w = numpy.ones(m)
        if s is None:
            s = 0.0
    else:
        w = numpy.atleast_1d(_host(w)).astype(float)
        if s is None:
            s = m - math.sqrt(2 * m)
    if len(w) != m:
        raise TypeError(f"len(w)={len(w)} is not equal to m={m}")
    if m != len(y) or m != len(w):
        raise TypeError("Lengths of the first three arguments (x,y,w) must be equal")
    if not 1 <= k <= 5:
        raise TypeError(f"Given degree of the spline (k={k}) is not supported. (1<=k<=5)")
    if m <= k:
        raise TypeError("m > k must hold")
    if not -1 <= task <= 1:
        raise TypeError("task must be -1, 0 or 1")
    if task == 1:
        raise NotImplementedError(_SMOOTHING)
    if task == -1 and t is None:
        raise TypeError("Knots must be given for task=-1")
    if per:
        raise NotImplementedError("splrep's periodic fits (per=1, FITPACK's percur) are not "
                                  "implemented in gpunp; use make_interp_spline(..., "
                                  "bc_type='periodic')")
    xb = x[0] if xb is None else float(xb)
    xe = x[-1] if xe is None else float(xe)
    tt, c, fp, ier = _fit(x, y, w, xb, xe, k, s, t)
    tck = (gpunp.asarray(tt), gpunp.asarray(c), k)
    if full_output:
        return tck, fp, ier, _IER[ier]
    if ier > 0:
        warnings.warn(RuntimeWarning(_IER[ier]), stacklevel=2)
    return tck


def _eval_host(tck, x):
    t, c, k = tck
    return BSpline(t, c, k)(gpunp.asarray(x)).get()


def splev(x, tck, der=0, ext=0):
    """The spline (or its derivative of order der) at x; outside the base
    interval: extrapolate (ext 0), zero (1), raise (2) or the end value (3)."""
    if isinstance(tck, BSpline):
        if tck.c.ndim > 1:
            raise ValueError("Calling splev() with BSpline objects with c.ndim > 1 is not "
                             "allowed. Use BSpline.__call__(x) instead.")
        if ext != 0:
            raise ValueError(f"Extrapolation mode {ext} is not supported by BSpline.")
        return tck(x, der, extrapolate=True)
    t, c, k = tck
    if _parametric(c):
        return [splev(x, (t, ci, k), der, ext) for ci in c]
    if not 0 <= der <= k:
        raise ValueError(f"0<=der={der}<=k={k} must hold")
    if ext not in (0, 1, 2, 3):
        raise ValueError(f"ext = {ext} not in (0, 1, 2, 3) ")
    t = gpunp.asarray(t, dtype=float)
    c = gpunp.asarray(c, dtype=float)
    x = gpunp.asarray(as_device(x), dtype=float)
    shape = x.shape
    x = x.reshape(-1)
    n = t.shape[0] - k - 1
    lo, hi = t[k], t[n]
    if ext == 2 and x.size and bool(((x < lo) | (x > hi)).any()):
        raise ValueError("Found x value not in the domain")
    if ext == 3 and der == 0:  # FITPACK's derivatives extrapolate under ext=3
        x = gpunp.clip(x, lo, hi)
    spl = BSpline.construct_fast(t, c, k)
    y = spl(x, nu=der)
    if ext == 1:
        y = gpunp.where((x < lo) | (x > hi), 0.0, y)
    return y.reshape(shape)


def splint(a, b, tck, full_output=0):
    """The integral of the spline over [a, b] (zero outside its base interval)."""
    if isinstance(tck, BSpline):
        if tck.c.ndim > 1:
            raise ValueError("Calling splint() with BSpline objects with c.ndim > 1 is not "
                             "allowed. Use BSpline.integrate() instead.")
        if full_output != 0:
            warnings.warn(f"full_output = {full_output} is not supported. Proceeding as if "
                          "full_output = 0", RuntimeWarning, stacklevel=2)
        return tck.integrate(a, b, extrapolate=False)
    t, c, k = tck
    if _parametric(c):
        return [splint(a, b, (t, ci, k)) for ci in c]
    out = BSpline.construct_fast(gpunp.asarray(t, dtype=float), gpunp.asarray(c, dtype=float),
                                 k).integrate(a, b, extrapolate=False)
    return (out, None) if full_output else out


def sproot(tck, mest=10):
    """The zeros of a cubic spline in its base interval."""
    if isinstance(tck, BSpline):
        if tck.c.ndim > 1:
            raise ValueError("Calling sproot() with BSpline objects with c.ndim > 1 is not "
                             "allowed.")
        tck = tck.tck
    t, c, k = tck
    if k != 3:
        raise ValueError("sproot works only for cubic (k=3) splines")
    if _parametric(c):
        return [sproot((t, ci, k), mest) for ci in c]
    t = _host(t).astype(float)
    c = _host(c).astype(float)
    if len(t) < 8:
        raise TypeError(f"The number of knots {len(t)}>=8")
    n = len(t) - k - 1
    if numpy.any(t[1:] < t[:-1]) or t[k] >= t[n]:
        raise TypeError("Invalid input data. t1<=..<=t4<t5<..<tn-3<=..<=tn must hold.")
    # the power-basis pieces on the non-empty knot intervals
    ells = numpy.array([j for j in range(k, n) if t[j] < t[j + 1]])
    xs = t[ells]
    cc = c[(ells - k)[:, None] + numpy.arange(k + 1)]
    pieces = numpy.stack([numpy.einsum("pq,pq->p", _basis(t, k, xs, ells, nu), cc)
                          / math.factorial(nu) for nu in range(k, -1, -1)])
    bps = numpy.concatenate([xs, [t[n]]])
    z = _real_roots(pieces, bps, 0.0, False, False)
    z = z[~numpy.isnan(z)]
    if len(z) > mest:
        warnings.warn(RuntimeWarning("The number of zeros exceeds mest"), stacklevel=2)
        z = z[:mest]
    return gpunp.asarray(z)


def spalde(x, tck):
    """All derivatives (orders 0..k) of the spline at x."""
    if isinstance(tck, BSpline):
        raise TypeError("spalde does not accept BSpline instances.")
    t, c, k = tck
    if _parametric(c):
        return [spalde(x, (t, ci, k)) for ci in c]
    xs = numpy.atleast_1d(_host(x)).astype(float)
    if len(xs) > 1:
        return [spalde(v, tck) for v in xs]
    th = _host(t).astype(float)
    n = len(th) - k - 1
    if not th[k] <= xs[0] <= th[n]:
        raise TypeError("Invalid input data. t(k)<=x<=t(n-k+1) must hold.")
    spl = BSpline.construct_fast(gpunp.asarray(th), gpunp.asarray(c, dtype=float), k)
    xd = gpunp.asarray(xs)
    return gpunp.concatenate([spl(xd, nu=nu) for nu in range(k + 1)])


def splder(tck, n=1):
    """The B-spline of the derivative of order n."""
    if isinstance(tck, BSpline):
        return tck.derivative(n)
    t, c, k = tck
    t2, c2, k2 = _splder(_host(t).astype(float), _host(c), k, n)
    return gpunp.asarray(t2), gpunp.asarray(c2), k2


def splantider(tck, n=1):
    """The B-spline of the antiderivative of order n."""
    if isinstance(tck, BSpline):
        return tck.antiderivative(n)
    t, c, k = tck
    t2, c2, k2 = _splantider(_host(t).astype(float), _host(c), k, n)
    return gpunp.asarray(t2), gpunp.asarray(c2), k2


class UnivariateSpline:
    """A 1-d spline fitted to (x, y) as FITPACK fits it (smoothing factor s,
    len(x) by default), with FITPACK's evaluation and calculus."""

    def __init__(self, x, y, w=None, bbox=[None] * 2, k=3, s=None, ext=0,
                 check_finite=False):
        x, y, w, bbox, self.ext = self.validate_input(x, y, w, bbox, k, s, ext, check_finite)
        self._fit(x, y, w, bbox, k, None, float(len(x)) if s is None else s)

    def _fit(self, x, y, w, bbox, k, t, s=0.0):
        xb = x[0] if bbox[0] is None else float(bbox[0])
        xe = x[-1] if bbox[1] is None else float(bbox[1])
        w = numpy.ones(len(x)) if w is None else w.astype(float)
        tt, c, self._fp, ier = _fit(x.astype(float), y, w, xb, xe, k, s, t)
        self._eval_args = (gpunp.asarray(tt), gpunp.asarray(c), k)
        if ier > 0:
            warnings.warn(_IER[ier], stacklevel=3)

    @staticmethod
    def validate_input(x, y, w, bbox, k, s, ext, check_finite):
        x, y = _host(x), _host(y)
        bbox = numpy.asarray(bbox)
        if w is not None:
            w = _host(w)
        if check_finite:
            wf = numpy.isfinite(w).all() if w is not None else True
            if not numpy.isfinite(x).all() or not numpy.isfinite(y).all() or not wf:
                raise ValueError("x and y array must not contain NaNs or infs.")
        if s is None or s > 0:
            if not numpy.all(numpy.diff(x) >= 0.0):
                raise ValueError("x must be increasing if s > 0")
        elif not numpy.all(numpy.diff(x) > 0.0):
            raise ValueError("x must be strictly increasing if s = 0")
        if x.size != y.size:
            raise ValueError("x and y should have a same length")
        elif w is not None and not x.size == y.size == w.size:
            raise ValueError("x, y, and w should have a same length")
        elif bbox.shape != (2,):
            raise ValueError("bbox shape should be (2,)")
        elif not 1 <= k <= 5:
            raise ValueError("k should be 1 <= k <= 5")
        elif s is not None and not s >= 0.0:
            raise ValueError("s should be s >= 0.0")
        try:
            ext = _EXT[ext]
        except (KeyError, TypeError) as e:
            raise ValueError(f"Unknown extrapolation mode {ext}.") from e
        return x, y, w, bbox, ext

    @classmethod
    def _from_tck(cls, tck, ext=0):
        self = cls.__new__(cls)
        self._eval_args = tck
        self._fp = None
        self.ext = ext
        return self

    def set_smoothing_factor(self, s):
        raise NotImplementedError(_SMOOTHING)

    def __call__(self, x, nu=0, ext=None):
        x = as_device(x)
        if x.size == 0:
            return gpunp.asarray([])
        if ext is None:
            ext = self.ext
        else:
            try:
                ext = _EXT[ext]
            except (KeyError, TypeError) as e:
                raise ValueError(f"Unknown extrapolation mode {ext}.") from e
        return splev(x, self._eval_args, der=nu, ext=ext)

    def get_knots(self):
        t, _, k = self._eval_args
        return t[k:t.shape[0] - k]

    def get_coeffs(self):
        t, c, k = self._eval_args
        return c[:t.shape[0] - k - 1]

    def get_residual(self):
        return self._fp

    def integral(self, a, b):
        return splint(a, b, self._eval_args)

    def derivatives(self, x):
        return spalde(x, self._eval_args)

    def roots(self):
        t, _, k = self._eval_args
        if k == 3:
            return sproot(self._eval_args, mest=3 * (t.shape[0] - 7))
        raise NotImplementedError("finding roots unsupported for non-cubic splines")

    def derivative(self, n=1):
        tck = splder(self._eval_args, n)
        return UnivariateSpline._from_tck(tck, ext=1 if self.ext == 3 else self.ext)

    def antiderivative(self, n=1):
        return UnivariateSpline._from_tck(splantider(self._eval_args, n), self.ext)


class InterpolatedUnivariateSpline(UnivariateSpline):
    """The interpolating spline of FITPACK (s=0)."""

    def __init__(self, x, y, w=None, bbox=[None] * 2, k=3, ext=0, check_finite=False):
        x, y, w, bbox, self.ext = self.validate_input(x, y, w, bbox, k, None, ext, check_finite)
        if not numpy.all(numpy.diff(x) > 0.0):
            raise ValueError("x must be strictly increasing")
        self._fit(x, y, w, bbox, k, None)


class LSQUnivariateSpline(UnivariateSpline):
    """The weighted least-squares spline on the interior knots t."""

    def __init__(self, x, y, t, w=None, bbox=[None] * 2, k=3, ext=0, check_finite=False):
        x, y, w, bbox, self.ext = self.validate_input(x, y, w, bbox, k, None, ext, check_finite)
        if not numpy.all(numpy.diff(x) >= 0.0):
            raise ValueError("x must be increasing")
        t = _host(t).astype(float)
        xb = x[0] if bbox[0] is None else bbox[0]
        xe = x[-1] if bbox[1] is None else bbox[1]
        tt = numpy.concatenate([[xb] * (k + 1), t, [xe] * (k + 1)])
        n = len(tt)
        if not numpy.all(tt[k + 1:n - k] - tt[k:n - k - 1] > 0):
            raise ValueError("Interior knots t must satisfy Schoenberg-Whitney conditions")
        if not _schoenberg_whitney(x, tt, k):
            raise ValueError("The input parameters have been rejected by fpchec.")
        self._fit(x, y, w, bbox, k, t)


def _schoenberg_whitney(x, t, k):
    """FITPACK's fpchec: the knots' order, the data inside the base interval,
    and, for each inner basis function in turn, a later data point strictly
    inside its support (the Schoenberg-Whitney conditions)."""
    n, m = len(t), len(x)
    nk1 = n - k - 1
    if not (k + 1 <= nk1 <= m):
        return False
    if numpy.any(x < t[k]) or numpy.any(x > t[nk1]):
        return False
    i = 0
    for j in range(1, nk1 - 1):
        i += 1
        while i < m - 1 and x[i] <= t[j]:
            i += 1
        if i >= m - 1 or x[i] >= t[j + k + 1]:
            return False
    return True
