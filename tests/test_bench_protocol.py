"""bench/protocol.py's statistics: the interval of a ratio measured once per
fresh process, ties, and invalid answers kept out of the medians."""

import importlib
import math
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.stats

import gpunp  # noqa: F401 - the installed one, before the repository joins sys.path


def _bench_protocol():
    # bench/ is the repository's, not a package gpunp installs; tests
    # import the installed gpunp (conftest.py), so the root joins sys.path
    # only for this import
    root = str(Path(__file__).resolve().parent.parent)
    sys.path.insert(0, root)
    try:
        return importlib.import_module("bench.protocol")
    finally:
        sys.path.remove(root)


protocol = _bench_protocol()


def test_ratio_interval_is_students_t_on_the_logs():
    ratios = [1.10, 1.25, 0.98, 1.17, 1.05]
    med, lo, hi = protocol.ratio_interval(ratios)
    logs = np.log(ratios)
    want = scipy.stats.t.interval(0.95, len(logs) - 1, loc=logs.mean(),
                                  scale=scipy.stats.sem(logs))
    assert med == pytest.approx(1.10)
    assert (lo, hi) == pytest.approx(tuple(np.exp(want)), rel=1e-3)
    assert protocol.verdict((med, lo, hi)) == "tie"  # 0.98 keeps 1 inside
    assert protocol.verdict(protocol.ratio_interval([1.3, 1.31, 1.29, 1.32])) == "faster"
    assert protocol.verdict(protocol.ratio_interval([0.5, 0.52, 0.49])) == "slower"
    assert protocol.ratio_interval([1.2]) is None
    assert protocol.ratio_interval([1.2, math.nan, 0.0]) is None


def _run(gpunp, cupy, invalid=None, unit="ms", better=False):
    return {"rows": [{"workload": "w", "unit": unit, "higher_is_better": better,
                      "values": {"gpunp": gpunp, "cupy": cupy},
                      "invalid": invalid or {}}]}


def test_aggregate_pairs_within_a_process_and_keeps_invalid_out():
    # times (lower is better): gpunp twice as fast in every process
    rows = protocol.aggregate([_run(1.0, 2.0), _run(1.5, 3.0), _run(0.9, 1.8)])
    (row,) = rows
    assert row["values"] == {"gpunp": 1.0, "cupy": 2.0}
    assert row["spread"]["gpunp"] == (0.9, 1.5)
    med, lo, hi = row["intervals"]["cupy"]
    assert med == pytest.approx(2.0) and lo == pytest.approx(2.0) and hi == pytest.approx(2.0)
    # a rate (higher is better) is not inverted
    (row,) = protocol.aggregate([_run(4.0, 2.0, better=True), _run(4.2, 2.0, better=True)])
    assert row["intervals"]["cupy"][0] == pytest.approx(2.05)
    # a wrong answer in any process makes the library's value invalid, not a median
    (row,) = protocol.aggregate([_run(1.0, 2.0), _run(1.0, 2.0, {"gpunp": "wrong"})])
    assert "gpunp" not in row["values"] and row["invalid"] == {"gpunp": "wrong"}
    assert "cupy" not in row["intervals"]
    assert "INVALID" in protocol.markdown({"procs": 2}, [row])
