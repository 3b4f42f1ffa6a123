"""scipy.stats' distributions norm, uniform, expon, gamma, beta, t, chi2
(continuous) and poisson, binom (discrete), frozen and unfrozen, on gpunp
arrays through gpunp.scipy.special.

As SciPy's ``rv_continuous``/``rv_discrete``: each distribution gives its
standard form (``_pdf``, ``_cdf``... of the shape parameters, loc 0, scale
1) and one generic layer does the rest: loc and scale, broadcasting, the
support (0 or 1 outside it), invalid parameters (NaN), the ends of ppf and
isf. Everything computes in float64, as SciPy's do.

A method whose special function gpunp lacks (``betainc`` for beta's and
binom's cdf, ``stdtr`` for t's, the inverses of the incomplete gamma
function for gamma's and chi2's ppf...) raises NotImplementedError naming
it, and works once ``gpunp.scipy.special`` has it, under SciPy's name."""

from __future__ import annotations

import math

import gpunp
from gpunp.scipy import special
from gpunp.scipy._host import as_device

_F = gpunp.float64
_NAN = math.nan
_INF = math.inf


def _special(name):
    """gpunp.scipy.special's function `name`, or NotImplementedError naming
    the function the method waits for."""
    f = getattr(special, name, None)
    if f is None:
        raise NotImplementedError(f"this method needs gpunp.scipy.special.{name}, "
                                  "which gpunp does not have yet")
    return f


def _arr(x):
    return as_device(x).astype(_F)


def _ignore():
    return gpunp.errstate(all="ignore")


class _Dist:
    """What every distribution shares: parsing (shapes, loc, scale), freezing,
    moments from the standard form."""

    name = ""
    shapes = ()
    discrete = False
    a, b = -_INF, _INF  # the standard form's support

    def __call__(self, *args, **kwds):
        return self.freeze(*args, **kwds)

    def freeze(self, *args, **kwds):
        return rv_frozen(self, *args, **kwds)

    def _parse(self, args, kwds, with_scale=True):
        """(shape arrays, loc, scale) from SciPy's positional and keyword
        forms: shapes first, then loc and scale."""
        names = list(self.shapes) + ["loc"] + (["scale"] if with_scale else [])
        if len(args) > len(names):
            raise TypeError(f"{self.name} takes at most {len(names)} parameters "
                            f"({len(args)} given)")
        values = dict(zip(names, args))
        for k, v in kwds.items():
            if k not in names:
                raise TypeError(f"{self.name} got an unexpected keyword argument '{k}'")
            if k in values:
                raise TypeError(f"{self.name} got multiple values for argument '{k}'")
            values[k] = v
        missing = [n for n in self.shapes if n not in values]
        if missing:
            raise TypeError(f"{self.name} missing {len(missing)} required positional "
                            f"argument{'s' if len(missing) > 1 else ''}: "
                            + ", ".join(repr(m) for m in missing))
        shapes = [_arr(values[n]) for n in self.shapes]
        loc = _arr(values.get("loc", 0.0))
        scale = _arr(values.get("scale", 1.0))
        return shapes, loc, scale

    def _valid(self, shapes, scale):
        ok = scale > 0
        for s in shapes:
            ok = ok & ~gpunp.isnan(s)
        return ok & self._argcheck(*shapes)

    def _argcheck(self, *shapes):
        ok = gpunp.asarray(True)
        for s in shapes:
            ok = ok & (s > 0)
        return ok

    def support(self, *args, **kwds):
        shapes, loc, scale = self._parse(args, kwds, not self.discrete)
        a, b = self._support(*shapes)
        ok = self._valid(shapes, scale)
        with _ignore():
            lo = gpunp.where(ok, a * scale + loc, _NAN)
            hi = gpunp.where(ok, b * scale + loc, _NAN)
        return lo, hi

    def _support(self, *shapes):
        return gpunp.asarray(float(self.a)), gpunp.asarray(float(self.b))

    # -- moments ---------------------------------------------------------------

    def stats(self, *args, moments="mv", **kwds):
        shapes, loc, scale = self._parse(args, kwds, not self.discrete)
        ok = self._valid(shapes, scale)
        with _ignore():
            mu, mu2, g1, g2 = (gpunp.asarray(v, dtype=_F) for v in self._stats(*shapes))
            parts = {"m": mu * scale + loc, "v": mu2 * scale * scale, "s": g1, "k": g2}
            out = [gpunp.where(ok, parts[c], _NAN) for c in moments]
        return out[0] if len(out) == 1 else tuple(out)

    def mean(self, *args, **kwds):
        return self.stats(*args, moments="m", **kwds)

    def var(self, *args, **kwds):
        return self.stats(*args, moments="v", **kwds)

    def std(self, *args, **kwds):
        return gpunp.sqrt(self.var(*args, **kwds))

    def _munp(self, n, *shapes):
        """E[X**n] of the standard form; from the first four cumulant-like
        statistics for n <= 4, where a distribution has no closed form."""
        mu, mu2, g1, g2 = (gpunp.asarray(v, dtype=_F) for v in self._stats(*shapes))
        if n == 1:
            return mu
        if n == 2:
            return mu2 + mu * mu
        m3 = g1 * mu2 ** 1.5
        if n == 3:
            return m3 + 3 * mu * mu2 + mu ** 3
        if n == 4:
            m4 = (g2 + 3) * mu2 * mu2
            return m4 + 4 * mu * m3 + 6 * mu * mu * mu2 + mu ** 4
        raise NotImplementedError(f"{self.name}.moment of order {n} > 4")

    def moment(self, order, *args, **kwds):
        """The non-central moment E[(loc + scale X)**order]."""
        if order != int(order) or order < 0:
            raise ValueError("Moment must be positive.")
        order = int(order)
        shapes, loc, scale = self._parse(args, kwds, not self.discrete)
        ok = self._valid(shapes, scale)
        with _ignore():
            total = gpunp.zeros(gpunp.broadcast_shapes(loc.shape, scale.shape,
                                                       *(s.shape for s in shapes)), dtype=_F)
            for k in range(order + 1):
                mk = gpunp.asarray(1.0) if k == 0 else self._munp(k, *shapes)
                total = total + math.comb(order, k) * loc ** (order - k) * scale ** k * mk
        return gpunp.where(ok, total, _NAN)

    def entropy(self, *args, **kwds):
        shapes, loc, scale = self._parse(args, kwds, not self.discrete)
        ok = self._valid(shapes, scale)
        with _ignore():
            h = gpunp.asarray(self._entropy(*shapes), dtype=_F)
            if not self.discrete:
                h = h + gpunp.log(scale)
        return gpunp.where(ok, h, _NAN)

    def median(self, *args, **kwds):
        return self.ppf(0.5, *args, **kwds)

    def interval(self, confidence, *args, **kwds):
        c = _arr(confidence)
        if bool(gpunp.any((c > 1) | (c < 0))):
            raise ValueError("confidence must be in range [0, 1]")
        return (self.ppf((1 - c) / 2, *args, **kwds), self.ppf((1 + c) / 2, *args, **kwds))

    def rvs(self, *args, size=None, random_state=None, **kwds):
        """Random variates from gpunp.random (random_state: None, a seed or a
        gpunp.random.Generator); the stream is gpunp's, not NumPy's."""
        shapes, loc, scale = self._parse(args, kwds, not self.discrete)
        if isinstance(random_state, gpunp.random.Generator):
            rng = random_state
        else:
            rng = gpunp.random.default_rng(random_state)
        if size is None:
            size = gpunp.broadcast_shapes(loc.shape, scale.shape, *(s.shape for s in shapes))
        if not bool(gpunp.all(self._valid(shapes, scale))):
            raise ValueError("Domain error in arguments. The `scale` parameter must be positive "
                             "for all distributions, and many distributions have restrictions "
                             "on shape parameters. Please see the `scipy.stats."
                             f"{self.name}` documentation for details.")
        x = self._rvs(rng, size, *shapes)
        if self.discrete:
            return (x + loc).astype(gpunp.int64)
        return x * scale + loc


def _put(cond, value, out):
    return gpunp.where(cond, value, out)


class rv_continuous(_Dist):
    """The generic layer of the continuous distributions."""

    def _x(self, x, args, kwds):
        shapes, loc, scale = self._parse(args, kwds)
        x = _arr(x)
        with _ignore():
            z = (x - loc) / scale
        a, b = self._support(*shapes)
        return z, shapes, scale, self._valid(shapes, scale), a, b

    def pdf(self, x, *args, **kwds):
        z, shapes, scale, ok, a, b = self._x(x, args, kwds)
        with _ignore():
            inside = (z >= a) & (z <= b)
            res = _put(inside, self._pdf(z, *shapes) / scale, 0.0)
            return _put(ok & ~gpunp.isnan(z), res, _NAN)

    def logpdf(self, x, *args, **kwds):
        z, shapes, scale, ok, a, b = self._x(x, args, kwds)
        with _ignore():
            inside = (z >= a) & (z <= b)
            res = _put(inside, self._logpdf(z, *shapes) - gpunp.log(scale), -_INF)
            return _put(ok & ~gpunp.isnan(z), res, _NAN)

    def _tail(self, x, args, kwds, fn, below, above):
        z, shapes, scale, ok, a, b = self._x(x, args, kwds)
        with _ignore():
            res = _put(z <= a, below, _put(z >= b, above, fn(z, *shapes)))
            return _put(ok & ~gpunp.isnan(z), res, _NAN)

    def cdf(self, x, *args, **kwds):
        return self._tail(x, args, kwds, self._cdf, 0.0, 1.0)

    def sf(self, x, *args, **kwds):
        return self._tail(x, args, kwds, self._sf, 1.0, 0.0)

    def logcdf(self, x, *args, **kwds):
        return self._tail(x, args, kwds, self._logcdf, -_INF, 0.0)

    def logsf(self, x, *args, **kwds):
        return self._tail(x, args, kwds, self._logsf, 0.0, -_INF)

    def _inverse(self, q, args, kwds, fn, at0, at1):
        shapes, loc, scale = self._parse(args, kwds)
        q = _arr(q)
        ok = self._valid(shapes, scale) & (q >= 0) & (q <= 1)
        a, b = self._support(*shapes)
        with _ignore():
            inner = gpunp.where((q > 0) & (q < 1), q, 0.5)
            z = _put(q == 0, at0(a, b), _put(q == 1, at1(a, b), fn(inner, *shapes)))
            return _put(ok, z * scale + loc, _NAN)

    def ppf(self, q, *args, **kwds):
        return self._inverse(q, args, kwds, self._ppf, lambda a, b: a, lambda a, b: b)

    def isf(self, q, *args, **kwds):
        return self._inverse(q, args, kwds, self._isf, lambda a, b: b, lambda a, b: a)

    # standard-form defaults from one another
    def _pdf(self, x, *s):
        return gpunp.exp(self._logpdf(x, *s))

    # near 1 the complement keeps the digits that the log of 1 - tiny loses
    def _logcdf(self, x, *s):
        c = self._cdf(x, *s)
        return gpunp.where(c > 0.5, gpunp.log1p(-self._sf(x, *s)), gpunp.log(c))

    def _logsf(self, x, *s):
        c = self._sf(x, *s)
        return gpunp.where(c > 0.5, gpunp.log1p(-self._cdf(x, *s)), gpunp.log(c))

    def _sf(self, x, *s):
        return 1.0 - self._cdf(x, *s)

    def _isf(self, q, *s):
        return self._ppf(1.0 - q, *s)


class rv_discrete(_Dist):
    """The generic layer of the discrete distributions (loc, no scale)."""

    discrete = True
    a, b = 0, _INF

    def _k(self, k, args, kwds):
        shapes, loc, _ = self._parse(args, kwds, with_scale=False)
        k = _arr(k) - loc
        a, b = self._support(*shapes)
        return k, shapes, self._valid(shapes, gpunp.asarray(1.0)), a, b

    def pmf(self, k, *args, **kwds):
        k, shapes, ok, a, b = self._k(k, args, kwds)
        with _ignore():
            inside = (k >= a) & (k <= b) & (k == gpunp.floor(k))
            res = _put(inside, self._pmf(k, *shapes), 0.0)
            return _put(ok & ~gpunp.isnan(k), res, _NAN)

    def logpmf(self, k, *args, **kwds):
        k, shapes, ok, a, b = self._k(k, args, kwds)
        with _ignore():
            inside = (k >= a) & (k <= b) & (k == gpunp.floor(k))
            res = _put(inside, self._logpmf(k, *shapes), -_INF)
            return _put(ok & ~gpunp.isnan(k), res, _NAN)

    def _tail(self, k, args, kwds, fn, below, above):
        k, shapes, ok, a, b = self._k(k, args, kwds)
        with _ignore():
            k = gpunp.floor(k)
            res = _put(k < a, below, _put(k >= b, above, fn(gpunp.where(k < a, a, k), *shapes)))
            return _put(ok & ~gpunp.isnan(k), res, _NAN)

    def cdf(self, k, *args, **kwds):
        return self._tail(k, args, kwds, self._cdf, 0.0, 1.0)

    def sf(self, k, *args, **kwds):
        return self._tail(k, args, kwds, self._sf, 1.0, 0.0)

    def logcdf(self, k, *args, **kwds):
        return self._tail(k, args, kwds, lambda k, *s: gpunp.log(self._cdf(k, *s)), -_INF, 0.0)

    def logsf(self, k, *args, **kwds):
        return self._tail(k, args, kwds, lambda k, *s: gpunp.log(self._sf(k, *s)), 0.0, -_INF)

    def _inverse(self, q, args, kwds, fn, at0, at1):
        shapes, loc, _ = self._parse(args, kwds, with_scale=False)
        q = _arr(q)
        ok = self._valid(shapes, gpunp.asarray(1.0)) & (q >= 0) & (q <= 1)
        a, b = self._support(*shapes)
        with _ignore():
            inner = gpunp.where((q > 0) & (q < 1), q, 0.5)
            k = _put(q == 0, at0(a, b), _put(q == 1, at1(a, b), fn(inner, *shapes)))
            return _put(ok, k + loc, _NAN)

    def ppf(self, q, *args, **kwds):
        return self._inverse(q, args, kwds, self._ppf, lambda a, b: a - 1, lambda a, b: b)

    def isf(self, q, *args, **kwds):
        return self._inverse(q, args, kwds, self._isf, lambda a, b: b, lambda a, b: a - 1)

    def _pmf(self, k, *s):
        return gpunp.exp(self._logpmf(k, *s))

    def _sf(self, k, *s):
        return 1.0 - self._cdf(k, *s)

    def _ppf_from(self, q, inverse, cdf):
        """SciPy's discrete ppf: the ceiling of the continuous inverse of the
        cdf, or one less where the cdf there already reaches q."""
        k = gpunp.ceil(inverse(q))
        below = gpunp.maximum(k - 1, 0)
        return gpunp.where(cdf(below) >= q, below, k)

    def _isf(self, q, *s):
        return self._ppf(1.0 - q, *s)

    def _entropy(self, *s):
        # -sum pmf log pmf over the support up to far in the upper tail
        mu, mu2, _, _ = (gpunp.asarray(v, dtype=_F) for v in self._stats(*s))
        hi = int(float(gpunp.max(mu + 40 * gpunp.sqrt(mu2))) + 50)
        shape = gpunp.broadcast_shapes(*(x.shape for x in s))
        k = gpunp.arange(hi + 1, dtype=_F).reshape((hi + 1,) + (1,) * len(shape))
        with _ignore():
            logp = self._logpmf(k, *s)
            terms = gpunp.where(gpunp.isfinite(logp), -gpunp.exp(logp) * logp, 0.0)
        return gpunp.sum(terms, axis=0)


# -- the distributions -----------------------------------------------------

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


class norm_gen(rv_continuous):
    name = "norm"

    def _logpdf(self, x):
        return -x * x / 2 - _LOG_SQRT_2PI

    def _cdf(self, x):
        return special.ndtr(x)

    def _sf(self, x):
        return special.ndtr(-x)

    def _logcdf(self, x):
        return special.log_ndtr(x)

    def _logsf(self, x):
        return special.log_ndtr(-x)

    def _ppf(self, q):
        return special.ndtri(q)

    def _isf(self, q):
        return -special.ndtri(q)

    def _stats(self):
        return 0.0, 1.0, 0.0, 0.0

    def _entropy(self):
        return 0.5 * (math.log(2 * math.pi) + 1)

    def _munp(self, n):
        # E[Z**n]: 0 for odd n, (n - 1)!! for even
        return gpunp.asarray(0.0 if n % 2 else float(math.prod(range(n - 1, 0, -2))))

    def _rvs(self, rng, size):
        return rng.standard_normal(size)


class uniform_gen(rv_continuous):
    name = "uniform"
    a, b = 0.0, 1.0

    def _pdf(self, x):
        return gpunp.ones_like(x)

    def _logpdf(self, x):
        return gpunp.zeros_like(x)

    def _cdf(self, x):
        return x

    def _sf(self, x):
        return 1.0 - x

    def _ppf(self, q):
        return q

    def _isf(self, q):
        return 1.0 - q

    def _stats(self):
        return 0.5, 1.0 / 12, 0.0, -1.2

    def _entropy(self):
        return 0.0

    def _munp(self, n):
        return gpunp.asarray(1.0 / (n + 1))

    def _rvs(self, rng, size):
        return rng.uniform(0.0, 1.0, size)


class expon_gen(rv_continuous):
    name = "expon"
    a = 0.0

    def _pdf(self, x):
        return gpunp.exp(-x)

    def _logpdf(self, x):
        return -x

    def _cdf(self, x):
        return -gpunp.expm1(-x)

    def _sf(self, x):
        return gpunp.exp(-x)

    def _logsf(self, x):
        return -x

    def _ppf(self, q):
        return -gpunp.log1p(-q)

    def _isf(self, q):
        return -gpunp.log(q)

    def _stats(self):
        return 1.0, 1.0, 2.0, 6.0

    def _entropy(self):
        return 1.0

    def _munp(self, n):
        return gpunp.asarray(float(math.factorial(n)))

    def _rvs(self, rng, size):
        return rng.standard_exponential(size)


def _gamma_entropy(a):
    """a + ln Gamma(a) + (1 - a) psi(a); for large a, where those terms
    cancel, Stirling's series of the sum."""
    with _ignore():
        direct = a + special.gammaln(a) + (1 - a) * special.psi(a)
        series = (0.5 * (1 + gpunp.log(2 * math.pi * a)) - 1 / (3 * a) - 1 / (12 * a * a)
                  - 1 / (90 * a ** 3) + 1 / (120 * a ** 4))
    return gpunp.where(a < 250, direct, series)


class gamma_gen(rv_continuous):
    name = "gamma"
    shapes = ("a",)
    a = 0.0

    def _logpdf(self, x, a):
        return special.xlogy(a - 1.0, x) - x - special.gammaln(a)

    def _cdf(self, x, a):
        return special.gammainc(a, x)

    def _sf(self, x, a):
        return special.gammaincc(a, x)

    def _ppf(self, q, a):
        return _special("gammaincinv")(a, q)

    def _isf(self, q, a):
        return _special("gammainccinv")(a, q)

    def _stats(self, a):
        return a, a, 2.0 / gpunp.sqrt(a), 6.0 / a

    def _entropy(self, a):
        return _gamma_entropy(a)

    def _munp(self, n, a):
        return special.poch(a, float(n))

    def _rvs(self, rng, size, a):
        return rng.standard_gamma(a, size)


class chi2_gen(rv_continuous):
    name = "chi2"
    shapes = ("df",)
    a = 0.0

    def _logpdf(self, x, df):
        return special.xlogy(df / 2 - 1, x) - x / 2 - special.gammaln(df / 2) - math.log(2) * df / 2

    def _cdf(self, x, df):
        return special.chdtr(df, x)

    def _sf(self, x, df):
        return special.chdtrc(df, x)

    def _ppf(self, q, df):
        return 2 * _special("gammaincinv")(df / 2, q)

    def _isf(self, q, df):
        return _special("chdtri")(df, q)

    def _stats(self, df):
        return df, 2 * df, gpunp.sqrt(8.0 / df), 12.0 / df

    def _entropy(self, df):
        return _gamma_entropy(df / 2) + math.log(2)  # chi2(df) is gamma(df / 2, scale=2)

    def _munp(self, n, df):
        return 2.0 ** n * special.poch(df / 2, float(n))

    def _rvs(self, rng, size, df):
        return rng.chisquare(df, size)


class beta_gen(rv_continuous):
    name = "beta"
    shapes = ("a", "b")
    a, b = 0.0, 1.0

    def _logpdf(self, x, a, b):
        return special.xlog1py(b - 1.0, -x) + special.xlogy(a - 1.0, x) - special.betaln(a, b)

    def _cdf(self, x, a, b):
        return _special("betainc")(a, b, x)

    def _sf(self, x, a, b):
        return _special("betaincc")(a, b, x)

    def _ppf(self, q, a, b):
        return _special("betaincinv")(a, b, q)

    def _isf(self, q, a, b):
        return _special("betainccinv")(a, b, q)

    def _stats(self, a, b):
        s = a + b
        mn = a / s
        var = a * b / (s * s * (s + 1))
        g1 = 2.0 * (b - a) * gpunp.sqrt(s + 1) / ((s + 2) * gpunp.sqrt(a * b))
        g2 = 6.0 * ((a - b) ** 2 * (s + 1) - a * b * (s + 2)) / (a * b * (s + 2) * (s + 3))
        return mn, var, g1, g2

    def _entropy(self, a, b):
        return (special.betaln(a, b) - (a - 1) * special.psi(a) - (b - 1) * special.psi(b)
                + (a + b - 2) * special.psi(a + b))

    def _munp(self, n, a, b):
        m = gpunp.ones(gpunp.broadcast_shapes(a.shape, b.shape), dtype=_F)
        for i in range(n):
            m = m * (a + i) / (a + b + i)
        return m

    def _rvs(self, rng, size, a, b):
        return rng.beta(a, b, size)


class t_gen(rv_continuous):
    name = "t"
    shapes = ("df",)

    def _logpdf(self, x, df):
        h = (df + 1) / 2
        return (special.gammaln(h) - special.gammaln(df / 2) - 0.5 * gpunp.log(df * math.pi)
                - h * gpunp.log1p(x * x / df))

    def _cdf(self, x, df):
        return _special("stdtr")(df, x)

    def _sf(self, x, df):
        return _special("stdtr")(df, -x)

    def _ppf(self, q, df):
        return _special("stdtrit")(df, q)

    def _isf(self, q, df):
        return -_special("stdtrit")(df, q)

    def _stats(self, df):
        inf, nan = gpunp.asarray(_INF), gpunp.asarray(_NAN)
        mu = gpunp.where(df > 1, 0.0, inf)
        mu2 = gpunp.where(df > 2, df / (df - 2), gpunp.where(df > 1, inf, nan))
        g1 = gpunp.where(df > 3, 0.0, nan)
        g2 = gpunp.where(df > 4, 6.0 / (df - 4), gpunp.where(df > 2, inf, nan))
        return mu, mu2, g1, g2

    def _entropy(self, df):
        h = (df + 1) / 2
        return (h * (special.psi(h) - special.psi(df / 2)) + 0.5 * gpunp.log(df)
                + special.betaln(df / 2, 0.5))

    def _rvs(self, rng, size, df):
        return rng.standard_t(df, size)


class poisson_gen(rv_discrete):
    name = "poisson"
    shapes = ("mu",)

    def _argcheck(self, mu):
        return mu >= 0

    def _logpmf(self, k, mu):
        return special.xlogy(k, mu) - special.gammaln(k + 1) - mu

    def _cdf(self, k, mu):
        return special.pdtr(k, mu)

    def _sf(self, k, mu):
        return special.pdtrc(k, mu)

    def _ppf(self, q, mu):
        return self._ppf_from(q, lambda q: _special("pdtrik")(q, mu),
                              lambda k: special.pdtr(k, mu))

    def _stats(self, mu):
        return mu, mu, 1.0 / gpunp.sqrt(mu), 1.0 / mu

    def _rvs(self, rng, size, mu):
        return rng.poisson(mu, size).astype(_F)


class binom_gen(rv_discrete):
    name = "binom"
    shapes = ("n", "p")

    def _argcheck(self, n, p):
        return (n >= 0) & (n == gpunp.floor(n)) & (p >= 0) & (p <= 1)

    def _support(self, n, p):
        return gpunp.asarray(0.0), n

    def _logpmf(self, k, n, p):
        combiln = special.gammaln(n + 1) - special.gammaln(k + 1) - special.gammaln(n - k + 1)
        return combiln + special.xlogy(k, p) + special.xlog1py(n - k, -p)

    def _cdf(self, k, n, p):
        return _special("bdtr")(k, n, p)

    def _sf(self, k, n, p):
        return _special("bdtrc")(k, n, p)

    def _ppf(self, q, n, p):
        return self._ppf_from(q, lambda q: _special("bdtrik")(q, n, p),
                              lambda k: _special("bdtr")(k, n, p))

    def _stats(self, n, p):
        mu = n * p
        npq = n * (p - p * p)
        # SciPy's forms: at p = 0 or 1 the skewness is inf - inf, NaN
        root = gpunp.sqrt(npq)
        return mu, mu - n * p * p, 1.0 / root - 2.0 * p / root, 1.0 / npq - 6.0 / n

    def _rvs(self, rng, size, n, p):
        return rng.binomial(n.astype(gpunp.int64), p, size).astype(_F)


class rv_frozen:
    """A distribution with its parameters fixed: the same methods without
    the parameters."""

    def __init__(self, dist, *args, **kwds):
        self.dist, self.args, self.kwds = dist, args, kwds
        dist._parse(args, kwds, not dist.discrete)  # SciPy checks them at freezing

    def __getattr__(self, name):
        method = getattr(self.dist, name)
        if name in ("pdf", "logpdf", "pmf", "logpmf", "cdf", "logcdf", "sf", "logsf", "ppf",
                    "isf", "interval"):
            return lambda x: method(x, *self.args, **self.kwds)
        if name == "moment":
            return lambda order: method(order, *self.args, **self.kwds)
        if name in ("mean", "var", "std", "median", "entropy", "support"):
            return lambda: method(*self.args, **self.kwds)
        if name == "stats":
            return lambda moments="mv": method(*self.args, moments=moments, **self.kwds)
        if name == "rvs":
            return lambda size=None, random_state=None: method(
                *self.args, size=size, random_state=random_state, **self.kwds)
        raise AttributeError(f"'rv_frozen' object has no attribute '{name}'")


norm = norm_gen()
uniform = uniform_gen()
expon = expon_gen()
gamma = gamma_gen()
chi2 = chi2_gen()
beta = beta_gen()
t = t_gen()
poisson = poisson_gen()
binom = binom_gen()
