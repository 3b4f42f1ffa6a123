"""Property tests of shape operations against NumPy: reshape (C, F, A order,
-1; a view exactly when NumPy gives one, else a copy), transpose, ravel,
flatten, squeeze, swapaxes, .T, copy(order=), astype(order=, casting=), and
the metadata: flags, strides, shape, ndim, size, itemsize, nbytes.

Layout questions are asked of NumPy with an array of exactly the gpunp
array's strides (numpy_twin): the shared strategies lay the gpunp and the
NumPy array out differently. Whether a gpunp result is a view is observed by
writing into it (gpunp has no shares_memory)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp

from .outcome import host, numpy_twin, quiet, same_outcome
from .strategies import ALL_DTYPES, device_arrays, dtypes, shapes

ORDERS = ["C", "F", "A", "K"]


@st.composite
def arrays(draw, min_dims=0, max_dims=4):
    """A gpunp array in any layout and its NumPy twin (the same values and
    exactly the same strides)."""
    dt = draw(dtypes(), label="dtype")
    g, x = draw(device_arrays(dt, draw(shapes(min_dims, max_dims), label="shape")),
                label="arrays")
    return g, numpy_twin(g, x)


def _other_value(x):
    """A value different from the first element of x."""
    first = x.flat[0]
    if x.dtype.kind == "b":
        return not first
    return 1 if first != 1 else 2


def writes_through(result, g, x):
    """Whether writing into `result` changes `g` (x: g's values), i.e.
    whether result is a view of g's memory. Both must have elements."""
    v = _other_value(x)
    before = host(g).copy()
    result[...] = v
    after = host(g)
    np.testing.assert_array_equal(host(result), np.full(result.shape, v, result.dtype))
    changed = not np.array_equal(before, after, equal_nan=x.dtype.kind in "fc")
    g[...] = gp.asarray(before)  # as it was, for the checks that follow
    return changed


def check_view_like_numpy(got, want, g, twin):
    """gpunp's result is a view exactly when NumPy's is one."""
    if twin.size == 0:
        return  # nothing to observe: writing into no element changes nothing
    numpy_view = np.shares_memory(want, twin)
    assert writes_through(got, g, twin) == numpy_view, \
        f"gpunp {'copied' if numpy_view else 'gave a view'} where NumPy " \
        f"{'gave a view' if numpy_view else 'copied'}"
    if numpy_view:
        owner = g if g.base is None else g.base
        assert got.base is owner, "a view's base is not the array owning the memory"


def check_values(got, want):
    assert isinstance(got, gp.ndarray)
    np.testing.assert_array_equal(host(got), want, strict=True)


# ---- reshape ------------------------------------------------------------------------------------

@st.composite
def new_shapes(draw, size):
    """A shape for `size` elements (as a tuple or as separate ints): its
    factors in any order, ones anywhere, one -1; rarely a wrong size, two -1
    or a negative length."""
    factors = []
    n = size
    for p in (2, 3, 5, 7):
        while n and n % p == 0:
            factors.append(p)
            n //= p
    if n > 1:
        factors.append(n)
    if size == 0:
        factors = [0] + draw(st.lists(st.integers(1, 3), max_size=2))
    factors = draw(st.permutations(factors))
    # group neighbouring factors into dimensions
    dims = []
    for f in factors:
        if dims and draw(st.booleans()):
            dims[-1] *= f
        else:
            dims.append(f)
    for _ in range(draw(st.integers(0, 2))):
        dims.insert(draw(st.integers(0, len(dims))), 1)
    if dims and draw(st.booleans()):
        dims[draw(st.integers(0, len(dims) - 1))] = -1
    bad = draw(st.integers(0, 14))
    if bad == 0:
        dims.append(2)  # a wrong size (or fine when there is a -1)
    elif bad == 1:
        dims = dims + [-1, -1]
    elif bad == 2:
        dims.append(-3)
    return tuple(dims)


@given(data=st.data())
def test_reshape(data):
    g, x = data.draw(arrays(), label="pair")
    shape = data.draw(new_shapes(x.size), label="new shape")
    order = data.draw(st.sampled_from(["C", "F", "A"]), label="order")
    form = data.draw(st.sampled_from(["tuple", "ints", "function"]), label="form")
    if form == "tuple":
        np_call, gp_call = (lambda: x.reshape(shape, order=order),
                            lambda: g.reshape(shape, order=order))
    elif form == "ints" and shape:
        np_call, gp_call = (lambda: x.reshape(*shape, order=order),
                            lambda: g.reshape(*shape, order=order))
    else:
        np_call, gp_call = (lambda: np.reshape(x, shape, order=order),
                            lambda: gp.reshape(g, shape, order=order))
    got, want = same_outcome(np_call, gp_call)
    if want is None:
        return
    check_values(got, want)
    check_view_like_numpy(got, want, g, x)


@given(data=st.data())
def test_reshape_copy(data):
    """copy=True always copies; copy=False raises NumPy's ValueError where
    only a copy can give the shape."""
    g, x = data.draw(arrays(), label="pair")
    shape = data.draw(new_shapes(x.size), label="new shape")
    order = data.draw(st.sampled_from(["C", "F", "A"]), label="order")
    copy = data.draw(st.booleans(), label="copy")
    got, want = same_outcome(lambda: x.reshape(shape, order=order, copy=copy),
                             lambda: g.reshape(shape, order=order, copy=copy))
    if want is None:
        return
    check_values(got, want)
    check_view_like_numpy(got, want, g, x)


@pytest.mark.parametrize("layout", ["C", "F", "transposed"])
@pytest.mark.parametrize("order", ["C", "F", "A"])
def test_reshape_copy_reads_in_the_order_asked(layout, order):
    """copy=True reads elements in `order`; A means F only for an
    F-contiguous array (a case the random search found once)."""
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = {"C": x, "F": np.asfortranarray(x), "transposed": x.T}[layout]
    g = gp.asarray(x)
    np.testing.assert_array_equal(g.reshape(6, order=order, copy=True).get(),
                                  x.reshape(6, order=order, copy=True))


# ---- transpose, swapaxes, .T ------------------------------------------------------------------------

@st.composite
def axes_orders(draw, ndim):
    """Axes for transpose: a permutation (negative entries too), given as a
    tuple, a list or separate ints, None, or nothing; rarely a wrong one."""
    form = draw(st.sampled_from(["tuple", "list", "ints", "none", "nothing", "bad"]))
    perm = [a - ndim if draw(st.booleans()) else a
            for a in draw(st.permutations(range(ndim)))]
    if form == "bad":
        perm = draw(st.sampled_from([perm + [0], perm[:-1], [0] * ndim, perm[:-1] + [ndim]]))
        form = "tuple"
    return form, perm


@given(data=st.data())
def test_transpose(data):
    g, x = data.draw(arrays(), label="pair")
    form, perm = data.draw(axes_orders(x.ndim), label="axes")
    if form == "tuple":
        args = (tuple(perm),)
    elif form == "list":
        args = (list(perm),)
    elif form == "ints":
        args = tuple(perm)
    elif form == "none":
        args = (None,)
    else:
        args = ()
    got, want = same_outcome(lambda: x.transpose(*args), lambda: g.transpose(*args))
    if want is not None:
        check_values(got, want)
        check_view_like_numpy(got, want, g, x)
    if form in ("tuple", "list"):
        got, want = same_outcome(lambda: np.transpose(x, perm), lambda: gp.transpose(g, perm))
        if want is not None:
            check_values(got, want)
    check_values(g.T, x.T)


# axes NumPy reads as an intp: bools refused, past int64 refused, a count
# that does not match the array's refused before any axis is looked at
TRANSPOSE_AS_NUMPY = [(True, False), (np.True_, 0), (1.0, 0), (1, 2**63), (1, -2**63 - 1),
                      (0, 1, 2**63), (0, 1, 2**40), (0,), ()]


@pytest.mark.parametrize("axes", TRANSPOSE_AS_NUMPY, ids=repr)
def test_transpose_refuses_axes_as_numpy_does(axes):
    x = np.zeros((2, 3))
    g = gp.asarray(x)
    for numpy_call, gpunp_call in [(lambda: np.transpose(x, axes), lambda: gp.transpose(g, axes)),
                                   (lambda: x.transpose(axes), lambda: g.transpose(axes)),
                                   (lambda: x.transpose(*axes), lambda: g.transpose(*axes))]:
        got, want = same_outcome(numpy_call, gpunp_call)
        if want is not None:  # transpose(*()) is the plain reversal
            check_values(got, want)


@pytest.mark.parametrize("axis", [2**31, 2**40 + 1, -2**40, 2**63 - 1], ids=repr)
def test_transpose_huge_axis_is_out_of_bounds(axis):
    # NumPy casts an intp axis to a C int unchecked, so that 2**40 + 1 is
    # axis 1 there; gpunp calls it out of bounds rather than permute wrongly
    g = gp.zeros((2, 3))
    for call in (lambda: gp.transpose(g, (0, axis)), lambda: g.transpose(axis, 0),
                 lambda: gp.permute_dims(g, [axis, 1])):
        with pytest.raises(np.exceptions.AxisError, match=f"axis {axis} is out of bounds"):
            call()


@given(data=st.data())
def test_swapaxes(data):
    g, x = data.draw(arrays(), label="pair")
    n = x.ndim
    a1 = data.draw(st.integers(-n - 1, n), label="axis1")
    a2 = data.draw(st.integers(-n - 1, n), label="axis2")
    got, want = same_outcome(lambda: x.swapaxes(a1, a2), lambda: g.swapaxes(a1, a2))
    if want is not None:
        check_values(got, want)
        check_view_like_numpy(got, want, g, x)
    got, want = same_outcome(lambda: np.swapaxes(x, a1, a2), lambda: gp.swapaxes(g, a1, a2))
    if want is not None:
        check_values(got, want)


# ---- ravel, flatten, squeeze ---------------------------------------------------------------------

@given(data=st.data())
def test_ravel(data):
    """ravel: elements in the order asked (K: memory order), a view where
    NumPy gives one."""
    g, x = data.draw(arrays(), label="pair")
    order = data.draw(st.sampled_from(ORDERS), label="order")
    got, want = same_outcome(lambda: x.ravel(order), lambda: g.ravel(order))
    check_values(got, want)
    check_view_like_numpy(got, want, g, x)
    got, want = same_outcome(lambda: np.ravel(x, order), lambda: gp.ravel(g, order))
    check_values(got, want)


@given(data=st.data())
def test_flatten(data):
    """flatten: always a copy, in the order asked (K: memory order)."""
    g, x = data.draw(arrays(), label="pair")
    order = data.draw(st.sampled_from(ORDERS), label="order")
    got, want = same_outcome(lambda: x.flatten(order), lambda: g.flatten(order))
    check_values(got, want)
    if x.size:
        assert not writes_through(got, g, x), "flatten gave a view"


@given(data=st.data())
def test_squeeze(data):
    g, x = data.draw(arrays(), label="pair")
    n = x.ndim
    axis = data.draw(st.one_of(
        st.none(), st.integers(-n - 1, n),
        st.lists(st.integers(-n - 1, n), max_size=n + 1).map(tuple),
        st.just(tuple(k for k in range(n) if x.shape[k] == 1))), label="axis")
    got, want = same_outcome(lambda: x.squeeze(axis), lambda: g.squeeze(axis))
    if want is not None:
        check_values(got, want)
        check_view_like_numpy(got, want, g, x)
    got, want = same_outcome(lambda: np.squeeze(x, axis), lambda: gp.squeeze(g, axis))
    if want is not None:
        check_values(got, want)


# ---- copies and casts ---------------------------------------------------------------------------

def check_layout_like(got, want):
    """The result has NumPy's contiguity and strides (NumPy's result here is
    a new array made from an input of the very same strides)."""
    assert got.flags.c_contiguous == want.flags.c_contiguous, \
        f"C contiguity {got.flags.c_contiguous} != NumPy's (strides {got.strides} vs " \
        f"{want.strides})"
    assert got.flags.f_contiguous == want.flags.f_contiguous, \
        f"F contiguity {got.flags.f_contiguous} != NumPy's (strides {got.strides} vs " \
        f"{want.strides})"
    assert got.strides == want.strides, f"strides {got.strides} != NumPy's {want.strides}"


@given(data=st.data())
def test_copy(data):
    """copy(order=): a new array with NumPy's layout for every order and
    every input layout."""
    g, x = data.draw(arrays(), label="pair")
    order = data.draw(st.sampled_from(ORDERS + [None]), label="order")
    form = data.draw(st.sampled_from(["method", "function"]), label="form")
    kw = {} if order is None else {"order": order}
    if form == "method":
        got, want = same_outcome(lambda: x.copy(**kw), lambda: g.copy(**kw))
    else:
        got, want = same_outcome(lambda: np.copy(x, **kw), lambda: gp.copy(g, **kw))
    check_values(got, want)
    check_layout_like(got, want)
    if x.size:
        assert not writes_through(got, g, x), "copy gave a view"


@given(data=st.data())
def test_astype(data):
    """astype(dtype, order=, casting=): values cast as NumPy casts them,
    NumPy's TypeError for a cast the rule forbids, NumPy's layout for every
    order; copy=False returns the array itself where NumPy does."""
    g, x = data.draw(arrays(), label="pair")
    dt = data.draw(dtypes(), label="to")
    kw = {}
    if data.draw(st.booleans(), label="pass order"):
        kw["order"] = data.draw(st.sampled_from(ORDERS), label="order")
    if data.draw(st.booleans(), label="pass casting"):
        kw["casting"] = data.draw(st.sampled_from(["no", "equiv", "safe", "same_kind", "unsafe"]),
                                  label="casting")
    if data.draw(st.integers(0, 3), label="pass copy") == 0:
        kw["copy"] = False
    got, want = same_outcome(lambda: x.astype(dt, **kw), lambda: g.astype(dt, **kw))
    if want is None:
        return
    assert (got is g) == (want is x), "astype(copy=False) copied where NumPy did not, " \
        "or the other way round"
    if not _undefined_cast(x, dt):
        check_values(got, want)
    check_layout_like(got, want)


def _undefined_cast(x, dt):
    """Whether a float out of the integer dtype's range is cast (the result
    is undefined in C; NumPy's depends on the code path)."""
    dt = np.dtype(dt)
    if dt.kind not in "iu" or x.dtype.kind not in "fc" or x.size == 0:
        return False
    info = np.iinfo(dt)
    with quiet():
        v = np.trunc(np.real(x).astype(np.float64))
        return bool((~np.isfinite(v) | (v < float(info.min)) | (v >= float(info.max) + 1)).any())


# ---- metadata -------------------------------------------------------------------------------------

@given(data=st.data())
def test_metadata(data):
    """shape, ndim, size, itemsize, nbytes, strides and the contiguity flags
    of views in every layout are NumPy's for the same strides."""
    g, x = data.draw(arrays(), label="pair")
    assert g.shape == x.shape and g.ndim == x.ndim and g.size == x.size
    assert g.itemsize == x.itemsize and g.nbytes == x.nbytes and g.dtype == x.dtype
    assert gp.shape(g) == np.shape(x) and gp.ndim(g) == np.ndim(x) and gp.size(g) == np.size(x)
    assert g.flags.c_contiguous == x.flags.c_contiguous
    assert g.flags.f_contiguous == x.flags.f_contiguous
    assert g.flags["C"] == x.flags["C"] and g.flags["F_CONTIGUOUS"] == x.flags["F_CONTIGUOUS"]
    assert g.flags.writeable


@pytest.mark.parametrize("a", [3, 2**62, [[1, 2, 3]], (2, 3, 4)], ids=["3", "2**62", "list", "3d"])
@pytest.mark.parametrize("axis", [0, 1, -1, 5, 2**31 - 1, 2**31, -2**31 - 1, 2**62, np.int64(1),
                                  True, (), (0, 2), [1, 0], (1, 1), (0, 2**62), 1.0])
def test_size_along_axes_matches_numpy(a, axis):
    """size's axis as the running NumPy reads it: from 2.4 several axes,
    each a C int (OverflowError past it) within the dimensions (AxisError)."""
    h = g = a
    if isinstance(a, tuple):  # an array of that shape
        h, g = np.ones(a), gp.ones(a)
    got, want = same_outcome(lambda: np.size(h, axis), lambda: gp.size(g, axis))
    if want is not None:
        assert got == want


@given(data=st.data())
def test_strides_of_new_arrays(data):
    """Arrays gpunp makes as NumPy makes them have NumPy's strides: asarray
    of a C or F array, empty/zeros/ones in either order, copies, and ufunc
    results laid out like their input (order K)."""
    dt = data.draw(dtypes(), label="dtype")
    shape = data.draw(shapes(), label="shape")
    order = data.draw(st.sampled_from("CF"), label="order")
    x = np.asarray(np.zeros(shape, dt), order=order)
    assert gp.asarray(x).strides == x.strides
    for make in ("empty", "zeros", "ones"):
        assert getattr(gp, make)(shape, dt, order=order).strides == \
            getattr(np, make)(shape, dt, order=order).strides, make
    g, h = data.draw(arrays(), label="pair")
    assert g.copy().strides == h.copy().strides
    with quiet():
        want = np.negative(h) if h.dtype.kind != "b" else np.logical_not(h)
        want_sum = h + h
    got = gp.negative(g) if h.dtype.kind != "b" else gp.logical_not(g)
    assert got.strides == want.strides, f"{got.strides} != NumPy's {want.strides}"
    assert (g + g).strides == want_sum.strides


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_itemsize_and_nbytes(dt):
    x = np.zeros((3, 4), dt)
    g = gp.asarray(x)
    assert (g.itemsize, g.nbytes, g[:, 1:].nbytes) == (x.itemsize, x.nbytes, x[:, 1:].nbytes)
