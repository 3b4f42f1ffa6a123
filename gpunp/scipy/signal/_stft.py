"""SciPy's ShortTimeFFT: the short-time Fourier transform as an object that
knows its window, hop, sampling rate and FFT layout.

The transforms run on the device over every slice at once: the slices are
one strided view of the padded signal (hop apart), windowed and put
through one batched FFT; the inverse is one batched inverse FFT and an
overlap-add of ceil(m_num / hop) shifted sums. The window and the border
bookkeeping (p_min, k_max, lower_border_end...) are small and stay on the
host, as SciPy computes them."""

from __future__ import annotations

import numpy as np

import gpunp as gp

from ._resample import detrend
from .windows import get_window

_FFT_MODES = ("twosided", "centered", "onesided", "onesided2X")
_PADDINGS = ("zeros", "edge", "even", "odd")


def _win_host(w):
    """A window on the host (it is small, and its border bookkeeping is
    host work), given as a gpunp array or anything NumPy takes."""
    return gp.asnumpy(w) if isinstance(w, gp.ndarray) else np.asarray(w)


def _overlap_sum(w, hop):
    """sum over shifts k hop of |w|^2 (or of w) at each sample of the
    window: the window's overlap with its shifted copies."""
    out = w.copy()
    for k in range(hop, len(w), hop):
        out[k:] += w[:-k]
        out[:-k] += w[k:]
    return out


def _canonical_dual(win, hop):
    if hop > len(win):
        raise ValueError(f"hop={hop!r} is larger than window length of {len(win)}"
                         " => STFT not invertible!")
    if issubclass(win.dtype.type, np.integer):
        raise ValueError("Parameter 'win' cannot be of integer type, but "
                         f"win.dtype={win.dtype!r} => STFT not invertible!")
    dd = _overlap_sum(win.real ** 2 + win.imag ** 2, hop)
    if not np.all(dd >= np.finfo(win.dtype).resolution * max(dd)):
        raise ValueError("Short-time Fourier Transform not invertible!")
    return win / dd


def closest_STFT_dual_window(win, hop, desired_dual=None, *, scaled=True):
    """The dual window nearest desired_dual (least squares) for win and hop,
    and its scale factor (1 where scaled is False)."""
    win = _win_host(win)
    desired_dual = np.ones_like(win) if desired_dual is None else _win_host(desired_dual)
    if not (win.ndim == 1 and win.shape == desired_dual.shape):
        raise ValueError("Parameters `win` and `desired_dual` are not 1d arrays of equal length "
                         f"(win.shape={win.shape!r}, desired_dual.shape={desired_dual.shape!r})!")
    if not np.all(np.isfinite(win)):
        raise ValueError("Parameter win must have finite entries!")
    if not np.all(np.isfinite(desired_dual)):
        raise ValueError("Parameter desired_dual must have finite entries!")
    if not (isinstance(hop, (int, np.integer)) and 1 <= hop <= len(win)):
        raise ValueError(f"Parameter hop={hop!r} is not an integer between 1 and "
                         f"len(win)={len(win)!r}!")
    wd = _canonical_dual(win, hop)
    qd = wd * _overlap_sum(win.conjugate() * desired_dual, hop)
    if not scaled:
        return gp.asarray(wd + desired_dual - qd), 1.0
    num = qd.conjugate() @ wd
    den = qd.real @ qd.real + qd.imag @ qd.imag
    if not (abs(num) > 0 and den > np.finfo(wd.dtype).resolution):
        raise ValueError("Unable to calculate scaled closest dual window due to numerically "
                         "unstable scaling factor! Try setting parameter `scaled` to False.")
    alpha = num / den
    return gp.asarray(wd + alpha * (desired_dual - qd)), alpha


class ShortTimeFFT:
    """The short-time Fourier transform of window win, hop samples apart, at
    sampling rate fs (SciPy's ShortTimeFFT; arrays it returns are gpunp
    arrays)."""

    def __init__(self, win, hop, fs, *, fft_mode="onesided", mfft=None, dual_win=None,
                 scale_to=None, phase_shift=0):
        win = _win_host(win)
        if not (win.ndim == 1 and win.size > 0):
            raise ValueError(f"Parameter win must be 1d, but win.shape={win.shape!r}!")
        if not np.all(np.isfinite(win)):
            raise ValueError("Parameter win must have finite entries!")
        if not (isinstance(hop, (int, np.integer)) and hop >= 1):
            raise ValueError(f"Parameter hop={hop!r} is not an integer >= 1!")
        self._win, self._hop = win.copy(), int(hop)
        self._scaling = None
        self._fft_mode = "onesided"
        self._fac_mag = self._fac_psd = None
        self._pre = None
        self._lower = None
        self.fs = fs
        self.mfft = len(win) if mfft is None else mfft
        if dual_win is not None:
            dual_win = _win_host(dual_win)
            if dual_win.shape != win.shape:
                raise ValueError(f"dual_win.shape={dual_win.shape!r} must equal "
                                 f"win.shape={win.shape!r}!")
            if not np.all(np.isfinite(dual_win)):
                raise ValueError("Parameter dual_win must be a finite array!")
            dual_win = dual_win.copy()
        self._dual = dual_win
        if scale_to is not None:
            self.scale_to(scale_to)
        self.fft_mode, self.phase_shift = fft_mode, phase_shift

    @classmethod
    def from_dual(cls, dual_win, hop, fs, *, fft_mode="onesided", mfft=None, scale_to=None,
                  phase_shift=0):
        """The transform whose canonical dual is dual_win."""
        dual_win = _win_host(dual_win)
        return cls(_canonical_dual(dual_win, hop), hop, fs, fft_mode=fft_mode, mfft=mfft,
                   dual_win=dual_win, scale_to=scale_to, phase_shift=phase_shift)

    @classmethod
    def from_window(cls, win_param, fs, nperseg, noverlap, *, symmetric_win=False,
                    fft_mode="onesided", mfft=None, scale_to=None, phase_shift=0):
        """The transform of a window of get_window's, nperseg long, slices
        overlapping by noverlap."""
        win = get_window(win_param, nperseg, fftbins=not symmetric_win)
        return cls(win, nperseg - noverlap, fs, fft_mode=fft_mode, mfft=mfft,
                   scale_to=scale_to, phase_shift=phase_shift)

    @classmethod
    def from_win_equals_dual(cls, desired_win, hop, fs, *, fft_mode="onesided", mfft=None,
                             scale_to=None, phase_shift=0):
        """The transform whose window is its own dual, closest to
        desired_win."""
        w = _win_host(desired_win)
        if not (w.ndim == 1 and w.size > 0):
            raise ValueError(f"Parameter desired_win is not 1d, but desired_win.shape={w.shape!r}!")
        if issubclass(w.dtype.type, np.integer):
            raise ValueError("Parameter desired_win cannot be of integer type, but "
                             f"desired_win.dtype={w.dtype!r} => cast to float | complex ")
        if not np.all(np.isfinite(w)):
            raise ValueError("Parameter desired_win must have finite entries!")
        if not (isinstance(hop, (int, np.integer)) and 1 <= hop <= len(w)):
            raise ValueError(f"Parameter hop={hop!r} is not an integer between 1 and "
                             f"len(desired_win)={len(w)!r}!")
        if scale_to not in ("magnitude", "psd", "unitary", None):
            raise ValueError(f"Parameter scale_to={scale_to!r} not in "
                             "['magnitude', 'psd', 'unitary', None]!")
        mfft = len(w) if mfft is None else mfft
        s = np.sqrt(mfft) if scale_to == "unitary" else 1
        win = w.copy()
        tiny = np.finfo(win.dtype).resolution * max(win)
        for m in range(hop):
            a = np.linalg.norm(w[m::hop])
            if not a > tiny:
                raise ValueError("Parameter desired_win does not have valid STFT dual window "
                                 f"for hop={hop!r}!")
            win[m::hop] /= a
        sft = cls(win / s, hop, fs, fft_mode=fft_mode, mfft=mfft, dual_win=win * s,
                  phase_shift=phase_shift, scale_to=None if scale_to == "unitary" else scale_to)
        if scale_to == "unitary":
            sft._scaling = scale_to
        return sft

    # ---- parameters ------------------------------------------------------------------

    @property
    def win(self):
        return gp.asarray(self._win)

    @property
    def hop(self):
        return self._hop

    @property
    def T(self):
        return 1 / self._fs

    @T.setter
    def T(self, v):
        if not v > 0:
            raise ValueError(f"Sampling interval T={v} must be positive!")
        self._fs = 1 / v

    @property
    def fs(self):
        return self._fs

    @fs.setter
    def fs(self, v):
        if not v > 0:
            raise ValueError(f"Sampling frequency fs={v} must be positive!")
        self._fs = v

    @property
    def fft_mode(self):
        return self._fft_mode

    @fft_mode.setter
    def fft_mode(self, t):
        if t not in _FFT_MODES:
            raise ValueError(f"fft_mode='{t}' not in {_FFT_MODES}!")
        if t in ("onesided", "onesided2X") and np.iscomplexobj(self._win):
            raise ValueError(f"One-sided spectra, i.e., fft_mode='{t}', are not allowed for "
                             "complex-valued windows!")
        if t == "onesided2X" and self.scaling is None:
            raise ValueError(f"For scaling is None, fft_mode='{t}' is invalid!Do "
                             "scale_to('psd') or scale_to('magnitude')!")
        self._fft_mode = t

    @property
    def mfft(self):
        return self._mfft

    @mfft.setter
    def mfft(self, n):
        if not n >= self.m_num:
            raise ValueError(f"Attribute mfft={n} needs to be at least the window length "
                             f"m_num={self.m_num}!")
        self._mfft = n

    @property
    def scaling(self):
        return self._scaling

    def scale_to(self, scaling):
        """Scale the window so that the spectrum's values are magnitudes or a
        power spectral density (the dual window inversely)."""
        if scaling not in ("magnitude", "psd"):
            raise ValueError(f"scaling={scaling!r} not in {{'magnitude', 'psd'}}!")
        if self._scaling == scaling:
            return
        s = self.fac_psd if scaling == "psd" else self.fac_magnitude
        self._win = self._win * s
        if self._dual is not None:
            self._dual = self._dual / s
        self._fac_mag = self._fac_psd = None
        self._scaling = scaling

    @property
    def phase_shift(self):
        return self._phase_shift

    @phase_shift.setter
    def phase_shift(self, v):
        if v is None:
            self._phase_shift = v
            return
        if not isinstance(v, (int, np.integer)):
            raise ValueError(f"phase_shift={v} has the unit samples. Hence it needs to be an "
                             "int or it may be None!")
        if not -self.mfft < v < self.mfft:
            raise ValueError(f"-mfft < phase_shift < mfft does not hold for mfft={self.mfft}, "
                             f"phase_shift={v}!")
        self._phase_shift = v

    @property
    def fac_magnitude(self):
        if self.scaling == "magnitude":
            return 1
        if self._fac_mag is None:
            self._fac_mag = 1 / abs(sum(self._win))
        return self._fac_mag

    @property
    def fac_psd(self):
        if self.scaling == "psd":
            return 1
        if self._fac_psd is None:
            self._fac_psd = 1 / np.sqrt(sum(self._w2()) / self.T)
        return self._fac_psd

    @property
    def m_num(self):
        return len(self._win)

    @property
    def m_num_mid(self):
        return self.m_num // 2

    @property
    def dual_win(self):
        if self._dual is None:
            self._dual = _canonical_dual(self._win, self.hop)
        return gp.asarray(self._dual)

    @property
    def invertible(self):
        try:
            return len(self.dual_win) > 0
        except ValueError:
            return False

    # ---- the slices' positions -------------------------------------------------------

    def _w2(self):
        return self._win.real ** 2 + self._win.imag ** 2

    def _pre_padding(self):
        """(k_min, p_min): the first slice, going left, that still
        reaches into the signal with a nonzero window sample."""
        if self._pre is None:
            w2 = self._w2()
            k = -self.m_num_mid
            p = 0
            while True:
                nxt = k - self.hop
                if nxt + self.m_num <= 0 or not np.any(w2[nxt:]):
                    self._pre = (k, -p)
                    break
                k, p = nxt, p + 1
        return self._pre

    @property
    def k_min(self):
        return self._pre_padding()[0]

    @property
    def p_min(self):
        return self._pre_padding()[1]

    def _check_n(self, n):
        if not n >= self.m_num - self.m_num_mid:
            raise ValueError(f"Parameter n must be >= ceil(m_num/2) = "
                             f"{self.m_num - self.m_num_mid}!")

    def _post_padding(self, n):
        """(k_max, p_max): one past the last slice, going right, that still
        reaches into the signal of n samples with a nonzero window sample."""
        self._check_n(n)
        w2 = self._w2()
        q = n // self.hop
        k = q * self.hop - self.m_num_mid
        while True:
            nxt = k + self.hop
            if nxt >= n or not np.any(w2[:n - nxt]):
                return k + self.m_num, q + 1
            k, q = nxt, q + 1

    def k_max(self, n):
        return self._post_padding(n)[0]

    def p_max(self, n):
        return self._post_padding(n)[1]

    def p_num(self, n):
        return self.p_max(n) - self.p_min

    @property
    def lower_border_end(self):
        if self._lower is None:
            k0 = -self.m_num_mid + int(np.flatnonzero(self._w2())[0])
            self._lower = (0, max(self.p_min, 0))
            for q, k in enumerate(range(k0, self.hop + 1, self.hop)):
                if k + self.hop >= 0:
                    self._lower = (k + self.m_num, q + 1)
                    break
        return self._lower

    def upper_border_begin(self, n):
        self._check_n(n)
        w2 = self._w2()
        for q in range(n // self.hop + 1, max((n - self.m_num) // self.hop - 1, -1), -1):
            k = q * self.hop + (self.m_num - self.m_num_mid)
            if k <= n or not np.any(w2[n - k:]):
                return (q + 1) * self.hop - self.m_num_mid, q + 1
        raise RuntimeError("no upper border found")

    @property
    def delta_t(self):
        return self.T * self.hop

    def p_range(self, n, p0=None, p1=None):
        pmax = self.p_max(n)
        a = self.p_min if p0 is None else p0
        b = pmax if p1 is None else p1
        if not self.p_min <= a < b <= pmax:
            raise ValueError(f"Invalid Parameter p0={p0!r}, p1={p1!r}, i.e., "
                             f"self.p_min={self.p_min!r} <= p0 < p1 <= p_max={pmax!r} does not "
                             f"hold for signal length n={n!r}!")
        return a, b

    def t(self, n, p0=None, p1=None, k_offset=0):
        if not (isinstance(n, (int, np.integer)) and n > 0):
            raise ValueError(f"Parameter n={n!r} is not a positive integer!")
        p0, p1 = self.p_range(n, p0, p1)
        return gp.asarray(np.arange(p0, p1) * self.delta_t + k_offset * self.T)

    def nearest_k_p(self, k, left=True):
        q, r = divmod(k, self.hop)
        if r == 0:
            return k
        return q * self.hop if left else (q + 1) * self.hop

    @property
    def delta_f(self):
        return 1 / (self.mfft * self.T)

    @property
    def f_pts(self):
        return self.mfft // 2 + 1 if self.onesided_fft else self.mfft

    @property
    def onesided_fft(self):
        return self.fft_mode in ("onesided", "onesided2X")

    @property
    def f(self):
        if self.onesided_fft:
            return gp.fft.rfftfreq(self.mfft, self.T)
        f = gp.fft.fftfreq(self.mfft, self.T)
        return gp.fft.fftshift(f) if self.fft_mode == "centered" else f

    def extent(self, n, axes_seq="tf", center_bins=False):
        if axes_seq not in ("tf", "ft"):
            raise ValueError(f"Parameter axes_seq={axes_seq!r} not in ['tf', 'ft']!")
        if self.onesided_fft:
            q0, q1 = 0, self.f_pts
        elif self.fft_mode == "centered":
            q0, q1 = -(self.mfft // 2), self.mfft - self.mfft // 2
        else:
            raise ValueError(f"Attribute fft_mode={self.fft_mode} must be in ['centered', "
                             "'onesided', 'onesided2X']")
        p0, p1 = self.p_min, self.p_max(n)
        c = 0.5 if center_bins else 0.0
        t0, t1 = self.delta_t * (p0 - c), self.delta_t * (p1 - c)
        f0, f1 = self.delta_f * (q0 - c), self.delta_f * (q1 - c)
        return (t0, t1, f0, f1) if axes_seq == "tf" else (f0, f1, t0, t1)

    # ---- the transforms --------------------------------------------------------------

    def _shift(self):
        return (self.phase_shift + self.m_num_mid) % self.m_num

    def _twice(self):
        """The factor onesided2X applies to the bins of both signs."""
        return np.sqrt(2) if self.scaling == "psd" else 2

    def _fft(self, x):
        """The spectra of the windowed slices x (last axis m_num)."""
        if self.phase_shift is not None:
            if x.shape[-1] < self.mfft:
                x = gp.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, self.mfft - x.shape[-1])])
            x = gp.roll(x, -self._shift(), axis=-1)
        if self.fft_mode == "twosided":
            return gp.fft.fft(x, n=self.mfft, axis=-1)
        if self.fft_mode == "centered":
            return gp.fft.fftshift(gp.fft.fft(x, n=self.mfft, axis=-1), axes=-1)
        X = gp.fft.rfft(x, n=self.mfft, axis=-1)
        if self.fft_mode == "onesided2X":
            X[..., 1:-1 if self.mfft % 2 == 0 else None] *= self._twice()
        return X

    def _ifft(self, X):
        if self.fft_mode == "twosided":
            x = gp.fft.ifft(X, n=self.mfft, axis=-1)
        elif self.fft_mode == "centered":
            x = gp.fft.ifft(gp.fft.ifftshift(X, axes=-1), n=self.mfft, axis=-1)
        else:
            if self.fft_mode == "onesided2X":
                X = gp.array(X, copy=True)
                X[..., 1:-1 if self.mfft % 2 == 0 else None] /= self._twice()
            x = gp.fft.irfft(X, n=self.mfft, axis=-1)
        if self.phase_shift is not None:
            x = gp.roll(x, self._shift(), axis=-1)
        return x[..., :self.m_num]

    def _slices(self, x, k_off, p0, p1, padding):
        """The slices p0..p1-1 of x (last axis), as one strided view of the
        padded signal: (..., p1 - p0, m_num)."""
        if padding not in _PADDINGS:
            raise ValueError(f"Parameter padding={padding!r} not in {_PADDINGS}!")
        n, n1 = x.shape[-1], (p1 - p0) * self.hop
        k0 = p0 * self.hop - self.m_num_mid + k_off
        k1 = k0 + n1 + self.m_num
        i0, i1 = max(k0, 0), min(k1, n)
        width = [(0, 0)] * (x.ndim - 1) + [(-min(k0, 0), max(k1 - n, 0))]
        part = x[..., i0:i1]
        if padding == "zeros":
            x1 = gp.pad(part, width)
        elif padding == "edge":
            x1 = gp.pad(part, width, mode="edge")
        else:
            x1 = gp.pad(part, width, mode="reflect", reflect_type=padding)
        view = gp.lib.stride_tricks.sliding_window_view(x1, self.m_num, axis=-1)
        return view[..., :n1:self.hop, :]

    def stft_detrend(self, x, detr, p0=None, p1=None, *, k_offset=0, padding="zeros", axis=-1):
        """The STFT of x along axis with each slice detrended first ('linear',
        'constant', a function of a slice, or None)."""
        x = gp.asarray(x)
        if self.onesided_fft and x.dtype.kind == "c":
            raise ValueError(f"Complex-valued `x` not allowed for self.fft_mode="
                             f"{self.fft_mode!r}'! Set property `fft_mode` to 'twosided' or "
                             "'centered'.")
        if not (detr is None or callable(detr) or isinstance(detr, str)):
            raise ValueError(f"Parameter detr={detr!r} is not a str, function or None!")
        n = x.shape[axis]
        m2 = self.m_num - self.m_num_mid
        if not n >= m2:
            where = f"len(x)={len(x)!r}" if x.ndim == 1 else f"of axis={axis!r} of {x.shape}"
            raise ValueError(f"{where} must be >= ceil(m_num/2) = {m2}!")
        if x.ndim > 1:
            x = gp.moveaxis(x, axis, -1)
        p0, p1 = self.p_range(n, p0, p1)
        seg = self._slices(x, k_offset, p0, p1, padding)
        if isinstance(detr, str):
            seg = detrend(seg, axis=-1, type=detr)
        elif detr is not None:
            # a user's function sees one slice at a time, as SciPy calls it
            seg = gp.stack([gp.asarray(detr(seg[..., q, :])) for q in range(seg.shape[-2])],
                           axis=-2)
        win = self._win.conj()
        seg = seg * gp.asarray(win.astype(np.result_type(win.dtype, seg.dtype)))
        S = gp.swapaxes(self._fft(seg), -1, -2).astype(np.complex128)
        if x.ndim > 1:
            return gp.moveaxis(S, -2, axis if axis >= 0 else axis - 1)
        return S

    def stft(self, x, p0=None, p1=None, *, k_offset=0, padding="zeros", axis=-1):
        """The short-time Fourier transform of x along axis: the slices p0
        to p1 - 1 as columns (frequency before time)."""
        return self.stft_detrend(x, None, p0, p1, k_offset=k_offset, padding=padding, axis=axis)

    def spectrogram(self, x, y=None, detr=None, *, p0=None, p1=None, k_offset=0,
                    padding="zeros", axis=-1):
        """|STFT of x|^2, or the cross-spectrogram STFT(x) conj(STFT(y))."""
        Sx = self.stft_detrend(x, detr, p0, p1, k_offset=k_offset, padding=padding, axis=axis)
        if y is None or y is x:
            return Sx.real ** 2 + Sx.imag ** 2
        Sy = self.stft_detrend(y, detr, p0, p1, k_offset=k_offset, padding=padding, axis=axis)
        return Sx * Sy.conj()

    def istft(self, S, k0=0, k1=None, *, f_axis=-2, t_axis=-1):
        """The signal (samples k0 to k1 - 1) whose STFT is S, by the dual
        window: each slice's inverse FFT times dual_win, overlapped and
        added."""
        S = gp.asarray(S)
        if f_axis == t_axis:
            raise ValueError(f"f_axis={f_axis!r} may not be equal to t_axis={t_axis!r}!")
        if S.shape[f_axis] != self.f_pts:
            raise ValueError(f"S.shape[f_axis]={S.shape[f_axis]!r} must be equal to "
                             f"self.f_pts={self.f_pts!r} (S.shape={S.shape!r})!")
        n_min = self.m_num - self.m_num_mid
        q_num = self.p_num(n_min)
        if not S.shape[t_axis] >= q_num:
            raise ValueError(f"S.shape[t_axis]={S.shape[t_axis]!r} needs to have at least "
                             f"{q_num} slices (S.shape={S.shape!r})!")
        if t_axis != S.ndim - 1 or f_axis != S.ndim - 2:
            t_axis = S.ndim + t_axis if t_axis < 0 else t_axis
            f_axis = S.ndim + f_axis if f_axis < 0 else f_axis
            S = gp.moveaxis(S, (f_axis, t_axis), (-2, -1))
        q_max = S.shape[-1] + self.p_min
        k_max = (q_max - 1) * self.hop + self.m_num - self.m_num_mid
        k1 = k_max if k1 is None else k1
        if not self.k_min <= k0 < k1 <= k_max:
            raise ValueError(f"(self.k_min={self.k_min!r}) <= (k0={k0!r}) < (k1={k1!r}) <= "
                             f"(k_max={k_max!r}) is false!")
        if not k1 - k0 >= n_min:
            raise ValueError(f"(k1={k1!r}) - (k0={k0!r}) = {k1 - k0} has to be at least the "
                             f"half the window length {n_min}!")
        q0 = k0 // self.hop + self.p_min if k0 >= 0 else k0 // self.hop
        q1 = min(self.p_max(k1), q_max)
        dual = self.dual_win
        xs = self._ifft(gp.swapaxes(S[..., q0 - self.p_min:q1 - self.p_min], -1, -2))
        xs = xs * dual
        if self.onesided_fft:
            xs = xs.real if xs.dtype.kind == "c" else xs
            xs = xs.astype(np.float64)
        else:
            xs = xs.astype(np.complex128)
        x = self._overlap_add(xs, q0, k0, k1)
        if x.ndim > 1:
            x = gp.moveaxis(x, -1, f_axis if f_axis < x.ndim else t_axis)
        return x

    def _overlap_add(self, xs, q0, k0, k1):
        """Samples k0..k1-1 of the sum of the slices xs (..., Q, m_num),
        slice q starting at sample (q0 + q) hop - m_num_mid."""
        Q, m, h = xs.shape[-2], self.m_num, self.hop
        c = -(-m // h)  # pieces of hop samples in a slice
        batch = xs.shape[:-2]
        xs = gp.pad(xs, [(0, 0)] * len(batch) + [(0, 0), (0, c * h - m)])
        acc = gp.zeros(batch + ((Q + c - 1) * h,), xs.dtype)
        for j in range(c):
            piece = gp.ascontiguousarray(xs[..., j * h:(j + 1) * h]).reshape(batch + (Q * h,))
            acc[..., j * h:j * h + Q * h] += piece
        base = q0 * h - self.m_num_mid  # the sample acc[0] is
        lo, hi = k0 - base, k1 - base
        s = max(lo, 0)
        e = max(min(hi, acc.shape[-1]), s)
        return gp.pad(acc[..., s:e], [(0, 0)] * len(batch) + [(s - lo, hi - e)])
