"""``gpunp.cuda.stream``: streams, events and captured graphs (CuPy's
``cupy.cuda.stream``), which ``gpunp.cuda`` re-exports under its own name
(their ``__module__``). A module of its own so that ``gpunp.cuda.runtime``
can make them without importing ``gpunp.cuda``, which imports it."""

from __future__ import annotations

import weakref

from gpunp._lib import check, ffi, lib

# The Stream objects that own their engine handles, by handle: what
# get_current_stream() gives back, so that holding it keeps the handle alive
# (memory freed on its stream holds it so).
_owners: "weakref.WeakValueDictionary" = weakref.WeakValueDictionary()


def _own(stream: "Stream") -> None:
    _owners[int(ffi.cast("uintptr_t", stream._h))] = stream


class Stream:
    """A queue of device work. ``Stream()`` is a new blocking stream,
    ``Stream(non_blocking=True)`` one that does not wait for the null stream,
    ``Stream.null`` the default stream. As a context manager (or after
    ``use()``) it is the stream this thread's operations run on."""

    __module__ = "gpunp.cuda"

    null: "Stream"

    def __init__(self, null=False, non_blocking=False, priority=0, *, ptds=False,
                 _handle=None):
        self._prev = []
        if ptds:  # the per-thread default stream, as CuPy's Stream(ptds=True)
            out = ffi.new("gp_stream_t **")
            check(lib.gp_stream_wrap(2, out))
            self._h = ffi.gc(out[0], lib.gp_stream_destroy)
            _own(self)
        elif null:
            self._h = ffi.NULL
        else:
            out = ffi.new("gp_stream_t **")
            check(lib.gp_stream_create(1 if non_blocking else 0, int(priority), out))
            self._h = ffi.gc(out[0], lib.gp_stream_destroy)
            _own(self)
        self.non_blocking = bool(non_blocking)
        self.priority = int(priority)

    @property
    def ptr(self) -> int:
        """The native stream (a CUstream or hipStream_t) as an integer, what
        other libraries take (``torch.cuda.ExternalStream(s.ptr)``); 0 for
        the null stream and on the host backend."""
        out = ffi.new("uint64_t *")
        check(lib.gp_stream_native(self._h, out))
        return int(out[0])

    def launch_host_func(self, callback, arg):
        """Queues ``callback(arg)``: it runs on a driver thread once the
        work queued before it on this stream is done, and work queued after
        it waits for it. It must not use gpunp's streams or memory (the
        driver forbids calls into it there). On the host backend, where
        queued work is done, it runs before this returns."""
        if not callable(callback):
            raise TypeError("callback must be callable")
        handle = ffi.new_handle((callback, arg))
        _host_calls[int(ffi.cast("uintptr_t", handle))] = handle
        st = lib.gp_stream_launch_host_func(self._h, _host_fn(), handle)
        if st:
            _host_calls.pop(int(ffi.cast("uintptr_t", handle)), None)
            check(st)

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

    # one engine handle, one stream (the host backend's native streams are
    # all 0, so `ptr` cannot tell them apart)
    def _key(self) -> int:
        return int(ffi.cast("uintptr_t", self._h))

    def __eq__(self, other):
        return isinstance(other, Stream) and other._key() == self._key()

    def __hash__(self):
        return hash(("gpunp.cuda.Stream", self._key()))

    def __repr__(self):
        return f"<gpunp.cuda.Stream {'null' if self._h == ffi.NULL else hex(self._key())}>"


Stream.null = Stream(null=True)


class ExternalStream(Stream):
    """A stream another library made (CuPy's ``ExternalStream``): `ptr` is
    its native handle (a CUstream or hipStream_t as an integer; PyTorch's
    ``torch.cuda.current_stream().cuda_stream``). gpunp queues work on it
    but never destroys it: its owner must keep it alive while gpunp uses
    it. On the host backend any handle is the host's stream."""

    __module__ = "gpunp.cuda"

    def __init__(self, ptr, device_id=-1):
        self._prev = []
        out = ffi.new("gp_stream_t **")
        check(lib.gp_stream_wrap(int(ptr), out))
        self._h = ffi.gc(out[0], lib.gp_stream_destroy)
        _own(self)
        self.non_blocking, self.priority, self.device_id = False, 0, int(device_id)


class _PerThreadStream:
    """``Stream.ptds``: the per-thread default stream (cudaStreamPerThread,
    the native handle 2), made at first use (which starts the backend)."""

    stream = None

    def __get__(self, obj, cls):
        if _PerThreadStream.stream is None:
            _PerThreadStream.stream = ExternalStream(2)
        return _PerThreadStream.stream


Stream.ptds = _PerThreadStream()

_host_calls: dict = {}  # launch_host_func's callbacks until they run
_host_cb = None


def _run_host_call(handle):
    callback, arg = ffi.from_handle(handle)
    _host_calls.pop(int(ffi.cast("uintptr_t", handle)), None)
    callback(arg)  # an exception has no caller to go to: cffi prints it


def _host_fn():
    global _host_cb
    if _host_cb is None:
        from gpunp.cuda.memory import _immortal  # a call may run during shutdown
        _host_cb = _immortal(ffi.callback("void(void *)", _run_host_call))
    return _host_cb


class Graph:
    """Work captured on a stream, replayed by launch() with one call. The
    arrays the captured kernels used must stay alive while it may run."""

    __module__ = "gpunp.cuda"

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
    owner = _owners.get(int(ffi.cast("uintptr_t", cur[0])))
    if owner is not None:
        return owner
    s = Stream.__new__(Stream)
    s._h, s._prev, s.non_blocking, s.priority = cur[0], [], False, 0
    return s


class Event:
    """A point in a stream's work: ``record()`` it, then ``synchronize()``,
    ask ``done``, or time the work between two events with ``elapsed_time``."""

    __module__ = "gpunp.cuda"

    def __init__(self, block=False, disable_timing=False, interprocess=False):
        if interprocess and not disable_timing:
            # CUDA's rule: an interprocess event has no timing data
            raise ValueError("an interprocess event needs disable_timing=True")
        out = ffi.new("gp_event_t **")
        flags = lib.GP_EVENT_INTERPROCESS if interprocess else 0 if disable_timing else \
            lib.GP_EVENT_TIMING
        st = lib.gp_event_create(flags, out)
        if st and (st & 0xFF) == lib.GP_ERR_UNSUPPORTED:
            from gpunp._config import backend
            raise RuntimeError(f"interprocess events are not available on the {backend()} "
                               "backend")
        check(st)
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
