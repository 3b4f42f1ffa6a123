"""Shortest paths: shortest_path, dijkstra, bellman_ford, johnson,
floyd_warshall, all on one vectorised Bellman-Ford: every round relaxes
every edge from every source at once (a scatter-min), until nothing
changes; a change in round n is a negative cycle.

The distances are SciPy's: each is the sum of a path's weights from its
source, so they agree exactly for integer weights and, for distinct
shortest paths, to the last bit. The predecessor of a vertex is, among the
edges that give its distance, the one from the nearest vertex, as Dijkstra's
order picks it (SciPy breaks the remaining ties by its heap's order)."""

import warnings

import numpy

import gpunp as gp

from ._csr import Segments, is_sparse, scatter_reduce
from ._graph import NULL, as_graph, check_compressed, fixpoint_parents

__all__ = ["NegativeCycleError", "bellman_ford", "dijkstra", "floyd_warshall", "johnson",
           "shortest_path"]


class NegativeCycleError(Exception):
    """The graph has a cycle of negative total weight."""


def _sources(indices, n):
    """(source array, whether the caller gave one index)."""
    if indices is None:
        return gp.arange(n, dtype=gp.int64), False
    idx = numpy.asarray(indices.get() if isinstance(indices, gp.ndarray) else indices)
    scalar = idx.ndim == 0
    idx = idx.astype(numpy.int64).ravel()
    if idx.size and (idx.min() < -n or idx.max() >= n):
        raise ValueError("indices out of range 0...N")
    return gp.asarray(idx % max(n, 1)), scalar


def _edges(g, directed, unweighted):
    u, v, w = (g.src, g.dst, g.w) if directed else g.both_ways()
    if unweighted:
        w = gp.ones(w.shape[0], dtype=gp.float64)
    return u, v, w


def _relax(n, u, v, w, sources, min_only=False):
    """The distances from each source (one row each; one row from all of
    them with min_only), by rounds of relaxing every edge."""
    rows = 1 if min_only else sources.shape[0]
    dist = gp.full((rows, n), numpy.inf)
    dist[gp.zeros_like(sources) if min_only else gp.arange(rows), sources] = 0.0
    if u.shape[0] == 0 or n == 0:
        return dist
    flat = (gp.arange(rows, dtype=gp.int64)[:, None] * n + v[None, :]).ravel()
    into = Segments(flat, rows * n)  # one sort; each round a gather and a reduction
    for _ in range(n):
        cand = (dist[:, u] + w[None, :]).ravel()
        new = gp.minimum(dist, into.reduce(gp.minimum, cand, numpy.inf).reshape(rows, n))
        changed = new != dist
        if not bool(gp.any(changed)):
            return dist
        dist = new
    node = int(gp.argmax(gp.any(changed, axis=0)))
    raise NegativeCycleError(f"Negative cycle detected on node {node}")


def _predecessors(dist, u, v, w, sources, min_only=False):
    """The predecessor of each reached vertex: the nearest vertex among those
    whose edge attains its distance (the smallest vertex on a tie)."""
    rows, n = dist.shape
    pred = gp.full((rows, n), NULL, dtype=gp.int64)
    if u.shape[0] == 0:
        return pred.astype(gp.int32)
    du = dist[:, u]
    tight = (du + w[None, :] == dist[:, v]) & gp.isfinite(du)
    srcmask = gp.zeros((rows, n), dtype=bool)
    srcmask[gp.zeros_like(sources) if min_only else gp.arange(rows), sources] = True
    tight = tight & ~srcmask[:, v]
    r, e = gp.nonzero(tight)
    if r.shape[0] == 0:
        return pred.astype(gp.int32)
    flat = r * n + v[e]
    # the nearest predecessor first, then the smallest: one key, one scatter-min
    best = scatter_reduce(gp.minimum, flat, du[r, e], rows * n, numpy.inf)
    keep = du[r, e] == best[flat]
    chosen = scatter_reduce(gp.minimum, flat[keep], u[e[keep]], rows * n, n)
    chosen = chosen.reshape(rows, n)
    return gp.where(chosen < n, chosen, pred).astype(gp.int32)


# A round holds a (sources x edges) array of candidate distances: sources go
# in blocks that keep it near this many elements.
_BLOCK_ELEMENTS = 1 << 25


def _all_sources(n, u, v, w, sources, return_predecessors, limit=numpy.inf):
    """(dist, pred) for many sources, a block of sources at a time;
    distances past `limit` are infinite."""
    step = max(1, _BLOCK_ELEMENTS // max(u.shape[0], n, 1))
    dists, preds = [], []
    for lo in range(0, max(sources.shape[0], 1), step):
        block = sources[lo:lo + step]
        d = _relax(n, u, v, w, block)
        if limit != numpy.inf:
            d = gp.where(d > limit, numpy.inf, d)
        dists.append(d)
        if return_predecessors:
            preds.append(_predecessors(d, u, v, w, block))
    if len(dists) == 1:
        return dists[0], (preds[0] if preds else None)
    return gp.concatenate(dists), (gp.concatenate(preds) if preds else None)


def _result(dist, pred, scalar, return_predecessors):
    if scalar:
        dist, pred = dist[0], pred[0] if pred is not None else None
    return (dist, pred) if return_predecessors else dist


def _solve(csgraph, directed, indices, return_predecessors, unweighted):
    g = as_graph(csgraph, directed)
    sources, scalar = _sources(indices, g.n)
    u, v, w = _edges(g, directed, unweighted)
    dist, pred = _all_sources(g.n, u, v, w, sources, return_predecessors)
    return _result(dist, pred, scalar, return_predecessors)


def shortest_path(csgraph, method="auto", directed=True, return_predecessors=False,
                  unweighted=False, overwrite=False, indices=None):
    """Shortest-path distances (and predecessors) from ``indices`` (all
    vertices by default), as scipy.sparse.csgraph.shortest_path; every
    method runs the same relaxation (see the module's note), and a negative
    cycle raises NegativeCycleError."""
    if method not in ("auto", "FW", "D", "BF", "J"):
        raise ValueError(f"unrecognized method '{method}'")
    if method == "FW" and indices is not None:
        raise ValueError("Cannot specify indices with method == 'FW'.")
    if method == "FW" or (method == "auto" and indices is None and is_sparse(csgraph)
                          and csgraph.nnz >= csgraph.shape[0] ** 2 / 4):
        check_compressed(csgraph)  # SciPy's choice of Floyd-Warshall, on a dense matrix
    if method == "D":
        return dijkstra(csgraph, directed=directed, indices=indices,
                        return_predecessors=return_predecessors, unweighted=unweighted)
    return _solve(csgraph, directed, indices, return_predecessors, unweighted)


def dijkstra(csgraph, directed=True, indices=None, return_predecessors=False,
             unweighted=False, limit=numpy.inf, min_only=False):
    """Shortest paths from ``indices`` (with ``limit`` and ``min_only``), as
    scipy.sparse.csgraph.dijkstra. Computed by relaxation rounds: the same
    distances, on the device."""
    g = as_graph(csgraph, directed)
    sources, scalar = _sources(indices, g.n)
    u, v, w = _edges(g, directed, unweighted)
    if u.shape[0] and bool(gp.any(w < 0)):
        warnings.warn("Graph has negative weights: dijkstra will give inaccurate results if "
                      "the graph contains negative cycles. Consider johnson or bellman_ford.",
                      UserWarning, stacklevel=2)
    if not min_only:
        dist, pred = _all_sources(g.n, u, v, w, sources, return_predecessors, limit)
        return _result(dist, pred, scalar, return_predecessors)
    dist = _relax(g.n, u, v, w, sources, min_only=True)
    if limit != numpy.inf:
        dist = gp.where(dist > limit, numpy.inf, dist)
    d = dist[0]
    if not return_predecessors:
        return d
    p = _predecessors(dist, u, v, w, sources, True)[0]
    # each vertex's source: follow predecessors up to a vertex without one
    up = gp.where(p == NULL, gp.arange(g.n), p.astype(gp.int64))
    root = fixpoint_parents(up)
    return d, p, gp.where(gp.isfinite(d), root, NULL).astype(gp.int32)


def bellman_ford(csgraph, directed=True, indices=None, return_predecessors=False,
                 unweighted=False):
    """As scipy.sparse.csgraph.bellman_ford (negative weights allowed; a
    negative cycle raises NegativeCycleError)."""
    return _solve(csgraph, directed, indices, return_predecessors, unweighted)


def johnson(csgraph, directed=True, indices=None, return_predecessors=False,
            unweighted=False):
    """As scipy.sparse.csgraph.johnson: the same distances as bellman_ford
    (gpunp needs no reweighting: its rounds take negative weights as they come)."""
    return _solve(csgraph, directed, indices, return_predecessors, unweighted)


def floyd_warshall(csgraph, directed=True, return_predecessors=False, unweighted=False,
                   overwrite=False):
    """All-pairs shortest paths, as scipy.sparse.csgraph.floyd_warshall."""
    check_compressed(csgraph)
    return _solve(csgraph, directed, None, return_predecessors, unweighted)
