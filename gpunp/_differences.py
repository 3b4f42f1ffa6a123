"""Differences along an axis: diff, ediff1d, gradient, each a few shifted
views combined by the elementwise operations (NumPy's formulas, in its
order of operations so that they round alike)."""

from __future__ import annotations

import numpy

from gpunp import _lib
from gpunp._creation import _array, empty
from gpunp._joining import concatenate
from gpunp._manipulation import broadcast_to
from gpunp._ndarray import ndarray
from gpunp._ufunc import UFUNCS

_NO_VALUE = numpy._NoValue


def _shifted(nd: int, axis: int, s: slice) -> tuple:
    index = [slice(None)] * nd
    index[axis] = s
    return tuple(index)


def diff(a, n=1, axis=-1, prepend=_NO_VALUE, append=_NO_VALUE) -> ndarray:
    """The n-th discrete difference along an axis (numpy.diff); bool arrays
    give not_equal, as NumPy's."""
    if n == 0:
        return _array(a)
    if n < 0:
        raise ValueError("order must be non-negative but got " + repr(n))
    a = _array(a)
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = _lib.normalize_axis(axis, a.ndim)
    parts = []
    for extra, first in ((prepend, True), (append, False)):
        if extra is _NO_VALUE:
            continue
        e = _array(extra)
        if e.ndim == 0:
            shape = list(a.shape)
            shape[axis] = 1
            e = broadcast_to(e, tuple(shape))
        parts.append((first, e))
    if parts:
        a = concatenate([e for f, e in parts if f] + [a] + [e for f, e in parts if not f],
                        axis=axis)
    op = UFUNCS["not_equal"] if a.dtype == numpy.bool_ else UFUNCS["subtract"]
    hi, lo = _shifted(a.ndim, axis, slice(1, None)), _shifted(a.ndim, axis, slice(None, -1))
    # past the axis' length every difference is empty, of the same dtype:
    # NumPy goes on n times (forever, for n = 2**62)
    for _ in range(min(n, max(a.shape[axis], 1))):
        a = op(a[hi], a[lo])
    return a


def ediff1d(ary, to_end=None, to_begin=None) -> ndarray:
    """Differences of consecutive elements of the flattened array, with
    values before and after (numpy.ediff1d)."""
    ary = _array(ary).reshape(-1)
    parts = [UFUNCS["subtract"](ary[1:], ary[:-1])]
    for extra, where in ((to_begin, "to_begin"), (to_end, "to_end")):
        if extra is None:
            continue
        e = _array(extra)
        if not numpy.can_cast(e.dtype, ary.dtype, casting="same_kind"):
            raise TypeError(f"dtype of `{where}` must be compatible with input `ary` under the "
                            f"`same_kind` rule.")
        e = e.reshape(-1).astype(ary.dtype)
        parts.insert(0 if where == "to_begin" else len(parts), e)
    return concatenate(parts) if len(parts) > 1 else parts[0]


def _spacings(f: ndarray, varargs, axes):
    """NumPy's spacing per axis: a scalar, or the differences of a 1-d
    coordinate array (a scalar again where they are all equal)."""
    n = len(varargs)
    if n == 0:
        return [1.0] * len(axes)
    if n == 1 and numpy.ndim(varargs[0]) == 0:
        return list(varargs) * len(axes)
    if n != len(axes):
        raise TypeError("invalid number of arguments")
    dx = list(varargs)
    for i, d in enumerate(dx):
        if numpy.ndim(d) == 0:
            continue
        d = _array(d)
        if d.ndim != 1:
            raise ValueError("distances must be either scalars or 1d")
        if len(d) != f.shape[axes[i]]:
            raise ValueError("when 1d, distances must match the length of the corresponding "
                             "dimension")
        if d.dtype.kind in "iub":
            d = d.astype(numpy.float64)
        step = diff(d)
        if bool((step == step[0]).all()):
            step = step[0]
        dx[i] = step
    return dx


def gradient(f, *varargs, axis=None, edge_order=1):
    """Second-order central differences inside, first- or second-order
    one-sided ones at the edges (numpy.gradient): an array per axis."""
    f = _array(f)
    nd = f.ndim
    axes = tuple(range(nd)) if axis is None else _lib.normalize_axis_tuple(axis, nd)
    dx = _spacings(f, varargs, axes)
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    if f.dtype.kind in "iu":
        f = f.astype(numpy.float64)
    otype = f.dtype
    outs = []
    for ax, h in zip(axes, dx):
        if f.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, at "
                             "least (edge_order + 1) elements are required.")
        out = empty(f.shape, otype)
        uniform = numpy.ndim(h) == 0

        def at(s, _ax=ax):
            return _shifted(nd, _ax, s)
        if uniform:
            out[at(slice(1, -1))] = (f[at(slice(2, None))] - f[at(slice(None, -2))]) / (2.0 * h)
        else:
            d1, d2 = h[:-1], h[1:]
            shape = [1] * nd
            shape[ax] = -1
            a = (-d2 / (d1 * (d1 + d2))).reshape(shape)
            b = ((d2 - d1) / (d1 * d2)).reshape(shape)
            c = (d1 / (d2 * (d1 + d2))).reshape(shape)
            out[at(slice(1, -1))] = (a * f[at(slice(None, -2))] + b * f[at(slice(1, -1))]
                                     + c * f[at(slice(2, None))])
        if edge_order == 1:
            h0 = h if uniform else h[0]
            out[at(0)] = (f[at(1)] - f[at(0)]) / h0
            hn = h if uniform else h[-1]
            out[at(-1)] = (f[at(-1)] - f[at(-2)]) / hn
        else:
            if uniform:
                a, b, c = -1.5 / h, 2.0 / h, -0.5 / h
            else:
                d1, d2 = h[0], h[1]
                a = -(2.0 * d1 + d2) / (d1 * (d1 + d2))
                b = (d1 + d2) / (d1 * d2)
                c = -d1 / (d2 * (d1 + d2))
            out[at(0)] = a * f[at(0)] + b * f[at(1)] + c * f[at(2)]
            if uniform:
                a, b, c = 0.5 / h, -2.0 / h, 1.5 / h
            else:
                d1, d2 = h[-2], h[-1]
                a = d2 / (d1 * (d1 + d2))
                b = -(d2 + d1) / (d1 * d2)
                c = (2.0 * d2 + d1) / (d2 * (d1 + d2))
            out[at(-1)] = a * f[at(-3)] + b * f[at(-2)] + c * f[at(-1)]
        outs.append(out)
    return outs[0] if len(axes) == 1 else tuple(outs)
