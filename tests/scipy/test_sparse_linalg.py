"""gpunp.scipy.sparse.linalg against scipy.sparse.linalg: operators, the
Krylov solvers' behaviour, arguments and errors. Random inputs are
tests/property/test_sparse_linalg.py's."""

import warnings

import numpy as np
import pytest
import scipy.sparse.linalg as sl

import gpunp as gp
import gpunp.scipy.sparse.linalg as gl
from property.sparse_strategies import FORMATS, assert_same, random_host, to_pair

RNG = np.random.default_rng(1234)

# the sparse inputs: gpunp's classes of every format, arrays and matrices
FORMS = [(f, a) for a in (True, False) for f in FORMATS]


def dev(i, host):
    """gpunp's sparse copy of `host` in the i-th form (cycling)."""
    return to_pair(host, *FORMS[i % len(FORMS)])[0]


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
    # a column vector: SciPy 1.18 warns FutureWarning (to go in 1.20), 1.17 does not
    for name, v in (("matvec", x[:, None]), ("rmatvec", RNG.standard_normal((3, 1)))):
        with warnings.catch_warnings(record=True) as gw:
            warnings.simplefilter("always")
            got = getattr(op, name)(gp.asarray(v))
        with warnings.catch_warnings(record=True) as sw:
            warnings.simplefilter("always")
            want = getattr(ref, name)(v)
        np.testing.assert_allclose(got.get(), want)
        assert [(w.category, str(w.message)) for w in gw] == \
            [(w.category, str(w.message)) for w in sw]
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
    m = random_host(RNG, 5, 3, 0.5, duplicates=True)
    op, ref = gl.aslinearoperator(dev(1, m)), sl.aslinearoperator(m)
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


def test_cg_complex_and_mixed_dtypes_take_the_ufunc_updates():
    # cg updates real vectors of one dtype by its own kernels; a complex
    # system, and a float64 preconditioner of a float32 one, by in-place ufuncs
    n = 12
    a = RNG.standard_normal((n, n)) + 1j * RNG.standard_normal((n, n))
    a = a @ a.conj().T + n * np.eye(n)
    b = RNG.standard_normal(n) + 1j * RNG.standard_normal(n)
    xs, infos = sl.cg(a, b, rtol=1e-10)
    xg, infog = gl.cg(gp.asarray(a), gp.asarray(b), rtol=1e-10)
    assert infog == infos == 0 and xg.dtype == xs.dtype
    np.testing.assert_allclose(xg.get(), xs, rtol=1e-9, atol=1e-12)
    s32 = spd(n).astype(np.float32)
    m = np.diag(1 / np.diag(s32.astype(np.float64)))
    xs, infos = sl.cg(s32, b.real.astype(np.float32), M=m, rtol=1e-5)
    xg, infog = gl.cg(gp.asarray(s32), gp.asarray(b.real.astype(np.float32)), M=gp.asarray(m),
                      rtol=1e-5)
    assert infog == infos == 0 and xg.dtype == xs.dtype == np.float32
    np.testing.assert_allclose(xg.get(), xs, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_solver_with_preconditioner_on_a_sparse_operator(name):
    n = 20
    a = SOLVERS[name](n) * (RNG.random((n, n)) < 0.3) + 3 * n * np.eye(n)
    a = (a + a.T) / 2 if SOLVERS[name] is spd else a
    m = random_host(RNG, n, n, 0.0)  # structure only: the matrix is a's
    m = type(m)(a)
    precond = np.diag(1 / np.diag(a))
    b = RNG.standard_normal(n)
    xs, infos = getattr(sl, name)(m, b, M=precond)
    xg, infog = getattr(gl, name)(dev(2, m), gp.asarray(b), M=gp.asarray(precond))
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


# ---- least squares ---------------------------------------------------------------

@pytest.mark.parametrize("shape", [(15, 6), (6, 15)])
@pytest.mark.parametrize("name", ["lsqr", "lsmr"])
def test_least_squares_match_scipy(name, shape):
    a = RNG.standard_normal(shape)
    b = RNG.standard_normal(shape[0])
    for kw in [{}, {"damp": 0.7}, {"x0": RNG.standard_normal(shape[1])},
               {"atol": 1e-3, "btol": 1e-3}, {"conlim": 2.0}]:
        want = getattr(sl, name)(a, b, **kw)
        got = getattr(gl, name)(dev(3, a), gp.asarray(b),
                                **{k: (gp.asarray(v) if k == "x0" else v) for k, v in kw.items()})
        assert got[1:3] == want[1:3]  # istop, itn
        np.testing.assert_allclose(got[0].get(), want[0], rtol=1e-9, atol=1e-11)
        tail = [v for v in want[3:] if not isinstance(v, np.ndarray)]
        np.testing.assert_allclose([g for g in got[3:] if not isinstance(g, gp.ndarray)],
                                   tail, rtol=1e-8, atol=1e-9)
    want = sl.lsqr(a, b, calc_var=True)[-1]
    np.testing.assert_allclose(gl.lsqr(gp.asarray(a), gp.asarray(b), calc_var=True)[-1].get(),
                               want, rtol=1e-8)


def test_least_squares_complex_zero_rhs_and_errors():
    a = RNG.standard_normal((9, 4)) + 1j * RNG.standard_normal((9, 4))
    b = RNG.standard_normal(9) + 1j * RNG.standard_normal(9)
    for name in ("lsqr", "lsmr"):
        want = getattr(sl, name)(a, b)
        got = getattr(gl, name)(gp.asarray(a), gp.asarray(b))
        assert got[0].dtype == want[0].dtype and got[1:3] == want[1:3]
        np.testing.assert_allclose(got[0].get(), want[0], rtol=1e-9)
        want = getattr(sl, name)(a.real, np.zeros(9))
        got = getattr(gl, name)(gp.asarray(a.real), gp.zeros(9))
        assert got[1:3] == want[1:3] and not got[0].get().any()
        with pytest.raises(ValueError):
            getattr(gl, name)(gp.asarray(a), gp.ones(8))


# ---- norm, onenormest, expm_multiply ----------------------------------------------

def test_norm_matches_scipy_on_non_canonical_input():
    m = random_host(RNG, 7, 5, 0.4, duplicates=True, unsorted=True, index_dtype=np.int64)
    g = dev(4, m)
    cases = [(None, None), ("fro", None), (1, None), (-1, None), (np.inf, None),
             (-np.inf, None), (1, (1, 0)), (np.inf, (1, 0)), (-1, (0, 1))]
    cases += [(o, a) for o in (None, 1, 2, 3, 0, np.inf, -np.inf, 0.5) for a in (0, 1, -1)]
    for ord_, axis in cases:
        np.testing.assert_allclose(gl.norm(g, ord_, axis).get(), sl.norm(m, ord_, axis),
                                   rtol=1e-12, err_msg=f"{ord_} {axis}")
    np.testing.assert_allclose(gl.norm(g, 2).get(), sl.norm(m, 2), rtol=1e-10)
    with pytest.raises(TypeError, match="input is not sparse"):
        gl.norm(gp.ones((2, 2)))
    for ord_, axis, err in [(3, None, ValueError), ("fro", 0, ValueError),
                            (1, (0, 0), ValueError), (1, (0, 1, 1), ValueError),
                            (-2, None, NotImplementedError), (1, 2, ValueError)]:
        with pytest.raises(err):
            sl.norm(m, ord_, axis)
        with pytest.raises(err):
            gl.norm(g, ord_, axis)


def test_onenormest_bounds_and_exact_small_case():
    for n, t in [(6, 6), (30, 2), (30, 3)]:
        a = RNG.standard_normal((n, n))
        exact = np.abs(a).sum(axis=0).max()
        est, v, w = gl.onenormest(gp.asarray(a), t=t, compute_v=True, compute_w=True)
        assert est <= exact * (1 + 1e-12) and est >= exact / 3
        np.testing.assert_allclose(gp.abs(w).sum().get(), est, rtol=1e-12)
        np.testing.assert_allclose((gp.asarray(a) @ v).get(), w.get(), rtol=1e-12)
        if t >= n:
            assert est == pytest.approx(sl.onenormest(a, t=t))
    op = gl.aslinearoperator(gp.asarray(a))
    assert gl.onenormest(op) <= np.abs(a).sum(axis=0).max() * (1 + 1e-12)
    with pytest.raises(ValueError):
        gl.onenormest(gp.ones((3, 4)))


@pytest.mark.parametrize("scale", [0.3, 4.0])
def test_expm_multiply_matches_scipy(scale):
    n = 8
    a = scale * RNG.standard_normal((n, n))
    b, B = RNG.standard_normal(n), RNG.standard_normal((n, 2))
    np.testing.assert_allclose(gl.expm_multiply(gp.asarray(a), gp.asarray(b)).get(),
                               sl.expm_multiply(a, b), rtol=1e-10, atol=1e-12)
    m = sp_csr(a * (RNG.random((n, n)) < 0.4))
    np.testing.assert_allclose(gl.expm_multiply(dev(5, m), gp.asarray(B)).get(),
                               sl.expm_multiply(m, B), rtol=1e-10, atol=1e-12)
    kw = dict(start=0.5, stop=2, num=4, endpoint=False)
    got = gl.expm_multiply(gp.asarray(a), gp.asarray(B), **kw)
    want = sl.expm_multiply(a, B, **kw)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.get(), want, rtol=1e-9, atol=1e-9 * np.abs(want).max())
    with pytest.warns(UserWarning, match="Provide `traceA`"):
        got = gl.expm_multiply(gl.aslinearoperator(gp.asarray(a)), gp.asarray(b))
    np.testing.assert_allclose(got.get(), sl.expm_multiply(a, b), rtol=1e-9)
    got = gl.expm_multiply(gl.aslinearoperator(gp.asarray(a)), gp.asarray(b),
                           traceA=np.trace(a))
    np.testing.assert_allclose(got.get(), sl.expm_multiply(a, b), rtol=1e-9)
    with pytest.raises(ValueError):
        gl.expm_multiply(gp.ones((2, 3)), gp.ones(3))


def sp_csr(d):
    import scipy.sparse as sp
    return sp.csr_array(d)


# ---- eigsh, svds, lobpcg --------------------------------------------------------

@pytest.mark.parametrize("which", ["LM", "SM", "LA", "SA", "BE"])
def test_eigsh_matches_scipy(which):
    n = 30
    b = RNG.standard_normal((n, n))
    a = b + b.T
    w, v = sl.eigsh(a, k=3, which=which)
    wg, vg = gl.eigsh(gp.asarray(a), k=3, which=which)
    np.testing.assert_allclose(wg.get(), w, rtol=1e-9)
    np.testing.assert_allclose(np.abs(np.sum(v * vg.get(), axis=0)), 1, rtol=1e-7)
    w = sl.eigsh(a, k=3, which=which, return_eigenvectors=False)
    np.testing.assert_allclose(gl.eigsh(dev(6, a), k=3, which=which,
                                        return_eigenvectors=False).get(), w, rtol=1e-9)


def test_eigsh_complex_operator_and_errors():
    n = 30
    b = RNG.standard_normal((n, n)) + 1j * RNG.standard_normal((n, n))
    a = b + b.conj().T
    w = np.sort(sl.eigsh(a, k=4, which="LA")[0])
    wg, vg = gl.eigsh(gl.aslinearoperator(gp.asarray(a)), k=4, which="LA")
    np.testing.assert_allclose(wg.get(), w, rtol=1e-9)
    np.testing.assert_allclose(a @ vg.get(), vg.get() * wg.get(), atol=1e-8)
    with pytest.raises(ValueError, match="k must be greater than 0"):
        gl.eigsh(gp.asarray(a), k=0)
    with pytest.raises(ValueError, match="which must be one of"):
        gl.eigsh(gp.asarray(a), k=2, which="XX")
    with pytest.raises(ValueError, match="expected square matrix"):
        gl.eigsh(gp.ones((4, 3)), k=1)
    with pytest.raises(NotImplementedError):
        gl.eigsh(gp.asarray(a), k=2, M=gp.eye(n))
    with pytest.warns(RuntimeWarning, match="k >= N"):
        w = gl.eigsh(gp.asarray(a.real), k=n, return_eigenvectors=False)
    np.testing.assert_allclose(np.sort(w.get()), np.linalg.eigvalsh(a.real), rtol=1e-9)
    with pytest.raises(gl.ArpackNoConvergence):
        gl.eigsh(gp.asarray(a.real), k=2, which="SM", maxiter=1, ncv=5)


@pytest.mark.parametrize("shape", [(30, 12), (12, 30)])
def test_svds_matches_scipy(shape):
    a = RNG.standard_normal(shape)
    for which in ("LM", "SM"):
        u, s, vh = sl.svds(a, k=3, which=which)
        ug, sg, vhg = gl.svds(dev(7, a), k=3, which=which)
        np.testing.assert_allclose(sg.get(), s, rtol=1e-9)
        np.testing.assert_allclose(np.abs(np.sum(u * ug.get(), axis=0)), 1, rtol=1e-7)
        np.testing.assert_allclose(np.abs(np.sum(vh * vhg.get(), axis=1)), 1, rtol=1e-7)
    np.testing.assert_allclose(gl.svds(gp.asarray(a), k=2, return_singular_vectors=False).get(),
                               sl.svds(a, k=2, return_singular_vectors=False), rtol=1e-9)
    ug, _, none = gl.svds(gp.asarray(a), k=2, return_singular_vectors="u")
    assert none is None and ug.shape == (shape[0], 2)
    for bad in [dict(k=0), dict(k=min(shape)), dict(which="LA"), dict(solver="nope")]:
        with pytest.raises(ValueError):
            sl.svds(a, **bad)
        with pytest.raises(ValueError):
            gl.svds(gp.asarray(a), **bad)


def test_lobpcg_matches_scipy():
    n = 50
    a = np.diag(np.arange(1, n + 1.0)) + 0.01 * np.ones((n, n))
    X = RNG.standard_normal((n, 3))
    for largest in (True, False):
        w, _ = sl.lobpcg(a, X, largest=largest, tol=1e-9, maxiter=500)
        wg, vg = gl.lobpcg(gp.asarray(a), gp.asarray(X), largest=largest, tol=1e-9,
                           maxiter=500)
        np.testing.assert_allclose(wg.get(), w, rtol=1e-8)
        np.testing.assert_allclose(a @ vg.get(), vg.get() * wg.get(), atol=1e-7)
    # a preconditioner and the histories
    M = gp.asarray(np.diag(1 / np.arange(1, n + 1.0)))
    wg, vg, lh, rh = gl.lobpcg(gp.asarray(a), gp.asarray(X), M=M, largest=False, tol=1e-9,
                               maxiter=200, retLambdaHistory=True,
                               retResidualNormsHistory=True)
    np.testing.assert_allclose(wg.get(), np.linalg.eigvalsh(a)[:3], rtol=1e-8)
    assert len(lh) == len(rh) >= 2


# ---- direct solvers -----------------------------------------------------------------

def test_spsolve_splu_factorized_match_scipy():
    import scipy.sparse as sp
    n = 12
    m = random_host(RNG, n, n, 0.3, duplicates=True, unsorted=True)
    m = sp.csr_array(m.toarray() + 3 * np.eye(n))
    b, B = RNG.standard_normal(n), RNG.standard_normal((n, 3))
    for rhs in (b, B, b[:, None]):
        want = sl.spsolve(m, rhs)
        got = gl.spsolve(dev(8, m), gp.asarray(rhs))
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(got.get(), want, rtol=1e-10)
    # a sparse b: a sparse x of A's class where A is CSR or CSC, else a csc_array;
    # a sparse b of one column: a vector
    for i, form in enumerate(FORMS):
        g, s = to_pair(m, *form)
        for rhs in (B, B[:, :1]):
            gb, sb = to_pair(rhs, *FORMS[i + 3 - len(FORMS)])
            assert_same(gl.spsolve(g, gb), sl.spsolve(s, sb), rtol=1e-10)
    lu, lug = sl.splu(sp.csc_array(m)), gl.splu(dev(9, m))
    for trans in "NTH":
        for rhs in (b, B):
            np.testing.assert_allclose(lug.solve(gp.asarray(rhs), trans).get(),
                                       lu.solve(rhs, trans), rtol=1e-10)
    pr = np.zeros((n, n))
    pr[lug.perm_r.get(), np.arange(n)] = 1
    pc = np.zeros((n, n))
    pc[np.arange(n), lug.perm_c.get()] = 1
    # SuperLU's column order is its own: the factors' class, and P A Q = L U
    assert type(lug.L.get()) is type(lu.L) and type(lug.U.get()) is type(lu.U)
    L, U = lug.L.toarray().get(), lug.U.toarray().get()
    np.testing.assert_allclose(pr @ m.toarray() @ pc, L @ U, atol=1e-12)
    assert np.allclose(L, np.tril(L)) and np.allclose(U, np.triu(U)) and lug.shape == (n, n)
    np.testing.assert_allclose(gl.factorized(dev(10, m))(gp.asarray(b)).get(), sl.spsolve(m, b),
                               rtol=1e-10)
    ilu = gl.spilu(dev(11, m), drop_tol=1e-2)
    x, info = gl.gmres(dev(12, m), gp.asarray(b), M=gl.LinearOperator((n, n), ilu.solve),
                       rtol=1e-10)
    assert info == 0
    np.testing.assert_allclose(x.get(), sl.spsolve(m, b), rtol=1e-8)


def test_direct_solver_errors_and_singular():
    import scipy.sparse as sp
    s = np.diag([1.0, 0.0, 2.0])
    with pytest.warns(gl.MatrixRankWarning, match="exactly singular"):
        x = gl.spsolve(gp.asarray(s), gp.ones(3))
    with pytest.warns(sl.MatrixRankWarning):
        want = sl.spsolve(sp.csr_array(s), np.ones(3))
    assert np.isnan(x.get()).all() and np.isnan(want).all()
    with pytest.raises(RuntimeError, match="exactly singular"):
        sl.splu(sp.csc_array(s))
    with pytest.raises(RuntimeError, match="exactly singular"):
        gl.splu(gp.asarray(s))
    with pytest.raises(ValueError, match="matrix must be square"):
        gl.spsolve(gp.ones((2, 3)), gp.ones(2))
    with pytest.raises(ValueError, match="dimension mismatch"):
        gl.spsolve(gp.eye(3), gp.ones(4))
    with pytest.raises(ValueError):
        gl.splu(gp.ones((2, 3)))
    with pytest.raises(ValueError):
        gl.splu(gp.eye(3)).solve(gp.ones(3), trans="X")


@pytest.mark.parametrize("lower", [True, False])
def test_spsolve_triangular_matches_scipy(lower):
    import scipy.sparse as sp
    n = 15
    d = random_host(RNG, n, n, 0.3).toarray() + 2 * np.eye(n)
    t = np.tril(d) if lower else np.triu(d)
    m = sp.csr_array(t)
    for unit in (False, True):
        for rhs in (RNG.standard_normal(n), RNG.standard_normal((n, 2)),
                    np.arange(n, dtype=np.int64)):
            want = sl.spsolve_triangular(m, rhs, lower=lower, unit_diagonal=unit)
            got = gl.spsolve_triangular(dev(13, m), gp.asarray(rhs), lower=lower,
                                        unit_diagonal=unit)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_allclose(got.get(), want, rtol=1e-10)
    got = gl.spsolve_triangular(gp.asarray(t.astype(np.float32)), gp.ones(n, dtype=np.float32),
                                lower=lower)
    assert got.dtype == np.float32
    z = t.copy()
    z[3, 3] = 0
    with pytest.raises(np.linalg.LinAlgError, match="zero entry on diagonal"):
        sl.spsolve_triangular(sp.csr_array(z), np.ones(n), lower=lower)
    with pytest.raises(gp.linalg.LinAlgError, match="zero entry on diagonal"):
        gl.spsolve_triangular(gp.asarray(z), gp.ones(n), lower=lower)
    with pytest.raises(ValueError, match="square"):
        gl.spsolve_triangular(gp.ones((2, 3)), gp.ones(2))
    with pytest.raises(ValueError, match="must be equal"):
        gl.spsolve_triangular(gp.asarray(t), gp.ones(n + 1))


@pytest.mark.parametrize("which", ["LM", "LA", "SA"])
def test_eigsh_shift_invert(which):
    n = 30
    b = RNG.standard_normal((n, n))
    a = b + b.T
    w, v = sl.eigsh(a, k=3, sigma=0.5, which=which)
    wg, vg = gl.eigsh(dev(14, a), k=3, sigma=0.5, which=which)
    np.testing.assert_allclose(wg.get(), w, rtol=1e-9)
    np.testing.assert_allclose(np.abs(np.sum(v * vg.get(), axis=0)), 1, rtol=1e-7)
    np.testing.assert_allclose(gl.eigsh(gp.asarray(a), k=3, sigma=0.5, which=which,
                                        return_eigenvectors=False).get(),
                               sl.eigsh(a, k=3, sigma=0.5, which=which,
                                        return_eigenvectors=False), rtol=1e-9)
    inv = gl.aslinearoperator(gp.asarray(np.linalg.inv(a - 0.5 * np.eye(n))))
    np.testing.assert_allclose(gl.eigsh(gl.aslinearoperator(gp.asarray(a)), k=3, sigma=0.5,
                                        which=which, OPinv=inv)[0].get(), w, rtol=1e-9)


@pytest.mark.parametrize("name", ["qmr", "tfqmr"])
def test_qmr_and_tfqmr_match_scipy(name):
    n = 20
    for dtype in (np.float64, np.complex128, np.float32):
        a = nonsym(n, dtype)
        b = RNG.standard_normal(n).astype(dtype)
        for kw in [{}, {"maxiter": 3}, {"x0": np.ones(n, dtype)}, {"rtol": 1e-10}]:
            xs, infos = getattr(sl, name)(a, b, **kw)
            xg, infog = getattr(gl, name)(gp.asarray(a), gp.asarray(b),
                                          **{k: (gp.asarray(v) if k == "x0" else v)
                                             for k, v in kw.items()})
            assert infog == infos and xg.dtype == xs.dtype
            tol = 1e-4 if dtype == np.float32 else 1e-10
            np.testing.assert_allclose(xg.get(), xs, rtol=tol, atol=tol)
    a, b = nonsym(n), RNG.standard_normal(n)
    d = np.diag(1 / np.diag(a))
    if name == "qmr":
        ref = sl.LinearOperator((n, n), matvec=lambda v: d @ v, rmatvec=lambda v: d @ v)
        xs, infos = sl.qmr(a, b, M1=ref, M2=sl.aslinearoperator(np.eye(n)))
        xg, infog = gl.qmr(gp.asarray(a), gp.asarray(b), M1=gp.asarray(d))
    else:
        xs, infos = sl.tfqmr(a, b, M=d)
        xg, infog = gl.tfqmr(gp.asarray(a), gp.asarray(b), M=gp.asarray(d))
    assert infog == infos == 0
    np.testing.assert_allclose(xg.get(), xs, rtol=1e-8, atol=1e-10)
    xg, infog = getattr(gl, name)(gp.asarray(a), gp.zeros(n))
    assert infog == 0 and not xg.get().any()
    with pytest.raises(ValueError):
        getattr(gl, name)(gp.asarray(a), gp.ones(n + 1))


def test_matrix_functions_match_scipy():
    import scipy.sparse as sp
    n = 9
    m = random_host(RNG, n, n, 0.3, duplicates=True, unsorted=True)
    d = m.toarray()
    a = sp.csc_array(d + 3 * np.eye(n))
    for form in FORMS:
        g, s = to_pair(a, *form)
        assert_same(gl.inv(g), sl.inv(s), rtol=1e-11)
        assert_same(gl.matrix_power(g, 2), sl.matrix_power(s, 2), rtol=1e-11)
    for i, scale in enumerate((0.1, 3.0, 40.0)):
        g, s = to_pair(scale * m, *FORMS[3 * i])
        assert_same(gl.expm(g), sl.expm(s), rtol=1e-11)
        # rounding relative to the norm: SciPy's has it where exact zeros are due
        want = sl.expm(scale * d)
        np.testing.assert_allclose(gl.expm(gp.asarray(scale * d)).get(), want,
                                   rtol=1e-11, atol=1e-11 * np.abs(want).max())
    for p in (0, 1, 3):
        g, s = to_pair(m, *FORMS[p + 2])
        assert_same(gl.matrix_power(g, p), sl.matrix_power(s, p), rtol=1e-11)
    with pytest.raises(TypeError, match="sparse"):
        gl.inv(gp.eye(3))
    with pytest.raises(ValueError, match="square"):
        gl.expm(gp.ones((2, 3)))
    with pytest.raises(ValueError, match=">= 0"):
        gl.matrix_power(dev(15, m), -1)
    with pytest.raises(ValueError, match="integer"):
        gl.matrix_power(dev(16, m), 1.5)
    with pytest.raises(TypeError, match="not square"):
        gl.matrix_power(dev(17, np.ones((2, 3))), 2)
    for t in (m, sp.csr_array(np.tril(d)), sp.csr_array(np.triu(d)), sp.csr_array(np.eye(4)),
              sp.csr_array(np.ones((3, 5)))):
        assert gl.is_sptriangular(dev(18, t)) == tuple(sl.is_sptriangular(t))
        assert gl.spbandwidth(dev(19, t)) == sl.spbandwidth(t)
    assert gl.spbandwidth(dev(20, sp.csr_array((3, 3)))) == (0, 0)


# SciPy does not converge for SI of a real matrix here (the real eigenvalues)
@pytest.mark.parametrize("which", ["LM", "LR", "SR", "LI"])
def test_eigs_finds_scipys_eigenvalues(which):
    n = 30
    a = RNG.standard_normal((n, n))
    # the wanted values by the ranking `which` names (for a real matrix ARPACK
    # ranks imaginary parts by magnitude); between the two members of a
    # conjugate pair either may be listed, and ARPACK's order differs
    rank = {"LM": np.abs, "LR": np.real, "SR": np.real,
            "LI": lambda z: np.abs(z.imag), "SI": lambda z: np.abs(z.imag)}[which]
    want = sl.eigs(a, k=4, which=which, return_eigenvectors=False)
    w, v = gl.eigs(dev(21, a), k=4, which=which)
    assert w.dtype == np.complex128 and v.shape == (n, 4)
    w, v = w.get(), v.get()
    np.testing.assert_allclose(np.sort(rank(w)), np.sort(rank(want)), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(a @ v, v * w, atol=1e-9)
    np.testing.assert_allclose(np.linalg.norm(v, axis=0), 1, rtol=1e-12)
    c = a + 1j * RNG.standard_normal((n, n))
    rank = {"LI": np.imag, "SI": np.imag}.get(which, rank)
    w = gl.eigs(gp.asarray(c), k=3, which=which, return_eigenvectors=False).get()
    want = sl.eigs(c, k=3, which=which, return_eigenvectors=False)
    np.testing.assert_allclose(np.sort(rank(w)), np.sort(rank(want)), rtol=1e-9, atol=1e-12)
    # a complex matrix has no conjugate pairs: the very same values
    assert np.abs(want[:, None] - w[None, :]).min(axis=1).max() < 1e-9


def test_eigs_errors():
    a = gp.asarray(RNG.standard_normal((10, 10)))
    with pytest.raises(ValueError, match="which must be one of"):
        gl.eigs(a, k=2, which="LA")
    with pytest.raises(ValueError, match="k must be greater than 0"):
        gl.eigs(a, k=0)
    with pytest.raises(NotImplementedError):
        gl.eigs(a, k=2, sigma=1.0)
    with pytest.warns(RuntimeWarning, match="k >= N - 1"):
        w = gl.eigs(a, k=9, return_eigenvectors=False)
    np.testing.assert_allclose(np.sort_complex(w.get().astype(complex)),
                               np.sort_complex(np.linalg.eigvals(a.get())), rtol=1e-9)


def test_host_arrays_are_refused_as_gpunp_refuses_them():
    import scipy.sparse as sp
    a, b = spd(4), np.ones(4)
    calls = [lambda: gl.cg(gp.asarray(a), b), lambda: gl.gmres(a, gp.asarray(b)),
             lambda: gl.aslinearoperator(a), lambda: gl.lsqr(gp.asarray(a), b),
             lambda: gl.spsolve(gp.asarray(a), b), lambda: gl.eigsh(a, k=1),
             lambda: gl.expm_multiply(gp.asarray(a), b),
             lambda: gl.aslinearoperator(gp.asarray(a)).matvec(b),
             lambda: gl.norm(sp.csr_array(a)), lambda: gl.cg(sp.csr_array(a), gp.asarray(b))]
    for call in calls:
        with pytest.raises(TypeError, match="Unsupported type"):
            call()


@pytest.mark.parametrize("bc", ["neumann", "dirichlet", "periodic"])
def test_laplacian_nd_matches_scipy(bc):
    for shape in [(6,), (3, 5), (2, 3, 4)]:
        s, g = sl.LaplacianNd(shape, boundary_conditions=bc), gl.LaplacianNd(
            shape, boundary_conditions=bc)
        a = s.toarray()
        assert repr(g) == repr(s) and g.toarray().dtype == a.dtype
        np.testing.assert_array_equal(g.toarray().get(), a)
        assert_same(g.tosparse(), s.tosparse())
        x = RNG.standard_normal((a.shape[0], 2))
        np.testing.assert_allclose(g.matmat(gp.asarray(x)).get(), s.matmat(x), rtol=1e-12)
        np.testing.assert_allclose((g @ gp.asarray(x[:, 0])).get(), s @ x[:, 0], rtol=1e-12)
        np.testing.assert_allclose(g.eigenvalues().get(), s.eigenvalues(), atol=1e-12)
        np.testing.assert_allclose(g.eigenvalues(2).get(), s.eigenvalues(2), atol=1e-12)
        np.testing.assert_allclose(g.eigenvectors(2).get(), s.eigenvectors(2), atol=1e-12)
        v, w = g.eigenvectors().get(), g.eigenvalues().get()
        np.testing.assert_allclose(a @ v, v * w, atol=1e-10)
        np.testing.assert_allclose(v.T @ v, np.eye(len(w)), atol=1e-10)
        if len(np.unique(np.round(w, 9))) == len(w):
            # SciPy orders a repeated eigenvalue's vectors by an unstable sort
            np.testing.assert_allclose(v, s.eigenvectors(), atol=1e-12)
    x, info = gl.cg(-gl.LaplacianNd((8, 8), boundary_conditions="dirichlet",
                                     dtype=np.float64), gp.ones(64), rtol=1e-10)
    want, _ = sl.cg(-sl.LaplacianNd((8, 8), boundary_conditions="dirichlet", dtype=np.float64),
                    np.ones(64), rtol=1e-10)
    assert info == 0
    np.testing.assert_allclose(x.get(), want, rtol=1e-8)
    with pytest.raises(ValueError, match="Unknown value"):
        gl.LaplacianNd((3,), boundary_conditions="free")


# every format and flavour through the paths that read a sparse operand by duck type
_A = np.round(np.random.default_rng(3).random((6, 6)) * (np.random.default_rng(4).random(
    (6, 6)) < 0.4) * 4) + 8 * np.eye(6)
_B = np.random.default_rng(5).standard_normal(6)
_OPERAND_CASES = {
    "aslinearoperator": lambda m, L, xp: L.aslinearoperator(m) @ xp.asarray(_B),
    "rmatvec": lambda m, L, xp: L.aslinearoperator(m).rmatvec(xp.asarray(_B)),
    "cg": lambda m, L, xp: L.cg(m + m.T, xp.asarray(_B), rtol=1e-12)[0],
    "gmres": lambda m, L, xp: L.gmres(m, xp.asarray(_B), rtol=1e-12)[0],
    "bicgstab": lambda m, L, xp: L.bicgstab(m, xp.asarray(_B), rtol=1e-12)[0],
    "lsmr": lambda m, L, xp: L.lsmr(m, xp.asarray(_B), atol=1e-12, btol=1e-12)[0],
    "eigsh": lambda m, L, xp: L.eigsh(m + m.T, k=2, return_eigenvectors=False),
    "svds": lambda m, L, xp: L.svds(m, k=2, return_singular_vectors=False),
    "norm": lambda m, L, xp: L.norm(m, 1),
    "onenormest": lambda m, L, xp: L.onenormest(m),
    "expm_multiply": lambda m, L, xp: L.expm_multiply(m * 0.1, xp.asarray(_B)),
    "spsolve": lambda m, L, xp: L.spsolve(m, xp.asarray(_B)),
    "spsolve_triangular": lambda m, L, xp: L.spsolve_triangular(m.tocsr().multiply(
        xp.asarray(np.tril(np.ones((6, 6))))), xp.asarray(_B)),
    "splu": lambda m, L, xp: L.splu(m).solve(xp.asarray(_B)),
    "structure": lambda m, L, xp: np.array(L.is_sptriangular(m) + L.spbandwidth(m)),
}


@pytest.mark.parametrize("form", FORMS, ids=lambda f: f"{f[0]}_{'array' if f[1] else 'matrix'}")
def test_every_format_through_the_operator_paths(form):
    assert gp.scipy.sparse.linalg is gl  # an attribute of gpunp.scipy.sparse
    for name, call in _OPERAND_CASES.items():
        g, s = to_pair(_A, *form)
        want = call(s, sl, np)
        got = call(g, gl, gp)
        got = got.get() if isinstance(got, gp.ndarray) else got
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12, err_msg=name)


def test_eigen_solvers_refuse_a_stack():
    """An n-d array: the running SciPy's ValueError and text (1.18 reworded
    both ARPACK's and svds')."""
    a = np.ones((2, 4, 4))
    for name in ("eigs", "eigsh", "svds"):
        with pytest.raises(ValueError) as want:
            getattr(sl, name)(a, k=1)
        with pytest.raises(ValueError) as got:
            getattr(gl, name)(gp.asarray(a), k=1)
        assert str(got.value) == str(want.value)
