"""gpunp.polynomial.polynomial: NumPy's numpy.polynomial.polynomial (power
series) on gpunp arrays. Every function is a row of gpunp.polynomial._series
bound to the 'poly' basis; evaluation and fits run as gpunp operations on the
device."""

from __future__ import annotations

from gpunp.polynomial import _series
from gpunp.polynomial._polybase import ABCPolyBase

__all__ = ["polyzero", "polyone", "polyx", "polydomain", "polyline", "polyadd",
           "polysub", "polymulx", "polymul", "polydiv", "polypow", "polyval", "polyder",
           "polyint", "polyfromroots", "polyvander", "polyfit", "polytrim", "polyroots",
           "polyval2d", "polyval3d", "polygrid2d", "polygrid3d", "polyvander2d",
           "polyvander3d", "polycompanion", "polyvalfromroots", "Polynomial"]

if _series.NUMPY_HAS_VALND:
    __all__.append("polyvalnd")

globals().update(_series.module_functions("poly", maxpower=None))


def polyvalfromroots(x, r, tensor=True):
    """The product of (x - r_i) over the roots r (along r's first axis)."""
    return _series.valfromroots(x, r, tensor)


class Polynomial(ABCPolyBase):
    """A power series with a domain and a window (numpy.polynomial.Polynomial)."""

    _prefix = "poly"
    domain = _series.FAMILIES["poly"].domain_array()
    window = _series.FAMILIES["poly"].domain_array()
    basis_name = None
