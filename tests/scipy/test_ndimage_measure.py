"""gpunp.scipy.ndimage's measurements against scipy.ndimage: every reading
of index= (None, a scalar, a list, an array with absent labels), what each
returns (NumPy scalars, gpunp arrays, tuples, lists of tuples), dtypes,
and SciPy's exceptions."""

import numpy as np
import pytest
import scipy.ndimage as ndi

import gpunp as gp
import gpunp.scipy.ndimage as gndi

RNG = np.random.default_rng(41)
# distinct values, so a position is the same whichever of SciPy's sorts ran
X = (RNG.permutation(42).reshape(6, 7) * 1.5)
LAB = RNG.integers(0, 5, (6, 7))
INDEXES = [None, 2, 9, [1, 2, 3], np.array([[3, 0], [7, 1]]), [4]]
STATS = ["sum_labels", "sum", "mean", "variance", "standard_deviation"]
ORDER = ["minimum", "maximum", "median", "minimum_position", "maximum_position", "extrema"]


def same(g, w, rtol, in_tuple=False):
    """gpunp's answer g is SciPy's w: arrays are gpunp arrays, except inside
    the tuples of a list (center_of_mass of a 2-d index), which are host data
    as SciPy's positions are."""
    if isinstance(w, (list, tuple)):
        assert type(g) is type(w) and len(g) == len(w), (g, w)
        for a, b in zip(g, w):
            same(a, b, rtol, in_tuple or isinstance(w, list))
    elif isinstance(w, np.ndarray):
        assert isinstance(g, np.ndarray if in_tuple else gp.ndarray), type(g)
        g = g if in_tuple else g.get()
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape, w.shape)
        np.testing.assert_allclose(g, w, rtol=rtol)
    else:
        assert type(g) is type(w), (type(g), type(w), g, w)
        np.testing.assert_allclose(g, w, rtol=rtol)


def run(name, x, labels, index, rtol=1e-12):
    dev = None if labels is None else gp.asarray(labels)
    with np.errstate(invalid="ignore", divide="ignore"):  # 0 / 0 of an absent label
        w = getattr(ndi, name)(x, labels, index)
        g = getattr(gndi, name)(gp.asarray(x), dev, index)
    same(g, w, rtol)


@pytest.mark.filterwarnings("ignore:Mean of empty slice")  # SciPy's, for an absent label
@pytest.mark.parametrize("name", STATS + ORDER + ["center_of_mass"])
@pytest.mark.parametrize("index", INDEXES, ids=str)
def test_float64(name, index):
    if isinstance(index, int) and index == 9 and name in ORDER[:2] + ORDER[3:]:
        with pytest.raises(ValueError):  # an empty group has no extremes
            getattr(gndi, name)(gp.asarray(X), gp.asarray(LAB), index)
        return
    run(name, X, LAB, index)


# every dtype, each through a few of the functions (a dtype's first use
# compiles its kernels: the whole matrix would cost minutes of CI)
DTYPE_CALLS = {
    np.int8: [("sum_labels", None), ("median", [1, 2, 7])],
    np.uint16: [("mean", [1, 3]), ("maximum_position", 3)],
    np.int64: [("variance", 2), ("minimum", [0, 4])],
    np.float32: [("extrema", None), ("median", 3), ("standard_deviation", [1, 2])],
    bool: [("maximum", None), ("sum_labels", [1, 2])],
}


@pytest.mark.parametrize("dtype", list(DTYPE_CALLS), ids=lambda d: np.dtype(d).name)
def test_dtypes(dtype):
    x = (X % 7 > 2) if dtype is bool else X.astype(dtype)
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    for name, index in DTYPE_CALLS[dtype]:
        run(name, x, LAB, index, rtol)


def test_labels_of_other_kinds():
    # negative, float and far-apart labels take SciPy's other path
    run("mean", X, LAB - 2, [-2, 0, 1])
    run("sum_labels", X, LAB * 1000.5, [0.0, 1000.5, 7.0])
    run("minimum", X, LAB * 10**6, np.array([10**6, 3 * 10**6]))
    run("median", X, LAB - 2, [-1, 5])
    # labels broadcast against the input
    run("sum_labels", X, LAB[:1], [1, 2])
    run("minimum_position", X, LAB[:, :1], 2)
    with pytest.raises(ValueError, match="same shape"):
        gndi.mean(gp.asarray(X), gp.asarray(LAB[:3, :2]))


def test_ties_take_the_first_position():
    x = np.array([[3, 1, 1], [5, 5, 0]])
    lab = np.array([[1, 1, 1], [1, 1, 2]])
    for index in (None, 1):
        run("minimum_position", x, lab, index)
        run("maximum_position", x, lab, index)
        run("extrema", x, lab, index)
    run("maximum_position", x, None, None)
    # in an index array SciPy's unstable sort picks any; gpunp picks the first
    got = gndi.maximum_position(gp.asarray(x), gp.asarray(lab), [1, 2])
    assert got == [(1, 0), (1, 2)]


def test_center_of_mass_shapes():
    run("center_of_mass", X, None, None)
    run("center_of_mass", X[0], LAB[0], [1, 2])
    run("center_of_mass", X.reshape(2, 3, 7), LAB.reshape(2, 3, 7), 3)


def test_labeled_comprehension_and_histogram():
    x, lab = gp.asarray(X), gp.asarray(LAB)
    for index in ([1, 2, 9], 3, np.array([4, 0])):
        w = ndi.labeled_comprehension(X, LAB, index, np.mean, float, -1.0)
        g = gndi.labeled_comprehension(x, lab, index, gp.mean, float, -1.0)
        same(g, w, 1e-12)
    w = ndi.labeled_comprehension(X, LAB, [1, 2], lambda v, p: p.max(), np.int64, 0,
                                  pass_positions=True)
    same(gndi.labeled_comprehension(x, lab, [1, 2], lambda v, p: p.max(), np.int64, 0,
                                    pass_positions=True), w, 0)
    assert float(gndi.labeled_comprehension(x, None, None, gp.sum, float, 0)) == X.sum()
    assert float(gndi.labeled_comprehension(x, lab, None, gp.sum, float, 0)) == \
        ndi.labeled_comprehension(X, LAB, None, np.sum, float, 0)
    with pytest.raises(ValueError, match="index without defined labels"):
        gndi.labeled_comprehension(x, None, 1, gp.sum, float, 0)
    with pytest.raises(ValueError, match="without loss of precision"):
        gndi.labeled_comprehension(x, lab, [1.5], gp.sum, float, 0)
    w = ndi.histogram(X, 0, 60, 6, LAB, [1, 2, 9])
    g = gndi.histogram(x, 0, 60, 6, lab, [1, 2, 9])
    assert g.dtype == object and g[2] is None
    for a, b in zip(g[:2], w[:2]):
        np.testing.assert_array_equal(a.get(), b)
    np.testing.assert_array_equal(gndi.histogram(x, 0, 60, 4).get(), ndi.histogram(X, 0, 60, 4))
    np.testing.assert_array_equal(gndi.histogram(x, 0, 60, 4, lab, 2).get(),
                                  ndi.histogram(X, 0, 60, 4, LAB, 2))
