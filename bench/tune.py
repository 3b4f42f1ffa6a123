"""Measures launch shapes and the allocator on a device, each setting in a
fresh process, so the defaults come from measurements:

    python -m bench.tune [launch|ew|copy|reduction|scan|allocator|transfer|sort|svd|compile|spmv ...]

GPUNP_TUNE_UNROLL (vector accesses per thread per iteration) and
GPUNP_TUNE_WAVES (resident grids per launch) against the bandwidth rows;
GPUNP_TUNE_EW_WAVES (the same for the elementwise runner alone) against
the bandwidth and transpose rows;
GPUNP_TUNE_COPY_KERNEL (a dense copy by the elementwise copy kernel, 1, or
the driver's device-to-device copy, 0) against the copy rows;
GPUNP_TUNE_RED_SPLIT (how far long reductions are split) against the
reduction rows;
GPUNP_TUNE_SCAN_CUB (CUDA's scans of contiguous lines by CUB's agent, 1,
or by the engine's own tiles, 0), GPUNP_TUNE_SCAN_CUB_THREADS and _ITEMS
(that agent's block and items a thread; 0, CUB's sm_90 tuning) and
GPUNP_TUNE_SCAN_VEC (the own tiles with 16-byte vectors, 1, or element by
element, 0) against the cumsum row and the sort, whose digit passes scan
their counts;
GPUNP_ALLOCATOR (gpunp's pool or the driver's stream-ordered pool) against
per-call overheads and an allocation-heavy loop;
GPUNP_TRANSFER (the driver's pageable copies, "direct", or gpunp's staging
through page-locked buffers) against host <-> device copies of 1 MiB-1 GiB;
GPUNP_TUNE_SORT (the LSD passes, "lsd", or onesweep) against sort of 1e8
float32, argsort of 1e7 float32, sort of 1e7 int64 and unique of 1e8
float32, each checked against NumPy ("... equal" is 1.0 where identical);
GPUNP_TUNE_SVD (cuSOLVER's gesvd, "gesvd", or its Jacobi gesvdj, the
default) against svd of 2048 x 2048 float64;
GPUNP_TUNE_OFC (NVRTC's fast-compile level for generated kernels: off,
"min", "mid", "max") against the cold first call and the bandwidth rows
that its lost optimisations could slow;
GPUNP_TUNE_SPMV_VENDOR (CSR SpMV by the engine's vector kernel, 0, or by
cuSPARSE after a pass that checks the indices, 1) against the sparse SpMV
row.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import tempfile

PROBE = r"""
import json, sys, time
sys.path.append(sys.argv[2])  # bench/, after the installed gpunp
import numpy as np, gpunp as gp
from bench import libs, workloads as W
lib = libs.Gpunp()
names = sys.argv[1].split(";")
res = {}
from bench.__main__ import best_seconds, measure
for w in W.workloads(quick=False):
    if w.name in names:
        res[w.name] = measure(w, lib)
if "alloc loop" in names:
    xs = [gp.empty(1 << k) for k in range(4, 20)]
    t = time.perf_counter()
    for i in range(20000):
        a = gp.empty(1000 + (i % 7) * 512, dtype=np.float32)
        del a
    lib.sync()
    res["alloc loop"] = (time.perf_counter() - t) / 20000 * 1e6
if "transfers" in names:
    for mib in (1, 2, 4, 8, 16, 64, 256, 1024):
        h = np.random.default_rng(0).random(mib << 17)  # float64
        d = gp.asarray(h)
        for what, fn in (("h2d", lambda: gp.asarray(h)), ("d2h", lambda: d.get())):
            res[f"{what} {mib} MiB GB/s"] = h.nbytes / best_seconds(lib, fn, warmup=1) / 1e9
if "sort check" in names:
    rng = np.random.default_rng(0)
    cases = (("sort 1e8 float32", rng.random(10 ** 8, dtype=np.float32), gp.sort, np.sort),
             ("argsort 1e7 float32", rng.random(10 ** 7, dtype=np.float32),
              gp.argsort, lambda h: np.argsort(h, kind="stable")),
             ("sort 1e7 int64", rng.integers(-2 ** 62, 2 ** 62, 10 ** 7), gp.sort, np.sort),
             ("unique 1e8 float32", rng.random(10 ** 8, dtype=np.float32), gp.unique,
              np.unique))
    for what, h, f, ref in cases:
        d = gp.asarray(h)
        res[f"{what} equal"] = float(np.array_equal(f(d).get(), ref(h)))
        res[f"{what} ms"] = best_seconds(lib, lambda: f(d), warmup=1) * 1e3
        del d
if "first call" in names:
    cold, warm, compiling, floor, _ = W.first_call_ms({})
    res.update({"first call cold ms": cold, "of which compiling ms": compiling,
                "NVRTC floor ms": floor})
print(json.dumps(res))
"""

BANDWIDTH = ["a + b, 268435456 float32", "exp(a), 268435456 float32",
             "a.copy(), 268435456 float32", "a.astype(float16), 268435456 float32"]
REDUCTIONS = ["sum(), 16384x16384 float32", "sum(axis=0), 16384x16384 float32",
              "argmax, 16384x16384 float32"]
SCANS = ["cumsum, 268435456 float32", "sort, 100000000 float32"]
OVERHEAD = ["a + b, 1000 float32, per call", "zeros(n), 1000 float32, per call", "alloc loop"]
SPMV = ["sparse CSR SpMV, 16777216 rows, 134217728 nonzeros float32 (bytes implied)"]


def probe(env, names):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    r = subprocess.run([sys.executable, "-c", PROBE, ";".join(names), root],
                       env=dict(os.environ, **env), capture_output=True, text=True,
                       cwd=tempfile.gettempdir())
    if r.returncode:
        print(r.stderr[-2000:], file=sys.stderr)
        return {"error": r.stderr[-500:]}
    return json.loads(r.stdout.strip().splitlines()[-1])


GROUPS = {
    "launch": ([{"GPUNP_TUNE_UNROLL": str(u), "GPUNP_TUNE_WAVES": str(w)}
                for u, w in itertools.product((1, 2), (1, 32))], BANDWIDTH),
    "ew": ([{"GPUNP_TUNE_EW_WAVES": str(w)} for w in (32, 128, 512, 4096)],
           BANDWIDTH + ["transpose copy, 16384x16384 float32"]),
    "copy": ([{"GPUNP_TUNE_COPY_KERNEL": k} for k in ("0", "1")],
             BANDWIDTH[2:3] + ["a.copy(), 1 float32, per call", "a.copy(), 1000 float32, per call"]),
    "reduction": ([{"GPUNP_TUNE_RED_SPLIT": str(k)} for k in (1, 4, 16)], REDUCTIONS),
    "scan": ([{"GPUNP_TUNE_SCAN_CUB": "0", "GPUNP_TUNE_SCAN_VEC": v} for v in ("0", "1")]
             + [{"GPUNP_TUNE_SCAN_CUB_THREADS": str(t), "GPUNP_TUNE_SCAN_CUB_ITEMS": str(i)}
                for t, i in ((0, 0), (128, 16), (128, 20), (128, 32), (256, 16), (256, 24))],
             SCANS),
    "allocator": ([{"GPUNP_ALLOCATOR": a} for a in ("pool", "driver")], OVERHEAD),
    "transfer": ([{"GPUNP_TRANSFER": t} for t in ("direct", "staged")], ["transfers"]),
    "sort": ([{"GPUNP_TUNE_SORT": t} for t in ("lsd", "onesweep")], ["sort check"]),
    "svd": ([{"GPUNP_TUNE_SVD": d} for d in ("gesvd", "gesvdj")], ["svd 2048x2048 float64"]),
    "compile": ([{"GPUNP_TUNE_OFC": o} for o in ("0", "min", "mid", "max")],
                ["first call"] + BANDWIDTH[:2] + REDUCTIONS[:1] + SCANS[:1]),
    "spmv": ([{"GPUNP_TUNE_SPMV_VENDOR": v} for v in ("0", "1")], SPMV),
}


def main():
    """python -m bench.tune [group ...] (default: every group)"""
    rows = []
    for group in sys.argv[1:] or GROUPS:
        envs, names = GROUPS[group]
        for env in envs:
            r = probe(env, names)
            rows.append({"env": env, "results": r})
            print(env, {k: round(v, 3) for k, v in r.items() if isinstance(v, float)},
                  flush=True)
    out = os.environ.get("OUT", tempfile.gettempdir())
    with open(os.path.join(out, "tune.json"), "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
