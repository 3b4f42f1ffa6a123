"""Operations on coordinate triples (row, col, data) of gpunp arrays: the
vectorised building blocks every format's methods are made of (sorting,
summing duplicates, compressing, merging two patterns). No Python loop runs
over rows or entries.

Two gpunp routines are avoided on purpose: ``repeat`` with an array of counts
(it reads the counts on the host and loops over runs of equal counts) and
``ufunc.reduceat`` (slow on the host backend); ``repeat_index`` and
``segment_reduce`` do their work with ``searchsorted``, ``cumsum`` and
``ufunc.at``, which sums each segment in order as SciPy does."""

import numpy

import gpunp

from gpunp.scipy.sparse._sputils import INT32_MAX


def canonical(row, col, data, sum_dup=True):
    """The triples sorted by (row, col), duplicates summed in their stored order."""
    order = gpunp.lexsort((col, row))
    row, col, data = row[order], col[order], data[order]
    if not sum_dup or data.size < 2:
        return row, col, data
    new = gpunp.ones(data.size, dtype=bool)
    new[1:] = (row[1:] != row[:-1]) | (col[1:] != col[:-1])
    if bool(new.all()):
        return row, col, data
    # (booleans add as a logical or, as in SciPy)
    summed, starts = segment_reduce(gpunp.add, data, new)
    return row[starts], col[starts], summed


def compress(nmajor, major, minor, data, idx_dtype, sum_dup=True):
    """CSR arrays (indptr, indices, data) over the major axis: sorted, and
    with duplicates summed when `sum_dup`."""
    major, minor, data = canonical(major, minor, data, sum_dup)
    indptr = gpunp.searchsorted(major, gpunp.arange(nmajor + 1, dtype=major.dtype))
    return (gpunp.ascontiguousarray(indptr.astype(idx_dtype)),
            gpunp.ascontiguousarray(minor.astype(idx_dtype)), gpunp.ascontiguousarray(data))


def expand(indptr, nmajor):
    """The major index of each stored entry of compressed arrays (the entries up
    to indptr[-1])."""
    nnz = int(indptr[-1]) if indptr.size else 0
    return gpunp.searchsorted(indptr[1:], gpunp.arange(nnz, dtype=indptr.dtype),
                              side="right").astype(indptr.dtype)


def repeat_index(counts):
    """Each i repeated counts[i] times: gpunp.repeat(arange(n), counts), on the
    device."""
    ends = gpunp.cumsum(counts.astype(numpy.int64))
    total = int(ends[-1]) if ends.size else 0
    return gpunp.searchsorted(ends, gpunp.arange(total, dtype=numpy.int64), side="right")


def segment_reduce(ufunc, values, new):
    """ufunc over each run of `values` (a run starts where `new` is True, and
    new[0] is), element by element in order: (results, run starts)."""
    starts = gpunp.flatnonzero(new)
    out = values[starts]
    rest = ~new
    if bool(rest.any()):
        seg = gpunp.cumsum(new) - 1
        ufunc.at(out, seg[rest], values[rest])
    return out, starts


def keys(row, col, ncols):
    """One int64 key per entry, increasing in (row, col) order."""
    return row.astype(numpy.int64) * max(ncols, 1) + col.astype(numpy.int64)


def merge(ka, va, kb, vb, dtype):
    """Values of two sorted, unique key sets on the union of their keys:
    (keys, a's values, b's values), zero where an operand has no entry."""
    ukeys = gpunp.unique(gpunp.concatenate([ka, kb]))
    a = gpunp.zeros(ukeys.size, dtype=dtype)
    b = gpunp.zeros(ukeys.size, dtype=dtype)
    if ka.size:
        a[gpunp.searchsorted(ukeys, ka)] = va.astype(dtype)
    if kb.size:
        b[gpunp.searchsorted(ukeys, kb)] = vb.astype(dtype)
    return ukeys, a, b


def fits_int32(*sizes) -> bool:
    return max(sizes, default=0) <= INT32_MAX


def dense_to_triples(a):
    """(row, col, data) of the nonzero entries of a 2-D gpunp array, row-major."""
    row, col = gpunp.nonzero(a)
    return row, col, a[row, col]
