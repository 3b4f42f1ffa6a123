"""An axis past a C int (2**31, -2**40, 2**63, 2**100...) raises the error
the running NumPy raises for the same call. NumPy reads an axis in one of
two ways: as a C function's argument (OverflowError past a C int), or
through PyArray_PyIntAsInt (ValueError past a C int, OverflowError past
int64); which one depends on the function, so each call is asked of NumPy
itself. Axes just inside a C int stay NumPy's AxisError.

Left out: transpose (and ndarray.transpose), whose axes NumPy 2.4 casts
from int64 to a C int without a check, so that 2**40 + 2 is the axis 2
(gpunp raises AxisError: test_shape.py); and -2**31, which functions reading the axis with PyArray_AxisConverter
take for axis=None (NPY_RAVEL_AXIS) while the others raise AxisError."""

from __future__ import annotations

import numpy as np
import pytest

import gpunp as gp
import gpunp.fft  # noqa: F401 - loaded lazily otherwise
import gpunp.linalg  # noqa: F401

from .outcome import host, same_outcome

# past a C int on either side, past int64, past uint64; then the in-range
# but out-of-bounds ones that must stay AxisError
HUGE = [2**31, -2**31 - 1, 2**40, -2**40, 2**63 - 1, -2**63, 2**63, -2**63 - 1, 2**64,
        2**100, -2**100, np.int64(2**40), np.int64(-2**63)]
BOUNDARY = [5, -6, 2**31 - 1]
AXES = HUGE + BOUNDARY


def _ids(v):
    return f"{type(v).__name__}({v})"


def _k(xp):
    """The integer indices array for take_along_axis and its kin."""
    return xp.asarray(np.zeros((1, 1, 1), np.int64))


# (name, call(xp, a, axis)): `xp` is numpy or gpunp, `a` a 3-d or a 0-d float64
# array, `axis` one of AXES
CALLS = {
    # reductions
    "sum": lambda xp, a, ax: xp.sum(a, axis=ax),
    "sum_tuple": lambda xp, a, ax: xp.sum(a, axis=(0, ax)),
    "prod": lambda xp, a, ax: xp.prod(a, axis=ax),
    "mean": lambda xp, a, ax: xp.mean(a, axis=ax),
    "mean_tuple": lambda xp, a, ax: xp.mean(a, axis=(ax,)),
    "mean_where": lambda xp, a, ax: xp.mean(a, axis=ax, where=a > 1),
    "var_where": lambda xp, a, ax: xp.var(a, axis=ax, where=a > 1),
    "std": lambda xp, a, ax: xp.std(a, axis=ax),
    "var": lambda xp, a, ax: xp.var(a, axis=ax),
    "min": lambda xp, a, ax: xp.min(a, axis=ax),
    "max": lambda xp, a, ax: xp.max(a, axis=ax),
    "ptp": lambda xp, a, ax: xp.ptp(a, axis=ax),
    "argmin": lambda xp, a, ax: xp.argmin(a, axis=ax),
    "argmax": lambda xp, a, ax: xp.argmax(a, axis=ax),
    "any": lambda xp, a, ax: xp.any(a, axis=ax),
    "all": lambda xp, a, ax: xp.all(a, axis=ax),
    "count_nonzero": lambda xp, a, ax: xp.count_nonzero(a, axis=ax),
    "average": lambda xp, a, ax: xp.average(a, axis=ax),
    "average_weights": lambda xp, a, ax: xp.average(a, axis=ax, weights=a),
    "median": lambda xp, a, ax: xp.median(a, axis=ax),
    "percentile": lambda xp, a, ax: xp.percentile(a, 50, axis=ax),
    "quantile": lambda xp, a, ax: xp.quantile(a, 0.5, axis=ax),
    "nansum": lambda xp, a, ax: xp.nansum(a, axis=ax),
    "nanprod": lambda xp, a, ax: xp.nanprod(a, axis=ax),
    "nanmean": lambda xp, a, ax: xp.nanmean(a, axis=ax),
    "nanstd": lambda xp, a, ax: xp.nanstd(a, axis=ax),
    "nanvar": lambda xp, a, ax: xp.nanvar(a, axis=ax),
    "nanmin": lambda xp, a, ax: xp.nanmin(a, axis=ax),
    "nanmax": lambda xp, a, ax: xp.nanmax(a, axis=ax),
    "nanargmin": lambda xp, a, ax: xp.nanargmin(a, axis=ax),
    "nanargmax": lambda xp, a, ax: xp.nanargmax(a, axis=ax),
    "nanmedian": lambda xp, a, ax: xp.nanmedian(a, axis=ax),
    "nanpercentile": lambda xp, a, ax: xp.nanpercentile(a, 50, axis=ax),
    "nanquantile": lambda xp, a, ax: xp.nanquantile(a, 0.5, axis=ax),
    "nancumsum": lambda xp, a, ax: xp.nancumsum(a, axis=ax),
    "nancumprod": lambda xp, a, ax: xp.nancumprod(a, axis=ax),
    "cumsum": lambda xp, a, ax: xp.cumsum(a, axis=ax),
    "cumprod": lambda xp, a, ax: xp.cumprod(a, axis=ax),
    "cumulative_sum": lambda xp, a, ax: xp.cumulative_sum(a, axis=ax),
    "cumulative_prod": lambda xp, a, ax: xp.cumulative_prod(a, axis=ax),
    "diff": lambda xp, a, ax: xp.diff(a, axis=ax),
    "gradient": lambda xp, a, ax: xp.gradient(a, axis=ax),
    "trapezoid": lambda xp, a, ax: xp.trapezoid(a, axis=ax),
    "add.reduce": lambda xp, a, ax: xp.add.reduce(a, axis=ax),
    "add.reduce_tuple": lambda xp, a, ax: xp.add.reduce(a, axis=(0, ax)),
    "add.accumulate": lambda xp, a, ax: xp.add.accumulate(a, axis=ax),
    "add.reduceat": lambda xp, a, ax: xp.add.reduceat(a, [0], axis=ax),
    "linalg.norm": lambda xp, a, ax: xp.linalg.norm(a, axis=ax),
    "linalg.vector_norm": lambda xp, a, ax: xp.linalg.vector_norm(a, axis=ax),
    "vecdot": lambda xp, a, ax: xp.vecdot(a, a, axis=ax),
    # manipulation
    "moveaxis_source": lambda xp, a, ax: xp.moveaxis(a, ax, 0),
    "moveaxis_destination": lambda xp, a, ax: xp.moveaxis(a, 0, ax),
    "moveaxis_list": lambda xp, a, ax: xp.moveaxis(a, [0, ax], [1, 0]),
    "rollaxis": lambda xp, a, ax: xp.rollaxis(a, ax),
    "rollaxis_start": lambda xp, a, ax: xp.rollaxis(a, 0, ax),
    "expand_dims": lambda xp, a, ax: xp.expand_dims(a, ax),
    "expand_dims_tuple": lambda xp, a, ax: xp.expand_dims(a, (0, ax)),
    "squeeze": lambda xp, a, ax: xp.squeeze(a[:1], ax),
    "squeeze_tuple": lambda xp, a, ax: xp.squeeze(a[:1], (0, ax)),
    "swapaxes": lambda xp, a, ax: xp.swapaxes(a, ax, 0),
    "swapaxes_second": lambda xp, a, ax: xp.swapaxes(a, 0, ax),
    "flip": lambda xp, a, ax: xp.flip(a, ax),
    "flip_tuple": lambda xp, a, ax: xp.flip(a, (0, ax)),
    "roll": lambda xp, a, ax: xp.roll(a, 1, ax),
    "roll_tuple": lambda xp, a, ax: xp.roll(a, (1, 1), (0, ax)),
    "rot90": lambda xp, a, ax: xp.rot90(a, 1, (0, ax)),
    "concatenate": lambda xp, a, ax: xp.concatenate([a, a], axis=ax),
    "concat": lambda xp, a, ax: xp.concat([a, a], axis=ax),
    "stack": lambda xp, a, ax: xp.stack([a, a], axis=ax),
    "unstack": lambda xp, a, ax: xp.unstack(a, axis=ax),
    "append": lambda xp, a, ax: xp.append(a, a, axis=ax),
    "split": lambda xp, a, ax: xp.split(a, 1, axis=ax),
    "array_split": lambda xp, a, ax: xp.array_split(a, 1, axis=ax),
    "take": lambda xp, a, ax: xp.take(a, [0], axis=ax),
    "take_along_axis": lambda xp, a, ax: xp.take_along_axis(a, _k(xp), axis=ax),
    "put_along_axis": lambda xp, a, ax: xp.put_along_axis(a.copy(), _k(xp), 0.0, axis=ax),
    "compress": lambda xp, a, ax: xp.compress([True], a, axis=ax),
    "repeat": lambda xp, a, ax: xp.repeat(a, 2, axis=ax),
    "delete": lambda xp, a, ax: xp.delete(a, 0, axis=ax),
    "insert": lambda xp, a, ax: xp.insert(a, 0, 1.0, axis=ax),
    "trim_zeros": lambda xp, a, ax: xp.trim_zeros(a, axis=ax),
    "unique": lambda xp, a, ax: xp.unique(a, axis=ax),
    "apply_along_axis": lambda xp, a, ax: xp.apply_along_axis(xp.sum, ax, a),
    "apply_over_axes": lambda xp, a, ax: xp.apply_over_axes(xp.sum, a, [ax]),
    "cross": lambda xp, a, ax: xp.cross(a, a, axis=ax),
    "cross_axisa": lambda xp, a, ax: xp.cross(a[..., :3], a[..., :3], axisa=ax),
    "cross_axisc": lambda xp, a, ax: xp.cross(a[..., :3], a[..., :3], axisc=ax),
    "linalg.cross": lambda xp, a, ax: xp.linalg.cross(a[:, :3], a[:, :3], axis=ax),
    "tensordot": lambda xp, a, ax: xp.tensordot(a, a, axes=([ax], [0])),
    "linalg.tensordot": lambda xp, a, ax: xp.linalg.tensordot(a, a, axes=([0], [ax])),
    "linalg.vecdot": lambda xp, a, ax: xp.linalg.vecdot(a, a, axis=ax),
    "diagonal": lambda xp, a, ax: xp.diagonal(a, 0, ax, 0),
    "diagonal_offset": lambda xp, a, ax: xp.diagonal(a, ax),
    "trace": lambda xp, a, ax: xp.trace(a, 0, 0, ax),
    "size": lambda xp, a, ax: xp.size(a, ax),
    "packbits": lambda xp, a, ax: xp.packbits(a.astype(np.uint8), axis=ax),
    "unpackbits": lambda xp, a, ax: xp.unpackbits(a.astype(np.uint8), axis=ax),
    "linspace": lambda xp, a, ax: xp.linspace(xp.zeros(3), xp.ones(3), 4, axis=ax),
    "logspace": lambda xp, a, ax: xp.logspace(xp.zeros(3), xp.ones(3), 4, axis=ax),
    "geomspace": lambda xp, a, ax: xp.geomspace(xp.ones(3), xp.ones(3) * 2, 4, axis=ax),
    "unwrap": lambda xp, a, ax: xp.unwrap(a, axis=ax),
    "random.permuted": lambda xp, a, ax: xp.random.default_rng(0).permuted(a, axis=ax),
    "random.permutation": lambda xp, a, ax: xp.random.default_rng(0).permutation(a, axis=ax),
    "random.shuffle": lambda xp, a, ax: xp.random.default_rng(0).shuffle(a.copy(), axis=ax),
    "random.choice": lambda xp, a, ax: xp.random.default_rng(0).choice(a, 1, axis=ax),
    # sorting
    "sort": lambda xp, a, ax: xp.sort(a, axis=ax),
    "argsort": lambda xp, a, ax: xp.argsort(a, axis=ax),
    "partition": lambda xp, a, ax: xp.partition(a, 0, axis=ax),
    "argpartition": lambda xp, a, ax: xp.argpartition(a, 0, axis=ax),
    "lexsort": lambda xp, a, ax: xp.lexsort([a], axis=ax),
    # fft
    "fft.fft": lambda xp, a, ax: xp.fft.fft(a, axis=ax),
    "fft.rfft": lambda xp, a, ax: xp.fft.rfft(a, axis=ax),
    "fft.fftn": lambda xp, a, ax: xp.fft.fftn(a, axes=(0, ax)),
    "fft.fftshift": lambda xp, a, ax: xp.fft.fftshift(a, axes=ax),
    # methods
    "a.sum": lambda xp, a, ax: a.sum(axis=ax),
    "a.sum_tuple": lambda xp, a, ax: a.sum(axis=(ax,)),
    "a.prod": lambda xp, a, ax: a.prod(ax),
    "a.mean": lambda xp, a, ax: a.mean(ax),
    "a.std": lambda xp, a, ax: a.std(ax),
    "a.var": lambda xp, a, ax: a.var(ax),
    "a.min": lambda xp, a, ax: a.min(ax),
    "a.max": lambda xp, a, ax: a.max(ax),
    "a.any": lambda xp, a, ax: a.any(ax),
    "a.all": lambda xp, a, ax: a.all(ax),
    "a.argmin": lambda xp, a, ax: a.argmin(ax),
    "a.argmax": lambda xp, a, ax: a.argmax(ax),
    "a.cumsum": lambda xp, a, ax: a.cumsum(ax),
    "a.cumprod": lambda xp, a, ax: a.cumprod(ax),
    "a.swapaxes": lambda xp, a, ax: a.swapaxes(0, ax),
    "a.squeeze": lambda xp, a, ax: a[:1].squeeze(ax),
    "a.take": lambda xp, a, ax: a.take([0], ax),
    "a.repeat": lambda xp, a, ax: a.repeat(2, ax),
    "a.compress": lambda xp, a, ax: a.compress([True], ax),
    "a.diagonal": lambda xp, a, ax: a.diagonal(0, ax, 0),
    "a.trace": lambda xp, a, ax: a.trace(0, 0, ax),
    "a.sort": lambda xp, a, ax: a.copy().sort(ax),
    "a.argsort": lambda xp, a, ax: a.argsort(ax),
    "a.partition": lambda xp, a, ax: a.copy().partition(0, ax),
    "a.argpartition": lambda xp, a, ax: a.argpartition(0, ax),
}


def _same_values(got, want):
    """Where NumPy raises nothing (an axis in range after all), the values."""
    if isinstance(want, (list, tuple)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _same_values(g, w)
    elif want is not None:
        np.testing.assert_array_equal(host(got), want)


@pytest.mark.parametrize("axis", AXES, ids=_ids)
@pytest.mark.parametrize("name", list(CALLS))
@pytest.mark.parametrize("ndim", [3, 0])
def test_huge_axis_raises_like_numpy(name, axis, ndim):
    """The same exception class as NumPy for the same call (an array of 3
    dimensions, or 0-d where several functions take other paths)."""
    x = np.arange(24.0).reshape(2, 3, 4) if ndim else np.array(1.5)
    g = gp.asarray(x)
    call = CALLS[name]
    got, want = same_outcome(lambda: call(np, x, axis), lambda: call(gp, g, axis))
    _same_values(got, want)
