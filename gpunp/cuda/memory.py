"""``ndarray.data``: CuPy's memory pointer objects. A ``MemoryPointer`` is an
address inside a ``Memory`` (the buffer an array views); both keep the
array that owns the buffer alive, so the address stays valid while they do.
The copies go through gpunp.cuda.runtime's memcpy (on the host backend, a
host copy)."""

from __future__ import annotations

import operator
import threading
import weakref

import gpunp
from gpunp import _lib
from gpunp._lib import check, ffi, lib
from gpunp.cuda import runtime
from gpunp.cuda.stream import get_current_stream


class Memory:
    """A device buffer: its start `ptr`, its `size` in bytes (the allocation,
    which may be larger than the arrays in it) and its `device_id`."""

    __module__ = "gpunp.cuda"
    __slots__ = ("ptr", "size", "device_id", "_owner")

    def __init__(self, ptr: int, size: int, device_id: int, owner=None):
        self.ptr, self.size, self.device_id = int(ptr), int(size), int(device_id)
        self._owner = owner  # what keeps the memory alive (an array)

    @property
    def device(self):
        return gpunp.cuda.Device(self.device_id)

    def __int__(self):
        return self.ptr

    def __repr__(self):
        return f"<gpunp.cuda.Memory ptr={self.ptr:#x} size={self.size} device={self.device_id}>"


class MemoryPointer:
    """An address `ptr` inside `mem` (CuPy's ``cupy.cuda.MemoryPointer``):
    ``MemoryPointer(mem, offset)``; ``int(p)`` is the address and ``p + n``
    the address `n` bytes on, in the same memory."""

    __module__ = "gpunp.cuda"
    __slots__ = ("mem", "ptr", "device_id")

    def __init__(self, mem: Memory, offset: int):
        self.mem = mem
        self.ptr = mem.ptr + operator.index(offset)
        self.device_id = mem.device_id

    @property
    def device(self):
        return self.mem.device

    def __int__(self):
        return self.ptr

    def __add__(self, offset):
        return MemoryPointer(self.mem, self.ptr - self.mem.ptr + operator.index(offset))

    __radd__ = __add__

    def __sub__(self, offset):
        return self + -operator.index(offset)

    def __repr__(self):
        return f"<gpunp.cuda.MemoryPointer ptr={self.ptr:#x} device={self.device_id}>"

    def copy_from_device(self, src: "MemoryPointer", size: int) -> None:
        """Copies `size` bytes from the device memory at `src` to here."""
        runtime.memcpy(self.ptr, int(src), size, runtime.memcpyDeviceToDevice)

    def copy_from_host(self, mem, size: int) -> None:
        """Copies `size` bytes from host memory at `mem` (an address, or a
        ctypes pointer) to here."""
        runtime.memcpy(self.ptr, _host_address(mem), size, runtime.memcpyHostToDevice)

    def copy_to_host(self, mem, size: int) -> None:
        """Copies `size` bytes from here to host memory at `mem`."""
        runtime.memcpy(_host_address(mem), self.ptr, size, runtime.memcpyDeviceToHost)

    def copy_from_device_async(self, src: "MemoryPointer", size: int, stream=None) -> None:
        """copy_from_device ordered on `stream` (None: the current one)."""
        runtime.memcpyAsync(self.ptr, int(src), size, runtime.memcpyDeviceToDevice, stream)

    def copy_from_host_async(self, mem, size: int, stream=None) -> None:
        """copy_from_host ordered on `stream`; asynchronous from page-locked
        memory (a PinnedMemoryPointer), as the driver makes it."""
        runtime.memcpyAsync(self.ptr, _host_address(mem), size, runtime.memcpyHostToDevice,
                            stream)

    def copy_to_host_async(self, mem, size: int, stream=None) -> None:
        """copy_to_host ordered on `stream`: into page-locked memory it is
        done once the stream is past it."""
        runtime.memcpyAsync(_host_address(mem), self.ptr, size, runtime.memcpyDeviceToHost,
                            stream)

    def memset(self, value: int, size: int) -> None:
        """Sets `size` bytes from here to `value` (its low byte)."""
        runtime.memset(self.ptr, value, size)

    def memset_async(self, value: int, size: int, stream=None) -> None:
        runtime.memsetAsync(self.ptr, value, size, stream)


def _host_address(mem) -> int:
    value = getattr(mem, "value", None)  # a ctypes c_void_p
    if value is None:
        value = getattr(mem, "ptr", None)  # a PinnedMemoryPointer
    return int(value) if value is not None else operator.index(mem)


# ---- memory of each kind, and the allocator arrays take memory from ---------


class _Allocation:
    """Raw memory of one engine kind (enum gp_memory_kind), freed when this
    object goes (the owner of a Memory)."""

    __slots__ = ("kind", "ptr", "size", "stream", "__weakref__")

    def __init__(self, kind: int, size: int, stream=None):
        size = operator.index(size)
        if size < 0:
            raise ValueError(f"negative size {size}")
        out = ffi.new("uint64_t *")
        self.stream = stream  # kept: the free is ordered on it
        check(lib.gp_memory_alloc_kind(kind, size, _stream_handle(stream), out))
        self.kind, self.ptr, self.size = kind, int(out[0]), size

    def __del__(self):
        if getattr(self, "ptr", 0):
            lib.gp_memory_free_kind(self.kind, self.ptr, self.size, _stream_handle(self.stream))
            self.ptr = 0


def _stream_handle(stream):
    return ffi.NULL if stream is None else stream._h


def _pointer(kind: int, size: int, stream=None) -> MemoryPointer:
    a = _Allocation(kind, size, stream)
    return MemoryPointer(Memory(a.ptr, size, gpunp.cuda.get_device_id(), a), 0)


class UnownedMemory(Memory):
    """Memory another library allocated (CuPy's ``UnownedMemory``): `ptr`,
    `size` and the object `owner` that keeps it alive, for allocators that
    serve gpunp from PyTorch's or RMM's pool."""

    __module__ = "gpunp.cuda"
    __slots__ = ()

    def __init__(self, ptr: int, size: int, owner, device_id: int | None = None):
        super().__init__(ptr, size, gpunp.cuda.get_device_id() if device_id is None
                         else device_id, owner)


def malloc_managed(size) -> MemoryPointer:
    """`size` bytes of managed memory (cuMemAllocManaged): the host and the
    device address it alike. ``set_allocator(malloc_managed)`` makes every
    array managed."""
    return _pointer(lib.GP_MEMORY_MANAGED, size)


def malloc_async(size) -> MemoryPointer:
    """`size` bytes from the driver's stream-ordered pool (cuMemAllocAsync)
    on the current stream, freed on it too."""
    return _pointer(lib.GP_MEMORY_ASYNC, size, get_current_stream())


def _malloc_direct(size) -> MemoryPointer:
    return _pointer(lib.GP_MEMORY_DIRECT, size)


class MemoryAsyncPool:
    """The driver's stream-ordered pool (CuPy's ``MemoryAsyncPool``):
    ``malloc(size)`` allocates on the current stream with cuMemAllocAsync
    and the memory is freed on that stream. On a backend without one (the
    host) ``malloc`` raises a RuntimeError (NotImplementedError) naming it."""

    __module__ = "gpunp.cuda"

    def __init__(self, pool_handles="current"):
        if pool_handles not in ("current", "default"):
            raise NotImplementedError("gpunp's MemoryAsyncPool uses the device's current pool")
        self._used = 0

    def malloc(self, size) -> MemoryPointer:
        p = malloc_async(size)
        self._used += p.mem.size
        weakref.finalize(p.mem._owner, self._gone, p.mem.size)
        return p

    def _gone(self, size):
        self._used -= size

    def used_bytes(self) -> int:
        """The bytes this pool's live allocations hold."""
        return self._used

    def free_all_blocks(self, stream=None):
        """Waits for the device. The driver's pool keeps the memory freed
        into it (gpunp raises its release threshold) for the next
        allocations."""
        gpunp.cuda.runtime.deviceSynchronize()


_state = threading.local()  # using_allocator's stack and the memory hooks, per thread
_global_allocator = None    # set_allocator's; None: gpunp's pool
_live: dict = {}            # what the engine's buffers from an allocator keep alive
_nested = 0                 # threads inside using_allocator, and hooks in use


class _PoolBlock:
    """A block of the current device's pool, given back to the cache of the
    stream that was current when it was allocated (the engine remembers it)."""

    __slots__ = ("block", "ptr")

    def __init__(self, size: int):
        size = operator.index(size)
        if size < 0:
            raise ValueError(f"negative size {size}")
        block, ptr = ffi.new("void **"), ffi.new("uint64_t *")
        check(lib.gp_memory_pool_alloc(size, block, ptr))
        self.block, self.ptr = block[0], int(ptr[0])

    def __del__(self):
        if getattr(self, "block", None) is not None:
            lib.gp_memory_pool_release(self.block)
            self.block = None


def _pool_malloc(size) -> MemoryPointer:
    b = _PoolBlock(size)
    return MemoryPointer(Memory(b.ptr, size, gpunp.cuda.get_device_id(), b), 0)


def _current_allocator():
    stack = getattr(_state, "allocators", None)
    return stack[-1] if stack else _global_allocator


def _hooks():
    return getattr(_state, "hooks", None)


def _alloc_cb(size, ptr_out, owner_out):
    try:
        alloc, hooks = _current_allocator(), _hooks()
        if alloc is None and not hooks:
            return _lib.lib.GP_ALLOC_DECLINED
        if alloc is None:
            alloc = _pool_malloc
        dev = gpunp.cuda.get_device_id()
        for h in hooks or ():
            h.malloc_preprocess(device_id=dev, size=size, mem_size=size)
        p = alloc(size)
        ptr = int(p)
        if p is None or (size and not ptr):
            raise ValueError("the allocator gave no memory")
        handle = _lib.ffi.new_handle(p)
        _live[int(_lib.ffi.cast("uintptr_t", handle))] = (handle, p, size, dev)
        for h in reversed(hooks or ()):
            h.malloc_postprocess(device_id=dev, size=size, mem_size=size, mem_ptr=ptr,
                                 pmem_id=id(p))
        ptr_out[0], owner_out[0] = ptr, handle
        return 0
    except BaseException as e:  # noqa: BLE001 - handed to the caller's check()
        _lib.callback_error.exc = e
        return _lib.lib.GP_ERR_CALLBACK


def _release_cb(owner):
    entry = _live.pop(int(_lib.ffi.cast("uintptr_t", owner)), None)
    if entry is None:
        return
    _, p, size, dev = entry
    ptr = int(p)
    # an exception here has no caller to go to: cffi prints it
    hooks = _hooks()
    for h in hooks or ():
        h.free_preprocess(device_id=dev, mem_size=size, mem_ptr=ptr, pmem_id=id(p))
    pmem_id = id(p)
    del p, entry  # the allocator's object goes: its memory is freed
    for h in reversed(hooks or ()):
        h.free_postprocess(device_id=dev, mem_size=size, mem_ptr=ptr, pmem_id=pmem_id)


_callbacks = None


def _immortal(obj):
    """Keeps `obj` (cffi callbacks the engine holds) alive to the very end of
    the process: buffers made through them may be released during the
    interpreter's shutdown, after this module's globals are gone."""
    import ctypes

    ctypes.pythonapi.Py_IncRef(ctypes.py_object(obj))
    return obj


def _install():
    """Routes array allocations through Python while an allocator or a hook
    needs it, and back to the engine's pool when nothing does."""
    global _callbacks
    if _global_allocator is not None or _nested:
        if _callbacks is None:
            _callbacks = _immortal((ffi.callback("gp_alloc_fn", _alloc_cb),
                                    ffi.callback("gp_free_fn", _release_cb)))
        check(lib.gp_memory_set_allocator(*_callbacks))
    else:
        check(lib.gp_memory_set_allocator(ffi.NULL, ffi.NULL))


def _is_pool(allocator) -> bool:
    # the default pool's own malloc: the engine serves it without Python
    return getattr(allocator, "__func__", None) is gpunp.cuda.MemoryPool.malloc


def set_allocator(allocator=None) -> None:
    """Makes `allocator` (``size -> MemoryPointer``, CuPy's ``malloc``
    interface: a pool's ``malloc``, ``malloc_managed``, a function giving
    PyTorch's or RMM's memory as ``MemoryPointer(UnownedMemory(...), 0)``)
    serve every array allocation of the process; None allocates from the
    driver each time, with no pool (as CuPy's). The object it returns is
    kept until the array memory is freed. An exception it raises comes out
    of the operation that needed the memory."""
    global _global_allocator
    if allocator is not None and not callable(allocator):
        raise TypeError("the allocator must be callable or None")
    _global_allocator = None if _is_pool(allocator) else (allocator or _malloc_direct)
    _install()


def get_allocator():
    """The allocator arrays take memory from (the default pool's malloc
    unless set)."""
    a = _current_allocator()
    return a if a is not None else gpunp.cuda.get_default_memory_pool().malloc


class using_allocator:
    """``with using_allocator(allocator):`` makes `allocator` serve this
    thread's allocations in the block (None: the driver, no pool)."""

    def __init__(self, allocator=None):
        if allocator is not None and not callable(allocator):
            raise TypeError("the allocator must be callable or None")
        self._a = allocator

    def __enter__(self):
        global _nested
        a = self._a
        stack = _state.__dict__.setdefault("allocators", [])
        stack.append(_pool_malloc if _is_pool(a) else (a or _malloc_direct))
        _nested += 1
        _install()
        return self

    def __exit__(self, *exc):
        global _nested
        _state.allocators.pop()
        _nested -= 1
        _install()
