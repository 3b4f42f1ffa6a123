"""CuPy's idioms, kernel options and profiling on a GPU (issue 43's items
1, 4 and 5): memory pointers against __cuda_array_interface__, loop_prep
and after_loop run per GPU thread, several-input reductions of the
block-per-output path, streams for set/get, the profiler calls."""

import numpy as np

import gpunp as gp
import gpunp.x as gx
from gpunp import profiler


def test_data_pointer_is_the_device_address():
    a = gp.arange(1000, dtype=np.float32)[10:]
    p = a.data
    assert p.ptr == a.__cuda_array_interface__["data"][0] == a.data_ptr
    assert p.mem.size >= a.nbytes + 40 and p.ptr - p.mem.ptr == 40
    host = np.empty(990, np.float32)
    p.copy_to_host(host.ctypes.data, host.nbytes)
    np.testing.assert_array_equal(host, np.arange(10, 1000, dtype=np.float32))


def test_loop_prep_and_after_loop_run_per_thread():
    k = gp.ElementwiseKernel(
        "T x", "T y, raw uint64 threads, raw uint64 elems",
        "y = x * 2 + zero; ++mine", "per_thread",
        loop_prep="T zero = 0; unsigned long long mine = 0",
        after_loop="if (mine) { atomicAdd((unsigned long long *)&threads[0], 1ull); "
                   "atomicAdd((unsigned long long *)&elems[0], mine); }")
    n = 1 << 20
    x = gp.arange(n, dtype=np.float64)
    threads, elems = gp.zeros(1, np.uint64), gp.zeros(1, np.uint64)
    y, _, _ = k(x, gp.empty(n), threads, elems)
    np.testing.assert_array_equal(y.get(), np.arange(n) * 2.0)
    assert int(elems[0]) == n and 1 < int(threads[0]) <= n


def test_reduction_of_several_inputs_on_the_device():
    k = gp.ReductionKernel("T x, T w", "T s, T m", "x * w", "a + b", "s = a; m = a / 2", "0",
                           "wdot", reduce_type=np.float64)
    rng = np.random.default_rng(0)
    x = rng.random((64, 100_000))
    w = rng.random(100_000)
    s, m = k(gp.asarray(x), gp.asarray(w), axis=1)
    np.testing.assert_allclose(s.get(), (x * w).sum(axis=1), rtol=1e-12)
    np.testing.assert_allclose(m.get(), (x * w).sum(axis=1) / 2, rtol=1e-12)


def test_set_and_get_on_two_streams_and_scatter():
    s1, s2 = gp.cuda.Stream(non_blocking=True), gp.cuda.Stream(non_blocking=True)
    h = np.arange(1 << 20, dtype=np.float32)
    a, b = gp.empty_like(gp.asarray(h)), gp.empty_like(gp.asarray(h))
    a.set(h, stream=s1)
    b.set(h * 2, stream=s2)
    ra = a.get(stream=s1, blocking=False)
    rb = gp.asnumpy(b, stream=s2, blocking=False)
    s1.synchronize()
    s2.synchronize()
    np.testing.assert_array_equal(ra, h)
    np.testing.assert_array_equal(rb, h * 2)
    idx = np.random.default_rng(1).integers(0, 100, size=100_000)
    acc = gp.zeros(100)
    gx.scatter_add(acc, gp.asarray(idx), 1.0)
    np.testing.assert_array_equal(acc.get(), np.bincount(idx, minlength=100))


def test_profiler_on_the_device():
    x = gp.ones(1 << 24, np.float32)
    r = profiler.benchmark(lambda: x * 2, n_repeat=5, n_warmup=1)
    assert (r.gpu_times > 0).all() and "GPU-0" in str(r)
    with profiler.profile():
        with profiler.time_range("scale", color_id=1, sync=True):
            y = x * 3
    assert float(y[0]) == 3.0
