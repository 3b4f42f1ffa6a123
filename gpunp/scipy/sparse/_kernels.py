"""The three hot products of the sparse formats, built from gpunp's public
operations: a correct reference that runs on every backend. The engine's
versions (``_device.py``, cuSPARSE on CUDA, generated kernels elsewhere) take
the same arguments and give the same results; every product of the sparse
classes goes through these three functions and nothing else.

Arguments are gpunp arrays: ``shape`` a tuple of two ints, index arrays int32
or int64 (one dtype per matrix), data of any sparse dtype. Results are new
C-contiguous gpunp arrays of ``numpy.result_type`` of the operands."""

import numpy

import gpunp

from gpunp.scipy.sparse._coords import expand, repeat_index, segment_reduce

_INT32_MAX = numpy.iinfo(numpy.int32).max


def _row_of_entry(indptr, nrows):
    """The row of each stored entry of a CSR matrix."""
    return expand(indptr, nrows)


def csr_matvec(shape, indptr, indices, data, x):
    """y = A @ x for CSR A and a vector x of length shape[1]."""
    dtype = numpy.result_type(data.dtype, x.dtype)
    y = gpunp.zeros(shape[0], dtype=dtype)
    if data.size:
        # sums each row in the order of its entries, as SciPy's csr_matvec does
        gpunp.add.at(y, _row_of_entry(indptr, shape[0]),
                     data.astype(dtype) * x.astype(dtype)[indices])
    return y


def csr_matmat(shape, indptr, indices, data, X):
    """Y = A @ X for CSR A and a dense (shape[1], k) X."""
    dtype = numpy.result_type(data.dtype, X.dtype)
    Y = gpunp.zeros((shape[0], X.shape[1]), dtype=dtype)
    if data.size and X.shape[1]:
        gpunp.add.at(Y, _row_of_entry(indptr, shape[0]),
                     data.astype(dtype)[:, None] * X.astype(dtype)[indices])
    return Y


def csr_spgemm(shape_a, a_indptr, a_indices, a_data, shape_b, b_indptr, b_indices, b_data):
    """C = A @ B for CSR A and B, as CSR (indptr, indices, data): indices sorted
    within each row, duplicates summed, entries that sum to exactly zero
    dropped (SciPy's csr_matmat keeps none)."""
    nrows, ncols = shape_a[0], shape_b[1]
    dtype = numpy.result_type(a_data.dtype, b_data.dtype)
    a_rows = _row_of_entry(a_indptr, nrows).astype(numpy.int64)
    a_cols = a_indices.astype(numpy.int64)
    b_ptr = b_indptr.astype(numpy.int64)
    # each entry a_ij meets every entry of row j of B
    counts = (b_ptr[1:] - b_ptr[:-1])[a_cols]
    total = int(counts.sum()) if counts.size else 0
    if total:
        pair = repeat_index(counts)
        first = gpunp.cumsum(counts) - counts
        b_pos = b_ptr[:-1][a_cols][pair] + (gpunp.arange(total, dtype=numpy.int64)
                                           - first[pair])
        rows = a_rows[pair]
        cols = b_indices.astype(numpy.int64)[b_pos]
        vals = a_data.astype(dtype)[pair] * b_data.astype(dtype)[b_pos]
        # stable: the products of one (row, col) are summed in A's entry order
        order = gpunp.lexsort((cols, rows))
        rows, cols, vals = rows[order], cols[order], vals[order]
        new = gpunp.ones(total, dtype=bool)
        new[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])
        vals, starts = segment_reduce(gpunp.add, vals, new)  # (booleans: an or)
        rows, cols = rows[starts], cols[starts]
        keep = vals != 0
        rows, cols, vals = rows[keep], cols[keep], vals[keep]
    else:
        rows = gpunp.zeros(0, dtype=numpy.int64)
        cols = gpunp.zeros(0, dtype=numpy.int64)
        vals = gpunp.zeros(0, dtype=dtype)
    nnz = int(vals.size)
    idx = numpy.int32 if max(nnz, nrows, ncols) <= _INT32_MAX else numpy.int64
    indptr = gpunp.searchsorted(rows, gpunp.arange(nrows + 1, dtype=numpy.int64)).astype(idx)
    return indptr, gpunp.ascontiguousarray(cols.astype(idx)), gpunp.ascontiguousarray(vals)
