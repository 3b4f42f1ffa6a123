"""real, imag and angle (NumPy's functions, not ufuncs) against NumPy: every
dtype, every layout, called directly and through NumPy (NEP 18)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp

from property.strategies import device_arrays, dtypes, shapes
from property.test_ufuncs import assert_matches, numpy_outcome, rtol_for


@pytest.mark.parametrize("name", ["real", "imag"])
@given(data=st.data())
def test_real_and_imag_match_numpy(name, data):
    """A complex array's parts are views (writing them writes the array)."""
    dt = data.draw(dtypes(), label="dtype")
    g, h = data.draw(device_arrays(dt, data.draw(shapes(max_dims=3))), label="x")
    fn = getattr(gp, name) if data.draw(st.booleans(), label="gpunp's") else getattr(np, name)
    got = fn(g)
    assert_matches(got, getattr(np, name)(h))
    if dt.kind == "c" and h.size:
        got[...] = 7
        w = h.copy()
        getattr(np, name)(w)[...] = 7
        assert_matches(g, w)


@given(data=st.data())
def test_angle_matches_numpy(data):
    """arctan2(imag, real): a real array's result dtype is arctan2's with a
    Python 0 (float16 for int8)."""
    dt = data.draw(dtypes(), label="dtype")
    g, h = data.draw(device_arrays(dt, data.draw(shapes(max_dims=3))), label="x")
    deg = data.draw(st.booleans(), label="deg")
    fn = gp.angle if data.draw(st.booleans(), label="gpunp's") else np.angle
    want, exc = numpy_outcome(lambda: np.angle(h, deg=deg))
    if exc is not None:
        with pytest.raises(exc):
            fn(g, deg=deg)
        return
    want = np.asarray(want)
    assert_matches(fn(g, deg=deg), want, rtol_for("arctan2", want.dtype))
