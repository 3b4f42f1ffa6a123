"""Users' CUDA kernels (RawKernel, RawModule) and captured graphs, in the
style of CuPy's user guide, checked against NumPy."""

import ctypes

import numpy as np
import pytest

import gpunp as gp
from gpunp import cuda

ADD = r'''
extern "C" __global__ void my_add(const float *x1, const float *x2, float *y, long long n) {
    long long tid = (long long)blockDim.x * blockIdx.x + threadIdx.x;
    if (tid < n) y[tid] = x1[tid] + x2[tid];
}
'''

TEMPLATES = r'''
template <typename T>
__global__ void fx3(T *arr, int n) {
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    if (tid < n) arr[tid] = arr[tid] * 3;
}

template <typename T, int K>
__global__ void scaled(const T *x, T *y, T alpha, int n) {
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    if (tid < n) y[tid] = alpha * x[tid] + K;
}
'''

REVERSE_BLOCKS = r'''
extern "C" __global__ void reverse_blocks(const double *x, double *y) {
    extern __shared__ double tile[];
    unsigned t = threadIdx.x, base = blockIdx.x * blockDim.x;
    tile[t] = x[base + t];
    __syncthreads();
    y[base + t] = tile[blockDim.x - 1 - t];
}
'''


def test_raw_kernel_elementwise_add():
    k = gp.RawKernel(ADD, "my_add")
    n = 5000
    x1 = np.arange(n, dtype=np.float32)
    x2 = np.arange(n, dtype=np.float32)[::-1] * 0.5
    y = gp.zeros(n, dtype=np.float32)
    k(((n + 255) // 256,), (256,), (gp.asarray(x1), gp.asarray(x2), y, n))
    np.testing.assert_array_equal(y.get(), x1 + x2)
    assert 0 < k.max_threads_per_block <= 1024
    assert k.num_regs > 0
    assert set(k.attributes) >= {"max_threads_per_block", "num_regs", "binary_version"}


def test_raw_kernel_on_a_stream_and_with_numpy_scalars():
    k = gp.RawKernel(ADD, "my_add")
    n = 1 << 20
    s = cuda.Stream(non_blocking=True)
    with s:
        x = gp.ones(n, dtype=np.float32)
        y = gp.empty(n, dtype=np.float32)
    k((n // 256,), (256,), (x, x, y, np.int64(n)), stream=s)
    s.synchronize()
    np.testing.assert_array_equal(y.get(), np.full(n, 2, np.float32))


def test_templated_kernels_through_name_expressions():
    names = ["fx3<float>", "fx3<double>", "scaled<float, 7>"]
    mod = gp.RawModule(code=TEMPLATES, options=("-std=c++17",), name_expressions=names)
    for dt, name in ((np.float32, "fx3<float>"), (np.float64, "fx3<double>")):
        h = np.linspace(-1, 1, 100).astype(dt)
        a = gp.asarray(h)
        mod.get_function(name)((1,), (128,), (a, np.int32(h.size)))
        np.testing.assert_array_equal(a.get(), h * 3)
    x = np.arange(50, dtype=np.float32)
    y = gp.empty(50, np.float32)
    mod.get_function("scaled<float, 7>")((1,), (64,), (gp.asarray(x), y, np.float32(0.5),
                                                      np.int32(50)))
    np.testing.assert_array_equal(y.get(), np.float32(0.5) * x + 7)
    with pytest.raises(ValueError):
        mod.get_function("fx3<int>")


def test_dynamic_shared_memory_beyond_the_default_limit():
    k = gp.RawKernel(REVERSE_BLOCKS, "reverse_blocks")
    block, nblocks = 1024, 40
    x = np.random.default_rng(1).random(block * nblocks)
    y = gp.empty_like(gp.asarray(x))
    k((nblocks,), (block,), (gp.asarray(x), y), shared_mem=block * 8)
    np.testing.assert_array_equal(y.get(), x.reshape(nblocks, block)[:, ::-1].ravel())
    # 96 KiB of dynamic shared memory needs the opt-in attribute on Hopper
    big = 96 * 1024
    k.max_dynamic_shared_size_bytes = big
    assert k.max_dynamic_shared_size_bytes == big
    k((nblocks,), (block,), (gp.asarray(x), y), shared_mem=big)
    np.testing.assert_array_equal(y.get(), x.reshape(nblocks, block)[:, ::-1].ravel())


def _nvrtc_image(code, want):
    """PTX or a cubin of `code` from the NVRTC gpunp already loaded."""
    for soname in ("libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"):
        try:
            nv = ctypes.CDLL(soname)
            break
        except OSError:
            continue
    else:
        pytest.fail("no NVRTC found although gpunp compiles with it")
    prog = ctypes.c_void_p()
    assert nv.nvrtcCreateProgram(ctypes.byref(prog), code.encode(), b"k.cu", 0, None,
                                 None) == 0
    cc = gp.cuda.Device().compute_capability
    arch = f"-arch={'compute' if want == 'ptx' else 'sm'}_{cc}".encode()
    opts = (ctypes.c_char_p * 1)(arch)
    assert nv.nvrtcCompileProgram(prog, 1, opts) == 0
    size = ctypes.c_size_t()
    getsize, get = ((nv.nvrtcGetPTXSize, nv.nvrtcGetPTX) if want == "ptx"
                    else (nv.nvrtcGetCUBINSize, nv.nvrtcGetCUBIN))
    assert getsize(prog, ctypes.byref(size)) == 0
    buf = ctypes.create_string_buffer(size.value)
    assert get(prog, buf) == 0
    nv.nvrtcDestroyProgram(ctypes.byref(prog))
    return buf.raw


@pytest.mark.parametrize("kind", ["ptx", "cubin"])
def test_module_from_a_file(tmp_path, kind):
    gp.RawKernel(ADD, "my_add")._function()  # gpunp has loaded NVRTC
    path = tmp_path / f"add.{kind}"
    path.write_bytes(_nvrtc_image(ADD, kind))
    k = gp.RawModule(path=str(path)).get_function("my_add")
    x = gp.arange(300, dtype=np.float32)
    y = gp.empty(300, np.float32)
    k((2,), (256,), (x, x, y, 300))
    np.testing.assert_array_equal(y.get(), np.arange(300, dtype=np.float32) * 2)


def test_user_errors_raise_and_leave_the_device_usable():
    with pytest.raises(gp.CompileError, match="error"):
        gp.RawKernel("extern \"C\" __global__ void f() { undeclared(); }", "f")._function()
    k = gp.RawKernel(ADD, "my_add")
    with pytest.raises(ValueError):
        gp.RawModule(code=ADD).get_function("not_there")
    y = gp.zeros(4, np.float32)
    with pytest.raises(TypeError):
        k((1,), (4,), (y, y, y, "four"))
    with pytest.raises(ValueError):
        k((0,), (4,), (y, y, y, 4))
    with pytest.raises(gp.BackendError):  # more threads than a block can have
        k((1,), (4096,), (y, y, y, 4))
    k((1,), (4,), (gp.ones(4, np.float32), gp.ones(4, np.float32), y, 4))
    np.testing.assert_array_equal(y.get(), np.full(4, 2, np.float32))


def test_graph_replays_a_loop_of_operations():
    s = cuda.Stream(non_blocking=True)
    with s:
        a = gp.ones(1000, np.float32)
        b = gp.full(1000, 0.5, np.float32)
        t = a * 2  # kernels compiled before the capture
        s.begin_capture()
        for _ in range(20):  # 3 replays stay inside float32 (2**60)
            a *= 2
            a -= b
        t = a + b  # allocated during the capture: kept for the graph
        g = s.end_capture()
    s.synchronize()
    np.testing.assert_array_equal(a.get(), np.ones(1000, np.float32))  # nothing ran yet
    want = np.ones(1000)
    for _ in range(3):
        g.launch(s)
        for _ in range(20):
            want = want * 2 - 0.5
    s.synchronize()
    np.testing.assert_allclose(a.get(), want.astype(np.float32), rtol=1e-6)
    np.testing.assert_allclose(t.get(), (want + 0.5).astype(np.float32), rtol=1e-6)


def test_graph_capture_errors():
    with pytest.raises(ValueError):
        cuda.Stream.null.begin_capture()
    s = cuda.Stream()
    with pytest.raises(gp.BackendError):
        s.end_capture()  # not capturing
    x = gp.ones(10)
    assert float(x.sum()) == 10.0


EVERY_KIND = r'''
struct c8 { float re, im; };
struct c16 { double re, im; };
extern "C" __global__ void put(bool b, signed char i1, short i2, int i4, long long i8,
                               unsigned long long u8, unsigned short f2, float f4, double f8,
                               c8 z8, c16 z16, long long pyint, double pyfloat, c16 pyz,
                               bool pybool, double *out) {
    double v[] = {(double)b, (double)i1, (double)i2, (double)i4, (double)i8, (double)u8,
                  (double)f2, f4, f8, z8.re, z8.im, z16.re, z16.im, (double)pyint, pyfloat,
                  pyz.re, pyz.im, (double)pybool};
    for (int k = 0; k < 18; ++k) out[k] = v[k];
}
'''


def test_raw_kernel_arguments_of_every_kind():
    """NumPy scalars pass their dtype's bytes (float16 its bits), Python
    int/float/complex/bool pass as int64, double, complex128 and bool."""
    out = gp.zeros(18, np.float64)
    args = (np.bool_(True), np.int8(-5), np.int16(-300), np.int32(-70000), np.int64(-2**40),
            np.uint64(2**63 + 4096), np.float16(1.5), np.float32(0.25), np.float64(-1e300),
            np.complex64(1 + 2j), np.complex128(3 - 4j), -7, 2.5, 5 + 6j, True, out)
    gp.RawKernel(EVERY_KIND, "put")((1,), (1,), args)
    want = [1, -5, -300, -70000, -2.0**40, float(2**63 + 4096),
            float(np.float16(1.5).view(np.uint16)), 0.25, -1e300, 1, 2, 3, -4, -7, 2.5, 5, 6, 1]
    assert out.get().tolist() == want
    with pytest.raises(OverflowError):
        gp.RawKernel(EVERY_KIND, "put")((1,), (1,), args[:11] + (2**64,) + args[12:])
