"""NumPy's type tests and value clean-ups (numpy.lib's type_check and
ufunclike): iscomplexobj, isrealobj, iscomplex, isreal, isposinf, isneginf,
fix, nan_to_num, real_if_close, common_type, isfortran, min_scalar_type.
The questions about dtypes are answered on the host from the dtype alone;
those about values are ufuncs on the device."""

from __future__ import annotations

import warnings

import numpy

from gpunp._creation import _array, zeros
from gpunp._lib import _numpy_version
from gpunp._ndarray import ndarray
from gpunp._reduction import all as _all
from gpunp._shaping import copyto
from gpunp._ufunc import UFUNCS

_isinf, _signbit, _logical_and, _logical_not = (
    UFUNCS[n] for n in ("isinf", "signbit", "logical_and", "logical_not"))
_isnan, _not_equal, _equal, _trunc, _absolute, _less = (
    UFUNCS[n] for n in ("isnan", "not_equal", "equal", "trunc", "absolute", "less"))


def _dtype_of(x) -> numpy.dtype:
    """x's dtype without moving data: a gpunp array's own, else NumPy's view."""
    dt = getattr(x, "dtype", None)
    return numpy.dtype(dt) if dt is not None else numpy.asarray(x).dtype


def iscomplexobj(x) -> bool:
    """Whether x has a complex dtype (numpy.iscomplexobj)."""
    return issubclass(_dtype_of(x).type, numpy.complexfloating)


def isrealobj(x) -> bool:
    """Whether x has a dtype that is not complex (numpy.isrealobj)."""
    return not iscomplexobj(x)


def iscomplex(x):
    """Where x has a nonzero imaginary part (numpy.iscomplex)."""
    a = _array(x)
    if a.dtype.kind != "c":
        return zeros(a.shape, bool)
    return _not_equal(a.imag, 0)


def isreal(x):
    """Where x has a zero imaginary part (numpy.isreal)."""
    a = _array(x)
    return _equal(a.imag, 0)


def _signed_inf(x, out, negative):
    a = _array(x)
    if a.dtype.kind == "c":
        # NumPy's words: the sign of a complex infinity is ambiguous
        raise TypeError("This operation is not supported for complex values because it would "
                        "be ambiguous.")
    sign = _signbit(a) if negative else _logical_not(_signbit(a))
    return _logical_and(_isinf(a), sign, out=out)


def isposinf(x, out=None):
    """Where x is +inf (numpy.isposinf)."""
    return _signed_inf(x, out, False)


def isneginf(x, out=None):
    """Where x is -inf (numpy.isneginf)."""
    return _signed_inf(x, out, True)


def fix(x, out=None):
    """Rounds toward zero (numpy.fix): trunc, which gives the same values
    and dtypes (integers stay integers). Deprecated where the running NumPy
    deprecates it (2.5)."""
    if _numpy_version() >= 20500:
        warnings.warn("numpy.fix is deprecated. Use numpy.trunc instead, which is faster "
                      "and follows the Array API standard.", DeprecationWarning, stacklevel=2)
    return _trunc(_array(x), out=out)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN to `nan`, +-inf to `posinf`/`neginf` (the dtype's largest
    finite values by default), in both parts of a complex array
    (numpy.nan_to_num); in place with copy=False."""
    a = _array(x)
    if a.dtype.kind not in "fc":
        return a.copy() if copy else a
    if copy and a is x:
        a = a.copy()
    parts = (a.real, a.imag) if a.dtype.kind == "c" else (a,)
    info = numpy.finfo(parts[0].dtype)
    big = info.max if posinf is None else posinf
    small = info.min if neginf is None else neginf
    for p in parts:
        # the masks of the input, as NumPy's: a `nan` that overflows the dtype
        # (1e300 in float16) stays inf
        masks = _isnan(p), isposinf(p), isneginf(p)
        for value, mask in zip((nan, big, small), masks):
            copyto(p, value, casting="unsafe", where=mask)
    return a


def real_if_close(a, tol=100):
    """The real part if every imaginary part is within `tol` (in machine
    epsilons when tol > 1) of zero, else `a` (numpy.real_if_close)."""
    a = _array(a)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = numpy.finfo(a.dtype).eps * tol
    return a.real if bool(_all(_less(_absolute(a.imag), tol))) else a


def common_type(*arrays):
    """The inexact scalar type the arrays have in common (numpy.common_type),
    from their dtypes."""
    return numpy.common_type(*(numpy.empty(0, _dtype_of(x)) for x in arrays))


def isfortran(a) -> bool:
    """Whether `a` is Fortran-contiguous and not C-contiguous (numpy.isfortran)."""
    if not isinstance(a, ndarray):
        return numpy.isfortran(a)
    return bool(a.flags.f_contiguous and not a.flags.c_contiguous)


def min_scalar_type(a):
    """The smallest dtype that holds `a` (numpy.min_scalar_type): of a value
    for a 0-d array (copied to the host), of the dtype for any other."""
    if isinstance(a, ndarray):
        a = a.get() if a.ndim == 0 else numpy.empty(0, a.dtype)
    return numpy.min_scalar_type(a)
