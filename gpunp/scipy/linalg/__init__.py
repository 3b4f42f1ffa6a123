"""``gpunp.scipy.linalg``: ``scipy.linalg`` for gpunp arrays, name for name.

It will hold linear algebra beyond numpy.linalg: LU and triangular solves,
structured matrices, matrix functions, on the engine's dense solvers.

Nothing is implemented yet: the public API is empty, and every name of
scipy.linalg raises AttributeError here.
"""

__all__ = []
