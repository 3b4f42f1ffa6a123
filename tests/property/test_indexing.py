"""Property tests of basic indexing against NumPy: __getitem__ with ints,
slices, Ellipsis and None on every layout (results are views that write
through to their parent), __setitem__ with scalars, arrays and nested lists
(NumPy's conversions and errors, broadcasting, overlapping source and
destination), NumPy's IndexError/ValueError, and the conversions of arrays
to Python objects (len, iteration, item, tolist, bool/int/float/complex,
operator.index)."""

from __future__ import annotations

import operator
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp

from .outcome import host, quiet, same_outcome
from .strategies import ALL_DTYPES, device_arrays as _device_arrays, dtypes, elements, shapes


def device_arrays(dt, shape):
    """The shared pairs, the NumPy side always an array: for shape () the
    shared strategy may give a NumPy scalar, which cannot be indexed or
    written like a 0-d array."""
    return _device_arrays(dt, shape).map(lambda pair: (pair[0], np.asarray(pair[1])))

# ---- strategies --------------------------------------------------------------------------

BIG = 2**63 - 1


def ints_for(n):
    """An integer index for an axis of length n: in bounds (negative too),
    rarely out of bounds, or huge."""
    inside = st.integers(-n, n - 1) if n else st.nothing()
    outside = st.sampled_from([n, -n - 1, BIG, -BIG - 1, 2**63, 2**64 - 1, -2**63 - 1, 2**80])
    return st.one_of(inside, inside, inside, outside) if n else outside


class _Index:
    """A slice bound of no integer type: only its __index__ makes it one."""

    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v

    def __repr__(self):
        return f"_Index({self.v})"


class _IntOnly:
    """Has __int__ and no __index__: no slice bound (Python's TypeError)."""

    def __int__(self):
        return 1

    def __repr__(self):
        return "_IntOnly()"


def as_bounds(ints):
    """Integers as a slice's bounds may come: Python ints mostly, NumPy
    integers, objects with __index__, bools; rarely no index at all (a
    float, a Decimal, a Fraction, an object with __int__ alone)."""
    typed = ints.flatmap(lambda v: st.sampled_from(
        [v, v, v, _Index(v)] + ([np.int64(v)] if -2**63 <= v < 2**63 else [])))
    return st.one_of(typed, typed, typed, typed, st.booleans(),
                     st.sampled_from([1.0, Decimal(1), Fraction(1), _IntOnly()]))


def slices_for(n):
    """A slice for an axis of length n: any start/stop/step, negative steps,
    steps beyond the length, empty slices, bounds far outside, step 0 rarely."""
    bound = st.one_of(st.none(), as_bounds(st.integers(-n - 3, n + 3)),
                      as_bounds(st.sampled_from([BIG, -BIG, 2**70])))
    step = st.one_of(st.none(), as_bounds(st.integers(-n - 2, n + 2).filter(bool)),
                     as_bounds(st.sampled_from([BIG, -BIG, 2**70, -(2**70)])), st.just(0))
    return st.builds(slice, bound, bound, step)


@st.composite
def basic_indices(draw, shape):
    """A basic index for `shape`: a tuple mixing ints, slices, None and at
    most one Ellipsis (rarely two, or more indices than dimensions), or a
    single item."""
    nd = len(shape)
    count = draw(st.integers(0, nd + 1) if draw(st.integers(0, 9)) == 0 else st.integers(0, nd))
    ellipsis = draw(st.one_of(st.none(), st.integers(0, count)))
    # the items before an ellipsis index the leading axes, those after it
    # the trailing ones
    split = count if ellipsis is None else ellipsis
    axes = list(range(split)) + list(range(nd - (count - split), nd))
    items = []
    for k, axis in enumerate(axes):
        if k == ellipsis:
            items.append(Ellipsis)
        n = shape[axis] if 0 <= axis < nd else 0
        items.append(draw(st.one_of(ints_for(n), slices_for(n), slices_for(n))))
    if ellipsis == count:
        items.append(Ellipsis)
    if ellipsis is not None and draw(st.integers(0, 19)) == 0:
        items.insert(draw(st.integers(0, len(items))), Ellipsis)  # two: an IndexError
    for _ in range(draw(st.integers(0, 2))):
        items.insert(draw(st.integers(0, len(items))), None)
    if len(items) == 1 and draw(st.booleans()):
        return items[0]
    return tuple(items)


def numpy_index_shape_ok(x, index):
    """Whether NumPy accepts the index (so that the view can be written)."""
    with quiet():
        try:
            x[index]
        except Exception:  # noqa: BLE001
            return False
    return True


# ---- __getitem__ ----------------------------------------------------------------------------

@given(data=st.data())
def test_getitem(data):
    """gpunp's result has NumPy's shape and values and NumPy's errors."""
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(), label="shape")), label="arrays")
    index = data.draw(basic_indices(x.shape), label="index")
    got, want = same_outcome(lambda: x[index], lambda: g[index])
    if want is None:
        return
    assert isinstance(got, gp.ndarray)
    np.testing.assert_array_equal(host(got), np.asarray(want), strict=True)


@given(data=st.data())
def test_getitem_is_a_view(data):
    """The result is a view: its base is the array that owns the memory, and
    writing through it changes the parent exactly where NumPy's view does."""
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(), label="shape")), label="arrays")
    index = data.draw(basic_indices(x.shape), label="index")
    if not numpy_index_shape_ok(x, index):
        return  # the index errors are test_getitem's
    view = g[index]
    owner = g if g.base is None else g.base
    assert view.base is owner, "the view's base is not the array owning the memory"
    value = data.draw(elements(dt), label="value")
    with quiet():
        x[index] = value           # NumPy writes through its view ...
    view[...] = np.asarray(value, dtype=dt)[()]  # ... gpunp through its own
    np.testing.assert_array_equal(host(g), x, strict=True)


@pytest.mark.parametrize("index, error", [
    ((0, 0, 0), IndexError),         # too many indices
    ((Ellipsis, 0, Ellipsis), IndexError),
    ((slice(None), 3), IndexError),  # out of bounds
    ((-3, 0), IndexError),
    ((slice(None, None, 0),), ValueError),
    ((0.5,), IndexError),
    (("a",), IndexError),
    ((2**63,), OverflowError),        # past int64, in uint64: NumPy's conversion overflows
    ((0, 2**64), IndexError),         # past uint64: no index
    ((-2**63 - 1, 0), IndexError),
    (slice(1.0, None), TypeError),          # Python's error for a slice's bound
    ((0, slice(None, Decimal(2))), TypeError),
])
def test_getitem_errors(index, error):
    x = np.arange(6).reshape(2, 3)
    with pytest.raises(error):
        x[index]
    with pytest.raises(error):
        gp.asarray(x)[index]


# ---- __setitem__ ----------------------------------------------------------------------------

def python_scalars():
    """Python scalars of every kind, with the ones NumPy refuses for some
    dtypes: ints out of range (huge too), NaN and infinities, complex."""
    return st.one_of(st.booleans(), st.integers(-2**70, 2**70),
                     st.sampled_from([2**63, 2**64 - 1, 2**64, -2**63 - 1, 300, -1, 65536]),
                     st.floats(allow_nan=True, allow_infinity=True),
                     st.sampled_from([3.7, -1.5, 1e300, 65520.0]),
                     st.complex_numbers(allow_nan=True, allow_infinity=True))


@st.composite
def numpy_scalars(draw, dt):
    """NumPy scalars whose dtype casts safely to `dt` (NumPy's conversions
    of other NumPy scalars depend on the code path they take)."""
    src = draw(st.sampled_from([d for d in ALL_DTYPES if np.can_cast(d, dt)]))
    return np.asarray(draw(elements(src)), dtype=src)[()]


@given(data=st.data())
def test_setitem_scalar(data):
    """Assigning a Python or NumPy scalar: converted as NumPy converts it
    (OverflowError for Python ints out of range, ValueError for NaN into
    integers, TypeError for complex into real), into every element of the
    indexed view."""
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(), label="shape")), label="arrays")
    index = data.draw(basic_indices(x.shape), label="index")
    value = data.draw(st.one_of(python_scalars(), numpy_scalars(dt)), label="value")

    def numpy_set():
        x[index] = value
        return True

    def gpunp_set():
        g[index] = value
    if same_outcome(numpy_set, gpunp_set)[1]:
        np.testing.assert_array_equal(host(g), x, strict=True)


@given(data=st.data())
def test_setitem_array(data):
    """Assigning a gpunp array: broadcast to the view, cast unsafely."""
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(), label="shape")), label="arrays")
    index = data.draw(basic_indices(x.shape), label="index")
    if not numpy_index_shape_ok(x, index):
        return  # the index errors are test_getitem's
    target = np.shape(x[index])
    # a shape that broadcasts to the view's (or, rarely, one that does not)
    vshape = tuple(data.draw(st.sampled_from([s, 1])) for s in target)
    vshape = vshape[data.draw(st.integers(0, len(vshape))):]
    if data.draw(st.integers(0, 9)) == 0:
        vshape = (1,) * data.draw(st.integers(0, 2)) + data.draw(shapes(max_dims=3))
    vdt = data.draw(dtypes(), label="value dtype")
    gv, xv = data.draw(device_arrays(vdt, vshape), label="value")

    def numpy_set():
        x[index] = xv
        return True

    def gpunp_set():
        g[index] = gv
    if same_outcome(numpy_set, gpunp_set)[1] and not _undefined_cast(xv, dt):
        # (NaN, inf or out of range into an integer: C leaves the value
        # undefined, NumPy's depends on its code path)
        np.testing.assert_array_equal(host(g), x, strict=True)


def _undefined_cast(values, dt):
    """Whether a float value out of the integer dtype's range is cast (C
    leaves the result undefined; NumPy's depends on the code path)."""
    dt = np.dtype(dt)
    if dt.kind not in "iu" or values.dtype.kind not in "fc" or values.size == 0:
        return False
    info = np.iinfo(dt)
    with quiet():
        v = np.trunc(np.real(values).astype(np.float64))
        return bool((~np.isfinite(v) | (v < float(info.min)) | (v >= float(info.max) + 1)).any())


@given(data=st.data())
def test_setitem_overlapping(data):
    """Source and destination in the same memory (a[1:] = a[:-1] and any
    other pair of views): the result is as if the source were copied first."""
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(min_dims=1), label="shape")),
                     label="arrays")
    dst = data.draw(basic_indices(x.shape), label="destination")
    src = data.draw(basic_indices(x.shape), label="source")
    if not (numpy_index_shape_ok(x, dst) and numpy_index_shape_ok(x, src)):
        return  # the index errors are test_getitem's

    def numpy_set():
        x[dst] = x[src]
        return True

    def gpunp_set():
        g[dst] = g[src]
    if same_outcome(numpy_set, gpunp_set)[1]:
        np.testing.assert_array_equal(host(g), x, strict=True)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_setitem_shift(dt):
    x = np.arange(7).astype(dt)
    g = gp.asarray(x)
    x[1:] = x[:-1]
    g[1:] = g[:-1]
    np.testing.assert_array_equal(host(g), x)
    x[:-2] = x[2:]
    g[:-2] = g[2:]
    np.testing.assert_array_equal(host(g), x)
    x[::-1] = x[:]
    g[::-1] = g[:]
    np.testing.assert_array_equal(host(g), x)


@st.composite
def nested_lists(draw, shape):
    """A nested list of Python scalars of `shape`."""
    if not shape:
        return draw(python_scalars())
    return [draw(nested_lists(shape[1:])) for _ in range(shape[0])]


@given(data=st.data())
def test_setitem_list(data):
    """Assigning nested lists: NumPy's conversion of every element to the
    array's dtype (and its errors), broadcasting, a sequence into a single
    element refused."""
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(max_dims=3), label="shape")),
                     label="arrays")
    index = data.draw(basic_indices(x.shape), label="index")
    if not numpy_index_shape_ok(x, index):
        return
    target = np.shape(x[index])
    lshape = target[data.draw(st.integers(0, len(target))):]
    if data.draw(st.integers(0, 9)) == 0:
        lshape = data.draw(shapes(max_dims=2, max_side=3))
    value = data.draw(nested_lists(lshape), label="list")

    def numpy_set():
        x[index] = value
        return True

    def gpunp_set():
        g[index] = value
    # after an error NumPy may have stored the elements before the bad one;
    # only the error is compared then
    if same_outcome(numpy_set, gpunp_set)[1]:
        np.testing.assert_array_equal(host(g), x, strict=True)


def test_setitem_read_only():
    """The imaginary part of a real array is read-only: NumPy's ValueError."""
    x, g = np.zeros(3), gp.zeros(3)

    def numpy_set():
        x.imag[...] = 1

    def gpunp_set():
        g.imag[...] = 1
    same_outcome(numpy_set, gpunp_set)


# ---- conversions to Python objects -------------------------------------------------------------

@given(data=st.data())
def test_len_iter_tolist(data):
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(), label="shape")), label="arrays")
    got, want = same_outcome(lambda: len(x), lambda: len(g))
    assert got == want
    got, want = same_outcome(lambda: list(x), lambda: list(g))
    if want is not None:
        assert len(got) == len(want)
        for a, b in zip(got, want):
            np.testing.assert_array_equal(host(a), np.asarray(b), strict=True)
    assert _same_nested(g.tolist(), x.tolist())


@given(data=st.data())
def test_in_matches_numpy(data):
    """`v in a` is NumPy's `(a == v).any()`: v broadcasts against a (a row
    of a 2-d array, or a shape that does not broadcast), and not Python's
    iteration, which asks each row for its truth."""
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(), label="shape")), label="arrays")
    picks = [elements(dt), st.sampled_from([0, 1, -1, 2.5, float("nan"), None, "x", [0, 1]])]
    if x.size:
        picks.append(st.sampled_from(list(x.flat)))
        picks.append(st.just(x[(0,) * (x.ndim - 1)].tolist()))
    value = data.draw(st.one_of(picks), label="value")
    got, want = same_outcome(lambda: value in x, lambda: value in g)
    assert got is want


def _same_nested(a, b):
    if isinstance(b, list):
        return isinstance(a, list) and len(a) == len(b) and all(map(_same_nested, a, b))
    same_value = a == b or (a != a and b != b) or (
        isinstance(b, complex) and np.isclose(a, b, rtol=0, atol=0, equal_nan=True))
    return type(a) is type(b) and bool(same_value)


ITEM_ARGS = st.one_of(
    st.just(()),
    st.tuples(st.integers(-30, 30)),
    st.tuples(st.tuples(st.integers(-5, 5))),
    st.lists(st.integers(-5, 5), max_size=5).map(tuple),
    st.lists(st.integers(-5, 5), max_size=5).map(lambda v: (tuple(v),)),
    st.sampled_from([(True,), (1.0,), ([0, 1],), (np.int8(1),)]),
)


@given(data=st.data())
def test_item(data):
    """a.item(): no index for a size-1 array, one int for a flat (C order)
    index, a tuple or several ints for one index per dimension; NumPy's
    IndexError, ValueError and TypeError otherwise."""
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(max_side=3), label="shape")),
                     label="arrays")
    args = data.draw(ITEM_ARGS, label="args")
    got, want = same_outcome(lambda: x.item(*args), lambda: g.item(*args))
    if want is not None or got is not None:
        assert _same_nested(got, want), f"{got!r} != NumPy's {want!r}"


CONVERSIONS = [bool, int, float, complex, operator.index]


@pytest.mark.parametrize("convert", CONVERSIONS, ids=lambda f: f.__name__)
@given(data=st.data())
def test_scalar_conversions(convert, data):
    """bool() of a size-1 array (any ndim), int()/float()/complex() of a 0-d
    one, operator.index of a 0-d integer one; NumPy's errors otherwise
    (complex to int or float is a TypeError, NaN to int a ValueError)."""
    dt = data.draw(dtypes(), label="dtype")
    shape = data.draw(st.one_of(st.just(()), shapes(max_side=2)), label="shape")
    g, x = data.draw(device_arrays(dt, shape), label="arrays")
    got, want = same_outcome(lambda: convert(x), lambda: convert(g))
    if want is not None:
        assert _same_nested(got, want), f"{got!r} != NumPy's {want!r}"
