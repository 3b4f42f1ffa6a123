"""Property tests of the index tricks against NumPy: tril_indices,
triu_indices and their _from forms, diag_indices(_from), mask_indices,
fill_diagonal, putmask, mgrid, ogrid, r_, c_, s_, index_exp, ndindex,
ndenumerate, apply_along_axis, apply_over_axes and piecewise. Results must
have NumPy's values, dtype and shape (in-place functions: the array after the
call); where NumPy raises, gpunp raises the same kind of error."""

from __future__ import annotations

import numpy as np
from hypothesis import given, strategies as st

import gpunp as gp

from .outcome import same_outcome
from .strategies import assert_same, device_arrays, dtypes, shapes
from .test_shaping import an_array, assert_all_same


def _check(numpy_call, gpunp_call, many=False):
    got, want = same_outcome(numpy_call, gpunp_call)
    if want is not None:
        (assert_all_same if many else assert_same)(got, want)


# ---- index arrays ------------------------------------------------------------------------

@given(n=st.integers(-2, 6), k=st.integers(-7, 7), m=st.none() | st.integers(-2, 6),
       upper=st.booleans())
def test_triangle_indices_match_numpy(n, k, m, upper):
    name = "triu_indices" if upper else "tril_indices"
    _check(lambda: getattr(np, name)(n, k, m), lambda: getattr(gp, name)(n, k, m), many=True)


@given(data=st.data(), k=st.integers(-6, 6), upper=st.booleans())
def test_triangle_indices_from_match_numpy(data, k, upper):
    g, h = data.draw(an_array(0, 3, max_side=5))
    name = "triu_indices_from" if upper else "tril_indices_from"
    _check(lambda: getattr(np, name)(h, k), lambda: getattr(gp, name)(g, k), many=True)
    # numpy's function routes a gpunp array to gpunp
    _check(lambda: getattr(np, name)(h, k), lambda: getattr(np, name)(g, k), many=True)


@given(n=st.integers(0, 5), ndim=st.integers(0, 4))
def test_diag_indices_match_numpy(n, ndim):
    _check(lambda: np.diag_indices(n, ndim), lambda: gp.diag_indices(n, ndim), many=True)


@given(data=st.data(), n=st.integers(0, 3), nd=st.integers(0, 4))
def test_diag_indices_from_match_numpy(data, n, nd):
    sides = data.draw(st.sampled_from([(n,) * nd, tuple(range(1, nd + 1))]), label="shape")
    g, h = data.draw(device_arrays(data.draw(dtypes()), sides))
    _check(lambda: np.diag_indices_from(h), lambda: gp.diag_indices_from(g), many=True)


@given(n=st.integers(0, 6), k=st.integers(-7, 7), upper=st.booleans())
def test_mask_indices_match_numpy(n, k, upper):
    _check(lambda: np.mask_indices(n, np.triu if upper else np.tril, k),
           lambda: gp.mask_indices(n, gp.triu if upper else gp.tril, k), many=True)


# ---- filling in place ------------------------------------------------------------------------

def _values_for(data, dt, max_size=5):
    """A scalar, a list or a device array of values (possibly empty)."""
    kind = data.draw(st.sampled_from(["scalar", "array"]), label="values kind")
    if kind == "scalar":
        return (lambda v: (v, v))(data.draw(st.integers(-3, 3), label="value"))
    g, h = data.draw(device_arrays(data.draw(dtypes("biuf"), label="values dtype"),
                                   data.draw(shapes(0, 2, max_side=max_size))), label="values")
    return g, h


@given(data=st.data(), wrap=st.booleans())
def test_fill_diagonal_matches_numpy(data, wrap):
    dt = data.draw(dtypes())
    nd = data.draw(st.integers(0, 4), label="ndim")
    if nd == 2 or data.draw(st.booleans()):
        shape = data.draw(shapes(nd, nd, max_side=6), label="shape")
    else:
        shape = (data.draw(st.integers(0, 3)),) * nd
    g, h = data.draw(device_arrays(dt, shape))
    gv, hv = _values_for(data, dt)
    h = h.copy()
    _check(lambda: (np.fill_diagonal(h, hv, wrap=wrap), h)[1],
           lambda: (gp.fill_diagonal(g, gv, wrap=wrap), g)[1])


@given(data=st.data())
def test_putmask_matches_numpy(data):
    dt = data.draw(dtypes())
    g, h = data.draw(an_array(0, 3, max_side=4, kinds=dt.kind))
    h = h.copy()
    msize = data.draw(st.sampled_from([h.size, h.size, max(h.size - 1, 0), h.size + 1]))
    mask = data.draw(st.lists(st.booleans(), min_size=msize, max_size=msize), label="mask")
    mshape = h.shape if msize == h.size and data.draw(st.booleans()) else (msize,)
    hm = np.array(mask, bool).reshape(mshape)
    gm = gp.asarray(hm)
    gv, hv = _values_for(data, dt)
    via_numpy = data.draw(st.booleans(), label="through numpy.putmask")
    _check(lambda: (np.putmask(h, hm, hv), h)[1],
           lambda: ((np if via_numpy else gp).putmask(g, gm, gv), g)[1])


# ---- grids --------------------------------------------------------------------------------

def _bound():
    return st.one_of(st.none(), st.integers(-4, 6), st.sampled_from([0.5, -1.5, 2.25]))


def _step():
    return st.one_of(st.none(), st.sampled_from([1, 2, -1, 3, 0.5, -0.75]),
                     st.integers(0, 6).map(lambda n: complex(0, n)))


@st.composite
def _grid_slice(draw):
    start, step = draw(_bound()), draw(_step())
    stop = draw(st.integers(-4, 6) | st.sampled_from([0.5, 3.5]))
    if step == 0:
        step = None
    return slice(start, stop, step)


@given(data=st.data(), sparse=st.booleans())
def test_grids_match_numpy(data, sparse):
    key = data.draw(st.one_of(_grid_slice(), st.lists(_grid_slice(), max_size=3).map(tuple)),
                    label="key")
    g, h = (gp.ogrid, np.ogrid) if sparse else (gp.mgrid, np.mgrid)
    got, want = same_outcome(lambda: h[key], lambda: g[key])
    if want is None:
        return
    if isinstance(want, np.ndarray):
        assert_same(got, want)
    else:
        assert_all_same(got, want)


@st.composite
def _concat_item(draw):
    choice = draw(st.sampled_from(["slice", "scalar", "array", "list"]))
    if choice == "slice":
        return (lambda s: (s, s))(draw(_grid_slice()))
    if choice == "scalar":
        return (lambda v: (v, v))(draw(st.sampled_from([1, -2, 2.5, True, 1j])))
    if choice == "list":
        return (lambda v: (v, v))(draw(st.lists(st.integers(-3, 3), max_size=3)))
    dt = draw(dtypes("biuf"))
    return draw(device_arrays(dt, draw(shapes(0, 2, max_side=3))))


@given(data=st.data(), column=st.booleans())
def test_concatenators_match_numpy(data, column):
    items = data.draw(st.lists(_concat_item(), max_size=3), label="items")
    directive = data.draw(st.sampled_from([None, "0", "-1", "1", "0,2", "1,2", "0,2,0",
                                           "-1,3,1", "0,2,-1", "r", "c", "x", "1,y"]),
                          label="directive")
    gkey = tuple(i[0] for i in items)
    hkey = tuple(i[1] for i in items)
    if directive is not None:
        gkey, hkey = (directive,) + gkey, (directive,) + hkey
    g, h = (gp.c_, np.c_) if column else (gp.r_, np.r_)
    got, want = same_outcome(lambda: np.asarray(h[hkey]), lambda: g[gkey])
    if want is not None:
        assert_same(got, want)


def test_directive_after_the_first_entry_is_refused():
    _check(lambda: np.r_[1, "0,2"], lambda: gp.r_[1, "0,2"])


def test_expression_objects_are_numpys():
    assert gp.s_[1:2, ...] == np.s_[1:2, ...]
    assert gp.index_exp[3] == np.index_exp[3]
    assert list(gp.ndindex(2, 3)) == list(np.ndindex(2, 3))


@given(data=st.data())
def test_ndenumerate_matches_numpy(data):
    g, h = data.draw(an_array(0, 3))
    got, want = list(gp.ndenumerate(g)), list(np.ndenumerate(h))
    assert len(got) == len(want)
    for (gi, gv), (hi, hv) in zip(got, want):
        assert gi == hi and type(gv) is type(hv)
        assert gv == hv or (gv != gv and hv != hv)


# ---- Python-level loops ----------------------------------------------------------------------

_FUNCS1D = {
    "sum": (lambda v: np.sum(v), lambda v: gp.sum(v)),
    "head twice": (lambda v: v[:2] * 2, lambda v: v[:2] * 2),
    "outer": (lambda v: np.outer(v, v), lambda v: gp.outer(v, v)),
    "float scalar": (lambda v: 1.5, lambda v: 1.5),
    "cumsum": (lambda v: np.cumsum(v), lambda v: gp.cumsum(v)),
}


@given(data=st.data(), which=st.sampled_from(sorted(_FUNCS1D)))
def test_apply_along_axis_matches_numpy(data, which):
    g, h = data.draw(an_array(0, 3, kinds="biuf"))
    axis = data.draw(st.integers(-h.ndim - 1, h.ndim), label="axis")
    hf, gf = _FUNCS1D[which]
    via_numpy = data.draw(st.booleans(), label="through numpy.apply_along_axis")
    _check(lambda: np.apply_along_axis(hf, axis, h),
           lambda: (np if via_numpy else gp).apply_along_axis(gf, axis, g))


@given(data=st.data(), name=st.sampled_from(["sum", "max", "mean"]))
def test_apply_over_axes_matches_numpy(data, name):
    g, h = data.draw(an_array(1, 3, kinds="iuf"))
    axes = data.draw(st.integers(-h.ndim, h.ndim - 1) |
                     st.lists(st.integers(-h.ndim, h.ndim - 1), max_size=3), label="axes")
    _check(lambda: np.apply_over_axes(getattr(np, name), h, axes),
           lambda: gp.apply_over_axes(getattr(gp, name), g, axes))


def test_apply_over_axes_refuses_a_shape_it_cannot_restore():
    _check(lambda: np.apply_over_axes(lambda a, ax: np.ravel(a), np.ones((2, 3)), [0]),
           lambda: gp.apply_over_axes(lambda a, ax: gp.ravel(a), gp.ones((2, 3)), [0]))


@given(data=st.data(), extra=st.integers(-1, 2))
def test_piecewise_matches_numpy(data, extra):
    g, h = data.draw(an_array(0, 2, kinds="if"))
    n = data.draw(st.integers(0, 3), label="conditions")
    thresholds = data.draw(st.lists(st.integers(-5, 5), min_size=n, max_size=n))
    pieces = [(3, 3), (lambda v: v * 2, lambda v: v * 2), (-1.5, -1.5),
              (lambda v: v - 1, lambda v: v - 1)]
    funcs = data.draw(st.lists(st.sampled_from(range(4)), min_size=max(n + extra, 0),
                               max_size=max(n + extra, 0)), label="functions")
    hfuncs, gfuncs = [pieces[i][0] for i in funcs], [pieces[i][1] for i in funcs]
    form = data.draw(st.sampled_from(["list", "one", "scalar"]), label="condlist form")
    if form == "scalar" or (form == "one" and n == 0):
        flag = data.draw(st.booleans())
        hc = gc = flag
    elif form == "one":
        hc, gc = h > thresholds[0], g > thresholds[0]
    else:
        hc, gc = [h > t for t in thresholds], [g > t for t in thresholds]
    _check(lambda: np.piecewise(h, hc, hfuncs), lambda: gp.piecewise(g, gc, gfuncs))
