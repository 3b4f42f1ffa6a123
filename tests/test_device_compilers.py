"""The GPU vendors' compilers without a GPU: every generated kernel must
compile with NVRTC and hiprtc (`make test` runs tools/check_kernels.py over
all of them); here, that a kernel source goes through and that a broken one
comes back with the compiler's log."""

import pytest

from gpunp._lib import ffi, lib

GOOD = b"""
struct gpk_params { gpk_index n; float *p0; };
GPK_KERNEL(k, struct gpk_params)
{
    GPK_GRID_LOOP(gpk_index, i, p.n) p.p0[i] = F(sqrt)(p.p0[i]);
}
""".replace(b"F(sqrt)", b"gpk_sqrt_f32")
BAD = GOOD.replace(b"gpk_sqrt_f32", b"no_such_function")

COMPILERS = [("cuda", "sm_90"), ("hip", "gfx90a"), ("hip", "gfx1030")]


def _check(vendor, source, arch):
    return getattr(lib, f"gp_rtc_check_{vendor}")(source, arch.encode())


@pytest.mark.parametrize("vendor, arch", COMPILERS)
def test_a_kernel_compiles_and_a_broken_one_reports_why(vendor, arch):
    s = _check(vendor, GOOD, arch)
    if s == lib.GP_ERR_NOT_FOUND_LIBRARY:
        pytest.skip(ffi.string(lib.gp_errmsg()).decode())  # `make rocm-runtime` installs hiprtc
    assert s == 0, ffi.string(lib.gp_errmsg()).decode()
    assert _check(vendor, BAD, arch) == lib.GP_ERR_COMPILE
    assert "no_such_function" in ffi.string(lib.gp_errmsg()).decode()


CUB = b"""
#if defined(GPK_CUDA)
#include <cub/block/block_radix_sort.cuh>
#endif
struct gpk_params { unsigned int *k; };
GPK_KERNEL(k, struct gpk_params)
{
#if defined(GPK_CUDA)
    typedef cub::BlockRadixSort<unsigned int, 128, 4> S;
    __shared__ typename S::TempStorage tmp;
    unsigned int v[4];
    for (int j = 0; j < 4; ++j) v[j] = p.k[threadIdx.x * 4 + j];
    S(tmp).Sort(v);
    for (int j = 0; j < 4; ++j) p.k[threadIdx.x * 4 + j] = v[j];
#endif
}
"""


@pytest.mark.parametrize("vendor, arch", COMPILERS)
def test_a_kernel_including_cub_compiles(vendor, arch, monkeypatch, tmp_path):
    """The sort kernels' CUB headers (CCCL) are found at run time; a
    GPUNP_CCCL_PATH without them is passed over for the next place."""
    monkeypatch.setenv("GPUNP_CCCL_PATH", str(tmp_path))
    s = _check(vendor, CUB, arch)
    if s == lib.GP_ERR_NOT_FOUND_LIBRARY:
        pytest.skip(ffi.string(lib.gp_errmsg()).decode())
    assert s == 0, ffi.string(lib.gp_errmsg()).decode()


PRECOMPILE = """
import sys
from gpunp._lib import ffi, lib
s = lib.gp_rtc_precompile_cuda(sys.stdin.buffer.read(), b"sm_90")
print(s, ffi.string(lib.gp_errmsg()).decode())
"""


def _precompile(source, env):
    import os
    import subprocess
    import sys
    import tempfile
    env = {k: v for k, v in os.environ.items()
           if k not in ("GPUNP_CACHE_DIR", "XDG_CACHE_HOME", "HOME")} | env
    r = subprocess.run([sys.executable, "-c", PRECOMPILE], input=source, capture_output=True,
                       env=env, cwd=tempfile.gettempdir(), check=True)
    status, _, msg = r.stdout.decode().strip().partition(" ")
    return int(status), msg


def test_a_precompiled_kernel_is_stored_where_the_cuda_backend_looks(tmp_path):
    """gp_rtc_precompile_cuda (tools/check_kernels.py --into-cache) writes the
    entry the CUDA backend on an sm_90 device reads: under cuda-sm_90, with
    NVRTC's identity, the target and the source the compiler was given
    (tests/gpu/test_device_cache.py loads such a cache on a GPU)."""
    status, msg = _precompile(GOOD, {"GPUNP_CACHE_DIR": str(tmp_path)})
    if status == lib.GP_ERR_NOT_FOUND_LIBRARY:
        pytest.skip(msg)
    assert status == 0, msg
    (entry,) = tmp_path.glob("cuda-sm_90/*.gpk")
    data = entry.read_bytes()
    assert data.startswith(b"GPNPKC01")
    ident = data[32:]
    assert ident.startswith(b"nvrtc ") and b"|sm_90\n" in ident[:200]
    assert GOOD in ident
    # a second compile of the same source lands on the same entry
    assert _precompile(GOOD, {"GPUNP_CACHE_DIR": str(tmp_path)})[0] == 0
    assert len(list(tmp_path.glob("cuda-sm_90/*.gpk"))) == 1


def test_precompiling_says_so_when_the_disk_cache_is_off(tmp_path):
    status, msg = _precompile(GOOD, {})
    assert status == lib.GP_ERR_IO and "disk cache is off" in msg
    assert _precompile(BAD, {"GPUNP_CACHE_DIR": str(tmp_path)})[0] in (
        lib.GP_ERR_COMPILE, lib.GP_ERR_NOT_FOUND_LIBRARY)
    assert not list(tmp_path.glob("cuda-sm_90/*.gpk"))
