"""gpunp.scipy.spatial.transform.RigidTransform against SciPy's: every
representation both ways (matrices, components, exponential coordinates,
dual quaternions), batches of shape (), (n,) and (2, 3), composition,
inverse, application, powers, the container methods and the errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.spatial.transform import RigidTransform as T, Rotation as R

import gpunp as gp
from gpunp.scipy.spatial.transform import RigidTransform as GT, Rotation as G

RNG = np.random.default_rng(13)
Q = RNG.standard_normal((6, 4))
Q[1] = [0, 0, 0, 1]  # no rotation: the series of the exponential coordinates
Q[2] = [1e-5, 0, 0, 1]
TR = RNG.standard_normal((6, 3))


def outcome(f, *a, **k):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return f(*a, **k)
    except Exception as e:  # noqa: BLE001 - the kind of error is compared
        return e


def same(g, r, tol=1e-10):
    if isinstance(r, Exception):
        assert isinstance(g, type(r)), (r, g)
        return
    assert not isinstance(g, Exception), g
    g, r = gp.asnumpy(gp.asarray(g)), np.asarray(r)
    assert g.shape == r.shape and g.dtype == r.dtype, (g.shape, r.shape, g.dtype, r.dtype)
    np.testing.assert_allclose(g, r, rtol=tol, atol=tol)


def same_transform(g, r, tol=1e-10):
    assert isinstance(g, GT), g
    assert g.single == r.single and g.shape == r.shape
    same(g.as_matrix(), r.as_matrix(), tol)


@pytest.mark.parametrize("shape", [(), (6,), (2, 3)])
def test_representations(shape):
    q = Q[0] if shape == () else Q.reshape(shape + (4,))
    t = TR[0] if shape == () else TR.reshape(shape + (3,))
    g = GT.from_components(gp.asarray(t), G.from_quat(gp.asarray(q)))
    r = T.from_components(t, R.from_quat(q))
    same_transform(g, r)
    same_transform(GT.from_matrix(gp.asarray(r.as_matrix())), T.from_matrix(r.as_matrix()))
    gt, grot = g.as_components()
    rt, rrot = r.as_components()
    same(gt, rt)
    same(grot.as_matrix(), rrot.as_matrix())
    same(g.as_exp_coords(), r.as_exp_coords())
    same_transform(GT.from_exp_coords(gp.asarray(r.as_exp_coords())),
                   T.from_exp_coords(r.as_exp_coords()))
    for first in (False, True):
        dq = r.as_dual_quat(scalar_first=first)
        # the same transform (a dual quaternion's sign is free)
        same_transform(GT.from_dual_quat(g.as_dual_quat(scalar_first=first), scalar_first=first),
                       r)
        same_transform(GT.from_dual_quat(gp.asarray(dq * 2.0 + 0.1), scalar_first=first),
                       T.from_dual_quat(dq * 2.0 + 0.1, scalar_first=first))
    same_transform(GT.from_rotation(G.from_quat(gp.asarray(q))),
                   T.from_rotation(R.from_quat(q)))
    same_transform(GT.from_translation(gp.asarray(t)), T.from_translation(t))


def test_from_matrix_orthogonalises_and_checks():
    m = T.from_components(TR, R.from_quat(Q)).as_matrix()
    noisy = m.copy()
    noisy[:, :3, :3] += RNG.standard_normal((6, 3, 3)) * 1e-3
    same_transform(GT.from_matrix(gp.asarray(noisy)), T.from_matrix(noisy))
    bad_row = m.copy()
    bad_row[2, 3, 0] = 1e-3
    for bad in (bad_row, bad_row[2], np.ones((3, 3)), np.diag([1.0, 1.0, -1.0, 1.0])):
        same(outcome(GT.from_matrix, gp.asarray(bad)), outcome(T.from_matrix, bad))
    zero = np.zeros(8)
    same_transform(GT.from_dual_quat(gp.asarray(zero)), T.from_dual_quat(zero))
    for f in ("from_translation", "from_exp_coords", "from_dual_quat"):
        same(outcome(getattr(GT, f), gp.ones(5)), outcome(getattr(T, f), np.ones(5)))
    same(outcome(GT.from_rotation, gp.eye(3)), outcome(T.from_rotation, np.eye(3)))


def test_operations():
    g = GT.from_components(gp.asarray(TR), G.from_quat(gp.asarray(Q)))
    r = T.from_components(TR, R.from_quat(Q))
    v = RNG.standard_normal((6, 3))
    for inverse in (False, True):
        same(g.apply(gp.asarray(v), inverse), r.apply(v, inverse))
        same(g[0].apply(gp.asarray(v), inverse), r[0].apply(v, inverse))
        same(g.apply(gp.asarray(v[0]), inverse), r.apply(v[0], inverse))
    same(outcome(g.apply, gp.asarray(v[:4])), outcome(r.apply, v[:4]))
    same(outcome(g.apply, gp.ones(2)), outcome(r.apply, np.ones(2)))
    same_transform(g * g.inv(), r * r.inv())
    same_transform(g[1] * g, r[1] * r)
    same(outcome(lambda: g * g[:2]), outcome(lambda: r * r[:2]))
    assert g.__mul__(3) is NotImplemented
    for n in (0, 1, -1, 2, 0.5, -1.5):
        same_transform(g ** n, r ** n, 1e-9)
        same_transform(g[0] ** n, r[0] ** n, 1e-9)
    same(outcome(lambda: g ** gp.ones(2)), outcome(lambda: r ** np.ones(2)))


def test_container():
    g = GT.from_components(gp.asarray(TR), G.from_quat(gp.asarray(Q)))
    r = T.from_components(TR, R.from_quat(Q))
    assert len(g) == len(r) and not g.single and g[0].single
    for idx in (1, -1, slice(1, 4)):
        same_transform(g[idx], r[idx])
    same_transform(g[gp.asarray([0, 2, 2])], r[np.array([0, 2, 2])])
    for f in (len, lambda x: x[0], lambda x: next(iter(x))):
        same(outcome(f, g[0]), outcome(f, r[0]))
    same_transform(list(g)[3], list(r)[3])
    g2 = GT.from_matrix(g.as_matrix())
    r2 = T.from_matrix(r.as_matrix())
    g2[1:3] = GT.identity(2)
    r2[1:3] = T.identity(2)
    same_transform(g2, r2)
    same_transform(GT.concatenate([g[0], g[2:4], g]), T.concatenate([r[0], r[2:4], r]))
    same_transform(GT.concatenate(g), T.concatenate(r))
    same(outcome(GT.concatenate, [g, 1]), outcome(T.concatenate, [r, 1]))
    for args, kw in (((), {}), ((3,), {}), ((), {"shape": (2, 3)}), ((), {"shape": 4}),
                     ((2,), {"shape": 2}), ((), {"shape": [2]})):
        rr = outcome(T.identity, *args, **kw)
        gg = outcome(GT.identity, *args, **kw)
        if isinstance(rr, Exception):
            same(gg, rr)
        else:
            same_transform(gg, rr)
    assert "RigidTransform" in repr(g[0])


def test_mean():
    g = GT.from_components(gp.asarray(TR), G.from_quat(gp.asarray(Q)))
    r = T.from_components(TR, R.from_quat(Q))
    w = RNG.random(6)
    same_transform(g.mean(), r.mean())
    same_transform(g.mean(gp.asarray(w)), r.mean(w))
    same_transform(g[0].mean(), r[0].mean())
    g2 = GT.from_matrix(g.as_matrix().reshape(2, 3, 4, 4))
    r2 = T.from_matrix(r.as_matrix().reshape(2, 3, 4, 4))
    for axis in (None, 0, 1, -1, (0, 1)):
        same_transform(g2.mean(axis=axis), r2.mean(axis=axis))
    for kw in ({"weights": -w}, {"weights": w[:3]}, {"axis": 1}, {"axis": [0]}):
        gkw = {k: gp.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
        same(outcome(g.mean, **gkw), outcome(r.mean, **kw))
    same(outcome(GT.identity(0).mean), outcome(T.identity(0).mean))
