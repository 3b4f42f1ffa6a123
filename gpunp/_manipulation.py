"""Array manipulation as functions (numpy.reshape, transpose, ravel...)."""

from __future__ import annotations

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
    return a.size if axis is None else a.shape[axis]
