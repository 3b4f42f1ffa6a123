"""Host <-> device transfers of large arrays, in every layout."""

import numpy as np

import gpunp as gp
from gpunp import cuda


def test_large_round_trip():
    host = np.random.default_rng(1).random(1 << 25).astype(np.float32)  # 128 MiB
    dev = gp.asarray(host)
    np.testing.assert_array_equal(dev.get(), host)
    np.testing.assert_array_equal(gp.asnumpy(dev[::3]), host[::3])


def test_transfer_on_a_stream():
    s = cuda.Stream(non_blocking=True)
    host = np.arange(1 << 20, dtype=np.int64)
    with s:
        dev = gp.asarray(host)
        out = np.empty_like(host)
        dev.get(stream=s, out=out)
    np.testing.assert_array_equal(out, host)
