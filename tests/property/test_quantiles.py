"""Property tests of median, percentile, quantile and their nan-variants
against NumPy: all 13 methods, q as a Python float, a NumPy scalar or an
array, axes (None, int, tuple), keepdims, out=, every real dtype with NaN,
infinities and duplicates, NumPy's errors (complex data, q out of range, a
bad method, an empty axis) and its all-NaN warning.

The selected elements are NumPy's exactly (the indices come from NumPy's
own method table); the interpolation between two of them is the same
arithmetic in the same dtypes, so results agree to a few ulps of the
values (an infinity minus itself is NaN either way)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp

from .outcome import quieted as _quiet, same_outcome
from .strategies import assert_same, bounded_values, device_arrays, dtypes, shapes

METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation",
           "interpolated_inverted_cdf", "hazen", "weibull", "linear", "median_unbiased",
           "normal_unbiased", "lower", "higher", "midpoint", "nearest"]


def _values(dt):
    if np.dtype(dt).kind != "f":
        return None  # integers: any value
    return bounded_values(dt, 1e4, [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, 1.0, 2.0])


def _axis(data, ndim):
    return data.draw(st.one_of(
        st.none(), st.integers(-ndim - 1, ndim),
        st.lists(st.integers(-ndim, max(ndim - 1, 0)), min_size=min(ndim, 1),
                 max_size=ndim, unique=True).map(tuple)), label="axis")


def _q(data, percent):
    top = 100.0 if percent else 1.0
    one = st.floats(-0.1 * top, 1.1 * top) if data.draw(st.integers(0, 9), label="bad q") == 0 \
        else st.floats(0.0, top)
    kind = data.draw(st.sampled_from(["float", "float32", "float64", "array"]), label="q kind")
    if kind == "float":
        return data.draw(one, label="q")
    if kind in ("float32", "float64"):
        return np.dtype(kind).type(data.draw(one, label="q"))
    return np.asarray(data.draw(st.lists(one, max_size=4), label="q"))


# NumPy 2.2 (the newest for Python 3.10) differs from 2.4 and later here
OLD_NUMPY = np.lib.NumpyVersion(np.__version__) < "2.4.0"


def _check(got, want, dt):
    w = np.asarray(want)
    if OLD_NUMPY and isinstance(got, gp.ndarray) and got.dtype != w.dtype \
            and np.can_cast(w.dtype, got.dtype):
        # before 2.4 NumPy computed in the data's float dtype whatever q's;
        # gpunp keeps a NumPy q's dtype, as 2.4 does (docs/differences.md)
        got = got.astype(w.dtype)
    if w.dtype.kind != "f":
        assert_same(got, want)
        return
    eps = float(np.finfo(w.dtype).eps)
    finite = np.abs(w[np.isfinite(w)])
    scale = float(finite.max()) if finite.size else 0.0
    assert_same(got, want, rtol=8 * eps, atol=8 * eps * scale)


@pytest.mark.parametrize("name", ["quantile", "percentile", "nanquantile", "nanpercentile"])
@given(data=st.data())
def test_quantiles_match_numpy(name, data):
    dt = data.draw(dtypes("biuf"), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(0, 3), label="shape"),
                                   values=_values(dt)), label="a")
    q = _q(data, "percentile" in name)
    kw = {"axis": _axis(data, x.ndim), "keepdims": data.draw(st.booleans(), label="keepdims"),
          "method": data.draw(st.sampled_from(METHODS), label="method")}
    gq = gp.asarray(q) if isinstance(q, np.ndarray) and data.draw(st.booleans(), label="dq") \
        else q
    got, want = same_outcome(_quiet(lambda: getattr(np, name)(x, q, **kw)),
                             _quiet(lambda: getattr(gp, name)(g, gq, **kw)))
    if want is not None:
        _check(got, want, dt)


@pytest.mark.parametrize("name", ["quantile", "percentile", "nanquantile", "nanpercentile"])
@given(data=st.data())
def test_weighted_quantiles_match_numpy(name, data):
    """weights= (method inverted_cdf only): of a's shape, or 1-d along one
    axis; zeros (leading ones too), all-zero and negative weights, NumPy's
    errors for other methods and mismatched shapes."""
    dt = data.draw(dtypes("biuf"), label="dtype")
    shape = data.draw(shapes(1, 3, min_side=1), label="shape")
    g, x = data.draw(device_arrays(dt, shape, values=_values(dt)), label="a")
    q = _q(data, "percentile" in name)
    axis = data.draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1)),
                     label="axis")
    # NumPy's nan-variants index 1-d weights as if they had a's shape (an
    # IndexError of NumPy's), so they get weights of a's shape
    one_d = axis is not None and "nan" not in name and data.draw(st.booleans(), label="1-d")
    wshape = (shape[axis],) if one_d else shape
    w = data.draw(st.lists(st.sampled_from([0.0, 0.0, 1.0, 2.0, 0.5, 3.0, -1.0]),
                           min_size=int(np.prod(wshape)), max_size=int(np.prod(wshape))),
                  label="weights")
    w = np.asarray(w).reshape(wshape)
    if data.draw(st.integers(0, 4), label="negative ok") != 0:
        w = np.abs(w)
    method = "inverted_cdf" if data.draw(st.integers(0, 5), label="other method") else "linear"
    kw = {"axis": axis, "method": method, "keepdims": data.draw(st.booleans(), label="keepdims")}
    gpunp_call = _quiet(lambda: getattr(gp, name)(g, q, weights=gp.asarray(w), **kw))
    if OLD_NUMPY and method != "linear" and (w >= 0).all():
        # before 2.4 NumPy answered a slice whose weights are all zero (once
        # the nan-variants leave its NaNs out); since, it refuses it, as
        # gpunp does under every NumPy (docs/differences.md)
        full = w.reshape(w.shape + (1,) * (x.ndim - 1 - axis % x.ndim)) if one_d else w
        kept = np.broadcast_to(full, x.shape)
        zero = kept.sum(axis=axis) == 0
        if "nan" in name:
            kept = np.where(np.isnan(x), 0, kept)
            # an all-NaN slice is NaN (with NumPy's warning) whatever its weights
            zero = (kept.sum(axis=axis) == 0) & ~np.isnan(x).all(axis=axis)
        qs = np.asarray(q, dtype=np.float64) / (100 if "percentile" in name else 1)
        if zero.any() and (qs.size == 0 or (qs.min() >= 0 and qs.max() <= 1)):
            with pytest.raises(ValueError, match="all zero"):
                gpunp_call()
            return
    got, want = same_outcome(_quiet(lambda: getattr(np, name)(x, q, weights=w, **kw)),
                             gpunp_call)
    if want is not None:
        assert_same(got, want)  # an element of a: exact


@pytest.mark.parametrize("name", ["median", "nanmedian"])
@given(data=st.data())
def test_medians_match_numpy(name, data):
    dt = data.draw(dtypes("biuf"), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(0, 3), label="shape"),
                                   values=_values(dt)), label="a")
    kw = {"axis": _axis(data, x.ndim), "keepdims": data.draw(st.booleans(), label="keepdims")}
    got, want = same_outcome(_quiet(lambda: getattr(np, name)(x, **kw)),
                             _quiet(lambda: getattr(gp, name)(g, **kw)))
    if want is not None:
        _check(got, want, dt)


def test_errors_warnings_out_and_routing():
    h = np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, np.nan]])
    g = gp.asarray(h)
    with pytest.raises(TypeError):
        gp.quantile(gp.asarray(np.array([1j])), 0.5)
    with pytest.raises(ValueError):
        gp.quantile(g, 1.5)
    with pytest.raises(ValueError):
        gp.percentile(g, -1)
    with pytest.raises(ValueError):
        gp.quantile(g, 0.5, method="no such method")
    with pytest.warns(RuntimeWarning, match="All-NaN slice"):
        r = gp.nanmedian(g, axis=1)
    np.testing.assert_array_equal(r.get(), np.nanmedian(h, axis=1))
    out = gp.empty(3)
    assert gp.median(g, axis=0, out=out) is out
    np.testing.assert_array_equal(out.get(), np.median(h, axis=0))
    for name in ("median", "nanmedian"):
        assert isinstance(getattr(np, name)(g), gp.ndarray)
    for name in ("quantile", "nanquantile"):
        assert isinstance(getattr(np, name)(g, 0.5), gp.ndarray)
    for name in ("percentile", "nanpercentile"):
        assert isinstance(getattr(np, name)(g, 50), gp.ndarray)
