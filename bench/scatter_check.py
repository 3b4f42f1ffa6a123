"""What the all-or-nothing scatter costs: `a[idx] = v` for 10^7 int64 indices
into 10^7 float64 elements, in mode raise (a checking pass over the
indices, the scatter, and one wait for the error record) against the same
scatter in mode wrap (no check, no wait), with random and with sorted
indices. Each result is checked against NumPy first; then each row is the
median of 20 runs, each timed from the call to the device's end (a
synchronisation after the call, so the raise row's own wait is inside).

    GPUNP_BACKEND=cuda python bench/scatter_check.py          # on a GPU
    python bench/scatter_check.py --n 100000                   # the host backend
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import gpunp as gp


def timed(fn, sync, runs):
    times = []
    for _ in range(runs):
        sync()
        t = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10**7)
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    n = args.n
    rng = np.random.default_rng(0)
    sync = gp.cuda.Device().synchronize
    rows = []
    for order in ("random", "sorted"):
        idx = rng.permutation(n) if order == "random" else np.arange(n)
        vals = rng.standard_normal(n)
        want = np.zeros(n)
        want[idx] = vals
        g_idx, g_vals = gp.asarray(idx), gp.asarray(vals)
        a = gp.zeros(n)
        for mode in ("raise", "wrap"):
            a.fill(0)
            gp.put(a, g_idx, g_vals, mode=mode)
            np.testing.assert_array_equal(a.get(), want)
        t_raise = timed(lambda: gp.put(a, g_idx, g_vals, mode="raise"), sync, args.runs)
        t_wrap = timed(lambda: gp.put(a, g_idx, g_vals, mode="wrap"), sync, args.runs)
        a.fill(0)
        a[g_idx] = g_vals
        np.testing.assert_array_equal(a.get(), want)
        t_set = timed(lambda: a.__setitem__(g_idx, g_vals), sync, args.runs)
        rows.append((order, t_raise, t_wrap, t_set))
    print(f"gpunp {gp.__version__} on {gp.backend()}: {n} float64 elements, int64 indices")
    print("| indices | put raise (us) | put wrap (us) | a[idx] = v (us) | raise / wrap |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for order, r, w, s in rows:
        print(f"| {order} | {r * 1e6:.1f} | {w * 1e6:.1f} | {s * 1e6:.1f} | {r / w:.3f} |")


if __name__ == "__main__":
    main()
