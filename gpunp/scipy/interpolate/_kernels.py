"""The device side of gpunp.scipy.interpolate: one elementwise kernel a
family of interpolants, each output element (a point and a column of the
interpolated values) in one pass: an interval search by bisection over the
breakpoints (a raw array), then the local polynomial or spline.

Every kernel computes in double precision, as SciPy's compiled evaluators
do; complex coefficients are evaluated as their real and imaginary parts
(two launches), so the kernels stay plain C for every backend."""

from __future__ import annotations

import numpy

import gpunp

# the most spline degree (and grid dimensions) a kernel's fixed work arrays hold
MAX_K = 24
MAX_DIMS = 32

_SEARCH = r"""
/* the interval j of breakpoints bp[0..m] (ascending or descending) with
   bp[j] <= x < bp[j+1] (bp[j] >= x > bp[j+1] if descending), closed at the
   last breakpoint; -1 for NaN, or for a point outside when ext is 0 */
GPK_FN long long ip_interval(const double *bp, long long m, double x, int ext)
{
    double a = bp[0], b = bp[m];
    long long lo = 0, hi = m - 1, mid;
    if (b >= a) {
        if (!(a <= x && x <= b)) {
            if (x < a && ext) return 0;
            if (x > b && ext) return m - 1;
            return -1;
        }
        while (lo < hi) {  /* the last j in [lo, hi] with bp[j] <= x */
            mid = (lo + hi + 1) / 2;
            if (bp[mid] <= x) lo = mid; else hi = mid - 1;
        }
    } else {
        if (!(b <= x && x <= a)) {
            if (x > a && ext) return 0;
            if (x < b && ext) return m - 1;
            return -1;
        }
        while (lo < hi) {
            mid = (lo + hi + 1) / 2;
            if (bp[mid] >= x) lo = mid; else hi = mid - 1;
        }
    }
    return lo;
}
"""

_PPOLY = gpunp.ElementwiseKernel(
    "raw float64 c, raw float64 bp, float64 xv, int64 k, int64 m, int64 nc, int64 nu, int32 ext",
    "float64 y",
    r"""
    long long col = i % nc, j = ip_interval(&bp[0], m, xv, ext), kp, q;
    double s, z = 1.0, pre, res = 0.0;
    if (j < 0) {
        y = NAN;
    } else {
        s = xv - bp[j];
        /* SciPy's order of terms: the power series from the constant up */
        for (kp = 0; kp <= k; kp++) {
            if (kp < nu) continue;
            pre = 1.0;
            for (q = kp; q > kp - nu; q--) pre *= (double)q;
            res += c[((k - kp) * m + j) * nc + col] * z * pre;
            if (kp < k) z *= s;
        }
        y = res;
    }
    """,
    "gp_interp_ppoly", preamble=_SEARCH)

_BPOLY = gpunp.ElementwiseKernel(
    "raw float64 c, raw float64 bp, float64 xv, int64 k, int64 m, int64 nc, int64 nu, int32 ext",
    "float64 y",
    r"""
    long long col = i % nc, j = ip_interval(&bp[0], m, xv, ext), a, r;
    double w[GP_IP_NK], h, s;
    if (j < 0 || nu > k) {
        y = j < 0 ? NAN : 0.0;
    } else {
        h = bp[j + 1] - bp[j];
        s = (xv - bp[j]) / h;
        for (a = 0; a <= k; a++) w[a] = c[(a * m + j) * nc + col];
        /* a derivative of a Bernstein form: differences of the coefficients */
        for (r = 0; r < nu; r++)
            for (a = 0; a < k - r; a++) w[a] = (double)(k - r) * (w[a + 1] - w[a]) / h;
        /* de Casteljau */
        for (r = 1; r <= k - nu; r++)
            for (a = 0; a <= k - nu - r; a++) w[a] = (1.0 - s) * w[a] + s * w[a + 1];
        y = w[0];
    }
    """.replace("GP_IP_NK", str(MAX_K + 1)),
    "gp_interp_bpoly", preamble=_SEARCH)

_BSPLINE = gpunp.ElementwiseKernel(
    "raw float64 c, raw float64 t, float64 xv, int64 k, int64 n, int64 nc, int64 nu, int32 ext",
    "float64 y",
    r"""
    long long col = i % nc, ell, lo, hi, mid, jj, q, ind;
    double h[GP_IP_NK], hh[GP_IP_NK], xa, xb, w, res = 0.0;
    /* the knot interval t[ell] <= x < t[ell+1] with k <= ell < n, as FITPACK */
    if (xv != xv || (!ext && (xv < t[k] || xv > t[n]))) {
        y = NAN;
    } else {
        lo = k; hi = n - 1;
        while (lo < hi) {
            mid = (lo + hi + 1) / 2;
            if (t[mid] <= xv) lo = mid; else hi = mid - 1;
        }
        ell = lo;
        /* B-spline values of degree k - nu at x, then nu derivative steps */
        h[0] = 1.0;
        for (jj = 1; jj <= k; jj++) {
            for (q = 0; q < jj; q++) hh[q] = h[q];
            h[0] = 0.0;
            for (q = 1; q <= jj; q++) {
                ind = ell + q;
                xb = t[ind]; xa = t[ind - jj];
                if (xb == xa) { h[q] = 0.0; continue; }
                if (jj <= k - nu) {
                    w = hh[q - 1] / (xb - xa);
                    h[q - 1] += w * (xb - xv);
                    h[q] = w * (xv - xa);
                } else {
                    w = (double)jj * hh[q - 1] / (xb - xa);
                    h[q - 1] -= w;
                    h[q] = w;
                }
            }
        }
        for (q = 0; q <= k; q++) res += c[(ell + q - k) * nc + col] * h[q];
        y = nu > k ? 0.0 : res;
    }
    """.replace("GP_IP_NK", str(MAX_K + 2)),
    "gp_interp_bspline")

# a point of a rectilinear grid: lower corner and fraction along each axis,
# then the 2^ndim corners (linear) or the nearest node
_GRID = gpunp.ElementwiseKernel(
    "raw float64 v, raw float64 g, raw int64 off, raw float64 pts, int64 nd, int64 nc, "
    "int32 nearest, int32 fill, float64 fv",
    "float64 y",
    r"""
    long long p = i / nc, col = i % nc, d, j, n, flat, corner, stride;
    long long idx[GP_IP_ND];
    double frac[GP_IP_ND], x, wgt, res = 0.0;
    int bad = 0, outside = 0;
    for (d = 0; d < nd; d++) {
        x = pts[p * nd + d];
        n = off[d + 1] - off[d];
        if (x != x) { bad = 1; break; }
        if (x < g[off[d]] || x > g[off[d] + n - 1]) outside = 1;
        if (n == 1) { idx[d] = 0; frac[d] = 0.0; continue; }
        j = ip_interval(&g[off[d]], n - 1, x, 1);
        idx[d] = j;
        frac[d] = (x - g[off[d] + j]) / (g[off[d] + j + 1] - g[off[d] + j]);
    }
    if (bad || (fill && outside)) {
        y = bad ? NAN : fv;
    } else if (nearest) {
        flat = 0;
        for (d = 0; d < nd; d++) {
            n = off[d + 1] - off[d];
            j = idx[d] + (frac[d] <= 0.5 ? 0 : 1);
            if (j > n - 1) j = n - 1;
            flat = flat * n + j;
        }
        y = v[flat * nc + col];
    } else {
        /* corners in SciPy's order: the first axis slowest, lower before upper */
        for (corner = 0; corner < (1LL << nd); corner++) {
            flat = 0; wgt = 1.0;
            for (d = 0; d < nd; d++) {
                n = off[d + 1] - off[d];
                stride = (corner >> (nd - 1 - d)) & 1;
                j = idx[d] + stride;
                if (j > n - 1) j = n - 1;
                wgt = wgt * (stride ? frac[d] : 1.0 - frac[d]);
                flat = flat * n + j;
            }
            res = res + v[flat * nc + col] * wgt;
        }
        y = res;
    }
    """.replace("GP_IP_ND", str(MAX_DIMS)),
    "gp_interp_grid", preamble=_SEARCH)


def _split(c, fn):
    """fn of real coefficient arrays; a complex array as its two parts."""
    if c.dtype.kind == "c":
        re = fn(gpunp.ascontiguousarray(c.real))
        im = fn(gpunp.ascontiguousarray(c.imag))
        return re + 1j * im
    return fn(c)


def _points(x):
    return gpunp.ascontiguousarray(gpunp.asarray(x, dtype=numpy.float64).reshape(-1))


def points_at_axis(out, nd, axis):
    """`out` (the points' nd axes, then the values' trailing axes) with the
    points' axes moved to `axis` of the values, where SciPy puts them."""
    if axis == 0:
        return out
    order = list(range(out.ndim))
    return out.transpose(order[nd:nd + axis] + order[:nd] + order[nd + axis:])


def ppoly_eval(c, bp, x, nu, extrapolate, bernstein=False):
    """Values at x (1-d float64) of the piecewise polynomial with coefficients
    c (k+1, m, ncols) on breakpoints bp: an array (len(x), ncols)."""
    k, m, nc = c.shape[0] - 1, c.shape[1], c.shape[2]
    xv = _points(x).reshape(-1, 1)
    kern = _BPOLY if bernstein else _PPOLY
    if bernstein and k > MAX_K:
        raise NotImplementedError(f"BPoly of degree above {MAX_K} is not supported")

    def run(cc):
        out = gpunp.empty((xv.shape[0], nc), dtype=numpy.float64)
        if out.size:
            kern(cc, bp, xv, k, m, nc, int(nu), int(bool(extrapolate)), out)
        return out
    return _split(c, run)


def bspline_eval(t, c, k, x, nu, extrapolate):
    """Values at x (1-d) of the B-spline (t, c (n, ncols), k): (len(x), ncols)."""
    if k > MAX_K:
        raise NotImplementedError(f"B-splines of degree above {MAX_K} are not supported")
    n, nc = t.shape[0] - k - 1, c.shape[1]
    xv = _points(x).reshape(-1, 1)

    def run(cc):
        out = gpunp.empty((xv.shape[0], nc), dtype=numpy.float64)
        if out.size:
            _BSPLINE(cc, t, xv, k, n, nc, int(nu), int(bool(extrapolate)), out)
        return out
    return _split(c, run)


def grid_eval(values, grid, pts, nearest, fill_value):
    """Linear (or nearest) values on a rectilinear grid: values (*sizes, nc)
    float64 or complex, grid a tuple of 1-d float64 gpunp arrays, pts (npts,
    ndim) float64; fill_value None extrapolates."""
    nd = len(grid)
    if nd > MAX_DIMS:
        raise NotImplementedError(f"grids of more than {MAX_DIMS} dimensions are not supported")
    nc = values.shape[-1]
    sizes = [int(g.shape[0]) for g in grid]
    off = gpunp.asarray(numpy.concatenate([[0], numpy.cumsum(sizes)]).astype(numpy.int64))
    g = gpunp.ascontiguousarray(gpunp.concatenate(grid))
    pts = gpunp.ascontiguousarray(pts)
    fill = fill_value is not None

    def run(vv, fv):
        out = gpunp.empty((pts.shape[0], nc), dtype=numpy.float64)
        if out.size:
            _GRID(vv, g, off, pts, nd, nc, int(bool(nearest)), int(fill), fv, out)
        return out
    fv = complex(fill_value) if fill else 0.0
    if values.dtype.kind == "c":
        return (run(gpunp.ascontiguousarray(values.real), fv.real)
                + 1j * run(gpunp.ascontiguousarray(values.imag), fv.imag))
    return run(gpunp.ascontiguousarray(values), fv.real if fill else 0.0)
