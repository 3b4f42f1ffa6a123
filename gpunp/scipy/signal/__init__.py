"""``gpunp.scipy.signal``: ``scipy.signal`` for gpunp arrays, name for name.

Convolution and correlation (direct as a product over sliding windows, or
by gpunp.fft), IIR filtering as a chunked filter (the
recursion over many chunks at once, the states carried between them), rate changes, smoothing and
rank filters, waveforms, filter design on the host (as SciPy designs), and
the windows of ``gpunp.scipy.signal.windows``. Linear systems (the lti and
dlti classes, their simulation as a blocked scan of the state recursion,
responses and discretisation, pole placement), the ShortTimeFFT class,
Parks-McClellan design (remez) and the symmetric IIR and 2-d B-spline
filters complete SciPy's names."""

from . import windows
from ._convolve import (choose_conv_method, convolve, convolve2d, correlate, correlate2d,
                        correlation_lags, fftconvolve, oaconvolve)
from ._czt import CZT, ZoomFFT, czt, czt_points, lombscargle, vectorstrength, zoom_fft
from ._design import (BadCoefficients, band_stop_obj, bessel, besselap, bilinear, bilinear_zpk,
                      buttap, butter,
                      buttord, cheb1ap, cheb1ord, cheb2ap, cheb2ord, cheby1, cheby2, ellip,
                      ellipap, ellipord, findfreqs, freqs, freqs_zpk, freqz, freqz_sos,
                      freqz_zpk, gammatone, group_delay, iircomb, iirdesign, iirfilter, iirnotch,
                      iirpeak, lp2bp, lp2bp_zpk, lp2bs, lp2bs_zpk, lp2hp, lp2hp_zpk, lp2lp,
                      lp2lp_zpk, normalize, sos2tf, sos2zpk, sosfreqz, tf2sos, tf2zpk, zpk2sos,
                      zpk2tf)
from ._fir import (firls, firwin, firwin2, kaiser_atten, kaiser_beta, kaiserord,
                   minimum_phase)
from ._lti import (StateSpace, TransferFunction, ZerosPolesGain, bode, cont2discrete, dbode,
                   dfreqresp, dimpulse, dlsim, dlti, dstep, freqresp, impulse, lsim, lti, step)
from ._ltiforms import abcd_normalize, ss2tf, ss2zpk, tf2ss, zpk2ss
from ._lfilter import (filtfilt, lfilter, lfilter_zi, lfiltic, sosfilt, sosfilt_zi,
                       sosfiltfilt)
from ._peaks import (argrelextrema, argrelmax, argrelmin, find_peaks, find_peaks_cwt,
                     peak_prominences, peak_widths)
from ._place import place_poles
from ._remez import remez
from ._residue import invres, invresz, residue, residuez, unique_roots
from ._resample import (decimate, deconvolve, detrend, envelope, hilbert, hilbert2, resample,
                        resample_poly, upfirdn)
from ._splines import (cspline1d, cspline1d_eval, gauss_spline, qspline1d,
                       qspline1d_eval)
from ._splines2d import (cspline2d, firwin_2d, qspline2d, sepfir2d, spline_filter,
                         symiirorder1, symiirorder2)
from ._smooth import (medfilt, medfilt2d, order_filter, savgol_coeffs, savgol_filter,
                      wiener)
from ._spectral import (check_COLA, check_NOLA, coherence, csd, istft, periodogram,
                        spectrogram, stft, welch)
from ._stft import ShortTimeFFT, closest_STFT_dual_window
from ._waveforms import (chirp, gausspulse, max_len_seq, sawtooth, square, sweep_poly,
                         unit_impulse)
from .windows import get_window

__all__ = sorted(n for n in dir() if not n.startswith("_") and n != "windows") + ["windows"]
