"""Automatic fusion (gpunp.fusion, GPUNP_FUSION=1): recorded elementwise
chains give the eager results bit for bit, every flush trigger computes the
pending arrays before anything reads or writes their operands, errors come
at the call, and off is the untouched eager path."""

import os
import subprocess
import sys
import threading

import numpy
import pytest
from hypothesis import given, settings, strategies as st

import gpunp
from gpunp import _lazy
from gpunp._ndarray import ndarray


def pending(x) -> bool:
    """Whether `x` is a recorded array not computed yet (read past the
    flushing handle)."""
    try:
        _lazy._get(x)
    except AttributeError:
        return True
    return False


def same(got, want):
    """`got` (gpunp) against NumPy's `want`: dtype and shape exactly, the
    values to a few ulps (gpunp's transcendental functions are not NumPy's
    SIMD ones; fused and eager gpunp are compared bit for bit elsewhere)."""
    g = got.get()
    assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, want.dtype, g.shape)
    if g.dtype.kind in "fc":
        numpy.testing.assert_allclose(g, want, rtol=4 * numpy.finfo(g.dtype).eps, atol=0)
    else:
        numpy.testing.assert_array_equal(g, want)


# ---- random expression trees ---------------------------------------------------------

BINARY = ["add", "subtract", "multiply", "true_divide", "maximum", "minimum", "fmax",
          "hypot", "arctan2", "copysign", "less", "greater_equal", "equal", "logaddexp",
          "floor_divide", "remainder", "power", "bitwise_and", "left_shift", "logical_xor"]
UNARY = ["negative", "absolute", "exp", "log1p", "sqrt", "sin", "tanh", "square", "floor",
         "sign", "reciprocal", "isnan", "logical_not", "invert", "cbrt", "rint"]
DTYPES = ["float16", "float32", "float64", "complex64", "int32", "uint8", "bool"]


@st.composite
def trees(draw, depth):
    """(expression over leaf names, list of leaf names) as nested tuples."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return ("leaf", draw(st.integers(0, 4)))
    if draw(st.booleans()):
        return ("u", draw(st.sampled_from(UNARY)), draw(trees(depth - 1)))
    return ("b", draw(st.sampled_from(BINARY)), draw(trees(depth - 1)), draw(trees(depth - 1)))


def leaves(dts, seed, mod):
    """Six leaves of `mod` (numpy or gpunp), the same values: a (3, 3) view
    with an offset, a (3, 3) strided view, a (3, 1) and a (3,) array that
    broadcast, a Python int and a NumPy float32 scalar."""
    rng = numpy.random.default_rng(seed)
    full = [(rng.standard_normal((6, 9)) * 3).astype(d) for d in dts[:2]]
    c = rng.integers(-3, 4, size=(3, 1)).astype(dts[2])
    d = rng.standard_normal(3).astype(dts[0])
    arrays = [mod.asarray(x) for x in (*full, c, d)]
    return [arrays[0][1:4, 2:5], arrays[1][::2, 1::3], arrays[2], arrays[3], 2,
            numpy.float32(0.5)]


def evaluate(tree, leaves, mod):
    kind = tree[0]
    if kind == "leaf":
        return leaves[tree[1]]
    if kind == "u":
        return getattr(mod, tree[1])(evaluate(tree[2], leaves, mod))
    return getattr(mod, tree[1])(evaluate(tree[2], leaves, mod), evaluate(tree[3], leaves, mod))


def outcome(tree, leaves, mod):
    try:
        with numpy.errstate(all="ignore"):
            return evaluate(tree, leaves, mod), None
    except Exception as e:  # noqa: BLE001 - compared below
        return None, type(e)


@settings(max_examples=15, deadline=None)
@given(tree=trees(4), dts=st.tuples(*[st.sampled_from(DTYPES)] * 3), seed=st.integers(0, 99))
def test_random_trees_bitwise(tree, dts, seed):
    dev = leaves(dts, seed, gpunp)
    eager, error = outcome(tree, dev, gpunp)
    with gpunp.fusion():
        # a call that raises eagerly raises the same at that call
        got, fused_error = outcome(tree, dev, gpunp)
    assert fused_error == error
    if error is not None or not isinstance(eager, ndarray):
        return  # an error, or a tree of scalars alone (no gpunp array in it)
    assert not pending(got)
    assert got.dtype == eager.dtype and got.shape == eager.shape
    assert got.strides == eager.strides
    assert got.get().tobytes() == eager.get().tobytes()
    want, _ = outcome(tree, leaves(dts, seed, numpy), numpy)
    same(got, numpy.asarray(want))


def test_operators_and_scalars():
    """Operators, reflected operators, ** (square, sqrt, reciprocal fast
    paths), NumPy and Python scalars, weak promotion."""
    x = numpy.linspace(-3, 3, 37, dtype=numpy.float32)
    i = numpy.arange(-18, 19, dtype=numpy.int16)
    gx, gi = gpunp.asarray(x), gpunp.asarray(i)
    with gpunp.fusion():
        r1 = (2.5 - gx) * gx ** 2 / (1 + abs(gx)) + gx ** 0.5 - gx ** -1
        r2 = (gi * 3 + 7) // 4 % 5 - (gi << 2) ^ ~gi
        r3 = (gx > 0) & (gi < 3) | (gx == numpy.float32(1.5))
        r4 = numpy.float64(2) * gx + numpy.int8(3)
        r5 = -gx + (+gi)
        assert all(pending(r) for r in (r1, r2, r3, r4, r5))
    with numpy.errstate(all="ignore"):
        same(r1, (2.5 - x) * x ** 2 / (1 + abs(x)) + x ** 0.5 - x ** -1)
    same(r2, (i * 3 + 7) // 4 % 5 - (i << 2) ^ ~i)
    same(r3, (x > 0) & (i < 3) | (x == numpy.float32(1.5)))
    same(r4, numpy.float64(2) * x + numpy.int8(3))
    same(r5, -x + (+i))


def test_numpy_ufuncs_on_gpunp_arrays_record():
    x = numpy.linspace(0.1, 2, 11)
    g = gpunp.asarray(x)
    with gpunp.fusion():
        r = numpy.log(numpy.add(g, 1.0)) * numpy.float64(3)
        assert pending(r)
    same(r, numpy.log(numpy.add(x, 1.0)) * 3)


# ---- what forces a flush -----------------------------------------------------------------

def chain():
    x = numpy.linspace(-2, 2, 12).reshape(3, 4)
    g = gpunp.asarray(x)
    return x, g, (g * 2 + 1), x * 2 + 1


@pytest.mark.parametrize("trigger", [
    "sum", "get", "asnumpy", "repr", "item", "bool", "index", "setitem", "library",
    "non_ufunc_method", "astype", "out", "where", "inplace_result", "flags", "metadata",
    "end_of_context", "dlpack", "fuse", "matmul"])
def test_flush_triggers(trigger):
    x, g, _, _ = chain()
    with gpunp.fusion():
        y = g * 2 + 1
        want = x * 2 + 1
        assert pending(y)
        if trigger == "sum":
            # the GPU's summation order is not NumPy's pairwise one
            assert numpy.isclose(y.sum().get(), want.sum(), rtol=1e-14)
        elif trigger == "get":
            assert numpy.array_equal(y.get(), want)
        elif trigger == "asnumpy":
            assert numpy.array_equal(gpunp.asnumpy(y), want)
        elif trigger == "repr":
            assert repr(y) == repr(want)
        elif trigger == "item":
            assert y[1:2, 2:3].item() == want[1, 2]
        elif trigger == "bool":
            assert bool(y[0, 0] > 0) == bool(want[0, 0] > 0)
        elif trigger == "index":
            assert numpy.array_equal(y[1].get(), want[1])
        elif trigger == "setitem":
            y[0, 0] = 7.0
            want[0, 0] = 7.0
        elif trigger == "library":
            both = gpunp.concatenate([y, y]).get()
            assert numpy.array_equal(both, numpy.concatenate([want, want]))
        elif trigger == "non_ufunc_method":
            assert numpy.array_equal(y.T.get(), want.T)
        elif trigger == "astype":
            assert numpy.array_equal(y.astype(numpy.float32).get(), want.astype(numpy.float32))
        elif trigger == "out":
            o = gpunp.empty_like(y)
            gpunp.add(y, 1, out=o)
            assert numpy.array_equal(o.get(), want + 1)
        elif trigger == "where":
            r = gpunp.add(y, 1, where=y > 0)  # not recorded: runs eagerly over y's value
            assert not pending(r)
        elif trigger == "inplace_result":
            y += 1
            want += 1
        elif trigger == "flags":
            # the flags are the computed array's (computed for them)
            assert y.flags.c_contiguous and y.flags.owndata and not pending(y)
        elif trigger == "metadata":
            # shape, dtype, size and strides are known without computing
            assert (y.shape, y.dtype, y.size, y.ndim) == (want.shape, want.dtype, want.size, 2)
            assert y.strides == want.strides and pending(y)
        elif trigger == "fuse":
            twice = gpunp.fuse(lambda u: u * 2 + 1)
            assert numpy.array_equal(twice(y).get(), want * 2 + 1)
        elif trigger == "matmul":
            assert numpy.allclose((y @ y.T).get(), want @ want.T)
        elif trigger == "dlpack":
            y.__dlpack__()  # a pointer handed out: computed first
        if trigger not in ("metadata", "where", "end_of_context"):
            assert not pending(y)
    assert not pending(y)
    assert numpy.array_equal(y.get(), want)


def test_inplace_on_an_input_computes_its_users_first():
    x, g, _, _ = chain()
    with gpunp.fusion():
        y = g * 3
        z = gpunp.sin(g)
        g += 100           # in place on the input both read
        g[0, 0] = -5.0     # and a write through indexing
        v = g[1:]          # a view written below
        w = g - 1
        v *= 0
    same(y, x * 3)
    same(z, numpy.sin(x))
    x2 = x + 100
    x2[0, 0] = -5.0
    same(w, x2 - 1)
    x2[1:] *= 0
    same(g, x2)


def test_dead_intermediates_and_shared_subtrees():
    x = numpy.linspace(-1, 1, 50)
    g = gpunp.asarray(x)
    with gpunp.fusion():
        u = g
        for k in range(10):
            u = u * 0.5 + gpunp.sin(u)
        s = u * u
        t = s + u  # u shared by s and t
    want = x
    for k in range(10):
        want = want * 0.5 + numpy.sin(want)
    same(u, want)
    same(t, want * want + want)


def test_operand_cap_splits_the_expression():
    """More operands than one kernel takes: computed in parts, same values."""
    xs = [numpy.full(7, k + 0.25) for k in range(40)]
    gs = [gpunp.asarray(v) for v in xs]
    with gpunp.fusion():
        acc = gs[0]
        for v in gs[1:]:
            acc = acc * 1.01 + v
    want = xs[0]
    for v in xs[1:]:
        want = want * 1.01 + v
    same(acc, want)


def test_layouts_that_are_not_recorded_run_eagerly():
    """An F-ordered or transposed operand makes the eager result F-ordered:
    that call runs eagerly (same strides as eager), its users still fuse."""
    x = numpy.arange(12.0).reshape(3, 4)
    g = gpunp.asarray(x)
    with gpunp.fusion():
        f = g.T * 2            # transposed input: eager, F-ordered result
        assert not pending(f)
        h = f + 1              # all-F inputs: eager again
        c = g * 2 + 1          # C: recorded
        assert pending(c)
    assert h.strides == (x.T * 2 + 1).strides
    same(h, x.T * 2 + 1)
    same(c, x * 2 + 1)


# ---- errors at the call ---------------------------------------------------------------------

def test_errors_raise_at_the_call():
    g = gpunp.asarray(numpy.arange(6, dtype=numpy.int8))
    gf = gpunp.asarray(numpy.ones(4))
    with gpunp.fusion():
        y = g + 1
        with pytest.raises(ValueError):
            y + gf  # shapes (6,) and (4,)
        with pytest.raises(OverflowError):
            y + 1000  # a Python int past int8
        with pytest.raises(TypeError):
            gpunp.bitwise_and(gf, 1.5)  # no loop
        with pytest.raises(ValueError):
            y ** -1  # integers to negative powers: a value check, eager
        with pytest.raises(TypeError):
            y + numpy.arange(6)  # a host array
        with pytest.raises(TypeError):
            y + "a"
        assert not pending(y)  # the eager calls above read its handle
    same(y, numpy.arange(6, dtype=numpy.int8) + 1)


# ---- the switch -------------------------------------------------------------------------------

def test_off_by_default_and_nothing_installed():
    assert not gpunp.fusion_enabled()
    assert not _lazy._installed
    # the handle is the plain slot, not the flushing property
    assert type(ndarray.__dict__["_h"]).__name__ == "member_descriptor"
    r = gpunp.asarray(numpy.ones(3)) + 1
    assert not pending(r)


def test_set_fusion_and_nested_contexts():
    g = gpunp.asarray(numpy.arange(5.0))
    prev = gpunp.set_fusion(True)
    try:
        assert prev is False and gpunp.fusion_enabled()
        y = g + 1
        assert pending(y)
        with gpunp.fusion(False):
            assert not gpunp.fusion_enabled()
            z = g * 2
            assert not pending(z) and not pending(y)  # z's handle read computed y
    finally:
        gpunp.set_fusion(False)
    assert not _lazy._installed and not pending(y)
    same(y, numpy.arange(5.0) + 1)


def test_recording_is_per_thread():
    g = gpunp.asarray(numpy.arange(5.0))
    seen = {}

    def other():
        r = g * 3  # not recording in this thread
        seen["pending"] = pending(r)
        seen["value"] = r.get()

    with gpunp.fusion():
        y = g + 1
        t = threading.Thread(target=other)
        t.start()
        t.join()
        assert not pending(y)  # the other thread's read of g computed it first
    assert seen["pending"] is False
    assert numpy.array_equal(seen["value"], numpy.arange(5.0) * 3)
    same(y, numpy.arange(5.0) + 1)


def test_env_switch():
    code = ("import gpunp, numpy; g = gpunp.asarray(numpy.ones(3)); y = g + 1; "
            "from gpunp import _lazy; print(gpunp.fusion_enabled(), _lazy._installed, "
            "_lazy._pending != [], y.get().tolist())")
    env = dict(os.environ, GPUNP_FUSION="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["True", "True", "True", "[2.0,", "2.0,", "2.0]"]


def test_threads_record_at_once():
    """Several threads record and flush together; each gets the eager bytes."""
    xs = [numpy.linspace(k, k + 1, 100) for k in range(4)]
    got = [None] * len(xs)

    def steps(y):
        for _ in range(20):
            y = y * 0.9 + 1.0
        return y

    def work(k):
        g = gpunp.asarray(xs[k])
        with gpunp.fusion():
            got[k] = steps(g).get()

    threads = [threading.Thread(target=work, args=(k,)) for k in range(len(xs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not _lazy._installed
    for k, x in enumerate(xs):
        assert got[k].tobytes() == steps(gpunp.asarray(x)).get().tobytes()
