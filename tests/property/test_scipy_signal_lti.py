"""Property tests of gpunp.scipy.signal's linear systems and short-time
Fourier transform against SciPy: random stable SISO and MIMO systems
simulated by lsim (interpolation on and off, initial states, late starts,
lengths 1, 2 and odd) and dlsim (sampled or interpolated inputs), every
cont2discrete method on every system form, and ShortTimeFFT in every
fft_mode, scaling, phase shift and padding over odd and even windows, hops
and signal lengths along either axis, with its inverse."""

from __future__ import annotations

import warnings

import numpy as np
import scipy.signal as ss
from hypothesis import example, given, settings, strategies as st

import gpunp as gp
import gpunp.scipy.signal as gs
from property.signal_compare import outcome, same

SETTINGS = settings(max_examples=15)


@st.composite
def systems(draw, discrete=False):
    """A random stable state space (A, B, C, D) of 1-4 states, 1-2 inputs
    and outputs: A's eigenvalues inside the unit circle for a discrete one,
    in the left half plane for a continuous one."""
    n = draw(st.integers(1, 4))
    m, q = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    A = rng.standard_normal((n, n))
    rho = max(np.abs(np.linalg.eigvals(A)))
    A = A / (1.2 * rho) if discrete else A - (rho + 0.5) * np.eye(n)
    return A, rng.standard_normal((n, m)), rng.standard_normal((q, n)), \
        rng.standard_normal((q, m)), rng


@SETTINGS
@given(systems(), st.sampled_from([1, 2, 7, 150]), st.booleans(), st.booleans(), st.booleans())
def test_lsim(system, N, interp, with_x0, late):
    A, B, C, D, rng = system
    T = (0.3 if late else 0.0) + np.arange(N) * 0.05
    U = rng.standard_normal((N, B.shape[1]))
    if B.shape[1] == 1 and rng.random() < 0.5:
        U = U[:, 0]
    X0 = rng.standard_normal(A.shape[0]) if with_x0 else None
    r = outcome(ss.lsim, (A, B, C, D), U, T, X0, interp)
    same(outcome(gs.lsim, (A, B, C, D), gp.asarray(U), T, X0, interp), r, tol=1e-8)


@SETTINGS
@given(systems(discrete=True), st.sampled_from([1, 2, 9, 200]), st.booleans(),
       st.sampled_from([None, "grid", "off"]), st.sampled_from(["ss", "tf", "zpk"]))
def test_dlsim(system, N, with_x0, times, form):
    A, B, C, D, rng = system
    sys_ = (A, B, C, D)
    if form != "ss":
        sys_ = ss.ss2tf(A, B[:, :1], C[:1], D[:1, :1])
        if form == "zpk":
            sys_ = ss.tf2zpk(*sys_)
        B = B[:, :1]
    u = rng.standard_normal((N, B.shape[1]))
    x0 = rng.standard_normal(A.shape[0]) if with_x0 and form == "ss" else None
    t = None
    if times is not None and N > 1:
        t = np.arange(N) * 0.5 if times == "grid" else np.linspace(0, 0.37 * N, N)
    args = sys_ + (0.5,)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = outcome(ss.dlsim, args, u, t, x0)
        g = outcome(gs.dlsim, args, gp.asarray(u), t, x0)
    same(g, r, tol=1e-8)


METHODS = ["gbt", "bilinear", "euler", "backward_diff", "zoh", "foh", "impulse"]


@SETTINGS
@given(systems(), st.sampled_from(METHODS), st.floats(0.0, 1.0), st.sampled_from([0.01, 0.3]),
       st.sampled_from(["ss", "tf", "zpk"]))
def test_cont2discrete(system, method, alpha, dt, form):
    A, B, C, D, rng = system
    if method == "impulse":
        D = np.zeros_like(D)
    sys_ = (A, B, C, D)
    if form != "ss":
        sys_ = ss.ss2tf(A, B[:, :1], C[:1], D[:1, :1])
        if form == "zpk":
            sys_ = ss.tf2zpk(*sys_)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = outcome(ss.cont2discrete, sys_, dt, method, alpha)
        g = outcome(gs.cont2discrete, sys_, dt, method, alpha)
    same(g, r, tol=1e-8)


MODES = [("onesided", None), ("onesided", "magnitude"), ("onesided2X", "psd"),
         ("onesided2X", "magnitude"), ("twosided", None), ("twosided", "psd"),
         ("centered", "magnitude")]


@SETTINGS
@given(st.integers(1, 20), st.data(), st.sampled_from(MODES), st.sampled_from([0, None, 2, -1]),
       st.integers(0, 5), st.sampled_from(["zeros", "edge", "even", "odd"]), st.booleans(),
       st.integers(0, 2 ** 32 - 1))
def test_short_time_fft(m, data, mode, phase_shift, extra, padding, two_d, seed):
    rng = np.random.default_rng(seed)
    hop = data.draw(st.integers(1, m))
    n = data.draw(st.integers(m - m // 2, 3 * m + 5))
    win = rng.random(m) + 0.1
    fft_mode, scale = mode
    kw = dict(fft_mode=fft_mode, mfft=m + extra, scale_to=scale,
              phase_shift=phase_shift if phase_shift is None else phase_shift % m)
    r = ss.ShortTimeFFT(win, hop, 2.0, **kw)
    g = gs.ShortTimeFFT(gp.asarray(win), hop, 2.0, **kw)
    x = rng.standard_normal((3, n) if two_d else n)
    if not r.onesided_fft and rng.random() < 0.5:
        x = x + 1j * rng.standard_normal(x.shape)
    axis = -1 if not two_d or rng.random() < 0.5 else 1
    S = r.stft(x, padding=padding, axis=axis)
    same(g.stft(gp.asarray(x), padding=padding, axis=axis), S)
    if r.invertible:
        f_axis, t_axis = (-2, -1) if x.ndim == 1 else (axis - 1 if axis < 0 else 1, -1)
        same(g.istft(gp.asarray(S), f_axis=f_axis, t_axis=t_axis),
             r.istft(S, f_axis=f_axis, t_axis=t_axis))
    for name in ("p_min", "k_min", "lower_border_end", "f"):
        same(getattr(g, name), getattr(r, name), path=name)
    for name in ("p_max", "k_max", "upper_border_begin", "t"):
        same(getattr(g, name)(n), getattr(r, name)(n), path=name)


@SETTINGS
@given(st.integers(2, 60), st.floats(-0.9, 0.9), st.floats(-3, 3), st.floats(0.05, 0.9),
       st.floats(0.0, np.pi), st.integers(0, 2 ** 32 - 1))
# the smallest omega: SciPy's boundary sum meets a NaN term, stops, and
# answers NaNs rather than failing to converge
@example(3, 0.0, 0.0, 0.5, 5e-324, 0)
def test_symiirorder(n, z1, c0, r, omega, seed):
    x = np.random.default_rng(seed).standard_normal((2, n))
    same(outcome(gs.symiirorder1, gp.asarray(x), c0, z1),
         outcome(ss.symiirorder1, x, c0, z1))
    same(outcome(gs.symiirorder2, gp.asarray(x), r, omega),
         outcome(ss.symiirorder2, x, r, omega), tol=1e-8)
