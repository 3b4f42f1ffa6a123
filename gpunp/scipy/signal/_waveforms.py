"""Waveforms: elementwise formulas of the time array (computed where the
array is), and maximum length sequences (a recurrence over GF(2), run on
the host as SciPy runs it)."""

from __future__ import annotations

import math

import numpy as np

import gpunp as gp
from gpunp.scipy._version import scipy_version


def _wave_dtype(t, w):
    """The dtype the wave is computed in: t's and w's promoted (at least
    floating). SciPy 1.18 (waveforms moved to the array API) promotes a
    Python or NumPy scalar w as a scalar; before, as a 0-d array."""
    if scipy_version() < 11800:
        return gp.result_type(gp.asarray(t).dtype, gp.asarray(w).dtype, 1.0)
    return gp.result_type(*(v if np.isscalar(v) else gp.asarray(v) for v in (t, w)), 1.0)


def _periodic(t, w, inside, high, low):
    """A 2 pi periodic wave of parameter w in [0, 1] (NaN outside):
    high(tmod, w) on the first w of each period, low(tmod, w) after;
    computed in t's and w's dtype, returned in it from SciPy 1.18 and in
    float64 before."""
    dtype = _wave_dtype(t, w)
    t, w = gp.broadcast_arrays(*(gp.asarray(v).astype(dtype) for v in (t, w)))
    tmod = gp.mod(t, 2 * math.pi)
    bad = (w > 1) | (w < 0)
    first = tmod < w * 2 * math.pi
    with gp.errstate(divide="ignore", invalid="ignore"):
        y = gp.where(first, high(tmod, w), low(tmod, w))
    y = gp.where(bad, math.nan, y)
    return y if scipy_version() >= 11800 else y.astype(np.float64)


def sawtooth(t, width=1):
    """A sawtooth of period 2 pi rising from -1 to 1 over width of the
    period and falling back over the rest."""
    return _periodic(t, width, None,
                     lambda tm, w: tm / (math.pi * w) - 1,
                     lambda tm, w: (math.pi * (w + 1) - tm) / (math.pi * (1 - w)))


def square(t, duty=0.5):
    """A square wave of period 2 pi: 1 over duty of the period, -1 after."""
    return _periodic(t, duty, None, lambda tm, w: gp.ones_like(tm),
                     lambda tm, w: -gp.ones_like(tm))


def gausspulse(t, fc=1000, bw=0.5, bwr=-6, tpr=-60, retquad=False, retenv=False):
    """A Gaussian-modulated cosine of centre frequency fc and fractional
    bandwidth bw (at bwr dB); t='cutoff' gives the time where the envelope
    falls to tpr dB."""
    if fc < 0:
        raise ValueError(f"Center frequency (fc={fc:.2f}) must be >=0.")
    if bw <= 0:
        raise ValueError(f"Fractional bandwidth (bw={bw:.2f}) must be > 0.")
    if bwr >= 0:
        raise ValueError(f"Reference level for bandwidth (bwr={bwr:.2f}) must be < 0 dB")
    a = -(math.pi * fc * bw) ** 2 / (4.0 * math.log(10.0 ** (bwr / 20.0)))
    if isinstance(t, str):
        if t != "cutoff":
            raise ValueError("If `t` is a string, it must be 'cutoff'")
        if tpr >= 0:
            raise ValueError("Reference level for time cutoff must be < 0 dB")
        return np.float64(math.sqrt(-math.log(10.0 ** (tpr / 20.0)) / a))
    t = gp.asarray(t)
    env = gp.exp(-a * t * t)
    yi = env * gp.cos(2 * math.pi * fc * t)
    out = (yi,)
    if retquad:
        out += (env * gp.sin(2 * math.pi * fc * t),)
    if retenv:
        out += (env,)
    return out[0] if len(out) == 1 else out


def _chirp_phase(t, f0, t1, f1, method, vertex_zero):
    t = gp.asarray(t)
    f0, t1, f1 = float(f0), float(t1), float(f1)
    if method in ("linear", "lin", "li"):
        beta = (f1 - f0) / t1
        return 2 * math.pi * (f0 * t + 0.5 * beta * t * t)
    if method in ("quadratic", "quad", "q"):
        beta = (f1 - f0) / t1 ** 2
        if vertex_zero:
            return 2 * math.pi * (f0 * t + beta * t ** 3 / 3)
        return 2 * math.pi * (f1 * t + beta * ((t1 - t) ** 3 - t1 ** 3) / 3)
    if method in ("logarithmic", "log", "lo"):
        if f0 * f1 <= 0.0:
            raise ValueError("For a logarithmic chirp, f0 and f1 must be nonzero and have the "
                             "same sign.")
        if f0 == f1:
            return 2 * math.pi * f0 * t
        beta = t1 / math.log(f1 / f0)
        return 2 * math.pi * beta * f0 * ((f1 / f0) ** (t / t1) - 1.0)
    if method in ("hyperbolic", "hyp"):
        if f0 == 0 or f1 == 0:
            raise ValueError("For a hyperbolic chirp, f0 and f1 must be nonzero.")
        if f0 == f1:
            return 2 * math.pi * f0 * t
        sing = -f1 * t1 / (f0 - f1)
        return 2 * math.pi * (-sing * f0) * gp.log(gp.abs(1 - t / sing))
    raise ValueError("method must be 'linear', 'quadratic', 'logarithmic', or 'hyperbolic', "
                     f"but a value of {method!r} was given.")


def chirp(t, f0, t1, f1, method="linear", phi=0, vertex_zero=True, *, complex=False):
    """A frequency-swept cosine (or complex exponential) from f0 at t = 0 to
    f1 at t1, swept linearly, quadratically, logarithmically or
    hyperbolically; phi in degrees."""
    phase = _chirp_phase(t, f0, t1, f1, method, vertex_zero) + math.radians(phi)
    return gp.exp(1j * phase) if complex else gp.cos(phase)


def sweep_poly(t, poly, phi=0):
    """A cosine whose frequency at t is the polynomial poly (numpy.poly1d or
    coefficients, highest first); phi in degrees."""
    ip = np.polyint(poly)
    c = np.asarray(getattr(ip, "coeffs", ip))
    t = gp.asarray(t)
    acc = gp.zeros_like(t, dtype=np.result_type(t.dtype, c.dtype, np.float64))
    for k in c:  # Horner's rule, in polyval's order
        acc = acc * t + k
    return gp.cos(2 * math.pi * acc + phi * math.pi / 180)


def unit_impulse(shape, idx=None, dtype=float):
    """Zeros of shape with a one at idx (the first element by default, the
    middle for 'mid', an integer for each axis)."""
    out = gp.zeros(shape, dtype)
    dims = np.atleast_1d(shape)
    if idx is None:
        idx = (0,) * len(dims)
    elif isinstance(idx, str) and idx == "mid":
        idx = tuple(int(d) // 2 for d in dims)
    elif not hasattr(idx, "__iter__"):
        idx = (idx,) * len(dims)
    out[tuple(idx)] = 1
    return out


# the feedback taps of a maximal sequence for each register length
_MLS_TAPS = {2: [1], 3: [2], 4: [3], 5: [3], 6: [5], 7: [6], 8: [7, 6, 1], 9: [5], 10: [7],
             11: [9], 12: [11, 10, 4], 13: [12, 11, 8], 14: [13, 12, 2], 15: [14],
             16: [15, 13, 4], 17: [14], 18: [11], 19: [18, 17, 14], 20: [17], 21: [19],
             22: [21], 23: [18], 24: [23, 22, 17], 25: [22], 26: [25, 24, 20],
             27: [26, 25, 22], 28: [25], 29: [27], 30: [29, 28, 7], 31: [28],
             32: [31, 30, 10]}


def max_len_seq(nbits, state=None, length=None, taps=None):
    """A maximum length sequence of a linear feedback shift register of
    nbits, and the register's final state.

    The register's bits are a sequence s with s[j + nbits] = s[j] xor the
    s[j + t] of the taps t; s[j] depends on nothing nearer than
    nbits - max(t mod nbits) before it, so blocks of that many bits are
    computed at once."""
    if taps is None:
        if nbits not in _MLS_TAPS:
            raise ValueError(f"nbits must be between {min(_MLS_TAPS)} and {max(_MLS_TAPS)} "
                             "if taps is None")
        taps = np.array(_MLS_TAPS[nbits], np.int64)
    else:
        taps = np.unique(np.array(taps, np.int64))[::-1]
        if np.any(taps < 0) or np.any(taps > nbits) or taps.size < 1:
            raise ValueError("taps must be non-empty with values between zero and nbits "
                             "(inclusive)")
    length = 2 ** nbits - 1 if length is None else int(length)
    if length < 0:
        raise ValueError("length must be greater than or equal to 0")
    if state is None:
        state = np.ones(nbits, dtype=np.int8)
    else:
        state = np.array(state, dtype=bool).astype(np.int8)
    if state.ndim != 1 or state.size != nbits:
        raise ValueError("state must be a 1-D array of size nbits")
    if np.all(state == 0):
        raise ValueError("state must not be all zeros")
    s = np.empty(length + nbits, dtype=np.int8)
    s[:nbits] = state
    step = nbits - int(max(t % nbits for t in taps))
    j = nbits
    while j < length + nbits:
        e = min(j + step, length + nbits)
        v = s[j - nbits:e - nbits].copy()
        for t in taps % nbits:  # a tap of 0 or nbits is the bit itself
            v ^= s[j - nbits + t:e - nbits + t]
        s[j:e] = v
        j = e
    return gp.asarray(s[:length]), gp.asarray(s[length:length + nbits])
