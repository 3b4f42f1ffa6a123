"""Streams and events on the GPU: ordering, concurrency, threads."""

import os
import subprocess
import sys
import threading

import numpy as np

import gpunp as gp
from gpunp import cuda


def test_event_orders_work_across_streams():
    producer, consumer = cuda.Stream(non_blocking=True), cuda.Stream(non_blocking=True)
    n = 1 << 24
    with producer:
        x = gp.zeros(n, dtype=np.float32)
        for _ in range(20):  # long enough to be still running below
            x += 1
        done = producer.record()
    consumer.wait_event(done)
    with consumer:
        total = x.sum()
    consumer.synchronize()
    assert total.item() == 20.0 * n


def test_elapsed_time_measures_the_work():
    start, end = cuda.Event(), cuda.Event()
    a = gp.ones(1 << 26, dtype=np.float32)
    start.record()
    for _ in range(10):
        a = a * 1.0001
    end.record()
    end.synchronize()
    assert cuda.get_elapsed_time(start, end) > 0.0


def test_threads_with_their_own_streams():
    results, errors = {}, []

    def work(k):
        try:
            s = cuda.Stream(non_blocking=True)
            with s:
                v = gp.arange(100_000, dtype=np.float64) * k
                for _ in range(10):
                    v = v + 1
                r = v.sum()
            s.synchronize()
            results[k] = r.item()
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for k in range(8):
        assert results[k] == k * (100_000 * 99_999 / 2) + 10 * 100_000


def test_the_current_stream_is_per_thread():
    s = cuda.Stream()
    seen = []
    with s:
        t = threading.Thread(target=lambda: seen.append(cuda.get_current_stream()))
        t.start()
        t.join()
        assert cuda.get_current_stream() == s
    assert seen == [cuda.Stream.null]


def test_work_on_more_streams_than_a_thread_keeps_launch_graphs_for():
    """Kernels go out through one graph per thread and stream, for the last
    few streams; streams in turn, new and destroyed ones, keep their order."""
    streams = [cuda.Stream(non_blocking=True) for _ in range(7)]
    xs = []
    for s in streams:
        with s:
            xs.append(gp.zeros(1 << 20, dtype=np.float32))
    for r in range(5):
        for k, s in enumerate(streams):
            with s:
                xs[k] += k + 1
        with cuda.Stream(non_blocking=True) as t:  # a stream that lives for one op
            t.wait_event(streams[0].record())  # xs[0] is written on streams[0]
            extra = xs[0] * 2
        t.synchronize()
        assert extra[5].item() == 2.0 * (r + 1)
    for k, s in enumerate(streams):
        s.synchronize()
        assert xs[k].sum().item() == 5.0 * (k + 1) * (1 << 20)


def test_work_on_two_streams_overlaps():
    """A short job on one stream finishes while a long one on another is
    still running: the launch graphs do not tie the streams together."""
    slow, fast = cuda.Stream(non_blocking=True), cuda.Stream(non_blocking=True)
    with fast:  # allocated first: a new allocation may wait for the device
        y = gp.arange(10, dtype=np.float32)
    with slow:
        x = gp.zeros(1 << 26, dtype=np.float32)
    gp.cuda.runtime.deviceSynchronize()
    with slow:
        for _ in range(300):  # about 40 ms on an H200
            x += 1
        slow_done = slow.record()
    with fast:
        y += 1
        fast_done = fast.record()
    fast_done.synchronize()
    assert not slow_done.done
    fast.synchronize()
    assert y.get().tolist() == list(range(1, 11))
    slow.synchronize()
    assert x[123].item() == 300.0


def test_plain_launches_give_the_same_results():
    """GPUNP_LAUNCH=direct: every kernel through cuLaunchKernel."""
    code = ("import numpy as np, gpunp as gp\n"
            "a = gp.arange(1000, dtype=np.float32)\n"
            "print(float(((a * 2 + 1).sum()).item()))\n")
    env = dict(os.environ, GPUNP_LAUNCH="direct")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert float(r.stdout) == float(np.sum(np.arange(1000, dtype=np.float32) * 2 + 1))
