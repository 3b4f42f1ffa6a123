"""gpunp.cuda's memory control and runtime API on the GPU: page-locked
pools and asynchronous copies on two streams, users' allocators serving
device memory, managed memory, the driver's stream-ordered pool, host
functions ordered after device work, external streams, the driver's
runtime calls. (tests/gpu/conftest.py skips them without a GPU backend.)"""

import gc
import threading
import weakref

import numpy as np
import pytest

import gpunp as gp
import gpunp.x as gx
from gpunp import cuda
from gpunp.cuda import runtime


def test_pinned_async_copies_on_two_streams():
    n = 1 << 22
    ref = [np.random.default_rng(i).standard_normal(n).astype(np.float32) for i in range(2)]
    streams = [cuda.Stream(non_blocking=True) for _ in range(2)]
    dev = [gp.empty(n, np.float32) for _ in range(2)]
    outs = [gx.empty_pinned(n, np.float32) for _ in range(2)]
    for r, s, d in zip(ref, streams, dev):
        d.set(r, stream=s)
    for s, d, o in zip(streams, dev, outs):
        with s:
            d *= 2
        assert d.get(stream=s, out=o, blocking=False) is o
    for s in streams:
        s.synchronize()
    for r, o in zip(ref, outs):
        np.testing.assert_array_equal(o, r * 2)


def test_pinned_pool_blocks_wait_for_their_copies():
    pool = cuda.PinnedMemoryPool()
    cuda.set_pinned_memory_allocator(pool.malloc)
    try:
        s = cuda.Stream(non_blocking=True)
        a = gp.zeros(1 << 24, np.float32)
        host = np.full(1 << 24, 3, np.float32)
        with s:
            for _ in range(20):  # queued work the staged copy waits behind
                a += 1
        a.set(host, stream=s)
        gc.collect()
        blk = pool.malloc(host.nbytes)  # not the staging block while its copy may run
        s.synchronize()
        np.testing.assert_array_equal(a.get(), host)
        del blk
    finally:
        cuda.set_pinned_memory_allocator(gp.get_default_pinned_memory_pool().malloc)


def test_allocator_serves_device_memory():
    log, freed = [], []

    class Holder:  # another library's allocation
        pass

    def logged(size):
        log.append(size)
        h = Holder()
        h.p = cuda.malloc_managed(size)
        weakref.finalize(h, freed.append, size)
        return cuda.MemoryPointer(cuda.UnownedMemory(h.p.ptr, size, h), 0)

    with cuda.using_allocator(logged):
        x = gp.arange(1000, dtype=np.float64)
        y = (x * x).sum()
        assert float(y) == float((np.arange(1000.0) ** 2).sum())
        del x, y
        gc.collect()
    assert log and sorted(freed) == sorted(log)
    assert not cuda.memory._live


def test_allocator_exception_on_gpu():
    def refuse(size):
        raise MemoryError(f"refused {size}")

    with cuda.using_allocator(refuse):
        with pytest.raises(MemoryError, match="refused 4000"):
            gp.empty(1000, np.float32)
    assert gp.ones(3).sum().item() == 3


def test_managed_memory_is_host_addressable():
    cuda.set_allocator(cuda.malloc_managed)
    try:
        x = gp.arange(16, dtype=np.int32) * 3
        cuda.Device().synchronize()
        host = np.frombuffer(gp._lib.ffi.buffer(gp._lib.ffi.cast("char *", x.data.ptr), 64),
                             np.int32)
        np.testing.assert_array_equal(host, np.arange(16) * 3)
        del x, host
    finally:
        cuda.set_allocator(cuda.get_default_memory_pool().malloc)


def test_async_pool():
    pool = cuda.MemoryAsyncPool()
    s = cuda.Stream(non_blocking=True)
    with s, cuda.using_allocator(pool.malloc):
        x = gp.arange(1 << 20, dtype=np.float32)
        total = float(x.sum())
        assert pool.used_bytes() >= x.nbytes
    assert np.isclose(total, float(np.arange(1 << 20, dtype=np.float64).sum()), rtol=1e-6)
    del x
    gc.collect()
    assert pool.used_bytes() == 0
    p = runtime.mallocAsync(1024, s)
    runtime.memsetAsync(p, 7, 1024, s)
    host = np.empty(1024, np.uint8)
    runtime.memcpyAsync(host.ctypes.data, p, 1024, runtime.memcpyDeviceToHost, s)
    runtime.freeAsync(p, s)
    s.synchronize()
    assert (host == 7).all()


def test_host_func_runs_after_the_work_before_it():
    s = cuda.Stream(non_blocking=True)
    x = gp.zeros(1 << 24, np.float32)
    ran = threading.Event()
    order = []
    with s:
        for _ in range(30):
            x += 1
    s.launch_host_func(lambda arg: (order.append(arg), ran.set()), "after")
    order.append("queued")
    s.synchronize()
    assert ran.is_set() and set(order) == {"queued", "after"}
    assert x[0].item() == 30


def test_external_stream_and_ptds():
    s = cuda.Stream(non_blocking=True)
    ext = cuda.ExternalStream(s.ptr)
    assert ext.ptr == s.ptr != 0
    with ext:
        y = gp.arange(100) + 1
    ext.synchronize()
    del ext  # s lives on
    s.synchronize()
    np.testing.assert_array_equal(y.get(), np.arange(1, 101))
    assert cuda.Stream.ptds.ptr == 2
    with cuda.Stream.ptds:
        np.testing.assert_array_equal((y * 2).get(), np.arange(1, 101) * 2)


def test_runtime_calls_on_the_driver():
    v = runtime.driverGetVersion()
    assert v >= 11000
    assert runtime.runtimeGetVersion() >= 11000  # NVRTC's version
    assert runtime.is_hip is False
    host = np.arange(1 << 16, dtype=np.uint8)
    runtime.hostRegister(host.ctypes.data, host.nbytes, runtime.hostRegisterDefault)
    try:
        a = gp.empty(host.shape, np.uint8)
        s = cuda.Stream()
        runtime.memcpyAsync(a.data.ptr, host.ctypes.data, host.nbytes,
                            runtime.memcpyHostToDevice, s)
        s.synchronize()
        np.testing.assert_array_equal(a.get(), host)
    finally:
        runtime.hostUnregister(host.ctypes.data)
    p = runtime.hostAlloc(4096, runtime.hostAllocPortable)
    runtime.freeHost(p)
    m = runtime.mallocManaged(256)
    runtime.memset(m, 5, 256)
    assert np.frombuffer(gp._lib.ffi.buffer(gp._lib.ffi.cast("char *", m), 256),
                         np.uint8).tolist() == [5] * 256
    runtime.free(m)


def test_pointer_attributes():
    a = gp.arange(10)
    at = runtime.pointerGetAttributes(a.data.ptr)
    assert (at.type, at.device, at.devicePointer) == (runtime.memoryTypeDevice, 0, a.data.ptr)
    pinned = cuda.alloc_pinned_memory(64)
    assert runtime.pointerGetAttributes(pinned.ptr).type == runtime.memoryTypeHost
    m = cuda.malloc_managed(64)
    assert runtime.pointerGetAttributes(m.ptr).type == runtime.memoryTypeManaged
    host = np.zeros(8)
    assert runtime.pointerGetAttributes(host.ctypes.data).type == runtime.memoryTypeUnregistered
    assert runtime.deviceCanAccessPeer(0, 0) in (0, 1)


_CHILD = """
import sys
import numpy as np
import gpunp as gp
from gpunp.cuda import runtime
mem, ev = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2])
e = runtime.ipcOpenEventHandle(ev)
e.synchronize()
p = runtime.ipcOpenMemHandle(mem)
host = np.empty(16, np.float64)
runtime.memcpy(host.ctypes.data, p, host.nbytes, runtime.memcpyDeviceToHost)
runtime.ipcCloseMemHandle(p)
print(",".join(str(int(v)) for v in host))
"""


def test_ipc_handles_across_processes():
    import os
    import subprocess
    import sys

    a = gp.arange(16, dtype=np.float64) * 3
    e = cuda.Event(disable_timing=True, interprocess=True)
    e.record()
    mem, ev = runtime.ipcGetMemHandle(a.data.ptr), runtime.ipcGetEventHandle(e)
    assert len(mem) == len(ev) == 64
    # the child imports the gpunp under test: the source tree's here, an
    # installed one on the GPU machine (whose tree has no engine built)
    root = os.path.dirname(os.path.dirname(os.path.abspath(gp.__file__)))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", _CHILD, mem.hex(), ev.hex()], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    # the handle names the pool's block, a driver allocation the array starts
    assert [int(v) for v in out.stdout.strip().split(",")] == list(range(0, 48, 3))
