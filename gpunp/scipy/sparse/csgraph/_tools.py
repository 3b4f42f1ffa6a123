"""Conversions between graph forms, and trees and distances from
predecessor arrays, as scipy.sparse.csgraph's tools."""

import numpy

import gpunp as gp

from ._csr import (_csr_result, canonical_coo, csr_from_mask, csr_parts, device, is_sparse,
                   scatter_reduce)
from ._graph import as_graph, check_compressed

__all__ = ["construct_dist_matrix", "csgraph_from_dense", "csgraph_to_dense",
           "reconstruct_path"]


def csgraph_to_dense(csgraph, null_value=0):
    """The dense graph of a sparse one: each edge's weight, the smallest of
    repeated entries (SciPy's rule, where ``toarray`` would add them), and
    ``null_value`` where there is no edge (an explicit zero stays 0)."""
    if not is_sparse(csgraph):
        raise ValueError("csgraph must be a sparse matrix (anything with tocsr)")
    check_compressed(csgraph)
    g = as_graph(csgraph)
    n = g.n
    seen = gp.zeros(n * n, dtype=bool)
    flat = g.src * n + g.dst
    out = scatter_reduce(gp.minimum, flat, g.w, n * n, numpy.inf)
    seen[flat] = True
    return gp.where(seen, out, null_value).reshape(n, n)


def csgraph_from_dense(graph, null_value=0, nan_null=True, infinity_null=True):
    """The sparse graph of a dense one: entries equal to ``null_value`` (and
    NaN, infinities as asked) are not edges. A csr_array (``_csr_result``)."""
    a = device(graph).astype(gp.float64)
    if a.ndim != 2:
        raise ValueError("graph should have two dimensions")
    mask = a != null_value if null_value is not None else gp.ones(a.shape, dtype=bool)
    if nan_null:
        mask = mask & ~gp.isnan(a)
    if infinity_null:
        mask = mask & ~gp.isinf(a)
    indptr, indices, data = csr_from_mask(a, mask)
    return _csr_result(data, indices, indptr, a.shape)


def _edge_lookup(csgraph, directed):
    """A function giving the weight of edges (u, v): the sum of repeated
    entries, and undirected the smaller of the two directions that exist
    (SciPy's reconstruct_path)."""
    if is_sparse(csgraph):
        indptr, indices, data, shape = csr_parts(csgraph)
        rows, cols, vals = canonical_coo(indptr, indices, data, shape)
    else:
        a = device(csgraph)
        indptr, cols, vals = csr_from_mask(a, a != 0)
        rows = gp.repeat(gp.arange(a.shape[0]), gp.diff(indptr))
        shape = a.shape
    n = shape[0]
    keys = rows.astype(gp.int64) * n + cols.astype(gp.int64)  # sorted, unique
    vals = vals.astype(gp.float64)

    def find(u, v):
        key = u * n + v
        at = gp.minimum(gp.searchsorted(keys, key), max(keys.shape[0] - 1, 0))
        if keys.shape[0] == 0:
            return gp.zeros(key.shape, dtype=bool), gp.zeros(key.shape)
        hit = keys[at] == key
        return hit, gp.where(hit, vals[at], numpy.inf)

    def weight(u, v):
        hit, w = find(u, v)
        if not directed:
            hit2, w2 = find(v, u)
            w = gp.minimum(w, w2)
            hit = hit | hit2
        return hit, w
    return n, weight


def reconstruct_path(csgraph, predecessors, directed=True):
    """The tree of a predecessor array: an entry (predecessors[i], i) of the
    edge's weight for each i that has one (undirected: the smaller of the
    two directions). CSR of the input's flavour (``_csr_result``)."""
    n, weight = _edge_lookup(csgraph, directed)
    pred = device(predecessors).astype(gp.int64)
    if pred.shape != (n,):
        raise ValueError("predecessors has the wrong shape")
    child = gp.nonzero(pred >= 0)[0]
    parent = pred[child]
    hit, w = weight(parent, child)
    if not bool(gp.all(hit)):
        raise ValueError("predecessors names an edge the graph does not have")
    order = gp.lexsort((child, parent))
    parent, child, w = parent[order], child[order], w[order]
    counts = gp.bincount(parent, minlength=n)
    indptr = gp.concatenate([gp.zeros(1, dtype=gp.int64), gp.cumsum(counts)])
    return _csr_result(w, child, indptr, (n, n), like=csgraph)


def construct_dist_matrix(graph, predecessors, directed=True, null_value=numpy.inf):
    """The length of each path a predecessor matrix encodes (row i: the tree
    of paths from i), by pointer jumping that adds the lengths it skips;
    ``null_value`` where j is not reached from i. Edge weights as
    csgraph_to_dense reads them (the smallest of repeats; undirected, the
    smaller direction)."""
    check_compressed(graph)
    g = as_graph(graph)
    n = g.n
    pred = device(predecessors).astype(gp.int64)
    if pred.ndim != 2 or pred.shape[1] != n:
        raise ValueError("graph and predecessors have incompatible shapes")
    u, v, w = (g.src, g.dst, g.w) if directed else g.both_ways()
    best = scatter_reduce(gp.minimum, u * n + v, w, n * n, numpy.inf)
    rows = pred.shape[0]
    has = pred >= 0
    safe = gp.where(has, pred, 0)
    col = gp.arange(n, dtype=gp.int64)[None, :]
    length = gp.where(has, best[safe * n + col], 0.0)
    # jump: each vertex's link to its ancestor, and the length between them
    up = gp.where(has, pred, col)
    while True:
        flat = (gp.arange(rows, dtype=gp.int64)[:, None] * n + up).ravel()
        nxt = up.ravel()[flat].reshape(rows, n)
        if bool(gp.all(nxt == up)):
            break
        length = length + length.ravel()[flat].reshape(rows, n)
        up = nxt
    reached = has | (col == gp.arange(rows, dtype=gp.int64)[:, None])
    return gp.where(reached, length, null_value)
