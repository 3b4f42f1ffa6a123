"""Tests of what only a GPU has (pools, streams running concurrently, the
device's compiler cache). They run with the CUDA backend and are skipped,
with that reason, on the host backend."""

import pytest

import gpunp


def pytest_collection_modifyitems(config, items):
    if gpunp.backend() == "cuda":
        return
    skip = pytest.mark.skip(reason=f"needs a GPU backend (running: {gpunp.backend()})")
    for item in items:
        if "tests/gpu/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(skip)
