"""Property tests of diff, ediff1d and gradient against NumPy: every dtype,
NaN/inf, random shapes, layouts and axes, prepend/append, to_begin/to_end,
spacing as scalars or coordinate arrays, edge_order 1 and 2, NumPy's errors.
A difference is one rounding (exact comparison for exact dtypes); gradient
combines three terms, compared within a few ulps of the largest."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp

from .outcome import same_outcome
from .strategies import assert_same, bounded_values, device_arrays, dtypes, shapes


def _bounded(dt):
    if np.dtype(dt).kind in "biu":
        return None  # integers: any value
    return bounded_values(dt, 1e3, [np.nan, np.inf, -np.inf, 0.0, -0.0])


@given(data=st.data())
def test_diff_matches_numpy(data):
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(0, 3), label="shape")), label="a")
    kw = {"n": data.draw(st.integers(-1, 3), label="n"),
          "axis": data.draw(st.integers(-x.ndim - 1, max(x.ndim, 1)), label="axis")}
    gkw, nkw = dict(kw), dict(kw)
    for name in ("prepend", "append"):
        how = data.draw(st.sampled_from(["none", "scalar", "array"]), label=name)
        if how == "scalar":
            gkw[name] = nkw[name] = data.draw(st.integers(-3, 3), label=name + " value")
        elif how == "array" and x.ndim:
            shape = list(x.shape)
            shape[kw["axis"] % x.ndim if -x.ndim <= kw["axis"] < x.ndim else 0] = \
                data.draw(st.integers(0, 2), label=name + " length")
            gkw[name], nkw[name] = data.draw(device_arrays(dt, tuple(shape)), label=name + "=")
    got, want = same_outcome(lambda: np.diff(x, **nkw), lambda: gp.diff(g, **gkw))
    if want is not None:
        assert_same(got, want, rtol=0.0)


@given(data=st.data())
def test_ediff1d_matches_numpy(data):
    dt = data.draw(dtypes("iufc"), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(0, 2), label="shape")), label="a")
    kw = {}
    for name in ("to_begin", "to_end"):
        if data.draw(st.booleans(), label=name):
            kw[name] = data.draw(st.one_of(st.integers(-3, 3), st.lists(st.integers(-3, 3),
                                                                        max_size=3),
                                           st.floats(-2, 2)), label=name + "=")
    got, want = same_outcome(lambda: np.ediff1d(x, **kw), lambda: gp.ediff1d(g, **kw))
    if want is not None:
        assert_same(got, want, rtol=0.0)


@given(data=st.data())
def test_gradient_matches_numpy(data):
    dt = data.draw(dtypes("iuf"), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(1, 3, min_side=1), label="shape"),
                                   values=_bounded(dt)), label="f")
    edge = data.draw(st.integers(1, 3), label="edge_order")
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)), label="axis")
    axes = list(range(x.ndim)) if axis is None else [axis % x.ndim]
    how = data.draw(st.sampled_from(["none", "scalar", "per axis"]), label="spacing")
    args, gargs = [], []
    if how == "scalar":
        h = data.draw(st.floats(0.1, 10), label="h")
        args, gargs = [h], [h]
    elif how == "per axis":
        for ax in axes:
            if data.draw(st.booleans(), label="coordinates"):
                c = np.cumsum(data.draw(st.lists(st.sampled_from([0.5, 1.0, 2.0, 3.0]),
                                                 min_size=x.shape[ax], max_size=x.shape[ax]),
                                        label="steps"))
                args.append(c)
                gargs.append(gp.asarray(c))
            else:
                h = data.draw(st.integers(1, 4), label="h")
                args.append(h)
                gargs.append(h)
    got, want = same_outcome(lambda: np.gradient(x, *args, axis=axis, edge_order=edge),
                             lambda: gp.gradient(g, *gargs, axis=axis, edge_order=edge))
    if want is None:
        return
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, (tuple, list)) else (want,)
    assert len(got) == len(want)
    for a, b in zip(got, want):
        b = np.asarray(b)
        eps = float(np.finfo(b.dtype).eps)
        h = np.abs(np.asarray(x, np.float64))
        top = float(h[np.isfinite(h)].max()) if np.isfinite(h).any() else 0.0
        assert_same(a, b, rtol=16 * eps, atol=64 * eps * top)


def test_diff_stops_once_the_axis_is_empty(monkeypatch):
    # NumPy takes all n differences (for ever, for n = 2**62); past the
    # axis' length they are all empty and of the same dtype
    from gpunp._ufunc import UFUNCS
    calls = []

    def counted(name):
        op = UFUNCS[name]

        def run(*args, **kwargs):
            calls.append(name)
            assert len(calls) <= 10, "diff went on past the empty axis"
            return op(*args, **kwargs)
        return run

    for name in ("subtract", "not_equal"):
        monkeypatch.setitem(UFUNCS, name, counted(name))
    h = np.arange(6.0).reshape(2, 3)
    assert_same(gp.diff(gp.asarray(h), n=2**62, axis=1), np.diff(h, n=5, axis=1))
    b = np.array([[True, False]])
    assert_same(gp.diff(gp.asarray(b), n=10**9), np.diff(b, n=4))
    e = np.zeros((2, 0), np.int8)
    assert_same(gp.diff(gp.asarray(e), n=2**40), np.diff(e, n=3))
    assert len(calls) == 3 + 2 + 1


def test_diff_errors():
    with pytest.raises(ValueError):
        gp.diff(gp.asarray(np.float64(1.0)))
    with pytest.raises(ValueError):
        gp.diff(gp.asarray(np.arange(3.0)), n=-1)
    with pytest.raises(ValueError):
        gp.gradient(gp.asarray(np.arange(2.0)), edge_order=2)
    assert isinstance(np.diff(gp.asarray(np.arange(3))), gp.ndarray)
