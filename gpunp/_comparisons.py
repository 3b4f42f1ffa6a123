"""Comparisons and bounds: isclose, allclose, array_equal, array_equiv,
clip, round/around, composed of the engine's elementwise operations (NaN
is x != x; finite is x - x == 0, false for infinities and NaN)."""

from __future__ import annotations

import builtins

import numpy

from gpunp import _lib
from gpunp._creation import _array, empty
from gpunp._dtypes import result_type
from gpunp._indexing import where
from gpunp._ndarray import ndarray
from gpunp._shaping import copyto
from gpunp._ufunc import UFUNCS

_NO_VALUE = numpy._NoValue
_abs, _less_equal, _equal, _not_equal = (UFUNCS[n] for n in ("absolute", "less_equal", "equal",
                                                              "not_equal"))
_and, _or = UFUNCS["logical_and"], UFUNCS["logical_or"]


def _operand(x):
    return x if isinstance(x, (int, float, complex)) else _array(x)


def _isnan(x):
    return _not_equal(x, x)


def _isfinite(x):
    return _equal(x - x, 0)


def isclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    """|a - b| <= atol + rtol * |b| elementwise, with b finite, or a == b
    (numpy.isclose); NaNs equal with equal_nan."""
    x, y, atol, rtol = (_operand(v) for v in (a, b, atol, rtol))
    if isinstance(y, ndarray):
        dt = numpy.result_type(y.dtype, 1.0)
        if y.dtype != dt:
            y = y.astype(dt)
    elif isinstance(y, int):
        y = float(y)
    if not isinstance(x, ndarray) and not isinstance(y, ndarray):
        x = _array(x)
    close = _and(_less_equal(_abs(x - y), atol + rtol * _abs(y)), _isfinite(y))
    r = _or(close, _equal(x, y))
    if equal_nan:
        r = _or(r, _and(_isnan(x), _isnan(y)))
    return r


def allclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False) -> bool:
    """Whether every element is close (numpy.allclose)."""
    return builtins.bool(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan).all())


def array_equal(a1, a2, equal_nan=False) -> bool:
    """Same shape and elements (numpy.array_equal); NaNs equal with equal_nan."""
    a1, a2 = _array(a1), _array(a2)
    if a1.shape != a2.shape:
        return False
    eq = _equal(a1, a2)
    if equal_nan and (a1.dtype.kind in "fc" or a2.dtype.kind in "fc"):
        eq = _or(eq, _and(_isnan(a1), _isnan(a2)))
    return builtins.bool(eq.all())


def array_equiv(a1, a2) -> bool:
    """Equal after broadcasting (numpy.array_equiv); False where the shapes
    do not broadcast."""
    a1, a2 = _array(a1), _array(a2)
    try:
        numpy.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return builtins.bool(_equal(a1, a2).all())


def _drop_unreachable(a: ndarray, lo, hi):
    """NumPy 2's reading of Python int bounds of an integer array: a bound
    at or past the dtype's own limit bounds nothing and is dropped (another
    out-of-range int is the ufunc's OverflowError)."""
    if a.dtype.kind in "iu":
        info = numpy.iinfo(a.dtype)
        if type(lo) is int and lo <= int(info.min):
            lo = None
        if type(hi) is int and hi >= int(info.max):
            hi = None
    return lo, hi


def clip(a, a_min=_NO_VALUE, a_max=_NO_VALUE, out=None, *, min=_NO_VALUE, max=_NO_VALUE,
         **kwargs):
    """Values limited to [a_min, a_max] (numpy.clip: either bound may be
    None, NaN propagates; NumPy 2's min=/max= keywords)."""
    if min is not _NO_VALUE:
        if a_min is not _NO_VALUE:
            raise ValueError("Passed more than one argument for the same bound: a_min and min")
        a_min = min
    if max is not _NO_VALUE:
        if a_max is not _NO_VALUE:
            raise ValueError("Passed more than one argument for the same bound: a_max and max")
        a_max = max
    a_min = None if a_min is _NO_VALUE else a_min
    a_max = None if a_max is _NO_VALUE else a_max
    a = _array(a)
    lo, hi = (v if v is None or _lib.is_scalar(v) else _array(v) for v in (a_min, a_max))
    lo, hi = _drop_unreachable(a, lo, hi)
    if lo is None and hi is None:  # NumPy's positive, with its keywords (bool has no loop)
        return UFUNCS["positive"](a, out=out, **kwargs)
    if hi is None:
        return UFUNCS["maximum"](a, lo, out=out, **kwargs)
    if lo is None:
        return UFUNCS["minimum"](a, hi, out=out, **kwargs)
    # NumPy's clip is one ufunc, whose loop all three operands resolve: an
    # int8 array with 128 and 0.0 is clipped in float64, where maximum(a,
    # 128) alone would overflow int8
    inner = {k: kwargs[k] for k in ("dtype", "casting") if k in kwargs}
    if "dtype" not in inner and "signature" not in kwargs:
        inner["dtype"] = result_type(a, lo, hi)
    return UFUNCS["minimum"](UFUNCS["maximum"](a, lo, **inner), hi, out=out, **kwargs)


def _rint(y: ndarray) -> ndarray:
    """Round half to even of a real float array: floor, then up where the
    remainder is over a half or a half with an odd floor; infinities and
    NaN as they are, zeros keeping the sign of y."""
    fl = UFUNCS["floor_divide"](y, 1)
    frac = y - fl
    odd = _equal(UFUNCS["remainder"](fl, 2), 1)
    up = _or(UFUNCS["greater"](frac, 0.5), _and(_equal(frac, 0.5), odd))
    r = where(up, fl + 1, fl)
    r = where(_equal(r, 0), y * 0, r)  # -0.4 rounds to -0.0, as rint
    return where(_isfinite(y), r, y)


def _power_of_ten(n: int) -> float:
    """10**n as NumPy's round makes its factor: exact to 1e9, then products
    by ten (which round differently from 10.0**n past 1e22), inf past 1e308."""
    if n < 9:
        return 10.0 ** n
    f = 1e9
    for _ in range(min(n - 9, 400)):  # inf long before the 400th
        f *= 10.0
    return f


def _round_real(x: ndarray, decimals: int) -> ndarray:
    if decimals >= 0:
        f = _power_of_ten(decimals)
        return UFUNCS["true_divide"](_rint(x * f), f, dtype=x.dtype, casting="unsafe")
    f = _power_of_ten(-decimals)
    return UFUNCS["multiply"](_rint(x / f), f, dtype=x.dtype, casting="unsafe")


def round(a, decimals=0, out=None):  # noqa: A001 - NumPy's name
    """Round to the given number of decimals, halves to even (numpy.round):
    integers are returned unchanged for decimals >= 0; complex numbers
    round each part."""
    a = _array(a)
    decimals = _lib.c_int(decimals)  # a C int argument, no float
    if decimals == -(1 << 31):
        decimals = -((1 << 31) - 1)  # NumPy negates INT_MIN into INT_MAX
    if a.dtype.kind == "b":
        # NumPy rounds bools by the float16 loop of rint; other decimals
        # scale them into a bool output, which its casting refuses
        if decimals:
            raise TypeError("Cannot cast ufunc 'multiply' output from dtype('float64') to "
                            "dtype('bool') with casting rule 'same_kind'")
        r = a.astype(numpy.float16)
    elif a.dtype.kind in "iu":
        if decimals >= 0:
            r = a.copy()
        else:
            r = _round_real(a.astype(numpy.float64), decimals).astype(a.dtype)
    elif a.dtype.kind == "c":
        r = empty(a.shape, a.dtype)
        r.real[...] = _round_real(a.real, decimals)
        r.imag[...] = _round_real(a.imag, decimals)
    else:
        r = _round_real(a, decimals)
    if out is None:
        return r
    copyto(out, r, casting="unsafe")
    return out


around = round


def _clip_method(self, min=None, max=None, out=None, **kwargs):
    return clip(self, min, max, out=out, **kwargs)


def _round_method(self, decimals=0, out=None):
    return round(self, decimals, out)

