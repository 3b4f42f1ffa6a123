"""``gpunp.profiler``: CuPy's ``cupyx.profiler``. ``benchmark`` times a
function on the host clock and on each device's events; ``time_range``
marks an NVTX range (a context manager or a decorator) for Nsight Systems;
``profile()`` brackets the code a profiler started with
``--capture-range=cudaProfilerApi`` records.

NVTX is libnvToolsExt (the ``nvidia-nvtx`` wheel's, or the system's), found
when first needed; without it, and on the host backend, ``time_range`` marks
nothing and ``profile()`` starts nothing, so the same code runs everywhere
(``available()`` says whether ranges are recorded)."""

from __future__ import annotations

import contextlib
import ctypes
import functools
import math
import os
import sys
import time

import numpy

import gpunp

__all__ = ["benchmark", "profile", "time_range"]


# ---- benchmark ----------------------------------------------------------------------------

class _PerfCaseResult:
    """What ``benchmark`` measured: ``cpu_times`` (seconds on the host clock,
    one per repeat) and ``gpu_times`` (seconds between events recorded on
    each device's current stream before and after the call, one row per
    device); ``str()`` gives the mean, spread and range of each in
    microseconds."""

    def __init__(self, name: str, ts: numpy.ndarray, devices: tuple):
        self.name, self._ts, self._devices = name, ts, devices

    @property
    def cpu_times(self) -> numpy.ndarray:
        return self._ts[0]

    @property
    def gpu_times(self) -> numpy.ndarray:
        return self._ts[1:]

    @property
    def devices(self) -> tuple:
        return self._devices

    @staticmethod
    def _line(label: str, t: numpy.ndarray) -> str:
        us = t * 1e6
        s = f"    {label}:{us.mean():9.3f} us"
        if t.size > 1:
            s += f"   +/-{us.std():7.3f} (min:{us.min():9.3f} / max:{us.max():9.3f}) us"
        return s

    def to_str(self, show_gpu: bool = False) -> str:
        parts = [self._line("CPU", self.cpu_times)]
        if show_gpu:
            parts += [self._line(f"GPU-{d}", t) for d, t in zip(self._devices, self.gpu_times)]
        return f"{self.name:<20s}:" + " ".join(parts)

    def __str__(self):
        return self.to_str(show_gpu=True)

    def __repr__(self):
        return f"<gpunp.profiler benchmark result {self.name!r}: {self.cpu_times.size} runs>"


def benchmark(func, args=(), kwargs={}, n_repeat=10000, *, name=None, n_warmup=10,
              max_duration=math.inf, devices=None):
    """Runs ``func(*args, **kwargs)`` `n_warmup` times, then up to
    `n_repeat` times (fewer once `max_duration` seconds have passed), timing
    each run on the host clock and, for each device id in `devices` (the
    current device by default), between events on that device's current
    stream. The events are waited for after each run, so a GPU time is the
    run's whole work."""
    if not callable(func):
        raise ValueError("`func` should be a callable object.")
    if not isinstance(args, tuple):
        raise ValueError("`args` should be of tuple type.")
    if not isinstance(kwargs, dict):
        raise ValueError("`kwargs` should be of dict type.")
    if not isinstance(n_repeat, int):
        raise ValueError("`n_repeat` should be an integer.")
    if name is None:
        name = func.__name__
    if not isinstance(name, str):
        raise ValueError("`name` should be a string.")
    if not isinstance(n_warmup, int):
        raise ValueError("`n_warmup` should be an integer.")
    if not numpy.isreal(max_duration):
        raise ValueError("`max_duration` should be given in seconds")
    if devices is None:
        devices = (gpunp.cuda.get_device_id(),)
    if not isinstance(devices, tuple):
        raise ValueError("`devices` should be of tuple type")
    return _repeat(func, args, kwargs, n_repeat, name, n_warmup, max_duration, devices)


def _record(events, devices):
    for e, d in zip(events, devices):
        with gpunp.cuda.Device(d):
            e.record()


def _event(device):
    with gpunp.cuda.Device(device):  # an event belongs to its device
        return gpunp.cuda.Event()


def _repeat(func, args, kwargs, n_repeat, name, n_warmup, max_duration, devices):
    starts = [_event(d) for d in devices]
    ends = [_event(d) for d in devices]
    for _ in range(n_warmup):
        func(*args, **kwargs)
    cpu, gpu = [], [[] for _ in devices]
    spent = 0.0
    for _ in range(n_repeat):
        _record(starts, devices)
        t0 = time.perf_counter()
        func(*args, **kwargs)
        t1 = time.perf_counter()
        _record(ends, devices)
        for k, (s, e) in enumerate(zip(starts, ends)):
            e.synchronize()
            gpu[k].append(gpunp.cuda.get_elapsed_time(s, e) * 1e-3)
        cpu.append(t1 - t0)
        spent += time.perf_counter() - t0
        if spent > max_duration:
            break
    ts = numpy.array([cpu] + gpu, dtype=numpy.float64).reshape(1 + len(devices), len(cpu))
    return _PerfCaseResult(name, ts, devices)


# ---- NVTX ---------------------------------------------------------------------------------

def _library_dirs():
    """The nvidia-* wheels' library folders on sys.path (nvidia/nvtx/lib)."""
    for p in sys.path:
        d = os.path.join(p or ".", "nvidia", "nvtx", "lib")
        if os.path.isdir(d):
            yield d


def _load_nvtx():
    names = [os.path.join(d, "libnvToolsExt.so.1") for d in _library_dirs()]
    for name in names + ["libnvToolsExt.so.1", "libnvToolsExt.so"]:
        try:
            return _bind_nvtx(ctypes.CDLL(name))
        except OSError:
            continue
    return None


def _bind_nvtx(lib):
    """NVTX's range calls of `lib`, with their argument types."""
    lib.nvtxRangePushA.argtypes = [ctypes.c_char_p]
    lib.nvtxRangePushEx.argtypes = [ctypes.c_void_p]
    return lib


class _EventAttributes(ctypes.Structure):
    # nvtxEventAttributes_t of NVTX's C API (version 2): an ARGB colour and
    # an ASCII message
    _fields_ = [("version", ctypes.c_uint16), ("size", ctypes.c_uint16),
                ("category", ctypes.c_uint32), ("colorType", ctypes.c_int32),
                ("color", ctypes.c_uint32), ("payloadType", ctypes.c_int32),
                ("reserved0", ctypes.c_int32), ("payload", ctypes.c_uint64),
                ("messageType", ctypes.c_int32), ("message", ctypes.c_char_p)]


_NVTX_COLOR_ARGB, _NVTX_MESSAGE_ASCII = 1, 1
# The colours of color_id (CuPy's table, used modulo its length)
_COLORS = (0xff00ff00, 0xff0000ff, 0xffffff00, 0xffff00ff, 0xff00ffff, 0xffff0000, 0xffffffff)
_nvtx = []  # [library or None], loaded at first use


def _nvtx_lib():
    if not _nvtx:
        _nvtx.append(_load_nvtx())
    return _nvtx[0]


def available() -> bool:
    """Whether NVTX ranges are recorded (libnvToolsExt was found)."""
    return _nvtx_lib() is not None


def _push(lib, message: str, argb):
    text = message.encode()
    if argb is None:
        lib.nvtxRangePushA(text)
        return
    a = _EventAttributes(version=2, size=ctypes.sizeof(_EventAttributes),
                         colorType=_NVTX_COLOR_ARGB, color=argb & 0xffffffff,
                         messageType=_NVTX_MESSAGE_ASCII, message=text)
    lib.nvtxRangePushEx(ctypes.byref(a))


class time_range(contextlib.ContextDecorator):
    """An NVTX range named `message` around a block (``with
    time_range('step'):``) or a function (``@time_range()``: the function's
    name by default). `color_id` picks a colour from a table, `argb_color`
    gives one (0xAARRGGBB); `sync` waits for the device before the range
    starts and before it ends, so the range holds the device's work."""

    def __init__(self, message=None, color_id=None, argb_color=None, sync=False):
        if color_id is not None and argb_color is not None:
            raise ValueError("Only either color_id or argb_color can be specified")
        if message is not None and not isinstance(message, str):
            raise TypeError("message must be a str")
        self.message, self.sync = message, sync
        self.argb_color = argb_color if color_id is None else _COLORS[color_id % len(_COLORS)]

    def __enter__(self):
        if self.message is None:
            raise ValueError("when used as a context manager, the message argument cannot be "
                             "None")
        if self.sync:
            gpunp.cuda.runtime.deviceSynchronize()
        lib = _nvtx_lib()
        if lib is not None:
            _push(lib, self.message, self.argb_color)
        return self

    def __exit__(self, *exc):
        if self.sync:
            gpunp.cuda.runtime.deviceSynchronize()
        lib = _nvtx_lib()
        if lib is not None:
            lib.nvtxRangePop()
        return False

    def __call__(self, func):
        rng = self if self.message is not None else \
            time_range(func.__name__, argb_color=self.argb_color, sync=self.sync)

        @functools.wraps(func)
        def inner(*args, **kwargs):
            with rng:
                return func(*args, **kwargs)
        return inner


# ---- profiler start and stop --------------------------------------------------------------

def _driver():
    """libcuda's cuProfilerStart/Stop on the CUDA backend; None elsewhere."""
    if gpunp.backend() != "cuda":
        return None
    return ctypes.CDLL("libcuda.so.1")


@contextlib.contextmanager
def profile():
    """Starts the CUDA profiler for the block and stops it after, so that a
    profiler run with ``--capture-range=cudaProfilerApi`` (nsys) records
    only the block. A no-op on the host backend, which has no profiler."""
    drv = _driver()
    if drv is not None:
        gpunp.cuda.runtime.deviceSynchronize()  # a current context for the driver call
        st = drv.cuProfilerStart()
        if st:
            raise RuntimeError(f"cuProfilerStart failed (CUresult {st})")
    try:
        yield
    finally:
        if drv is not None:
            gpunp.cuda.runtime.deviceSynchronize()
            st = drv.cuProfilerStop()
            if st:
                raise RuntimeError(f"cuProfilerStop failed (CUresult {st})")
