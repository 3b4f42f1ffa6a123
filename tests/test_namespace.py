"""gpunp.__all__: the public names, as numpy.__all__ lists NumPy's (the
submodules loaded at first use among them), and nothing else."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import gpunp as gp

# gpunp's own public names, and the NumPy 1 names it keeps
GPUNP_OWN = {
    "AxisError", "BackendError", "CompileError", "ElementwiseKernel", "RawKernel", "RawModule",
    "ReductionKernel", "asnumpy", "backend", "complex_", "cuda", "engine", "float_",
    "get_default_memory_pool", "get_default_pinned_memory_pool", "scipy",
    # CuPy's idioms beyond NumPy's names (gpunp._idioms) and cupyx's home
    "clear_memo", "get_array_module", "memoize", "profiler", "scatter_add", "scatter_max",
    "scatter_min", "x",
    # cupy.fuse (gpunp._fusion); Dask's registrations and cluster (gpunp.dask)
    "fuse", "dask",
    # automatic fusion of eager code (gpunp._lazy, docs/fusion.md)
    "fusion", "fusion_enabled", "set_fusion",
}
LAZY = ("dask", "emath", "engine", "fft", "lib", "linalg", "polynomial", "profiler", "random",
        "scipy", "testing", "typing", "x")


def _claimed_numpy_names() -> set:
    """The numpy namespace's names of tests/coverage_claims.txt (before its
    first [section]): NumPy's names of any release gpunp follows."""
    names = set()
    for line in (pathlib.Path(__file__).parent / "coverage_claims.txt").read_text().splitlines():
        line = line.strip()
        if line.startswith("["):
            break
        if line and not line.startswith("#"):
            names.add(line)
    return names


def test_all_is_sorted_without_repeats():
    assert gp.__all__ == sorted(set(gp.__all__))


@pytest.mark.parametrize("name", gp.__all__)
def test_each_name_resolves(name):
    getattr(gp, name)  # AttributeError for a name listed but missing


def test_all_lists_every_public_attribute():
    public = {n for n in vars(gp) if not n.startswith("_")}
    assert not public - set(gp.__all__)


def test_all_has_numpys_names_that_gpunp_has():
    missing = [n for n in np.__all__ if hasattr(gp, n) and n not in gp.__all__]
    assert not missing


def test_names_beyond_numpys_are_gpunps_own_or_numpys():
    # a name of another NumPy release (matvec before 2.2) is NumPy's, claimed
    extra = set(gp.__all__) - set(np.__all__) - GPUNP_OWN - _claimed_numpy_names()
    assert not extra, f"public by accident? {sorted(extra)}"


def test_lazy_submodules_are_listed_and_not_loaded_by_import():
    assert set(LAZY) <= set(gp.__all__)
    code = ("import sys, gpunp; print(' '.join(sorted(m for m in sys.modules "
            f"if m.startswith('gpunp.') and m.split('.')[1] in {LAZY!r})))")
    # the child imports the gpunp under test, from a neutral folder
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(gp.__file__).parent.parent))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=tempfile.gettempdir(), env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == ""
