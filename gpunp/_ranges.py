"""Numerical ranges computed with ufuncs on the device, as NumPy computes
them (its numpy/_core/function_base.py): ``linspace``, ``logspace``,
``geomspace``. ``arange`` is one engine call, in ``_creation``."""

from __future__ import annotations

import numpy

from gpunp import _lib
from gpunp._creation import arange, array, asarray, device_of
from gpunp._joining import expand_dims
from gpunp._ndarray import ndarray
from gpunp._shaping import moveaxis
from gpunp._ufunc import UFUNCS


def _is_array_arg(x) -> bool:
    return isinstance(x, ndarray) or numpy.ndim(x) > 0


def _proxy(x):
    """A host stand-in with x's dtype for NumPy's own dtype rules (a device
    array as a 0-d array of its dtype: an array is never a weak scalar)."""
    return numpy.zeros((), x.dtype) if isinstance(x, ndarray) else x


def _floor(y: ndarray) -> ndarray:
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
    if not isinstance(base, (float, int)) and numpy.ndim(base):
        # every argument gets the dimensions of their broadcast, and base an
        # axis of length one where the samples go
        nd = len(numpy.broadcast_shapes(*(numpy.shape(x) for x in (start, stop, base))))
        start, stop, base = (array(x, copy=None, ndmin=nd) for x in (start, stop, base))
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
            result = moveaxis(result, 0, axis)
    return result.astype(dtype, copy=False)
