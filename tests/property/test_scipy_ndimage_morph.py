"""Property tests of gpunp.scipy.ndimage's binary morphology, labels,
distance transforms and measurements against scipy.ndimage: random masks
(empty and full among them) of 1 to 3 dimensions, random structures,
origins, masks and iteration counts, random labels and indexes."""

import numpy as np
import pytest
import scipy.ndimage as ndi
from hypothesis import given, settings, strategies as st

import gpunp as gp
import gpunp.scipy.ndimage as gndi


@st.composite
def masks(draw, max_dims=3):
    nd = draw(st.integers(1, max_dims))
    shape = tuple(draw(st.lists(st.integers(1, 7), min_size=nd, max_size=nd)))
    kind = draw(st.sampled_from(["random", "random", "random", "empty", "full"]))
    if kind == "empty":
        return np.zeros(shape, bool)
    if kind == "full":
        return np.ones(shape, bool)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return rng.random(shape) < draw(st.sampled_from([0.2, 0.5, 0.8]))


@st.composite
def structures(draw, nd, size3=False, symmetric=False):
    shape = (3,) * nd if size3 else tuple(draw(st.lists(st.integers(1, 3), min_size=nd,
                                                        max_size=nd)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    s = rng.random(shape) < 0.5
    if symmetric:
        s |= s[(slice(None, None, -1),) * nd]
    return s


def same(g, w):
    assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape, w.shape)
    np.testing.assert_array_equal(g.get(), w)


@settings(max_examples=25)
@given(st.data())
def test_binary_morphology(data):
    a = data.draw(masks())
    s = data.draw(structures(a.ndim))
    origin = [data.draw(st.integers(-(n // 2), (n - 1) // 2)) for n in s.shape]
    it = data.draw(st.sampled_from([1, 2, 0]))
    bv = data.draw(st.integers(0, 1))
    mask = data.draw(masks()) if data.draw(st.booleans()) else None
    if mask is not None and mask.shape != a.shape:
        mask = None
    name = data.draw(st.sampled_from(["binary_erosion", "binary_dilation", "binary_opening",
                                      "binary_closing"]))
    kw = dict(iterations=it, border_value=bv, origin=origin)
    w = getattr(ndi, name)(a, s, mask=mask, **kw)
    g = getattr(gndi, name)(gp.asarray(a), s, mask=None if mask is None else gp.asarray(mask),
                            **kw)
    same(g, w)


@settings(max_examples=15)
@given(st.data())
def test_fill_holes_propagation_hit_or_miss(data):
    a = data.draw(masks())
    s = data.draw(structures(a.ndim, size3=True))
    same(gndi.binary_fill_holes(gp.asarray(a), s), ndi.binary_fill_holes(a, s))
    seed = data.draw(masks())
    if seed.shape == a.shape:
        same(gndi.binary_propagation(gp.asarray(seed), s, gp.asarray(a)),
             ndi.binary_propagation(seed, s, a))
    same(gndi.binary_hit_or_miss(gp.asarray(a), s), ndi.binary_hit_or_miss(a, s))


@settings(max_examples=25)
@given(st.data())
def test_label(data):
    a = data.draw(masks())
    s = data.draw(structures(a.ndim, size3=True, symmetric=True))
    g, n = gndi.label(gp.asarray(a), s)
    w, m = ndi.label(a, s)
    assert n == m
    same(g, w)
    assert gndi.find_objects(g) == ndi.find_objects(w)


def implied(ind, shape, metric):
    d = (ind - np.indices(shape)).astype(float)
    if metric == "euclidean":
        return np.sqrt((d * d).sum(0))
    return np.abs(d).sum(0) if metric == "taxicab" else np.abs(d).max(0)


@settings(max_examples=25)
@given(st.data())
def test_distance_transforms(data):
    a = data.draw(masks())
    gd, gi = gndi.distance_transform_edt(gp.asarray(a), return_indices=True)
    wd, wi = ndi.distance_transform_edt(a, return_indices=True)
    same(gd, wd)
    if not a.all():  # the feature named is background and exactly as near
        np.testing.assert_array_equal(implied(gi.get(), a.shape, "euclidean"), wd)
        assert not a[tuple(gi.get())].any()
    metric = data.draw(st.sampled_from(["chessboard", "taxicab"]))
    gd, gi = gndi.distance_transform_cdt(gp.asarray(a), metric, return_indices=True)
    wd, wi = ndi.distance_transform_cdt(a, metric, return_indices=True)
    same(gd, wd)
    reached = wd >= 0
    np.testing.assert_array_equal(implied(gi.get(), a.shape, metric)[reached], wd[reached])
    s = data.draw(structures(a.ndim, size3=True, symmetric=True))
    same(gndi.distance_transform_cdt(gp.asarray(a), s), ndi.distance_transform_cdt(a, s))


@pytest.mark.filterwarnings("ignore:Mean of empty slice")  # SciPy's, for an absent label
@settings(max_examples=20)
@given(st.data())
def test_measurements(data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    shape = tuple(data.draw(st.lists(st.integers(1, 6), min_size=1, max_size=3)))
    size = int(np.prod(shape))
    x = (rng.permutation(size).reshape(shape) - size // 3).astype(
        data.draw(st.sampled_from([np.float64, np.int32])))
    labels = rng.integers(data.draw(st.sampled_from([0, -2])), 5, shape)
    index = data.draw(st.sampled_from([None, 1, "list"]))
    if index == "list":
        index = list(rng.integers(-3, 7, data.draw(st.integers(1, 4))))
    name = data.draw(st.sampled_from(["sum_labels", "mean", "variance", "minimum", "maximum",
                                      "median", "minimum_position", "maximum_position",
                                      "center_of_mass"]))
    with np.errstate(invalid="ignore", divide="ignore"):
        try:
            w = getattr(ndi, name)(x, labels, index)
        except ValueError:  # an empty group has no extremes
            w = ValueError
        if w is ValueError:
            try:
                getattr(gndi, name)(gp.asarray(x), gp.asarray(labels), index)
            except ValueError:
                return
            raise AssertionError("no ValueError")
        g = getattr(gndi, name)(gp.asarray(x), gp.asarray(labels), index)
    if isinstance(w, np.ndarray):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g.get(), w, rtol=1e-12)
    else:
        if isinstance(w, list):
            assert isinstance(g, list) and len(g) == len(w)
        np.testing.assert_allclose(np.array(g, float), np.array(w, float), rtol=1e-12)
