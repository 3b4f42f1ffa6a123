"""gpunp.emath against numpy.emath: every function on every dtype, with
values inside and outside the real domain (negative, beyond +-1, zeros,
NaN, infinities), the result dtype NumPy picks (complex only where needed)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp
import gpunp.emath as gem

from .outcome import quieted, same_outcome
from .strategies import assert_same, device_arrays, dtypes, shapes, tolerance

UNARY = ["sqrt", "log", "log2", "log10", "arccos", "arcsin", "arctanh"]


def _close(got, want):
    want = np.asarray(want)
    tol = tolerance(want.dtype) * 10 if want.dtype.kind in "fc" else None
    assert_same(got, want, rtol=tol, atol=0.0 if tol is None else tol)


@pytest.mark.parametrize("name", UNARY)
@given(data=st.data())
def test_unary_matches_numpy(name, data):
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(0, 2), label="shape")), label="arrays")
    got, want = same_outcome(quieted(lambda: getattr(np.emath, name)(x)),
                             quieted(lambda: getattr(gem, name)(g)))
    if want is not None:
        _close(got, want)


@pytest.mark.parametrize("name", ["power", "logn"])
@given(data=st.data())
def test_binary_matches_numpy(name, data):
    dt = data.draw(dtypes("iuf"), label="dtype")
    shape = data.draw(shapes(0, 2), label="shape")
    g, x = data.draw(device_arrays(dt, shape), label="x")
    p = data.draw(st.sampled_from([2, -1, 0.5, -2.0, 3]), label="second")
    gp_p = gp.asarray(np.asarray(p)) if data.draw(st.booleans(), label="as array") else p
    if name == "power":
        calls = (lambda: np.emath.power(x, p)), (lambda: gem.power(g, gp_p))
    else:
        calls = (lambda: np.emath.logn(p, x)), (lambda: gem.logn(gp_p, g))
    got, want = same_outcome(quieted(calls[0]), quieted(calls[1]))
    if want is not None:
        want = np.asarray(want)
        if want.dtype.kind in "fc":
            finite = np.abs(want[np.isfinite(want)])
            scale = float(finite.max()) if finite.size else 1.0
            tol = tolerance(want.dtype) * 10
            if name == "logn":
                # log(x) / log(n): log(x) is computed in x's own precision
                # (complex64 for int8), then divided in the result's; C
                # libraries' logs differ by an ulp of the first
                with np.errstate(all="ignore"):
                    inner = np.asarray(np.emath.log(x)).dtype
                tol = max(tol, tolerance(inner) * 10)
            assert_same(got, want, rtol=tol, atol=tol * scale)
        else:
            assert_same(got, want)


def test_examples_and_module():
    assert_same(gem.sqrt(gp.asarray([-4.0, 4.0])), np.emath.sqrt([-4.0, 4.0]))
    assert gem.sqrt(gp.asarray([4.0])).dtype == np.float64  # real where it can be
    assert gem.sqrt(gp.asarray([-4], np.int16)).dtype == np.complex64
    assert gp.emath is gem and sorted(gem.__all__) == sorted(np.emath.__all__)
