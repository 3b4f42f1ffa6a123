"""NumPy's calls on gpunp arrays: NEP 13 (``__array_ufunc__``), NEP 18
(``__array_function__``) and NEP 35 (``like=``). A NumPy ufunc or function
runs gpunp's of the same name; one gpunp lacks raises NumPy's TypeError
rather than quietly running on the host.

The functions routed are not listed by hand: they are every public name of
``gpunp`` (``gpunp.__all__``), ``gpunp.linalg``, ``gpunp.fft`` and
``gpunp.lib.stride_tricks`` that is a function in the NumPy module of the
same place, except where gpunp's object is NumPy's own (the host helpers
gpunp re-exports, such as ``seterr``). NumPy hands ``__array_function__``
only its dispatched functions and those taking ``like=``; a routed name of
another kind (``hamming``, no array argument) is never looked up. Nothing
of ``numpy.random`` dispatches."""

from __future__ import annotations

import numpy

import gpunp
from gpunp._array_api import vecdot
from gpunp._ndarray import ndarray
from gpunp._products import matmul
from gpunp._ufunc import array_ufunc as _elementwise_array_ufunc
from gpunp._vecmat import matvec, vecmat

# ---- NEP 13 ----------------------------------------------------------------------------

# NumPy's gufuncs that gpunp has, where this NumPy has them (vecdot since
# 2.0, matvec and vecmat since 2.2). matvec's and vecmat's keywords (out=,
# axes=) are not taken: they fall through to NotImplemented, NumPy's TypeError.
_VECDOT = getattr(numpy, "vecdot", None)
_VECTOR_GUFUNCS = {getattr(numpy, n): f for n, f in (("matvec", matvec), ("vecmat", vecmat))
                   if hasattr(numpy, n)}


def _held_scalar(x):
    # A 0-d NumPy array is the NumPy scalar it holds: one value, promoted as
    # that scalar (NEP 50 treats the two alike), which gpunp takes by value
    # as it takes NumPy scalars. Dask and xarray make such chunks of fill
    # values (xarray's rolling windows). Larger NumPy arrays stay refused.
    if type(x) is numpy.ndarray and x.ndim == 0:
        return x[()]
    if type(x) in (list, tuple) and any(type(v) is numpy.ndarray and v.ndim == 0 for v in x):
        return type(x)(_held_scalar(v) for v in x)
    return x


# ndarray.__array_ufunc__: NumPy's gufuncs above, else its elementwise ufuncs
def array_ufunc(self, uf, method, *inputs, **kwargs):
    inputs = tuple(_held_scalar(x) for x in inputs)
    f = _VECTOR_GUFUNCS.get(uf)
    if f is not None and method == "__call__" and not kwargs and \
            all(isinstance(x, ndarray) for x in inputs):
        return f(*inputs)
    if uf is numpy.matmul:
        if method != "__call__" or not all(isinstance(x, ndarray) for x in inputs):
            return NotImplemented
        out = kwargs.pop("out", None)
        return matmul(*inputs, out=out[0] if isinstance(out, tuple) else out, **kwargs)
    if uf is _VECDOT and method == "__call__" and not kwargs.keys() - {"axis"} and \
            all(isinstance(x, ndarray) for x in inputs):
        return vecdot(*inputs, **kwargs)
    return _elementwise_array_ufunc(self, uf, method, *inputs, **kwargs)


# ---- NEP 18 and NEP 35 -------------------------------------------------------------------

_ROUTES: dict = {}


def _routes_of(mine, theirs) -> dict:
    """{NumPy's function: gpunp's} for the public names of the gpunp module
    `mine` that are functions in the NumPy module `theirs`."""
    routes = {}
    for name in mine.__all__:
        # gpunp's object first: a submodule gpunp loads at first use is not
        # a function, and neither NumPy's nor gpunp's is loaded by asking
        ours = vars(mine).get(name)
        if not callable(ours) or isinstance(ours, type):
            continue
        np_fn = getattr(theirs, name, None)
        if not callable(np_fn) or isinstance(np_fn, (type, numpy.ufunc)) or np_fn is ours:
            continue
        # a NumPy function of two names (concat is concatenate) runs gpunp's
        # of its own name
        if np_fn not in routes or name == np_fn.__name__:
            routes[np_fn] = ours
    return routes


def routes() -> dict:
    """{NumPy function: the gpunp function __array_function__ runs for it},
    made at the first call: gpunp.linalg, gpunp.fft and gpunp.polynomial
    load then, not at ``import gpunp``."""
    global _ROUTES
    if not _ROUTES:
        table = {}
        # numpy.polynomial's dispatched functions: polyvalnd (NumPy 2.5)
        for mine, theirs in ((gpunp, numpy), (gpunp.linalg, numpy.linalg),
                             (gpunp.fft, numpy.fft),
                             (gpunp.lib.stride_tricks, numpy.lib.stride_tricks),
                             (gpunp.polynomial.polynomial, numpy.polynomial.polynomial)):
            table.update(_routes_of(mine, theirs))
        _ROUTES = table
    return _ROUTES


# ndarray.__array_function__
def array_function(self, func, types, args, kwargs):
    impl = routes().get(func)
    if impl is None:
        return NotImplemented
    if numpy.ndarray in types:
        args = tuple(_held_scalar(a) for a in args)
        kwargs = {k: _held_scalar(v) for k, v in kwargs.items()}
        if _holds_numpy_array(args) or _holds_numpy_array(kwargs.values()):
            return NotImplemented
    for t in types:
        if not issubclass(t, ndarray) and t is not numpy.ndarray:
            return NotImplemented
    return impl(*args, **kwargs)


def _holds_numpy_array(values) -> bool:
    return any(isinstance(v, numpy.ndarray) or
               (type(v) in (list, tuple) and any(isinstance(w, numpy.ndarray) for w in v))
               for v in values)
