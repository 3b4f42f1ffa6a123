"""gpunp.scipy.sparse.csgraph against scipy.sparse.csgraph: behaviour,
arguments and errors on small graphs (random graphs are
tests/property/test_sparse_csgraph.py's)."""

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as sc

import gpunp as gp
import gpunp.scipy.sparse.csgraph as gc
from property.sparse_strategies import assert_same, to_pair

# the sparse inputs: gpunp's classes of several formats, arrays and matrices
FORMS = [("csr", True), ("csc", False), ("coo", True), ("csr", False), ("coo", False),
         ("csc", True)]

# the example of SciPy's docs: a four-vertex graph, with one isolated vertex added
G = np.array([[0, 8, 0, 3, 0],
              [0, 0, 2, 5, 0],
              [0, 0, 0, 6, 0],
              [0, 0, 0, 0, 0],
              [0, 0, 0, 0, 0]], dtype=float)


def test_dense_graph_null_values_are_scipys():
    g = G.copy()
    g[0, 4] = np.inf
    g[4, 0] = np.nan
    for directed in (True, False):
        want = sc.connected_components(g, directed)
        got = gc.connected_components(gp.asarray(g), directed)
        assert got[0] == want[0] and np.array_equal(got[1].get(), want[1])
    np.testing.assert_array_equal(gc.shortest_path(gp.asarray(g)).get(), sc.shortest_path(g))


def test_explicit_zeros_of_a_sparse_graph_are_edges():
    m = sp.csr_array((np.array([0.0, 1.0]), np.array([1, 2]), np.array([0, 1, 2, 2])),
                     shape=(3, 3))
    for form in FORMS[:3]:
        g, s = to_pair(m, *form)
        want = sc.connected_components(s)
        got = gc.connected_components(g)
        assert got[0] == want[0] == 1 and np.array_equal(got[1].get(), want[1])
        np.testing.assert_array_equal(gc.shortest_path(g).get(), sc.shortest_path(s))
        o, p = gc.breadth_first_order(g, 0)
        wo, wp = sc.breadth_first_order(s, 0)
        assert np.array_equal(o.get(), wo) and np.array_equal(p.get(), wp)


def test_connected_components_labels_and_arguments():
    for directed in (True, False):
        for conn in ("weak", "strong", "WEAK", "Strong"):
            want = sc.connected_components(G, directed, conn)
            got = gc.connected_components(gp.asarray(G), directed, conn)
            assert got[0] == want[0] and got[1].dtype == np.int32
            if directed and conn.lower() == "strong":
                # SciPy numbers strong components in its DFS's order of completion,
                # gpunp by smallest vertex: the same partition
                assert len(set(zip(got[1].get(), want[1]))) == want[0]
            else:
                assert np.array_equal(got[1].get(), want[1])
    assert gc.connected_components(gp.asarray(G), return_labels=False) == \
        sc.connected_components(G, return_labels=False)
    with pytest.raises(ValueError, match="connection must be 'weak' or 'strong'"):
        gc.connected_components(gp.asarray(G), connection="medium")
    assert gc.connected_components(gp.zeros((0, 0)))[0] == 0


def test_strong_components_are_scipys_partition():
    # two 3-cycles joined one way, a self loop and a tail
    edges = [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5), (5, 3), (6, 6), (6, 0)]
    d = np.zeros((7, 7))
    for a, b in edges:
        d[a, b] = 1
    g, s = to_pair(d, "coo", False)
    k, want = sc.connected_components(s, connection="strong")
    kg, got = gc.connected_components(g, connection="strong")
    got = got.get()
    assert kg == k == 3
    assert len(set(zip(got, want))) == k  # the same partition
    assert list(got) == [0, 0, 0, 1, 1, 1, 2]  # gpunp numbers by smallest vertex


@pytest.mark.parametrize("directed", [True, False])
def test_breadth_first_order(directed):
    for start in range(5):
        want = sc.breadth_first_order(G, start, directed)
        got = gc.breadth_first_order(gp.asarray(G), start, directed)
        assert got[0].dtype == np.int32 and got[1].dtype == np.int32
        assert np.array_equal(got[0].get(), want[0]) and np.array_equal(got[1].get(), want[1])
    g, s = to_pair(G, *FORMS[directed])
    assert np.array_equal(gc.breadth_first_order(g, 0, directed, False).get(),
                          sc.breadth_first_order(s, 0, directed, False))
    with pytest.raises(ValueError, match="out of range"):
        gc.breadth_first_order(gp.asarray(G), 5)


@pytest.mark.parametrize("method", ["auto", "D", "BF", "FW", "J"])
@pytest.mark.parametrize("directed", [True, False])
def test_shortest_path_methods(method, directed):
    for unweighted in (False, True):
        d, p = sc.shortest_path(G, method, directed, True, unweighted)
        dg, pg = gc.shortest_path(gp.asarray(G), method, directed, True, unweighted)
        assert dg.dtype == np.float64 and pg.dtype == np.int32
        np.testing.assert_array_equal(dg.get(), d)
        if not unweighted:
            np.testing.assert_array_equal(pg.get(), p)
    if method != "FW":
        g, s = to_pair(G, *FORMS[len(method) + directed])
        for idx in (2, [3, 0], np.array([1])):
            want = sc.shortest_path(s, method, directed, indices=idx)
            got = gc.shortest_path(g, method, directed, indices=idx)
            assert got.shape == want.shape
            np.testing.assert_array_equal(got.get(), want)


def test_shortest_path_predecessors_are_shortest_on_ties():
    # unweighted: ties everywhere; every predecessor must attain the distance
    rng = np.random.default_rng(5)
    d = (rng.random((12, 12)) < 0.25).astype(float)
    dist, pred = gc.shortest_path(gp.asarray(d), return_predecessors=True, unweighted=True)
    dist, pred = dist.get(), pred.get()
    want = sc.shortest_path(d, unweighted=True)
    np.testing.assert_array_equal(dist, want)
    for s in range(12):
        for v in range(12):
            if pred[s, v] != -9999:
                assert d[pred[s, v], v] and dist[s, pred[s, v]] + 1 == dist[s, v]
            else:
                assert v == s or np.isinf(dist[s, v])


def test_negative_weights_and_cycles():
    g = np.array([[0, 2, 0], [0, 0, -1], [0, 0, 0.]])
    for method in ("BF", "J", "FW", "auto"):
        np.testing.assert_array_equal(gc.shortest_path(gp.asarray(g), method).get(),
                                      sc.shortest_path(g, method))
    cyc = g.copy()
    cyc[2, 0] = -2
    for method in ("BF", "J", "FW"):
        with pytest.raises(sc.NegativeCycleError):
            sc.shortest_path(cyc, method)
        with pytest.raises(gc.NegativeCycleError, match="Negative cycle detected on node"):
            gc.shortest_path(gp.asarray(cyc), method)
    with pytest.raises(gc.NegativeCycleError):
        gc.bellman_ford(gp.asarray(g), directed=False)
    with pytest.warns(UserWarning, match="Graph has negative weights"):
        gc.dijkstra(gp.asarray(g))


def test_dijkstra_limit_min_only_and_errors():
    for directed in (True, False):
        for kw in [dict(limit=5), dict(indices=[0, 2], min_only=True),
                   dict(indices=[1, 4], min_only=True, limit=4)]:
            want = sc.dijkstra(G, directed, return_predecessors=True, **kw)
            got = gc.dijkstra(gp.asarray(G), directed, return_predecessors=True, **kw)
            assert len(got) == len(want)
            for a, b in zip(got, want):
                np.testing.assert_array_equal(a.get(), b)
        want = sc.dijkstra(G, directed, indices=[0, 1], min_only=True)
        np.testing.assert_array_equal(
            gc.dijkstra(gp.asarray(G), directed, indices=[0, 1], min_only=True).get(), want)
    with pytest.raises(ValueError, match="indices out of range"):
        gc.dijkstra(gp.asarray(G), indices=9)
    with pytest.raises(ValueError, match="unrecognized method"):
        gc.shortest_path(gp.asarray(G), method="X")
    with pytest.raises(ValueError, match="Cannot specify indices"):
        gc.shortest_path(gp.asarray(G), method="FW", indices=[0])
    with pytest.raises(ValueError, match="must be shape"):
        gc.shortest_path(gp.ones((2, 3)))
    with pytest.raises(ValueError, match="must be 2-D"):
        gc.dijkstra(gp.ones(3))
    for fn in (gc.bellman_ford, gc.johnson, gc.floyd_warshall):
        ref = getattr(sc, fn.__name__)
        np.testing.assert_array_equal(fn(gp.asarray(G), directed=False).get(),
                                      ref(G, directed=False))


def test_minimum_spanning_tree():
    assert_same(gc.minimum_spanning_tree(gp.asarray(G)), sc.minimum_spanning_tree(G))
    # ties: SciPy keeps the entries first in its stable order, and so does gpunp
    t = np.ones((5, 5)) - np.eye(5)
    for form in FORMS:
        g, s = to_pair(t, *form)
        assert_same(gc.minimum_spanning_tree(g), sc.minimum_spanning_tree(s))
    neg = -G - G.T
    assert_same(gc.minimum_spanning_tree(gp.asarray(neg)), sc.minimum_spanning_tree(neg))
    with pytest.raises(ValueError):
        gc.minimum_spanning_tree(gp.ones((2, 3)))


def test_laplacian():
    g = G + np.diag([1, 2, 0, 0, 3])  # the diagonal is ignored
    for normed in (False, True):
        for uod in (False, True):
            for sym in (False, True):
                kw = dict(normed=normed, use_out_degree=uod, symmetrized=sym,
                          return_diag=True)
                L, d = sc.laplacian(g, **kw)
                Lg, dg = gc.laplacian(gp.asarray(g), **kw)
                assert Lg.dtype == L.dtype
                np.testing.assert_allclose(Lg.get(), L)
                np.testing.assert_allclose(dg.get(), d)
                gs, s = to_pair(g, *FORMS[normed + 2 * uod + sym])
                assert_same(gc.laplacian(gs, **kw)[0], sc.laplacian(s, **kw)[0], rtol=1e-11)
    for form in [("dia", True), ("dia", False), ("bsr", True)]:
        # an unnormed DIA graph's Laplacian is DIA in SciPy
        for normed in (False, True):
            gs, s = to_pair(g, *form)
            assert_same(gc.laplacian(gs, normed=normed), sc.laplacian(s, normed=normed),
                        rtol=1e-11)
    for dtype in (np.int64, np.float32):
        for normed in (False, True):
            assert gc.laplacian(gp.asarray(g.astype(dtype)), normed=normed).dtype == \
                sc.laplacian(g.astype(dtype), normed=normed).dtype
    assert gc.laplacian(gp.asarray(g), dtype=np.float32).dtype == np.float32
    x = np.arange(5.0)
    want = sc.laplacian(g) @ x
    np.testing.assert_allclose(gc.laplacian(gp.asarray(g), form="function")(gp.asarray(x)).get(),
                               want)
    np.testing.assert_allclose((gc.laplacian(gp.asarray(g), form="lo") @ gp.asarray(x)).get(),
                               want)
    with pytest.raises(ValueError, match="square"):
        gc.laplacian(gp.ones((2, 3)))
    with pytest.raises(ValueError):
        gc.laplacian(gp.asarray(g), form="nope")


def test_shortest_path_in_blocks_of_sources(monkeypatch):
    import gpunp.scipy.sparse.csgraph._shortest_path as impl
    monkeypatch.setattr(impl, "_BLOCK_ELEMENTS", 50)  # a block of a few sources
    rng = np.random.default_rng(7)
    d = (rng.random((20, 20)) < 0.2) * np.floor(rng.random((20, 20)) * 9 + 1)
    dist, pred = gc.shortest_path(gp.asarray(d), return_predecessors=True)
    want, wpred = sc.shortest_path(d, return_predecessors=True)
    np.testing.assert_array_equal(dist.get(), want)
    got = gc.dijkstra(gp.asarray(d), indices=[1, 2, 3], limit=5, return_predecessors=True)
    for a, b in zip(got, sc.dijkstra(d, indices=[1, 2, 3], limit=5, return_predecessors=True)):
        assert a.shape == b.shape
    np.testing.assert_array_equal(got[0].get(), sc.dijkstra(d, indices=[1, 2, 3], limit=5))
    assert gc.dijkstra(gp.asarray(d), indices=[]).shape == (0, 20)


def test_tools_match_scipy():
    g = np.array([[0, 1, 2, 0], [0, 0, 0, 1], [5, 0, 0, 3], [0, 4, 0, 0.]])
    for pred, directed in [([-9999, 0, 0, 1], True), ([-9999, 0, 0, 1], False),
                           ([-9999, 3, 0, 2], False), ([1, -9999, 0, 1], False)]:
        want = sc.reconstruct_path(g, np.array(pred), directed=directed)
        assert_same(gc.reconstruct_path(gp.asarray(g), gp.asarray(pred), directed=directed), want)
    with pytest.raises(ValueError):
        gc.reconstruct_path(gp.asarray(g), gp.asarray([-9999, 2, 0, 1]))  # no edge 2 -> 1
    # repeated entries: reconstruct_path adds them, csgraph_to_dense takes the least
    m = sp.csr_array((np.array([2., 3, 0]), np.array([1, 1, 2]), np.array([0, 3, 3, 3])),
                     shape=(3, 3))
    for form in FORMS[:4]:
        gm, s = to_pair(m, *form)
        assert_same(gc.reconstruct_path(gm, gp.asarray([-9999, 0, 0])),
                    sc.reconstruct_path(s, np.array([-9999, 0, 0])))
        for null in (0, np.inf):
            if form[0] == "coo":  # SciPy reads CSR, CSC and LIL only
                with pytest.raises(ValueError, match="lil, csr, or csc"):
                    sc.csgraph_to_dense(s, null_value=null)
                with pytest.raises(ValueError, match="lil, csr, or csc"):
                    gc.csgraph_to_dense(gm, null_value=null)
                continue
            np.testing.assert_array_equal(gc.csgraph_to_dense(gm, null_value=null).get(),
                                          sc.csgraph_to_dense(s, null_value=null))
    h = g.copy()
    h[0, 3], h[1, 0] = np.inf, np.nan
    for kw in [{}, dict(null_value=1), dict(infinity_null=False, nan_null=False)]:
        assert_same(gc.csgraph_from_dense(gp.asarray(h), **kw), sc.csgraph_from_dense(h, **kw))
    for directed in (True, False):
        dist, pred = sc.shortest_path(g, directed=directed, return_predecessors=True)
        got = gc.construct_dist_matrix(gp.asarray(g), gp.asarray(pred), directed=directed)
        np.testing.assert_array_equal(got.get(), sc.construct_dist_matrix(g, pred, directed))
        gs, s = to_pair(g, *FORMS[3 + 2 * directed])
        with pytest.raises(ValueError, match="lil, csr, or csc"):
            gc.construct_dist_matrix(to_pair(g, "dia")[0], gp.asarray(pred), directed)
        got = gc.construct_dist_matrix(gs, gp.asarray(pred), directed, null_value=-1)
        np.testing.assert_array_equal(got.get(),
                                      sc.construct_dist_matrix(s, pred, directed, null_value=-1))
        for start in range(0, 4, 3):
            assert_same(gc.breadth_first_tree(gs, start, directed),
                        sc.breadth_first_tree(s, start, directed))
        for start in range(4):
            assert_same(gc.breadth_first_tree(gp.asarray(g), start, directed),
                        sc.breadth_first_tree(g, start, directed))


def test_host_arrays_are_refused_as_gpunp_refuses_them():
    for call in (lambda: gc.connected_components(G), lambda: gc.shortest_path(G),
                 lambda: gc.minimum_spanning_tree(sp.csr_array(G)),
                 lambda: gc.laplacian(G), lambda: gc.breadth_first_order(G, 0),
                 lambda: gc.reconstruct_path(gp.asarray(G), np.array([-9999, 0, 1, 0, -9999]))):
        with pytest.raises(TypeError, match="Unsupported type"):
            call()


# every format and flavour through the paths that read a sparse graph by duck type
_W = np.round(np.random.default_rng(3).random((6, 6)) * (np.random.default_rng(4).random(
    (6, 6)) < 0.4) * 4)
_PRED = sc.breadth_first_order(_W, 0, directed=False)[1]
_GRAPH_CASES = {
    "connected_components": lambda m, L, xp: L.connected_components(m, directed=False)[1],
    "breadth_first_order": lambda m, L, xp: L.breadth_first_order(m, 0, directed=False)[0],
    "dijkstra": lambda m, L, xp: L.dijkstra(m, indices=[0, 2], return_predecessors=True)[1],
    "bellman_ford": lambda m, L, xp: L.bellman_ford(m),
    "johnson": lambda m, L, xp: L.johnson(m, directed=False),
    "reconstruct_path": lambda m, L, xp: L.reconstruct_path(m, xp.asarray(_PRED), False),
    "breadth_first_tree": lambda m, L, xp: L.breadth_first_tree(m, 0, directed=False),
    "minimum_spanning_tree": lambda m, L, xp: L.minimum_spanning_tree(m),
    "laplacian": lambda m, L, xp: L.laplacian(m, normed=True),
}
ALL_FORMS = [(f, a) for a in (True, False) for f in ("csr", "csc", "coo", "dia", "bsr")]


@pytest.mark.parametrize("form", ALL_FORMS,
                         ids=lambda f: f"{f[0]}_{'array' if f[1] else 'matrix'}")
def test_every_format_through_the_graph_paths(form):
    import gpunp.scipy.sparse as gsp
    assert gsp.csgraph is gc  # an attribute of gpunp.scipy.sparse
    for name, call in _GRAPH_CASES.items():
        g, s = to_pair(_W, *form)
        want = call(s, sc, np)
        got = call(g, gc, gp)
        if sp.issparse(want):
            assert_same(got, want, rtol=1e-12)
        else:
            np.testing.assert_array_equal(got.get(), want, err_msg=name)
