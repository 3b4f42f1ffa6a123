"""One-dimensional signal routines: correlate, convolve (a matrix-vector
product over a strided view of sliding windows, so the work is the
engine's product kernel or BLAS), interp and digitize (searchsorted, then
elementwise operations in NumPy's order)."""

from __future__ import annotations

import functools

import numpy

from gpunp._comparisons import clip
from gpunp._creation import _array, empty, zeros
from gpunp._indexing import take, where
from gpunp._joining import concatenate
from gpunp._lib import lib
from gpunp._ndarray import _new, ndarray
from gpunp._products import matmul
from gpunp._reduction import any as _any, argmax
from gpunp._sorting import argsort, searchsorted
from gpunp._ufunc import UFUNCS

_MODES = {"v": 0, "s": 1, "f": 2}
_F64, _C128 = numpy.dtype(numpy.float64), numpy.dtype(numpy.complex128)
_equal, _not_equal, _or, _and = (UFUNCS[n] for n in ("equal", "not_equal", "logical_or",
                                                      "logical_and"))


def _mode(mode) -> int:
    if isinstance(mode, str):
        return _MODES[mode.lower()[0]]
    m = int(mode)
    if m not in (0, 1, 2):
        raise ValueError(f"mode must be 0, 1, or 2, not {mode!r}")
    return m


def _one_d(x, what) -> ndarray:
    x = _array(x)
    if x.ndim == 0:
        x = x.reshape(1)
    if x.ndim != 1:
        raise ValueError("object too deep for desired array")
    if x.size == 0:
        raise ValueError(f"{what} cannot be empty")
    return x


def _windows(x: ndarray, m: int, count: int, start: int) -> ndarray:
    """The view x[start + j : start + j + m] for j < count, as rows."""
    s = x.strides[0]
    return _new(lib.gp_array_as_strided, x._h, -1, 2, (count, m), (s, s), start * s)


def _correlate_core(x: ndarray, y: ndarray, mode: int) -> ndarray:
    """sum_i x[j + i] * y[i] for len(x) >= len(y), the windows of NumPy's
    modes: valid (inside), same (len(x), centred), full (every overlap)."""
    dt = numpy.result_type(x.dtype, y.dtype)
    x, y = x.astype(dt, copy=False), y.astype(dt, copy=False)
    n1, n2 = len(x), len(y)
    pad = zeros(n2 - 1, dt)
    xp = concatenate([pad, x, pad]) if n2 > 1 else x.copy()
    if mode == 0:
        count, start = n1 - n2 + 1, n2 - 1
    elif mode == 1:
        count, start = n1, n2 - 1 - n2 // 2
    else:
        count, start = n1 + n2 - 1, 0
    return matmul(_windows(xp, n2, count, start), y)


def _conj(x: ndarray) -> ndarray:
    if x.dtype.kind != "c":
        return x
    return UFUNCS["conjugate"](x)


def correlate(a, v, mode="valid") -> ndarray:
    """Cross-correlation of two 1-d sequences, c[k] = sum_n a[n+k] * conj(v[n])
    (numpy.correlate): modes valid, same, full."""
    m = _mode(mode)
    a, v = _one_d(a, "a"), _one_d(v, "v")
    v = _conj(v)
    if len(a) >= len(v):
        return _correlate_core(a, v, m)
    return _correlate_core(v, a, m)[::-1].copy()  # NumPy's order for a shorter a


def convolve(a, v, mode="full") -> ndarray:
    """Discrete linear convolution of two 1-d sequences (numpy.convolve):
    modes full, same, valid."""
    a, v = _array(a), _array(v)
    a = a.reshape(1) if a.ndim == 0 else a
    v = v.reshape(1) if v.ndim == 0 else v
    if len(v) > len(a):
        a, v = v, a
    if len(a) == 0:
        raise ValueError("a cannot be empty")
    if len(v) == 0:
        raise ValueError("v cannot be empty")
    a, v = _one_d(a, "a"), _one_d(v, "v")
    return _correlate_core(a, v[::-1], _mode(mode))


def _interp_real(x, xp, fp, j, n, left, right):
    """NumPy's interpolation of real values fp at x (x already float64),
    with j = the index of the interval (searchsorted right - 1)."""
    lval = take(fp, 0) if left is None else left
    rval = take(fp, n - 1) if right is None else right
    if n == 1:
        x0 = take(xp, 0)
        return where(x < x0, lval, where(x > x0, rval, take(fp, 0)))
    jc = clip(j, 0, n - 2)
    x0, x1 = take(xp, jc), take(xp, jc + 1)
    y0, y1 = take(fp, jc), take(fp, jc + 1)
    slope = (y1 - y0) / (x1 - x0)
    r = slope * (x - x0) + y0
    r = where(_not_equal(r, r), slope * (x - x1) + y1, r)
    r = where(_and(_not_equal(r, r), _equal(y0, y1)), y0, r)
    r = where(_equal(x0, x), y0, r)  # no interpolation on a sample point
    r = where(_equal(j, n - 1), take(fp, n - 1), r)
    r = where(_equal(j, -1), lval, r)
    r = where(UFUNCS["greater"](x, take(xp, n - 1)), rval, r)
    return where(_not_equal(x, x), x, r)


@functools.cache
def _interp_allows_no_samples() -> bool:
    """Whether the running NumPy interpolates no points on no samples (2.5
    does, to an empty result; 2.4 raises)."""
    try:
        numpy.interp([], [], [])
    except ValueError:
        return False
    return True


def interp(x, xp, fp, left=None, right=None, period=None):
    """One-dimensional piecewise linear interpolation (numpy.interp): float64
    (complex128 for complex fp), left/right values, a period."""
    x, xp, fp = _array(x), _array(xp), _array(fp)
    cplx = fp.dtype.kind == "c"
    fp = fp.astype(_C128 if cplx else _F64)
    if xp.dtype.kind == "c" or x.dtype.kind == "c":
        raise TypeError("Cannot cast array data from dtype('complex128') to dtype('float64') "
                        "according to the rule 'safe'")
    x, xp = x.astype(_F64), xp.astype(_F64)
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("object too deep for desired array" if max(xp.ndim, fp.ndim) > 1
                         else "object of too small depth for desired array")
    if len(xp) != len(fp):
        raise ValueError("fp and xp are not of the same length.")
    if len(xp) == 0 and (x.size != 0 or not _interp_allows_no_samples()):
        raise ValueError("array of sample points is empty")
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        x, xp = x % period, xp % period
        order = argsort(xp)
        xp, fp = xp[order], fp[order]
        xp = concatenate([xp[-1:] - period, xp, xp[0:1] + period])
        fp = concatenate([fp[-1:], fp, fp[0:1]])
    if x.size == 0:
        return empty(x.shape, fp.dtype)
    n = len(xp)
    j = searchsorted(xp, x, side="right") - 1
    if not cplx:
        return _interp_real(x, xp, fp, j, n, left, right)
    out = empty(x.shape, _C128)
    lo = None if left is None else complex(left)
    hi = None if right is None else complex(right)
    out.real[...] = _interp_real(x, xp, fp.real, j, n, None if lo is None else lo.real,
                                 None if hi is None else hi.real)
    out.imag[...] = _interp_real(x, xp, fp.imag, j, n, None if lo is None else lo.imag,
                                 None if hi is None else hi.imag)
    return out


def _monotonicity(bins: ndarray) -> int:
    """1 for non-decreasing bins, -1 for non-increasing, 0 otherwise, as
    NumPy decides it: the first element unlike the first sets the direction,
    then no step may go against it (a comparison with NaN never does)."""
    if bins.ndim != 1:
        raise ValueError("object too deep for desired array" if bins.ndim > 1 else
                         "object of too small depth for desired array")
    if len(bins) < 2:
        return 1
    differs = _not_equal(bins[1:], bins[0])
    if not bool(_any(differs)):
        return 1
    nxt = bins[int(argmax(differs)) + 1]
    if bool(bins[0] <= nxt):
        return 0 if bool(_any(bins[:-1] > bins[1:])) else 1
    # NumPy takes anything else (a NaN there too) as decreasing
    return 0 if bool(_any(bins[:-1] < bins[1:])) else -1


def digitize(x, bins, right=False) -> ndarray:
    """The index of the bin each value falls in (numpy.digitize), for
    increasing or decreasing bins."""
    x, bins = _array(x), _array(bins)
    if x.dtype.kind == "c":
        raise TypeError("x may not be complex")
    mono = _monotonicity(bins)
    if mono == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"
    if mono == -1:
        return len(bins) - searchsorted(bins[::-1], x, side=side)
    return searchsorted(bins, x, side=side)
