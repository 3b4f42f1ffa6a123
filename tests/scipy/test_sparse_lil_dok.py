"""gpunp.scipy.sparse's LIL and DOK formats against SciPy's: the same sequence of
item assignments (ints, slices, fancy and boolean indices, gpunp index arrays)
leaves the same matrix, item access gives the same values, conversions give
device formats equal to SciPy's, and arithmetic (through CSR) gives SciPy's
values and result formats."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import gpunp as gp
import gpunp.scipy.sparse as gsp

KINDS = [("lil", "array"), ("lil", "matrix"), ("dok", "array"), ("dok", "matrix")]


def _pair(fmt, kind, *args, **kwargs):
    return (getattr(gsp, f"{fmt}_{kind}")(*args, **kwargs),
            getattr(sp, f"{fmt}_{kind}")(*args, **kwargs))


def _dense(x):
    """A result's dense values on the host (gpunp sparse, SciPy sparse or dense)."""
    if gsp.issparse(x):
        x = x.toarray()
    if sp.issparse(x):
        x = x.toarray()
    return gp.asnumpy(x) if isinstance(x, gp.ndarray) else np.asarray(x)


def _same(got, want):
    assert got.shape == want.shape
    if sp.issparse(want):
        assert gsp.issparse(got) and got.format == want.format
        assert isinstance(got, gsp.sparray) == isinstance(want, sp.sparray)
    g, w = _dense(got), _dense(want)
    assert g.dtype == w.dtype
    np.testing.assert_array_equal(g, w)


# (key, value) assignments applied in order to a 5x6 matrix
ASSIGN = [
    ((1, 2), 3.0),
    ((0, slice(None)), np.arange(6.0)),
    (([2, 3], [1, 4]), 7.0),
    ((slice(1, 4), 5), [1.0, 0.0, 2.0]),
    ((4, [0, 2, 5]), [-1.0, 0.0, 9.0]),
    ((-1, -1), 0.5),
    ((np.array([0, 4]), slice(None, None, 2)), 2.0),
    ((0, 0), 0.0),
]


@pytest.mark.parametrize("fmt, kind", KINDS)
def test_assign_and_read_like_scipy(fmt, kind):
    g, s = _pair(fmt, kind, (5, 6), dtype=np.float64)
    for key, value in ASSIGN:
        s[key] = value
        g[key] = value
        _same(g, s)
    # a gpunp index array and a gpunp value array are taken too
    s[np.array([1, 2]), np.array([0, 0])] = np.array([4.0, 5.0])
    g[gp.asarray([1, 2]), gp.asarray([0, 0])] = gp.asarray([4.0, 5.0])
    _same(g, s)
    assert g.nnz == s.nnz
    for key in [(1, 2), (-1, -1), (2, 3)]:
        assert g[key] == s[key] and type(g[key]) is type(s[key])
    for key in [(slice(1, 4), slice(None)), (slice(None), 5), ([0, 4], slice(2, 5)),
                ([0, 3, 3], [1, 4, 5]), (np.array([True, False, True, False, True]),
                                         slice(None))]:
        _same(g[key], s[key])
    with pytest.raises(IndexError):
        s[5, 0]
    with pytest.raises(IndexError):
        g[5, 0]
    with pytest.raises(ValueError):
        s[0, :] = [1.0, 2.0]
    with pytest.raises(ValueError):
        g[0, :] = [1.0, 2.0]


# every dtype, each through one device format (every format for float64)
CONVERSIONS = [(np.float64, ("csr", "csc", "coo", "dia", "bsr")), (np.bool_, ("csr",)),
               (np.int32, ("csc",)), (np.int64, ("csr",)), (np.float32, ("coo",)),
               (np.complex128, ("csr",))]


@pytest.mark.parametrize("fmt", ["lil", "dok"])
@pytest.mark.parametrize("dtype, formats", CONVERSIONS)
def test_conversions_to_every_format(fmt, dtype, formats):
    rng = np.random.default_rng(1)
    dense = (rng.random((4, 6)) < 0.4) * rng.integers(1, 5, (4, 6))
    dense = dense.astype(dtype)
    # built from a gpunp array (LIL) or from a NumPy one (DOK)
    g = getattr(gsp, f"{fmt}_array")(gp.asarray(dense) if fmt == "lil" else dense)
    s = getattr(sp, f"{fmt}_array")(dense)
    _same(g, s)
    assert g.dtype == s.dtype == dtype
    for target in formats + ("lil", "dok"):
        got, want = g.asformat(target), s.asformat(target)
        _same(got, want)
        if target in ("csr", "csc"):
            assert got.indices.dtype == want.indices.dtype
    # from device formats, and from SciPy objects
    for source in formats:
        dev = getattr(gsp, f"{source}_matrix")(gp.asarray(dense))
        _same(dev.asformat(fmt), getattr(sp, f"{source}_matrix")(dense).asformat(fmt))
        _same(getattr(gsp, f"{fmt}_matrix")(dev), getattr(sp, f"{fmt}_matrix")(dense))
    _same(g.toarray(), s.toarray())
    host = g.get()
    assert type(host) is type(s)
    _same(g, host)
    np.testing.assert_array_equal(gp.asnumpy(g).toarray(), dense)


@pytest.mark.parametrize("fmt, kind", KINDS)
def test_arithmetic_through_csr(fmt, kind):
    a = np.array([[1.0, 0, 2], [0, 0, 3], [4, 5, 0]])
    b = np.array([[0.0, 1, 0], [2, 0, 3], [0, 0, 1]])
    g, s = _pair(fmt, kind, a)
    h, t = _pair(fmt, kind, b)
    v = np.array([1.0, 2.0, 3.0])
    cases = [
        (lambda x, y: x + y), (lambda x, y: x - y), (lambda x, y: x @ y),
        (lambda x, y: x * y), (lambda x, y: x.multiply(y)), (lambda x, y: x.maximum(y)),
        (lambda x, y: x * 2), (lambda x, y: 3 * x), (lambda x, y: x / 2), (lambda x, y: -x),
        (lambda x, y: x.T), (lambda x, y: x.copy()),
        (lambda x, y: x.astype(np.complex128)), (lambda x, y: x.reshape((1, 9))),
        (lambda x, y: x != y),
    ]
    for f in cases:
        _same(f(g, h), f(s, t))
    _same(g @ gp.asarray(v), s @ v)
    _same(g + gp.asarray(b), s + b)
    _same(g.diagonal(1), s.diagonal(1))
    for axis in (None, 0, 1):
        _same(gp.asarray(g.sum(axis=axis)), np.asarray(s.sum(axis=axis)))
        if fmt == "dok" and axis is not None:  # SciPy 1.17's DOK counts only in all
            try:
                s.count_nonzero(axis=axis)
            except NotImplementedError:
                with pytest.raises(NotImplementedError):
                    g.count_nonzero(axis=axis)
                continue
        _same(gp.asarray(g.count_nonzero(axis=axis)), np.asarray(s.count_nonzero(axis=axis)))
    assert g.trace() == s.trace()
    # a device sum (in another order on a GPU) over the values
    np.testing.assert_allclose(float(g.mean()), s.mean(), rtol=1e-15)
    assert not hasattr(s, "max") and not hasattr(g, "max") and not hasattr(g, "argmin")
    g.setdiag([7.0, 8.0, 9.0])
    s.setdiag([7.0, 8.0, 9.0])
    _same(g, s)
    g.resize((2, 4))
    s.resize((2, 4))
    _same(g, s)
    if fmt == "dok":  # DOK adds a nonzero scalar, densely, in DOK
        _same(g + 1, s + 1)


def test_checks_and_attributes():
    lil, dok = gsp.lil_matrix((2, 3)), gsp.dok_matrix((2, 3))
    assert gsp.isspmatrix_lil(lil) and not gsp.isspmatrix_lil(dok)
    assert gsp.isspmatrix_dok(dok) and not gsp.isspmatrix_dok(lil)
    assert not gsp.isspmatrix_lil(gsp.lil_array((2, 3))) and gsp.issparse(gsp.dok_array((2, 3)))
    assert gsp.isspmatrix(lil) and isinstance(gsp.lil_array((1, 1)), gsp.sparray)
    assert (lil.format, dok.format) == ("lil", "dok")
    assert not hasattr(lil, "sqrt") and not hasattr(dok, "sum_duplicates")
    assert "List of Lists" in repr(lil) and "Dictionary Of Keys" in repr(dok)
    g, s = _pair("lil", "array", np.array([[0, 2.0, 0], [3, 0, 4]]))
    assert [list(r) for r in g.rows] == [list(r) for r in s.rows]
    assert [list(r) for r in g.data] == [list(r) for r in s.data]
    assert g.rows.dtype == object
    _same(g.getrow(1), s.getrow(1))
    g[0, 0] += 5
    s[0, 0] += 5
    g *= 2
    s *= 2
    _same(g, s)


def test_dok_dictionary_methods():
    g, s = _pair("dok", "array", (3, 3), dtype=np.int64)
    for d in (g, s):
        d[0, 1] = 4
        d[2, 2] = 6
        d.setdefault((1, 0), 9)
        d.update({(0, 0): 1})
    assert dict(g.items()) == dict(s.items()) and list(g.keys()) == list(s.keys())
    assert list(g.values()) == list(s.values()) and len(g) == len(s) == 4
    assert (1, 0) in g and (2, 0) not in g
    for d in (g, s):
        with pytest.raises(TypeError):
            reversed(d)
    for row, want in zip(g, s, strict=True):  # iteration gives rows, as SciPy's
        _same(row, want)
    assert g.get((0, 1)) == s.get((0, 1)) and g.get((2, 0), -1) == s.get((2, 0), -1)
    assert g.pop((0, 0)) == s.pop((0, 0))
    del g[1, 0]
    del s[1, 0]
    _same(g, s)
    assert type(g.get()) is sp.dok_array  # get() with no key is gpunp's host copy
    f, t = gsp.dok_array.fromkeys([(0, 0), (1, 1)], 2), sp.dok_array.fromkeys([(0, 0), (1, 1)], 2)
    _same(f, t)
    one_d, host = _pair("dok", "array", (5,))
    one_d[3] = 2.0
    host[3] = 2.0
    _same(one_d, host)
    _same(one_d.tocoo(), host.tocoo())  # 1-D goes to the device as COO
    _same(one_d * 3, host * 3)
    g.clear()
    assert g.nnz == 0


@pytest.mark.parametrize("bad", [
    lambda L: L.lil_array((2, 2, 2)),
    lambda L: L.lil_array("text"),
    lambda L: L.dok_array((-1, 2)),
    lambda L: -L.dok_array(np.eye(2, dtype=bool)),
    lambda L: L.lil_array((2, 2)) + L.lil_array((3, 3)),
    lambda L: L.dok_array((2, 2)) + L.dok_array((3, 3)),
    lambda L: L.lil_array((2, 2))[0, 0, 0],
    lambda L: L.dok_array((2, 2)).__setitem__((0, 0), [1, 2]),
])
def test_bad_input_raises_like_scipy(bad):
    with pytest.raises(Exception) as want:
        bad(sp)
    with pytest.raises(type(want.value)):
        bad(gsp)
