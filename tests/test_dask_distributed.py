"""dask.distributed and xarray over gpunp chunks: a local cluster of two
gpunp workers (host backend; one worker per GPU on a GPU backend), gpunp's
serialisers, and xarray.DataArray over a Dask array of gpunp chunks."""

import sys

import numpy
import pytest

import gpunp

dask = pytest.importorskip("dask")  # the one allowed skip: the GPU machine has no Dask
da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

import cloudpickle  # noqa: E402 (distributed's own dependency)

import gpunp.dask  # noqa: E402
from distributed.protocol import deserialize, serialize  # noqa: E402

# The workers are other processes, where this test file is no importable
# module (pytest puts tests/ on sys.path of its own process only): the
# functions they run here travel by value, not by a name they cannot import
cloudpickle.register_pickle_by_value(sys.modules[__name__])

RNG = numpy.random.default_rng(4)


@pytest.fixture(scope="module")
def client():
    # two host workers in CI; on a GPU backend one per visible GPU
    n = 2 if gpunp.backend() == "host" else None
    with gpunp.dask.LocalCluster(n_workers=n, memory_limit=0) as cluster, \
            distributed.Client(cluster) as c:
        yield c


def _in_worker():
    # what a worker sends a gpunp chunk as, by Dask's default families
    header, _ = serialize(gpunp.arange(3.0), serializers=("dask", "pickle"))
    return header["serializer"], gpunp.backend()


def test_cluster_workers_run_gpunp(client):
    info = client.run(_in_worker)
    assert len(info) == (2 if gpunp.backend() == "host" else gpunp.cuda.runtime.getDeviceCount())
    assert all(v == ("dask", gpunp.backend()) for v in info.values()), info


def test_cluster_computes_across_workers(client):
    h = RNG.standard_normal((64, 8))
    d = da.from_array(gpunp.asarray(h), chunks=(8, 8))
    d = client.persist(d)
    distributed.wait(d)
    gram, std = client.compute([d.T @ d, d.std(axis=0)], sync=True)
    assert isinstance(gram, gpunp.ndarray) and isinstance(std, gpunp.ndarray)
    numpy.testing.assert_allclose(gpunp.asnumpy(gram), h.T @ h, rtol=1e-12)
    numpy.testing.assert_allclose(gpunp.asnumpy(std), h.std(axis=0), rtol=1e-12)


def test_chunk_travels_between_workers(client):
    workers = sorted(client.scheduler_info()["workers"])
    src, dst = workers[0], workers[-1]  # the same one where a GPU machine has one worker
    a = client.submit(gpunp.arange, 10.0, workers=[src], pure=False)
    b = client.submit(lambda x: x * 2, a, workers=[dst], pure=False)
    got = b.result()
    assert isinstance(got, gpunp.ndarray)
    numpy.testing.assert_array_equal(gpunp.asnumpy(got), numpy.arange(10.0) * 2)
    assert client.who_has(b)[b.key] == (dst,)


def _cases():
    h = RNG.standard_normal((6, 5))
    return {
        "float64": gpunp.asarray(h),
        "transposed": gpunp.asarray(h).T,
        "strided": gpunp.asarray(h)[::2, 1::2],
        "0-d": gpunp.asarray(numpy.float32(3.5)),
        "empty": gpunp.zeros((0, 3), dtype=numpy.int16),
        "bool": gpunp.asarray(h > 0),
        "int8": gpunp.asarray((h * 10).astype(numpy.int8)),
        "uint64": gpunp.asarray(numpy.arange(7, dtype=numpy.uint64) << 60),
        "float16": gpunp.asarray(h.astype(numpy.float16)),
        "complex128": gpunp.asarray(h + 1j * h[::-1]),
    }


@pytest.mark.parametrize("family", ["dask", "cuda"])
def test_serialise_round_trip(family):
    for name, x in _cases().items():
        header, frames = serialize(x, serializers=(family,), on_error="raise")
        assert header["serializer"] == family, name  # not a pickle
        assert len(frames) == 1
        y = deserialize(header, frames, deserializers=(family,))
        assert isinstance(y, gpunp.ndarray), name
        assert y.shape == x.shape and y.dtype == x.dtype, name
        numpy.testing.assert_array_equal(gpunp.asnumpy(y), gpunp.asnumpy(x), err_msg=name)


def test_sizeof():
    from dask.sizeof import sizeof

    assert sizeof(gpunp.zeros((100, 10))) == 8000


def _data_array(x):
    import xarray as xr

    return xr.DataArray(da.from_array(x, chunks=(4, 4)), dims=("t", "x"),
                        coords={"t": numpy.arange(12), "g": ("t", numpy.arange(12) % 3)})


@pytest.mark.parametrize("op", ["arithmetic", "mean", "groupby_mean", "rolling_mean"])
def test_xarray_keeps_gpunp(op):
    f = {"arithmetic": lambda a: (a * 2 + 1) - abs(a),
         "mean": lambda a: a.mean("t"),
         "groupby_mean": lambda a: a.groupby("g").mean(),
         # windows across chunk edges; NaN where a window is short
         "rolling_mean": lambda a: a.rolling(t=3).mean()}[op]
    h = RNG.standard_normal((12, 8))
    want = f(_data_array(h)).compute()
    lazy = f(_data_array(gpunp.asarray(h)))
    assert isinstance(lazy.data._meta, gpunp.ndarray)
    got = lazy.compute()
    assert isinstance(got.data, gpunp.ndarray)
    assert got.dims == want.dims
    numpy.testing.assert_allclose(gpunp.asnumpy(got.data), want.values, rtol=1e-12,
                                  equal_nan=True)


def test_dask_imported_before_gpunp_registers_lazily(tmp_path):
    """A process that imports Dask and distributed before gpunp (a worker)
    reads gpunp's frames, and keeps std on the device, before anything has
    registered gpunp (gpunp/_dask_hook.py)."""
    import os
    import pickle
    import subprocess

    x = gpunp.asarray(RNG.standard_normal((3, 4)))
    header, frames = serialize(x, serializers=("dask",), on_error="raise")
    (tmp_path / "msg").write_bytes(pickle.dumps((header, [bytes(f) for f in frames],
                                                 gpunp.asnumpy(x))))
    code = (
        "import pickle, sys, numpy, distributed, dask.array as da\n"
        "import gpunp\n"
        "from distributed.protocol import deserialize\n"
        "assert 'gpunp.dask' not in sys.modules\n"
        f"header, frames, want = pickle.loads(open({str(tmp_path / 'msg')!r}, 'rb').read())\n"
        "y = deserialize(header, frames, deserializers=('dask',))\n"
        "assert isinstance(y, gpunp.ndarray)\n"
        "numpy.testing.assert_array_equal(gpunp.asnumpy(y), want)\n"
        "d = da.from_array(want, chunks=2).map_blocks(gpunp.asarray, meta=gpunp.empty((0, 0)))\n"
        "s = d.std(axis=0).compute()\n"
        "assert isinstance(s, gpunp.ndarray)\n"
        "numpy.testing.assert_allclose(gpunp.asnumpy(s), want.std(axis=0))\n"
        "print('ok')\n")
    root = os.path.dirname(os.path.dirname(gpunp.__file__))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-3000:]
