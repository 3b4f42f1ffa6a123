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
