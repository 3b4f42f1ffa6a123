"""Grey-scale morphology: erosion and dilation are the minimum and maximum
filters over a footprint (minus or plus a structure's heights), and the rest
are SciPy's compositions of the two."""

from __future__ import annotations

import warnings

import numpy as np

import gpunp as gp

from . import _ni_support as ns
from ._filters import _min_or_max_filter


def _need_one(size, footprint, structure):
    if size is None and footprint is None and structure is None:
        raise ValueError("size, footprint, or structure must be specified")


def grey_erosion(input, size=None, footprint=None, structure=None, output=None, mode="reflect",
                 cval=0.0, origin=0, *, axes=None):
    """Grey erosion: the minimum over the footprint of input minus structure."""
    _need_one(size, footprint, structure)
    return _min_or_max_filter(input, size, footprint, structure, output, mode, cval, origin,
                              True, axes)


def grey_dilation(input, size=None, footprint=None, structure=None, output=None,
                  mode="reflect", cval=0.0, origin=0, *, axes=None):
    """Grey dilation: the maximum over the reflected footprint of input plus
    the reflected structure (origins mirrored, as SciPy's)."""
    _need_one(size, footprint, structure)
    flip = (lambda a: a[(slice(None, None, -1),) * a.ndim])
    if structure is not None:
        structure = flip(ns.host(structure))
    if footprint is not None:
        footprint = flip(ns.host(footprint))
    input = ns.device_input(input)
    axes = ns.check_axes(axes, input.ndim)
    origin = ns.normalize_sequence(origin, len(axes))
    for j in range(len(origin)):
        if footprint is not None:
            n = footprint.shape[j]
        elif structure is not None:
            n = structure.shape[j]
        else:
            n = size if np.isscalar(size) else size[j]
        origin[j] = -origin[j] - (0 if n & 1 else 1)
    return _min_or_max_filter(input, size, footprint, structure, output, mode, cval, origin,
                              False, axes)


def _warn_size(size, footprint):
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=3)


def grey_opening(input, size=None, footprint=None, structure=None, output=None,
                 mode="reflect", cval=0.0, origin=0, *, axes=None):
    """Grey opening: erosion, then dilation."""
    _warn_size(size, footprint)
    tmp = grey_erosion(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    return grey_dilation(tmp, size, footprint, structure, output, mode, cval, origin, axes=axes)


def grey_closing(input, size=None, footprint=None, structure=None, output=None,
                 mode="reflect", cval=0.0, origin=0, *, axes=None):
    """Grey closing: dilation, then erosion."""
    _warn_size(size, footprint)
    tmp = grey_dilation(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    return grey_erosion(tmp, size, footprint, structure, output, mode, cval, origin, axes=axes)


def morphological_gradient(input, size=None, footprint=None, structure=None, output=None,
                           mode="reflect", cval=0.0, origin=0, *, axes=None):
    """Dilation minus erosion."""
    tmp = grey_dilation(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    if isinstance(output, gp.ndarray):
        grey_erosion(input, size, footprint, structure, output, mode, cval, origin, axes=axes)
        return gp.subtract(tmp, output, output)
    return tmp - grey_erosion(input, size, footprint, structure, None, mode, cval, origin,
                              axes=axes)


def morphological_laplace(input, size=None, footprint=None, structure=None, output=None,
                          mode="reflect", cval=0.0, origin=0, *, axes=None):
    """Dilation plus erosion minus twice the input."""
    input = ns.device_input(input)
    tmp1 = grey_dilation(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    out = output if isinstance(output, gp.ndarray) else None
    tmp2 = grey_erosion(input, size, footprint, structure, out, mode, cval, origin, axes=axes)
    gp.add(tmp1, tmp2, tmp2)
    gp.subtract(tmp2, input, tmp2)
    return gp.subtract(tmp2, input, tmp2)


def white_tophat(input, size=None, footprint=None, structure=None, output=None,
                 mode="reflect", cval=0.0, origin=0, *, axes=None):
    """The input minus its grey opening."""
    input = ns.device_input(input)
    _warn_size(size, footprint)
    tmp = grey_erosion(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    tmp = grey_dilation(tmp, size, footprint, structure, output, mode, cval, origin, axes=axes)
    if input.dtype == np.bool_ and tmp.dtype == np.bool_:
        return gp.bitwise_xor(input, tmp, out=tmp)
    return gp.subtract(input, tmp, out=tmp)


def black_tophat(input, size=None, footprint=None, structure=None, output=None,
                 mode="reflect", cval=0.0, origin=0, *, axes=None):
    """The grey closing minus the input."""
    input = ns.device_input(input)
    _warn_size(size, footprint)
    tmp = grey_dilation(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    tmp = grey_erosion(tmp, size, footprint, structure, output, mode, cval, origin, axes=axes)
    if input.dtype == np.bool_ and tmp.dtype == np.bool_:
        return gp.bitwise_xor(tmp, input, out=tmp)
    return gp.subtract(tmp, input, out=tmp)
