"""What every gpunp.linalg function shares: NumPy's error class and result
tuples, its checks of shapes and dtypes, and the host backend's road to
NumPy (a zero-copy NumPy view of an array's host memory)."""

from __future__ import annotations

from typing import NamedTuple

import numpy

import gpunp
from gpunp._creation import _array
from gpunp._lib import ffi
from gpunp._ndarray import ndarray

#: NumPy's own class, so ``except numpy.linalg.LinAlgError`` catches gpunp's
LinAlgError = numpy.linalg.LinAlgError


class EigResult(NamedTuple):
    eigenvalues: ndarray
    eigenvectors: ndarray


class EighResult(NamedTuple):
    eigenvalues: ndarray
    eigenvectors: ndarray


class QRResult(NamedTuple):
    Q: ndarray
    R: ndarray


class SlogdetResult(NamedTuple):
    sign: ndarray
    logabsdet: ndarray


class SVDResult(NamedTuple):
    U: ndarray
    S: ndarray
    Vh: ndarray


# ---- NumPy's checks and dtype rules ------------------------------------------------

def assert_stacked_2d(*arrays) -> None:
    for a in arrays:
        if a.ndim < 2:
            raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be at least "
                              "two-dimensional")


def assert_2d(*arrays) -> None:
    for a in arrays:
        if a.ndim != 2:
            raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be "
                              "two-dimensional")


def assert_stacked_square(*arrays) -> None:
    assert_stacked_2d(*arrays)
    for a in arrays:
        if a.shape[-1] != a.shape[-2]:
            raise LinAlgError("Last 2 dimensions of the array must be square")


_SINGLE = (numpy.dtype(numpy.float32), numpy.dtype(numpy.complex64))


def common_type(*arrays) -> tuple:
    """NumPy's (computation dtype, result dtype): linalg computes in double
    precision and returns single precision only when every input is; integer
    and bool inputs count as float64; float16 is refused with TypeError."""
    single, cplx = True, False
    for a in arrays:
        dt = a.dtype
        if dt.kind in "fc":
            if dt == numpy.float16:
                raise TypeError(f"array type {dt.name} is unsupported in linalg")
            cplx = cplx or dt.kind == "c"
            single = single and dt in _SINGLE
        else:
            single = False
    if cplx:
        return numpy.dtype(numpy.complex128), numpy.dtype(
            numpy.complex64 if single else numpy.complex128)
    return numpy.dtype(numpy.float64), numpy.dtype(numpy.float32 if single else numpy.float64)


def real_dtype(dt) -> numpy.dtype:
    dt = numpy.dtype(dt)
    return {"c8": numpy.dtype("f4"), "c16": numpy.dtype("f8")}.get(f"{dt.kind}{dt.itemsize}", dt)


def complex_dtype(dt) -> numpy.dtype:
    return numpy.dtype(numpy.complex64 if numpy.dtype(dt) in _SINGLE else numpy.complex128)


# ---- elementwise helpers the op table lacks ----------------------------------------

def conj(a: ndarray) -> ndarray:
    """The complex conjugate (a copy; the array itself when real)."""
    if a.dtype.kind != "c":
        return a
    c = a.copy()
    im = c.imag
    im[...] = -im
    return c


def isnan(a: ndarray) -> ndarray:
    return a != a


def isfinite(a: ndarray) -> ndarray:
    if a.dtype.kind not in "fc":
        return gpunp.ones(a.shape, bool)
    # inf - inf and NaN - NaN are NaN, which equals nothing
    return (a - a) == 0


# ---- the host backend: NumPy on the array's memory ---------------------------------

def on_host() -> bool:
    return gpunp.backend() == "host"


def host_view(a: ndarray) -> numpy.ndarray:
    """A NumPy array over `a`'s host memory (host backend only), no copy."""
    if a.size == 0:
        return numpy.empty(a.shape, a.dtype)
    lo = sum((n - 1) * s for n, s in zip(a.shape, a.strides) if s < 0)
    hi = sum((n - 1) * s for n, s in zip(a.shape, a.strides) if s > 0) + a.itemsize
    buf = ffi.buffer(ffi.cast("char *", a.data_ptr + lo), hi - lo)
    return numpy.ndarray(a.shape, a.dtype, buffer=buf, offset=-lo, strides=a.strides)


def to_gpunp(r):
    """NumPy's result as gpunp's: arrays and scalars become arrays (0-d for
    scalars), tuples keep their type; anything else (ints) stays."""
    if isinstance(r, (numpy.ndarray, numpy.generic)):
        return gpunp.array(r)
    if isinstance(r, tuple):
        vals = [to_gpunp(x) for x in r]
        cls = _RESULTS.get(type(r).__name__)
        return cls(*vals) if cls is not None else tuple(vals)
    return r


_RESULTS = {c.__name__: c for c in (EigResult, EighResult, QRResult, SlogdetResult, SVDResult)}


def numpy_call(name: str, *arrays, **kwargs):
    """numpy.linalg.<name> on host views of `arrays`, its result as gpunp's."""
    views = [host_view(a) if isinstance(a, ndarray) else a for a in arrays]
    kw = {k: host_view(v) if isinstance(v, ndarray) else v for k, v in kwargs.items()}
    return to_gpunp(getattr(numpy.linalg, name)(*views, **kw))


def arrays(*xs) -> list:
    return [_array(x) for x in xs]
