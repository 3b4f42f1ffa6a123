"""`make demo`'s script prints exactly the seed example's two arrays."""

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
