"""gpunp.scipy's layout: one package per SciPy subpackage, each loaded at
first use (gpunp.scipy too), none by ``import gpunp``.

This folder has no __init__.py on purpose: conftest.py puts tests/ on
sys.path, where a package named scipy would hide SciPy itself."""

from __future__ import annotations

import importlib
import os
import pathlib
import subprocess
import sys
import tempfile
import types

import pytest

import gpunp as gp

SUBPACKAGES = ("fft", "fftpack", "interpolate", "linalg", "ndimage", "signal", "sparse", "spatial",
               "special", "stats")


def _child(code: str) -> str:
    """stdout of `code` in a fresh Python that imports the gpunp under test."""
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(gp.__file__).parent.parent))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=tempfile.gettempdir(), env=env)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def test_subpackages_are_scipys_and_listed():
    assert gp.scipy.__all__ == list(SUBPACKAGES)


@pytest.mark.parametrize("name", SUBPACKAGES)
def test_each_subpackage_imports(name):
    mod = importlib.import_module(f"gpunp.scipy.{name}")
    assert getattr(gp.scipy, name) is mod
    assert mod.__doc__
    # every name claimed is SciPy's and is there (cupyx's get_fft_plan aside)
    scipy_mod = importlib.import_module(f"scipy.{name}")
    for n in mod.__all__:
        x = getattr(mod, n)
        assert callable(x) or isinstance(x, (type, types.ModuleType)), n
        assert hasattr(scipy_mod, n) or n == "get_fft_plan", n


def test_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError):
        getattr(gp.scipy, "no_such_subpackage")


def test_import_gpunp_loads_none_of_them():
    loaded = _child("import sys, gpunp; "
                    "print(' '.join(m for m in sys.modules if m.startswith('gpunp.scipy')))")
    assert loaded == ""


def test_a_subpackage_loads_only_itself():
    """Its own private modules, but no other subpackage (nor its own linalg
    and csgraph, which load at first use)."""
    loaded = _child("import sys, gpunp; gpunp.scipy.sparse; "
                    "print(' '.join(sorted(m for m in sys.modules "
                    "if m.startswith('gpunp.scipy') and '._' not in m)))")
    assert loaded == "gpunp.scipy gpunp.scipy.sparse"
