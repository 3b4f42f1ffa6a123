"""gpunp.scipy.spatial.distance against scipy.spatial.distance: cdist and
pdist for every metric (float64 for all, booleans, integers and float32 for
some, weights where SciPy takes them, out=), the metrics on two vectors,
squareform and its checks, directed_hausdorff, the errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.spatial.distance as sd

import gpunp as gp
import gpunp.scipy.spatial.distance as gd

RNG = np.random.default_rng(0)
METRICS = sd._METRICS_NAMES
BOOLEAN = ["dice", "hamming", "jaccard", "rogerstanimoto", "russellrao", "sokalsneath", "yule"]
# SciPy's C++ loops take weights; the others (cosine, correlation) weight in Python
WEIGHTED = ["braycurtis", "canberra", "chebyshev", "cityblock", "correlation", "cosine", "dice",
            "euclidean", "hamming", "jaccard", "minkowski", "rogerstanimoto", "russellrao",
            "sokalsneath", "sqeuclidean", "yule"]


def outcome(f, *a, **k):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return f(*a, **k)
    except Exception as e:  # noqa: BLE001 - the kind of error is compared
        return e


def same(g, r, rtol=1e-12, atol=1e-14):
    """gpunp's g against SciPy's r: the same exception type, or the same
    shape, dtype and values (NaN where NaN, inf where inf)."""
    if isinstance(r, Exception):
        assert isinstance(g, type(r)), (r, g)
        return
    assert not isinstance(g, Exception), g
    g = gp.asnumpy(gp.asarray(g)) if isinstance(g, gp.ndarray) else np.asarray(g)
    r = np.asarray(r)
    assert g.shape == r.shape, (g.shape, r.shape)
    assert g.dtype == r.dtype, (g.dtype, r.dtype)
    np.testing.assert_allclose(g, r, rtol=rtol, atol=atol, equal_nan=True)


def data(metric, m, n, dtype=np.float64, rng=RNG):
    """Rows for `metric`: non-negative for jensenshannon, few distinct values
    (so equal and zero entries happen) for the counting metrics."""
    if dtype == np.bool_:
        return rng.random((m, n)) < 0.5
    if metric in BOOLEAN:
        return rng.choice([0, 1, 2, -1, 0.5], size=(m, n)).astype(dtype)
    x = rng.standard_normal((m, n))
    if metric == "jensenshannon":
        x = abs(x)
    if np.dtype(dtype).kind in "iu":
        x = np.round(x * 4)
        if np.dtype(dtype).kind == "u":
            x = abs(x)
    return x.astype(dtype)


@pytest.mark.parametrize("metric", METRICS)
def test_every_metric_float64(metric):
    xa, xb = data(metric, 9, 5), data(metric, 6, 5)
    xa[3] = xb[2]  # an exact duplicate across the sets
    xa[5] = 0  # a zero vector: cosine and correlation give NaN there, as SciPy
    same(gd.cdist(gp.asarray(xa), gp.asarray(xb), metric),
         outcome(sd.cdist, xa, xb, metric), 1e-11)
    same(gd.pdist(gp.asarray(xa), metric), outcome(sd.pdist, xa, metric), 1e-11)


@pytest.mark.parametrize("metric", BOOLEAN)
def test_boolean_metrics_on_booleans_and_integers(metric):
    for dtype in (np.bool_, np.int32 if metric in ("dice", "yule") else np.bool_):
        xa, xb = data(metric, 7, 6, dtype), data(metric, 5, 6, dtype)
        same(gd.cdist(gp.asarray(xa), gp.asarray(xb), metric), sd.cdist(xa, xb, metric))
        same(gd.pdist(gp.asarray(xa), metric), sd.pdist(xa, metric))


@pytest.mark.parametrize("metric,dtype", [("euclidean", np.float32), ("cityblock", np.int64),
                                          ("cosine", np.float32), ("canberra", np.uint8),
                                          ("sqeuclidean", np.float16),
                                          ("chebyshev", np.int16)])
def test_other_dtypes(metric, dtype):
    xa, xb = data(metric, 8, 5, dtype), data(metric, 3, 5, dtype)
    same(gd.cdist(gp.asarray(xa), gp.asarray(xb), metric), sd.cdist(xa, xb, metric))
    same(gd.pdist(gp.asarray(xa), metric), sd.pdist(xa, metric))


def test_mixed_input_dtypes():
    xa, xb = data("euclidean", 4, 3, np.float32), data("euclidean", 5, 3, np.int32)
    same(gd.cdist(gp.asarray(xa), gp.asarray(xb)), sd.cdist(xa, xb))


@pytest.mark.parametrize("metric", WEIGHTED)
def test_weights(metric):
    xa, xb = data(metric, 7, 5), data(metric, 4, 5)
    w = RNG.random(5)
    w[1] = 0  # a zero weight: chebyshev skips that coordinate
    same(gd.cdist(gp.asarray(xa), gp.asarray(xb), metric, w=gp.asarray(w)),
         sd.cdist(xa, xb, metric, w=w), 1e-11)
    same(gd.pdist(gp.asarray(xa), metric, w=gp.asarray(w)), sd.pdist(xa, metric, w=w), 1e-11)


@pytest.mark.parametrize("p", [1, 2, 3.5, 0.5, np.inf])
def test_minkowski_p(p):
    xa, xb = data("minkowski", 6, 4), data("minkowski", 5, 4)
    w = RNG.random(4)
    same(gd.cdist(gp.asarray(xa), gp.asarray(xb), "minkowski", p=p),
         sd.cdist(xa, xb, "minkowski", p=p))
    same(gd.pdist(gp.asarray(xa), "minkowski", p=p, w=gp.asarray(w)),
         sd.pdist(xa, "minkowski", p=p, w=w))
    same(gd.minkowski(gp.asarray(xa[0]), gp.asarray(xb[0]), p, gp.asarray(w)),
         sd.minkowski(xa[0], xb[0], p, w))


def test_seuclidean_and_mahalanobis_parameters():
    xa, xb = data("seuclidean", 8, 3), data("seuclidean", 5, 3)
    V = RNG.random(3) + 0.5
    same(gd.cdist(gp.asarray(xa), gp.asarray(xb), "seuclidean", V=gp.asarray(V)),
         sd.cdist(xa, xb, "seuclidean", V=V))
    same(gd.pdist(gp.asarray(xa), "seuclidean", V=V.tolist()), sd.pdist(xa, "seuclidean", V=V))
    A = RNG.standard_normal((3, 3))
    VI = A @ A.T + np.eye(3)
    same(gd.cdist(gp.asarray(xa), gp.asarray(xb), "mahalanobis", VI=gp.asarray(VI)),
         sd.cdist(xa, xb, "mahalanobis", VI=VI))
    same(gd.pdist(gp.asarray(xa), "mahalanobis", VI=gp.asarray(VI)),
         sd.pdist(xa, "mahalanobis", VI=VI))
    # too few observations for the default covariance; a V of the wrong size
    for f, args in ((gd.pdist, (xa[:3], "mahalanobis")),
                    (gd.cdist, (xa[:2], xb[:1], "mahalanobis")),
                    (gd.pdist, (xa, "seuclidean")), ):
        r = outcome(getattr(sd, f.__name__), *args)
        same(outcome(f, *[gp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]), r)
    same(outcome(gd.pdist, gp.asarray(xa), "seuclidean", V=gp.ones(2)),
         outcome(sd.pdist, xa, "seuclidean", V=np.ones(2)))
    same(outcome(gd.pdist, gp.asarray(xa), "seuclidean", V=gp.ones((3, 1))),
         outcome(sd.pdist, xa, "seuclidean", V=np.ones((3, 1))))


def test_near_duplicates_keep_their_precision():
    """The distance between points 1e-9 apart at magnitude 1e4: the
    |x|^2 + |y|^2 - 2xy identity would lose every digit; the direct loop keeps them."""
    base = RNG.standard_normal((20, 16)) * 1e4
    near = base + RNG.standard_normal((20, 16)) * 1e-9
    for metric in ("euclidean", "sqeuclidean", "cosine"):
        same(gd.cdist(gp.asarray(base), gp.asarray(near), metric),
             sd.cdist(base, near, metric), 1e-6, 0 if metric != "cosine" else 1e-15)
    x = np.concatenate([base, near])
    same(gd.pdist(gp.asarray(x)), sd.pdist(x), 1e-6, 0)


@pytest.mark.parametrize("n", [16, 64, 256])
def test_product_path(n):
    """euclidean, sqeuclidean and cosine with 16 to 256 features go through
    one matrix product: SciPy's values anyway, where rows repeat, nearly
    repeat, are zero, or hold inf and NaN (recomputed directly)."""
    xa = RNG.standard_normal((12, n)) * 100
    xb = RNG.standard_normal((9, n))
    xb[0] = xa[0]  # a duplicate
    xb[1] = xa[1] * (1 + 1e-12)  # a near-duplicate
    xa[2] = 0  # a zero row
    xa[3, 5] = np.inf
    xb[4, 7] = np.inf
    xb[5, 1] = np.nan
    xa[6] = xb[6] + 1e-9  # near at magnitude 1
    for metric in ("euclidean", "sqeuclidean", "cosine"):
        same(gd.cdist(gp.asarray(xa), gp.asarray(xb), metric), outcome(sd.cdist, xa, xb, metric),
             1e-11, 1e-13)
        x = np.concatenate([xa, xb])
        same(gd.pdist(gp.asarray(x), metric), outcome(sd.pdist, x, metric), 1e-11, 1e-13)
    out = gp.empty((12, 9))
    assert gd.cdist(gp.asarray(xa), gp.asarray(xb), out=out) is out
    same(out, sd.cdist(xa, xb), 1e-11, 1e-13)


def test_empty_and_degenerate_shapes():
    for shape_a, shape_b in (((0, 3), (4, 3)), ((4, 3), (0, 3)), ((3, 0), (2, 0))):
        xa, xb = np.ones(shape_a), np.ones(shape_b)
        for metric in ("euclidean", "cosine", "hamming"):
            same(outcome(gd.cdist, gp.asarray(xa), gp.asarray(xb), metric),
                 outcome(sd.cdist, xa, xb, metric))
    for m in (0, 1, 2):
        x = RNG.standard_normal((m, 3))
        same(gd.pdist(gp.asarray(x)), sd.pdist(x))


def test_out_argument():
    xa, xb = data("euclidean", 5, 3), data("euclidean", 4, 3)
    out = gp.empty((5, 4))
    r = gd.cdist(gp.asarray(xa), gp.asarray(xb), out=out)
    assert r is out
    same(out, sd.cdist(xa, xb))
    out = gp.empty(10)
    assert gd.pdist(gp.asarray(xa), "cosine", out=out) is out
    same(out, sd.pdist(xa, "cosine"))
    out = gp.empty(10)
    assert gd.pdist(gp.asarray(xa), "cityblock", out=out, w=gp.ones(3)) is out
    same(out, sd.pdist(xa, "cityblock", w=np.ones(3)))
    for bad in (gp.empty((4, 5)), gp.empty((5, 4), dtype=np.float32), gp.empty((4, 5)).T):
        with pytest.raises(ValueError):
            gd.cdist(gp.asarray(xa), gp.asarray(xb), out=bad)
        with pytest.raises(ValueError):
            sd.cdist(xa, xb, out=gp.asnumpy(bad) if bad.flags.c_contiguous else
                     np.empty((4, 5)).T)


def test_errors():
    x = data("euclidean", 4, 3)
    g = gp.asarray(x)
    cases = [
        ("cdist", (x[0], x)), ("cdist", (x, x[0])), ("cdist", (x, x[:, :2])),
        ("pdist", (x[0],)), ("pdist", (x, "nope")), ("cdist", (x, x, "nope")),
        ("pdist", (x, 3)), ("pdist", (x, "test_nope")),
        ("pdist", (x, "euclidean"), {"w": np.ones(2)}),
        ("pdist", (x, "euclidean"), {"w": -np.ones(3)}),
        ("pdist", (x, "euclidean"), {"w": np.ones((3, 1))}),
        ("pdist", (x, "hamming"), {"w": np.ones(4)}),
        ("cdist", (x, x, "cosine"), {"w": -np.ones(3)}),
        ("pdist", (x, "seuclidean"), {"w": np.ones(3)}),
        ("pdist", (x, "jensenshannon"), {"w": np.ones(3)}),
        ("pdist", (x.astype(complex), "euclidean")),
    ]
    for name, args, *kw in cases:
        kw = kw[0] if kw else {}
        r = outcome(getattr(sd, name), *args, **kw)
        assert isinstance(r, Exception), (name, args, kw)
        gargs = [gp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
        gkw = {k: gp.asarray(v) for k, v in kw.items()}
        same(outcome(getattr(gd, name), *gargs, **gkw), r)
    with pytest.raises(TypeError):  # a host array is never moved implicitly
        gd.cdist(x, g)


def test_aliases_and_test_metrics_and_callables():
    x = data("euclidean", 5, 3)
    g = gp.asarray(x)
    for alias in ("eu", "CityBlock", "cheb", "matching", "js", "sqe"):
        xx = abs(x) if alias == "js" else x
        same(gd.pdist(gp.asarray(xx), alias), sd.pdist(xx, alias))
    same(gd.pdist(g, "test_sqeuclidean"), sd.pdist(x, "test_sqeuclidean"))
    same(gd.cdist(g, g[:2], "test_cityblock"), sd.cdist(x, x[:2], "test_cityblock"))

    def mine(u, v):
        return ((u - v) ** 2).sum() + 1

    same(gd.pdist(g, mine), sd.pdist(x, mine))
    out = gp.empty((5, 2))
    assert gd.cdist(g, g[:2], mine, out=out) is out
    same(out, sd.cdist(x, x[:2], mine))


VECTORS = {
    "float": (RNG.standard_normal(6), RNG.standard_normal(6)),
    "bool": (RNG.random(6) < 0.5, RNG.random(6) < 0.5),
    "int": (RNG.integers(-2, 3, 6), RNG.integers(-2, 3, 6)),
}


# every metric on floats; booleans and integers where SciPy's answer depends on them
@pytest.mark.parametrize("metric,kind", [
    (m, "float") for m in METRICS if m not in ("seuclidean", "mahalanobis")] + [
    (m, k) for m in BOOLEAN for k in ("bool", "int")] + [
    ("cityblock", "int"), ("sqeuclidean", "int"), ("cosine", "bool"), ("braycurtis", "int")])
def test_metric_on_two_vectors(metric, kind):
    u, v = VECTORS[kind]
    if metric == "jensenshannon":
        u, v = abs(u.astype(float)) + 0.1, abs(v.astype(float))
    f, ref = getattr(gd, metric), getattr(sd, metric)
    r = outcome(ref, u, v)
    g = outcome(f, gp.asarray(u), gp.asarray(v))
    if not isinstance(r, Exception):
        r = np.asarray(r)
        if r.dtype == object:
            r = r.astype(float)
        if metric in ("dice", "yule", "rogerstanimoto", "russellrao", "sokalsneath"):
            r = r.astype(np.float64)  # SciPy returns a Python float there
    same(g, r, 1e-12)
    if metric in WEIGHTED and kind != "int":
        w = RNG.random(6)
        same(outcome(f, gp.asarray(u), gp.asarray(v), w=gp.asarray(w)),
             np.float64(outcome(ref, u, v, w=w)) if metric in (
                 "dice", "yule", "rogerstanimoto", "russellrao", "sokalsneath")
             else outcome(ref, u, v, w=w), 1e-12)


def test_seuclidean_mahalanobis_jensenshannon_vectors():
    u, v = RNG.standard_normal(4), RNG.standard_normal(4)
    V = RNG.random(4) + 0.1
    same(gd.seuclidean(gp.asarray(u), gp.asarray(v), gp.asarray(V)), sd.seuclidean(u, v, V))
    same(outcome(gd.seuclidean, gp.asarray(u), gp.asarray(v), gp.ones(3)),
         outcome(sd.seuclidean, u, v, np.ones(3)))
    VI = np.eye(4) + 0.1
    same(gd.mahalanobis(gp.asarray(u), gp.asarray(v), gp.asarray(VI)), sd.mahalanobis(u, v, VI))
    p, q = abs(RNG.standard_normal((3, 4))), abs(RNG.standard_normal((3, 4)))
    q[0, 1] = 0
    for axis in (0, 1):
        for base in (None, 2.0):
            same(gd.jensenshannon(gp.asarray(p), gp.asarray(q), base, axis=axis, keepdims=True),
                 sd.jensenshannon(p, q, base, axis=axis, keepdims=True))
    # an error until SciPy 1.18, distances along the last axis since
    x2, y2 = RNG.standard_normal((2, 3)), RNG.standard_normal((1, 3))
    for name, args in [("euclidean", ()), ("minkowski", (1.5,)), ("sqeuclidean", ())]:
        same(outcome(getattr(gd, name), gp.asarray(x2), gp.asarray(y2), *args),
             outcome(getattr(sd, name), x2, y2, *args))
    same(outcome(gd.cityblock, gp.ones((2, 2)), gp.ones((2, 2))),
         outcome(sd.cityblock, np.ones((2, 2)), np.ones((2, 2))))
    same(outcome(gd.minkowski, gp.ones(2), gp.ones(2), 0),
         outcome(sd.minkowski, np.ones(2), np.ones(2), 0))
    same(outcome(gd.sokalsneath, gp.zeros(3, bool), gp.zeros(3, bool)),
         outcome(sd.sokalsneath, np.zeros(3, bool), np.zeros(3, bool)))


def test_squareform_round_trip_and_checks():
    y = RNG.random(10)
    M = sd.squareform(y)
    same(gd.squareform(gp.asarray(y)), M)
    same(gd.squareform(gp.asarray(M)), y)
    same(gd.squareform(gp.asarray(M), force="tovector"), sd.squareform(M, force="tovector"))
    for arg, kw in ((np.zeros(0), {}), (np.zeros((1, 1)), {}), (np.zeros((0, 0)), {}),
                    (np.ones(4), {}), (np.ones((2, 3)), {}), (np.ones((2, 2, 2)), {}),
                    (M, {"force": "tomatrix"}), (y, {"force": "tovector"}),
                    (M + np.triu(np.ones((5, 5)), 1), {}),
                    (M + np.triu(np.ones((5, 5)), 1), {"checks": False}),
                    (M + np.eye(5), {}), (np.arange(6), {})):
        same(outcome(gd.squareform, gp.asarray(arg), **kw), outcome(sd.squareform, arg, **kw))


def test_validity_checks_and_counts():
    y = RNG.random(6)
    M = sd.squareform(y)
    Ma = M + np.triu(np.full((4, 4), 0.01), 1)
    for D in (M, Ma, M + np.eye(4) * 0.01, np.ones(3), np.zeros((2, 3))):
        for tol in (0.0, 0.05):
            assert gd.is_valid_dm(gp.asarray(D), tol) == sd.is_valid_dm(D, tol)
            same(outcome(gd.is_valid_dm, gp.asarray(D), tol, throw=True),
                 outcome(sd.is_valid_dm, D, tol, throw=True))
        same(outcome(gd.num_obs_dm, gp.asarray(D)), outcome(sd.num_obs_dm, D))
    with pytest.warns(UserWarning):
        assert not gd.is_valid_dm(gp.asarray(Ma), warning=True)
    for Y in (y, np.ones(4), np.ones((2, 3)), np.zeros(0), np.ones(1)):
        assert gd.is_valid_y(gp.asarray(Y)) == sd.is_valid_y(Y)
        same(outcome(gd.is_valid_y, gp.asarray(Y), throw=True, name="Y"),
             outcome(sd.is_valid_y, Y, throw=True, name="Y"))
        same(outcome(gd.num_obs_y, gp.asarray(Y)), outcome(sd.num_obs_y, Y))
    assert gd.num_obs_dm(gp.asarray(M)) == 4 and gd.num_obs_y(gp.asarray(y)) == 4


def test_directed_hausdorff():
    u = RNG.standard_normal((50, 3))
    v = RNG.standard_normal((40, 3))
    for a, b in ((u, v), (v, u), (u[:1], v), (u, u)):
        d, i, j = gd.directed_hausdorff(gp.asarray(a), gp.asarray(b))
        rd, ri, rj = sd.directed_hausdorff(a, b)
        assert type(d) is float and type(i) is int and type(j) is int
        assert d == pytest.approx(rd, rel=1e-14, abs=0)
        if rd > 0:  # random points: the pair is unique, so SciPy names it too
            assert (i, j) == (ri, rj)
    same(outcome(gd.directed_hausdorff, gp.asarray(u), gp.asarray(v[:, :2])),
         outcome(sd.directed_hausdorff, u, v[:, :2]))
    # the example of SciPy's documentation
    a = np.array([(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)])
    b = np.array([(2.0, 0.0), (0.0, 2.0), (-2.0, 0.0), (0.0, -4.0)])
    assert gd.directed_hausdorff(gp.asarray(b), gp.asarray(a)) == (3.0, 3, 3)


def test_mixed_dtypes_on_the_product_path():
    """A float64 set against an int32 one (|y|^2 must not be summed in int32)."""
    xa = RNG.standard_normal((5, 20))
    xb = RNG.integers(-60000, 60000, (4, 20)).astype(np.int32)  # squares past 2^31
    for metric in ("euclidean", "sqeuclidean", "cosine"):
        same(gd.cdist(gp.asarray(xa), gp.asarray(xb), metric), sd.cdist(xa, xb, metric), 1e-11)
        same(gd.cdist(gp.asarray(xb), gp.asarray(xa), metric), sd.cdist(xb, xa, metric), 1e-11)
