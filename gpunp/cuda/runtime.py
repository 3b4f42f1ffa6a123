"""``gpunp.cuda.runtime``: the CUDA runtime calls users reach for, with
CuPy's names, answered by gpunp's engine (on any backend)."""

from __future__ import annotations

from gpunp._lib import check, ffi, lib
from gpunp.cuda.stream import Event, Stream

memcpyHostToHost = 0
memcpyHostToDevice = 1
memcpyDeviceToHost = 2
memcpyDeviceToDevice = 3
memcpyDefault = 4

# cudaHostAlloc's and cudaHostRegister's flags
hostAllocDefault = 0
hostAllocPortable = 1
hostAllocMapped = 2
hostAllocWriteCombined = 4
hostRegisterDefault = 0
hostRegisterPortable = 1
hostRegisterMapped = 2
hostRegisterIoMemory = 4
hostRegisterReadOnly = 8
# cudaMallocManaged's
cudaMemAttachGlobal = 1
cudaMemAttachHost = 2
cudaMemAttachSingle = 4
# streams and events
streamDefault = 0
streamNonBlocking = 1
streamLegacy = 1
streamPerThread = 2
eventDefault = 0
eventBlockingSync = 1
eventDisableTiming = 2
eventInterprocess = 4


def _is_hip() -> bool:
    from gpunp._config import backend

    return backend() == "hip"


def __getattr__(name):
    # is_hip, as CuPy has it: a constant of the backend, read when asked for
    # (importing gpunp does not start the backend)
    if name == "is_hip":
        return _is_hip()
    raise AttributeError(f"module 'gpunp.cuda.runtime' has no attribute {name!r}")


def driverGetVersion() -> int:
    """The driver's version (CUDA 12.4: 12040; HIP's own numbering on HIP).
    RuntimeError on the host backend, which has no driver."""
    out = ffi.new("int32_t *")
    _check_backend(lib.gp_driver_version(out), "driverGetVersion")
    return int(out[0])


def runtimeGetVersion() -> int:
    """The CUDA version of the runtime gpunp compiles and runs with, numbered
    as cudaRuntimeGetVersion does (12.8: 12080): gpunp loads no libcudart,
    so this is the version of the NVRTC it compiles with. On HIP, the HIP
    runtime's own version (driverGetVersion). RuntimeError on the host
    backend."""
    from gpunp._config import backend

    if backend() == "hip":
        return driverGetVersion()
    if backend() != "cuda":
        raise RuntimeError(f"runtimeGetVersion: not available on the {backend()} backend")
    out = ffi.new("const char **")
    check(lib.gp_runtime_config(b"compiler", out))
    words = ffi.string(out[0]).decode().split()  # "nvrtc 12.8 ...|sm_90"
    major, minor = words[1].split(".")[:2]
    return int(major) * 1000 + int(minor) * 10


def _check_backend(status, name):
    if status and (status & 0xFF) == lib.GP_ERR_UNSUPPORTED:
        from gpunp._config import backend

        msg = ffi.string(lib.gp_errmsg()).decode()
        raise RuntimeError(f"{name}: not available on the {backend()} backend ({msg})")
    check(status)


def memset(ptr: int, value: int, size: int) -> None:
    """Sets `size` bytes of device memory at `ptr` to `value` (its low
    byte) and waits for it."""
    check(lib.gp_memset(int(ptr), int(value), int(size), ffi.NULL, 1))


def memsetAsync(ptr: int, value: int, size: int, stream=None) -> None:
    """memset ordered on `stream` (None: the current stream)."""
    check(lib.gp_memset(int(ptr), int(value), int(size), _stream_handle(stream), 0))


def hostAlloc(size: int, flags: int = 0) -> int:
    """`size` bytes of page-locked host memory (ordinary memory on the host
    backend); give it back with freeHost."""
    out = ffi.new("void **")
    check(lib.gp_host_alloc(int(size), int(flags), out))
    return int(ffi.cast("uintptr_t", out[0]))


def freeHost(ptr: int) -> None:
    check(lib.gp_host_free(ffi.cast("void *", int(ptr))))


def hostRegister(ptr: int, size: int, flags: int = 0) -> None:
    """Page-locks `size` bytes of host memory at `ptr`; RuntimeError on the
    host backend, which has no page-locked memory."""
    _check_backend(lib.gp_host_register(ffi.cast("void *", int(ptr)), int(size), int(flags)),
                   "hostRegister")


def hostUnregister(ptr: int) -> None:
    _check_backend(lib.gp_host_unregister(ffi.cast("void *", int(ptr))), "hostUnregister")


_MANAGED: dict = {}


def mallocManaged(size: int, flags: int = cudaMemAttachGlobal) -> int:
    """`size` bytes of managed memory (host memory on the host backend);
    give it back with free."""
    if flags != cudaMemAttachGlobal:
        raise NotImplementedError("mallocManaged: gpunp attaches managed memory globally")
    out = ffi.new("uint64_t *")
    _check_backend(lib.gp_memory_alloc_kind(lib.GP_MEMORY_MANAGED, int(size), ffi.NULL, out),
                   "mallocManaged")
    _MANAGED[int(out[0])] = int(size)
    return int(out[0])


def mallocAsync(size: int, stream=None) -> int:
    """`size` bytes from the driver's stream-ordered pool on `stream`; give
    them back with freeAsync. RuntimeError where there is none (the host)."""
    out = ffi.new("uint64_t *")
    _check_backend(lib.gp_memory_alloc_kind(lib.GP_MEMORY_ASYNC, int(size),
                                            _stream_handle(stream), out), "mallocAsync")
    _ASYNC[int(out[0])] = int(size)
    return int(out[0])


_ASYNC: dict = {}


def freeAsync(ptr: int, stream=None) -> None:
    size = _ASYNC.pop(int(ptr), None)
    if size is None:
        raise ValueError(f"{ptr:#x} was not allocated by gpunp.cuda.runtime.mallocAsync")
    check(lib.gp_memory_free_kind(lib.GP_MEMORY_ASYNC, int(ptr), size, _stream_handle(stream)))


def launchHostFunc(stream, callback, arg) -> None:
    """``stream.launch_host_func(callback, arg)`` (None: the null stream)."""
    (stream if stream is not None else Stream.null).launch_host_func(callback, arg)


def getDeviceCount() -> int:
    out = ffi.new("int32_t *")
    check(lib.gp_device_count(out))
    return out[0]


def getDevice() -> int:
    out = ffi.new("int32_t *")
    check(lib.gp_device_get(out))
    return out[0]


def setDevice(device: int) -> None:
    check(lib.gp_device_set(int(device)))


def deviceSynchronize() -> None:
    check(lib.gp_device_synchronize())


def getDeviceProperties(device: int) -> dict:
    p = ffi.new("gp_device_properties_t *")
    check(lib.gp_device_get_properties(int(device), p))
    return {
        "name": ffi.string(p.name),
        "totalGlobalMem": int(p.total_memory),
        "multiProcessorCount": int(p.multiprocessors),
        "maxThreadsPerBlock": int(p.max_threads_per_block),
        "warpSize": int(p.warp_size),
        "major": int(p.compute_major),
        "minor": int(p.compute_minor),
        "arch": ffi.string(p.target).decode(),
    }


def memGetInfo(device: int | None = None) -> tuple:
    f, t = ffi.new("int64_t *"), ffi.new("int64_t *")
    check(lib.gp_memory_get_info(getDevice() if device is None else int(device), f, t))
    return int(f[0]), int(t[0])


_SIZES: dict = {}


def malloc(size: int) -> int:
    """Device memory of `size` bytes from the current device's pool."""
    out = ffi.new("uint64_t *")
    check(lib.gp_memory_alloc(int(size), out))
    _SIZES[int(out[0])] = int(size)
    return int(out[0])


def free(ptr: int) -> None:
    if int(ptr) in _MANAGED:
        check(lib.gp_memory_free_kind(lib.GP_MEMORY_MANAGED, int(ptr), _MANAGED.pop(int(ptr)),
                                      ffi.NULL))
        return
    size = _SIZES.pop(int(ptr), None)
    if size is None:
        raise ValueError(f"{ptr:#x} was not allocated by gpunp.cuda.runtime.malloc")
    check(lib.gp_memory_free(int(ptr), size))


def _stream_handle(stream):
    if stream is None or stream == 0:
        return ffi.NULL
    h = getattr(stream, "_h", None)
    if h is None:
        raise TypeError("stream must be a gpunp.cuda.Stream")
    return h


def memcpy(dst: int, src: int, size: int, kind: int) -> None:
    check(lib.gp_memcpy(int(dst), int(src), int(size), _kind(kind), ffi.NULL, 1))


def memcpyAsync(dst: int, src: int, size: int, kind: int, stream=None) -> None:
    check(lib.gp_memcpy(int(dst), int(src), int(size), _kind(kind), _stream_handle(stream), 0))


def _kind(kind: int) -> int:
    if kind == memcpyDefault:
        raise NotImplementedError("memcpyDefault: give the direction of the copy")
    return int(kind)


def streamCreate():
    return Stream()


def streamCreateWithFlags(flags: int):
    return Stream(non_blocking=bool(flags & 1))


def streamDestroy(stream) -> None:
    stream._h = ffi.NULL


def streamSynchronize(stream) -> None:
    check(lib.gp_stream_synchronize(_stream_handle(stream)))


def eventCreate():
    return Event()


def eventRecord(event, stream=None) -> None:
    check(lib.gp_event_record(event._h, _stream_handle(stream)))


def eventSynchronize(event) -> None:
    check(lib.gp_event_synchronize(event._h))


def eventElapsedTime(start, end) -> float:
    ms = ffi.new("float *")
    check(lib.gp_event_elapsed(start._h, end._h, ms))
    return float(ms[0])


# ---- peers, interprocess handles, pointer attributes ---------------------------

# cudaMemoryType
memoryTypeUnregistered = 0
memoryTypeHost = 1
memoryTypeDevice = 2
memoryTypeManaged = 3


def deviceCanAccessPeer(device: int, peerDevice: int) -> int:
    """1 if `device` can address `peerDevice`'s memory once enabled.
    RuntimeError on the host backend."""
    out = ffi.new("int32_t *")
    _check_backend(lib.gp_device_can_access_peer(int(device), int(peerDevice), out),
                   "deviceCanAccessPeer")
    return int(out[0])


def deviceEnablePeerAccess(peerDevice: int) -> None:
    """Lets the current device address `peerDevice`'s memory."""
    _check_backend(lib.gp_device_enable_peer_access(int(peerDevice)), "deviceEnablePeerAccess")


def ipcGetMemHandle(devPtr: int) -> bytes:
    """The 64-byte interprocess handle of the device allocation holding
    `devPtr` (for another process's ipcOpenMemHandle)."""
    h = ffi.new("uint8_t[64]")
    _check_backend(lib.gp_ipc_get_mem_handle(int(devPtr), h), "ipcGetMemHandle")
    return bytes(ffi.buffer(h))


def _handle_bytes(handle) -> "ffi.CData":
    handle = bytes(handle)
    if len(handle) != 64:
        raise ValueError(f"an interprocess handle has 64 bytes, not {len(handle)}")
    return ffi.new("uint8_t[64]", handle)


def ipcOpenMemHandle(handle, flags: int = 1) -> int:
    """The address of another process's allocation from its handle (peer
    access enabled lazily, CUDA's only flag); close it with
    ipcCloseMemHandle."""
    out = ffi.new("uint64_t *")
    _check_backend(lib.gp_ipc_open_mem_handle(_handle_bytes(handle), out), "ipcOpenMemHandle")
    return int(out[0])


def ipcCloseMemHandle(devPtr: int) -> None:
    _check_backend(lib.gp_ipc_close_mem_handle(int(devPtr)), "ipcCloseMemHandle")


def ipcGetEventHandle(event) -> bytes:
    """The 64-byte handle of an ``Event(interprocess=True)``."""
    h = ffi.new("uint8_t[64]")
    _check_backend(lib.gp_event_ipc_handle(event._h, h), "ipcGetEventHandle")
    return bytes(ffi.buffer(h))


def ipcOpenEventHandle(handle):
    """Another process's interprocess event, as a ``gpunp.cuda.Event``."""
    out = ffi.new("gp_event_t **")
    _check_backend(lib.gp_event_open_ipc_handle(_handle_bytes(handle), out),
                   "ipcOpenEventHandle")
    e = Event.__new__(Event)
    e._h = ffi.gc(out[0], lib.gp_event_destroy)
    return e


class PointerAttributes:
    """What pointerGetAttributes gives (CuPy's names): `type`
    (memoryType*), `device`, `devicePointer`, `hostPointer`."""

    __slots__ = ("type", "device", "devicePointer", "hostPointer")

    def __init__(self, type, device, devicePointer, hostPointer):
        self.type, self.device = type, device
        self.devicePointer, self.hostPointer = devicePointer, hostPointer

    def __repr__(self):
        return (f"PointerAttributes(type={self.type}, device={self.device}, "
                f"devicePointer={self.devicePointer:#x}, hostPointer={self.hostPointer:#x})")


def pointerGetAttributes(ptr: int) -> PointerAttributes:
    """What the driver knows of an address: its memory type (0 for memory it
    does not know), device and addresses. RuntimeError on the host backend."""
    a = ffi.new("gp_pointer_attributes_t *")
    _check_backend(lib.gp_pointer_get_attributes(int(ptr), a), "pointerGetAttributes")
    return PointerAttributes(int(a.type), int(a.device), int(a.device_pointer),
                             int(a.host_pointer))
