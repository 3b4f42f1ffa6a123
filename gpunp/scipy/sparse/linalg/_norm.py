"""norm of a sparse matrix and onenormest of any operator, as
scipy.sparse.linalg's."""

import numpy

import gpunp as gp

from ..csgraph._csr import Segments, canonical_coo, csr_parts, device, is_sparse, scatter_reduce
from ._eigen import svds
from ._interface import aslinearoperator

__all__ = ["norm", "onenormest"]


def norm(x, ord=None, axis=None):
    """The norm of a sparse matrix (anything with ``tocsr``): Frobenius,
    1, -1, inf, -inf for the matrix, or a vector norm along ``axis``; as
    scipy.sparse.linalg.norm, a dense input is a TypeError. The result is a
    gpunp array (0-d for a matrix norm)."""
    if not is_sparse(x):
        raise TypeError("input is not sparse. use numpy.linalg.norm")
    indptr, indices, data, shape = csr_parts(x)
    rows, cols, vals = canonical_coo(indptr, indices, data, shape)
    absv = gp.abs(vals)
    if axis is None and ord in (None, "fro", "f"):
        return gp.sqrt(gp.sum(absv * absv))
    if axis is None:
        axis = (0, 1)
    elif not isinstance(axis, tuple):
        msg = "'axis' must be None, an integer or a tuple of integers"
        try:
            int_axis = int(axis)
        except TypeError as e:
            raise TypeError(msg) from e
        if axis != int_axis:
            raise TypeError(msg)
        axis = (int_axis,)
    nd = 2
    if len(axis) == 2:
        row_axis, col_axis = axis
        if not (-nd <= row_axis < nd and -nd <= col_axis < nd):
            raise ValueError(f"Invalid axis {axis!r} for an array with shape {shape!r}")
        if row_axis % nd == col_axis % nd:
            raise ValueError("Duplicate axes given.")
        if ord == 2:
            # the largest singular value, as SciPy (svds, so min(shape) >= 2)
            return svds(x, k=1, return_singular_vectors=False)[0]
        if ord == -2:
            raise NotImplementedError
        if ord in (None, "fro", "f"):
            return gp.sqrt(gp.sum(absv * absv))
        if ord not in (1, -1, numpy.inf, -numpy.inf):
            raise ValueError("Invalid norm order for matrices.")
        # ord 1 sums over the first axis of `axis`, inf over the second
        over_rows = (ord in (1, -1)) == (row_axis % nd == 0)
        index, length, width = (cols, shape[1], shape[0]) if over_rows else \
            (rows, shape[0], shape[1])
        sums = scatter_reduce(gp.add, index, absv, length, 0)
        if length == 0:
            raise ValueError("zero-size array to reduction operation maximum which has "
                             "no identity")
        return gp.max(sums) if ord > 0 else gp.min(sums)
    if len(axis) == 1:
        a, = axis
        if not -nd <= a < nd:
            raise ValueError(f"Invalid axis {axis!r} for an array with shape {shape!r}")
        # axis 0 reduces down the columns: one value per column
        index, length, width = (cols, shape[1], shape[0]) if a % nd == 0 else \
            (rows, shape[0], shape[1])
        plan = Segments(index, length)
        stored = plan.reduce(gp.add, (absv != 0).astype(gp.int64), 0)
        if ord == numpy.inf or ord == -numpy.inf:
            if ord > 0:
                return plan.reduce(gp.maximum, absv, 0)
            top = numpy.inf if absv.dtype.kind in "fc" else numpy.iinfo(absv.dtype).max
            out = plan.reduce(gp.minimum, absv, top)
            count = plan.reduce(gp.add, gp.ones(absv.shape[0], dtype=gp.int64), 0)
            # a line with an entry it does not store holds a zero
            return gp.where(count == width, out, 0).astype(absv.dtype)
        if ord == 0:
            return stored.astype(absv.dtype)
        if ord in ("fro", "f", "nuc"):
            raise ValueError("Invalid norm order for vectors.")
        p = 2 if ord is None else ord
        if isinstance(p, str):
            raise ValueError("Invalid norm order for vectors.")
        return plan.reduce(gp.add, absv ** p, 0) ** (1.0 / p)
    raise ValueError("Improper number of dimensions to norm.")


def _as_operator(A):
    if is_sparse(A) or isinstance(A, (gp.ndarray, numpy.ndarray)):
        return aslinearoperator(device(A) if not is_sparse(A) else A)
    return aslinearoperator(A)


def _col_abs_sums(Y):
    return gp.sum(gp.abs(Y), axis=0)


def _sign(Y):
    if Y.dtype.kind == "c":
        mag = gp.abs(Y)
        return gp.where(mag == 0, 1, Y / gp.where(mag == 0, 1, mag))
    return gp.where(Y >= 0, 1.0, -1.0)


def onenormest(A, t=2, itmax=5, compute_v=False, compute_w=False):
    """A lower bound of ``norm(A, 1)`` for any square operator, from
    products with a few columns (Higham and Tisseur's block algorithm, as
    scipy.sparse.linalg.onenormest). With ``t >= n`` it is exact, from the
    product with the identity. Returns ``est`` (and ``v``, ``w = A v`` when
    asked), est as a Python float."""
    op = _as_operator(A)
    if len(op.shape) != 2 or op.shape[0] != op.shape[1]:
        raise ValueError("expected the operator to act like a square matrix")
    n = op.shape[1]
    if itmax < 2:
        raise ValueError("at least two iterations are required")
    if t < 1:
        raise ValueError("at least one column is required")
    if t >= n:
        dtype = op.dtype if op.dtype is not None else numpy.float64
        full = op.matmat(gp.eye(n, dtype=dtype))
        sums = _col_abs_sums(full)
        j = int(gp.argmax(sums))
        est = float(sums[j])
        v = gp.zeros(n, dtype=numpy.float64)
        v[j] = 1
        w = full[:, j]
    else:
        est, v, w = _block_estimate(op, t, itmax)
    out = (est,)
    if compute_v:
        out += (v,)
    if compute_w:
        out += (w,)
    return out[0] if len(out) == 1 else out


def _block_estimate(op, t, itmax):
    """Higham and Tisseur (2000), Algorithm 2.4: estimates from t columns at
    a time, each step moving to the unit vectors where A^H sign(A X) is
    largest; the host keeps the t column norms and the chosen indices."""
    n = op.shape[1]
    rng = numpy.random.default_rng()
    X = numpy.ones((n, t))
    for j in range(1, t):
        # columns of random signs, none parallel to an earlier one
        while True:
            X[:, j] = rng.choice([-1.0, 1.0], size=n)
            if not any(abs(X[:, j] @ X[:, i]) == n for i in range(j)):
                break
    X = gp.asarray(X / n)
    history = set()
    est_old, best, w = 0.0, 0, None
    S_old = None
    ind = numpy.arange(t)
    k = 1
    while True:
        Y = op.matmat(X)
        norms = _col_abs_sums(Y).get()
        j = int(numpy.argmax(norms))
        est = float(norms[j])
        if est > est_old or k == 2:
            if k >= 2:
                best = int(ind[j])
            w = Y[:, j]
        if k >= 2 and est <= est_old:
            est = est_old
            break
        est_old = est
        if k > itmax:
            break
        S = _sign(Y)
        if S_old is not None and S.dtype.kind != "c":
            # every column of S parallel to one of S_old: no new information
            overlap = gp.abs(S.T @ S_old).get()
            if numpy.all(overlap.max(axis=1) == n):
                break
        S_old = S
        Z = op.H.matmat(S) if hasattr(op, "H") else op.rmatmat(S)
        h = gp.max(gp.abs(Z), axis=1).get()
        if k >= 2 and h.max() == h[best]:
            break
        order = numpy.argsort(-h, kind="stable")
        fresh = [i for i in order if i not in history]
        if t > 1 and not fresh[:1]:
            break
        ind = numpy.array((fresh + [i for i in order if i in history])[:t])
        if t > 1 and all(i in history for i in ind):
            break
        X = gp.zeros((n, t), dtype=numpy.float64)
        X[gp.asarray(ind), gp.arange(t)] = 1.0
        history.update(int(i) for i in ind)
        k += 1
    v = gp.zeros(n, dtype=numpy.float64)
    v[best] = 1
    return est, v, w
