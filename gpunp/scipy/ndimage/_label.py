"""Connected components (scipy.ndimage.label), find_objects and
value_indices.

label is union-find on the device: every foreground element starts as its
own root; a hooking pass links, for each element and each neighbour the
structure gives before it in raster order, the larger of their two roots
under the smaller; a compression pass points every element at its root.
The two repeat until a hooking pass links nothing (on the host backend the
first pass, run in raster order, already joins everything). A root is then
the first element of its component in raster order, so numbering roots by
a cumulative sum of the root flags gives SciPy's numbering exactly. Roots
always point at smaller indices, so a hook lost to a concurrent one on a
GPU leaves a valid forest and is found again in the next pass."""

import operator

import numpy

import gpunp

from ._morphology import as_device, generate_binary_structure, host, ranked

__all__ = ["label", "find_objects", "value_indices"]

_PREAMBLE = """
typedef {t} ndl_t;
GPK_FN ndl_t ndl_root(const ndl_t *L, ndl_t a)
{{
    while (L[a] != a)
        a = L[a];
    return a;
}}
"""

_HOOK = """
if (x[i]) {
    long long c[64];
    long long rem = (long long)i;
    for (int d = nd - 1; d >= 0; --d) {
        c[d] = rem % shp[d];
        rem /= shp[d];
    }
    ndl_t r = ndl_root(L, (ndl_t)i);
    for (int k = 0; k < nk; ++k) {
        const gpk_i64 *o = offs + (long long)k * nd;
        int inside = 1;
        for (int d = 0; d < nd; ++d) {
            long long t = c[d] + o[d];
            if (t < 0 || t >= shp[d]) {
                inside = 0;
                break;
            }
        }
        if (!inside)
            continue;
        ndl_t j = (ndl_t)(i + offs[(long long)nk * nd + k]);
        if (!x[j])
            continue;
        ndl_t s = ndl_root(L, j);
        if (s != r) {
            ndl_t lo = s < r ? s : r, hi = s < r ? r : s;
            if (L[hi] > lo)
                L[hi] = lo;
            flag[0] = 1;
            r = lo;
        }
    }
}
"""

_kernels = {}


def _label_kernels(idx):
    """(start, hook, compress, number) for the index dtype idx."""
    ks = _kernels.get(idx)
    if ks is None:
        t = "gpk_i32" if idx == numpy.int32 else "gpk_i64"
        pre = _PREAMBLE.format(t=t)
        name = numpy.dtype(idx).name
        ks = (
            gpunp.ElementwiseKernel("bool x", f"{name} L", "L = x ? (ndl_t)i : (ndl_t)-1",
                                    f"gpunp_ndi_label_start_{name}", preamble=pre),
            ranked("raw bool x, raw int64 offs, raw int64 shp, int32 nk",
                   f"raw {name} L, raw int32 flag", _HOOK, f"gpunp_ndi_label_hook_{name}",
                   preamble=pre),
            gpunp.ElementwiseKernel("bool x", f"raw {name} L",
                                    "if (x) L[i] = ndl_root(L, (ndl_t)i)",
                                    f"gpunp_ndi_label_compress_{name}", preamble=pre),
            gpunp.ElementwiseKernel(f"bool x, raw {name} L, raw {name} rank", "O y",
                                    "y = x ? (O)rank[L[i]] : (O)0",
                                    f"gpunp_ndi_label_number_{name}", preamble=pre),
        )
        _kernels[idx] = ks
    return ks


def _backward_offsets(structure, shape):
    """The structure's neighbours that come before the centre in raster
    order, as per-axis offsets followed by flat offsets in the image."""
    rel = numpy.argwhere(structure).astype(numpy.int64) - 1
    first = numpy.array([r[numpy.flatnonzero(r)[0]] if r.any() else 0 for r in rel], numpy.int64)
    rel = rel[first < 0]
    strides = numpy.array([int(numpy.prod(shape[d + 1:])) for d in range(len(shape))],
                          numpy.int64)
    table = numpy.concatenate([rel.ravel(), rel @ strides])
    return gpunp.asarray(table if table.size else numpy.zeros(1, numpy.int64)), len(rel)


def label(input, structure=None, output=None):
    """Connected components of the non-zero elements (scipy.ndimage.label):
    (labels, count), or count alone when output is an array."""
    input = as_device(input)
    if input.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    if structure is None:
        structure = generate_binary_structure(input.ndim, 1)
    structure = host(structure).astype(bool)
    if structure.ndim != input.ndim:
        raise RuntimeError("structure and input must have equal rank")
    if any(n != 3 for n in structure.shape):
        raise ValueError("structure dimensions must be equal to 3")
    big = input.size >= 2 ** 31 - 2
    given = isinstance(output, gpunp.ndarray)
    if given:
        if output.shape != input.shape:
            raise ValueError("output shape not correct")
        out = output
    else:
        out = gpunp.empty(input.shape, numpy.intp if big else numpy.int32 if output is None
                          else output)
    if input.ndim == 0 or input.size == 0:
        count = (1 if bool(input != 0) else 0) if input.ndim == 0 else 0
        out[...] = count
        return count if given else (out, count)
    if not numpy.array_equal(structure, structure[(slice(None, None, -1),) * structure.ndim]):
        raise AssertionError("Structuring element is not symmetric")
    idx = numpy.int64 if big else numpy.int32
    start, hook, compress, number = _label_kernels(idx)
    fg = gpunp.ascontiguousarray(input != 0).reshape(-1)
    roots = start(fg)
    table, nk = _backward_offsets(structure, input.shape)
    shp = gpunp.asarray(numpy.array(input.shape, numpy.int64))
    flag = gpunp.zeros(1, numpy.int32)
    while True:
        flag.fill(0)
        hook(input.ndim)(fg, table, shp, nk, roots, flag, size=fg.size)
        compress(fg, roots)
        if not int(flag[0]):
            break
    rank = gpunp.cumsum(gpunp.logical_and(fg, roots == gpunp.arange(fg.size, dtype=idx)),
                        dtype=idx)
    count = int(rank[-1])
    info = numpy.iinfo(out.dtype) if out.dtype.kind in "iu" else None
    if info is not None and count > info.max:
        raise RuntimeError("insufficient bit-depth in requested output type")
    if out.flags.c_contiguous:
        number(fg, roots, rank, out.reshape(-1))
    else:
        out[...] = number(fg, roots, rank, gpunp.empty(fg.size, out.dtype)).reshape(out.shape)
    return count if given else (out, count)


def _segments(keys):
    """For flat integer keys: the stable order that sorts them, the distinct
    keys, and where each one's run starts in that order."""
    order = gpunp.argsort(keys, kind="stable")
    skeys = keys[order]
    values = gpunp.unique(skeys)
    return order, values, gpunp.searchsorted(skeys, values, side="left")


def find_objects(input, max_label=0):
    """The bounding box of each label 1..max_label as a tuple of slices, None
    for a label that does not occur (scipy.ndimage.find_objects)."""
    input = as_device(input)
    if input.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    if max_label < 1:
        max_label = input.max().item()
    max_label = operator.index(max_label)
    result = [None] * max_label
    if input.ndim == 0:
        v = int(input)
        if 1 <= v <= max_label:
            result[v - 1] = ()
        return result
    flat = input.reshape(-1)
    keep = gpunp.logical_and(flat >= 1, flat <= max_label)
    where = gpunp.flatnonzero(keep)
    if where.size == 0:
        return result
    labels = flat[where].astype(numpy.int64)
    order, values, lo = _segments(labels)
    pos = where[order]  # raster order inside each label
    bounds = []
    for d, n in enumerate(input.shape):
        stride = int(numpy.prod(input.shape[d + 1:]))
        coord = (pos // stride) % n
        bounds.append((gpunp.minimum.reduceat(coord, lo), gpunp.maximum.reduceat(coord, lo)))
    values = values.get()
    lows = [b[0].get() for b in bounds]
    highs = [b[1].get() for b in bounds]
    for k, v in enumerate(values):
        result[int(v) - 1] = tuple(slice(int(lows[d][k]), int(highs[d][k]) + 1)
                                   for d in range(input.ndim))
    return result


def value_indices(arr, *, ignore_value=None):
    """{value: index arrays of its elements}, values in increasing order
    (scipy.ndimage.value_indices)."""
    arr = as_device(arr)
    if arr.dtype.kind not in "iu":
        raise ValueError("Parameter 'arr' must be an integer array")
    flat = arr.reshape(-1)
    pos = gpunp.arange(flat.size)
    if ignore_value is not None:
        keep = flat != arr.dtype.type(ignore_value)
        pos = pos[keep]
        flat = flat[keep]
    if flat.size == 0:
        return {}
    order = gpunp.argsort(flat, kind="stable")
    svals = flat[order]
    values = gpunp.unique(svals)
    ends = gpunp.searchsorted(svals, values, side="right").get()
    pos = pos[order]
    coords = gpunp.unravel_index(pos, arr.shape) if arr.ndim else ()
    out, start = {}, 0
    for v, end in zip(values.get(), ends):
        out[v] = tuple(c[start:end] for c in coords)
        start = int(end)
    return out
