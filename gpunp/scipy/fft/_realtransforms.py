"""scipy.fft's discrete cosine and sine transforms, types 1 to 4, each from
one FFT of about the signal's length (gpunp.fft, cuFFT on a GPU) and a few
elementwise passes, so every one is O(n log n):

- DCT-I is the real FFT of the signal's even extension (length 2(n - 1));
  DST-I of its odd extension (length 2(n + 1)).
- DCT-II is Makhoul's: the even samples, then the odd ones reversed, one
  real FFT of length n, a twiddle, and the spectrum's second half from the
  first half's imaginary parts. DCT-III runs the same steps backwards
  through one inverse real FFT.
- DCT-IV is one complex FFT of length 2n of the pre-twiddled signal.
- DST-II, -III and -IV are the DCTs of the same type with the signal's or
  the result's order reversed and every other sign flipped.

The inverse of each type is the transform of the inverse type (II and III
swap) with the normalisation applied in the other direction; a complex
signal's transform is that of its real and imaginary parts. Twiddle
factors are made on the device and kept for the last few lengths."""

from __future__ import annotations

import functools
import math

import numpy

import gpunp
import gpunp.fft as _fft

from gpunp.scipy._version import scipy_version
from gpunp.scipy.fft._basic import _input, check_norm, cook_nd
from gpunp.scipy.fft._helper import check_workers

_INVERSE_TYPE = {1: 1, 2: 3, 3: 2, 4: 4}
_SWAPPED = {"backward": "forward", "ortho": "ortho", "forward": "backward"}


@functools.lru_cache(maxsize=16)
def _twiddle(n: int, count: int, step: float, offset: float, scale: float, dt,
             device_id: int):
    """scale exp(i pi (step k + offset) / (2n)) for k < count, in complex
    dtype dt (computed in double precision on the device)."""
    k = gpunp.arange(count, dtype=numpy.float64)
    angle = (k * step + offset) * (math.pi / (2 * n))
    return ((gpunp.cos(angle) + 1j * gpunp.sin(angle)) * scale).astype(dt)


def _tw(n, count, step, offset, rt, scale=1.0):
    ct = numpy.result_type(rt, numpy.complex64)
    return _twiddle(n, count, step, offset, float(scale), ct, gpunp.cuda.Device().id)


# Each transform takes the real signal x (its last axis transformed) and
# the normalisation factor, which it folds into a twiddle or a pass it makes
# anyway, and returns a new C-ordered array.

def _dct2(x, fct):
    n = x.shape[-1]
    h = n // 2 + 1
    v = gpunp.concatenate([x[..., ::2], x[..., 1::2][..., ::-1]], axis=-1)
    z = _fft.rfft(v)
    gpunp.multiply(z, _tw(n, h, -1.0, 0.0, x.dtype, 2 * fct), out=z)
    # y[k] = Re z[k] for k <= n/2; y[n - k] = -Im z[k] for the rest
    y = gpunp.empty(x.shape, x.dtype)
    y[..., :h] = z.real
    gpunp.negative(z.imag[..., 1:(n + 1) // 2][..., ::-1], out=y[..., h:])
    return y


def _dct3(x, fct):
    n = x.shape[-1]
    h = n // 2 + 1
    z = gpunp.empty(x.shape[:-1] + (h,), numpy.result_type(x.dtype, numpy.complex64))
    z.real[...] = x[..., :h]
    z.imag[..., :1] = 0
    gpunp.negative(x[..., ::-1][..., :h - 1], out=z.imag[..., 1:])
    gpunp.multiply(z, _tw(n, h, 1.0, 0.0, x.dtype, fct), out=z)
    v = _fft.irfft(z, n, norm="forward")
    y = gpunp.empty(x.shape, x.dtype)
    y[..., ::2] = v[..., :(n + 1) // 2]
    y[..., 1::2] = v[..., ::-1][..., :n // 2]
    return y


def _dct1(x, fct):
    v = gpunp.concatenate([x, x[..., -2:0:-1]], axis=-1)
    return _fft.rfft(v).real * fct


def _dct4(x, fct):
    n = x.shape[-1]
    z = _fft.fft(x * _tw(n, n, -1.0, 0.0, x.dtype), 2 * n)[..., :n]
    return (z * _tw(n, n, -1.0, -0.5, x.dtype, 2 * fct)).real.astype(x.dtype, copy=False)


def _dst1(x, fct):
    zero = gpunp.zeros(x.shape[:-1] + (1,), x.dtype)
    v = gpunp.concatenate([zero, x, zero, -x[..., ::-1]], axis=-1)
    return _fft.rfft(v).imag[..., 1:x.shape[-1] + 1] * -fct


def _alternate(x):
    y = x.copy()
    y[..., 1::2] *= -1
    return y


_DCT = {1: _dct1, 2: _dct2, 3: _dct3, 4: _dct4}
_DST = {
    1: _dst1,
    2: lambda x, fct: gpunp.ascontiguousarray(_dct2(_alternate(x), fct)[..., ::-1]),
    3: lambda x, fct: _alternate(_dct3(x[..., ::-1], fct)),
    4: lambda x, fct: _alternate(_dct4(x[..., ::-1], fct)),
}


def _scaled(x, kind, type, norm, orthogonalize):
    """The unscaled transform of the last axis of real x, with SciPy's
    normalisation and its orthogonalising weights on the first or last
    terms."""
    n = x.shape[-1]
    period = 2 * (n - 1) if (kind, type) == ("dct", 1) else (
        2 * (n + 1) if (kind, type) == ("dst", 1) else 2 * n)
    fct = {"backward": 1.0, "forward": 1.0 / period, "ortho": 1.0 / math.sqrt(period)}[norm]
    # orthogonalize: which term is weighted before (by sqrt 2) and after (by
    # 1/sqrt 2) the transform, per type
    pre = post = ()
    if orthogonalize:
        pre, post = {("dct", 1): ((0, -1), (0, -1)), ("dct", 2): ((), (0,)),
                     ("dct", 3): ((0,), ()), ("dst", 2): ((), (-1,)),
                     ("dst", 3): ((-1,), ())}.get((kind, type), ((), ()))
    if pre and n > 0:
        x = x.copy()
        for i in set(i % n for i in pre):
            x[..., i] *= math.sqrt(2)
    y = (_DCT if kind == "dct" else _DST)[type](x, fct).astype(x.dtype, copy=False)
    for i in set(i % n for i in post):
        y[..., i] *= 1 / math.sqrt(2)
    return y


def _fit(x, axis, n):
    """x cropped or zero-padded to n along axis (the last)."""
    m = x.shape[axis]
    if n == m:
        return x
    if n < m:
        return x[..., :n]
    pad = gpunp.zeros(x.shape[:-1] + (n - m,), x.dtype)
    return gpunp.concatenate([x, pad], axis=-1)


def _one(kind, x, type, n, axis, norm, orthogonalize, inverse):
    if type not in _DCT:
        raise ValueError(f"invalid {kind.upper()} type")
    norm = check_norm(norm)
    # SciPy's order: n is checked before the axis, which indexes the shape
    if n is not None and n < 1:
        raise ValueError(f"invalid number of data points ({n}) specified")
    if not -x.ndim <= axis < x.ndim:
        raise IndexError("tuple index out of range")
    if n is None:
        n = x.shape[axis]
    if n < 1:
        raise ValueError(f"invalid number of data points ({n}) specified")
    shape = list(x.shape)
    shape[axis] = n
    if 0 in shape:
        # nothing to transform (SciPy does not look at the type's length then)
        return gpunp.empty(tuple(shape), x.dtype)
    if inverse:
        type, norm = _INVERSE_TYPE[type], _SWAPPED[norm]
    if (kind, type, n) == ("dct", 1, 1):
        # DCT-I of one point has a period of zero: pocketfft's error, or
        # the gist of ducc0's failed assertion from SciPy 1.18 on
        raise RuntimeError("no zero-sized FFTs" if scipy_version() >= 11800 else
                           "zero-length FFT requested")
    if orthogonalize is None or x.dtype.kind == "c":
        # SciPy transforms a complex signal's parts without its
        # orthogonalize argument, so there the default always holds
        orthogonalize = norm == "ortho"
    xl = _fit(gpunp.moveaxis(x, axis, -1), -1, n)
    if x.dtype.kind == "c":
        re = _scaled(gpunp.ascontiguousarray(xl.real), kind, type, norm, orthogonalize)
        im = _scaled(gpunp.ascontiguousarray(xl.imag), kind, type, norm, orthogonalize)
        y = gpunp.empty(re.shape, x.dtype)
        y.real[...] = re
        y.imag[...] = im
    else:
        y = _scaled(xl, kind, type, norm, orthogonalize)
    return gpunp.ascontiguousarray(gpunp.moveaxis(y, -1, axis))


def _public_1d(kind, inverse):
    name = ("i" if inverse else "") + kind

    def transform(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None,
                  orthogonalize=None):
        check_workers(workers)
        return _one(kind, _input(x), type, n, axis, norm, orthogonalize, inverse)

    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = (f"scipy.fft.{name}: the {'inverse ' if inverse else ''}discrete "
                         f"{'cosine' if kind == 'dct' else 'sine'} transform of a gpunp "
                         "array, types 1-4, on the device.")
    return transform


def _public_nd(kind, inverse):
    name = ("i" if inverse else "") + kind + "n"

    def transform(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None,
                  *, orthogonalize=None):
        check_workers(workers)
        x = _input(x)
        if type not in _DCT:
            raise ValueError(f"invalid {kind.upper()} type")
        s, axes = cook_nd(x, s, axes)
        for n, a in zip(s, axes):
            x = _one(kind, x, type, n, a, norm, orthogonalize, inverse)
        return x

    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = (f"scipy.fft.{name}: the {'inverse ' if inverse else ''}"
                         f"{'cosine' if kind == 'dct' else 'sine'} transform over several "
                         "axes of a gpunp array, one axis after another.")
    return transform


dct, idct, dst, idst = (_public_1d(k, i) for k in ("dct", "dst") for i in (False, True))
dctn, idctn, dstn, idstn = (_public_nd(k, i) for k in ("dct", "dst") for i in (False, True))
