"""gpunp.scipy.special's ufuncs against SciPy's, value by value.

Every function is run on three kinds of input: a fixed wide sample (uniform,
log-uniform over the whole double range with both signs, and near the
origin), SciPy's special values drawn on purpose (0, -0, +-inf, NaN, the
poles of gamma at the negative integers, the edges of overflow and
underflow, the smallest subnormal) as every combination for functions of
several arguments, and hypothesis's floats. The results must be SciPy's to
within the ULPs of ``TOL`` (one table; where the allowance grows with an
argument or with the result's logarithm, the row says why). ULPs are counted
in the spacing of SciPy's value, but never finer than the spacing of the
smallest normal double, so a subnormal result is held to an absolute error.

float64 loops are tested for every function; float32 loops for a
representative subset (``FLOAT32``), since each (function, dtype) loop is a
kernel compiled at its first call."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.special as ss
from hypothesis import given, strategies as st

import gpunp as gp
import gpunp.scipy.special as sp

TINY = np.finfo(np.float64).tiny
LOG_TINY = np.log(TINY)


def _x(args, k=0):
    return np.abs(np.asarray(args[k], np.float64))


def _pole_ulps(x):
    """|x| / (distance to the nearest integer): the ULPs by which a rounded
    pi x moves cot(pi x) near its poles."""
    x = np.asarray(x, np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        d = np.abs(x - np.round(x))
        return np.nan_to_num(np.abs(x) / np.maximum(d, TINY), nan=0.0, posinf=1e300)


def _binom_steps(args, ref):
    """For an integer k SciPy forms the factors n - j (j < k) as (i + n) - k,
    or through Gammas of n - k: it loses |n| + k ULPs of the factor nearest
    0, relative to that factor."""
    n, k = np.broadcast_arrays(np.asarray(args[0], np.float64), np.asarray(args[1], np.float64))
    ok = (k == np.floor(k)) & (k >= 1) & np.isfinite(n) & np.isfinite(k)
    with np.errstate(invalid="ignore"):
        # j = -1 too: SciPy's formula through beta forms n + 1
        d = np.abs(n - np.clip(np.round(n), -1, np.maximum(k - 1, 0)))
        out = np.where(ok, 4 * (np.abs(n) + k) / np.maximum(d, TINY), 0)
    return np.minimum(np.nan_to_num(out), 1e300)


def _abs_ulps(err, ref):
    """An absolute error `err` in ULPs of the values `ref`."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.nan_to_num(err / np.spacing(np.maximum(np.abs(ref), TINY)), nan=0.0)


def _lgammas(args, ref):
    """8 ULPs per unit of the log Gammas of the arguments: beta and its kin
    subtract them where an argument is large or negative (SciPy does, and so
    does gpunp for arguments of mixed sign)."""
    from math import lgamma
    total = 0
    for a in list(args) + [sum(np.asarray(a, np.float64) for a in args)]:
        a = np.asarray(a, np.float64)
        lg = np.array([abs(lgamma(v)) if np.isfinite(v) and not (v <= 0 and v == np.floor(v))
                       else 0.0 for v in a.ravel()]).reshape(a.shape)
        total = total + lg
    return 8 * total


def _igam(shape, args, ref):
    """The incomplete gamma functions' allowance: 128 ULPs per unit of
    |log result|, and 1024 where the shape parameter is below 1e-3."""
    small = np.abs(np.asarray(shape, np.float64)) < 1e-3
    return 128 * _log_result(args, ref) + np.where(small, 1024, 0)


def _log_result(args, ref):
    with np.errstate(divide="ignore"):
        return np.nan_to_num(np.abs(np.log(np.abs(ref))), posinf=0.0)


def _exponent_ulps(y):
    """4 ULPs per unit of an exponent y: exp(y) or expm1(y) turns the last-bit
    error of y (its logarithm's, a C library's own) into |y| ULPs."""
    with np.errstate(all="ignore"):
        return np.minimum(np.nan_to_num(4 * np.abs(y), nan=0.0, posinf=1e300), 1e300)


# name: (allowed ULPs, a function (args, ref) -> more ULPs or None, why)
TOL = {
    "gamma": (8, None, "gpunp's is within 2 ULPs of mpmath below 40 and 4 above (Stirling's "
                       "formula), SciPy's (Cephes') up to 9 (mpmath: gamma(32.46))"),
    "gammaln": (8, lambda a, r: _abs_ulps(8 * 2.2e-16 * (1 + _x(a)), r),
                "absolute near lgamma's zeros (1, 2, and the negative ones); there SciPy's "
                "relative error reaches 116 ULPs (mpmath: at 0.9858 gpunp's is 0)"),
    "gammasgn": (0, None, ""),
    "loggamma": (8, lambda a, r: _abs_ulps(8 * 2.2e-16 * (1 + _x(a)), r), "as gammaln"),
    "rgamma": (8, None, "x < 0 reflects: on an H100 CUDA's exp and sinpi left rgamma(-114.494) 7 "
                        "ULPs from SciPy's"),
    "psi": (48, lambda a, r: np.where(np.asarray(a[0]) < 0, _pole_ulps(a[0]) +
                                      _abs_ulps(8 * 2.2e-16 * np.log1p(_x(a)), r), 0),
            "x < 0 reflects, psi(1 - x) - pi cot(pi x): SciPy's cot carries hundreds of "
            "ULPs near the poles (mpmath: psi(-495.9966) SciPy 168 ULPs off, gpunp 0), "
            "and the difference cancels near the negative zeros"),
    "erf": (2, None, ""),
    "erfc": (10, lambda a, r: 2 * _x(a) ** 2,
             "SciPy's erfc rounds x^2 before exp(-x^2): 2x^2 ULPs; near 1 it is 8 ULPs off "
             "(mpmath), the C library's erfc 0"),
    "erfcx": (8, lambda a, r: 2 * _x(a) ** 2, "SciPy's erfcx(x < 0) rounds exp(x^2) likewise"),
    "erfinv": (4, None, "Halley's steps on erf"),
    "erfcinv": (4, None, "Halley's steps on erfc"),
    # against 30 digits on [-2, -1]: SciPy's up to 7 ULPs, gpunp's 6, apart 8
    # (ndtr(-1.1867): 8; ndtr(-1.25): SciPy's 7 ULPs off, gpunp's correctly rounded)
    "ndtr": (8, lambda a, r: _x(a) ** 2, "SciPy's ndtr is erfc's, x^2/2 rounded"),
    "log_ndtr": (8, lambda a, r: np.where(np.asarray(a[0]) < 0, 2 * _x(a), _x(a) ** 2),
                 "log of SciPy's erfc, whose error is x^2 ULPs of erfc"),
    "ndtri": (4, None, "Halley's steps on erfc"),
    "expit": (2, None, ""),
    "logit": (2, None, ""),
    "log_expit": (2, None, ""),
    "entr": (2, None, ""),
    "exp10": (2, None, ""),
    "exp2": (2, None, ""),
    "cbrt": (4, None, "the C library's cbrt against Cephes'"),
    "log1p": (2, None, ""),
    "expm1": (4, None, "the C library's expm1 against Cephes'"),
    "sindg": (2, None, ""),
    "cosdg": (2, None, ""),
    "tandg": (4, None, ""),
    "cotdg": (4, None, ""),
    "j0": (8, lambda a, r: _bessel_abs(a, r), "absolute near the zeros; SciPy's phase x - pi/4 is "
           "rounded, an absolute error of |x| eps in the envelope"),
    "j1": (8, lambda a, r: _bessel_abs(a, r), "as j0"),
    "y0": (8, lambda a, r: _bessel_abs(a, r), "as j0"),
    "y1": (8, lambda a, r: _bessel_abs(a, r), "as j0"),
    "i0": (16, None, "power series of 30 terms, each rounded"),
    "i0e": (16, None, "as i0"),
    "i1": (24, None, "as i0"),
    "i1e": (16, None, "as i0"),
    "k0": (12, None, "series with logarithms below 1, trapezoidal sum above"),
    "k0e": (12, None, "as k0"),
    "k1": (12, None, "as k0"),
    "k1e": (12, None, "as k0"),
    "exp1": (64, None, "the continued fraction just above 1, the alternating series below"),
    "expi": (192, None, "SciPy's Ei near 40 is 171 ULPs off (mpmath), gpunp's series 1"),
    "exprel": (2, None, ""),
    "zetac": (32, lambda a, r: np.where(np.asarray(a[0]) < 0, 8 * _x(a), 0),
              "x < 0 reflects through Gamma(1 - x): |x| ULPs; near 0 SciPy's is 18 ULPs off "
              "(mpmath), gpunp's 0"),
    "beta": (64, lambda a, r: _lgammas(a, r),
             "SciPy's beta subtracts log Gammas of large arguments (gpunp's Stirling form is "
             "nearer mpmath's there), both do for arguments of mixed sign"),
    "betaln": (64, lambda a, r: _lgammas(a, r) / np.maximum(np.abs(r), 1e-3) +
               _abs_ulps(4 * 2.2e-16, r),
               "as beta, an absolute error of 8 ULPs of each log Gamma; SciPy's log(B) near "
               "B = 1 is an absolute error of eps (mpmath: betaln(1, 0.996) SciPy 271 ULPs "
               "off, gpunp 0)"),
    "poch": (64, lambda a, r: _lgammas(a, r), "as beta"),
    "binom": (64, lambda a, r: _lgammas(a, r) + _binom_steps(a, r) + np.where(
        _x(a, 1) >= 1e8 * _x(a), 4e7 / np.maximum(_x(a, 1), 1) ** 2, 0),
        "as beta; where k > 1e8 |n| SciPy takes its expansion for k >> n, 1e-8/k^2 off at "
        "small k (mpmath: binom(1.7e-43, 8.16) SciPy 132767 ULPs off, gpunp 0; its "
        "product for an integer k forms n - j as (i + n) - k; "
        "test_binom_of_a_tiny_n checks gpunp's against the product)"),
    "xlogy": (2, None, ""),
    "xlog1py": (4, None, "CUDA's log1p is not glibc's: a last-bit difference, doubled by x"),
    "rel_entr": (4, None, ""),
    "kl_div": (8, lambda a, r: 4 * (_x(a) + _x(a, 1)) / np.maximum(np.abs(r), TINY),
               "SciPy's x log(x/y) - x + y cancels near x = y, to (x + y) / result ULPs "
               "(mpmath: 9764 ULPs at (3.39e-5, 3.34e-5); gpunp sums its series, 0)"),
    "huber": (2, None, ""),
    "pseudo_huber": (8, None, "the square root's argument through CUDA's libm on a GPU"),
    "boxcox": (4, lambda a, r: _exponent_ulps(a[1] * np.log(np.asarray(a[0], np.float64))),
               "exp of y = lmbda log(x): a last-bit difference in the log (CUDA's libm is not "
               "glibc's) is |y| ULPs of the result"),
    "boxcox1p": (4, lambda a, r: _exponent_ulps(a[1] * np.log1p(np.asarray(a[0], np.float64))),
                 "as boxcox, y = lmbda log1p(x)"),
    "inv_boxcox": (4, lambda a, r: _exponent_ulps(np.log1p(
        np.asarray(a[1], np.float64) * a[0]) / np.asarray(a[1], np.float64)),
        "as boxcox, the exponent log1p(lmbda y) / lmbda"),
    "inv_boxcox1p": (4, lambda a, r: _exponent_ulps(np.log1p(
        np.asarray(a[1], np.float64) * a[0]) / np.asarray(a[1], np.float64)), "as inv_boxcox"),
    "gammainc": (64, lambda a, r: _igam(a[0], a, r),
                 "x^a e^-x / Gamma(a) is the exponential of a quantity of size |log P| "
                 "(SciPy: Temme's expansion for large a; mpmath: Q(459, 741) SciPy 3054 ULPs "
                 "off, gpunp 27); for a tiny a SciPy's P is up to 700 ULPs off (above 1)"),
    "gammaincc": (64, lambda a, r: _igam(a[0], a, r), "as gammainc"),
    "pdtr": (64, lambda a, r: _igam(a[0], a, r), "as gammainc"),
    "pdtrc": (64, lambda a, r: _igam(a[0], a, r), "as gammainc"),
    "chdtr": (64, lambda a, r: _igam(np.asarray(a[0]) / 2, a, r), "as gammainc"),
    "chdtrc": (64, lambda a, r: _igam(np.asarray(a[0]) / 2, a, r), "as gammainc"),
    "gdtr": (64, lambda a, r: _igam(a[1], a, r), "as gammainc"),
    "gdtrc": (64, lambda a, r: _igam(a[1], a, r), "as gammainc"),
    "expn": (256, None, "the continued fraction against SciPy's expansion for large n"),
    "radian": (2, None, ""),
    "round": (0, None, ""),
    "ellipk": (8, None, "the arithmetic-geometric mean against SciPy's polynomial fits"),
    "ellipkm1": (8, None, "as ellipk"),
    "yn": (16, lambda a, r: _bessel_abs(a[1:], r) * (1 + _x(a)) + 2 * _x(a),
           "as j0, and the recurrence's rounding grows with the order"),
    "kn": (512, lambda a, r: 8 * _x(a),
           "the recurrence from K0 and K1; SciPy's kn (Cephes') is 20 ULPs off at (0, 2.0), "
           "244 at (52, 0.0123), 353 at (16, 694.5) (mpmath; gpunp's 1, 2, 1)"),
    # the incomplete beta family: gpunp's continued fraction against Boost's
    # (SciPy's betainc) and Cephes' (its bdtr, nbdtr)
    "betainc": (64, lambda a, r: _ibeta(a, r),
                "x^a y^b / B(a, b) is the exponential of a quantity of size |log I| (as "
                "gammainc's factor); where the result is 1 - (the other tail), that tail's "
                "absolute rounding, 16 / I ULPs"),
    "betaincc": (64, lambda a, r: _ibeta(a, r), "as betainc"),
    "bdtr": (64, lambda a, r: _ibeta(a, r) + 16 * (_x(a, 1) + 1),
             "as betainc; SciPy's bdtr is Cephes' incbet, whose error grows with the "
             "parameters: bdtr(44, 187, 0.2755) is 870 ULPs from SciPy's own betainc "
             "(Boost's) of the same arguments, gpunp's 3 ULPs from that"),
    "bdtrc": (64, lambda a, r: _ibeta(a, r) + 16 * (_x(a, 1) + 1), "as bdtr"),
    "nbdtr": (64, lambda a, r: _ibeta(a, r) + 16 * (_x(a) + _x(a, 1) + 1),
              "as bdtr: nbdtr(144, 100, 0.40625) is 2800 ULPs (11 per unit of a + b) from "
              "SciPy's betainc, gpunp's 20"),
    "nbdtrc": (64, lambda a, r: _ibeta(a, r) + 16 * (_x(a) + _x(a, 1) + 1), "as nbdtr"),
    # the inverses: Newton's steps on the forward function, whose error the
    # root's condition |d log x / d log F| multiplies
    "gammaincinv": (64, lambda a, r: _inverse("gammaincinv", a, r), "the condition of the root"),
    "gammainccinv": (64, lambda a, r: _inverse("gammainccinv", a, r), "as gammaincinv"),
    "chdtri": (64, lambda a, r: _inverse("chdtri", a, r), "as gammaincinv"),
    "pdtri": (64, lambda a, r: _inverse("pdtri", a, r), "as gammaincinv"),
    "cosm1": (2, lambda a, r: _abs_ulps(2.2e-16, r),
              "beyond pi/4 SciPy's is cos x - 1, an absolute error of eps near 2 pi k"),
    "ellipe": (8, None, "Carlson's R_F and R_D against SciPy's polynomial fits"),
    "ellipkinc": (16, lambda a, r: _abs_ulps(8 * 2.2e-16 * (1 + _x(a)), r),
                  "Carlson's R_F against SciPy's Landen steps; phi's reduction by n pi is "
                  "an absolute error of |phi| eps"),
    "ellipeinc": (64, lambda a, r: _abs_ulps(8 * 2.2e-16 * (1 + _x(a)) * (1 + _x(a, 1)), r),
                  "as ellipkinc, and R_D's term cancels R_F's for m far below 0"),
    "sici": (8, lambda a, r: _bessel_abs(a, r),
             "Ci's zeros (0.62, 3.38, 6.43, ...) and Si's approach to pi/2: an absolute error "
             "of the envelope's, as j0's"),
    "shichi": (16, lambda a, r: _abs_ulps(4 * 2.2e-16, r),
               "absolute near Chi's zero 0.52; beyond 8 (Ei +- E1) / 2, each rounded"),
    # Jacobi's elliptic functions, erfi, Dawson's integral
    "ellipj": (8, lambda a, r: _abs_ulps(16 * 2.2e-16 * (1 + _x(a)), r),
               "the same Landen sequence as SciPy's (Cephes'); the phase 2^N a_N u carries an "
               "absolute error of |u| eps, and sn, cn, dn near their zeros are absolute"),
    "erfi": (8, lambda a, r: _faddeeva_band(a) + 1.5 * np.minimum(_x(a), 1e100) ** 2,
             "SciPy's (Johnson's Faddeeva package) is up to 68 eps off for 0.01 <= |x| < 0.1 "
             "and x^2/2 eps beyond 3 (up to x^2 ULPs of the value; mpmath: erfi(11.87) SciPy "
             "65 eps off, gpunp 1.3) (mpmath: erfi(0.011) SciPy 44 ULPs off, erfi(-8.34) 27; "
             "gpunp's 0.1 and 0.9: a series of positive terms in double-double below 7, "
             "F's asymptotic series times e^(x^2) with x^2's rounding error beyond)"),
    "fresnel": (8, lambda a, r: _abs_ulps(4 * 2.2e-16 * (1 + _x(a)), r),
                "SciPy's (Cephes') phase pi x^2 / 2 is rounded: an absolute error of x^2 eps "
                "in a term of size 1 / (pi x); gpunp's reduces x^2 mod 4 exactly"),
    "elliprf": (8, None, "Carlson's duplication, as SciPy's (ellint_carlson)"),
    "elliprd": (8, None, "as elliprf"),
    "elliprc": (16, None, "as elliprf; for y < 0 the principal value sqrt(x) / sqrt(x - y) "
                          "R_C(x - y, -y): SciPy's is 7.3 eps off at (1.2e-295, -2.3e14), "
                          "gpunp's 0.8 (mpmath)"),
    "elliprg": (24, None, "R_F and R_D with the middle argument last; SciPy's is 8 eps off "
                          "at (0, 1.17e50, 1.8e308), gpunp's 0.5 (mpmath)"),
    "dawsn": (16, lambda a, r: _faddeeva_band(a),
              "as erfi, times e^(-x^2) (mpmath: dawsn(40) SciPy 5.7 ULPs off, gpunp 0.02)"),
    # orthogonal polynomials (sfpoly): SciPy's integer loop's recurrence, run
    # step for step (the host's results are its bits); a GPU's fused
    # multiply-adds move each step's rounding, which the recurrence carries
    # on: an absolute error of (n + 1) steps of the envelope n + 1 near the
    # zeros, n ULPs beyond [-1, 1]. The reference is SciPy's integer loop
    # (KNOWN below: its real-n loop goes through hyp2f1)
    "eval_chebyt": (4, lambda a, r: _cheb(a, r), "the recurrence, each step rounded"),
    "eval_chebyu": (4, lambda a, r: _cheb(a, r), "as eval_chebyt"),
    "eval_chebyc": (4, lambda a, r: _cheb(a, r, 2), "as eval_chebyt, of 2 T_n(x / 2)"),
    "eval_chebys": (4, lambda a, r: _cheb(a, r), "as eval_chebyt, of U_n(x / 2)"),
    "eval_sh_chebyt": (4, lambda a, r: _cheb(a, r), "as eval_chebyt, of T_n(2x - 1)"),
    "eval_sh_chebyu": (4, lambda a, r: _cheb(a, r), "as eval_chebyt, of U_n(2x - 1)"),
    "agm": (4, None, "Gauss's iteration against SciPy's pi/4 (a + b) / K(m) (Cephes' fit of K): "
            "3 ULPs apart"),
    "spence": (24, None, "SciPy's Cephes rational fit is up to 18 ULPs from a 50-digit sum of "
               "the series at x near 1/2 (spence(0.5075): gpunp's 1 ULP off)"),
    # Bessel functions of real order (gpunp's Debye, Hankel and Temme against
    # SciPy's AMOS)
    "jv": (1024, lambda a, r: _bessel_v(a, r, True),
           "SciPy's AMOS is hundreds of ULPs off at small orders (mpmath: jve(1e-8, 10) 397 "
           "ULPs, kve(0.4, 2.0) 846, kve(0.773, 1.836) 418, yv(40, 27) 120; gpunp's 2, 5, 3, "
           "6); absolute near the "
           "zeros as j0's, the order's recurrence (4 ULPs a step), and e^(nu eta) of Debye's "
           "expansions: an error of its exponent's size, 4 ULPs per unit of |log J|"),
    "jve": (1024, lambda a, r: _bessel_v(a, r, True), "as jv"),
    "yv": (1024, lambda a, r: _bessel_v(a, r, True), "as jv"),
    "yve": (1024, lambda a, r: _bessel_v(a, r, True), "as jv"),
    "iv": (1024, lambda a, r: _bessel_v(a, r, False), "as jv, without zeros (but I_-nu's)"),
    "ive": (1024, lambda a, r: _bessel_v(a, r, False), "as iv"),
    "kv": (1024, lambda a, r: _bessel_v(a, r, False), "as iv"),
    "kve": (1024, lambda a, r: _bessel_v(a, r, False), "as iv"),
    "airy": (512, lambda a, r: _airy(a, r),
             "SciPy's AMOS is hundreds of ULPs off near x = 2 (mpmath: airye(2.057) Ai 286 "
             "ULPs, Ai' 418; gpunp's 25, 4); the Bessel functions of orders 1/3 and 2/3 at "
             "zeta = (2/3)|x|^(3/2): 4 ULPs per unit of zeta and of |log result| (e^zeta, and "
             "the rounded phase for x < 0, where the error is absolute near the zeros, of the "
             "envelope (1 + |x|)^(1/4); mpmath: Ai'(-100) SciPy 2429 ULPs, gpunp 9634)"),
    "airye": (512, lambda a, r: _airy(a, r), "as airy"),
    # the distribution functions and their inverses (issue 38)
    "betaincinv": (64, lambda a, r: _inverse("betaincinv", a, r),
                   "Newton's steps on betainc: its allowance times the root's condition"),
    "betainccinv": (64, lambda a, r: _inverse("betainccinv", a, r), "as betaincinv"),
    "bdtri": (2 ** 20, lambda a, r: _inverse("bdtri", a, r) + _abs_ulps(4 * 2.2e-16, r),
              "as betaincinv; SciPy's is Cephes' incbi, which stops at a relative 2e-10 "
              "(mpmath: bdtri(27, 40, 1e-8) SciPy 1.7e5 ULPs off, gpunp 0), and 1 - its root "
              "in 1 - p, an absolute error of eps (bdtri(4, 15, 1 - 4.9e-15) 880 ULPs off)"),
    "nbdtri": (2 ** 20, lambda a, r: _inverse("nbdtri", a, r),
               "as bdtri (mpmath: nbdtri(176, 33, 0.4675) SciPy 122 ULPs off, gpunp 0)"),
    "fdtri": (2 ** 20, lambda a, r: _inverse("fdtri", a, r) + 0.1 * (_x(a) + _x(a, 1)),
              "as bdtri (fdtri(3.5, 3.5, 0.5) = 1: SciPy 18366 ULPs off, gpunp 2), and SciPy's "
              "error grows with the degrees, 0.04 ULPs a unit (mpmath: fdtri(4, 12609010, "
              "0.75) SciPy 4.8e5 ULPs off, gpunp 4)"),
    "fdtr": (1024, lambda a, r: _ibeta(a, r) + _fdtr_cond(a, r) + _fdtr_terms(a, r),
             "as betainc of w = dfn x / (dfd + dfn x); SciPy rounds w and forms 1 - w from "
             "it: an error of w's ULP times the condition |d log F / d log w| (1 + dfn x / dfd); "
             "SciPy's is Cephes' incbet (mpmath: fdtrc(1, 1, 1e-8) SciPy 408 ULPs off, gpunp 0); "
             "for a degree below 1e-3 gpunp sums the smaller tail's fraction near its x = 1, "
             "6 / sqrt(1 - x) terms each rounded (mpmath: fdtrc(1e-8, 1, 10) gpunp 7.7e-11 off, "
             "SciPy 0)"),
    "fdtrc": (1024, lambda a, r: _ibeta(a, r) + _fdtr_cond(a, r) + _fdtr_terms(a, r), "as fdtr"),
    # Kolmogorov-Smirnov and ndtri_exp (sfks)
    "kolmogorov": (4, lambda a, r: _kolmogorov_tol(a, r),
                   "SciPy rounds 2x^2 before exp(-2x^2): 2x^2 ULPs (mpmath: "
                   "kolmogorov(18.0715) SciPy 396 ULPs off, gpunp 0); past x = 0.82 it sums "
                   "4 terms, leaving out 2 exp(-50 x^2) (kolmogorov(0.8282) SciPy 45 ULPs off)"),
    "kolmogi": (32, None, "Newton's steps on kolmogorov's logarithms; SciPy's stop 27 ULPs "
                          "off near its series' cut-over at x = 0.82 (mpmath: kolmogi(0.5109) "
                          "SciPy 27 ULPs off, gpunp 0)"),
    "smirnov": (16, lambda a, r: 2 * _log_result(a, r),
                "gpunp's exponents (n log(1 - x), each term's Stirling form) are doubles: an "
                "error of |log result| eps; SciPy's are double-double (mpmath: "
                "smirnov(533, 0.61237) gpunp 260 ULPs off, SciPy 0)"),
    "smirnovi": (64, lambda a, r: _smirnovi_cond(a, r),
                 "Newton's steps on log(smirnov): smirnov's allowance, over the CDF 1 - p "
                 "where p > 1/2 (gpunp forms it as 1 - smirnov past x = 1/n where the CDF's "
                 "own series has terms past 1; SciPy past 3 of them), times the root's "
                 "condition"),
    "ndtri_exp": (8, lambda a, r: _ndtri_exp_tol(a, r),
                  "ndtri's, and below y = -700 Newton's steps on log_ndtr; there SciPy's "
                  "error grows as 0.05 |y| ULPs, to 5000 (mpmath: ndtri_exp(-520803.73) SciPy "
                  "5433 ULPs off, ndtri_exp(-62579.8) 2556, gpunp 0 and 0); near y = -log 2 "
                  "(x near 0) SciPy's is an absolute "
                  "error of 2 eps (ndtri_exp(-0.66433) SciPy 10 ULPs off, gpunp 1)"),
    "owens_t": (2048, lambda a, r: _owens_tol(a, r),
                "SciPy's own error (Patefield-Tandy's methods; mpmath: owens_t(3.382, 0.8174) "
                "SciPy 1126 ULPs off, gpunp 5), growing with h^2 (its exp(-h^2/2) of h^2 "
                "rounded; owens_t(29.31, 8.033) SciPy 526 off, gpunp 0) and for a below 1e-3 "
                "(owens_t(4.905, 1.104e-6) SciPy 81252 off, gpunp 2)"),
    # Student's t and the parameter inverses of the distributions (issue 38)
    "stdtr": (64, lambda a, r: _ibeta(a, r),
              "as betainc: the tail is I_x(df/2, 1/2) / 2 (mpmath: stdtr(82.9, -668.5) SciPy "
              "and gpunp 517 ULPs apart, both within 1e-13 of it)"),
    "stdtrit": (64, lambda a, r: _param_inverse("stdtrit", a, r, slack=1024),
                "as betaincinv (the root in x of I_x(df/2, 1/2) = 2 min(p, 1 - p)), and SciPy's "
                "(Boost's) quantile stops at 1e-13 of the tail: 1024 ULPs more of it (mpmath: "
                "stdtrit(2.5, 0.21875) SciPy's tail p (1 + 1.05e-13), gpunp's p (1 + 2.5e-16))"),
    "chdtriv": (64, lambda a, r: _param_inverse("chdtriv", a, r),
                "false position on gammainc in its shape, to 2 eps: gammainc's allowance "
                "times the root's condition"),
    "pdtrik": (64, lambda a, r: _param_inverse("pdtrik", a, r), "as chdtriv"),
    "gdtrib": (64, lambda a, r: _param_inverse("gdtrib", a, r), "as chdtriv"),
    "gdtria": (64, lambda a, r: _param_inverse("gdtria", a, r),
               "gammaincinv over x: as gammaincinv"),
    "gdtrix": (64, lambda a, r: _param_inverse("gdtrix", a, r), "as gdtria"),
    # Legendre, Laguerre, Gegenbauer and Jacobi polynomials (sfpoly): SciPy's
    # integer loops' recurrences step for step (the host gives their bits but
    # where binom's prefactor differs); a GPU's fused multiply-adds move each
    # step's rounding (as eval_chebyt's). The reference is SciPy's integer
    # loop (KNOWN below); test_special.py checks the real degrees
    "eval_legendre": (4, lambda a, r: _opoly(a, r), "the recurrence, each step rounded"),
    "eval_sh_legendre": (4, lambda a, r: _opoly(a, r), "as eval_legendre, of P_n(2x - 1)"),
    "eval_laguerre": (4, lambda a, r: _opoly(a, r), "as eval_legendre"),
    "eval_genlaguerre": (4, lambda a, r: _opoly(a, r, lambda a: (_a(a) + _a(a, 1), _a(a))),
                         "as eval_legendre, times binom(n + alpha, n): SciPy's binom is up to "
                         "720 ULPs off (binom(170, 20) against the exact integer; gpunp's 6)"),
    "eval_gegenbauer": (4, lambda a, r: _opoly(a, r, lambda a: (_a(a) + 2 * _a(a, 1) - 1, _a(a)),
                                               lambda a: (np.abs(_a(a, 1)), _a(a) / 2 + 1)),
                        "as eval_genlaguerre, times binom(n + 2 alpha - 1, n) or over "
                        "beta(alpha, n / 2 + 1), reflected at a pole alpha (SciPy's "
                        "eval_gegenbauer(34, -171, 0) is 1147 ULPs from binom(171, 17), gpunp's "
                        "12)"),
    "eval_jacobi": (4, lambda a, r: _opoly(a, r, lambda a: (_a(a) + _a(a, 1), _a(a))),
                    "as eval_genlaguerre, times binom(n + alpha, n)"),
    "eval_sh_jacobi": (4, lambda a, r: _opoly(a, r, lambda a: (_a(a) + _a(a, 1) - _a(a, 2), _a(a)),
                                              lambda a: (2 * _a(a) + _a(a, 1) - 1, _a(a))),
                       "as eval_jacobi, over binom(2n + p - 1, n)"),
}


def _owens_tol(args, ref):
    """4 h^2, and for a below 1e-3 SciPy's error: 4096 per unit of |log
    result|, and past h = 4.5 (its other method) a relative 1e-16 / a
    (KNOWN's below a = 1e-8)"""
    h, a = np.broadcast_arrays(np.minimum(_x(args), 1e150), _x(args, 1))
    with np.errstate(divide="ignore"):
        small = 4096 * (1 + _log_result(args, ref)) + np.where(h > 4.5, 0.5 / a, 0)
    return 4 * h ** 2 + np.where((a < 1e-3) & ~_owens_tiny_a(args), small, 0)


def _owens_tiny_a(args):
    h, a = np.broadcast_arrays(_x(args), _x(args, 1))
    return (h > 4.5) & (h < 40) & (a < 1e-8) & (a > 0)


def _owens_tiny_a_value(args):
    """a exp(-h^2/2) / (2 pi) (1 - (1 + h^2/2) a^2 / 3): the integral's
    series in a, to a relative 3e-14 a^2 h^2 and beyond"""
    h, a = np.broadcast_arrays(_a(args), _a(args, 1))
    s = h * h / 2
    with np.errstate(all="ignore"):
        return a / (2 * np.pi) * np.exp(-s) * (1 - (1 + s) * a * a / 3)


def _ndtri_exp_tol(args, ref):
    y = np.asarray(args[0], np.float64)
    with np.errstate(invalid="ignore"):
        far = np.where(y < -700, np.minimum(0.06 * np.nan_to_num(_x(args), posinf=0.0), 8192), 0)
        return far + np.where(np.abs(y + np.log(2)) < 0.4, _abs_ulps(4.4e-16, ref), 0)


def _kolmogorov_tol(args, ref):
    x = np.minimum(_x(args), 1e3)
    return 2 * x ** 2 + np.where(x > 0.8, _abs_ulps(2 * np.exp(-50 * x ** 2), ref), 0)


def _smirnovi_cond(args, ref):
    """smirnov's allowance over the smaller tail T at the root, times the
    root's condition |d log x / d log T|, measured on SciPy's smirnov"""
    from scipy.special import _ufuncs
    n, p = np.broadcast_arrays(np.trunc(_a(args)), _a(args, 1))
    x = np.asarray(ref, np.float64)
    h = 1e-6
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        upper = p <= 0.5
        f = [np.where(upper, ss.smirnov(n, x * s), _ufuncs._smirnovc(n, x * s))
             for s in (1 + h, 1 - h)]
        d = np.abs(np.log(f[0]) - np.log(f[1])) / (2 * h)
        tail = np.where(upper, p, 1 - p)
        grow = (16 + 2 * np.abs(np.log(p))) * np.where(upper, 1, p / tail) / d
    ok = np.isfinite(x) & (x > 0) & (x < 1)
    return np.where(ok, np.minimum(np.nan_to_num(grow, nan=1e300, posinf=1e300), 1e300), 0)


def _airy(args, ref):
    x = np.asarray(args[0], np.float64)
    with np.errstate(all="ignore"):
        zeta = np.nan_to_num(2 / 3 * np.abs(x) ** 1.5, posinf=0.0)
        env = (1 + np.abs(x)) ** 0.25
        near = np.where(x < 0, _abs_ulps(16 * 2.2e-16 * (1 + zeta) * env, ref), 0)
    return 4 * zeta + 4 * _log_result(args, ref) + near


def _bessel_v(args, ref, oscillating):
    """Bessel functions of real order: 4 ULPs per unit of |log result| (the
    exponentials of Debye's and the power series' prefactors), 4 per unit of
    the order (a step of the recurrence; Debye's exponent nu eta - x is a sum
    of terms of the order's size), and for J and Y (and orders below 0, which
    reflect through sin(nu pi)) an absolute error of 16 eps (1 + |x| + |nu|)
    of the envelope min(1, sqrt(2 / (pi x)))."""
    nu, x = np.broadcast_arrays(_x(args), _x(args, 1))
    with np.errstate(all="ignore"):
        grow = 4 * _log_result(args, ref) + 4 * np.nan_to_num(nu, posinf=0.0)
        env = np.minimum(1.0, np.sqrt(2 / np.pi) / np.sqrt(np.maximum(x, TINY)))
        near = _abs_ulps(16 * 2.2e-16 * (1 + x + nu) * env, ref)
    neg = np.asarray(args[0], np.float64) < 0
    return grow + np.where(neg | oscillating, near, 0)


ULP = 2.220446049250313e-16


def _cheb(args, ref, scale=1):
    """The Chebyshev recurrences' allowance: 4 ULPs per step, and an absolute
    error of 8 eps (n + 1)^2 (n + 1 steps of the envelope n + 1) near the
    zeros"""
    n = _x(args)
    return 4 * n + _abs_ulps(8 * ULP * scale * (1 + n) ** 2, ref)


def _opoly(args, ref, *binoms):
    """The recurrences on differences of successive polynomials: 4 ULPs per
    step, an absolute error of 8 eps (n + 1)^2 near the zeros (as
    Chebyshev's), and binom's allowance for each prefactor binom(top, k)
    (and beta(alpha, n / 2 + 1) in the power series near 0: its log
    Gammas' size), `binoms` giving (top, k) of the arguments"""
    n = _x(args)
    out = 4 * n + _abs_ulps(8 * ULP * (1 + n) ** 2, ref)
    with np.errstate(all="ignore"):
        for b in binoms:
            # (lgamma overflows past 1e305: those allowances are past every value anyway)
            top, k = (np.clip(np.nan_to_num(v, nan=0.0, posinf=0.0, neginf=0.0), -1e300, 1e300)
                      for v in b(args))
            # _lgammas' allowance, vectorised (its loop over math.lgamma is slow on
            # the 4-argument grids): 8 ULPs per unit of each |log Gamma|
            lg = sum(np.nan_to_num(np.abs(ss.gammaln(v)), posinf=0.0) for v in (top, k, top + k))
            out = out + 8 * lg + _binom_steps((top, k), ref)
    return out


def _ibeta(args, ref):
    """The incomplete beta functions' allowance: 64 ULPs per unit of
    |log result| and 16 / result (a result formed as 1 - the other tail)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = np.nan_to_num(16 / np.abs(np.asarray(ref, np.float64)), posinf=0.0)
    return 64 * _log_result(args, ref) + np.minimum(inv, 1e300)


# each inverse's forward functions (SciPy's) as (lower tail, upper tail,
# whether the last argument is the upper tail's value)
INVERSES = {
    "gammaincinv": (lambda a, x: ss.gammainc(a[0], x), lambda a, x: ss.gammaincc(a[0], x), False),
    "gammainccinv": (lambda a, x: ss.gammainc(a[0], x), lambda a, x: ss.gammaincc(a[0], x), True),
    "chdtri": (lambda a, x: ss.chdtr(a[0], x), lambda a, x: ss.chdtrc(a[0], x), True),
    "pdtri": (lambda a, x: ss.pdtrc(a[0], x), lambda a, x: ss.pdtr(a[0], x), True),
    "betaincinv": (lambda a, x: ss.betainc(a[0], a[1], x), lambda a, x: ss.betaincc(a[0], a[1], x),
                   False),
    "betainccinv": (lambda a, x: ss.betainc(a[0], a[1], x),
                    lambda a, x: ss.betaincc(a[0], a[1], x), True),
    # bdtr(k, n, p) falls with p: its complement is the lower tail in p
    "bdtri": (lambda a, x: ss.bdtrc(a[0], a[1], x), lambda a, x: ss.bdtr(a[0], a[1], x), True),
    "nbdtri": (lambda a, x: ss.nbdtr(a[0], a[1], x), lambda a, x: ss.nbdtrc(a[0], a[1], x), False),
    "fdtri": (lambda a, x: ss.fdtr(a[0], a[1], x), lambda a, x: ss.fdtrc(a[0], a[1], x), False),
}


def _fdtr_terms(args, ref):
    """64 ULPs per term of the fraction that a degree below 1e-3 has gpunp
    sum near its x = 1: 6 / sqrt(min(w, 1 - w)) terms"""
    dfn, dfd, x = np.broadcast_arrays(*[np.asarray(v, np.float64) for v in args])
    with np.errstate(all="ignore"):
        z = dfn * x / dfd
        w = np.minimum(z / (1 + z), 1 / (1 + z))
        n = np.nan_to_num(6 / np.sqrt(w), nan=0.0, posinf=0.0)
    return np.where(np.minimum(dfn, dfd) < 2e-3, 64 * np.minimum(n, 200000), 0)


def _fdtr_cond(args, ref):
    """16 ULPs times |d log F / d log x| (1 + dfn x / dfd), measured on SciPy's
    fdtr: the rounding of w and of 1 - w, which SciPy forms from w"""
    dfn, dfd, x = np.broadcast_arrays(*[np.asarray(v, np.float64) for v in args])
    h = 1e-6
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = [ss.fdtr(dfn, dfd, x * s) for s in (1 + h, 1 - h)]
        lf = [ss.fdtrc(dfn, dfd, x * s) for s in (1 + h, 1 - h)]
        d = np.maximum(np.abs(np.log(f[0]) - np.log(f[1])), np.abs(np.log(lf[0]) - np.log(lf[1])))
        grow = 16 * d / (2 * h) * (1 + dfn * x / dfd)
        # both degrees past 1e14 (KNOWN's normal limit): that limit's own
        # error, its skew, below s = sd(F) in all
        s = np.sqrt(2 / dfn + 2 / dfd)
        grow = np.where(_fdtr_both_huge(args), s / np.spacing(np.abs(np.asarray(ref, float))),
                        grow)
    return np.minimum(np.nan_to_num(grow, nan=0.0, posinf=1e300), 1e300)


def _fdtr_both_huge(a):
    """both degrees past 1e14, where SciPy's fdtr is NaN or 0 (Cephes' incbet
    gives up: fdtr(1.2e16, 1.2e23, 1) = 0.5000000017, the chi-square limit's
    value, SciPy's NaN; fdtr(1.2e16, 1.8e18, 1), SciPy's 0)"""
    dfn, dfd, x = np.broadcast_arrays(*[np.asarray(v, np.float64) for v in a[:3]])
    return ((dfn > 1e14) & (dfd > 1e14) & np.isfinite(dfn) & np.isfinite(dfd) & (x > 0)
            & np.isfinite(x))


def _fdtr_normal(a, upper):
    """F's normal limit 1 + N(0, s^2), s^2 = 2 / dfn + 2 / dfd"""
    dfn, dfd, x = np.broadcast_arrays(*[np.asarray(v, np.float64) for v in a[:3]])
    z = (x - 1) / np.sqrt(2 / dfn + 2 / dfd)
    return ss.ndtr(-z) if upper else ss.ndtr(z)



def _inverse(name, args, ref):
    """64 ULPs of the forward function (plus 64 per unit of its |log|, and
    one per 1e9 of the largest parameter: SciPy's root there is its own
    forward function's only so far; mpmath: betaincinv(0.75, 4.818e11, 0.5)
    is SciPy's root of I = 0.5 + 1.6e-14, gpunp's of 0.5 - 3e-18), times the
    root's condition |d log x / d log T|, T the smaller tail at the root,
    measured on SciPy's forward function at SciPy's root."""
    lower, upper, is_upper = INVERSES[name]
    x = np.asarray(ref, np.float64)
    t = np.broadcast_to(np.asarray(args[-1], np.float64), x.shape)
    p = 1 - t if is_upper else t
    use_upper = p > 0.5  # the tail that is below 1/2
    tail = np.where(use_upper, 1 - p, p)
    a = [np.broadcast_to(np.asarray(v, np.float64), x.shape) for v in args[:-1]]
    h = 1e-6
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = [np.where(use_upper, upper(a, x * s), lower(a, x * s)) for s in (1 + h, 1 - h)]
        d = np.abs(np.log(f[0]) - np.log(f[1])) / (2 * h)
        cond = np.nan_to_num(1 / d, nan=1e300, posinf=1e300)
        big = np.max([np.abs(v) for v in a], axis=0) / 1e9
        grow = cond * (64 * (1 + np.abs(np.log(tail))) + big)
    return np.where(np.isfinite(x) & (x != 0), np.minimum(np.nan_to_num(grow, nan=1e300), 1e300), 0)


# the parameter inverses' forward functions (SciPy's) as (the place of the
# probability p among the arguments, the function of the others and the root
# that equals p at the root, its complement, whether it rises with the root)
PARAM_INVERSES = {
    "stdtrit": (1, lambda a, t: _stdtr(a[0], t), lambda a, t: _stdtr(a[0], -t), True),
    "chdtriv": (0, lambda a, v: ss.chdtr(v, a[0]), lambda a, v: ss.chdtrc(v, a[0]), False),
    # pdtr(k, m) is Q(floor(k) + 1, m): the root is that of the continuous Q
    "pdtrik": (0, lambda a, k: ss.gammaincc(k + 1, a[0]), lambda a, k: ss.gammainc(k + 1, a[0]),
               True),
    "gdtrib": (1, lambda a, b: ss.gdtr(a[0], b, a[1]), lambda a, b: ss.gdtrc(a[0], b, a[1]), False),
    "gdtria": (0, lambda a, r: ss.gammainc(a[0], r * a[1]), lambda a, r: ss.gammaincc(a[0], r * a[1]),
               True),
    "gdtrix": (2, lambda a, r: ss.gammainc(a[1], a[0] * r), lambda a, r: ss.gammaincc(a[1], a[0] * r),
               True),
}


def _param_split(name, args):
    """the other arguments, broadcast, and p"""
    k = PARAM_INVERSES[name][0]
    arrs = np.broadcast_arrays(*[np.asarray(v, np.float64) for v in args])
    return arrs[:k] + arrs[k + 1:], arrs[k]


def _param_inverse(name, args, ref, slack=0):
    """as _inverse, for a root in a parameter: 64 ULPs of the forward
    function (plus 64 per unit of its |log|, one per 1e9 of the largest
    argument, and `slack`) times the root's condition |d log r / d log T|,
    T the smaller tail at the root, measured on SciPy's forward function at
    the root"""
    _, lower, upper, _ = PARAM_INVERSES[name]
    x = np.asarray(ref, np.float64)
    params, p = _param_split(name, args)
    params = [np.broadcast_to(v, x.shape) for v in params]
    p = np.broadcast_to(p, x.shape)
    use_upper = p > 0.5
    tail = np.where(use_upper, 1 - p, p)
    h = 1e-6
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = [np.where(use_upper, upper(params, x * s), lower(params, x * s)) for s in (1 + h, 1 - h)]
        d = np.abs(np.log(f[0]) - np.log(f[1])) / (2 * h)
        cond = np.nan_to_num(1 / d, nan=1e300, posinf=1e300)
        big = np.max([np.abs(v) for v in params], axis=0) / 1e9
        grow = 4 + cond * (64 * (1 + np.abs(np.log(tail))) + big + slack)
    return np.where(np.isfinite(x) & (x != 0), np.minimum(np.nan_to_num(grow, nan=1e300), 1e300), 0)


def _faddeeva_band(args):
    """SciPy's erfi and dawsn are up to 68 eps off for 0.01 <= |x| < 0.1 and
    6 eps for 0.1 <= |x| < 0.5 (mpmath): twice that in ULPs of the value"""
    x = _x(args)
    return np.where((x >= 0.01) & (x < 0.1), 140, np.where((x >= 0.1) & (x < 0.5), 12, 0))


def _bessel_abs(args, ref):
    """J's and Y's allowance near their zeros: 8 eps (1 + |x|) of the envelope
    min(1, sqrt(2 / (pi x))), in ULPs of the value."""
    x = _x(args)
    env = np.minimum(1.0, np.sqrt(2 / np.pi) / np.sqrt(np.maximum(x, TINY)))
    return _abs_ulps(8 * 2.2e-16 * (1 + x) * env, ref)


# Where SciPy's own results at huge arguments are not its function's (NaN for
# a finite value, or its overflow before the true value's), the wide sample
# stays below these bounds; everything else is sampled over all doubles.
BOUND = {"beta": 160.0, "betaln": 160.0, "binom": 1e6, "poch": 150.0,
         # SciPy's sign of Gamma past a C int is its int conversion's
         "rgamma": 2147483648.0, "gammasgn": 2147483648.0, "gamma": 2147483648.0,
         # SciPy's Bessel functions of real order are AMOS': NaN past an order or
         # |x| of 1.07e9, half the digits lost past sqrt(1 / (2 eps)) = 3.4e4
         **{n: 3.4e4 for n in ("jv", "jve", "yv", "yve", "iv", "ive", "kv", "kve")},
         # ... and its Airy functions NaN past |x| = 1.07e9^(2/3) = 1.05e6
         "airy": 1e6, "airye": 1e6,
         # SciPy's binom(n + alpha, n) past a C int takes the int conversion's
         # sign (binom(-2147483630.5, 20) < 0): the polynomials' parameters
         # stay below it
         **{n: 1e9 for n in ("eval_gegenbauer", "eval_jacobi", "eval_sh_jacobi")},
         # ... and SciPy's 1F1 behind a real degree's genlaguerre takes a second
         # an element past alpha, x of 1e8 (CI's time; gpunp's takes microseconds)
         "eval_genlaguerre": 1e5}

# the integer argument of expn and the upper limit of gamma functions' `a`
# where the series and fractions still converge (SciPy switches to asymptotic
# expansions past it)
INT_FIRST = {"expn", "yn", "kn", "pdtri", "eval_chebyt", "eval_chebyu", "eval_chebyc",
             "eval_chebys", "eval_sh_chebyt", "eval_sh_chebyu", "eval_legendre",
             "eval_sh_legendre", "eval_laguerre", "eval_genlaguerre", "eval_gegenbauer",
             "eval_jacobi", "eval_sh_jacobi"}
# arguments that are probabilities (drawn in [0, 1], near both ends too) and
# counts (whole numbers below 200): by name, the arguments' places
PROB = {"gammaincinv": (1,), "gammainccinv": (1,), "chdtri": (1,), "pdtri": (1,),
        "betainc": (2,), "betaincc": (2,), "bdtr": (2,), "bdtrc": (2,), "nbdtr": (2,),
        "nbdtrc": (2,), "betaincinv": (2,), "betainccinv": (2,), "bdtri": (2,), "nbdtri": (2,),
        "fdtri": (2,), "smirnov": (1,), "smirnovi": (1,), "kolmogi": (0,), "stdtrit": (1,),
        "chdtriv": (0,), "pdtrik": (0,), "gdtrib": (1,), "gdtria": (0,), "gdtrix": (2,)}
COUNTS = {"bdtr": (0, 1), "bdtrc": (0, 1), "nbdtr": (0, 1), "nbdtrc": (0, 1), "bdtri": (0, 1),
          "nbdtri": (0, 1), "smirnov": (0,), "smirnovi": (0,)}
A_BOUND = {"gammainc": 1e4, "gammaincc": 1e4, "pdtr": 1e4, "pdtrc": 1e4, "chdtr": 2e4,
           "chdtrc": 2e4, "gdtr": 1e4, "gdtrc": 1e4, "gammaincinv": 1e4, "gammainccinv": 1e4,
           "chdtri": 2e4, "chdtriv": 2e4, "pdtrik": 1e4, "gdtria": 1e4, "gdtrix": 1e4,
           "gdtrib": 100.0,
           # SciPy's root is its own lower tail's, which is wrong for both
           # parameters past 1e15 (test_scipy_special_cdf): betainccinv(5.0014e16,
           # 1.5761e15, 0.5) is SciPy's 0.9694496320062556, the median (a - 1/3) /
           # (a + b - 2/3) 0.9694496320066135, gpunp's
           "betaincinv": 1e15, "betainccinv": 1e15}
# where A_BOUND's argument is not the first: gdtrib's a and x (a x is the shape's argument)
A_PLACES = {"betaincinv": (0, 1), "betainccinv": (0, 1), "gdtr": (1,), "gdtrc": (1,), "chdtriv": (1,), "pdtrik": (1,), "gdtria": (1,),
            "gdtrix": (1,), "gdtrib": (0, 2)}

SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, 2.0, -1.0, -2.0, -0.5, 0.5, 3.5,
                    1e-300, 5e-324, TINY, 170.5, 171.7, -170.5, 1e300, -1e300, 709.8, 745.2,
                    40.0, -40.0, 1e-8, 27.0, -27.0])

# Inputs where SciPy's result is not its function's value and gpunp gives
# the value (the limit) instead: (name, which inputs, gpunp's value there,
# why). These are checked against that value, not skipped.
def _a(args, k=0):
    return np.asarray(args[k], np.float64)


KNOWN = [
    ("gammainc", lambda a: (_a(a) > 0) & (_a(a) < TINY) & (_a(a, 1) > 0) & np.isfinite(_a(a, 1)),
     lambda a: np.ones_like(_a(a)),
     "P(a, x) -> 1 as a -> 0; SciPy's is 0 for a subnormal a and some x (its factor underflows)"),
    ("chdtr", lambda a: (_a(a) / 2 > 0) & (_a(a) < 2 * TINY) & (_a(a, 1) > 0) & np.isfinite(_a(a, 1)),
     lambda a: np.ones_like(_a(a)), "as gammainc"),
    ("gdtr", lambda a: (_a(a, 1) > 0) & (_a(a, 1) < TINY) & (_a(a) > 0) & (_a(a, 2) > 0) &
     np.isfinite(_a(a) * _a(a, 2)), lambda a: np.ones_like(_a(a)), "as gammainc"),
    ("beta", lambda a: (np.isinf(_a(a)) & (_a(a) > 0) & ((_a(a, 1) < 1e-300) | (_a(a, 1) > 1e299))
                        & (_a(a, 1) > 0)) |
     (np.isinf(_a(a, 1)) & (_a(a, 1) > 0) & ((_a(a) < 1e-300) | (_a(a) > 1e299)) & (_a(a) > 0)),
     lambda a: np.zeros_like(_a(a)), "B(a, b) -> 0 as one argument grows; SciPy's NaN"),
    ("betaln", lambda a: (np.isinf(_a(a)) & (_a(a) > 0) & ((_a(a, 1) < 1e-300) | (_a(a, 1) > 1e299))
                          & (_a(a, 1) > 0)) |
     (np.isinf(_a(a, 1)) & (_a(a, 1) > 0) & ((_a(a) < 1e-300) | (_a(a) > 1e299)) & (_a(a) > 0)),
     lambda a: np.full_like(_a(a), -np.inf), "log of beta's limit 0; SciPy's NaN"),
    ("binom", lambda a: (np.abs(_a(a)) < 1e-100) & (_a(a, 1) > 0) & (_a(a, 1) < 1e-150),
     lambda a: np.ones_like(_a(a)), "binom(0, k) -> 1 as k -> 0; SciPy's NaN for a tiny k"),
]


def _poles_underflow(a):
    """poch(-n1, m) with -n1 - m = -n2 a pole too, where the ratio of the
    residues, n1! / n2!, is below the doubles (SciPy: NaN)."""
    from math import lgamma
    x, m = _a(a), _a(a, 1)
    b = x + m
    both = (x <= 0) & (x == np.floor(x)) & (b <= 0) & (b == np.floor(b)) & np.isfinite(b)
    out = np.zeros(x.shape, bool)
    for i in np.flatnonzero(both):
        out.flat[i] = lgamma(1 - x.flat[i]) - lgamma(1 - b.flat[i]) < -745.2
    return out


def _kl_underflow(a):
    x, y = np.broadcast_arrays(_a(a), _a(a, 1))
    with np.errstate(all="ignore"):
        return (x > 0) & (y > 0) & np.isfinite(y) & (x / y == 0)


KNOWN.append(("kl_div", _kl_underflow,
              lambda a: _a(a) * (np.log(_a(a)) - np.log(_a(a, 1))) - _a(a) + _a(a, 1),
              "x / y below the doubles: x (log x - log y) - x + y; SciPy's log(0) gives -inf"))


def _kv(a):
    """K_n(x) as SciPy's kve(n, x) e^-x, which neither underflows early nor
    stops at 1/x's overflow as its kn and kv do."""
    n, x = np.broadcast_arrays(_a(a), _a(a, 1))
    with np.errstate(all="ignore"):
        return ss.kve(n, x) * np.exp(-x)


def _kn_scipy_off(a):
    """kn where SciPy's is 0 and the function is a finite nonzero double."""
    n, x = np.broadcast_arrays(_a(a), _a(a, 1))
    with np.errstate(all="ignore"):
        ok = np.isfinite(n) & np.isfinite(x)
        ref = np.where(ok, ss.kn(np.where(ok, n, 0).astype(np.int64), x), np.nan)
        v = _kv(a)
    return ok & (ref == 0) & np.isfinite(v) & (v != 0)


KNOWN.append(("kn", _kn_scipy_off, _kv,
              "SciPy's kn (and kv) underflow to 0 early at large x (K_42(701) = 6.0e-306); "
              "the value there is SciPy's kve(n, x) e^-x"))


def _zero_shape(a):
    """The inverse incomplete gamma functions at a = 0, p strictly inside
    (0, 1) or outside [0, 1]: SciPy's answer there changes with the zero's
    sign (gammainccinv(0.0, 1e-8) = 0, gammainccinv(-0.0, 1e-8) = NaN,
    gammaincinv(-0.0, 2.0) = 0); P(0, x) = 1 for every x > 0, so there is no
    root: NaN."""
    p = _a(a, 1)
    return (_a(a) == 0) & (p != 0) & (p != 1)


for _name in ("gammaincinv", "gammainccinv", "chdtri"):
    KNOWN.append((_name, _zero_shape, lambda a: np.full(_a(a).shape, np.nan),
                  "no root at a = 0; SciPy's value depends on the zero's sign"))


def _p_outside(a):
    """a probability outside [0, 1]: no root (SciPy's gammaincinv(1e-8, -0.5)
    is 0)"""
    p = _a(a, 1)
    return (p < 0) | (p > 1)


def _tiny_shape(lower):
    """a shape below 1e-300 and P = p (or 1 - q) in (0, 0.999): the root is
    about P^(1/a) (P(a, x) ~ x^a there), below the doubles: 0 (SciPy's NaN)"""
    def which(a):
        p = _a(a, 1) if lower else 1 - _a(a, 1)
        return (_a(a) > 0) & (_a(a) < 1e-300) & (p > 0) & (p < 0.999)
    return which


def _tiny_shape_upper(a):
    """a shape below 1e-300 and Q = q below 1e-200: Q(a, x) ~ a E1(x), so the
    root solves E1(x) = q / a (SciPy's 0)"""
    q = _a(a, 1)
    return (_a(a) > 0) & (_a(a) < 1e-300) & (q > 0) & (q < 1e-200)


def _e1_root(a):
    """x with E1(x) = q / a, by bisection in log x on SciPy's exp1"""
    A, q = np.broadcast_arrays(_a(a), _a(a, 1))
    with np.errstate(all="ignore"):
        t = q / A
        lo, hi = np.full(t.shape, -700.0), np.full(t.shape, np.log(800.0))
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            big = ss.exp1(np.exp(mid)) > t
            lo, hi = np.where(big, mid, lo), np.where(big, hi, mid)
        return np.exp(0.5 * (lo + hi))


for _name, _lower in (("gammaincinv", True), ("gammainccinv", False)):
    KNOWN.append((_name, _p_outside, lambda a: np.full(_a(a).shape, np.nan),
                  "p outside [0, 1]: no root; SciPy's 0 for a tiny a"))
    KNOWN.append((_name, _tiny_shape(_lower), lambda a: np.zeros(_a(a).shape),
                  "the root P^(1/a) below the doubles; SciPy's NaN"))
KNOWN.append(("gammainccinv", _tiny_shape_upper, _e1_root,
              "Q(a, x) ~ a E1(x) for a tiny a: gammainccinv(2.2e-308, 2.2e-308) is 0.2650; "
              "SciPy's 0"))


def _sum_overflows(a):
    """a + b near the doubles' end (both near 9e307, sd of the distribution
    1e-154): I is 0 below the mean a / (a + b) and 1 above; SciPy's betainc
    is 0 or 1/2 either side"""
    A, b, x = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
    with np.errstate(all="ignore"):
        return ((A > 0) & (b > 0) & np.isfinite(A) & np.isfinite(b) & (A / 2 + b / 2 > 5e306)
                & (x > 0) & (x < 1))


def _step(a, upper):
    A, b, x = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
    d = x * b - (1 - x) * A  # the side of the mean: x (a + b) - a, without the sum
    lower = np.where(d > 0, 1.0, np.where(d < 0, 0.0, 0.5))
    return 1 - lower if upper else lower


KNOWN.append(("betainc", _sum_overflows, lambda a: _step(a, False), "a + b past the doubles"))


def _symmetric_half(a):
    """I_{1/2}(a, a) = 1/2 by symmetry, and for a = b below 1e-300 half the
    mass sits at each end, I_x = 1/2 (SciPy's is 1 at (2.2e-308, 2.2e-308,
    0.5) and 0 at x = 0.25)"""
    A, b, x = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
    return (A == b) & (A > 0) & np.isfinite(A) & ((x == 0.5) | ((A < 1e-300) & (x > 0) & (x < 1)))


KNOWN.append(("betainc", _symmetric_half, lambda a: np.full(_a(a).shape, 0.5), "symmetry"))
KNOWN.append(("betaincc", _symmetric_half, lambda a: np.full(_a(a).shape, 0.5), "symmetry"))
KNOWN.append(("betaincc", _sum_overflows, lambda a: _step(a, True), "as betainc"))


def _huge_phi(a):
    """|phi| past 1e15 with m < 0 (SciPy's NaN) or past 1e307 with a tiny m
    (SciPy's overflow of 2 n K before the value's, which is phi there):
    the value is 2 n K(m) + F(phi - n pi | m) as for every other phi"""
    phi, m = _a(a), _a(a, 1)
    return np.isfinite(phi) & np.isfinite(m) & (((np.abs(phi) > 1e15) & (m < 0)) |
                                                  ((np.abs(phi) > 1e307) & (np.abs(m) < 1e-15)))


def _periodic(a, inc, comp):
    phi, m = np.broadcast_arrays(_a(a), _a(a, 1))
    n = np.floor(phi / np.pi + 0.5)
    with np.errstate(all="ignore"):
        t = 2 * n * comp(m)
        value = np.where(np.isinf(t), t, t + inc(phi - n * np.pi, m))
        # near the doubles' end with a tiny m: phi itself, the slope 2 K / pi
        # being 1 + m / 4
        return np.where((np.abs(phi) > 1e307) & (np.abs(m) < 1e-15), phi, value)


KNOWN.append(("ellipkinc", _huge_phi, lambda a: _periodic(a, ss.ellipkinc, ss.ellipk),
              "SciPy's NaN for a huge phi and m < 0"))
KNOWN.append(("ellipeinc", _huge_phi, lambda a: _periodic(a, ss.ellipeinc, ss.ellipe),
              "as ellipkinc"))


def _shichi_big(a):
    """Shi and Chi where SciPy's overflow to +-inf comes early (from about
    |x| = 713, where Chi is 4e306); the value is e^x / 2x sum k! / x^k."""
    x = _a(a)
    with np.errstate(all="ignore"):
        return (np.abs(x) > 709) & (np.abs(x) < 717) & np.isinf(ss.shichi(x)[1])


def _shichi_value(a, odd):
    x = np.abs(_a(a))
    with np.errstate(all="ignore"):
        h = np.exp(x / 2)
        s = sum(np.prod(np.arange(1.0, k + 1)) / x ** k for k in range(25))
        v = h * (h / (2 * x)) * s
    return np.sign(_a(a)) * v if odd else v


KNOWN.append(("shichi[0]", _shichi_big, lambda a: _shichi_value(a, True),
              "SciPy's Shi overflows before the function, from |x| = 713 (Chi(713.3) = 4.2e306)"))
KNOWN.append(("shichi[1]", _shichi_big, lambda a: _shichi_value(a, False), "as Shi"))


def _tiny_b(a):
    """I_x(a, b) for b below 1e-300 (and a far above it), where SciPy's is 0
    or off (betainc(0.5, 2.2e-308, 0.75): 5.8607e-308, SciPy's 5.8596e-308):
    b sum x^(a+n) / (a+n) (B(a, b) ~ 1/b, (1 - t)^(b-1) ~ 1/(1 - t)), for x
    up to 0.9 (400 terms: 0.9^400 = 5e-19)."""
    A, b, x = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
    return (b > 0) & (b < 1e-300) & (x > 0) & (x <= 0.9) & (A > 1e-200) & np.isfinite(A)


def _tiny_b_value(a):
    A, b, x = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
    with np.errstate(all="ignore"):
        s = sum(x ** (A + n) / (A + n) for n in range(400))
    return b * s


KNOWN.append(("betainc", _tiny_b, _tiny_b_value,
              "b below 1e-300: I = b sum x^(a+n) / (a+n) (3.9e-308 at (0.5, 2.2e-308, 0.5)); "
              "SciPy's is 0"))


def _both_tiny(a):
    """a and b both below 1e-20 (unequal): B(x; a, b) ~ 1/a and B(a, b) ~
    1/a + 1/b up to terms of order 1, so I_x = b / (a + b) for 0 < x < 1 to
    relative O(a log x + b log(1 - x)), below 1e-17 (SciPy's is 1 at
    (3.3e-268, 5.0e-260, 0.25), where I = 1 - 6.6e-9, and at (4.6e-194,
    6.8e-186, 0.25): a hypothesis draw)"""
    A, b, x = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
    return (A > 0) & (b > 0) & (A < 1e-20) & (b < 1e-20) & (A != b) & (x > 0) & (x < 1)


def _both_tiny_value(a, complement=False):
    A, b = np.broadcast_arrays(_a(a), _a(a, 1))[:2]
    return (A if complement else b) / (A + b)


KNOWN.append(("betainc", _both_tiny, _both_tiny_value, "a and b tiny: b / (a + b)"))
KNOWN.append(("betaincc", _both_tiny, lambda a: _both_tiny_value(a, True), "as betainc"))
def _reflected(a, f, g, sine):
    """f_-nu = cos(nu pi) f_nu - sine sin(nu pi) g_nu from SciPy's values of
    positive order (sin and cos of pi nu reduced exactly)"""
    nu, x = np.broadcast_arrays(np.abs(_a(a)), _a(a, 1))
    r = nu - 2 * np.round(nu / 2)
    with np.errstate(all="ignore"):
        # a half-integer's cosine is 0, not cos(pi r) rounded, times an infinity
        cos = np.where(np.abs(r) == 0.5, 0.0, np.cos(np.pi * r))
        fv = f(nu, x)
        return np.where(cos == 0, 0.0, cos * fv) - sine * np.sin(np.pi * r) * g(nu, x)


def _overflow_negative_order(a):
    """an order below 0 (not whole) where the value overflows: SciPy's is +inf (or
    NaN for the scaled functions) whatever the sign of the function"""
    nu, x = np.broadcast_arrays(_a(a), _a(a, 1))
    with np.errstate(all="ignore"):
        ref = _reflected(a, ss.jv, ss.yv, 1)
    return (nu < 0) & (nu != np.floor(nu)) & (x > 0) & np.isinf(ref)


def _y_reflected(a):
    """Y_-nu = sin(nu pi) J_nu + cos(nu pi) Y_nu"""
    nu, x = np.broadcast_arrays(np.abs(_a(a)), _a(a, 1))
    r = nu - 2 * np.round(nu / 2)
    with np.errstate(all="ignore"):
        cos = np.where(np.abs(r) == 0.5, 0.0, np.cos(np.pi * r))
        return np.sin(np.pi * r) * ss.jv(nu, x) + np.where(cos == 0, 0.0, cos * ss.yv(nu, x))


def _y_half_order(a):
    """an order -n - 1/2: Y_-nu = +-J_nu (the cosine is 0), which SciPy gives as
    -inf where Y_nu is (yv(-170.5, 0.5))"""
    nu, x = np.broadcast_arrays(_a(a), _a(a, 1))
    return (nu < 0) & (np.abs(nu - 2 * np.round(nu / 2)) == 0.5) & (x > 0) & np.isfinite(x)


for _name in ("yv", "yve"):
    KNOWN.append((_name, _y_half_order, _y_reflected, "Y_-n-1/2 = (-1)^n J_n+1/2"))

for _name in ("jv", "jve"):
    KNOWN.append((_name, _overflow_negative_order, lambda a: _reflected(a, ss.jv, ss.yv, 1),
                  "J_-nu = cos(nu pi) J_nu - sin(nu pi) Y_nu past the doubles: the signed "
                  "infinity; SciPy's is +inf (jv) or NaN (jve) for either sign"))


def _yve_overflow(a):
    with np.errstate(all="ignore"):
        return np.isinf(ss.yve(_a(a), _a(a, 1))) & np.isfinite(_a(a, 1))


KNOWN.append(("yve", _yve_overflow, lambda a: ss.yv(_a(a), _a(a, 1)),
              "yve = yv for a real x; where it overflows, SciPy's yve has the wrong sign "
              "(yve(2, 1e-300) = +inf, yv = -inf)"))


def _leading(a):
    """(x/2)^nu / Gamma(nu + 1) (times (-1)^nu for x < 0 and a whole nu): J's
    and I's value for |x| below 1e-9"""
    from math import gamma, lgamma
    nu, x = np.broadcast_arrays(_a(a), _a(a, 1))
    out = np.full(nu.shape, np.nan)
    with np.errstate(all="ignore"):
        for i in np.ndindex(nu.shape):
            v, t = float(nu[i]), float(x[i])
            if not np.isfinite(v) or not np.isfinite(t) or t == 0 or \
                    (v + 1 <= 0 and v == np.floor(v)):
                continue
            sign = 1.0
            if t < 0:
                if v != np.floor(v):
                    continue
                sign, t = (-1.0 if v % 2 else 1.0), -t
            try:
                # t / 2 rounds when subnormal
                out[i] = sign * t ** v * 0.5 ** v / gamma(v + 1)
            except (OverflowError, ZeroDivisionError, ValueError):
                if v > 0:
                    out[i] = sign * np.exp(v * np.log(t / 2) - lgamma(v + 1))
    return out


def _tiny_x_off(f):
    """J's or I's value for 0 < |x| < 1e-9 where SciPy's is 0, NaN or inf"""
    def which(a):
        nu, x = np.broadcast_arrays(_a(a), _a(a, 1))
        with np.errstate(all="ignore"):
            ref = f(nu, x)
            v = _leading(a)
        return ((x != 0) & (np.abs(x) < 1e-9) & ((ref == 0) | ~np.isfinite(ref)) &
                np.isfinite(v))
    return which


for _name, _f in (("jv", ss.jv), ("jve", ss.jve), ("iv", ss.iv), ("ive", ss.ive)):
    KNOWN.append((_name, _tiny_x_off(_f), _leading,
                  "(x/2)^nu / Gamma(nu + 1) for a tiny x; SciPy's 0, NaN or inf "
                  "(iv(1, -5.4e-261) = -2.7e-261, SciPy's -0.0; jve(-0.5, 2.2e-308) = "
                  "5.3e153, SciPy's inf)"))


def _y_tiny_x(a):
    nu, x = np.broadcast_arrays(_a(a), _a(a, 1))
    with np.errstate(all="ignore"):
        ref = ss.yv(nu, x)
    return (x > 0) & (x < 1e-9) & np.isinf(ref) & np.isfinite(_y_leading(a))


def _y_leading(a):
    """Y_nu(x) for a tiny x: (2/pi) (log(x/2) + Euler's gamma) at order 0 (and
    its first-order form below 1e-12), else (cos(nu pi) (x/2)^nu / Gamma(1 + nu)
    - (x/2)^-nu / Gamma(1 - nu)) / sin(nu pi) (NaN for 1e-12 <= nu < 1e-4,
    where that cancels); a negative order -a is sin(a pi) J_a + cos(a pi) Y_a,
    J_a = (x/2)^a / Gamma(1 + a) (at a = 1/64 and x = 3.9e-308 that term is
    6e-13 of Y's), NaN near the half-integers, where the cosine vanishes"""
    from math import gamma
    nu, x = np.broadcast_arrays(_a(a), _a(a, 1))
    out = np.full(nu.shape, np.nan)
    with np.errstate(all="ignore"):
        for i in np.ndindex(nu.shape):
            v, t = float(nu[i]), float(x[i])
            if not (np.isfinite(v) and 0 < t < 1e-9):
                continue
            sign, jterm = 1.0, 0.0
            lx = np.log(t) - np.log(2)
            if v <= -1e-12:
                v = -v  # yve(-1, 3.9e-308) = -yve(1, ...)
                sign, jterm = np.cos(np.pi * v), np.sin(np.pi * v) * np.exp(v * lx) * ss.rgamma(1 + v)
                if abs(sign) < 1e-3:
                    continue
            if v < 1e-12:
                # Gamma(1 +- v) = 1 -+ gamma v + O(v^2), cos(v pi) = 1 + O(v^2):
                # -(2/pi) (sinh(v L) / v - gamma cosh(v L)), L = log(2/x)
                sh = -lx if v == 0 else np.sinh(-v * lx) / v
                out[i] = -2 / np.pi * (sh - np.euler_gamma * np.cosh(v * lx))
            elif 1e-4 <= v < 0.5:
                out[i] = (np.cos(np.pi * v) * np.exp(v * lx) / gamma(1 + v)
                          - np.exp(-v * lx) / gamma(1 - v)) / np.sin(np.pi * v)
            elif v >= 0.5:
                out[i] = -2 / np.pi * float(_k_leading([np.array(v), np.array(t)]))
            out[i] = sign * out[i] + jterm
    return out


for _name in ("yv", "yve"):
    KNOWN.append((_name, _y_tiny_x, _y_leading,
                  "Y_nu(x) = -Gamma(nu) / pi (2/x)^nu for a tiny x, below the overflow "
                  "(yv(0.5, 5e-324) = -3.6e161); SciPy's -inf"))


def _i_overflow(a):
    nu, x = np.broadcast_arrays(_a(a), _a(a, 1))
    with np.errstate(all="ignore"):
        return np.isinf(ss.iv(nu, x)) & np.isfinite(_i_unscaled(a)) & \
            ((x > 0) | ((x < 0) & (nu == np.floor(nu))))


def _i_unscaled(a):
    nu, x = np.broadcast_arrays(_a(a), _a(a, 1))
    with np.errstate(all="ignore"):
        h = np.exp(np.abs(x) / 2)
        return ss.ive(nu, x) * h * h


KNOWN.append(("iv", _i_overflow, _i_unscaled, "SciPy's iv overflows early (iv(51, 712) = "
              "4.0e306, SciPy's inf): its ive times e^x"))


def _k_up(a):
    """K_k+1 = K_k-1 + 2k/x K_k (stable upwards) from SciPy's values at orders
    nu - 100 and nu - 99, below its early overflow"""
    nu, x = np.broadcast_arrays(np.abs(_a(a)), _a(a, 1))
    with np.errstate(all="ignore"):
        k0, k1 = ss.kve(nu - 100, x), ss.kve(nu - 99, x)
        for k in range(99, 0, -1):
            k0, k1 = k1, k0 + 2 * (nu - k) / x * k1
        return k1


def _kve_overflow(a):
    nu, x = np.broadcast_arrays(np.abs(_a(a)), _a(a, 1))
    with np.errstate(all="ignore"):
        return np.isinf(ss.kve(nu, x)) & np.isfinite(_k_up(a)) & (nu > 100) & (x > 0)


KNOWN.append(("kve", _kve_overflow, _k_up, "SciPy's kve overflows early (kve(4272, 12664) = "
              "1.24e308, SciPy's inf): the recurrence from its kve of orders nu - 100, nu - 99"))


def _kv_scaled_back(a):
    """K_nu(x) as SciPy's kve(nu, x) e^-x (in two halves; kve from the
    recurrence where SciPy's overflows early)"""
    nu, x = np.broadcast_arrays(_a(a), _a(a, 1))
    with np.errstate(all="ignore"):
        h = np.exp(-x / 2)
        k = ss.kve(nu, x)
        k = np.where(np.isinf(k) & (np.abs(nu) > 100), _k_up(a), k)
        return k * h * h


def _kv_off(a):
    nu, x = np.broadcast_arrays(_a(a), _a(a, 1))
    with np.errstate(all="ignore"):
        ref = ss.kv(nu, x)
        v = _kv_scaled_back(a)
    return (x > 1) & np.isfinite(x) & np.isfinite(nu) & ((ref == 0) | ~np.isfinite(ref)) & \
        np.isfinite(v) & (v < 1)


KNOWN.append(("kv", _kv_off, _kv_scaled_back, "SciPy's kv is 0, NaN or inf where K is a "
              "double below 1 (kv(1308, 1312) = 2.1e-307, SciPy's 0; kv(1453, 1400) = "
              "1.2e-305, SciPy's inf): its kve times e^-x"))


def _sinpi(nu):
    """sin(pi nu) with the argument reduced exactly to [-1/2, 1/2] first"""
    r = nu - 2 * np.round(nu / 2)
    r = np.where(r > 0.5, 1 - r, np.where(r < -0.5, -1 - r, r))
    return np.sin(np.pi * r)


def _ive_reflected(a):
    nu, x = np.broadcast_arrays(np.abs(_a(a)), _a(a, 1))
    with np.errstate(all="ignore"):
        return ss.ive(nu, x) + 2 / np.pi * _sinpi(nu) * (ss.kv(nu, x) * np.exp(-x))


def _ive_negative(a):
    nu, x = np.broadcast_arrays(_a(a), _a(a, 1))
    with np.errstate(all="ignore"):
        return (nu < 0) & (nu != np.floor(nu)) & (x > 0) & np.isfinite(_ive_reflected(a))


KNOWN.append(("ive", _ive_negative, _ive_reflected,
              "SciPy's ive of an order below 0 is off: NaN where it is finite "
              "(ive(-994.5, 357) = 4.7e139), 47658 ULPs at (-2.00001, 0.125) (mpmath; "
              "gpunp's 1): I_nu e^-x + 2/pi sin(nu pi) K_nu e^-x from its positive orders"))


def _bi_overflow(a):
    x = _a(a)
    with np.errstate(all="ignore"):
        return (x > 100) & np.isfinite(x) & np.isnan(ss.airy(x)[2])


def _bi_value(k):
    def value(a):
        x = _a(a)
        with np.errstate(all="ignore"):
            h = np.exp(2 / 3 * x * np.sqrt(x) / 2)
            return ss.airye(x)[k] * h * h
    return value


for _k in (2, 3):
    KNOWN.append((f"airy[{_k}]", _bi_overflow, _bi_value(_k),
                  "Bi and Bi' past the doubles (x > 104): inf, SciPy's NaN; its airye times "
                  "e^zeta"))


def _debye(kind):
    """Debye's expansions to u_3 (A&S 9.3.7, 9.3.8, 9.7.7, 9.7.8), 1e-13 or
    better for orders from 1000: e^-x I_nu(x) ("i"), K_nu(x) ("k"), Y_nu(x)
    for x < 0.9 nu ("y")"""
    def u(t):
        t2 = t * t
        return [np.ones_like(t), t * (3 - 5 * t2) / 24,
                t2 * (81 - 462 * t2 + 385 * t2 * t2) / 1152,
                t * t2 * (30375 - 369603 * t2 + 765765 * t2 * t2 - 425425 * t2 ** 3) / 414720]

    def value(a):
        nu, x = np.broadcast_arrays(np.abs(_a(a)), _a(a, 1))
        # I_n(-x) = (-1)^n I_n(x), Y_-n = (-1)^n Y_n, K_-nu = K_nu
        odd = nu % 2 == 1
        sign = np.where(((x < 0) | ((_a(a) < 0) & (kind == "y"))) & odd, -1.0, 1.0)
        x = np.abs(x)
        with np.errstate(all="ignore"):
            z = x / nu
            if kind == "y":
                sq = np.sqrt((1 - z) * (1 + z))
                us = u(1 / sq)
                tot = sum((-1) ** k * us[k] / nu ** k for k in range(4))
                return -sign * np.exp(-nu * (sq - np.arctanh(sq)) -
                                      0.5 * np.log(np.pi * nu * sq / 2)) * tot
            sq = np.sqrt(1 + z * z)
            us = u(1 / sq)
            e = nu / (sq + z) + nu * np.log(z / (1 + sq))  # nu eta - x
            if kind == "i":
                tot = sum(us[k] / nu ** k for k in range(4))
                return sign * np.exp(e - 0.5 * np.log(2 * np.pi * nu * sq)) * tot
            tot = sum((-1) ** k * us[k] / nu ** k for k in range(4))
            return np.exp(-e - x - 0.5 * np.log(2 * nu * sq / np.pi)) * tot
    return value


def _debye_needed(f, kind):
    """SciPy's 0, inf or NaN where Debye's value is a double (ive(4576, 14896)
    = 3.9e-306, kv(1472, 1412) = 1.1e-305, yve(22800, 20520) = -2.5e307)"""
    def which(a):
        nu, x = np.broadcast_arrays(np.abs(_a(a)), _a(a, 1))
        with np.errstate(all="ignore"):
            ref = f(_a(a), x)
            v = _debye(kind)(a)
        whole = nu == np.floor(nu)
        ok = (nu >= 1000) & np.isfinite(nu) & ((x > 0) | ((x < 0) & whole & (kind == "i"))) & \
            np.isfinite(x) & ((_a(a) > 0) | (kind == "k") | ((kind == "y") & whole))
        if kind == "y":
            ok &= x < 0.95 * nu
        return ok & ((ref == 0) | ~np.isfinite(ref)) & np.isfinite(v) & (v != 0)
    return which


for _name, _f, _kind in (("ive", ss.ive, "i"), ("kv", ss.kv, "k"), ("yv", ss.yv, "y"),
                         ("yve", ss.yve, "y")):
    KNOWN.append((_name, _debye_needed(_f, _kind), _debye(_kind),
                  "SciPy's 0 or infinity where the value is a double: Debye's expansion"))


def _subnormal_order(a):
    nu, x = np.broadcast_arrays(_a(a), _a(a, 1))
    return (nu != 0) & (np.abs(nu) < 1e-20) & (x > 0) & np.isfinite(x)


for _name, _f in (("jv", ss.j0), ("jve", ss.j0), ("yv", ss.y0), ("yve", ss.y0), ("iv", ss.i0),
                  ("ive", ss.i0e), ("kv", ss.k0), ("kve", ss.k0e)):
    KNOWN.append((_name, _subnormal_order, lambda a, f=_f: f(_a(a, 1)),
                  "an order below 1e-20 is order 0's to the doubles' precision (nu log(2/x) "
                  "below 1e-17); SciPy's NaN or 0 for kv(5e-324, 0.5) and yv(5e-324, 0.5), "
                  "-inf for yve(1.7e-24, 2e-306)"))


def _k_tiny_x(a):
    nu, x = np.broadcast_arrays(_a(a), _a(a, 1))
    with np.errstate(all="ignore"):
        ref = ss.kv(nu, x)
    nu = np.abs(nu)
    return (x > 0) & (x < 1e-300) & np.isinf(ref) & np.isfinite(_k_leading(a)) & \
        np.isfinite(nu)


def _k_leading(a):
    """K_nu(x) for a tiny x: Gamma(nu) / 2 (2/x)^nu (nu >= 0.1; below, with
    Gamma(-nu) / 2 (x/2)^nu; below 1e-5 the two expanded in nu)"""
    from math import gamma, lgamma
    nu, x = np.broadcast_arrays(np.abs(_a(a)), _a(a, 1))
    with np.errstate(all="ignore"):
        ok = np.isfinite(nu) & (nu > 0)
        lg = np.array([lgamma(v) if o else np.inf for v, o in zip(nu.ravel(), ok.ravel())])
        g2 = np.array([gamma(-v) if o and 1e-5 <= v < 0.1 else 0.0
                       for v, o in zip(nu.ravel(), ok.ravel())])
        l2x = np.log(2) - np.log(x)
        big = np.exp(lg.reshape(nu.shape) + nu * l2x - np.log(2))
        small = g2.reshape(nu.shape) / 2 * np.exp(-nu * l2x)
        # an order below 1e-5: (Gamma(1 + nu) e^(nu L) - Gamma(1 - nu) e^-(nu L)) / 2 nu
        # = (1 + c2 nu^2) sinh(nu L) / nu - gamma cosh(nu L) + O(nu^2), L = log(2/x),
        # c2 = gamma^2/2 + pi^2/12 (Gamma(1 + nu)'s Taylor coefficients)
        c2 = np.euler_gamma ** 2 / 2 + np.pi ** 2 / 12
        tiny = np.where(nu == 0, l2x, np.sinh(nu * l2x) / np.where(nu == 0, 1, nu)) * \
            (1 + c2 * nu * nu) - np.euler_gamma * np.cosh(nu * l2x)
        return np.where(nu < 1e-5, tiny, big + small)


for _name in ("kv", "kve"):
    KNOWN.append((_name, _k_tiny_x, _k_leading, "K_nu(x) = Gamma(nu) / 2 (2/x)^nu for a tiny x, "
                  "a double below the overflow (kv(1, 2.2e-308) = 4.5e307); SciPy's inf"))


def _kn_small_x(a):
    """K_n(x) where it is huge: Gamma(n) / 2 (2/x)^n times the finite sum
    sum_k<n (-1)^k (n-k-1)! / ((n-1)! k!) (x/2)^2k (the rest, of order
    (x/2)^n log x, is no part of a double there)"""
    n, x = np.broadcast_arrays(_a(a), _a(a, 1))
    with np.errstate(all="ignore"):
        q = -(x / 2) ** 2
        term, total = np.ones_like(x), np.ones_like(x)
        for k in range(1, 200):
            live = k < n
            term = np.where(live, term * q / (k * (n - k)), 0.0)
            total = total + term
        return _k_leading(a) * total


def _kn_scipy_inf(a):
    """kn where SciPy's overflows to inf and the function is a double"""
    n, x = np.broadcast_arrays(_a(a), _a(a, 1))
    with np.errstate(all="ignore"):
        ok = np.isfinite(n) & (n >= 2) & (n < 200) & (x > 0)
        ref = np.where(ok, ss.kn(np.where(ok, n, 0).astype(np.int64), x), np.nan)
        return ok & np.isinf(ref) & np.isfinite(_kn_small_x(a))


KNOWN.append(("kn", _kn_scipy_inf, _kn_small_x,
              "K_n(x) below the overflow (kn(16, 1e-18) = 4.3e304, kn(100, 0.06) = 9.05e307); "
              "SciPy's inf"))
KNOWN.append(("poch", _poles_underflow, lambda a: np.zeros_like(_a(a)),
              "the ratio of Gamma's residues below the doubles: 0; SciPy's NaN"))


def _carlson_scipy_off(name):
    """finite arguments in the domain where SciPy's Carlson integral is NaN or
    infinite (its products overflow or underflow past 1e300 or 1e-300)"""
    def which(a):
        args = np.broadcast_arrays(*[_a(a, k) for k in range(len(a))])
        ok = np.all([np.isfinite(v) for v in args], axis=0)
        nonzero = np.sum([v != 0 for v in args], axis=0)
        if name == "elliprc":
            ok &= (args[0] >= 0) & (np.abs(args[1]) >= TINY)
        else:
            ok &= np.all([v >= 0 for v in args], axis=0) & (nonzero >= len(args) - 1)
            ok &= np.all([(v == 0) | (v >= TINY) for v in args], axis=0)
            if name == "elliprd":
                ok &= args[2] != 0
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = getattr(ss, name)(*args)
            pos = [np.where(v != 0, np.abs(v), np.nan) for v in args]
            spread = np.nanmax(pos, axis=0) / np.nanmin(pos, axis=0)
        off = ok & ~np.isfinite(ref)
        # arguments 1e30 apart or beyond 1e+-150: SciPy's elliprg(2.6e-120,
        # 6.1e-201, 6.1e-201) is 1.7e-5 off, elliprg(x, x, x) 0 for x = 1.2e-188,
        # elliprc(1.2e-295, -3.4e14) 20 ULPs off (mpmath); there the decimal
        # value (to 1e-18) judges SciPy's
        extreme = np.any([(v != 0) & ((np.abs(v) < 1e-150) | (np.abs(v) > 1e150)) for v in args],
                         axis=0)
        far = ok & np.isfinite(ref) & ((spread > 1e30) | extreme)
        for i in zip(*np.nonzero(far)):
            v = _carlson_one(name, [a[i] for a in args])
            off[i] = abs(ref[i] - v) > 4 * 2.2e-16 * abs(v)
        return off
    return which


def _carlson_one(name, v):
    """R_F, R_D, R_C or R_G at one point by Carlson's duplication in 40-digit
    decimals, whose exponents do not overflow"""
    import decimal

    def rf_rd(x, y, z, want_d):
        s, w = decimal.Decimal(0), decimal.Decimal(1)
        for _ in range(400):
            A = (x + y + 3 * z) / 5 if want_d else (x + y + z) / 3
            if max(abs(A - x), abs(A - y), abs(A - z)) <= A * decimal.Decimal("1e-9"):
                break
            sx, sy, sz = x.sqrt(), y.sqrt(), z.sqrt()
            lam = sx * sy + sy * sz + sz * sx
            if want_d:
                s += w / (sz * (z + lam))
                w /= 4
            x, y, z = (x + lam) / 4, (y + lam) / 4, (z + lam) / 4
        # the arguments agree to 1e-9: the first-order Taylor term suffices
        if want_d:
            return 3 * s + w / (A * A.sqrt())
        return 1 / A.sqrt()

    with decimal.localcontext() as ctx:
        ctx.prec, ctx.Emax, ctx.Emin = 40, 10**6, -10**6
        d = [decimal.Decimal(float(t)) for t in v]
        if name == "elliprf":
            r = rf_rd(*d, False)
        elif name == "elliprd":
            r = rf_rd(*d, True)
        elif name == "elliprc":
            x, y = d
            if y < 0:
                r = 0 if x == 0 else (x / (x - y)).sqrt() * rf_rd(x - y, -y, -y, False)
            else:
                r = rf_rd(x, y, y, False)
        else:
            x, y, z = sorted(d)
            r = (y * rf_rd(x, z, y, False) + (z - y) * (y - x) * rf_rd(x, z, y, True) / 3
                 + ((x * z / y).sqrt() if x else 0)) / 2
        return float(r)


def test_elliprc_principal_value_where_x_minus_y_overflows():
    # x - y past the doubles (a random draw on the H100: NaN); R_C is of
    # degree -1/2, so x / 4 and y / 4 carry it. SciPy 1.17's 0 there is wrong
    big = np.finfo(np.float64).max
    x = np.array([big, big, 1e308, 5e307, big])
    y = np.array([-9.9792015476736e291, -big, -1e308, -big, -1e300])
    got = sp.elliprc(gp.asarray(x), gp.asarray(y)).get()
    want = [_carlson_one("elliprc", [a, b]) for a, b in zip(x, y)]
    np.testing.assert_allclose(got, want, rtol=4 * 2.2e-16)


def _carlson_decimal(name):
    def value(a):
        args = np.broadcast_arrays(*[_a(a, k) for k in range(len(a))])
        which = _carlson_scipy_off(name)(a)
        out = np.full(args[0].shape, np.nan)
        for i in zip(*np.nonzero(which)):
            out[i] = _carlson_one(name, [v[i] for v in args])
        return out
    return value


for _name in ("elliprf", "elliprd", "elliprc", "elliprg"):
    KNOWN.append((_name, _carlson_scipy_off(_name), _carlson_decimal(_name),
                  "SciPy's NaN or inf at finite arguments past 1e300 (elliprg(1e300, 1e300, "
                  "1e300)) or far apart (elliprd(0, 3e-301, 6e307)): its products overflow; "
                  "SciPy's values 4 eps away from it where the arguments are 1e30 apart or "
                  "beyond 1e+-150 (SciPy's elliprg(x, x, x) is 0 for x = 1.2e-188); the "
                  "value by the same duplication in 40-digit decimals"))


def _erfi_early_inf(a):
    """|x| just below erfi's overflow (26.64), where SciPy's is already +-inf"""
    x = _a(a)
    with np.errstate(all="ignore"):
        return (np.abs(x) > 26) & (np.abs(x) < 27) & np.isinf(ss.erfi(x))


def _erfi_from_dawsn(a):
    """erfi(x) = 2 / sqrt(pi) e^(x^2) F(x), from SciPy's Dawson integral"""
    x = _a(a)
    with np.errstate(all="ignore"):
        h = np.exp(x * x / 2)
        return 2 / np.sqrt(np.pi) * ss.dawsn(x) * h * h


KNOWN.append(("erfi", _erfi_early_inf, _erfi_from_dawsn,
              "SciPy's erfi overflows before the value does: erfi(-26.654) = -7.2e306, "
              "SciPy's -inf; the value from SciPy's dawsn"))


def _fresnel_huge(a):
    x = _a(a)
    return np.isfinite(x) & (np.abs(x) > 1.2e154)


for _k in (0, 1):
    KNOWN.append((f"fresnel[{_k}]", _fresnel_huge, lambda a: np.sign(_a(a)) * 0.5,
                  "SciPy's NaN once its x^2 overflows (|x| > 1.34e154); the value is 1/2 to "
                  "within 1 / (pi x)"))
KNOWN.append(("elliprc", lambda a: (_a(a) < 0) & np.isfinite(_a(a)) & np.isfinite(_a(a, 1)),
              lambda a: np.full(np.broadcast(_a(a), _a(a, 1)).shape, np.nan),
              "x < 0 has no value (SciPy's NaN) but where x / y underflows: SciPy's -0 at "
              "(-1e-268, -1e56)"))


def _integer_loop(name):
    """SciPy's integer-degree loop ("ld->d") of an orthogonal polynomial"""
    def value(a):
        n, *rest = np.broadcast_arrays(*[_a(a, k) for k in range(len(a))])
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return getattr(ss, name)(n.astype(np.int64), *rest)
    return value


for _name in ("eval_chebyt", "eval_chebyu", "eval_chebyc", "eval_chebys", "eval_sh_chebyt",
              "eval_sh_chebyu"):
    KNOWN.append((_name, lambda a: np.ones(np.broadcast(*a).shape, bool), _integer_loop(_name),
                  "SciPy's real-n loop is hyp2f1's, up to 1e294 ULPs from its own integer loop "
                  "at a whole n (eval_chebyt(59.0, 1.77e-296): 3.3e-16 for -1.05e-294); "
                  "gpunp's gives the integer loop's value for a whole n (test_special.py "
                  "checks the rest)"))
for _name in ("eval_legendre", "eval_sh_legendre", "eval_laguerre", "eval_genlaguerre",
              "eval_gegenbauer", "eval_jacobi", "eval_sh_jacobi"):
    KNOWN.append((_name, lambda a: np.ones(np.broadcast(*a).shape, bool), _integer_loop(_name),
                  "as eval_chebyt's: SciPy's real-n loop (hyp2f1, hyp1f1) is off its own "
                  "integer loop at a whole n (eval_legendre(14.0, 1e300): NaN for inf); "
                  "gpunp's gives the integer loop's value there"))

def _fdtr_nan(a):
    """one degree past 1e100 and the other below 1e50, where the chi-square
    limit is exact to double (its corrections are O(dfn / dfd)) and SciPy's
    fdtr is NaN, 0 or 1 (fdtr(1, 1.6e114, 4e-210) = 1.6e-105; SciPy's 0)"""
    dfn, dfd, x = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
    return ((dfn > 0) & np.isfinite(dfn) & (dfd > 0) & np.isfinite(dfd) &
            (((dfd > 1e100) & (dfn < 1e50)) | ((dfn > 1e100) & (dfd < 1e50))) & (x > 0) &
            np.isfinite(x))


def _fdtr_limit(a, upper):
    """F -> chi2(dfn) / dfn as dfd grows, dfd / chi2(dfd) as dfn grows"""
    dfn, dfd, x = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
    with np.errstate(all="ignore"):
        big_d = ss.chdtrc(dfn, dfn * x) if upper else ss.chdtr(dfn, dfn * x)
        big_n = ss.chdtr(dfd, dfd / x) if upper else ss.chdtrc(dfd, dfd / x)
    return np.where(dfd > dfn, big_d, big_n)


KNOWN.append(("fdtr", _fdtr_nan, lambda a: _fdtr_limit(a, False),
              "a degree past 1e100: the chi-square limits; SciPy's NaN"))
KNOWN.append(("fdtrc", _fdtr_nan, lambda a: _fdtr_limit(a, True), "as fdtr"))
KNOWN.append(("fdtr", _fdtr_both_huge, lambda a: _fdtr_normal(a, False),
              "both degrees past 1e14: the normal limit (to its skew, below s); SciPy's NaN or 0"))
KNOWN.append(("fdtrc", _fdtr_both_huge, lambda a: _fdtr_normal(a, True), "as fdtr"))


def _fdtrc_tiny_dfn(a):
    """dfn below 1e-20, where SciPy's fdtrc is 0, or 1 where its w = dfd /
    (dfd + dfn x) rounds to 1 (fdtrc(2.2e-308, 9.0e15, 1) = 7.9e-306, SciPy's
    1: found by CI's hypothesis examples), or where w is subnormal and SciPy's
    rounds (fdtrc(3.3967e-156, 4.67e12, 3.3967e-156) = 1.2162e-153, SciPy's
    1.2150e-153 from a w rounded to 5e-324: found by another; the value checked by hand from
    the series, -a (log w + psi(b) + gamma) = 7.87e-306, gpunp's 7.88e-306)"""
    dfn, dfd, x = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = ss.fdtrc(dfn, dfd, x)
        return ((dfn > 0) & (dfn < 1e-20) & (dfd > 1e-200) & np.isfinite(dfd) & (x > 0) &
                np.isfinite(x) & (dfn * x / dfd < 1e-20) &
                ((theirs == 0) | (theirs == 1) | (np.log(dfn) + np.log(x) - np.log(dfd) < LOG_TINY)))


def _fdtrc_tiny_dfn_value(a):
    """1 - I_w(a, b) to first order in a = dfn / 2: a (-log w - psi(b) - gamma)
    at w = dfn x / dfd (tiny)"""
    dfn, dfd, x = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
    lw = np.log(dfn) + np.log(x) - np.log(dfd)
    return dfn / 2 * (-lw - ss.psi(dfd / 2) - np.euler_gamma)


def _fdtr_tiny_dfd(a):
    """dfd below 1e-100 (dfn above 1e-50), or below 1e-12, 1e-17 x and 1e-10 dfn, where
    SciPy's fdtr is 0 or 1 (its w rounds to 1: fdtr(4, 4e-210, 4e113) =
    1.5e-207, SciPy's 1; fdtr(2.0e14, 2.2e-16, 4.5e293) = 7.9e-14, SciPy's
    1: found by a hypothesis draw)"""
    dfn, dfd, x = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
    return ((dfd > 0) & ((dfd < 1e-100) | ((dfd < 1e-12) & (dfd < 1e-17 * x) & (dfn > 1e10 * dfd)))
            & (dfn > 1e-50) & np.isfinite(dfn) & (x > 0) & np.isfinite(x))


def _fdtr_tiny_dfd_value(a):
    """I_w(a, b) = 1 - I_(1-w)(b, a) for a tiny b = dfd / 2, the upper tail's
    head (1 - w)^b / (b B(b, a)) (its next term a (1 - w) below 1e-17 of it):
    1 - e^-v, v = b (-log(1 - w) - psi(a) - gamma), -log(1 - w) = log1p(dfn x / dfd)"""
    dfn, dfd, x = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
    with np.errstate(all="ignore"):
        lz = np.log(dfn) + np.log(x) - np.log(dfd)  # z past the doubles: log z
        l1z = np.where(lz > 700, lz, np.log1p(np.exp(lz)))
    return -np.expm1(-dfd / 2 * (l1z - ss.psi(dfn / 2) - np.euler_gamma))


def _fdtr_subnormal_x(a):
    """x below the normal doubles, where SciPy's fdtr is 0"""
    dfn, dfd, x = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ((x > 0) & (x < TINY) & (dfn > 1e-5) & (dfn < 1e5) & (dfd > 1e-5) & (dfd < 1e5)
                & (ss.fdtr(dfn, dfd, x) == 0))


def _fdtr_head(a):
    """I_w(a, b) = w^a / (a B(a, b)) for a subnormal w = dfn x / dfd"""
    dfn, dfd, x = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
    A, b = dfn / 2, dfd / 2
    with np.errstate(all="ignore"):
        return np.exp(A * (np.log(dfn) + np.log(x) - np.log(dfd)) - np.log(A) - ss.betaln(A, b))


def _fdtr_subnormal_w(a):
    """w = dfn x / (dfd + dfn x) below the normal doubles (SciPy's rounded w
    keeps few digits: fdtr(0.00337, 2.1e27, 1.05e-284) = 0.32913136197010020
    by mpmath, gpunp's 23, SciPy's 638: a hypothesis draw); its head's next
    term, O(dfd w), below 1e-17; where the head itself is NaN (betaln of
    degrees past 1e77: fdtr(2.3e77, 3.3e190, 3.2e-195) = 0, a hypothesis
    draw) the other references hold"""
    dfn, dfd, x = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
    with np.errstate(all="ignore"):
        lz = np.log(dfn) + np.log(x) - np.log(dfd)
        return ((dfn > 0) & np.isfinite(dfn) & (dfd > 0) & np.isfinite(dfd) & (x > 0) &
                np.isfinite(x) & (lz < LOG_TINY) & (np.log(dfd) + lz < np.log(1e-17)) &
                np.isfinite(_fdtr_head(a)))


KNOWN.append(("fdtr", _fdtr_subnormal_w, _fdtr_head,
              "w below the normal doubles: the head w^a / (a B); SciPy's from a rounded w"))
KNOWN.append(("fdtrc", lambda a: _fdtr_subnormal_w(a) & (_fdtr_head(a) <= 0.5),
              lambda a: 1 - _fdtr_head(a),
              "as fdtr, where the head is at most 1/2: near 1 (a tiny dfn) 1 - head keeps "
              "nothing (fdtrc(1.7e-17, 1.3e274, 1.7e-17) = 6.5e-16, 1 - head's 0)"))
KNOWN.append(("fdtr", _fdtr_subnormal_x, _fdtr_head,
              "a subnormal x: the head w^a / (a B) (8.0e-82 at (0.5, 0.5, 5e-324)); SciPy's 0"))
KNOWN.append(("fdtr", _fdtr_tiny_dfd, _fdtr_tiny_dfd_value,
              "dfd below 1e-100: the first-order tail; SciPy's 0 or 1"))
KNOWN.append(("fdtrc", _fdtr_tiny_dfd, lambda a: 1 - _fdtr_tiny_dfd_value(a), "as fdtr"))
KNOWN.append(("fdtr", _fdtrc_tiny_dfn, lambda a: 1 - _fdtrc_tiny_dfn_value(a), "as fdtrc"))
KNOWN.append(("fdtrc", _fdtrc_tiny_dfn, _fdtrc_tiny_dfn_value,
              "dfn below 1e-100: the first-order tail (fdtrc(2.2e-308, 0.5, 0.5) = 7.9e-306); "
              "SciPy's 0, or 1 where its w rounds to 1"))


def _fdtrc_subnormal_w(a):
    """fdtrc = I_y(dfd / 2, dfn / 2) where y = dfd / (dfd + dfn x) is below
    the normal doubles and SciPy's is 0 (fdtrc(8.1e15, 1, 2.2e292) =
    5.37e-147: found by a hypothesis draw)"""
    dfn, dfd, x = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ly = np.log(dfd) - np.log(dfn) - np.log(x)
        return ((dfn > 0) & np.isfinite(dfn) & (dfd > 1e-5) & (dfd < 1e5) & (x > 0) &
                np.isfinite(x) & (ly < LOG_TINY) & (dfd < 1e-16 * x) & (ss.fdtrc(dfn, dfd, x) == 0))


def _fdtrc_head(a):
    """the upper tail's head y^b / (b B(a, b)), b = dfd / 2, whose next term
    is O(a y) = O(dfd / x), a = dfn / 2: below 1e-16 of it there"""
    dfn, dfd, x = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
    A, b = dfn / 2, dfd / 2
    with np.errstate(all="ignore"):
        return np.exp(b * (np.log(dfd) - np.log(dfn) - np.log(x)) - np.log(b) - ss.betaln(A, b))


KNOWN.append(("fdtrc", _fdtrc_subnormal_w, _fdtrc_head,
              "y = 1 - w below the normal doubles: the upper tail's head; SciPy's 0"))


def _fdtr_both_tiny(a):
    """dfn and dfd below 1e-20, x in (0, inf): as betainc's, I = b / (a + b)
    to relative O(a log w + b log(1 - w)), kept below 1e-17 (fdtr(1.2e-38,
    1.2e-38, 6.1e-290) = 0.5, SciPy's 0: found by a hypothesis draw)"""
    dfn, dfd, x = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
    with np.errstate(all="ignore"):
        # log w and log(1 - w), w = dfn x / (dfd + dfn x), in logs (w may underflow)
        lz = np.log(dfn) + np.log(x) - np.log(dfd)
        lw = -np.logaddexp(0, -lz)
        l1w = -np.logaddexp(0, lz)
        small = (dfn * np.abs(lw) < 1e-17) & (dfd * np.abs(l1w) < 1e-17)
    return ((dfn > 0) & (dfd > 0) & (dfn < 1e-20) & (dfd < 1e-20) & (x > 0) & np.isfinite(x)
            & small)


KNOWN.append(("fdtr", _fdtr_both_tiny, lambda a: _a(a, 1) / (_a(a) + _a(a, 1)),
              "both degrees tiny: dfd / (dfn + dfd); SciPy's is 0 or 1"))
KNOWN.append(("fdtrc", _fdtr_both_tiny, lambda a: _a(a) / (_a(a) + _a(a, 1)), "as fdtr"))


def _not_a_root(name):
    """Where SciPy's inverse is not a root of SciPy's own forward function
    (NaN, or the smaller tail there off by more than 1e-11 of itself: Boost
    gives up for p below 1e-290 or a parameter past 1e100, stops early past
    1e14 (betaincinv(0.625, 5.18e14, 0.625): the tail 2e-10 off), and clamps a root
    below the doubles at 2.2e-308; Cephes' incbi stops early, e.g.
    nbdtri(0, 125, 2.9e-16) is 0.75094 where p^125 = y gives 0.75112), the
    root of SciPy's forward function instead, by bisection on the doubles'
    bit patterns (64 steps to the last bit)."""
    lower, upper, is_upper = INVERSES[name]
    hi_x = np.inf if name == "fdtri" else 1.0

    def split(a):
        """the parameters, the lower and upper tails' targets (the one given
        exact), and which is the smaller"""
        arrs = np.broadcast_arrays(*[_a(a, k) for k in range(len(a))])
        p, q = (1 - arrs[-1], arrs[-1]) if is_upper else (arrs[-1], 1 - arrs[-1])
        return arrs[:-1], p, q, p > 0.5

    def which(a):
        params, p, q, up = split(a)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ok = (p > 0) & (q > 0)
            for v in params:
                ok &= np.isfinite(v) & (v >= 0)
            if name in ("bdtri", "nbdtri"):  # SciPy's domains: counts truncated
                k, n = np.trunc(params[0]), np.trunc(params[1])
                ok &= (k >= 0) & ((n > k) if name == "bdtri" else (n >= 1))
            else:
                for v in params:
                    ok &= v > 0
            ref = getattr(ss, name)(*a)
            tail = np.where(up, q, p)
            f = np.where(up, upper(params, ref), lower(params, ref))
            off = np.isnan(ref) | ~(np.abs(f - tail) <= 1e-11 * tail)
        return ok & off

    def value(a):
        params, p, q, up = split(a)
        out = np.full(p.shape, np.nan)
        m = which(a)  # only where it is asked for: 64 calls of SciPy's
        params, p, q, up = [v[m] for v in params], p[m], q[m], up[m]
        lo = np.zeros(p.shape, np.int64)
        hi = np.full(p.shape, hi_x).view(np.int64)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for _ in range(64):
                mid = lo + (hi - lo) // 2
                x = mid.view(np.float64)
                below = np.where(up, upper(params, x) > q, lower(params, x) < p)
                lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
        out[m] = hi.view(np.float64)
        return out
    return which, value


for _name in ("betaincinv", "betainccinv", "bdtri", "nbdtri", "fdtri"):
    KNOWN.append((_name, *_not_a_root(_name),
                  "SciPy's value not a root of its forward function: that function's root"))


def _heads(a, b, p, q):
    """log of the roots x and 1 - x of I_x(a, b) = p by the tails' heads,
    x^a / (a B) = p and (1 - x)^b / (b B) = q"""
    def log_abeta(a, b):  # log(a B(a, b)), -a (psi(b) + gamma) for a tiny a
        return np.where(a < 1e-10, -a * (ss.psi(b) + np.euler_gamma), np.log(a) + ss.betaln(a, b))
    with np.errstate(all="ignore"):
        # each log from the smaller of p and q, which is the one given exactly
        lp = np.where(p > 0.5, np.log1p(-q), np.log(p))
        lq = np.where(q > 0.5, np.log1p(-p), np.log(q))
        return (lp + log_abeta(a, b)) / a, (lq + log_abeta(b, a)) / b


def _far_root(name):
    """a root (x or 1 - x) whose head is below e^-700 (or whose p is
    subnormal, the head exact to double), where SciPy's root is
    clamped at the smallest normal double or found on subnormal values
    (betaincinv(2.5, 0.5, 5e-324) = 9.3e-124, the head 1.3e-129); fdtri's x
    from the head in logs (fdtri(1, 1e-8, 0.5) overflows; SciPy's 4.5e299)"""
    def parts(a):
        args = np.broadcast_arrays(*[_a(a, k) for k in range(3)])
        A, b, t = args
        if name == "fdtri":
            A, b = A / 2, b / 2
        p, q = (1 - t, t) if name == "betainccinv" else (t, 1 - t)
        ok = (A > 0) & (b > 0) & np.isfinite(A) & np.isfinite(b) & (p > 0) & (q > 0)
        return args, ok, _heads(A, b, p, q)

    def which(a):
        args, ok, (hx, hy) = parts(a)
        t = args[2]
        A, b = (args[0] / 2, args[1] / 2) if name == "fdtri" else (args[0], args[1])
        with np.errstate(all="ignore"):
            # or p below the normal doubles, where the head is exact (its
            # next term below eps)
            sub = (np.minimum(t, 1 - t) < TINY) & (np.exp(np.minimum(hx, hy)) *
                                                   (1 + np.abs(np.maximum(A, b) - 1)) < 1e-17)
        return ok & ((hx < -700) | (hy < -700) | sub)

    def value(a):
        args, _, (hx, hy) = parts(a)
        with np.errstate(all="ignore"):
            if name == "fdtri":
                lr = np.log(args[1]) - np.log(args[0])
                return np.where(hx < hy, np.exp(hx + lr), np.exp(lr - hy))
            return np.where(hx < hy, np.exp(hx), -np.expm1(hy))
    return which, value


for _name in ("betaincinv", "betainccinv", "fdtri"):
    KNOWN.append((_name, *_far_root(_name), "the root's head below e^-700: the head"))


def _symmetric_big(a):
    """a = b past 1e8: the distribution is symmetric about 1/2 and normal to
    O(1/a) (its excess kurtosis is -6 / (2a + 3)), so the root is
    1/2 + ndtri(p) / (2 sqrt(2a + 1)); SciPy's (Boost's) betainc and its
    root are off there (betaincinv(4.85e10, 4.85e10, 0.25): SciPy's root
    0.499998916929, whose I is 0.2499975, not 0.25)"""
    A, b, p = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
    return (A == b) & (A > 1e8) & np.isfinite(A) & (p > 0) & (p < 1)


def _symmetric_quantile(a, sign):
    """1/2 + s (z + k (z^3 - 3z) / 24), s = 1 / (2 sqrt(2a + 1)), k = -6 / (2a
    + 3): Cornish and Fisher's kurtosis term (at a = 1e8 + 1 it is 1e-13,
    1361 ULPs: found by a hypothesis draw)"""
    A, z = _a(a), sign * ss.ndtri(_a(a, 2))
    k = -6 / (2 * A + 3)
    return 0.5 + (z + k * (z ** 3 - 3 * z) / 24) / (2 * np.sqrt(2 * A + 1))


KNOWN.append(("betaincinv", _symmetric_big, lambda a: _symmetric_quantile(a, 1),
              "a = b past 1e8: the normal limit with its kurtosis term; SciPy's off"))
KNOWN.append(("betainccinv", _symmetric_big, lambda a: _symmetric_quantile(a, -1),
              "as betaincinv"))


def _fdtri_normal(a):
    """both degrees past 1e14: F's quantile 1 + z s, s = sqrt(2 / dfn + 2 / dfd),
    to s^2 (below 4e-14); SciPy's (Cephes' incbi) is 1 (fdtri(6.5e15, 3.5e16,
    0.75) = 1 + 1.29e-8, SciPy's 1 + 2.2e-16)"""
    dfn, dfd, p = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
    return (dfn > 1e14) & (dfd > 1e14) & np.isfinite(dfn) & np.isfinite(dfd) & (p > 0) & (p < 1)


KNOWN.append(("fdtri", _fdtri_normal, lambda a: 1 + ss.ndtri(_a(a, 2)) * np.sqrt(
    2 / _a(a) + 2 / _a(a, 1)), "both degrees past 1e14: the normal limit; SciPy's 1"))


def _fdtri_tiny_dfd(a):
    """fdtri with dfd below 1e-100 (dfn above 1e-5) and p below 4 b:
    SciPy's forward function is 0 or 1 there, so its root (or the test's
    bisection on it) is not one (fdtri(1, 2.2e-308, 2.2e-308) = 3.07e-308,
    SciPy's 9e15: a hypothesis draw)"""
    dfn, dfd, p = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
    return ((dfd > 0) & (dfd < 1e-100) & (dfn > 1e-5) & np.isfinite(dfn) & (p > 0) &
            (p < 2 * dfd))


def _fdtri_tiny_dfd_value(a):
    """To first order in b = dfd / 2, I_w(a, b) = b B_w(a, 0) = b times the
    integral over s from s0 = -log w of e^(-a s) / (1 - e^-s): its root in s0
    by bisection in log s0 on quad (SciPy's hyp2f1 form was NaN at a = 5e5),
    x = (dfd / dfn) / expm1(s0), where the mask holds"""
    from scipy.integrate import quad
    dfn, dfd, p = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
    out = np.full(p.shape, np.nan)
    for k in zip(*np.nonzero(_fdtri_tiny_dfd(a))):
        A, b, pk = dfn[k] / 2, dfd[k] / 2, p[k]

        def above(t):  # whether I at s0 = e^t is above p (I falls as s0 grows)
            s0 = np.exp(t)
            f = lambda s: np.exp(-A * (s - s0)) / -np.expm1(-s)  # noqa: E731
            # the integrand falls as e^(-a (s - s0)) / s: quad over its
            # scale first, then the rest
            edges = [s0, s0 + min(s0, 1 / A), s0 + 40 / A, np.inf]
            v = sum(quad(f, u, w, epsabs=0, epsrel=1e-13, limit=200)[0]
                    for u, w in zip(edges, edges[1:]))
            return np.log(b * v) - A * s0 > np.log(pk)

        lo, hi = -700.0, 10.0
        for _ in range(64):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if above(mid) else (lo, mid)
        out[k] = dfd[k] / dfn[k] / np.expm1(np.exp((lo + hi) / 2))
    return out


KNOWN.append(("fdtri", _fdtri_tiny_dfd, _fdtri_tiny_dfd_value,
              "dfd below 1e-100: the root of I's first order in dfd; SciPy's forward function "
              "0 or 1 there"))


def _both_tiny_root(name):
    """The inverses where both parameters are below 1e-20 (fdtri's degrees
    halved): in the bulk I_w(a, b) = (b + a b logit(w)) / (a + b) to relative
    O(a log w + b log(1 - w)), flat within a + b of b / (a + b), so the root
    is logit(w) = L = p / b - (1 - p) / a; past the doubles for any other p
    (its root is 0 or 1). fdtri's x = (dfd / dfn) w / (1 - w) = (b / a) e^L.
    (fdtri(2.1e-254, 2.1e-254, 0.375) = 0, SciPy's 1.2e-70;
    betainccinv(2.2e-308, 2.2e-308, 0.625) = 0, SciPy's forward function 0
    for all w there: found by hypothesis draws)"""
    # fdtri's 2^20 ULPs take the form's O(a log w) from degrees below 1e-16
    # (fdtri(1e-18, 1.2e-38, 1.2e-38) = 0, SciPy's 2.5e-306: a hypothesis draw)
    top = 1e-16 if name == "fdtri" else 1e-20

    def which(a):
        A, B, P = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
        return (A > 0) & (A < top) & (B > 0) & (B < top) & (P > 0) & (P < 1)

    def value(a):
        A, B, P = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
        if name == "fdtri":
            A, B = A / 2, B / 2
        p = 1 - P if name == "betainccinv" else P
        with np.errstate(all="ignore"):
            L = p / B - (1 - p) / A
            if name == "fdtri":
                return np.exp(L + np.log(B) - np.log(A))
            return 1 / (1 + np.exp(-L))
    return which, value


for _name in ("betaincinv", "betainccinv", "fdtri"):
    KNOWN.append((_name, *_both_tiny_root(_name),
                  "both parameters below 1e-20: the root of I's bulk form, 0 or 1 past it; "
                  "SciPy's answers where I is flat (any w gives p in doubles)"))


def _huge_count(name):
    """a count past 1e100 (SciPy's NaN or 0, its loops' integer conversion):
    the incomplete gamma limit of the root, or its edge value at y = 0, 1"""
    def which(a):
        k, n, y = np.broadcast_arrays(_a(a), _a(a, 1), _a(a, 2))
        ok = np.isfinite(k) & np.isfinite(n) & (np.trunc(k) >= 0) & (y >= 0) & (y <= 1)
        if name == "bdtri":
            return ok & (np.trunc(n) > np.floor(k)) & (n > 1e100) & (k < 1e100)
        # nbdtri's y = 0 and 1 answer before n is looked at
        ok &= (np.trunc(n) >= 1) | (y == 0) | (y == 1)
        return ok & ((k > 1e100) | (n > 1e100)) & ((k < 1e100) | (n < 1e100))

    def value(a):
        k, n, y = np.broadcast_arrays(np.trunc(_a(a)), np.trunc(_a(a, 1)), _a(a, 2))
        if name == "bdtri":
            k = np.floor(_a(a))
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if name == "bdtri":  # I_p(k + 1, n - k) = 1 - y, n - k huge
                return -np.expm1(-ss.gammainccinv(k + 1, y) / (n - k + k / 2))
            # I_p(n, k + 1) = y: k huge (p small) or n huge (p near 1)
            p_k = -np.expm1(-ss.gammaincinv(n, y) / (k + 1 + (n - 1) / 2))
            p_n = np.exp(-ss.gammainccinv(k + 1, y) / (n + k / 2))
            return np.where(y == 0, 0.0, np.where(y == 1, 1.0, np.where(k > n, p_k, p_n)))
    return which, value


KNOWN.append(("owens_t", _owens_tiny_a, _owens_tiny_a_value,
              "h past 4.5 and a below 1e-8: SciPy's relative error is 1e-17 / a (98% at "
              "a = 1e-20); gpunp's is the integral's series in a"))

for _name in ("bdtri", "nbdtri"):
    KNOWN.append((_name, *_huge_count(_name),
                  "a count past 1e100: the incomplete gamma limit; SciPy's NaN or 0"))



def _ordered(x):
    """doubles as integers in their order (negative ones too)"""
    b = np.asarray(x, np.float64).view(np.int64)
    return np.where(b < 0, -(b & 0x7FFFFFFFFFFFFFFF), b)


def _unordered(k):
    return np.where(k < 0, (-k) | np.int64(-0x8000000000000000), k).astype(np.int64).view(np.float64)


def _param_not_a_root(name, lo_x, hi_x, rtol=1e-11):
    """Where SciPy's parameter inverse is not a root of SciPy's own forward
    function (NaN, or the smaller tail there off by more than 1e-11 of
    itself: Boost's quantiles and inverses give up, or stop early, past
    1e10 (chdtriv(0.5, 5.6e10) NaN, (0.01, 1e19) NaN, (0.01, 1e27) finite),
    and in the far tails (mpmath: stdtrit(3.03, 2.2e-184) SciPy's -2.54e60
    has the tail 8 p, gpunp's -5.04e60 p (1 - 3e-14)); xsf's gdtrib stops
    at 1e-11 relative (gdtrib(772.8, 3.25e-9, 893.2): mpmath's tail at
    SciPy's root p (1 + 3.5e-8), at gpunp's p (1 - 6e-13))), the root of
    SciPy's forward function instead, by bisection on the doubles in their
    order (64 steps to the last bit) between lo_x and hi_x; `rtol` for
    stdtrit 1e-13 (mpmath: stdtrit(246.3, 1.47e-146) SciPy's tail p (1 +
    7.5e-12), gpunp's p (1 + 5.7e-14))"""
    _, lower, upper, rising = PARAM_INVERSES[name]

    def which(a):
        params, p = _param_split(name, a)
        q = 1 - p
        up = p > 0.5
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ok = (p > 0) & (q > 0)
            for v in params:
                ok &= np.isfinite(v) & (v > 0)
            ref = getattr(ss, name)(*a)
            tail = np.where(up, q, p)
            f = np.where(up, upper(params, ref), lower(params, ref))
            off = np.isnan(ref) | ~(np.abs(f - tail) <= rtol * tail)
        return ok & off

    def value(a):
        params, p = _param_split(name, a)
        out = np.full(p.shape, np.nan)
        m = which(a)
        params, p = [v[m] for v in params], p[m]
        q, up = 1 - p, p > 0.5
        lo = np.full(p.shape, _ordered(lo_x), np.int64)
        hi = np.full(p.shape, _ordered(hi_x), np.int64)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for _ in range(65):
                mid = (lo >> 1) + (hi >> 1) + (lo & hi & 1)  # hi - lo may overflow
                x = _unordered(mid)
                # x below the root: the function is still short of p (of q)
                below = np.where(up, (upper(params, x) > q) == rising, (lower(params, x) < p) == rising)
                lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
        # the first double past the root at the largest double: the root is beyond it
        x = _unordered(hi)
        out[m] = np.where(np.abs(x) == np.finfo(np.float64).max, x * np.inf, x)
        return out
    return which, value


KNOWN.append(("stdtrit", *_param_not_a_root("stdtrit", -np.inf, np.inf, rtol=1e-13),
              "SciPy's value not a root of its forward function: that function's root"))
for _name in ("chdtriv", "pdtrik", "gdtrib"):
    KNOWN.append((_name, *_param_not_a_root(_name, 0.0, np.inf),
                  "SciPy's value not a root of its forward function: that function's root"))


def _t_head(a):
    """|t| from the tail's head: x^A / (A B(A, 1/2)) = 2 s at x = df / t^2,
    A = df / 2, s = min(p, 1 - p), and log x"""
    df, p = np.broadcast_arrays(_a(a), _a(a, 1))
    with np.errstate(all="ignore"):
        A, s = df / 2, np.minimum(p, 1 - p)
        log_ab = np.where(A < 1e-10, -A * (ss.psi(0.5) + np.euler_gamma), np.log(A) + ss.betaln(A, 0.5))
        lx = (np.log(2 * s) + log_ab) / A
        return np.exp(0.5 * (np.log(df) - lx)), lx


KNOWN.append(("stdtrit", lambda a: (np.minimum(_a(a, 1), 1 - _a(a, 1)) < TINY) & (_t_head(a)[1] < -40)
              & (_a(a, 1) > 0) & (_a(a) > 0) & (_a(a) <= 2 ** 52),
              lambda a: np.where(_a(a, 1) < 0.5, -1, 1) * _t_head(a)[0],
              "a tail below the normal doubles, x below e^-40: the head (exact there); "
              "SciPy's forward function is not exact that far"))
KNOWN.append(("stdtrit", lambda a: (_a(a, 1) == 0) & (_a(a) > 0),
              lambda a: np.full_like(_a(a), -np.inf), "the quantile at p = 0: SciPy's +inf"))


def _t_overflow(a):
    """|t| past sqrt of the largest double, or df / t^2 below the normal
    doubles: SciPy's (Boost's) t^2 overflows or its x = df / (df + t^2)
    underflows, and its tail is 0 (stdtr(0.5, -1e155) = 0, the tail 1.8e-78;
    stdtr(1e-295, 1e29) = 1, the tail near 1/2 for a tiny df); in the loop's
    dtype (float32's overflow at 1.8e19)"""
    fi = np.finfo(np.float32 if np.asarray(a[1]).dtype == np.float32 else np.float64)
    df, t = np.broadcast_arrays(_a(a), _a(a, 1))
    with np.errstate(all="ignore"):
        far = (np.abs(t) > np.sqrt(fi.max)) | (df / t / t < fi.tiny)
    return (df > 0) & (df <= 2 ** 52) & np.isfinite(t) & (t != 0) & far


def _t_overflow_value(a):
    """the tail I_x(df/2, 1/2) / 2 at x = df / t^2, by its head
    x^a / (a B(a, 1/2)) in logs where x is below 1e-20"""
    df, t = np.broadcast_arrays(_a(a), _a(a, 1))
    with np.errstate(all="ignore"):
        A, at = df / 2, np.abs(t)
        x = df / at / at
        log_ab = np.where(A < 1e-10, -A * (ss.psi(0.5) + np.euler_gamma), np.log(A) + ss.betaln(A, 0.5))
        head = 0.5 * np.exp(A * (np.log(df) - 2 * np.log(at)) - log_ab)
        tail = np.where(x < 1e-20, head, ss.betainc(A, 0.5, x / (1 + x)) / 2)
        return np.where(t < 0, tail, 1 - tail)


def _cauchy_near_0(a):
    return (_a(a) == 1) & (np.abs(_a(a, 1)) < 1e-4)


def _stdtr(df, t):
    """stdtr where SciPy's is its function's value, the KNOWN values below
    elsewhere (for the roots of stdtrit)"""
    a = np.broadcast_arrays(np.asarray(df, np.float64), np.asarray(t, np.float64))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # the tail's head where x = df / t^2 is below 1e-20: SciPy's is off far
        # into the tail (its tail at stdtr(2.5, -1.46e123) is 5e-324, the head 1e-308)
        far = _t_overflow(a) | (np.abs(a[1]) > 1e10 * np.sqrt(a[0]))
        v = np.where(far, _t_overflow_value(a), ss.stdtr(*a))
        return np.where(_cauchy_near_0(a), 0.5 + np.arctan(a[1]) / np.pi, v)


KNOWN.append(("stdtr", _t_overflow, _t_overflow_value,
              "|t| past 1.34e154: the tail; SciPy's t^2 overflows (0 or 1)"))
KNOWN.append(("stdtr", _cauchy_near_0, lambda a: 0.5 + np.arctan(_a(a, 1)) / np.pi,
              "df = 1 (Cauchy), |t| below 1e-4: 1/2 + atan(t) / pi; SciPy's (Boost's) is off by "
              "1e-17 / |t| (stdtr(1, 1e-8) - 1/2 = 4.74e-9, not 3.18e-9)"))
for _name, _order in (("gdtria", (1, 0)), ("gdtrix", (1, 2))):
    KNOWN.append((_name, lambda a, o=_order: _zero_shape([a[o[0]], a[o[1]]]),
                  lambda a: np.full(_a(a).shape, np.nan), "as gammaincinv: no root at b = 0"))
    KNOWN.append((_name, lambda a, o=_order: _p_outside([a[o[0]], a[o[1]]]),
                  lambda a: np.full(_a(a).shape, np.nan), "as gammaincinv: p outside [0, 1]"))
    KNOWN.append((_name, lambda a, o=_order: _tiny_shape(True)([a[o[0]], a[o[1]]]),
                  lambda a: np.zeros(_a(a).shape), "as gammaincinv: the root below the doubles"))

NAMES = sorted(TOL)


def _wide(rng, n, bound=None):
    a = np.concatenate([
        rng.uniform(-1e3, 1e3, n), rng.uniform(-10, 10, n), rng.uniform(0, 1, n),
        10.0 ** rng.uniform(-300, 300, n) * rng.choice([-1, 1], n),
        10.0 ** rng.uniform(-5, 3, n), -(10.0 ** rng.uniform(-5, 3, n))])
    if bound is not None:
        a = np.fmod(a, bound)  # not clipped: no pile of equal values at the bound
    return a


def _inputs(name, nin, seed=0, n=200):
    rng = np.random.default_rng(seed)
    args = [_wide(rng, n, BOUND.get(name)) for _ in range(nin)]
    m = len(args[0])
    args = [rng.permutation(a)[:m] for a in args]
    if name in INT_FIRST:
        args[0] = np.floor(np.abs(args[0]) % 60)
    if name in A_BOUND:
        for k in A_PLACES.get(name, (0,)):
            args[k] = np.clip(args[k], -A_BOUND[name], A_BOUND[name])
    for k in PROB.get(name, ()):
        args[k] = _probabilities(rng, m)
    for k in COUNTS.get(name, ()):
        args[k] = np.floor(np.abs(args[k]) % 200)
    return args


def _probabilities(rng, m):
    p = np.concatenate([rng.uniform(0, 1, m), 10.0 ** rng.uniform(-300, 0, m),
                        1 - 10.0 ** rng.uniform(-16, 0, m)])
    return rng.permutation(p)[:m]


def _check(name, args, got, ref, dtype=np.float64, tol=None, key=None):
    """`key` names the output in KNOWN ("shichi[1]"); the name by default"""
    got = np.asarray(got, np.float64)
    ref = np.asarray(ref, np.float64)
    ulps, grow, why = tol or TOL[name]
    for known, which, value, _why in KNOWN:
        if known == (key or name):
            mask = np.broadcast_to(which(args), ref.shape)
            # the value in the loop's dtype (float32 overflows sooner)
            with np.errstate(over="ignore"):
                v = np.asarray(value(args), np.float64).astype(dtype).astype(np.float64)
            ref = np.where(mask, np.broadcast_to(v, ref.shape), ref)
    same = (got == ref) | (np.isnan(got) & np.isnan(ref))
    tiny = TINY if dtype == np.float64 else np.finfo(np.float32).tiny
    with np.errstate(invalid="ignore", over="ignore"):
        spacing = np.spacing(np.maximum(np.abs(ref), tiny).astype(dtype)).astype(np.float64)
        err = np.abs(got - ref) / spacing
    allowed = np.full(ref.shape, float(ulps))
    if grow is not None:
        allowed = allowed + np.broadcast_to(np.asarray(grow(args, ref), np.float64), ref.shape)
    finite_pair = np.isfinite(got) & np.isfinite(ref)
    # results below the smallest normal are held to within it: SciPy flushes
    # some of them to 0 (its factors underflow first), keeps others
    below_normal = finite_pair & (np.abs(got - ref) <= tiny) & (np.abs(ref) <= tiny)
    bad = ~same & ~(finite_pair & (err <= allowed)) & ~below_normal
    if bad.any():
        k = np.flatnonzero(bad)[:5]
        rows = [(tuple(float(a.ravel()[i]) for a in np.broadcast_arrays(*args)), float(got.ravel()[i]),
                 float(ref.ravel()[i]), float(err.ravel()[i])) for i in k]
        pytest.fail(f"{name}: {bad.sum()} of {bad.size} beyond {ulps} ULPs ({why}); "
                    f"(args, gpunp, SciPy, ULPs): {rows}")


def _run(name, args, dtype=np.float64):
    """gpunp's and SciPy's results, a list of one array per output"""
    args = [np.asarray(a, dtype) for a in args]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            ref = getattr(ss, name)(*args)
    got = getattr(sp, name)(*[gp.asarray(a) for a in args])
    got, ref = (list(v) if isinstance(v, tuple) else [v] for v in (got, ref))
    assert len(got) == len(ref)
    for g, r in zip(got, ref):
        assert g.dtype == r.dtype, (name, g.dtype, r.dtype)
    return [g.get() for g in got], ref


def _check_all(name, args, got, ref, dtype=np.float64, tol=None):
    for k, (g, r) in enumerate(zip(got, ref)):
        _check(name, args, g, r, dtype, tol, key=f"{name}[{k}]" if len(got) > 1 else name)


# the functions that iterate a forward function (the inverses) or a slowly
# converging fraction take a smaller wide sample: CI's time
SMALL_SAMPLE = {"gammaincinv", "gammainccinv", "chdtri", "pdtri", "betainc", "betaincc",
                "betaincinv", "betainccinv", "bdtri", "nbdtri", "fdtri", "fdtr", "fdtrc",
                "smirnovi", "stdtr", "stdtrit", "chdtriv", "pdtrik", "gdtrib", "gdtria", "gdtrix"}


@pytest.mark.parametrize("name", NAMES)
def test_wide_sample_matches_scipy(name):
    nin = getattr(sp, name).nin
    args = _inputs(name, nin, n=40 if name in SMALL_SAMPLE else 200)
    got, ref = _run(name, args)
    _check_all(name, args, got, ref)


# functions of several arguments: every pair (triple) of these finite values,
# and each of SPECIAL in one place with ORDINARY ones in the others
CORE = np.array([0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.5, 40.0, -40.0, 1e-8, 27.0])
ORDINARY = np.array([0.5, 1.0, 2.5, 3.5, 10.0])


def _special_args(nin, bound=None):
    if nin == 1:
        return [SPECIAL]
    rows = [[a.ravel() for a in np.meshgrid(*([CORE] * nin), indexing="ij")]]
    special = SPECIAL
    if bound is not None:  # the finite values within the bound, as the wide sample's
        special = np.where(np.isfinite(SPECIAL), np.fmod(SPECIAL, bound), SPECIAL)
    for k in range(nin):
        grids = [ORDINARY] * nin
        grids[k] = special
        rows.append([a.ravel() for a in np.meshgrid(*grids, indexing="ij")])
    return [np.concatenate([r[j] for r in rows]) for j in range(nin)]


@pytest.mark.parametrize("name", NAMES)
def test_special_values_match_scipy(name):
    nin = getattr(sp, name).nin
    args = _special_args(nin, BOUND.get(name))
    if name in INT_FIRST:
        args[0] = np.floor(np.abs(np.nan_to_num(args[0], nan=1.0, posinf=3, neginf=3)) % 60)
    got, ref = _run(name, args)
    _check_all(name, args, got, ref)


# subnormal inputs are SPECIAL's (5e-324, TINY / 2 ...) alone: SciPy's results
# for them follow its code paths (0, inf or NaN where the function is finite)
_FLOATS = st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=False, width=64)


@pytest.mark.parametrize("name", NAMES)
@given(data=st.data())
def test_hypothesis_floats_match_scipy(name, data):
    nin = getattr(sp, name).nin
    n = data.draw(st.integers(1, 8))
    args = [np.array(data.draw(st.lists(_FLOATS, min_size=n, max_size=n))) for _ in range(nin)]
    if name in BOUND:
        args = [np.where(np.isfinite(a), np.fmod(a, BOUND[name]), a) for a in args]
    if name in INT_FIRST:
        args[0] = np.floor(np.abs(np.nan_to_num(args[0], nan=1.0, posinf=3, neginf=3)) % 60)
    if name in A_BOUND:
        for k in A_PLACES.get(name, (0,)):
            args[k] = np.clip(args[k], -A_BOUND[name], A_BOUND[name])
    for k in PROB.get(name, ()):
        args[k] = np.array(data.draw(st.lists(st.floats(0, 1, allow_subnormal=False),
                                              min_size=n, max_size=n)))
    for k in COUNTS.get(name, ()):
        args[k] = np.floor(np.abs(np.nan_to_num(args[k], nan=1.0, posinf=3, neginf=3)) % 200)
    got, ref = _run(name, args)
    _check_all(name, args, got, ref)


def test_binom_of_a_tiny_n():
    n = np.array([1e-8, -3e-9, 4.9e-285, 1e-300, 7e-12])
    for k in (1, 2, 3, 7, 19):
        want = np.ones_like(n)
        for j in range(k):
            want = want * (n - j) / (j + 1)
        got = sp.binom(gp.asarray(n), float(k)).get()
        np.testing.assert_allclose(got, want, rtol=1e-14, atol=0)


# float32 loops: computed in double and rounded once, as SciPy's float loops
# of these functions are; SciPy's float32 result is the reference, within
# 2 float32 ULPs (the rounding of a double within TOL of SciPy's)
# float loops that SciPy computes in float arithmetic, not in double rounded
# once: their error, in float32 ULPs
FLOAT32_ULPS = {
    "betainc": (256, "SciPy's float loop is Boost's ibeta in float (betainc(2.3, 1.9e-5, "
                     "0.352) is 130 float32 ULPs from its double loop's value)"),
    "betaincc": (256, "as betainc"),
    "stdtr": (256, "SciPy's float loop is Boost's students_t in float (stdtr(0.2128, -25.54) is "
                   "88 float32 ULPs from its double loop's value rounded, which gpunp's is)"),
}
FLOAT32 = ["gamma", "erf", "j0", "gammainc", "expit", "ndtri", "i0e", "k1", "xlogy", "boxcox",
           "psi", "log_ndtr", "gammaincinv", "gammainccinv", "chdtri", "pdtri", "betainc",
           "betaincc", "bdtr", "bdtrc", "nbdtr", "nbdtrc", "cosm1", "ellipe", "ellipkinc",
           "ellipeinc", "sici", "shichi", "ellipj", "dawsn", "fresnel", "elliprf", "agm",
           "spence", "iv", "kve", "airy", "bdtri", "nbdtri", "kolmogorov", "smirnov", "stdtr",
           "chdtriv"]


@pytest.mark.parametrize("name", FLOAT32)
def test_float32_loops_match_scipy(name):
    u = getattr(sp, name)
    # the arguments as the float loop sees them (KNOWN's tests look at them)
    args = [np.clip(a, -3e38, 3e38).astype(np.float32) for a in _inputs(name, u.nin, seed=1, n=60)]
    got, ref = _run(name, args, np.float32)
    assert all(g.dtype == np.float32 for g in got)
    ulps, grow, why = TOL[name]
    # the float64 allowance, in float32's ULPs, plus the rounding
    g = None if grow is None else (lambda a, r: grow(a, r) * 2.0 ** -29 + 1)
    base, why = FLOAT32_ULPS.get(name, (2, why))
    _check_all(name, args, got, ref, np.float32, tol=(base, g, why))


# ---- lambertw: a wrapper over the real row _lambertw_parts, complex results --------------

EPS = np.finfo(np.float64).eps


def _lambertw_branch_series(z, sign):
    """W near -1/e: -1 + q - q^2/3 + 11 q^3/72 - 43 q^4/540 + 769 q^5/17280,
    q = sign sqrt(2 (e z + 1)) (DLMF 4.13.6; sign -1 for the lower branch)"""
    with np.errstate(invalid="ignore"):
        q = sign * np.sqrt(2 * (np.e * z.real + 1))
    return -1 + q * (1 + q * (-1 / 3 + q * (11 / 72 + q * (-43 / 540 + q * 769 / 17280)))) + 0j


def _check_lambertw(z, k, got, ref):
    """|W - SciPy's W| within 16 eps |W| (1 + 1 / |1 + W|): near the branch
    point -1/e W's condition 1 / |1 + W| multiplies the rounding of
    w e^w - z. Where SciPy's value is not W, the reference is W by another
    route (below)."""
    z, k = np.broadcast_arrays(np.asarray(z), np.asarray(k))
    ref = np.array(ref, np.complex128)
    # z = -1/e (the double nearest): SciPy's Halley step divides 0 by 0 (NaN); W = -1
    ref[(z == -np.exp(-1.0)) & ((k == 0) | (k == -1))] = -1
    # the real lower branch within 1e-6 of -1/e: SciPy's iteration from
    # log(-z) stops, its step below tol, while still 1e-8 away (mpmath:
    # W_-1(-0.36787944080753404) = -1.0000444799865, SciPy's -1.0000000030)
    with np.errstate(all="ignore"):
        lower = (k == -1) & (z.imag == 0) & (np.e * z.real + 1 > 0) & (np.e * z.real + 1 < 1e-6)
    ref[lower] = _lambertw_branch_series(z[lower], -1)
    # SciPy's inf or NaN for a finite z (a subnormal z on a branch k != 0,
    # where its e^w underflows): gpunp's w must solve w + log w = log z +
    # 2 pi i n for an integer n, with its imaginary part on branch k's side
    odd = np.isfinite(z) & (z != 0) & ~np.isfinite(ref)
    if odd.any():
        w, zz, kk = got[odd], z[odd], k[odd]
        assert np.isfinite(w).all(), (zz, w)
        d = w + np.log(w) - np.log(zz)
        n = np.round(d.imag / (2 * np.pi))
        # |z| of subnormal parts is itself rounded to a subnormal's few bits
        sub = ((np.abs(zz.real) < TINY) & (zz.real != 0)) | ((np.abs(zz.imag) < TINY) & (zz.imag != 0))
        assert np.all(np.abs(d - 2j * np.pi * n) < np.where(sub, 1.0, 1e-12 * np.abs(w))), (zz, kk, w)
        assert np.all(np.abs(w.imag - 2 * np.pi * kk) <= 2 * np.pi), (zz, kk, w)
        ref[odd] = w
    assert got.dtype == np.complex128 and got.shape == ref.shape
    same = ((got.real == ref.real) | (np.isnan(got.real) & np.isnan(ref.real))) & \
           ((got.imag == ref.imag) | (np.isnan(got.imag) & np.isnan(ref.imag)))
    with np.errstate(all="ignore"):
        err = np.abs(got - ref) / (np.maximum(np.abs(ref), TINY) * EPS)
        allowed = 16 * (1 + 1 / np.abs(1 + ref))
    bad = ~same & ~(np.isfinite(err) & (err <= allowed))
    if bad.any():
        i = np.flatnonzero(bad)[:5]
        pytest.fail(f"lambertw: {bad.sum()} of {bad.size}: (z, k, gpunp, SciPy, eps): "
                    f"{list(zip(z.ravel()[i], k.ravel()[i], got.ravel()[i], ref.ravel()[i], err.ravel()[i]))}")


def _lambertw_run(z, k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            ref = ss.lambertw(z, k)
    got = sp.lambertw(gp.asarray(z), gp.asarray(k)).get()
    _check_lambertw(z, k, got, ref)


@pytest.mark.parametrize("k", [0, -1, 1, 3])
def test_lambertw_wide_sample_matches_scipy(k):
    rng = np.random.default_rng(7)
    x = _wide(rng, 40)
    near = -np.exp(-1.0) + 10.0 ** rng.uniform(-15, 0, 40) * rng.choice([-1, 1], 40)
    z = np.concatenate([x, near, x[:120] + 1j * rng.permutation(x)[:120], near + 1e-3j * x[:40]])
    _lambertw_run(z, np.full(z.shape, k))


def test_lambertw_special_values_match_scipy():
    re, im = np.meshgrid(SPECIAL, SPECIAL)
    z = np.concatenate([SPECIAL, (re + 1j * im).ravel(), [-np.exp(-1.0), -0.3678794411714, 1.0]])
    for k in (0, -1, 2, -2):
        _lambertw_run(z, np.full(z.shape, k))


_LW_FLOATS = st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=False, width=64)


@given(re=st.lists(_LW_FLOATS, min_size=1, max_size=8), data=st.data())
def test_lambertw_hypothesis_matches_scipy(re, data):
    n = len(re)
    im = data.draw(st.lists(st.one_of(st.just(0.0), _LW_FLOATS), min_size=n, max_size=n))
    k = data.draw(st.lists(st.integers(-3, 3), min_size=n, max_size=n))
    z = np.array(re) + 1j * np.array(im)
    _lambertw_run(z, np.array(k))


# ---- smirnov and smirnovi past the sampled counts (n < 200) ----------------------------

def test_smirnov_large_n_matches_scipy():
    # SciPy sums exactly to n = 1e6 and past it gives an asymptotic form,
    # which gpunp gives too; n from 2^31 is NaN (SciPy's int conversion)
    n = np.array([300.0, 3001.0, 1e6 + 1, 3e7, 2.0 ** 31 - 1, 2.0 ** 31, 1e10])
    x = np.array([1e-9, 2e-6, 1e-4, 3e-3, 0.05, 0.5, 1 - 1e-7])
    args = [a.ravel() for a in np.meshgrid(n, x, indexing="ij")]
    got, ref = _run("smirnov", args)
    _check_all("smirnov", args, got, ref)
    p = np.array([1e-300, 1e-10, 0.01, 0.5, 0.9, 1 - 1e-12])
    args = [a.ravel() for a in np.meshgrid(n, p, indexing="ij")]
    got, ref = _run("smirnovi", args)
    _check_all("smirnovi", args, got, ref)


# ---- wofz: a wrapper over the real row _wofz_parts, complex results ---------------------

def _check_wofz(z, got, ref):
    """|w - SciPy's w| within 256 eps |w| (SciPy's own error, Johnson's
    Faddeeva package: mpmath puts gpunp's within 3 ULPs of each part in the
    upper half plane, SciPy's 180 ULPs off w(-0.35 + 4.75i)'s imaginary
    part), and below the real axis 2 (x^2 + y^2) more: there w = 2 exp(-z^2)
    - w(-z), and SciPy rounds the exponent y^2 - x^2 and the phase 2xy.
    NaN and infinities as SciPy's, part by part; a part below the normal
    doubles to within the smallest normal. Below the real axis where
    exp(-z^2) overflows and its phase 2xy is past 2^60 (an ULP of it more
    than a period), the signs of SciPy's infinite parts are those of its
    rounding of the phase: there gpunp's parts must be infinite or NaN
    where SciPy's are."""
    z = np.broadcast_to(np.asarray(z, np.complex128), got.shape)
    ref = np.asarray(ref)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    got, ref = got.astype(np.complex128), ref.astype(np.complex128)
    with np.errstate(all="ignore"):
        lost = (z.imag < 0) & ~(np.abs(2 * z.real * z.imag) < 2.0 ** 60) & ~np.isfinite(ref)
    for part in (np.real, np.imag):
        assert np.array_equal(~np.isfinite(part(got[lost])), ~np.isfinite(part(ref[lost]))), \
            z[lost][:5]
    got, ref, z = got[~lost], ref[~lost], z[~lost]
    for g, r in ((got.real, ref.real), (got.imag, ref.imag)):
        assert np.array_equal(np.isnan(g), np.isnan(r)), (z[np.isnan(g) != np.isnan(r)][:5],)
        inf = np.isinf(g) | np.isinf(r)
        assert np.array_equal(g[inf], r[inf]), (z[inf][g[inf] != r[inf]][:5],)
    fin = np.isfinite(ref) & np.isfinite(got)
    with np.errstate(all="ignore"):
        err = np.abs(got - ref) / (np.maximum(np.abs(ref), TINY) * EPS)
        lower = np.where(z.imag < 0, 2 * np.abs(z) ** 2, 0)
        allowed = 256 + np.nan_to_num(lower, posinf=1e300)
    bad = fin & ~(err <= allowed) & ~(np.abs(got - ref) <= TINY)
    if bad.any():
        i = np.flatnonzero(bad)[:5]
        pytest.fail(f"wofz: {bad.sum()} of {bad.size}: (z, gpunp, SciPy, eps): "
                    f"{list(zip(z[i], got[i], ref[i], err[i]))}")


def _wofz_run(z):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            ref = ss.wofz(z)
    got = sp.wofz(gp.asarray(z)).get()
    _check_wofz(z, got, ref)
    return got


def test_wofz_wide_sample_matches_scipy():
    rng = np.random.default_rng(11)
    re, im = _wide(rng, 60), _wide(rng, 60)
    z = np.concatenate([re + 1j * rng.permutation(im), rng.uniform(-8, 8, 400) +
                        1j * rng.uniform(-8, 8, 400), re + 0j, 1j * im])
    got = _wofz_run(z)
    # on the real axis Re w = exp(-x^2), part by part (SciPy's is within 3 ULPs)
    x = rng.uniform(-27, 27, 300)
    got = sp.wofz(gp.asarray(x)).get()
    np.testing.assert_allclose(got.real, ss.wofz(x).real, rtol=4 * EPS, atol=TINY)


def test_wofz_special_values_match_scipy():
    re, im = np.meshgrid(SPECIAL, SPECIAL)
    _wofz_run((re + 1j * im).ravel())


_WZ_FLOATS = st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=False, width=64)


@given(re=st.lists(_WZ_FLOATS, min_size=1, max_size=8), data=st.data())
def test_wofz_hypothesis_matches_scipy(re, data):
    im = data.draw(st.lists(st.one_of(st.just(0.0), _WZ_FLOATS), min_size=len(re),
                            max_size=len(re)))
    _wofz_run(np.array(re) + 1j * np.array(im))


def test_wofz_complex64_loop_matches_scipy():
    rng = np.random.default_rng(12)
    z = (rng.uniform(-6, 6, 200) + 1j * rng.uniform(-6, 6, 200)).astype(np.complex64)
    got, ref = sp.wofz(gp.asarray(z)).get(), ss.wofz(z)
    assert got.dtype == ref.dtype == np.complex64
    # computed in double and rounded part by part, as SciPy's
    with np.errstate(all="ignore"):
        err = np.abs(got - ref.astype(np.complex128)) / np.abs(ref)
    assert np.all(err <= 2 * np.finfo(np.float32).eps + 256 * EPS + 2 * np.abs(z) ** 2 * EPS *
                  (z.imag < 0)), z[np.argmax(err)]


# ---- hankel1/2(e): wrappers over the real rows _hankel*_parts, complex results -----------

HANKEL = ("hankel1", "hankel2", "hankel1e", "hankel2e")
# The allowance, in eps times |SciPy's H|, of |gpunp's H - SciPy's H|:
#   512 (1 + |v log(|z|/2)|): SciPy's values (Amos's) are up to 260 eps from
#     50-digit ones near |z| = 2 (hankel1(0.7774, -0.031 + 1.9585j): 258 eps,
#     gpunp's 5; hankel2(0.118, 0.95 - 1.37j): 245, gpunp's 2); an ULP in the
#     exponent v log(z/2) of the power (z/2)^v that both form moves H by
#     |v log(|z|/2)| ULPs (v = 50, |z| = 1e-3: 380);
#   + 2 |z|: on the negative real line SciPy's continuation loses about |z|
#     ULPs (hankel2e(0, -1033): 1154 eps from 50 digits, gpunp's 0.7;
#     hankel2e(0, -20000): 8012, gpunp's 0);
#   + 64 |z| instead past |z| = 32768: there Amos reports the loss of half its
#     digits (its ierr 3; 20 |z| eps from gpunp's at |z| = 6e8), and H's
#     condition in z is |z|.
# SciPy's overflow (NaN) and underflow (0) are Amos's estimates of the
# exponent: where SciPy's is NaN and gpunp's finite, gpunp's |H| is past
# 1e295; where SciPy's is 0, gpunp's |H| is below 1e-290 (gpunp's is 0 below
# 2.2e-305 as SciPy's; between, SciPy's estimate may give 0 or NaN: mpmath:
# hankel2e(1057, 699j) = 9.426742599289952e-305 + 3.828e-307j, gpunp's to 16
# digits, SciPy's NaN). But SciPy's is 0
# or NaN where H is neither for orders past about 80 (hankel1e below the
# real line, |z| from 500) and |z| past 1e8 (mpmath: hankel1e(-125.19,
# 510.92 - 3.9437j) = -0.02216572048191226 - 0.02278567660011207j,
# hankel1(116.62, 8.044e8 + 3.6227j) = -7.395082468312369e-07 +
# 1.33222596579962e-07j, hankel1e(1000, 300 - 300j) = 3.3079074472227516e+106
# - 4.931207019923817e+106j, hankel1e(315, -26j) = -2.515392947795533e+286:
# gpunp's to 15 digits, SciPy's NaN): there gpunp's values must satisfy the order's
# recurrence H_v-2 + H_v = (2 (v - 1) / z) H_v-1 (DLMF 10.6.1, |v| - 1 and
# |v| - 2 for a negative order; the scaled functions' factor does not
# depend on v) to 1e-11 of its terms.
HANKEL_TOL = 512


def _hankel_allowed(v, z):
    az = np.abs(z)
    with np.errstate(all="ignore"):
        a = HANKEL_TOL * (1 + np.abs(v * np.log(az / 2)))
    return np.nan_to_num(a) + np.where(az > 32768, 64 * az, 2 * az)


def _check_hankel(name, v, z, got, ref, eps=EPS, what=""):
    v, z = np.broadcast_arrays(np.asarray(v), np.asarray(z))
    assert got.shape == ref.shape and got.dtype == ref.dtype, (got.dtype, ref.dtype)
    got, ref = got.astype(np.complex128), ref.astype(np.complex128)
    same = ((got.real == ref.real) | (np.isnan(got.real) & np.isnan(ref.real))) & \
           ((got.imag == ref.imag) | (np.isnan(got.imag) & np.isnan(ref.imag)))
    with np.errstate(all="ignore"):
        err = np.abs(got - ref) / (np.abs(ref) * eps)
        close = np.isfinite(err) & (err <= _hankel_allowed(v, z))
        overflow = np.isnan(ref) & np.isfinite(got) & (np.abs(got) > 1e295)
        underflow = ((ref == 0) | np.isnan(ref)) & (np.abs(got) < 1e-290)
    bad = ~(same | close | overflow | underflow)
    if bad.any():
        i = np.flatnonzero(bad)[:5]
        pytest.fail(f"{name}{what}: {bad.sum()} of {bad.size}: (v, z, gpunp, SciPy, eps): "
                    f"{list(zip(v.ravel()[i], z.ravel()[i], got.ravel()[i], ref.ravel()[i], err.ravel()[i]))}")


def _hankel_run(name, v, z, eps=EPS, what=""):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            ref = np.asarray(getattr(ss, name)(v, z))
            # SciPy's is NaN, inf or another number at subnormal orders
            # (hankel1(1e-310, 1): NaN, hankel2(2.2e-311, -4.5e-140): inf,
            # hankel1e(2.2e-311, -1j): 0.93 - 3.3e-311j, at 0 0.93 - 0.099j),
            # where H is H_0 to 1e-300: SciPy's at 0 is the reference
            sub = np.broadcast_to((np.abs(v) < TINY) & (v != 0), ref.shape) & (z != 0)
            if sub.any():
                ref = np.where(sub, getattr(ss, name)(np.zeros_like(v), z), ref)
    f = getattr(sp, name)
    got = f(gp.asarray(v), gp.asarray(z)).get()
    v, z = np.broadcast_arrays(np.asarray(v), np.asarray(z))
    amos = ((ref == 0) | (np.isnan(ref) & (np.abs(v) >= 80))) & (np.abs(got) > 1e-290) & \
        np.isfinite(got) & ((np.abs(v) >= 80) | (np.abs(z) > 1e8))
    if amos.any():
        va, za, ga = v[amos].astype(np.float64), z[amos].astype(np.complex128), got[amos]
        # the two orders next toward 0 (smaller where H grows with the order)
        step = np.where(va < 0, -1.0, 1.0)
        h1, h2 = (f(gp.asarray(va - k * step), gp.asarray(za)).get() for k in (1, 2))
        with np.errstate(all="ignore"):
            mid = 2 * (va - step) / za * h1
            res = np.abs(h2 + ga - mid) / (np.abs(h2) + np.abs(ga) + np.abs(mid))
            # each H's exponent, about v (1 + |log(|z| / v)|) in size, holds
            # its rounding: 8 eps of it apart from the 1e-11
            tol = 1e-11 + 8 * EPS * np.abs(va) * (1 + np.abs(np.log(np.abs(za) / np.abs(va))))
        assert np.all(res < tol), (name, va[~(res < tol)], za[~(res < tol)], res[~(res < tol)])
        ref = ref.copy()
        ref[amos] = ga
    _check_hankel(name, v, z, got, ref, eps, what)


def _hankel_grid(rng, n):
    """|z| log-uniform on [1e-3, 1e3] in every direction, the real and
    imaginary axes (both zeros) among them; v in [-50, 50]: real, whole and
    half-integer"""
    r = 10.0 ** rng.uniform(-3, 3, n)
    z = r * np.exp(1j * rng.uniform(-np.pi, np.pi, n))
    k = n // 8
    z[:k] = r[:k] * rng.choice([-1, 1], k) + 0j
    z[k:2 * k] = r[k:2 * k] * rng.choice([-1, 1], k) - 0j
    z[2 * k:3 * k] = 1j * r[2 * k:3 * k] * rng.choice([-1, 1], k)
    v = rng.uniform(-50, 50, n)
    v[::3] = np.round(v[::3])
    v[1::6] = np.round(2 * v[1::6]) / 2
    v[2::12] = rng.uniform(-2, 2, v[2::12].size)
    return v, z


@pytest.mark.parametrize("name", HANKEL)
def test_hankel_grid_matches_scipy(name):
    v, z = _hankel_grid(np.random.default_rng(38), 3000)
    _hankel_run(name, v, z)


@pytest.mark.parametrize("name", HANKEL)
def test_hankel_large_z_and_orders_match_scipy(name):
    # |z| to 1e9 (Hankel's expansions), orders to 300 (the
    # recurrences' long runs), and z near both sides of the real line
    rng = np.random.default_rng(39)
    n = 400
    r = 10.0 ** rng.uniform(3, 9, n)
    z = r * np.exp(1j * rng.uniform(-np.pi, np.pi, n))
    z[: n // 2] = z[: n // 2].real + 1j * rng.uniform(-5, 5, n // 2)
    v = rng.uniform(-300, 300, n)
    _hankel_run(name, v, z)
    v, z = rng.uniform(50, 300, n), 10.0 ** rng.uniform(0, 3, n) * np.exp(1j * rng.uniform(-np.pi, np.pi, n))
    _hankel_run(name, np.concatenate([v, -v]), np.concatenate([z, z]))


@pytest.mark.parametrize("name", HANKEL)
def test_hankel_debye_orders_match_scipy(name):
    # Debye's expansions: orders past 2e4 (|z| from v/10 to 1e3 v, off the
    # turning points' band |z| = 0.85 v to 1.2 v), and orders 2e3 to 2e4
    # with |z| from 3.2e5 + v to v^2 / 8, where below the real line Hankel's
    # expansion diverges and I's fraction would pass its 3e5 terms
    rng = np.random.default_rng(41)
    n = 200
    v = 10.0 ** rng.uniform(np.log10(2e4), 6, n)
    t = 10.0 ** rng.uniform(-1, 3, n)
    t = np.where((t > 0.85) & (t < 1.2), t * 2, t)
    w = 10.0 ** rng.uniform(np.log10(2e3), np.log10(2e4), n)
    r = np.exp(rng.uniform(np.log(3.2e5 + w), np.log(w * w / 8)))
    v, r = np.concatenate([v, w]), np.concatenate([v * t, r])
    z = r * np.exp(1j * rng.uniform(-np.pi, np.pi, 2 * n))
    z[::2] = z[::2].real * rng.choice([-1, 1], n) + 1j * rng.uniform(-5, 5, n)
    _hankel_run(name, v, z)


def test_hankel_special_values_match_scipy():
    big = 2.0 ** 51  # Amos's bound on |z| and |v|, 1 / (2 eps): past it NaN
    vs = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.3, 40.0, -40.5, 1e3, -1e3,
                   np.nextafter(big, np.inf), np.inf, -np.inf, np.nan])
    parts = np.array([0.0, -0.0, 1.0, -1.0, 2.5, -3.0, 1e-3, 1e-300, 5e-324, 700.0, -700.0, 800.0,
                      -800.0, 1e5, big, 2 * big, 1e300, np.inf, -np.inf, np.nan])
    re, im = np.meshgrid(parts, parts)
    z = np.empty(re.size, np.complex128)
    z.real, z.imag = re.ravel(), im.ravel()  # re + 1j * im would make inf * 0 NaN
    v, z = np.meshgrid(vs, z)
    for name in HANKEL:
        _hankel_run(name, v, z)


@pytest.mark.parametrize("name", ["hankel1", "hankel2e"])
def test_hankel_float32_loop_matches_scipy(name):
    # SciPy's "fF->F": double inside, each part rounded once to float32
    rng = np.random.default_rng(40)
    v = rng.uniform(-20, 20, 300).astype(np.float32)
    z = (10.0 ** rng.uniform(-2, 2, 300) * np.exp(1j * rng.uniform(-np.pi, np.pi, 300))).astype(np.complex64)
    _hankel_run(name, v, z, eps=np.finfo(np.float32).eps, what=" (float32)")


_HK_FLOATS = st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True, width=64)


@given(v=st.one_of(st.floats(-1e4, 1e4), st.sampled_from([np.nan, np.inf, -np.inf, 2e30])),
       re=st.lists(_HK_FLOATS, min_size=1, max_size=6), data=st.data())
def test_hankel_hypothesis_matches_scipy(v, re, data):
    # orders within 1e4: past 2e4 gpunp's values are Debye's expansions,
    # NaN near the turning points (|z| near v on the real line)
    n = len(re)
    im = data.draw(st.lists(st.one_of(st.just(0.0), st.just(-0.0), _HK_FLOATS), min_size=n, max_size=n))
    z = np.empty(n, np.complex128)
    z.real, z.imag = re, im  # re + 1j * im would make inf * 0 NaN
    name = data.draw(st.sampled_from(HANKEL))
    _hankel_run(name, np.full(n, v), z)
