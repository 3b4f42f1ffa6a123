"""IIR filtering as a parallel scan over the signal.

A filter b/a (a[0] = 1, order p) is a FIR part v = b * x followed by the
all-pole recurrence y[n] = v[n] - sum_k a[k] y[n - k]. The all-pole part is
the cascade of first-order recurrences y[n] = u[n] + r y[n - 1], one for
each root r of a (computed on the host; complex for conjugate pairs), and
each is a blocked scan (_scan_root): blocks of 64 samples filtered by one
matrix product, then the values carried between blocks, a recurrence 64
times shorter solved the same way. Every step works on the whole signal,
every channel and block at once.

Why roots and not the companion matrix of a (the textbook state space):
its powers C^d, formed by squaring, carry rounding errors of the size of
|C|^d, which for a direct-form filter of order 8 overflow float64 before
d reaches 2^14; a root's powers r^d are as accurate as r. The cascade is
the exact product of the computed roots' factors, and np.roots is backward
stable, so the result is the filter of coefficients within rounding of a.

SciPy's initial and final conditions (transposed direct form II) do not
depend on the form: zi[n] adds to v[n] for n < p, and the final state is a
fixed p x p combination of the last p inputs and outputs."""

from __future__ import annotations

import numpy as np

import gpunp as gp
from gpunp.scipy._version import scipy_version

_FLOATS = "fdgFDG"


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


_BLOCK = 64  # samples a block of the scan: one L x L product per block


def _scan_root(u, r):
    """y[n] = u[n] + r y[n - 1] along the last axis, y[-1] = 0.

    Blocks of L samples are filtered on their own by one product with the
    L x L lower-triangular matrix of powers r^(i - j); the blocks' last
    values are then a recurrence of ratio r^L over the blocks (solved the
    same way, L times shorter), and each block adds r^(i + 1) times the
    value carried into it. log_L(N) levels, each a product and an
    elementwise update over the whole signal."""
    n = u.shape[-1]
    L = min(_BLOCK, max(n, 1))
    B = -(-n // L)
    cdt = u.dtype
    k = np.arange(L)
    powers = np.asarray(r, dtype=np.complex128 if cdt.kind == "c" else np.float64) ** k
    T = np.where(k[:, None] >= k[None, :], powers[np.abs(k[:, None] - k[None, :])], 0)
    U = gp.pad(u, [(0, 0)] * (u.ndim - 1) + [(0, B * L - n)]) if B * L != n else u
    Y = gp.matmul(U.reshape(u.shape[:-1] + (B, L)), gp.asarray(T.T.astype(cdt)))
    if B > 1:
        carry = _scan_root(gp.ascontiguousarray(Y[..., L - 1]), powers[-1] * r)
        g = gp.asarray((powers * r).astype(cdt))
        Y[..., 1:, :] = Y[..., 1:, :] + carry[..., :-1, None] * g
    return Y.reshape(u.shape[:-1] + (B * L,))[..., :n]


def _allpole(v, a, dt):
    """The recurrence y[n] = v[n] - sum_k a[k] y[n - k] (a[0] = 1) along
    the last axis, as a cascade of one scan per root of a."""
    roots = np.roots(a)
    real = dt.kind == "f" and not np.iscomplexobj(a)
    # double precision throughout, single-precision signals too: the roots of
    # a high-order a rounded to float32 move the filter far more than a's
    # coefficients rounded to float32 (which is all SciPy's loop suffers)
    wide = np.float64 if dt.kind == "f" else np.complex128
    cdt = np.dtype(np.complex128)
    y = v.astype(cdt) if np.iscomplexobj(roots) else gp.array(v, dtype=wide)
    for r in roots:
        rc = complex(r) if cdt.kind == "c" and y.dtype.kind == "c" else float(np.real(r))
        y = _scan_root(y, rc)
    if real and y.dtype.kind == "c":
        y = y.real
    return y.astype(dt)


def _fir(x, b, dt):
    """sum_k b[k] x[n - k] along the last axis (x before 0 is zero)."""
    k = len(b)
    if x.shape[-1] == 0:
        return gp.zeros(x.shape, dtype=dt)
    if k == 1:
        return x.astype(dt) * gp.asarray(b.astype(dt))[0]
    xp = gp.pad(x.astype(dt), [(0, 0)] * (x.ndim - 1) + [(k - 1, 0)])
    win = gp.lib.stride_tricks.sliding_window_view(xp, k, axis=-1)
    return gp.matmul(win, gp.asarray(np.ascontiguousarray(b[::-1]).astype(dt)))


def _tail(x, p):
    """The last p samples along the last axis, zeros in front where the
    signal is shorter."""
    n = x.shape[-1]
    if n >= p:
        return x[..., n - p:]
    return gp.pad(x, [(0, 0)] * (x.ndim - 1) + [(p - n, 0)])


def _final_state(b, a, xt, yt, zi, n, dt):
    """zf[k] = sum_{m > k} (b[m] x[N + k - m] - a[m] y[N + k - m]) plus the
    initial state not yet shifted out (zi[N + k]); xt, yt: the last p
    inputs and outputs along the last axis."""
    p = len(a) - 1
    i = np.arange(p)
    m = p + i[:, None] - i[None, :]  # coefficient index of row k, tail slot i
    ok = i[None, :] >= i[:, None]
    Tb = np.where(ok, b[np.clip(m, 0, p)], 0)
    Ta = np.where(ok, a[np.clip(m, 0, p)], 0)
    zf = gp.matmul(xt, gp.asarray(Tb.T.astype(dt))) - gp.matmul(yt, gp.asarray(Ta.T.astype(dt)))
    if zi is not None and n < p:
        zf[..., :p - n] = zf[..., :p - n] + zi[..., n:]
    return zf


def lfilter(b, a, x, axis=-1, zi=None):
    """Filter x along axis with the rational transfer function b / a
    (SciPy's direct form II transposed, initial state zi); returns y, or
    (y, zf) where zi is given."""
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
    cd = np.result_type(b.dtype, a.dtype, np.float64 if dt.kind == "f" else np.complex128)
    with np.errstate(divide="ignore", invalid="ignore"):
        bn = np.zeros(p + 1, cd)
        bn[:len(b)] = b / a[0]
        an = np.zeros(p + 1, cd)
        an[:len(a)] = a / a[0]
    xm = gp.moveaxis(x, axis, -1)
    n = xm.shape[-1]
    zim = None
    if zi is not None:
        zim = gp.moveaxis(_zi_for(zi, x, axis, p, dt), axis, -1)
    v = _fir(xm, bn, dt)
    if zim is not None and p and n:
        q = min(p, n)
        v[..., :q] = v[..., :q] + zim[..., :q]
    ym = _allpole(v, an[:len(a)], dt) if len(a) > 1 else v
    y = gp.ascontiguousarray(gp.moveaxis(ym.astype(dt), -1, axis))
    if zi is None:
        return y
    if p == 0:
        return y, gp.moveaxis(zim, -1, axis)
    zf = _final_state(bn, an, _tail(xm.astype(dt), p), _tail(ym, p), zim, n, dt)
    return y, gp.ascontiguousarray(gp.moveaxis(zf.astype(dt), -1, axis))


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
    (n_sections x 6), each section a scan; returns y, or (y, zf) where the
    sections' initial states zi (n_sections, ..., 2, ...) are given."""
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
    y = x.astype(dt)
    zf = []
    for s in range(ns):
        if zi is None:
            y = lfilter(sos[s, :3], sos[s, 3:], y, axis=ax)
        else:
            y, z = lfilter(sos[s, :3], sos[s, 3:], y, axis=ax, zi=zi[s])
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
    return gp.ascontiguousarray(y[tuple(idx)])


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
    y, _ = lfilter(b, a, ext, axis=ax, zi=zi * _first(ext, ax))
    y, _ = lfilter(b, a, gp.flip(y, axis=ax), axis=ax, zi=zi * _first(y, ax, last=True))
    return _crop(gp.flip(y, axis=ax), edge, ax)


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
    y, _ = sosfilt(sos, ext, axis=ax, zi=zi * _first(ext, ax))
    y, _ = sosfilt(sos, gp.flip(y, axis=ax), axis=ax, zi=zi * _first(y, ax, last=True))
    return _crop(gp.flip(y, axis=ax), edge, ax)


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
    y_fb = gp.flip(lfilter(b, a, gp.flip(y_f, axis=-1)), axis=-1)
    y_b = gp.flip(lfilter(b, a, gp.flip(xm, axis=-1)), axis=-1)
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
