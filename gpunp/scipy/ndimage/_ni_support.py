"""What every ndimage function reads the same way: boundary modes, per-axis
sequences, axes, origins, output= and the host copies of small parameters
(weights, footprints, structures), and the C helpers the kernels share."""

from __future__ import annotations

import operator
import warnings
from collections.abc import Iterable

import numpy as np

import gpunp as gp

from .._host import as_device

# SciPy's codes (its NI_ExtendMode); 'grid-mirror' is 'reflect'. A filter
# reads 'grid-wrap' and 'grid-constant' as 'wrap' and 'constant': they differ
# only for interpolation, where a coordinate falls between samples.
NEAREST, WRAP, REFLECT, MIRROR, CONSTANT, GRID_WRAP, GRID_CONSTANT = range(7)
_MODES = {"nearest": NEAREST, "wrap": WRAP, "reflect": REFLECT, "grid-mirror": REFLECT,
          "mirror": MIRROR, "constant": CONSTANT, "grid-wrap": GRID_WRAP,
          "grid-constant": GRID_CONSTANT}
_FILTER_MODE = {GRID_WRAP: WRAP, GRID_CONSTANT: CONSTANT}

# the dtypes SciPy's C code reads (float16 and the rest raise its RuntimeError)
SUPPORTED = frozenset(np.dtype(c) for c in "?bBhHiIlLqQfd")


def mode_code(mode, is_filter=False):
    code = _MODES.get(mode) if isinstance(mode, str) else None
    if code is None:
        raise RuntimeError("boundary mode not supported")
    return _FILTER_MODE.get(code, code) if is_filter else code


def normalize_sequence(value, rank):
    """`value` once per axis: a scalar repeated, or a sequence of `rank` items."""
    if not isinstance(value, str) and np.iterable(value):
        out = list(value)
        if len(out) != rank:
            raise RuntimeError("sequence argument must have length equal to input rank")
        return out
    return [value] * rank


def check_axes(axes, ndim):
    if axes is None:
        return tuple(range(ndim))
    if np.isscalar(axes):
        axes = (operator.index(axes),)
    elif isinstance(axes, Iterable):
        axes = tuple(operator.index(ax) for ax in axes)
        for ax in axes:
            if ax < -ndim or ax > ndim - 1:
                raise ValueError(f"specified axis: {ax} is out of range")
        axes = tuple(ax % ndim for ax in axes)
    else:
        raise ValueError("axes must be an integer, iterable of integers, or None")
    if len(set(axes)) != len(axes):
        raise ValueError("axes must be unique")
    return axes


def normalize_axis(axis, ndim):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(axis, ndim)
    return axis % ndim


def device_input(x):
    return x if isinstance(x, gp.ndarray) else as_device(x)


def host(x, dtype=None):
    """A small parameter (weights, footprint, structure, matrix) on the host."""
    if isinstance(x, gp.ndarray):
        x = gp.asnumpy(x)
    return np.asarray(x, dtype=dtype)


def check_dtype(dtype):
    if np.dtype(dtype) not in SUPPORTED:
        raise RuntimeError(f"array type {np.dtype(dtype)!r} not supported")


def get_output(output, input, shape=None, complex_output=False):
    """output= as SciPy reads it: None (input's dtype), a dtype or its name,
    or an array of the result's shape (written in place)."""
    shape = input.shape if shape is None else tuple(shape)
    if output is None:
        dt = np.promote_types(input.dtype, np.complex64) if complex_output else input.dtype
        return gp.zeros(shape, dtype=dt)
    if isinstance(output, gp.ndarray):
        if output.shape != shape:
            raise RuntimeError("output shape not correct")
        if complex_output and output.dtype.kind != "c":
            raise RuntimeError("output must have complex dtype")
        return output
    if isinstance(output, np.ndarray):
        raise TypeError("output= takes a gpunp array, not a NumPy array")
    if isinstance(output, str):
        dt = np.dtype(output)
        if complex_output and dt.kind != "c":
            raise RuntimeError("output must have complex dtype")
        if not issubclass(dt.type, np.number):
            raise RuntimeError("output must have numeric dtype")
        return gp.zeros(shape, dtype=dt)
    dt = np.dtype(output)
    if complex_output and dt.kind != "c":
        warnings.warn("promoting specified output dtype to complex", stacklevel=3)
        dt = np.promote_types(dt, np.complex64)
    return gp.zeros(shape, dtype=dt)


def expand_origin(ndim, axes, origin):
    origins = normalize_sequence(origin, len(axes))
    if len(axes) < ndim:
        full = [0] * ndim
        for o, ax in zip(origins, axes):
            full[ax] = o
        origins = full
    return [operator.index(o) for o in origins]


def expand_footprint(ndim, axes, footprint, name="footprint"):
    if len(axes) < ndim:
        if footprint.ndim != len(axes):
            raise RuntimeError(f"{name}.ndim ({footprint.ndim}) must match "
                               f"len(axes) ({len(axes)})")
        footprint = np.expand_dims(footprint, tuple(ax for ax in range(ndim) if ax not in axes))
    return footprint


def expand_mode(ndim, axes, mode):
    if not isinstance(mode, str) and isinstance(mode, Iterable):
        modes = normalize_sequence(mode, len(axes))
        full = ["constant"] * ndim
        for m, ax in zip(modes, axes):
            full[ax] = m
        return full
    return mode


def single_mode(mode, what):
    if not isinstance(mode, str) and isinstance(mode, Iterable):
        raise RuntimeError(f"A sequence of modes is not supported{what}")
    return mode


def shares(a, b):
    return gp.may_share_memory(a, b)


# The dtypes a kernel reads and writes natively; the others are read as
# float64 and written as float64 then cast (C's conversions either way, as
# SciPy's (double)x and (type)v), so each kernel compiles for a few dtype
# pairs, not for every pair. bool is read natively: a bool array may hold
# SciPy's converted bytes (2, 255) that a cast would make 1.
_NATIVE_IN = frozenset(np.dtype(c) for c in "?fd")
_NATIVE_OUT = frozenset(np.dtype(c) for c in "fd")


def kernel_input(x):
    """x as a kernel reads it: C-contiguous, in a dtype of _NATIVE_IN."""
    if x.dtype not in _NATIVE_IN:
        return gp.ascontiguousarray(x, dtype=np.float64)
    return gp.ascontiguousarray(x)


def run_into(output, launch, avoid=None):
    """Calls launch(out) with a C-contiguous out of a native dtype that the
    kernel fills, then stores it into output (a bool output gets each
    value's byte, C's conversion, as SciPy's). A temporary stands in where
    output is of another dtype or layout, or shares memory with `avoid`."""
    direct = (output.dtype in _NATIVE_OUT and output.flags.c_contiguous and
              (avoid is None or not shares(avoid, output)))
    if direct:
        launch(output)
        return output
    out = gp.empty(output.shape, output.dtype if output.dtype in _NATIVE_OUT else np.float64)
    launch(out)
    if output.dtype == np.bool_:
        output.view(np.uint8)[...] = out
    else:
        output[...] = out
    return output


def cast_cval(cval, dtype):
    """cval as SciPy's C code reads it in the input's type, (type)cval, as a
    double (the kernels reading a float64 copy of an integer input)."""
    if np.dtype(dtype).kind in "iu":
        return float(np.array(float(cval)).astype(dtype))
    return float(cval)


# Index of coordinate c on an axis of n samples under a boundary mode, or -1
# where the mode reads the constant. Mirror and reflect are periodic (2n-2
# and 2n), as SciPy extends a line however far a filter reaches past it.
C_PRELUDE = r"""
GPK_FN long long ndi_map(long long c, long long n, int mode)
{
    long long p;
    if (c >= 0 && c < n)
        return c;
    switch (mode) {
    case 0:
        return c < 0 ? 0 : n - 1;
    case 1: case 5:
        p = c % n;
        return p < 0 ? p + n : p;
    case 2:
        if (n == 1) return 0;
        p = c % (2 * n);
        if (p < 0) p += 2 * n;
        return p < n ? p : 2 * n - 1 - p;
    case 3:
        if (n == 1) return 0;
        p = c % (2 * n - 2);
        if (p < 0) p += 2 * n - 2;
        return p < n ? p : 2 * n - 2 - p;
    default:
        return -1;
    }
}
"""

