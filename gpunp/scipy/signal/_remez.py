"""Parks-McClellan equiripple FIR design (scipy.signal.remez): a small
design computation on the host with NumPy.

The problem is SciPy's own (the same dense frequency grid, desired
response and weights, and the same starting extremal frequencies), so the
optimum found is SciPy's. The exchange itself is written over the whole
grid at once: each iteration solves for the levelled deviation on the
current extremal set, evaluates the weighted error everywhere by the
barycentric formula, and takes the next set from the error's alternating
local extrema."""

from __future__ import annotations

import numpy as np

import gpunp as gp

from ._design import _validate_fs

_TYPES = {"bandpass": 1, "differentiator": 2, "hilbert": 3}


def _dense_grid(numtaps, edges, desired, weight, kind, density):
    """The grid (cycles per sample), desired values and weights of the
    equivalent cosine-series problem, and its number of cosines."""
    neg = kind != 1
    odd = numtaps % 2 == 1
    nfcns = numtaps // 2 + (1 if odd and not neg else 0)
    delf = 0.5 / (density * nfcns)
    limit = density * int(np.ceil(numtaps / 2.0 + 2))  # SciPy's work size
    grid, band = [], []
    start = edges[0]
    if neg and start < delf:
        start = delf  # the response of an antisymmetric filter is 0 at f = 0
    for b in range(len(desired)):
        lo, hi = (start if b == 0 else edges[2 * b]), edges[2 * b + 1]
        f = lo
        pts = []
        while True:  # by repeated addition, as SciPy's grid is built
            pts.append(f)
            if len(grid) + len(pts) >= limit:
                raise ValueError("Failure to converge at iteration -1, try reducing transition "
                                 "band width.\n")
            f = f + delf
            if not f <= hi:
                break
        pts[-1] = hi
        grid += pts
        band += [b] * len(pts)
    grid, band = np.array(grid), np.array(band)
    if neg == odd and grid[-1] > 0.5 - delf:
        grid, band = grid[:-1], band[:-1]
    if len(grid) < nfcns + 1:
        raise ValueError("Band edges are too close together to build the dense frequency grid: "
                         f"it has only {len(grid)} point(s) but at least {nfcns + 1} (one per "
                         "extremal frequency) are required. Widen the bands, reduce numtaps, "
                         "or increase grid_density.")
    des, wt = desired[band].astype(float), weight[band].astype(float)
    if kind == 2:
        des = des * grid
        wt = np.where(desired[band] >= 1e-4, wt / grid, wt)
    # the filter's response is a cosine series times a fixed factor by type
    if not neg and not odd:
        factor = np.cos(np.pi * grid)
    elif neg and not odd:
        factor = np.sin(np.pi * grid)
    elif neg:
        factor = np.sin(2 * np.pi * grid)
    else:
        factor = np.ones_like(grid)
    return grid, des / factor, wt * factor, nfcns


def _bary_weights(x):
    """Barycentric weights 1 / prod_{i != j} (x_j - x_i), scaled (only their
    ratios matter) so that long products neither overflow nor vanish."""
    d = x[:, None] - x[None, :]
    np.fill_diagonal(d, 1.0)
    logs = np.sum(np.log(np.abs(d)), axis=1)
    sign = np.prod(np.sign(d), axis=1)
    return sign * np.exp(-(logs - logs.min()))


def _interp(xq, x, y, w):
    """The polynomial through (x, y) of barycentric weights w at xq."""
    diff = xq[:, None] - x[None, :]
    exact = diff == 0
    diff[exact] = 1.0
    c = w / diff
    p = (c @ y) / c.sum(axis=1)
    hit = exact.any(axis=1)
    p[hit] = y[np.argmax(exact[hit], axis=1)]
    return p


def _extrema(err, dev, ext):
    """Indices of the alternating extrema of err with |err| >= dev: its
    local extrema and the current extremal set (which alternates at |err| =
    dev, so at least as many are found), runs of one sign reduced to their
    largest."""
    left = np.r_[-np.inf, err[:-1]]
    right = np.r_[err[1:], -np.inf]
    up = (err >= left) & (err >= right) & (err > 0)
    left = np.r_[np.inf, err[:-1]]
    right = np.r_[err[1:], np.inf]
    down = (err <= left) & (err <= right) & (err < 0)
    idx = np.union1d(np.flatnonzero((up | down) & (np.abs(err) >= dev)), ext)
    keep = []
    for i in idx:
        if keep and np.sign(err[keep[-1]]) == np.sign(err[i]):
            if abs(err[i]) > abs(err[keep[-1]]):
                keep[-1] = i
        else:
            keep.append(i)
    return keep


def _thin(ext, err, nz):
    """Drop extrema until nz remain, keeping the alternation: an end one if
    one too many, else the smallest (its neighbours, of one sign, merged)."""
    ext = list(ext)
    while len(ext) > nz:
        mag = np.abs(err[ext])
        if len(ext) - nz == 1:
            ext.pop(0 if mag[0] < mag[-1] else -1)
            continue
        k = int(np.argmin(mag))
        if k in (0, len(ext) - 1):
            ext.pop(k)
            continue
        a, b = ext[k - 1], ext[k + 1]
        ext[k - 1:k + 2] = [a if abs(err[a]) >= abs(err[b]) else b]
    return ext


def _exchange(grid, des, wt, nfcns, maxiter):
    """The Remez exchange on the grid: the best cosine series (its values at
    the final extremal frequencies, and those frequencies' x = cos 2 pi f)."""
    nz = nfcns + 1
    x = np.cos(2 * np.pi * grid)
    step = (len(grid) - 1) / nfcns
    ext = [int(j * step) for j in range(nfcns)] + [len(grid) - 1]
    best = -1.0
    for it in range(1, maxiter + 1):
        xe = x[ext]
        w = _bary_weights(xe)
        alt = (-1.0) ** np.arange(nz)
        dev = np.sum(w * des[ext]) / np.sum(alt * w / wt[ext])
        nu = -1.0 if dev > 0 else 1.0
        dev = abs(dev)
        y = des[ext] + nu * alt * dev / wt[ext]
        if dev <= best:
            raise ValueError(f"Failure to converge at iteration {it}, try reducing transition "
                             "band width.\n")
        best = dev
        err = (_interp(x, xe, y, w) - des) * wt
        new = _thin(_extrema(err, dev, ext), err, nz)
        if len(new) < nz or new == ext:
            break
        ext = new
    # past maxiter, the last series solved for (as SciPy's)
    return xe, y, w


def _cosine_coeffs(xe, y, w, nfcns, grid, full_band):
    """The coefficients a_k of the series sum a_k cos(2 pi k f) through the
    extremal values: sampled at the 2 nfcns - 1 point DFT's frequencies
    (mapped into the grid's range when the bands leave part of [0, 1/2]
    uncovered, so that the polynomial is never extrapolated) and
    transformed back."""
    cn = 2 * nfcns - 1
    t = np.cos(2 * np.pi * np.arange(nfcns) / cn)
    mapped = not (full_band or nfcns <= 3)
    if mapped:
        hi, lo = np.cos(2 * np.pi * grid[0]), np.cos(2 * np.pi * grid[-1])
        xs = lo + (t + 1) * (hi - lo) / 2
    else:
        xs = t
    v = _interp(xs, xe, y, w)
    # SciPy takes an extremal value as is within 1e-6 of its abscissa
    near = np.abs(xs[:, None] - xe[None, :])
    snap = near.min(axis=1) < 1e-6
    v[snap] = y[np.argmin(near[snap], axis=1)]
    k = np.arange(nfcns)
    c = 2.0 / cn * (v[0] + 2 * np.cos(2 * np.pi * np.outer(k, k[1:]) / cn) @ v[1:])
    c[0] /= 2
    if mapped:
        # Chebyshev coefficients in the mapped variable, made ones in x
        c = np.polynomial.Chebyshev(c, domain=[lo, hi]).convert(domain=[-1, 1]).coef
        c = np.r_[c, np.zeros(nfcns - len(c))][:nfcns]
    return c


def _taps(a, numtaps, kind):
    """The impulse response whose amplitude is the cosine series a times
    the type's factor (1, cos(pi f), sin(2 pi f) or sin(pi f))."""
    nfcns = len(a)
    neg, odd = kind != 1, numtaps % 2 == 1
    ap = np.r_[a, 0.0, 0.0]
    m = np.arange(1, nfcns + 1)
    if not neg and odd:
        side = ap[1:nfcns] / 2  # cos(2 pi m f), m = 1..nfcns-1
        return np.r_[side[::-1], ap[0], side]
    if not neg:
        b = (ap[m - 1] + ap[m]) / 2
        b[0] = ap[0] + ap[1] / 2
        half = b[::-1] / 2
        return np.r_[half, half[::-1]]
    if odd:
        c = (ap[m - 1] - ap[m + 1]) / 2
        c[0] = ap[0] - ap[2] / 2
        half = c[::-1] / 2
        return np.r_[half, 0.0, -half[::-1]]
    d = (ap[m - 1] - ap[m]) / 2
    d[0] = ap[0] - ap[1] / 2
    half = d[::-1] / 2
    return np.r_[half, -half[::-1]]


def remez(numtaps, bands, desired, *, weight=None, type="bandpass", maxiter=25, grid_density=16,
          fs=None):
    """The minimax (equiripple) FIR filter of numtaps taps for the desired
    gain (or slope, for a differentiator) in each band, by the Remez
    exchange algorithm (Parks-McClellan)."""
    def host(v):
        return np.asarray(gp.asnumpy(v) if isinstance(v, gp.ndarray) else v, dtype=float)

    bands, desired = host(bands).ravel().copy(), host(desired).ravel()
    fs = _validate_fs(fs, allow_none=True)
    fs = 1.0 if fs is None else fs
    if type not in _TYPES:
        raise ValueError("Type must be 'bandpass', 'differentiator', or 'hilbert'")
    kind = _TYPES[type]
    weight = np.ones(len(desired)) if weight is None else host(weight).ravel()
    numtaps = int(numtaps)
    if numtaps < 2:
        raise ValueError("The number of taps must be greater than 1.")
    if len(bands) != 2 * len(desired) or len(weight) != len(desired):
        raise ValueError("The inputs desired and weight must have same length.\n  The input "
                         "bands must have twice this length.")
    prev = 0.0
    for b in bands:
        if b < prev:
            raise ValueError("Bands must be monotonic starting at zero.")
        if b * 2 > fs:
            raise ValueError("Band edges should be less than 1/2 the sampling frequency")
        prev = b
    edges = bands / fs
    grid, des, wt, nfcns = _dense_grid(numtaps, edges, desired, weight, kind, grid_density)
    xe, y, w = _exchange(grid, des, wt, nfcns, maxiter)
    full = edges[0] == 0.0 and edges[-1] == 0.5
    a = _cosine_coeffs(xe, y, w, nfcns, grid, full)
    return gp.asarray(_taps(a, numtaps, kind))
