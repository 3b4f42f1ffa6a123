"""What every statistic of gpunp.scipy.stats does to its input first: the
array on the device, the float dtype SciPy computes in, the axis (None
ravels), nan_policy, and keepdims on the way out.

nan_policy='omit' is a mask, not a removal: each reduction counts and sums
only the finite-or-infinite entries of its slice (``_Masked``), so a slice
left empty gives NaN as SciPy's does, and no slice is ever moved to the
host."""

from __future__ import annotations

import math

import gpunp
from gpunp.scipy._host import as_device

_POLICIES = ("propagate", "omit", "raise")


def float_array(a, dtype=None):
    """a on the device in the dtype SciPy's statistics answer in: float32
    stays float32 (and float16 float16), integers and bools become float64."""
    a = as_device(a)
    if dtype is not None:
        return a.astype(dtype)
    if a.dtype.kind in "fc":
        return a
    return a.astype(gpunp.float64)


def check_policy(nan_policy):
    if nan_policy not in _POLICIES:
        raise ValueError("nan_policy must be one of {'omit', 'propagate', 'raise'}.")


def nan_mask(a, nan_policy):
    """None when the NaNs (if any) propagate; else the mask of the entries
    to keep. 'raise' raises SciPy's ValueError if a holds a NaN."""
    check_policy(nan_policy)
    if nan_policy == "propagate" or a.dtype.kind not in "fc":
        return None
    nans = gpunp.isnan(a)
    if not bool(nans.any()):
        return None
    if nan_policy == "raise":
        raise ValueError("The input contains nan values")
    return ~nans


def axis_of(a, axis):
    """(a, axis) with axis None meaning the raveled array's axis 0, and a
    too-large axis NumPy's AxisError."""
    if axis is None:
        return a.reshape(-1), 0
    axis = int(axis)
    if not -a.ndim <= axis < max(a.ndim, 1):
        raise gpunp.exceptions.AxisError(axis, a.ndim)
    if a.ndim == 0:
        return a.reshape(1), 0
    return a, axis % a.ndim


def keep(res, ndim, axis, keepdims):
    """res, a reduction over `axis` of an ndim-d array (axis None: of all of
    it), with that axis kept as length 1 when keepdims."""
    if not keepdims:
        return res
    if axis is None:
        return res.reshape((1,) * ndim)
    return gpunp.expand_dims(res, axis)


class Masked:
    """Reductions over one axis of `a` that see only the entries where
    `mask` is True (mask None: all of them)."""

    def __init__(self, a, axis, mask=None):
        self.a, self.axis, self.mask = a, axis, mask

    def count(self, keepdims=False):
        if self.mask is None:
            n = self.a.shape[self.axis]
            shape = list(self.a.shape)
            if keepdims:
                shape[self.axis] = 1
            else:
                del shape[self.axis]
            return gpunp.full(tuple(shape), n, dtype=self.a.dtype)
        return gpunp.sum(self.mask, axis=self.axis, keepdims=keepdims).astype(self.a.dtype)

    def sum(self, x, keepdims=False):
        if self.mask is not None:
            x = gpunp.where(self.mask, x, 0)
        return gpunp.sum(x, axis=self.axis, keepdims=keepdims).astype(self.a.dtype)

    def mean(self, x=None, keepdims=False):
        x = self.a if x is None else x
        with gpunp.errstate(invalid="ignore", divide="ignore"):
            if self.mask is None:
                return gpunp.mean(x, axis=self.axis, keepdims=keepdims)
            return self.sum(x, keepdims) / self.count(keepdims)

    def central(self, order, mean=None):
        """The order-th central moment (about `mean`, kept-dims, if given)."""
        if mean is None:
            mean = self.mean(keepdims=True)
        return self.mean((self.a - mean) ** order)

    def var(self, ddof=0, keepdims=False):
        mean = self.mean(keepdims=True)
        d = self.a - mean
        with gpunp.errstate(invalid="ignore", divide="ignore"):
            dof = self.count(keepdims) - ddof
            # no degrees of freedom left: NaN, as SciPy's (not -0 or inf)
            dof = gpunp.where(dof > 0, dof, math.nan).astype(self.a.dtype)
            return self.sum(d * d, keepdims) / dof
