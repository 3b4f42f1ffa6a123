"""SciPy 1.17's batching for the functions that have no batched form of
their own here: a function of core arrays (matrices, vectors) applied to
each element of the broadcast batch of leading dimensions, its results
stacked. SciPy does the same (a loop over the batch); every call still
runs on the device."""

from __future__ import annotations

import functools

import numpy

import gpunp
from gpunp.scipy._host import as_device  # noqa: F401  (for this subpackage's modules)


def _stack(results, batch):
    first = results[0]
    if isinstance(first, (tuple, list)):
        return tuple(_stack([r[i] for r in results], batch) for i in range(len(first)))
    if isinstance(first, gpunp.ndarray):
        return gpunp.stack(results).reshape(batch + first.shape)
    return gpunp.asarray(numpy.array(results).reshape(batch))


def over_batch(*core, variadic=False):
    """Decorates a function whose first len(core) positional arguments are
    arrays of core[i] dimensions (all positional arguments, of core[0]
    dimensions, when variadic); None passes through."""
    def decorate(fn):
        @functools.wraps(fn)
        def batched(*args, **kwargs):
            count = len(args) if variadic else min(len(core), len(args))
            dims = [core[0] if variadic else core[i] for i in range(count)]
            arrays = [None if a is None else as_device(a) for a in args[:count]]
            shapes = [a.shape[:a.ndim - d] for a, d in zip(arrays, dims)
                      if a is not None and a.ndim > d]
            if not shapes:
                return fn(*args, **kwargs)
            batch = gpunp.broadcast_shapes(*shapes)
            full = [None if a is None else gpunp.broadcast_to(
                a, batch + a.shape[max(a.ndim - d, 0):]) for a, d in zip(arrays, dims)]
            if 0 in batch:
                raise ValueError("an empty batch has no result shape to give")
            results = [fn(*[None if a is None else a[i] for a in full], *args[count:],
                          **kwargs) for i in numpy.ndindex(*batch)]
            return _stack(results, batch)
        return batched
    return decorate
