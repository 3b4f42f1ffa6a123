"""Tables and charts of benchmark results, with ratios to CuPy and PyTorch."""

from __future__ import annotations


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
