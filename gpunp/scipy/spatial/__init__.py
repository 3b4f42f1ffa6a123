"""``gpunp.scipy.spatial``: ``scipy.spatial`` for gpunp arrays, name for name.

It holds ``distance`` (``cdist``/``pdist`` for every SciPy metric, each in
one elementwise-kernel pass per output element, the metrics on two vectors,
``squareform`` and its checks, ``directed_hausdorff``) and the small
geometric functions: ``distance_matrix``, ``minkowski_distance(_p)``.
Trees, triangulations and hulls are not here yet: those names of
scipy.spatial raise AttributeError.
"""

from . import distance

__all__ = ["distance"]
