"""Shared pytest set-up: which gpunp is under test, and on which backend."""

import os
import sys

from hypothesis import settings

import gpunp

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
# every other run searches anew, and what it finds is a bug to fix.
settings.register_profile("ci", parent=settings.get_profile("gpunp"), derandomize=True)
# The GPU machine's time is lent by the half hour: `--hypothesis-profile=device`
# runs the whole suite there with fewer examples a test.
settings.register_profile("device", parent=settings.get_profile("gpunp"), max_examples=30)
settings.load_profile("ci" if os.environ.get("CI") else "gpunp")

# Hypothesis 6.170's settings objects grow a chain of fallbacks as a single
# process runs @given tests; past about 1200 of them in one run (CI runs
# all ~6800 in one process) reading `settings.database` exceeded Python's
# default recursion limit of 1000 frames (RecursionError in _settings.py).
sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))


def pytest_report_header(config):
    return [f"gpunp {gpunp.__version__} from {gpunp.__file__}",
            f"gpunp backend: {gpunp.backend()}"]

