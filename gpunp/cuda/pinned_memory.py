"""``gpunp.cuda.pinned_memory``: page-locked host memory for asynchronous
copies (CuPy's ``cupy.cuda.pinned_memory``). The pools are the engine's
(csrc/memory/pinned.c): cuMemHostAlloc / hipHostMalloc on GPU backends,
ordinary aligned memory with the same pool semantics on the host backend.

A ``PinnedMemory`` goes back to its pool when the last thing that views it
(its pointers, NumPy arrays made on it) is gone."""

from __future__ import annotations

import operator
import threading

from gpunp._lib import check, ffi, lib


class PinnedMemory:
    """A block of page-locked host memory: its address `ptr` and `size`.
    It returns to its pool (or to the driver, without one) when nothing
    views it any more."""

    __module__ = "gpunp.cuda"
    __slots__ = ("ptr", "size", "_cdata", "_after", "__weakref__")

    def __init__(self, size, *, _pool=None):
        size = operator.index(size)
        if size < 0:
            raise ValueError(f"negative size {size}")
        out = ffi.new("void **")
        after = self._after = []  # streams whose queued work may still use the block
        if _pool is None:
            check(lib.gp_host_alloc(size, 0, out))

            def release(p):
                for s in after:
                    s.synchronize()
                lib.gp_host_free(p)
        else:
            check(lib.gp_pinned_pool_alloc(_pool._h, size, out))
            handle = _pool._h  # the pool outlives its blocks: the release holds it

            def release(p):
                if after:  # reused only once the stream is past the copies
                    for s in after[:-1]:
                        s.synchronize()
                    lib.gp_pinned_pool_release(handle, p, 1, after[-1]._h)
                else:
                    lib.gp_pinned_pool_release(handle, p, 0, ffi.NULL)
        self.ptr, self.size = int(ffi.cast("uintptr_t", out[0])), size
        # Whatever views the memory holds this cdata; the block goes back when
        # the last of them is gone.
        self._cdata = ffi.gc(ffi.cast("char *", out[0]), release, size)

    def __int__(self):
        return self.ptr

    def _release_after(self, stream) -> None:
        """The work queued on `stream` until now may use the block (a copy):
        it is not reused or freed before that work is done."""
        if stream not in self._after:
            self._after.append(stream)

    def _buffer(self, offset=0):
        # the slice's buffer holds _cdata itself (a cdata of `_cdata + n` would not)
        return memoryview(ffi.buffer(self._cdata, self.size))[offset:]

    def __repr__(self):
        return f"<gpunp.cuda.PinnedMemory ptr={self.ptr:#x} size={self.size}>"


class PinnedMemoryPointer:
    """An address `ptr` inside a ``PinnedMemory`` `mem`:
    ``PinnedMemoryPointer(mem, offset)``. ``int(p)`` is the address and
    ``p + n`` the address `n` bytes on. Its bytes from `ptr` to the end of
    the memory are a writable buffer (``memoryview(p)`` on Python 3.12 and
    later, or ``p.buffer()``)."""

    __module__ = "gpunp.cuda"
    __slots__ = ("mem", "ptr")

    def __init__(self, mem: PinnedMemory, offset: int):
        offset = operator.index(offset)
        if not 0 <= offset <= mem.size:
            raise ValueError(f"offset {offset} is outside the memory of {mem.size} bytes")
        self.mem, self.ptr = mem, mem.ptr + offset

    @property
    def size(self) -> int:
        """The bytes from `ptr` to the end of the memory."""
        return self.mem.size - (self.ptr - self.mem.ptr)

    def buffer(self):
        """The bytes from `ptr` to the end of the memory as a writable
        buffer that keeps the memory alive."""
        return self.mem._buffer(self.ptr - self.mem.ptr)

    def __buffer__(self, flags):
        return self.buffer()

    def __int__(self):
        return self.ptr

    def __add__(self, offset):
        return PinnedMemoryPointer(self.mem, self.ptr - self.mem.ptr + operator.index(offset))

    __radd__ = __add__

    def __sub__(self, offset):
        return self + -operator.index(offset)

    def __repr__(self):
        return f"<gpunp.cuda.PinnedMemoryPointer ptr={self.ptr:#x}>"


class PoolStats:
    """CuPy's pool statistics, read from the engine's gp_memory_stats_t that
    a pool's `_stats()` fills (the device pool's and the pinned pools')."""

    def used_bytes(self) -> int:
        return int(self._stats().used_bytes)

    def total_bytes(self) -> int:
        return int(self._stats().total_bytes)

    def free_bytes(self) -> int:
        s = self._stats()
        return int(s.total_bytes - s.used_bytes)

    def n_free_blocks(self) -> int:
        return int(self._stats().free_blocks)


class PinnedMemoryPool(PoolStats):
    """A pool of page-locked host memory (CuPy's ``PinnedMemoryPool``):
    ``malloc(size)`` hands out a block, kept by the pool when it is given
    back and handed out again to a request of the same size (rounded up to
    512 bytes). ``set_pinned_memory_allocator(pool.malloc)`` makes it serve
    ``alloc_pinned_memory``."""

    __module__ = "gpunp.cuda"

    def __init__(self, allocator=None):
        if allocator is not None:
            raise NotImplementedError("gpunp's pinned memory pools take memory from the "
                                      "driver only (allocator=None)")
        out = ffi.new("gp_pinned_pool_t **")
        check(lib.gp_pinned_pool_create(out))
        self._h = ffi.gc(out[0], lib.gp_pinned_pool_destroy)

    def malloc(self, size) -> PinnedMemoryPointer:
        return PinnedMemoryPointer(PinnedMemory(size, _pool=self), 0)

    def _stats(self):
        s = ffi.new("gp_memory_stats_t *")
        check(lib.gp_pinned_pool_stats(self._h, s))
        return s

    def free_all_blocks(self) -> None:
        check(lib.gp_pinned_pool_free_all(self._h))

    def set_limit(self, size=None) -> None:
        """Caps the bytes the pool holds (None or 0: no cap); an allocation
        past it, once the idle blocks are freed, raises OutOfMemoryError."""
        size = 0 if size is None else operator.index(size)
        if size < 0:
            raise ValueError("the limit must be 0 or more")
        check(lib.gp_pinned_pool_set_limit(self._h, size))

    def get_limit(self) -> int:
        return int(self._stats().limit_bytes)


_default_pool = None
_pool_lock = threading.Lock()
_allocator = None  # None until set: the default pool's malloc


def get_default_pinned_memory_pool() -> PinnedMemoryPool:
    global _default_pool
    with _pool_lock:
        if _default_pool is None:
            _default_pool = PinnedMemoryPool()
        return _default_pool


def _malloc_unpooled(size) -> PinnedMemoryPointer:
    return PinnedMemoryPointer(PinnedMemory(size), 0)


_UNSET = object()


def set_pinned_memory_allocator(allocator=_UNSET) -> None:
    """Makes `allocator` (``size -> PinnedMemoryPointer``, such as a
    pool's ``malloc``) serve ``alloc_pinned_memory``; None allocates from
    the driver each time, with no pool (as CuPy's)."""
    global _allocator
    if allocator is _UNSET:
        raise TypeError("set_pinned_memory_allocator() takes the allocator (or None)")
    if allocator is not None and not callable(allocator):
        raise TypeError("the allocator must be callable or None")
    _allocator = _malloc_unpooled if allocator is None else allocator


def alloc_pinned_memory(size) -> PinnedMemoryPointer:
    """`size` bytes of page-locked host memory from the current pinned
    memory allocator (the default pool unless set)."""
    size = operator.index(size)
    alloc = _allocator or get_default_pinned_memory_pool().malloc
    return alloc(size)
