"""Property tests of gpunp.scipy.interpolate against scipy.interpolate on
random data: float32, float64 and complex values where SciPy takes them,
N-d values along any axis, unsorted x (interp1d) and repeated x (where
SciPy raises), every kind, boundary condition, grid method and RBF kernel,
points outside the data (extrapolation and fill values). The same
exception type where SciPy raises."""

from __future__ import annotations

import numpy as np
import scipy.interpolate as si
import scipy.sparse.linalg as ssl
from hypothesis import given, settings, strategies as st

import gpunp as gp
import gpunp.scipy.interpolate as gi

from .signal_compare import outcome, same

SETTINGS = settings(max_examples=12)


def knots(draw, n, rng, repeat=False):
    """n increasing abscissae at least 0.05 apart in [0, n]; one repeated
    value on request."""
    x = np.cumsum(0.05 + rng.random(n)) + draw(st.floats(-3, 3))
    if repeat and n > 2:
        j = draw(st.integers(1, n - 1))
        x[j] = x[j - 1]
    return x


@st.composite
def curves(draw, min_n=2, max_n=10, dtypes=(np.float64, np.float32, np.complex128),
           repeat=True):
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = draw(st.integers(min_n, max_n))
    x = knots(draw, n, rng, repeat=repeat and draw(st.integers(0, 5)) == 0)
    ndim = draw(st.integers(1, 3))
    shape = [draw(st.integers(1, 3)) for _ in range(ndim)]
    axis = draw(st.integers(-ndim, ndim - 1))
    shape[axis] = n
    dtype = draw(st.sampled_from(dtypes))
    y = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        y = y + 1j * rng.standard_normal(shape)
    span = x[-1] - x[0]
    xn = x[0] - 0.2 * span + 1.4 * span * rng.random(draw(st.integers(0, 12)))
    return x, y.astype(dtype), axis, xn, rng


@given(curves(), st.sampled_from(["linear", "nearest", "nearest-up", "zero", "slinear",
                                  "quadratic", "cubic", "previous", "next", 4]),
       st.sampled_from([np.nan, "extrapolate", (-1.5, 2.5)]), st.booleans())
@SETTINGS
def test_interp1d(data, kind, fill_value, shuffle):
    x, y, axis, xn, rng = data
    if shuffle:  # interp1d sorts x itself
        order = rng.permutation(len(x))
        x, y = x[order], np.take(y, order, axis=axis)
    r = outcome(si.interp1d, x, y, kind=kind, axis=axis, fill_value=fill_value,
                bounds_error=False)
    g = outcome(gi.interp1d, gp.asarray(x), gp.asarray(y), kind=kind, axis=axis,
                fill_value=fill_value, bounds_error=False)
    if isinstance(r, Exception) or isinstance(g, Exception):
        same(g, r)
        return
    tol = 1e-4 if y.dtype == np.float32 else 1e-8
    same(outcome(g, gp.asarray(xn)), outcome(r, xn), tol)


@given(curves(), st.sampled_from(["not-a-knot", "natural", "clamped", "periodic",
                                  "pchip", "akima", "makima"]))
@SETTINGS
def test_cubic_interpolators(data, which):
    x, y, axis, xn, _ = data
    if which == "periodic":
        first = np.take(y, [0], axis=axis)
        y = np.concatenate([np.delete(y, -1, axis=axis), first], axis=axis)

    def build(mod, xx, yy):
        if which == "pchip":
            return mod.PchipInterpolator(xx, yy, axis=axis)
        if which in ("akima", "makima"):
            return mod.Akima1DInterpolator(xx, yy, axis=axis, method=which, extrapolate=True)
        return mod.CubicSpline(xx, yy, axis=axis, bc_type=which)
    r = outcome(build, si, x, y)
    g = outcome(build, gi, gp.asarray(x), gp.asarray(y))
    if isinstance(r, Exception) or isinstance(g, Exception):
        same(g, r)
        return
    same(g(gp.asarray(xn)), r(xn), 1e-7)
    same(g(gp.asarray(xn), 1), r(xn, 1), 1e-6)
    same(g.integrate(x[0] - 0.3, x[-1]), r.integrate(x[0] - 0.3, x[-1]), 1e-7)


@given(curves(dtypes=(np.float64, np.complex128)), st.integers(0, 5),
       st.sampled_from([None, "natural", "clamped", "periodic"]))
@SETTINGS
def test_make_interp_spline(data, k, bc):
    x, y, axis, xn, _ = data
    if bc == "periodic":
        first = np.take(y, [0], axis=axis)
        y = np.concatenate([np.delete(y, -1, axis=axis), first], axis=axis)
    r = outcome(si.make_interp_spline, x, y, k=k, bc_type=bc, axis=axis)
    g = outcome(gi.make_interp_spline, gp.asarray(x), gp.asarray(y), k=k, bc_type=bc, axis=axis)
    if isinstance(r, Exception) or isinstance(g, Exception):
        same(g, r)
        return
    same(g.t, r.t)
    same(g(gp.asarray(xn)), r(xn), 1e-6)
    nu = min(k, 2)
    same(g(gp.asarray(xn), nu=nu), r(xn, nu=nu), 1e-5)


@st.composite
def polynomials(draw):
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    k = draw(st.integers(0, 5))
    m = draw(st.integers(1, 6))
    x = knots(draw, m + 1, rng)
    if draw(st.booleans()):
        x = x[::-1].copy()
    c = rng.standard_normal((k + 1, m) + (2,) * draw(st.integers(0, 1)))
    xn = x.min() - 1 + (x.max() - x.min() + 2) * rng.random(draw(st.integers(0, 10)))
    return c, x, xn


@given(polynomials(), st.integers(0, 3), st.sampled_from([True, False, "periodic"]),
       st.booleans())
@SETTINGS
def test_piecewise_polynomials(poly, nu, extrapolate, bernstein):
    c, x, xn = poly
    mods = (si.BPoly, gi.BPoly) if bernstein else (si.PPoly, gi.PPoly)
    r = mods[0](c, x, extrapolate=extrapolate)
    g = mods[1](gp.asarray(c), gp.asarray(x), extrapolate=extrapolate)
    same(outcome(g, gp.asarray(xn), nu), outcome(r, xn, nu), 1e-8)
    same(g.derivative(nu)(gp.asarray(xn)), r.derivative(nu)(xn), 1e-8)
    same(g.antiderivative(nu)(gp.asarray(xn)), r.antiderivative(nu)(xn), 1e-8)
    if x[-1] > x[0]:
        a, b = sorted(xn[:2]) if len(xn) > 1 else (x[0], x[-1])
        same(g.integrate(a, b), r.integrate(a, b), 1e-8)


@st.composite
def grids(draw):
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    nd = draw(st.integers(1, 3))
    pts = []
    for _ in range(nd):
        g = knots(draw, draw(st.integers(1, 7)), rng)
        pts.append(g[::-1].copy() if draw(st.booleans()) else g)
    extra = (2,) * draw(st.integers(0, 1))
    dtype = draw(st.sampled_from([np.float64, np.float32, np.complex128]))
    v = rng.standard_normal(tuple(len(p) for p in pts) + extra)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * rng.standard_normal(v.shape)
    lo = np.array([p.min() for p in pts]) - 0.3
    hi = np.array([p.max() for p in pts]) + 0.3
    xi = lo + (hi - lo) * rng.random((draw(st.integers(0, 10)), nd))
    if len(xi) and draw(st.booleans()):
        xi[0, 0] = np.nan
    return tuple(pts), v.astype(dtype), xi


@given(grids(), st.sampled_from(["linear", "nearest", "slinear", "cubic", "quintic", "pchip"]),
       st.sampled_from([np.nan, None, -7.0]))
@SETTINGS
def test_regular_grid_interpolator(grid, method, fill_value):
    pts, v, xi = grid
    exact = {"solver": ssl.spsolve} if method in ("slinear", "cubic", "quintic") else {}
    r = outcome(si.RegularGridInterpolator, pts, v, method=method, bounds_error=False,
                fill_value=fill_value, **exact)
    g = outcome(gi.RegularGridInterpolator, pts, gp.asarray(v), method=method,
                bounds_error=False, fill_value=fill_value)
    if isinstance(r, Exception) or isinstance(g, Exception):
        same(g, r)
        return
    tol = 1e-4 if v.dtype == np.float32 else 1e-7
    same(outcome(g, gp.asarray(xi)), outcome(r, xi), tol)


@given(st.integers(0, 2**32 - 1), st.sampled_from(["linear", "thin_plate_spline", "cubic",
                                                   "quintic", "multiquadric",
                                                   "inverse_multiquadric", "inverse_quadratic",
                                                   "gaussian"]),
       st.integers(-1, 2), st.sampled_from([1e-3, 0.1]), st.sampled_from([None, 1, 5, 12]))
@settings(max_examples=10)
def test_rbf_interpolator(seed, kernel, degree, smoothing, neighbors):
    # some smoothing: without it random points make ill-conditioned systems
    # (a Gaussian's), whose solutions agree only to their condition number
    rng = np.random.default_rng(seed)
    nd = int(rng.integers(1, 4))
    y = rng.random((12, nd))
    dv = rng.standard_normal((12,) + (2,) * int(rng.integers(0, 2)))
    x = rng.random((int(rng.integers(0, 8)), nd)) * 1.2 - 0.1
    kw = dict(kernel=kernel, epsilon=2.0, degree=degree, smoothing=smoothing,
              neighbors=neighbors)
    r = outcome(si.RBFInterpolator, y, dv, **kw)
    g = outcome(gi.RBFInterpolator, gp.asarray(y), gp.asarray(dv), **kw)
    if isinstance(r, Exception) or isinstance(g, Exception):
        same(g, r)
        return
    same(outcome(g, gp.asarray(x)), outcome(r, x), 1e-6)


@given(curves(max_n=8, dtypes=(np.float64, np.complex128), repeat=False), st.integers(0, 3),
       st.booleans())
@settings(max_examples=10)
def test_polynomial_interpolators(data, der, krogh):
    x, y, axis, xn, _ = data
    cls = (si.KroghInterpolator, gi.KroghInterpolator) if krogh else \
        (si.BarycentricInterpolator, gi.BarycentricInterpolator)
    r = cls[0](x, y, axis=axis)
    g = cls[1](gp.asarray(x), gp.asarray(y), axis=axis)
    same(g(gp.asarray(xn)), r(xn), 1e-6)
    if der:
        same(g.derivative(gp.asarray(xn), der), r.derivative(xn, der), 1e-5)
