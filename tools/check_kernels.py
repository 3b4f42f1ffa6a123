"""Compiles every kernel source a test run generated (GPUNP_KERNEL_LOG) with
NVRTC for a CUDA architecture or hiprtc for an AMD one, so a kernel that
would not compile for a GPU cannot hide behind a green host run. Needs the
compiler, not a GPU.

    python tools/check_kernels.py --arch sm_90 build/kernel-sources build/kernel-sources-c
    python tools/check_kernels.py --arch gfx90a build/kernel-sources

Each source is compiled at the compiler's least optimisation
(gp_rtc_check_cuda, gp_rtc_check_hip): whether it compiles is the question,
and that took a third of the full compile's time. Generated sources are
compiled in batches: one translation unit holds many of them, each in its
own namespace with its kernel renamed and its macros undefined after it,
since a compile's fixed cost (the prelude, the compiler's start) outweighs
a small kernel's (on the 2-core CI machine, hiprtc -O0 took 29 ms a source
in batches of 48 and 21 in batches of 185). A batch that fails is
compiled again one source at a time, so the report names the sources and
gives each one's own error. A source that includes headers or declares its
own extern "C" names (users' kernels, CUB's sorts) is compiled alone.

With --part I/K only a part of the generated kernels is compiled: every
source compiled alone (users' kernels, CUB's sorts: the code that differs
most between targets), and of the batched sources every K-th from the I-th
(by name, which is a hash: a sample). make test's two AMD targets take the
two halves, so every source compiles for one of them and each wavefront
width sees half of each kind of kernel.
With --into-cache (CUDA targets) each compiled kernel is also stored in the
disk cache (GPUNP_CACHE_DIR) where the CUDA backend on such a device looks
for it, so a GPU machine can start with this machine's compiles: the entries
hold for the same NVRTC major.minor there (`gpunp.show_config()`). Those are
compiled one source at a time, since the cache holds one image per source.
With --into-pack DIR they go to a kernel pack in DIR instead
(tools/kernel_pack.py).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import re
import sys
from pathlib import Path

BATCH = 200
KERNEL = re.compile(r"\b(GPK_(?:SCAN_)?KERNEL\()\s*(\w+)")
DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)", re.M)


def batchable(src: str) -> bool:
    return "#include" not in src and 'extern "C"' not in src and KERNEL.search(src) is not None


def batch_source(sources: list[str]) -> str:
    parts = []
    for i, src in enumerate(sources):
        body = KERNEL.sub(lambda m: f"{m.group(1)}{m.group(2)}__b{i}", src)
        undefs = "".join(f"#undef {name}\n" for name in sorted(set(DEFINE.findall(src))))
        parts.append(f"namespace gpk_batch{i} {{\n{body}\n}}\n{undefs}")
    return "".join(parts)


def compile_one(src: str, arch: str, into_cache: bool, pack: str | None = None) -> str | None:
    from gpunp._lib import ffi, lib
    if arch.startswith("gfx"):
        status = lib.gp_rtc_check_hip(src.encode(), arch.encode())
    elif pack:
        status = lib.gp_rtc_pack(b"cuda", src.encode(), arch.encode(), pack.encode())
    elif into_cache:
        status = lib.gp_rtc_precompile_cuda(src.encode(), arch.encode())
    else:
        status = lib.gp_rtc_check_cuda(src.encode(), arch.encode())
    if status:
        return ffi.string(lib.gp_errmsg()).decode(errors="replace")
    return None


def check(paths: list[str], arch: str, into_cache: bool,
          pack: str | None = None) -> list[tuple[str, str]]:
    """The failures among `paths`: (path, error) pairs."""
    sources = [Path(p).read_text() for p in paths]
    batch_err = compile_one(batch_source(sources), arch, False) if len(paths) > 1 else None
    if len(paths) > 1 and batch_err is None:
        return []
    failures = []
    for path, src in zip(paths, sources):
        err = compile_one(src, arch, into_cache, pack)
        if err:
            failures.append((path, err))
    if batch_err and not failures:
        failures.append((f"the batch of {', '.join(paths)} (each compiles alone)", batch_err))
    return failures


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--into-cache", action="store_true",
                    help="store each CUDA image in the disk cache too")
    ap.add_argument("--into-pack", metavar="DIR",
                    help="store each CUDA image in the kernel pack in DIR")
    ap.add_argument("--part", default="0/1", metavar="I/K",
                    help="of the batched sources, compile every K-th from the I-th "
                         "(by name, a hash: a sample); the others all")
    ap.add_argument("folders", nargs="+", metavar="folder")
    args = ap.parse_args()
    if (args.into_cache or args.into_pack) and args.arch.startswith("gfx"):
        ap.error("--into-cache and --into-pack store CUDA images; hiprtc images are not stored")
    pack = str(Path(args.into_pack).resolve()) if args.into_pack else None
    files = sorted(str(p) for f in args.folders for p in Path(f).glob("*.cu"))
    if not files:
        print(f"no kernel sources in {' '.join(args.folders)}: was the suite run with "
              "GPUNP_KERNEL_LOG?")
        return 1
    size = 1 if args.into_cache or pack else BATCH
    text = {p: Path(p).read_text() for p in files}
    together = [p for p in files if batchable(text[p])]
    alone = sorted(set(files) - set(together))
    left_out = 0
    part, parts = (int(v) for v in args.part.split("/"))
    if not 0 <= part < parts:
        ap.error(f"--part {args.part}: I/K with 0 <= I < K")
    if parts > 1:
        kept = together[part::parts]
        left_out, together = len(together) - len(kept), kept
        files = sorted(alone + together)
    jobs = [[p] for p in alone] + [together[k:k + size] for k in range(0, len(together), size)]
    failures = []
    with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
        for found in pool.map(check, jobs, [args.arch] * len(jobs),
                              [args.into_cache] * len(jobs), [pack] * len(jobs)):
            failures += found
    for path, err in failures:
        print(f"--- {path}\n{err}\n")
    compiler = "hiprtc" if args.arch.startswith("gfx") else "NVRTC"
    bad = len({p for p, _ in failures})
    print(f"{len(files) - bad} of {len(files)} kernel sources compile with {compiler} "
          f"for {args.arch}" + (f" (part {args.part}: {left_out} more left out)"
                                if left_out else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
