"""Matrix products against NumPy: matmul (BLAS or generated kernel), dot,
vdot, inner, outer, tensordot, on every dtype and layout."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp
from property.strategies import ALL_DTYPES, assert_same, device_arrays

MATMUL_DTYPES = [d for d in ALL_DTYPES if d.kind != "c" or True]


def _tol(dt, k):
    dt = np.dtype(dt)
    if dt.kind in "biu":
        return None
    eps = {2: 1e-3, 4: 1e-6, 8: 1e-15}[dt.itemsize if dt.kind == "f" else dt.itemsize // 2]
    return 8 * eps * max(k, 1)


@st.composite
def matmul_operands(draw):
    dt = draw(st.sampled_from(ALL_DTYPES))
    m, k, n = (draw(st.integers(0, 6)) for _ in range(3))
    batch = draw(st.sampled_from([(), (2,), (3, 1), (1, 2)]))
    batch_b = draw(st.sampled_from([(), batch, batch[-1:]]))
    va = draw(st.booleans())
    vb = draw(st.booleans())
    shape_a = (k,) if va else batch + (m, k)
    shape_b = (k,) if vb else batch_b + (k, n)
    ga, ha = draw(device_arrays(dt, shape_a, finite=True, specials=False))
    gb, hb = draw(device_arrays(dt, shape_b, finite=True, specials=False))
    return dt, k, ga, ha, gb, hb


def _small_values(h):
    # bounded values keep float sums comparable (and integer sums exact)
    if h.dtype.kind in "fc":
        return np.where(np.abs(h) > 4, 0.5, h).astype(h.dtype)
    if h.dtype.kind in "iu":
        return (h % 5).astype(h.dtype)
    return h


@given(matmul_operands())
def test_matmul(ops):
    dt, k, ga, ha, gb, hb = ops
    ha2, hb2 = _small_values(ha), _small_values(hb)
    ga[...] = gp.asarray(np.ascontiguousarray(ha2))
    gb[...] = gp.asarray(np.ascontiguousarray(hb2))
    with np.errstate(all="ignore"):
        want = np.matmul(ha2, hb2)
    got = gp.matmul(ga, gb)
    assert_same(got, want, rtol=_tol(dt, k), atol=_tol(dt, k) or 0)
    assert_same(ga @ gb, want, rtol=_tol(dt, k), atol=_tol(dt, k) or 0)


@pytest.mark.parametrize("dt", ["float16", "float32", "float64", "complex64", "complex128",
                                "int32", "bool"])
def test_matmul_out_and_errors(dt):
    a = (np.arange(12).reshape(3, 4) % 3).astype(dt)
    b = (np.arange(20).reshape(4, 5) % 4).astype(dt)
    out = gp.empty((3, 5), dtype=np.result_type(a, b))
    r = gp.matmul(gp.asarray(a), gp.asarray(b), out=out)
    assert r is out
    assert_same(out, a @ b, rtol=_tol(dt, 4))
    f = gp.empty((5, 3), dtype=out.dtype).T  # a non-contiguous output
    gp.matmul(gp.asarray(a), gp.asarray(b), out=f)
    assert_same(f, a @ b, rtol=_tol(dt, 4))
    with pytest.raises(ValueError):
        gp.matmul(gp.asarray(a), gp.asarray(a))
    with pytest.raises(ValueError):
        gp.matmul(gp.asarray(a), gp.asarray(np.array(3, dtype=dt)))
    with pytest.raises(ValueError):
        gp.matmul(gp.asarray(a), gp.asarray(b), out=gp.empty((5, 3), dtype=out.dtype))


def test_matmul_in_place_and_aliasing():
    a = gp.asarray(np.arange(9.0).reshape(3, 3))
    h = np.arange(9.0).reshape(3, 3)
    a @= a
    assert_same(a, h @ h)
    np.matmul(a, a, out=a)
    assert_same(a, (h @ h) @ (h @ h))


@given(st.data())
def test_dot_inner_outer_vdot_tensordot(data):
    dt = data.draw(st.sampled_from(["float64", "int64", "complex128", "float32"]))
    na = data.draw(st.integers(0, 3))
    nb = data.draw(st.integers(0, 3))
    k = data.draw(st.integers(1, 4))
    shape_a = tuple(data.draw(st.integers(1, 3)) for _ in range(max(na - 1, 0))) + ((k,) if na else ())
    if nb >= 2:
        shape_b = tuple(data.draw(st.integers(1, 3)) for _ in range(nb - 2)) + (k,) + \
            (data.draw(st.integers(1, 3)),)
    else:
        shape_b = (k,) if nb == 1 else ()
    ga, ha = data.draw(device_arrays(dt, shape_a, finite=True, specials=False))
    gb, hb = data.draw(device_arrays(dt, shape_b, finite=True, specials=False))
    ha, hb = _small_values(ha), _small_values(hb)
    ga[...] = gp.asarray(np.ascontiguousarray(ha))
    gb[...] = gp.asarray(np.ascontiguousarray(hb))
    tol = _tol(dt, 64)
    assert_same(gp.dot(ga, gb), np.dot(ha, hb), rtol=tol, atol=tol or 0)
    assert_same(gp.outer(ga, gb), np.outer(ha, hb), rtol=tol, atol=tol or 0)
    if ha.ndim and hb.ndim and ha.shape[-1] == hb.shape[-1]:
        assert_same(gp.inner(ga, gb), np.inner(ha, hb), rtol=tol, atol=tol or 0)
    if ha.size == hb.size:
        assert_same(gp.vdot(ga, gb) if np.dtype(dt).kind != "c" or "conjugate" in gp._ufunc.UFUNCS
                    else np.vdot(ha, hb), np.vdot(ha, hb), rtol=tol, atol=tol or 0)
    if ha.ndim >= 1 and hb.ndim >= 1 and ha.shape[-1] == hb.shape[0]:
        assert_same(gp.tensordot(ga, gb, axes=1), np.tensordot(ha, hb, axes=1), rtol=tol,
                    atol=tol or 0)


def test_numpy_protocol_products():
    h = np.arange(6.0).reshape(2, 3)
    g = gp.asarray(h)
    assert_same(np.matmul(g, g.T), h @ h.T)
    assert_same(np.dot(g, g.T), np.dot(h, h.T))
    assert_same(np.tensordot(g, g, axes=([0], [0])), np.tensordot(h, h, axes=([0], [0])))
