"""Zero-copy exchange with PyTorch, CuPy and JAX on the GPU, both ways,
through DLPack and __cuda_array_interface__: the same device pointer, the
right values, in every layout, and ordered on non-default streams."""

import numpy as np
import pytest

import gpunp as gp
from gpunp import cuda

torch = pytest.importorskip("torch")
cupy = pytest.importorskip("cupy")

LAYOUTS = {
    "contiguous": lambda a: a,
    "transposed": lambda a: a.T,
    "strided": lambda a: a[::2, 1::2],
    "reversed": lambda a: a[::-1],
    "empty": lambda a: a[:0],
}


def host(shape=(6, 8), dtype=np.float32):
    return np.random.default_rng(0).random(shape).astype(dtype)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_torch_reads_gpunp(layout):
    h = LAYOUTS[layout](host())
    g = LAYOUTS[layout](gp.asarray(host()))
    t = torch.from_dlpack(g)
    assert tuple(t.shape) == h.shape
    np.testing.assert_array_equal(t.cpu().numpy(), h)
    if any(s < 0 for s in g.strides):
        # PyTorch cannot hold negative strides (it aborts on them): a copy
        assert t.data_ptr() != g.data_ptr
        return
    if g.size:
        assert t.data_ptr() == g.data_ptr
    t2 = torch.as_tensor(g, device="cuda")  # __cuda_array_interface__
    if g.size:
        assert t2.data_ptr() == g.data_ptr
    np.testing.assert_array_equal(t2.cpu().numpy(), h)


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "strided", "empty"])
def test_gpunp_reads_torch(layout):
    t = LAYOUTS[layout](torch.arange(48, device="cuda", dtype=torch.float64).reshape(6, 8))
    for g in (gp.from_dlpack(t), gp.asarray(t)):
        assert g.shape == tuple(t.shape)
        if t.numel():
            assert g.data_ptr == t.data_ptr()
        np.testing.assert_array_equal(g.get(), t.cpu().numpy())
    g = gp.asarray(t)
    if t.numel():
        g[...] = 7  # the same memory
        assert float(t.flatten()[0]) == 7


@pytest.mark.parametrize("layout", LAYOUTS)
def test_cupy_both_ways(layout):
    h = LAYOUTS[layout](host())
    g = LAYOUTS[layout](gp.asarray(host()))
    c = cupy.asarray(g)  # __cuda_array_interface__
    if g.size:
        assert c.data.ptr == g.data_ptr
    np.testing.assert_array_equal(cupy.asnumpy(c), h)
    c2 = cupy.from_dlpack(g)
    np.testing.assert_array_equal(cupy.asnumpy(c2), h)
    if g.size:
        # DLPack exports negative strides as a copy (docs/differences.md)
        negative = any(s < 0 for s in g.strides)
        assert (c2.data.ptr != g.data_ptr) if negative else (c2.data.ptr == g.data_ptr)
    back = gp.asarray(c2)
    if g.size:
        assert back.data_ptr == c2.data.ptr
    back2 = gp.from_dlpack(c)
    np.testing.assert_array_equal(back2.get(), h)


# JAX takes only compact strides (a transposition, no gaps): it refuses the
# "strided" layout with UNIMPLEMENTED, so that one is left out
JAX_LAYOUTS = ["contiguous", "transposed", "reversed", "empty"]


@pytest.mark.parametrize("layout", JAX_LAYOUTS)
def test_jax_reads_gpunp(layout):
    jnp = pytest.importorskip("jax.numpy")
    h = LAYOUTS[layout](host())
    g = LAYOUTS[layout](gp.asarray(host()))
    j = jnp.from_dlpack(g)
    assert j.shape == h.shape
    np.testing.assert_array_equal(np.asarray(j), h)
    if g.size:
        # DLPack exports negative strides as a copy (docs/differences.md)
        negative = any(s < 0 for s in g.strides)
        same = j.unsafe_buffer_pointer() == g.data_ptr
        assert same != negative


@pytest.mark.parametrize("make", [lambda jnp: jnp.arange(12.0, dtype=jnp.float32).reshape(3, 4),
                                  lambda jnp: jnp.arange(12.0, dtype=jnp.float32).reshape(3, 4).T,
                                  lambda jnp: jnp.zeros((0, 4), jnp.float32)],
                         ids=["contiguous", "transposed", "empty"])
def test_gpunp_reads_jax(make):
    jnp = pytest.importorskip("jax.numpy")
    j = make(jnp)
    for g in (gp.from_dlpack(j), gp.asarray(j)):  # DLPack, __cuda_array_interface__
        assert g.shape == j.shape
        if j.size:
            assert g.data_ptr == j.unsafe_buffer_pointer()
        np.testing.assert_array_equal(g.get(), np.asarray(j))


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "empty"])
def test_jax_reads_gpunp_through_cuda_array_interface(layout):
    jnp = pytest.importorskip("jax.numpy")
    h = LAYOUTS[layout](host())
    g = LAYOUTS[layout](gp.asarray(host()))
    j = jnp.asarray(g)
    np.testing.assert_array_equal(np.asarray(j), h)
    if g.size:
        assert j.unsafe_buffer_pointer() == g.data_ptr


def test_jax_reads_gpunp_on_a_non_default_stream():
    jnp = pytest.importorskip("jax.numpy")
    with cuda.Stream(non_blocking=True):
        g = gp.arange(1 << 20, dtype=np.float32) * 2
        j = jnp.from_dlpack(g)
    assert j.unsafe_buffer_pointer() == g.data_ptr
    np.testing.assert_array_equal(np.asarray(j), np.arange(1 << 20, dtype=np.float32) * 2)


def test_exchange_on_non_default_streams():
    # producer work on a gpunp stream, consumed on a torch stream: the
    # consumer's stream waits for it (DLPack's stream argument)
    s = cuda.Stream(non_blocking=True)
    with s:
        x = gp.zeros(1 << 24, dtype=np.float32)
        for _ in range(10):
            x += 1
        ts = torch.cuda.Stream()
        with torch.cuda.stream(ts):
            t = torch.from_dlpack(x)
            total = t.sum()
        ts.synchronize()
    assert total.item() == 10.0 * (1 << 24)
    # and the other way: torch work on its stream, read by gpunp through
    # DLPack, whose stream argument makes torch's stream signal gpunp's
    # (torch's __cuda_array_interface__ names no stream: the read raced)
    ts = torch.cuda.Stream()
    with torch.cuda.stream(ts):
        t = torch.ones(1 << 24, device="cuda")
        for _ in range(10):
            t += 1
        g = gp.from_dlpack(t)
    assert g.sum().item() == 11.0 * (1 << 24)


def test_cupy_on_non_default_streams():
    s = cuda.Stream(non_blocking=True)
    with s:
        x = gp.zeros(1 << 24, dtype=np.float32)
        for _ in range(10):
            x += 1
        cs = cupy.cuda.Stream(non_blocking=True)
        with cs:
            c = cupy.from_dlpack(x)  # CuPy's stream waits for gpunp's
            total = c.sum()
        cs.synchronize()
    assert float(total) == 10.0 * (1 << 24)
    assert c.data.ptr == x.data_ptr
    cs = cupy.cuda.Stream(non_blocking=True)
    with cs:
        c = cupy.ones(1 << 24, cupy.float32)
        for _ in range(10):
            c += 1
        g = gp.asarray(c)  # __cuda_array_interface__ carries CuPy's stream
    assert g.data_ptr == c.data.ptr
    assert g.sum().item() == 11.0 * (1 << 24)


def test_cuda_array_interface_fields():
    g = gp.asarray(host()).T
    cai = g.__cuda_array_interface__
    assert cai["version"] == 3
    assert cai["shape"] == g.shape and cai["strides"] == g.strides
    assert cai["typestr"] == "<f4" and cai["data"][0] == g.data_ptr
    assert gp.asarray(host()).__cuda_array_interface__["strides"] is None


def test_bfloat16_both_ways():
    """bfloat16 as the partners hold it: DLPack's kDLBfloat with PyTorch and
    JAX, '<V2' through __cuda_array_interface__ with PyTorch; the same
    memory and bits, and gpunp's cuBLAS product agrees with PyTorch's."""
    ml_dtypes = pytest.importorskip("ml_dtypes")
    bits = np.arange(0, 1 << 16, 61, dtype=np.uint16)
    h = bits.view(ml_dtypes.bfloat16)
    t = torch.from_numpy(bits.astype(np.int16)).cuda().view(torch.bfloat16)
    # older PyTorch gave bfloat16 float16's typestr ('<f2'), read as float16
    cai = t.__cuda_array_interface__["typestr"] == "<V2"
    for g in (gp.from_dlpack(t),) + ((gp.asarray(t),) if cai else ()):
        assert g.dtype == h.dtype and g.data_ptr == t.data_ptr()
        np.testing.assert_array_equal(g.get().view(np.uint16), bits)
    g = gp.asarray(h)
    assert g.__cuda_array_interface__["typestr"] == "<V2"
    t2 = torch.from_dlpack(g)
    assert t2.dtype == torch.bfloat16 and t2.data_ptr() == g.data_ptr
    np.testing.assert_array_equal(t2.view(torch.int16).cpu().numpy().view(np.uint16), bits)
    jnp = pytest.importorskip("jax.numpy")
    j = jnp.from_dlpack(g)
    assert j.dtype == jnp.bfloat16
    np.testing.assert_array_equal(np.asarray(j).view(np.uint16), bits)
    back = gp.from_dlpack(j)
    assert back.dtype == h.dtype
    np.testing.assert_array_equal(back.get().view(np.uint16), bits)
    a = torch.rand(64, 96, device="cuda").to(torch.bfloat16)
    b = torch.rand(96, 32, device="cuda").to(torch.bfloat16)
    got = (gp.asarray(a) @ gp.asarray(b)).get().astype(np.float32)
    want = (a.float() @ b.float()).cpu().numpy()
    np.testing.assert_allclose(got, want, rtol=2.0**-7)
