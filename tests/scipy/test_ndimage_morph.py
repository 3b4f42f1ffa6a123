"""gpunp.scipy.ndimage's binary morphology, labels and distance transforms
against scipy.ndimage: fixed inputs through every option, SciPy's result
types and its exceptions for bad input (random inputs are
tests/property/test_scipy_ndimage_morph.py's)."""

import numpy as np
import pytest
import scipy.ndimage as ndi

import gpunp as gp
import gpunp.scipy.ndimage as gndi

RNG = np.random.default_rng(40)
A2 = RNG.random((9, 11)) < 0.6
A3 = RNG.random((4, 5, 6)) < 0.7
S23 = np.array([[1, 0, 1], [1, 1, 0]], bool)

BINARY = ["binary_erosion", "binary_dilation", "binary_opening", "binary_closing"]


def same(g, w):
    if w is None:
        assert g is None
        return
    assert isinstance(g, gp.ndarray), type(g)
    assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape, w.shape)
    np.testing.assert_array_equal(g.get(), w)


def both(name, *args, **kw):
    """gpunp's and SciPy's answers to the same call (gpunp given device
    arrays)."""
    dev = [gp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    dkw = {k: gp.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    return getattr(gndi, name)(*dev, **dkw), getattr(ndi, name)(*args, **kw)


def test_structures():
    for rank in range(0, 4):
        for conn in range(0, rank + 2):
            same(*both("generate_binary_structure", rank, conn))
    s = ndi.generate_binary_structure(2, 1)
    for it in (0, 1, 2, 3):
        same(*both("iterate_structure", s, it))
    g, go = gndi.iterate_structure(S23, 3, origin=(0, -1))
    w, wo = ndi.iterate_structure(S23, 3, origin=(0, -1))
    same(g, w)
    assert go == wo


@pytest.mark.parametrize("name", BINARY)
def test_binary_options(name):
    for a in (A2, A3[0, 0], A3, np.array(True), np.zeros((0, 3), bool)):
        same(*both(name, a))
    for it in (1, 2, 0, -1):
        same(*both(name, A2, S23, iterations=it))
    mask = RNG.random(A2.shape) < 0.7
    for bv in (0, 1):
        for origin in (0, (0, -1), (-1, 1)):
            same(*both(name, A2, S23, mask=mask, border_value=bv, origin=origin))
    # another dtype, a structure along chosen axes, brute_force
    same(*both(name, A3.astype(np.float32) * 2.5, np.array([1, 1, 0]), axes=(1,)))
    same(*both(name, A3, np.ones((2, 3)), axes=(2, 0), origin=(-1, 0), brute_force=True))


def test_binary_output_arrays():
    for out_dtype in (bool, np.int16, np.float64):
        out = gp.zeros(A2.shape, out_dtype)
        got = gndi.binary_erosion(gp.asarray(A2), S23, output=out)
        assert got is out
        np.testing.assert_array_equal(out.get(), ndi.binary_erosion(A2, S23).astype(out_dtype))
    # the input as its own output
    a = gp.asarray(A2)
    assert gndi.binary_dilation(a, S23, output=a) is a
    np.testing.assert_array_equal(a.get(), ndi.binary_dilation(A2, S23))
    # a dtype as output means bool, as in SciPy
    same(*both("binary_dilation", A2, output=np.int16))
    out = gp.ones(A2.shape, bool)
    assert gndi.binary_fill_holes(gp.asarray(A2), output=out) is None
    np.testing.assert_array_equal(out.get(), ndi.binary_fill_holes(A2))
    out = gp.ones(A2.shape, np.uint8)
    assert gndi.binary_hit_or_miss(gp.asarray(A2), output=out) is None
    np.testing.assert_array_equal(out.get(), ndi.binary_hit_or_miss(A2))


def test_hit_or_miss_propagation_fill_holes():
    same(*both("binary_hit_or_miss", A2))
    same(*both("binary_hit_or_miss", A2, S23, ~S23, origin1=(0, -1)))
    same(*both("binary_hit_or_miss", A3, np.ones((1, 2, 2)), np.zeros((1, 2, 2)),
               origin2=(0, -1, 0)))
    seed = np.zeros(A2.shape, bool)
    seed[4, 5] = True
    same(*both("binary_propagation", seed, mask=A2))
    same(*both("binary_propagation", seed, np.ones((3, 3)), mask=A2, border_value=1))
    ring = np.zeros((7, 7), bool)
    ring[1:6, 1:6] = True
    ring[2:5, 2:5] = False
    ring[3, 3] = True
    same(*both("binary_fill_holes", ring))
    same(*both("binary_fill_holes", A3, np.ones((3, 3, 3))))
    same(*both("binary_fill_holes", A3, origin=(0, 1, 0)))


def test_binary_errors():
    a = gp.asarray(A2)
    with pytest.raises(RuntimeError, match="same dimensionality"):
        gndi.binary_erosion(a, np.ones(3))
    with pytest.raises(RuntimeError, match="must not be empty"):
        gndi.binary_erosion(a, np.ones((0, 3)))
    with pytest.raises(TypeError, match="iterations"):
        gndi.binary_erosion(a, iterations=1.5)
    with pytest.raises(RuntimeError, match="mask"):
        gndi.binary_dilation(a, mask=gp.ones(3))
    with pytest.raises(TypeError, match="Complex"):
        gndi.binary_erosion(gp.asarray(A2 * 1j))
    with pytest.raises(TypeError, match="Complex"):
        gndi.binary_erosion(a, output=gp.zeros(A2.shape, complex))
    with pytest.raises(RuntimeError, match="output shape"):
        gndi.binary_erosion(a, output=gp.zeros((2, 2), bool))
    with pytest.raises(RuntimeError, match="sequence argument"):
        gndi.binary_erosion(a, origin=(1, 2, 3))
    # SciPy reads outside the structure (or crashes) here: gpunp refuses
    with pytest.raises(ValueError, match="invalid origin"):
        gndi.binary_erosion(a, S23, origin=(1, 0))
    with pytest.raises(ValueError, match="axes must be unique"):
        gndi.binary_erosion(a, np.ones(3), axes=(1, 1))


def label_both(a, structure=None, output=None):
    g = gndi.label(gp.asarray(a), structure, output)
    w = ndi.label(a, structure, output)
    same(g[0], w[0])
    assert g[1] == w[1] and type(g[1]) is int
    return g


def test_label_structures_and_outputs():
    for a in (A2, A3, A3[1, 2], np.eye(40)):
        for conn in range(1, a.ndim + 1):
            label_both(a, ndi.generate_binary_structure(a.ndim, conn))
    cross_free = np.array([[1, 0, 1], [0, 1, 0], [1, 0, 1]])
    label_both(A2, cross_free)
    label_both(A2, np.zeros((3, 3)))
    label_both(A2, output=np.int64)
    label_both(A2, output=np.uint16)
    label_both(np.array(3.0))
    label_both(np.array(0))
    label_both(np.zeros((2, 0)))
    out = gp.zeros(A2.shape, np.int16)
    assert gndi.label(gp.asarray(A2), output=out) == ndi.label(A2)[1]
    np.testing.assert_array_equal(out.get(), ndi.label(A2)[0])
    # a strided output is written where it lies
    big = gp.zeros((9, 22), np.int32)
    assert gndi.label(gp.asarray(A2), output=big[:, ::2]) == ndi.label(A2)[1]
    np.testing.assert_array_equal(big.get()[:, ::2], ndi.label(A2)[0])


def test_label_errors():
    a = gp.asarray(A2)
    with pytest.raises(RuntimeError, match="equal rank"):
        gndi.label(a, np.ones(3))
    with pytest.raises(ValueError, match="equal to 3"):
        gndi.label(a, np.ones((3, 2)))
    with pytest.raises(AssertionError, match="symmetric"):
        gndi.label(a, [[0, 1, 0], [0, 1, 1], [0, 0, 0]])
    with pytest.raises(ValueError, match="output shape"):
        gndi.label(a, output=gp.zeros(3, np.int32))
    with pytest.raises(TypeError, match="Complex"):
        gndi.label(gp.asarray(A2 * 1j))
    checker = np.indices((40, 40)).sum(axis=0) % 2 == 0
    with pytest.raises(RuntimeError, match="bit-depth"):
        gndi.label(gp.asarray(checker), output=np.uint8)


def test_find_objects_and_value_indices():
    lab, n = ndi.label(A3)
    for max_label in (0, 3, n + 2):
        assert gndi.find_objects(gp.asarray(lab), max_label) == ndi.find_objects(lab, max_label)
    holes = np.array([[0, 5], [5, 0], [2, 0]], np.int16)
    assert gndi.find_objects(gp.asarray(holes)) == ndi.find_objects(holes)
    assert gndi.find_objects(gp.asarray(np.array(3))) == ndi.find_objects(np.array(3))
    with pytest.raises(TypeError):
        gndi.find_objects(gp.asarray(np.array([1.5, 2.5])))
    for ignore in (None, 0, 2):
        g = gndi.value_indices(gp.asarray(lab), ignore_value=ignore)
        w = ndi.value_indices(lab, ignore_value=ignore)
        assert list(g) == list(w)
        for k in w:
            assert len(g[k]) == len(w[k])
            for x, y in zip(g[k], w[k]):
                np.testing.assert_array_equal(x.get(), y)
    with pytest.raises(ValueError, match="integer array"):
        gndi.value_indices(gp.asarray(np.array([1.5])))


def implied(ind, shape, sampling=None, metric="euclidean"):
    """The distance from each element to the element its indices name."""
    d = (ind - np.indices(shape)).astype(float)
    if sampling is not None:
        d *= np.asarray(sampling, float).reshape((-1,) + (1,) * len(shape))
    if metric == "euclidean":
        return np.sqrt((d * d).sum(0))
    return np.abs(d).sum(0) if metric == "taxicab" else np.abs(d).max(0)


@pytest.mark.parametrize("a", [A2, A3, A2[3], np.ones((3, 4)), np.zeros((3, 4)),
                               np.array(1.0), np.zeros((0, 3))], ids=str)
def test_edt(a):
    for sampling in (None, [2.0, 0.5, 1.25][:max(a.ndim, 1)]):
        gd, gi = gndi.distance_transform_edt(gp.asarray(a), sampling, return_indices=True)
        wd, wi = ndi.distance_transform_edt(a, sampling, return_indices=True)
        assert gd.dtype == wd.dtype and gi.dtype == wi.dtype and gi.shape == wi.shape
        if sampling is None:  # both sum the same integers: exact
            np.testing.assert_array_equal(gd.get(), wd)
        else:
            np.testing.assert_allclose(gd.get(), wd, rtol=1e-14)
        if np.all(a):  # no background: SciPy's convention
            np.testing.assert_array_equal(gi.get(), wi)
        elif a.size:
            # equally near features may differ: the named feature is background
            # and exactly as near
            gi = gi.get()
            np.testing.assert_allclose(implied(gi, wd.shape, sampling), wd, rtol=1e-14)
            assert not np.any(np.atleast_1d(a)[tuple(gi)])


def test_edt_outputs_and_errors():
    a = gp.asarray(A2)
    d = gp.zeros(A2.shape)
    i = gp.zeros((2,) + A2.shape, np.int32)
    assert gndi.distance_transform_edt(a, return_indices=True, distances=d, indices=i) is None
    np.testing.assert_array_equal(d.get(), ndi.distance_transform_edt(A2))
    got = gndi.distance_transform_edt(a, return_distances=False, return_indices=True)
    np.testing.assert_array_equal(implied(got.get(), A2.shape), d.get())
    with pytest.raises(RuntimeError, match="at least one"):
        gndi.distance_transform_edt(a, return_distances=False)
    with pytest.raises(RuntimeError, match="indices is supplied"):
        gndi.distance_transform_edt(a, indices=i)
    with pytest.raises(RuntimeError, match="wrong shape"):
        gndi.distance_transform_edt(a, return_indices=True, indices=gp.zeros((2, 3), np.int32))
    with pytest.raises(RuntimeError, match="int32"):
        gndi.distance_transform_edt(a, return_indices=True, indices=gp.zeros(i.shape))
    with pytest.raises(RuntimeError, match="float64"):
        gndi.distance_transform_edt(a, distances=gp.zeros(A2.shape, np.float32))
    with pytest.raises(RuntimeError, match="sequence argument"):
        gndi.distance_transform_edt(a, sampling=[1.0, 2.0, 3.0])


@pytest.mark.parametrize("metric", ["chessboard", "taxicab", "cross-free", "row"])
def test_cdt(metric):
    # bool structures: SciPy reads a structure's memory as bool (an int64
    # structure's ones count only where their low byte falls in its first half)
    structures = {"cross-free": np.array([[1, 0, 1], [0, 1, 0], [1, 0, 1]], bool),
                  "row": np.array([[0, 0, 0], [1, 1, 1], [0, 0, 0]], bool)}
    for a in (A2, np.ones((3, 4)), A2 & (np.arange(11) % 4 != 0)):
        m = structures.get(metric, metric)
        gd, gi = gndi.distance_transform_cdt(gp.asarray(a), m, return_indices=True)
        wd, wi = ndi.distance_transform_cdt(a, m, return_indices=True)
        same(gd, wd)
        gi, reached = gi.get(), wd >= 0
        np.testing.assert_array_equal(gi[:, ~reached], wi[:, ~reached])
        if metric in ("chessboard", "taxicab"):
            np.testing.assert_array_equal(implied(gi, a.shape, None, metric)[reached],
                                          wd[reached])
    same(*both("distance_transform_cdt", A3, "taxicab"))


def test_cdt_outputs_and_errors():
    a = gp.asarray(A2)
    d = gp.zeros(A2.shape, np.int32)
    assert gndi.distance_transform_cdt(a, distances=d) is None
    np.testing.assert_array_equal(d.get(), ndi.distance_transform_cdt(A2))
    with pytest.raises(ValueError, match="invalid metric"):
        gndi.distance_transform_cdt(a, "euclidean")
    with pytest.raises(ValueError, match="equal to 3"):
        gndi.distance_transform_cdt(a, np.ones((3, 2)))
    with pytest.raises(ValueError, match="int32"):
        gndi.distance_transform_cdt(a, distances=gp.zeros(A2.shape))
    with pytest.raises(ValueError, match="wrong shape"):
        gndi.distance_transform_cdt(a, distances=gp.zeros(3, np.int32))


@pytest.mark.parametrize("metric", ["euclidean", "taxicab", "chessboard"])
def test_bf(metric):
    for a in (A2, A3[:2], np.ones((2, 3))):
        sampling = [1.5, 0.5, 2.0][:a.ndim] if metric == "euclidean" else None
        g = gndi.distance_transform_bf(gp.asarray(a), metric, sampling, return_indices=True)
        w = ndi.distance_transform_bf(a, metric, sampling, return_indices=True)
        same(g[0], w[0])
        same(g[1], w[1])  # ties: the last border element in raster order, as SciPy
    d = gp.zeros(A2.shape, np.uint32)
    assert gndi.distance_transform_bf(gp.asarray(A2), "taxicab", distances=d) is None
    np.testing.assert_array_equal(d.get(), ndi.distance_transform_bf(A2, "taxicab"))
    with pytest.raises(RuntimeError, match="not supported"):
        gndi.distance_transform_bf(gp.asarray(A2), "hamming")
    with pytest.raises(RuntimeError, match="uint32"):
        gndi.distance_transform_bf(gp.asarray(A2), "chessboard", distances=gp.zeros(A2.shape))
