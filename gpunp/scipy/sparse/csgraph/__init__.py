"""``gpunp.scipy.sparse.csgraph``: ``scipy.sparse.csgraph`` for gpunp arrays."""

__all__ = []
