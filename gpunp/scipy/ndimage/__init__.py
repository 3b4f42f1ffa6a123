"""``gpunp.scipy.ndimage``: ``scipy.ndimage`` for gpunp arrays, name for name.

It will hold n-dimensional image processing: filters, interpolation,
morphology, labelling and measurements.

Nothing is implemented yet: the public API is empty, and every name of
scipy.ndimage raises AttributeError here.
"""

__all__ = []
