"""Reductions big enough to take each of the GPU's strategies (a block per
output, a thread per output, two stages), along every axis, against NumPy."""

import numpy as np
import pytest

import gpunp as gp

SHAPES = [(3000, 300), (300, 3000), (64, 50, 70), (5, 200_000), (200_000, 5), (1 << 21,),
          (20000, 64), (64, 20000)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_sum_mean_max_argmax_along_every_axis(shape):
    x = np.random.default_rng(len(shape)).standard_normal(shape).astype(np.float32)
    g = gp.asarray(x)
    for axis in [None] + list(range(x.ndim)):
        np.testing.assert_allclose(g.sum(axis=axis).get(), x.sum(axis=axis, dtype=np.float64),
                                   rtol=2e-4, atol=2e-3)
        np.testing.assert_allclose(g.mean(axis=axis).get(), x.mean(axis=axis, dtype=np.float64),
                                   rtol=2e-4, atol=1e-5)
        np.testing.assert_array_equal(g.max(axis=axis).get(), x.max(axis=axis))
        np.testing.assert_array_equal(g.argmax(axis=axis).get(), x.argmax(axis=axis))
        np.testing.assert_array_equal(gp.argmin(g, axis=axis).get(), x.argmin(axis=axis))


def test_integer_sums_are_exact():
    x = np.random.default_rng(3).integers(-1000, 1000, size=(4096, 513), dtype=np.int32)
    g = gp.asarray(x)
    for axis in (None, 0, 1):
        np.testing.assert_array_equal(g.sum(axis=axis).get(), x.sum(axis=axis))


def test_reduction_kernel_along_every_axis():
    k = gp.ReductionKernel("T x", "T y", "x < 0 ? -x : x", "a > b ? a : b", "y = a", "0",
                           "maxabs")
    x = np.random.default_rng(4).standard_normal((700, 900))
    for axis in (None, 0, 1):
        np.testing.assert_array_equal(k(gp.asarray(x), axis=axis).get(),
                                      np.abs(x).max(axis=axis))


@pytest.mark.parametrize("dt", ["int8", "float16", "float64", "uint32"])
def test_split_vector_reductions_of_narrow_and_wide_dtypes(dt):
    """Long runs split over blocks, read 16 bytes at a time (16 int8, 8
    float16 or 2 float64 per read), inner and outer."""
    rng = np.random.default_rng(5)
    x = rng.integers(0, 100, (16384, 256)).astype(dt)
    g = gp.asarray(x)
    for axis in (None, 0, 1):
        if x.dtype.kind == "f":  # float16 sums overflow where NumPy's do
            np.testing.assert_allclose(g.sum(axis=axis).get(), x.sum(axis=axis),
                                       rtol=1e-2 if dt == "float16" else 1e-9)
        else:
            np.testing.assert_array_equal(g.sum(axis=axis).get(), x.sum(axis=axis))
        np.testing.assert_array_equal(g.max(axis=axis).get(), x.max(axis=axis))
        np.testing.assert_array_equal(g.argmax(axis=axis).get(), x.argmax(axis=axis))
        np.testing.assert_array_equal(g[:, 1:].min(axis=axis).get(), x[:, 1:].min(axis=axis))
