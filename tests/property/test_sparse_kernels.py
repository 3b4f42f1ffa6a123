"""The hot-kernel contract of gpunp.scipy.sparse (csr_matvec, csr_matmat,
csr_spgemm, the engine's products in _device.py) against SciPy. Inputs have duplicates, unsorted indices, empty rows, int32 and
int64 indices; results must have numpy.result_type of the operands, SpGEMM's
indices sorted without duplicates, exact zeros dropped and int32 indices
where they fit."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st

import gpunp as gp

from .sparse_strategies import SPARSE_DTYPES, dense_pairs, sparse_pairs


IMPLS = [importlib.import_module("gpunp.scipy.sparse._device")]
FEW = settings(max_examples=15)


def _csr(data, m, k, array=True):
    g, s = data.draw(sparse_pairs(formats=("csr",), shape=(m, k), array=array,
                                  canonical=False), label="A")
    return g, s


@pytest.mark.parametrize("impl", IMPLS, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
@FEW
@given(st.data())
def test_matvec_and_matmat(impl, data):
    m, k, n = (data.draw(st.integers(0, 5), label=c) for c in "mkn")
    g, s = _csr(data, m, k)
    dt = data.draw(st.sampled_from(SPARSE_DTYPES), label="x dtype")
    x, hx = data.draw(dense_pairs((k,), dt), label="x")
    y = impl.csr_matvec((m, k), g.indptr, g.indices, g.data, x)
    want = s @ hx
    assert y.dtype == np.result_type(s.dtype, hx.dtype) and y.shape == (m,)
    np.testing.assert_array_equal(y.get(), want.astype(y.dtype))
    X, hX = data.draw(dense_pairs((k, n), dt), label="X")
    Y = impl.csr_matmat((m, k), g.indptr, g.indices, g.data, X)
    assert Y.dtype == np.result_type(s.dtype, hX.dtype) and Y.shape == (m, n)
    assert Y.flags.c_contiguous
    np.testing.assert_array_equal(Y.get(), (s @ hX).astype(Y.dtype))


@pytest.mark.parametrize("impl", IMPLS, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
@FEW
@given(st.data())
def test_spgemm(impl, data):
    m, k, n = (data.draw(st.integers(0, 5), label=c) for c in "mkn")
    a, sa = _csr(data, m, k)
    b, sb = _csr(data, k, n)
    indptr, indices, values = impl.csr_spgemm((m, k), a.indptr, a.indices, a.data,
                                              (k, n), b.indptr, b.indices, b.data)
    assert values.dtype == np.result_type(sa.dtype, sb.dtype)
    assert indptr.dtype == indices.dtype == np.int32  # small: int32 fits
    ip, ind, val = indptr.get(), indices.get(), values.get()
    got = sp.csr_array((val, ind, ip), shape=(m, n))
    assert got.has_sorted_indices and got.has_canonical_format
    assert (val != 0).all()  # exact zeros dropped
    want = (sa @ sb).toarray().astype(values.dtype)
    np.testing.assert_array_equal(got.toarray(), want)


def test_spgemm_drops_entries_that_cancel():
    a = gp.asarray(np.array([1.0, -1.0])), gp.asarray(np.array([0, 1], dtype=np.int32))
    ptr = gp.asarray(np.array([0, 2], dtype=np.int32))
    b_data = gp.asarray(np.array([1.0, 1.0]))
    b_ind = gp.asarray(np.array([0, 0], dtype=np.int32))
    b_ptr = gp.asarray(np.array([0, 1, 2], dtype=np.int32))
    for impl in IMPLS:
        indptr, indices, values = impl.csr_spgemm((1, 2), ptr, a[1], a[0], (2, 1), b_ptr,
                                                  b_ind, b_data)
        assert values.size == 0 and indptr.get().tolist() == [0, 0]
