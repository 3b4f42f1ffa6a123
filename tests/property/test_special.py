"""Property tests of i0 and kaiser against NumPy: every real dtype (integers
and bool become float64, floats keep their precision), both series' ranges
and the point between them, NaN/inf, complex refused; kaiser's lengths
(0, 1, negative, float) and shapes parameter beta."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp

from .outcome import same_outcome
from .strategies import assert_same, bounded_values, device_arrays, dtypes, shapes


def _i0_values(dt):
    dt = np.dtype(dt)
    if dt.kind in "bc":
        return None
    return bounded_values(dt, 60 if dt.kind == "f" and dt.itemsize == 2 else 700,
                          specials=(0.0, -0.0, 8.0, -8.0, np.nan, np.inf, -np.inf)
                          if dt.kind == "f" else ())


@given(data=st.data())
def test_i0_matches_numpy(data):
    dt = data.draw(dtypes(), label="dtype")
    ga, a = data.draw(device_arrays(dt, data.draw(shapes(max_dims=3), label="shape"),
                                    values=_i0_values(dt)), label="x")
    got, want = same_outcome(lambda: np.i0(a), lambda: gp.i0(ga))
    if want is None:
        return
    # thirty Clenshaw steps and an exp: a few dozen ulps of the result
    assert_same(got, want, rtol=32 * float(np.finfo(np.asarray(want).dtype).eps))


@given(M=st.one_of(st.integers(-3, 40), st.floats(-2, 30)),
       beta=st.one_of(st.floats(-20, 20), st.integers(-5, 30), st.just(0.0)))
def test_kaiser_matches_numpy(M, beta):
    got, want = same_outcome(lambda: np.kaiser(M, beta), lambda: gp.kaiser(M, beta))
    if want is not None:
        assert_same(got, want, rtol=1e-12, atol=1e-14)


def test_i0_of_complex_is_numpys_typeerror():
    for call in (lambda: np.i0(np.ones(3, complex)), lambda: gp.i0(gp.ones(3, complex)),
                 lambda: np.kaiser(4, 1j), lambda: gp.kaiser(4, 1j)):
        with pytest.raises(TypeError):
            call()
