"""Array creation against NumPy: from data, from shapes, numerical ranges."""

import re

import numpy as np
import pytest

import gpunp as gp
from property.outcome import same_outcome
from property.strategies import ALL_DTYPES, assert_same


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("order", ["C", "F"])
def test_asarray_roundtrip_keeps_values_and_layout(dt, order):
    host = np.asarray(np.arange(24).reshape(2, 3, 4) % 7, dtype=dt, order=order)
    a = gp.asarray(host)
    assert_same(a, host)
    assert a.flags.c_contiguous == host.flags.c_contiguous
    assert a.flags.f_contiguous == host.flags.f_contiguous
    assert a.strides == host.strides


def test_asarray_of_non_contiguous_and_big_endian_numpy_arrays():
    host = np.arange(60, dtype=np.float64).reshape(3, 4, 5)[::2, ::-1, 1:4].transpose(2, 0, 1)
    assert_same(gp.asarray(host), host)
    big = np.arange(5, dtype=">i4")
    got = gp.asarray(big)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got.get(), big)


@pytest.mark.parametrize("obj", [
    [1, 2, 3], [[1.5, 2], [3, 4]], [True, False], [1 + 2j, 3], 5, 2.5, True, 1j,
    [[], []], [np.int8(3), 4], [1, 2**63], (1, 2.0),
])
def test_array_from_python_data_infers_numpys_dtype(obj):
    assert_same(gp.array(obj), np.array(obj))


@pytest.mark.parametrize("dt", ["int8", "uint16", "float16", "complex64", "bool"])
def test_array_with_dtype(dt):
    assert_same(gp.array([0, 1, 2], dtype=dt), np.array([0, 1, 2], dtype=dt))


def test_array_ndmin_and_copy_semantics():
    assert_same(gp.array([1, 2], ndmin=3), np.array([1, 2], ndmin=3))
    a = gp.arange(4)
    b = gp.array(a)
    b[0] = 9
    assert a[0].item() == 0
    assert gp.asarray(a) is a
    c = gp.asarray(a, dtype=np.float32)
    assert c.dtype == np.float32 and c is not a
    with pytest.raises(ValueError):
        gp.array(a.T.reshape(2, 2).T, copy=False, order="C")


def test_array_of_lists_holding_device_arrays():
    parts = [gp.arange(3), gp.arange(3) * 2]
    assert_same(gp.array(parts), np.array([np.arange(3), np.arange(3) * 2]))


@pytest.mark.parametrize("obj", [np.array(["a"]), np.array([object()]), [1, "x"],
                                 np.array([1], dtype=np.longdouble), np.datetime64(1, "s")])
def test_unsupported_dtypes_are_type_errors(obj):
    with pytest.raises(TypeError):
        gp.asarray(obj)


def test_asnumpy_and_get():
    a = gp.arange(12, dtype=np.int16).reshape(3, 4)
    for h in (gp.asnumpy(a), a.get()):
        assert isinstance(h, np.ndarray)
        np.testing.assert_array_equal(h, np.arange(12, dtype=np.int16).reshape(3, 4))
    f = a.T.get(order="F")
    assert f.flags.f_contiguous
    np.testing.assert_array_equal(f, np.arange(12).reshape(3, 4).T)
    out = np.empty((3, 4), np.int16)
    assert a.get(out=out) is out
    np.testing.assert_array_equal(out, np.arange(12).reshape(3, 4))
    with pytest.raises(ValueError):
        a.get(out=np.empty((4, 3), np.int16))
    assert gp.asnumpy([1, 2]).tolist() == [1, 2]


@pytest.mark.parametrize("fn", ["empty", "zeros", "ones"])
@pytest.mark.parametrize("shape", [(), 0, 3, (2, 0, 3), (2, 3, 4)])
@pytest.mark.parametrize("order", ["C", "F"])
def test_shape_functions(fn, shape, order):
    got = getattr(gp, fn)(shape, dtype=np.float32, order=order)
    want = getattr(np, fn)(shape, dtype=np.float32, order=order)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert got.strides == want.strides
    if fn != "empty":
        assert_same(got, want)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_zeros_ones_full_every_dtype(dt):
    assert_same(gp.zeros((2, 3), dt), np.zeros((2, 3), dt))
    assert_same(gp.ones((2, 3), dt), np.ones((2, 3), dt))
    v = {"b": True, "i": -3, "u": 7, "f": -2.5, "c": 1 - 2j}[dt.kind]
    assert_same(gp.full((3,), v, dt), np.full((3,), v, dt))


def test_full_dtype_inference_and_overflow():
    assert_same(gp.full(3, 7), np.full(3, 7))
    assert_same(gp.full(3, 2.5), np.full(3, 2.5))
    assert_same(gp.full(3, np.float32(2.5)), np.full(3, np.float32(2.5)))
    with pytest.raises(OverflowError):
        gp.full(3, 300, np.uint8)
    with pytest.raises(ValueError):
        gp.zeros(-1)
    with pytest.raises(TypeError):
        gp.zeros((2, "a"))


@pytest.mark.parametrize("fn", ["empty_like", "zeros_like", "ones_like"])
def test_like_functions_follow_the_prototypes_layout(fn):
    proto_np = np.arange(24, dtype=np.int32).reshape(2, 3, 4).transpose(2, 0, 1)
    proto = gp.asarray(np.ascontiguousarray(np.arange(24, dtype=np.int32).reshape(2, 3, 4))) \
        .transpose(2, 0, 1)
    for order in ("K", "C", "F", "A"):
        got = getattr(gp, fn)(proto, order=order)
        want = getattr(np, fn)(proto_np, order=order)
        assert got.shape == want.shape and got.dtype == want.dtype
        assert got.strides == want.strides, order
        if fn != "empty_like":
            assert_same(got, want)
    assert_same(gp.full_like(proto, 5, dtype=np.float16), np.full_like(proto_np, 5, np.float16))
    assert gp.zeros_like(proto, shape=(5,)).shape == (5,)


def test_zeros_like_of_views_and_dtypes():
    base = np.arange(60, dtype=np.float64).reshape(3, 4, 5)
    views = (lambda x: x[::-1, :, ::2], lambda x: x[:, 1], lambda x: x.T,
             lambda x: x[..., None, 2], lambda x: x[:0])
    for view in views:
        proto_np, proto = view(base), view(gp.asarray(base))
        for dt in (None, np.int8, np.complex64, bool):
            for order in ("K", "C", "F", "A"):
                got, want = gp.zeros_like(proto, dt, order), np.zeros_like(proto_np, dt, order)
                assert got.strides == want.strides, (want.shape, dt, order)
                assert_same(got, want)


@pytest.mark.parametrize("order", ["X", "CF", 3, b"F", b"Z", None, "k", "f", "A"])
def test_order_arguments_as_numpy(order):
    """NumPy takes a one-letter str or bytes (any case) or None; another
    letter is a ValueError, another type a TypeError; None is C where the
    default is C (reshape, ravel, the copy method, zeros) and K where it is
    K. (Before: asarray of a gpunp array honoured only 'C' and 'F', so 'f'
    and b'F' made no copy and 'X' or 3 went unchecked; tobytes('a') gave C
    bytes of an F array; None was K everywhere, or refused.)"""
    h = np.arange(6.0).reshape(2, 3)
    a = gp.asarray(h)
    calls = [(lambda m, x: m.zeros_like(x, order=order)),
             (lambda m, x: m.zeros_like(m.empty_like(x, order=order))),  # its layout
             (lambda m, x: x.copy(order=order)), (lambda m, x: x.astype(np.float32, order=order)),
             (lambda m, x: x.ravel(order=order)), (lambda m, x: m.asarray(x, order=order)),
             (lambda m, x: m.zeros_like(m.empty_like(x, shape=(3, 2), order=order))),
             (lambda m, x: m.einsum("ij->ij", x, order=order)),
             (lambda m, x: m.copy(x, order=order)), (lambda m, x: x.flatten(order=order)),
             (lambda m, x: m.ravel(x, order=order)), (lambda m, x: x.reshape(3, 2, order=order)),
             (lambda m, x: x.reshape(3, 2, order=order, copy=True)),
             (lambda m, x: m.zeros_like(m.empty((3, 2), order=order))),
             (lambda m, x: m.zeros((3, 2), order=order)),
             (lambda m, x: m.ones((3, 2), order=order)),
             (lambda m, x: m.full((3, 2), 7, order=order))]
    for h_ in (h, np.asfortranarray(h)):
        for call in calls:
            got, want = same_outcome(lambda: call(np, h_), lambda: call(gp, gp.asarray(h_)))
            if want is not None:
                assert got.strides == want.strides
                assert_same(got, want)
        got, want = same_outcome(lambda: h_.tobytes(order=order),
                                 lambda: gp.asarray(h_).tobytes(order=order))
        assert got == want
    idx = ([0, 1, 1], [2, 0, 1])
    if order not in (None, "k", "A"):  # None, K and A are not index orders
        got, want = same_outcome(lambda: np.ravel_multi_index(idx, (2, 3), order=order),
                                 lambda: gp.ravel_multi_index(gp.asarray(idx), (2, 3),
                                                              order=order))
        if want is not None:
            assert_same(got, want)
        got, want = same_outcome(lambda: np.unravel_index(4, (2, 3), order=order),
                                 lambda: gp.unravel_index(4, (2, 3), order=order))
        if want is not None:
            assert [int(g) for g in got] == [int(w) for w in want]


ARANGE_CASES = [
    (5,), (2, 9), (2, 9, 3), (9, 2, -2), (0.5, 3, 0.25), (1, 0), (-3.5, 4.25, 0.75),
    (10, -10, -3), (0, 1, 0.1), (3, 1), (1e10, 1e10 + 5),
    # NumPy scalars promote with intp (uint64 gives float64), an int past
    # int64 is a uint64; a complex range is as long as both parts allow
    (np.uint64(5),), (np.uint64(1), np.uint64(5)), (np.int8(1), np.int8(5)), (np.uint8(5),),
    (np.float16(1), np.float16(3)), (2**63, 2**63 + 3), (np.complex64(3),), (0, 3 + 3j),
    (0, 3 + 3j, 1 + 1j), (1j, 3 + 5j), (0, 4.5 + 2.5j), (2 + 0j,),
]


@pytest.mark.parametrize("args", ARANGE_CASES)
@pytest.mark.parametrize("dtype", [None, "int8", "int64", "uint16", "float16", "float32",
                                   "float64", "complex64"])
def test_arange(args, dtype):
    try:
        with np.errstate(over="ignore"):  # 1e10 in float16 is inf, as gpunp's
            want = np.arange(*args, dtype=dtype)
    except Exception as e:
        with pytest.raises(type(e)):
            gp.arange(*args, dtype=dtype)
        return
    assert_same(gp.arange(*args, dtype=dtype), want)


@pytest.mark.parametrize("fill", [[1, 2, 3], (1.5, 2, 3), [2], [[1], [2]], [1, 2], "2", [300],
                                  [[1, 2, 3]], None], ids=repr)
@pytest.mark.parametrize("dtype", [None, np.uint8, np.float32])
@pytest.mark.parametrize("fn", ["full", "full_like"])
def test_full_of_an_array_like(fn, dtype, fill):
    """NumPy's full and full_like copy an array-like fill value in with
    unsafe casting and broadcasting (a string is parsed for a number)."""
    if fn == "full" and dtype is None and (fill is None or isinstance(fill, str)):
        with pytest.raises(TypeError):  # NumPy's object or string array: no gpunp dtype
            gp.full((2, 3), fill)
        return
    if fn == "full":
        got, want = same_outcome(lambda: np.full((2, 3), fill, dtype),
                                 lambda: gp.full((2, 3), fill, dtype))
    else:
        x = np.arange(3.0)
        got, want = same_outcome(lambda: np.full_like(x, fill, dtype),
                                 lambda: gp.full_like(gp.asarray(x), fill, dtype))
    if want is not None:
        assert_same(got, want)


def test_arange_errors_and_bool():
    with pytest.raises(ZeroDivisionError):
        gp.arange(0, 10, 0)
    with pytest.raises(TypeError):
        gp.arange(5, dtype=bool)
    assert_same(gp.arange(2, dtype=bool), np.arange(2, dtype=bool))


@pytest.mark.parametrize("num", [0, 1, 2, 7, 50])
@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("dtype", [None, np.float32, np.int32, np.complex128])
def test_linspace(num, endpoint, dtype):
    got, gstep = gp.linspace(-2.5, 7, num, endpoint=endpoint, retstep=True, dtype=dtype)
    want, wstep = np.linspace(-2.5, 7, num, endpoint=endpoint, retstep=True, dtype=dtype)
    assert_same(got, want)
    np.testing.assert_equal(gstep, wstep)


def test_linspace_errors():
    with pytest.raises(ValueError):
        gp.linspace(0, 1, -1)


@pytest.mark.parametrize("N,M,k", [(3, None, 0), (3, 5, 1), (4, 2, -1), (3, 3, 5),
                                   (3, 3, -5), (0, 0, 0), (1, 4, 3)])
@pytest.mark.parametrize("order", ["C", "F"])
def test_eye_identity(N, M, k, order):
    got = gp.eye(N, M, k, dtype=np.int16, order=order)
    want = np.eye(N, M, k, dtype=np.int16, order=order)
    assert_same(got, want)
    assert got.strides == want.strides
    assert_same(gp.identity(N), np.identity(N))


@pytest.mark.parametrize("args", [(np.float32(1), 3), (np.float32(1), np.float32(3)),
                                  (np.int8(1), 5), (np.float16(0), 2, 0.5), (0, np.int16(4)),
                                  (np.uint8(2), np.int8(9), np.int16(3)), (0, 3, 1j)])
def test_arange_of_numpy_scalars_takes_the_default_dtypes(args):
    """NumPy's arange gives int64/float64/complex128 by the values' kinds,
    not by their NumPy scalar types."""
    want = np.arange(*args)
    got = gp.arange(*args)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.get(), want)


@pytest.mark.parametrize("args", [(3.0,), (2, 3.0), (3.5,), (4, 2.5, 1)])
def test_tri_counts_float_sides_as_numpy(args):
    np.testing.assert_array_equal(gp.tri(*args).get(), np.tri(*args), strict=True)


@pytest.mark.parametrize("shape", [(0, 2**62, 4), (2**62, 4, 0), (2**61, 0, 4), (2**61, 4)])
@pytest.mark.parametrize("fn", ["empty", "zeros", "ones"])
def test_too_big_shapes_raise_numpys_value_error(fn, shape):
    # NumPy bounds the product of the nonzero dimensions times the itemsize,
    # so a zero dimension does not make (0, 2**62, 4) acceptable
    with pytest.raises(ValueError) as want:
        getattr(np, fn)(shape, dtype=np.int8)
    with pytest.raises(ValueError, match=re.escape(str(want.value))):
        getattr(gp, fn)(shape, dtype=np.int8)


def test_reshape_of_an_empty_array_to_a_too_big_shape():
    with pytest.raises(ValueError) as want:
        np.zeros(0, np.int8).reshape(0, 2**62, 4)
    with pytest.raises(ValueError, match=re.escape(str(want.value))):
        gp.zeros(0, np.int8).reshape(0, 2**62, 4)
    assert gp.zeros(0, np.int8).reshape(0, 2**60, 4).shape == (0, 2**60, 4)
