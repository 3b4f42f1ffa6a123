"""Statistics of labelled regions (scipy.ndimage's measurements).

Every function reads index= as SciPy does: None is one group (labels > 0),
a scalar is one group (labels == index), an array gives one result per
entry, in the entry's shape. For an array the labels are matched to the
sorted distinct entries by one searchsorted on the device; sums, counts and
centred sums are then bincounts with weights, and order statistics (minimum,
maximum, their positions, the median) come from one lexsort by (group,
value) and the ends of each group's run. Results that SciPy gives as NumPy
scalars are NumPy scalars here (one value read back), arrays are gpunp
arrays, positions are tuples of integers."""

import numpy

import gpunp

from ._morphology import as_device, host

__all__ = ["sum_labels", "sum", "mean", "variance", "standard_deviation", "minimum",
           "maximum", "median", "minimum_position", "maximum_position", "extrema",
           "center_of_mass", "histogram", "labeled_comprehension"]


def _scalar(a):
    return a.get()[()]


def _prepare(input, labels):
    input = as_device(input)
    if labels is None:
        return input, None
    labels = as_device(labels)
    try:
        input, labels = gpunp.broadcast_arrays(input, labels)
    except ValueError as e:
        raise ValueError("input and labels must have the same shape (excepting dimensions "
                         "with width 1)") from e
    return input, labels


def _group_mask(labels, index):
    """The one group of a None or scalar index."""
    return labels > 0 if index is None else labels == index


class _Bins:
    """An index array's entries matched to the labels: bin[k] is the position
    of element k's label among the sorted distinct entries, or K (no entry)."""

    def __init__(self, labels, index):
        self.index = numpy.asarray(index)
        self.sorted = numpy.unique(self.index)
        self.K = len(self.sorted)
        # where each entry of index is among the distinct ones
        self.where = numpy.searchsorted(self.sorted, self.index)
        lab = labels.reshape(-1)
        dt = numpy.result_type(lab.dtype, self.sorted.dtype)
        keys = gpunp.asarray(self.sorted.astype(dt))
        pos = gpunp.searchsorted(keys, lab.astype(dt))
        hit = gpunp.take(keys, gpunp.minimum(pos, self.K - 1)) == lab
        self.bin = gpunp.where(hit, pos, self.K)

    def spread(self, per_bin):
        """Per-distinct-entry values (a gpunp array) in the index's shape."""
        return gpunp.take(per_bin, gpunp.asarray(self.where.reshape(-1))).reshape(
            self.index.shape)

    def bincount(self, weights=None):
        return gpunp.bincount(self.bin, weights=weights, minlength=self.K + 1)


def _weights(x):
    return x.reshape(-1).astype(numpy.float64)


def _stats(input, labels, index, centered):
    """(count, sum[, centred sum of squares]) as SciPy's _stats gives them."""
    input, labels = _prepare(input, labels)

    def single(vals):
        n, total = vals.size, _scalar(vals.sum())
        if not centered:
            return n, total
        c = vals - vals.mean()
        return n, total, _scalar((c * c.conj()).sum() if c.dtype.kind == "c" else
                                 (c * c).sum())

    if labels is None:
        return single(input)
    if index is None or numpy.isscalar(index):
        return single(input[_group_mask(labels, index)])
    bins = _Bins(labels, host(index))
    counts = bins.bincount()
    if input.dtype.kind == "c":
        sums = bins.bincount(_weights(input.real)) + 1j * bins.bincount(_weights(input.imag))
    else:
        sums = bins.bincount(_weights(input))
    out = [bins.spread(counts[:bins.K]), bins.spread(sums[:bins.K])]
    if centered:
        means = sums / gpunp.maximum(counts, 1)
        c = input.reshape(-1) - gpunp.take(means, bins.bin)
        sq = (c * c.conj()).real if c.dtype.kind == "c" else c * c
        out.append(bins.spread(bins.bincount(_weights(sq))[:bins.K]))
    return tuple(out)


def sum_labels(input, labels=None, index=None):
    """The sum of each group (scipy.ndimage.sum_labels)."""
    return _stats(input, labels, index, False)[1]


def sum(input, labels=None, index=None):  # noqa: A001 (SciPy's name)
    """scipy.ndimage.sum, the same as sum_labels."""
    return sum_labels(input, labels, index)


def mean(input, labels=None, index=None):
    """The mean of each group (scipy.ndimage.mean)."""
    count, total = _stats(input, labels, index, False)
    if isinstance(total, gpunp.ndarray):
        return total / count.astype(numpy.float64)
    return total / numpy.float64(count)


def variance(input, labels=None, index=None):
    """The (population) variance of each group (scipy.ndimage.variance)."""
    count, _, centred = _stats(input, labels, index, True)
    if isinstance(centred, gpunp.ndarray):
        return centred / count.astype(numpy.float64)
    return centred / numpy.float64(count)


def standard_deviation(input, labels=None, index=None):
    """The square root of variance (scipy.ndimage.standard_deviation)."""
    v = variance(input, labels, index)
    return gpunp.sqrt(v) if isinstance(v, gpunp.ndarray) else numpy.sqrt(v)


# ---- order statistics ----------------------------------------------------------------------

def _select(input, labels, index, what):
    """SciPy's _select for the statistics named in `what` (a tuple of 'min',
    'minpos', 'max', 'maxpos', 'median'); positions are flat indices. A
    position is the first in raster order among equal values."""
    input, labels = _prepare(input, labels)
    if labels is not None and (index is None or numpy.isscalar(index)):
        keep = _group_mask(labels, index).reshape(-1)
        positions = gpunp.flatnonzero(keep)
        vals = input.reshape(-1)[positions]
    elif labels is None:
        vals = input.reshape(-1)
        positions = None
    else:
        return _select_many(input, labels, host(index), what)
    out = []
    for w in what:
        if w == "min":
            out.append(_scalar(vals.min()))
        elif w == "max":
            out.append(_scalar(vals.max()))
        elif w in ("minpos", "maxpos"):
            k = int(vals.argmin() if w == "minpos" else vals.argmax())
            out.append(k if positions is None else int(positions[k]))
        else:
            out.append(_scalar(gpunp.median(vals)))
    return out


def _select_many(input, labels, index, what):
    bins = _Bins(labels, index)
    vals = input.reshape(-1)
    inside = gpunp.flatnonzero(bins.bin < bins.K)
    b, v = bins.bin[inside], vals[inside]
    K = bins.K
    starts = gpunp.zeros(K, numpy.int64)
    ends = gpunp.zeros(K, numpy.int64)
    out = []
    ordered = None
    if v.size:
        order = gpunp.lexsort((v, b))  # stable: equal values stay in raster order
        sb, sv = b[order], v[order]
        ids = gpunp.arange(K)
        starts = gpunp.searchsorted(sb, ids, side="left")
        ends = gpunp.searchsorted(sb, ids, side="right")
        ordered = (order, sb, sv)
    found = ends > starts
    first = gpunp.minimum(starts, max(int(v.size) - 1, 0))
    last = gpunp.maximum(ends - 1, 0)
    zero = gpunp.zeros((), input.dtype)
    for w in what:
        if w in ("min", "max"):
            if ordered is None:
                res = gpunp.zeros(K, input.dtype)
            else:
                res = gpunp.where(found, ordered[2][first if w == "min" else last], zero)
            out.append(bins.spread(res))
        elif w in ("minpos", "maxpos"):
            if ordered is None:
                res = gpunp.zeros(K, numpy.int64)
            elif w == "minpos":
                res = gpunp.where(found, inside[ordered[0][first]], 0)
            else:
                # the first element in raster order with the group's largest value
                top = ordered[2][last]
                at_top = ordered[2] == gpunp.take(top, ordered[1])
                firsttop = gpunp.searchsorted(ordered[1] * 2 + at_top, gpunp.arange(K) * 2 + 1,
                                              side="left")
                res = gpunp.where(found, inside[ordered[0][gpunp.minimum(firsttop,
                                                                          v.size - 1)]], 0)
            out.append(bins.spread(res))
        else:
            out.append(bins.spread(_medians(input, labels, ordered, found, starts, ends)))
    return out


def _medians(input, labels, ordered, found, starts, ends):
    exact = input.dtype.kind in "fc"
    rdt = input.dtype if exact else numpy.float64
    if ordered is None:
        picked = gpunp.zeros(found.shape, rdt)
    else:
        sv = ordered[2]
        half = (ends - 1 - starts) // 2
        lo = gpunp.clip(starts + half, 0, sv.size - 1)
        hi = gpunp.clip(ends - 1 - half, 0, sv.size - 1)
        a, b = sv[lo], sv[hi]
        if not exact:
            a, b = a.astype(numpy.float64), b.astype(numpy.float64)
        picked = (a + b) / 2.0
    if bool(found.all()):
        return picked
    # SciPy's answer for an absent entry: the first element of its own sort of
    # every element by (label, value), the smallest value of the smallest label
    first = input[labels == labels.min()].min()
    filler = first.astype(rdt) if not exact else first
    return gpunp.where(found, picked, (filler + filler) / 2.0)


def _position(p, shape):
    """A flat position (or a gpunp array of them) as SciPy gives it: a tuple
    of integers, or a list of such tuples."""
    dims = numpy.array(shape, numpy.int64)
    prod = numpy.cumprod([1] + list(dims[:0:-1]))[::-1].astype(numpy.int64)
    if not isinstance(p, gpunp.ndarray):
        return tuple(numpy.int64(p) // prod % dims)
    return [tuple(v) for v in p.get().reshape(-1, 1) // prod % dims]


def minimum(input, labels=None, index=None):
    """The smallest value of each group (scipy.ndimage.minimum)."""
    return _select(input, labels, index, ("min",))[0]


def maximum(input, labels=None, index=None):
    """The largest value of each group (scipy.ndimage.maximum)."""
    return _select(input, labels, index, ("max",))[0]


def median(input, labels=None, index=None):
    """The median of each group (scipy.ndimage.median)."""
    return _select(input, labels, index, ("median",))[0]


def minimum_position(input, labels=None, index=None):
    """Where each group's smallest value is (scipy.ndimage.minimum_position)."""
    input = as_device(input)
    return _position(_select(input, labels, index, ("minpos",))[0], input.shape)


def maximum_position(input, labels=None, index=None):
    """Where each group's largest value is (scipy.ndimage.maximum_position)."""
    input = as_device(input)
    return _position(_select(input, labels, index, ("maxpos",))[0], input.shape)


def extrema(input, labels=None, index=None):
    """(minimum, maximum, minimum_position, maximum_position) of each group
    (scipy.ndimage.extrema)."""
    input = as_device(input)
    lo, lopos, hi, hipos = _select(input, labels, index, ("min", "minpos", "max", "maxpos"))
    return lo, hi, _position(lopos, input.shape), _position(hipos, input.shape)


def center_of_mass(input, labels=None, index=None):
    """The centre of mass of each group, input as the weights
    (scipy.ndimage.center_of_mass): a tuple, or a list of tuples."""
    input = as_device(input)
    norm = sum_labels(input, labels, index)
    results = []
    for d, n in enumerate(input.shape):
        shape = [1] * input.ndim
        shape[d] = n
        grid = gpunp.arange(n, dtype=numpy.float64).reshape(shape)
        results.append(sum_labels(input * grid, labels, index) / norm)
    if not isinstance(norm, gpunp.ndarray):
        return tuple(results)
    # SciPy's shape of the answer, whatever the index's shape: the rows of
    # the transposed (axis, *index.shape) array
    return [tuple(v) for v in numpy.array([r.get() for r in results]).T]


def labeled_comprehension(input, labels, index, func, out_dtype, default, pass_positions=False):
    """func of each group's values (and flat positions) as gpunp arrays
    (scipy.ndimage.labeled_comprehension); one call of func per entry of
    index that occurs, `default` for the others."""
    as_scalar = numpy.isscalar(index)
    input = as_device(input)
    positions = gpunp.arange(input.size).reshape(input.shape) if pass_positions else None
    if labels is None:
        if index is not None:
            raise ValueError("index without defined labels")
        args = (input.reshape(-1),) + ((positions.reshape(-1),) if pass_positions else ())
        return func(*args)
    input, labels = _prepare(input, labels)
    if index is None:
        keep = labels > 0
        args = (input[keep],) + ((positions[keep],) if pass_positions else ())
        return func(*args)
    index = numpy.atleast_1d(host(index))
    if numpy.any(index.astype(labels.dtype).astype(index.dtype) != index):
        raise ValueError(f"Cannot convert index values from <{index.dtype}> to "
                         f"<{labels.dtype}> (labels' type) without loss of precision")
    index = index.astype(labels.dtype)
    lab = labels.reshape(-1)
    keep = gpunp.flatnonzero(gpunp.logical_and(lab >= index.min(), lab <= index.max()))
    lab = lab[keep]
    order = gpunp.argsort(lab, kind="stable")
    lab = lab[order]
    take = keep[order]
    inputs = [input.reshape(-1)[take]] + ([take] if pass_positions else [])
    lo = gpunp.searchsorted(lab, gpunp.asarray(index), side="left").get()
    hi = gpunp.searchsorted(lab, gpunp.asarray(index), side="right").get()
    out = numpy.empty(index.shape, out_dtype)
    out[:] = default
    for k in range(index.size):
        if lo[k] != hi[k]:
            r = func(*[a[lo[k]:hi[k]] for a in inputs])
            out[k] = r.get() if isinstance(r, gpunp.ndarray) and out.dtype != object else r
    if as_scalar:
        return out[0]
    return out if out.dtype == object else gpunp.asarray(out)


def histogram(input, min, max, bins, labels=None, index=None):  # noqa: A002 (SciPy's names)
    """The histogram of each group over `bins` equal bins of [min, max]
    (scipy.ndimage.histogram): an array, or an object array of them."""
    edges = gpunp.linspace(min, max, bins + 1)

    def counts(vals):
        return gpunp.histogram(vals, edges)[0]

    return labeled_comprehension(input, labels, index, counts, object, None,
                                 pass_positions=False)
