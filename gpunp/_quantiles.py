"""Order statistics: median, percentile, quantile and their nan-variants,
with every method of NumPy's quantile.

The data are sorted along the axis on the device (NaNs last) and the
elements a quantile needs are gathered from there. Which elements and the
weight between them depend only on the count of values and on q: those
are host numbers, computed by the running NumPy's own table of methods
(numpy.lib._function_base_impl._QuantileMethods, _get_indexes, _get_gamma)
so every method rounds its index exactly as NumPy's does. The nan-variants
count each slice's values on the device and bring those counts (one per
output element) to the host for the same computation."""

from __future__ import annotations

import warnings

import numpy
from numpy.lib import _function_base_impl

from gpunp import _lib
from gpunp._creation import _array, asarray
from gpunp._indexing import take, take_along_axis, where
from gpunp._joining import stack
from gpunp._manipulation import broadcast_to
from gpunp._nanfunctions import nanmean
from gpunp._ndarray import ndarray
from gpunp._reduction import any as aany, mean, sum as asum
from gpunp._shaping import copyto, moveaxis
from gpunp._sorting import argsort, sort
from gpunp._statistics import _weights_for
from gpunp._ufunc import UFUNCS, _single_out

_INTP = numpy.dtype(numpy.intp)


def _along_last(a: ndarray, axis):
    """(array, axis) with the reduced axes as one (NumPy's _ureduce): the
    flattened array for None, the kept axes first and the reduced ones
    merged last for a tuple."""
    if axis is None:
        return a.reshape(-1), 0
    axes = _lib.normalize_axis_tuple(axis, a.ndim)
    if len(axes) == 1:
        return a, axes[0]
    keep = sorted(set(range(a.ndim)) - set(axes))
    m = moveaxis(a, keep, list(range(len(keep))))
    return m.reshape(m.shape[:len(keep)] + (-1,)), len(keep)


def _keepdims(r: ndarray, nd: int, axis, keepdims) -> ndarray:
    if not keepdims:
        return r
    if axis is None:
        index = (None,) * nd
    else:
        axes = _lib.normalize_axis_tuple(axis, nd)
        index = tuple(None if i in axes else slice(None) for i in range(nd))
    return r[(Ellipsis,) + index]


def _finish(r, out, nd, axis, keepdims):
    r = _keepdims(r, nd, axis, keepdims)
    if out is None:
        return r
    copyto(out, r, casting="unsafe")
    return out


def _sorted_first(a: ndarray, axis: int) -> ndarray:
    """a sorted along `axis`, that axis moved first."""
    return moveaxis(sort(a, axis=axis), axis, 0)


def _gather(s: ndarray, idx: numpy.ndarray, k, per_slice: bool) -> ndarray:
    """s[idx[j], rest...]: host indices of shape q.shape, the same for every
    slice, or (per_slice) of shape q.shape + rest; a negative one counts
    back from the slice's count of values `k`."""
    idx = numpy.asarray(idx, dtype=_INTP)
    idx = numpy.where(idx < 0, idx + numpy.asarray(k, dtype=_INTP), idx)
    if not per_slice:
        return take(s, asarray(idx), axis=0)
    rest = s.shape[1:]
    qshape = idx.shape[:idx.ndim - len(rest)]
    flat = _upload(idx.reshape((-1,) + rest))
    return take_along_axis(s, flat, axis=0).reshape(qshape + rest)


def _upload(h) -> ndarray:
    """A host array (a view or broadcast of a table) as a device array."""
    return asarray(numpy.array(h, order="C"))


def _count_values(s: ndarray, skip_nan: bool):
    """(the number of values in each slice, per slice): the axis length, or
    (nan-variant) those that are not NaN, as a host array of the slice
    shape."""
    if not skip_nan or s.dtype.kind not in "fc":
        return s.shape[0], False
    return asum(UFUNCS["equal"](s, s), axis=0, dtype=_INTP).get(), True


def _quantile_sorted(s: ndarray, q: numpy.ndarray, method: str, weak_q: bool, skip_nan: bool):
    """The q-quantiles of the sorted slices s[:, ...]: shape q.shape + rest."""
    impl = _function_base_impl
    props = impl._QuantileMethods.get(method)
    if props is None:
        raise ValueError(f"{method!r} is not a valid method. Use one of: "
                         f"{impl._QuantileMethods.keys()}")
    rest = s.shape[1:]
    if s.shape[0] == 0 and (s.dtype.kind == "f" or q.size):
        # NumPy's look at the last element (for NaNs) or its take
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    k, per_slice = _count_values(s, skip_nan)
    qq = q
    if per_slice:  # broadcast against q's dims
        k = k.reshape((1,) * q.ndim + rest)
        if q.dtype.kind == "f":
            k = k.astype(q.dtype)  # NumPy's count is a Python int: weak
        qq = q.reshape(q.shape + (1,) * len(rest))
    vidx = numpy.asanyarray(props["get_virtual_index"](k, qq))
    full = numpy.broadcast_shapes(vidx.shape, numpy.shape(k))
    if props["fix_gamma"] is None or (method == "linear" and vidx.dtype.kind in "iu"):
        result = _gather(s, numpy.broadcast_to(vidx, full), k, per_slice)
    else:
        stand = numpy.empty(0, s.dtype)  # _get_indexes reads only its dtype
        prev, nxt = impl._get_indexes(stand, vidx, k)
        gamma = numpy.asarray(impl._get_gamma(vidx, prev, props))
        lo = _gather(s, numpy.broadcast_to(prev, full), k, per_slice)
        hi = _gather(s, numpy.broadcast_to(nxt, full), k, per_slice)
        shape = full if per_slice else gamma.shape + (1,) * len(rest)
        gamma = numpy.broadcast_to(gamma, full if per_slice else gamma.shape).reshape(shape)
        if weak_q:
            # NumPy's gamma is a Python float (weak): 1 - gamma in float64,
            # both taken in the data's float dtype
            gdt = s.dtype if s.dtype.kind == "f" else numpy.dtype(numpy.float64)
            gamma = gamma.astype(numpy.float64)
            t, omt = gamma.astype(gdt), (1 - gamma).astype(gdt)
        else:  # an array of the virtual index's dtype
            t, omt = gamma, (1 - gamma).astype(gamma.dtype)
        t = _upload(t)
        omt = _upload(omt)
        upper = _upload(gamma >= 0.5)
        diff = hi - lo
        r = lo + diff * t
        r2 = UFUNCS["subtract"](hi, diff * omt, dtype=r.dtype, casting="unsafe")
        result = where(upper, r2, r)
    if s.dtype.kind in "fc" and s.shape[0]:
        last = s[-1]
        if per_slice:
            empty = (k == 0).reshape(rest)
            if empty.any():
                warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=4)
                result = where(asarray(empty), numpy.nan, result)
                if empty.flat[0]:
                    # NumPy's first slice sets the result dtype (apply_along_axis),
                    # and an all-NaN one is a NaN of the data's dtype
                    result = result.astype(s.dtype)
        elif result.ndim == 0:
            if bool(last != last):
                result = last  # NumPy's 0-d result is then the element itself
        else:
            result = where(last != last, last, result)
    return result


def _weighted_inverted_cdf(arr: ndarray, ax: int, w: ndarray, q: numpy.ndarray,
                           skip_nan: bool) -> ndarray:
    """method="inverted_cdf" with weights (NumPy's only weighted method):
    each slice sorted with its weights, their normalised running sum the
    empirical CDF, and the q-quantile the first element whose CDF reaches q
    (what NumPy's searchsorted finds, as a count of CDF values below q). The
    nan-variants give NaNs no weight; an all-NaN slice is NaN."""
    isnan = UFUNCS["isnan"]
    order = argsort(arr, axis=ax)
    s = moveaxis(take_along_axis(arr, order, axis=ax), ax, 0)
    ws = moveaxis(take_along_axis(w, order, axis=ax), ax, 0)
    n, rest = s.shape[0], s.shape[1:]
    if n == 0:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    all_nan = None
    if skip_nan and s.dtype.kind == "f":
        nan = isnan(s)
        ws = where(nan, 0, ws)
        all_nan = nan[0]  # NaNs sort last: a slice is all NaN if its first is
        ws = where(all_nan, 1, ws)  # anything finite: the result is replaced
    cdf = ws.cumsum(axis=0, dtype=numpy.float64)
    cdf = cdf / cdf[-1]
    if bool(aany(isnan(cdf[-1]))):
        raise ValueError("Weights included NaN, inf or were all zero.")
    if q.dtype.kind == "f":
        cdf = cdf.astype(q.dtype)  # NumPy compares q with the CDF in q's dtype
    if bool(aany(cdf[0] == 0)):
        # leading zero weights: q = 0 must not pick them
        cdf = where(cdf == 0, -1, cdf)
    qd = asarray(q.reshape(q.shape + (1,) * (len(rest) + 1)))
    below = asum(UFUNCS["less"](cdf, qd), axis=q.ndim, dtype=_INTP)
    idx = UFUNCS["minimum"](below, n - 1)
    flat = idx.reshape((-1,) + rest)
    r = take_along_axis(s, flat, axis=0).reshape(q.shape + rest)
    if s.dtype.kind == "f" and not skip_nan:
        last = s[-1]  # a slice holding a NaN has the NaN for every q, as NumPy's
        r = where(isnan(last), last, r)
    if all_nan is not None and bool(aany(all_nan)):
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=4)
        r = where(all_nan, numpy.nan, r)
    return r


def _q_array(q, percent: bool):
    if isinstance(q, ndarray):
        q = q.get()
    weak = type(q) in (int, float)
    # an array next (NumPy 2.2's ufuncs have no out=..., which asks for one)
    q = numpy.asanyarray(numpy.true_divide(q, 100) if percent else q)
    ok = bool(q.size == 0 or (q.min() >= 0 and q.max() <= 1))
    if not ok:
        raise ValueError("Percentiles must be in the range [0, 100]" if percent else
                         "Quantiles must be in the range [0, 1]")
    if q.ndim > 2:
        raise ValueError("q must be a scalar or 1d")
    return q, weak


def _quantile_entry(a, q, axis, out, method, keepdims, weights, percent, skip_nan):
    a = _array(a)
    if a.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    q, weak = _q_array(q, percent)
    o = _single_out(out, "quantile")
    if weights is not None:
        if method != "inverted_cdf":
            raise ValueError(f"Only method 'inverted_cdf' supports weights. Got: {method}.")
        axes = None if axis is None else _lib.normalize_axis_tuple(axis, a.ndim)
        w = broadcast_to(_weights_for(a, _array(weights), axes), a.shape)
        if bool((w < 0).any()):
            raise ValueError("Weights must be non-negative.")
        arr, ax = _along_last(a, axis)
        wa, _ = _along_last(w, axis)
        r = _weighted_inverted_cdf(arr, ax, wa, q, skip_nan)
        return _finish(r, o, a.ndim, axis, keepdims)
    if skip_nan and a.size == 0:
        return nanmean(a, axis, out=o, keepdims=keepdims)
    arr, ax = _along_last(a, axis)
    r = _quantile_sorted(_sorted_first(arr, ax), q, method, weak, skip_nan)
    return _finish(r, o, a.ndim, axis, keepdims)


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False,
             *, weights=None):
    """q-th quantiles along the axes (numpy.quantile), every NumPy method."""
    return _quantile_entry(a, q, axis, out, method, keepdims, weights, False, False)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
               keepdims=False, *, weights=None):
    """q-th percentiles along the axes (numpy.percentile), every NumPy method."""
    return _quantile_entry(a, q, axis, out, method, keepdims, weights, True, False)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                keepdims=False, *, weights=None):
    """Quantiles ignoring NaNs (numpy.nanquantile)."""
    return _quantile_entry(a, q, axis, out, method, keepdims, weights, False, True)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                  keepdims=False, *, weights=None):
    """Percentiles ignoring NaNs (numpy.nanpercentile)."""
    return _quantile_entry(a, q, axis, out, method, keepdims, weights, True, True)


def _median_entry(a, axis, out, keepdims, skip_nan):
    a = _array(a)
    o = _single_out(out, "median")
    if skip_nan and a.size == 0:
        return nanmean(a, axis, out=o, keepdims=keepdims)
    arr, ax = _along_last(a, axis)
    if arr.shape[ax] == 0:  # NumPy's mean of no values: NaN
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            r = mean(arr, axis=ax)
        return _finish(r, o, a.ndim, axis, keepdims)
    s = _sorted_first(arr, ax)
    k, per_slice = _count_values(s, skip_nan)
    kk = numpy.asarray(k)
    lo = _gather(s, numpy.maximum((kk - 1) // 2, 0), k, per_slice)
    hi = _gather(s, numpy.maximum(kk // 2, 0), k, per_slice)
    one = mean(lo.reshape((1,) + lo.shape), axis=0)
    two = mean(stack([lo, hi]), axis=0)
    r = where(asarray(kk % 2 == 1), one, two) if per_slice else (one if k % 2 else two)
    if s.dtype.kind in "fc":
        if per_slice:
            if (kk == 0).any():
                warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
                r = where(asarray(kk == 0), numpy.nan, r)
        else:
            last = s[-1]
            r = where(last != last, last, r)
    return _finish(r, o, a.ndim, axis, keepdims)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """Median along the axes (numpy.median): the mean of the middle two for
    an even count; NaN where a slice holds one."""
    return _median_entry(a, axis, out, keepdims, False)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """Median ignoring NaNs (numpy.nanmedian); an all-NaN slice gives NaN
    and a RuntimeWarning."""
    return _median_entry(a, axis, out, keepdims, True)
