"""gpunp.scipy.sparse._device: the engine's CSR products (csrc/include/gp_sparse.h)
against SciPy's, on the CSR arrays of scipy.sparse objects copied to the device.

On the host backend SpMV and SpMM sum in SciPy's order, so they are compared
bit for bit; so is SpGEMM of canonical inputs. Inputs with repeated indices
are compared with a tolerance where SciPy may merge the repeats first.
The dtype matrix is kept lean (every kernel costs a compile on a cold cache):
every dtype is covered, not every dtype with every operation and index type.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sps
from hypothesis import given, settings, strategies as st

import gpunp as gp
from gpunp.scipy.sparse import _device as dev

DTYPES = [np.bool_, np.int32, np.int64, np.float32, np.float64, np.complex64, np.complex128]
EXACT_ON_HOST = gp.backend() == "host"


def _values(rng, n, dtype):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(n) < 0.6
    if dtype.kind == "i":
        return rng.integers(-9, 10, n).astype(dtype)
    if dtype.kind == "c":
        return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)
    return rng.standard_normal(n).astype(dtype)


def _csr(rng, m, n, dtype, idx=np.int32, density=0.3, canonical=True):
    """A random CSR matrix with empty rows and columns; with canonical=False
    each row's indices are shuffled and some repeated."""
    cols = max(n - 2, 0)  # the last two columns stay empty
    indptr, indices = [0], []
    for r in range(m):
        k = 0 if r % 4 == 1 or cols == 0 else rng.binomial(cols, density)
        row = rng.choice(cols, size=k, replace=False) if k else np.zeros(0, np.int64)
        if canonical:
            row = np.sort(row)
        elif k:
            row = np.concatenate([row, rng.choice(row, size=1 + k // 2)])
            rng.shuffle(row)
        indices.extend(row.tolist())
        indptr.append(len(indices))
    data = _values(rng, len(indices), dtype)
    return sps.csr_array((data, np.array(indices, idx), np.array(indptr, idx)), shape=(m, n))


def _dev(a):
    return gp.asarray(a.indptr), gp.asarray(a.indices), gp.asarray(a.data)


def _assert_same(got, want, exact):
    got = gp.asnumpy(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    if exact:
        # bit for bit (signed zeros and NaN payloads included)
        assert got.tobytes() == np.ascontiguousarray(want).tobytes()
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5 if want.dtype.itemsize <= 8 else 1e-12,
                                   atol=1e-5)


def _assert_csr_same(got, want, exact):
    indptr, indices, data = (gp.asnumpy(v) for v in got)
    want = want.tocsr()
    want.sort_indices()
    assert np.array_equal(indptr, want.indptr)
    assert np.array_equal(indices, want.indices)
    _assert_same(data, want.data, exact)


# ---- SpMV ------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_matvec_each_dtype(dtype):
    rng = np.random.default_rng(1)
    a = _csr(rng, 37, 23, dtype)
    x = _values(rng, 23, dtype)
    _assert_same(dev.csr_matvec(a.shape, *_dev(a), gp.asarray(x)), a @ x, EXACT_ON_HOST)


@pytest.mark.parametrize("dtype", [np.float64, np.complex64])
def test_matvec_int64_indices_unsorted_repeats(dtype):
    rng = np.random.default_rng(2)
    a = _csr(rng, 41, 19, dtype, idx=np.int64, canonical=False)
    assert a.indices.dtype == np.int64 and not a.has_canonical_format
    x = _values(rng, 19, dtype)
    _assert_same(dev.csr_matvec(a.shape, *_dev(a), gp.asarray(x)), a @ x, EXACT_ON_HOST)


@pytest.mark.parametrize("adt, xdt", [(np.float32, np.float64), (np.int32, np.complex64),
                                      (np.bool_, np.int64)])
def test_matvec_mixed_dtypes_promote(adt, xdt):
    rng = np.random.default_rng(3)
    a = _csr(rng, 20, 30, adt)
    x = _values(rng, 30, xdt)
    y = dev.csr_matvec(a.shape, *_dev(a), gp.asarray(x))
    assert y.dtype == np.result_type(adt, xdt)
    _assert_same(y, a @ x, EXACT_ON_HOST)


def test_matvec_sums_from_zero_in_index_order():
    # -0.0 products sum to +0.0 from the zero SciPy starts at; the order of
    # 1e16 + 1 - 1e16 decides the result
    a = sps.csr_array((np.array([-0.0, 1e16, 1.0, -1e16]), np.array([0, 1, 2, 3], np.int32),
                       np.array([0, 1, 4], np.int32)), shape=(2, 4))
    x = np.array([1.0, 1.0, 1.0, 1.0])
    y = gp.asnumpy(dev.csr_matvec(a.shape, *_dev(a), gp.asarray(x)))
    want = a @ x
    assert np.signbit(y[0]) == np.signbit(want[0])
    if EXACT_ON_HOST:
        assert y.tobytes() == want.tobytes()


@pytest.mark.parametrize("shape, nnz_rows", [((0, 5), 0), ((5, 0), 0), ((4, 6), 0)])
def test_matvec_empty(shape, nnz_rows):
    a = sps.csr_array(shape, dtype=np.float64)
    a.indptr = a.indptr.astype(np.int32)
    a.indices = a.indices.astype(np.int32)
    x = np.ones(shape[1])
    _assert_same(dev.csr_matvec(a.shape, *_dev(a), gp.asarray(x)), a @ x, True)


# ---- SpMM ------------------------------------------------------------------------

@pytest.mark.parametrize("dtype, k", [(np.float64, 3), (np.int32, 2), (np.complex128, 1),
                                      (np.float32, 0)])
def test_matmat(dtype, k):
    rng = np.random.default_rng(4)
    # unsorted repeats: on CUDA float and complex SpMM go through cuSPARSE
    a = _csr(rng, 29, 17, dtype, canonical=dtype == np.float32)
    x = _values(rng, 17 * k, dtype).reshape(17, k)
    _assert_same(dev.csr_matmat(a.shape, *_dev(a), gp.asarray(x)), a @ x, EXACT_ON_HOST)


def test_matmat_strided_operand():
    rng = np.random.default_rng(5)
    a = _csr(rng, 12, 10, np.float64)
    x = rng.standard_normal((10, 8))
    xd = gp.asarray(x)[:, ::2]  # not contiguous: the engine copies it
    _assert_same(dev.csr_matmat(a.shape, *_dev(a), xd), a @ x[:, ::2], EXACT_ON_HOST)


# ---- SpGEMM ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_spgemm_each_dtype(dtype):
    rng = np.random.default_rng(6)
    a = _csr(rng, 23, 31, dtype, density=0.2)
    b = _csr(rng, 31, 19, dtype, density=0.2)
    got = dev.csr_spgemm(a.shape, *_dev(a), b.shape, *_dev(b))
    assert got[0].dtype == np.int32 and got[2].dtype == np.dtype(dtype)
    _assert_csr_same(got, a @ b, EXACT_ON_HOST)


@pytest.mark.parametrize("dtype", [np.float64, np.int64])
def test_spgemm_unsorted_repeats_int64_indices(dtype):
    rng = np.random.default_rng(7)
    a = _csr(rng, 30, 25, dtype, idx=np.int64, canonical=False)
    b = _csr(rng, 25, 27, dtype, idx=np.int32, canonical=False)
    got = dev.csr_spgemm(a.shape, *_dev(a), b.shape, *_dev(b))
    # the result's indices are int32 while they fit, as the interface says
    assert got[0].dtype == np.int32 and got[1].dtype == np.int32
    _assert_csr_same(got, a @ b, EXACT_ON_HOST and dtype == np.int64)


def test_spgemm_mixed_dtypes_and_exact_cancellation():
    # row 0: 1*1 + 1*(-1) is exactly zero and is not stored; row 1 is empty
    a = sps.csr_array((np.array([1, 1], np.int32), np.array([0, 1], np.int32),
                       np.array([0, 2, 2], np.int32)), shape=(2, 2))
    b = sps.csr_array((np.array([1.0, -1.0, 2.0], np.float32), np.array([0, 0, 1], np.int32),
                       np.array([0, 1, 3], np.int32)), shape=(2, 2))
    got = dev.csr_spgemm(a.shape, *_dev(a), b.shape, *_dev(b))
    assert got[2].dtype == np.float64
    _assert_csr_same(got, a @ b, True)
    assert gp.asnumpy(got[0]).tolist() == [0, 1, 1]


@pytest.mark.parametrize("sa, sb", [((0, 4), (4, 3)), ((3, 0), (0, 5)), ((3, 4), (4, 0))])
def test_spgemm_zero_size(sa, sb):
    a = sps.csr_array(sa, dtype=np.float64)
    b = sps.csr_array(sb, dtype=np.float64)
    got = dev.csr_spgemm(sa, *_dev(a), sb, *_dev(b))
    _assert_csr_same(got, a @ b, True)


@settings(max_examples=15)
@given(m=st.integers(0, 12), k=st.integers(0, 12), n=st.integers(0, 12),
       density=st.floats(0, 1), seed=st.integers(0, 2**32 - 1), canonical=st.booleans())
def test_random_shapes_against_scipy(m, k, n, density, seed, canonical):
    rng = np.random.default_rng(seed)
    a = _csr(rng, m, k + 2, np.float64, density=density, canonical=canonical)
    b = _csr(rng, k + 2, n, np.float64, density=density, canonical=canonical)
    x = rng.standard_normal(k + 2)
    _assert_same(dev.csr_matvec(a.shape, *_dev(a), gp.asarray(x)), a @ x, EXACT_ON_HOST)
    got = dev.csr_spgemm(a.shape, *_dev(a), b.shape, *_dev(b))
    _assert_csr_same(got, a @ b, EXACT_ON_HOST and canonical)


@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_spgemm_canonical_exact_cancellation_library_road(dtype):
    # canonical operands of a float result: cuSPARSE's SpGEMM on CUDA, whose
    # C keeps (0, 0) = 1*2 + 2*(-1) as a stored zero: it must not survive
    a = sps.csr_array((np.array([1, 2, 3], dtype), np.array([0, 1, 1], np.int32),
                       np.array([0, 2, 3], np.int32)), shape=(2, 2))
    b = sps.csr_array((np.array([2, 5, -1, 4], dtype), np.array([0, 1, 0, 1], np.int32),
                       np.array([0, 2, 4], np.int32)), shape=(2, 2))
    got = dev.csr_spgemm(a.shape, *_dev(a), b.shape, *_dev(b))
    want = a @ b
    assert want.nnz == 3
    _assert_csr_same(got, want, True)


# ---- the sparse direct solve --------------------------------------------------------

HAS_SOLVER = gp.backend() == "cuda"  # cuSOLVER's sparse QR; the host and HIP have none


def _system(rng, n, dtype, idx):
    a = _csr(rng, n, n, dtype, idx=idx, density=0.3) + sps.diags_array(
        np.full(n, 4, dtype), format="csr")
    a = sps.csr_array((a.data.astype(dtype), a.indices.astype(idx), a.indptr.astype(idx)),
                      shape=a.shape)
    a.sort_indices()
    return a


@pytest.mark.parametrize("dtype, idx", [(np.float32, np.int32), (np.float64, np.int64),
                                        (np.complex64, np.int32), (np.complex128, np.int32)])
def test_csr_solve_where_the_backend_has_a_solver(dtype, idx):
    rng = np.random.default_rng(11)
    a = _system(rng, 9, dtype, idx)
    B = _values(rng, 2 * 9, dtype).reshape(2, 9)
    if not HAS_SOLVER:
        with pytest.raises(NotImplementedError, match="no sparse direct solver"):
            dev.csr_solve(9, *_dev(a), gp.asarray(B))
        return
    x, singular = dev.csr_solve(9, *_dev(a), gp.asarray(B))
    assert singular == -1 and x.shape == B.shape and x.dtype == np.dtype(dtype)
    want = np.linalg.solve(a.toarray(), B.T).T
    np.testing.assert_allclose(gp.asnumpy(x), want, rtol=1e-4 if want.itemsize <= 8 else 1e-10)


def test_csr_solve_bad_arguments():
    a = _system(np.random.default_rng(12), 4, np.float64, np.int32)
    ptr, ind, data = _dev(a)
    with pytest.raises(TypeError, match="not A's float64"):
        dev.csr_solve(4, ptr, ind, data, gp.ones(4, dtype=np.float32))
    with pytest.raises(TypeError, match="no solve for dtype int64"):
        dev.csr_solve(4, ptr, ind, data.astype(np.int64), gp.ones(4, dtype=np.int64))
    with pytest.raises(ValueError, match=r"shape \(4,\) or \(k, 4\)"):
        dev.csr_solve(4, ptr, ind, data, gp.ones(5))
    if HAS_SOLVER:  # the host declines before it looks at the rows
        unsorted = [gp.asarray(np.array(v, np.int32)) for v in ([0, 2, 3, 4, 5], [1, 0, 1, 2, 3])]
        with pytest.raises(ValueError, match="sorted, distinct"):
            dev.csr_solve(4, *unsorted, gp.ones(5), gp.ones(4))


def test_spsolve_sparse_each_road(dtype=np.float64):
    """gpunp.scipy.sparse.linalg.spsolve of a sparse A against SciPy's: the
    library road on CUDA, the dense one elsewhere; a singular A (a zero row
    and column) warns and gives NaNs on both. (Every dtype of the library
    road: test_csr_solve_where_the_backend_has_a_solver; one here keeps the
    dense road's cold compiles few.)"""
    import gpunp.scipy.sparse as gsp
    import gpunp.scipy.sparse.linalg as gl
    import scipy.sparse.linalg as sl
    rng = np.random.default_rng(13)
    a = _system(rng, 10, dtype, np.int32)
    B = _values(rng, 30, dtype).reshape(10, 3)
    rtol = 1e-4 if np.dtype(dtype).itemsize <= 8 else 1e-10
    for rhs in (B, B[:, 0]):
        got = gl.spsolve(gsp.csr_array(a), gp.asarray(rhs))
        want = sl.spsolve(a, rhs)
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(gp.asnumpy(got), want, rtol=rtol, atol=rtol)
    d = a.toarray()
    d[4, :] = 0
    d[:, 4] = 0
    s = sps.csr_array(d)
    with pytest.warns(gl.MatrixRankWarning, match="exactly singular"):
        got = gl.spsolve(gsp.csr_array(s), gp.asarray(B))
    with pytest.warns(sl.MatrixRankWarning):
        want = sl.spsolve(s, B)
    assert np.isnan(gp.asnumpy(got)).all() and np.isnan(want).all()


# ---- errors ----------------------------------------------------------------------

def _small():
    a = sps.csr_array(np.array([[1.0, 0, 2], [0, 3, 0]]))
    a.indptr = a.indptr.astype(np.int32)
    a.indices = a.indices.astype(np.int32)
    return a


def test_dimension_mismatch_is_scipys_value_error():
    a = _small()
    with pytest.raises(ValueError, match="dimension mismatch"):
        dev.csr_matvec(a.shape, *_dev(a), gp.ones(4))
    with pytest.raises(ValueError, match="dimension mismatch"):
        dev.csr_matmat(a.shape, *_dev(a), gp.ones((2, 2)))
    with pytest.raises(ValueError, match="dimension mismatch"):
        dev.csr_spgemm(a.shape, *_dev(a), a.shape, *_dev(a))


def test_bad_arguments():
    a = _small()
    ptr, ind, data = _dev(a)
    with pytest.raises(TypeError, match="gpunp"):
        dev.csr_matvec(a.shape, a.indptr, ind, data, gp.ones(3))
    with pytest.raises(TypeError, match="int32 or both int64"):
        dev.csr_matvec(a.shape, ptr, ind.astype(np.int64), data, gp.ones(3))
    with pytest.raises(TypeError, match="int32 or both int64"):
        dev.csr_matvec(a.shape, ptr.astype(np.float64), ind.astype(np.float64), data, gp.ones(3))
    with pytest.raises(TypeError, match="float16"):
        dev.csr_matvec(a.shape, ptr, ind, data.astype(np.float16), gp.ones(3))
    with pytest.raises(ValueError, match="differ in length"):
        dev.csr_matvec(a.shape, ptr, ind[:2], data, gp.ones(3))
    with pytest.raises(ValueError, match="indptr"):
        dev.csr_matvec((3, 3), ptr, ind, data, gp.ones(3))
    with pytest.raises(ValueError, match="negative"):
        dev.csr_matvec((-1, 3), ptr, ind, data, gp.ones(3))
    with pytest.raises(TypeError, match="two integers"):
        dev.csr_matvec((2.0, 3), ptr, ind, data, gp.ones(3))


@pytest.mark.parametrize("fn", ["matvec", "spgemm"])
def test_out_of_bounds_indices_raise_index_error(fn):
    a = _small()
    bad_col = a.copy()
    bad_col.indices[1] = 7
    bad_ptr = a.copy()
    bad_ptr.indptr[1] = 9  # past the three stored elements
    for m in (bad_col, bad_ptr):
        with pytest.raises(IndexError, match="out of bounds"):
            if fn == "matvec":
                gp.asnumpy(dev.csr_matvec(m.shape, *_dev(m), gp.ones(3)))
            else:
                b = sps.csr_array(np.eye(3)).astype(np.float64)
                b.indptr, b.indices = b.indptr.astype(np.int32), b.indices.astype(np.int32)
                [gp.asnumpy(v) for v in dev.csr_spgemm(m.shape, *_dev(m), b.shape, *_dev(b))]
    # the record was cleared: a good call after the bad one succeeds
    _assert_same(dev.csr_matvec(a.shape, *_dev(a), gp.ones(3)), a @ np.ones(3), True)


@settings(max_examples=25)
@given(m=st.integers(0, 5), n=st.integers(0, 5),
       indptr=st.lists(st.integers(-3, 9), min_size=0, max_size=6),
       indices=st.lists(st.integers(-3, 7), min_size=0, max_size=8))
def test_garbage_arrays_raise_or_agree(m, n, indptr, indices):
    """Any indptr and indices of the right lengths: the product is the sum
    over each row's range when every range and index is in bounds, else an
    IndexError; nothing is read outside the arrays."""
    indptr = (indptr + [0] * (m + 1))[:m + 1]
    ptr = np.array(indptr, np.int32)
    ind = np.array(indices, np.int32)
    data = np.arange(1, len(ind) + 1, dtype=np.float64)
    x = np.arange(1, n + 1, dtype=np.float64)
    valid = all(0 <= ptr[r] <= ptr[r + 1] <= len(ind) and
                all(0 <= c < n for c in ind[ptr[r]:ptr[r + 1]]) for r in range(m))
    args = ((m, n), gp.asarray(ptr), gp.asarray(ind), gp.asarray(data), gp.asarray(x))
    if not valid:
        with pytest.raises(IndexError, match="out of bounds"):
            gp.asnumpy(dev.csr_matvec(*args))
        return
    want = np.array([sum(data[e] * x[ind[e]] for e in range(ptr[r], ptr[r + 1]))
                     for r in range(m)], np.float64)
    np.testing.assert_array_equal(gp.asnumpy(dev.csr_matvec(*args)), want)
