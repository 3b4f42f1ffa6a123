"""gpunp.scipy.spatial.KDTree and cKDTree against SciPy's: the same
distances bit for bit, the same indices except among exact ties, the same
shapes, types and fills, and SciPy's errors for bad input."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse
import scipy.spatial as ss

import gpunp as gp
import gpunp.scipy.spatial as gsp

RNG = np.random.default_rng(1234)
DATA = RNG.random((200, 3))
DATA[20:30] = DATA[0]                      # duplicates
QUERY = RNG.random((17, 3)) * 1.6 - 0.3   # some outside the data's box


def trees(data=DATA, cls="KDTree", **kw):
    return getattr(gsp, cls)(gp.asarray(data), **kw), getattr(ss, cls)(data, **kw)


def same_knn(got, ref):
    """Distances equal; indices equal wherever the distance has no tie."""
    (d, i), (d0, i0) = got, ref
    d, i = gp.asnumpy(d), gp.asnumpy(i)
    assert d.shape == d0.shape and i.shape == i0.shape
    assert d.dtype == d0.dtype and i.dtype == i0.dtype
    # CUDA's pow is not glibc's: a p other than 1, 2 or inf may move a
    # distance by an ulp or two on a GPU, and swap indices of near-ties
    np.testing.assert_allclose(d, d0, rtol=ULPS, atol=0)
    assert np.all((i == i0) | np.isclose(d, d0, rtol=ULPS, atol=0))


ULPS = 4 * np.finfo(np.float64).eps


def same_dict(got, ref):
    """The same pairs, their distances within a few ulps (see same_knn)."""
    assert got.keys() == ref.keys()
    for key, val in ref.items():
        np.testing.assert_allclose(got[key], val, rtol=ULPS, atol=0)


@pytest.mark.parametrize("p", [1, 2, 3.5, np.inf])
@pytest.mark.parametrize("k", [1, 4, [2, 5], 60])
def test_query_matches_scipy(p, k):
    g, s = trees()
    same_knn(g.query(gp.asarray(QUERY), k=k, p=p), s.query(QUERY, k=k, p=p))


def test_query_shapes_and_scalars():
    g, s = trees(cls="cKDTree")
    d, i = g.query(gp.asarray(QUERY[0]))
    d0, i0 = s.query(QUERY[0])
    assert type(d) is type(d0) and d == d0 and i == i0 and type(i) is int
    gk, sk = trees()
    d, i = gk.query(gp.asarray(QUERY[0]))
    d0, i0 = sk.query(QUERY[0])
    assert type(d) is float and type(i) is type(i0) and (d, i) == (d0, i0)
    q = QUERY[:12].reshape(2, 2, 3, 3)
    for k in (1, 3, [1]):
        same_knn(g.query(gp.asarray(q), k=k), s.query(q, k=k))
    same_knn(g.query(gp.asarray(QUERY[0]), k=3), s.query(QUERY[0], k=3))


@pytest.mark.parametrize("p", [2, 1.5])
def test_distance_upper_bound_fills_with_n_and_inf(p):
    g, s = trees()
    same_knn(g.query(gp.asarray(QUERY), k=6, p=p, distance_upper_bound=0.15),
             s.query(QUERY, k=6, p=p, distance_upper_bound=0.15))


def test_eps_stays_within_its_bound():
    g, s = trees()
    d, _ = g.query(gp.asarray(QUERY), k=5, eps=0.5)
    d0, _ = s.query(QUERY, k=5)
    assert np.all(gp.asnumpy(d) <= d0 * 1.5 + 1e-15)


@pytest.mark.parametrize("leafsize", [1, 3, 1000])
def test_leafsize_and_small_trees(leafsize):
    for n in (1, 2, 3, 7):
        data = DATA[:n]
        g, s = trees(data, leafsize=leafsize)
        same_knn(g.query(gp.asarray(QUERY), k=3), s.query(QUERY, k=3))


def test_empty_tree():
    g, s = trees(np.zeros((0, 2)))
    same_knn(g.query(gp.asarray(QUERY[:, :2]), k=2), s.query(QUERY[:, :2], k=2))
    assert g.n == 0 and g.m == 2


def test_large_k_fallback(monkeypatch):
    from gpunp.scipy.spatial import _kdtree
    monkeypatch.setattr(_kdtree, "_KB_MAX", 8)
    g, s = trees()
    for p in (2, 3.5):
        same_knn(g.query(gp.asarray(QUERY), k=[1, 9, 40, 300], p=p,
                         distance_upper_bound=0.6),
                 s.query(QUERY, k=[1, 9, 40, 300], p=p, distance_upper_bound=0.6))


def test_attributes():
    g, s = trees(leafsize=7)
    for name in ("n", "m", "leafsize"):
        assert getattr(g, name) == getattr(s, name)
    for name in ("data", "maxes", "mins"):
        np.testing.assert_array_equal(gp.asnumpy(getattr(g, name)), getattr(s, name))
    assert sorted(gp.asnumpy(g.indices).tolist()) == list(range(200))
    assert g.size >= 1 and g.boxsize is None


def test_periodic_box():
    box = np.array([1.0, 2.0, 0.0])
    data = DATA * [1, 2, 1]
    g, s = trees(data, boxsize=box)
    q = QUERY * [3, 2, 1] - [1, 0, 0]
    for p in (2, 1, np.inf):
        same_knn(g.query(gp.asarray(q), k=5, p=p), s.query(q, k=5, p=p))
        r, r0 = g.query_ball_point(gp.asarray(q), 0.3, p=p), s.query_ball_point(q, 0.3, p=p)
        assert [list(a) for a in r] == [list(a) for a in r0]
    assert g.query_pairs(0.05) == s.query_pairs(0.05)
    np.testing.assert_array_equal(gp.asnumpy(g.boxsize), s.boxsize)
    with pytest.raises(ValueError, match="greater than the size"):
        gsp.KDTree(gp.asarray(data), boxsize=0.5)


@pytest.mark.parametrize("p", [2, 1, np.inf])
def test_query_ball_point(p):
    g, s = trees()
    r = np.linspace(0.05, 0.4, 17)
    got, ref = g.query_ball_point(gp.asarray(QUERY), gp.asarray(r), p=p), \
        s.query_ball_point(QUERY, r, p=p)
    assert got.dtype == object and got.shape == ref.shape
    assert [list(a) for a in got] == [list(a) for a in ref]
    lens = g.query_ball_point(gp.asarray(QUERY), 0.3, p=p, return_length=True)
    np.testing.assert_array_equal(gp.asnumpy(lens),
                                  s.query_ball_point(QUERY, 0.3, p=p, return_length=True))
    one = g.query_ball_point(gp.asarray(DATA[0]), 0.2, p=p)
    assert isinstance(one, list) and sorted(one) == sorted(s.query_ball_point(DATA[0], 0.2, p=p))
    n1 = g.query_ball_point(gp.asarray(DATA[0]), 0.2, return_length=True)
    assert n1 == s.query_ball_point(DATA[0], 0.2, return_length=True)


def test_query_ball_tree_and_pairs():
    g, s = trees()
    g2, s2 = trees(QUERY)
    got = g.query_ball_tree(g2, 0.25)
    assert [sorted(a) for a in got] == [sorted(a) for a in s.query_ball_tree(s2, 0.25)]
    for p in (2, 1):
        assert g.query_pairs(0.1, p=p) == s.query_pairs(0.1, p=p)
    arr = g.query_pairs(0.1, output_type="ndarray")
    ref = s.query_pairs(0.1, output_type="ndarray")
    assert arr.shape == ref.shape and arr.dtype == ref.dtype
    assert set(map(tuple, gp.asnumpy(arr).tolist())) == set(map(tuple, ref.tolist()))
    with pytest.raises(ValueError):
        g.query_pairs(0.1, output_type="list")


def test_count_neighbors():
    g, s = trees()
    g2, s2 = trees(QUERY)
    r = np.array([0.3, 0.05, 0.3, 0.2, np.inf])
    np.testing.assert_array_equal(gp.asnumpy(g.count_neighbors(g2, gp.asarray(r))),
                                  s.count_neighbors(s2, r))
    c, c0 = g.count_neighbors(g2, 0.25, p=1), s.count_neighbors(s2, 0.25, p=1)
    assert c == c0 and type(c) is type(c0)
    rs = np.sort(r)
    np.testing.assert_array_equal(
        gp.asnumpy(g.count_neighbors(g2, gp.asarray(rs), cumulative=False)),
        s.count_neighbors(s2, rs, cumulative=False))
    w1, w2 = RNG.random(200), RNG.random(17)
    np.testing.assert_allclose(
        gp.asnumpy(g.count_neighbors(g2, gp.asarray(rs), weights=(gp.asarray(w1), None))),
        s.count_neighbors(s2, rs, weights=(w1, None)), rtol=1e-12)
    np.testing.assert_allclose(
        gp.asnumpy(g.count_neighbors(g, gp.asarray(rs), weights=gp.asarray(w1))),
        s.count_neighbors(s, rs, weights=w1), rtol=1e-12)
    with pytest.raises(ValueError, match="non-decreasing"):
        g.count_neighbors(g2, gp.asarray(r), cumulative=False)
    with pytest.raises(ValueError, match="tuple"):
        g.count_neighbors(g2, 0.1, weights=gp.asarray(w1))


def test_sparse_distance_matrix():
    g, s = trees()
    g2, s2 = trees(QUERY)
    for p in (2, 3.5):
        same_dict(g.sparse_distance_matrix(g2, 0.3, p=p, output_type="dict"),
                  s.sparse_distance_matrix(s2, 0.3, p=p, output_type="dict"))
    coo = g.sparse_distance_matrix(g2, 0.3, output_type="coo_matrix")
    ref = s.sparse_distance_matrix(s2, 0.3, output_type="coo_matrix")
    np.testing.assert_array_equal(gp.asnumpy(coo.toarray()), ref.toarray())
    dok = g.sparse_distance_matrix(g, 0.2)
    ref = s.sparse_distance_matrix(s, 0.2)
    assert isinstance(dok, scipy.sparse.dok_matrix) and dict(dok) == dict(ref)
    rec = g.sparse_distance_matrix(g2, 0.3, output_type="ndarray")
    ref = s.sparse_distance_matrix(s2, 0.3, output_type="ndarray")
    assert rec.dtype == ref.dtype and np.array_equal(np.sort(rec, order=["i", "j"]),
                                                     np.sort(ref, order=["i", "j"]))
    with pytest.raises(ValueError, match="Invalid output type"):
        g.sparse_distance_matrix(g2, 0.3, output_type="csr")


@pytest.mark.parametrize("case", [
    lambda m: m.KDTree(np.zeros(3)),
    lambda m: m.KDTree(np.array([[0.0, np.nan]])),
    lambda m: m.KDTree(np.array([[1j, 0]])),
    lambda m: m.KDTree(DATA, leafsize=0),
    lambda m: m.KDTree(DATA).query(QUERY[:, :2]),
    lambda m: m.KDTree(DATA).query(QUERY, p=0.5),
    lambda m: m.KDTree(DATA).query(np.array([[0.0, np.inf, 0]])),
    lambda m: m.KDTree(DATA).query(QUERY, k=None),
    lambda m: m.KDTree(DATA).query(QUERY, k=0),
    lambda m: m.KDTree(DATA).query(QUERY, workers=0),
    lambda m: m.KDTree(DATA).query_ball_point(QUERY, [0.1, 0.2]),
    lambda m: m.KDTree(DATA).count_neighbors(m.KDTree(QUERY[:, :2]), 0.1),
    lambda m: m.KDTree(DATA).count_neighbors(m.KDTree(QUERY), [[0.1]]),
])
def test_errors_match_scipy(case):
    with pytest.raises(Exception) as ref:
        case(ss)

    class Moved:
        """gpsp with host arrays moved to the device first."""
        def __getattr__(self, name):
            cls = getattr(gsp, name)

            def make(data, *a, **k):
                tree = cls(gp.asarray(data), *a, **k)
                return _Moving(tree)
            return make

    with pytest.raises(type(ref.value)):
        case(Moved())


class _Moving:
    """A tree whose methods take host arrays, moved to the device."""

    def __init__(self, tree):
        self.tree = tree

    def __getattr__(self, name):
        meth = getattr(self.tree, name)

        def call(*a, **k):
            a = [x.tree if isinstance(x, _Moving) else
                 gp.asarray(x) if isinstance(x, np.ndarray) else x for x in a]
            return meth(*a, **k)
        return call


def test_host_arrays_are_refused():
    with pytest.raises(TypeError):
        gsp.KDTree(DATA)


def test_ckdtree_drops_imaginary_parts_as_scipy():
    data = DATA[:20] + 1j
    with pytest.warns(np.exceptions.ComplexWarning):
        s = ss.cKDTree(data)
    with pytest.warns(np.exceptions.ComplexWarning):
        g = gsp.cKDTree(gp.asarray(data))
    same_knn(g.query(gp.asarray(QUERY), k=2), s.query(QUERY, k=2))
