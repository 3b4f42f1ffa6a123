"""``gpunp.scipy.spatial``: ``scipy.spatial`` for gpunp arrays, name for name.

It holds ``distance`` (``cdist``/``pdist`` for every SciPy metric, each in
one elementwise-kernel pass per output element, the metrics on two vectors,
``squareform`` and its checks, ``directed_hausdorff``), ``distance_matrix``
(the same kernel), ``minkowski_distance(_p)``, ``procrustes`` and
``geometric_slerp``, and ``transform`` (``Rotation``, ``Slerp``). Trees,
triangulations and hulls are not here yet: those names of scipy.spatial
raise AttributeError.
"""

from . import distance, transform
from ._geometric_slerp import geometric_slerp
from ._minkowski import distance_matrix, minkowski_distance, minkowski_distance_p
from ._procrustes import procrustes

__all__ = ["distance", "distance_matrix", "geometric_slerp", "minkowski_distance",
           "minkowski_distance_p", "procrustes", "transform"]
