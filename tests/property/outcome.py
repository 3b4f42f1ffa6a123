"""Running the same call on NumPy and on gpunp and comparing what came out:
a value, or an exception of the same kind."""

from __future__ import annotations

import builtins
import contextlib
import warnings

import numpy as np
import pytest

import gpunp as gp


@contextlib.contextmanager
def quiet():
    """NumPy's floating-point and cast warnings are not part of what is
    compared (gpunp does not warn), so they are silenced on both sides."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            yield


def quieted(call):
    """`call` with RuntimeWarnings (NumPy's and gpunp's) silenced."""
    def run():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return call()
    return run


def error_kind(exc: BaseException) -> type:
    """The exception class gpunp must raise where NumPy raised `exc`: AxisError
    itself, else the nearest built-in class (NumPy's private subclasses such
    as UFuncTypeError are TypeErrors to a caller)."""
    if isinstance(exc, np.exceptions.AxisError):
        return np.exceptions.AxisError
    for cls in type(exc).__mro__:
        if getattr(builtins, cls.__name__, None) is cls:
            return cls
    return Exception


def _synchronized(call):
    """The call, then a device synchronisation: on a GPU an out-of-bounds
    index is reported at the next synchronisation or copy to the host, and
    must be reported by this call, not a later one."""
    def run():
        r = call()
        gp.cuda.Device().synchronize()
        return r
    return run


def same_outcome(numpy_call, gpunp_call):
    """Runs both calls. If NumPy raises, gpunp must raise the same kind of
    error and (None, None) is returned; otherwise (gpunp's result, NumPy's).

    What an older NumPy only deprecates (int() of a 1-element 1-d array,
    assigning a 1-element array to one element, a NumPy bool as an integer
    argument: TypeError or ValueError; an out-of-bounds index where the
    result is empty: IndexError; all in NumPy 2.2, the newest for Python
    3.10) gpunp refuses, as the NumPy that ended the deprecation does."""
    gpunp_call = _synchronized(gpunp_call)
    with quiet():
        warnings.simplefilter("error", DeprecationWarning)
        try:
            want = numpy_call()
        except DeprecationWarning:
            with pytest.raises((TypeError, ValueError, IndexError)):
                gpunp_call()
            return None, None
        except Exception as exc:  # noqa: BLE001 - any NumPy error is the reference
            kind = error_kind(exc)
            with pytest.raises(kind):
                gpunp_call()
            return None, None
        got = gpunp_call()
    return got, want


def host(x):
    """A NumPy copy of a gpunp result (NumPy results pass through)."""
    return x.get() if isinstance(x, gp.ndarray) else np.asarray(x)


def numpy_twin(g: gp.ndarray, values: np.ndarray) -> np.ndarray:
    """A NumPy array with exactly the shape and strides of the gpunp array
    `g` (any layout: transposed, strided, reversed, empty) holding `values`:
    NumPy's reference for questions of layout (which order a result takes,
    whether a reshape can be a view)."""
    isz, shape, strides = g.itemsize, g.shape, g.strides
    lo = hi = 0
    if g.size:
        lo = sum((n - 1) * s for n, s in zip(shape, strides) if s < 0)
        hi = sum((n - 1) * s for n, s in zip(shape, strides) if s > 0) + isz
    buf = np.empty(hi - lo, np.uint8)
    twin = np.ndarray(shape, g.dtype, buffer=buf, offset=-lo, strides=strides)
    twin[...] = values
    return twin
