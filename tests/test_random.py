"""gpunp.random on the current backend (the host backend in CI).

What is checked:

- Philox4x32-10 against Random123's known-answer vectors (its kat_vectors
  file), through the engine's kernels, and against a reference written here
  in Python for many counters (carries from counter word 1 into word 2
  included);
- the stream layout: every distribution's element i rebuilt on the host
  from the raw words of its counter block (exactly for the uniforms and the
  integers, whose rejection retries are replayed; within stated ulps for
  the normals and exponentials, whose log, sin and cos are the prelude's own);
- reproducibility: the same seed gives the same stream, different seeds
  differ, and the counter advances by the blocks a call used, so that
  n then m numbers are the n + m of one call (n a whole number of blocks);
- the distributions, by Kolmogorov-Smirnov tests (continuous) and chi-square
  tests (integers) against scipy.stats at fixed seeds. Each test rejects at
  ALPHA = 1e-4: were the generator exact, a given seed would fail a given
  test with probability 1e-4. The seeds are fixed, so a run either passes or
  fails every time; a change of the stream gives a new draw of the seeds;
- NumPy's exceptions for bad arguments.
"""

import itertools
import math
import re

import numpy as np
import pytest
from scipy import stats

import gpunp as gp
from gpunp import random as gr

ALPHA = 1e-4
N_STAT = 200_000

M32 = 0xFFFFFFFF


# ---- a reference Philox4x32-10, from the published algorithm -------------------------

def philox_ref(ctr, key):
    c = list(ctr)
    k0, k1 = key
    for r in range(10):
        if r:
            k0, k1 = (k0 + 0x9E3779B9) & M32, (k1 + 0xBB67AE85) & M32
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k0, p1 & M32, (p0 >> 32) ^ c[3] ^ k1, p0 & M32]
    return c


def block_ref(counter, key, j, attempt=0):
    """Words of block j: counter words 0-2 + j (96 bits), word 3 + attempt."""
    lo = ((counter & ((1 << 96) - 1)) + j) % (1 << 96)
    w3 = ((counter >> 96) + attempt) & M32
    return philox_ref([lo & M32, lo >> 32 & M32, lo >> 64, w3], key)


KAT = [  # Random123 kat_vectors: philox4x32 10 ctr[4] key[2] -> out[4]
    ([0, 0, 0, 0], [0, 0], [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]),
    ([M32] * 4, [M32] * 2, [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]),
    ([0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0],
     [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]),
]


def _counter(words):
    return words[0] | words[1] << 32 | words[2] << 64 | words[3] << 96


def _philox(ctr_words, key_words):
    return gr.Philox(key=key_words[0] | key_words[1] << 32, counter=_counter(ctr_words))


@pytest.mark.parametrize("ctr,key,out", KAT)
def test_known_answers(ctr, key, out):
    assert philox_ref(ctr, key) == out
    # one word an element: integers over the whole uint32 range are the raw words
    g = gr.Generator(_philox(ctr, key))
    w = g.integers(0, 1 << 32, size=4, dtype=np.uint32).get()
    assert [int(v) for v in w] == out
    # two words an element, the first the low half
    raw = _philox(ctr, key).random_raw(2).get()
    assert [int(v) for v in raw] == [out[0] | out[1] << 32, out[2] | out[3] << 32]


def _engine_fill(out, which, ctr, key, **kw):
    from gpunp._lib import check, ffi, lib
    args = ffi.new("gp_random_args_t *")
    args.dist = getattr(lib, which)
    args.counter = ctr
    args.key = key
    for k, v in kw.items():
        setattr(args, k, v)
    blocks = ffi.new("uint64_t *")
    check(lib.gp_random_fill(out._h, args, blocks))
    return blocks[0]


@pytest.mark.parametrize("ctr,key,out", KAT)
def test_known_answers_of_the_engine_call(ctr, key, out):
    # GP_RANDOM_BITS into uint32: the words themselves, block after block
    a = gp.empty(11, dtype=np.uint32)
    assert _engine_fill(a, "GP_RANDOM_BITS", ctr, key) == 3
    words = [int(v) for v in a.get()]
    assert words[:4] == out
    c = _counter(ctr)
    assert words[4:8] == block_ref(c, key, 1) and words[8:] == block_ref(c, key, 2)[:3]


def test_engine_rejects_bad_fills():
    from gpunp._lib import lib
    with pytest.raises(TypeError):
        _engine_fill(gp.empty(4, dtype=np.int32), "GP_RANDOM_BITS", [0] * 4, [0] * 2)
    with pytest.raises(TypeError):
        _engine_fill(gp.empty(4, dtype=np.complex64), "GP_RANDOM_UNIFORM", [0] * 4, [0] * 2)
    with pytest.raises(ValueError):
        _engine_fill(gp.empty((4, 4))[:, 1], "GP_RANDOM_UNIFORM", [0] * 4, [0] * 2)
    with pytest.raises(ValueError):
        _engine_fill(gp.empty(4), "GP_RANDOM_UNIFORM", [0] * 4, [0] * 2,
                     dist=lib.GP_RANDOM_MVHYPERGEOMETRIC + 1)


@pytest.mark.parametrize("counter", [0, 12345, (1 << 64) - 3, (1 << 96) - 2,
                                     (7 << 96) | ((1 << 64) - 1)])
def test_blocks_match_the_reference(counter):
    key = (0x01234567, 0x89ABCDEF)
    n = 40
    raw = _philox([counter & M32, counter >> 32 & M32, counter >> 64 & M32, counter >> 96],
                  key).random_raw(2 * n).get()
    for j in range(n):
        w = block_ref(counter, key, j)
        assert (int(raw[2 * j]), int(raw[2 * j + 1])) == (w[0] | w[1] << 32, w[2] | w[3] << 32)


# ---- the stream layout, element by element -------------------------------------------------

SEED = 20240607


def _raw(seed, nwords64):
    return gr.Philox(seed).random_raw(nwords64).get()


def _words32(raw):
    w = np.empty(2 * raw.size, np.uint64)
    w[0::2], w[1::2] = raw & np.uint64(M32), raw >> np.uint64(32)
    return w


def test_uniform_float64_layout():
    n = 1001
    x = gr.default_rng(SEED).random(n).get()
    raw = _raw(SEED, n + 1)[:n]
    assert x.dtype == np.float64
    np.testing.assert_array_equal(x, (raw >> np.uint64(11)).astype(np.float64) * 2.0 ** -53)


def test_uniform_float32_layout():
    n = 1003
    x = gr.default_rng(SEED).random(n, dtype=np.float32).get()
    w = _words32(_raw(SEED, (n + 1) // 2 + 2))[:n]
    assert x.dtype == np.float32
    np.testing.assert_array_equal(x, ((w >> np.uint64(8)).astype(np.float64) * 2.0 ** -24)
                                  .astype(np.float32))


def test_uniform_low_high_is_the_affine_map():
    n = 500
    x = gr.default_rng(SEED).uniform(-3.0, 5.5, n).get()
    u = gr.default_rng(SEED).random(n).get()
    np.testing.assert_array_equal(x, -3.0 + (5.5 - -3.0) * u)


def _lemire32(seed_counter, key, j, e, w, range1):
    if range1 == M32:
        return w
    s = range1 + 1
    m = w * s
    if (m & M32) < s:
        t = (-s % (1 << 32)) % s
        r = 1
        while (m & M32) < t:
            m = block_ref(seed_counter, key, j, r)[e] * s
            r += 1
    return m >> 32


def _lemire64(seed_counter, key, j, e, x, range1):
    if range1 == (1 << 64) - 1:
        return x
    s = range1 + 1
    m = x * s
    if (m & ((1 << 64) - 1)) < s:
        t = (-s % (1 << 64)) % s
        r = 1
        while (m & ((1 << 64) - 1)) < t:
            b = block_ref(seed_counter, key, j, r)
            m = (b[2 * e] | b[2 * e + 1] << 32) * s
            r += 1
    return m >> 64


@pytest.mark.parametrize("low,high,dtype", [
    (0, 10, np.int64), (-7, 2 ** 31 + 1 - 7, np.int64),   # rejections about half the time
    (0, 2 ** 32, np.uint32), (-128, 128, np.int8), (0, 2, np.bool_),
    (5, 2 ** 63 + 6, np.uint64), (0, 2 ** 64, np.uint64), (-2 ** 63, 2 ** 63, np.int64),
    (3, 3 * 2 ** 40, np.uint64)])
def test_integers_layout_and_retries(low, high, dtype):
    key, n = (0xDEADBEEF, 0x12345678), 203
    bg = gr.Philox(key=key[0] | key[1] << 32, counter=99)
    x = gr.Generator(bg).integers(low, high, size=n, dtype=dtype).get()
    assert x.dtype == np.dtype(dtype)
    range1 = high - 1 - low
    wide = range1 > M32
    per = 2 if wide else 4
    want = []
    for i in range(n):
        j, e = divmod(i, per)
        b = block_ref(99, key, j)
        if wide:
            v = _lemire64(99, key, j, e, b[2 * e] | b[2 * e + 1] << 32, range1)
        else:
            v = _lemire32(99, key, j, e, b[e], range1)
        want.append(low + v)
    np.testing.assert_array_equal(x, np.array(want, dtype=object).astype(dtype))
    assert bg.state["state"]["counter"] == 99 + math.ceil(n / per)


def _ulps(x, ref):
    """|x - ref| in ulps of ref (long double reference)."""
    sp = np.spacing(np.abs(ref.astype(np.float64))).astype(np.longdouble)
    return (np.abs(x.astype(np.longdouble) - ref) / sp).astype(np.float64)


LD = np.longdouble
PI_LD = LD("3.14159265358979323846264338327950288")
needs_long_double = pytest.mark.skipif(
    np.finfo(np.longdouble).nmant < 63, reason="the references need an 80-bit or wider long double")


def _unit_ld(raw, open0):
    """The 53-bit uniform of each 64-bit word, in long double: in [0, 1), or
    with `open0` in (0, 1]."""
    return ((raw >> np.uint64(11)).astype(LD) + (1 if open0 else 0)) * LD(2) ** -53


@needs_long_double
def test_exponential_layout_and_accuracy():
    # the prelude's log: within 1 ulp of -log(u) on these arguments
    n = 1 << 16
    x = gr.default_rng(SEED).standard_exponential(n).get()
    ref = -np.log(_unit_ld(_raw(SEED, n), True))
    assert _ulps(x, ref).max() <= 1.0
    assert (x >= 0).all() and not np.signbit(x).any()


@needs_long_double
def test_normal_layout_and_accuracy():
    # Box-Muller of u1 (words 0-1, in (0, 1]) and u2 (words 2-3): r cos, r sin;
    # the prelude's log, sqrt, sin and cos: within 2.5 ulps of r
    n = 1 << 16
    z = gr.default_rng(SEED).standard_normal(n).get()
    raw = _raw(SEED, n)
    u1, u2 = _unit_ld(raw[0::2], True), _unit_ld(raw[1::2], False)
    r = np.sqrt(-2 * np.log(u1))
    sp = np.spacing(r.astype(np.float64)).astype(LD)
    for got, ref in ((z[0::2], r * np.cos(2 * PI_LD * u2)), (z[1::2], r * np.sin(2 * PI_LD * u2))):
        err = (np.abs(got.astype(LD) - ref) / sp).astype(np.float64)
        assert err.max() <= 2.5


def _unit32_open0(words):
    """The prelude's float32 uniform in (0, 1] of each 32-bit word, in
    NumPy's float32 arithmetic (the same IEEE operations)."""
    return words.astype(np.uint32).astype(np.float32) * np.float32(2.0 ** -32) + \
        np.float32(2.0 ** -33)


def _ulps32(x, ref):
    """|x - ref| in float32 ulps of ref (long double reference)."""
    sp = np.spacing(np.abs(ref.astype(np.float32))).astype(LD)
    return (np.abs(x.astype(LD) - ref) / sp).astype(np.float64)


@needs_long_double
def test_float32_exponential_layout_and_accuracy():
    # one word an element (four a block): -log of its float32 uniform,
    # by the prelude's float32 log, within 1 ulp
    n = 1 << 16
    x = gr.default_rng(SEED).standard_exponential(n, dtype=np.float32).get()
    u = _unit32_open0(_words32(_raw(SEED, n // 2)))
    assert x.dtype == np.float32
    assert _ulps32(x, -np.log(u.astype(LD))).max() <= 1.0
    assert (x >= 0).all() and not np.signbit(x).any()


@needs_long_double
def test_float32_normal_layout_and_accuracy():
    # Box-Muller in float32 of u1 (word 2m, in (0, 1]) and u2 (word 2m + 1, its
    # top 24 bits): elements 2m and 2m + 1 are r cos and r sin, within 3
    # float32 ulps of r (2.61 at most in 6.3 million draws of three seeds);
    # they cannot pass 6.8 (u1 is at least 2^-33)
    n = 1 << 16
    z = gr.default_rng(SEED).standard_normal(n, dtype=np.float32).get()
    w = _words32(_raw(SEED, n // 2))
    u1 = _unit32_open0(w[0::2]).astype(LD)
    u2 = (w[1::2] >> np.uint64(8)).astype(LD) * LD(2) ** -24
    r = np.sqrt(-2 * np.log(u1))
    sp = np.spacing(r.astype(np.float32)).astype(LD)
    for got, ref in ((z[0::2], r * np.cos(2 * PI_LD * u2)), (z[1::2], r * np.sin(2 * PI_LD * u2))):
        err = (np.abs(got.astype(LD) - ref) / sp).astype(np.float64)
        assert err.max() <= 3.0
    assert np.abs(z).max() <= 6.8


def test_float32_square_root_is_correctly_rounded():
    # the normals' own square root (gpk_rng_sqrtf) on its domain, 0 and the
    # normal floats up to 47 (its arguments are 0 or above 2^-24): NumPy's
    # float32 sqrt is correctly rounded, and no float's root is a tie
    k = gp.ElementwiseKernel("float32 x", "float32 y", "y = gpk_rng_sqrtf(x)", "rng_sqrtf")
    rng = np.random.default_rng(5)
    bits = rng.integers(np.float32(np.finfo(np.float32).tiny).view(np.uint32),
                        np.float32(47).view(np.uint32), 1 << 20, dtype=np.uint32)
    squares = (np.arange(1, 6000, dtype=np.float32) / np.float32(128)) ** 2
    x = np.concatenate([bits.view(np.float32), squares[squares <= 47],
                        np.float32([0, 2e-38, 1e-7, 1, 2, 46.99, 47])])
    np.testing.assert_array_equal(k(gp.asarray(x)).get(), np.sqrt(x))


def test_unaligned_output_gives_the_same_stream():
    # an output not aligned to a block's vector takes the element-wise stores
    n = 301
    for dt in (np.float32, np.float64):
        buf = gp.zeros(n + 1, dtype=dt)
        gr.default_rng(SEED).random(out=buf[1:], dtype=dt)
        np.testing.assert_array_equal(buf[1:].get(), gr.default_rng(SEED).random(n, dtype=dt).get())
        assert buf[:1].get()[0] == 0


def test_fortran_output_is_filled_in_memory_order():
    out = gp.asfortranarray(gp.zeros((5, 4)))
    gr.default_rng(SEED).random(out=out)
    flat = gr.default_rng(SEED).random(20).get()
    np.testing.assert_array_equal(out.get(), flat.reshape((5, 4), order="F"))


# ---- reproducibility and the counter ----------------------------------------------------------

CALLS = [  # (name, call, elements per counter block)
    ("random64", lambda g, n: g.random(n), 2),
    ("random32", lambda g, n: g.random(n, dtype=np.float32), 4),
    ("integers32", lambda g, n: g.integers(-5, 1000, size=n), 4),
    ("integers64", lambda g, n: g.integers(0, 2 ** 40, size=n), 2),
    ("normal", lambda g, n: g.normal(1.0, 3.0, size=n), 2),
    ("standard_normal32", lambda g, n: g.standard_normal(n, dtype=np.float32), 4),
    ("exponential", lambda g, n: g.exponential(2.0, size=n), 2),
    ("standard_exponential32", lambda g, n: g.standard_exponential(n, dtype=np.float32), 4),
    ("uniform", lambda g, n: g.uniform(2.0, 3.0, size=n), 2),
]


@pytest.mark.parametrize("name,call,per", CALLS, ids=[c[0] for c in CALLS])
def test_same_seed_same_stream_different_seeds_differ(name, call, per):
    a = call(gr.default_rng(123), 257).get()
    b = call(gr.default_rng(123), 257).get()
    c = call(gr.default_rng(124), 257).get()
    np.testing.assert_array_equal(a, b)
    assert (a != c).mean() > 0.5


@pytest.mark.parametrize("name,call,per", CALLS, ids=[c[0] for c in CALLS])
def test_split_calls_continue_the_stream(name, call, per):
    n, m = 4 * 25, 37                # n: whole blocks for every distribution
    g1, g2 = gr.default_rng(9), gr.default_rng(9)
    first, second = call(g1, n).get(), call(g1, m).get()
    whole = call(g2, n + m).get()
    np.testing.assert_array_equal(np.concatenate([first, second]), whole)
    blocks = n // per + math.ceil(m / per)
    assert g1.bit_generator.state["state"]["counter"] == blocks
    assert g2.bit_generator.state["state"]["counter"] == math.ceil((n + m) / per)


@pytest.mark.parametrize("name,call,per", CALLS, ids=[c[0] for c in CALLS])
def test_a_call_uses_whole_blocks(name, call, per):
    # n numbers use ceil(n / per) blocks; the next call starts at the next block
    n, m = 4 * 10 + 1, 20
    g1, g2 = gr.default_rng(5), gr.default_rng(5)
    call(g1, n)
    second = call(g1, m).get()
    skip = math.ceil(n / per) * per
    whole = call(g2, skip + m).get()
    np.testing.assert_array_equal(second, whole[skip:])


def test_state_round_trip_and_advance():
    g = gr.default_rng(77)
    g.random(10)
    st = g.bit_generator.state
    a = g.random(10).get()
    g.bit_generator.state = st
    np.testing.assert_array_equal(g.random(10).get(), a)
    h = gr.default_rng(77)
    h.bit_generator.advance(5)          # random(10) used 5 blocks
    np.testing.assert_array_equal(h.random(10).get(), a)
    j = gr.Philox(77).jumped()
    assert j.state["state"]["counter"] == 1 << 64


def test_seed_sequence_derives_the_key():
    ss = np.random.SeedSequence(2024)
    w = ss.generate_state(2, np.uint32)
    assert gr.Philox(2024).state["state"]["key"] == int(w[0]) | int(w[1]) << 32
    assert gr.Philox(np.random.SeedSequence(2024)).state == gr.Philox(2024).state
    assert gr.SeedSequence is np.random.SeedSequence
    a = gr.default_rng([1, 2, 3]).random(4).get()
    np.testing.assert_array_equal(a, gr.default_rng(np.random.SeedSequence([1, 2, 3]))
                                  .random(4).get())
    # no seed: fresh entropy
    assert (gr.default_rng().random(8).get() != gr.default_rng().random(8).get()).any()


def test_default_rng_passes_generators_and_bit_generators_through():
    g = gr.default_rng(1)
    assert gr.default_rng(g) is g
    bg = gr.Philox(1)
    assert gr.default_rng(bg).bit_generator is bg


def test_array_parameters_match_scalar_parameters():
    n = 100
    a = gr.default_rng(3).normal(gp.full(n, 2.0), 0.5).get()
    b = gr.default_rng(3).normal(2.0, 0.5, size=n).get()
    np.testing.assert_array_equal(a, b)
    a = gr.default_rng(3).uniform(np.zeros(n), 4.0).get()
    b = gr.default_rng(3).uniform(0.0, 4.0, n).get()
    np.testing.assert_array_equal(a, b)
    a = gr.default_rng(3).exponential([3.0] * n).get()
    b = gr.default_rng(3).exponential(3.0, n).get()
    np.testing.assert_array_equal(a, b)
    loc = np.arange(4.0) * 100
    x = gr.default_rng(3).normal(loc, 1.0, size=(1000, 4)).get()
    assert x.shape == (1000, 4)
    np.testing.assert_allclose(x.mean(axis=0), loc, atol=0.2)


# ---- shapes and dtypes -------------------------------------------------------------------------

def test_sizes_and_default_dtypes():
    g = gr.default_rng(0)
    for m in (g.random, g.standard_normal, g.standard_exponential, g.normal, g.uniform,
              g.exponential):
        x = m(size=(2, 3))
        assert isinstance(x, gp.ndarray) and x.shape == (2, 3) and x.dtype == np.float64
        s = m()
        assert isinstance(s, gp.ndarray) and s.shape == () and s.dtype == np.float64
        assert m(size=0).shape == (0,)
    assert g.integers(5, size=7).dtype == np.int64
    assert g.integers(5).shape == ()
    assert g.integers(0, 2, size=3, dtype=bool).dtype == np.bool_
    assert g.random(np.int64(3)).shape == (3,)


@pytest.mark.parametrize("dtype", ["b", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8"])
def test_integers_cover_their_range(dtype):
    dt = np.dtype(dtype)
    lo, hi = (0, 1) if dt.kind == "b" else (max(np.iinfo(dt).min, -50), min(np.iinfo(dt).max, 50))
    x = gr.default_rng(1).integers(lo, hi, size=5000, dtype=dt, endpoint=True).get()
    assert x.dtype == dt
    assert set(np.unique(x).astype(int)) == set(range(lo, hi + 1))
    if dt.kind != "b":
        info = np.iinfo(dt)
        y = gr.default_rng(2).integers(info.min, info.max, size=4000, dtype=dt,
                                       endpoint=True).get()
        quarter = (int(info.max) - int(info.min)) // 4
        assert int(y.min()) < info.min + quarter and int(y.max()) > info.max - quarter


def test_endpoint_and_one_value():
    g = gr.default_rng(4)
    assert (g.integers(7, 7, size=20, endpoint=True).get() == 7).all()
    assert (g.integers(7, 8, size=20).get() == 7).all()
    assert g.integers(0, 1, size=1000, endpoint=True).get().sum() > 400


# ---- the distributions, against scipy.stats ---------------------------------------------------

def _ks(x, dist, *args):
    # a frozen distribution's cdf: some SciPy versions route a name with args
    # to a special function that takes no loc and scale
    p = stats.kstest(x, getattr(stats, dist)(*args).cdf).pvalue
    assert p > ALPHA, p


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_random_is_uniform(dtype):
    x = gr.default_rng(11).random(N_STAT, dtype=dtype).get()
    assert 0 <= x.min() and x.max() < 1
    _ks(x.astype(np.float64), "uniform")


def test_uniform_is_uniform():
    x = gr.default_rng(12).uniform(-2.0, 7.0, N_STAT).get()
    assert -2 <= x.min() and x.max() < 7
    _ks(x, "uniform", -2.0, 9.0)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_standard_normal_is_normal(dtype):
    x = gr.default_rng(13).standard_normal(N_STAT, dtype=dtype).get().astype(np.float64)
    _ks(x, "norm")
    # the tails: a chi-square over bins out to 4.5 sigma
    edges = np.array([-np.inf, -4.5, -3.5, -2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 4.5, np.inf])
    obs = np.histogram(x, edges)[0]
    exp = np.diff(stats.norm.cdf(edges)) * x.size
    assert stats.chisquare(obs, exp).pvalue > ALPHA


def test_normal_loc_scale():
    x = gr.default_rng(14).normal(-3.0, 0.25, N_STAT).get()
    _ks(x, "norm", -3.0, 0.25)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_standard_exponential_is_exponential(dtype):
    x = gr.default_rng(15).standard_exponential(N_STAT, dtype=dtype).get().astype(np.float64)
    assert x.min() >= 0
    _ks(x, "expon")


def test_exponential_scale():
    x = gr.default_rng(16).exponential(4.0, N_STAT).get()
    _ks(x, "expon", 0.0, 4.0)


def test_legacy_functions_follow_their_distributions():
    gr.seed(17)
    _ks(gr.rand(N_STAT).get(), "uniform")
    _ks(gr.randn(N_STAT).get(), "norm")
    _ks(gr.uniform(1.0, 2.0, N_STAT).get(), "uniform", 1.0, 1.0)
    _ks(gr.normal(5.0, 2.0, N_STAT).get(), "norm", 5.0, 2.0)
    _ks(gr.random_sample(N_STAT).get(), "uniform")
    _ks(gr.random(N_STAT).get(), "uniform")


def _chi2_uniform(x, low, k):
    obs = np.bincount((x - low).astype(np.int64), minlength=k)
    assert obs.size == k
    assert stats.chisquare(obs).pvalue > ALPHA


@pytest.mark.parametrize("low,high", [(0, 10), (-3, 4), (10 ** 6, 10 ** 6 + 97)])
def test_integers_are_uniform(low, high):
    x = gr.default_rng(18).integers(low, high, N_STAT).get()
    assert low <= x.min() and x.max() < high
    _chi2_uniform(x, low, high - low)


def test_integers_are_unbiased_for_ranges_near_2_to_32():
    # 3 * 2^30 values: `word % range` would make the values below 2^30 twice
    # as likely as the others; in four bins that is a large chi-square
    s = 3 << 30
    x = gr.default_rng(19).integers(0, s, N_STAT).get()
    _chi2_uniform(x // (s // 3), 0, 3)
    s64 = 3 << 62   # two words an element
    y = gr.default_rng(20).integers(0, s64, N_STAT, dtype=np.uint64).get()
    _chi2_uniform((y // np.uint64(s64 // 3)).astype(np.int64), 0, 3)


def test_legacy_randint():
    gr.seed(21)
    x = gr.randint(3, 9, size=N_STAT).get()
    assert x.dtype == np.int64
    _chi2_uniform(x, 3, 6)
    y = gr.randint(4, size=10).get()
    assert ((0 <= y) & (y < 4)).all()


def test_legacy_seed_reproduces():
    gr.seed(5)
    a = (gr.rand(3, 2).get(), gr.randn(4).get(), gr.randint(0, 100, 5).get())
    gr.seed(5)
    b = (gr.rand(3, 2).get(), gr.randn(4).get(), gr.randint(0, 100, 5).get())
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert a[0].shape == (3, 2) and gr.rand().shape == ()
    rs = gr.RandomState(5)
    np.testing.assert_array_equal(rs.rand(3, 2).get(), a[0])
    assert gr.get_random_state() is not rs


def test_legacy_state_round_trips_as_numpys_does_for_a_philox_random_state():
    rs = gr.RandomState(7)
    with pytest.warns(RuntimeWarning, match="legacy"):
        st = rs.get_state()
    # NumPy's RandomState over a bit generator other than MT19937 gives a dict too
    want = np.random.RandomState(np.random.Philox(7))
    with pytest.warns(RuntimeWarning, match="legacy"):
        assert isinstance(want.get_state(), dict)
    assert st == rs.get_state(legacy=False)
    assert {"bit_generator", "state", "has_gauss", "gauss"} <= set(st)
    a = rs.random_sample(1000).get()
    rs.set_state(st)
    np.testing.assert_array_equal(rs.random_sample(1000).get(), a)
    gr.seed(3)
    st = gr.get_state(legacy=False)
    b = gr.rand(5).get()
    gr.set_state(st)
    np.testing.assert_array_equal(gr.rand(5).get(), b)


@pytest.mark.parametrize("state, error", [
    (("MT19937", np.zeros(624, np.uint32), 0), ValueError),   # another generator's tuple
    (("PCG64",), ValueError),
    ({"bit_generator": "PCG64", "state": {}}, ValueError),
    (5, TypeError),
])
def test_legacy_set_state_refuses_another_generators_state(state, error):
    want = np.random.RandomState(np.random.Philox(1))
    with pytest.raises(error):
        want.set_state(state)
    with pytest.raises(error):
        gr.RandomState(1).set_state(state)


def test_random_state_takes_a_bit_generator():
    bg = gr.Philox(11)
    rs = gr.RandomState(bg)
    assert rs.get_generator().bit_generator is bg
    np.testing.assert_array_equal(rs.random_sample(10).get(),
                                  gr.Generator(gr.Philox(11)).random(10).get())


def test_bit_generator_is_the_base_class():
    assert issubclass(gr.Philox, gr.BitGenerator)
    with pytest.raises(NotImplementedError):
        np.random.BitGenerator(1).random_raw()
    with pytest.raises(NotImplementedError):
        gr.BitGenerator(1).random_raw()
    assert isinstance(gr.BitGenerator(1).seed_seq, np.random.SeedSequence)
    kids = gr.Philox(3).spawn(2)
    assert all(isinstance(k, gr.Philox) for k in kids) and kids[0].state != kids[1].state


# ---- bad arguments: NumPy's exceptions ---------------------------------------------------------

def test_bad_sizes():
    g = gr.default_rng(0)
    with pytest.raises(ValueError, match="negative dimensions"):
        g.random(-1)
    with pytest.raises(ValueError, match="negative dimensions"):
        g.integers(0, 5, size=(2, -1))
    with pytest.raises(ValueError, match="negative dimensions"):
        gr.rand(2, -1)
    with pytest.raises(TypeError):
        g.random(2.5)


def test_bad_integer_bounds():
    g = gr.default_rng(0)
    with pytest.raises(ValueError, match="low >= high"):
        g.integers(5, 5)
    with pytest.raises(ValueError, match="low >= high"):
        g.integers(0)
    with pytest.raises(ValueError, match="low > high"):
        g.integers(5, 4, endpoint=True)
    with pytest.raises(ValueError, match="high is out of bounds for uint8"):
        g.integers(0, 257, dtype=np.uint8)
    with pytest.raises(ValueError, match="low is out of bounds for uint8"):
        g.integers(-1, 2, dtype=np.uint8)
    with pytest.raises(ValueError, match="high is out of bounds for int64"):
        g.integers(2 ** 64)
    with pytest.raises(ValueError, match="low >= high"):
        gr.randint(5, 5)
    g.integers(0, 256, dtype=np.uint8)  # the exclusive bound may be one past the range


def test_bad_dtypes():
    g = gr.default_rng(0)
    with pytest.raises(TypeError, match="Unsupported dtype dtype\\('int32'\\) for random"):
        g.random(dtype=np.int32)
    with pytest.raises(TypeError, match="for random"):
        g.random(dtype=np.float16)
    with pytest.raises(TypeError, match="for integers"):
        g.integers(0, 2, dtype=np.float64)
    with pytest.raises(TypeError, match="for standard_normal"):
        g.standard_normal(dtype=np.int64)
    with pytest.raises(TypeError, match="for standard_exponential"):
        g.standard_exponential(dtype=np.int64)


def test_bad_out():
    g = gr.default_rng(0)
    with pytest.raises(TypeError, match="wrong type"):
        g.random(3, out=gp.empty(3, dtype=np.float32))
    with pytest.raises(ValueError, match="size must match out.shape"):
        g.random(4, out=gp.empty(3))
    with pytest.raises(ValueError, match="contiguous"):
        g.random(out=gp.empty((4, 3))[:, 0])
    out = gp.empty(6)
    assert g.random(out=out) is out


def test_bad_scales_and_ranges():
    g = gr.default_rng(0)
    with pytest.raises(ValueError, match="scale < 0"):
        g.normal(0, -1)
    with pytest.raises(ValueError, match="scale < 0"):
        g.normal(0, [1, -1])
    with pytest.raises(ValueError, match="scale < 0"):
        g.exponential(-1)
    with pytest.raises(OverflowError, match="high - low range exceeds valid bounds"):
        g.uniform(0, np.inf)
    with pytest.raises(OverflowError):
        g.uniform(-1e308, 1e308)
    with pytest.raises(ValueError):
        g.normal([0, 1], 1, size=3)
    with pytest.raises(ValueError, match="Seed must be between 0 and 2\\*\\*32 - 1"):
        gr.seed(-1)
    with pytest.raises(ValueError, match="scale < 0"):
        gr.normal(0, -1)


# ---- the distributions of one element a counter block ------------------------------------------
# Each is tested by a KS test (continuous) or a chi-square test (counts)
# against scipy.stats at a fixed seed, at ALPHA = 1e-4 each as above; the
# cases are chosen to run every branch of the samplers (gamma's boost for
# shape < 1, beta's Johnk, inversion and rejection for Poisson and binomial,
# the urn and HRUA for the hypergeometric, von Mises' wrapped normal...).

N_DIST = 100_000

CONTINUOUS = [  # (Generator method, args, scipy.stats frozen distribution)
    ("standard_gamma", (0.3,), stats.gamma(0.3)),
    ("standard_gamma", (1.0,), stats.gamma(1.0)),
    ("standard_gamma", (7.5,), stats.gamma(7.5)),
    ("gamma", (2.5, 3.0), stats.gamma(2.5, scale=3.0)),
    ("gamma", (0.05, 1.0), stats.gamma(0.05)),
    ("beta", (0.5, 0.7), stats.beta(0.5, 0.7)),
    ("beta", (2.0, 5.0), stats.beta(2.0, 5.0)),
    ("beta", (0.2, 3.0), stats.beta(0.2, 3.0)),
    ("chisquare", (3.0,), stats.chi2(3.0)),
    ("noncentral_chisquare", (3.0, 2.0), stats.ncx2(3.0, 2.0)),
    ("noncentral_chisquare", (0.5, 1.5), stats.ncx2(0.5, 1.5)),
    ("f", (3.0, 7.0), stats.f(3.0, 7.0)),
    ("noncentral_f", (3.0, 7.0, 2.5), stats.ncf(3.0, 7.0, 2.5)),
    ("standard_t", (4.0,), stats.t(4.0)),
    ("standard_cauchy", (), stats.cauchy()),
    ("laplace", (1.0, 2.0), stats.laplace(1.0, 2.0)),
    ("logistic", (-1.0, 0.5), stats.logistic(-1.0, 0.5)),
    ("gumbel", (2.0, 3.0), stats.gumbel_r(2.0, 3.0)),
    ("weibull", (1.7,), stats.weibull_min(1.7)),
    ("pareto", (3.0,), stats.lomax(3.0)),
    ("power", (2.5,), stats.powerlaw(2.5)),
    ("rayleigh", (2.0,), stats.rayleigh(scale=2.0)),
    ("lognormal", (0.5, 0.75), stats.lognorm(0.75, scale=math.exp(0.5))),
    ("wald", (2.0, 3.0), stats.invgauss(2.0 / 3.0, scale=3.0)),
    ("triangular", (-1.0, 0.5, 3.0), stats.triang(1.5 / 4.0, loc=-1.0, scale=4.0)),
    # von Mises: angles in [-pi, pi], compared with SciPy's (not wrapped) about mu
    ("vonmises", (0.5, 2.0), stats.vonmises(2.0)),
    ("vonmises", (-2.0, 5e-6), stats.vonmises(5e-6)),
    ("vonmises", (3.0, 1e-9), stats.vonmises(1e-9)),
    ("vonmises", (1.0, 4e6), stats.vonmises(4e6)),
]


@pytest.mark.parametrize("name,args,dist", CONTINUOUS,
                         ids=[f"{c[0]}{c[1]}" for c in CONTINUOUS])
def test_continuous_distributions(name, args, dist):
    x = getattr(gr.default_rng(31), name)(*args, size=N_DIST).get()
    assert x.dtype == np.float64 and x.shape == (N_DIST,)
    assert np.isfinite(x).all()
    if name == "vonmises":
        assert (np.abs(x) <= np.pi).all()
        x = np.mod(x - args[0] + np.pi, 2 * np.pi) - np.pi
    p = stats.kstest(x, dist.cdf).pvalue
    assert p > ALPHA, p


def _chi2_binned(x, dist):
    """Chi-square of x in 20 bins of equal probability under dist, for
    distributions with so much mass near 0 or 1 that doubles round many
    values to the same number (ties that a KS test cannot take): edges
    closer to 0 or 1 than 1e-12 are dropped."""
    e = dist.ppf(np.linspace(0.05, 0.95, 19))
    e = np.unique(e[(e > 1e-12) & (e < 1 - 1e-12)])
    edges = np.concatenate([[-np.inf], e, [np.inf]])
    obs = np.histogram(x, edges)[0]
    exp = np.diff(dist.cdf(edges)) * x.size
    p = stats.chisquare(obs, exp).pvalue
    assert p > ALPHA, p


def _chi2_counts(x, dist):
    """Chi-square of the counts of x against a discrete scipy distribution,
    adjacent values pooled until each bin expects at least 20."""
    # a heavy tail's values past 10^4 bins are pooled in the last
    lo = int(x.min())
    hi = min(int(x.max()), lo + 10 ** 4)
    x = np.clip(x, lo, hi)
    ks = np.arange(lo, hi + 1)
    obs = np.bincount(x - lo, minlength=ks.size).astype(np.float64)
    exp = dist.pmf(ks) * x.size
    exp[0] = dist.cdf(lo) * x.size       # the tails beyond what was seen
    exp[-1] = dist.sf(hi - 1) * x.size
    bins_o, bins_e, o, e = [], [], 0.0, 0.0
    for oi, ei in zip(obs, exp):
        o, e = o + oi, e + ei
        if e >= 20:
            bins_o.append(o), bins_e.append(e)
            o = e = 0.0
    if bins_e:
        bins_o[-1] += o
        bins_e[-1] += e
    bins_o, bins_e = np.array(bins_o), np.array(bins_e)
    if bins_e.size < 2:
        return
    bins_e *= bins_o.sum() / bins_e.sum()
    p = stats.chisquare(bins_o, bins_e).pvalue
    assert p > ALPHA, p


DISCRETE = [  # (Generator method, args, scipy.stats frozen distribution)
    ("poisson", (0.7,), stats.poisson(0.7)),
    ("poisson", (9.5,), stats.poisson(9.5)),
    ("poisson", (10.0,), stats.poisson(10.0)),
    ("poisson", (1234.5,), stats.poisson(1234.5)),
    ("binomial", (20, 0.3), stats.binom(20, 0.3)),
    ("binomial", (15, 0.9), stats.binom(15, 0.9)),
    ("binomial", (1000, 0.4), stats.binom(1000, 0.4)),
    ("binomial", (100000, 0.77), stats.binom(100000, 0.77)),
    ("geometric", (0.2,), stats.geom(0.2)),
    ("geometric", (0.9,), stats.geom(0.9)),
    ("geometric", (0.001,), stats.geom(0.001)),
    ("negative_binomial", (3.5, 0.4), stats.nbinom(3.5, 0.4)),
    ("negative_binomial", (50, 0.05), stats.nbinom(50, 0.05)),
    ("hypergeometric", (10, 20, 5), stats.hypergeom(30, 10, 5)),
    ("hypergeometric", (300, 200, 490), stats.hypergeom(500, 300, 490)),
    ("hypergeometric", (1000, 3000, 700), stats.hypergeom(4000, 1000, 700)),
    ("hypergeometric", (5000, 20, 300), stats.hypergeom(5020, 5000, 300)),
    ("logseries", (0.6,), stats.logser(0.6)),
    ("logseries", (0.99,), stats.logser(0.99)),
    ("zipf", (2.5,), stats.zipf(2.5)),
    ("zipf", (1.3,), stats.zipf(1.3)),
]


@pytest.mark.parametrize("name,args,dist", DISCRETE, ids=[f"{c[0]}{c[1]}" for c in DISCRETE])
def test_discrete_distributions(name, args, dist):
    x = getattr(gr.default_rng(32), name)(*args, size=N_DIST).get()
    assert x.dtype == np.int64 and x.shape == (N_DIST,)
    _chi2_counts(x, dist)


def test_special_parameter_values():
    g = gr.default_rng(33)
    assert (g.gamma(0.0, size=10).get() == 0).all()
    assert (g.weibull(0.0, size=10).get() == 0).all()
    assert (g.poisson(0.0, size=10).get() == 0).all()
    assert (g.binomial(0, 0.5, size=10).get() == 0).all()
    assert (g.binomial(7, 1.0, size=10).get() == 7).all()
    assert (g.binomial(7, 0.0, size=10).get() == 0).all()
    assert (g.geometric(1.0, size=10).get() == 1).all()
    assert (g.hypergeometric(5, 0, 3, size=10).get() == 3).all()
    assert (g.zipf(2000.0, size=10).get() == 1).all()
    assert np.isnan(g.gamma(np.nan, size=3).get()).all()
    assert np.isnan(g.beta(np.nan, 1.0, size=3).get()).all()
    v = g.vonmises(3.0, 1.0, size=10000).get()
    assert (np.abs(v) <= np.pi).all()


def test_dirichlet():
    for alpha in ([1.0, 2.5, 0.5], [0.05, 0.02, 0.08]):   # gammas; betas breaking the stick
        x = gr.default_rng(34).dirichlet(alpha, size=N_DIST // 2).get()
        assert x.shape == (N_DIST // 2, 3) and x.dtype == np.float64
        np.testing.assert_allclose(x.sum(axis=1), 1.0, rtol=1e-12)
        a0 = sum(alpha)
        for i, a in enumerate(alpha):
            _chi2_binned(x[:, i], stats.beta(a, a0 - a))
    assert gr.default_rng(1).dirichlet([1.0, 2.0]).shape == (2,)
    assert gr.default_rng(1).dirichlet([1.0, 2.0], size=(3, 4)).shape == (3, 4, 2)


def test_multinomial():
    pv = [0.1, 0.25, 0.4, 0.25]
    x = gr.default_rng(35).multinomial(40, pv, size=N_DIST // 2).get()
    assert x.shape == (N_DIST // 2, 4) and x.dtype == np.int64
    assert (x.sum(axis=1) == 40).all()
    for i, p in enumerate(pv):
        _chi2_counts(x[:, i], stats.binom(40, p))
    y = gr.default_rng(35).multinomial([[5], [10]], [0.5, 0.5], size=(2, 3)).get()
    assert y.shape == (2, 3, 2)
    assert (y.sum(axis=-1) == np.array([[5], [10]])).all()
    big = gr.default_rng(36).multinomial(10 ** 6, pv, size=1000).get()
    assert (big.sum(axis=1) == 10 ** 6).all()
    _ks_binomial_normal = stats.kstest((big[:, 2] - 4e5) / math.sqrt(1e6 * 0.4 * 0.6), "norm")
    assert _ks_binomial_normal.pvalue > ALPHA


def test_multivariate_hypergeometric():
    colors = [6, 30, 14, 50]
    x = gr.default_rng(37).multivariate_hypergeometric(colors, 25, size=N_DIST // 2).get()
    assert x.shape == (N_DIST // 2, 4) and x.dtype == np.int64
    assert (x.sum(axis=1) == 25).all()
    for i, c in enumerate(colors):
        _chi2_counts(x[:, i], stats.hypergeom(100, c, 25))
    assert gr.default_rng(1).multivariate_hypergeometric(colors, 3, method="count").shape == (4,)


@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
def test_multivariate_normal(method):
    mean = np.array([1.0, -2.0, 0.5])
    cov = np.array([[2.0, 0.6, -0.3], [0.6, 1.0, 0.2], [-0.3, 0.2, 0.5]])
    x = gr.default_rng(38).multivariate_normal(mean, cov, size=N_DIST // 2, method=method).get()
    assert x.shape == (N_DIST // 2, 3)
    for w in (np.array([1.0, 0.0, 0.0]), np.array([0.3, -1.0, 2.0])):
        p = stats.kstest(x @ w, stats.norm(mean @ w, math.sqrt(w @ cov @ w)).cdf).pvalue
        assert p > ALPHA, (w, p)
    np.testing.assert_allclose(np.cov(x.T), cov, atol=0.05)
    with pytest.warns(RuntimeWarning):
        gr.default_rng(1).multivariate_normal([0, 0], [[1, 2], [2, 1]])
    with pytest.raises(ValueError):
        gr.default_rng(1).multivariate_normal([0, 0], [[1, 2], [2, 1]], check_valid="raise")
    with pytest.raises(ValueError, match="mean and cov must have same length"):
        gr.default_rng(1).multivariate_normal([0, 0, 0], cov[:2, :2])


# ---- the layout: element i is made from its block's words, exactly as specified -----------------

@needs_long_double
def test_lognormal_pareto_rayleigh_layout_and_accuracy():
    # element i of a one-element-a-block distribution starts from block i:
    # its first normal is standard_normal's element 2i (r cos of the same
    # words), its first exponential standard_exponential's element 2i
    n = 1 << 15
    z = gr.default_rng(SEED).standard_normal(2 * n).get()[0::2]
    e = gr.default_rng(SEED).standard_exponential(2 * n).get()[0::2]
    x = gr.default_rng(SEED).lognormal(0.0, 1.0, n).get()
    assert _ulps(x, np.exp(z.astype(LD))).max() <= 1.0          # the prelude's exp
    y = gr.default_rng(SEED).pareto(0.5, n).get()
    assert _ulps(y, np.expm1(e.astype(LD) / 0.5)).max() <= 2.5   # expm1
    r = gr.default_rng(SEED).rayleigh(1.0, n).get()
    assert _ulps(r, np.sqrt(2 * e.astype(LD))).max() <= 1.0
    w = gr.default_rng(SEED).weibull(3.0, n).get()
    ref = np.exp(np.log(e.astype(LD)) / 3)
    assert _ulps(w, ref).max() <= 4.0                             # pow as exp(y log x)


def test_one_element_a_block_and_streams_continue():
    for call in (lambda g, n: g.gamma(0.5, 2.0, n), lambda g, n: g.poisson(40.0, n),
                 lambda g, n: g.hypergeometric(50, 60, 30, n)):
        g1, g2 = gr.default_rng(9), gr.default_rng(9)
        a, b = call(g1, 37).get(), call(g1, 20).get()
        np.testing.assert_array_equal(np.concatenate([a, b]), call(g2, 57).get())
        assert g1.bit_generator.state["state"]["counter"] == 57
    g = gr.default_rng(9)
    g.dirichlet([1.0, 2.0, 3.0], size=(4, 5))
    assert g.bit_generator.state["state"]["counter"] == 20      # a block a row


def test_standard_gamma_float32_and_out():
    x64 = gr.default_rng(39).standard_gamma(0.7, 777).get()
    x32 = gr.default_rng(39).standard_gamma(0.7, 777, dtype=np.float32).get()
    assert x32.dtype == np.float32
    np.testing.assert_array_equal(x32, x64.astype(np.float32))
    out = gp.empty((3, 4), dtype=np.float32)
    assert gr.default_rng(39).standard_gamma(0.7, dtype=np.float32, out=out) is out
    np.testing.assert_array_equal(out.get().ravel(), x32[:12])
    f = gp.asfortranarray(gp.zeros((3, 4)))
    sh = gp.asarray(np.arange(1.0, 13.0).reshape(3, 4))
    gr.default_rng(40).standard_gamma(sh, out=f)
    # memory order: element (i, j) of an F-ordered out is stream element i + 3 j
    g = gr.default_rng(40).standard_gamma(np.asfortranarray(sh.get()).ravel(order="F"))
    np.testing.assert_array_equal(f.get().ravel(order="F"), g.get())
    with pytest.raises(TypeError, match="Unsupported dtype"):
        gr.default_rng(1).standard_gamma(1.0, dtype=np.int32)


# ---- broadcasting of array parameters -------------------------------------------------------------

BROADCAST = [  # (method, args as arrays) whose result shape NumPy decides
    ("gamma", (np.array([[0.5], [2.0], [9.0]]), np.array([1.0, 2.0, 3.0, 4.0]))),
    ("beta", (np.array([0.5, 3.0]), 2.0)),
    ("noncentral_f", (np.array([[3.0], [4.0]]), 7.0, np.array([0.0, 1.0, 2.0]))),
    ("triangular", (np.zeros((2, 1)), np.array([0.0, 0.5, 1.0]), 1.0)),
    ("binomial", (np.array([[10], [2000]]), np.array([0.1, 0.5, 0.95]))),
    ("hypergeometric", (np.array([5, 100]), 20, np.array([[3], [15]]))),
    ("poisson", (np.array([[0.5, 20.0, 3000.0]]),)),
    ("vonmises", (np.array([0.0, 1.0]), np.array([[1e-9], [1.0], [1e7]]))),
    ("negative_binomial", (np.array([1.0, 30.0]), np.array([[0.2], [0.9]]))),
    ("standard_t", (np.array([1.0, 5.0, 50.0]),)),
]


@pytest.mark.parametrize("name,args", BROADCAST, ids=[b[0] for b in BROADCAST])
def test_broadcast_parameters(name, args):
    want = getattr(np.random.default_rng(0), name)(*args)
    got = getattr(gr.default_rng(41), name)(*args)
    assert got.shape == want.shape and got.dtype == want.dtype
    gp_args = [gp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    assert getattr(gr.default_rng(41), name)(*gp_args).shape == want.shape
    size = (5,) + want.shape
    np.testing.assert_array_equal(getattr(gr.default_rng(41), name)(*args, size=size).shape, size)
    with pytest.raises(ValueError):
        getattr(np.random.default_rng(0), name)(*args, size=(7, 11))
    with pytest.raises(ValueError):
        getattr(gr.default_rng(41), name)(*args, size=(7, 11))


def test_array_parameters_give_the_scalar_stream():
    # element i is block i whatever the parameters: equal parameters, equal bits
    n = 300
    for name, args in [("gamma", (0.4, 2.0)), ("binomial", (500, 0.3)),
                       ("hypergeometric", (40, 50, 30)), ("noncentral_chisquare", (0.7, 3.0))]:
        a = getattr(gr.default_rng(42), name)(*args, size=n).get()
        arr = [np.full(n, v) for v in args]
        b = getattr(gr.default_rng(42), name)(*arr).get()
        np.testing.assert_array_equal(a, b)
    x = gr.default_rng(43).poisson(np.array([0.5, 50.0, 5000.0]), size=(N_DIST // 4, 3)).get()
    for j, lam in enumerate([0.5, 50.0, 5000.0]):
        _chi2_counts(x[:, j], stats.poisson(lam))


# ---- NumPy's errors for bad parameters ----------------------------------------------------------

BAD = [
    ("gamma", (-1.0,)), ("gamma", (1.0, -1.0)), ("standard_gamma", (-0.5,)),
    ("standard_gamma", (np.array([1.0, -1.0]),)), ("beta", (0.0, 1.0)), ("beta", (1.0, -2.0)),
    ("chisquare", (0.0,)), ("noncentral_chisquare", (0.0, 1.0)),
    ("noncentral_chisquare", (1.0, -1.0)), ("f", (0.0, 1.0)), ("f", (1.0, 0.0)),
    ("noncentral_f", (1.0, 1.0, -1.0)), ("noncentral_f", (0.0, 1.0, 1.0)),
    ("standard_t", (0.0,)), ("standard_t", (np.array([[1.0], [-1.0]]),)),
    ("laplace", (0.0, -1.0)), ("logistic", (0.0, -1.0)), ("gumbel", (0.0, -1.0)),
    ("weibull", (-1.0,)), ("pareto", (0.0,)), ("power", (-1.0,)), ("rayleigh", (-1.0,)),
    ("lognormal", (0.0, -1.0)), ("wald", (0.0, 1.0)), ("wald", (1.0, 0.0)),
    ("triangular", (1.0, 0.0, 2.0)), ("triangular", (0.0, 3.0, 2.0)),
    ("triangular", (1.0, 1.0, 1.0)), ("vonmises", (0.0, -1.0)),
    ("poisson", (-1.0,)), ("poisson", (np.nan,)), ("poisson", (1e19,)),
    ("poisson", (np.array([1.0, -1.0]),)), ("binomial", (-1, 0.5)), ("binomial", (1, 1.5)),
    ("binomial", (1, np.nan)), ("geometric", (0.0,)), ("geometric", (1.5,)),
    ("geometric", (np.nan,)), ("negative_binomial", (0.0, 0.5)),
    ("negative_binomial", (1.0, 0.0)), ("negative_binomial", (np.nan, 0.5)),
    ("hypergeometric", (1, 1, -1)), ("hypergeometric", (1, 1, 3)),
    ("hypergeometric", (-1, 5, 1)), ("hypergeometric", (5, -1, 1)),
    ("logseries", (1.0,)), ("logseries", (-0.1,)), ("zipf", (1.0,)), ("zipf", (np.nan,)),
    ("dirichlet", ([1.0, -1.0],)), ("multinomial", (-1, [0.5, 0.5])),
    ("multinomial", (2, [-0.1, 1.1])), ("multinomial", (2, [np.nan, 0.5])),
    ("multivariate_hypergeometric", ([3, 4], 8)),
    ("multivariate_hypergeometric", ([3, -4], 1)),
    ("multivariate_hypergeometric", ([3, 4], -1)),
]


@pytest.mark.parametrize("name,args", BAD, ids=[f"{b[0]}{b[1]}" for b in BAD])
def test_bad_parameters_raise_numpys_error(name, args):
    with pytest.raises(Exception) as want:
        getattr(np.random.default_rng(0), name)(*args)
    with pytest.raises(want.type) as got:
        getattr(gr.default_rng(0), name)(*args)
    if name != "multivariate_hypergeometric":
        assert str(got.value) == str(want.value)
    gp_args = [gp.asarray(a) if isinstance(a, np.ndarray) and a.ndim else a for a in args]
    with pytest.raises(want.type):
        getattr(gr.default_rng(0), name)(*gp_args)


# ---- the legacy API -----------------------------------------------------------------------------------

def test_legacy_distributions_exist_and_follow_their_distributions():
    for name in gr._legacy.DELEGATED:
        assert callable(getattr(gr, name)), name
        assert callable(getattr(gr.RandomState, name)), name
        assert hasattr(np.random, name) and hasattr(np.random.RandomState, name), name
    gr.seed(44)
    _ks(gr.gamma(2.0, 3.0, size=N_DIST).get(), "gamma", 2.0, 0.0, 3.0)
    _ks(gr.standard_gamma(0.5, N_DIST).get(), "gamma", 0.5)
    _chi2_counts(gr.poisson(4.0, N_DIST).get(), stats.poisson(4.0))
    rs = gr.RandomState(45)
    _chi2_counts(rs.binomial(100, 0.2, N_DIST).get(), stats.binom(100, 0.2))
    _ks(rs.beta(2.0, 3.0, N_DIST).get(), "beta", 2.0, 3.0)
    a = gr.RandomState(46).weibull(2.0, 10).get()
    np.testing.assert_array_equal(a, gr.default_rng(gr._legacy._legacy_seed(46)).weibull(2.0, 10)
                                  .get())
    with pytest.raises(ValueError, match="shape < 0"):
        gr.gamma(-1.0)


def test_spawn():
    kids = gr.default_rng(47).spawn(3)
    assert len(kids) == 3
    draws = [k.random(64).get() for k in kids]
    assert (draws[0] != draws[1]).all() and (draws[1] != draws[2]).all()
    again = [k.random(64).get() for k in gr.default_rng(47).spawn(3)]
    for a, b in zip(draws, again):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(TypeError):
        gr.Philox(key=5).spawn(2)


# ---- permutations and choice (random keys sorted on the device) ----------------------------------

def _chi2_classes(codes, k, probs=None):
    obs = np.bincount(codes, minlength=k)
    assert obs.size == k
    exp = None if probs is None else np.asarray(probs) * codes.size
    assert stats.chisquare(obs, exp).pvalue > ALPHA


def _perm_code(rows):
    """Each row (a permutation of 0..k-1) as its index in base k."""
    k = rows.shape[1]
    return (rows * k ** np.arange(k)).sum(axis=1)


def test_permuted_rows_are_uniform_permutations():
    n = 48_000
    x = gr.default_rng(50).permuted(gp.asarray(np.tile(np.arange(4), (n, 1))), axis=1).get()
    assert (np.sort(x, axis=1) == np.arange(4)).all()
    codes = np.unique(_perm_code(x), return_inverse=True)[1]
    _chi2_classes(codes.ravel(), 24)
    y = gr.default_rng(51).permuted(gp.asarray(np.tile(np.arange(3), (n, 1)).T), axis=0).get()
    _chi2_classes(np.unique(_perm_code(y.T), return_inverse=True)[1].ravel(), 6)


def test_permutation_shuffle_permuted():
    g = gr.default_rng(52)
    p = g.permutation(1000).get()
    assert p.dtype == np.int64 and sorted(p) == list(range(1000))
    a = np.arange(24.0).reshape(4, 6)
    for axis in (0, 1, -1):
        q = g.permutation(gp.asarray(a), axis=axis).get()
        np.testing.assert_array_equal(np.sort(q, axis=axis), a)
        # whole slices move: the other axis' order is kept
        assert (np.diff(q, axis=1 - axis % 2) > 0).all()
    x = gp.asarray(a.copy())
    assert g.shuffle(x, axis=1) is None
    got = x.get()
    np.testing.assert_array_equal(np.sort(got, axis=1), a)
    assert (np.diff(got, axis=0) > 0).all() and not (got == a).all()
    r = g.permuted(gp.asarray(a)).get()
    assert sorted(r.ravel()) == list(a.ravel()) and r.shape == a.shape
    out = gp.empty((4, 6))
    assert g.permuted(gp.asarray(a), axis=0, out=out) is out
    np.testing.assert_array_equal(np.sort(out.get(), axis=0), a)
    # the same seed, the same permutation on every backend: keys are stream words
    np.testing.assert_array_equal(gr.default_rng(7).permutation(50).get(),
                                  np.argsort(gr.default_rng(7).bit_generator.random_raw(50).get(),
                                             kind="stable"))
    with pytest.raises(TypeError):
        g.shuffle(np.arange(5))
    with pytest.raises(np.exceptions.AxisError):
        g.permutation(gp.arange(5), axis=1)
    # an int x is arange(x), as NumPy's: a bool counts, a negative is empty
    for x in (-1, 0, True, np.int8(3)):
        want = np.random.default_rng(0).permutation(x)
        got = g.permutation(x)
        assert got.shape == want.shape and got.dtype == want.dtype
    counts = np.zeros(6, np.int64)
    index = {perm: i for i, perm in enumerate(itertools.permutations(range(3)))}
    for _ in range(1200):
        counts[index[tuple(int(v) for v in g.permutation(3).get())]] += 1
    assert stats.chisquare(counts).pvalue > ALPHA


def test_choice_with_replacement():
    g = gr.default_rng(53)
    x = g.choice(7, size=N_DIST).get()
    assert x.dtype == np.int64
    _chi2_classes(x, 7)
    p = np.array([0.05, 0.0, 0.25, 0.3, 0.4])
    y = g.choice(5, size=(N_DIST // 10, 10), p=p).get()
    assert y.shape == (N_DIST // 10, 10) and not (y == 1).any()
    _chi2_classes(y.ravel(), 5, np.where(p > 0, p, 1e-300))
    vals = gp.asarray(np.arange(20.0).reshape(4, 5))
    z = g.choice(vals, size=(2, 3), axis=1).get()
    assert z.shape == (4, 2, 3) and np.isin(z[0], np.arange(5.0)).all()
    assert g.choice(5).shape == ()


def test_choice_without_replacement():
    g = gr.default_rng(54)
    s = g.choice(100, size=100, replace=False).get()
    assert sorted(s) == list(range(100))
    pv = np.array([0.1, 0.2, 0.3, 0.4])
    obs = np.zeros((4, 4), np.int64)
    for _ in range(2000):
        i, j = g.choice(4, size=2, replace=False, p=pv).get()
        obs[i, j] += 1
    # successive sampling: P(i then j) = p_i p_j / (1 - p_i)
    exp = pv[:, None] * pv[None, :] / (1 - pv[:, None])
    off = ~np.eye(4, dtype=bool)
    assert obs[~off].sum() == 0
    assert stats.chisquare(obs[off], exp[off] * 2000).pvalue > ALPHA
    assert g.choice(gp.arange(10), 3, replace=False, shuffle=False).shape == (3,)


CHOICE_BAD = [
    ((0, 3), {}), ((-1,), {}), ((5, 6), {"replace": False}), ((3,), {"p": [0.5, 0.5]}),
    ((3,), {"p": [0.5, 0.6, -0.1]}), ((3,), {"p": [0.2, 0.2, 0.2]}),
    ((3,), {"p": [[0.2, 0.4, 0.4]]}), ((3, 3), {"replace": False, "p": [0.5, 0.5, 0.0]}),
]


@pytest.mark.parametrize("args,kw", CHOICE_BAD, ids=[str(c) for c in CHOICE_BAD])
def test_choice_errors(args, kw):
    with pytest.raises(Exception) as want:
        np.random.default_rng(0).choice(*args, **kw)
    with pytest.raises(want.type, match=re.escape(str(want.value))):
        gr.default_rng(0).choice(*args, **kw)


def test_bytes():
    b = gr.default_rng(55).bytes(13)
    assert isinstance(b, bytes) and len(b) == 13
    raw = gr.default_rng(55).bit_generator.random_raw(2).get()
    assert b == raw.astype("<u8").tobytes()[:13]
    assert gr.default_rng(1).bytes(0) == b"" and len(gr.bytes(5)) == 5
    counts = np.bincount(np.frombuffer(gr.default_rng(56).bytes(256 * 400), np.uint8),
                         minlength=256)
    assert stats.chisquare(counts).pvalue > ALPHA


def test_random_integers_is_randint_to_high_inclusive():
    """The legacy random_integers: [low, high] (high None: [1, low]), NumPy's
    DeprecationWarning, the stream of randint(low, high + 1)."""
    with pytest.warns(DeprecationWarning):
        gp.random.seed(7)
        a = gp.random.random_integers(3, 9, size=500)
    gp.random.seed(7)
    b = gp.random.randint(3, 10, size=500)
    np.testing.assert_array_equal(a.get(), b.get())
    assert a.dtype == np.random.randint(3, 10, size=1).dtype
    with pytest.warns(DeprecationWarning):
        c = gp.random.RandomState(1).random_integers(4, size=2000).get()
    assert c.min() == 1 and c.max() == 4
