"""Hypothesis: gpunp.scipy.sparse.csgraph against SciPy on random graphs,
dense and sparse (duplicates, unsorted indices, int32/int64 indices,
isolated vertices), directed and undirected."""

import numpy as np
import pytest
import scipy.sparse.csgraph as sc
from hypothesis import given, settings, strategies as st

import gpunp as gp
import gpunp.scipy.sparse.csgraph as gc
from property.sparse_strategies import assert_same, random_host, to_pair

FEW = settings(max_examples=12)


@st.composite
def graphs(draw, integer_weights=True):
    """(graph, ref, canon, rng): a gpunp graph (dense, or sparse of a drawn
    format and flavour), SciPy's same graph, and SciPy's canonical CSR."""
    if integer_weights is None:
        integer_weights = draw(st.booleans())
    seed = draw(st.integers(0, 2**32 - 1))
    n = draw(st.integers(0, 16))
    density = draw(st.sampled_from([0.05, 0.15, 0.4]))
    rng = np.random.default_rng(seed)
    m = random_host(rng, n, n, density, index_dtype=draw(st.sampled_from([np.int32, np.int64])),
                    duplicates=draw(st.booleans()), unsorted=draw(st.booleans()))
    if integer_weights:
        m.data = np.floor(m.data * 9) + 1
    canon = m.copy()
    canon.sum_duplicates()
    if draw(st.booleans()):
        return gp.asarray(canon.toarray()), canon, canon, rng
    graph, ref = to_pair(m, draw(st.sampled_from(["csr", "csc", "coo"])), draw(st.booleans()))
    return graph, ref, canon, rng


@FEW
@given(g=graphs(), directed=st.booleans(), connection=st.sampled_from(["weak", "strong"]))
def test_connected_components(g, directed, connection):
    graph, _, canon, _ = g
    # SciPy's strong components loop forever on duplicate entries: ask it of the canonical
    k, want = sc.connected_components(canon, directed, connection)
    kg, got = gc.connected_components(graph, directed, connection)
    got = got.get()
    assert kg == k
    if directed and connection == "strong":
        assert len(set(zip(got, want))) == k
        first = [list(got).index(c) for c in range(k)]
        assert first == sorted(first)
    else:
        np.testing.assert_array_equal(got, want)


@FEW
@given(g=graphs(), directed=st.booleans(), data=st.data())
def test_breadth_first_order(g, directed, data):
    graph, ref, canon, _ = g
    if ref.shape[0] == 0:
        return
    start = data.draw(st.integers(0, ref.shape[0] - 1))
    want = sc.breadth_first_order(ref, start, directed)
    got = gc.breadth_first_order(graph, start, directed)
    np.testing.assert_array_equal(got[0].get(), want[0])
    np.testing.assert_array_equal(got[1].get(), want[1])


@FEW
@given(g=graphs(), directed=st.booleans(), unweighted=st.booleans(),
       method=st.sampled_from(["auto", "D", "BF", "J", "FW"]))
def test_shortest_path_distances_exact(g, directed, unweighted, method):
    graph, ref, canon, _ = g
    try:
        want = sc.shortest_path(ref, method, directed, unweighted=unweighted)
    except ValueError:  # Floyd-Warshall (chosen or by 'auto') of a COO graph
        with pytest.raises(ValueError, match="lil, csr, or csc"):
            gc.shortest_path(graph, method, directed, unweighted=unweighted)
        return
    got = gc.shortest_path(graph, method, directed, unweighted=unweighted)
    np.testing.assert_array_equal(got.get(), want)


@FEW
@given(g=graphs(integer_weights=False), directed=st.booleans(), data=st.data())
def test_dijkstra_predecessors_on_distinct_weights(g, directed, data):
    graph, ref, canon, _ = g
    n = ref.shape[0]
    idx = data.draw(st.lists(st.integers(0, max(n - 1, 0)), max_size=3)) if n else []
    want = sc.dijkstra(ref, directed, indices=idx or None, return_predecessors=True)
    got = gc.dijkstra(graph, directed, indices=idx or None, return_predecessors=True)
    np.testing.assert_array_equal(got[0].get(), want[0])
    np.testing.assert_array_equal(got[1].get(), want[1])


@FEW
@given(g=graphs(integer_weights=None))
def test_minimum_spanning_tree(g):
    graph, ref, canon, _ = g
    want = sc.minimum_spanning_tree(ref)
    assert_same(gc.minimum_spanning_tree(graph), want)


@FEW
@given(g=graphs(), normed=st.booleans(), out=st.booleans(), sym=st.booleans())
def test_laplacian(g, normed, out, sym):
    graph, ref, canon, _ = g
    kw = dict(normed=normed, use_out_degree=out, symmetrized=sym, return_diag=True)
    dense = isinstance(graph, gp.ndarray)
    L, d = sc.laplacian(canon.toarray() if dense else ref, **kw)
    Lg, dg = gc.laplacian(graph, **kw)
    assert_same(Lg, L, rtol=1e-11)
    np.testing.assert_allclose(dg.get(), d, rtol=1e-12)


@FEW
@given(g=graphs(), directed=st.booleans(), data=st.data())
def test_trees_and_path_lengths(g, directed, data):
    graph, ref, canon, _ = g
    n = ref.shape[0]
    if n == 0:
        return
    start = data.draw(st.integers(0, n - 1))
    assert_same(gc.breadth_first_tree(graph, start, directed),
                sc.breadth_first_tree(ref, start, directed))
    _, pred = sc.shortest_path(ref, "D", directed=directed, return_predecessors=True)
    if ref.format == "coo":  # SciPy's construct_dist_matrix reads CSR, CSC, LIL only
        with pytest.raises(ValueError, match="lil, csr, or csc"):
            gc.construct_dist_matrix(graph, gp.asarray(pred), directed)
        return
    want = sc.construct_dist_matrix(ref, pred, directed)
    got = gc.construct_dist_matrix(graph, gp.asarray(pred), directed)
    np.testing.assert_array_equal(got.get(), want)
