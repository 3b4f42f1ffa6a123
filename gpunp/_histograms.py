"""Counting: bincount, histogram, histogram2d, histogramdd,
histogram_bin_edges.

Every count is one scatter-add on the device (gp_array_scatter_add: an
atomic add into the output on a GPU, in order on the host), each element
first given its bin by elementwise operations. Bin edges are what NumPy
computes from a few host scalars (the data's minimum and maximum, reduced
on the device, or the range), so NumPy's own histogram_bin_edges builds them
from a two-element stand-in of the data: the data never moves. The 'auto',
'fd', ... estimators of a bin width are NumPy's formulas on host scalars
from device reductions (moments, extremes, quartiles)."""

from __future__ import annotations

import builtins
import warnings

import numpy

from gpunp import _lib
from gpunp._creation import _array, asarray, zeros
from gpunp._indexing import take, where
from gpunp._joining import atleast_2d, stack
from gpunp._lib import check, ffi, lib
from gpunp._matrices import ravel_multi_index
from gpunp._quantiles import percentile
from gpunp._ndarray import _intp_arg, ndarray
from gpunp._reduction import max as amax, mean, min as amin
from gpunp._sorting import searchsorted
from gpunp._statistics import std
from gpunp._ufunc import UFUNCS

_INTP = numpy.dtype(numpy.intp)
_F64 = numpy.dtype(numpy.float64)
_logical_and, _subtract, _divide = UFUNCS["logical_and"], UFUNCS["subtract"], UFUNCS["true_divide"]


def scatter_add(target: ndarray, index: ndarray, values) -> None:
    """target[index] += values for every element of `index` (repeats add)."""
    v = values if isinstance(values, ndarray) else asarray(values, dtype=target.dtype)
    idx = ffi.new("gp_array_t *[1]", [index._h])
    check(lib.gp_array_scatter_add(target._h, 1, idx, ffi.new("int32_t[1]", [0]),
                                   lib.GP_TAKE_RAISE, v._h))


def _counts(index: ndarray, length: int, weights=None, dtype=None) -> ndarray:
    """How often each of 0..length-1 occurs in `index` (int64), or the sum
    of the `weights` at its occurrences (in `dtype`: float64 unless given)."""
    if weights is None:
        out = zeros(length, _INTP)
        scatter_add(out, index, 1)
        return out
    dt = numpy.dtype(dtype or _F64)
    out = zeros(length, dt)
    scatter_add(out, index, weights if weights.dtype == dt else weights.astype(dt))
    return out


def bincount(x, weights=None, minlength=0) -> ndarray:
    """Occurrences of each non-negative integer in `x` (numpy.bincount): int64
    counts, or float64 sums of `weights`."""
    x = _array(x)
    if x.ndim != 1:
        raise ValueError("object of too small depth for desired array" if x.ndim == 0 else
                         "object too deep for desired array")
    if x.dtype.kind not in "biu":  # uint64 is taken as int64, its top half negative
        raise TypeError(f"Cannot cast array data from {x.dtype!r} to {_INTP!r} according to "
                        f"the rule 'safe'")
    if minlength is None:
        raise TypeError("use 0 instead of None for minlength")
    minlength = _intp_arg(minlength)
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    if x.size == 0:  # NumPy looks at neither the weights nor their length then
        return zeros(minlength, _INTP)
    if x.dtype != _INTP:
        x = x.astype(_INTP)
    lo, hi = (int(v) for v in _extremes(x))
    if lo < 0:  # before any complaint about the weights, as in NumPy
        raise ValueError("'list' argument must have no negative elements")
    if weights is not None:
        weights = _array(weights)
        if weights.ndim != 1:
            raise ValueError("object of too small depth for desired array" if weights.ndim == 0
                             else "object too deep for desired array")
        if not numpy.can_cast(weights.dtype, _F64, "safe"):
            raise TypeError(f"Cannot cast array data from {weights.dtype!r} to {_F64!r} "
                            f"according to the rule 'safe'")
        if weights.shape != x.shape:
            raise ValueError("The weights and list don't have the same length.")
    return _counts(x, max(hi + 1, minlength), weights)


def _extremes(a: ndarray):
    """(min, max) of a non-empty array as NumPy scalars: one transfer."""
    h = stack([amin(a), amax(a)]).get()
    return h[0], h[1]


def _stand_in(a: ndarray) -> numpy.ndarray:
    """A host array with a's dtype and extremes: all NumPy's bin-edge rules
    read of the data when the bins are a number or a sequence."""
    if a.size == 0:
        return numpy.empty(0, a.dtype)
    return numpy.array(_extremes(a), dtype=a.dtype)


def _outer_edges(stand_in: numpy.ndarray, range):
    """NumPy's (first, last) edge of the bins: the range, or the data's
    extremes (0 and 1 for no data), widened by 1/2 each way when equal;
    NumPy's errors for a reversed or infinite range."""
    if range is not None:
        first, last = range
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (numpy.isfinite(first) and numpy.isfinite(last)):
            raise ValueError(f"supplied range of [{first}, {last}] is not finite")
    elif stand_in.size == 0:
        first, last = 0, 1
    else:
        first, last = stand_in[0], stand_in[1]
        if not (numpy.isfinite(first) and numpy.isfinite(last)):
            raise ValueError(f"autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first, last = first - 0.5, last + 0.5
    return first, last


def _unsigned_span(last, first):
    """last - first of two host scalars as NumPy's histogram takes it: a
    signed integer difference in its unsigned type (it cannot overflow)."""
    dt = numpy.result_type(last, first)
    if dt.kind == "i":
        return numpy.subtract(numpy.asarray(last, dtype=dt), numpy.asarray(first, dtype=dt),
                              casting="unsafe", dtype=numpy.dtype(f"u{dt.itemsize}"))
    return numpy.subtract(last, first, dtype=dt)


def _host(x):
    """A 0-d device result as a NumPy scalar of its dtype (one transfer)."""
    return x.get()[()] if isinstance(x, ndarray) else x


def _bin_width(name: str, a: ndarray, range):
    """NumPy's bin-width estimator `name` for non-empty data: its formulas,
    the moments and extremes reduced on the device, the rest host scalars."""
    n = a.size
    lo, hi = _extremes(a)
    ptp = _unsigned_span(hi, lo)
    if name == "sqrt":
        return ptp / numpy.sqrt(n)
    if name == "sturges":
        return ptp / (numpy.log2(n) + 1.0)
    if name == "rice":
        return ptp / (2.0 * n ** (1.0 / 3))
    if name == "scott":
        return (24.0 * numpy.pi ** 0.5 / n) ** (1.0 / 3.0) * _host(std(a))
    if name == "doane":
        if n > 2:
            sg1 = numpy.sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)))
            sigma = _host(std(a))
            if sigma > 0.0:
                temp = a - mean(a)
                _divide(temp, sigma, out=temp)
                g1 = _host(mean(UFUNCS["power"](temp, 3, out=temp)))
                return ptp / (1.0 + numpy.log2(n) + numpy.log2(1.0 + numpy.absolute(g1) / sg1))
        return 0.0
    if name == "stone":
        if n <= 1 or ptp == 0:
            return 0

        def jhat(nbins):
            p_k = histogram(a, bins=nbins, range=range)[0] / n
            return (2 - (n + 1) * float(_host(p_k.dot(p_k)))) / (ptp / nbins)
        upper = max(100, int(numpy.sqrt(n)))
        nbins = min(builtins.range(1, upper + 1), key=jhat)
        if nbins == upper:
            warnings.warn("The number of bins estimated may be suboptimal.", RuntimeWarning,
                          stacklevel=4)
        return ptp / nbins
    q = percentile(a, [75, 25]).get()  # fd and auto: the interquartile range
    fd = 2.0 * numpy.subtract(q[0], q[1]) * n ** (-1.0 / 3.0)
    if name == "fd":
        return fd
    return min(max(fd, _bin_width("sqrt", a, range) / 2), _bin_width("sturges", a, range))


_ESTIMATORS = ("auto", "doane", "fd", "rice", "scott", "sqrt", "stone", "sturges")


def _selector_bins(a: ndarray, stand, name: str, range):
    """The number of equal bins NumPy's estimator `name` gives."""
    if name not in _ESTIMATORS:
        raise ValueError(f"{name!r} is not a valid estimator for `bins`")
    first, last = _outer_edges(stand, range)
    if range is not None:
        keep = _logical_and(a >= first, a <= last)
        if not bool(keep.all()):
            a = a[keep]
    if a.size == 0:
        return 1
    width = _bin_width(name, a, range)
    if not width:
        return 1
    if a.dtype.kind in "iu" and width < 1:
        width = 1
    return int(numpy.ceil(_unsigned_span(last, first) / width))


def _prepare(a, weights):
    a = _array(a)
    if a.dtype == numpy.bool_:
        warnings.warn(f"Converting input from {a.dtype} to {numpy.uint8} for compatibility.",
                      RuntimeWarning, stacklevel=3)
        a = a.astype(numpy.uint8)
    if weights is not None:
        weights = _array(weights)
        if weights.shape != a.shape:
            raise ValueError("weights should have the same shape as a.")
        weights = weights.reshape(-1)
    return a.reshape(-1), weights


def _host_bins(bins):
    return bins.get() if isinstance(bins, ndarray) else bins


def _edges(a: ndarray, stand, bins, range, weights):
    """(bin edges on the host, n_equal_bins or None): NumPy's rules, `stand`
    a's stand-in."""
    bins = _host_bins(bins)
    n_equal = None
    if isinstance(bins, str):
        if weights is not None:
            raise TypeError("Automated estimation of the number of bins is not supported for "
                            "weighted data")
        n_equal = _selector_bins(a, stand, bins, range)
        if n_equal < 1:
            # an infinite width: NumPy's one edge (its int-bins check is not
            # reached from an estimator)
            first, last = _outer_edges(stand, range)
            dt = numpy.result_type(first, last, stand)
            if dt.kind in "iub":
                dt = numpy.result_type(dt, float)
            return numpy.linspace(first, last, n_equal + 1, endpoint=True, dtype=dt), n_equal
        bins = n_equal
    elif numpy.ndim(bins) == 0:
        try:
            n_equal = _lib.index(bins)
        except TypeError:
            pass  # NumPy's own error below
    edges = numpy.histogram_bin_edges(stand, bins=bins, range=range)
    return edges, n_equal


def histogram_bin_edges(a, bins=10, range=None, weights=None) -> ndarray:
    """The bin edges numpy.histogram would use (numpy.histogram_bin_edges)."""
    a, weights = _prepare(a, weights)
    return asarray(_edges(a, _stand_in(a), bins, range, weights)[0])


def _uniform_bin(a: ndarray, edges: numpy.ndarray, first, last, n: int):
    """(bin of each element, kept) for n equal bins: NumPy's arithmetic (a
    scaled index, corrected by one either way against the edges)."""
    keep = _logical_and(a >= first, a <= last)
    t = a.astype(edges.dtype)
    # values outside the range get bin n (dropped); they are computed as the
    # first edge so that their (unused) index stays in bounds
    t = where(keep, t, edges.dtype.type(edges[0]))
    dt = numpy.result_type(numpy.empty(0, edges.dtype), first)
    f = _subtract(t, first, dtype=dt) / _unsigned_span(last, first) * n
    idx = f.astype(_INTP)
    idx = where(idx == n, n - 1, idx)
    e = asarray(edges)
    idx = idx - (t < take(e, idx)).astype(_INTP)
    up = _logical_and(t >= take(e, idx + 1), idx != n - 1)
    idx = idx + up.astype(_INTP)
    return where(keep, idx, n)


def _bin_of(edges: ndarray, x: ndarray):
    """searchsorted(edges, x, 'right'): the number of edges <= x (NaN after
    all)."""
    return searchsorted(edges, x, side="right")


def _sequence_bin(a: ndarray, edges: numpy.ndarray):
    """Bin of each element for sorted edges, len(edges) - 1 for the ones
    outside (dropped): edges[i] <= x < edges[i+1], the last bin closed."""
    nb = len(edges) - 1
    if nb < 1:
        return zeros(a.shape, _INTP)  # no bins: everything dropped
    idx = _bin_of(asarray(edges), a) - 1
    idx = where(a == edges[-1], nb - 1, idx)
    return where(_logical_and(idx >= 0, idx < nb), idx, nb)


def _weighted_counts(idx, length, weights, ntype, via_float):
    """Counts of `idx` into `length` bins in NumPy's result dtype `ntype`:
    weights summed in float64 (via_float: NumPy's bincount) or in the
    integer type they have."""
    if weights is None:
        return _counts(idx, length)
    if ntype.kind == "c":
        out = zeros(length, ntype)
        out.real[...] = _counts(idx, length, weights.real)
        out.imag[...] = _counts(idx, length, weights.imag)
        return out
    if ntype.kind in "iu" and not via_float:
        acc = numpy.dtype(numpy.int64 if ntype.kind == "i" else numpy.uint64)
        return _counts(idx, length, weights, acc).astype(ntype)
    return _counts(idx, length, weights).astype(ntype)


def histogram(a, bins=10, range=None, density=None, weights=None):
    """Histogram of the flattened data (numpy.histogram): (counts or
    weighted sums or densities, bin edges)."""
    a, weights = _prepare(a, weights)
    stand = _stand_in(a)
    edges, n_equal = _edges(a, stand, bins, range, weights)
    ntype = _INTP if weights is None else weights.dtype
    simple = weights is None or numpy.can_cast(ntype, numpy.double) or \
        numpy.can_cast(ntype, complex)
    if not simple:
        raise TypeError(f"histogram weights of dtype {ntype} are not supported")
    if n_equal == 0:
        first, last = _outer_edges(stand, range)
        if a.size and bool(_logical_and(a >= first, a <= last).any()):
            # NumPy counts kept values into bin -1 of no bins
            raise ValueError("'list' argument must have no negative elements")
        return zeros(0, _F64 if density else ntype), asarray(edges)
    if n_equal is not None:
        first, last = _outer_edges(stand, range)
        idx = _uniform_bin(a, edges, first, last, n_equal)
        n = _weighted_counts(idx, n_equal + 1, weights, ntype, True)[:n_equal]
    else:
        if weights is not None and ntype.kind == "b" and a.size:
            # NumPy adds the weights' int64 running sum into bool counts
            raise TypeError("Cannot cast ufunc 'add' output from dtype('int64') to "
                            "dtype('bool') with casting rule 'same_kind'")
        nb = max(len(edges) - 1, 0)  # no edges: no bins, as with one edge
        idx = _sequence_bin(a, edges)
        n = _weighted_counts(idx, nb + 1, weights, ntype, False)[:nb]
    if density:
        db = asarray(numpy.array(numpy.diff(edges), float))
        return n / db / n.sum(), asarray(edges)
    return n, asarray(edges)


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """Multidimensional histogram of (N, D) points (numpy.histogramdd):
    (float64 counts, list of D edge arrays)."""
    if not (isinstance(sample, ndarray) and sample.ndim == 2):
        # NumPy's reading: a sequence of D coordinate arrays, or 1-d data
        s = sample if isinstance(sample, ndarray) else stack([_array(v) for v in sample])
        sample = atleast_2d(s).T
        if sample.ndim != 2:
            raise ValueError(f"too many values to unpack (expected 2, got {sample.ndim})")
    N, D = sample.shape
    nbin = numpy.empty(D, numpy.intp)
    edges, dedges = D * [None], D * [None]
    if weights is not None:
        weights = _array(weights)
        if weights.shape != (N,):
            raise ValueError("The weights and list don't have the same length.")
    try:
        M = len(bins)
        if M != D:
            raise ValueError("The dimension of bins must be equal to the dimension of the "
                             "sample x.")
    except TypeError:
        bins = D * [bins]
    if range is None:
        range = (None,) * D
    elif len(range) != D:
        raise ValueError("range argument must have one entry per dimension")
    lo = hi = None
    if N:
        ext = stack([amin(sample, axis=0), amax(sample, axis=0)]).get()
        lo, hi = ext[0], ext[1]
    for i in builtins.range(D):
        b = _host_bins(bins[i])
        if numpy.ndim(b) == 0:
            if b < 1:
                raise ValueError(f"`bins[{i}]` must be positive, when an integer")
            stand = numpy.empty(0, sample.dtype) if not N else numpy.array([lo[i], hi[i]])
            first, last = _outer_edges(stand, range[i])
            try:
                n = _lib.index(b)
            except TypeError as e:
                raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from e
            edges[i] = numpy.linspace(first, last, n + 1)
        elif numpy.ndim(b) == 1:
            edges[i] = numpy.asarray(b)
            if numpy.any(edges[i][:-1] > edges[i][1:]):
                raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an array")
        else:
            raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
        nbin[i] = len(edges[i]) + 1
        dedges[i] = numpy.diff(edges[i])
    counts = []
    for i in builtins.range(D):
        col = sample[:, i]
        c = _bin_of(asarray(edges[i]), col)
        counts.append(where(col == edges[i][-1], c - 1, c))
    xy = ravel_multi_index(tuple(counts), tuple(int(v) for v in nbin)) if D else None
    total = int(numpy.prod(nbin))
    if weights is not None and not numpy.can_cast(weights.dtype, _F64, "safe"):
        raise TypeError(f"Cannot cast array data from {weights.dtype!r} to {_F64!r} according "
                        f"to the rule 'safe'")
    if D:
        hist = _counts(xy, total, weights, _F64 if weights is not None else None)
    else:
        hist = asarray(numpy.zeros(1))
    hist = hist.reshape(tuple(int(v) for v in nbin)).astype(_F64)
    hist = hist[(slice(1, -1),) * D]
    if density:
        s = hist.sum()
        for i in builtins.range(D):
            shape = [1] * D
            shape[i] = int(nbin[i]) - 2
            hist = hist / asarray(dedges[i]).reshape(tuple(shape))
        hist = hist / s
    return hist, [asarray(e) for e in edges]


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """Two-dimensional histogram (numpy.histogram2d): (counts, x edges, y edges)."""
    # NumPy's first check: a scalar or 0-d array, having no len(), is a TypeError
    if len(x) != len(y):
        raise ValueError("x and y must have the same length.")
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n != 1 and n != 2:
        bins = [bins, bins]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]

