"""Interpolation on a rectilinear grid (SciPy's RegularGridInterpolator and
interpn). 'linear' and 'nearest' are one kernel pass (_kernels.grid_eval);
the spline methods fit a tensor-product B-spline by a 1-d collocation solve
along each axis in turn on the host (the Kronecker system factorises, so
this is the exact interpolant that SciPy's iterative solver approaches)
and evaluate it in one kernel pass; 'pchip' folds the 4^ndim nodes around each point
one axis at a time in one kernel pass, as SciPy folds the whole grid."""

from __future__ import annotations

import operator

import numpy

import gpunp
from gpunp.scipy._host import as_device

from . import _kernels
from ._bsplines import _collocation, _not_a_knot, _solve_collocation

_DEGREE = {"slinear": 1, "cubic": 3, "quintic": 5, "pchip": 3, "slinear_legacy": 1,
           "cubic_legacy": 3, "quintic_legacy": 5}
_METHODS = ["linear", "nearest"] + list(_DEGREE)
_TENSOR = {"slinear", "cubic", "quintic", "slinear_legacy", "cubic_legacy", "quintic_legacy"}
_DERIVATIVES = {"slinear", "cubic", "quintic"}

# a tensor-product B-spline (degree ks[d] on axis d, knots t[toff[d]..]) at
# each point: k+1 basis values an axis, then the sum over their products;
# NaN for a NaN coordinate or, unless ext, one outside an axis's base interval
MAX_ND_DEGREE = 5

_NDBSPLINE = gpunp.ElementwiseKernel(
    "raw float64 c, raw float64 t, raw int64 toff, raw int64 ks, raw float64 pts, "
    "raw int64 nus, int64 nd, int64 nc, int32 ext",
    "float64 y",
    r"""
    long long p = i / nc, col = i % nc, d, k, ell, lo, hi, mid, jj, q, n, combo, total = 1;
    long long rem, flat, stride;
    long long first[GP_IP_ND];
    const double *td;
    double b[GP_IP_ND * GP_IP_NK], h[GP_IP_NK], hh[GP_IP_NK], x, xa, xb, w, wgt, res = 0.0;
    int bad = 0;
    for (d = 0; d < nd && !bad; d++) {
        x = pts[p * nd + d];
        td = &t[toff[d]];
        k = ks[d];
        n = toff[d + 1] - toff[d] - k - 1;
        if (x != x || (!ext && (x < td[k] || x > td[n]))) { bad = 1; break; }
        lo = k; hi = n - 1;
        while (lo < hi) {
            mid = (lo + hi + 1) / 2;
            if (td[mid] <= x) lo = mid; else hi = mid - 1;
        }
        ell = lo;
        first[d] = ell - k;
        h[0] = 1.0;
        for (jj = 1; jj <= k; jj++) {
            for (q = 0; q < jj; q++) hh[q] = h[q];
            h[0] = 0.0;
            for (q = 1; q <= jj; q++) {
                xb = td[ell + q]; xa = td[ell + q - jj];
                if (xb == xa) { h[q] = 0.0; continue; }
                if (jj <= k - nus[d]) {
                    w = hh[q - 1] / (xb - xa);
                    h[q - 1] += w * (xb - x);
                    h[q] = w * (x - xa);
                } else {
                    w = (double)jj * hh[q - 1] / (xb - xa);
                    h[q - 1] -= w;
                    h[q] = w;
                }
            }
        }
        for (q = 0; q <= k; q++) b[d * GP_IP_NK + q] = nus[d] > k ? 0.0 : h[q];
        total *= k + 1;
    }
    if (bad) {
        y = NAN;
    } else {
        for (combo = 0; combo < total; combo++) {
            rem = combo; flat = 0; wgt = 1.0; stride = 1;
            for (d = nd - 1; d >= 0; d--) {
                k = ks[d];
                q = rem % (k + 1); rem /= k + 1;
                n = toff[d + 1] - toff[d] - k - 1;
                flat += (first[d] + q) * stride;
                stride *= n;
                wgt *= b[d * GP_IP_NK + q];
            }
            res += c[flat * nc + col] * wgt;
        }
        y = res;
    }
    """.replace("GP_IP_ND", str(_kernels.MAX_DIMS)).replace("GP_IP_NK", str(MAX_ND_DEGREE + 1)),
    "gp_interp_ndbspline")


def ndbspline_eval(knots, ks, c, pts, nus, extrapolate):
    """A tensor-product B-spline (knots: one host array per axis, degrees ks,
    coefficients c (n_0, ..., n_(d-1), ncols) on the device) at pts (npts, d)."""
    nd = len(knots)
    if nd > _kernels.MAX_DIMS:
        raise NotImplementedError(f"splines of more than {_kernels.MAX_DIMS} dimensions are "
                                  "not supported")
    if max(ks) > MAX_ND_DEGREE:
        raise NotImplementedError(f"tensor-product splines of degree above {MAX_ND_DEGREE} "
                                  "are not supported")
    toff = numpy.concatenate([[0], numpy.cumsum([len(t) for t in knots])]).astype(numpy.int64)
    t = gpunp.asarray(numpy.concatenate(knots).astype(float))
    nc = c.shape[-1]
    args = (t, gpunp.asarray(toff), gpunp.asarray(numpy.asarray(ks, numpy.int64)),
            gpunp.ascontiguousarray(pts), gpunp.asarray(numpy.asarray(nus, numpy.int64)))

    def run(cc):
        out = gpunp.empty((pts.shape[0], nc))
        if out.size:
            _NDBSPLINE(cc, *args, nd, nc, int(bool(extrapolate)), out)
        return out
    if c.dtype.kind == "c":
        return run(gpunp.ascontiguousarray(c.real)) + 1j * run(gpunp.ascontiguousarray(c.imag))
    return run(gpunp.ascontiguousarray(c))


class NdBSpline:
    """A tensor-product B-spline: knots t (a tuple, one array per axis),
    coefficients c, degrees k (one, or one per axis)."""

    def __init__(self, t, c, k, *, extrapolate=None):
        if not isinstance(t, tuple):
            raise ValueError(f"Expect `t` to be a tuple of array-likes. Got {t} instead.")
        nd = len(t)
        try:
            len(k)
        except TypeError:
            k = (k,) * nd
        k = tuple(operator.index(v) for v in k)
        if len(k) != nd:
            raise ValueError(f"len(t) = {nd} != len(k) = {len(k)}.")
        knots = []
        for d in range(nd):
            td, kd = _host(t[d]).astype(float), k[d]
            n = td.shape[0] - kd - 1
            if kd < 0:
                raise ValueError(f"Spline degree in dimension {d} cannot be negative.")
            if td.ndim != 1:
                raise ValueError(f"Knot vector in dimension {d} must be one-dimensional.")
            if n < kd + 1:
                raise ValueError(f"Need at least {2 * kd + 2} knots for degree {kd} in "
                                 f"dimension {d}.")
            if (numpy.diff(td) < 0).any():
                raise ValueError(f"Knots in dimension {d} must be in a non-decreasing order.")
            if len(numpy.unique(td[kd:n + 1])) < 2:
                raise ValueError(f"Need at least two internal knots in dimension {d}.")
            if not numpy.isfinite(td).all():
                raise ValueError(f"Knots in dimension {d} should not have nans or infs.")
            knots.append(td)
        self._knots, self._k = knots, k
        self.extrapolate = True if extrapolate is None else bool(extrapolate)
        c = as_device(c) if not isinstance(c, (list, tuple)) else gpunp.asarray(c)
        if c.ndim < nd:
            raise ValueError(f"Coefficients must be at least {nd}-dimensional.")
        for d in range(nd):
            n = len(knots[d]) - k[d] - 1
            if c.shape[d] != n:
                raise ValueError(f"Knots, coefficients and degree in dimension {d} are "
                                 f"inconsistent: got {c.shape[d]} coefficients for "
                                 f"{len(knots[d])} knots, need at least {n} for k={k}.")
        self._c = c.astype(numpy.complex128 if c.dtype.kind == "c" else numpy.float64)

    @property
    def k(self):
        return self._k

    @property
    def t(self):
        return tuple(gpunp.asarray(td) for td in self._knots)

    @property
    def c(self):
        return self._c

    def __call__(self, xi, *, nu=None, extrapolate=None):
        nd = len(self._knots)
        extrapolate = self.extrapolate if extrapolate is None else bool(extrapolate)
        if nu is None:
            nu = numpy.zeros(nd, dtype=numpy.int64)
        else:
            nu = numpy.asarray(nu, dtype=numpy.int64)
            if nu.ndim != 1 or nu.shape[0] != nd:
                raise ValueError(f"invalid number of derivative orders nu = {nu!r} for "
                                 f"ndim = {nd}.")
            if any(nu < 0):
                raise ValueError(f"derivatives must be positive, got nu = {nu!r}")
        xi = gpunp.asarray(as_device(xi), dtype=numpy.float64)
        shape = xi.shape
        if shape[-1] != nd:
            raise ValueError(f"Shapes: xi.shape={shape} and ndim={nd}")
        c = self._c
        out = ndbspline_eval(self._knots, self._k, c.reshape(c.shape[:nd] + (-1,)),
                             xi.reshape(-1, nd), nu, extrapolate)
        return out.reshape(shape[:-1] + c.shape[nd:])


# PCHIP on a grid: each point's answer depends only on the 4 nodes around it
# on each axis (a slope needs its two neighbours), so a kernel folds that
# block one axis at a time, the last axis first as SciPy does; the block of
# 4^ndim values bounds the dimensions
MAX_PCHIP_DIMS = 5

_PCHIP_PRE = r"""
GPK_FN double pchip_sign(double v) { return (double)((v > 0.0) - (v < 0.0)); }

/* one end's slope (Moler's three-point formula, kept shape-preserving) */
GPK_FN double pchip_end(double h0, double h1, double m0, double m1)
{
    double d = ((2.0 * h0 + h1) * m0 - h0 * m1) / (h0 + h1);
    if (pchip_sign(d) != pchip_sign(m0)) return 0.0;
    if (pchip_sign(m0) != pchip_sign(m1) && fabs(d) > 3.0 * fabs(m0)) return 3.0 * m0;
    return d;
}

/* the slope at node q of n (nodes g), values yy[k - lo] of nodes k */
GPK_FN double pchip_slope(const double *g, const double *yy, long long lo, long long n,
                          long long q)
{
    double hm, hp, mm, mp, w1, w2;
    if (n == 2) return (yy[1] - yy[0]) / (g[1] - g[0]);
    if (q == 0)
        return pchip_end(g[1] - g[0], g[2] - g[1], (yy[1 - lo] - yy[0 - lo]) / (g[1] - g[0]),
                         (yy[2 - lo] - yy[1 - lo]) / (g[2] - g[1]));
    if (q == n - 1)
        return pchip_end(g[n - 1] - g[n - 2], g[n - 2] - g[n - 3],
                         (yy[n - 1 - lo] - yy[n - 2 - lo]) / (g[n - 1] - g[n - 2]),
                         (yy[n - 2 - lo] - yy[n - 3 - lo]) / (g[n - 2] - g[n - 3]));
    hm = g[q] - g[q - 1];
    hp = g[q + 1] - g[q];
    mm = (yy[q - lo] - yy[q - 1 - lo]) / hm;
    mp = (yy[q + 1 - lo] - yy[q - lo]) / hp;
    if (pchip_sign(mm) != pchip_sign(mp) || mm == 0.0 || mp == 0.0) return 0.0;
    w1 = 2.0 * hp + hm;
    w2 = hp + 2.0 * hm;
    return 1.0 / ((w1 / mm + w2 / mp) / (w1 + w2));
}
"""

_PCHIP = gpunp.ElementwiseKernel(
    "raw float64 v, raw float64 g, raw int64 off, raw float64 pts, int64 nd, int64 nc",
    "float64 y",
    r"""
    long long p = i / nc, col = i % nc, d, n, e, a, rem, flat, total = 1, jj, lo;
    long long j[GP_ND], first[GP_ND], cnt[GP_ND], idx[GP_ND];
    double blk[GP_BLK], x, h, y0, y1, d0, d1, sl, tt, s, z, res;
    const double *gd;
    int bad = 0;
    for (d = 0; d < nd; d++) {
        x = pts[p * nd + d];
        n = off[d + 1] - off[d];
        if (x != x) { bad = 1; break; }
        j[d] = ip_interval(&g[off[d]], n - 1, x, 1);
        cnt[d] = n < 4 ? n : 4;
        lo = j[d] - 1;
        if (lo > n - cnt[d]) lo = n - cnt[d];
        if (lo < 0) lo = 0;
        first[d] = lo;
        total *= cnt[d];
    }
    if (bad) {
        y = NAN;
    } else {
        for (e = 0; e < total; e++) {  /* the block, the last axis fastest */
            rem = e;
            for (d = nd - 1; d >= 0; d--) { idx[d] = rem % cnt[d]; rem /= cnt[d]; }
            flat = 0;
            for (d = 0; d < nd; d++) flat = flat * (off[d + 1] - off[d]) + first[d] + idx[d];
            blk[e] = v[flat * nc + col];
        }
        for (d = nd - 1; d >= 0; d--) {  /* fold the last remaining axis */
            n = off[d + 1] - off[d];
            gd = &g[off[d]];
            x = pts[p * nd + d];
            jj = j[d];
            total /= cnt[d];
            for (a = 0; a < total; a++) {
                const double *line = &blk[a * cnt[d]];
                h = gd[jj + 1] - gd[jj];
                y0 = line[jj - first[d]];
                y1 = line[jj + 1 - first[d]];
                d0 = pchip_slope(gd, line, first[d], n, jj);
                d1 = pchip_slope(gd, line, first[d], n, jj + 1);
                sl = (y1 - y0) / h;
                tt = (d0 + d1 - 2.0 * sl) / h;
                s = x - gd[jj];
                /* SciPy's order of terms: the constant first */
                res = y0; z = s;
                res += d0 * z; z *= s;
                res += ((sl - d0) / h - tt) * z; z *= s;
                res += tt / h * z;
                blk[a] = res;
            }
        }
        y = blk[0];
    }
    """.replace("GP_ND", str(MAX_PCHIP_DIMS)).replace("GP_BLK", str(4 ** MAX_PCHIP_DIMS)),
    "gp_interp_grid_pchip", preamble=_kernels._SEARCH + _PCHIP_PRE)


def _host(a):
    return a.get() if isinstance(a, gpunp.ndarray) else numpy.asarray(a)


def _check_points(points):
    grid, descending = [], []
    for i, p in enumerate(points):
        p = _host(p).astype(float)
        if not numpy.all(p[1:] > p[:-1]):
            if numpy.all(p[1:] < p[:-1]):
                descending.append(i)
                p = numpy.flip(p)
            else:
                raise ValueError(f"The points in dimension {i} must be strictly ascending or "
                                 "descending")
        grid.append(numpy.ascontiguousarray(p))
    return tuple(grid), tuple(descending)


def _check_dimensionality(points, values):
    if len(points) > values.ndim:
        raise ValueError(f"There are {len(points)} point arrays, but values has {values.ndim} "
                         "dimensions")
    for i, p in enumerate(points):
        if numpy.ndim(p) != 1:
            raise ValueError(f"The points in dimension {i} must be 1-dimensional")
        if values.shape[i] != len(p):
            raise ValueError(f"There are {len(p)} points and {values.shape[i]} values in "
                             f"dimension {i}")


def _coords(xi, ndim):
    """xi as a (..., ndim) float64 gpunp array (a tuple of coordinate arrays
    is stacked, a 1-d array is read as points of ndim coordinates)."""
    if isinstance(xi, tuple) and len(xi) == 1:
        xi = xi[0]
    if isinstance(xi, (tuple, list)) and any(isinstance(v, gpunp.ndarray) for v in xi) \
            or isinstance(xi, tuple):
        parts = gpunp.broadcast_arrays(*[gpunp.asarray(as_device(v), dtype=float) for v in xi])
        return gpunp.stack(parts, axis=-1)
    xi = gpunp.asarray(as_device(xi), dtype=float)
    if xi.ndim == 1:
        xi = xi.reshape(-1, ndim)
    return xi


class RegularGridInterpolator:
    """Interpolation of values on a rectilinear grid (points: one strictly
    ascending or descending 1-d array per dimension)."""

    def __init__(self, points, values, method="linear", bounds_error=True,
                 fill_value=numpy.nan, *, solver=None, solver_args=None):
        if method not in _METHODS:
            raise ValueError(f"Method '{method}' is not defined")
        if method in _DEGREE:
            _check_degree(points, method)
        self.method = method
        self.bounds_error = bounds_error
        self._grid, self._descending = _check_points(points)
        values = as_device(values)
        if values.dtype.kind not in "fc":
            values = values.astype(float)
        _check_dimensionality(self._grid, values)
        if fill_value is not None:
            fdt = numpy.asarray(_host(fill_value)).dtype
            if not numpy.can_cast(fdt, values.dtype, casting="same_kind"):
                raise ValueError("fill_value must be either 'None' or of a type compatible "
                                 "with values")
        self.fill_value = fill_value
        if self._descending:
            values = gpunp.flip(values, axis=self._descending)
        self._values = values
        if method == "pchip" and values.dtype.kind == "c":
            raise ValueError(
                "`PchipInterpolator` only works with real values. If you are trying to use the "
                "real components of the passed array, use `np.real` on the array before "
                "passing to `RegularGridInterpolator`.")
        if solver is not None or solver_args:
            if method not in _DERIVATIVES:
                raise ValueError(f"method ={method!r} does not accept the 'solver' argument. "
                                 f"Got  solver = {solver!r} and with arguments {solver_args}.")
        self._dgrid = tuple(gpunp.asarray(g) for g in self._grid)
        self._splines = {}

    @property
    def grid(self):
        return self._dgrid

    @property
    def values(self):
        return self._values

    def _spline(self, method):
        """Knots (one array per axis) and coefficients of the tensor-product
        interpolating spline of degree _DEGREE[method], fitted once."""
        if method not in self._splines:
            k = _DEGREE[method]
            nd = len(self._grid)
            c = self._values.get()
            dt = numpy.complex128 if c.dtype.kind == "c" else numpy.float64
            c = c.astype(dt)
            knots = []
            for d, g in enumerate(self._grid):
                t = _not_a_knot(g, k)
                a = _collocation(g, t, k)
                moved = numpy.moveaxis(c, d, 0)
                sol = _solve_collocation(a, moved.reshape(len(g), -1), k)
                c = numpy.moveaxis(sol.reshape(moved.shape), 0, d)
                knots.append(t)
            rest = c.shape[nd:]
            self._splines[method] = (knots, gpunp.asarray(
                numpy.ascontiguousarray(c.reshape(c.shape[:nd] + (-1,)))), rest)
        return self._splines[method]

    def __call__(self, xi, method=None, *, nu=None):
        method = self.method if method is None else method
        if method not in _METHODS:
            raise ValueError(f"Method '{method}' is not defined")
        if method != self.method and method in _DEGREE:
            _check_degree(self._grid, method)
        if nu is not None and method not in _DERIVATIVES:
            raise ValueError(f"Can only compute derivatives for methods {_DERIVATIVES}, got "
                             f"method ={method!r}.")
        nd = len(self._grid)
        xi = _coords(xi, nd)
        if xi.shape[-1] != nd:
            raise ValueError(f"The requested sample points xi have dimension {xi.shape[-1]} "
                             f"but this RegularGridInterpolator has dimension {nd}")
        shape = xi.shape
        pts = gpunp.ascontiguousarray(xi.reshape(-1, nd))
        if self.bounds_error and pts.shape[0]:
            lo = gpunp.asarray([g[0] for g in self._grid])
            hi = gpunp.asarray([g[-1] for g in self._grid])
            ok = ((pts >= lo) & (pts <= hi)).all(axis=0).get()
            for i in range(nd):
                if not ok[i]:
                    raise ValueError(f"One of the requested xi is out of bounds in dimension {i}")
        fill = None if self.bounds_error else self.fill_value
        rest = self._values.shape[nd:]
        if method in ("linear", "nearest"):
            v = self._values.reshape(self._values.shape[:nd] + (-1,))
            out = _kernels.grid_eval(v, self._dgrid, pts, method == "nearest", fill)
            dt = numpy.result_type(self._values.dtype, numpy.float64) \
                if method == "linear" else self._values.dtype
        else:
            if method == "pchip":
                out = self._pchip(pts)
                dt = self._values.dtype  # SciPy's fold writes into an array of it
            else:
                out = self._tensor(pts, method, nu)
                dt = out.dtype
            if fill is not None:
                outside = gpunp.zeros(pts.shape[0], dtype=bool)
                for d, g in enumerate(self._grid):
                    outside |= (pts[:, d] < g[0]) | (pts[:, d] > g[-1])
                outside &= ~gpunp.isnan(pts).any(axis=1)  # a NaN coordinate gives NaN
                out = gpunp.where(outside[:, None], gpunp.asarray(fill, dtype=out.dtype), out)
        # the fill value is written into SciPy's result: it never changes the dtype
        return out.astype(dt, copy=False).reshape(shape[:-1] + rest)

    def _tensor(self, pts, method, nu):
        nd = len(self._grid)
        knots, c, _ = self._spline(method)
        nus = numpy.zeros(nd, dtype=numpy.int64) if nu is None else numpy.asarray(nu, numpy.int64)
        if nus.shape != (nd,):
            raise ValueError(f"invalid number of derivative orders nu = {nu}")
        if (nus < 0).any():
            raise ValueError(f"derivatives must be positive, got nu = {nu}")
        return ndbspline_eval(knots, [_DEGREE[method]] * nd, c, pts, nus, True)

    def _pchip(self, pts):
        nd = len(self._grid)
        if nd > MAX_PCHIP_DIMS:
            raise NotImplementedError(f"method 'pchip' on grids of more than {MAX_PCHIP_DIMS} "
                                      "dimensions is not supported")
        v = self._values.astype(numpy.float64)
        v = gpunp.ascontiguousarray(v.reshape(v.shape[:nd] + (-1,)))
        nc = v.shape[-1]
        sizes = [len(g) for g in self._grid]
        off = gpunp.asarray(numpy.concatenate([[0], numpy.cumsum(sizes)]).astype(numpy.int64))
        g = gpunp.ascontiguousarray(gpunp.concatenate(self._dgrid))
        out = gpunp.empty((pts.shape[0], nc))
        if out.size:
            _PCHIP(v, g, off, pts, nd, nc, out)
        return out


def _check_degree(points, method):
    k = _DEGREE[method]
    for i, p in enumerate(points):
        n = len(numpy.atleast_1d(_host(p)))
        if n <= k:
            raise ValueError(f"There are {n} points in dimension {i}, but method {method} "
                             f"requires at least  {k + 1} points per dimension.")


def interpn(points, values, xi, method="linear", bounds_error=True, fill_value=numpy.nan):
    """Interpolation on a rectilinear grid at the points xi (RegularGridInterpolator's
    methods; 'splinef2d' is not supported)."""
    known = ["linear", "nearest", "cubic", "quintic", "pchip", "splinef2d", "slinear",
             "slinear_legacy", "cubic_legacy", "quintic_legacy"]
    if method not in known:
        raise ValueError("interpn only understands the methods 'linear', 'nearest', 'slinear', "
                         "'cubic', 'quintic', 'pchip', and 'splinef2d'. You provided "
                         f"{method}.")
    values = as_device(values)
    nd = values.ndim
    if nd > 2 and method == "splinef2d":
        raise ValueError("The method splinef2d can only be used for 2-dimensional input data")
    if not bounds_error and fill_value is None and method == "splinef2d":
        raise ValueError("The method splinef2d does not support extrapolation.")
    if len(points) > nd:
        raise ValueError(f"There are {len(points)} point arrays, but values has {nd} "
                         "dimensions")
    if len(points) != nd and method == "splinef2d":
        raise ValueError("The method splinef2d can only be used for scalar data with one point "
                         "per coordinate")
    grid, _ = _check_points(points)
    _check_dimensionality(grid, values)
    xi = _coords(xi, len(grid))
    if xi.shape[-1] != len(grid):
        raise ValueError(f"The requested sample points xi have dimension {xi.shape[-1]}, but "
                         f"this RegularGridInterpolator has dimension {len(grid)}")
    if method == "splinef2d":
        raise NotImplementedError("interpn's method 'splinef2d' (FITPACK's RectBivariateSpline) "
                                  "is not supported")
    return RegularGridInterpolator(points, values, method=method, bounds_error=bounds_error,
                                   fill_value=fill_value)(xi)
