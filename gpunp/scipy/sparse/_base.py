"""The base of every sparse format (``_spbase``), the two flavours SciPy has
(``sparray``: NumPy-like, ``*`` is elementwise; ``spmatrix``: ``numpy.matrix``
-like, ``*`` is a product and results stay 2-D), and the checks
(``issparse``...).

The generic methods here work on a format's canonical coordinates
(``_canon``: entries sorted by row then column, duplicates summed) and build
their results through the format registry, so a format module adds only its
storage, its conversions and what it does faster itself."""

import importlib
import operator
import warnings

import numpy

import gpunp

from gpunp.scipy.sparse import _coords, _device
from gpunp.scipy.sparse._sputils import (
    INT32_MAX, SparseEfficiencyWarning, as_device, check_shape, get_index_dtype, getdtype,
    isintlike, isscalarlike, validate_axis)

#: {(format, is_array): class}, filled by each format's module
FORMATS = {}

#: {"todia": COO -> DIA, "tobsr": (CSR, blocksize) -> BSR}, filled by _dia and _bsr
CONVERTERS = {}

_NAMES = {"csr": "Compressed Sparse Row", "csc": "Compressed Sparse Column",
          "coo": "COOrdinate", "dia": "DIAgonal", "bsr": "Block Sparse Row"}

# the comparison that is false where `op` is true (a comparison true at zero is
# computed through its negation, which keeps the pattern sparse)
_NEGATED = {operator.eq: operator.ne, operator.ne: operator.eq, operator.lt: operator.ge,
            operator.ge: operator.lt, operator.gt: operator.le, operator.le: operator.gt}

# the ufunc-like methods: f(0) == 0, so they act on the stored values only
_DATA_UFUNCS = ("arcsin", "arcsinh", "arctan", "arctanh", "ceil", "deg2rad", "expm1", "floor",
                "log1p", "rad2deg", "rint", "sign", "sin", "sinh", "sqrt", "tan", "tanh",
                "trunc")


def scipy_sparse():
    """scipy.sparse, which only .get() and the SciPy inputs need (SciPy is optional)."""
    return importlib.import_module("scipy.sparse")


def container(fmt, like):
    """The class of format `fmt` of `like`'s flavour (array or matrix)."""
    return FORMATS[fmt, isinstance(like, sparray) if not isinstance(like, bool) else like]


def _refuse_host(x):
    if isinstance(x, numpy.ndarray) and x.ndim:
        raise TypeError(f"Unsupported type {type(x)}: gpunp does not move NumPy arrays to the "
                        "device implicitly; use gpunp.asarray(x)")


def compressed_index_dtype(obj, arrays):
    """The index dtype of a conversion to CSR or CSC: int32 unless an input
    index array or the size needs int64; a matrix's constructor then narrows
    to int32 where the values fit (SciPy's check_contents)."""
    nnz, shape = obj.nnz, obj.shape
    idx = get_index_dtype(arrays, maxval=max(nnz, *shape))
    if not obj._is_array() and max(nnz, *shape) <= INT32_MAX:
        return numpy.dtype(numpy.int32)
    return idx


def _sum_dtype(dtype):
    """The dtype sum() gives (NumPy's: small integers and bool widen)."""
    return numpy.add.reduce(numpy.zeros(1, dtype=dtype)).dtype


class _spbase:
    """What every format shares; see the module docstring."""

    __array_priority__ = 10.1
    _format = "und"
    _allow_nd = (2,)
    maxprint = 50

    # ---- what a format provides ---------------------------------------------------------

    def _canon(self):
        """(row, col, data): the entries sorted by (row, col), duplicates summed."""
        raise NotImplementedError

    def tocoo(self, copy=False):
        raise NotImplementedError

    def _canon_as(self, dtype):
        """_canon() with the values cast to `dtype` before duplicates are summed."""
        if self.dtype == dtype:
            return self._canon()
        row, col, data = self.tocoo()._coo_arrays()
        return _coords.canonical(row, col, data.astype(dtype))

    # ---- metadata -------------------------------------------------------------------------

    @property
    def shape(self):
        return self._shape

    @property
    def ndim(self):
        return len(self._shape)

    @property
    def nnz(self):
        return int(self._getnnz())

    @property
    def size(self):
        return self.nnz

    @property
    def dtype(self):
        return self.data.dtype

    @property
    def format(self):
        return self._format

    @property
    def T(self):
        return self.transpose()

    @property
    def mT(self):
        """The transpose of the last two axes (SciPy 1.18's; a stack of
        matrices for n-d COO)."""
        if self.ndim < 2:
            raise ValueError(f"Array must be at least 2-dimensional, but it is {self.ndim}-D")
        if self.ndim == 2:
            return self.transpose()
        from gpunp.scipy.sparse._construct import permute_dims
        return permute_dims(self, axes=tuple(range(self.ndim - 2)) + (-1, -2))

    @property
    def real(self):
        return self._with_data(gpunp.real(self.data).copy())

    @property
    def imag(self):
        return self._with_data(gpunp.imag(self.data).copy())

    def _is_array(self):
        return isinstance(self, sparray)

    def __repr__(self):
        kind = "array" if self._is_array() else "matrix"
        return (f"<{_NAMES[self.format]} sparse {kind} of dtype '{self.dtype}'\n"
                f"\twith {self.nnz} stored elements and shape {self.shape}>")

    __str__ = __repr__

    def __len__(self):
        raise TypeError("sparse array length is ambiguous; use getnnz() or shape[0]")

    def __bool__(self):
        if self.shape == (1, 1) or self.shape == (1,):
            return self.nnz != 0
        raise ValueError("The truth value of an array with more than one element is "
                         "ambiguous. Use a.any() or a.all().")

    def __iter__(self):
        raise TypeError("iterating over a gpunp sparse object row by row is not supported "
                        "on the device; index rows explicitly")

    def __array__(self, dtype=None, copy=None):
        raise TypeError("Implicit conversion of a gpunp sparse object to a NumPy array is not "
                        "allowed. Use `.get()` (a SciPy sparse object) or `.toarray()` (a "
                        "gpunp array) explicitly.")

    # ---- host copies ------------------------------------------------------------------------

    def get(self, stream=None):
        """The SciPy sparse object of the same format and flavour, on the host."""
        raise NotImplementedError

    def __gpunp_asnumpy__(self):
        return self.get()

    # ---- conversions ----------------------------------------------------------------------

    def asformat(self, format, copy=False):
        if format is None or format == self.format:
            return self.copy() if copy else self
        try:
            convert = getattr(self, "to" + format)
        except AttributeError:
            raise ValueError(f"Format {format} is unknown.") from None
        return convert(copy=copy)

    def tocsr(self, copy=False):
        return self.tocoo(copy=False).tocsr(copy=False)

    def tocsc(self, copy=False):
        return self.tocoo(copy=False).tocsc(copy=False)

    def todia(self, copy=False):
        return CONVERTERS["todia"](self.tocoo(copy=False))

    def tobsr(self, blocksize=None, copy=False):
        return CONVERTERS["tobsr"](self.tocsr(copy=False), blocksize)

    def todok(self, copy=False):
        """A DOK copy on the host (DOK is a host format: see _lil_dok)."""
        return FORMATS["dok", self._is_array()](self)

    def tolil(self, copy=False):
        """A LIL copy on the host (LIL is a host format: see _lil_dok)."""
        return FORMATS["lil", self._is_array()](self)

    def toarray(self, order=None, out=None):
        return self.tocoo(copy=False).toarray(order=order, out=out)

    def todense(self, order=None, out=None):
        """A dense 2-D gpunp array (for a matrix SciPy gives numpy.matrix, which
        has no gpunp counterpart)."""
        return self.toarray(order=order, out=out)

    def astype(self, dtype, casting="unsafe", copy=True):
        dtype = getdtype(dtype)
        if self.dtype == dtype:
            return self.copy() if copy else self
        if not numpy.can_cast(self.dtype, dtype, casting=casting):
            raise TypeError(f"Cannot cast array data from {self.dtype} to {dtype} according "
                            f"to the rule '{casting}'")
        # cast, then sum duplicates in the new dtype (two True entries become 2)
        out = self._with_data(self.data.astype(dtype), copy=True)
        out.sum_duplicates()
        return out

    def copy(self):
        return self._with_data(self.data.copy(), copy=True)

    def _deduped_data(self):
        self.sum_duplicates()
        return self.data

    def _from_triples(self, fmt, row, col, data, shape=None, canonical=False, others=()):
        """A new object of format `fmt` in this object's flavour. Its index dtype is
        SciPy's: int32 unless the size or an operand's index arrays need int64."""
        shape = shape if shape is not None else self.shape
        arrays = tuple(self._index_arrays()) + tuple(
            a for o in others for a in o._operand_index_arrays())
        idx = get_index_dtype(arrays, maxval=max(data.size, *shape))
        if fmt in ("csr", "csc"):
            major, minor, n = (row, col, shape[0]) if fmt == "csr" else (col, row, shape[1])
            if canonical and fmt == "csr":
                indptr = gpunp.searchsorted(major, gpunp.arange(n + 1, dtype=major.dtype))
                arrays = (indptr.astype(idx), minor.astype(idx), data)
            else:
                arrays = _coords.compress(n, major, minor, data, idx)
            return container(fmt, self)._from_arrays(shape, *arrays, canonical=True)
        coo = container("coo", self)._from_arrays(
            shape, (row.astype(idx), col.astype(idx)), data, canonical=canonical)
        if fmt == "bsr":  # a BSR result keeps this object's block size
            return CONVERTERS["tobsr"](coo.tocsr(), getattr(self, "blocksize", None))
        return coo.asformat(fmt)

    def _from_dense(self, fmt, dense):
        """A result computed densely (a comparison true at zero...) in format `fmt`,
        with the index dtype SciPy's sparse arithmetic gives it."""
        row, col = gpunp.nonzero(dense)
        return self._from_triples(fmt, row, col, dense[row, col], shape=dense.shape,
                                  canonical=True)

    # ---- shape ----------------------------------------------------------------------------

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter "
                             "because swapping dimensions is the only logical permutation.")
        return self.tocoo(copy=False).transpose(copy=copy).asformat(
            {"csr": "csc", "csc": "csr"}.get(self.format, self.format))

    def conjugate(self, copy=True):
        if numpy.issubdtype(self.dtype, numpy.complexfloating):
            return self._with_data(gpunp.conjugate(self.data), copy=False)
        return self.copy() if copy else self

    def conj(self, copy=True):
        return self.conjugate(copy=copy)

    def reshape(self, *args, order="C", copy=False):
        """The same entries in a new shape, as COO (SciPy's result format)."""
        shape = _infer_shape(check_shape(args[0] if len(args) == 1 else args, (1, 2)),
                             self.shape)
        if shape == self.shape:
            return self.copy() if copy else self
        return self.tocoo(copy=copy).reshape(*args, order=order, copy=False)

    def resize(self, *shape):
        shape = check_shape(shape[0] if len(shape) == 1 else shape, self._allow_nd)
        row, col, data = self._canon()
        keep = (row < shape[0]) & (col < shape[1])
        self._replace(self._from_triples(self.format, row[keep], col[keep], data[keep],
                                         shape=shape, canonical=True))

    def _replace(self, other):
        """Takes over `other`'s storage (in-place methods: setdiag, resize...)."""
        self.__dict__.clear()
        self.__dict__.update(other.__dict__)

    # ---- canonical form -------------------------------------------------------------------

    def nonzero(self):
        A = self.tocoo(copy=False)
        mask = A.data != 0
        return A.row[mask], A.col[mask]

    def count_nonzero(self, axis=None):
        axis = validate_axis(axis, self.ndim)
        row, col, data = self._canon()
        nz = data != 0
        if axis is None:
            return int(gpunp.count_nonzero(nz))
        line = (row, col)[1 - axis][nz]
        return gpunp.bincount(line, minlength=self.shape[1 - axis]).astype(numpy.intp)

    def _getnnz(self):
        return self.data.size

    def _operand_index_arrays(self):
        """The index arrays this object has as the CSR operand of a binary
        operation (SciPy converts it first)."""
        return self._index_arrays()

    # ---- elementwise arithmetic -----------------------------------------------------------

    def _with_data(self, data, copy=True):
        """This structure with new values (a format keeps its index arrays)."""
        raise NotImplementedError

    def _mul_scalar(self, other):
        return self._with_data(self.data * other, copy=False)

    def _elementwise(self, other, op, fmt=None):
        """op(self, other) for a sparse operand of the same shape: on the union of
        the two patterns, entries where op gives zero dropped (as SciPy's binop)."""
        if other.shape != self.shape:
            raise ValueError(f"inconsistent shapes {self.shape} and {other.shape}")
        if self.format not in ("csr", "csc"):
            if self.format == "bsr" and other.format != "bsr":
                # SciPy brings the other operand to BSR first (its duplicates add there,
                # but at blocksize (1, 1) they stay, to be summed in the result's dtype)
                other = other.tobsr(blocksize=self.blocksize)
                other = other.astype(numpy.result_type(self.dtype, other.dtype), copy=False)
            return self.tocsr()._elementwise(other, op, fmt)
        if other.format != self.format:
            other = other.asformat(self.format)  # (COO's duplicates add in its own dtype)
        dtype = numpy.result_type(self.dtype, other.dtype)
        # duplicates are summed in the result's dtype (two True entries + 0 is 2)
        ar, ac, ad = self._canon_as(dtype)
        br, bc, bd = other._canon_as(dtype)
        ncols = self.shape[1]
        k, a, b = _coords.merge(_coords.keys(ar, ac, ncols), ad, _coords.keys(br, bc, ncols),
                                bd, dtype)
        if dtype == bool and op is operator.sub:
            op = operator.xor  # SciPy subtracts booleans as an exclusive or
        r = op(a, b)
        keep = r != 0
        k, r = k[keep], r[keep]
        n = max(ncols, 1)
        if fmt is None:
            fmt = "csc" if self.format == "csc" else "csr"
        return self._from_triples(fmt, k // n, k % n, r, canonical=True, others=(other,))

    def _scalar_binopt(self, other, op):
        """op(entry, other) on the stored entries, for an op that keeps zeros zero:
        CSR (CSC stays CSC), duplicates summed, zeros dropped."""
        cs = (self.copy() if self.format in ("csr", "csc") else self.tocsr())
        cs.sum_duplicates()
        res = cs._with_data(op(cs.data, other), copy=False)
        res.eliminate_zeros()
        return res

    def _all_true(self):
        cs = self if self.format in ("csr", "csc") else self.tocsr()
        return type(cs)(gpunp.ones(self.shape, dtype=bool))

    def _compare(self, other, op, name):
        if isscalarlike(other):
            other = numpy.asarray(other).item() if not isinstance(
                other, (int, float, complex, bool)) else other
            if not op(0, other):
                if numpy.isnan(other):
                    return type(self)(self.shape, dtype=numpy.bool_)
                return self._scalar_binopt(other, op)
            warnings.warn(f"Comparing a sparse matrix with {other} using {name} is "
                          "inefficient.", SparseEfficiencyWarning, stacklevel=3)
            if numpy.isnan(other):
                return type(self)(gpunp.ones(self.shape, dtype=bool))
            cs = self if self.format in ("csr", "csc") else self.tocsr()
            return cs._all_true() - cs._scalar_binopt(other, _NEGATED[op])
        if issparse(other):
            if other.shape != self.shape:
                if op in (operator.eq, operator.ne):
                    return op is operator.ne
                raise ValueError("inconsistent shape")
            cs = self if self.format in ("csr", "csc") else self.tocsr()
            if not op(0, 0):
                return cs._elementwise(other, op)
            warnings.warn(f"Comparing two sparse matrices using {name} is inefficient.",
                          SparseEfficiencyWarning, stacklevel=3)
            return cs._all_true() - cs._elementwise(other, _NEGATED[op])
        _refuse_host(other)
        if isinstance(other, gpunp.ndarray):
            return op(self.todense(), other)
        return NotImplemented

    def __eq__(self, other):
        return self._compare(other, operator.eq, "==")

    def __ne__(self, other):
        return self._compare(other, operator.ne, "!=")

    def __lt__(self, other):
        return self._compare(other, operator.lt, "<")

    def __gt__(self, other):
        return self._compare(other, operator.gt, ">")

    def __le__(self, other):
        return self._compare(other, operator.le, "<=")

    def __ge__(self, other):
        return self._compare(other, operator.ge, ">=")

    __hash__ = None

    def _add(self, other, sign):
        if isscalarlike(other):
            if other == 0:
                return self.copy()
            verb = "adding a nonzero scalar to" if sign > 0 else \
                "subtracting a nonzero scalar from"
            raise NotImplementedError(f"{verb} a sparse array is not supported")
        if issparse(other):
            if other.shape != self.shape:
                raise ValueError(f"inconsistent shapes {self.shape} and {other.shape}")
            return self._elementwise(other, operator.add if sign > 0 else operator.sub)
        _refuse_host(other)
        if isinstance(other, gpunp.ndarray):
            other = gpunp.broadcast_to(other, self.shape)
            if sign < 0:
                return self.todense() - other
            return self._add_into(other)
        return NotImplemented

    def _add_into(self, dense):
        """dense + self, the stored entries (duplicates too) added in the result dtype."""
        dtype = numpy.result_type(self.dtype, dense.dtype)
        out = dense.astype(dtype, copy=True)
        row, col, data = self.tocoo()._coo_arrays()
        if data.size:
            gpunp.add.at(out, (row, col), data.astype(dtype))
        return out

    def __add__(self, other):
        return self._add(other, 1)

    def __radd__(self, other):
        return self._add(other, 1)

    def __sub__(self, other):
        if (getattr(other, "format", None) == self.format == "dia"
                and self.dtype == other.dtype == bool):
            # SciPy subtracts two DIA operands' data arrays, which NumPy
            # refuses for booleans (other formats' subtraction works)
            raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use "
                            "the bitwise_xor, the `^` operator, or the logical_xor function "
                            "instead.")
        return self._add(other, -1)

    def __rsub__(self, other):
        if isscalarlike(other):
            if other == 0:
                return -self
            raise NotImplementedError("subtracting a sparse array from a nonzero scalar is "
                                      "not supported")
        _refuse_host(other)
        if isinstance(other, gpunp.ndarray):
            return other - self.toarray()
        return NotImplemented

    def __neg__(self):
        if self.dtype == bool:
            raise NotImplementedError("negating a boolean sparse array is not supported")
        return self._with_data(-self.data, copy=False)

    def __pos__(self):
        return self.copy()

    def __abs__(self):
        return self._with_data(abs(self._deduped_data()), copy=True)

    def __round__(self, ndigits=0):
        return self._with_data(gpunp.round(self._deduped_data(), decimals=ndigits), copy=True)

    def multiply(self, other):
        """The elementwise product (a sparse result for a sparse or dense operand)."""
        if isscalarlike(other):
            return self._mul_scalar(other)
        if self.format not in ("csr", "csc", "bsr"):
            return self.tocsr().multiply(other)  # SciPy broadcasts through CSR
        if issparse(other):
            if other.shape != self.shape:
                bshape = numpy.broadcast_shapes(self.shape, other.shape)
                if bshape == self.shape and other.shape in ((1, 1),):
                    return self._mul_scalar(other.toarray()[0, 0])
                raise ValueError(f"inconsistent shapes {self.shape} and {other.shape}")
            return self._elementwise(other, operator.mul)
        _refuse_host(other)
        if not isinstance(other, gpunp.ndarray):
            return NotImplemented
        return self._multiply_dense(other)

    def _multiply_dense(self, other):
        """self * dense with NumPy's broadcasting, sparse where SciPy keeps it sparse."""
        if other.ndim > 2:
            return gpunp.multiply(self.toarray(), other)
        if other.size == 1:
            bshape = numpy.broadcast_shapes(self.shape, other.shape)
            return self._mul_scalar(other.reshape(())).reshape(bshape)
        if self.shape == (1, 1):
            bshape = numpy.broadcast_shapes(self.shape, other.shape)
            return gpunp.multiply(self.data.sum(), other).reshape(bshape)
        row, col, data = self.tocoo()._coo_arrays()
        coo = container("coo", self)
        if self.shape == other.shape:
            return coo._from_arrays(self.shape, (row, col), data * other[row, col])
        o2 = other.reshape(1, -1) if other.ndim == 1 else other
        m, n = self.shape
        om, on = o2.shape
        if m == 1:  # a sparse row times a dense column or matrix: (om, n)
            if on not in (1, n):
                raise ValueError(f"inconsistent shapes {self.shape} and {other.shape}")
            vals = data[None, :] * (o2 if on == 1 else o2[:, col])
            idx = get_index_dtype((col,), maxval=data.size * om)
            return coo._from_arrays((om, n), (
                gpunp.repeat(gpunp.arange(om, dtype=idx), data.size),
                gpunp.tile(col.astype(idx), om)), vals.ravel())
        if n == 1:  # a sparse column times a dense row or matrix: (m, on)
            if om not in (1, m):
                raise ValueError(f"inconsistent shapes {self.shape} and {other.shape}")
            vals = data[:, None] * (o2 if om == 1 else o2[row])
            idx = get_index_dtype((row,), maxval=data.size * on)
            return coo._from_arrays((m, on), (
                gpunp.repeat(row.astype(idx), on),
                gpunp.tile(gpunp.arange(on, dtype=idx), data.size)), vals.ravel())
        if om == 1 and on == n:
            return coo._from_arrays(self.shape, (row, col), data * o2[0, col])
        if on == 1 and om == m:
            return coo._from_arrays(self.shape, (row, col), data * o2[row, 0])
        raise ValueError(f"inconsistent shapes {self.shape} and {other.shape}")

    def _divide(self, other, rdivide=False):
        if isscalarlike(other):
            if rdivide:
                return gpunp.divide(other, self.todense())
            if numpy.can_cast(self.dtype, numpy.float64):
                return self.astype(numpy.float64, copy=False)._mul_scalar(1 / other)
            return self._mul_scalar(1 / other)
        if issparse(other):
            if rdivide:
                return other._divide(self)
            if other.shape != self.shape:
                raise ValueError(f"inconsistent shapes {self.shape} and {other.shape}")
            a = self.astype(numpy.float64, copy=False) if numpy.can_cast(
                self.dtype, numpy.float64) else self
            # 0/0 is NaN outside both patterns, so SciPy's result is dense too
            # (in self's dtype after that cast, as SciPy fills it)
            out = gpunp.divide(a.toarray(), other.toarray())
            if numpy.issubdtype(out.dtype, numpy.inexact):
                out = gpunp.real(out) if out.dtype.kind == "c" and a.dtype.kind != "c" else out
                out = out.astype(a.dtype)
            return out
        _refuse_host(other)
        if isinstance(other, gpunp.ndarray):
            if rdivide:
                return gpunp.divide(other, self.todense())
            return self.multiply(gpunp.divide(1, other))
        return NotImplemented

    def __truediv__(self, other):
        return self._divide(other)

    def __rtruediv__(self, other):
        return NotImplemented

    def maximum(self, other):
        return self._max_min(other, gpunp.maximum, "maximum")

    def minimum(self, other):
        return self._max_min(other, gpunp.minimum, "minimum")

    def _max_min(self, other, op, name):
        if issparse(other):
            cs = self if self.format in ("csr", "csc") else self.tocsr()
            return cs._elementwise(other, op)
        if isscalarlike(other):
            other = numpy.asarray(other).item() if not isinstance(
                other, (int, float, complex, bool)) else other
            if getattr(numpy, name)(0, other):
                sign = "positive" if name == "maximum" else "negative"
                warnings.warn(f"Taking {name} with a {sign} number results in a dense "
                              "matrix.", SparseEfficiencyWarning, stacklevel=3)
                return type(self)(op(self.toarray(), other))
            return self._scalar_binopt(other, op)
        _refuse_host(other)
        if isinstance(other, gpunp.ndarray):
            return op(self.todense(), other)
        raise NotImplementedError("maximum or minimum with an unrecognized array type is not "
                                  "supported")

    def power(self, n, dtype=None):
        """The elementwise power by a scalar (n == 0 would fill every entry)."""
        if not isscalarlike(n):
            raise NotImplementedError("input is not scalar")
        if not n:
            raise NotImplementedError("zero power is not supported as it would densify the "
                                      "matrix.\nUse `np.ones(A.shape, dtype=A.dtype)` for this "
                                      "case.")
        data = self._deduped_data()
        if dtype is not None:
            data = data.astype(dtype)
        return self._with_data(data ** n, copy=False)

    # ---- products -------------------------------------------------------------------------

    def _matmul_sparse(self, other):
        if self.shape[1] != other.shape[0]:
            raise ValueError("dimension mismatch")
        a, b = self.tocsr(), other.tocsr()
        if (self.format == "bsr" and not b.has_canonical_format and
                (self.blocksize[1] > 1 or other.format != "csr")):
            # SciPy multiplies a BSR by the other operand made BSR, which sums
            # its duplicates in its own dtype (bool: logical or), except a CSR
            # taken as 1-wide blocks as it is
            b = b.copy()
            b.sum_duplicates()
        fmt = "csc" if self.format == "csc" else "csr"
        if not a.nnz or not b.nnz or not int(gpunp.diff(b.indptr)[a.indices].sum()):
            # no products at all: SciPy gives a fresh empty object (narrow indices)
            return container(fmt, self)((self.shape[0], other.shape[1]),
                                        dtype=numpy.result_type(self.dtype, other.dtype))
        indptr, indices, data = _device.csr_spgemm(a.shape, a.indptr, a.indices, a.data,
                                                   b.shape, b.indptr, b.indices, b.data)
        shape = (self.shape[0], other.shape[1])
        idx = get_index_dtype(a._index_arrays() + b._index_arrays(), maxval=data.size)
        out = container("csr", self)._from_arrays(shape, indptr.astype(idx),
                                                  indices.astype(idx), data, canonical=True)
        return out.asformat("csc") if self.format == "csc" else out

    def _matmul_dense(self, other):
        a = self.tocsr()
        dtype = numpy.result_type(self.dtype, other.dtype)
        if self.format == "coo" and dtype != self.dtype:
            # SciPy multiplies COO entries one by one: duplicates add in the result's dtype
            row, col, data = self._coo_arrays()
            a = container("coo", self)._from_arrays(self.shape, (row, col),
                                                    data.astype(dtype)).tocsr()
        if other.ndim == 1:
            if other.shape[0] != self.shape[1]:
                raise ValueError(f"dimension mismatch: {self.shape} and {other.shape}")
            return _device.csr_matvec(a.shape, a.indptr, a.indices, a.data, other)
        if other.ndim == 2:
            if other.shape[0] != self.shape[1]:
                raise ValueError(f"dimension mismatch: {self.shape} and {other.shape}")
            return _device.csr_matmat(a.shape, a.indptr, a.indices, a.data, other)
        raise ValueError("could not interpret dimensions")

    def _matmul_dispatch(self, other):
        if isscalarlike(other):
            return self._mul_scalar(other)
        if issparse(other):
            return self._matmul_sparse(other)
        _refuse_host(other)
        if isinstance(other, gpunp.ndarray):
            return self._matmul_dense(other)
        return NotImplemented

    def __matmul__(self, other):
        if isscalarlike(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self._matmul_dispatch(other)

    def __rmatmul__(self, other):
        if isscalarlike(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        _refuse_host(other)
        if isinstance(other, gpunp.ndarray):
            if other.ndim == 1:
                return self.transpose()._matmul_dense(other)
            return self.transpose()._matmul_dense(other.T).T
        return NotImplemented

    def dot(self, other):
        return self._matmul_dispatch(other)

    def __mul__(self, other):
        return self.multiply(other)

    def __rmul__(self, other):
        return self.multiply(other)

    def __pow__(self, other):
        return self.power(other)

    # ---- reductions -----------------------------------------------------------------------

    def _reduced(self, vec, axis):
        """A reduction along `axis` as the flavour gives it (matrices stay 2-D)."""
        return vec

    def sum(self, axis=None, dtype=None, out=None):
        axis = validate_axis(axis, self.ndim)
        res = numpy.dtype(dtype) if dtype is not None else _sum_dtype(self.dtype)
        row, col, data = self._canon()
        if axis is None:
            total = self.data.astype(res).sum(dtype=res) if self.data.size else \
                gpunp.zeros((), res)
            return _into(total, out)
        line = (row, col)[1 - axis]
        vec = gpunp.zeros(self.shape[1 - axis], dtype=res)
        if data.size:
            gpunp.add.at(vec, line, data.astype(res))
        return _into(self._reduced(vec, axis), out)

    def mean(self, axis=None, dtype=None, out=None):
        axis = validate_axis(axis, self.ndim)
        inter = numpy.dtype(dtype) if dtype is not None else (
            self.dtype if numpy.issubdtype(self.dtype, numpy.inexact) else numpy.float64)
        n = self.shape[0] * self.shape[1] if axis is None else self.shape[axis]
        with numpy.errstate(divide="ignore"):
            scale = numpy.float64(1.0) / n if n else numpy.inf
        return self.astype(inter)._mul_scalar(scale.astype(inter) if inter.kind != "c"
                                              else scale).sum(axis=axis, dtype=inter, out=out)

    def trace(self, offset=0):
        return self.diagonal(k=offset).sum()

    def diagonal(self, k=0):
        rows, cols = self.shape
        n = max(0, min(rows + min(k, 0), cols - max(k, 0)))
        out = gpunp.zeros(n, dtype=self.dtype)
        row, col, data = self._canon()
        on = (col.astype(numpy.int64) - row.astype(numpy.int64)) == k
        if n:
            out[(row[on] if k >= 0 else col[on])] = data[on]
        return out

    def setdiag(self, values, k=0):
        rows, cols = self.shape
        if k > 0 and k >= cols or k < 0 and -k >= rows:
            raise ValueError("k exceeds array dimensions")
        n = max(0, min(rows + min(k, 0), cols - max(k, 0)))
        values = as_device(values) if not isscalarlike(values) else values
        if isscalarlike(values):
            vals = gpunp.full(n, values, dtype=self.dtype)
        else:
            vals = values.ravel()[:n].astype(self.dtype)
        m = vals.size
        start = gpunp.arange(m, dtype=numpy.int64)
        drow = start - min(k, 0)
        dcol = start + max(k, 0)
        row, col, data = self._canon()
        d = col.astype(numpy.int64) - row.astype(numpy.int64)
        along = row if k >= 0 else col
        replaced = (d == k) & (along.astype(numpy.int64) < m)
        keep = ~replaced
        row = gpunp.concatenate([row[keep].astype(numpy.int64), drow])
        col = gpunp.concatenate([col[keep].astype(numpy.int64), dcol])
        data = gpunp.concatenate([data[keep], vals])
        self._replace(self._from_triples(self.format, row, col, data))

    def _minmax(self, axis, op, name, out, explicit):
        axis = validate_axis(axis, self.ndim)
        if 0 in self.shape and (axis is None or self.shape[axis] == 0):
            raise ValueError(f"zero-size array to reduction operation {name} which has no "
                             "identity")
        row, col, data = self._canon()
        full = self.shape[0] * self.shape[1]
        if axis is None:
            if data.size == 0:
                return _into(gpunp.zeros((), self.dtype), out)
            m = op.reduce(data)
            if data.size < full and not explicit:
                m = op(m, gpunp.zeros((), self.dtype))
            return _into(m, out)
        # reduce along `axis`: group by the other axis
        line, other = ((col, row) if axis == 0 else (row, col))
        n = self.shape[1 - axis]
        order = gpunp.lexsort((other, line))
        line_s, data_s = line[order], data[order]
        if data.size:
            new = gpunp.ones(data.size, dtype=bool)
            new[1:] = line_s[1:] != line_s[:-1]
            vals, starts = _coords.segment_reduce(op, data_s, new)
            lines = line_s[starts]
            counts = gpunp.diff(gpunp.concatenate(
                [starts, gpunp.asarray([data.size], dtype=starts.dtype)]))
            if not explicit:
                partial = counts < self.shape[axis]
                vals = gpunp.where(partial, op(vals, gpunp.zeros((), vals.dtype)), vals)
            keep = vals != 0
            lines, vals = lines[keep], vals[keep]
        else:
            lines = gpunp.zeros(0, dtype=numpy.int64)
            vals = gpunp.zeros(0, dtype=self.dtype)
        return self._reduced_sparse(lines, vals.astype(self.dtype), n, axis, out)

    def _reduced_sparse(self, lines, vals, n, axis, out):
        """A min/max along an axis: a 1-D COO array (a matrix gives a 2-D coo_matrix)."""
        if out is not None:
            raise ValueError("Sparse arrays do not support an 'out' parameter.")
        idx = get_index_dtype(maxval=n)
        return container("coo", self)._from_arrays((n,), (lines.astype(idx),), vals,
                                                  canonical=True)

    def max(self, axis=None, out=None, *, explicit=False):
        return self._minmax(axis, gpunp.maximum, "maximum", out, explicit)

    def min(self, axis=None, out=None, *, explicit=False):
        return self._minmax(axis, gpunp.minimum, "minimum", out, explicit)

    def nanmax(self, axis=None, out=None, *, explicit=False):
        return self._minmax(axis, gpunp.fmax, "nanmax", out, explicit)

    def nanmin(self, axis=None, out=None, *, explicit=False):
        return self._minmax(axis, gpunp.fmin, "nanmin", out, explicit)

    def _argminmax(self, axis, better, name, out, explicit):
        """argmax/argmin: the first position (C order) of the extreme value,
        implicit zeros included unless `explicit`."""
        if out is not None:
            raise ValueError("Sparse types do not support an 'out' parameter.")
        axis = validate_axis(axis, self.ndim)
        if 0 in self.shape and (axis is None or self.shape[axis] == 0):
            raise ValueError(f"Cannot apply {name} along a zero-sized dimension.")
        row, col, data = self._canon()
        if axis is None:
            return self._arg_flat(row, col, data, better, explicit)
        # lines along the other axis; position within a line is the index along `axis`
        line, pos = (col, row) if axis == 0 else (row, col)
        n, length = self.shape[1 - axis], self.shape[axis]
        res = gpunp.zeros(n, dtype=numpy.intp)
        if data.size:
            order = gpunp.lexsort((pos, line))
            line, pos, data = line[order], pos[order].astype(numpy.int64), data[order]
            fill = _arg_lines(line, pos, data, better, explicit, n, length, self.dtype)
            res = fill
        return self._reduced(res, axis)

    def _arg_flat(self, row, col, data, better, explicit):
        ncols = self.shape[1]
        full = self.shape[0] * ncols
        if data.size == 0:
            return 0
        flat = _coords.keys(row, col, ncols)
        zero = gpunp.zeros((), self.dtype)
        op = gpunp.maximum if better is operator.gt else gpunp.minimum
        m = op.reduce(data)
        first = int(flat[gpunp.flatnonzero(data == m)[0]]) if bool(m == m) else \
            int(flat[gpunp.flatnonzero(data != data)[0]])
        if explicit or data.size == full or better(m, zero):
            return first
        # the first implicit zero: the first flat index missing from the sorted keys
        missing = gpunp.flatnonzero(flat != gpunp.arange(flat.size, dtype=numpy.int64))
        zero_at = int(missing[0]) if missing.size else int(flat.size)
        if bool(m == zero):
            return min(zero_at, first)
        return zero_at

    def argmax(self, axis=None, out=None, *, explicit=False):
        return self._argminmax(axis, operator.gt, "argmax", out, explicit)

    def argmin(self, axis=None, out=None, *, explicit=False):
        return self._argminmax(axis, operator.lt, "argmin", out, explicit)


def _arg_lines(line, pos, data, better, explicit, n, length, dtype):
    """argmax/argmin of each line from its sorted entries, vectorised."""
    op = gpunp.maximum if better is operator.gt else gpunp.minimum
    new = gpunp.ones(data.size, dtype=bool)
    new[1:] = line[1:] != line[:-1]
    best, starts = _coords.segment_reduce(op, data, new)
    lines = line[starts]
    seg = gpunp.cumsum(new) - 1
    # first entry of each segment that holds the extreme (NaN counts as extreme, as NumPy)
    is_best = (data == best[seg]) | ((data != data) & (best[seg] != best[seg]))
    cand = gpunp.where(is_best, gpunp.arange(data.size, dtype=numpy.int64), data.size)
    first, _ = _coords.segment_reduce(gpunp.minimum, cand, new)
    best_pos = pos[first]
    counts = gpunp.diff(gpunp.concatenate(
        [starts, gpunp.asarray([data.size], dtype=starts.dtype)]))
    zero = gpunp.zeros((), dtype)
    # the first implicit zero of a line: first position where pos != its rank in the line
    rank = gpunp.arange(data.size, dtype=numpy.int64) - starts.astype(numpy.int64)[seg]
    gap = gpunp.where(pos != rank, rank, length)
    zero_pos, _ = _coords.segment_reduce(gpunp.minimum, gap, new)
    zero_pos = gpunp.where(counts < length, gpunp.minimum(zero_pos, counts), length)
    if explicit:
        res_lines = best_pos
    else:
        use_zero = (counts < length) & ~better(best, zero) & (best == best)
        tie = use_zero & (best == zero)
        res_lines = gpunp.where(use_zero, gpunp.where(tie, gpunp.minimum(zero_pos, best_pos),
                                                      zero_pos), best_pos)
    res = gpunp.zeros(n, dtype=numpy.intp)
    res[lines] = res_lines.astype(numpy.intp)
    return res


def _into(result, out):
    if out is None:
        return result
    if not isinstance(out, gpunp.ndarray) or out.shape != getattr(result, "shape", ()):
        raise ValueError("output parameter has the wrong shape or type")
    out[...] = result
    return out


def _infer_shape(shape, old):
    """A reshape's shape with one -1 resolved, or SciPy's ValueError."""
    size = old[0] * old[1] if len(old) == 2 else old[0]
    if shape.count(-1) > 1:
        raise ValueError("can only specify one unknown dimension")
    if -1 in shape:
        rest = 1
        for d in shape:
            if d != -1:
                rest *= d
        if rest == 0 or size % rest:
            raise ValueError(f"cannot reshape array of size {size} into shape {shape}")
        shape = tuple(size // rest if d == -1 else d for d in shape)
    new = 1
    for d in shape:
        new *= d
    if new != size:
        raise ValueError("cannot reshape array of size {} into shape {}".format(size, shape))
    return shape


def _data_ufunc(name):
    ufunc = getattr(gpunp, name)

    def method(self):
        return self._with_data(ufunc(self._deduped_data()), copy=False)

    method.__name__ = name
    method.__doc__ = f"Elementwise {name} of the stored values (f(0) == 0)."
    return method


for _name in _DATA_UFUNCS:
    setattr(_spbase, _name, _data_ufunc(_name))


class sparray:
    """The flavour of sparse arrays: ``*`` is elementwise, reductions are 1-D."""


class spmatrix:
    """The flavour of sparse matrices, as numpy.matrix: ``*`` and ``**`` are
    products and reductions stay 2-D."""

    def __mul__(self, other):
        return self._matmul_dispatch(other)

    def __rmul__(self, other):
        if isscalarlike(other):
            return self._mul_scalar(other)
        return self.__rmatmul__(other)

    def __pow__(self, other):
        if self.shape[0] != self.shape[1]:
            raise TypeError("sparse matrix is not square")
        if not isintlike(other):
            raise ValueError("exponent must be an integer")
        other = operator.index(other)
        if other < 0:
            raise ValueError("exponent must be >= 0")
        if other == 0:
            eye = container("dia", False)._eye(self.shape[0], self.dtype)
            return eye.asformat(self.format if self.format != "coo" else "csr")
        result, base = None, self
        while other:
            if other & 1:
                result = base if result is None else result @ base
            other >>= 1
            if other:
                base = base @ base
        return result if result is not self else self.copy()

    def _reduced(self, vec, axis):
        return vec.reshape((1, -1) if axis == 0 else (-1, 1))

    def _reduced_sparse(self, lines, vals, n, axis, out):
        if out is not None:
            raise ValueError("Sparse matrices do not support an 'out' parameter.")
        zeros = gpunp.zeros(lines.size, dtype=lines.dtype)
        coords = (zeros, lines) if axis == 0 else (lines, zeros)
        shape = (1, n) if axis == 0 else (n, 1)
        return container("coo", False)._from_arrays(shape, coords, vals, canonical=True)

    def getnnz(self, axis=None):
        if axis is None:
            return self.nnz
        axis = validate_axis(axis, 2)
        row, col, _ = self.tocoo()._coo_arrays()
        line = (row, col)[1 - axis]
        return gpunp.bincount(line, minlength=self.shape[1 - axis]).astype(numpy.intp)

    def get_shape(self):
        return self.shape

    def set_shape(self, shape):
        self._replace(self.reshape(shape, copy=False).asformat(self.format))

    def getformat(self):
        return self.format

    def getmaxprint(self):
        return self.maxprint

    def getH(self):
        return self.conjugate().transpose()

    def asfptype(self):
        for dt in (numpy.float32, numpy.float64, numpy.complex64, numpy.complex128):
            if numpy.can_cast(self.dtype, dt):
                return self.astype(dt)
        raise TypeError("cannot upcast [%s] to a floating point format" % self.dtype.name)

    def getrow(self, i):
        return self[[i], :] if hasattr(self, "__getitem__") else None

    def getcol(self, j):
        return self[:, [j]] if hasattr(self, "__getitem__") else None


def issparse(x) -> bool:
    """Whether `x` is a gpunp sparse array or matrix."""
    return isinstance(x, _spbase)


def isspmatrix(x) -> bool:
    """Whether `x` is a gpunp sparse matrix (not a sparse array)."""
    return isinstance(x, spmatrix)


def _is_fmt(fmt):
    def check(x) -> bool:
        return isinstance(x, spmatrix) and isinstance(x, _spbase) and x.format == fmt
    check.__name__ = "isspmatrix_" + fmt
    check.__doc__ = f"Whether `x` is a gpunp {fmt}_matrix (not a {fmt}_array)."
    return check


isspmatrix_csr = _is_fmt("csr")
isspmatrix_csc = _is_fmt("csc")
isspmatrix_coo = _is_fmt("coo")
isspmatrix_dia = _is_fmt("dia")
isspmatrix_bsr = _is_fmt("bsr")
isspmatrix_lil = _is_fmt("lil")
isspmatrix_dok = _is_fmt("dok")
