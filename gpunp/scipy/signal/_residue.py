"""Partial fractions of rational functions: residues and poles of b / a
(in s or in z^-1) and back, with repeated roots grouped within a
tolerance. Polynomials of a few dozen coefficients, on the host as SciPy
computes them."""

from __future__ import annotations

import numpy as np

import gpunp as gp

from ._design import _host

_REDUCE = {"max": np.max, "maximum": np.max, "min": np.min, "minimum": np.min,
           "avg": np.mean, "mean": np.mean}


def _reducer(rtype):
    if rtype not in _REDUCE:
        raise ValueError("`rtype` must be one of {'max', 'maximum', 'min', 'minimum', 'avg', "
                         "'mean'}")
    return _REDUCE[rtype]


def _unique_roots(p, tol, rtype):
    reduce = _reducer(rtype)
    p = np.asarray(p)
    used = np.zeros(len(p), dtype=bool)
    uniq, mult = [], []
    for i in range(len(p)):
        if used[i]:
            continue
        # every unused root within tol of this one (a ball in the plane)
        group = np.flatnonzero((np.abs(p - p[i]) <= tol) & ~used)
        uniq.append(reduce(p[group]))
        mult.append(len(group))
        used[group] = True
    return np.asarray(uniq), np.asarray(mult)


def unique_roots(p, tol=1e-3, rtype="min"):
    """The distinct roots of p (those within tol of each other reduced to
    one by rtype: 'min', 'max' or 'avg') and their multiplicities."""
    u, m = _unique_roots(_host(p), tol, rtype)
    return gp.asarray(u), gp.asarray(m)


def _group_poles(poles, tol, rtype):
    """Runs of consecutive poles within tol of a run's first pole."""
    reduce = _reducer(rtype)
    uniq, mult = [], []
    pole, block = poles[0], [poles[0]]
    for q in poles[1:]:
        if abs(q - pole) <= tol:
            block.append(pole)
        else:
            uniq.append(reduce(block))
            mult.append(len(block))
            pole, block = q, [q]
    uniq.append(reduce(block))
    mult.append(len(block))
    return np.asarray(uniq), np.asarray(mult)


def _factors(roots, mult, include_powers=False):
    """For each pole (and each power of a repeated one, if asked), the
    product of the other poles' factors; and the whole denominator."""
    current = np.array([1])
    suffixes = [current]
    for pole, m in zip(roots[-1:0:-1], mult[-1:0:-1]):
        for _ in range(m):
            current = np.polymul(current, np.array([1, -pole]))
        suffixes.append(current)
    suffixes = suffixes[::-1]
    factors = []
    current = np.array([1])
    for pole, m, suffix in zip(roots, mult, suffixes):
        block = []
        for i in range(m):
            if i == 0 or include_powers:
                block.append(np.polymul(current, suffix))
            current = np.polymul(current, np.array([1, -pole]))
        factors.extend(reversed(block))
    return factors, current


def _residues(poles, mult, numerator):
    facs, _ = _factors(poles, mult)
    numerator = numerator.astype(poles.dtype)
    out = []
    for pole, m, fac in zip(poles, mult, facs):
        if m == 1:
            out.append(np.polyval(numerator, pole) / np.polyval(fac, pole))
            continue
        # a repeated pole: divide out (s - pole) once per power
        numer = numerator.copy()
        mono = np.array([1, -pole])
        fac, d = np.polydiv(fac, mono)
        block = []
        for _ in range(m):
            numer, n = np.polydiv(numer, mono)
            r = n[0] / d[0]
            numer = np.polysub(numer, r * fac)
            block.append(r)
        out.extend(reversed(block))
    return np.asarray(out)


def _by_magnitude(p):
    idx = np.argsort(abs(p))
    return np.take(p, idx, 0), idx


def _prepare(b, a, trim):
    b, a = np.asarray(_host(b)), np.asarray(_host(a))
    kind = complex if b.dtype.kind == "c" or a.dtype.kind == "c" else float
    b = np.trim_zeros(np.atleast_1d(b.astype(kind)), trim)
    a = np.trim_zeros(np.atleast_1d(a.astype(kind)), trim)
    if a.size == 0:
        raise ValueError("Denominator `a` is zero.")
    return b, a


def residue(b, a, tol=1e-3, rtype="avg"):
    """Residues r, poles p and direct terms k of b(s) / a(s) = sum r / (s -
    p)^j + k(s), poles by increasing magnitude."""
    b, a = _prepare(b, a, "f")
    poles = np.roots(a)
    if b.size == 0:
        return (gp.asarray(np.zeros(poles.shape)), gp.asarray(_by_magnitude(poles)[0]),
                gp.asarray(np.array([])))
    if len(b) < len(a):
        k = np.empty(0)
    else:
        k, b = np.polydiv(b, a)
    uniq, mult = _unique_roots(poles, tol, rtype)
    uniq, order = _by_magnitude(uniq)
    mult = mult[order]
    res = _residues(uniq, mult, b)
    i = 0
    for pole, m in zip(uniq, mult):
        poles[i:i + m] = pole
        i += m
    return gp.asarray(res / a[0]), gp.asarray(poles), gp.asarray(k)


def residuez(b, a, tol=1e-3, rtype="avg"):
    """Residues r, poles p and direct terms k of b(z) / a(z) in powers of
    z^-1: sum r / (1 - p z^-1)^j + k(z^-1)."""
    b, a = _prepare(b, a, "b")
    if a[0] == 0:
        raise ValueError("First coefficient of determinant `a` must be non-zero.")
    poles = np.roots(a)
    if b.size == 0:
        return (gp.asarray(np.zeros(poles.shape)), gp.asarray(_by_magnitude(poles)[0]),
                gp.asarray(np.array([])))
    b_rev, a_rev = b[::-1], a[::-1]
    if len(b_rev) < len(a_rev):
        k_rev = np.empty(0)
    else:
        k_rev, b_rev = np.polydiv(b_rev, a_rev)
    uniq, mult = _unique_roots(poles, tol, rtype)
    uniq, order = _by_magnitude(uniq)
    mult = mult[order]
    res = _residues(1 / uniq, mult, b_rev)
    i = 0
    powers = np.empty(len(res), dtype=int)
    for pole, m in zip(uniq, mult):
        poles[i:i + m] = pole
        powers[i:i + m] = 1 + np.arange(m)
        i += m
    res = res * (-poles) ** powers / a_rev[0]
    return gp.asarray(res), gp.asarray(poles), gp.asarray(k_rev[::-1])


def invres(r, p, k, tol=1e-3, rtype="avg"):
    """b(s) and a(s) from a partial-fraction expansion (residue's inverse)."""
    r, p = np.atleast_1d(_host(r)), np.atleast_1d(_host(p))
    k = np.trim_zeros(np.atleast_1d(_host(k)), "f")
    uniq, mult = _group_poles(p, tol, rtype)
    facs, den = _factors(uniq, mult, include_powers=True)
    num = 0 if len(k) == 0 else np.polymul(k, den)
    for res, fac in zip(r, facs):
        num = np.polyadd(num, res * fac)
    return gp.asarray(np.asarray(num)), gp.asarray(np.asarray(den))


def invresz(r, p, k, tol=1e-3, rtype="avg"):
    """b(z) and a(z) from a partial-fraction expansion in z^-1 (residuez's
    inverse)."""
    r, p = np.atleast_1d(_host(r)), np.atleast_1d(_host(p))
    k = np.trim_zeros(np.atleast_1d(_host(k)), "b")
    uniq, mult = _group_poles(p, tol, rtype)
    facs, den = _factors(uniq, mult, include_powers=True)
    num = 0 if len(k) == 0 else np.polymul(k[::-1], den[::-1])
    for res, fac in zip(r, facs):
        num = np.polyadd(num, res * fac[::-1])
    return gp.asarray(np.asarray(num)[::-1]), gp.asarray(np.asarray(den))
