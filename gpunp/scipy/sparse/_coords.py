"""Operations on coordinate triples (row, col, data) of gpunp arrays: the
vectorised building blocks every format's methods are made of (sorting,
summing duplicates, compressing, merging two patterns). No Python loop runs
over rows or entries."""

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
    starts = gpunp.flatnonzero(new)
    if starts.size == data.size:
        return row, col, data
    summed = gpunp.add.reduceat(data, starts)
    if data.dtype == bool:  # SciPy adds booleans as a logical or
        summed = summed.astype(bool)
    return row[starts], col[starts], summed.astype(data.dtype)


def compress(nmajor, major, minor, data, idx_dtype, sum_dup=True):
    """CSR arrays (indptr, indices, data) over the major axis: sorted, and
    with duplicates summed when `sum_dup`."""
    major, minor, data = canonical(major, minor, data, sum_dup)
    indptr = gpunp.searchsorted(major, gpunp.arange(nmajor + 1, dtype=major.dtype))
    return (gpunp.ascontiguousarray(indptr.astype(idx_dtype)),
            gpunp.ascontiguousarray(minor.astype(idx_dtype)), gpunp.ascontiguousarray(data))


def expand(indptr, nmajor):
    """The major index of each stored entry of compressed arrays."""
    return gpunp.repeat(gpunp.arange(nmajor, dtype=indptr.dtype), gpunp.diff(indptr))


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
