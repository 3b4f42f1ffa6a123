"""Reductions with where= against NumPy: sum, prod, max, min, any, all,
mean, var and std (functions and methods) and ufunc.reduce, with masks that
broadcast to the input (fewer axes, axes of length one, Python scalars and
lists), initial=, dtype=, keepdims, NumPy's errors (a reduction without an
identity needs initial=, a mask must be bool and must not have more axes)
and its warnings for slices the mask empties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import gpunp as gp

from .outcome import quieted, same_outcome
from .strategies import assert_same, bounded_values, device_arrays, dtypes, shapes, tolerance

EXACT = ["max", "min", "any", "all"]
SUMS = ["sum", "prod", "mean", "var", "std"]


def _axis(data, ndim):
    return data.draw(st.one_of(
        st.none(), st.integers(-ndim, max(ndim - 1, 0)),
        st.lists(st.integers(-ndim, max(ndim - 1, 0)), max_size=ndim, unique=True).map(tuple)),
        label="axis")


@st.composite
def masks(draw, shape):
    """(gpunp where=, NumPy where=): a bool array broadcasting to `shape`, or
    a Python bool, or a list."""
    kind = draw(st.integers(0, 5))
    if kind == 0:
        b = draw(st.booleans())
        return b, b
    ndim = draw(st.integers(0, len(shape)))
    sub = tuple(1 if draw(st.integers(0, 3)) == 0 else n for n in shape[len(shape) - ndim:])
    m = draw(hnp.arrays(np.bool_, sub))
    if kind == 1:
        return m.tolist(), m.tolist()
    return gp.asarray(m), m


def _values(data, dt, shape, name):
    bound = 2.0 if name == "prod" else 100.0
    return data.draw(device_arrays(dt, shape, finite=True,
                                   values=bounded_values(dt, bound)), label="arrays")


def _compare(got, want, name, x, mask):
    if name in EXACT:
        assert_same(got, want)
        return
    want = np.asarray(want)
    kept = np.abs(np.where(np.broadcast_to(mask, x.shape), x, 0).astype(np.complex128))
    scale = float(np.sum(kept)) if kept.size else 0.0
    if name == "prod":
        scale = float(np.prod(np.maximum(kept, 1.0))) if kept.size else 1.0
    elif name == "var":
        scale = float(np.max(kept)) ** 2 if kept.size else 0.0
    elif name in ("mean", "std"):
        scale = float(np.max(kept)) if kept.size else 0.0
    tol = tolerance(want.dtype) * 20
    assert_same(got, want, rtol=tol, atol=tol * max(scale, 1.0))


@pytest.mark.parametrize("name", EXACT + SUMS)
@pytest.mark.parametrize("how", ["function", "method"])
@given(data=st.data())
def test_where_matches_numpy(name, how, data):
    dt = data.draw(dtypes(), label="dtype")
    shape = data.draw(shapes(0, 3), label="shape")
    g, x = _values(data, dt, shape, name)
    gw, nw = data.draw(masks(shape), label="where")
    kw = {"axis": _axis(data, x.ndim), "keepdims": data.draw(st.booleans(), label="keepdims")}
    if name in ("sum", "prod", "max", "min") and data.draw(st.integers(0, 3), label="initial?"):
        # max and min need it (no identity); NumPy raises without
        kw["initial"] = data.draw(st.integers(-3, 3), label="initial")
    if name in ("var", "std") and data.draw(st.booleans(), label="ddof?"):
        kw["ddof"] = data.draw(st.integers(0, 2), label="ddof")
    if name in ("sum", "prod", "mean") and dt.kind in "fc" and data.draw(st.booleans()):
        kw["dtype"] = np.complex128 if dt.kind == "c" else np.float64
    if how == "function":
        call_np = lambda: getattr(np, name)(x, where=nw, **kw)  # noqa: E731
        call_gp = lambda: getattr(gp, name)(g, where=gw, **kw)  # noqa: E731
    else:
        call_np = lambda: getattr(x, name)(where=nw, **kw)  # noqa: E731
        call_gp = lambda: getattr(g, name)(where=gw, **kw)  # noqa: E731
    got, want = same_outcome(quieted(call_np), quieted(call_gp))
    if want is not None:
        _compare(got, want, name, x, np.asarray(nw))


UFUNCS = ["add", "multiply", "maximum", "minimum", "fmax", "logical_and", "logical_or",
          "bitwise_or", "logaddexp"]


@pytest.mark.parametrize("name", UFUNCS)
@given(data=st.data())
def test_ufunc_reduce_where(name, data):
    ufunc = getattr(np, name)
    kinds = "bui" if name.startswith("bitwise") else "biuf" if name != "logaddexp" else "iuf"
    dt = data.draw(dtypes(kinds), label="dtype")
    shape = data.draw(shapes(0, 3), label="shape")
    g, x = _values(data, dt, shape, "prod" if name == "multiply" else name)
    gw, nw = data.draw(masks(shape), label="where")
    kw = {"axis": data.draw(st.one_of(st.none(), st.integers(-max(x.ndim, 1),
                                                             max(x.ndim - 1, 0))),
                            label="axis")}
    if data.draw(st.booleans(), label="initial?"):
        kw["initial"] = data.draw(st.integers(0, 3), label="initial")
    got, want = same_outcome(quieted(lambda: ufunc.reduce(x, where=nw, **kw)),
                             quieted(lambda: getattr(gp, name).reduce(g, where=gw, **kw)))
    if want is not None:
        _compare(got, want, "sum" if name in ("add", "logaddexp") else
                 "prod" if name == "multiply" else "max", x, np.asarray(nw))


def test_where_errors_as_numpy():
    g = gp.arange(6.0).reshape(2, 3)
    with pytest.raises(ValueError, match="does not have an identity"):
        gp.max(g, where=[True, False, True])
    with pytest.raises(TypeError, match="Cannot cast"):
        gp.sum(g, where=gp.asarray([1, 0, 1]))
    with pytest.raises(ValueError, match="more dimensions"):
        gp.sum(g, where=gp.ones((2, 2, 3), bool))
    with pytest.raises(ValueError):
        gp.sum(g, where=gp.ones((3, 3), bool))  # does not broadcast
    with pytest.raises(TypeError, match="implicitly"):
        gp.sum(g, where=np.ones(3, bool))


def test_where_warns_for_an_emptied_slice():
    g = gp.arange(6.0).reshape(2, 3)
    m = gp.asarray([[True, False, True], [False, False, True]])
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        r = gp.mean(g, axis=0, where=m)
    x = np.arange(6.0).reshape(2, 3)
    with np.errstate(invalid="ignore"), pytest.warns(RuntimeWarning):
        want = np.mean(x, axis=0, where=m.get())
    assert_same(r, want)
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        gp.var(g, axis=0, where=m, ddof=1)


def test_var_takes_a_given_mean():
    x = np.arange(12.0).reshape(3, 4) ** 1.5
    m = np.mean(x, axis=1, keepdims=True)
    got = gp.var(gp.asarray(x), axis=1, mean=gp.asarray(m))
    assert_same(got, np.var(x, axis=1, mean=m), rtol=1e-12)
