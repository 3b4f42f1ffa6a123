"""The sparse structure that csgraph and sparse.linalg read, by duck type:
a sparse input is anything with ``tocsr()`` whose result has ``indptr``,
``indices``, ``data`` and ``shape`` (gpunp's sparse classes, SciPy's);
a dense input is an array. Every helper works on gpunp arrays on the
device: no loop over rows or entries."""

import numpy

import gpunp as gp
import gpunp.scipy.sparse as sparse


def is_sparse(a):
    return not isinstance(a, (gp.ndarray, numpy.ndarray)) and hasattr(a, "tocsr")


def device(x):
    """An array argument as a gpunp array. A NumPy array is refused, as
    gpunp's own functions refuse it: moving host data is the caller's
    explicit step (gpunp.asarray), never a hidden copy."""
    if isinstance(x, numpy.ndarray):
        raise TypeError(f"Unsupported type {type(x)}: use gpunp.asarray(x) to move it")
    return gp.asarray(x)


def csr_parts(a):
    """(indptr, indices, data, shape) of a sparse input, as gpunp arrays
    (duplicates and unsorted indices kept as they are). A SciPy matrix on
    the host is refused: gpunp's sparse classes move it explicitly."""
    c = a.tocsr()
    if isinstance(c.data, numpy.ndarray):
        raise TypeError(f"Unsupported type {type(a)}: a sparse matrix on the host; move it "
                        f"with gpunp.scipy.sparse's classes (e.g. csr_array(x))")
    shape = tuple(int(s) for s in c.shape)
    return gp.asarray(c.indptr), gp.asarray(c.indices), gp.asarray(c.data), shape


def entry_rows(indptr):
    """The row of each stored entry of a CSR matrix."""
    m = indptr.shape[0] - 1
    return gp.repeat(gp.arange(m, dtype=indptr.dtype), gp.diff(indptr))


def csr_from_mask(dense, mask):
    """(indptr, indices, data) of the entries of a 2-D gpunp array where
    mask is true, row by row with ascending columns (as SciPy's
    conversions from dense order them)."""
    rows, cols = gp.nonzero(mask)
    data = dense[rows, cols]
    counts = gp.bincount(rows, minlength=dense.shape[0])
    indptr = gp.concatenate([gp.zeros(1, dtype=gp.int64), gp.cumsum(counts)])
    return indptr, cols, data


def csr_to_dense(indptr, indices, data, shape, dtype=None):
    """The dense matrix of a CSR matrix, duplicates summed."""
    dtype = dtype or data.dtype
    flat = entry_rows(indptr).astype(gp.int64) * shape[1] + indices.astype(gp.int64)
    return scatter_reduce(gp.add, flat, data.astype(dtype), shape[0] * shape[1],
                          0).reshape(shape)


def as_dense(a):
    """A 2-D input (dense or sparse) as a dense gpunp array."""
    if is_sparse(a):
        indptr, indices, data, shape = csr_parts(a)
        return csr_to_dense(indptr, indices, data, shape)
    return device(a)


def _csr_result(data, indices, indptr, shape, like=None, format="csr"):
    """The one place a sparse result is built, from CSR arrays: of SciPy's
    flavour, a sparse matrix where `like` (the input) is one and a sparse
    array otherwise (a dense or absent input), converted to `format`;
    int32 indices where they fit, as SciPy's algorithms make them."""
    cls = sparse.csr_matrix if isinstance(like, sparse.spmatrix) else sparse.csr_array
    idx = sparse.get_index_dtype(maxval=max(tuple(shape) + (int(data.shape[0]),)))
    out = cls((data, indices.astype(idx), indptr.astype(idx)), shape=shape)
    return out if format == "csr" else out.asformat(format)


def _dense_result(dense, like=None, format="csr"):
    """_csr_result of the nonzero entries of a 2-D gpunp array."""
    indptr, indices, data = csr_from_mask(dense, dense != 0)
    return _csr_result(data, indices, indptr, dense.shape, like, format)


def canonical_coo(indptr, indices, data, shape):
    """(rows, cols, data) with duplicates summed, sorted by row then column."""
    rows = entry_rows(indptr).astype(gp.int64)
    key = rows * shape[1] + indices.astype(gp.int64)
    uniq, inverse = gp.unique(key, return_inverse=True)
    summed = scatter_reduce(gp.add, inverse, data, uniq.shape[0], 0)
    return uniq // max(shape[1], 1), uniq % max(shape[1], 1), summed


class Segments:
    """A scatter with reduction (``out[dest[i]] op= values[i]``) planned
    once for fixed destinations: the values are sorted by destination and
    reduced per run (``ufunc.reduceat``). gpunp's ``ufunc.at`` takes one
    round per repeat of a destination, so a vertex of high degree (or a
    long row) would cost as many rounds; this costs one sort, then one
    gather and one segmented reduction per use."""

    def __init__(self, dest, size):
        self.size = size
        self.empty = dest.shape[0] == 0
        if self.empty:
            return
        self.order = gp.argsort(dest, kind="stable")
        sd = dest[self.order]
        head = gp.concatenate([gp.ones(1, dtype=bool), sd[1:] != sd[:-1]])
        self.starts = gp.flatnonzero(head)
        self.targets = sd[self.starts]

    def reduce(self, ufunc, values, fill, dtype=None):
        """A new array of `size` rows: the reduction of the values sent to
        each destination, `fill` where none is."""
        dtype = dtype or values.dtype
        out = gp.full((self.size,) + tuple(values.shape[1:]), fill, dtype=dtype)
        if not self.empty:
            out[self.targets] = ufunc.reduceat(values[self.order], self.starts, axis=0)
        return out


def scatter_reduce(ufunc, dest, values, size, fill, dtype=None):
    """One scatter with reduction (see Segments)."""
    return Segments(dest, size).reduce(ufunc, values, fill, dtype)
