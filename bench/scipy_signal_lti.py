"""scipy.signal's ShortTimeFFT: gpunp.scipy.signal against
cupyx.scipy.signal (where CuPy has the class) and SciPy on the host at the
quick size. `rows(quick)` gives the workloads for bench/workloads.py's
table (the lead hooks them in); each answer is checked against SciPy's
before it is timed."""

from __future__ import annotations

import functools

import numpy as np

from bench.workloads import Workload, _host_f32, _signal_check

_NPERSEG, _HOP = 1024, 256
_QUICK_N = 1 << 18


def _module(lib, n):
    if lib.name == "gpunp":
        import gpunp.scipy.signal as sig
        return sig
    if lib.name == "cupy":
        import cupyx.scipy.signal as sig
        return sig if hasattr(sig, "ShortTimeFFT") else None
    if lib.name == "numpy" and n <= _QUICK_N:
        import scipy.signal as sig
        return sig
    return None


@functools.lru_cache(maxsize=1)
def _scipy_stft(n):
    import scipy.signal as ssig
    sft = ssig.ShortTimeFFT(ssig.windows.hann(_NPERSEG, sym=False), _HOP, 1.0,
                            scale_to="magnitude")
    return sft.stft(_host_f32(n, 3))


def _stft(lib, n):
    sig = _module(lib, n)
    if sig is None:
        return None
    import scipy.signal as ssig
    win = ssig.windows.hann(_NPERSEG, sym=False)
    win = win if lib.name == "numpy" else lib.asarray(win)
    sft = sig.ShortTimeFFT(win, _HOP, 1.0, scale_to="magnitude")
    x = _host_f32(n, 3)
    x = x if lib.name == "numpy" else lib.asarray(x)

    def fn():
        return sft.stft(x)
    _signal_check(lib, fn(), _scipy_stft(n), 1e-3)
    return fn


def rows(quick: bool) -> list:
    n = 1 << (18 if quick else 26)
    return [Workload(f"signal ShortTimeFFT.stft, {n} float32, hann {_NPERSEG} hop {_HOP}",
                     "ms", n, _stft)]
