"""Builds the kernel pack: the elementwise kernels of the first calls users
make (every ufunc loop of the common dtypes on contiguous operands, with a
Python scalar on either side too; casts between those dtypes; transposed
copies), compiled ahead of time with NVRTC for the CUDA architectures named,
so that such a call on a fresh installation loads its kernel instead of
waiting for the compiler (NVRTC's fixed cost alone was 22-40 ms a kernel on
the lent H100s' and H200s' hosts: docs/performance.md). Needs NVRTC, not a GPU.

    python tools/kernel_pack.py --arch sm_90 --arch sm_80 OUT
    python tools/kernel_pack.py --coverage    # on a GPU, with gpunp installed

--coverage runs the workload on the installed gpunp's backend with an empty
disk cache and prints the kernel cache's counters: how many of its kernels
the pack served (pack_hits) and how many were compiled.

OUT gets one folder per target, `cuda-sm_90/`, of pack entries. The engine
looks for them in `gpunp/_kernels`, beside its library, where hatch_build.py
puts the folder that GPUNP_BUILD_PACK names (`make wheel PACK_ARCHS=sm_90`
does both). Their sources come from running
the workload below on the host backend with GPUNP_KERNEL_LOG: elementwise
kernels do not depend on the device, so the CUDA backend generates the same
text and finds the entry. An entry holds only for the NVRTC major.minor that
made it (the engine compares the compiler's identity): with another NVRTC,
or a driver too old to load the image, the kernel is compiled as before.
Reductions are left out, as their kernels are shaped by the device's size.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

DTYPES = ("bool", "int8", "uint8", "int16", "int32", "int64", "uint32", "uint64", "float16",
          "float32", "float64", "complex64", "complex128")

# Run on the host backend with the kernel log on. 64 elements: every vector
# width applies (it needs n at least as large), and the 64x64 matrix is
# large enough for the tiled transpose.
WORKLOAD = """
import json
import warnings
import numpy
import gpunp
warnings.simplefilter("ignore")
DTYPES = %r
arrays = {d: gpunp.asarray(numpy.arange(1, 65).astype(d)) for d in DTYPES}
scalars = {"b": True, "i": 3, "u": 3, "f": 1.5, "c": 1.5 + 0.5j}
ufuncs = sorted({getattr(gpunp, n) for n in dir(gpunp)
                 if isinstance(getattr(gpunp, n), gpunp.ufunc)}, key=lambda u: u.__name__)
def attempt(f, *args):
    try:
        f(*args)
    except (TypeError, ValueError, ArithmeticError, NotImplementedError):
        pass
for u in ufuncs:
    for d, a in arrays.items():
        s = scalars[numpy.dtype(d).kind]
        if u.nin == 1:
            attempt(u, a)
        elif u.nin == 2:
            attempt(u, a, a)
            attempt(u, a, s)
            attempt(u, s, a)
for d, a in arrays.items():
    for to in DTYPES:
        attempt(a.astype, to)
    m = a.reshape(8, 8)
    attempt(lambda: gpunp.asarray(numpy.ones((64, 64), d)).T.copy())
    attempt(lambda: m[::2].copy())
print(json.dumps(gpunp._config.cache_stats()))
"""


def log_sources(log: Path) -> None:
    env = dict(os.environ, GPUNP_BACKEND="host", GPUNP_KERNEL_LOG=str(log),
               GPUNP_KERNEL_PACK="")
    subprocess.run([sys.executable, "-c", WORKLOAD % (DTYPES,)], env=env, check=True,
                   cwd=tempfile.gettempdir(), stdout=subprocess.DEVNULL)


def coverage() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, GPUNP_CACHE_DIR=tmp)
        subprocess.run([sys.executable, "-c", WORKLOAD % (DTYPES,)], env=env, check=True,
                       cwd=tmp)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", action="append", help="a CUDA architecture (sm_90); repeat for more")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--coverage", action="store_true")
    ap.add_argument("out", nargs="?")
    args = ap.parse_args()
    if args.coverage:
        coverage()
        return 0
    if not args.arch or not args.out:
        ap.error("--arch and OUT are needed to build a pack")
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "log"
        log_sources(log)
        print(f"{len(list(log.glob('*.cu')))} kernel sources")
        for arch in args.arch:
            subprocess.run([sys.executable, str(ROOT / "tools" / "check_kernels.py"), "--arch",
                            arch, "--jobs", str(args.jobs), "--into-pack", args.out, str(log)],
                           check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
