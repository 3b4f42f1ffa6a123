"""The engine's dense-solver entry point (gp_solver_run, gp_linalg.h): its
checks of routines, arguments, dtypes and layouts, which run before any
backend is asked, and the host backend's answer (it has no solver:
gpunp.linalg computes through NumPy there)."""

import numpy as np
import pytest

import gpunp as gp
from gpunp._lib import ffi, lib
from gpunp.linalg import _device


def _f(shape, dt=np.float64):
    return _device.fortran_empty(shape[:-2], shape[-2], shape[-1], dt)


def _avail(routine):
    out = ffi.new("int32_t *")
    assert lib.gp_solver_available(routine, out) == 0
    return out[0]


def test_unknown_routine_and_argument_count():
    with pytest.raises(ValueError, match="unknown routine"):
        _device.run(99, 0, _f((2, 2)), gp.empty((), np.int32))
    with pytest.raises(RuntimeError, match="takes 3 arguments"):
        _device.run(_device.GETRF, 0, _f((2, 2)), gp.empty((), np.int32))


@pytest.mark.parametrize("dt", [np.int64, np.float16, np.bool_])
def test_dtypes_without_a_routine(dt):
    with pytest.raises(TypeError, match="no routine"):
        _device.run(_device.POTRF, 0, _f((2, 2), dt), gp.empty((), np.int32))


def test_argument_dtypes():
    a = _f((3, 3))
    with pytest.raises(TypeError, match="must be int64"):
        _device.run(_device.GETRF, 0, a, gp.empty(3, np.int32), gp.empty((), np.int32))
    with pytest.raises(TypeError, match="must be int32"):
        _device.run(_device.POTRF, 0, a, gp.empty((), np.int64))
    with pytest.raises(TypeError, match="must be float64"):
        _device.run(_device.SYEVD, 0, _f((3, 3), np.complex128), gp.empty(3, np.complex128),
                    gp.empty((), np.int32))


def test_layouts():
    info = gp.empty((), np.int32)
    with pytest.raises(ValueError, match="column-major"):
        _device.run(_device.POTRF, 0, gp.empty((3, 3)), info)  # C order
    with pytest.raises(ValueError, match="column-major"):
        _device.run(_device.POTRF, 0, _f((2, 3, 3))[::-1], gp.empty(2, np.int32))
    with pytest.raises(ValueError, match="square"):
        _device.run(_device.POTRF, 0, _f((3, 2)), info)
    with pytest.raises(ValueError, match="batch shapes"):
        _device.run(_device.POTRF, 0, _f((2, 3, 3)), gp.empty(3, np.int32))
    with pytest.raises(ValueError, match="mismatched sizes"):
        _device.run(_device.GETRF, 0, _f((3, 3)), gp.empty(2, np.int64), info)
    with pytest.raises(ValueError, match="mismatched sizes"):  # gesvd needs m >= n
        _device.run(_device.GESVD, 0, _f((2, 3)), gp.empty(3), None, None, info)
    with pytest.raises(RuntimeError, match="is NULL"):  # vectors asked, none given
        _device.run(_device.GESVD, _device.VECTORS, _f((3, 2)), gp.empty(2), None, None, info)
    ro = _f((3, 3))
    lib.gp_array_set_readonly(ro._h)
    with pytest.raises(ValueError, match="read-only"):
        _device.run(_device.POTRF, 0, ro, info)


@pytest.mark.skipif(gp.backend() != "host", reason="the host backend's answer")
def test_host_backend_has_no_solver():
    for r in range(lib.GP_SOLVER_COUNT):
        assert _avail(r) == 0
    with pytest.raises(NotImplementedError, match="through NumPy"):
        _device.run(_device.POTRF, 0, _f((3, 3)), gp.empty((), np.int32))


@pytest.mark.skipif(gp.backend() != "cuda", reason="cuSOLVER")
def test_cuda_has_every_solver():
    for r in range(lib.GP_SOLVER_COUNT):
        assert _avail(r) == 1
