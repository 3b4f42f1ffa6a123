"""NumPy's legacy polynomial functions (numpy.polyval ... numpy.poly): the
coefficients are device arrays, highest power first. Every step is a
device operation in NumPy's order, so the dtypes follow NumPy's promotion;
what goes to the host is a length, a rank, or a yes/no (polydiv's
trailing-remainder test, poly's conjugate-pair test)."""

from __future__ import annotations

import warnings

import numpy

import gpunp
from gpunp._creation import _array
from gpunp._ndarray import ndarray


def _coefs(p) -> ndarray:
    """The coefficient array of p (a poly1d's own, as NumPy's __array__ gives)."""
    return p.coeffs if isinstance(p, poly1d) else _array(p)


def _as_poly(result, *inputs):
    """NumPy's rule: a poly1d among the inputs makes the result a poly1d."""
    return poly1d(result) if any(isinstance(x, poly1d) for x in inputs) else result


def polyval(p, x) -> ndarray:
    """p[0] * x**(n-1) + ... + p[n-1] by Horner's rule, one device step per
    coefficient; the result starts as zeros_like(x), as NumPy's does."""
    gp = gpunp
    p = _coefs(p)
    if isinstance(x, poly1d):
        y = 0  # composition: poly1d arithmetic from here on
    else:
        x = _array(x)
        y = gp.zeros_like(x)
    for i in range(len(p)):
        y = y * x + p[i]
    return y


def _aligned(a1, a2):
    """a1 and a2 as 1-d arrays of one length, the shorter padded with
    leading zeros of its own dtype."""
    gp = gpunp
    a1, a2 = gp.atleast_1d(_coefs(a1)), gp.atleast_1d(_coefs(a2))
    diff = len(a2) - len(a1)
    if diff > 0:
        a1 = gp.concatenate((gp.zeros(diff, a1.dtype), a1))
    elif diff < 0:
        a2 = gp.concatenate((gp.zeros(-diff, a2.dtype), a2))
    return a1, a2


def polyadd(a1, a2) -> ndarray:
    b1, b2 = _aligned(a1, a2)
    return _as_poly(b1 + b2, a1, a2)


def polysub(a1, a2) -> ndarray:
    b1, b2 = _aligned(a1, a2)
    return _as_poly(b1 - b2, a1, a2)


def _trimmed(c) -> ndarray:
    """The coefficients as poly1d holds them: 1-d, leading zeros dropped,
    [0] for the zero polynomial."""
    gp = gpunp
    c = gp.atleast_1d(_coefs(c))
    if c.ndim > 1:
        raise ValueError("Polynomial must be 1d only.")
    c = gp.trim_zeros(c, trim="f")
    if len(c) == 0:
        c = gp.zeros(1, c.dtype)
    return c


def polymul(a1, a2) -> ndarray:
    return _as_poly(gpunp.convolve(_trimmed(a1), _trimmed(a2)), a1, a2)


def polyder(p, m=1) -> ndarray:
    gp = gpunp
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    c = _coefs(p)
    len(c)  # a 0-d p is NumPy's TypeError, even for m=0
    for _ in range(m):
        c = c[:-1] * gp.arange(len(c) - 1, 0, -1)
    return _as_poly(c, p)


def polyint(p, m=1, k=None) -> ndarray:
    gp = gpunp
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    k = gp.zeros(m, numpy.float64) if k is None else gp.atleast_1d(_array(k))
    if len(k) == 1 and m > 1:
        k = k[0] * gp.ones(m, numpy.float64)
    if len(k) < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    c = _coefs(p)
    for i in range(m):
        c = gp.concatenate((c / gp.arange(len(c), 0, -1), k[i:i + 1]))
    return _as_poly(c, p)


def polydiv(u, v):
    """Long division u = q * v + r: one device update of the remainder per
    quotient coefficient; the remainder's leading near-zeros are dropped
    while NumPy's allclose test (a host yes/no) says so."""
    gp = gpunp
    truepoly = isinstance(u, poly1d) or isinstance(v, poly1d)
    u = gp.atleast_1d(_coefs(u)) + 0.0
    v = gp.atleast_1d(_coefs(v)) + 0.0
    dt = (u[0] + v[0]).dtype
    m, n = len(u) - 1, len(v) - 1
    scale = 1.0 / v[0]
    q = gp.zeros((max(m - n + 1, 1),), dt)
    r = u.astype(dt)
    for k in range(m - n + 1):
        d = scale * r[k]
        q[k] = d
        r[k:k + n + 1] -= d * v
    while r.shape[-1] > 1 and gp.allclose(r[0], 0, rtol=1e-14):
        r = r[1:]
    return (poly1d(q), poly1d(r)) if truepoly else (q, r)


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least squares on the Vandermonde matrix with its columns scaled to
    unit norm (NumPy's conditioning step), through gpunp.linalg.lstsq."""
    gp = gpunp
    order = int(deg) + 1
    x = _array(x) + 0.0
    y = _array(y) + 0.0
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = len(x) * numpy.finfo(x.dtype).eps
    lhs = gp.vander(x, order)
    rhs = y
    if w is not None:
        w = _array(w) + 0.0
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = lhs * w[:, None]
        rhs = rhs * (w[:, None] if rhs.ndim == 2 else w)
    scale = gp.sqrt((lhs * lhs).sum(axis=0))
    lhs = lhs / scale
    c, resids, rank, s = gp.linalg.lstsq(lhs, rhs, rcond)
    c = (c.T / scale).T
    if rank != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", numpy.exceptions.RankWarning,
                      stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if not cov:
        return c
    vbase = gp.linalg.inv(gp.dot(lhs.T, lhs)) / gp.outer(scale, scale)
    if isinstance(cov, str) and cov == "unscaled":
        fac = 1
    else:
        if len(x) <= order:
            raise ValueError("the number of data points must exceed order "
                             "to scale the covariance matrix")
        fac = resids / (len(x) - order)
    return c, (vbase * fac if y.ndim == 1 else vbase[:, :, None] * fac)


def roots(p) -> ndarray:
    """The eigenvalues of the companion matrix of p without its leading and
    trailing zeros, then one zero root per trailing zero."""
    gp = gpunp
    p = gp.atleast_1d(_coefs(p))
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    nz = gp.nonzero(p)[0]
    if len(nz) == 0:
        return gp.array([])
    first, last = int(nz[0]), int(nz[-1])
    trailing = len(p) - last - 1
    p = p[first:last + 1]
    if p.dtype.kind not in "fc":
        p = p.astype(numpy.float64)
    n = len(p)
    if n > 1:
        a = gp.diag(gp.ones((n - 2,), p.dtype), -1)
        a[0, :] = -p[1:] / p[0]
        r = gp.linalg.eigvals(a)
        if r.dtype.kind == "c" and p.dtype.kind == "f" and not bool(gp.any(r.imag != 0)):
            r = r.real  # NumPy 2.5's eigvals is complex always; its roots stays real
    else:
        r = gp.array([])
    return gp.concatenate((r, gp.zeros(trailing, r.dtype)))


def poly(seq_of_zeros):
    """prod (x - z) over the zeros (or a square matrix's eigenvalues): each
    factor is one shift-and-subtract on the device; real when the zeros are
    closed under conjugation, as NumPy decides."""
    gp = gpunp
    z = gp.atleast_1d(_array(seq_of_zeros))
    sh = z.shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        z = gp.linalg.eigvals(z)
    elif len(sh) == 1:
        z = z.astype(numpy.mintypecode(z.dtype.char))
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if len(z) == 0:
        return 1.0
    dt = z.dtype
    a = gp.ones((1,), dt)
    zero = gp.zeros((1,), dt)
    for i in range(len(z)):
        a = gp.concatenate((a, zero)) - z[i] * gp.concatenate((zero, a))
    if dt.kind == "c":
        c = z.astype(numpy.complex128)
        if bool(gp.all(gp.sort(c) == gp.sort(gp.conjugate(c)))):
            a = a.real.copy()
    return a


class poly1d:
    """A polynomial whose coefficients (highest power first, leading zeros
    dropped) are a gpunp array: arithmetic, calls, derivatives and integrals
    are the device functions above; repr and str print through NumPy's
    poly1d on a host copy of the coefficients."""

    __hash__ = None

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, poly1d):
            self._variable, self._coeffs = c_or_r._variable, c_or_r._coeffs
            if variable is not None:
                self._variable = variable
            return
        if r:
            c_or_r = poly(c_or_r)
        self._coeffs = _trimmed(c_or_r)
        self._variable = "x" if variable is None else variable

    @property
    def coeffs(self) -> ndarray:
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value):
        if value is not self._coeffs:
            raise AttributeError("Cannot set attribute")

    @property
    def variable(self) -> str:
        return self._variable

    @property
    def order(self) -> int:
        return len(self._coeffs) - 1

    @property
    def roots(self) -> ndarray:
        return roots(self._coeffs)

    c = coef = coefficients = coeffs
    r = roots
    o = order

    def _host(self):
        return numpy.poly1d(self._coeffs.get(), variable=self._variable)

    def __repr__(self) -> str:
        return repr(self._host())

    def __str__(self) -> str:
        return str(self._host())

    def __len__(self) -> int:
        return self.order

    def __iter__(self):
        return iter(self._coeffs)

    def __call__(self, val):
        return polyval(self._coeffs, val)

    def __neg__(self):
        return poly1d(-self._coeffs)

    def __pos__(self):
        return self

    def __add__(self, other):
        return poly1d(polyadd(self._coeffs, poly1d(other)._coeffs))

    def __radd__(self, other):
        return poly1d(polyadd(poly1d(other)._coeffs, self._coeffs))

    def __sub__(self, other):
        return poly1d(polysub(self._coeffs, poly1d(other)._coeffs))

    def __rsub__(self, other):
        return poly1d(polysub(poly1d(other)._coeffs, self._coeffs))

    def __mul__(self, other):
        if numpy.isscalar(other):
            return poly1d(self._coeffs * other)
        return poly1d(polymul(self._coeffs, poly1d(other)._coeffs))

    def __rmul__(self, other):
        if numpy.isscalar(other):
            return poly1d(other * self._coeffs)
        return poly1d(polymul(poly1d(other)._coeffs, self._coeffs))

    def __pow__(self, val):
        if not numpy.isscalar(val) or int(val) != val or val < 0:
            raise ValueError("Power to non-negative integers only.")
        res = [1]
        for _ in range(int(val)):
            res = polymul(self._coeffs, res)
        return poly1d(res)

    def __truediv__(self, other):
        if numpy.isscalar(other):
            return poly1d(self._coeffs / other)
        return polydiv(self, poly1d(other))

    def __rtruediv__(self, other):
        if numpy.isscalar(other):
            return poly1d(other / self._coeffs)
        return polydiv(poly1d(other), self)

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return bool(gpunp.all(self._coeffs == other._coeffs))

    def __ne__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    def __getitem__(self, val):
        if val > self.order or val < 0:
            return self._coeffs.dtype.type(0)
        return self._coeffs[self.order - val]

    def __setitem__(self, key, val):
        if key < 0:
            raise ValueError("Does not support negative powers.")
        if key > self.order:
            gp = gpunp
            pad = gp.zeros(key - self.order, self._coeffs.dtype)
            self._coeffs = gp.concatenate((pad, self._coeffs))
        self._coeffs[self.order - key] = val

    def deriv(self, m=1):
        return poly1d(polyder(self._coeffs, m))

    def integ(self, m=1, k=0):
        return poly1d(polyint(self._coeffs, m=m, k=k))
