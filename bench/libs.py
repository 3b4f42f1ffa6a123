"""The libraries under comparison, behind one small interface: put host data
on the device, synchronize, and time device work with the library's events."""

from __future__ import annotations

import math
import statistics
import time

import numpy as np


# A timed window holds calls enough to fill this many milliseconds, so
# that what it measures is the device's work, not the host's dispatch gaps
# between two events around one short call
WINDOW_MS = 2.0
MAX_CALLS = 64
# a call this long (eigsh of a 2^20-row Laplacian) is timed in fewer rounds:
# five rounds of such rows took the whole of a GPU run's bench stage
SLOW_S = 1.0


class Lib:
    name = "?"
    gpu = True

    def __init__(self):
        self.xp = None

    def asarray(self, h):
        return self.xp.asarray(h)

    def sync(self):
        pass

    def settle(self):
        """After a workload's first call: whatever the library still does
        for it in the background is done (its steady state is timed)."""

    def events(self):
        """A pair of callables (record_start, elapsed_ms_since_start)."""
        raise NotImplementedError

    def warm_up(self, fn, warmup=3) -> float:
        """fn() in its steady state from here on: its first call, whatever
        the library still does for it after, then `warmup` more calls (one
        where a call takes seconds). The seconds of the last call."""
        for k in range(1 + warmup):
            t = time.perf_counter()
            fn()
            if k == 0:
                self.settle()
            else:
                self.sync()
            took = time.perf_counter() - t
            if k >= 1 and took > SLOW_S:
                break
        return took

    def device_ms(self, fn, calls=1) -> float:
        """The device time of one fn() in milliseconds, from a window of
        `calls` calls between two events."""
        start, stop = self.events()
        start()
        for _ in range(calls):
            fn()
        return stop() / calls

    def calls_for(self, fn) -> int:
        """How many calls of fn() (warmed up) fill a timed window."""
        ms = self.device_ms(fn)
        return max(1, min(MAX_CALLS, math.ceil(WINDOW_MS / max(ms, 1e-4))))

    def time_ms(self, fn, warmup=3, repeats=20) -> float:
        """Median device time of fn() in milliseconds."""
        self.warm_up(fn, warmup)
        calls = self.calls_for(fn)
        return statistics.median(self.device_ms(fn, calls) for _ in range(repeats))

    def overhead_us(self, fn, calls=20000) -> float:
        """Wall time per call of fn() in microseconds (CPU overhead)."""
        fn()
        self.settle()
        for _ in range(200):
            fn()
        self.sync()
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            for _ in range(calls):
                fn()
            self.sync()
            best = min(best, (time.perf_counter() - t0) / calls * 1e6)
        return best


class _CupyApi(Lib):
    """gpunp and CuPy: the same device, stream and event interface."""

    def sync(self):
        self.xp.cuda.Device().synchronize()

    def events(self):
        cuda = self.xp.cuda
        a, b = cuda.Event(), cuda.Event()
        a.record()

        def stop():
            b.record()
            b.synchronize()
            return cuda.get_elapsed_time(a, b)
        return (lambda: None), stop


class Gpunp(_CupyApi):
    name = "gpunp"

    def __init__(self):
        import gpunp
        self.xp = gpunp
        self.gpu = gpunp.backend() != "host"

    def settle(self):
        # a new kernel's first calls run a scalar loop compiled quickly while
        # the kernel itself compiles on the cache's thread (cache/cache.c)
        from gpunp._config import finish_compiles
        finish_compiles()


class Cupy(_CupyApi):
    name = "cupy"

    def __init__(self):
        import cupy
        self.xp = cupy


class Torch(Lib):
    name = "torch"

    def __init__(self):
        import torch
        if not torch.cuda.is_available():
            raise ImportError("PyTorch has no CUDA device")
        self.xp = torch

    def asarray(self, h):
        return self.xp.as_tensor(h, device="cuda")

    def sync(self):
        self.xp.cuda.synchronize()

    def events(self):
        cuda = self.xp.cuda
        a, b = cuda.Event(enable_timing=True), cuda.Event(enable_timing=True)
        a.record()

        def stop():
            b.record()
            b.synchronize()
            return a.elapsed_time(b)
        return (lambda: None), stop


class Numpy(Lib):
    name = "numpy"
    gpu = False

    def __init__(self):
        self.xp = np

    def events(self):
        t0 = time.perf_counter()
        return (lambda: None), (lambda: (time.perf_counter() - t0) * 1e3)


def available(names) -> list:
    """The libraries of `names` that load, in that order (the order they
    are timed in within a row: bench/protocol.py shuffles it)."""
    out = []
    classes = {cls.name: cls for cls in (Gpunp, Cupy, Torch, Numpy)}
    for cls in (classes[n] for n in names if n in classes):
        try:
            out.append(cls())
        except Exception as e:  # a library that is not installed is left out
            print(f"({cls.name} not measured: {type(e).__name__}: {e})")
    return out
