"""Interpolation of scattered data in N dimensions: NearestNDInterpolator
(gpunp's KDTree), LinearNDInterpolator (gpunp's Delaunay: Qhull on the
host, find_simplex and the barycentric sums on the device), griddata.

LinearNDInterpolator's sums follow SciPy's order (the coordinates from the
simplex's transform, the last as one minus the others, then each vertex's
share added in order), so where the simplex is SciPy's the values are
SciPy's bit for bit; on a face shared by two simplices either may be taken,
and the value differs from SciPy's only by rounding. Complex values are
interpolated as their real and imaginary parts. 1-D data goes, as in
SciPy, through the 1-D rules of interp1d (nearest, linear).
"""

from __future__ import annotations

import numpy

import gpunp
from gpunp.scipy._host import as_device
from gpunp.scipy.spatial import Delaunay, KDTree

__all__ = ["CloughTocher2DInterpolator", "LinearNDInterpolator", "NearestNDInterpolator",
           "griddata"]

_LINEAR = r"""
const long long nv = iv[0];
const double *x = xs + (long long)i * ND;
const long long s = simp[i];
long long j, k;
if (s < 0) {
    for (k = 0; k < nv; ++k) out[(long long)i * nv + k] = fv[k];
} else {
    const double *t = tr + s * ND * (ND + 1);
    double c[ND + 1];
    /* SciPy's barycentric coordinates and sums, in its order */
    c[ND] = 1.0;
    for (j = 0; j < ND; ++j) {
        long long q;
        c[j] = 0;
        for (q = 0; q < ND; ++q) c[j] += t[ND * j + q] * (x[q] - t[ND * ND + q]);
        c[ND] -= c[j];
    }
    for (k = 0; k < nv; ++k) out[(long long)i * nv + k] = 0;
    for (j = 0; j <= ND; ++j) {
        const long long m = simplices[s * (ND + 1) + j];
        for (k = 0; k < nv; ++k)
            out[(long long)i * nv + k] = out[(long long)i * nv + k] + c[j] * values[m * nv + k];
    }
}
"""

_linear_kernels = {}


def _linear_kernel(ndim):
    k = _linear_kernels.get(ndim)
    if k is None:
        k = gpunp.ElementwiseKernel(
            "raw float64 xs, raw float64 tr, raw int32 simplices, raw float64 values, "
            "raw int32 simp, raw int64 iv, raw float64 fv", "raw float64 out",
            f"#define ND {ndim}\n" + _LINEAR + "#undef ND\n", f"linear_nd{ndim}")
        _linear_kernels[ndim] = k
    return k


# Clough-Tocher on the triangle (P0, P1, P2) split at its centroid: a cubic in
# Bernstein form on each third, its 19 ordinates from the values and
# gradients at the corners (corners, edge thirds from the directional
# derivatives, rings about the corners), the cross-edge ones from SciPy's
# affine-invariant choice of direction (towards the neighbour's centroid,
# -1/2 on the hull), the inner ones as averages; the point's extended
# barycentric coordinates (each less the least, and three times the least)
# weigh them.
_CUBIC = r"""
const long long nv = iv[0];
const long long s = simp[i];
long long k;
if (s < 0) {
    for (k = 0; k < nv; ++k) out[(long long)i * nv + k] = fv[k];
} else {
    /* the ordinates' multi-indices (vertex 0, 1, 2, centroid), in the order
       A0 A1 A2 C, E0n E0p E1n E1p E2n E2p, R0 R1 R2, M0 M1 M2, I0 I1 I2 */
    const int ex[76] = {3,0,0,0, 0,3,0,0, 0,0,3,0, 0,0,0,3,
                        2,1,0,0, 2,0,1,0, 0,2,1,0, 1,2,0,0, 1,0,2,0, 0,1,2,0,
                        2,0,0,1, 0,2,0,1, 0,0,2,1,
                        0,1,1,1, 1,0,1,1, 1,1,0,1,
                        1,0,0,2, 0,1,0,2, 0,0,1,2};
    const double mult[19] = {1, 1, 1, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 6, 6, 6, 3, 3, 3};
    const double *x = xs + (long long)i * 2;
    const double *t = tr + s * 6;
    long long vtx[3];
    double P[3][2], e[3][2], b[3], g[3], pw[4][4], wt[19], mn;
    int v, r, q;
    for (v = 0; v < 3; ++v) {
        vtx[v] = simplices[s * 3 + v];
        P[v][0] = pts[vtx[v] * 2];
        P[v][1] = pts[vtx[v] * 2 + 1];
    }
    for (v = 0; v < 3; ++v) {   /* e[v]: from vertex v to vertex v+1 */
        e[v][0] = P[(v + 1) % 3][0] - P[v][0];
        e[v][1] = P[(v + 1) % 3][1] - P[v][1];
    }
    ct_bary(t, x, b);
    for (v = 0; v < 3; ++v) {
        const long long nb = neighbors[s * 3 + v];
        if (nb == -1) {
            g[v] = -0.5;
        } else {
            double y[2], c[3];
            for (q = 0; q < 2; ++q)
                y[q] = (pts[simplices[nb * 3] * 2 + q] + pts[simplices[nb * 3 + 1] * 2 + q]
                        + pts[simplices[nb * 3 + 2] * 2 + q]) / 3;
            ct_bary(t, y, c);
            g[v] = (2 * c[(v + 2) % 3] + c[(v + 1) % 3] - 1)
                   / (2 - 3 * c[(v + 2) % 3] - 3 * c[(v + 1) % 3]);
        }
    }
    mn = b[0] < b[1] ? b[0] : b[1];
    if (b[2] < mn) mn = b[2];
    for (v = 0; v < 4; ++v) {
        double u = v < 3 ? b[v] - mn : 3 * mn;
        pw[v][0] = 1.0;
        for (q = 1; q < 4; ++q) pw[v][q] = pw[v][q - 1] * u;
    }
    for (r = 0; r < 19; ++r)
        wt[r] = mult[r] * pw[0][ex[4 * r]] * pw[1][ex[4 * r + 1]] * pw[2][ex[4 * r + 2]]
                * pw[3][ex[4 * r + 3]];
    for (k = 0; k < nv; ++k) {
        double A[3], En[3], Ep[3], R[3], M[3], I[3], cc[19], w = 0.0;
        for (v = 0; v < 3; ++v) {
            const double *gr = grad + (vtx[v] * nv + k) * 2;
            const int pv = (v + 2) % 3;
            A[v] = values[vtx[v] * nv + k];
            /* a third of the way along each edge: the derivative towards
               the next vertex and towards the previous one */
            En[v] = A[v] + (gr[0] * e[v][0] + gr[1] * e[v][1]) / 3;
            Ep[v] = A[v] - (gr[0] * e[pv][0] + gr[1] * e[pv][1]) / 3;
            R[v] = (A[v] + En[v] + Ep[v]) / 3;
        }
        for (v = 0; v < 3; ++v) {   /* the edge from a to b, opposite v */
            const int a = (v + 1) % 3, bb = (v + 2) % 3;
            M[v] = (g[v] * (-A[a] + 3 * En[a] - 3 * Ep[bb] + A[bb])
                    + (-A[a] + 2 * En[a] - Ep[bb] + R[bb] + R[a])) / 2;
        }
        for (v = 0; v < 3; ++v) I[v] = (M[(v + 1) % 3] + M[(v + 2) % 3] + R[v]) / 3;
        cc[0] = A[0]; cc[1] = A[1]; cc[2] = A[2]; cc[3] = (I[0] + I[1] + I[2]) / 3;
        cc[4] = En[0]; cc[5] = Ep[0]; cc[6] = En[1]; cc[7] = Ep[1]; cc[8] = En[2]; cc[9] = Ep[2];
        for (v = 0; v < 3; ++v) {
            cc[10 + v] = R[v];
            cc[13 + v] = M[v];
            cc[16 + v] = I[v];
        }
        for (r = 0; r < 19; ++r) w += wt[r] * cc[r];
        out[(long long)i * nv + k] = w;
    }
}
"""

_CUBIC_PREAMBLE = r"""
/* barycentric coordinates of y in the triangle of transform t, as SciPy's */
GPK_FN void ct_bary(const double *t, const double *y, double *c)
{
    int j, q;
    c[2] = 1.0;
    for (j = 0; j < 2; ++j) {
        c[j] = 0;
        for (q = 0; q < 2; ++q) c[j] += t[2 * j + q] * (y[q] - t[4 + q]);
        c[2] -= c[j];
    }
}
"""

_cubic_kernels = {}


def _cubic_kernel(ndim):
    k = _cubic_kernels.get(ndim)
    if k is None:
        k = gpunp.ElementwiseKernel(
            "raw float64 xs, raw float64 tr, raw int32 simplices, raw float64 values, "
            "raw int32 simp, raw int64 iv, raw float64 fv, raw float64 pts, "
            "raw int32 neighbors, raw float64 grad", "raw float64 out",
            _CUBIC, "clough_tocher_2d", preamble=_CUBIC_PREAMBLE)
        _cubic_kernels[ndim] = k
    return k


def _device(x):
    return x if isinstance(x, gpunp.ndarray) else as_device(x)


def _ndim_coords(points, ndim=None):
    """A tuple of coordinate arrays as one (..., ndim) array (SciPy's
    _ndim_coords_from_arrays)."""
    if isinstance(points, tuple) and len(points) == 1:
        points = points[0]
    if isinstance(points, tuple):
        parts = gpunp.broadcast_arrays(*[_device(p) for p in points])
        return gpunp.stack([p.astype(gpunp.float64) for p in parts], axis=-1)
    points = _device(points)
    if points.ndim == 1:
        points = points.reshape(-1, 1) if ndim is None else points.reshape(-1, ndim)
    return points


class _NDInterpolatorBase:
    """Points (rescaled to the unit cube about their mean if asked) and
    values reshaped to (npoints, nvalues), as SciPy's NDInterpolatorBase."""

    def __init__(self, points, values, fill_value=numpy.nan, rescale=False,
                 need_values=True, triangulate=True, ndim=None):
        if isinstance(points, Delaunay):
            if rescale:
                raise ValueError("Rescaling is not supported when passing "
                                 "a Delaunay triangulation as ``points``.")
            self.tri = points
            points = points.points
        else:
            self.tri = None
        points = gpunp.ascontiguousarray(_ndim_coords(points), dtype=gpunp.float64)
        if not rescale:
            self.scale = None
            self.points = points
        else:
            self.offset = points.mean(axis=0)
            scale = gpunp.ptp(points, axis=0)
            self.scale = gpunp.where(scale > 0, scale, 1.0)
            self.points = (points - self.offset) / self.scale
        if self.tri is None and triangulate:
            self.tri = Delaunay(self.points)
        if need_values:
            self._set_values(values, fill_value, ndim)

    def _set_values(self, values, fill_value, ndim=None):
        values = _device(values)
        if values.shape[0] != self.points.shape[0]:
            raise ValueError("different number of values and points")
        if self.points.ndim != 2:
            raise ValueError("invalid shape for input data points")
        if self.points.shape[1] < 2:
            raise ValueError("input data must be at least 2-D")
        if ndim is not None and self.points.shape[1] != ndim:
            raise ValueError(f"this mode of interpolation available only for {ndim}-D data")
        self.values_shape = tuple(values.shape[1:])
        values = values.reshape(values.shape[0], -1)
        self.is_complex = values.dtype.kind == "c"
        if self.is_complex:
            self.values = gpunp.ascontiguousarray(values, dtype=gpunp.complex128)
            self.fill_value = complex(fill_value)
        else:
            self.values = gpunp.ascontiguousarray(values, dtype=gpunp.float64)
            self.fill_value = float(fill_value)

    def _xi(self, args):
        """The query points as (count, ndim) float64, scaled as the data,
        and their shape."""
        xi = _ndim_coords(args, ndim=self.points.shape[1])
        if xi.shape[-1] != self.points.shape[1]:
            raise ValueError("number of dimensions in xi does not match x")
        shape = tuple(xi.shape)
        xi = gpunp.ascontiguousarray(xi.reshape(-1, shape[-1]), dtype=gpunp.float64)
        if self.scale is not None:
            xi = gpunp.ascontiguousarray((xi - self.offset) / self.scale)
        return xi, shape

    def _evaluate(self, args, kernel, extra):
        """One kernel over the query points: find_simplex, then `kernel`'s
        sums on that simplex (fill_value where none); complex values as
        their real and imaginary parts side by side."""
        xi, shape = self._xi(args)
        nq, nd = xi.shape
        values, fill = self.values, [self.fill_value]
        if self.is_complex:
            values, fill = values.view(gpunp.float64), [fill[0].real, fill[0].imag]
        nv = values.shape[1]
        out = gpunp.empty((nq, nv))
        if nq:
            simp = self.tri.find_simplex(xi)
            iv = gpunp.asarray(numpy.array([nv], dtype=numpy.int64))
            fv = gpunp.asarray(numpy.array(fill * (nv // len(fill)), dtype=numpy.float64))
            kernel(nd)(xi, self.tri.transform, self.tri.simplices, values, simp, iv, fv,
                       *extra, out, size=nq)
        if self.is_complex:
            out = out.view(gpunp.complex128)
        return out.reshape(shape[:-1] + self.values_shape)


class NearestNDInterpolator(_NDInterpolatorBase):
    """Nearest-neighbour interpolation in N > 1 dimensions
    (``scipy.interpolate.NearestNDInterpolator``) through gpunp's KDTree;
    `tree_options` go to KDTree, the call's keywords to its query."""

    def __init__(self, x, y, rescale=False, tree_options=None):
        super().__init__(x, y, rescale=rescale, need_values=False, triangulate=False)
        self.tree = KDTree(self.points, **(tree_options or {}))
        self.values = _device(y)

    def __call__(self, *args, **query_options):
        xi, shape = self._xi(args)
        dist, i = self.tree.query(xi, **query_options)
        valid = gpunp.isfinite(dist)
        picked = self.values[gpunp.where(valid, i, 0)]
        cplx = self.values.dtype.kind == "c"
        picked = picked.astype(self.values.dtype if cplx else gpunp.float64)
        mask = valid.reshape(valid.shape + (1,) * (self.values.ndim - 1))
        out = gpunp.where(mask, picked, numpy.nan)
        return out.reshape(shape[:-1] + tuple(self.values.shape[1:]))


class LinearNDInterpolator(_NDInterpolatorBase):
    """Piecewise linear interpolation in N > 1 dimensions
    (``scipy.interpolate.LinearNDInterpolator``) on a Delaunay triangulation
    made on the host by Qhull, evaluated on the device; fill_value outside
    the convex hull."""

    def __init__(self, points, values, fill_value=numpy.nan, rescale=False):
        super().__init__(points, values, fill_value=fill_value, rescale=rescale)

    def __call__(self, *args):
        return self._evaluate(args, _linear_kernel, ())

class CloughTocher2DInterpolator(_NDInterpolatorBase):
    """Piecewise cubic, C1 interpolation in 2-D
    (``scipy.interpolate.CloughTocher2DInterpolator``): the gradients are
    estimated on the host by SciPy's own global estimate (an iteration over
    the vertices, from the triangulation's SciPy object), the interpolant
    evaluated on the device by one kernel over the query points."""

    def __init__(self, points, values, fill_value=numpy.nan, tol=1e-6, maxiter=400,
                 rescale=False):
        self._tol, self._maxiter = tol, maxiter
        super().__init__(points, values, fill_value=fill_value, rescale=rescale, ndim=2)
        import scipy.interpolate
        values = self.values
        grad = scipy.interpolate.CloughTocher2DInterpolator(
            self.tri.get(), gpunp.asnumpy(values), tol=tol, maxiter=maxiter).grad
        if self.is_complex:
            # gradients of the real and imaginary parts, in the order of values' float view
            grad = numpy.stack([grad.real, grad.imag], axis=2).reshape(len(grad), -1, 2)
        self.grad = gpunp.asarray(numpy.ascontiguousarray(grad, dtype=numpy.float64))

    def __call__(self, *args):
        extra = (self.tri.points, self.tri.neighbors, self.grad)
        return self._evaluate(args, _cubic_kernel, extra)


def _interp1d(points, values, xi, method, fill_value):
    """griddata of 1-D data: interp1d's nearest (extrapolating) and linear
    (fill_value outside) on the sorted points."""
    xi = gpunp.asarray(_device(xi), dtype=gpunp.float64)
    order = gpunp.argsort(points)
    x, y = points[order], values[order]
    if y.dtype.kind not in "fc":
        y = y.astype(gpunp.float64)
    n = x.shape[0]
    flat = xi.reshape(-1)
    if method == "nearest":
        half = x / 2.0
        bounds = half[1:] + half[:-1]
        idx = gpunp.clip(gpunp.searchsorted(bounds, flat, side="left"), 0, n - 1)
        out = y[idx]
    else:
        hi = gpunp.clip(gpunp.searchsorted(x, flat), 1, n - 1)
        lo = hi - 1
        extra = (1,) * (y.ndim - 1)
        slope = (y[hi] - y[lo]) / (x[hi] - x[lo]).reshape((-1,) + extra)
        out = slope * (flat - x[lo]).reshape((-1,) + extra) + y[lo]
        outside = ((flat < x[0]) | (flat > x[n - 1])).reshape((-1,) + extra)
        out = gpunp.where(outside, fill_value, out)
    return out.reshape(tuple(xi.shape) + tuple(y.shape[1:]))


def griddata(points, values, xi, method="linear", fill_value=numpy.nan, rescale=False):
    """Interpolate unstructured N-D data (``scipy.interpolate.griddata``):
    'nearest', 'linear', and 'cubic' in 2-D; 1-D data by interp1d's rules
    (nearest and linear)."""
    points = _ndim_coords(points)
    ndim = points.ndim if points.ndim < 2 else points.shape[-1]
    values = _device(values)
    if ndim == 1 and method in ("nearest", "linear", "cubic"):
        if method == "cubic":
            raise NotImplementedError("griddata: 1-D cubic interpolation (interp1d's "
                                      "spline) is not in gpunp.scipy.interpolate yet")
        if isinstance(xi, tuple):
            if len(xi) != 1:
                raise ValueError("invalid number of dimensions in xi")
            xi, = xi
        return _interp1d(points.reshape(-1), values, xi, method, fill_value)
    if method == "nearest":
        return NearestNDInterpolator(points, values, rescale=rescale)(xi)
    if method == "linear":
        return LinearNDInterpolator(points, values, fill_value=fill_value, rescale=rescale)(xi)
    if method == "cubic" and ndim == 2:
        return CloughTocher2DInterpolator(points, values, fill_value=fill_value,
                                          rescale=rescale)(xi)
    raise ValueError(f"Unknown interpolation method {method!r} for {ndim} dimensional data")
