"""scipy.special's ``diric`` (the periodic sinc, elementwise on the device)
and ``bernoulli`` and ``euler`` (tables of numbers, which SciPy computes on
the host too: here exactly, as Python rationals and integers, rounded once
to doubles, and handed over as gpunp arrays)."""

import functools
import math
from fractions import Fraction

import numpy

import gpunp


def diric(x, n):
    """The Dirichlet kernel sin(n x / 2) / (n sin(x / 2)), (-1)^(k (n - 1))
    near x = 2 pi k (where sin(x / 2) is below SciPy's cut for the dtype),
    NaN for an n that is not a positive integer."""
    x, n = gpunp.asarray(x), gpunp.asarray(n)
    n = n + (x - x)  # each broadcast to the other, with SciPy's promotions
    x = x + (n - n)
    ytype = x.dtype if gpunp.issubdtype(x.dtype, gpunp.inexact) else gpunp.float64
    eps = gpunp.finfo(ytype).eps
    # SciPy's cuts, by the float's precision
    minval = 1e-11 if eps < 1e-18 else 1e-7 if eps < 1e-15 else 1e-3
    bad = (n <= 0) | (n != gpunp.floor(n))
    half = x / 2
    denom = gpunp.sin(half)
    near = ~bad & (gpunp.abs(denom) < minval)
    k = gpunp.round(half / gpunp.pi) * (n - 1)
    sign = gpunp.where(gpunp.remainder(k, 2) == 0, 1.0, -1.0)
    with numpy.errstate(all="ignore"):
        value = gpunp.sin(n * half) / (n * denom)
    y = gpunp.where(near, sign, value)
    return gpunp.where(bad, gpunp.nan, y).astype(ytype)


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
