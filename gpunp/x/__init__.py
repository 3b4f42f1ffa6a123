"""``gpunp.x``: the home of what CuPy keeps in ``cupyx``, so that
``import gpunp.x as cupyx`` serves CuPy code: ``scatter_add``,
``scatter_max``, ``scatter_min``, the pinned NumPy arrays
(``empty_pinned``, ``zeros_pinned`` and their ``_like`` forms), ``profiler`` (gpunp.profiler) and
``scipy`` (gpunp.scipy), both loaded at first use."""

import importlib as _importlib

from gpunp._idioms import scatter_add, scatter_max, scatter_min
from gpunp.x._pinned import empty_like_pinned, empty_pinned, zeros_like_pinned, zeros_pinned

__all__ = ["profiler", "scatter_add", "scatter_max", "scatter_min", "scipy", "empty_pinned",
           "zeros_pinned", "empty_like_pinned", "zeros_like_pinned"]


def __getattr__(name):
    if name in ("profiler", "scipy"):
        return _importlib.import_module("gpunp." + name)
    raise AttributeError(f"module 'gpunp.x' has no attribute {name!r}")
