"""Property tests of ndarray.flat against NumPy: reads with integers,
slices, `...`, integer arrays and boolean masks of the flattened array on
every layout; writes through them with values repeated cyclically (the
array itself changes, views and all); `a.flat = v`; len, iteration, copy,
base; NumPy's IndexError."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp

from .outcome import host, same_outcome
from .strategies import assert_same, device_arrays, dtypes, shapes


def _pair(data):
    dt = data.draw(dtypes(), label="dtype")
    g, h = data.draw(device_arrays(dt, data.draw(shapes(0, 3), label="shape")), label="array")
    return g, np.asarray(h)


def _keys(n, unique=False):
    """Keys of a flattened array of n elements: an int (rarely out of
    bounds), a slice, `...`, an int list or array (2-d too), a boolean mask;
    and what NumPy's flat refuses: a mask of another size or of 2
    dimensions, None. (A bool alone and a list of bools are
    test_flat_refuses_bools'.)"""
    ints = st.integers(-n, n - 1) if n else st.nothing()
    some = st.lists(ints, max_size=6, unique_by=(lambda i: i % n) if unique else None) if n \
        else st.just([])
    return st.one_of(
        ints, st.sampled_from([n, -n - 1]),
        st.builds(slice, st.integers(-n - 2, n + 2) | st.none(),
                  st.integers(-n - 2, n + 2) | st.none(),
                  st.sampled_from([None, 1, 2, -1, -3])),
        st.just(Ellipsis),
        some, some.map(lambda v: np.array(v, dtype=np.int64)),
        some.map(lambda v: np.array(v, dtype=np.int64).reshape(-1, 1)),
        st.lists(st.booleans(), min_size=n, max_size=n).map(lambda v: np.array(v, dtype=bool)),
        st.sampled_from([None, (), (None,), np.ones(n + 1, bool), np.ones((1, n), bool)]))


@given(data=st.data())
def test_flat_reads_match_numpy(data):
    g, h = _pair(data)
    key = data.draw(_keys(h.size), label="key")
    got, want = same_outcome(lambda: h.flat[key], lambda: g.flat[key])
    if want is not None:
        assert_same(got, np.asarray(want))
    assert len(g.flat) == h.size and g.flat.base is g
    assert_same(g.flat.copy(), h.flat.copy())
    first = [host(x) for x in itertools.islice(g.flat, 8)]
    if first:
        assert_same(np.stack(first), np.array(list(itertools.islice(h.flat, 8)), dtype=h.dtype))


@given(data=st.data())
def test_flat_writes_match_numpy(data):
    g, h = _pair(data)
    key = data.draw(_keys(h.size, unique=True), label="key")
    m = data.draw(st.integers(1, 4), label="values")
    _, v = data.draw(device_arrays(h.dtype, (m,), layouts=False), label="values")
    v = np.asarray(v)

    def numpy_write():
        if type(key) is tuple and not key and np.lib.NumpyVersion(np.__version__) < "2.4.0":
            # NumPy before 2.4 crashes (a segmentation fault); 2.4 raises
            raise IndexError("Assigning to a flat iterator with a 0-D index is not supported")
        h.flat[key] = v

    def gpunp_write():
        g.flat[key] = gp.asarray(v)
    same_outcome(numpy_write, gpunp_write)
    assert_same(g, h)


@given(data=st.data())
def test_flat_stops_at_the_first_bad_index_as_numpy(data):
    """NumPy's flat assignment writes its positions in order up to the first
    out-of-bounds index and raises there; reads raise too; both say so in
    NumPy's words."""
    g, h = _pair(data)
    n = h.size
    ins = st.integers(-n, n - 1) if n else st.nothing()
    outs = st.sampled_from([n, n + 7, -n - 1, -n - 9])
    key = data.draw(st.lists(ins | outs, min_size=1, max_size=6).filter(
        lambda v: any(not -n <= i < n for i in v)), label="key")
    # unique positions: which write lands last at a repeated one is NumPy's order
    key = [i for j, i in enumerate(key) if all((i - k) % max(n, 1) for k in key[:j]) or
           not -n <= i < n]
    shaped = np.array(key, dtype=np.int64).reshape(-1, 1) if data.draw(st.booleans()) else key
    _, v = data.draw(device_arrays(h.dtype, (data.draw(st.integers(1, 4)),), layouts=False))
    v = np.asarray(v)
    with pytest.raises(IndexError) as want:
        h.flat[shaped] = v
    with pytest.raises(IndexError) as got:
        g.flat[gp.asarray(shaped)] = gp.asarray(v)
    assert str(got.value) == str(want.value)
    assert_same(g, h)
    with pytest.raises(IndexError) as want:
        h.flat[shaped]
    with pytest.raises(IndexError) as got:
        g.flat[shaped]
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("key", [True, False, np.True_, (True,), np.array(True),
                                 [True, False, True]], ids=repr)
def test_flat_refuses_bools(key):
    """NumPy 2.4 refuses np.bool_ and a list of bools as flat iterator keys
    and deprecates a Python bool; which it accepts varies with its version,
    so gpunp refuses all of them (docs/differences.md)."""
    g = gp.arange(3.0)
    with pytest.raises(IndexError):
        g.flat[key]
    with pytest.raises(IndexError):
        g.flat[key] = 1.0
    assert_same(g, np.arange(3.0))


@given(data=st.data())
def test_flat_assignment_fills_in_c_order(data):
    g, h = _pair(data)
    _, v = data.draw(device_arrays(h.dtype, (data.draw(st.integers(1, 5)),), layouts=False))
    h.flat = np.asarray(v)
    g.flat = gp.asarray(np.asarray(v))
    assert_same(g, h)


def test_flat_is_numpys_flatiter_name():
    a = gp.arange(6).reshape(2, 3)
    assert isinstance(a.flat, gp.flatiter)
    try:
        a.flat[1, 2]
    except IndexError as e:
        assert "too many indices for flat iterator" in str(e)
    else:
        raise AssertionError("no IndexError")
