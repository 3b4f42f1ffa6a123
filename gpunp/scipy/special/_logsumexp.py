"""``logsumexp``, ``softmax`` and ``log_softmax`` on gpunp's operations:
the maximum along the axes is taken out before the exponentials, as SciPy
does, so no element overflows (logsumexp of float32 or float64 without
weights: logaddexp.reduce, whose one pass keeps a running maximum)."""

import gpunp


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    return tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """log(sum(b * exp(a))) along `axis`, with SciPy's handling of infinities,
    of b = 0 and of negative sums (NaN, or the sign with return_sign)."""
    a = gpunp.asarray(a)
    if b is not None:
        b = gpunp.asarray(b)
        a, b = gpunp.broadcast_arrays(a, b)
        # elements with b == 0 take no part (SciPy: a = -inf there)
        a = gpunp.where(b == 0, -gpunp.inf, a)
    if not gpunp.issubdtype(a.dtype, gpunp.inexact):
        a = a.astype(gpunp.float64)
    if a.size == 0:
        # SciPy: log(sum of nothing) = -inf
        shape = gpunp.sum(gpunp.zeros(a.shape, a.dtype), axis=axis, keepdims=keepdims).shape
        out = gpunp.full(shape, -gpunp.inf, dtype=a.dtype)
        return (out, gpunp.ones(shape, dtype=a.dtype)) if return_sign else out
    axes = _axes(axis, a.ndim)
    if b is None and not return_sign and a.dtype in (gpunp.float32, gpunp.float64):
        # one pass over a: the running maximum and the sum of exp(a - it)
        return gpunp.logaddexp.reduce(a, axis=axes, keepdims=keepdims)
    real = a.real if gpunp.iscomplexobj(a) else a
    a_max = gpunp.amax(real, axis=axes, keepdims=True)
    # an all -inf or infinite maximum is shifted by nothing
    a_max = gpunp.where(gpunp.isfinite(a_max), a_max, 0)
    e = gpunp.exp(a - a_max)
    if b is not None:
        e = e * b
    s = gpunp.sum(e, axis=axes, keepdims=True)
    if return_sign:
        sgn = gpunp.sign(s)
        s = gpunp.abs(s)
    elif b is not None and not gpunp.iscomplexobj(s):
        # a negative sum has no real logarithm: NaN, as SciPy gives
        s = gpunp.where(s < 0, gpunp.nan, s)
    out = gpunp.log(s) + a_max
    if not keepdims:
        out = gpunp.squeeze(out, axis=axes)
        if return_sign:
            sgn = gpunp.squeeze(sgn, axis=axes)
    if return_sign:
        return out, sgn
    return out


def softmax(x, axis=None):
    """exp(x) / sum(exp(x)) along `axis`, the maximum taken out first."""
    x = gpunp.asarray(x)
    if not gpunp.issubdtype(x.dtype, gpunp.inexact):
        x = x.astype(gpunp.float64)
    axes = _axes(axis, x.ndim)
    x_max = gpunp.amax(x, axis=axes, keepdims=True)
    e = gpunp.exp(x - x_max)
    return e / gpunp.sum(e, axis=axes, keepdims=True)


def log_softmax(x, axis=None):
    """x - logsumexp(x) along `axis`, the maximum taken out first so the
    result keeps its digits where softmax would underflow."""
    x = gpunp.asarray(x)
    if not gpunp.issubdtype(x.dtype, gpunp.inexact):
        x = x.astype(gpunp.float64)
    axes = _axes(axis, x.ndim)
    x_max = gpunp.amax(x, axis=axes, keepdims=True)
    x_max = gpunp.where(gpunp.isfinite(x_max), x_max, 0)
    tmp = x - x_max
    s = gpunp.sum(gpunp.exp(tmp), axis=axes, keepdims=True)
    return tmp - gpunp.log(s)
