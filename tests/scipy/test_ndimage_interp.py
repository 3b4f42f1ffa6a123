"""gpunp.scipy.ndimage's spline prefilter and transforms against SciPy:
every mode with every spline order 0-5 (map_coordinates, shift, zoom),
every dtype, the affine matrix forms, rotate's planes, complex inputs,
output=, and SciPy's exceptions.

The arrays are at least 20 samples along each axis: SciPy 1.17's reflect
prefilter (also nearest's, after its 12 samples of padding) adds its sum
into c[0] while still reading c[0] (scipy#24615, fixed in 1.18), an error
of the order of z^(2n) that gpunp does not have."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.ndimage as sn

import gpunp as gp
import gpunp.scipy.ndimage as gn

MODES = ["reflect", "constant", "nearest", "mirror", "wrap", "grid-mirror", "grid-constant",
         "grid-wrap"]
RNG = np.random.default_rng(7)
IMAGE = RNG.standard_normal((20, 23))


def same(name, host, *args, tol=1e-12, device_args=None, **kw):
    """SciPy's result (dtype, shape, values within tol of the largest) or
    its exception type; map_coordinates' coordinates go to the device."""
    if device_args is None:
        device_args = tuple(gp.asarray(a) if name == "map_coordinates" and
                            isinstance(a, np.ndarray) else a for a in args)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = getattr(sn, name)(host, *args, **kw)
    except Exception as e:  # noqa: BLE001 - the type is compared
        with pytest.raises(type(e)), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            getattr(gn, name)(gp.asarray(host), *device_args, **kw)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g = gp.asnumpy(getattr(gn, name)(gp.asarray(host), *device_args, **kw))
    assert g.dtype == r.dtype and g.shape == r.shape, (g.dtype, r.dtype, g.shape, r.shape)
    if r.size:
        scale = max(1.0, float(np.abs(r).max()))
        np.testing.assert_allclose(g.astype(np.complex128), r.astype(np.complex128), rtol=0,
                                   atol=tol * scale)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", range(6))
def test_map_coordinates_every_mode_and_order(order, mode):
    coords = RNG.uniform(-6, 28, (2, 4, 5))
    same("map_coordinates", IMAGE, coords, order=order,
         mode=mode, cval=0.75)


@pytest.mark.parametrize("mode", MODES)
def test_shift_zoom_rotate_every_mode(mode):
    order = MODES.index(mode) % 6
    same("shift", IMAGE, (1.3, -2.6), order=order, mode=mode, cval=-1.0)
    same("zoom", IMAGE, (1.7, 0.6), order=(order + 2) % 6, mode=mode)
    same("zoom", IMAGE, (0.8, 1.45), order=(order + 3) % 6, mode=mode, grid_mode=True)
    same("rotate", IMAGE, 33.0, order=(order + 1) % 6, mode=mode)


@pytest.mark.parametrize("mode", ["mirror", "reflect", "wrap", "grid-wrap", "nearest",
                                  "constant", "grid-constant", "grid-mirror"])
def test_spline_filter(mode):
    for order in range(6):
        same("spline_filter1d", IMAGE, order, axis=MODES.index(mode) % 2, mode=mode)
    same("spline_filter", IMAGE, 2 + MODES.index(mode) % 4, mode=mode)


DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
          np.uint64, np.float32, np.float64]


@pytest.mark.parametrize("dtype", DTYPES)
def test_dtypes(dtype):
    x = IMAGE > 0 if dtype is np.bool_ else (IMAGE * 40).astype(dtype)
    order = DTYPES.index(dtype) % 6
    # integer outputs are rounded (half away from zero) and clamped as SciPy's
    same("map_coordinates", x, RNG.uniform(0, 19, (2, 9)), order=order, mode="reflect",
         tol=1e-6, device_args=None)
    if dtype is np.uint8:
        same("spline_filter", x, 3, tol=1e-6)
        same("spline_filter", x, 3, output=np.float32, tol=1e-6)


def test_map_coordinates_integer_and_strided_coordinates():
    c = RNG.integers(-2, 25, (2, 3, 4))
    same("map_coordinates", IMAGE, c, order=1, mode="mirror")
    c = RNG.uniform(0, 19, (4, 6))[::2, ::-2]
    same("map_coordinates", IMAGE, c, order=3)
    same("map_coordinates", RNG.standard_normal(30), RNG.uniform(-3, 33, (1, 7)), order=5,
         mode="grid-wrap")
    vol = RNG.standard_normal((20, 21, 22))
    same("map_coordinates", vol, RNG.uniform(-1, 22, (3, 10)), order=2, mode="nearest")


def test_affine_matrix_forms():
    m = np.array([[0.9, 0.2], [-0.3, 1.1]])
    same("affine_transform", IMAGE, m, offset=(1.5, -2), output_shape=(10, 30), order=3,
         mode="mirror")
    same("affine_transform", IMAGE, np.array([0.8, 1.3]), offset=(1.5, -2), mode="wrap")
    same("affine_transform", IMAGE, np.hstack([m, [[1.5], [-2]]]), order=2)
    h = np.eye(3)
    h[:2, :2], h[:2, 2] = m, [2, 3]
    same("affine_transform", IMAGE, h, order=5, mode="grid-wrap")
    same("affine_transform", IMAGE, np.array([[0.5], [1.0]]), output_shape=(5,), order=1)
    same("affine_transform", IMAGE, m, prefilter=False, order=3, mode="nearest")
    out = gp.zeros((20, 23), np.float32)
    assert gn.affine_transform(gp.asarray(IMAGE), m, output=out) is out
    np.testing.assert_allclose(out.get(), sn.affine_transform(IMAGE, m, output=np.float32),
                               atol=1e-5)


def test_output_that_is_the_input():
    # written through a temporary: the transform of the input as it was
    # (SciPy's single thread would read back, where the shift points behind,
    # values it had already written; a GPU's threads would race there)
    for order in (0, 1):
        g = gp.asarray(IMAGE)
        assert gn.shift(g, (1.5, -0.5), output=g, order=order) is g
        np.testing.assert_array_equal(g.get(), sn.shift(IMAGE, (1.5, -0.5), order=order))


def test_rotate_planes_and_reshape():
    vol = RNG.standard_normal((20, 21, 22))
    same("rotate", vol, 75, axes=(0, 2), order=1)
    same("rotate", vol, -120, axes=(2, 1), order=3, mode="wrap")
    same("rotate", IMAGE, 30, reshape=False, mode="nearest")
    same("rotate", IMAGE, 90)
    same("rotate", IMAGE, -270, order=0)


def test_complex_inputs():
    c = IMAGE + 1j * RNG.standard_normal(IMAGE.shape)
    coords = RNG.uniform(0, 19, (2, 3))
    same("map_coordinates", c, coords, cval=1 + 1j)
    same("zoom", c, 1.3, mode="grid-mirror")
    same("shift", c.astype(np.complex64), 1.3, tol=1e-5)
    same("rotate", c, 10)
    same("spline_filter", c)
    same("spline_filter1d", c, 2)


def test_geometric_transform_by_a_host_function():
    def mapping(o, a, b=0.0):
        return (o[0] * a + 1, o[1] - b)
    same("geometric_transform", IMAGE, mapping, output_shape=(6, 8), order=3,
         extra_arguments=(0.7,), extra_keywords={"b": 0.5})


def test_small_axes_and_zoom_one():
    same("spline_filter", IMAGE[:, :1], 3)
    same("zoom", IMAGE[:1], (1, 2), order=4, mode="mirror")
    same("zoom", IMAGE, 1)
    same("zoom", IMAGE, (0.04, 3), order=1)
    same("map_coordinates", IMAGE[:0], RNG.uniform(0, 19, (2, 3)))


@pytest.mark.parametrize("name,args,kw", [
    ("map_coordinates", (np.array([1.0, 2.0]),), {}),        # output rank 0
    ("map_coordinates", (np.ones((3, 4)),), {}),              # rows != input rank
    ("map_coordinates", (np.ones((2, 3)),), dict(order=6)),
    ("map_coordinates", (np.ones((2, 3)),), dict(mode="bogus")),
    ("map_coordinates", (np.ones((2, 3)) * 1j,), {}),
    ("affine_transform", (np.ones((2, 3, 4)),), {}),
    ("affine_transform", (np.ones((3, 3)),), {}),             # bottom row not [0, 0, 1]
    ("affine_transform", (np.ones((3, 2)),), {}),
    ("shift", ([1, 2, 3],), {}),
    ("rotate", (30,), dict(axes=(0, 0, 1))),
    ("rotate", (30,), dict(axes=(0, 5))),
    ("rotate", (30,), dict(axes=(0.5, 1))),
    ("spline_filter", (1,), {}),
    ("spline_filter1d", (7,), {}),
])
def test_bad_arguments_raise_scipys_errors(name, args, kw):
    same(name, IMAGE, *args, **kw)


def test_float16_and_one_dimensional_rotation_refused():
    with pytest.raises(RuntimeError):
        gn.zoom(gp.ones((4, 4), np.float16), 2)
    with pytest.raises(ValueError):
        gn.rotate(gp.ones(4), 30)
    with pytest.raises(RuntimeError):
        gn.shift(gp.asarray(2.0), 1)
