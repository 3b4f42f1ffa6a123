"""Property tests of packbits and unpackbits against NumPy: every integer and
bool dtype (nonzero values of any size are one bit), every axis incl. None
and 0-d, lengths not a multiple of eight, both bit orders, count past and
short of the bits, and the errors (dtype, axis, order, count)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, strategies as st

import gpunp as gp

from .outcome import same_outcome
from .strategies import assert_same, device_arrays, dtypes, shapes


def _axis(data, nd):
    return data.draw(st.one_of(st.none(), st.integers(-nd - 1, nd)), label="axis")


_ORDERS = st.sampled_from(["big", "little", "middle", "b", "lit", "bogus", "littlex", "",
                           "Big", None, 1])


@given(data=st.data())
def test_packbits_matches_numpy(data):
    dt = data.draw(st.one_of(dtypes("biu"), dtypes("f")), label="dtype")
    shape = data.draw(shapes(max_dims=3, max_side=19), label="shape")
    ga, a = data.draw(device_arrays(dt, shape), label="a")
    axis = _axis(data, len(shape))
    order = data.draw(_ORDERS, label="bitorder")
    got, want = same_outcome(lambda: np.packbits(a, axis=axis, bitorder=order),
                             lambda: gp.packbits(ga, axis=axis, bitorder=order))
    if want is not None:
        assert_same(got, want)


@given(data=st.data())
def test_unpackbits_matches_numpy(data):
    dt = data.draw(st.sampled_from([np.uint8, np.uint8, np.int8, np.uint16]), label="dtype")
    shape = data.draw(shapes(max_dims=3, max_side=4), label="shape")
    ga, a = data.draw(device_arrays(dt, shape), label="a")
    axis = _axis(data, len(shape))
    count = data.draw(st.one_of(st.none(), st.integers(-40, 40), st.sampled_from([True, 1.5])),
                      label="count")
    order = data.draw(_ORDERS, label="bitorder")
    got, want = same_outcome(
        lambda: np.unpackbits(a, axis=axis, count=count, bitorder=order),
        lambda: gp.unpackbits(ga, axis=axis, count=count, bitorder=order))
    if want is None:
        return
    if np.unpackbits(a, axis=axis).size == 0:
        # NumPy pads a count past no bits at all with uninitialised memory
        # (NumPy 2.4); the padding is zeros
        want = np.zeros_like(want)
    assert_same(got, want)


@given(data=st.data())
def test_unpack_of_pack_is_numpys_round_trip(data):
    shape = data.draw(shapes(min_dims=1, max_dims=3, max_side=12), label="shape")
    ga, a = data.draw(device_arrays(np.bool_, shape), label="a")
    axis = data.draw(st.integers(0, len(shape) - 1), label="axis")
    n = shape[axis]
    got = gp.unpackbits(gp.packbits(ga, axis=axis), axis=axis, count=n)
    assert_same(got, np.unpackbits(np.packbits(a, axis=axis), axis=axis, count=n))
    assert_same(got.astype(bool), a)
