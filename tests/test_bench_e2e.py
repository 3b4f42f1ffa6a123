"""bench/e2e.py's end-to-end rows: each program's answer check passes for
gpunp's answer (eager and fused) and rejects a wrong one (the same program
on corrupted inputs), at tiny sizes on whatever backend runs the tests."""

import importlib
import sys
from pathlib import Path

import numpy as np
import pytest

import gpunp  # the installed one, before the repository joins sys.path


def _bench(name):
    # bench/ is the repository's, not installed (as tests/test_bench_protocol.py)
    root = str(Path(__file__).resolve().parent.parent)
    sys.path.insert(0, root)
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(root)


e2e = _bench("bench.e2e")
libs = _bench("bench.libs")


class _Wrong(libs.Gpunp):
    """gpunp given slightly wrong data: floats 25 % larger, integers with
    their lowest bit flipped (indices stay in range when their bound is even)."""

    def asarray(self, h):
        h = np.asarray(h)
        return super().asarray(h * 1.25 if h.dtype.kind == "f" else h ^ 1)


# program key -> (dtype, size): tiny sizes, float32 wherever the program allows
# it (each dtype's kernels are compiled once)
SIZES = {"kmeans": ("float32", 256), "softmax": ("float32", 32), "mlp": ("float32", 64),
         "option": ("float32", 1024), "pairwise": ("float32", 32), "many": ("float32", 16),
         "standardize": ("float32", 16), "int": ("int32", 1024)}


def test_every_program_has_a_size_here():
    assert set(SIZES) == set(e2e.PROGRAMS)
    names = [w.name for w in e2e.rows(quick=True)]
    assert len(names) == len(set(names)) and all(n.startswith("program: ") for n in names)
    assert len(e2e.UNARY) + len(e2e.BINARY) > 32


@pytest.mark.parametrize("fused", [False, True], ids=["eager", "fused"])
@pytest.mark.parametrize("key", sorted(SIZES))
def test_row_checks_catch_a_wrong_answer(key, fused, monkeypatch):
    dtype, n = SIZES[key]
    # the loop's check is the same for any list of functions: a few of them
    # here (each a kernel compiled cold, a few tenths of a second)
    monkeypatch.setattr(e2e, "UNARY", ["sin", "arctanh", "sqrt"])
    monkeypatch.setattr(e2e, "BINARY", ["hypot", "fmod"])
    made = []

    class Recorded(gpunp.fuse):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)
    monkeypatch.setattr(gpunp, "fuse", Recorded)
    make = e2e._row(key, dtype, fused)
    fn = make(libs.Gpunp(), n)
    assert callable(fn)
    # the fused column is fused: each function traced into a kernel, none
    # run as written (what gpunp.fuse does with what it cannot fuse)
    assert bool(made) == fused
    assert all(plan.kernel is not None for f in made for plan in f._plans.values())
    assert all(f._plans for f in made)
    with pytest.raises(AssertionError, match="differs from NumPy's"):
        make(_Wrong(), n)


def test_numpy_runs_the_eager_rows_only():
    lib = libs.Numpy()
    assert callable(e2e._row("softmax", "float32", False)(lib, 8))
    assert e2e._row("softmax", "float32", True)(lib, 8) is None


def test_check_compares_shapes_parts_and_integers_exactly():
    lib = libs.Numpy()
    want = (np.arange(4), np.int64(6))
    e2e.check(lib, (np.arange(4), np.int64(6)), want, 0.0)
    for got in ((np.arange(4) + np.array([0, 0, 0, 1]), np.int64(6)),
                (np.arange(4).reshape(2, 2), np.int64(6)), (np.arange(4),),
                (np.arange(4), np.float64(np.nan))):
        with pytest.raises(AssertionError):
            e2e.check(lib, got, want, 0.0)


def test_fresh_process_marks_a_wrong_answer_invalid(monkeypatch):
    # one child process, its answer judged as the bench judges it
    calls = []

    def fake(name, n, env, cwd):
        calls.append(env)
        return {"first_call_ms": 1.0, "to_result_ms": 2.0,
                "invalid": "gpunp's answer differs from NumPy's" if name == "gpunp" else ""}
    monkeypatch.setattr(e2e, "_fresh", fake)
    rows = e2e.fresh_process_rows(["gpunp", "numpy"], quick=True, repeats=2)
    assert [r["workload"] for r in rows] == e2e.fresh_row_names(True)
    assert all(r["invalid"] == {"gpunp": "gpunp's answer differs from NumPy's"} and
               r["values"] == {"numpy": pytest.approx(1.0 if "first call" in r["workload"]
                                                      else 2.0)} for r in rows)
    # an untimed process, then a cold and a warm one per repeat, with empty caches
    # and no kernel pack
    assert len(calls) == 2 * (1 + 2 * 2)
    assert all(e["GPUNP_KERNEL_PACK"] == "" and "GPUNP_CACHE_DIR" in e for e in calls)


def test_fresh_process_child_runs_the_program():
    # the child's own function, in this process (a new interpreter costs seconds here)
    r = e2e.child("gpunp", e2e.FRESH_KEY, 16)
    assert r["invalid"] == "" and r["first_call_ms"] > 0 and r["done"] > 0
