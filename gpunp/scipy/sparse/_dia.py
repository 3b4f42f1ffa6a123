"""The DIA format: a 2-D ``data`` array whose row ``d`` holds diagonal
``offsets[d]``, indexed by column (entry (i, j) of diagonal k = j - i sits at
``data[d, j]``). Its operations go through CSR, converted on the device."""

import warnings

import numpy

import gpunp

from gpunp.scipy.sparse import _base
from gpunp.scipy.sparse._base import _spbase, container, scipy_sparse, sparray, spmatrix
from gpunp.scipy.sparse._coo import _is_scipy_sparse
from gpunp.scipy.sparse._sputils import (
    SparseEfficiencyWarning, as_device, check_shape, get_index_dtype, getdtype, isshape)


class _dia_base(_spbase):
    _format = "dia"

    def __init__(self, arg1, shape=None, dtype=None, copy=False, *, maxprint=None):
        if maxprint is not None:
            self.maxprint = maxprint
        if isinstance(arg1, _spbase):
            other = arg1.todia() if arg1.format != "dia" else arg1
            data, offsets = other.data, other.offsets
            if copy or other is arg1 and copy:
                data, offsets = data.copy(), offsets.copy()
            shape = shape if shape is not None else other.shape
            self._set(other.shape, data, offsets)
        elif _is_scipy_sparse(arg1):
            host = arg1.todia()
            self._set(host.shape, gpunp.asarray(host.data), gpunp.asarray(host.offsets))
        elif isinstance(arg1, tuple) and isshape(arg1):
            shape = check_shape(arg1)
            self._set(shape, gpunp.zeros((0, 0), dtype=getdtype(dtype, numpy.float64)),
                      gpunp.zeros(0, dtype=get_index_dtype(maxval=max(shape))))
            shape = None
        elif isinstance(arg1, tuple):
            try:
                data, offsets = arg1
            except (TypeError, ValueError):
                raise ValueError("unrecognized form for dia_array constructor") from None
            if shape is None:
                raise ValueError("expected a shape argument")
            shape = check_shape(shape)
            data = as_device(data, dtype)
            data = data.reshape(1, -1) if data.ndim < 2 else data
            offsets = as_device(offsets).astype(get_index_dtype(maxval=max(shape))).reshape(-1)
            self._set(shape, data.copy() if copy else data, offsets.copy() if copy else offsets)
            shape = None
        else:
            coo = container("coo", self)(arg1, dtype=dtype, shape=shape)
            if coo.ndim != 2:
                raise ValueError(f"DIA arrays don't support {coo.ndim}D input. Use 2D")
            other = coo.todia()
            self._set(other.shape, other.data, other.offsets)
        if shape is not None:
            self._shape = check_shape(shape)
        if dtype is not None:
            self.data = self.data.astype(getdtype(dtype))
        getdtype(self.data.dtype)
        if self.offsets.ndim != 1:
            raise ValueError("offsets array must have rank 1")
        if self.data.ndim != 2:
            raise ValueError("data array must have rank 2")
        if self.data.shape[0] != self.offsets.size:
            raise ValueError(f"number of diagonals ({self.data.shape[0]}) does not match the "
                             f"number of offsets ({self.offsets.size})")
        if gpunp.unique(self.offsets).size != self.offsets.size:
            raise ValueError("offset array contains duplicate values")

    def _set(self, shape, data, offsets):
        self._shape = tuple(int(d) for d in shape)
        self.data, self.offsets = data, offsets

    @classmethod
    def _from_arrays(cls, shape, data, offsets):
        obj = cls.__new__(cls)
        obj._set(shape, data, offsets)
        return obj

    @classmethod
    def _eye(cls, n, dtype):
        return cls._from_arrays((n, n), gpunp.ones((1, n), dtype=dtype),
                                gpunp.zeros(1, dtype=numpy.int32))

    def _getnnz(self):
        m, n = self.shape
        width = min(self.data.shape[1], n)
        off = self.offsets.astype(numpy.int64)
        return int(gpunp.maximum(gpunp.minimum(m + off, width) - gpunp.maximum(off, 0),
                                 0).sum()) if off.size else 0

    def _index_arrays(self):
        return ()

    def get(self, stream=None):
        sp = scipy_sparse()
        cls = sp.dia_array if self._is_array() else sp.dia_matrix
        return cls((self.data.get(), self.offsets.get()), shape=self.shape)

    def _entries(self):
        """(row, col, data) of the stored positions inside the shape, nonzero only,
        sorted by (row, col)."""
        m, n = self.shape
        ndiag, width = self.data.shape
        col = gpunp.tile(gpunp.arange(width, dtype=numpy.int64), ndiag)
        row = col - gpunp.repeat(self.offsets.astype(numpy.int64), width)
        data = self.data.ravel()
        keep = (row >= 0) & (row < m) & (col < n) & (data != 0)
        row, col, data = row[keep], col[keep], data[keep]
        order = gpunp.lexsort((col, row))
        return row[order], col[order], data[order]

    def tocsr(self, copy=False):
        if 0 in self.shape or self.offsets.size == 0:
            return container("csr", self)(self.shape, dtype=self.dtype)
        row, col, data = self._entries()
        m = self.shape[0]
        idx = get_index_dtype(maxval=max(data.size, *self.shape))
        indptr = gpunp.searchsorted(row, gpunp.arange(m + 1, dtype=row.dtype))
        return container("csr", self)._from_arrays(self.shape, indptr.astype(idx),
                                                   col.astype(idx), data, canonical=True)

    def tocoo(self, copy=False):
        return self.tocsr().tocoo()

    def todia(self, copy=False):
        return self.copy() if copy else self

    def _canon(self):
        return self._entries()

    def toarray(self, order=None, out=None):
        return self.tocsr().toarray(order=order, out=out)

    def _with_data(self, data, copy=True):
        getdtype(data.dtype)
        return type(self)._from_arrays(self.shape, data,
                                       self.offsets.copy() if copy else self.offsets)

    def copy(self):
        return type(self)._from_arrays(self.shape, self.data.copy(), self.offsets.copy())

    def sum_duplicates(self):
        pass  # one value per position: never a duplicate

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter "
                             "because swapping dimensions is the only logical permutation.")
        return self.tocoo().transpose().todia()


def coo_todia(coo):
    """COO to DIA: one row of `data` per occupied diagonal, as wide as the last
    occupied column (SciPy's layout)."""
    if coo.ndim != 2:
        raise ValueError(f"Cannot convert. DIA format must be 2D. Got {coo.ndim}D")
    row, col, data = coo._canon()
    k = col.astype(numpy.int64) - row.astype(numpy.int64)
    diags, which = gpunp.unique(k, return_inverse=True)
    if diags.size > 100:
        warnings.warn(f"Constructing a DIA matrix with {diags.size} diagonals is inefficient",
                      SparseEfficiencyWarning, stacklevel=3)
    if data.size == 0:
        values = gpunp.zeros((0, 0), dtype=coo.dtype)
    else:
        values = gpunp.zeros((diags.size, int(col.max()) + 1), dtype=coo.dtype)
        values[which, col] = data
    idx = get_index_dtype(maxval=max(coo.shape))
    return container("dia", coo)._from_arrays(coo.shape, values, diags.astype(idx))


class dia_array(_dia_base, sparray):
    """A sparse array in DIAgonal format, on the device (scipy.sparse.dia_array)."""


class dia_matrix(spmatrix, _dia_base):
    """A sparse matrix in DIAgonal format, on the device (scipy.sparse.dia_matrix)."""


_base.FORMATS["dia", True] = dia_array
_base.FORMATS["dia", False] = dia_matrix
_base.CONVERTERS["todia"] = coo_todia
