"""The rest of gpunp.scipy.linalg against scipy.linalg: the decompositions
and matrix functions run on a host copy (hessenberg, qz, ordqz,
matrix_balance, cossin, rsf2csf, the QR updates, funm, signm,
fractional_matrix_power, expm_cond, the Riccati solvers) give SciPy's results
as gpunp arrays and SciPy's errors; the Clarkson-Woodruff sketch is SciPy's
for the same rng; the BLAS/LAPACK lookups read gpunp arrays' dtypes."""

import numpy as np
import pytest
import scipy.linalg as L
import scipy.sparse as sp

import gpunp as gp
import gpunp.scipy.linalg as gL
import gpunp.scipy.sparse as gsp

RNG = np.random.default_rng(5)


def _host(x):
    if isinstance(x, tuple):
        return tuple(_host(v) for v in x)
    return gp.asnumpy(x) if isinstance(x, gp.ndarray) else x


def _same(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    if isinstance(want, np.ndarray):
        assert isinstance(got, gp.ndarray) and got.dtype == want.dtype
        np.testing.assert_allclose(got.get(), want, rtol=1e-10, atol=1e-12)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-10)


def _both(name, *arrays, **kw):
    want = getattr(L, name)(*arrays, **kw)
    dev = {k: gp.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    got = getattr(gL, name)(*[gp.asarray(a) if isinstance(a, np.ndarray) else a
                              for a in arrays], **dev)
    _same(got, want)


def _mat(n, m=None, dtype=np.float64):
    a = RNG.standard_normal((n, m or n))
    if np.dtype(dtype).kind == "c":
        a = a + 1j * RNG.standard_normal((n, m or n))
    return a.astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_host_decompositions_like_scipy(dtype):
    a, b = _mat(5, dtype=dtype), _mat(5, dtype=dtype)
    _both("hessenberg", a)
    _both("hessenberg", a, calc_q=True)
    _both("qz", a, b)
    _both("ordqz", a, b, sort="iuc")
    _both("matrix_balance", a)
    _both("matrix_balance", a, separate=True, permute=False)


def test_more_host_routines_like_scipy():
    a, b = _mat(4), _mat(4)
    _both("qz", a, b, output="complex")
    _both("ordqz", a, b, sort=lambda x, y: np.abs(x) > np.abs(y))
    u = L.qr(_mat(6))[0]  # a unitary matrix for cossin
    _both("cossin", u, p=3, q=2)
    _both("cossin", u, p=3, q=3, separate=True)
    want = L.cossin([u[:3, :3], u[:3, 3:], u[3:, :3], u[3:, 3:]])
    got = gL.cossin([gp.asarray(u[:3, :3]), gp.asarray(u[:3, 3:]), gp.asarray(u[3:, :3]),
                     gp.asarray(u[3:, 3:])])
    _same(got, want)
    t, z = L.schur(a)
    _both("rsf2csf", t, z)
    q, r = L.qr(_mat(5, 4))
    _both("qr_update", q, r, RNG.standard_normal(5), RNG.standard_normal(4))
    _both("qr_insert", q, r, RNG.standard_normal(4), 2)
    _both("qr_insert", q, r, RNG.standard_normal((5, 2)), 1, which="col")
    _both("qr_delete", q, r, 1, 2)
    _both("qr_delete", q, r, 0, which="col")
    c = _mat(5, 3)
    _both("qr_multiply", _mat(5, 3), c.T, mode="right")
    _both("qr_multiply", _mat(5, 3), _mat(3, 2), mode="left")
    _both("qr_multiply", _mat(5, 3), _mat(3, 2), mode="left", pivoting=True)
    _both("qr_multiply", _mat(4, 4), np.ones(4), conjugate=True)
    spd = a @ a.T + 4 * np.eye(4)
    _both("fractional_matrix_power", spd, 0.3)
    _both("fractional_matrix_power", spd, 2)
    _both("signm", a)
    _both("expm_cond", a / 4)
    w = RNG.standard_normal((4, 2))
    _both("solve_continuous_are", a, w, np.eye(4), np.eye(2))
    _both("solve_discrete_are", a / 4, w, np.eye(4), np.eye(2), e=np.eye(4), s=np.zeros((4, 2)))
    _both("solve_continuous_are", a, w, np.eye(4), np.eye(2), balanced=False)


def test_funm_applies_a_gpunp_function():
    a = _mat(5) / 3
    want = L.funm(a, np.exp)
    got = gL.funm(gp.asarray(a), gp.exp)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.get(), want, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(got.get(), L.expm(a), rtol=1e-8)
    f, err = gL.funm(gp.asarray(a), lambda x: gp.cos(x) + 1, disp=False)
    fw, ew = L.funm(a, lambda x: np.cos(x) + 1, disp=False)
    np.testing.assert_allclose(f.get(), fw, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(float(err), ew, rtol=1e-6, atol=1e-15)


@pytest.mark.parametrize("name, args", [
    ("hessenberg", (np.ones((2, 3)),)), ("qz", (np.ones((2, 2)), np.ones((3, 3)))),
    ("ordqz", (np.eye(2), np.eye(2), "nope")), ("matrix_balance", (np.ones((2, 3)),)),
    ("cossin", (np.ones((3, 3)), 2, 5)), ("qr_delete", (np.eye(3), np.eye(3), 5)),
    ("qr_multiply", (np.eye(3), np.ones((2, 2)))),
    ("fractional_matrix_power", (np.ones((2, 3)), 2)),
    ("solve_continuous_are", (np.eye(2), np.ones((2, 1)), np.eye(3), np.eye(1))),
    ("hessenberg", (np.array([[np.nan, 1.0], [0.0, 1.0]]),)),
])
def test_errors_like_scipy(name, args):
    with pytest.raises(Exception) as want:
        getattr(L, name)(*args)
    with pytest.raises(type(want.value)):
        getattr(gL, name)(*[gp.asarray(a) if isinstance(a, np.ndarray) else a for a in args])
    with pytest.raises(TypeError):  # NumPy arrays are not moved implicitly
        getattr(gL, name)(*args)


def test_clarkson_woodruff_transform_like_scipy():
    a = RNG.standard_normal((20, 4)).astype(np.float32)
    for args, kw in (((), dict(rng=3)), ((7,), {}), ((), dict(seed=9)),
                     ((), dict(rng="generator"))):
        fresh = {k: np.random.default_rng(1) if v == "generator" else v for k, v in kw.items()}
        want = L.clarkson_woodruff_transform(a, 5, *args, **fresh)
        fresh = {k: np.random.default_rng(1) if v == "generator" else v for k, v in kw.items()}
        got = gL.clarkson_woodruff_transform(gp.asarray(a), 5, *args, **fresh)
        _same(got, want)
    batch = RNG.standard_normal((2, 3, 20, 4))
    _same(gL.clarkson_woodruff_transform(gp.asarray(batch), 6, rng=2),
          L.clarkson_woodruff_transform(batch, 6, rng=2))
    for fmt, kind in (("csr", "array"), ("csc", "matrix"), ("coo", "array")):
        s = getattr(sp, f"{fmt}_{kind}")(sp.random_array((20, 6), density=0.3, rng=RNG))
        want = L.clarkson_woodruff_transform(s, 4, rng=8)
        got = gL.clarkson_woodruff_transform(getattr(gsp, f"{fmt}_{kind}")(s), 4, rng=8)
        assert type(got).__name__ == type(want).__name__  # 1.18 keeps flavour and format
        np.testing.assert_allclose(got.toarray().get(), want.toarray())
    with pytest.raises(TypeError):
        gL.clarkson_woodruff_transform(gp.asarray(a), 5, 1, rng=1)
    with pytest.raises(TypeError):
        L.clarkson_woodruff_transform(a, 5, 1, rng=1)


def test_blas_lapack_lookups():
    cases = [(), (np.ones(3, np.float32),), (np.ones((3, 2), order="F"),),
             (np.ones((3, 2)),), (np.ones(2, np.float32), np.ones(2, np.complex128))]
    for arrays in cases:
        dev = tuple(gp.asfortranarray(gp.asarray(a)) if a.flags.f_contiguous and
                    not a.flags.c_contiguous else gp.asarray(a) for a in arrays)
        assert gL.find_best_blas_type(dev) == L.find_best_blas_type(arrays)
        assert gL.get_blas_funcs("gemm", dev) is L.get_blas_funcs("gemm", arrays)
        got = gL.get_lapack_funcs(("getrf", "getrs"), dev)
        assert got == L.get_lapack_funcs(("getrf", "getrs"), arrays)
    assert gL.get_blas_funcs("axpy", dtype=np.complex64) is L.get_blas_funcs(
        "axpy", dtype=np.complex64)
    with pytest.raises(ValueError):
        L.get_lapack_funcs("nosuchroutine")
    with pytest.raises(ValueError):
        gL.get_lapack_funcs("nosuchroutine")
