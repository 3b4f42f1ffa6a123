"""Large .get() results (32 MiB and more) live in host blocks that are
reused once NumPy frees the array (csrc/memory/host.c): each result must
still be an ordinary, independent NumPy array for as long as anything
refers to it."""

import gc

import numpy as np

import gpunp as gp
from gpunp import cuda

BIG = (4 << 20) + 3  # float64 elements: 32 MiB and a little


def test_results_are_independent_writable_arrays():
    x = np.random.default_rng(0).random(BIG)
    g = gp.asarray(x)
    first = g.get()
    assert first.flags.writeable and first.flags.c_contiguous
    first[:10] = -1.0
    second = g.get()  # may not share first's memory while first lives
    assert not np.shares_memory(first, second)
    np.testing.assert_array_equal(second, x)
    np.testing.assert_array_equal(first[10:], x[10:])


def test_a_view_keeps_its_block_from_being_reused():
    x = np.arange(BIG, dtype=np.float64)
    g = gp.asarray(x)
    tail = g.get()[BIG // 2:]  # the full result is gone, its view is not
    gc.collect()
    for _ in range(3):
        again = (g + 1.0).get()
        np.testing.assert_array_equal(again, x + 1.0)
        del again
    np.testing.assert_array_equal(tail, x[BIG // 2:])


def test_orders_dtypes_and_repeats():
    rng = np.random.default_rng(1)
    for dt, shape in ((np.float32, (4096, 2049)), (np.int16, (1 << 24) + 1),
                      (np.complex128, (2 << 20) + 5)):
        x = rng.integers(-100, 100, shape).astype(dt)
        g = gp.asarray(x)
        for _ in range(3):
            np.testing.assert_array_equal(g.get(), x)
        if x.ndim == 2:
            f = g.T.get(order="F")
            assert f.flags.f_contiguous
            np.testing.assert_array_equal(f, x.T)
            np.testing.assert_array_equal(gp.asnumpy(g), x)


def test_free_host_blocks_releases_the_cache():
    g = gp.zeros(BIG)
    g.get()
    gc.collect()
    assert cuda.free_host_blocks() > 0
    assert cuda.free_host_blocks() == 0
    np.testing.assert_array_equal(g.get(), np.zeros(BIG))
