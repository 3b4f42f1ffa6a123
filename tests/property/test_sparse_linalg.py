"""Hypothesis: gpunp.scipy.sparse.linalg's solvers against SciPy's on random
systems, dense and sparse (duplicates, unsorted indices, int32/int64
indices), float32/float64/complex."""

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as sl
from hypothesis import given, settings, strategies as st

import gpunp as gp
import gpunp.scipy.sparse.linalg as gl
from property.sparse_standin import CSR, random_csr

FEW = settings(max_examples=10)


def system(seed, n, kind, dtype, index_dtype):
    rng = np.random.default_rng(seed)
    m = random_csr(rng, n, n, 0.3, dtype=dtype, index_dtype=index_dtype, duplicates=True,
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
       index_dtype=st.sampled_from([np.int32, np.int64]), sparse=st.booleans())
def test_hermitian_solvers(seed, n, name, dtype, index_dtype, sparse):
    if name == "minres" and np.dtype(dtype).kind == "c":
        dtype = np.float64
    m, b = system(seed, n, "spd", dtype, index_dtype)
    a = CSR(m) if sparse else gp.asarray(m.toarray())
    xs, infos = getattr(sl, name)(m, b, rtol=1e-4)
    xg, infog = getattr(gl, name)(a, gp.asarray(b), rtol=1e-4)
    assert infog == infos and xg.dtype == xs.dtype and xg.shape == xs.shape
    tol = 1e-3 if np.dtype(dtype).itemsize <= 4 else 1e-7
    np.testing.assert_allclose(xg.get(), xs, rtol=tol, atol=tol)


@FEW
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 24),
       name=st.sampled_from(["gmres", "bicgstab", "bicg", "cgs"]),
       dtype=st.sampled_from([np.float32, np.float64, np.complex64, np.complex128]),
       index_dtype=st.sampled_from([np.int32, np.int64]), sparse=st.booleans(),
       restart=st.sampled_from([None, 3]))
def test_nonsymmetric_solvers(seed, n, name, dtype, index_dtype, sparse, restart):
    m, b = system(seed, n, "nonsym", dtype, index_dtype)
    a = CSR(m) if sparse else gp.asarray(m.toarray())
    kw = {"restart": restart} if name == "gmres" else {}
    xs, infos = getattr(sl, name)(m, b, rtol=1e-4, **kw)
    xg, infog = getattr(gl, name)(a, gp.asarray(b), rtol=1e-4, **kw)
    assert infog == infos and xg.dtype == xs.dtype
    tol = 1e-3 if np.dtype(dtype).itemsize <= 8 and np.dtype(dtype) != np.float64 else 1e-7
    np.testing.assert_allclose(xg.get(), xs, rtol=tol, atol=tol)
