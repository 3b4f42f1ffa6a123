"""Products of arrays: matmul (on the backend's BLAS where it has one), dot,
vdot, inner, outer, tensordot."""

from __future__ import annotations

from gpunp import _lib
from gpunp._lib import check, ffi, lib
from gpunp._ndarray import _wrap, ndarray
from gpunp._creation import _array
from gpunp._ufunc import UFUNCS, _single_out


def matmul(x1, x2, /, out=None, *, casting="same_kind", order="K", dtype=None, subok=True):
    """Matrix product of two arrays (numpy.matmul), broadcast over leading
    dimensions."""
    a, b = _array(x1), _array(x2)
    o = _single_out(out, "matmul")
    if dtype is not None:
        a, b = a.astype(dtype, copy=False), b.astype(dtype, copy=False)
    res = ffi.new("gp_array_t **")
    if o is not None:
        res[0] = o._h
    check(lib.gp_matmul(a._h, b._h, res))
    return o if o is not None else _wrap(res[0])


def dot(a, b, out=None):
    """numpy.dot: products over the last axis of `a` and the second-to-last
    of `b` (the only axis of a 1-d `b`)."""
    a, b = _array(a), _array(b)
    if a.ndim == 0 or b.ndim == 0:
        return UFUNCS["multiply"](a, b, out=out)
    if b.ndim <= 2:
        return matmul(a, b, out=out)
    return tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 2])) if out is None else \
        _assign(out, tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 2])))


def _assign(out, value):
    out[...] = value
    return out


def vdot(a, b):
    """numpy.vdot: the dot product of the flattened arrays, conjugating the
    first."""
    a, b = _array(a).ravel(), _array(b).ravel()
    if a.size != b.size:
        raise ValueError("cannot reshape array: vdot needs arrays of the same size")
    if a.dtype.kind == "c":
        a = UFUNCS["conjugate"](a)
    return matmul(a, b)


def inner(a, b):
    """numpy.inner: sums of products over the last axes."""
    a, b = _array(a), _array(b)
    if a.ndim == 0 or b.ndim == 0:
        return UFUNCS["multiply"](a, b)
    return tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 1]))


def outer(a, b, out=None):
    """numpy.outer: a.ravel()[:, None] * b.ravel()[None, :]."""
    a, b = _array(a).ravel(), _array(b).ravel()
    return UFUNCS["multiply"](a[:, None], b[None, :], out=out)


def tensordot(a, b, axes=2):
    """numpy.tensordot: sums of products over the given axes, as one matrix
    product of the operands reshaped."""
    a, b = _array(a), _array(b)
    try:
        n = _lib.index(axes)
        ax_a, ax_b = list(range(a.ndim - n, a.ndim)), list(range(n))
    except TypeError:
        ax_a, ax_b = axes
        ax_a = [ax_a] if isinstance(ax_a, int) else list(ax_a)
        ax_b = [ax_b] if isinstance(ax_b, int) else list(ax_b)
    if len(ax_a) != len(ax_b):
        raise ValueError("shape-mismatch for sum")
    # read off the shapes as NumPy reads them: an axis out of range (huge
    # or not) is the tuple's IndexError, never wrapped around
    for i, j in zip(ax_a, ax_b):
        if a.shape[i] != b.shape[j]:
            raise ValueError("shape-mismatch for sum")
    ax_a = [x % a.ndim for x in ax_a]
    ax_b = [x % b.ndim for x in ax_b]
    free_a = [i for i in range(a.ndim) if i not in ax_a]
    free_b = [j for j in range(b.ndim) if j not in ax_b]
    k = 1
    for i in ax_a:
        k *= a.shape[i]
    m = 1
    for i in free_a:
        m *= a.shape[i]
    n_ = 1
    for j in free_b:
        n_ *= b.shape[j]
    at = a.transpose(free_a + ax_a).reshape(m, k)
    bt = b.transpose(ax_b + free_b).reshape(k, n_)
    res = matmul(at, bt)
    return res.reshape([a.shape[i] for i in free_a] + [b.shape[j] for j in free_b])


def _matmul_op(reflected):
    def op(self, other):
        if not (isinstance(other, ndarray) or isinstance(other, (list, tuple))):
            return NotImplemented
        return matmul(other, self) if reflected else matmul(self, other)
    return op


def _imatmul(self, other):
    if not isinstance(other, ndarray):
        return NotImplemented
    return matmul(self, other, out=self)


_matmul, _rmatmul = _matmul_op(False), _matmul_op(True)


def _dot_method(self, b, out=None):
    return dot(self, b, out=out)
