"""Property tests of joining arrays against NumPy: concatenate (any axis,
None, out=, dtype=, casting=), stack, vstack, hstack, dstack, column_stack,
and the shape helpers expand_dims and atleast_1d/2d/3d. Results must have
NumPy's values, dtype and shape; where NumPy raises, gpunp raises the same
kind of error."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp

from .outcome import same_outcome
from .strategies import assert_same, device_arrays, dtypes, shapes

CASTINGS = ["no", "equiv", "safe", "same_kind"]  # "unsafe" would cast NaN to ints


@st.composite
def pieces(draw, max_arrays=4, vary_axis=True):
    """Arrays (gpunp, NumPy) of one number of dimensions whose shapes agree
    except along one axis (and, now and then, where they must not)."""
    base = draw(shapes(1, 3, max_side=3), label="base shape")
    axis = draw(st.integers(0, len(base) - 1), label="varying axis")
    n = draw(st.integers(1, max_arrays), label="number of arrays")
    out = []
    for k in range(n):
        shape = list(base)
        if vary_axis:
            shape[axis] = draw(st.integers(0, 3), label=f"length {k}")
        if draw(st.integers(0, 9), label=f"mismatch {k}") == 0:
            d = draw(st.integers(0, len(base) - 1))
            shape[d] += 1
        dt = draw(dtypes(), label=f"dtype {k}")
        out.append(draw(device_arrays(dt, tuple(shape)), label=f"array {k}"))
    return out, axis


def _axis_choice(data, ndim, varying):
    return data.draw(st.one_of(st.just(varying), st.just(varying - ndim), st.none(),
                               st.integers(-ndim - 1, ndim)), label="axis")


@given(data=st.data())
def test_concatenate_matches_numpy(data):
    arrs, varying = data.draw(pieces())
    g, h = [a for a, _ in arrs], [b for _, b in arrs]
    axis = _axis_choice(data, h[0].ndim, varying)
    kw = {}
    if data.draw(st.booleans(), label="dtype="):
        kw["dtype"] = data.draw(dtypes(), label="dtype")
        kw["casting"] = data.draw(st.sampled_from(CASTINGS), label="casting")
    got, want = same_outcome(lambda: np.concatenate(h, axis=axis, **kw),
                             lambda: gp.concatenate(g, axis=axis, **kw))
    if want is not None:
        assert_same(got, want)


@given(data=st.data())
def test_concatenate_into_out(data):
    arrs, varying = data.draw(pieces(max_arrays=3))
    g, h = [a for a, _ in arrs], [b for _, b in arrs]
    want, _ = same_outcome(lambda: np.concatenate(h, axis=varying),
                           lambda: gp.concatenate(g, axis=varying))
    if want is None:
        return
    out_dt = data.draw(dtypes(), label="out dtype")
    shape = want.shape if data.draw(st.integers(0, 4)) else want.shape[:-1] + (want.shape[-1] + 1,)
    h_out, g_out = np.zeros(shape, out_dt), gp.zeros(shape, out_dt)
    got, ref = same_outcome(lambda: np.concatenate(h, axis=varying, out=h_out),
                            lambda: gp.concatenate(g, axis=varying, out=g_out))
    if ref is not None:
        assert got is g_out
        assert_same(g_out, h_out)


@given(data=st.data())
def test_stack_matches_numpy(data):
    arrs, _ = data.draw(pieces(vary_axis=False))
    g, h = [a for a, _ in arrs], [b for _, b in arrs]
    nd = h[0].ndim + 1
    axis = data.draw(st.integers(-nd - 1, nd), label="axis")
    got, want = same_outcome(lambda: np.stack(h, axis=axis), lambda: gp.stack(g, axis=axis))
    if want is not None:
        assert_same(got, want)


@pytest.mark.parametrize("name", ["vstack", "hstack", "dstack", "column_stack"])
@given(data=st.data())
def test_stacking_helpers_match_numpy(name, data):
    shape = data.draw(shapes(0, 3, max_side=3), label="shape")
    n = data.draw(st.integers(1, 3), label="number of arrays")
    arrs = [data.draw(device_arrays(data.draw(dtypes()), shape)) for _ in range(n)]
    g, h = [a for a, _ in arrs], [b for _, b in arrs]
    got, want = same_outcome(lambda: getattr(np, name)(h), lambda: getattr(gp, name)(g))
    if want is not None:
        assert_same(got, want)


@pytest.mark.parametrize("name", ["atleast_1d", "atleast_2d", "atleast_3d"])
@given(data=st.data())
def test_atleast_matches_numpy(name, data):
    n = data.draw(st.integers(1, 3), label="number of arrays")
    arrs = [data.draw(device_arrays(data.draw(dtypes()), data.draw(shapes(0, 4, max_side=3))))
            for _ in range(n)]
    got = getattr(gp, name)(*[a for a, _ in arrs])
    want = getattr(np, name)(*[b for _, b in arrs])
    if n == 1:
        got, want = (got,), (want,)
    assert len(got) == len(want)
    for x, y in zip(got, want):
        assert_same(x, y)


@given(data=st.data())
def test_expand_dims_matches_numpy(data):
    dt = data.draw(dtypes(), label="dtype")
    g, h = data.draw(device_arrays(dt, data.draw(shapes(0, 3, max_side=3))), label="array")
    nd = h.ndim + 2
    axis = data.draw(st.one_of(st.integers(-nd - 1, nd),
                               st.tuples(st.integers(-nd, nd - 1), st.integers(-nd, nd - 1))),
                     label="axis")
    got, want = same_outcome(lambda: np.expand_dims(h, axis), lambda: gp.expand_dims(g, axis))
    if want is not None:
        assert_same(got, want)


def test_joining_errors_and_dispatch():
    a = gp.zeros((2, 3))
    with pytest.raises(ValueError):
        gp.concatenate([])
    with pytest.raises(ValueError):
        gp.concatenate([gp.zeros(()), gp.zeros(())])
    with pytest.raises(TypeError):
        gp.concatenate([a, a], out=gp.zeros((4, 3)), dtype=np.float32)
    with pytest.raises(ValueError):
        gp.stack([])
    with pytest.raises(TypeError):
        gp.concatenate(5)
    # NumPy's functions on gpunp arrays run gpunp's (NEP 18)
    r = np.concatenate([a, gp.ones((1, 3))])
    assert isinstance(r, gp.ndarray) and r.shape == (3, 3)
    assert isinstance(np.stack([a, a]), gp.ndarray)
    # a gpunp array is a sequence of its rows
    assert gp.concatenate(gp.asarray(np.arange(6).reshape(2, 3))).tolist() == list(range(6))


@pytest.mark.parametrize("name", ["concatenate", "stack", "vstack", "hstack", "dstack",
                                  "column_stack"])
def test_joining_refuses_a_generator(name):
    """NumPy takes the arrays as a sequence, never as an iterator."""
    x = np.arange(3)
    g = gp.asarray(x)
    same_outcome(lambda: getattr(np, name)(a for a in [x, x]),
                 lambda: getattr(gp, name)(a for a in [g, g]))
    assert_same(getattr(gp, name)([g, g]), getattr(np, name)([x, x]))
