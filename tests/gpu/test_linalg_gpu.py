"""gpunp.linalg on the GPU through cuSOLVER: the routines called directly
(pivots and info words as LAPACK's), failures found from the info arrays of
a batch, matrices large enough for cuSOLVER's blocked paths, wide and tall
SVDs, LAPACK's real eigenvector pairs, work on a non-default stream, and
the result dtypes of single-precision input computed in double."""

import numpy as np
import pytest
import scipy.linalg

import gpunp as gp
import gpunp.linalg as gla
from gpunp import cuda
from gpunp._lib import lib
from gpunp.linalg import _device

RNG = np.random.default_rng(8)


def _fro(x):
    return np.linalg.norm(x, axis=(-2, -1))


def test_getrf_matches_lapack():
    a = RNG.standard_normal((6, 6))
    f = _device.fortran_copy(gp.asarray(a), np.float64)
    ipiv = gp.empty(6, np.int64)
    info = gp.empty((), np.int32)
    _device.run(_device.GETRF, 0, f, ipiv, info)
    lu, piv = scipy.linalg.lu_factor(a)
    np.testing.assert_allclose(f.get(), lu, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(ipiv.get(), piv + 1)  # 1-based, as LAPACK's
    assert int(info.get()) == 0


@pytest.mark.parametrize("n, k, trans", [(1, 1, 0), (513, 1, 0), (1000, 9, 0), (700, 700, 0),
                                         (8193, 2, 0), (1, 1, 1), (300, 5, 1)])
def test_getrs_matches_lapack(n, k, trans):
    """The engine's getrs (its row interchanges, then cuBLAS's trsm; the
    library's beyond 8192 rows and for a transposed solve) against LAPACK's
    on the same factors."""
    a = RNG.standard_normal((n, n))
    b = RNG.standard_normal((n, k))
    f = _device.fortran_copy(gp.asarray(a), np.float64)
    ipiv = gp.empty(n, np.int64)
    info = gp.empty((), np.int32)
    _device.run(_device.GETRF, 0, f, ipiv, info)
    x = _device.fortran_copy(gp.asarray(b), np.float64)
    info[...] = -1
    _device.run(_device.GETRS, lib.GP_SOLVER_TRANS_T if trans else 0, f, ipiv, x, info)
    want = scipy.linalg.lu_solve((f.get(), ipiv.get() - 1), b, trans=trans)
    np.testing.assert_allclose(x.get(), want, rtol=0, atol=1e-9 * np.abs(want).max())
    assert int(info.get()) == 0


def test_info_of_each_matrix_of_a_batch():
    a = np.stack([np.eye(3), np.diag([1.0, 0.0, 2.0]), 2 * np.eye(3), -np.eye(3)])
    f = _device.fortran_copy(gp.asarray(a), np.float64)
    ipiv = gp.empty((4, 3), np.int64)
    info = gp.empty(4, np.int32)
    _device.run(_device.GETRF, 0, f, ipiv, info)
    assert info.get().tolist() == [0, 2, 0, 0]  # U[1, 1] is exactly zero
    f = _device.fortran_copy(gp.asarray(a), np.float64)
    _device.run(_device.POTRF, 0, f, info)
    got = info.get()
    assert got[0] == 0 and got[2] == 0 and got[1] > 0 and got[3] == 1
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        gla.inv(gp.asarray(a))
    with pytest.raises(np.linalg.LinAlgError, match="not positive definite"):
        gla.cholesky(gp.asarray(a))
    np.testing.assert_allclose(gla.det(gp.asarray(a)).get(), np.linalg.det(a))


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.complex64, np.complex128])
def test_large_batched_factorizations(dt):
    n, batch = 300, 3
    h = RNG.standard_normal((batch, n, n)).astype(dt)
    if np.dtype(dt).kind == "c":
        h = (h + 1j * RNG.standard_normal((batch, n, n))).astype(dt)
    a = gp.asarray(h)
    eps = np.finfo(dt).eps
    b = gp.asarray(RNG.standard_normal((batch, n, 2)).astype(dt))
    x = gla.solve(a, b)
    assert x.dtype == np.dtype(dt)
    res = _fro(h @ x.get() - b.get())
    assert np.all(res <= 100 * n * eps * _fro(h) * _fro(x.get()))
    np.testing.assert_allclose(gla.slogdet(a).logabsdet.get(), np.linalg.slogdet(h).logabsdet,
                               rtol=1e3 * eps)
    herm = h + np.conj(np.swapaxes(h, -1, -2))
    w, v = gla.eigh(gp.asarray(herm))
    np.testing.assert_allclose(w.get(), np.linalg.eigvalsh(herm), atol=100 * n * eps *
                               _fro(herm).max())
    vh = v.get()
    assert np.all(_fro(herm @ vh - vh * w.get()[..., None, :]) <= 100 * n * eps * _fro(herm))
    spd = herm @ np.conj(np.swapaxes(herm, -1, -2)) + n * np.eye(n, dtype=dt)
    c = gla.cholesky(gp.asarray(spd)).get()
    assert np.all(_fro(c @ np.conj(np.swapaxes(c, -1, -2)) - spd) <= 100 * n * eps * _fro(spd))


@pytest.mark.parametrize("shape", [(200, 120), (120, 200), (64, 64)])
@pytest.mark.parametrize("full", [True, False])
def test_svd_and_qr_tall_and_wide(shape, full):
    h = RNG.standard_normal((2,) + shape)
    a = gp.asarray(h)
    u, s, vh = (x.get() for x in gla.svd(a, full_matrices=full))
    wu, ws, wvh = np.linalg.svd(h, full_matrices=full)
    assert u.shape == wu.shape and vh.shape == wvh.shape
    np.testing.assert_allclose(s, ws, rtol=1e-10, atol=1e-10 * ws.max())
    k = min(shape)
    rec = (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]
    np.testing.assert_allclose(rec, h, atol=1e-10 * np.abs(h).max())
    q, r = (x.get() for x in gla.qr(a, mode="complete" if full else "reduced"))
    assert np.all(np.tril(r, -1) == 0)
    np.testing.assert_allclose(q @ r, h, atol=1e-10 * np.abs(h).max())
    eye = np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2] + (q.shape[-1],) * 2)
    np.testing.assert_allclose(np.swapaxes(q, -1, -2) @ q, eye, atol=1e-10)


@pytest.mark.parametrize("shape", [(500, 7, 5), (300, 32, 32), (2, 40, 33), (9, 30), (3, 0, 4)])
@pytest.mark.parametrize("dt", [np.float32, np.complex128])
@pytest.mark.parametrize("full", [True, False])
def test_both_svd_drivers_factor_a(shape, dt, full):
    """gesvdj (one batched call for a batch of matrices up to 32 x 32, one
    call a matrix beyond) and gesvd each give NumPy's singular values, its
    shapes and a factorization of A."""
    from gpunp.linalg import _device
    h = RNG.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        h = h + 1j * RNG.standard_normal(shape)
    h = h.astype(dt)
    t = np.complex128 if np.dtype(dt).kind == "c" else np.float64
    tol = 100 * max(shape[-2:]) * np.finfo(dt).eps
    wu, ws, wvh = np.linalg.svd(h, full_matrices=full)
    for driver in (_device._svd_jacobi, _device._svd_qr):
        r = driver(gp.asarray(h), t, dt, full, True)
        assert r is not None, driver
        u, s, vh = r.U.get(), r.S.get(), r.Vh.get()
        assert u.shape == wu.shape and s.shape == ws.shape and vh.shape == wvh.shape
        assert u.dtype == wu.dtype and s.dtype == ws.dtype
        scale = max(float(np.abs(ws).max(initial=0)), 1.0)
        np.testing.assert_allclose(s, ws, atol=tol * scale)
        k = min(shape[-2:])
        rec = (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]
        np.testing.assert_allclose(rec, h, atol=tol * scale)
        np.testing.assert_allclose(driver(gp.asarray(h), t, dt, full, False).get(), s,
                                   atol=tol * scale)


@pytest.mark.parametrize("driver", ["_svd_jacobi", "_svd_qr"])
def test_zero_singular_values_are_positive_zeros(driver):
    """A rank-deficient batch (the H200 suite's cond case: gesvdj gave -0.0,
    and cond -inf where NumPy gives inf)."""
    h = np.array([[[0, 1, 1]] * 4] * 2 + [[[0, 1, 0], [0, 0, 1], [0, 1, 1], [0, 1, 1]]],
                 dtype=np.float64)
    h = np.concatenate([h, RNG.integers(0, 2, (200, 4, 3)).astype(np.float64)])
    s = getattr(_device, driver)(gp.asarray(h), np.float64, np.float64, False, False).get()
    assert not np.signbit(s).any()
    np.testing.assert_allclose(s, np.linalg.svd(h, compute_uv=False), atol=1e-12)
    assert (gla.cond(gp.asarray(h[:3])).get() > 1e6).all()


@pytest.mark.parametrize("shape", [(2000, 3, 3), (50, 32, 32), (2, 33, 33)])
@pytest.mark.parametrize("dt", [np.float32, np.complex128])
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh_of_batches_of_small_matrices(shape, dt, uplo):
    """Batches of matrices up to 32 x 32 go through syevjBatched in one call,
    larger ones through syevd: both give NumPy's eigenvalues and A V = V W,
    from the triangle asked for."""
    h = RNG.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        h = h + 1j * RNG.standard_normal(shape)
    h = h.astype(dt)
    w, v = (x.get() for x in gla.eigh(gp.asarray(h), UPLO=uplo))
    full = np.tril(h) if uplo == "L" else np.triu(h)
    full = full + np.conj(np.swapaxes(full, -1, -2)) - np.real(
        np.einsum("...ii->...i", h))[..., None] * np.eye(shape[-1])
    ww = np.linalg.eigvalsh(h, UPLO=uplo)
    assert w.dtype == ww.dtype and v.dtype == np.dtype(dt)
    tol = 100 * shape[-1] * np.finfo(dt).eps * _fro(full).max()
    np.testing.assert_allclose(w, ww, atol=tol)
    np.testing.assert_allclose(full @ v, v * w[..., None, :], atol=tol)
    np.testing.assert_allclose(gla.eigvalsh(gp.asarray(h), UPLO=uplo).get(), ww, atol=tol)


def test_eig_real_pairs_and_dtypes():
    rot = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 2.0]])
    w, v = gla.eig(gp.asarray(rot))
    assert w.dtype == np.complex128 and v.dtype == np.complex128
    wh, vh = w.get(), v.get()
    np.testing.assert_allclose(rot @ vh, vh * wh, atol=1e-12)
    np.testing.assert_allclose(np.sort_complex(wh), np.sort_complex(np.linalg.eigvals(rot)),
                               atol=1e-12)
    tri = np.triu(RNG.standard_normal((4, 4)).astype(np.float32))
    w, v = gla.eig(gp.asarray(tri))
    want = np.linalg.eig(tri)  # every eigenvalue real: real in NumPy 2.4, complex in 2.5
    assert w.dtype == want.eigenvalues.dtype and v.dtype == want.eigenvectors.dtype
    h = RNG.standard_normal((3, 50, 50))
    w, v = (x.get() for x in gla.eig(gp.asarray(h)))
    assert np.all(_fro(h @ v - v * w[..., None, :]) <= 1e-10 * _fro(h))


def test_lstsq_pinv_rank_cond():
    h = RNG.standard_normal((80, 30))
    h[:, 5] = h[:, 7]  # rank 29
    b = RNG.standard_normal(80)
    x, res, rank, s = gla.lstsq(gp.asarray(h), gp.asarray(b))
    wx, wres, wrank, ws = np.linalg.lstsq(h, b)
    assert int(rank) == int(wrank) == 29 and res.shape == wres.shape == (0,)
    np.testing.assert_allclose(x.get(), wx, atol=1e-10)
    # the dependent column's singular value is rounding noise near pinv's
    # default cutoff (1e-15 * max): a cutoff well above it decides the same
    # on every SVD (the H200's and NumPy's fell on either side of 1e-15)
    np.testing.assert_allclose(gla.pinv(gp.asarray(h), rcond=1e-10).get(),
                               np.linalg.pinv(h, rcond=1e-10), atol=1e-10)
    assert int(gla.matrix_rank(gp.asarray(h))) == 29
    sq = RNG.standard_normal((40, 40))
    for p in (None, 1, np.inf, "fro", -2):
        np.testing.assert_allclose(float(gla.cond(gp.asarray(sq), p)), np.linalg.cond(sq, p),
                                   rtol=1e-8)


def test_on_a_non_default_stream():
    s = cuda.Stream(non_blocking=True)
    h = RNG.standard_normal((4, 64, 64)) + 64 * np.eye(64)
    with s:
        a = gp.asarray(h)
        x = gla.inv(a)
        s.synchronize()
    np.testing.assert_allclose(x.get(), np.linalg.inv(h), rtol=1e-10, atol=1e-12)


def test_single_precision_in_double():
    """NumPy computes float32 input in double and rounds the result: the
    GPU does too, so a float32 inverse is within float32's rounding."""
    h = (RNG.standard_normal((50, 50)) + 10 * np.eye(50)).astype(np.float32)
    got = gla.inv(gp.asarray(h)).get()
    want = np.linalg.inv(h)
    assert got.dtype == want.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=4 * np.finfo(np.float32).eps, atol=1e-7)
