"""bfloat16 (ml_dtypes' dtype, JAX's and CuPy's) against NumPy with ml_dtypes:
promotion over every dtype, casts, round trips, the float ufuncs, reductions
and matmul. Values come in few large arrays (every bfloat16 bit pattern, or
random pairs of them) so that each operation costs one kernel."""

import subprocess
import sys

import ml_dtypes
import numpy as np
import pytest

import gpunp as gp

BF = np.dtype(ml_dtypes.bfloat16)
DTYPES = [np.dtype(c) for c in "?bBhHiIlLefdFD"] + [BF]
F32 = np.float32

# every bfloat16 bit pattern, and random pairs of them
ALL = np.arange(1 << 16, dtype=np.uint16).view(BF)
_rng = np.random.default_rng(7)
X = _rng.permutation(ALL)
Y = _rng.permutation(ALL)


def assert_bits(got, want):
    """Bit-exact (of 16-bit floats) where the reference is not NaN; NaN where it is (a NaN's
    sign comes from the hardware that made it: x86 and GPUs differ)."""
    got = got.get() if isinstance(got, gp.ndarray) else got
    assert got.dtype == want.dtype
    assert got.shape == want.shape
    nan = np.isnan(want.astype(F32))
    np.testing.assert_array_equal(np.isnan(got.astype(F32)), nan)
    bad = (got.view(np.uint16) != want.view(np.uint16)) & ~nan
    assert not bad.any(), (got[bad][:8], want[bad][:8], np.nonzero(bad)[0][:8])


def ordered(a):
    """bfloat16 bits as integers in the order of the values (-0 = +0)."""
    b = a.view(np.uint16).astype(np.int32)
    return np.where(b & 0x8000, -(b & 0x7FFF), b)


def assert_ulps(got, want, n=1):
    """Within n bfloat16 units in the last place (NaN and infinities exact)."""
    got = got.get() if isinstance(got, gp.ndarray) else got
    assert got.dtype == want.dtype
    w, g = want.astype(F32), got.astype(F32)
    np.testing.assert_array_equal(np.isnan(g), np.isnan(w))
    fin = np.isfinite(w)
    np.testing.assert_array_equal(g[~fin & ~np.isnan(w)], w[~fin & ~np.isnan(w)])
    d = np.abs(ordered(got)[fin] - ordered(want)[fin])
    assert d.max(initial=0) <= n, (got[fin][d > n][:8], want[fin][d > n][:8])


def test_bfloat16_is_ml_dtypes():
    assert gp.bfloat16 is ml_dtypes.bfloat16
    assert gp.dtype(gp.bfloat16) == BF
    assert gp.zeros(3, dtype=gp.bfloat16).dtype == BF
    assert gp.zeros(3, dtype="bfloat16").dtype == BF
    # NumPy lists no user dtype's loops in ufunc.types, and gpunp follows
    assert gp.add.types == [t for t in np.add.types if set(t) - set("->") <= set("?bBhHiIlLefdFD")]


def test_promotion_over_every_dtype():
    for dt in DTYPES:
        for a, b in ((BF, dt), (dt, BF)):
            assert gp.result_type(a, b) == np.result_type(a, b), (a, b)
            assert gp.promote_types(a, b) == np.promote_types(a, b), (a, b)
            for rule in ("no", "equiv", "safe", "same_kind", "unsafe"):
                assert gp.can_cast(a, b, rule) == np.can_cast(a, b, rule), (a, b, rule)
        for third in DTYPES:
            assert gp.result_type(BF, dt, third) == np.result_type(BF, dt, third), (dt, third)
    for scalar in (True, 1, 1.5, 1j):
        assert gp.result_type(BF, scalar) == np.result_type(BF, scalar)


def test_round_trips_and_scalars():
    a = gp.asarray(ALL)
    assert a.dtype == BF
    got = a.get()
    np.testing.assert_array_equal(got.view(np.uint16), ALL.view(np.uint16))  # NaNs too
    assert gp.asnumpy(a[5:9]).dtype == BF
    # a Python float rounds to bfloat16 once, as numpy.array([v], bfloat16)
    # does (numpy.full and NumPy's ufuncs round it through float32 first:
    # docs/differences.md)
    v = 1 + 2.0**-8 + 2.0**-30
    assert_bits(gp.full(4, v, dtype=BF), np.array([v] * 4, BF))
    g = gp.zeros(2, dtype=BF)
    g[1] = v
    assert_bits(g, np.array([0, v], BF))
    # a bfloat16 operand with a NumPy scalar of its dtype
    assert_bits(gp.asarray(ALL[:4096]) * BF.type(3), ALL[:4096] * BF.type(3))
    assert float(gp.asarray(ALL)[0x3F80]) == 1.0
    assert_bits(gp.arange(-3, 300, dtype=BF), np.arange(-3, 300, dtype=BF))


@np.errstate(invalid="ignore", over="ignore")  # NumPy's warnings of NaN and overflow casts
def test_casts():
    a = gp.asarray(ALL)
    # to float32 and float64 every value is exact; to float16 it rounds
    nan = np.isnan(ALL.astype(F32))
    for dt in (np.float32, np.complex128):
        got, want = a.astype(dt).get(), ALL.astype(dt)
        # exact, -0.0 included; a NaN keeps its sign (a signaling NaN is
        # made quiet, as float16's are)
        np.testing.assert_array_equal(got[~nan].view(np.uint8), want[~nan].view(np.uint8))
        assert np.isnan(got[nan]).all()
        np.testing.assert_array_equal(np.signbit(got[nan].real), np.signbit(want[nan].real))
    assert_bits(a.astype(np.float16), ALL.astype(np.float16))
    np.testing.assert_array_equal(a.astype(bool).get(), ALL.astype(bool))
    # integers: the values in range (NumPy leaves the others to the platform)
    small = ALL[np.abs(ALL.astype(F32)) < 127]
    np.testing.assert_array_equal(gp.asarray(small).astype(np.int8).get(), small.astype(np.int8))
    # float32 and float64 round to nearest even (float64 directly, no double
    # rounding), NaN keeps its sign
    f32 = _rng.integers(0, 1 << 32, 1 << 16, dtype=np.uint32).view(F32)
    assert_bits(gp.asarray(f32).astype(BF), f32.astype(BF))
    ties = (1 + 2.0 ** -8) * 2.0 ** np.arange(-130, 128)
    f64 = np.concatenate([ties, -ties, ties * (1 + 2.0**-40), ties * (1 - 2.0**-40),
                          [np.inf, -np.inf, np.nan, -np.nan, 0.0, -0.0, 1e300, 1e-300]])
    assert_bits(gp.asarray(f64).astype(BF), f64.astype(BF))
    ints = np.arange(-70000, 70000, 7, dtype=np.int32)
    assert_bits(gp.asarray(ints).astype(BF), ints.astype(BF))


class Wrapped:
    """A DLPack producer that is not a gpunp array (from_dlpack reads it)."""

    def __init__(self, a):
        self.a = a

    def __dlpack__(self, **kw):
        return self.a.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


def test_dlpack_and_cuda_array_interface():
    a = gp.asarray(ALL[:1000])
    b = gp.from_dlpack(Wrapped(a))
    assert b.dtype == BF and b.data_ptr == a.data_ptr
    assert_bits(b, ALL[:1000])
    if gp.backend() == "cuda":
        cai = a.__cuda_array_interface__
        assert cai["typestr"] == "<V2"  # ml_dtypes' dtype.str, as CuPy and PyTorch give it

        class Producer:
            __cuda_array_interface__ = cai

        c = gp.asarray(Producer())
        assert c.dtype == BF and c.data_ptr == a.data_ptr


def test_without_ml_dtypes():
    """gpunp works without ml_dtypes; bfloat16 is then absent, and a bfloat16
    tensor from DLPack is refused with TypeError."""
    code = (
        "import sys; sys.modules['ml_dtypes'] = None\n"
        "import pytest, gpunp as gp\n"
        "from gpunp._lib import check, ffi, lib\n"
        "from gpunp._ndarray import _wrap\n"
        "assert not hasattr(gp, 'bfloat16')\n"
        "assert (gp.arange(3) + 1).get().tolist() == [1, 2, 3]\n"
        "out = ffi.new('gp_array_t **')\n"
        "check(lib.gp_array_empty(lib.GP_BFLOAT16, 1, [4], ord('C'), out))\n"
        "class Wrapped:\n"
        "    def __init__(self, a): self.a = a\n"
        "    def __dlpack__(self, **kw): return self.a.__dlpack__(**kw)\n"
        "    def __dlpack_device__(self): return self.a.__dlpack_device__()\n"
        "with pytest.raises(TypeError, match='ml_dtypes'):\n"
        "    gp.from_dlpack(Wrapped(_wrap(out[0])))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_an_older_ml_dtypes_is_refused_by_name():
    # 0.6's rules differ from the engine's tables (no bfloat16 + int16):
    # refused with its version, never computed by other rules than NumPy's
    code = (
        "import ml_dtypes, numpy as np, pytest\n"
        "ml_dtypes.__version__ = '0.6.0'\n"
        "import gpunp as gp\n"
        "with pytest.raises(AttributeError, match='0.6.0 is installed'):\n"
        "    gp.bfloat16\n"
        "with pytest.raises(TypeError, match='ml_dtypes 0.7 or later'):\n"
        "    gp.zeros(2, dtype=ml_dtypes.bfloat16)\n"
        "assert (gp.arange(3) + 1).get().tolist() == [1, 2, 3]\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


BINARY = ["add", "subtract", "multiply", "true_divide", "maximum", "fmin"]


@pytest.mark.parametrize("name", BINARY)
def test_binary_ufuncs_bit_exact(name):
    """NumPy's bfloat16 loops compute in float32 and round once, as gpunp's:
    the correctly rounded operations agree bit for bit on every input."""
    with np.errstate(all="ignore"):
        want = getattr(np, name)(X, Y)
    assert_bits(getattr(gp, name)(gp.asarray(X), gp.asarray(Y)), want)


def test_comparisons_and_where():
    x, y = gp.asarray(X), gp.asarray(Y)
    np.testing.assert_array_equal((x < y).get(), X < Y)
    np.testing.assert_array_equal((x == y).get(), X == Y)
    np.testing.assert_array_equal(gp.isnan(x).get(), np.isnan(X))
    w = gp.where(x > y, x, 0)
    assert_bits(w, np.where(X > Y, X, 0))


@pytest.mark.parametrize("name", ["sqrt", "absolute", "rint"])
def test_unary_ufuncs_bit_exact(name):
    with np.errstate(all="ignore"):
        want = getattr(np, name)(ALL)
    assert_bits(getattr(gp, name)(gp.asarray(ALL)), want)


@pytest.mark.parametrize("name", ["exp"])
def test_transcendental_ufuncs(name):
    """float32 functions differ in their last bit between libraries: the
    rounded bfloat16 results agree within one unit."""
    with np.errstate(all="ignore"):
        want = getattr(np, name)(ALL)
    assert_ulps(getattr(gp, name)(gp.asarray(ALL)), want)


def test_mixed_operands():
    x = gp.asarray(X[:1000])
    with np.errstate(all="ignore"):
        assert_bits(x + 1.5, X[:1000] + 1.5)               # weak float: bfloat16
        assert_bits(x * 3, X[:1000] * 3)                   # weak int: bfloat16
        i8 = np.arange(-100, 100, dtype=np.int8)
        assert_bits(gp.asarray(i8) + x[:200], i8 + X[:200])  # int8 promotes to bfloat16
        h = ALL[:1000].view(np.uint16).astype(np.float16)
        got = gp.asarray(h) + x                            # float16 and bfloat16: float32
        want = h + X[:1000]
        assert got.dtype == want.dtype == np.float32
        np.testing.assert_array_equal(got.get(), want)
        got = x + np.float32(0.1)
        assert got.dtype == np.float32
        np.testing.assert_array_equal(got.get(), X[:1000] + np.float32(0.1))


def test_reductions():
    """NumPy's bfloat16 sum rounds every step of a sequential loop (a sum of
    1000 ones is 256); gpunp's, as its float16 one, accumulates in float32
    and rounds once (docs/differences.md): the dtype is NumPy's and the value
    the float32 sum's, within one unit."""
    v = _rng.random((40, 50), dtype=F32).astype(BF)
    g = gp.asarray(v)
    ones = gp.ones(1000, dtype=BF)
    assert gp.sum(ones).dtype == np.sum(np.ones(1000, BF)).dtype == BF
    assert float(gp.sum(ones)) == 1000.0
    assert_ulps(g.sum(), np.asarray(v.astype(F32).sum()).astype(BF)[()])
    assert_ulps(g.sum(axis=1), v.astype(F32).sum(axis=1).astype(BF))
    assert_ulps(g.mean(), np.asarray(v.astype(F32).mean()).astype(BF)[()])
    keep = np.arange(50) % 3 != 0
    assert_ulps(g.mean(axis=1, where=gp.asarray(keep)),
                v.astype(F32).mean(axis=1, where=keep).astype(BF))
    near1 = (1 + (v[0] - 0.5) / 64).astype(BF)
    assert_ulps(gp.prod(gp.asarray(near1)), np.asarray(near1.astype(F32).prod()).astype(BF)[()])
    # the extrema and their indices are exact
    w = X[:5000]
    gw = gp.asarray(w)
    assert_bits(gw.max(), np.max(w))
    finite = w[np.isfinite(w.astype(F32))]
    assert int(gp.argmax(gp.asarray(finite))) == int(np.argmax(finite))
    assert_bits(gp.sort(gw), np.sort(w))


def test_matmul():
    """matmul computes in float32 from bfloat16 operands and rounds once (as
    float16's, cuBLAS's bfloat16 GEMM on CUDA), and keeps bfloat16 as
    numpy.dot, JAX and CuPy do (numpy.matmul, without a bfloat16 loop, gives
    float32)."""
    a = _rng.random((30, 40), dtype=F32).astype(BF)
    b = _rng.random((40, 20), dtype=F32).astype(BF)
    got = gp.asarray(a) @ gp.asarray(b)
    assert got.dtype == np.dot(a, b).dtype == BF
    assert_ulps(got, (a.astype(F32) @ b.astype(F32)).astype(BF))
