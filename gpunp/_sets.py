"""Set routines: unique (and NumPy 2's unique_values, unique_counts,
unique_inverse, unique_all), isin, intersect1d, union1d, setdiff1d,
setxor1d.

Built from the sorts (gpunp._sorting), searchsorted, cumsum, nonzero,
boolean masks and ufuncs, so every step runs on the device: a sorted copy,
a mask of the first element of each run of equal ones, and what follows
from the mask (values, first indices, inverse, counts). Only the sizes of
results come back to the host, where a boolean mask selects."""

from __future__ import annotations

from collections import namedtuple

import numpy

import gpunp
from gpunp._lib import index, normalize_axis
from gpunp._ndarray import ndarray
from gpunp._sorting import _array, argsort, lexsort, searchsorted, sort

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices",
                                                 "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def _run_starts(s: ndarray, equal_nan: bool) -> ndarray:
    """The mask of the elements of the sorted 1-d `s` that start a run of
    equal ones; with `equal_nan` every NaN (any NaN part of a complex)
    belongs to one run, as NumPy's unique counts them. One comparison pass
    and a bisection: the NaNs sort last, each unequal to the one before
    it, and complex(-inf, nan) sorts before every complex with a NaN part
    and after every other."""
    gp = gpunp
    mask = gp.empty(s.shape, dtype=bool)
    if s.size == 0:
        return mask
    mask[:1] = True
    gp.not_equal(s[1:], s[:-1], out=mask[1:])
    if equal_nan and s.dtype.kind in "fc":
        first_nan = numpy.asarray(complex(-numpy.inf, numpy.nan) if s.dtype.kind == "c"
                                  else numpy.nan, dtype=s.dtype)
        mask[int(searchsorted(s, first_nan).item()) + 1:] = False
    return mask


def _counts(mask: ndarray) -> ndarray:
    gp = gpunp
    starts = gp.flatnonzero(mask)
    ends = gp.concatenate((starts[1:], gp.asarray([mask.size], dtype=numpy.int64)))
    return ends - starts


def _unique1d(ar: ndarray, return_index, return_inverse, return_counts, equal_nan,
              inverse_shape):
    gp = gpunp
    flat = ar.reshape(-1)
    if return_index or return_inverse:
        perm = argsort(flat)
        s = gp.take(flat, perm)
    else:
        s = sort(flat)
    mask = _run_starts(s, equal_nan)
    ret = (s[mask],)
    if return_index:
        ret += (perm[mask],)
    if return_inverse:
        imask = gp.cumsum(mask, dtype=numpy.int64) - 1
        inv = gp.empty(mask.shape, dtype=numpy.int64)
        inv[perm] = imask
        ret += (inv.reshape(inverse_shape),)
    if return_counts:
        ret += (_counts(mask),)
    return ret


def _unique_rows(ar: ndarray, axis: int, return_index, return_inverse, return_counts):
    """unique along `axis`: the sub-arrays compared as NumPy compares its
    structured rows (lexicographically, NaN never equal to NaN)."""
    gp = gpunp
    moved = gp.moveaxis(ar, axis, 0)
    rest = moved.shape[1:]
    n = moved.shape[0]
    width = 1
    for d in rest:
        width *= d
    rows = moved.reshape(n, width)
    if width == 0:
        # NumPy's rows of no elements are all equal
        perm = gp.arange(n, dtype=numpy.int64)
        mask = gp.zeros(n, dtype=bool)
        mask[:1] = True
        s = rows
    else:
        # the first column is the most significant key: lexsort's last.
        # NumPy compares the float16 fields of its structured rows with NaN
        # before every number (float32 and wider fields put it last, as
        # sort does): a key of its own ahead of the column's
        keys = []
        for j in range(width - 1, -1, -1):
            keys.append(rows[:, j])
            if rows.dtype == numpy.float16:
                keys.append(gp.logical_not(gp.isnan(rows[:, j])))
        perm = lexsort(keys)
        s = gp.take(rows, perm, axis=0)
        mask = gp.empty(n, dtype=bool)
        if n:
            mask[:1] = True
            mask[1:] = gp.any(gp.not_equal(s[1:], s[:-1]), axis=1)
    picked = s[mask]
    values = gp.moveaxis(picked.reshape((picked.shape[0],) + rest), 0, axis)
    ret = (values,)
    if return_index:
        ret += (perm[mask],)
    if return_inverse:
        imask = gp.cumsum(mask, dtype=numpy.int64) - 1
        inv = gp.empty(n, dtype=numpy.int64)
        inv[perm] = imask
        ret += (inv,)
    if return_counts:
        ret += (_counts(mask),)
    return ret


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, sorted=True):
    """numpy.unique. The values come sorted whatever `sorted` says (NumPy
    allows any order when it is False)."""
    ar = _array(ar)
    if axis is not None:
        axis = normalize_axis(index(axis), ar.ndim)
    if axis is None or ar.ndim == 1:
        # NumPy's rows of a 1-d array are its elements, compared as they are
        # without an axis: equal_nan holds there (complex64 [nan+nanj,
        # nan+nanj] with axis=0 is one value)
        ret = _unique1d(ar, return_index, return_inverse, return_counts, equal_nan, ar.shape)
    else:
        ret = _unique_rows(ar, axis, return_index, return_inverse, return_counts)
    return ret[0] if len(ret) == 1 else ret


def unique_values(x) -> ndarray:
    return unique(x, equal_nan=False)


def unique_counts(x) -> UniqueCountsResult:
    return UniqueCountsResult(*unique(x, return_counts=True, equal_nan=False))


def unique_inverse(x) -> UniqueInverseResult:
    return UniqueInverseResult(*unique(x, return_inverse=True, equal_nan=False))


def unique_all(x) -> UniqueAllResult:
    return UniqueAllResult(*unique(x, return_index=True, return_inverse=True,
                                   return_counts=True, equal_nan=False))


# ---- membership and set operations --------------------------------------------------------

def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None) -> ndarray:
    """numpy.isin: whether each element is among test_elements, found by
    bisection in the sorted test elements (every kind: 'sort' and 'table'
    give the same answer)."""
    gp = gpunp
    element, test = _array(element), _array(test_elements).reshape(-1)
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    if kind == "table" and not (element.dtype.kind in "biu" and test.dtype.kind in "biu"):
        raise ValueError("The 'table' method is only supported for boolean or integer arrays. "
                         "Please select 'sort' or None for kind.")
    if kind == "table" and test.size:
        # NumPy's table is indexed by value - min in the test's dtype, and
        # refuses a range that overflows it (bools count as uint8)
        t = test.astype(numpy.uint8) if test.dtype.kind == "b" else test
        span = int(t.max().item()) - int(t.min().item())
        if span > numpy.iinfo(t.dtype).max:
            raise RuntimeError("You have specified kind='table', but the range of values in "
                               "`ar2` or `ar1` exceed the maximum integer of the datatype. "
                               "Please set `kind` to None or 'sort'.")
        # a table asks for span + 1 bools: NumPy's errors where no machine
        # has them, past the largest dimension and past 4 EiB (gpunp's answer
        # comes from the sorted test elements; below that NumPy's outcome
        # depends on the host's memory, a 931 GiB table was had on the H200's)
        if span + 1 > numpy.iinfo(numpy.intp).max:
            raise ValueError("Maximum allowed dimension exceeded")
        if span + 1 >= 2**62:
            raise MemoryError(f"Unable to allocate a table of {span + 1} bools for "
                              "kind='table'")
    dt = numpy.promote_types(element.dtype, test.dtype)
    if test.size == 0:
        found = gp.zeros(element.shape, dtype=bool)
    else:
        e = element.astype(dt, copy=False)
        s = sort(test.astype(dt, copy=False))
        at = searchsorted(s, e)
        at = gp.minimum(at, s.size - 1)
        found = gp.equal(gp.take(s, at), e)
    return gp.logical_not(found) if invert else found


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    gp = gpunp
    ar1, ar2 = _array(ar1), _array(ar2)
    if not assume_unique:
        if return_indices:
            ar1, ind1 = unique(ar1, return_index=True)
            ar2, ind2 = unique(ar2, return_index=True)
        else:
            ar1, ar2 = unique(ar1), unique(ar2)
    else:
        ar1, ar2 = ar1.reshape(-1), ar2.reshape(-1)
    aux = gp.concatenate((ar1, ar2))
    if return_indices:
        order = argsort(aux)
        aux = gp.take(aux, order)
    else:
        aux = sort(aux)
    mask = gp.equal(aux[1:], aux[:-1])
    common = aux[:-1][mask]
    if not return_indices:
        return common
    i1 = order[:-1][mask]
    i2 = order[1:][mask] - ar1.size
    if not assume_unique:
        i1, i2 = gp.take(ind1, i1), gp.take(ind2, i2)
    return common, i1, i2


def union1d(ar1, ar2) -> ndarray:
    gp = gpunp
    return unique(gp.concatenate((_array(ar1), _array(ar2)), axis=None))


def setdiff1d(ar1, ar2, assume_unique=False) -> ndarray:
    ar1 = _array(ar1)
    if assume_unique:
        ar1 = ar1.reshape(-1)
    else:
        ar1, ar2 = unique(ar1), unique(ar2)
    return ar1[isin(ar1, ar2, assume_unique=True, invert=True)]


def setxor1d(ar1, ar2, assume_unique=False) -> ndarray:
    gp = gpunp
    ar1, ar2 = _array(ar1), _array(ar2)
    if not assume_unique:
        ar1, ar2 = unique(ar1), unique(ar2)
    aux = gp.concatenate((ar1, ar2), axis=None)
    if aux.size == 0:
        return aux
    aux = sort(aux)
    edge = gp.asarray([True])
    flag = gp.concatenate((edge, gp.not_equal(aux[1:], aux[:-1]), edge))
    return aux[gp.logical_and(flag[1:], flag[:-1])]
