"""Piecewise polynomials (SciPy's PPoly and BPoly): coefficients and
breakpoints live on the device and are evaluated there (_kernels); the
operations on the coefficients alone (derivatives, antiderivatives, basis
changes, roots) are small and run on a host copy with NumPy, as SciPy runs
them on the CPU."""

from __future__ import annotations

import math
from math import comb

import numpy

import gpunp
from gpunp.scipy._host import as_device

from . import _kernels


def _host(a):
    return a.get() if isinstance(a, gpunp.ndarray) else numpy.asarray(a)


def _coef_dtype(*dtypes):
    return numpy.complex128 if any(numpy.dtype(d).kind == "c" for d in dtypes) else numpy.float64


def _extrapolate_arg(extrapolate):
    if extrapolate is None:
        return True
    return extrapolate if extrapolate == "periodic" else bool(extrapolate)


class _PPolyBase:
    """What PPoly and BPoly share: the checks, the axis, extend and __call__."""

    __slots__ = ("c", "x", "extrapolate", "axis")
    _bernstein = False

    def __init__(self, c, x, extrapolate=None, axis=0):
        c = _host(c)
        x = numpy.ascontiguousarray(_host(x), dtype=numpy.float64)
        self.extrapolate = _extrapolate_arg(extrapolate)
        if c.ndim < 2:
            raise ValueError("Coefficients array must be at least 2-dimensional.")
        if not 0 <= axis < c.ndim - 1:
            raise ValueError(f"axis={axis} must be between 0 and {c.ndim - 1}")
        self.axis = axis
        # the interpolation axis and the order axis go first: (k+1, m, ...)
        c = numpy.moveaxis(c, [axis, axis + 1], [0, 1])
        if x.ndim != 1:
            raise ValueError("x must be 1-dimensional")
        if x.size < 2:
            raise ValueError("at least 2 breakpoints are needed")
        if c.shape[0] == 0:
            raise ValueError("polynomial must be at least of order 0")
        if c.shape[1] != x.size - 1:
            raise ValueError("number of coefficients != len(x)-1")
        dx = numpy.diff(x)
        if not (numpy.all(dx >= 0) or numpy.all(dx <= 0)):
            raise ValueError("`x` must be strictly increasing or decreasing.")
        self.c = gpunp.asarray(numpy.ascontiguousarray(c, dtype=_coef_dtype(c.dtype)))
        self.x = gpunp.asarray(x)

    @classmethod
    def construct_fast(cls, c, x, extrapolate=None, axis=0):
        """Without checks: c (k+1, m, ...) and x as given."""
        self = object.__new__(cls)
        self.c = c if isinstance(c, gpunp.ndarray) else gpunp.asarray(c)
        self.x = x if isinstance(x, gpunp.ndarray) else gpunp.asarray(x)
        self.axis = axis
        self.extrapolate = True if extrapolate is None else extrapolate
        return self

    def _hc(self):
        return self.c.get()

    def _hx(self):
        return self.x.get()

    def extend(self, c, x):
        """Adds intervals (with their coefficients c) to the right or left."""
        c, x = _host(c), _host(x)
        sc, sx = self._hc(), self._hx()
        if c.ndim < 2:
            raise ValueError("invalid dimensions for c")
        if x.ndim != 1:
            raise ValueError("invalid dimensions for x")
        if x.shape[0] != c.shape[1]:
            raise ValueError(f"Shapes of x {x.shape} and c {c.shape} are incompatible")
        if c.shape[2:] != sc.shape[2:] or c.ndim != sc.ndim:
            raise ValueError(f"Shapes of c {c.shape} and self.c {sc.shape} are incompatible")
        if c.size == 0:
            return
        dx = numpy.diff(x)
        if not (numpy.all(dx >= 0) or numpy.all(dx <= 0)):
            raise ValueError("`x` is not sorted.")
        up = sx[-1] >= sx[0]
        if (x[-1] >= x[0]) != up and x[-1] != x[0]:
            raise ValueError("`x` is in the different order than `self.x`.")
        after = (x[0] >= sx[-1]) if up else (x[0] <= sx[-1])
        before = (x[-1] <= sx[0]) if up else (x[-1] >= sx[0])
        if not (after or before):
            raise ValueError("`x` is neither on the left or on the right from `self.x`.")
        if self._bernstein:
            k = max(sc.shape[0], c.shape[0])
            sc, c = _raise_degree(sc, k - sc.shape[0]), _raise_degree(c, k - c.shape[0])
        k2 = max(c.shape[0], sc.shape[0])
        pad = lambda a: numpy.concatenate(  # noqa: E731 - higher orders zero
            [numpy.zeros((k2 - a.shape[0],) + a.shape[1:]), a]) if a.shape[0] < k2 else a
        parts = [pad(sc), pad(c)] if after else [pad(c), pad(sc)]
        xs = [sx, x] if after else [x, sx]
        dt = _coef_dtype(c.dtype, sc.dtype)
        self.c = gpunp.asarray(numpy.ascontiguousarray(numpy.concatenate(parts, axis=1),
                                                       dtype=dt))
        self.x = gpunp.asarray(numpy.concatenate(xs).astype(numpy.float64))

    def __call__(self, x, nu=0, extrapolate=None):
        if extrapolate is None:
            extrapolate = self.extrapolate
        if nu < 0:
            raise ValueError("Order of derivative cannot be negative")
        if self._bernstein and nu > self.c.shape[0]:
            # SciPy's Bernstein evaluation sizes a work array by k - nu + 1
            raise ValueError("negative dimensions are not allowed")
        x = gpunp.asarray(as_device(x), dtype=numpy.float64)
        shape = x.shape
        x = x.reshape(-1)
        if extrapolate == "periodic":
            x0, x1 = self.x[0], self.x[-1]
            x = x0 + gpunp.remainder(x - x0, x1 - x0)
            extrapolate = False
        c = self.c
        c3 = c.reshape(c.shape[0], c.shape[1], -1)
        out = _kernels.ppoly_eval(c3, self.x, x, nu, extrapolate, self._bernstein)
        out = out.reshape(shape + c.shape[2:])
        return _kernels.points_at_axis(out, len(shape), self.axis)


def _raise_degree(c, d):
    """Bernstein coefficients c (k+1, ...) of the same polynomial in degree k+d."""
    if d == 0:
        return c
    k = c.shape[0] - 1
    out = numpy.zeros((k + d + 1,) + c.shape[1:], dtype=c.dtype)
    for a in range(k + 1):
        for j in range(d + 1):
            out[a + j] += c[a] * (comb(k, a) * comb(d, j) / comb(k + d, a + j))
    return out


def _rising(n, nu):
    """n (n+1) ... (n+nu-1) for each n of an array."""
    out = numpy.ones(len(n))
    for q in range(nu):
        out *= n + q
    return out


class PPoly(_PPolyBase):
    """A piecewise polynomial in the power basis: on [x[i], x[i+1]] it is
    sum_m c[m, i] (x - x[i])^(k-m)."""

    __slots__ = ()

    def derivative(self, nu=1):
        if nu < 0:
            return self.antiderivative(-nu)
        c = self._hc()
        c2 = c[:max(c.shape[0] - nu, 0)].copy()
        if c2.shape[0] == 0:
            c2 = numpy.zeros((1,) + c.shape[1:], dtype=c.dtype)
        fac = _rising(numpy.arange(c2.shape[0], 0, -1, dtype=float), nu)
        c2 *= fac.reshape((-1,) + (1,) * (c2.ndim - 1))
        return self.construct_fast(c2, self.x, self.extrapolate, self.axis)

    def antiderivative(self, nu=1):
        if nu <= 0:
            return self.derivative(-nu)
        c = self._hc()
        h = numpy.diff(self._hx()).reshape((-1,) + (1,) * (c.ndim - 2))
        for _ in range(nu):
            k = c.shape[0]
            c2 = numpy.zeros((k + 1,) + c.shape[1:], dtype=c.dtype)
            c2[:k] = c / numpy.arange(k, 0, -1, dtype=float).reshape((-1,) + (1,) * (c.ndim - 1))
            # the constant of each interval: the integral over every earlier one
            whole = sum(c2[p] * h ** (k - p) for p in range(k))
            c2[k, 1:] = numpy.cumsum(whole, axis=0)[:-1]
            c = c2
        extrapolate = False if self.extrapolate == "periodic" else self.extrapolate
        return self.construct_fast(c, self.x, extrapolate, self.axis)

    def integrate(self, a, b, extrapolate=None):
        if extrapolate is None:
            extrapolate = self.extrapolate
        a, b = float(a), float(b)
        sign = 1.0
        if b < a:
            a, b, sign = b, a, -1.0
        ib = self.antiderivative()
        ib.axis = 0  # the values of the points first, whatever the interpolation axis
        xs = self._hx()
        rest = self.c.shape[2:]
        if extrapolate == "periodic":
            x0, x1 = xs[0], xs[-1]
            period = x1 - x0
            n, left = divmod(b - a, period)
            a = x0 + (a - x0) % period
            b = a + left
            if b <= x1:
                pts, w = [x0, x1, a, b], [-n, n, -1.0, 1.0]
            else:
                pts = [x0, x1, a, x1, x0, x0 + left + a - x1]
                w = [-n, n, -1.0, 1.0, -1.0, 1.0]
            extrapolate = False
        else:
            pts, w = [a, b], [-1.0, 1.0]
        vals = ib(gpunp.asarray(pts), extrapolate=extrapolate).reshape(len(pts), -1).get()
        out = sign * sum(wi * v for wi, v in zip(w, vals) if wi != 0)
        if not numpy.ndim(out):
            out = numpy.zeros(vals.shape[1:], vals.dtype) + out
        return gpunp.asarray(out.reshape(rest))

    def solve(self, y=0.0, discontinuity=True, extrapolate=None):
        """The real x with pp(x) == y, interval by interval (NumPy's
        companion-matrix roots polished by a Newton step, on the host)."""
        if extrapolate is None:
            extrapolate = self.extrapolate
        c = self._hc()
        if c.dtype.kind == "c":
            raise ValueError("Root finding is only for real-valued polynomials")
        y = float(y)
        x = self._hx()
        c3 = c.reshape(c.shape[0], c.shape[1], -1)
        res = [_real_roots(c3[:, :, j], x, y, discontinuity, bool(extrapolate))
               for j in range(c3.shape[2])]
        if c.ndim == 2:
            return gpunp.asarray(res[0])
        out = numpy.empty(len(res), dtype=object)
        for j, r in enumerate(res):
            out[j] = gpunp.asarray(r)
        return out.reshape(c.shape[2:])

    def roots(self, discontinuity=True, extrapolate=None):
        return self.solve(0, discontinuity, extrapolate)

    @classmethod
    def from_spline(cls, tck, extrapolate=None):
        """The power-basis pieces of a B-spline (a BSpline or a tck tuple)."""
        from ._bsplines import BSpline
        if isinstance(tck, BSpline):
            t, c, k = tck.t, tck.c, tck.k
            if extrapolate is None:
                extrapolate = tck.extrapolate
        else:
            t, c, k = tck
        spl = BSpline(t, c, k)
        tt = gpunp.asarray(t, dtype=numpy.float64)
        cvals = [spl(tt[:-1], nu=m) / math.factorial(m) for m in range(k, -1, -1)]
        return cls.construct_fast(gpunp.stack(cvals), tt, extrapolate)

    @classmethod
    def from_bernstein_basis(cls, bp, extrapolate=None):
        bc = bp._hc()
        h = numpy.diff(bp._hx()).reshape((-1,) + (1,) * (bc.ndim - 2))
        k = bc.shape[0] - 1
        c = numpy.zeros_like(bc)
        # b_{a,k}(s) = C(k,a) s^a (1-s)^(k-a), expanded in powers of s = (x - x_i)/h
        for a in range(k + 1):
            for p in range(a, k + 1):
                coef = comb(k, a) * comb(k - a, p - a) * (-1) ** (p - a)
                c[k - p] += bc[a] * coef / h ** p
        if extrapolate is None:
            extrapolate = bp.extrapolate
        return cls.construct_fast(c, bp.x, extrapolate, bp.axis)


def _poly_at(cc, s, nu=0):
    """A power-basis polynomial (highest first) or its derivative at s (host)."""
    k = len(cc) - 1
    return sum(cc[m] * _rising(numpy.array([k - m - nu + 1.0]), nu)[0] * s ** (k - m - nu)
               for m in range(k - nu + 1))


def _real_roots(c, x, y, discontinuity, extrapolate):
    roots, last = [], numpy.nan
    m = c.shape[1]
    up = x[-1] >= x[0]
    for j in range(m):
        cc = c[:, j].copy()
        cc[-1] -= y
        if j > 0 and discontinuity:
            va = _poly_at(c[:, j - 1], x[j] - x[j - 1]) - y
            vb = c[-1, j] - y
            if (va < 0 < vb or vb < 0 < va) and x[j] != last:
                last = x[j]
                roots.append(last)
        if not numpy.any(cc):
            # identically y: SciPy reports (start, nan), or the point of an empty interval
            if x[j] == x[j + 1]:
                if x[j] != last:
                    last = x[j]
                    roots.append(last)
            else:
                roots += [x[j], numpy.nan]
                last = numpy.nan
            continue
        nz = numpy.flatnonzero(cc)
        if nz[0] == len(cc) - 1:
            continue
        found = numpy.roots(cc[nz[0]:])
        for r in found[numpy.argsort(found.real, kind="stable")]:
            if r.imag != 0:
                continue
            r = r.real
            f, df = _poly_at(cc, r), _poly_at(cc, r, 1)
            if df != 0 and abs(f / df) < abs(r):
                r = r - f / df
            r += x[j]
            lo, hi = (x[j], x[j + 1]) if up else (x[j + 1], x[j])
            if extrapolate and j == 0 and j != m - 1:
                if (up and not r <= x[1]) or (not up and not r >= x[1]):
                    continue
            elif extrapolate and j == m - 1:
                if (up and not r >= x[j]) or (not up and not r <= x[j]):
                    continue
            elif not lo <= r <= hi:
                continue
            if r != last:
                last = r
                roots.append(float(r))
    return numpy.array(roots, dtype=float)


class BPoly(_PPolyBase):
    """A piecewise polynomial in the Bernstein basis: on [x[i], x[i+1]] it is
    sum_a c[a, i] b(a, k; (x - x[i]) / (x[i+1] - x[i]))."""

    __slots__ = ()
    _bernstein = True

    def derivative(self, nu=1):
        if nu < 0:
            return self.antiderivative(-nu)
        c = self._hc()
        h = numpy.diff(self._hx()).reshape((1, -1) + (1,) * (c.ndim - 2))
        for _ in range(nu):
            k = c.shape[0] - 1
            c = k * numpy.diff(c, axis=0) / h if k else numpy.zeros_like(c)
        return self.construct_fast(c, self.x, self.extrapolate, self.axis)

    def antiderivative(self, nu=1):
        if nu <= 0:
            return self.derivative(-nu)
        c = self._hc()
        h = numpy.diff(self._hx()).reshape((1, -1) + (1,) * (c.ndim - 2))
        for _ in range(nu):
            k = c.shape[0]
            c2 = numpy.zeros((k + 1,) + c.shape[1:], dtype=c.dtype)
            c2[1:] = numpy.cumsum(c, axis=0) / k
            c2 *= h
            # each interval starts where the previous ended (its last coefficient)
            c2[:, 1:] += numpy.cumsum(c2[k], axis=0)[:-1]
            c = c2
        extrapolate = False if self.extrapolate == "periodic" else self.extrapolate
        return self.construct_fast(c, self.x, extrapolate, self.axis)

    def integrate(self, a, b, extrapolate=None):
        pp = PPoly.from_bernstein_basis(self)
        return pp.integrate(a, b, self.extrapolate if extrapolate is None else extrapolate)

    @classmethod
    def from_power_basis(cls, pp, extrapolate=None):
        pc = pp._hc()
        h = numpy.diff(pp._hx()).reshape((-1,) + (1,) * (pc.ndim - 2))
        k = pc.shape[0] - 1
        c = numpy.zeros_like(pc)
        # s^p = sum_{a >= p} C(a, p) / C(k, p) b_{a,k}(s), and (x - x_i)^p = h^p s^p
        for m in range(k + 1):
            p = k - m
            for a in range(p, k + 1):
                c[a] += pc[m] * h ** p * comb(a, p) / comb(k, p)
        if extrapolate is None:
            extrapolate = pp.extrapolate
        return cls.construct_fast(c, pp.x, extrapolate, pp.axis)

    @classmethod
    def from_derivatives(cls, xi, yi, orders=None, extrapolate=None):
        xi = _host(xi)
        if len(xi) != len(yi):
            raise ValueError("xi and yi need to have the same length")
        if numpy.any(xi[1:] - xi[:1] <= 0):
            raise ValueError("x coordinates are not in increasing order")
        yi = [_host(v) for v in yi]
        m = len(xi) - 1
        try:
            k = max(len(yi[i]) + len(yi[i + 1]) for i in range(m))
        except TypeError as e:
            raise ValueError("Using a 1-D array for y? Please .reshape(-1, 1).") from e
        if orders is None:
            orders = [None] * m
        else:
            if isinstance(orders, (int, numpy.integer)):
                orders = [orders] * m
            k = max(k, max(orders))
            if any(o <= 0 for o in orders):
                raise ValueError("Orders must be positive.")
        pieces = []
        for i in range(m):
            y1, y2 = yi[i], yi[i + 1]
            if orders[i] is None:
                n1, n2 = len(y1), len(y2)
            else:
                n = orders[i] + 1
                n1 = min(n // 2, len(y1))
                n2 = min(n - n1, len(y2))
                n1 = min(n - n2, len(y2))
                if n1 + n2 != n:
                    raise ValueError(
                        f"Point {xi[i]} has {len(y1)} derivatives, point {xi[i + 1]} has "
                        f"{len(y2)} derivatives, but order {orders[i]} requested")
                if not (n1 <= len(y1) and n2 <= len(y2)):
                    raise ValueError("`order` input incompatible with length y1 or y2.")
            b = _hermite_bernstein(xi[i], xi[i + 1], y1[:n1], y2[:n2])
            pieces.append(_raise_degree(b, k - len(b)))
        return cls(numpy.asarray(pieces).swapaxes(0, 1), xi, extrapolate)


def _hermite_bernstein(xa, xb, ya, yb):
    """Bernstein coefficients of the polynomial of degree na+nb-1 with the
    derivatives ya at xa and yb at xb."""
    ya, yb = numpy.asarray(ya), numpy.asarray(yb)
    if ya.shape[1:] != yb.shape[1:]:
        raise ValueError(f"Shapes of ya {ya.shape} and yb {yb.shape} are incompatible")
    na, nb = len(ya), len(yb)
    n = na + nb
    k = n - 1
    h = xb - xa
    c = numpy.zeros((n,) + ya.shape[1:], dtype=_coef_dtype(ya.dtype, yb.dtype))
    # the q-th derivative at the left end involves c[0..q] only:
    # f^(q)(xa) = k!/(k-q)! h^-q sum_j (-1)^(q-j) C(q, j) c[j]
    for q in range(na):
        scale = math.factorial(k - q) / math.factorial(k) * h ** q
        acc = ya[q] * scale
        for j in range(q):
            acc = acc - (-1) ** (q - j) * comb(q, j) * c[j]
        c[q] = acc
    # and at the right end c[k-q..k]:
    # f^(q)(xb) = k!/(k-q)! h^-q sum_j (-1)^(q-j) C(q, j) c[k-q+j]
    for q in range(nb):
        scale = math.factorial(k - q) / math.factorial(k) * h ** q
        acc = yb[q] * scale
        for j in range(1, q + 1):
            acc = acc - (-1) ** (q - j) * comb(q, j) * c[k - q + j]
        c[k - q] = (-1) ** q * acc
    return c
