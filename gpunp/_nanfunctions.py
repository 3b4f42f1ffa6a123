"""The NaN-ignoring reductions and scans (numpy.nansum ... numpy.nancumprod):
NaNs are replaced by the operation's neutral value (as NumPy's
nanfunctions do) and the plain reduction runs on the device. Where a slice
is all NaN NumPy warns or raises: the test is one reduction to a bool, the
only value that comes to the host.

The engine's reductions take no `where=`: it is composed here the same way,
the masked-out elements replaced by the neutral value."""

from __future__ import annotations

import warnings

import numpy

from gpunp import _lib
from gpunp._creation import _array
from gpunp._indexing import where as _where
from gpunp._ndarray import ndarray
from gpunp._reduction import (
    _NO_VALUE, all as _all, any as _any, argmax as _argmax, argmin as _argmin, cumprod as _cumprod,
    cumsum as _cumsum, max as _max, mean, min as _min, prod as _prod, sum as _sum)
from gpunp._shaping import copyto
from gpunp._statistics import _reduced_count, var as _var
from gpunp._ufunc import UFUNCS, _single_out, extreme_value, where_mask

_not_equal, _logical_not, _logical_or = (UFUNCS[n] for n in ("not_equal", "logical_not",
                                                               "logical_or"))
_subtract, _multiply, _divide, _sqrt = (UFUNCS[n] for n in ("subtract", "multiply",
                                                             "true_divide", "sqrt"))


def isnan_mask(a: ndarray):
    """Where `a` is NaN (for complex: either part), or None for a dtype
    that holds no NaN."""
    if a.dtype.kind not in "fc":
        return None
    return _not_equal(a, a)


def _mask_where(a, mask, where):
    """The elements of `a` to leave out: the NaNs (`mask`) and what `where`
    excludes."""
    if where is True:
        return mask
    off = _logical_not(where_mask(where, a.shape))
    return off if mask is None else _logical_or(mask, off)


def _replaced(a: ndarray, value, where=True):
    """(a with the NaNs and the masked-out elements replaced by `value`, the
    mask of the replaced ones or None)."""
    mask = _mask_where(a, isnan_mask(a), where)
    if mask is None:
        return a, None
    return _where(mask, value, a), mask


def _keep_out(r, out):
    """`r` written into `out` (NumPy's functions return their out=)."""
    if out is None or r is out:
        return r
    copyto(out, r, casting="unsafe")
    return out


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NO_VALUE, where=True):
    """Sum treating NaNs as zero (numpy.nansum)."""
    a, _ = _replaced(_array(a), 0, where)
    return _sum(a, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NO_VALUE, where=True):
    """Product treating NaNs as one (numpy.nanprod)."""
    a, _ = _replaced(_array(a), 1, where)
    return _prod(a, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial)


def _nan_extreme(a, axis, out, keepdims, initial, where, maximum):
    name = "fmax" if maximum else "fmin"
    a = _array(a)
    o = _single_out(out, "nanmax" if maximum else "nanmin")
    if axis is not None and not (a.ndim == 0 and axis in (0, -1)):
        # NumPy checks the axes first, as its fmin.reduce reads them
        _lib.normalize_axis_tuple(axis, a.ndim, error=ValueError)
    if where is not True and initial is _NO_VALUE:
        raise ValueError(f"reduction operation '{name}' does not have an identity, so to use "
                         f"a where mask one has to specify 'initial'")
    nan = isnan_mask(a)
    filled, left_out = _replaced(a, extreme_value(a.dtype, not maximum), where)
    reduce = _max if maximum else _min
    if nan is None:
        return reduce(filled, axis=axis, out=o, keepdims=keepdims, initial=initial)
    if a.size == 0:
        # NumPy's message for a reduction without identity over no elements
        return reduce(a, axis=axis, out=o, keepdims=keepdims, initial=initial)
    r = reduce(filled, axis=axis, keepdims=keepdims, initial=initial)
    if initial is _NO_VALUE:
        all_nan = _all(nan, axis=axis, keepdims=keepdims)
        if bool(_any(all_nan)):
            warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
            r = _where(all_nan, numpy.nan, r)
    elif bool(_any(isnan_mask(r))):
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
    return _keep_out(r, o)


def nanmin(a, axis=None, out=None, keepdims=False, initial=_NO_VALUE, where=True):
    """Minimum ignoring NaNs (numpy.nanmin); an all-NaN slice gives NaN and
    a RuntimeWarning."""
    return _nan_extreme(a, axis, out, keepdims, initial, where, False)


def nanmax(a, axis=None, out=None, keepdims=False, initial=_NO_VALUE, where=True):
    """Maximum ignoring NaNs (numpy.nanmax); an all-NaN slice gives NaN and
    a RuntimeWarning."""
    return _nan_extreme(a, axis, out, keepdims, initial, where, True)


def _nan_arg(a, axis, out, keepdims, maximum):
    a = _array(a)
    # NumPy fills with inf or -inf, inf+0j for complex (nan+nanj and inf+0j tie
    # at the first)
    filled, mask = _replaced(a, -numpy.inf if maximum else numpy.inf)
    if mask is not None and mask.size and bool(_any(_all(mask, axis=axis))):
        raise ValueError("All-NaN slice encountered")
    return (_argmax if maximum else _argmin)(filled, axis=axis, out=out, keepdims=keepdims)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    """Index of the minimum ignoring NaNs (numpy.nanargmin); ValueError for
    an all-NaN slice."""
    return _nan_arg(a, axis, out, keepdims, False)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """Index of the maximum ignoring NaNs (numpy.nanargmax); ValueError for
    an all-NaN slice."""
    return _nan_arg(a, axis, out, keepdims, True)


def nancumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum treating NaNs as zero (numpy.nancumsum)."""
    a, _ = _replaced(_array(a), 0)
    return _cumsum(a, axis=axis, dtype=dtype, out=out)


def nancumprod(a, axis=None, dtype=None, out=None):
    """Cumulative product treating NaNs as one (numpy.nancumprod)."""
    a, _ = _replaced(_array(a), 1)
    return _cumprod(a, axis=axis, dtype=dtype, out=out)


def _check_inexact(dtype, out):
    if dtype is not None and numpy.dtype(dtype).kind not in "fc":
        raise TypeError("If a is inexact, then dtype must be inexact")
    if out is not None and out.dtype.kind not in "fc":
        raise TypeError("If a is inexact, then out must be inexact")


def _divide_by_count(x, count, out=None):
    """x / count in x's dtype (NumPy's rule for the nan-means: the count's
    int64 does not widen the result)."""
    return _divide(x, count, out=x if out is None else out, casting="unsafe")


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """Mean ignoring NaNs (numpy.nanmean); an all-NaN slice gives NaN and a
    RuntimeWarning."""
    a = _array(a)
    if a.dtype.kind not in "fc":
        if where is True:
            if _reduced_count(a, axis) == 0:
                warnings.warn("Mean of empty slice.", RuntimeWarning, stacklevel=2)
            return mean(a, axis=axis, dtype=dtype, out=out, keepdims=keepdims)
        a = a.astype(dtype or numpy.float64)  # numpy.mean's where=: the same path
    filled, mask = _replaced(a, 0, where)
    o = _single_out(out, "nanmean")
    _check_inexact(dtype, o)
    count = _sum(_logical_not(mask), axis=axis, dtype=numpy.intp, keepdims=keepdims)
    total = _sum(filled, axis=axis, dtype=dtype, keepdims=keepdims)
    r = _divide_by_count(total, count, o)
    if bool(_any(count == 0)):
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=2)
    return r


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
           correction=None):
    """Variance ignoring NaNs (numpy.nanvar): ddof/correction, dtype, out,
    keepdims, where, mean; a float slice with no more than ddof values gives
    NaN and a RuntimeWarning (an integer one is numpy.var's, as in NumPy)."""
    a = _array(a)
    if correction is not None:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    if a.dtype.kind not in "fc":
        # no NaN to ignore: NumPy's var itself, whose slice with no more than
        # ddof values divides by zero (inf) where this path gives NaN
        return _var(a, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims,
                    where=where, mean=mean)
    filled, mask = _replaced(a, 0, where)
    o = _single_out(out, "nanvar")
    _check_inexact(dtype, o)
    count = _sum(_logical_not(mask), axis=axis, dtype=numpy.intp, keepdims=True)
    if mean is None:
        m = _divide_by_count(_sum(filled, axis=axis, dtype=dtype, keepdims=True), count)
    else:
        m = _array(mean)
    # deviations in a's dtype, as NumPy subtracts into its copy of a
    dev = _subtract(filled, m, casting="unsafe", out=filled)
    dev = _where(mask, 0, dev)
    if dev.dtype.kind == "c":  # NumPy's product with the conjugate (fused multiply-adds)
        sq = _multiply(dev, UFUNCS["conjugate"](dev)).real
    else:
        sq = _multiply(dev, dev)
    v = _sum(sq, axis=axis, dtype=dtype, keepdims=keepdims)
    if not keepdims:
        count = count.reshape(v.shape)
    dof = _subtract(count, ddof)
    bad = dof <= 0
    v = _divide(v, dof, out=v, casting="unsafe")
    if bool(_any(bad)):
        warnings.warn("Degrees of freedom <= 0 for slice.", RuntimeWarning, stacklevel=2)
        v = _where(bad, numpy.nan, v)
    return _keep_out(v, o)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
           correction=None):
    """Standard deviation ignoring NaNs (numpy.nanstd): the square root of nanvar."""
    v = nanvar(a, axis, dtype, out, ddof, keepdims, where=where, mean=mean, correction=correction)
    return _sqrt(v, out=v, casting="unsafe")
