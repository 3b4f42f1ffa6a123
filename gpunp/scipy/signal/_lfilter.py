"""IIR filtering in chunks: few passes over the signal, each a kernel.

SciPy's lfilter runs the direct form II transposed recursion sample by
sample. Here every signal is cut into chunks of C samples and the
recursion runs on all (signal, chunk) pairs at once, one thread each:

1. each chunk from a zero state, keeping only its end state e(k);
2. per signal, the true state entering each chunk, s(k + 1) = G s(k) + e(k)
   with G = A^C (A: the filter's one-step state matrix), a recurrence C
   times shorter than the signal;
3. each chunk again, from its true state s(k), writing the output.

So the signal is read twice and the output written once; the states
(S numbers a chunk) are a small fraction of that. A filter of second-order
sections is one such system, its state all sections' states, and every
chunk runs the whole cascade.

G is formed by stepping A C times (the same sums as the recursion, whose
rounding errors decay with the filter), never by squaring: the rounding
errors of A^(2^j) products grow like |A|^C entrywise, which for a direct-form
order-8 filter passes 1e100 by C = 4096.

The recursion runs in double precision (complex: as real and imaginary
parts); a complex signal through a real filter is two real signals. States
are padded to a power of two S (zero coefficients, or sections that pass
their input through), so each S is one compiled kernel with unrolled loops.
The signals are addressed in place along any axis: chunk t of signal
(outer a, inner j) is x[(a * n + t) * inner + j]."""

from __future__ import annotations

import numpy as np

import gpunp as gp
from gpunp.scipy._version import scipy_version

_FLOATS = "fdgFDG"

# chunk lengths: enough (signal, chunk) pairs to fill a GPU, chunks long
# enough that the carried states (S numbers a chunk) stay a small part of
# the traffic
_ITEMS = 1 << 16
_CHUNK_MIN, _CHUNK_MAX = 32, 4096


def _chunk(n, nsig):
    want = -(-n * nsig // _ITEMS)
    return min(_CHUNK_MAX, max(_CHUNK_MIN, 1 << max(want - 1, 0).bit_length()))


def _pow2(k):
    return 1 << max(k - 1, 0).bit_length()


# one thread a (signal, chunk): the recursion over the chunk from the state
# sin (or zero), writing the output (if out) and the end state send (sin and
# send may be one array: a thread reads its own slot before writing it);
# rev runs the signals back to front (filtfilt's backward pass, in place)
_HEAD = r"""
    const long long ch = i % nsig, k = i / nsig;
    const long long base = (ch / inner) * n * inner + ch % inner;
    const long long t1 = (k + 1) * C < n ? (k + 1) * C : n;
    long long t, at;
    int q;
"""

_TF = _HEAD + r"""
    double z[LF_S], b[LF_S + 1], a[LF_S + 1], xv, yv;
    for (q = 0; q <= LF_S; q++) { b[q] = cf[q]; a[q] = cf[LF_S + 1 + q]; }
    for (q = 0; q < LF_S; q++) z[q] = from_in ? sin[i * LF_S + q] : 0.0;
    for (t = k * C; t < t1; t++) {
        at = base + (rev ? n - 1 - t : t) * inner;
        xv = (double)x[at];
        yv = b[0] * xv + z[0];
        for (q = 0; q < LF_S - 1; q++) z[q] = z[q + 1] + b[q + 1] * xv - a[q + 1] * yv;
        z[LF_S - 1] = b[LF_S] * xv - a[LF_S] * yv;
        if (out) y[at] = (T)yv;
    }
    for (q = 0; q < LF_S; q++) send[i * LF_S + q] = z[q];
"""

# complex coefficients: x, y and the states as (real, imaginary) pairs; cf
# holds b's real and imaginary parts, then a's
_TFC = _HEAD + r"""
    double zr[LF_S], zm[LF_S], br[LF_S + 1], bm[LF_S + 1], ar[LF_S + 1], am[LF_S + 1];
    double xr, xm, yr, ym;
    for (q = 0; q <= LF_S; q++) {
        br[q] = cf[q]; bm[q] = cf[LF_S + 1 + q];
        ar[q] = cf[2 * (LF_S + 1) + q]; am[q] = cf[3 * (LF_S + 1) + q];
    }
    for (q = 0; q < LF_S; q++) {
        zr[q] = from_in ? sin[2 * (i * LF_S + q)] : 0.0;
        zm[q] = from_in ? sin[2 * (i * LF_S + q) + 1] : 0.0;
    }
    for (t = k * C; t < t1; t++) {
        at = 2 * (base + (rev ? n - 1 - t : t) * inner);
        xr = (double)x[at];
        xm = (double)x[at + 1];
        yr = br[0] * xr - bm[0] * xm + zr[0];
        ym = br[0] * xm + bm[0] * xr + zm[0];
        for (q = 0; q < LF_S - 1; q++) {
            zr[q] = zr[q + 1] + (br[q + 1] * xr - bm[q + 1] * xm)
                    - (ar[q + 1] * yr - am[q + 1] * ym);
            zm[q] = zm[q + 1] + (br[q + 1] * xm + bm[q + 1] * xr)
                    - (ar[q + 1] * ym + am[q + 1] * yr);
        }
        zr[LF_S - 1] = (br[LF_S] * xr - bm[LF_S] * xm) - (ar[LF_S] * yr - am[LF_S] * ym);
        zm[LF_S - 1] = (br[LF_S] * xm + bm[LF_S] * xr) - (ar[LF_S] * ym + am[LF_S] * yr);
        if (out) { y[at] = (T)yr; y[at + 1] = (T)ym; }
    }
    for (q = 0; q < LF_S; q++) {
        send[2 * (i * LF_S + q)] = zr[q];
        send[2 * (i * LF_S + q) + 1] = zm[q];
    }
"""

# second-order sections (b0 b1 b2 1 a1 a2 rows), SciPy's sosfilt order of
# operations; LF_S / 2 sections, two states each
_SOS = _HEAD + r"""
    double z[LF_S], c[3 * LF_S], v, w;
    int s;
    for (q = 0; q < 3 * LF_S; q++) c[q] = cf[q];
    for (q = 0; q < LF_S; q++) z[q] = from_in ? sin[i * LF_S + q] : 0.0;
    for (t = k * C; t < t1; t++) {
        at = base + (rev ? n - 1 - t : t) * inner;
        v = (double)x[at];
        for (s = 0; s < LF_S / 2; s++) {
            w = c[6 * s] * v + z[2 * s];
            z[2 * s] = c[6 * s + 1] * v - c[6 * s + 4] * w + z[2 * s + 1];
            z[2 * s + 1] = c[6 * s + 2] * v - c[6 * s + 5] * w;
            v = w;
        }
        if (out) y[at] = (T)v;
    }
    for (q = 0; q < LF_S; q++) send[i * LF_S + q] = z[q];
"""

# the carry, one thread a (signal, group of grp chunks' states): s holds the
# end state of each chunk from zero, e(k); from the state z0 (or zero) a
# thread steps s(k + 1) = G s(k) + e(k) over its group, writing s(k) over
# e(k) if write, and its group's end state to f (z0 and f may be one array)
_CARRY = r"""
    const long long ch = i % nsig, k1 = (i / nsig + 1) * grp < K ? (i / nsig + 1) * grp : K;
    double cur[LF_S], nxt[LF_S], acc;
    long long k, at;
    int r, q;
    for (q = 0; q < LF_S; q++) cur[q] = from_in ? z0[i * LF_S + q] : 0.0;
    for (k = (i / nsig) * grp; k < k1; k++) {
        at = (k * nsig + ch) * LF_S;
        for (r = 0; r < LF_S; r++) {
            nxt[r] = s[at + r];
            if (write) s[at + r] = cur[r];
        }
        for (r = 0; r < LF_S; r++) {
            acc = nxt[r];
            for (q = 0; q < LF_S; q++) acc += G[r * LF_S + q] * cur[q];
            nxt[r] = acc;
        }
        for (r = 0; r < LF_S; r++) cur[r] = nxt[r];
    }
    for (r = 0; r < LF_S; r++) f[i * LF_S + r] = cur[r];
"""

_BODIES = {"tf": _TF, "tfc": _TFC, "sos": _SOS}
_KERNELS = {}


def _kernel(kind, S):
    """The compiled kernel of a kind for S states (one per kind and S)."""
    key = (kind, S)
    k = _KERNELS.get(key)
    if k is None:
        if kind == "carry":
            k = gp.ElementwiseKernel(
                "raw float64 G, raw float64 z0, int64 nsig, int64 K, int64 grp, int32 from_in, "
                "int32 write", "raw float64 s, raw float64 f", _CARRY.replace("LF_S", str(S)),
                f"gp_iir_carry_{S}")
        else:
            k = gp.ElementwiseKernel(
                "raw T x, raw float64 cf, raw float64 sin, int64 n, int64 inner, int64 nsig, "
                "int64 C, int32 rev, int32 from_in, int32 out", "raw T y, raw float64 send",
                _BODIES[kind].replace("LF_S", str(S)), f"gp_iir_{kind}_{S}")
        _KERNELS[key] = k
    return k


def _tf_step(cf, S, complex_):
    """The one-step state matrix A of the padded direct form, and the state
    a unit input leaves in a zero state (B)."""
    if complex_:
        b = cf[:S + 1] + 1j * cf[S + 1:2 * (S + 1)]
        a = cf[2 * (S + 1):3 * (S + 1)] + 1j * cf[3 * (S + 1):]
    else:
        b, a = cf[:S + 1], cf[S + 1:]
    A = np.zeros((S, S), np.complex128 if complex_ else np.float64)
    A[:, 0] = -a[1:]
    A[np.arange(S - 1), np.arange(1, S)] = 1
    return A, b[1:] - a[1:] * b[0]


def _sos_step(cf, S):
    """The one-step state matrix of the cascade (each unit state stepped
    through every section with zero input), and the state a unit input
    leaves in a zero state."""
    Z = np.hstack([np.eye(S), np.zeros((S, 1))])
    v = np.zeros(S + 1)
    v[S] = 1
    for s in range(S // 2):
        b0, b1, b2, _, a1, a2 = cf[6 * s:6 * s + 6]
        w = b0 * v + Z[2 * s]
        Z[2 * s], Z[2 * s + 1] = b1 * v - a1 * w + Z[2 * s + 1], b2 * v - a2 * w
        v = w
    return Z[:, :S], Z[:, S]


_PLANS = {}
_SEARCH = 8192  # the longest chunk whose carry matrix is formed by steps
_SQUARE_TO = 1 << 20  # the longest chunk at all


def _plan(kind, cf, S, n, nsig):
    """The chunk length C and the carry matrix G = A^C (complex: as the
    real matrix of the interleaved parts), or (n, None): one chunk a signal.

    C is the shortest power of two from _chunk's on whose G, with the
    states measured in their own sizes (_scaled_norm), has absolute row
    sums at most 1: then a carry step's rounding error is a few ulps of
    each state, as a step of SciPy's loop. A shorter chunk of a filter
    whose state response is still large (poles near the unit circle in
    direct form) would carry errors of |G| ulps into every later chunk; an
    unstable filter, or NaN coefficients, never get there and run as one
    chunk a signal, SciPy's own loop. Kept for the next call with the same
    filter (filtfilt filters twice)."""
    C = _chunk(n, nsig)
    if C >= n:
        return n, None
    key = (kind, S, cf.tobytes(), C, min(n, _SEARCH + 1))
    plan = _PLANS.get(key)
    if plan is not None:
        return plan
    A, v = _sos_step(cf, S) if kind == "sos" else _tf_step(cf, S, kind == "tfc")
    M, k, plan = np.eye(S, dtype=A.dtype), 0, (n, None)
    energy = np.zeros(S)
    with np.errstate(all="ignore"):
        while C < n and C <= _SQUARE_TO:
            if C <= _SEARCH:
                for _ in range(C - k):
                    energy += np.abs(v) ** 2
                    v = A @ v
                    M = A @ M
            elif norm <= 16:
                # past _SEARCH steps, squaring M (not A): |M|^2's rounding,
                # at most 256 ulps of a row sum, against poles within a
                # few 1e-4 of the unit circle run one chunk a signal
                M = M @ M
            else:
                break
            k = C
            norm = _scaled_norm(M, np.sqrt(energy))
            if norm <= 1:  # NaN fails too
                plan = (C, _real_matrix(M))
                break
            C *= 2
    if len(_PLANS) > 16:
        _PLANS.clear()
    _PLANS[key] = plan
    return plan


def _scaled_norm(M, sigma):
    """The largest absolute row sum of M acting on states measured in their
    own sizes sigma (the states' response to a unit impulse, over the steps
    taken): a carry step's rounding, relative to each state's size. States
    no input reaches (padding) never hold anything and are left out; so
    are none, and sections of very different gains compare fairly."""
    live = sigma > 0
    if not np.all(np.isfinite(sigma)):
        return np.inf
    if not live.any():
        return 0.0 if np.all(np.isfinite(M)) else np.inf
    s = sigma[live]
    W = M[np.ix_(live, live)] * (s[None, :] / s[:, None])
    return np.abs(_real_matrix(W)).sum(axis=1).max()


def _real_matrix(M):
    """A complex matrix as the real one acting on interleaved (real,
    imaginary) parts."""
    if M.dtype.kind != "c":
        return M
    R = np.empty((2 * M.shape[0], 2 * M.shape[1]))
    R[0::2, 0::2], R[0::2, 1::2] = M.real, -M.imag
    R[1::2, 0::2], R[1::2, 1::2] = M.imag, M.real
    return R


_GROUP = 64  # chunks' states a thread of the carry steps through


def _carry(G, s, nsig, K, z0):
    """s: each chunk's end state from zero, (K, nsig, width) in a flat
    array, becomes the true state entering each chunk, from z0 (or zero);
    returns the state after the last chunk (nsig, width).

    A sequential pass per signal would take K dependent steps; so the
    chunks' states are carried the same way as the samples: groups of
    _GROUP from zero, the groups' states by G^_GROUP (formed by squaring:
    with |G|'s row sums at most 1 the products' rounding stays a few ulps),
    then each group again from its true state."""
    width = G.shape[0]
    kern = _kernel("carry", width)
    fin = gp.empty(nsig * width, dtype=np.float64)
    if K <= _GROUP:
        kern(gp.asarray(G), s if z0 is None else z0, nsig, K, K, int(z0 is not None), 1, s,
             fin, size=nsig)
        return fin.reshape(nsig, width)
    Kg = -(-K // _GROUP)
    f = gp.empty(nsig * Kg * width, dtype=np.float64)
    Gd = gp.asarray(G)
    kern(Gd, s, nsig, K, _GROUP, 0, 0, s, f, size=nsig * Kg)
    H = G
    for _ in range(_GROUP.bit_length() - 1):
        H = H @ H
    fin = _carry(H, f, nsig, Kg, z0)
    kern(Gd, f, nsig, K, _GROUP, 1, 1, s, f, size=nsig * Kg)
    return fin


def _filter(kind, cf, S, buf, outer, n, inner, z0, rev=0):
    """Runs the chunked filter over buf (C-contiguous, 1-D, the real
    components; outer x n x inner signals' elements, an element a complex
    pair for 'tfc'); z0: the initial states (signals x width) or None.
    Returns the output (as buf) and the final states (signals x width)."""
    nsig = outer * inner
    width = 2 * S if kind == "tfc" else S
    y = gp.empty_like(buf)
    if n == 0 or nsig == 0:
        return y, z0
    C, G = _plan(kind, cf, S, n, nsig)
    K = -(-n // C)
    s = gp.empty(nsig * K * width, dtype=np.float64)
    cfd = gp.asarray(cf)
    run = _kernel(kind, S)
    if K == 1:
        run(buf, cfd, s if z0 is None else z0, n, inner, nsig, C, rev, int(z0 is not None), 1,
            y, s, size=nsig)
    else:
        run(buf, cfd, s, n, inner, nsig, C, rev, 0, 0, y, s, size=nsig * K)
        _carry(G, s, nsig, K, z0)
        run(buf, cfd, s, n, inner, nsig, C, rev, 1, 1, y, s, size=nsig * K)
    return y, s.reshape(K, nsig, width)[K - 1]


def _host(v):
    """Coefficients on the host (they are few), whether given as gpunp
    arrays or as anything NumPy takes."""
    return gp.asnumpy(v) if isinstance(v, gp.ndarray) else np.asarray(v)


def _coeffs(b, a):
    b, a = np.atleast_1d(_host(b)), np.atleast_1d(_host(a))
    if not (b.ndim == 1 and b.size > 0):
        raise ValueError(f"Parameter b is not a non-empty 1d array, since {b.shape=}!")
    if not (a.ndim == 1 and a.size > 0):
        raise ValueError(f"Parameter a is not a non-empty 1d array, since {a.shape=}!")
    return b, a


def _axis(x, axis):
    if x.ndim == 0:
        raise ValueError("x must be at least 1-D")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError("selected axis is out of range")
    return axis % x.ndim


def _zi_for(zi, x, axis, p, dt):
    """zi broadcast to x's shape with p along axis, SciPy's shape rule."""
    zi = gp.asarray(zi)
    want = list(x.shape)
    want[axis] = p
    want = tuple(want)
    if zi.shape != want:
        if zi.ndim != x.ndim or any(z != w and not (k != axis and z == 1)
                                    for k, (z, w) in enumerate(zip(zi.shape, want))):
            raise ValueError(f"Unexpected shape for zi: expected {want}, found {zi.shape}.")
        zi = gp.broadcast_to(zi, want)
    return zi.astype(dt)


def _signals(x, axis, dt, kind):
    """x as dt, C-contiguous, as a 1-D buffer of real components with its
    signals' (outer, n, inner) addressing: a complex signal through a real
    filter ('tf') is two real signals side by side."""
    xd = x if x.dtype == dt else x.astype(dt)
    xd = gp.ascontiguousarray(xd).reshape(-1)
    outer = int(np.prod(x.shape[:axis], dtype=np.int64))
    post = int(np.prod(x.shape[axis + 1:], dtype=np.int64))
    if dt.kind == "c":
        buf = xd.view(np.float32 if dt == np.complex64 else np.float64)
        return buf, outer, x.shape[axis], post * (2 if kind != "tfc" else 1), post
    return xd, outer, x.shape[axis], post, post


def _to_states(Z, kind, S):
    """States in SciPy's layout (outer, p, post) as the kernels' (signals,
    width) float64 rows, padded to S with zeros."""
    outer, p, post = Z.shape
    Z = gp.moveaxis(Z, 1, 2)
    if Z.dtype.kind == "c" and kind != "tfc":
        Z = gp.stack([Z.real, Z.imag], axis=2)
    pad = [(0, 0)] * (Z.ndim - 1) + [(0, S - p)]
    if kind == "tfc":
        Z = gp.ascontiguousarray(gp.pad(Z.astype(np.complex128), pad))
        return Z.reshape(-1).view(np.float64).reshape(outer * post, 2 * S)
    return gp.ascontiguousarray(gp.pad(Z.astype(np.float64), pad)).reshape(-1, S)


def _from_states(F, kind, S, outer, p, post, dt):
    """The kernels' final states back in SciPy's layout (outer, p, post)."""
    if kind == "tfc":
        Z = gp.ascontiguousarray(F).reshape(-1).view(np.complex128).reshape(outer, post, S)
        Z = Z[..., :p]
    elif dt.kind == "c":
        Z = F.reshape(outer, post, 2, S)[..., :p]
        Z = Z[:, :, 0].astype(dt) + 1j * Z[:, :, 1].astype(dt)
    else:
        Z = F.reshape(outer, post, S)[..., :p]
    return gp.ascontiguousarray(gp.moveaxis(Z, 2, 1).astype(dt))


def _padded(v, m):
    out = np.zeros(m, v.dtype)
    out[:len(v)] = v
    return out


def lfilter(b, a, x, axis=-1, zi=None):
    """Filter x along axis with the rational transfer function b / a
    (SciPy's direct form II transposed, initial state zi); returns y, or
    (y, zf) where zi is given."""
    return _lfilter(b, a, x, axis, zi, 0)


def _lfilter(b, a, x, axis, zi, rev):
    """lfilter; rev: of the signals back to front, the output in their
    order (flip(lfilter(flip(x))) without the flips' copies)."""
    b, a = _coeffs(b, a)
    x = gp.asarray(x)
    axis = _axis(x, axis)
    inputs = [b.dtype, a.dtype, x.dtype] + ([gp.asarray(zi).dtype] if zi is not None else [])
    dt = np.result_type(*inputs)
    if dt.char not in _FLOATS:
        if len(a) == 1:
            raise NotImplementedError(f"Parameter's dtypes produced result type '{dt}', "
                                      "which is not supported!")
        raise NotImplementedError(f"input type '{dt}' not supported")
    if a[0] == 0:
        if len(a) > 1:
            raise ValueError("BUG: filter coefficient a[0] == 0 not supported yet")
    if len(a) == 1 and x.size == 0:
        # SciPy filters an FIR along the axis with numpy.convolve, which
        # refuses an empty signal, and apply_along_axis refuses no signals
        if x.shape[axis] == 0:
            raise ValueError("v cannot be empty")
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    p = max(len(a), len(b)) - 1
    cd = np.result_type(b.dtype, a.dtype, np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        bn = _padded(b / a[0], p + 1).astype(cd)
        an = _padded(a / a[0], p + 1).astype(cd)
    zim = None if zi is None else _zi_for(zi, x, axis, p, dt)
    if p == 0 or x.size == 0:  # no state, or no samples: the state is zi
        y = gp.ascontiguousarray(x.astype(dt) * gp.asarray(bn[:1].astype(dt)))
        return y if zi is None else (y, zim)
    kind = "tfc" if cd.kind == "c" and (np.any(bn.imag) or np.any(an.imag)) else "tf"
    S = _pow2(p)
    if kind == "tfc":
        cf = np.concatenate([_padded(v, S + 1) for v in (bn.real, bn.imag, an.real, an.imag)])
    else:
        cf = np.concatenate([_padded(np.real(bn), S + 1), _padded(np.real(an), S + 1)])
    buf, outer, n, inner, post = _signals(x, axis, dt, kind)
    z0 = None if zim is None else _to_states(zim.reshape(outer, p, post), kind, S)
    yb, zf = _filter(kind, cf.astype(np.float64), S, buf, outer, n, inner, z0, rev)
    y = yb.view(dt).reshape(x.shape)
    if zi is None:
        return y
    return y, _from_states(zf, kind, S, outer, p, post, dt).reshape(zim.shape)


def lfiltic(b, a, y, x=None):
    """The initial state for lfilter that reproduces past outputs y (latest
    first) and inputs x (latest first)."""
    a, b = np.atleast_1d(_host(a)), np.atleast_1d(_host(b))
    if a.ndim > 1:
        raise ValueError("Filter coefficients `a` must be 1-D.")
    if b.ndim > 1:
        raise ValueError("Filter coefficients `b` must be 1-D.")
    N, M = a.shape[0] - 1, b.shape[0] - 1
    K = max(M, N)
    y = gp.asnumpy(gp.asarray(y))
    if N < 0:
        raise ValueError("There must be at least one `a` coefficient.")
    if x is None:
        rt = np.result_type(b, a, y)
        rt = np.float64 if rt.kind in "biu" else rt
        x = np.zeros(M, dtype=rt)
    else:
        x = gp.asnumpy(gp.asarray(x))
        rt = np.result_type(b, a, y, x)
        rt = np.float64 if rt.kind in "biu" else rt
        x = x.astype(rt)
        if x.size < M:
            x = np.concatenate([x, np.zeros(M - x.size)])
    y = y.astype(rt)
    if y.size < N:
        y = np.concatenate([y, np.zeros(N - y.size)])
    zi = np.zeros(K, dtype=rt)
    for m in range(M):
        zi[m] = np.sum(b[m + 1:] * x[:M - m], axis=0)
    for m in range(N):
        zi[m] -= np.sum(a[m + 1:] * y[:N - m], axis=0)
    if a[0] != 1.0:
        if a[0] == 0.0:
            raise ValueError("First `a` filter coefficient must be non-zero.")
        zi /= a[0]
    return gp.asarray(zi)


def _lfilter_zi_host(b, a):
    if scipy_version() >= 11800:
        return _lfilter_zi_1_18(b, a)
    b = np.atleast_1d(_host(b))
    if b.ndim != 1:
        raise ValueError("Numerator b must be 1-D.")
    a = np.atleast_1d(_host(a))
    if a.ndim != 1:
        raise ValueError("Denominator a must be 1-D.")
    while len(a) > 1 and a[0] == 0.0:
        a = a[1:]
    if a.size < 1:
        raise ValueError("There must be at least one nonzero `a` coefficient.")
    if a[0] != 1.0:
        b, a = b / a[0], a / a[0]
    n = max(len(a), len(b))
    if n < 2:  # SciPy's companion matrix of a constant fails so
        raise ValueError("The length of `a` along the last axis must be at least 2.")
    a = np.concatenate([a, np.zeros(n - len(a), a.dtype)])
    b = np.concatenate([b, np.zeros(n - len(b), b.dtype)])
    dt = np.result_type(a, b)
    # the steady state of a unit step: (I - C^T) zi = b[1:] - a[1:] b[0]
    C = np.zeros((n - 1, n - 1), dtype=np.result_type(a.dtype, np.float64))
    if n > 1:
        C[0, :] = -a[1:] / a[0]
        C[np.arange(1, n - 1), np.arange(n - 2)] = 1
    return np.linalg.solve((np.eye(n - 1) - C.T).astype(dt), b[1:] - a[1:] * b[0])


def _lfilter_zi_1_18(b, a):
    """SciPy 1.18's lfilter_zi: b and a promoted to one floating dtype, a
    leading zero of a refused (no longer stripped), and the state summed
    from the step's final value y_inf instead of a linear solve:
    zi[k] = sum over j > k of (b[j] - y_inf a[j])."""
    b, a = (v if np.isscalar(v) else _host(v) for v in (b, a))
    dt = np.result_type(b, a, 1.0)
    b, a = np.atleast_1d(np.asarray(b, dt)), np.atleast_1d(np.asarray(a, dt))
    if not b.ndim == a.ndim == 1:
        raise ValueError("Numerator `b` and Denominator `a` must be 1-D arrays, "
                         f"but {b.shape = }, {a.shape = }!")
    if a[0] == 0:
        raise ValueError("First coefficient of parameter `a` must be non-zero!")
    if a[0] != 1:
        b, a = b / a[0], a / a[0]
    sum_a = a.sum()
    if sum_a == 0:
        raise ValueError("Filter not stable due to sum(a) == 0, i.e., having a pole at z = 1!")
    n = max(a.shape[0], b.shape[0])
    a = np.concatenate([a, np.zeros(n - a.shape[0], dt)])
    b = np.concatenate([b, np.zeros(n - b.shape[0], dt)])
    return np.cumsum((b - (b.sum() / sum_a) * a)[::-1])[::-1][1:]


def lfilter_zi(b, a):
    """The initial state of lfilter for the steady state of a unit step."""
    return gp.asarray(_lfilter_zi_host(b, a))


def _sos(sos):
    sos = np.atleast_2d(gp.asnumpy(gp.asarray(sos)))
    if sos.ndim != 2:
        raise ValueError("sos array must be 2D")
    if sos.shape[1] != 6:
        raise ValueError("sos array must be shape (n_sections, 6)")
    if not np.all(sos[:, 3] == 1):
        raise ValueError("sos[:, 3] should be all ones")
    return sos, sos.shape[0]


def _sosfilt_zi_host(sos):
    if sos.ndim != 2 or sos.shape[1] != 6:
        raise ValueError("sos must be shape (n_sections, 6)")
    if sos.dtype.kind in "biu":
        sos = sos.astype(np.float64)
    zi = np.empty((sos.shape[0], 2), dtype=sos.dtype)
    scale = 1.0
    for s in range(sos.shape[0]):
        b, a = sos[s, :3], sos[s, 3:]
        zi[s] = scale * _lfilter_zi_host(b, a)
        scale *= b.sum() / a.sum()
    return zi


def sosfilt_zi(sos):
    """The initial states of sosfilt for the steady state of a unit step."""
    return gp.asarray(_sosfilt_zi_host(_host(sos)))


def sosfilt(sos, x, axis=-1, zi=None):
    """Filter x along axis with the cascade of second-order sections sos
    (n_sections x 6), the whole cascade one chunked filter; returns y, or
    (y, zf) where the sections' initial states zi (n_sections, ..., 2, ...)
    are given."""
    return _sosfilt(sos, x, axis, zi, 0)


def _sosfilt(sos, x, axis, zi, rev):
    """sosfilt; rev as _lfilter's."""
    x = gp.asarray(x)
    if x.ndim == 0:
        raise ValueError("x must be at least 1-D")
    sos, ns = _sos(sos)
    dt = np.result_type(sos.dtype, x.dtype, *([gp.asarray(zi).dtype] if zi is not None else []))
    if dt.char not in _FLOATS:
        raise NotImplementedError(f"input type '{dt}' not supported")
    ax = _axis(x, axis)
    if x.shape[ax] == 0:  # SciPy's reshape of the signals to rows fails so
        raise ValueError(f"cannot reshape array of size {x.size} into shape (0)")
    want = (ns,) + x.shape[:ax] + (2,) + x.shape[ax + 1:]
    if zi is not None:
        zi = gp.asarray(zi).astype(dt)
        if zi.shape != want:
            raise ValueError(f"Invalid zi shape. With axis={axis!r}, an input with shape "
                             f"{x.shape!r}, and an sos array with {ns} sections, zi must have "
                             f"shape {want!r}, got {zi.shape!r}.")
    if x.size == 0:
        y = x.astype(dt)
        return y if zi is None else (y, zi)
    if np.iscomplexobj(sos) and np.any(sos.imag):
        return _sosfilt_complex(sos, x, ax, zi, dt, rev)
    NS = _pow2(ns)
    S = 2 * NS
    cf = np.tile(np.array([1.0, 0, 0, 1, 0, 0]), NS)
    cf[:6 * ns] = np.real(sos).astype(np.float64).reshape(-1)
    buf, outer, n, inner, post = _signals(x, ax, dt, "sos")
    z0 = None
    if zi is not None:  # (ns, outer, 2, post) -> (outer, ns * 2, post)
        Z = gp.moveaxis(zi.reshape(ns, outer, 2, post), 0, 1).reshape(outer, 2 * ns, post)
        z0 = _to_states(Z, "sos", S)
    yb, zf = _filter("sos", cf, S, buf, outer, n, inner, z0, rev)
    y = yb.view(dt).reshape(x.shape)
    if zi is None:
        return y
    Z = _from_states(zf, "sos", S, outer, 2 * ns, post, dt).reshape(outer, ns, 2, post)
    return y, gp.ascontiguousarray(gp.moveaxis(Z, 1, 0)).reshape(want)


def _sosfilt_complex(sos, x, ax, zi, dt, rev):
    """Complex sections: each section in turn through lfilter."""
    y = x.astype(dt)
    zf = []
    for s in range(sos.shape[0]):
        if zi is None:
            y = _lfilter(sos[s, :3], sos[s, 3:], y, ax, None, rev)
        else:
            y, z = _lfilter(sos[s, :3], sos[s, 3:], y, ax, zi[s], rev)
            zf.append(z)
    y = y.astype(dt)
    if zi is None:
        return y
    return y, gp.stack(zf).astype(dt)


def _ext(x, n, axis, kind):
    """x extended by n samples at each end along axis: 'odd' (point
    reflection about the end value), 'even' (mirror) or 'constant'."""
    if n < 1:
        return x
    if n > x.shape[axis] - 1:
        raise ValueError(f"The extension length n ({n}) is too big. It must not exceed "
                         f"x.shape[axis]-1, which is {x.shape[axis] - 1}.")

    def sl(start, stop, step=1):
        idx = [slice(None)] * x.ndim
        idx[axis] = slice(start, stop, step)
        return x[tuple(idx)]

    first, last = sl(0, 1), sl(-1, None)
    if kind == "constant":
        left = gp.broadcast_to(first, x.shape[:axis] + (n,) + x.shape[axis + 1:])
        right = gp.broadcast_to(last, left.shape)
        return gp.concatenate([left, x, right], axis=axis)
    left, right = sl(n, 0, -1), sl(-2, -(n + 2), -1)
    if kind == "odd":
        left, right = 2 * first - left, 2 * last - right
    return gp.concatenate([left, x, right], axis=axis)


def _pad(padtype, padlen, x, axis, ntaps):
    if padtype not in ("even", "odd", "constant", None):
        raise ValueError(f"Unknown value '{padtype}' given to padtype. padtype must be "
                         "'even', 'odd', 'constant', or None.")
    edge = 0 if padtype is None else (ntaps * 3 if padlen is None else padlen)
    if x.shape[axis] <= edge:
        raise ValueError("The length of the input vector x must be greater than padlen, "
                         f"which is {edge}.")
    ext = _ext(x, edge, axis, padtype) if padtype is not None and edge > 0 else x
    return edge, ext


def _crop(y, edge, axis):
    if edge <= 0:
        return y
    idx = [slice(None)] * y.ndim
    idx[axis] = slice(edge, -edge)
    return y[tuple(idx)]  # a view, as SciPy's


def _first(y, axis, last=False):
    idx = [slice(None)] * y.ndim
    idx[axis] = slice(-1, None) if last else slice(0, 1)
    return y[tuple(idx)]


def filtfilt(b, a, x, axis=-1, padtype="odd", padlen=None, method="pad", irlen=None):
    """Zero-phase filtering: lfilter forward then backward, from the steady
    state of the ends ('pad': the signal extended by padtype; 'gust':
    Gustafsson's initial conditions, which make the result equal forwards
    and backwards)."""
    b, a = np.atleast_1d(_host(b)), np.atleast_1d(_host(a))
    x = gp.asarray(x)
    if method not in ("pad", "gust"):
        raise ValueError("method must be 'pad' or 'gust'.")
    ax = _axis(x, axis)
    if method == "gust":
        return _filtfilt_gust(b, a, x, ax, irlen)
    edge, ext = _pad(padtype, padlen, x, ax, max(len(a), len(b)))
    zi = _lfilter_zi_host(b, a)
    shape = [1] * x.ndim
    shape[ax] = zi.size
    zi = gp.asarray(zi.reshape(shape))
    y, _ = _lfilter(b, a, ext, ax, zi * _first(ext, ax), 0)
    y, _ = _lfilter(b, a, y, ax, zi * _first(y, ax, last=True), 1)
    return _crop(y, edge, ax)


def sosfiltfilt(sos, x, axis=-1, padtype="odd", padlen=None):
    """Zero-phase filtering with second-order sections: sosfilt forward then
    backward, from the steady state of the padded ends."""
    sos, ns = _sos(sos)
    x = gp.asarray(x)
    if x.ndim == 0:
        raise ValueError("x must be at least 1-D")
    ax = _axis(x, axis)
    ntaps = 2 * ns + 1 - min(int((sos[:, 2] == 0).sum()), int((sos[:, 5] == 0).sum()))
    edge, ext = _pad(padtype, padlen, x, ax, ntaps)
    zi = _sosfilt_zi_host(sos)
    shape = [1] * x.ndim
    shape[ax] = 2
    zi = gp.asarray(zi.reshape([ns] + shape))
    y, _ = _sosfilt(sos, ext, ax, zi * _first(ext, ax), 0)
    y, _ = _sosfilt(sos, y, ax, zi * _first(y, ax, last=True), 1)
    return _crop(y, edge, ax)


def _filtfilt_gust(b, a, x, axis, irlen):
    """Gustafsson's method: the initial states of the forward and backward
    passes chosen by least squares so that filtering forwards-backwards and
    backwards-forwards agree. The m x 2p system (m: the signal, or irlen
    samples at each end) is built and pseudo-inverted on the host, and
    applied to every signal at once."""
    order = max(len(b), len(a)) - 1
    if order == 0:
        return (b[0] / a[0]) ** 2 * x
    if x.size == 0 and x.ndim > 1:
        # SciPy's least squares of no signals (or of signals of no samples)
        # fails in reshape or in LAPACK
        raise ValueError("cannot reshape array of size 0 into shape (0)" if x.shape[axis] == 0
                         else "illegal value in 4-th argument of internal None")
    xm = gp.moveaxis(x, axis, -1)
    n = xm.shape[-1]
    m = n if irlen is None or n <= 2 * irlen else irlen
    # the zero-input responses to each initial state (observability matrix)
    zi = np.zeros(order)
    zi[0] = 1
    obs = np.zeros((m, order))
    obs[:, 0] = gp.asnumpy(lfilter(b, a, gp.zeros(m), zi=gp.asarray(zi))[0])
    for k in range(1, order):
        obs[k:, k] = obs[:-k, 0]
    obsr = obs[::-1]
    S = gp.asnumpy(lfilter(b, a, gp.asarray(obs[::-1].copy()), axis=0))
    Sr = S[::-1]
    M = np.zeros((2 * m if m != n else m, 2 * order))
    W = np.zeros_like(M)
    if m == n:
        M[:, :order], M[:, order:] = Sr - obs, obsr - S
        W[:, :order], W[:, order:] = Sr, obsr
    else:
        M[:m, :order], M[m:, order:] = Sr - obs, obsr - S
        W[:m, :order], W[m:, order:] = Sr, obsr
    y_f = lfilter(b, a, xm)
    y_fb = _lfilter(b, a, y_f, -1, None, 1)
    y_b = _lfilter(b, a, xm, -1, None, 1)
    y_bf = lfilter(b, a, y_b)
    d = y_bf - y_fb
    if m != n:
        d = gp.concatenate([d[..., :m], d[..., n - m:]], axis=-1)
    ic = gp.matmul(d, gp.asarray(np.linalg.pinv(M).T.astype(d.dtype)))
    wic = gp.matmul(ic, gp.asarray(W.T.astype(d.dtype)))
    y = gp.array(y_fb, copy=True)
    if m == n:
        y = y + wic
    else:
        y[..., :m] = y[..., :m] + wic[..., :m]
        y[..., n - m:] = y[..., n - m:] + wic[..., m:]
    return gp.ascontiguousarray(gp.moveaxis(y, -1, axis))
