"""Spline interpolation: the prefilter (B-spline coefficients by SciPy's
recursive filters: a causal and an anticausal first-order pass per pole
along each axis, one thread per line, initialised per boundary mode) and
one elementwise kernel pass per output element that maps the output
coordinate (a coordinates array, an affine matrix, or a per-axis zoom and
shift), applies the boundary mode and sums the (order+1)^ndim taps."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np

import gpunp as gp

from . import _ni_support as ns

_MAXRANK = 16

# the poles of the B-spline prefilter of each order (roots of the B-spline's
# sampled symbol, inside the unit circle)
_POLES = {2: [math.sqrt(8.0) - 3.0],
          3: [math.sqrt(3.0) - 2.0],
          4: [math.sqrt(664.0 - math.sqrt(438976.0)) + math.sqrt(304.0) - 19.0,
              math.sqrt(664.0 + math.sqrt(438976.0)) - math.sqrt(304.0) - 19.0],
          5: [math.sqrt(67.5 - math.sqrt(4436.25)) + math.sqrt(26.25) - 6.5,
              math.sqrt(67.5 + math.sqrt(4436.25)) - math.sqrt(26.25) - 6.5]}

# which exact boundary the prefilter assumes: 0 mirror, 1 periodic, 2 reflect
# (constant and wrap have none and use mirror, as SciPy's)
_PREFILTER_KIND = {ns.NEAREST: 2, ns.WRAP: 0, ns.REFLECT: 2, ns.MIRROR: 0, ns.CONSTANT: 0,
                   ns.GRID_WRAP: 1, ns.GRID_CONSTANT: 0}

_prefilter_k = gp.ElementwiseKernel(
    "raw float64 poles, int64 n, int64 stride, int32 npoles, int32 kind",
    "raw float64 c",
    r"""
    double *p = c + ((long long)i / stride) * n * stride + ((long long)i % stride);
    double gain = 1.0, z, zi, zn, sum;
    long long k;
    int q;
    if (n > 1) {
        for (q = 0; q < npoles; ++q)
            gain *= (1.0 - poles[q]) * (1.0 - 1.0 / poles[q]);
        for (k = 0; k < n; ++k)
            p[k * stride] *= gain;
        for (q = 0; q < npoles; ++q) {
            z = poles[q];
            /* the causal pass's first value: the sum over the extended line */
            if (kind == 0) {
                zn = pow(z, (double)(n - 1));
                sum = p[0] + zn * p[(n - 1) * stride];
                zi = z;
                for (k = 1; k < n - 1; ++k) {
                    sum += zi * (p[k * stride] + zn * p[(n - 1 - k) * stride]);
                    zi *= z;
                }
                p[0] = sum / (1.0 - zn * zn);
            } else if (kind == 1) {
                zi = z;
                for (k = 1; k < n; ++k) {
                    p[0] += zi * p[(n - k) * stride];
                    zi *= z;
                }
                p[0] /= 1.0 - zi;
            } else {
                zn = pow(z, (double)n);
                sum = p[0] + zn * p[(n - 1) * stride];
                zi = z;
                for (k = 1; k < n; ++k) {
                    sum += zi * (p[k * stride] + zn * p[(n - 1 - k) * stride]);
                    zi *= z;
                }
                p[0] += sum * z / (1.0 - zn * zn);
            }
            for (k = 1; k < n; ++k)
                p[k * stride] += z * p[(k - 1) * stride];
            /* the anticausal pass's first value */
            if (kind == 0) {
                p[(n - 1) * stride] = (z * p[(n - 2) * stride] + p[(n - 1) * stride]) * z /
                                      (z * z - 1.0);
            } else if (kind == 1) {
                zi = z;
                for (k = 0; k < n - 1; ++k) {
                    p[(n - 1) * stride] += zi * p[k * stride];
                    zi *= z;
                }
                p[(n - 1) * stride] *= z / (zi - 1.0);
            } else {
                p[(n - 1) * stride] *= z / (z - 1.0);
            }
            for (k = n - 2; k >= 0; --k)
                p[k * stride] = z * (p[(k + 1) * stride] - p[k * stride]);
        }
    }
    """, "ndi_spline_prefilter")

_INTERP_PRE = r"""
/* a coordinate outside [0, n-1] brought inside by the mode (SciPy's
   conventions, -1 for the constant mode) */
GPK_FN double ndi_mapc(double in, long long n, int mode)
{
    long long s;
    if (in < 0) {
        switch (mode) {
        case 3:
            if (n <= 1) return 0;
            s = 2 * n - 2;
            in = s * (long long)(-in / s) + in;
            return in <= 1 - n ? in + s : -in;
        case 2:
            if (n <= 1) return 0;
            s = 2 * n;
            if (in < -s) in = s * (long long)(-in / s) + in;
            return in < -n ? in + s : (in > -1e-15 ? 1e-15 : -in) - 1;
        case 1:
            if (n <= 1) return 0;
            s = n - 1;
            return in + s * ((long long)(-in / s) + 1);
        case 5:
            if (n <= 1) return 0;
            return in + n * ((long long)((-1 - in) / n) + 1);
        case 0:
            return 0;
        case 4:
            return -1;
        }
    } else if (in > n - 1) {
        switch (mode) {
        case 3:
            if (n <= 1) return 0;
            s = 2 * n - 2;
            in -= s * (long long)(in / s);
            return in >= n ? s - in : in;
        case 2:
            if (n <= 1) return 0;
            s = 2 * n;
            in -= s * (long long)(in / s);
            return in >= n ? s - in - 1 : in;
        case 1:
            if (n <= 1) return 0;
            s = n - 1;
            return in - s * (long long)(in / s);
        case 5:
            if (n <= 1) return 0;
            return in - n * (long long)(in / n);
        case 0:
            return n - 1;
        case 4:
            return -1;
        }
    }
    return in;
}

/* the centred B-spline of degree `order` at t */
GPK_FN double ndi_bspline(double t, int order)
{
    double a = fabs(t), b;
    switch (order) {
    case 1:
        return a < 1.0 ? 1.0 - a : 0.0;
    case 2:
        if (a < 0.5) return 0.75 - a * a;
        b = 1.5 - a;
        return a < 1.5 ? 0.5 * b * b : 0.0;
    case 3:
        if (a < 1.0) return 2.0 / 3.0 + a * a * (0.5 * a - 1.0);
        b = 2.0 - a;
        return a < 2.0 ? b * b * b / 6.0 : 0.0;
    case 4:
        if (a < 0.5) return 115.0 / 192.0 + a * a * (0.25 * a * a - 0.625);
        if (a < 1.5) return (55.0 + a * (20.0 + a * (-120.0 + a * (80.0 - 16.0 * a)))) / 96.0;
        b = 2.5 - a;
        return a < 2.5 ? b * b * b * b / 24.0 : 0.0;
    default:
        if (a < 1.0) return 0.55 + a * a * (-0.5 + a * a * (0.25 - a / 12.0));
        if (a < 2.0)
            return 0.425 + a * (0.625 + a * (-1.75 + a * (1.25 + a * (-0.375 + a / 24.0))));
        b = 3.0 - a;
        return a < 3.0 ? b * b * b * b * b / 120.0 : 0.0;
    }
}
"""

_interp_k = gp.ElementwiseKernel(
    "raw X x, raw int64 shapes, raw float64 par, int64 ncoord, int32 irank, int32 orank, "
    "int32 order, int32 mode, float64 cval, int32 npad, int32 kind, int32 flags, "
    "int32 outkind, float64 omin, float64 omax",
    "raw Y y",
    r"""
    const long long *ishape = shapes, *oshape = shapes + irank;
    long long oc[16], tix[16][6], cs[16], rem = i, start, k, idx, ntap, tp;
    double ic[16], w[16][6], cc, t, coeff, wsum;
    int h, l, ff[16], constant = 0, edge, isc;
    const int smode = (mode == 4 || mode == 1) ? 3 : mode;
    for (h = orank - 1; h >= 0; --h) {
        oc[h] = rem % oshape[h];
        rem /= oshape[h];
    }
    for (h = irank - 1, k = 1; h >= 0; --h) {
        cs[h] = k;
        k *= ishape[h];
    }
    for (h = 0; h < irank; ++h) {
        if (kind == 0) {
            ic[h] = par[(long long)h * ncoord + i];
        } else if (kind == 1) {
            t = par[irank * orank + h];
            for (l = 0; l < orank; ++l)
                t += (double)oc[l] * par[h * orank + l];
            ic[h] = t;
        } else {
            t = (double)oc[h];
            if (flags & 2) t += par[irank + h];
            if (flags & 1) {
                if (flags & 4) { t += 0.5; t *= par[h]; t -= 0.5; }
                else t *= par[h];
            }
            ic[h] = t;
        }
    }
    for (h = 0; h < irank && !constant; ++h) {
        cc = ic[h] + npad;
        if (mode != 6 && mode != 0)
            cc = ndi_mapc(cc, ishape[h], mode);
        if (!(cc > -1.0 || mode == 6 || mode == 0)) {
            constant = 1;
            break;
        }
        start = (order & 1) ? (long long)floor(cc) - order / 2
                            : (long long)floor(cc + 0.5) - order / 2;
        edge = start < 0 || start + order >= ishape[h];
        for (l = 0; l <= order; ++l) {
            k = start + l;
            if (mode == 6)
                tix[h][l] = (k < 0 || k >= ishape[h]) ? -1 : k;
            else
                tix[h][l] = edge ? (long long)ndi_mapc((double)k, ishape[h], smode) : k;
        }
        /* the weights sum to one: the last is what the others leave */
        wsum = 0.0;
        for (l = 0; l < order; ++l) {
            w[h][l] = ndi_bspline(cc - (double)(start + l), order);
            wsum += w[h][l];
        }
        w[h][order] = 1.0 - wsum;
    }
    if (constant) {
        t = cval;
    } else {
        ntap = 1;
        for (h = 0; h < irank; ++h) {
            ff[h] = 0;
            ntap *= order + 1;
        }
        t = 0.0;
        for (tp = 0; tp < ntap; ++tp) {
            isc = 0;
            idx = 0;
            for (h = 0; h < irank; ++h) {
                k = tix[h][ff[h]];
                if (k < 0) isc = 1;
                idx += k * cs[h];
            }
            coeff = isc ? cval : (double)x[idx];
            if (order > 0)
                for (h = 0; h < irank; ++h)
                    coeff *= w[h][ff[h]];
            t += coeff;
            for (h = irank - 1; h >= 0; --h) {
                if (ff[h] < order) { ff[h]++; break; }
                ff[h] = 0;
            }
        }
    }
    /* SciPy rounds to integer outputs, clamped to the type's range */
    if (outkind == 1) {
        t = t > 0 ? t + 0.5 : 0;
        t = t > omax ? omax : t;
        t = t < 0 ? 0 : t;
    } else if (outkind == 2) {
        t = t > 0 ? t + 0.5 : t - 0.5;
        t = t > omax ? omax : t;
        t = t < omin ? omin : t;
    }
    y[i] = (Y)t;
    """, "ndi_interpolate", preamble=_INTERP_PRE)


def _check_order(order):
    if order < 0 or order > 5:
        raise RuntimeError("spline order not supported")


# ---- the prefilter ---------------------------------------------------------------------

def spline_filter1d(input, order=3, axis=-1, output=np.float64, mode="mirror"):
    """The 1-D B-spline prefilter (interpolation coefficients) along an axis."""
    _check_order(order)
    input = ns.device_input(input)
    cplx = input.dtype.kind == "c"
    output = ns.get_output(output, input, complex_output=cplx)
    if cplx:
        spline_filter1d(input.real, order, axis, output.real, mode)
        spline_filter1d(input.imag, order, axis, output.imag, mode)
        return output
    if order in (0, 1):
        output[...] = input
        return output
    ns.check_dtype(input.dtype)
    kind = _PREFILTER_KIND[ns.mode_code(mode)]
    axis = ns.normalize_axis(axis, input.ndim)
    # the recursion runs in place on float64 lines: the output itself where
    # it is a C-contiguous float64 array, else a copy
    inplace = output.dtype == np.float64 and output.flags.c_contiguous
    if inplace:
        output[...] = input
    c = output if inplace else gp.array(input, dtype=np.float64, order="C", copy=True)
    if c.size:
        n = c.shape[axis]
        stride = int(np.prod(c.shape[axis + 1:], dtype=np.int64))
        poles = _POLES[order]
        _prefilter_k(gp.asarray(poles), n, stride, len(poles), kind, c, size=c.size // n)
    if not inplace:
        output[...] = c
    return output


def spline_filter(input, order=3, output=np.float64, mode="mirror"):
    """The multidimensional B-spline prefilter: 1-D passes along each axis."""
    if order < 2 or order > 5:
        raise RuntimeError("spline order not supported")
    input = ns.device_input(input)
    cplx = input.dtype.kind == "c"
    output = ns.get_output(output, input, complex_output=cplx)
    if cplx:
        spline_filter(input.real, order, output.real, mode)
        spline_filter(input.imag, order, output.imag, mode)
        return output
    if input.ndim == 0:
        output[...] = input
    for axis in range(input.ndim):
        spline_filter1d(input, order, axis, output=output, mode=mode)
        input = output
    return output


def _prefiltered(input, order, mode, cval, prefilter):
    """The spline coefficients the kernel reads, and how far they were padded
    (nearest and grid-constant have no exact boundary: 12 samples of padding
    stand in for it, as SciPy pads)."""
    if not (prefilter and order > 1):
        return input, 0
    if mode in ("nearest", "grid-constant"):
        padded = gp.pad(input, 12, mode="edge") if mode == "nearest" else \
            gp.pad(input, 12, mode="constant", constant_values=cval)
        return spline_filter(padded, order, output=np.float64, mode=mode), 12
    return spline_filter(input, order, output=np.float64, mode=mode), 0


def _out_kind(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "u":
        return 1, 0.0, float(np.iinfo(dtype).max)
    if dtype.kind == "i":
        info = np.iinfo(dtype)
        return 2, float(info.min), float(info.max)
    return 0, 0.0, 0.0


def _transform(filtered, output, order, mode, cval, npad, kind, par, flags, ncoord=0):
    if filtered.ndim > _MAXRANK or output.ndim > _MAXRANK:
        raise NotImplementedError(f"interpolation of more than {_MAXRANK} dimensions")
    if output.size == 0:
        return output
    if filtered.dtype.kind not in "c" and filtered.dtype != np.float64:
        ns.check_dtype(filtered.dtype)
    shapes = gp.asarray(np.array(list(filtered.shape) + list(output.shape) + [0], np.int64))
    ok, lo, hi = _out_kind(output.dtype)
    x = ns.kernel_input(filtered)
    # the kernel rounds to an integer output's values, which then cast exactly.
    # An output that is the input (order < 2 reads it unfiltered) is written
    # through a temporary: SciPy's one thread reads, where they overlap, the
    # values it already wrote, which a GPU's many threads would race on
    return ns.run_into(output, lambda out: _interp_k(
        x, shapes, par, ncoord, filtered.ndim, output.ndim, order, mode, float(cval), npad,
        kind, flags, ok, lo, hi, out, size=out.size), avoid=x)


def _complex(func, input, output, cval, *args, **kw):
    func(input.real, *args, output=output.real, cval=np.real(cval), **kw)
    func(input.imag, *args, output=output.imag, cval=np.imag(cval), **kw)
    return output


# ---- the transforms --------------------------------------------------------------------

def map_coordinates(input, coordinates, output=None, order=3, mode="constant", cval=0.0,
                    prefilter=True):
    """The input's spline interpolant at the given coordinates (one row per
    input axis)."""
    _check_order(order)
    input = ns.device_input(input)
    coordinates = ns.device_input(coordinates)
    if coordinates.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    oshape = coordinates.shape[1:]
    if input.ndim < 1 or len(oshape) < 1:
        raise RuntimeError("input and output rank must be > 0")
    if coordinates.shape[0] != input.ndim:
        raise RuntimeError("invalid shape for coordinate array")
    output = ns.get_output(output, input, shape=oshape,
                           complex_output=input.dtype.kind == "c")
    if input.dtype.kind == "c":
        return _complex(map_coordinates, input, output, cval, coordinates, order=order,
                        mode=mode, prefilter=prefilter)
    ns.check_dtype(input.dtype)
    code = ns.mode_code(mode)
    filtered, npad = _prefiltered(input, order, mode, cval, prefilter)
    par = gp.ascontiguousarray(coordinates, dtype=np.float64).reshape(input.ndim, -1)
    return _transform(filtered, output, order, code, cval, npad, 0, par, 0,
                      ncoord=int(np.prod(oshape)))


def affine_transform(input, matrix, offset=0.0, output_shape=None, output=None, order=3,
                     mode="constant", cval=0.0, prefilter=True):
    """An affine transform: the output at o is the input at matrix @ o + offset."""
    _check_order(order)
    input = ns.device_input(input)
    if output_shape is None:
        output_shape = output.shape if isinstance(output, gp.ndarray) else input.shape
    if input.ndim < 1 or len(output_shape) < 1:
        raise RuntimeError("input and output rank must be > 0")
    output = ns.get_output(output, input, shape=output_shape,
                           complex_output=input.dtype.kind == "c")
    if input.dtype.kind == "c":
        return _complex(affine_transform, input, output, cval, matrix, offset=offset,
                        output_shape=output_shape, order=order, mode=mode,
                        prefilter=prefilter)
    ns.check_dtype(input.dtype)
    code = ns.mode_code(mode)
    matrix = ns.host(matrix, np.float64)
    nd = input.ndim
    if matrix.ndim not in (1, 2) or matrix.shape[0] < 1:
        raise RuntimeError("no proper affine matrix provided")
    if matrix.ndim == 2 and matrix.shape[1] == nd + 1 and matrix.shape[0] in (nd, nd + 1):
        if matrix.shape[0] == nd + 1:
            want = [0] * nd + [1]
            if not np.all(matrix[nd] == want):
                raise ValueError(f"Expected homogeneous transformation matrix with shape "
                                 f"{matrix.shape} for image shape {input.shape}, but bottom "
                                 f"row was not equal to {want}")
        offset = matrix[:nd, nd]
        matrix = matrix[:nd, :nd]
    if matrix.shape[0] != nd:
        raise RuntimeError("affine matrix has wrong number of rows")
    if matrix.ndim == 2 and matrix.shape[1] != output.ndim:
        raise RuntimeError("affine matrix has wrong number of columns")
    offset = np.asarray(ns.normalize_sequence(ns.host(offset) if isinstance(offset, gp.ndarray)
                                              else offset, nd), dtype=np.float64)
    if offset.ndim != 1 or offset.shape[0] < 1:
        raise RuntimeError("no proper offset provided")
    filtered, npad = _prefiltered(input, order, mode, cval, prefilter)
    if matrix.ndim == 1:
        # a diagonal matrix: SciPy's zoom-and-shift arithmetic, (o + offset/m) * m
        with np.errstate(divide="ignore", invalid="ignore"):
            par = np.concatenate([matrix, offset / matrix])
        return _transform(filtered, output, order, code, cval, npad, 2, gp.asarray(par), 3)
    par = np.concatenate([matrix.ravel(), offset])
    return _transform(filtered, output, order, code, cval, npad, 1, gp.asarray(par), 0)


def shift(input, shift, output=None, order=3, mode="constant", cval=0.0, prefilter=True):
    """The input shifted by `shift` (per axis), interpolated."""
    _check_order(order)
    input = ns.device_input(input)
    if input.ndim < 1:
        raise RuntimeError("input and output rank must be > 0")
    output = ns.get_output(output, input, complex_output=input.dtype.kind == "c")
    if input.dtype.kind == "c":
        return _complex(globals()["shift"], input, output, cval, shift, order=order,
                        mode=mode, prefilter=prefilter)
    ns.check_dtype(input.dtype)
    code = ns.mode_code(mode)
    filtered, npad = _prefiltered(input, order, mode, cval, prefilter)
    s = [-float(v) for v in ns.normalize_sequence(shift, input.ndim)]
    par = gp.asarray(np.array([1.0] * input.ndim + s))
    return _transform(filtered, output, order, code, cval, npad, 2, par, 2)


def zoom(input, zoom, output=None, order=3, mode="constant", cval=0.0, prefilter=True, *,
         grid_mode=False):
    """The input zoomed by `zoom` (per axis), interpolated."""
    _check_order(order)
    input = ns.device_input(input)
    if input.ndim < 1:
        raise RuntimeError("input and output rank must be > 0")
    zoom = ns.normalize_sequence(zoom, input.ndim)
    oshape = tuple(int(round(n * z)) for n, z in zip(input.shape, zoom))
    cplx = input.dtype.kind == "c"
    output = ns.get_output(output, input, shape=oshape, complex_output=cplx)
    if all(z == 1 for z in zoom) and prefilter:
        output[...] = input
        return output
    if cplx:
        return _complex(globals()["zoom"], input, output, cval, zoom, order=order, mode=mode,
                        prefilter=prefilter, grid_mode=grid_mode)
    ns.check_dtype(input.dtype)
    filtered, npad = _prefiltered(input, order, mode, cval, prefilter)
    if grid_mode and mode in ("constant", "wrap"):
        better = {"constant": "grid-constant", "wrap": "grid-wrap"}[mode]
        warnings.warn(f"It is recommended to use mode = {better} instead of {mode} when "
                      f"grid_mode is True.", stacklevel=2)
    code = ns.mode_code(mode)
    div = np.array(oshape, np.float64) - (0 if grid_mode else 1)
    num = np.array(input.shape, np.float64) - (0 if grid_mode else 1)
    z = np.divide(num, div, out=np.ones(input.ndim), where=div != 0)
    par = gp.asarray(np.concatenate([z, np.zeros(input.ndim)]))
    return _transform(filtered, output, order, code, cval, npad, 2, par,
                      1 | (4 if grid_mode else 0))


def rotate(input, angle, axes=(1, 0), reshape=True, output=None, order=3, mode="constant",
           cval=0.0, prefilter=True):
    """The input rotated by `angle` degrees in the plane of `axes`."""
    input = ns.device_input(input)
    nd = input.ndim
    if nd < 2:
        raise ValueError("input array should be at least 2D")
    axes = list(axes)
    if len(axes) != 2:
        raise ValueError("axes should contain exactly two values")
    if not all(float(ax).is_integer() for ax in axes):
        raise ValueError("axes should contain only integer values")
    axes = [int(ax) + nd if ax < 0 else int(ax) for ax in axes]
    if any(ax < 0 or ax >= nd for ax in axes):
        raise ValueError("invalid rotation plane specified")
    axes.sort()
    c, s = _cosdg(angle), _sindg(angle)
    rot = np.array([[c, s], [-s, c]])
    shape = np.asarray(input.shape)
    in_plane = shape[axes]
    if reshape:
        iy, ix = in_plane
        bounds = rot @ [[0, 0, iy, iy], [0, ix, 0, ix]]
        out_plane = (np.ptp(bounds, axis=1) + 0.5).astype(int)
    else:
        out_plane = shape[axes]
    offset = (in_plane - 1) / 2 - rot @ ((out_plane - 1) / 2)
    oshape = shape.copy()
    oshape[axes] = out_plane
    oshape = tuple(int(v) for v in oshape)
    output = ns.get_output(output, input, shape=oshape,
                           complex_output=input.dtype.kind == "c")
    if nd <= 2:
        affine_transform(input, rot, offset, oshape, output, order, mode, cval, prefilter)
        return output
    # every plane parallel to `axes` is one 2-d affine transform
    planes = itertools.product(*[[slice(None)] if ax in axes else range(shape[ax])
                                 for ax in range(nd)])
    for key in planes:
        key = tuple(key)
        affine_transform(input[key], rot, offset, tuple(out_plane), output[key], order, mode,
                         cval, prefilter)
    return output


def _sindg(x):
    """sin of x degrees, exact at multiples of 90 degrees (as SciPy's sindg)."""
    r = math.fmod(float(x), 360.0)
    quarter, rest = divmod(r, 90.0)
    if rest == 0.0:
        return (0.0, 1.0, 0.0, -1.0)[int(quarter) % 4]
    return math.sin(math.radians(r))


def _cosdg(x):
    return _sindg(float(x) + 90.0)


def geometric_transform(input, mapping, output_shape=None, output=None, order=3,
                        mode="constant", cval=0.0, prefilter=True, extra_arguments=(),
                        extra_keywords=None):
    """A transform by a Python function of output coordinates (SciPy's
    signature). The function is called on the host once per output element
    (the slow path, for small outputs); the interpolation is
    map_coordinates' kernel on the coordinates it gives."""
    extra_keywords = {} if extra_keywords is None else extra_keywords
    _check_order(order)
    input = ns.device_input(input)
    output_shape = input.shape if output_shape is None else tuple(output_shape)
    if input.ndim < 1 or len(output_shape) < 1:
        raise RuntimeError("input and output rank must be > 0")
    coords = np.empty((input.ndim,) + output_shape, np.float64)
    for o in np.ndindex(*output_shape):
        c = mapping(o, *extra_arguments, **extra_keywords)
        if len(c) != input.ndim:
            raise RuntimeError("output of the mapping function has wrong length")
        coords[(slice(None),) + o] = c
    return map_coordinates(input, gp.asarray(coords), output=output, order=order, mode=mode,
                           cval=cval, prefilter=prefilter)
