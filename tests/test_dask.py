"""gpunp chunks in dask.array, each program compared with the same program
on NumPy chunks (gpunp.dask; docs/multi-gpu.md)."""

import os
import subprocess
import sys

import numpy
import pytest

import gpunp

dask = pytest.importorskip("dask")  # the one allowed skip: the GPU machine has no Dask
da = pytest.importorskip("dask.array")

import gpunp.dask  # noqa: E402,F401  (registers gpunp; the lazy paths are tested in a subprocess)

RNG = numpy.random.default_rng(44)
H = RNG.standard_normal((40, 6))
HNAN = H.copy()
HNAN[3, 2] = HNAN[17, 0] = numpy.nan  # for the nan-reductions (nannumel)
C = (10, 6)


def both(f, host=H, chunks=C):
    """f on a dask array of NumPy chunks and one of gpunp chunks, computed."""
    want = dask.compute(f(da.from_array(host, chunks=chunks)), scheduler="sync")[0]
    got = dask.compute(f(da.from_array(gpunp.asarray(host), chunks=chunks)),
                       scheduler="sync")[0]
    return want, got


def same(want, got):
    if isinstance(want, tuple):
        assert len(want) == len(got)
        for w, g in zip(want, got):
            same(w, g)
        return
    assert isinstance(got, gpunp.ndarray), type(got)
    g = gpunp.asnumpy(got)
    assert g.dtype == numpy.asarray(want).dtype
    # a GPU sums in its own order: float32's rounding, not float64's
    tol = max(1e-12, 16 * numpy.finfo(g.dtype).eps) if g.dtype.kind in "fc" else 1e-12
    numpy.testing.assert_allclose(g, want, rtol=tol, atol=tol, equal_nan=True)


def _stencil(b):
    return b[2:] - 2 * b[1:-1] + b[:-2]


# What dask.array does with chunks (issue 44's list); a few kernels each,
# compiled once per run, so one row per Dask code path rather than every op
OPS = {
    "elementwise": lambda d: numpy.sin(d) * 2 + d ** 2,  # NumPy's ufunc defers to Dask
    "sum_axis0": lambda d: d.sum(axis=0),
    "mean": lambda d: d[:, :2].mean(),
    "std_axis1": lambda d: d.std(axis=1),     # numel_lookup
    "argmax": lambda d: d.argmax(axis=0),
    "cumsum": lambda d: d.cumsum(axis=0),
    "gram": lambda d: d.T @ d,
    "tensordot": lambda d: da.tensordot(d, d, axes=([0], [0])),
    "einsum": lambda d: da.einsum("ij,ik->jk", d, d),
    "concatenate": lambda d: da.concatenate([d, d[:5]], axis=0),
    "map_blocks": lambda d: d.map_blocks(lambda b: b * 3 - 1),
    "map_overlap": lambda d: d.map_overlap(_stencil, depth={0: 1}, boundary="none",
                                           trim=False, chunks=(8, 6)),
    "map_overlap_reflect": lambda d: d.map_overlap(lambda b: b[::-1] + b, depth=2,
                                                   boundary="reflect"),
    "rechunk": lambda d: d.rechunk((7, 4)),
    "slice": lambda d: d[3:37:3, ::-2],
    "take": lambda d: d[[5, 0, 33, 5]],
    "row_mask": lambda d: d[d[:, 0] > 0],
    "mask": lambda d: d[d > 0.5],
    "fft": lambda d: da.fft.fft(d, axis=1),
    "percentile": lambda d: da.percentile(d[:, 0], [10, 50, 90]),
    "like": lambda d: da.zeros_like(d) + da.ones_like(d),  # empty_lookup
}

NAN_OPS = {
    "nanmean": lambda d: da.nanmean(d, axis=0),  # nannumel_lookup
    "nansum": lambda d: da.nansum(d),
}


@pytest.mark.parametrize("name", sorted(NAN_OPS))
def test_nan_reduction_matches_numpy_chunks(name):
    same(*both(NAN_OPS[name], HNAN))


@pytest.mark.parametrize("name", sorted(OPS))
def test_op_matches_numpy_chunks(name):
    want, got = both(OPS[name])
    same(want, got)


@pytest.mark.parametrize("dtype", ["int32", "float32", "complex64", "bool"])
def test_dtypes_sum_and_rechunk(dtype):
    host = (RNG.standard_normal((12, 5)) * 10).astype(dtype)
    same(*both(lambda d: d.sum(axis=0), host, (5, 5)))
    same(*both(lambda d: d.rechunk((6, 3)), host, (5, 5)))


def test_tall_skinny_qr_and_svd():
    h = RNG.standard_normal((60, 4))
    q, r = dask.compute(*da.linalg.qr(da.from_array(gpunp.asarray(h), chunks=(15, 4))))
    assert isinstance(q, gpunp.ndarray) and isinstance(r, gpunp.ndarray)
    numpy.testing.assert_allclose(gpunp.asnumpy(q @ r), h, atol=1e-12)
    numpy.testing.assert_allclose(gpunp.asnumpy(q.T @ q), numpy.eye(4), atol=1e-12)
    wq, wr = dask.compute(*da.linalg.qr(da.from_array(h, chunks=(15, 4))))
    # the same factorisation as Dask's on NumPy chunks, up to the signs of columns
    sign = numpy.sign(numpy.diag(wr)) * numpy.sign(numpy.diag(gpunp.asnumpy(r)))
    numpy.testing.assert_allclose(gpunp.asnumpy(r) * sign[:, None], wr, atol=1e-12)
    u, s, v = dask.compute(*da.linalg.svd(da.from_array(gpunp.asarray(h), chunks=(15, 4))))
    assert all(isinstance(a, gpunp.ndarray) for a in (u, s, v))
    numpy.testing.assert_allclose(gpunp.asnumpy(s), numpy.linalg.svd(h, compute_uv=False),
                                  rtol=1e-12)
    numpy.testing.assert_allclose(gpunp.asnumpy((u * s) @ v), h, atol=1e-12)


def test_meta_and_chunk_type():
    d = da.from_array(gpunp.asarray(H), chunks=C)
    assert isinstance(d._meta, gpunp.ndarray) and d._meta.shape == (0, 0)
    assert isinstance((d.sum(axis=0))._meta, gpunp.ndarray)
    m = da.from_array(H, chunks=C).map_blocks(gpunp.asarray, meta=gpunp.empty((0, 0)))
    assert isinstance(m._meta, gpunp.ndarray)
    same(H.std(axis=0), m.std(axis=0).compute())


def test_array_backend_gpunp():
    with dask.config.set({"array.backend": "gpunp"}):
        made = {"ones": da.ones((10, 4), chunks=5), "zeros": da.zeros((10, 4), chunks=5),
                "full": da.full((7,), 2.5, chunks=3), "empty": da.empty((3, 3), chunks=2),
                "arange": da.arange(10, chunks=3),
                "rng": da.random.default_rng(0).standard_normal((10, 4), chunks=5),
                "RandomState": da.random.RandomState(0).uniform(size=(9,), chunks=4)}
    want = {"ones": numpy.ones((10, 4)), "zeros": numpy.zeros((10, 4)),
            "full": numpy.full(7, 2.5), "arange": numpy.arange(10)}
    for name, d in made.items():
        assert isinstance(d._meta, gpunp.ndarray), name
        got = d.compute()
        assert isinstance(got, gpunp.ndarray), name
        assert got.shape == d.shape
        if name in want:
            same(want[name], got)
    r = gpunp.asnumpy(made["rng"].compute())
    assert 0.5 < r.std() < 2 and len(numpy.unique(r)) == r.size  # each chunk its own stream


def test_to_backend_round_trip():
    d = da.from_array(H, chunks=C).to_backend("gpunp")
    assert isinstance(d._meta, gpunp.ndarray)
    back = d.to_backend("numpy")
    assert isinstance(back._meta, numpy.ndarray)
    got = back.compute()
    assert isinstance(got, numpy.ndarray)
    numpy.testing.assert_array_equal(got, H)


def test_store_to_zarr_through_a_host_copy(tmp_path):
    import zarr  # installed with dask by the Makefile's set-up
    d = da.from_array(gpunp.asarray(H), chunks=C) * 2
    z = zarr.open_array(str(tmp_path / "x.zarr"), mode="w", shape=d.shape, dtype=d.dtype,
                        chunks=C)
    da.store(d.to_backend("numpy"), z)
    numpy.testing.assert_array_equal(z[...], H * 2)
    back = da.from_zarr(str(tmp_path / "x.zarr")).to_backend("gpunp")
    same(H * 2, back.compute())


def test_tokenize_is_deterministic():
    from dask.base import tokenize

    a = gpunp.asarray(H)
    assert tokenize(a) == tokenize(gpunp.asarray(H))
    assert tokenize(a) != tokenize(a + 1)
    assert tokenize(a) != tokenize(a.astype(numpy.float32))


def test_lazy_registration_and_import_of_gpunp_without_dask():
    """`import gpunp` imports no Dask; a Dask imported after gpunp registers
    gpunp when it first looks a gpunp chunk up (here with no token of a gpunp
    array taken, name=False), and finds the "gpunp" backend by its entry
    point, without `import gpunp.dask`."""
    root = os.path.dirname(os.path.dirname(gpunp.__file__))
    code = (
        "import sys, numpy, gpunp\n"
        "assert 'dask' not in sys.modules\n"
        "import dask, dask.array as da\n"
        "x = numpy.arange(12.0).reshape(4, 3)\n"
        "d = da.from_array(gpunp.asarray(x), chunks=2, name=False)\n"
        "assert 'gpunp.dask' not in sys.modules\n"
        "s = d.std(axis=1).compute()\n"
        "assert 'gpunp.dask' in sys.modules\n"
        "assert isinstance(s, gpunp.ndarray)\n"
        "numpy.testing.assert_allclose(gpunp.asnumpy(s), x.std(axis=1))\n"
        "from dask.array.backends import array_creation_dispatch as a\n"
        "a._lookup.pop('gpunp')\n"  # found again through the entry point
        "with dask.config.set({'array.backend': 'gpunp'}):\n"
        "    assert isinstance(da.ones(3).compute(), gpunp.ndarray)\n"
        "print('ok')\n")
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-3000:]
