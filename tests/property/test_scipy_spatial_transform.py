"""Property tests of gpunp.scipy.spatial.transform.Rotation against SciPy:
random batches of quaternions (axis-aligned and half-turn ones among
them) through every representation and Euler sequence, composition and
application."""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import given, settings, strategies as st
from scipy.spatial.transform import Rotation as R

import gpunp as gp
from gpunp.scipy.spatial.transform import Rotation as G

SEQS = [a + b + c for a in "xyz" for b in "xyz" for c in "xyz" if a != b and b != c]
SEQS += [s.upper() for s in SEQS]
# few distinct components, so axis-aligned rotations, half turns (w = 0)
# and gimbal lock come up often
COMPONENT = st.sampled_from([0.0, 1.0, -1.0, 0.5, -0.25, 2.0, 1e-3])


@st.composite
def quaternions(draw):
    n = draw(st.integers(1, 5))
    q = np.array(draw(st.lists(st.lists(COMPONENT, min_size=4, max_size=4), min_size=n,
                               max_size=n)))
    q[np.linalg.norm(q, axis=1) == 0] = [0.0, 0.0, 0.0, 1.0]
    return q


def close(g, r, tol=1e-9):
    g = gp.asnumpy(g)
    assert g.shape == r.shape and g.dtype == r.dtype, (g.shape, r.shape, g.dtype, r.dtype)
    np.testing.assert_allclose(g, r, rtol=tol, atol=tol)


def same_matrix(g, r):
    # matrices, not quaternions: a half turn's quaternion has no canonical
    # sign once rounding makes its w +-1e-17
    close(g.as_matrix(), r.as_matrix())


@settings(max_examples=25)
@given(quaternions(), st.sampled_from(SEQS), st.booleans())
def test_representations_round_trip_as_scipy(q, seq, degrees):
    g, r = G.from_quat(gp.asarray(q)), R.from_quat(q)
    close(g.as_matrix(), r.as_matrix())
    close(g.magnitude(), r.magnitude())
    same_matrix(G.from_matrix(gp.asarray(r.as_matrix())), r)
    same_matrix(G.from_rotvec(gp.asarray(r.as_rotvec(degrees)), degrees), r)
    same_matrix(G.from_mrp(gp.asarray(r.as_mrp())), r)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        angles = r.as_euler(seq, degrees)
        ga = gp.asnumpy(g.as_euler(seq, degrees))
    # the same rotation, and the same angles up to a turn where rounding
    # puts a middle angle of pi on the other side of the cut
    turn = 360.0 if degrees else 2 * np.pi
    np.testing.assert_allclose((ga - angles + turn / 2) % turn - turn / 2, 0, atol=1e-6)
    same_matrix(G.from_euler(seq, gp.asarray(angles), degrees), R.from_euler(seq, angles,
                                                                             degrees))


@settings(max_examples=25)
@given(quaternions(), quaternions())
def test_composition_and_application_as_scipy(p, q):
    gp_, rp = G.from_quat(gp.asarray(p)), R.from_quat(p)
    gq, rq = G.from_quat(gp.asarray(q)), R.from_quat(q)
    k = min(len(p), len(q))
    same_matrix(gp_[:k] * gq[:k], rp[:k] * rq[:k])
    same_matrix(gp_[0] * gq, rp[0] * rq)
    v = np.arange(3 * k, dtype=float).reshape(k, 3) - 2
    close(gp_[:k].apply(gp.asarray(v)), rp[:k].apply(v))
    close(gq[:k].apply(gp.asarray(v), inverse=True), rq[:k].apply(v, inverse=True))
    close(gp_[:k].approx_equal(gq[:k], atol=1e-6), rp[:k].approx_equal(rq[:k], atol=1e-6))
