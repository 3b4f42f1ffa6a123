"""gpunp.scipy.signal's linear systems against SciPy's: the class family
(which class each constructor makes, the forms' attributes, conversions,
state-space arithmetic), simulation (lsim, dlsim) of SISO and MIMO
systems, impulse and step responses, frequency responses and Bode plots,
every cont2discrete method, and the errors of bad input."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.signal as ss

import gpunp as gp
import gpunp.scipy.signal as gs
from property.signal_compare import outcome, same

NUM, DEN = [1.0, 3.0], [1.0, 2.0, 5.0]
RNG = np.random.default_rng(7)
A = np.array([[-1.0, 2.0, 0.0], [-3.0, -0.5, 1.0], [0.0, -1.0, -2.0]])
B2 = RNG.standard_normal((3, 2))
C2 = RNG.standard_normal((2, 3))
D2 = RNG.standard_normal((2, 2))


def sys_same(g, r):
    """The same class name, dt and matrices or polynomials."""
    assert type(g).__name__ == type(r).__name__
    assert g.dt == r.dt
    assert (g.inputs, g.outputs) == (r.inputs, r.outputs)
    names = {"StateSpace": "ABCD", "TransferFunction": ["num", "den"],
             "ZerosPolesGain": ["zeros", "poles", "gain"]}
    for base, attrs in names.items():
        if isinstance(r, getattr(ss, base)):
            for a in attrs:
                same(getattr(g, a), getattr(r, a), path=a)


def test_constructors_and_conversions():
    for args in [(NUM, DEN), ([-3.0], [-1 + 2j, -1 - 2j], 1.0), (A, B2, C2, D2)]:
        r, g = ss.lti(*args), gs.lti(*args)
        sys_same(g, r)
        for conv in ("to_tf", "to_zpk", "to_ss"):
            if conv == "to_tf" or conv == "to_zpk":
                if len(args) == 4:
                    continue  # MIMO: SciPy's conversions take one input
            sys_same(getattr(g, conv)(), getattr(r, conv)())
        rd, gd = ss.dlti(*args, dt=0.1), gs.dlti(*args, dt=0.1)
        sys_same(gd, rd)
        sys_same(gs.dlti(*args), ss.dlti(*args))  # dt True
    r = ss.StateSpace(A, B2[:, :1], C2[:1], D2[:1, :1])
    g = gs.StateSpace(A, B2[:, :1], C2[:1], D2[:1, :1])
    sys_same(g.to_tf(), r.to_tf())
    sys_same(g.to_zpk(), r.to_zpk())
    same(g.poles, r.poles)
    same(g.zeros, r.zeros)
    sys_same(gs.TransferFunction(g), ss.TransferFunction(r))
    sys_same(gs.ZerosPolesGain(g), ss.ZerosPolesGain(r))
    sys_same(gs.StateSpace(gs.lti(NUM, DEN)), ss.StateSpace(ss.lti(NUM, DEN)))
    sys_same(gs.TransferFunction(NUM, DEN, dt=0.5), ss.TransferFunction(NUM, DEN, dt=0.5))
    sys_same(gs.ZerosPolesGain([1], [0.5], 2, dt=0.5), ss.ZerosPolesGain([1], [0.5], 2, dt=0.5))
    assert isinstance(gs.lti(NUM, DEN), gs.lti) and isinstance(gs.lti(NUM, DEN),
                                                               gs.TransferFunction)
    for f, args in [(gs.lti, (1,)), (gs.dlti, (1, 2, 3, 4, 5)),
                    (gs.TransferFunction, ([1, 2], [0, 0]))]:
        same(outcome(f, *args), outcome(getattr(ss, f.__name__), *args))


def test_state_space_arithmetic():
    r1, r2 = ss.StateSpace(A, B2, C2, D2), ss.StateSpace(-np.eye(2), np.eye(2), np.eye(2),
                                                         np.zeros((2, 2)))
    g1, g2 = gs.StateSpace(A, B2, C2, D2), gs.StateSpace(-np.eye(2), np.eye(2), np.eye(2),
                                                         np.zeros((2, 2)))
    M = np.array([[1.0, 2.0], [3.0, 4.0]])
    for op in (lambda a, b: a * b, lambda a, b: a + b, lambda a, b: a - b):
        sys_same(op(g1, g2), op(r1, r2))
    sys_same(g1 * M, r1 * M)
    sys_same(2.5 * g1, 2.5 * r1)
    sys_same(g1 / 2, r1 / 2)
    sys_same(-g1, -r1)
    sys_same(g1 + M, r1 + M)
    sys_same(1 - gs.StateSpace(A, B2[:, :1], C2[:1], 0.5), 1 - ss.StateSpace(A, B2[:, :1],
                                                                             C2[:1], 0.5))
    with pytest.raises(ValueError):
        g1 + np.ones((3, 3))
    with pytest.raises(ValueError):
        g1 / M
    with pytest.raises(TypeError):
        g1 + gs.StateSpace(A, B2, C2, D2, dt=0.1)
    with pytest.raises(TypeError):
        gs.StateSpace(A, B2, C2, D2, dt=0.1) * gs.StateSpace(A, B2, C2, D2, dt=0.2)


@pytest.mark.parametrize("interp", [True, False])
def test_lsim_siso_and_mimo(interp):
    T = np.linspace(0, 5, 301)
    U = np.sin(3 * T)
    same(gs.lsim((NUM, DEN), gp.asarray(U), T, interp=interp),
         ss.lsim((NUM, DEN), U, T, interp=interp))
    # a late start and an initial state; several inputs and outputs
    T = 0.5 + np.arange(200) * 0.01
    U = RNG.standard_normal((200, 2))
    same(gs.lsim((A, B2, C2, D2), gp.asarray(U), T, X0=[1, 2, 3], interp=interp),
         ss.lsim((A, B2, C2, D2), U, T, X0=[1, 2, 3], interp=interp))
    same(gs.lti(A, B2, C2, D2).output(gp.asarray(U), T),
         ss.lti(A, B2, C2, D2).output(U, T))


def test_lsim_long_order_six():
    # many blocks of the scan, and a carry over carries
    b, a = ss.butter(6, 2.0, analog=True)
    T = np.linspace(0, 200, 20001)
    U = RNG.standard_normal(T.size)
    same(gs.lsim((b, a), gp.asarray(U), T), ss.lsim((b, a), U, T))


def test_lsim_no_input_one_step_and_errors():
    T = np.linspace(0, 3, 50)
    for U in (None, 0.0, np.zeros(50)):
        same(gs.lsim((A, B2, C2, D2), U, T, X0=[1, 0, -1]),
             ss.lsim((A, B2, C2, D2), U, T, X0=[1, 0, -1]))
    same(gs.lsim((NUM, DEN), np.array([1.0]), np.array([0.0]), X0=[1, 1]),
         ss.lsim((NUM, DEN), np.array([1.0]), np.array([0.0]), X0=[1, 1]))
    bad = [((NUM, DEN), np.ones(5), np.ones((5, 1))), ((NUM, DEN), np.ones(5), np.arange(5) - 1.0),
           ((NUM, DEN), np.ones(5), np.array([0, 1, 2, 4, 5.0])),
           ((NUM, DEN), np.ones(4), np.arange(5.0)),
           ((A, B2, C2, D2), np.ones((5, 3)), np.arange(5.0)),
           (ss.dlti(NUM, DEN), np.ones(5), np.arange(5.0))]
    for system, U, T in bad:
        gsys = gs.dlti(NUM, DEN) if isinstance(system, ss.dlti) else system
        same(outcome(gs.lsim, gsys, U, T), outcome(ss.lsim, system, U, T))


def test_impulse_step():
    for system in [(NUM, DEN), ([1.0], [1.0, 0.4, 4.0]), ([-3.0], [-1, -2], 2.0)]:
        same(gs.impulse(system), ss.impulse(system))
        same(gs.step(system), ss.step(system))
        same(gs.step(system, X0=[1.0, 0.5], N=30), ss.step(system, X0=[1.0, 0.5], N=30))
        T = np.linspace(0, 2, 21)
        same(gs.impulse(system, T=T), ss.impulse(system, T=T))
    same(gs.lti(NUM, DEN).impulse(N=20), ss.lti(NUM, DEN).impulse(N=20))
    same(gs.lti(NUM, DEN).step(N=20), ss.lti(NUM, DEN).step(N=20))
    for f in ("impulse", "step", "freqresp", "bode"):
        same(outcome(getattr(gs, f), gs.dlti(NUM, DEN)), outcome(getattr(ss, f),
                                                                ss.dlti(NUM, DEN)))


def test_frequency_responses():
    for system in [(NUM, DEN), ([-3.0], [-1 + 2j, -1 - 2j], 1.0)]:
        same(gs.freqresp(system), ss.freqresp(system))
        same(gs.bode(system, n=50), ss.bode(system, n=50))
        w = np.logspace(-1, 2, 17)
        same(gs.freqresp(system, w=w), ss.freqresp(system, w=w))
        same(gs.lti(*system).bode(w=w), ss.lti(*system).bode(w=w))
    same(gs.freqresp(gs.lti(A, B2[:, :1], C2[:1], D2[:1, :1]), n=40),
         ss.freqresp(ss.lti(A, B2[:, :1], C2[:1], D2[:1, :1]), n=40))
    same(outcome(gs.freqresp, (A, B2, C2, D2)), outcome(ss.freqresp, (A, B2, C2, D2)))
    d = ([1.0, 0.3], [1.0, -0.5, 0.2], 0.1)
    for system in [d, ([0.5], [0.2 + 0.3j, 0.2 - 0.3j], 1.5, 0.25)]:
        same(gs.dfreqresp(system, n=64), ss.dfreqresp(system, n=64))
        same(gs.dfreqresp(system, n=64, whole=True), ss.dfreqresp(system, n=64, whole=True))
        same(gs.dbode(system, n=40), ss.dbode(system, n=40))
    same(gs.dlti(*d[:2], dt=0.1).bode(w=np.linspace(0.1, 3, 9)),
         ss.dlti(*d[:2], dt=0.1).bode(w=np.linspace(0.1, 3, 9)))
    same(gs.dlti(A * 0.3, B2[:, :1], C2[:1], D2[:1, :1]).freqresp(n=16),
         ss.dlti(A * 0.3, B2[:, :1], C2[:1], D2[:1, :1]).freqresp(n=16))
    same(outcome(gs.dfreqresp, gs.lti(*d[:2])), outcome(ss.dfreqresp, ss.lti(*d[:2])))


def test_dlsim_dimpulse_dstep():
    u = RNG.standard_normal(120)
    tf = ([1.0, 0.3], [1.0, -0.5, 0.2], 0.1)
    same(gs.dlsim(tf, gp.asarray(u)), ss.dlsim(tf, u))
    t = np.linspace(0, 11.9, 120)
    same(gs.dlsim(tf, gp.asarray(u), t=t, x0=[1.0, -1.0]), ss.dlsim(tf, u, t=t, x0=[1.0, -1.0]))
    # t off the sampling grid: the input interpolated linearly
    t2 = np.linspace(0, 5.95, 120)
    same(gs.dlsim(tf, gp.asarray(u), t=t2), ss.dlsim(tf, u, t=t2))
    mimo = (A * 0.3, B2, C2, D2, 0.5)
    U = RNG.standard_normal((300, 2))
    same(gs.dlsim(mimo, gp.asarray(U), x0=[1, 2, 3]), ss.dlsim(mimo, U, x0=[1, 2, 3]))
    same(gs.dlti(*mimo[:4], dt=0.5).output(gp.asarray(U), None),
         ss.dlti(*mimo[:4], dt=0.5).output(U, None))
    for system in [tf, mimo, ([0.5], [0.2, 0.7], 1.0, 0.2)]:
        same(gs.dimpulse(system), ss.dimpulse(system))
        same(gs.dstep(system, n=40), ss.dstep(system, n=40))
    same(gs.dlti(*tf[:2], dt=0.1).step(t=np.arange(0, 3, 0.1)),
         ss.dlti(*tf[:2], dt=0.1).step(t=np.arange(0, 3, 0.1)))
    same(gs.dlti(*tf[:2], dt=0.1).impulse(x0=[1.0, 0.0], n=25),
         ss.dlti(*tf[:2], dt=0.1).impulse(x0=[1.0, 0.0], n=25))
    for f in ("dlsim", "dimpulse", "dstep", "dbode"):
        args = (gs.lti(NUM, DEN),) + ((u,) if f == "dlsim" else ())
        rargs = (ss.lti(NUM, DEN),) + ((u,) if f == "dlsim" else ())
        same(outcome(getattr(gs, f), *args), outcome(getattr(ss, f), *rargs))


METHODS = ["zoh", "foh", "impulse", "bilinear", "tustin", "euler", "forward_diff",
           "backward_diff"]


@pytest.mark.parametrize("method", METHODS)
def test_cont2discrete(method):
    D0 = np.zeros((2, 2))  # the impulse method wants a strictly proper system
    same(gs.cont2discrete((A, B2, C2, D0), 0.1, method=method),
         ss.cont2discrete((A, B2, C2, D0), 0.1, method=method))
    same(gs.cont2discrete((NUM, DEN), 0.05, method=method),
         ss.cont2discrete((NUM, DEN), 0.05, method=method))
    same(gs.cont2discrete(([-3.0], [-1.0, -2.0], 2.0), 0.2, method=method),
         ss.cont2discrete(([-3.0], [-1.0, -2.0], 2.0), 0.2, method=method))
    sys_same(gs.lti(NUM, DEN).to_discrete(0.1, method=method),
             ss.lti(NUM, DEN).to_discrete(0.1, method=method))


def test_cont2discrete_gbt_and_errors():
    for alpha in (0.0, 0.3, 1.0):
        same(gs.cont2discrete((A, B2, C2, D2), 0.1, method="gbt", alpha=alpha),
             ss.cont2discrete((A, B2, C2, D2), 0.1, method="gbt", alpha=alpha))
    for args in [(A, B2, C2, D2), ([-3.0], [-1.0, -2.0], 2.0)]:
        sys_same(gs.cont2discrete(gs.lti(*args), 0.2, method="foh"),
                 ss.cont2discrete(ss.lti(*args), 0.2, method="foh"))
    for kw in [{"method": "gbt"}, {"method": "gbt", "alpha": 1.5}, {"method": "nope"},
               {"method": "impulse"}]:
        same(outcome(gs.cont2discrete, (A, B2, C2, D2), 0.1, **kw),
             outcome(ss.cont2discrete, (A, B2, C2, D2), 0.1, **kw))
    same(outcome(gs.cont2discrete, (1, 2, 3, 4, 5), 0.1),
         outcome(ss.cont2discrete, (1, 2, 3, 4, 5), 0.1))


PP_A = np.array([[1.380, -0.2077, 6.715, -5.676], [-0.5814, -4.290, 0, 0.6750],
                 [1.067, 4.273, -6.654, 5.893], [0.0480, 4.273, 1.343, -2.104]])
PP_B = np.array([[0, 5.679], [1.136, 1.136], [0, 0], [-3.146, 0]])


def pp_same(g, r, tol=1e-7, X=True):
    for name in ("gain_matrix", "computed_poles", "requested_poles") + (("X",) if X else ()):
        same(getattr(g, name), getattr(r, name), tol, path=name)
    if np.isnan(r.rtol):
        assert np.isnan(g.rtol) and np.isnan(g.nb_iter) and np.isnan(r.nb_iter)
    else:
        assert g.nb_iter == r.nb_iter
        np.testing.assert_allclose(g.rtol, r.rtol, rtol=1e-3, atol=1e-12)


@pytest.mark.parametrize("poles,method", [([-0.2, -0.5, -5.0566, -8.6659], "YT"),
                                          ([-0.2, -0.5, -5.0566, -8.6659], "KNV0"),
                                          ([-1 + 1j, -1 - 1j, -2 + 2j, -2 - 2j], "YT"),
                                          ([-1 + 1j, -1 - 1j, -2, -3], "YT"),
                                          ([-1, -2, -3, -4], "KNV0")])
def test_place_poles(poles, method):
    pp_same(gs.place_poles(PP_A, PP_B, poles, method=method),
            ss.place_poles(PP_A, PP_B, poles, method=method))


def test_place_poles_shapes_and_special_cases():
    rng = np.random.default_rng(5)
    for n, k in [(5, 2), (7, 3), (5, 1), (4, 4)]:
        A, B = rng.standard_normal((n, n)), rng.standard_normal((n, k))
        for P in (-np.arange(1, n + 1) * 0.7, np.r_[-1 + 2j, -1 - 2j, -np.arange(1, n - 1)]):
            pp_same(gs.place_poles(gp.asarray(A), gp.asarray(B), P), ss.place_poles(A, B, P),
                    tol=1e-6)
    # a repeated pole: its eigenvectors share one space, where the choice
    # follows LAPACK's rounding (gpunp's QR is NumPy's, SciPy's its own), so
    # the gain and poles are compared and X only for being eigenvectors
    g = gs.place_poles(PP_A, PP_B, [-1, -1, -2, -3])
    pp_same(g, ss.place_poles(PP_A, PP_B, [-1, -1, -2, -3]), X=False)
    K, X = gp.asnumpy(g.gain_matrix), gp.asnumpy(g.X)
    np.testing.assert_allclose((PP_A - PP_B @ K) @ X, X @ np.diag([-3, -2, -1, -1]), atol=1e-9)


def test_place_poles_errors():
    P = [-1, -2, -3, -4]
    for args, kw in [((PP_A, PP_B, [[-1, -2], [-3, -4]]), {}), ((PP_A[None], PP_B, P), {}),
                     ((PP_A, PP_B[None], P), {}), ((PP_A[:, :3], PP_B, P), {}),
                     ((PP_A, PP_B, P + [-5]), {}), ((PP_A, PP_B, P[:3]), {}),
                     ((PP_A, PP_B, [-1, -1, -1, -2]), {}), ((PP_A, PP_B, P), {"method": "x"}),
                     ((PP_A, PP_B, [-1 + 1j, -1 - 1j, -2, -3]), {"method": "KNV0"}),
                     ((PP_A, PP_B, P), {"maxiter": 0}), ((PP_A, PP_B, P), {"rtol": 2}),
                     ((PP_A, PP_B, [-1 + 1j, -1 + 1j, -2, -3]), {})]:
        same(outcome(gs.place_poles, *args, **kw), outcome(ss.place_poles, *args, **kw))
    with pytest.warns(UserWarning, match="Convergence was not reached"):
        gs.place_poles(PP_A, PP_B, P, maxiter=1, rtol=1e-12)
