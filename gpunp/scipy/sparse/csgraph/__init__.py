"""``gpunp.scipy.sparse.csgraph``: ``scipy.sparse.csgraph`` for gpunp arrays.

A graph is a dense gpunp array (entries 0, inf and NaN are not edges) or a
sparse matrix (anything with ``tocsr``; every stored entry is an edge). Every
algorithm is vectorised on the device: rounds of scatter-min relaxation,
BFS frontiers, hooking and pointer jumping, Boruvka. Where SciPy returns a
sparse matrix (minimum_spanning_tree, laplacian of a sparse graph) gpunp
returns it through one private function, ``_csr.py``'s ``_csr_result``.

The searches whose every step depends on the last (depth-first order and
tree, reverse Cuthill-McKee, Hopcroft-Karp matching and the structural rank,
minimum-weight full matching, Yen's K shortest paths,
maximum flow) run on the host over NumPy copies of the CSR arrays, giving SciPy's exact
order (``_sequential.py``, ``_flow.py``); the masked-array conversions take and give
numpy.ma arrays, which live on the host (``_masked.py``)."""

from ._laplacian import laplacian
from ._mst import minimum_spanning_tree
from ._shortest_path import (NegativeCycleError, bellman_ford, dijkstra, floyd_warshall,
                             johnson, shortest_path)
from ._tools import (construct_dist_matrix, csgraph_from_dense, csgraph_to_dense,
                     reconstruct_path)
from ._traversal import breadth_first_order, breadth_first_tree, connected_components
from ._sequential import (depth_first_order, depth_first_tree, maximum_bipartite_matching,
                          min_weight_full_bipartite_matching, reverse_cuthill_mckee,
                          structural_rank, yen)
from ._flow import maximum_flow
from ._masked import csgraph_from_masked, csgraph_masked_from_dense, csgraph_to_masked

__all__ = ["NegativeCycleError", "bellman_ford", "breadth_first_order", "breadth_first_tree",
           "connected_components", "construct_dist_matrix", "csgraph_from_dense",
           "csgraph_to_dense", "dijkstra", "floyd_warshall", "johnson", "laplacian",
           "minimum_spanning_tree", "reconstruct_path", "shortest_path",
           "depth_first_order", "depth_first_tree", "maximum_bipartite_matching",
           "reverse_cuthill_mckee", "structural_rank", "csgraph_from_masked",
           "csgraph_masked_from_dense", "csgraph_to_masked", "maximum_flow",
           "min_weight_full_bipartite_matching", "yen"]
