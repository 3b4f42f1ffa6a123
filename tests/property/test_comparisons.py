"""Property tests of isclose, allclose, array_equal, array_equiv, clip and
round/around against NumPy: every dtype, NaN/inf/-0.0, broadcasting
shapes, scalar and array bounds, tolerances, equal_nan, decimals of either
sign. These are exact: the same comparisons and roundings as NumPy's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp

from .outcome import same_outcome
from .strategies import assert_same, broadcastable_shapes, device_arrays, dtypes, shapes


@given(data=st.data())
def test_isclose_allclose_match_numpy(data):
    sh = data.draw(broadcastable_shapes(2), label="shapes")
    d1, d2 = data.draw(dtypes(), label="dtype a"), data.draw(dtypes(), label="dtype b")
    ga, a = data.draw(device_arrays(d1, sh.input_shapes[0]), label="a")
    gb, b = data.draw(device_arrays(d2, sh.input_shapes[1]), label="b")
    kw = {"rtol": data.draw(st.sampled_from([1e-5, 0.0, 0.1]), label="rtol"),
          "atol": data.draw(st.sampled_from([1e-8, 0.0, 1.0]), label="atol"),
          "equal_nan": data.draw(st.booleans(), label="equal_nan")}
    got, want = same_outcome(lambda: np.isclose(a, b, **kw), lambda: gp.isclose(ga, gb, **kw))
    if want is not None:
        assert_same(got, want)
    got, want = same_outcome(lambda: np.allclose(a, b, **kw), lambda: gp.allclose(ga, gb, **kw))
    if want is not None:
        assert got is want or got == want and type(got) is bool


@given(data=st.data())
def test_array_equal_and_equiv_match_numpy(data):
    dt = data.draw(dtypes(), label="dtype")
    sh = data.draw(st.one_of(broadcastable_shapes(2),
                             shapes(0, 3).map(lambda s: type("S", (), {"input_shapes": (s, s)}))),
                   label="shapes")
    ga, a = data.draw(device_arrays(dt, sh.input_shapes[0]), label="a")
    if data.draw(st.booleans(), label="same values") and sh.input_shapes[0] == sh.input_shapes[1]:
        gb, b = ga.copy(), a.copy()
    else:
        gb, b = data.draw(device_arrays(dt, sh.input_shapes[1]), label="b")
    en = data.draw(st.booleans(), label="equal_nan")
    assert gp.array_equal(ga, gb, equal_nan=en) == np.array_equal(a, b, equal_nan=en)
    assert gp.array_equiv(ga, gb) == np.array_equiv(a, b)
    assert isinstance(gp.array_equal(ga, gb), bool)


def _bound(data, dt, shape, name):
    how = data.draw(st.sampled_from(["none", "python", "array"]), label=name)
    if how == "none":
        return None, None
    if how == "python":
        v = data.draw(st.one_of(st.integers(-300, 300), st.floats(-1e3, 1e3)) if dt.kind != "b"
                      else st.booleans(), label=name + " value")
        return v, v
    return data.draw(device_arrays(dt, shape), label=name + " array")[::-1]


@given(data=st.data())
def test_clip_matches_numpy(data):
    dt = data.draw(dtypes("iuf"), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(0, 3), label="shape")), label="a")
    nlo, glo = _bound(data, dt, x.shape, "min")
    nhi, ghi = _bound(data, dt, x.shape, "max")
    if data.draw(st.booleans(), label="keywords"):
        calls = (lambda: np.clip(x, min=nlo, max=nhi), lambda: gp.clip(g, min=glo, max=ghi))
    else:
        calls = (lambda: np.clip(x, nlo, nhi), lambda: gp.clip(g, glo, ghi))
    got, want = same_outcome(*calls)
    if want is not None:
        assert_same(got, want)


@pytest.mark.parametrize("lo, hi, kw", [
    (128, 0.0, {}),                 # the three resolve float64; maximum(int8, 128) alone overflows
    (0.0, 128, {}),
    (128, 300, {}),                 # int8 all through: NumPy's OverflowError
    (1, np.float32(2.5), {}),
    (-129, 300, {"dtype": np.float64}),  # both bounds dropped: positive with the keywords
    (-129, None, {"dtype": np.int16, "casting": "unsafe"}),
    (1, 2, {"dtype": np.float32}),
    (None, None, {}),
], ids=repr)
def test_clip_resolves_one_loop_for_its_three_operands(lo, hi, kw):
    """A failing example of test_clip_matches_numpy (int8 -128 clipped to
    [128, 0.0]) and its neighbours: NumPy's clip is one ufunc of three
    operands."""
    x = np.array([-128, 5, 127], np.int8)
    g = gp.asarray(x)
    got, want = same_outcome(lambda: np.clip(x, lo, hi, **kw), lambda: gp.clip(g, lo, hi, **kw))
    if want is not None:
        assert_same(got, want)


@given(data=st.data())
def test_round_matches_numpy(data):
    dt = data.draw(dtypes("biufc"), label="dtype")
    vals = None
    if dt.kind in "fc":
        w = 16 if dt == np.float16 else 32 if dt.itemsize == 4 or dt == np.complex64 else 64
        # halves and values near them, where the even rule decides
        f = st.one_of(st.sampled_from([0.5, 1.5, 2.5, -0.5, -2.5, 0.25, 0.125, -0.0, np.nan,
                                       np.inf, 1e300 if w == 64 else 1e4]),
                      st.floats(-1e4, 1e4, width=w))
        vals = st.builds(complex, f, f) if dt.kind == "c" else f
    g, x = data.draw(device_arrays(dt, data.draw(shapes(0, 3), label="shape"), values=vals),
                     label="a")
    # and NumPy's factors past 1e22 (products by ten), overflowing ones,
    # C int bounds, and what is no C int
    dec = data.draw(st.one_of(st.integers(-3, 3), st.sampled_from(
        [22, 23, 24, 30, 308, 309, 400, -23, -24, -309, -400, 2**31 - 1, -2**31, 2**31, 2**63,
         2.0, np.True_, None])), label="decimals")
    fn = data.draw(st.sampled_from(["round", "around", "method"]), label="how")
    if fn == "method":
        calls = (lambda: x.round(dec), lambda: g.round(dec))
    else:
        calls = (lambda: getattr(np, fn)(x, dec), lambda: getattr(gp, fn)(g, dec))
    got, want = same_outcome(*calls)
    if want is not None and x.dtype.kind in "iu" and dec < 0:
        # NumPy rounds integers in float64 and casts back: a result past the
        # dtype's range is its float-to-int overflow, which its SIMD and
        # scalar loops answer differently (uint32 4294967295 to -1 decimals
        # is 4 for 3 elements, 0 for 4); compare the values that fit
        info = np.iinfo(x.dtype)
        exact = np.round(x.astype(np.float64), dec)
        fits = (exact >= info.min) & (exact <= info.max)
        g_h, w_h = np.asarray(got.get()), np.asarray(want)
        assert g_h.dtype == w_h.dtype and g_h.shape == w_h.shape
        np.testing.assert_array_equal(g_h[fits], w_h[fits])
    elif want is not None:
        assert_same(got, want)
        w = np.asarray(want)
        if w.dtype.kind == "f":  # the signs of zeros too (a NaN's is the platform's)
            zero = w == 0
            np.testing.assert_array_equal(np.signbit(got.get())[zero], np.signbit(w)[zero])


def test_routing():
    g = gp.asarray(np.array([1.0, 2.5]))
    for r in (np.isclose(g, g), np.clip(g, 0, 2), np.round(g), np.around(g, 1)):
        assert isinstance(r, gp.ndarray)
    assert np.allclose(g, g) is True and np.array_equal(g, g) is True
