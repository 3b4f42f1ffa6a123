"""The COO format: coordinates and values, duplicates allowed, any order.
Sparse arrays may be 1-D or 2-D (as SciPy's coo_array), matrices are 2-D."""

import numpy

import gpunp

from gpunp.scipy.sparse import _base, _coords
from gpunp.scipy.sparse._base import _spbase, container, scipy_sparse, sparray, spmatrix
from gpunp.scipy.sparse._index import IndexMixin
from gpunp.scipy.sparse._sputils import (
    as_device, check_shape, get_index_dtype, getdtype, isshape)


def _is_scipy_sparse(x) -> bool:
    return type(x).__module__.startswith("scipy.sparse")


class _coo_base(_spbase):
    _format = "coo"

    def __init__(self, arg1, shape=None, dtype=None, copy=False, *, maxprint=None):
        if maxprint is not None:
            self.maxprint = maxprint
        allow = self._allow_nd
        dtype = getdtype(dtype) if dtype is not None else None
        if isinstance(arg1, _spbase):
            other = arg1.tocoo(copy=copy) if arg1.format != "coo" else (
                arg1.copy() if copy else arg1)
            self._set(other.shape, other.coords, other.data, other._canonical)
        elif _is_scipy_sparse(arg1):
            host = arg1.tocoo()
            self._set(host.shape, tuple(gpunp.asarray(c) for c in host.coords),
                      gpunp.asarray(host.data), bool(host.has_canonical_format))
        elif isinstance(arg1, tuple) and isshape(arg1, allow_nd=allow):
            shape = check_shape(arg1, allow)
            idx = get_index_dtype(maxval=max(shape, default=0))
            self._set(shape, tuple(gpunp.zeros(0, dtype=idx) for _ in shape),
                      gpunp.zeros(0, dtype=dtype or numpy.float64), True)
        elif isinstance(arg1, tuple) and len(arg1) == 2 and isinstance(arg1[1], (tuple, list)) \
                and len(arg1[1]) in allow and not isinstance(arg1[1][0], (int, float)):
            data, coords = arg1
            coords = tuple(as_device(c) for c in coords)
            data = as_device(data)
            if any(c.dtype.kind not in "iu" for c in coords):
                raise TypeError("row and column indices must be integers")  # SciPy: via astype
            if shape is None:
                if any(c.size == 0 for c in coords):
                    raise ValueError("cannot infer dimensions from zero sized index arrays")
                shape = tuple(int(c.max()) + 1 for c in coords)
            shape = check_shape(shape, allow)
            if len(coords) != len(shape):
                raise TypeError(f"mismatching number of index arrays for shape; got "
                                f"{len(coords)}, expected {len(shape)}")
            idx = get_index_dtype(coords, maxval=max(shape, default=0),
                                  check_contents=not self._is_array())
            self._set(shape, tuple(c.ravel().astype(idx) for c in coords),
                      data.ravel().astype(dtype or getdtype(data.dtype)), False)
            if copy:
                self.coords = tuple(c.copy() for c in self.coords)
                self.data = self.data.copy()
            self._check()
            return
        else:
            if isinstance(arg1, (tuple, list)) and arg1 and isinstance(arg1[0], _spbase):
                raise TypeError("invalid input format")
            try:
                dense = as_device(arg1)
            except (TypeError, ValueError) as exc:
                raise TypeError(f"invalid input format: {exc}") from None
            if dense.dtype == numpy.dtype(object):
                raise TypeError("invalid input format")
            if dense.ndim == 0 or (dense.ndim == 1 and 1 not in allow):
                dense = dense.reshape(1, -1)
            if dense.ndim not in allow:
                raise TypeError(f"expected dimension <= {max(allow)} array or matrix")
            getdtype(dense.dtype)
            nzs = gpunp.nonzero(dense)
            idx = get_index_dtype(maxval=max(dense.shape, default=0))
            self._set(dense.shape, tuple(c.astype(idx) for c in nzs),
                      dense[nzs].astype(dtype or dense.dtype), True)
            if shape is not None and check_shape(shape, allow) != self.shape:
                raise ValueError(f"inconsistent shapes: {shape} != {self.shape}")
            return
        if shape is not None and check_shape(shape, allow) != self.shape:
            self._replace(self.reshape(check_shape(shape, allow)))
        if dtype is not None and self.dtype != dtype:
            self.data = self.data.astype(dtype)

    def _set(self, shape, coords, data, canonical):
        self._shape = tuple(int(d) for d in shape)
        self.coords = tuple(coords)
        self.data = data
        self._canonical = canonical

    @classmethod
    def _from_arrays(cls, shape, coords, data, canonical=False):
        """A new object on these arrays (no copy, no check)."""
        if cls is coo_matrix and len(shape) != 2:
            cls = coo_array
        obj = cls.__new__(cls)
        obj._set(shape, coords, data, canonical)
        return obj

    def _check(self):
        if any(c.size != self.data.size for c in self.coords):
            raise ValueError(f"all index and data arrays must have the same length")
        if self.data.size:
            for c, n, what in zip(self.coords, self.shape, ("row", "column")
                                  if self.ndim == 2 else ("axis 0",)):
                if int(c.max()) >= n:
                    raise ValueError(f"{what} index exceeds matrix dimensions")
                if int(c.min()) < 0:
                    raise ValueError(f"negative {what} index found")

    # ---- attributes -----------------------------------------------------------------------

    @property
    def row(self):
        return self.coords[-2] if self.ndim > 1 else gpunp.zeros_like(self.coords[-1])

    @row.setter
    def row(self, value):
        self.coords = (as_device(value).astype(self.coords[0].dtype),) + self.coords[1:]

    @property
    def col(self):
        return self.coords[-1]

    @col.setter
    def col(self, value):
        self.coords = self.coords[:-1] + (as_device(value).astype(self.coords[-1].dtype),)

    @property
    def has_canonical_format(self):
        return self._canonical

    @has_canonical_format.setter
    def has_canonical_format(self, value):
        self._canonical = bool(value)

    def _index_arrays(self):
        return self.coords

    def _operand_index_arrays(self):
        if self.nnz == 0 or not self._is_array():
            return ()
        return self.coords

    def _matmul_dense(self, other):
        out = super()._matmul_dense(other)
        if self._is_array() and other.ndim == 1 and self.shape[0] == 1:
            return out.reshape(())  # SciPy's coo_array gives a 1-row product as a 0-d array
        return out

    def _coo_arrays(self):
        return self.row, self.col, self.data

    # ---- conversions ----------------------------------------------------------------------

    def get(self, stream=None):
        sp = scipy_sparse()
        cls = sp.coo_array if self._is_array() else sp.coo_matrix
        out = cls((self.data.get(), tuple(c.get() for c in self.coords)), shape=self.shape)
        out.has_canonical_format = self._canonical
        return out

    def tocoo(self, copy=False):
        return self.copy() if copy else self

    def _to_compressed(self, fmt):
        if self.ndim != 2:
            raise ValueError(f"Cannot convert a 1d sparse array to {fmt} format"
                             if fmt != "csr" else "1-D COO to CSR is not supported by gpunp")
        if self.nnz == 0:
            return container(fmt, self)(self.shape, dtype=self.dtype)
        idx = _base.compressed_index_dtype(self, self.coords)
        row, col = self.coords
        if fmt == "csr":
            indptr, indices, data = _coords.compress(self.shape[0], row, col, self.data, idx)
        else:
            indptr, indices, data = _coords.compress(self.shape[1], col, row, self.data, idx)
        return container(fmt, self)._from_arrays(self.shape, indptr, indices, data,
                                                 canonical=True)

    def tocsr(self, copy=False):
        return self._to_compressed("csr")

    def tocsc(self, copy=False):
        return self._to_compressed("csc")

    def toarray(self, order=None, out=None):
        n = 1
        for d in self.shape:
            n *= d
        flat = gpunp.zeros(n, dtype=self.dtype)
        if self.data.size:
            if self.ndim == 2:
                key = _coords.keys(self.coords[0], self.coords[1], self.shape[1])
            else:
                key = self.coords[0]
            if self._canonical:
                flat[key] = self.data
            else:
                gpunp.add.at(flat, key, self.data)
        dense = flat.reshape(self.shape)
        if order is not None and order.upper() == "F":
            dense = gpunp.asfortranarray(dense)
        if out is not None:
            if not isinstance(out, gpunp.ndarray) or out.shape != self.shape:
                raise ValueError("Output array must be a gpunp array of the same shape")
            out[...] = dense
            return out
        return dense

    def _with_data(self, data, copy=True):
        getdtype(data.dtype)  # a float16 result is refused, as SciPy's constructor does
        coords = tuple(c.copy() for c in self.coords) if copy else self.coords
        return type(self)._from_arrays(self.shape, coords, data, self._canonical)

    def copy(self):
        return type(self)._from_arrays(self.shape, tuple(c.copy() for c in self.coords),
                                       self.data.copy(), self._canonical)

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != tuple(range(self.ndim))[::-1]:
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter "
                             "because swapping dimensions is the only logical permutation.")
        coords = self.coords[::-1]
        data = self.data
        if copy:
            coords = tuple(c.copy() for c in coords)
            data = data.copy()
        return type(self)._from_arrays(self.shape[::-1], coords, data, False)

    def reshape(self, *args, order="C", copy=False):
        shape = check_shape(args[0] if len(args) == 1 else args, self._allow_nd)
        shape = _base._infer_shape(shape, self.shape)
        if shape == self.shape:
            return self.copy() if copy else self
        if self.ndim == 1:
            raise NotImplementedError("gpunp's 1-D sparse arrays do not reshape yet")
        if order not in ("C", "F"):
            raise ValueError("'order' must be 'C' or 'F'")
        old = self.shape if order == "C" else self.shape[::-1]
        coords = self.coords if order == "C" else self.coords[::-1]
        flat = gpunp.zeros(self.nnz, dtype=numpy.int64)
        for c, d in zip(coords, old):
            flat = flat * d + c.astype(numpy.int64)
        new = shape if order == "C" else shape[::-1]
        out = []
        for d in new[::-1]:
            out.append(flat % max(d, 1))
            flat = flat // max(d, 1)
        out = out[::-1] if order == "C" else out
        idx = get_index_dtype(self.coords, maxval=max(shape))
        return type(self)._from_arrays(shape, tuple(c.astype(idx) for c in out),
                                       self.data.copy() if copy else self.data, False)

    # ---- canonical form -------------------------------------------------------------------

    def _canon(self):
        if self.ndim != 2:
            raise NotImplementedError("this operation needs a 2-D sparse array")
        row, col = self.coords
        if self._canonical:
            return row, col, self.data
        return _coords.canonical(row, col, self.data)

    def sum_duplicates(self):
        if self._canonical:
            return
        if self.ndim == 2:
            row, col, data = _coords.canonical(self.coords[0], self.coords[1], self.data)
            self.coords, self.data = (row, col), data
        else:
            zero = gpunp.zeros_like(self.coords[0])
            _, col, data = _coords.canonical(zero, self.coords[0], self.data)
            self.coords, self.data = (col,), data
        self._canonical = True

    def eliminate_zeros(self):
        keep = self.data != 0
        self.coords = tuple(c[keep] for c in self.coords)
        self.data = self.data[keep]

    def _getnnz(self):
        return self.data.size


class coo_array(IndexMixin, _coo_base, sparray):
    """A sparse array in COOrdinate format, on the device (scipy.sparse.coo_array)."""
    _allow_nd = (1, 2)


class coo_matrix(spmatrix, _coo_base):
    """A sparse matrix in COOrdinate format, on the device (scipy.sparse.coo_matrix)."""


_base.FORMATS["coo", True] = coo_array
_base.FORMATS["coo", False] = coo_matrix
