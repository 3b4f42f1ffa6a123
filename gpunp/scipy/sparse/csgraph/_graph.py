"""A csgraph argument as the edge list every algorithm here works on.

SciPy's rules: a sparse graph's stored entries are its edges, explicit zeros
included, in CSR order; a dense graph's edges are its entries that are not
zero, infinite or NaN, row by row. Weights are float64."""

import numpy

import gpunp as gp

from ._csr import csr_from_mask, csr_parts, device, entry_rows, is_sparse, scatter_reduce

NULL = -9999  # SciPy's "no predecessor"


class Graph:
    """n vertices and the edges src[e] -> dst[e] of weight w[e], in CSR
    order (``indptr`` indexes them by source)."""

    def __init__(self, n, indptr, dst, w):
        self.n = n
        self.indptr = indptr.astype(gp.int64)
        self.src = entry_rows(self.indptr)
        self.dst = dst.astype(gp.int64)
        self.w = w

    def both_ways(self):
        """The edges with their reverses appended (an undirected graph)."""
        return (gp.concatenate([self.src, self.dst]), gp.concatenate([self.dst, self.src]),
                gp.concatenate([self.w, self.w]))


def as_graph(csgraph, directed=True, dtype=numpy.float64):
    """The Graph of a csgraph argument, with SciPy's shape checks.
    Undirected, a CSC graph is read as its transpose's CSR, as SciPy reads
    it (the same graph; the order of edges, and so of a search, is that)."""
    if not directed and is_sparse(csgraph) and csgraph.format == "csc":
        csgraph = csgraph.T
    if is_sparse(csgraph):
        indptr, indices, data, shape = csr_parts(csgraph)
        _check_shape(shape)
        return Graph(shape[0], indptr, indices, data.astype(dtype))
    a = device(csgraph)
    _check_shape(a.shape)
    a = a.astype(dtype)
    mask = (a != 0) & gp.isfinite(a) if a.dtype.kind in "fc" else a != 0
    indptr, cols, data = csr_from_mask(a, mask)
    return Graph(a.shape[0], indptr, cols, data)


def check_compressed(csgraph):
    """SciPy's paths that read a sparse graph as a dense matrix
    (csgraph_to_dense, construct_dist_matrix, Floyd-Warshall) take the
    compressed formats only."""
    if is_sparse(csgraph) and csgraph.format not in ("csr", "csc", "lil"):
        raise ValueError("csgraph must be lil, csr, or csc format")


def _check_shape(shape):
    if len(shape) != 2:
        raise ValueError("compressed-sparse graph must be 2-D")
    if shape[0] != shape[1]:
        raise ValueError("compressed-sparse graph must be shape (N, N)")


def fixpoint_parents(parent):
    """Pointer jumping: every vertex's root in a forest of parent links."""
    while True:
        up = parent[parent]
        if bool(gp.all(up == parent)):
            return parent
        parent = up


def rank_by_first_vertex(root):
    """Component labels 0, 1, ... numbered by each component's smallest
    vertex, as SciPy numbers them, from any per-vertex component id."""
    n = root.shape[0]
    first = scatter_reduce(gp.minimum, root, gp.arange(n, dtype=gp.int64), n, n)
    key = first[root]  # each vertex's component, named by its smallest vertex
    uniq, labels = gp.unique(key, return_inverse=True)
    return int(uniq.shape[0]), labels.astype(gp.int32)
