"""ElementwiseKernel and ReductionKernel (CuPy's interfaces) against NumPy.
They go through the engine's code generator, so they run on every backend;
RawKernel/RawModule (CUDA source) are tested in tests/gpu/."""

import numpy as np
import pytest

import gpunp as gp


def test_squared_difference_with_type_placeholder():
    k = gp.ElementwiseKernel("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff")
    for dt in (np.float32, np.float64, np.int32, np.int64):
        x = np.arange(24, dtype=dt).reshape(4, 6)
        y = np.arange(6, dtype=dt)[::-1].copy()
        got = k(gp.asarray(x), gp.asarray(y))
        assert got.dtype == dt
        np.testing.assert_array_equal(got.get(), (x - y) * (x - y))


def test_broadcasting_strided_inputs_and_python_scalars():
    k = gp.ElementwiseKernel("T x, T y", "T z", "z = x * y + 1", "axpy1")
    x = np.arange(60.0).reshape(5, 12)[::2, ::3]
    got = k(gp.asarray(np.arange(60.0).reshape(5, 12))[::2, ::3], 2.5)
    np.testing.assert_array_equal(got.get(), x * 2.5 + 1)
    col = np.arange(3.0).reshape(3, 1)
    got = k(gp.asarray(x), gp.asarray(col))
    np.testing.assert_array_equal(got.get(), x * col + 1)


def test_fixed_types_convert_the_inputs():
    k = gp.ElementwiseKernel("float32 x, int32 n", "float64 y", "y = x / n", "div")
    x = np.linspace(0, 1, 11)
    got = k(gp.asarray(x), 3)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got.get(), x.astype(np.float32) / np.int32(3), rtol=1e-7)


def test_several_outputs_and_out_arguments():
    k = gp.ElementwiseKernel("T x", "T lo, T hi", "lo = x - 1; hi = x + 1", "around")
    x = np.arange(8, dtype=np.int16)
    lo, hi = k(gp.asarray(x))
    np.testing.assert_array_equal(lo.get(), x - 1)
    np.testing.assert_array_equal(hi.get(), x + 1)
    lo2, hi2 = gp.empty(8, np.int16), gp.zeros((2, 8), np.int16)[1]
    res = k(gp.asarray(x), lo2, hi2)
    assert res[0] is lo2 and res[1] is hi2
    np.testing.assert_array_equal(hi2.get(), x + 1)
    out = gp.zeros(8, np.float64)  # the output's own dtype binds nothing: T is int16
    k2 = gp.ElementwiseKernel("T x", "float64 y", "y = x * 0.5", "half")
    assert k2(gp.asarray(x), out=out) is out
    np.testing.assert_array_equal(out.get(), x * 0.5)


def test_an_output_reads_its_elements_value():
    # CuPy's outputs are references into their arrays: 'y += x' accumulates
    # (gpunp's had been uninitialized locals: on the host backend each
    # element read the previous one's result)
    acc = gp.ElementwiseKernel("T x", "T y", "y += x", "accumulate")
    step = gp.ElementwiseKernel("T p, T q, T a", "T x, T r", "x = x + a * p; r = r - a * q",
                                "step")
    for dt in (np.float32, np.float64, np.int32, np.uint8):
        x = np.arange(1, 13, dtype=dt).reshape(3, 4)
        y = np.full((3, 4), 5, dt)
        gy = gp.asarray(y)
        assert acc(gp.asarray(x), gy) is gy
        np.testing.assert_array_equal(gy.get(), y + x)
    p, q = np.linspace(0, 1, 7), np.linspace(2, 3, 7)
    xs, rs = np.linspace(-1, 1, 7), np.linspace(5, 6, 7)
    gx, gr = gp.asarray(xs), gp.asarray(rs)
    step(gp.asarray(p), gp.asarray(q), gp.asarray(0.25), gx, gr)  # a 0-d array broadcasts
    np.testing.assert_array_equal(gx.get(), xs + 0.25 * p)
    np.testing.assert_array_equal(gr.get(), rs - 0.25 * q)


def test_raw_argument_index_and_ind_size():
    k = gp.ElementwiseKernel("raw T x", "T y", "y = x[_ind.size() - 1 - i]", "reverse")
    x = np.arange(10.0)
    got = k(gp.asarray(x), gp.empty(10))
    np.testing.assert_array_equal(got.get(), x[::-1])
    # a raw input that is not C-contiguous is made so
    xs = np.arange(20.0)[::2]
    np.testing.assert_array_equal(k(gp.asarray(np.arange(20.0))[::2], gp.empty(10)).get(),
                                  xs[::-1])


def test_size_for_a_kernel_of_raw_arguments_only():
    k = gp.ElementwiseKernel("raw T x, raw T y", "raw T z", "z[i] = x[i] + y[2 * i]", "gather")
    x, y = np.arange(5.0), np.arange(10.0)
    z = gp.zeros(5)
    k(gp.asarray(x), gp.asarray(y), z, size=5)
    np.testing.assert_array_equal(z.get(), x + y[::2])
    with pytest.raises(ValueError):
        k(gp.asarray(x), gp.asarray(y), z)


def test_preamble_functions():
    k = gp.ElementwiseKernel("T x", "T y", "y = cube(x)", "cuber",
                             preamble="GPK_FN double cube(double v) { return v * v * v; }")
    x = np.linspace(-2, 2, 9)
    np.testing.assert_allclose(k(gp.asarray(x)).get(), x ** 3)


def test_elementwise_errors():
    k = gp.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add")
    with pytest.raises(TypeError):
        k(gp.arange(3))
    with pytest.raises(TypeError):  # T bound to two dtypes
        k(gp.arange(3), gp.arange(3.0))
    with pytest.raises(ValueError):
        k(gp.arange(3), gp.arange(4))
    with pytest.raises(ValueError):
        gp.ElementwiseKernel("T x, T x", "T y", "y = x")
    with pytest.raises(ValueError):
        gp.ElementwiseKernel("T x", "", "x")
    bad = gp.ElementwiseKernel("T x", "T y", "y = x +* ;", "broken")
    with pytest.raises(gp.CompileError):
        bad(gp.arange(3.0))
    raw = gp.ElementwiseKernel("raw T x", "T y", "y = x[i]", "rawcopy")
    with pytest.raises(TypeError):
        raw(1.0, gp.empty(3))


def test_l2norm_reduction():
    k = gp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
    x = np.arange(60.0).reshape(3, 4, 5) - 20
    np.testing.assert_allclose(k(gp.asarray(x)).get(), np.sqrt((x * x).sum()))
    for axis in (0, 1, 2, (0, 2), -1):
        want = np.sqrt((x * x).sum(axis=axis))
        np.testing.assert_allclose(k(gp.asarray(x), axis=axis).get(), want)
        got = k(gp.asarray(x), axis=axis, keepdims=True)
        np.testing.assert_allclose(got.get(), np.sqrt((x * x).sum(axis=axis, keepdims=True)))


def test_custom_reduce_expression_max_abs_with_reduce_type():
    k = gp.ReductionKernel("T x", "float64 y", "x < 0 ? -x : x", "a > b ? a : b",
                           "y = a", "0", "maxabs", reduce_type=np.float64)
    x = np.random.default_rng(5).integers(-1000, 1000, size=(7, 300)).astype(np.int32)
    got = k(gp.asarray(x), axis=1)
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got.get(), np.abs(x).max(axis=1).astype(np.float64))
    out = gp.zeros(300)
    assert k(gp.asarray(x), out=out, axis=0) is out
    np.testing.assert_array_equal(out.get(), np.abs(x).max(axis=0))


def test_reduction_errors_and_empty_inputs():
    k = gp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "sum")
    with pytest.raises(np.exceptions.AxisError):
        k(gp.arange(3.0), axis=1)
    with pytest.raises(ValueError):
        k(gp.ones((2, 2)), axis=(0, 0))
    with pytest.raises(ValueError):
        k(gp.ones((2, 3)), axis=0, out=gp.zeros(2))
    np.testing.assert_array_equal(k(gp.ones((0, 3)), axis=0).get(), np.zeros(3))
    assert k(gp.ones((4, 0)), axis=0).shape == (0,)
    assert k(gp.asarray(np.float64(2.5))).get() == 2.5
    with pytest.raises(NotImplementedError):
        gp.ReductionKernel("raw T x", "T y", "x[0]", "a + b", "y = a", "0")
    with pytest.raises(TypeError):  # an unknown keyword is not dropped
        gp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", loop_prep="")
    with pytest.raises(TypeError):
        k(gp.ones(3), axes=0)
    with pytest.raises(TypeError):
        k(gp.ones(3), gp.ones(3), gp.ones(3))


def test_raw_cuda_modules_need_a_gpu_backend():
    code = 'extern "C" __global__ void f(float *x) { x[threadIdx.x] = 1; }'
    if gp.backend() == "host":
        with pytest.raises(NotImplementedError):
            gp.RawModule(code=code)
        with pytest.raises(NotImplementedError):
            gp.cuda.Stream().begin_capture()
    else:
        x = gp.zeros(32, np.float32)
        gp.RawModule(code=code).get_function("f")((1,), (32,), (x,))
        np.testing.assert_array_equal(x.get(), np.ones(32, np.float32))


@pytest.mark.skipif(gp.backend() != "host", reason="the host backend's kernels are shared objects")
def test_a_host_kernel_takes_two_memory_mappings():
    """Every loaded kernel stays mapped and Linux allows a process 65530
    mappings; at five a kernel, CI's one test process ran out."""
    def kernel_maps():
        with open("/proc/self/maps") as f:
            return sum("/gpunp-" in line for line in f)

    x = gp.arange(4.0)  # before counting: arange's own kernel may load here
    before = kernel_maps()
    salt = np.random.default_rng().integers(1 << 40)  # new sources: not in this process's cache
    for k in range(10):
        f = gp.ElementwiseKernel("T x", "T y", f"y = x + {salt + k}", f"maps{k}")
        np.testing.assert_array_equal(f(x).get(), np.arange(4.0) + (salt + k))
    assert kernel_maps() - before <= 2 * 10


def test_loop_prep_after_loop_and_a_parameter_named_p():
    """CuPy's loop_prep/after_loop run in each thread around its elements
    and see scalar and raw parameters; `p` (the generated kernel's own
    struct name before) and `o0` are ordinary parameter names."""
    k = gp.ElementwiseKernel(
        "T x, T p", "T o0, raw int32 flag", "o0 = x * p + base; ++seen",
        "prep", loop_prep="T base = p + 1; long long seen = 0",
        after_loop="if (seen > 0) flag[0] = 7")
    x = np.arange(10.0).reshape(2, 5)
    flag = gp.zeros(1, np.int32)
    got, _ = k(gp.asarray(x), 3.0, gp.empty((2, 5)), flag)
    np.testing.assert_array_equal(got.get(), x * 3.0 + 4.0)
    assert int(flag[0]) == 7
    # no_return returns None and writes the given output; return_tuple a 1-tuple
    k2 = gp.ElementwiseKernel("T x", "T y", "y = x + 1", "nr", no_return=True)
    y = gp.empty(4)
    assert k2(gp.arange(4.0), y) is None
    np.testing.assert_array_equal(y.get(), np.arange(4.0) + 1)
    k3 = gp.ElementwiseKernel("T x", "T y", "y = -x", "rt", return_tuple=True,
                              reduce_dims=False, options=("-DX=1",))
    res = k3(gp.arange(3))
    assert type(res) is tuple and len(res) == 1
    np.testing.assert_array_equal(res[0].get(), -np.arange(3))
    assert k3.options == ("-DX=1",)
    with pytest.raises(TypeError):
        gp.ElementwiseKernel("T x", "T y", "y = x", "bad", unknown_option=1)
    with pytest.raises(TypeError):
        k2(gp.arange(4.0), y, blocks=3)
    with pytest.raises(TypeError):
        gp.ElementwiseKernel("T x", "T y", "y = x", options=(1,))


def test_reduction_of_several_inputs_and_outputs():
    """A weighted sum of two broadcast inputs into two outputs, in a
    reduce_type wider than the inputs, against NumPy."""
    k = gp.ReductionKernel("T x, T w, T c", "T s, float64 m",
                           "x * w + c", "a + b", "s = (T)a; m = a / 2", "0", "wsum",
                           reduce_type=np.float64)
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7
    w = np.linspace(1, 2, 4, dtype=np.float32)
    want = (x * w + np.float32(0.5)).astype(np.float64).sum(axis=(0, 2))
    s, m = k(gp.asarray(x), gp.asarray(w), np.float32(0.5), axis=(0, 2))
    assert s.dtype == np.float32 and m.dtype == np.float64 and s.shape == (3,)
    np.testing.assert_allclose(s.get(), want.astype(np.float32), rtol=1e-6)
    np.testing.assert_allclose(m.get(), want / 2, rtol=1e-12)
    s2, m2 = gp.empty((1, 3, 1), np.float32), gp.empty((1, 3, 1))
    assert k(gp.asarray(x), gp.asarray(w), np.float32(0.5), s2, m2, axis=(0, 2),
             keepdims=True)[1] is m2
    np.testing.assert_allclose(m2.get().ravel(), want / 2, rtol=1e-12)
    with pytest.raises(ValueError):
        k(gp.asarray(x), gp.asarray(w), 0.5, gp.empty(3, np.float32), gp.empty(2), axis=(0, 2))
