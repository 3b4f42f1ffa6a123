"""The BSR format: CSR over blocks of R x C values (``data`` is (nblocks, R,
C), ``indices`` the block columns, ``indptr`` over block rows). Conversions
to and from CSR run on the device; the other operations go through CSR."""

import numpy

import gpunp

from gpunp.scipy.sparse import _base, _coords
from gpunp.scipy.sparse._base import _spbase, container, scipy_sparse, sparray, spmatrix
from gpunp.scipy.sparse._coo import _is_scipy_sparse
from gpunp.scipy.sparse._sputils import (
    as_device, check_shape, get_index_dtype, getdtype, isshape)


class _bsr_base(_spbase):
    _format = "bsr"

    def __init__(self, arg1, shape=None, dtype=None, copy=False, blocksize=None, *,
                 maxprint=None):
        if maxprint is not None:
            self.maxprint = maxprint
        if blocksize is not None and not (isshape(tuple(blocksize)) if isinstance(
                blocksize, (tuple, list)) else False):
            raise ValueError(f"invalid blocksize={blocksize}")
        if isinstance(arg1, _spbase):
            other = arg1 if arg1.format == "bsr" and (
                blocksize is None or tuple(blocksize) == arg1.blocksize) else \
                arg1.tobsr(blocksize=blocksize)
            arrays = (other.data, other.indices, other.indptr)
            if copy:
                arrays = tuple(a.copy() for a in arrays)
            self._set(other.shape, *arrays)
        elif _is_scipy_sparse(arg1):
            host = arg1.tobsr(blocksize=blocksize)
            self._set(host.shape, gpunp.asarray(host.data), gpunp.asarray(host.indices),
                      gpunp.asarray(host.indptr))
        elif isinstance(arg1, tuple) and isshape(arg1):
            shape = check_shape(arg1)
            m, n = shape
            r, c = blocksize if blocksize is not None else (1, 1)
            if m % r or n % c:
                raise ValueError("shape must be multiple of blocksize")
            idx = get_index_dtype(maxval=max(m // r, n // c, r, c))
            self._set(shape, gpunp.zeros((0, r, c), dtype=getdtype(dtype, numpy.float64)),
                      gpunp.zeros(0, dtype=idx), gpunp.zeros(m // r + 1, dtype=idx))
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            coo = container("coo", self)(arg1, shape=shape, dtype=dtype)
            other = coo.tobsr(blocksize=blocksize)
            self._set(other.shape, other.data, other.indices, other.indptr)
        elif isinstance(arg1, tuple) and len(arg1) == 3:
            data, indices, indptr = (as_device(a) for a in arg1)
            maxval = max(check_shape(shape)) if shape is not None else 1
            if blocksize is not None:
                maxval = max(maxval, *blocksize)
            idx = get_index_dtype((indices, indptr), maxval=maxval,
                                  check_contents=True)
            if data.ndim != 3:
                raise ValueError(f"BSR data must be 3-dimensional, got shape={data.shape}")
            if blocksize is not None and tuple(blocksize) != tuple(data.shape[1:]):
                raise ValueError(f"mismatching blocksize={tuple(blocksize)} vs "
                                 f"{tuple(data.shape[1:])}")
            if shape is None:
                if indices.size == 0:
                    raise ValueError("unable to infer matrix dimensions")
                r, c = data.shape[1:]
                shape = ((indptr.size - 1) * r, (int(indices.max()) + 1) * c)
            arrays = (data.astype(dtype or getdtype(data.dtype)), indices.astype(idx),
                      indptr.astype(idx))
            if copy:
                arrays = tuple(a.copy() for a in arrays)
            self._set(check_shape(shape), *arrays)
        else:
            coo = container("coo", self)(arg1, dtype=dtype)
            if coo.ndim != 2:
                raise ValueError(f"BSR arrays don't support {coo.ndim}D input. Use 2D")
            other = coo.tobsr(blocksize=blocksize)
            self._set(other.shape, other.data, other.indices, other.indptr)
        if shape is not None:
            self._shape = check_shape(shape)
        if dtype is not None:
            self.data = self.data.astype(getdtype(dtype))
        self._check()

    def _set(self, shape, data, indices, indptr):
        self._shape = tuple(int(d) for d in shape)
        self.data, self.indices, self.indptr = data, indices, indptr

    @classmethod
    def _from_arrays(cls, shape, data, indices, indptr):
        obj = cls.__new__(cls)
        obj._set(shape, data, indices, indptr)
        return obj

    def _check(self):
        m, n = self.shape
        r, c = self.blocksize
        if m % r or n % c:
            raise ValueError("shape must be multiple of blocksize")
        if self.indptr.size != m // r + 1:
            raise ValueError(f"index pointer size ({self.indptr.size}) should be "
                             f"({m // r + 1})")
        if int(self.indptr[0]) != 0:
            raise ValueError("index pointer should start with 0")
        if self.indices.size != self.data.shape[0]:
            raise ValueError("indices and data should have the same size")
        if int(self.indptr[-1]) > self.indices.size:
            raise ValueError("Last value of index pointer should be less than the size of "
                             "index and data arrays")
        if self.indices.size and (int(self.indices.max()) >= n // c or
                                  int(self.indices.min()) < 0 or
                                  bool((gpunp.diff(self.indptr) < 0).any())):
            raise ValueError("column index values must be < %d" % (n // c))

    @property
    def blocksize(self):
        return tuple(int(d) for d in self.data.shape[1:])

    def _getnnz(self):
        r, c = self.blocksize
        return int(self.indptr[-1]) * r * c

    def _index_arrays(self):
        return self.indices, self.indptr

    @property
    def has_canonical_format(self):
        return self.tocsr_blocks_canonical()

    def tocsr_blocks_canonical(self):
        major = _coords.expand(self.indptr, self.indptr.size - 1)
        ok = (major[1:] != major[:-1]) | (self.indices[1:] > self.indices[:-1])
        return bool(ok.all())

    def get(self, stream=None):
        sp = scipy_sparse()
        cls = sp.bsr_array if self._is_array() else sp.bsr_matrix
        out = cls((self.data.get(), self.indices.get(), self.indptr.get()), shape=self.shape,
                  blocksize=self.blocksize)
        out.indices, out.indptr = self.indices.get(), self.indptr.get()
        return out

    def tocoo(self, copy=True):
        """Every value of every block, explicit zeros too (SciPy's order)."""
        r, c = self.blocksize
        nblocks = int(self.indptr[-1])
        brow = _coords.expand(self.indptr, self.indptr.size - 1)[:nblocks].astype(numpy.int64)
        bcol = self.indices[:nblocks].astype(numpy.int64)
        inner_r = gpunp.repeat(gpunp.arange(r, dtype=numpy.int64), c)
        inner_c = gpunp.tile(gpunp.arange(c, dtype=numpy.int64), r)
        row = (brow[:, None] * r + inner_r[None, :]).ravel()
        col = (bcol[:, None] * c + inner_c[None, :]).ravel()
        idx = get_index_dtype(maxval=max(self.shape))
        return container("coo", self)._from_arrays(
            self.shape, (row.astype(idx), col.astype(idx)),
            self.data[:nblocks].reshape(-1).copy())

    def tocsr(self, copy=False):
        coo = self.tocoo()
        row, col, data = coo._coo_arrays()
        idx = _base.compressed_index_dtype(self, self._index_arrays())
        indptr, indices, data = _coords.compress(self.shape[0], row, col, data, idx,
                                                 sum_dup=True)
        return container("csr", self)._from_arrays(self.shape, indptr, indices, data,
                                                   canonical=True)

    def tocsc(self, copy=False):
        return self.tocsr().tocsc()

    def tobsr(self, blocksize=None, copy=False):
        if blocksize is None or tuple(blocksize) == self.blocksize:
            return self.copy() if copy else self
        return self.tocsr().tobsr(blocksize=blocksize)

    def _canon(self):
        return self.tocsr()._canon()

    def toarray(self, order=None, out=None):
        return self.tocoo().toarray(order=order, out=out)

    def _with_data(self, data, copy=True):
        getdtype(data.dtype)
        ind, ptr = (self.indices.copy(), self.indptr.copy()) if copy else \
            (self.indices, self.indptr)
        return type(self)._from_arrays(self.shape, data, ind, ptr)

    def copy(self):
        return type(self)._from_arrays(self.shape, self.data.copy(), self.indices.copy(),
                                       self.indptr.copy())

    def sum_duplicates(self):
        if self.has_canonical_format:
            return
        self._replace(csr_tobsr(self.tocsr(), self.blocksize))

    def resize(self, *shape):
        new = check_shape(shape[0] if len(shape) == 1 else shape)
        if new[0] % self.blocksize[0] or new[1] % self.blocksize[1]:
            raise ValueError(f"shape must be divisible into {self.blocksize} blocks. "
                             f"Got {new}")
        super().resize(new)

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter "
                             "because swapping dimensions is the only logical permutation.")
        r, c = self.blocksize
        return self.tocsr().transpose().tocsr().tobsr(blocksize=(c, r))


def _estimate_blocksize(csr, efficiency=0.7):
    """SciPy's choice of block size: the largest of 6, 4, 3, 2 whose blocks are
    filled well enough (counted on the device)."""
    if csr.nnz == 0:
        return (1, 1)
    high = (1.0 + efficiency) / 2.0
    nnz = float(csr.nnz)
    m, n = csr.shape

    def fill(b):
        if m % b or n % b:
            return 0.0
        return nnz / (b * b * _count_blocks(csr, b, b))
    e22, e33 = fill(2), fill(3)
    if e22 > high and e33 > high:
        return (6, 6) if fill(6) > efficiency else (3, 3)
    e44 = fill(4)
    if e44 > efficiency:
        return (4, 4)
    if e33 > efficiency:
        return (3, 3)
    if e22 > efficiency:
        return (2, 2)
    return (1, 1)


def _count_blocks(csr, r, c):
    row, col, _ = csr._coo_arrays()
    keys = (row.astype(numpy.int64) // r) * (csr.shape[1] // c + 1) + col.astype(
        numpy.int64) // c
    return int(gpunp.unique(keys).size)


def csr_tobsr(csr, blocksize):
    """CSR (any format, through CSR) to BSR of `blocksize` (None: SciPy's estimate)."""
    csr = csr.tocsr()
    if blocksize is None:
        blocksize = _estimate_blocksize(csr)
    r, c = (int(b) for b in blocksize)
    m, n = csr.shape
    if r < 1 or c < 1 or m % r or n % c:
        raise ValueError(f"invalid blocksize {tuple(blocksize)}")
    if (r, c) == (1, 1):  # SciPy's keeps the CSR's entries as they are, duplicates too
        return container("bsr", csr)._from_arrays(csr.shape, csr.data.reshape(-1, 1, 1),
                                                  csr.indices, csr.indptr)
    row, col, data = csr._canon()
    row, col = row.astype(numpy.int64), col.astype(numpy.int64)
    nbc = n // c
    key = (row // r) * max(nbc, 1) + col // c
    blocks, which = gpunp.unique(key, return_inverse=True)
    values = gpunp.zeros((blocks.size, r, c), dtype=csr.dtype)
    if data.size:
        gpunp.add.at(values, (which, row % r, col % c), data)
    brow = blocks // max(nbc, 1)
    idx = get_index_dtype(csr._index_arrays(), maxval=max(nbc, blocks.size))
    indptr = gpunp.searchsorted(brow, gpunp.arange(m // r + 1, dtype=numpy.int64))
    return container("bsr", csr)._from_arrays(csr.shape, values,
                                              (blocks % max(nbc, 1)).astype(idx),
                                              indptr.astype(idx))


class bsr_array(_bsr_base, sparray):
    """A sparse array in Block Sparse Row format, on the device (scipy.sparse.bsr_array)."""


class bsr_matrix(spmatrix, _bsr_base):
    """A sparse matrix in Block Sparse Row format, on the device."""


_base.FORMATS["bsr", True] = bsr_array
_base.FORMATS["bsr", False] = bsr_matrix
_base.CONVERTERS["tobsr"] = csr_tobsr
