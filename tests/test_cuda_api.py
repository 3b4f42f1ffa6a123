"""gpunp.cuda's objects on every backend: devices, streams, events, the
runtime API. (What needs a real GPU is in tests/gpu/.)"""

import numpy as np
import pytest

import gpunp as gp
from gpunp import cuda
from gpunp.cuda import runtime


def test_device_basics():
    n = runtime.getDeviceCount()
    assert n >= 1
    d = cuda.Device()
    assert d.id == runtime.getDevice() == 0
    with cuda.Device(0) as dev:
        assert dev.id == 0
    d.synchronize()
    free, total = d.mem_info
    assert 0 < free <= total
    props = runtime.getDeviceProperties(0)
    assert props["totalGlobalMem"] > 0 and props["multiProcessorCount"] >= 1
    assert isinstance(d.compute_capability, str)
    with pytest.raises(ValueError):
        runtime.setDevice(n)
    with pytest.raises(ValueError):
        cuda.Device(n).use()


def test_streams_run_work_in_order():
    s = cuda.Stream(non_blocking=True)
    assert cuda.get_current_stream() == cuda.Stream.null
    with s:
        assert cuda.get_current_stream() == s
        a = gp.arange(1000, dtype=np.float32)
        b = (a * 2 + 1).sum()
    assert cuda.get_current_stream() == cuda.Stream.null
    s.synchronize()
    assert s.done
    assert b.item() == 1000.0 * 999 + 1000
    s2 = cuda.Stream(priority=0).use()
    try:
        assert cuda.get_current_stream() == s2
    finally:
        cuda.Stream.null.use()


def test_events_order_and_time():
    start, end = cuda.Event(), cuda.Event()
    s = cuda.Stream()
    start.record(s)
    with s:
        x = gp.ones(100000) * 3
    end.record(s)
    end.synchronize()
    assert end.done
    assert cuda.get_elapsed_time(start, end) >= 0
    assert start.elapsed_time(end) >= 0
    other = cuda.Stream()
    other.wait_event(end)
    with other:
        assert (x + 1).sum().item() == 400000
    untimed = cuda.Event(disable_timing=True)
    untimed.record()
    with pytest.raises(ValueError):
        cuda.get_elapsed_time(untimed, end)
    with pytest.raises(ValueError):
        cuda.get_elapsed_time(cuda.Event(), end)


def test_runtime_memory_calls():
    host = np.arange(16, dtype=np.float64)
    ptr = runtime.malloc(host.nbytes)
    runtime.memcpy(ptr, host.ctypes.data, host.nbytes, runtime.memcpyHostToDevice)
    back = np.empty_like(host)
    s = cuda.Stream()
    runtime.memcpyAsync(back.ctypes.data, ptr, host.nbytes, runtime.memcpyDeviceToHost, s)
    s.synchronize()
    np.testing.assert_array_equal(back, host)
    dev = gp.empty(16)
    runtime.memcpy(dev.data_ptr, ptr, host.nbytes, runtime.memcpyDeviceToDevice)
    np.testing.assert_array_equal(dev.get(), host)
    runtime.free(ptr)
    with pytest.raises(ValueError):
        runtime.free(ptr)
    runtime.deviceSynchronize()
    f, t = runtime.memGetInfo()
    assert 0 < f <= t


def test_memory_pool_api_exists_on_every_backend():
    pool = gp.get_default_memory_pool()
    assert pool is cuda.get_default_memory_pool()
    assert pool.used_bytes() >= 0 and pool.total_bytes() >= 0
    pool.free_all_blocks()
    assert pool.get_limit() == 0


def test_get_with_stream_and_out():
    a = gp.arange(10, dtype=np.int32)
    s = cuda.Stream()
    out = np.empty(10, np.int32)
    assert a.get(stream=s, out=out) is out
    np.testing.assert_array_equal(out, np.arange(10))
    np.testing.assert_array_equal(gp.asnumpy(a, stream=s), np.arange(10))
