"""``real``, ``imag`` and ``angle``: NumPy's functions on the parts of complex
numbers (NumPy has no ufuncs of these names; real and imag are views)."""

from __future__ import annotations

import math

from gpunp._creation import _array
from gpunp._ndarray import ndarray
from gpunp._shaping import copyto
from gpunp._ufunc import UFUNCS


def real(val) -> ndarray:
    """The real part: a view of a complex array, the array itself otherwise."""
    return _array(val).real


def imag(val) -> ndarray:
    """The imaginary part: a view of a complex array, read-only zeros otherwise."""
    return _array(val).imag


def angle(z, deg=False) -> ndarray:
    """arctan2(imag, real), in radians or degrees; a real array's imaginary
    part is a Python 0, so its dtype sets the result's (float16 for int8)."""
    z = _array(z)
    if z.dtype.kind == "c":
        zimag, zreal = z.imag, z.real
    else:
        zimag, zreal = 0, z
    a = UFUNCS["arctan2"](zimag, zreal)
    if deg:
        a *= 180 / math.pi
    return a


def _conjugate_method(self, out=None, /):
    """The complex conjugate, elementwise (ndarray.conj/conjugate; `out`
    positional only). As NumPy's method, an array that is not complex is
    its own conjugate: the array itself, or copied into `out`."""
    if self.dtype.kind != "c":
        if out is None:
            return self
        copyto(out, self)
        return out
    return UFUNCS["conjugate"](self, out=out)

