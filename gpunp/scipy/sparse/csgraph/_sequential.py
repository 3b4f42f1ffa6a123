"""The graph searches whose order is inherently sequential: depth-first order
and tree, reverse Cuthill-McKee, maximum bipartite matching (Hopcroft-Karp)
with the structural rank built on it, minimum-weight full matching
(Jonker-Volgenant's LAPJVsp), and Yen's K shortest paths.

Each step of these depends on every earlier one (a depth-first search goes to
the first unvisited neighbour of the vertex it reached last; Cuthill-McKee's
queue order and Hopcroft-Karp's augmenting paths are SciPy's exact tie-breaks,
which the results must reproduce), so there is no frontier to process in
parallel. They run on the host, in Python over NumPy copies of the CSR index
arrays (one transfer in, one out); their results are gpunp arrays, equal to
SciPy's."""

import heapq
import warnings

import numpy

import gpunp as gp
import gpunp.scipy.sparse as sparse

from ._csr import csr_parts, is_sparse
from ._graph import NULL, as_graph
from ._shortest_path import NegativeCycleError
from ._tools import reconstruct_path
from ._traversal import _adjacency

__all__ = ["depth_first_order", "depth_first_tree", "maximum_bipartite_matching",
           "min_weight_full_bipartite_matching", "reverse_cuthill_mckee", "structural_rank",
           "yen"]


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


def _lapjvsp(first, kk, cc, nr, nc):
    """The column assigned to each row by a minimum-cost full matching of a
    sparse nr x nc (nr <= nc) cost matrix in CSR form, by Jonker and
    Volgenant's sparse shortest-augmenting-path method (LAPJVsp) with SciPy's
    tie-breaks: for a square matrix, column reduction, reduction transfer and
    two rounds of augmenting row reduction first; then a Dijkstra-like
    search from each row left free."""
    inf = numpy.inf
    v = [0.0] * nc
    x = [-1] * nr
    y = [-1] * nc

    def row(i):
        return range(first[i], first[i + 1])

    def cost_at(i, j):  # the first stored entry (i, j)
        for t in row(i):
            if kk[t] == j:
                return cc[t]

    if nr == nc:
        free = []
        # column reduction: each column's cheapest row (the first of equals)
        v = [inf] * nc
        for i in range(nr):
            for t in row(i):
                if cc[t] < v[kk[t]]:
                    v[kk[t]], y[kk[t]] = cc[t], i
        taken_twice = [False] * nr
        for j in range(nc - 1, -1, -1):
            i = y[j]
            if i == -1:
                raise ValueError("no full matching exists")
            if x[i] == -1:
                x[i] = j
            else:
                y[j] = -1
                taken_twice[i] = True
        # reduction transfer from each row assigned once
        for i in range(nr):
            if taken_twice[i]:
                continue
            if x[i] == -1:
                free.append(i)
                continue
            j1 = x[i]
            slack = min((cc[t] - v[kk[t]] for t in row(i) if kk[t] != j1), default=inf)
            v[j1] = cost_at(i, j1) - slack
        # augmenting row reduction, twice: a displaced row is retried at once
        # when the prices moved, else kept for the next round
        for _ in range(2):
            queue, free, h = free, [], 0
            while h < len(queue):
                i = queue[h]
                h += 1
                j0 = j1 = -1
                best = second = inf
                for t in row(i):
                    j = kk[t]
                    dj = cc[t] - v[j]
                    if dj < second:
                        if dj >= best:
                            second, j1 = dj, j
                        else:
                            second, best, j1, j0 = best, dj, j0, j
                if j0 < 0:
                    raise ValueError("no full matching exists")
                i0 = y[j0]
                if best < second:
                    v[j0] += best - second
                elif i0 != -1:
                    j0 = j1
                    i0 = y[j0]
                x[i], y[j0] = j0, i
                if i0 != -1:
                    if best < second:
                        h -= 1
                        queue[h] = i0
                    else:
                        free.append(i0)
    else:
        free = list(range(nr))

    d = [inf] * nc
    lab = [0] * nc
    todo = [-1] * nc

    def assign_back(j, i0):
        while True:
            i = lab[j]
            y[j] = i
            j, x[i] = x[i], j
            if i == i0:
                return

    def raise_prices(last, low):
        for k in range(last, nc):
            j = todo[k]
            v[j] += d[j] - low

    top = -1  # the top of the "to do" stack, kept between rows as SciPy keeps it
    for i0 in free:
        d = [inf] * nc
        ok = [False] * nc
        low = inf
        for t in row(i0):
            j = kk[t]
            d[j] = cc[t] - v[j]
            lab[j] = i0
            if d[j] <= low:
                if d[j] < low:
                    top, low = -1, d[j]
                top += 1
                todo[top] = j
        done = False
        for k in range(top + 1):
            if y[todo[k]] == -1:
                assign_back(todo[k], i0)
                done = True
                break
            ok[todo[k]] = True
        bottom, last = nc - 1, nc
        while not done:
            if top < 0:
                raise ValueError("no full matching exists")
            j0 = todo[top]
            top -= 1
            i = y[j0]
            todo[bottom] = j0
            bottom -= 1
            h = cost_at(i, j0) - v[j0] - low
            for t in row(i):
                j = kk[t]
                if ok[j]:
                    continue
                dj = cc[t] - v[j] - h
                if dj < d[j]:
                    d[j], lab[j] = dj, i
                    if dj == low:
                        if y[j] == -1:
                            raise_prices(last, low)
                            assign_back(j, i0)
                            done = True
                            break
                        top += 1
                        todo[top] = j
                        ok[j] = True
            if done or top != -1:
                continue
            low, last = inf, bottom + 1
            for j in range(nc):
                if d[j] != inf and d[j] <= low and not ok[j]:
                    if d[j] < low:
                        top, low = -1, d[j]
                    top += 1
                    todo[top] = j
            for k in range(top + 1):
                if y[todo[k]] == -1:
                    raise_prices(last, low)
                    assign_back(todo[k], i0)
                    done = True
                    break
                ok[todo[k]] = True
    return x


def min_weight_full_bipartite_matching(biadjacency, maximize=False):
    """A full matching of least (or, with `maximize`, greatest) total weight of
    the bipartite graph of a sparse biadjacency matrix, as
    scipy.sparse.csgraph.min_weight_full_bipartite_matching: (row indices,
    column indices) of the matched pairs, with SciPy's tie-breaks."""
    if not is_sparse(biadjacency):
        raise TypeError("graph must be sparse")
    if biadjacency.format not in ("csr", "csc", "coo"):
        raise TypeError("graph must be in CSC, CSR, or COO format.")
    dtype = numpy.dtype(biadjacency.dtype)
    if not (numpy.issubdtype(dtype, numpy.number) or dtype == numpy.bool_):
        raise ValueError(f"expected a matrix containing numerical entries, got {dtype}")
    g = biadjacency.astype(numpy.float64)
    if maximize:
        g = -g
    if not bool(gp.all(g.data != 0)):
        warnings.warn("explicit zero weights are removed before matching", stacklevel=2)
    # an infinite weight is no edge
    g.data = gp.where(gp.isposinf(g.data), 0.0, g.data)
    g.eliminate_zeros()
    nr, nc = g.shape
    a = numpy.arange(min(nr, nc))
    if g.format == "coo":
        g = g.tocsc() if nc < nr else g.tocsr()
    if nc < nr:
        g = g.T
    if g.format != "csr":
        g = g.tocsr()
    rows, cols = (nc, nr) if nc < nr else (nr, nc)
    indptr, indices, data = (g.indptr.get().tolist(), g.indices.get().tolist(),
                             g.data.get().tolist())
    x, _ = _hopcroft_karp(indices, indptr, rows, cols)
    if sum(1 for c in x if c != -1) != min(nr, nc):
        raise ValueError("no full matching exists")
    b = numpy.asarray(_lapjvsp(indptr, indices, data, rows, cols), dtype=numpy.int32)
    if nc < nr:
        order = numpy.argsort(b)
        return gp.asarray(b[order]), gp.asarray(a[order])
    return gp.asarray(a), gp.asarray(b)


def _potentials(n, src, dst, w):
    """Johnson's vertex potentials (Bellman-Ford from a virtual source joined
    to every vertex by a zero edge), or NegativeCycleError."""
    h = numpy.zeros(n)
    for _ in range(n + 1):
        cand = h[src] + w
        if not (cand < h[dst]).any():
            return h
        numpy.minimum.at(h, dst, cand)
    bad = int(dst[numpy.argmax(h[src] + w < h[dst])])
    raise NegativeCycleError(f"Negative cycle detected on node {bad}")


def _dijkstra(adj, n, source, sink, banned_nodes, banned_edges):
    """(distance, path) of a shortest path source -> sink avoiding the banned
    vertices and edges, or (inf, None)."""
    dist = [numpy.inf] * n
    pred = [-1] * n
    dist[source] = 0.0
    heap = [(0.0, source)]
    done = [False] * n
    while heap:
        d, u = heapq.heappop(heap)
        if done[u]:
            continue
        done[u] = True
        if u == sink:
            break
        for v, wt in adj[u]:
            if v in banned_nodes or (u, v) in banned_edges:
                continue
            if d + wt < dist[v]:
                dist[v], pred[v] = d + wt, u
                heapq.heappush(heap, (dist[v], v))
    if dist[sink] == numpy.inf:
        return numpy.inf, None
    path = [sink]
    while path[-1] != source:
        path.append(pred[path[-1]])
    return dist[sink], path[::-1]


def yen(csgraph, source, sink, K, *, directed=True, return_predecessors=False,
        unweighted=False):
    """The K shortest loopless paths from `source` to `sink` (Yen's algorithm),
    as scipy.sparse.csgraph.yen: their lengths, ascending, and with
    `return_predecessors` one predecessor row per path (-9999 off the path).
    Negative weights are handled by Johnson's reweighting, as SciPy's."""
    g = as_graph(csgraph, directed)
    n = g.n
    if source < 0 or source >= n or sink < 0 or sink >= n:
        raise ValueError("For csgraph with shape (N, N), must have 0 <= source < N and "
                         f"0 <= sink < N. Got N={n}, source={source}, sink={sink}.")
    src, dst, w = g.src.get(), g.dst.get(), g.w.get()
    if unweighted:
        w = numpy.ones_like(w)
    if not directed:
        src, dst, w = (numpy.concatenate([src, dst]), numpy.concatenate([dst, src]),
                       numpy.concatenate([w, w]))
    h = _potentials(n, src, dst, w) if (w < 0).any() else numpy.zeros(n)
    reweighted = w + h[src] - h[dst]
    adj = [[] for _ in range(n)]
    for u, v, wt in zip(src.tolist(), dst.tolist(), reweighted.tolist()):
        adj[u].append((v, wt))
    # the weight of an edge on a path: the lightest of parallel edges
    weight = {}
    for u, v, wt in zip(src.tolist(), dst.tolist(), reweighted.tolist()):
        weight[u, v] = min(weight.get((u, v), numpy.inf), wt)
    found = []
    d, path = _dijkstra(adj, n, source, sink, set(), set())
    if path is not None:
        found.append((d, path))
    candidates, seen, count = [], set(), 0
    while found and len(found) < K:
        last = found[-1][1]
        root_cost = 0.0
        for i in range(len(last) - 1):
            spur, root = last[i], last[:i + 1]
            banned_edges = {(p[i], p[i + 1]) for _, p in found
                            if len(p) > i + 1 and p[:i + 1] == root}
            d, tail = _dijkstra(adj, n, spur, sink, set(root[:-1]), banned_edges)
            if tail is not None:
                full = root[:-1] + tail
                if tuple(full) not in seen:
                    seen.add(tuple(full))
                    heapq.heappush(candidates, (root_cost + d, count, full))
                    count += 1
            root_cost += weight[last[i], last[i + 1]]
        if not candidates:
            break
        d, _, path = heapq.heappop(candidates)
        found.append((d, path))
    dist = numpy.array([d for d, _ in found], dtype=numpy.float64) + (h[sink] - h[source])
    if not return_predecessors:
        return gp.asarray(dist)
    pred = numpy.full((len(found), n), NULL, dtype=numpy.int32)
    for k, (_, path) in enumerate(found):
        pred[k, path[1:]] = path[:-1]
    return gp.asarray(dist), gp.asarray(pred)
