"""Reductions long enough to be split over several blocks on a GPU (partial
results, then a pass combining them), with what the split must keep: the
initial value counted once, the first of equal extremes and the first NaN
winning across blocks, outputs of another dtype, results written into a
view of the input, and the two-step mean of an integer dtype."""

import numpy as np
import pytest

import gpunp as gp

LENGTHS = [8192, 100_003, (1 << 22) + 7]
rng = np.random.default_rng(0)


@pytest.mark.parametrize("n", LENGTHS)
def test_split_reductions_of_one_output(n):
    x = rng.standard_normal(n).astype(np.float32)
    g = gp.asarray(x)
    exact = x.astype(np.float64).sum()
    np.testing.assert_allclose(gp.sum(g, initial=5.0).get(), exact + 5, rtol=1e-4)
    np.testing.assert_allclose(g.mean().get(), exact / n, rtol=1e-3, atol=1e-6)
    assert gp.min(g, initial=-1.0).get() == np.min(x, initial=-1.0)
    ties = x.copy()
    ties[[n // 3, 2 * n // 3]] = x.max() + 1   # equal maxima in different blocks
    assert gp.argmax(gp.asarray(ties)).get() == np.argmax(ties)
    nans = x.copy()
    nans[[n // 3, 2 * n // 3]] = np.nan        # the first NaN wins
    assert gp.argmin(gp.asarray(nans)).get() == np.argmin(nans)
    assert np.isnan(gp.asarray(nans).max().get())
    out = gp.zeros((), np.int32)               # argmax through an int64 temporary
    assert gp.argmax(gp.asarray(ties), out=out) is out
    assert out.get() == np.argmax(ties)
    xi = rng.integers(-100, 100, n).astype(np.int8)
    assert gp.asarray(xi).sum().get() == xi.sum()
    assert gp.mean(gp.asarray(xi), dtype=np.int64).get() == np.mean(xi, dtype=np.int64)
    xb = np.zeros(n, bool)
    xb[-1] = True
    assert gp.asarray(xb).any().get() and not gp.asarray(xb).all().get()
    xc = (x + 1j * x[::-1]).astype(np.complex64)
    np.testing.assert_allclose(gp.asarray(xc).sum().get(), xc.astype(np.complex128).sum(),
                               rtol=1e-4)


@pytest.mark.parametrize("shape, axis", [((4, 300_000), 1), ((300_000, 4), 0),
                                         ((3, 50_000, 5), 1), ((70_000, 3), 1),
                                         ((5, 40_000), 0), ((2, 70_000), None)])
@pytest.mark.parametrize("order", "CF")
def test_split_reductions_along_an_axis(shape, axis, order):
    x = np.asarray(rng.standard_normal(shape), order=order)
    g = gp.asarray(x)
    for keepdims in (False, True):
        np.testing.assert_allclose(g.sum(axis=axis, keepdims=keepdims).get(),
                                   x.sum(axis=axis, keepdims=keepdims), rtol=1e-9)
    np.testing.assert_array_equal(g.max(axis=axis).get(), x.max(axis=axis))
    np.testing.assert_array_equal(gp.argmin(g, axis=axis).get(), np.argmin(x, axis=axis))
    out = gp.zeros(np.sum(x, axis=axis).shape, np.float32)
    np.testing.assert_allclose(gp.sum(g, axis=axis, out=out).get(),
                               np.sum(x, axis=axis).astype(np.float32), rtol=1e-5)


def test_sum_into_a_row_of_its_input():
    x = rng.standard_normal((8, 20_000))
    g = gp.asarray(x)
    gp.sum(g, axis=0, out=g[0])
    np.testing.assert_allclose(g[0].get(), x.sum(axis=0), rtol=1e-9)
