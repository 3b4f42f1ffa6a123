"""Property tests of reductions (sum, prod, min/max, mean, any/all,
argmin/argmax, ufunc.reduce) and accumulations (ufunc.accumulate) against
NumPy: values, dtypes, shapes, every axis form, keepdims, dtype=, out=,
initial=, empty reductions and the errors NumPy raises.

Exact dtypes and order-free operations (min, max, logic, bits) must match
NumPy exactly. Sums and products of floats may be combined in another order
than NumPy's, so they are compared with the exact result (computed in float64
or complex128 from the same values) within a bound that grows with the
magnitudes combined: tolerance(dtype) times the sum of the absolute values
(sums) or the product of the absolute values (products). Where the combined
magnitudes reach the end of the accumulator's range, whether an intermediate
overflows depends on the order, so only NaN propagation is checked there."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp
from gpunp._ufunc import UFUNCS

from .outcome import host, numpy_twin, quiet, same_outcome
from .strategies import ALL_DTYPES, device_arrays, dtypes, elements, shapes, tolerance

# ldexp reduces only in NumPy's mixed loop (float16 accumulator, int32
# exponents), which gpunp's one-dtype reductions lack: its TypeError is the
# documented difference (docs/differences.md) that
# test_ufuncs.test_numpy_reduce_dispatches_to_gpunp asserts
BINARY_UFUNCS = sorted(name for name, uf in UFUNCS.items()
                       if uf.nin == 2 and uf.nout == 1 and name != "ldexp")

# name: (takes dtype=, takes initial=, how the values compare)
REDUCTIONS = {
    "sum": (True, True, "add"),
    "prod": (True, True, "multiply"),
    "min": (False, True, "exact"),
    "amin": (False, True, "exact"),
    "max": (False, True, "exact"),
    "amax": (False, True, "exact"),
    "mean": (True, False, "mean"),
    "any": (False, False, "exact"),
    "all": (False, False, "exact"),
}
METHODS = ("sum", "prod", "min", "max", "mean", "any", "all")  # NumPy has no .amin/.amax

# ---- strategies ----------------------------------------------------------------------

@st.composite
def axis_args(draw, ndim, allow_tuple=True):
    """Every axis form: None, an int, a negative int, a tuple of ints (in any
    order, negative entries too), the empty tuple, all axes; rarely an axis
    out of bounds or a repeated one, for NumPy's errors."""
    forms = ["none", "int", "negative"] + (["tuple", "empty", "all"] if allow_tuple else [])
    form = draw(st.sampled_from(forms + ["bad"]))
    if ndim == 0 and form in ("int", "negative", "tuple", "all"):
        form = draw(st.sampled_from(["none", "empty", "bad"] if allow_tuple else ["none", "bad"]))
    if form == "none":
        return None
    if form == "int":
        return draw(st.integers(0, ndim - 1))
    if form == "negative":
        return draw(st.integers(-ndim, -1))
    if form == "empty":
        return ()
    if form == "all":
        return tuple(range(ndim))
    if form == "tuple":
        axes = draw(st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True))
        return tuple(a - ndim if draw(st.booleans()) else a for a in axes)
    # out of bounds, or a repeated axis
    bad = draw(st.sampled_from([ndim, -ndim - 1]))
    if allow_tuple and ndim and draw(st.booleans()):
        a = draw(st.integers(0, ndim - 1))
        return (a, a - ndim)
    return bad


def scalar_of(dt):
    """A Python scalar holding a value of dtype `dt` (what users pass as
    initial=)."""
    return elements(dt).map(lambda v: np.asarray(v, dtype=dt).item())


# ---- value checks -----------------------------------------------------------------------

def _wide(dt):
    return np.dtype(np.complex128 if np.dtype(dt).kind == "c" else np.float64)


def _real(dt):
    """The real float dtype of an inexact dtype (a complex one's parts)."""
    dt = np.dtype(dt)
    return np.dtype({8: "f4", 16: "f8"}[dt.itemsize]) if dt.kind == "c" else dt


def _acc(dt):
    """The real dtype gpunp accumulates `dt` in: float16 computes as float32."""
    r = _real(dt)
    return np.dtype(np.float32) if r == np.float16 else r


def _limits(res_dt, loop_dt, stepwise=False):
    """The largest magnitude and the smallest normal one that the result and
    the accumulator can both hold, and the accumulator's epsilon (a scan
    rounds every step to the loop's dtype, float16 too: `stepwise`)."""
    fr, fa = np.finfo(_real(res_dt)), np.finfo(_real(loop_dt) if stepwise else _acc(loop_dt))
    return (min(float(fr.max), float(fa.max)), max(float(fr.tiny), float(fa.tiny)),
            float(fa.eps))


def _same_meta(got, want):
    g, w = host(got), np.asarray(want)
    assert g.dtype == w.dtype, f"dtype {g.dtype} != NumPy's {w.dtype}"
    assert g.shape == w.shape, f"shape {g.shape} != NumPy's {w.shape}"
    return g, w


def _exact(g, w, skip=None):
    if skip is not None:
        g, w = g[~skip], w[~skip]
    np.testing.assert_array_equal(g, w, strict=False)


def check_exact(got, want, skip=None):
    """Equal to NumPy's result, except where `skip` (NumPy's value undefined)."""
    g, w = _same_meta(got, want)
    _exact(g, w, skip)


def undefined_casts(x, loop_dt, fold):
    """The outputs that combine a value whose cast to the integer loop dtype
    is undefined in C (NaN, infinities, out of range). NumPy's results for
    those depend on its code path (NaN becomes 2**31 in uint32 through
    astype, 0 through true_divide's output), so they are not compared; what
    gpunp gives for them is its documented choice, not NumPy's."""
    loop_dt = np.dtype(loop_dt)
    if loop_dt.kind not in "iu" or x.dtype.kind not in "fc":
        return None
    info = np.iinfo(loop_dt)
    with quiet():
        v = np.trunc(np.real(x).astype(np.float64))
        bad = ~np.isfinite(v) | (v < float(info.min)) | (v >= float(info.max) + 1)
    return np.asarray(fold(bad.astype(np.int64), np.add) > 0)


def _check_within(g, ref, bound, unchecked, what):
    """g and ref are wide arrays of one shape: g within `bound` of ref where
    ref is finite, equal where ref is infinite, NaN where ref is NaN, except
    where `unchecked` (order-dependent overflow) and ref is not NaN."""
    with quiet():
        close = np.abs(g - ref) <= bound
    ok = np.where(np.isfinite(ref), close, (g == ref) | (np.isnan(g) & np.isnan(ref)))
    ok |= unchecked & ~np.isnan(ref)
    if not ok.all():
        bad = np.flatnonzero(~ok)[:5]
        raise AssertionError(
            f"{what}: gpunp {g.ravel()[bad]} vs exact {ref.ravel()[bad]} "
            f"(bound {np.broadcast_to(bound, ref.shape).ravel()[bad]})")


def check_sum(got, want, values, fold, res_dt, initial=None, divide=False, skip=None,
              stepwise=False):
    """gpunp's sum (or mean, `divide`) of `values` (already in the loop dtype)
    against the exact one. `fold(array, ufunc)` combines an array like the
    call under test (the same axes, keepdims or accumulation)."""
    g, w = _same_meta(got, want)
    res_dt = np.dtype(res_dt)
    if res_dt.kind not in "fc" or values.dtype.kind not in "fc":
        _exact(g, w, skip)
        return
    biggest, _, eps = _limits(res_dt, values.dtype, stepwise)
    v = values.astype(_wide(values.dtype))
    count = fold(np.ones(values.shape), np.add)
    # a complex sum is two independent real sums
    parts = [(np.real, "real")] + ([(np.imag, "imag")] if v.dtype.kind == "c" else [])
    sums = {}
    for part, name in parts:
        x = part(v)
        with quiet():
            ref = fold(x, np.add)
            absum = fold(np.where(np.isfinite(x), np.abs(x), 0.0), np.add)
            if initial is not None:
                ref = ref + part(np.asarray(initial, dtype=v.dtype))
                absum = absum + abs(part(np.asarray(initial, dtype=v.dtype)))
        # where the sum may overflow in the result's dtype, in whatever order
        sums[name] = ref, absum, ~(absum * (1 + tolerance(res_dt)) < biggest)
    for part, name in parts:
        ref, absum, unchecked = sums[name]
        with quiet():
            n = np.maximum(count, 1)
            bound = np.maximum(tolerance(res_dt), n * eps) * absum
            if divide:
                ref, bound = ref / count, bound / n
                if len(parts) == 2:
                    # NumPy divides a complex sum by count + 0j (Smith's
                    # division): the other part's inf or NaN, times 0, makes
                    # this one NaN
                    oref, _, ounchecked = sums["imag" if name == "real" else "real"]
                    ref = np.where(np.isfinite(oref), ref, np.nan)
                    unchecked = unchecked | ounchecked
            # and the rounding of the result to its dtype, which the relative
            # bound misses where it is subnormal (a float16 mean of 0 and
            # 6e-08 is 3e-08 exactly, 0 in float16)
            ulp = np.abs(np.spacing(np.asarray(ref).astype(_real(res_dt))))
            bound = bound + np.nan_to_num(ulp.astype(np.float64), nan=0.0, posinf=0.0)
        gp_part = part(g.astype(_wide(g.dtype)))
        _check_within(gp_part, np.asarray(ref, dtype=np.float64), bound, unchecked,
                      f"{name} part of the sum")


def _log2_magnitudes(v):
    """log2 of each factor's magnitude: 0 for a zero or a non-finite factor
    (the product's checks treat those apart), infinite for a finite complex
    whose magnitude overflows (max - max j), which is big."""
    mag = np.abs(v)
    logs = np.log2(np.where((mag > 0) & np.isfinite(mag), mag, 1.0))
    return np.where(np.isfinite(v) & np.isinf(mag), np.inf, logs)


def check_prod(got, want, values, fold, res_dt, initial=None, skip=None, stepwise=False):
    """gpunp's product of `values` against the exact one, within a bound
    relative to the product of the magnitudes."""
    g, w = _same_meta(got, want)
    res_dt = np.dtype(res_dt)
    if res_dt.kind not in "fc" or values.dtype.kind not in "fc":
        _exact(g, w, skip)
        return
    biggest, tiniest, eps = _limits(res_dt, values.dtype, stepwise)
    v = values.astype(_wide(values.dtype))
    with quiet():
        mag = np.abs(v)
        logs = _log2_magnitudes(v)
        big = fold(np.maximum(logs, 0), np.add)
        small = fold(np.minimum(logs, 0), np.add)
        ref = fold(v, np.multiply)
        absprod = fold(np.where(np.isfinite(mag), mag, 0), np.multiply)
        has_inf = fold(np.isinf(v).astype(np.int64), np.add) > 0
        has_zero = fold((v == 0).astype(np.int64), np.add) > 0
        has_nonfinite = fold((~np.isfinite(v)).astype(np.int64), np.add) > 0
        count = fold(np.ones(values.shape), np.add)
        if initial is not None:
            # the initial value starts every product: it is the result of
            # an empty one, and one more factor of the others
            init = np.broadcast_to(np.asarray(initial, dtype=v.dtype), np.shape(ref))
            ref = np.where(count == 0, init, ref * init)
            m = np.abs(init)
            init_logs = _log2_magnitudes(init)
            big = big + np.maximum(init_logs, 0)
            small = small + np.minimum(init_logs, 0)
            absprod = absprod * np.where(np.isfinite(m), m, 0)
            has_inf = has_inf | np.isinf(init)
            has_zero = has_zero | (init == 0)
            has_nonfinite = has_nonfinite | ~np.isfinite(init)
            count = count + 1
        bound = np.maximum(tolerance(res_dt), 2 * count * eps) * absprod
        # an intermediate may overflow, or lose its precision below the
        # normal range, depending on the order of the factors
        unchecked = (big >= np.log2(biggest) - 1) | (small <= np.log2(tiniest) + 1)
        if v.dtype.kind == "c":
            # complex products of infinities give order-dependent NaN parts
            unchecked = unchecked | (has_inf & (count > 1))
    gw = g.astype(_wide(g.dtype))
    # finite factors with a zero among them: the product is 0, or NaN where
    # the order of combination overflowed before it met the zero (inf * 0),
    # as NumPy's own order may have
    zero = np.asarray(has_zero & ~has_nonfinite)
    okz = (gw == 0) | (np.isnan(gw) & unchecked)
    assert okz[zero].all(), f"products with a zero factor: gpunp {gw[zero & ~okz]}"
    gw, ref = np.where(zero, 0, gw), np.where(zero, 0, ref)
    if v.dtype.kind == "c":
        isnan_ref = np.isnan(ref)
        with quiet():
            close = np.abs(gw - ref) <= bound
        # where the order or the fused multiply-adds decide (gpunp's complex
        # product is NumPy's SIMD loop's; its accumulate and the reference
        # multiply without fusing), inf - inf may be NaN in one and an
        # infinity in the other
        ok = np.where(isnan_ref, np.isnan(gw) | (unchecked & ~np.isfinite(gw)),
                      close | (gw == ref)) | (unchecked & ~isnan_ref)
        assert ok.all(), f"products: gpunp {gw[~ok]} vs exact {ref[~ok]}"
        return
    _check_within(gw, ref, bound, unchecked, "product")


def check_close_elementwise(got, want, skip=None, steps=1):
    """Non-reorderable float reductions combine in the same order as NumPy;
    only the rounding of each step may differ (tolerance of the dtype, for
    each of `steps` combinations where the order may differ)."""
    g, w = _same_meta(got, want)
    if w.dtype.kind not in "fc":
        _exact(g, w, skip)
        return
    if w.dtype.kind == "c":
        # where both parts are infinite their signs are a phase lost to
        # overflow, which C libraries round differently (power's accumulate
        # of complex64); as test_ufuncs.assert_matches, magnitudes are compared
        lost = np.isinf(w.real) & np.isinf(w.imag)
        g, w = g.copy(), w.copy()
        for a in (g, w):
            a.real[lost], a.imag[lost] = np.abs(a.real[lost]), np.abs(a.imag[lost])
    np.testing.assert_allclose(g, w, rtol=tolerance(w.dtype) * steps, atol=0, equal_nan=True)


def check_layout(got, g, x, numpy_call):
    """A new result is laid out like its input: for a C- or F-contiguous
    input, the result's contiguity must be what NumPy gives for an input of
    exactly the same strides (`numpy_call(array)` computes it)."""
    if not (g.flags.c_contiguous or g.flags.f_contiguous) or not isinstance(got, gp.ndarray):
        return
    twin = numpy_twin(g, x)
    with quiet():
        w = np.asarray(numpy_call(twin))
    where = f"input strides {g.strides}, result strides {got.strides} (NumPy's {w.strides})"
    assert got.flags.c_contiguous == w.flags.c_contiguous, f"C contiguity differs: {where}"
    assert got.flags.f_contiguous == w.flags.f_contiguous, f"F contiguity differs: {where}"


# ---- folding like the call under test ----------------------------------------------------

def reduce_fold(axis, keepdims):
    def fold(a, uf):
        return uf.reduce(a, axis=axis, keepdims=keepdims)
    return fold


def accumulate_fold(axis):
    def fold(a, uf):
        return uf.accumulate(a, axis=axis)
    return fold


def mean_loop_dtype(x_dt, dtype):
    """The dtype numpy.mean sums in (its documentation: float64 for integer
    input, float32 for float16, else the input's or the given dtype)."""
    if dtype is not None:
        return np.dtype(dtype)
    if x_dt.kind in "biu":
        return np.dtype(np.float64)
    return np.dtype(np.float32) if x_dt == np.float16 else x_dt


def _loop_values(x, dt):
    with quiet():
        return x.astype(dt)


# ---- the functions and methods --------------------------------------------------------------

CALLS = [(name, "function") for name in REDUCTIONS] + [(name, "method") for name in METHODS]


@pytest.mark.parametrize("name, form", CALLS)
@given(data=st.data())
def test_reduction(name, form, data):
    takes_dtype, takes_initial, values = REDUCTIONS[name]
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(), label="shape")), label="arrays")
    kw = {"axis": data.draw(axis_args(x.ndim), label="axis"),
          "keepdims": data.draw(st.booleans(), label="keepdims")}
    if takes_dtype and data.draw(st.integers(0, 3), label="pass dtype") == 0:
        kw["dtype"] = data.draw(dtypes(), label="dtype=")
    if takes_initial and data.draw(st.integers(0, 3), label="pass initial") == 0:
        kw["initial"] = data.draw(scalar_of(dt), label="initial")

    if form == "function":
        numpy_call = lambda a: getattr(np, name)(a, **kw)  # noqa: E731
        got, want = same_outcome(lambda: numpy_call(x), lambda: getattr(gp, name)(g, **kw))
    else:
        numpy_call = lambda a: getattr(a, name)(**kw)  # noqa: E731
        got, want = same_outcome(lambda: numpy_call(x), lambda: getattr(g, name)(**kw))
    if want is None:
        return
    assert isinstance(got, gp.ndarray), f"{name} returned {type(got)}"
    fold = reduce_fold(kw["axis"], kw["keepdims"])
    res_dt = np.asarray(want).dtype
    if values == "exact":
        check_exact(got, want)
    elif values == "mean":
        loop = mean_loop_dtype(x.dtype, kw.get("dtype"))
        if loop.kind in "fc":
            check_sum(got, want, _loop_values(x, loop), fold, res_dt, divide=True)
        else:
            # an integer mean of nothing is 0/0 cast to an integer
            empty = np.asarray(fold(np.ones(x.shape), np.add) == 0)
            skip = undefined_casts(x, loop, fold)
            check_exact(got, want, empty if skip is None else skip | empty)
    elif values == "add":
        check_sum(got, want, _loop_values(x, res_dt), fold, res_dt, kw.get("initial"),
                  skip=undefined_casts(x, res_dt, fold))
    else:
        check_prod(got, want, _loop_values(x, res_dt), fold, res_dt, kw.get("initial"),
                   skip=undefined_casts(x, res_dt, fold))
    check_layout(got, g, x, numpy_call)


ARG_CALLS = [(name, form) for name in ("argmin", "argmax") for form in ("function", "method")]


@pytest.mark.parametrize("name, form", ARG_CALLS)
@given(data=st.data())
def test_argextreme(name, form, data):
    """argmin/argmax: the first extreme wins (ties), NaN is the extreme (the
    first NaN wins), +-inf are ordinary values, complex compares
    lexicographically; int64 indices into the flattened (C order) array for
    axis=None."""
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(), label="shape")), label="arrays")
    kw = {"axis": data.draw(axis_args(x.ndim, allow_tuple=False), label="axis")}
    if data.draw(st.booleans(), label="pass keepdims"):
        kw["keepdims"] = data.draw(st.booleans(), label="keepdims")
    if form == "function":
        got, want = same_outcome(lambda: getattr(np, name)(x, **kw),
                                 lambda: getattr(gp, name)(g, **kw))
    else:
        got, want = same_outcome(lambda: getattr(x, name)(**kw), lambda: getattr(g, name)(**kw))
    if want is not None:
        check_exact(got, want)


# ---- ufunc.reduce and ufunc.accumulate -------------------------------------------------------

@pytest.mark.parametrize("name", BINARY_UFUNCS)
@given(data=st.data())
def test_ufunc_reduce(name, data):
    """ufunc.reduce of every binary ufunc on every dtype: the dtype NumPy
    reduces in (add and multiply raise small integers), identities for empty
    reductions or NumPy's ValueError, initial=, several axes only for
    reorderable ufuncs."""
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(), label="shape")), label="arrays")
    kw = {}
    if data.draw(st.integers(0, 3), label="pass axis") > 0:
        kw["axis"] = data.draw(axis_args(x.ndim), label="axis")
    if data.draw(st.booleans(), label="pass keepdims"):
        kw["keepdims"] = data.draw(st.booleans(), label="keepdims")
    if data.draw(st.integers(0, 4), label="pass dtype") == 0:
        kw["dtype"] = data.draw(dtypes(), label="dtype=")
    if data.draw(st.integers(0, 4), label="pass initial") == 0:
        kw["initial"] = data.draw(scalar_of(dt), label="initial")
    got, want = same_outcome(lambda: getattr(np, name).reduce(x, **kw),
                             lambda: UFUNCS[name].reduce(g, **kw))
    if want is None:
        return
    fold = reduce_fold(kw.get("axis", 0), kw.get("keepdims", False))
    loop = np.asarray(want).dtype
    skip = undefined_casts(x, loop, fold)
    if name == "add":
        check_sum(got, want, _loop_values(x, loop), fold, loop, kw.get("initial"), skip=skip)
    elif name == "multiply":
        check_prod(got, want, _loop_values(x, loop), fold, loop, kw.get("initial"), skip=skip)
    elif name == "subtract" and loop.kind in "fc":
        check_sum(got, want, subtraction_terms(x, loop, kw.get("axis", 0), "initial" in kw),
                  fold, loop, kw.get("initial"))
    elif name in ("power", "arctan2") and loop.kind in "fc":
        check_close_elementwise(got, accumulated_reduce_reference(x, name, loop, kw, want))
    else:
        # reorderable ufuncs (logaddexp...) combine in another order than
        # NumPy's, each step rounded (float16 bools: 120 steps drift 3 ulps)
        steps = x.size // max(np.asarray(want).size, 1) if UFUNCS[name].identity is not None else 1
        check_close_elementwise(got, want, skip, steps=max(steps, 1))
    check_layout(got, g, x, lambda a: getattr(np, name).reduce(a, **kw))


def accumulated_reduce_reference(x, name, loop, kw, want):
    """NumPy's (2.4, 2.5) power.reduce and arctan2.reduce of float32 and
    float64 are wrong on contiguous lines where its SIMD loops run: they
    ignore the accumulator (power.reduce([2., 0., 3.]) is 8.0,
    arctan2.reduce([1., 2., 3.]) is arctan2(1, 3)). Its accumulate combines
    correctly in the same order, so the reference is the last element of
    the accumulation (after the initial value)."""
    axis = kw.get("axis", 0)
    if isinstance(axis, tuple):
        axis = axis[0] if len(axis) == 1 else None if axis else ()
    if axis is None:
        axis = 0 if x.ndim == 1 else ()
    if axis == () or x.ndim == 0 or x.shape[axis] == 0 and "initial" not in kw:
        return want  # nothing is combined
    with quiet():
        v = x.astype(loop)
        if "initial" in kw:
            shape = list(v.shape)
            shape[axis] = 1
            v = np.concatenate([np.full(shape, kw["initial"], dtype=loop), v], axis=axis)
        ref = np.take(getattr(np, name).accumulate(v, axis=axis), -1, axis=axis)
    if kw.get("keepdims"):
        ref = np.expand_dims(ref, axis)
    return ref.astype(loop)


def subtraction_terms(x, loop, axis, has_initial):
    """x0 - x1 - ... - xn is the sum of x0 and the negated others (all of
    them negated after an initial value): the sum's bound applies."""
    values = _loop_values(x, loop)
    if isinstance(axis, tuple):
        axis = axis[0] if len(axis) == 1 else None if axis else ()
    if axis is None:
        axis = 0 if values.ndim == 1 else ()
    if axis == () or values.ndim == 0:
        return values if not has_initial else np.negative(values)
    terms = np.negative(values)
    if not has_initial:
        first = [slice(None)] * values.ndim
        first[axis] = slice(0, 1)
        terms[tuple(first)] = values[tuple(first)]
    return terms


@pytest.mark.parametrize("name", BINARY_UFUNCS)
@given(data=st.data())
def test_ufunc_accumulate(name, data):
    """ufunc.accumulate of every binary ufunc on every dtype, along one axis;
    add and multiply accumulate small integers as int64/uint64, as NumPy."""
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(), label="shape")), label="arrays")
    kw = {}
    if data.draw(st.integers(0, 3), label="pass axis") > 0:
        kw["axis"] = data.draw(axis_args(x.ndim, allow_tuple=False), label="axis")
    if data.draw(st.integers(0, 4), label="pass dtype") == 0:
        kw["dtype"] = data.draw(dtypes(), label="dtype=")
    got, want = same_outcome(lambda: getattr(np, name).accumulate(x, **kw),
                             lambda: UFUNCS[name].accumulate(g, **kw))
    if want is None:
        return
    axis = kw.get("axis", 0)
    fold = accumulate_fold(axis)
    loop = np.asarray(want).dtype
    skip = undefined_casts(x, loop, fold)
    if name == "add":
        check_sum(got, want, _loop_values(x, loop), fold, loop, skip=skip, stepwise=True)
    elif name == "multiply":
        check_prod(got, want, _loop_values(x, loop), fold, loop, skip=skip, stepwise=True)
    else:
        check_close_elementwise(got, want, skip)
    check_layout(got, g, x, lambda a: getattr(np, name).accumulate(a, **kw))


@pytest.mark.parametrize("name, ufunc", [("cumsum", "add"), ("cumprod", "multiply")])
@pytest.mark.parametrize("how", ["function", "method"])
@given(data=st.data())
def test_cumsum_and_cumprod(name, ufunc, how, data):
    """numpy.cumsum/cumprod and their methods: the flattened array for
    axis=None (and for a 0-d array), NumPy's AxisError, dtype=."""
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(0, 3), label="shape")), label="arrays")
    kw = {}
    if data.draw(st.booleans(), label="pass axis"):
        kw["axis"] = data.draw(st.one_of(st.none(), st.integers(-x.ndim - 1, x.ndim)),
                               label="axis")
    if data.draw(st.integers(0, 4), label="pass dtype") == 0:
        kw["dtype"] = data.draw(dtypes(), label="dtype=")
    call = (lambda a: getattr(a, name)(**kw)) if how == "method" else \
        (lambda a: getattr(np if isinstance(a, np.ndarray) else gp, name)(a, **kw))
    got, want = same_outcome(lambda: call(x), lambda: call(g))
    if want is None:
        return
    check_running(got, want, x, kw.get("axis"), ufunc)


def check_running(got, want, x, axis, ufunc):
    """gpunp's running sums (`ufunc` "add") or products ("multiply") of `x`
    along `axis` (None: the flattened array) against exact ones, in the
    dtype of NumPy's result `want`."""
    flat = x.reshape(-1) if axis is None or x.ndim == 0 else x
    fold = accumulate_fold(0 if axis is None or x.ndim == 0 else axis)
    loop = np.asarray(want).dtype
    skip = undefined_casts(flat, loop, fold)
    check = check_sum if ufunc == "add" else check_prod
    check(got, want, _loop_values(flat, loop), fold, loop, skip=skip, stepwise=True)

# ---- out= ------------------------------------------------------------------------------------

OUT_CALLS = ["sum", "prod", "max", "min", "mean", "any", "all", "argmax", "argmin",
             "add.reduce", "maximum.reduce", "add.accumulate", "subtract.accumulate"]


def _call(lib, name, a, **kw):
    if "." in name:
        uf, method = name.split(".")
        ufunc = getattr(np, uf) if lib is np else UFUNCS[uf]
        return getattr(ufunc, method)(a, **kw)
    return getattr(lib, name)(a, **kw)


@st.composite
def out_specs(draw, shape, dt):
    """An output array for a result of `shape` and `dt`: the same, a dtype
    the result casts to safely, any dtype (NumPy casts reduction outputs
    unsafely), a wrong shape, or a non-contiguous view."""
    kind = draw(st.sampled_from(["same", "safe", "any", "shape", "view"]))
    if kind == "safe":
        dt = draw(st.sampled_from([d for d in ALL_DTYPES if np.can_cast(dt, d)]))
    elif kind == "any":
        dt = draw(dtypes())
    if kind == "shape":
        # one more leading axis, or one axis longer (NumPy's accumulate takes
        # other wrong shapes, even crashes on a 0-d out)
        if shape and draw(st.booleans()):
            k = draw(st.integers(0, len(shape) - 1))
            shape = shape[:k] + (shape[k] + 1,) + shape[k + 1:]
        else:
            shape = (1,) + shape
    return kind, shape, dt


@pytest.mark.parametrize("name", OUT_CALLS)
@given(data=st.data())
def test_out(name, data):
    """out=: results land in the given array (which is returned), cast to its
    dtype; a wrong shape or an impossible cast raise NumPy's error types."""
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(min_dims=1), label="shape")),
                     label="arrays")
    single = name in ("argmax", "argmin") or name.endswith("accumulate")
    kw = {"axis": data.draw(axis_args(x.ndim, allow_tuple=not single), label="axis")}
    if name.endswith("accumulate") and kw["axis"] is None:
        kw["axis"] = 0
    if not name.endswith("accumulate"):
        kw["keepdims"] = data.draw(st.booleans(), label="keepdims")
    with quiet():
        try:
            plain = _call(np, name, x, **kw)
        except Exception:  # noqa: BLE001 - the error itself is checked below
            plain = None
    if plain is None:
        # the call fails with an output too (NumPy's accumulate does not check
        # an out larger than its input: give it the input's shape)
        shape = x.shape if name.endswith("accumulate") else (3,)
        got, want = same_outcome(lambda: _call(np, name, x, out=np.empty(shape), **kw),
                                 lambda: _call(gp, name, g, out=gp.empty(shape), **kw))
        return
    plain = np.asarray(plain)
    kind, oshape, odt = data.draw(out_specs(plain.shape, plain.dtype), label="out")
    hout = np.zeros(oshape, odt)
    gout = gp.zeros(oshape, odt)
    if kind == "view":
        # the same values through a reversed, padded view of a bigger array
        hbig = np.zeros(tuple(2 * s + 1 for s in oshape), odt)
        gbig = gp.zeros(hbig.shape, odt)
        sl = tuple(slice(2 * s - 1 if s else None, None, -2) if s else slice(0, 0)
                   for s in oshape) + (Ellipsis,)
        hout, gout = hbig[sl], gbig[sl]
    if kind == "shape":
        # a ValueError, as NumPy's reductions raise (its accumulate does not
        # check the shape of an empty out, nor of one larger than the input)
        with pytest.raises(ValueError):
            _call(gp, name, g, out=gout, **kw)
        return
    got, want = same_outcome(lambda: _call(np, name, x, out=hout, **kw),
                             lambda: _call(gp, name, g, out=gout, **kw))
    if want is None:
        return
    assert got is gout, "the result is not the given out array"
    assert got.dtype == odt and got.shape == tuple(oshape)
    if kind in ("same", "view"):
        # the same dtype as the plain call: the same values
        plain_got = _call(gp, name, g, **kw)
        np.testing.assert_array_equal(host(got), host(plain_got))
    if kind == "view":
        # only the viewed elements were written
        np.testing.assert_array_equal(host(gbig)[sl], host(got))
        mask = np.ones(hbig.shape, bool)
        mask[sl] = False
        assert not host(gbig)[mask].any(), "elements outside the out view were written"


# ---- tables: dtypes and identities -------------------------------------------------------------

@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("name", list(REDUCTIONS) + ["argmax", "argmin"])
def test_result_dtype(name, dt):
    """The result dtype of every reduction for every input dtype: NumPy raises
    small integers to int64/uint64 in sum/prod, means integers in float64 and
    float16 in float16."""
    x = np.arange(6).reshape(2, 3).astype(dt)
    g = gp.asarray(x)
    for kw in ({}, {"axis": 0}, {"axis": 1, "keepdims": True}):
        got, want = same_outcome(lambda: getattr(np, name)(x, **kw),
                                 lambda: getattr(gp, name)(g, **kw))
        assert host(got).dtype == np.asarray(want).dtype
        assert host(got).shape == np.asarray(want).shape


@pytest.mark.parametrize("name", BINARY_UFUNCS)
@pytest.mark.parametrize("shape, axis", [((0,), 0), ((0, 3), 0), ((3, 0), 1), ((0, 3), None),
                                         ((2, 0), 0), ((0, 0), (0, 1))])
def test_empty_reduce(name, shape, axis):
    """Reducing zero elements gives the identity, or the initial value, or
    NumPy's ValueError for a ufunc without identity (not when the result is
    empty too)."""
    for dt in ("int32", "float64", "bool"):
        x = np.zeros(shape, dt)
        g = gp.asarray(x)
        for kw in ({}, {"initial": 1}):
            got, want = same_outcome(lambda: getattr(np, name).reduce(x, axis=axis, **kw),
                                     lambda: UFUNCS[name].reduce(g, axis=axis, **kw))
            if want is not None:
                check_exact(got, want)


# ---- examples that pin the documented edge cases ------------------------------------------------

NAN, INF = float("nan"), float("inf")
ARG_EXAMPLES = [
    ([1.0, 3.0, 3.0, 2.0], "float64"),               # ties: the first wins
    ([1.0, NAN, 3.0, NAN], "float64"),               # the first NaN wins
    ([NAN, NAN], "float32"),
    ([-INF, 1.0, INF, INF, -INF], "float64"),        # infinities are values
    ([1 + 1j, 1 + 2j, 2 - 5j, 2 - 5j], "complex128"),  # lexicographic
    ([1 + 1j, complex(1, NAN), complex(NAN, 0)], "complex64"),
    ([0.0, -0.0, 0.0], "float16"),
    ([3, -1, 3, -1], "int8"),
    ([0, 18446744073709551615, 5], "uint64"),
    ([False, True, True], "bool"),
]


@pytest.mark.parametrize("values, dt", ARG_EXAMPLES)
@pytest.mark.parametrize("name", ["argmax", "argmin", "max", "min"])
def test_extreme_examples(name, values, dt):
    x = np.array(values, dtype=dt)
    got, want = same_outcome(lambda: getattr(np, name)(x), lambda: getattr(gp, name)(gp.asarray(x)))
    check_exact(got, want)


def test_float16_mean_of_subnormals_rounds_like_numpy():
    """The exact mean of 0 and the smallest float16 subnormal lies halfway to
    zero: NumPy's (and gpunp's) float16 result is 0 (a case the random
    search found once)."""
    x = np.array([0, 6e-08], np.float16)
    for got, want in ((gp.asarray(x).mean(), x.mean()), (gp.mean(gp.asarray(x)), np.mean(x))):
        check_exact(got, want)


@pytest.mark.parametrize("dt", [np.uint16, np.int32, np.float32, np.float64])
def test_float16_mean_casts_each_element_first(dt):
    """mean(dtype=float16) casts every element to float16 before it sums, so
    65535 (and 1e5) become inf, as in NumPy (the H200 run found it)."""
    x = np.array([[0, 65535, 3], [1e5 if dt != np.uint16 else 7, 2, 1]], dt)
    for axis in (None, 0, 1):
        with quiet():
            want = np.mean(x, axis=axis, dtype=np.float16)
        check_exact(gp.mean(gp.asarray(x), axis=axis, dtype=np.float16), want)


@pytest.mark.parametrize("name, values, want", [
    # NumPy's float16 arithmetic loops reduce in float32 ...
    ("subtract", [1, 2**-12, 2**-12], 1 - 2**-11),
    ("true_divide", [3, 7, 11], 3 / 77),
    # ... its others store, and so round, every step: hypot(inf, nan) is
    # inf, where hypot(92637, nan) would be nan
    ("hypot", [65504, 65504, np.nan], np.inf),
])
def test_float16_reductions_round_where_numpy_rounds(name, values, want):
    h = np.array(values, np.float16)
    with np.errstate(all="ignore"):
        assert getattr(np, name).reduce(h) == np.float16(want)
    got = getattr(gp, name).reduce(gp.asarray(h)).get()
    if name == "hypot" and gp.backend() != "host":
        # a GPU's tree may meet the NaN before the overflow (docs/differences.md)
        assert np.isinf(got) or np.isnan(got)
    else:
        assert got == np.float16(want)


def test_float16_sum_keeps_float32_along_any_axis():
    """gpunp adds float16 in float32 along any axis (docs/differences.md):
    [60000, 60000, -60000] down a column is 60000, as along a row. NumPy
    rounds every step along an outer axis and gives inf there."""
    col = np.array([60000, 60000, -60000], np.float16)
    x = np.stack([col, col], axis=1)
    check_exact(gp.sum(gp.asarray(x), axis=0), np.full(2, 60000, np.float16))
    check_exact(gp.sum(gp.asarray(x.T.copy()), axis=1), np.full(2, 60000, np.float16))
    check_exact(gp.prod(gp.asarray(np.stack([np.array([300, 300, 0], np.float16)] * 2, axis=1)),
                        axis=0), np.zeros(2, np.float16))


@pytest.mark.parametrize("values, dt", [
    ([complex(0, -2.99376046e292), complex(0, -np.finfo(np.float64).max)], "complex128"),
    ([1 + 1j, 2 + 2j, 4 + 4j], "complex128"),   # 7 * (1/3) is not 7 / 3
    ([complex(np.nan, np.inf), 1], "complex64"),
    ([1 + 1j, 2 + 2j, 4 + 4j], "complex64"),
])
def test_complex_mean_divides_as_numpy(values, dt):
    """NumPy divides a complex sum by its intp count + 0j, by Smith's
    division in complex128: by the reciprocal of the count, and an infinite
    part, times 0, makes the other NaN (a failing example of
    test_pad_matches_numpy[mean])."""
    x = np.array(values, dt)
    with quiet():
        want = np.mean(x)
    check_exact(gp.mean(gp.asarray(x)), want)
    check_exact(gp.mean(gp.asarray(np.stack([x, x], axis=1)), axis=0), np.full(2, want))
