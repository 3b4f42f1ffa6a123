"""The core of gpunp.polynomial: one row per basis (power, Chebyshev,
Legendre, Laguerre, Hermite, HermiteE) and every module function written
once over the rows.

A row is the basis' multiplication-by-x rule

    x P_k = a_k P_{k+1} + b_k P_k + c_k P_{k-1}

with the entries of its derivative and antiderivative matrices. From the
rule come evaluation (Clenshaw's recurrence) and the Vandermonde matrices
(the forward recurrence), each one kernel pass over the points for real data
(gpunp.polynomial._kernels) and a few gpunp operations per coefficient over
the whole x array otherwise; products and quotients (the same recurrences with "multiply by
x" acting on coefficient vectors), lines and companion matrices. Linear maps
of coefficients (derivatives, integrals, basis conversions) are constant
matrices built on the host from the row, whose size is all they depend on,
and applied on the device by one tensordot. What goes to the host is
lengths and yes/no answers: a trailing-zero trim, a zero divisor, a fit's
rank.
"""

from __future__ import annotations

import functools
import math
import operator
import warnings

import numpy

import gpunp as gp
from gpunp._lib import _numpy_version
from gpunp.polynomial import _kernels

# NumPy 2.5 added <prefix>valnd(pts, c) to every basis; gpunp follows the
# installed NumPy's namespace
NUMPY_HAS_VALND = _numpy_version() >= 20500


class Family:
    """A basis: its recurrence coefficients a, b, c as functions of the
    degree array k; the derivative (d) and antiderivative (i) matrices'
    entries as functions of (row k, column j); whether its companion matrix
    is symmetrised; its default domain."""

    def __init__(self, prefix, a, b, c, d, i, domain, symmetric):
        self.prefix = prefix
        self.a, self.b, self.c = a, b, c
        self.d, self.i = d, i
        self.domain = domain
        self.symmetric = symmetric

    def domain_array(self):
        """The default domain and window of the basis' class (host data:
        the parameters of an affine map)."""
        return numpy.array(self.domain)

    def abc(self, n):
        """a, b, c for k < n, as Python floats (weak scalars: a float32
        series stays float32)."""
        k = numpy.arange(n, dtype=numpy.float64)
        return tuple(numpy.broadcast_to(f(k), (n,)).astype(float).tolist()
                     for f in (self.a, self.b, self.c))


def _is(cond):
    return cond.astype(float)


def _recip(v):
    """1/v where v is nonzero, 0 elsewhere (the masked entries of a table)."""
    return numpy.divide(1.0, v, out=numpy.zeros_like(v, dtype=float), where=v != 0)


def _odd_below(k, j):
    """1 where P_k is one of P_{j-1}, P_{j-3}, ... (the odd steps below j)."""
    return _is((k < j) & ((j - k) % 2 == 1))

# One row per basis. d(k, j) is the coefficient of P_k in P_j'; i(k, j) that
# of P_k in an antiderivative of P_j (its constant is fixed later by lbnd).
FAMILIES = {
    "poly": Family(
        "poly",
        a=lambda k: 1.0, b=lambda k: 0.0, c=lambda k: 0.0,
        d=lambda k, j: _is(k == j - 1) * j,
        i=lambda k, j: _is(k == j + 1) * _recip(j + 1.0),
        domain=(-1.0, 1.0), symmetric=False),
    "cheb": Family(
        "cheb",
        a=lambda k: numpy.where(k == 0, 1.0, 0.5), b=lambda k: 0.0,
        c=lambda k: numpy.where(k == 0, 0.0, 0.5),
        d=lambda k, j: _odd_below(k, j) * numpy.where(k == 0, j, 2.0 * j),
        i=lambda k, j: (_is(k == j + 1) * numpy.where(j == 0, 1.0, _recip(2.0 * (j + 1)))
                        - _is((k == j - 1) & (j >= 2)) * _recip(2.0 * (j - 1))),
        domain=(-1.0, 1.0), symmetric=True),
    "leg": Family(
        "leg",
        a=lambda k: (k + 1) / (2 * k + 1), b=lambda k: 0.0, c=lambda k: k / (2 * k + 1),
        d=lambda k, j: _odd_below(k, j) * (2.0 * k + 1),
        i=lambda k, j: (_is(k == j + 1) - _is(k == j - 1)) / (2.0 * j + 1),
        domain=(-1.0, 1.0), symmetric=True),
    "lag": Family(
        "lag",
        a=lambda k: -(k + 1), b=lambda k: 2 * k + 1, c=lambda k: -k,
        d=lambda k, j: -_is(k < j),
        i=lambda k, j: _is(k == j) - _is(k == j + 1),
        domain=(0.0, 1.0), symmetric=True),
    "herm": Family(
        "herm",
        a=lambda k: 0.5, b=lambda k: 0.0, c=lambda k: k,
        d=lambda k, j: _is(k == j - 1) * 2.0 * j,
        i=lambda k, j: _is(k == j + 1) * _recip(2.0 * (j + 1)),
        domain=(-1.0, 1.0), symmetric=True),
    "herme": Family(
        "herme",
        a=lambda k: 1.0, b=lambda k: 0.0, c=lambda k: k,
        d=lambda k, j: _is(k == j - 1) * j,
        i=lambda k, j: _is(k == j + 1) * _recip(j + 1.0),
        domain=(-1.0, 1.0), symmetric=True),
}


# ---------------------------------------------------------------- helpers

_INT_CHARS = "?bBhHiIlLqQpP"


def _real_dtype(dt):
    return numpy.empty(0, dt).real.dtype


def _coef(c) -> gp.ndarray:
    """c as a gpunp array of at least one dimension, integers as float64."""
    c = gp.asarray(c)
    if c.ndim == 0:
        c = c.reshape(1)
    if c.dtype.char in _INT_CHARS:
        c = c.astype(numpy.float64)
    return c


def _as_int(x, desc):
    try:
        return operator.index(x)
    except TypeError as e:
        raise TypeError(f"{desc} must be an integer, received {x}") from e


def trimseq(seq):
    """seq without its trailing zeros (at least its first element)."""
    if len(seq) == 0:
        return seq
    nz = numpy.flatnonzero(gp.asnumpy(seq != 0))
    return seq[:(int(nz[-1]) + 1 if nz.size else 1)]


def as_series(alist, trim=True):
    """NumPy's as_series: 1-d gpunp arrays of one common type (at least
    float64 for integers), trailing zeros trimmed if `trim`."""
    arrays = []
    for a in alist:
        a = gp.asarray(a)
        if a.ndim == 0:
            a = a.reshape(1)
        arrays.append(a)
    for a in arrays:
        if a.size == 0:
            raise ValueError("Coefficient array is empty")
        if a.ndim != 1:
            raise ValueError("Coefficient array is not 1-d")
    if trim:
        arrays = [trimseq(a) for a in arrays]
    try:
        dtype = numpy.common_type(*[numpy.empty(0, a.dtype) for a in arrays])
    except TypeError as e:
        # NumPy falls back to object arrays here; gpunp has no object dtype
        raise ValueError("Coefficient arrays have no common type") from e
    return [a.astype(dtype, copy=True) for a in arrays]


@functools.lru_cache(maxsize=256)
def _host_mulx(fam, n):
    """The (n+1) x n matrix of multiplication by x on n coefficients."""
    a, b, c = map(numpy.array, FAMILIES[fam].abc(n))
    m = numpy.zeros((n + 1, n))
    idx = numpy.arange(n)
    m[idx + 1, idx] = a
    m[idx, idx] = b
    m[idx[1:] - 1, idx[1:]] = c[1:]
    return m


def _apply(m, c):
    """The host matrix m applied to the first axis of the device array c."""
    return gp.tensordot(gp.asarray(m.astype(_real_dtype(c.dtype))), c, axes=(1, 0))


# ---------------------------------------------------------------- algebra

def line(fam, off, scl):
    """off + scl * x in the basis: x = a_0 P_1 + b_0 P_0."""
    a, b, _ = (v[0] for v in FAMILIES[fam].abc(1))
    # whole-number constants as Python ints: an integer off and scl give an
    # integer line, as NumPy's do
    a, b = (int(v) if v.is_integer() else v for v in (a, b))
    coef = [off, scl] if (a, b) == (1, 0) else [off + scl * b, scl * a]
    return gp.asarray(coef if scl != 0 else coef[:1])


def add(c1, c2):
    c1, c2 = as_series([c1, c2])
    if len(c1) < len(c2):
        c1, c2 = c2, c1
    ret = gp.concatenate([c1[:len(c2)] + c2, c1[len(c2):]])
    return trimseq(ret)


def sub(c1, c2):
    c1, c2 = as_series([c1, c2])
    return add(c1, -c2)


def mulx(fam, c):
    [c] = as_series([c])
    if len(c) == 1 and not bool(c[0] != 0):
        return c
    return _apply(_host_mulx(fam, len(c)), c)


def _x_times(fam, n):
    """Multiplication by x on vectors of n coefficients whose last is zero."""
    return _host_mulx(fam, n)[:n]


def mul(fam, c1, c2):
    c1, c2 = as_series([c1, c2])
    if fam == "poly":
        return trimseq(gp.convolve(c1, c2))
    # Clenshaw's recurrence over the shorter series, with "multiply by x"
    # acting on the longer one's coefficients
    c, xs = (c2, c1) if len(c1) > len(c2) else (c1, c2)
    n = len(c1) + len(c2) - 1
    xs = gp.concatenate([xs, gp.zeros(n - len(xs), dtype=xs.dtype)])
    a, b, cc = FAMILIES[fam].abc(len(c) + 1)
    xm = gp.asarray(_x_times(fam, n).astype(_real_dtype(xs.dtype)))
    y1 = c[-1] * xs
    y2 = None
    for k in range(len(c) - 2, -1, -1):
        t = xm @ y1
        if b[k]:
            t = t - b[k] * y1
        y = c[k] * xs + t * (1.0 / a[k])
        if y2 is not None:
            y = y - (cc[k + 1] / a[k + 1]) * y2
        y1, y2 = y, y1
    return trimseq(y1)


def _basis_times(fam, c2, count, n):
    """P_0 c2 ... P_{count-1} c2, each padded to n coefficients."""
    a, b, cc = FAMILIES[fam].abc(count + 1)
    xm = gp.asarray(_x_times(fam, n).astype(_real_dtype(c2.dtype)))
    v = [gp.concatenate([c2, gp.zeros(n - len(c2), dtype=c2.dtype)])]
    for i in range(count - 1):
        t = xm @ v[i]
        if b[i]:
            t = t - b[i] * v[i]
        t = t * (1.0 / a[i])
        if i > 0 and cc[i]:
            t = t - (cc[i] / a[i]) * v[i - 1]
        v.append(t)
    return v


def div(fam, c1, c2):
    c1, c2 = as_series([c1, c2])
    if len(c2) == 1 and not bool(c2[0] != 0):
        raise ZeroDivisionError
    lc1, lc2 = len(c1), len(c2)
    if lc1 < lc2:
        return c1[:1] * 0, c1
    if lc2 == 1:
        return c1 / c2[-1], c1[:1] * 0
    p = _basis_times(fam, c2, lc1 - lc2 + 1, lc1)
    quo = [None] * (lc1 - lc2 + 1)
    rem = c1
    for i in range(lc1 - lc2, -1, -1):
        q = rem[-1] / p[i][len(rem) - 1]
        rem = rem[:-1] - q * p[i][:len(rem) - 1]
        quo[i] = q
    return gp.stack(quo).astype(c1.dtype), trimseq(rem)


def power(fam, c, pow, maxpower):
    [c] = as_series([c])
    ipow = int(pow)
    if ipow != pow or ipow < 0:
        raise ValueError("Power must be a non-negative integer.")
    if maxpower is not None and ipow > maxpower:
        raise ValueError("Power is too large")
    if ipow == 0:
        return gp.asarray(numpy.array([1], dtype=c.dtype))
    prd = c
    for _ in range(ipow - 1):
        prd = mul(fam, prd, c)
    return prd


def fromroots(fam, roots):
    if len(roots) == 0:
        return gp.ones(1)
    [roots] = as_series([roots], trim=False)
    roots = gp.sort(roots)
    p = [line(fam, 0.0, 1.0) - gp.concatenate([r.reshape(1), gp.zeros(1, dtype=r.dtype)])
         for r in roots]
    n = len(p)
    while n > 1:
        m, r = divmod(n, 2)
        tmp = [mul(fam, p[i], p[i + m]) for i in range(m)]
        if r:
            tmp[0] = mul(fam, tmp[0], p[-1])
        p, n = tmp, m
    return p[0]


# ------------------------------------------------------------- evaluation

def val(fam, x, c, tensor=True):
    """Clenshaw's recurrence: y_k = c_k + (x - b_k)/a_k y_{k+1}
    - c_{k+1}/a_{k+1} y_{k+2}; the value is y_0."""
    c = _coef(c)
    if isinstance(x, (tuple, list)):
        x = gp.asarray(x)
    elif isinstance(x, numpy.ndarray):
        x = gp.asarray(x)
    n = len(c)
    if n == 0:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    if isinstance(x, gp.ndarray) and x.dtype.kind in "fiu":
        rt = numpy.result_type(x.dtype, c.dtype)
        if rt.name in _kernels.REAL:
            return _val_kernel(fam, x.astype(rt, copy=False), c, tensor)
    if isinstance(x, gp.ndarray) and tensor:
        c = c.reshape(c.shape + (1,) * x.ndim)
    a, b, cc = FAMILIES[fam].abc(n)
    if _x_times_zero(fam, n):
        y1 = c[-1] + x * 0
    else:
        y1 = c[-1] + (gp.zeros_like(x) if isinstance(x, gp.ndarray) else 0)
    y2 = None
    for k in range(n - 2, -1, -1):
        t = y1 * x
        if a[k] != 1:
            t = t * (1.0 / a[k])
        if b[k]:
            t = t - (b[k] / a[k]) * y1
        y = c[k] + t
        if y2 is not None and cc[k + 1]:
            y = y - (cc[k + 1] / a[k + 1]) * y2
        y1, y2 = y, y1
    return y1


@functools.lru_cache(maxsize=256)
def _host_table(fam, n):
    """1/a_k, b_k/a_k, c_k/a_k for k < n, a row each (the kernels' table)."""
    a, b, c = map(numpy.array, FAMILIES[fam].abc(n))
    return numpy.stack([1.0 / a, b / a, c / a], axis=1).ravel()


def _val_kernel(fam, x, c, tensor):
    """val as one kernel pass: a thread per value, its coefficient column
    chosen by `col` (broadcast against x as val's reshape of c would be)."""
    rest = c.shape[1:]
    m = math.prod(rest)
    col = gp.arange(m).reshape(rest + ((1,) * x.ndim if tensor else ())) if rest else 0
    tab = gp.asarray(_host_table(fam, len(c) + 1))
    return _kernels.CLENSHAW(x, col, c.reshape(len(c), m), tab, len(c), m,
                             int(_x_times_zero(fam, len(c))))


def _x_times_zero(fam, n):
    """Whether evaluation starts from c_{n-1} + 0 * x, as NumPy's power
    series and every basis' constant do: an infinite x then gives NaN."""
    return fam == "poly" or n == 1


def valfromroots(x, r, tensor=True):
    """The product of x - r_k over the first axis of the roots r."""
    if isinstance(x, (tuple, list, numpy.ndarray)):
        x = gp.asarray(x)
    r = _coef(r)
    if isinstance(x, gp.ndarray):
        if tensor:
            r = r.reshape(r.shape + (1,) * x.ndim)
        elif x.ndim >= r.ndim:
            raise ValueError("x.ndim must be < r.ndim when tensor == False")
    return gp.prod(x - r, axis=0)


def _valnd(fam, c, *args):
    args = [gp.asarray(a) for a in args]
    if not all(a.shape == args[0].shape for a in args[1:]):
        what = {3: "x, y, z", 2: "x, y"}.get(len(args), "ordinates")
        raise ValueError(f"{what} are incompatible")
    c = val(fam, args[0], c)
    for xi in args[1:]:
        c = val(fam, xi, c, tensor=False)
    return c


def gridnd(fam, c, *args):
    for xi in args:
        c = val(fam, xi, c)
    return c


def vander(fam, x, deg):
    ideg = _as_int(deg, "deg")
    if ideg < 0:
        raise ValueError("deg must be non-negative")
    x = gp.asarray(x)
    if x.ndim == 0:
        x = x.reshape(1)
    x = x + 0.0
    if x.dtype.name in _kernels.REAL:
        v = gp.empty(x.shape + (ideg + 1,), dtype=x.dtype)
        _kernels.VANDER(x, gp.asarray(_host_table(fam, ideg + 1)), ideg, v)
        return v
    a, b, cc = FAMILIES[fam].abc(ideg + 1)
    v = [x * 0 + 1]
    for k in range(ideg):
        t = v[k] * x
        if a[k] != 1:
            t = t * (1.0 / a[k])
        if b[k]:
            t = t - (b[k] / a[k]) * v[k]
        if k > 0 and cc[k]:
            t = t - (cc[k] / a[k]) * v[k - 1]
        v.append(t)
    return gp.stack(v, axis=-1)


def vander_nd(fam, points, degrees):
    n = len(points)
    if n != len(degrees):
        raise ValueError(f"Expected {n} dimensions of degrees, got {len(degrees)}")
    if n == 0:
        raise ValueError("Unable to guess a dtype or shape when no points are given")
    pts = gp.asarray(gp.stack([gp.asarray(p) for p in points])) + 0.0
    out = None
    for i in range(n):
        v = vander(fam, pts[i], degrees[i])
        sl = [None] * n
        sl[i] = slice(None)
        v = v[(...,) + tuple(sl)]
        out = v if out is None else out * v
    return out.reshape(out.shape[:-n] + (-1,))


def fit(fam, x, y, deg, rcond=None, full=False, w=None):
    x = gp.asarray(x) + 0.0
    y = gp.asarray(y) + 0.0
    deg = numpy.asarray(gp.asnumpy(deg) if isinstance(deg, gp.ndarray) else deg)
    if deg.ndim > 1 or deg.dtype.kind not in "iu" or deg.size == 0:
        raise TypeError("deg must be an int or non-empty 1-D array of int")
    if deg.min() < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if len(x) != len(y):
        raise TypeError("expected x and y to have same length")
    if deg.ndim == 0:
        lmax = int(deg)
        order = lmax + 1
        van = vander(fam, x, lmax)
    else:
        deg = numpy.sort(deg)
        lmax = int(deg[-1])
        order = len(deg)
        van = vander(fam, x, lmax)[:, gp.asarray(deg)]
    lhs = van.T
    rhs = y.T
    if w is not None:
        w = gp.asarray(w) + 0.0
        if w.ndim != 1:
            raise TypeError("expected 1D vector for w")
        if len(x) != len(w):
            raise TypeError("expected x and w to have same length")
        lhs = lhs * w
        rhs = rhs * w
    if rcond is None:
        rcond = len(x) * numpy.finfo(x.dtype).eps
    # columns scaled to unit norm, as NumPy does, for the conditioning
    scl = gp.sqrt(gp.sum(gp.abs(lhs) ** 2 if lhs.dtype.kind == "c" else gp.square(lhs), axis=1))
    scl = gp.where(scl == 0, 1, scl)
    c, resids, rank, s = gp.linalg.lstsq(lhs.T / scl, rhs.T, rcond)
    c = (c.T / scl).T
    if deg.ndim > 0:
        cc = gp.zeros((lmax + 1,) + c.shape[1:], dtype=c.dtype)
        cc[gp.asarray(deg)] = c
        c = cc
    if rank != order and not full:
        warnings.warn("The fit may be poorly conditioned", numpy.exceptions.RankWarning,
                      stacklevel=3)
    if full:
        return c, [resids, rank, s, rcond]
    return c


# ------------------------------------------------- derivatives, integrals

def der(fam, c, m=1, scl=1, axis=0):
    c = _coef(c)
    cnt = _as_int(m, "the order of derivation")
    iaxis = _as_int(axis, "the axis")
    if cnt < 0:
        raise ValueError("The order of derivation must be non-negative")
    iaxis = numpy.lib.array_utils.normalize_axis_index(iaxis, c.ndim)
    if cnt == 0:
        return c.copy()
    c = gp.moveaxis(c, iaxis, 0)
    n = len(c)
    if cnt >= n:
        c = c[:1] * 0
    else:
        # the m-th derivative's matrix, a product of first derivatives'
        d = numpy.eye(n)
        for size in range(n, n - cnt, -1):
            d = _matrix_host(FAMILIES[fam].d, size - 1, size) @ d
        c = _inplace(gp.multiply, _apply(d, c), scl ** cnt)
    return gp.moveaxis(c, 0, iaxis)


def integ(fam, c, m=1, k=[], lbnd=0, scl=1, axis=0):
    c = _coef(c)
    if not numpy.iterable(k):
        k = [k]
    cnt = _as_int(m, "the order of integration")
    iaxis = _as_int(axis, "the axis")
    if cnt < 0:
        raise ValueError("The order of integration must be non-negative")
    if len(k) > cnt:
        raise ValueError("Too many integration constants")
    if numpy.ndim(lbnd) != 0:
        raise ValueError("lbnd must be a scalar.")
    if numpy.ndim(scl) != 0:
        raise ValueError("scl must be a scalar.")
    iaxis = numpy.lib.array_utils.normalize_axis_index(iaxis, c.ndim)
    if cnt == 0:
        return c.copy()
    c = gp.moveaxis(c, iaxis, 0)
    if len(c) == 0:
        raise IndexError("index 0 is out of bounds for axis 0 with size 0")
    k = list(k) + [0] * (cnt - len(k))
    for i in range(cnt):
        n = len(c)
        c = _inplace(gp.multiply, c, scl)
        if n == 1 and not bool(gp.any(c[0] != 0)):
            c = _inplace(gp.add, c, k[i])
        else:
            tmp = _apply(_matrix_host(FAMILIES[fam].i, n + 1, n), c)
            gp.add(tmp[0], k[i] - val(fam, lbnd, tmp), out=tmp[0])
            c = tmp
    return gp.moveaxis(c, 0, iaxis)


def _inplace(ufunc, c, s):
    """ufunc(c, s) in c's dtype, cast as NumPy's in-place operators cast
    (same kind: a float64 scale keeps a float32 series float32)."""
    return ufunc(c, s, out=gp.empty_like(c))


def _matrix_host(f, rows, cols):
    """The table f(k, j) of a basis' row over rows x cols (host float64)."""
    k, j = numpy.meshgrid(numpy.arange(float(rows)), numpy.arange(float(cols)), indexing="ij")
    return numpy.broadcast_to(f(k, j), (rows, cols)).astype(float)


# ------------------------------------------------ companions and roots

@functools.lru_cache(maxsize=256)
def _host_companion(fam, n):
    """The n x n companion matrix's constant part and the weights of the
    last column's correction: the recurrence's tridiagonal matrix,
    symmetrised by the diagonal scaling scl_{k+1} = scl_k sqrt(c_{k+1}/a_k)
    where the basis allows it (NumPy's scaled companions)."""
    f = FAMILIES[fam]
    a, b, c = map(numpy.array, f.abc(n + 1))
    mat = numpy.zeros((n, n))
    idx = numpy.arange(n - 1)
    if f.symmetric:
        off = numpy.sign(a[:n - 1]) * numpy.sqrt(a[:n - 1] * c[1:n])
        mat[idx, idx + 1] = off
        mat[idx + 1, idx] = off
        # scl_k / scl_{n-1} as a product of factors below one for the
        # Hermite bases, where scl itself overflows
        ratio = numpy.cumprod(numpy.sqrt(a[:n - 1] / c[1:n])[::-1])[::-1]
        scl = numpy.concatenate([ratio, [1.0]])
    else:
        mat[idx, idx + 1] = c[1:n]
        mat[idx + 1, idx] = a[:n - 1]
        scl = numpy.ones(n)
    mat[numpy.arange(n), numpy.arange(n)] = b[:n]
    return mat, scl * a[n - 1]


def companion(fam, c):
    [c] = as_series([c])
    if len(c) < 2:
        raise ValueError("Series must have maximum degree of at least 1.")
    a, b, _ = FAMILIES[fam].abc(1)
    if len(c) == 2:
        return (b[0] - a[0] * (c[0] / c[1])).reshape(1, 1)
    n = len(c) - 1
    mat, wt = _host_companion(fam, n)
    out = gp.asarray(mat.astype(_real_dtype(c.dtype))).astype(c.dtype)
    out[:, -1] = out[:, -1] - (c[:-1] / c[-1]) * gp.asarray(wt)
    return out


def roots(fam, c):
    [c] = as_series([c])
    if len(c) < 2:
        return gp.asarray(numpy.array([], dtype=c.dtype))
    if len(c) == 2:
        a, b, _ = FAMILIES[fam].abc(1)
        return (b[0] - a[0] * (c[0] / c[1])).reshape(1)
    m = companion(fam, c)[::-1, ::-1]
    r = gp.sort(gp.linalg.eigvals(m))
    if fam in _REAL_ROOTS and r.dtype.kind == "c" and c.dtype.kind != "c" \
            and not bool(gp.any(r.imag != 0)):
        r = r.real.copy()
    return r


# Where NumPy's eigvals gives complex eigenvalues of a real matrix always
# (NumPy >= 2.5), these bases' roots still turn real when no imaginary part
# is nonzero; the others keep the eigenvalues' dtype (NumPy 2.5's own mix).
_REAL_ROOTS = {"poly", "lag", "herm"}


def _scaled_basis(fam, x, n, beta):
    """q_{n-1}, q_n and q_n' at x for the basis scaled to the symmetric
    recurrence x q_k = beta_{k+1} q_{k+1} + b_k q_k + beta_k q_{k-1}: the
    scaled values stay within range where P_n overflows (Hermite of high
    degree), and the ratios the quadrature needs do not change."""
    _, b, _ = FAMILIES[fam].abc(n)
    q0, q1 = x * 0.0, x * 0.0 + 1.0
    d0, d1 = x * 0.0, x * 0.0
    for k in range(n):
        q2 = ((x - b[k]) * q1 - beta[k] * q0) / beta[k + 1]
        d2 = (q1 + (x - b[k]) * d1 - beta[k] * d0) / beta[k + 1]
        q0, q1, d0, d1 = q1, q2, d1, d2
    return q0, q1, d1


def gauss(fam, deg, total, symmetric):
    """Gauss quadrature: nodes the eigenvalues of the symmetric companion
    matrix improved by one Newton step, weights 1 / (q_{n-1} q_n') scaled to
    sum to `total` (NumPy's steps, on the scaled basis)."""
    ideg = _as_int(deg, "deg")
    if ideg <= 0:
        raise ValueError("deg must be a positive integer")
    mat, _ = _host_companion(fam, ideg)
    a, _, c = FAMILIES[fam].abc(ideg + 1)
    beta = [0.0] + [math.copysign(math.sqrt(a[k] * c[k + 1]), a[k]) for k in range(ideg)]
    x = gp.linalg.eigvalsh(gp.asarray(mat))
    _, dy, df = _scaled_basis(fam, x, ideg, beta)
    x = x - dy / df
    fm, _, _ = _scaled_basis(fam, x, ideg, beta)
    fm = fm / gp.max(gp.abs(fm))
    df = df / gp.max(gp.abs(df))
    w = 1 / (fm * df)
    if symmetric:
        w = (w + w[::-1]) / 2
        x = (x - x[::-1]) / 2
    w = w * (total / gp.sum(w))
    return x, w


# ------------------------------------------------- basis conversions

@functools.lru_cache(maxsize=256)
def _host_to_power(fam, n):
    """Column j: the power-series coefficients of P_j (forward recurrence)."""
    a, b, c = FAMILIES[fam].abc(n)
    m = numpy.zeros((n, n))
    m[0, 0] = 1.0
    for k in range(n - 1):
        col = numpy.concatenate([[0.0], m[:-1, k]]) - b[k] * m[:, k]
        if k > 0:
            col -= c[k] * m[:, k - 1]
        m[:, k + 1] = col / a[k]
    return m


@functools.lru_cache(maxsize=256)
def _host_from_power(fam, n):
    """Column j: x**j in the basis (repeated multiplication by x)."""
    x = _host_mulx(fam, n)[:n]
    m = numpy.zeros((n, n))
    m[0, 0] = 1.0
    for j in range(1, n):
        m[:, j] = x @ m[:, j - 1]
    return m


def to_power(fam, c):
    [c] = as_series([c])
    return _apply(_host_to_power(fam, len(c)), c)


def from_power(fam, pol):
    [pol] = as_series([pol])
    return _apply(_host_from_power(fam, len(pol)), pol)


# ------------------------------------------------ the module namespace

def module_functions(fam, maxpower=16):
    """The NumPy names of one basis' module, bound to its row."""
    p = fam
    f = FAMILIES[fam]

    def _wrap(fn, name, doc):
        fn.__name__ = fn.__qualname__ = name
        fn.__doc__ = doc
        return fn

    def pw(c, pow, maxpower=maxpower):
        return power(fam, c, pow, maxpower)

    def val2d(x, y, c):
        return _valnd(fam, c, x, y)

    def val3d(x, y, z, c):
        return _valnd(fam, c, x, y, z)

    def grid2d(x, y, c):
        return gridnd(fam, c, x, y)

    def grid3d(x, y, z, c):
        return gridnd(fam, c, x, y, z)

    def valnd(pts, c):
        return _valnd(fam, c, *pts)

    def vander2d(x, y, deg):
        return vander_nd(fam, (x, y), deg)

    def vander3d(x, y, z, deg):
        return vander_nd(fam, (x, y, z), deg)

    names = {
        "domain": gp.asarray(numpy.array(f.domain)),
        "zero": gp.asarray(numpy.array([0])),
        "one": gp.asarray(numpy.array([1])),
        "x": line(fam, 0, 1),
        "line": _wrap(lambda off, scl: line(fam, off, scl), p + "line",
                      "off + scl*x as a series."),
        "add": _wrap(add, p + "add", "The sum of two series."),
        "sub": _wrap(sub, p + "sub", "The difference of two series."),
        "mulx": _wrap(lambda c: mulx(fam, c), p + "mulx", "A series multiplied by x."),
        "mul": _wrap(lambda c1, c2: mul(fam, c1, c2), p + "mul", "The product of two series."),
        "div": _wrap(lambda c1, c2: div(fam, c1, c2), p + "div",
                     "Quotient and remainder of two series."),
        "pow": _wrap(pw, p + "pow", "A series raised to a power."),
        "val": _wrap(lambda x, c, tensor=True: val(fam, x, c, tensor), p + "val",
                     "The series at points x (Clenshaw's recurrence on the device)."),
        "der": _wrap(lambda c, m=1, scl=1, axis=0: der(fam, c, m, scl, axis), p + "der",
                     "The m-th derivative of a series."),
        "int": _wrap(lambda c, m=1, k=[], lbnd=0, scl=1, axis=0:
                     integ(fam, c, m, k, lbnd, scl, axis), p + "int",
                     "The m-th integral of a series."),
        "fromroots": _wrap(lambda roots: fromroots(fam, roots), p + "fromroots",
                           "The monic series with the given roots."),
        "vander": _wrap(lambda x, deg: vander(fam, x, deg), p + "vander",
                        "The pseudo-Vandermonde matrix of x."),
        "fit": _wrap(lambda x, y, deg, rcond=None, full=False, w=None:
                     fit(fam, x, y, deg, rcond, full, w), p + "fit",
                     "Least-squares fit of a series to data."),
        "trim": _wrap(lambda c, tol=0: trimcoef(c, tol), p + "trim",
                      "Small trailing coefficients removed."),
        "roots": _wrap(lambda c: roots(fam, c), p + "roots", "The roots of a series."),
        "val2d": _wrap(val2d, p + "val2d", "A 2-d series at points (x, y)."),
        "val3d": _wrap(val3d, p + "val3d", "A 3-d series at points (x, y, z)."),
        "grid2d": _wrap(grid2d, p + "grid2d", "A 2-d series on the grid x by y."),
        "grid3d": _wrap(grid3d, p + "grid3d", "A 3-d series on the grid x by y by z."),
        "vander2d": _wrap(vander2d, p + "vander2d", "The 2-d pseudo-Vandermonde matrix."),
        "vander3d": _wrap(vander3d, p + "vander3d", "The 3-d pseudo-Vandermonde matrix."),
        "companion": _wrap(lambda c: companion(fam, c), p + "companion",
                           "The (scaled) companion matrix of a series."),
    }
    if NUMPY_HAS_VALND:
        names["valnd"] = _wrap(valnd, p + "valnd", "An N-d series at the points pts.")
    return {p + k: v for k, v in names.items()}


def trimcoef(c, tol=0):
    if tol < 0:
        raise ValueError("tol must be non-negative")
    [c] = as_series([c])
    ind = numpy.flatnonzero(gp.asnumpy(gp.abs(c) > tol))
    if len(ind) == 0:
        return c[:1] * 0
    return c[:int(ind[-1]) + 1].copy()
