"""numpy.linalg's functions for gpunp arrays.

The factorizations and what NumPy builds on them directly (solve, inv, det,
slogdet, cholesky, qr, eig, eigh, svd and their value-only forms, lstsq,
pinv, matrix_rank, cond) run on the host backend as numpy.linalg itself, on
a view of the arrays' memory, and on a GPU through the engine's solvers
(gpunp/linalg/_device.py). The rest (norms, products, matrix_power,
tensorsolve/tensorinv, multi_dot, cross...) is composed of gpunp's own
operations the same way on every backend, following NumPy's definitions.
"""

from __future__ import annotations

import warnings

import numpy

import gpunp
from gpunp import _lib
from gpunp._creation import _array
from gpunp._function_base import cross_last
from gpunp.linalg import _device
from gpunp.linalg._common import (
    LinAlgError, SVDResult, assert_2d, assert_stacked_2d, assert_stacked_square, common_type,
    conj, host_view, isfinite, isnan, numpy_call, on_host, real_dtype)


# ---- linear systems and inverses --------------------------------------------------------

def _square(name: str, a, device, *extra, **kwargs):
    """A function of stacked square matrices: NumPy's checks, then NumPy
    itself on the host backend or `device` on a GPU."""
    a = _array(a)
    assert_stacked_square(a)
    t, result_t = common_type(a)
    if on_host():
        return numpy_call(name, a, **kwargs)
    return device(a, t, result_t, *extra)


def solve(a, b):
    a, b = _array(a), _array(b)
    assert_stacked_square(a)
    t, result_t = common_type(a, b)
    if on_host():
        return numpy_call("solve", a, b)
    return _device.solve(a, b, t, result_t)


def inv(a):
    return _square("inv", a, _device.inv)


def det(a):
    return _square("det", a, _device.det)


def slogdet(a):
    return _square("slogdet", a, _device.slogdet)


def cholesky(a, /, *, upper=False):
    return _square("cholesky", a, _device.cholesky, bool(upper), upper=upper)


def qr(a, mode="reduced"):
    a = _array(a)
    if on_host():
        return numpy_call("qr", a, mode=mode)
    if mode not in ("reduced", "complete", "r", "raw"):
        if mode in ("f", "full"):
            warnings.warn("The 'full' option is deprecated in favor of 'reduced'.\nFor "
                          "backward compatibility let mode default.", DeprecationWarning,
                          stacklevel=2)
            mode = "reduced"
        elif mode in ("e", "economic"):
            warnings.warn("The 'economic' option is deprecated.", DeprecationWarning,
                          stacklevel=2)
            mode = "economic"
        else:
            raise ValueError(f"Unrecognized mode '{mode}'")
    assert_stacked_2d(a)
    t, result_t = common_type(a)
    return _device.qr(a, t, result_t, mode)


def lu_factor(a):
    """A gpunp extension (not in numpy.linalg): the LU factorization with
    partial pivoting of every matrix of `a` (..., m, n), as LAPACK's getrf
    writes it: ``(lu, piv, info)``, L's multipliers below U in one array of
    a's dtype (float dtypes and complex kept, others as float64), the
    0-based row each step swapped with (int32, SciPy's convention), and per
    matrix the 1-based index of the first exactly zero pivot (0 when none).
    Never raises for a singular matrix; gpunp.scipy.linalg builds lu_factor,
    lu and lu_solve on it. On a GPU it is the engine's getrf (cuSOLVER); on
    the host backend a pivoted elimination in NumPy on a copy."""
    a = _array(a)
    assert_stacked_2d(a)
    dt = a.dtype if a.dtype.kind in "fc" and a.dtype != numpy.float16 else numpy.dtype(
        numpy.float32 if a.dtype == numpy.float16 else numpy.float64)
    m, n = a.shape[-2:]
    k = min(m, n)
    batch = a.shape[:-2]
    if a.size == 0:
        return (gpunp.empty(a.shape, dt), gpunp.empty(batch + (k,), numpy.int32),
                gpunp.zeros(batch, numpy.int32))
    if on_host():
        lu, piv, info = _host_lu(numpy.array(host_view(a), dtype=dt))
        return gpunp.array(lu), gpunp.array(piv), gpunp.array(info)
    if m != n:
        # getrf takes square matrices: zero columns (rows) padded to a tall
        # (wide) matrix change none of its first k steps, whose pivots only
        # ever pick a zero row where the whole column is zero, and then the
        # first such row, which is one of a's
        sq = gpunp.zeros(a.shape[:-2] + (max(m, n),) * 2, a.dtype)
        sq[..., :m, :n] = a
        a = sq
    f, ipiv, info = _device.lu(a, dt, raise_singular=False)
    piv = (ipiv[..., :k] - 1).astype(numpy.int32)
    if m != n:
        f = f[..., :m, :n]
        info = gpunp.where(info > k, 0, info).astype(numpy.int32)
    # the factors stay column-major, as LAPACK (and SciPy's lu_factor) leave them
    return f, piv, info


def _host_lu(lu: numpy.ndarray):
    """getrf's right-looking elimination, vectorised over the batch: each
    column's pivot is its first entry of largest |re| + |im| (LAPACK's
    i?amax), a zero pivot leaves its column unscaled."""
    batch, (m, n) = lu.shape[:-2], lu.shape[-2:]
    k = min(m, n)
    flat = lu.reshape((-1, m, n))
    rows = numpy.arange(flat.shape[0])
    piv = numpy.zeros((flat.shape[0], k), numpy.int32)
    info = numpy.zeros(flat.shape[0], numpy.int32)
    for j in range(k):
        col = flat[:, j:, j]
        mag = numpy.abs(col.real) + numpy.abs(col.imag) if col.dtype.kind == "c" else numpy.abs(col)
        p = numpy.argmax(mag, axis=1) + j
        piv[:, j] = p
        top = flat[rows, j].copy()
        flat[rows, j] = flat[rows, p]
        flat[rows, p] = top
        d = flat[:, j, j]
        zero = d == 0
        info[(info == 0) & zero] = j + 1
        safe = numpy.where(zero, 1, d)
        # LAPACK's getf2 multiplies by the pivot's reciprocal unless that
        # overflows (a pivot below the smallest normal number): the
        # multipliers' rounding, and so which later pivots are exactly zero,
        # follows it
        tiny = numpy.abs(safe) < numpy.finfo(safe.dtype).tiny
        col = flat[:, j + 1:, j]
        with numpy.errstate(over="ignore", invalid="ignore"):
            flat[:, j + 1:, j] = numpy.where(tiny[:, None], col / safe[:, None],
                                             col * (1 / safe)[:, None])
        flat[:, j + 1:, j + 1:] -= flat[:, j + 1:, j, None] * flat[:, j, None, j + 1:]
    return flat.reshape(lu.shape), piv.reshape(batch + (k,)), info.reshape(batch)


# ---- eigenproblems ---------------------------------------------------------------------

def _uplo(UPLO) -> str:
    u = UPLO.upper()
    if u not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return u


def eigh(a, UPLO="L"):
    uplo = _uplo(UPLO)
    return _square("eigh", a, _device.eigh, uplo, True, UPLO=uplo)


def eigvalsh(a, UPLO="L"):
    uplo = _uplo(UPLO)
    return _square("eigvalsh", a, _device.eigh, uplo, False, UPLO=uplo)


def _eig(a, vectors: bool):
    a = _array(a)
    assert_stacked_square(a)
    if on_host():
        return numpy_call("eig" if vectors else "eigvals", a)
    if not bool(gpunp.all(isfinite(a))):
        raise LinAlgError("Array must not contain infs or NaNs")
    t, result_t = common_type(a)
    return _device.eig(a, t, result_t, vectors)


def eig(a):
    return _eig(a, True)


def eigvals(a):
    return _eig(a, False)


# ---- the singular value decomposition and what is built on it ------------------------

def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    a = _array(a)
    if on_host():
        return numpy_call("svd", a, full_matrices=full_matrices, compute_uv=compute_uv,
                          hermitian=hermitian)
    if hermitian:
        assert_stacked_square(a)
        t, result_t = common_type(a)
        return _device.svd_hermitian(a, t, result_t, bool(compute_uv))
    assert_stacked_2d(a)
    t, result_t = common_type(a)
    return _device.svd(a, t, result_t, bool(full_matrices), bool(compute_uv))


def svdvals(x, /):
    return svd(x, compute_uv=False, hermitian=False)


def lstsq(a, b, rcond=None):
    a, b = _array(a), _array(b)
    if on_host():
        x, resids, rank, s = numpy.linalg.lstsq(host_view(a), host_view(b), rcond=rcond)
        return gpunp.array(x), gpunp.array(resids), rank, gpunp.array(s)
    vector = b.ndim == 1
    bm = b[:, None] if vector else b
    assert_2d(a, bm)
    if a.shape[0] != bm.shape[0]:
        raise LinAlgError("Incompatible dimensions")
    t, result_t = common_type(a, bm)
    if rcond is None:
        rcond = numpy.finfo(t).eps * max(a.shape)
    x, resids, rank, s = _device.lstsq(a, bm, rcond, t, result_t)
    return (x[:, 0] if vector else x), resids, rank, s


_NO_VALUE = numpy._NoValue


def _of_nothing(since: int) -> dict:
    """initial=0 for a max that may be over nothing, where the running NumPy
    gives 0 there (from version `since`); before, NumPy's max of nothing
    raises ValueError, and so does gpunp's."""
    return {"initial": 0} if _lib._numpy_version() >= since else {}


def pinv(a, rcond=None, hermitian=False, *, rtol=_NO_VALUE):
    a = _array(a)
    if on_host():
        kw = {} if rtol is _NO_VALUE else {"rtol": rtol}
        return numpy_call("pinv", a, rcond=rcond, hermitian=hermitian, **kw)
    if rcond is None:
        if rtol is _NO_VALUE:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(a.shape[-2:]) * numpy.finfo(a.dtype).eps
        else:
            rcond = rtol
    elif rtol is not _NO_VALUE:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    rc = _array(rcond)
    m, n = a.shape[-2:] if a.ndim >= 2 else (None, None)
    if a.size == 0 and a.ndim >= 2 and m * n == 0:
        return gpunp.empty(a.shape[:-2] + (n, m), a.dtype)
    u, s, vt = svd(conj(a), full_matrices=False, hermitian=hermitian)
    cutoff = rc[..., None] * gpunp.max(s, axis=-1, keepdims=True)
    large = s > cutoff
    sinv = gpunp.where(large, 1 / gpunp.where(large, s, 1), 0).astype(s.dtype)
    return gpunp.matmul(vt.swapaxes(-1, -2), sinv[..., None] * u.swapaxes(-1, -2))


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    A = _array(A)
    if on_host():
        return numpy_call("matrix_rank", A, tol=tol, hermitian=hermitian, rtol=rtol)
    if rtol is not None and tol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    if A.ndim < 2:
        return int(not bool(gpunp.all(A == 0)))
    S = svd(A, compute_uv=False, hermitian=hermitian)
    if tol is None:
        if rtol is None:
            rtol = max(A.shape[-2:]) * numpy.finfo(S.dtype).eps
        else:
            rtol = _array(rtol)[..., None]
        tol = gpunp.max(S, axis=-1, keepdims=True, **_of_nothing(20400)) * rtol
    else:
        tol = _array(tol)[..., None]
    return gpunp.count_nonzero(S > tol, axis=-1)


def cond(x, p=None):
    x = _array(x)
    if on_host():
        return numpy_call("cond", x, p=p)
    if x.size == 0 and (x.ndim < 2 or x.shape[-1] * x.shape[-2] == 0):
        raise LinAlgError("cond is not defined on empty arrays")
    if p is None or p in (2, -2):
        s = svd(x, compute_uv=False)
        r = s[..., -1] / s[..., 0] if p == -2 else s[..., 0] / s[..., -1]
    else:
        assert_stacked_square(x)
        t, result_t = common_type(x)
        invx = _device.inv(x, t, t, raise_singular=False)
        r = (norm(x, p, axis=(-2, -1)) * norm(invx, p, axis=(-2, -1))).astype(
            real_dtype(result_t))
    nan = isnan(r)
    if r.ndim:
        nan = nan & ~gpunp.any(isnan(x), axis=(-2, -1))
        return gpunp.where(nan, numpy.inf, r)
    if bool(nan) and not bool(gpunp.any(isnan(x))):
        return gpunp.full((), numpy.inf, r.dtype)
    return r


# ---- norms -------------------------------------------------------------------------------

def _sqnorm_sum(x, axis, keepdims=False):
    sq = (x.real * x.real + x.imag * x.imag) if x.dtype.kind == "c" else x * x
    return gpunp.sum(sq, axis=axis, keepdims=keepdims)


def _svd_norm(x, row, col, op, **kw):
    y = gpunp.moveaxis(x, (row, col), (-2, -1))
    return op(svd(y, compute_uv=False), axis=-1, **kw)


def norm(x, ord=None, axis=None, keepdims=False):
    x = _array(x)
    if x.dtype.kind not in "fc":
        x = x.astype(numpy.float64)
    nd = x.ndim
    if axis is None and (ord is None or (ord in ("f", "fro") and nd == 2) or
                         (ord == 2 and nd == 1)):
        ret = gpunp.sqrt(_sqnorm_sum(x.ravel(order="K"), None))
        return ret.reshape(nd * [1]) if keepdims else ret
    if axis is None:
        axis = tuple(range(nd))
    elif not isinstance(axis, tuple):
        try:
            axis = int(axis)
        except Exception as e:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from e
        axis = (axis,)
    if len(axis) == 1:
        ax = _lib.normalize_axis(axis[0], nd, ValueError)  # NumPy's reduction reads it
        if ord == numpy.inf:
            return gpunp.max(abs(x), axis=ax, keepdims=keepdims, **_of_nothing(20300))
        if ord == -numpy.inf:
            return gpunp.min(abs(x), axis=ax, keepdims=keepdims)
        if ord == 0:
            return gpunp.sum((x != 0).astype(real_dtype(x.dtype)), axis=ax, keepdims=keepdims)
        if ord == 1:
            return gpunp.sum(abs(x), axis=ax, keepdims=keepdims)
        if ord is None or ord == 2:
            return gpunp.sqrt(_sqnorm_sum(x, ax, keepdims))
        if isinstance(ord, str):
            raise ValueError(f"Invalid norm order '{ord}' for vectors")
        absx = abs(x) ** ord
        ret = gpunp.sum(absx, axis=ax, keepdims=keepdims)
        return ret ** numpy.reciprocal(ord, dtype=ret.dtype)
    if len(axis) != 2:
        raise ValueError("Improper number of dimensions to norm.")
    row, col = (_lib.normalize_axis(a, nd) for a in axis)
    if row == col:
        raise ValueError("Duplicate axes given.")
    if ord == 2:
        ret = _svd_norm(x, row, col, gpunp.max, **_of_nothing(20300))
    elif ord == -2:
        ret = _svd_norm(x, row, col, gpunp.min)
    elif ord in (1, -1):
        c = col - 1 if col > row else col
        red = gpunp.max if ord == 1 else gpunp.min
        kw = _of_nothing(20300) if ord == 1 else {}
        ret = red(gpunp.sum(abs(x), axis=row), axis=c, **kw)
    elif ord in (numpy.inf, -numpy.inf):
        r = row - 1 if row > col else row
        red = gpunp.max if ord == numpy.inf else gpunp.min
        kw = _of_nothing(20300) if ord == numpy.inf else {}
        ret = red(gpunp.sum(abs(x), axis=col), axis=r, **kw)
    elif ord in (None, "fro", "f"):
        ret = gpunp.sqrt(_sqnorm_sum(x, (row, col)))
    elif ord == "nuc":
        ret = _svd_norm(x, row, col, gpunp.sum, initial=0)
    else:
        raise ValueError("Invalid norm order for matrices.")
    if keepdims:
        shape = list(x.shape)
        shape[row] = shape[col] = 1
        ret = ret.reshape(shape)
    return ret


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    return norm(x, axis=(-2, -1), keepdims=keepdims, ord=ord)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    x = _array(x)
    shape = list(x.shape)
    if axis is None:
        y, ax = x.ravel(), 0
    elif isinstance(axis, tuple):
        axes = _lib.normalize_axis_tuple(axis, x.ndim)
        rest = tuple(i for i in range(x.ndim) if i not in axes)
        size = 1
        for i in axes:
            size *= x.shape[i]
        y = x.transpose(axes + rest).reshape((size,) + tuple(x.shape[i] for i in rest))
        ax = 0
    else:
        y, ax = x, axis
    res = norm(y, axis=ax, ord=ord)
    if keepdims:
        for i in _lib.normalize_axis_tuple(range(len(shape)) if axis is None else axis,
                                           len(shape)):
            shape[i] = 1
        res = res.reshape(tuple(shape))
    return res


# ---- products and powers -------------------------------------------------------------

def matrix_power(a, n):
    a = _array(a)
    assert_stacked_square(a)
    try:
        n = _lib.index(n)
    except TypeError as e:
        raise TypeError("exponent must be an integer") from e
    if n == 0:
        r = gpunp.empty_like(a)
        r[...] = gpunp.eye(a.shape[-2], dtype=a.dtype)
        return r
    if n < 0:
        a = inv(a)
        n = -n
    if n == 1:
        return a
    if n == 2:
        return gpunp.matmul(a, a)
    if n == 3:
        return gpunp.matmul(gpunp.matmul(a, a), a)
    # NumPy's binary decomposition, so the products are NumPy's
    z = result = None
    while n > 0:
        z = a if z is None else gpunp.matmul(z, z)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else gpunp.matmul(result, z)
    return result


def tensorsolve(a, b, axes=None):
    a, b = _array(a), _array(b)
    an = a.ndim
    if axes is not None:
        order = list(range(an))
        for k in axes:
            order.remove(k)
            order.insert(an, k)
        a = a.transpose(order)
    oldshape = a.shape[-(an - b.ndim):]
    size = 1
    for k in oldshape:
        size *= k
    if a.size != size ** 2:
        raise LinAlgError("Input arrays must satisfy the requirement "
                          "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    return solve(a.reshape(size, size), b.ravel()).reshape(oldshape)


def tensorinv(a, ind=2):
    a = _array(a)
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    invshape = a.shape[ind:] + a.shape[:ind]
    size = 1
    for k in a.shape[ind:]:
        size *= k
    return inv(a.reshape(size, -1)).reshape(*invshape)


def _chain_order(arrays) -> list:
    """NumPy's optimal parenthesization of a matrix chain (Cormen 15.2)."""
    n = len(arrays)
    p = [a.shape[0] for a in arrays] + [arrays[-1].shape[1]]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = numpy.inf
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if q < cost[i][j]:
                    cost[i][j] = q
                    split[i][j] = k
    return split


def _chain(arrays, split, i, j):
    if i == j:
        return arrays[i]
    return gpunp.dot(_chain(arrays, split, i, split[i][j]),
                     _chain(arrays, split, split[i][j] + 1, j))


def multi_dot(arrays, *, out=None):
    n = len(arrays)
    if n < 2:
        raise ValueError("Expecting at least two arrays.")
    if n == 2:
        return gpunp.dot(arrays[0], arrays[1], out=out)
    arrays = [_array(a) for a in arrays]
    first, last = arrays[0].ndim, arrays[-1].ndim
    if first == 1:
        arrays[0] = arrays[0][None, :]
    if last == 1:
        arrays[-1] = arrays[-1][:, None]
    assert_2d(*arrays)
    if n == 3:
        A, B, C = arrays
        (a0, a1b0), (b1c0, c1) = A.shape, C.shape
        if a0 * b1c0 * (a1b0 + c1) < a1b0 * c1 * (a0 + b1c0):
            result = gpunp.dot(gpunp.dot(A, B), C)
        else:
            result = gpunp.dot(A, gpunp.dot(B, C))
    else:
        result = _chain(arrays, _chain_order(arrays), 0, n - 1)
    if first == 1 and last == 1:
        result = result[0, 0]
    elif first == 1 or last == 1:
        result = result.ravel()
    if out is not None:
        out[...] = result
        return out
    return result


def cross(x1, x2, /, *, axis=-1):
    a, b = _array(x1), _array(x2)
    if _lib._numpy_version() >= 20500:
        # NumPy 2.5's linalg.cross is numpy.cross, which reads the axis
        # before it looks at the vectors' length
        return gpunp.cross(a, b, axis=axis)
    if a.shape[axis] != 3 or b.shape[axis] != 3:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but they "
                         f"are {a.shape[axis]} and {b.shape[axis]} dimensional instead.")
    a, b = gpunp.moveaxis(a, axis, -1), gpunp.moveaxis(b, axis, -1)
    return gpunp.moveaxis(cross_last(a, b), -1, axis)


def outer(x1, x2, /):
    a, b = _array(x1), _array(x2)
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError("Input arrays must be one-dimensional, but they are "
                         f"x1.ndim={a.ndim} and x2.ndim={b.ndim}.")
    return gpunp.outer(a, b)


def trace(x, /, *, offset=0, dtype=None):
    return gpunp.trace(_array(x), offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def diagonal(x, /, *, offset=0):
    return gpunp.diagonal(_array(x), offset=offset, axis1=-2, axis2=-1)


def vecdot(x1, x2, /, *, axis=-1):
    a, b = _array(x1), _array(x2)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("vecdot: Input operand 0 does not have enough dimensions (has 0, "
                         "gufunc core with signature (n),(n)->() requires 1)")
    axis = _lib.c_int(axis, ValueError)  # as NumPy's gufunc reads axis=
    a, b = gpunp.moveaxis(a, axis, -1), gpunp.moveaxis(b, axis, -1)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError("vecdot: Input operand 1 has a mismatch in its core dimension 0, with "
                         "gufunc signature (n),(n)->() (size "
                         f"{b.shape[-1]} is different from {a.shape[-1]})")
    dt = gpunp.result_type(a, b)
    return gpunp.sum(conj(a) * b, axis=-1, dtype=dt)


def matmul(x1, x2, /):
    return gpunp.matmul(x1, x2)


def matrix_transpose(x, /):
    x = _array(x)
    if x.ndim < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {x.ndim}")
    return x.swapaxes(-1, -2)


def tensordot(x1, x2, /, *, axes=2):
    return gpunp.tensordot(x1, x2, axes=axes)
