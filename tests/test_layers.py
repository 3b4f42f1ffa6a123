"""tools/layers.py, the check that no code of csrc/ reaches up the layer map
of docs/architecture.md and that gpunp/scipy/ imports gpunp's public API
only: it passes on this tree and fails on a copy given one climbing include
or one private import."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "layers.py"

pytestmark = pytest.mark.skipif(not TOOL.is_file(), reason="needs the source tree")


def _layers():
    spec = importlib.util.spec_from_file_location("layers", TOOL)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _copy(tmp_path: Path) -> Path:
    for part in ("csrc", "docs", "gpunp/scipy"):
        shutil.copytree(ROOT / part, tmp_path / part,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    return tmp_path


def test_the_tree_keeps_its_layers(capsys):
    assert _layers().main(["--root", str(ROOT)]) == 0, capsys.readouterr().err


def test_an_include_that_climbs_fails(tmp_path, capsys):
    root = _copy(tmp_path)
    pool = root / "csrc" / "memory" / "pool.c"
    pool.write_text(pool.read_text().replace('#include "memory.h"',
                                              '#include "memory.h"\n#include "../kernels/kernels.h"', 1))
    assert _layers().main(["--root", str(root)]) == 1
    err = capsys.readouterr().err
    assert "csrc/memory/pool.c" in err and "csrc/kernels (layer 7)" in err


def test_an_include_of_a_missing_file_fails(tmp_path, capsys):
    root = _copy(tmp_path)
    shape = root / "csrc" / "core" / "shape.c"
    shape.write_text('#include "nowhere.h"\n' + shape.read_text())
    assert _layers().main(["--root", str(root)]) == 1
    assert "nowhere.h" in capsys.readouterr().err


def test_scipy_importing_a_private_module_fails(tmp_path, capsys):
    root = _copy(tmp_path)
    sparse = root / "gpunp" / "scipy" / "sparse"
    sparse.mkdir(parents=True, exist_ok=True)
    (sparse / "_own.py").write_text("X = 1\n")
    (sparse / "_ok.py").write_text("import gpunp\nfrom gpunp import linalg\nfrom . import _own\n"
                                   "from gpunp.scipy._version import scipy_version\n")
    assert _layers().main(["--root", str(root)]) == 0, capsys.readouterr().err
    (sparse / "_bad.py").write_text("from gpunp._lib import lib\nfrom gpunp import _ufunc\n"
                                    "from gpunp.scipy.linalg._decomp import lu\n")
    assert _layers().main(["--root", str(root)]) == 1
    err = capsys.readouterr().err
    assert "gpunp._lib.lib" in err and "gpunp._ufunc" in err and "_decomp.lu" in err
