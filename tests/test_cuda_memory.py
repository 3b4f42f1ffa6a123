"""gpunp.cuda's memory control and runtime API as CuPy users reach for them:
pinned memory pools and arrays, asynchronous get/set through them, users'
allocators (the engine calling back into Python), memory hooks, managed
memory, external streams, host functions and the runtime calls. Written for
any backend; the few answers that differ on the host backend (no driver,
no page-locking) are asserted there only."""

import gc
import io
import json
import threading
import weakref

import numpy
import pytest

import gpunp
import gpunp.x
from gpunp import cuda
from gpunp.cuda import memory_hook, memory_hooks, runtime

HOST = gpunp.backend() == "host"


# ---- pinned memory --------------------------------------------------------------


def test_pinned_pool_stats_reuse_and_free_all():
    pool = cuda.PinnedMemoryPool()
    p = pool.malloc(1000)
    assert isinstance(p, cuda.PinnedMemoryPointer) and p.size == 1000
    assert (pool.used_bytes(), pool.total_bytes(), pool.n_free_blocks()) == (1024, 1024, 0)
    addr = p.ptr
    del p
    gc.collect()
    assert (pool.used_bytes(), pool.total_bytes(), pool.n_free_blocks()) == (0, 1024, 1)
    q = pool.malloc(1024)  # the same rounded size: the same block
    assert q.ptr == addr and pool.n_free_blocks() == 0
    r = pool.malloc(5000)
    assert pool.total_bytes() == 1024 + 5120 and pool.used_bytes() == 1024 + 5120
    del r
    gc.collect()
    assert pool.free_bytes() == 5120
    pool.free_all_blocks()
    assert (pool.used_bytes(), pool.total_bytes(), pool.n_free_blocks()) == (1024, 1024, 0)
    with pytest.raises(ValueError):
        pool.malloc(-1)


def test_pinned_pool_limit():
    pool = cuda.PinnedMemoryPool()
    pool.set_limit(2048)
    assert pool.get_limit() == 2048
    a, b = pool.malloc(1024), pool.malloc(1000)
    with pytest.raises(MemoryError, match="limit"):
        pool.malloc(1)
    del a
    gc.collect()
    c = pool.malloc(512)  # the idle 1024-byte block is freed to make room
    assert pool.total_bytes() == 1024 + 512 and pool.n_free_blocks() == 0
    pool.set_limit(None)
    d = pool.malloc(1 << 20)
    assert pool.get_limit() == 0 and pool.used_bytes() == 1024 + 512 + (1 << 20)
    with pytest.raises(ValueError):
        pool.set_limit(-5)
    del b, c, d


def test_pinned_memory_is_a_buffer_kept_alive_by_its_views():
    p = cuda.alloc_pinned_memory(64)
    view = numpy.frombuffer(p.buffer(), numpy.int64)
    view[:] = numpy.arange(8)
    q = p + 16
    assert q.ptr == p.ptr + 16 and int(q) == q.ptr and q.size == 48 and (q - 16).ptr == p.ptr
    assert numpy.frombuffer(q.buffer(), numpy.int64).tolist() == list(range(2, 8))
    del p, q
    gc.collect()
    assert view.tolist() == list(range(8))  # the view holds the memory


def test_set_pinned_memory_allocator():
    default = gpunp.get_default_pinned_memory_pool()
    assert default is cuda.get_default_pinned_memory_pool()
    mine = cuda.PinnedMemoryPool()
    try:
        cuda.set_pinned_memory_allocator(mine.malloc)
        p = cuda.alloc_pinned_memory(100)
        assert mine.used_bytes() == 512
        cuda.set_pinned_memory_allocator(None)  # straight from the driver: no pool
        used = default.used_bytes()
        q = cuda.alloc_pinned_memory(100)
        assert default.used_bytes() == used and mine.used_bytes() == 512
        numpy.frombuffer(q.buffer(), numpy.uint8)[:] = 7
        del p, q
    finally:
        cuda.set_pinned_memory_allocator(default.malloc)
    with pytest.raises(TypeError):
        cuda.set_pinned_memory_allocator(3)


@pytest.mark.parametrize("maker", ["empty", "zeros", "empty_like", "zeros_like"])
def test_pinned_arrays(maker):
    ref = numpy.arange(24, dtype=numpy.float32).reshape(4, 6)
    if maker.endswith("like"):
        a = getattr(gpunp.x, maker + "_pinned")(numpy.asfortranarray(ref))
        assert a.flags.f_contiguous
    else:
        a = getattr(gpunp.x, maker + "_pinned")((4, 6), numpy.float32, order="F")
        assert a.flags.f_contiguous
    assert a.shape == (4, 6) and a.dtype == numpy.float32 and a.flags.writeable
    if maker.startswith("zeros"):
        assert not a.any()
    a[...] = ref
    numpy.testing.assert_array_equal(a, ref)
    assert gpunp.x.zeros_pinned(5, "i2").tolist() == [0] * 5
    assert gpunp.x.empty_pinned((0, 3)).shape == (0, 3)
    with pytest.raises(ValueError):
        gpunp.x.empty_pinned((-1, 2))


# ---- asynchronous copies through pinned memory ------------------------------


def test_get_non_blocking_round_trips():
    ref = numpy.linspace(-3, 7, 60).reshape(6, 10)
    a = gpunp.asarray(ref)
    s = cuda.Stream(non_blocking=True)
    h = a.get(stream=s, blocking=False)
    s.synchronize()
    numpy.testing.assert_array_equal(h, ref)
    f = gpunp.asfortranarray(a)
    out = gpunp.x.empty_pinned(ref.shape, order="F")
    assert f.get(stream=s, order="F", out=out, blocking=False) is out
    s.synchronize()
    numpy.testing.assert_array_equal(out, ref)
    # a view that is not contiguous takes the blocking path, with the same answer
    numpy.testing.assert_array_equal(a[:, ::3].get(blocking=False), ref[:, ::3])
    numpy.testing.assert_array_equal(gpunp.asnumpy(a[1:], stream=s, blocking=False), ref[1:])
    s.synchronize()
    assert gpunp.asarray(numpy.zeros((0, 4))).get(blocking=False).shape == (0, 4)


def test_set_on_a_stream_stages_through_the_pool():
    pool = gpunp.get_default_pinned_memory_pool()
    s = cuda.Stream()
    ref = numpy.arange(1000, dtype=numpy.int32).reshape(10, 100)
    a = gpunp.empty((10, 100), numpy.int32)
    src = ref.copy()
    a.set(src, stream=s)
    src[:] = -1  # the caller may reuse its array at once
    s.synchronize()
    numpy.testing.assert_array_equal(a.get(), ref)
    gc.collect()
    idle = pool.n_free_blocks()
    assert idle >= 1  # the staging block went back to the pool
    f = gpunp.empty((10, 100), numpy.int32, order="F")
    f.set(numpy.asfortranarray(ref * 3), stream=s)
    s.synchronize()
    numpy.testing.assert_array_equal(f.get(), ref * 3)
    with pytest.raises(ValueError):
        a.set(numpy.zeros((3, 3), numpy.int32), stream=s)


# ---- allocators ---------------------------------------------------------------------


class _Owner:
    """Host memory standing in for another library's allocation."""


def _counting_allocator(log, freed):
    def malloc(size):
        o = _Owner()
        o.buf = numpy.empty(max(size, 1), numpy.uint8)
        log.append(size)
        weakref.finalize(o, freed.append, size)
        return cuda.MemoryPointer(cuda.UnownedMemory(o.buf.ctypes.data, size, o), 0)
    return malloc


@pytest.mark.skipif(not HOST, reason="the allocator gives host memory: the host backend's")
def test_set_allocator_serves_arrays_and_frees_each_once():
    log, freed = [], []
    cuda.set_allocator(_counting_allocator(log, freed))
    try:
        ref = numpy.arange(50.0)
        x = gpunp.asarray(ref)
        y = (x * 2 + 1).sum()
        assert float(y) == (ref * 2 + 1).sum()
        assert log and len(cuda.memory._live) >= 1
        del x, y
        gc.collect()
    finally:
        cuda.set_allocator(cuda.get_default_memory_pool().malloc)
    assert sorted(freed) == sorted(log)  # every allocation released, once
    assert not cuda.memory._live
    n = len(log)
    gpunp.ones(10)  # the pool again: Python is not called
    assert len(log) == n and cuda.get_allocator().__func__ is cuda.MemoryPool.malloc


class _Refused(Exception):
    pass


def test_allocator_exceptions_propagate():
    def refuse(size):
        raise _Refused(f"no {size} bytes")

    with cuda.using_allocator(refuse):
        with pytest.raises(_Refused, match="no 40 bytes"):
            gpunp.ones(5)
        with pytest.raises(_Refused):
            gpunp.zeros((2, 3))
    with cuda.using_allocator(lambda size: None):
        with pytest.raises(TypeError):
            gpunp.ones(3)
    assert not cuda.memory._live and cuda.memory._nested == 0
    numpy.testing.assert_array_equal(gpunp.ones(3).get(), numpy.ones(3))
    with pytest.raises(TypeError):
        cuda.set_allocator(5)


def test_using_allocator_is_per_thread_and_nests():
    calls = []

    def pool_logged(size):
        calls.append((threading.get_ident(), size))
        return cuda.get_default_memory_pool().malloc(size)

    seen_elsewhere = []

    def other():
        seen_elsewhere.append(gpunp.arange(4.0).sum().get())

    with cuda.using_allocator(pool_logged):
        a = gpunp.arange(6.0)
        t = threading.Thread(target=other)
        t.start()
        t.join()
        with cuda.using_allocator(cuda.malloc_managed):
            b = gpunp.ones(3)
        c = gpunp.zeros(2)
    assert {tid for tid, _ in calls} == {threading.get_ident()}
    assert [s for _, s in calls] == [48, 16]  # a and c, not b (managed), not the thread's
    assert seen_elsewhere == [6.0]
    numpy.testing.assert_array_equal((a[:3] + b).get(), numpy.arange(3.0) + 1)
    assert c.get().tolist() == [0, 0]
    del a, b, c
    gc.collect()
    assert not cuda.memory._live


def test_set_allocator_none_managed_and_pool_malloc():
    try:
        cuda.set_allocator(None)  # the driver each time, no pool
        numpy.testing.assert_array_equal((gpunp.arange(5) * 3).get(), numpy.arange(5) * 3)
        cuda.set_allocator(cuda.malloc_managed)
        x = gpunp.asarray(numpy.eye(3))
        numpy.testing.assert_array_equal((x @ x).get(), numpy.eye(3))
        del x
    finally:
        cuda.set_allocator(cuda.get_default_memory_pool().malloc)
    gc.collect()
    assert not cuda.memory._live
    p = cuda.MemoryPool().malloc(256)
    assert isinstance(p, cuda.MemoryPointer) and p.mem.size == 256 and p.ptr
    m = cuda.malloc_managed(64)
    runtime.memset(m.ptr, 3, 64)
    host = numpy.empty(64, numpy.uint8)
    m.copy_to_host(host.ctypes.data, 64)
    assert (host == 3).all()
    s = cuda.Stream()
    pinned = cuda.alloc_pinned_memory(64)
    (p + 8).memset_async(9, 16, s)
    p.memset(1, 8)
    p.copy_to_host_async(pinned, 24, s)
    s.synchronize()
    assert numpy.frombuffer(pinned.buffer(), numpy.uint8)[:24].tolist() == [1] * 8 + [9] * 16
    numpy.frombuffer(pinned.buffer(), numpy.uint8)[:] = 5
    m.copy_from_host_async(pinned, 64, s)
    p.copy_from_device_async(m, 64, s)
    s.synchronize()
    p.copy_to_host(host.ctypes.data, 64)
    assert (host == 5).all()


@pytest.mark.skipif(not HOST, reason="the host backend has no stream-ordered pool")
def test_async_pool_names_the_backend():
    with pytest.raises(RuntimeError, match="host backend"):
        cuda.MemoryAsyncPool().malloc(16)
    with pytest.raises(RuntimeError, match="host backend"):
        runtime.mallocAsync(16)


# ---- memory hooks -------------------------------------------------------------------


def test_debug_print_hook():
    out = io.StringIO()
    with memory_hooks.DebugPrintHook(file=out) as hook:
        assert memory_hook.get_memory_hooks() == {"DebugPrintHook": hook}
        x = gpunp.ones(6)
        ptr = x.data.ptr
        del x
        gc.collect()
    assert memory_hook.get_memory_hooks() == {} and cuda.memory._nested == 0
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["hook"] for r in records] == ["malloc", "free"]
    assert records[0]["size"] == 48 and records[0]["mem_ptr"] == ptr == records[1]["mem_ptr"]
    assert records[0]["pmem_id"] == records[1]["pmem_id"] and records[0]["device_id"] == 0


def test_hook_calls_and_names():
    seen = []

    class Recorder(memory_hook.MemoryHook):
        name = "recorder"

        def malloc_preprocess(self, **kw):
            seen.append(("malloc_pre", kw["size"]))

        def malloc_postprocess(self, **kw):
            seen.append(("malloc_post", kw["size"]))

        def free_preprocess(self, **kw):
            seen.append(("free_pre", kw["mem_size"]))

        def free_postprocess(self, **kw):
            seen.append(("free_post", kw["mem_size"]))

    with Recorder():
        with pytest.raises(KeyError):
            with Recorder():
                pass
        y = gpunp.zeros(3, numpy.int32)
        del y
        gc.collect()
    assert seen == [("malloc_pre", 12), ("malloc_post", 12), ("free_pre", 12),
                    ("free_post", 12)]


def test_line_profile_hook():
    hook = memory_hooks.LineProfileHook()
    with hook:
        keep = [gpunp.empty(100), gpunp.empty(28)]
    out = io.StringIO()
    hook.print_report(file=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "_root (1.00KB)"
    assert any("test_cuda_memory.py" in ln and "test_line_profile_hook" in ln
               and ln.endswith("(1.00KB)") for ln in lines)
    assert not any(memory_hooks._PACKAGE in ln for ln in lines)  # gpunp's frames left out
    del keep


# ---- streams and the runtime ----------------------------------------------------------


def test_launch_host_func_and_streams():
    got = []
    s = cuda.Stream()
    x = gpunp.arange(10)
    s.launch_host_func(got.append, "done")
    runtime.launchHostFunc(None, got.append, 7)
    s.synchronize()
    cuda.Stream.null.synchronize()
    assert got == ["done", 7]
    with pytest.raises(TypeError):
        s.launch_host_func(3, None)
    assert isinstance(s.ptr, int) and cuda.Stream.null.ptr == 0
    e = cuda.ExternalStream(s.ptr)
    with e:
        y = x * 2
    e.synchronize()
    numpy.testing.assert_array_equal(y.get(), numpy.arange(10) * 2)
    del e  # the wrapped stream stays usable
    with s:
        numpy.testing.assert_array_equal((x + 1).get(), numpy.arange(1, 11))
    with cuda.Stream.ptds:
        numpy.testing.assert_array_equal((x - 1).get(), numpy.arange(-1, 9))
    assert cuda.Stream.ptds is cuda.Stream.ptds
    cuda.Stream(ptds=True).synchronize()


def test_runtime_memory_calls():
    n = 256
    p = runtime.malloc(n)
    runtime.memset(p, 0xAB, n)
    s = cuda.Stream()
    runtime.memsetAsync(p + 8, 1, 16, s)
    s.synchronize()
    host = numpy.empty(n, numpy.uint8)
    runtime.memcpy(host.ctypes.data, p, n, runtime.memcpyDeviceToHost)
    ref = numpy.full(n, 0xAB, numpy.uint8)
    ref[8:24] = 1
    numpy.testing.assert_array_equal(host, ref)
    runtime.free(p)
    h = runtime.hostAlloc(64, runtime.hostAllocPortable)
    buf = numpy.frombuffer(gpunp._lib.ffi.buffer(gpunp._lib.ffi.cast("char *", h), 64),
                           numpy.uint8)
    buf[:] = numpy.arange(64)
    assert int(buf.sum()) == sum(range(64))
    runtime.freeHost(h)
    m = runtime.mallocManaged(32)
    runtime.memset(m, 9, 32)
    runtime.free(m)
    assert runtime.is_hip == (gpunp.backend() == "hip")
    assert runtime.streamPerThread == 2 and runtime.eventInterprocess == 4


@pytest.mark.skipif(not HOST, reason="what the host backend cannot do")
def test_host_backend_refuses_what_it_cannot_do():
    arr = numpy.zeros(1024, numpy.uint8)
    for call in (lambda: runtime.hostRegister(arr.ctypes.data, arr.nbytes),
                 lambda: runtime.hostUnregister(arr.ctypes.data),
                 runtime.driverGetVersion, runtime.runtimeGetVersion):
        with pytest.raises(RuntimeError, match="host backend"):
            call()


@pytest.mark.skipif(not HOST, reason="what the host backend cannot do")
def test_host_backend_has_no_peers_ipc_or_pointer_attributes():
    p = runtime.malloc(64)
    calls = (lambda: runtime.deviceCanAccessPeer(0, 0),
             lambda: runtime.deviceEnablePeerAccess(0),
             lambda: runtime.ipcGetMemHandle(p),
             lambda: runtime.ipcOpenMemHandle(bytes(64)),
             lambda: runtime.pointerGetAttributes(p),
             lambda: cuda.Event(disable_timing=True, interprocess=True))
    for call in calls:
        with pytest.raises(RuntimeError, match="host backend"):
            call()
    runtime.free(p)
    with pytest.raises(ValueError, match="64 bytes"):
        runtime.ipcOpenMemHandle(b"short")
    with pytest.raises(ValueError, match="disable_timing"):
        cuda.Event(interprocess=True)
