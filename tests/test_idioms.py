"""CuPy's idioms beyond NumPy's names (gpunp._idioms, ndarray.data/set/get,
asnumpy, gpunp.x), against NumPy and SciPy."""

import ctypes
import importlib

import numpy as np
import pytest
import scipy
import scipy.sparse

import gpunp as gp
import gpunp.x as gx


def test_get_array_module():
    d, h = gp.arange(3), np.arange(3)
    assert gp.get_array_module(d) is gp
    assert gp.get_array_module(h, 1.0, d) is gp
    assert gp.get_array_module(h, [1, 2], None) is np
    assert gp.get_array_module() is np
    sparse = gp.scipy.sparse.csr_matrix(scipy.sparse.eye(3, format="csr"))
    assert gp.get_array_module(sparse) is gp
    assert gp.scipy.get_array_module(d) is gp.scipy
    assert gp.scipy.get_array_module(sparse) is gp.scipy
    assert gp.scipy.get_array_module(h) is scipy
    # the idiom: one function for host and device data
    def softplus(x):
        xp = gp.get_array_module(x)
        return xp.log1p(xp.exp(x))
    x = np.linspace(-3, 3, 7)
    np.testing.assert_allclose(softplus(gp.asarray(x)).get(), softplus(x), rtol=1e-13)


def test_data_is_a_memory_pointer():
    a = gp.arange(12, dtype=np.float32).reshape(3, 4)
    p = a.data
    assert isinstance(p, gp.cuda.MemoryPointer) and isinstance(p.mem, gp.cuda.Memory)
    assert p.ptr == int(p) == a.data_ptr
    assert p.device_id == a.device.id == p.mem.device_id
    assert p.mem.size >= a.nbytes and p.mem.ptr == p.ptr
    v = a[1:, 2:]
    assert v.data.ptr - p.ptr == (4 + 2) * 4 and v.data.mem.ptr == p.mem.ptr
    assert (v.data - 8).ptr == v.data.ptr - 8 and (8 + v.data).ptr == v.data.ptr + 8
    # the pointer's copies read and write the array's memory
    host = np.zeros(4, np.float32)
    (a.data + 4 * 4).copy_to_host(host.ctypes.data, host.nbytes)
    np.testing.assert_array_equal(host, np.arange(4, 8, dtype=np.float32))
    src = np.full(2, -1, np.float32)
    a[2].data.copy_from_host(ctypes.c_void_p(src.ctypes.data), src.nbytes)
    b = gp.zeros(12, np.float32)
    b.data.copy_from_device(a.data, a.nbytes)
    want = np.arange(12, dtype=np.float32)
    want[8:10] = -1
    np.testing.assert_array_equal(b.get(), want)
    # the pointer keeps the memory alive
    q = gp.arange(5.0).data
    del a, v
    out = np.empty(5)
    q.copy_to_host(out.ctypes.data, out.nbytes)
    np.testing.assert_array_equal(out, np.arange(5.0))


def test_set_copies_host_data_in():
    x = np.arange(6.0).reshape(2, 3)
    for order in "CF":
        a = gp.empty((2, 3), order=order)
        assert a.set(x[:, ::-1]) is None
        np.testing.assert_array_equal(a.get(), x[:, ::-1])
        assert a.flags.f_contiguous == (order == "F")
    s = gp.cuda.Stream()
    a.set(x * 2, stream=s)
    s.synchronize()
    np.testing.assert_array_equal(a.get(), x * 2)
    gp.empty((0, 3)).set(np.empty((0, 3)))
    with pytest.raises(TypeError, match="numpy.ndarray"):
        a.set([[1, 2, 3], [4, 5, 6]])
    with pytest.raises(TypeError, match="int64 array cannot be set to float64"):
        a.set(np.zeros((2, 3), np.int64))
    with pytest.raises(ValueError, match="Shape mismatch"):
        a.set(np.zeros((3, 2)))
    with pytest.raises(RuntimeError, match="non-contiguous"):
        gp.zeros((4, 3))[::2].set(x)
    with pytest.raises(ValueError, match="read-only"):
        gp.arange(3.0).imag.set(np.zeros(3))


def test_get_and_asnumpy_take_cupys_arguments():
    a = gp.asarray(np.arange(6, dtype=np.int16).reshape(2, 3))
    s = gp.cuda.Stream()
    for blocking in (True, False):
        h = a.get(stream=s, order="F", blocking=blocking)
        s.synchronize()
        assert h.flags.f_contiguous
        np.testing.assert_array_equal(h, np.arange(6).reshape(2, 3))
        out = np.empty((2, 3), np.int16)
        assert gp.asnumpy(a, stream=s, out=out, blocking=blocking) is out
        s.synchronize()
        np.testing.assert_array_equal(out, np.arange(6).reshape(2, 3))
    np.testing.assert_array_equal(gp.asnumpy([1, 2], blocking=False), [1, 2])
    h = np.arange(5.0)
    for blocking in (True, False):
        d = gp.asarray(h, blocking=blocking)
        h2 = h.copy()
        h[:] = -1  # the host data may change as soon as asarray returns
        np.testing.assert_array_equal(d.get(), h2)
        h = h2


@pytest.mark.parametrize("name,ufunc,dtype", [
    ("scatter_add", np.add, np.float32), ("scatter_add", np.add, np.int64),
    ("scatter_max", np.maximum, np.float64), ("scatter_min", np.minimum, np.int32),
])
def test_scatter_is_ufunc_at(name, ufunc, dtype):
    rng = np.random.default_rng(3)
    base = rng.integers(-20, 20, size=(6, 4)).astype(dtype)
    idx = np.array([0, 5, 0, 2, 5, 5])
    vals = rng.integers(-30, 30, size=(6, 4)).astype(dtype)
    want = base.copy()
    ufunc.at(want, idx, vals)
    got = gp.asarray(base)
    fn = getattr(gx, name)
    assert fn is getattr(gp, name)
    assert fn(got, gp.asarray(idx), gp.asarray(vals)) is None
    np.testing.assert_array_equal(got.get(), want)
    # a slice and a broadcast scalar
    want2 = base.copy()
    ufunc.at(want2, (slice(1, 4), 2), dtype(7))
    got2 = gp.asarray(base)
    fn(got2, (slice(1, 4), 2), dtype(7))
    np.testing.assert_array_equal(got2.get(), want2)
    with pytest.raises(TypeError):
        fn(base, idx, vals)
    with pytest.raises(IndexError):
        fn(gp.asarray(base), gp.asarray([6]), 1)


def test_memoize_and_clear_memo():
    calls = []

    @gp.memoize()
    def f(x, y=1):
        calls.append((x, y))
        return x + y

    @gp.memoize(for_each_device=True)
    def g(n):
        calls.append(n)
        return gp.arange(n)

    assert f(1) == 2 and f(1) == 2 and f(1, y=3) == 4 and f(1, y=3) == 4
    assert calls == [(1, 1), (1, 3)]
    assert g(3) is g(3) and calls[-1] == 3 and len(calls) == 3
    assert f.__name__ == "f"
    gp.clear_memo()
    f(1)
    assert calls[-1] == (1, 1) and len(calls) == 4
    with pytest.raises(TypeError):  # unhashable arguments
        f([1])


def test_x_is_cupyx():
    assert gx.scipy is gp.scipy and gx.profiler is importlib.import_module("gpunp.profiler")
    assert set(gx.__all__) == {"profiler", "scatter_add", "scatter_max", "scatter_min", "scipy",
                               "empty_pinned", "zeros_pinned", "empty_like_pinned",
                               "zeros_like_pinned"}
    with pytest.raises(AttributeError):
        gx.no_such_name
