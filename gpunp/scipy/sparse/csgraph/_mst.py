"""minimum_spanning_tree by Boruvka's rounds on the device.

SciPy runs Kruskal over the stored entries sorted stably by weight. Ranking
the entries by that same order (weight, then position) makes every edge
weight distinct, so the spanning forest is unique and Boruvka finds exactly
Kruskal's: the same entries, ties included."""

import gpunp as gp

from ._csr import _csr_result, scatter_reduce
from ._graph import as_graph, fixpoint_parents

__all__ = ["minimum_spanning_tree"]


def minimum_spanning_tree(csgraph, overwrite=False):
    """The minimum spanning tree (forest) of the undirected graph, as
    scipy.sparse.csgraph.minimum_spanning_tree: the kept entries, at their
    own positions, as CSR of the input's flavour (``_csr_result``)."""
    g = as_graph(csgraph)
    n, u, v, w = g.n, g.src, g.dst, g.w
    m = w.shape[0]
    order = gp.argsort(w, kind="stable")
    rank = gp.empty(m, dtype=gp.int64)
    rank[order] = gp.arange(m, dtype=gp.int64)
    comp = gp.arange(n, dtype=gp.int64)
    kept = gp.zeros(m, dtype=bool)
    vertex = gp.arange(n, dtype=gp.int64)
    while m:
        cu, cv = comp[u], comp[v]
        cross = cu != cv
        if not bool(gp.any(cross)):
            break
        # each component's lightest edge out (by rank)
        rc = rank[cross]
        best = scatter_reduce(gp.minimum, gp.concatenate([cu[cross], cv[cross]]),
                              gp.concatenate([rc, rc]), n, m)
        has = best < m
        c = vertex[has]
        e = order[best[has]]
        kept[e] = True
        other = gp.where(comp[u[e]] == c, comp[v[e]], comp[u[e]])
        parent = vertex.copy()
        parent[c] = other
        # two components that chose the same edge point at each other: the
        # smaller stays a root
        mutual = (parent[other] == c) & (c < other)
        parent[c[mutual]] = c[mutual]
        parent = fixpoint_parents(parent)
        comp = parent[comp]
    keep = kept & (w != 0)
    counts = gp.bincount(u[keep], minlength=n)
    indptr = gp.concatenate([gp.zeros(1, dtype=gp.int64), gp.cumsum(counts)])
    return _csr_result(w[keep], v[keep], indptr, (n, n), like=csgraph)
