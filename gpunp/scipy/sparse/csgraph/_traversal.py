"""connected_components and breadth_first_order, vectorised: hooking and
pointer jumping for components, colour propagation for strong components,
one frontier per BFS level. Loops run over rounds and levels, never over
vertices or edges."""

import gpunp as gp

from ._csr import Segments, scatter_reduce
from ._graph import NULL, as_graph, fixpoint_parents, rank_by_first_vertex
from ._tools import reconstruct_path

__all__ = ["breadth_first_order", "breadth_first_tree", "connected_components"]


def _weak_roots(n, u, v):
    """Each vertex's component root (its smallest vertex) in the undirected
    graph of edges u-v: hook the larger root under the smaller, then jump."""
    parent = gp.arange(n, dtype=gp.int64)
    while True:
        pu, pv = parent[u], parent[v]
        if not bool(gp.any(pu != pv)):
            return parent
        hooks = scatter_reduce(gp.minimum, gp.maximum(pu, pv), gp.minimum(pu, pv), n, n)
        parent = gp.minimum(parent, hooks)
        parent = fixpoint_parents(parent)


def _strong_ids(n, u, v):
    """Each vertex's strong component, named by a member: colour every
    vertex with the largest vertex that reaches it; a vertex of its own
    colour is a root, and its component is what reaches it backwards within
    the colour. Found components leave the graph; repeat."""
    ids = gp.full(n, -1, dtype=gp.int64)
    active = gp.ones(n, dtype=bool)
    vertex = gp.arange(n, dtype=gp.int64)
    while bool(gp.any(active)):
        live = active[u] & active[v]
        eu, ev = u[live], v[live]
        colour = gp.where(active, vertex, -1)
        into = Segments(ev, n)
        while True:
            new = gp.maximum(colour, into.reduce(gp.maximum, colour[eu], -1))
            if bool(gp.all(new == colour)):
                break
            colour = new
        member = active & (colour == vertex)
        same = colour[eu] == colour[ev]
        bu, bv = eu[same], ev[same]
        while True:
            grow = member.copy()
            grow[bu[member[bv]]] = True
            if bool(gp.all(grow == member)):
                break
            member = grow
        ids = gp.where(member, colour, ids)
        active = active & ~member
    return ids


def connected_components(csgraph, directed=True, connection="weak", return_labels=True):
    """The connected components of a graph, as
    scipy.sparse.csgraph.connected_components: ``n_components`` and the
    int32 labels. Weak (and undirected) labels are numbered as SciPy's, by
    each component's smallest vertex; strong components are numbered the
    same way, where SciPy numbers them in its depth-first search's order of
    completion (the same partition, labels permuted)."""
    if connection.lower() not in ("weak", "strong"):
        raise ValueError("connection must be 'weak' or 'strong'")
    g = as_graph(csgraph, directed)
    if directed and connection.lower() == "strong":
        ids = _strong_ids(g.n, g.src, g.dst)
    else:
        ids = _weak_roots(g.n, g.src, g.dst)
    count, labels = rank_by_first_vertex(ids) if g.n else (0, gp.zeros(0, dtype=gp.int32))
    return (count, labels) if return_labels else count


def _adjacency(g, directed):
    """(indptr, targets) of the adjacency lists BFS walks, in SciPy's order:
    each vertex's stored edges, then (undirected) the edges into it,
    by source vertex."""
    if directed:
        return g.indptr, g.dst
    # reversed edges ordered by (their new source, old source), as SciPy's
    # transpose-to-CSR conversion orders them; forward edges come first
    back = gp.lexsort((g.src, g.dst))
    src = gp.concatenate([g.src, g.dst[back]])
    dst = gp.concatenate([g.dst, g.src[back]])
    block = gp.concatenate([gp.zeros(g.src.shape[0], dtype=gp.int64),
                            gp.ones(g.src.shape[0], dtype=gp.int64)])
    order = gp.lexsort((gp.arange(src.shape[0]), block, src))
    counts = gp.bincount(src, minlength=g.n)
    indptr = gp.concatenate([gp.zeros(1, dtype=gp.int64), gp.cumsum(counts)])
    return indptr, dst[order]


def breadth_first_order(csgraph, i_start, directed=True, return_predecessors=True):
    """The vertices reached from ``i_start`` in breadth-first order, and
    their predecessors (-9999 where none), as
    scipy.sparse.csgraph.breadth_first_order: the same order as SciPy's
    queue, one frontier at a time."""
    g = as_graph(csgraph, directed)
    i_start = int(i_start)
    if not 0 <= i_start < g.n:
        raise ValueError(f"i_start={i_start} out of range for a graph of {g.n} vertices")
    indptr, targets = _adjacency(g, directed)
    visited = gp.zeros(g.n, dtype=bool)
    pred = gp.full(g.n, NULL, dtype=gp.int32)
    frontier = gp.asarray([i_start], dtype=gp.int64)
    visited[i_start] = True
    levels = [frontier]
    while True:
        counts = indptr[frontier + 1] - indptr[frontier]
        total = int(gp.sum(counts))
        if total == 0:
            break
        # the frontier's adjacency lists, concatenated in frontier order
        starts = gp.cumsum(counts) - counts
        slot = gp.arange(total, dtype=gp.int64) - gp.repeat(starts, counts)
        edge = gp.repeat(indptr[frontier], counts) + slot
        parent = gp.repeat(frontier, counts)
        cand = targets[edge]
        fresh = ~visited[cand]
        cand, parent = cand[fresh], parent[fresh]
        if cand.shape[0] == 0:
            break
        # each new vertex once, where the queue first meets it
        _, first = gp.unique(cand, return_index=True)
        first = gp.sort(first)
        frontier = cand[first]
        visited[frontier] = True
        pred[frontier] = parent[first].astype(gp.int32)
        levels.append(frontier)
    order = gp.concatenate(levels).astype(gp.int32)
    return (order, pred) if return_predecessors else order


def breadth_first_tree(csgraph, i_start, directed=True):
    """The tree of a breadth-first search from ``i_start``, as
    scipy.sparse.csgraph.breadth_first_tree (a CSR result)."""
    _, pred = breadth_first_order(csgraph, i_start, directed, True)
    return reconstruct_path(csgraph, pred, directed)
