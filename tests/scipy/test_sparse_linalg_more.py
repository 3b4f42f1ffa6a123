"""gpunp.scipy.sparse.linalg's lgmres, gcrotmk and use_solver against SciPy's:
the same solutions (to rounding), info codes, callback counts, recycled
vectors (outer_v, CU) and errors, over sparse, dense and LinearOperator input
of every float and complex dtype."""

import numpy as np
import pytest
import scipy.linalg as L
import scipy.sparse as sp
import scipy.sparse.linalg as sl

import gpunp as gp
import gpunp.scipy.linalg as gL
import gpunp.scipy.sparse as gsp
import gpunp.scipy.sparse.linalg as gl

RNG = np.random.default_rng(7)
N = 30


def _system(dtype, n=N, shift=4.0):
    a = sp.random_array((n, n), density=0.2, rng=RNG) + shift * sp.eye_array(n)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * sp.random_array((n, n), density=0.1, rng=RNG)
    return sp.csr_array(a.astype(dtype)), RNG.standard_normal(n).astype(dtype)


def _solve(name, a, b, **kw):
    """(SciPy's (x, info, calls), gpunp's) for the same system and arguments."""
    out = []
    for lib, A, B in ((sl, a, b), (gl, gsp.csr_array(a), gp.asarray(b))):
        calls = []
        x, info = getattr(lib, name)(A, B, callback=lambda xk: calls.append(1), **kw)
        out.append((gp.asnumpy(x) if isinstance(x, gp.ndarray) else x, info, len(calls)))
    return out


def _close(got, want, dtype):
    tol = 1e-3 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-9
    assert got[0].dtype == want[0].dtype
    np.testing.assert_allclose(got[0], want[0], rtol=tol, atol=tol)
    assert got[1:] == want[1:]


CASES = [
    ("lgmres", {}),
    ("lgmres", dict(maxiter=1, inner_m=3)),
    ("lgmres", dict(inner_m=5, outer_k=2, store_outer_Av=False)),
    ("lgmres", dict(inner_m=4, prepend_outer_v=True, rtol=1e-8)),
    ("gcrotmk", {}),
    ("gcrotmk", dict(m=4, k=2, maxiter=3, rtol=1e-10)),
    ("gcrotmk", dict(m=5, k=3, truncate="smallest", rtol=1e-9)),
    ("gcrotmk", dict(m=3, atol=1e-3, rtol=0.0, discard_C=True)),
]


@pytest.mark.parametrize("name, kw", CASES)
@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_like_scipy(name, kw, dtype):
    a, b = _system(dtype)
    want, got = _solve(name, a, b, **kw)
    _close(got, want, dtype)


@pytest.mark.parametrize("name", ["lgmres", "gcrotmk"])
@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_single_precision_and_operands(name, dtype):
    a, b = _system(dtype)
    want, got = _solve(name, a, b, rtol=1e-4)
    _close(got, want, dtype)
    # a dense matrix, a LinearOperator, a preconditioner and x0 as SciPy takes them
    d = a.toarray()
    m = np.diag(1 / d.diagonal())
    x0 = np.ones(N, dtype=dtype)
    xs, i = getattr(sl, name)(d, b, x0=x0, M=m, rtol=1e-4)
    op = gl.LinearOperator(d.shape, matvec=lambda v: gp.asarray(d) @ v, dtype=dtype)
    xg, j = getattr(gl, name)(op, gp.asarray(b), x0=gp.asarray(x0), M=gp.asarray(m),
                              rtol=1e-4)
    assert i == j
    np.testing.assert_allclose(xg.get(), xs, rtol=1e-3, atol=1e-3)


def test_recycled_vectors():
    a, b = _system(np.float64)
    # lgmres keeps its augmentation pairs in the caller's list
    outs, outg = [], []
    xs, _ = sl.lgmres(a, b, inner_m=4, outer_k=2, outer_v=outs)
    xg, _ = gl.lgmres(gsp.csr_array(a), gp.asarray(b), inner_m=4, outer_k=2, outer_v=outg)
    assert len(outs) == len(outg) == 2
    for (zs, ws), (zg, wg) in zip(outs, outg):
        np.testing.assert_allclose(zg.get(), zs, atol=1e-8)
        np.testing.assert_allclose(wg.get(), ws, atol=1e-8)
    # gcrotmk's CU, reused for a second right-hand side (c given or recomputed)
    cus, cug = [], []
    sl.gcrotmk(a, b, m=6, k=4, CU=cus)
    gl.gcrotmk(gsp.csr_array(a), gp.asarray(b), m=6, k=4, CU=cug)
    assert len(cus) == len(cug) and cus[-1][0] is None and cug[-1][0] is None
    b2 = RNG.standard_normal(N)
    for discard in (False, True):
        s_cu, g_cu = list(cus), list(cug)
        xs, i = sl.gcrotmk(a, b2, m=6, k=4, CU=s_cu, discard_C=discard, rtol=1e-10)
        xg, j = gl.gcrotmk(gsp.csr_array(a), gp.asarray(b2), m=6, k=4, CU=g_cu,
                           discard_C=discard, rtol=1e-10)
        assert np.linalg.norm(a @ xg.get() - b2) <= 1e-10 * np.linalg.norm(b2) * 1.01
        assert abs(i - j) <= 1 and len(s_cu) == len(g_cu)


def test_zero_rhs_and_errors():
    a, _ = _system(np.float64)
    for name in ("lgmres", "gcrotmk"):
        xs, i = getattr(sl, name)(a, np.zeros(N))
        xg, j = getattr(gl, name)(gsp.csr_array(a), gp.zeros(N))
        assert i == j == 0 and not xg.get().any() and not xs.any()
        bad = [dict(b=np.full(N, np.nan)), dict(atol=-1.0), dict(b=np.ones(N + 1))]
        if name == "gcrotmk":
            bad.append(dict(truncate="newest"))
        for kw in bad:
            b = kw.pop("b", np.ones(N))
            with pytest.raises(ValueError):
                getattr(sl, name)(a, b, **kw)
            with pytest.raises(ValueError):
                getattr(gl, name)(gsp.csr_array(a), gp.asarray(b), **kw)
    with pytest.raises(RuntimeError, match="zero vector"):
        sl.lgmres(a, np.ones(N), M=sl.LinearOperator(a.shape, matvec=lambda v: 0 * v))
    with pytest.raises(RuntimeError, match="zero vector"):
        gl.lgmres(gsp.csr_array(a), gp.ones(N),
                  M=gl.LinearOperator(a.shape, matvec=lambda v: 0 * v, dtype=np.float64))


def test_use_solver_takes_scipys_keywords():
    for kw in (dict(useUmfpack=False), dict(assumeSortedIndices=True), dict(other=1), {}):
        assert gl.use_solver(**kw) is None
    with pytest.raises(TypeError):
        gl.use_solver(False)
    with pytest.raises(TypeError):
        sl.use_solver(False)


# ---- funm_multiply_krylov ---------------------------------------------------------

FUNM = [
    ({}, "general"), (dict(restart_every_m=7), "general"), (dict(t=0.3), "her"),
    (dict(restart_every_m=6, max_restarts=3, rtol=1e-12), "her"),
]


@pytest.mark.parametrize("kw, structure", FUNM)
def test_funm_multiply_krylov_like_scipy(kw, structure):
    n = 40
    a = sp.random_array((n, n), density=0.15, rng=RNG)
    if structure == "her":
        a = a + a.T
    b = RNG.standard_normal(n)
    want = sl.funm_multiply_krylov(L.expm, a, b, assume_a=structure, **kw)
    got = gl.funm_multiply_krylov(gL.expm, gsp.csr_array(a), gp.asarray(b),
                                  assume_a=structure, **kw)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.get(), want, rtol=1e-8, atol=1e-9 * np.abs(want).max())
    # a polynomial of gpunp operations, on a complex64 system, with breakdown (n < m)
    c = (sp.random_array((5, 5), density=0.5, rng=RNG) * (1 + 1j)).astype(np.complex64)
    v = np.ones(5, np.complex64)
    want = sl.funm_multiply_krylov(lambda X: X @ X - X, c, v)
    got = gl.funm_multiply_krylov(lambda X: X @ X - X, gsp.csr_array(c), gp.asarray(v))
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.get(), want, rtol=1e-4, atol=1e-4)


def test_funm_multiply_krylov_errors():
    a, b = sp.eye_array(4), np.ones(4)
    for kw in (dict(assume_a="sym"), dict(restart_every_m=0), dict(max_restarts=0),
               dict(atol=-1.0), dict(b=np.ones((4, 1)))):
        bb = kw.pop("b", b)
        with pytest.raises(ValueError):
            sl.funm_multiply_krylov(np.exp, a, bb, **kw)
        with pytest.raises(ValueError):
            gl.funm_multiply_krylov(gp.exp, gsp.csr_array(a), gp.asarray(bb), **kw)
    assert not gl.funm_multiply_krylov(gp.exp, gsp.csr_array(a), gp.zeros(4)).get().any()
