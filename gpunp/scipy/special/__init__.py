"""``gpunp.scipy.special``: ``scipy.special`` for gpunp arrays, name for name.

Each special function is a row of the engine's op table and so a
``gpunp.ufunc`` (SciPy's real dtype loops in the installed SciPy's order
and resolved as it resolves them, ``out=``,
``where=``, broadcasting) on every backend from one generated source; the
per-element math is the kernels' prelude ``csrc/prelude/special.h``. SciPy's
own ufuncs handed a gpunp array run these (``gpunp.ndarray.__array_ufunc__``).
A few of SciPy's functions that are not ufuncs (``zeta``, ``polygamma``,
``multigammaln``, ``spherical_jn``, ``spherical_yn``, ``spherical_in``,
``spherical_kn``, ``lambertw``, ``hankel1``, ``hankel2``, ``hankel1e``,
``hankel2e``, ``sph_harm_y``, ``wofz``, ``logsumexp``, ``softmax``,
``log_softmax``, ``diric``, ``softplus``, and the counting functions ``comb``, ``perm``,
``factorial``, ``factorial2``, ``factorialk``) are built on them and on
gpunp's operations; ``bernoulli`` and ``euler`` are tables computed exactly
on the host, as gpunp arrays.

It holds the gamma family (with the incomplete gamma and beta functions and
their inverses), the error functions with erfi and Dawson's and Fresnel's
integrals, Bessel functions of integer and of real order (``jv``/``jn``,
``yv``, ``iv``, ``kv`` and the scaled ``jve``, ``yve``, ``ive``, ``kve``:
their real loops; SciPy's complex loops are not here), the spherical Bessel
functions, the Airy functions, the exponential and sine/cosine integrals,
zeta, the complete and incomplete elliptic integrals, Carlson's symmetric
ones and Jacobi's elliptic functions, Lambert's W (``lambertw``: complex
results, for real or complex z, from a row of real and imaginary parts),
the Hankel functions ``hankel1``, ``hankel2``, ``hankel1e``, ``hankel2e``
(real order, complex z: wrappers over rows of real and imaginary parts), the
binomial, negative binomial, F, gamma, chi-square, Poisson and Student's t
distributions with their inverses (in the parameters too: ``chdtriv``,
``pdtrik``, ``gdtria``, ``gdtrib``, ``gdtrix``, ``btdtria``, ``btdtrib``,
``bdtrik``, ``bdtrin``, ``nbdtrik``, ``nbdtrin``, ``stdtridf``,
``fdtridfd``), the convex-analysis and
Box-Cox helpers, the Chebyshev, Hermite, Legendre, Laguerre, Gegenbauer and
Jacobi polynomials (each with SciPy's integer-degree loop and its real-degree
loops), the spherical harmonics, the arithmetic-geometric
mean and Spence's function, the Kolmogorov-Smirnov distributions
(``kolmogorov``, ``smirnov`` and their inverses), ``ndtri_exp``, Owen's T
(``owens_t``), the associated Legendre function
of a real degree (``lpmv``), the Struve functions (``struve``,
``modstruve``), Wright's generalized Bessel function (``wright_bessel``,
``log_wright_bessel``), and the
Faddeeva function ``wofz`` (complex results, for real or complex z, from a
row of real and imaginary parts, as ``lambertw``). Only real loops
(``lambertw``, ``wofz`` and the Hankel functions aside): a complex operand
raises SciPy's no-loop ``TypeError``.
"""

import gpunp as _gpunp
from gpunp import engine as _engine
from gpunp.scipy._version import scipy_version as _scipy_version

# SciPy 1.18 resolves most of its ufuncs' loops as NumPy its own, 1.17 not:
# the engine follows the SciPy installed (before any of them is called)
_engine.check(_engine.lib.gp_set_scipy_version(min(_scipy_version(), 2**31 - 1)))

from gpunp.scipy.special._comb import comb, factorial, factorial2, factorialk, perm
from gpunp.scipy.special._functions import (multigammaln, polygamma, spherical_in, spherical_jn,
                                            spherical_kn, spherical_yn, zeta)
from gpunp.scipy.special._hankel import hankel1, hankel1e, hankel2, hankel2e
from gpunp.scipy.special._lambertw import _lambertw, lambertw
from gpunp.scipy.special._logsumexp import log_softmax, logsumexp, softmax
from gpunp.scipy.special._misc import bernoulli, diric, euler, softplus
from gpunp.scipy.special._sph_harm import sph_harm_y
from gpunp.scipy.special._wofz import wofz

# the op table's rows for scipy.special, by SciPy's names (_zeta and
# _riemann_zeta are SciPy's private ufuncs behind zeta)
globals().update(_gpunp.ufunc.of_module("scipy.special"))
digamma = psi  # noqa: F821 (SciPy's digamma is its psi, one object)
jn = jv  # noqa: F821 (SciPy's jn is its jv, one object)
sinc = _gpunp.sinc  # SciPy's is NumPy's
# CuPy's cupyx.scipy.special keeps three names SciPy removed (btdtr and
# btdtri in 1.14, sph_harm in 1.17), so code written for CuPy finds them
btdtr = betainc  # noqa: F821 (SciPy's btdtr(a, b, x) was betainc(a, b, x))
btdtri = betaincinv  # noqa: F821


def sph_harm(m, n, theta, phi):
    """SciPy's old spherical harmonic Y_n^m with theta the azimuthal and phi
    the polar angle: ``sph_harm_y(n, m, phi, theta)``."""
    return sph_harm_y(n, m, phi, theta)


__all__ = sorted([n for n in _gpunp.ufunc.of_module("scipy.special") if not n.startswith("_")]
                 + ["bernoulli", "comb", "digamma", "diric", "euler", "factorial", "factorial2",
                    "factorialk", "hankel1", "hankel1e", "hankel2", "hankel2e", "jn", "lambertw", "logsumexp", "log_softmax", "multigammaln",
                    "perm", "polygamma", "sinc", "softmax", "softplus", "spherical_in", "spherical_jn",
                    "spherical_kn", "spherical_yn", "sph_harm_y", "wofz", "zeta"])
