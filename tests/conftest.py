"""Shared pytest set-up: which gpunp is under test, and on which backend."""

import importlib.metadata
import os
import sys

import pytest
from hypothesis import settings

import gpunp

# JAX (tests/gpu/test_interop.py) takes 75% of the GPU's memory when its
# backend starts, unless told not to: the other 15 workers of a GPU run
# then failed for want of memory (68 GB in use on an 80 GB H100)
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

# The shared strategies (tests/property/strategies.py) import as
# `property.strategies`; only this folder joins sys.path, never the
# repository root, so the gpunp under test is the installed one.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# Kernels compile the first time each is used (tens of milliseconds on the
# host backend, cold cache), so an example's wall time says nothing about
# the code under test; every other setting stays at Hypothesis's default.
settings.register_profile("gpunp", deadline=None)
# CI (CI=true) draws the same examples on every run, derived from each
# test, so that whether a submission lands does not depend on the draw;
# every other run searches anew, and what it finds is a bug to fix. CI's
# fixed draw is 30 examples a test (the GPU runs' number), not Hypothesis's
# 100: drawing arrays element by element is most of an example's time, the
# examples were most of the suite's time besides compiling kernels, and a
# cold CI run on its 2 cores must stay within 35 minutes (searching is the
# other runs' work; 50 examples a test took 1450-1600 s of CI's suite).
settings.register_profile("ci", parent=settings.get_profile("gpunp"), derandomize=True,
                          max_examples=30)
# The GPU machine's time is lent by the half hour: `--hypothesis-profile=device`
# runs the whole suite there with fewer examples a test.
settings.register_profile("device", parent=settings.get_profile("gpunp"), max_examples=30)
settings.load_profile("ci" if os.environ.get("CI") else "gpunp")



@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_call(item):
    """Hypothesis's pytest plugin wraps a parametrized @given test's settings
    in a new settings object at every call, each falling back on the one
    before, and keeps it on the function: the chain grew by one per
    parametrization (test_values_match_numpy has 1091), and a long run's
    lookups passed Python's recursion limit. Each call's wrapper is undone
    after it."""
    fn = getattr(getattr(item, "obj", None), "__func__", getattr(item, "obj", None))
    kept = getattr(fn, "_hypothesis_internal_use_settings", None)
    try:
        return (yield)
    finally:
        if kept is not None:
            fn._hypothesis_internal_use_settings = kept


if gpunp.backend() == "cuda":
    @pytest.fixture(autouse=True)
    def _bounded_cached_device_memory():
        """The GPU suite runs in 16 processes on one card, each with its own
        memory pool, and a pool gives its cached blocks back only when one
        of its own allocations fails. On an 80 GB H100 the blocks that large
        tests left cached in some workers starved another of a 256 MiB
        allocation; so no worker keeps more than 1 GiB cached between tests."""
        yield
        pool = gpunp.cuda.get_default_memory_pool()
        if pool.total_bytes() - pool.used_bytes() > 1 << 30:
            pool.free_all_blocks()


# gpunp.scipy is checked against SciPy 1.17 and 1.18 where they differ in
# linalg, fft and sparse.linalg, against 1.17 elsewhere; an older SciPy (the
# newest for Python 3.10 is 1.15) differs in names, messages and dtypes the
# tests compare, so its tests are not collected there (the header says so)
SCIPY = tuple(int(p) for p in importlib.metadata.version("scipy").split(".")[:2])
SCIPY_TESTS = ["scipy/*", "property/test_scipy_*", "property/test_sparse_*"]
collect_ignore_glob = SCIPY_TESTS if SCIPY < (1, 17) else []


def pytest_report_header(config):
    lines = [f"gpunp {gpunp.__version__} from {gpunp.__file__}",
             f"gpunp backend: {gpunp.backend()}"]
    if collect_ignore_glob:
        lines.append(f"SciPy {'.'.join(map(str, SCIPY))} is older than 1.17, which gpunp.scipy "
                     f"is checked against: {', '.join(SCIPY_TESTS)} not collected")
    return lines


def pytest_addoption(parser):
    parser.addoption(
        "--one-in", type=int, default=1, metavar="K",
        help="run the first test of each file and every K-th after it (make test's "
             "abi3 stages: a sample of every file, property tests included)")


def pytest_collection_modifyitems(config, items):
    k = config.getoption("--one-in")
    if k <= 1:
        return
    kept, dropped, seen = [], [], {}
    for item in items:
        n = seen.get(item.path, 0)
        seen[item.path] = n + 1
        (dropped if n % k else kept).append(item)
    config.hook.pytest_deselected(items=dropped)
    items[:] = kept


# The kernel cache's counters of every test process, summed at the end of
# the run: how much of the suite's time went to compiling kernels.
_cache_totals: dict = {}


def _add_cache_stats(stats: dict) -> None:
    for key, value in stats.items():
        _cache_totals[key] = _cache_totals.get(key, 0) + value


def pytest_sessionfinish(session):
    stats = gpunp._config.cache_stats()
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: its controller adds it up
        workeroutput["gpunp_cache_stats"] = stats
    else:
        _add_cache_stats(stats)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    _add_cache_stats(getattr(node, "workeroutput", {}).get("gpunp_cache_stats", {}))


def pytest_terminal_summary(terminalreporter):
    t = _cache_totals
    if t:
        terminalreporter.write_line(
            f"gpunp kernel cache: {t['compiles']} compiled in {t['compile_seconds']:.0f} s, "
            f"{t['disk_hits']} from disk, {t['pack_hits']} from the pack, "
            f"{t['memory_hits']} from memory")
