"""``Rotation`` and ``Slerp`` (scipy.spatial.transform) on gpunp arrays.

A Rotation holds unit quaternions (x, y, z, w), scalar last, in a gpunp
array of shape (..., 4): the shape before the last axis is the rotation's
``shape``, () for a single rotation. Every conversion is a few elementwise
gpunp operations over the whole batch; nothing loops over rotations in
Python. Float32 quaternions stay float32 (as SciPy keeps the precision of
array-API input); anything else becomes float64.

The formulas are the standard ones: the quaternion product, the rotation
matrix of a unit quaternion, Shepperd's choice of the largest of four
candidates for matrix -> quaternion, series near zero for the rotation
vector's scale, Bernardes and Zanetti's quaternion -> Euler angles (the
same signs and gimbal-lock conventions as SciPy), Markley's average (the
dominant eigenvector of the mean of q q^T)."""

from __future__ import annotations

import itertools
import math
import re
import warnings

import numpy as np

import gpunp as gp

from ..._host import as_device
from ..._version import scipy_version
from ._stack import Stack

_AXIS = {"x": 0, "y": 1, "z": 2}


def _float(x):
    x = as_device(x)
    return x if x.dtype in (np.float32, np.float64) else x.astype(np.float64)


def _norm(x, keepdims=False):
    return gp.sqrt(gp.sum(x * x, axis=-1, keepdims=keepdims))


def _normalized(q):
    n = _norm(q, keepdims=True)
    if bool(gp.any(n == 0)):
        raise ValueError("Found zero norm quaternions in `quat`.")
    return q / n


def _compose(p, q):
    """The quaternion product p q (q applied first), broadcast."""
    px, py, pz, pw = (p[..., i] for i in range(4))
    qx, qy, qz, qw = (q[..., i] for i in range(4))
    return gp.stack([pw * qx + qw * px + (py * qz - pz * qy),
                     pw * qy + qw * py + (pz * qx - px * qz),
                     pw * qz + qw * pz + (px * qy - py * qx),
                     pw * qw - px * qx - py * qy - pz * qz], axis=-1)


def _canonical(q):
    """q or -q, whichever has w > 0 (the first nonzero of w, x, y, z positive)."""
    x, y, z, w = (q[..., i] for i in range(4))
    flip = (w < 0) | ((w == 0) & ((x < 0) | ((x == 0) & ((y < 0) | ((y == 0) & (z < 0))))))
    return gp.where(flip[..., None], -q, q)


def _matrix(q):
    x, y, z, w = (q[..., i] for i in range(4))
    x2, y2, z2, w2 = x * x, y * y, z * z, w * w
    xy, zw, xz, yw, yz, xw = x * y, z * w, x * z, y * w, y * z, x * w
    m = gp.stack([x2 - y2 - z2 + w2, 2 * (xy - zw), 2 * (xz + yw),
                  2 * (xy + zw), -x2 + y2 - z2 + w2, 2 * (yz - xw),
                  2 * (xz - yw), 2 * (yz + xw), -x2 - y2 + z2 + w2], axis=-1)
    return m.reshape(q.shape[:-1] + (3, 3))


def _from_orthogonal(m):
    """Shepperd's method: of the four quaternions each exact where its
    component is largest, the one with the largest (trace or diagonal) term."""
    d0, d1, d2 = m[..., 0, 0], m[..., 1, 1], m[..., 2, 2]
    tr = d0 + d1 + d2
    choice = gp.argmax(gp.stack([d0, d1, d2, tr], axis=-1), axis=-1)[..., None]
    s01, s02, s12 = m[..., 1, 0] + m[..., 0, 1], m[..., 2, 0] + m[..., 0, 2], \
        m[..., 2, 1] + m[..., 1, 2]
    a21, a02, a10 = m[..., 2, 1] - m[..., 1, 2], m[..., 0, 2] - m[..., 2, 0], \
        m[..., 1, 0] - m[..., 0, 1]
    cands = [gp.stack([1 - tr + 2 * d0, s01, s02, a21], axis=-1),
             gp.stack([s01, 1 - tr + 2 * d1, s12, a02], axis=-1),
             gp.stack([s02, s12, 1 - tr + 2 * d2, a10], axis=-1),
             gp.stack([a21, a02, a10, 1 + tr], axis=-1)]
    q = cands[3]
    for k in range(3):
        q = gp.where(choice == k, cands[k], q)
    return q / _norm(q, keepdims=True)


def _from_rotvec(v):
    angle = _norm(v, keepdims=True)
    small = angle <= 1e-3
    a2 = angle * angle
    # sin(angle/2)/angle, by its Taylor series where the division loses digits
    scale = gp.where(small, 0.5 - a2 / 48 + a2 * a2 / 3840,
                     gp.sin(angle / 2) / gp.where(small, 1.0, angle))
    return gp.concatenate([v * scale, gp.cos(angle / 2)], axis=-1)


def _rotvec(q):
    q = _canonical(q)
    angle = 2 * gp.arctan2(_norm(q[..., :3], keepdims=True), q[..., 3:])
    small = angle <= 1e-3
    a2 = angle * angle
    scale = gp.where(small, 2 + a2 / 12 + 7 * a2 * a2 / 2880,
                     angle / gp.where(small, 1.0, gp.sin(angle / 2)))
    return scale * q[..., :3]


def _elementary(axis, angle):
    zero = gp.zeros_like(angle)
    parts = [zero, zero, zero, gp.cos(angle / 2)]
    parts[axis] = gp.sin(angle / 2)
    return gp.stack(parts, axis=-1)


def _check_seq(seq, max_len):
    if not isinstance(seq, str) or not 1 <= len(seq) <= max_len:
        raise ValueError("Expected axis specification to be a non-empty string of up to 3 "
                         f"characters, got {seq}")
    intrinsic = re.fullmatch(r"[XYZ]{1,3}", seq) is not None
    extrinsic = re.fullmatch(r"[xyz]{1,3}", seq) is not None
    if not (intrinsic or extrinsic):
        raise ValueError("Expected axes from `seq` to be from ['x', 'y', 'z'] or "
                         f"['X', 'Y', 'Z'], got {seq}")
    if any(seq[i] == seq[i + 1] for i in range(len(seq) - 1)):
        raise ValueError(f"Expected consecutive axes to be different, got {seq}")
    return [_AXIS[c] for c in seq.lower()], extrinsic


def _angles(a, b, c, d, extrinsic, s, lamb, suppress_warnings):
    """The three angles from the permuted quaternion (a, b, c, d) of
    Bernardes and Zanetti (2022): the two half angles from two arctangents,
    the middle one from their moduli less lamb (the angle between the first
    and third axes' planes: pi/2 for Tait-Bryan sequences, 0 for proper
    Euler ones), s the sign of the third (the permutation's parity)."""
    half_sum, half_diff = gp.arctan2(b, a), gp.arctan2(d, c)
    middle = 2 * gp.arctan2(gp.hypot(c, d), gp.hypot(a, b))
    eps = 1e-7
    at_zero = gp.abs(middle) <= eps
    at_pi = gp.abs(middle - math.pi) <= eps
    regular = ~(at_zero | at_pi)
    if not suppress_warnings and not bool(gp.all(regular)):
        warnings.warn("Gimbal lock detected. Setting third angle to zero since it is not "
                      "possible to uniquely determine all angles.", stacklevel=4)
    # in gimbal lock the third angle is 0 and the first takes the whole turn
    # (SciPy's: the lock value is written to the first angle of the sequence)
    lock = gp.where(at_zero, 2 * half_sum, 2 * half_diff * (-1 if extrinsic else 1))
    middle = middle - lamb
    if extrinsic:
        angles = [gp.where(regular, half_sum - half_diff, lock), middle,
                  gp.where(regular, half_sum + half_diff, 0.0) * s]
    else:
        angles = [gp.where(regular, half_sum + half_diff, lock) * s, middle,
                  gp.where(regular, half_sum - half_diff, 0.0)]
    out = gp.stack(angles, axis=-1)
    # into [-pi, pi] by one turn, both ends kept (as SciPy's compiled loop
    # does; a remainder would send pi to -pi)
    return gp.where(out < -math.pi, out + 2 * math.pi,
                    gp.where(out > math.pi, out - 2 * math.pi, out))


def _euler(q, seq, degrees, suppress_warnings):
    """Quaternion -> Euler angles: the quaternion permuted so the sequence
    reads as (i, j, k), then _angles."""
    if len(seq) != 3:
        raise ValueError(f"Expected 3 axes, got {seq}.")
    axes, extrinsic = _check_seq(seq, 3)
    i, j, k = axes if extrinsic else axes[::-1]
    symmetric = i == k
    if symmetric:
        k = 3 - i - j
    sign = (i - j) * (j - k) * (k - i) // 2  # +1 for an even permutation of (x, y, z)
    w = q[..., 3]
    if symmetric:
        a, b, c, d = w, q[..., i], q[..., j], q[..., k] * sign
    else:
        a, b = w - q[..., j], q[..., i] + q[..., k] * sign
        c, d = q[..., j] + w, q[..., k] * sign - q[..., i]
    out = _angles(a, b, c, d, extrinsic, 1 if symmetric else sign,
                  0.0 if symmetric else math.pi / 2, suppress_warnings)
    return out * (180.0 / math.pi) if degrees else out


def _order(order):
    if order in ("e", "extrinsic"):
        return True
    if order in ("i", "intrinsic"):
        return False
    raise ValueError("order should be 'e'/'extrinsic' for extrinsic sequences or 'i'/"
                     f"'intrinsic' for intrinsic sequences, got {order}")


def _vcross(a, b):
    return gp.stack([a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1],
                     a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
                     a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]], axis=-1)


def _davenport(q, axes, extrinsic, suppress_warnings):
    """Quaternion -> angles about three axes (the first two and the last two
    orthogonal), the generalisation of _euler: rotate by lamb about the
    middle axis so the first and third axes' planes meet at a right angle."""
    n1, n2, n3 = axes[..., 0, :], axes[..., 1, :], axes[..., 2, :]
    if not extrinsic:
        n1, n3 = n3, n1
    n_cross = _vcross(n1, n2)
    lamb = gp.arctan2(gp.sum(n3 * n_cross, axis=-1), gp.sum(n3 * n1, axis=-1))
    # the other of the two angle sets, so lamb >= 0 as SciPy's choice
    flip = lamb < 0
    n2 = gp.where(flip[..., None], -n2, n2)
    n_cross = gp.where(flip[..., None], -n_cross, n_cross)
    lamb = gp.abs(lamb)
    q_lamb = gp.concatenate([gp.sin(lamb / 2)[..., None] * n2, gp.cos(lamb / 2)[..., None]],
                            axis=-1)
    t = _compose(q_lamb, q)
    v = t[..., :3]
    out = _angles(t[..., 3], gp.sum(v * n1, axis=-1), gp.sum(v * n2, axis=-1),
                  gp.sum(v * n_cross, axis=-1), extrinsic, 1, lamb, suppress_warnings)
    return gp.concatenate([out[..., :1], gp.where(flip, -out[..., 1], out[..., 1])[..., None],
                           out[..., 2:]], axis=-1)


def _align_primary(a, b, w, k):
    """align_vectors with pair k held exact: the shortest rotation taking
    b_k onto a_k (a half turn about a perpendicular axis when they are
    opposite), then the turn about a_k that best fits the other pairs."""
    ap = a[k] / _norm(a[k])
    bp = b[k] / _norm(b[k])
    if float(_norm(a[k])) == 0 or float(_norm(b[k])) == 0:
        raise ValueError("Cannot align zero length primary vectors")
    cross = gp.stack([bp[1] * ap[2] - bp[2] * ap[1], bp[2] * ap[0] - bp[0] * ap[2],
                      bp[0] * ap[1] - bp[1] * ap[0]])
    cn = float(_norm(cross))
    theta = math.atan2(cn, float(gp.sum(ap * bp)))
    tol = 1e-3
    q_flip = gp.asarray([0.0, 0.0, 0.0, 1.0], dtype=a.dtype)
    if math.pi - theta < tol:
        # nearly opposite: a half turn about an axis perpendicular to a_k first
        if cn == 0:
            aph = gp.asnumpy(ap)
            i = int(np.argmin(np.abs(aph)))
            e = np.zeros(3)
            e[i] = 1.0
            r = gp.asarray(np.cross(e, aph).astype(aph.dtype))
        else:
            r = cross
        q_flip = _from_rotvec(r / _norm(r) * math.pi)
        theta = math.pi - theta
        cross = -cross
    # the rotation vector cross * theta / sin(theta), by its series near 0
    scale = (1 + theta * theta / 6 + theta ** 4 * 7 / 360) if abs(theta) < tol \
        else theta / math.sin(theta)
    q = _compose(_from_rotvec(cross * scale), q_flip)
    others = [i for i in range(a.shape[0]) if i != k]
    if others:
        idx = gp.asarray(others)
        c = (_matrix(q) @ b[idx][..., None])[..., 0]
        asec, wsec = a[idx], w[idx]
        ca = gp.stack([c[:, 1] * asec[:, 2] - c[:, 2] * asec[:, 1],
                       c[:, 2] * asec[:, 0] - c[:, 0] * asec[:, 2],
                       c[:, 0] * asec[:, 1] - c[:, 1] * asec[:, 0]], axis=-1)
        sin_t = ca @ ap
        cos_t = gp.sum(c * asec, axis=-1) - (c @ ap) * (asec @ ap)
        phi = gp.arctan2(gp.sum(wsec * sin_t), gp.sum(wsec * cos_t))
        q = _compose(_from_rotvec(phi * ap), q)
    wz = gp.where(gp.isinf(w), 0.0, w)  # the exact pair adds nothing to the rssd
    est = (_matrix(q) @ b[..., None])[..., 0]
    return q, gp.sqrt(gp.sum(wz @ ((a - est) ** 2)))


def _group_quats(symbol, order, axis):
    """The unit quaternions (x, y, z, w), one of each +-q pair, of a
    rotation group: cyclic C_n and dihedral D_n about `axis`, and the
    rotations of the tetrahedron (the 12 Hurwitz units up to sign), the
    octahedron (and the 12 of two entries +-1/sqrt 2) and the icosahedron
    (and the 48 even permutations of (0, 1/2, 1/(2 phi), phi/2) with every
    sign; even with the scalar first)."""
    def rotvec_about(angles, ax):
        v = np.zeros((len(angles), 3))
        v[:, ax] = angles
        return v

    if symbol in "CD":
        th = np.arange(order) * (2 * np.pi / order)
        vecs = [rotvec_about(th, axis)]
        if symbol == "D":
            # half turns about n axes in the plane perpendicular to `axis`
            ph = np.arange(order) * (np.pi / order)
            perp = np.zeros((order, 3))
            perp[:, (axis + 1) % 3] = np.cos(ph)
            perp[:, (axis + 2) % 3] = np.sin(ph)
            vecs.append(np.pi * perp)
        return None, np.concatenate(vecs)
    units = [np.eye(4)]
    units.append(np.array([[0.5, sy, sz, sw] for sw in (0.5, -0.5) for sy in (-0.5, 0.5)
                           for sz in (-0.5, 0.5)]))
    if symbol == "O":
        c = np.sqrt(0.5)
        units.append(np.array([q for i, j in itertools.combinations(range(4), 2)
                               for sj in (c, -c)
                               for q in [np.eye(4)[i] * c + np.eye(4)[j] * sj]]))
    if symbol == "I":
        phi = (1 + np.sqrt(5)) / 2
        base = (0.0, 0.5, 0.5 / phi, phi / 2)  # (w, x, y, z) of the even permutations
        rows = set()
        for perm in itertools.permutations(range(4)):
            inversions = sum(perm[a] > perm[b] for a in range(4) for b in range(a + 1, 4))
            if inversions % 2:
                continue
            for signs in itertools.product((1, -1), repeat=3):
                wxyz = [0.0] * 4
                k = 0
                for slot, src in enumerate(perm):
                    val = base[src]
                    if val != 0:
                        val *= signs[k]
                        k += 1
                    wxyz[slot] = val
                q = np.array(wxyz[1:] + wxyz[:1])
                first = q[np.nonzero(q)[0][0]]
                rows.add(tuple(np.round(q if first > 0 else -q, 15)))
        units.append(np.array(sorted(rows)))
    return np.concatenate(units), None


class Rotation(Stack):
    """Rotations in 3 dimensions (scipy.spatial.transform.Rotation), one or
    a batch of any shape, as unit quaternions on the device."""

    __slots__ = ("_quat",)
    _ITEM_NDIM, _NOUN, _NO_LEN = 1, "rotation", "Single rotation has no len()."

    def __init__(self, quat, normalize=True, copy=True, scalar_first=False):
        quat = _float(quat)
        if quat.ndim == 0 or quat.shape[-1] != 4:
            raise ValueError(f"Expected `quat` to have shape (..., 4), got {quat.shape}.")
        if scalar_first:
            quat = gp.roll(quat, -1, axis=-1)
        if normalize:
            quat = _normalized(quat)
        elif copy:
            quat = quat.copy()
        self._quat = quat

    @classmethod
    def _raw(cls, quat):
        r = cls.__new__(cls)
        r._quat = quat
        return r

    # ---- constructors ----

    @classmethod
    def from_quat(cls, quat, *, scalar_first=False):
        """From quaternions (..., 4), scalar last unless scalar_first; normalised."""
        return cls(quat, normalize=True, scalar_first=scalar_first)

    @classmethod
    def from_matrix(cls, matrix, *, assume_valid=False):
        """From rotation matrices (..., 3, 3); a matrix that is not
        orthogonal is replaced by its nearest orthogonal one (U V^T of its SVD)."""
        m = _float(matrix)
        if m.ndim < 2 or m.shape[-2:] != (3, 3):
            raise ValueError("Expected `matrix` to have shape (3, 3) or (N, 3, 3), got "
                             f"{m.shape}")
        if not assume_valid:
            bad = gp.linalg.det(m) <= 0
            if bool(gp.any(bad)):
                ind = int(gp.argmax(bad.reshape(-1)))
                raise ValueError("Non-positive determinant (left-handed or null coordinate "
                                 f"frame) in rotation matrix {ind}: "
                                 f"{gp.asnumpy(m.reshape(-1, 3, 3)[ind])}.")
            gram = m @ gp.swapaxes(m, -1, -2)
            ortho = gp.all(gp.abs(gram - gp.eye(3, dtype=m.dtype)) <= 1e-12 + 1e-5 * gp.eye(3),
                           axis=(-2, -1))
            if not bool(gp.all(ortho)):
                u, _, vt = gp.linalg.svd(m, full_matrices=False)
                m = gp.where(ortho[..., None, None], m, u @ vt)
        return cls._raw(_from_orthogonal(m))

    @classmethod
    def from_rotvec(cls, rotvec, degrees=False):
        """From rotation vectors (..., 3): axis times angle (radians, or degrees)."""
        v = _float(rotvec)
        if v.ndim == 0 or v.shape[-1] != 3:
            raise ValueError(f"Expected `rot_vec` to have shape (3,) or (N, 3), got {v.shape}")
        if degrees:
            v = v * (math.pi / 180.0)
        return cls._raw(_from_rotvec(v))

    @classmethod
    def from_mrp(cls, mrp):
        """From modified Rodrigues parameters (..., 3)."""
        p = _float(mrp)
        if p.ndim == 0 or p.shape[-1] != 3:
            raise ValueError(f"Expected `mrp` to have shape (3,) or (N, 3), got {p.shape}")
        s = gp.sum(p * p, axis=-1, keepdims=True) + 1
        return cls._raw(gp.concatenate([2 * p, 2 - s], axis=-1) / s)

    @classmethod
    def from_euler(cls, seq, angles, degrees=False):
        """From Euler angles about the axes of `seq` (1 to 3 of xyz:
        extrinsic; of XYZ: intrinsic); angles (..., len(seq)), or a scalar
        for one axis."""
        axes, extrinsic = _check_seq(seq, 3)
        a = _float(angles)
        if degrees:
            a = a * (math.pi / 180.0)
        if a.ndim == 0:
            a = a.reshape(1)
        if a.shape[-1] != len(axes):
            raise ValueError("Expected last dimension of `angles` to match number of sequence "
                             f"axes specified, got {a.shape[-1]}.")
        q = _elementary(axes[0], a[..., 0])
        for n in range(1, len(axes)):
            e = _elementary(axes[n], a[..., n])
            q = _compose(e, q) if extrinsic else _compose(q, e)
        return cls._raw(q)

    @classmethod
    def from_davenport(cls, axes, order, angles, degrees=False):
        """From angles about 1 to 3 unit axes (..., k, 3), each orthogonal
        to the next, composed extrinsically ('e') or intrinsically ('i')."""
        extrinsic = _order(order)
        ax = _float(axes)
        if ax.ndim == 0 or ax.shape[-1] != 3:
            raise ValueError("Axes must be vectors of length 3.")
        ax = gp.atleast_2d(ax)
        a = gp.atleast_1d(_float(angles))
        k = ax.shape[-2]
        if not 1 <= k <= 3:
            raise ValueError(f"Expected up to 3 axes, got {k}")
        ax = ax / _norm(ax, keepdims=True)
        for first in range(k - 1):
            if bool(gp.any(gp.abs(gp.sum(ax[..., first, :] * ax[..., first + 1, :], axis=-1))
                           > 1e-7)):
                raise ValueError("Consecutive axes must be orthogonal.")
        if degrees:
            a = a * (math.pi / 180.0)
        try:
            gp.broadcast_shapes(ax.shape[:-1], a.shape)
            ok = a.shape[-1] == k
        except ValueError:
            ok = False
        if not ok:
            raise ValueError(f"Expected `angles` to match number of axes, got {a.shape} angles "
                             f"and {ax.shape} axes.")
        q = None
        for n in range(k):
            e = _from_rotvec(a[..., n, None] * ax[..., n, :])
            q = e if q is None else (_compose(e, q) if extrinsic else _compose(q, e))
        return cls._raw(q)

    @classmethod
    def create_group(cls, group, axis="Z"):
        """The rotations of a symmetry group: 'I' (icosahedral, 60), 'O'
        (octahedral, 24), 'T' (tetrahedral, 12), 'Cn' (cyclic, n) or 'Dn'
        (dihedral, 2n) about `axis`. The same set as SciPy's; the order of
        the polyhedral groups' elements is gpunp's own."""
        if not isinstance(group, str):
            raise ValueError("`group` argument must be a string")
        permitted = ["x", "y", "z", "X", "Y", "Z"]
        if axis not in permitted:
            raise ValueError("`axis` must be one of " + ", ".join(permitted))
        if group in ("I", "O", "T"):
            symbol, order = group, 1
        elif group[:1] in ("C", "D") and group[1:].isdigit():
            symbol, order = group[:1], int(group[1:])
        else:
            raise ValueError("`group` must be one of 'I', 'O', 'T', 'Dn', 'Cn'")
        if order < 1:
            raise ValueError("Group order must be positive")
        quats, rotvecs = _group_quats(symbol, order, "xyz".index(axis.lower()))
        if quats is not None:
            return cls(gp.asarray(quats))
        return cls.from_rotvec(gp.asarray(rotvecs))

    def reduce(self, left=None, right=None, return_indices=False):
        """Each rotation p as l p r with l of `left` and r of `right` (groups)
        chosen to make the angle smallest: the largest |w| of l p r. Returns
        the reduced rotations (and the chosen indices where asked). Where
        several (l, r) give the same angle (h p h^-1 and p, for h in both
        groups), the first in (l, r) order wins, as in SciPy, but rounding
        may order the tied ones differently there."""
        if left is None and right is None:
            reduced = Rotation._raw(self._quat.copy())
            return (reduced, None, None) if return_indices else reduced
        p = gp.atleast_2d(self._quat)
        one = Rotation.identity(1)._quat.astype(p.dtype)
        lq = one if left is None else gp.atleast_2d(left._quat)
        rq = one if right is None else gp.atleast_2d(right._quat)
        # w of l p r for every (l, p, r): (L, N, R)
        pr = _compose(p[None, :, :], rq[:, None, :])  # (R, N, 4)
        lpr = _compose(lq[:, None, None, :], pr[None, :, :, :])  # (L, R, N, 4)
        w = gp.abs(lpr[..., 3])
        best = gp.argmax(gp.moveaxis(w, 2, 0).reshape(p.shape[0], -1), axis=1)
        li, ri = best // rq.shape[0], best % rq.shape[0]
        reduced = _compose(lq[li], _compose(p, rq[ri]))
        if self.single:
            reduced = reduced[0]
        rot = Rotation._raw(reduced)
        if return_indices:
            return rot, (li if left is not None else None), (ri if right is not None else None)
        return rot

    @classmethod
    def identity(cls, num=None, *, shape=None):
        """The identity rotation: one, `num` of them, or an array of `shape`."""
        if num is not None and shape is not None:
            raise ValueError("Only one of `num` or `shape` can be specified.")
        batch = () if num is None and shape is None else \
            ((num,) if shape is None else (shape,) if isinstance(shape, int) else tuple(shape))
        q = gp.zeros(batch + (4,))
        q[..., 3] = 1.0
        return cls._raw(q)

    @classmethod
    def random(cls, num=None, rng=None, *, shape=None):
        """Uniformly random rotations: normalised Gaussian quaternions drawn
        on the host from `rng` (NumPy's generator), so a seed gives SciPy's
        rotations, then sent to the device."""
        if num is not None and shape is not None:
            raise ValueError("Only one of `num` or `shape` can be specified.")
        batch = () if num is None and shape is None else \
            ((num,) if shape is None else (shape,) if isinstance(shape, int) else tuple(shape))
        if not isinstance(rng, (np.random.Generator, np.random.RandomState)):
            rng = np.random.default_rng(rng)
        return cls(gp.asarray(rng.normal(size=batch + (4,))), normalize=True, copy=False)

    @staticmethod
    def concatenate(rotations):
        """One Rotation of the rotations of each (single ones count as one)."""
        if isinstance(rotations, Rotation):
            return Rotation(rotations._quat, normalize=False, copy=True)
        rotations = list(rotations)
        if not all(isinstance(r, Rotation) for r in rotations):
            raise TypeError("input must contain Rotation objects only")
        return Rotation._raw(gp.concatenate([gp.atleast_2d(r._quat) for r in rotations]))

    # ---- representations ----

    def as_quat(self, canonical=False, *, scalar_first=False):
        """The quaternions (..., 4), w >= 0 where canonical."""
        q = _canonical(self._quat) if canonical else self._quat.copy()
        return gp.roll(q, 1, axis=-1) if scalar_first else q

    def as_matrix(self):
        """The rotation matrices (..., 3, 3)."""
        return _matrix(self._quat)

    def as_rotvec(self, degrees=False):
        """The rotation vectors (..., 3), angles in [0, pi] (or degrees)."""
        v = _rotvec(self._quat)
        return v * (180.0 / math.pi) if degrees else v

    def as_mrp(self):
        """The modified Rodrigues parameters (..., 3) of the rotations of angle <= pi."""
        q = self._quat
        sign = gp.where(q[..., 3:] < 0, -1.0, 1.0)
        return sign * q[..., :3] / (1.0 + sign * q[..., 3:])

    def as_euler(self, seq, degrees=False, *, suppress_warnings=False):
        """Euler angles (..., 3) about the axes of `seq` (3 of xyz or XYZ)."""
        return _euler(self._quat, seq, degrees, suppress_warnings)

    def as_davenport(self, axes, order, degrees=False, *, suppress_warnings=False):
        """Angles (..., 3) about three unit axes (3, 3), each orthogonal to
        the next, extrinsic ('e') or intrinsic ('i')."""
        extrinsic = _order(order)
        ax = as_device(axes).astype(self._quat.dtype)
        if ax.ndim < 2 or ax.shape[-2] != 3:
            raise ValueError(f"Expected 3 axes, got {ax.shape}.")
        if ax.shape[-1] != 3:
            raise ValueError("Axes must be vectors of length 3.")
        try:
            gp.broadcast_shapes(ax.shape[:-2], self.shape)
        except ValueError:
            raise ValueError(f"Expected `axes` to match number of rotations, got {ax.shape} "
                             f"axes and {self._quat.shape} rotations.") from None
        ax = ax / _norm(ax, keepdims=True)
        if bool(gp.any((gp.sum(ax[..., 0, :] * ax[..., 1, :], axis=-1) >= 1e-7)
                       | (gp.sum(ax[..., 1, :] * ax[..., 2, :], axis=-1) >= 1e-7))):
            raise ValueError("Consecutive axes must be orthogonal.")
        out = _davenport(self._quat, ax, extrinsic, suppress_warnings)
        return out * (180.0 / math.pi) if degrees else out

    # ---- operations ----

    def apply(self, vectors, inverse=False):
        """The rotated vectors (..., 3) (by the inverse rotations where inverse)."""
        v = as_device(vectors).astype(self._quat.dtype)
        if v.ndim == 0 or v.shape[-1] != 3:
            raise ValueError(f"Expected input of shape (..., 3), got {v.shape}.")
        m = _matrix(self._quat)
        try:
            gp.broadcast_shapes(m.shape, v.shape + (1,))
        except ValueError:
            raise ValueError(f"Cannot broadcast {self.shape} rotations to {v.shape[:-1]} "
                             "vectors.") from None
        if inverse:
            m = gp.swapaxes(m, -1, -2)
        return (m @ v[..., None])[..., 0]

    def __mul__(self, other):
        if not isinstance(other, Rotation):
            return NotImplemented
        try:
            gp.broadcast_shapes(self._quat.shape, other._quat.shape)
        except ValueError:
            raise ValueError(f"Cannot broadcast {self.shape} rotations in first to "
                             f"{other.shape} rotations in second object.") from None
        return Rotation(_compose(self._quat, other._quat), normalize=True, copy=False)

    def __pow__(self, n, modulus=None):
        """The rotation applied n times (any real n: the angle scaled by n
        about the same axis); 0, 1 and -1 give the identity, a copy and the
        inverse exactly."""
        if modulus is not None:
            raise NotImplementedError("modulus not supported")
        if isinstance(n, gp.ndarray):
            if n.shape == (1,):
                n = n[0]
            elif n.ndim != 0:
                raise ValueError("Array exponent must be a scalar")
        n = float(n)
        q = self._quat
        if n == 0:
            return Rotation.identity(shape=self.shape) if not self.single else \
                Rotation.identity()
        if n == -1:
            return self.inv()
        if n == 1:
            return Rotation._raw(q.copy())
        return Rotation._raw(_from_rotvec(n * _rotvec(q)))

    @classmethod
    def align_vectors(cls, a, b, weights=None, return_sensitivity=False):
        """(rotation, rssd[, sensitivity]): the rotation C minimising
        sum_i w_i |a_i - C b_i|^2 (Kabsch: the SVD of sum_i w_i a_i b_i^T,
        the last singular vector flipped where it would reflect). An
        infinite weight (or a single pair) makes that pair exact: the
        smallest rotation taking its b onto its a, then the rotation about
        a that best fits the others."""
        a0, b0 = _float(a), _float(b)
        dt = np.result_type(a0.dtype, b0.dtype)
        a, b = gp.atleast_2d(a0.astype(dt)), gp.atleast_2d(b0.astype(dt))
        if a.shape[-1] != 3:
            raise ValueError(f"Expected input `a` to have shape (3,) or (N, 3), got {a0.shape}")
        if b.shape[-1] != 3:
            raise ValueError(f"Expected input `b` to have shape (3,) or (N, 3), got {b0.shape}")
        if a.shape != b.shape:
            raise ValueError("Expected inputs `a` and `b` to have same shapes, got "
                             f"{a0.shape} and {b0.shape} respectively.")
        if a.ndim > 2:
            raise ValueError("Expected inputs `a` and `b` to have shape (3,) or (N, 3), got "
                             f"{a0.shape} and {b0.shape} respectively.")
        n = a.shape[0]
        if weights is None:
            w = gp.ones(n, dtype=dt)
        else:
            w = as_device(weights).astype(dt)
            if w.ndim != 1:
                raise ValueError(f"Expected `weights` to be 1 dimensional, got shape {w.shape}.")
            if n > 1 and w.shape[0] != n:
                raise ValueError("Expected `weights` to have number of values equal to number "
                                 f"of input vectors, got {w.shape[0]} values and {n} vectors.")
            if bool(gp.any(w < 0)):
                raise ValueError("`weights` may not contain negative values")
        inf = gp.isinf(w) if n > 1 else gp.ones(1, dtype=bool)
        n_inf = int(gp.sum(inf))
        if n_inf > 1:
            raise ValueError("Only one infinite weight is allowed")
        if n_inf == 1:
            if return_sensitivity:
                raise ValueError("Cannot return sensitivity matrix with an infinite weight or "
                                 "one vector pair")
            q, rssd = _align_primary(a, b, w, int(gp.argmax(inf)))
            return cls._raw(q), rssd
        B = (w[:, None] * a).T @ b
        u, sv, vh = gp.linalg.svd(B)
        if float(gp.linalg.det(u @ vh)) < 0:
            sv = sv * gp.asarray([1.0, 1.0, -1.0], dtype=dt)
            u = u * gp.asarray([1.0, 1.0, -1.0], dtype=dt)
        svh = gp.asnumpy(sv)
        if svh[1] + svh[2] < 1e-16 * svh[0]:
            warnings.warn("Optimal rotation is not uniquely or poorly defined for the given "
                          "sets of vectors.", stacklevel=2)
        ssd = gp.sum(w * gp.sum(b * b + a * a, axis=1)) - 2 * gp.sum(sv)
        rssd = gp.sqrt(gp.maximum(ssd, 0.0))
        rot = cls._raw(_from_orthogonal(u @ vh))
        if not return_sensitivity:
            return rot, rssd
        zeta = (sv[0] + sv[1]) * (sv[1] + sv[2]) * (sv[2] + sv[0])
        kappa = sv[0] * sv[1] + sv[1] * sv[2] + sv[2] * sv[0]
        sens = gp.mean(w) / zeta * (kappa * gp.eye(3, dtype=dt) + B @ B.T)
        return rot, rssd, sens

    def inv(self):
        """The inverse rotations (the conjugate quaternions)."""
        return Rotation._raw(self._quat * gp.asarray([-1.0, -1.0, -1.0, 1.0],
                                                     dtype=self._quat.dtype))

    def magnitude(self):
        """The rotation angles, in [0, pi]."""
        q = self._quat
        return 2 * gp.arctan2(_norm(q[..., :3]), gp.abs(q[..., 3]))

    def approx_equal(self, other, atol=None, degrees=False):
        """Whether each rotation is within atol (radians, or degrees) of the
        corresponding one of `other`: the angle of other * self^-1."""
        if atol is None:
            if degrees:
                warnings.warn("atol must be set to use the degrees flag, defaulting to 1e-8 "
                              "radians.", stacklevel=2)
            atol = 1e-8
        elif degrees:
            atol = atol * math.pi / 180.0
        # SciPy stores a single rotation as a batch of one, so two singles
        # answer (1,) before 1.18 and that batch's one element from 1.18
        a, b = gp.atleast_2d(self._quat), gp.atleast_2d(other._quat)
        try:
            gp.broadcast_shapes(a.shape, b.shape)
        except ValueError:
            raise ValueError(f"Expected broadcastable shapes in both rotations, got {self.shape}"
                             f" rotations in first and {other.shape} rotations in second "
                             "object.") from None
        equal = Rotation._raw(_compose(b, Rotation._raw(a).inv()._quat)).magnitude() < atol
        if scipy_version() >= 11800 and self._quat.ndim == 1 and other._quat.ndim == 1:
            return equal[0]
        return equal

    def mean(self, weights=None, axis=None):
        """The mean rotation (over `axis`, all by default), Markley's: the
        eigenvector of the largest eigenvalue of the (weighted) mean of q q^T."""
        q = self._quat
        nb = q.ndim - 1
        if nb == 0:
            q, nb = q[None], 1
        if q.shape[0] == 0:
            raise ValueError("Mean of an empty rotation set is undefined.")
        if axis is None:
            axis = tuple(range(nb))
        elif isinstance(axis, int):
            axis = (axis,)
        if not isinstance(axis, tuple):
            raise ValueError("`axis` must be None, int, or tuple of ints.")
        if axis and (min(axis) < -nb or max(axis) > nb - 1):
            raise ValueError(f"axis {axis} is out of bounds for rotation with shape "
                             f"{q.shape[:-1]}.")
        axis = tuple(sorted({a % nb for a in axis}))
        k = q[..., :, None] * q[..., None, :]
        if weights is not None:
            w = as_device(weights).astype(q.dtype)
            if bool(gp.any(w < 0)):
                raise ValueError("`weights` must be non-negative.")
            try:
                gp.broadcast_shapes(q.shape[:-1], w.shape)
            except ValueError:
                raise ValueError("Expected `weights` to be broadcastable to rotation shape, got"
                                 f" shape {w.shape} for {q.shape[:-1]} rotations.") from None
            k = w[..., None, None] * k
        keep = tuple(a for a in range(nb) if a not in axis)
        k = gp.moveaxis(k, keep + axis, tuple(range(nb)))
        k = gp.mean(k.reshape(k.shape[:len(keep)] + (-1, 4, 4)), axis=-3)
        _, vecs = gp.linalg.eigh(k)
        return Rotation._raw(vecs[..., -1])

    # ---- the container ----

    def __bool__(self):
        return True

    def __repr__(self):
        return f"Rotation.from_quat({gp.asnumpy(self._quat)!r})"


class Slerp:
    """Spherical linear interpolation between consecutive rotations at
    increasing times (scipy.spatial.transform.Slerp): constant angular
    velocity on each interval."""

    def __init__(self, times, rotations):
        if not isinstance(rotations, Rotation):
            raise TypeError("`rotations` must be a `Rotation` instance.")
        if rotations.single or len(rotations) <= 1:
            raise ValueError("`rotations` must be a sequence of at least 2 rotations.")
        if rotations._quat.ndim > 2:
            raise ValueError("Rotations with more than 1 leading dimension are not supported.")
        times = as_device(times).astype(rotations._quat.dtype)
        if times.ndim != 1:
            raise ValueError("Expected times to be specified in a 1 dimensional array, got "
                             f"{times.ndim} dimensions.")
        if times.shape[0] != len(rotations):
            raise ValueError("Expected number of rotations to be equal to number of timestamps "
                             f"given, got {len(rotations)} rotations and {times.shape[0]} "
                             "timestamps.")
        self.times = times
        self.timedelta = gp.diff(times)
        if bool(gp.any(self.timedelta <= 0)):
            raise ValueError("Times must be in strictly increasing order.")
        self.rotations = rotations[:-1]
        self.rotvecs = (self.rotations.inv() * rotations[1:]).as_rotvec()

    def __call__(self, times):
        t = as_device(times).astype(self.times.dtype)
        if t.ndim > 1:
            raise ValueError("`times` must be at most 1-dimensional.")
        single = t.ndim == 0
        t = gp.atleast_1d(t)
        ind = gp.searchsorted(self.times, t) - 1
        ind = gp.where(t == self.times[0], 0, ind)
        if bool(gp.any((ind < 0) | (ind > len(self.rotations) - 1))):
            raise ValueError("Interpolation times must be within the range "
                             f"[{float(self.times[0])}, {float(self.times[-1])}], both "
                             "inclusive.")
        alpha = (t - self.times[ind]) / self.timedelta[ind]
        result = self.rotations[ind] * Rotation.from_rotvec(self.rotvecs[ind] * alpha[:, None])
        return result[0] if single else result
