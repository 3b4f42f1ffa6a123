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
