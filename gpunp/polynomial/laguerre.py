"""gpunp.polynomial.laguerre: NumPy's numpy.polynomial.laguerre (Laguerre series)
on gpunp arrays. Every function is a row of gpunp.polynomial._series bound to
the 'lag' basis; evaluation and fits run as gpunp operations on the device."""

from __future__ import annotations


import gpunp as gp
from gpunp.polynomial import _series
from gpunp.polynomial._polybase import ABCPolyBase

__all__ = ["lagzero", "lagone", "lagx", "lagdomain", "lagline", "lagadd", "lagsub",
           "lagmulx", "lagmul", "lagdiv", "lagpow", "lagval", "lagder", "lagint",
           "lagfromroots", "lagvander", "lagfit", "lagtrim", "lagroots", "lagval2d",
           "lagval3d", "laggrid2d", "laggrid3d", "lagvander2d", "lagvander3d",
           "lagcompanion", "lag2poly", "poly2lag", "laggauss", "lagweight", "Laguerre"]

if _series.NUMPY_HAS_VALND:
    __all__.append("lagvalnd")

globals().update(_series.module_functions("lag"))


def lag2poly(c):
    """The power series of a Laguerre series' coefficients."""
    return _series.to_power("lag", c)


def poly2lag(pol):
    """A power series' coefficients in the Laguerre basis."""
    return _series.from_power("lag", pol)


def laggauss(deg):
    """Gauss-Laguerre quadrature: nodes and weights of degree `deg`."""
    return _series.gauss("lag", deg, 1.0, symmetric=False)


def lagweight(x):
    """The weight function of the Laguerre polynomials."""
    x = gp.asarray(x)
    return gp.exp(-x)


class Laguerre(ABCPolyBase):
    """A Laguerre series with a domain and a window (numpy.polynomial.Laguerre)."""

    _prefix = "lag"
    domain = _series.FAMILIES["lag"].domain_array()
    window = _series.FAMILIES["lag"].domain_array()
    basis_name = 'L'
