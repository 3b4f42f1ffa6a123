"""``maximum_flow`` by Dinic's or Edmonds-Karp's method, as SciPy's.

The residual graph is built with NumPy on the host from one copy of the CSR
arrays: each edge and its reverse (capacity 0 where the graph has none), in
CSR order, and for each edge the position of its reverse. The augmenting-path
searches are then Python loops on the host: every augmentation changes the
residual capacities the next search reads, and the flow returned on each edge
(not only its value) must be SciPy's, which depends on its order of search."""

import numpy

import gpunp as gp
import gpunp.scipy.sparse as sparse

from ._csr import is_sparse

__all__ = ["MaximumFlowResult", "maximum_flow"]

_INT32_MAX = numpy.iinfo(numpy.int32).max


class MaximumFlowResult:
    """The value of a maximum flow (``flow_value``) and the flow on each edge of
    the residual graph (``flow``, a gpunp CSR array or matrix)."""

    def __init__(self, flow_value, flow):
        self.flow_value = flow_value
        self.flow = flow

    def __repr__(self):
        return "MaximumFlowResult with value of %d" % self.flow_value


def _residual(indptr, indices, data, n):
    """(indptr, heads, capacities, tails, reverse) of the graph with every
    edge's reverse added, rows in column order, one entry per vertex pair."""
    rows = numpy.repeat(numpy.arange(n, dtype=numpy.int64), numpy.diff(indptr))
    cols = indices.astype(numpy.int64)
    fwd = rows * n + cols
    keys = numpy.unique(numpy.concatenate([fwd, cols * n + rows]))
    caps = numpy.zeros(keys.size, dtype=numpy.int32)
    caps[numpy.searchsorted(keys, fwd)] = data
    tails, heads = keys // n, keys % n
    reverse = numpy.searchsorted(keys, heads * n + tails)
    new_ptr = numpy.searchsorted(tails, numpy.arange(n + 1))
    return new_ptr, heads, caps, tails, reverse


def _edmonds_karp(ptr, heads, caps, tails, rev, source, sink, n):
    flow = [0] * len(heads)
    while True:
        pred = [-1] * n
        queue, head, found = [source], 0, False
        while head < len(queue) and not found:
            cur = queue[head]
            head += 1
            for e in range(ptr[cur], ptr[cur + 1]):
                t = heads[e]
                if pred[t] == -1 and t != source and caps[e] > flow[e]:
                    pred[t] = e
                    if t == sink:
                        found = True
                        break
                    queue.append(t)
        if not found:
            return flow
        df, t = _INT32_MAX, sink
        while t != source:
            e = pred[t]
            df = min(df, caps[e] - flow[e])
            t = tails[e]
        t = sink
        while t != source:
            e = pred[t]
            flow[e] += df
            flow[rev[e]] -= df
            t = tails[e]


def _levels(ptr, heads, caps, source, sink, n):
    """Breadth-first levels over edges of positive residual capacity, or None
    when the sink is not reached."""
    level = [-1] * n
    level[source] = 0
    queue, head = [source], 0
    while head < len(queue):
        cur = queue[head]
        head += 1
        if cur == sink:
            return level
        for e in range(ptr[cur], ptr[cur + 1]):
            t = heads[e]
            if caps[e] > 0 and level[t] == -1:
                level[t] = level[cur] + 1
                queue.append(t)
    return None


def _augment(ptr, heads, caps, rev, level, progress, flows, source, sink):
    """One augmenting path in the level graph, searched depth-first from each
    vertex's current edge on (Dinic's blocking-flow step); False when none."""
    stack = [(source, _INT32_MAX)]
    while True:
        cur, limit = stack[-1]
        e = progress[cur]
        t = heads[e]
        if caps[e] > 0 and level[t] == level[cur] + 1:
            push = min(limit, caps[e])
            if t == sink:
                for v, _ in stack:
                    f = progress[v]
                    caps[f] -= push
                    caps[rev[f]] += push
                    flows[f] += push
                    flows[rev[f]] -= push
                return True
            stack.append((t, push))
            continue
        # this edge is no use: the next one, retreating from exhausted vertices
        while progress[cur] == ptr[cur + 1] - 1:
            stack.pop()
            if not stack:
                return False
            cur = stack[-1][0]
        progress[cur] += 1


def _dinic(ptr, heads, caps, rev, source, sink, n):
    flows = [0] * len(heads)
    while True:
        level = _levels(ptr, heads, caps, source, sink, n)
        if level is None:
            return flows
        progress = list(ptr[:-1])
        while _augment(ptr, heads, caps, rev, level, progress, flows, source, sink):
            pass


def maximum_flow(csgraph, source, sink, *, method="dinic"):
    """A maximum flow from `source` to `sink` of a CSR graph of integer
    capacities, as scipy.sparse.csgraph.maximum_flow (method 'dinic' or
    'edmonds_karp'): its value and the flow on each edge of the graph with
    reverse edges added."""
    if not (is_sparse(csgraph) and csgraph.format == "csr"):
        raise TypeError("graph must be in CSR format")
    if not numpy.issubdtype(csgraph.dtype, numpy.integer):
        raise ValueError("graph capacities must be integers")
    if source == sink:
        raise ValueError("source and sink vertices must differ")
    n = csgraph.shape[0]
    if n != csgraph.shape[1]:
        raise ValueError("graph must be specified as a square matrix.")
    for what, v in (("source", source), ("sink", sink)):
        if v < 0 or v >= n:
            raise ValueError(f"{what} value ({v}) must be between 0 and {n - 1}")
    if method not in ("dinic", "edmonds_karp"):
        raise ValueError(f"{method} method is not supported yet.")
    g = csgraph.copy()
    g.sum_duplicates()
    ptr, heads, caps, tails, rev = _residual(g.indptr.get(), g.indices.get(),
                                             g.data.get().astype(numpy.int32), n)
    lists = (ptr.tolist(), heads.tolist(), caps.tolist())
    if method == "edmonds_karp":
        flow = _edmonds_karp(*lists, tails.tolist(), rev.tolist(), int(source), int(sink), n)
    else:
        flow = _dinic(*lists, rev.tolist(), int(source), int(sink), n)
    flow = numpy.asarray(flow, dtype=numpy.int32)
    cls = sparse.csr_matrix if isinstance(csgraph, sparse.spmatrix) else sparse.csr_array
    matrix = cls((gp.asarray(flow), gp.asarray(heads.astype(numpy.int32)),
                  gp.asarray(ptr.astype(numpy.int32))), shape=(n, n))
    value = flow[ptr[source]:ptr[source + 1]].sum()
    return MaximumFlowResult(value, matrix)
