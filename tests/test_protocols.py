"""NumPy's protocols: NEP 13 (__array_ufunc__) and NEP 18 (__array_function__)."""

import numpy as np
import pytest

import gpunp as gp
from property.strategies import assert_same


@pytest.fixture
def pair():
    h = np.arange(12, dtype=np.float64).reshape(3, 4) - 5.5
    return gp.asarray(h), h


def test_numpy_ufuncs_run_on_the_device(pair):
    g, h = pair
    for got, want in [
        (np.add(g, 1), np.add(h, 1)),
        (np.sin(g), np.sin(h)),
        (np.maximum(g, 0.5), np.maximum(h, 0.5)),
        (np.add.reduce(g), np.add.reduce(h)),
        (np.multiply.reduce(g, axis=1, keepdims=True), np.multiply.reduce(h, axis=1, keepdims=True)),
        (np.add.accumulate(g, axis=1), np.add.accumulate(h, axis=1)),
        (np.negative(g), np.negative(h)),
        (np.divide(1, g), np.divide(1, h)),
    ]:
        assert isinstance(got, gp.ndarray)
        assert_same(got, want, rtol=1e-12)


def test_numpy_ufunc_out_argument(pair):
    g, h = pair
    out = gp.empty_like(g)
    r = np.add(g, g, out=out)
    assert r is out
    assert_same(out, h + h)


def test_numpy_ufuncs_gpunp_lacks_raise_typeerror(pair):
    g, _ = pair
    with pytest.raises(TypeError):
        np.isnat(g)  # a datetime ufunc: not in gpunp's op table
    with pytest.raises(TypeError):
        np.frompyfunc(lambda x, y: x, 2, 1)(g, g)  # a ufunc of Python functions


def test_mixing_host_and_device_arrays_is_refused(pair):
    g, h = pair
    for f in (lambda: np.add(g, h), lambda: g + h, lambda: h + g, lambda: gp.add(g, h)):
        with pytest.raises(TypeError):
            f()


def test_zero_d_numpy_array_is_the_scalar_it_holds(pair):
    """Through NumPy's ufuncs and functions a 0-d NumPy array is taken as the
    NumPy scalar it holds (Dask and xarray make chunks of fill values so), with
    NumPy's promotion; a NumPy array of one dimension or more stays refused."""
    g, h = pair
    g32, h32 = g.astype(np.float32), h.astype(np.float32)
    for got, want in [
        (np.where(g > 0, g32, np.asarray(0.0)), np.where(h > 0, h32, np.asarray(0.0))),
        (np.where(g > 0, np.asarray(np.int8(2)), g32), np.where(h > 0, np.asarray(np.int8(2)), h32)),
        (np.add(g32, np.asarray(1.5, np.float32)), np.add(h32, np.asarray(1.5, np.float32))),
        (np.multiply(np.asarray(2), g32), np.multiply(np.asarray(2), h32)),
        (np.concatenate([g[0], [np.asarray(7.0)]]), np.concatenate([h[0], [np.asarray(7.0)]])),
    ]:
        assert isinstance(got, gp.ndarray)
        assert got.dtype == want.dtype
        assert_same(got, want)
    for f in (lambda: np.where(g > 0, g, np.zeros(4)), lambda: np.add(g, np.ones(1))):
        with pytest.raises(TypeError):
            f()


@pytest.mark.parametrize("call", [
    lambda m, a: m.sum(a), lambda m, a: m.sum(a, axis=0), lambda m, a: m.mean(a, axis=1),
    lambda m, a: m.prod(a, axis=(0, 1)), lambda m, a: m.max(a), lambda m, a: m.amin(a, axis=0),
    lambda m, a: m.any(a), lambda m, a: m.all(a > -100), lambda m, a: m.argmax(a),
    lambda m, a: m.argmin(a, axis=1), lambda m, a: m.reshape(a, (4, 3)),
    lambda m, a: m.reshape(a, -1, order="F"), lambda m, a: m.transpose(a),
    lambda m, a: m.transpose(a, (1, 0)), lambda m, a: m.ravel(a), lambda m, a: m.squeeze(a[None]),
    lambda m, a: m.zeros_like(a), lambda m, a: m.ones_like(a, dtype=np.int8),
    lambda m, a: m.full_like(a, 3), lambda m, a: m.copy(a), lambda m, a: m.swapaxes(a, 0, 1),
])
def test_numpy_functions_dispatch_to_gpunp(pair, call):
    g, h = pair
    got, want = call(np, g), call(np, h)
    assert isinstance(got, gp.ndarray)
    assert_same(got, want, rtol=1e-12)


def test_numpy_shape_queries(pair):
    g, h = pair
    assert np.shape(g) == np.shape(h)
    assert np.ndim(g) == np.ndim(h)
    assert np.size(g) == np.size(h)
    assert np.result_type(g, 1.0) == np.result_type(h, 1.0)


def test_unimplemented_numpy_function_is_numpys_typeerror(pair):
    g, _ = pair
    with pytest.raises(TypeError, match="no implementation found"):
        np.busday_count(g, g)
    with pytest.raises(TypeError, match="no implementation found"):
        np.is_busday(g)


@pytest.mark.parametrize("call", [
    lambda like: np.array([1, 2], like=like), lambda like: np.asarray([1.5], like=like),
    lambda like: np.zeros(3, like=like), lambda like: np.ones((2, 2), like=like),
    lambda like: np.full(2, 7, like=like),
    lambda like: np.arange(4, like=like), lambda like: np.eye(2, like=like),
    lambda like: np.identity(2, like=like), lambda like: np.tri(3, like=like),
])
def test_like_makes_gpunp_arrays(pair, call):
    """NEP 35: a creation function with like= a gpunp array runs gpunp's."""
    g, h = pair
    got = call(g)
    assert isinstance(got, gp.ndarray)
    assert_same(got, call(h))
