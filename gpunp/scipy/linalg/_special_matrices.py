"""scipy.linalg's special matrices. Those made of a vector's entries
(toeplitz, hankel, circulant, companion, fiedler, leslie,
convolution_matrix) are gathers on the device; those of closed formulas
(hilbert, dft, tri, helmert) are broadcast arithmetic on the device; the
integer ones SciPy builds by exact host recurrences (hadamard, pascal,
invpascal, invhilbert) are built on the host the same way and copied over."""

from __future__ import annotations

import math

import numpy

import gpunp

from gpunp.scipy.linalg._batch import as_device, over_batch


def _vector(x):
    return gpunp.ravel(as_device(x))


@over_batch(1, 1)
def toeplitz(c, r=None):
    """The Toeplitz matrix with first column c and first row r (r's first
    entry ignored; r = conj(c) when None) (scipy.linalg.toeplitz, 1-D inputs)."""
    c = _vector(c)
    r = gpunp.conj(c) if r is None else _vector(r)
    vals = gpunp.concatenate([c[::-1], r[1:]])
    m, n = c.size, r.size
    idx = (gpunp.arange(n)[None, :] - gpunp.arange(m)[:, None]) + (m - 1)
    return vals[idx]


@over_batch(1)
def circulant(c):
    """The circulant matrix with first column c (scipy.linalg.circulant)."""
    c = _vector(c)
    n = c.size
    idx = (gpunp.arange(n)[:, None] - gpunp.arange(n)[None, :]) % max(n, 1)
    return c[idx]


def hankel(c, r=None):
    """The Hankel matrix with first column c and last row r (zeros when
    None) (scipy.linalg.hankel)."""
    c = _vector(c)
    r = gpunp.zeros_like(c) if r is None else _vector(r)
    vals = gpunp.concatenate([c, r[1:]])
    m, n = c.size, r.size
    return vals[gpunp.arange(m)[:, None] + gpunp.arange(n)[None, :]]


def tri(N, M=None, k=0, dtype=None):
    """Ones at and below the k-th diagonal (scipy.linalg.tri, which SciPy
    1.17 dropped; cupyx keeps it)."""
    return gpunp.tri(N, M, k, dtype=int if dtype is None else dtype)


def hadamard(n, dtype=int):
    """The Sylvester-Hadamard matrix of order n, a power of two (scipy.linalg.hadamard)."""
    if n < 1:
        lg2 = 0
    else:
        lg2 = int(math.log(n, 2))
    if 2 ** lg2 != n:
        raise ValueError("n must be an positive integer, and n must be a power of 2")
    h = numpy.array([[1]], dtype=dtype)
    for _ in range(lg2):
        h = numpy.vstack((numpy.hstack((h, h)), numpy.hstack((h, -h))))
    return gpunp.asarray(h)


@over_batch(1, 1)
def leslie(f, s):
    """The Leslie matrix of fecundities f and survivals s (scipy.linalg.leslie)."""
    f, s = gpunp.atleast_1d(as_device(f)), gpunp.atleast_1d(as_device(s))
    if f.ndim != 1 or s.ndim != 1:
        raise ValueError("Incorrect shape for f or s.  f and s must be 1-D")
    if f.size != s.size + 1:
        raise ValueError("Incorrect lengths for f and s.  The length of s must be one less "
                         "than the length of f.")
    if s.size == 0:
        raise ValueError("The length of s must be at least 1.")
    n = f.size
    a = gpunp.zeros((n, n), numpy.result_type(f.dtype, s.dtype))
    a[0] = f
    a[gpunp.arange(1, n), gpunp.arange(n - 1)] = s
    return a


@over_batch(1)
def companion(a):
    """The companion matrix of the polynomial with coefficients a (scipy.linalg.companion)."""
    a = gpunp.atleast_1d(as_device(a))
    if a.ndim != 1:
        raise ValueError("Incorrect shape for `a`.  `a` must be one-dimensional.")
    if a.size < 2:
        raise ValueError("The length of `a` must be at least 2.")
    if bool(a[0] == 0):
        raise ValueError("The first coefficient in `a` must not be zero.")
    first = -a[1:] / (1.0 * a[0])
    n = a.size
    c = gpunp.zeros((n - 1, n - 1), first.dtype)
    c[0] = first
    c[gpunp.arange(1, n - 1), gpunp.arange(n - 2)] = 1
    return c


def helmert(n, full=False):
    """The Helmert matrix of order n, its first row dropped unless full
    (scipy.linalg.helmert)."""
    i = gpunp.arange(n, dtype=numpy.float64)
    h = (gpunp.arange(n)[None, :] < gpunp.arange(n)[:, None]).astype(numpy.float64)
    h = h - gpunp.diag(i)
    d = i * (i + 1)
    d[0] = 1
    h = h / gpunp.sqrt(d)[:, None]
    h[0] = 1 / math.sqrt(n)
    return h if full else h[1:]


def hilbert(n):
    """The Hilbert matrix 1 / (i + j + 1) (scipy.linalg.hilbert)."""
    i = gpunp.arange(n, dtype=numpy.float64)
    return 1.0 / (i[:, None] + i[None, :] + 1)


def invhilbert(n, exact=False):
    """The inverse of the Hilbert matrix of order n (scipy.linalg.invhilbert):
    exact binomial products, computed on the host as SciPy does."""
    from math import comb
    dt = object if exact and n > 14 else (numpy.int64 if exact else numpy.float64)
    out = numpy.empty((n, n), dtype=dt)
    for i in range(n):
        for j in range(i + 1):
            s = i + j
            v = ((-1) ** s * (s + 1) * comb(n + i, n - j - 1) * comb(n + j, n - i - 1)
                 * comb(s, i) ** 2)
            out[i, j] = out[j, i] = v
    if dt is object:
        raise OverflowError("gpunp.scipy.linalg.invhilbert(exact=True) of order > 14 does not "
                            "fit int64 (SciPy returns Python ints)")
    return gpunp.asarray(out)


def dft(n, scale=None):
    """The DFT matrix, optionally scaled by 1/n or 1/sqrt(n) (scipy.linalg.dft)."""
    if scale not in (None, "sqrtn", "n"):
        raise ValueError(f"scale must be None, 'sqrtn', or 'n'; {scale!r} is not valid.")
    k = gpunp.arange(n, dtype=numpy.float64)
    # reduce j k modulo n before the angle, so large n keeps its accuracy
    jk = (k[:, None] * k[None, :]) % max(n, 1)
    angle = jk * (-2 * math.pi / max(n, 1))
    m = gpunp.cos(angle) + 1j * gpunp.sin(angle)
    if scale == "sqrtn":
        m = m / math.sqrt(n)
    elif scale == "n":
        m = m / n
    return m


@over_batch(1)
def fiedler(a):
    """|a_i - a_j| (scipy.linalg.fiedler)."""
    a = gpunp.atleast_1d(as_device(a))
    if a.ndim != 1:
        raise ValueError("Input 'a' must be a 1D array.")
    if a.size == 0:
        return gpunp.array([], dtype=float)
    if a.size == 1:
        return gpunp.array([[0.0]])
    return gpunp.abs(a[:, None] - a[None, :])


@over_batch(1)
def fiedler_companion(a):
    """Fiedler's pentadiagonal companion matrix (scipy.linalg.fiedler_companion)."""
    a = gpunp.atleast_1d(as_device(a))
    if a.ndim != 1:
        raise ValueError("Input 'a' must be a 1-D array.")
    if a.size <= 2:
        if a.size == 2:
            return gpunp.array([[-(a[1] / a[0])]])
        return gpunp.array([], dtype=a.dtype)
    if bool(a[0] == 0.0):
        raise ValueError("Leading coefficient is zero.")
    a = a / a[0]
    n = a.size - 1
    c = gpunp.zeros((n, n), dtype=a.dtype)
    # the pattern of the entries: odd-indexed coefficients two apart on the
    # sub- and super-diagonals, even ones in the 2 x 2 blocks between
    c[gpunp.arange(3, n, 2), gpunp.arange(1, n - 2, 2)] = 1.0
    c[gpunp.arange(2, n, 2), gpunp.arange(1, n - 1, 2)] = -a[3::2]
    c[gpunp.arange(0, n - 2, 2), gpunp.arange(2, n, 2)] = 1.0
    c[gpunp.arange(0, n - 1, 2), gpunp.arange(1, n, 2)] = -a[2::2]
    c[0, 0] = -a[1]
    c[1, 0] = 1.0
    return c


def pascal(n, kind="symmetric", exact=True):
    """The Pascal matrix (scipy.linalg.pascal): binomials, built on the host."""
    if kind not in ("symmetric", "lower", "upper"):
        raise ValueError("kind must be 'symmetric', 'lower', or 'upper'")
    from math import comb
    dt = numpy.uint64 if exact else numpy.float64
    low = numpy.array([[comb(i, j) for j in range(n)] for i in range(n)], dtype=dt).reshape(n, n)
    if kind == "lower":
        p = low
    elif kind == "upper":
        p = low.T
    else:
        p = low @ low.T
    return gpunp.asarray(numpy.ascontiguousarray(p))


def invpascal(n, kind="symmetric", exact=True):
    """The inverse of the Pascal matrix (scipy.linalg.invpascal), on the host."""
    if kind not in ("symmetric", "lower", "upper"):
        raise ValueError("'kind' must be 'symmetric', 'lower' or 'upper'.")
    from math import comb
    dt = numpy.int64 if exact else numpy.float64
    low = numpy.array([[(-1) ** (i - j) * comb(i, j) if j <= i else 0 for j in range(n)]
                       for i in range(n)], dtype=dt).reshape(n, n)
    if kind == "lower":
        p = low
    elif kind == "upper":
        p = low.T
    else:
        p = low.T @ low
    return gpunp.asarray(numpy.ascontiguousarray(p))


@over_batch(1)
def convolution_matrix(a, n, mode="full"):
    """The matrix of convolving with a, for signals of length n
    (scipy.linalg.convolution_matrix)."""
    if n <= 0:
        raise ValueError("n must be a positive integer.")
    a = as_device(a)
    if a.ndim != 1:
        raise ValueError("convolution_matrix expects a one-dimensional array as input")
    if a.size == 0:
        raise ValueError("len(a) must be at least 1.")
    if mode not in ("full", "valid", "same"):
        raise ValueError("'mode' argument must be one of ('full', 'valid', 'same')")
    az = gpunp.concatenate([a, gpunp.zeros(n - 1, a.dtype)])
    raz = gpunp.concatenate([a[:1], gpunp.zeros(n - 1, a.dtype)])
    full = toeplitz(az, raz)
    # "same" keeps the middle max(n, len(a)) rows, "valid" the rows where
    # the signal covers a wholly
    trim = min(n, a.size) - 1
    if mode == "same":
        return full[trim // 2:full.shape[0] - (trim - trim // 2)]
    if mode == "valid":
        return full[trim:full.shape[0] - trim]
    return full
