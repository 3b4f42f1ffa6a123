"""Property tests of gpunp.scipy.spatial.KDTree against SciPy's: random
point sets in 1, 2, 3 and 5 dimensions with repeated points and points on a
coarse grid (exact ties), leaf sizes from 1, k = 1, k past n and lists of k,
every kind of p, a periodic box, query points outside the data's box. The
distances must equal SciPy's bit for bit, the indices wherever the distance
has no tie; balls, pairs and counts are exact sets and integers."""

from __future__ import annotations

import numpy as np
import scipy.spatial as ss
from hypothesis import given, settings, strategies as st

import gpunp as gp
import gpunp.scipy.spatial as gsp

P = st.sampled_from([1.0, 2.0, np.inf, 1.5, 3.0])


@st.composite
def point_sets(draw):
    m = draw(st.sampled_from([1, 2, 3, 5]))
    n = draw(st.integers(0, 60))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    if draw(st.booleans()):
        data = rng.integers(0, 4, (n, m)).astype(np.float64)   # a grid: ties everywhere
    else:
        data = rng.random((n, m))
    if n > 2:
        rep = rng.integers(0, n, n // 3)
        data[rep] = data[rng.integers(0, n)]                     # repeated points
    nq = draw(st.integers(1, 12))
    query = rng.random((nq, m)) * 5 - 1                          # some outside the box
    if n and draw(st.booleans()):
        query[: nq // 2] = data[rng.integers(0, n, nq // 2)]     # on data points
    leafsize = draw(st.sampled_from([1, 2, 5, 16]))
    return data, query, leafsize


def same_knn(got, ref):
    (d, i), (d0, i0) = got, ref
    d, i = gp.asnumpy(d), gp.asnumpy(i)
    assert d.shape == d0.shape and i.shape == i0.shape and d.dtype == d0.dtype
    # CUDA's pow is not glibc's: a p other than 1, 2 or inf may move a
    # distance by an ulp or two on a GPU, and swap indices of near-ties
    np.testing.assert_allclose(d, d0, rtol=ULPS, atol=0)
    assert np.all((i == i0) | np.isclose(d, d0, rtol=ULPS, atol=0)), (i, i0)


ULPS = 4 * np.finfo(np.float64).eps


@settings(max_examples=30)
@given(point_sets(), P, st.sampled_from([1, 3, 80, [1, 4, 70]]),
       st.sampled_from([np.inf, 0.5, 2.0]))
def test_query(case, p, k, dub):
    data, query, leafsize = case
    g = gsp.KDTree(gp.asarray(data), leafsize=leafsize)
    s = ss.KDTree(data, leafsize=leafsize)
    same_knn(g.query(gp.asarray(query), k=k, p=p, distance_upper_bound=dub),
             s.query(query, k=k, p=p, distance_upper_bound=dub))


@settings(max_examples=25)
@given(point_sets(), P, st.sampled_from([0.0, 0.5, 1.0, 1.7]))
def test_balls_pairs_counts(case, p, r):
    data, query, leafsize = case
    g = gsp.cKDTree(gp.asarray(data), leafsize=leafsize)
    s = ss.cKDTree(data, leafsize=leafsize)
    got = g.query_ball_point(gp.asarray(query), r, p=p)
    assert [list(a) for a in got] == [list(a) for a in s.query_ball_point(query, r, p=p)]
    assert g.query_pairs(r, p=p) == s.query_pairs(r, p=p)
    gq, sq = gsp.cKDTree(gp.asarray(query)), ss.cKDTree(query)
    radii = np.array([r, r / 2, 2 * r])
    np.testing.assert_array_equal(gp.asnumpy(g.count_neighbors(gq, gp.asarray(radii), p=p)),
                                  s.count_neighbors(sq, radii, p=p))
    got = g.sparse_distance_matrix(gq, r, p=p, output_type="dict")
    ref = s.sparse_distance_matrix(sq, r, p=p, output_type="dict")
    assert got.keys() == ref.keys()
    for key, val in ref.items():
        np.testing.assert_allclose(got[key], val, rtol=ULPS, atol=0)  # see same_knn


@settings(max_examples=20)
@given(point_sets(), P, st.sampled_from([1, 4]))
def test_periodic(case, p, k):
    data, query, leafsize = case
    m = data.shape[1]
    box = np.array([4.0, 0.0, 5.0, 4.5, 6.0][:m])
    data = np.where(box > 0, data % np.where(box > 0, box, 1), data)
    g = gsp.KDTree(gp.asarray(data), leafsize=leafsize, boxsize=box)
    s = ss.KDTree(data, leafsize=leafsize, boxsize=box)
    same_knn(g.query(gp.asarray(query), k=k, p=p), s.query(query, k=k, p=p))
    got = g.query_ball_point(gp.asarray(query), 1.2, p=p)
    assert [list(a) for a in got] == [list(a) for a in s.query_ball_point(query, 1.2, p=p)]
