"""gpunp.polynomial.chebyshev: NumPy's numpy.polynomial.chebyshev (Chebyshev
series (first kind)) on gpunp arrays. Every function is a row of
gpunp.polynomial._series bound to the 'cheb' basis; evaluation and fits run as
gpunp operations on the device."""

from __future__ import annotations

import math

import numpy

import gpunp as gp
from gpunp.polynomial import polyutils as pu
from gpunp.polynomial import _series
from gpunp.polynomial._polybase import ABCPolyBase

__all__ = ["chebzero", "chebone", "chebx", "chebdomain", "chebline", "chebadd",
           "chebsub", "chebmulx", "chebmul", "chebdiv", "chebpow", "chebval", "chebder",
           "chebint", "chebfromroots", "chebvander", "chebfit", "chebtrim", "chebroots",
           "chebval2d", "chebval3d", "chebgrid2d", "chebgrid3d", "chebvander2d",
           "chebvander3d", "chebcompanion", "cheb2poly", "poly2cheb", "chebpts1",
           "chebpts2", "chebgauss", "chebweight", "chebinterpolate", "Chebyshev"]

if _series.NUMPY_HAS_VALND:
    __all__.append("chebvalnd")

globals().update(_series.module_functions("cheb"))


def cheb2poly(c):
    """The power series of a Chebyshev series' coefficients."""
    return _series.to_power("cheb", c)


def poly2cheb(pol):
    """A power series' coefficients in the Chebyshev basis."""
    return _series.from_power("cheb", pol)


def _npts(npts, least):
    n = int(npts)
    if n != npts:
        raise ValueError("npts must be integer")
    if n < least:
        raise ValueError(f"npts must be >= {least}")
    return n


def chebpts1(npts):
    """The Chebyshev points of the first kind (zeros of T_npts)."""
    n = _npts(npts, 1)
    return gp.sin((0.5 * math.pi / n) * gp.arange(-n + 1, n + 1, 2))


def chebpts2(npts):
    """The Chebyshev points of the second kind (extrema of T_{npts-1})."""
    n = _npts(npts, 2)
    return gp.cos(gp.linspace(-math.pi, 0, n))


def chebgauss(deg):
    """Gauss-Chebyshev quadrature: nodes and weights of degree `deg`."""
    ideg = _series._as_int(deg, "deg")
    if ideg <= 0:
        raise ValueError("deg must be a positive integer")
    x = gp.cos(math.pi * gp.arange(1, 2 * ideg, 2) / (2.0 * ideg))
    return x, gp.ones(ideg) * (math.pi / ideg)


def chebweight(x):
    """The Chebyshev weight function 1/sqrt(1 - x**2)."""
    x = gp.asarray(x)
    return 1. / (gp.sqrt(1. + x) * gp.sqrt(1. - x))


def chebinterpolate(func, deg, args=()):
    """The Chebyshev series of degree `deg` interpolating func at the
    Chebyshev points of the first kind."""
    deg = numpy.asarray(deg)
    if deg.ndim > 0 or deg.dtype.kind not in "iu" or deg.size == 0:
        raise TypeError("deg must be an int")
    if deg < 0:
        raise ValueError("expected deg >= 0")
    order = int(deg) + 1
    xcheb = chebpts1(order)
    m = chebvander(xcheb, int(deg))  # noqa: F821 (made by module_functions)
    c = gp.dot(m.T, gp.asarray(func(xcheb, *args)))
    scale = gp.asarray(numpy.r_[1.0 / order, numpy.full(order - 1, 2.0 / order)])
    return c * scale.reshape((order,) + (1,) * (c.ndim - 1))


class Chebyshev(ABCPolyBase):
    """A Chebyshev series (first kind) with a domain and a window (numpy.polynomial.Chebyshev)."""

    _prefix = "cheb"
    domain = _series.FAMILIES["cheb"].domain_array()
    window = _series.FAMILIES["cheb"].domain_array()
    basis_name = 'T'

    @classmethod
    def interpolate(cls, func, deg, domain=None, args=()):
        """The series interpolating func at Chebyshev points of `domain`."""
        if domain is None:
            domain = cls.domain
        coef = chebinterpolate(lambda x: func(pu.mapdomain(x, cls.window, domain), *args), deg)
        return cls(coef, domain=domain)
