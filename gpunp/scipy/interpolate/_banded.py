"""Banded linear solves on the host (NumPy), for the fits SciPy does with
LAPACK's banded solvers: a cubic spline's tridiagonal system and a
B-spline's collocation system.

Both are solved by elimination without pivoting. A B-spline collocation
matrix is totally positive, and for such matrices elimination without
pivoting is stable (de Boor, "Total positivity of the spline collocation
matrix", 1976); the cubic spline's system is diagonally dominant except
for a not-a-knot end row, whose first elimination step leaves a positive
pivot (dx0 + dx1). Small systems go to LAPACK through numpy.linalg.solve,
which pivots."""

from __future__ import annotations

import numpy

# past this many unknowns a dense solve costs more than the Python loop
DENSE_LIMIT = 300


def solve_banded(lu, ab, b):
    """x with A x = b, A given in LAPACK's band storage ab[u + i - j, j] =
    A[i, j] for (l, u) = lu; b (n,) or (n, m)."""
    l, u = lu
    n = ab.shape[1]
    b = numpy.asarray(b)
    dtype = numpy.result_type(ab.dtype, b.dtype, numpy.float64)
    if n <= DENSE_LIMIT:
        a = numpy.zeros((n, n), dtype=ab.dtype)
        for d in range(-l, u + 1):  # d = j - i
            idx = numpy.arange(max(0, -d), min(n, n - d))
            a[idx, idx + d] = ab[u - d, idx + d]
        return numpy.linalg.solve(a, b.astype(dtype))
    # rows[i, q] = A[i, i - l + q]
    rows = numpy.zeros((n, l + u + 1), dtype=dtype)
    for d in range(-l, u + 1):
        idx = numpy.arange(max(0, -d), min(n, n - d))
        rows[idx, l + d] = ab[u - d, idx + d]
    x = b.astype(dtype, copy=True)
    for k in range(n):
        piv = rows[k, l]
        if piv == 0:
            raise numpy.linalg.LinAlgError("Singular matrix")
        for r in range(k + 1, min(k + l, n - 1) + 1):
            f = rows[r, l - (r - k)] / piv
            if f != 0:
                q0 = l - (r - k)  # where column k sits in row r
                rows[r, q0:q0 + u + 1] -= f * rows[k, l:l + u + 1]
                x[r] -= f * x[k]
    for k in range(n - 1, -1, -1):
        acc = x[k]
        for q in range(1, min(u, n - 1 - k) + 1):
            acc = acc - rows[k, l + q] * x[k + q]
        x[k] = acc / rows[k, l]
    return x
