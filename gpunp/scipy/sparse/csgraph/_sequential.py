"""The graph searches whose order is inherently sequential: depth-first order
and tree, reverse Cuthill-McKee, and maximum bipartite matching (Hopcroft-Karp)
with the structural rank built on it.

Each step of these depends on every earlier one (a depth-first search goes to
the first unvisited neighbour of the vertex it reached last; Cuthill-McKee's
queue order and Hopcroft-Karp's augmenting paths are SciPy's exact tie-breaks,
which the results must reproduce), so there is no frontier to process in
parallel. They run on the host, in Python over NumPy copies of the CSR index
arrays (one transfer in, one out); their results are gpunp arrays, equal to
SciPy's."""

import warnings

import numpy

import gpunp as gp
import gpunp.scipy.sparse as sparse

from ._csr import csr_parts, is_sparse
from ._graph import NULL, as_graph
from ._tools import reconstruct_path
from ._traversal import _adjacency

__all__ = ["depth_first_order", "depth_first_tree", "maximum_bipartite_matching",
           "reverse_cuthill_mckee", "structural_rank"]


def depth_first_order(csgraph, i_start, directed=True, return_predecessors=True):
    """The vertices reached from ``i_start`` in depth-first order, and their
    predecessors (-9999 where none), as scipy.sparse.csgraph.depth_first_order
    (an undirected search tries a vertex's stored edges before the edges into
    it, as SciPy's)."""
    g = as_graph(csgraph, directed)
    i_start = int(i_start)
    if not 0 <= i_start < g.n:
        raise ValueError(f"i_start={i_start} out of range for a graph of {g.n} vertices")
    indptr, targets = (a.get() for a in _adjacency(g, directed))
    n = g.n
    visited = numpy.zeros(n, dtype=bool)
    pred = numpy.full(n, NULL, dtype=numpy.int32)
    order = [i_start]
    visited[i_start] = True
    # next_edge[v]: where v's scan for an unvisited neighbour resumes (a vertex
    # once visited stays visited, so the scan never needs to go back)
    next_edge = indptr[:-1].copy()
    stack = [i_start]
    while stack and len(order) < n:
        v = stack[-1]
        end = indptr[v + 1]
        e = next_edge[v]
        while e < end and visited[targets[e]]:
            e += 1
        next_edge[v] = e
        if e == end:
            stack.pop()
            continue
        w = int(targets[e])
        visited[w] = True
        pred[w] = v
        order.append(w)
        stack.append(w)
    nodes = gp.asarray(numpy.asarray(order, dtype=numpy.int32))
    return (nodes, gp.asarray(pred)) if return_predecessors else nodes


def depth_first_tree(csgraph, i_start, directed=True):
    """The tree of a depth-first search from ``i_start``, as
    scipy.sparse.csgraph.depth_first_tree (a CSR result)."""
    _, pred = depth_first_order(csgraph, i_start, directed, True)
    return reconstruct_path(csgraph, pred, directed)


def reverse_cuthill_mckee(graph, symmetric_mode=False):
    """The reverse Cuthill-McKee permutation of a CSR or CSC matrix, as
    scipy.sparse.csgraph.reverse_cuthill_mckee: breadth-first from each
    unvisited vertex of least degree, each vertex's new neighbours by
    ascending degree (ties in stored order)."""
    if not is_sparse(graph):
        raise TypeError("Input graph must be sparse")
    if graph.format not in ("csc", "csr"):
        raise TypeError("Input must be in CSC or CSR sparse format.")
    n = graph.shape[0]
    if not symmetric_mode:
        graph = graph + graph.transpose()
    ind, ptr = graph.indices.get(), graph.indptr.get()
    # a vertex's degree counts its diagonal entry twice, as SciPy's
    degree = numpy.diff(ptr).astype(ind.dtype)
    rows = numpy.repeat(numpy.arange(n), numpy.diff(ptr))
    degree[numpy.unique(rows[ind == rows])] += 1
    # NumPy's default argsort, as SciPy's: the same seeds for equal degrees
    seeds = numpy.argsort(degree)
    done = numpy.zeros(n, dtype=bool)
    order = []
    for seed in seeds:
        if len(order) == n:
            break
        if done[seed]:
            continue
        done[seed] = True
        order.append(int(seed))
        head = len(order) - 1
        while head < len(order):
            i = order[head]
            head += 1
            fresh = []
            for j in ind[ptr[i]:ptr[i + 1]]:
                if not done[j]:
                    done[j] = True
                    fresh.append(int(j))
            fresh.sort(key=lambda v: degree[v])  # stable, as SciPy's insertion sort
            order.extend(fresh)
    return gp.asarray(numpy.asarray(order[::-1], dtype=ind.dtype))


def _hopcroft_karp(indices, indptr, nrows, ncols):
    """(x, y): the column matched to each row (-1: none) and the row matched to
    each column (nrows: none), by SciPy's Hopcroft-Karp (breadth-first layers
    from the free rows, then depth-first augmenting paths row by row)."""
    inf = numpy.iinfo(numpy.int32).max
    x = [-1] * nrows
    y = [nrows] * ncols
    dist = [0] * (nrows + 1)
    parents = [0] * nrows
    while True:
        queue = []
        for v in range(nrows):
            dist[v] = 0 if x[v] < 0 else inf
            if x[v] < 0:
                queue.append(v)
        dist[nrows] = inf
        head = 0
        while head < len(queue):
            v = queue[head]
            head += 1
            if dist[v] < dist[nrows]:
                for u in indices[indptr[v]:indptr[v + 1]]:
                    if dist[y[u]] == inf:
                        dist[y[u]] = dist[v] + 1
                        queue.append(y[u])
        if dist[nrows] == inf:
            return x, y
        for w in range(nrows):
            if x[w] >= 0:
                continue
            stack = [w]
            done = False
            while stack and not done:
                v = stack.pop()
                for u in indices[indptr[v]:indptr[v + 1]]:
                    yu = y[u]
                    if dist[yu] != dist[v] + 1:
                        continue
                    if yu == nrows:  # a free column: flip the path back to w
                        done = True
                        while True:
                            dist[v] = inf
                            x[v], y[u], u = u, v, x[v]
                            if v == w:
                                break
                            v = parents[v]
                        break
                    stack.append(yu)
                    parents[yu] = v


def maximum_bipartite_matching(graph, perm_type="row"):
    """A maximum matching of the bipartite graph whose rows and columns are the
    two vertex sets, as scipy.sparse.csgraph.maximum_bipartite_matching:
    for perm_type 'row' the row matched to each column, for 'column' the
    column matched to each row (-1 where none), int32."""
    if not is_sparse(graph):
        raise TypeError("graph must be sparse")
    if graph.format not in ("csr", "csc", "coo"):
        raise TypeError("graph must be in CSC, CSR, or COO format.")
    indptr, indices, _, shape = csr_parts(graph)
    if max(int(indptr[-1]), *shape) > numpy.iinfo(numpy.int32).max:
        raise ValueError("csgraph: index values too large for int32")
    x, y = _hopcroft_karp(indices.get().tolist(), indptr.get().tolist(), *shape)
    if perm_type == "column":
        return gp.asarray(numpy.asarray(x, dtype=numpy.int32))
    y = numpy.asarray(y, dtype=numpy.int32)
    y[y == shape[0]] = -1
    return gp.asarray(y)


def structural_rank(graph):
    """The structural rank of a sparse matrix (the size of a maximum matching of
    its pattern), as scipy.sparse.csgraph.structural_rank."""
    if not is_sparse(graph):
        raise TypeError("Input must be sparse")
    if graph.format != "csr":
        if graph.format not in ("csc", "coo"):
            warnings.warn("Input matrix should be in CSC, CSR, or COO matrix format",
                          sparse.SparseEfficiencyWarning, stacklevel=2)
        graph = graph.tocsr()
    if graph.shape[0] > graph.shape[1]:
        graph = graph.T.tocsr()
    return int(gp.count_nonzero(maximum_bipartite_matching(graph) >= 0))
