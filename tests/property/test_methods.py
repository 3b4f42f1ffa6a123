"""The ndarray methods that are module functions in NumPy too (take, put,
compress, choose, nonzero, conj/conjugate) and those that give host bytes
(tobytes, tofile, dump, dumps), against NumPy's methods on random shapes
and layouts."""

from __future__ import annotations

import io
import os
import pickle
import tempfile

import numpy as np
from hypothesis import assume, given, strategies as st

import gpunp as gp

from .outcome import same_outcome
from .strategies import assert_same, device_arrays, dtypes, shapes


def _pair(data, kinds=None, min_dims=0):
    dt = data.draw(dtypes(kinds) if kinds else dtypes(), label="dtype")
    g, h = data.draw(device_arrays(dt, data.draw(shapes(min_dims, 3), label="shape")),
                     label="array")
    return g, np.asarray(h)


def _axis(data, h):
    return data.draw(st.none() | (st.integers(-h.ndim, h.ndim - 1) if h.ndim else st.none()),
                     label="axis")


@given(data=st.data())
def test_take_compress_nonzero_conj_methods(data):
    g, h = _pair(data)
    axis = _axis(data, h)
    n = h.size if axis is None else h.shape[axis]
    idx = data.draw(st.lists(st.integers(-n, n - 1), max_size=5) if n else st.just([]),
                    label="indices")
    for mode in ("raise", "wrap", "clip"):
        if n or mode == "raise":
            got, want = same_outcome(lambda: h.take(idx, axis=axis, mode=mode),
                                     lambda: g.take(idx, axis=axis, mode=mode))
            if want is not None:
                assert_same(got, want)
    cond = data.draw(st.lists(st.booleans(), max_size=n + 1), label="condition")
    got, want = same_outcome(lambda: h.compress(cond, axis=axis),
                             lambda: g.compress(cond, axis=axis))
    if want is not None:
        assert_same(got, want)
    if h.ndim:
        for x, y in zip(g.nonzero(), h.nonzero()):
            assert_same(x, y)
    assert_same(g.conj(), h.conj())
    assert_same(g.conjugate(), h.conjugate())
    out = gp.empty(g.shape, g.dtype)
    assert g.conj(out) is out
    assert_same(out, h.conj())
    assert (g.conj() is g) == (h.conj() is h)  # a real array is its own conjugate


@given(data=st.data())
def test_put_and_choose_methods(data):
    g, h = _pair(data, min_dims=1)
    assume(h.size > 0)
    idx = data.draw(st.lists(st.integers(-h.size, h.size - 1), min_size=1, max_size=4,
                             unique_by=lambda i: i % h.size), label="indices")
    _, v = data.draw(device_arrays(h.dtype, (len(idx),), layouts=False), label="values")
    h.put(idx, np.asarray(v))
    assert g.put(idx, gp.asarray(np.asarray(v))) is None
    assert_same(g, h)
    k = data.draw(st.integers(1, 3), label="choices")
    sel = data.draw(st.lists(st.integers(0, k - 1), min_size=h.shape[-1],
                             max_size=h.shape[-1]), label="selector")
    row = h.reshape(-1)[: h.shape[-1]]
    with np.errstate(all="ignore"):
        choices = [row * (j + 1) for j in range(k)] if h.dtype.kind in "iufc" else [row] * k
    got, want = same_outcome(lambda: np.array(sel).choose(choices),
                             lambda: gp.asarray(np.array(sel)).choose([gp.asarray(c) for c in choices]))
    if want is not None:
        assert_same(got, want)


@given(data=st.data())
def test_bytes_and_pickles(data):
    g, h = _pair(data)
    for order in ("C", "F"):
        assert g.tobytes(order) == h.tobytes(order)
    # 'A' follows the array's own layout, and the twin h may not share g's
    # (a view of a base made in the other order)
    fortran = g.flags.f_contiguous and not g.flags.c_contiguous
    assert g.tobytes("A") == h.tobytes("F" if fortran else "C")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "a.bin")
        g.tofile(path)
        with open(path, "rb") as f:
            assert f.read() == h.tobytes()
    back = pickle.loads(g.dumps())
    assert isinstance(back, gp.ndarray)
    assert_same(back, h)
    f = io.BytesIO()
    g.dump(f)
    f.seek(0)
    assert_same(pickle.load(f), h)


@given(data=st.data())
def test_byteswap_matches_numpy(data):
    """Each element's bytes reversed, each part's for complex, in place or
    not, compared byte for byte (a swapped float may be any NaN)."""
    g, h = _pair(data)
    inplace = data.draw(st.booleans(), label="inplace")
    got, want = g.byteswap(inplace), h.byteswap(inplace)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.get().tobytes() == want.tobytes()
    assert (got is g) == inplace
    if inplace:
        assert g.get().tobytes() == h.tobytes()
