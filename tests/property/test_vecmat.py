"""Property tests of matvec and vecmat against NumPy's gufuncs: every dtype
pair, broadcast leading axes, zero-size core axes, mismatched cores and
too few dimensions (ValueError), complex (vecmat conjugates the vector)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, strategies as st

import gpunp as gp

from .outcome import same_outcome
from .strategies import (assert_same, bounded_values, broadcastable_shapes, device_arrays,
                         dtypes)


def _vals(dt):
    return bounded_values(dt, 10)


@given(data=st.data(), name=st.sampled_from(["matvec", "vecmat"]))
def test_matvec_vecmat_match_numpy(data, name):
    d1, d2 = data.draw(dtypes(), label="dtype 1"), data.draw(dtypes(), label="dtype 2")
    batch = data.draw(broadcastable_shapes(2, max_dims=2, max_side=3), label="batch")
    m, n = data.draw(st.integers(0, 4), label="m"), data.draw(st.integers(0, 4), label="n")
    n2 = data.draw(st.sampled_from([n, n, n, n + 1]), label="n of operand 2")
    b1, b2 = batch.input_shapes
    if name == "matvec":
        s1, s2 = b1 + (m, n), b2 + (n2,)
    else:
        s1, s2 = b1 + (n,), b2 + (n2, m)
    # sometimes too few dimensions for the core
    if data.draw(st.integers(0, 9), label="drop") == 0:
        s1 = s1[-1:] if name == "matvec" else ()
    g1, h1 = data.draw(device_arrays(d1, s1, values=_vals(d1)), label="x1")
    g2, h2 = data.draw(device_arrays(d2, s2, values=_vals(d2)), label="x2")
    got, want = same_outcome(lambda: getattr(np, name)(h1, h2),
                             lambda: getattr(gp, name)(g1, g2))
    if want is None:
        return
    w = np.asarray(want)
    if w.dtype.kind in "fc":
        eps = float(np.finfo(w.dtype).eps)
        assert_same(got, want, rtol=8 * eps, atol=8 * eps * 100 * max(n, 1))
    else:
        assert_same(got, want)


@given(data=st.data(), name=st.sampled_from(["matvec", "vecmat"]))
def test_numpy_gufunc_of_gpunp_arrays_is_gpunps(data, name):
    dt = data.draw(dtypes("fc"), label="dtype")
    g1, h1 = data.draw(device_arrays(dt, (2, 3) if name == "matvec" else (3,)), label="x1")
    g2, h2 = data.draw(device_arrays(dt, (3,) if name == "matvec" else (3, 2)), label="x2")
    got = getattr(np, name)(g1, g2)
    assert isinstance(got, gp.ndarray)
    assert_same(got, getattr(gp, name)(g1, g2).get())
