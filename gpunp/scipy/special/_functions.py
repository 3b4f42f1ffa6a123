"""scipy.special's functions that are not ufuncs, on the ufuncs of the op table."""

import math

import gpunp

_rows = gpunp.ufunc.of_module("scipy.special")
_hurwitz, _riemann, _psi, _gammaln = (_rows[n] for n in ("_zeta", "_riemann_zeta", "psi",
                                                        "gammaln"))
_spherical_yn, _spherical_yn_d = _rows["_spherical_yn"], _rows["_spherical_yn_d"]


def spherical_yn(n, z, derivative=False):
    """The spherical Bessel function y_n(z) of the second kind, or its
    derivative; n is taken as integers (truncated), as SciPy takes it."""
    n = gpunp.asarray(n).astype(gpunp.int64)
    return (_spherical_yn_d if derivative else _spherical_yn)(n, z)


def _spherical(name, doc):
    value, slope = _rows[f"_spherical_{name}"], _rows[f"_spherical_{name}_d"]

    def f(n, z, derivative=False):
        n = gpunp.asarray(n).astype(gpunp.int64)
        return (slope if derivative else value)(n, z)
    f.__name__ = f.__qualname__ = f"spherical_{name}"
    f.__doc__ = doc + "; n is taken as integers (truncated), as SciPy takes it."
    return f


spherical_jn = _spherical("jn", "The spherical Bessel function j_n(z) of the first kind, or "
                                "its derivative")
spherical_in = _spherical("in", "The modified spherical Bessel function i_n(z) of the first "
                                "kind, or its derivative")
spherical_kn = _spherical("kn", "The modified spherical Bessel function k_n(z) of the second "
                                "kind, or its derivative")


def zeta(x, q=None, out=None):
    """Riemann's zeta(x), or Hurwitz's zeta(x, q)."""
    if q is None:
        return _riemann(x, out=out)
    return _hurwitz(x, q, out=out)


def polygamma(n, x):
    """The n-th derivative of digamma: psi(x) for n = 0, else
    (-1)^(n+1) n! zeta(n + 1, x)."""
    n = gpunp.asarray(n)
    x = gpunp.asarray(x)
    n, x = gpunp.broadcast_arrays(n, x)
    nf = n.astype(gpunp.float64)
    sign = gpunp.where(gpunp.remainder(nf, 2) == 0, -1.0, 1.0)
    fact = gpunp.exp(_gammaln(nf + 1))
    higher = sign * fact * _hurwitz(nf + 1, x)
    return gpunp.where(nf == 0, _psi(x), higher)


def multigammaln(a, d):
    """log of the multivariate gamma function of dimension d: d(d-1)/4 log(pi)
    + sum_{j=1..d} gammaln(a - (j - 1)/2), with SciPy's checks (ValueError
    for a d that is not a whole number or an a <= (d - 1)/2; a float d that
    is whole fails in range() as SciPy's does)."""
    a = gpunp.asarray(a)
    if not (isinstance(d, (int, float)) or (hasattr(d, "dtype") and getattr(d, "ndim", 1) == 0)) \
            or math.floor(d) != d:
        raise ValueError("d should be a positive integer (dimension)")
    if bool(gpunp.any(a <= 0.5 * (d - 1))):
        raise ValueError(f"condition a ({a}) > 0.5 * (d-1) ({0.5 * (d - 1)}) not met")
    res = (d * (d - 1) * 0.25) * math.log(math.pi)
    total = None
    for j in range(1, d + 1):
        term = _gammaln(a - (j - 1) / 2.0)
        total = term if total is None else total + term
    return gpunp.asarray(res) if total is None else res + total


def from_parts(re, im, dtype, out=None):
    """The complex array (of `dtype`, or `out`) of a real row's two outputs:
    the complex results of lambertw, wofz, sph_harm_y and the Hankel
    functions come from rows of real and imaginary parts, since the special
    rows have no complex loops. Filled part by part: re + 1j * im would make
    inf * 0 a NaN."""
    res = gpunp.empty(re.shape, dtype) if out is None else out
    res.real[...] = re
    res.imag[...] = im
    return res

