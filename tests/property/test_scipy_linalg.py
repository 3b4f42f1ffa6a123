"""Property tests of gpunp.scipy.linalg's solvers against scipy.linalg:
drawn dtypes (float32/64, complex64/128), batch shapes, orders (empty
included), memory layouts, and well-conditioned matrices (a drawn matrix
plus a multiple of the identity), for solve with assume_a, lu_factor and
lu_solve, solve_triangular, cho_factor and cho_solve, and expm; non-finite
input must raise SciPy's ValueError."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.linalg as sl
from hypothesis import given, settings, strategies as st

import gpunp as gp
import gpunp.scipy.linalg as gl

from .strategies import device_arrays

SETTINGS = settings(max_examples=20)
DTYPES = ["float32", "float64", "complex64", "complex128"]
BATCH = st.sampled_from([(), (), (2,), (1, 3)])
# no subnormal entries: how a factorization treats a subnormal pivot is the
# LAPACK build's choice (SciPy's OpenBLAS leaves the column unscaled where
# reference LAPACK divides), so there is no one answer to compare with
def _values(dt):
    single = np.dtype(dt) in (np.float32, np.complex64)
    return st.floats(-1, 1, allow_subnormal=False, width=32 if single else 64)


def _tol(dt):
    return 1e-3 if np.dtype(dt) in (np.float32, np.complex64) else 1e-9


def _same(got, want, dt):
    g = got.get() if isinstance(got, gp.ndarray) else np.asarray(got)
    assert g.shape == want.shape
    np.testing.assert_allclose(g, want, rtol=_tol(dt), atol=_tol(dt))


def _matrix(data, dt, shape, boost=True):
    """(gpunp, NumPy) views of a matrix batch with a dominant diagonal."""
    x, h = data.draw(device_arrays(dt, shape, finite=True, values=_values(dt)))
    if boost and shape[-1]:
        n = shape[-1]
        eye = np.eye(n, dtype=dt) * (n + 1)
        x, h = x + gp.asarray(eye), h + eye
    return x, h


@SETTINGS
@given(st.data(), st.sampled_from(DTYPES), BATCH, st.integers(0, 5), st.integers(1, 3),
       st.sampled_from(["gen", "sym", "pos", "upper triangular", "lower triangular"]))
def test_solve(data, dt, batch, n, k, assume_a):
    a, ha = _matrix(data, dt, batch + (n, n))
    if assume_a == "pos":
        ha = ha @ np.conj(np.swapaxes(ha, -1, -2))
        a = gp.asarray(ha)
    b, hb = data.draw(device_arrays(dt, (n, k), finite=True, values=_values(dt)))
    lower = data.draw(st.booleans())
    if n == 0 and batch:
        return  # SciPy 1.17's batched solve of order 0 raises an internal IndexError
    want = sl.solve(ha, hb, assume_a=assume_a, lower=lower)
    _same(gl.solve(a, b, assume_a=assume_a, lower=lower), want, dt)


@SETTINGS
@given(st.data(), st.sampled_from(DTYPES), BATCH, st.integers(1, 5),
       st.sampled_from([0, 1, 2]))
def test_lu_factor_and_solve(data, dt, batch, n, trans):
    boost = data.draw(st.booleans())
    a, ha = _matrix(data, dt, batch + (n, n), boost=boost)
    with warnings.catch_warnings(record=True) as got_w:
        warnings.simplefilter("always")
        lu, piv = gl.lu_factor(a)
    want_lu, want_piv = sl.lu_factor(ha) if boost else (None, None)
    if boost:
        # a well-conditioned matrix has one LU with partial pivoting: SciPy's
        assert not got_w
        _same(lu, want_lu, dt)
        assert np.array_equal(piv.get(), want_piv)
    else:
        # a drawn matrix may be singular or have ties, where the factors
        # depend on the LAPACK build's order of operations (SciPy's
        # recursive getrf2 and gemm updates, cuSOLVER's blocks); the
        # factors must still give a back, and a zero pivot must warn
        f, p = lu.get(), piv.get()
        low = np.tril(f, -1) + np.eye(n, dtype=dt)
        up = np.triu(f)
        perm = np.tile(np.arange(n), batch + (1,))
        for j in range(n):
            for idx in np.ndindex(*batch):
                k = p[idx + (j,)]
                perm[idx + (j,)], perm[idx + (k,)] = perm[idx + (k,)], perm[idx + (j,)]
        back = np.take_along_axis(ha, perm[..., None], axis=-2)
        np.testing.assert_allclose(low @ up, back, atol=_tol(dt) * 10)
        zero = (np.diagonal(f, axis1=-2, axis2=-1) == 0).any()
        assert bool(got_w) == bool(zero)
        assert all(w.category is sl.LinAlgWarning for w in got_w)
    if not batch and boost:
        b, hb = data.draw(device_arrays(dt, (n,), finite=True, values=_values(dt)))
        _same(gl.lu_solve((lu, piv), b, trans=trans),
              sl.lu_solve((want_lu, want_piv), hb, trans=trans), dt)


@SETTINGS
@given(st.data(), st.sampled_from(DTYPES), st.integers(1, 6), st.booleans(),
       st.sampled_from([0, 1, 2]), st.booleans())
def test_solve_triangular(data, dt, n, lower, trans, unit):
    a, ha = _matrix(data, dt, (n, n))
    b, hb = data.draw(device_arrays(dt, (n, 2), finite=True, values=_values(dt)))
    want = sl.solve_triangular(ha, hb, trans=trans, lower=lower, unit_diagonal=unit)
    _same(gl.solve_triangular(a, b, trans=trans, lower=lower, unit_diagonal=unit), want, dt)


@SETTINGS
@given(st.data(), st.sampled_from(DTYPES), st.integers(1, 5), st.booleans())
def test_cholesky_family(data, dt, n, lower):
    _, hm = _matrix(data, dt, (n, n))
    hs = (hm @ np.conj(hm.T)).astype(dt)
    s = gp.asarray(hs)
    c = gl.cho_factor(s, lower=lower)
    want = sl.cho_factor(hs, lower=lower)
    tri = np.tril if lower else np.triu
    _same(gp.asarray(tri(c[0].get())), tri(want[0]), dt)
    b, hb = data.draw(device_arrays(dt, (n,), finite=True, values=_values(dt)))
    _same(gl.cho_solve(c, b), sl.cho_solve(want, hb), dt)


@SETTINGS
@given(st.data(), st.sampled_from(DTYPES), BATCH, st.integers(1, 4),
       st.sampled_from([0.01, 0.5, 3.0]))
def test_expm(data, dt, batch, n, scale):
    x, h = data.draw(device_arrays(dt, batch + (n, n), finite=True, values=_values(dt)))
    want = sl.expm(h * np.asarray(scale, dtype=h.real.dtype))
    got = gl.expm(x * scale).get()
    assert got.dtype == want.dtype
    top = max(1.0, float(np.abs(want).max()))
    np.testing.assert_allclose(got / top, want / top, atol=_tol(dt) * 10)


@pytest.mark.parametrize("name", ["solve", "lu_factor", "cholesky", "inv", "det", "svd",
                                  "eigh", "solve_triangular", "pinv", "qr"])
@settings(max_examples=10)
@given(bad=st.sampled_from([np.nan, np.inf, -np.inf]), where=st.integers(0, 8))
def test_non_finite_is_scipys_value_error(name, bad, where):
    h = np.eye(3) * 4
    h.flat[where] = bad
    args = (h, np.ones(3)) if name in ("solve", "solve_triangular") else (h,)
    with pytest.raises(ValueError):
        getattr(sl, name)(*args)
    with pytest.raises(ValueError, match="must not contain infs or NaNs"):
        getattr(gl, name)(*[gp.asarray(a) for a in args])


@SETTINGS
@given(st.data(), st.sampled_from(["float64", "complex128"]), BATCH, st.integers(1, 5))
def test_sqrtm_logm(data, dt, batch, n):
    # matrices with a dominant positive diagonal: no eigenvalue near the
    # negative real axis, so the device's iteration answers
    x, h = _matrix(data, dt, batch + (n, n))
    for name in ("sqrtm", "logm"):
        want = getattr(sl, name)(h)
        got = getattr(gl, name)(x)
        assert got.dtype == want.dtype
        _same(got, want, dt)
