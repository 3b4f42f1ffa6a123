"""gpunp.scipy.sparse.csgraph's sequential searches (depth-first order and
tree, reverse Cuthill-McKee, maximum bipartite and minimum-weight full
matching, structural rank, Yen's K shortest paths), maximum flow and the
masked-array conversions against SciPy's: exactly the
same orders, permutations, matchings and flows, over random graphs of every
input kind, and SciPy's errors for bad input."""

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as sc

import gpunp as gp
import gpunp.scipy.sparse as gsp
import gpunp.scipy.sparse.csgraph as gc

RNG = np.random.default_rng(11)


def _graphs(count, square=True):
    """(SciPy graph, gpunp graph) pairs of random sizes and densities, empty rows
    and columns included: CSR arrays and CSC matrices by turns."""
    for t in range(count):
        n = int(RNG.integers(1, 13))
        m = n if square else int(RNG.integers(1, 13))
        a = sp.random_array((n, m), density=float(RNG.uniform(0.05, 0.5)), rng=RNG,
                            format="csr")
        a.data = np.ceil(a.data * 9)
        host = sp.csc_matrix(a) if t % 2 else a
        yield host, (gsp.csc_matrix if t % 2 else gsp.csr_array)(host)


def _eq(got, want):
    got = gp.asnumpy(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_depth_first_like_scipy():
    for s, g in _graphs(30):
        start = int(RNG.integers(0, s.shape[0]))
        for directed in (True, False):
            o, p = sc.depth_first_order(s, start, directed=directed)
            go, gpred = gc.depth_first_order(g, start, directed=directed)
            _eq(go, o)
            _eq(gpred, p)
            _eq(gc.depth_first_order(g, start, directed, return_predecessors=False), o)
            t, gt = sc.depth_first_tree(s, start, directed), gc.depth_first_tree(g, start,
                                                                                   directed)
            assert gt.format == t.format and gsp.isspmatrix(gt) == sp.isspmatrix(t)
            _eq(gt.toarray(), t.toarray())
    dense = np.array([[0, 1, 2, 0], [0, 0, 0, 1], [2, 0, 0, 3], [0, 0, 0, 0]], float)
    o, p = sc.depth_first_order(dense, 0, directed=False)
    go, gpred = gc.depth_first_order(gp.asarray(dense), 0, directed=False)
    _eq(go, o)
    _eq(gpred, p)
    with pytest.raises(ValueError):
        gc.depth_first_order(gp.asarray(dense), 4)  # SciPy reads out of bounds here


def test_reverse_cuthill_mckee_like_scipy():
    for s, g in _graphs(30):
        for symmetric in (False, True):
            _eq(gc.reverse_cuthill_mckee(g, symmetric), sc.reverse_cuthill_mckee(s, symmetric))
    coo = np.eye(3)[[2, 0, 1]]
    with pytest.raises(TypeError):
        sc.reverse_cuthill_mckee(sp.coo_array(coo))
    with pytest.raises(TypeError):
        gc.reverse_cuthill_mckee(gsp.coo_array(gp.asarray(coo)))
    with pytest.raises(TypeError):
        sc.reverse_cuthill_mckee(np.eye(3))
    with pytest.raises(TypeError):
        gc.reverse_cuthill_mckee(gp.eye(3))


def test_matching_and_structural_rank_like_scipy():
    for s, g in _graphs(40, square=False):
        for perm_type in ("row", "column"):
            _eq(gc.maximum_bipartite_matching(g, perm_type),
                sc.maximum_bipartite_matching(s, perm_type))
        assert gc.structural_rank(g) == sc.structural_rank(s)
    coo = np.array([[0, 1.0, 0], [2, 0, 0]])  # COO is read too (as CSR)
    for perm_type in ("row", "column"):
        _eq(gc.maximum_bipartite_matching(gsp.coo_array(gp.asarray(coo)), perm_type),
            sc.maximum_bipartite_matching(sp.coo_array(coo), perm_type))
    with pytest.raises(TypeError):
        gc.maximum_bipartite_matching(gp.eye(3))
    with pytest.raises(TypeError):
        gc.maximum_bipartite_matching(gsp.dia_array(gp.eye(3)))
    with pytest.raises(TypeError):
        sc.maximum_bipartite_matching(sp.dia_array(np.eye(3)))
    with pytest.raises(TypeError):
        gc.structural_rank(gp.eye(3))
    with pytest.warns(gsp.SparseEfficiencyWarning):
        assert gc.structural_rank(gsp.dia_array(gp.eye(3))) == 3


def test_masked_conversions_like_scipy():
    g = np.array([[0, 1.0, np.inf], [2, 0, np.nan], [0, 3, -1]])
    for kw in ({}, dict(null_value=np.inf), dict(null_value=np.nan),
               dict(null_value=None, nan_null=False), dict(null_value=-1, infinity_null=False)):
        want = sc.csgraph_masked_from_dense(g, **kw)
        got = sc_got = gc.csgraph_masked_from_dense(gp.asarray(g), **kw)
        assert isinstance(got, np.ma.MaskedArray) and got.dtype == want.dtype
        np.testing.assert_array_equal(np.ma.getmaskarray(got), np.ma.getmaskarray(want))
        np.testing.assert_array_equal(got.filled(7), want.filled(7))
        s, d = sc.csgraph_from_masked(want), gc.csgraph_from_masked(sc_got)
        assert d.format == "csr" and isinstance(d, gsp.sparray)
        _eq(d.indices, s.indices)
        _eq(d.indptr, s.indptr)
        _eq(d.data, s.data)
    for host, dev in _graphs(10):
        want, got = sc.csgraph_to_masked(host), gc.csgraph_to_masked(dev)
        np.testing.assert_array_equal(np.ma.getmaskarray(got), np.ma.getmaskarray(want))
        np.testing.assert_array_equal(got.filled(0), want.filled(0))
    for bad in (np.ones((2, 3)), np.ones(3)):
        with pytest.raises(ValueError):
            sc.csgraph_masked_from_dense(bad)
        with pytest.raises(ValueError):
            gc.csgraph_masked_from_dense(gp.asarray(bad))
        with pytest.raises(ValueError):
            gc.csgraph_from_masked(np.ma.asarray(bad))


def test_maximum_flow_like_scipy():
    for s, g in _graphs(45):
        n = s.shape[0]
        if n < 2:
            continue
        s, g = s.tocsr().astype(np.int32), g.tocsr().astype(np.int32)
        src, dst = (int(v) for v in RNG.choice(n, 2, replace=False))
        for method in ("dinic", "edmonds_karp"):
            want = sc.maximum_flow(s, src, dst, method=method)
            got = gc.maximum_flow(g, src, dst, method=method)
            assert got.flow_value == want.flow_value and repr(got) == repr(want)
            assert gsp.isspmatrix(got.flow) == sp.isspmatrix(want.flow)
            for name in ("indptr", "indices", "data"):  # explicit zeros included
                _eq(getattr(got.flow, name), getattr(want.flow, name))
    a = np.array([[0, 5, 0], [0, 0, 3], [0, 0, 0]])
    bad = [((a, 0, 0), {}), ((a, 0, 3), {}), ((a, -1, 2), {}), ((a, 0, 2), dict(method="x")),
           ((a.astype(float), 0, 2), {}), ((np.ones((2, 3), int), 0, 1), {})]
    for (graph, src, dst), kw in bad:
        with pytest.raises(ValueError):
            sc.maximum_flow(sp.csr_array(graph), src, dst, **kw)
        with pytest.raises(ValueError):
            gc.maximum_flow(gsp.csr_array(gp.asarray(graph)), src, dst, **kw)
    for graph in (gsp.csc_array(gp.asarray(a)), gp.asarray(a)):
        with pytest.raises(TypeError):
            gc.maximum_flow(graph, 0, 2)
    with pytest.raises(TypeError):
        sc.maximum_flow(sp.csc_array(a), 0, 2)


def test_min_weight_full_bipartite_matching_like_scipy():
    outcomes = set()
    for t in range(90):
        n = int(RNG.integers(1, 8))
        m = n if t % 2 else int(RNG.integers(1, 8))
        a = sp.random_array((n, m), density=float(RNG.uniform(0.3, 1.0)), rng=RNG)
        if t % 3 == 0:
            a.data = np.ceil(a.data * 3)  # equal weights: SciPy's tie-breaks
        s = (a.tocsr(), a.tocsc(), a.tocoo())[t % 3]
        g = (gsp.csr_array, gsp.csc_array, gsp.coo_array)[t % 3](s)
        maximize = t % 4 == 0
        try:
            want = sc.min_weight_full_bipartite_matching(s, maximize=maximize)
        except ValueError:
            with pytest.raises(ValueError, match="no full matching"):
                gc.min_weight_full_bipartite_matching(g, maximize=maximize)
            outcomes.add("none")
            continue
        got = gc.min_weight_full_bipartite_matching(g, maximize=maximize)
        for x, y in zip(got, want):
            _eq(x, y)
        outcomes.add("tall" if n > m else "wide")
    assert outcomes == {"none", "tall", "wide"}
    # an explicit zero is no edge (with SciPy's warning), an infinite weight neither
    data = np.array([0.0, 1.0, 4.0, np.inf, 3.0, 2.0, 5.0, 1.0])
    ind, ptr = np.array([0, 1, 2, 0, 1, 2, 0, 2]), np.array([0, 3, 6, 8])
    with pytest.warns(UserWarning, match="explicit zero"):
        want = sc.min_weight_full_bipartite_matching(sp.csr_array((data, ind, ptr)))
    with pytest.warns(UserWarning, match="explicit zero"):
        got = gc.min_weight_full_bipartite_matching(
            gsp.csr_array((gp.asarray(data), gp.asarray(ind), gp.asarray(ptr))))
    for x, y in zip(got, want):
        _eq(x, y)
    with pytest.raises(TypeError):
        gc.min_weight_full_bipartite_matching(gp.eye(2))
    with pytest.raises(TypeError):
        gc.min_weight_full_bipartite_matching(gsp.dia_array(gp.eye(2)))


def test_yen_like_scipy():
    kinds = set()
    for t in range(40):
        n = int(RNG.integers(2, 9))
        a = sp.random_array((n, n), density=float(RNG.uniform(0.3, 0.7)), rng=RNG,
                            format="csr")
        if t % 5 == 0:
            a.data -= 0.2  # negative weights: Johnson's reweighting, or a negative cycle
        src, dst, k = int(RNG.integers(0, n)), int(RNG.integers(0, n)), int(RNG.integers(1, 6))
        g = gsp.csr_array(a)
        for directed, unweighted in ((True, False), (False, False), (True, True)):
            kw = dict(directed=directed, unweighted=unweighted, return_predecessors=True)
            try:
                dist, pred = sc.yen(a, src, dst, k, **kw)
            except sc.NegativeCycleError:
                with pytest.raises(gc.NegativeCycleError):
                    gc.yen(g, src, dst, k, **kw)
                kinds.add("cycle")
                continue
            gdist, gpred = gc.yen(g, src, dst, k, **kw)
            assert gdist.dtype == dist.dtype
            np.testing.assert_allclose(gdist.get(), dist, rtol=1e-12)
            if not unweighted:  # unit weights tie: SciPy's candidate order is its own
                _eq(gpred, pred)
            kinds.add(min(len(dist), 2))
    assert kinds == {"cycle", 0, 1, 2}
    dense = np.array([[0, 1, 2], [0, 0, 1], [0, 0, 0.0]])
    _eq(gc.yen(gp.asarray(dense), 0, 2, 3), sc.yen(dense, 0, 2, 3))
    with pytest.raises(ValueError):
        sc.yen(dense, 0, 3, 2)
    with pytest.raises(ValueError):
        gc.yen(gp.asarray(dense), 0, 3, 2)
