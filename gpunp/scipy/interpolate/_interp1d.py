"""SciPy's legacy interp1d: linear in one kernel pass (bisection, weights,
fill values), nearest/previous/next by gpunp.searchsorted and take, the
spline kinds through make_interp_spline."""

from __future__ import annotations

import numpy

import gpunp
from gpunp.scipy._host import as_device

from ._bsplines import make_interp_spline

_LINEAR = gpunp.ElementwiseKernel(
    "raw float64 xs, raw float64 ys, float64 xv, int64 n, int64 nc, int32 fill, "
    "raw float64 below, raw float64 above",
    "float64 y",
    r"""
    long long col = i % nc, lo = 0, hi = n, mid;
    double xl, xh;
    if (fill && xv < xs[0]) {
        y = below[col];
    } else if (fill && xv > xs[n - 1]) {
        y = above[col];
    } else {
        while (lo < hi) {  /* searchsorted, side left */
            mid = (lo + hi) / 2;
            if (xs[mid] < xv) lo = mid + 1; else hi = mid;
        }
        if (lo < 1) lo = 1;
        if (lo > n - 1) lo = n - 1;
        xl = xs[lo - 1]; xh = xs[lo];
        /* SciPy 1.17's formula: the slope, then from the lower point */
        y = (ys[lo * nc + col] - ys[(lo - 1) * nc + col]) / (xh - xl) * (xv - xl)
            + ys[(lo - 1) * nc + col];
    }
    """,
    "gp_interp1d_linear")

_KINDS = ("linear", "nearest", "nearest-up", "zero", "slinear", "quadratic", "cubic", "previous",
          "next")


def _extrapolating(fill_value):
    return isinstance(fill_value, str) and fill_value == "extrapolate"


def _broadcast_up_to(a, shape, name):
    """a as a flat array of one value or of the values of shape."""
    a = numpy.asarray(a)
    fits = a.ndim <= len(shape) and all(
        f in (1, t) for t, f in zip(shape[::-1], a.shape[::-1]))
    if not fits:
        raise ValueError(f"{name} argument must be able to broadcast up to shape {shape} but "
                         f"had shape {a.shape}")
    return numpy.broadcast_to(a, shape).ravel() if a.size != 1 else a.ravel()


class interp1d:
    """Interpolates a 1-D function (SciPy's legacy interface): y values
    along `axis` at the points x; calls evaluate at new points."""

    def __init__(self, x, y, kind="linear", axis=-1, copy=True, bounds_error=None,
                 fill_value=numpy.nan, assume_sorted=False):
        self.bounds_error = bounds_error
        self.copy = copy
        x, y = as_device(x), as_device(y)
        if y.ndim == 0:
            yshape = (1,)
        else:
            yshape = y.shape
        if x.ndim == 1 and yshape[axis % len(yshape)] != len(x):
            raise ValueError("x and y arrays must be equal in length along interpolation axis.")
        if kind in ("zero", "slinear", "quadratic", "cubic"):
            order = {"zero": 0, "slinear": 1, "quadratic": 2, "cubic": 3}[kind]
            kind = "spline"
        elif isinstance(kind, (int, numpy.integer)) and not isinstance(kind, bool):
            order = int(kind)
            kind = "spline"
        elif kind not in ("linear", "nearest", "nearest-up", "previous", "next"):
            raise NotImplementedError(f"{kind} is unsupported: Use fitpack routines for other "
                                      "types.")
        x = gpunp.array(x, copy=True) if copy else x
        y = gpunp.array(y, copy=True) if copy else y
        if not assume_sorted:
            # the data's abscissae are few: sorted on the host, y gathered on the device
            ind = numpy.argsort(x.get(), kind="mergesort")
            if numpy.any(ind[1:] < ind[:-1]):
                ind = gpunp.asarray(ind)
                x = x[ind]
                y = gpunp.take(y, ind, axis=axis)
        if x.ndim != 1:
            raise ValueError("the x array must have exactly one dimension.")
        if y.ndim == 0:
            raise ValueError("the y array must have at least one dimension.")
        if y.dtype.kind not in "fc":
            y = y.astype(numpy.float64)
        self.axis = axis % y.ndim
        self.y = y
        self.x = x
        self._extra = y.shape[:self.axis] + y.shape[self.axis + 1:]
        self._y2 = gpunp.moveaxis(y, self.axis, 0).reshape(y.shape[self.axis], -1)
        self._kind = kind
        if kind == "spline":
            minval = order + 1
            self._spline = None
            if len(x) >= minval:
                xh = x.get().astype(numpy.float64)
                nan_x = numpy.isnan(xh).any() and order > 1
                if nan_x and numpy.isnan(xh).all():
                    raise ValueError("`x` array is all-nan")
                # SciPy answers NaN everywhere when data hold NaN (order > 1)
                self._all_nan = order > 1 and (
                    nan_x or bool(gpunp.isnan(self._y2).any()))
                if self._all_nan:
                    xx = numpy.linspace(numpy.nanmin(xh), numpy.nanmax(xh), len(xh)) \
                        if nan_x else xh
                    yy = gpunp.ones_like(self._y2)
                else:
                    xx, yy = x, self._y2
                self._spline = make_interp_spline(xx, yy, k=order, check_finite=False)
        else:
            minval = 1
            if kind in ("nearest", "nearest-up"):
                half = x / 2.0
                self._bounds = half[1:] + half[:-1]
                self._side = "left" if kind == "nearest" else "right"
            elif kind in ("previous", "next"):
                self._side = "left" if kind == "previous" else "right"
                self._ind = 0 if kind == "previous" else 1
                self._shifted = gpunp.nextafter(x, -numpy.inf if kind == "previous"
                                                else numpy.inf)
                if _extrapolating(fill_value):
                    self._no_raise()
                    last = gpunp.take(y, -1 if kind == "previous" else 0, axis=self.axis)
                    fill_value = (numpy.nan, last.get()) if kind == "previous" \
                        else (last.get(), numpy.nan)
        if len(x) < minval:
            raise ValueError(f"x and y arrays must have at least {minval} entries")
        self.fill_value = fill_value

    def _no_raise(self):
        if self.bounds_error:
            raise ValueError("Cannot extrapolate and raise at the same time.")
        self.bounds_error = False

    @property
    def fill_value(self):
        return self._fill_orig

    @fill_value.setter
    def fill_value(self, fill_value):
        if _extrapolating(fill_value):
            self._no_raise()
            self._extrapolate = True
        else:
            shape = self._extra or (1,)
            if isinstance(fill_value, tuple) and len(fill_value) == 2:
                lo = _broadcast_up_to(_host_value(fill_value[0]), shape, "fill_value (below)")
                hi = _broadcast_up_to(_host_value(fill_value[1]), shape, "fill_value (above)")
            else:
                lo = hi = _broadcast_up_to(_host_value(fill_value), shape, "fill_value")
            self._below, self._above = lo, hi
            self._extrapolate = False
            if self.bounds_error is None:
                self.bounds_error = True
        self._fill_orig = fill_value

    def __call__(self, x):
        x = as_device(x)
        if x.dtype.kind not in "fc":
            x = x.astype(numpy.float64)
        shape = x.shape
        xr = x.reshape(-1)
        if self.bounds_error and xr.size:
            x0, x1 = self.x[0], self.x[-1]
            lo_bad, hi_bad = xr < x0, xr > x1
            flags = gpunp.stack([lo_bad.any(), hi_bad.any()]).get()
            if flags[0]:
                v = xr[gpunp.argmax(lo_bad)].get()
                raise ValueError(f"A value ({v}) in x_new is below the interpolation range's "
                                 f"minimum value ({x0.get()}).")
            if flags[1]:
                v = xr[gpunp.argmax(hi_bad)].get()
                raise ValueError(f"A value ({v}) in x_new is above the interpolation range's "
                                 f"maximum value ({x1.get()}).")
        out = self._values(xr)
        out = out.reshape(shape + self._extra)
        if self.axis != 0 and shape != ():
            nx, ny = len(shape), len(self._extra)
            order = (list(range(nx, nx + self.axis)) + list(range(nx))
                     + list(range(nx + self.axis, nx + ny)))
            out = out.transpose(order)
        return out

    def _values(self, xr):
        """(len(xr), ncols) values, fill values in place unless extrapolating;
        the dtype is the computation's (SciPy assigns the fill values into it)."""
        fill = not self._extrapolate
        if self._kind == "linear":
            dt = numpy.result_type(xr.dtype, self.x.dtype, self.y.dtype)
            return self._linear(xr, fill).astype(dt, copy=False)
        if self._kind == "spline":
            out = self._spline(xr)
            if self._all_nan:
                out = gpunp.full_like(out, numpy.nan)
        elif self._kind in ("nearest", "nearest-up"):
            idx = gpunp.clip(gpunp.searchsorted(self._bounds, xr, side=self._side),
                             0, len(self.x) - 1)
            out = self._y2[idx]
        else:
            idx = gpunp.clip(gpunp.searchsorted(self._shifted, xr, side=self._side),
                             1 - self._ind, len(self.x) - self._ind)
            out = self._y2[idx + self._ind - 1]
        if fill and out.size:
            below = (xr < self.x[0])[:, None]
            above = (xr > self.x[-1])[:, None]
            out = gpunp.where(below, gpunp.asarray(self._below.astype(out.dtype)), out)
            out = gpunp.where(above, gpunp.asarray(self._above.astype(out.dtype)), out)
        return out

    def _linear(self, xr, fill):
        xs = gpunp.ascontiguousarray(self.x.astype(numpy.float64))
        xv = gpunp.ascontiguousarray(xr.astype(numpy.float64)).reshape(-1, 1)
        n, nc = self._y2.shape
        nc = max(nc, 1)
        below = self._below if fill else numpy.zeros(nc)
        above = self._above if fill else numpy.zeros(nc)

        def run(ys, lo, hi):
            out = gpunp.empty((xv.shape[0], nc), dtype=numpy.float64)
            if out.size:
                _LINEAR(xs, ys, xv, n, nc, int(fill),
                        gpunp.asarray(numpy.broadcast_to(lo, (nc,)).astype(numpy.float64)),
                        gpunp.asarray(numpy.broadcast_to(hi, (nc,)).astype(numpy.float64)), out)
            return out
        y2 = self._y2
        if y2.dtype.kind == "c" or numpy.asarray(below).dtype.kind == "c" \
                or numpy.asarray(above).dtype.kind == "c":
            yc = y2.astype(numpy.complex128)
            b, a = numpy.asarray(below, complex), numpy.asarray(above, complex)
            return (run(gpunp.ascontiguousarray(yc.real), b.real, a.real)
                    + 1j * run(gpunp.ascontiguousarray(yc.imag), b.imag, a.imag))
        return run(gpunp.ascontiguousarray(y2.astype(numpy.float64)), below, above)


def _host_value(v):
    return v.get() if isinstance(v, gpunp.ndarray) else numpy.asarray(v)
