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

import pytest

import gpunp as gp

SUBPACKAGES = ("fft", "interpolate", "linalg", "ndimage", "signal", "sparse", "spatial",
               "special", "stats")
# the subpackages with a public API so far; the others' __all__ is empty
IMPLEMENTED = {"special"}


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
    if name in IMPLEMENTED:
        assert mod.__all__ and all(hasattr(mod, n) for n in mod.__all__)
    else:
        assert mod.__all__ == []  # nothing pretends to be implemented yet


def test_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError):
        getattr(gp.scipy, "no_such_subpackage")


def test_import_gpunp_loads_none_of_them():
    loaded = _child("import sys, gpunp; "
                    "print(' '.join(m for m in sys.modules if m.startswith('gpunp.scipy')))")
    assert loaded == ""


def test_a_subpackage_loads_only_itself():
    loaded = _child("import sys, gpunp; gpunp.scipy.sparse; "
                    "print(' '.join(sorted(m for m in sys.modules "
                    "if m.startswith('gpunp.scipy'))))")
    assert loaded == "gpunp.scipy gpunp.scipy.sparse"
