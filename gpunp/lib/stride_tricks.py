"""Views with chosen shapes and strides (``numpy.lib.stride_tricks``).

The engine checks every view against its buffer, so ``as_strided`` cannot
reach memory outside the array whatever the arguments; strides that would
leave an element misaligned are refused too (``_strided_view``)."""

from __future__ import annotations

import numpy

from gpunp import _lib
from gpunp._creation import _array
from gpunp._lib import lib
from gpunp._ndarray import _intp_dims, _no_bool, _strided_view, ndarray

__all__ = ["as_strided", "sliding_window_view"]


def _ints(values) -> tuple:
    return _intp_dims(tuple(_no_bool(v) for v in values))


def as_strided(x, shape=None, strides=None, subok=False, writeable=True, *,
               check_bounds=None) -> ndarray:
    """A view of x's memory with the given shape and byte strides, starting
    at x's first element. Bounds are always checked (``check_bounds`` is
    accepted for NumPy's signature): a view reaching outside the buffer
    raises ValueError."""
    x = _array(x)
    shp = x.shape if shape is None else _ints(shape)
    std = x.strides if strides is None else _ints(strides)
    if len(shp) != len(std):
        raise ValueError("mismatch in length of strides and shape")
    v = _strided_view(x, None, shp, std, 0)
    if not writeable:
        lib.gp_array_set_readonly(v._h)
    return v


def sliding_window_view(x, window_shape, axis=None, *, subok=False,
                        writeable=False) -> ndarray:
    """Every window of `window_shape` over `axis` (all axes when None), as
    a read-only view whose last axes run along each window."""
    x = _array(x)
    window = tuple(window_shape) if numpy.iterable(window_shape) else (window_shape,)
    window = _ints(window)
    if any(w < 0 for w in window):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        axes = tuple(range(x.ndim))
        if len(window) != len(axes):
            raise ValueError("Since axis is `None`, must provide window_shape for all "
                             f"dimensions of `x`; got {len(window)} window_shape elements "
                             f"and `x.ndim` is {x.ndim}.")
    else:
        axes = _lib.normalize_axis_tuple(axis, x.ndim, allow_duplicate=True)
        if len(window) != len(axes):
            raise ValueError("Must provide matching length window_shape and axis; got "
                             f"{len(window)} window_shape elements and {len(axes)} axes "
                             "elements.")
    shape = list(x.shape)
    for ax, w in zip(axes, window):  # an axis may be windowed more than once
        if shape[ax] < w:
            raise ValueError("window shape cannot be larger than input array shape")
        shape[ax] -= w - 1
    strides = x.strides + tuple(x.strides[ax] for ax in axes)
    return as_strided(x, tuple(shape) + window, strides, writeable=writeable)
