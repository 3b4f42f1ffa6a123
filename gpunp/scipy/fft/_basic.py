"""scipy.fft's complex, real and Hermitian transforms on gpunp.fft.

SciPy's signatures add ``overwrite_x``, ``workers`` and ``plan`` to NumPy's
and drop ``out``; the transforms themselves are gpunp.fft's (cuFFT on a
GPU). SciPy's own additions, the 2-D and n-D Hermitian transforms, are
irfftn and rfftn of the conjugate with the normalisation's direction
swapped, which is what they are by definition."""

from __future__ import annotations

import numpy

import gpunp
import gpunp.fft as _fft

from gpunp.scipy.fft._helper import as_device, check_plan, check_workers

_NORMS = (None, "backward", "ortho", "forward")
_SWAPPED = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def check_norm(norm) -> str:
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm!r}, should be "backward", "ortho" or '
                         '"forward"')
    return "backward" if norm is None else norm


def _input(x) -> gpunp.ndarray:
    """x as a gpunp array in a dtype SciPy transforms: integers and bools
    become float64, float16 becomes float32 (SciPy's own promotions)."""
    x = as_device(x)
    if x.dtype.kind in "biu":
        return x.astype(numpy.float64)
    if x.dtype == numpy.float16:
        return x.astype(numpy.float32)
    return x


def _one_axis(name, how):
    real_input = name in ("rfft", "ihfft")

    def transform(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *,
                  plan=None):
        check_workers(workers)
        check_norm(norm)
        x = _input(x)
        check_plan(plan, x, axis)
        if real_input:  # SciPy checks this before n
            _real(x)
        if name in ("irfft", "hfft"):
            n = _halved_n(x, n, axis)
        elif n is not None and n < 1:
            raise ValueError(f"invalid number of data points ({n}) specified")
        return how(x, n, axis, norm)

    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = (f"scipy.fft.{name} on a gpunp array (numpy.fft.{name}'s transform; "
                         "overwrite_x and workers accepted, plan checked).")
    return transform


def _halved_n(x, n, axis):
    """The output length of irfft/hfft as SciPy reads n: 2 (m - 1) when
    None; else the input is cut or padded to n // 2 + 1 terms first, and
    pocketfft makes n = 0 one point."""
    if n is None:
        n = (x.shape[axis] - 1) * 2
        if n < 1:
            raise ValueError(f"Invalid number of data points ({n}) specified")
        return n
    if n // 2 + 1 < 1:
        raise ValueError(f"invalid number of data points ({n // 2 + 1}) specified")
    return max(n, 1)


fft = _one_axis("fft", lambda x, n, axis, norm: _fft.fft(x, n, axis, norm))
ifft = _one_axis("ifft", lambda x, n, axis, norm: _fft.ifft(x, n, axis, norm))
rfft = _one_axis("rfft", lambda x, n, axis, norm: _fft.rfft(_real(x), n, axis, norm))
irfft = _one_axis("irfft", lambda x, n, axis, norm: _fft.irfft(x, n, axis, norm))
hfft = _one_axis("hfft", lambda x, n, axis, norm: _fft.hfft(x, n, axis, norm))
ihfft = _one_axis("ihfft", lambda x, n, axis, norm: _fft.ihfft(_real(x), n, axis, norm))


def _real(x):
    if x.dtype.kind == "c":
        raise TypeError("x must be a real sequence")
    return x


def cook_nd(x, s, axes) -> tuple:
    """SciPy's rules for s and axes: s alone names the last len(s) axes,
    axes alone takes their lengths, -1 in s keeps an axis's length."""
    ndim = x.ndim
    if s is not None:
        s = [int(v) for v in numpy.atleast_1d(s)]
    if axes is not None:
        axes = [int(a) for a in numpy.atleast_1d(axes)]
        for a in axes:
            if not -ndim <= a < ndim:
                raise ValueError("axes exceeds dimensionality of input")
        axes = [a % ndim for a in axes]
        if len(set(axes)) != len(axes):
            raise ValueError("all axes must be unique")
    if s is None:
        if axes is None:
            axes = list(range(ndim))
        s = [x.shape[a] for a in axes]
    else:
        if axes is None:
            if len(s) > ndim:
                raise ValueError("shape requires more axes than are present")
            axes = list(range(ndim - len(s), ndim))
        elif axes and len(s) != len(axes):  # SciPy lets s pass with axes=[]
            raise ValueError("when given, axes and shape arguments have to be of the same "
                             "length")
        s = [x.shape[a] if v == -1 else v for v, a in zip(s, axes)]
    for v in s:
        if v < 1:
            raise ValueError(f"invalid number of data points ({v}) specified")
    return s, axes


def _many_axes(name, how, default_axes=None):
    def transform(x, s=None, axes=default_axes, norm=None, overwrite_x=False, workers=None, *,
                  plan=None):
        check_workers(workers)
        check_norm(norm)
        given = as_device(x)
        x = _input(given)
        check_plan(plan, x, axes)
        if x.ndim == 0 and axes == default_axes and s is None:
            raise IndexError("tuple index out of range")
        s, axes = cook_nd(x, s, axes)
        if not axes:
            # SciPy: no axis is the identity for the complex transforms, an
            # error for the real ones
            if name.startswith(("rfft", "ihfft")):
                raise ValueError("at least 1 axis must be transformed")
            return given
        return how(x, s, axes, norm)

    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = f"scipy.fft.{name} on a gpunp array (overwrite_x, workers accepted)."
    return transform


def _hfftn(x, s, axes, norm):
    # a Hermitian input's transform is real: irfftn of the conjugate, with
    # the normalisation applied in the other direction
    return _fft.irfftn(gpunp.conj(x), s, axes, _SWAPPED[norm])


def _ihfftn(x, s, axes, norm):
    return gpunp.conj(_fft.rfftn(_real(x), s, axes, _SWAPPED[norm]))


def _irfft_s(x, s, axes, norm):
    return _fft.irfftn(x, s, axes, norm)


def _cook_hermitian(how):
    # the last axis of a half spectrum: its default output length is 2(m - 1)
    def run(x, s, axes, norm, given_s):
        if not axes:
            raise ValueError("at least 1 axis must be transformed")
        if given_s is None:
            # a half spectrum of one term: SciPy's pocketfft makes it one
            # real point, where 2 (m - 1) would be none
            s = list(s[:-1]) + [max(2 * (x.shape[axes[-1]] - 1), 1)]
        return how(x, s, axes, norm)
    return run


def _many_axes_halved(name, how, default_axes=None):
    run = _cook_hermitian(how)

    def transform(x, s=None, axes=default_axes, norm=None, overwrite_x=False, workers=None, *,
                  plan=None):
        check_workers(workers)
        check_norm(norm)
        x = _input(x)
        check_plan(plan, x, axes)
        given = s
        if s is None:
            s2, axes2 = cook_nd(x, None, axes)
        else:
            s2, axes2 = cook_nd(x, s, axes)
        return run(x, s2, axes2, norm, given)

    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = f"scipy.fft.{name} on a gpunp array (overwrite_x, workers accepted)."
    return transform


fftn = _many_axes("fftn", lambda x, s, axes, norm: _fft.fftn(x, s, axes, norm))
ifftn = _many_axes("ifftn", lambda x, s, axes, norm: _fft.ifftn(x, s, axes, norm))
fft2 = _many_axes("fft2", lambda x, s, axes, norm: _fft.fftn(x, s, axes, norm), (-2, -1))
ifft2 = _many_axes("ifft2", lambda x, s, axes, norm: _fft.ifftn(x, s, axes, norm), (-2, -1))
rfftn = _many_axes("rfftn", lambda x, s, axes, norm: _fft.rfftn(_real(x), s, axes, norm))
rfft2 = _many_axes("rfft2", lambda x, s, axes, norm: _fft.rfftn(_real(x), s, axes, norm),
                   (-2, -1))
ihfftn = _many_axes("ihfftn", _ihfftn)
ihfft2 = _many_axes("ihfft2", _ihfftn, (-2, -1))
irfftn = _many_axes_halved("irfftn", _irfft_s)
irfft2 = _many_axes_halved("irfft2", _irfft_s, (-2, -1))
hfftn = _many_axes_halved("hfftn", _hfftn)
hfft2 = _many_axes_halved("hfft2", _hfftn, (-2, -1))
