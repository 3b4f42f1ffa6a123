"""``gpunp.x``: the home of what CuPy keeps in ``cupyx``, so that
``import gpunp.x as cupyx`` serves CuPy code: ``scatter_add``,
``scatter_max``, ``scatter_min``, ``profiler`` (gpunp.profiler) and
``scipy`` (gpunp.scipy), both loaded at first use."""

import importlib as _importlib

from gpunp._idioms import scatter_add, scatter_max, scatter_min

__all__ = ["profiler", "scatter_add", "scatter_max", "scatter_min", "scipy"]


def __getattr__(name):
    if name in ("profiler", "scipy"):
        return _importlib.import_module("gpunp." + name)
    raise AttributeError(f"module 'gpunp.x' has no attribute {name!r}")
