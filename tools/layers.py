"""Fails when code reaches up the layer map.

    python tools/layers.py                      the includes of csrc/ and the imports of gpunp/scipy/
    python tools/layers.py --objects build/obj  also the symbols each engine object file uses

The map is the table of docs/architecture.md under "## Layers": each row a
rank and the folders of csrc/ at that rank. A C file may include headers of
its own rank or below; with --objects, an object file may use only symbols
defined at its own rank or below (a header of a low layer that declares a
function of a high one would otherwise hide the climb). gpunp/scipy/ may use
gpunp's public Python API only: no module or name of gpunp whose path has a
part starting with "_", except a SciPy subpackage's own private modules.
The page holds the map to the tree as well: every engine file of csrc/ (not
the tests, not the fuzzer, not third_party) is named there by its path, and every file it
names by path exists.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAP_DOC = "docs/architecture.md"
ROW = re.compile(r"^\|\s*(\d+)\s*\|([^|]*)\|")
FOLDER = re.compile(r"`(csrc/[\w/]+)`")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_map(root: Path) -> dict[str, int]:
    """Folder (relative to root) -> rank, from the doc's "## Layers" table."""
    text = (root / MAP_DOC).read_text()
    start = text.find("\n## Layers\n")
    if start < 0:
        raise SystemExit(f"{MAP_DOC} has no '## Layers' section")
    ranks = {}
    for line in text[start:].splitlines()[2:]:
        if line.startswith("## "):
            break
        m = ROW.match(line)
        if m:
            for folder in FOLDER.findall(m.group(2)):
                ranks[folder] = int(m.group(1))
    if not ranks:
        raise SystemExit(f"{MAP_DOC}'s '## Layers' section has no table of ranks and folders")
    return ranks


def rank_of(path: Path, root: Path, ranks: dict[str, int]) -> tuple[str, int] | None:
    """The deepest mapped folder holding `path`, and its rank."""
    rel = path.relative_to(root).as_posix()
    best = None
    for folder, rank in ranks.items():
        if rel.startswith(folder + "/") and (best is None or len(folder) > len(best[0])):
            best = (folder, rank)
    return best


DOC_PATH = re.compile(r"csrc/[\w/.]*(?:\{[\w,.]+\})?[\w/.]*")


def check_doc_files(root: Path) -> list[str]:
    named = set()
    for m in DOC_PATH.finditer((root / MAP_DOC).read_text()):
        path = m.group(0).rstrip(".")
        brace = re.match(r"(.*)\{([^}]*)\}(.*)", path)
        alternatives = brace.group(2).split(",") if brace else [""]
        for alt in alternatives:
            named.add(f"{brace.group(1)}{alt}{brace.group(3)}" if brace else path)
    problems = [f"{MAP_DOC} names {p}, which does not exist" for p in sorted(named)
                if Path(p).suffix in (".c", ".h") and not (root / p).is_file()]
    for src in sorted((root / "csrc").rglob("*")):
        rel = src.relative_to(root)
        if src.suffix in (".c", ".h") and not {"tests", "fuzz", "third_party"} & set(rel.parts) \
                and rel.as_posix() not in named:
            problems.append(f"{rel} is not named in {MAP_DOC}")
    return problems


def check_includes(root: Path, ranks: dict[str, int]) -> list[str]:
    problems = []
    include_dir = root / "csrc" / "include"
    for src in sorted((root / "csrc").rglob("*")):
        if src.suffix not in (".c", ".h") or "third_party" in src.parts:
            continue
        mine = rank_of(src, root, ranks)
        rel = src.relative_to(root)
        if mine is None:
            problems.append(f"{rel}: its folder is not in the layer map ({MAP_DOC})")
            continue
        text = src.read_text()
        for m in INCLUDE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            target = next((p for p in (src.parent / m.group(1), include_dir / m.group(1))
                           if p.is_file()), None)
            if target is None:
                problems.append(f"{rel}:{line}: includes \"{m.group(1)}\", which is not in csrc/")
                continue
            theirs = rank_of(target.resolve(), root, ranks)
            if theirs is None:
                problems.append(f"{rel}:{line}: includes {target.resolve().relative_to(root)}, "
                                f"whose folder is not in the layer map")
            elif theirs[1] > mine[1]:
                problems.append(f"{rel}:{line}: includes {target.resolve().relative_to(root)}: "
                                f"{mine[0]} (layer {mine[1]}) may not reach up to "
                                f"{theirs[0]} (layer {theirs[1]})")
    return problems


def check_symbols(root: Path, objects: Path, ranks: dict[str, int]) -> list[str]:
    """Every object under `objects` mirrors its source's path (build/obj/csrc/...);
    preludes.o, the embedded prelude text, is csrc/prelude's."""
    defined, used = {}, {}
    for obj in sorted(objects.rglob("*.o")):
        rel = obj.relative_to(objects).with_suffix(".c")
        src = root / "csrc" / "prelude" / "preludes.c" if obj.name == "preludes.o" else root / rel
        if obj.name != "preludes.o" and not src.is_file():
            continue  # left over from a source since moved or deleted
        if rank_of(src, root, ranks) is None:
            continue
        out = subprocess.run(["nm", str(obj)], capture_output=True, text=True, check=True).stdout
        used[src] = set()
        for fields in (line.split() for line in out.splitlines()):
            if len(fields) == 3 and fields[1] in "TDBRC":
                defined[fields[2]] = src
            elif len(fields) == 2 and fields[0] == "U":
                used[src].add(fields[1])
    problems = []
    for src, names in sorted(used.items()):
        mine = rank_of(src, root, ranks)
        for name in sorted(names):
            home = defined.get(name)
            if home is None:
                continue
            theirs = rank_of(home, root, ranks)
            if theirs[1] > mine[1]:
                problems.append(f"{src.relative_to(root)}: uses {name} of "
                                f"{home.relative_to(root)}: {mine[0]} (layer {mine[1]}) may "
                                f"not reach up to {theirs[0]} (layer {theirs[1]})")
    return problems


def private(dotted: str) -> bool:
    return any(part.startswith("_") and not part.startswith("__") for part in dotted.split("."))


def check_scipy_imports(root: Path) -> list[str]:
    problems = []
    base = root / "gpunp" / "scipy"
    for src in sorted(base.rglob("*.py")):
        rel = src.relative_to(root)
        package = ".".join(src.relative_to(root).with_suffix("").parts)
        if src.name != "__init__.py":
            package = package.rsplit(".", 1)[0]
        else:
            package = package[: -len(".__init__")]
        # a SciPy subpackage (gpunp.scipy.sparse) may use its own private modules
        parts = src.relative_to(base).parts
        own = "gpunp.scipy." + parts[0] if len(parts) > 1 else "gpunp.scipy"
        for node in ast.walk(ast.parse(src.read_text(), str(rel))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                module = node.module or ""
                if node.level:
                    up = package.split(".")
                    up = up[: len(up) - node.level + 1]
                    module = ".".join(up + ([module] if module else []))
                targets = [f"{module}.{alias.name}" for alias in node.names]
            for dotted in targets:
                if dotted.split(".")[0] != "gpunp" or not private(dotted):
                    continue
                if dotted.startswith(own + ".") and not private(own):
                    continue
                # and every one may use gpunp.scipy's own (the SciPy version check)
                if dotted.startswith("gpunp.scipy._") and not private(dotted[len("gpunp.scipy._"):]):
                    continue
                problems.append(f"{rel}:{node.lineno}: imports {dotted}: gpunp/scipy/ uses "
                                f"gpunp's public API only")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=ROOT, help="the repository (default: this one)")
    ap.add_argument("--objects", type=Path, help="the engine's object files (build/obj)")
    args = ap.parse_args(argv)
    root = args.root.resolve()
    ranks = layer_map(root)
    problems = check_includes(root, ranks) + check_scipy_imports(root) + check_doc_files(root)
    if args.objects:
        problems += check_symbols(root, args.objects.resolve(), ranks)
    for p in problems:
        print(p, file=sys.stderr)
    print(f"layers: {len(problems)} problem(s); map of {len(ranks)} folders from {MAP_DOC}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
