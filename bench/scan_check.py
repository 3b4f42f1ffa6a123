"""Checks gpunp's accumulations on a GPU against NumPy and times the
headline one. On a GPU a long line runs the single-pass scan over tiles
(4096 float32 elements a tile, 2048 of 8-byte and 16-byte types) with
decoupled look-back between blocks, which the host backend's test run,
with its one block of one thread, cannot exercise.

    make -s all && mkdir -p build && cd build   # so that the installed gpunp is found
    GPUNP_BACKEND=cuda ../.venv/bin/python ../bench/scan_check.py           # checks, timing
    GPUNP_BACKEND=cuda ../.venv/bin/python ../bench/scan_check.py --quick   # to 2^20+3

The values keep every partial result exact (small integers; products of
+-1 with a few powers of two), so any order of combination must give
NumPy's result bit for bit: each line is PASS or FAIL, and the exit status
is the number of failures. The timing row is `add.accumulate` (cumsum) of
2^28 float32, counting 8 bytes per element (one read, one write), the
median of 20 runs between CUDA events.
"""

from __future__ import annotations

import argparse
import statistics
import sys

import numpy as np

import gpunp as gp

SIZES = [1, 255, 256, 257, 2047, 2048, 2049, 4095, 4096, 4097, 65 * 4096 + 1, 2**20 + 3, 2**28]
DTYPES = ["float32", "float64", "int32", "int64", "complex64"]
UFUNCS = ["add", "multiply", "maximum", "minimum"]


def values(name, dt, shape, seed):
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    kind = np.dtype(dt).kind
    r = rng.integers(0, 1 << 20, shape, dtype=np.int32)
    if name == "multiply":
        # +-1, and a few powers of two so that exponents stay in range
        # (integers wrap alike in any order)
        x = np.where(r & 1, 1.0, -1.0)
        few = (r >> 1) < min(1 << 19, (20 << 19) // max(n, 1))
        if kind not in "iu":
            x[few] *= np.where(r[few] & 2, 2.0, 0.5)
        else:
            x[few] *= 2
        if kind == "c":
            x = x * np.where(r & 4, 1, 1j)
    else:
        x = (r % 5 - 2).astype(np.float64)
        if kind == "c":
            x = x + 1j * ((r >> 3) % 5 - 2)
    return x.astype(dt)


def check(label, name, h, axis=0, view=lambda a: a):
    g = view(gp.asarray(h))
    h = view(h)
    want = getattr(np, name).accumulate(h, axis=axis)
    got = getattr(gp, name).accumulate(g, axis=axis).get()
    if got.dtype != want.dtype:
        print(f"FAIL {label}: dtype {got.dtype}, NumPy {want.dtype}")
        return False
    bad = ~((got == want) | (np.isnan(got) & np.isnan(want)))
    if bad.any():
        first = np.argwhere(bad)[0]
        print(f"FAIL {label}: {int(bad.sum())} of {bad.size} differ, first at {tuple(first)}: "
              f"{got[tuple(first)]!r} vs {want[tuple(first)]!r}")
        return False
    print(f"PASS {label}")
    return True


def time_cumsum(n=2**28, repeats=20):
    cuda = gp.cuda
    a = gp.asarray(np.random.default_rng(0).random(n, dtype=np.float32))
    out = gp.empty(n, dtype=np.float32)
    rows = {}
    for label, fn in (("add.accumulate(a)", lambda: gp.add.accumulate(a)),
                      ("add.accumulate(a, out=o)", lambda: gp.add.accumulate(a, out=out))):
        for _ in range(3):
            fn()
        cuda.Device().synchronize()
        ms = []
        for _ in range(repeats):
            e0, e1 = cuda.Event(), cuda.Event()
            e0.record()
            fn()
            e1.record()
            e1.synchronize()
            ms.append(cuda.get_elapsed_time(e0, e1))
        rows[label] = statistics.median(ms)
    for label, t in rows.items():
        print(f"TIME gpunp {label}, 2^28 float32: {t:.3f} ms, {8 * n / t / 1e9:.2f} TB/s")
    try:  # the reference the target was set against, where present
        import torch
        x = torch.rand(n, device="cuda")
        for _ in range(3):
            torch.cumsum(x, 0)
        torch.cuda.synchronize()
        ms = []
        for _ in range(repeats):
            e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            e0.record()
            torch.cumsum(x, 0)
            e1.record()
            e1.synchronize()
            ms.append(e0.elapsed_time(e1))
        t = statistics.median(ms)
        print(f"TIME torch.cumsum, 2^28 float32: {t:.3f} ms, {8 * n / t / 1e9:.2f} TB/s")
    except Exception as e:  # noqa: BLE001 - optional comparison
        print(f"(no PyTorch comparison: {type(e).__name__})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="sizes up to 2^20+3, no timing")
    args = ap.parse_args()
    print(f"gpunp {gp.__version__} on backend {gp.backend()}")
    if gp.backend() == "host":
        print("note: the host backend runs one block of one thread; this checks a GPU")
    sizes = [n for n in SIZES if not args.quick or n <= 2**20 + 3]
    failures = 0
    for dt in DTYPES:
        for name in UFUNCS:
            for n in sizes:
                h = values(name, dt, n, n % 1000)
                failures += not check(f"{name}.accumulate {dt} n={n}", name, h)
    # several lines: along the contiguous axis, across it, and strided
    for dt in ("float32", "complex64", "int64"):
        h = values("add", dt, (5, 3 * 4096 + 17), 1)
        failures += not check(f"add.accumulate {dt} {h.shape} axis=1", "add", h, 1)
        failures += not check(f"add.accumulate {dt} {h.shape} axis=0", "add", h, 0)
        failures += not check(f"add.accumulate {dt} {h.shape} .T[::-3] axis=0", "add", h, 0,
                              lambda a: a.T[::-3])
        failures += not check(f"maximum.accumulate {dt} (4097, 33) axis=0", "maximum",
                              values("maximum", dt, (4097, 33), 2), 0)
    # the scratch is cleared for each launch: the same call many times
    h = values("add", "float32", 2**20 + 3, 7)
    g, want = gp.asarray(h), np.add.accumulate(h)
    same = all(np.array_equal(gp.add.accumulate(g).get(), want) for _ in range(50))
    print(f"{'PASS' if same else 'FAIL'} add.accumulate float32 n=2^20+3, 50 repeats")
    failures += not same
    print(f"{failures} failure(s)")
    if not args.quick and gp.backend() != "host":
        time_cumsum()
    return min(failures, 100)


if __name__ == "__main__":
    sys.exit(main())
