"""Property tests of the nan-functions (nansum ... nancumprod) against
NumPy: every dtype, NaN and infinities, random shapes, layouts and axes,
keepdims, where=, initial=, dtype=, out=, ddof/correction; NumPy's warnings
for all-NaN and empty slices and its errors (nanargmin of an all-NaN slice,
where= without initial for nanmin).

Sums are compared within n*eps*sum|x| of the slice's values (the engine
adds in another order than NumPy's pairwise sums); minima, maxima, indices
and integer results exactly."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp

from .outcome import error_kind, quiet
from .strategies import assert_same, device_arrays, dtypes, elements, shapes

_MESSAGES = ("All-NaN slice encountered", "Mean of empty slice",
             "Degrees of freedom <= 0 for slice")


def _values(dt, bound=None):
    """Elements of `dt` with NaN and infinities drawn often; floats bounded
    so that no sum of a test's size overflows in one order and not another."""
    dt = np.dtype(dt)
    if dt.kind not in "fc":
        return elements(dt)
    part = np.dtype("f2" if dt == np.float16 else "f4" if dt.itemsize == 4 or
                    dt == np.complex64 else "f8")
    if bound is None:
        bound = 100.0 if part == np.float16 else float(part.type(np.finfo(part).max / 1e4))
    f = st.one_of(st.sampled_from([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0]),
                  st.floats(-float(part.type(bound)), float(part.type(bound)),
                            width=part.itemsize * 8))
    if dt.kind == "c":
        return st.builds(complex, f, f)
    return f


def _product_values(dt):
    """Magnitudes in [1, 2] (and NaN, inf): a product only grows, so it
    overflows in every order or none."""
    dt = np.dtype(dt)
    if dt.kind not in "fc":
        return elements(dt)
    width = 16 if dt == np.float16 else 32 if dt in (np.float32, np.complex64) else 64
    mag = st.floats(1.0, 2.0, width=width)
    f = st.one_of(st.sampled_from([np.nan, np.inf, -np.inf]), mag, mag.map(lambda v: -v))
    if dt.kind == "c":
        return st.builds(complex, f, st.just(0.0))
    return f


def _sum_or_product_data(data, sums):
    """(dtype, gpunp array, NumPy array) with values for sums or products."""
    dt = data.draw(dtypes(), label="dtype")
    values = _values(dt) if sums else _product_values(dt)
    g, x = data.draw(device_arrays(dt, data.draw(shapes(0, 3), label="shape"), values=values),
                     label="arrays")
    return dt, g, x


def _axis(data, ndim, multi=True):
    opts = [st.none(), st.integers(-ndim - 1, ndim)]
    if multi:
        opts.append(st.lists(st.integers(-ndim, max(ndim - 1, 0)), max_size=ndim,
                             unique=True).map(tuple))
    return data.draw(st.one_of(*opts), label="axis")


def _run(call):
    """(result or exception, the nan-function warnings it gave)."""
    with quiet(), warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        try:
            r = call()
            gp.cuda.Device().synchronize()
        except Exception as exc:  # noqa: BLE001 - compared with NumPy's
            r = exc
    said = sorted({m for w in rec for m in _MESSAGES if m in str(w.message)})
    return r, said


def _compare(np_call, gp_call, exact=False, scale=None, rtol_n=1):
    want, np_said = _run(np_call)
    got, gp_said = _run(gp_call)
    if isinstance(want, Exception):
        assert isinstance(got, error_kind(want)), (want, got)
        return None
    if isinstance(got, Exception):
        raise got
    assert gp_said == np_said, (gp_said, np_said)
    w = np.asarray(want)
    if exact or w.dtype.kind not in "fc":
        assert_same(got, want)
    else:
        eps = float(np.finfo(w.dtype).eps)
        assert_same(got, want, rtol=4 * max(rtol_n, 1) * eps,
                    atol=scale * eps if scale else 0.0)
    return got


def _sum_scale(x, n):
    """n*sum|x| over the finite values: what a reordered sum may round by."""
    h = np.abs(np.asarray(x, dtype=np.complex128 if x.dtype.kind == "c" else np.float64))
    h = h[np.isfinite(h)]
    return 2.0 * max(n, 1) * float(h.sum())


@pytest.mark.parametrize("name", ["nansum", "nanprod"])
@given(data=st.data())
def test_nansum_nanprod_match_numpy(name, data):
    dt, g, x = _sum_or_product_data(data, name == "nansum")
    kw = {"axis": _axis(data, x.ndim), "keepdims": data.draw(st.booleans(), label="keepdims")}
    if data.draw(st.booleans(), label="where"):
        w = data.draw(device_arrays(np.bool_, x.shape[data.draw(st.integers(0, x.ndim)):]),
                      label="where")
        kw["where"] = w
    if data.draw(st.booleans(), label="initial"):
        kw["initial"] = data.draw(st.sampled_from([0, 1, 2]), label="initial")
    if dt.kind in "fc" and data.draw(st.booleans(), label="dtype="):
        kw["dtype"] = np.complex128 if dt.kind == "c" else np.float64
    gkw, nkw = dict(kw), dict(kw)
    if "where" in kw:
        gkw["where"], nkw["where"] = kw["where"]
    # a product of values in [1, 2] rounds n times, relatively: n*eps
    scale = _sum_scale(x, x.size) if name == "nansum" else None
    _compare(lambda: getattr(np, name)(x, **nkw), lambda: getattr(gp, name)(g, **gkw),
             scale=scale, rtol_n=x.size)


@pytest.mark.parametrize("name", ["nanmin", "nanmax"])
@given(data=st.data())
def test_nanmin_nanmax_match_numpy(name, data):
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(0, 3), label="shape"),
                                   values=_values(dt)), label="arrays")
    kw = {"axis": _axis(data, x.ndim), "keepdims": data.draw(st.booleans(), label="keepdims")}
    gkw, nkw = dict(kw), dict(kw)
    if data.draw(st.booleans(), label="where"):
        gkw["where"], nkw["where"] = data.draw(device_arrays(np.bool_, x.shape), label="where")
    if data.draw(st.booleans(), label="initial"):
        gkw["initial"] = nkw["initial"] = data.draw(st.sampled_from([0, 1, -3]), label="initial")
    _compare(lambda: getattr(np, name)(x, **nkw), lambda: getattr(gp, name)(g, **gkw),
             exact=True)


@pytest.mark.parametrize("name", ["nanargmin", "nanargmax"])
@given(data=st.data())
def test_nanargmin_nanargmax_match_numpy(name, data):
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(0, 3), label="shape"),
                                   values=_values(dt)), label="arrays")
    kw = {"axis": _axis(data, x.ndim, multi=False),
          "keepdims": data.draw(st.booleans(), label="keepdims")}
    _compare(lambda: getattr(np, name)(x, **kw), lambda: getattr(gp, name)(g, **kw), exact=True)


@pytest.mark.parametrize("name", ["nancumsum", "nancumprod"])
@given(data=st.data())
def test_nancumsum_nancumprod_match_numpy(name, data):
    dt, g, x = _sum_or_product_data(data, name == "nancumsum")
    kw = {"axis": _axis(data, x.ndim, multi=False)}
    if data.draw(st.booleans(), label="dtype="):
        kw["dtype"] = data.draw(st.sampled_from(["int64", "float64", "complex128"]))
    scale = _sum_scale(x, x.size) if name == "nancumsum" else None
    _compare(lambda: getattr(np, name)(x, **kw), lambda: getattr(gp, name)(g, **kw), scale=scale,
             rtol_n=x.size)


@pytest.mark.parametrize("name", ["nanmean", "nanvar", "nanstd"])
@given(data=st.data())
def test_nanmean_nanvar_nanstd_match_numpy(name, data):
    dt = data.draw(dtypes(), label="dtype")
    bound = 100.0 if dt == np.float16 else 1e6 if name != "nanmean" else None
    g, x = data.draw(device_arrays(dt, data.draw(shapes(0, 3), label="shape"),
                                   values=_values(dt, bound)), label="arrays")
    kw = {"axis": _axis(data, x.ndim), "keepdims": data.draw(st.booleans(), label="keepdims")}
    if name != "nanmean":
        which = data.draw(st.sampled_from(["ddof", "correction", "none"]), label="ddof kind")
        if which != "none":
            kw[which] = data.draw(st.integers(0, 2), label=which)
    if dt.kind in "fc" and data.draw(st.booleans(), label="dtype="):
        kw["dtype"] = np.complex128 if dt.kind == "c" else np.float64
    gkw, nkw = dict(kw), dict(kw)
    if data.draw(st.booleans(), label="where"):
        gkw["where"], nkw["where"] = data.draw(device_arrays(np.bool_, x.shape), label="where")
    h = np.abs(np.asarray(x, dtype=np.complex128 if dt.kind == "c" else np.float64))
    h = h[np.isfinite(h)]
    top = float(h.max()) if h.size else 0.0
    n = max(x.size, 1)
    # the mean rounds within n*eps of the largest value; a variance within
    # n*eps of the largest squared deviation, (2*top)**2
    scale = 4 * n * (top if name == "nanmean" else 4 * top * top if name == "nanvar"
                     else 2 * top)
    _compare(lambda: getattr(np, name)(x, **nkw), lambda: getattr(gp, name)(g, **gkw),
             scale=scale)


def test_all_nan_slices_warn_and_raise():
    h = np.array([[np.nan, np.nan], [1.0, np.nan]])
    g = gp.asarray(h)
    with pytest.warns(RuntimeWarning, match="All-NaN slice"):
        r = gp.nanmax(g, axis=1)
    np.testing.assert_array_equal(r.get(), [np.nan, 1.0])
    with pytest.raises(ValueError, match="All-NaN slice"):
        gp.nanargmin(g, axis=1)
    np.testing.assert_array_equal(gp.nanargmax(g[1:], axis=1).get(), [0])
    with pytest.raises(ValueError):
        gp.nanmin(g, where=gp.asarray([True, False]))
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        gp.nanmean(g, axis=1)


def test_out_is_returned_and_filled():
    h = np.array([[1.0, np.nan, 3.0], [np.nan, 5.0, 6.0]], np.float32)
    g = gp.asarray(h)
    for name in ("nansum", "nanmin", "nanmax", "nanmean", "nanvar", "nanstd"):
        out = gp.empty(3, np.float32)
        r = getattr(gp, name)(g, axis=0, out=out)
        assert r is out
        np.testing.assert_allclose(out.get(), getattr(np, name)(h, axis=0), rtol=1e-6)


def test_numpy_functions_route_to_gpunp():
    g = gp.asarray(np.array([1.0, np.nan, 2.0]))
    for name in ("nansum", "nanprod", "nanmin", "nanmax", "nanargmin", "nanargmax", "nanmean",
                 "nanvar", "nanstd", "nancumsum", "nancumprod"):
        assert isinstance(getattr(np, name)(g), gp.ndarray), name
