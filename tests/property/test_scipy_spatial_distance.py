"""Property tests of gpunp.scipy.spatial.distance against SciPy: every
metric on random point sets (float64, float32, integers, booleans), with
duplicate rows, zero vectors and repeated values, empty sets, weights, and
squareform's round trip."""

from __future__ import annotations

import warnings

import numpy as np
import scipy.spatial.distance as sd
from hypothesis import given, settings, strategies as st

import gpunp as gp
import gpunp.scipy.spatial.distance as gd

METRICS = sd._METRICS_NAMES
# the metrics whose C++ loops take weights (cosine and correlation weight
# through SciPy's Python path, also compared)
WEIGHTED = ["braycurtis", "canberra", "chebyshev", "cityblock", "correlation", "cosine", "dice",
            "euclidean", "hamming", "jaccard", "minkowski", "rogerstanimoto", "russellrao",
            "sokalsneath", "sqeuclidean", "yule"]
DTYPES = [np.float64, np.float32, np.int32, np.bool_]
# few distinct values, so that equal coordinates, zeros and duplicate rows are common
VALUES = {np.float64: [0.0, 1.0, -1.0, 0.5, 2.25, -3.0, 1e-3],
          np.float32: [0.0, 1.0, -1.5, 0.25, 3.0],
          np.int32: [0, 1, 2, -1, 7],
          np.bool_: [False, True]}


def outcome(f, *a, **k):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return f(*a, **k)
    except Exception as e:  # noqa: BLE001 - the kind of error is compared
        return e


def same(g, r):
    if isinstance(r, Exception):
        assert isinstance(g, type(r)), (r, g)
        return
    assert not isinstance(g, Exception), g
    g = gp.asnumpy(g)
    assert g.shape == r.shape and g.dtype == r.dtype, (g.shape, r.shape, g.dtype, r.dtype)
    # SciPy sums in its own order (BLAS for the weighted cosine): a few ulps,
    # and absolute near 0 where a distance is a difference of near-equal terms
    np.testing.assert_allclose(g, r, rtol=1e-10, atol=1e-12, equal_nan=True)


@st.composite
def point_sets(draw):
    metric = draw(st.sampled_from(METRICS))
    dtype = draw(st.sampled_from(DTYPES))
    # 17 features: euclidean, sqeuclidean and cosine take the product path
    n = draw(st.sampled_from([0, 1, 2, 3, 4, 17]))
    ma, mb = draw(st.integers(0, 6)), draw(st.integers(0, 5))
    vals = VALUES[dtype]
    if metric == "jensenshannon" and dtype != np.bool_:
        vals = [abs(v) for v in vals]
    cell = st.sampled_from(vals)
    xa = np.array(draw(st.lists(st.lists(cell, min_size=n, max_size=n), min_size=ma,
                                max_size=ma)), dtype=dtype).reshape(ma, n)
    xb = np.array(draw(st.lists(st.lists(cell, min_size=n, max_size=n), min_size=mb,
                                max_size=mb)), dtype=dtype).reshape(mb, n)
    if ma and mb and draw(st.booleans()):
        xb[0] = xa[-1]  # a point in both sets
    kw = {}
    if metric in WEIGHTED and draw(st.booleans()):
        kw["w"] = np.array(draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0]), min_size=n,
                                         max_size=n)))
    if metric == "mahalanobis":
        # a well-conditioned VI: the default (the inverse covariance of the
        # points) is singular for most small sets of few values, and then
        # LU's rounding decides between LinAlgError and huge noise
        a = np.array(draw(st.lists(st.sampled_from([-1.0, 0.0, 0.5, 1.0]), min_size=n * n,
                                   max_size=n * n))).reshape(n, n)
        kw["VI"] = a @ a.T + np.eye(n)
    if metric == "minkowski":
        kw["p"] = draw(st.sampled_from([1, 2, 3, 0.5, np.inf]))
    return metric, xa, xb, kw


def _device(kw):
    return {k: gp.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}


@settings(max_examples=40)
@given(point_sets())
def test_cdist_and_pdist_match_scipy(case):
    metric, xa, xb, kw = case
    same(outcome(gd.cdist, gp.asarray(xa), gp.asarray(xb), metric, **_device(kw)),
         outcome(sd.cdist, xa, xb, metric, **kw))
    same(outcome(gd.pdist, gp.asarray(xa), metric, **_device(kw)),
         outcome(sd.pdist, xa, metric, **kw))


@settings(max_examples=20)
@given(st.integers(0, 7), st.integers(0, 2**32 - 1))
def test_squareform_round_trip(m, seed):
    x = np.random.default_rng(seed).standard_normal((m, 2))
    y = sd.pdist(x)
    g = gd.squareform(gp.asarray(y))
    same(g, sd.squareform(y))
    same(gd.squareform(g), sd.squareform(sd.squareform(y)))
    assert gd.is_valid_y(gp.asarray(y)) == sd.is_valid_y(y)
