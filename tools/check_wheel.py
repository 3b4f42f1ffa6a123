"""Checks a built gpunp wheel: the platform tag that PyPI takes, and the
[cuda13]/[cuda12] extras against the libraries the engine opens.

    python tools/check_wheel.py build/wheel/gpunp-*.whl
    python tools/check_wheel.py --auditwheel build/wheel-tools/bin/auditwheel dist/gpunp-*.whl
    python tools/check_wheel.py --extras       (pyproject.toml against csrc/ alone)

The tag must be manylinux_X_Y_ARCH, X.Y being what build_ffi.wheel_platform
reads from the wheel's own extension (the newest glibc symbol version it
uses); with --auditwheel, auditwheel's report is printed and must name the
same tag. Each extra must list exactly the wheels of WHEELS below for the
libraries the engine's sources open, each wheel limited to the major
version whose soname the engine asks for. Exit status 1 with the reasons
when a check fails.
"""

from __future__ import annotations

import argparse
import email.parser
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# What the CUDA backend opens (by soname stem) and which NVIDIA wheel holds
# it for each CUDA major, with the library's own major version there (its
# soname's number: CUDA 13's cuFFT is libcufft.so.12). libcuda is the
# driver's, never a wheel. "cccl" is not a library: the sort kernels
# include CCCL's CUB headers, found beside NVRTC or in this wheel.
WHEELS = {
    "libcuda": {},
    "libnvrtc": {"cuda13": ("nvidia-cuda-nvrtc", 13), "cuda12": ("nvidia-cuda-nvrtc-cu12", 12)},
    "libcublas": {"cuda13": ("nvidia-cublas", 13), "cuda12": ("nvidia-cublas-cu12", 12)},
    "libcufft": {"cuda13": ("nvidia-cufft", 12), "cuda12": ("nvidia-cufft-cu12", 11)},
    "libcusolver": {"cuda13": ("nvidia-cusolver", 12), "cuda12": ("nvidia-cusolver-cu12", 11)},
    "libcusparse": {"cuda13": ("nvidia-cusparse", 12), "cuda12": ("nvidia-cusparse-cu12", 12)},
    "cccl": {"cuda13": ("nvidia-cuda-cccl", 13), "cuda12": ("nvidia-cuda-cccl-cu12", 12)},
}
EXTRAS = ("cuda13", "cuda12")

# Where the engine names the CUDA libraries it opens.
SONAME_SOURCES = ("csrc/rtc/device_rtc.c", "csrc/backend/vendor/cuda.h")
SONAME_LIST = re.compile(r"(?:nv_sonames\[\]\s*=|#define\s+GPU_\w+_SONAMES)\s*\{([^}]*)\}")
CCCL_MARK = "cub/block/"  # the CUB header the engine looks for (csrc/rtc/device_rtc.c)


def engine_sonames(root: Path = ROOT) -> dict[str, set[int]]:
    """Each CUDA library the engine opens: its soname stem and the versions
    it asks for (libnvrtc.so.13, .so.12 -> {"libnvrtc": {13, 12}}), and
    "cccl" where the engine includes CUB's headers."""
    found: dict[str, set[int]] = {}
    for rel in SONAME_SOURCES:
        text = (root / rel).read_text()
        for group in SONAME_LIST.findall(text):
            for name in re.findall(r'"([^"]+)"', group):
                m = re.fullmatch(r"(lib[\w-]+)\.so(?:\.(\d+))?", name)
                if m:
                    versions = found.setdefault(m.group(1), set())
                    if m.group(2):
                        versions.add(int(m.group(2)))
    if CCCL_MARK in (root / SONAME_SOURCES[0]).read_text():
        found["cccl"] = {13, 12}
    return found


def pyproject_extras(path: Path = ROOT / "pyproject.toml") -> dict[str, list[str]]:
    """[project.optional-dependencies] of pyproject.toml (the subset of TOML
    it is written in: name = ["...", ...], comments; tomllib is 3.11+)."""
    text = path.read_text()
    m = re.search(r"^\[project\.optional-dependencies\]\s*$(.*?)(?=^\[)", text, re.M | re.S)
    body = re.sub(r"#[^\n]*", "", m.group(1)) if m else ""
    return {name: re.findall(r'"([^"]+)"', items)
            for name, items in re.findall(r"^([\w-]+)\s*=\s*\[(.*?)\]", body, re.M | re.S)}


def check_extras(extras: dict[str, list[str]], root: Path = ROOT) -> list[str]:
    """Why the extras do not list exactly the wheels of the libraries the
    engine opens (an empty list when they do)."""
    problems = []
    opened = engine_sonames(root)
    for lib in sorted(set(opened) - set(WHEELS)):
        problems.append(f"the engine opens {lib}, which tools/check_wheel.py's WHEELS lacks")
    for extra in EXTRAS:
        want = set()
        for lib, versions in opened.items():
            if extra not in WHEELS.get(lib, {}):
                continue
            name, major = WHEELS[lib][extra]
            if lib != "cccl" and major not in versions:
                problems.append(f"[{extra}]: {name} holds {lib}.so.{major}, "
                                f"which the engine does not ask for")
            want.add(f"{name}>={major},<{major + 1}")
        have = {normal(r) for r in extras.get(extra, [])}
        for r in sorted(want - have):
            problems.append(f"[{extra}] lacks {r}")
        for r in sorted(have - want):
            problems.append(f"[{extra}] lists {r}, not a library the engine opens (or another range)")
    return problems


def metadata_extras(meta: str) -> dict[str, list[str]]:
    """The extras of a wheel's METADATA: Requires-Dist lines by their marker."""
    msg = email.parser.Parser().parsestr(meta)
    out: dict[str, list[str]] = {e: [] for e in msg.get_all("Provides-Extra") or []}
    for req in msg.get_all("Requires-Dist") or []:
        m = re.fullmatch(r"\s*(.*?)\s*;\s*extra\s*==\s*['\"]([\w-]+)['\"]\s*", req)
        if m:
            out.setdefault(m.group(2), []).append(normal(m.group(1)))
    return out


def normal(req: str) -> str:
    """A requirement without spaces, its bounds in one order (">=" before
    "<": the METADATA that hatchling writes may order them otherwise)."""
    name, _, bounds = re.match(r"([\w.-]+)(\[.*?\])?(.*)", re.sub(r"\s+", "", req)).groups()
    return name + ",".join(sorted(bounds.split(","))[::-1])


def check_wheel(wheel: Path, auditwheel: str | None = None) -> list[str]:
    sys.path.insert(0, str(ROOT))
    import build_ffi

    problems = []
    m = re.fullmatch(r"gpunp-[^-]+-cp310-abi3-([\w.]+)\.whl", wheel.name)
    if not m:
        return [f"{wheel.name} is not a cp310-abi3 gpunp wheel"]
    plat = m.group(1)
    print(f"{wheel.name}: platform tag {plat}")
    with zipfile.ZipFile(wheel) as z, tempfile.TemporaryDirectory() as tmp:
        names = z.namelist()
        so = [n for n in names if re.fullmatch(r"gpunp/_engine[^/]*\.so", n)]
        meta = [n for n in names if n.endswith(".dist-info/METADATA")]
        if len(so) != 1 or len(meta) != 1:
            return [f"{wheel.name} holds {so} and {meta}, not one engine and one METADATA"]
        z.extract(so[0], tmp)
        want = build_ffi.wheel_platform(Path(tmp) / so[0])
        needed, versions = build_ffi.elf_needs(Path(tmp) / so[0])
        glibc = max((v for vs in versions.values() for v in vs),
                    key=lambda v: [int(x) for x in re.findall(r"\d+", v)], default="none")
        print(f"  {so[0]} needs {', '.join(needed)}; newest symbol version {glibc}")
        extras = metadata_extras(z.read(meta[0]).decode())
    if not plat.startswith("manylinux_"):
        problems.append(f"the tag {plat} is not manylinux (PyPI refuses it)")
    if plat != want:
        problems.append(f"the tag {plat} is not the {want} that the extension's links allow")
    source = {k: [normal(r) for r in v] for k, v in pyproject_extras().items()}
    for extra in EXTRAS:
        got = sorted(extras.get(extra, []))
        print(f"  [{extra}]: {', '.join(got) or '(none)'}")
        if got != sorted(source.get(extra, [])):
            problems.append(f"the wheel's [{extra}] {got} is not pyproject.toml's")
    problems += check_extras(extras)
    if auditwheel:
        r = subprocess.run([auditwheel, "show", str(wheel)], capture_output=True, text=True)
        print("auditwheel show:\n" + (r.stdout + r.stderr).rstrip())
        report = re.sub(r"\s+", " ", r.stdout)
        if r.returncode or f'"{plat}"' not in report:
            problems.append(f"auditwheel does not find the wheel consistent with {plat}")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("wheels", nargs="*", type=Path)
    ap.add_argument("--auditwheel", metavar="PATH", help="also run `PATH show` on each wheel")
    ap.add_argument("--extras", action="store_true", help="check pyproject.toml's extras only")
    args = ap.parse_args()
    problems = check_extras(pyproject_extras()) if args.extras or not args.wheels else []
    for w in args.wheels:
        problems += check_wheel(w, args.auditwheel)
    for p in problems:
        print("check_wheel:", p, file=sys.stderr)
    if not problems:
        print("check_wheel: ok")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
