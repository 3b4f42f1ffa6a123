"""Property tests of var, std and ptp against NumPy: every dtype, axes
(None, ints, tuples, negative), ddof and correction, keepdims, dtype=, out=,
the methods, NumPy's errors and its warning for ddof >= n. Variances are
compared within a tolerance of the data's scale: the two passes round in
another order than NumPy's pairwise sums."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp

from .outcome import quieted as _quiet, same_outcome
from .strategies import assert_same, bounded_values, device_arrays, dtypes, shapes, tolerance


def _axis(data, ndim):
    return data.draw(st.one_of(
        st.none(), st.integers(-ndim - 1, ndim),
        st.lists(st.integers(-ndim, max(ndim - 1, 0)), max_size=ndim, unique=True).map(tuple)),
        label="axis")


@pytest.mark.parametrize("name", ["var", "std"])
@pytest.mark.parametrize("how", ["function", "method"])
@given(data=st.data())
def test_var_and_std_match_numpy(name, how, data):
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(0, 3), label="shape"), finite=True),
                     label="arrays")
    kw = {"axis": _axis(data, x.ndim)}
    which = data.draw(st.sampled_from(["ddof", "correction", "none"]), label="ddof kind")
    if which != "none":
        kw[which] = data.draw(st.integers(0, 2), label=which)
    kw["keepdims"] = data.draw(st.booleans(), label="keepdims")
    if dt.kind in "fc" and data.draw(st.booleans(), label="pass dtype"):
        kw["dtype"] = data.draw(st.sampled_from(["float32", "float64"] if dt.kind == "f" else
                                                ["complex64", "complex128"]), label="dtype=")
    if how == "method":
        call_np, call_gp = (lambda: getattr(x, name)(**kw)), (lambda: getattr(g, name)(**kw))
    else:
        call_np = lambda: getattr(np, name)(x, **kw)  # noqa: E731
        call_gp = lambda: getattr(gp, name)(g, **kw)  # noqa: E731
    got, want = same_outcome(_quiet(call_np), _quiet(call_gp))
    if want is None:
        return
    want = np.asarray(want)
    # the deviations' squares in float64: the scale of what was summed
    h = np.asarray(x, dtype=np.complex128 if dt.kind == "c" else np.float64)
    with np.errstate(over="ignore"):
        scale = float(np.max(np.abs(h)) ** 2) if h.size else 0.0
    # Near the dtype's largest value a sum of squares overflows or not by the
    # order it is added in, NumPy's as well: inf or NaN either way round is
    # not a difference of gpunp's, so only the finite range is compared.
    real = float(np.finfo(want.dtype).max) if want.dtype.kind in "fc" else np.inf
    if scale * max(h.size, 1) * 4 >= real:
        assert got.shape == want.shape and got.dtype == want.dtype
        return
    if name == "std":
        scale = scale ** 0.5
    assert_same(got, want, rtol=tolerance(want.dtype) * 20,
                atol=tolerance(want.dtype) * 20 * scale)


def test_var_warns_when_the_degrees_of_freedom_run_out():
    g = gp.asarray(np.arange(3.0))
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        r = gp.var(g, ddof=3)
    assert np.isinf(r.get()) or np.isnan(r.get())
    with pytest.raises(ValueError):
        gp.var(g, ddof=1, correction=1)


def test_var_out_and_complex_result_is_real():
    h = np.array([[1 + 2j, 3 - 1j], [0.5j, 2.0]])
    out = gp.empty(2, np.float64)
    r = gp.var(gp.asarray(h), axis=0, out=out)
    assert r is out
    np.testing.assert_allclose(out.get(), np.var(h, axis=0), rtol=1e-14)
    assert gp.std(gp.asarray(h)).dtype == np.float64


@given(data=st.data())
def test_ptp_matches_numpy(data):
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(0, 3), label="shape")), label="arrays")
    kw = {"axis": _axis(data, x.ndim), "keepdims": data.draw(st.booleans(), label="keepdims")}
    got, want = same_outcome(_quiet(lambda: np.ptp(x, **kw)), _quiet(lambda: gp.ptp(g, **kw)))
    if want is not None:
        assert_same(got, want)


@given(data=st.data())
def test_average_matches_numpy(data):
    dt = data.draw(dtypes("biufc"), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(0, 3), label="shape"), finite=True,
                                   values=_small(dt)), label="a")
    kw = {"axis": _axis(data, x.ndim), "returned": data.draw(st.booleans(), label="returned")}
    if data.draw(st.booleans(), label="keepdims"):
        kw["keepdims"] = data.draw(st.booleans(), label="keepdims=")
    gkw, nkw = dict(kw), dict(kw)
    if data.draw(st.booleans(), label="weights"):
        wdt = data.draw(dtypes("iuf"), label="weights dtype")
        full = data.draw(st.booleans(), label="full-shape weights")
        ax = kw["axis"]
        wshape = x.shape if full or ax is None else \
            tuple(x.shape[a] for a in ((ax,) if isinstance(ax, int) else ax)
                  if -x.ndim <= a < x.ndim)
        gkw["weights"], nkw["weights"] = data.draw(device_arrays(wdt, wshape,
                                                                 values=_small(wdt)),
                                                   label="weights")
    got, want = same_outcome(_quiet(lambda: np.average(x, **nkw)),
                             _quiet(lambda: gp.average(g, **gkw)))
    if want is None:
        return
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    for a, b in zip(got, want):
        b = np.asarray(b)
        eps = float(np.finfo(b.dtype).eps) if b.dtype.kind in "fc" else 0.0
        assert_same(a, b, rtol=8 * max(x.size, 1) * eps, atol=8 * max(x.size, 1) * eps * 1e4)


def _small(dt):
    return bounded_values(dt, 100)


def _no_degrees_of_freedom(call) -> bool:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", RuntimeWarning)
        call()
    return any("Degrees of freedom <= 0" in str(w.message) for w in seen)


def _assert_scaled_by_infinity(got, want):
    """With no degrees of freedom cov scales the products by 1/0 = inf, so
    every element is infinite or NaN, and which one a mathematically zero
    product (a Hermitian diagonal's imaginary part, a zero covariance) gives
    follows its round-off: NumPy's BLAS leaves 0 there, a sum in another
    order a tiny remainder. Only the values' being non-finite is NumPy's."""
    g = got.get()
    assert g.dtype == want.dtype and g.shape == want.shape
    assert not np.isfinite(want).any()
    assert not np.isfinite(g).any(), g


@pytest.mark.parametrize("name", ["cov", "corrcoef"])
@given(data=st.data())
def test_cov_corrcoef_match_numpy(name, data):
    dt = data.draw(dtypes("biufc"), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(1, 2, min_side=1), label="shape"),
                                   values=_small(dt)), label="m")
    kw = {"rowvar": data.draw(st.booleans(), label="rowvar")}
    gkw = {}
    if data.draw(st.booleans(), label="y"):
        gy, y = data.draw(device_arrays(dt, x.shape, values=_small(dt)), label="y")
        kw["y"], gkw["y"] = y, gy
    if name == "cov":
        kw["bias"] = data.draw(st.booleans(), label="bias")
        if data.draw(st.booleans(), label="ddof"):
            kw["ddof"] = data.draw(st.integers(0, 2), label="ddof=")
        nobs = x.shape[0] if x.ndim == 2 and not kw["rowvar"] else x.shape[-1]
        for wname in ("fweights", "aweights"):
            if data.draw(st.booleans(), label=wname):
                w = np.asarray(data.draw(st.lists(st.integers(0, 3), min_size=nobs,
                                                  max_size=nobs), label=wname + "="))
                kw[wname], gkw[wname] = w, gp.asarray(w)
    for k, v in kw.items():
        gkw.setdefault(k, v)
    got, want = same_outcome(_quiet(lambda: getattr(np, name)(x, **kw)),
                             _quiet(lambda: getattr(gp, name)(g, **gkw)))
    if want is None:
        return
    if name == "cov" and _no_degrees_of_freedom(lambda: np.cov(x, **kw)):
        _assert_scaled_by_infinity(got, want)
        return
    w = np.asarray(want)
    eps = float(np.finfo(w.dtype).eps)
    n = max(x.size, 1)
    assert_same(got, want, rtol=64 * n * eps, atol=64 * n * eps * (1.0 if name == "corrcoef"
                                                                   else 1e4))


def test_cov_without_degrees_of_freedom_is_infinite_or_nan():
    """A random seed's example: NumPy's BLAS left the diagonal's imaginary
    part 0 (inf * 0 = NaN), gpunp's sum a 1.9e-17 (inf); with one degree of
    freedom more the same products match NumPy within round-off."""
    m = np.zeros((4, 4), np.complex64)
    m[3, 3] = 1 + 1j
    aw = np.array([0, 0, 1, 2])
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        got = gp.cov(gp.asarray(m), aweights=gp.asarray(aw), ddof=2)
    _assert_scaled_by_infinity(got, _quiet(lambda: np.cov(m, aweights=aw, ddof=2))())
    assert_same(gp.cov(gp.asarray(m), aweights=gp.asarray(aw), ddof=0),
                np.cov(m, aweights=aw, ddof=0), rtol=1e-12, atol=1e-15)
