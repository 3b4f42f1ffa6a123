"""laplacian of a graph, as scipy.sparse.csgraph.laplacian."""

import numpy

import gpunp as gp

# the module, not its name: linalg imports csgraph._csr while it loads
from ..linalg import _interface
from ._csr import _dense_result, canonical_coo, csr_parts, device, is_sparse

__all__ = ["laplacian"]


def laplacian(csgraph, normed=False, return_diag=False, use_out_degree=False, *, copy=True,
              form="array", dtype=None, symmetrized=False):
    """The (normalised) Laplacian ``D - A`` of a graph, A's diagonal ignored,
    degrees by in-edges (column sums) unless ``use_out_degree``; a dense
    graph gives a dense gpunp array, a sparse one SciPy's COO (DIA for an
    unnormed DIA graph) of the input's flavour; ``form``
    'function' or 'lo' give a function or a LinearOperator."""
    if len(csgraph.shape) != 2 or csgraph.shape[0] != csgraph.shape[1]:
        raise ValueError("csgraph must be a square matrix or array")
    if form not in ("array", "function", "lo"):
        raise ValueError(f"Invalid form: {form!r}")
    n = csgraph.shape[0]
    sparse = is_sparse(csgraph)
    if sparse:
        indptr, indices, data, shape = csr_parts(csgraph)
        rows, cols, vals = canonical_coo(indptr, indices, data, shape)
        a = gp.zeros((n, n), dtype=vals.dtype)
        a[rows, cols] = vals
    else:
        a = device(csgraph)
    if dtype is None:
        dtype = a.dtype
        if normed and numpy.dtype(dtype).kind in "biu":
            dtype = numpy.float64
    a = a.astype(dtype)
    if symmetrized:
        a = a + a.T
    a = gp.where(gp.eye(n, dtype=bool), 0, a)
    degree = gp.sum(a, axis=1 if use_out_degree else 0).astype(dtype)
    if normed:
        isolated = degree == 0
        w = gp.where(isolated, 1, gp.sqrt(degree)).astype(dtype)
        lap = -a / w[:, None] / w[None, :]
        lap = gp.where(gp.eye(n, dtype=bool), gp.where(isolated, 0, 1), lap).astype(dtype)
        diag = w
    else:
        lap = gp.where(gp.eye(n, dtype=bool), degree[:, None], -a).astype(dtype)
        diag = degree
    if form == "array":
        if sparse:
            # SciPy's: COO, but DIA stays DIA where not normed
            fmt = "dia" if csgraph.format == "dia" and not normed else "coo"
            lap = _dense_result(lap, like=csgraph, format=fmt)
        return (lap, diag) if return_diag else lap

    def apply(v):
        return lap @ device(v)
    out = apply if form == "function" else \
        _interface.LinearOperator((n, n), matvec=apply, matmat=apply, dtype=lap.dtype)
    return (out, diag) if return_diag else out
