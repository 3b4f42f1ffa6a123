"""gpunp.polynomial.hermite_e: NumPy's numpy.polynomial.hermite_e (HermiteE
series (probabilists')) on gpunp arrays. Every function is a row of
gpunp.polynomial._series bound to the 'herme' basis; evaluation and fits run
as gpunp operations on the device."""

from __future__ import annotations

import math

import gpunp as gp
from gpunp.polynomial import _series
from gpunp.polynomial._polybase import ABCPolyBase

__all__ = ["hermezero", "hermeone", "hermex", "hermedomain", "hermeline", "hermeadd",
           "hermesub", "hermemulx", "hermemul", "hermediv", "hermepow", "hermeval",
           "hermeder", "hermeint", "hermefromroots", "hermevander", "hermefit",
           "hermetrim", "hermeroots", "hermeval2d", "hermeval3d", "hermegrid2d",
           "hermegrid3d", "hermevander2d", "hermevander3d", "hermecompanion",
           "herme2poly", "poly2herme", "hermegauss", "hermeweight", "HermiteE"]

if _series.NUMPY_HAS_VALND:
    __all__.append("hermevalnd")

globals().update(_series.module_functions("herme"))


def herme2poly(c):
    """The power series of a HermiteE series (probabilists') series' coefficients."""
    return _series.to_power("herme", c)


def poly2herme(pol):
    """A power series' coefficients in the HermiteE basis."""
    return _series.from_power("herme", pol)


def hermegauss(deg):
    """Gauss-HermiteE quadrature: nodes and weights of degree `deg`."""
    return _series.gauss("herme", deg, math.sqrt(2 * math.pi), symmetric=True)


def hermeweight(x):
    """The weight function of the HermiteE polynomials."""
    x = gp.asarray(x)
    return gp.exp(-.5 * x**2)


class HermiteE(ABCPolyBase):
    """A HermiteE series (probabilists') with a domain and a window (numpy.polynomial.HermiteE)."""

    _prefix = "herme"
    domain = _series.FAMILIES["herme"].domain_array()
    window = _series.FAMILIES["herme"].domain_array()
    basis_name = 'He'
