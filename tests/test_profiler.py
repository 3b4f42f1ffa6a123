"""gpunp.profiler (CuPy's cupyx.profiler): benchmark's counts, times and
report; time_range as a context manager and a decorator; profile()."""

import ctypes
import math
import re
import subprocess

import numpy as np
import pytest

import gpunp as gp
from gpunp import profiler


def test_benchmark_counts_runs_and_reports_times():
    calls = []

    def work(a, scale=1.0):
        calls.append(1)
        return a * scale

    a = gp.arange(100.0)
    r = profiler.benchmark(work, (a,), {"scale": 2.0}, n_repeat=7, n_warmup=3)
    assert len(calls) == 10
    assert r.name == "work" and r.devices == (gp.cuda.get_device_id(),)
    assert r.cpu_times.shape == (7,) and r.gpu_times.shape == (1, 7)
    assert r.cpu_times.dtype == np.float64
    assert (r.cpu_times >= 0).all() and (r.gpu_times >= 0).all()
    assert r.cpu_times.max() < 60  # seconds, not milliseconds or microseconds
    text = str(r)
    assert text.startswith("work") and "CPU:" in text and "GPU-0:" in text and " us" in text
    mean = float(re.search(r"CPU:\s*([0-9.]+) us", text).group(1))
    assert math.isclose(mean, r.cpu_times.mean() * 1e6, rel_tol=1e-3, abs_tol=1e-3)
    assert "GPU" not in r.to_str() and "+/-" in r.to_str()
    one = profiler.benchmark(work, (a,), n_repeat=1, n_warmup=0, name="once")
    assert "+/-" not in str(one) and str(one).startswith("once")


def test_benchmark_stops_at_max_duration():
    r = profiler.benchmark(lambda: sum(range(1000)), n_repeat=10 ** 9, n_warmup=0,
                           max_duration=0.05)
    assert 1 <= r.cpu_times.size < 10 ** 9


@pytest.mark.parametrize("kwargs", [
    {"func": 1}, {"args": [1]}, {"kwargs": ()}, {"n_repeat": 1.0}, {"name": 3},
    {"n_warmup": None}, {"max_duration": "1"}, {"devices": [0]},
])
def test_benchmark_refuses_bad_arguments(kwargs):
    args = dict({"func": lambda: None}, **kwargs)
    with pytest.raises(ValueError):
        profiler.benchmark(**args)


def test_time_range_and_profile_run_the_code():
    seen = []
    with profiler.time_range("block", color_id=3):
        seen.append("block")
    with profiler.time_range("sync", argb_color=0xff336699, sync=True) as rng:
        seen.append(rng.message)

    @profiler.time_range()
    def step(x):
        return x + 1

    @profiler.time_range("named", color_id=0)
    def step2(x):
        return x * 2

    assert step(1) == 2 and step.__name__ == "step" and step2(3) == 6
    with pytest.raises(ValueError):
        profiler.time_range("x", color_id=1, argb_color=1)
    with pytest.raises(ValueError):
        with profiler.time_range():
            pass
    with profiler.profile():
        seen.append(int(gp.arange(4).sum()))
    assert seen == ["block", "sync", 6]
    assert isinstance(profiler.available(), bool)


FAKE_NVTX = r"""
#include <stdint.h>
#include <string.h>
/* NVTX's event attributes (version 2), as nvToolsExt.h lays them out */
typedef struct {
    uint16_t version, size;
    uint32_t category;
    int32_t colorType;
    uint32_t color;
    int32_t payloadType, reserved0;
    union { uint64_t u; double d; } payload;
    int32_t messageType;
    union { const char *ascii; } message;
} attrs_t;
char last[64];
uint32_t last_color;
int depth, pushes, sizes_ok;
int nvtxRangePushA(const char *m) {
    strncpy(last, m, 63); last_color = 0; ++pushes; return depth++;
}
int nvtxRangePushEx(const attrs_t *a) {
    sizes_ok = a->size == sizeof(attrs_t) && a->version == 2 && a->colorType == 1 &&
               a->messageType == 1;
    strncpy(last, a->message.ascii, 63); last_color = a->color; ++pushes; return depth++;
}
int nvtxRangePop(void) { return --depth; }
"""


def test_time_range_calls_nvtx(tmp_path, monkeypatch):
    """time_range's calls and event attributes, through a stand-in for
    libnvToolsExt built here (the real one needs a CUDA install)."""
    src, so = tmp_path / "nvtx.c", tmp_path / "libfake_nvtx.so"
    src.write_text(FAKE_NVTX)
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(so), str(src)], check=True)
    lib = profiler._bind_nvtx(ctypes.CDLL(str(so)))
    monkeypatch.setattr(profiler, "_nvtx", [lib])
    assert profiler.available()
    depth = ctypes.c_int.in_dll(lib, "depth")
    last = (ctypes.c_char * 64).in_dll(lib, "last")
    with profiler.time_range("plain"):
        assert depth.value == 1 and last.value == b"plain"
    assert depth.value == 0
    with profiler.time_range("coloured", argb_color=0x80123456):
        assert ctypes.c_int.in_dll(lib, "sizes_ok").value == 1
        assert ctypes.c_uint32.in_dll(lib, "last_color").value == 0x80123456
    with profiler.time_range("by id", color_id=8):  # the table's second colour
        assert ctypes.c_uint32.in_dll(lib, "last_color").value == 0xff0000ff

    @profiler.time_range()
    def step():
        return last.value, depth.value

    assert step() == (b"step", 1) and depth.value == 0
    with pytest.raises(KeyError):
        with profiler.time_range("raising"):
            raise KeyError
    assert depth.value == 0 and ctypes.c_int.in_dll(lib, "pushes").value == 5
