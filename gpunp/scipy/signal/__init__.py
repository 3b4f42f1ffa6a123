"""``gpunp.scipy.signal``: ``scipy.signal`` for gpunp arrays, name for name.

It will hold signal processing: convolution and correlation, FIR and IIR
filtering (scans for the IIR recurrences), windows, spectral analysis.

Nothing is implemented yet: the public API is empty, and every name of
scipy.signal raises AttributeError here.
"""

__all__ = []
