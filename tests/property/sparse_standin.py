"""A test-only CSR matrix for gpunp.scipy.sparse.linalg and .csgraph, until
gpunp's own sparse classes are merged: SciPy's CSR arrays moved to the device
with gpunp.asarray, and the few methods the code under test reads
(``tocsr``, ``indptr``/``indices``/``data``, ``shape``, ``dtype``, ``@``,
``T``, ``conj``). Products are dense scatters, built from public gpunp ops."""

import numpy as np
import scipy.sparse as sp

import gpunp as gp


class CSR:
    def __init__(self, m):
        # a copy: SciPy sums a matrix's duplicates in place when it reads it
        m = sp.csr_array(m, copy=True)
        self.host = m
        self.shape = m.shape
        self.dtype = m.dtype
        self.indptr = gp.asarray(m.indptr)
        self.indices = gp.asarray(m.indices)
        self.data = gp.asarray(m.data)
        self.ndim = 2
        self.format = "csr"

    @property
    def nnz(self):
        return self.host.nnz

    def tocsr(self, copy=False):
        return self

    def toarray(self):
        return gp.asarray(self.host.toarray())

    @property
    def T(self):
        return CSR(self.host.T)

    def conj(self):
        return CSR(self.host.conj())

    def _rows(self):
        return gp.repeat(gp.arange(self.shape[0]), gp.diff(self.indptr))

    def __matmul__(self, x):
        x = gp.asarray(x)
        dt = np.result_type(self.dtype, x.dtype)
        out = gp.zeros((self.shape[0],) + x.shape[1:], dtype=dt)
        gp.add.at(out, self._rows(), self.data.astype(dt)[(...,) + (None,) * (x.ndim - 1)]
                  * x[self.indices])
        return out

    dot = __matmul__


def random_csr(rng, m, n, density, dtype=np.float64, index_dtype=np.int32,
               duplicates=False, unsorted=False):
    """SciPy's CSR of a random matrix, optionally with duplicate entries and
    unsorted indices within rows (the same matrix, as SciPy sums them)."""
    a = sp.random_array((m, n), density=density, rng=rng, dtype=np.float64, format="coo")
    data = a.data.astype(dtype)
    if np.dtype(dtype).kind == "c":
        data = data + 1j * rng.standard_normal(len(data)).astype(dtype)
    rows, cols = a.coords
    if duplicates and len(data):
        half = data / 2
        data = np.concatenate([half, data - half])
        rows, cols = np.concatenate([rows, rows]), np.concatenate([cols, cols])
    order = rng.permutation(len(data)) if unsorted else np.lexsort((cols, rows))
    rows, cols, data = rows[order], cols[order], data[order]
    counts = np.bincount(rows, minlength=m)
    # a stable sort by row keeps the (possibly shuffled) order within each row
    by_row = np.argsort(rows, kind="stable")
    indptr = np.concatenate([[0], np.cumsum(counts)]).astype(index_dtype)
    return sp.csr_array((data[by_row], cols[by_row].astype(index_dtype), indptr),
                        shape=(m, n))
