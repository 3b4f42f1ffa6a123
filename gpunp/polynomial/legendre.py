"""gpunp.polynomial.legendre: NumPy's numpy.polynomial.legendre (Legendre series)
on gpunp arrays. Every function is a row of gpunp.polynomial._series bound to
the 'leg' basis; evaluation and fits run as gpunp operations on the device."""

from __future__ import annotations


import gpunp as gp
from gpunp.polynomial import _series
from gpunp.polynomial._polybase import ABCPolyBase

__all__ = ["legzero", "legone", "legx", "legdomain", "legline", "legadd", "legsub",
           "legmulx", "legmul", "legdiv", "legpow", "legval", "legder", "legint",
           "legfromroots", "legvander", "legfit", "legtrim", "legroots", "legval2d",
           "legval3d", "leggrid2d", "leggrid3d", "legvander2d", "legvander3d",
           "legcompanion", "leg2poly", "poly2leg", "leggauss", "legweight", "Legendre"]

if _series.NUMPY_HAS_VALND:
    __all__.append("legvalnd")

globals().update(_series.module_functions("leg"))


def leg2poly(c):
    """The power series of a Legendre series' coefficients."""
    return _series.to_power("leg", c)


def poly2leg(pol):
    """A power series' coefficients in the Legendre basis."""
    return _series.from_power("leg", pol)


def leggauss(deg):
    """Gauss-Legendre quadrature: nodes and weights of degree `deg`."""
    return _series.gauss("leg", deg, 2.0, symmetric=True)


def legweight(x):
    """The weight function of the Legendre polynomials."""
    x = gp.asarray(x)
    return x * 0.0 + 1.0


class Legendre(ABCPolyBase):
    """A Legendre series with a domain and a window (numpy.polynomial.Legendre)."""

    _prefix = "leg"
    domain = _series.FAMILIES["leg"].domain_array()
    window = _series.FAMILIES["leg"].domain_array()
    basis_name = 'P'
