"""Property tests of matrices and index grids against NumPy: diag, diagflat,
diagonal (and ndarray.diagonal), trace (and ndarray.trace), tri, tril,
triu, vander, meshgrid, indices, ix_, fromfunction, unravel_index,
ravel_multi_index, and the logarithmic ranges logspace and geomspace.
Results must have NumPy's values, dtype and shape; where NumPy raises, gpunp
raises the same kind of error."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp

from .outcome import same_outcome
from .strategies import assert_same, device_arrays, dtypes, shapes, tolerance
from .test_shaping import an_array, assert_all_same


def _check(numpy_call, gpunp_call, many=False, **kw):
    got, want = same_outcome(numpy_call, gpunp_call)
    if want is not None:
        if many:
            assert_all_same(got, want)
        else:
            assert_same(got, want, **kw)


# ---- diagonals --------------------------------------------------------------------------

@given(data=st.data())
def test_diagonal_matches_numpy(data):
    g, h = data.draw(an_array(0, 4))
    nd = h.ndim
    offset = data.draw(st.integers(-5, 5), label="offset")
    ax1, ax2 = data.draw(st.integers(-nd - 1, nd), label="axis1"), \
        data.draw(st.integers(-nd - 1, nd), label="axis2")
    got, want = same_outcome(lambda: np.diagonal(h, offset, ax1, ax2),
                             lambda: gp.diagonal(g, offset, ax1, ax2))
    if want is not None:
        assert_same(got, want)
        assert got.base is g.base or got.base is g  # a view, as NumPy's
        with pytest.raises(ValueError):  # read-only, as NumPy's
            got[...] = 0
    _check(lambda: h.diagonal(offset, ax1, ax2), lambda: g.diagonal(offset, ax1, ax2))


@given(data=st.data())
def test_trace_matches_numpy(data):
    g, h = data.draw(an_array(0, 3))
    nd = h.ndim
    offset = data.draw(st.integers(-4, 4), label="offset")
    ax1, ax2 = data.draw(st.integers(-nd, max(nd - 1, 0)), label="axis1"), \
        data.draw(st.integers(-nd, max(nd - 1, 0)), label="axis2")
    dt = data.draw(st.one_of(st.none(), dtypes()), label="dtype")
    rtol = tolerance(dt or h.dtype) * 10
    _check(lambda: np.trace(h, offset, ax1, ax2, dtype=dt),
           lambda: gp.trace(g, offset, ax1, ax2, dtype=dt), rtol=rtol)
    _check(lambda: h.trace(offset, ax1, ax2), lambda: g.trace(offset, ax1, ax2), rtol=rtol)


# ---- triangles and Vandermonde matrices --------------------------------------------------

# NumPy's k may be a bool or a NumPy integer (a float: test_float_offset_is_refused)
KS = st.one_of(st.integers(-6, 6), st.sampled_from([True, np.True_, np.int8(2)]))


@pytest.mark.parametrize("name", ["tri", "tril", "triu", "tril_indices", "triu_indices"])
def test_float_offset_is_refused(name):
    """NumPy 2.4 truncates a float k, 2.5 deprecates it (docs/differences.md)."""
    arg = 3 if name in ("tri", "tril_indices", "triu_indices") else gp.ones((3, 3))
    with pytest.raises(TypeError):
        getattr(gp, name)(arg, k=1.0)


@given(N=st.integers(-1, 5), M=st.one_of(st.none(), st.integers(-1, 5)), k=KS, dt=dtypes())
def test_tri_matches_numpy(N, M, k, dt):
    _check(lambda: np.tri(N, M, k, dt), lambda: gp.tri(N, M, k, dt))


@pytest.mark.parametrize("name", ["diag", "diagflat", "tril", "triu"])
@given(data=st.data())
def test_diag_diagflat_tril_triu_match_numpy(name, data):
    g, h = data.draw(an_array(0, 4))
    # (not np.True_ for diag: NumPy's slicing with it fails or not by the size)
    k = data.draw(KS if name in ("tril", "triu") else
                  st.one_of(st.integers(-6, 6), st.sampled_from([True, np.int8(2)])), label="k")
    _check(lambda: getattr(np, name)(h, k), lambda: getattr(gp, name)(g, k))


@given(data=st.data())
def test_vander_matches_numpy(data):
    dt = data.draw(dtypes(), label="dtype")
    g, h = data.draw(device_arrays(dt, data.draw(shapes(0, 2, max_side=5)), finite=True),
                     label="x")
    N = data.draw(st.one_of(st.none(), st.integers(-1, 6)), label="N")
    inc = data.draw(st.booleans(), label="increasing")
    got, want = same_outcome(lambda: np.vander(h, N, inc), lambda: gp.vander(g, N, inc))
    if want is None:
        return
    # Where a power overflowed, which of a complex result's parts is inf and
    # which NaN depends on how the products were grouped and on the multiply's
    # formula (NumPy's SIMD loops fuse multiply-adds): both must have overflowed.
    g_host, over = got.get(), ~np.isfinite(want)
    assert not np.isfinite(g_host[over]).any(), (g_host[over], want[over])
    if over.any():
        g_host, want = g_host[~over], want[~over]
    # a parallel scan may group the products otherwise than NumPy's loop
    assert_same(g_host, want, rtol=tolerance(dt) * 10, atol=1e-300)


# ---- grids of indices ----------------------------------------------------------------------

@given(data=st.data())
def test_meshgrid_matches_numpy(data):
    n = data.draw(st.integers(0, 3), label="number of arrays")
    pairs = [data.draw(an_array(0, 2), label=f"x{i}") for i in range(n)]
    g, h = [a for a, _ in pairs], [b for _, b in pairs]
    kw = {"indexing": data.draw(st.sampled_from(["xy", "ij", "yx"]), label="indexing"),
          "sparse": data.draw(st.booleans(), label="sparse"),
          "copy": data.draw(st.booleans(), label="copy")}
    _check(lambda: np.meshgrid(*h, **kw), lambda: gp.meshgrid(*g, **kw), many=True)


@given(dims=shapes(0, 3, max_side=4), dt=dtypes("iuf"), sparse=st.booleans())
def test_indices_and_fromfunction_match_numpy(dims, dt, sparse):
    _check(lambda: np.indices(dims, dt, sparse), lambda: gp.indices(dims, dt, sparse),
           many=sparse)
    _check(lambda: np.fromfunction(lambda *ix: sum(ix) * 2, dims, dtype=dt),
           lambda: gp.fromfunction(lambda *ix: sum(ix) * 2, dims, dtype=dt))


@given(data=st.data())
def test_ix_matches_numpy(data):
    n = data.draw(st.integers(0, 3), label="number of arrays")
    pairs = [data.draw(an_array(0, 2, kinds="biuf"), label=f"x{i}") for i in range(n)]
    _check(lambda: np.ix_(*[b for _, b in pairs]), lambda: gp.ix_(*[a for a, _ in pairs]),
           many=True)


@given(data=st.data())
def test_unravel_index_matches_numpy(data):
    dims = data.draw(st.one_of(shapes(0, 3, max_side=4), st.integers(0, 6)), label="dims")
    size = int(np.prod(dims))
    dt = data.draw(dtypes("biuf"), label="dtype")
    values = st.booleans() if dt.kind == "b" else st.integers(0 if dt.kind == "u" else -1, size)
    h = np.asarray(data.draw(st.one_of(values, st.lists(values, max_size=6))), dtype=dt)
    order = data.draw(st.sampled_from(["C", "F", "A"]), label="order")
    _check(lambda: np.unravel_index(h, dims, order), lambda: gp.unravel_index(gp.asarray(h),
                                                                             dims, order),
           many=True)


@given(data=st.data())
def test_ravel_multi_index_matches_numpy(data):
    dims = data.draw(shapes(0, 3, max_side=4), label="dims")
    n = len(dims) + (data.draw(st.integers(0, 9), label="wrong length") == 0)
    mode = data.draw(st.one_of(st.sampled_from(["raise", "wrap", "clip", "bad"]),
                               st.lists(st.sampled_from(["raise", "wrap", "clip"]),
                                        min_size=len(dims), max_size=len(dims) + 1)),
                     label="mode")
    order = data.draw(st.sampled_from(["C", "F", "A"]), label="order")
    length = data.draw(st.integers(0, 4), label="length")
    coords = []
    for d in range(n):
        dt = data.draw(dtypes("iuf"), label=f"dtype {d}")
        side = dims[d] if d < len(dims) else 3
        top = side + 1 if data.draw(st.integers(0, 3)) == 0 else max(side - 1, 0)
        values = st.integers(0 if dt.kind == "u" else -2, top)
        coords.append(np.asarray(data.draw(st.lists(values, min_size=length, max_size=length)),
                                 dtype=dt))
    _check(lambda: np.ravel_multi_index(tuple(coords), dims, mode, order),
           lambda: gp.ravel_multi_index(tuple(gp.asarray(c) for c in coords), dims, mode, order))


# ---- logarithmic ranges ---------------------------------------------------------------------

@given(start=st.floats(-5, 5), stop=st.floats(-5, 5), num=st.integers(-1, 7),
       endpoint=st.booleans(), base=st.sampled_from([10.0, 2, 0.5, np.float32(3), 1j]),
       dt=st.one_of(st.none(), dtypes("fc")))
def test_logspace_matches_numpy(start, stop, num, endpoint, base, dt):
    _check(lambda: np.logspace(start, stop, num, endpoint, base, dt),
           lambda: gp.logspace(start, stop, num, endpoint, base, dt),
           rtol=tolerance(dt or np.float64) * 100)


@given(start=st.one_of(st.sampled_from([0, 1, -1, 1j, -1 + 0j, 1000]), st.floats(-1e3, 1e3)),
       stop=st.one_of(st.sampled_from([0, 1, -1, 1j, 1000, np.float32(2)]),
                      st.floats(-1e3, 1e3)),
       num=st.integers(-1, 7), endpoint=st.booleans(),
       dt=st.one_of(st.none(), dtypes("fc")), axis=st.sampled_from([0, -1, 1]))
def test_geomspace_matches_numpy(start, stop, num, endpoint, dt, axis):
    _check(lambda: np.geomspace(start, stop, num, endpoint, dt, axis),
           lambda: gp.geomspace(start, stop, num, endpoint, dt, axis),
           rtol=tolerance(dt or np.float64) * 100, atol=1e-12)


def test_matrices_errors_and_dispatch():
    a = gp.asarray(np.arange(12.0).reshape(3, 4))
    with pytest.raises(ValueError):
        gp.diagonal(gp.zeros(3))
    with pytest.raises(ValueError):
        gp.diagonal(a, 0, 1, -1)
    with pytest.raises(TypeError):  # NumPy's tri() needs N
        gp.tril(gp.zeros(()))
    with pytest.raises(ValueError):
        gp.diag(gp.zeros((2, 2, 2)))
    with pytest.raises(ValueError):
        gp.unravel_index(5, (2, 2))
    with pytest.raises(TypeError):
        gp.unravel_index(gp.zeros(2), (2, 2))
    with pytest.raises(ValueError):
        gp.ravel_multi_index((gp.asarray(np.array([1])), gp.asarray(np.array([2]))), (3, 0))
    with pytest.raises(ValueError):
        gp.ravel_multi_index((gp.asarray(np.array([1])),) * 2, (2**40, 2**40))
    with pytest.raises(ValueError):
        gp.vander(a)
    # powers of 10 ** 0.5 round differently on a GPU (one ulp on the H200)
    np.testing.assert_allclose(gp.geomspace(gp.ones(2), 10, 3).get(),
                               np.geomspace(np.ones(2), 10, 3), rtol=4 * np.finfo(float).eps)
    with pytest.raises(ValueError):
        gp.geomspace(0, 10)
    # the diagonal is a view of the array's memory
    d = gp.diagonal(a, 1)
    assert d.tolist() == [1.0, 6.0, 11.0] and d.base is a
    # NumPy's functions on gpunp arrays run gpunp's (NEP 18)
    for fn, args in [(np.diagonal, (a,)), (np.trace, (a,)), (np.diag, (a,)), (np.tril, (a,)),
                     (np.triu, (a,)), (np.diagflat, (a,)), (np.vander, (a[0],))]:
        assert isinstance(fn(*args), gp.ndarray), fn
    assert all(isinstance(x, gp.ndarray) for x in np.meshgrid(a[0], a[1]))
    assert all(isinstance(x, gp.ndarray) for x in np.unravel_index(gp.arange(3), (2, 2)))
