"""Statistics built from the reductions and ufuncs: var, std (NumPy's
two-pass algorithm: the mean, then the sum of squared deviations) and ptp.
Every step is an engine operation, so they run on every backend."""

from __future__ import annotations

import math
import warnings

import numpy

from gpunp import _lib
from gpunp._ndarray import ndarray
from gpunp._reduction import _no_where, max as _max, min as _min, sum as _sum
from gpunp._ufunc import UFUNCS, _array, _single_out

_subtract, _multiply, _add = UFUNCS["subtract"], UFUNCS["multiply"], UFUNCS["add"]
_divide, _sqrt = UFUNCS["true_divide"], UFUNCS["sqrt"]


def _reduced_count(a, axis) -> int:
    if axis is None:
        return a.size
    axes = _lib.normalize_axis_tuple(axis, a.ndim)
    return math.prod(a.shape[d] for d in axes)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    """Variance over the given axes (numpy.var): integers in float64; the
    result of a complex array is real."""
    _no_where(where, "var")
    if mean is not None:
        raise NotImplementedError("var with mean= is not supported yet")
    if correction is not None:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    a = _array(a)
    o = _single_out(out, "var")
    n = _reduced_count(a, axis)
    if ddof >= n:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
    if dtype is None and a.dtype.kind in "biu":
        dtype = numpy.float64
    m = _sum(a, axis=axis, dtype=dtype, keepdims=True)
    m = _divide(m, n, out=m, casting="unsafe")
    x = _subtract(a, m)
    if x.dtype.kind == "c":
        re, im = x.real, x.imag
        sq = _add(_multiply(re, re), _multiply(im, im))
    else:
        sq = _multiply(x, x, out=x)
    r = _sum(sq, axis=axis, dtype=dtype, out=o, keepdims=keepdims)
    return _divide(r, max(n - ddof, 0), out=r, casting="unsafe")


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    """Standard deviation over the given axes (numpy.std): the square root of var."""
    r = var(a, axis, dtype, out, ddof, keepdims, where=where, mean=mean, correction=correction)
    return _sqrt(r, out=r, casting="unsafe")


def ptp(a, axis=None, out=None, keepdims=False) -> ndarray:
    """Range of values (maximum - minimum) over the given axes (numpy.ptp)."""
    a = _array(a)
    o = _single_out(out, "ptp")
    hi = _max(a, axis=axis, keepdims=keepdims)
    lo = _min(a, axis=axis, keepdims=keepdims)
    return _subtract(hi, lo, out=o)


def _method(fn):
    # NumPy's methods take no correction=
    def method(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
               mean=None):
        return fn(self, axis, dtype, out, ddof, keepdims, where=where, mean=mean)
    method.__name__ = fn.__name__
    method.__doc__ = fn.__doc__
    return method


for _fn in (var, std):
    setattr(ndarray, _fn.__name__, _method(_fn))
