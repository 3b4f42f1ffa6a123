"""Writes docs/coverage.md: every public name of NumPy 2 (the module, and
numpy.linalg, numpy.fft and numpy.random as sections of their own) and of
SciPy's subpackages that gpunp.scipy mirrors (SCIPY_SECTIONS), and whether
gpunp has it. "Implemented" is read from the gpunp modules
themselves, never kept by hand: a name is implemented when the gpunp module
of the section has it. The names the project claims, and tests, are in
tests/coverage_claims.txt.

    python tools/coverage.py            # writes docs/coverage.md
    python tools/coverage.py --check    # exit 1 if docs/coverage.md differs
"""

from __future__ import annotations

import importlib
import pathlib
import sys

import numpy

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "coverage.md"
CLAIMS = ROOT / "tests" / "coverage_claims.txt"

#: (NumPy's module, gpunp's module of the same names)
NUMPY_SECTIONS = (("numpy", "gpunp"), ("numpy.linalg", "gpunp.linalg"),
                  ("numpy.fft", "gpunp.fft"), ("numpy.random", "gpunp.random"),
                  ("numpy.polynomial", "gpunp.polynomial"),
                  ("numpy.polynomial.polynomial", "gpunp.polynomial.polynomial"),
                  ("numpy.polynomial.chebyshev", "gpunp.polynomial.chebyshev"),
                  ("numpy.polynomial.legendre", "gpunp.polynomial.legendre"),
                  ("numpy.polynomial.laguerre", "gpunp.polynomial.laguerre"),
                  ("numpy.polynomial.hermite", "gpunp.polynomial.hermite"),
                  ("numpy.polynomial.hermite_e", "gpunp.polynomial.hermite_e"),
                  ("numpy.polynomial.polyutils", "gpunp.polynomial.polyutils"))

#: (SciPy's module, gpunp's module of the same names)
SCIPY_SECTIONS = (("scipy.sparse", "gpunp.scipy.sparse"),
                  ("scipy.sparse.linalg", "gpunp.scipy.sparse.linalg"),
                  ("scipy.sparse.csgraph", "gpunp.scipy.sparse.csgraph"),
                  ("scipy.linalg", "gpunp.scipy.linalg"),
                  ("scipy.fft", "gpunp.scipy.fft"),
                  ("scipy.fftpack", "gpunp.scipy.fftpack"),
                  ("scipy.signal", "gpunp.scipy.signal"),
                  ("scipy.signal.windows", "gpunp.scipy.signal.windows"),
                  ("scipy.special", "gpunp.scipy.special"),
                  ("scipy.stats", "gpunp.scipy.stats"),
                  ("scipy.ndimage", "gpunp.scipy.ndimage"),
                  ("scipy.interpolate", "gpunp.scipy.interpolate"),
                  ("scipy.spatial", "gpunp.scipy.spatial"),
                  ("scipy.spatial.distance", "gpunp.scipy.spatial.distance"),
                  ("scipy.spatial.transform", "gpunp.scipy.spatial.transform"))

SECTIONS = NUMPY_SECTIONS + SCIPY_SECTIONS


def public_names(module_name: str) -> list:
    """A NumPy or SciPy module's public names: its __all__ (NumPy 2 and SciPy
    define one for each of these modules)."""
    mod = importlib.import_module(module_name)
    names = getattr(mod, "__all__", None) or [n for n in dir(mod) if not n.startswith("_")]
    return sorted(set(names))


def gpunp_module(name: str):
    """gpunp's module for a section, or None where gpunp has none yet."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def implemented(module_name: str) -> dict:
    """{NumPy name: whether gpunp has it} for one section."""
    gmod = gpunp_module(dict(SECTIONS)[module_name])
    return {n: gmod is not None and hasattr(gmod, n) for n in public_names(module_name)}


def read_claims(path=CLAIMS) -> dict:
    """{section: [names]} from the claims file: a `[numpy.linalg]` (or
    `[scipy.sparse]`...) line starts a section (the first is `numpy`), one name
    a line, `#` comments."""
    claims, section = {s: [] for s, _ in SECTIONS}, "numpy"
    for line in pathlib.Path(path).read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            if section not in claims:
                raise ValueError(f"{path}: unknown section {line}")
        else:
            claims[section].append(line)
    return claims


def _part(sections) -> tuple:
    """(summary rows, per-module tables) of one library's sections."""
    summary = ["| module | implemented | public names |", "| --- | --- | --- |"]
    tables = []
    total = names = 0
    for ref_name, gp_name in sections:
        have = implemented(ref_name)
        done = sum(have.values())
        total, names = total + done, names + len(have)
        summary.append(f"| `{ref_name}` | {done} | {len(have)} |")
        rows = [f"## `{ref_name}` ({done} of {len(have)} in `{gp_name}`)", "",
                "| name | gpunp |", "| --- | --- |"]
        rows += [f"| `{n}` | {'yes' if ok else '—'} |" for n, ok in have.items()]
        tables += [""] + rows
    summary.append(f"| total | {total} | {names} |")
    return summary, tables


def render() -> str:
    scipy = importlib.import_module("scipy")
    np_summary, np_tables = _part(NUMPY_SECTIONS)
    sp_summary, sp_tables = _part(SCIPY_SECTIONS)
    lines = ["# NumPy API coverage", "",
             f"Every public name of NumPy {numpy.__version__} (each module's `__all__`) and "
             "whether gpunp has it under the same name. Written by `python tools/coverage.py` "
             "from the gpunp modules themselves; `tests/test_coverage.py` checks that every name "
             "the project claims (`tests/coverage_claims.txt`) exists, is of NumPy's kind and "
             "is listed here as implemented.", ""]
    lines += np_summary + np_tables
    lines += ["", "# SciPy API coverage", "",
              f"Every public name of SciPy {scipy.__version__}'s subpackages (each module's "
              "`__all__`, the deprecated module names included) and whether `gpunp.scipy` has "
              "it under the same name, read and checked as the NumPy part is.", ""]
    lines += sp_summary + sp_tables
    return "\n".join(lines) + "\n"


def parse(text: str) -> dict:
    """{section: {name: implemented}} from a written docs/coverage.md."""
    out, section = {}, None
    for line in text.splitlines():
        if line.startswith("## `"):
            section = line.split("`")[1]
            out[section] = {}
        elif section and line.startswith("| `"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            out[section][cells[0].strip("`")] = cells[1] == "yes"
    return out


def main(argv) -> int:
    text = render()
    if "--check" in argv:
        if not DOC.exists() or DOC.read_text() != text:
            print(f"{DOC} is out of date: run python tools/coverage.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
