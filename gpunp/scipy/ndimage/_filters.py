"""scipy.ndimage's filters. Every filter is one elementwise kernel pass per
output element over the C-contiguous input: N-d filters loop over the
footprint's taps (flat offsets inside, the boundary mode's index mapping
near the edges), 1-d filters over a line's window. Separable filters
(gaussian, uniform, box minimum/maximum, sobel, prewitt) are 1-d passes
through output= as SciPy's are, so intermediate results round to the output
dtype where SciPy's do. Sums are in double in SciPy's order of taps."""

from __future__ import annotations

import math
import numbers
import operator
import warnings

import numpy as np

import gpunp as gp

from . import _ni_support as ns

# the N-d kernels' shared head: the element's coordinates (at most 64, as
# NumPy's dimensions), its offset in the input, whether every tap stays
# inside, and each tap's offset near an edge
_ND_HEAD = r"""
GPK_FN int ndi_coords(long long i, const long long *info, int nd, long long *c, long long *base)
{
    const long long *shp = info, *cs = info + nd, *lo = info + 2 * nd, *hi = info + 3 * nd;
    long long rem = i;
    int d, inside = 1;
    *base = 0;
    for (d = nd - 1; d >= 0; --d) {
        c[d] = rem % shp[d];
        rem /= shp[d];
    }
    for (d = 0; d < nd; ++d) {
        *base += c[d] * cs[d];
        if (c[d] + lo[d] < 0 || c[d] + hi[d] >= shp[d])
            inside = 0;
    }
    return inside;
}

/* the tap's input offset near an edge, or -1 where it reads cval */
GPK_FN long long ndi_tap(const long long *info, int nd, int nt, int t, const long long *c,
                         int mode)
{
    const long long *shp = info, *cs = info + nd, *to = info + 4 * nd + (long long)t * nd;
    long long off = 0, k;
    int d;
    for (d = 0; d < nd; ++d) {
        k = ndi_map(c[d] + to[d], shp[d], mode);
        if (k < 0)
            return -1;
        off += k * cs[d];
    }
    return off;
}
#define NDI_FLAT(info, nd, nt) ((info) + 4 * (nd) + (long long)(nt) * (nd))
"""

_PRE = ns.C_PRELUDE + _ND_HEAD

_correlate_k = gp.ElementwiseKernel(
    "raw X x, raw int64 info, raw float64 w, float64 cval, int32 mode, int32 nd, int32 nt",
    "raw Y y",
    r"""
    long long c[64], base, off;
    const long long *fo = NDI_FLAT(info, nd, nt);
    double acc = 0.0;
    int t;
    if (ndi_coords(i, info, nd, c, &base)) {
        for (t = 0; t < nt; ++t)
            acc += (double)x[base + fo[t]] * w[t];
    } else {
        for (t = 0; t < nt; ++t) {
            off = ndi_tap(info, nd, nt, t, c, mode);
            acc += (off < 0 ? cval : (double)x[off]) * w[t];
        }
    }
    y[i] = (Y)(acc);
    """, "ndi_correlate", preamble=_PRE)

# SciPy's minimum/maximum over a footprint: the running extreme is a double,
# each tap's value (plus the structure, cast) is the input's type. A negative
# height cast to an unsigned type is undefined in C: x86, where SciPy runs,
# wraps it (bool -1 is 255, so a bool erosion can reach 0), CUDA saturates it
# to 0. Going through long long makes the wrap defined on every device; a
# float type ((X)0.5 != 0) takes the height as it is.
_minmax_k = gp.ElementwiseKernel(
    "raw X x, raw int64 info, raw float64 s, float64 cval, int32 mode, int32 nd, int32 nt, "
    "int32 minimum, int32 hass",
    "raw Y y",
    r"""
    long long c[64], base, off;
    const long long *fo = NDI_FLAT(info, nd, nt);
    const X cv = (X)cval;
    int t, inside = ndi_coords(i, info, nd, c, &base);
    double r;
    X v;
    for (t = 0; t < nt; ++t) {
        off = inside ? base + fo[t] : ndi_tap(info, nd, nt, t, c, mode);
        v = off < 0 ? cv : x[off];
        if (t == 0) {
            r = v;
            if (hass) r += s[0];
            continue;
        }
        if (hass)
            v += (s[t] < 0 && (X)0.5 == (X)0) ? (X)(long long)s[t] : (X)s[t];
        if (minimum ? v < r : v > r)
            r = v;
    }
    y[i] = (Y)(r);
    """, "ndi_min_or_max", preamble=_PRE)

_SELECT = r"""
/* the k-th smallest of a[0..n): SciPy's selection (Hoare's partition about
   the first element, then the side holding k), so that NaNs, which compare
   false, land where they land in SciPy's */
GPK_FN double ndi_select(double *a, int n, int k)
{
    int lo = 0, hi = n - 1, p, q, left;
    double v, tmp;
    while (lo < hi) {
        v = a[lo];
        p = lo - 1;
        q = hi + 1;
        for (;;) {
            do --q; while (a[q] > v);
            do ++p; while (a[p] < v);
            if (p >= q)
                break;
            tmp = a[p]; a[p] = a[q]; a[q] = tmp;
        }
        left = q - lo + 1;
        if (k < left) {
            hi = q;
        } else {
            k -= left;
            lo = q + 1;
        }
    }
    return a[lo];
}
"""

_RANK_OP = r"""
    long long c[64], base, off;
    const long long *fo = NDI_FLAT(info, nd, nt);
    double buf[NDI_RMAX];
    int t, inside = ndi_coords(i, info, nd, c, &base);
    for (t = 0; t < nt; ++t) {
        off = inside ? base + fo[t] : ndi_tap(info, nd, nt, t, c, mode);
        buf[t] = off < 0 ? cval : (double)x[off];
    }
    y[i] = (Y)(ndi_select(buf, nt, rank));
    """
# one kernel per bound on the footprint's size (a thread's buffer is fixed)
_RANK_SIZES = (64, 512, 4096)
_rank_k = {n: gp.ElementwiseKernel(
    "raw X x, raw int64 info, float64 cval, int32 mode, int32 nd, int32 nt, int32 rank",
    "raw Y y", _RANK_OP, f"ndi_rank{n}", preamble=f"#define NDI_RMAX {n}\n" + _PRE + _SELECT)
    for n in _RANK_SIZES}

# every footprint value of every element, in SciPy's double (generic_filter)
# every footprint value of elements i0, i0+1, ..., in SciPy's double (the
# rows of generic_filter, and of rank filters too large for a thread's buffer)
_gather_k = gp.ElementwiseKernel(
    "raw X x, raw int64 info, float64 cval, int32 mode, int32 nd, int32 nt, int64 i0",
    "raw float64 g",
    r"""
    long long c[64], base, off;
    const long long *fo = NDI_FLAT(info, nd, nt);
    int t, inside = ndi_coords(i0 + i, info, nd, c, &base);
    for (t = 0; t < nt; ++t) {
        off = inside ? base + fo[t] : ndi_tap(info, nd, nt, t, c, mode);
        g[(long long)i * nt + t] = off < 0 ? cval : (double)x[off];
    }
    """, "ndi_gather", preamble=_PRE)

# the rows one gather holds at most (256 MiB of doubles)
_GATHER_BYTES = 1 << 28


def _gathered_rows(input, info, cval, mode, nt):
    """The footprint values of every element, a block of rows at a time:
    yields (first element, rows) with rows a (k, nt) float64 array."""
    x = ns.kernel_input(input)
    step = max(1, _GATHER_BYTES // (8 * nt))
    for i0 in range(0, input.size, step):
        k = min(step, input.size - i0)
        g = gp.empty((k, nt), np.float64)
        _gather_k(x, info, float(cval), mode, input.ndim, nt, i0, g, size=k)
        yield i0, g

# 1-d filters along one axis: op 0 correlation (SciPy's order: the last tap
# first), 1 symmetric and 2 antisymmetric correlation (pairs about the
# centre), 3 uniform (mean), 4 minimum, 5 maximum
_LINE = ns.C_PRELUDE + r"""
/* the input at offset j from the window's centre: a direct read where the
   whole window is inside the line, the mode's mapping elsewhere */
#define NDI_V(j) (inside ? (double)x[base + (c + (j) - origin) * stride] \
                         : ndi_at(x, base, c + (j) - origin, n, stride, mode, cval))
GPK_FN double ndi_at(const X *x, long long base, long long c, long long n, long long stride,
                     int mode, double cval)
{
    long long k = ndi_map(c, n, mode);
    return k < 0 ? cval : (double)x[base + k * stride];
}
"""

_line_k = gp.ElementwiseKernel(
    "raw X x, raw float64 w, float64 cval, int64 n, int64 stride, int32 mode, int32 size1, "
    "int32 size2, int32 origin, int32 op",
    "raw Y y",
    r"""
    const long long c = ((long long)i / stride) % n, base = (long long)i - c * stride;
    const int inside = c - origin - size1 >= 0 && c - origin + size2 < n;
    const double *wc = w + size1;
    double acc, v;
    int j;
    if (op == 1) {
        acc = NDI_V(0) * wc[0];
        for (j = -size1; j < 0; ++j)
            acc += (NDI_V(j) + NDI_V(-j)) * wc[j];
    } else if (op == 2) {
        acc = NDI_V(0) * wc[0];
        for (j = -size1; j < 0; ++j)
            acc += (NDI_V(j) - NDI_V(-j)) * wc[j];
    } else if (op == 0) {
        acc = NDI_V(size2) * wc[size2];
        for (j = -size1; j < size2; ++j)
            acc += NDI_V(j) * wc[j];
    } else if (op == 3) {
        acc = 0.0;
        for (j = -size1; j <= size2; ++j)
            acc += NDI_V(j);
        acc /= (double)(size1 + size2 + 1);
    } else {
        acc = NDI_V(-size1);
        for (j = -size1 + 1; j <= size2; ++j) {
            v = NDI_V(j);
            if (op == 4 ? v < acc : v > acc)
                acc = v;
        }
    }
    y[i] = (Y)(acc);
    """, "ndi_line", preamble=_LINE)


# ---- launching -----------------------------------------------------------------------------

def _cstrides(shape):
    out, s = [], 1
    for n in reversed(shape):
        out.append(s)
        s *= n
    return out[::-1]


def _tap_info(shape, fshape, origins, mask):
    """The int64 table the N-d kernels read: shape, C strides, each axis's
    lowest and highest tap offset, each tap's offsets, each tap's flat offset
    (taps of `mask`, a boolean footprint, in C order)."""
    nd = len(shape)
    idx = np.argwhere(mask).astype(np.int64) if nd else np.zeros((int(mask), 0), np.int64)
    offs = idx - np.array([f // 2 + o for f, o in zip(fshape, origins)], np.int64)
    cs = np.array(_cstrides(shape), np.int64)
    flat = offs @ cs if nd else np.zeros(len(idx), np.int64)
    lo = offs.min(axis=0) if len(idx) else np.zeros(nd, np.int64)
    hi = offs.max(axis=0) if len(idx) else np.zeros(nd, np.int64)
    info = np.concatenate([np.array(shape, np.int64), cs, lo, hi, offs.ravel(), flat, [0]])
    return gp.asarray(info.astype(np.int64)), len(idx)


def _run(kernel, input, output, *args, native=False):
    """Calls a filter kernel over the output: it reads the input C-contiguous
    (as float64 where its dtype is not one the kernel reads natively, unless
    `native`: the minimum and maximum with a structure work in the input's
    type) and writes the output through ns.run_into."""
    if output.size == 0:
        return output
    x = gp.ascontiguousarray(input) if native else ns.kernel_input(input)
    return ns.run_into(output, lambda out: kernel(x, *args, out, size=out.size), avoid=input)


def _check_origin_filter(origins, fshape):
    for o, n in zip(origins, fshape):
        if n // 2 + o < 0 or n // 2 + o >= n:
            raise ValueError("invalid origin")


def _as_input(input, allow_complex=False):
    x = ns.device_input(input)
    if x.dtype.kind == "c" and not allow_complex:
        raise TypeError("Complex type not supported")
    if x.dtype.kind != "c":
        ns.check_dtype(x.dtype)
    return x


# ---- 1-d filters -------------------------------------------------------------------------

def _line(input, weights, axis, output, mode, cval, origin, op, size):
    mode = ns.mode_code(mode)
    axis = ns.normalize_axis(axis, input.ndim)
    size1 = size // 2
    n = input.shape[axis] if input.ndim else 1
    stride = _cstrides(input.shape)[axis] if input.ndim else 1
    if input.size == 0:
        return output
    return _run(_line_k, input, output, weights, float(cval), n, stride, mode, size1,
                size - size1 - 1, origin, op)


def _invalid_origin(origin, lenw):
    return origin < -(lenw // 2) or origin > (lenw - 1) // 2


def _complex_parts(func, input, weights, output, cval, **kw):
    """A complex filter as real filters of the parts (they are linear)."""
    ci, cw = input.dtype.kind == "c", weights.dtype.kind == "c"
    rd = np.finfo(output.dtype).dtype
    if ci and cw:
        re = func(input.real, weights.real, output=rd, cval=np.real(cval), **kw)
        re -= func(input.imag, weights.imag, output=rd, cval=np.imag(cval), **kw)
        im = func(input.real, weights.imag, output=rd, cval=np.real(cval), **kw)
        im += func(input.imag, weights.real, output=rd, cval=np.imag(cval), **kw)
    elif ci:
        re = func(input.real, weights, output=rd, cval=np.real(cval), **kw)
        im = func(input.imag, weights, output=rd, cval=np.imag(cval), **kw)
    else:
        if np.iscomplexobj(cval):
            raise ValueError("Cannot provide a complex-valued cval when the input is real.")
        re = func(input, weights.real, output=rd, cval=cval, **kw)
        im = func(input, weights.imag, output=rd, cval=cval, **kw)
    output.real[...] = re
    output.imag[...] = im
    return output


def correlate1d(input, weights, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """A 1-D correlation along the given axis."""
    input = _as_input(input, allow_complex=True)
    weights = ns.host(weights)
    if input.dtype.kind == "c" or weights.dtype.kind == "c":
        if weights.dtype.kind == "c":
            weights = weights.conj().astype(np.complex128)
        output = ns.get_output(output, input, complex_output=True)
        return _complex_parts(correlate1d, input, weights, output, cval, axis=axis,
                              mode=mode, origin=origin)
    output = ns.get_output(output, input)
    weights = np.ascontiguousarray(weights, dtype=np.float64)
    if weights.ndim != 1 or weights.shape[0] < 1:
        raise RuntimeError("no filter weights given")
    origin = operator.index(origin)
    if _invalid_origin(origin, len(weights)):
        raise ValueError("Invalid origin; origin must satisfy -(len(weights) // 2) <= origin "
                         "<= (len(weights)-1) // 2")
    ns.normalize_axis(axis, input.ndim)
    size = len(weights)
    op = 0
    if size % 2:
        # SciPy's test: symmetric (or antisymmetric) within DBL_EPSILON
        h, eps = size // 2, np.finfo(np.float64).eps
        left, right = weights[:h][::-1], weights[h + 1:]
        if np.all(np.abs(right - left) <= eps):
            op = 1
        elif np.all(np.abs(right + left) <= eps):
            op = 2
    return _line(input, gp.asarray(weights), axis, output, mode, cval, origin, op, size)


def convolve1d(input, weights, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """A 1-D convolution along the given axis."""
    weights = ns.host(weights)[::-1]
    origin = -operator.index(origin)
    if not weights.shape[0] & 1:
        origin -= 1
    if weights.dtype.kind == "c":
        weights = weights.conj()  # correlate1d conjugates it back
    return correlate1d(input, weights, axis, output, mode, cval, origin)


def _gaussian_kernel1d(sigma, order, radius):
    """Taps of the order-th derivative of a sampled, normalised Gaussian:
    d^n/dx^n exp(-x^2/2s^2) = (-1/s)^n He_n(x/s) exp(...), He_n the
    probabilists' Hermite polynomials (He_{n+1} = u He_n - n He_{n-1})."""
    if order < 0:
        raise ValueError("order must be non-negative")
    x = np.arange(-radius, radius + 1, dtype=np.float64)
    phi = np.exp(-0.5 / (sigma * sigma) * x ** 2)
    phi /= phi.sum()
    if order == 0:
        return phi
    u = x / sigma
    h_prev, h = np.ones_like(u), u
    for n in range(1, order):
        h_prev, h = h, u * h - n * h_prev
    return (-1.0 / sigma) ** order * h * phi


def gaussian_filter1d(input, sigma, axis=-1, order=0, output=None, mode="reflect", cval=0.0,
                      truncate=4.0, *, radius=None):
    """A 1-D Gaussian filter (or its derivative of the given order)."""
    sd = float(sigma)
    lw = int(truncate * sd + 0.5) if radius is None else radius
    if not isinstance(lw, numbers.Integral) or lw < 0:
        raise ValueError("Radius must be a nonnegative integer.")
    weights = _gaussian_kernel1d(sd, operator.index(order), lw)[::-1]
    return correlate1d(input, weights, axis, output, mode, cval, 0)


def gaussian_filter(input, sigma, order=0, output=None, mode="reflect", cval=0.0, truncate=4.0,
                    *, radius=None, axes=None):
    """A multidimensional Gaussian filter: 1-D passes along each axis."""
    input = _as_input(input, allow_complex=True)
    output = ns.get_output(output, input)
    axes = ns.check_axes(axes, input.ndim)
    k = len(axes)
    orders = ns.normalize_sequence(order, k)
    sigmas = ns.normalize_sequence(sigma, k)
    modes = ns.normalize_sequence(mode, k)
    radii = ns.normalize_sequence(radius, k)
    passes = [(axes[j], sigmas[j], orders[j], modes[j], radii[j]) for j in range(k)
              if sigmas[j] > 1e-15]
    if not passes:
        output[...] = input
    for axis, s, o, m, r in passes:
        gaussian_filter1d(input, s, axis, o, output, m, cval, truncate, radius=r)
        input = output
    return output


def _separable(input, weights, axis, output, mode, cval):
    input = _as_input(input)
    axis = ns.normalize_axis(axis, input.ndim)
    output = ns.get_output(output, input)
    modes = ns.normalize_sequence(mode, input.ndim)
    correlate1d(input, [-1, 0, 1], axis, output, modes[axis], cval, 0)
    for ax in range(input.ndim):
        if ax != axis:
            correlate1d(output, weights, ax, output, modes[ax], cval, 0)
    return output


def prewitt(input, axis=-1, output=None, mode="reflect", cval=0.0):
    """A Prewitt filter: a derivative along `axis`, a box smoothing across."""
    return _separable(input, [1, 1, 1], axis, output, mode, cval)


def sobel(input, axis=-1, output=None, mode="reflect", cval=0.0):
    """A Sobel filter: a derivative along `axis`, a [1, 2, 1] smoothing across."""
    return _separable(input, [1, 2, 1], axis, output, mode, cval)


def generic_laplace(input, derivative2, output=None, mode="reflect", cval=0.0,
                    extra_arguments=(), extra_keywords=None, *, axes=None):
    """A Laplace filter from a user's second-derivative function."""
    extra_keywords = {} if extra_keywords is None else extra_keywords
    input = ns.device_input(input)
    output = ns.get_output(output, input)
    axes = ns.check_axes(axes, input.ndim)
    if not axes:
        output[...] = input
        return output
    modes = ns.normalize_sequence(mode, len(axes))
    derivative2(input, axes[0], output, modes[0], cval, *extra_arguments, **extra_keywords)
    for j in range(1, len(axes)):
        tmp = derivative2(input, axes[j], output.dtype, modes[j], cval, *extra_arguments,
                          **extra_keywords)
        output += tmp
    return output


def laplace(input, output=None, mode="reflect", cval=0.0, *, axes=None):
    """The Laplace filter of second differences [1, -2, 1] along each axis."""
    def derivative2(x, axis, out, m, cv):
        return correlate1d(x, [1, -2, 1], axis, out, m, cv, 0)
    return generic_laplace(input, derivative2, output, mode, cval, axes=axes)


def gaussian_laplace(input, sigma, output=None, mode="reflect", cval=0.0, *, axes=None,
                     **kwargs):
    """The Laplace filter of Gaussian second derivatives."""
    input = ns.device_input(input)

    def derivative2(x, axis, out, m, cv, s, **kw):
        order = [0] * x.ndim
        order[axis] = 2
        return gaussian_filter(x, s, order, out, m, cv, **kw)

    axes = ns.check_axes(axes, input.ndim)
    sigma = ns.normalize_sequence(sigma, len(axes))
    if len(axes) < input.ndim:
        full = [0] * input.ndim
        for s, ax in zip(sigma, axes):
            full[ax] = s
        sigma = full
    return generic_laplace(input, derivative2, output, mode, cval, extra_arguments=(sigma,),
                           extra_keywords=kwargs, axes=axes)


def generic_gradient_magnitude(input, derivative, output=None, mode="reflect", cval=0.0,
                               extra_arguments=(), extra_keywords=None, *, axes=None):
    """The gradient magnitude from a user's first-derivative function."""
    extra_keywords = {} if extra_keywords is None else extra_keywords
    input = ns.device_input(input)
    output = ns.get_output(output, input)
    axes = ns.check_axes(axes, input.ndim)
    if not axes:
        output[...] = input
        return output
    modes = ns.normalize_sequence(mode, len(axes))
    derivative(input, axes[0], output, modes[0], cval, *extra_arguments, **extra_keywords)
    gp.multiply(output, output, output)
    for j in range(1, len(axes)):
        tmp = derivative(input, axes[j], output.dtype, modes[j], cval, *extra_arguments,
                         **extra_keywords)
        gp.multiply(tmp, tmp, tmp)
        output += tmp
    gp.sqrt(output, output, casting="unsafe")
    return output


def gaussian_gradient_magnitude(input, sigma, output=None, mode="reflect", cval=0.0, *,
                                axes=None, **kwargs):
    """The gradient magnitude of Gaussian first derivatives."""
    input = ns.device_input(input)

    def derivative(x, axis, out, m, cv, s, **kw):
        order = [0] * x.ndim
        order[axis] = 1
        return gaussian_filter(x, s, order, out, m, cv, **kw)

    return generic_gradient_magnitude(input, derivative, output, mode, cval,
                                      extra_arguments=(sigma,), extra_keywords=kwargs,
                                      axes=axes)


def uniform_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """A 1-D uniform (mean) filter along the given axis."""
    input = _as_input(input, allow_complex=True)
    ns.normalize_axis(axis, input.ndim)
    if size < 1:
        raise RuntimeError("incorrect filter size")
    cplx = input.dtype.kind == "c"
    output = ns.get_output(output, input, complex_output=cplx)
    if size // 2 + origin < 0 or size // 2 + origin >= size:
        raise ValueError("invalid origin")
    ns.mode_code(mode)
    w = gp.zeros(1)
    if cplx:
        re = _line(input.real, w, axis, gp.empty(input.shape, output.real.dtype), mode,
                   np.real(cval), origin, 3, size)
        im = _line(input.imag, w, axis, gp.empty(input.shape, output.real.dtype), mode,
                   np.imag(cval), origin, 3, size)
        output.real[...] = re
        output.imag[...] = im
        return output
    return _line(input, w, axis, output, mode, cval, operator.index(origin), 3, int(size))


def uniform_filter(input, size=3, output=None, mode="reflect", cval=0.0, origin=0, *,
                   axes=None):
    """A multidimensional uniform filter: 1-D passes along each axis."""
    input = _as_input(input, allow_complex=True)
    output = ns.get_output(output, input, complex_output=input.dtype.kind == "c")
    axes = ns.check_axes(axes, input.ndim)
    k = len(axes)
    sizes = ns.normalize_sequence(size, k)
    origins = ns.normalize_sequence(origin, k)
    modes = ns.normalize_sequence(mode, k)
    passes = [(axes[j], sizes[j], origins[j], modes[j]) for j in range(k) if sizes[j] > 1]
    if not passes:
        output[...] = input
    for axis, s, o, m in passes:
        uniform_filter1d(input, int(s), axis, output, m, cval, o)
        input = output
    return output


def _min_or_max_1d(input, size, axis, output, mode, cval, origin, minimum):
    input = _as_input(input)
    ns.normalize_axis(axis, input.ndim)
    if size < 1:
        raise RuntimeError("incorrect filter size")
    output = ns.get_output(output, input)
    if size // 2 + origin < 0 or size // 2 + origin >= size:
        raise ValueError("invalid origin")
    ns.mode_code(mode)
    return _line(input, gp.zeros(1), axis, output, mode, cval, operator.index(origin),
                 4 if minimum else 5, int(size))


def minimum_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """A 1-D minimum filter along the given axis."""
    return _min_or_max_1d(input, size, axis, output, mode, cval, origin, True)


def maximum_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """A 1-D maximum filter along the given axis."""
    return _min_or_max_1d(input, size, axis, output, mode, cval, origin, False)


# ---- N-d filters ---------------------------------------------------------------------------

def _correlate_or_convolve(input, weights, output, mode, cval, origin, convolution, axes):
    input = _as_input(input, allow_complex=True)
    weights = ns.host(weights)
    if input.dtype.kind == "c" or weights.dtype.kind == "c":
        if weights.dtype.kind == "c" and not convolution:
            weights = weights.conj()
        output = ns.get_output(output, input, complex_output=True)
        return _complex_parts(_correlate_or_convolve, input, weights, output, cval, mode=mode,
                              origin=origin, convolution=convolution, axes=axes)
    axes = ns.check_axes(axes, input.ndim)
    weights = np.asarray(weights, dtype=np.float64)
    weights = ns.expand_footprint(input.ndim, axes, weights, "weights")
    origins = ns.expand_origin(input.ndim, axes, origin)
    wshape = [n for n in weights.shape if n > 0]
    if len(wshape) != input.ndim:
        raise RuntimeError(f"weights.ndim ({len(wshape)}) must match len(axes) ({len(axes)})")
    if convolution:
        weights = weights[(slice(None, None, -1),) * weights.ndim]
        origins = [-o - (0 if n & 1 else 1) for o, n in zip(origins, weights.shape)]
    for o, n in zip(origins, wshape):
        if _invalid_origin(o, n):
            raise ValueError("Invalid origin; origin must satisfy -(weights.shape[k] // 2) <= "
                             "origin[k] <= (weights.shape[k]-1) // 2")
    output = ns.get_output(output, input)
    mode = ns.mode_code(ns.single_mode(mode, ""))
    # SciPy leaves out the taps of weights within DBL_EPSILON of zero
    mask = np.abs(weights) > np.finfo(np.float64).eps
    info, nt = _tap_info(input.shape, weights.shape, origins, mask)
    w = gp.asarray(np.ascontiguousarray(weights[mask]) if nt else np.zeros(1))
    return _run(_correlate_k, input, output, info, w, float(cval), mode, input.ndim, nt)


def correlate(input, weights, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None):
    """A multidimensional correlation with `weights`."""
    return _correlate_or_convolve(input, weights, output, mode, cval, origin, False, axes)


def convolve(input, weights, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None):
    """A multidimensional convolution with `weights`."""
    return _correlate_or_convolve(input, weights, output, mode, cval, origin, True, axes)


def _min_or_max_filter(input, size, footprint, structure, output, mode, cval, origin, minimum,
                       axes=None):
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=3)
    if structure is None:
        if footprint is None:
            if size is None:
                raise RuntimeError("no footprint provided")
            separable = True
        else:
            footprint = ns.host(footprint, bool)
            if not footprint.any():
                raise ValueError("All-zero footprint is not supported.")
            separable = bool(footprint.all())
            if separable:
                size, footprint = footprint.shape, None
    else:
        structure = ns.host(structure, np.float64)
        separable = False
        footprint = np.ones(structure.shape, bool) if footprint is None else \
            ns.host(footprint, bool)
    input = _as_input(input)
    output = ns.get_output(output, input)
    axes = ns.check_axes(axes, input.ndim)
    k = len(axes)
    if separable:
        origins = ns.normalize_sequence(origin, k)
        sizes = ns.normalize_sequence(size, k)
        modes = ns.normalize_sequence(mode, k)
        passes = [(axes[j], sizes[j], origins[j], modes[j]) for j in range(k) if sizes[j] > 1]
        if not passes:
            output[...] = input
        src = input
        for axis, s, o, m in passes:
            _min_or_max_1d(src, int(s), axis, output, m, cval, o, minimum)
            src = output
        return output
    footprint = ns.expand_footprint(input.ndim, axes, footprint)
    origins = ns.expand_origin(input.ndim, axes, origin)
    fshape = [n for n in footprint.shape if n > 0]
    if len(fshape) != input.ndim:
        raise RuntimeError(f"footprint.ndim ({footprint.ndim}) must match len(axes) ({k})")
    _check_origin_filter(origins, fshape)
    if structure is not None:
        if structure.ndim != k:
            raise RuntimeError("structure array has incorrect shape")
        structure = ns.expand_footprint(input.ndim, axes, structure, "structure")
    mode = ns.mode_code(ns.single_mode(mode, " for non-separable footprints"))
    info, nt = _tap_info(input.shape, footprint.shape, origins, footprint)
    if structure is not None:
        s = np.broadcast_to(structure, footprint.shape)[footprint]
        s = gp.asarray(np.ascontiguousarray(-s if minimum else s, dtype=np.float64))
    else:
        s = gp.zeros(1)
    # without a structure the values compare as doubles: a float64 copy of an
    # integer input gives the same extremes, and (type)cval is cast here
    return _run(_minmax_k, input, output, info, s, ns.cast_cval(cval, input.dtype), mode,
                input.ndim, nt, int(minimum), int(structure is not None),
                native=structure is not None)


def minimum_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0,
                   origin=0, *, axes=None):
    """A multidimensional minimum filter."""
    return _min_or_max_filter(input, size, footprint, None, output, mode, cval, origin, True,
                              axes)


def maximum_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0,
                   origin=0, *, axes=None):
    """A multidimensional maximum filter."""
    return _min_or_max_filter(input, size, footprint, None, output, mode, cval, origin, False,
                              axes)


def _footprint(input, size, footprint, axes, origin, mode):
    """The full-rank boolean footprint, origins and mode of the rank and
    generic filters."""
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=4)
    axes = ns.check_axes(axes, input.ndim)
    if footprint is None:
        if size is None:
            raise RuntimeError("no footprint or filter size provided")
        footprint = np.ones(ns.normalize_sequence(size, len(axes)), dtype=bool)
    else:
        footprint = ns.host(footprint, bool)
    footprint = ns.expand_footprint(input.ndim, axes, footprint)
    origins = ns.expand_origin(input.ndim, axes, origin)
    mode = ns.expand_mode(input.ndim, axes, mode)
    fshape = [n for n in footprint.shape if n > 0]
    if len(fshape) != input.ndim:
        raise RuntimeError(f"footprint.ndim ({footprint.ndim}) must match "
                           f"len(axes) ({len(axes)})")
    _check_origin_filter(origins, fshape)
    return footprint, origins, mode


def _rank_filter(input, rank, size, footprint, output, mode, cval, origin, operation, axes):
    input = _as_input(input)
    footprint, origins, mode = _footprint(input, size, footprint, axes, origin, mode)
    filter_size = int(footprint.sum())
    if operation == "median":
        rank = filter_size // 2
    elif operation == "percentile":
        percentile = rank + 100.0 if rank < 0.0 else rank
        if percentile < 0 or percentile > 100:
            raise RuntimeError("invalid percentile")
        rank = filter_size - 1 if percentile == 100.0 else \
            int(float(filter_size) * percentile / 100.0)
    if rank < 0:
        rank += filter_size
    if rank < 0 or rank >= filter_size:
        raise RuntimeError("rank not within filter footprint size")
    if rank == 0 or rank == filter_size - 1:
        return _min_or_max_filter(input, None, footprint, None, output, mode, cval, origins,
                                  rank == 0)
    output = ns.get_output(output, input)
    mode = ns.mode_code(ns.single_mode(mode, " by non-separable rank filters"), is_filter=True)
    if input.ndim == 1 and (input.size - ((footprint.size - 1) // 2 - origins[0]) >= 0
                            or input.size == 1):
        # SciPy's 1-d path reads cval in the dtype it computes in, and of the
        # footprint only its length: the window is footprint.size samples
        # whichever are true (the rank still counts the true ones)
        cval = float(np.float32(cval) if input.dtype == np.float32 else
                     np.float64(cval) if input.dtype == np.float64 else np.int64(cval))
        footprint = np.ones(footprint.shape, bool)
        filter_size = footprint.size
    bound = next((n for n in _RANK_SIZES if filter_size <= n), None)
    info, nt = _tap_info(input.shape, footprint.shape, origins, footprint)
    if bound is not None:
        return _run(_rank_k[bound], input, output, info, float(cval), mode, input.ndim, nt,
                    int(rank))
    # a footprint too large for a thread's buffer: partition gathered rows
    flat = gp.empty(input.size, output.dtype)
    for i0, g in _gathered_rows(input, info, cval, mode, nt):
        flat[i0:i0 + len(g)] = gp.partition(g, int(rank), axis=-1)[:, int(rank)]
    output[...] = flat.reshape(input.shape)
    return output


def rank_filter(input, rank, size=None, footprint=None, output=None, mode="reflect", cval=0.0,
                origin=0, *, axes=None):
    """A multidimensional rank filter: the rank-th smallest over the footprint."""
    return _rank_filter(input, operator.index(rank), size, footprint, output, mode, cval,
                        origin, "rank", axes)


def median_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0,
                  origin=0, *, axes=None):
    """A multidimensional median filter."""
    return _rank_filter(input, 0, size, footprint, output, mode, cval, origin, "median", axes)


def percentile_filter(input, percentile, size=None, footprint=None, output=None,
                      mode="reflect", cval=0.0, origin=0, *, axes=None):
    """A multidimensional percentile filter."""
    return _rank_filter(input, percentile, size, footprint, output, mode, cval, origin,
                        "percentile", axes)


# ---- users' functions ----------------------------------------------------------------------

def generic_filter(input, function, size=None, footprint=None, output=None, mode="reflect",
                   cval=0.0, origin=0, extra_arguments=(), extra_keywords=None, *, axes=None):
    """A filter of a user's function of the footprint's values.

    `function` is either a ``gpunp.ReductionKernel`` of one input, which
    reduces each element's footprint values (doubles, in SciPy's order) on
    the device, or a Python callable taking a 1-D NumPy array of them and
    returning a number, as SciPy's; the callable runs on the host, once per
    element (the slow path, for small arrays)."""
    extra_keywords = {} if extra_keywords is None else extra_keywords
    input = _as_input(input)
    footprint, origins, mode = _footprint(input, size, footprint, axes, origin, mode)
    output = ns.get_output(output, input)
    mode = ns.mode_code(ns.single_mode(mode, " by generic_filter"), is_filter=True)
    info, nt = _tap_info(input.shape, footprint.shape, origins, footprint)
    if input.size == 0:
        return output
    device = isinstance(function, gp.ReductionKernel)
    if not device and not callable(function):
        raise TypeError("function must be callable or a gpunp.ReductionKernel")
    flat = gp.empty(input.size, np.float64)
    for i0, g in _gathered_rows(input, info, cval, mode, nt):
        if device:
            flat[i0:i0 + len(g)] = function(g, axis=-1)
        else:
            rows = gp.asnumpy(g)
            flat[i0:i0 + len(g)] = gp.asarray(np.array(
                [function(r, *extra_arguments, **extra_keywords) for r in rows], np.float64))
    # SciPy's C conversion of each double into the output, as the kernels store
    return ns.run_into(output, lambda out: out.__setitem__(Ellipsis,
                                                           flat.reshape(input.shape)))


def generic_filter1d(input, function, filter_size, axis=-1, output=None, mode="reflect",
                     cval=0.0, origin=0, extra_arguments=(), extra_keywords=None):
    """A 1-D filter of a user's Python function of whole lines, as SciPy's:
    ``function(input_line, output_line)`` on host (NumPy) copies of each line,
    extended by filter_size - 1 values by the boundary mode (the slow path)."""
    extra_keywords = {} if extra_keywords is None else extra_keywords
    input = _as_input(input)
    output = ns.get_output(output, input)
    if filter_size < 1:
        raise RuntimeError("invalid filter size")
    axis = ns.normalize_axis(axis, input.ndim)
    if filter_size // 2 + origin < 0 or filter_size // 2 + origin >= filter_size:
        raise ValueError("invalid origin")
    code = ns.mode_code(mode)
    n = input.shape[axis]
    before = filter_size // 2 + origin
    after = filter_size - before - 1
    x = np.moveaxis(gp.asnumpy(input).astype(np.float64), axis, -1).reshape(-1, n)
    k = np.arange(-before, n + after)
    idx = _host_map(k, n, code)
    ext = np.where(idx >= 0, x[:, np.clip(idx, 0, n - 1)], float(cval))
    out = np.empty((len(x), n))
    for r in range(len(x)):
        function(ext[r], out[r], *extra_arguments, **extra_keywords)
    res = np.moveaxis(out.reshape(np.moveaxis(np.empty(input.shape, bool), axis, -1).shape),
                      -1, axis)
    output[...] = gp.asarray(res.astype(output.dtype))
    return output


def _host_map(k, n, mode):
    """ns.C_PRELUDE's ndi_map on NumPy indices (generic_filter1d's lines)."""
    inside = (k >= 0) & (k < n)
    if mode == ns.NEAREST:
        m = np.clip(k, 0, n - 1)
    elif mode in (ns.WRAP, ns.GRID_WRAP):
        m = k % n
    elif mode == ns.REFLECT:
        p = k % (2 * n)
        m = np.where(p < n, p, 2 * n - 1 - p) if n > 1 else np.zeros_like(k)
    elif mode == ns.MIRROR:
        p = k % max(2 * n - 2, 1)
        m = np.where(p < n, p, 2 * n - 2 - p) if n > 1 else np.zeros_like(k)
    else:
        m = np.where(inside, k, -1)
    return np.where(inside, k, m)


# NumPy's pad modes for ndimage's boundary modes (vectorized_filter pads)
_PAD_MODES = {"nearest": "edge", "reflect": "symmetric", "mirror": "reflect",
              "grid-mirror": "reflect", "grid-constant": "constant", "grid-wrap": "wrap",
              "constant": "constant", "wrap": "wrap", "valid": "valid"}


def _integral(v):
    return isinstance(v, (numbers.Integral, np.integer)) and not isinstance(v, bool) or \
        isinstance(v, (bool, np.bool_))


def vectorized_filter(input, function, *, size=None, footprint=None, output=None,
                      mode="reflect", cval=None, origin=None, axes=None, batch_memory=2**30):
    """A filter of a vectorized function of whole windows, as SciPy's:
    ``function(window, axis=axes)`` is called on a sliding-window view of
    the padded gpunp array (the windows' axes last), in batches along the
    first axis of at most `batch_memory` bytes of windows."""
    input = ns.device_input(input)
    if not callable(function):
        raise ValueError("`function` must be a callable.")
    if size is None and footprint is None:
        raise ValueError("Either `size` or `footprint` must be provided.")
    if size is not None and footprint is not None:
        raise ValueError("Either `size` or `footprint` may be provided, not both.")
    axes = tuple(range(-input.ndim, 0)) if axes is None else \
        ((axes,) if np.isscalar(axes) else tuple(axes))
    n_axes = len(axes)
    if n_axes > input.ndim:
        raise ValueError("The length of `axes` may not exceed the dimensionality of `input`"
                         "(`input.ndim`).")
    call = function
    if size is not None:
        size = (size,) * n_axes if np.isscalar(size) else tuple(size)
        if not all(_integral(s) and s > 0 for s in size):
            raise ValueError("All elements of `size` must be positive integers.")
    else:
        fp = ns.host(footprint, bool)
        size = fp.shape
        mask = gp.asarray(fp)

        def call(w, *args, axis=-1, **kw):
            # the footprint's elements as one last axis, in C order
            flat = w.reshape(w.shape[:w.ndim - fp.ndim] + (-1,))
            return function(gp.compress(mask.ravel(), flat, axis=-1), *args, axis=-1, **kw)
    if n_axes != len(size):
        raise ValueError("`axes` must be compatible with the dimensionality of the window "
                         "specified by `size` or `footprint`.")
    if origin is None:
        origin = (0,) * n_axes
    else:
        origin = (origin,) * n_axes if np.isscalar(origin) else tuple(origin)
        if not all(_integral(o) for o in origin):
            raise ValueError("All elements of `origin` must be integers.")
        if len(origin) != n_axes:
            raise ValueError("`origin` must be an integer or tuple of integers with length "
                             "equal to the number of axes.")
    if not isinstance(mode, str) or mode not in _PAD_MODES:
        raise ValueError(f"`mode` must be one of {set(_PAD_MODES)}.")
    pad_mode = _PAD_MODES[mode]
    if pad_mode == "valid" and any(origin):
        raise ValueError("`mode='valid'` is incompatible with use of `origin`.")
    if cval is None:
        cval = 0.0
    elif pad_mode != "constant":
        raise ValueError("Use of `cval` is compatible only with `mode='constant'`.")
    if not np.issubdtype(np.asarray(cval).dtype, np.number):
        raise ValueError("`cval` must include only numbers.")
    bm = np.asarray(batch_memory)
    if bm.ndim != 0 or not np.issubdtype(bm.dtype, np.number) or bm <= 0:
        raise ValueError("`batch_memory` must be positive number.")
    work = tuple(range(-n_axes, 0))
    x = gp.moveaxis(input, axes, work)
    if input.size == 0:
        return input.copy()
    if input.ndim == 0 and size == ():
        return gp.asarray(call(input, axis=()))
    if pad_mode != "valid":
        borders = tuple((s // 2 + o, (s - 1) // 2 - o) for s, o in zip(size, origin))
        kw = {"constant_values": cval} if pad_mode == "constant" else {}
        x = gp.pad(x, ((0, 0),) * (input.ndim - n_axes) + borders, mode=pad_mode, **kw)
    view = gp.lib.stride_tricks.sliding_window_view(x, size, work)
    if not work:
        res = call(view, axis=work)
    else:
        per = math.prod(view.shape[1:]) * view.dtype.itemsize
        step = min(view.shape[0], int(batch_memory // per)) if per else view.shape[0]
        if step < 1:
            raise ValueError("`batch_memory` is insufficient for minimum chunk size.")
        parts = [call(view[k:k + step], axis=work) for k in range(0, view.shape[0], step)]
        res = parts[0] if len(parts) == 1 else gp.concatenate(parts, axis=0)
    res = gp.moveaxis(gp.asarray(res), work, axes)
    if output is not None:
        output[...] = res
        return output
    return res

