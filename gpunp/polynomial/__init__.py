"""gpunp.polynomial: NumPy's numpy.polynomial package on gpunp arrays.

The submodules polynomial, chebyshev, legendre, laguerre, hermite,
hermite_e and polyutils hold NumPy's module functions (add ... companion,
val/val2d/val3d, grid2d/3d, vander/2d/3d, fit, roots, gauss quadrature and
the basis conversions) and the six convenience classes. All of them are one
generic core (gpunp.polynomial._series) over a table with a row per basis:
its three-term recurrence and its derivative and antiderivative entries.
Evaluation, Vandermonde matrices and fits run as gpunp operations on the
device; the host sees lengths and yes/no answers (trailing-zero trims, a
fit's rank). Loaded at first use of `gpunp.polynomial`."""

from gpunp.polynomial import polyutils  # noqa: F401
from gpunp.polynomial import (chebyshev, hermite, hermite_e, laguerre, legendre,  # noqa: F401
                              polynomial)
from gpunp.polynomial.chebyshev import Chebyshev
from gpunp.polynomial.hermite import Hermite
from gpunp.polynomial.hermite_e import HermiteE
from gpunp.polynomial.laguerre import Laguerre
from gpunp.polynomial.legendre import Legendre
from gpunp.polynomial.polynomial import Polynomial

__all__ = ["set_default_printstyle", "polynomial", "Polynomial", "chebyshev", "Chebyshev",
           "legendre", "Legendre", "hermite", "Hermite", "hermite_e", "HermiteE",
           "laguerre", "Laguerre"]


def set_default_printstyle(style):
    """The printing style of the classes, 'unicode' or 'ascii' (NumPy's, whose
    printer the classes use)."""
    import numpy
    numpy.polynomial.set_default_printstyle(style)
