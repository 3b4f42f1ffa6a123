"""Statistics built from the reductions and ufuncs: var, std (NumPy's
two-pass algorithm: the mean, then the sum of squared deviations) and ptp.
Every step is an engine operation, so they run on every backend."""

from __future__ import annotations

import math
import warnings

import numpy

from gpunp import _lib
from gpunp._comparisons import clip
from gpunp._creation import _array, array, asarray, empty
from gpunp._joining import concatenate
from gpunp._manipulation import broadcast_to
from gpunp._matrices import diag
from gpunp._ndarray import ndarray
from gpunp._products import dot
from gpunp._reduction import any as _any, masked_count, max as _max, mean, min as _min, sum as _sum
from gpunp._ufunc import UFUNCS, _single_out

_subtract, _multiply, _add = UFUNCS["subtract"], UFUNCS["multiply"], UFUNCS["add"]
_divide, _sqrt, _maximum = UFUNCS["true_divide"], UFUNCS["sqrt"], UFUNCS["maximum"]


def _reduced_count(a, axis) -> int:
    if axis is None:
        return a.size
    axes = _lib.normalize_axis_tuple(axis, a.ndim)
    return math.prod(a.shape[d] for d in axes)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    """Variance over the given axes (numpy.var): integers in float64; the
    result of a complex array is real; where= and mean= as NumPy's."""
    if correction is not None:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    a = _array(a)
    o = _single_out(out, "var")
    if where is True:
        n = _reduced_count(a, axis)
        few = ddof >= n
    else:
        n = masked_count(a, axis, keepdims, where)
        few = bool(_any(n <= ddof))
    if few:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
    if dtype is None and a.dtype.kind in "biu":
        dtype = numpy.float64
    if mean is not None:
        m = _array(mean)
    else:
        m = _sum(a, axis=axis, dtype=dtype, keepdims=True, where=where)
        div = n if where is True else n.reshape(m.shape)
        m = _divide(m, div, out=m, casting="unsafe")
    x = _subtract(a, m)
    if x.dtype.kind == "c":
        re, im = x.real, x.imag
        sq = _add(_multiply(re, re), _multiply(im, im))
    else:
        sq = _multiply(x, x, out=x)
    r = _sum(sq, axis=axis, dtype=dtype, out=o, keepdims=keepdims, where=where)
    dof = max(n - ddof, 0) if where is True else _maximum(_subtract(n, ddof), 0)
    return _divide(r, dof, out=r, casting="unsafe")


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    """Standard deviation over the given axes (numpy.std): the square root of var."""
    r = var(a, axis, dtype, out, ddof, keepdims, where=where, mean=mean, correction=correction)
    return _sqrt(r, out=r, casting="unsafe")


def ptp(a, axis=None, out=None, keepdims=False) -> ndarray:
    """Range of values (maximum - minimum) over the given axes (numpy.ptp)."""
    a = _array(a)
    o = _single_out(out, "ptp")
    hi = _max(a, axis=axis, keepdims=keepdims)
    lo = _min(a, axis=axis, keepdims=keepdims)
    return _subtract(hi, lo, out=o)


def _method(fn):
    # NumPy's methods take no correction=
    def method(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
               mean=None):
        return fn(self, axis, dtype, out, ddof, keepdims, where=where, mean=mean)
    method.__name__ = fn.__name__
    method.__doc__ = fn.__doc__
    return method


_var_method, _std_method = _method(var), _method(std)  # rows of gpunp._ndarray.METHODS


# ---- weighted means and covariances -------------------------------------------------

def _weights_for(a: ndarray, w: ndarray, axis):
    """The weights laid out to broadcast against `a` (NumPy's checks)."""
    if a.shape == w.shape:
        return w
    if axis is None:
        raise TypeError("Axis must be specified when shapes of a and weights differ.")
    if w.shape != tuple(a.shape[ax] for ax in axis):
        raise ValueError("Shape of weights must be consistent with shape of a along specified "
                         "axis.")
    w = w.transpose(tuple(int(i) for i in numpy.argsort(axis)))
    return w.reshape(tuple(s if ax in axis else 1 for ax, s in enumerate(a.shape)))


def average(a, axis=None, weights=None, returned=False, *, keepdims=numpy._NoValue):
    """Weighted mean over the given axes (numpy.average); with `returned`
    also the sum of the weights."""
    a = _array(a)
    if axis is not None:
        axis = _lib.normalize_axis_tuple(axis, a.ndim, argname="axis")
    kw = {} if keepdims is numpy._NoValue else {"keepdims": keepdims}
    if weights is None:
        avg = mean(a, axis, **kw)
        scl = avg.dtype.type(a.size / avg.size)  # NumPy's ZeroDivisionError for no result
    else:
        w = _weights_for(a, _array(weights), axis)
        if a.dtype.kind in "biu":
            rdt = numpy.result_type(a.dtype, w.dtype, "f8")
        else:
            rdt = numpy.result_type(a.dtype, w.dtype)
        scl = _sum(w, axis=axis, dtype=rdt, **kw)
        if bool((scl == 0.0).any()):
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        avg = _divide(_sum(_multiply(a, w, dtype=rdt), axis, **kw), scl)
    if not returned:
        return avg
    if numpy.shape(scl) != avg.shape:
        scl = broadcast_to(scl if isinstance(scl, ndarray) else asarray(scl), avg.shape).copy()
    return avg, scl


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
        dtype=None):
    """Covariance matrix of the rows (variables) of m (numpy.cov): bias,
    ddof, frequency and analytic weights, dtype."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    m = _array(m)
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if y is not None:
        y = _array(y)
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = numpy.result_type(m.dtype, numpy.float64) if y is None else \
            numpy.result_type(m.dtype, y.dtype, numpy.float64)
    X = array(m, ndmin=2, dtype=dtype)
    if not rowvar and m.ndim != 1:
        X = X.T
    if X.shape[0] == 0:
        return empty((0, 0))
    if y is not None:
        y = array(y, ndmin=2, dtype=dtype)
        if not rowvar and y.shape[0] != 1:
            y = y.T
        X = concatenate((X, y), axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    w = None
    for name, v in (("fweights", fweights), ("aweights", aweights)):
        if v is None:
            continue
        v = _array(v).astype(numpy.float64)
        if name == "fweights" and not bool((v == _subtract(v, v % 1)).all()):
            raise TypeError("fweights must be integer")
        if v.ndim > 1:
            raise RuntimeError(f"cannot handle multidimensional {name}")
        if v.shape[0] != X.shape[1]:
            raise RuntimeError(f"incompatible numbers of samples and {name}")
        if bool((v < 0).any()):
            raise ValueError(f"{name} cannot be negative")
        if name == "aweights":
            aweights = v
        w = v if w is None else w * v
    avg, w_sum = average(X, axis=1, weights=w, returned=True)
    w_sum = w_sum[0].get()[()]
    if w is None:
        fact = X.shape[1] - ddof
    elif ddof == 0:
        fact = w_sum
    elif aweights is None:
        fact = w_sum - ddof
    else:
        fact = w_sum - ddof * _sum(w * aweights).get()[()] / w_sum
    if fact <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
        fact = 0.0
    X = _subtract(X, avg[:, None], out=X)
    X_T = X.T if w is None else (X * w).T
    if X_T.dtype.kind == "c":
        X_T = UFUNCS["conjugate"](X_T)
    c = dot(X, X_T)
    with numpy.errstate(divide="ignore"):
        scale = numpy.true_divide(1, fact)
    c = _multiply(c, scale, out=c, casting="unsafe")
    return c.squeeze()


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """Pearson correlation coefficients (numpy.corrcoef): the covariance
    scaled by the standard deviations, clipped to [-1, 1]."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim < 1:
        return _divide(c, c)
    d = diag(c)
    std_ = _sqrt(d.real)
    c = _divide(c, std_[:, None], out=c)
    c = _divide(c, std_[None, :], out=c)
    clip(c.real, -1, 1, out=c.real)
    if c.dtype.kind == "c":
        clip(c.imag, -1, 1, out=c.imag)
    return c
