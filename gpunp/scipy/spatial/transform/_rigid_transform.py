"""``RigidTransform`` (scipy.spatial.transform.RigidTransform): rotations
followed by translations, held as 4 x 4 homogeneous matrices (..., 4, 4)
in one gpunp array; shape () is a single transform. Exponential
coordinates use the closed forms of SE(3)'s exponential and logarithm
(the left Jacobian of SO(3) and its inverse), with their series near a
zero angle; dual quaternions are (real, dual) with the real part the
rotation's quaternion and the dual part half the translation times it."""

from __future__ import annotations

import numpy as np

import gpunp as gp

from ..._host import as_device
from ._rotation import Rotation, _compose, _float, _from_orthogonal, _from_rotvec, _matrix, \
    _rotvec
from ._stack import Stack


def _skew(v):
    z = gp.zeros_like(v[..., 0])
    x, y, w = v[..., 0], v[..., 1], v[..., 2]
    return gp.stack([z, -w, y, w, z, -x, -y, x, z], axis=-1).reshape(v.shape[:-1] + (3, 3))


def _assemble(t, rot):
    """The homogeneous matrices of translations t (..., 3) and rotation
    matrices rot (..., 3, 3)."""
    top = gp.concatenate([rot, t[..., None]], axis=-1)
    bottom = gp.broadcast_to(gp.asarray([0.0, 0.0, 0.0, 1.0], dtype=t.dtype),
                             t.shape[:-1] + (1, 4))
    return gp.concatenate([top, bottom], axis=-2)


def _series(angle, exact, series):
    small = angle < 1e-3
    return gp.where(small, series(angle), exact(gp.where(small, 1.0, angle)))


def _exp_translation(rv):
    """The left Jacobian of SO(3) at rotation vector rv: se(3)'s translation
    part to the transform's translation."""
    a = gp.sqrt(gp.sum(rv * rv, axis=-1, keepdims=True))
    k1 = _series(a, lambda a: (1.0 - gp.cos(a)) / a ** 2,
                 lambda a: 0.5 - a ** 2 / 24 + a ** 4 / 720)
    k2 = _series(a, lambda a: (a - gp.sin(a)) / a ** 3,
                 lambda a: 1 / 6 - a ** 2 / 120 + a ** 4 / 5040)
    s = _skew(rv)
    return gp.eye(3, dtype=rv.dtype) + k1[..., None] * s + k2[..., None] * (s @ s)


def _log_translation(rv):
    """The inverse of _exp_translation, in closed form."""
    a = gp.sqrt(gp.sum(rv * rv, axis=-1, keepdims=True))
    k = _series(a, lambda a: (1 - 0.5 * a / gp.tan(0.5 * a)) / a ** 2,
                lambda a: 1 / 12 + a ** 2 / 720 + a ** 4 / 30240)
    s = _skew(rv)
    return gp.eye(3, dtype=rv.dtype) - 0.5 * s + k[..., None] * (s @ s)


def _inverse(m):
    rt = gp.swapaxes(m[..., :3, :3], -1, -2)
    return _assemble(-(rt @ m[..., :3, 3:])[..., 0], rt)


def _from_exp(e):
    rv = e[..., :3]
    return _assemble((_exp_translation(rv) @ e[..., 3:, None])[..., 0],
                     _matrix(_from_rotvec(rv)))


def _as_exp(m):
    rv = _rotvec(_from_orthogonal(m[..., :3, :3]))
    return gp.concatenate([rv, (_log_translation(rv) @ m[..., :3, 3:])[..., 0]], axis=-1)


def _shape_of(num, shape):
    if num is not None and shape is not None:
        raise ValueError("Only one of `num` and `shape` can be specified.")
    if num is None and shape is None:
        return ()
    if num is not None:
        return (num,)
    if isinstance(shape, int):
        return (shape,)
    if not isinstance(shape, tuple):
        raise ValueError("`shape` must be an int or a tuple of ints or None.")
    return shape


class RigidTransform(Stack):
    """Rigid transforms in 3 dimensions: x -> R x + t, one or a batch."""

    __slots__ = ("_matrix",)
    _ITEM_NDIM, _NOUN, _NO_LEN = 2, "transform", "Single transform has no len"

    def __init__(self, matrix, normalize=True, copy=True):
        m = _float(matrix)
        if m.ndim < 2 or m.shape[-2:] != (4, 4):
            raise ValueError(f"Expected `matrix` to have shape (..., 4, 4), got {m.shape}.")
        bad = ~gp.all(m[..., 3, :] == gp.asarray([0.0, 0.0, 0.0, 1.0], dtype=m.dtype),
                      axis=-1)
        if bool(gp.any(bad)):
            idx = () if bad.ndim == 0 else \
                tuple(int(i) for i in np.unravel_index(int(gp.argmax(bad.reshape(-1))),
                                                       bad.shape))
            raise ValueError(f"Expected last row of transformation matrix {idx} to be exactly "
                             f"[0, 0, 0, 1], got {gp.asnumpy(m[idx + (3,)])}")
        if normalize:
            rot = Rotation.from_matrix(m[..., :3, :3]).as_matrix()
            m = _assemble(m[..., :3, 3], rot)
        elif copy:
            m = m.copy()
        self._matrix = m

    @classmethod
    def _raw(cls, m):
        t = cls.__new__(cls)
        t._matrix = m
        return t

    # ---- constructors ----

    @classmethod
    def from_matrix(cls, matrix):
        """From homogeneous matrices (..., 4, 4); the rotation part is made orthogonal."""
        return cls(matrix, normalize=True, copy=True)

    @classmethod
    def from_rotation(cls, rotation):
        """The pure rotations of a Rotation."""
        if not isinstance(rotation, Rotation):
            raise TypeError(f"Expected `rotation` to be a `Rotation` instance, got "
                            f"{type(rotation)}.")
        rot = rotation.as_matrix()
        return cls._raw(_assemble(gp.zeros(rot.shape[:-1], dtype=rot.dtype), rot))

    @classmethod
    def from_translation(cls, translation):
        """The pure translations (..., 3)."""
        t = _float(translation)
        if t.ndim == 0 or t.shape[-1] != 3:
            raise ValueError(f"Expected `translation` to have shape (..., 3), got {t.shape}.")
        eye = gp.broadcast_to(gp.eye(3, dtype=t.dtype), t.shape[:-1] + (3, 3))
        return cls._raw(_assemble(t, eye))

    @classmethod
    def from_components(cls, translation, rotation):
        """Rotate by `rotation`, then translate by `translation`."""
        return cls.from_translation(translation) * cls.from_rotation(rotation)

    @classmethod
    def from_exp_coords(cls, exp_coords):
        """From exponential coordinates (..., 6): rotation vector, then the
        translation part of the twist."""
        e = _float(exp_coords)
        if e.ndim == 0 or e.shape[-1] != 6:
            raise ValueError(f"Expected `exp_coords` to have shape (..., 6), got {e.shape}.")
        return cls._raw(_from_exp(e))

    @classmethod
    def from_dual_quat(cls, dual_quat, *, scalar_first=False):
        """From unit dual quaternions (..., 8): real then dual part (each
        scalar last unless scalar_first); normalised first."""
        d = _float(dual_quat)
        if d.ndim == 0 or d.shape[-1] != 8:
            raise ValueError(f"Expected `dual_quat` to have shape (..., 8), got {d.shape}.")
        real, dual = d[..., :4], d[..., 4:]
        if scalar_first:
            real, dual = gp.roll(real, -1, axis=-1), gp.roll(dual, -1, axis=-1)
        # unit norm 1 + 0 eps: a zero real part becomes the identity, the dual
        # part is scaled with the real one and made orthogonal to it
        n = gp.sqrt(gp.sum(real * real, axis=-1, keepdims=True))
        zero = n == 0
        real = gp.where(zero, gp.asarray([0.0, 0.0, 0.0, 1.0], dtype=d.dtype), real)
        n = gp.where(zero, 1.0, n)
        real, dual = real / n, dual / n
        dual = dual - gp.sum(real * dual, axis=-1, keepdims=True) * real
        real = real / gp.sqrt(gp.sum(real * real, axis=-1, keepdims=True))  # as from_quat
        conj = real * gp.asarray([-1.0, -1.0, -1.0, 1.0], dtype=d.dtype)
        t = 2.0 * _compose(dual, conj)[..., :3]
        return cls._raw(_assemble(t, _matrix(real)))

    @classmethod
    def identity(cls, num=None, *, shape=None):
        """The identity transform: one, `num` of them, or an array of `shape`."""
        batch = _shape_of(num, shape)
        return cls._raw(gp.broadcast_to(gp.eye(4), batch + (4, 4)).copy())

    @staticmethod
    def concatenate(transforms):
        """One RigidTransform of the transforms of each (single ones count as one)."""
        if isinstance(transforms, RigidTransform):
            return RigidTransform._raw(transforms._matrix.copy())
        transforms = list(transforms)
        if not all(isinstance(t, RigidTransform) for t in transforms):
            raise TypeError("input must contain RigidTransform objects only")
        return RigidTransform._raw(gp.concatenate(
            [t._matrix[None] if t.single else t._matrix for t in transforms]))

    # ---- representations ----

    def as_matrix(self):
        """The homogeneous matrices (..., 4, 4)."""
        return self._matrix.copy()

    def as_components(self):
        """(translation, rotation): self is the rotation followed by the translation."""
        return self.translation, self.rotation

    def as_exp_coords(self):
        """The exponential coordinates (..., 6)."""
        return _as_exp(self._matrix)

    def as_dual_quat(self, *, scalar_first=False):
        """The unit dual quaternions (..., 8)."""
        real = _from_orthogonal(self._matrix[..., :3, :3])
        t = self._matrix[..., :3, 3]
        pure = gp.concatenate([t, gp.zeros_like(t[..., :1])], axis=-1)
        dual = 0.5 * _compose(pure, real)
        if scalar_first:
            real, dual = gp.roll(real, 1, axis=-1), gp.roll(dual, 1, axis=-1)
        return gp.concatenate([real, dual], axis=-1)

    @property
    def rotation(self):
        """The rotation part, a Rotation of the same shape."""
        return Rotation._raw(_from_orthogonal(self._matrix[..., :3, :3]))

    @property
    def translation(self):
        """The translation part (..., 3)."""
        return self._matrix[..., :3, 3].copy()

    def mean(self, weights=None, axis=None):
        """The mean transform (over `axis`, all by default): the mean
        rotation (Rotation.mean) after the (weighted) mean translation."""
        m = self._matrix if not self.single else self._matrix[None]
        nb = m.ndim - 2
        if m.shape[0] == 0:
            raise ValueError("Mean of an empty rotation set is undefined.")
        if axis is None:
            axis = tuple(range(nb))
        elif isinstance(axis, int):
            axis = (axis,)
        if not isinstance(axis, tuple):
            raise ValueError("`axis` must be None, int, or tuple of ints.")
        if axis and (min(axis) < -nb or max(axis) > nb - 1):
            raise ValueError(f"axis {axis} is out of bounds for transform with shape "
                             f"{m.shape[:-2]}.")
        axis = tuple(sorted({a % nb for a in axis}))
        t = m[..., :3, 3]
        if weights is not None:
            weights = as_device(weights).astype(m.dtype)
            if bool(gp.any(weights < 0)):
                raise ValueError("`weights` must be non-negative.")
            if weights.shape != m.shape[:-2]:
                raise ValueError("Expected `weights` to match transform shape, got shape "
                                 f"{weights.shape} for {m.shape[:-2]} transformations.")
        rot = Rotation._raw(_from_orthogonal(m[..., :3, :3])).mean(weights, axis)
        if weights is None:
            t_mean = gp.mean(t, axis=axis)
        else:
            t_mean = gp.sum(t * weights[..., None], axis=axis) / \
                gp.sum(weights[..., None], axis=axis)
        return RigidTransform._raw(_assemble(t_mean, rot.as_matrix()))

    # ---- operations ----

    def apply(self, vector, inverse=False):
        """The transformed points (..., 3) (by the inverse transforms where inverse)."""
        v = as_device(vector).astype(self._matrix.dtype)
        if v.ndim == 0 or v.shape[-1] != 3:
            raise ValueError(f"Expected vector to have shape (..., 3), got {v.shape}.")
        m = _inverse(self._matrix) if inverse else self._matrix
        h = gp.concatenate([v, gp.ones_like(v[..., :1])], axis=-1)[..., None]
        try:
            gp.broadcast_shapes(m.shape, h.shape)
        except ValueError:
            raise ValueError("operands could not be broadcast together") from None
        return (m @ h)[..., :3, 0]

    def __mul__(self, other):
        if not isinstance(other, RigidTransform):
            return NotImplemented
        try:
            gp.broadcast_shapes(self._matrix.shape, other._matrix.shape)
        except ValueError:
            raise ValueError(f"Cannot broadcast {self.shape} transforms in first to "
                             f"{other.shape} transforms in second object.") from None
        return RigidTransform(self._matrix @ other._matrix, normalize=True, copy=False)

    def __pow__(self, n):
        """The transform applied n times (any real n, through exponential
        coordinates); 0, 1 and -1 exactly."""
        if isinstance(n, gp.ndarray):
            # SciPy's compiled path takes float(n): one element, or TypeError
            if n.size != 1:
                raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
            n = n.reshape(())
        n = float(n)
        if n == 0:
            return RigidTransform.identity(shape=self.shape)
        if n == -1:
            return self.inv()
        if n == 1:
            return RigidTransform._raw(self._matrix.copy())
        return RigidTransform._raw(_from_exp(_as_exp(self._matrix) * n))

    def inv(self):
        """The inverse transforms: x -> R^T (x - t)."""
        return RigidTransform._raw(_inverse(self._matrix))

    # ---- the container ----

    def __repr__(self):
        return f"RigidTransform.from_matrix({gp.asnumpy(self._matrix)!r})"
