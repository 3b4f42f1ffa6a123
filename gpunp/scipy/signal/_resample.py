"""Rate changes and FFT-based transforms: upfirdn (upsample, FIR filter,
downsample), resample_poly, resample (Fourier), decimate, hilbert,
hilbert2, detrend and deconvolve, over gpunp's FFTs and products."""

from __future__ import annotations

import math
import operator

import numpy as np

import gpunp as gp

from ._convolve import convolve, fftconvolve
from ._fir import _firwin_host
from ._lfilter import lfilter, sosfilt, sosfiltfilt
from .windows._windows import get_window

_UPFIRDN_MODES = ("constant", "wrap", "edge", "smooth", "symmetric", "reflect",
                  "antisymmetric", "antireflect", "line")


def _output_len(len_h, n, up, down):
    return ((n - 1) * up + len_h - 1) // down + 1


def _extend(x, lo, hi, mode, cval):
    """x (signal on the last axis) extended by lo samples before and hi
    after, by one of upfirdn's modes."""
    n = x.shape[-1]
    if lo == 0 and hi == 0:
        return x
    k = np.arange(-lo, n + hi)
    if mode == "constant" or n == 0:
        padw = [(0, 0)] * (x.ndim - 1) + [(lo, hi)]
        return gp.pad(x, padw, mode="constant", constant_values=cval)
    if mode in ("wrap", "edge", "symmetric", "reflect", "antisymmetric", "antireflect"):
        if mode == "wrap":
            idx = k % n
        elif mode == "edge":
            idx = np.clip(k, 0, n - 1)
        elif mode in ("symmetric", "antisymmetric"):
            j = k % (2 * n)
            idx = np.where(j < n, j, 2 * n - 1 - j)
        else:
            period = max(2 * n - 2, 1)
            j = k % period
            idx = np.where(j < n, j, period - j) if n > 1 else np.zeros_like(k)
        out = gp.take(x, gp.asarray(idx), axis=-1)
        rdt = np.zeros(0, x.dtype).real.dtype  # factors of x's precision
        if mode == "antisymmetric":
            # each mirror image flips sign: odd periods of 2n negated
            sign = np.where((k // n) % 2 == 0, 1.0, -1.0)
            out = out * gp.asarray(sign.astype(rdt))
        elif mode == "antireflect" and n > 1:
            # point reflections about each end, repeated: over a period of
            # 2 (n - 1) the signal rises by 2 (x[n-1] - x[0]); within it the
            # second half is the first reflected about x[n-1]
            period = 2 * (n - 1)
            q, r = np.divmod(k, period)
            second = gp.asarray((r >= n).astype(rdt))
            base = out * (1 - 2 * second) + 2 * x[..., n - 1:] * second
            out = base + gp.asarray(q.astype(rdt)) * (2 * (x[..., n - 1:] - x[..., :1]))
        return out
    # smooth: the slope of the two end samples; line: the line through the ends
    first, last = x[..., :1], x[..., n - 1:]
    if mode == "smooth":
        s0 = (x[..., 1:2] - first) if n > 1 else gp.zeros_like(first)
        s1 = (last - x[..., n - 2:n - 1]) if n > 1 else gp.zeros_like(first)
    else:  # one sample has no line through its ends: 0 / 0, as SciPy's
        with gp.errstate(divide="ignore", invalid="ignore"):
            s0 = s1 = (last - first) / float(n - 1) if n > 1 else (last - first) * math.nan
    rdt = np.zeros(0, x.dtype).real.dtype
    kl = gp.asarray(np.arange(-lo, 0).astype(rdt))
    kr = gp.asarray(np.arange(1, hi + 1).astype(rdt))
    return gp.concatenate([first + kl * s0, x, last + kr * s1], axis=-1)


def upfirdn(h, x, up=1, down=1, axis=-1, mode="constant", cval=0):
    """Upsample x by up (zeros between samples), filter with the FIR h, keep
    every down-th sample; the signal is extended past its ends by mode."""
    hh = np.asarray(gp.asnumpy(gp.asarray(h)))
    if hh.ndim != 1 or hh.size == 0:
        raise ValueError("h must be 1-D with non-zero length")
    x = gp.asarray(x)
    dt = np.result_type(hh.dtype, x.dtype, np.float32)
    up, down = int(up), int(down)
    if up < 1 or down < 1:
        raise ValueError("Both up and down must be >= 1")
    mode = mode.lower()
    if mode not in _UPFIRDN_MODES:
        raise ValueError(f"Unknown mode: {mode}")
    if x.ndim == 0:
        raise ValueError("x must be at least 1-D")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {x.ndim}")
    xm = gp.moveaxis(x.astype(dt), axis, -1)
    n, L = xm.shape[-1], len(hh)
    nout = _output_len(L, n, up, down)
    e = -(-(L - 1) // up)  # input samples the filter reaches past each end
    ext = _extend(xm, e, e, mode, cval)
    m = ext.shape[-1]
    z = gp.zeros(ext.shape[:-1] + (m * up,), dtype=dt)
    z[..., ::up] = ext
    hg = gp.asarray(hh.astype(dt))
    if L <= 64:
        zp = gp.pad(z, [(0, 0)] * (z.ndim - 1) + [(L - 1, 0)])
        full = gp.matmul(gp.lib.stride_tricks.sliding_window_view(zp, L, axis=-1),
                         hg[::-1])
    else:
        full = fftconvolve(z, hg.reshape((1,) * (z.ndim - 1) + (L,)), axes=-1)
    start = e * up
    y = full[..., start:start + (nout - 1) * down + 1:down]
    return gp.ascontiguousarray(gp.moveaxis(y, -1, axis))


def resample_poly(x, up, down, axis=0, window=("kaiser", 5.0), padtype="constant",
                  cval=None):
    """Resample x by up / down along axis: upsample, a lowpass FIR (a
    windowed sinc, or the given one), downsample (upfirdn)."""
    x = gp.asarray(x)
    if up != int(up):
        raise ValueError("up must be an integer")
    if down != int(down):
        raise ValueError("down must be an integer")
    up, down = int(up), int(down)
    if up < 1 or down < 1:
        raise ValueError("up and down must be >= 1")
    if cval is not None and padtype != "constant":
        raise ValueError("cval has no effect when padtype is ", padtype)
    g = math.gcd(up, down)
    up, down = up // g, down // g
    if up == down == 1:
        return x.copy()
    n_in = x.shape[axis]
    n_out = -(-n_in * up // down)
    if isinstance(window, (list, np.ndarray, gp.ndarray)):
        h = np.array(gp.asnumpy(gp.asarray(window)))
        if h.ndim > 1:
            raise ValueError("window must be 1-D")
        half = (h.size - 1) // 2
    else:
        rate = max(up, down)
        half = 10 * rate
        h = _firwin_host(2 * half + 1, 1.0 / rate, window=window)
        if x.dtype.kind in "fc":
            h = h.astype(x.dtype)
    h = h * up
    pre = down - half % down
    post = 0
    pre_remove = (half + pre) // down
    while _output_len(len(h) + pre + post, n_in, up, down) < n_out + pre_remove:
        post += 1
    h = np.concatenate([np.zeros(pre, h.dtype), h, np.zeros(post, h.dtype)])
    funcs = {"mean": gp.mean, "median": gp.median, "minimum": gp.min, "maximum": gp.max}
    kw = {"mode": "constant", "cval": 0}
    background = None
    if padtype in funcs:
        background = funcs[padtype](x, axis=axis, keepdims=True)
        x = x - background
    elif padtype in _UPFIRDN_MODES:
        kw = {"mode": padtype, "cval": 0 if cval is None else cval}
    else:
        raise ValueError("padtype must be one of: maximum, mean, median, minimum, "
                         + ", ".join(_UPFIRDN_MODES))
    y = upfirdn(h, x, up, down, axis=axis, **kw)
    keep = [slice(None)] * x.ndim
    keep[axis] = slice(pre_remove, pre_remove + n_out)
    y = y[tuple(keep)]
    if background is not None:
        y = y + background
    return gp.ascontiguousarray(y)


def resample(x, num, t=None, axis=0, window=None, domain="time"):
    """Resample x to num samples along axis by cropping or zero-padding its
    Fourier transform (x periodic), optionally windowed in frequency."""
    if domain not in ("time", "freq"):
        raise ValueError(f"Parameter {domain=} not in ('time', 'freq')!")
    x = gp.asarray(x)
    if x.ndim > 1:
        x = gp.moveaxis(x, axis, -1)
    n = x.shape[-1]
    s_fac = n / num
    m = min(num, n)
    m2 = m // 2 + 1
    if window is None:
        W = None
    elif callable(window):
        W = gp.asarray(window(np.fft.fftfreq(n)))
    elif hasattr(window, "shape"):
        if window.shape != (n,):
            raise ValueError(f"{window.shape=} != ({n},), i.e., window length is not equal "
                             "to number of frequency bins!")
        W = gp.array(window, copy=True)
    else:
        W = gp.fft.fftshift(get_window(window, n)).astype(np.float64)
    if domain == "time" and x.dtype.kind != "c":
        X = gp.fft.rfft(x)
        if W is not None:
            nX = X.shape[-1]
            # fold the two-sided window onto the one-sided spectrum
            W = gp.array(W, copy=True)
            W[1:nX] = (W[1:nX] + gp.flip(W[n - nX + 1:])) / 2
            X = X * W[:nX].astype(X.real.dtype)  # in place in SciPy: X's dtype stays
        X = gp.array(X[..., :m2], copy=True)
        if m % 2 == 0 and num != n:  # the unpaired bin at m // 2
            X[..., m // 2] = X[..., m // 2] * (2 if num < n else 0.5)
        y = gp.fft.irfft(X / s_fac, n=num)
    else:
        X = gp.fft.fft(x) if domain == "time" else x
        if W is not None:
            X = X * W
        Y = gp.zeros(X.shape[:-1] + (num,), dtype=X.dtype)
        Y[..., :m2] = X[..., :m2]
        if m2 < m:
            Y[..., m2 - m:] = X[..., m2 - m:]
        if m % 2 == 0:
            if num < n:
                Y[..., -m // 2] = Y[..., -m // 2] + X[..., -m // 2]
            elif n < num:
                Y[..., m // 2] = Y[..., m // 2] / 2
                Y[..., num - m // 2] = Y[..., m // 2]
        y = gp.fft.ifft(Y / s_fac, n=num)
    if y.ndim > 1:
        y = gp.moveaxis(y, -1, axis)
    y = gp.ascontiguousarray(y)
    if t is not None:
        t = gp.asarray(t)
        return y, t[0] + (t[1] - t[0]) * s_fac * gp.arange(num)
    return y


def decimate(x, q, n=None, ftype="iir", axis=-1, zero_phase=True):
    """Downsample x by q after an anti-aliasing filter: a Chebyshev I IIR of
    order n (8) at 0.8 / q, or a Hamming-windowed FIR of n + 1 taps."""
    from ._design import _cheby1_sos
    x = gp.asarray(x)
    q = operator.index(q)
    if n is not None:
        n = operator.index(n)
    rt = x.dtype if x.dtype.kind in "fc" and x.dtype != np.float16 else np.dtype(np.float64)
    sl = [slice(None)] * x.ndim
    if ftype == "fir":
        n = 20 * q if n is None else n
        b, a = _firwin_host(n + 1, 1.0 / q, window="hamming").astype(rt), np.ones(1, rt)
    elif ftype == "iir":
        sos = _cheby1_sos(8 if n is None else n, 0.05, 0.8 / q).astype(rt)
    else:  # SciPy also takes a dlti system here; gpunp has no dlti yet
        raise ValueError("invalid ftype")
    if ftype == "fir":
        b = b / a
        if zero_phase:
            y = resample_poly(x, 1, q, axis=axis, window=b)
        else:
            n_out = -(-x.shape[axis] // q)
            y = upfirdn(b, x, up=1, down=q, axis=axis)
            sl[axis] = slice(None, n_out, None)
    else:
        y = sosfiltfilt(sos, x, axis=axis) if zero_phase else sosfilt(sos, x, axis=axis)
        sl[axis] = slice(None, None, q)
    return gp.ascontiguousarray(y[tuple(sl)])


def hilbert(x, N=None, axis=-1):
    """The analytic signal of real x along axis: its FFT with the negative
    frequencies zeroed and the positive ones doubled, transformed back."""
    x = gp.asarray(x)
    if x.dtype.kind == "c":
        raise ValueError("x must be real.")
    if N is None:
        N = x.shape[axis]
    if N <= 0:
        raise ValueError("N must be positive.")
    X = gp.fft.fft(x, N, axis=axis)
    h = np.zeros(N, dtype=X.real.dtype)
    h[0] = 1
    if N % 2 == 0:
        h[N // 2] = 1
        h[1:N // 2] = 2
    else:
        h[1:(N + 1) // 2] = 2
    shape = [1] * x.ndim
    shape[axis] = N
    return gp.fft.ifft(X * gp.asarray(h.reshape(shape)), axis=axis)


def hilbert2(x, N=None, axes=(-2, -1)):
    """The 2-d analytic signal of real x over two axes (the quadrant of
    non-negative frequencies, doubled along each axis)."""
    x = gp.asarray(x)
    while x.ndim < 2:
        x = x[None]
    if x.dtype.kind == "c":
        raise ValueError("x must be real.")
    if len(axes) != 2:
        raise ValueError("axes must be a tuple of length 2")
    if axes[0] == axes[1]:
        raise ValueError("axes must contain 2 distinct axes")
    if N is None:
        N = (x.shape[axes[0]], x.shape[axes[1]])
    elif isinstance(N, int):
        if N <= 0:
            raise ValueError("N must be positive.")
        N = (N, N)
    elif len(N) != 2 or np.any(np.asarray(N) <= 0):
        raise ValueError("When given as a tuple, N must hold exactly two positive integers")
    X = gp.fft.fft2(x, N, axes=axes)
    h = []
    for n in N:
        k = (n + 1) // 2
        v = np.zeros(n)
        v[0] = 1
        v[1:k] = 2
        h.append(v)
    shape0 = [1] * x.ndim
    shape1 = [1] * x.ndim
    shape0[axes[0]], shape1[axes[1]] = N[0], N[1]
    w = gp.asarray(h[0].reshape(shape0) * h[1].reshape(shape1)).astype(X.real.dtype)
    return gp.fft.ifft2(X * w, axes=axes)


def detrend(data, axis=-1, type="linear", bp=0, overwrite_data=False):
    """data less its mean ('constant') or less its least-squares line on each
    piece between the breakpoints bp ('linear')."""
    if type not in ("linear", "l", "constant", "c"):
        raise ValueError("Trend type must be 'linear' or 'constant'.")
    data = gp.asarray(data)
    dt = data.dtype if data.dtype.char in "dfDF" else np.dtype(np.float64)
    if type in ("constant", "c"):
        return data - gp.mean(data, axis, keepdims=True).astype(dt)
    N = data.shape[axis]
    bps = np.sort(np.unique(np.concatenate([[0], np.atleast_1d(bp), [N]]))).astype(np.int64)
    if np.any(bps > N):
        raise ValueError("Breakpoints must be less than length of data along given axis.")
    d = gp.moveaxis(data.astype(dt), axis, -1)
    pieces = []
    for lo, hi in zip(bps[:-1], bps[1:]):
        npts = int(hi - lo)
        seg = d[..., lo:hi]
        if npts == 0:
            continue
        A = np.ones((npts, 2))
        A[:, 0] = np.arange(1, npts + 1) / npts
        # the same least squares for every column: its projector on the host
        fit = A @ np.linalg.pinv(A)
        pieces.append(seg - gp.matmul(seg, gp.asarray(fit.T.astype(dt))))
    out = gp.concatenate(pieces, axis=-1) if pieces else d
    return gp.ascontiguousarray(gp.moveaxis(out, -1, axis))


def deconvolve(signal, divisor):
    """The quotient and remainder of polynomial division: signal =
    convolve(divisor, quotient) + remainder."""
    num = gp.asarray(signal)
    den = gp.asarray(divisor)
    num = num.reshape(1) if num.ndim == 0 else num
    den = den.reshape(1) if den.ndim == 0 else den
    if not (num.ndim == 1 and num.size > 0):
        raise ValueError(f"Parameter signal must be non-empty 1d array, but its shape is "
                         f"{num.shape}!")
    if not (den.ndim == 1 and den.size > 0):
        raise ValueError(f"Parameter divisor must be non-empty 1d array, but its shape is "
                         f"{den.shape}!")
    N, D = num.shape[0], den.shape[0]
    if D > N:
        return gp.asarray(np.array([])), num
    impulse = np.zeros(N - D + 1)
    impulse[0] = 1
    quot = lfilter(gp.asnumpy(num), gp.asnumpy(den), gp.asarray(impulse))
    return quot, num - convolve(den, quot, mode="full")


def envelope(z, bp_in=(1, None), *, n_out=None, squared=False, residual="lowpass", axis=-1):
    """The envelope of z along axis (the magnitude of the analytic signal of
    the band bp_in of Fourier bins, resampled to n_out) and, unless residual
    is None, what is left of the signal outside the band ('lowpass': below
    it only)."""
    z = gp.asarray(z)
    if not -z.ndim <= axis < z.ndim:
        raise ValueError(f"Invalid parameter {axis=} for {z.shape=}!")
    if not z.shape[axis] > 0:
        raise ValueError(f"z.shape[axis] not > 0 for {z.shape=}, {axis=}!")
    if len(bp_in) != 2 or not all(isinstance(b, int) or b is None for b in bp_in):
        raise ValueError(f"{bp_in=} isn't a 2-tuple of type (int | None, int | None)!")
    if not ((isinstance(n_out, int) and 0 < n_out) or n_out is None):
        raise ValueError(f"{n_out=} is not a positive integer or None!")
    if residual not in ("lowpass", "all", None):
        raise ValueError(f"{residual=} not in ['lowpass', 'all', None]!")
    n = z.shape[axis]
    n_out = n if n_out is None else n_out
    fak = n_out / n
    lo = bp_in[0] if bp_in[0] is not None else -(n // 2)
    hi = bp_in[1] if bp_in[1] is not None else (n + 1) // 2
    if not -n // 2 <= lo < hi <= (n + 1) // 2:
        raise ValueError("`-n//2 <= bp_in[0] < bp_in[1] <= (n+1)//2` does not hold for "
                         f"n={z.shape[axis]=} and {bp_in=}!")
    bp = slice(lo, hi)
    zm = gp.moveaxis(z, axis, -1)
    if zm.dtype.kind == "c":
        Z = gp.array(gp.fft.fft(zm), copy=True)
    else:  # the negative frequencies of a real signal stay zero
        half = gp.fft.rfft(zm)
        Z = gp.zeros(zm.shape, dtype=half.dtype)
        Z[..., :n // 2 + 1] = half
        if lo > 0:  # analytic within the band
            Z[..., bp] = Z[..., bp] * 2
        elif hi > 0:
            Z[..., 1:hi] = Z[..., 1:hi] * 2
    if not lo <= 0 < hi:  # the band's baseband (the envelope ignores shifts)
        bb = gp.fft.ifft(Z[..., bp], n=n_out) * fak
    else:
        bb = gp.fft.ifft(gp.fft.fftshift(Z, axes=-1)[..., lo + n // 2:hi + n // 2],
                         n=n_out) * fak
    env = gp.abs(bb) if not squared else bb.real ** 2 + bb.imag ** 2
    env = gp.moveaxis(env, -1, axis)
    if residual is None:
        return gp.ascontiguousarray(env)
    if not lo <= 0 < hi:
        Z[..., bp] = 0
    else:
        Z[..., :hi] = 0
        Z[..., n + lo if lo < 0 else lo:] = 0
    if residual == "lowpass":
        if hi > 0:
            Z[..., hi:(n + 1) // 2] = 0
        else:
            Z[..., n + lo if lo < 0 else lo:] = 0
            Z[..., 0:(n + 1) // 2] = 0
    if zm.dtype.kind == "c":
        res = resample(Z, n_out, axis=-1, domain="freq")
    else:
        m = min(n, n_out)
        if n_out != n and m % 2 == 0:  # the unpaired bin at m // 2
            Z[..., m // 2] = Z[..., m // 2] * (2 if n_out < n else 0.5)
        res = fak * gp.fft.irfft(Z, n=n_out)
    return gp.stack((env, gp.moveaxis(res, -1, axis)), axis=0)
