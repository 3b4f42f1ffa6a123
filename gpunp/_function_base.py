"""NumPy's smaller numerical helpers, each a few device operations: sinc,
unwrap, trapezoid, the classic windows (bartlett, blackman, hamming,
hanning), sort_complex, numpy.cross (with its axisa/axisb/axisc), the
conversions asanyarray, asarray_chkfinite, require, the memory-overlap
questions may_share_memory and shares_memory, the broadcast object and
row_stack."""

from __future__ import annotations

import math
import warnings

import numpy

from gpunp import _lib
from gpunp._creation import _array, arange, asarray, ascontiguousarray, asfortranarray, empty, ones
from gpunp._differences import diff
from gpunp._indexing import where
from gpunp._joining import stack, vstack
from gpunp._manipulation import broadcast_shapes
from gpunp._ndarray import ndarray
from gpunp._shaping import copyto, moveaxis
from gpunp._sorting import sort
from gpunp._ufunc import UFUNCS

_sin, _cos, _equal, _isfinite, _absolute, _less, _remainder, _greater = (
    UFUNCS[n] for n in ("sin", "cos", "equal", "isfinite", "absolute", "less", "remainder",
                        "greater"))


def sinc(x):
    """sin(pi x) / (pi x), 1 at 0 (numpy.sinc, whose way of reaching 1 it
    takes: pi x replaced where 0 by the dtype's epsilon, 1e-20 for complex
    and integers)."""
    y = math.pi * _array(x)
    tiny = numpy.finfo(y.dtype).eps if y.dtype.kind == "f" else 1e-20
    y = where(_equal(y, 0), tiny, y)
    return _sin(y) / y


def unwrap(p, discont=None, axis=-1, *, period=2 * math.pi):
    """Adds multiples of `period` so that no step along `axis` exceeds
    max(discont, period/2) (numpy.unwrap)."""
    p = _array(p)
    dd = diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    dtype = numpy.result_type(dd.dtype, period)
    if numpy.issubdtype(dtype, numpy.integer):
        high, rem = divmod(period, 2)
        ambiguous = rem == 0  # an odd integer period has no step of exactly half of it
    else:
        high, ambiguous = period / 2, True
    # each step brought into [low, high); a step of exactly low that was a
    # rise is taken as high, as NumPy does (and as NumPy, a negative low
    # beside unsigned steps is an OverflowError)
    low = -high
    folded = _remainder(dd - low, period) + low
    if ambiguous:
        copyto(folded, high, where=_equal(folded, low) & _greater(dd, 0))
    correction = folded - dd
    copyto(correction, 0, where=_less(_absolute(dd), discont))
    up = p.astype(dtype, copy=True)
    tail = [slice(None)] * p.ndim
    tail[axis] = slice(1, None)
    up[tuple(tail)] = p[tuple(tail)] + correction.cumsum(axis)
    return up


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of y by the trapezoidal rule along `axis`
    (numpy.trapezoid), over sample points `x` or spacing `dx`."""
    y = _array(y)
    nd = y.ndim
    # the spacing first, as NumPy does: a 0-d x is diff's ValueError before
    # a 0-d y is an IndexError of its axis
    if x is None:
        d = dx
    else:
        x = _array(x)
        if x.ndim == 1:
            d = diff(x)
            shape = [1] * nd
            shape[axis] = d.shape[0]
            d = d.reshape(shape)
        else:
            d = diff(x, axis=axis)
    lo, hi = [slice(None)] * nd, [slice(None)] * nd
    lo[axis], hi[axis] = slice(None, -1), slice(1, None)
    return ((y[tuple(hi)] + y[tuple(lo)]) * d / 2.0).sum(axis)


def _window(M, shape):
    """An M-point symmetric window `shape(n, M - 1)` of n = 1-M, 3-M, ...,
    M-1, in NumPy's dtype (that of [0.0, M]): empty for M < 1, one point
    for M = 1."""
    dt = numpy.array([0.0, M]).dtype
    if M < 1:
        return empty(0, dt)
    if M == 1:
        return ones(1, dt)
    return shape(arange(1 - M, M, 2), M - 1).astype(dt, copy=False)


# each in NumPy's order of operations (pi * n / (M - 1), not pi * (n / ...)),
# so the host backend's values are NumPy's to the bit
def bartlett(M):
    """The triangular window (numpy.bartlett)."""
    return _window(M, lambda n, m: where(n <= 0, 1 + n / m, 1 - n / m))


def hanning(M):
    """The Hann window (numpy.hanning)."""
    return _window(M, lambda n, m: 0.5 + 0.5 * _cos(math.pi * n / m))


def hamming(M):
    """The Hamming window (numpy.hamming)."""
    return _window(M, lambda n, m: 0.54 + 0.46 * _cos(math.pi * n / m))


def blackman(M):
    """The Blackman window (numpy.blackman)."""
    return _window(M, lambda n, m: 0.42 + 0.5 * _cos(math.pi * n / m)
                   + 0.08 * _cos(2.0 * math.pi * n / m))


def sort_complex(a):
    """A sorted copy as complex (numpy.sort_complex): real part first, then
    imaginary; small integers become complex64, the rest complex128."""
    b = sort(_array(a), axis=-1)
    if b.dtype.kind == "c":
        return b
    small = b.dtype.char in "bhBH"
    return b.astype(numpy.complex64 if small else numpy.complex128)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 3-vectors along the given axes (numpy.cross);
    2-vectors, which NumPy 2 deprecates and NumPy 2.5 removes, are refused."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = _array(a), _array(b)
    if a.ndim < 1 or b.ndim < 1:  # before NumPy reads the axes
        raise ValueError("At least one array has zero dimension")
    a, b = moveaxis(a, axisa, -1), moveaxis(b, axisb, -1)
    if _lib._numpy_version() >= 20500 and (a.shape[-1] != 3 or b.shape[-1] != 3):
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, "
                         f"but they are {a.shape[-1]} and {b.shape[-1]} dimensional instead.")
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n"
                         "(dimension must be 2 or 3)")
    if a.shape[-1] == 2 or b.shape[-1] == 2:
        raise ValueError("arrays of 2-dimensional vectors are not supported (NumPy 2 "
                         "deprecates them): use 3-dimensional vectors")
    return moveaxis(cross_last(a, b), -1, axisc)


def cross_last(a, b):
    """The cross products of the 3-vectors along a's and b's last axes
    (numpy.linalg.cross's too)."""
    a0, a1, a2 = (a[..., i] for i in range(3))
    b0, b1, b2 = (b[..., i] for i in range(3))
    return stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)


def asanyarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """asarray: gpunp has no ndarray subclasses to pass through."""
    return asarray(a, dtype, order, device=device, copy=copy, like=like)


def asarray_chkfinite(a, dtype=None, order=None):
    """asarray, refusing NaN and infinities (numpy.asarray_chkfinite; one
    reduction's answer comes to the host)."""
    a = asarray(a, dtype, order)
    if a.dtype.kind in "fc" and not bool(_isfinite(a).all()):
        raise ValueError("array must not contain infs or NaNs")
    return a


_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F",
                 "F_CONTIGUOUS": "F", "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W",
                 "WRITEABLE": "W", "O": "O", "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None):
    """An array of `dtype` meeting `requirements` (numpy.require: C or F
    contiguity, writeable, owning its data; every gpunp array is aligned and
    a base-class ndarray)."""
    # a string is a sequence of one-letter requirements, as in NumPy; an
    # unknown one is NumPy's KeyError
    want = {_REQUIREMENTS[r.upper()] for r in (requirements or ())}
    if {"C", "F"} <= want:
        raise ValueError("Cannot specify both \"C\" and \"F\" order")
    arr = asarray(a, dtype)
    if "C" in want:
        arr = ascontiguousarray(arr)
    elif "F" in want:
        arr = asfortranarray(arr)
    if ("W" in want and not arr.flags.writeable) or ("O" in want and not arr.flags.owndata):
        arr = arr.copy(order="F" if "F" in want else "C" if "C" in want else "K")
    return arr


class _Addresses:
    """NumPy's view of where a gpunp array's elements lie: an array
    interface with the device address and strides, which NumPy's overlap
    solver reads without touching the memory."""

    def __init__(self, a: ndarray):
        self.__array_interface__ = {"shape": a.shape, "typestr": a.dtype.str,
                                    "data": (a.data_ptr, False), "strides": a.strides,
                                    "version": 3}


def may_share_memory(a, b, max_work=None) -> bool:
    """Whether the memory bounds of two gpunp arrays overlap
    (numpy.may_share_memory, on the arrays' device addresses); other objects
    share nothing with the device."""
    if not (isinstance(a, ndarray) and isinstance(b, ndarray)):
        return False
    return bool(numpy.may_share_memory(numpy.asarray(_Addresses(a)),
                                       numpy.asarray(_Addresses(b)), max_work=max_work))


def shares_memory(a, b, max_work=None) -> bool:
    """Whether two gpunp arrays have an element's memory in common
    (numpy.shares_memory's exact answer, from the arrays' addresses and
    strides; max_work as NumPy's)."""
    if not (isinstance(a, ndarray) and isinstance(b, ndarray)):
        return False
    return bool(numpy.shares_memory(numpy.asarray(_Addresses(a)), numpy.asarray(_Addresses(b)),
                                    max_work=max_work))


class broadcast:
    """numpy.broadcast of gpunp arrays (and scalars): the broadcast shape,
    ndim, size and operand count; iterating it walks host copies."""

    def __init__(self, *args):
        if len(args) > 64:
            raise ValueError(f"Need at most 64 array objects, got {len(args)}")
        self._args = [_array(x) for x in args]
        self.shape = broadcast_shapes(*(x.shape for x in self._args))
        self.nd = self.ndim = len(self.shape)
        self.size = math.prod(self.shape)
        self.numiter = len(self._args)
        self.reset()

    def reset(self):
        self.index = 0
        self._it = None

    @property
    def iters(self):
        return tuple(numpy.broadcast_to(x.get(), self.shape).flat for x in self._args)

    def __iter__(self):
        return self

    def __next__(self):
        if self._it is None:
            self._it = numpy.broadcast(*(x.get() for x in self._args))
            for _ in range(self.index):
                next(self._it)
        v = next(self._it)
        self.index += 1
        return v


def row_stack(tup, *, dtype=None, casting="same_kind"):
    """vstack under its old name, with NumPy's DeprecationWarning."""
    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.",
                  DeprecationWarning, stacklevel=2)
    return vstack(tup, dtype=dtype, casting=casting)
