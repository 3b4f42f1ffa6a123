"""``gpunp.scipy.stats``: ``scipy.stats`` for gpunp arrays, name for name.

It will hold statistics: descriptive statistics, distributions' functions,
tests.

Nothing is implemented yet: the public API is empty, and every name of
scipy.stats raises AttributeError here.
"""

__all__ = []
