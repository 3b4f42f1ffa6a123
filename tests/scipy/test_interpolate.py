"""gpunp.scipy.interpolate against scipy.interpolate: every name once with
its options (boundary conditions, kinds, methods, kernels, extrapolation
modes, N-d values along an axis), the calculus methods, and SciPy's
exceptions for bad input. Random inputs are in
tests/property/test_scipy_interpolate.py."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.interpolate as si
import scipy.sparse.linalg as ssl

import gpunp as gp
import gpunp.scipy.interpolate as gi

RNG = np.random.default_rng(1234)
X = np.sort(RNG.random(12))
Y = RNG.standard_normal((12, 3))
XN = np.linspace(-0.2, 1.2, 41)


def same(g, r, tol=1e-9):
    if isinstance(r, list):
        assert isinstance(g, list) and len(g) == len(r)
        for gg, rr in zip(g, r):
            same(gg, rr, tol)
        return
    g = g.get() if isinstance(g, gp.ndarray) else np.asarray(g)
    r = np.asarray(r)
    assert g.shape == r.shape, (g.shape, r.shape)
    assert g.dtype == r.dtype, (g.dtype, r.dtype)
    scale = max(1.0, float(np.abs(r[np.isfinite(r)]).max())) if np.isfinite(r).any() else 1.0
    np.testing.assert_allclose(g, r, rtol=tol, atol=tol * scale, equal_nan=True)


def d(a):
    return gp.asarray(a)


# ---- piecewise polynomials ---------------------------------------------------------------


def test_ppoly_evaluation_calculus_and_roots():
    c = RNG.standard_normal((4, 11, 2))
    pp, gpp = si.PPoly(c, X), gi.PPoly(d(c), d(X))
    same(gpp(d(XN)), pp(XN))
    same(gpp(d(XN), nu=2), pp(XN, nu=2))
    same(gpp(d(XN), extrapolate=False), pp(XN, extrapolate=False))
    same(gpp.derivative(2)(d(XN)), pp.derivative(2)(XN))
    same(gpp.antiderivative(2)(d(XN)), pp.antiderivative(2)(XN))
    same(gpp.integrate(0.95, 0.1), pp.integrate(0.95, 0.1))
    one, gone = si.PPoly(c[..., 0], X), gi.PPoly(d(c[..., 0]), d(X))
    same(gone.roots(), one.roots())
    same(gone.solve(0.5, extrapolate=False), one.solve(0.5, extrapolate=False))
    per, gper = si.PPoly(c, X, extrapolate="periodic"), gi.PPoly(d(c), d(X), extrapolate="periodic")
    same(gper(d(XN * 3)), per(XN * 3))
    same(gper.integrate(-1.3, 2.2), per.integrate(-1.3, 2.2))
    # the interpolation axis of c other than 0, and complex coefficients
    cc = c[..., 0] + 1j * c[..., 1]
    same(gi.PPoly(d(cc[None]), d(X), axis=1)(d(XN)), si.PPoly(cc[None], X, axis=1)(XN))


def test_ppoly_descending_breakpoints_extend_and_bases():
    c = RNG.standard_normal((3, 4))
    x = np.array([4.0, 3.0, 1.5, 1.0, 0.0])
    same(gi.PPoly(d(c), d(x))(d(XN * 5)), si.PPoly(c, x)(XN * 5))
    pp, gpp = si.PPoly(c, X[:5]), gi.PPoly(d(c), d(X[:5]))
    c2 = RNG.standard_normal((2, 3))
    pp.extend(c2, X[5:8])
    gpp.extend(d(c2), d(X[5:8]))
    same(gpp(d(XN)), pp(XN))
    same(gpp.c, pp.c)
    bp, gbp = si.BPoly(c, X[:5]), gi.BPoly(d(c), d(X[:5]))
    same(gbp(d(XN)), bp(XN))
    same(gbp.derivative(2)(d(XN)), bp.derivative(2)(XN))
    same(gbp.antiderivative()(d(XN)), bp.antiderivative()(XN))
    same(gbp.integrate(0.05, 0.3), bp.integrate(0.05, 0.3))
    same(gi.PPoly.from_bernstein_basis(gbp)(d(XN)), si.PPoly.from_bernstein_basis(bp)(XN))
    same(gi.BPoly.from_power_basis(gpp)(d(XN)), si.BPoly.from_power_basis(pp)(XN))
    xi, yi = [0.0, 1.0, 3.0], [[1.0, 2.0], [3.0, -1.0, 2.0], [0.5]]
    same(gi.BPoly.from_derivatives(xi, yi)(d(XN * 3)), si.BPoly.from_derivatives(xi, yi)(XN * 3))
    yi2 = [[1.0, 2.0], [3.0, -1.0], [0.5, 1.0]]
    same(gi.BPoly.from_derivatives(xi, yi2, orders=2)(d(XN * 3)),
         si.BPoly.from_derivatives(xi, yi2, orders=2)(XN * 3))
    spl = si.make_interp_spline(X, Y[:, 0])
    same(gi.PPoly.from_spline(spl.tck)(d(XN)), si.PPoly.from_spline(spl.tck)(XN))


def test_ppoly_errors():
    with pytest.raises(ValueError, match="at least 2-dimensional"):
        gi.PPoly(d([1.0, 2.0]), d([0.0, 1.0]))
    with pytest.raises(ValueError, match="strictly increasing or decreasing"):
        gi.PPoly(d(np.ones((2, 3))), d([0.0, 2.0, 1.0, 3.0]))
    with pytest.raises(ValueError, match="number of coefficients"):
        gi.PPoly(d(np.ones((2, 3))), d([0.0, 1.0]))
    with pytest.raises(ValueError, match="real-valued"):
        gi.PPoly(d(np.ones((2, 1)) * 1j), d([0.0, 1.0])).roots()
    with pytest.raises(ValueError, match="increasing order"):
        gi.BPoly.from_derivatives([1.0, 0.5, 2.0], [[1.0], [2.0], [3.0]])


# ---- cubic interpolators -----------------------------------------------------------------

BCS = ["not-a-knot", "natural", "clamped", ((1, np.ones(3)), (2, np.full(3, -1.0))), "periodic"]


@pytest.mark.parametrize("bc", BCS, ids=lambda b: b if isinstance(b, str) else "values")
def test_cubic_spline_boundary_conditions(bc):
    y = Y.copy()
    if bc == "periodic":
        y[-1] = y[0]
    s, g = si.CubicSpline(X, y, bc_type=bc), gi.CubicSpline(d(X), d(y), bc_type=bc)
    same(g(d(XN)), s(XN))
    same(g(d(XN), 1), s(XN, 1))
    same(g.integrate(-0.1, 1.5), s.integrate(-0.1, 1.5))
    same(g.c, s.c)


def test_cubic_spline_short_long_axis_complex_and_roots():
    for n in (2, 3):
        for bc in ("not-a-knot", "periodic"):
            y = Y[:n, 0].copy()
            if bc == "periodic":
                y[-1] = y[0]
            same(gi.CubicSpline(d(X[:n]), d(y), bc_type=bc)(d(XN)),
                 si.CubicSpline(X[:n], y, bc_type=bc)(XN))
    # past the dense limit the tridiagonal system is eliminated in Python
    xb = np.sort(RNG.random(400))
    yb = np.sin(8 * xb) + 1j * np.cos(3 * xb)
    same(gi.CubicSpline(d(xb), d(yb))(d(XN[8:33])), si.CubicSpline(xb, yb)(XN[8:33]), 1e-7)
    ybp = np.sin(2 * np.pi * (xb - xb[0]) / (xb[-1] - xb[0]))
    ybp[-1] = ybp[0]
    same(gi.CubicSpline(d(xb), d(ybp), bc_type="periodic")(d(XN[8:33])),
         si.CubicSpline(xb, ybp, bc_type="periodic")(XN[8:33]), 1e-7)
    same(gi.CubicSpline(d(X), d(Y.T), axis=1)(d(XN)), si.CubicSpline(X, Y.T, axis=1)(XN))
    s, g = si.CubicSpline(X, Y[:, 0]), gi.CubicSpline(d(X), d(Y[:, 0]))
    same(g.roots(), s.roots())
    same(g.solve(0.3), s.solve(0.3))


def test_hermite_pchip_akima():
    dy = RNG.standard_normal((12, 3))
    same(gi.CubicHermiteSpline(d(X), d(Y), d(dy))(d(XN)), si.CubicHermiteSpline(X, Y, dy)(XN))
    same(gi.PchipInterpolator(d(X), d(Y))(d(XN)), si.PchipInterpolator(X, Y)(XN))
    same(gi.PchipInterpolator(d(X[:2]), d(Y[:2]))(d(XN)), si.PchipInterpolator(X[:2], Y[:2])(XN))
    same(gi.pchip_interpolate(d(X), d(Y[:, 0]), d(XN), der=[0, 1]),
         si.pchip_interpolate(X, Y[:, 0], XN, der=[0, 1]))
    for method in ("akima", "makima"):
        for ext in (None, True):
            s = si.Akima1DInterpolator(X, Y.T, axis=1, method=method, extrapolate=ext)
            g = gi.Akima1DInterpolator(d(X), d(Y.T), axis=1, method=method, extrapolate=ext)
            same(g(d(XN)), s(XN))
    flat = np.array([0.0, 0, 0, 1, 1, 1, 2])
    xs = np.arange(7.0)
    same(gi.Akima1DInterpolator(d(xs), d(flat))(d(XN * 6)), si.Akima1DInterpolator(xs, flat)(XN * 6))


def test_cubic_errors():
    with pytest.raises(ValueError, match="strictly increasing"):
        gi.CubicSpline(d([0.0, 2.0, 1.0]), d([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="finite"):
        gi.CubicSpline(d([0.0, 1.0, 2.0]), d([1.0, np.nan, 3.0]))
    with pytest.raises(ValueError, match="identical"):
        gi.CubicSpline(d([0.0, 1.0, 2.0]), d([1.0, 2.0, 3.0]), bc_type="periodic")
    with pytest.raises(ValueError, match="not allowed"):
        gi.CubicSpline(d([0.0, 1.0, 2.0]), d([1.0, 2.0, 3.0]), bc_type="wobbly")
    with pytest.raises(ValueError, match="only works with real"):
        gi.PchipInterpolator(d([0.0, 1.0]), d([1j, 2.0]))
    with pytest.raises(NotImplementedError):
        gi.Akima1DInterpolator(d([0.0, 1.0, 2.0]), d([1.0, 2.0, 3.0]), method="bogus")
    with pytest.raises(ValueError, match="length of `y`"):
        gi.CubicSpline(d([0.0, 1.0, 2.0]), d([1.0, 2.0]))


# ---- interp1d ----------------------------------------------------------------------------

KINDS = ["linear", "nearest", "nearest-up", "zero", "slinear", "quadratic", "cubic", "previous",
         "next", 5]


@pytest.mark.parametrize("kind", KINDS)
def test_interp1d_kinds_and_fill_values(kind):
    xu = RNG.permutation(X)
    yu = Y[np.argsort(np.argsort(xu))].T.astype(np.float32)  # unsorted x, float32 y, axis=-1
    for fv in (np.nan, "extrapolate", (-1.0, 2.0)):
        s = si.interp1d(xu, yu, kind=kind, fill_value=fv, bounds_error=False)
        g = gi.interp1d(d(xu), d(yu), kind=kind, fill_value=fv, bounds_error=False)
        same(g(d(XN)), s(XN), 1e-5)


def test_interp1d_bounds_and_errors():
    g = gi.interp1d(d(X), d(Y[:, 0]))
    with pytest.raises(ValueError, match="below the interpolation range"):
        g(d([-1.0]))
    with pytest.raises(ValueError, match="above the interpolation range"):
        g(d([2.0]))
    with pytest.raises(NotImplementedError):
        gi.interp1d(d(X), d(Y[:, 0]), kind="bogus")
    with pytest.raises(ValueError, match="Cannot extrapolate and raise"):
        gi.interp1d(d(X), d(Y[:, 0]), fill_value="extrapolate", bounds_error=True)
    with pytest.raises(ValueError, match="at least 4 entries"):
        gi.interp1d(d(X[:3]), d(Y[:3, 0]), kind="cubic")
    with pytest.raises(ValueError, match="equal in length"):
        gi.interp1d(d(X), d(Y[:5, 0]))
    c = np.arange(12.0) + 1j
    inside = np.linspace(X[0], X[-1], 20)
    same(gi.interp1d(d(X), d(c))(d(inside)), si.interp1d(X, c)(inside))


# ---- B-splines ---------------------------------------------------------------------------


@pytest.mark.parametrize("k", [0, 1, 2, 3, 5])
def test_make_interp_spline_and_calculus(k):
    s, g = si.make_interp_spline(X, Y, k=k), gi.make_interp_spline(d(X), d(Y), k=k)
    same(g.t, s.t)
    same(g(d(XN)), s(XN), 1e-8)
    same(g(d(XN), extrapolate=False), s(XN, extrapolate=False), 1e-8)
    if k:
        same(g.derivative()(d(XN)), s.derivative()(XN), 1e-8)
    same(g.antiderivative(2)(d(XN)), s.antiderivative(2)(XN), 1e-8)
    same(g.integrate(-0.1, 0.9), s.integrate(-0.1, 0.9), 1e-8)
    same(g.integrate(-0.1, 0.9, extrapolate=False), s.integrate(-0.1, 0.9, extrapolate=False),
         1e-8)


def test_make_interp_spline_conditions_and_axis():
    for bc in ("natural", "clamped", ([(1, np.zeros(3))], [(2, np.ones(3))])):
        same(gi.make_interp_spline(d(X), d(Y), bc_type=bc)(d(XN)),
             si.make_interp_spline(X, Y, bc_type=bc)(XN), 1e-8)
    y = Y.copy()
    y[-1] = y[0]
    for k in (2, 3, 5):
        s = si.make_interp_spline(X, y, k=k, bc_type="periodic")
        g = gi.make_interp_spline(d(X), d(y), k=k, bc_type="periodic")
        same(g(d(XN * 2)), s(XN * 2), 1e-8)
    same(gi.make_interp_spline(d(X), d(Y.T), axis=1)(d(XN)),
         si.make_interp_spline(X, Y.T, axis=1)(XN), 1e-8)
    xb = np.sort(RNG.random(400))
    same(gi.make_interp_spline(d(xb), d(np.sin(9 * xb)), k=5)(d(XN[8:33])),
         si.make_interp_spline(xb, np.sin(9 * xb), k=5)(XN[8:33]), 1e-7)


def test_bspline_constructors_and_lsq():
    t = np.r_[[0.0] * 4, 0.3, 0.6, [1.0] * 4]
    c = RNG.standard_normal(6)
    s, g = si.BSpline(t, c, 3), gi.BSpline(d(t), d(c), 3)
    same(g(d(XN)), s(XN))
    per, gper = si.BSpline(t, c, 3, extrapolate="periodic"), gi.BSpline(d(t), d(c), 3,
                                                                      extrapolate="periodic")
    same(gper(d(XN * 3)), per(XN * 3))
    same(gper.integrate(-0.5, 2.3), per.integrate(-0.5, 2.3))
    same(gi.BSpline.basis_element(d([0.0, 1, 2, 3]))(d(XN * 3)),
         si.BSpline.basis_element([0.0, 1, 2, 3])(XN * 3))
    dm = gi.BSpline.design_matrix(d(XN[8:33]), d(t), 3)
    same(dm.toarray(), si.BSpline.design_matrix(XN[8:33], t, 3).toarray())
    w = RNG.random(12) + 0.5
    for method in ("qr", "norm-eq"):
        same(gi.make_lsq_spline(d(X), d(Y), d(t), w=d(w), method=method)(d(XN)),
             si.make_lsq_spline(X, Y, t, w=w, method=method)(XN), 1e-8)
    fs = si.BSpline.construct_fast(t, c, 3)
    same(gi.BSpline.construct_fast(d(t), d(c), 3)(d(XN)), fs(XN))


def test_bspline_errors():
    with pytest.raises(ValueError, match="Need at least"):
        gi.BSpline(d([0.0, 1.0]), d([1.0]), 3)
    with pytest.raises(ValueError, match="non-decreasing"):
        gi.BSpline(d([0.0, 1, 0.5, 2]), d([1.0, 2.0]), 1)
    with pytest.raises(ValueError, match="duplicates"):
        gi.make_interp_spline(d([0.0, 1.0, 1.0, 2.0]), d([1.0, 2.0, 3.0, 4.0]))
    with pytest.raises(ValueError, match="Out of bounds"):
        gi.BSpline.design_matrix(d([-1.0]), d([0.0, 0, 1, 1]), 1)
    with pytest.raises(ValueError, match="must be <= order"):
        gi.make_interp_spline(d(X), d(Y[:, 0]), k=1).derivative(2)


def test_make_smoothing_spline():
    rng = np.random.default_rng(7)  # its own: the module's draws depend on the test order
    x = np.sort(rng.random(40))
    y = np.stack([np.sin(5 * x), np.cos(3 * x)], axis=1) + 0.1 * rng.standard_normal((40, 2))
    w = rng.random(40) + 0.5
    # lam chosen by cross-validation: each side's minimiser stops within its
    # tolerance (1e-5 in lam), which bounds the agreement
    for lam, rtol in ((None, 1e-5), (1e-4, 1e-7)):
        s = si.make_smoothing_spline(x, y, w=w, lam=lam)
        g = gi.make_smoothing_spline(d(x), d(y), w=d(w), lam=lam)
        same(g.t, s.t)
        same(g(d(XN)), s(XN), rtol)
    # past the dense limit: banded solves
    xb = np.sort(rng.random(350))
    yb = np.sin(7 * xb) + 0.1 * rng.standard_normal(350)
    same(gi.make_smoothing_spline(d(xb), d(yb))(d(XN)), si.make_smoothing_spline(xb, yb)(XN),
         1e-4)
    with pytest.raises(ValueError, match="at least 5"):
        gi.make_smoothing_spline(d(x[:4]), d(y[:4, 0]))
    with pytest.raises(ValueError, match="ascending"):
        gi.make_smoothing_spline(d(x[::-1]), d(y[:, 0]))
    with pytest.raises(ValueError, match="non-negative"):
        gi.make_smoothing_spline(d(x), d(y[:, 0]), lam=-1.0)


# ---- FITPACK -----------------------------------------------------------------------------


@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_splrep_splev_family(k):
    y = np.sin(6 * X)
    t1, c1, _ = si.splrep(X, y, k=k, s=0)
    t2, c2, _ = gi.splrep(d(X), d(y), k=k, s=0)
    same(t2, t1)
    same(c2, c1, 1e-8)
    for ext in (0, 1, 3):
        for der in (0, k):
            same(gi.splev(d(XN), (t2, c2, k), der=der, ext=ext),
                 si.splev(XN, (t1, c1, k), der=der, ext=ext), 1e-7)
    same(gi.splint(-0.5, 0.7, (t2, c2, k)), si.splint(-0.5, 0.7, (t1, c1, k)), 1e-8)
    same(gi.splder((t2, c2, k))[1], si.splder((t1, c1, k))[1], 1e-7)
    same(gi.splantider((t2, c2, k), 2)[1], si.splantider((t1, c1, k), 2)[1], 1e-8)
    same(gi.spalde(0.3, (t2, c2, k)), si.spalde(0.3, (t1, c1, k)), 1e-7)


def test_fitpack_roots_knots_and_errors():
    y = np.sin(6 * X)
    tck, gtck = si.splrep(X, y), gi.splrep(d(X), d(y))
    same(gi.sproot(gtck), si.sproot(tck))
    w = X + 1
    same(gi.splrep(d(X), d(y), t=[0.3, 0.5, 0.7], w=d(w))[1],
         si.splrep(X, y, t=[0.3, 0.5, 0.7], w=w)[1], 1e-8)
    full, gfull = si.splrep(X, y, full_output=1), gi.splrep(d(X), d(y), full_output=1)
    assert gfull[1:] == full[1:]
    full = si.splrep(X, y, t=[0.3, 0.5], full_output=1)
    gfull = gi.splrep(d(X), d(y), t=[0.3, 0.5], full_output=1)
    np.testing.assert_allclose(gfull[1], full[1], rtol=1e-7)
    assert gfull[2:] == full[2:]
    with pytest.raises(ValueError, match="not in the domain"):
        gi.splev(d([-1.0]), gtck, ext=2)
    with pytest.raises(TypeError):
        gi.splrep(d(X[:3]), d(y[:3]), k=3)
    with pytest.raises(NotImplementedError, match="task=1"):
        gi.splrep(d(X), d(y), s=0.5, task=1)
    with pytest.raises(ValueError, match="sproot works only for cubic"):
        gi.sproot(gi.splrep(d(X), d(y), k=2))


def test_univariate_spline_family():
    y = np.sin(6 * X)
    s = si.InterpolatedUnivariateSpline(X, y, ext=3)
    g = gi.InterpolatedUnivariateSpline(d(X), d(y), ext=3)
    same(g(d(XN)), s(XN), 1e-8)
    same(g.get_knots(), s.get_knots())
    same(g.get_coeffs(), s.get_coeffs(), 1e-8)
    same(g.roots(), s.roots())
    same(g.integral(0.1, 0.9), s.integral(0.1, 0.9), 1e-8)
    same(g.derivatives(0.4), s.derivatives(0.4), 1e-8)
    same(g.derivative(2)(d(XN)), s.derivative(2)(XN), 1e-7)
    same(g.antiderivative()(d(XN)), s.antiderivative()(XN), 1e-8)
    assert g.get_residual() == s.get_residual() == 0.0
    s = si.LSQUnivariateSpline(X, y, [0.3, 0.6], k=2)
    g = gi.LSQUnivariateSpline(d(X), d(y), [0.3, 0.6], k=2)
    same(g(d(XN)), s(XN), 1e-8)
    np.testing.assert_allclose(g.get_residual(), s.get_residual(), rtol=1e-7)
    s = si.UnivariateSpline(X, y, s=0, k=4)
    same(gi.UnivariateSpline(d(X), d(y), s=0, k=4)(d(XN)), s(XN), 1e-8)
    with pytest.raises(ValueError, match="Schoenberg-Whitney"):
        gi.LSQUnivariateSpline(d(X), d(y), [0.5, 0.5])
    with pytest.raises(ValueError, match="must be increasing"):
        gi.InterpolatedUnivariateSpline(d(X[::-1]), d(y))
    with pytest.raises(NotImplementedError, match="set_smoothing_factor"):
        gi.UnivariateSpline(d(X), d(y)).set_smoothing_factor(0.5)


@pytest.mark.parametrize("k", [1, 3, 5])
def test_fitpack_smoothing(k):
    x = np.sort(RNG.random(60))
    x[0], x[-1] = 0.0, 1.0
    y = np.sin(6 * x) + 0.2 * RNG.standard_normal(60)
    w = RNG.random(60) + 0.5
    for s in (0.5, 5.0, 100.0):  # knots added, then p; few knots; the polynomial
        (t1, c1, _), fp1, ier1, _ = si.splrep(x, y, w=w, k=k, s=s, full_output=1)
        (t2, c2, _), fp2, ier2, _ = gi.splrep(d(x), d(y), w=d(w), k=k, s=s, full_output=1)
        same(t2, t1)
        same(c2, c1, 1e-7)
        assert ier2 == ier1
        np.testing.assert_allclose(fp2, fp1, rtol=1e-7)
    s, g = si.UnivariateSpline(x, y, k=k), gi.UnivariateSpline(d(x), d(y), k=k)
    same(g(d(XN)), s(XN), 1e-7)
    same(g.get_knots(), s.get_knots())
    np.testing.assert_allclose(g.get_residual(), s.get_residual(), rtol=1e-7)


# ---- gridded -----------------------------------------------------------------------------

G0, G1, G2 = np.sort(RNG.random(7)), np.sort(RNG.random(8))[::-1].copy(), np.sort(RNG.random(6))
V = RNG.standard_normal((7, 8, 6, 2))
PTS = RNG.random((30, 3)) * 1.2 - 0.1


@pytest.mark.parametrize("method", ["linear", "nearest", "slinear", "cubic", "quintic", "pchip"])
def test_regular_grid_interpolator_methods(method):
    exact = {"solver": ssl.spsolve} if method in ("slinear", "cubic", "quintic") else {}
    for fv in (np.nan, None):
        s = si.RegularGridInterpolator((G0, G1, G2), V, method=method, bounds_error=False,
                                       fill_value=fv, **exact)
        g = gi.RegularGridInterpolator((d(G0), d(G1), d(G2)), d(V), method=method,
                                       bounds_error=False, fill_value=fv)
        same(g(d(PTS)), s(PTS), 1e-8)


def test_regular_grid_derivatives_interpn_and_errors():
    lo = np.array([G0.min(), max(G1.min(), G2.min())])
    hi = np.array([G0.max(), min(G1.max(), G2.max())])
    inside = lo + (hi - lo) * RNG.random((30, 2))
    s = si.RegularGridInterpolator((G0, G2), V[:, 0, :, 0], method="cubic", solver=ssl.spsolve)
    g = gi.RegularGridInterpolator((d(G0), d(G2)), d(V[:, 0, :, 0]), method="cubic")
    same(g(d(inside), nu=(1, 2)), s(inside, nu=(1, 2)), 1e-7)
    vc = V[:, :, 0, 0] + 1j * V[:, :, 0, 1]
    same(gi.interpn((d(G0), d(G1)), d(vc), d(inside)), si.interpn((G0, G1), vc, inside))
    same(gi.interpn((G0, G1), d(vc), (d(inside[:, 0]), d(inside[:, 1])), method="nearest"),
         si.interpn((G0, G1), vc, (inside[:, 0], inside[:, 1]), method="nearest"))
    with pytest.raises(ValueError, match="out of bounds in dimension 0"):
        gi.interpn((G0, G1), d(vc), d([[5.0, 0.5]]))
    with pytest.raises(ValueError, match="is not defined"):
        gi.RegularGridInterpolator((G0,), d(V[:, 0, 0, 0]), method="bogus")
    with pytest.raises(ValueError, match="strictly ascending or descending"):
        gi.RegularGridInterpolator((np.array([0.0, 2.0, 1.0]),), d([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="requires at least"):
        gi.RegularGridInterpolator((np.arange(3.0),), d([1.0, 2.0, 3.0]), method="cubic")
    with pytest.raises(ValueError, match="interpn only understands"):
        gi.interpn((G0,), d(V[:, 0, 0, 0]), d([0.5]), method="bogus")


def test_ndbspline():
    tx = np.r_[[0.0] * 4, 0.3, 0.6, [1.0] * 4]
    ty = np.r_[[0.0] * 3, 0.5, [1.0] * 3]
    c = RNG.standard_normal((6, 4, 2)) + 1j * RNG.standard_normal((6, 4, 2))
    xi = RNG.random((5, 3, 2)) * 1.4 - 0.2
    s = si.NdBSpline((tx, ty), c, (3, 2))
    g = gi.NdBSpline((d(tx), d(ty)), d(c), (3, 2))
    same(g(d(xi)), s(xi))
    same(g(d(xi), nu=(1, 2)), s(xi, nu=(1, 2)))
    same(g(d(xi), extrapolate=False), s(xi, extrapolate=False))
    assert g.k == s.k
    with pytest.raises(ValueError, match="inconsistent"):
        gi.NdBSpline((tx, ty), d(c[:5]), (3, 2))
    with pytest.raises(ValueError, match="len\\(t\\)"):
        gi.NdBSpline((tx, ty), d(c), (3, 2, 1))


# ---- scattered: RBF ----------------------------------------------------------------------

RBF_KERNELS = ["linear", "thin_plate_spline", "cubic", "quintic", "multiquadric",
               "inverse_multiquadric", "inverse_quadratic", "gaussian"]


@pytest.mark.parametrize("kernel", RBF_KERNELS)
def test_rbf_interpolator_kernels(kernel):
    y, dv, x = RNG.random((30, 2)), RNG.standard_normal((30, 2)), RNG.random((20, 2))
    s = si.RBFInterpolator(y, dv, kernel=kernel, epsilon=3.0, smoothing=0.01)
    g = gi.RBFInterpolator(d(y), d(dv), kernel=kernel, epsilon=3.0, smoothing=0.01)
    same(g(d(x)), s(x), 1e-7)


def test_rbf_neighbors_complex_and_errors():
    y, x = RNG.random((40, 2)), RNG.random((25, 2))
    dv = RNG.standard_normal(40) + 1j * RNG.standard_normal(40)
    s = si.RBFInterpolator(y, dv, neighbors=7, degree=2)
    g = gi.RBFInterpolator(d(y), d(dv), neighbors=7, degree=2)
    same(g(d(x)), s(x), 1e-7)
    same(gi.RBFInterpolator(d(y), d(dv.real))(d(x)), si.RBFInterpolator(y, dv.real)(x), 1e-7)
    with pytest.raises(ValueError, match="must be one of"):
        gi.RBFInterpolator(d(y), d(dv), kernel="bogus")
    with pytest.raises(ValueError, match="`epsilon` must be specified"):
        gi.RBFInterpolator(d(y), d(dv), kernel="gaussian")
    with pytest.raises(ValueError, match="At least 6 data points"):
        gi.RBFInterpolator(d(y[:4]), d(dv[:4]), degree=2)
    with pytest.raises(ValueError, match="2-dimensional"):
        gi.RBFInterpolator(d(y[:, 0]), d(dv))
    with pytest.warns(UserWarning):
        gi.RBFInterpolator(d(y), d(dv), kernel="cubic", degree=0)


def test_legacy_rbf():
    x, y = RNG.random(20), RNG.random(20)
    dv = np.sin(3 * x) * y
    xn, yn = RNG.random((3, 4)), RNG.random((3, 4))
    for fn in ("multiquadric", "inverse", "gaussian", "linear", "cubic", "quintic",
               "thin_plate"):
        s = si.Rbf(x, y, dv, function=fn, smooth=0.01)
        g = gi.Rbf(d(x), d(y), d(dv), function=fn, smooth=0.01)
        same(g(d(xn), d(yn)), s(xn, yn), 1e-6)
    dn = np.stack([dv, dv ** 2], axis=1)
    s = si.Rbf(x, y, dn, mode="N-D", epsilon=0.5, function=lambda r: 1.0 / (1.0 + r ** 2))
    g = gi.Rbf(d(x), d(y), d(dn), mode="N-D", epsilon=0.5, function=lambda r: 1.0 / (1.0 + r ** 2))
    same(g(d(xn), d(yn)), s(xn, yn), 1e-6)
    with pytest.raises(ValueError, match="function must be a callable or one of"):
        gi.Rbf(d(x), d(y), d(dv), function="bogus")
    with pytest.raises(ValueError, match="equal length"):
        gi.Rbf(d(x[:5]), d(y), d(dv))


# ---- polynomial --------------------------------------------------------------------------


def test_barycentric_krogh_lagrange_taylor():
    x, y = X[:8], Y[:8].T
    xn = np.r_[np.linspace(0, 1, 20), x[2]]  # one point on a node
    s = si.BarycentricInterpolator(x, y, axis=1)
    g = gi.BarycentricInterpolator(d(x), d(y), axis=1)
    same(g(d(xn)), s(xn), 1e-7)
    same(g.derivative(d(xn), 2), s.derivative(xn, 2), 1e-6)
    same(g.derivatives(d(xn), 3), s.derivatives(xn, 3), 1e-6)
    same(gi.barycentric_interpolate(d(x), d(y[0]), d(xn), der=[0, 1]),
         si.barycentric_interpolate(x, y[0], xn, der=[0, 1]), 1e-6)
    xk, yk = np.array([0.0, 0, 1, 2, 2, 3]), Y[:6, :2]
    s, g = si.KroghInterpolator(xk, yk), gi.KroghInterpolator(d(xk), d(yk))
    same(g(d(xn * 3)), s(xn * 3), 1e-9)
    same(g.derivatives(d(xn)), s.derivatives(xn), 1e-9)
    same(gi.krogh_interpolate(d(xk), d(yk), d(xn), der=[1, 2]),
         si.krogh_interpolate(xk, yk, xn, der=[1, 2]), 1e-9)
    p = gi.lagrange(d(x[:5]), d(y[0, :5]))
    assert isinstance(p, np.poly1d)
    same(p.coeffs, si.lagrange(x[:5], y[0, :5]).coeffs, 1e-6)
    an = 1.0 / np.cumprod(np.r_[1.0, np.arange(1.0, 8.0)])  # exp's series
    for m, n in ((2, None), (3, 2)):
        gp_, gq = gi.pade(d(an), m, n)
        sp_, sq = si.pade(an, m, n)
        same(gp_.coeffs, sp_.coeffs)
        same(gq.coeffs, sq.coeffs)
    with pytest.raises(ValueError, match="smaller than len"):
        gi.pade(d(an), 5, 5)
    tp = gi.approximate_taylor_polynomial(gp.sin, 0.3, 3, 0.5)
    same(tp.coeffs, si.approximate_taylor_polynomial(np.sin, 0.3, 3, 0.5).coeffs)
    # SciPy 1.18 deprecates both (1.17 does not): the same warnings as SciPy's
    for g_call, s_call in ((lambda: gi.lagrange(d(x[:3]), d(x[:3])),
                            lambda: si.lagrange(x[:3], x[:3])),
                           (lambda: gi.approximate_taylor_polynomial(gp.sin, 0.3, 3, 0.5),
                            lambda: si.approximate_taylor_polynomial(np.sin, 0.3, 3, 0.5))):
        with warnings.catch_warnings(record=True) as gw:
            warnings.simplefilter("always")
            g_call()
        with warnings.catch_warnings(record=True) as sw:
            warnings.simplefilter("always")
            s_call()
        assert [(w.category, str(w.message)) for w in gw] == \
            [(w.category, str(w.message)) for w in sw]
    with pytest.raises(ValueError, match="distinct"):
        gi.BarycentricInterpolator(d([0.0, 1.0, 1.0]), d([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="can't be equal"):
        gi.KroghInterpolator(d([0.0, 1.0, 0.0]), d([1.0, 2.0, 3.0]))


def test_numpy_arrays_are_refused():
    with pytest.raises(TypeError, match="gpunp.asarray"):
        gi.CubicSpline(d(X), d(Y))(XN)
