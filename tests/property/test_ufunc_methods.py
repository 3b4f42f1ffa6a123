"""ufunc.outer, ufunc.reduceat and ufunc.at of every ufunc of gpunp's op table
against NumPy: every dtype the ufunc takes, 0-d, zero-size and
non-contiguous operands, duplicate and negative indices, out-of-range
indices (NumPy's IndexError), called on gpunp's ufuncs and through NumPy's
own (NEP 13). Parameter lists come from the op table."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import gpunp as gp
from gpunp._ufunc import UFUNCS

from property.outcome import quiet, same_outcome
from property.strategies import device_arrays, elements, python_scalars, shapes
from property.test_indexing import _undefined_cast
from property.test_ufuncs import (
    ZERO_SIGN_FREE, _exact_in_any_order, _reduce_by_definition, accepted_dtypes,
    assert_matches, numpy_outcome, rtol_for)

NAMES = sorted(UFUNCS)
BINARY = [n for n in NAMES if UFUNCS[n].nin == 2]
BINARY1 = [n for n in BINARY if UFUNCS[n].nout == 1]
SINGLE_OUT = [n for n in NAMES if UFUNCS[n].nout == 1]


def _method(data, name, method):
    """gpunp's ufunc method, or NumPy's, which must dispatch to gpunp."""
    numpy_side = data.draw(st.booleans(), label="through numpy")
    return getattr(getattr(np, name) if numpy_side else UFUNCS[name], method)


def _nan_free_complex(got, want):
    """Which of several complex NaNs comes out of a maximum/minimum follows
    the order of combination (docs/differences.md): any NaN counts."""
    nan = complex(np.nan, np.nan)
    g, w = got.get(), want.copy()
    g[np.isnan(g)], w[np.isnan(w)] = nan, nan
    return gp.asarray(g), w


# ---- outer ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", BINARY)
@given(data=st.data())
def test_outer_matches_numpy(name, data):
    """Result shape a.shape + b.shape, NumPy's dtype and values; with out=."""
    dt = data.draw(st.sampled_from(accepted_dtypes(name)), label="dtype")
    g0, h0 = data.draw(device_arrays(dt, data.draw(shapes(max_dims=2, max_side=4))), label="a")
    g1, h1 = data.draw(device_arrays(dt, data.draw(shapes(max_dims=2, max_side=4))), label="b")
    ref = getattr(np, name).outer
    want, exc = numpy_outcome(lambda: ref(h0, h1))
    fn = _method(data, name, "outer")
    if exc is not None:
        with pytest.raises(exc):
            fn(g0, g1)
        return
    # the values of NumPy's contiguous loop on the broadcast operands
    rshape = h0.shape + h1.shape
    a = np.ascontiguousarray(np.broadcast_to(h0.reshape(h0.shape + (1,) * h1.ndim), rshape))
    b = np.ascontiguousarray(np.broadcast_to(h1, rshape))
    flat = numpy_outcome(lambda: getattr(np, name)(a.reshape(-1), b.reshape(-1)))[0]
    several = isinstance(want, tuple)
    wants = [np.asarray(f).reshape(rshape) for f in (flat if several else (flat,))]
    with_out = data.draw(st.booleans(), label="out=")
    if with_out:
        outs = tuple(gp.empty(w.shape, w.dtype) for w in wants)
        got = fn(g0, g1, out=outs if several else outs[0])
        assert all(r is o for r, o in zip(got if several else (got,), outs))
    else:
        got = fn(g0, g1)
    for g, w in zip(got if several else (got,), wants):
        assert_matches(g, w, rtol_for(name, dt, w.dtype), zero_sign=name not in ZERO_SIGN_FREE)


@pytest.mark.parametrize("name", [n for n in NAMES if UFUNCS[n].nin == 1])
def test_outer_of_a_unary_ufunc_raises(name):
    with pytest.raises(ValueError):
        UFUNCS[name].outer(gp.ones(2), gp.ones(2))


# ---- reduceat ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", BINARY1)
@given(data=st.data())
def test_reduceat_matches_numpy(name, data):
    """Segments reduced in order; indices[i] >= indices[i + 1] gives
    a[indices[i]]; an index outside [0, n) raises IndexError. Float sums and
    products draw values every order combines exactly (as the reduce test)."""
    ref = getattr(np, name)
    dt = data.draw(st.sampled_from(accepted_dtypes(name)), label="dtype")
    shape = data.draw(shapes(min_dims=1, max_dims=3, max_side=5), label="shape")
    h = data.draw(hnp.arrays(dt, shape, elements=_exact_in_any_order(name, dt)), label="a")
    layout = data.draw(st.sampled_from(["C", "reversed", "transposed"]), label="layout")
    g = gp.asarray(h)
    if layout == "reversed":
        h, g = h[::-1], g[::-1]
    elif layout == "transposed" and h.ndim > 1:
        h, g = h.T, g.T
    axis = data.draw(st.integers(-h.ndim, h.ndim - 1), label="axis")
    n = h.shape[axis]
    idx = data.draw(st.lists(st.integers(-1, n), max_size=6), label="indices")
    if data.draw(st.booleans(), label="indices as array"):
        idx = np.array(idx, dtype=data.draw(st.sampled_from([np.int64, np.int32, np.intp])))
    fn = _method(data, name, "reduceat")
    want, exc = numpy_outcome(lambda: ref.reduceat(h, idx, axis=axis))
    if name == "ldexp" and dt.kind in "biu" and exc is None and np.size(idx):
        # gpunp reduces only with loops of one dtype (docs/differences.md)
        with pytest.raises(TypeError):
            fn(g, idx, axis=axis)
        return
    if exc is not None:
        with pytest.raises(exc):
            fn(g, idx, axis=axis)
        return
    got = fn(g, idx, axis=axis)
    want = np.asarray(want)
    expected = _reduceat_by_definition(ref, h, idx, axis, want)
    if want.dtype.kind == "c" and name in ("maximum", "minimum", "fmax", "fmin"):
        got, expected = _nan_free_complex(got, expected)
    assert_matches(got, expected, rtol_for(name, dt, want.dtype), zero_sign=False)


def _reduceat_by_definition(ref, h, idx, axis, want):
    """NumPy's reduceat result `want` with each segment reduced by the
    definition of reduce (NumPy's own float power and arctan2 reductions
    ignore the accumulator; test_ufuncs.py)."""
    n = h.shape[axis]
    starts = list(np.asarray(idx).tolist())
    expected = want.copy()
    for j, lo in enumerate(starts):
        hi = starts[j + 1] if j + 1 < len(starts) else n
        seg = np.take(h, range(lo, hi if lo < hi else lo + 1), axis=axis)
        wj = np.take(want, [j], axis=axis)
        r = _reduce_by_definition(ref, seg, axis, np.squeeze(wj, axis))
        expected[(slice(None),) * (axis % h.ndim) + (j,)] = r
    return expected


@pytest.mark.parametrize("name", BINARY1)
def test_reduceat_dtype_and_out(name):
    """dtype= fixes the loop, or NumPy's TypeError where the ufunc has no
    loop of that dtype; out= is filled and returned."""
    h = np.arange(1, 7, dtype=np.int8)
    g = gp.asarray(h)
    ref = getattr(np, name)
    got, want = same_outcome(lambda: ref.reduceat(h, [0, 3, 1], dtype=np.float32),
                             lambda: UFUNCS[name].reduceat(g, [0, 3, 1], dtype=np.float32))
    if want is None:
        return
    expected = _reduceat_by_definition(ref, h, [0, 3, 1], 0, want)
    rtol = rtol_for(name, want.dtype)
    assert_matches(got, expected, rtol)
    out = gp.empty(3, want.dtype)
    assert UFUNCS[name].reduceat(g, [0, 3, 1], dtype=np.float32, out=out) is out
    assert_matches(out, expected, rtol)


def test_reduceat_rejects_what_numpy_rejects():
    g = gp.ones(3)
    with pytest.raises(TypeError):
        gp.add.reduceat(gp.asarray(np.array(1.0)), [0])
    with pytest.raises(ValueError):
        gp.sin.reduceat(g, [0])
    with pytest.raises(ValueError):
        gp.divmod.reduceat(g, [0])
    with pytest.raises(np.exceptions.AxisError):
        gp.add.reduceat(g, [0], axis=1)
    with pytest.raises(TypeError):
        gp.add.reduceat(g, np.array([0], np.uint64))


# ---- at -----------------------------------------------------------------------------------

def _at_case(data, name):
    """(dtype, host array, index, second operand as (gpunp, NumPy) or None)."""
    nin = UFUNCS[name].nin
    dt = data.draw(st.sampled_from(accepted_dtypes(name)), label="dtype")
    shape = data.draw(shapes(min_dims=0, max_dims=2, max_side=5), label="shape")
    g, h = data.draw(device_arrays(dt, shape), label="a")
    if h.ndim == 0:
        index, rshape = (), ()
    else:
        n0 = h.shape[0]
        ints = st.integers(-n0 - 1, n0) if data.draw(st.booleans(), label="out of range") \
            else st.integers(-n0, n0 - 1) if n0 else st.just(0)
        idx = data.draw(st.lists(ints, max_size=8), label="indices")  # duplicates drawn often
        if data.draw(st.booleans(), label="index array"):
            idx = np.array(idx, np.intp)
        form = data.draw(st.sampled_from(["first axis", "with slice", "every axis"]),
                         label="index form") if h.ndim == 2 else "first axis"
        if form == "first axis":
            index = idx
        elif form == "with slice":
            index = (idx, slice(None, None, -1))
        else:
            n1 = h.shape[1]
            idx1 = data.draw(st.lists(st.integers(-n1, n1 - 1) if n1 else st.just(0),
                                      min_size=len(idx), max_size=len(idx)), label="indices 1")
            index = (idx, idx1)
        rshape = numpy_outcome(lambda: np.zeros(h.shape)[index].shape)[0]
    other = None
    if nin == 2:
        kind = data.draw(st.sampled_from(["array", "python", "numpy"]), label="b kind")
        if kind == "array" and rshape is not None:
            bshape = data.draw(st.sampled_from([rshape, rshape[1:], ()]), label="b shape")
            other = data.draw(device_arrays(dt, bshape), label="b")
        elif kind == "numpy":
            s = dt.type(data.draw(elements(dt), label="b"))
            other = (s, s)
        else:
            s = data.draw(python_scalars(), label="b")
            other = (s, s)
    return dt, g, h, index, other


@pytest.mark.parametrize("name", SINGLE_OUT)
@given(data=st.data())
def test_at_matches_numpy(name, data):
    """Unbuffered: every occurrence of an index applies, in order; the
    result is cast to the array's dtype as NumPy's at casts it."""
    dt, g, h, index, other = _at_case(data, name)
    ref = getattr(np, name)
    want = h.copy()
    args_h = (want, index) + (() if other is None else (other[1],))
    _, exc = numpy_outcome(lambda: ref.at(*args_h))
    fn = _method(data, name, "at")
    args_g = (g, index) + (() if other is None else (other[0],))
    if exc is not IndexError and other is not None and type(other[1]) is int and \
            not -2**63 <= other[1] < 2**64:
        # NumPy's at makes an object array of such an int; gpunp has no
        # object dtype and raises TypeError once the index is checked
        # (docs/differences.md)
        exc = TypeError
    if exc is not None:
        with pytest.raises(exc):
            fn(*args_g)
        return
    assert fn(*args_g) is None
    loop_dts = [dt] + ([] if other is None else [np.asarray(other[1]).dtype])
    try:
        # the loop's own dtypes: float_power.at of int16 computes in float64,
        # where the GPU's pow may round 2873 ** 1 a unit below, and the cast
        # back truncates to 2872 (H200 suite at 0163edc)
        loop_dts += [d for d in ref.resolve_dtypes(tuple(loop_dts) + (None,) * ref.nout)
                     if d is not None]
    except (TypeError, ValueError):
        pass
    undefined, by_loop = _replay_at(ref, h, index, None if other is None else other[1])
    if dt.kind == "c" or (dt.kind == "f" and name in ("power", "float_power")):
        # NumPy's at calls its loop on one element at a time, where complex
        # loops take a scalar path: square of 3.4e38+infj is nan+infj there
        # and -inf+infj in its array loop (both infinities to C Annex G), and
        # float power gives pow(-inf, 0.5) = nan there, inf in its array
        # loop (C99); gpunp has one loop, NumPy's array loop, which is the
        # reference where the two NumPy results disagree
        same = (want == by_loop) & (np.signbit(want.real) == np.signbit(by_loop.real)) & \
            (np.signbit(want.imag) == np.signbit(by_loop.imag))
        same |= np.isnan(want) & np.isnan(by_loop)
        want = np.where(same, want, by_loop)
    rtol = rtol_for(name, *loop_dts, want.dtype)
    chained = np.zeros(h.shape, bool)
    if rtol is not None and dt.kind in "fc":
        # an element updated k > 1 times is the loop applied k times: a
        # rounding difference of the first application grows by what the
        # next ones do to a perturbation (sin.at of 3.4e38+2j four times
        # grows one by 1e4), so there the bound is the spread of NumPy's
        # replay from an input perturbed by a few rtol
        pos = np.arange(h.size).reshape(h.shape)[index]
        hits = np.bincount(np.asarray(pos).reshape(-1), minlength=h.size).reshape(h.shape)
        chained = hits > 1
        if chained.any():
            with quiet():
                nudged = (h * (1 + 4 * rtol)).astype(h.dtype)
            _, spread_to = _replay_at(ref, nudged, index, None if other is None else other[1])
            g_h = g.get()
            with quiet():
                spread = np.abs(spread_to.astype(want.dtype) - want)
                err = np.abs(g_h - want)
                ok = (err <= 4 * spread + rtol * np.abs(want)) | (g_h == want) | \
                    (np.isnan(g_h) & np.isnan(want))
            bad = chained & ~undefined & ~ok & np.isfinite(spread)
            assert not bad.any(), f"chained updates differ beyond their spread: gpunp " \
                f"{g_h[bad][:4]!r}, NumPy {want[bad][:4]!r}"
    assert_matches(g, want, rtol, mask=~undefined & ~chained,
                   zero_sign=name not in ZERO_SIGN_FREE)


def _replay_at(ref, h, index, other):
    """NumPy's at replayed one update at a time, in its order, through
    NumPy's array loop (2-element arrays: with one element float power's
    loop takes an exponent of 0.5 as a scalar and computes sqrt): (where a loop result is cast to
    h's integer dtype in a way C leaves undefined, the replayed result).
    Undefined casts are NaN, infinities, out of range: arcsin.at of uint64
    gives NaN, whose cast to an integer C leaves to the platform."""
    cur = h.copy().reshape(-1)
    bad = np.zeros(h.size, bool)
    pos = np.arange(h.size).reshape(h.shape)[index]
    vals = None if other is None else np.broadcast_to(np.asarray(other), pos.shape).reshape(-1)
    with quiet():
        for k, p in enumerate(pos.reshape(-1)):
            args = (cur[[p, p]],) + (() if vals is None else (vals[[k, k]],))
            v = ref(*args)[:1]
            bad[p] |= _undefined_cast(v, h.dtype)
            cur[p:p + 1] = v.astype(h.dtype)
    return bad.reshape(h.shape), cur.reshape(h.shape)


def test_add_at_accumulates_duplicates():
    g = gp.zeros(4, np.int64)
    gp.add.at(g, [0, 0, 2, 0, -1], 1)
    assert g.get().tolist() == [3, 0, 1, 1]
    g = gp.ones(3)
    np.negative.at(g, [0, 0, 1])
    assert g.get().tolist() == [1.0, -1.0, 1.0]


def test_at_rejects_what_numpy_rejects():
    with pytest.raises(ValueError):
        gp.add.at(gp.zeros(3), [0])
    with pytest.raises(ValueError):
        gp.negative.at(gp.zeros(3), [0], 1)
    with pytest.raises(ValueError):
        gp.divmod.at(gp.zeros(3), [0], 1)
    with pytest.raises(ValueError):
        gp.add.at(gp.zeros(3), [0, 1], gp.ones(3))
    with pytest.raises(IndexError):
        gp.add.at(gp.zeros(3), [3], 1)
    with pytest.raises(TypeError):
        gp.add.at(np.zeros(3), [0], 1)
