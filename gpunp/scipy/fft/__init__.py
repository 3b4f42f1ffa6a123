"""``gpunp.scipy.fft``: ``scipy.fft`` for gpunp arrays, name for name.

The complex, real and Hermitian transforms are gpunp.fft's (cuFFT on a GPU,
pocketfft through NumPy on the host backend) with SciPy's signatures; the
cosine and sine transforms are built on them with O(n log n) work
(``_realtransforms.py``); ``fht``/``ifht`` are FFTLog on the same FFTs.

SciPy's own functions reach this module through scipy.fft's backend
protocol (this module has ``__ua_domain__`` and ``__ua_function__``)::

    with scipy.fft.set_backend(gpunp.scipy.fft):
        y = scipy.fft.dct(x)        # x a gpunp array: runs here

or once for the whole program, ``scipy.fft.set_global_backend(gpunp.scipy.fft)``
or ``scipy.fft.register_backend(gpunp.scipy.fft)`` (tried after any
``set_backend`` block, before SciPy's own). A call whose arguments are not
gpunp arrays is declined (NotImplemented), so SciPy's own backend answers it.
"""

from gpunp.scipy.fft._backend import __ua_convert__, __ua_domain__, __ua_function__
from gpunp.scipy.fft._basic import (
    fft, fft2, fftn, hfft, hfft2, hfftn, ifft, ifft2, ifftn, ihfft, ihfft2, ihfftn, irfft,
    irfft2, irfftn, rfft, rfft2, rfftn)
from gpunp.scipy.fft._fftlog import fht, fhtoffset, ifht
from gpunp.scipy.fft._helper import (
    Plan, get_fft_plan, get_workers, next_fast_len, prev_fast_len, set_workers)
from gpunp.scipy.fft._realtransforms import dct, dctn, dst, dstn, idct, idctn, idst, idstn
from gpunp.fft import fftfreq, fftshift, ifftshift, rfftfreq

__all__ = [
    "fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2",
    "rfftn", "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftfreq",
    "rfftfreq", "fftshift", "ifftshift", "next_fast_len", "prev_fast_len", "dct", "idct",
    "dst", "idst", "dctn", "idctn", "dstn", "idstn", "fht", "ifht", "fhtoffset",
    "get_workers", "set_workers", "get_fft_plan", "set_backend", "skip_backend",
    "set_global_backend", "register_backend",
]

# scipy.fft's backend controls, SciPy's own (they act on SciPy's dispatch),
# so gpunp.scipy.fft.set_backend(gpunp.scipy.fft) reads as SciPy's does
_SCIPY_CONTROLS = ("set_backend", "skip_backend", "set_global_backend", "register_backend")


def __getattr__(name):
    if name in _SCIPY_CONTROLS:
        import scipy.fft
        return getattr(scipy.fft, name)
    raise AttributeError(f"module 'gpunp.scipy.fft' has no attribute {name!r}")
