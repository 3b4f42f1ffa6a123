"""``gpunp.scipy.spatial``: ``scipy.spatial`` for gpunp arrays, name for name.

It holds ``distance`` (``cdist``/``pdist`` for every SciPy metric, each in
one elementwise-kernel pass per output element, the metrics on two vectors,
``squareform`` and its checks, ``directed_hausdorff``), ``distance_matrix``
(the same kernel), ``minkowski_distance(_p)``, ``procrustes`` and
``geometric_slerp``, ``transform`` (``Rotation``, ``Slerp``,
``RotationSpline``, ``RigidTransform``), ``KDTree``/``cKDTree`` (built and
queried on the device) and Qhull's ``Delaunay`` and ``ConvexHull`` (made on
the host by SciPy, queried on the device). Voronoi diagrams, half-space
intersections and the plotting helpers are not here yet: those names of
scipy.spatial raise AttributeError.
"""

from . import distance, transform
from ._geometric_slerp import geometric_slerp
from ._kdtree import KDTree, cKDTree
from ._minkowski import distance_matrix, minkowski_distance, minkowski_distance_p
from ._procrustes import procrustes
from ._qhull import ConvexHull, Delaunay

__all__ = ["ConvexHull", "Delaunay", "KDTree", "cKDTree", "distance", "distance_matrix",
           "geometric_slerp", "minkowski_distance", "minkowski_distance_p", "procrustes",
           "transform"]
