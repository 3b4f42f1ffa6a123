"""``gpunp.scipy.spatial.transform``: ``scipy.spatial.transform`` for gpunp
arrays: ``Rotation`` (quaternions, matrices, rotation vectors, modified
Rodrigues parameters, Euler angles of every sequence; composition, inverse,
application, powers, magnitude, mean, approximate equality, Davenport angles,
``align_vectors``, symmetry groups and ``reduce``; batches of any shape),
``Slerp``, ``RotationSpline`` and ``RigidTransform`` (homogeneous matrices,
components, exponential coordinates, dual quaternions; compose, inverse,
apply, powers, mean)."""

from ._rigid_transform import RigidTransform
from ._rotation import Rotation, Slerp
from ._rotation_spline import RotationSpline

__all__ = ["RigidTransform", "Rotation", "RotationSpline", "Slerp"]
