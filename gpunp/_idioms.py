"""CuPy's idioms beyond NumPy's names: ``get_array_module`` (the namespace
of the arguments, for code that runs on both), ``memoize`` and
``clear_memo``, and ``scatter_add``/``scatter_max``/``scatter_min``
(CuPy's ``cupyx.scatter_*``: unbuffered in-place updates, NumPy's
``ufunc.at``, which they call)."""

from __future__ import annotations

import functools

import numpy

import gpunp
from gpunp.cuda import get_device_id
from gpunp._ndarray import ndarray


def _is_device(x) -> bool:
    # gpunp.scipy.sparse's arrays are device data too: they have a host form
    return isinstance(x, ndarray) or hasattr(type(x), "__gpunp_asnumpy__")


def get_array_module(*args):
    """``gpunp`` if any argument is a gpunp array (or gpunp.scipy.sparse
    array), else ``numpy``: ``xp = gpunp.get_array_module(x)`` lets one
    function serve host and device data."""
    return gpunp if any(_is_device(a) for a in args) else numpy


# Every memoized function's cache, for clear_memo
_MEMOS = []


def memoize(for_each_device=False):
    """A decorator caching a function's result by its (hashable) arguments;
    with `for_each_device`, one cache per current device (a result holding
    device memory belongs to the device that made it)."""
    def decorator(f):
        memo = {}
        _MEMOS.append(memo)

        @functools.wraps(f)
        def cached(*args, **kwargs):
            key = (args, frozenset(kwargs.items()))
            if for_each_device:
                key = (get_device_id(), key)
            try:
                return memo[key]
            except KeyError:
                result = memo[key] = f(*args, **kwargs)
                return result
        return cached
    return decorator


def clear_memo() -> None:
    """Empties every cache made by ``memoize``."""
    for memo in _MEMOS:
        memo.clear()


def _scatter(ufunc_name, doc):
    def scatter(a, slices, value):
        if not isinstance(a, ndarray):
            raise TypeError(f"a must be a gpunp.ndarray, not {type(a).__name__}")
        getattr(gpunp, ufunc_name).at(a, slices, value)
    scatter.__name__ = scatter.__qualname__ = "scatter_" + ufunc_name[:3]
    scatter.__doc__ = doc
    return scatter


scatter_add = _scatter("add", """Adds `value` to ``a[slices]`` in place,
    unbuffered: an element named twice gets both (``gpunp.add.at``).""")
scatter_max = _scatter("maximum", """``a[slices] = maximum(a[slices],
    value)`` in place, unbuffered (``gpunp.maximum.at``).""")
scatter_min = _scatter("minimum", """``a[slices] = minimum(a[slices],
    value)`` in place, unbuffered (``gpunp.minimum.at``).""")
