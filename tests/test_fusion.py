"""gpunp.fuse: a fused function gives what the same function gives unfused,
bit for bit, or raises what it raises; and it is one kernel where it can be."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gpunp as gp
import gpunp.scipy.special as gsp


def same(got, want):
    """Equal dtype, shape and bytes (so NaN payloads and signed zeros too)."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
        return
    if not isinstance(want, gp.ndarray):
        assert type(got) is type(want) and got == want
        return
    assert isinstance(got, gp.ndarray)
    g, w = got.get(), want.get()
    assert (g.dtype, g.shape) == (w.dtype, w.shape)
    assert g.tobytes() == w.tobytes(), (g, w)


def fused_is_unfused(f, *args):
    """f fused against f as written; returns the fused object."""
    ff = gp.fuse(f)
    same(ff(*args), f(*args))
    return ff


def kernels(ff):
    """How many of a fused function's signatures became a kernel."""
    return sum(p.kernel is not None for p in ff._plans.values())


rng = np.random.default_rng(7)
A32 = gp.asarray(rng.standard_normal((4, 5)).astype(np.float32))
B64 = gp.asarray(rng.standard_normal((4, 5)))
C64 = gp.asarray(rng.standard_normal(5))


def test_operators_scalars_and_promotion():
    def f(x, y, s):
        return (x * y + 1) / (s - x) ** 2 - abs(-y) // 3 % 2
    ff = fused_is_unfused(f, A32, B64, 2.5)
    same(ff(A32, C64, 7), f(A32, C64, 7))       # broadcasting, an int scalar
    same(ff(A32, A32, np.float64(3)), f(A32, A32, np.float64(3)))  # a strong scalar
    same(ff(A32, A32, 1.5), f(A32, A32, 1.5))   # a weak float keeps float32
    assert kernels(ff) == 4


def test_repeated_constants_share_a_parameter():
    # twenty literals, eight distinct values: within a kernel's 16 operands
    # only when repeats share one (they each took one, and this ran unfused)
    def f(x):
        a = x * 1.5 + 2.0 - 3.0 * x + 4.0
        b = a * 1.5 - 2.0 + x * 3.0 + 4.0
        c = b * 1.5 + 2.0 - 3.0 * a + 4.0
        return c * 1.5 + 2.0 + 3.0 + 4.0 + 0.5 - 7.0 * c + (x > 1) + (x > True) * 1
    ff = fused_is_unfused(f, A32)
    same(ff(B64), f(B64))
    assert kernels(ff) == 2


def test_views_and_a_stencil_read_one_array():
    u = gp.asarray(rng.standard_normal((33, 40)))

    def heat(c, left, right, up, down):
        return c + 0.1 * (left + right + up + down - 4 * c)
    ff = fused_is_unfused(heat, u[1:-1, 1:-1], u[1:-1, :-2], u[1:-1, 2:], u[:-2, 1:-1],
                          u[2:, 1:-1])
    same(ff(u.T[1:-1, 1:-1], u.T[1:-1, :-2], u.T[1:-1, 2:], u.T[:-2, 1:-1], u.T[2:, 1:-1]),
         heat(u.T[1:-1, 1:-1], u.T[1:-1, :-2], u.T[1:-1, 2:], u.T[:-2, 1:-1], u.T[2:, 1:-1]))
    assert kernels(ff) == 1


def test_ufunc_names_where_astype_and_several_results():
    def f(x, y):
        q, r = gp.divmod(x, y)
        return gp.where(x > 0, gp.sin(x), y.astype(np.float32)), gp.hypot(q, r), q
    ff = fused_is_unfused(f, A32, B64)
    assert kernels(ff) == 1
    same(ff(A32, C64), f(A32, C64))


def test_special_functions_fuse():
    def f(x):
        return gsp.gamma(x) * gsp.erf(x) + gsp.expit(x)
    assert kernels(fused_is_unfused(f, A32)) == 1


@pytest.mark.parametrize("dtype", [np.float16, np.int8, np.uint16, np.bool_, np.complex64])
def test_each_step_rounds_as_its_array_would(dtype):
    x = gp.asarray((rng.standard_normal(9) * 40).astype(dtype))

    def f(x):
        return x * x + x - (x * 3)
    assert kernels(fused_is_unfused(f, x)) == 1


def test_reductions_of_the_result():
    def f(x, y):
        z = x * y + 1
        return z.sum(axis=0), gp.max(z, axis=1, keepdims=True), gp.mean(z), z
    ff = fused_is_unfused(f, A32, B64)
    assert kernels(ff) == 1


def test_in_place_writes_the_argument():
    def f(x, y):
        x += y
        x *= 2
        return x
    x = A32.copy()
    want = f(A32.copy(), C64.astype(np.float32))
    ff = gp.fuse(f)
    got = ff(x, C64.astype(np.float32))
    assert got is x
    same(x, want)
    assert kernels(ff) == 1
    # an overlapping argument runs unfused: the kernel would read its own writes
    u, w = gp.arange(10.0), gp.arange(10.0)
    got = ff(u[1:], u[:-1])
    f(w[1:], w[:-1])
    same(u, w)


def test_what_it_cannot_fuse_runs_as_written():
    def index(x):
        return x[0] * 2

    def power(x, y):
        return x ** y

    def reduce_then_use(x):
        return x.sum() * 2
    for f, args in ((index, (A32,)), (power, (gp.arange(5), gp.arange(5))),
                    (reduce_then_use, (A32,))):
        ff = fused_is_unfused(f, *args)
        assert kernels(ff) == 0
    same(gp.fuse(lambda x: x + 1)(2.0), 3.0)  # no array: the function as written


def test_errors_are_the_unfused_errors():
    ff = gp.fuse(lambda x, y: x + y)
    u8 = gp.arange(4, dtype=np.uint8)
    for args in ((u8, 300), (u8, -1)):
        with pytest.raises(OverflowError):
            ff(*args)
        with pytest.raises(OverflowError):
            args[0] + args[1]

    def iadd(x, y):
        x += y
        return x
    with pytest.raises(TypeError):  # same_kind: float64 into int64
        gp.fuse(iadd)(gp.arange(3), gp.ones(3))
    with pytest.raises(ValueError):  # the output does not broadcast
        gp.fuse(iadd)(gp.ones(3), gp.ones((2, 3)))
    with pytest.raises(TypeError):
        gp.fuse(1)


def test_decorator_forms_and_name():
    @gp.fuse(kernel_name="axpy")
    def axpy(a, x, y):
        return a * x + y

    @gp.fuse
    def plain(x):
        return x - 1
    same(axpy(2.0, A32, A32), 2.0 * A32 + A32)
    assert axpy._plans and next(iter(axpy._plans.values())).kernel.name == "axpy"
    same(plain(B64), B64 - 1)
    assert axpy.__name__ == "axpy"


# ---- random expressions: fused and unfused agree --------------------------------------

UNARY = ["negative", "absolute", "sqrt", "exp", "log1p", "sin", "tanh", "square", "floor",
         "sign", "logical_not", "isnan", "reciprocal", "invert", "cbrt", "rint"]
BINARY = ["add", "subtract", "multiply", "true_divide", "floor_divide", "remainder",
          "maximum", "fmin", "arctan2", "hypot", "less", "equal", "logical_and",
          "bitwise_xor", "copysign", "logaddexp", "left_shift", "heaviside", "nextafter"]
DTYPES = [np.bool_, np.int8, np.uint8, np.int32, np.int64, np.uint64, np.float16,
          np.float32, np.float64, np.complex64, np.complex128]
SHAPES = [(3, 4), (4,), (1, 4), (3, 1), ()]


@st.composite
def expressions(draw):
    """A random expression tree over three arguments, as a Python function."""
    def tree(depth):
        kind = draw(st.sampled_from(["unary", "binary"] if depth == 0 else
                                    ["arg", "const", "unary", "binary"] if depth < 3 else
                                    ["arg", "const"]))
        if kind == "arg":
            return f"a{draw(st.integers(0, 2))}"
        if kind == "const":
            return repr(draw(st.sampled_from([2, -3, 0.5, 1e300, True, 2j])))
        if kind == "unary":
            return f"gp.{draw(st.sampled_from(UNARY))}({tree(depth + 1)})"
        return f"gp.{draw(st.sampled_from(BINARY))}({tree(depth + 1)}, {tree(depth + 1)})"
    src = tree(0)
    return src, eval(f"lambda a0, a1, a2: {src}", {"gp": gp})  # noqa: S307


@st.composite
def arguments(draw):
    out = []
    for _ in range(3):
        dt = np.dtype(draw(st.sampled_from(DTYPES)))
        shape = draw(st.sampled_from(SHAPES))
        if draw(st.integers(0, 4)) == 0:
            out.append(draw(st.sampled_from([3, -1.5, np.float32(0.25), np.int16(7)])))
            continue
        h = rng.standard_normal((6, 8) if shape else ()) * 5
        h = h.astype(dt) if dt.kind != "c" else (h + 1j * h.T.sum()).astype(dt)
        a = gp.asarray(h)
        if shape:
            # a strided view of the wanted shape
            a = a[::2, ::2][:shape[0], :shape[-1]] if len(shape) == 2 else a[1, ::2]
        out.append(a)
    return out


@settings(max_examples=20)
@given(expressions(), arguments())
def test_random_expressions_fused_equal_unfused(expr, args):
    src, f = expr
    with np.errstate(all="ignore"):
        try:
            want = f(*args)
        except Exception as e:  # noqa: BLE001
            with pytest.raises(type(e)):
                gp.fuse(f)(*args)
            return
        same(gp.fuse(f)(*args), want)
