"""gpunp.testing's helpers for one test run with NumPy and with gpunp
(CuPy's cupy.testing): they pass where the two agree and fail where they
do not, and the dtype decorators run every dtype."""

import inspect

import numpy as np
import pytest

import gpunp as gp
from gpunp import testing as t


# ---- used as a user would: these are tests themselves ----------------------------------

@t.for_float_dtypes(no_float16=True)
@t.numpy_gpunp_allclose(rtol=1e-6)
def test_row_norms(xp, dtype):
    a = t.shaped_arange((3, 4), xp, dtype)
    return xp.sqrt((a * a).sum(axis=1))


@t.for_all_dtypes()
@t.numpy_gpunp_array_equal()
def test_flip_and_shape(xp, dtype):
    a = t.shaped_random((2, 5), xp, dtype, seed=4)
    return xp.flip(a, axis=1), a.shape


@t.numpy_gpunp_raises()
def test_bad_reshape_raises_alike(xp):
    xp.zeros(6).reshape(4, 2)


@t.numpy_gpunp_allclose(scipy_name="sci")
def test_scipy_name_passes_the_scipy_namespace(xp, sci):
    return sci.special.erf(xp.linspace(-2, 2, 9))


@t.numpy_gpunp_equal()
def test_shapes_equal(xp):
    return xp.ones((2, 3)).T.shape


# ---- the helpers' own behaviour ----------------------------------------------------------

def test_the_arguments_are_hidden_from_pytest():
    assert list(inspect.signature(test_row_norms).parameters) == []

    @t.for_dtypes(["int8", np.float32], name="dt")
    @t.numpy_gpunp_array_equal(name="mod")
    def f(k, mod, dt):
        return mod.full(3, k, dtype=dt)

    assert list(inspect.signature(f).parameters) == ["k"]
    f(5)
    with pytest.raises(TypeError):
        t.numpy_gpunp_allclose()(lambda a: a)  # no `xp` to hide


def test_disagreement_fails():
    @t.numpy_gpunp_allclose(rtol=1e-3)
    def off(xp):
        a = xp.arange(4.0)
        return a + (1e-2 if xp is gp else 0)

    with pytest.raises(AssertionError):
        off()

    @t.numpy_gpunp_allclose()
    def other_dtype(xp):
        return xp.arange(3, dtype=np.float32 if xp is gp else np.float64)

    with pytest.raises(AssertionError, match="dtype"):
        other_dtype()

    @t.numpy_gpunp_allclose(type_check=False)
    def other_dtype_allowed(xp):
        return xp.arange(3, dtype=np.float32 if xp is gp else np.float64)

    other_dtype_allowed()

    @t.numpy_gpunp_array_equal()
    def host_result(xp):
        return np.arange(3)  # computed on the host for both: not a gpunp test

    with pytest.raises(AssertionError, match="host"):
        host_result()

    @t.numpy_gpunp_allclose()
    def transposed(xp):
        a = xp.ones((3, 2))
        return a.T.copy() if xp is np else xp.ascontiguousarray(a).T

    with pytest.raises(AssertionError, match="contiguous"):
        transposed()

    @t.numpy_gpunp_array_equal(strides_check=True)
    def strides(xp):
        a = xp.ones((3, 2))
        return a if xp is np else xp.asfortranarray(a)

    with pytest.raises(AssertionError, match="strides"):
        strides()


def test_errors_and_accept_error():
    @t.numpy_gpunp_allclose(accept_error=ValueError)
    def both_raise(xp):
        xp.ones(3).reshape(2)

    both_raise()

    @t.numpy_gpunp_allclose()
    def both_raise_unaccepted(xp):
        xp.ones(3).reshape(2)

    with pytest.raises((AssertionError, ValueError)):
        both_raise_unaccepted()

    @t.numpy_gpunp_allclose(accept_error=True)
    def only_gpunp_raises(xp):
        if xp is gp:
            raise ValueError("gpunp only")
        return np.zeros(1)

    with pytest.raises(AssertionError, match="only gpunp raised"):
        only_gpunp_raises()

    @t.numpy_gpunp_raises()
    def raises_nothing(xp):
        return xp.zeros(1)

    with pytest.raises(AssertionError, match="NumPy raised nothing"):
        raises_nothing()

    @t.numpy_gpunp_raises()
    def different_errors(xp):
        raise (TypeError if xp is gp else ValueError)("x")

    with pytest.raises(AssertionError, match="NumPy raised ValueError"):
        different_errors()


def test_dtype_lists():
    seen = []

    @t.for_all_dtypes()
    def every(dtype):
        seen.append(np.dtype(dtype))

    every()
    assert seen == [np.dtype(d) for d in "? e f d b h i q B H I Q F D".split()]
    seen.clear()
    t.for_all_dtypes(no_float16=True, no_bool=True, no_complex=True)(every.__wrapped__)()
    assert seen == [np.dtype(d) for d in "f d b h i q B H I Q".split()]
    seen.clear()
    for deco, want in [(t.for_float_dtypes(), "efd"), (t.for_signed_dtypes(), "bhiq"),
                       (t.for_unsigned_dtypes(), "BHIQ"), (t.for_int_dtypes(), "?bhiqBHIQ"),
                       (t.for_complex_dtypes(), "FD")]:
        deco(every.__wrapped__)()
        assert seen == [np.dtype(c) for c in want]
        seen.clear()

    @t.for_float_dtypes()
    def fails_for_float32(dtype):
        assert dtype != np.float32

    with pytest.raises(AssertionError) as info:
        fails_for_float32()
    assert "float32" in "".join(getattr(info.value, "__notes__", ["float32"]))


def test_shaped_arrays():
    for dt in (np.bool_, np.int16, np.float32, np.complex64):
        a = t.shaped_arange((2, 3), gp, dt)
        h = t.shaped_arange((2, 3), np, dt)
        assert a.dtype == h.dtype == dt and a.shape == (2, 3)
        np.testing.assert_array_equal(a.get(), h)
    np.testing.assert_array_equal(t.shaped_arange(4, np, np.int64), [1, 2, 3, 4])
    np.testing.assert_array_equal(t.shaped_arange((2, 2), np, "?"), [[False, True], [False, True]])
    np.testing.assert_array_equal(t.shaped_arange(2, np, np.complex128), [1 + 1j, 2 + 2j])
    assert t.shaped_arange((2, 3), gp, order="F").flags.f_contiguous
    r = t.shaped_random((50,), np, np.float64, scale=3, seed=1)
    assert r.min() >= 0 and r.max() < 3 and len(np.unique(r)) == 50
    np.testing.assert_array_equal(t.shaped_random((50,), gp, np.float64, scale=3, seed=1).get(), r)
    assert not np.array_equal(t.shaped_random(50, np, seed=2), t.shaped_random(50, np, seed=1))
    assert set(t.shaped_random(40, np, np.bool_).tolist()) == {False, True}
    c = t.shaped_random(10, np, np.complex64)
    assert c.dtype == np.complex64 and (c.imag != 0).all()
    assert t.shaped_random(5, np, np.int32, scale=100).dtype == np.int32
