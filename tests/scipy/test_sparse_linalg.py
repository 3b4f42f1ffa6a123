"""gpunp.scipy.sparse.linalg against scipy.sparse.linalg: operators, the
Krylov solvers' behaviour, arguments and errors. Random inputs are
tests/property/test_sparse_linalg.py's."""

import numpy as np
import pytest
import scipy.sparse.linalg as sl

import gpunp as gp
import gpunp.scipy.sparse.linalg as gl
from property.sparse_standin import CSR, random_csr

RNG = np.random.default_rng(1234)


def spd(n, dtype=np.float64):
    b = RNG.standard_normal((n, n))
    return (b @ b.T + n * np.eye(n)).astype(dtype)


def nonsym(n, dtype=np.float64):
    a = RNG.standard_normal((n, n)) + n * np.eye(n)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * RNG.standard_normal((n, n))
    return a.astype(dtype)


# ---- LinearOperator ----------------------------------------------------------

def test_linear_operator_from_callables_and_dtype_inference():
    a = RNG.standard_normal((3, 4))
    op = gl.LinearOperator((3, 4), matvec=lambda v: gp.asarray(a) @ v,
                           rmatvec=lambda v: gp.asarray(a.T) @ v)
    ref = sl.LinearOperator((3, 4), matvec=lambda v: a @ v, rmatvec=lambda v: a.T @ v)
    assert op.dtype == ref.dtype == np.float64
    assert repr(op) == repr(ref)
    x = RNG.standard_normal(4)
    np.testing.assert_allclose((op @ gp.asarray(x)).get(), ref @ x)
    np.testing.assert_allclose(op.matvec(gp.asarray(x[:, None])).get(), ref.matvec(x[:, None]))
    X = RNG.standard_normal((4, 2))
    np.testing.assert_allclose(op.matmat(gp.asarray(X)).get(), ref.matmat(X))
    y = RNG.standard_normal(3)
    np.testing.assert_allclose(op.rmatvec(gp.asarray(y)).get(), ref.rmatvec(y))
    np.testing.assert_allclose((op.H @ gp.asarray(y)).get(), ref.H @ y)
    np.testing.assert_allclose((op.T @ gp.asarray(y)).get(), ref.T @ y)
    np.testing.assert_allclose((gp.asarray(y) @ op).get(), y @ ref)


def test_linear_operator_algebra_matches_scipy():
    a = nonsym(4, np.complex128)
    b = RNG.standard_normal((4, 4)).astype(np.float32)
    ga, gb = gl.aslinearoperator(gp.asarray(a)), gl.aslinearoperator(gp.asarray(b))
    sa, sb = sl.aslinearoperator(a), sl.aslinearoperator(b)
    x = RNG.standard_normal(4) + 1j * RNG.standard_normal(4)
    cases = [lambda p, q: p + q, lambda p, q: p - q, lambda p, q: p * q, lambda p, q: p @ q,
             lambda p, q: 2.5 * p, lambda p, q: p * (1 - 2j), lambda p, q: -q, lambda p, q: p / 4,
             lambda p, q: p ** 3, lambda p, q: (p @ q).H, lambda p, q: (p + 2 * q).T,
             lambda p, q: q.H * p]
    for f in cases:
        g, s = f(ga, gb), f(sa, sb)
        assert g.dtype == s.dtype and g.shape == s.shape and type(g).__name__ == type(s).__name__
        np.testing.assert_allclose((g @ gp.asarray(x)).get(), s @ x, rtol=1e-6)
        np.testing.assert_allclose(g.rmatvec(gp.asarray(x)).get(), s.rmatvec(x), rtol=1e-6)


def test_linear_operator_subclass_and_aslinearoperator_of_sparse():
    class Diag(gl.LinearOperator):
        def __init__(self, d):
            super().__init__(d.dtype, (len(d), len(d)))
            self.d = d

        def _matvec(self, x):
            return self.d * x.ravel()

        def _adjoint(self):
            return self

    d = gp.asarray([1.0, 2.0, 3.0])
    X = gp.asarray(RNG.standard_normal((3, 2)))
    np.testing.assert_allclose(Diag(d).matmat(X).get(), np.diag([1, 2, 3.]) @ X.get())
    np.testing.assert_allclose(Diag(d).rmatvec(gp.ones(3)).get(), [1, 2, 3])
    m = random_csr(RNG, 5, 3, 0.5, duplicates=True)
    op, ref = gl.aslinearoperator(CSR(m)), sl.aslinearoperator(m)
    assert op.shape == ref.shape and op.dtype == ref.dtype
    x, y = RNG.standard_normal(3), RNG.standard_normal(5)
    np.testing.assert_allclose((op @ gp.asarray(x)).get(), ref @ x)
    np.testing.assert_allclose(op.rmatvec(gp.asarray(y)).get(), ref.rmatvec(y))

    class Duck:
        shape = (2, 2)
        dtype = np.dtype(np.float32)

        def matvec(self, v):
            return 2 * v
    assert gl.aslinearoperator(Duck()).dtype == np.float32
    np.testing.assert_allclose((gl.aslinearoperator(Duck()) @ gp.ones(2)).get(), [2, 2])


def test_linear_operator_errors_are_scipys():
    op = gl.aslinearoperator(gp.ones((3, 4)))
    ref = sl.aslinearoperator(np.ones((3, 4)))
    calls = [lambda o, xp: o.matvec(xp.ones(3)), lambda o, xp: o.rmatvec(xp.ones(4)),
             lambda o, xp: o.matmat(xp.ones(4)), lambda o, xp: o.matmat(xp.ones((3, 2))),
             lambda o, xp: o @ 2, lambda o, xp: 2 @ o, lambda o, xp: o / xp.ones(2),
             lambda o, xp: o + o.T, lambda o, xp: o @ o, lambda o, xp: o ** 2,
             lambda o, xp: o.dot(xp.ones((4, 1, 1)))]
    for call in calls:
        with pytest.raises(Exception) as want:
            call(ref, np)
        with pytest.raises(want.type):
            call(op, gp)
    with pytest.raises(ValueError, match="invalid shape"):
        gl.LinearOperator((3,), matvec=lambda v: v)
    with pytest.raises(TypeError, match="type not understood"):
        gl.aslinearoperator("not an operator")
    with pytest.raises(ValueError, match="ndim <= 2"):
        gl.aslinearoperator(gp.ones((2, 2, 2)))
    with pytest.raises(NotImplementedError):
        gl.LinearOperator((2, 2), matvec=lambda v: v).rmatvec(gp.ones(2))
    with pytest.warns(RuntimeWarning, match="at least one of _matvec and _matmat"):
        class Empty(gl.LinearOperator):
            pass
        Empty(np.float64, (2, 2))


# ---- Krylov solvers ------------------------------------------------------------

SOLVERS = {"cg": spd, "cgs": nonsym, "bicg": nonsym, "bicgstab": nonsym, "gmres": nonsym,
           "minres": spd}


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_solver_matches_scipy_with_x0_tolerances_and_callback(name):
    n = 12
    a = SOLVERS[name](n)
    b, x0 = RNG.standard_normal(n), RNG.standard_normal(n)
    kw = dict(x0=x0, rtol=1e-9, maxiter=200)
    if name != "minres":
        kw["atol"] = 1e-12
    if name == "gmres":
        kw["callback_type"] = "x"
    seen = {"gp": 0, "sp": 0}
    xs, infos = getattr(sl, name)(a, b, callback=lambda _: seen.__setitem__("sp", seen["sp"] + 1),
                                  **kw)
    xg, infog = getattr(gl, name)(gp.asarray(a), gp.asarray(b), callback=lambda _: seen.__setitem__(
        "gp", seen["gp"] + 1), **{k: (gp.asarray(v) if k == "x0" else v) for k, v in kw.items()})
    assert isinstance(xg, gp.ndarray) and xg.dtype == xs.dtype and infog == infos == 0
    np.testing.assert_allclose(xg.get(), xs, rtol=1e-7, atol=1e-9)
    assert abs(seen["gp"] - seen["sp"]) <= 1


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_solver_with_preconditioner_on_a_sparse_operator(name):
    n = 20
    a = SOLVERS[name](n) * (RNG.random((n, n)) < 0.3) + 3 * n * np.eye(n)
    a = (a + a.T) / 2 if SOLVERS[name] is spd else a
    m = random_csr(RNG, n, n, 0.0)  # structure only: the matrix is a's
    m = type(m)(a)
    precond = np.diag(1 / np.diag(a))
    b = RNG.standard_normal(n)
    xs, infos = getattr(sl, name)(m, b, M=precond)
    xg, infog = getattr(gl, name)(CSR(m), gp.asarray(b), M=gp.asarray(precond))
    assert infog == infos == 0
    np.testing.assert_allclose(xg.get(), xs, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_solver_maxiter_zero_rhs_and_dtypes(name):
    n = 10
    a = SOLVERS[name](n)
    b = RNG.standard_normal(n)
    xs, infos = getattr(sl, name)(a, b, maxiter=2)
    xg, infog = getattr(gl, name)(gp.asarray(a), gp.asarray(b), maxiter=2)
    assert infog == infos
    np.testing.assert_allclose(xg.get(), xs, rtol=1e-8, atol=1e-10)
    xs, infos = getattr(sl, name)(a, np.zeros(n))
    xg, infog = getattr(gl, name)(gp.asarray(a), gp.zeros(n))
    assert infog == infos == 0 and not xg.get().any()
    # integer A and b solve in float64; float32 stays float32 (but minres's float64)
    ai = np.round(a).astype(np.int64)
    ai += 3 * n * np.eye(n, dtype=np.int64) if name in ("cg", "minres") else 0
    xs, _ = getattr(sl, name)(ai, np.arange(n))
    xg, _ = getattr(gl, name)(gp.asarray(ai), gp.arange(n))
    assert xg.dtype == xs.dtype
    xs, _ = getattr(sl, name)(a.astype(np.float32), b.astype(np.float32))
    xg, _ = getattr(gl, name)(gp.asarray(a.astype(np.float32)), gp.asarray(b, dtype=np.float32))
    assert xg.dtype == xs.dtype


@pytest.mark.parametrize("name", ["bicg", "bicgstab", "cgs", "gmres"])
def test_complex_nonsymmetric(name):
    n = 10
    a = nonsym(n, np.complex128)
    b = RNG.standard_normal(n) + 1j * RNG.standard_normal(n)
    xs, infos = getattr(sl, name)(a, b, rtol=1e-10)
    xg, infog = getattr(gl, name)(gp.asarray(a), gp.asarray(b), rtol=1e-10)
    assert infog == infos == 0 and xg.dtype == np.complex128
    np.testing.assert_allclose(xg.get(), xs, rtol=1e-8, atol=1e-10)


def test_gmres_restart_and_legacy_callback():
    n = 30
    a = nonsym(n) - 0.9 * n * np.eye(n)
    b = RNG.standard_normal(n)
    for kw in [dict(restart=5, maxiter=3), dict(restart=50), dict(restart=4, maxiter=100)]:
        xs, infos = sl.gmres(a, b, **kw)
        xg, infog = gl.gmres(gp.asarray(a), gp.asarray(b), **kw)
        assert infog == infos
        np.testing.assert_allclose(xg.get(), xs, rtol=1e-6, atol=1e-8)
    got, want = [], []
    with pytest.warns(DeprecationWarning, match="callback_type"):
        gl.gmres(gp.asarray(a), gp.asarray(b), restart=5, maxiter=7, callback=got.append)
    with pytest.warns(DeprecationWarning):
        sl.gmres(a, b, restart=5, maxiter=7, callback=want.append)
    np.testing.assert_allclose(got, want, rtol=1e-6)
    with pytest.raises(ValueError, match="Unknown callback_type"):
        gl.gmres(gp.asarray(a), gp.asarray(b), callback_type="nope")


def test_solver_errors_are_scipys():
    a, b = gp.asarray(spd(4)), gp.ones(4)
    for name in sorted(SOLVERS):
        fn = getattr(gl, name)
        with pytest.raises(ValueError, match="expected square matrix"):
            fn(gp.ones((3, 4)), gp.ones(3))
        with pytest.raises(ValueError, match="incompatible"):
            fn(a, gp.ones(5))
        with pytest.raises(ValueError, match="incompatible"):
            fn(a, b, x0=gp.ones(3))
        with pytest.raises(ValueError, match="different shapes"):
            fn(a, b, M=gp.eye(3))
        if name != "minres":
            with pytest.raises(ValueError, match="invalid `atol`"):
                fn(a, b, atol=-1.0)
    with pytest.raises(ValueError, match="indefinite preconditioner"):
        gl.minres(a, b, M=-gp.eye(4))
    with pytest.raises(ValueError, match="non-symmetric matrix"):
        gl.minres(gp.asarray(nonsym(4)), b, check=True)


def test_breakdown_codes_match_scipy():
    # b orthogonal to A b: BiCG's shadow residual meets a zero inner product
    a = np.array([[0., 1.], [-1., 0.]])
    b = np.array([1., 0.])
    for name in ("bicg", "bicgstab", "cgs"):
        xs, infos = getattr(sl, name)(a, b)
        xg, infog = getattr(gl, name)(gp.asarray(a), gp.asarray(b))
        assert infog == infos
        np.testing.assert_allclose(xg.get(), xs)
