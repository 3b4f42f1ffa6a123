"""The compressed formats, CSR and CSC. One class body serves both: CSC is
stored as the CSR arrays of the transpose, so every method speaks of the
"major" axis (rows for CSR, columns for CSC) and ``_swap`` turns a
(row, column) pair into (major, minor)."""

import numpy

import gpunp

from gpunp.scipy.sparse import _base, _coords
from gpunp.scipy.sparse._base import _spbase, container, scipy_sparse, sparray, spmatrix
from gpunp.scipy.sparse._coo import _is_scipy_sparse
from gpunp.scipy.sparse._index import IndexMixin
from gpunp.scipy.sparse._sputils import (
    as_device, check_shape, get_index_dtype, getdtype, isshape)


class _cs_matrix(_spbase):
    """CSR or CSC: indptr over the major axis, indices along the minor one."""

    def __init__(self, arg1, shape=None, dtype=None, copy=False, *, maxprint=None):
        if maxprint is not None:
            self.maxprint = maxprint
        dtype = getdtype(dtype) if dtype is not None else None
        if isinstance(arg1, _spbase):
            other = arg1.asformat(self.format, copy=copy)
            self._set(other.shape, other.indptr, other.indices, other.data, other._canonical)
        elif _is_scipy_sparse(arg1):
            host = arg1.asformat(self.format)
            self._set(host.shape, gpunp.asarray(host.indptr), gpunp.asarray(host.indices),
                      gpunp.asarray(host.data), None)
        elif isinstance(arg1, tuple) and isshape(arg1):
            shape = check_shape(arg1)
            idx = get_index_dtype(maxval=max(shape))
            self._set(shape, gpunp.zeros(self._swap(shape)[0] + 1, dtype=idx),
                      gpunp.zeros(0, dtype=idx), gpunp.zeros(0, dtype=dtype or numpy.float64),
                      True)
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            coo = container("coo", self)(arg1, shape=shape, dtype=dtype)
            other = coo.asformat(self.format)
            self._set(other.shape, other.indptr, other.indices, other.data, True)
        elif isinstance(arg1, tuple) and len(arg1) == 3:
            data, indices, indptr = (as_device(x) for x in arg1)
            maxval = None if shape is None or 0 in shape else max(check_shape(shape))
            idx = get_index_dtype((indices, indptr), maxval=maxval,
                                  check_contents=not self._is_array())
            if shape is None:
                if indices.size == 0:
                    raise ValueError("unable to infer matrix dimensions")
                shape = self._swap((indptr.size - 1, int(indices.max()) + 1))
            shape = check_shape(shape)
            if copy:
                data, indices, indptr = data.copy(), indices.copy(), indptr.copy()
            self._set(shape, indptr.ravel().astype(idx), indices.ravel().astype(idx),
                      data.ravel().astype(dtype or getdtype(data.dtype)), None)
            self.check_format(full_check=False)
            return
        else:
            try:
                coo = container("coo", self)(arg1, dtype=dtype)
            except TypeError:
                raise TypeError(f"unrecognized {type(self).__name__} constructor usage") \
                    from None
            other = coo.asformat(self.format)
            self._set(other.shape, other.indptr, other.indices, other.data, True)
        if shape is not None and check_shape(shape) != self.shape:
            raise ValueError(f"inconsistent shapes: {check_shape(shape)} != {self.shape}")
        if dtype is not None and self.dtype != dtype:
            self.data = self.data.astype(dtype)
        self.check_format(full_check=False)

    def _set(self, shape, indptr, indices, data, canonical):
        self._shape = tuple(int(d) for d in shape)
        self.indptr, self.indices, self.data = indptr, indices, data
        self._canonical = canonical  # None: not known yet
        self._sorted = canonical or None

    @classmethod
    def _from_arrays(cls, shape, indptr, indices, data, canonical=None):
        obj = cls.__new__(cls)
        obj._set(shape, indptr, indices, data, canonical)
        return obj

    def check_format(self, full_check=True):
        """SciPy's checks of the index arrays (the full one reads every index)."""
        major, minor = self._swap(self.shape)
        if self.indptr.ndim != 1 or self.indices.ndim != 1 or self.data.ndim != 1:
            raise ValueError("data, indices, and indptr should be 1-D")
        if self.indptr.size != major + 1:
            raise ValueError(f"index pointer size {self.indptr.size} should be {major + 1}")
        if int(self.indptr[0]) != 0:
            raise ValueError("index pointer should start with 0")
        if self.indices.size != self.data.size:
            raise ValueError("indices and data should have the same size")
        last = int(self.indptr[-1])
        if last > self.indices.size:
            raise ValueError("Last value of index pointer should be less than the size of "
                             "index and data arrays")
        self.prune()
        if full_check and self.nnz:
            if int(self.indices.max()) >= minor:
                raise ValueError(f"indices must be < {minor}")
            if int(self.indices.min()) < 0:
                raise ValueError("indices must be >= 0")
            if bool((gpunp.diff(self.indptr) < 0).any()):
                raise ValueError("indptr must be a non-decreasing sequence")
        elif full_check is False and self.nnz:
            # SciPy reads nothing here; an index outside the shape is still refused, so
            # that no kernel reads or writes out of bounds
            if int(self.indices.max()) >= minor or int(self.indices.min()) < 0 or \
                    bool((gpunp.diff(self.indptr) < 0).any()):
                raise ValueError("column index exceeds matrix dimensions" if self.format ==
                                 "csr" else "row index exceeds matrix dimensions")

    def prune(self):
        last = int(self.indptr[-1])
        if self.indices.size > last:
            self.indices = self.indices[:last].copy()
            self.data = self.data[:last].copy()

    # ---- attributes -----------------------------------------------------------------------

    def _getnnz(self):
        return int(self.indptr[-1])

    def _index_arrays(self):
        return self.indices, self.indptr

    def _majors(self):
        return _coords.expand(self.indptr, self._swap(self.shape)[0])

    @property
    def has_sorted_indices(self):
        if self._sorted is None:
            major, minor = self._majors(), self.indices
            ok = (major[1:] != major[:-1]) | (minor[1:] >= minor[:-1])
            self._sorted = bool(ok.all())
        return self._sorted

    @has_sorted_indices.setter
    def has_sorted_indices(self, value):
        self._sorted = bool(value)

    @property
    def has_canonical_format(self):
        if self._canonical is None:
            major, minor = self._majors(), self.indices
            ok = (major[1:] != major[:-1]) | (minor[1:] > minor[:-1])
            self._canonical = bool(ok.all())
            if self._canonical:
                self._sorted = True
        return self._canonical

    @has_canonical_format.setter
    def has_canonical_format(self, value):
        self._canonical = bool(value)
        if value:
            self._sorted = True

    # ---- conversions ----------------------------------------------------------------------

    def get(self, stream=None):
        sp = scipy_sparse()
        name = self.format + ("_array" if self._is_array() else "_matrix")
        out = getattr(sp, name)(self.shape, dtype=self.dtype)
        # set the arrays directly: SciPy's constructor would narrow a matrix's indices
        out.data, out.indices, out.indptr = self.data.get(), self.indices.get(), \
            self.indptr.get()
        if self._canonical is not None:
            out.has_canonical_format = self._canonical
        return out

    def _coo_arrays(self):
        major = self._majors()
        row, col = self._swap((major, self.indices))
        return row, col, self.data

    def tocoo(self, copy=False):
        row, col, data = self._coo_arrays()
        if copy:
            col, row, data = col.copy(), row.copy(), data.copy()
        return container("coo", self)._from_arrays(self.shape, (row, col), data,
                                                   canonical=self.format == "csr" and
                                                   self._canonical is True)

    def asformat(self, format, copy=False):
        if format == self.format:
            return self.copy() if copy else self
        if format in ("csr", "csc"):
            return self._to_other_compressed(format)
        return super().asformat(format, copy=copy)

    def tocsr(self, copy=False):
        return self.asformat("csr", copy=copy)

    def tocsc(self, copy=False):
        return self.asformat("csc", copy=copy)

    def _to_other_compressed(self, fmt):
        idx = _base.compressed_index_dtype(self, self._index_arrays())
        major = self._majors()
        nminor = self._swap(self.shape)[1]
        indptr, indices, data = _coords.compress(nminor, self.indices, major, self.data, idx,
                                                 sum_dup=False)
        return container(fmt, self)._from_arrays(self.shape, indptr, indices, data, None)

    def toarray(self, order=None, out=None):
        return self.tocoo().toarray(order=order, out=out)

    def _with_data(self, data, copy=True):
        getdtype(data.dtype)  # a float16 result is refused, as SciPy's constructor does
        indptr, indices = (self.indptr.copy(), self.indices.copy()) if copy else \
            (self.indptr, self.indices)
        return type(self)._from_arrays(self.shape, indptr, indices, data, self._canonical)

    def _with_index_dtype(self, idx):
        return type(self)._from_arrays(self.shape, self.indptr.astype(idx),
                                       self.indices.astype(idx), self.data, self._canonical)

    def copy(self):
        return type(self)._from_arrays(self.shape, self.indptr.copy(), self.indices.copy(),
                                       self.data.copy(), self._canonical)

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter "
                             "because swapping dimensions is the only logical permutation.")
        other = "csc" if self.format == "csr" else "csr"
        arrays = (self.indptr, self.indices, self.data)
        if copy:
            arrays = tuple(a.copy() for a in arrays)
        return container(other, self)._from_arrays(self.shape[::-1], *arrays,
                                                   canonical=self._canonical)

    # ---- canonical form -------------------------------------------------------------------

    def _canon(self):
        row, col, data = self._coo_arrays()
        if self.format == "csr" and self.has_canonical_format:
            return row, col, data
        return _coords.canonical(row, col, data)

    def _recompress(self, sum_dup):
        nmajor = self._swap(self.shape)[0]
        indptr, indices, data = _coords.compress(nmajor, self._majors(), self.indices,
                                                 self.data, self.indices.dtype, sum_dup)
        self.indptr, self.indices, self.data = indptr.astype(self.indptr.dtype), indices, data

    def sum_duplicates(self):
        if self.has_canonical_format:
            return
        self._recompress(True)
        self.has_canonical_format = True

    def sort_indices(self):
        if not self.has_sorted_indices:
            self._recompress(False)
            self._sorted = True

    def sorted_indices(self):
        out = self.copy()
        out.sort_indices()
        return out

    def eliminate_zeros(self):
        keep = self.data != 0
        major = self._majors()[keep]
        self.indices, self.data = self.indices[keep], self.data[keep]
        nmajor = self._swap(self.shape)[0]
        self.indptr = gpunp.searchsorted(major, gpunp.arange(
            nmajor + 1, dtype=major.dtype)).astype(self.indptr.dtype)


class _csr_base(_cs_matrix):
    _format = "csr"

    @staticmethod
    def _swap(x):
        return x


class _csc_base(_cs_matrix):
    _format = "csc"

    @staticmethod
    def _swap(x):
        return x[1], x[0]

    def nonzero(self):
        """In C order of rows (stable in the stored order), as SciPy's CSC gives them."""
        row, col = super().nonzero()
        order = gpunp.argsort(row, kind="stable")
        return row[order], col[order]


class csr_array(IndexMixin, _csr_base, sparray):
    """A sparse array in Compressed Sparse Row format, on the device."""


class csr_matrix(spmatrix, IndexMixin, _csr_base):
    """A sparse matrix in Compressed Sparse Row format, on the device."""


class csc_array(IndexMixin, _csc_base, sparray):
    """A sparse array in Compressed Sparse Column format, on the device."""


class csc_matrix(spmatrix, IndexMixin, _csc_base):
    """A sparse matrix in Compressed Sparse Column format, on the device."""


_base.FORMATS.update({("csr", True): csr_array, ("csr", False): csr_matrix,
                      ("csc", True): csc_array, ("csc", False): csc_matrix})
