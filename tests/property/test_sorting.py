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

from .outcome import quiet, same_outcome
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
            with quiet():
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


# ---- sort, argsort ------------------------------------------------------------------------

def _axis(data, ndim):
    return data.draw(st.one_of(st.none(), st.integers(-ndim - 1, ndim)), label="axis")


def assert_same_bits(got, want):
    """Values, dtype and shape as assert_same, and the signs of zeros too
    (a stable sort keeps -0.0 and 0.0 where they were)."""
    assert_same(got, want)
    g, w = gp.asnumpy(got), np.asarray(want)
    if w.dtype.kind == "f":
        np.testing.assert_array_equal(np.signbit(g), np.signbit(w))
    elif w.dtype.kind == "c":
        np.testing.assert_array_equal(np.signbit(g.real), np.signbit(w.real))
        np.testing.assert_array_equal(np.signbit(g.imag), np.signbit(w.imag))


@pytest.mark.parametrize("name", ["sort", "argsort"])
@given(data=st.data())
def test_sort_and_argsort_match_numpys_stable_sort(name, data):
    dt = data.draw(dtypes(), label="dtype")
    shape = data.draw(shapes(0, 3, max_side=6), label="shape")
    g, x = data.draw(device_arrays(dt, shape), label="arrays")
    if x.size and data.draw(st.booleans(), label="duplicates"):
        # few distinct values: long runs of equal elements
        vals = x.reshape(-1)[:3].copy()
        pick = vals[np.arange(x.size) % vals.size].reshape(x.shape)
        g, x = gp.asarray(pick), pick
    axis = _axis(data, x.ndim)
    kw = data.draw(st.sampled_from([{}, {"kind": "stable"}, {"kind": "mergesort"},
                                    {"kind": "quicksort"}, {"kind": "heapsort"},
                                    {"stable": True}, {"stable": False}]), label="kind")
    got, want = same_outcome(lambda: getattr(np, name)(x, axis=axis, kind="stable"),
                             lambda: getattr(gp, name)(g, axis=axis, **kw))
    if want is None:
        return
    assert_same_bits(got, want)
    # and NumPy's own kind: the same values (argsort: any order of equal ones)
    plain = getattr(np, name)(x, axis=axis, **kw)
    if name == "sort":
        assert_same(got, plain)


def _descending_order(row):
    """Indices of a 1-d row in descending order, NaNs first, equal elements
    in their order: Python's sort with reverse=True is stable."""
    key = [(bool(v != v), 0 if v != v else v) for v in row.tolist()]
    return sorted(range(len(key)), key=key.__getitem__, reverse=True)


@pytest.mark.parametrize("name", ["sort", "argsort"])
@given(data=st.data())
def test_descending_keeps_equal_elements_in_order(name, data):
    """The array API's descending= (NumPy has none), against Python's
    stable sort."""
    dt = data.draw(dtypes("biuf"), label="dtype")
    shape = data.draw(shapes(1, 3, max_side=6), label="shape")
    g, x = data.draw(device_arrays(dt, shape), label="arrays")
    if data.draw(st.booleans(), label="duplicates"):
        vals = x.reshape(-1)[:2].copy()
        x = vals[np.arange(x.size) % max(vals.size, 1)].reshape(x.shape) if vals.size else x
        g = gp.asarray(x)
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)), label="axis")
    src, ax = (x.reshape(-1), -1) if axis is None else (x, axis)
    idx = np.zeros(src.shape, np.int64)
    if src.size:
        idx = np.apply_along_axis(_descending_order, ax, src).astype(np.int64)
    want = idx if name == "argsort" else np.take_along_axis(src, idx, ax)
    got = getattr(gp, name)(g, axis=axis, descending=True)
    assert_same(got, want)


@given(data=st.data())
def test_sort_methods_match_numpy(data):
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(0, 3), label="shape")), label="arrays")
    axis = data.draw(st.integers(-x.ndim - 1, x.ndim), label="axis")
    x = x.copy()

    def numpy_sort():
        x.sort(axis=axis, kind="stable")
        return x

    def gpunp_sort():
        g.sort(axis=axis)
        return g
    got, want = same_outcome(numpy_sort, gpunp_sort)
    if want is not None:
        assert_same_bits(got, want)
    got, want = same_outcome(lambda: x.argsort(axis=axis, kind="stable"),
                             lambda: g.argsort(axis=axis))
    if want is not None:
        assert_same(got, want)


def test_sort_errors_and_protocol():
    g, x = gp.asarray([3.0, 1.0, 2.0]), np.array([3.0, 1.0, 2.0])
    for kw in ({"kind": "x"}, {"kind": ""}, {"kind": "stable", "stable": True},
               {"order": "a"}):
        with pytest.raises(ValueError):
            gp.sort(g, **kw)
    with pytest.raises(TypeError):
        gp.sort(g, kind=3)
    with pytest.raises(np.exceptions.AxisError):
        gp.sort(gp.asarray(5.0))
    with pytest.raises(ValueError):
        gp.broadcast_to(g, (2, 3)).sort()
    with pytest.raises(TypeError):
        g.sort(axis=None)
    with pytest.raises(TypeError):
        g.partition(1, axis=None)
    assert_same(np.sort(g), np.sort(x))
    assert_same(np.argsort(g), np.argsort(x))


@pytest.mark.parametrize("tiles", ["one", "many"])
@pytest.mark.parametrize("dt", ["float32", "float64", "int32", "uint8", "complex64", "int64"])
def test_sort_large_arrays(dt, tiles, monkeypatch):
    """Several tiles of the GPU's kernels, and several rows; on the host also
    in tiles of 4096 elements (GPUNP_SORT_TILE), as a GPU splits the work."""
    if tiles == "many":
        monkeypatch.setenv("GPUNP_SORT_TILE", "4096")
    rng = np.random.default_rng(1)
    x = (rng.normal(0, 1000, 300_000)).astype(dt)
    if dt.startswith("f"):
        x[::97] = np.nan
        x[::101] = -0.0
    if dt.startswith("c"):
        x.imag = rng.integers(-3, 3, x.size)
        x[::89] = complex(1, np.nan)
    g = gp.asarray(x)
    assert_same_bits(gp.sort(g), np.sort(x, kind="stable"))
    assert_same(gp.argsort(g), np.argsort(x, kind="stable"))
    if dt.startswith("f"):
        # without NaNs and -0.0 the keys alone are sorted and mapped back
        clean = np.abs(np.nan_to_num(x, nan=1.5)) - 3.0
        assert_same_bits(gp.sort(gp.asarray(clean)), np.sort(clean, kind="stable"))
    y = x.reshape(300, 1000)
    for axis in (0, 1):
        assert_same_bits(gp.sort(gp.asarray(y), axis=axis), np.sort(y, axis=axis, kind="stable"))
        assert_same(gp.argsort(gp.asarray(y), axis=axis), np.argsort(y, axis=axis, kind="stable"))


# ---- lexsort ------------------------------------------------------------------------------

@given(data=st.data())
def test_lexsort_matches_numpy(data):
    shape = data.draw(shapes(0, 2, max_side=8), label="shape")
    nkeys = data.draw(st.integers(1, 3), label="keys")
    pairs = [data.draw(device_arrays(data.draw(dtypes(), label="dtype"), shape), label="key")
             for _ in range(nkeys)]
    axis = data.draw(st.one_of(st.none(), st.integers(-len(shape) - 1, len(shape))),
                     label="axis")
    got, want = same_outcome(lambda: np.lexsort([p[1] for p in pairs], axis=axis),
                             lambda: gp.lexsort([p[0] for p in pairs], axis=axis))
    if want is not None:
        assert_same(got, want)


def test_lexsort_errors():
    with pytest.raises(TypeError):
        gp.lexsort([])
    with pytest.raises(ValueError):
        gp.lexsort([gp.arange(2), gp.arange(3)])
    a, b = np.array([1, 1, 0, 0]), np.array([3.0, 1.0, 2.0, 2.0])
    assert_same(np.lexsort((gp.asarray(b), gp.asarray(a))), np.lexsort((b, a)))


# ---- partition, argpartition: NumPy's contract --------------------------------------------

def _assert_partitioned(p, x, kth, axis):
    """Each kth element of p is the one a sort puts there, the elements
    before it are the ones a sort puts before it, the ones after after."""
    p = np.moveaxis(p, axis, -1)
    s = np.moveaxis(np.sort(x, axis=axis, kind="stable"), axis, -1)
    n = s.shape[-1]
    for k in sorted({k % n for k in np.atleast_1d(kth).tolist()}):
        np.testing.assert_array_equal(p[..., k], s[..., k])
        np.testing.assert_array_equal(np.sort(p[..., :k], axis=-1), s[..., :k])
        np.testing.assert_array_equal(np.sort(p[..., k + 1:], axis=-1), s[..., k + 1:])


@pytest.mark.parametrize("name", ["partition", "argpartition"])
@given(data=st.data())
def test_partition_contract(name, data):
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(0, 3, max_side=6), label="shape")),
                     label="arrays")
    axis = _axis(data, x.ndim)
    n = x.size if axis is None else (x.shape[axis] if -x.ndim <= axis < x.ndim else 1)
    kth = data.draw(st.one_of(st.integers(-n - 1, n),
                              st.lists(st.integers(-n - 1, n), min_size=1, max_size=3)),
                    label="kth")
    got, want = same_outcome(lambda: getattr(np, name)(x, kth, axis=axis),
                             lambda: getattr(gp, name)(g, kth, axis=axis))
    if want is None:
        return
    got = gp.asnumpy(got)
    assert got.shape == want.shape and got.dtype == want.dtype
    flat = x.reshape(-1) if axis is None else x
    ax = -1 if axis is None else axis
    if flat.ndim == 0:
        flat = flat.reshape(1)
    if got.size == 0:
        return
    if name == "argpartition":
        np.testing.assert_array_equal(np.sort(got, axis=ax),
                                      np.broadcast_to(np.arange(flat.shape[ax]).reshape(
                                          [-1 if d == ax % flat.ndim else 1
                                           for d in range(flat.ndim)]), got.shape))
        got = np.take_along_axis(flat, got, axis=ax)
    _assert_partitioned(got, flat, kth, ax)


def test_partition_errors_and_methods():
    g = gp.asarray([3, 1, 2])
    for bad in (3, -4, [0, 3]):
        with pytest.raises(ValueError):
            gp.partition(g, bad)
    with pytest.raises(ValueError):
        gp.partition(g, True)
    with pytest.raises(TypeError):
        gp.partition(g, 1.0)
    with pytest.raises(ValueError):
        gp.partition(g, 1, kind="quick")
    x = np.array([5, 3, 9, 1, 7])
    g = gp.asarray(x)
    g.partition(2)
    _assert_partitioned(g.get(), x, 2, -1)
    idx = gp.asarray(x).argpartition(-1)
    _assert_partitioned(x[idx.get()], x, -1, -1)
    _assert_partitioned(gp.asnumpy(np.partition(gp.asarray(x), 1)), x, 1, -1)
