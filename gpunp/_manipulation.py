"""Array manipulation as functions (numpy.reshape, transpose, ravel...) and
broadcasting (broadcast_to, broadcast_shapes, broadcast_arrays): views of
one engine call, which the ufuncs and everything above them use."""

from __future__ import annotations

import math

from gpunp._creation import _array, device_of
from gpunp._lib import _numpy_version, check, ffi, index, lib, normalize_axis
from gpunp._ndarray import _intp_dims, _new, _no_bool, ndarray


def reshape(a, shape=None, order="C", *, newshape=None, copy=None) -> ndarray:
    if shape is None:
        shape = newshape
    return _array(a).reshape(shape, order=order, copy=copy)


def transpose(a, axes=None) -> ndarray:
    return _array(a).transpose(axes)


def permute_dims(a, axes=None) -> ndarray:
    return _array(a).transpose(axes)


def swapaxes(a, axis1, axis2) -> ndarray:
    return _array(a).swapaxes(axis1, axis2)


def ravel(a, order="C") -> ndarray:
    return _array(a).ravel(order)


def squeeze(a, axis=None) -> ndarray:
    return _array(a).squeeze(axis)


def copy(a, order="K", subok=False) -> ndarray:
    return _array(a).copy("K" if order is None else order)


def astype(x, dtype, /, *, copy=True, device=None) -> ndarray:
    x = _array(x)
    if device is not None and device != x.device:
        device_of(device)  # a ValueError for what is not a device
        return x.to_device(device).astype(dtype, copy=False)
    return x.astype(dtype, copy=copy)


def shape(a) -> tuple:
    return _array(a).shape


def ndim(a) -> int:
    return _array(a).ndim


def size(a, axis=None) -> int:
    a = _array(a)
    if axis is None:
        return a.size
    if _numpy_version() < 20400:
        return a.shape[axis]  # NumPy before 2.4 reads one axis off the shape
    # NumPy 2.4 takes an axis or a sequence of axes, each read as a C int
    # (OverflowError past it) before its bounds are checked (AxisError)
    try:
        axes = [index(axis)]
    except TypeError:
        axes = axis  # a sequence; anything else is a TypeError when iterated
    axes = [normalize_axis(ax, a.ndim) for ax in axes]
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis")
    return math.prod(a.shape[ax] for ax in axes)


# ---- broadcasting -----------------------------------------------------------------------

def _shape_arg(shape) -> tuple:
    try:
        shp = tuple(_no_bool(n) for n in shape)
    except TypeError:
        if hasattr(shape, "__iter__"):
            raise
        shp = (_no_bool(shape),)
    return _intp_dims(shp)


def broadcast_to(array, shape, subok=False) -> ndarray:
    a = _array(array)
    shp = _shape_arg(shape)
    if any(n < 0 for n in shp):
        raise ValueError("all elements of broadcast shape must be non-negative")
    v = _new(lib.gp_array_broadcast_to, a._h, len(shp), shp)
    v._base = a if a._base is None else a._base
    return v


def broadcast_shapes(*args) -> tuple:
    shapes = [_shape_arg(s) for s in args]
    for s in shapes:
        if any(n < 0 for n in s):
            raise ValueError("negative dimensions are not allowed")
    keep = [ffi.new("int64_t[]", list(s) or [0]) for s in shapes]
    ndims = ffi.new("int32_t[]", [len(s) for s in shapes] or [0])
    ptrs = ffi.new("int64_t *[]", keep or [ffi.NULL])
    nd = ffi.new("int32_t *")
    out = ffi.new("int64_t[]", lib.GP_MAXDIM)
    check(lib.gp_broadcast_shapes(len(shapes), ndims, ptrs, nd, out))
    return tuple(out[0:nd[0]])


def broadcast_arrays(*args, subok=False) -> tuple:
    arrays = [_array(a) for a in args]
    shape = broadcast_shapes(*(a.shape for a in arrays))
    return tuple(a if a.shape == shape else broadcast_to(a, shape) for a in arrays)
