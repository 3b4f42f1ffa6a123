"""``gpunp.scipy.signal``: ``scipy.signal`` for gpunp arrays, name for name.

Convolution and correlation (direct as a product over sliding windows, or
by gpunp.fft), IIR filtering as a parallel scan over the signal (the
recurrence's companion matrix raised to powers of two), waveforms, and the
windows of ``gpunp.scipy.signal.windows``."""

from . import windows
from ._convolve import (choose_conv_method, convolve, convolve2d, correlate, correlate2d,
                        correlation_lags, fftconvolve, oaconvolve)
from ._lfilter import (filtfilt, lfilter, lfilter_zi, lfiltic, sosfilt, sosfilt_zi,
                       sosfiltfilt)
from ._waveforms import (chirp, gausspulse, max_len_seq, sawtooth, square, sweep_poly,
                         unit_impulse)
from .windows import get_window

__all__ = ["choose_conv_method", "chirp", "convolve", "convolve2d", "correlate",
           "correlate2d", "correlation_lags", "fftconvolve", "filtfilt", "gausspulse",
           "get_window", "lfilter", "lfilter_zi", "lfiltic", "max_len_seq", "oaconvolve",
           "sawtooth", "sosfilt", "sosfilt_zi", "sosfiltfilt", "square", "sweep_poly",
           "unit_impulse", "windows"]
