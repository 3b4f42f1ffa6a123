"""Property tests of advanced indexing against NumPy: __getitem__ with
integer arrays of every integer dtype (device arrays, NumPy arrays, lists),
boolean masks of one or several dims and scalar booleans, mixed with ints,
slices, None and Ellipsis (NumPy's placement of the indexed dimensions and
its result layout); __setitem__ and ``a[idx] += v`` with broadcasting,
casting and duplicate indices; out-of-bounds and malformed indices (NumPy's
IndexError); and the routines built on it (take, put, nonzero, where,
count_nonzero, compress, extract, take_along_axis, put_along_axis, place,
select, choose). The deferred bounds check of GPU backends is exercised on
the host through GPUNP_INDEX_CHECK=deferred."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp

from .outcome import host, quiet, same_outcome
from .strategies import (INT_DTYPES, assert_same, device_arrays as _device_arrays, dtypes,
                         elements, shapes)

HOST = gp.backend() == "host"


def device_arrays(dt, shape):
    return _device_arrays(dt, shape).map(lambda pair: (pair[0], np.asarray(pair[1])))


# ---- strategies --------------------------------------------------------------------------


@st.composite
def index_array(draw, n, bshape):
    """An integer index array for an axis of length n, of a shape that
    broadcasts to `bshape`: in bounds (negative too), rarely out of bounds.
    Returned as (NumPy array, what gpunp gets: the same as a device array,
    the NumPy array or a list)."""
    nd = draw(st.integers(0, len(bshape)))
    shape = tuple(draw(st.sampled_from([1, s])) for s in bshape[len(bshape) - nd:])
    dt = draw(st.sampled_from(INT_DTYPES))
    lo, hi = (-n, n - 1) if n else (0, 0)
    if draw(st.integers(0, 9)) == 0:
        lo, hi = -n - 2, n + 2  # out of bounds, rarely
    info = np.iinfo(dt)
    lo, hi = max(lo, int(info.min)), min(hi, int(info.max))
    if lo > hi:
        lo = hi = 0
    vals = draw(st.lists(st.integers(lo, hi), min_size=int(np.prod(shape)),
                         max_size=int(np.prod(shape))))
    arr = np.array(vals, dtype=dt).reshape(shape)
    if nd == 0:
        arr = arr.reshape(1)  # a 1-element array (0-d integer arrays are ints)
    form = draw(st.sampled_from(["device", "numpy", "list"]))
    if form == "device":
        return arr, gp.asarray(arr)
    if form == "list" and arr.size:  # an empty list loses the shape
        return arr.astype(np.int64), arr.tolist()
    return arr, arr


@st.composite
def advanced_indices(draw, shape):
    """(NumPy's index, gpunp's index) for `shape`: integer arrays, boolean
    masks (covering one or more axes, rarely of a wrong shape), scalar
    booleans, ints, slices, None and an Ellipsis, at least one advanced."""
    nd = len(shape)
    bshape = tuple(draw(st.lists(st.integers(0, 3), min_size=0, max_size=2)))
    np_items, gp_items = [], []
    axis = 0
    ellipsis_used = False
    count = draw(st.integers(0, nd))
    while axis < count:
        kind = draw(st.sampled_from(["int_array", "int_array", "mask", "int", "slice", "none",
                                     "ellipsis", "bool"]))
        n = shape[axis]
        if kind == "int_array":
            a, g = draw(index_array(n, bshape))
            np_items.append(a)
            gp_items.append(g)
            axis += 1
        elif kind == "mask":
            span = draw(st.integers(1, min(2, nd - axis)))
            mshape = list(shape[axis:axis + span])
            if draw(st.integers(0, 9)) == 0:
                mshape[0] += 1  # a wrong shape: NumPy's IndexError
            m = draw(st.lists(st.booleans(), min_size=int(np.prod(mshape)),
                              max_size=int(np.prod(mshape))))
            m = np.array(m, dtype=bool).reshape(mshape)
            np_items.append(m)
            gp_items.append(draw(st.sampled_from([gp.asarray(m), m, m.tolist()]))
                            if m.ndim == 1 else draw(st.sampled_from([gp.asarray(m), m])))
            axis += span
        elif kind == "int":
            i = draw(st.integers(-n, n - 1)) if n else 0
            np_items.append(i)
            gp_items.append(i)
            axis += 1
        elif kind == "slice":
            s = slice(draw(st.one_of(st.none(), st.integers(-n - 1, n + 1))),
                      draw(st.one_of(st.none(), st.integers(-n - 1, n + 1))),
                      draw(st.sampled_from([None, 1, 2, -1])))
            np_items.append(s)
            gp_items.append(s)
            axis += 1
        elif kind == "none":
            np_items.append(None)
            gp_items.append(None)
        elif kind == "bool":
            b = draw(st.booleans())
            np_items.append(b)
            gp_items.append(draw(st.sampled_from([b, np.bool_(b)])))
        elif not ellipsis_used:
            ellipsis_used = True
            np_items.append(Ellipsis)
            gp_items.append(Ellipsis)
            axis = max(axis, count - draw(st.integers(0, count - axis)))
    if not any(isinstance(i, (np.ndarray, bool, np.bool_)) for i in np_items):
        a, g = draw(index_array(shape[0] if nd else 0, bshape)) if nd else \
            (np.array(True), True)
        np_items.insert(0, a)
        gp_items.insert(0, g)
    if len(np_items) == 1 and draw(st.booleans()):
        return np_items[0], gp_items[0]
    return tuple(np_items), tuple(gp_items)


def assert_result(got, want):
    """Same values, dtype and shape as NumPy."""
    assert isinstance(got, gp.ndarray)
    np.testing.assert_array_equal(host(got), want, strict=True)


def test_result_layout():
    """From a C-contiguous array NumPy's result is C-contiguous in (index
    shape + other axes), transposed where the indexed dimensions stay in
    place; gpunp's has the same strides."""
    x = np.arange(120.0).reshape(2, 3, 4, 5)
    g = gp.asarray(x)
    for k in ((slice(None), [0, 2]), ([0, 1], slice(None), [1, 2]), (0, slice(None), [[0], [3]]),
              (slice(None), [[0], [1]], [0, 3]), ([1], Ellipsis, [2, 4]), (slice(None), 1, [0])):
        assert g[k].strides == x[k].strides, k


# ---- __getitem__ ----------------------------------------------------------------------------

@given(data=st.data())
def test_getitem_advanced(data):
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(min_dims=0, max_dims=4), label="shape")),
                     label="arrays")
    np_index, gp_index = data.draw(advanced_indices(x.shape), label="index")
    got, want = same_outcome(lambda: x[np_index], lambda: g[gp_index])
    if want is None:
        return
    assert_result(got, want)


@given(data=st.data())
def test_getitem_full_mask(data):
    """a[mask] with a mask of a's shape (a[a > v]) and a[True]/a[False]."""
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(), label="shape")), label="arrays")
    m = data.draw(device_arrays(np.bool_, x.shape), label="mask")
    assert_result(g[m[0]], x[m[1]])
    b = data.draw(st.booleans())
    assert_result(g[b], x[b])
    assert_result(g[np.bool_(b)], x[np.bool_(b)])


@given(data=st.data())
def test_getitem_out_of_bounds(data):
    """Every out-of-bounds index raises IndexError, also through a 1-element
    subspace or an empty one (where NumPy before 2.3 only deprecates it when
    the result is empty)."""
    shape = data.draw(shapes(min_dims=1), label="shape")
    g, x = data.draw(device_arrays(np.float32, shape), label="arrays")
    n = shape[0]
    bad = data.draw(st.sampled_from([n, n + 3, -n - 1, 2**31, -2**40]), label="bad")
    dt = data.draw(st.sampled_from([d for d in INT_DTYPES
                                    if np.iinfo(d).min <= bad <= np.iinfo(d).max]))
    idx = np.array([0 if n else bad, bad], dtype=dt) if n else np.array([bad], dtype=dt)
    if math.prod(shape[1:]) == 0 and np.lib.NumpyVersion(np.__version__) < "2.3.0":
        with pytest.warns(DeprecationWarning, match="Out of bound index"):
            x[idx]
    else:
        with pytest.raises(IndexError):
            x[idx]
    with pytest.raises(IndexError, match="out of bounds"):
        g[gp.asarray(idx)]
        gp.cuda.Device().synchronize()  # a GPU reports it here
    with pytest.raises(IndexError):
        g[idx.tolist()]
        gp.cuda.Device().synchronize()  # a GPU reports it here


def test_getitem_bad_items():
    g = gp.arange(6).reshape(2, 3)
    x = np.arange(6).reshape(2, 3)
    for k in ([1.0], np.array([0.5]), (Ellipsis, [0], Ellipsis), ([0], [0], [0]),
              ([0, 1], [0, 1, 2]), np.array([True, False, True])):
        same_outcome(lambda: x[k], lambda: g[k])
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 1 with size 3"):
        g[:, [5]]
        gp.cuda.Device().synchronize()  # a GPU reports it here
    with pytest.raises(IndexError, match="index -3 is out of bounds for axis 0 with size 2"):
        g[[-3], 1]
        gp.cuda.Device().synchronize()  # a GPU reports it here


# ---- __setitem__ ------------------------------------------------------------------------------

def _has_duplicates(x, np_index) -> bool:
    with quiet():
        cnt = np.zeros(x.shape, np.int64)
        np.add.at(cnt, np_index, 1)
    return bool(cnt.size) and int(cnt.max()) > 1


def _setitem_case(data, kinds):
    """(gpunp array, NumPy array, NumPy's index, gpunp's index, the shape
    of x[index] or None where NumPy refuses the index)."""
    dt = data.draw(dtypes(kinds), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(min_dims=1), label="shape")),
                     label="arrays")
    np_index, gp_index = data.draw(advanced_indices(x.shape), label="index")
    with quiet():
        try:
            rshape = x[np_index].shape
        except IndexError:
            rshape = None
    return g, x, np_index, gp_index, rshape


@given(data=st.data())
def test_setitem_advanced(data):
    g, x, np_index, gp_index, rshape = _setitem_case(data, "biufc")
    dt = x.dtype
    if rshape is None:
        with pytest.raises(IndexError):
            g[gp_index] = 0
            gp.cuda.Device().synchronize()  # a GPU reports it here
        return
    # values of the result's shape or broadcast to it, or a scalar; where an
    # element is written twice the GPU keeps one of the values (not NumPy's
    # last), so off the host such indices get one value
    vdt = data.draw(dtypes(), label="value dtype")
    dups = not HOST and _has_duplicates(x, np_index)
    if dups or data.draw(st.booleans()):
        value = data.draw(elements(dt), label="scalar")
        gvalue = value
    else:
        vshape = tuple(data.draw(st.sampled_from([1, n])) for n in rshape[data.draw(
            st.integers(0, len(rshape))):])
        gvalue, value = data.draw(device_arrays(vdt, vshape), label="values")
        if data.draw(st.booleans()):
            gvalue = value  # a NumPy array
    y = x.copy()

    def np_set():
        y[np_index] = value
        return y

    def gp_set():
        g[gp_index] = gvalue
        return g

    got, want = same_outcome(np_set, gp_set)
    if want is None:
        return
    np.testing.assert_array_equal(host(got), want, strict=True)


@given(data=st.data())
def test_setitem_augmented(data):
    """a[idx] += v: read, add, write back; duplicates apply once."""
    g, x, np_index, gp_index, rshape = _setitem_case(data, "iuf")
    dt = x.dtype
    if rshape is None:
        return
    dups = not HOST and _has_duplicates(x, np_index)
    if dups:
        v = np.ones((), dt)
    else:
        v = data.draw(device_arrays(dt, rshape), label="v")[1]
    y = x.copy()

    def np_add():
        y[np_index] += v
        return y

    def gp_add():
        g[gp_index] += gp.asarray(v)
        return g

    got, want = same_outcome(np_add, gp_add)
    if want is not None:
        np.testing.assert_array_equal(host(got), want, strict=True)


def test_setitem_duplicates_last_wins_on_host():
    g = gp.zeros(4, np.int64)
    g[[1, 1, 3, 1]] = gp.asarray(np.array([5, 6, 7, 8]))
    if HOST:
        assert g.get().tolist() == [0, 8, 0, 7]
    else:
        assert g.get()[1] in (5, 6, 8) and g.get()[3] == 7
    g = gp.zeros(4, np.int64)
    g[[0, 0, 2]] += 1
    assert g.get().tolist() == [1, 0, 1, 0]


def test_setitem_errors():
    g = gp.arange(5.0)
    x = np.arange(5.0)
    for k, v in (([1, 2], [1, 2, 3]), ([7], 1), ([0], [[1], [2]]), (np.array([True]), 1)):
        same_outcome(lambda: x.__setitem__(k, v), lambda: g.__setitem__(k, v))
    r = gp.broadcast_to(g, (2, 5))
    with pytest.raises(ValueError):
        r[[0]] = 1
    with pytest.raises(OverflowError):
        gp.zeros(3, np.uint8)[[0]] = 300


def test_setitem_overlap():
    """Values and indices that live in the destination are read first."""
    x = np.arange(6)
    g = gp.asarray(x)
    x[x[::-1] % 6] = x[::-1]
    g[g[::-1] % 6] = g[::-1]
    np.testing.assert_array_equal(g.get(), x)


# ---- the deferred bounds check ----------------------------------------------------------------

def test_deferred_bounds_check():
    """With GPUNP_INDEX_CHECK=deferred the host backend checks as a GPU
    does: the gather returns, and the next copy to the host (or
    synchronisation) raises NumPy's IndexError once; work after it runs."""
    code = textwrap.dedent("""
        import numpy as np, gpunp as gp
        a = gp.arange(5.0)
        b = a[gp.asarray(np.array([1, 10, 2]))]
        c = b + 1
        try:
            c.get()
        except IndexError as e:
            print("raised:", e)
        print("after:", a[[4, -5]].get().tolist())
        d = a[[0, -6]]
        try:
            gp.cuda.Device().synchronize()
        except IndexError as e:
            print("sync raised:", e)
        print("clean:", (a[[1]] * 2).get().tolist())
    """)
    env = dict(os.environ, GPUNP_INDEX_CHECK="deferred", GPUNP_BACKEND="host")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       cwd="/", timeout=300)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines == ["raised: index 10 is out of bounds for axis 0 with size 5",
                     "after: [4.0, 0.0]",
                     "sync raised: index -6 is out of bounds for axis 0 with size 5",
                     "clean: [2.0]"], r.stdout


# ---- all or nothing ----------------------------------------------------------------------------

@given(data=st.data())
def test_an_assignment_that_raises_writes_nothing(data):
    """NumPy checks every index before it moves an element: an assignment or
    put_along_axis that raises IndexError leaves the target as it was."""
    shape = data.draw(shapes(min_dims=1, max_dims=3, min_side=1), label="shape")
    x = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
    g = gp.asarray(x)
    n = shape[0]
    good = data.draw(st.lists(st.integers(-n, n - 1), max_size=6), label="good")
    bad = data.draw(st.sampled_from([n, n + 3, -n - 1]), label="bad")
    key = data.draw(st.permutations(good + [bad]), label="key")
    kind = data.draw(st.sampled_from(["list", "device", "tuple", "along"]), label="kind")
    if kind == "along":
        idx = np.zeros((len(key),) + shape[1:], np.int64)
        idx[:, ...] = np.array(key).reshape((-1,) + (1,) * (len(shape) - 1))
        f_np = lambda: np.put_along_axis(x, idx, -1, axis=0)
        f_gp = lambda: gp.put_along_axis(g, gp.asarray(idx), -1, axis=0)
    else:
        k_gp = {"list": key, "device": gp.asarray(key),
                "tuple": (key,) + (0,) * (len(shape) - 1)}[kind]
        k_np = (key,) + (0,) * (len(shape) - 1) if kind == "tuple" else key
        f_np = lambda: x.__setitem__(k_np, -1)
        f_gp = lambda: g.__setitem__(k_gp, -1)
    with pytest.raises(IndexError) as want:
        f_np()
    with pytest.raises(IndexError, match=re.escape(str(want.value))):
        f_gp()
    np.testing.assert_array_equal(g.get(), x)


def test_deferred_assignment_raises_itself_and_writes_nothing():
    """As a GPU checks (GPUNP_INDEX_CHECK=deferred): the assignment waits for
    its indices' check, raises NumPy's IndexError itself, and writes nothing;
    the scatter-add likewise."""
    code = textwrap.dedent("""
        import numpy as np, gpunp as gp
        a = gp.arange(5.0)
        for key in ([3, 1, 9, 0], gp.asarray([0, -6])):
            try:
                a[key] = 7
            except IndexError as e:
                print("raised:", e)
        try:
            gp.add.at(a, gp.asarray([1, 5]), 1)
        except IndexError as e:
            print("raised:", e)
        print("a:", a.get().tolist())
    """)
    env = dict(os.environ, GPUNP_INDEX_CHECK="deferred", GPUNP_BACKEND="host")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       cwd="/", timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["raised: index 9 is out of bounds for axis 0 with size 5",
                                     "raised: index -6 is out of bounds for axis 0 with size 5",
                                     "raised: index 5 is out of bounds for axis 0 with size 5",
                                     "a: [0.0, 1.0, 2.0, 3.0, 4.0]"], r.stdout


# ---- routines ----------------------------------------------------------------------------------

@given(data=st.data())
def test_take(data):
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(min_dims=0), label="shape")),
                     label="arrays")
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim - 1, x.ndim)), label="axis")
    mode = data.draw(st.sampled_from(["raise", "wrap", "clip"]), label="mode")
    n = x.size if axis is None else (x.shape[axis] if -x.ndim <= axis < x.ndim else 1)
    ishape = data.draw(shapes(max_dims=2), label="index shape")
    idt = data.draw(st.sampled_from(INT_DTYPES), label="index dtype")
    info = np.iinfo(idt)
    vals = data.draw(st.lists(st.integers(max(-2 * n - 2, int(info.min)),
                                          min(2 * n + 2, int(info.max))),
                              min_size=int(np.prod(ishape)), max_size=int(np.prod(ishape))))
    idx = np.array(vals, idt).reshape(ishape)
    # NumPy's wrap loops forever taking from an empty axis into an empty
    # result (2.4, 2.5); its clip, the same outcome whenever the axis is empty
    # (an error for a non-empty result, else the empty one), is the reference
    ref = "clip" if mode == "wrap" and n == 0 else mode
    got, want = same_outcome(lambda: np.take(x, idx, axis=axis, mode=ref),
                             lambda: gp.take(g, gp.asarray(idx), axis=axis, mode=mode))
    if want is not None:
        np.testing.assert_array_equal(host(got), np.asarray(want), strict=True)
        assert got.flags.c_contiguous


@pytest.mark.parametrize("mode", ["clip", "wrap"])
def test_take_from_an_empty_axis_into_an_empty_result(mode):
    """NumPy's clip gives the empty result (its wrap hangs there); gpunp
    raised IndexError for both (a host Hypothesis run, seed 9101)."""
    for shape in ((0, 2, 1, 0), (0, 0)):
        x = np.zeros(shape)
        got = gp.take(gp.asarray(x), gp.asarray([0]), axis=0, mode=mode)
        np.testing.assert_array_equal(host(got), np.take(x, [0], axis=0, mode="clip"),
                                      strict=True)
    with pytest.raises(IndexError):
        gp.take(gp.zeros((0, 3)), gp.asarray([0]), axis=0, mode=mode)


def test_take_out_and_scalar():
    x = np.arange(12.0).reshape(3, 4)
    g = gp.asarray(x)
    out = gp.empty((3, 2))
    r = gp.take(g, [0, 3], axis=1, out=out)
    assert r is out
    np.testing.assert_array_equal(out.get(), np.take(x, [0, 3], axis=1))
    assert gp.take(g, 5).get() == np.take(x, 5)
    with pytest.raises(IndexError):
        gp.take(g, 12)
        gp.cuda.Device().synchronize()  # a GPU reports it here
    with pytest.raises(ValueError):
        gp.take(g, 1, mode="bad")
    assert np.take(g, [1]).get().tolist() == [1.0]  # through __array_function__


# What NumPy converts to intp for take (arrays under 'same_kind') and put
# ('safe'); anything else as if assigned: floats and strings truncate or
# parse, ints past int64 overflow, where a wrapped uint64 would be a silent
# wrong index
_TAKE_PUT_INDICES = [
    [1.5], 1.5, np.float32(1), "1", ["1"], [None], None, [1 + 0j], [[1.5]], (1.5,), [],
    [[]], [True, 2], np.True_, np.uint64(2), [np.uint64(2**64 - 1)], 2**63, 2**64 - 1,
    2**64, -2**63 - 1, [0, 2**63], np.array(1.5), np.array([1.5]), np.array([], float),
    np.array([2**64 - 1], np.uint64), np.array([1], np.uint64), np.array([1], np.int8),
    np.array([True, False, True]), np.array(["1"]), np.array([1 + 0j]),
]


@pytest.mark.parametrize("device", [False, True])
@pytest.mark.parametrize("fn", ["take", "put"])
@pytest.mark.parametrize("indices", _TAKE_PUT_INDICES, ids=repr)
def test_take_put_convert_indices_as_numpy(indices, fn, device):
    if device and not (isinstance(indices, np.ndarray) and indices.dtype.kind in "biuf"):
        return  # no device array of that index
    x = np.arange(3.0)
    g = gp.asarray(x)
    i = gp.asarray(indices) if device else indices
    if fn == "take":
        got, want = same_outcome(lambda: np.take(x, indices), lambda: gp.take(g, i))
        if want is not None:
            np.testing.assert_array_equal(host(got), want)
    else:
        same_outcome(lambda: np.put(x, indices, 9.0), lambda: gp.put(g, i, 9.0))
        np.testing.assert_array_equal(host(g), x, strict=True)


def test_take_of_a_list_of_device_arrays():
    g = gp.arange(3.0)
    assert gp.take(g, [gp.asarray(1), 2]).get().tolist() == [1.0, 2.0]


@given(data=st.data())
def test_nonzero_family(data):
    dt = data.draw(dtypes(), label="dtype")
    shape = data.draw(shapes(min_dims=0), label="shape")
    g, x = data.draw(device_arrays(dt, shape), label="arrays")
    if x.ndim:
        got = gp.nonzero(g)
        want = np.nonzero(x)
        assert len(got) == len(want)
        for a, b in zip(got, want):
            np.testing.assert_array_equal(host(a), b, strict=True)
    else:
        same_outcome(lambda: np.nonzero(x), lambda: gp.nonzero(g))
    np.testing.assert_array_equal(host(gp.flatnonzero(g)), np.flatnonzero(x), strict=True)
    np.testing.assert_array_equal(host(gp.argwhere(g)), np.argwhere(x), strict=True)
    count = gp.count_nonzero(g)  # a 0-d array, as every full reduction
    assert isinstance(count, gp.ndarray) and count.shape == () and count.dtype == np.intp
    assert int(count) == np.count_nonzero(x)
    if x.ndim:
        axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
        keep = data.draw(st.booleans(), label="keepdims")
        np.testing.assert_array_equal(host(gp.count_nonzero(g, axis=axis, keepdims=keep)),
                                      np.count_nonzero(x, axis=axis, keepdims=keep),
                                      strict=True)


@given(data=st.data())
def test_where(data):
    shape = data.draw(shapes(max_dims=3), label="shape")
    c = data.draw(device_arrays(np.bool_, shape), label="cond")
    dx = data.draw(dtypes(), label="x dtype")
    dy = data.draw(dtypes(), label="y dtype")
    gx, hx = data.draw(device_arrays(dx, shape[data.draw(st.integers(0, len(shape))):]),
                       label="x")
    kind = data.draw(st.sampled_from(["scalar", "array", "list"]), label="y kind")
    if kind == "scalar":
        hy = gy = data.draw(st.one_of(st.integers(-100, 100), st.floats(-10, 10), st.booleans()),
                            label="y scalar")
    else:
        gy, hy = data.draw(device_arrays(dy, shape), label="y")
        if kind == "list":  # an array-like both take as NumPy makes it an array
            gy = hy = hy.tolist()
    got, want = same_outcome(lambda: np.where(c[1], hx, hy), lambda: gp.where(c[0], gx, gy))
    if want is not None:
        np.testing.assert_array_equal(host(got), want, strict=True)
    got, want = same_outcome(lambda: np.where(c[1]), lambda: gp.where(c[0]))
    if want is not None:
        assert len(got) == len(want)
        for a, b in zip(got, want):
            np.testing.assert_array_equal(host(a), b, strict=True)


@given(data=st.data())
def test_compress_extract(data):
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(min_dims=1), label="shape")),
                     label="arrays")
    axis = data.draw(st.one_of(st.none(), st.integers(0, x.ndim - 1)), label="axis")
    n = x.size if axis is None else x.shape[axis]
    cond = np.array(data.draw(st.lists(st.booleans(), min_size=0, max_size=n + 1)), bool)
    got, want = same_outcome(lambda: np.compress(cond, x, axis=axis),
                             lambda: gp.compress(cond, g, axis=axis))
    if want is not None:
        np.testing.assert_array_equal(host(got), want, strict=True)
    m = data.draw(device_arrays(np.bool_, x.shape), label="mask")
    np.testing.assert_array_equal(host(gp.extract(m[0], g)), np.extract(m[1], x), strict=True)


@given(data=st.data())
def test_take_put_along_axis(data):
    dt = data.draw(dtypes(), label="dtype")
    shape = data.draw(shapes(min_dims=1, max_dims=3, min_side=1), label="shape")
    g, x = data.draw(device_arrays(dt, shape), label="arrays")
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    ishape = list(shape)
    ishape[axis] = data.draw(st.integers(0, 4))
    n = shape[axis]
    idx = np.array(data.draw(st.lists(st.integers(-n, n - 1), min_size=int(np.prod(ishape)),
                                      max_size=int(np.prod(ishape)))), np.int64).reshape(ishape)
    np.testing.assert_array_equal(host(gp.take_along_axis(g, gp.asarray(idx), axis)),
                                  np.take_along_axis(x, idx, axis), strict=True)
    # put: distinct positions along the axis (NumPy's order decides duplicates)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    perm = np.argsort(rng.random(shape), axis=axis)
    uniq = np.take(perm, np.arange(data.draw(st.integers(0, n))), axis=axis)
    v = data.draw(device_arrays(dt, uniq.shape), label="values")
    y = x.copy()
    np.put_along_axis(y, uniq, v[1], axis)
    gp.put_along_axis(g, gp.asarray(uniq), v[0], axis)
    np.testing.assert_array_equal(g.get(), y, strict=True)


@given(data=st.data())
def test_put_place(data):
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(min_dims=1), label="shape")),
                     label="arrays")
    mode = data.draw(st.sampled_from(["raise", "wrap", "clip"]), label="mode")
    n = x.size
    ind = np.array(data.draw(st.lists(st.integers(-n - 2, n + 2), max_size=6)), np.int64)
    if mode == "raise" or not HOST:
        # distinct positions: which of two writes lands is NumPy's order
        ind = np.unique(ind % n) if n and len(ind) else ind[:0]
    vals = data.draw(numpy_values(dt, data.draw(st.integers(1, 4))), label="vals")
    y = x.copy()
    got, want = same_outcome(lambda: (np.put(y, ind, vals, mode=mode), y)[1],
                             lambda: (gp.put(g, gp.asarray(ind), vals, mode=mode), g)[1])
    if want is not None:
        np.testing.assert_array_equal(host(got), want, strict=True)
    m = data.draw(device_arrays(np.bool_, x.shape), label="mask")
    z = x.copy()
    gz = gp.asarray(z)
    got, want = same_outcome(lambda: (np.place(z, m[1], vals), z)[1],
                             lambda: (gp.place(gz, m[0], vals), gz)[1])
    if want is not None:
        np.testing.assert_array_equal(host(got), want, strict=True)


def numpy_values(dt, n):
    return st.lists(elements(dt, specials=False), min_size=n, max_size=n).map(
        lambda v: np.array(v, dtype=dt))


@given(data=st.data())
def test_select_choose(data):
    shape = data.draw(shapes(max_dims=2), label="shape")
    dt = data.draw(dtypes("iuf"), label="dtype")
    k = data.draw(st.integers(1, 3), label="choices")
    conds = [data.draw(device_arrays(np.bool_, shape), label="cond") for _ in range(k)]
    choices = [data.draw(device_arrays(dt, shape), label="choice") for _ in range(k)]
    # a choice may come as a list, which NumPy makes an array of (a list: not
    # of a 0-d array, a scalar; not an empty one, which loses the shape)
    lists = [c[1].ndim > 0 and c[1].size > 0 and data.draw(st.booleans(), label="as a list")
             for c in choices]
    got = gp.select([c[0] for c in conds],
                    [c[1].tolist() if li else c[0] for c, li in zip(choices, lists)], default=0)
    want = np.select([c[1] for c in conds],
                     [c[1].tolist() if li else c[1] for c, li in zip(choices, lists)], default=0)
    np.testing.assert_array_equal(host(got), want, strict=True)
    mode = data.draw(st.sampled_from(["raise", "wrap", "clip"]), label="mode")
    a = np.array(data.draw(st.lists(st.integers(-1, k), min_size=int(np.prod(shape)),
                                    max_size=int(np.prod(shape)))), np.int64).reshape(shape)
    got, want = same_outcome(lambda: np.choose(a, [c[1] for c in choices], mode=mode),
                             lambda: gp.choose(gp.asarray(a), [c[0] for c in choices],
                                               mode=mode))
    if want is not None:
        np.testing.assert_array_equal(host(got), want, strict=True)


@pytest.mark.parametrize("n", [1, 4095, 4096, 4097, 3 * 4096 + 17, (1 << 20) + 3])
@pytest.mark.parametrize("density", [0.0, 0.03, 0.5, 1.0])
def test_masks_across_tiles(n, density):
    """a[mask], nonzero and extract over masks of many of the engine's tiles
    (4096 elements: a count per tile, then each tile writes at its rank)."""
    rng = np.random.default_rng(n)
    h = rng.random((n,), dtype=np.float32)
    m = rng.random(n) < density
    g, gm = gp.asarray(h), gp.asarray(m)
    assert np.array_equal(g[gm].get(), h[m])
    assert np.array_equal(gp.nonzero(gm)[0].get(), np.nonzero(m)[0])
    assert np.array_equal(gp.extract(gm, g).get(), np.extract(m, h))
    h2 = rng.integers(0, 3, (n, 3)).astype(np.int16)
    g2 = gp.asarray(h2)
    assert np.array_equal(g2[g2 > 0].get(), h2[h2 > 0])
    assert np.array_equal(gp.argwhere(g2).get(), np.argwhere(h2))


@pytest.mark.parametrize("idx", [(slice(None), [0], Ellipsis, [0]), (slice(None), [0], [0]),
                                 (slice(None), [0], [0], Ellipsis), (Ellipsis, [0], [0]),
                                 (False, Ellipsis, [0]), (slice(None), False, [0]),
                                 ([1], None, [0]), (0, slice(None), [1]), ([0], 1)])
def test_index_dims_first_when_anything_separates_advanced_items(idx):
    """NumPy moves the index dims first when a slice, None or an Ellipsis
    (even one of no dims) lies between advanced items (a host Hypothesis find:
    a[None, False, ..., [0], [0]] of a (0, 0) array)."""
    x = np.arange(24.0).reshape(2, 3, 4)
    g = gp.asarray(x)
    assert_same(g[idx], x[idx])
    h = x.copy()
    h[idx] += 1.0
    g[idx] += 1.0
    assert_same(g, h)
