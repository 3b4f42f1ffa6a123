"""``gpunp.scipy.special``: ``scipy.special`` for gpunp arrays, name for name.

Each special function is a row of the engine's op table and so a
``gpunp.ufunc`` (SciPy's real dtype loops in the installed SciPy's order
and resolved as it resolves them, ``out=``,
``where=``, broadcasting) on every backend from one generated source; the
per-element math is the kernels' prelude ``csrc/prelude/special.h``. SciPy's
own ufuncs handed a gpunp array run these (``gpunp.ndarray.__array_ufunc__``).
A few of SciPy's functions that are not ufuncs (``zeta``, ``polygamma``,
``multigammaln``, ``spherical_yn``, ``logsumexp``, ``softmax``,
``log_softmax``) are built on them and on gpunp's operations.

It holds the gamma family (with the incomplete gamma and beta functions and
their inverses), the error functions, Bessel functions of integer order,
the exponential and sine/cosine integrals, zeta, the complete and
incomplete elliptic integrals, the binomial, negative binomial, F, gamma,
chi-square and Poisson distributions with their inverses (betaincinv,
betainccinv, bdtri, nbdtri, fdtr, fdtrc, fdtri among them), and the
convex-analysis and Box-Cox helpers. Only real loops: a complex operand
raises SciPy's no-loop ``TypeError``.
"""

import gpunp as _gpunp
from gpunp import engine as _engine
from gpunp.scipy._version import scipy_version as _scipy_version

# SciPy 1.18 resolves most of its ufuncs' loops as NumPy its own, 1.17 not:
# the engine follows the SciPy installed (before any of them is called)
_engine.check(_engine.lib.gp_set_scipy_version(min(_scipy_version(), 2**31 - 1)))

from gpunp.scipy.special._functions import multigammaln, polygamma, spherical_yn, zeta
from gpunp.scipy.special._logsumexp import log_softmax, logsumexp, softmax

# the op table's rows for scipy.special, by SciPy's names (_zeta and
# _riemann_zeta are SciPy's private ufuncs behind zeta)
globals().update(_gpunp.ufunc.of_module("scipy.special"))
digamma = psi  # noqa: F821 (SciPy's digamma is its psi, one object)
sinc = _gpunp.sinc  # SciPy's is NumPy's

__all__ = sorted([n for n in _gpunp.ufunc.of_module("scipy.special") if not n.startswith("_")]
                 + ["digamma", "logsumexp", "log_softmax", "multigammaln", "polygamma",
                    "sinc", "softmax", "spherical_yn", "zeta"])
