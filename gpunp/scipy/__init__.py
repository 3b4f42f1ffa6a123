"""``gpunp.scipy``: SciPy's subpackages for gpunp arrays, name for name
(``gpunp.scipy.sparse`` is ``scipy.sparse``'s API...).

``gpunp.scipy`` loads at its first use, and each subpackage at the first use
of its name, as ``gpunp.linalg`` does: ``import gpunp`` loads none of them.

The code under gpunp/scipy/ uses gpunp's public API only (``import gpunp``,
its public names and submodules), never gpunp's private modules
(``gpunp._xxx``); a subpackage may have private modules of its own.

``get_array_module(*args)`` is ``cupyx.scipy.get_array_module``: the
namespace of SciPy's functions for the arguments (not in ``__all__``, which
lists SciPy's subpackages)."""

import importlib as _importlib

import gpunp as _gpunp

# SciPy's subpackages that gpunp.scipy mirrors
_SUBPACKAGES = ("fft", "fftpack", "interpolate", "linalg", "ndimage", "signal", "sparse", "spatial",
                "special", "stats")

__all__ = list(_SUBPACKAGES)


def get_array_module(*args):
    """``gpunp.scipy`` if any argument is gpunp data (a gpunp array or a
    gpunp.scipy.sparse array), else ``scipy``: ``xsp =
    gpunp.scipy.get_array_module(x)`` then ``xsp.special.erf(x)`` serves host
    and device data."""
    if _gpunp.get_array_module(*args) is _gpunp:
        return _importlib.import_module("gpunp.scipy")
    return _importlib.import_module("scipy")


def __getattr__(name):
    if name in _SUBPACKAGES:
        return _importlib.import_module("gpunp.scipy." + name)
    raise AttributeError(f"module 'gpunp.scipy' has no attribute {name!r}")
