"""Advanced indexing on a GPU: the deferred bounds check (an out-of-bounds
index raises IndexError at the next copy to the host or synchronisation,
not at the launch), its scope over streams, and gathers and scatters large
enough to use many blocks."""

import numpy as np
import pytest

import gpunp as gp


def test_error_surfaces_at_the_next_copy_to_host():
    a = gp.arange(5.0)
    b = a[gp.asarray(np.array([1, 10, 2]))]  # returns without waiting
    c = b + 1
    with pytest.raises(IndexError, match="index 10 is out of bounds for axis 0 with size 5"):
        c.get()
    # the record is cleared: later work runs and reports nothing
    assert a[[4, -5]].get().tolist() == [4.0, 0.0]


def test_error_surfaces_at_synchronize():
    a = gp.arange(5.0)
    a[[0, -6]]
    with pytest.raises(IndexError, match="index -6 is out of bounds for axis 0 with size 5"):
        gp.cuda.Device().synchronize()
    gp.cuda.Device().synchronize()


def test_error_of_a_scatter_and_of_take():
    # a scatter checks its indices before it writes, and raises itself;
    # a gather's error waits for the next synchronisation
    a = gp.zeros(8)
    with pytest.raises(IndexError, match="index 8 is out of bounds"):
        a[gp.asarray(np.array([3, 8]))] = 1.0
    assert a.get().tolist() == [0.0] * 8
    gp.take(a, [9])
    with pytest.raises(IndexError):
        a.get()
    assert gp.take(a, [9], mode="wrap").get().tolist() == [a.get()[1]]


def test_error_on_another_stream_is_not_lost():
    a = gp.arange(5.0)
    s = gp.cuda.Stream()
    with s:
        a[[7]]
    # the record is shared by the device's streams: a copy on the default
    # stream reports the error if s's kernel has run by then; if not, the
    # launch stays pending until s (or the device) is synchronised
    with pytest.raises(IndexError, match="index 7"):
        a.get()
        s.synchronize()
    s.synchronize()
    a.get()


def test_large_gather_and_scatter():
    n = 1 << 24
    x = np.random.default_rng(0).random(n, dtype=np.float32)
    idx = np.random.default_rng(1).integers(-n, n, n // 2)
    g = gp.asarray(x)
    gi = gp.asarray(idx)
    np.testing.assert_array_equal(g[gi].get(), x[idx])
    np.testing.assert_array_equal(gp.take(g, gi, mode="wrap").get(), x.take(idx, mode="wrap"))
    m = x > 0.5
    np.testing.assert_array_equal(g[g > 0.5].get(), x[m])
    u = np.unique(idx % n)
    y = x.copy()
    y[u] = -1
    g[gp.asarray(u)] = -1
    np.testing.assert_array_equal(g.get(), y)
    assert gp.count_nonzero(g > 0.5) == np.count_nonzero(y > 0.5)


def test_bad_index_far_away_does_not_fault():
    """An index far outside the buffer is never dereferenced."""
    a = gp.arange(10.0)
    a[gp.asarray(np.array([2**40, -2**50]))]
    with pytest.raises(IndexError):
        a.get()
