"""Rounding error of long float32 sums (and the mean and var built on them)
over every axis, against the exact sums (math.fsum, or float64 sums of the
float32 values, whose own error is some 1e-16 of the total), with NumPy's
float32 error beside it. NumPy sums a contiguous run pairwise, so its error
grows with log(n) (under 3 units of 2^-24 of the total here); along other
axes it adds one row after another (167 units for 65536 rows). gpunp's
accumulators take at most about a hundred elements each (a GPU thread's
share, or a run on the host, whose blocks are one thread), their partials
combined in a tree: the worst output here errs by 11 units. A host that
pushed every element through one accumulator erred by 30 to 600 units.
NumPy's cumsum is one running sum; there gpunp need only match it."""

import math

import numpy as np
import pytest

import gpunp as gp

# 16 units of 2^-24 of the sum of |x|: a run of 128 additions, one after
# another, reaches 11 in the worst of 2^15 outputs
UNITS = 2.0**-20


def _uniform(shape, seed):
    return np.random.default_rng(seed).random(shape, dtype=np.float32)


def _payoffs(n, seed):
    """Call payoffs max(S - 100, 0) of simulated prices: half of them 0."""
    z = np.random.default_rng(seed).standard_normal(n, dtype=np.float32)
    s = np.float32(100) * np.exp(np.float32(0.03) + np.float32(0.2) * z)
    return np.maximum(s - np.float32(100), np.float32(0))


def _errors(got, h, axis, exact):
    """gpunp's and NumPy's float32 errors as fractions of the sum of |x|."""
    scale = np.abs(h.astype(np.float64)).sum(axis=axis)
    ours = np.abs(np.asarray(got, np.float64) - exact) / scale
    theirs = np.abs(h.sum(axis=axis, dtype=np.float32).astype(np.float64) - exact) / scale
    return np.max(ours), np.max(theirs)


@pytest.mark.parametrize("data", ["uniform", "payoffs"])
def test_full_sums(data):
    h = _uniform(2**22, 1) if data == "uniform" else _payoffs(2**20, 2)
    g = gp.asarray(h)
    exact = math.fsum(h.tolist())
    ours, theirs = _errors(g.sum().get(), h, None, exact)
    assert ours <= UNITS, (ours, theirs)
    n = h.size
    assert abs(float(g.mean().get()) - exact / n) <= UNITS * exact / n
    h64 = h.astype(np.float64)
    want_var = math.fsum(((h64 - exact / n) ** 2).tolist()) / n
    assert abs(float(g.var().get()) - want_var) <= 4 * UNITS * want_var


# (shape, view, axes): contiguous, transposed and sliced layouts of 2^20-2^22
# float32, so that each axis is in turn the contiguous one, a strided one,
# the one axis kept, and one of several reduced together
LAYOUTS = [
    ((64, 65536), lambda a: a, [None, 0, 1]),
    ((65536, 64), lambda a: a, [0, 1]),
    ((2048, 2048), lambda a: a.T, [0, 1]),
    ((16, 256, 1024), lambda a: a[:, ::2], [0, 1, 2, (0, 2)]),
]


@pytest.mark.parametrize("layout", range(len(LAYOUTS)))
def test_axis_sums(layout):
    shape, view, axes = LAYOUTS[layout]
    base = _uniform(shape, 10 + layout)
    h, g = view(base), view(gp.asarray(base))
    for axis in axes:
        exact = h.astype(np.float64).sum(axis=axis)
        ours, theirs = _errors(g.sum(axis=axis).get(), h, axis, exact)
        assert ours <= UNITS, (axis, ours, theirs)


def test_cumsum_matches_numpy_accuracy():
    h = _uniform(2**20, 3)
    exact = np.cumsum(h.astype(np.float64))
    ours = np.max(np.abs(gp.cumsum(gp.asarray(h)).get() - exact) / exact)
    theirs = np.max(np.abs(np.cumsum(h) - exact) / exact)
    assert ours <= 2 * theirs, (ours, theirs)
