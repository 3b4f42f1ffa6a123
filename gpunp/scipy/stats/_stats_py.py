"""scipy.stats' descriptive statistics on gpunp arrays: moments and means,
spreads, standard scores, trimming, frequencies. Each is a few of gpunp's
reductions (one pass each on the device); nan_policy='omit' masks the NaNs
(``_common.Masked``) instead of removing them."""

from __future__ import annotations

import math
from collections import namedtuple

import gpunp
from gpunp.scipy import special
from gpunp.scipy._host import as_device
from gpunp.scipy._version import scipy_version
from gpunp.scipy.stats._common import Masked, axis_of, check_policy, float_array, keep, nan_mask

DescribeResult = namedtuple("DescribeResult",
                            ("nobs", "minmax", "mean", "variance", "skewness", "kurtosis"))
ModeResult = namedtuple("ModeResult", ("mode", "count"))
SigmaclipResult = namedtuple("SigmaclipResult", ("clipped", "lower", "upper"))
CumfreqResult = namedtuple("CumfreqResult", ("cumcount", "lowerlimit", "binsize", "extrapoints"))
RelfreqResult = namedtuple("RelfreqResult", ("frequency", "lowerlimit", "binsize", "extrapoints"))


def _setup(a, axis, nan_policy, dtype=None):
    """(a as floats along axis, its axis, the Masked reductions over it)."""
    a = float_array(a, dtype)
    mask = nan_mask(a, nan_policy)
    ndim = a.ndim
    a, ax = axis_of(a, axis)
    if mask is not None:
        mask = mask.reshape(-1) if axis is None else mask
    return a, ax, Masked(a, ax, mask), ndim


def _nan_where(cond, x):
    return gpunp.where(cond, gpunp.asarray(math.nan, dtype=x.dtype), x)


# -- moments ---------------------------------------------------------------

def moment(a, order=1, axis=0, nan_policy="propagate", *, center=None, keepdims=False):
    """The order-th central moment (about `center` if given) along axis."""
    a, ax, m, ndim = _setup(a, axis, nan_policy)
    orders = gpunp.asnumpy(gpunp.asarray(order)) if not isinstance(order, (int, float)) else order
    scalar = isinstance(orders, (int, float)) or getattr(orders, "ndim", 1) == 0
    order_list = [float(orders)] if scalar else [float(o) for o in orders.reshape(-1)]
    for o in order_list:
        if o != int(o):
            raise ValueError("'moment' must be an integer.")
    if center is None:
        mean = m.mean(keepdims=True)
    else:
        mean = gpunp.asarray(center, dtype=a.dtype)
        if mean.ndim:
            mean = gpunp.expand_dims(mean, ax)
    out = []
    for o in order_list:
        if o == 0:
            res = m.mean(a * 0 + 1)
        elif o == 1 and center is None:
            res = m.mean(a * 0)
        else:
            res = m.central(int(o), mean)
        out.append(keep(res, ndim, axis, keepdims))
    return out[0] if scalar else gpunp.stack(out)


def skew(a, axis=0, bias=True, nan_policy="propagate", *, keepdims=False):
    """Sample skewness, m3 / m2**1.5, NaN where the slice is constant."""
    a, ax, m, ndim = _setup(a, axis, nan_policy)
    mean = m.mean(keepdims=True)
    m2, m3 = m.central(2, mean), m.central(3, mean)
    eps = gpunp.finfo(a.dtype).eps
    # SciPy's test for a constant slice: a variance below rounding of the mean
    zero = m2 <= (eps * gpunp.squeeze(mean, ax)) ** 2
    with gpunp.errstate(all="ignore"):
        vals = _nan_where(zero, m3 / m2 ** 1.5)
        if not bias:
            n = m.count()
            corrected = gpunp.sqrt((n - 1) * n) / (n - 2) * m3 / m2 ** 1.5
            vals = gpunp.where(~zero & (n > 2), corrected, vals)
    return keep(vals.astype(a.dtype), ndim, axis, keepdims)


def kurtosis(a, axis=0, fisher=True, bias=True, nan_policy="propagate", *, keepdims=False):
    """Sample kurtosis m4 / m2**2 (minus 3 when fisher), NaN where the slice
    is constant."""
    a, ax, m, ndim = _setup(a, axis, nan_policy)
    mean = m.mean(keepdims=True)
    m2, m4 = m.central(2, mean), m.central(4, mean)
    eps = gpunp.finfo(a.dtype).eps
    zero = m2 <= (eps * gpunp.squeeze(mean, ax)) ** 2
    with gpunp.errstate(all="ignore"):
        vals = _nan_where(zero, m4 / m2 ** 2)
        if not bias:
            n = m.count()
            corrected = ((n * n - 1) * m4 / m2 ** 2 - 3 * (n - 1) ** 2) / ((n - 2) * (n - 3)) + 3
            vals = gpunp.where(~zero & (n > 3), corrected, vals)
    if fisher:
        vals = vals - 3
    return keep(vals.astype(a.dtype), ndim, axis, keepdims)


def describe(a, axis=0, ddof=1, bias=True, nan_policy="propagate"):
    """nobs, (min, max), mean, variance, skewness and kurtosis along axis."""
    a = float_array(a) if as_device(a).dtype.kind not in "iu" else as_device(a)
    check_policy(nan_policy)
    if nan_policy == "omit" and nan_mask(a, nan_policy) is not None:
        raise NotImplementedError("describe(nan_policy='omit') with NaNs present: SciPy answers "
                                  "with masked arrays there, which gpunp does not have")
    nan_mask(a, nan_policy)
    a, ax = axis_of(a, axis)
    if a.shape[ax] == 0:
        raise ValueError("The input must not be empty.")
    n = a.shape[ax]
    f = float_array(a)
    m = Masked(f, ax)
    return DescribeResult(n, (gpunp.min(a, axis=ax), gpunp.max(a, axis=ax)), m.mean(),
                          m.var(ddof), skew(f, ax, bias=bias), kurtosis(f, ax, bias=bias))


# -- means -----------------------------------------------------------------

def _weights(weights, a, axis, dtype):
    if weights is None:
        return None
    w = as_device(weights).astype(dtype)
    return w.reshape(-1) if axis is None else gpunp.broadcast_to(w, a.shape)


def gmean(a, axis=0, dtype=None, weights=None, *, nan_policy="propagate", keepdims=False):
    """Geometric mean, exp(mean(log a))."""
    a, ax, m, ndim = _setup(a, axis, nan_policy, dtype)
    w = _weights(weights, a, axis, a.dtype)
    with gpunp.errstate(all="ignore"):
        logs = gpunp.log(a)
        res = gpunp.exp(m.mean(logs) if w is None else m.sum(w * logs) / m.sum(w))
    return keep(res, ndim, axis, keepdims)


def hmean(a, axis=0, dtype=None, *, weights=None, nan_policy="propagate", keepdims=False):
    """Harmonic mean; NaN (as SciPy, with its warning) if a value is negative."""
    a, ax, m, ndim = _setup(a, axis, nan_policy, dtype)
    w = _weights(weights, a, axis, a.dtype)
    with gpunp.errstate(all="ignore"):
        inv = 1 / a
        res = 1 / (m.mean(inv) if w is None else m.sum(w * inv) / m.sum(w))
        res = _nan_where(gpunp.any(a < 0, axis=ax) if m.mask is None
                         else gpunp.any((a < 0) & m.mask, axis=ax), res)
    return keep(res, ndim, axis, keepdims)


def pmean(a, p, *, axis=0, dtype=None, weights=None, nan_policy="propagate", keepdims=False):
    """Power mean (mean(a**p))**(1/p); p = 0 is the geometric mean."""
    if not isinstance(p, (int, float)) or isinstance(p, bool):
        raise ValueError("Power mean only defined for exponent of type int or float.")
    if p == 0:
        return gmean(a, axis=axis, dtype=dtype, weights=weights, nan_policy=nan_policy,
                     keepdims=keepdims)
    a, ax, m, ndim = _setup(a, axis, nan_policy, dtype)
    w = _weights(weights, a, axis, a.dtype)
    with gpunp.errstate(all="ignore"):
        ap = a ** p
        res = (m.mean(ap) if w is None else m.sum(w * ap) / m.sum(w)) ** (1.0 / p)
        res = _nan_where(gpunp.any(a < 0, axis=ax) if m.mask is None
                         else gpunp.any((a < 0) & m.mask, axis=ax), res)
    return keep(res, ndim, axis, keepdims)


# -- spread ----------------------------------------------------------------

def sem(a, axis=0, ddof=1, nan_policy="propagate", *, keepdims=False):
    """Standard error of the mean, std(ddof) / sqrt(n)."""
    a, ax, m, ndim = _setup(a, axis, nan_policy)
    with gpunp.errstate(all="ignore"):
        res = gpunp.sqrt(m.var(ddof) / m.count())
    return keep(res, ndim, axis, keepdims)


def variation(a, axis=0, nan_policy="propagate", ddof=0, *, keepdims=False):
    """Coefficient of variation, std(ddof) / mean."""
    a, ax, m, ndim = _setup(a, axis, nan_policy)
    with gpunp.errstate(all="ignore"):
        n = m.count()
        std = gpunp.sqrt(m.var(ddof))
        # SciPy: no degrees of freedom left is NaN, not the inf of 0 / 0
        res = _nan_where(n <= ddof, std / m.mean())
    return keep(res, ndim, axis, keepdims)


_IQR_SCALES = {"normal": 1.3489795003921634}  # 2 * sqrt(2) * erfinv(1/2)
_MAD_SCALES = {"normal": 0.6744897501960817}  # sqrt(2) * erfinv(1/2)
_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _scale_of(scale, table):
    if isinstance(scale, str):
        if scale.lower() not in table:
            raise ValueError(f"{scale} not a valid scale for `iqr`")
        return table[scale.lower()]
    return scale


def iqr(x, axis=None, rng=(25, 75), scale=1.0, nan_policy="propagate", interpolation="linear",
        keepdims=False):
    """Interquartile range (any percentile range `rng`), divided by scale."""
    x = float_array(x)
    mask = nan_mask(x, nan_policy)
    if len(rng) != 2:
        raise TypeError("quantile range must be two element sequence")
    if gpunp.isnan(gpunp.asarray(list(rng), dtype=gpunp.float64)).any().item():
        raise ValueError("range must not contain NaNs")
    rng = sorted(rng)
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"{interpolation} is not a valid method")
    scale = _scale_of(scale, _IQR_SCALES)
    if x.size == 0:
        shape = () if axis is None else tuple(s for i, s in enumerate(x.shape)
                                              if i != axis % x.ndim)
        return keep(gpunp.full(shape, math.nan, dtype=x.dtype), x.ndim, axis, keepdims)
    pct = gpunp.nanpercentile if mask is not None else gpunp.percentile
    lo, hi = pct(x, list(rng), axis=axis, method=interpolation, keepdims=keepdims)
    return ((hi - lo) / scale).astype(x.dtype)


def median_abs_deviation(x, axis=0, center=None, scale=1.0, nan_policy="propagate", *,
                         keepdims=False):
    """Median of |x - center(x)| along axis (center: the median), over scale."""
    x = float_array(x)
    mask = nan_mask(x, nan_policy)
    scale = _scale_of(scale, _MAD_SCALES)
    med = gpunp.nanmedian if mask is not None else gpunp.median
    center = med if center is None else center
    ndim = x.ndim
    x, ax = axis_of(x, axis)
    if x.shape[ax] == 0:
        shape = tuple(s for i, s in enumerate(x.shape) if i != ax)
        return keep(gpunp.full(shape, math.nan, dtype=x.dtype), ndim, axis, keepdims)
    with gpunp.errstate(all="ignore"):
        c = gpunp.asarray(center(x, axis=ax, keepdims=True))
        res = med(gpunp.abs(x - c), axis=ax) / scale
    return keep(res.astype(x.dtype), ndim, axis, keepdims)


def mode(a, axis=0, nan_policy="propagate", keepdims=False):
    """The most frequent value of each slice (the smallest of equals) and its
    count, by runs of the sorted slice. NaNs count as one value, as SciPy's."""
    a = as_device(a)
    if a.dtype.kind not in "biuf":
        raise TypeError("Argument `a` is not recognized as numeric.")
    mask = nan_mask(a, nan_policy)
    ndim = a.ndim
    a, ax = axis_of(a, axis)
    s = gpunp.sort(gpunp.moveaxis(a, ax, -1), axis=-1)
    n = s.shape[-1]
    if s.size == 0:
        # SciPy's empty answer (an empty slice, or no slices): NaN and a
        # count of 0, both in a's float dtype (SciPy 1.18: a count that is
        # not 0-d is int64)
        shape, dt = s.shape[:-1], (s.dtype if s.dtype.kind == "f" else gpunp.float64)
        value, count = (keep(gpunp.full(shape, v, dtype=dt), ndim, axis, keepdims)
                        for v in (math.nan, 0))
        if count.ndim and scipy_version() >= 11800:
            count = count.astype(gpunp.int64)
        return ModeResult(value, count)
    same = s[..., 1:] == s[..., :-1]
    if s.dtype.kind == "f":
        same = same | (gpunp.isnan(s[..., 1:]) & gpunp.isnan(s[..., :-1]))
    starts = gpunp.concatenate([gpunp.ones(s.shape[:-1] + (1,), dtype=bool), ~same], axis=-1)
    idx = gpunp.arange(n)
    first = gpunp.maximum.accumulate(gpunp.where(starts, idx, 0), axis=-1)
    length = idx - first + 1
    if mask is not None:
        # NaNs sort last, masked ones count nothing (a slice all NaN: NaN, 0)
        length = gpunp.where(gpunp.isnan(s), 0, length)
    end = gpunp.argmax(length, axis=-1)[..., None]
    count = gpunp.take_along_axis(length, end, axis=-1)[..., 0]
    value = gpunp.take_along_axis(s, end, axis=-1)[..., 0]
    count = count.astype(gpunp.int64)
    if mask is not None:
        value = gpunp.where(count == 0, gpunp.asarray(math.nan, dtype=value.dtype), value)
        empty = bool(gpunp.any(count == 0))
        if value.ndim or empty:
            # SciPy's 'omit' answers slice by slice and stacks the answers:
            # as float64, or in a's dtype where a slice was left empty (a
            # single slice left empty too: NaN and a count of 0.0)
            dt = value.dtype if empty else gpunp.float64
            value = value.astype(dt)
            if not (value.ndim and scipy_version() >= 11800):  # (1.18: int64 counts)
                count = count.astype(dt)
    return ModeResult(keep(value, ndim, axis, keepdims), keep(count, ndim, axis, keepdims))


# -- standard scores -------------------------------------------------------

def zmap(scores, compare, axis=0, ddof=0, nan_policy="propagate"):
    """(scores - mean(compare)) / std(compare, ddof) along axis."""
    compare = float_array(compare)
    scores = float_array(scores)
    mask = nan_mask(compare, nan_policy)
    if axis is None:
        m = Masked(compare.reshape(-1), 0, None if mask is None else mask.reshape(-1))
        mean, var = m.mean(), m.var(ddof)
    else:
        compare, ax = axis_of(compare, axis)
        m = Masked(compare, ax, mask)
        mean, var = m.mean(keepdims=True), m.var(ddof, keepdims=True)
    with gpunp.errstate(all="ignore"):
        z = (scores - mean) / gpunp.sqrt(var)
    return z.astype(gpunp.result_type(scores.dtype, compare.dtype))


def zscore(a, axis=0, ddof=0, nan_policy="propagate"):
    """Standard scores of a within each slice along axis."""
    return zmap(a, a, axis=axis, ddof=ddof, nan_policy=nan_policy)


# -- CuPy's others ---------------------------------------------------------

def entropy(pk, qk=None, base=None, axis=0, *, nan_policy="propagate", keepdims=False):
    """Shannon entropy of pk (normalised along axis), or the relative
    entropy of pk to qk, in nats or in `base`."""
    if base is not None and base <= 0:
        raise ValueError("`base` must be a positive number or `None`.")
    pk = float_array(pk)
    if qk is not None:
        qk = float_array(qk)
        try:
            shape = gpunp.broadcast_shapes(pk.shape, qk.shape)
        except ValueError:
            raise ValueError("Array shapes are incompatible for broadcasting.") from None
        dtype = gpunp.result_type(pk.dtype, qk.dtype)
        pk = gpunp.broadcast_to(pk, shape).astype(dtype)
        qk = gpunp.broadcast_to(qk, shape).astype(dtype)
    mask = nan_mask(pk if qk is None else pk + qk, nan_policy)
    ndim = pk.ndim
    pk, ax = axis_of(pk, axis)
    m = Masked(pk, ax, None if mask is None else mask.reshape(pk.shape))
    with gpunp.errstate(all="ignore"):
        pk = pk / m.sum(pk, keepdims=True)
        if qk is None:
            vec = special.entr(pk)
        else:
            qk, _ = axis_of(qk, axis)
            vec = special.rel_entr(pk, qk / m.sum(qk, keepdims=True))
        s = m.sum(vec)
        if base is not None:
            s = s / math.log(base)
    return keep(s.astype(pk.dtype), ndim, axis, keepdims)


def trim_mean(a, proportiontocut, axis=0, *, nan_policy="propagate", keepdims=False):
    """Mean of each slice after cutting proportiontocut of its sorted values
    off each end (with 'omit', of its non-NaN values)."""
    a = float_array(a)
    mask = nan_mask(a, nan_policy)
    ndim = a.ndim
    a, ax = axis_of(a, axis)
    s = gpunp.moveaxis(gpunp.sort(a, axis=ax), ax, -1)  # NaNs last
    nmax = s.shape[-1]
    n = (gpunp.full(s.shape[:-1], nmax, dtype=gpunp.int64) if mask is None
         else gpunp.sum(~gpunp.isnan(s), axis=-1))
    lowercut = gpunp.floor(proportiontocut * n).astype(gpunp.int64)
    if bool(gpunp.any(2 * lowercut > n)):
        raise ValueError("Proportion too big.")
    idx = gpunp.arange(nmax)
    kept = (idx >= lowercut[..., None]) & (idx < (n - lowercut)[..., None])
    with gpunp.errstate(all="ignore"):
        res = (gpunp.sum(gpunp.where(kept, s, 0), axis=-1).astype(s.dtype)
               / gpunp.sum(kept, axis=-1).astype(s.dtype))
        if mask is None and s.dtype.kind == "f":
            res = _nan_where(gpunp.isnan(s[..., -1]) if nmax else gpunp.zeros(res.shape, bool), res)
    return keep(res, ndim, axis, keepdims)


def boxcox_llf(lmb, data, *, axis=0, keepdims=False, nan_policy="propagate"):
    """The Box-Cox log-likelihood of data for the parameter lmb."""
    data = float_array(data)
    mask = nan_mask(data, nan_policy)
    ndim = data.ndim
    data, ax = axis_of(data, axis)
    m = Masked(data, ax, None if mask is None else mask.reshape(data.shape))
    n = m.count()
    if data.shape[ax] == 0:
        shape = tuple(k for i, k in enumerate(data.shape) if i != ax)
        return keep(gpunp.full(shape, math.nan, dtype=data.dtype), ndim, axis, keepdims)
    with gpunp.errstate(all="ignore"):
        logdata = gpunp.log(data)
        if lmb == 0:
            logvar = gpunp.log(Masked(logdata, ax, m.mask).var())
        else:
            # log var(data**lmb), the powers scaled by their largest first so
            # that none overflows; then less the log lmb**2 of the transform
            logx = lmb * logdata
            top = gpunp.max(gpunp.where(gpunp.isnan(logx), -math.inf, logx) if m.mask is not None
                            else logx, axis=ax, keepdims=True)
            top = gpunp.where(gpunp.isfinite(top), top, 0)
            y = gpunp.exp(logx - top)
            logvar = gpunp.log(Masked(y, ax, m.mask).var()) + 2 * gpunp.squeeze(top, ax) \
                - 2 * math.log(abs(lmb))
        res = (lmb - 1) * m.sum(logdata) - n / 2 * logvar
    return keep(res.astype(data.dtype), ndim, axis, keepdims)


# -- trimmed statistics ----------------------------------------------------

def _outside(a, limits, inclusive):
    """The mask of a's values outside limits; SciPy's ValueError if that is
    all of them."""
    out = gpunp.zeros(a.shape, dtype=bool)
    if limits is None:
        return out
    (lower, upper), (lower_in, upper_in) = limits, inclusive
    if lower is not None:
        out = out | ((a < lower) if lower_in else (a <= lower))
    if upper is not None:
        out = out | ((a > upper) if upper_in else (a >= upper))
    if a.size and bool(gpunp.all(out)):  # SciPy answers NaN for empty input first
        raise ValueError("No array values within given limits")
    return out


def _trimmed(a, limits, inclusive, axis, nan_policy):
    """(a as floats along its axis, ndim, Masked over the values inside limits
    and, with 'omit', not NaN)."""
    a = float_array(a)
    mask = nan_mask(a, nan_policy)
    inside = ~_outside(a, limits, inclusive)
    if mask is not None:
        inside = inside & mask
    ndim = a.ndim
    a, ax = axis_of(a, axis)
    return a, ndim, Masked(a, ax, inside.reshape(a.shape))


def tmean(a, limits=None, inclusive=(True, True), axis=None, *, nan_policy="propagate",
          keepdims=False):
    """Mean of the values within limits."""
    a, ndim, m = _trimmed(a, limits, inclusive, axis, nan_policy)
    return keep(m.mean(), ndim, axis, keepdims)


def tvar(a, limits=None, inclusive=(True, True), axis=0, ddof=1, *, nan_policy="propagate",
         keepdims=False):
    """Variance (ddof) of the values within limits."""
    a, ndim, m = _trimmed(a, limits, inclusive, axis, nan_policy)
    return keep(m.var(ddof), ndim, axis, keepdims)


def tstd(a, limits=None, inclusive=(True, True), axis=0, ddof=1, *, nan_policy="propagate",
         keepdims=False):
    """Standard deviation (ddof) of the values within limits."""
    return gpunp.sqrt(tvar(a, limits, inclusive, axis, ddof, nan_policy=nan_policy,
                           keepdims=keepdims))


def tsem(a, limits=None, inclusive=(True, True), axis=0, ddof=1, *, nan_policy="propagate",
         keepdims=False):
    """Standard error of the mean of the values within limits."""
    a, ndim, m = _trimmed(a, limits, inclusive, axis, nan_policy)
    with gpunp.errstate(all="ignore"):
        res = gpunp.sqrt(m.var(ddof) / m.count())
    return keep(res, ndim, axis, keepdims)


def _textreme(a, limit, axis, inclusive, nan_policy, keepdims, lower):
    a = as_device(a)
    if a.dtype == gpunp.bool_:
        a = a.astype(gpunp.int64)
    mask = nan_mask(a, nan_policy)
    out = _outside(a, (limit, None) if lower else (None, limit),
                   (inclusive, None) if lower else (None, inclusive))
    ndim = a.ndim
    if a.dtype.kind == "f":
        fill = math.inf if lower else -math.inf
    else:
        fill = gpunp.iinfo(a.dtype).max if lower else gpunp.iinfo(a.dtype).min
    drop = out if mask is None else out | ~mask
    x, ax = axis_of(gpunp.where(drop, gpunp.asarray(fill, dtype=a.dtype), a), axis)
    res = (gpunp.min if lower else gpunp.max)(x, axis=ax)
    empty = gpunp.all(drop.reshape(x.shape), axis=ax)
    if bool(gpunp.any(empty)):
        # a slice with nothing left is NaN, which needs a float result
        res = _nan_where(empty, float_array(res))
    return keep(res, ndim, axis, keepdims)


def tmin(a, lowerlimit=None, axis=0, inclusive=True, nan_policy="propagate", *, keepdims=False):
    """Minimum of the values at or above lowerlimit (above, if not inclusive)."""
    return _textreme(a, lowerlimit, axis, inclusive, nan_policy, keepdims, lower=True)


def tmax(a, upperlimit=None, axis=0, inclusive=True, nan_policy="propagate", *, keepdims=False):
    """Maximum of the values at or below upperlimit (below, if not inclusive)."""
    return _textreme(a, upperlimit, axis, inclusive, nan_policy, keepdims, lower=False)


def trimboth(a, proportiontocut, axis=0):
    """a's slices with proportiontocut of their values cut off each end.
    SciPy's come partitioned (kept values in no promised order); these come
    sorted."""
    a = as_device(a)
    a, ax = axis_of(a, axis)
    n = a.shape[ax]
    lowercut = int(proportiontocut * n)
    uppercut = n - lowercut
    if lowercut >= uppercut:
        raise ValueError("Proportion too big.")
    return gpunp.take(gpunp.sort(a, axis=ax), gpunp.arange(lowercut, uppercut), axis=ax)


def trim1(a, proportiontocut, tail="right", axis=0):
    """a's slices with proportiontocut of their values cut off one end
    ('right': the largest); sorted, where SciPy's come partitioned."""
    a = as_device(a)
    a, ax = axis_of(a, axis)
    n = a.shape[ax]
    if proportiontocut >= 1:
        return gpunp.take(a, gpunp.arange(0), axis=ax)
    cut = int(proportiontocut * n)
    tail = tail.lower()
    if tail not in ("right", "left"):
        raise ValueError("`tail` must be 'left' or 'right'.")
    lo, hi = (0, n - cut) if tail == "right" else (cut, n)
    return gpunp.take(gpunp.sort(a, axis=ax), gpunp.arange(lo, hi), axis=ax)


def sigmaclip(a, low=4.0, high=4.0):
    """The values of a left after repeatedly clipping those beyond low and
    high standard deviations of the mean, and the final bounds. One count a
    round is read back to decide whether to go on."""
    c = float_array(a).reshape(-1)
    c = c[~gpunp.isnan(c)] if c.dtype.kind == "f" else c
    while True:
        std, mean = gpunp.std(c), gpunp.mean(c)
        lower, upper = mean - std * low, mean + std * high
        kept = (c >= lower) & (c <= upper)
        n = int(gpunp.count_nonzero(kept))
        if n == c.size:
            return SigmaclipResult(c, lower, upper)
        c = c[kept]


# -- frequencies -----------------------------------------------------------

def percentileofscore(a, score, kind="rank", nan_policy="propagate"):
    """The percentile rank of each score within a (1-D), by kind."""
    a = float_array(a)
    if a.ndim != 1:
        a = a.reshape(-1)
    score = float_array(score)
    mask = nan_mask(a, nan_policy)
    if mask is not None:
        a = a[mask]
    if kind not in ("rank", "weak", "strict", "mean"):
        raise ValueError(f"Unrecognized kind '{kind}'. Valid options are "
                         "'rank', 'weak', 'strict' and 'mean'.")
    s = gpunp.sort(a)
    n = a.shape[0]
    left = gpunp.searchsorted(s, score, side="left").astype(gpunp.float64)
    right = gpunp.searchsorted(s, score, side="right").astype(gpunp.float64)
    with gpunp.errstate(all="ignore"):
        if kind == "rank":
            res = (left + right + (right > left)) * (50.0 / n)
        elif kind == "strict":
            res = left * (100.0 / n)
        elif kind == "weak":
            res = right * (100.0 / n)
        else:
            res = (left + right) * (50.0 / n)
    bad = gpunp.isnan(score)
    if n and bool(gpunp.isnan(s[-1])):
        bad = bad | True
    return _nan_where(bad | (n == 0), res)


def _histogram(a, numbins, defaultreallimits, weights):
    a = float_array(a).reshape(-1)
    if defaultreallimits is None:
        if a.size == 0:
            defaultreallimits = (0.0, 1.0)
        else:
            lo, hi = float(gpunp.min(a)), float(gpunp.max(a))
            s = (hi - lo) / (2.0 * (numbins - 1.0))
            defaultreallimits = (lo - s, hi + s)
    w = None if weights is None else as_device(weights)
    hist, edges = gpunp.histogram(a, bins=numbins, range=defaultreallimits, weights=w)
    binsize = edges[1] - edges[0]
    lo, hi = defaultreallimits
    extrapoints = int(gpunp.count_nonzero((a < lo) | (a > hi)))
    return hist.astype(gpunp.float64), defaultreallimits[0], binsize, extrapoints


def cumfreq(a, numbins=10, defaultreallimits=None, weights=None):
    """Cumulative histogram of a, with SciPy's default limits (half a bin
    beyond the data's range)."""
    h, lower, binsize, extra = _histogram(a, numbins, defaultreallimits, weights)
    return CumfreqResult(gpunp.cumsum(h), lower, binsize, extra)


def relfreq(a, numbins=10, defaultreallimits=None, weights=None):
    """Histogram of a divided by its number of values."""
    a = as_device(a)
    h, lower, binsize, extra = _histogram(a, numbins, defaultreallimits, weights)
    # SciPy 1.18 divides a weighted histogram by the total weight (before,
    # by the number of values, weighted or not)
    total = a.shape[0]
    if weights is not None and scipy_version() >= 11800:
        total = gpunp.sum(as_device(weights), dtype=gpunp.float64)
    return RelfreqResult(h / total, lower, binsize, extra)
