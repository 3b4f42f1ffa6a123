"""gpunp.scipy.linalg against SciPy's own on the host backend: the solvers
and factorizations on float32/64 and complex64/128, batches, empty and
non-finite input, SciPy's errors and warnings, the matrix functions and the
special matrices; and gpunp.linalg.lu_factor's GPU road with LAPACK
standing in for the engine."""

from __future__ import annotations

import contextlib
import re
import warnings

import numpy as np
import pytest
import scipy.linalg as sl

import gpunp as gp
import gpunp.scipy.linalg as gl

RNG = np.random.default_rng(38)
DTYPES = (np.float32, np.float64, np.complex64, np.complex128)


def _data(shape, dt):
    x = RNG.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        x = x + 1j * RNG.standard_normal(shape)
    return x.astype(dt)


def _spd(n, dt, batch=()):
    a = _data(batch + (n, n), dt)
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dt)


def _tol(dt):
    return 2e-4 if np.dtype(dt) in (np.float32, np.complex64) else 1e-10


def _same(got, want, dt, dtype=True):
    got = got.get() if isinstance(got, gp.ndarray) else np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape
    if dtype:
        assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=_tol(dt), atol=_tol(dt))


@pytest.mark.parametrize("dt", DTYPES)
def test_lu_family(dt):
    a, b = _data((5, 5), dt), _data((5, 2), dt)
    lu, piv = gl.lu_factor(gp.asarray(a))
    want_lu, want_piv = sl.lu_factor(a)
    _same(lu, want_lu, dt)
    assert np.array_equal(piv.get(), want_piv)
    for trans in (0, 1, 2):
        _same(gl.lu_solve((lu, piv), gp.asarray(b), trans=trans),
              sl.lu_solve((want_lu, want_piv), b, trans=trans), dt)
    for shape in ((5, 5), (3, 5), (5, 3)):
        m = _data(shape, dt)
        for got, want in zip(gl.lu(gp.asarray(m)), sl.lu(m)):
            _same(got, want, dt)
        for got, want in zip(gl.lu(gp.asarray(m), permute_l=True), sl.lu(m, permute_l=True)):
            _same(got, want, dt)


def test_lu_factor_batched_and_singular_warns():
    a = _data((2, 3, 4, 4), np.float64)
    lu, piv = gl.lu_factor(gp.asarray(a))
    want_lu, want_piv = sl.lu_factor(a)
    _same(lu, want_lu, np.float64)
    assert np.array_equal(piv.get(), want_piv)
    with pytest.warns(sl.LinAlgWarning, match="Diagonal number 1 is exactly zero"):
        gl.lu_factor(gp.zeros((2, 2)))


def _device_road():
    """gpunp.linalg's GPU road: on the host backend with LAPACK standing in
    for the engine's solvers, on a GPU the engine's own."""
    from property import fake_solver
    return fake_solver.device_road() if gp.backend() == "host" else contextlib.nullcontext()


@pytest.mark.parametrize("shape", [(2, 4, 4), (3, 5), (5, 3)])
def test_lu_factor_gpu_road_with_lapack_for_the_engine(shape):
    # getrf is square only: a rectangular matrix goes padded with zeros
    a = _data(shape, np.float64)
    with _device_road():
        lu, piv, info = gp.linalg.lu_factor(gp.asarray(a))
        singular = gp.linalg.lu_factor(gp.zeros((3, 2)))[2]
    want_lu, want_piv = (sl.lu_factor(a) if shape[-1] == shape[-2] else
                         _host_getrf(a))
    _same(lu, want_lu, np.float64)
    assert np.array_equal(piv.get(), want_piv)
    assert not info.get().any()
    assert int(singular.get()) == 1


def _host_getrf(a):
    from scipy.linalg import lapack
    lu, piv, _ = lapack.dgetrf(a)
    return lu, piv


def test_triangular_solve_by_blocks():
    # past 128 the solve recurses on halves
    a, b = _data((140, 140), np.float64) + 140 * np.eye(140), _data((140, 2), np.float64)
    for lower in (False, True):
        _same(gl.solve_triangular(gp.asarray(a), gp.asarray(b), lower=lower, trans=1),
              sl.solve_triangular(a, b, lower=lower, trans=1), np.float64)


@pytest.mark.parametrize("dt", DTYPES)
def test_triangular_and_cholesky(dt):
    a, b, s = _data((4, 4), dt), _data((4, 3), dt), _spd(4, dt)
    for lower in (False, True):
        for trans in (0, "T", 2):
            for unit in (False, True):
                _same(gl.solve_triangular(gp.asarray(a), gp.asarray(b), trans=trans,
                                          lower=lower, unit_diagonal=unit),
                      sl.solve_triangular(a, b, trans=trans, lower=lower, unit_diagonal=unit),
                      dt)
        want = sl.cho_factor(s, lower=lower)
        # the GPU's potrf leaves the other triangle as it was
        for road in (contextlib.nullcontext, _device_road):
            with road():
                _same(gl.cholesky(gp.asarray(s), lower=lower), sl.cholesky(s, lower=lower), dt)
                c = gl.cho_factor(gp.asarray(s), lower=lower)
            _same(c[0], want[0], dt)
        _same(gl.cho_solve(c, gp.asarray(b[:, 0])), sl.cho_solve(want, b[:, 0]), dt)
        # the other triangle: zeros from SciPy 1.18 on, but a's entries with overwrite_a
        _same(gl.cho_factor(gp.asarray(s), lower=lower, overwrite_a=True)[0],
              sl.cho_factor(s.copy(), lower=lower, overwrite_a=True)[0], dt)


@pytest.mark.parametrize("assume_a", ["gen", "sym", "her", "pos", "diagonal",
                                      "upper triangular", "lower triangular"])
def test_solve_assume_a(assume_a):
    dt = np.complex128 if assume_a == "her" else np.float64
    a = _spd(4, dt) if assume_a == "pos" else _data((4, 4), dt)
    b = _data((4, 2), dt)
    for lower in (False, True):
        for transposed in (False, True):
            if transposed and dt == np.complex128:
                continue
            _same(gl.solve(gp.asarray(a), gp.asarray(b), assume_a=assume_a, lower=lower,
                           transposed=transposed),
                  sl.solve(a, b, assume_a=assume_a, lower=lower, transposed=transposed), dt)


def test_solve_batched_and_vector():
    a, b = _data((3, 4, 4), np.float32), _data((4,), np.float32)
    _same(gl.solve(gp.asarray(a), gp.asarray(b)), sl.solve(a, b), np.float32)
    b3 = _data((3, 4, 2), np.float64)
    _same(gl.solve(gp.asarray(a), gp.asarray(b3)), sl.solve(a, b3), np.float64)


def test_errors_are_scipys():
    nan = gp.asarray(np.array([[1.0, np.nan], [0.0, 1.0]]))
    for f in (gl.inv, gl.det, gl.lu_factor, gl.cholesky, gl.svd, gl.eigh, gl.expm):
        if f is gl.expm:
            continue
        with pytest.raises(ValueError, match="must not contain infs or NaNs"):
            f(nan)
    with pytest.raises(np.linalg.LinAlgError):
        gl.solve(gp.zeros((2, 2)), gp.ones(2))
    with pytest.raises(np.linalg.LinAlgError):
        gl.inv(gp.zeros((2, 2)))
    with pytest.raises(np.linalg.LinAlgError, match="resolution failed at diagonal 0"):
        gl.solve_triangular(gp.zeros((2, 2)), gp.ones(2))
    with pytest.raises(np.linalg.LinAlgError):
        gl.cholesky(-gp.eye(2))
    with pytest.raises(ValueError, match='lapack_driver must be "gesdd" or "gesvd"'):
        gl.svd(gp.eye(2), lapack_driver="x")
    with pytest.raises(ValueError, match="not a recognized matrix structure"):
        gl.solve(gp.eye(2), gp.ones(2), assume_a="nope")
    with pytest.raises(ValueError):
        gl.solve(gp.eye(3), gp.ones(2))


@pytest.mark.parametrize("dt", DTYPES)
def test_decompositions(dt):
    a = _data((5, 3), dt)
    for mode in ("full", "economic", "r"):
        want = sl.qr(a, mode=mode)
        for g_, w in zip(gl.qr(gp.asarray(a), mode=mode), want):
            _same(g_, w, dt)
        for shape in ((5, 3), (3, 5)):
            m = _data(shape, dt)
            got = gl.rq(gp.asarray(m), mode=mode)
            r = got if mode == "r" else got[0]
            want_r = sl.rq(m, mode=mode)
            want_r = want_r if mode == "r" else want_r[0]
            # R is unique up to the signs of its rows' pairing with Q
            _same(abs(r.get()), abs(want_r), dt, dtype=False)
            if mode != "r":
                _same(got[0] @ got[1], m, dt, dtype=False)
    s = sl.svd(a, compute_uv=False)
    for driver in ("gesdd", "gesvd"):
        _same(gl.svd(gp.asarray(a), compute_uv=False, lapack_driver=driver), s, dt)
    _same(gl.svdvals(gp.asarray(a)), s, dt)
    h = _spd(5, dt)
    _same(gl.eigh(gp.asarray(h), eigvals_only=True, subset_by_index=[1, 3]),
          sl.eigh(h, eigvals_only=True, subset_by_index=[1, 3]), dt)
    w, v = gl.eigh(gp.asarray(h), subset_by_value=(-np.inf, 10.0))
    ww = sl.eigh(h, eigvals_only=True, subset_by_value=(-np.inf, 10.0))
    _same(w, ww, dt)
    assert v.shape == (5, ww.size)
    got = np.sort_complex(gl.eigvals(gp.asarray(h)).get())
    _same(got, np.sort_complex(sl.eigvals(h)), dt)


def test_generalized_eigh_and_subset_errors():
    a, b = _spd(4, np.float64), _spd(4, np.float64)
    _same(gl.eigh(gp.asarray(a), gp.asarray(b), eigvals_only=True),
          sl.eigh(a, b, eigvals_only=True), np.float64)
    with pytest.raises(ValueError, match="indices are not valid"):
        gl.eigh(gp.asarray(a), subset_by_index=[2, 9])


@pytest.mark.parametrize("dt", [np.float32, np.complex128])
def test_matrix_functions(dt):
    a = _data((4, 4), dt)
    for scale in (0.01, 1.0, 8.0):
        want = sl.expm(scale * a)
        got = gl.expm(gp.asarray((scale * a).astype(dt)))
        _same(got / np.abs(want).max(), want / np.abs(want).max(), dt)
    _same(gl.cosm(gp.asarray(a)), sl.cosm(a), dt)
    _same(gl.sinm(gp.asarray(a)), sl.sinm(a), dt)
    batch = _data((2, 3, 3), np.float64)
    _same(gl.expm(gp.asarray(batch)), sl.expm(batch), np.float64)
    s = _spd(4, np.float64)
    _same(gl.sqrtm(gp.asarray(s)), sl.sqrtm(s), np.float64)
    _same(gl.logm(gp.asarray(s)), sl.logm(s), np.float64)
    t, z = gl.schur(gp.asarray(s))
    _same(z @ t @ z.T, s, np.float64, dtype=False)
    q, b = _data((4, 3), np.float64), _spd(3, np.float64)
    _same(gl.solve_sylvester(gp.asarray(s), gp.asarray(b), gp.asarray(q)),
          sl.solve_sylvester(s, b, q), np.float64)


@pytest.mark.parametrize("dt", [np.float64, np.complex64])
def test_svd_built(dt):
    a = _data((5, 3), dt)
    _same(gl.pinv(gp.asarray(a)), sl.pinv(a), dt)
    for side in ("right", "left"):
        for got, want in zip(gl.polar(gp.asarray(a), side), sl.polar(a, side)):
            _same(got, want, dt)
    ns = gl.null_space(gp.asarray(a.T)).get()
    assert ns.shape == sl.null_space(a.T).shape
    np.testing.assert_allclose(a.T @ ns, 0, atol=_tol(dt))
    o = gl.orth(gp.asarray(a)).get()
    assert o.shape == sl.orth(a).shape
    np.testing.assert_allclose(o @ np.conj(o.T) @ a, a, atol=_tol(dt) * 10)
    # SciPy's det of complex64 is complex128; gpunp keeps numpy.linalg's dtype
    _same(gl.det(gp.asarray(a[:3])), sl.det(a[:3]), dt, dtype=False)
    _same(gl.inv(gp.asarray(a[:3])), sl.inv(a[:3]), dt)
    _same(gl.norm(gp.asarray(a)), sl.norm(a), dt)
    x, res, rank, sv = gl.lstsq(gp.asarray(a), gp.asarray(a[:, 0]))
    want = sl.lstsq(a, a[:, 0])
    _same(x, want[0], dt)
    assert rank == want[2]


def test_empty():
    _same(gl.solve(gp.ones((0, 0)), gp.ones((0, 2))), sl.solve(np.ones((0, 0)), np.ones((0, 2))),
          np.float64)
    _same(gl.expm(gp.ones((0, 0))), sl.expm(np.ones((0, 0))), np.float64)


def test_special_matrices():
    cases = [
        ("toeplitz", ([1, 2, 3], [1, 5, 6, 7])), ("toeplitz", ([1, 2 + 1j, 3],)),
        ("circulant", ([1, 2, 3],)), ("hankel", ([1, 2, 3], [3, 4, 5, 6])),
        ("hankel", ([1.5, 2, 3],)), ("hadamard", (8,)), ("leslie", ([1, 2, 3], [0.5, 0.6])),
        ("companion", ([1, 2, 3, 4],)), ("helmert", (5,)), ("hilbert", (4,)),
        ("invhilbert", (4,)), ("dft", (5,)), ("fiedler", ([1, 4, 2],)),
        ("fiedler_companion", ([1.0, 2, 3, 4, 5, 6],)),
        ("fiedler_companion", ([2.0, 3, 4, 5, 6],)), ("pascal", (4,)),
        ("invpascal", (4,)), ("convolution_matrix", ([1, 2, 3], 5)),
        ("khatri_rao", ([[1, 2], [3, 4]], [[5, 6], [7, 8], [9, 10]])),
        ("block_diag", ([[1, 2]], [[3], [4]], [[5.0]])),
    ]
    for name, args in cases:
        got = getattr(gl, name)(*[gp.asarray(x) if isinstance(x, list) else x for x in args])
        want = getattr(sl, name)(*args)
        _same(got, want, np.float64, dtype=name not in ("hadamard", "pascal"))
    for kind in ("lower", "upper"):
        _same(gl.pascal(4, kind), sl.pascal(4, kind), np.float64, dtype=False)
        _same(gl.invpascal(4, kind), sl.invpascal(4, kind), np.float64, dtype=False)
    for mode in ("same", "valid"):
        for n in (2, 5):
            _same(gl.convolution_matrix(gp.asarray([1, 2, 3]), n, mode),
                  sl.convolution_matrix([1, 2, 3], n, mode), np.float64)
    _same(gl.helmert(3, full=True), sl.helmert(3, full=True), np.float64)
    _same(gl.dft(4, "sqrtn"), sl.dft(4, "sqrtn"), np.float64)
    assert gl.kron(gp.eye(2), gp.ones((2, 2))).shape == (4, 4)
    assert gl.tri(3).get().tolist() == np.tri(3, dtype=int).tolist()
    with pytest.raises(ValueError):
        gl.hadamard(6)
    with pytest.raises(ValueError):
        gl.companion([0, 1, 2])


@pytest.mark.parametrize("dt", [np.float64, np.complex128])
def test_more_matrix_functions_and_helpers(dt):
    a, b = _data((4, 4), dt) / 3, _data((4, 4), dt)
    for name in ("tanm", "coshm", "sinhm", "tanhm"):
        _same(getattr(gl, name)(gp.asarray(a)), getattr(sl, name)(a), dt)
    s = _spd(4, dt)
    assert gl.issymmetric(gp.asarray(s)) == sl.issymmetric(s)
    assert gl.ishermitian(gp.asarray(s)) == sl.ishermitian(s)
    assert gl.issymmetric(gp.asarray(a)) is False
    assert gl.issymmetric(gp.asarray(s + 1e-9 * a), atol=1e-6) == sl.issymmetric(
        s + 1e-9 * a, atol=1e-6)
    band = np.triu(np.tril(b, 1), -2)
    assert gl.bandwidth(gp.asarray(band)) == sl.bandwidth(band) == (2, 1)
    assert gl.bandwidth(gp.asarray(b[:3])) == sl.bandwidth(b[:3])
    _same(gl.diagsvd(gp.asarray(np.diag(s)), 5, 4), sl.diagsvd(np.diag(s), 5, 4), dt)
    for got, want in zip(gl.orthogonal_procrustes(gp.asarray(a), gp.asarray(b)),
                         sl.orthogonal_procrustes(a, b)):
        _same(got, want, dt)
    low = s[:, :2] @ np.conj(s[:, :2].T)  # rank 2
    got, rank = gl.pinvh(gp.asarray(low), return_rank=True)
    want, want_rank = sl.pinvh(low, return_rank=True)
    _same(got, want, dt)
    assert rank == want_rank


def test_structured_solves_by_fft():
    c = np.array([2.0, -1, 0, 0.5])
    b1, b2 = _data((4,), np.float64), _data((4, 3), np.complex128)
    for b in (b1, b2):
        _same(gl.solve_circulant(gp.asarray(c), gp.asarray(b)), sl.solve_circulant(c, b),
              b.dtype)
    ones = np.ones(4)
    _same(gl.solve_circulant(gp.asarray(ones), gp.asarray(b1), singular="lstsq"),
          sl.solve_circulant(ones, b1, singular="lstsq"), np.float64)
    with pytest.raises(np.linalg.LinAlgError, match="near singular"):
        gl.solve_circulant(gp.asarray(ones), gp.asarray(b1))
    cr = (_data((5,), np.float64), _data((3,), np.float64))
    x = _data((3, 2), np.float64)
    _same(gl.matmul_toeplitz(tuple(gp.asarray(v) for v in cr), gp.asarray(x)),
          sl.matmul_toeplitz(cr, x), np.float64)
    xc = _data((3,), np.complex64)
    _same(gl.matmul_toeplitz(gp.asarray(cr[1]), gp.asarray(xc)),
          sl.matmul_toeplitz(cr[1], xc), np.complex64)


def test_host_computed_forms():
    # column-pivoted QR, raw QR and the generalized eigenproblem run SciPy on
    # a host copy (no device routine); the results are gpunp arrays
    a, b = _data((5, 4), np.float64), _spd(4, np.float64)
    for got, want in zip(gl.qr(gp.asarray(a), pivoting=True), sl.qr(a, pivoting=True)):
        _same(got, want, np.float64)
    (h, tau), r = gl.qr(gp.asarray(a), mode="raw")
    (wh, wtau), wr = sl.qr(a, mode="raw")
    _same(h, wh, np.float64)
    _same(tau, wtau, np.float64)
    w, vl, vr = gl.eig(gp.asarray(a[:4]), gp.asarray(b), left=True)
    ww, wvl, wvr = sl.eig(a[:4], b, left=True)
    order, worder = np.argsort(w.get()), np.argsort(ww)
    _same(gp.asarray(w.get()[order]), ww[worder], np.complex128)
    assert isinstance(vl, gp.ndarray) and vl.shape == wvl.shape
    hw = gl.eigvals(gp.asarray(a[:4]), homogeneous_eigvals=True)
    want = sl.eigvals(a[:4], homogeneous_eigvals=True)
    assert hw.shape == want.shape
    _same(np.sort_complex(hw.get()[0]), np.sort_complex(want[0]), np.complex128)


def test_batched_as_scipy_1_17():
    # functions without a batched form of their own loop over the batch
    a = _data((2, 4, 4), np.float64) + 4 * np.eye(4)
    v = _data((2, 4), np.float64)
    s = a @ np.swapaxes(a, -1, -2)
    cases = {
        "orth": (a,), "polar": (a,), "khatri_rao": (a, a), "orthogonal_procrustes": (a, a),
        "bandwidth": (a,), "issymmetric": (s,), "toeplitz": (v, v), "circulant": (v,),
        "companion": (v + 5,), "leslie": (v, v[:, :3]), "fiedler": (v,),
        "fiedler_companion": (v + 5,), "block_diag": (a, a), "diagsvd": (v, 4, 4),
        "null_space": (a[:, :, :2].swapaxes(-1, -2),), "lstsq": (a, v[..., None]),
    }
    for name, args in cases.items():
        got = getattr(gl, name)(*[gp.asarray(x) if isinstance(x, np.ndarray) else x
                                  for x in args])
        want = getattr(sl, name)(*args)
        got = got if isinstance(got, tuple) else (got,)
        want = tuple(want) if isinstance(want, (tuple, list)) else (want,)
        for g_, w in zip(got, want):
            # bases (orth, null_space) are unique up to each vector's sign
            _same(abs(gp.asarray(g_).get()), abs(np.asarray(w)), np.float64, dtype=False)
    # the same count of eigenvalues in range per matrix stacks; different
    # counts (which the shared RNG may draw) are SciPy's error
    for m in (s[[0, 0]], s):
        try:
            want = sl.eigh(m, subset_by_value=(0, 50), eigvals_only=True)
        except ValueError as e:
            with pytest.raises(ValueError, match=re.escape(str(e))):
                gl.eigh(gp.asarray(m), subset_by_value=(0, 50), eigvals_only=True)
            continue
        _same(gl.eigh(gp.asarray(m), subset_by_value=(0, 50), eigvals_only=True), want,
              np.float64)


def test_sqrtm_logm_device_and_scipy_roads():
    # Denman-Beavers on the device where it converges; SciPy's Schur method
    # (on a host copy) for a real matrix with a negative eigenvalue, and for
    # a singular one, where the results are complex or SciPy warns
    rng = np.random.default_rng(5)
    a = rng.standard_normal((2, 5, 5))
    spd = a @ np.swapaxes(a, -1, -2) + np.eye(5)
    cplx = _data((4, 4), np.complex128) + 4 * np.eye(4)
    for m in (spd, cplx, np.diag([-1.0, 2.0, 3.0]), (3 * np.eye(3) + 0.1).astype(np.float32)):
        for name in ("sqrtm", "logm"):
            with warnings.catch_warnings():
                # SciPy's logm of float32 warns of its own error estimate
                warnings.simplefilter("ignore", RuntimeWarning)
                want = getattr(sl, name)(m)
            got = getattr(gl, name)(gp.asarray(m))
            # SciPy's logm of float32 is float64 of single precision's accuracy
            assert got.dtype == want.dtype
            _same(got, want, m.dtype)
    with pytest.warns(sl.LinAlgWarning):
        gl.sqrtm(gp.zeros((3, 3)))
    with pytest.raises(ValueError, match="must not contain infs or NaNs"):
        gl.sqrtm(gp.asarray([[np.nan, 0.0], [0.0, 1.0]]))


@pytest.mark.parametrize("shape", [(0, 0), (0, 3), (3, 0), (2, 0, 0), (1, 1), (2, 1, 1)])
def test_lu_shapes_and_dtypes_of_edge_sizes(shape):
    for dt in (np.float64, np.complex64):
        a = np.ones(shape, dt)
        for name, kw in (("lu_factor", {}), ("lu", {}), ("lu", {"permute_l": True}),
                         ("lu", {"p_indices": True})):
            want = getattr(sl, name)(a, **kw)
            got = getattr(gl, name)(gp.asarray(a), **kw)
            assert [(x.shape, x.dtype) for x in got] == [(x.shape, x.dtype) for x in want]
            if a.size:
                for g_, w in zip(got, want):
                    _same(g_, w, dt)


_SQUARE_ONLY = ["expm", "sqrtm", "logm", "cosm", "sinm", "tanm", "coshm", "sinhm", "tanhm",
                "pinvh", "inv", "det", "cholesky", "cho_factor", "eigh", "eigvalsh", "eig",
                "eigvals"]


@pytest.mark.parametrize("shape", [(2, 3), (0, 3), (3,)])
def test_not_square_is_scipys_error(shape):
    for name in _SQUARE_ONLY if len(shape) == 2 else ["cholesky", "cho_factor", "eig"]:
        with pytest.raises(Exception) as want:
            getattr(sl, name)(np.ones(shape))
        with pytest.raises(type(want.value)) as got:
            getattr(gl, name)(gp.ones(shape))
        assert str(got.value) == str(want.value), name


def test_empty_matrices():
    e, b = np.ones((0, 0)), np.ones((0, 2))
    cases = {
        "solve_triangular": (e, b), "solve": (e, b), "cholesky": (e,), "lu_solve": None,
        "qr": (e,), "svd": (e,), "eigh": (e,), "eig": (e,), "inv": (e,), "det": (e,),
        "expm": (e,), "pinv": (e,), "sqrtm": (e,), "cosm": (e,), "tanm": (e,),
        "pinvh": (e,), "lstsq": (e, b), "null_space": (e,), "orth": (e,), "polar": (e,),
    }
    for name, args in cases.items():
        if args is None:
            want = sl.lu_solve((e, np.zeros(0, np.int32)), b)
            got = gl.lu_solve((gp.asarray(e), gp.zeros(0, np.int32)), gp.asarray(b))
        else:
            want = getattr(sl, name)(*args)
            got = getattr(gl, name)(*[gp.asarray(x) for x in args])
        want = want if isinstance(want, (tuple, list)) else (want,)
        got = got if isinstance(got, tuple) else (got,)
        for g_, w in zip(got, want):
            if isinstance(w, int):
                assert g_ == w, name
                continue
            g_ = gp.asarray(g_).get()
            assert (g_.shape, g_.dtype) == (np.shape(w), np.asarray(w).dtype), name
            np.testing.assert_array_equal(g_, w)


def test_numpy_arrays_are_not_moved_implicitly():
    # as gpunp's own functions: host lists are data, a NumPy array is refused
    for call in (lambda: gl.inv(np.eye(2)), lambda: gl.toeplitz(np.ones(3)),
                 lambda: gl.expm(np.eye(2)), lambda: gl.block_diag(np.eye(2))):
        with pytest.raises(TypeError, match="gpunp.asarray"):
            call()
    assert gl.toeplitz([1, 2, 3]).shape == (3, 3)


def test_structured_solvers():
    rng = np.random.default_rng(7)
    ab = rng.standard_normal((4, 6))
    ab[1] += 5
    b, b2 = rng.standard_normal(6), _data((6, 2), np.complex128)
    for lu in ((1, 2), (2, 1)):
        for rhs in (b, b2):
            _same(gl.solve_banded(lu, gp.asarray(ab), gp.asarray(rhs)),
                  sl.solve_banded(lu, ab, rhs), rhs.dtype)
    abh = np.abs(rng.standard_normal((3, 6)))
    abh[-1] += 5
    _same(gl.solveh_banded(gp.asarray(abh), gp.asarray(b)), sl.solveh_banded(abh, b),
          np.float64)
    low = (abh[::-1] + 0.3j * np.r_[np.zeros((1, 6)), np.ones((2, 6))])
    _same(gl.solveh_banded(gp.asarray(low), gp.asarray(b2), lower=True),
          sl.solveh_banded(low, b2, lower=True), np.complex128)
    c, r, bt = np.array([4.0, 1, 0.5, 0.2]), np.array([4.0, 2, 1, 0.1]), rng.standard_normal(4)
    _same(gl.solve_toeplitz(gp.asarray(c), gp.asarray(bt)), sl.solve_toeplitz(c, bt),
          np.float64)
    _same(gl.solve_toeplitz((gp.asarray(c), gp.asarray(r)), gp.asarray(bt)),
          sl.solve_toeplitz((c, r), bt), np.float64)
    d, e = rng.standard_normal(5), rng.standard_normal(4)
    w, v = gl.eigh_tridiagonal(gp.asarray(d), gp.asarray(e))
    ww, wv = sl.eigh_tridiagonal(d, e)
    _same(w, ww, np.float64)
    _same(abs(v.get()), abs(wv), np.float64)
    for select, rng_ in (("i", (1, 3)), ("v", (-1, 1))):
        _same(gl.eigvalsh_tridiagonal(gp.asarray(d), gp.asarray(e), select=select,
                                      select_range=rng_),
              sl.eigvalsh_tridiagonal(d, e, select=select, select_range=rng_), np.float64)
    a, b6 = rng.standard_normal((6, 3)), rng.standard_normal((6, 2))
    _same(gl.subspace_angles(gp.asarray(a), gp.asarray(b6)), sl.subspace_angles(a, b6),
          np.float64)
    m, em = rng.standard_normal((4, 4)), rng.standard_normal((4, 4))
    for got, want in zip(gl.expm_frechet(gp.asarray(m), gp.asarray(em)),
                         sl.expm_frechet(m, em)):
        _same(got, want, np.float64)


def test_structured_solver_errors_are_scipys():
    cases = [
        lambda M, w: M.solve_banded((1, 1), w(np.ones((2, 3))), w(np.ones(3))),
        lambda M, w: M.solve_banded((1, 1), w(np.zeros((3, 3))), w(np.ones(3))),
        lambda M, w: M.solveh_banded(w(-np.ones((2, 3))), w(np.ones(3))),
        lambda M, w: M.solveh_banded(w(np.array([[0.0, 0.1, 0.1], [1.0, 1.0, -5.0]])),
                                     w(np.ones(3))),
        lambda M, w: M.solve_toeplitz((w(np.array([0.0, 1, 2])), w(np.array([0.0, 3, 4]))),
                                      w(np.ones(3))),
        lambda M, w: M.eigh_tridiagonal(w(np.ones(3)), w(np.ones(2) + 1j)),
    ]
    for call in cases:
        with pytest.raises(Exception) as want:
            call(sl, lambda x: x)
        with pytest.raises(type(want.value)) as got:
            call(gl, gp.asarray)
        assert str(got.value) == str(want.value)


def test_banded_cholesky_and_eigenproblems():
    up = np.array([[7.0, 1, 1, 1], [4, 4, 4, 4]])
    lo = np.array([[4.0, 4, 4, 4], [1, 1, 1, 7]])
    upc = up + np.array([[0, 0.5j, 0.5j, 0.5j], [0, 0, 0, 0]])
    b = np.arange(4.0)
    for ab, lower in ((up, False), (lo, True), (upc, False)):
        cb = gl.cholesky_banded(gp.asarray(ab), lower=lower)
        want = sl.cholesky_banded(ab, lower=lower)
        _same(cb, want, ab.dtype)
        _same(gl.cho_solve_banded((cb, lower), gp.asarray(b)),
              sl.cho_solve_banded((want, lower), b), ab.dtype)
        _same(gl.eigvals_banded(gp.asarray(ab), lower=lower),
              sl.eigvals_banded(ab, lower=lower), np.float64)
    _same(gl.eig_banded(gp.asarray(lo), lower=True, eigvals_only=True, select="i",
                        select_range=(1, 2)),
          sl.eig_banded(lo, lower=True, eigvals_only=True, select="i", select_range=(1, 2)),
          np.float64)
    with pytest.raises(np.linalg.LinAlgError, match="2-th leading minor"):
        gl.cholesky_banded(gp.asarray([[0.0, 1, 1], [1, 1, 1]]))


@pytest.mark.parametrize("n", [3, 12])
def test_lyapunov(n):
    rng = np.random.default_rng(n)
    a = rng.standard_normal((n, n)) / (2 * np.sqrt(n))
    q = rng.standard_normal((n, n))
    q = q + q.T
    for method in (None, "direct", "bilinear"):
        _same(gl.solve_discrete_lyapunov(gp.asarray(a), gp.asarray(q), method),
              sl.solve_discrete_lyapunov(a, q, method), np.float64)
    c = a - 2 * np.eye(n)
    _same(gl.solve_continuous_lyapunov(gp.asarray(c), gp.asarray(q)),
          sl.solve_continuous_lyapunov(c, q), np.float64)
    assert gl.solve_lyapunov is gl.solve_continuous_lyapunov


def test_cdf2rdf():
    rng = np.random.default_rng(3)
    for x in (np.array([[1.0, 2, 3], [0, 4, 5], [0, -5, 4]]), rng.standard_normal((2, 5, 5)),
              rng.standard_normal((4, 4)).astype(np.float32)):
        w, v = np.linalg.eig(x)
        for got, want in zip(gl.cdf2rdf(gp.asarray(w), gp.asarray(v)), sl.cdf2rdf(w, v)):
            _same(got, want, x.dtype)
    with pytest.raises(ValueError, match="complex-conjugate pairs"):
        gl.cdf2rdf(gp.asarray([1 + 1j, 2]), gp.eye(2) + 0j)


def test_errors_reworded_by_scipy_1_18():
    """Errors whose text SciPy 1.18 changed (and pinv/orth/null_space of a
    vector, which raise svd's ValueError): the running SciPy's type and text."""
    vec, half = np.arange(3.0), np.eye(3, dtype=np.float16)
    for name, a in (("svd", vec), ("svdvals", vec), ("pinv", vec), ("orth", vec),
                    ("null_space", vec), ("qr", vec), ("bandwidth", vec), ("bandwidth", half)):
        with pytest.raises(Exception) as want:
            getattr(sl, name)(a)
        with pytest.raises(want.type, match=re.escape(str(want.value))):
            getattr(gl, name)(gp.asarray(a))
