"""Bench rows of gpunp.scipy.stats, against cupyx.scipy.stats where CuPy has
the function and SciPy on the host (the "numpy" library) everywhere.
The lead hooks ``rows(quick)`` into ``workloads()``."""

from __future__ import annotations

import numpy as np

from bench.workloads import Workload, _checked, _host_f32, _scipy, _to_host


def _stats(lib):
    return _scipy(lib, "stats")


def _zscore(lib, side):
    # zscore along axis 0 of side x side float32
    st = _stats(lib)
    if st is None or not hasattr(st, "zscore"):
        return None
    import scipy.stats
    h = _host_f32((side, side), 0)
    a = lib.asarray(h)
    return _checked(lib, lambda: st.zscore(a, axis=0), scipy.stats.zscore(h, axis=0), 1e-4)


def _rankdata(lib, n):
    st = _stats(lib)
    if st is None or not hasattr(st, "rankdata"):
        return None
    import scipy.stats
    # ties on purpose: 2^16 distinct values
    h = np.floor(_host_f32(n, 1) * 65536).astype(np.float32)
    a = lib.asarray(h)
    return _checked(lib, lambda: st.rankdata(a), scipy.stats.rankdata(h), 1e-12)


def _kde(data_n, points_n):
    def make(lib, _n):
        st = _stats(lib)
        if st is None or not hasattr(st, "gaussian_kde"):
            return None
        import scipy.stats
        rng = np.random.default_rng(2)
        data, pts = rng.standard_normal(data_n), rng.standard_normal(points_n) * 2
        kde = st.gaussian_kde(lib.asarray(data))
        p = lib.asarray(pts)

        def fn():
            return kde(p)
        # SciPy's answer at the first 256 points (all of them takes SciPy minutes)
        got = _to_host(lib, fn())[:256]
        want = scipy.stats.gaussian_kde(data)(pts[:256])
        if not np.allclose(got, want, rtol=1e-10, atol=0):
            raise AssertionError(f"{lib.name}'s answer differs from SciPy's")
        return fn
    return make


def _norm_cdf(lib, n):
    st = _stats(lib)
    if st is None or not hasattr(st, "norm"):
        return None
    import scipy.stats
    h = _host_f32(n, 3) * 8 - 4
    a = lib.asarray(h)
    return _checked(lib, lambda: st.norm.cdf(a), scipy.stats.norm.cdf(h), 1e-12)


def rows(quick: bool) -> list:
    side = 1 << (10 if quick else 13)
    n_rank = 1 << (18 if quick else 24)
    kde_data, kde_points = (1 << 10, 1 << 12) if quick else (1 << 14, 1 << 16)
    n_norm = 1 << (20 if quick else 26)
    return [
        # zscore reads a twice (mean, variance) and writes the scores once
        Workload(f"stats.zscore(axis=0), {side}x{side} float32", "TB/s", side, _zscore,
                 lambda s: 3 * 4 * s * s, True),
        Workload(f"stats.rankdata, {n_rank} float32 (ties)", "ms", n_rank, _rankdata),
        Workload(f"stats.gaussian_kde, {kde_data} points evaluated at {kde_points}", "ms",
                 kde_points, _kde(kde_data, kde_points)),
        # float32 in, float64 out (SciPy's distributions compute in float64)
        Workload(f"stats.norm.cdf, {n_norm} float32", "TB/s", n_norm, _norm_cdf,
                 lambda n: 12 * n, True),
    ]
