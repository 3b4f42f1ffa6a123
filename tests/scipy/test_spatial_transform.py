"""gpunp.scipy.spatial.transform's Rotation and Slerp against SciPy's:
every representation both ways (every Euler sequence, extrinsic and
intrinsic, gimbal lock included), batches of shape (), (n,) and (2, 3),
composition, inverse, application, magnitude, mean, approx_equal, the
container methods, random with a seed, and the errors."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from scipy.spatial.transform import Rotation as R, Slerp as S

import gpunp as gp
from gpunp.scipy.spatial.transform import Rotation as G, Slerp as GS

RNG = np.random.default_rng(7)
Q = RNG.standard_normal((8, 4))
Q[1] = [0, 0, 0, -1]  # w < 0 and the identity's antipode
Q[2] = [0, -1, 0, 0]  # w = 0: the canonical sign from x, then y
Q[3] = [1e-5, 0, 0, 1]  # a tiny angle: the rotation vector's series
Q[4] = [0, 0, 1, 1e-9]  # an angle of nearly pi
SEQS = ["".join(p) for p in itertools.permutations("xyz")] + \
    ["".join((a, b, a)) for a, b in itertools.permutations("xyz", 2)]
SEQS += [s.upper() for s in SEQS]


def outcome(f, *a, **k):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return f(*a, **k)
    except Exception as e:  # noqa: BLE001 - the kind of error is compared
        return e


def same(g, r, tol=1e-12):
    if isinstance(r, Exception):
        assert isinstance(g, type(r)), (r, g)
        return
    assert not isinstance(g, Exception), g
    g = gp.asnumpy(gp.asarray(g))
    r = np.asarray(r)
    assert g.shape == r.shape and g.dtype == r.dtype, (g.shape, r.shape, g.dtype, r.dtype)
    np.testing.assert_allclose(g, r, rtol=tol, atol=tol)


def same_rotation(g, r, tol=1e-12):
    assert isinstance(g, G), g
    assert g.single == r.single and g.shape == r.shape
    same(g.as_quat(canonical=True), r.as_quat(canonical=True), tol)


def pair(q):
    return G.from_quat(gp.asarray(q)), R.from_quat(q)


@pytest.mark.parametrize("shape", [(), (8,), (2, 4)])
def test_quaternions_matrices_rotvecs_mrps(shape):
    q = Q.reshape(shape + (4,)) if shape else Q[0]
    g, r = pair(q)
    assert g.shape == r.shape and g.single == r.single
    for canonical in (False, True):
        for first in (False, True):
            same(g.as_quat(canonical, scalar_first=first),
                 r.as_quat(canonical, scalar_first=first))
    same_rotation(G.from_quat(gp.asarray(q), scalar_first=True), R.from_quat(q, scalar_first=True))
    same(g.as_matrix(), r.as_matrix())
    same_rotation(G.from_matrix(g.as_matrix()), R.from_matrix(r.as_matrix()))
    for degrees in (False, True):
        same(g.as_rotvec(degrees), r.as_rotvec(degrees), 1e-10)
        same_rotation(G.from_rotvec(gp.asarray(r.as_rotvec(degrees)), degrees),
                      R.from_rotvec(r.as_rotvec(degrees), degrees))
    same(g.as_mrp(), r.as_mrp(), 1e-9)
    same_rotation(G.from_mrp(gp.asarray(r.as_mrp())), R.from_mrp(r.as_mrp()), 1e-9)
    same(g.magnitude(), r.magnitude())
    same_rotation(g.inv(), r.inv())


def test_from_matrix_orthogonalises_and_checks():
    m = R.from_quat(Q).as_matrix() + RNG.standard_normal((8, 3, 3)) * 1e-3
    same_rotation(G.from_matrix(gp.asarray(m)), R.from_matrix(m), 1e-10)
    same_rotation(G.from_matrix(gp.asarray(m[0])), R.from_matrix(m[0]), 1e-10)
    for bad in (-np.eye(3), np.zeros((3, 3)), np.ones((2, 3)), np.ones(3),
                np.stack([np.eye(3), np.diag([1.0, 1.0, -1.0])])):
        same(outcome(G.from_matrix, gp.asarray(bad)), outcome(R.from_matrix, bad))


@pytest.mark.parametrize("seq", SEQS)
def test_euler_every_sequence(seq):
    g, r = pair(Q)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for degrees in (False, True):
            same(g.as_euler(seq, degrees), r.as_euler(seq, degrees), 1e-9)
        angles = r.as_euler(seq)
    same_rotation(G.from_euler(seq, gp.asarray(angles)), R.from_euler(seq, angles))
    same_rotation(G.from_euler(seq, gp.asarray(angles[0]) * 57.29577951308232, degrees=True),
                  R.from_euler(seq, angles[0] * 57.29577951308232, degrees=True), 1e-10)


@pytest.mark.parametrize("seq", ["xyz", "ZYX", "zxz", "XZX"])
def test_euler_gimbal_lock(seq):
    symmetric = seq[0] == seq[2]
    for middle in ((0.0, np.pi) if symmetric else (np.pi / 2, -np.pi / 2)):
        angles = np.array([0.3, middle, 0.2])
        r = R.from_euler(seq, angles)
        g = G.from_euler(seq, gp.asarray(angles))
        with pytest.warns(UserWarning, match="Gimbal lock"):
            ge = gp.asnumpy(g.as_euler(seq))
        with pytest.warns(UserWarning, match="Gimbal lock"):
            re_ = r.as_euler(seq)
        # equal as angles (a middle angle of exactly pi may round to either side of the cut)
        diff = (ge - re_ + np.pi) % (2 * np.pi) - np.pi
        np.testing.assert_allclose(diff, 0, atol=1e-7)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            g.as_euler(seq, suppress_warnings=True)


def test_euler_shapes_and_errors():
    for seq, a in (("x", 0.5), ("x", [[0.5], [1.0]]), ("xy", [0.5, 1.0]),
                   ("XYZ", np.ones((2, 3, 3))), ("x", [0.5, 1.0]), ("xyzx", [1, 2, 3, 4]),
                   ("xxz", [1, 2, 3]), ("xYz", [1, 2, 3]), ("abc", [1, 2, 3]), ("", [])):
        r = outcome(R.from_euler, seq, a)
        g = outcome(G.from_euler, seq, gp.asarray(a))
        if isinstance(r, Exception):
            same(g, r)
        else:
            same_rotation(g, r)
    g, r = pair(Q)
    for seq in ("xy", "xyzz", "xxy", "xYz"):
        same(outcome(g.as_euler, seq), outcome(r.as_euler, seq))


def test_quaternion_errors():
    for bad in (np.zeros(4), np.ones((2, 3)), np.array([[1.0, 0, 0, 0], [0, 0, 0, 0]])):
        same(outcome(G.from_quat, gp.asarray(bad)), outcome(R.from_quat, bad))
    for bad in (np.ones(4), np.ones((2, 2))):
        same(outcome(G.from_rotvec, gp.asarray(bad)), outcome(R.from_rotvec, bad))
        same(outcome(G.from_mrp, gp.asarray(bad)), outcome(R.from_mrp, bad))


def test_apply_compose_and_broadcasting():
    g, r = pair(Q)
    v = RNG.standard_normal((8, 3))
    for inverse in (False, True):
        same(g.apply(gp.asarray(v), inverse), r.apply(v, inverse))
        same(g.apply(gp.asarray(v[0]), inverse), r.apply(v[0], inverse))
        same(g[0].apply(gp.asarray(v), inverse), r[0].apply(v, inverse))
        same(g[0].apply(gp.asarray(v[0]), inverse), r[0].apply(v[0], inverse))
    same(outcome(g.apply, gp.asarray(v[:3])), outcome(r.apply, v[:3]))
    same(outcome(g.apply, gp.ones((8, 2))), outcome(r.apply, np.ones((8, 2))))
    same_rotation(g * g[3], r * r[3])
    same_rotation(g[3] * g, r[3] * r)
    same_rotation(g[3] * g[5], r[3] * r[5])
    same_rotation(g * g.inv(), r * r.inv())
    same(outcome(lambda: g * g[:3]), outcome(lambda: r * r[:3]))
    assert g.__mul__(2) is NotImplemented


def test_mean_and_approx_equal():
    g, r = pair(Q)
    same_rotation(g.mean(), r.mean(), 1e-10)
    w = RNG.random(8)
    same_rotation(g.mean(gp.asarray(w)), r.mean(w), 1e-10)
    g2, r2 = pair(Q.reshape(2, 4, 4))
    for axis in (None, 0, 1, -1, (0, 1)):
        same_rotation(g2.mean(axis=axis), r2.mean(axis=axis), 1e-10)
    for bad in ({"weights": -w}, {"weights": w[:3]}, {"axis": 2}, {"axis": [0]}):
        kw = {k: gp.asarray(v) if isinstance(v, np.ndarray) else v for k, v in bad.items()}
        same(outcome(g.mean, **kw), outcome(r.mean, **bad))
    same(outcome(G.identity(0).mean), outcome(R.identity(0).mean))
    same_rotation(g[2].mean(), r[2].mean())
    near = R.from_rotvec(r.as_rotvec() + 1e-9)
    gnear = G.from_quat(gp.asarray(near.as_quat()))
    for kw in ({}, {"atol": 1e-12}, {"atol": 1e-6, "degrees": True}):
        same(g.approx_equal(gnear, **kw), r.approx_equal(near, **kw))
    same(g[0].approx_equal(gnear[0]), r[0].approx_equal(near[0]))
    same(g[0].approx_equal(gnear), r[0].approx_equal(near))
    with pytest.warns(UserWarning):
        g.approx_equal(gnear, degrees=True)
    same(outcome(g.approx_equal, gnear[:3]), outcome(r.approx_equal, near[:3]))


def test_container():
    g, r = pair(Q)
    assert len(g) == len(r) == 8 and not g.single and g[0].single
    for idx in (2, -1, slice(1, 5), slice(None, None, -2)):
        same_rotation(g[idx], r[idx])
    same_rotation(g[gp.asarray([0, 3, 3])], r[np.array([0, 3, 3])])
    same_rotation(g[gp.asarray(Q[:, 0] > 0)], r[Q[:, 0] > 0])
    for f in (len, lambda x: x[0], lambda x: next(iter(x))):
        same(outcome(f, g[0]), outcome(f, r[0]))
    assert [x.single for x in g] == [True] * 8
    same_rotation(list(g)[4], list(r)[4])
    g3, r3 = pair(Q.copy())
    g3[1:3] = G.identity(2)
    r3[1:3] = R.identity(2)
    same_rotation(g3, r3)
    same_rotation(G.concatenate([g[0], g[2:5], g]), R.concatenate([r[0], r[2:5], r]))
    same_rotation(G.concatenate(g), R.concatenate(r))
    same(outcome(G.concatenate, [g, 1]), outcome(R.concatenate, [r, 1]))
    for args, kw in (((), {}), ((3,), {}), ((), {"shape": (2, 3)}), ((2,), {"shape": 2})):
        same_rotation(outcome(G.identity, *args, **kw), R.identity(*args, **kw)) \
            if not isinstance(outcome(R.identity, *args, **kw), Exception) else \
            same(outcome(G.identity, *args, **kw), outcome(R.identity, *args, **kw))
    for args in ((), (5,)):
        same_rotation(G.random(*args, rng=np.random.default_rng(3)),
                      R.random(*args, rng=np.random.default_rng(3)))
    assert "Rotation" in repr(g[0])


def test_float32_stays_float32():
    g = G.from_quat(gp.asarray(Q.astype(np.float32)))
    assert g.as_quat().dtype == np.float32 and g.as_matrix().dtype == np.float32
    same(g.as_matrix(), R.from_quat(Q.astype(np.float32)).as_matrix().astype(np.float32), 1e-5)


def test_slerp():
    g, r = pair(Q[:6])
    t = np.array([0.0, 1.0, 2.5, 3.0, 4.0, 5.5])
    gs, rs = GS(gp.asarray(t), g), S(t, r)
    tt = np.concatenate([np.linspace(0, 5.5, 12), t])
    same_rotation(gs(gp.asarray(tt)), rs(tt), 1e-10)
    same_rotation(gs(2.0), rs(2.0), 1e-10)
    for bad in (-0.1, [1.0, 6.0], np.ones((2, 2))):
        same(outcome(gs, gp.asarray(bad)), outcome(rs, bad))
    for times, rots in ((t[:3], r), (t[::-1], r), (t.reshape(2, 3), r), (t[:1], r[:1]),
                        (t[:1], r[0]), (t, "no")):
        grots = rots if isinstance(rots, str) else G.from_quat(gp.asarray(rots.as_quat()))
        same(outcome(GS, gp.asarray(times), grots), outcome(S, times, rots))


def test_powers():
    g, r = pair(Q[:5])
    for n in (0, 1, -1, 2.5, -0.3, 0.5, 3):
        same_rotation(g ** n, r ** n, 1e-10)
        same_rotation(g[1] ** n, r[1] ** n, 1e-10)
    same_rotation(g ** gp.asarray([2.0]), r ** np.array([2.0]), 1e-10)
    same(outcome(lambda: g ** gp.asarray([1.0, 2.0])), outcome(lambda: r ** np.array([1.0, 2.0])))
    same(outcome(pow, g, 2, 3), outcome(pow, r, 2, 3))


def test_align_vectors():
    rng = np.random.default_rng(0)  # seed 0 gives half turns (a[:2] against -2 a[:2])
    a, b, w = rng.standard_normal((6, 3)), rng.standard_normal((6, 3)), rng.random(6)
    cases = [(a, b), (a, b, w), (a[0], b[0]), (a[:1], b[:1]), (a, b, np.r_[np.inf, w[1:]]),
             (a[:2], -2 * a[:2]), (a[:1], -a[:1]), (a[:3], a[:3])]
    for args in cases:
        g = G.align_vectors(*[gp.asarray(x) for x in args])
        r = R.align_vectors(*args)
        # matrices, not quaternions: half turns (w ~ 1e-17) have no canonical sign
        same(g[0].as_matrix(), r[0].as_matrix(), 1e-9)
        # rssd is the square root of a sum that cancels to rounding for an
        # exact fit: 2 sqrt(eps) absolute (SciPy's 3.0e-8 where a GPU's FMAs give 0)
        rssd = gp.asnumpy(gp.asarray(g[1]))
        assert rssd.shape == () and rssd.dtype == np.float64
        np.testing.assert_allclose(rssd, np.float64(r[1]), rtol=1e-9,
                                   atol=3e-8 * (1 + np.abs(args[1]).sum()))
    g = G.align_vectors(gp.asarray(a), gp.asarray(b), return_sensitivity=True)
    r = R.align_vectors(a, b, return_sensitivity=True)
    same(g[2], r[2], 1e-9)
    for args, kw in (((a, b[:3]), {}), ((a[:, :2], b[:, :2]), {}), ((a, b, -w), {}),
                     ((a, b, w[:3]), {}), ((a, b, np.full(6, np.inf)), {}),
                     ((a[:1], b[:1]), {"return_sensitivity": True}),
                     ((np.zeros(3), b[0]), {}), ((a[None], b[None]), {})):
        same(outcome(G.align_vectors, *[gp.asarray(x) for x in args], **kw),
             outcome(R.align_vectors, *args, **kw))


@pytest.mark.parametrize("n", [2, 3, 6])
def test_rotation_spline(n):
    from scipy.spatial.transform import RotationSpline as RS
    from gpunp.scipy.spatial.transform import RotationSpline as GRS
    q = Q[:n].copy()
    if n == 3:  # nearly equal neighbours: the series of the coefficient functions
        q = np.array([[0, 0, 0, 1.0], [1e-6, 0, 0, 1], [2e-6, 1e-6, 0, 1]])
    t = np.array([0.0, 1.0, 2.5, 3.0, 4.5, 5.0])[:n]
    g, r = pair(q)
    gs, rs = GRS(gp.asarray(t), g), RS(t, r)
    tt = np.concatenate([np.linspace(-0.5, t[-1] + 0.5, 13), t])
    same_rotation(gs(gp.asarray(tt)), rs(tt), 1e-10)
    same(gs(gp.asarray(tt), 1), rs(tt, 1), 1e-9)
    same(gs(gp.asarray(tt), 2), rs(tt, 2), 1e-8)
    same_rotation(gs(1.25), rs(1.25), 1e-10)
    same(gs(1.25, 2), rs(1.25, 2), 1e-8)
    for bad in ({"times": np.ones((2, 2))}, {"times": 1.0, "order": 3}):
        gbad = dict(bad, times=gp.asarray(bad["times"]))
        same(outcome(gs, **gbad), outcome(rs, **bad))


def test_rotation_spline_errors():
    from scipy.spatial.transform import RotationSpline as RS
    from gpunp.scipy.spatial.transform import RotationSpline as GRS
    g, r = pair(Q[:4])
    t = np.arange(4.0)
    for times, gr, rr in ((t, g[0], r[0]), (t[:1], g[:1], r[:1]), (t[:3], g, r),
                          (t[::-1], g, r), (t.reshape(2, 2), g, r),
                          (np.zeros((2, 2)), G.from_quat(gp.asarray(Q[:4].reshape(2, 2, 4))),
                           R.from_quat(Q[:4].reshape(2, 2, 4)))):
        same(outcome(GRS, gp.asarray(times), gr), outcome(RS, times, rr))


C, S_ = np.cos(0.3), np.sin(0.3)
DAVENPORT_AXES = [np.eye(3), np.eye(3)[[2, 0, 2]],
                  np.array([[1.0, 0, 0], [0, C, S_], [1, 0, 0]]),
                  np.array([[0.0, 0, 1], [1, 0, 0], [0, C, S_]]),
                  np.array([[C, S_, 0], [0, 0, 2.0], [1, 0, 0]])]  # an unnormalised axis


@pytest.mark.parametrize("k", range(len(DAVENPORT_AXES)))
@pytest.mark.parametrize("order", ["e", "intrinsic"])
def test_davenport(k, order):
    ax = DAVENPORT_AXES[k]
    g, r = pair(Q)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for degrees in (False, True):
            same(g.as_davenport(gp.asarray(ax), order, degrees),
                 r.as_davenport(ax, order, degrees), 1e-9)
        angles = r.as_davenport(ax, order)
    same_rotation(G.from_davenport(gp.asarray(ax), order, gp.asarray(angles)),
                  R.from_davenport(ax, order, angles), 1e-10)
    same_rotation(G.from_davenport(gp.asarray(ax[:2]), order, gp.asarray(angles[0, :2])),
                  R.from_davenport(ax[:2], order, angles[0, :2]), 1e-10)


def test_davenport_errors():
    g, r = pair(Q[:3])
    bad_axes = (np.ones((3, 3)), np.eye(3)[:2], np.ones((3, 2)), np.ones((4, 3)))
    for ax in bad_axes:
        same(outcome(g.as_davenport, gp.asarray(ax), "e"), outcome(r.as_davenport, ax, "e"))
        same(outcome(G.from_davenport, gp.asarray(ax), "e", gp.zeros(3)),
             outcome(R.from_davenport, ax, "e", np.zeros(3)))
    same(outcome(g.as_davenport, gp.eye(3), "x"), outcome(r.as_davenport, np.eye(3), "x"))
    same(outcome(G.from_davenport, gp.eye(3), "e", gp.zeros(2)),
         outcome(R.from_davenport, np.eye(3), "e", np.zeros(2)))
    same_rotation(G.from_davenport(gp.asarray([0, 0, 1.0]), "e", 0.5),
                  R.from_davenport(np.array([0, 0, 1.0]), "e", 0.5))


def _as_set(quats):
    """The rotations as a sorted list of quaternions, each signed so its
    first entry (w, x, y, z) away from 0 is positive (rounding makes a
    half turn's w +-1e-17, which SciPy's canonical form would follow)."""
    q = np.round(np.asarray(quats)[:, [3, 0, 1, 2]], 9) + 0.0
    first = q[np.arange(len(q)), np.argmax(q != 0, axis=1)]
    return sorted(map(tuple, np.where(first[:, None] < 0, -q, q) + 0.0))


@pytest.mark.parametrize("group", ["I", "O", "T", "C1", "C6", "D1", "D5"])
def test_create_group(group):
    for axis in ("Z", "x", "y"):
        g, r = G.create_group(group, axis), R.create_group(group, axis)
        assert len(g) == len(r)
        # the same rotations (SciPy's order where SciPy's tables are not
        # the natural enumeration: I and O)
        assert _as_set(gp.asnumpy(g.as_quat())) == _as_set(r.as_quat())
        if group not in ("I", "O"):
            same_rotation(g, r)
    # closed under composition: a group
    g = G.create_group(group)
    pq = gp.asnumpy((G.from_quat(gp.repeat(g.as_quat(), len(g), axis=0)) *
                     G.from_quat(gp.tile(g.as_quat(), (len(g), 1)))).as_quat())
    assert set(_as_set(pq)) == set(_as_set(gp.asnumpy(g.as_quat())))


def test_create_group_errors():
    for args in ((3,), ("Q",), ("C0",), ("Cx",), ("D",), ("C2", "w")):
        same(outcome(G.create_group, *args), outcome(R.create_group, *args))


@pytest.mark.parametrize("groups", [("T", None), (None, "D3"), ("C4", "T"), ("I", "O")])
def test_reduce(groups):
    q = np.random.default_rng(11).standard_normal((7, 4))
    g, r = pair(q)
    gl, gr = (None if x is None else G.create_group(x) for x in groups)
    rl, rr = (None if x is None else R.create_group(x) for x in groups)
    gred, gli, gri = g.reduce(gl, gr, return_indices=True)
    rred, rli, rri = r.reduce(rl, rr, return_indices=True)
    # the reduced angle is SciPy's whatever the groups' order
    same(gred.magnitude(), rred.magnitude(), 1e-10)
    # the same choice where the groups are in SciPy's order and only one side
    # reduces: with both, h p h^-1 ties with p for every h in both groups,
    # and rounding decides which of the tied pairs comes first
    if None in groups and "I" not in groups and "O" not in groups:
        same_rotation(gred, rred, 1e-10)
        for gi, ri in ((gli, rli), (gri, rri)):
            assert (gi is None) == (ri is None)
            if gi is not None:
                assert gp.asnumpy(gi).tolist() == np.asarray(ri).tolist()
        same_rotation(g[0].reduce(gl, gr), r[0].reduce(rl, rr), 1e-10)
    same(g[0].reduce(gl, gr).magnitude(), r[0].reduce(rl, rr).magnitude(), 1e-10)
    same_rotation(g.reduce(), r.reduce())
