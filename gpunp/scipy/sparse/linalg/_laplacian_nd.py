"""LaplacianNd: the grid Laplacian as an operator, as
scipy.sparse.linalg.LaplacianNd.

Its product is the stencil on the grid (no matrix is formed), its
eigenvalues and eigenvectors the closed forms of the 1-D factors combined
over the axes, all computed on the device."""

import math

import numpy

import gpunp as gp

from ..csgraph._csr import _dense_result, device
from ._interface import LinearOperator

__all__ = ["LaplacianNd"]

_BOUNDARIES = ("dirichlet", "neumann", "periodic")


class LaplacianNd(LinearOperator):
    """The Laplacian of a grid of shape ``grid_shape`` (second differences
    along every axis) with 'neumann' (default), 'dirichlet' or 'periodic'
    boundary conditions, as an operator of the flattened grid."""

    def __init__(self, grid_shape, *, boundary_conditions="neumann", dtype=numpy.int8):
        if boundary_conditions not in _BOUNDARIES:
            raise ValueError(
                f"Unknown value {boundary_conditions!r} is given for 'boundary_conditions' "
                "parameter. The valid options are 'dirichlet', 'periodic', and 'neumann' "
                "(default).")
        self.grid_shape = tuple(grid_shape)
        self.boundary_conditions = boundary_conditions
        n = math.prod(self.grid_shape)
        super().__init__(dtype=dtype, shape=(n, n))

    # the product: second differences with the boundary's outside values
    def _neighbours(self, X, axis):
        n = X.shape[axis]
        take = lambda a, b: X[(slice(None),) * axis + (slice(a, b),)]  # noqa: E731
        if self.boundary_conditions == "periodic":
            return gp.roll(X, -1, axis=axis), gp.roll(X, 1, axis=axis)
        if self.boundary_conditions == "dirichlet":
            edge = gp.zeros_like(take(0, 1))
            lo_edge = hi_edge = edge
        else:  # neumann: the outside value repeats the boundary's
            lo_edge, hi_edge = take(0, 1), take(n - 1, n)
        up = gp.concatenate([take(1, n), hi_edge], axis=axis)
        down = gp.concatenate([lo_edge, take(0, n - 1)], axis=axis)
        return up, down

    def _matmat(self, X):
        X = device(X)
        k = X.shape[-1] if X.ndim == 2 else 1
        G = X.reshape(self.grid_shape + (k,))
        Y = -2 * len(self.grid_shape) * G
        for axis in range(len(self.grid_shape)):
            up, down = self._neighbours(G, axis)
            Y = Y + up + down
        return Y.reshape(-1, k)

    def _matvec(self, x):
        return self._matmat(x)

    def _adjoint(self):
        return self

    def _transpose(self):
        return self

    # the spectrum: 1-D closed forms combined over the axes
    def _ordering(self, m):
        shape = self.grid_shape if m is None else tuple(min(n, m) for n in self.grid_shape)
        total = gp.zeros(shape)
        for axis, (n, full) in enumerate(zip(shape, self.grid_shape)):
            j = gp.arange(n, dtype=gp.float64)
            if self.boundary_conditions == "dirichlet":
                lam = -4 * gp.sin(math.pi * (j + 1) / (2 * (full + 1))) ** 2
            elif self.boundary_conditions == "neumann":
                lam = -4 * gp.sin(math.pi * j / (2 * full)) ** 2
            else:
                lam = -4 * gp.sin(math.pi * gp.floor((j + 1) / 2) / full) ** 2
            total = total + lam.reshape((1,) * axis + (n,) + (1,) * (len(shape) - axis - 1))
        flat = total.ravel()
        order = gp.argsort(flat, kind="stable")
        if m is not None:
            order = order[-m:]
        return flat[order], order, shape

    def eigenvalues(self, m=None):
        """All eigenvalues ascending, or the m largest (closest to zero)."""
        return self._ordering(m)[0]

    def _vectors_1d(self, n):
        """The 1-D eigenvectors of one axis, column j for index j."""
        i = gp.arange(n, dtype=gp.float64)[:, None]
        j = gp.arange(n, dtype=gp.float64)[None, :]
        if self.boundary_conditions == "dirichlet":
            v = math.sqrt(2.0 / (n + 1)) * gp.sin(math.pi * (i + 1) * (j + 1) / (n + 1))
        elif self.boundary_conditions == "neumann":
            scale = gp.where(j == 0, math.sqrt(1.0 / n), math.sqrt(2.0 / n))
            v = scale * gp.cos(math.pi * (i + 0.5) * j / n)
        else:
            angle = math.pi * (i + 0.5) / n
            v = gp.where(j % 2 == 1, math.sqrt(2.0 / n) * gp.sin(angle * (j + 1)),
                         math.sqrt(2.0 / n) * gp.cos(angle * j))
            v = gp.where(j == 0, math.sqrt(1.0 / n), v)
            if n % 2 == 0:
                alt = math.sqrt(1.0 / n) * (1 - 2 * (i % 2))
                v = gp.where(j == n - 1, alt, v)
        # exact zeros where symmetry makes them zero
        return gp.where(gp.abs(v) < numpy.finfo(numpy.float64).eps, 0.0, v)

    def eigenvectors(self, m=None):
        """The eigenvectors (columns) in the order of eigenvalues(m)."""
        _, order, shape = self._ordering(m)
        idx = gp.unravel_index(order, shape)
        out = None
        for axis, n in enumerate(self.grid_shape):
            cols = self._vectors_1d(n)[:, idx[axis]]  # (n, m)
            out = cols if out is None else (out[:, None, :] * cols[None, :, :]).reshape(
                -1, cols.shape[1])
        return out

    def toarray(self):
        """The dense matrix (of this operator's dtype)."""
        out = None
        shape = self.grid_shape
        for axis, n in enumerate(shape):
            d = gp.diag(gp.full(n, -2.0)) + gp.diag(gp.ones(n - 1), 1) + \
                gp.diag(gp.ones(n - 1), -1)
            if self.boundary_conditions == "neumann":
                d[0, 0] = d[n - 1, n - 1] = -1
            elif self.boundary_conditions == "periodic":
                d[0, n - 1] = d[0, n - 1] + 1
                d[n - 1, 0] = d[n - 1, 0] + 1
            term = gp.kron(gp.kron(gp.eye(math.prod(shape[:axis])), d),
                           gp.eye(math.prod(shape[axis + 1:])))
            out = term if out is None else out + term
        return out.astype(self.dtype)

    def tosparse(self):
        """The matrix as SciPy's: a dia_array of one axis, a csr_array of a
        sum of Kronecker products."""
        fmt = "dia" if len(self.grid_shape) == 1 else "csr"
        return _dense_result(self.toarray(), format=fmt)
