"""``gpunp.scipy.signal.windows``: ``scipy.signal.windows`` for gpunp, name
for name. Windows are computed on the host in float64, as SciPy computes
them, and returned as gpunp arrays."""

from ._windows import (barthann, bartlett, blackman, blackmanharris, bohman, boxcar,
                       chebwin, cosine, dpss, exponential, flattop, gaussian, general_cosine,
                       general_gaussian, general_hamming, get_window, hamming, hann, kaiser,
                       kaiser_bessel_derived, lanczos, nuttall, parzen, taylor, triang, tukey)

__all__ = ["barthann", "bartlett", "blackman", "blackmanharris", "bohman", "boxcar",
           "chebwin", "cosine", "dpss", "exponential", "flattop", "gaussian",
           "general_cosine", "general_gaussian", "general_hamming", "get_window", "hamming",
           "hann", "kaiser", "kaiser_bessel_derived", "lanczos", "nuttall", "parzen", "taylor",
           "triang", "tukey"]
