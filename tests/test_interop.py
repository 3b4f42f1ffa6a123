"""DLPack on every backend: NumPy is the partner on the host backend (the
GPU partners, PyTorch, CuPy, JAX, are in tests/gpu/test_interop.py)."""

import gc

import numpy as np
import pytest

import gpunp as gp
from property.strategies import ALL_DTYPES, assert_same

HOST = gp.backend() == "host"


def sample(dt, shape=(3, 4)):
    return (np.arange(int(np.prod(shape))).reshape(shape) % 5).astype(dt)


@pytest.mark.skipif(not HOST, reason="NumPy reads DLPack tensors in host memory only")
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("view", [lambda a: a, lambda a: a.T, lambda a: a[::2, ::-1],
                                  lambda a: a[:0], lambda a: a[1, 2, ...]])
def test_numpy_reads_gpunp_arrays_without_a_copy(dt, view):
    g = gp.asarray(sample(dt))
    gv = view(g)
    h = np.from_dlpack(gv)
    assert_same(gv, h)
    if any(st < 0 for st in gv.strides):  # exported as a copy
        with pytest.raises(BufferError):
            gv.__dlpack__(copy=False)
        assert h.__array_interface__["data"][0] != gv.data_ptr
    elif gv.size:  # (NumPy gives any empty import zero strides)
        assert h.strides == gv.strides
        assert h.__array_interface__["data"][0] == gv.data_ptr
        g[...] = 1  # writes through the shared memory
        assert_same(gv, h)


@pytest.mark.skipif(not HOST, reason="host memory is the host backend's device memory")
def test_gpunp_reads_numpy_arrays_without_a_copy():
    h = np.arange(12.0).reshape(3, 4)[:, ::2]
    g = gp.from_dlpack(h)
    assert g.data_ptr == h.__array_interface__["data"][0]
    assert g.strides == h.strides
    h[0, 0] = 42
    assert g[0, 0].item() == 42
    del h
    gc.collect()
    assert g.sum().item() > 0  # the tensor lives while the array does


def test_dlpack_device_and_protocol_arguments():
    g = gp.arange(6.0)
    dev = g.__dlpack_device__()
    assert dev[0] in (1, 2, 10)
    cap = g.__dlpack__(max_version=(1, 0))
    assert "dltensor_versioned" in repr(cap)
    legacy = g.__dlpack__()
    assert '"dltensor"' in repr(legacy)
    del cap, legacy  # never consumed: their destructors free the exports
    gc.collect()
    host = np.from_dlpack(g, device="cpu", copy=True)  # dl_device=(CPU, 0)
    np.testing.assert_array_equal(host, np.arange(6.0))
    assert gp.from_dlpack(g) is g


def test_readonly_exports_are_marked():
    g = gp.broadcast_to(gp.arange(3.0), (2, 3)) if hasattr(gp, "broadcast_to") else None
    if g is None:
        from gpunp._lib import ffi, lib
        from gpunp._ndarray import _wrap
        out = ffi.new("gp_array_t **")
        base = gp.arange(3.0)
        assert lib.gp_array_broadcast_to(base._h, 2, [2, 3], out) == 0
        g = _wrap(out[0], base)
    if HOST:
        h = np.from_dlpack(g)
        assert not h.flags.writeable
        np.testing.assert_array_equal(h, np.broadcast_to(np.arange(3.0), (2, 3)))
