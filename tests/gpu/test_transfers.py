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


# Copies of 4 MiB and more go through page-locked staging buffers of 8 MiB,
# four per device (csrc/memory/transfer.c): sizes around those edges, odd
# lengths, and more chunks than the ring has.
STAGED_SIZES = [(4 << 20) - 1, 4 << 20, 8 << 20, (8 << 20) + 1, (33 << 20) + 4097]


def test_staged_sizes_round_trip():
    rng = np.random.default_rng(2)
    for n in STAGED_SIZES:
        host = rng.integers(0, 256, n, dtype=np.uint8)
        dev = gp.asarray(host)
        np.testing.assert_array_equal(dev.get(), host, err_msg=f"{n} bytes")
        np.testing.assert_array_equal((dev[1:] ^ 1).get(), host[1:] ^ 1, err_msg=f"{n} bytes")


def test_source_may_change_once_asarray_returns():
    host = np.arange(10 << 20, dtype=np.int32)  # 40 MiB: five chunks
    dev = gp.asarray(host)
    host[:] = -1
    np.testing.assert_array_equal(dev.get(), np.arange(10 << 20, dtype=np.int32))


def test_staged_get_waits_for_the_stream_and_fills_out():
    s = cuda.Stream(non_blocking=True)
    host = np.random.default_rng(3).random(3 << 20)  # 24 MiB of float64
    with s:
        dev = gp.asarray(host)
        for _ in range(20):  # queued work the copy back must wait for
            dev = dev * 1.0 + 0.0
        out = np.empty_like(host)
        got = dev.get(stream=s, out=out)
    assert got is out
    np.testing.assert_array_equal(out, host)
    np.testing.assert_array_equal(dev.T.get(order="F"), host)


def test_staged_transfers_from_several_threads():
    from concurrent.futures import ThreadPoolExecutor

    def trip(seed):
        host = np.random.default_rng(seed).random(2 << 20)  # 16 MiB each
        with cuda.Stream(non_blocking=True):
            back = (gp.asarray(host) + 1.0).get()
        return np.array_equal(back, host + 1.0)

    with ThreadPoolExecutor(4) as ex:
        assert all(ex.map(trip, range(12)))
