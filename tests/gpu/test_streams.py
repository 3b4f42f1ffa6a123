"""Streams and events on the GPU: ordering, concurrency, threads."""

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
