"""Property tests of gpunp.scipy.sparse's construction functions against
SciPy: eye/eye_array/identity, diags/diags_array/spdiags, kron, kronsum,
hstack/vstack/bmat/block_array/block_diag, tril/triu and find on random
sparse and dense inputs, every format of result; random/random_array/rand by
their properties (the streams are gpunp's, not NumPy's)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st

import gpunp as gp
import gpunp.scipy.sparse as gsp

from .sparse_strategies import (
    SPARSE_DTYPES, check, dense_pairs, shapes2d, sparse_pairs)

FEW = settings(max_examples=20)
RESULT_FORMATS = [None, "csr", "csc", "coo", "dia", "bsr"]
EXACT_FORMATS = ("csr", "csc", "coo")


@FEW
@given(st.integers(0, 5), st.integers(0, 5), st.integers(-5, 5),
       st.sampled_from(SPARSE_DTYPES), st.sampled_from(RESULT_FORMATS))
def test_eye_and_identity(m, n, k, dtype, fmt):
    check(lambda lib: lib.eye(m, n, k=k, dtype=dtype, format=fmt), gsp, sp)
    check(lambda lib: lib.eye_array(m, n, k=k, dtype=dtype, format=fmt), gsp, sp)
    check(lambda lib: lib.identity(m, dtype=dtype, format=fmt), gsp, sp)


@FEW
@given(st.data(), st.sampled_from(RESULT_FORMATS))
def test_diags(data, fmt):
    m, n = data.draw(shapes2d(5, min_side=1), label="shape")
    offsets = data.draw(st.lists(st.integers(-m + 1, n - 1), min_size=1, max_size=3,
                                 unique=True), label="offsets")
    dt = data.draw(st.sampled_from(SPARSE_DTYPES), label="dtype")
    diags = []
    for o in offsets:
        length = min(m + o, n - o, min(m, n))
        diags.append(data.draw(dense_pairs((max(length, 0),), dt), label=f"diag {o}"))
    gd, sd = [d[0] for d in diags], [d[1] for d in diags]
    # dtype=None: the dtype of the diagonals (SciPy's default still warns and widens to a
    # float type; gpunp takes the announced future default)
    check(lambda lib, d: lib.diags_array(d, offsets=offsets, shape=(m, n), format=fmt,
                                         dtype=None), gsp, sp, (gd, sd))
    check(lambda lib, d: lib.diags(d, offsets=offsets, shape=(m, n), format=fmt, dtype=dt),
          gsp, sp, (gd, sd))
    rows = data.draw(dense_pairs((len(offsets), n), dt), label="spdiags data")
    check(lambda lib, d: lib.spdiags(d, np.array(offsets), m, n, format=fmt), gsp, sp, rows)


@FEW
@given(st.data(), st.sampled_from(RESULT_FORMATS))
def test_kron_and_kronsum(data, fmt):
    array = data.draw(st.booleans(), label="array")
    a = data.draw(sparse_pairs(formats=EXACT_FORMATS, array=array, max_side=3), label="A")
    b = data.draw(sparse_pairs(formats=EXACT_FORMATS, array=array, max_side=3), label="B")
    check(lambda lib, x, y: lib.kron(x, y, format=fmt), gsp, sp, a, b,
          check_index_dtype=fmt not in (None, "bsr"))
    n = data.draw(st.integers(0, 3), label="n")
    p = data.draw(sparse_pairs(formats=EXACT_FORMATS, array=array, shape=(n, n)), label="P")
    q = data.draw(sparse_pairs(formats=EXACT_FORMATS, array=array, shape=(2, 2)), label="Q")
    check(lambda lib, x, y: lib.kronsum(x, y, format=fmt), gsp, sp, p, q,
          check_index_dtype=False)


@FEW
@given(st.data(), st.sampled_from([None, "csr", "csc", "coo"]))
def test_stacking(data, fmt):
    array = data.draw(st.booleans(), label="array")
    m, n = data.draw(shapes2d(3), label="shape")
    same_fmt = data.draw(st.sampled_from([("csr",), ("csc",), EXACT_FORMATS]), label="formats")
    blocks = [data.draw(sparse_pairs(formats=same_fmt, array=array, shape=(m, n)),
                        label=f"block {i}") for i in range(3)]
    wide = data.draw(sparse_pairs(formats=same_fmt, array=array, shape=(m, n + 1)),
                     label="wide")
    g, s = [b[0] for b in blocks], [b[1] for b in blocks]
    kw = dict(check_index_dtype=False)
    check(lambda lib, x: lib.hstack(x, format=fmt), gsp, sp, (g + [wide[0]], s + [wide[1]]),
          **kw)
    check(lambda lib, x: lib.vstack(x, format=fmt), gsp, sp, (g, s), **kw)
    check(lambda lib, x: lib.vstack(x, format=fmt), gsp, sp, (g + [wide[0]], s + [wide[1]]),
          **kw)  # mismatched columns raise as SciPy
    grid_g = [[g[0], None], [None, g[1]]]
    grid_s = [[s[0], None], [None, s[1]]]
    check(lambda lib, x: lib.bmat(x, format=fmt), gsp, sp, (grid_g, grid_s), **kw)
    check(lambda lib, x: lib.block_array(x, format=fmt), gsp, sp, (grid_g, grid_s), **kw)
    check(lambda lib, x: lib.block_diag(x, format=fmt), gsp, sp, (g, s), **kw)
    dense = data.draw(dense_pairs((2, 2), np.float64), label="dense")
    check(lambda lib, x: lib.block_diag(x, format=fmt), gsp, sp,
          ([g[0], dense[0]], [s[0], dense[1]]), **kw)


@FEW
@given(sparse_pairs(), st.integers(-4, 4), st.sampled_from([None, "csr", "csc", "coo"]))
def test_tril_triu_find(pair, k, fmt):
    g, s = pair
    check(lambda lib, x: lib.tril(x, k=k, format=fmt), gsp, sp, pair, check_index_dtype=False)
    check(lambda lib, x: lib.triu(x, k=k, format=fmt), gsp, sp, pair, check_index_dtype=False)
    gr, gc, gv = gsp.find(g)
    sr, sc, sv = sp.find(s)
    for got, want in ((gr, sr), (gc, sc), (gv, sv)):
        np.testing.assert_array_equal(got.get(), want)


@settings(max_examples=10)
@given(shapes2d(8), st.sampled_from([0.0, 0.1, 0.5, 1.0]),
       st.sampled_from(SPARSE_DTYPES), st.sampled_from(["coo", "csr", "csc"]),
       st.integers(0, 2**32 - 1))
def test_random_properties(shape, density, dtype, fmt, seed):
    a = gsp.random_array(shape, density=density, format=fmt, dtype=dtype, rng=seed)
    want = sp.random_array(shape, density=density, format=fmt, dtype=dtype, rng=seed)
    host = a.get()
    assert type(host) is type(want) and host.dtype == want.dtype and host.shape == shape
    assert host.nnz == want.nnz  # round(density * size) distinct positions
    assert sp.coo_array(host).has_canonical_format or host.nnz == len(
        set(zip(*sp.coo_array(host).coords)))
    if dtype.kind == "f":
        assert ((host.data >= 0) & (host.data < 1)).all()
    again = gsp.random_array(shape, density=density, format=fmt, dtype=dtype, rng=seed)
    np.testing.assert_array_equal(again.toarray().get(), host.toarray())
    m = gsp.random(*shape, density=density, format=fmt, dtype=dtype, rng=seed)
    assert isinstance(m.get(), sp.spmatrix) and m.nnz == want.nnz
    assert isinstance(gsp.rand(*shape, density=density, rng=seed).get(), sp.coo_matrix)


def test_random_rejects_bad_density():
    for f in (lambda lib: lib.random_array((3, 3), density=1.5),
              lambda lib: lib.random(3, 3, density=-0.1)):
        check(f, gsp, sp)


def test_blocks_not_2d_message():
    """SciPy 1.18 lengthened the message ('..., and some must be sparse')."""
    for blocks in ([], [[[]]]):
        for name in ("bmat", "block_array"):
            try:
                getattr(sp, name)(blocks)
            except ValueError as exc:
                want = str(exc)
            with pytest.raises(ValueError) as got:
                getattr(gsp, name)(blocks)
            assert str(got.value) == want


def test_random_data_sampler_runs_on_the_device():
    a = gsp.random_array((5, 5), density=0.4, rng=0,
                         data_sampler=lambda k: gp.full(k, 7.0))
    assert a.nnz == 10 and (a.data == 7.0).all()


@FEW
@given(sparse_pairs(formats=EXACT_FORMATS), st.sampled_from([0, 1, -1, -2]),
       st.sampled_from([0, 1, -1]))
def test_axes_functions(pair, a1, a2):
    check(lambda lib, x: lib.swapaxes(x, a1, a2), gsp, sp, pair)
    # copy=True: SciPy's permute_dims permutes a COO input in place otherwise
    check(lambda lib, x: lib.permute_dims(x, copy=True), gsp, sp, pair)
    check(lambda lib, x: lib.permute_dims(x, axes=(0, 1), copy=True), gsp, sp, pair)
    check(lambda lib, x: lib.permute_dims(x, axes=(0, 0), copy=True), gsp, sp, pair)


@FEW
@given(sparse_pairs(formats=EXACT_FORMATS), st.sampled_from([np.int32, np.int64, np.int8]))
def test_index_dtype_functions(pair, dtype):
    g, s = pair
    got = gsp.safely_cast_index_arrays(g, dtype)
    want = sp.safely_cast_index_arrays(s, dtype) if dtype != np.int8 or \
        max(s.shape) < 127 else None
    if want is not None:
        assert len(got) == len(want)
        for x, y in zip(got, want):
            assert x.dtype == y.dtype
            np.testing.assert_array_equal(x.get(), y)
    for maxval in (None, 5, 2**31, 2**40):
        assert gsp.get_index_dtype(maxval=maxval) == sp.get_index_dtype(maxval=maxval)
    arrays = [np.zeros(2, dtype=np.int64)]
    for contents in (False, True):
        assert gsp.get_index_dtype([gp.asarray(a) for a in arrays], check_contents=contents) \
            == sp.get_index_dtype(arrays, check_contents=contents)


def test_expand_dims_of_a_1d_array():
    g = gsp.csr_array(gp.asarray(np.array([[0.0, 2.0, 0.0]])))[0]
    s = sp.csr_array(np.array([[0.0, 2.0, 0.0]]))[0]
    for axis in (0, 1, -1):
        check(lambda lib, x: lib.expand_dims(x, axis=axis), gsp, sp, (g, s),
              check_format=False)
