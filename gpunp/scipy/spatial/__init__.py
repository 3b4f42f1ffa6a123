"""``gpunp.scipy.spatial``: ``scipy.spatial`` for gpunp arrays, name for name.

It will hold spatial algorithms: distances (scipy.spatial.distance), nearest-
neighbour search.

Nothing is implemented yet: the public API is empty, and every name of
scipy.spatial raises AttributeError here.
"""

__all__ = []

# the k-d tree and Qhull's objects (branch kdtree)
from gpunp.scipy.spatial._kdtree import KDTree, cKDTree  # noqa: E402
from gpunp.scipy.spatial._qhull import ConvexHull, Delaunay  # noqa: E402

__all__ += ["ConvexHull", "Delaunay", "KDTree", "cKDTree"]
