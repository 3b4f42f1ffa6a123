"""Brent's bounded minimiser, scipy.optimize.fminbound's method, for the
subpackages that choose a parameter by minimising on the host (signal's
band-stop order selection, interpolate's cross-validated smoothing)."""

from __future__ import annotations

import math

_GOLDEN = 0.5 * (3.0 - math.sqrt(5.0))
_SQRT_EPS = math.sqrt(2.2e-16)


def fminbound(f, a, b, xtol=1e-5, maxfun=500):
    """The minimum of f on [a, b] by golden sections and parabolic steps,
    at most maxfun calls of f (the first included), as SciPy's finds it."""
    v = w = x = a + _GOLDEN * (b - a)  # v, w: the previous best points
    fv = fw = fx = f(x)
    step = prev = 0.0
    for _ in range(maxfun - 1):
        mid = 0.5 * (a + b)
        tol1 = _SQRT_EPS * abs(x) + xtol / 3.0
        tol2 = 2.0 * tol1
        if abs(x - mid) <= tol2 - 0.5 * (b - a):
            break
        golden = True
        if abs(prev) > tol1:  # the parabola through x, w, v
            r = (x - w) * (fx - fv)
            q = (x - v) * (fx - fw)
            p = (x - v) * q - (x - w) * r
            q = 2.0 * (q - r)
            if q > 0.0:
                p = -p
            q = abs(q)
            r, prev = prev, step
            if abs(p) < abs(0.5 * q * r) and q * (a - x) < p < q * (b - x):
                step = p / q
                u = x + step
                if (u - a) < tol2 or (b - u) < tol2:
                    step = tol1 if mid - x >= 0 else -tol1
                golden = False
        if golden:
            prev = (a - x) if x >= mid else (b - x)
            step = _GOLDEN * prev
        u = x + (step if abs(step) >= tol1 else (tol1 if step >= 0 else -tol1))
        fu = f(u)
        if fu <= fx:
            if u >= x:
                a = x
            else:
                b = x
            v, fv, w, fw, x, fx = w, fw, x, fx, u, fu
        else:
            if u < x:
                a = u
            else:
                b = u
            if fu <= fw or w == x:
                v, fv, w, fw = w, fw, u, fu
            elif fu <= fv or v == x or v == w:
                v, fv = u, fu
    return x
