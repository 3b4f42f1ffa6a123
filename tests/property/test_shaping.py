"""Property tests of rearranging arrays against NumPy: split, array_split,
hsplit/vsplit/dsplit, tile, repeat (and ndarray.repeat), flip/fliplr/flipud,
roll, rot90, moveaxis, rollaxis, broadcast_to/arrays/shapes, append, resize,
trim_zeros and copyto (casting=, where=). Results must have NumPy's values,
dtype and shape; where NumPy raises, gpunp raises the same kind of error."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp

from .outcome import quiet, same_outcome
from .strategies import ALL_DTYPES, assert_same, broadcastable_shapes, device_arrays, dtypes, shapes

# "unsafe" would cast NaN and out-of-range floats to ints, which C leaves undefined:
# test_copyto_unsafe takes values that fit
CASTINGS = ["no", "equiv", "safe", "same_kind"]


def assert_all_same(got, want):
    """A list or tuple of results against NumPy's (meshgrid gives a list up to
    NumPy 2.4, a tuple from 2.5: either kind of sequence is NumPy's)."""
    assert isinstance(got, (list, tuple)) and isinstance(want, (list, tuple))
    assert len(got) == len(want)
    for x, y in zip(got, want):
        assert_same(x, y)


@st.composite
def an_array(draw, min_dims=0, max_dims=3, max_side=4, kinds="biufc"):
    dt = draw(dtypes(kinds), label="dtype")
    return draw(device_arrays(dt, draw(shapes(min_dims, max_dims, max_side=max_side),
                                       label="shape")), label="array")


def _axis(data, ndim, extra=1):
    return data.draw(st.integers(-ndim - extra, ndim - 1 + extra), label="axis")


def axis_tuples(nd, max_size=3):
    """Tuples of axes, mostly in range (any, for a 0-d array)."""
    return st.lists(st.integers(-nd, max(nd - 1, 0)), max_size=max_size).map(tuple)


def _axis_arg(data, nd):
    """None, an int axis (sometimes out of range) or a tuple of axes."""
    return data.draw(st.one_of(st.none(), st.integers(-nd - 1, nd), axis_tuples(nd)),
                     label="axis")


def _check(numpy_call, gpunp_call, many=False):
    got, want = same_outcome(numpy_call, gpunp_call)
    if want is not None:
        (assert_all_same if many else assert_same)(got, want)


# ---- splitting -------------------------------------------------------------------------

@given(data=st.data())
def test_split_and_array_split_match_numpy(data):
    g, h = data.draw(an_array())
    axis = _axis(data, h.ndim)
    how = data.draw(st.one_of(st.integers(-1, 5),
                              st.lists(st.integers(-6, 6), max_size=4)), label="sections")
    for name in ("split", "array_split"):
        _check(lambda: getattr(np, name)(h, how, axis=axis),
               lambda: getattr(gp, name)(g, how, axis=axis), many=True)


# what is not an array goes to NumPy and gpunp as it is; a 0-d array as each's own
_SPLIT_ARGUMENTS = {"int": 3, "float": -1.5, "numpy scalar": np.float64(3), "0-d array": None,
                    "list": [1, 2, 3], "nested list": [[1, 2, 3], [4, 5, 6]]}


@pytest.mark.parametrize("name", ["split", "array_split"])
@pytest.mark.parametrize("arg", list(_SPLIT_ARGUMENTS))
@pytest.mark.parametrize("how", [1, 3, [1]])
@pytest.mark.parametrize("axis", [0, 1, 5])
def test_split_of_scalars_lists_and_0d_arrays_matches_numpy(name, arg, how, axis):
    """NumPy measures an array by its shape and anything else by len(): a
    scalar is an AttributeError in split (for a number of sections), a
    TypeError in array_split, a 0-d array an IndexError in both."""
    h = g = _SPLIT_ARGUMENTS[arg]
    if arg == "0-d array":
        h, g = np.asarray(3.0), gp.asarray(3.0)
    _check(lambda: getattr(np, name)(h, how, axis=axis),
           lambda: getattr(gp, name)(g, how, axis=axis), many=True)


@pytest.mark.parametrize("name", ["hsplit", "vsplit", "dsplit"])
@given(data=st.data())
def test_hsplit_vsplit_dsplit_match_numpy(name, data):
    g, h = data.draw(an_array(max_dims=4))
    how = data.draw(st.one_of(st.integers(1, 4), st.lists(st.integers(0, 4), max_size=3)),
                    label="sections")
    _check(lambda: getattr(np, name)(h, how), lambda: getattr(gp, name)(g, how), many=True)


# ---- repeating -------------------------------------------------------------------------

@given(data=st.data())
def test_tile_matches_numpy(data):
    g, h = data.draw(an_array())
    reps = data.draw(st.one_of(st.integers(-1, 3),
                               st.lists(st.integers(0, 3), max_size=4).map(tuple)), label="reps")
    _check(lambda: np.tile(h, reps), lambda: gp.tile(g, reps))


@given(data=st.data())
def test_repeat_matches_numpy(data):
    g, h = data.draw(an_array())
    axis = data.draw(st.one_of(st.none(), st.integers(-h.ndim - 1, h.ndim)), label="axis")
    n = h.size if axis is None else (h.shape[axis] if -h.ndim <= axis < h.ndim else 1)
    repeats = data.draw(st.one_of(
        st.integers(-1, 3), st.lists(st.integers(0, 3), min_size=n, max_size=n),
        st.lists(st.integers(-1, 3), max_size=4)), label="repeats")
    _check(lambda: np.repeat(h, repeats, axis=axis), lambda: gp.repeat(g, repeats, axis))
    _check(lambda: h.repeat(repeats, axis), lambda: g.repeat(repeats, axis))


@pytest.mark.parametrize("shape, axis", [((64,), None), ((3, 40, 2), 1), ((40, 3), -2)])
def test_repeat_of_many_different_counts_matches_numpy(shape, axis):
    # many runs of equal counts take the gather road
    rng = np.random.default_rng(len(shape))
    h = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    counts = rng.integers(0, 4, h.size if axis is None else shape[axis])
    g = gp.asarray(h)
    _check(lambda: np.repeat(h, counts, axis), lambda: gp.repeat(g, counts, axis))
    _check(lambda: np.repeat(h, counts, axis), lambda: gp.repeat(g, gp.asarray(counts), axis))


@given(data=st.data())
def test_resize_and_append_match_numpy(data):
    g, h = data.draw(an_array())
    new_shape = data.draw(st.one_of(st.integers(-1, 9), shapes(0, 3, max_side=4)), label="new")
    _check(lambda: np.resize(h, new_shape), lambda: gp.resize(g, new_shape))
    g2, h2 = data.draw(an_array(), label="values")
    axis = data.draw(st.one_of(st.none(), st.integers(-h.ndim - 1, h.ndim)), label="axis")
    _check(lambda: np.append(h, h2, axis=axis), lambda: gp.append(g, g2, axis=axis))


# ---- reversing, rolling, rotating, moving axes ---------------------------------------

@given(data=st.data())
def test_flips_match_numpy(data):
    g, h = data.draw(an_array())
    axis = _axis_arg(data, h.ndim)
    _check(lambda: np.flip(h, axis), lambda: gp.flip(g, axis))
    _check(lambda: np.fliplr(h), lambda: gp.fliplr(g))
    _check(lambda: np.flipud(h), lambda: gp.flipud(g))


@given(data=st.data())
def test_roll_matches_numpy(data):
    g, h = data.draw(an_array())
    axis = _axis_arg(data, h.ndim)
    shift = data.draw(st.one_of(st.integers(-9, 9),
                                st.lists(st.integers(-9, 9), max_size=3).map(tuple)),
                      label="shift")
    _check(lambda: np.roll(h, shift, axis), lambda: gp.roll(g, shift, axis))


@given(data=st.data())
def test_rot90_matches_numpy(data):
    g, h = data.draw(an_array())
    k = data.draw(st.integers(-5, 5), label="k")
    axes = data.draw(st.lists(st.integers(-3, 3), min_size=1, max_size=3).map(tuple),
                     label="axes")
    _check(lambda: np.rot90(h, k, axes), lambda: gp.rot90(g, k, axes))


@given(data=st.data())
def test_moveaxis_and_rollaxis_match_numpy(data):
    g, h = data.draw(an_array(max_dims=4))
    nd = h.ndim
    ax = st.integers(-nd - 1, nd)
    source = data.draw(st.one_of(ax, st.lists(ax, max_size=3)), label="source")
    dest = data.draw(st.one_of(ax, st.lists(ax, max_size=3)), label="destination")
    _check(lambda: np.moveaxis(h, source, dest), lambda: gp.moveaxis(g, source, dest))
    axis, start = data.draw(ax, label="axis"), data.draw(st.integers(-nd - 2, nd + 2))
    _check(lambda: np.rollaxis(h, axis, start), lambda: gp.rollaxis(g, axis, start))


# ---- broadcasting -----------------------------------------------------------------------

@given(data=st.data())
def test_broadcast_to_matches_numpy(data):
    g, h = data.draw(an_array())
    shape = data.draw(st.one_of(
        st.builds(lambda pre, s: pre + s, shapes(0, 2, max_side=3), st.just(h.shape)),
        shapes(0, 4, max_side=4), st.integers(-1, 4)), label="shape")
    got, want = same_outcome(lambda: np.broadcast_to(h, shape), lambda: gp.broadcast_to(g, shape))
    if want is not None:
        assert_same(got, want)
        with pytest.raises(ValueError):  # read-only, as NumPy's
            got[...] = 0


@given(data=st.data())
def test_broadcast_arrays_and_shapes_match_numpy(data):
    bs = data.draw(broadcastable_shapes(data.draw(st.integers(1, 3))), label="shapes")
    input_shapes = list(bs.input_shapes)
    if input_shapes and data.draw(st.integers(0, 4)) == 0:  # now and then, one that cannot fit
        input_shapes[0] = input_shapes[0] + (7,)
    pairs = [data.draw(device_arrays(data.draw(dtypes()), s)) for s in input_shapes]
    g, h = [a for a, _ in pairs], [b for _, b in pairs]
    got, want = same_outcome(lambda: np.broadcast_shapes(*input_shapes),
                             lambda: gp.broadcast_shapes(*input_shapes))
    assert got == want
    _check(lambda: np.broadcast_arrays(*h), lambda: gp.broadcast_arrays(*g), many=True)


# ---- trimming and copying --------------------------------------------------------------

@given(data=st.data())
def test_trim_zeros_matches_numpy(data):
    dt = data.draw(dtypes(), label="dtype")
    shape = data.draw(shapes(0, 3, max_side=5), label="shape")
    # mostly zeros, so that there is something to trim
    values = st.sampled_from([0, 0, 1, -0.0, np.nan] if dt.kind in "fc" else [0, 0, 1])
    h0 = np.asarray(data.draw(st.lists(values, min_size=int(np.prod(shape)),
                                       max_size=int(np.prod(shape)))), dtype=object)
    with np.errstate(all="ignore"):
        hv = h0.reshape(shape).astype(dt)
    g, h = gp.asarray(hv), hv
    trim = data.draw(st.sampled_from(["fb", "bf", "f", "b", "B", "x"]), label="trim")
    nd = h.ndim
    axis = data.draw(st.one_of(st.none(), st.integers(-nd - 1, nd),
                               axis_tuples(nd, 2)), label="axis")
    _check(lambda: np.trim_zeros(h, trim, axis), lambda: gp.trim_zeros(g, trim, axis))


@given(data=st.data())
def test_copyto_matches_numpy(data):
    bs = data.draw(broadcastable_shapes(2, max_dims=3, max_side=3), label="shapes")
    dst_shape = bs.result_shape if data.draw(st.integers(0, 4)) else bs.input_shapes[0]
    gd, hd = data.draw(device_arrays(data.draw(dtypes()), dst_shape), label="dst")
    src = data.draw(st.one_of(
        device_arrays(data.draw(dtypes()), bs.input_shapes[1]),
        st.sampled_from([0, 1, -1, 300, 2**70, True, 1.5, -0.0, np.nan, 2j, 1 + 0j]),
        st.sampled_from([np.int8(3), np.float32(2.5), np.uint64(7), np.complex64(1j)])),
        label="src")
    gs, hs = src if isinstance(src, tuple) else (src, src)
    casting = data.draw(st.sampled_from(CASTINGS), label="casting")
    kw = {"casting": casting}
    if data.draw(st.booleans(), label="where="):
        wshape = data.draw(st.sampled_from([dst_shape, dst_shape[1:], (1,) + dst_shape,
                                            (2,) + dst_shape]), label="where shape")
        gw, hw = data.draw(device_arrays(data.draw(dtypes("bi")), wshape), label="where")
        kw["where"] = (gw, hw)
    got, want = same_outcome(
        lambda: np.copyto(hd, hs, **{k: v[1] if k == "where" else v for k, v in kw.items()}),
        lambda: gp.copyto(gd, gs, **{k: v[0] if k == "where" else v for k, v in kw.items()}))
    assert got is None and want is None
    assert_same(gd, hd)  # written as NumPy wrote (or, after an error, left alone)


@pytest.mark.parametrize("casting", CASTINGS + ["unsafe"])
@pytest.mark.parametrize("src", [0, -1, 300, 2**63, 2**70, -2**70, True, 1.5, np.nan, 2j,
                                 np.int8(3), np.uint64(7), np.float64(1e300)])
def test_copyto_scalar_into_every_dtype(src, casting):
    # every pair, since which check NumPy applies first (the casting rule or
    # the Python int's range) decides the exception
    for dt in ALL_DTYPES:
        hd = np.ones((2,), dt)
        gd = gp.asarray(hd)
        got, want = same_outcome(lambda: np.copyto(hd, src, casting=casting),
                                 lambda: gp.copyto(gd, src, casting=casting))
        assert got is None and want is None
        assert_same(gd, hd)


@given(data=st.data())
def test_copyto_unsafe(data):
    dt = data.draw(dtypes(), label="dst dtype")
    gd, hd = data.draw(device_arrays(dt, (2, 3)), label="dst")
    values = np.array([[0, 1, 1], [7, 100, 2]], data.draw(dtypes(), label="src dtype"))
    mask = np.array(data.draw(st.lists(st.booleans(), min_size=3, max_size=3)))
    with quiet():  # NumPy's ComplexWarning
        np.copyto(hd, values, casting="unsafe", where=mask)
    gp.copyto(gd, gp.asarray(values), casting="unsafe", where=gp.asarray(mask))
    assert_same(gd, hd)
    np.copyto(hd, 1.5, casting="unsafe")
    gp.copyto(gd, 1.5, casting="unsafe")
    assert_same(gd, hd)


def test_shaping_errors_and_dispatch():
    a = gp.asarray(np.arange(6).reshape(2, 3))
    with pytest.raises(ZeroDivisionError):  # NumPy's own error for zero sections
        gp.split(a, 0)
    with pytest.raises(ValueError):
        gp.array_split(a, 0)
    with pytest.raises(IndexError):  # NumPy reads a.shape[axis] first
        gp.array_split(a, 2, axis=2)
    with pytest.raises(TypeError):
        gp.copyto([1, 2], a)
    with pytest.raises(ValueError):
        gp.copyto(a, a, casting="bad")
    with pytest.raises(ValueError):
        gp.repeat(a, [[1, 2]])
    with pytest.raises(ValueError):
        gp.rot90(a, axes=(0,))
    with pytest.raises(TypeError):
        gp.tile(a, 1.5)
    # views, not copies, where NumPy gives views
    v = gp.flip(a)
    assert v.base is a
    assert gp.split(a, 3, axis=1)[1].base is a
    # a per-element repeat of a gpunp array of counts
    assert gp.repeat(a[0], gp.asarray(np.array([2, 0, 1]))).tolist() == [0, 0, 2]
    # NumPy's functions on gpunp arrays run gpunp's (NEP 18)
    for fn, args in [(np.flip, (a,)), (np.roll, (a, 1)), (np.tile, (a, 2)),
                     (np.repeat, (a, 2)), (np.broadcast_to, (a, (3, 2, 3))),
                     (np.resize, (a, 4)), (np.append, (a, a)), (np.moveaxis, (a, 0, 1))]:
        assert isinstance(fn(*args), gp.ndarray), fn
    assert isinstance(np.split(a, 2)[0], gp.ndarray)
    assert np.broadcast_shapes((2, 1), (3,)) == (2, 3)
    assert gp.broadcast_shapes() == () and gp.broadcast_arrays() == ()
    d = gp.zeros(3)
    np.copyto(d, gp.ones(3))
    assert d.tolist() == [1.0, 1.0, 1.0]
