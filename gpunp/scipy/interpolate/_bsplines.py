"""B-splines (SciPy's BSpline, make_interp_spline, make_lsq_spline): knots
and coefficients on the device, evaluated there by de Boor's recursion
(_kernels); fits on the host with NumPy: collocation systems are banded
(_banded), least squares by normal equations of the banded design matrix."""

from __future__ import annotations

import operator
import warnings

import numpy

import gpunp
from gpunp.scipy._host import as_device

from . import _kernels
from ._banded import solve_banded


def _host(a):
    return a.get() if isinstance(a, gpunp.ndarray) else numpy.asarray(a)


def _float(a, check_finite=False):
    a = numpy.ascontiguousarray(_host(a))
    a = a.astype(numpy.complex128 if a.dtype.kind == "c" else numpy.float64, copy=False)
    if check_finite and not numpy.isfinite(a).all():
        raise ValueError("Array must not contain infs or nans.")
    return a


def _intervals(t, k, x, extrapolate=True):
    """For each x, ell with t[ell] <= x < t[ell+1], k <= ell < n (host)."""
    n = t.size - k - 1
    ell = numpy.searchsorted(t, x, side="right") - 1
    return numpy.clip(ell, k, n - 1)


def _basis(t, k, x, ell, nu=0):
    """The k+1 non-zero B-splines of degree k (their nu-th derivatives) at
    each x, on the intervals ell: (len(x), k+1), host, the kernel's recursion."""
    x = numpy.asarray(x, dtype=numpy.float64)
    h = numpy.zeros((x.size, k + 1))
    h[:, 0] = 1.0
    for j in range(1, k + 1):
        hh = h[:, :j].copy()
        h[:, 0] = 0.0
        for q in range(1, j + 1):
            xb, xa = t[ell + q], t[ell + q - j]
            same = xb == xa
            den = numpy.where(same, 1.0, xb - xa)
            if j <= k - nu:
                w = hh[:, q - 1] / den
                h[:, q - 1] += numpy.where(same, 0.0, w * (xb - x))
                h[:, q] = numpy.where(same, 0.0, w * (x - xa))
            else:
                w = j * hh[:, q - 1] / den
                h[:, q - 1] -= numpy.where(same, 0.0, w)
                h[:, q] = numpy.where(same, 0.0, w)
    if nu > k:
        h[:] = 0.0
    return h


class BSpline:
    """A spline of degree k as a sum of B-splines: knots t, coefficients c
    (along `axis`)."""

    def __init__(self, t, c, k, extrapolate=True, axis=0):
        self.k = operator.index(k)
        c = _host(c)
        t = numpy.ascontiguousarray(_host(t), dtype=numpy.float64)
        self.extrapolate = extrapolate if extrapolate == "periodic" else bool(extrapolate)
        n = t.shape[0] - self.k - 1
        if c.ndim < 1:
            raise ValueError("Coefficients must be at least 1-dimensional.")
        axis = operator.index(axis)
        if not -c.ndim <= axis < c.ndim:
            raise numpy.exceptions.AxisError(axis, c.ndim)
        self.axis = axis % c.ndim
        c = numpy.moveaxis(c, self.axis, 0)
        if k < 0:
            raise ValueError("Spline order cannot be negative.")
        if t.ndim != 1:
            raise ValueError("Knot vector must be one-dimensional.")
        if n < self.k + 1:
            raise ValueError(f"Need at least {2 * k + 2} knots for degree {k}")
        if (numpy.diff(t) < 0).any():
            raise ValueError("Knots must be in a non-decreasing order.")
        if len(numpy.unique(t[k:n + 1])) < 2:
            raise ValueError("Need at least two internal knots.")
        if not numpy.isfinite(t).all():
            raise ValueError("Knots should not have nans or infs.")
        if c.shape[0] < n:
            raise ValueError("Knots, coefficients and degree are inconsistent.")
        self.t = gpunp.asarray(t)
        self.c = gpunp.asarray(_float(c))

    @classmethod
    def construct_fast(cls, t, c, k, extrapolate=True, axis=0):
        self = object.__new__(cls)
        self.t = t if isinstance(t, gpunp.ndarray) else gpunp.asarray(t)
        self.c = c if isinstance(c, gpunp.ndarray) else gpunp.asarray(c)
        self.k, self.extrapolate, self.axis = k, extrapolate, axis
        return self

    @property
    def tck(self):
        return self.t, self.c, self.k

    @classmethod
    def basis_element(cls, t, extrapolate=True):
        """The B-spline on the knots t alone (degree len(t) - 2)."""
        t = _host(t)
        k = t.shape[0] - 2
        if k < 0:
            raise ValueError("BSpline.basis_element requires at least 2 knots")
        t = _float(t)
        t = numpy.concatenate([[t[0] - 1] * k, t, [t[-1] + 1] * k])
        c = numpy.zeros_like(t)
        c[k] = 1.0
        return cls.construct_fast(t, c, k, extrapolate)

    @classmethod
    def design_matrix(cls, x, t, k, extrapolate=False):
        """The B-splines' values at x as a sparse CSR array (len(x), len(t)-k-1)."""
        from gpunp.scipy import sparse
        x, t = _float(x, True), _float(t, True)
        if extrapolate != "periodic":
            extrapolate = bool(extrapolate)
        if k < 0:
            raise ValueError("Spline order cannot be negative.")
        if t.ndim != 1 or numpy.any(t[1:] < t[:-1]):
            raise ValueError(f"Expect t to be a 1-D sorted array_like, but got t={t}.")
        if len(t) < 2 * k + 2:
            raise ValueError(f"Length t is not enough for k={k}.")
        nb = t.size - k - 1
        if extrapolate == "periodic":
            x = t[k] + (x - t[k]) % (t[nb] - t[k])
        elif not extrapolate and (min(x) < t[k] or max(x) > t[nb]):
            raise ValueError(f"Out of bounds w/ x = {x}.")
        ell = _intervals(t, k, x)
        data = _basis(t, k, x, ell).ravel()
        itype = numpy.int32 if x.size * (k + 1) < numpy.iinfo(numpy.int32).max else numpy.int64
        indices = ((ell - k)[:, None] + numpy.arange(k + 1)).astype(itype).ravel()
        indptr = numpy.arange(0, (x.size + 1) * (k + 1), k + 1, dtype=itype)
        return sparse.csr_array((gpunp.asarray(data), gpunp.asarray(indices),
                                 gpunp.asarray(indptr)), shape=(x.shape[0], nb))

    def __call__(self, x, nu=0, extrapolate=None):
        if extrapolate is None:
            extrapolate = self.extrapolate
        x = gpunp.asarray(as_device(x), dtype=numpy.float64)
        shape = x.shape
        x = x.reshape(-1)
        k, t = self.k, self.t
        if extrapolate == "periodic":
            n = t.shape[0] - k - 1
            x = t[k] + gpunp.remainder(x - t[k], t[n] - t[k])
            extrapolate = False
        c = self.c
        c2 = c.reshape(c.shape[0], -1)
        out = _kernels.bspline_eval(t, c2, k, x, nu, extrapolate)
        out = out.reshape(shape + c.shape[1:])
        return _kernels.points_at_axis(out, len(shape), self.axis)

    def _padded(self):
        """t and c on the host, c padded with zeros to len(t) as FITPACK keeps it."""
        t, c = self.t.get(), self.c.get()
        extra = len(t) - len(c)
        if extra > 0:
            c = numpy.concatenate([c, numpy.zeros((extra,) + c.shape[1:], dtype=c.dtype)])
        return t, c

    def derivative(self, nu=1):
        t, c = self._padded()
        t, c, k = _splder(t, c, self.k, nu)
        return self.construct_fast(t, c, k, self.extrapolate, self.axis)

    def antiderivative(self, nu=1):
        t, c = self._padded()
        t, c, k = _splantider(t, c, self.k, nu)
        extrapolate = False if self.extrapolate == "periodic" else self.extrapolate
        return self.construct_fast(t, c, k, extrapolate, self.axis)

    def integrate(self, a, b, extrapolate=None):
        if extrapolate is None:
            extrapolate = self.extrapolate
        a, b = float(a), float(b)
        sign = 1.0
        if b < a:
            a, b, sign = b, a, -1.0
        th = self.t.get()
        k = self.k
        n = th.size - k - 1
        if extrapolate != "periodic" and not extrapolate:
            a, b = max(a, th[k]), min(b, th[n])
            extrapolate = True  # FITPACK's splint: the spline is zero outside the base interval
            if a > b:
                b = a
        ib = self.antiderivative()
        if extrapolate == "periodic":
            ts, te = th[k], th[n]
            period = te - ts
            nper, left = divmod(b - a, period)
            a = ts + (a - ts) % period
            b = a + left
            if b <= te:
                pts, w = [ts, te, a, b], [-nper, nper, -1.0, 1.0]
            else:
                pts, w = [ts, te, a, te, ts, ts + b - te], [-nper, nper, -1.0, 1.0, -1.0, 1.0]
            extrapolate = False
        else:
            pts, w = [a, b], [-1.0, 1.0]
        vals = ib(gpunp.asarray(pts), extrapolate=extrapolate)
        vals = gpunp.moveaxis(vals, self.axis, 0) if self.axis else vals
        vals = vals.reshape(len(pts), -1).get()
        out = sign * sum(wi * v for wi, v in zip(w, vals))
        return gpunp.asarray(numpy.asarray(out).reshape(self.c.shape[1:]))


def _splder(t, c, k, nu):
    if nu < 0:
        return _splantider(t, c, k, -nu)
    if nu > k:
        raise ValueError(f"Order of derivative (n = {nu!r}) must be <= order of spline "
                         f"(k = {k!r})")
    shape = (-1,) + (1,) * (c.ndim - 1)
    for _ in range(nu):
        dt = t[k + 1:-1] - t[1:-k - 1]
        if numpy.any(dt == 0):
            raise ValueError("The spline has internal repeated knots and is not "
                             f"differentiable {nu} times")
        c = (c[1:-1 - k] - c[:-2 - k]) * k / dt.reshape(shape)
        c = numpy.concatenate([c, numpy.zeros((k,) + c.shape[1:], dtype=c.dtype)])
        t = t[1:-1]
        k -= 1
    return t, c, k


def _splantider(t, c, k, nu):
    if nu < 0:
        return _splder(t, c, k, -nu)
    shape = (-1,) + (1,) * (c.ndim - 1)
    for _ in range(nu):
        dt = t[k + 1:] - t[:-k - 1]
        c = numpy.cumsum(c[:-k - 1] * dt.reshape(shape), axis=0) / (k + 1)
        c = numpy.concatenate([numpy.zeros((1,) + c.shape[1:], dtype=c.dtype), c,
                               numpy.repeat(c[-1:], k + 2, axis=0)])
        t = numpy.concatenate([[t[0]], t, [t[-1]]])
        k += 1
    return t, c, k


def _not_a_knot(x, k):
    inner = x if k % 2 else (x[1:] + x[:-1]) / 2
    half = (k + 1) // 2 if k % 2 else k // 2
    inner = inner[half:len(inner) - half]
    return numpy.concatenate([[x[0]] * (k + 1), inner, [x[-1]] * (k + 1)])


def _augknt(x, k):
    return numpy.concatenate([[x[0]] * k, x, [x[-1]] * k])


def _periodic_knots(x, k):
    xc = x.copy()
    n = len(xc)
    if k % 2 == 0:
        dx = numpy.diff(xc)
        xc[1:-1] -= dx[:-1] / 2
    dx = numpy.diff(xc)
    t = numpy.zeros(n + 2 * k)
    t[k:-k] = xc
    # the knots beyond each end repeat the spacing from the other end
    for i in range(k):
        t[k - i - 1] = t[k - i] - dx[-(i % (n - 1)) - 1]
        t[-k + i] = t[-k + i - 1] + dx[i % (n - 1)]
    return t


def _derivative_spec(deriv, shape):
    if isinstance(deriv, str):
        if deriv == "clamped":
            deriv = [(1, numpy.zeros(shape))]
        elif deriv == "natural":
            deriv = [(2, numpy.zeros(shape))]
        else:
            raise ValueError(f"Unknown boundary condition : {deriv}")
    if deriv is None:
        return numpy.zeros(0, dtype=int), []
    try:
        ords, vals = zip(*deriv)
    except TypeError as e:
        raise ValueError("Derivatives, `bc_type`, should be specified as a pair of iterables "
                         "of pairs of (order, value).") from e
    return numpy.atleast_1d(ords), [_host(v) for v in vals]


def _collocation(x, t, k, nu=0):
    """Dense rows of the B-splines' values (nu-th derivatives) at x: (len(x), n)."""
    n = t.size - k - 1
    ell = _intervals(t, k, x)
    vals = _basis(t, k, x, ell, nu)
    a = numpy.zeros((x.size, n))
    rows = numpy.arange(x.size)[:, None]
    a[rows, (ell - k)[:, None] + numpy.arange(k + 1)] = vals
    return a


def make_interp_spline(x, y, k=3, t=None, bc_type=None, axis=0, check_finite=True):
    """The B-spline of degree k through (x, y), with end conditions bc_type
    (None/'not-a-knot', 'periodic', 'clamped', 'natural', or lists of
    (order, value) pairs for each end)."""
    if bc_type is None or bc_type in ("not-a-knot", "periodic"):
        left = right = None
    elif isinstance(bc_type, str):
        left = right = bc_type
    else:
        try:
            left, right = bc_type
        except TypeError as e:
            raise ValueError(f"Unknown boundary condition: {bc_type}") from e
    x = _float(x, check_finite)
    y = _float(y, check_finite)
    axis = operator.index(axis)
    if not -y.ndim <= axis < y.ndim:
        raise numpy.exceptions.AxisError(axis, y.ndim)
    axis %= y.ndim
    y = numpy.moveaxis(y, axis, 0)
    if bc_type == "periodic" and not numpy.allclose(y[0], y[-1], atol=1e-15):
        raise ValueError("First and last points does not match while periodic case expected")
    if x.size != y.shape[0]:
        raise ValueError(f"Shapes of x {x.shape} and y {y.shape} are incompatible")
    if numpy.any(x[1:] == x[:-1]):
        raise ValueError("Expect x to not have duplicates")
    if x.ndim != 1 or numpy.any(x[1:] < x[:-1]):
        raise ValueError("Expect x to be a 1D strictly increasing sequence.")
    if k == 0:
        if any(v is not None for v in (t, left, right)):
            raise ValueError("Too much info for k=0: t and bc_type can only be None.")
        return BSpline.construct_fast(numpy.r_[x, x[-1]], y, k, axis=axis)
    if k == 1 and t is None:
        if not (left is None and right is None):
            raise ValueError("Too much info for k=1: bc_type can only be None.")
        return BSpline.construct_fast(numpy.r_[x[0], x, x[-1]], y, k, axis=axis)
    k = operator.index(k)
    if bc_type == "periodic" and t is not None:
        raise NotImplementedError("For periodic case t is constructed automatically and can "
                                  "not be passed manually")
    if t is None:
        if left is None and right is None:
            t = _periodic_knots(x, k) if bc_type == "periodic" else _not_a_knot(x, k)
        else:
            t = _augknt(x, k)
    t = _float(t, check_finite)
    if k < 0:
        raise ValueError("Expect non-negative k.")
    if t.ndim != 1 or numpy.any(t[1:] < t[:-1]):
        raise ValueError("Expect t to be a 1-D sorted array_like.")
    if t.size < x.size + k + 1:
        raise ValueError(f"Got {t.size} knots, need at least {x.size + k + 1}.")
    if x[0] < t[k] or x[-1] > t[-k]:
        raise ValueError(f"Out of bounds w/ x = {x}.")
    if bc_type == "periodic":
        return _periodic_spline(x, y, t, k, axis)
    lords, lvals = _derivative_spec(left, y.shape[1:])
    rords, rvals = _derivative_spec(right, y.shape[1:])
    if not all(0 <= i <= k for i in lords):
        raise ValueError(f"Bad boundary conditions at {x[0]}.")
    if not all(0 <= i <= k for i in rords):
        raise ValueError(f"Bad boundary conditions at {x[-1]}.")
    n, nt = x.size, t.size - k - 1
    nl, nr = len(lords), len(rords)
    if nt - n != nl + nr:
        raise ValueError("The number of derivatives at boundaries does not match: expected "
                         f"{nt - n}, got {nl}+{nr}")
    if y.size == 0:
        return BSpline.construct_fast(t, numpy.zeros((nt,) + y.shape[1:]), k, axis=axis)
    # the end conditions' rows between the end points' own rows, so that
    # elimination without pivoting meets no zero pivot (the order of the
    # equations does not change the solution)
    coll = _collocation(x, t, k)
    a = numpy.concatenate([coll[:1]] + [_collocation(x[:1], t, k, nu) for nu in lords]
                          + [coll[1:-1]] + [_collocation(x[-1:], t, k, nu) for nu in rords]
                          + [coll[-1:]])
    m = int(numpy.prod(y.shape[1:], dtype=numpy.int64))
    yv = y.reshape(n, m)
    rhs = numpy.concatenate([yv[:1]] + [numpy.reshape(v, (1, m)) for v in lvals] + [yv[1:-1]]
                            + [numpy.reshape(v, (1, m)) for v in rvals] + [yv[-1:]]).astype(
        numpy.result_type(y.dtype, *[numpy.asarray(v).dtype for v in lvals + rvals],
                          numpy.float64))
    if check_finite and not numpy.isfinite(rhs).all():
        raise ValueError("array must not contain infs or NaNs")
    c = _solve_collocation(a, rhs, k)
    return BSpline.construct_fast(t, numpy.ascontiguousarray(c.reshape((nt,) + y.shape[1:])),
                                  k, axis=axis)


def _solve_collocation(a, rhs, k):
    """a's band is at most k below and k above the diagonal."""
    n = a.shape[0]
    ab = numpy.zeros((2 * k + 1, n))
    for d in range(-k, k + 1):
        idx = numpy.arange(max(0, -d), min(n, n - d))
        ab[k - d, idx + d] = a[idx, idx + d]
    try:
        return solve_banded((k, k), ab, rhs)
    except numpy.linalg.LinAlgError as e:
        raise numpy.linalg.LinAlgError("Colocation matrix is singular.") from e


# a periodic fit is one dense solve; past this many unknowns it is refused
PERIODIC_LIMIT = 4000


def _periodic_spline(x, y, t, k, axis):
    """Coefficients of the periodic interpolating spline: n collocation rows
    and k-1 rows equating the derivatives at both ends (dense solve)."""
    n = x.size
    nc = n + k - 1
    if nc > PERIODIC_LIMIT:
        raise NotImplementedError(f"periodic make_interp_spline of more than {PERIODIC_LIMIT} "
                                  "points is not supported")
    a = numpy.zeros((nc, nc))
    for i in range(k - 1):
        a[i] = _collocation(x[:1], t, k, i + 1)[0] - _collocation(x[-1:], t, k, i + 1)[0]
    a[k - 1:] = _collocation(x, t, k)
    m = int(numpy.prod(y.shape[1:], dtype=numpy.int64))
    if y.dtype.kind == "c":
        # SciPy stores the periodic coefficients in a real array: the imaginary part is lost
        warnings.warn("Casting complex values to real discards the imaginary part",
                      numpy.exceptions.ComplexWarning, stacklevel=3)
        y = y.real
    rhs = numpy.concatenate([numpy.zeros((k - 1, m)), y.reshape(n, m)])
    c = numpy.linalg.solve(a, rhs)
    return BSpline.construct_fast(t, numpy.ascontiguousarray(c.reshape((nc,) + y.shape[1:])),
                                  k, extrapolate="periodic", axis=axis)


def make_lsq_spline(x, y, t, k=3, w=None, axis=0, check_finite=True, *, method="qr",
                    clamp_values=None):
    """The least-squares B-spline of degree k on knots t: weighted normal
    equations of the banded design matrix, solved on the host."""
    x, y, t = _float(x, check_finite), _float(y, check_finite), _float(t, check_finite)
    w = numpy.ones_like(x) if w is None else _float(w, check_finite)
    k = operator.index(k)
    axis = operator.index(axis)
    if not -y.ndim <= axis < y.ndim:
        raise numpy.exceptions.AxisError(axis, y.ndim)
    y = numpy.moveaxis(y, axis % y.ndim, 0)
    if x.ndim != 1:
        raise ValueError("Expect x to be a 1-D sequence.")
    if x.shape[0] < k + 1:
        raise ValueError("Need more x points.")
    if k < 0:
        raise ValueError("Expect non-negative k.")
    if t.ndim != 1 or numpy.any(t[1:] - t[:-1] < 0):
        raise ValueError("Expect t to be a 1D strictly increasing sequence.")
    if x.size != y.shape[0]:
        raise ValueError(f"Shapes of x {x.shape} and y {y.shape} are incompatible")
    if k > 0 and numpy.any((x < t[k]) | (x > t[-k])):
        raise ValueError(f"Out of bounds w/ x = {x}.")
    if x.size != w.size:
        raise ValueError(f"Shapes of x {x.shape} and w {w.shape} are incompatible")
    if method == "norm-eq" and numpy.any(x[1:] - x[:-1] <= 0):
        raise ValueError("Expect x to be a 1D strictly increasing sequence.")
    if method == "qr" and numpy.any(x[1:] - x[:-1] < 0):
        raise ValueError("Expect x to be a 1D non-decreasing sequence.")
    if method not in ("qr", "norm-eq"):
        raise ValueError(f"Unknown method ={method!r}.")
    if clamp_values is not None:
        raise NotImplementedError("make_lsq_spline's clamp_values is not supported")
    n = t.size - k - 1
    m = int(numpy.prod(y.shape[1:], dtype=numpy.int64))
    a = _collocation(x, t, k) * w[:, None]
    rhs = y.reshape(x.size, m) * w[:, None]
    c, *_ = numpy.linalg.lstsq(a, rhs, rcond=None)
    c = numpy.ascontiguousarray(c.reshape((n,) + y.shape[1:]))
    return BSpline.construct_fast(t, c, k, axis=axis % y.ndim)
