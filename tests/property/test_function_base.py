"""sinc, unwrap, trapezoid, the windows, sort_complex, numpy.cross,
asanyarray, asarray_chkfinite, require, may_share_memory and vectorize
against NumPy:
random shapes and layouts, every dtype each takes, NaN and infinities,
NumPy's errors."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp

from .outcome import quiet, quieted, same_outcome
from .strategies import assert_same, bounded_values, device_arrays, dtypes, shapes, tolerance


def _close(got, want, scale=1.0):
    want = np.asarray(want)
    tol = tolerance(want.dtype) * 20 if want.dtype.kind in "fc" else None
    assert_same(got, want, rtol=tol, atol=0.0 if tol is None else tol * scale)


@given(data=st.data())
def test_sinc_matches_numpy(data):
    dt = data.draw(dtypes("biufc"), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(0, 3), label="shape")), label="arrays")
    got, want = same_outcome(quieted(lambda: np.sinc(x)), quieted(lambda: gp.sinc(g)))
    if want is not None:
        # sinc(0) is 1; NumPy 2.2 gave float16's NaN there (its stand-in for
        # 0, 1e-20, is 0 in float16), later releases 1 (docs/differences.md)
        _close(got, np.where((x == 0) & np.isnan(want), want.dtype.type(1), want))


@given(data=st.data())
def test_unwrap_matches_numpy(data):
    dt = data.draw(dtypes("iuf"), label="dtype")
    shape = data.draw(shapes(1, 3, min_side=1), label="shape")
    g, x = data.draw(device_arrays(dt, shape, values=bounded_values(dt, 50.0)), label="arrays")
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    kw = {}
    if data.draw(st.booleans(), label="period?"):
        kw["period"] = data.draw(st.sampled_from([6, 7, 2 * math.pi, 360.0]), label="period")
    if data.draw(st.booleans(), label="discont?"):
        kw["discont"] = data.draw(st.sampled_from([1.0, 4, 1000.0]), label="discont")
    got, want = same_outcome(quieted(lambda: np.unwrap(x, axis=axis, **kw)),
                             quieted(lambda: gp.unwrap(g, axis=axis, **kw)))
    if want is not None:
        _close(got, want, scale=float(np.max(np.abs(want), initial=1.0)) * 4)


@given(data=st.data())
def test_trapezoid_matches_numpy(data):
    dt = data.draw(dtypes("biufc"), label="dtype")
    shape = data.draw(shapes(1, 3), label="shape")
    g, y = data.draw(device_arrays(dt, shape, values=bounded_values(dt)), label="arrays")
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    kw = {"axis": axis}
    how = data.draw(st.sampled_from(["dx", "x1", "xnd", "none"]), label="spacing")
    gkw = dict(kw)
    if how == "dx":
        kw["dx"] = gkw["dx"] = data.draw(st.sampled_from([0.5, 2, -1.0]), label="dx")
    elif how == "x1":
        xs = np.cumsum(np.arange(1.0, shape[axis] + 1))
        kw["x"], gkw["x"] = xs, gp.asarray(xs)
    elif how == "xnd":
        xs = np.cumsum(np.ones(shape), axis=axis)
        kw["x"], gkw["x"] = xs, gp.asarray(xs)
    got, want = same_outcome(quieted(lambda: np.trapezoid(y, **kw)),
                             quieted(lambda: gp.trapezoid(g, **gkw)))
    if want is not None:
        scale = float(np.sum(np.abs(y.astype(np.complex128)))) * 4 + 1
        _close(got, want, scale)


@pytest.mark.parametrize("y", [-1, 2.5, [1.0, 2.0, 4.0]])
@pytest.mark.parametrize("x", [None, -1, [1.0, 3.0], [1.0, 2.0, 5.0], [[1.0, 2.0, 5.0]]])
@pytest.mark.parametrize("axis", [-1, 0])
def test_trapezoid_of_0d_samples_matches_numpy(y, x, axis):
    """NumPy takes the spacing before y's axis: a 0-d x is diff's ValueError
    even where a 0-d y would be an IndexError."""
    got, want = same_outcome(quieted(lambda: np.trapezoid(y, x, axis=axis)),
                             quieted(lambda: gp.trapezoid(y, x, axis=axis)))
    if want is not None:
        _close(got, want)


@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
@pytest.mark.parametrize("M", [-2, 0, 1, 2, 3, 8, 51, np.int32(6), 5.0])
def test_windows_match_numpy(name, M):
    _close(getattr(gp, name)(M), getattr(np, name)(M))


@given(data=st.data())
def test_sort_complex_matches_numpy(data):
    dt = data.draw(dtypes("iufc"), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(0, 2), label="shape")), label="arrays")
    got, want = same_outcome(lambda: np.sort_complex(x), lambda: gp.sort_complex(g))
    if want is not None:
        assert_same(got, want)


@given(data=st.data())
def test_cross_matches_numpy(data):
    dt = data.draw(dtypes("iufc"), label="dtype")
    dims = data.draw(st.sampled_from([(3, 3), (3, 3), (2, 3), (3, 4)]), label="vector sizes")
    lead = data.draw(shapes(0, 2, max_side=3), label="batch")
    ga, a = data.draw(device_arrays(dt, lead + (dims[0],), values=bounded_values(dt, 20.0)),
                      label="a")
    gb, b = data.draw(device_arrays(dt, (dims[1],), values=bounded_values(dt, 20.0)), label="b")
    kw = data.draw(st.sampled_from([{}, {"axisc": 0}, {"axis": -1}, {"axisa": -1, "axisb": 0},
                                    {"axisa": 5}]), label="axes")
    got, want = same_outcome(quieted(lambda: np.cross(a, b, **kw)),
                             quieted(lambda: gp.cross(ga, gb, **kw)))
    if want is not None:
        _close(got, want, scale=1e3)


@pytest.mark.parametrize("sizes", [(4, 3), (3, 4), (2, 3), (2, 2)])
def test_cross_refuses_as_the_running_numpy_does(sizes):
    """The vectors' lengths NumPy refuses, with NumPy's message: 2 or 3
    before NumPy 2.5, 3 from it (2-vectors, deprecated in NumPy 2, are gone
    there; gpunp refuses them under every NumPy)."""
    a, b = np.ones(sizes[0]), np.ones(sizes[1])
    with quiet():
        warnings.simplefilter("error", DeprecationWarning)
        try:
            np.cross(a, b)
        except DeprecationWarning:
            with pytest.raises(ValueError, match="2-dimensional vectors are not supported"):
                gp.cross(gp.asarray(a), gp.asarray(b))
            return
        except ValueError as e:
            want = str(e)
    with pytest.raises(ValueError) as got:
        gp.cross(gp.asarray(a), gp.asarray(b))
    assert str(got.value) == want


def test_conversions():
    x = np.array([1.0, np.nan])
    g = gp.asarray(x)
    assert gp.asanyarray(g) is g
    assert_same(gp.asanyarray([1, 2], dtype=np.int8), np.asanyarray([1, 2], dtype=np.int8))
    with pytest.raises(ValueError):
        gp.asarray_chkfinite(g)
    with pytest.raises(ValueError):
        np.asarray_chkfinite(x)
    assert_same(gp.asarray_chkfinite([1, 2]), np.asarray_chkfinite([1, 2]))
    t = gp.ones((2, 3)).T
    r = gp.require(t, np.float32, ["C", "O"])
    assert r.flags.c_contiguous and r.flags.owndata and r.dtype == np.float32
    assert gp.require(t, requirements="F") is t
    assert gp.require(t[::2], requirements=["W", "O"]).flags.owndata
    with pytest.raises(ValueError):
        gp.require(t, requirements="CF")
    with pytest.raises(KeyError):
        gp.require(t, requirements="Q")


def test_may_share_memory():
    a = gp.arange(10.0)
    assert np.may_share_memory(a, a[::-1]) and gp.may_share_memory(a[2:5], a[4:])
    assert not gp.may_share_memory(a[:3], a[3:]) and not gp.may_share_memory(a, gp.arange(10.0))
    assert not gp.may_share_memory(a[:0], a) and not gp.may_share_memory(a, np.arange(3))
    m = gp.arange(12.0).reshape(3, 4)
    assert gp.may_share_memory(m[:, 0], m[:, 3]) and not gp.may_share_memory(m[0], m[1])


@given(data=st.data())
def test_shares_memory_matches_numpy_on_twin_views(data):
    """Two strided views of one array: gpunp's answer from device addresses
    is NumPy's on the same views of a host array."""
    n = data.draw(st.integers(1, 30), label="n")
    x = np.arange(n, dtype=np.float64)
    g = gp.asarray(x)
    views = []
    for label in ("a", "b"):
        start = data.draw(st.integers(0, n - 1), label=f"{label} start")
        step = data.draw(st.sampled_from([1, 2, 3, -1, -2]), label=f"{label} step")
        views.append((slice(start, None, step) if step > 0 else slice(start, None, step)))
    ga, gb = g[views[0]], g[views[1]]
    ha, hb = x[views[0]], x[views[1]]
    assert gp.shares_memory(ga, gb) == np.shares_memory(ha, hb)
    assert np.shares_memory(ga, gb) == np.shares_memory(ha, hb)  # routed to gpunp
    assert gp.may_share_memory(ga, gb) == np.may_share_memory(ha, hb)
    assert not gp.shares_memory(ga, gp.asarray(ha))


def test_broadcast_object_and_row_stack():
    a, b = np.ones((2, 1)), np.arange(3)
    want = np.broadcast(a, b)
    got = gp.broadcast(gp.asarray(a), gp.asarray(b))
    assert (got.shape, got.nd, got.ndim, got.size, got.numiter) == \
        (want.shape, want.nd, want.ndim, want.size, want.numiter)
    assert list(got) == list(want) and got.index == want.index
    got.reset()
    assert got.index == 0 and next(got) == (1.0, 0)
    with pytest.raises(ValueError):
        gp.broadcast(gp.ones((2, 3)), gp.ones(4))
    with pytest.warns(DeprecationWarning):
        r = gp.row_stack([gp.arange(2), gp.arange(2)])
    assert_same(r, np.vstack([np.arange(2), np.arange(2)]))
    assert issubclass(gp.str_, gp.character) and gp.datetime64 is np.datetime64
    with pytest.raises(TypeError):
        gp.zeros(2, gp.str_)


# ---- vectorize ---------------------------------------------------------------------------

VECTORIZED = {
    "affine": (lambda x: x * 2 + 1, {}),
    "float result": (lambda x: float(x) / 3 if x == x else 0.0, {}),
    "otypes": (lambda x: x, {"otypes": [np.float32]}),
    "two results": (lambda x: (x, x * 0), {}),
    "signature": (lambda v: v.sum(), {"signature": "(n)->()"}),
}


@pytest.mark.parametrize("name", VECTORIZED)
@given(data=st.data())
def test_vectorize_matches_numpy(name, data):
    fn, kw = VECTORIZED[name]
    dt = data.draw(dtypes("iuf"), label="dtype")
    shape = data.draw(shapes(1 if "signature" in kw else 0, 3), label="shape")
    g, x = data.draw(device_arrays(dt, shape), label="arrays")
    got, want = same_outcome(quieted(lambda: np.vectorize(fn, **kw)(x)),
                             quieted(lambda: gp.vectorize(fn, **kw)(g)))
    if want is None:
        return
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for a, b in zip(got, want):
            assert_same(a, np.asarray(b))
    else:
        assert_same(got, np.asarray(want))


def test_vectorize_broadcasts_excludes_and_decorates():
    a, b = np.arange(6.0).reshape(2, 3), np.array([10.0, 20.0, 30.0])
    want = np.vectorize(lambda x, y, s: x * s + y, excluded={"s"})(a, b, s=2)
    got = gp.vectorize(lambda x, y, s: x * s + y, excluded={"s"})(gp.asarray(a), gp.asarray(b), s=2)
    assert isinstance(got, gp.ndarray)
    assert_same(got, want)

    @gp.vectorize(otypes=[np.int64])
    def half(x):
        return x // 2
    assert_same(half(gp.arange(5)), np.arange(5) // 2)
    assert half.otypes == np.vectorize(lambda x: x, otypes=[np.int64]).otypes
    with pytest.raises(TypeError):
        gp.vectorize(lambda x: "text")(gp.arange(3))
