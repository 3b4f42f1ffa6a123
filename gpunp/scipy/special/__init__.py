"""``gpunp.scipy.special``: ``scipy.special`` for gpunp arrays, name for name.

It will hold special functions (gamma, erf, Bessel functions...), each a row of
the engine's op table and so a gpunp.ufunc.

Nothing is implemented yet: the public API is empty, and every name of
scipy.special raises AttributeError here.
"""

__all__ = []
