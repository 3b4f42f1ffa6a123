"""``gpunp.cuda``: devices, streams, events, the memory pool and the runtime
API, as CuPy's ``cupy.cuda`` offers them. On the host backend the same
objects exist: work is done when a call returns, so streams and events are
trivially complete."""

from __future__ import annotations

from gpunp._config import backend
from gpunp._lib import OutOfMemoryError, check, ffi, lib
from gpunp.cuda import runtime
from gpunp.cuda import memory_hook, memory_hooks  # noqa: F401 - CuPy's submodules
from gpunp.cuda.memory import (
    Memory, MemoryAsyncPool, MemoryPointer, UnownedMemory, get_allocator, malloc_async,
    malloc_managed, set_allocator, using_allocator)
from gpunp.cuda.pinned_memory import (
    PinnedMemory, PinnedMemoryPointer, PinnedMemoryPool, PoolStats, alloc_pinned_memory,
    get_default_pinned_memory_pool, set_pinned_memory_allocator)
from gpunp.cuda.stream import (  # noqa: F401 - Graph: what end_capture() gives
    Event, ExternalStream, Graph, Stream, get_current_stream, get_elapsed_time)

__all__ = ["Device", "Stream", "ExternalStream", "Event", "OutOfMemoryError", "MemoryPool",
           "runtime", "get_current_stream", "get_elapsed_time", "get_default_memory_pool",
           "is_available", "get_device_id", "Memory", "MemoryPointer", "UnownedMemory",
           "MemoryAsyncPool", "malloc_managed", "malloc_async", "set_allocator",
           "get_allocator", "using_allocator", "PinnedMemory", "PinnedMemoryPointer",
           "PinnedMemoryPool", "alloc_pinned_memory", "get_default_pinned_memory_pool",
           "set_pinned_memory_allocator", "memory_hook", "memory_hooks"]


def is_available() -> bool:
    """Whether a CUDA GPU runs gpunp in this process."""
    try:
        return backend() == "cuda"
    except Exception:
        return False


_BACKEND_NAMES = {"cuda": "CUDA", "hip": "HIP"}


def get_device_id() -> int:
    out = ffi.new("int32_t *")
    check(lib.gp_device_get(out))
    return out[0]


class Device:
    """A device: ``Device(i)`` as a context manager makes it current on this
    thread for the block; ``use()`` makes it current from then on."""

    def __init__(self, device=None):
        self.id = get_device_id() if device is None else int(device)
        self._prev = []

    def use(self):
        check(lib.gp_device_set(self.id))

    def __enter__(self):
        self._prev.append(get_device_id())
        self.use()
        return self

    def __exit__(self, *exc):
        check(lib.gp_device_set(self._prev.pop()))

    def synchronize(self):
        with self:
            check(lib.gp_device_synchronize())

    @property
    def compute_capability(self) -> str:
        props = runtime.getDeviceProperties(self.id)
        return f"{props['major']}{props['minor']}"

    @property
    def mem_info(self) -> tuple:
        return runtime.memGetInfo(self.id)

    def __int__(self):
        return self.id

    def __index__(self):
        return self.id

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(("gpunp.cuda.Device", self.id))

    def __repr__(self):
        return f"<{_BACKEND_NAMES.get(backend(), backend())} Device {self.id}>"


class MemoryPool(PoolStats):
    """The caching allocator of the current device (CuPy's MemoryPool API).
    Every MemoryPool is a view of the engine's pool of the current device:
    gpunp keeps one pool per device, not one per object."""

    def __init__(self, allocator=None):
        if allocator is not None:
            raise NotImplementedError("gpunp's memory pool takes memory from the driver "
                                      "only (allocator=None)")

    def malloc(self, size) -> MemoryPointer:
        """`size` bytes from the pool, given back when the pointer (and
        what views it) is gone. ``set_allocator(pool.malloc)`` restores the
        pool for arrays."""
        from gpunp.cuda.memory import _pool_malloc

        return _pool_malloc(size)

    def _stats(self):
        s = ffi.new("gp_memory_stats_t *")
        check(lib.gp_memory_get_stats(get_device_id(), s))
        return s

    def free_all_blocks(self, stream=None):
        check(lib.gp_memory_free_all_blocks(get_device_id()))

    def set_limit(self, size=None, fraction=None):
        if size is not None and fraction is not None:
            raise ValueError("give size or fraction, not both")
        if fraction is not None:
            if not 0 <= fraction <= 1:
                raise ValueError("fraction must be between 0 and 1")
            size = int(runtime.memGetInfo()[1] * fraction)
        check(lib.gp_memory_set_limit(get_device_id(), int(size or 0)))

    def get_limit(self) -> int:
        return int(self._stats().limit_bytes)


_POOL = MemoryPool()


def free_host_blocks() -> int:
    """Unmaps the host memory kept for large `get()` results (the blocks of
    arrays NumPy has freed); returns the bytes released."""
    n = ffi.new("int64_t *")
    check(lib.gp_host_block_free_all(n))
    return int(n[0])


def get_default_memory_pool() -> MemoryPool:
    return _POOL
