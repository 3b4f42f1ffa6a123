"""Bench rows of scipy.spatial.distance: cdist (euclidean, cityblock) of
16384 x 16384 points of 64 float32 features, pdist (cosine) of 8192 such
points; gpunp.scipy against cupyx.scipy (and SciPy on the CPU at the quick
sizes). `rows(quick)` gives the Workload objects; the lead hooks them into
the table.

cupyx.scipy.spatial.distance computes through pylibraft (RAFT); where that
is not installed CuPy's call raises, and the row records CuPy as unable to
run it (bench's measure_in_turns prints the error and leaves CuPy out)."""

from __future__ import annotations

import functools

import numpy as np

from .workloads import Workload, _host_f32, _to_host

# rows of the answer checked against SciPy (the whole of a 16384^2 cdist
# would take SciPy on the CPU longer than the row itself)
_CHECK_ROWS = 256


def _distance_module(lib, n, quick_n):
    if lib.name == "gpunp":
        import gpunp.scipy.spatial.distance as m
        return m
    if lib.name == "cupy":
        import cupyx.scipy.spatial.distance as m
        return m
    if lib.name == "numpy" and n <= quick_n:
        import scipy.spatial.distance as m
        return m
    return None


@functools.lru_cache(maxsize=2)
def _want(kind, metric, m, k):
    """SciPy's answer on the first _CHECK_ROWS rows of the output."""
    import scipy.spatial.distance as sd
    xa = _host_f32((m, k), 0)
    if kind == "cdist":
        return sd.cdist(xa[:_CHECK_ROWS], _host_f32((m, k), 1), metric)
    # pdist's first rows of the square form: pairs (i, j > i), i < _CHECK_ROWS
    full = sd.cdist(xa[:_CHECK_ROWS], xa, metric)
    return np.concatenate([full[i, i + 1:] for i in range(min(_CHECK_ROWS, m - 1))])


def _check(lib, kind, got, want):
    got = _to_host(lib, got)
    if kind == "cdist":
        got = got[:_CHECK_ROWS]
    else:
        got = got[:want.size]
    scale = float(np.abs(want).max(initial=0))
    # float32 inputs, answers in double (SciPy's) or float32 (RAFT's)
    if got.shape != want.shape or not np.allclose(got, want, rtol=1e-4, atol=1e-5 * scale):
        raise AssertionError(f"{lib.name}'s answer differs from SciPy's")


def _make(kind, metric, k, quick_n):
    def make(lib, m):
        mod = _distance_module(lib, m, quick_n)
        if mod is None:
            return None
        xa = lib.asarray(_host_f32((m, k), 0))
        if kind == "cdist":
            xb = lib.asarray(_host_f32((m, k), 1))

            def fn():
                return mod.cdist(xa, xb, metric)
        else:
            def fn():
                return mod.pdist(xa, metric)
        _check(lib, kind, fn(), _want(kind, metric, m, k))
        return fn
    return make


def rows(quick: bool) -> list:
    k = 64
    c, p = (1024, 1024) if quick else (16384, 8192)
    quick_n = 1024
    return [
        Workload(f"spatial.distance.cdist euclidean, {c}x{c} points of {k} float32", "ms", c,
                 _make("cdist", "euclidean", k, quick_n)),
        Workload(f"spatial.distance.cdist cityblock, {c}x{c} points of {k} float32", "ms", c,
                 _make("cdist", "cityblock", k, quick_n)),
        Workload(f"spatial.distance.pdist cosine, {p} points of {k} float32", "ms", p,
                 _make("pdist", "cosine", k, quick_n)),
    ]
