"""Property tests of gpunp.scipy.sparse's formats against SciPy: construction
from every input kind, conversions among the formats, the canonical-format
methods, transpose, reshape and resize; every format and dtype, int32 and
int64 indices, duplicates, unsorted indices, empty rows and columns."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st

import gpunp as gp
import gpunp.scipy.sparse as gsp

from .sparse_strategies import FORMATS, assert_same, check, cls_of, sparse_pairs

FEW = settings(max_examples=25)


@FEW
@given(sparse_pairs())
def test_round_trip_and_attributes(pair):
    g, s = pair
    assert_same(g, s)
    assert g.shape == s.shape and g.nnz == s.nnz and g.format == s.format
    assert g.dtype == s.dtype and g.ndim == s.ndim
    assert gsp.issparse(g) and gsp.isspmatrix(g) == sp.isspmatrix(s)
    for name in ("data", "indices", "indptr", "row", "col"):
        if hasattr(s, name):
            got, want = getattr(g, name), getattr(s, name)
            assert isinstance(got, gp.ndarray)
            assert got.dtype == want.dtype, name
            np.testing.assert_array_equal(got.get(), want)
    np.testing.assert_array_equal(g.toarray().get(), s.toarray())
    np.testing.assert_array_equal(g.todense().get(), np.asarray(s.todense()))


@FEW
@given(sparse_pairs(), st.sampled_from(FORMATS))
def test_conversions(pair, fmt):
    g, s = pair
    assert_same(g.asformat(fmt), s.asformat(fmt))
    got, want = g.asformat(fmt), s.asformat(fmt)
    # DIA and BSR sources are compared by value: SciPy's converters keep their explicit
    # zeros and block order, gpunp's go through canonical CSR
    if fmt in ("csr", "csc") and s.format not in ("dia", "bsr"):
        assert got.has_canonical_format == want.has_canonical_format
        np.testing.assert_array_equal(got.indices.get(), want.indices)
        np.testing.assert_array_equal(got.indptr.get(), want.indptr)
        np.testing.assert_array_equal(got.data.get(), want.data)


@FEW
@given(sparse_pairs(), st.data())
def test_construction_from_each_input(pair, data):
    g, s = pair
    fmt = data.draw(st.sampled_from(FORMATS), label="format")
    array = isinstance(s, sp.sparray)
    G, S = cls_of(fmt, array), cls_of(fmt, array, sp)
    dense = s.toarray()
    assert_same(G(gp.asarray(dense)), S(dense))
    assert_same(G(dense), S(dense))                 # a NumPy array is copied over
    assert_same(G(s), S(s))                         # so is a SciPy object
    assert_same(G(g), S(s))                         # and a gpunp one of another format
    assert_same(G(s.shape, dtype=s.dtype), S(s.shape, dtype=s.dtype))
    assert_same(G(g, dtype=np.complex128), S(s, dtype=np.complex128))


@FEW
@given(sparse_pairs(formats=("csr", "csc")))
def test_canonical_format_methods(pair):
    g, s = pair
    assert g.has_sorted_indices == s.has_sorted_indices
    assert g.has_canonical_format == s.has_canonical_format
    a, b = g.copy(), s.copy()
    a.sort_indices(), b.sort_indices()
    np.testing.assert_array_equal(a.indices.get(), b.indices)
    np.testing.assert_array_equal(a.data.get(), b.data)
    a.sum_duplicates(), b.sum_duplicates()
    assert_same(a, b)
    np.testing.assert_array_equal(a.indptr.get(), b.indptr)
    np.testing.assert_array_equal(a.indices.get(), b.indices)
    np.testing.assert_array_equal(a.data.get(), b.data)
    a.eliminate_zeros(), b.eliminate_zeros()
    assert a.nnz == b.nnz
    np.testing.assert_array_equal(a.indptr.get(), b.indptr)
    np.testing.assert_array_equal(a.data.get(), b.data)
    assert_same(g.sorted_indices(), s.sorted_indices())


@FEW
@given(sparse_pairs(formats=("coo",)))
def test_coo_canonical_methods(pair):
    g, s = pair
    a, b = g.copy(), s.copy()
    a.sum_duplicates(), b.sum_duplicates()
    assert a.has_canonical_format and b.has_canonical_format
    np.testing.assert_array_equal(a.row.get(), b.row)
    np.testing.assert_array_equal(a.col.get(), b.col)
    np.testing.assert_array_equal(a.data.get(), b.data)
    a.eliminate_zeros(), b.eliminate_zeros()
    assert a.nnz == b.nnz


@FEW
@given(sparse_pairs(), st.data())
def test_transpose_conj_reshape_resize(pair, data):
    g, s = pair
    exact_idx = s.format not in ("dia", "bsr")
    assert_same(g.T, s.T, check_index_dtype=exact_idx)
    assert_same(g.transpose(copy=True), s.transpose(copy=True), check_index_dtype=exact_idx)
    assert_same(g.conj(), s.conj(), check_index_dtype=exact_idx)
    assert_same(g.conjugate(), s.conjugate(), check_index_dtype=exact_idx)
    m, n = s.shape
    size = m * n
    divisors = [d for d in range(1, size + 1) if size % d == 0] or [1]
    r = data.draw(st.sampled_from(divisors), label="rows")
    new = (r, size // r) if size else (0, data.draw(st.integers(0, 3)))
    order = data.draw(st.sampled_from("CF"), label="order")
    if size or new == s.shape:
        assert_same(g.reshape(new, order=order), s.reshape(new, order=order))
    shape = data.draw(st.tuples(st.integers(0, 7), st.integers(0, 7)), label="resize")

    def resize(x):
        x = x.copy()
        x.resize(shape)
        return x
    check(resize, g, s, check_index_dtype=False)


@settings(max_examples=10)
@given(sparse_pairs())
def test_asnumpy_gives_scipys_object(pair):
    g, s = pair
    host = gp.asnumpy(g)
    assert type(host) is type(s)
    np.testing.assert_array_equal(host.toarray(), s.toarray())


@pytest.mark.parametrize("fmt", FORMATS)
def test_empty_and_zero_sized(fmt):
    for shape in ((0, 0), (0, 3), (3, 0), (2, 2)):
        for array in (True, False):
            assert_same(cls_of(fmt, array)(shape), cls_of(fmt, array, sp)(shape))
