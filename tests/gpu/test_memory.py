"""The device memory pool: statistics, limits, out-of-memory, no growth."""

import gc

import numpy as np
import pytest

import gpunp as gp
from gpunp import cuda


@pytest.fixture
def pool():
    p = gp.get_default_memory_pool()
    gc.collect()
    p.free_all_blocks()
    yield p
    p.set_limit(0)
    gc.collect()
    p.free_all_blocks()


def test_used_and_total_bytes_follow_arrays(pool):
    base_used, base_total = pool.used_bytes(), pool.total_bytes()
    a = gp.empty(1 << 20, dtype=np.float32)  # 4 MiB
    assert pool.used_bytes() >= base_used + 4 * (1 << 20)
    assert pool.total_bytes() >= pool.used_bytes()
    del a
    gc.collect()
    assert pool.used_bytes() == base_used
    assert pool.total_bytes() >= base_total + 4 * (1 << 20)  # cached, not freed
    assert pool.n_free_blocks() >= 1
    b = gp.empty(1 << 20, dtype=np.float32)  # served from the cache
    assert pool.total_bytes() == base_total + 4 * (1 << 20) or pool.total_bytes() >= base_total
    del b
    gc.collect()
    pool.free_all_blocks()
    assert pool.total_bytes() == pool.used_bytes()


def test_limit_raises_out_of_memory_error(pool):
    pool.set_limit(size=64 << 20)
    assert pool.get_limit() == 64 << 20
    keep = gp.empty(16 << 20, dtype=np.uint8)
    with pytest.raises(cuda.OutOfMemoryError) as err:
        gp.empty(128 << 20, dtype=np.uint8)
    assert isinstance(err.value, MemoryError)
    assert str(128 << 20) in str(err.value)
    del keep
    pool.set_limit(0)
    assert gp.empty(128 << 20, dtype=np.uint8).nbytes == 128 << 20


def test_an_impossible_allocation_is_a_clean_error(pool):
    total = cuda.Device().mem_info[1]
    with pytest.raises(cuda.OutOfMemoryError) as err:
        gp.empty(total * 4, dtype=np.uint8)
    assert "Out of memory allocating" in str(err.value)
    x = gp.arange(10) + 1  # the device still works
    assert x.sum().item() == 55


def test_no_memory_growth_over_ten_thousand_iterations(pool):
    """A mixed workload (elementwise, broadcast, reductions, casts, views,
    transfers) holds steady once the pool is warm."""
    rng = np.random.default_rng(0)
    host = rng.random((64, 33)).astype(np.float32)
    a = gp.asarray(host)

    def step(i):
        b = (a * 1.5 + i).astype(np.float64)
        c = gp.exp(b[:, ::2]).sum(axis=0)
        d = (a.T @ a)[:3]
        e = gp.asarray(host[i % 64]) - a[i % 64]
        return float(c[0].item()) + float(d.sum().item()) + float(e.max().item())

    for i in range(200):
        step(i)
    gc.collect()
    cuda.Device().synchronize()
    used0, total0 = pool.used_bytes(), pool.total_bytes()
    for i in range(10_000):
        step(i)
    gc.collect()
    cuda.Device().synchronize()
    assert pool.used_bytes() == used0
    assert pool.total_bytes() == total0


def test_small_zeros_are_zero_whatever_their_memory_held(pool):
    """Small zeros are pieces of a slab one memset zeroed (memory.c): each
    is zero on the default stream and on others, however the pieces and
    blocks before it were written, and keeps its values while others come
    and go."""
    streams = (cuda.Stream.null, cuda.Stream(non_blocking=True), cuda.Stream())
    kept = []
    for i in range(400):
        with streams[i % 3]:
            n = 1 + (i * 37) % 4100  # up to 16400 bytes: past the largest piece too
            z = gp.zeros(n, np.float32)
            assert not z.get().any(), (i, n)
            z += i + 1  # written before it goes back
            if i % 9 == 0:
                kept.append((i + 1, z))
    for v, z in kept:
        np.testing.assert_array_equal(z.get(), np.full(z.size, v, np.float32))


def test_zeros_in_a_graph_are_zeroed_at_every_replay():
    s = cuda.Stream(non_blocking=True)
    with s:
        a = gp.ones(100, np.float32)
        z = gp.zeros(100, np.float32)
        z += a
        out = z * 1  # kernels compiled before the capture
        s.begin_capture()
        z = gp.zeros(100, np.float32)
        z += a
        out = z * 1
        g = s.end_capture()
        for _ in range(3):
            g.launch(s)
    s.synchronize()
    np.testing.assert_array_equal(out.get(), np.ones(100, np.float32))
