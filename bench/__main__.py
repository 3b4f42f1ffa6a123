"""Runs the benchmarks and writes results.json, results.md and results.png.

    python -m bench                 # every workload, full sizes (on the H200)
    python -m bench --quick         # reduced sizes (the host backend, CI machines)
    python -m bench --only matmul   # workloads whose name contains a text
    python -m bench --only "take|cumsum|first call"   # or one of several
    python -m bench --only "program:"   # the whole-program rows (fusion.py, e2e.py)
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from bench import e2e as E
from bench import libs as L
from bench import report
from bench import workloads as W


def best_seconds(lib: L.Lib, fn, warmup=2, repeats=5) -> float:
    """The shortest wall time of fn() until the device is done (copies to
    and from the host, whose time is the host's too)."""
    for _ in range(warmup):
        fn()
    lib.sync()
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        lib.sync()
        best = min(best, time.perf_counter() - t)
    return best


def rate(w: W.Workload, ms: float) -> float:
    if w.unit == "ms":  # a factorization: its time, not a rate
        return ms
    return w.amount(w.size) / (ms * 1e-3) / 1e12


def repeats(w: W.Workload) -> int:
    """Timed calls of a GPU-time row, per library."""
    return {"TFLOP/s": 10, "ms": 5}.get(w.unit, 20)


def measure(w: W.Workload, lib: L.Lib):
    fn = w.make(lib, w.size)
    if fn is None:
        return None
    if w.unit == "us":
        return lib.overhead_us(fn, calls=w.calls or (20000 if lib.gpu else 2000))
    if w.unit == "GB/s":
        return w.amount(w.size) / best_seconds(lib, fn) / 1e9
    if not lib.gpu:  # NumPy: seconds per call on the big rows
        return rate(w, lib.time_ms(fn, warmup=1, repeats=3))
    return rate(w, lib.time_ms(fn, repeats=repeats(w)))


ROUNDS = 5
SLOW_ROUNDS = 2  # where a library's call takes more than libs.SLOW_S


def measure_in_turns(w: W.Workload, libs: list, invalid: dict) -> dict:
    """Device time of `w` for each GPU library, in ROUNDS rounds that time
    every library in turn; each library's median over all its repeats. The
    device's clocks and temperature drift over a row, and a library timed in
    a block of its own met a spell of its own: float16's matmul was 0.97x
    PyTorch's in one run and 1.01-1.02x in three others (docs/performance.md)."""
    fns, times, calls = {}, {}, {}
    rounds = ROUNDS
    for lib in libs:
        try:
            fn = w.make(lib, w.size)
            if fn is None:
                continue
            if lib.warm_up(fn) > L.SLOW_S:
                rounds = SLOW_ROUNDS
            calls[lib] = lib.calls_for(fn)
        except Exception as e:
            _failed(lib, w, e, invalid)
            continue
        fns[lib], times[lib] = fn, []
    per_round = max(1, repeats(w) // ROUNDS)
    for _ in range(rounds):
        for lib, fn in list(fns.items()):
            try:
                times[lib] += [lib.device_ms(fn, calls[lib]) for _ in range(per_round)]
            except Exception as e:
                _failed(lib, w, e, invalid)
                del fns[lib], times[lib]
    return {lib.name: rate(w, statistics.median(t)) for lib, t in times.items()}


def _failed(lib, w, e, invalid):
    """A library's failure on a row, said on stderr; a wrong answer (the
    row's check, an AssertionError) marks its value invalid, not missing."""
    print(f"  {lib.name}: {w.name}: {type(e).__name__}: {e}", file=sys.stderr)
    if isinstance(e, AssertionError):
        invalid[lib.name] = str(e) or "wrong answer"


def _host_cpu() -> str:
    """The host's processor: the per-call rows time the CPU, and the lent
    GPU machines differ in theirs."""
    try:
        with open("/proc/cpuinfo") as f:
            names = [ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")]
        return f"{names[0]}, {len(names)} logical CPUs" if names else platform.processor()
    except OSError:
        return platform.processor() or "?"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="")
    ap.add_argument("--libs", default="gpunp,cupy,torch,numpy")
    ap.add_argument("--out", default="bench/results")
    ap.add_argument("--passes", type=int, default=3,
                    help="per-call rows: the best of this many passes, the later ones "
                         "after every other row")
    args = ap.parse_args()
    only = [t for t in args.only.split("|") if t]

    def wanted(name):
        return not only or any(t in name for t in only)
    first_call = None
    if wanted("first call") and "gpunp" in args.libs.split(","):
        # before this process imports CuPy or PyTorch (PyTorch sets CUDA
        # variables in os.environ, which the children would inherit) and
        # holds device memory: a fresh process on a quiet machine, as a user's
        first_call = W.first_call_ms({})
    # the end-to-end programs in fresh processes, before this one holds a device too
    fresh = E.fresh_process_rows(args.libs.split(","), args.quick) if any(
        wanted(name) for name in E.fresh_row_names(args.quick)) else []
    libs = L.available(args.libs.split(","))
    rows = []
    per_call = []
    for w in W.workloads(args.quick):
        if not wanted(w.name):
            continue
        started = time.perf_counter()
        row = {"workload": w.name, "unit": w.unit, "higher_is_better": w.higher_is_better,
               "values": {}, "invalid": {}}
        gpus = [lib for lib in libs if lib.gpu] if w.unit not in ("us", "GB/s") else []
        row["values"].update(measure_in_turns(w, gpus, row["invalid"]) if gpus else {})
        for lib in libs:
            if (w.gpu_only and not lib.gpu) or lib in gpus:
                continue
            try:
                v = measure(w, lib)
            except Exception as e:
                _failed(lib, w, e, row["invalid"])
                v = None
            if v is not None:
                row["values"][lib.name] = v
        rows.append(row)
        if w.unit == "us":
            per_call.append((w, row))
        # the row's own time (inputs, checks, compiles, timing): device runs are budgeted
        print(f"{report.line(row)}  [{time.perf_counter() - started:.0f} s]", flush=True)
        for lib in libs:  # release memory between workloads
            if lib.name == "cupy":
                lib.xp.get_default_memory_pool().free_all_blocks()
            if lib.name == "torch":
                lib.xp.cuda.empty_cache()
    # the lent machine's CPU has slow spells, seconds to minutes long, that
    # doubled every library's per-call times in some runs: those rows are
    # measured again after the rest, and each keeps its best
    for _ in range(args.passes - 1):
        for w, row in per_call:
            for lib in libs:
                if lib.name in row["values"]:
                    v = measure(w, lib)
                    row["values"][lib.name] = min(row["values"][lib.name], v or float("inf"))
    if per_call and args.passes > 1:
        print(f"per-call rows, best of {args.passes} passes:")
        for _, row in per_call:
            print(report.line(row), flush=True)
    if first_call is not None:
        cold, warm, compiling, floor, packed = first_call
        for label, v in (("cold cache", cold), ("warm cache", warm),
                         ("cold cache, of which in the compiler", compiling),
                         ("NVRTC's time for an empty kernel (its floor)", floor),
                         ("cold cache, served by the wheel's kernel pack", packed)):
            rows.append({"workload": f"first call of a new elementwise kernel, {label}",
                         "unit": "ms", "higher_is_better": False, "values": {"gpunp": v}})
            print(report.line(rows[-1]), flush=True)
    for row in fresh:
        rows.append(row)
        print(report.line(row), flush=True)
    if wanted("import"):
        if any(lib.name == "gpunp" for lib in libs):
            # NumPy's own import is part of gpunp's; CuPy's is the comparison
            rows.append({"workload": "import <library>", "unit": "ms", "higher_is_better": False,
                         "values": {lib.name: W.import_ms(lib.xp.__name__) for lib in libs
                                    if lib.name in ("gpunp", "cupy", "numpy")}})
            print(report.line(rows[-1]), flush=True)
            rows.append({"workload": "import <library> after numpy", "unit": "ms",
                         "higher_is_better": False,
                         "values": {lib.name: W.import_ms(lib.xp.__name__, after="numpy")
                                    for lib in libs if lib.name in ("gpunp", "cupy")}})
            print(report.line(rows[-1]), flush=True)
    if wanted("allocator"):
        if any(lib.name == "gpunp" and lib.gpu for lib in libs):
            # the same workloads on gpunp's pool and on the driver's pool
            for kind in ("pool", "driver"):
                for label, v in zip(W.ALLOCATOR_ROWS, W.allocator_us(kind)):
                    rows.append({"workload": f"{label}, GPUNP_ALLOCATOR={kind}", "unit": "us",
                                 "higher_is_better": False, "values": {"gpunp": v}})
                    print(report.line(rows[-1]), flush=True)
    import gpunp
    meta = {"date": time.strftime("%Y-%m-%d %H:%M"), "python": platform.python_version(),
            "numpy": np.__version__, "gpunp": gpunp.__version__, "backend": gpunp.backend(),
            "device": gpunp._config.config("device_name"), "host_cpu": _host_cpu(),
            "libs": {lib.name: getattr(lib.xp, "__version__", "?") for lib in libs},
            "quick": args.quick, "per_call_passes": args.passes, **report.environment()}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=1))
    (out / "results.md").write_text(report.markdown(meta, rows))
    report.chart(rows, out / "results.png")
    print(f"wrote {out}/results.json, results.md, results.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
