"""`make demo`'s script prints exactly the seed example's two arrays."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

SEED = Path(__file__).resolve().parent.parent / "examples" / "seed.py"


def test_seed_example_output():
    r = subprocess.run([sys.executable, str(SEED)], capture_output=True, text=True, check=True)
    assert r.stdout == ("array([[0., 1., 2.],\n"
                        "       [3., 4., 5.]], dtype=float32)\n"
                        "array([ 3., 12.], dtype=float32)\n")
    assert "backend" in r.stderr


def test_a_source_tree_without_its_engine_says_what_to_do(tmp_path):
    """Python started in a checkout imports the source tree's gpunp; where
    its engine was not built there (`make` copies it beside the sources),
    the import says so and what to do, instead of naming a missing module."""
    root = Path(__file__).resolve().parent.parent
    shutil.copytree(root / "gpunp", tmp_path / "gpunp", ignore=shutil.ignore_patterns("*.so"))
    (tmp_path / "build_ffi.py").write_text("")
    # the folder Python starts in leads sys.path, as it does unless
    # PYTHONSAFEPATH is set (tools/device_run.sh sets it)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSAFEPATH"}
    r = subprocess.run([sys.executable, "-c", "import gpunp"], cwd=tmp_path, env=env,
                       capture_output=True, text=True)
    assert r.returncode == 1
    assert "ImportError: gpunp was imported from its source tree" in r.stderr
    assert "run `make` there" in r.stderr
