"""``gpunp.scipy.fftpack``: SciPy's legacy ``scipy.fftpack`` for gpunp arrays.

Its transforms are gpunp.scipy.fft's with fftpack's signatures: no norm for
the complex transforms, ``shape`` for ``s``, an unnormalised inverse DCT
and DST when ``norm`` is None, and real transforms in fftpack's packed
layout (``[y0, Re y1, Im y1, ...]``, a real array of the signal's length).
The differential operators (``diff``, ``hilbert``, ``shift``...) are not
here yet."""

from __future__ import annotations

import numpy

import gpunp
import gpunp.fft as _fft
from gpunp.scipy import fft as _sfft
from gpunp.scipy.fft import fftshift, get_fft_plan, ifftshift

__all__ = [
    "fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "fft2", "ifft2", "fftfreq", "rfftfreq",
    "fftshift", "ifftshift", "next_fast_len", "dct", "idct", "dst", "idst", "dctn", "idctn",
    "dstn", "idstn", "get_fft_plan",
]


def fft(x, n=None, axis=-1, overwrite_x=False):
    """scipy.fftpack.fft."""
    return _sfft.fft(x, n, axis)


def ifft(x, n=None, axis=-1, overwrite_x=False):
    """scipy.fftpack.ifft."""
    return _sfft.ifft(x, n, axis)


def fftn(x, shape=None, axes=None, overwrite_x=False):
    """scipy.fftpack.fftn."""
    return _sfft.fftn(x, shape, axes)


def ifftn(x, shape=None, axes=None, overwrite_x=False):
    """scipy.fftpack.ifftn."""
    return _sfft.ifftn(x, shape, axes)


def fft2(x, shape=None, axes=(-2, -1), overwrite_x=False):
    """scipy.fftpack.fft2."""
    return _sfft.fftn(x, shape, axes)


def ifft2(x, shape=None, axes=(-2, -1), overwrite_x=False):
    """scipy.fftpack.ifft2."""
    return _sfft.ifftn(x, shape, axes)


def _real_input(x):
    if isinstance(x, numpy.ndarray):  # no implicit transfer, as gpunp's own
        raise TypeError(f"Unsupported type {type(x)}: use gpunp.asarray(x) to move it")
    x = gpunp.asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("1st argument must be real sequence")
    if x.dtype.kind in "biu":
        return x.astype(numpy.float64)
    return x.astype(numpy.float32) if x.dtype == numpy.float16 else x


def rfft(x, n=None, axis=-1, overwrite_x=False):
    """scipy.fftpack.rfft: the half spectrum packed into a real array,
    y0, then the real and imaginary parts of y1, y2..., interleaved."""
    x = _real_input(x)
    m = x.shape[axis] if n is None else n
    if m < 1:
        raise ValueError(f"invalid number of data points ({m}) specified")
    z = gpunp.moveaxis(_sfft.rfft(x, n, axis), axis, -1)
    out = gpunp.empty(z.shape[:-1] + (m,), x.dtype)
    out[..., 0] = z[..., 0].real
    out[..., 1::2] = z[..., 1:].real[..., :(m // 2)]
    out[..., 2::2] = z[..., 1:].imag[..., :(m - 1) // 2]
    return gpunp.ascontiguousarray(gpunp.moveaxis(out, -1, axis))


def irfft(x, n=None, axis=-1, overwrite_x=False):
    """scipy.fftpack.irfft: the inverse of :func:`rfft`, from its packed
    layout."""
    x = _real_input(x)
    m = x.shape[axis] if n is None else n
    if m < 1:
        raise ValueError(f"invalid number of data points ({m}) specified")
    p = gpunp.moveaxis(x, axis, -1)
    if p.shape[-1] > m:
        p = p[..., :m]
    elif p.shape[-1] < m:
        p = gpunp.concatenate([p, gpunp.zeros(p.shape[:-1] + (m - p.shape[-1],), p.dtype)],
                              axis=-1)
    ct = numpy.result_type(x.dtype, numpy.complex64)
    z = gpunp.zeros(p.shape[:-1] + (m // 2 + 1,), ct)
    z.real[..., 0] = p[..., 0]
    z.real[..., 1:1 + m // 2] = p[..., 1::2]
    z.imag[..., 1:1 + (m - 1) // 2] = p[..., 2::2]
    r = _fft.irfft(z, m, axis=-1).astype(x.dtype, copy=False)
    return gpunp.ascontiguousarray(gpunp.moveaxis(r, -1, axis))


def fftfreq(n, d=1.0):
    """scipy.fftpack.fftfreq."""
    return _fft.fftfreq(n, d)


def rfftfreq(n, d=1.0):
    """scipy.fftpack.rfftfreq: the frequency of each term of rfft's packed
    output (0, 1, 1, 2, 2... over n d)."""
    if not isinstance(n, (int, numpy.integer)) or n < 0:
        raise ValueError(f"n = {n} is not valid. n must be a nonnegative integer.")
    return (gpunp.arange(1, n + 1, dtype=int) // 2) / float(n * d)


def next_fast_len(target):
    """scipy.fftpack.next_fast_len: the next 5-smooth length."""
    return _sfft.next_fast_len(target, real=True)


def _fftpack_norm(norm, inverse):
    # fftpack's inverse with norm None is unnormalised: the forward transform
    # of the inverse type
    if norm not in (None, "ortho", "backward", "forward"):
        raise ValueError(f'Invalid norm value {norm!r}, should be "backward", "ortho" or '
                         '"forward"')
    if norm is None and inverse:
        return "forward"
    return norm


def _r2r(name, inverse):
    fn = getattr(_sfft, name)

    def transform(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False):
        return fn(x, type, n, axis, _fftpack_norm(norm, inverse))

    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = f"scipy.fftpack.{name}."
    return transform


def _r2rn(name, inverse):
    fn = getattr(_sfft, name)

    def transform(x, type=2, shape=None, axes=None, norm=None, overwrite_x=False):
        return fn(x, type, shape, axes, _fftpack_norm(norm, inverse))

    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = f"scipy.fftpack.{name}."
    return transform


dct, dst = _r2r("dct", False), _r2r("dst", False)
idct, idst = _r2r("idct", True), _r2r("idst", True)
dctn, dstn = _r2rn("dctn", False), _r2rn("dstn", False)
idctn, idstn = _r2rn("idctn", True), _r2rn("idstn", True)
