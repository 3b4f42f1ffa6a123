"""gpunp.polynomial against numpy.polynomial: every basis' module functions,
the six classes' methods and operators, and NumPy's exceptions.

Tolerances: results agree within a relative error of TOL = 2**-40 (about
4500 ULPs of float64, `rel` scaled by the largest magnitude of NumPy's
result) for values and coefficients. gpunp evaluates every basis by one
Clenshaw recurrence (NumPy has a form per basis), applies derivatives,
integrals and conversions as matrices (NumPy runs backward recurrences)
and multiplies by the recurrence on coefficient vectors (NumPy's Chebyshev
product is a z-series convolution), so sums run in other orders; for the
small degrees here that costs at most a few hundred ULPs, with room for
the recurrences' growth (Laguerre and Hermite coefficients reach 1e3).
Roots and quadrature nodes come from eigenvalues of companion matrices
(the same matrices, but another eigensolver on the host backend), so they
get ROOT_TOL = 1e-9 relative, well above the eigenvalues' condition times
eps for well-separated random roots. Dtypes and shapes are exact.
"""

import numpy
import numpy.polynomial as NP
import pytest

import gpunp as gp
import gpunp.polynomial as GP

TOL = 2.0 ** -40
ROOT_TOL = 1e-9

MODULES = [("polynomial", "poly", "Polynomial"), ("chebyshev", "cheb", "Chebyshev"),
           ("legendre", "leg", "Legendre"), ("laguerre", "lag", "Laguerre"),
           ("hermite", "herm", "Hermite"), ("hermite_e", "herme", "HermiteE")]
IDS = [m[1] for m in MODULES]


def _host(a):
    return gp.asnumpy(a) if isinstance(a, gp.ndarray) else numpy.asarray(a)


def close(got, want, rel=TOL):
    got, want = _host(got), numpy.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    scale = max(float(numpy.max(numpy.abs(want), initial=0.0)), 1e-300)
    numpy.testing.assert_allclose(got, want, rtol=0, atol=rel * scale)


def dev(*arrays):
    return [gp.asarray(a) for a in arrays]


@pytest.fixture(params=MODULES, ids=IDS)
def fam(request):
    mod, p, cls = request.param

    class F:
        n = getattr(NP, mod)
        g = getattr(GP, mod)
        prefix = p
        N = getattr(NP, cls)
        G = getattr(GP, cls)

        def fn(self, name):
            return getattr(self.g, p + name), getattr(self.n, p + name)
    return F()


def test_namespace():
    assert set(GP.__all__) == set(NP.__all__)
    for mod, _, _ in MODULES:
        assert set(getattr(GP, mod).__all__) == set(getattr(NP, mod).__all__), mod
    assert set(GP.polyutils.__all__) == set(NP.polyutils.__all__)
    assert gp.polynomial is GP


def test_module_functions(fam):
    rng = numpy.random.default_rng(len(fam.prefix))
    c1, c2 = rng.standard_normal(6), rng.standard_normal(4)
    x = rng.uniform(-1, 1, 9)
    g1, g2, gx = dev(c1, c2, x)
    f = fam.fn
    close(f("val")[0](gx, g1), f("val")[1](x, c1))
    for name in ("add", "sub", "mul"):
        close(f(name)[0](g1, g2), f(name)[1](c1, c2))
        close(f(name)[0](g2, g1), f(name)[1](c2, c1))
    close(f("mulx")[0](g1), f("mulx")[1](c1))
    close(f("pow")[0](g2, 3), f("pow")[1](c2, 3))
    close(f("pow")[0](g2, 0), f("pow")[1](c2, 0))
    q, r = f("div")[0](g1, g2)
    qn, rn = f("div")[1](c1, c2)
    close(q, qn)
    close(r, rn)
    close(f("der")[0](g1, 2, 1.5), f("der")[1](c1, 2, 1.5))
    close(f("der")[0](g1, 7), f("der")[1](c1, 7))
    close(f("int")[0](g1, 2, [1, -2], 0.5, 2.0), f("int")[1](c1, 2, [1, -2], 0.5, 2.0))
    close(f("vander")[0](gx, 4), f("vander")[1](x, 4))
    close(f("fromroots")[0](g2), f("fromroots")[1](c2))
    close(f("companion")[0](g1), f("companion")[1](c1))
    close(f("line")[0](3, 4), f("line")[1](3, 4))
    close(f("trim")[0](gp.asarray(numpy.r_[c1, 1e-3, 0]), 1e-2),
          f("trim")[1](numpy.r_[c1, 1e-3, 0], 1e-2))
    for const in ("zero", "one", "x", "domain"):
        close(getattr(fam.g, fam.prefix + const), getattr(fam.n, fam.prefix + const))
    if fam.prefix != "poly":
        p2, fromp = getattr(fam.g, fam.prefix + "2poly"), getattr(fam.n, fam.prefix + "2poly")
        close(p2(g1), fromp(c1))
        close(getattr(fam.g, "poly2" + fam.prefix)(g1), getattr(fam.n, "poly2" + fam.prefix)(c1))
    else:
        r = rng.standard_normal((2, 3))
        close(GP.polynomial.polyvalfromroots(gx[:3], gp.asarray(r), tensor=False),
              NP.polynomial.polyvalfromroots(x[:3], r, tensor=False))
        close(GP.polynomial.polyvalfromroots(gx, gp.asarray(c2)),
              NP.polynomial.polyvalfromroots(x, c2))


def test_roots_and_gauss(fam):
    rng = numpy.random.default_rng(7)
    r = numpy.sort(rng.uniform(-1, 1, 5)) + numpy.arange(5)  # well separated
    c = fam.fn("fromroots")[1](r)
    close(fam.fn("roots")[0](gp.asarray(c)), fam.fn("roots")[1](c), ROOT_TOL)
    close(fam.fn("roots")[0](gp.asarray(c[:2])), fam.fn("roots")[1](c[:2]))
    close(fam.fn("roots")[0](gp.asarray(c[:1])), fam.fn("roots")[1](c[:1]))
    if fam.prefix != "poly":
        # degree 300: Hermite values and the companion's scaling overflow
        # unless the recurrence is scaled
        for deg in (1, 4, 12) + ((300,) if fam.prefix == "herm" else ()):
            for got, want in zip(fam.fn("gauss")[0](deg), fam.fn("gauss")[1](deg)):
                close(got, want, ROOT_TOL)
        x = numpy.linspace(-0.9, 0.9, 7)
        close(fam.fn("weight")[0](gp.asarray(x)), fam.fn("weight")[1](x))


def test_multidimensional(fam):
    rng = numpy.random.default_rng(3)
    x, y, z = rng.uniform(-1, 1, (3, 4))
    c2, c3 = rng.standard_normal((3, 2)), rng.standard_normal((2, 3, 2))
    gx, gy, gz, g2, g3 = dev(x, y, z, c2, c3)
    f = fam.fn
    close(f("val2d")[0](gx, gy, g2), f("val2d")[1](x, y, c2))
    close(f("val3d")[0](gx, gy, gz, g3), f("val3d")[1](x, y, z, c3))
    close(f("grid2d")[0](gx, gy[:3], g2), f("grid2d")[1](x, y[:3], c2))
    close(f("grid3d")[0](gx[:2], gy, gz[:3], g3), f("grid3d")[1](x[:2], y, z[:3], c3))
    close(f("vander2d")[0](gx, gy, [2, 1]), f("vander2d")[1](x, y, [2, 1]))
    close(f("vander3d")[0](gx, gy, gz, [1, 2, 1]), f("vander3d")[1](x, y, z, [1, 2, 1]))
    # NumPy 2.5's valnd: as the installed NumPy has it or not
    assert hasattr(fam.g, fam.prefix + "valnd") == hasattr(fam.n, fam.prefix + "valnd")
    if hasattr(fam.n, fam.prefix + "valnd"):
        close(f("valnd")[0]((gx, gy, gz), g3), f("valnd")[1]((x, y, z), c3))
        close(f("valnd")[0](gp.stack([gx, gy]), g2), f("valnd")[1](numpy.stack([x, y]), c2))
    if fam.prefix == "poly" and hasattr(fam.n, "polyvalnd"):
        # NumPy dispatches polyvalnd (NEP 18): gpunp's runs for gpunp arrays
        got = NP.polynomial.polyvalnd((gx, gy), g2)
        assert isinstance(got, gp.ndarray)
        close(got, NP.polynomial.polyvalnd((x, y), c2))
    # tensor=False pairs the trailing axes of c with x; der/int along an axis
    close(f("val")[0](gx[:2], g2, tensor=False), f("val")[1](x[:2], c2, tensor=False))
    close(f("der")[0](g3, 1, 2, axis=1), f("der")[1](c3, 1, 2, axis=1))
    close(f("int")[0](g3, 1, [3], 1, axis=-1), f("int")[1](c3, 1, [3], 1, axis=-1))


def test_fit(fam):
    rng = numpy.random.default_rng(11)
    x = numpy.sort(rng.uniform(0, 1, 40))
    y = numpy.stack([numpy.exp(x), numpy.cos(3 * x)], axis=1)
    w = rng.uniform(0.5, 1.5, 40)
    f = fam.fn
    close(f("fit")[0](*dev(x, y[:, 0]), 5), f("fit")[1](x, y[:, 0], 5), 1e-9)
    close(f("fit")[0](*dev(x, y), [0, 2, 3], w=gp.asarray(w)),
          f("fit")[1](x, y, [0, 2, 3], w=w), 1e-9)
    got, (res, rank, sv, rcond) = f("fit")[0](*dev(x, y[:, 1]), 3, full=True)
    want, (res_n, rank_n, sv_n, rcond_n) = f("fit")[1](x, y[:, 1], 3, full=True)
    close(got, want, 1e-9)
    close(res, res_n, 1e-6)
    assert rank == rank_n and rcond == rcond_n


def test_dtypes():
    # float32 stays float32 (Clenshaw's scalars are weak; the derivative's
    # matrix is cast); integers become float64; complex runs through
    c32 = numpy.array([1.5, -2.0, 0.25], dtype=numpy.float32)
    x32 = numpy.linspace(-1, 1, 5, dtype=numpy.float32)
    gc, gx = dev(c32, x32)
    close(GP.chebyshev.chebval(gx, gc), NP.chebyshev.chebval(x32, c32), 1e-6)
    close(GP.chebyshev.chebder(gc), NP.chebyshev.chebder(c32), 1e-6)
    # a NumPy float64 scale keeps float32 (NumPy scales in place)
    close(GP.chebyshev.chebder(gc, 1, numpy.float64(2)),
          NP.chebyshev.chebder(c32, 1, numpy.float64(2)), 1e-6)
    close(GP.Chebyshev(gc, domain=[0, 3]).integ().coef,
          NP.Chebyshev(c32, domain=[0, 3]).integ().coef, 1e-6)
    ci = numpy.array([1, 2, 3])
    close(GP.legendre.legval(gp.asarray(x32), gp.asarray(ci)), NP.legendre.legval(x32, ci))
    close(GP.laguerre.lagline(3, 4), NP.laguerre.lagline(3, 4))
    cz = numpy.array([1 + 2j, -0.5j, 0.75, 1 - 1j])
    x = x32.astype(numpy.float64)
    close(GP.hermite.hermval(gp.asarray(x), gp.asarray(cz)), NP.hermite.hermval(x, cz))
    close(GP.polynomial.polyroots(gp.asarray(cz)), NP.polynomial.polyroots(cz), ROOT_TOL)
    # the evaluation kernel: x cast to the result type, strided and 0-d x,
    # NaN and infinities where NumPy's forms and gpunp's agree (the power
    # series, and every basis' constant and line), no points
    xi = numpy.arange(4, dtype=numpy.int8)
    close(GP.legendre.legval(gp.asarray(xi), gc), NP.legendre.legval(xi, c32), 1e-6)
    close(GP.hermite.hermval(gx, gp.asarray(ci)), NP.hermite.hermval(x32, ci))
    xs = numpy.linspace(-2, 2, 12).reshape(3, 4)
    c3 = numpy.arange(12.0).reshape(3, 2, 2) / 7
    close(GP.laguerre.lagval(gp.asarray(xs)[:, ::2], gp.asarray(c3)),
          NP.laguerre.lagval(xs[:, ::2], c3))
    close(GP.chebyshev.chebval(gp.asarray(0.5), gp.asarray(c3)),
          NP.chebyshev.chebval(numpy.asarray(0.5), c3))
    xe = numpy.array([numpy.nan, numpy.inf, -numpy.inf, 0.5])
    with numpy.errstate(invalid="ignore"):
        for mod, c in (("polynomial", [1.0, -2.0, 3.0]), ("chebyshev", [2.0]),
                       ("laguerre", [1.0, 2.0])):
            p = dict((m[0], m[1]) for m in MODULES)[mod]
            got = getattr(getattr(GP, mod), p + "val")(gp.asarray(xe), gp.asarray(c))
            want = getattr(getattr(NP, mod), p + "val")(xe, numpy.array(c))
            numpy.testing.assert_array_equal(_host(got), want)
    close(GP.hermite.hermval(gp.zeros(0), gp.asarray(ci)), NP.hermite.hermval(numpy.zeros(0), ci))
    close(GP.hermite.hermvander(gp.zeros(0), 2), NP.hermite.hermvander(numpy.zeros(0), 2))
    close(GP.laguerre.lagvander(gp.asarray(cz), 3), NP.laguerre.lagvander(cz, 3))
    # a Python scalar x gives a 0-d result
    close(GP.polynomial.polyval(2.0, [1, 2]), NP.polynomial.polyval(2.0, [1, 2]))


def test_chebyshev_extras():
    ch, chn = GP.chebyshev, NP.chebyshev
    close(ch.chebpts1(5), chn.chebpts1(5))
    close(ch.chebpts2(5), chn.chebpts2(5))
    for got, want in zip(ch.chebgauss(4), chn.chebgauss(4)):
        close(got, want)
    close(ch.chebweight(gp.asarray([0.5, -0.25])), chn.chebweight(numpy.array([0.5, -0.25])))
    close(ch.chebinterpolate(gp.exp, 6), chn.chebinterpolate(numpy.exp, 6))
    close(GP.Chebyshev.interpolate(gp.sin, 5, domain=[0, 2]).coef,
          NP.Chebyshev.interpolate(numpy.sin, 5, domain=[0, 2]).coef)


def check_series(got, want, rel=TOL):
    assert type(got).__name__ == type(want).__name__
    close(got.coef, want.coef, rel)
    numpy.testing.assert_array_equal(got.domain, want.domain)
    numpy.testing.assert_array_equal(got.window, want.window)
    assert got.symbol == want.symbol


def test_class(fam):
    rng = numpy.random.default_rng(5)
    c1, c2 = rng.standard_normal(5), rng.standard_normal(3)
    dom = [-1, 3]
    pn, qn = fam.N(c1, domain=dom), fam.N(c2, domain=dom)
    pg, qg = fam.G(gp.asarray(c1), domain=dom), fam.G(gp.asarray(c2), domain=dom)
    check_series(pg + qg, pn + qn)
    check_series(pg - qg, pn - qn)
    check_series(pg * qg, pn * qn)
    check_series(pg // qg, pn // qn)
    check_series(pg % qg, pn % qn)
    check_series(pg ** 3, pn ** 3)
    check_series(2 + pg, 2 + pn)
    check_series(2 - pg, 2 - pn)
    check_series(pg * 2, pn * 2)
    check_series(pg / 4, pn / 4)
    check_series(-pg, -pn)
    check_series(+pg, +pn)
    check_series(pg.deriv(2), pn.deriv(2))
    check_series(pg.integ(2, [1, 2], lbnd=0.5), pn.integ(2, [1, 2], lbnd=0.5))
    check_series(pg.truncate(2), pn.truncate(2))
    check_series(pg.cutdeg(1), pn.cutdeg(1))
    check_series(pg.trim(0.5), pn.trim(0.5))
    check_series(pg.copy(), pn.copy())
    check_series(pg.convert(kind=GP.Chebyshev, domain=[0, 1]),
                 pn.convert(kind=NP.Chebyshev, domain=[0, 1]))
    check_series(GP.Legendre.cast(pg), NP.Legendre.cast(pn))
    check_series(fam.G.fromroots(gp.asarray(c2)), fam.N.fromroots(c2))
    check_series(fam.G.identity([0, 2]), fam.N.identity([0, 2]))
    check_series(fam.G.basis(3, domain=dom), fam.N.basis(3, domain=dom))
    x = rng.uniform(-1, 3, 30)
    check_series(fam.G.fit(gp.asarray(x), gp.asarray(numpy.sin(x)), 4),
                 fam.N.fit(x, numpy.sin(x), 4), 1e-9)
    close(pg(gp.asarray(x)), pn(x))
    close(pg.roots(), pn.roots(), ROOT_TOL)
    for got, want in zip(pg.linspace(6), pn.linspace(6)):
        close(got, want)
    assert pg.mapparms() == pn.mapparms()
    assert len(pg) == len(pn) and pg.degree() == pn.degree()
    assert pg == fam.G(c1, domain=dom) and pg != qg and pg != pg.copy().truncate(2)
    assert repr(pg) == repr(pn) and str(pg) == str(pn)
    with pytest.raises(TypeError, match="Domains differ"):
        pg + fam.G(c2)
    with pytest.raises(TypeError, match="types differ"):
        pg + (GP.Polynomial(c2, domain=dom) if fam.prefix != "poly" else GP.Chebyshev(c2))
    with pytest.raises(ValueError, match="symbols differ"):
        pg + fam.G(c2, domain=dom, symbol="t")


def test_errors(fam):
    g, n = fam.fn, fam.prefix
    c = gp.asarray([1.0, 2.0, 3.0])
    cases = [
        (ValueError, "empty", lambda: g("add")[0](gp.zeros(0), c)),
        (ValueError, "not 1-d", lambda: g("mul")[0](gp.ones((2, 2)), c)),
        (ZeroDivisionError, None, lambda: g("div")[0](c, [0.0, 0.0])),
        (ValueError, "non-negative integer", lambda: g("pow")[0](c, -1)),
        (ValueError, "too large", lambda: g("pow")[0](c, 17)),
        (ValueError, "order of derivation must be non-negative", lambda: g("der")[0](c, -1)),
        (TypeError, "must be an integer", lambda: g("der")[0](c, 1.5)),
        (ValueError, "Too many integration constants", lambda: g("int")[0](c, 1, [1, 2])),
        (ValueError, "lbnd must be a scalar", lambda: g("int")[0](c, 1, lbnd=[0, 1])),
        (numpy.exceptions.AxisError, None, lambda: g("der")[0](c, 1, axis=1)),
        (ValueError, "maximum degree of at least 1", lambda: g("companion")[0]([1.0])),
        (ValueError, "deg must be non-negative", lambda: g("vander")[0](c, -1)),
        (TypeError, "expected 1D vector for x", lambda: g("fit")[0](gp.ones((2, 2)), c, 1)),
        (ValueError, "expected deg >= 0", lambda: g("fit")[0](c, c, -1)),
        (TypeError, "same length", lambda: g("fit")[0](c, c[:2], 1)),
        (ValueError, "tol must be non-negative", lambda: g("trim")[0](c, -1)),
        (ValueError, "x, y are incompatible", lambda: g("val2d")[0](c, c[:2], gp.ones((2, 2)))),
        (IndexError, "out of bounds", lambda: g("val")[0](c, gp.zeros(0))),
        (IndexError, "out of bounds", lambda: g("int")[0](gp.zeros(0))),
        (ValueError, None, lambda: g("vander2d")[0](c, c[:2], [1, 1])),
        (ValueError, "Domain has wrong number", lambda: fam.G(c, domain=[0, 1, 2])),
        (ValueError, "valid Python identifier", lambda: fam.G(c, symbol="1x")),
        (TypeError, "unsupported types for true division", lambda: fam.G(c) / fam.G(c)),
        (ValueError, "size must be a positive integer", lambda: fam.G(c).truncate(0)),
        (ValueError, "deg must be non-negative integer", lambda: fam.G.basis(-1)),
    ]
    if n != "poly":
        cases.append((ValueError, "positive integer", lambda: g("gauss")[0](0)))
    else:
        cases[4] = (ValueError, "too large", lambda: g("pow")[0](c, 17, maxpower=16))
    for exc, msg, call in cases:
        with pytest.raises(exc, match=msg):
            call()


def test_polyutils():
    pu, pun = GP.polyutils, NP.polyutils
    x = numpy.array([3.0, -1.0, 2.5])
    close(pu.getdomain(gp.asarray(x)), pun.getdomain(x))
    xz = x + 1j * x[::-1]
    close(pu.getdomain(gp.asarray(xz)), pun.getdomain(xz))
    close(pu.mapdomain(gp.asarray(x), [-1, 3], [0, 1]), pun.mapdomain(x, [-1, 3], [0, 1]))
    assert pu.mapparms([-1, 3], [0, 1]) == pun.mapparms([-1, 3], [0, 1])
    close(pu.trimseq(gp.asarray([1.0, 0.0, 0.0])), pun.trimseq(numpy.array([1.0, 0.0, 0.0])))
    close(pu.trimcoef(gp.asarray([1.0, 1e-3, 0.0]), 1e-2), pun.trimcoef([1.0, 1e-3, 0.0], 1e-2))
    close(pu.trimcoef(gp.asarray([0.0, 0.0])), pun.trimcoef([0.0, 0.0]))
    for got, want in zip(pu.as_series([[1, 0], [2.0, 0.0, 3.0]]),
                         pun.as_series([[1, 0], [2.0, 0.0, 3.0]])):
        close(got, want)
    assert pu.format_float(numpy.float64(0.5)) == pun.format_float(numpy.float64(0.5))
