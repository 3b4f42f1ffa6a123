"""numpy.emath: square roots, logarithms, powers and inverse sines and
cosines whose results are complex where the real functions leave their
domain (sqrt(-1) is 1j, not NaN). Whether any element is outside the domain
is one reduction whose answer comes to the host: it decides the result's
dtype, as in NumPy."""

from __future__ import annotations

import numpy

from gpunp._creation import _array
from gpunp._type_check import isreal
from gpunp._ufunc import UFUNCS

__all__ = ["sqrt", "log", "log2", "logn", "log10", "power", "arccos", "arcsin", "arctanh"]

_SMALL = (numpy.single, numpy.byte, numpy.short, numpy.ubyte, numpy.ushort, numpy.csingle)


def _complex(a):
    """A copy in the smallest complex type NumPy's emath picks: complex64
    for single precision and 8- and 16-bit integers, else complex128."""
    small = issubclass(a.dtype.type, _SMALL)
    return a.astype(numpy.complex64 if small else numpy.complex128)


def _real_where(x, outside):
    """Whether any real element (a complex one with no imaginary part too)
    is `outside` the domain."""
    return bool((isreal(x) & outside(x)).any())


def _negative_to_complex(x):
    x = _array(x)
    return _complex(x) if _real_where(x, lambda v: v < 0) else x


def _negative_int_to_float(x):
    x = _array(x)
    return x * 1.0 if _real_where(x, lambda v: v < 0) else x


def _beyond_one_to_complex(x):
    x = _array(x)
    return _complex(x) if _real_where(x, lambda v: UFUNCS["absolute"](v) > 1) else x


def sqrt(x):
    """The square root, complex for negative reals (numpy.emath.sqrt)."""
    return UFUNCS["sqrt"](_negative_to_complex(x))


def log(x):
    """The natural logarithm, complex for negative reals (numpy.emath.log)."""
    return UFUNCS["log"](_negative_to_complex(x))


def log10(x):
    """The base-10 logarithm, complex for negative reals (numpy.emath.log10)."""
    return UFUNCS["log10"](_negative_to_complex(x))


def log2(x):
    """The base-2 logarithm, complex for negative reals (numpy.emath.log2)."""
    return UFUNCS["log2"](_negative_to_complex(x))


def logn(n, x):
    """The base-n logarithm of x, log(x) / log(n) (numpy.emath.logn)."""
    return log(x) / log(n)


def power(x, p):
    """x ** p, complex for negative real x; negative integer powers in
    float (numpy.emath.power)."""
    return UFUNCS["power"](_negative_to_complex(x), _negative_int_to_float(p))


def arccos(x):
    """The inverse cosine, complex where |x| > 1 (numpy.emath.arccos)."""
    return UFUNCS["arccos"](_beyond_one_to_complex(x))


def arcsin(x):
    """The inverse sine, complex where |x| > 1 (numpy.emath.arcsin)."""
    return UFUNCS["arcsin"](_beyond_one_to_complex(x))


def arctanh(x):
    """The inverse hyperbolic tangent, complex where |x| > 1
    (numpy.emath.arctanh)."""
    return UFUNCS["arctanh"](_beyond_one_to_complex(x))
