"""Hypothesis: gpunp.scipy.sparse.csgraph against SciPy on random graphs,
dense and sparse (duplicates, unsorted indices, int32/int64 indices,
isolated vertices), directed and undirected."""

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as sc
from hypothesis import given, settings, strategies as st

import gpunp as gp
import gpunp.scipy.sparse.csgraph as gc
from property.sparse_standin import CSR, random_csr
from property.sparse_strategies import assert_same

FEW = settings(max_examples=12)


@st.composite
def graphs(draw, integer_weights=True):
    if integer_weights is None:
        integer_weights = draw(st.booleans())
    seed = draw(st.integers(0, 2**32 - 1))
    n = draw(st.integers(0, 16))
    density = draw(st.sampled_from([0.05, 0.15, 0.4]))
    rng = np.random.default_rng(seed)
    m = random_csr(rng, n, n, density, index_dtype=draw(st.sampled_from([np.int32, np.int64])),
                   duplicates=draw(st.booleans()), unsorted=draw(st.booleans()))
    if integer_weights:
        m.data = np.floor(m.data * 9) + 1
    canon = m.copy()
    canon.sum_duplicates()
    dense = draw(st.booleans())
    return m, canon, (gp.asarray(canon.toarray()) if dense else CSR(m)), rng


@FEW
@given(g=graphs(), directed=st.booleans(), connection=st.sampled_from(["weak", "strong"]))
def test_connected_components(g, directed, connection):
    m, canon, graph, _ = g
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
    m, canon, graph, _ = g
    if m.shape[0] == 0:
        return
    start = data.draw(st.integers(0, m.shape[0] - 1))
    ref = m if isinstance(graph, CSR) else canon
    want = sc.breadth_first_order(ref, start, directed)
    got = gc.breadth_first_order(graph, start, directed)
    np.testing.assert_array_equal(got[0].get(), want[0])
    np.testing.assert_array_equal(got[1].get(), want[1])


@FEW
@given(g=graphs(), directed=st.booleans(), unweighted=st.booleans(),
       method=st.sampled_from(["auto", "D", "BF", "J", "FW"]))
def test_shortest_path_distances_exact(g, directed, unweighted, method):
    m, canon, graph, _ = g
    ref = m if isinstance(graph, CSR) else canon
    want = sc.shortest_path(ref, method, directed, unweighted=unweighted)
    got = gc.shortest_path(graph, method, directed, unweighted=unweighted)
    np.testing.assert_array_equal(got.get(), want)


@FEW
@given(g=graphs(integer_weights=False), directed=st.booleans(), data=st.data())
def test_dijkstra_predecessors_on_distinct_weights(g, directed, data):
    m, canon, graph, _ = g
    n = m.shape[0]
    ref = m if isinstance(graph, CSR) else canon
    idx = data.draw(st.lists(st.integers(0, max(n - 1, 0)), max_size=3)) if n else []
    want = sc.dijkstra(ref, directed, indices=idx or None, return_predecessors=True)
    got = gc.dijkstra(graph, directed, indices=idx or None, return_predecessors=True)
    np.testing.assert_array_equal(got[0].get(), want[0])
    np.testing.assert_array_equal(got[1].get(), want[1])


@FEW
@given(g=graphs(integer_weights=None))
def test_minimum_spanning_tree(g):
    m, canon, graph, _ = g
    ref = m if isinstance(graph, CSR) else canon
    want = sc.minimum_spanning_tree(ref)
    assert_same(gc.minimum_spanning_tree(graph), want)


@FEW
@given(g=graphs(), normed=st.booleans(), out=st.booleans(), sym=st.booleans())
def test_laplacian(g, normed, out, sym):
    m, canon, graph, _ = g
    kw = dict(normed=normed, use_out_degree=out, symmetrized=sym, return_diag=True)
    L, d = sc.laplacian(canon, **kw)
    Lg, dg = gc.laplacian(graph, **kw)
    if isinstance(graph, CSR):
        assert_same(Lg, L, rtol=1e-11)
    else:
        np.testing.assert_allclose(Lg.get(), L.toarray(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(dg.get(), d, rtol=1e-12)


@FEW
@given(g=graphs(), directed=st.booleans(), data=st.data())
def test_trees_and_path_lengths(g, directed, data):
    m, canon, graph, _ = g
    n = m.shape[0]
    if n == 0:
        return
    ref = m if isinstance(graph, CSR) else canon
    start = data.draw(st.integers(0, n - 1))
    assert_same(gc.breadth_first_tree(graph, start, directed),
                sc.breadth_first_tree(ref, start, directed))
    _, pred = sc.shortest_path(ref, directed=directed, return_predecessors=True)
    want = sc.construct_dist_matrix(ref, pred, directed)
    got = gc.construct_dist_matrix(graph, gp.asarray(pred), directed)
    np.testing.assert_array_equal(got.get(), want)
