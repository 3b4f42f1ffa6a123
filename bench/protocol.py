"""The protocol for numbers we publish: each row measured in several fresh
processes, each timing the libraries in its own random order; per library
the median over the processes and their spread; per ratio against gpunp a
95 % interval, and a ratio whose interval holds 1 reported as a tie.

    python -m bench.protocol --only "matmul|eigh|solve|scipy.special" --procs 5

A process is `python -m bench` itself, so each row's answer has been
checked against NumPy's or SciPy's before it was timed, and a wrong answer
stays INVALID here. matmul, eigh and solve run the same vendor routine in
every library: ties there are the noise floor the other intervals are read
against. The interval is Student's t over the processes' log-ratios (the
ratio of gpunp's value to the other library's within one process, where
both met the same machine state), turned back into a ratio.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench import report

# Student's t at 97.5 % for n - 1 degrees of freedom (n processes, 2..30)
_T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
         9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131,
         16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093, 20: 2.086, 21: 2.080, 22: 2.074,
         23: 2.069, 24: 2.064, 25: 2.060, 26: 2.056, 27: 2.052, 28: 2.048, 29: 2.045}
OTHERS = ("cupy", "torch", "numpy")


def ratio_interval(ratios):
    """(median, low, high) of a ratio measured once per process: the 95 %
    interval of its geometric mean by Student's t on the logarithms; None
    for fewer than two processes."""
    rs = [r for r in ratios if r and r > 0 and math.isfinite(r)]
    if len(rs) < 2:
        return None
    logs = [math.log(r) for r in rs]
    m, sd = statistics.fmean(logs), statistics.stdev(logs)
    half = _T975.get(len(rs) - 1, 1.96) * sd / math.sqrt(len(rs))
    return statistics.median(rs), math.exp(m - half), math.exp(m + half)


def verdict(interval) -> str:
    """"faster", "slower" or "tie" (gpunp against the other library)."""
    if interval is None:
        return "?"
    _, lo, hi = interval
    return "faster" if lo > 1 else "slower" if hi < 1 else "tie"


def aggregate(runs):
    """Rows over the processes' results: per library the values, the
    median and spread, and per other library gpunp's ratio interval."""
    rows = {}
    for run in runs:
        for r in run["rows"]:
            row = rows.setdefault(r["workload"], {
                "workload": r["workload"], "unit": r["unit"],
                "higher_is_better": r["higher_is_better"], "per_process": [], "invalid": {}})
            row["per_process"].append(r["values"])
            row["invalid"].update(r.get("invalid", {}))
    out = []
    for row in rows.values():
        libs = {lib for values in row["per_process"] for lib in values}
        row["values"] = {}
        row["spread"] = {}
        for lib in sorted(libs - set(row["invalid"])):
            vs = [v[lib] for v in row["per_process"] if v.get(lib)]
            if vs:
                row["values"][lib] = statistics.median(vs)
                row["spread"][lib] = (min(vs), max(vs))
        row["intervals"] = {}
        for other in OTHERS:
            if "gpunp" not in row["values"] or other not in row["values"]:
                continue
            paired = [v["gpunp"] / v[other] for v in row["per_process"]
                      if v.get("gpunp") and v.get(other)]
            if not row["higher_is_better"]:
                paired = [1 / p for p in paired]
            row["intervals"][other] = ratio_interval(paired)
        out.append(row)
    return out


def markdown(meta, rows) -> str:
    lines = [f"Measured {meta.get('date', '?')} on {meta.get('device', '?')} "
             f"(commit {meta.get('commit', '?')[:12]}), {meta['procs']} fresh processes a row, "
             "each with the libraries in a random order. Values: the median over the "
             "processes (min-max); ratios: how many times better gpunp is, the median and "
             "its 95 % interval; a tie where the interval holds 1.", "",
             "| workload | gpunp | CuPy | PyTorch | vs CuPy | vs PyTorch |",
             "| --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        cells = []
        for lib in ("gpunp", "cupy", "torch"):
            if lib in r["invalid"]:
                cells.append("INVALID")
            elif lib in r["values"]:
                lo, hi = r["spread"][lib]
                cells.append(f"{report._fmt(r['values'][lib], r['unit'])} "
                             f"({report._fmt(lo, r['unit'])}-{report._fmt(hi, r['unit'])})")
            else:
                cells.append("—")
        for other in ("cupy", "torch"):
            iv = r["intervals"].get(other)
            cells.append("—" if iv is None else
                         f"{iv[0]:.2f}× [{iv[1]:.2f}, {iv[2]:.2f}] {verdict(iv)}")
        lines.append(f"| {r['workload']} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="")
    ap.add_argument("--libs", default="gpunp,cupy,torch")
    ap.add_argument("--procs", type=int, default=5)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--out", default="bench/results/protocol")
    args = ap.parse_args()
    if args.procs < 2:
        ap.error("--procs must be at least 2: an interval needs two processes")
    rng = random.Random(args.seed)
    libs = args.libs.split(",")
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for p in range(args.procs):
            order = libs[:]
            rng.shuffle(order)
            out = Path(tmp) / str(p)
            cmd = [sys.executable, "-m", "bench", "--libs", ",".join(order), "--passes", "1",
                   "--out", str(out)] + (["--only", args.only] if args.only else []) + \
                  (["--quick"] if args.quick else [])
            print(f"process {p + 1} of {args.procs}: libraries in the order {order}", flush=True)
            subprocess.run(cmd, check=True)
            runs.append(json.loads((out / "results.json").read_text()))
    rows = aggregate(runs)
    meta = dict(runs[0]["meta"], procs=args.procs,
                orders=[r["meta"].get("libs") for r in runs])
    dest = Path(args.out)
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "protocol.json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=1))
    (dest / "protocol.md").write_text(markdown(meta, rows))
    print(markdown(meta, rows))
    print(f"wrote {dest}/protocol.json and protocol.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
