"""The ndarray object: metadata, printing, conversions, copies."""

import copy
import math
import pickle
import typing

import numpy as np
import pytest

import gpunp as gp
from property.outcome import same_outcome
from property.strategies import ALL_DTYPES, assert_same


def pair(shape=(2, 3, 4), dtype=np.float32):
    host = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
    return gp.asarray(host), host


@pytest.mark.parametrize("view", [
    lambda a: a, lambda a: a.T, lambda a: a[::2, ::-1], lambda a: a[1], lambda a: a[0, 1, 2, ...],
    lambda a: a[:, None, 1:3], lambda a: a[..., :0], lambda a: a.transpose(1, 2, 0),
])
def test_metadata_matches_numpy(view):
    g, h = pair()
    gv, hv = view(g), view(h)
    assert gv.shape == hv.shape
    assert gv.ndim == hv.ndim
    assert gv.size == hv.size
    assert gv.dtype == hv.dtype
    assert gv.strides == hv.strides
    assert gv.itemsize == hv.itemsize
    assert gv.nbytes == hv.nbytes
    for f in ("c_contiguous", "f_contiguous", "writeable"):
        assert getattr(gv.flags, f) == getattr(hv.flags, f), f
    assert gv.flags["C_CONTIGUOUS"] == hv.flags["C_CONTIGUOUS"]
    assert_same(gv, hv)


def test_integer_index_gives_a_0d_array_not_a_scalar():
    # a documented difference (docs/differences.md): NumPy returns a host
    # scalar, which would mean a device-to-host copy per element
    g, h = pair()
    x = g[0, 1, 2]
    assert isinstance(x, gp.ndarray) and x.shape == () and x.item() == h[0, 1, 2]


def test_base_of_views_is_the_owner():
    g, _ = pair()
    assert g.base is None
    v = g[1:]
    assert v.base is g
    assert v[0].base is g
    assert g.T.base is g
    assert g.reshape(-1).base is g
    assert g.copy().base is None


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_repr_and_str_match_numpy(dt):
    host = (np.arange(-3, 9) % 5).astype(dt).reshape(3, 4)
    g = gp.asarray(host)
    assert repr(g) == repr(host)
    assert str(g) == str(host)
    assert repr(g[0, 0]) == repr(host[0, 0][()] if False else np.asarray(host[0, 0]))
    assert repr(gp.asarray(host[:0])) == repr(host[:0])


def test_repr_of_a_large_array_is_summarised_as_numpys():
    host = np.arange(5000, dtype=np.float64)
    assert repr(gp.asarray(host)) == repr(host)


def test_implicit_conversion_to_numpy_is_refused():
    g, _ = pair()
    with pytest.raises(TypeError, match="asnumpy"):
        np.asarray(g)
    with pytest.raises(TypeError, match="asnumpy"):
        np.array(g)
    with pytest.raises(TypeError):
        np.zeros(3) + g


def test_fill_copy_astype():
    g, h = pair((3, 4), np.int32)
    c = g.copy()
    c.fill(7)
    assert_same(g, h)
    assert_same(c, np.full((3, 4), 7, np.int32))
    with pytest.raises(OverflowError):
        gp.zeros(3, np.uint8).fill(300)
    f = g.T.copy(order="F")
    assert f.flags.f_contiguous
    assert_same(g.astype(np.float16), h.astype(np.float16))
    assert g.astype(np.int32, copy=False) is g
    with pytest.raises(TypeError):
        g.astype(np.int8, casting="safe")
    for order in "CFAK":
        got, want = g.T.astype(np.float64, order=order), h.T.astype(np.float64, order=order)
        assert got.strides == want.strides, order


def test_float16_nans_keep_sign_and_payload():
    # CUDA's half conversion instructions make every NaN the positive
    # canonical one; NumPy keeps the sign and the payload's top bits
    bits = np.array([0x7E00, 0xFE00, 0x7E01, 0xFE3F, 0xBC00], np.uint16)
    h = bits.view(np.float16)
    g = gp.asarray(h)
    assert gp.signbit(g).get().tolist() == np.signbit(h).tolist()
    for dt in (np.float32, np.float64):
        wide = h.astype(dt)
        assert g.astype(dt).get().tobytes() == wide.tobytes(), dt
        assert gp.asarray(wide).astype(np.float16).get().view(np.uint16).tolist() == \
            bits.tolist(), dt


def test_ndarray_constructor_and_copy_protocols():
    a = gp.ndarray((2, 3), dtype=np.int8)
    assert a.shape == (2, 3) and a.dtype == np.int8
    g, h = pair()
    assert_same(copy.copy(g), h)
    assert_same(copy.deepcopy(g), h)
    assert_same(pickle.loads(pickle.dumps(g)), h)


def test_failed_constructions_leave_nothing_to_release(monkeypatch):
    # an array whose construction failed is still finalized: that must not
    # raise (Python would print "Exception ignored in __del__")
    import gc
    import sys
    seen = []
    monkeypatch.setattr(sys, "unraisablehook", seen.append)
    for args, err in [(((-1,),), ValueError), (((2,), "bogus"), TypeError),
                      (((2,), "f4", 123), TypeError)]:
        with pytest.raises(err):
            gp.ndarray(*args)
    gp.ndarray.__new__(gp.ndarray)
    gc.collect()
    assert [u.exc_value for u in seen] == []


def test_item_tolist_and_scalar_conversions():
    g, h = pair((2, 3), np.float64)
    assert g.tolist() == h.tolist()
    assert g.item(4) == h.item(4)
    assert g.item((1, 2)) == h.item((1, 2))
    assert g.item(1, 2) == h.item(1, 2)
    one = gp.asarray(np.array(2.5))
    assert float(one) == 2.5 and int(one) == 2 and complex(one) == 2.5 and bool(one)
    with pytest.raises(ValueError):
        bool(g)
    with pytest.raises(ValueError):
        bool(gp.zeros(0))
    with pytest.raises(ValueError):
        g.item()
    with pytest.raises(TypeError):
        len(one)
    with pytest.raises(TypeError):
        iter(one)
    assert [x.tolist() for x in g] == [r.tolist() for r in h]
    assert len(g) == 2
    assert list(range(10))[gp.asarray(np.array(3))] == 3
    with pytest.raises(TypeError):
        list(range(10))[gp.asarray(np.array(3.0))]


def test_real_imag_and_view():
    host = np.array([1 + 2j, -3.5 - 1j], dtype=np.complex64)
    g = gp.asarray(host)
    assert_same(g.real, host.real)
    assert_same(g.imag, host.imag)
    g.imag[...] = 9
    host.imag[...] = 9
    assert_same(g, host)
    r = gp.arange(3.0)
    assert r.real is r
    assert_same(r.imag, np.zeros(3))
    assert_same(gp.arange(4, dtype=np.int32).view(np.uint8),
                np.arange(4, dtype=np.int32).view(np.uint8))
    assert_same(gp.arange(4, dtype=np.int32).view(np.float32),
                np.arange(4, dtype=np.int32).view(np.float32))


def test_arrays_are_unhashable():
    with pytest.raises(TypeError):
        hash(gp.zeros(2))


def test_misaligned_views_are_refused():
    """NumPy makes an unaligned float32 view of int8[1:]; a GPU would fault
    loading it, so gpunp refuses (docs/differences.md); aligned offsets work."""
    b = gp.arange(17, dtype=np.int8)
    with pytest.raises(ValueError, match="aligned"):
        b[1:].view(np.float32)
    h = np.arange(17, dtype=np.int8)
    np.testing.assert_array_equal(b[4:12].view(np.float32).get(), h[4:12].view(np.float32))
    assert b[4:12].view(np.float32).flags.aligned
    c = gp.arange(6, dtype=np.float32)[1:5]  # complex64 aligns to 4 bytes
    np.testing.assert_array_equal(c.view(np.complex64).get(),
                                  np.arange(6, dtype=np.float32)[1:5].view(np.complex64))


def test_del_of_elements_is_numpys_error():
    for module in (np, gp):
        a = module.arange(3)
        with pytest.raises(ValueError, match="cannot delete array elements"):
            del a[0]


def test_subscripted_in_annotations_as_numpys():
    alias = gp.ndarray[int, np.dtype[np.float32]]
    assert alias.__origin__ is gp.ndarray and alias.__args__ == (int, np.dtype[np.float32])
    assert gp.ndarray[int].__args__ == (int,)
    for module in (np, gp):
        with pytest.raises(TypeError):
            module.ndarray[int, int, int]
    # numpy.typing's names, NDArray over gpunp's ndarray
    assert sorted(gp.typing.__all__) == sorted(np.typing.__all__)
    # (not compared with NumPy's: its NDArray became a PEP 695 `type`
    # alias, whose subscript's __args__ are the alias's own, (float64,); the
    # H200 suite at e24d6e7 under NumPy 2.5.2)
    nd = gp.typing.NDArray[np.float64]
    assert nd.__origin__ is gp.ndarray
    assert nd.__args__ == (tuple[typing.Any, ...], np.dtype[np.float64])
    assert gp.typing.ArrayLike is np.typing.ArrayLike


@pytest.mark.parametrize("n", [4095, 4097, 3 * 4096 + 33, (1 << 18) + 5])
@pytest.mark.parametrize("p", [0.0, 0.02, 0.5, 1.0])
def test_masks_across_tiles(n, p):
    # nonzero and a[mask] cut the mask in tiles of 4096, ranked per warp and
    # round within a tile and by a running count across tiles
    rng = np.random.default_rng(n)
    m = rng.random(n) < p
    x = rng.random(n).astype(np.float32)
    g, gm = gp.asarray(x), gp.asarray(m)
    np.testing.assert_array_equal(g[gm].get(), x[m])
    np.testing.assert_array_equal(gp.nonzero(gm)[0].get(), np.nonzero(m)[0])
    c = (x + 1j * x[::-1]).astype(np.complex128)
    np.testing.assert_array_equal(gp.asarray(c)[gm].get(), c[m])
    h = x.astype(np.float16)
    np.testing.assert_array_equal(gp.asarray(h)[gm].get(), h[m])
    m3 = m[: n // 77 * 77].reshape(7, 11, -1)
    for got, want in zip(gp.nonzero(gp.asarray(m3)), np.nonzero(m3)):
        np.testing.assert_array_equal(got.get(), want)
    # a mask read in place at an odd offset
    np.testing.assert_array_equal(g[1:][gm[:-1]].get(), x[1:][m[:-1]])


@pytest.mark.parametrize("value", [np.float64(2.5), np.float32(3.5), np.float16(-2.5), np.int64(7),
                                   np.int8(-3), np.uint64(2**64 - 1), np.bool_(True),
                                   np.complex128(1 + 2j), np.float64(np.nan), np.float64(1e300),
                                   np.float32(1.23456)], ids=repr)
@pytest.mark.parametrize("call", [lambda x: round(x), lambda x: round(x, 1), lambda x: round(x, -1),
                                  lambda x: math.trunc(x)], ids=["round", "round1", "round-1", "trunc"])
def test_round_and_trunc_of_a_0d_array_as_numpy_scalar(value, call):
    """A 0-d array stands for NumPy's scalar: Python's round() and
    math.trunc() give what they give for that scalar (an int, or the
    dtype's value); NumPy's arrays, and gpunp's of any other shape, have
    neither."""
    got, want = same_outcome(lambda: call(value), lambda: call(gp.asarray(value)))
    if want is not None:
        got = got.get()[()] if isinstance(got, gp.ndarray) else got
        assert type(got) is type(want) and repr(got) == repr(want)
    for arr in (np.arange(3.0), gp.arange(3.0)):
        with pytest.raises(TypeError):
            call(arr)


@pytest.mark.parametrize("value", ["3", "x", "1.5", b"3", "1e3", "nan", "1+2j", "False", "", None,
                                   np.str_("4"), 300, -129, 2**64, 1.7, np.float32(2.5), np.nan,
                                   1 + 2j, [1], np.int64(-1), np.float16(0.1)], ids=repr)
@pytest.mark.parametrize("dt", [np.int64, np.int8, np.uint8, np.float64, np.complex128, np.bool_],
                         ids=str)
def test_fill_converts_as_numpy_stores_an_element(dt, value):
    """fill(v) converts v as NumPy stores one element: strings parsed, Python
    ints out of range and NaN into integers refused, NumPy scalars cast."""
    x = np.zeros(3, dt)
    g = gp.asarray(x)
    same_outcome(lambda: x.fill(value), lambda: g.fill(value))
    assert_same(g, x)


@pytest.mark.parametrize("shape", [(0,), (0, 0), (3, 0)])
def test_imag_of_an_empty_complex_array(shape):
    # the view once started one float past the end of an empty buffer
    for dt in (np.complex64, np.complex128):
        im = gp.empty(shape, dt).imag
        want = np.empty(shape, dt).imag
        assert im.shape == want.shape and im.dtype == want.dtype
