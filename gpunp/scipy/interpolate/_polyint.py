"""Polynomial interpolation through all the points (SciPy's
BarycentricInterpolator, KroghInterpolator, lagrange,
approximate_taylor_polynomial): the weights and divided differences of the
few nodes on the host, the evaluation at many points on the device in one
kernel pass (the barycentric formula; Krogh's recurrence for all the
derivatives at once), complex values as their two real parts."""

from __future__ import annotations

import math
import warnings

import numpy

import gpunp
from gpunp.scipy._host import as_device
from gpunp.scipy._version import scipy_version


# the most nodes of a Krogh interpolant the evaluation kernel holds (SciPy
# warns past 30: the Newton form is meaningless long before this)
MAX_KROGH = 64

# every derivative (orders below `der`) of the Newton form at each point, for
# one column: the divided differences c, the nodes xi (SciPy's recurrence)
_KROGH = gpunp.ElementwiseKernel(
    "raw float64 xs, raw float64 xi, raw float64 c, int64 n, int64 r, int64 der, int64 nx",
    "raw float64 out",
    r"""
    long long p = i / r, col = i % r, k, q, rows;
    double pi[MAX_N], w[MAX_N], cn[MAX_N + 1], x = xs[p], val, fact = 1.0;
    pi[0] = 1.0;
    for (k = 0; k < n - 1; k++) w[k] = x - xi[k];
    w[n - 1] = 0.0;
    val = c[col];
    for (k = 1; k < n; k++) {
        pi[k] = w[k - 1] * pi[k - 1];
        val += pi[k] * c[k * r + col];
    }
    for (k = 0; k <= n; k++) cn[k] = c[k * r + col];
    cn[0] = val;
    for (k = 1; k < n; k++) {
        for (q = 1; q <= n - k; q++) {
            pi[q] = w[k + q - 1] * pi[q - 1] + pi[q];
            cn[k] += pi[q] * cn[k + q];
        }
        fact *= (double)k;
        cn[k] *= fact;
    }
    cn[n] = 0.0;
    rows = der < n + 1 ? der : n + 1;
    for (k = 0; k < der; k++) out[(k * nx + p) * r + col] = k < rows ? cn[k] : 0.0;
    """.replace("MAX_N", str(MAX_KROGH)),
    "gp_interp_krogh")

# the barycentric formula at each point, for one column (a point on a node
# takes the node's value)
_BARYCENTRIC = gpunp.ElementwiseKernel(
    "raw float64 xi, raw float64 wi, raw float64 yi, float64 xv, int64 n, int64 r",
    "float64 out",
    r"""
    long long col = i % r, j, hit = -1;
    double num = 0.0, den = 0.0, c;
    for (j = 0; j < n; j++) {
        c = xv - xi[j];
        if (c == 0.0) { hit = j; break; }
        c = wi[j] / c;
        num += c * yi[j * r + col];
        den += c;
    }
    out = hit >= 0 ? yi[hit * r + col] : num / den;
    """,
    "gp_interp_barycentric")


def _by_parts(a, fn):
    """fn of a float64 array; a complex one as its real and imaginary parts."""
    if a.dtype.kind == "c":
        return fn(gpunp.ascontiguousarray(a.real)) + 1j * fn(gpunp.ascontiguousarray(a.imag))
    return fn(a)


def _host(a):
    return a.get() if isinstance(a, gpunp.ndarray) else numpy.asarray(a)


class _Interpolator1D:
    """The shape bookkeeping of SciPy's 1-d interpolators: y's interpolation
    axis moved first and the rest flattened to columns."""

    def _set_yi(self, yi, xi, axis):
        yi = _host(yi)
        shape = yi.shape if yi.shape != () else (1,)
        if xi is not None and shape[axis] != len(xi):
            raise ValueError("x and y arrays must be equal in length along interpolation axis.")
        self._y_axis = axis % yi.ndim
        self._y_extra_shape = yi.shape[:self._y_axis] + yi.shape[self._y_axis + 1:]
        self.dtype = numpy.complex128 if yi.dtype.kind == "c" else numpy.float64

    def _reshape_yi(self, yi, check=False):
        yi = numpy.moveaxis(_host(yi), self._y_axis, 0)
        if check and yi.shape[1:] != self._y_extra_shape:
            ok = (f"{self._y_extra_shape[-self._y_axis:]!r} + (N,) + "
                  f"{self._y_extra_shape[:-self._y_axis]!r}")
            raise ValueError(f"Data must be of shape {ok}")
        return yi.reshape((yi.shape[0], -1)).astype(self.dtype)

    def _prepare_x(self, x):
        x = as_device(x)
        if x.dtype.kind not in "fc":
            x = x.astype(numpy.float64)
        return x.reshape(-1), x.shape

    def _finish_y(self, y, shape):
        y = y.reshape(shape + self._y_extra_shape)
        if self._y_axis != 0 and shape != ():
            nx, ny = len(shape), len(self._y_extra_shape)
            order = (list(range(nx, nx + self._y_axis)) + list(range(nx))
                     + list(range(nx + self._y_axis, nx + ny)))
            y = y.transpose(order)
        return y

    def __call__(self, x):
        x, shape = self._prepare_x(x)
        return self._finish_y(self._evaluate(x), shape)

    def derivatives(self, x, der=None):
        x, shape = self._prepare_x(x)
        y = self._evaluate_derivatives(x, der)
        y = y.reshape((y.shape[0],) + shape + self._y_extra_shape)
        if self._y_axis != 0 and shape != ():
            nx, ny = len(shape), len(self._y_extra_shape)
            order = ([0] + list(range(nx + 1, nx + self._y_axis + 1)) + list(range(1, nx + 1))
                     + list(range(nx + 1 + self._y_axis, nx + ny + 1)))
            y = y.transpose(order)
        return y

    def derivative(self, x, der=1):
        x, shape = self._prepare_x(x)
        return self._finish_y(self._evaluate_derivatives(x, der + 1)[der], shape)


class KroghInterpolator(_Interpolator1D):
    """The polynomial through the points xi (a repeated xi takes the next
    derivative), in Newton's form."""

    def __init__(self, xi, yi, axis=0):
        xi = _host(xi)
        self._set_yi(yi, xi, axis)
        self.xi = xi
        yh = self._reshape_yi(yi)
        self.n, self.r = yh.shape
        if xi.size > 30:
            warnings.warn(f"{xi.size} degrees provided, degrees higher than about thirty cause "
                          "problems with numerical instability with 'KroghInterpolator'",
                          stacklevel=2)
        # divided differences, with confluent nodes taking derivatives / s!
        c = numpy.zeros((self.n + 1, self.r), dtype=self.dtype)
        c[0] = yh[0]
        v = numpy.zeros((self.n, self.r), dtype=self.dtype)
        for k in range(1, self.n):
            s = 0
            while s <= k and xi[k - s] == xi[k]:
                s += 1
            s -= 1
            v[0] = yh[k] / math.factorial(s)
            for i in range(k - s):
                if xi[i] == xi[k]:
                    raise ValueError("Elements of `xi` can't be equal.")
                prev = c[i] if s == 0 else v[i + 1]
                v[i + 1] = (prev - v[i]) / (xi[i] - xi[k])
            c[k] = v[k - s]
        self.c = gpunp.asarray(c)
        self._xd = gpunp.asarray(xi.astype(numpy.float64))

    def _evaluate(self, x):
        return self._evaluate_derivatives(x, 1)[0]

    def _evaluate_derivatives(self, x, der=None):
        n, r = self.n, self.r
        if der is None:
            der = n
        if n > MAX_KROGH:
            raise NotImplementedError(f"KroghInterpolator of more than {MAX_KROGH} points is "
                                      "not supported")
        xs = gpunp.ascontiguousarray(x.astype(numpy.float64))
        nx = xs.shape[0]

        def run(c):
            out = gpunp.zeros((der, nx, r))
            if nx * r and der:
                _KROGH(xs, self._xd, c, n, r, der, nx, out, size=nx * r)
            return out
        return _by_parts(self.c, run)


def krogh_interpolate(xi, yi, x, der=0, axis=0):
    p = KroghInterpolator(xi, yi, axis=axis)
    if der == 0:
        return p(x)
    if numpy.ndim(der) == 0:
        return p.derivative(x, der=der)
    der = numpy.asarray(der)
    return p.derivatives(x, der=int(der.max()) + 1)[gpunp.asarray(der)]


def _deprecated(message):
    """SciPy 1.18 deprecates lagrange and approximate_taylor_polynomial (to
    go in 1.20); gpunp warns as the running SciPy does."""
    if scipy_version() >= 11800:
        warnings.warn(message, DeprecationWarning, stacklevel=3)


def approximate_taylor_polynomial(f, x, degree, scale, order=None):
    """The Taylor polynomial of f at x (a numpy.poly1d, as SciPy's) from a
    polynomial through order+1 Chebyshev-like points within scale of x."""
    _deprecated("`approximate_taylor_polynomial` is deprecated and will be removed in "
                "SciPy 1.20.0.")
    if order is None:
        order = degree
    n = order + 1
    xs = scale * numpy.cos(numpy.linspace(0, numpy.pi, n, endpoint=n % 1)) + x
    p = KroghInterpolator(xs, f(gpunp.asarray(xs)))
    d = _host(p.derivatives(x, der=degree + 1))
    fac = numpy.array([math.factorial(j) for j in range(degree + 1)], dtype=float)
    return numpy.poly1d((d / fac.reshape((-1,) + (1,) * (d.ndim - 1)))[::-1])


class BarycentricInterpolator(_Interpolator1D):
    """The polynomial through (xi, yi) in barycentric form. The weights are
    products over the other nodes scaled by the interval's capacity; `rng`
    (SciPy's random order of that product, which changes only rounding) is
    taken and, when given, used for the order."""

    def __init__(self, xi, yi=None, axis=0, *, wi=None, rng=None):
        self.xi = _host(xi).astype(numpy.float64)
        self._axis0 = axis
        self.yi = None
        if yi is not None:
            self._set_yi(yi, self.xi, axis)
        else:
            self._y_axis, self._y_extra_shape, self.dtype = axis, (), numpy.float64
        self.set_yi(yi)
        self.n = len(self.xi)
        self._cij = None
        if wi is not None:
            self.wi = _host(wi).astype(numpy.float64)
        else:
            self._inv_capacity = 4.0 / (numpy.max(self.xi) - numpy.min(self.xi))
            order = numpy.arange(self.n) if rng is None \
                else numpy.random.default_rng(rng).permutation(self.n)
            wi = numpy.zeros(self.n)
            for i in range(self.n):
                dist = self._inv_capacity * (self.xi[i] - self.xi[order])
                dist[order == i] = 1.0
                prod = numpy.prod(dist)
                if prod == 0.0:
                    raise ValueError("Interpolation points xi must be distinct.")
                wi[i] = 1.0 / prod
            self.wi = wi
        self._xd = gpunp.asarray(self.xi)

    def set_yi(self, yi, axis=None):
        if yi is None:
            self.yi = None
            return
        self._set_yi(yi, self.xi, self._y_axis if axis is None else axis)
        self.yi = gpunp.asarray(self._reshape_yi(yi))
        self.n, self.r = self.yi.shape
        self._derived = None

    def add_xi(self, xi, yi=None):
        if yi is not None:
            if self.yi is None:
                raise ValueError("No previous yi value to update!")
            yi = gpunp.asarray(self._reshape_yi(yi, check=True))
            self.yi = gpunp.concatenate([self.yi, yi])
        elif self.yi is not None:
            raise ValueError("No update to yi provided!")
        old = self.n
        self.xi = numpy.concatenate([self.xi, _host(xi).astype(float)])
        self.n = len(self.xi)
        inv = numpy.zeros(self.n)
        inv[:old] = 1.0 / self.wi
        for j in range(old, self.n):
            inv[:j] *= self._inv_capacity * (self.xi[j] - self.xi[:j])
            inv[j] = numpy.multiply.reduce(self._inv_capacity * (self.xi[:j] - self.xi[j]))
        self.wi = 1.0 / inv
        self._xd = gpunp.asarray(self.xi)
        self._cij = None
        self._derived = None

    def _evaluate(self, x):
        xv = gpunp.ascontiguousarray(x.astype(numpy.float64)).reshape(-1, 1)
        wi = gpunp.asarray(self.wi)

        def run(y):
            out = gpunp.empty((xv.shape[0], self.r))
            if out.size:
                _BARYCENTRIC(self._xd, wi, y, xv, self.n, self.r, out)
            return out
        return _by_parts(self.yi, run)

    def derivative(self, x, der=1):
        x, shape = self._prepare_x(x)
        return self._finish_y(self._nth(x, der), shape)

    def _nth(self, x, der):
        if x.shape[0] == 0 or self.r == 0:
            return gpunp.zeros((x.shape[0] if self.r == 0 else 0, self.r), dtype=self.dtype)
        if der == 0:
            return self._evaluate(x)
        if der >= self.n:
            return gpunp.zeros((x.shape[0], self.r), dtype=self.dtype)
        if self._cij is None:
            # the differentiation matrix of the barycentric form
            c = self.xi[:, None] - self.xi
            numpy.fill_diagonal(c, 1)
            c = self.wi / (c * self.wi[:, None])
            numpy.fill_diagonal(c, 0)
            numpy.fill_diagonal(c, -c.sum(axis=1))
            self._cij = c
        if self._derived is None:
            nxt = BarycentricInterpolator(self.xi, wi=self.wi)
            nxt._y_axis, nxt._y_extra_shape, nxt.dtype = 0, (), self.dtype
            nxt.yi = gpunp.asarray(self._cij).astype(self.dtype) @ self.yi
            nxt.n, nxt.r = self.n, self.r
            nxt._cij = self._cij
            nxt._derived = None
            self._derived = nxt
        return self._derived._nth(x, der - 1)

    def _evaluate_derivatives(self, x, der=None):
        if der is None:
            der = self.n
        return gpunp.stack([self._nth(x, d) for d in range(der)]) if der else \
            gpunp.zeros((0, x.shape[0], self.r), dtype=self.dtype)


def barycentric_interpolate(xi, yi, x, axis=0, *, der=0, rng=None):
    p = BarycentricInterpolator(xi, yi, axis=axis, rng=rng)
    if der == 0:
        return p(x)
    if numpy.ndim(der) == 0:
        return p.derivative(x, der=der)
    der = numpy.asarray(der)
    return p.derivatives(x, der=int(der.max()) + 1)[gpunp.asarray(der)]


def lagrange(x, w):
    """The Lagrange interpolating polynomial through (x, w), as a numpy.poly1d
    (SciPy's return type: a small host object)."""
    _deprecated("`lagrange` is deprecated and will be removed in SciPy 1.20.0. Use "
                "`scipy.interpolate.BarycentricInterpolator` instead.")
    x, w = _host(x), _host(w)
    m = len(x)
    p = numpy.poly1d(0.0)
    for j in range(m):
        term = numpy.poly1d(w[j])
        for k in range(m):
            if k != j:
                term = term * numpy.poly1d([1.0, -x[k]]) / (x[j] - x[k])
        p = p + term
    return p


def pade(an, m, n=None):
    """The Pade approximant p/q (numpy.poly1d each, as SciPy's) of orders n
    and m to the power series an: the linear conditions on the host."""
    an = numpy.asarray(_host(an))
    if n is None:
        n = len(an) - 1 - m
        if n < 0:
            raise ValueError("Order of q <m> must be smaller than len(an)-1.")
    if n < 0:
        raise ValueError("Order of p <n> must be greater than 0.")
    big = m + n
    if big > len(an) - 1:
        raise ValueError("Order of q+p <m+n> must be smaller than len(an).")
    an = an[:big + 1]
    # sum_j q_j a_(k-j) = p_k for k = 0..m+n, with q_0 = 1 and p_k = 0 past n:
    # unknowns p_0..p_n, q_1..q_m
    a = numpy.zeros((big + 1, big + 1), dtype=an.dtype)
    for k in range(big + 1):
        if k <= n:
            a[k, k] = 1
        for j in range(1, min(k, m) + 1):
            a[k, n + j] = -an[k - j]
    pq = numpy.linalg.solve(a, an)
    return numpy.poly1d(pq[:n + 1][::-1]), numpy.poly1d(numpy.r_[1.0, pq[n + 1:]][::-1])
