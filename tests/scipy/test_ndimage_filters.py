"""gpunp.scipy.ndimage's filters, grey morphology and Fourier filters
against SciPy: every boundary mode with one dtype, every dtype with one
mode, origins, axes=, output=, 1-3 dimensions, length-1 axes, windows
larger than the array, and SciPy's exceptions for bad arguments."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.ndimage as sn

import gpunp as gp
import gpunp.scipy.ndimage as gn

MODES = ["reflect", "constant", "nearest", "mirror", "wrap", "grid-mirror", "grid-constant",
         "grid-wrap"]
DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
          np.uint64, np.float32, np.float64]


def sample(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype) == np.bool_:
        return rng.random(shape) > 0.5
    if np.dtype(dtype).kind in "iu":
        return rng.integers(0, 60, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def same(name, args, kw, *, tol=0.0, host=sample((5, 7), np.float64)):
    """The same result (dtype, shape, values within tol relative to the
    largest) or the same exception type from SciPy and gpunp."""
    try:
        r = getattr(sn, name)(host, *args, **kw)
    except Exception as e:  # noqa: BLE001 - the type is compared
        with pytest.raises(type(e)):
            getattr(gn, name)(gp.asarray(host), *args, **kw)
        return
    g = getattr(gn, name)(gp.asarray(host), *args, **kw)
    g = gp.asnumpy(g)
    assert g.dtype == r.dtype and g.shape == r.shape, (g.dtype, r.dtype, g.shape, r.shape)
    scale = max(1.0, float(np.max(np.abs(r.astype(np.complex128))))) if r.size else 1.0
    np.testing.assert_allclose(g.astype(np.complex128), r.astype(np.complex128), rtol=0,
                               atol=tol * scale)


# every filter under every mode, float64, a 2-d array with a window that
# reaches past it (the periodic extension of reflect/mirror/wrap)
FILTERS = [
    ("correlate", (sample((3, 9), np.float64, 1),), dict(cval=1.5, origin=(1, -2))),
    ("convolve", (sample((4, 3), np.float64, 2),), dict(cval=-0.5, origin=(0, 1))),
    ("correlate1d", ([1.0, 2.0, 0.5, 2.0, 1.0],), dict(axis=0, origin=1)),
    ("correlate1d", ([1.0, 2.0, 0.0, -2.0, -1.0],), dict(axis=1)),
    ("convolve1d", ([0.3, -1.0, 2.0, 4.0],), dict(axis=1, cval=2.0, origin=-1)),
    ("gaussian_filter", (1.5,), dict(order=(0, 1), truncate=3.0)),
    ("gaussian_filter1d", (2.0,), dict(order=2, axis=0, radius=6)),
    ("uniform_filter", ((3, 8),), dict(origin=(1, -3))),
    ("minimum_filter", ((4, 3),), dict(origin=(-2, 1))),
    ("maximum_filter", (), dict(footprint=[[1, 0, 1], [0, 1, 1]])),
    ("maximum_filter1d", (9,), dict(axis=1, cval=0.25)),
    ("median_filter", ((3, 5),), dict(cval=0.5)),
    ("rank_filter", (-3, (6, 2)), dict()),
    ("percentile_filter", (30, None, [[1, 1, 0], [0, 1, 1], [1, 0, 1]]), dict(origin=1)),
    ("sobel", (0,), dict()),
    ("prewitt", (), dict(axis=1)),
    ("laplace", (), dict()),
    ("gaussian_laplace", (1.2,), dict()),
    ("gaussian_gradient_magnitude", ((1.0, 0.7),), dict()),
    ("grey_erosion", (), dict(structure=[[0, 1, 3], [2, 1, 0]])),
    ("grey_dilation", (), dict(size=(2, 3), origin=(0, 1))),
    ("morphological_gradient", (), dict(footprint=[[1, 1], [1, 0]])),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name,args,kw", FILTERS, ids=[f[0] for f in FILTERS])
def test_filters_every_mode(name, args, kw, mode):
    same(name, args, dict(kw, mode=mode), tol=1e-14)


# every dtype with one mode, each with one of the kernels (a kernel compiles
# once per input/output dtype pair, so dtypes x kernels would cost minutes
# cold); the filters whose sums are exact in double on integer data compare
# exactly, the mean within a unit of the output's last place
BY_DTYPE = [
    ("correlate", ([[1, 2], [0, -1], [3, 1]],), dict(mode="nearest"), 0),
    ("uniform_filter1d", (4,), dict(mode="mirror", axis=0), 1e-6),
    ("minimum_filter", (), dict(footprint=[[1, 0], [1, 1]], mode="wrap"), 0),
    ("median_filter", (3,), dict(mode="reflect"), 0),
]


@pytest.mark.parametrize("dtype", DTYPES)
def test_dtypes(dtype):
    name, args, kw, tol = BY_DTYPE[DTYPES.index(dtype) % len(BY_DTYPE)]
    same(name, args, kw, host=sample((6, 5), dtype), tol=tol)


def test_integer_outputs_truncate_each_pass_as_scipy():
    x = sample((8, 9), np.uint8)
    same("gaussian_filter", (1.3,), dict(), host=x, tol=1 / 255)
    same("gaussian_filter", (1.3,), dict(output=np.float32), host=x, tol=1e-6)
    same("uniform_filter", (3,), dict(output="int16"), host=x, tol=0)


def test_three_dims_axes_and_length_one_axes():
    x = sample((4, 1, 6), np.float64)
    same("gaussian_filter", (1.0,), dict(axes=(0, 2)), host=x, tol=1e-6)
    same("correlate", ([[1, 2, 3], [0, 1, 0]],), dict(axes=(0, 2), mode="mirror"), host=x,
         tol=1e-6)
    same("median_filter", (3,), dict(axes=(2,), mode=["wrap"]), host=x)
    same("uniform_filter", ((2, 3),), dict(axes=(-1, 0), mode=["nearest", "wrap"]), host=x,
         tol=1e-6)
    same("minimum_filter", ((1, 3, 2),), dict(mode=["reflect", "constant", "mirror"]),
         host=x)
    same("rank_filter", (1,), dict(footprint=np.ones((2, 1, 2)), origin=(-1, 0, 0)), host=x)
    same("gaussian_laplace", (1.0,), dict(axes=(0,)), host=x, tol=1e-6)
    same("correlate1d", ([1, 1],), dict(axis=1), host=x)
    same("median_filter", (4,), dict(), host=sample((9,), np.int16))  # SciPy's 1-d path


def test_complex_correlation_and_uniform():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((5, 6)) + 1j * rng.standard_normal((5, 6))
    w = rng.standard_normal((2, 3)) + 1j * rng.standard_normal((2, 3))
    same("correlate", (w,), dict(mode="constant", cval=1 + 2j), host=x, tol=1e-14)
    same("convolve", (w.real,), dict(), host=x, tol=1e-14)
    same("convolve", (w,), dict(), host=x.real, tol=1e-14)
    same("correlate1d", (w[0],), dict(axis=0), host=x.astype(np.complex64), tol=1e-6)
    same("uniform_filter", (3,), dict(), host=x, tol=1e-14)
    same("gaussian_filter", (1.0,), dict(), host=x, tol=1e-14)
    same("minimum_filter", (3,), dict(), host=x)  # TypeError
    same("correlate", (w.real,), dict(cval=1j), host=x.real)  # ValueError


def test_output_array_written_in_place_and_aliasing():
    x = sample((6, 7), np.float64)
    g = gp.asarray(x)
    out = gp.zeros((6, 7), np.float32)
    r = gn.correlate(g, [[1, 2], [3, 4]], output=out)
    assert r is out
    np.testing.assert_allclose(out.get(), sn.correlate(x, [[1, 2], [3, 4]], output=np.float32))
    gn.median_filter(g, 3, output=g)  # output is the input: written through a temporary
    np.testing.assert_array_equal(g.get(), sn.median_filter(x, 3))
    strided = gp.zeros((6, 14))[:, ::2]
    gn.sobel(gp.asarray(x), output=strided)
    np.testing.assert_allclose(strided.get(), sn.sobel(x), atol=1e-13)


@pytest.mark.parametrize("name,args,kw", [
    ("correlate", ([1, 2],), dict()),                       # weights of the wrong rank
    ("correlate", ([[1, 2]],), dict(origin=2)),             # invalid origin
    ("correlate", ([[1, 2]],), dict(mode="bogus")),         # unknown mode
    ("correlate", ([[1, 2]],), dict(mode=["wrap", "wrap"])),  # per-axis modes refused
    ("correlate1d", ([],), dict()),
    ("uniform_filter1d", (0,), dict()),
    ("minimum_filter1d", (3,), dict(origin=2)),
    ("minimum_filter", (), dict()),
    ("maximum_filter", (), dict(footprint=[[0, 0]])),
    ("median_filter", (), dict(footprint=[[1, 0], [1, 1]], mode=["wrap", "wrap"])),
    ("rank_filter", (9, 3), dict()),
    ("percentile_filter", (120, 3), dict()),
    ("gaussian_filter1d", (1.0,), dict(radius=-1)),
    ("gaussian_filter1d", (1.0,), dict(order=-1)),
    ("uniform_filter", ((2, 2, 2),), dict()),
    ("grey_erosion", (), dict()),
    ("correlate1d", ([1, 1],), dict(axis=2)),
    ("gaussian_filter", (1.0,), dict(axes=(0, 0))),
    ("median_filter", (3,), dict(output=np.zeros((2, 2)))),
])
def test_bad_arguments_raise_scipys_errors(name, args, kw):
    if isinstance(kw.get("output"), np.ndarray):
        with pytest.raises(RuntimeError):
            sn.median_filter(sample((5, 7), np.float64), 3, output=np.zeros((2, 2)))
        with pytest.raises(RuntimeError):
            gn.median_filter(gp.asarray(sample((5, 7), np.float64)), 3,
                             output=gp.zeros((2, 2)))
        return
    same(name, args, kw)


def test_float16_is_refused_as_scipy():
    with pytest.raises(RuntimeError):
        gn.correlate(gp.ones(4, np.float16), [1, 1])
    with pytest.raises(RuntimeError):
        gn.minimum_filter(gp.ones(4, np.float16), 3)


def test_generic_filters():
    x = sample((5, 6), np.float64)
    fp = np.array([[1, 0, 1], [1, 1, 0]], bool)
    want = sn.generic_filter(x, lambda v: v.max() - v.min() * 2, footprint=fp, mode="wrap")
    got = gn.generic_filter(gp.asarray(x), lambda v: v.max() - v.min() * 2, footprint=fp,
                            mode="wrap")
    np.testing.assert_allclose(got.get(), want)
    # a device reduction over each element's footprint values
    rk = gp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "ndi_sumsq")
    want = sn.generic_filter(x, lambda v: (v * v).sum(), size=(2, 3), mode="constant", cval=1)
    got = gn.generic_filter(gp.asarray(x), rk, size=(2, 3), mode="constant", cval=1)
    np.testing.assert_allclose(got.get(), want, rtol=1e-14)

    def f1d(line, out):
        out[:] = line[2:] - line[:-2]
    want = sn.generic_filter1d(x, f1d, 3, axis=0, mode="mirror", origin=1)
    got = gn.generic_filter1d(gp.asarray(x), f1d, 3, axis=0, mode="mirror", origin=1)
    np.testing.assert_allclose(got.get(), want)

    def d2(inp, axis, output, mode, cval):
        return sn.correlate1d(inp, [1, -2, 1], axis, output, mode, cval)

    def gd2(inp, axis, output, mode, cval):
        return gn.correlate1d(inp, [1, -2, 1], axis, output, mode, cval)
    np.testing.assert_allclose(gn.generic_laplace(gp.asarray(x), gd2).get(),
                               sn.generic_laplace(x, d2))
    np.testing.assert_allclose(gn.generic_gradient_magnitude(gp.asarray(x), gd2).get(),
                               sn.generic_gradient_magnitude(x, d2), rtol=1e-14)


GREY = ["grey_erosion", "grey_dilation", "grey_opening", "grey_closing",
        "morphological_gradient", "morphological_laplace", "white_tophat", "black_tophat"]


@pytest.mark.parametrize("name", GREY)
def test_grey_morphology(name):
    x = sample((6, 7), np.int16)
    same(name, (), dict(size=(3, 2)), host=x)
    same(name, (), dict(footprint=[[1, 0, 1], [0, 1, 1]], mode="constant", cval=3), host=x)
    same(name, (), dict(structure=[[0, 2], [1, 3], [0, 0]], origin=(1, 0)), host=x)
    same(name, (), dict(footprint=[[1, 1]], structure=[[1, 2]]), host=sample((8,), np.bool_)
         .reshape(2, 4))


@pytest.mark.parametrize("name,param", [("fourier_gaussian", (1.5, 0.5)),
                                        ("fourier_uniform", 3.0),
                                        ("fourier_ellipsoid", (2.0, 4.0)),
                                        ("fourier_shift", (1.25, -2.0))])
def test_fourier_filters(name, param):
    rng = np.random.default_rng(4)
    c = np.fft.fftn(rng.standard_normal((6, 7)))
    same(name, (param,), dict(), host=c, tol=1e-14)
    # the output dtype of each input dtype, as SciPy's
    host = {"fourier_gaussian": c.astype(np.complex64), "fourier_uniform": c.real,
            "fourier_ellipsoid": c.real.astype(np.float32),
            "fourier_shift": c.real.astype(np.int32)}[name]
    same(name, (param,), dict(), host=host, tol=1e-6)
    rf = np.fft.rfft(rng.standard_normal((5, 10)), axis=0)
    same(name, (param,), dict(n=10, axis=0), host=rf, tol=1e-14)
    same(name, (param[0] if isinstance(param, tuple) else param,), dict(),
         host=np.fft.fft(rng.standard_normal(9)), tol=1e-14)


def test_fourier_ellipsoid_3d_and_too_many_dims():
    c = np.fft.fftn(np.random.default_rng(5).standard_normal((4, 5, 3)))
    same("fourier_ellipsoid", (2.0,), dict(), host=c, tol=1e-14)
    same("fourier_ellipsoid", (2.0,), dict(), host=c[..., None])


def test_one_dimensional_rank_filters_read_only_the_footprints_length_as_scipy():
    # SciPy's 1-d rank path takes a window of footprint.size samples (the
    # false ones too) and the rank of the true ones
    x = sample((11,), np.float64)
    same("median_filter", (), dict(footprint=[1, 1, 0, 1]), host=x)
    same("percentile_filter", (40,), dict(footprint=[1, 0, 1, 1, 0, 1]), host=x)
    same("rank_filter", (1,), dict(footprint=[1, 1, 0, 1, 1], mode="constant", cval=0.7),
         host=x.astype(np.float32))
    same("rank_filter", (1,), dict(size=3, cval=2.6, mode="constant"), host=sample((9,), np.int32))


@pytest.mark.parametrize("kw", [
    dict(size=3), dict(size=(2, 3), axes=(0, 2)),
    dict(footprint=[[1, 0, 1], [1, 1, 0]], axes=(1, 2), mode="wrap"),
    dict(size=(3, 2, 2), mode="valid"), dict(size=2, mode="constant", cval=3, origin=-1),
    dict(size=3, batch_memory=2000), dict(size=3, batch_memory=10),
    dict(size=3, mode="bogus"), dict(size=3, cval=1.0), dict(size=0),
    dict(size=3, footprint=[1, 1, 1]), dict(),
])
def test_vectorized_filter(kw):
    x = sample((6, 7, 5), np.float64, 9)
    try:
        r = sn.vectorized_filter(x, np.mean, **kw)
    except ValueError:
        with pytest.raises(ValueError):
            gn.vectorized_filter(gp.asarray(x), np.mean, **kw)
        return
    g = gn.vectorized_filter(gp.asarray(x), np.mean, **kw)
    assert g.shape == r.shape and g.dtype == r.dtype
    np.testing.assert_allclose(g.get(), r, rtol=1e-14, atol=1e-15)


def test_rank_filter_of_a_footprint_too_large_for_a_thread(monkeypatch):
    # 65 to 512 taps: the kernel of the 512-double buffer
    same("median_filter", ((9, 9),), dict(mode="mirror"), host=sample((12, 9), np.float64))
    # over 4096 taps: rows of footprint values gathered in blocks, partitioned
    monkeypatch.setattr(gn._filters, "_GATHER_BYTES", 8 * 71 * 70 * 25)  # 25 rows a block
    same("median_filter", ((71, 70),), dict(mode="wrap"), host=sample((12, 9), np.float64))
    same("rank_filter", (-3, (71, 70)), dict(mode="constant", cval=0.5),
         host=sample((7, 5), np.float64))


def test_nans_in_footprints_land_where_scipys_selection_puts_them():
    # the N-d rank, minimum and maximum filters compare as SciPy's (Hoare's
    # partition about the first value; the running extreme), so NaNs give
    # SciPy's answers too
    rng = np.random.default_rng(11)
    x = rng.standard_normal((5, 6, 3))
    x[rng.random(x.shape) < 0.3] = np.nan
    x[rng.random(x.shape) < 0.1] = -np.inf
    fp = np.array([[[1, 0], [1, 1]], [[0, 1], [1, 1]], [[1, 1], [0, 1]]], bool)
    for rank in (0, 3, 5, 8):
        for mode in ("reflect", "constant", "wrap"):
            same("rank_filter", (rank,), dict(footprint=fp, mode=mode), host=x)
