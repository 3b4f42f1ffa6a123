"""Tables and charts of benchmark results, with ratios to CuPy and PyTorch,
and what a result must record of the machine it was measured on."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

# the vendor libraries whose files a run loaded (each library's own copy
# or the system's: they differ between wheels)
_VENDOR = re.compile(r"/(lib(?:cublas|cublasLt|cufft|cusolver|cusparse|curand|nvrtc|cudart|"
                     r"nvJitLink|nccl|amdhip64|hiprtc|rocblas|hipblas|rocfft|hipfft|rocsolver|"
                     r"hipsparse|rocsparse)[^/\s]*\.so[^/\s]*)$")


def _fmt(v, unit):
    if v is None:
        return "—"
    if unit == "us":
        return f"{v:.2f} µs"
    if unit == "ms":
        return f"{v:.3g} ms"
    return f"{v:.2f} {unit}"


def ratio(row, other):
    """How many times better gpunp is than `other` on this row (>1: better)."""
    v = row["values"]
    if "gpunp" not in v or other not in v or not v[other] or not v["gpunp"]:
        return None
    r = v["gpunp"] / v[other]
    return r if row["higher_is_better"] else 1 / r


def line(row) -> str:
    parts = [f"{row['workload']:<48}"]
    for lib in ("gpunp", "cupy", "torch", "numpy"):
        if lib in row["values"]:
            parts.append(f"{lib} {_fmt(row['values'][lib], row['unit'])}")
        elif lib in row.get("invalid", {}):
            parts.append(f"{lib} INVALID (wrong answer)")
    for lib in ("cupy", "torch"):
        r = ratio(row, lib)
        if r is not None:
            parts.append(f"x{r:.2f} vs {lib}")
    return "  ".join(parts)


def markdown(meta, rows) -> str:
    host = f", host {meta['host_cpu']}" if meta.get("host_cpu") else ""
    out = [f"Measured {meta['date']} on {meta['device']} ({meta['backend']} backend{host}); "
           f"Python {meta['python']}, NumPy {meta['numpy']}, "
           + ", ".join(f"{k} {v}" for k, v in meta["libs"].items()) + ".", "",
           "Ratios: how many times better gpunp is (above 1: gpunp is faster)."
           + (f" Per-call rows: the best of {meta['per_call_passes']} passes through them, "
              "the later ones after every other row." if meta.get("per_call_passes", 1) > 1
              else ""), "",
           "| workload | gpunp | CuPy | PyTorch | NumPy | vs CuPy | vs PyTorch |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        v = r["values"]
        cells = [_fmt(v.get(k), r["unit"]) for k in ("gpunp", "cupy", "torch", "numpy")]
        rats = [ratio(r, k) for k in ("cupy", "torch")]
        out.append(f"| {r['workload']} | " + " | ".join(cells) + " | " +
                   " | ".join("—" if x is None else f"{x:.2f}×" for x in rats) + " |")
    return "\n".join(out) + "\n"


def chart(rows, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    names, vc, vt = [], [], []
    for r in rows:
        a, b = ratio(r, "cupy"), ratio(r, "torch")
        if a is None and b is None:
            continue
        names.append(r["workload"])
        vc.append(a or 0)
        vt.append(b or 0)
    if not names:
        return
    fig, ax = plt.subplots(figsize=(10, 0.32 * len(names) + 1.5))
    y = range(len(names))
    ax.barh([i + 0.2 for i in y], vc, height=0.4, label="vs CuPy")
    ax.barh([i - 0.2 for i in y], vt, height=0.4, label="vs PyTorch")
    ax.axvline(1.0, color="k", lw=0.8)
    ax.set_yticks(list(y))
    ax.set_yticklabels(names, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("times better than the other library (gpunp / other; > 1: gpunp faster)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def _commit() -> str:
    """The commit measured: the wheel's on the lent machine
    (tools/device_run.sh sets BENCH_COMMIT from .whl/COMMIT), else the
    checkout's."""
    if os.environ.get("BENCH_COMMIT"):
        return os.environ["BENCH_COMMIT"]
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=10).stdout.strip() or "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


def _gpu_state() -> dict:
    """Driver, clocks, power and temperature (nvidia-smi), where there is one."""
    fields = "driver_version,clocks.sm,clocks.mem,power.draw,temperature.gpu,name"
    try:
        out = subprocess.run(["nvidia-smi", f"--query-gpu={fields}", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=20).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return {}
    if not out:
        return {}
    first = [v.strip() for v in out.splitlines()[0].split(",")]
    return dict(zip(fields.split(","), first))


def vendor_libraries() -> list:
    """The vendor libraries this process has loaded, by file."""
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        return []
    found = set()
    for ln in maps.splitlines():
        m = _VENDOR.search(ln.split(" ")[-1])
        if m:
            found.add(ln.split(" ")[-1])
    return sorted(found)


def environment() -> dict:
    """What a published result records besides its numbers: the commit, the
    GPU's driver and state, the vendor library files loaded, every GPUNP_*
    setting."""
    return {"commit": _commit(), "gpu_state": _gpu_state(),
            "vendor_libraries": vendor_libraries(),
            "gpunp_settings": {k: v for k, v in sorted(os.environ.items())
                               if k.startswith("GPUNP_")}}

