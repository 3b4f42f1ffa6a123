"""Radial basis function interpolation (SciPy's RBFInterpolator), all on
the device: the kernel's values for pairs of points come from one
elementwise kernel (pairs named by two index arrays, so the same kernel
builds a dense system, a batch of local systems and the evaluation
matrices), the systems are solved by gpunp.linalg.solve (LU where SciPy
uses LAPACK's symmetric indefinite solver: the same solution up to
rounding), and `neighbors=` finds each point's nearest data points by brute
force (a distance pass and gpunp.argpartition)."""

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

_PAIRS = gpunp.ElementwiseKernel(
    "raw float64 a, raw float64 b, int64 ia, int64 ib, int64 nd, float64 eps, int32 kind",
    "float64 out",
    r"""
    long long d;
    double s = 0.0, u, r;
    for (d = 0; d < nd; d++) {
        u = a[ia * nd + d] * eps - b[ib * nd + d] * eps;
        s += u * u;
    }
    r = sqrt(s);
    switch (kind) {
    """ + "".join(f"case {j}: out = {_KERNELS[n][0]}; break;\n    "
                  for j, n in enumerate(_NAMES)) + r"""
    default: out = NAN;
    }
    """,
    "gp_rbf_pairs")

_DIST2 = gpunp.ElementwiseKernel(
    "raw float64 a, raw float64 b, int64 ia, int64 ib, int64 nd",
    "float64 out",
    r"""
    long long d;
    double s = 0.0, u;
    for (d = 0; d < nd; d++) {
        u = a[ia * nd + d] - b[ib * nd + d];
        s += u * u;
    }
    out = s;
    """,
    "gp_rbf_dist2")

# elements of one evaluation block (points x data points)
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


def _poly(xhat, powers):
    """Monomials of the scaled coordinates: (..., R)."""
    cols = []
    for p in powers:
        v = gpunp.ones(xhat.shape[:-1])
        for d, e in enumerate(p):
            if e:
                v = v * xhat[..., d] ** int(e)
        cols.append(v)
    if not cols:
        return gpunp.zeros(xhat.shape[:-1] + (0,))
    return gpunp.stack(cols, axis=-1)


def _pairs(a, b, ia, ib, eps, kind):
    shape = numpy.broadcast_shapes(ia.shape, ib.shape)
    out = gpunp.empty(shape, dtype=numpy.float64)
    if out.size:
        _PAIRS(a, b, ia, ib, a.shape[1], float(eps), _NAMES.index(kind), out)
    return out


def _shift_scale(y):
    lo, hi = y.min(axis=-2), y.max(axis=-2)
    shift = (hi + lo) / 2
    scale = (hi - lo) / 2
    return shift, gpunp.where(scale == 0.0, 1.0, scale)


def _solve(y, yrows, d, smoothing, kind, eps, powers):
    """Coefficients of the systems over the data rows yrows (B, P): (B, P+R, S),
    with the shifts and scales of each (B, N)."""
    B, P = yrows.shape
    R = powers.shape[0]
    pts = y[yrows]                                   # (B, P, N)
    shift, scale = _shift_scale(pts)
    k = _pairs(y, y, yrows[:, :, None], yrows[:, None, :], eps, kind)
    k = k + gpunp.eye(P)[None] * smoothing[yrows][:, :, None]
    pm = _poly((pts - shift[:, None]) / scale[:, None], powers)   # (B, P, R)
    top = gpunp.concatenate([k, pm], axis=2)
    bottom = gpunp.concatenate([gpunp.swapaxes(pm, 1, 2), gpunp.zeros((B, R, R))], axis=2)
    lhs = gpunp.concatenate([top, bottom], axis=1)
    rhs = gpunp.concatenate([d[yrows], gpunp.zeros((B, R, d.shape[1]))], axis=1)
    try:
        coeffs = gpunp.linalg.solve(lhs, rhs)
    except numpy.linalg.LinAlgError:
        coeffs = None
    if coeffs is None or not bool(gpunp.isfinite(coeffs).all()):
        msg = "Singular matrix."
        if R:
            rank = numpy.linalg.matrix_rank(pm[0].get())
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

    def _dense(self, x):
        nx, ny = x.shape[0], self.y.shape[0]
        R = self.powers.shape[0]
        step = max(1, _BLOCK // max(ny + R, 1))
        iy = gpunp.arange(ny)[None]
        parts = []
        for s in range(0, nx, step):
            xs = x[s:s + step]
            ix = gpunp.arange(xs.shape[0])[:, None]
            k = _pairs(gpunp.ascontiguousarray(xs), self.y, ix, iy, self.epsilon, self.kernel)
            pm = _poly((xs - self._shift) / self._scale, self.powers)
            parts.append(k @ self._coeffs[:ny] + pm @ self._coeffs[ny:])
        if not parts:
            return gpunp.zeros((0, self.d.shape[1]))
        return gpunp.concatenate(parts) if len(parts) > 1 else parts[0]

    def _nearest(self, x):
        """Indices (nx, k) of each point's k nearest data points, sorted."""
        nx, ny = x.shape[0], self.y.shape[0]
        k = self.neighbors
        step = max(1, _BLOCK // max(ny, 1))
        iy = gpunp.arange(ny)[None]
        parts = []
        for s in range(0, nx, step):
            xs = gpunp.ascontiguousarray(x[s:s + step])
            d2 = gpunp.empty((xs.shape[0], ny))
            _DIST2(xs, self.y, gpunp.arange(xs.shape[0])[:, None], iy, xs.shape[1], d2)
            if k < ny:
                near = gpunp.argpartition(d2, k - 1, axis=1)[:, :k]
            else:
                near = gpunp.broadcast_to(iy, d2.shape)
            parts.append(gpunp.sort(near, axis=1))
        return gpunp.concatenate(parts) if len(parts) > 1 else parts[0]

    def _local(self, x):
        """One system for each distinct set of neighbours (solved as a batch),
        each point evaluated with its set's coefficients."""
        nx = x.shape[0]
        if nx == 0:
            return gpunp.zeros((0, self.d.shape[1]))
        near = self._nearest(x)
        sets, inv = gpunp.unique(near, axis=0, return_inverse=True)
        inv = inv.reshape(-1)
        shift, scale, coeffs = _solve(self.y, sets, self.d, self.smoothing, self.kernel,
                                      self.epsilon, self.powers)
        k = self.neighbors
        kv = _pairs(x, self.y, gpunp.arange(nx)[:, None], sets[inv], self.epsilon, self.kernel)
        pm = _poly((x - shift[inv]) / scale[inv], self.powers)
        c = coeffs[inv]
        return gpunp.einsum("ij,ijs->is", kv, c[:, :k]) + gpunp.einsum("ij,ijs->is", pm, c[:, k:])
