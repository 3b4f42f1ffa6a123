"""Accumulations of reorderable ufuncs along lines long enough for the
single-pass scan over tiles: every such ufunc and dtype, lengths around the
tiles' edges (a tile is 16 or 8 elements on the host, 4096 or 2048 on a
GPU; contiguous lines of 4- and 8-byte real dtypes take CUB's tiles on
CUDA, 3072 or 2688), many tiles per line, several lines, strided, reversed
and unaligned lines,
in-place and cast outputs, against NumPy. The values keep every partial
result exact (small integers, powers of two), so that any order of
combination must give NumPy's result bit for bit."""

import numpy as np
import pytest

import gpunp as gp

REORDERABLE = sorted(name for name in dir(gp)
                     if isinstance(getattr(gp, name), gp.ufunc) and getattr(gp, name).nin == 2
                     and getattr(gp, name)._reorderable)
DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
LENGTHS = [1, 7, 8, 9, 15, 16, 17, 33, 257, 1023, 1024, 1025, 2047, 2048, 2049, 2687, 2688,
           2689, 3071, 3072, 3073, 4095, 4096, 4097, 3 * 4096 + 1, 37 * 4096 + 5]


def _values(name, dt, shape, seed):
    """Values whose partial results are exact in `dt` in any order."""
    rng = np.random.default_rng(seed)
    kind = np.dtype(dt).kind
    if kind == "b":
        return rng.random(shape) < (0.95 if name == "logical_and" else 0.3)
    if name == "hypot" or name.startswith("logaddexp"):
        # its identity everywhere but one place: every partial result is
        # one of the values (hypot(x, 0) = |x|, logaddexp(x, -inf) = x)
        x = np.full(shape, 0.0 if name == "hypot" else -np.inf)
        x.flat[rng.integers(0, x.size)] = rng.integers(-2, 3)  # one: no rounding
        return x.astype(dt)
    if name == "multiply" and kind in "fc":
        # mostly +-1, sometimes 2 or 1/2: exact products, exponents that wander little
        x = rng.choice([1.0, -1.0, 2.0, 0.5], shape, p=[0.49, 0.49, 0.01, 0.01])
    elif kind in "fc":
        x = rng.integers(-2, 3, shape).astype(np.float64)  # sums stay small integers
    else:
        # integers wrap the same in any order; keep them in the dtype's range
        x = rng.integers(0 if kind == "u" else -3, 4, shape)
    if kind == "c":
        x = x * rng.choice([1, 1j], shape) if name == "multiply" else \
            x + 1j * rng.integers(-2, 3, shape)
    return x.astype(dt)


def _check(name, h, g, **kw):
    uf, ref = getattr(gp, name), getattr(np, name)
    want = ref.accumulate(h, **kw)
    got = uf.accumulate(g, **kw).get()
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want, err_msg=f"{name} {h.dtype} {h.shape} {kw}")


def _has_loop(name, dt) -> bool:
    c = np.dtype(dt).char
    return any(t.startswith(c + c + "->") for t in getattr(np, name).types)


@pytest.mark.parametrize("name, dt", [(n, d) for n in REORDERABLE for d in DTYPES
                                      if _has_loop(n, d)])
def test_every_reorderable_ufunc_and_dtype(name, dt):
    # float16 integers are exact to 2048, and its products of +-1 and 2^k stay in range
    n = 4097 if dt == "float16" else 37 * 4096 + 5
    h = _values(name, dt, n, 1)
    _check(name, h, gp.asarray(h))


@pytest.mark.parametrize("n", LENGTHS)
def test_lengths_around_tiles(n):
    for name, dt in (("add", "float32"), ("add", "int64"), ("maximum", "int32"),
                     ("multiply", "complex128"), ("logical_or", "bool")):
        h = _values(name, dt, n, n)
        _check(name, h, gp.asarray(h))


def test_signed_zero_survives_a_long_sum():
    # no neutral 0.0 is ever combined in: -0.0 + -0.0 stays -0.0
    for dt in ("float16", "float32", "float64"):
        h = np.full(3 * 4096 + 7, -0.0, dt)
        got = gp.add.accumulate(gp.asarray(h)).get()
        assert np.signbit(got).all(), dt


def test_nan_propagates_through_maximum():
    h = np.arange(3 * 4096, dtype=np.float32)
    h[5000] = np.nan
    for name in ("maximum", "minimum"):
        _check(name, h, gp.asarray(h))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_several_lines_and_layouts(axis):
    h = _values("add", "float64", (5, 3, 4100), 2)
    views = [lambda a: a, lambda a: a[:, :, ::-1], lambda a: a[::2, :, 1::3], lambda a: a[:, :, 1:],
             lambda a: a.transpose(2, 0, 1), lambda a: a.transpose(2, 1, 0)[::2]]
    for view in views:
        v = view(h)
        _check("add", v, view(gp.asarray(h)), axis=axis)
        _check("maximum", v, view(gp.asarray(h)), axis=axis)


def test_many_lines_of_a_few_tiles():
    h = _values("add", "int32", (300, 40), 3)
    for axis in (0, 1):
        _check("add", h, gp.asarray(h), axis=axis)
        _check("add", h.T, gp.asarray(h).T, axis=axis)
    # each line its own run of tiles and look-back (CUB's on CUDA)
    for dt in ("float32", "uint64"):
        h = _values("add", dt, (70, 7000), 6)
        _check("add", h, gp.asarray(h), axis=1)
        _check("add", h[:, 3:], gp.asarray(h)[:, 3:], axis=1)


def test_dtype_and_out():
    h = _values("add", "int8", 9000, 4)
    _check("add", h, gp.asarray(h), dtype=np.int64)
    _check("add", h, gp.asarray(h), dtype=np.float32)
    f = _values("add", "float32", 9000, 5)
    g = gp.asarray(f)
    gp.add.accumulate(g, out=g)  # in place: each element read before it is written
    np.testing.assert_array_equal(g.get(), np.add.accumulate(f))
    o = gp.empty(9000, dtype=np.float64)
    gp.add.accumulate(gp.asarray(f), out=o)
    np.testing.assert_array_equal(o.get(), np.add.accumulate(f, dtype=np.float64))
