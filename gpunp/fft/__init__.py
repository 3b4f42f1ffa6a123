"""gpunp.fft: numpy.fft on the device. The transforms run on cuFFT through
the engine (gp_fft, with a per-thread plan cache: :mod:`gpunp.fft.config`);
the host backend computes them with NumPy's pocketfft on the arrays' host
memory. Results, dtypes and errors are NumPy 2's."""

from gpunp.fft import config
from gpunp.fft._helper import fftfreq, fftshift, ifftshift, rfftfreq
from gpunp.fft._transforms import (
    fft, fft2, fftn, hfft, ifft, ifft2, ifftn, ihfft, irfft, irfft2, irfftn, rfft, rfft2, rfftn)

__all__ = [
    "config", "fft", "fft2", "fftfreq", "fftn", "fftshift", "hfft", "ifft", "ifft2", "ifftn",
    "ifftshift", "ihfft", "irfft", "irfft2", "irfftn", "rfft", "rfft2", "rfftfreq", "rfftn",
]
