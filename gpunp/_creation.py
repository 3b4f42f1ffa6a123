"""Array creation: from data (``array``, ``asarray``, ``asnumpy``), from
shapes (``empty``, ``zeros``, ``ones``, ``full`` and their ``_like`` forms)
and numerical ranges (``arange``, ``linspace``, ``logspace``, ``geomspace``,
``eye``, ``identity``)."""

from __future__ import annotations

import math

import numpy

from gpunp import _lib
from gpunp._lib import check, ffi, lib
from gpunp._ndarray import _INT64_MAX, _intp_dims, _no_bool, _wrap, ndarray
from gpunp._array_api import device_of

_MAXDIM = lib.GP_MAXDIM


_MAX_LEN = 1 << 62  # the engine's largest byte count, so also its longest axis


def _shape_tuple(shape) -> tuple:
    """A shape argument (an int or a sequence of ints) as a tuple of ints."""
    if type(shape) is tuple and len(shape) <= _MAXDIM:
        for s in shape:  # the common case, without raising and catching below
            if type(s) is not int or not 0 <= s <= _MAX_LEN:
                break
        else:
            return shape
    if shape is None:
        raise TypeError("Use () not None as shape arguments")
    try:
        shp = (_no_bool(shape),)
    except TypeError:
        if not hasattr(shape, "__iter__"):
            raise TypeError("expected a sequence of integers or a single integer, "
                            f"got '{shape!r}'") from None
        shp = tuple(_no_bool(s) for s in shape)
    if len(shp) > _MAXDIM:
        raise ValueError(f"maximum supported dimension for an ndarray is currently {_MAXDIM}, "
                         f"found {len(shp)}")
    for s in _intp_dims(shp):
        if s < 0:
            raise ValueError("negative dimensions are not allowed")
        if s > _MAX_LEN:
            raise ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger "
                             "than the maximum possible size.")
    return shp


def _new(fn, *args) -> ndarray:
    out = _lib.out_cell()
    s = fn(*args, out)
    if s:
        raise _lib.error(s)
    return _wrap(out[0])


_C = ord("C")


def _order_cf(order) -> int:
    return _C if order == "C" else _lib.order_code(order, "CF", "C")


# ---- from data ---------------------------------------------------------------------

def _from_numpy(a: numpy.ndarray) -> ndarray:
    if a.dtype.byteorder not in "=|":
        a = a.astype(a.dtype.newbyteorder("="))
    code = _lib.dtype_code(a.dtype)
    # a dense block in any axis order travels as it is; anything else is
    # compacted on the host first (keeping the axis order, as order='K')
    if not (a.flags.c_contiguous or a.flags.f_contiguous) or any(s < 0 for s in a.strides):
        a = a.copy(order="K")
        if not (a.flags.c_contiguous or a.flags.f_contiguous) or any(s < 0 for s in a.strides):
            a = numpy.ascontiguousarray(a)
    # a dense block, walked in memory order, is one buffer
    buf = ffi.from_buffer(a.ravel(order="K"), require_writable=False) if a.size else ffi.NULL
    return _new(lib.gp_array_from_host, buf, a.nbytes, code, a.ndim, a.shape, a.strides)


def _contains_device_arrays(obj) -> bool:
    if isinstance(obj, ndarray):
        return True
    if isinstance(obj, (list, tuple)):
        return any(_contains_device_arrays(x) for x in obj)
    return False


def _to_host_nested(obj):
    if isinstance(obj, ndarray):
        return obj.get()
    if isinstance(obj, (list, tuple)):
        return [_to_host_nested(x) for x in obj]
    return obj


def _foreign_device_array(obj):
    """`obj` as a gpunp array without a copy, if it is another library's
    array in this backend's device memory (__cuda_array_interface__ or
    DLPack); None otherwise."""
    if isinstance(obj, (numpy.ndarray, numpy.generic, list, tuple, int, float, complex)):
        return None
    from gpunp import _interop
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
        if host.dtype.kind in "OUSVMm" or host.dtype.itemsize > 16:
            raise TypeError(f"gpunp does not support dtype {host.dtype!r}")
        if host.dtype == numpy.longdouble and host.dtype != numpy.float64:
            raise TypeError(f"gpunp does not support dtype {host.dtype!r}")
        a = _from_numpy(host)
    if ndmin > a.ndim:
        a = a.reshape((1,) * (ndmin - a.ndim) + a.shape)
    return a


def asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None) -> ndarray:
    """`a` as a gpunp array, without a copy when it already is one of the
    requested dtype and order (and on `device`). Host data (NumPy arrays,
    nested sequences, objects with the buffer protocol) is copied to the
    device, so copy=False refuses it."""
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


def asnumpy(a, stream=None, order="C", out=None) -> numpy.ndarray:
    """A NumPy copy of `a` in host memory (`a` may already be host data)."""
    if isinstance(a, ndarray):
        return a.get(stream=stream, order=order, out=out)
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


def _is_array_arg(x) -> bool:
    return isinstance(x, ndarray) or numpy.ndim(x) > 0


def _proxy(x):
    """A host stand-in with x's dtype for NumPy's own dtype rules (a device
    array as a 0-d array of its dtype: an array is never a weak scalar)."""
    return numpy.zeros((), x.dtype) if isinstance(x, ndarray) else x


def _floor(y: ndarray) -> ndarray:
    from gpunp._ufunc import UFUNCS
    fl = UFUNCS.get("floor")
    # floor division by one is exactly the floor of every finite float
    return fl(y, out=y) if fl is not None else UFUNCS["floor_divide"](y, 1.0, out=y)


def _spaced(y, delta, div):
    """The samples 0, 1, ... in `y` scaled to steps of delta / div, and the
    step, as numpy.linspace scales them (divided first where a step would
    underflow to zero)."""
    if div <= 0:
        return y * delta, numpy.nan
    step = delta / div
    if bool((step == 0).any()):
        return (y / div) * delta, step
    return y * step, step


def _linspace_arrays(start, stop, num, endpoint, dtype, axis):
    """linspace of array start/stop, in numpy.linspace's steps (a new first
    axis of samples, moved to `axis`)."""
    from gpunp._shaping import moveaxis
    from gpunp._ufunc import UFUNCS
    div = (num - 1) if endpoint else num
    dt = numpy.linspace(_proxy(start), _proxy(stop), num=0).dtype
    start, stop = asarray(start), asarray(stop)
    delta = UFUNCS["subtract"](stop.astype(dt, copy=False), start.astype(dt, copy=False))
    y, step = _spaced(arange(0, num, dtype=dt).reshape((-1,) + (1,) * delta.ndim), delta, div)
    y = y + start.astype(y.dtype, copy=False)
    if endpoint and num > 1:
        y[-1, ...] = stop
    if axis != 0:
        y = moveaxis(y, 0, axis)
    if dtype is not None and numpy.issubdtype(dtype, numpy.integer):
        y = _floor(y)
    return y.astype(dt if dtype is None else dtype, copy=False), step


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *,
             device=None):
    """`num` evenly spaced samples over [start, stop], as numpy.linspace
    computes them (scalars, or arrays whose samples run along `axis`)."""
    num = _lib.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    with device_of(device):
        if _is_array_arg(start) or _is_array_arg(stop):
            y, step = _linspace_arrays(start, stop, num, endpoint, dtype, axis)
            return (y, step) if retstep else y
        return _linspace_scalars(start, stop, num, endpoint, retstep, dtype, axis)


def _linspace_scalars(start, stop, num, endpoint, retstep, dtype, axis):
    div = (num - 1) if endpoint else num
    dt = numpy.result_type(start, stop, float(num))
    res_dtype = numpy.dtype(dtype) if dtype is not None else dt
    first, last = numpy.array(start, dtype=dt)[()], numpy.array(stop, dtype=dt)[()]
    delta = last - first
    y, step = _spaced(arange(0, num, dtype=dt), delta, div)
    y += first
    if endpoint and num > 1:
        y[-1] = last
    if axis not in (0, -1):
        raise numpy.exceptions.AxisError(f"axis {axis} is out of bounds for array of dimension 1")
    if res_dtype.kind in "iu":
        y = _floor(y)
    y = y.astype(res_dtype, copy=False)
    return (y, step) if retstep else y


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0) -> ndarray:
    """`base` to the powers of linspace(start, stop, ...), as numpy.logspace
    computes them (scalars or arrays, base too)."""
    from gpunp._ufunc import UFUNCS
    if not isinstance(base, (float, int)) and numpy.ndim(base):
        # every argument gets the dimensions of their broadcast, and base an
        # axis of length one where the samples go
        nd = len(numpy.broadcast_shapes(*(numpy.shape(x) for x in (start, stop, base))))
        start, stop, base = (array(x, copy=None, ndmin=nd) for x in (start, stop, base))
        from gpunp._joining import expand_dims
        base = expand_dims(base, axis)
    y = UFUNCS["power"](base, linspace(start, stop, num=num, endpoint=endpoint, axis=axis))
    return y if dtype is None else y.astype(dtype, copy=False)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0) -> ndarray:
    """A geometric progression from `start` to `stop`, as numpy.geomspace
    computes it: the endpoints' signs and logarithms are host arithmetic on
    the (small) start and stop, the samples a logspace on the device."""
    start = start.get() if isinstance(start, ndarray) else numpy.asarray(start)
    stop = stop.get() if isinstance(stop, ndarray) else numpy.asarray(stop)
    if numpy.any(start == 0) or numpy.any(stop == 0):
        raise ValueError("Geometric sequence cannot include zero")
    dt = numpy.result_type(start, stop, float(num), numpy.zeros((), dtype))
    dtype = dt if dtype is None else numpy.dtype(dtype)
    with numpy.errstate(all="ignore"):
        start, stop = start.astype(dt), stop.astype(dt)
        sign = numpy.sign(start)
        start, stop = start / sign, stop / sign
        result = logspace(numpy.log10(start), numpy.log10(stop), num=num, endpoint=endpoint,
                          base=10.0, dtype=dt)
    if num > 0:
        result[0] = start
        if num > 1 and endpoint:
            result[-1] = stop
    result *= asarray(sign) if sign.ndim else sign[()]
    if axis != 0:
        from gpunp._shaping import moveaxis
        result = moveaxis(result, 0, axis)
    return result.astype(dtype, copy=False)


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


# ---- views with another dtype --------------------------------------------------------------

def _strided_view(a: ndarray, dt, shape: tuple, strides: tuple, offset: int) -> ndarray:
    """A view of a's buffer as `dt` (None: a's dtype) with byte strides,
    `offset` bytes after a's first element. One whose elements would be
    misaligned for their dtype is refused, where NumPy makes it: a GPU faults
    on a misaligned load, and the fault ends the process's use of the device."""
    code = -1 if dt is None else _lib.dtype_code(dt)
    v = _new(lib.gp_array_as_strided, a._h, code, len(shape), shape, strides, offset)
    v._base = a if a._base is None else a._base
    if not v.flags.aligned:
        raise ValueError(f"the view's {v.dtype} elements would not be aligned to "
                         f"{v.dtype.alignment} bytes, which a device cannot load")
    return v


def _as_strided_view(a: ndarray, dt: numpy.dtype, offset: int) -> ndarray:
    """A view of `a` as `dt` with a's shape and strides, `offset` bytes in."""
    return _strided_view(a, dt, a.shape, a.strides, offset)


def _view_dtype(a: ndarray, dt: numpy.dtype) -> ndarray:
    old = a.itemsize
    if dt.itemsize == old:
        return _as_strided_view(a, dt, 0)
    if a.ndim == 0 or not a.flags.c_contiguous or a.strides[-1] != old:
        raise ValueError("To change to a dtype of a different size, the last axis must be "
                         "contiguous")
    if (a.shape[-1] * old) % dt.itemsize:
        raise ValueError("When changing to a smaller dtype, its size must be a divisor of "
                         "the size of original dtype" if dt.itemsize < old else
                         "When changing to a larger dtype, its size must be a divisor of the "
                         "total size in bytes of the last axis of the array.")
    shape = a.shape[:-1] + (a.shape[-1] * old // dt.itemsize,)
    strides = a.strides[:-1] + (dt.itemsize,)
    return _strided_view(a, dt, shape, strides, 0)
