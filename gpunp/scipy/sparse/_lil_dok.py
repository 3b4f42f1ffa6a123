"""The LIL and DOK formats, which live on the host.

SciPy's LIL (a list of column indices and a list of values per row, held in
object arrays) and DOK (a dictionary from coordinates to values) exist for
building a matrix one entry or one slice at a time: every assignment is a
Python-level update of a host structure, which a device could only do with a
transfer per assignment. So these two classes keep SciPy's own LIL or DOK
object on the host (``_host``) and forward item access, assignment and the
dictionary methods to it, which makes their indexing SciPy's by construction.
Everything else goes to the device: ``tocsr()``/``tocoo()``... give gpunp's
device formats, and arithmetic, products, comparisons and reductions convert
to CSR first (a 1-D DOK array to COO), as SciPy's LIL and DOK do, except the
few operations that SciPy answers in LIL or DOK (a product with a scalar,
DOK's sums...), whose result is brought back to the host format. Building one needs SciPy installed.
"""

import numpy

import gpunp

from gpunp.scipy.sparse import _base
from gpunp.scipy.sparse._base import _spbase, container, scipy_sparse, sparray, spmatrix
from gpunp.scipy.sparse._coo import _is_scipy_sparse
from gpunp.scipy.sparse._sputils import isscalarlike

_NAMES = {"lil": "List of Lists", "dok": "Dictionary Of Keys"}

# the SciPy class of each (format, is_array)
_SCIPY_CLASS = {("lil", True): "lil_array", ("lil", False): "lil_matrix",
                ("dok", True): "dok_array", ("dok", False): "dok_matrix"}

# what both formats compute by converting to CSR on the device (SciPy's route too)
_VIA_CSR = ("__eq__", "__ne__", "__lt__", "__gt__", "__le__", "__ge__",
            "__sub__", "__rsub__", "__matmul__", "__rmatmul__", "__rtruediv__", "__abs__",
            "__round__", "multiply", "maximum", "minimum", "power", "dot",
            "sum", "mean", "trace",
            "nonzero", "tocsc", "todia", "_canon", "_canon_as",
            "_operand_index_arrays", "_index_arrays")


def _to_host(x):
    """An index or a value as SciPy's LIL/DOK take it: gpunp arrays and gpunp
    sparse objects are copied to the host (this object lives there)."""
    if isinstance(x, gpunp.ndarray):
        return gpunp.asnumpy(x)
    if isinstance(x, _spbase):
        return x.get()
    if isinstance(x, tuple):
        return tuple(_to_host(k) for k in x)
    if isinstance(x, list) and any(isinstance(k, (gpunp.ndarray, list, tuple)) for k in x):
        return [_to_host(k) for k in x]
    return x


def _wrap(x):
    """A SciPy result as gpunp gives it: host formats stay host objects, the other
    formats move to the device, scalars stay scalars."""
    if _is_scipy_sparse(x) and hasattr(x, "format"):
        is_array = isinstance(x, scipy_sparse().sparray)
        if x.format in _NAMES:
            return container(x.format, is_array)._on(x)
        return container(x.format, is_array)(x)
    if isinstance(x, numpy.ndarray) and x.dtype != object:
        return gpunp.asarray(x)
    return x


def _via_csr(name):
    def method(self, *args, **kwargs):
        return getattr(self._device(), name)(*args, **kwargs)
    method.__name__ = name
    method.__doc__ = f"{name} of the CSR form, on the device."
    return method


def _not_here(name):
    def absent(self):
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
    return property(absent)


class _host_base(_spbase):
    """A SciPy LIL or DOK object on the host behind gpunp's sparse interface."""

    def __init__(self, arg1, shape=None, dtype=None, copy=False, *, maxprint=None):
        cls = getattr(scipy_sparse(), _SCIPY_CLASS[self._format, self._is_array()])
        if isinstance(arg1, _spbase):
            arg1 = arg1._host if isinstance(arg1, _host_base) else arg1.get()
        elif isinstance(arg1, gpunp.ndarray):
            arg1 = gpunp.asnumpy(arg1)
        elif isinstance(arg1, tuple) and any(isinstance(a, gpunp.ndarray) for a in arg1):
            arg1 = _to_host(arg1)
        kwargs = {} if maxprint is None else {"maxprint": maxprint}
        self._host = cls(arg1, shape=shape, dtype=dtype, copy=copy, **kwargs)

    @classmethod
    def _on(cls, host):
        obj = cls.__new__(cls)
        obj._host = host
        return obj

    # ---- metadata -------------------------------------------------------------------------

    @property
    def shape(self):
        return self._host.shape

    @property
    def _shape(self):
        return self._host.shape

    @property
    def dtype(self):
        return self._host.dtype

    @property
    def nnz(self):
        return int(self._host.nnz)

    def _getnnz(self):
        return self._host.nnz

    def __repr__(self):
        kind = "array" if self._is_array() else "matrix"
        return (f"<{_NAMES[self.format]} sparse {kind} of dtype '{self.dtype}'\n"
                f"\twith {self.nnz} stored elements and shape {self.shape}>")

    __str__ = __repr__

    def get(self, stream=None):
        """A copy of the SciPy object (it is on the host already)."""
        return self._host.copy()

    # ---- items ----------------------------------------------------------------------------

    def __getitem__(self, key):
        return _wrap(self._host[_to_host(key)])

    def __setitem__(self, key, value):
        self._host[_to_host(key)] = _to_host(value)

    def count_nonzero(self, axis=None):
        return _wrap(self._host.count_nonzero(axis=axis))

    def getnnz(self, axis=None):
        return _wrap(self._host.getnnz(axis=axis)) if axis is not None else self.nnz

    # ---- conversions ----------------------------------------------------------------------

    def tocsr(self, copy=False):
        if self.ndim != 2:
            raise NotImplementedError("gpunp's CSR format is 2-D; a 1-D DOK array converts "
                                      "to COO (tocoo())")
        return container("csr", self)(self._host.tocsr())

    def tocoo(self, copy=False):
        return container("coo", self)(self._host.tocoo())

    def _device(self):
        """The device form arithmetic goes through: CSR (COO for a 1-D DOK array,
        gpunp's only 1-D format)."""
        return self.tocsr() if self.ndim == 2 else self.tocoo()

    def tobsr(self, blocksize=None, copy=False):
        return container("bsr", self)(self._host.tobsr(blocksize=blocksize))

    def tolil(self, copy=False):
        if self._format == "lil":
            return self.copy() if copy else self
        return container("lil", self)._on(self._host.tolil())

    def todok(self, copy=False):
        if self._format == "dok":
            return self.copy() if copy else self
        return container("dok", self)._on(self._host.todok())

    def toarray(self, order=None, out=None):
        dense = gpunp.asarray(self._host.toarray(order=order))
        return _base._into(dense, out)

    def copy(self):
        return type(self)._on(self._host.copy())

    def astype(self, dtype, casting="unsafe", copy=True):
        res = self._host.astype(dtype, casting=casting, copy=copy)
        return self if res is self._host else type(self)._on(res)

    # ---- what stays on the host, as in SciPy --------------------------------------------

    def transpose(self, axes=None, copy=False):
        return _wrap(self._host.transpose(axes=axes, copy=copy))

    def reshape(self, *args, **kwargs):
        res = self._host.reshape(*args, **kwargs)
        return self if res is self._host else _wrap(res)

    def resize(self, *shape):
        self._host.resize(*shape)

    def diagonal(self, k=0):
        return gpunp.asarray(self._host.diagonal(k=k))

    def setdiag(self, values, k=0):
        self._host.setdiag(_to_host(values), k=k)

    def conjugate(self, copy=True):
        return _wrap(self._host.conjugate(copy=copy))

    @property
    def real(self):
        return _wrap(self._host.real)

    @property
    def imag(self):
        return _wrap(self._host.imag)

    def _mul_scalar(self, other):
        return type(self)._on(self._host * other if self._is_array() else other * self._host)

    def _matmul_dispatch(self, other):
        if isscalarlike(other):
            return self._mul_scalar(other)
        return self._device()._matmul_dispatch(other)

    def __mul__(self, other):
        if isscalarlike(other):
            return self._mul_scalar(other)
        if not self._is_array():
            return self._device()._matmul_dispatch(other)
        return self._device() * other

    def __rmul__(self, other):
        if isscalarlike(other):
            return self._mul_scalar(other)
        return other * self._device()

    def __truediv__(self, other):
        if isscalarlike(other):
            return type(self)._on(self._host / other)
        return self._device() / other

    def __add__(self, other):
        return self._device() + other

    def __radd__(self, other):
        return other + self._device()

    def __neg__(self):
        return -self._device()

    def __pos__(self):
        return self._device()

    def __iter__(self):
        for r in range(self.shape[0]):
            yield self[r]


for _name in _VIA_CSR:
    setattr(_host_base, _name, _via_csr(_name))

# SciPy's LIL and DOK have neither the compressed formats' methods on their values
# nor their min/max reductions
for _name in _base._DATA_UFUNCS + ("sum_duplicates", "eliminate_zeros", "prune",
                                   "sort_indices", "has_canonical_format", "max", "min",
                                   "nanmax", "nanmin", "argmax", "argmin"):
    setattr(_host_base, _name, _not_here(_name))


class _lil_base(_host_base):
    _format = "lil"

    @property
    def rows(self):
        """The column indices of each row: a NumPy object array of Python lists."""
        return self._host.rows

    @rows.setter
    def rows(self, value):
        self._host.rows = value

    @property
    def data(self):
        """The values of each row: a NumPy object array of Python lists."""
        return self._host.data

    @data.setter
    def data(self, value):
        self._host.data = value

    def getrowview(self, i):
        return type(self)._on(self._host.getrowview(i))

    def getrow(self, i):
        return type(self)._on(self._host.getrow(i))

    def __iadd__(self, other):
        return self._inplace(self + other)

    def __isub__(self, other):
        return self._inplace(self - other)

    def __imul__(self, other):
        if isscalarlike(other):
            return self._inplace(self._mul_scalar(other))
        return NotImplemented

    def __itruediv__(self, other):
        if isscalarlike(other):
            return self._inplace(self / other)
        return NotImplemented

    def _inplace(self, result):
        # SciPy's LIL keeps its own object and takes the result's entries
        host = result._host if isinstance(result, _host_base) else result.get()
        self._host = type(self._host)(host)
        return self


class _dok_base(_host_base):
    """DOK: a SciPy dok (a dict subclass) on the host; its dictionary methods are
    forwarded, but a gpunp DOK is not itself a ``dict`` instance."""

    _format = "dok"

    def __len__(self):
        return len(self._host)

    def __contains__(self, key):
        return _to_host(key) in self._host

    def __delitem__(self, key):
        del self._host[_to_host(key)]

    def __reversed__(self):
        return reversed(self._host)

    def keys(self):
        return self._host.keys()

    def values(self):
        return self._host.values()

    def items(self):
        return self._host.items()

    def get(self, key=None, default=0.0):
        """``get()`` gives the SciPy object (gpunp's host copy), ``get(key,
        default)`` the value at `key` as a dict's get (SciPy's DOK method)."""
        if key is None:
            return self._host.copy()
        return self._host.get(_to_host(key), default)

    def setdefault(self, key, default=None, /):
        return self._host.setdefault(_to_host(key), default)

    def pop(self, /, *args):
        return self._host.pop(*args)

    def popitem(self):
        return self._host.popitem()

    def clear(self):
        self._host.clear()

    def update(self, val):
        self._host.update(val)

    def __or__(self, other):
        return self._host | other

    def __ror__(self, other):
        return other | self._host

    def __ior__(self, other):
        self._host |= other
        return self

    @classmethod
    def fromkeys(cls, iterable, value=1, /):
        host = getattr(scipy_sparse(), _SCIPY_CLASS["dok", issubclass(cls, sparray)])
        return cls._on(host.fromkeys(iterable, value))

    # SciPy answers these in DOK; the sums of a DOK with a scalar or a sparse
    # operand are computed on the device and brought back
    def __add__(self, other):
        if isscalarlike(other):
            if other == 0:
                return self.copy()
            return type(self)(self.toarray() + other)
        if _base.issparse(other):
            if other.shape != self.shape:
                raise ValueError("Matrix dimensions are not equal.")
            return (self._device() + other).todok()
        return self._device() + other

    def __radd__(self, other):
        return self + other

    def __neg__(self):
        if self.dtype.kind == "b":
            raise NotImplementedError("Negating a sparse boolean matrix is not supported.")
        return type(self)._on(-self._host)


class lil_array(_lil_base, sparray):
    """SciPy's ``lil_array``, kept on the host (see the module docstring):
    item access and assignment are SciPy's, ``tocsr()`` and arithmetic give
    device objects."""


class lil_matrix(spmatrix, _lil_base):
    """SciPy's ``lil_matrix``, kept on the host (see ``lil_array``)."""


class dok_array(_dok_base, sparray):
    """SciPy's ``dok_array``, kept on the host (see the module docstring): item
    access, assignment and the dictionary methods are SciPy's, ``tocsr()`` and
    arithmetic give device objects."""


class dok_matrix(spmatrix, _dok_base):
    """SciPy's ``dok_matrix``, kept on the host (see ``dok_array``)."""


_base.FORMATS["lil", True] = lil_array
_base.FORMATS["lil", False] = lil_matrix
_base.FORMATS["dok", True] = dok_array
_base.FORMATS["dok", False] = dok_matrix
