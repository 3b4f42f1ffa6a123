"""Distance transforms: distance_transform_edt, distance_transform_cdt and
distance_transform_bf.

edt is the exact separable feature transform: one pass per axis, one thread
per line, each line's lower envelope of parabolas (Felzenszwalb and
Huttenlocher) over the squared distances the earlier axes left, carrying
the flat index of each element's nearest background element. Distances are
then computed from those indices as SciPy computes them, so a distance is
SciPy's to the last bit wherever the two pick the same feature; where two
features are equally near, either may be picked.

cdt is SciPy's two chamfer sweeps, each found as the fixed point of its
recurrence (every element against the structure's neighbours on one side
of it): relaxation passes until nothing changes, each element holding
(distance, feature index) packed in one 64-bit word so a reader never sees
half of an update. On the host backend a pass runs in its sweep's own
order, so each sweep is one pass and a check.

bf compares every foreground element with every background element that
touches the foreground, as SciPy's does, and breaks ties as SciPy does (the
last such element in raster order)."""

import numpy

import gpunp

from ._morphology import as_device, binary_dilation, generate_binary_structure, host, \
    normalize_sequence, ranked

__all__ = ["distance_transform_edt", "distance_transform_cdt", "distance_transform_bf"]

_COORDS = """
GPK_FN void ndd_coords(long long e, const gpk_i64 *shp, int nd, long long *c)
{
    for (int d = nd - 1; d >= 0; --d) {
        c[d] = e % shp[d];
        e /= shp[d];
    }
}
"""

# One line of axis `ax` per thread: f(q) is the squared distance from q to
# the feature it holds (none: -1), the parabolas' lower envelope gives each
# element the feature of the parabola below it.
_EDT_LINE = ranked(
    "raw int64 fin, raw int64 shp, raw float64 samp, int32 ax",
    "raw int64 fout, raw int64 v, raw float64 z, raw float64 fv",
    """
    const long long n = shp[ax];
    long long st = 1;
    for (int d = ax + 1; d < nd; ++d)
        st *= shp[d];
    const long long base = (i / st) * n * st + i % st;
    /* slot k of this line's scratch is k * lines + i: a warp's threads
       touch neighbouring words */
    const long long lines = (long long)_ind.size();
    gpk_i64 *vl = v + i;
    double *zl = z + i, *fl = fv + i;
    const double w = samp[ax] * samp[ax];
    long long c[64], fc[64];
    long long k = -1;
    for (long long q = 0; q < n; ++q) {
        const long long e = base + q * st;
        const long long f = fin[e];
        if (f < 0)
            continue;
        ndd_coords(e, shp, nd, c);
        ndd_coords(f, shp, nd, fc);
        double fq = 0.0;
        for (int d = 0; d < nd; ++d) {
            const double t = (double)(c[d] - fc[d]) * samp[d];
            fq += t * t;
        }
        double s = 0.0;
        while (k >= 0) {
            const double r = (double)vl[k * lines];
            s = ((fq + w * (double)q * (double)q) - (fl[k * lines] + w * r * r)) /
                (2.0 * w * ((double)q - r));
            if (s > zl[k * lines])
                break;
            --k;
        }
        ++k;
        vl[k * lines] = q;
        fl[k * lines] = fq;
        zl[k * lines] = k == 0 ? -1.0e308 : s;
        zl[(k + 1) * lines] = 1.0e308;
    }
    long long j = 0;
    for (long long p = 0; p < n; ++p) {
        const long long e = base + p * st;
        if (k < 0) {
            fout[e] = -1;
            continue;
        }
        while (j < k && zl[(j + 1) * lines] < (double)p)
            ++j;
        fout[e] = fin[base + vl[j * lines] * st];
    }
    """,
    "gpunp_ndi_edt_line", preamble=_COORDS)

# Distances (SciPy's arithmetic: per axis (feature - coordinate) * sampling,
# squared, summed in axis order) and the feature's coordinates.
_FEATURE_OUT = ranked(
    "raw int64 feat, raw int64 shp, raw float64 samp, int32 want_d, int32 want_i, "
    "int64 total",
    "raw float64 dist, raw int32 ind",
    """
    long long c[64], fc[64];
    ndd_coords((long long)i, shp, nd, c);
    const long long f = feat[i];
    if (f >= 0) {
        ndd_coords(f, shp, nd, fc);
    } else {  /* no background anywhere: SciPy's answer is -1, 0, 0... */
        for (int d = 0; d < nd; ++d)
            fc[d] = d == 0 ? -1 : 0;
    }
    if (want_i)
        for (int d = 0; d < nd; ++d)
            ind[(long long)d * total + i] = (gpk_i32)fc[d];
    if (want_d) {
        double acc = 0.0;
        for (int d = 0; d < nd; ++d) {
            const double t = (double)(fc[d] - c[d]) * samp[d];
            acc += t * t;
        }
        dist[i] = sqrt(acc);
    }
    """,
    "gpunp_ndi_feature_out", preamble=_COORDS)


def _arg_check(dt_inplace, ft_inplace, return_distances, return_indices):
    problems = []
    if not return_distances and not return_indices:
        problems.append("at least one of return_distances/return_indices must be True")
    if dt_inplace and not return_distances:
        problems.append("return_distances must be True if distances is supplied")
    if ft_inplace and not return_indices:
        problems.append("return_indices must be True if indices is supplied")
    if problems:
        raise RuntimeError(", ".join(problems))


def _results(return_distances, return_indices, dt, ft, dt_inplace, ft_inplace):
    out = []
    if return_distances and not dt_inplace:
        out.append(dt)
    if return_indices and not ft_inplace:
        out.append(ft)
    if len(out) == 2:
        return tuple(out)
    return out[0] if out else None


def _sampling(sampling, ndim):
    if sampling is None:
        return numpy.ones(ndim)
    return numpy.asarray(normalize_sequence(host(sampling) if isinstance(
        sampling, gpunp.ndarray) else sampling, ndim), dtype=numpy.float64)


def _check_out(arr, shape, dtype, what, error=RuntimeError):
    if arr.shape != tuple(shape):
        raise error(f"{what} array has wrong shape")
    if arr.dtype != dtype:
        raise error(f"{what} array must be {numpy.dtype(dtype).name}")


def distance_transform_edt(input, sampling=None, return_distances=True, return_indices=False,
                           distances=None, indices=None):
    """The exact Euclidean distance of each non-zero element to the nearest
    zero element, and that element's coordinates
    (scipy.ndimage.distance_transform_edt)."""
    ft_inplace = isinstance(indices, gpunp.ndarray)
    dt_inplace = isinstance(distances, gpunp.ndarray)
    _arg_check(dt_inplace, ft_inplace, return_distances, return_indices)
    input = as_device(input)
    if input.ndim == 0:
        input = input.reshape(1)
    fg = gpunp.ascontiguousarray(input != 0)
    shape, nd = input.shape, input.ndim
    samp = _sampling(sampling, nd)
    if ft_inplace:
        _check_out(indices, (nd,) + shape, numpy.int32, "indices")
    if dt_inplace:
        _check_out(distances, shape, numpy.float64, "distances")
    total = int(fg.size)
    shp = gpunp.asarray(numpy.array(shape, numpy.int64))
    dsamp = gpunp.asarray(samp)
    feat = gpunp.where(fg.reshape(-1), -1, gpunp.arange(total, dtype=numpy.int64))
    if total:
        longest = max(shape)
        lines = max(total // n for n in shape)
        v = gpunp.empty(lines * longest, numpy.int64)
        z = gpunp.empty(lines * (longest + 1), numpy.float64)
        fv = gpunp.empty(lines * longest, numpy.float64)
        other = gpunp.empty(total, numpy.int64)
        for ax in range(nd):
            _EDT_LINE(nd)(feat, shp, dsamp, ax, other, v, z, fv, size=total // shape[ax])
            feat, other = other, feat
    dist = gpunp.empty(shape, numpy.float64) if return_distances else gpunp.empty(1)
    ind = gpunp.empty((nd,) + shape, numpy.int32) if return_indices else \
        gpunp.empty(1, numpy.int32)
    if total:
        _FEATURE_OUT(nd)(feat, shp, dsamp, int(return_distances), int(return_indices), total,
                         dist, ind, size=total)
    if dt_inplace:
        distances[...] = dist
    if ft_inplace:
        indices[...] = ind
    return _results(return_distances, return_indices, dist, ind, dt_inplace, ft_inplace)


# (distance << 32 | feature index) per element; a background element is its
# own feature at distance 0, an unreached one is _FAR.
_CDT_PASS = ranked(
    "raw int64 offs, raw int64 shp, int32 nk, int32 rev",
    "raw int64 dk, raw int32 flag",
    """
    const long long n = (long long)_ind.size();
    const long long e = rev ? n - 1 - (long long)i : (long long)i;
    long long best = dk[e];
    if ((best >> 32) != 0) {
        long long c[64];
        ndd_coords(e, shp, nd, c);
        for (int k = 0; k < nk; ++k) {
            const gpk_i64 *o = offs + (long long)k * nd;
            int inside = 1;
            for (int d = 0; d < nd; ++d) {
                const long long t = c[d] + o[d];
                if (t < 0 || t >= shp[d]) {
                    inside = 0;
                    break;
                }
            }
            if (!inside)
                continue;
            const long long nb = dk[e + offs[(long long)nk * nd + k]];
            if (nb != 0x7fffffffffffffffLL) {
                const long long cand = nb + 0x100000000LL;
                if (cand < best)
                    best = cand;
            }
        }
        if (best != dk[e]) {
            dk[e] = best;
            flag[0] = 1;
        }
    }
    """,
    "gpunp_ndi_cdt_pass", preamble=_COORDS)

_FAR = 0x7fffffffffffffff


def _neighbours(structure, shape, before):
    """The structure's true elements before (or after) its centre in raster
    order, as per-axis offsets followed by flat offsets in the image."""
    rel = numpy.argwhere(structure).astype(numpy.int64) - 1
    first = numpy.array([r[numpy.flatnonzero(r)[0]] if r.any() else 0 for r in rel], numpy.int64)
    rel = rel[first < 0] if before else rel[first > 0]
    strides = numpy.array([int(numpy.prod(shape[d + 1:])) for d in range(len(shape))],
                          numpy.int64)
    table = numpy.concatenate([rel.ravel(), rel @ strides])
    return gpunp.asarray(table if table.size else numpy.zeros(1, numpy.int64)), len(rel)


def distance_transform_cdt(input, metric="chessboard", return_distances=True,
                           return_indices=False, distances=None, indices=None):
    """The chamfer distance (chessboard, taxicab, or steps of a 3**n
    structure) of each non-zero element to the nearest zero element, -1
    where none can be reached (scipy.ndimage.distance_transform_cdt)."""
    ft_inplace = isinstance(indices, gpunp.ndarray)
    dt_inplace = isinstance(distances, gpunp.ndarray)
    _arg_check(dt_inplace, ft_inplace, return_distances, return_indices)
    input = as_device(input)
    if isinstance(metric, str):
        if metric in ("taxicab", "cityblock", "manhattan"):
            metric = generate_binary_structure(input.ndim, 1)
        elif metric == "chessboard":
            metric = generate_binary_structure(input.ndim, input.ndim)
        else:
            raise ValueError("invalid metric provided")
    try:
        metric = host(metric)
    except Exception as e:
        raise ValueError("invalid metric provided") from e
    if any(s != 3 for s in metric.shape):
        raise ValueError("metric sizes must be equal to 3")
    if metric.ndim != input.ndim:
        raise RuntimeError("structure and input must have equal rank")
    if dt_inplace:
        if distances.dtype != numpy.int32:
            raise ValueError("distances must be of int32 type")
        if distances.shape != input.shape:
            raise ValueError("distances has wrong shape")
    shape = input.shape
    total = int(input.size)
    ids = gpunp.arange(total, dtype=numpy.int64)
    dk = gpunp.ascontiguousarray(gpunp.where((input != 0).reshape(-1), _FAR, ids))
    if total:
        shp = gpunp.asarray(numpy.array(shape or (1,), numpy.int64))
        flag = gpunp.zeros(1, numpy.int32)
        # SciPy's forward sweep then its backward one: each is the fixed point
        # of its own recurrence (a neighbour on one side only), which any
        # order of relaxation reaches; the host runs each in its sweep's order
        for before in (True, False):
            table, nk = _neighbours(metric != 0, shape, before)
            while True:
                flag.fill(0)
                _CDT_PASS(input.ndim)(table, shp, nk, 0 if before else 1, dk, flag, size=total)
                if not int(flag[0]):
                    break
    far = dk == _FAR
    dist = gpunp.where(far, -1, dk >> 32).astype(numpy.int32).reshape(shape)
    if dt_inplace:
        distances[...] = dist
    if not return_indices:
        return _results(return_distances, False, dist, None, dt_inplace, False)
    feat = gpunp.where(far, ids, dk & 0xffffffff).reshape(shape)
    ft = gpunp.stack(gpunp.unravel_index(feat, shape)).astype(numpy.int32) if shape else \
        gpunp.zeros((0,), numpy.int32)
    if ft_inplace:
        if indices.dtype != numpy.int32:
            raise ValueError("indices array must be int32")
        if indices.shape != (input.ndim,) + shape:
            raise ValueError("indices array has wrong shape")
        indices[...] = ft
    return _results(return_distances, True, dist, ft, dt_inplace, ft_inplace)


# Every foreground element against every border element (background
# touching the foreground), in raster order with <=, so the last of equally
# near ones wins, as in SciPy's list, which it walks from its last entry.
_BF = ranked(
    "raw bool fg, raw int64 border, raw int64 shp, raw float64 samp, int64 nb, "
    "int32 metric",
    "raw float64 dist, raw int64 feat",
    """
    if (!fg[i]) {
        dist[i] = 0.0;
        feat[i] = (long long)i;
    } else {
        long long c[64], b[64];
        ndd_coords((long long)i, shp, nd, c);
        double best = metric == 1 ? 1.7976931348623157e308 : 4294967295.0;
        long long at = 0;
        for (long long k = 0; k < nb; ++k) {
            ndd_coords(border[k], shp, nd, b);
            double d = 0.0;
            for (int a = 0; a < nd; ++a) {
                if (metric == 1) {
                    const double t = (double)(c[a] - b[a]) * samp[a];
                    d += t * t;
                } else {
                    const long long t = c[a] > b[a] ? c[a] - b[a] : b[a] - c[a];
                    if (metric == 2)
                        d += (double)t;
                    else if ((double)t > d)
                        d = (double)t;
                }
            }
            if (d <= best) {
                best = d;
                at = border[k];
            }
        }
        dist[i] = metric == 1 ? sqrt(best) : best;
        feat[i] = at;
    }
    """,
    "gpunp_ndi_distance_bf", preamble=_COORDS)


def distance_transform_bf(input, metric="euclidean", sampling=None, return_distances=True,
                          return_indices=False, distances=None, indices=None):
    """The distance of each non-zero element to the nearest zero element by
    comparing all pairs (scipy.ndimage.distance_transform_bf)."""
    ft_inplace = isinstance(indices, gpunp.ndarray)
    dt_inplace = isinstance(distances, gpunp.ndarray)
    _arg_check(dt_inplace, ft_inplace, return_distances, return_indices)
    input = as_device(input)
    fg = gpunp.ascontiguousarray(input != 0)
    shape, nd = fg.shape, fg.ndim
    border = gpunp.logical_xor(fg, binary_dilation(fg, generate_binary_structure(nd, nd)))
    codes = {"euclidean": 1, "taxicab": 2, "cityblock": 2, "manhattan": 2, "chessboard": 3}
    code = codes.get(metric.lower())
    if code is None:
        raise RuntimeError("distance metric not supported")
    samp = _sampling(sampling, nd) if code == 1 else numpy.ones(nd)
    ddt = numpy.float64 if code == 1 else numpy.uint32
    if dt_inplace and return_distances:
        if distances.shape != shape:
            raise RuntimeError("distances array has wrong shape")
        if distances.dtype != ddt:
            raise RuntimeError(f"distances array must be {numpy.dtype(ddt).name}")
    total = int(fg.size)
    where = gpunp.flatnonzero(border).astype(numpy.int64)
    dist = gpunp.empty(max(total, 1), numpy.float64)
    feat = gpunp.empty(max(total, 1), numpy.int64)
    if total:
        _BF(nd)(fg.reshape(-1), where if where.size else gpunp.zeros(1, numpy.int64),
                gpunp.asarray(numpy.array(shape or (1,), numpy.int64)), gpunp.asarray(samp),
                int(where.size), code, dist, feat, size=total)
    dt = dist[:total].reshape(shape).astype(ddt)
    ft = None
    if return_indices:
        if ft_inplace:
            if indices.dtype != numpy.int32:
                raise RuntimeError("indices array must be int32")
            if indices.shape != (nd,) + shape:
                raise RuntimeError("indices array has wrong shape")
        ft = gpunp.stack(gpunp.unravel_index(feat[:total].reshape(shape), shape)).astype(
            numpy.int32) if nd else gpunp.zeros((0,), numpy.int32)
        if ft_inplace:
            indices[...] = ft
    if dt_inplace:
        distances[...] = dt
    return _results(return_distances, return_indices, dt, ft, dt_inplace, ft_inplace)
