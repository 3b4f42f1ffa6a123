"""Interpolation on a rectilinear grid (SciPy's RegularGridInterpolator and
interpn). 'linear' and 'nearest' are one kernel pass (_kernels.grid_eval);
the spline methods fit a tensor-product B-spline by a 1-d collocation solve
along each axis in turn on the host (the Kronecker system factorises, so
this is the exact interpolant that SciPy's iterative solver approaches)
and evaluate it in one kernel pass; 'pchip' folds one axis at a time with
gpunp array operations, as SciPy folds them."""

from __future__ import annotations

import numpy

import gpunp
from gpunp.scipy._host import as_device

from . import _kernels
from ._bsplines import _collocation, _not_a_knot, _solve_collocation
from ._cubic import _pchip_slopes

_DEGREE = {"slinear": 1, "cubic": 3, "quintic": 5, "pchip": 3, "slinear_legacy": 1,
           "cubic_legacy": 3, "quintic_legacy": 5}
_METHODS = ["linear", "nearest"] + list(_DEGREE)
_TENSOR = {"slinear", "cubic", "quintic", "slinear_legacy", "cubic_legacy", "quintic_legacy"}
_DERIVATIVES = {"slinear", "cubic", "quintic"}

_NDBSPLINE = gpunp.ElementwiseKernel(
    "raw float64 c, raw float64 t, raw int64 toff, raw float64 pts, raw int64 nus, "
    "int64 nd, int64 k, int64 nc",
    "float64 y",
    r"""
    long long p = i / nc, col = i % nc, d, ell, lo, hi, mid, jj, q, n, combo, total = 1, rem;
    long long first[GP_IP_ND];
    const double *td;
    double b[GP_IP_ND * GP_IP_NK], h[GP_IP_NK], hh[GP_IP_NK], x, xa, xb, w, wgt, res = 0.0;
    long long flat, stride;
    int bad = 0;
    for (d = 0; d < nd && !bad; d++) {
        x = pts[p * nd + d];
        td = &t[toff[d]];
        n = toff[d + 1] - toff[d] - k - 1;
        if (x != x) { bad = 1; break; }
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
        for (q = 0; q <= k; q++) b[d * (k + 1) + q] = nus[d] > k ? 0.0 : h[q];
        total *= k + 1;
    }
    if (bad) {
        y = NAN;
    } else {
        /* the (k+1)^nd products of one basis value per axis */
        for (combo = 0; combo < total; combo++) {
            rem = combo; flat = 0; wgt = 1.0; stride = 1;
            for (d = nd - 1; d >= 0; d--) {
                q = rem % (k + 1); rem /= k + 1;
                n = toff[d + 1] - toff[d] - k - 1;
                flat += (first[d] + q) * stride;
                stride *= n;
                wgt *= b[d * (k + 1) + q];
            }
            res += c[flat * nc + col] * wgt;
        }
        y = res;
    }
    """.replace("GP_IP_ND", str(_kernels.MAX_DIMS)).replace("GP_IP_NK", "6"),
    "gp_interp_ndbspline")


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
        k = _DEGREE[method]
        nd = len(self._grid)
        knots, c, rest = self._spline(method)
        nus = numpy.zeros(nd, dtype=numpy.int64) if nu is None else numpy.asarray(nu, numpy.int64)
        if nus.shape != (nd,):
            raise ValueError(f"invalid number of derivative orders nu = {nu}")
        if (nus < 0).any():
            raise ValueError(f"derivatives must be positive, got nu = {nu}")
        if nd > _kernels.MAX_DIMS:
            raise NotImplementedError(f"grids of more than {_kernels.MAX_DIMS} dimensions are "
                                      "not supported")
        toff = numpy.concatenate([[0], numpy.cumsum([len(t) for t in knots])]).astype(numpy.int64)
        t = gpunp.asarray(numpy.concatenate(knots))
        nc = c.shape[-1]

        def run(cc):
            out = gpunp.empty((pts.shape[0], nc), dtype=numpy.float64)
            if out.size:
                _NDBSPLINE(cc, t, gpunp.asarray(toff), pts, gpunp.asarray(nus), nd, k, nc, out)
            return out
        if c.dtype.kind == "c":
            return run(gpunp.ascontiguousarray(c.real)) + 1j * run(gpunp.ascontiguousarray(c.imag))
        return run(c)

    def _pchip(self, pts):
        """SciPy's fold: a 1-d PCHIP along the last axis for every point, then
        along each earlier axis over the folded values of each point."""
        nd = len(self._grid)
        m = pts.shape[0]
        v = self._values.astype(numpy.float64)
        rest = v.shape[nd:]
        # data (m or 1, n_axis, cols) at each step
        vals = v.reshape((1,) + v.shape[:nd] + (-1,))
        for d in range(nd - 1, -1, -1):
            g = self._dgrid[d]
            cur = gpunp.moveaxis(vals, d + 1, 1)  # (b, n_d, others..., cols)
            b = cur.shape[0]
            cols = cur.shape[2:]
            data = cur.reshape(b, g.shape[0], -1)
            vals = _hermite_at(g, data, pts[:, d], m).reshape((m,) + cols)
        return vals.reshape(m, -1) if rest else vals.reshape(m, 1)


def _hermite_at(g, data, x, m):
    """Each point j's PCHIP interpolant of data[j or 0] (along axis 1, at the
    nodes g) at x[j]: (m, cols)."""
    h = g[1:] - g[:-1]
    y = gpunp.moveaxis(data, 1, 0)  # (n, b, cols)
    d = _pchip_slopes(h, y, xp=gpunp)
    n = g.shape[0]
    j = gpunp.clip(gpunp.searchsorted(g, x, side="right") - 1, 0, n - 2)
    if y.shape[1] == 1:
        pick = lambda a, jj: a[jj, 0]  # noqa: E731 - every point shares the data
    else:
        rows = gpunp.arange(m)
        pick = lambda a, jj: a[jj, rows]  # noqa: E731
    hj = h[j][:, None]
    s = (x - g[j])[:, None]
    y0, y1, d0, d1 = pick(y, j), pick(y, j + 1), pick(d, j), pick(d, j + 1)
    slope = (y1 - y0) / hj
    t = (d0 + d1 - 2 * slope) / hj
    c3, c2 = t / hj, (slope - d0) / hj - t
    return ((c3 * s + c2) * s + d0) * s + y0


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
