"""gpunp.polynomial.polyutils: NumPy's helpers of numpy.polynomial.polyutils
on gpunp arrays (series conversion and trimming, domains and their affine
maps, float formatting)."""

from __future__ import annotations

import numpy

import gpunp as gp
from gpunp.polynomial._series import as_series, trimcoef, trimseq

__all__ = ["as_series", "trimseq", "trimcoef", "getdomain", "mapdomain", "mapparms",
           "format_float"]


def getdomain(x):
    """The smallest interval (a box in the complex plane) holding x."""
    [x] = as_series([x], trim=False)
    if x.dtype.kind == "c":
        lo = gp.min(x.real) + 1j * gp.min(x.imag)
        hi = gp.max(x.real) + 1j * gp.max(x.imag)
        return gp.stack([lo, hi])
    return gp.stack([gp.min(x), gp.max(x)])


def mapparms(old, new):
    """(off, scl) of the affine map off + scl * x taking old onto new."""
    oldlen = old[1] - old[0]
    newlen = new[1] - new[0]
    off = (old[1] * new[0] - old[0] * new[1]) / oldlen
    scl = newlen / oldlen
    return off, scl


def mapdomain(x, old, new):
    """x mapped from the interval old onto new."""
    from gpunp.polynomial._polybase import ABCPolyBase
    if (type(x) not in (int, float, complex) and not isinstance(x, numpy.generic)
            and not isinstance(x, ABCPolyBase)):
        x = gp.asarray(x)
    off, scl = mapparms(_host(old), _host(new))
    return off + scl * x


def format_float(x, parens=False):
    """NumPy's formatting of one coefficient (printing reads the host)."""
    return numpy.polynomial.polyutils.format_float(x, parens)


def _host(v):
    return gp.asnumpy(v) if isinstance(v, gp.ndarray) else numpy.asarray(v)


def _host_series(v):
    """A host domain or window as NumPy's as_series makes it."""
    return numpy.polynomial.polyutils.as_series([v], trim=False)
