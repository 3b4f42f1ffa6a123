"""binned_statistic, _2d and _dd: each sample's bin by searchsorted on the
edges, the bins numbered over SciPy's grid with one outlier bin each side
of every dimension, and the statistic of each bin by scatters
(``bincount``, ``ufunc.at``) or, for the median, one sort by (bin, value).
A callable statistic is called once per bin on the host's loop, as
SciPy's is."""

from __future__ import annotations

import math
from collections import namedtuple

import gpunp
from gpunp.scipy._host import as_device

BinnedStatisticResult = namedtuple("BinnedStatisticResult", ("statistic", "bin_edges", "binnumber"))
BinnedStatistic2dResult = namedtuple("BinnedStatistic2dResult",
                                     ("statistic", "x_edge", "y_edge", "binnumber"))
BinnedStatisticddResult = namedtuple("BinnedStatisticddResult",
                                     ("statistic", "bin_edges", "binnumber"))

_NAMED = ("mean", "median", "count", "sum", "std", "min", "max")


def _edges(sample, bins, range_):
    """The edges of each dimension (SciPy's rules: an int is that many equal
    bins over the range, widened by 1/2 each way when it is one point)."""
    ndim = sample.shape[1]
    try:
        nb = len(bins)
        if nb != ndim:
            raise AttributeError("The dimension of bins must be equal to the dimension of the "
                                 "sample x.")
        per_dim = list(bins)
    except TypeError:
        per_dim = [bins] * ndim
    if range_ is None:
        lo = gpunp.asnumpy(gpunp.min(sample, axis=0)) if sample.shape[0] else [0.0] * ndim
        hi = gpunp.asnumpy(gpunp.max(sample, axis=0)) if sample.shape[0] else [1.0] * ndim
        range_ = list(zip(map(float, lo), map(float, hi)))
    elif len(range_) != ndim:
        raise ValueError("range argument must have one entry per dimension")
    edges = []
    for b, (lo, hi) in zip(per_dim, range_):
        if isinstance(b, (int,)) or (hasattr(b, "ndim") and b.ndim == 0):
            b = int(b)
            if b < 1:
                raise ValueError("`bins[{}]` must be positive, when an integer".format(len(edges)))
            if lo == hi:
                lo, hi = lo - 0.5, hi + 0.5
            if not (math.isfinite(lo) and math.isfinite(hi)):
                raise ValueError(f"The range of the sample must be finite: [{lo}, {hi}]")
            edges.append(gpunp.linspace(lo, hi, b + 1))
        else:
            e = gpunp.asarray(as_device(b), dtype=gpunp.float64)
            if e.ndim != 1 or bool(gpunp.any(e[1:] < e[:-1])):
                raise ValueError("`bins[{}]` must be monotonically increasing, when an array"
                                 .format(len(edges)))
            edges.append(e)
    return edges


def _binnumbers(sample, edges):
    """Each sample's bin over the grid with outlier bins: (linear index,
    per-dimension indices)."""
    dims = [e.shape[0] + 1 for e in edges]  # bins + 2 outliers
    idx = []
    for i, e in enumerate(edges):
        x = sample[:, i]
        k = gpunp.searchsorted(e, x, side="right")
        # a value on the last edge belongs to the last bin, not the outliers
        k = gpunp.where(x == e[-1], k - 1, k)
        idx.append(k.astype(gpunp.int64))
    flat = gpunp.zeros(sample.shape[0], dtype=gpunp.int64)
    for k, n in zip(idx, dims):
        flat = flat * n + k
    return flat, idx, dims


def _per_bin(values, flat, total, statistic):
    """statistic of each row of values (V, N) over the bins: (V, total)."""
    nv = values.shape[0]
    out = gpunp.empty((nv, total), dtype=gpunp.float64)
    counts = gpunp.bincount(flat, minlength=total).astype(gpunp.float64)
    empty = counts == 0
    nan = gpunp.asarray(math.nan)
    for v in range(nv):
        x = values[v]
        if statistic == "count":
            out[v] = counts
            continue
        if callable(statistic):
            out[v] = _callable_stat(statistic, x, flat, total, counts)
            continue
        sums = gpunp.bincount(flat, weights=x, minlength=total)
        with gpunp.errstate(all="ignore"):
            mean = sums / counts
        if statistic == "sum":
            out[v] = sums
        elif statistic == "mean":
            out[v] = gpunp.where(empty, nan, mean)
        elif statistic == "std":
            d = x - mean[flat]
            var = gpunp.bincount(flat, weights=d * d, minlength=total) / gpunp.where(empty, 1,
                                                                                      counts)
            out[v] = gpunp.where(empty, nan, gpunp.sqrt(var))
        elif statistic in ("min", "max"):
            fill = math.inf if statistic == "min" else -math.inf
            r = gpunp.full(total, fill)
            (gpunp.minimum if statistic == "min" else gpunp.maximum).at(r, flat, x)
            out[v] = gpunp.where(empty, nan, r)
        else:  # median: the middle of each bin's run in an order by (bin, value)
            order = gpunp.lexsort((x, flat))
            s = x[order]
            start = gpunp.cumsum(counts) - counts
            c = counts.astype(gpunp.int64)
            lo = (start.astype(gpunp.int64) + gpunp.maximum(c - 1, 0) // 2)
            hi = (start.astype(gpunp.int64) + c // 2)
            n = s.shape[0]
            if n == 0:
                out[v] = nan
                continue
            lo, hi = gpunp.minimum(lo, n - 1), gpunp.minimum(hi, n - 1)
            out[v] = gpunp.where(empty, nan, (s[lo] + s[hi]) / 2)
    return out


def _callable_stat(fn, x, flat, total, counts):
    """fn of each bin's values: its value on an empty input for the empty
    bins (SciPy's rule), then one call per occupied bin."""
    try:
        null = float(fn(gpunp.asarray([], dtype=x.dtype)))
    except Exception:
        null = math.nan
    res = gpunp.full(total, null)
    order = gpunp.argsort(flat, kind="stable")
    s, f = x[order], flat[order]
    occupied = gpunp.asnumpy(gpunp.nonzero(counts)[0]).tolist()
    starts = gpunp.asnumpy(gpunp.searchsorted(f, gpunp.asarray(occupied, dtype=gpunp.int64)))
    c = gpunp.asnumpy(counts)
    for b, st in zip(occupied, starts.tolist()):
        res[b] = float(fn(s[st:st + int(c[b])]))
    return res


def binned_statistic_dd(sample, values, statistic="mean", bins=10, range=None,
                        expand_binnumbers=False, binned_statistic_result=None):
    """A statistic of values over the bins of a D-dimensional sample (N, D)
    (or a sequence of D arrays of length N)."""
    if statistic not in _NAMED and not callable(statistic):
        raise ValueError(f"invalid statistic {statistic!r}")
    if isinstance(sample, (list, tuple)):
        sample = gpunp.stack([as_device(s) for s in sample], axis=1)
    sample = as_device(sample).astype(gpunp.float64)
    if sample.ndim == 1:
        sample = sample[:, None]
    n = sample.shape[0]
    values = as_device(values).astype(gpunp.float64)
    one = values.ndim == 1
    values = gpunp.atleast_2d(values)
    if values.shape[-1] != n:
        raise AttributeError("The number of `values` elements must match the length of each "
                             "`sample` dimension.")
    if binned_statistic_result is None:
        edges = _edges(sample, bins, range)
    else:
        edges = list(binned_statistic_result.bin_edges)
    flat, idx, dims = _binnumbers(sample, edges)
    total = math.prod(dims)
    stat = _per_bin(values, flat, total, statistic).reshape((values.shape[0], *dims))
    core = (slice(None),) + (slice(1, -1),) * len(dims)
    stat = stat[core]
    if one:
        stat = stat[0]
    binnumber = gpunp.stack(idx) if expand_binnumbers else flat
    return BinnedStatisticddResult(stat, edges, binnumber)


def binned_statistic(x, values, statistic="mean", bins=10, range=None):
    """A statistic of values over the bins of x (1-D)."""
    try:
        len(bins)
        bins = [bins]
    except TypeError:
        pass
    if range is not None and len(range) == 2 and not hasattr(range[0], "__len__"):
        range = [range]
    x = as_device(x)
    res = binned_statistic_dd([x], values, statistic, bins, range)
    return BinnedStatisticResult(res.statistic, res.bin_edges[0], res.binnumber)


def binned_statistic_2d(x, y, values, statistic="mean", bins=10, range=None,
                        expand_binnumbers=False):
    """A statistic of values over the 2-D bins of (x, y)."""
    try:
        nb = len(bins)
    except TypeError:
        nb = 1
    if nb != 1 and nb != 2:
        bins = [bins, bins]
    res = binned_statistic_dd([as_device(x), as_device(y)], values, statistic, bins, range,
                              expand_binnumbers=expand_binnumbers)
    return BinnedStatistic2dResult(res.statistic, res.bin_edges[0], res.bin_edges[1],
                                   res.binnumber)
