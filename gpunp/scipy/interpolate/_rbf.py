"""Radial basis function interpolation (SciPy's RBFInterpolator), all on
the device in three kernels: one writes the whole system of each set of
data points (the radial function of the pairs, smoothing on the diagonal,
the monomial block), gpunp.linalg.solve solves the batch (LU where SciPy
uses LAPACK's symmetric indefinite solver: the same solution up to
rounding), and one evaluates each point against its set's coefficients.
`neighbors=` finds each point's nearest data points by brute force (a
distance pass, gpunp.argpartition), one system per distinct neighbourhood
(the index sets grouped on the host)."""

from __future__ import annotations

import warnings
from itertools import combinations_with_replacement
from math import comb

import numpy

import gpunp
from gpunp.scipy._host import as_device

# kernel name -> (C expression of r, smallest polynomial degree)
_KERNELS = {
    "linear": ("-r", 0),
    "thin_plate_spline": ("(r == 0.0 ? 0.0 : r * r * log(r))", 1),
    "cubic": ("r * r * r", 1),
    "quintic": ("-(r * r * r * r * r)", 2),
    "multiquadric": ("-sqrt(r * r + 1.0)", 0),
    "inverse_multiquadric": ("1.0 / sqrt(r * r + 1.0)", -1),
    "inverse_quadratic": ("1.0 / (r * r + 1.0)", -1),
    "gaussian": ("exp(-(r * r))", -1),
}
_NAMES = list(_KERNELS)
_SCALE_INVARIANT = {"linear", "thin_plate_spline", "cubic", "quintic"}

_PHI = "".join(f"    case {j}: return {_KERNELS[n][0]};\n" for j, n in enumerate(_NAMES))

_PRE = r"""
/* the radial function of kind at the distance of eps * (a - b) */
GPK_FN double rbf_phi(const double *a, const double *b, long long nd, double eps, int kind)
{
    long long d;
    double s = 0.0, u, r;
    for (d = 0; d < nd; d++) {
        u = a[d] * eps - b[d] * eps;
        s += u * u;
    }
    r = sqrt(s);
    switch (kind) {
""" + _PHI + r"""
    }
    return NAN;
}

/* monomial q (exponents pw[q * nd ...]) of the scaled point (a - shift) / scale */
GPK_FN double rbf_mono(const double *a, const double *shift, const double *scale,
                       const long long *pw, long long q, long long nd)
{
    long long d, e;
    double v = 1.0, t;
    for (d = 0; d < nd; d++) {
        t = (a[d] - shift[d]) / scale[d];
        for (e = 0; e < pw[q * nd + d]; e++) v *= t;
    }
    return v;
}
"""

# the system of each set b of data rows: [[phi + smoothing, P], [P^T, 0]]
_SYSTEM = gpunp.ElementwiseKernel(
    "raw float64 y, raw int64 rows, raw float64 shift, raw float64 scale, raw float64 sm, "
    "raw int64 pw, int64 P, int64 M, int64 nd, float64 eps, int32 kind",
    "float64 out",
    r"""
    long long b = i / (M * M), r = (i / M) % M, c = i % M;
    const double *sh = &shift[b * nd], *sc = &scale[b * nd];
    if (r < P && c < P) {
        out = rbf_phi(&y[rows[b * P + r] * nd], &y[rows[b * P + c] * nd], nd, eps, kind)
              + (r == c ? sm[rows[b * P + r]] : 0.0);
    } else if (r < P) {
        out = rbf_mono(&y[rows[b * P + r] * nd], sh, sc, &pw[0], c - P, nd);
    } else if (c < P) {
        out = rbf_mono(&y[rows[b * P + c] * nd], sh, sc, &pw[0], r - P, nd);
    } else {
        out = 0.0;
    }
    """,
    "gp_rbf_system", preamble=_PRE)

# each point's value: its set's coefficients against phi and the monomials
_EVALUATE = gpunp.ElementwiseKernel(
    "raw float64 x, raw float64 y, raw int64 rows, raw int64 set, raw float64 shift, "
    "raw float64 scale, raw float64 coef, raw int64 pw, int64 P, int64 M, int64 S, int64 nd, "
    "float64 eps, int32 kind",
    "float64 out",
    r"""
    long long p = i / S, col = i % S, b = set[p], q;
    const double *xp = &x[p * nd], *cf = &coef[b * M * S + col];
    double acc = 0.0;
    for (q = 0; q < P; q++)
        acc += rbf_phi(xp, &y[rows[b * P + q] * nd], nd, eps, kind) * cf[q * S];
    for (q = P; q < M; q++)
        acc += rbf_mono(xp, &shift[b * nd], &scale[b * nd], &pw[0], q - P, nd) * cf[q * S];
    out = acc;
    """,
    "gp_rbf_evaluate", preamble=_PRE)

# the centre and half-range of each set's points, per coordinate
_SPAN = gpunp.ElementwiseKernel(
    "raw float64 y, raw int64 rows, int64 P, int64 nd",
    "float64 shift, float64 scale",
    r"""
    long long b = i / nd, d = i % nd, q;
    double lo = y[rows[b * P] * nd + d], hi = lo, v;
    for (q = 1; q < P; q++) {
        v = y[rows[b * P + q] * nd + d];
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    shift = (hi + lo) / 2;
    scale = (hi - lo) / 2 == 0.0 ? 1.0 : (hi - lo) / 2;
    """,
    "gp_rbf_span")

_DIST2 = gpunp.ElementwiseKernel(
    "raw float64 a, raw float64 b, int64 nd, int64 nb",
    "float64 out",
    r"""
    long long p = i / nb, q = i % nb, d;
    double s = 0.0, u;
    for (d = 0; d < nd; d++) {
        u = a[p * nd + d] - b[q * nd + d];
        s += u * u;
    }
    out = s;
    """,
    "gp_rbf_dist2")

# elements of one block of the nearest-neighbour search (points x data points)
_BLOCK = 1 << 24


def _monomial_powers(ndim, degree):
    out = numpy.zeros((comb(degree + ndim, ndim) if degree >= 0 else 0, ndim), dtype=numpy.int64)
    row = 0
    for deg in range(degree + 1):
        for mono in combinations_with_replacement(range(ndim), deg):
            for var in mono:
                out[row, var] += 1
            row += 1
    return out


def _span(y, rows):
    B, P = rows.shape
    nd = y.shape[1]
    shift, scale = gpunp.empty((B, nd)), gpunp.empty((B, nd))
    _SPAN(y, rows, P, nd, shift, scale, size=B * nd)
    return shift, scale


def _solve(y, rows, d, smoothing, kind, eps, powers):
    """Coefficients (B, P+R, S) of the systems over the data rows rows (B, P),
    with each set's shift and scale (B, N)."""
    B, P = rows.shape
    R, nd = powers.shape[0], y.shape[1]
    M = P + R
    shift, scale = _span(y, rows)
    pw = gpunp.asarray(powers.reshape(-1) if powers.size else numpy.zeros(1, numpy.int64))
    lhs = gpunp.empty((B, M, M))
    _SYSTEM(y, rows, shift, scale, smoothing, pw, P, M, nd, float(eps), _NAMES.index(kind), lhs)
    rhs = gpunp.zeros((B, M, d.shape[1]))
    rhs[:, :P] = d[rows]
    try:
        coeffs = gpunp.linalg.solve(lhs, rhs)
    except numpy.linalg.LinAlgError:
        coeffs = None
    if coeffs is None or not bool(gpunp.isfinite(coeffs).all()):
        msg = "Singular matrix."
        if R:
            pts = y[rows[0]].get()
            sh, sc = shift[0].get(), scale[0].get()
            pm = numpy.prod(((pts - sh) / sc)[:, None, :] ** powers[None], axis=-1)
            rank = numpy.linalg.matrix_rank(pm)
            if rank < R:
                msg = ("Singular matrix. The matrix of monomials evaluated at the data point "
                       f"coordinates does not have full column rank ({rank}/{R}).")
        raise numpy.linalg.LinAlgError(msg)
    return shift, scale, coeffs


class RBFInterpolator:
    """Radial basis function interpolation of values d at points y (P, N)."""

    def __init__(self, y, d, neighbors=None, smoothing=0.0, kernel="thin_plate_spline",
                 epsilon=None, degree=None):
        y = gpunp.ascontiguousarray(gpunp.asarray(as_device(y), dtype=numpy.float64))
        if y.ndim != 2:
            raise ValueError("`y` must be a 2-dimensional array.")
        ny, ndim = y.shape
        d = as_device(d)
        self.d_dtype = numpy.dtype(numpy.complex128 if d.dtype.kind == "c" else numpy.float64)
        d = d.astype(self.d_dtype)
        if d.ndim == 0 or d.shape[0] != ny:
            raise ValueError(f"Expected the first axis of `d` to have length {ny}.")
        self.d_shape = d.shape[1:]
        d = d.reshape(ny, -1)
        if self.d_dtype.kind == "c":
            d = gpunp.stack([d.real, d.imag], axis=-1).reshape(ny, -1)
        if numpy.ndim(smoothing) == 0 and not isinstance(smoothing, gpunp.ndarray):
            smoothing = gpunp.full(ny, float(smoothing))
        else:
            smoothing = gpunp.asarray(as_device(smoothing), dtype=float)
            if smoothing.shape == ():
                smoothing = gpunp.full(ny, float(smoothing))
            elif smoothing.shape != (ny,):
                raise ValueError(f"Expected `smoothing` to be a scalar or have shape ({ny},).")
        kernel = kernel.lower()
        if kernel not in _KERNELS:
            raise ValueError(f"`kernel` must be one of {set(_KERNELS)}.")
        if epsilon is None:
            if kernel not in _SCALE_INVARIANT:
                raise ValueError(f"`epsilon` must be specified if `kernel` is not one of "
                                 f"{_SCALE_INVARIANT}.")
            epsilon = 1.0
        else:
            epsilon = float(epsilon)
        min_degree = _KERNELS[kernel][1]
        if degree is None:
            degree = max(min_degree, 0)
        else:
            degree = int(degree)
            if degree < -1:
                raise ValueError("`degree` must be at least -1.")
            if -1 < degree < min_degree:
                warnings.warn(f"`degree` should not be below {min_degree} except -1 when"
                              f"`kernel` is '{kernel}'. The interpolant may not be uniquely "
                              "solvable, and the smoothing parameter may have an unintuitive "
                              "effect.", UserWarning, stacklevel=2)
        nobs = ny if neighbors is None else int(min(neighbors, ny))
        powers = _monomial_powers(ndim, degree)
        if powers.shape[0] > nobs:
            raise ValueError(f"At least {powers.shape[0]} data points are required when "
                             f"`degree` is {degree} and the number of dimensions is {ndim}.")
        self.y, self.d, self.smoothing = y, d, smoothing
        self.neighbors = None if neighbors is None else nobs
        self.kernel, self.epsilon, self.powers = kernel, epsilon, powers
        if neighbors is None:
            rows = gpunp.arange(ny)[None]
            shift, scale, coeffs = _solve(y, rows, d, smoothing, kernel, epsilon, powers)
            self._shift, self._scale, self._coeffs = shift[0], scale[0], coeffs[0]

    def __call__(self, x):
        x = gpunp.ascontiguousarray(gpunp.asarray(as_device(x), dtype=numpy.float64))
        if x.ndim != 2:
            raise ValueError("`x` must be a 2-dimensional array.")
        nx, ndim = x.shape
        if ndim != self.y.shape[1]:
            raise ValueError(f"Expected the second axis of `x` to have length "
                             f"{self.y.shape[1]}.")
        if self.neighbors is None:
            out = self._dense(x)
        else:
            out = self._local(x)
        if self.d_dtype.kind == "c":
            out = out.reshape(nx, -1, 2)
            out = out[..., 0] + 1j * out[..., 1]
        return out.reshape((nx,) + self.d_shape)

    def _evaluate(self, x, rows, which, shift, scale, coeffs):
        nx = x.shape[0]
        S = self.d.shape[1]
        out = gpunp.empty((nx, S))
        if out.size:
            P = rows.shape[1]
            pw = gpunp.asarray(self.powers.reshape(-1) if self.powers.size
                               else numpy.zeros(1, numpy.int64))
            _EVALUATE(x, self.y, rows, which, shift, scale, coeffs, pw, P,
                      P + self.powers.shape[0], S, x.shape[1], float(self.epsilon),
                      _NAMES.index(self.kernel), out)
        return out

    def _dense(self, x):
        ny = self.y.shape[0]
        return self._evaluate(x, gpunp.arange(ny)[None], gpunp.zeros(x.shape[0], numpy.int64),
                              self._shift[None], self._scale[None], self._coeffs[None])

    def _nearest(self, x):
        """Indices (nx, k) of each point's k nearest data points, sorted (host)."""
        nx, ny = x.shape[0], self.y.shape[0]
        k = self.neighbors
        step = max(1, _BLOCK // max(ny, 1))
        parts = []
        for s in range(0, nx, step):
            xs = gpunp.ascontiguousarray(x[s:s + step])
            d2 = gpunp.empty((xs.shape[0], ny))
            _DIST2(xs, self.y, xs.shape[1], ny, d2)
            near = gpunp.argpartition(d2, k - 1, axis=1)[:, :k] if k < ny else \
                gpunp.broadcast_to(gpunp.arange(ny)[None], d2.shape)
            parts.append(near.get())
        return numpy.sort(numpy.concatenate(parts), axis=1)

    def _local(self, x):
        """One system for each distinct set of neighbours (solved as a batch),
        each point evaluated with its set's coefficients."""
        if x.shape[0] == 0:
            return gpunp.zeros((0, self.d.shape[1]))
        # grouping the points by neighbourhood is bookkeeping on the small index
        # arrays, done on the host; the distances, solves and evaluation are not
        sets, inv = numpy.unique(self._nearest(x), axis=0, return_inverse=True)
        sets, inv = gpunp.asarray(sets), gpunp.asarray(inv.astype(numpy.int64))
        shift, scale, coeffs = _solve(self.y, sets, self.d, self.smoothing, self.kernel,
                                      self.epsilon, self.powers)
        return self._evaluate(x, sets, gpunp.ascontiguousarray(inv.reshape(-1)), shift, scale,
                              coeffs)


# Rbf's (legacy) functions of r and epsilon, as C expressions
_LEGACY = {
    "multiquadric": "sqrt((r / eps) * (r / eps) + 1.0)",
    "inverse_multiquadric": "1.0 / sqrt((r / eps) * (r / eps) + 1.0)",
    "gaussian": "exp(-((r / eps) * (r / eps)))",
    "linear": "r",
    "cubic": "r * r * r",
    "quintic": "r * r * r * r * r",
    "thin_plate": "(r == 0.0 ? 0.0 : r * r * log(r))",
}
_LEGACY_NAMES = list(_LEGACY)

_LEGACY_PAIRS = gpunp.ElementwiseKernel(
    "raw float64 a, raw float64 b, int64 nd, int64 nb, float64 eps, int32 kind",
    "float64 out",
    r"""
    long long p = i / nb, q = i % nb, d;
    double s = 0.0, u, r;
    for (d = 0; d < nd; d++) {
        u = a[p * nd + d] - b[q * nd + d];
        s += u * u;
    }
    r = sqrt(s);
    switch (kind) {
    """ + "".join(f"case {j}: out = {_LEGACY[n]}; break;\n    "
                  for j, n in enumerate(_LEGACY_NAMES)) + r"""
    default: out = r;
    }
    """,
    "gp_rbf_legacy")


def _distances(a, b):
    """Euclidean distances between the rows of a (n, N) and b (m, N)."""
    out = gpunp.empty((a.shape[0], b.shape[0]))
    if out.size:
        _DIST2(gpunp.ascontiguousarray(a), gpunp.ascontiguousarray(b), a.shape[1], b.shape[0],
               out)
    return gpunp.sqrt(out)


class Rbf:
    """SciPy's legacy radial basis function interpolator: Rbf(x, y, ..., d)
    with function (a name, one kernel pass; or a callable of r, or of
    (self, r), given the distances), epsilon, smooth, mode '1-D' or 'N-D';
    distances Euclidean. All on the device."""

    _NAMES = {"inverse": "inverse_multiquadric", "inverse multiquadric": "inverse_multiquadric",
              "thin-plate": "thin_plate"}

    def __init__(self, *args, **kwargs):
        coords = [gpunp.asarray(as_device(a), dtype=numpy.float64).reshape(-1)
                  for a in args[:-1]]
        if len({c.size for c in coords}) > 1:
            raise ValueError("All arrays must be equal length.")
        self.xi = gpunp.stack(coords)
        self.N = self.xi.shape[-1]
        self.mode = kwargs.pop("mode", "1-D")
        if self.mode == "1-D":
            self.di = as_device(args[-1]).reshape(-1)
            self._target_dim = 1
        elif self.mode == "N-D":
            self.di = as_device(args[-1])
            self._target_dim = self.di.shape[-1]
        else:
            raise ValueError("Mode has to be 1-D or N-D.")
        if not all(x.size == self.di.shape[0] for x in self.xi):
            raise ValueError("All arrays must be equal length.")
        self.norm = kwargs.pop("norm", "euclidean")
        if self.norm != "euclidean":
            raise NotImplementedError("Rbf's norm other than 'euclidean' is not supported")
        self.epsilon = kwargs.pop("epsilon", None)
        if self.epsilon is None:
            edges = (self.xi.max(axis=1) - self.xi.min(axis=1)).get()
            edges = edges[numpy.nonzero(edges)]
            self.epsilon = numpy.power(numpy.prod(edges) / self.N, 1.0 / edges.size)
        self.smooth = kwargs.pop("smooth", 0.0)
        self.function = kwargs.pop("function", "multiquadric")
        for item, value in kwargs.items():
            setattr(self, item, value)
        self.nodes = gpunp.linalg.solve(self.A, self.di.astype(numpy.result_type(
            self.di.dtype, numpy.float64)))

    def _phi(self, a, b):
        """The function of the distances between the rows of a and b: one
        kernel pass for a named function, the callable on the distances
        otherwise."""
        if isinstance(self.function, str):
            name = self._NAMES.get(self.function.lower(), self.function.lower())
            if name not in _LEGACY:
                raise ValueError("function must be a callable or one of "
                                 + ", ".join(sorted(_LEGACY)))
            self.function = name
            out = gpunp.empty((a.shape[0], b.shape[0]))
            if out.size:
                _LEGACY_PAIRS(gpunp.ascontiguousarray(a), gpunp.ascontiguousarray(b), a.shape[1],
                              b.shape[0], float(self.epsilon), _LEGACY_NAMES.index(name), out)
            return out
        return self._init_function(_distances(a, b))

    def _init_function(self, r):
        if not callable(self.function):
            raise ValueError("function must be a callable or one of "
                             + ", ".join(sorted(_LEGACY)))
        one = hasattr(self.function, "__code__")
        code = (self.function if one else self.function.__call__.__func__).__code__
        if one and code.co_argcount == 1:
            self._function = self.function
        elif code.co_argcount == 2:
            self._function = self.function.__get__(self, Rbf)
        else:
            raise ValueError("Function argument must take 1 or 2 arguments.")
        a0 = self._function(r)
        if a0.shape != r.shape:
            raise ValueError("Callable must take array and return array of the same shape")
        return a0

    @property
    def A(self):
        return self._phi(self.xi.T, self.xi.T) - gpunp.eye(self.N) * self.smooth

    def __call__(self, *args):
        args = [as_device(a) for a in args]
        if not all(x.shape == y.shape for x in args for y in args):
            raise ValueError("Array lengths must be equal")
        shape = args[0].shape + ((self._target_dim,) if self._target_dim > 1 else ())
        xa = gpunp.stack([gpunp.asarray(a, dtype=numpy.float64).reshape(-1) for a in args])
        return (self._phi(xa.T, self.xi.T) @ self.nodes).reshape(shape)
