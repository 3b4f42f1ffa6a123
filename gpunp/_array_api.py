"""The Python array API standard's part of the namespace (2024.12 revision):
``__array_namespace_info__``, the array's ``__array_namespace__``,
``device`` and ``to_device`` (the ``device=`` argument of creation functions
is ``_creation.device_of``), and the standard's names NumPy 2 has beside its
own (``concat``, ``matrix_transpose``, ``vecdot``, ``unstack``,
``cumulative_sum``, ``cumulative_prod``, ``isdtype``, ``real``, ``imag``). A
device is a ``gpunp.cuda.Device``: the standard asks only for equality, and
CuPy's users know that object."""

from __future__ import annotations

import numpy
from numpy import isdtype  # noqa: F401 - dtypes are NumPy's, so are their kinds

import gpunp
from gpunp import _lib
from gpunp._creation import _NO_DEVICE, _array, asarray, device_of, empty
from gpunp._joining import concatenate
from gpunp._lib import check, ffi, lib
from gpunp._ndarray import ndarray
from gpunp._products import matmul
from gpunp._shaping import moveaxis
from gpunp._ufunc import UFUNCS
from gpunp.cuda import Device

__array_api_version__ = "2024.12"

#: the revisions of the standard gpunp answers __array_namespace__ for
API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12")


# ---- the array's side ------------------------------------------------------------------

def _array_namespace(self, api_version=None):
    if api_version is not None and api_version not in API_VERSIONS:
        raise ValueError(f"Version {api_version!r} of the Array API is not supported "
                         f"(gpunp supports {', '.join(API_VERSIONS)})")
    return gpunp


def _to_device(self, device, /, *, stream=None):
    """The array on `device`: itself when it is there already, else a copy
    (through host memory: the engine does not copy between devices)."""
    if device == self.device:
        return self
    on = device_of(device)
    host = self.get()
    with on, (stream if stream is not None else _NO_DEVICE):
        return asarray(host)


# ---- the namespace's inspection object ---------------------------------------------------

_KINDS = {
    "bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu",
    "real floating": "f", "complex floating": "c", "numeric": "iufc",
}
_DTYPES = [numpy.dtype(n) for n in (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "complex64", "complex128")]


class __array_namespace_info__:  # noqa: N801 - the standard's name (a class, as NumPy's)
    """The standard's inspection API for gpunp's devices and dtypes:
    ``gpunp.__array_namespace_info__()`` is an instance."""

    __module__ = "gpunp"

    def capabilities(self) -> dict:
        return {"boolean indexing": True, "data-dependent shapes": True,
                "max dimensions": int(lib.GP_MAXDIM)}

    def default_device(self):
        return Device()

    def devices(self) -> list:
        count = ffi.new("int32_t *")
        check(lib.gp_device_count(count))
        return [Device(i) for i in range(count[0])]

    def default_dtypes(self, *, device=None) -> dict:
        device_of(device)
        return {"real floating": numpy.dtype(numpy.float64),
                "complex floating": numpy.dtype(numpy.complex128),
                "integral": numpy.dtype(numpy.intp), "indexing": numpy.dtype(numpy.intp)}

    def dtypes(self, *, device=None, kind=None) -> dict:
        device_of(device)
        if kind is None:
            kinds = "biufc"
        else:
            kinds = ""
            for k in (kind,) if isinstance(kind, str) else tuple(kind):
                if k not in _KINDS:
                    raise ValueError(f"unsupported dtype kind {k!r}: one of "
                                     f"{', '.join(map(repr, _KINDS))} or a tuple of them")
                kinds += _KINDS[k]
        return {d.name: d for d in _DTYPES if d.kind in kinds}


# ---- the standard's functions NumPy 2 has too ------------------------------------------------

def concat(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind") -> ndarray:
    return concatenate(arrays, axis=axis, out=out, dtype=dtype, casting=casting)


def matrix_transpose(x, /) -> ndarray:
    x = _array(x)
    if x.ndim < 2:
        raise ValueError("Input array must be at least 2-dimensional")
    return x.mT


def unstack(x, /, *, axis=0) -> tuple:
    x = _array(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    return tuple(moveaxis(x, axis, 0))


def real(val) -> ndarray:
    return _array(val).real


def imag(val) -> ndarray:
    return _array(val).imag


def vecdot(x1, x2, /, *, axis=-1) -> ndarray:
    """The dot products of vectors along `axis` (the first conjugated), the
    other axes broadcast: a batched matrix product of 1-by-n and n-by-1."""
    x1, x2 = _array(x1), _array(x2)
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("vecdot: both inputs need at least one dimension")
    axis = _lib.c_int(axis, ValueError)  # NumPy's vecdot is a gufunc: its axis= reading
    x1, x2 = moveaxis(x1, axis, -1), moveaxis(x2, axis, -1)
    if x1.shape[-1] != x2.shape[-1]:
        raise ValueError(f"vecdot: the vectors' lengths differ ({x1.shape[-1]} and "
                         f"{x2.shape[-1]})")
    if x1.dtype.kind == "c":
        x1 = UFUNCS["conjugate"](x1)
    return matmul(x1[..., None, :], x2[..., :, None])[..., 0, 0]


def _cumulative(uf, x, axis, dtype, out, include_initial) -> ndarray:
    x = _array(x)
    if x.ndim == 0:
        x = x.reshape(1)
    if axis is None:
        if x.ndim >= 2:
            raise ValueError("For arrays which have more than one dimension ``axis`` "
                             "argument is required.")
        axis = 0
    axis = _lib.normalize_axis(axis, x.ndim, ValueError)  # as ufunc.accumulate reads it
    head = (slice(None),) * axis
    if include_initial:
        if out is None:
            res = uf.accumulate(x, axis=axis, dtype=dtype)
            shape = list(res.shape)
            shape[axis] += 1
            out = empty(tuple(shape), res.dtype)
            out[head + (slice(1, None),)] = res
        else:
            uf.accumulate(x, axis=axis, dtype=dtype, out=out[head + (slice(1, None),)])
        out[head + (0,)] = uf.identity
        return out
    return uf.accumulate(x, axis=axis, dtype=dtype, out=out)


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    return _cumulative(UFUNCS["add"], x, axis, dtype, out, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    return _cumulative(UFUNCS["multiply"], x, axis, dtype, out, include_initial)
