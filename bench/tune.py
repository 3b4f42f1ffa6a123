"""Measures launch shapes and the allocator on a device, each setting in a
fresh process, so the defaults come from measurements:

    python -m bench.tune

GPUNP_TUNE_UNROLL (vector accesses per thread per iteration) and
GPUNP_TUNE_WAVES (resident grids per launch) against the bandwidth rows;
GPUNP_TUNE_RED_SPLIT (how far long reductions are split) against the
reduction rows;
GPUNP_ALLOCATOR (gpunp's pool or the driver's stream-ordered pool) against
per-call overheads and an allocation-heavy loop.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import tempfile

PROBE = r"""
import json, sys, time, numpy as np, gpunp as gp
from bench import libs, workloads as W
lib = libs.Gpunp()
names = sys.argv[1].split(";")
res = {}
for w in W.workloads(quick=False):
    if w.name in names:
        from bench.__main__ import measure
        res[w.name] = measure(w, lib)
if "alloc loop" in names:
    xs = [gp.empty(1 << k) for k in range(4, 20)]
    t = time.perf_counter()
    for i in range(20000):
        a = gp.empty(1000 + (i % 7) * 512, dtype=np.float32)
        del a
    lib.sync()
    res["alloc loop"] = (time.perf_counter() - t) / 20000 * 1e6
print(json.dumps(res))
"""

BANDWIDTH = ["a + b, 268435456 float32", "exp(a), 268435456 float32",
             "a.copy(), 268435456 float32", "a.astype(float16), 268435456 float32"]
REDUCTIONS = ["sum(), 16384x16384 float32", "sum(axis=0), 16384x16384 float32",
              "argmax, 16384x16384 float32"]
OVERHEAD = ["a + b, 1000 float32, per call", "zeros(n), 1000 float32, per call", "alloc loop"]


def probe(env, names):
    e = dict(os.environ, **env)
    e["PYTHONPATH"] = os.pathsep.join([e.get("PYTHONPATH", ""), os.getcwd()])
    r = subprocess.run([sys.executable, "-P", "-c", PROBE, ";".join(names)], env=e,
                       capture_output=True, text=True, cwd=os.getcwd())
    if r.returncode:
        return {"error": r.stderr[-500:]}
    return json.loads(r.stdout.strip().splitlines()[-1])


def main():
    rows = []
    for unroll, waves in itertools.product((1, 2), (1, 32)):
        env = {"GPUNP_TUNE_UNROLL": str(unroll), "GPUNP_TUNE_WAVES": str(waves)}
        r = probe(env, BANDWIDTH)
        rows.append({"env": env, "results": r})
        print(env, {k: round(v, 3) for k, v in r.items() if isinstance(v, float)}, flush=True)
    for split in (1, 4, 16):
        env = {"GPUNP_TUNE_RED_SPLIT": str(split)}
        r = probe(env, REDUCTIONS)
        rows.append({"env": env, "results": r})
        print(env, {k: round(v, 3) for k, v in r.items() if isinstance(v, float)}, flush=True)
    for alloc in ("pool", "driver"):
        env = {"GPUNP_ALLOCATOR": alloc}
        r = probe(env, OVERHEAD)
        rows.append({"env": env, "results": r})
        print(env, {k: round(v, 3) for k, v in r.items() if isinstance(v, float)}, flush=True)
    out = os.environ.get("OUT", tempfile.gettempdir())
    with open(os.path.join(out, "tune.json"), "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
