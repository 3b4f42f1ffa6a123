"""``procrustes`` (scipy.spatial.procrustes): Procrustes analysis of two
point sets with gpunp's reductions and SVD."""

from __future__ import annotations

import numpy as np

import gpunp as gp

from .._host import as_device


def procrustes(data1, data2):
    """(mtx1, mtx2, disparity): data1 centred and scaled to unit Frobenius
    norm, data2 likewise and then rotated and scaled onto it, and the sum
    of squared differences left between them."""
    mtx1 = as_device(data1).astype(np.float64)
    mtx2 = as_device(data2).astype(np.float64)
    if mtx1.ndim != 2 or mtx2.ndim != 2:
        raise ValueError("Input matrices must be two-dimensional")
    if mtx1.shape != mtx2.shape:
        raise ValueError("Input matrices must be of same shape")
    if mtx1.size == 0:
        raise ValueError("Input matrices must be >0 rows and >0 cols")
    mtx1 = mtx1 - gp.mean(mtx1, axis=0)
    mtx2 = mtx2 - gp.mean(mtx2, axis=0)
    norm1, norm2 = gp.linalg.norm(mtx1), gp.linalg.norm(mtx2)
    if float(norm1) == 0 or float(norm2) == 0:
        raise ValueError("Input matrices must contain >1 unique points")
    mtx1 = mtx1 / norm1
    mtx2 = mtx2 / norm2
    # the orthogonal R and scale s minimising |mtx2 R^T s - mtx1| (Schonemann):
    # from the SVD of mtx1^T mtx2, as scipy.linalg.orthogonal_procrustes
    u, w, vt = gp.linalg.svd(mtx1.T @ mtx2)
    r = u @ vt
    mtx2 = (mtx2 @ r.T) * w.sum()
    disparity = gp.sum(gp.square(mtx1 - mtx2))
    return mtx1, mtx2, disparity
