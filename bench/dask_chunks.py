"""Bench rows of Dask arrays over gpunp chunks, against Dask over CuPy
chunks (issue 44), on the threaded scheduler. Arrays larger than the GPU
are streamed from host memory: every chunk is one host-to-device copy of a
host block (the same block each time, so the host needs only one). The
lead hooks ``rows(quick)`` into ``workloads()``; other libraries get no row."""

from __future__ import annotations

import numpy as np

from bench.workloads import Workload, _to_host

CHUNK = 1 << 26          # float32 elements a chunk of the streamed rows (256 MiB)
GRAM_ROWS = 1 << 20      # rows a chunk of x.T @ x (64 float32 columns: 256 MiB)


def _dask(lib):
    if lib.name not in ("gpunp", "cupy"):
        return None
    try:
        import dask
        import dask.array as da
    except ImportError:
        return None
    if lib.name == "gpunp":
        import gpunp.dask  # noqa: F401
    return dask, da


def _streamed(lib, da, shape, chunks, seed):
    # a Dask array of device chunks, each uploaded from one host block
    host = np.random.default_rng(seed).random(chunks, dtype=np.float32)
    meta = lib.asarray(np.empty((0,) * len(shape), dtype=np.float32))
    return da.map_blocks(lambda block_info=None: lib.asarray(host), chunks=da.core.normalize_chunks(
        chunks, shape), dtype=np.float32, meta=meta)


def _reduction(lib, n):
    got = _dask(lib)
    if got is None:
        return None
    dask, da = got
    x = _streamed(lib, da, (n,), (CHUNK,), 0)
    want = float(np.random.default_rng(0).random(CHUNK, dtype=np.float32).sum(dtype=np.float64))

    def fn():
        return dask.compute(x.sum(dtype=np.float64), scheduler="threads")[0]
    total = float(fn())
    if not np.isclose(total, want * (n // CHUNK), rtol=1e-6):
        raise AssertionError(f"{lib.name}'s sum differs")
    return fn


def _stencil(lib, n):
    got = _dask(lib)
    if got is None:
        return None
    dask, da = got
    x = _streamed(lib, da, (n,), (CHUNK,), 1)
    xp = lib.xp
    # a second difference over each chunk and its neighbours' edge elements
    y = x.map_overlap(lambda b: xp.diff(b, 2), depth=1, boundary="periodic", trim=False,
                      chunks=(CHUNK,), dtype=np.float32)
    s = y.sum(dtype=np.float64)
    # every chunk is the same host block, so each one's neighbours' edges are its own
    h = np.random.default_rng(1).random(CHUNK, dtype=np.float32)
    want = np.diff(np.concatenate([h[-1:], h, h[:1]]), 2)
    if not np.allclose(_to_host(lib, y.blocks[1].compute(scheduler="threads")), want,
                       rtol=1e-6, atol=1e-6):
        raise AssertionError(f"{lib.name}'s stencil differs")

    def fn():
        return dask.compute(s, scheduler="threads")[0]
    return fn


def _gram(lib, rows):
    got = _dask(lib)
    if got is None:
        return None
    dask, da = got
    x = _streamed(lib, da, (rows, 64), (GRAM_ROWS, 64), 2)
    g = x.T @ x
    h = np.random.default_rng(2).random((GRAM_ROWS, 64), dtype=np.float32).astype(np.float64)
    want = (h.T @ h) * (rows // GRAM_ROWS)

    def fn():
        return dask.compute(g, scheduler="threads")[0]
    r = _to_host(lib, fn())
    if not np.allclose(r, want, rtol=1e-3):
        raise AssertionError(f"{lib.name}'s x.T @ x differs")
    return fn


def _device_bytes() -> int:
    import gpunp

    if gpunp.backend() == "host":
        return 1 << 30
    free_total = gpunp.cuda.runtime.memGetInfo()
    return int(free_total[1])


def rows(quick: bool) -> list:
    n = (1 << 28) if quick else (2 * _device_bytes() // 4 // CHUNK * CHUNK)
    gram_rows = (1 << 22) if quick else (1 << 26)
    return [
        # float32 read once (after its host-to-device copy)
        Workload(f"dask: sum of {n} float32 streamed from the host, {CHUNK}-element chunks",
                 "GB/s", n, _reduction, lambda n: 4 * n, True),
        Workload(f"dask: map_overlap second difference + sum, {n} float32 from the host",
                 "GB/s", n, _stencil, lambda n: 4 * n, True),
        Workload(f"dask: x.T @ x, {gram_rows}x64 float32 in {GRAM_ROWS}-row chunks", "ms",
                 gram_rows, _gram),
    ]
