"""Convolution and correlation, N-d, by sliding windows (direct) or by
FFTs (gpunp.fft), with SciPy's modes, method choice and dtypes.

Every mode is the full result cropped about its centre, as SciPy's
definitions are; the direct method forms the full correlation as a
contraction of the padded input's sliding windows with the kernel, which is
the engine's product kernel (gpunp.correlate for one dimension)."""

from __future__ import annotations

import math
import warnings

import numpy as np

import gpunp as gp

_MODES = ("full", "same", "valid")


def _check_mode(mode):
    if mode not in _MODES:
        raise ValueError("Acceptable mode flags are 'valid', 'same', or 'full'.")


def _swap_needed(mode, s1, s2, axes=None):
    """Whether 'valid' mode must swap the inputs (in2 larger everywhere);
    an error where neither is at least as large as the other."""
    if mode != "valid" or not s1:
        return False
    axes = range(len(s1)) if axes is None else axes
    ok1 = all(s1[i] >= s2[i] for i in axes)
    ok2 = all(s2[i] >= s1[i] for i in axes)
    if not (ok1 or ok2):
        raise ValueError("For 'valid' mode, one must be at least as large as the other in "
                         "every dimension")
    return not ok1


def _centered(a, shape):
    start = [(n - m) // 2 for n, m in zip(a.shape, shape)]
    return a[tuple(slice(s, s + m) for s, m in zip(start, shape))]


def _crop(full, s1, s2, mode, axes):
    """The mode's part of a full result (axes: those convolved)."""
    if mode == "full":
        return full
    if mode == "same":
        return _centered(full, s1)
    shape = [s1[a] - s2[a] + 1 if a in axes else full.shape[a] for a in range(full.ndim)]
    return _centered(full, shape)


def _reverse_conj(x):
    x = gp.flip(x) if x.ndim else x
    return gp.conj(x) if x.dtype.kind == "c" else x


def _full_correlation(x, h):
    """sum_k x[j + k - (K - 1)] conj(h[k]) for every j of the full output."""
    dt = np.result_type(x.dtype, h.dtype)
    if x.ndim == 1:
        return gp.correlate(x.astype(dt, copy=False), h.astype(dt, copy=False), "full")
    hc = gp.conj(h) if h.dtype.kind == "c" else h
    xp = gp.pad(x.astype(dt, copy=False), [(k - 1, k - 1) for k in h.shape])
    win = gp.lib.stride_tricks.sliding_window_view(xp, h.shape)
    return gp.tensordot(win, hc.astype(dt, copy=False), axes=h.ndim)


def _prepare(in1, in2, names=("in1", "in2")):
    a, b = gp.asarray(in1), gp.asarray(in2)
    if a.ndim != b.ndim:
        raise ValueError(f"{names[0]} and {names[1]} should have the same dimensionality")
    return a, b


def correlate(in1, in2, mode="full", method="auto"):
    """Cross-correlation of two N-d arrays (in2 conjugated), of mode 'full',
    'same' (in1's shape) or 'valid', by 'direct' sums or 'fft'."""
    a, b = gp.asarray(in1), gp.asarray(in2)
    if a.ndim == b.ndim == 0:
        return a * (gp.conj(b) if b.dtype.kind == "c" else b)
    if a.ndim != b.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    _check_mode(mode)
    if method in ("fft", "auto"):
        return convolve(a, _reverse_conj(b), mode, method)
    if method != "direct":
        raise ValueError("Acceptable method flags are 'auto', 'direct', or 'fft'.")
    if _swap_needed(mode, a.shape, b.shape):
        return gp.ascontiguousarray(_reverse_conj(correlate(b, a, mode, "direct")))
    full = _full_correlation(a, b)
    return gp.ascontiguousarray(_crop(full, a.shape, b.shape, mode, range(a.ndim)))


def convolve(in1, in2, mode="full", method="auto"):
    """Convolution of two N-d arrays, of mode 'full', 'same' (in1's shape)
    or 'valid', by 'direct' sums, 'fft', or whichever 'auto' expects to be
    faster (choose_conv_method)."""
    a, b = gp.asarray(in1), gp.asarray(in2)
    if a.ndim == b.ndim == 0:
        return a * b
    if a.ndim != b.ndim:
        raise ValueError("volume and kernel should have the same dimensionality")
    _check_mode(mode)
    if _swap_needed(mode, a.shape, b.shape):
        a, b = b, a
    if method == "auto":
        method = choose_conv_method(a, b, mode=mode)
    if method == "fft":
        out = fftconvolve(a, b, mode=mode)
        rt = np.result_type(a.dtype, b.dtype)
        if rt.kind in "uib":
            out = gp.round(out)
        if out.size and not bool(gp.isfinite(out.reshape(-1)[0])):
            warnings.warn("Use of fft convolution on input with NAN or inf results in NAN "
                          "or inf output. Consider using method='direct' instead.",
                          RuntimeWarning, stacklevel=2)
        return out.astype(rt)
    if method == "direct":
        return correlate(a, _reverse_conj(b), mode, "direct")
    raise ValueError("Acceptable method flags are 'auto', 'direct', or 'fft'.")


def _conv_ops(s1, s2, mode):
    """SciPy's operation counts of the FFT and the direct method."""
    if mode == "full":
        out = [n + k - 1 for n, k in zip(s1, s2)]
    elif mode == "valid":
        out = [abs(n - k) + 1 for n, k in zip(s1, s2)]
    elif mode == "same":
        out = list(s1)
    else:
        raise ValueError(f"Acceptable mode flags are 'valid', 'same', or 'full', not "
                         f"mode={mode}")
    if len(s1) == 1:
        n, k = s1[0], s2[0]
        direct = {"full": n * k,
                  "valid": (k - n + 1) * n if k >= n else (n - k + 1) * k,
                  "same": n * k if n < k else n * k - (k // 2) * ((k + 1) // 2)}[mode]
    elif mode == "same":
        direct = math.prod(s1) * math.prod(s2)
    else:
        direct = min(math.prod(s1), math.prod(s2)) * math.prod(out)
    N = math.prod(n + k - 1 for n, k in zip(s1, s2))
    return 3 * N * np.log(N), direct


# SciPy's fitted cost constants (fft, direct, offset) of each mode
_COST_1D = {"valid": (1.89095737e-9, 2.1364985e-10), "full": (1.7649070e-9, 2.1414831e-10),
            "same": (3.2646654e-9, 2.8478277e-10)}
_COST_SAME_BIG_KERNEL = (3.21635404e-9, 1.1773253e-8, -1e-5)
_COST_ND = {"valid": (1.85927e-9, 2.11242e-8), "full": (1.99817e-9, 1.66174e-8),
            "same": (2.04735e-9, 1.55367e-8)}


def _fft_faster(s1, s2, mode):
    fft_ops, direct_ops = _conv_ops(s1, s2, mode)
    if len(s1) == 1:
        if mode == "same" and math.prod(s2) > math.prod(s1):
            cf, cd, off = _COST_SAME_BIG_KERNEL
        else:
            (cf, cd), off = _COST_1D[mode], -1e-3
    else:
        (cf, cd), off = _COST_ND[mode], -1e-4
    return cf * fft_ops < cd * direct_ops + off


def choose_conv_method(in1, in2, mode="full", measure=False):
    """'fft' or 'direct', by SciPy's cost model (or by timing both where
    measure is True, then also the times)."""
    a, b = gp.asarray(in1), gp.asarray(in2)
    if measure:
        import timeit
        times = {}
        for m in ("fft", "direct"):
            t = timeit.Timer(lambda: convolve(a, b, mode=mode, method=m))
            times[m] = min(t.repeat(3, 1))
        return ("fft" if times["fft"] < times["direct"] else "direct"), times
    if a.dtype.kind in "ui" or b.dtype.kind in "ui":
        # integers beyond float64's mantissa would come back rounded
        big = int(gp.max(gp.abs(a))) * int(gp.max(gp.abs(b))) * min(a.size, b.size)
        if big > 2 ** np.finfo(np.float64).nmant - 1:
            return "direct"
    if a.dtype.kind == "b" and b.dtype.kind == "b":
        return "direct"
    if a.dtype.kind in "buifc" and b.dtype.kind in "buifc" and _fft_faster(a.shape, b.shape,
                                                                              mode):
        return "fft"
    return "direct"


def _fast_len(n):
    """The least 2^a 3^b 5^c >= n (a length FFTs do quickly)."""
    best = 1 << max(n - 1, 0).bit_length()
    p5 = 1
    while p5 < best:
        p35 = p5
        while p35 < best:
            m = p35
            while m < n:
                m *= 2
            best = min(best, m)
            p35 *= 3
        p5 *= 5
    return best


def _freq_axes(a, b, mode, axes):
    if axes is None:
        ax = list(range(a.ndim))
    else:
        ax = [axes] if np.ndim(axes) == 0 else list(axes)
        if not ax:
            raise ValueError("when provided, axes cannot be empty")
        ax = [int(x) for x in ax]
        if any(x < -a.ndim or x >= a.ndim for x in ax):
            raise ValueError("axes exceeds dimensionality of input")
        ax = [x % a.ndim for x in ax]
        if len(set(ax)) != len(ax):
            raise ValueError("all axes must be unique")
    s1, s2 = a.shape, b.shape
    ax = [x for x in ax if s1[x] != 1 and s2[x] != 1]
    if not all(s1[i] == s2[i] or s1[i] == 1 or s2[i] == 1
               for i in range(a.ndim) if i not in ax):
        raise ValueError(f"incompatible shapes for in1 and in2: {s1} and {s2}")
    if _swap_needed(mode, s1, s2, axes=ax):
        a, b = b, a
    return a, b, ax


def _fft_full(a, b, ax, shape):
    """The full linear convolution over axes ax (broadcast elsewhere)."""
    if not ax:
        return a * b
    cplx = a.dtype.kind == "c" or b.dtype.kind == "c"
    # both in the wider precision (integers in float64): a float32 input
    # transformed in single precision would cost a float64 result its digits
    dt = np.result_type(*(x.dtype if x.dtype.kind in "fc" else np.float64 for x in (a, b)))
    a, b = a.astype(dt, copy=False), b.astype(dt, copy=False)
    fshape = [_fast_len(shape[i]) for i in ax]
    if cplx:
        r = gp.fft.ifftn(gp.fft.fftn(a, fshape, axes=ax) * gp.fft.fftn(b, fshape, axes=ax),
                         fshape, axes=ax)
    else:
        r = gp.fft.irfftn(gp.fft.rfftn(a, fshape, axes=ax) * gp.fft.rfftn(b, fshape, axes=ax),
                          fshape, axes=ax)
    return r[tuple(slice(n) for n in shape)]


def fftconvolve(in1, in2, mode="full", axes=None):
    """Convolution by FFTs over axes (all by default; the others broadcast),
    of mode 'full', 'same' or 'valid'."""
    a, b = gp.asarray(in1), gp.asarray(in2)
    if a.ndim == b.ndim == 0:
        return a * b
    if a.ndim != b.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    if a.size == 0 or b.size == 0:
        return gp.asarray(np.array([]))
    a, b, ax = _freq_axes(a, b, mode, axes)
    s1, s2 = a.shape, b.shape
    shape = [s1[i] + s2[i] - 1 if i in ax else max(s1[i], s2[i]) for i in range(a.ndim)]
    full = _fft_full(a, b, ax, shape)
    if mode not in _MODES:
        raise ValueError("acceptable mode flags are 'valid', 'same', or 'full'")
    return gp.ascontiguousarray(_crop(full, s1, s2, mode, ax))


def _oa_block(n, k):
    """An overlap-add block length for a signal of n and a kernel of k: the
    block of the least FFT work per output sample, as SciPy picks it."""
    if k >= n or n <= 2 * k:
        return None
    overlap = k - 1
    opt = 2 * overlap if overlap else 2
    # the FFT length where (block FFTs) cost per output is least, from
    # FFT work ~ L log L over L - overlap outputs
    best, best_cost = None, math.inf
    L = _fast_len(max(opt, 2))
    while L <= 8 * _fast_len(n + k - 1):
        step = L - overlap
        if step > 0:
            cost = L * math.log2(L) / step
            if cost < best_cost:
                best, best_cost = L, cost
        L = _fast_len(L + 1)
    if best is None or best >= n + k - 1:
        return None
    return best - overlap


def oaconvolve(in1, in2, mode="full", axes=None):
    """Convolution by overlap-add: the signal is cut into blocks along each
    axis, each block is convolved by FFTs of a short length, and the
    overlapping tails are summed. For a long signal and a short kernel this
    does less work than one long FFT; otherwise it is fftconvolve."""
    a, b = gp.asarray(in1), gp.asarray(in2)
    if a.ndim == b.ndim == 0:
        return a * b
    if a.ndim != b.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    if a.size == 0 or b.size == 0:
        return gp.asarray(np.array([]))
    if a.shape == b.shape:
        return fftconvolve(a, b, mode=mode, axes=axes)
    a, b, ax = _freq_axes(a, b, mode, axes)
    if mode not in _MODES:
        raise ValueError("acceptable mode flags are 'valid', 'same', or 'full'")
    s1, s2 = a.shape, b.shape
    shape = [s1[i] + s2[i] - 1 if i in ax else max(s1[i], s2[i]) for i in range(a.ndim)]
    blocked = [(i, _oa_block(s1[i], s2[i])) for i in ax]
    blocked = [(i, step) for i, step in blocked if step is not None]
    if not blocked:
        return gp.ascontiguousarray(_crop(_fft_full(a, b, ax, shape), s1, s2, mode, ax))
    # one axis is cut into blocks of `step` (a new batch axis before it);
    # the other convolved axes are transformed whole
    i, step = blocked[0]
    n, k = s1[i], s2[i]
    nb = -(-n // step)
    xs = gp.moveaxis(a, i, -1)
    xs = gp.pad(xs, [(0, 0)] * (xs.ndim - 1) + [(0, nb * step - n)])
    xs = xs.reshape(xs.shape[:-1] + (nb, step))
    ks = gp.moveaxis(b, i, -1)
    ks = ks.reshape(ks.shape[:-1] + (1, k))
    others = [j - (j > i) for j in ax if j != i]  # their places once axis i is last
    seg_shape = [xs.shape[j] + ks.shape[j] - 1 if j in others else max(xs.shape[j], ks.shape[j])
                 for j in range(xs.ndim - 2)]
    segs = _fft_full(xs, ks, others + [xs.ndim - 1], seg_shape + [nb, step + k - 1])
    # overlap-add: block j's output starts at j * step; its tail (k - 1 <
    # step samples) lands on the next block
    outlen = nb * step + k - 1
    out = gp.zeros(segs.shape[:-2] + (outlen,), dtype=segs.dtype)
    head = segs[..., :step]
    out[..., :nb * step] = head.reshape(head.shape[:-2] + (nb * step,))
    if k > 1:
        tail = gp.pad(segs[..., step:], [(0, 0)] * (segs.ndim - 1) + [(0, step - (k - 1))])
        tail = tail.reshape(tail.shape[:-2] + (nb * step,))
        out[..., step:] = out[..., step:] + tail[..., :outlen - step]
    res = gp.moveaxis(out[..., :n + k - 1], -1, i)
    return gp.ascontiguousarray(_crop(res, s1, s2, mode, ax))


def correlation_lags(in1_len, in2_len, mode="full"):
    """The lag of each index of a 1-d correlation's output."""
    if mode == "full":
        lags = np.arange(-in2_len + 1, in1_len)
    elif mode == "same":
        lags = np.arange(-in2_len + 1, in1_len)
        mid, half = lags.size // 2, in1_len // 2
        lags = lags[mid - half:mid + half + (in1_len % 2)]
    elif mode == "valid":
        d = in1_len - in2_len
        lags = np.arange(d + 1) if d >= 0 else np.arange(d, 1)
    else:
        raise ValueError(f"Mode {mode} is invalid")
    return gp.asarray(lags)


def _check_2d(in1, in2, mode, boundary, fillvalue, name):
    a, b = gp.asarray(in1), gp.asarray(in2)
    if not a.ndim == b.ndim == 2:
        raise ValueError(f"{name} inputs must both be 2-D arrays")
    _check_mode(mode)
    if boundary not in ("fill", "pad", "wrap", "circular", "symm", "symmetric"):
        raise ValueError("Acceptable boundary flags are 'fill', 'circular' (or 'wrap'), and "
                         "'symmetric' (or 'symm').")
    if np.ndim(fillvalue) != 0:
        if np.size(fillvalue) != 1:
            raise ValueError("`fillvalue` must be scalar or an array with one element.")
    return a, b


_PAD_MODE = {"fill": "constant", "pad": "constant", "wrap": "wrap", "circular": "wrap",
             "symm": "symmetric", "symmetric": "symmetric"}


def _corr2d(a, b, mode, boundary, fillvalue, late=False):
    """The 2-d correlation with the boundary extended as SciPy's 2-d
    routines extend it (the full output reaches k - 1 beyond each edge).
    late: 'same' starts at k // 2 of the full output, as SciPy's correlate2d
    does, rather than at (k - 1) // 2 as its convolve2d does."""
    if _swap_needed(mode, a.shape, b.shape):
        a, b = b, a
        swapped = True
    else:
        swapped = False
    dt = np.result_type(a.dtype, b.dtype)
    pads = [(k - 1, k - 1) for k in b.shape]
    x = a.astype(dt, copy=False)
    pm = _PAD_MODE[boundary]
    if pm == "constant":
        fv = np.asarray(fillvalue).reshape(()).item()
        x = gp.pad(x, pads, mode="constant", constant_values=fv)
    else:
        x = _pad_periodic(x, pads, pm)
    hc = gp.conj(b) if b.dtype.kind == "c" else b
    win = gp.lib.stride_tricks.sliding_window_view(x, b.shape)
    full = gp.tensordot(win, hc.astype(dt, copy=False), axes=2)
    if mode == "same" and late:
        out = full[tuple(slice(k // 2, k // 2 + n) for n, k in zip(a.shape, b.shape))]
    else:
        out = _crop(full, a.shape, b.shape, mode, (0, 1))
    return gp.ascontiguousarray(out), swapped


def _pad_periodic(x, pads, mode):
    """NumPy's wrap / symmetric padding, repeated where the pad is longer
    than the axis (as SciPy's boundary handling wraps again)."""
    for ax, (lo, hi) in enumerate(pads):
        n = x.shape[ax]
        if n == 0:
            continue
        if mode == "wrap":
            idx = np.arange(-lo, n + hi) % n
        else:
            j = np.arange(-lo, n + hi) % (2 * n)
            idx = np.where(j < n, j, 2 * n - 1 - j)
        x = gp.take(x, gp.asarray(idx), axis=ax)
    return x


def correlate2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """2-d cross-correlation with a boundary: 'fill' (with fillvalue),
    'wrap' (periodic) or 'symm' (mirrored)."""
    a, b = _check_2d(in1, in2, mode, boundary, fillvalue, "correlate2d")
    out, swapped = _corr2d(a, b, mode, boundary, fillvalue, late=True)
    if swapped:  # SciPy reverses the swapped result without conjugating it
        out = gp.ascontiguousarray(gp.flip(out))
    return out


def convolve2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """2-d convolution with a boundary: 'fill' (with fillvalue), 'wrap'
    (periodic) or 'symm' (mirrored)."""
    a, b = _check_2d(in1, in2, mode, boundary, fillvalue, "convolve2d")
    if _swap_needed(mode, a.shape, b.shape):
        a, b = b, a
    out, _ = _corr2d(a, _reverse_conj(b), mode, boundary, fillvalue)
    return out
