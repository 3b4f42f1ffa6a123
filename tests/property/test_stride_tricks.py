"""numpy.lib.stride_tricks against NumPy: sliding windows over any layout,
axes and window shapes (NumPy's errors too); as_strided views of a
contiguous array, read and written; the views that gpunp refuses where
NumPy would read outside the buffer or misaligned elements."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import event, given, strategies as st
from numpy.lib import stride_tricks as np_st

import gpunp as gp
from gpunp.lib import stride_tricks as gp_st

from .outcome import same_outcome
from .strategies import assert_same, device_arrays, dtypes, numpy_arrays, shapes


def _window_args(draw, shape):
    """A window shape and axis for `shape`: mostly a valid pair (an axis may
    repeat), sometimes a side too long or negative, an axis out of range, or
    a count that does not match."""
    nd = len(shape)
    bad = draw(st.integers(0, 3)) == 0
    if draw(st.booleans()):
        axis, axes = None, list(range(nd))
    else:
        axes = draw(st.lists(st.integers(-nd, nd - 1), min_size=1, max_size=3)) if nd else []
        if bad and draw(st.booleans()):
            axes = axes + [draw(st.sampled_from([nd, -nd - 1]))]
        axis = axes[0] if len(axes) == 1 and draw(st.booleans()) else tuple(axes)
    window = [draw(st.integers(0, shape[a] if -nd <= a < nd else 3)) for a in axes]
    if bad and window and draw(st.booleans()):
        k = draw(st.integers(0, len(window) - 1))
        window[k] = draw(st.sampled_from([-1, 7]))
    elif bad:
        window = window + [1] if draw(st.booleans()) else window[1:]
    window = tuple(window)
    if len(window) == 1 and draw(st.booleans()):
        window = window[0]
    return window, axis


@given(data=st.data())
def test_sliding_window_view_matches_numpy(data):
    dt = data.draw(dtypes(), label="dtype")
    shape = data.draw(shapes(max_dims=3), label="shape")
    g, x = data.draw(device_arrays(dt, shape), label="arrays")
    x = np.asarray(x)
    window, axis = _window_args(data.draw, shape)
    got, want = same_outcome(lambda: np_st.sliding_window_view(x, window, axis),
                             lambda: gp_st.sliding_window_view(g, window, axis))
    event("NumPy raised" if want is None else "a view")
    if want is None:
        return
    assert_same(got, want)
    assert not got.flags.writeable
    # NumPy's own function dispatches to gpunp's
    through = np_st.sliding_window_view(g, window, axis)
    assert isinstance(through, gp.ndarray)
    assert_same(through, want)


@given(data=st.data())
def test_as_strided_reads_and_writes_as_numpy(data):
    dt = np.dtype(data.draw(dtypes(), label="dtype"))
    x = data.draw(numpy_arrays(dt, (data.draw(st.integers(1, 40), label="n"),)), label="x")
    x = np.ascontiguousarray(x)
    g = gp.asarray(x)
    nd = data.draw(st.integers(0, 3), label="ndim")
    shape = tuple(data.draw(st.integers(0, 4)) for _ in range(nd))
    steps = tuple(data.draw(st.integers(0, 3)) for _ in range(nd))
    reach = sum((n - 1) * s for n, s in zip(shape, steps)) if all(shape) else 0
    start = data.draw(st.integers(0, max(0, x.size - 1 - reach)), label="start")
    strides = tuple(s * dt.itemsize for s in steps)
    if reach + start >= x.size:  # NumPy would read past the buffer
        with pytest.raises(ValueError, match="outside"):
            gp_st.as_strided(g[start:], shape, strides)
        return
    writeable = data.draw(st.booleans(), label="writeable")
    want = np_st.as_strided(x[start:], shape, strides, writeable=writeable)
    got = gp_st.as_strided(g[start:], shape, strides, writeable=writeable)
    assert_same(got, want)
    assert got.strides == want.strides and got.flags.writeable == want.flags.writeable
    if writeable and want.size:
        # one element written through the view lands where NumPy's does
        where = tuple(n - 1 for n in shape)
        value = x[0]
        want[where] = value
        got[where] = value
        assert_same(g, x)


def test_as_strided_defaults_and_errors():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)[:, ::2]
    g = gp.asarray(np.arange(12, dtype=np.float32).reshape(3, 4))[:, ::2]
    assert_same(gp_st.as_strided(g), np_st.as_strided(x))
    assert_same(gp_st.as_strided(g, shape=(2, 2)), np_st.as_strided(x, shape=(2, 2)))
    ro = gp_st.as_strided(g, writeable=False)
    assert not ro.flags.writeable
    # a view of a read-only array stays read-only, as NumPy's
    assert not gp_st.as_strided(ro).flags.writeable
    for shape, strides in [((2, 2), (8,)), ((2,), (8, 4))]:
        with pytest.raises(ValueError, match="mismatch in length"):
            np_st.as_strided(x, shape, strides)
        with pytest.raises(ValueError, match="mismatch in length"):
            gp_st.as_strided(g, shape, strides)
    # gpunp refuses what NumPy would read outside the buffer or misaligned
    a = gp.arange(10)
    for shape, strides in [((11,), (8,)), ((3,), (-8,)), ((2,), (2**62,))]:
        with pytest.raises(ValueError, match="outside"):
            gp_st.as_strided(a, shape, strides)
    with pytest.raises(ValueError, match="aligned"):
        gp_st.as_strided(a, (2,), (4,))
    # a misaligned stride of a length-1 axis is never used
    assert_same(gp_st.as_strided(a, (1, 2), (3, 8)), np.arange(2)[None])
    with pytest.raises(TypeError):
        gp_st.as_strided(a, (2.0,), (8,))
    with pytest.raises(TypeError):
        gp_st.as_strided(a, (True,), (8,))


def test_the_namespace_is_numpys():
    assert gp.lib.stride_tricks.sliding_window_view is gp_st.sliding_window_view
    public = sorted(n for n in dir(np_st) if not n.startswith("_"))
    assert sorted(gp_st.__all__) == public
