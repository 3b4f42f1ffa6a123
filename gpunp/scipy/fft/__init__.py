"""``gpunp.scipy.fft``: ``scipy.fft`` for gpunp arrays, name for name.

It will hold discrete Fourier transforms with SciPy's interface (real,
Hermitian and trigonometric transforms), which SciPy's own scipy.fft also
reaches through its backend protocol.

Nothing is implemented yet: the public API is empty, and every name of
scipy.fft raises AttributeError here.
"""

__all__ = []
