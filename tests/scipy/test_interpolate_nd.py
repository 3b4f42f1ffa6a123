"""gpunp.scipy.interpolate's scattered-data interpolators and griddata
against SciPy's: the same shapes and dtypes, the same fills outside the
hull, values equal (nearest; linear off shared faces) or within rounding
(Clough-Tocher, whose sums are grouped differently)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.interpolate as si

import gpunp as gp
import gpunp.scipy.interpolate as gi
import gpunp.scipy.spatial as gsp

RNG = np.random.default_rng(3)
PTS = RNG.random((70, 2))
VALS = np.sin(3 * PTS[:, 0]) + PTS[:, 1] ** 2
Q = RNG.random((150, 2)) * 1.3 - 0.15


def dev(*a):
    return [gp.asarray(x) for x in a]


def check(got, ref, exact=False):
    got = gp.asnumpy(got)
    assert got.shape == ref.shape and got.dtype == ref.dtype, (got.shape, ref.shape,
                                                               got.dtype, ref.dtype)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(ref))
    if exact:
        np.testing.assert_array_equal(got, ref)
    else:
        np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("rescale", [False, True])
def test_linear(rescale):
    p, v, q = dev(PTS * [1, 50], VALS, Q * [1, 50])
    ref = si.LinearNDInterpolator(PTS * [1, 50], VALS, rescale=rescale)(Q * [1, 50])
    check(gi.LinearNDInterpolator(p, v, rescale=rescale)(q), ref, exact=not rescale)


def test_linear_values_shapes_complex_fill_and_coordinate_tuples():
    vals = np.stack([VALS, 2 * VALS, -VALS], axis=1).reshape(70, 3, 1) * (1 + 0.5j)
    p, v = dev(PTS, vals)
    ip = gi.LinearNDInterpolator(p, v, fill_value=-1 + 2j)
    ref = si.LinearNDInterpolator(PTS, vals, fill_value=-1 + 2j)
    check(ip(gp.asarray(Q)), ref(Q), exact=True)
    xs, ys = Q[:12, 0].reshape(3, 4), Q[:12, 1].reshape(3, 4)
    check(ip(gp.asarray(xs), gp.asarray(ys)), ref(xs, ys), exact=True)
    check(ip(gp.asarray(Q[:3, 0]), gp.asarray(0.5)), ref(Q[:3, 0], 0.5), exact=True)


def test_linear_3d_and_a_given_triangulation():
    pts, q = RNG.random((40, 3)), RNG.random((60, 3)) * 1.2 - 0.1
    vals = pts @ [1.0, -2.0, 0.5] + pts[:, 0] ** 2
    check(gi.LinearNDInterpolator(*dev(pts, vals))(gp.asarray(q)),
          si.LinearNDInterpolator(pts, vals)(q), exact=True)
    tri = gsp.Delaunay(gp.asarray(PTS))
    check(gi.LinearNDInterpolator(tri, gp.asarray(VALS))(gp.asarray(Q)),
          si.LinearNDInterpolator(PTS, VALS)(Q), exact=True)
    with pytest.raises(ValueError, match="Rescaling"):
        gi.LinearNDInterpolator(tri, gp.asarray(VALS), rescale=True)


def test_nearest():
    vals = np.stack([VALS, -VALS], axis=1)
    for y in (VALS, vals, np.arange(70), vals * 1j):
        ref = si.NearestNDInterpolator(PTS, y)(Q)
        check(gi.NearestNDInterpolator(*dev(PTS, y))(gp.asarray(Q)), ref, exact=True)
    ref = si.NearestNDInterpolator(PTS, VALS, rescale=True,
                                   tree_options={"leafsize": 3})(Q, distance_upper_bound=0.05)
    got = gi.NearestNDInterpolator(*dev(PTS, VALS), rescale=True,
                                   tree_options={"leafsize": 3})(gp.asarray(Q),
                                                                 distance_upper_bound=0.05)
    check(got, ref, exact=True)


def test_clough_tocher():
    p, v, q = dev(PTS, VALS, Q)
    check(gi.CloughTocher2DInterpolator(p, v)(q), si.CloughTocher2DInterpolator(PTS, VALS)(Q))
    vals = np.stack([VALS, VALS ** 2], axis=1) + 1j * np.stack([-VALS, PTS[:, 0]], axis=1)
    got = gi.CloughTocher2DInterpolator(p, gp.asarray(vals), fill_value=2.0, rescale=True,
                                        tol=1e-8, maxiter=50)(q)
    ref = si.CloughTocher2DInterpolator(PTS, vals, fill_value=2.0, rescale=True, tol=1e-8,
                                        maxiter=50)(Q)
    check(got, ref)
    with pytest.raises(ValueError, match="2-D"):
        gi.CloughTocher2DInterpolator(gp.asarray(RNG.random((10, 3))), gp.asarray(np.ones(10)))


@pytest.mark.parametrize("method", ["nearest", "linear", "cubic"])
def test_griddata(method):
    xs, ys = np.meshgrid(np.linspace(-0.1, 1.1, 9), np.linspace(0, 1, 7))
    ref = si.griddata(PTS, VALS, (xs, ys), method=method, fill_value=-3.0)
    got = gi.griddata(gp.asarray(PTS), gp.asarray(VALS), (gp.asarray(xs), gp.asarray(ys)),
                      method=method, fill_value=-3.0)
    check(got, ref, exact=method != "cubic")
    pts = (gp.asarray(PTS[:, 0]), gp.asarray(PTS[:, 1]))
    check(gi.griddata(pts, gp.asarray(VALS), gp.asarray(Q), method=method),
          si.griddata((PTS[:, 0], PTS[:, 1]), VALS, Q, method=method),
          exact=method != "cubic")


@pytest.mark.parametrize("method", ["nearest", "linear"])
def test_griddata_1d(method):
    x = RNG.permutation(np.linspace(0, 1, 15) + RNG.random(15) * 0.03)
    y = np.stack([np.cos(5 * x), x], axis=1)
    xi = np.linspace(-0.2, 1.2, 41).reshape(41, 1)
    for yy in (y, y[:, 0]):
        ref = si.griddata(x, yy, xi, method=method)
        check(gi.griddata(gp.asarray(x), gp.asarray(yy), gp.asarray(xi), method=method), ref)
    ref = si.griddata((x,), y[:, 0], (xi[:, 0],), method=method, fill_value=7.0)
    check(gi.griddata((gp.asarray(x),), gp.asarray(y[:, 0]), (gp.asarray(xi[:, 0]),),
                      method=method, fill_value=7.0), ref)


def test_errors_are_scipys():
    cases = [
        lambda m, a: m.griddata(a(PTS), a(VALS), a(Q), method="quintic"),
        lambda m, a: m.griddata(a(RNG.random((20, 3))), a(np.ones(20)), a(Q), method="cubic"),
        lambda m, a: m.LinearNDInterpolator(a(PTS), a(VALS[:5])),
        lambda m, a: m.LinearNDInterpolator(a(PTS), a(VALS))(a(RNG.random((4, 3)))),
        lambda m, a: m.NearestNDInterpolator(a(PTS), a(VALS))(a(RNG.random((4, 3)))),
    ]
    for case in cases:
        with pytest.raises(Exception) as ref:
            case(si, lambda x: x)
        with pytest.raises(type(ref.value)):
            case(gi, gp.asarray)
