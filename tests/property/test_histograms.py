"""Property tests of bincount, histogram, histogram_bin_edges, histogram2d
and histogramdd against NumPy: every dtype each takes, NaN/inf (NumPy's
errors for an infinite autodetected range), duplicates, bins as a number, a
sequence or an estimator's name, range, density and weights. Counts are
exact; weighted sums (float64 atomics on a GPU add in no fixed order) are
compared within n*eps*sum|w|."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp

from .outcome import same_outcome
from .strategies import assert_same, bounded_values, device_arrays, dtypes, shapes

# fd and auto take the quartiles: tested once gpunp has percentile
_ESTIMATORS = ["sqrt", "sturges", "rice", "scott", "stone", "doane"] + (
    ["fd", "auto"] if hasattr(gp, "percentile") else [])


def _weights(data, shape, kinds="biufc"):
    """Weights whose sums fit their dtype: NumPy adds integer weights in
    float64 and casts back, and an out-of-range float-to-integer cast is
    the platform's (undefined in C)."""
    dt = data.draw(dtypes(kinds), label="weights dtype")
    vals = bounded_values(dt, 100 if dt.kind in "iu" else 1e3)
    return data.draw(device_arrays(dt, shape, finite=True, values=vals), label="weights")


def _weighted_tolerance(w, want):
    h = np.abs(np.asarray(w, dtype=np.complex128 if w.dtype.kind == "c" else np.float64))
    eps = float(np.finfo(np.asarray(want).dtype).eps) if np.asarray(want).dtype.kind in "fc" \
        else 0.0
    return 4 * max(w.size, 1) * eps * float(h[np.isfinite(h)].sum())


@given(data=st.data())
def test_bincount_matches_numpy(data):
    dt = data.draw(dtypes("biu"), label="dtype")
    small = st.integers(-2 if dt.kind == "i" else 0, 40)
    g, x = data.draw(device_arrays(dt, data.draw(shapes(0, 2, max_side=30), label="shape"),
                                   values=small if dt.kind != "b" else None), label="x")
    kw = {}
    if data.draw(st.booleans(), label="minlength"):
        kw["minlength"] = data.draw(st.integers(-1, 50), label="minlength=")
    gw = nw = None
    if data.draw(st.booleans(), label="weights"):
        gw, nw = _weights(data, x.shape)
    got, want = same_outcome(lambda: np.bincount(x, nw, **kw), lambda: gp.bincount(g, gw, **kw))
    if want is not None:
        tol = _weighted_tolerance(nw, want) if nw is not None else 0.0
        assert_same(got, want, rtol=1e-15, atol=tol)


def _data(data, kinds="biuf", finite=False):
    dt = data.draw(dtypes(kinds), label="dtype")
    values = None
    if dt.kind == "f" and not finite:
        values = st.one_of(st.sampled_from([np.nan, np.inf, -np.inf, 0.0, 1.0, 1.0]),
                           st.floats(-1e3, 1e3, width=8 * dt.itemsize))
    elif dt.kind == "f":
        values = st.floats(-1e3, 1e3, width=8 * dt.itemsize)
    return data.draw(device_arrays(dt, data.draw(shapes(0, 2, max_side=12), label="shape"),
                                   values=values), label="a")


def _bins(data, x):
    kind = data.draw(st.sampled_from(["int", "sequence", "estimator"]), label="bins kind")
    if kind == "int":
        return data.draw(st.integers(-1, 12), label="bins")
    if kind == "estimator":
        return data.draw(st.sampled_from(_ESTIMATORS), label="bins")
    edges = data.draw(st.lists(st.floats(-20, 20, width=32), max_size=8),
                      label="edges")
    if data.draw(st.booleans(), label="sorted"):
        edges = sorted(edges)
    return np.asarray(edges)


@given(data=st.data())
def test_histogram_matches_numpy(data):
    g, x = _data(data)
    bins = _bins(data, x)
    kw = {"bins": bins}
    if data.draw(st.booleans(), label="range"):
        lo = data.draw(st.floats(-30, 30), label="lo")
        kw["range"] = (lo, lo + data.draw(st.floats(-1, 30), label="width"))
    kw["density"] = data.draw(st.sampled_from([None, False, True]), label="density")
    gkw = dict(kw)
    nw = None
    if data.draw(st.booleans(), label="weights"):
        gw, nw = _weights(data, x.shape)
        gkw["weights"], kw["weights"] = gw, nw
    if isinstance(bins, np.ndarray):
        gkw["bins"] = gp.asarray(bins) if data.draw(st.booleans(), label="device bins") else bins
    got, want = same_outcome(lambda: np.histogram(x, **kw), lambda: gp.histogram(g, **gkw))
    if want is None:
        return
    assert_same(got[1], want[1])
    tol = _weighted_tolerance(nw, want[0]) if nw is not None else 0.0
    if kw["density"]:
        w = np.asarray(want[0])
        scale = float(np.abs(w[np.isfinite(w)]).max()) if w.size and np.isfinite(w).any() \
            else 0.0
        tol = max(tol, 8 * max(x.size, 1) * float(np.finfo(w.dtype).eps) * scale)
    assert_same(got[0], want[0], rtol=1e-14 if nw is None and not kw["density"] else 1e-6,
                atol=tol)


@given(data=st.data())
def test_histogram_bin_edges_matches_numpy(data):
    g, x = _data(data, finite=data.draw(st.booleans(), label="finite"))
    bins = _bins(data, x)
    got, want = same_outcome(lambda: np.histogram_bin_edges(x, bins=bins),
                             lambda: gp.histogram_bin_edges(g, bins=bins))
    if want is not None:
        assert_same(got, want)


@pytest.mark.parametrize("how", ["histogramdd", "histogram2d"])
@given(data=st.data())
def test_histogramdd_matches_numpy(how, data):
    dt = data.draw(dtypes("iuf"), label="dtype")
    n = data.draw(st.integers(0, 20), label="n")
    d = 2 if how == "histogram2d" else data.draw(st.integers(1, 3), label="d")
    vals = st.floats(-50, 50, width=8 * dt.itemsize) if dt.kind == "f" else None
    g, x = data.draw(device_arrays(dt, (n, d), values=vals), label="sample")
    b = data.draw(st.one_of(
        st.integers(0, 6),
        st.lists(st.integers(1, 5), min_size=d, max_size=d),
        st.lists(st.floats(-60, 60), min_size=2, max_size=6).map(sorted).map(np.asarray)),
        label="bins")
    kw = {"bins": b, "density": data.draw(st.sampled_from([None, True]), label="density")}
    if data.draw(st.booleans(), label="range"):
        kw["range"] = [(-10.0, 10.0)] * d
    gkw, nw = dict(kw), None
    if data.draw(st.booleans(), label="weights"):
        gw, nw = _weights(data, (n,), "biuf")
        gkw["weights"], kw["weights"] = gw, nw
    if how == "histogram2d":
        calls = (lambda: np.histogram2d(x[:, 0], x[:, 1], **kw),
                 lambda: gp.histogram2d(g[:, 0], g[:, 1], **gkw))
    else:
        calls = (lambda: np.histogramdd(x, **kw), lambda: gp.histogramdd(g, **gkw))
    got, want = same_outcome(*calls)
    if want is None:
        return
    hg, hw = got[0], want[0]
    edges_g = got[1:] if how == "histogram2d" else got[1]
    edges_w = want[1:] if how == "histogram2d" else want[1]
    for eg, ew in zip(edges_g, edges_w):
        assert_same(eg, ew)
    tol = _weighted_tolerance(nw, hw) if nw is not None else 0.0
    w = np.asarray(hw)
    if kw["density"] and w.size and np.isfinite(w).any():
        tol = max(tol, 8 * max(n, 1) * 2.3e-16 * float(np.abs(w[np.isfinite(w)]).max()))
    assert_same(hg, hw, rtol=1e-12, atol=tol)


@pytest.mark.parametrize("bins", [(), [], np.array([], np.int64), np.array([], np.float32), [5.0]],
                         ids=["tuple", "list", "int64", "float32", "one edge"])
@pytest.mark.parametrize("a", [[1.0, 2.0, 3.0], [3, 1, 2], [True, False, True], []])
@pytest.mark.parametrize("kw", [{}, {"density": True}, {"weights": [1.0, 2.0, 3.0]},
                                {"weights": [1, 2, 3]}, {"weights": [1j, 2, 3]}])
def test_histogram_with_no_bins_matches_numpy(bins, a, kw):
    """No edges at all are no bins, as one edge: empty counts in NumPy's dtype."""
    if "weights" in kw and len(kw["weights"]) != len(a):
        kw = {"weights": kw["weights"][:len(a)]}
    gkw = {k: gp.asarray(v) for k, v in kw.items() if k == "weights"}
    gkw.update((k, v) for k, v in kw.items() if k != "weights")
    got, want = same_outcome(lambda: np.histogram(np.asarray(a), bins=bins, **kw),
                             lambda: gp.histogram(gp.asarray(a), bins=bins, **gkw))
    if want is not None:
        assert_same(got[0], want[0])
        assert_same(got[1], want[1])


@pytest.mark.parametrize("x, y", [(-1, -1), (np.float64(2.0), np.float64(2.0)),
                                  ("0-d", "0-d"), ([1.0, 2.0], 3.0), ([1.0, 2.0], [1.0, 2.0, 3.0]),
                                  ([1.0, 2.0, 4.0], [3.0, 1.0, 2.0])])
def test_histogram2d_of_scalars_and_unequal_lengths_matches_numpy(x, y):
    """NumPy first compares len(x) with len(y): a scalar or a 0-d array, which
    has none, is a TypeError, unequal lengths a ValueError."""
    def args(m):
        return [m.asarray(2.0) if isinstance(v, str) else v for v in (x, y)]
    got, want = same_outcome(lambda: np.histogram2d(*args(np)),
                             lambda: gp.histogram2d(*args(gp)))
    if want is not None:
        for g, w in zip(got, want):
            assert_same(g, w)


def test_bincount_errors_and_routing():
    with pytest.raises(ValueError, match="negative"):
        gp.bincount(gp.asarray(np.array([1, -1, 2])))
    with pytest.raises(TypeError):
        gp.bincount(gp.asarray(np.array([1.0, 2.0])))
    r = np.bincount(gp.asarray(np.array([2, 2, 0])))
    assert isinstance(r, gp.ndarray)
    np.testing.assert_array_equal(r.get(), [1, 0, 2])
    h, e = np.histogram(gp.asarray(np.arange(10.0)), bins=3)
    assert isinstance(h, gp.ndarray) and isinstance(e, gp.ndarray)


def test_scatter_add_counts_every_repeat():
    # many repeats of a few bins: on a GPU the atomic adds collide
    idx = np.random.default_rng(3).integers(0, 4, 100_000)
    got = gp.bincount(gp.asarray(idx), minlength=4)
    np.testing.assert_array_equal(got.get(), np.bincount(idx, minlength=4))


@pytest.mark.parametrize("dt", ["int32", "uint32", "int64", "uint64", "float32", "float64",
                                "complex64", "complex128"])
def test_scatter_add_matches_numpy_add_at(dt):
    from gpunp._histograms import scatter_add
    rng = np.random.default_rng(5)
    idx = rng.integers(-6, 6, 300)
    vals = rng.integers(-50, 50, 300).astype(dt)
    if np.dtype(dt).kind == "c":
        vals = vals + 1j * vals[::-1]
    want = np.zeros(6, dt)
    np.add.at(want, idx, vals)  # negative indices count from the end, as NumPy's
    got = gp.zeros(6, dt)
    scatter_add(got, gp.asarray(idx), gp.asarray(vals))
    assert_same(got, want)  # small integers: every order of adding is exact
    with pytest.raises(IndexError):  # a GPU reports it at the next synchronisation
        scatter_add(got, gp.asarray(np.array([6])), gp.asarray(vals[:1]))
        gp.cuda.Device().synchronize()


def test_scatter_add_refuses_narrow_dtypes():
    from gpunp._histograms import scatter_add
    with pytest.raises(TypeError):
        scatter_add(gp.zeros(3, np.int8), gp.asarray(np.array([0])), 1)
