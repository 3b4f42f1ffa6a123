"""Correlations, linear regression and t-tests: their statistics from a few
reductions on the device, their p-values from the t and beta
distributions of ``_distributions``. While gpunp.scipy.special lacks the
function a p-value needs (``stdtr``, ``betaincc``), the statistic is there
and reading ``pvalue`` raises NotImplementedError naming the function."""

from __future__ import annotations

import math
from collections import namedtuple

import gpunp
from gpunp.scipy import special
from gpunp.scipy._version import scipy_version
from gpunp.scipy.stats import _distributions as dists
from gpunp.scipy.stats._common import Masked, axis_of, check_policy, float_array, keep, nan_mask
from gpunp.scipy.stats._rank import rankdata

ConfidenceInterval = namedtuple("ConfidenceInterval", ("low", "high"))
_ALTERNATIVES = ("two-sided", "less", "greater")


class _Result:
    """A result with named fields that unpacks like a tuple; a field given
    as a function is computed when read (so a p-value that waits for a
    special function raises only when asked for)."""

    _fields: tuple = ()

    def __init__(self, **values):
        self._values = values

    def __getattr__(self, name):
        values = self.__dict__.get("_values", {})
        if name not in values:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        v = values[name]
        return v() if callable(v) else v

    def __iter__(self):
        return (getattr(self, f) for f in self._fields)

    def __len__(self):
        return len(self._fields)

    def __getitem__(self, i):
        return getattr(self, self._fields[i])

    def __repr__(self):
        shown = ", ".join(f"{f}={'<pending>' if callable(self._values[f]) else self._values[f]!r}"
                          for f in self._fields)
        return f"{type(self).__name__}({shown})"


class SignificanceResult(_Result):
    _fields = ("statistic", "pvalue")


class PearsonRResult(SignificanceResult):

    def confidence_interval(self, confidence_level=0.95):
        """Fisher's z interval of the correlation (SciPy's default method)."""
        r, n, alt = self._values["statistic"], self._values["_n"], self._values["_alternative"]
        with gpunp.errstate(all="ignore"):
            z, se = gpunp.arctanh(r), 1 / math.sqrt(n - 3)
            if alt == "two-sided":
                h = special.ndtri(0.5 + confidence_level / 2) * se
                return ConfidenceInterval(gpunp.tanh(z - h), gpunp.tanh(z + h))
            h = special.ndtri(gpunp.asarray(float(confidence_level))) * se
            if alt == "less":
                return ConfidenceInterval(gpunp.full_like(r, -1.0), gpunp.tanh(z + h))
            return ConfidenceInterval(gpunp.tanh(z - h), gpunp.full_like(r, 1.0))


class TtestResult(_Result):
    _fields = ("statistic", "pvalue")

    @property
    def df(self):
        return self._values["df"]

    def confidence_interval(self, confidence_level=0.95):
        """The interval of the mean (difference) from the t distribution
        (needs its ppf, and so gpunp.scipy.special.stdtrit)."""
        est, se, df, alt = (self._values[k] for k in ("_estimate", "_se", "df", "_alternative"))
        if alt == "two-sided":
            h = dists.t.ppf(0.5 + confidence_level / 2, df) * se
            return ConfidenceInterval(est - h, est + h)
        h = dists.t.ppf(confidence_level, df) * se
        if alt == "less":
            return ConfidenceInterval(gpunp.full_like(est, -math.inf), est + h)
        return ConfidenceInterval(est - h, gpunp.full_like(est, math.inf))


class LinregressResult(_Result):
    _fields = ("slope", "intercept", "rvalue", "pvalue", "stderr")


def _check_alternative(alternative):
    if alternative not in _ALTERNATIVES:
        raise ValueError("alternative must be 'less', 'greater' or 'two-sided'")


def _t_pvalue(t, df, alternative):
    """A function giving the p-value of the statistic t with df degrees of
    freedom, read when asked for."""
    def pvalue():
        with gpunp.errstate(all="ignore"):
            if alternative == "less":
                return dists.t.cdf(t, df)
            if alternative == "greater":
                return dists.t.sf(t, df)
            return 2 * dists.t.sf(gpunp.abs(t), df)
    return pvalue


def pearsonr(x, y, *, alternative="two-sided", method=None, axis=0):
    """Pearson's correlation coefficient of x and y along axis, and the
    p-value of the exact (beta) null distribution."""
    _check_alternative(alternative)
    if method is not None:
        raise NotImplementedError("pearsonr(method=...): only the exact null distribution")
    x, y = float_array(x), float_array(y)
    dtype = gpunp.result_type(x.dtype, y.dtype)
    if axis is None:
        x, y, axis = x.reshape(-1), y.reshape(-1), 0
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError("`x` and `y` must have length at least 2.")
    def others(a):  # a's shape with its axis as 1
        k = axis % a.ndim
        return a.shape[:k] + (1,) + a.shape[k + 1:]
    try:
        shape = list(gpunp.broadcast_shapes(others(x), others(y)))
    except ValueError:
        raise ValueError("`x` and `y` must be broadcastable.") from None
    if x.shape[axis] != y.shape[axis]:
        raise ValueError("`x` and `y` must have the same length along `axis`.")
    n = x.shape[axis]
    if n < 2:
        raise ValueError("`x` and `y` must have length at least 2.")
    shape[axis] = n
    x, y = gpunp.broadcast_to(x, shape).astype(dtype), gpunp.broadcast_to(y, shape).astype(dtype)
    with gpunp.errstate(all="ignore"):
        xm = x - gpunp.mean(x, axis=axis, keepdims=True)
        ym = y - gpunp.mean(y, axis=axis, keepdims=True)
        # scaled by their largest first, so that the squares neither overflow
        # nor underflow
        xm = xm / gpunp.max(gpunp.abs(xm), axis=axis, keepdims=True)
        ym = ym / gpunp.max(gpunp.abs(ym), axis=axis, keepdims=True)
        r = gpunp.sum(xm * ym, axis=axis) / gpunp.sqrt(gpunp.sum(xm * xm, axis=axis)
                                                       * gpunp.sum(ym * ym, axis=axis))
        r = gpunp.clip(r, -1.0, 1.0).astype(dtype)
    ab = n / 2 - 1

    def pvalue():
        rr = r.astype(gpunp.float64)
        with gpunp.errstate(all="ignore"):
            if alternative == "less":
                p = dists.beta.cdf(rr, ab, ab, loc=-1, scale=2)
            elif alternative == "greater":
                p = dists.beta.sf(rr, ab, ab, loc=-1, scale=2)
            else:
                p = 2 * dists.beta.sf(gpunp.abs(rr), ab, ab, loc=-1, scale=2)
        return p.astype(dtype)

    return PearsonRResult(statistic=r, pvalue=pvalue, _n=n, _alternative=alternative)


def spearmanr(a, b=None, axis=0, nan_policy="propagate", alternative="two-sided"):
    """Spearman's rank correlation: Pearson's of the ranks (average ties).
    Two 1-D samples, or the variables of a 2-D one (columns for axis 0):
    a coefficient for two variables, else their matrix."""
    _check_alternative(alternative)
    check_policy(nan_policy)
    a = float_array(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    if b is not None:
        b = float_array(b)
        if axis is None or a.ndim == 1:
            a = gpunp.stack([a.reshape(-1), b.reshape(-1)], axis=1) \
                if a.size == b.size else None
            if a is None:
                raise ValueError("The input must have the same number of observations")
            axis = 0
        else:
            a = gpunp.concatenate([a, b], axis=1 - axis)
    if a.ndim == 1:
        raise ValueError("`spearmanr` needs at least 2 variables to compare")
    if a.ndim > 2:
        raise ValueError("spearmanr only handles 1-D or 2-D arrays")
    if nan_policy != "propagate" and nan_mask(a, nan_policy) is not None:
        raise NotImplementedError("spearmanr(nan_policy='omit') with NaNs present")
    obs = a if axis == 0 else a.T
    n = obs.shape[0]
    if n <= 1:
        raise ValueError("spearmanr needs at least 2 observations")
    ranks = rankdata(obs, axis=0)
    with gpunp.errstate(all="ignore"):
        rs = gpunp.corrcoef(ranks, rowvar=False)
        rs = gpunp.clip(rs, -1.0, 1.0)
    if rs.shape == (2, 2):
        rs = rs[0, 1]
    df = n - 2

    def pvalue():
        with gpunp.errstate(all="ignore"):
            t = rs * gpunp.sqrt(df / ((rs + 1.0) * (1.0 - rs)))
        return _t_pvalue(t, df, alternative)()

    return SignificanceResult(statistic=rs, pvalue=pvalue)


def linregress(x, y, alternative="two-sided"):
    """Least-squares line of y on x (1-D), its correlation, the p-value of
    a zero slope (t test) and the standard errors."""
    _check_alternative(alternative)
    x, y = float_array(x).reshape(-1), float_array(y).reshape(-1)
    n = x.shape[0]
    if y.shape[0] != n:
        raise ValueError("Inputs must not be empty.") if n == 0 else \
            ValueError("x and y must have the same length")
    if n == 0:
        raise ValueError("Inputs must not be empty.")
    # SciPy 1.18 rewrote linregress: identical x values give NaNs instead of
    # an error, a constant x or y a correlation of NaN (0 where the
    # cross-products are not 0), and two points no special case
    new = scipy_version() >= 11800
    if not new and bool(gpunp.all(x == x[0])):
        raise ValueError("Cannot calculate a linear regression if all x values are identical")
    with gpunp.errstate(all="ignore"):
        xmean, ymean = gpunp.mean(x), gpunp.mean(y)
        dx, dy = x - xmean, y - ymean
        ssxm, ssym, ssxym = gpunp.mean(dx * dx), gpunp.mean(dy * dy), gpunp.mean(dx * dy)
        r = gpunp.clip(ssxym / gpunp.sqrt(ssxm * ssym), -1.0, 1.0)  # NaN for a constant y
        if new:
            r = gpunp.where((ssxm == 0) | (ssym == 0),
                            gpunp.where(ssxym == 0, math.nan, 0.0), r)
        slope = ssxym / ssxm
        intercept = ymean - slope * xmean
        if n == 2 and not new:
            zero = gpunp.zeros_like(r)
            p = gpunp.where(y[0] == y[1], 1.0, 0.0)
            return LinregressResult(slope=slope, intercept=intercept, rvalue=r, pvalue=p,
                                    stderr=zero, intercept_stderr=zero)
        df = n - 2
        tiny = 1.0e-20  # SciPy's guard against r = +-1
        t = r * gpunp.sqrt(df / ((1.0 - r + tiny) * (1.0 + r + tiny)))
        stderr = gpunp.sqrt((1 - r * r) * ssym / ssxm / df)
        intercept_stderr = stderr * gpunp.sqrt(ssxm + xmean * xmean)
    return LinregressResult(slope=slope, intercept=intercept, rvalue=r,
                            pvalue=_t_pvalue(t, df, alternative), stderr=stderr,
                            intercept_stderr=intercept_stderr)


def _ttest_parts(a, axis, nan_policy):
    a = float_array(a)
    mask = nan_mask(a, nan_policy)
    ndim = a.ndim
    a, ax = axis_of(a, axis)
    m = Masked(a, ax, mask.reshape(a.shape) if mask is not None else None)
    return m, ndim


def _ttest_result(t, df, estimate, se, alternative, ndim, axis, keepdims):
    k = lambda v: keep(v, ndim, axis, keepdims)  # noqa: E731
    t, df, estimate, se = k(t), k(gpunp.asarray(df, dtype=t.dtype) + t * 0), k(estimate), k(se)
    return TtestResult(statistic=t, pvalue=_t_pvalue(t, df, alternative), df=df,
                       _estimate=estimate, _se=se, _alternative=alternative)


def ttest_1samp(a, popmean, axis=0, nan_policy="propagate", alternative="two-sided", *,
                keepdims=False):
    """One-sample t-test of the mean of a against popmean."""
    _check_alternative(alternative)
    m, ndim = _ttest_parts(a, axis, nan_policy)
    with gpunp.errstate(all="ignore"):
        n = m.count()
        mean = m.mean()
        popmean = gpunp.asarray(popmean, dtype=mean.dtype)
        if popmean.ndim and axis is not None:
            popmean = gpunp.squeeze(popmean, m.axis) if popmean.ndim == m.a.ndim else popmean
        se = gpunp.sqrt(m.var(1) / n)
        t = (mean - popmean) / se
    return _ttest_result(t, n - 1, mean - popmean, se, alternative, ndim, axis, keepdims)


def ttest_ind(a, b, *, axis=0, equal_var=True, nan_policy="propagate", alternative="two-sided",
              trim=0, method=None, keepdims=False):
    """Two-sample t-test of equal means (Student's, or Welch's when not
    equal_var)."""
    _check_alternative(alternative)
    if trim != 0 or method is not None:
        raise NotImplementedError("ttest_ind: trim and method are not supported")
    ma, ndim = _ttest_parts(a, axis, nan_policy)
    mb, _ = _ttest_parts(b, axis, nan_policy)
    with gpunp.errstate(all="ignore"):
        n1, n2 = ma.count(), mb.count()
        v1, v2 = ma.var(1), mb.var(1)
        d = ma.mean() - mb.mean()
        if equal_var:
            df = n1 + n2 - 2.0
            svar = ((n1 - 1) * v1 + (n2 - 1) * v2) / df
            se = gpunp.sqrt(svar * (1.0 / n1 + 1.0 / n2))
        else:
            vn1, vn2 = v1 / n1, v2 / n2
            df = (vn1 + vn2) ** 2 / (vn1 * vn1 / (n1 - 1) + vn2 * vn2 / (n2 - 1))
            df = gpunp.where(gpunp.isnan(df), 1.0, df)  # SciPy's df when both variances are 0
            se = gpunp.sqrt(vn1 + vn2)
        t = d / se
    return _ttest_result(t, df, d, se, alternative, ndim, axis, keepdims)


def ttest_rel(a, b, axis=0, nan_policy="propagate", alternative="two-sided", *, keepdims=False):
    """Paired t-test: ttest_1samp of a - b against 0."""
    a, b = float_array(a), float_array(b)
    if a.shape != b.shape and a.size and b.size:
        raise ValueError("unequal length arrays")
    return ttest_1samp(a - b, 0.0, axis=axis, nan_policy=nan_policy, alternative=alternative,
                       keepdims=keepdims)
