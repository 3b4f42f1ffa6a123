"""The device side of gpunp.polynomial's evaluation: one elementwise kernel
pass for Clenshaw's recurrence (a point a thread, looping over the
coefficients) and one for the pseudo-Vandermonde rows (a point a thread,
writing its row), for real float32 and float64 data. The recurrence's
constants of a basis come as a raw table of three per degree (1/a_k, b_k/a_k,
c_k/a_k), cast to the data's type before use, so the arithmetic is that of
the gpunp operations it replaces (NumPy's weak Python scalars)."""

from __future__ import annotations

import gpunp as gp

# Clenshaw: y_k = c_k + (x/a_k - b_k/a_k) y_{k+1} - c_{k+1}/a_{k+1} y_{k+2},
# each step in the order of _series.val's operations. `col` names the column
# of the coefficients (c is (n, m), C order) the point is evaluated with;
# `xzero` starts from c_{n-1} + 0 * x (NaN at an infinite x) where NumPy does.
CLENSHAW = gp.ElementwiseKernel(
    "T x, int64 col, raw T c, raw float64 tab, int64 n, int64 m, int32 xzero",
    "T y",
    r"""
    T y1 = c[(n - 1) * m + col] + (xzero ? x * (T)0 : (T)0), y2 = (T)0, t, yk;
    long long k;
    for (k = n - 2; k >= 0; k--) {
        t = y1 * x;
        if (tab[3 * k] != 1.0) t = t * (T)tab[3 * k];
        if (tab[3 * k + 1] != 0.0) t = t - (T)tab[3 * k + 1] * y1;
        yk = c[k * m + col] + t;
        if (k + 2 < n && tab[3 * k + 5] != 0.0) yk = yk - (T)tab[3 * k + 5] * y2;
        y2 = y1;
        y1 = yk;
    }
    y = y1;
    """,
    "gpunp_poly_clenshaw")

# The forward recurrence P_{k+1} = (x/a_k - b_k/a_k) P_k - c_k/a_k P_{k-1},
# written as row i of v (deg + 1 values).
VANDER = gp.ElementwiseKernel(
    "T x, raw float64 tab, int64 deg",
    "raw T v",
    r"""
    T p0 = (T)1, p1, t;
    long long k, row = i * (deg + 1);
    v[row] = x * (T)0 + (T)1;
    p1 = v[row];
    for (k = 0; k < deg; k++) {
        t = p1 * x;
        if (tab[3 * k] != 1.0) t = t * (T)tab[3 * k];
        if (tab[3 * k + 1] != 0.0) t = t - (T)tab[3 * k + 1] * p1;
        if (k > 0 && tab[3 * k + 2] != 0.0) t = t - (T)tab[3 * k + 2] * p0;
        v[row + k + 1] = t;
        p0 = p1;
        p1 = t;
    }
    """,
    "gpunp_poly_vander")

# the data types the kernels run in; other types (complex, float16) take
# the gpunp operations of _series
REAL = ("float32", "float64")
