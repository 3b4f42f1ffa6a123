"""rankdata and what ranks give: one stable sort per slice, the ties found
as runs of the sorted slice, each run's first and last position by a scan,
and the ranks put back in the slice's order by one scatter."""

from __future__ import annotations

import math

import gpunp
from gpunp.scipy._host import as_device
from gpunp.scipy._version import scipy_version
from gpunp.scipy.stats._common import check_policy

_METHODS = ("average", "min", "max", "dense", "ordinal")


def _sorted_ranks(s, method):
    """Ranks (1-based) of the sorted last axis s, by method; ties are runs
    of equal values (NaNs each a run of their own, as SciPy's)."""
    n = s.shape[-1]
    idx = gpunp.arange(n)
    if method == "ordinal":
        return gpunp.broadcast_to(idx + 1, s.shape)
    starts = gpunp.concatenate([gpunp.ones(s.shape[:-1] + (1,), dtype=bool),
                                s[..., 1:] != s[..., :-1]], axis=-1)
    if method == "dense":
        return gpunp.cumsum(starts, axis=-1)
    first = gpunp.maximum.accumulate(gpunp.where(starts, idx, 0), axis=-1) + 1
    if method == "min":
        return first
    ends = gpunp.concatenate([starts[..., 1:], gpunp.ones(s.shape[:-1] + (1,), dtype=bool)],
                             axis=-1)
    # the last position of each run: a scan from the right
    last = gpunp.minimum.accumulate(gpunp.where(ends, idx, n)[..., ::-1], axis=-1)[..., ::-1] + 1
    if method == "max":
        return last
    return (first + last) / 2.0


def rankdata(a, method="average", *, axis=None, nan_policy="propagate"):
    """Ranks of a's values (ties by method) along axis; None ranks the raveled
    array."""
    if method not in _METHODS:
        raise ValueError(f'unknown method "{method}"')
    check_policy(nan_policy)
    a = as_device(a)
    if a.ndim == 0:
        a = a.reshape(1)
    if axis is None:
        a, axis = a.reshape(-1), -1
    elif not -a.ndim <= axis < a.ndim:
        raise gpunp.exceptions.AxisError(axis, a.ndim)
    x = gpunp.moveaxis(a, axis, -1)
    nans = gpunp.isnan(x) if x.dtype.kind in "fc" else None
    has_nan = nans is not None and x.size and bool(nans.any())
    if has_nan and nan_policy == "raise":
        raise ValueError("The input contains nan values")
    # SciPy 1.18 ranks in float64 whatever the method; before, the integer
    # methods gave int64 (float64 where a NaN propagates)
    floating = method == "average" or scipy_version() >= 11800
    if x.size == 0:
        dtype = gpunp.float64 if floating else gpunp.int64
        return gpunp.moveaxis(gpunp.empty(x.shape, dtype=dtype), -1, axis)
    order = gpunp.argsort(x, axis=-1, kind="stable")
    ranks = _sorted_ranks(gpunp.take_along_axis(x, order, axis=-1), method)
    dtype = gpunp.float64 if floating or has_nan else gpunp.int64
    out = gpunp.empty(x.shape, dtype=dtype)
    gpunp.put_along_axis(out, order, ranks.astype(dtype), axis=-1)
    if has_nan:
        nan = gpunp.asarray(math.nan)
        if nan_policy == "omit":
            out = gpunp.where(nans, nan, out)
        else:
            out = gpunp.where(gpunp.any(nans, axis=-1, keepdims=True), nan, out)
    return gpunp.moveaxis(out, -1, axis)
