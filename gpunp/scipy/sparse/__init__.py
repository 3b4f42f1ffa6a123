"""``gpunp.scipy.sparse``: ``scipy.sparse`` for gpunp arrays, name for name.

It will hold sparse matrices and arrays (the CSR, CSC and COO formats, their
arithmetic, products and conversions), on generated kernels and cuSPARSE
(hipSPARSE).

Nothing is implemented yet: the public API is empty, and every name of
scipy.sparse raises AttributeError here.
"""

__all__ = []
