"""Hypothesis: gpunp.scipy.sparse.linalg's solvers against SciPy's on random
systems, dense and sparse (duplicates, unsorted indices, int32/int64
indices), float32/float64/complex."""

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as sl
from hypothesis import given, settings, strategies as st

import gpunp as gp
import gpunp.scipy.sparse.linalg as gl
from property.sparse_strategies import assert_same, random_host, to_pair

FEW = settings(max_examples=10)
# a sparse operand: gpunp's class of a drawn format and flavour (DIA and BSR,
# whose conversions would compile for every dtype drawn here, are
# tests/scipy/test_sparse_linalg.py's, in float64)
FORMS = st.tuples(st.sampled_from(["csr", "csc", "coo"]), st.booleans())


def dev(host, form):
    return to_pair(host, *form)[0]


def system(seed, n, kind, dtype, index_dtype):
    rng = np.random.default_rng(seed)
    m = random_host(rng, n, n, 0.3, dtype=dtype, index_dtype=index_dtype, duplicates=True,
                   unsorted=True)
    d = m.toarray()
    if kind == "spd":
        d = d @ d.conj().T
    d = d + 2 * (1 + np.abs(d).sum(axis=1).max()) * np.eye(n)  # well conditioned
    if kind == "nonsym":
        d[0, -1] += 1
    m = sp.csr_array(d.astype(dtype))
    b = (rng.standard_normal(n) + (1j * rng.standard_normal(n) if m.dtype.kind == "c" else 0))
    return m, b.astype(dtype)


@FEW
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 24),
       name=st.sampled_from(["cg", "minres"]),
       dtype=st.sampled_from([np.float32, np.float64, np.complex128]),
       index_dtype=st.sampled_from([np.int32, np.int64]), form=st.none() | FORMS)
def test_hermitian_solvers(seed, n, name, dtype, index_dtype, form):
    if name == "minres" and np.dtype(dtype).kind == "c":
        dtype = np.float64
    m, b = system(seed, n, "spd", dtype, index_dtype)
    a = dev(m, form) if form else gp.asarray(m.toarray())
    xs, infos = getattr(sl, name)(m, b, rtol=1e-4)
    xg, infog = getattr(gl, name)(a, gp.asarray(b), rtol=1e-4)
    assert infog == infos and xg.dtype == xs.dtype and xg.shape == xs.shape
    tol = 1e-3 if np.dtype(dtype).itemsize <= 4 else 1e-7
    np.testing.assert_allclose(xg.get(), xs, rtol=tol, atol=tol)


@FEW
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 24),
       name=st.sampled_from(["gmres", "bicgstab", "bicg", "cgs", "qmr", "tfqmr"]),
       dtype=st.sampled_from([np.float32, np.float64, np.complex64, np.complex128]),
       index_dtype=st.sampled_from([np.int32, np.int64]), form=st.none() | FORMS,
       restart=st.sampled_from([None, 3]))
def test_nonsymmetric_solvers(seed, n, name, dtype, index_dtype, form, restart):
    m, b = system(seed, n, "nonsym", dtype, index_dtype)
    a = dev(m, form) if form else gp.asarray(m.toarray())
    kw = {"restart": restart} if name == "gmres" else {}
    xs, infos = getattr(sl, name)(m, b, rtol=1e-4, **kw)
    xg, infog = getattr(gl, name)(a, gp.asarray(b), rtol=1e-4, **kw)
    assert infog == infos and xg.dtype == xs.dtype
    tol = 1e-3 if np.dtype(dtype).itemsize <= 8 and np.dtype(dtype) != np.float64 else 1e-7
    np.testing.assert_allclose(xg.get(), xs, rtol=tol, atol=tol)


@FEW
@given(form=FORMS, seed=st.integers(0, 2**32 - 1), m=st.integers(1, 20), n=st.integers(1, 20),
       name=st.sampled_from(["lsqr", "lsmr"]), damp=st.sampled_from([0.0, 0.5]),
       index_dtype=st.sampled_from([np.int32, np.int64]))
def test_least_squares(form, seed, m, n, name, damp, index_dtype):
    rng = np.random.default_rng(seed)
    a = random_host(rng, m, n, 0.5, index_dtype=index_dtype, duplicates=True, unsorted=True)
    b = rng.standard_normal(m)
    g = dev(a, form)  # first: SciPy sums a's duplicates in place
    # enough steps to converge: capped at min(m, n) steps, the residual of an
    # ill-conditioned problem is decided by rounding (SciPy's own moves 100-fold
    # when A moves by 1e-15)
    kw = dict(damp=damp, atol=1e-10, btol=1e-10, **{"iter_lim" if name == "lsqr" else
                                                    "maxiter": 10 * max(m, n)})
    want = getattr(sl, name)(a, b, **kw)
    got = getattr(gl, name)(g, gp.asarray(b), **kw)
    # the iterates follow SciPy's; past convergence, rounding decides the step count
    r_want = np.linalg.norm(a @ want[0] - b) ** 2 + damp ** 2 * np.linalg.norm(want[0]) ** 2
    x = got[0].get()
    r_got = np.linalg.norm(a @ x - b) ** 2 + damp ** 2 * np.linalg.norm(x) ** 2
    assert r_got <= r_want * (1 + 1e-6) + 1e-6 * np.linalg.norm(b) ** 2


@FEW
@given(form=FORMS, seed=st.integers(0, 2**32 - 1), n=st.integers(1, 20),
       dtype=st.sampled_from([np.float32, np.float64, np.complex64, np.complex128]),
       index_dtype=st.sampled_from([np.int32, np.int64]), lower=st.booleans(),
       unit=st.booleans(), k=st.sampled_from([None, 2]))
def test_triangular_and_direct_solves(form, seed, n, dtype, index_dtype, lower, unit, k):
    rng = np.random.default_rng(seed)
    m = random_host(rng, n, n, 0.4, dtype=dtype, index_dtype=index_dtype, duplicates=True,
                   unsorted=True)
    d = m.toarray() + 4 * np.eye(n, dtype=dtype) * (1 + np.abs(m.toarray()).sum())
    t = sp.csr_array(np.tril(d) if lower else np.triu(d))
    b = rng.standard_normal(n if k is None else (n, k)).astype(dtype)
    want = sl.spsolve_triangular(t, b, lower=lower, unit_diagonal=unit)
    got = gl.spsolve_triangular(dev(t, form), gp.asarray(b), lower=lower, unit_diagonal=unit)
    assert got.dtype == want.dtype and got.shape == want.shape
    tol = 1e-4 if np.dtype(dtype).itemsize <= 8 and np.dtype(dtype) != np.float64 else 1e-10
    np.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol)
    want = sl.spsolve(sp.csc_array(d), b)
    got = gl.spsolve(dev(sp.csr_array(d), form), gp.asarray(b))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol)


@FEW
@given(form=FORMS, seed=st.integers(0, 2**32 - 1), m=st.integers(1, 12), n=st.integers(1, 12),
       dtype=st.sampled_from([np.float32, np.float64, np.complex128, np.int64]),
       index_dtype=st.sampled_from([np.int32, np.int64]),
       case=st.sampled_from([(None, None), (1, None), (-np.inf, None), (None, 0), (0, 1),
                             (-np.inf, -1), (3, 0)]))
def test_norm(form, seed, m, n, dtype, index_dtype, case):
    rng = np.random.default_rng(seed)
    a = random_host(rng, m, n, 0.4, index_dtype=index_dtype, duplicates=True, unsorted=True)
    a = sp.csr_array((np.round(a.data * 10).astype(dtype), a.indices, a.indptr), shape=a.shape)
    g = dev(a, form)  # first: SciPy sums a's duplicates in place
    want = sl.norm(a, *case)
    got = gl.norm(g, *case)
    np.testing.assert_allclose(got.get(), want, rtol=1e-5)


@FEW
@given(form=FORMS, seed=st.integers(0, 2**32 - 1), n=st.integers(8, 20), k=st.integers(1, 3),
       which=st.sampled_from(["LM", "LA", "SA"]))
def test_eigsh_and_svds(form, seed, n, k, which):
    rng = np.random.default_rng(seed)
    a = random_host(rng, n, n, 0.3, duplicates=True, unsorted=True)
    h = a + a.T
    want = np.sort(sl.eigsh(h, k=k, which=which, return_eigenvectors=False))
    got = np.sort(gl.eigsh(dev(h, form), k=k, which=which, return_eigenvectors=False).get())
    np.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-9)
    g = dev(a, form)  # first: SciPy sums a's duplicates in place
    want = sl.svds(a, k=k, return_singular_vectors=False)
    got = gl.svds(g, k=k, return_singular_vectors=False).get()
    np.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-9)


@FEW
@given(form=FORMS, seed=st.integers(0, 2**32 - 1), n=st.integers(1, 12),
       dtype=st.sampled_from([np.float64, np.complex128]),
       index_dtype=st.sampled_from([np.int32, np.int64]), scale=st.sampled_from([0.1, 2.0]))
def test_matrix_functions_and_factorizations(form, seed, n, dtype, index_dtype, scale):
    rng = np.random.default_rng(seed)
    m = random_host(rng, n, n, 0.4, dtype=dtype, index_dtype=index_dtype, duplicates=True,
                   unsorted=True)
    a = sp.csr_array(scale * m.toarray())
    b = rng.standard_normal((n, 2)).astype(dtype)
    want = sl.expm_multiply(a, b)
    got = gl.expm_multiply(dev(a, form), gp.asarray(b))
    np.testing.assert_allclose(got.get(), want, rtol=1e-9, atol=1e-12)
    g, h = to_pair(a, *form)
    try:
        want = sl.expm(h)
    except (TypeError, NotImplementedError):
        # SciPy's 1 x 1 case reads A[0, 0], which COO matrices, DIA and BSR
        # lack; gpunp's gives exp of the entry in A's class
        assert n == 1
        want = type(h)(np.exp(a.toarray()))
    assert_same(gl.expm(g), want, rtol=1e-11)
    d = sp.csc_array(a.toarray() + (1 + np.abs(a.toarray()).sum()) * np.eye(n))
    lu, lug = sl.splu(d), gl.splu(dev(d, form))
    for trans in "NTH":
        np.testing.assert_allclose(lug.solve(gp.asarray(b), trans).get(), lu.solve(b, trans),
                                   rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(gl.factorized(dev(d, form))(gp.asarray(b[:, 0])).get(),
                               sl.factorized(d)(b[:, 0]), rtol=1e-10, atol=1e-12)
    exact = np.abs(a.toarray()).sum(axis=0).max()
    est = gl.onenormest(dev(a, form), t=min(2, n))
    assert est <= exact * (1 + 1e-12) + 1e-300 and est >= exact / 4


@FEW
@given(seed=st.integers(0, 2**32 - 1), m=st.integers(1, 6), n=st.integers(1, 6),
       k=st.integers(1, 3), scalar=st.sampled_from([2, -1.5, 1j]))
def test_linear_operator_algebra(seed, m, n, k, scalar):
    rng = np.random.default_rng(seed)
    a, c = rng.standard_normal((m, n)), rng.standard_normal((m, n)) + 1j
    b = rng.standard_normal((n, m))
    ga, gb, gc_ = (gl.aslinearoperator(gp.asarray(x)) for x in (a, b, c))
    sa, sb, sc_ = (sl.aslinearoperator(x) for x in (a, b, c))
    X = rng.standard_normal((n, k))
    Y = rng.standard_normal((m, k))
    for f in (lambda p, q, r: p + r, lambda p, q, r: scalar * p - r, lambda p, q, r: (q @ p).H,
              lambda p, q, r: (p @ q) ** 2, lambda p, q, r: r.T @ p):
        g, s = f(ga, gb, gc_), f(sa, sb, sc_)
        assert g.shape == s.shape and g.dtype == s.dtype
        Z = X if g.shape[1] == n else Y
        np.testing.assert_allclose((g @ gp.asarray(Z)).get(), s @ Z, rtol=1e-12, atol=1e-12)
        W = Y if g.shape[0] == m else X
        np.testing.assert_allclose(g.rmatmat(gp.asarray(W)).get(), s.rmatmat(W), rtol=1e-12,
                                   atol=1e-12)
