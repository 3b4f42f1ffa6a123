"""Matrices and index grids: diagonals (diag, diagflat, diagonal, trace),
triangles (tri, tril, triu), vander, and the grids of indices (meshgrid,
indices, ix_, fromfunction, unravel_index, ravel_multi_index). Diagonals
are strided views; the rest are broadcasts, masked copies and ufuncs, so
every backend runs them."""

from __future__ import annotations

import numpy

from gpunp import _lib
from gpunp._creation import _array, arange, empty, zeros
from gpunp._dtypes import promote_types
from gpunp._indexing import nonzero
from gpunp._lib import lib
from gpunp._manipulation import _shape_arg, broadcast_arrays, broadcast_shapes
from gpunp._ndarray import _new, ndarray
from gpunp._reduction import sum as _sum
from gpunp._shaping import copyto
from gpunp._ufunc import UFUNCS

_INTP = numpy.dtype(numpy.intp)


# ---- diagonals --------------------------------------------------------------------------

def _diagonal_view(a: ndarray, offset: int, ax1: int, ax2: int) -> ndarray:
    """The writable strided view of a's diagonal `offset` in the plane of
    axes ax1, ax2, as the last axis after the others."""
    shape, strides = a.shape, a.strides
    n1, n2, s1, s2 = shape[ax1], shape[ax2], strides[ax1], strides[ax2]
    if offset >= 0:
        n, start = min(n1, n2 - offset), offset * s2
    else:
        n, start = min(n1 + offset, n2), -offset * s1
    if n <= 0:
        n = start = 0
    rest = [d for d in range(a.ndim) if d not in (ax1, ax2)]
    shp = tuple(shape[d] for d in rest) + (n,)
    std = tuple(strides[d] for d in rest) + (s1 + s2,)
    v = _new(lib.gp_array_as_strided, a._h, -1, len(shp), shp, std, start if n else 0)
    v._base = a if a._base is None else a._base
    return v


def diagonal(a, offset=0, axis1=0, axis2=1) -> ndarray:
    """A read-only view of the diagonal (numpy.diagonal)."""
    a = _array(a)
    # NumPy reads the three as C ints (OverflowError) before it looks at a
    offset, axis1, axis2 = _lib.c_int(offset), _lib.c_int(axis1), _lib.c_int(axis2)
    if a.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    ax1, ax2 = _lib.normalize_axis(axis1, a.ndim), _lib.normalize_axis(axis2, a.ndim)
    if ax1 == ax2:
        raise ValueError("axis1 and axis2 cannot be the same")
    v = _diagonal_view(a, offset, ax1, ax2)
    lib.gp_array_set_readonly(v._h)
    return v


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    return _sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype, out=out)


def diag(v, k=0) -> ndarray:
    v = _array(v)
    if v.ndim == 1:
        n = v.shape[0] + abs(k)
        res = zeros((n, n), v.dtype)  # which refuses a float k, as NumPy's
        _diagonal_view(res, _lib.index(k), 0, 1)[...] = v  # no np.True_, as NumPy's slice
        return res
    if v.ndim == 2:
        return diagonal(v, k)
    raise ValueError("Input must be 1- or 2-d.")


def diagflat(v, k=0) -> ndarray:
    return diag(_array(v).ravel(), k)


# ---- triangles and Vandermonde matrices --------------------------------------------------

def tri(N, M=None, k=0, dtype=float, *, like=None) -> ndarray:
    # N and M may be floats (NumPy's arange of them counts the rows); k is
    # an integer (NumPy 2.4 also truncated a float k, which 2.5 deprecates)
    M = N if M is None else M
    k = _lib.index(k)
    rows = arange(N, dtype=numpy.int64).reshape(-1, 1)
    cols = arange(-k, M - k, dtype=numpy.int64)
    return UFUNCS["greater_equal"](rows, cols).astype(dtype, copy=False)


def _triangle(m, k, lower) -> ndarray:
    m = _array(m)
    mask = tri(*m.shape[-2:], k=k if lower else k - 1, dtype=bool)  # NumPy's arithmetic
    if not lower:
        mask = UFUNCS["logical_not"](mask)
    res = zeros(broadcast_shapes(mask.shape, m.shape), m.dtype)
    copyto(res, m, where=mask)
    return res


def tril(m, k=0) -> ndarray:
    return _triangle(m, k, True)


def triu(m, k=0) -> ndarray:
    return _triangle(m, k, False)


def vander(x, N=None, increasing=False) -> ndarray:
    x = _array(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    if N is None:
        N = len(x)
    v = empty((len(x), N), promote_types(x.dtype, int))
    tmp = v if increasing else v[:, ::-1]
    if N > 0:
        tmp[:, 0] = 1
    if N > 1:
        tmp[:, 1:] = x[:, None]
        UFUNCS["multiply"].accumulate(tmp[:, 1:], out=tmp[:, 1:], axis=1)
    return v


# ---- grids of indices ----------------------------------------------------------------------

def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    ndim = len(xi)
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    s0 = (1,) * ndim
    output = [_array(x).reshape(s0[:i] + (-1,) + s0[i + 1:]) for i, x in enumerate(xi)]
    if indexing == "xy" and ndim > 1:
        output[0] = output[0].reshape((1, -1) + s0[2:])
        output[1] = output[1].reshape((-1, 1) + s0[2:])
    if not sparse:
        output = broadcast_arrays(*output)
    if copy:
        output = tuple(x.copy() for x in output)
    return output


def indices(dimensions, dtype=int, sparse=False):
    dimensions = tuple(dimensions)
    N = len(dimensions)
    shape = (1,) * N
    res = () if sparse else empty((N,) + dimensions, dtype)
    for i, dim in enumerate(dimensions):
        idx = arange(dim, dtype=dtype).reshape(shape[:i] + (dim,) + shape[i + 1:])
        if sparse:
            res = res + (idx,)
        else:
            res[i] = idx
    return res


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    return function(*indices(shape, dtype=dtype), **kwargs)


def ix_(*args) -> tuple:
    out = []
    nd = len(args)
    for k, new in enumerate(args):
        if not isinstance(new, ndarray):
            new = _array(new)
            if new.size == 0:
                new = new.astype(_INTP)
        if new.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if new.dtype == numpy.bool_:
            new = nonzero(new)[0]  # a mask selects its true positions
        out.append(new.reshape((1,) * k + (new.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


def _order_strides(dims, order) -> list:
    """The element strides of an array of `dims` in order C or F."""
    order = chr(_lib.order_code(order, "CF", "C"))
    walk = range(len(dims) - 1, -1, -1) if order == "C" else range(len(dims))
    strides, step = [0] * len(dims), 1
    for d in walk:
        strides[d] = step
        step *= dims[d]
    return strides


def _int_indices(x) -> ndarray:
    x = _array(x)
    if x.dtype.kind not in "biu":
        raise TypeError("only int indices permitted")
    return x.astype(numpy.int64, copy=False)


def unravel_index(indices, shape, order="C") -> tuple:
    idx = _int_indices(indices)
    dims = _shape_arg(shape)
    if any(d < 0 for d in dims):
        raise ValueError("dimensions must be non-negative")
    if not dims and idx.ndim:
        raise ValueError("multiple indices are not supported for 0d arrays")
    strides = _order_strides(dims, order)
    size = 1
    for d in dims:
        size *= d
    if idx.size:
        lo, hi = int(idx.min()), int(idx.max())
        if lo < 0 or hi >= size:
            raise ValueError(f"index {lo if lo < 0 else hi} is out of bounds for array with "
                             f"size {size}")
    fdiv, rem = UFUNCS["floor_divide"], UFUNCS["remainder"]
    return tuple(rem(fdiv(idx, s), d) for s, d in zip(strides, dims))


_MODES = ("raise", "wrap", "clip")


def ravel_multi_index(multi_index, dims, mode="raise", order="C") -> ndarray:
    dims = _shape_arg(dims)
    n = len(dims)
    modes = (mode,) if isinstance(mode, str) else tuple(mode)
    if not isinstance(mode, str) and len(modes) != n:
        raise ValueError(f"list of clipmodes has wrong length ({len(modes)} instead of {n})")
    for m in modes:
        if m not in _MODES:
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {m!r})")
    modes = modes * n if isinstance(mode, str) else modes
    strides = _order_strides(dims, order)
    size = 1
    for d in dims:
        size *= d
        if size > numpy.iinfo(numpy.intp).max:
            raise ValueError("invalid dims: array size defined by dims is larger than the "
                             "maximum possible size.")
    if len(multi_index) != n:
        raise ValueError(f"parameter multi_index must be a sequence of length {n}")
    coords = [_int_indices(c) for c in multi_index]
    res = zeros(broadcast_shapes(*(c.shape for c in coords)), numpy.int64)
    if 0 in dims and res.size:
        raise ValueError("cannot unravel if shape has zero entries (is empty).")
    for c, d, s, m in zip(coords, dims, strides, modes):
        if m == "raise":
            if c.size and (int(c.min()) < 0 or int(c.max()) >= d):
                raise ValueError("invalid entry in coordinates array")
        elif m == "wrap":
            c = UFUNCS["remainder"](c, d)
        else:
            c = UFUNCS["minimum"](UFUNCS["maximum"](c, 0), d - 1)
        res += c * s
    return res


def _diagonal_method(self, offset=0, axis1=0, axis2=1):
    return diagonal(self, offset, axis1, axis2)


def _trace_method(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    return trace(self, offset, axis1, axis2, dtype, out)


_diagonal_method.__name__, _trace_method.__name__ = "diagonal", "trace"
