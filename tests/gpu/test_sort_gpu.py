"""Sorts big enough for many tiles of the GPU's radix sort (CUB's block
ranking), every key size, payloads of values and of indices, rows as a key
word, against NumPy's stable sort; and a GPU sort equal to the host
backend's, which a stable sort must be."""

import os
import subprocess
import sys

import numpy as np
import pytest

import gpunp as gp

DTYPES = ["bool", "int8", "uint16", "int32", "uint64", "float16", "float32", "float64",
          "complex64", "complex128"]


def _values(dt, n, seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 100, n)
    if dt.startswith("complex"):
        x = x + 1j * rng.integers(-2, 3, n)
        x[::53] = complex(np.nan, 1)
        x[::59] = complex(1, np.nan)
    x = x.astype(dt)
    if dt.startswith("float"):
        x[::61] = np.nan
        x[::67] = -0.0
        x[::71] = 0.0
    return x


def _same(got, want):
    got = got.get()
    np.testing.assert_array_equal(got, want)
    if want.dtype.kind == "f":
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("n", [1, 4095, 4097, 1_000_003])
def test_sort_and_argsort_of_many_tiles(dt, n):
    x = _values(dt, n, n)
    g = gp.asarray(x)
    _same(gp.sort(g), np.sort(x, kind="stable"))
    _same(gp.argsort(g), np.argsort(x, kind="stable"))


@pytest.mark.parametrize("dt", ["float32", "int64", "complex64"])
@pytest.mark.parametrize("shape", [(1000, 1000), (70000, 3), (3, 70000), (300, 40, 50)],
                         ids=str)
def test_sort_along_every_axis(dt, shape):
    x = _values(dt, int(np.prod(shape)), 7).reshape(shape)
    g = gp.asarray(x)
    for axis in [None] + list(range(x.ndim)):
        _same(gp.sort(g, axis=axis), np.sort(x, axis=axis, kind="stable"))
        _same(gp.argsort(g, axis=axis), np.argsort(x, axis=axis, kind="stable"))


def test_unique_and_searchsorted_large():
    x = np.floor(np.random.default_rng(2).random(3_000_000) * 100_000).astype(np.float32)
    g = gp.asarray(x)
    for got, want in zip(gp.unique(g, return_index=True, return_inverse=True,
                                   return_counts=True),
                         np.unique(x, return_index=True, return_inverse=True,
                                   return_counts=True)):
        np.testing.assert_array_equal(got.get(), want)
    s = np.sort(x)
    np.testing.assert_array_equal(gp.searchsorted(gp.asarray(s), g).get(), np.searchsorted(s, x))


_HOST_SORT = """
import sys, numpy, gpunp
x = numpy.load(sys.argv[1])
numpy.save(sys.argv[2], gpunp.argsort(gpunp.asarray(x)).get())
"""


def test_gpu_argsort_equals_the_host_backends(tmp_path):
    x = _values("float32", 200_000, 11)
    np.save(tmp_path / "x.npy", x)
    env = dict(os.environ, GPUNP_BACKEND="host")
    subprocess.run([sys.executable, "-c", _HOST_SORT, str(tmp_path / "x.npy"),
                    str(tmp_path / "h.npy")], check=True, env=env)
    np.testing.assert_array_equal(gp.argsort(gp.asarray(x)).get(), np.load(tmp_path / "h.npy"))
