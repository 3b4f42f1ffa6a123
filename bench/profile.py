"""The workloads whose H200 targets are not met, each called once after a
warm-up inside an NVTX-free profiling window, for Nsight Compute:

    ncu --clock-control none --section SpeedOfLight --csv \
        --profile-from-start off python -m bench.profile [names...]

Each library's run is bracketed by cudaProfilerStart/Stop (through CuPy's
runtime binding, or ctypes on libcudart), so the report holds the kernels of
the measured call alone: their names tell whose kernels run (for fft and the
factorizations, cuFFT's and cuSOLVER's own, the same in gpunp and CuPy), and
their times and DRAM throughput say where the time goes."""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

import numpy as np

from bench import libs, workloads as W

NAMES = ["cumsum, 268435456 float32", "sum(axis=0), 16384x16384 float32",
         "exp(a), 268435456 float32", "sort, 100000000 float32",
         "unique, 100000000 float32", "fft complex64 16777216", "fft2 complex64 4096x4096",
         "solve 4096x4096 float64", "svd 2048x2048 float64",
         "standard_normal(268435456, dtype=float32)", "median, 100000000 float32",
         "a[a > 0.5], 268435456 float32", "take of 10000000 indices"]


def _profiler():
    for name in ("cudart", "cudart.so.13", "cudart.so.12"):
        path = ctypes.util.find_library(name)
        if path:
            try:
                return ctypes.CDLL(path)
            except OSError:
                pass
    import glob
    for path in sorted(glob.glob("/usr/local/cuda*/lib64/libcudart.so*")):
        try:
            return ctypes.CDLL(path)
        except OSError:
            pass
    raise SystemExit("no libcudart to start the profiler with")


def main(argv):
    names = argv or NAMES
    rt = _profiler()
    todo = [w for w in W.workloads(quick=False) if any(w.name.startswith(n) for n in names)]
    for lib in libs.available(["gpunp", "cupy"]):
        for w in todo:
            fn = w.make(lib, w.size)
            if fn is None:
                continue
            fn()
            fn()
            lib.sync()
            print(f"=== {lib.name}: {w.name}", flush=True)
            rt.cudaProfilerStart()
            fn()
            lib.sync()
            rt.cudaProfilerStop()
            del fn


if __name__ == "__main__":
    main(sys.argv[1:])
