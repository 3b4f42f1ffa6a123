"""Graphs as NumPy masked arrays (masked entries are not edges), as
scipy.sparse.csgraph's conversions. numpy.ma has no device counterpart, so a
masked graph is on the host by nature: ``csgraph_from_masked`` moves one to
a device CSR array, and ``csgraph_masked_from_dense``/``csgraph_to_masked``
bring a device graph back as one, the copy being what these functions are for."""

import numpy

import gpunp as gp

from ._csr import _csr_result, device, is_sparse
from ._tools import csgraph_to_dense

__all__ = ["csgraph_from_masked", "csgraph_masked_from_dense", "csgraph_to_masked"]


def _square(shape):
    if len(shape) != 2:
        raise ValueError("graph should have two dimensions")
    if shape[0] != shape[1]:
        raise ValueError("graph should be a square array")


def csgraph_from_masked(graph):
    """The CSR graph (a gpunp csr_array, float64) of a masked array's unmasked
    entries, as scipy.sparse.csgraph.csgraph_from_masked."""
    if isinstance(graph, gp.ndarray):
        graph = gp.asnumpy(graph)
    graph = numpy.ma.asarray(graph)
    _square(graph.shape)
    n = graph.shape[0]
    keep = ~numpy.ma.getmaskarray(graph)
    rows, cols = numpy.nonzero(keep)
    data = numpy.asarray(graph.data[keep], dtype=numpy.float64)
    indptr = numpy.concatenate([[0], numpy.cumsum(keep.sum(axis=1))])
    return _csr_result(gp.asarray(data), gp.asarray(cols.astype(numpy.int32)),
                       gp.asarray(indptr.astype(numpy.int32)), (n, n))


def csgraph_masked_from_dense(graph, null_value=0, nan_null=True, infinity_null=True,
                              copy=True):
    """A dense gpunp graph as a NumPy masked array on the host, entries equal to
    `null_value` (and infinite or NaN ones, unless told otherwise) masked, as
    scipy.sparse.csgraph.csgraph_masked_from_dense."""
    host = gp.asnumpy(device(graph))
    _square(host.shape)
    if null_value is not None:
        null_value = numpy.float64(null_value)
        if numpy.isnan(null_value):
            nan_null, null_value = True, None
        elif numpy.isinf(null_value):
            infinity_null, null_value = True, None
    if null_value is None:
        out = numpy.ma.masked_array(host, numpy.zeros(host.shape, dtype=bool), copy=False)
    else:
        out = numpy.ma.masked_values(host, null_value, copy=False)
    if infinity_null:
        out.mask |= numpy.isinf(out)
    if nan_null:
        out.mask |= numpy.isnan(out)
    return out


def csgraph_to_masked(csgraph):
    """A sparse gpunp graph as a NumPy masked array on the host (no edge:
    masked), as scipy.sparse.csgraph.csgraph_to_masked."""
    if not is_sparse(csgraph):
        raise ValueError("csgraph must be a sparse matrix (anything with tocsr)")
    return numpy.ma.masked_invalid(gp.asnumpy(csgraph_to_dense(csgraph, numpy.nan)))
