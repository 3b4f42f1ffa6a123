"""Piecewise cubic interpolators (SciPy's CubicHermiteSpline, CubicSpline,
PchipInterpolator, Akima1DInterpolator): the slopes at the data points are
found on the host (a tridiagonal solve for CubicSpline, local formulas for
the others), the cubic pieces are PPoly coefficients evaluated on the
device."""

from __future__ import annotations

import numpy

from ._banded import solve_banded
from ._ppoly import PPoly, _host


def _prepare(x, y, axis, dydx=None):
    x, y = _host(x), _host(y)
    if x.dtype.kind == "c":
        raise ValueError("`x` must contain real values.")
    x = x.astype(numpy.float64)
    dtype = numpy.complex128 if y.dtype.kind == "c" else numpy.float64
    if dydx is not None:
        dydx = _host(dydx)
        if y.shape != dydx.shape:
            raise ValueError("The shapes of `y` and `dydx` must be identical.")
        if dydx.dtype.kind == "c":
            dtype = numpy.complex128
        dydx = dydx.astype(dtype)
    y = y.astype(dtype)
    axis = axis % y.ndim if y.ndim else 0
    if x.ndim != 1:
        raise ValueError("`x` must be 1-dimensional.")
    if x.shape[0] < 2:
        raise ValueError("`x` must contain at least 2 elements.")
    if y.ndim == 0 or x.shape[0] != y.shape[axis]:
        raise ValueError(f"The length of `y` along `axis`={axis} doesn't match the length "
                         "of `x`")
    if not numpy.all(numpy.isfinite(x)):
        raise ValueError("`x` must contain only finite values.")
    if not numpy.all(numpy.isfinite(y)):
        raise ValueError("`y` must contain only finite values.")
    if dydx is not None and not numpy.all(numpy.isfinite(dydx)):
        raise ValueError("`dydx` must contain only finite values.")
    dx = numpy.diff(x)
    if numpy.any(dx <= 0):
        raise ValueError("`x` must be strictly increasing sequence.")
    y = numpy.moveaxis(y, axis, 0)
    if dydx is not None:
        dydx = numpy.moveaxis(dydx, axis, 0)
    return x, dx, y, axis, dydx


def _col(v, ndim):
    return v.reshape((-1,) + (1,) * (ndim - 1))


def _hermite_coefficients(x, dx, y, d):
    """PPoly coefficients (4, n-1, ...) of the cubic Hermite pieces."""
    h = _col(dx, y.ndim)
    slope = numpy.diff(y, axis=0) / h
    t = (d[:-1] + d[1:] - 2 * slope) / h
    return numpy.stack((t / h, (slope - d[:-1]) / h - t, d[:-1], y[:-1]))


class CubicHermiteSpline(PPoly):
    """The piecewise cubic with values y and first derivatives dydx at x."""

    __slots__ = ()

    def __init__(self, x, y, dydx, axis=0, extrapolate=None):
        if extrapolate is None:
            extrapolate = True
        x, dx, y, axis, dydx = _prepare(x, y, axis, dydx)
        self._build(x, dx, y, dydx, axis, extrapolate)

    def _build(self, x, dx, y, d, axis, extrapolate):
        PPoly.__init__(self, _hermite_coefficients(x, dx, y, d), x, extrapolate=extrapolate)
        self.axis = axis


class PchipInterpolator(CubicHermiteSpline):
    """PCHIP: shape-preserving slopes (Fritsch and Butland's weighted
    harmonic mean inside, a one-sided three-point formula at the ends)."""

    __slots__ = ()

    def __init__(self, x, y, axis=0, extrapolate=None):
        x, dx, y, axis, _ = _prepare(x, y, axis)
        if y.dtype.kind == "c":
            raise ValueError(
                "`PchipInterpolator` only works with real values for `y`. If you are trying "
                "to use the real components of the passed array, use `np.real` on the array "
                "before passing to `PchipInterpolator`.")
        self._build(x, dx, y, _pchip_slopes(dx, y), axis,
                    True if extrapolate is None else extrapolate)


def _pchip_end(h0, h1, m0, m1):
    d = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1)
    wrong_sign = numpy.sign(d) != numpy.sign(m0)
    too_big = (numpy.sign(m0) != numpy.sign(m1)) & (numpy.abs(d) > 3.0 * numpy.abs(m0))
    return numpy.where(wrong_sign, 0.0, numpy.where(too_big, 3.0 * m0, d))


def _pchip_slopes(dx, y):
    """PCHIP's slopes at the nodes (RegularGridInterpolator's kernel has the
    same formulas in C)."""
    h = dx.reshape((-1,) + (1,) * (y.ndim - 1))
    m = (y[1:] - y[:-1]) / h
    if y.shape[0] == 2:
        return numpy.stack([m[0], m[0]])
    w1 = 2 * h[1:] + h[:-1]
    w2 = h[1:] + 2 * h[:-1]
    flat = (numpy.sign(m[1:]) != numpy.sign(m[:-1])) | (m[1:] == 0) | (m[:-1] == 0)
    with numpy.errstate(divide="ignore", invalid="ignore"):
        mean = (w1 / m[:-1] + w2 / m[1:]) / (w1 + w2)
        inner = numpy.where(flat, 0.0, 1.0 / mean)
    first = _pchip_end(h[0], h[1], m[0], m[1])
    last = _pchip_end(h[-1], h[-2], m[-1], m[-2])
    return numpy.concatenate([first[None], inner, last[None]])


def pchip_interpolate(xi, yi, x, der=0, axis=0):
    """PchipInterpolator(xi, yi, axis)(x), or its derivatives of orders der."""
    p = PchipInterpolator(xi, yi, axis=axis)
    if der == 0:
        return p(x)
    if numpy.ndim(der) == 0:
        return p.derivative(der)(x)
    return [p.derivative(nu)(x) for nu in der]


class Akima1DInterpolator(CubicHermiteSpline):
    """Akima's slopes (method 'akima'), or Moler and Ionita's modified ones
    ('makima'): a weighted mean of the neighbouring secants."""

    __slots__ = ()

    def __init__(self, x, y, axis=0, *, method="akima", extrapolate=None):
        if method not in {"akima", "makima"}:
            raise NotImplementedError(f"`method`={method} is unsupported.")
        x, dx, y, axis, _ = _prepare(x, y, axis)
        if y.dtype.kind == "c":
            raise ValueError(
                "`Akima1DInterpolator` only works with real values for `y`. If you are trying "
                "to use the real components of the passed array, use `np.real` on the array "
                "before passing to `Akima1DInterpolator`.")
        h = _col(dx, y.ndim)
        if y.shape[0] == 2:
            d = numpy.broadcast_to(numpy.diff(y, axis=0) / h, y.shape).copy()
        else:
            # secants, two more made up at each end by linear extrapolation
            m = numpy.empty((x.shape[0] + 3,) + y.shape[1:])
            m[2:-2] = numpy.diff(y, axis=0) / h
            m[1] = 2.0 * m[2] - m[3]
            m[0] = 2.0 * m[1] - m[2]
            m[-2] = 2.0 * m[-3] - m[-4]
            m[-1] = 2.0 * m[-2] - m[-3]
            d = 0.5 * (m[3:] + m[:-3])
            dm = numpy.abs(numpy.diff(m, axis=0))
            f1, f2 = dm[2:], dm[:-2]
            if method == "makima":
                pm = numpy.abs(m[1:] + m[:-1])
                f1, f2 = f1 + 0.5 * pm[2:], f2 + 0.5 * pm[:-2]
            f12 = f1 + f2
            # where both weights vanish (relative to the largest), the plain mean
            big = f12 > 1e-9 * (f12.max() if f12.size else -numpy.inf)
            d = numpy.where(big, m[1:-2] + f2 / numpy.where(big, f12, 1)
                            * (m[2:-1] - m[1:-2]), d)
        self._build(x, dx, y, d, axis, False if extrapolate is None else extrapolate)

    def extend(self, c, x, right=True):
        raise NotImplementedError("Extending a 1-D Akima interpolator is not yet implemented")

    @classmethod
    def from_spline(cls, tck, extrapolate=None):
        raise NotImplementedError("This method does not make sense for an Akima interpolator.")

    @classmethod
    def from_bernstein_basis(cls, bp, extrapolate=None):
        raise NotImplementedError("This method does not make sense for an Akima interpolator.")


class CubicSpline(CubicHermiteSpline):
    """The cubic spline (twice continuously differentiable) through the
    data, with end conditions bc_type: 'not-a-knot', 'periodic', 'clamped',
    'natural', or (order, value) pairs."""

    __slots__ = ()

    def __init__(self, x, y, axis=0, bc_type="not-a-knot", extrapolate=None):
        x, dx, y, axis, _ = _prepare(x, y, axis)
        n = len(x)
        bc, y = _validate_bc(bc_type, y, y.shape[1:], axis)
        if extrapolate is None:
            extrapolate = "periodic" if bc[0] == "periodic" else True
        if y.size == 0:
            s = numpy.zeros_like(y)
        else:
            s = _spline_slopes(x, dx, y, bc)
        self._build(x, dx, y, s, axis, extrapolate)


def _validate_bc(bc_type, y, shape, axis):
    if isinstance(bc_type, str):
        if bc_type == "periodic" and not numpy.allclose(y[0], y[-1], rtol=1e-15, atol=1e-15):
            raise ValueError(
                f"The first and last `y` point along axis {axis} must be identical (within "
                "machine precision) when bc_type='periodic'.")
        bc_type = (bc_type, bc_type)
    else:
        if len(bc_type) != 2:
            raise ValueError("`bc_type` must contain 2 elements to specify start and end "
                             "conditions.")
        if "periodic" in bc_type:
            raise ValueError("'periodic' `bc_type` is defined for both curve ends and cannot "
                             "be used with other boundary conditions.")
    out = []
    for bc in bc_type:
        if isinstance(bc, str):
            named = {"clamped": 1, "natural": 2}
            if bc in named:
                out.append((named[bc], numpy.zeros(shape)))
            elif bc in ("not-a-knot", "periodic"):
                out.append(bc)
            else:
                raise ValueError(f"bc_type={bc} is not allowed.")
        else:
            try:
                order, value = bc
            except Exception as e:
                raise ValueError("A specified derivative value must be given in the form "
                                 "(order, value).") from e
            if order not in (1, 2):
                raise ValueError("The specified derivative order must be 1 or 2.")
            value = _host(value)
            if value.shape != shape:
                raise ValueError(f"`deriv_value` shape {value.shape} is not the expected one "
                                 f"{shape}.")
            if value.dtype.kind == "c":
                y = y.astype(complex)
            out.append((order, value))
    return out, y


def _spline_slopes(x, dx, y, bc):
    """The first derivatives at x of the cubic spline with end conditions bc."""
    n = len(x)
    h = _col(dx, y.ndim)
    slope = numpy.diff(y, axis=0) / h
    if n == 2:
        bc = [(1, slope[0]) if b in ("not-a-knot", "periodic") else b for b in bc]
    if n == 3 and bc[0] == "not-a-knot" and bc[1] == "not-a-knot":
        # the parabola through three points
        a = numpy.array([[1.0, 1.0, 0.0], [dx[1], 2 * (dx[0] + dx[1]), dx[0]],
                         [0.0, 1.0, 1.0]])
        rhs = numpy.stack([2 * slope[0], 3 * (h[0] * slope[1] + h[1] * slope[0]), 2 * slope[1]])
        return numpy.linalg.solve(a, rhs.reshape(3, -1)).reshape(rhs.shape)
    if n == 3 and bc[0] == "periodic":
        t = (slope / h).sum(0) / (1.0 / h).sum(0)
        return numpy.broadcast_to(t, (n,) + y.shape[1:]).copy()
    # rows i = 1..n-2: dx[i] s[i-1] + 2 (dx[i-1] + dx[i]) s[i] + dx[i-1] s[i+1] = rhs[i]
    ab = numpy.zeros((3, n))
    ab[1, 1:-1] = 2 * (dx[:-1] + dx[1:])
    ab[0, 2:] = dx[:-1]
    ab[2, :-2] = dx[1:]
    rhs = numpy.empty((n,) + y.shape[1:], dtype=y.dtype)
    rhs[1:-1] = 3 * (h[1:] * slope[:-1] + h[:-1] * slope[1:])
    if bc[0] == "periodic":
        return _periodic_slopes(dx, h, slope, ab, rhs, y.shape)
    start, end = bc
    if start == "not-a-knot":
        d = x[2] - x[0]
        ab[1, 0], ab[0, 1] = dx[1], d
        rhs[0] = ((h[0] + 2 * d) * h[1] * slope[0] + h[0] ** 2 * slope[1]) / d
    elif start[0] == 1:
        ab[1, 0], ab[0, 1] = 1, 0
        rhs[0] = start[1]
    else:
        ab[1, 0], ab[0, 1] = 2 * dx[0], dx[0]
        rhs[0] = -0.5 * start[1] * dx[0] ** 2 + 3 * (y[1] - y[0])
    if end == "not-a-knot":
        d = x[-1] - x[-3]
        ab[1, -1], ab[2, -2] = dx[-2], d
        rhs[-1] = (h[-1] ** 2 * slope[-2] + (2 * d + h[-1]) * h[-2] * slope[-1]) / d
    elif end[0] == 1:
        ab[1, -1], ab[2, -2] = 1, 0
        rhs[-1] = end[1]
    else:
        ab[1, -1], ab[2, -2] = 2 * dx[-1], dx[-1]
        rhs[-1] = 0.5 * end[1] * dx[-1] ** 2 + 3 * (y[-1] - y[-2])
    return solve_banded((1, 1), ab, rhs.reshape(n, -1)).reshape(rhs.shape)


def _periodic_slopes(dx, h, slope, ab, rhs, shape):
    """The cyclic tridiagonal system of the periodic spline (unknowns
    s[0..n-2], s[n-1] = s[0]): the first n-2 unknowns for two right-hand
    sides, then the last one from its own row."""
    n = ab.shape[1]
    N = n - 1
    a = ab[:, :N].copy()
    a[1, 0] = 2 * (dx[-1] + dx[0])
    a[0, 1] = dx[-1]
    b = rhs[:N].copy()
    b[0] = 3 * (h[0] * slope[-1] + h[-1] * slope[0])
    b[-1] = 3 * (h[-1] * slope[-2] + h[-2] * slope[-1])
    inner = a[:, :-1]
    b1 = b[:-1].reshape(N - 1, -1)
    b2 = numpy.zeros_like(b1)
    b2[0] = -dx[0]    # row 0's coupling to s[N-1]
    b2[-1] = -dx[-3]  # row N-2's coupling to s[N-1]
    s1 = solve_banded((1, 1), inner, b1)
    s2 = solve_banded((1, 1), inner, b2)
    last = ((b[-1].reshape(-1) - dx[-2] * s1[0] - dx[-1] * s1[-1])
            / (2 * (dx[-1] + dx[-2]) + dx[-2] * s2[0] + dx[-1] * s2[-1]))
    s = numpy.empty((n, s1.shape[1]), dtype=s1.dtype)
    s[:-2] = s1 + last * s2
    s[-2] = last
    s[-1] = s[0]
    return s.reshape((n,) + shape[1:])
