"""Indexing of the CSR, CSC and COO formats (get and set): integers, slices,
integer arrays and boolean masks per axis, or a pair of integer arrays
(elementwise). Every selection is computed on the canonical coordinates on
the device: the selected rows and columns become sorted lookup tables, and
entries are matched (and repeated, for repeated indices) with searchsorted,
repeat and cumsum, never by a loop over rows or entries."""

import operator
import warnings

import numpy

import gpunp

from gpunp.scipy.sparse import _coords
from gpunp.scipy.sparse._base import container, issparse
from gpunp.scipy.sparse._sputils import (
    SparseEfficiencyWarning, as_device, get_index_dtype, isintlike)


def _axis_key(key, n):
    """One axis of a key: ('int', i) or ('array', gpunp int64 array, kind) with
    bounds checked and negatives wrapped, as SciPy's errors say."""
    if isinstance(key, slice):
        return ("array", gpunp.arange(*key.indices(n), dtype=numpy.int64), "slice")
    if isintlike(key) and not isinstance(key, (bool, numpy.bool_)):
        i = operator.index(key)
        if not -n <= i < n:
            raise IndexError(f"index ({i}) out of range")
        return ("int", i % n if n else i)
    if isinstance(key, (list, tuple, numpy.ndarray, gpunp.ndarray)):
        arr = as_device(key) if not isinstance(key, (list, tuple)) or len(key) else \
            gpunp.zeros(0, dtype=numpy.int64)
        if arr.dtype == bool:
            if arr.ndim != 1 or arr.shape[0] != n:
                raise IndexError(f"bool index 0 has shape {tuple(arr.shape)} instead of "
                                 f"({n},)")
            return ("array", gpunp.flatnonzero(arr).astype(numpy.int64), "bool")
        if arr.dtype.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        arr = arr.astype(numpy.int64)
        if arr.size:
            lo, hi = int(arr.min()), int(arr.max())
            if hi >= n or lo < -n:
                raise IndexError(f"index ({hi if hi >= n else lo}) out of range")
            arr = gpunp.where(arr < 0, arr + n, arr)
        return ("array", arr, "fancy")
    raise IndexError("Index dimension must be 1 or 2. Got 0")


def _split_key(key, shape):
    if isinstance(key, tuple):
        parts = [k for k in key if k is not Ellipsis]
        if len(parts) > 2:
            raise IndexError("Too many indices for array")
        if len(parts) < len(key) and len(parts) < 2:
            parts = parts + [slice(None)] * (2 - len(parts))
    else:
        if issparse(key):
            raise IndexError("indexing with a sparse mask is not supported by gpunp")
        key_arr = key
        if isinstance(key_arr, (gpunp.ndarray, numpy.ndarray)) and key_arr.ndim == 2 and \
                key_arr.dtype == bool:
            if tuple(key_arr.shape) != shape:
                raise IndexError("boolean index did not match indexed array")
            r, c = gpunp.nonzero(as_device(key_arr))
            return [r, c]
        parts = [key]
    while len(parts) < 2:
        parts.append(slice(None))
    return parts


def _expand(sel, values):
    """For each value, the positions in `sel` (a 1-D selection) that equal it:
    (index of the value, output position), one pair per match."""
    order = gpunp.argsort(sel, kind="stable")
    srt = sel[order]
    lo = gpunp.searchsorted(srt, values, side="left")
    hi = gpunp.searchsorted(srt, values, side="right")
    counts = hi - lo
    total = int(counts.sum()) if counts.size else 0
    which = _coords.repeat_index(counts)
    start = gpunp.cumsum(counts) - counts
    offset = gpunp.arange(total, dtype=numpy.int64) - start[which]
    return which, order[lo[which] + offset]


def _broadcast(a, b):
    try:
        return gpunp.broadcast_arrays(a, b)
    except ValueError:
        raise IndexError(f"shape mismatch: indexing arrays could not be broadcast together "
                         f"with shapes {tuple(a.shape)} {tuple(b.shape)}") from None


def _paired(r, c):
    """Two index arrays (integer or boolean) pair up elementwise, as in NumPy."""
    return r[0] == "array" and c[0] == "array" and r[2] != "slice" and c[2] != "slice"


class IndexMixin:
    """__getitem__ and __setitem__ for CSR, CSC and COO arrays (and CSR/CSC matrices)."""

    def __getitem__(self, key):
        if self.ndim != 2:
            raise NotImplementedError("indexing a 1-D sparse array is not supported by gpunp")
        m, n = self.shape
        rk, ck = _split_key(key, self.shape)
        r, c = _axis_key(rk, m), _axis_key(ck, n)
        if r[0] == "int" and c[0] == "int":
            return self._values_at(gpunp.asarray([r[1]]), gpunp.asarray([c[1]])).reshape(())
        if _paired(r, c):
            rows, cols = _broadcast(r[1], c[1])
            if rows.size == 0:  # SciPy gives an empty sparse result here
                if self._is_array():
                    return container("coo", True)((0,), dtype=self.dtype)
                return container(self.format, False)((1, 0), dtype=self.dtype)
            out = self._values_at(rows.ravel(), cols.ravel()).reshape(rows.shape)
            if self.format == "coo" and out.ndim == 1:
                # SciPy's COO gives the stored values it finds as a 1-D COO array
                hit = gpunp.flatnonzero(self._stored_at(rows, cols))
                return container("coo", True)._from_arrays(
                    (out.size,), (hit.astype(get_index_dtype(maxval=out.size)),), out[hit])
            if not self._is_array() and out.ndim < 2:
                out = out.reshape(1, -1)
            return out
        rsel = gpunp.asarray([r[1]], dtype=numpy.int64) if r[0] == "int" else r[1]
        csel = gpunp.asarray([c[1]], dtype=numpy.int64) if c[0] == "int" else c[1]
        row, col, data = self._canon()
        e, orow = _expand(rsel, row.astype(numpy.int64))
        col, data = col.astype(numpy.int64)[e], data[e]
        e, ocol = _expand(csel, col)
        orow, data = orow[e], data[e]
        shape = (rsel.size, csel.size)
        idx = get_index_dtype(self._index_arrays(), maxval=max(data.size, *shape))
        if self._is_array() and (r[0] == "int" or c[0] == "int"):
            # a sparse array loses the integer-indexed axis, as NumPy does
            keep, size = (ocol, shape[1]) if r[0] == "int" else (orow, shape[0])
            order = gpunp.argsort(keep, kind="stable")
            return container("coo", True)._from_arrays(
                (size,), (keep[order].astype(idx),), data[order], canonical=False)
        out = self._from_triples(self.format, orow.astype(idx), ocol.astype(idx), data,
                                 shape=shape)
        return out

    def _values_at(self, rows, cols):
        """The values at (rows[k], cols[k]) (zero where nothing is stored)."""
        row, col, data = self._canon()
        ncols = self.shape[1]
        keys = _coords.keys(row, col, ncols)
        want = _coords.keys(rows, cols, ncols)
        out = gpunp.zeros(want.size, dtype=self.dtype)
        if keys.size and want.size:
            pos = gpunp.minimum(gpunp.searchsorted(keys, want), keys.size - 1)
            hit = keys[pos] == want
            out = gpunp.where(hit, data[pos], out)
        return out

    def _stored_at(self, rows, cols):
        """Whether an entry is stored at each (rows[k], cols[k])."""
        row, col, _ = self._canon()
        keys = _coords.keys(row, col, self.shape[1])
        want = _coords.keys(rows, cols, self.shape[1])
        if keys.size == 0:
            return gpunp.zeros(want.size, dtype=bool)
        pos = gpunp.minimum(gpunp.searchsorted(keys, want), keys.size - 1)
        return keys[pos] == want

    def __setitem__(self, key, value):
        if self.ndim != 2:
            raise NotImplementedError("indexing a 1-D sparse array is not supported by gpunp")
        m, n = self.shape
        rk, ck = _split_key(key, self.shape)
        r, c = _axis_key(rk, m), _axis_key(ck, n)
        rsel = gpunp.asarray([r[1]], dtype=numpy.int64) if r[0] == "int" else r[1]
        csel = gpunp.asarray([c[1]], dtype=numpy.int64) if c[0] == "int" else c[1]
        if _paired(r, c):
            rows, cols = _broadcast(rsel, csel)
        else:
            rows = gpunp.repeat(rsel, csel.size).reshape(rsel.size, csel.size)
            cols = gpunp.tile(csel, rsel.size).reshape(rsel.size, csel.size)
        if issparse(value):
            value = value.toarray()
        if not isinstance(value, gpunp.ndarray):
            if isinstance(value, numpy.ndarray) and value.ndim:
                raise TypeError(f"Unsupported type {type(value)}: gpunp does not move NumPy "
                                "arrays to the device implicitly; use gpunp.asarray(x)")
            value = gpunp.asarray(numpy.asarray(value))
        if r[0] == "int" and c[0] == "int" and value.size != 1:
            raise ValueError("Trying to assign a sequence to an item")
        try:
            vals = gpunp.broadcast_to(value.astype(self.dtype), rows.shape)
        except ValueError:
            if value.ndim == 2 and value.shape == rows.shape[::-1] and 1 in rows.shape:
                vals = value.reshape(rows.shape).astype(self.dtype)
            else:
                raise ValueError(f"shape mismatch in assignment: {tuple(value.shape)} and "
                                 f"{tuple(rows.shape)}") from None
        if rows.size == 0:
            return  # nothing selected (SciPy 1.17 raises for some of these; NumPy does not)
        rows, cols, vals = rows.ravel(), cols.ravel(), vals.ravel()
        ncols = n
        tkeys = _coords.keys(rows, cols, ncols)
        # the last assignment to a position wins, as in NumPy
        order = gpunp.argsort(tkeys, kind="stable")
        tkeys, vals = tkeys[order], vals[order]
        last = gpunp.ones(tkeys.size, dtype=bool)
        last[:-1] = tkeys[1:] != tkeys[:-1]
        tkeys, vals = tkeys[last], vals[last]
        row, col, data = self._canon()
        keys = _coords.keys(row, col, ncols)
        pos = gpunp.minimum(gpunp.searchsorted(tkeys, keys), tkeys.size - 1)
        keep = tkeys[pos] != keys
        if self.format in ("csr", "csc"):
            present = gpunp.minimum(gpunp.searchsorted(keys, tkeys), max(keys.size - 1, 0))
            if keys.size == 0 or not bool((keys[present] == tkeys).all()):
                warnings.warn(f"Changing the sparsity structure of a {type(self).__name__} is "
                              "expensive. lil and dok are more efficient.",
                              SparseEfficiencyWarning, stacklevel=2)
        nrow = gpunp.concatenate([row[keep].astype(numpy.int64), tkeys // max(ncols, 1)])
        ncol = gpunp.concatenate([col[keep].astype(numpy.int64), tkeys % max(ncols, 1)])
        ndata = gpunp.concatenate([data[keep], vals])
        self._replace(self._from_triples(self.format, nrow, ncol, ndata))
