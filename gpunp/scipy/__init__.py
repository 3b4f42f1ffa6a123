"""``gpunp.scipy``: SciPy's subpackages for gpunp arrays, name for name
(``gpunp.scipy.sparse`` is ``scipy.sparse``'s API...).

``gpunp.scipy`` loads at its first use, and each subpackage at the first use
of its name, as ``gpunp.linalg`` does: ``import gpunp`` loads none of them.

The code under gpunp/scipy/ uses gpunp's public API only (``import gpunp``,
its public names and submodules), never gpunp's private modules
(``gpunp._xxx``); a subpackage may have private modules of its own."""

import importlib as _importlib

# SciPy's subpackages that gpunp.scipy mirrors
_SUBPACKAGES = ("fft", "fftpack", "interpolate", "linalg", "ndimage", "signal", "sparse", "spatial",
                "special", "stats")

__all__ = list(_SUBPACKAGES)


def __getattr__(name):
    if name in _SUBPACKAGES:
        return _importlib.import_module("gpunp.scipy." + name)
    raise AttributeError(f"module 'gpunp.scipy' has no attribute {name!r}")
