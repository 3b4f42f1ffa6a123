"""Hypothesis strategies for sparse inputs, shared by the property tests of
gpunp.scipy.sparse and its linalg and csgraph: a gpunp sparse object paired
with the SciPy object that holds the same arrays, in every format and dtype,
with int32 or int64 indices, random shapes (0 rows or columns too), empty
rows, duplicate entries, unsorted indices and explicit zeros.

Values are small integers and halves, so that sums and products are exact in
every dtype and a result can be compared bit for bit."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import strategies as st

import gpunp as gp
import gpunp.scipy.sparse as gsp

from .outcome import error_kind

SPARSE_DTYPES = [np.dtype(n) for n in (
    "bool", "int32", "int64", "float32", "float64", "complex64", "complex128")]
INDEX_DTYPES = [np.dtype(np.int32), np.dtype(np.int64)]
FORMATS = ("csr", "csc", "coo", "dia", "bsr")
_VALUES = (-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0)


def cls_of(fmt: str, array: bool, lib=gsp):
    """The class of a format and flavour in `lib` (gpunp.scipy.sparse or scipy.sparse)."""
    return getattr(lib, f"{fmt}_{'array' if array else 'matrix'}")


def _values(draw, n, dtype):
    v = np.array(draw(st.lists(st.sampled_from(_VALUES), min_size=n, max_size=n)))
    if dtype.kind == "c":
        im = np.array(draw(st.lists(st.sampled_from(_VALUES), min_size=n, max_size=n)))
        v = v + 1j * im
    elif dtype.kind in "iu":
        v = np.floor(v)
    return v.astype(dtype)


@st.composite
def shapes2d(draw, max_side=6, min_side=0):
    return (draw(st.integers(min_side, max_side)), draw(st.integers(min_side, max_side)))


@st.composite
def triples(draw, shape, dtype, index_dtype=np.int32, max_nnz=None):
    """(data, row, col) NumPy arrays: random entries of `shape`, duplicates and
    zeros allowed, in random order."""
    m, n = shape
    cap = 0 if m * n == 0 else (max_nnz if max_nnz is not None else m * n + 4)
    nnz = draw(st.integers(0, cap))
    row = np.array(draw(st.lists(st.integers(0, max(m - 1, 0)), min_size=nnz, max_size=nnz)),
                   dtype=index_dtype)
    col = np.array(draw(st.lists(st.integers(0, max(n - 1, 0)), min_size=nnz, max_size=nnz)),
                   dtype=index_dtype)
    return _values(draw, nnz, np.dtype(dtype)), row, col


def _compressed_arrays(data, major, minor, nmajor, index_dtype):
    """CSR arrays grouped by `major` but left unsorted within each line."""
    order = np.argsort(major, kind="stable")
    indptr = np.searchsorted(major[order], np.arange(nmajor + 1)).astype(index_dtype)
    return data[order], minor[order].astype(index_dtype), indptr


@st.composite
def sparse_pairs(draw, formats=FORMATS, dtypes=SPARSE_DTYPES, shape=None, array=None,
                 index_dtypes=INDEX_DTYPES, max_side=6, canonical=None, max_nnz=None):
    """(gpunp sparse object, SciPy sparse object) holding the same arrays.

    `canonical=True` sums duplicates and sorts indices first; None draws it."""
    fmt = draw(st.sampled_from(formats))
    dtype = np.dtype(draw(st.sampled_from(dtypes)))
    idx = np.dtype(draw(st.sampled_from(index_dtypes)))
    is_array = draw(st.booleans()) if array is None else array
    shape = shape if shape is not None else draw(shapes2d(max_side))
    data, row, col = draw(triples(shape, dtype, idx, max_nnz))
    if canonical is None:
        canonical = draw(st.booleans())
    host = sp.coo_array((data, (row, col)), shape=shape)
    if canonical:
        host.sum_duplicates()
        data, (row, col) = host.data, host.coords
        row, col = row.astype(idx), col.astype(idx)
    if fmt in ("dia", "bsr"):
        # built by SciPy and copied over: the format's own layout as SciPy makes it
        host = host.asformat(fmt) if fmt == "dia" else host.tobsr(
            blocksize=draw(st.sampled_from([b for b in ((1, 1), (1, 2), (2, 1), (2, 2))
                                            if shape[0] % b[0] == 0 and
                                            shape[1] % b[1] == 0])))
        s = cls_of(fmt, is_array, sp)(host)
        g = cls_of(fmt, is_array)(s)
    elif fmt == "coo":
        arg = (data, (row, col))
        s = cls_of("coo", is_array, sp)(arg, shape=shape)
        g = cls_of("coo", is_array)((gp.asarray(data), (gp.asarray(row), gp.asarray(col))),
                                    shape=shape)
    else:
        major, minor, nmajor = (row, col, shape[0]) if fmt == "csr" else (col, row, shape[1])
        arrays = _compressed_arrays(data, major, minor, nmajor, idx)
        s = cls_of(fmt, is_array, sp)(arrays, shape=shape)
        g = cls_of(fmt, is_array)(tuple(gp.asarray(a) for a in arrays), shape=shape)
    return g, s


def random_host(rng, m, n, density, dtype=np.float64, index_dtype=np.int32,
                duplicates=False, unsorted=False):
    """SciPy's CSR array of a random matrix (random float values, for the
    solvers' tests), optionally with duplicate entries and unsorted indices
    within rows (the same matrix, as SciPy sums them)."""
    a = sp.random_array((m, n), density=density, rng=rng, dtype=np.float64, format="coo")
    data = a.data.astype(dtype)
    if np.dtype(dtype).kind == "c":
        data = data + 1j * rng.standard_normal(len(data)).astype(dtype)
    rows, cols = a.coords
    if duplicates and len(data):
        half = data / 2
        data = np.concatenate([half, data - half])
        rows, cols = np.concatenate([rows, rows]), np.concatenate([cols, cols])
    order = rng.permutation(len(data)) if unsorted else np.lexsort((cols, rows))
    rows, cols, data = rows[order], cols[order], data[order]
    data, indices, indptr = _compressed_arrays(data, rows, cols, m, np.dtype(index_dtype))
    return sp.csr_array((data, indices, indptr), shape=(m, n))


def to_pair(host, fmt="csr", array=True):
    """(gpunp sparse object, SciPy sparse object) of `fmt` and flavour holding
    the SciPy matrix or dense array `host` (duplicates and order kept where
    SciPy's conversion keeps them). The gpunp object is a copy, made first:
    SciPy sums a matrix's duplicates in place when a function reads it."""
    s = cls_of(fmt, array, sp)(host if sp.issparse(host) and host.format == fmt
                               else sp.csr_array(host).asformat(fmt))
    return cls_of(fmt, array)(s), s


def dense_pairs(shape, dtype):
    """A strategy for (gpunp array, NumPy array) of small exact values."""
    n = shape[0] * shape[1] if len(shape) == 2 else shape[0]

    @st.composite
    def build(draw):
        x = _values(draw, n, np.dtype(dtype)).reshape(shape)
        return gp.asarray(x), x
    return build()


def assert_same(got, want, exact=True, check_format=True, check_index_dtype=True, rtol=None):
    """`got` (gpunp: sparse, dense array or scalar) equals SciPy's `want`:
    same class and format for sparse results, same dtype, same values
    (where `rtol` is given: within rtol of each value or of the largest, as
    the rounding of a matrix function is relative to the matrix's norm)."""
    if sp.issparse(want):
        assert gsp.issparse(got), f"expected a sparse result, got {type(got)}"
        host = got.get()
        if check_format:
            assert type(host) is type(want), (type(host), type(want))
        else:
            assert isinstance(host, sp.sparray) == isinstance(want, sp.sparray)
        assert host.shape == want.shape
        assert host.dtype == want.dtype, (host.dtype, want.dtype)
        if check_index_dtype and want.format in ("csr", "csc", "bsr"):
            assert host.indices.dtype == want.indices.dtype, (host.indices.dtype,
                                                             want.indices.dtype)
        g, w = host.toarray(), want.toarray()
    elif not check_format and gsp.issparse(got):
        g, w = got.toarray().get(), np.asarray(want)
    else:
        assert not gsp.issparse(got)
        g = got.get() if isinstance(got, gp.ndarray) else np.asarray(got)
        w = np.asarray(want)
        assert g.shape == w.shape, (g.shape, w.shape)
        assert g.dtype == w.dtype, (g.dtype, w.dtype)
    if rtol is not None:
        big = float(np.abs(w).max()) if w.size else 0.0
        np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol * max(big, 1.0))
    elif exact:
        np.testing.assert_array_equal(g, w)
    else:
        np.testing.assert_allclose(g, w, rtol=1e-5 if g.dtype.itemsize <= 8 and
                                   g.dtype.kind != "c" or g.dtype == np.complex64 else 1e-12,
                                   atol=1e-6)


def both(f, g, s, *args):
    """f on the gpunp and the SciPy operands (each of `args` a (gpunp, SciPy)
    pair): (gpunp's result, SciPy's), or None where SciPy raised and gpunp
    raised the same kind of exception."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want = f(s, *(a[1] for a in args))
        except Exception as exc:  # noqa: BLE001 - the same exception is the expectation
            with pytest.raises(error_kind(exc)):
                f(g, *(a[0] for a in args))
            return None
        return f(g, *(a[0] for a in args)), want


def check(f, g, s, *args, exact=True, **kw):
    """both(), then assert_same() on the results."""
    r = both(f, g, s, *args)
    if r is not None:
        assert_same(*r, exact=exact, **kw)
