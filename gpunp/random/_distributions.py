"""NumPy's Generator distributions beyond the uniforms, normals and
exponentials: one engine fill each (gp_random_fill, GP_RANDOM_GAMMA on),
whose kernel gives every element its own stream of counter blocks (its
block at attempt 0, 1, 2...), so rejection samplers take what they need
without reading another element's numbers and the result is the same on
every backend and grid.

Parameters are checked as NumPy checks them (its ValueError messages), then
passed as scalars or, when array-like, as float64/int64 arrays broadcast to
the result's shape.
"""

from __future__ import annotations

import warnings

import numpy

import gpunp
from gpunp._lib import lib
from gpunp._ndarray import ndarray
from gpunp.random._common import _check_out, _empty, _float_dtype, _integer, _shape

_F64 = numpy.dtype(numpy.float64)
_I64 = numpy.dtype(numpy.int64)

#: numpy's POISSON_LAM_MAX: larger means make counts past int64
_POISSON_LAM_MAX = numpy.iinfo(numpy.int64).max - numpy.sqrt(numpy.iinfo(numpy.int64).max) * 10


# ---- NumPy's parameter constraints: (test of a bad value, message) ---------------------
# `v` is a NumPy array (scalar parameters) or a gpunp array; NaN is v != v.

def _nan(v):
    return v != v


CONSTRAINTS = {
    "nonneg": (lambda v: v < 0, "{} < 0"),
    "pos": (lambda v: v <= 0, "{} <= 0"),
    "pos_notnan": None,  # two messages, see _check
    "gt0_le1": (lambda v: ~((v > 0) & (v <= 1)), "{} <= 0, {} > 1 or {} contains NaNs"),
    "ge0_le1": (lambda v: ~((v >= 0) & (v <= 1)), "{} < 0, {} > 1 or {} is NaN"),
    "ge0_lt1": (lambda v: ~((v >= 0) & (v < 1)), "{} < 0, {} >= 1 or {} is NaN"),
    "gt1": (lambda v: ~(v > 1), "{} <= 1 or {} is NaN"),
    "poisson": None,
}


def _any(b) -> bool:
    return bool(b.any()) if isinstance(b, ndarray) else bool(numpy.any(b))


def _array_message(msg: str, v) -> str:
    """NumPy says a bad array parameter "contains NaNs", a scalar "is NaN"."""
    return msg.replace("is NaN", "contains NaNs") if isinstance(v, ndarray) else msg


def _check(v, name: str, cons: str | None) -> None:
    if cons is None:
        return
    if cons == "pos_notnan":
        if _any(_nan(v)):
            raise ValueError(f"{name} must not be NaN")
        cons = "pos"
    if cons == "poisson":
        if _any(~(v >= 0)):
            raise ValueError(_array_message(f"{name} < 0 or {name} is NaN", v))
        if _any(v > _POISSON_LAM_MAX):
            raise ValueError(f"{name} value too large")
        return
    bad, msg = CONSTRAINTS[cons]
    if _any(bad(v)):
        raise ValueError(_array_message(msg, v).format(*[name] * msg.count("{}")))


def _param(x, kind: str):
    """A parameter as a NumPy 0-d array (scalars) or a gpunp array."""
    dt = _I64 if kind == "i" else _F64
    if isinstance(x, ndarray):
        return x.astype(dt, copy=False) if x.ndim else numpy.asarray(x.get(), dtype=dt)
    a = numpy.asarray(x)
    if a.ndim == 0:
        return a.astype(dt)
    return gpunp.asarray(a.astype(dt))


def _result_shape(size, arrays) -> tuple:
    shape = gpunp.broadcast_shapes(*[a.shape for a in arrays]) if arrays else ()
    if size is None:
        return shape
    s = _shape(size)
    if arrays and gpunp.broadcast_shapes(s, shape) != s:
        raise ValueError("shape mismatch: objects cannot be broadcast to a single shape")
    return s


class Distributions:
    """The distributions of NumPy's Generator made by gp_random_fill's
    per-element streams (mixed into gpunp.random.Generator)."""

    def _dist(self, dist: int, params=(), size=None, dtype=_F64, out=None, vec=None,
              row=None) -> ndarray:
        """A fill of `dist`: `params` are (value, name, kind, constraint)
        with kind 'f' (float64) or 'i' (int64); `row` the last dimension of
        a row distribution (whose parameter `vec` is a float64 array)."""
        vals = []
        for value, name, kind, cons in params:
            v = _param(value, kind)
            _check(v, name, cons)
            vals.append(v)
        arrays = [v for v in vals if isinstance(v, ndarray)]
        if out is not None:
            _check_out(out, dtype, size, "")
            shape = _result_shape(out.shape, arrays)
        else:
            shape = _result_shape(size, arrays)
            out = _empty(shape + (() if row is None else (row,)), dtype)
        fortran = out.ndim > 1 and not out.flags.c_contiguous
        f, i, arr = [0.0] * 3, [0] * 3, [None] * 3
        for k, v in enumerate(vals):
            if isinstance(v, ndarray):
                b = gpunp.broadcast_to(v, shape)
                arr[k] = gpunp.asfortranarray(b) if fortran else gpunp.ascontiguousarray(b)
            elif params[k][2] == "i":
                i[k] = int(v)
            else:
                f[k] = float(v)
        return self._bit_generator._fill(out, dist, params=(f, i, arr), vec=vec)

    # ---- continuous ---------------------------------------------------------------------

    def standard_gamma(self, shape, size=None, dtype=numpy.float64, out=None) -> ndarray:
        """Gamma of scale 1 (Marsaglia and Tsang; shape < 1 by the boost
        G(shape + 1) u^(1/shape)); float32 is the float64 value rounded."""
        dt = _float_dtype(dtype, "standard_gamma")
        return self._dist(lib.GP_RANDOM_GAMMA, [(shape, "shape", "f", "nonneg"),
                                                (1.0, "scale", "f", None)], size, dt, out)

    def gamma(self, shape, scale=1.0, size=None) -> ndarray:
        return self._dist(lib.GP_RANDOM_GAMMA, [(shape, "shape", "f", "nonneg"),
                                                (scale, "scale", "f", "nonneg")], size)

    def beta(self, a, b, size=None) -> ndarray:
        """Johnk's algorithm for a, b <= 1, else a ratio of gammas."""
        return self._dist(lib.GP_RANDOM_BETA, [(a, "a", "f", "pos"), (b, "b", "f", "pos")], size)

    def chisquare(self, df, size=None) -> ndarray:
        return self._dist(lib.GP_RANDOM_CHISQUARE, [(df, "df", "f", "pos")], size)

    def noncentral_chisquare(self, df, nonc, size=None) -> ndarray:
        return self._dist(lib.GP_RANDOM_NONCENTRAL_CHISQUARE,
                          [(df, "df", "f", "pos"), (nonc, "nonc", "f", "nonneg")], size)

    def f(self, dfnum, dfden, size=None) -> ndarray:
        return self._dist(lib.GP_RANDOM_F, [(dfnum, "dfnum", "f", "pos"),
                                            (dfden, "dfden", "f", "pos")], size)

    def noncentral_f(self, dfnum, dfden, nonc, size=None) -> ndarray:
        return self._dist(lib.GP_RANDOM_NONCENTRAL_F,
                          [(dfnum, "dfnum", "f", "pos"), (dfden, "dfden", "f", "pos"),
                           (nonc, "nonc", "f", "nonneg")], size)

    def standard_t(self, df, size=None) -> ndarray:
        return self._dist(lib.GP_RANDOM_STANDARD_T, [(df, "df", "f", "pos")], size)

    def standard_cauchy(self, size=None) -> ndarray:
        """A normal over a normal."""
        return self._dist(lib.GP_RANDOM_CAUCHY, [], size)

    def laplace(self, loc=0.0, scale=1.0, size=None) -> ndarray:
        return self._dist(lib.GP_RANDOM_LAPLACE, [(loc, "loc", "f", None),
                                                  (scale, "scale", "f", "nonneg")], size)

    def logistic(self, loc=0.0, scale=1.0, size=None) -> ndarray:
        return self._dist(lib.GP_RANDOM_LOGISTIC, [(loc, "loc", "f", None),
                                                   (scale, "scale", "f", "nonneg")], size)

    def gumbel(self, loc=0.0, scale=1.0, size=None) -> ndarray:
        return self._dist(lib.GP_RANDOM_GUMBEL, [(loc, "loc", "f", None),
                                                 (scale, "scale", "f", "nonneg")], size)

    def weibull(self, a, size=None) -> ndarray:
        return self._dist(lib.GP_RANDOM_WEIBULL, [(a, "a", "f", "nonneg")], size)

    def pareto(self, a, size=None) -> ndarray:
        """The Pareto II (Lomax) distribution, as NumPy's pareto."""
        return self._dist(lib.GP_RANDOM_PARETO, [(a, "a", "f", "pos")], size)

    def power(self, a, size=None) -> ndarray:
        return self._dist(lib.GP_RANDOM_POWER, [(a, "a", "f", "pos")], size)

    def rayleigh(self, scale=1.0, size=None) -> ndarray:
        return self._dist(lib.GP_RANDOM_RAYLEIGH, [(scale, "scale", "f", "nonneg")], size)

    def lognormal(self, mean=0.0, sigma=1.0, size=None) -> ndarray:
        return self._dist(lib.GP_RANDOM_LOGNORMAL, [(mean, "mean", "f", None),
                                                    (sigma, "sigma", "f", "nonneg")], size)

    def wald(self, mean, scale, size=None) -> ndarray:
        return self._dist(lib.GP_RANDOM_WALD, [(mean, "mean", "f", "pos"),
                                               (scale, "scale", "f", "pos")], size)

    def triangular(self, left, mode, right, size=None) -> ndarray:
        ps = [_param(x, "f") for x in (left, mode, right)]
        if _any(ps[0] > ps[1]):
            raise ValueError("left > mode")
        if _any(ps[1] > ps[2]):
            raise ValueError("mode > right")
        if _any(ps[0] == ps[2]):
            raise ValueError("left == right")
        return self._dist(lib.GP_RANDOM_TRIANGULAR, [(ps[0], "left", "f", None),
                                                     (ps[1], "mode", "f", None),
                                                     (ps[2], "right", "f", None)], size)

    def vonmises(self, mu, kappa, size=None) -> ndarray:
        """Best and Fisher's algorithm; values in [-pi, pi]."""
        return self._dist(lib.GP_RANDOM_VONMISES, [(mu, "mu", "f", None),
                                                   (kappa, "kappa", "f", "nonneg")], size)

    # ---- discrete (int64) ------------------------------------------------------------------

    def poisson(self, lam=1.0, size=None) -> ndarray:
        """Inversion for lam < 10, else Hormann's PTRS."""
        return self._dist(lib.GP_RANDOM_POISSON, [(lam, "lam", "f", "poisson")], size, _I64)

    def binomial(self, n, p, size=None) -> ndarray:
        """Inversion for n min(p, 1-p) <= 30, else Hormann's BTRS."""
        return self._dist(lib.GP_RANDOM_BINOMIAL, [(n, "n", "i", "nonneg"),
                                                   (p, "p", "f", "ge0_le1")], size, _I64)

    def geometric(self, p, size=None) -> ndarray:
        return self._dist(lib.GP_RANDOM_GEOMETRIC, [(p, "p", "f", "gt0_le1")], size, _I64)

    def negative_binomial(self, n, p, size=None) -> ndarray:
        """A Poisson of a gamma (its mixture)."""
        return self._dist(lib.GP_RANDOM_NEGATIVE_BINOMIAL,
                          [(n, "n", "f", "pos_notnan"), (p, "p", "f", "gt0_le1")], size, _I64)

    def hypergeometric(self, ngood, nbad, nsample, size=None) -> ndarray:
        """Draws from the urn for samples below 10, else Stadlober's HRUA."""
        g, b, s = (_param(x, "i") for x in (ngood, nbad, nsample))
        if _any(g < 0):
            raise ValueError("ngood < 0")
        if _any(b < 0):
            raise ValueError("nbad < 0")
        if _any(s < 0):
            raise ValueError("nsample < 0")
        if _any(g + b < s):
            raise ValueError("ngood + nbad < nsample")
        return self._dist(lib.GP_RANDOM_HYPERGEOMETRIC, [(g, "ngood", "i", None),
                                                         (b, "nbad", "i", None),
                                                         (s, "nsample", "i", None)], size, _I64)

    def logseries(self, p, size=None) -> ndarray:
        return self._dist(lib.GP_RANDOM_LOGSERIES, [(p, "p", "f", "ge0_lt1")], size, _I64)

    def zipf(self, a, size=None) -> ndarray:
        return self._dist(lib.GP_RANDOM_ZIPF, [(a, "a", "f", "gt1")], size, _I64)

    # ---- rows of k values ------------------------------------------------------------------

    def dirichlet(self, alpha, size=None) -> ndarray:
        """Gammas over their sum; stick-breaking betas when every alpha is
        below 0.1."""
        a = alpha.get() if isinstance(alpha, ndarray) else numpy.asarray(alpha)
        a = numpy.asarray(a, dtype=_F64)
        if a.ndim != 1:
            raise ValueError("object of too small depth for desired array" if a.ndim == 0
                             else "object too deep for desired array")
        if (a < 0).any():
            raise ValueError("alpha < 0")
        return self._dist(lib.GP_RANDOM_DIRICHLET, [], _shape(size), vec=gpunp.asarray(a),
                          row=a.size)

    def multinomial(self, n, pvals, size=None) -> ndarray:
        """A binomial per category of what remains; `n` broadcasts, `pvals`
        is one vector of k probabilities (the last is what the others
        leave)."""
        p = pvals.get() if isinstance(pvals, ndarray) else numpy.asarray(pvals)
        p = numpy.asarray(p, dtype=_F64)
        if p.ndim != 1:
            if p.ndim == 0:
                raise ValueError("pvals must have at least 1 dimension")
            raise NotImplementedError("gpunp.random: multinomial of pvals with more than one "
                                      "dimension is not supported yet")
        if not ((p >= 0) & (p <= 1)).all():
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
        if p.size and p[:-1].sum() > 1.0 + 1e-12:
            raise ValueError("sum(pvals[:-1].astype(np.float64)) > 1.0. The pvals array is "
                             "cast to 64-bit floating point prior to checking the sum. "
                             "Precision changes when casting may cause problems even if the "
                             "sum of the original pvals is valid.")
        return self._dist(lib.GP_RANDOM_MULTINOMIAL, [(n, "n", "i", "nonneg")], size, _I64,
                          vec=gpunp.asarray(p), row=p.size)

    def multivariate_hypergeometric(self, colors, nsample, size=None, method="marginals"):
        """A hypergeometric per color of what remains. Both of NumPy's
        methods ('marginals', 'count') give this one stream."""
        if method not in ("count", "marginals"):
            raise ValueError('method must be "count" or "marginals".')
        c = colors.get() if isinstance(colors, ndarray) else numpy.asarray(colors)
        c = numpy.asarray(c)
        if c.ndim != 1 or (c.size and c.dtype.kind not in "iub"):
            raise ValueError("colors must be a one-dimensional sequence of nonnegative "
                             "integers")
        c = c.astype(_I64)
        if (c < 0).any():
            raise ValueError("colors must be a one-dimensional sequence of nonnegative "
                             "integers not exceeding 9223372036854775807.")
        total = int(c.sum(dtype=object)) if c.size else 0
        if total > numpy.iinfo(numpy.int64).max:
            raise ValueError("sum(colors) must not exceed the maximum value of a 64 bit "
                             "signed integer (9223372036854775807)")
        s = _integer(nsample, "nsample")
        if s < 0:
            raise ValueError("nsample must be nonnegative.")
        if s > total:
            raise ValueError(f"nsample > sum(colors)")
        return self._dist(lib.GP_RANDOM_MVHYPERGEOMETRIC, [(s, "nsample", "i", None)],
                          _shape(size), _I64, vec=gpunp.asarray(c.astype(_F64)), row=c.size)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *,
                            method="svd") -> ndarray:
        """mean + z A for standard normals z (size + (k,)) and A from the
        k x k covariance factored on the host with NumPy (a parameter, not
        data): A = sqrt(s) V^T of its SVD (NumPy's default), L^T of its
        Cholesky factor, or sqrt(w) U^T of its eigendecomposition. The sum
        over the k columns is k elementwise multiply-adds in a fixed order,
        so the result is the same on every backend."""
        if method not in ("svd", "eigh", "cholesky"):
            raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
        m = numpy.asarray(mean.get() if isinstance(mean, ndarray) else mean, dtype=_F64)
        c = numpy.asarray(cov.get() if isinstance(cov, ndarray) else cov, dtype=_F64)
        if m.ndim != 1:
            raise ValueError("mean must be 1 dimensional")
        if c.ndim != 2 or c.shape[0] != c.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if m.shape[0] != c.shape[0]:
            raise ValueError("mean and cov must have same length")
        if check_valid not in ("warn", "raise", "ignore"):
            raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
        k = m.shape[0]
        if method == "cholesky":
            a = numpy.linalg.cholesky(c).T
        elif method == "eigh":
            w, u = numpy.linalg.eigh(c)
            if check_valid != "ignore" and not (w >= -tol).all():
                _psd_problem(check_valid, warnings)
            a = (u * numpy.sqrt(numpy.abs(w))).T
        else:
            _, sv, vt = numpy.linalg.svd(c)
            if check_valid != "ignore":
                psd = numpy.allclose(numpy.dot(vt.T * sv, vt), c, rtol=tol, atol=tol)
                if not psd:
                    _psd_problem(check_valid, warnings)
            a = numpy.sqrt(sv)[:, None] * vt
        shape = _shape(size) + (k,)
        z = self.standard_normal(shape)
        ga = gpunp.asarray(a)
        if k == 0:
            return z
        acc = z[..., 0:1] * ga[0]
        for j in range(1, k):
            acc = acc + z[..., j:j + 1] * ga[j]
        return acc + gpunp.asarray(m)


def _psd_problem(check_valid, warnings):
    if check_valid == "warn":
        warnings.warn("covariance is not symmetric positive-semidefinite.", RuntimeWarning,
                      stacklevel=3)
    else:
        raise ValueError("covariance is not symmetric positive-semidefinite.")
