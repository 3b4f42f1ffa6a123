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

from .outcome import same_outcome
from .strategies import assert_same, device_arrays, dtypes, shapes, tolerance


def _axis(data, ndim):
    return data.draw(st.one_of(
        st.none(), st.integers(-ndim - 1, ndim),
        st.lists(st.integers(-ndim, max(ndim - 1, 0)), max_size=ndim, unique=True).map(tuple)),
        label="axis")


def _quiet(f):
    def call():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return f()
    return call


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
