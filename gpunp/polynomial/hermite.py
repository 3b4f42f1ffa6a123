"""gpunp.polynomial.hermite: NumPy's numpy.polynomial.hermite (Hermite series
(physicists')) on gpunp arrays. Every function is a row of
gpunp.polynomial._series bound to the 'herm' basis; evaluation and fits run as
gpunp operations on the device."""

from __future__ import annotations

import math

import gpunp as gp
from gpunp.polynomial import _series
from gpunp.polynomial._polybase import ABCPolyBase

__all__ = ["hermzero", "hermone", "hermx", "hermdomain", "hermline", "hermadd",
           "hermsub", "hermmulx", "hermmul", "hermdiv", "hermpow", "hermval", "hermder",
           "hermint", "hermfromroots", "hermvander", "hermfit", "hermtrim", "hermroots",
           "hermval2d", "hermval3d", "hermgrid2d", "hermgrid3d", "hermvander2d",
           "hermvander3d", "hermcompanion", "herm2poly", "poly2herm", "hermgauss",
           "hermweight", "Hermite"]

if _series.NUMPY_HAS_VALND:
    __all__.append("hermvalnd")

globals().update(_series.module_functions("herm"))


def herm2poly(c):
    """The power series of a Hermite series (physicists') series' coefficients."""
    return _series.to_power("herm", c)


def poly2herm(pol):
    """A power series' coefficients in the Hermite basis."""
    return _series.from_power("herm", pol)


def hermgauss(deg):
    """Gauss-Hermite quadrature: nodes and weights of degree `deg`."""
    return _series.gauss("herm", deg, math.sqrt(math.pi), symmetric=True)


def hermweight(x):
    """The weight function of the Hermite polynomials."""
    x = gp.asarray(x)
    return gp.exp(-x**2)


class Hermite(ABCPolyBase):
    """A Hermite series (physicists') with a domain and a window (numpy.polynomial.Hermite)."""

    _prefix = "herm"
    domain = _series.FAMILIES["herm"].domain_array()
    window = _series.FAMILIES["herm"].domain_array()
    basis_name = 'H'
