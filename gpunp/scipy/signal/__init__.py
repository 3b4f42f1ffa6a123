"""``gpunp.scipy.signal``: ``scipy.signal`` for gpunp arrays, name for name.

Convolution and correlation (direct as a product over sliding windows, or
by gpunp.fft), IIR filtering as a parallel scan over the signal (the
recurrence's companion matrix raised to powers of two), waveforms, and the
windows of ``gpunp.scipy.signal.windows``."""

from . import windows
from ._convolve import (choose_conv_method, convolve, convolve2d, correlate, correlate2d,
                        correlation_lags, fftconvolve, oaconvolve)
from .windows import get_window

__all__ = ["choose_conv_method", "convolve", "convolve2d", "correlate", "correlate2d",
           "correlation_lags", "fftconvolve", "get_window", "oaconvolve", "windows"]
