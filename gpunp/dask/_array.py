"""dask.array's dispatch for gpunp chunks, and the ``array.backend`` entry
point ``"gpunp"``.

Dask picks an implementation by the type of a chunk (``concatenate_lookup``
and its siblings in ``dask.array.dispatch``); its defaults are NumPy's
functions, which gpunp answers through ``__array_function__`` for most of
them, but a few defaults build NumPy arrays outright (``np.empty``, the
element counts of ``std``/``var``), which gpunp will not mix with device
arrays. Every registration here keeps the chunks on the device.
"""

import math

import numpy

import gpunp
from dask import config
from dask.array.backends import ArrayBackendEntrypoint
from dask.array.dispatch import (
    concatenate_lookup, divide_lookup, einsum_lookup, empty_lookup, nannumel_lookup,
    numel_lookup, percentile_lookup, take_lookup, tensordot_lookup, to_cupy_dispatch,
    to_numpy_dispatch)
from dask.utils import Dispatch

# Chunk conversion to gpunp, by the chunk's type (dask's to_cupy_dispatch
# for gpunp): Array.to_backend("gpunp") maps it over the blocks
to_gpunp_dispatch = Dispatch("to_gpunp_dispatch")


def _numel(x, **kwargs):
    # The element count of a chunk along `axis`, as an array of the chunk's
    # kind where dask goes on to divide device sums by it (moment_chunk);
    # a whole-array count without keepdims stays a NumPy scalar, as dask's own
    shape = x.shape
    axis = kwargs.get("axis")
    keepdims = kwargs.get("keepdims", False)
    dtype = kwargs.get("dtype", numpy.float64)
    if axis is None:
        n = numpy.prod(shape, dtype=dtype)
        return gpunp.full((1,) * len(shape), n, dtype=dtype) if keepdims else n
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    axes = [a % len(shape) for a in axes]
    n = math.prod(shape[a] for a in axes)
    if keepdims:
        out = tuple(1 if d in axes else s for d, s in enumerate(shape))
    else:
        out = tuple(s for d, s in enumerate(shape) if d not in axes)
    return gpunp.full(out, n, dtype=dtype)


def _nannumel(x, **kwargs):
    return gpunp.sum(~gpunp.isnan(x), **kwargs)


def _percentile(a, q, method="linear"):
    # one chunk's percentiles and its length, the pair dask merges
    n = len(a)
    if not n:
        return None, n
    if a.dtype.kind not in "biufc":
        method = "nearest"
    return gpunp.percentile(a, q, method=method), n


def _einsum(*args, **kwargs):
    return gpunp.einsum(*args, **kwargs)


def _to_cupy(x, **kwargs):
    import cupy  # only where the caller asked for CuPy chunks

    return cupy.asarray(x, **kwargs)  # shares memory through __cuda_array_interface__


def _register_dispatch():
    nd = gpunp.ndarray
    concatenate_lookup.register(nd, gpunp.concatenate)
    take_lookup.register(nd, gpunp.take)
    tensordot_lookup.register(nd, gpunp.tensordot)
    einsum_lookup.register(nd, _einsum)
    empty_lookup.register(nd, gpunp.empty)
    divide_lookup.register(nd, gpunp.divide)
    percentile_lookup.register(nd, _percentile)
    numel_lookup.register(nd, _numel)
    nannumel_lookup.register(nd, _nannumel)
    to_numpy_dispatch.register(nd, lambda x, **kw: gpunp.asnumpy(x, **kw))
    to_cupy_dispatch.register(nd, _to_cupy)
    to_gpunp_dispatch.register(nd, lambda x, **kw: x)
    to_gpunp_dispatch.register(numpy.ndarray, lambda x, **kw: gpunp.asarray(x, **kw))
    to_gpunp_dispatch.register_lazy("cupy", _register_cupy)


def _register_cupy():
    import cupy  # Dask has met a CuPy chunk, so CuPy is imported

    # shared through __cuda_array_interface__, no copy
    to_gpunp_dispatch.register(cupy.ndarray, lambda x, **kw: gpunp.asarray(x, **kw))


def _with_meta(name, *args, meta=None, **kwargs):
    # dask's creation functions with a gpunp meta array, under the numpy
    # backend so that they do not come back here
    import dask.array as da

    meta = gpunp.empty(()) if meta is None else meta
    with config.set({"array.backend": "numpy"}):
        return getattr(da, name)(*args, meta=meta, **kwargs)


class GpunpBackendEntrypoint(ArrayBackendEntrypoint):
    """``dask.config.set({"array.backend": "gpunp"})``: dask.array's creation
    functions (``ones``, ``zeros``, ``empty``, ``full``, ``arange``,
    ``random``) make gpunp chunks. Found by dask through the
    ``dask.array.backends`` entry point of gpunp's package metadata."""

    def __init__(self):
        from gpunp.dask import register

        register()

    @classmethod
    def to_backend_dispatch(cls):
        return to_gpunp_dispatch

    @classmethod
    def to_backend(cls, data, **kwargs):
        if isinstance(data._meta, gpunp.ndarray):
            return data
        return data.map_blocks(to_gpunp_dispatch, meta=gpunp.empty((0,) * data.ndim,
                                                                   dtype=data.dtype), **kwargs)

    @property
    def RandomState(self):
        return gpunp.random.RandomState

    @property
    def default_bit_generator(self):
        return gpunp.random.Philox

    @staticmethod
    def ones(*args, **kwargs):
        return _with_meta("ones", *args, **kwargs)

    @staticmethod
    def zeros(*args, **kwargs):
        return _with_meta("zeros", *args, **kwargs)

    @staticmethod
    def empty(*args, **kwargs):
        return _with_meta("empty", *args, **kwargs)

    @staticmethod
    def full(*args, **kwargs):
        return _with_meta("full", *args, **kwargs)

    @staticmethod
    def arange(*args, like=None, **kwargs):
        import dask.array as da

        like = gpunp.empty(()) if like is None else like
        with config.set({"array.backend": "numpy"}):
            return da.arange(*args, like=like, **kwargs)
