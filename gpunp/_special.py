"""The modified Bessel function i0 and the Kaiser window built on it:
Cephes' two Chebyshev series (on [0, 8] in x/2 - 2, beyond 8 in 32/x - 2)
evaluated by Clenshaw's recurrence, one elementwise device step per
coefficient, in the input's float dtype as NumPy computes it."""

from __future__ import annotations

import numpy

import gpunp as gp
from gpunp._creation import _array
from gpunp._ndarray import ndarray

# Cephes i0.c: exp(-x) I0(x) on [0, 8]
_A = (
    -4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
    1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
    -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
    9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
    -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
    1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
    -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
    1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
    -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
    1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1,
)
# Cephes i0.c: exp(-x) sqrt(x) I0(x) on [8, inf), in 32/x - 2
_B = (
    -7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
    3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
    1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
    -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
    7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
    -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
    3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,
    2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
    8.04490411014108831608E-1,
)


def _chebyshev(t: ndarray, coefs) -> ndarray:
    """Clenshaw's recurrence for sum' c_i T_i(t/2); the coefficients stay
    Python floats, so the dtype is t's (NEP 50's weak scalars)."""
    b0, b1, b2 = t * 0 + coefs[0], 0.0, 0.0
    for c in coefs[1:]:
        b2, b1 = b1, b0
        b0 = t * b1 - b2 + c
    return 0.5 * (b0 - b2)


def i0(x) -> ndarray:
    x = _array(x)
    if x.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    if x.dtype.kind != "f":
        x = x.astype(numpy.float64)
    x = gp.absolute(x)
    small = x <= 8.0
    # each branch sees only arguments of its own range (1 elsewhere), so
    # neither divides by zero where its value is not taken
    xs = gp.where(small, x, 1.0)
    xl = gp.where(small, 9.0, x)
    near = gp.exp(xs) * _chebyshev(xs / 2.0 - 2, _A)
    far = gp.exp(xl) * _chebyshev(32.0 / xl - 2.0, _B) / gp.sqrt(xl)
    return gp.where(small, near, far)


def kaiser(M, beta) -> ndarray:
    """NumPy's Kaiser window: i0(beta sqrt(1 - ((n - alpha)/alpha)^2)) / i0(beta)."""
    values = numpy.array([0.0, M, beta])
    M, beta = values[1], values[2]
    if M == 1:
        return gp.ones(1, values.dtype)
    n = gp.arange(0, M)
    alpha = (M - 1) / 2.0
    return i0(beta * gp.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / i0(gp.asarray(beta))
