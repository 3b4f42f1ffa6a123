"""``gpunp.cuda``: devices, streams, events, the memory pool and the runtime
API, as CuPy's ``cupy.cuda`` offers them. On the host backend the same
objects exist: work is done when a call returns, so streams and events are
trivially complete."""

from __future__ import annotations

from gpunp._lib import OutOfMemoryError, check, ffi, lib
from gpunp.cuda import runtime

__all__ = ["Device", "Stream", "Event", "OutOfMemoryError", "MemoryPool", "runtime",
           "get_current_stream", "get_elapsed_time", "get_default_memory_pool", "is_available",
           "get_device_id"]


def is_available() -> bool:
    """Whether a CUDA GPU runs gpunp in this process."""
    from gpunp._config import backend
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
        from gpunp._config import backend
        return f"<{_BACKEND_NAMES.get(backend(), backend())} Device {self.id}>"


class Stream:
    """A queue of device work. ``Stream()`` is a new blocking stream,
    ``Stream(non_blocking=True)`` one that does not wait for the null stream,
    ``Stream.null`` the default stream. As a context manager (or after
    ``use()``) it is the stream this thread's operations run on."""

    null: "Stream"

    def __init__(self, null=False, non_blocking=False, priority=0, *, _handle=None):
        self._prev = []
        if null:
            self._h = ffi.NULL
        else:
            out = ffi.new("gp_stream_t **")
            check(lib.gp_stream_create(1 if non_blocking else 0, int(priority), out))
            self._h = ffi.gc(out[0], lib.gp_stream_destroy)
        self.non_blocking = bool(non_blocking)
        self.priority = int(priority)

    @property
    def ptr(self) -> int:
        return int(ffi.cast("uintptr_t", self._h))

    def use(self):
        check(lib.gp_stream_set_current(self._h))
        return self

    def __enter__(self):
        cur = ffi.new("gp_stream_t **")
        check(lib.gp_stream_get_current(cur))
        self._prev.append(cur[0])
        return self.use()

    def __exit__(self, *exc):
        check(lib.gp_stream_set_current(self._prev.pop()))

    def synchronize(self):
        check(lib.gp_stream_synchronize(self._h))

    @property
    def done(self) -> bool:
        out = ffi.new("int32_t *")
        check(lib.gp_stream_query(self._h, out))
        return bool(out[0])

    def record(self, event=None) -> "Event":
        event = event or Event()
        event.record(self)
        return event

    def wait_event(self, event: "Event"):
        check(lib.gp_stream_wait_event(self._h, event._h))

    def begin_capture(self):
        """Records the work queued on this stream (not the null stream) into
        a graph instead of running it, until end_capture()."""
        check(lib.gp_stream_begin_capture(self._h))

    def end_capture(self) -> "Graph":
        out = ffi.new("gp_graph_t **")
        check(lib.gp_stream_end_capture(self._h, out))
        return Graph(ffi.gc(out[0], lib.gp_graph_destroy), self)

    def __eq__(self, other):
        return isinstance(other, Stream) and other.ptr == self.ptr

    def __hash__(self):
        return hash(("gpunp.cuda.Stream", self.ptr))

    def __repr__(self):
        return f"<gpunp.cuda.Stream {'null' if self._h == ffi.NULL else hex(self.ptr)}>"


Stream.null = Stream(null=True)


class Graph:
    """Work captured on a stream, replayed by launch() with one call. The
    arrays the captured kernels used must stay alive while it may run."""

    def __init__(self, handle, stream):
        self._h, self._stream = handle, stream

    def launch(self, stream: Stream | None = None):
        s = stream if stream is not None else get_current_stream()
        check(lib.gp_graph_launch(self._h, s._h))


class _on_stream:
    """Makes `stream` current for a block (a Stream, or the null stream for
    None/0)."""

    def __init__(self, stream):
        self._s = stream if isinstance(stream, Stream) else Stream.null

    def __enter__(self):
        cur = ffi.new("gp_stream_t **")
        check(lib.gp_stream_get_current(cur))
        self._prev = cur[0]
        check(lib.gp_stream_set_current(self._s._h))

    def __exit__(self, *exc):
        check(lib.gp_stream_set_current(self._prev))


def get_current_stream() -> Stream:
    cur = ffi.new("gp_stream_t **")
    check(lib.gp_stream_get_current(cur))
    if cur[0] == ffi.NULL:
        return Stream.null
    s = Stream.__new__(Stream)
    s._h, s._prev, s.non_blocking, s.priority = cur[0], [], False, 0
    return s


class Event:
    """A point in a stream's work: ``record()`` it, then ``synchronize()``,
    ask ``done``, or time the work between two events with ``elapsed_time``."""

    def __init__(self, block=False, disable_timing=False, interprocess=False):
        if interprocess:
            raise NotImplementedError("interprocess events are not supported")
        out = ffi.new("gp_event_t **")
        check(lib.gp_event_create(0 if disable_timing else 1, out))
        self._h = ffi.gc(out[0], lib.gp_event_destroy)

    def record(self, stream: Stream | None = None):
        s = (stream if stream is not None else get_current_stream())._h
        check(lib.gp_event_record(self._h, s))

    def synchronize(self):
        check(lib.gp_event_synchronize(self._h))

    @property
    def done(self) -> bool:
        out = ffi.new("int32_t *")
        check(lib.gp_event_query(self._h, out))
        return bool(out[0])

    def elapsed_time(self, end: "Event") -> float:
        """Milliseconds from this event to `end` (both recorded)."""
        return get_elapsed_time(self, end)


def get_elapsed_time(start: Event, end: Event) -> float:
    ms = ffi.new("float *")
    check(lib.gp_event_elapsed(start._h, end._h, ms))
    return float(ms[0])


class MemoryPool:
    """The caching allocator of the current device (CuPy's MemoryPool API)."""

    def _stats(self):
        s = ffi.new("gp_memory_stats_t *")
        check(lib.gp_memory_get_stats(get_device_id(), s))
        return s

    def used_bytes(self) -> int:
        return int(self._stats().used_bytes)

    def total_bytes(self) -> int:
        return int(self._stats().total_bytes)

    def free_bytes(self) -> int:
        s = self._stats()
        return int(s.total_bytes - s.used_bytes)

    def n_free_blocks(self) -> int:
        return int(self._stats().free_blocks)

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
