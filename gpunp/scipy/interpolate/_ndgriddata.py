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

__all__ = ["LinearNDInterpolator", "NearestNDInterpolator", "griddata"]

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
                 need_values=True, triangulate=True):
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
            self._set_values(values, fill_value)

    def _set_values(self, values, fill_value):
        values = _device(values)
        if values.shape[0] != self.points.shape[0]:
            raise ValueError("different number of values and points")
        if self.points.ndim != 2:
            raise ValueError("invalid shape for input data points")
        if self.points.shape[1] < 2:
            raise ValueError("input data must be at least 2-D")
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
        xi, shape = self._xi(args)
        nq, nd = xi.shape
        values, fill = self.values, [self.fill_value]
        if self.is_complex:
            # the real and imaginary parts side by side, each with its part of fill_value
            values, fill = values.view(gpunp.float64), [fill[0].real, fill[0].imag]
        nv = values.shape[1]
        out = gpunp.empty((nq, nv))
        if nq:
            simp = self.tri.find_simplex(xi)
            iv = gpunp.asarray(numpy.array([nv], dtype=numpy.int64))
            fv = gpunp.asarray(numpy.array(fill * (nv // len(fill)), dtype=numpy.float64))
            _linear_kernel(nd)(xi, self.tri.transform, self.tri.simplices, values, simp, iv,
                               fv, out, size=nq)
        if self.is_complex:
            out = out.view(gpunp.complex128)
        return out.reshape(shape[:-1] + self.values_shape)


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
    raise ValueError(f"Unknown interpolation method {method!r} for {ndim} dimensional data")
