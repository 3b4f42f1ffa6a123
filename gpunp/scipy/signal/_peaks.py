"""Peak finding: local maxima (flat tops included) from the runs of equal
values, their properties and SciPy's selection criteria, and relative
extrema. Each peak's bases and width crossings are found at once for every
peak by binary lifting over sparse tables of window maxima and minima
(log2(N) gathers), not by walking the signal from each peak."""

from __future__ import annotations

import math
import warnings

import numpy as np

import gpunp as gp
from gpunp.scipy._version import scipy_version


class PeakPropertyWarning(RuntimeWarning):
    """Calculated property of a peak has unexpected value."""


def _x(value):
    x = gp.asarray(value).astype(np.float64)
    if x.ndim != 1:
        raise ValueError("`x` must be a 1-D array")
    return x


def _peaks_arg(value):
    v = np.asarray(gp.asnumpy(gp.asarray(value)))
    if v.size == 0:
        v = np.array([], dtype=np.intp)
    try:
        v = v.astype(np.intp, casting="safe", copy=False)
    except TypeError as e:
        raise TypeError("cannot safely cast `peaks` to dtype('intp')") from e
    if v.ndim != 1:
        raise ValueError("`peaks` must be a 1-D array")
    return v


def _wlen_arg(value):
    if value is None:
        return -1
    if 1 < value:
        return int(math.ceil(value)) if isinstance(value, float) else int(value)
    raise ValueError(f"`wlen` must be larger than 1, was {value}")


def _local_maxima(x):
    """Peaks (middles of flat tops, rounded down), left and right edges: the
    runs of equal values higher than both neighbouring runs."""
    n = x.shape[0]
    if n < 3:
        e = np.array([], dtype=np.intp)
        return e, e, e
    change = gp.nonzero(x[1:] != x[:-1])[0]  # a run ends at each change
    ends = np.append(gp.asnumpy(change), n - 1).astype(np.intp)
    starts = np.concatenate([[0], ends[:-1] + 1]).astype(np.intp)
    if len(ends) < 3:
        e = np.array([], dtype=np.intp)
        return e, e, e
    v = x[gp.asarray(starts)]
    peak = (v[1:-1] > v[:-2]) & (v[1:-1] > v[2:])
    k = gp.asnumpy(gp.nonzero(peak)[0]) + 1
    left, right = starts[k], ends[k]
    return ((left + right) // 2).astype(np.intp), left, right


def _tables(x, op):
    """table[k][i] = op over x[i : i + 2^k] (where it fits), k = 0.."""
    t = [x]
    w = 1
    while 2 * w <= x.shape[0]:
        prev = t[-1]
        t.append(op(prev[:-w], prev[w:]))
        w *= 2
    return t


def _lift_left(tables, start, lo, keep):
    """For each i = start (an index array), the least j in [lo, start] such
    that keep(table value of the block) holds for all of [j, start]: blocks
    of 2^k are taken from the right while keep holds (binary lifting)."""
    j = start + 1  # x[j:start + 1] is known to satisfy keep
    for k in range(len(tables) - 1, -1, -1):
        w = 1 << k
        cand = j - w
        ok = cand >= lo
        idx = gp.where(ok, cand, 0)
        val = tables[k][idx]
        good = ok & keep(val)
        j = gp.where(good, cand, j)
    return j


def _argmin_range(x, lo, hi, prefer_right):
    """The index of the least x in [lo, hi] for every pair (ties: the
    rightmost, or the leftmost), by a sparse table of positions."""
    n = x.shape[0]
    pos = [gp.arange(n)]
    w = 1
    while 2 * w <= n:
        p = pos[-1]
        a, b = p[:-w], p[w:]
        xa, xb = x[a], x[b]
        take_b = (xb < xa) | ((xb == xa) & prefer_right)
        pos.append(gp.where(take_b, b, a))
        w *= 2
    length = hi - lo + 1
    k = gp.asarray(np.floor(np.log2(np.maximum(gp.asnumpy(length), 1))).astype(np.int64))
    out_a = gp.zeros(lo.shape, dtype=np.int64)
    out_b = gp.zeros(lo.shape, dtype=np.int64)
    for kk in range(len(pos)):
        sel = k == kk
        if not bool(gp.any(sel)):
            continue
        a = pos[kk][gp.where(sel, lo, 0)]
        b = pos[kk][gp.where(sel, hi - (1 << kk) + 1, 0)]
        out_a = gp.where(sel, a, out_a)
        out_b = gp.where(sel, b, out_b)
    xa, xb = x[out_a], x[out_b]
    take_b = (xb < xa) | ((xb == xa) & prefer_right)
    return gp.where(take_b, out_b, out_a)


def _left_base(x, peaks, lo):
    """SciPy's left base of each peak: walking left from the peak while the
    signal is no higher than the peak (not past lo), the lowest point met
    first."""
    hx = x[peaks]
    mx = _tables(x, gp.maximum)
    j = _lift_left(mx, peaks, lo, lambda v: v <= hx)
    return _argmin_range(x, j, peaks, True)


def _prominences(x, peaks, wlen):
    n = x.shape[0]
    pk = np.asarray(peaks, dtype=np.intp)
    bad = (pk < 0) | (pk > n - 1)
    if bad.any():
        raise ValueError(f"peak {pk[bad][0]} is not a valid index for `x`")
    if pk.size == 0:
        e = np.array([], dtype=np.intp)
        return gp.asarray(np.array([])), gp.asarray(e), gp.asarray(e)
    lo = np.zeros_like(pk)
    hi = np.full_like(pk, n - 1)
    if wlen >= 2:
        lo = np.maximum(pk - wlen // 2, 0)
        hi = np.minimum(pk + wlen // 2, n - 1)
    p = gp.asarray(pk.astype(np.int64))
    left = _left_base(x, p, gp.asarray(lo.astype(np.int64)))
    xr = gp.flip(x)
    right = (n - 1) - _left_base(xr, (n - 1) - p, gp.asarray((n - 1 - hi).astype(np.int64)))
    prom = x[p] - gp.maximum(x[left], x[right])
    if bool(gp.any(prom == 0)):
        warnings.warn("some peaks have a prominence of 0", PeakPropertyWarning, stacklevel=3)
    return prom, left.astype(np.intp), right.astype(np.intp)


def peak_prominences(x, peaks, wlen=None):
    """Each peak's prominence (its height over the higher of its two bases)
    and the bases, searched within wlen samples about the peak."""
    x = _x(x)
    return _prominences(x, _peaks_arg(peaks), _wlen_arg(wlen))


def _widths(x, peaks, rel_height, prominences, left_bases, right_bases):
    if rel_height < 0:
        raise ValueError("`rel_height` must be greater or equal to 0.0")
    pk = np.asarray(peaks, dtype=np.intp)
    prom = gp.asarray(prominences).astype(np.float64)
    lb = np.asarray(gp.asnumpy(gp.asarray(left_bases))).astype(np.intp)
    rb = np.asarray(gp.asnumpy(gp.asarray(right_bases))).astype(np.intp)
    if not pk.shape[0] == prom.shape[0] == lb.shape[0] == rb.shape[0]:
        raise ValueError("arrays in `prominence_data` must have the same shape as `peaks`")
    n = x.shape[0]
    bad = ~((0 <= lb) & (lb <= pk) & (pk <= rb) & (rb < n))
    if bad.any():
        raise ValueError(f"prominence data is invalid for peak {pk[bad][0]}")
    if pk.size == 0:
        e = gp.asarray(np.array([]))
        return e, e, e, e
    p = gp.asarray(pk.astype(np.int64))
    height = x[p] - prom * rel_height
    mn = _tables(x, gp.minimum)

    def crossing(xs, peak, base):
        # walk from the peak towards the base while the signal is above the
        # height: the first sample at or below it, or the base
        return _lift_left(mn, peak, base + 1, lambda v: height < v) - 1

    xl = x
    il = crossing(xl, p, gp.asarray(lb.astype(np.int64)))
    left_ip = il.astype(np.float64)
    xi, xn = x[il], x[gp.minimum(il + 1, n - 1)]
    with gp.errstate(divide="ignore", invalid="ignore"):
        left_ip = gp.where(xi < height, left_ip + (height - xi) / (xn - xi), left_ip)
    xr = gp.flip(x)
    mn = _tables(xr, gp.minimum)
    pr = (n - 1) - p
    ir = crossing(xr, pr, gp.asarray((n - 1 - rb).astype(np.int64)))
    ir = (n - 1) - ir
    right_ip = ir.astype(np.float64)
    xi, xp = x[ir], x[gp.maximum(ir - 1, 0)]
    with gp.errstate(divide="ignore", invalid="ignore"):
        right_ip = gp.where(xi < height, right_ip - (height - xi) / (xp - xi), right_ip)
    widths = right_ip - left_ip
    if bool(gp.any(widths == 0)):
        warnings.warn("some peaks have a width of 0", PeakPropertyWarning, stacklevel=3)
    return widths, height, left_ip, right_ip


def peak_widths(x, peaks, rel_height=0.5, prominence_data=None, wlen=None):
    """Each peak's width at rel_height of its prominence, with the height
    and the interpolated left and right crossings."""
    x = _x(x)
    pk = _peaks_arg(peaks)
    if prominence_data is None:
        prominence_data = _prominences(x, pk, _wlen_arg(wlen))
    return _widths(x, pk, rel_height, *prominence_data)


def _interval(interval, x, peaks):
    try:
        imin, imax = interval
    except (TypeError, ValueError):
        imin, imax = interval, None
    out = []
    for v, name in ((imin, "lower"), (imax, "upper")):
        if isinstance(v, (np.ndarray, gp.ndarray)):
            if v.size != x.size:
                raise ValueError(f"array size of {name} interval border must match x")
            v = gp.asarray(v)[gp.asarray(peaks.astype(np.int64))] if len(peaks) else \
                gp.asarray(np.array([]))
        out.append(v)
    return out


def _select(values, vmin, vmax):
    keep = gp.ones(values.shape, dtype=bool)
    if vmin is not None:
        keep = keep & (vmin <= values)
    if vmax is not None:
        keep = keep & (values <= vmax)
    return np.asarray(gp.asnumpy(keep), dtype=bool)


def _by_distance(peaks, priority, distance):
    """SciPy's greedy choice: peaks by falling priority, each removing the
    lower ones nearer than distance (sequential, on the host)."""
    d = math.ceil(distance)
    keep = np.ones(peaks.size, dtype=bool)
    order = np.argsort(priority)
    for j in order[::-1]:
        if not keep[j]:
            continue
        lo = np.searchsorted(peaks, peaks[j] - d, side="right")
        hi = np.searchsorted(peaks, peaks[j] + d, side="left")
        keep[lo:j] = False
        keep[j + 1:hi] = False
    return keep


def find_peaks(x, height=None, threshold=None, distance=None, prominence=None, width=None,
               wlen=None, rel_height=0.5, plateau_size=None):
    """The local maxima of x that meet every given criterion (height,
    threshold to the neighbours, distance, prominence, width, plateau
    size), and the properties the criteria computed."""
    x = _x(x)
    if distance is not None and distance < 1:
        raise ValueError("`distance` must be greater or equal to 1")
    peaks, left_edges, right_edges = _local_maxima(x)
    props = {}

    def keep_only(keep):
        nonlocal peaks, props
        peaks = peaks[keep]
        idx = gp.asarray(np.flatnonzero(keep))
        props = {k: (v[keep] if isinstance(v, np.ndarray) else v[idx]) for k, v in
                 props.items()}

    if plateau_size is not None:
        sizes = right_edges - left_edges + 1
        lo, hi = _interval(plateau_size, x, peaks)
        keep = _select(gp.asarray(sizes), lo, hi)
        props.update(plateau_sizes=sizes, left_edges=left_edges, right_edges=right_edges)
        keep_only(keep)
    if height is not None:
        h = x[gp.asarray(peaks.astype(np.int64))] if len(peaks) else gp.asarray(np.array([]))
        lo, hi = _interval(height, x, peaks)
        keep = _select(h, lo, hi)
        props["peak_heights"] = h
        keep_only(keep)
    if threshold is not None:
        lo, hi = _interval(threshold, x, peaks)
        if len(peaks):
            p = gp.asarray(peaks.astype(np.int64))
            lt, rt = x[p] - x[p - 1], x[p] - x[p + 1]
        else:
            lt = rt = gp.asarray(np.array([]))
        keep = np.ones(len(peaks), dtype=bool)
        if lo is not None:
            keep &= _select(gp.minimum(lt, rt), lo, None)
        if hi is not None:
            keep &= _select(gp.maximum(lt, rt), None, hi)
        props.update(left_thresholds=lt, right_thresholds=rt)
        keep_only(keep)
    if distance is not None:
        pri = gp.asnumpy(x[gp.asarray(peaks.astype(np.int64))]) if len(peaks) else \
            np.array([])
        keep_only(_by_distance(peaks, pri, distance))
    if prominence is not None or width is not None:
        prom, lb, rb = _prominences(x, peaks, _wlen_arg(wlen))
        props.update(prominences=prom, left_bases=lb, right_bases=rb)
    if prominence is not None:
        lo, hi = _interval(prominence, x, peaks)
        keep_only(_select(props["prominences"], lo, hi))
    if width is not None:
        w = _widths(x, peaks, rel_height, props["prominences"], props["left_bases"],
                    props["right_bases"])
        props.update(zip(["widths", "width_heights", "left_ips", "right_ips"], w))
        lo, hi = _interval(width, x, peaks)
        keep_only(_select(props["widths"], lo, hi))
    props = {k: gp.asarray(v) if isinstance(v, np.ndarray) else v for k, v in props.items()}
    return gp.asarray(peaks), props


_COMPARATORS = {np.less: gp.less, np.greater: gp.greater, np.less_equal: gp.less_equal,
                np.greater_equal: gp.greater_equal, np.equal: gp.equal,
                np.not_equal: gp.not_equal}


def _boolrelextrema(data, comparator, axis=0, order=1, mode="clip"):
    if int(order) != order or order < 1:
        raise ValueError("Order must be an int >= 1")
    cmp = _COMPARATORS.get(comparator, comparator)
    data = gp.asarray(data)
    n = data.shape[axis]
    locs = np.arange(n)
    result = gp.ones(data.shape, dtype=bool)
    main = data

    def shifted(s):
        idx = locs + s
        idx = np.clip(idx, 0, n - 1) if mode == "clip" else idx % n
        return gp.take(data, gp.asarray(idx), axis=axis)

    if mode not in ("clip", "wrap"):
        raise ValueError(f"clipmode not understood: {mode!r}" if mode != "raise" else
                         "mode 'raise' is not supported")
    for s in range(1, int(order) + 1):
        result = result & cmp(main, shifted(s)) & cmp(main, shifted(-s))
        if not bool(gp.any(result)):
            return result
    return result


def argrelextrema(data, comparator, axis=0, order=1, mode="clip"):
    """The indices of the relative extrema of data: where comparator holds
    against every neighbour within order along axis."""
    return gp.nonzero(_boolrelextrema(data, comparator, axis, order, mode))


def argrelmin(data, axis=0, order=1, mode="clip"):
    """The indices of the relative minima of data along axis."""
    return argrelextrema(data, np.less, axis, order, mode)


def argrelmax(data, axis=0, order=1, mode="clip"):
    """The indices of the relative maxima of data along axis."""
    return argrelextrema(data, np.greater, axis, order, mode)


def _ricker(points, a):
    """The Ricker (Mexican hat) wavelet of width a on points samples."""
    A = 2 / (np.sqrt(3 * a) * (np.pi ** 0.25))
    vec = np.arange(0, points) - (points - 1.0) / 2
    return A * (1 - vec ** 2 / a ** 2) * np.exp(-vec ** 2 / (2 * a ** 2))


def _ridge_lines(matr, max_distances, gap_thresh):
    """SciPy's ridge lines: relative maxima of each row of the wavelet
    transform chained from the widest scale down, a line ending after
    gap_thresh rows without a maximum near it (sequential, on the host)."""
    if len(max_distances) < matr.shape[0]:
        raise ValueError("Max_distances must have at least as many rows as matr")
    m = np.ones(matr.shape, dtype=bool)
    n = matr.shape[1]
    idx = np.arange(n)
    for s in (1, -1):
        m &= matr > matr[:, np.clip(idx + s, 0, n - 1)]
    rows_with = np.nonzero(m.any(axis=1))[0]
    if len(rows_with) == 0:
        return []
    start = rows_with[-1]
    lines = [[[start], [col], 0] for col in np.nonzero(m[start])[0]]
    final = []
    for row in range(start - 1, -1, -1):
        for line in lines:
            line[2] += 1
        prev = np.array([line[1][-1] for line in lines])
        for col in idx[m[row]]:
            line = None
            if len(prev) > 0:
                d = np.abs(col - prev)
                c = np.argmin(d)
                if d[c] <= max_distances[row]:
                    line = lines[c]
            if line is not None:
                line[1].append(col)
                line[0].append(row)
                line[2] = 0
            else:
                lines.append([[row], [col], 0])
        for i in range(len(lines) - 1, -1, -1):
            if lines[i][2] > gap_thresh:
                final.append(lines[i])
                del lines[i]
    out = []
    for line in final + lines:
        order = np.array(np.argsort(line[0]))
        if scipy_version() >= 11800:
            # SciPy 1.18 sorts each ridge line by row; before, it scattered
            # the points by the sorting permutation (its inverse order).
            out.append([np.array(line[0])[order], np.array(line[1])[order]])
            continue
        rows, cols = np.zeros_like(order), np.zeros_like(order)
        rows[order], cols[order] = line[0], line[1]
        out.append([rows, cols])
    return out


def find_peaks_cwt(vector, widths, wavelet=None, max_distances=None, gap_thresh=None,
                   min_length=None, min_snr=1, noise_perc=10, window_size=None):
    """Peaks of vector found by a continuous wavelet transform: ridge lines
    through the scales widths, kept where long enough and above the noise
    (the transform is convolutions of gpunp arrays; the ridges are traced
    on the host)."""
    from ._convolve import convolve
    widths = np.atleast_1d(np.asarray(gp.asnumpy(widths) if isinstance(widths, gp.ndarray)
                                      else widths))
    if gap_thresh is None:
        gap_thresh = np.ceil(widths[0])
    if max_distances is None:
        max_distances = widths / 4.0
    wavelet = _ricker if wavelet is None else wavelet
    v = gp.asarray(vector)
    cplx = np.asarray(wavelet(1, widths[0])).dtype.char in "FDG"
    rows = []
    for w in widths:
        N = np.min([10 * w, v.shape[0]])
        wd = np.conj(np.asarray(wavelet(N, w))[::-1])
        rows.append(convolve(v, gp.asarray(wd), mode="same"))
    cwt = gp.asnumpy(gp.stack(rows)).astype(np.complex128 if cplx else np.float64)
    lines = _ridge_lines(cwt, max_distances, gap_thresh)
    num = cwt.shape[1]
    min_length = np.ceil(cwt.shape[0] / 4) if min_length is None else min_length
    window_size = int(np.ceil(num / 20) if window_size is None else window_size)
    half, odd = divmod(window_size, 2)
    row0 = cwt[0, :]
    noises = np.empty_like(row0)
    for i in range(num):
        noises[i] = np.percentile(row0[max(i - half, 0):min(i + half + odd, num)], noise_perc)

    def strong(line):
        if len(line[0]) < min_length:
            return False
        return abs(cwt[line[0][0], line[1][0]] / noises[line[1][0]]) >= min_snr

    locs = np.asarray([line[1][0] for line in lines if strong(line)])
    locs.sort()
    return gp.asarray(locs)
