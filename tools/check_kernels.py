"""Compiles every kernel source a test run generated (GPUNP_KERNEL_LOG) with
NVRTC for a CUDA architecture or hiprtc for an AMD one, so a kernel that
would not compile for a GPU cannot hide behind a green host run. Needs the
compiler, not a GPU.

    python tools/check_kernels.py --arch sm_90 build/kernel-sources
    python tools/check_kernels.py --arch gfx90a build/kernel-sources

With --into-cache (CUDA targets) each compiled kernel is also stored in the
disk cache (GPUNP_CACHE_DIR) where the CUDA backend on such a device looks
for it, so a GPU machine can start with this machine's compiles: the entries
hold for the same NVRTC major.minor there (`gpunp.show_config()`).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import sys
from pathlib import Path


def check(path: str, arch: str, into_cache: bool) -> tuple[str, str | None]:
    from gpunp._lib import ffi, lib
    src = Path(path).read_bytes()
    if arch.startswith("gfx"):
        compile_for = lib.gp_rtc_check_hip
    else:
        compile_for = lib.gp_rtc_precompile_cuda if into_cache else lib.gp_rtc_check_cuda
    status = compile_for(src, arch.encode())
    if status:
        return path, ffi.string(lib.gp_errmsg()).decode(errors="replace")
    return path, None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--into-cache", action="store_true",
                    help="store each CUDA image in the disk cache too")
    ap.add_argument("folder")
    args = ap.parse_args()
    if args.into_cache and args.arch.startswith("gfx"):
        ap.error("--into-cache fills the CUDA backend's cache; hiprtc images are not stored")
    files = sorted(str(p) for p in Path(args.folder).glob("*.cu"))
    if not files:
        print(f"no kernel sources in {args.folder}: was the suite run with GPUNP_KERNEL_LOG?")
        return 1
    failures = []
    with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
        for path, err in pool.map(check, files, [args.arch] * len(files),
                                  [args.into_cache] * len(files), chunksize=8):
            if err:
                failures.append((path, err))
    for path, err in failures:
        print(f"--- {path}\n{err}\n")
    compiler = "hiprtc" if args.arch.startswith("gfx") else "NVRTC"
    print(f"{len(files) - len(failures)} of {len(files)} kernel sources compile with {compiler} "
          f"for {args.arch}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
