"""scipy.special's ``diric`` (the periodic sinc, elementwise on the device)
and ``bernoulli`` and ``euler`` (tables of numbers, which SciPy computes on
the host too: here exactly, as Python rationals and integers, rounded once
to doubles, and handed over as gpunp arrays)."""

import functools
import math
from fractions import Fraction

import numpy

import gpunp


# one pass: the kernel, its limits near x = 2 pi k (where |sin(x / 2)| is
# below the dtype's cut `minval`), NaN for an n that is not a positive
# integer; in double, the result rounded once to y's dtype
# (type names of two letters: one letter may be a dtype's code, N is uintp)
_DIRIC = gpunp.ElementwiseKernel(
    "TX xv, TN nv, float64 minval", "TY yv",
    r"""
    double half_ = (double)xv / 2, n_ = (double)nv, den_ = sin(half_);
    if (!(n_ > 0) || n_ != floor(n_)) {
        yv = NAN;
    } else if (fabs(den_) < minval) {
        double k_ = rint(half_ / 3.141592653589793) * (n_ - 1);
        yv = fmod(k_, 2.0) == 0 ? 1.0 : -1.0;
    } else {
        yv = sin(n_ * half_) / (n_ * den_);
    }
    """,
    "gp_sf_diric")


def diric(x, n):
    """The Dirichlet kernel sin(n x / 2) / (n sin(x / 2)), (-1)^(k (n - 1))
    near x = 2 pi k, NaN for an n that is not a positive integer; in the
    dtype of x + n if that is inexact, else float64 (SciPy's)."""
    x, n = gpunp.asarray(x), gpunp.asarray(n)  # as SciPy's: arrays, 0-d ones too
    common = gpunp.result_type(x, n)
    ytype = common if gpunp.issubdtype(common, gpunp.inexact) else gpunp.dtype(gpunp.float64)
    eps = gpunp.finfo(ytype).eps
    # SciPy's cuts, by the float's precision
    minval = 1e-11 if eps < 1e-18 else 1e-7 if eps < 1e-15 else 1e-3
    y = gpunp.empty(numpy.broadcast_shapes(x.shape, n.shape), ytype)
    return _DIRIC(x, n, minval, y)


def _order(n):
    """SciPy's check of bernoulli's and euler's n: a non-negative scalar"""
    if not numpy.isscalar(n) or n < 0:
        raise ValueError("n must be a non-negative integer.")
    return int(n)


# B_n and E_n as doubles past these orders overflow (SciPy's +-inf)
_LAST_FINITE_BERNOULLI = 258
_LAST_FINITE_EULER = 186


@functools.lru_cache(maxsize=1)
def _bernoulli_exact():
    """B_0 .. B_258 as Fractions (B_1 = -1/2): B_2k = (-1)^(k-1) 2k T_k /
    (4^k (4^k - 1)), T_k the tangent numbers, integers, by Brent and
    Harvey's in-place recurrence (a few thousand integer steps)"""
    top = _LAST_FINITE_BERNOULLI // 2
    t = [0, 1] + [0] * (top - 1)
    for k in range(2, top + 1):
        t[k] = (k - 1) * t[k - 1]
    for k in range(2, top + 1):
        for j in range(k, top + 1):
            t[j] = (j - k) * t[j - 1] + (j - k + 2) * t[j]
    b = [Fraction(1), Fraction(-1, 2)] + [Fraction(0)] * (_LAST_FINITE_BERNOULLI - 1)
    for k in range(1, top + 1):
        b[2 * k] = Fraction((-1) ** (k - 1) * 2 * k * t[k], 4 ** k * (4 ** k - 1))
    return b


@functools.lru_cache(maxsize=1)
def _euler_exact():
    """E_0 .. E_186 as ints, by sum_j C(2k, 2j) E_2j = 0"""
    e = [1]
    for m in range(1, _LAST_FINITE_EULER + 1):
        e.append(0 if m % 2 else -sum(math.comb(m, j) * e[j] for j in range(0, m, 2)))
    return e


def bernoulli(n):
    """The Bernoulli numbers B_0 .. B_n (B_1 = -1/2) as a float64 gpunp array."""
    n = _order(n)
    exact = _bernoulli_exact()
    vals = [float(exact[j]) if j <= _LAST_FINITE_BERNOULLI else
            0.0 if j % 2 else (-math.inf if j % 4 == 0 else math.inf)
            for j in range(n + 1)]
    return gpunp.asarray(vals, dtype=gpunp.float64)


def euler(n):
    """The Euler numbers E_0 .. E_n as a float64 gpunp array."""
    n = _order(n)
    exact = _euler_exact()
    vals = [float(exact[j]) if j <= _LAST_FINITE_EULER else
            0.0 if j % 2 else (math.inf if j % 4 == 0 else -math.inf)
            for j in range(n + 1)]
    return gpunp.asarray(vals, dtype=gpunp.float64)


def softplus(x, **kwargs):
    """log(1 + e^x): SciPy's is NumPy's logaddexp(0, x, **kwargs), and so is
    this one, gpunp's logaddexp (dtypes, out=, where= as NumPy's)."""
    return gpunp.logaddexp(0, x, **kwargs)
