"""scipy.fft's backend protocol (uarray): ``scipy.fft.set_backend(gpunp.scipy.fft)``
sends scipy.fft's calls here. A call is answered when one of its array
arguments is a gpunp array and this module has the function; otherwise
NotImplemented lets the next backend (SciPy's own) answer it."""

from __future__ import annotations

import sys

import gpunp

__ua_domain__ = "numpy.scipy.fft"


def _holds_gpunp(values) -> bool:
    for v in values:
        if isinstance(v, gpunp.ndarray):
            return True
        if isinstance(v, (list, tuple)) and _holds_gpunp(v):
            return True
    return False


def __ua_function__(method, args, kwargs):
    fn = getattr(sys.modules["gpunp.scipy.fft"], method.__name__, None)
    if fn is None or not _holds_gpunp(list(args) + list(kwargs.values())):
        return NotImplemented
    return fn(*args, **kwargs)


def __ua_convert__(dispatchables, coerce):
    # gpunp takes its own arrays as they are; with coerce (set_backend's
    # coerce=True) anything array-like is moved to the device
    if coerce:
        return [gpunp.asarray(d.value) if d.type is not None else d.value
                for d in dispatchables]
    return [d.value for d in dispatchables]
