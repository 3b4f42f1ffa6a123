"""Array manipulation as functions (numpy.reshape, transpose, ravel...)."""

from __future__ import annotations

import math

from gpunp._lib import _numpy_version, index, normalize_axis
from gpunp._ndarray import ndarray
from gpunp._ufunc import _array


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
        from gpunp._array_api import device_of
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
