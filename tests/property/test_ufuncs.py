"""Every ufunc of gpunp's op table against NumPy.

Values, result dtype and result shape for every dtype NumPy's loops take,
broadcasting, every memory layout and the special values; Python (weak) and
NumPy (strong) scalars; mixed dtypes; out=, where=, dtype=, casting=,
overlapping outputs; the ndarray operators; NumPy's own ufuncs dispatching
to gpunp (NEP 13). Where NumPy raises, gpunp must raise the same builtin
exception class.

The parameter lists come from the op table (gpunp._ufunc.UFUNCS) and from
NumPy's `ufunc.types`, never from a hand-written list of ufuncs."""

from __future__ import annotations

import contextlib
import math
import operator
import platform
import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import gpunp as gp
from gpunp._ufunc import UFUNCS

from property.outcome import host, same_outcome
from property.strategies import (
    ALL_DTYPES, broadcastable_shapes, device_arrays, dtypes, elements, python_scalars,
    tolerance)

NAMES = sorted(UFUNCS)


def _log1p(*args, **kwargs):
    """np.log1p, except where a complex z is finite and NumPy's real part is
    +inf: NumPy 2.5 gives inf + 1.05e-08j for log1p(1.8e308 + 1.9e300j),
    whose value is 709.78 + 1.05e-08j (NumPy 2.4's, and gpunp's); there the
    reference is NumPy 2.4's formula, log|1 + z| + i arg(1 + z) from real
    functions in the loop's precision, exact enough where |z| is that large
    (and as infinite as NumPy 2.4's where |1 + z| overflows: 3.4e38 +
    3.4e38j in complex64; mended in float64 it was finite, which neither
    NumPy nor gpunp gives). -inf is the pole at z = -1, right as NumPy gives
    it: mending it there lost the sign of -1 - 0j's zero."""
    r = np.log1p(*args, **kwargs)
    z = np.asarray(args[0])
    res = np.asarray(r[0] if isinstance(r, tuple) else r)
    sig = kwargs.get("signature")
    loop = np.dtype(kwargs["dtype"] if kwargs.get("dtype") is not None else
                    sig[0] if isinstance(sig, tuple) and sig[0] is not None else z.dtype)
    if loop.kind != "c" or res.dtype.kind != "c":
        return r
    with np.errstate(all="ignore"):
        # z as the loop reads it: complex128's 3.4028236e38j is infinite in
        # a complex64 loop, and so is its log1p
        zb = np.broadcast_to(z, res.shape).astype(loop)
        bad = np.isfinite(zb) & np.isposinf(res.real)
        if "where" in kwargs:
            bad &= np.broadcast_to(kwargs["where"], res.shape)
        if not bad.any():
            return r
        re, im = 1 + zb.real, zb.imag
        # parts set one by one: 1j * arctan2(...) would turn -0.0 into +0.0
        fixed = np.empty(res.shape, res.dtype)
        fixed.real, fixed.imag = np.log(np.hypot(re, im)), np.arctan2(im, re)
    if res.ndim == 0:
        return res.dtype.type(fixed)
    out = r[0] if isinstance(r, tuple) else r
    out[bad] = fixed[bad]
    return r


class _Log1p:
    """np.log1p with its calls through _log1p (its attributes as they are)."""
    __call__ = staticmethod(_log1p)

    def __getattr__(self, attr):
        return getattr(np.log1p, attr)


def numpy_ufunc(name):
    """NumPy's ufunc `name` as the reference, log1p's mended as _log1p says."""
    return _Log1p() if name == "log1p" else getattr(np, name)
BINARY = [n for n in NAMES if UFUNCS[n].nin == 2]
CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


# ---- parameters from NumPy's loops --------------------------------------------------

def _gpunp_dtype(char):
    try:
        d = np.dtype(char)
    except TypeError:
        return None
    return d if d in ALL_DTYPES else None


def numpy_loops(name) -> list:
    """NumPy's loops of ufunc `name` whose dtypes gpunp has, as dtype tuples
    (its 'l' and 'q' both name int64)."""
    loops = []
    for sig in getattr(np, name).types:
        ds = tuple(_gpunp_dtype(c) for c in sig.replace("->", ""))
        if all(d is not None for d in ds) and ds not in loops:  # dtype("f8") == None
            loops.append(ds)
    return loops


def accepted_dtypes(name) -> list:
    """The dtypes NumPy's loops take for every input: a loop's own, or one
    that casts safely to a loop's inputs."""
    nin = UFUNCS[name].nin
    return [d for d in ALL_DTYPES
            if any(all(np.can_cast(d, loop[k], "safe") for k in range(nin))
                   for loop in numpy_loops(name))]


VALUE_CASES = [(n, d) for n in NAMES for d in accepted_dtypes(n)]
REJECTED_CASES = [(n, d) for n in NAMES for d in ALL_DTYPES if d not in accepted_dtypes(n)]


def _case_id(case):
    name, dt = case
    return f"{name}-{dt}"


# ---- comparing results --------------------------------------------------------------

# Ufuncs whose real results IEEE 754 pins down (correctly rounded basic
# operations, or exact by construction): every correct implementation gives
# NumPy's bits, signed zeros included.
EXACT_REAL = {"add", "subtract", "multiply", "true_divide", "floor_divide", "remainder",
              "negative", "positive", "absolute", "sign", "square", "sqrt", "maximum",
              "minimum", "fmax", "fmin", "fmod", "divmod", "ceil", "floor", "trunc", "rint",
              "fabs", "conjugate", "copysign", "nextafter", "spacing", "heaviside", "frexp",
              "modf", "ldexp", "deg2rad", "radians", "rad2deg", "degrees"}
# With complex numbers only componentwise operations are exact; products,
# quotients and the elementary functions round differently in different
# correct implementations (fused multiply-add or not, other formulas).
EXACT_COMPLEX = {"add", "subtract", "negative", "positive", "maximum", "minimum", "fmax",
                 "fmin", "conjugate", "rint"}
# Which of two equal zeros fmax and fmin return is left open by IEEE 754
# (maxNum); NumPy's answer depends on its SIMD loop and the CPU (float32
# gives +0.0 for both orders on AVX-512 machines), gpunp returns the first
# (docs/differences.md). Their zeros are compared without sign.
ZERO_SIGN_FREE = {"fmax", "fmin"}


def rtol_for(name, *dts, args=None):
    """None for an exact comparison, else the relative tolerance: that of the
    coarsest float involved, as rounding there dominates. A complex power
    (power and float_power alike) computes exp(y log x) in its own precision, whose rounding error grows
    with |y log x| (float32 (0.5+1j) ** 153 is off by 1.6e-5 in gpunp and
    1.4e-5 in NumPy, both correct to their precision): with the operands
    `args` the tolerance grows by that factor."""
    dts = [np.dtype(d) for d in dts]
    inexact = [d for d in dts if d.kind in "fc"]
    if not inexact:
        return None
    complex_ = any(d.kind == "c" for d in dts)
    exact = EXACT_COMPLEX if complex_ else EXACT_REAL
    if name in exact:
        return None
    rtol = max(tolerance(d) for d in inexact)
    if name in ("power", "float_power") and complex_ and args is not None and len(args) == 2:
        with np.errstate(all="ignore"):
            x, y = (np.asarray(a).astype(np.complex128) for a in args)
            w = np.abs(y * np.log(x)).ravel()
        w = w[np.isfinite(w)]
        rtol *= max(1.0, float(w.max())) if w.size else 1.0
    return rtol


def _builtin(exc: BaseException) -> type:
    """The builtin exception class NumPy's exception is (UFuncTypeError is a
    TypeError, AxisError a ValueError...)."""
    for cls in (TypeError, OverflowError, ValueError, ZeroDivisionError, IndexError):
        if isinstance(exc, cls):
            return cls
    return type(exc)


def numpy_outcome(fn):
    """(result, None) or (None, exception class) of a NumPy call, its
    floating-point warnings and ComplexWarning silenced."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(), None
        except Exception as e:  # noqa: BLE001 - the class is what is compared
            return None, _builtin(e)


def _float_mismatches(got, want, rtol, scale):
    """Boolean mask of elements of real arrays `got`, `want` that disagree:
    NaN must meet NaN, infinities must be equal, zeros must have the same
    sign; finite values equal (rtol None) or within rtol * scale, with the
    tolerance kept at least rtol * tiny, since a subnormal result carries
    fewer significant bits."""
    g = got.astype(np.float64)
    w = want.astype(np.float64)
    gn, wn = np.isnan(g), np.isnan(w)
    bad = gn != wn
    both = ~gn & ~wn
    zeros = both & (g == 0) & (w == 0)
    bad |= zeros & (np.signbit(g) != np.signbit(w))
    if rtol is None:
        return bad | (both & (g != w))
    gi, wi = np.isinf(g), np.isinf(w)
    bad |= both & (gi | wi) & (g != w)
    fin = both & ~gi & ~wi
    atol = rtol * float(np.finfo(want.dtype).tiny)
    with np.errstate(all="ignore"):
        bad |= fin & ~(np.abs(g - w) <= rtol * scale + atol)
    return bad


def assert_matches(got, want, rtol=None, *, mask=None, zero_sign=True):
    """gpunp's result equals NumPy's: an ndarray of the same dtype and shape,
    with the same values (where `mask` is true, if given)."""
    assert isinstance(got, gp.ndarray), f"gpunp returned {type(got).__name__}"
    g = got.get()
    w = np.asarray(want)
    assert g.dtype == w.dtype, f"dtype {g.dtype}, NumPy's {w.dtype}"
    assert g.shape == w.shape, f"shape {g.shape}, NumPy's {w.shape}"
    if mask is not None:
        m = np.broadcast_to(mask, w.shape)
        g, w = g[m], w[m]
    if w.dtype.kind in "fc":
        if not zero_sign:
            g, w = g + 0, w + 0  # -0.0 + 0 is +0.0
        if w.dtype.kind == "c":
            with np.errstate(all="ignore"):
                scale = np.abs(w).astype(np.float64)
            parts = [(g.real, w.real, w.imag), (g.imag, w.imag, w.real)]
            bad = np.zeros(w.shape, bool)
            for gp_, wp, other in parts:
                if rtol is not None:
                    # Annex G leaves the sign of a zero or infinite part open
                    # when the other part is NaN (csin(NaN + i inf) = NaN +-
                    # i inf...); with both parts zero or both infinite the
                    # signs are a phase lost to underflow or overflow
                    # (exp(-1e15 + 1e15j) is 0 * cos(y) for a y no two
                    # libraries round alike). C libraries differ there.
                    lost = (np.isinf(wp) & np.isinf(other)) | ((wp == 0) & (other == 0))
                    free = np.isnan(other) | lost
                    gp_, wp = np.where(free, np.abs(gp_), gp_), np.where(free, np.abs(wp), wp)
                # a result whose modulus overflowed (one part infinite) is at
                # least the dtype's largest value: a finite part's rounding
                # is relative to that ((-1+3.4e38j) ** (1+7.2e-13j) in
                # complex64 is -1.5e31+infj on the H200, 2.6e31+infj in
                # NumPy: cos of float32's pi/2 times 3.4e38)
                big = float(np.finfo(w.real.dtype).max)
                s = np.where(np.isfinite(scale), scale, big)
                bad |= _float_mismatches(gp_, wp, rtol, s)
        else:
            bad = _float_mismatches(g, w, rtol, np.abs(w.astype(np.float64)))
    elif rtol is not None and w.dtype.kind in "iu":
        # an integer result cast from an inexact loop: the loops' results
        # agree within rtol, and a cast truncates, so the integers may differ
        # by one more (hypot.at of int64 1.4e11 and 1.2e15 is 1 ulp apart in
        # CUDA's and glibc's hypot, either side of an integer)
        with np.errstate(all="ignore"):
            gf, wf = g.astype(np.float64), w.astype(np.float64)
            bad = ~(np.abs(gf - wf) <= rtol * np.abs(wf) + 1)
    else:
        bad = g != w
    if bad.any():
        idx = np.argwhere(bad)[:8]
        lines = [f"  at {tuple(int(i) for i in ix)}: gpunp {g[tuple(ix)]!r}, "
                 f"NumPy {w[tuple(ix)]!r}" for ix in idx]
        raise AssertionError(f"{int(bad.sum())} of {w.size} values differ "
                             f"({'exact' if rtol is None else f'rtol {rtol}'}):\n"
                             + "\n".join(lines))


def contiguous(args, shape=None):
    """The array operands broadcast to `shape` (theirs by default) as
    contiguous 1-D copies, with that shape; scalars as they are.

    The values gpunp must give are those of NumPy's contiguous loops:
    NumPy's loops for 0-d and broadcast operands disagree with them at
    special values (no fused multiply-add in complex products; float power
    gives pow(-inf, 0.5) = NaN there, inf in its contiguous loop and in C99)."""
    # NumPy scalars are strong like arrays, and as 0-d arrays run the loops
    strong = (np.ndarray, np.generic)
    arrays = [np.asarray(a) for a in args if isinstance(a, strong)]
    if shape is None:
        shape = np.broadcast_shapes(*(a.shape for a in arrays)) if arrays else ()
    flat = [np.ascontiguousarray(np.broadcast_to(a, shape)).reshape(-1)
            if isinstance(a, strong) else a for a in args]
    return flat, shape


def check(name, gp_call, np_fn, h_args, *loop_dtypes, **kw):
    """gpunp's call and NumPy's `np_fn(*h_args)`: the same exception class,
    or the same result (values from NumPy's contiguous loop); a ufunc of
    several outputs gives a tuple, compared output by output."""
    want, exc = numpy_outcome(lambda: np_fn(*h_args))
    if exc is not None:
        with pytest.raises(exc):
            gp_call()
        return None
    got = gp_call()
    several = isinstance(want, tuple)
    wants = [np.asarray(w) for w in (want if several else (want,))]
    if any(isinstance(a, (np.ndarray, np.generic)) for a in h_args):
        flat, _ = contiguous(h_args, wants[0].shape)
        res = numpy_outcome(lambda: np_fn(*flat))[0]
        wants = [np.asarray(r).reshape(w.shape)
                 for r, w in zip(res if several else (res,), wants)]
    gots = got if several else (got,)
    assert isinstance(gots, tuple) and len(gots) == len(wants), f"gpunp returned {got!r}"
    kw.setdefault("zero_sign", name not in ZERO_SIGN_FREE)
    for g, w in zip(gots, wants):
        assert_matches(g, w, rtol_for(name, w.dtype, *loop_dtypes, args=h_args), **kw)
    return got


def numpy_power_fast_path(x, y):
    """The ufunc NumPy >= 2.3 calls for `x ** y` instead of power: square for
    a Python int 2, and on an inexact array reciprocal for a Python int -1
    and sqrt for a Python float 0.5. gpunp follows these rules; NumPy <= 2.2
    also took NumPy scalars and 2.0 that way, against NEP 50's result dtypes
    (bool ** 2.0 was int8), so the tests spell the rules out."""
    if not isinstance(x, np.ndarray):
        return None
    t = type(y)
    if t is int and y == 2:
        return np.square
    if x.dtype.kind in "fc" and ((t is int and y == -1) or (t is float and y == 0.5)):
        return np.reciprocal if t is int else np.sqrt
    return None


def numpy_pow(x, y):
    """x ** y by NumPy >= 2.3's rules (numpy_power_fast_path)."""
    fast = numpy_power_fast_path(x, y)
    return fast(x) if fast is not None else np.power(x, y)


def _dt(x):
    """dtype of an operand: array, NumPy scalar, or the weak Python scalar's
    stand-in (its value never sets the precision)."""
    if isinstance(x, (gp.ndarray, np.ndarray, np.generic)):
        return x.dtype
    if isinstance(x, list):
        return np.asarray(x).dtype
    return np.dtype(type(x)) if not isinstance(x, bool) else np.dtype(bool)


# ---- NumPy leaves some casts to the platform ------------------------------------------

_I64_LO, _I64_HI, _I32_LO, _I32_HI = -2.0**63, 2.0**63, -2147483649.0, 2147483648.0


def documented_float_to_int(x, dt) -> np.ndarray:
    """Float (or complex: its real part) to integer dtype `dt` by gpunp's
    documented rule (csrc/prelude/common.h: x86-64's truncating
    conversions), which NumPy leaves to the platform for NaN and values out
    of range: those give the 32- or 64-bit 'integer indefinite' value,
    truncated to the width of `dt`."""
    dt = np.dtype(dt)
    x = np.asarray(x)
    with np.errstate(all="ignore"):
        x = (x.real if x.dtype.kind == "c" else x).astype(np.float64)

    def f2i64(v):
        ok = (v >= _I64_LO) & (v < _I64_HI)
        return np.where(ok, np.trunc(np.where(ok, v, 0)), _I64_LO).astype(np.int64)

    def f2i32(v):
        ok = (v > _I32_LO) & (v < _I32_HI)
        return np.where(ok, np.trunc(np.where(ok, v, 0)), -2.0**31).astype(np.int32)

    with np.errstate(all="ignore"):
        if dt.itemsize <= 2:
            return f2i32(x).astype(dt)
        if dt == np.int32:
            return f2i32(x)
        if dt == np.uint32 or dt == np.int64:
            return f2i64(x).astype(dt)
        low = f2i64(x).view(np.uint64)
        high = f2i64(x - _I64_HI).view(np.uint64) ^ np.uint64(1 << 63)
        return np.where(x >= _I64_HI, high, low)  # NaN: the signed conversion's 2**63


def cast_like_gpunp(x, dt):
    """NumPy's cast of `x` to `dt`, with gpunp's rule where NumPy has none."""
    x = np.asarray(x)
    dt = np.dtype(dt)
    if x.dtype.kind in "fc" and dt.kind in "iu":
        return documented_float_to_int(x, dt)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return x.astype(dt)


_UNDEFINED = [np.nan, -np.nan, np.inf, -np.inf, 1e30, -1e30, 2.0**63, 2.0**64, -2.0**63, -1.0,
              -0.5, 3e9, -3e9]


@pytest.mark.parametrize("src", [np.float32, np.float64, np.complex64])
@pytest.mark.parametrize("dst", [np.int64, np.uint64, np.int32, np.int16, np.uint8])
def test_undefined_float_to_int_casts_follow_the_documented_rule(src, dst):
    """NaN to uint64 was 0 (the split at 2**63 sent NaN to its upper half,
    where x86-64 and so NumPy there give 2**63: a trace of NaNs on the H200)."""
    x = np.array(_UNDEFINED).astype(src)
    got = gp.asarray(x).astype(dst).get()
    np.testing.assert_array_equal(got, documented_float_to_int(x, dst))
    if platform.machine() == "x86_64":
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            np.testing.assert_array_equal(got, x.astype(dst))


# ---- 1. the op table agrees with NumPy ----------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_types_are_numpy_loops(name):
    """Every loop gpunp lists is one of NumPy's (compared as dtypes, as NumPy
    lists int64 as both 'l' and 'q'), and gpunp has every NumPy loop over
    its 14 dtypes."""
    g = UFUNCS[name]
    mine = [tuple(np.dtype(c) for c in t.replace("->", "")) for t in g.types]
    theirs = numpy_loops(name)
    assert len(mine) == g.ntypes == len(set(mine))
    assert [t for t in mine if t not in theirs] == []
    assert [t for t in theirs if t not in mine] == []
    assert (g.nin, g.nout) == (getattr(np, name).nin, getattr(np, name).nout)


@pytest.mark.parametrize("name, dt", REJECTED_CASES, ids=map(_case_id, REJECTED_CASES))
def test_dtypes_without_a_loop_raise_type_error(name, dt):
    args = [gp.zeros(3, dt)] * UFUNCS[name].nin
    _, exc = numpy_outcome(lambda: getattr(np, name)(*[np.zeros(3, dt)] * len(args)))
    assert exc is TypeError
    with pytest.raises(TypeError):
        UFUNCS[name](*args)


# ---- 2. every dtype, broadcasting, layouts, special values ---------------------------------

@pytest.mark.parametrize("name, dt", VALUE_CASES, ids=map(_case_id, VALUE_CASES))
@given(data=st.data())
def test_values_match_numpy(name, dt, data):
    nin = UFUNCS[name].nin
    shapes = data.draw(broadcastable_shapes(nin), label="shapes")
    pairs = [data.draw(device_arrays(dt, s), label=f"x{k}")
             for k, s in enumerate(shapes.input_shapes)]
    check(name, lambda: UFUNCS[name](*[g for g, _ in pairs]), getattr(np, name),
          [h for _, h in pairs], dt)


@pytest.mark.parametrize("name", BINARY)
@given(data=st.data())
def test_mixed_dtypes_match_numpy(name, data):
    d0, d1 = data.draw(dtypes(), label="dtype0"), data.draw(dtypes(), label="dtype1")
    shapes = data.draw(broadcastable_shapes(2), label="shapes")
    (g0, h0) = data.draw(device_arrays(d0, shapes.input_shapes[0]), label="x0")
    (g1, h1) = data.draw(device_arrays(d1, shapes.input_shapes[1]), label="x1")
    check(name, lambda: UFUNCS[name](g0, g1), getattr(np, name), [h0, h1], d0, d1)


# ---- 3. scalars ----------------------------------------------------------------------------

def numpy_scalars():
    """NumPy scalars of every dtype: strong operands, their dtype counts."""
    return dtypes().flatmap(lambda d: elements(d).map(d.type))


@pytest.mark.parametrize("name", BINARY)
@given(data=st.data())
def test_array_and_scalar_match_numpy(name, data):
    """Python scalars are weak (NEP 50): the array's dtype wins within a kind,
    and a Python int outside it raises OverflowError, except in comparisons,
    which answer exactly. NumPy scalars are strong. Either side."""
    dt = data.draw(dtypes(), label="dtype")
    g, h = data.draw(device_arrays(dt, data.draw(broadcastable_shapes(1)).result_shape),
                     label="x")
    s = data.draw(st.one_of(python_scalars(), numpy_scalars()), label="scalar")
    args_g, args_h = ((s, g), (s, h)) if data.draw(st.booleans(), label="left") else \
        ((g, s), (h, s))
    check(name, lambda: UFUNCS[name](*args_g), getattr(np, name), args_h, dt, _dt(s))


def _compares_int64_with_uint64(name) -> bool:
    i8, u8, b = np.dtype("int64"), np.dtype("uint64"), np.dtype(bool)
    return (i8, u8, b) in numpy_loops(name)


COMPARISONS = [n for n in BINARY if _compares_int64_with_uint64(n)]
_PAST_EVERY_INT = [-2**100, -2**64, -2**63 - 1, 2**64, 2**100, 2**1100]


@pytest.mark.parametrize("name", COMPARISONS)
@pytest.mark.parametrize("dt", [d for d in ALL_DTYPES if d.kind in "iu"], ids=str)
def test_comparison_with_python_int_out_of_range(name, dt):
    """Every comparison of every integer dtype with Python ints past its own
    range and past int64/uint64 answers exactly, as NumPy does, on either side."""
    info = np.iinfo(dt)
    h = np.array([info.min, 0, info.max], dt)
    g = gp.asarray(h)
    for v in [int(info.min) - 1, int(info.max) + 1] + _PAST_EVERY_INT:
        for args_g, args_h in (((g, v), (h, v)), ((v, g), (v, h))):
            check(name, lambda: UFUNCS[name](*args_g), getattr(np, name), args_h, dt)


# ---- 4. out=, where=, dtype=, casting= -------------------------------------------------------

def _loop_with_gpunp_casts(ref, ins, loop, where=True):
    """The loop's result on inputs cast to it by gpunp's rule (NumPy's own
    float -> integer casts of NaN and out-of-range values are the platform's)."""
    nin = len(ins)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ref(*[cast_like_gpunp(h, d) for h, d in zip(ins, loop[:nin])], signature=loop,
                   where=where)


def _platform_cast(h_ins, loop, out_dt):
    nin = len(h_ins)
    return (any(h.dtype.kind in "fc" and d.kind in "iu" for h, d in zip(h_ins, loop[:nin]))
            or (loop[nin].kind in "fc" and out_dt.kind in "iu"))


def _assert_cast_of_close(got, want_loop, out_dt, rtol, keep):
    """An approximate float result cast to an integer or bool: gpunp's value
    is the cast of something within the tolerance of NumPy's, as truncation
    may land on either side of an integer NumPy's result is near. Elements
    where `keep` is true must be unchanged."""
    w = np.asarray(want_loop)
    w = w.real if w.dtype.kind == "c" else w
    with np.errstate(all="ignore"):
        w = w.astype(np.float64)
        slack = rtol * np.abs(w) + rtol * float(np.finfo(np.float64).tiny)
        options = [cast_like_gpunp(v, out_dt) for v in (w - slack, w, w + slack)]
    ok = (got == options[0]) | (got == options[1]) | (got == options[2]) | keep
    assert ok.all(), f"gpunp {got[~ok][:8]!r}, NumPy (before the cast) {w[~ok][:8]!r}"


SINGLE_OUT = [n for n in NAMES if UFUNCS[n].nout == 1]
MULTI_OUT = [n for n in NAMES if UFUNCS[n].nout > 1]


@pytest.mark.parametrize("name", SINGLE_OUT)
@given(data=st.data())
def test_out_where_dtype_casting_match_numpy(name, data):
    uf, ref = UFUNCS[name], numpy_ufunc(name)
    nin = uf.nin
    shapes = data.draw(broadcastable_shapes(nin + 1), label="shapes")
    in_dts = [data.draw(dtypes(), label=f"dtype{k}") for k in range(nin)]
    pairs = [data.draw(device_arrays(d, s), label=f"x{k}")
             for k, (d, s) in enumerate(zip(in_dts, shapes.input_shapes))]
    g_ins, h_ins = [g for g, _ in pairs], [h for _, h in pairs]
    casting = data.draw(st.sampled_from(CASTINGS), label="casting")
    dtype = data.draw(st.none() | dtypes(), label="dtype")
    out_dt = data.draw(st.none() | dtypes(), label="out dtype")
    use_where = data.draw(st.booleans(), label="where")

    gkw, hkw = {"casting": casting}, {"casting": casting}
    if dtype is not None:
        gkw["dtype"] = dtype
        # dtype=bool of a ufunc whose loops all give bool fixes nothing: NumPy
        # is asked without it, since NumPy 2.2's dispatch cache, after such
        # calls elsewhere in the process, picks the bool loop for it
        if not (dtype == np.bool_ and all(lp[-1] == np.bool_ for lp in numpy_loops(name))):
            hkw["dtype"] = dtype
    hw = None
    if use_where:
        gw, hw = data.draw(device_arrays(np.bool_, shapes.input_shapes[nin]), label="where")
        gkw["where"], hkw["where"] = gw, hw
    out_before = None
    if out_dt is not None:
        gout, hout = data.draw(device_arrays(out_dt, shapes.result_shape), label="out")
        out_before = hout.copy(order="C")
        gkw["out"], hkw["out"] = gout, hout

    want, exc = numpy_outcome(lambda: ref(*h_ins, **hkw))
    sig = {} if "dtype" not in hkw else {"signature": (None,) * nin + (np.dtype(dtype),)}
    loop, _ = numpy_outcome(lambda: ref.resolve_dtypes(tuple(in_dts) + (out_dt,),
                                                        casting=casting, **sig))
    # inputs, where= and out= broadcast together
    shape = np.broadcast_shapes(*[h.shape for h in h_ins], *([hw.shape] if use_where else []),
                                *([out_before.shape] if out_dt is not None else []))
    flat_ins, _ = contiguous(h_ins, shape)
    flat_where = True if not use_where else contiguous([hw], shape)[0][0]
    platform = loop is not None and _platform_cast(
        h_ins, loop, loop[nin] if out_dt is None else out_dt)
    if platform:
        # with casts NumPy leaves to the platform, even whether NumPy raises
        # (an integer to a negative power) follows gpunp's documented casts
        _, exc = numpy_outcome(lambda: _loop_with_gpunp_casts(ref, flat_ins, loop, flat_where))
    if exc is not None:
        with pytest.raises(exc):
            uf(*g_ins, **gkw)
        return
    got = uf(*g_ins, **gkw)
    if out_dt is not None:
        assert got is gout
    res_dt = np.asarray(want).dtype
    assert np.shape(want) == shape

    # the reference: NumPy's contiguous loop (see contiguous()) on flat copies
    fkw = dict(hkw)
    if use_where:
        fkw["where"] = flat_where
    flat_out = None
    if out_dt is not None:
        flat_out = out_before.reshape(-1).copy()
        fkw["out"] = flat_out
    want = np.asarray(numpy_outcome(lambda: ref(*flat_ins, **fkw))[0])
    rtol = rtol_for(name, *loop, res_dt, args=flat_ins)
    keep = np.zeros(want.shape, bool) if out_dt is None else ~np.broadcast_to(flat_where,
                                                                              want.shape)
    if rtol is not None and loop[nin].kind in "fc" and res_dt.kind in "biu":
        g = got.get().reshape(-1)
        if out_dt is not None:
            np.testing.assert_array_equal(g[keep], flat_out[keep])  # untouched
        else:
            keep = ~np.broadcast_to(flat_where, want.shape)  # not computed
        _assert_cast_of_close(g, _loop_with_gpunp_casts(ref, flat_ins, loop, flat_where),
                              res_dt, rtol, keep)
        return
    if platform:
        res = cast_like_gpunp(_loop_with_gpunp_casts(ref, flat_ins, loop, flat_where), res_dt)
        if out_dt is None:
            want = res
        else:
            want = out_before.reshape(-1).copy()
            np.copyto(want, res, where=flat_where)
    mask = None if out_dt is not None else np.broadcast_to(flat_where, want.shape).reshape(shape)
    assert_matches(got, want.reshape(shape), rtol, mask=mask,
                   zero_sign=name not in ZERO_SIGN_FREE)


@pytest.mark.parametrize("name", MULTI_OUT)
@given(data=st.data())
def test_several_outputs_out_where_dtype_match_numpy(name, data):
    """divmod, frexp, modf: out= as a tuple (each entry an array or None, or
    the outputs as positional arguments), where=, dtype= and casting=, on
    every dtype and layout; where `where` is false a given output keeps its
    values, a new one is not compared."""
    uf, ref = UFUNCS[name], numpy_ufunc(name)
    nin, nout = uf.nin, uf.nout
    shapes = data.draw(broadcastable_shapes(nin + 1), label="shapes")
    in_dt = data.draw(st.sampled_from(accepted_dtypes(name)), label="dtype")
    pairs = [data.draw(device_arrays(in_dt, s), label=f"x{k}")
             for k, s in enumerate(shapes.input_shapes[:nin])]
    g_ins, h_ins = [g for g, _ in pairs], [h for _, h in pairs]
    gkw, hkw = {}, {}
    if data.draw(st.booleans(), label="casting"):
        gkw["casting"] = hkw["casting"] = data.draw(st.sampled_from(CASTINGS), label="rule")
    if data.draw(st.integers(0, 3), label="pass dtype") == 0:
        gkw["dtype"] = hkw["dtype"] = data.draw(dtypes("fiu"), label="dtype=")
    use_where = data.draw(st.booleans(), label="where")
    if use_where:
        gw, hw = data.draw(device_arrays(np.bool_, shapes.input_shapes[nin]), label="where")
        gkw["where"], hkw["where"] = gw, hw
    shape = np.broadcast_shapes(*[h.shape for h in h_ins], *([hw.shape] if use_where else []))
    loop, lexc = numpy_outcome(lambda: ref.resolve_dtypes(
        tuple(h.dtype for h in h_ins) + (None,) * nout))
    g_outs, h_outs, befores = [], [], []
    for k in range(nout):
        if data.draw(st.booleans(), label=f"out{k} given"):
            dt = data.draw(st.sampled_from([loop[nin + k]]) if loop and data.draw(
                st.booleans(), label=f"out{k} loop dtype") else dtypes(), label=f"out{k} dtype")
            go, ho = data.draw(device_arrays(dt, shape), label=f"out{k}")
            befores.append(ho.copy())
        else:
            go = ho = None
            befores.append(None)
        g_outs.append(go)
        h_outs.append(ho)
    positional = data.draw(st.booleans(), label="outputs positional")
    if positional:
        g_call = lambda: uf(*g_ins, *g_outs, **gkw)  # noqa: E731
        h_call = lambda: ref(*h_ins, *h_outs, **hkw)  # noqa: E731
    else:
        g_call = lambda: uf(*g_ins, out=tuple(g_outs), **gkw)  # noqa: E731
        h_call = lambda: ref(*h_ins, out=tuple(h_outs), **hkw)  # noqa: E731
    want, exc = numpy_outcome(h_call)
    if exc is None and (any(h.dtype.kind in "fc" and d.kind in "iu"
                            for h, d in zip(h_ins, loop[:nin]))
                        or any(o is not None and loop[nin + k].kind in "fc" and o.dtype.kind in "iu"
                               for k, o in enumerate(h_outs))):
        return  # casts NumPy leaves to the platform; test_values covers the loop itself
    if exc is not None:
        with pytest.raises(exc):
            g_call()
        return
    got = g_call()
    assert isinstance(got, tuple) and len(got) == nout
    flat, _ = contiguous(h_ins, shape)
    flat_where = True if not use_where else contiguous([hw], shape)[0][0]
    fkw = {k: v for k, v in hkw.items() if k != "where"}
    fouts = tuple(None if b is None else b.reshape(-1).copy() for b in befores)
    res = numpy_outcome(lambda: ref(*flat, out=fouts, where=flat_where, **fkw))[0]
    for k in range(nout):
        if g_outs[k] is not None:
            assert got[k] is g_outs[k]
        w = np.asarray(res[k]).reshape(shape)
        mask = None if g_outs[k] is not None or not use_where else \
            np.broadcast_to(flat_where, (w.size,)).reshape(shape)
        assert_matches(got[k], w, rtol_for(name, *loop, w.dtype, args=flat), mask=mask)


# ---- overlapping and in-place outputs -----------------------------------------------------------

def uniform_dtypes(name) -> list:
    """Dtypes of NumPy loops whose inputs and output share one dtype (an
    output can then overlap an input's memory)."""
    return [loop[0] for loop in numpy_loops(name) if len(set(loop)) == 1]


_OVERLAPS = {  # (view of `a` read, view of `a` written)
    "in place": (lambda a: a, lambda a: a),
    "ahead": (lambda a: a[:-1], lambda a: a[1:]),
    "behind": (lambda a: a[1:], lambda a: a[:-1]),
}


@pytest.mark.parametrize("name", [n for n in NAMES if uniform_dtypes(n)])
@given(data=st.data())
def test_out_overlapping_an_input(name, data):
    """NumPy gives the result of reading every input before writing: exactly
    in place (out=a), and shifted by one element (out=a[1:] reading a[:-1],
    and the reverse)."""
    uf, ref = UFUNCS[name], numpy_ufunc(name)
    nin = uf.nin
    dt = data.draw(st.sampled_from(uniform_dtypes(name)), label="dtype")
    n = data.draw(st.integers(1, 12), label="length")
    inner = data.draw(broadcastable_shapes(1, max_dims=2), label="inner").result_shape
    how = data.draw(st.sampled_from(sorted(_OVERLAPS)), label="overlap")
    read, write = _OVERLAPS[how]
    ga, ha = data.draw(device_arrays(dt, (n + 1,) + inner), label="a")
    gb, hb = data.draw(device_arrays(dt, read(ha).shape), label="b")
    first = data.draw(st.booleans(), label="overlapping input first")
    g_args = ([read(ga), gb] if first else [gb, read(ga)])[:nin]
    h_args = ([read(ha), hb] if first else [hb, read(ha)])[:nin]
    expected, inputs = ha.copy(), [x.copy() for x in h_args]  # before NumPy writes
    # with several outputs the first overlaps, the others are new
    h_out = write(ha) if uf.nout == 1 else (write(ha),) + (None,) * (uf.nout - 1)
    _, exc = numpy_outcome(lambda: ref(*h_args, out=h_out))
    if exc is not None:
        with pytest.raises(exc):
            uf(*g_args, out=write(ga) if uf.nout == 1 else (write(ga),) + h_out[1:])
        return
    gout = write(ga)
    if uf.nout == 1:
        assert uf(*g_args, out=gout) is gout
    else:
        assert uf(*g_args, out=(gout,) + h_out[1:])[0] is gout
    flat, shape = contiguous(inputs)
    with np.errstate(all="ignore"):
        res = ref(*flat)
        write(expected)[...] = (res if uf.nout == 1 else res[0]).reshape(shape)
    assert_matches(ga, expected, rtol_for(name, dt, args=inputs),
                   zero_sign=name not in ZERO_SIGN_FREE)


# ---- 5. Python operators ------------------------------------------------------------------------

BINARY_OPERATORS = [operator.add, operator.sub, operator.mul, operator.truediv,
                    operator.floordiv, operator.mod, operator.pow, operator.and_, operator.or_,
                    operator.xor, operator.lshift, operator.rshift, operator.lt, operator.le,
                    operator.gt, operator.ge, operator.eq, operator.ne, divmod]
INPLACE_OPERATORS = [operator.iadd, operator.isub, operator.imul, operator.itruediv,
                     operator.ifloordiv, operator.imod, operator.ipow, operator.iand,
                     operator.ior, operator.ixor, operator.ilshift, operator.irshift]
UNARY_OPERATORS = [operator.neg, operator.pos, abs, operator.invert]


_OPERATOR_UFUNC = {operator.add: "add", operator.sub: "subtract", operator.mul: "multiply",
                   operator.truediv: "true_divide", operator.floordiv: "floor_divide",
                   operator.mod: "remainder", operator.pow: "power", operator.and_: "bitwise_and",
                   operator.or_: "bitwise_or", operator.xor: "bitwise_xor",
                   operator.lshift: "left_shift", operator.rshift: "right_shift",
                   operator.lt: "less", operator.le: "less_equal", operator.gt: "greater",
                   operator.ge: "greater_equal", operator.eq: "equal", operator.ne: "not_equal",
                   operator.neg: "negative", operator.pos: "positive", abs: "absolute",
                   operator.invert: "invert", divmod: "divmod"}
_OPERATOR_UFUNC.update({i: _OPERATOR_UFUNC[b] for i, b in zip(
    INPLACE_OPERATORS, BINARY_OPERATORS)})


def operands(data, dt, shape, label):
    """An array, a Python scalar, a NumPy scalar or a (nested) list, as
    (gpunp, NumPy) operands; NumPy's operand for a list is the array it
    makes of it (an array's dtype, never a weak scalar's)."""
    kind = data.draw(st.sampled_from(["array", "python", "numpy", "list"]), label=f"{label} kind")
    if kind in ("array", "list"):
        g, h = data.draw(device_arrays(dt, shape), label=label)
        if kind == "array":
            return g, h
        lst = h.tolist() if h.ndim else [h.tolist()]
        return lst, np.asarray(lst)
    s = data.draw(python_scalars() if kind == "python" else numpy_scalars(), label=label)
    return s, s


@pytest.mark.parametrize("op", BINARY_OPERATORS, ids=lambda f: f.__name__)
@given(data=st.data())
def test_binary_operators_match_numpy(op, data):
    shapes = data.draw(broadcastable_shapes(2), label="shapes")
    dt = data.draw(dtypes(), label="dtype")
    g, h = data.draw(device_arrays(dt, shapes.input_shapes[0]), label="x")
    go, ho = operands(data, data.draw(dtypes(), label="other dtype"), shapes.input_shapes[1],
                      "other")
    if data.draw(st.booleans(), label="reflected"):
        gargs, hargs = (go, g), (ho, h)
    else:
        gargs, hargs = (g, go), (h, ho)
    check(_OPERATOR_UFUNC[op], lambda: op(*gargs), numpy_pow if op is operator.pow else op,
          hargs, dt, _dt(go))


@pytest.mark.parametrize("other", [None, "x", "", object(), [0, 1, 2], (0, 1, 5), [[0], [1]], [1, 2]],
                         ids=lambda v: "object()" if type(v) is object else repr(v))
@pytest.mark.parametrize("op", [operator.eq, operator.ne, operator.lt, operator.add],
                         ids=lambda f: f.__name__)
def test_operators_with_objects_match_numpy(op, other):
    """== and != compare each element with an object NumPy cannot convert
    (None, a string): never equal; a list or tuple is an array. A bare
    object() stays Python's: NumPy's object loop calls its __eq__, which
    gpunp leaves to Python (identity)."""
    x = np.arange(3)
    g = gp.asarray(x)
    for gargs, hargs in (((g, other), (x, other)), ((other, g), (other, x))):
        if type(other) is object:
            with pytest.raises(TypeError) if op in (operator.lt, operator.add) else \
                    contextlib.nullcontext():
                assert op(*gargs) is (op is operator.ne)
            continue
        got, want = same_outcome(lambda: op(*hargs), lambda: op(*gargs))
        if want is not None:
            np.testing.assert_array_equal(host(got), want, strict=True)
    if isinstance(other, str):  # the ufuncs themselves have no loop for a string
        name = _OPERATOR_UFUNC[op]
        same_outcome(lambda: getattr(np, name)(x, other), lambda: getattr(gp, name)(g, other))


@pytest.mark.parametrize("op", INPLACE_OPERATORS, ids=lambda f: f.__name__)
@given(data=st.data())
def test_inplace_operators_match_numpy(op, data):
    """x op= y writes into x (same object) under same_kind casting, or raises
    as NumPy does (int /= int, a broadcast that would grow x...)."""
    shapes = data.draw(broadcastable_shapes(2), label="shapes")
    dt = data.draw(dtypes(), label="dtype")
    g, h = data.draw(device_arrays(dt, shapes.input_shapes[0]), label="x")
    go, ho = operands(data, data.draw(dtypes(), label="other dtype"), shapes.input_shapes[1],
                      "other")
    name = _OPERATOR_UFUNC[op]
    before = h.copy()
    # The reference is the ufunc call that x op= y means: NumPy < 2.3 turns
    # `x **= 2` into an in-place square that skips the same_kind check.
    fast = numpy_power_fast_path(h, ho) if op is operator.ipow else None
    if fast is not None:
        want, exc = numpy_outcome(lambda: fast(h, out=h))
    else:
        want, exc = numpy_outcome(lambda: getattr(np, name)(h, ho, out=h))
    if exc is not None:
        with pytest.raises(exc):
            op(g, go)
        return
    assert want is h
    got = op(g, go)
    assert got is g
    flat, _ = contiguous([before, ho], h.shape)
    with np.errstate(all="ignore"):
        ref = (lambda x, y: fast(x)) if fast is not None else getattr(np, name)
        expected = ref(*flat).astype(h.dtype).reshape(h.shape)
    assert_matches(g, expected, rtol_for(name, dt, _dt(go), args=[before, ho]))


@pytest.mark.parametrize("op", UNARY_OPERATORS, ids=lambda f: f.__name__)
@given(data=st.data())
def test_unary_operators_match_numpy(op, data):
    dt = data.draw(dtypes(), label="dtype")
    g, h = data.draw(device_arrays(dt, data.draw(broadcastable_shapes(1)).result_shape),
                     label="x")
    check(_OPERATOR_UFUNC[op], lambda: op(g), op, [h], dt)


# ---- 6. NEP 13: NumPy's ufuncs on gpunp arrays --------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
@given(data=st.data())
def test_numpy_ufuncs_dispatch_to_gpunp(name, data):
    """numpy.<ufunc>(gpunp arrays or scalars) runs on the device and returns
    gpunp arrays, also with out= a gpunp array."""
    nin = UFUNCS[name].nin
    dt = data.draw(st.sampled_from(accepted_dtypes(name)), label="dtype")
    shapes = data.draw(broadcastable_shapes(nin), label="shapes")
    pairs = [data.draw(device_arrays(dt, s), label=f"x{k}")
             for k, s in enumerate(shapes.input_shapes)]
    if nin == 2 and data.draw(st.booleans(), label="scalar operand"):
        s = data.draw(python_scalars("bif"), label="scalar")
        pairs[data.draw(st.integers(0, 1), label="position")] = (s, s)
    ref = getattr(np, name)
    g_args, h_args = [g for g, _ in pairs], [h for _, h in pairs]
    if not any(isinstance(g, gp.ndarray) for g in g_args):
        return
    got = check(name, lambda: ref(*g_args), ref, h_args, dt)
    if got is not None:
        gots = got if isinstance(got, tuple) else (got,)
        outs = tuple(gp.empty(g.shape, g.dtype) for g in gots)
        res = ref(*g_args, out=outs if len(outs) > 1 else outs[0])
        assert all(r is o for r, o in zip(res if len(outs) > 1 else (res,), outs))
        for o, g in zip(outs, gots):
            assert_matches(o, g.get(), rtol_for(name, dt, g.dtype),
                           zero_sign=name not in ZERO_SIGN_FREE)


def _exact_in_any_order(name, dt):
    """Elements whose sums (add) or products (multiply) are exact, so every
    summation order must give NumPy's bits: small integers, and for products
    only units and zero."""
    dt = np.dtype(dt)
    if name == "multiply" and dt.kind in "fc":
        values = [0, 1, -1] + ([1j, -1j] if dt.kind == "c" else [])
        return st.sampled_from(values)
    if name == "add" and dt.kind in "fc":
        ints = st.integers(-8, 8)
        return st.builds(complex, ints, ints) if dt.kind == "c" else ints.map(float)
    if name == "hypot" and dt.kind == "f":
        # a partial result that overflows to inf and then meets a NaN gives
        # inf (hypot(inf, nan) is inf), the NaN first gives NaN: values whose
        # hypot over any draw cannot overflow, and NaN and the infinities
        bound = float(np.finfo(dt).max) / 128
        return st.one_of(st.floats(-bound, bound, width=min(dt.itemsize * 8, 64)),
                         st.sampled_from([np.nan, np.inf, -np.inf]))
    return elements(dt)


def _reduce_by_definition(ref, h, axis, want):
    """ufunc.reduce by its definition, the binary ufunc applied from the first
    element on, in the dtype and shape of NumPy's result `want`. (NumPy's own
    float power.reduce here gives a[0] ** a[-1]: its SIMD loop mishandles
    the reduction.)"""
    a = h.reshape(-1) if axis is None else np.moveaxis(h, axis, 0)
    if a.shape[0] < 2:
        return want  # nothing is combined
    a = a.astype(want.dtype)  # add.reduce of bool and small ints counts in int64
    acc = a[0]
    for x in a[1:]:
        acc = numpy_outcome(lambda: ref(acc, x))[0]
    return np.asarray(acc).astype(want.dtype).reshape(want.shape)


def _chained_power_growth(h, axis) -> float:
    """How far a reduce of power along `axis` can grow one rounding: each
    step raises the running result p to the next x, which multiplies p's
    relative error by |x| and adds its own, up to |x log p| roundings
    (complex128 (1.8e308 ** 1j) ** 4.3e6 differs by 1.2e-12 between the H200
    and NumPy, both within this bound)."""
    x = np.asarray(h).astype(np.complex128)
    lines = x.reshape(1, -1) if axis is None else \
        np.moveaxis(x, axis, -1).reshape(-1, x.shape[axis])
    growth = 1.0
    with np.errstate(all="ignore"):
        for line in lines:
            g, p = 1.0, line[0] if line.size else 1.0
            for y in line[1:]:
                g = abs(y) * g + max(1.0, abs(y * np.log(p)))
                p = p ** y
            if np.isfinite(g):
                growth = max(growth, g)
    return growth


@pytest.mark.parametrize("name", BINARY)
@given(data=st.data())
def test_numpy_reduce_dispatches_to_gpunp(name, data):
    """numpy.<ufunc>.reduce(gpunp array) reduces on the device. Float sums and
    products depend on the order NumPy and gpunp add in, so those draw values
    every order adds exactly; the order of equal zeros of max/min is free too."""
    ref = getattr(np, name)
    dt = data.draw(st.sampled_from(accepted_dtypes(name)), label="dtype")
    shape = data.draw(broadcastable_shapes(1, max_dims=3), label="shape").result_shape
    h = data.draw(hnp.arrays(dt, shape, elements=_exact_in_any_order(name, dt)), label="x")
    g = gp.asarray(h)
    axis = data.draw(st.none() | st.integers(-len(shape), len(shape) - 1)
                     if shape else st.none(), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    want, exc = numpy_outcome(lambda: ref.reduce(h, axis=axis, keepdims=keepdims))
    if name == "ldexp" and dt.kind in "biu":
        # NumPy reduces integers with its mixed loop (float16 accumulator,
        # int32 exponents); gpunp reduces only with loops of one dtype and
        # raises NumPy's TypeError for it (docs/differences.md)
        with pytest.raises(TypeError, match="not compatible with ldexp.reduce"):
            ref.reduce(g, axis=axis, keepdims=keepdims)
        return
    if exc is not None:
        with pytest.raises(exc):
            ref.reduce(g, axis=axis, keepdims=keepdims)
        return
    got = ref.reduce(g, axis=axis, keepdims=keepdims)
    want = _reduce_by_definition(ref, h, axis, np.asarray(want))
    if want.dtype.kind == "c" and name in ("maximum", "minimum", "fmax", "fmin"):
        # which of several complex NaNs comes out follows the order of
        # combination (docs/differences.md): each must be a NaN, any NaN
        nan = complex(np.nan, np.nan)
        g_h, want = got.get(), want.copy()
        g_h[np.isnan(g_h)], want[np.isnan(want)] = nan, nan
        got = gp.asarray(g_h)
    rtol = rtol_for(name, dt, want.dtype)
    if rtol is not None and name in ("power", "float_power"):
        rtol *= _chained_power_growth(h, axis)
    if name in ("logaddexp", "logaddexp2") and want.dtype.kind == "f":
        # each combination rounds relative to its own magnitude, up to the
        # largest element's, and a result near zero keeps those roundings as
        # an absolute error that depends on the order of combination (float16
        # [-1, -1, -7]: 0.01123 in order, 0.01128 by the H100's tree)
        n = max(h.size, 1)
        scale = float(np.max(np.abs(h.astype(np.float64)), initial=0.0)) + math.log2(n) + 1
        atol = (n - 1) * float(np.finfo(want.dtype).eps) * scale
        assert isinstance(got, gp.ndarray) and got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got.get().astype(np.float64), want.astype(np.float64),
                                   rtol=rtol, atol=atol, equal_nan=True)
        return
    assert_matches(got, want, rtol, zero_sign=False)


# ---- cases the random search found once ------------------------------------------------------

@pytest.mark.parametrize("name", ["absolute", "negative", "square", "add"])
@pytest.mark.parametrize("dt", ["int8", "uint8", "int16", "uint16"])
@pytest.mark.parametrize("out_dt", ["int32", "int64", "float32", "complex64"])
def test_small_int_loop_results_wrap_before_they_widen(name, dt, out_dt):
    """C computes int8/int16 in int; NumPy's loop result has the loop's width
    before the cast to a wider out= (abs(int16 -32768) into int32 is -32768)."""
    info = np.iinfo(dt)
    h = np.array([info.min, info.max, 0, 1, -1 if info.min else 2], dt)
    args_h, args_g = [h] * UFUNCS[name].nin, [gp.asarray(h)] * UFUNCS[name].nin
    out = gp.empty(h.shape, out_dt)
    UFUNCS[name](*args_g, out=out)
    want = np.empty(h.shape, out_dt)
    getattr(np, name)(*args_h, out=want, casting="unsafe")
    assert_matches(out, want)


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_complex_abs_and_sign_near_the_largest_float(dt):
    """|z| of a part near the largest float stays finite where it fits (a
    device's hypot may round it up to infinity), and sign(z) = z / |z|."""
    big = np.finfo(np.dtype(dt).char.lower()).max
    h = np.array([1 + 1j * big, big + 1j, -big - 1j, big / 2 + 1j * big / 2, 3 + 4j,
                  1e-40 + 1e-40j], dt)
    for name in ("absolute", "sign"):
        with np.errstate(all="ignore"):
            want = getattr(np, name)(h)
        assert_matches(UFUNCS[name](gp.asarray(h)), want, rtol_for(name, dt))


@pytest.mark.parametrize("dt", [d for d in ALL_DTYPES], ids=str)
@pytest.mark.parametrize("exponent", [2, 2.0, 0.5, -1, 3, np.int64(2), np.float64(0.5), True])
def test_power_operator_with_a_python_scalar(dt, exponent):
    """`x ** 2` (a Python int) is NumPy's square and `x ** 0.5` (a Python float,
    inexact x) its sqrt, not power: bool ** 2 is int8 where power gives int64,
    and a complex sqrt rounds differently from pow(x, 0.5). The reference is
    the NumPy ufunc that NumPy >= 2.3 calls (numpy_power_fast_path)."""
    h = np.array([0, 1, 2, 3], dt) if dt.kind != "c" else np.array([1 + 2j, -3j, 4, 0], dt)
    with np.errstate(all="ignore"):
        want, exc = numpy_outcome(lambda: numpy_pow(h, exponent))
        if np.lib.NumpyVersion(np.__version__) >= "2.3.0":
            # the reference is what the running NumPy's operator does
            op_want, op_exc = numpy_outcome(lambda: h ** exponent)
            assert op_exc == exc
            if exc is None:
                assert op_want.dtype == want.dtype
                np.testing.assert_array_equal(op_want, want)
    g = gp.asarray(h)
    if exc is not None:
        with pytest.raises(exc):
            g ** exponent
        return
    assert_matches(g ** exponent, want, rtol_for("power", dt, want.dtype, args=[h, exponent]))


def test_double_hypot_is_correctly_rounded():
    """float64 hypot equals Python's math.hypot (correctly rounded, away from
    subnormal results) at every scale; glibc's, NumPy's reference, is one ulp
    off for about 0.1% of these pairs. Near 1 that ulp is all of log1p's real
    part: log1p(1.6448448069e-05j) is log|1 + z|, and gpunp's earlier hypot
    gave 1.3527557e-10 where NumPy (and the truth) give 1.352758e-10."""
    import math
    rng = np.random.default_rng(7)
    for scale in (1e-300, 1e-160, 1e-5, 1.0, 1e150, 1e300):
        x = rng.standard_normal(4000) * scale
        y = x * rng.choice([1.0, 1e-3, 1e-8, 1e-17, 1e-30], x.size) * rng.standard_normal(x.size)
        got = gp.hypot(gp.asarray(x), gp.asarray(y)).get()
        want = np.array([math.hypot(a, b) for a, b in zip(x, y)])
        np.testing.assert_array_equal(got, want)
    z = np.array([1.644844806924551e-05j])
    assert_matches(gp.log1p(gp.asarray(z)), np.log1p(z), rtol_for("log1p", z.dtype))


@pytest.mark.parametrize("dt", ["float16", "float32", "float64"])
def test_nextafter_of_equal_values_and_signed_zeros(dt):
    """nextafter(x, y) of equal x and y: NumPy's float16 loop gives x before
    NumPy 2.5 and y from 2.5 (as C and its float loops do); gpunp follows
    the running NumPy."""
    x = np.array([0.0, -0.0, 0.0, -0.0, 1.0, -2.0], dt)
    y = np.array([-0.0, 0.0, 0.0, -0.0, 1.0, -2.0], dt)
    assert_matches(gp.nextafter(gp.asarray(x), gp.asarray(y)), np.nextafter(x, y))


@pytest.mark.parametrize("name", [n for n in BINARY if all(t[0] in "efd" for t in UFUNCS[n].types)])
@pytest.mark.parametrize("dt", ["bool", "int8", "uint8", "int16", "uint16", "int32", "int64"])
@pytest.mark.parametrize("scalar", [-2**100, 2**70, 2**1100, False, True, 3])
def test_python_scalars_beside_small_ints_in_float_ufuncs(name, dt, scalar):
    """A Python int next to a small integer array in a ufunc of float loops
    only picks the loop of the array (hypot(int8, -2**100) is float16, an
    infinity), an int past float64 raises OverflowError, and a Python bool
    is a numpy.bool_ (ldexp(False, int16) is float16), on either side."""
    h = np.array([-3 if np.dtype(dt).kind == "i" else 1, 0, 5]).astype(dt)
    for args_h, args_g in (((h, scalar), (gp.asarray(h), scalar)),
                           ((scalar, h), (scalar, gp.asarray(h)))):
        check(name, lambda: UFUNCS[name](*args_g), getattr(np, name), args_h, dt)


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_log1p_pole_keeps_the_sign_of_zero(dt):
    """log1p(-1 -+ 0j) is -inf -+ 0j (arg(+0 -+ 0j)), with the reference the
    property tests use: its mend of NumPy 2.5's overflow once took the pole
    for one and made NumPy's -inf - 0j into -inf + 0j (the H200 suite at
    6605251)."""
    z = np.array([-1, -1], dt)
    z.imag = [-0.0, 0.0]
    with np.errstate(divide="ignore"):
        want = numpy_ufunc("log1p")(z)
        assert_matches(gp.log1p(gp.asarray(z)), want, rtol_for("log1p", z.dtype))
    assert np.signbit(want.imag).tolist() == [True, False]


@pytest.mark.parametrize("kw", [{"dtype": np.complex64}, {"signature": (np.complex64, None)}])
def test_log1p_reference_reads_z_as_the_loop_does(kw):
    """complex128 z just above float32's largest value is infinite in a
    complex64 loop, and NumPy's log1p there is inf + pi/2 j, as gpunp's: the
    reference's mend took z as finite in complex128 and made it 88.7 + pi/2 j
    (the H100 suite at 2ef528e)."""
    big = float(np.finfo(np.float32).max) + 2.0**103  # half an ulp: rounds to inf
    z = np.array([complex(0, big), complex(0, np.nextafter(big, 0)), 1e38 + 1e38j])
    with np.errstate(over="ignore"):
        want = numpy_ufunc("log1p")(z, **kw)
        assert_matches(gp.log1p(gp.asarray(z), **kw), want, rtol_for("log1p", np.complex64))
    assert np.isposinf(want.real).tolist() == [True, False, False]
