"""Smoothing filters: Savitzky-Golay (a least-squares polynomial fit in a
sliding window, which is one FIR filter), and the rank filters (median,
order statistics) and the local Wiener filter over N-d windows."""

from __future__ import annotations

import math
import warnings

import numpy as np

import gpunp as gp

from ._convolve import correlate


def _savgol_host(window_length, polyorder, deriv=0, delta=1.0, pos=None, use="conv"):
    if polyorder >= window_length:
        raise ValueError("polyorder must be less than window_length.")
    half, rem = divmod(window_length, 2)
    if pos is None:
        pos = half - 0.5 if rem == 0 else half
    if not 0 <= pos < window_length:
        raise ValueError("pos must be nonnegative and less than window_length.")
    if use not in ("conv", "dot"):
        raise ValueError("`use` must be 'conv' or 'dot'")
    if deriv > polyorder:
        return np.zeros(window_length)
    x = np.arange(-pos, window_length - pos, dtype=np.float64)
    if use == "conv":
        x = x[::-1]
    A = x ** np.arange(polyorder + 1, dtype=np.float64).reshape(-1, 1)
    y = np.zeros(polyorder + 1)
    y[deriv] = math.factorial(deriv) / delta ** deriv
    # the minimum-norm solution of A c = y: the coefficients that take the
    # deriv-th derivative of the window's fitted polynomial at pos
    return np.linalg.lstsq(A, y, rcond=None)[0]


def savgol_coeffs(window_length, polyorder, deriv=0, delta=1.0, pos=None, use="conv"):
    """The FIR coefficients of a Savitzky-Golay filter."""
    return gp.asarray(_savgol_host(window_length, polyorder, deriv, delta, pos, use))


# ndimage's boundary modes as indices into the signal
def _boundary_index(n, lo, hi, mode):
    k = np.arange(-lo, n + hi)
    if mode == "wrap":
        return k % n
    if mode == "nearest":
        return np.clip(k, 0, n - 1)
    if mode == "mirror":  # reflected about the end samples, not repeating them
        if n == 1:
            return np.zeros_like(k)
        period = 2 * n - 2
        j = k % period
        return np.where(j < n, j, period - j)
    raise AssertionError(mode)


def _polyfit_edge(x, start, stop, lo, hi, polyorder, deriv, delta):
    """Values at lo..hi (indices into x's last axis) of the derivative of the
    least-squares polynomial of x[start:stop]: one projector from the host
    applied to every signal."""
    n = stop - start
    t = np.arange(n, dtype=np.float64)
    V = np.vander(t, polyorder + 1)  # highest power first
    fit = np.linalg.pinv(V)  # coefficients = fit @ samples
    # derivative of the polynomial evaluated at the wanted points
    pts = np.arange(lo, hi, dtype=np.float64) - start
    powers = np.arange(polyorder, -1, -1)
    D = np.zeros((len(pts), polyorder + 1))
    for j, pw in enumerate(powers):
        if pw >= deriv:
            D[:, j] = (math.factorial(pw) / math.factorial(pw - deriv)) * pts ** (pw - deriv)
    M = (D @ fit) / delta ** deriv  # (points, window)
    seg = x[..., start:stop]
    return gp.matmul(seg, gp.asarray(M.T.astype(x.dtype)))


def savgol_filter(x, window_length, polyorder, deriv=0, delta=1.0, axis=-1, mode="interp",
                  cval=0.0):
    """x smoothed (or differentiated) by a Savitzky-Golay filter along axis;
    'interp' fits the polynomial to the end windows, the other modes extend
    the signal as scipy.ndimage does."""
    if mode not in ("mirror", "constant", "nearest", "interp", "wrap"):
        raise ValueError("mode must be 'mirror', 'constant', 'nearest' 'wrap' or 'interp'.")
    x = gp.asarray(x)
    if x.dtype not in (np.float64, np.float32):
        x = x.astype(np.float64)
    c = _savgol_host(window_length, polyorder, deriv=deriv, delta=delta)
    xm = gp.moveaxis(x, axis, -1)
    n = xm.shape[-1]
    L = window_length
    if mode == "interp" and L > n:
        raise ValueError("If mode is 'interp', window_length must be less than or equal to "
                         "the size of x.")
    # convolve1d's alignment: output i is sum_j c[j] x[i + L // 2 - j]
    lo, hi = L - 1 - L // 2, L // 2
    if mode in ("constant", "interp"):
        ext = gp.pad(xm, [(0, 0)] * (xm.ndim - 1) + [(lo, hi)], mode="constant",
                     constant_values=0.0 if mode == "interp" else cval)
    else:
        ext = gp.take(xm, gp.asarray(_boundary_index(n, lo, hi, mode)), axis=-1)
    win = gp.lib.stride_tricks.sliding_window_view(ext, L, axis=-1)
    y = gp.matmul(win, gp.asarray(c[::-1].copy().astype(x.dtype)))
    if mode == "interp" and n:
        half = L // 2
        y[..., :half] = _polyfit_edge(xm, 0, L, 0, half, polyorder, deriv, delta)
        y[..., n - half:] = _polyfit_edge(xm, n - L, n, n - half, n, polyorder, deriv, delta)
    return gp.ascontiguousarray(gp.moveaxis(y, -1, axis))


def _rank_filter(a, rank, footprint):
    """The rank-th smallest of each window (the footprint's True cells,
    centred), the array extended by zeros as SciPy's rank filters extend it."""
    fp = np.asarray(footprint, dtype=bool)
    ext = gp.pad(a, [(k // 2, k - 1 - k // 2) for k in fp.shape], mode="constant")
    win = gp.lib.stride_tricks.sliding_window_view(ext, fp.shape)
    win = win.reshape(a.shape + (fp.size,))
    idx = np.flatnonzero(fp.ravel())
    if len(idx) != fp.size:
        win = gp.take(win, gp.asarray(idx), axis=-1)
    s = gp.sort(win, axis=-1)
    return gp.ascontiguousarray(s[..., rank])


def order_filter(a, domain, rank):
    """The rank-th order statistic over the True cells of domain (odd in every
    dimension) about each element, zeros beyond the edges."""
    domain = np.asarray(gp.asnumpy(gp.asarray(domain)))
    for d in domain.shape:
        if d % 2 != 1:
            raise ValueError("Each dimension of domain argument should have an odd number "
                             "of elements.")
    a = gp.asarray(a)
    if not (a.dtype.kind in "iu" or a.dtype in (np.float32, np.float64)):
        raise ValueError(f"dtype={a.dtype} is not supported by order_filter")
    if domain.ndim != a.ndim:
        raise RuntimeError("footprint array has incorrect shape.")
    n = int(np.count_nonzero(domain))
    if rank < 0:
        rank += n
    if not 0 <= rank < n:
        raise RuntimeError("rank not within filter footprint size")
    return _rank_filter(a, rank, domain != 0)


def medfilt(volume, kernel_size=None):
    """The median of each kernel_size window (odd sizes), zeros beyond the
    edges."""
    v = gp.asarray(volume)
    if v.ndim == 0:
        v = v.reshape(1)
    if not (v.dtype.kind in "iu" or v.dtype in (np.float32, np.float64)):
        raise ValueError(f"dtype={v.dtype} is not supported by medfilt")
    ks = [3] * v.ndim if kernel_size is None else kernel_size
    ks = np.asarray(ks)
    if ks.shape == ():
        ks = np.repeat(ks, v.ndim)
    for k in ks:
        if k % 2 != 1:
            raise ValueError("Each element of kernel_size should be odd.")
    if len(ks) != v.ndim:
        raise RuntimeError("size array has incorrect shape.")
    if any(k > s for k, s in zip(ks, v.shape)):
        warnings.warn("kernel_size exceeds volume extent: the volume will be zero-padded.",
                      stacklevel=2)
    size = int(np.prod(ks))
    return _rank_filter(v, size // 2, np.ones(tuple(int(k) for k in ks), bool))


def medfilt2d(input, kernel_size=3):
    """The median of each kernel_size window of a 2-d array, zeros beyond the
    edges."""
    image = gp.asarray(input)
    ks = [3, 3] if kernel_size is None else kernel_size
    ks = np.asarray(ks)
    if ks.shape == ():
        ks = np.repeat(ks.item(), 2)
    for k in ks:
        if k % 2 != 1:
            raise ValueError("Each element of kernel_size should be odd.")
    if image.dtype.type not in (np.ubyte, np.float32, np.float64):
        return medfilt(image, kernel_size)
    if image.ndim != 2:
        raise ValueError("object of too small depth for desired array" if image.ndim < 2
                         else "object too deep for desired array")
    return _rank_filter(image, int(np.prod(ks)) // 2, np.ones(tuple(int(k) for k in ks), bool))


def wiener(im, mysize=None, noise=None):
    """The local Wiener filter: each element pulled towards its window's
    mean by the ratio of the noise power to the window's variance."""
    im = gp.asarray(im)
    if mysize is None:
        mysize = [3] * im.ndim
    if np.ndim(mysize) == 0:
        mysize = [mysize] * im.ndim
    size = math.prod(mysize)
    ones = gp.ones(tuple(mysize))
    mean = correlate(im, ones, "same") / float(size)
    var = correlate(im ** 2, ones, "same") / float(size) - mean ** 2
    if noise is None:
        noise = gp.mean(var.reshape(-1), axis=0)
    with gp.errstate(divide="ignore", invalid="ignore"):
        res = (im - mean) * (1 - noise / var) + mean
    return gp.where(var < noise, mean, res)
