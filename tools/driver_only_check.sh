#!/bin/bash
# gpunp on a GPU machine with only the NVIDIA driver: /usr/local/cuda hidden,
# the CUDA libraries from NVIDIA's wheels alone.
#
#   bash tools/driver_only_check.sh WHEELDIR [cuda13|cuda12]
#
# WHEELDIR holds gpunp's wheel (build/wheel/ or `make wheel`'s dist/), cffi
# and pycparser (the GPU machine has NumPy, not cffi), and NVIDIA's wheels
# of the extra. Everything is installed from there (pip --no-index) into a
# fresh venv that sees the system's site-packages for NumPy only: the
# venv's own site-packages come first on sys.path, so its nvidia/ folders
# are the ones gpunp finds, and the last step fails unless every CUDA
# library but the driver was loaded from the venv. (Where python3 has no
# venv module, every wheel of WHEELDIR goes into a --target folder on
# PYTHONPATH instead, without the extra's resolution, and the script says so.)
#
# As root, the check runs in a mount namespace of its own (unshare -m) with
# an empty tmpfs over /usr/local/cuda and every /usr/local/cuda-*, which
# also hides the toolkit from the loader's cache; elsewhere, or where
# unshare is refused, it says so and hides the toolkit from gpunp only
# (GPUNP_CUDA_PATH pointing nowhere, CUDA_PATH/CUDA_HOME unset).
# LD_LIBRARY_PATH is cleared either way, and the kernel cache starts empty,
# so NVRTC compiles every kernel.
#
# The carry limit (64 MiB with the work tree, about 6 MiB) does not take
# all of [cuda13]: cuBLAS, cuSOLVER, cuSPARSE and cuFFT's wheels are
# hundreds of MiB each. When WHEELDIR lacks some of the extra's wheels the
# check installs gpunp and the NVIDIA wheels that are there (the seed
# example needs only NVRTC; sort needs CCCL's headers), names what it
# left out, and tries the operations of the missing libraries anyway, to
# show the error that names them. NVRTC's CUDA 13 wheel is 86 MiB: carry
# the copy tools/slim_wheel.py makes without its unused .alt build (43 MiB):
#
#   pip download --no-deps --only-binary=:all: --python-version 3.12 \
#       --platform manylinux_2_17_x86_64 --platform manylinux_2_12_x86_64 -d /tmp/nv \
#       "nvidia-cuda-nvrtc==13.0.*" "nvidia-cuda-cccl==13.0.*" cffi pycparser
#   mkdir -p .drv && python3 tools/slim_wheel.py /tmp/nv/nvidia_cuda_nvrtc-*.whl .drv
#   cp /tmp/nv/nvidia_cuda_cccl-*.whl /tmp/nv/cffi-*.whl /tmp/nv/pycparser-*.whl .drv/
#   cp build/wheel/gpunp-*.whl .drv/        # (make -s .venv/.installed builds it)
#   # then, carrying .drv:  bash tools/driver_only_check.sh .drv cuda13
#
# (13.0's NVRTC, not the newest 13.x: its PTX loads on any CUDA 13 driver.)
set -u
W=$(cd "${1:?usage: driver_only_check.sh WHEELDIR [cuda13|cuda12]}" && pwd) || exit 2
EXTRA=${2:-cuda13}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
step() { printf '\n== %s\n' "$*"; }

if [ -z "${GPUNP_DRIVER_ONLY_NS:-}" ] && [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
  if unshare -m --propagation private true 2>/dev/null; then
    exec unshare -m --propagation private env GPUNP_DRIVER_ONLY_NS=1 bash "$0" "$@"
  fi
fi

step "the machine"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || exit 1
nvidia-smi | grep -o "CUDA Version: [0-9.]*"
python3 --version
ldd --version | head -1
ls -l "$W"

step "hiding the CUDA toolkit"
if [ -n "${GPUNP_DRIVER_ONLY_NS:-}" ]; then
  for d in /usr/local/cuda /usr/local/cuda-*; do
    [ -e "$d" ] && mount -t tmpfs gpunp-hidden "$d" && echo "empty tmpfs over $d"
  done
  echo "/usr/local/cuda now holds: [$(ls -A /usr/local/cuda 2>/dev/null)]"
else
  echo "no mount namespace (not root, or unshare refused): the toolkit stays on disk;"
  echo "gpunp is kept from it by GPUNP_CUDA_PATH, CUDA_PATH, CUDA_HOME and LD_LIBRARY_PATH"
fi
unset CUDA_PATH CUDA_HOME GPUNP_CCCL_PATH GPUNP_KERNEL_PACK
export GPUNP_CUDA_PATH=/nonexistent/gpunp-driver-only LD_LIBRARY_PATH=
export GPUNP_BACKEND=cuda GPUNP_CACHE_DIR=$(mktemp -d) PYTHONNOUSERSITE=1

step "a venv (system site-packages for NumPy only)"
V=$(mktemp -d)
if python3 -m venv --system-site-packages "$V/venv"; then
  PY=$V/venv/bin/python SITE=$V/venv
  echo "$SITE"

  step "pip install --no-index --find-links $W gpunp[$EXTRA]"
  if "$PY" -m pip install -q --no-index --find-links "$W" "gpunp[$EXTRA]"; then
    echo "installed gpunp[$EXTRA] whole"
  else
    echo "PARTIAL: pip could not install gpunp[$EXTRA] from $W (above): installing gpunp and"
    echo "the NVIDIA wheels that are there"
    "$PY" -m pip install -q --no-index --find-links "$W" gpunp || exit 1
    nv=$(ls "$W"/nvidia_*.whl 2>/dev/null)
    [ -n "$nv" ] && { "$PY" -m pip install -q --no-index --no-deps $nv || exit 1; }
  fi
else
  # (Debian's and Ubuntu's python3 without python3-venv)
  PY=python3 SITE=$V/site
  step "no venv module: every wheel of $W into $SITE (pip --target --no-deps, not the extra)"
  python3 -m pip install -q --no-index --no-deps --target "$SITE" "$W"/*.whl || exit 1
  export PYTHONPATH=$SITE
fi
"$PY" -m pip list --path "$(ls -d "$SITE"/lib/python3*/site-packages 2>/dev/null || echo "$SITE")" \
  2>/dev/null | grep -Ei "^(gpunp|numpy|cffi|nvidia)"
find "$SITE" -path "*/nvidia/*/lib" -type d

step "gpunp.show_config()"
cd "$(mktemp -d)" || exit 1   # not the source tree: the installed gpunp
"$PY" -c "import gpunp; gpunp.show_config()" || exit 1

step "examples/seed.py"
"$PY" "$ROOT/examples/seed.py" || exit 1

step "the other CUDA libraries (sort: CCCL; matmul: cuBLAS; fft: cuFFT; solve: cuSOLVER)"
"$PY" - <<'EOF'
import numpy, gpunp
x = numpy.random.default_rng(0).standard_normal((64, 64)).astype("f")
g = gpunp.asarray(x)
checks = [("sort", lambda: (gpunp.sort(g[0]), numpy.sort(x[0]))),
          ("matmul", lambda: (g @ g, x @ x)),
          ("fft", lambda: (gpunp.fft.fft(g[0]), numpy.fft.fft(x[0]))),
          ("solve", lambda: (gpunp.linalg.solve(g, g[:, 0]), numpy.linalg.solve(x, x[:, 0])))]
for name, f in checks:
    try:
        got, want = f()
        ok = numpy.allclose(gpunp.asnumpy(got), want, rtol=1e-3, atol=1e-3)
        print(f"{name}: {'matches NumPy' if ok else 'DIFFERS from NumPy'}")
    except Exception as e:
        print(f"{name}: {type(e).__name__}: {str(e).splitlines()[0][:300]}")
EOF

step "where each library came from"
"$PY" - "$SITE" <<'EOF'
import sys
from gpunp import _config
venv = sys.argv[1]
libs = _config.config("libraries").splitlines()
print("\n".join(libs))
outside = [l for l in libs if not l.split(": ", 1)[1].startswith(venv)
           and "libcuda.so" not in l]
if outside:
    sys.exit("NOT FROM THE WHEELS: " + "; ".join(outside))
print("every CUDA library but the driver came from the venv's nvidia-* wheels")
EOF
