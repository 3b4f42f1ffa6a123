"""``gpunp.scipy.spatial.distance``: ``scipy.spatial.distance`` for gpunp arrays.

``cdist`` and ``pdist`` compute every output element in one pass of a user
elementwise kernel (``gpunp.ElementwiseKernel``): a thread takes one pair of
rows and loops over the features itself, in double as SciPy's C loops do,
so there is no (m, n, k) intermediate. Each metric is a row of ``_CODE``:
the C text of its accumulators, its loop body and its result, written
after SciPy's own definitions (scipy/spatial/distance/src), including their
quirks (unweighted ``dice`` is arithmetic on the values, weighted ``dice``
counts booleans). Unweighted euclidean, sqeuclidean and cosine with 16 to
256 features use one matrix product instead, and a finishing pass that
recomputes directly every element the product cannot give to 1e-12. The one-vector functions (``euclidean(u, v)``...) follow
SciPy's Python definitions with gpunp operations and return 0-d gpunp
arrays where SciPy returns a scalar.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

import gpunp as gp

from .._host import as_device
from .._version import scipy_version

__all__ = ["braycurtis", "canberra", "cdist", "chebyshev", "cityblock", "correlation", "cosine",
           "dice", "directed_hausdorff", "euclidean", "hamming", "is_valid_dm", "is_valid_y",
           "jaccard", "jensenshannon", "mahalanobis", "minkowski", "num_obs_dm", "num_obs_y",
           "pdist", "rogerstanimoto", "russellrao", "seuclidean", "sokalsneath", "sqeuclidean",
           "squareform", "yule"]

# ---- the kernels ------------------------------------------------------------------------------

# name: (declarations, loop body over feature k with doubles x, y and weight wk, result).
# A row may also read xa[ra + q], xb[rb + q] (its rows), vi (mahalanobis' matrix), pexp.
_CODE = {
    "euclidean": ("double s = 0;", "double t_ = x - y; s += wk * t_ * t_;", "sqrt(s)"),
    "sqeuclidean": ("double s = 0;", "double t_ = x - y; s += wk * t_ * t_;", "s"),
    "cityblock": ("double s = 0;", "s += wk * fabs(x - y);", "s"),
    "minkowski": ("double s = 0;", "s += wk * pow(fabs(x - y), pexp);", "pow(s, 1.0 / pexp)"),
    # a NaN difference never wins `>`, so SciPy's max skips it too
    "chebyshev": ("double s = 0;", "double t_ = fabs(x - y); if (wk > 0 && t_ > s) s = t_;",
                  "s"),
    # distance_matrix's p = inf: NumPy's max, where a NaN wins
    "maxabs": ("double s = 0;",
               "double t_ = fabs(x - y); if (t_ > s || t_ != t_) s = (s != s) ? s : t_;", "s"),
    "braycurtis": ("double s = 0, t = 0;", "s += wk * fabs(x - y); t += wk * fabs(x + y);",
                   "s / t"),
    "canberra": ("double s = 0;",
                 "double den_ = fabs(x) + fabs(y); s += wk * fabs(x - y) / (den_ + (den_ == 0));",
                 "s"),
    "hamming": ("double s = 0, t = 0;", "s += wk * (x != y); t += wk;", "s / t"),
    "jaccard": ("double s = 0, t = 0;",
                "s += wk * ((x != 0) != (y != 0)); t += wk * ((x != 0) || (y != 0));",
                "(t != 0) * (s / ((t == 0) + t))"),
    # SciPy's unweighted dice is arithmetic on the values; its weighted one counts
    "dice": ("double s = 0, t = 0;", "s += x * (1.0 - y) + y * (1.0 - x); t += x * y;",
             "s / (2 * t + s)"),
    "dice_w": ("double s = 0, t = 0;", "s += wk * (x != y); t += wk * ((x != 0) && (y != 0));",
               "s / (2 * t + s)"),
    "rogerstanimoto": ("double s = 0, t = 0;", "s += wk * ((x != 0) != (y != 0)); t += wk;",
                       "(2 * s) / (t + s)"),
    "russellrao": ("double s = 0, t = 0;", "s += wk * ((x != 0) && (y != 0)); t += wk;",
                   "(t - s) / t"),
    "sokalsneath": ("double s = 0, t = 0;",
                    "s += wk * ((x != 0) && (y != 0)); t += wk * ((x != 0) != (y != 0));",
                    "(2 * t) / (2 * t + s)"),
    "yule": ("double tt = 0, tf = 0, ft = 0, ff = 0, h;",
             "tt += wk * ((x != 0) && (y != 0)); tf += wk * ((x != 0) && (y == 0)); "
             "ft += wk * ((x == 0) && (y != 0)); ff += wk * ((x == 0) && (y == 0));",
             "(h = tf * ft, (2. * h) / (tt * ff + h + (h == 0)))"),
    # SciPy's C divides by the product of the two norms and clips to [-1, 1];
    # its weighted (Python) form takes one square root of the product
    "cosine": ("double s = 0, t = 0, r = 0, c;", "s += x * y; t += x * x; r += y * y;",
               "(c = s / (sqrt(t) * sqrt(r)), 1. - (c > 1 ? 1 : (c < -1 ? -1 : c)))"),
    "cosine_w": ("double s = 0, t = 0, r = 0, c;",
                 "s += wk * x * y; t += wk * x * x; r += wk * y * y;",
                 "(c = s / sqrt(t * r), 1. - (c > 1 ? 1 : (c < -1 ? -1 : c)))"),
    "seuclidean": ("double s = 0;", "double t_ = x - y; s += t_ * t_ / wk;", "sqrt(s)"),
    "mahalanobis": ("double s = 0;",
                    "double t_ = 0; long long q; for (q = 0; q < n; q++) "
                    "t_ += ((double)xa[ra + q] - (double)xb[rb + q]) * vi[k * n + q]; "
                    "s += (x - y) * t_;",
                    "sqrt(s)"),
    # two loops: the sums first (SciPy's C answers inf for a negative entry or a zero sum)
    "jensenshannon": ("double ps = 0, qs = 0, s = 0; int bad = 0; long long q; "
                      "for (q = 0; q < n; q++) { double x_ = (double)xa[ra + q], "
                      "y_ = (double)xb[rb + q]; bad |= x_ < 0 || y_ < 0; ps += x_; qs += y_; }",
                      "double pi_ = x / ps, qi_ = y / qs, mi_ = (pi_ + qi_) / 2.0; "
                      "if (pi_ > 0) s += pi_ * log(pi_ / mi_); "
                      "if (qi_ > 0) s += qi_ * log(qi_ / mi_);",
                      "(bad || ps == 0 || qs == 0) ? (double)INFINITY : sqrt(s / 2.0)"),
}

# the pair (a, b) of output element i: row-major for cdist, SciPy's condensed
# order for pdist (a < b; the square-root estimate of a, then corrected)
_PAIR = """
long long a, b;
if (pd) {
    double tm = 2.0 * (double)m - 1.0;
    a = (long long)((tm - sqrt(tm * tm - 8.0 * (double)i)) / 2.0);
    if (a < 0) a = 0;
    if (a > m - 2) a = m - 2;
    while (a > 0 && a * (2 * m - a - 1) / 2 > (long long)i) a--;
    while ((a + 1) * (2 * m - a - 2) / 2 <= (long long)i) a++;
    b = (long long)i - a * (2 * m - a - 1) / 2 + a + 1;
} else {
    a = (long long)i / mb;
    b = (long long)i - a * mb;
}
"""

_KERNELS: dict = {}


def _kernel(row: str):
    k = _KERNELS.get(row)
    if k is None:
        decl, body, result = _CODE[row]
        code = (_PAIR + "long long ra = a * n, rb = b * n, k;\n" + decl + "\n"
                "for (k = 0; k < n; k++) {\n"
                "    double x = (double)xa[ra + k], y = (double)xb[rb + k], wk = w[k];\n"
                "    " + body + "\n}\n"
                "d = " + result + ";\n")
        k = gp.ElementwiseKernel(
            "raw float64 xa, raw float64 xb, raw float64 w, raw float64 vi, int64 n, int64 m, "
            "int64 mb, "
            "int32 pd, float64 pexp", "float64 d", code, "gpunp_distance_" + row)
        _KERNELS[row] = k
    return k


# ---- the product path of euclidean, sqeuclidean and cosine -------------------------------------

# |x - y|^2 = |x|^2 + |y|^2 - 2 x.y and x.y / (|x| |y|) from one matrix product
# (cuBLAS on a GPU) where there are enough features for the product to pay;
# the bound on the product's rounding grows with n, which caps it too
_GEMM_FEATURES = (16, 256)

# The product's value is kept where it is provably within 1e-12 of the
# direct sum: the rounding of |x|^2 + |y|^2 - 2 x.y is at most about
# 2 n eps (|x|^2 + |y|^2), so a value below `thr` times that scale (or not
# finite: inf - inf, NaN) is computed again directly, as SciPy computes it.
_FIXUP = _PAIR + """long long k;
double na_ = na[a], nb_ = nb[b], g_ = g[a * mb + b];
"""
_GEMM_TAIL = {
    "dist": """
double s = na_ + nb_ - 2.0 * g_;
if (!(s >= thr * (na_ + nb_)) || !(s <= 1.7976931348623157e308)) {
    s = 0;
    for (k = 0; k < n; k++) { double t_ = xa[a * n + k] - xb[b * n + k]; s += t_ * t_; }
}
d = sq ? s : sqrt(s);
""",
    # SciPy's cosine is this formula on a directly summed dot product; the
    # product's dot has the same error bound, and a value that is not finite
    # (inf or NaN entries) is summed again directly
    "cosine": """
double c = g_ / (sqrt(na_) * sqrt(nb_));
if (!(c >= -2.0 && c <= 2.0) && !(na_ == 0 || nb_ == 0)) {
    double s = 0, t = 0, r = 0;
    for (k = 0; k < n; k++) {
        double x = xa[a * n + k], y = xb[b * n + k];
        s += x * y; t += x * x; r += y * y;
    }
    c = s / (sqrt(t) * sqrt(r));
}
d = 1. - (c > 1 ? 1 : (c < -1 ? -1 : c));
""",
}
_GEMM_KERNELS: dict = {}


def _gemm_kernel(kind):
    k = _GEMM_KERNELS.get(kind)
    if k is None:
        k = gp.ElementwiseKernel(
            "raw float64 g, raw float64 na, raw float64 nb, raw float64 xa, raw float64 xb, "
            "int64 n, int64 m, int64 mb, int32 pd, int32 sq, float64 thr", "float64 d",
            _FIXUP + _GEMM_TAIL[kind], "gpunp_distance_gemm_" + kind)
        _GEMM_KERNELS[kind] = k
    return k


def _run_gemm(row, xa, xb, out, pdist_m):
    """euclidean, sqeuclidean or cosine through one matrix product and one
    pass that finishes (and where needed recomputes) each output element."""
    n = xa.shape[1]
    xa = gp.ascontiguousarray(xa)
    xb = xa if pdist_m is not None else gp.ascontiguousarray(xb)
    # the product lands in `out` itself for cdist (each element is read
    # before it is written, by the same thread)
    g = out if pdist_m is None else gp.empty((pdist_m, pdist_m))
    gp.matmul(xa, xb.T, out=g)
    na = gp.sum(xa * xa, axis=1)
    nb = na if pdist_m is not None else gp.sum(xb * xb, axis=1)
    thr = 2.0 * (n + 2) * np.finfo(np.float64).eps * 1e12
    _gemm_kernel("cosine" if row == "cosine" else "dist")(
        g, na, nb, xa, xb, n, 0 if pdist_m is None else pdist_m, xb.shape[0],
        1 if pdist_m is not None else 0, 1 if row == "sqeuclidean" else 0, thr, out)
    return out


def _run(row, xa, xb, w, vi, p, out, pdist_m=None):
    """Fills `out` with the metric `row` between the rows of xa and xb (or,
    with pdist_m, between the pairs of xa's rows in condensed order)."""
    n = xa.shape[1]
    if out.size == 0:
        return out
    # SciPy computes every metric in double from any real input; widening
    # here (one pass over the inputs, not over the output) compiles one
    # kernel per metric instead of one per metric and input dtype
    xa = xa.astype(np.float64, copy=False)
    xb = xa if pdist_m is not None else xb.astype(np.float64, copy=False)
    if row in ("euclidean", "sqeuclidean", "cosine") and w is None and \
            _GEMM_FEATURES[0] <= n <= _GEMM_FEATURES[1]:
        return _run_gemm(row, xa, xb, out, pdist_m)
    if w is None:
        w = gp.ones(max(n, 1), dtype=np.float64)
    if vi is None:
        vi = gp.zeros(1, dtype=np.float64)
    m = 0 if pdist_m is None else pdist_m
    _kernel(row)(xa, xb, w, vi, n, m, xb.shape[0], 1 if pdist_m is not None else 0,
                 float(p), out)
    return out


# ---- metric table ------------------------------------------------------------------------------

# canonical name -> (aliases, kind): "pybind" metrics take any real dtype and
# weights (SciPy's C++ loops); "wrap" metrics convert to float64 first and
# take weights only through the one-vector function (SciPy's Python path)
_ALIASES = {
    "braycurtis": {"braycurtis"},
    "canberra": {"canberra"},
    "chebyshev": {"chebychev", "chebyshev", "cheby", "cheb", "ch"},
    "cityblock": {"cityblock", "cblock", "cb", "c"},
    "correlation": {"correlation", "co"},
    "cosine": {"cosine", "cos"},
    "dice": {"dice"},
    "euclidean": {"euclidean", "euclid", "eu", "e"},
    "hamming": {"matching", "hamming", "hamm", "ha", "h"},
    "jaccard": {"jaccard", "jacc", "ja", "j"},
    "jensenshannon": {"jensenshannon", "js"},
    "mahalanobis": {"mahalanobis", "mahal", "mah"},
    "minkowski": {"minkowski", "mi", "m", "pnorm"},
    "rogerstanimoto": {"rogerstanimoto"},
    "russellrao": {"russellrao"},
    "seuclidean": {"seuclidean", "se", "s"},
    "sokalsneath": {"sokalsneath"},
    "sqeuclidean": {"sqeuclidean", "sqe", "sqeuclid"},
    "yule": {"yule"},
}
_CANONICAL = {a: name for name, aka in _ALIASES.items() for a in aka}
_WRAPPED = {"correlation", "cosine", "jensenshannon", "mahalanobis", "seuclidean"}


def _unexpected(name, kwargs):
    if kwargs:
        raise TypeError(f"{name}() got an unexpected keyword argument {next(iter(kwargs))!r}")


def _real_input(x):
    """SciPy's C++ loops take booleans, integers and floats (complex input
    is their 'Unsupported dtype' error)."""
    if x.dtype.kind not in "biuf":
        raise ValueError(f"Unsupported dtype {x.dtype}")
    return x


def _weights(w, n):
    w = as_device(w)
    if w.ndim != 1:
        raise ValueError("Weights must be a vector (ndim = 1)")
    if w.shape[0] != n:
        raise ValueError(f"Weights must have same size as input vector. {w.shape[0]} vs. {n}.")
    w = w.astype(np.float64)
    if bool(gp.any(w < 0)):
        raise ValueError("Input weights should be all non-negative")
    return w


def _out(out, shape):
    if out is None:
        return gp.empty(shape, dtype=np.float64)
    if not isinstance(out, gp.ndarray):
        raise TypeError("out argument must be an ndarray")
    if out.shape != shape:
        raise ValueError("Output array has incorrect shape.")
    if not out.flags.c_contiguous:
        raise ValueError("Output array must be C-contiguous")
    if out.dtype != np.float64:
        raise ValueError("wrong out dtype, expected float64")
    return out


def _wrapped(name, xa, xb, kwargs, pdist_m):
    """(row, xa, xb, w, vi) for a metric SciPy computes from float64 copies
    in Python (cosine, correlation, seuclidean, mahalanobis, jensenshannon):
    its parameters (V, VI, the weights of cosine and correlation) checked
    or defaulted as SciPy does, correlation's rows centred."""
    n = xa.shape[1]
    w = kwargs.pop("w", None)
    if w is not None:
        if name not in ("cosine", "correlation"):
            _unexpected(name, {"w": w})  # SciPy's one-vector function takes no w
        w = _weights(w, n)
        w = w / w.sum()
    xa = xa.astype(np.float64)
    xb = xa if pdist_m is not None else xb.astype(np.float64)
    both = xa if pdist_m is not None else gp.concatenate([xa, xb])
    row, vi = name, None
    if name == "correlation":
        def centred(x):
            return x - (x.mean(axis=1, keepdims=True) if w is None else (x @ w)[:, None])
        xa = centred(xa)
        xb = xa if pdist_m is not None else centred(xb)
        row = "cosine"
    if row == "cosine" and w is not None:
        row = "cosine_w"
    if name == "seuclidean":
        V = kwargs.pop("V", None)
        if V is None:
            w = gp.var(both, axis=0, ddof=1)
        else:
            V = as_device(V)
            if V.ndim != 1:
                raise ValueError("Variance vector V must be one-dimensional.")
            if V.shape[0] != n:
                raise ValueError("Variance vector V must be of the same dimension as the "
                                 "vectors on which the distances are computed.")
            w = V.astype(np.float64)
    if name == "mahalanobis":
        vi = kwargs.pop("VI", None)
        if vi is None:
            mm = both.shape[0]
            if mm <= n:
                raise ValueError(
                    f"The number of observations ({mm}) is too small; the covariance "
                    f"matrix is singular. For observations with {n} dimensions, at least "
                    f"{n + 1} observations are required.")
            vi = gp.linalg.inv(gp.atleast_2d(gp.cov(both.T))).T
        vi = as_device(vi).astype(np.float64)
        if vi.size != n * n:
            raise ValueError(f"VI must be a {n} by {n} matrix")
    _unexpected(name, kwargs)
    return row, xa, xb, w, vi


def _device_metric(name, xa, xb, out, kwargs, pdist_m=None):
    """The kernel run of metric `name` on validated 2-d xa, xb (xb is xa for pdist)."""
    kwargs = dict(kwargs)
    shape = (xa.shape[0], xb.shape[0]) if pdist_m is None else \
        (pdist_m * (pdist_m - 1) // 2,)
    if name in _WRAPPED:
        row, xa, xb, w, vi = _wrapped(name, xa, xb, kwargs, pdist_m)
        return _run(row, xa, xb, w, vi, 0.0, _out(out, shape), pdist_m)
    w = kwargs.pop("w", None)
    p = float(kwargs.pop("p", 2.0)) if name == "minkowski" else 2.0
    _unexpected(name, kwargs)
    if w is not None:
        w = _weights(w, xa.shape[1])
    xa, xb = _real_input(xa), _real_input(xb)
    out = _out(out, shape)
    row = name
    if name == "minkowski":  # SciPy's special cases of p, each exactly its metric
        row = ("cityblock" if p == 1.0 else "euclidean" if p == 2.0
               else "chebyshev" if math.isinf(p) else "minkowski")
    if name == "dice" and w is not None:
        row = "dice_w"
    return _run(row, xa, xb, w, None, p, out, pdist_m)


def _callable_metric(metric, xa, xb, out, kwargs, pdist_m=None):
    """The documented slow path: `metric` called on each pair of rows (gpunp
    1-d arrays), as SciPy calls a user's function; one host transfer at the end."""
    if pdist_m is None:
        vals = [float(metric(xa[i], xb[j], **kwargs))
                for i in range(xa.shape[0]) for j in range(xb.shape[0])]
        shape = (xa.shape[0], xb.shape[0])
    else:
        vals = [float(metric(xa[i], xa[j], **kwargs))
                for i in range(pdist_m - 1) for j in range(i + 1, pdist_m)]
        shape = (pdist_m * (pdist_m - 1) // 2,)
    res = gp.asarray(np.array(vals, dtype=np.float64).reshape(shape))
    if out is None:
        return res
    out = _out(out, shape)
    out[...] = res
    return out


def _dispatch(metric, xa, xb, out, kwargs, pdist_m=None):
    if callable(metric):
        return _callable_metric(metric, xa, xb, out, kwargs, pdist_m)
    if not isinstance(metric, str):
        raise TypeError("2nd argument metric must be a string identifier or a function.")
    mstr = metric.lower()
    name = _CANONICAL.get(mstr)
    if name is not None:
        return _device_metric(name, xa, xb, out, kwargs, pdist_m)
    if mstr.startswith("test_"):
        if mstr[5:] not in _ALIASES:
            raise ValueError(f'Unknown "Test" Distance Metric: {mstr[5:]}')
        return _callable_metric(globals()[mstr[5:]], xa, xb, out, kwargs, pdist_m)
    raise ValueError(f"Unknown Distance Metric: {mstr}")


def cdist(XA, XB, metric="euclidean", *, out=None, **kwargs):
    """The distance between each pair of rows of XA (mA, n) and XB (mB, n):
    an (mA, mB) float64 array (scipy.spatial.distance.cdist)."""
    XA, XB = as_device(XA), as_device(XB)
    if XA.ndim != 2:
        raise ValueError("XA must be a 2-dimensional array.")
    if XB.ndim != 2:
        raise ValueError("XB must be a 2-dimensional array.")
    if XA.shape[1] != XB.shape[1]:
        raise ValueError("XA and XB must have the same number of columns "
                         "(i.e. feature dimension.)")
    return _dispatch(metric, XA, XB, out, kwargs)


def pdist(X, metric="euclidean", *, out=None, **kwargs):
    """The distance between each pair of rows of X (m, n), condensed: the
    m * (m - 1) / 2 float64 values of the upper triangle, row by row
    (scipy.spatial.distance.pdist)."""
    X = as_device(X)
    if X.ndim != 2:
        raise ValueError(f"A 2-dimensional array must be passed. (Shape was {X.shape}).")
    return _dispatch(metric, X, X, out, kwargs, pdist_m=X.shape[0])


# ---- directed Hausdorff -----------------------------------------------------------------------

_HAUSDORFF = gp.ElementwiseKernel(
    "raw float64 u, raw float64 v, int64 n, int64 mv", "float64 dmin, int64 jmin",
    """
    long long j, k;
    double best = (double)INFINITY;
    long long bj = 0;
    for (j = 0; j < mv; j++) {
        double s = 0;
        for (k = 0; k < n; k++) {
            double t = u[(long long)i * n + k] - v[j * n + k];
            s += t * t;
        }
        if (s < best) { best = s; bj = j; }
    }
    dmin = sqrt(best);
    jmin = bj;
    """, "gpunp_directed_hausdorff")


def directed_hausdorff(u, v, rng=0, *, seed=None):
    """(d, i, j): the directed Hausdorff distance from the points u (M, N)
    to v (O, N), the Euclidean distance from u[i] to its nearest point
    v[j], largest over u (scipy.spatial.distance.directed_hausdorff).

    Every pair is measured on the device, so the answer does not depend on
    `rng`: SciPy's shuffle only changes the order of its early-exit search.
    The distance is always SciPy's; where several pairs give it (ties),
    gpunp names the first i and, for it, the first j, where SciPy names the
    pair its shuffled search met first."""
    u = gp.ascontiguousarray(as_device(u).astype(np.float64))
    v = gp.ascontiguousarray(as_device(v).astype(np.float64))
    if u.ndim != 2 or v.ndim != 2:
        raise ValueError("u and v must be 2-dimensional arrays")
    if u.shape[1] != v.shape[1]:
        raise ValueError("u and v need to have the same number of columns")
    if u.shape[0] == 0 or v.shape[0] == 0:
        raise ValueError("u and v must not be empty")
    dmin, jmin = _HAUSDORFF(u, v, u.shape[1], v.shape[0], size=u.shape[0])
    i = int(gp.argmax(dmin))
    return float(dmin[i]), i, int(jmin[i])


# ---- square and condensed forms ----------------------------------------------------------------

def squareform(X, force="no", checks=True):
    """A condensed distance vector as its square symmetric matrix, or back
    (scipy.spatial.distance.squareform)."""
    X = as_device(X)
    s = X.shape
    if force.lower() == "tomatrix":
        if len(s) != 1:
            raise ValueError("Forcing 'tomatrix' but input X is not a distance vector.")
    elif force.lower() == "tovector":
        if len(s) != 2:
            raise ValueError("Forcing 'tovector' but input X is not a distance matrix.")
    if len(s) == 1:
        if s[0] == 0:
            return gp.zeros((1, 1), dtype=X.dtype)
        d = int(math.ceil(math.sqrt(s[0] * 2)))
        if d * (d - 1) != s[0] * 2:
            raise ValueError("Incompatible vector size. It must be a binomial coefficient n "
                             "choose 2 for some integer n >= 2.")
        M = gp.zeros((d, d), dtype=X.dtype)
        r, c = gp.triu_indices(d, 1)
        M[r, c] = X
        M[c, r] = X
        return M
    if len(s) == 2:
        if s[0] != s[1]:
            raise ValueError("The matrix argument must be square.")
        if checks:
            is_valid_dm(X, throw=True, name="X")
        d = s[0]
        if d <= 1:
            return gp.zeros((0,), dtype=X.dtype)
        r, c = gp.triu_indices(d, 1)
        return gp.ascontiguousarray(X[r, c])
    raise ValueError("The first argument must be one or two dimensional array. "
                     f"A {len(s)}-dimensional array is not permitted")


def is_valid_dm(D, tol=0.0, throw=False, name="D", warning=False):
    """Whether D is a valid distance matrix: square, symmetric (within tol),
    zero diagonal (scipy.spatial.distance.is_valid_dm)."""
    D = as_device(D)
    called = f"'{name}' " if name else ""
    try:
        if D.ndim != 2:
            raise ValueError(f"Distance matrix {called}must have shape=2 (i.e. be "
                             "two-dimensional).")
        diag = gp.diagonal(D) if D.shape[0] == D.shape[1] else None
        if tol == 0.0:
            if D.shape[0] != D.shape[1] or not bool(gp.all(D == D.T)):
                raise ValueError(f"Distance matrix {called}must be symmetric.")
            if not bool(gp.all(diag == 0)):
                raise ValueError(f"Distance matrix {called}diagonal must be zero.")
        else:
            if D.shape[0] != D.shape[1] or not bool(gp.all(D - D.T <= tol)):
                raise ValueError(f"Distance matrix {called}must be symmetric within "
                                 f"tolerance {tol:5.5f}.")
            if not bool(gp.all(diag <= tol)):
                raise ValueError(f"Distance matrix {called}diagonal must be close to zero "
                                 f"within tolerance {tol:5.5f}.")
    except ValueError as e:
        if throw:
            raise
        if warning:
            warnings.warn(str(e), stacklevel=2)
        return False
    return True


def is_valid_y(y, warning=False, throw=False, name=None):
    """Whether y is a valid condensed distance vector: one-dimensional, of
    length n choose 2 (scipy.spatial.distance.is_valid_y)."""
    y = as_device(y)
    called = f"'{name}' " if name else ""
    try:
        if y.ndim != 1:
            raise ValueError(f"Condensed distance matrix {called}must have shape=1 (i.e. be "
                             "one-dimensional).")
        n = y.shape[0]
        d = int(math.ceil(math.sqrt(n * 2)))
        if d * (d - 1) / 2 != n:
            raise ValueError(f"Length n of condensed distance matrix {called}must be a "
                             "binomial coefficient, i.e. there must be a k such that "
                             "(k \\choose 2)=n)!")
    except ValueError as e:
        if throw:
            raise
        if warning:
            warnings.warn(str(e), stacklevel=2)
        return False
    return True


def num_obs_dm(d):
    """The number of observations of a square distance matrix."""
    d = as_device(d)
    is_valid_dm(d, tol=math.inf, throw=True, name="d")
    return d.shape[0]


def num_obs_y(Y):
    """The number of observations of a condensed distance vector."""
    Y = as_device(Y)
    is_valid_y(Y, throw=True, name="Y")
    k = Y.shape[0]
    if k == 0:
        raise ValueError("The number of observations cannot be determined on an empty "
                         "distance matrix.")
    d = int(math.ceil(math.sqrt(k * 2)))
    if d * (d - 1) / 2 != k:
        raise ValueError("Invalid condensed distance matrix passed. Must be some k where "
                         "k=(n choose 2) for some n >= 2.")
    return d


# ---- the metrics on two vectors ----------------------------------------------------------------

def _vector(u, dtype=None):
    u = as_device(u)
    if dtype is not None:
        u = u.astype(dtype)
    if u.ndim != 1:
        raise ValueError("Input vector should be 1-D.")
    return u


def _vectors(u, v):
    """u and v for minkowski, euclidean and sqeuclidean: SciPy 1.18 takes
    arrays of any shape and answers along the last axis (before, 1-d only)."""
    if scipy_version() >= 11800:
        return as_device(u), as_device(v)
    return _vector(u), _vector(v)


def _vweights(w):
    w = _vector(w, np.float64)
    if bool(gp.any(w < 0)):
        raise ValueError("Input weights should be all non-negative")
    return w


def minkowski(u, v, p=2, w=None):
    """The Minkowski p-distance between 1-d u and v, weighted by w (from
    SciPy 1.18, between u and v broadcast, along their last axis)."""
    u, v = _vectors(u, v)
    if p <= 0:
        raise ValueError("p must be greater than 0")
    d = u - v
    if w is not None:
        w = _vweights(w)
        root = (w if p == 1 else gp.sqrt(w) if p == 2 else (w != 0) if p == math.inf
                else gp.power(w, 1 / p))
        d = root * d
    return gp.linalg.norm(d, ord=p, axis=-1)


def euclidean(u, v, w=None):
    """The Euclidean distance between 1-d u and v, weighted by w."""
    return minkowski(u, v, p=2, w=w)


def sqeuclidean(u, v, w=None):
    """The squared Euclidean distance between 1-d u and v (float input keeps its dtype)."""
    u, v = as_device(u), as_device(v)
    u, v = _vectors(u.astype(u.dtype if u.dtype.kind in "fc" else np.float64),
                    v.astype(v.dtype if v.dtype.kind in "fc" else np.float64))
    d = u - v
    dw = d if w is None else _vweights(w) * d
    return gp.vecdot(d, dw) if d.ndim != 1 else gp.dot(d, dw)


def correlation(u, v, w=None, centered=True):
    """The correlation distance 1 - (u - mean u).(v - mean v) / (|..| |..|),
    weighted by w; clipped to [0, 2]."""
    u, v = _vector(u), _vector(v)
    if u.dtype.kind == "c" or v.dtype.kind == "c":
        raise TypeError("`u` and `v` must be real.")
    if w is not None:
        w = _vweights(w)
        w = w / w.sum()
    if centered:
        u = u - (gp.dot(u, w) if w is not None else gp.mean(u))
        v = v - (gp.dot(v, w) if w is not None else gp.mean(v))
    uw, vw = (u, v) if w is None else (u * w, v * w)
    uv, uu, vv = gp.dot(u, vw), gp.dot(u, uw), gp.dot(v, vw)
    prod = uu * vv
    # SciPy takes math.sqrt, a double, whatever the dot products' dtype
    root = gp.sqrt(prod if prod.dtype.kind == "f" else prod.astype(np.float64))
    return gp.clip(1.0 - uv / root, 0.0, 2.0)


def cosine(u, v, w=None):
    """The cosine distance 1 - u.v / (|u| |v|), weighted by w; clipped to [0, 2]."""
    return correlation(u, v, w=w, centered=False)


def hamming(u, v, w=None):
    """The (weighted) fraction of positions where u and v differ."""
    u, v = _vector(u), _vector(v)
    if u.shape != v.shape:
        raise ValueError("The 1d arrays must have equal lengths.")
    ne = u != v
    if w is not None:
        w = _vweights(w)
        if w.shape != u.shape:
            raise ValueError("'w' should have the same length as 'u' and 'v'.")
        return gp.dot(ne.astype(np.float64), w / w.sum())
    return gp.mean(ne)


def jaccard(u, v, w=None):
    """The Jaccard-Needham dissimilarity of the nonzero patterns of u and v."""
    u, v = _vector(u), _vector(v)
    unequal = (u != 0) ^ (v != 0)
    nonzero = (u != 0) | (v != 0)
    if w is not None:
        w = _vweights(w)
        unequal, nonzero = w * unequal, w * nonzero
    a = unequal.sum().astype(np.float64)
    b = nonzero.sum().astype(np.float64)
    return gp.where(b != 0, a / gp.where(b != 0, b, 1.0), 0.0)


def seuclidean(u, v, V):
    """The Euclidean distance between u and v, each coordinate scaled by 1 / V."""
    u, v = _vector(u), _vector(v)
    V = _vector(V, np.float64)
    if V.shape[0] != u.shape[0] or u.shape[0] != v.shape[0]:
        raise TypeError("V must be a 1-D array of the same dimension as u and v.")
    return euclidean(u, v, w=1 / V)


def cityblock(u, v, w=None):
    """The Manhattan distance sum |u - v|, weighted by w (integer input gives an integer)."""
    u, v = _vector(u), _vector(v)
    d = abs(u - v)
    if w is not None:
        d = _vweights(w) * d
    return d.sum()


def mahalanobis(u, v, VI):
    """sqrt((u - v) VI (u - v)) for the inverse covariance matrix VI."""
    u, v = _vector(u), _vector(v)
    VI = gp.atleast_2d(as_device(VI))
    delta = u - v
    return gp.sqrt(gp.dot(gp.dot(delta, VI), delta))


def chebyshev(u, v, w=None):
    """max |u - v| over the coordinates of positive weight."""
    u, v = _vector(u), _vector(v)
    d = abs(u - v)
    if w is not None:
        d = (_vweights(w) > 0) * d
    if d.size == 0:
        raise ValueError("max() iterable argument is empty")
    return d.max()


def braycurtis(u, v, w=None):
    """sum |u - v| / sum |u + v|, weighted by w."""
    u, v = _vector(u), _vector(v, np.float64)
    diff, tot = abs(u - v), abs(u + v)
    if w is not None:
        w = _vweights(w)
        diff, tot = w * diff, w * tot
    return diff.sum() / tot.sum()


def canberra(u, v, w=None):
    """sum |u - v| / (|u| + |v|), 0/0 terms left out, weighted by w."""
    u, v = _vector(u), _vector(v, np.float64)
    if w is not None:
        w = _vweights(w)
    den = abs(u) + abs(v)
    d = abs(u - v) / gp.where(den == 0, 1.0, den)
    d = gp.where(den == 0, gp.where(gp.isnan(d), d, 0.0), d)
    if w is not None:
        d = w * d
    return gp.nansum(d)


def jensenshannon(p, q, base=None, *, axis=0, keepdims=False):
    """The Jensen-Shannon distance between probability vectors p and q
    (normalised along `axis`), in units of log(base)."""
    p, q = as_device(p), as_device(q)
    p = p / gp.sum(p, axis=axis, keepdims=True)
    q = q / gp.sum(q, axis=axis, keepdims=True)
    m = (p + q) / 2.0

    def rel_entr(x, y):
        pos = (x > 0) & (y > 0)
        val = gp.where(pos, x * gp.log(gp.where(pos, x, 1.0) / gp.where(pos, y, 1.0)),
                       gp.where((x == 0) & (y >= 0), 0.0, math.inf))
        return gp.where(gp.isnan(x) | gp.isnan(y), math.nan, val)

    js = (gp.sum(rel_entr(p, m), axis=axis, keepdims=keepdims)
          + gp.sum(rel_entr(q, m), axis=axis, keepdims=keepdims))
    if base is not None:
        js = js / math.log(base)
    return gp.sqrt(js / 2.0)


def _counts(u, v, w):
    """(nff, nft, ntf, ntt): SciPy counts booleans as booleans, and anything
    else (or anything weighted) arithmetically, with 1 - x as "not x"."""
    if u.dtype == v.dtype == np.bool_ and w is None:
        nu, nv = ~u, ~v
        return ((nu & nv).sum(), (nu & v).sum(), (u & nv).sum(), (u & v).sum())
    dt = np.result_type(int, u.dtype, v.dtype)
    u, v = u.astype(dt), v.astype(dt)
    nu, nv = 1.0 - u, 1.0 - v
    if w is not None:
        nu, u = w * nu, w * u
    return ((nu * nv).sum(), (nu * v).sum(), (u * nv).sum(), (u * v).sum())


def _f64(x):
    return gp.asarray(x).astype(np.float64)


def yule(u, v, w=None):
    """The Yule dissimilarity 2 ntf nft / (ntt nff + ntf nft) (0 where ntf nft is 0)."""
    u, v = _vector(u), _vector(v)
    if w is not None:
        w = _vweights(w)
    nff, nft, ntf, ntt = map(_f64, _counts(u, v, w))
    half = ntf * nft
    return gp.where(half == 0, 0.0, 2.0 * half / gp.where(half == 0, 1.0, ntt * nff + half))


def dice(u, v, w=None):
    """The Dice dissimilarity (ntf + nft) / (2 ntt + ntf + nft)."""
    u, v = _vector(u), _vector(v)
    if w is not None:
        w = _vweights(w)
    if u.dtype == v.dtype == np.bool_ and w is None:
        ntt = (u & v).sum()
    else:
        dt = np.result_type(int, u.dtype, v.dtype)
        u, v = u.astype(dt), v.astype(dt)
        ntt = (u * v).sum() if w is None else (u * v * w).sum()
    _, nft, ntf, _ = _counts(u, v, w)
    ntt, nft, ntf = _f64(ntt), _f64(nft), _f64(ntf)
    return (ntf + nft) / (2.0 * ntt + ntf + nft)


def rogerstanimoto(u, v, w=None):
    """The Rogers-Tanimoto dissimilarity R / (ntt + nff + R), R = 2 (ntf + nft)."""
    u, v = _vector(u), _vector(v)
    if w is not None:
        w = _vweights(w)
    nff, nft, ntf, ntt = map(_f64, _counts(u, v, w))
    r = 2.0 * (ntf + nft)
    return r / (ntt + nff + r)


def russellrao(u, v, w=None):
    """The Russell-Rao dissimilarity (n - ntt) / n."""
    u, v = _vector(u), _vector(v)
    if u.dtype == v.dtype == np.bool_ and w is None:
        ntt, n = (u & v).sum(), float(u.shape[0])
    elif w is None:
        ntt, n = (u * v).sum(), float(u.shape[0])
    else:
        w = _vweights(w)
        ntt, n = (u * v * w).sum(), w.sum()
    n = _f64(n)
    return (n - _f64(ntt)) / n


def sokalsneath(u, v, w=None):
    """The Sokal-Sneath dissimilarity R / (ntt + R), R = 2 (ntf + nft)."""
    u, v = _vector(u), _vector(v)
    if u.dtype == v.dtype == np.bool_ and w is None:
        ntt = (u & v).sum()
    elif w is None:
        ntt = (u * v).sum()
    else:
        w = _vweights(w)
        ntt = (u * v * w).sum()
    _, nft, ntf, _ = _counts(u, v, w)
    ntt, nft, ntf = _f64(ntt), _f64(nft), _f64(ntf)
    denom = ntt + 2.0 * (ntf + nft)
    if not bool(denom != 0):
        raise ValueError("Sokal-Sneath dissimilarity is not defined for vectors that are "
                         "entirely false.")
    return 2.0 * (ntf + nft) / denom
