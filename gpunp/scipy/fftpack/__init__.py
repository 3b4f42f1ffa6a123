"""``gpunp.scipy.fftpack``: SciPy's legacy ``scipy.fftpack`` for gpunp arrays.

Its transforms are gpunp.scipy.fft's with fftpack's signatures: no norm for
the complex transforms, ``shape`` for ``s``, an unnormalised inverse DCT
and DST when ``norm`` is None, and real transforms in fftpack's packed
layout (``[y0, Re y1, Im y1, ...]``, a real array of the signal's length).
The pseudo-differential operators (``diff``, ``hilbert``, ``tilbert``,
``shift``...) multiply a periodic sequence's Fourier coefficients by their
kernel on the device."""

from __future__ import annotations

import numpy

import gpunp
import gpunp.fft as _fft
from gpunp.scipy import fft as _sfft
from gpunp.scipy.fft import fftshift, get_fft_plan, ifftshift

__all__ = [
    "fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "fft2", "ifft2", "fftfreq", "rfftfreq",
    "fftshift", "ifftshift", "next_fast_len", "dct", "idct", "dst", "idst", "dctn", "idctn",
    "dstn", "idstn", "get_fft_plan", "diff", "tilbert", "itilbert", "hilbert", "ihilbert",
    "cs_diff", "sc_diff", "ss_diff", "cc_diff", "shift",
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


# ---- pseudo-differential operators of periodic sequences --------------------------------
#
# Each multiplies the Fourier coefficients x_j of a 1-D periodic sequence
# by a kernel of the frequency j (c = 2 pi / period), on the device: one
# real FFT, one product, one inverse real FFT. The kernel is that of a real
# operator, odd (i times an odd function of j: its Nyquist term, for an
# even length, is zero), even (kept there), or, for shift, both (fftpack's
# packed convolution applies cos + sin there). SciPy computes in double
# precision and transforms a complex sequence's parts one after the other;
# so does gpunp.

def _pseudo(x, kernel, nyquist):
    x = _real_or_complex_input(x)
    if x.dtype.kind == "c":
        return _pseudo(gpunp.ascontiguousarray(x.real), kernel, nyquist) + 1j * _pseudo(
            gpunp.ascontiguousarray(x.imag), kernel, nyquist)
    n = x.shape[-1]
    if n == 0:
        raise ZeroDivisionError("float division")
    spec = _fft.rfft(x)
    j = gpunp.arange(n // 2 + 1, dtype=numpy.float64)
    with numpy.errstate(all="ignore"):
        k = kernel(j)
        if n % 2 == 0:
            k[-1:] = nyquist(j[-1:])
    return _fft.irfft(spec * k, n)


def _real_or_complex_input(x):
    if isinstance(x, numpy.ndarray):  # no implicit transfer, as gpunp's own
        raise TypeError(f"Unsupported type {type(x)}: use gpunp.asarray(x) to move it")
    x = gpunp.asarray(x)
    if x.ndim != 1:
        raise ValueError(f"Buffer has wrong number of dimensions (expected 1, got {x.ndim})")
    return x.astype(numpy.complex128 if x.dtype.kind == "c" else numpy.float64, copy=False)


def _zero_at_nyquist(j):
    return gpunp.zeros(j.shape, numpy.complex128)


def _odd(f):
    """i f(j) for j > 0, 0 at j = 0; zero at the Nyquist term."""
    def kernel(j):
        return gpunp.where(j == 0, 0, 1j * f(gpunp.where(j == 0, 1, j)))
    return kernel, _zero_at_nyquist


def diff(x, order=1, period=None, _cache=None):
    """The order-th derivative (an integral for negative orders, the mean
    taken as zero) of a periodic sequence (scipy.fftpack.diff)."""
    if order == 0:
        # SciPy's copy keeps single precision (nothing is transformed)
        x = _real_input(x) if not (isinstance(x, gpunp.ndarray) and x.dtype.kind == "c") \
            else x
        return x.copy()
    c = 2 * numpy.pi / (2 * numpy.pi if period is None else period)

    def kernel(j):
        safe = gpunp.where(j == 0, 1, j)
        return gpunp.where(j == 0, 0, (1j * c * safe) ** order)
    return _pseudo(x, kernel, _zero_at_nyquist)


def tilbert(x, h, period=None, _cache=None):
    """The h-Tilbert transform: x_j times i coth(j h c) (scipy.fftpack.tilbert)."""
    c = 2 * numpy.pi / (2 * numpy.pi if period is None else period)
    kernel, nyq = _odd(lambda j: 1 / gpunp.tanh(j * h * c))
    return _pseudo(x, kernel, nyq)


def itilbert(x, h, period=None, _cache=None):
    """The inverse h-Tilbert transform: x_j times -i tanh(j h c)
    (scipy.fftpack.itilbert)."""
    c = 2 * numpy.pi / (2 * numpy.pi if period is None else period)
    kernel, nyq = _odd(lambda j: -gpunp.tanh(j * h * c))
    return _pseudo(x, kernel, nyq)


def hilbert(x, _cache=None):
    """The Hilbert transform of a periodic sequence: x_j times i sign(j)
    (scipy.fftpack.hilbert)."""
    kernel, nyq = _odd(lambda j: gpunp.ones_like(j))
    return _pseudo(x, kernel, nyq)


def ihilbert(x, _cache=None):
    """The inverse Hilbert transform, -hilbert (scipy.fftpack.ihilbert)."""
    kernel, nyq = _odd(lambda j: -gpunp.ones_like(j))
    return _pseudo(x, kernel, nyq)


def cs_diff(x, a, b, period=None, _cache=None):
    """x_j times -i cosh(j a c) / sinh(j b c) (scipy.fftpack.cs_diff)."""
    c = 2 * numpy.pi / (2 * numpy.pi if period is None else period)
    kernel, nyq = _odd(lambda j: -gpunp.cosh(j * a * c) / gpunp.sinh(j * b * c))
    return _pseudo(x, kernel, nyq)


def sc_diff(x, a, b, period=None, _cache=None):
    """x_j times i sinh(j a c) / cosh(j b c) (scipy.fftpack.sc_diff)."""
    c = 2 * numpy.pi / (2 * numpy.pi if period is None else period)
    kernel, nyq = _odd(lambda j: gpunp.sinh(j * a * c) / gpunp.cosh(j * b * c))
    return _pseudo(x, kernel, nyq)


def ss_diff(x, a, b, period=None, _cache=None):
    """x_j times sinh(j a c) / sinh(j b c), x_0 times a / b (scipy.fftpack.ss_diff)."""
    c = 2 * numpy.pi / (2 * numpy.pi if period is None else period)
    first = a / b  # SciPy's ZeroDivisionError for b = 0

    def kernel(j):
        safe = gpunp.where(j == 0, 1, j)
        return gpunp.where(j == 0, first, gpunp.sinh(safe * a * c) / gpunp.sinh(safe * b * c)
                           ).astype(numpy.complex128)
    return _pseudo(x, kernel, kernel)


def cc_diff(x, a, b, period=None, _cache=None):
    """x_j times cosh(j a c) / cosh(j b c) (scipy.fftpack.cc_diff)."""
    c = 2 * numpy.pi / (2 * numpy.pi if period is None else period)

    def kernel(j):
        return (gpunp.cosh(j * a * c) / gpunp.cosh(j * b * c)).astype(numpy.complex128)
    return _pseudo(x, kernel, kernel)


def shift(x, a, period=None, _cache=None):
    """x shifted by a, y(u) = x(u + a): x_j times exp(i j a c) (scipy.fftpack.shift)."""
    c = 2 * numpy.pi / (2 * numpy.pi if period is None else period)

    def kernel(j):
        return gpunp.exp(1j * (j * a * c))

    def nyquist(j):
        t = j * a * c
        return (gpunp.cos(t) + gpunp.sin(t)).astype(numpy.complex128)
    return _pseudo(x, kernel, nyquist)
