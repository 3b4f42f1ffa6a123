"""Random numbers from Philox4x32-10 streams made by the engine's kernels.

A stream is a pure function of a 64-bit key and a 128-bit counter, so the
host backend and every GPU give the same bits for the same seed (see
docs/architecture.md, "Random numbers"). `Philox` holds the key and the
counter; `Generator` turns streams into NumPy's distributions.

``size=None`` gives a 0-d gpunp array, as CuPy does (NumPy gives a Python or
NumPy scalar): a scalar would need a copy back to the host.
"""

from __future__ import annotations

import operator

import numpy

import gpunp
from gpunp._lib import check, ffi, lib
from gpunp._ndarray import ndarray
from gpunp.random._common import _F64, _check_out, _empty, _float_dtype, _integer, _shape
from gpunp.random._distributions import Distributions
from gpunp.random._permutations import Permutations

#: numpy.random.SeedSequence, used as is: seeds become key words on the host
SeedSequence = numpy.random.SeedSequence

_MASK32 = 0xFFFFFFFF
_MASK64 = (1 << 64) - 1
_BLOCKS = 1 << 96  # the block index (counter words 0-2) wraps at 2^96


def _is_scalar(x) -> bool:
    return not isinstance(x, ndarray) and numpy.ndim(x) == 0


def _float(x) -> float:
    """A scalar parameter as a Python float (a gpunp 0-d array included)."""
    return float(x.get() if isinstance(x, ndarray) else x)


class BitGenerator:
    """The base class of gpunp's bit generators (numpy.random.BitGenerator):
    a seed sequence and children spawned from it; a subclass makes the
    numbers."""

    def __init__(self, seed=None):
        self._seed_seq = seed if isinstance(seed, numpy.random.bit_generator.ISeedSequence) \
            else SeedSequence(seed)

    @property
    def seed_seq(self):
        """The SeedSequence the generator's state came from."""
        return self._seed_seq

    def random_raw(self, size=None, output=True):
        raise NotImplementedError("BitGenerator is a base class and cannot be instantized")

    @property
    def state(self) -> dict:
        raise NotImplementedError("BitGenerator is a base class and cannot be instantized")

    def spawn(self, n_children: int) -> list:
        return [type(self)(ss) for ss in self._seed_seq.spawn(n_children)]


class Philox(BitGenerator):
    """Philox4x32-10: a counter-based bit generator (Random123's
    philox4x32_R(10, counter, key)).

    `seed` goes through :class:`SeedSequence` (numpy.random.SeedSequence),
    whose first two uint32 words of ``generate_state`` are the key, unless
    `key` (an integer below 2^64; word 0 its low half) is given instead.
    `counter` (below 2^128) is the counter of the next block: words 0-2
    (bits 0-95) index blocks of the stream, word 3 is the base of the
    rejection samplers' attempt number. Every call uses whole blocks of four
    words; the counter advances by the number used.

    The streams are not NumPy's ``Philox``, which is Philox4x64.
    """

    def __init__(self, seed=None, *, counter=None, key=None):
        if key is not None:
            if seed is not None:
                raise ValueError("seed and key cannot be both used")
            key = operator.index(key)
            if not 0 <= key <= _MASK64:
                raise ValueError("key must be a non-negative integer below 2**64")
            self._seed_seq = None
            self._key = (key & _MASK32, key >> 32)
        else:
            ss = seed if isinstance(seed, numpy.random.bit_generator.ISeedSequence) else \
                SeedSequence(seed)
            w = ss.generate_state(2, numpy.uint32)
            self._seed_seq = ss
            self._key = (int(w[0]), int(w[1]))
        counter = 0 if counter is None else operator.index(counter)
        if not 0 <= counter < 1 << 128:
            raise ValueError("counter must be a non-negative integer below 2**128")
        self._counter = counter

    @property
    def state(self) -> dict:
        return {"bit_generator": "Philox4x32",
                "state": {"counter": self._counter, "key": self._key[0] | self._key[1] << 32}}

    @state.setter
    def state(self, value: dict) -> None:
        if not isinstance(value, dict) or value.get("bit_generator") != "Philox4x32":
            raise ValueError("state must be a dict of a Philox4x32 generator")
        counter = operator.index(value["state"]["counter"])
        key = operator.index(value["state"]["key"])
        if not (0 <= counter < 1 << 128 and 0 <= key <= _MASK64):
            raise ValueError("counter or key out of range")
        self._counter, self._key = counter, (key & _MASK32, key >> 32)

    def advance(self, delta: int) -> "Philox":
        """Skips `delta` blocks of four words (modulo 2^96)."""
        delta = operator.index(delta)
        c = self._counter
        self._counter = (c >> 96 << 96) | ((c + delta) % _BLOCKS)
        return self

    def jumped(self, jumps: int = 1) -> "Philox":
        """A copy whose counter is 2^64 * jumps blocks ahead: a stream that
        does not meet this one's next 2^64 blocks."""
        g = Philox(key=self._key[0] | self._key[1] << 32, counter=self._counter)
        g._seed_seq = self._seed_seq
        return g.advance(operator.index(jumps) << 64)

    def spawn(self, n_children: int) -> list:
        """Child bit generators from the seed sequence's children (keys of
        their own, counters at 0)."""
        if self._seed_seq is None:
            raise TypeError("The underlying SeedSequence does not implement spawning. "
                            "(this Philox was made from a key)")
        return [Philox(ss) for ss in self._seed_seq.spawn(n_children)]

    def random_raw(self, size=None, output=True):
        """Raw 64-bit words (two words of a block each, the first the low
        half), as a uint64 array; with ``output=False`` only advances."""
        shape = _shape(size)
        out = _empty(shape, numpy.uint64)
        self._fill(out, lib.GP_RANDOM_BITS)
        return out if output else None

    def _fill(self, out: ndarray, dist: int, a: float = 0.0, b: float = 1.0, low: int = 0,
              range1: int = 0, params=None, vec=None) -> ndarray:
        """One engine fill of `out`; `params` are the (f, i, arr) triples of
        the distributions from GP_RANDOM_GAMMA on, `vec` a row
        distribution's parameter array."""
        args = ffi.new("gp_random_args_t *")
        if params is not None:
            f, i, arr = params
            args.f = f
            args.i = i
            args.arr = [ffi.NULL if x is None else x._h for x in arr]
        if vec is not None:
            args.vec = vec._h
        args.dist = dist
        args.key = self._key
        c = self._counter
        args.counter = (c & _MASK32, c >> 32 & _MASK32, c >> 64 & _MASK32, c >> 96)
        args.a = a
        args.b = b
        args.low = low & _MASK64
        args.range1 = range1
        blocks = ffi.new("uint64_t *")
        check(lib.gp_random_fill(out._h, args, blocks))
        self.advance(blocks[0])
        return out

    def __repr__(self):
        return f"Philox(key={self.state['state']['key']:#x}, counter={self._counter:#x})"


class Generator(Distributions, Permutations):
    """NumPy's ``Generator`` over a :class:`Philox` bit generator; every
    method makes its numbers on the current device with one engine call
    (scalar parameters) or a few ufuncs more (array parameters)."""

    def __init__(self, bit_generator: Philox):
        if not isinstance(bit_generator, Philox):
            raise TypeError("gpunp.random.Generator needs a gpunp.random.Philox bit generator")
        self._bit_generator = bit_generator

    @property
    def bit_generator(self) -> Philox:
        return self._bit_generator

    def __repr__(self):
        return f"Generator(Philox) at {id(self):#x}"

    def bytes(self, length: int) -> bytes:
        """`length` random bytes (Python bytes, so copied to the host): the
        stream's words, little-endian, whole counter blocks a call."""
        n = operator.index(length)
        if n < 0:
            raise ValueError("negative dimensions are not allowed")
        words = self._bit_generator.random_raw((n + 7) // 8).get()
        return words.astype("<u8").tobytes()[:n]

    def spawn(self, n_children: int) -> list:
        """Independent child generators (numpy.random.Generator.spawn)."""
        return [Generator(bg) for bg in self._bit_generator.spawn(n_children)]

    # ---- the distributions --------------------------------------------------------------

    def _float_fill(self, dist, dtype, size, out, name, a=0.0, b=1.0) -> ndarray:
        dt = _float_dtype(dtype, name)
        if out is not None:
            _check_out(out, dt, size, name)
        else:
            out = _empty(_shape(size), dt)
        return self._bit_generator._fill(out, dist, a, b)

    def random(self, size=None, dtype=numpy.float64, out=None) -> ndarray:
        """Uniform floats in [0, 1): float64 from the top 53 bits of two
        words, float32 from the top 24 of one."""
        return self._float_fill(lib.GP_RANDOM_UNIFORM, dtype, size, out, "random")

    def standard_normal(self, size=None, dtype=numpy.float64, out=None) -> ndarray:
        """Standard normal floats (Box-Muller; float32 is the float64 value
        rounded)."""
        return self._float_fill(lib.GP_RANDOM_NORMAL, dtype, size, out, "standard_normal")

    def standard_exponential(self, size=None, dtype=numpy.float64, method="zig",
                             out=None) -> ndarray:
        """Exponential floats of scale 1: -log(u), u in (0, 1]. `method` is
        accepted for NumPy's signature; both give this one stream."""
        if method not in ("zig", "inv"):
            raise ValueError("method must be either 'zig' or 'inv'")
        return self._float_fill(lib.GP_RANDOM_EXPONENTIAL, dtype, size, out,
                                "standard_exponential")

    def _affine(self, dist, a, b, size, shift_scale, name) -> ndarray:
        """a + b * x of a standard variate x of `dist`: one fill for scalar
        a and b, else the standard variates over the broadcast shape and
        the ufuncs (the same IEEE operations, so the same bits)."""
        if _is_scalar(a) and _is_scalar(b):
            fa, fb = shift_scale(_float(a), _float(b))
            out = _empty(_shape(size), _F64)
            return self._bit_generator._fill(out, dist, fa, fb)
        a_ = gpunp.asarray(a, dtype=_F64)
        b_ = gpunp.asarray(b, dtype=_F64)
        a_, b_ = shift_scale(a_, b_)
        shape = gpunp.broadcast_shapes(a_.shape, b_.shape)
        if size is not None:
            shape = gpunp.broadcast_shapes(_shape(size), shape)
            if shape != _shape(size):
                raise ValueError("shape mismatch: objects cannot be broadcast to a single shape")
        x = self._bit_generator._fill(_empty(shape, _F64), dist)
        return a_ + b_ * x

    def normal(self, loc=0.0, scale=1.0, size=None) -> ndarray:
        """loc + scale * z, z standard normal."""
        def check(a, b):
            if bool((b < 0).any() if isinstance(b, ndarray) else b < 0):
                raise ValueError("scale < 0")
            return a, b
        return self._affine(lib.GP_RANDOM_NORMAL, loc, scale, size, check, "normal")

    def uniform(self, low=0.0, high=1.0, size=None) -> ndarray:
        """low + (high - low) * u, u uniform in [0, 1)."""
        def span(a, b):
            d = b - a
            if isinstance(d, ndarray):
                ok = bool(((d - d) == 0).all())  # inf - inf and nan - nan are nan
            else:
                ok = numpy.isfinite(d)
            if not ok:
                raise OverflowError("high - low range exceeds valid bounds")
            if bool((d < 0).any() if isinstance(d, ndarray) else d < 0):
                raise ValueError("high - low < 0")
            return a, d
        return self._affine(lib.GP_RANDOM_UNIFORM, low, high, size, span, "uniform")

    def exponential(self, scale=1.0, size=None) -> ndarray:
        """scale * e, e standard exponential."""
        def check(a, b):
            if bool((b < 0).any() if isinstance(b, ndarray) else b < 0):
                raise ValueError("scale < 0")
            return a, b
        return self._affine(lib.GP_RANDOM_EXPONENTIAL, 0.0, scale, size, check, "exponential")

    def integers(self, low, high=None, size=None, dtype=numpy.int64,
                 endpoint=False) -> ndarray:
        """Uniform integers in [low, high) (or [low, high] with `endpoint`),
        unbiased (Lemire's method; a rejected word is redrawn from the same
        block's next attempt). Ranges up to 2^32 values use one word an
        element, larger ones two."""
        dt = numpy.dtype(dtype)
        if dt.kind not in "biu":
            raise TypeError(f"Unsupported dtype {dt!r} for integers")
        if high is None:
            low, high = 0, low
        lo, hi = _integer(low, "low"), _integer(high, "high")
        if not endpoint:
            if lo >= hi:
                raise ValueError("low >= high")
            hi -= 1
        elif lo > hi:
            raise ValueError("low > high")
        info = (0, 1) if dt.kind == "b" else (numpy.iinfo(dt).min, numpy.iinfo(dt).max)
        name = "bool" if dt.kind == "b" else str(dt)
        if lo < info[0]:
            raise ValueError(f"low is out of bounds for {name}")
        if hi > info[1]:
            raise ValueError(f"high is out of bounds for {name}")
        out = _empty(_shape(size), dt)
        return self._bit_generator._fill(out, lib.GP_RANDOM_INTEGERS, low=lo, range1=hi - lo)


def default_rng(seed=None) -> Generator:
    """A Generator over Philox seeded from `seed` (None: fresh entropy; an
    int, a sequence of ints, a SeedSequence; a Philox or a Generator is used
    as is)."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, Philox):
        return Generator(seed)
    return Generator(Philox(seed))
