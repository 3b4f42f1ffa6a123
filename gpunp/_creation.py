"""Array creation: from data (``array``, ``asarray``, ``asnumpy``), from
shapes (``empty``, ``zeros``, ``ones``, ``full`` and their ``_like`` forms),
``arange``, ``eye``, ``identity``; and what every module above takes from
here: ``_array`` (an array argument as a gpunp array) and ``device_of`` (the
``device=`` argument). The ranges made with ufuncs (``linspace``...) are in
``_ranges``."""

from __future__ import annotations

import contextlib
import math

import numpy

from gpunp import _interop, _lib
from gpunp._lib import check, ffi, lib
from gpunp._ndarray import (_INT64_MAX, _MAX_LEN, _contains_device_arrays, _from_numpy, _new,
                            _shape_tuple, _to_host_nested, ndarray)
from gpunp.cuda import Device

_NO_DEVICE = contextlib.nullcontext()


def device_of(device):
    """A context manager making `device` current (None: the current device
    stays); ValueError for anything that is not a gpunp device."""
    if device is None:
        return _NO_DEVICE
    if not isinstance(device, Device):
        raise ValueError(f"unsupported device {device!r}: gpunp takes a gpunp.cuda.Device "
                         "(an array's .device, or one of __array_namespace_info__().devices())")
    count = ffi.new("int32_t *")
    check(lib.gp_device_count(count))
    if not 0 <= device.id < count[0]:
        raise ValueError(f"device {device.id} does not exist: there are {count[0]}")
    return device


_C = ord("C")


def _order_cf(order) -> int:
    return _C if order == "C" else _lib.order_code(order, "CF", "C")


# ---- from data ---------------------------------------------------------------------

def _foreign_device_array(obj):
    """`obj` as a gpunp array without a copy, if it is another library's
    array in this backend's device memory (__cuda_array_interface__ or
    DLPack); None otherwise."""
    if isinstance(obj, (numpy.ndarray, numpy.generic, list, tuple, int, float, complex)):
        return None
    if _interop._device_type() == _interop.KDL_CPU:
        return None
    if hasattr(type(obj), "__cuda_array_interface__") or hasattr(obj, "__cuda_array_interface__"):
        try:
            return _interop.from_cuda_array_interface(obj)
        except AttributeError:
            pass
    if hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"):
        if tuple(obj.__dlpack_device__())[0] == _interop._device_type():
            return _interop.from_dlpack(obj)
    return None


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0, like=None) -> ndarray:
    """An array from `obj`: a gpunp array, a NumPy array, nested sequences or
    a scalar. Data from the host is copied to the current device."""
    if like is not None and not isinstance(like, ndarray):
        raise TypeError("like= must be a gpunp.ndarray")
    order = chr(_lib.order_code(order))  # checked as NumPy does, and one capital letter
    if isinstance(obj, ndarray):
        a = obj
        if dtype is not None and _lib.dtype_code(dtype) != _lib.dtype_code(a.dtype):
            a = a.astype(dtype, order=order)
        elif copy:
            a = a.copy(order=order)
        elif copy is False or copy is None:
            if order in ("C", "F") and not getattr(a.flags, f"{'c' if order == 'C' else 'f'}"
                                                                "_contiguous"):
                if copy is False:
                    raise ValueError("Unable to avoid copy while creating an array as "
                                     "requested.")
                a = a.copy(order=order)
    elif _foreign_device_array(obj) is not None:
        a = _foreign_device_array(obj)
        if dtype is not None and _lib.dtype_code(dtype) != _lib.dtype_code(a.dtype):
            a = a.astype(dtype, order=order)
        elif copy:
            a = a.copy(order=order)
    else:
        if copy is False:
            raise ValueError("Unable to avoid copy while creating an array as requested: the "
                             "data is in host memory")
        if _contains_device_arrays(obj):
            obj = _to_host_nested(obj)
        host = numpy.asarray(obj, dtype=dtype, order=order if order in ("C", "F") else None)
        if (host.dtype.kind in "OUSVMm" and not _lib.is_bfloat16(host.dtype)) or \
                host.dtype.itemsize > 16:
            raise TypeError(f"gpunp does not support dtype {host.dtype!r}")
        if host.dtype == numpy.longdouble and host.dtype != numpy.float64:
            raise TypeError(f"gpunp does not support dtype {host.dtype!r}")
        a = _from_numpy(host)
    if ndmin > a.ndim:
        a = a.reshape((1,) * (ndmin - a.ndim) + a.shape)
    return a


def asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None,
            blocking=False) -> ndarray:
    """`a` as a gpunp array, without a copy when it already is one of the
    requested dtype and order (and on `device`). Host data (NumPy arrays,
    nested sequences, objects with the buffer protocol) is copied to the
    device, so copy=False refuses it. `blocking` is CuPy's: the copy from
    the host is done when this returns either way."""
    if device is not None:
        with device_of(device):
            if isinstance(a, ndarray) and a.device != device:
                a = a.to_device(device)
            return asarray(a, dtype, order, copy=copy, like=like)
    if copy is not True and (isinstance(a, ndarray) or _foreign_device_array(a) is not None):
        return array(a if isinstance(a, ndarray) else _foreign_device_array(a), dtype=dtype,
                     copy=None if copy is None else False, order=order or "K")
    return array(a, dtype=dtype, copy=True if copy is None else copy, order=order or "K",
                 like=like)


def _as_input(x):
    if isinstance(x, numpy.ndarray):
        raise TypeError(
            "Unsupported type <class 'numpy.ndarray'>: use gpunp.asarray(x) to move it")
    return asarray(x)


def _array(a) -> ndarray:
    """An array argument: a gpunp array as it is, anything else through asarray."""
    return a if isinstance(a, ndarray) else _as_input(a)


def fromiter(iter, dtype, count=-1, *, like=None) -> ndarray:
    """An array from an iterable, read on the host by numpy.fromiter (its
    dtype and count rules) and copied to the device."""
    return asarray(numpy.fromiter(iter, dtype, count))


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None) -> ndarray:
    """The bytes of a host buffer (any object with the buffer protocol) as an
    array on the device: numpy.frombuffer's interpretation, then a copy."""
    if isinstance(buffer, ndarray):
        raise TypeError("a gpunp array is in device memory: view it with .view(dtype)")
    return asarray(numpy.frombuffer(buffer, dtype, count, offset))


def ascontiguousarray(a, dtype=None, *, like=None) -> ndarray:
    return asarray(a, dtype=dtype, order="C")


def asfortranarray(a, dtype=None, *, like=None) -> ndarray:
    return asarray(a, dtype=dtype, order="F")


def asnumpy(a, stream=None, order="C", out=None, blocking=True) -> numpy.ndarray:
    """A NumPy copy of `a` in host memory (`a` may already be host data). An
    object with a ``__gpunp_asnumpy__`` method (gpunp.scipy.sparse's arrays,
    whose host form is a SciPy object) gives what that method returns. The
    copy is done when this returns, whatever `blocking` says
    (``ndarray.get``)."""
    if isinstance(a, ndarray):
        return a.get(stream=stream, order=order, out=out, blocking=blocking)
    host = getattr(type(a), "__gpunp_asnumpy__", None)
    if host is not None:
        return host(a)
    if out is not None:
        out[...] = a
        return out
    return numpy.asarray(a, order=order)


# ---- from shapes -------------------------------------------------------------------------

def empty(shape, dtype=float, order="C", *, device=None, like=None) -> ndarray:
    if device is not None:
        with device_of(device):
            return empty(shape, dtype, order)
    shp = (shape,) if type(shape) is int and 0 <= shape <= _MAX_LEN else _shape_tuple(shape)
    return _new(lib.gp_array_empty, _lib.dtype_code(dtype), len(shp), shp, _order_cf(order))


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None) -> ndarray:
    if device is not None:
        with device_of(device):
            return full(shape, fill_value, dtype, order)
    shp = _shape_tuple(shape)
    if isinstance(fill_value, ndarray):
        if fill_value.size != 1:
            a = empty(shp, dtype if dtype is not None else fill_value.dtype, order)
            a[...] = fill_value
            return a
        fill_value = fill_value.get().reshape(()).item() if dtype is not None else \
            fill_value.get().reshape(())[()]
    elif not _lib.is_scalar(fill_value):  # an array-like, cast unsafely as NumPy's copyto
        host = numpy.asarray(fill_value)
        if dtype is not None:
            host = host.astype(dtype)
        if host.size != 1:
            a = empty(shp, host.dtype, order)
            a[...] = asarray(host)
            return a
        fill_value = host.reshape(())[()]
    if dtype is None:
        dtype = numpy.asarray(fill_value).dtype
    s = ffi.new("gp_scalar_t *")
    _lib.put_scalar(s, fill_value)
    return _new(lib.gp_array_full, _lib.dtype_code(dtype), len(shp), shp,
                _lib.order_code(order, "CF", "C"), s)


def zeros(shape, dtype=float, order="C", *, device=None, like=None) -> ndarray:
    if device is not None:
        with device_of(device):
            return zeros(shape, dtype, order)
    shp = (shape,) if type(shape) is int and 0 <= shape <= _MAX_LEN else _shape_tuple(shape)
    return _new(lib.gp_array_zeros, _lib.dtype_code(dtype), len(shp), shp, _order_cf(order))


def ones(shape, dtype=float, order="C", *, device=None, like=None) -> ndarray:
    return full(shape, 1, float if dtype is None else dtype, order, device=device)


def empty_like(prototype, dtype=None, order="K", subok=True, shape=None, *, device=None) -> ndarray:
    if device is not None:
        with device_of(device):
            return empty_like(prototype, dtype, order, subok, shape)
    if not isinstance(prototype, ndarray):
        prototype = asarray(prototype)
    if dtype is None:
        dtype = prototype.dtype
    if shape is not None:
        shp = _shape_tuple(shape)
        o = chr(_lib.order_code(order))
        o = o if o in ("C", "F") else (
            "F" if prototype.flags.f_contiguous and not prototype.flags.c_contiguous else "C")
        return empty(shp, dtype, o)
    return _new(lib.gp_array_empty_like, prototype._h, _lib.dtype_code(dtype),
                _lib.order_code(order))


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    res = empty_like(a, dtype, order, subok, shape, device=device)
    if isinstance(fill_value, ndarray) or _lib.is_scalar(fill_value):
        res.fill(fill_value)
    else:  # an array-like, cast unsafely and broadcast as NumPy's copyto
        res[...] = asarray(numpy.asarray(fill_value).astype(res.dtype))
    return res


def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None) -> ndarray:
    if device is None and shape is None and isinstance(a, ndarray):
        return _new(lib.gp_array_zeros_like, a._h,
                    _lib.dtype_code(a.dtype if dtype is None else dtype), _lib.order_code(order))
    return full_like(a, 0, dtype, order, subok, shape, device=device)


def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None) -> ndarray:
    return full_like(a, 1, dtype, order, subok, shape, device=device)


# ---- numerical ranges ---------------------------------------------------------------------

def _scalar_of(value, dt: numpy.dtype):
    """A gp_scalar_t holding `value` as a strong scalar of `dt`."""
    s = ffi.new("gp_scalar_t *")
    _lib.put_scalar(s, dt.type(value))
    return s


def arange(start, stop=None, step=None, dtype=None, *, device=None, like=None) -> ndarray:
    """Evenly spaced values in [start, stop), computed as numpy.arange does:
    the first two elements from Python's arithmetic, the rest as
    start + i * delta in the result dtype."""
    if device is not None:
        with device_of(device):
            return arange(start, stop, step, dtype)
    for v in (start, stop, step):
        if isinstance(v, ndarray):
            raise TypeError("arange takes Python or NumPy scalars")
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    if step == 0:
        raise ZeroDivisionError("division by zero")
    # NumPy's arange promotes the values' dtypes with intp's: int8 values
    # give int64, float16 ones float64, uint64 ones (or an int past int64)
    # float64
    dt = numpy.dtype(dtype) if dtype is not None else numpy.result_type(
        numpy.intp, *(numpy.asarray(v).dtype for v in (start, stop, step)))
    if dt.kind != "c" and complex in (type(start), type(stop), type(step)):
        raise TypeError("must be real number, not complex")  # NumPy's, for a Python complex
    if isinstance(start, complex) or isinstance(stop, complex) or isinstance(step, complex):
        q = complex((stop - start) / step)  # as many as both parts allow, as NumPy counts
        n = min(math.ceil(q.real), math.ceil(q.imag))
    else:
        try:
            n = math.ceil((stop - start) / step)
        except OverflowError:
            raise ValueError("arange: cannot compute length") from None
    n = max(int(n), 0)
    if n > _INT64_MAX:
        raise ValueError("Maximum allowed size exceeded")
    _lib.dtype_code(dt)  # after the length, as NumPy (an int past uint64 is its object)
    if dt == numpy.bool_:
        if n > 2:
            raise TypeError("arange() is only supported for booleans when the result has at "
                            "most length 2.")
        return array(numpy.arange(start, stop, step, dtype=bool))
    with numpy.errstate(all="ignore"):
        first = numpy.array(start, dtype=dt)[()]
        second = numpy.array(start + step, dtype=dt)[()] if n > 1 else first
    return _new(lib.gp_array_arange, _scalar_of(first, dt), _scalar_of(second, dt), n,
                _lib.dtype_code(dt))


def eye(N, M=None, k=0, dtype=float, order="C", *, like=None, device=None) -> ndarray:
    if device is not None:
        with device_of(device):
            return eye(N, M, k, dtype, order)
    a = zeros((N, N if M is None else M), dtype, order)  # which reads N and M, as NumPy's
    N, M = a.shape
    k = _lib.index(k)
    n = min(N, M - k) if k >= 0 else min(N + k, M)
    if n > 0:
        s0, s1 = a.strides
        off = k * s1 if k >= 0 else -k * s0
        diag = _new(lib.gp_array_as_strided, a._h, -1, 1, (n,), (s0 + s1,), off)
        diag.fill(1)
    return a


def identity(n, dtype=float, *, like=None) -> ndarray:
    return eye(n, dtype=dtype)
