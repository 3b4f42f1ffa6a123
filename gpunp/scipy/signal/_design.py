"""IIR filter design and the conversions between filter forms: analog
prototypes (Butterworth, Chebyshev I and II), frequency transformations,
the bilinear transform, zeros-poles-gain / transfer function / second-order
sections, frequency responses. Tens of numbers each, computed on the host
in float64 as SciPy computes them; arrays come back as gpunp arrays."""

from __future__ import annotations

import math
import warnings

import numpy as np

import gpunp as gp
from gpunp.scipy._optimize import fminbound
from gpunp.scipy._version import scipy_version


class BadCoefficients(UserWarning):
    """Warning about badly conditioned filter coefficients."""


def _host(v):
    return np.asarray(gp.asnumpy(v)) if isinstance(v, gp.ndarray) else np.asarray(v)


def _out(*arrays):
    r = tuple(gp.asarray(a) if isinstance(a, np.ndarray) else a for a in arrays)
    return r if len(r) > 1 else r[0]


# ---- conversions --------------------------------------------------------------------------

def _zpk2tf(z, p, k):
    z, p = np.atleast_1d(z), np.atleast_1d(p)
    k = np.asarray(k)
    if z.ndim > 1:
        return _zpk2tf_rows(z, p, k)
    return k * np.atleast_1d(np.poly(z)), _poly_rows(p)


def _poly_rows(z):
    """np.poly of a 1-d row of zeros in SciPy's dtype: the zeros' own (ints
    stay ints), real where the roots come in conjugate pairs."""
    z = np.atleast_1d(z)
    a = np.atleast_1d(np.poly(z))
    return a.astype(z.dtype if a.dtype.kind == "c" else np.real(np.zeros(0, z.dtype)).dtype)


def _zpk2tf_rows(z, p, k):
    """zpk2tf of one row of zeros per output (a scalar k shared). The rows'
    dtype is the first row's polynomial's before SciPy 1.18; 1.18 promotes
    it with k (so an integer row times a float gain is no longer cut to
    integers)."""
    k = np.asarray(k)
    k = np.atleast_1d(k.astype(np.result_type(np.real(z), np.real(p), k)))
    if k.dtype.kind in "biu":
        k = k.astype(np.float64)
    dtype = _poly_rows(z[0]).dtype
    if scipy_version() >= 11800:
        dtype = np.result_type(dtype, k, 1.0)
    if k.shape[0] == 1:
        k = np.repeat(k, z.shape[0])
    b = np.empty((z.shape[0], z.shape[1] + 1), dtype)
    for i in range(z.shape[0]):
        b[i] = k[i].astype(dtype) * _poly_rows(z[i]).astype(dtype)
    return b, _poly_rows(p)


def zpk2tf(z, p, k):
    """Numerator and denominator polynomials from zeros, poles and gain."""
    return _out(*_zpk2tf(_host(z), _host(p), _host(k)))


def _align(num):
    """Numerators of different lengths (a list of rows) padded in front."""
    if isinstance(num, (list, tuple)) and num and all(np.ndim(r) == 1 for r in num) and \
            len({len(r) for r in num}) > 1:
        width = max(len(r) for r in num)
        return np.array([np.concatenate([np.zeros(width - len(r)), r]) for r in num])
    return np.asarray(num)


def _normalize(b, a):
    den = np.atleast_1d(np.asarray(a))
    num = np.atleast_2d(_align(b))
    if den.ndim != 1:
        raise ValueError("Denominator polynomial must be rank-1 array.")
    if num.ndim > 2:
        raise ValueError("Numerator polynomial must be rank-1 or rank-2 array.")
    if np.all(den == 0):
        raise ValueError("Denominator must have at least on nonzero element.")
    den = np.trim_zeros(den, "f")
    num, den = num / den[0], den / den[0]
    lead = 0
    for j in range(num.shape[-1]):
        if np.all(np.abs(num[:, j]) <= 1e-14):
            lead += 1
        else:
            break
    if lead > 0:
        warnings.warn("Badly conditioned filter coefficients (numerator): the results may "
                      "be meaningless", BadCoefficients, stacklevel=3)
        if lead == num.shape[1]:
            lead -= 1
        num = num[:, lead:]
    if num.shape[0] == 1:
        num = num[0, :]
    return num, den


def normalize(b, a):
    """b / a with a[0] = 1 and the numerator's leading zeros removed."""
    return _out(*_normalize(_host(b), _host(a)))


def _tf2zpk(b, a):
    b, a = _normalize(b, a)
    b = (b + 0.0) / a[0]
    a = (a + 0.0) / a[0]
    k = b[0]
    b = b / b[0]
    return np.roots(b), np.roots(a), k


def tf2zpk(b, a):
    """Zeros, poles and gain of the transfer function b / a."""
    z, p, k = _tf2zpk(_host(b), _host(a))
    return gp.asarray(z), gp.asarray(p), k


def _cplxreal(z, tol=None):
    """Complex values of z with positive imaginary part (each standing for
    its conjugate pair) and the real values, each sorted as SciPy sorts them."""
    z = np.atleast_1d(z)
    if z.size == 0:
        return z, z
    if z.ndim != 1:
        raise ValueError("_cplxreal only accepts 1-D input")
    tol = 100 * np.finfo((1.0 * z).dtype).eps if tol is None else tol
    z = z[np.lexsort((abs(z.imag), z.real))]
    real = abs(z.imag) <= tol * abs(z)
    zr = z[real].real
    if len(zr) == len(z):
        return np.array([]), zr
    z = z[~real]
    zp, zn = z[z.imag > 0], z[z.imag < 0]
    if len(zp) != len(zn):
        raise ValueError("Array contains complex value with no matching conjugate.")
    # within runs of equal real part, order by the imaginary part
    same = np.diff(zp.real) <= tol * abs(zp[:-1])
    d = np.diff(np.concatenate(([0], same, [0])))
    for s, e in zip(np.nonzero(d > 0)[0], np.nonzero(d < 0)[0] + 1):
        for chunk in (zp[s:e], zn[s:e]):
            chunk[...] = chunk[np.lexsort([abs(chunk.imag)])]
    if any(abs(zp - zn.conj()) > tol * abs(zn)):
        raise ValueError("Array contains complex value with no matching conjugate.")
    return (zp + zn.conj()) / 2, zr


def _nearest(fro, to, which):
    order = np.argsort(np.abs(fro - to))
    if which == "any":
        return order[0]
    mask = np.isreal(fro[order])
    if which == "complex":
        mask = ~mask
    return order[np.nonzero(mask)[0][0]]


def _section(z, p):
    sos = np.zeros(6)
    b, a = _zpk2tf(np.asarray(z), np.asarray(p), 1)
    sos[3 - len(b):3] = np.real(b)
    sos[6 - len(a):6] = np.real(a)
    return sos


def _zpk2sos(z, p, k, pairing=None, analog=False):
    z, p, k = np.asarray(z), np.asarray(p), np.asarray(k)
    pairing = ("minimal" if analog else "nearest") if pairing is None else pairing
    valid = ["nearest", "keep_odd", "minimal"]
    if pairing not in valid:
        raise ValueError(f"pairing must be one of {valid}, not {pairing}")
    if analog and pairing != "minimal":
        raise ValueError('for analog zpk2sos conversion, pairing must be "minimal"')
    if len(z) == len(p) == 0:
        return np.array([[k, 0.0, 0.0, 1.0, 0.0, 0.0]] if not analog
                        else [[0.0, 0.0, k, 0.0, 0.0, 1.0]])
    if pairing != "minimal":
        p = np.concatenate((p, np.zeros(max(len(z) - len(p), 0))))
        z = np.concatenate((z, np.zeros(max(len(p) - len(z), 0))))
        n_sections = (max(len(p), len(z)) + 1) // 2
        if len(p) % 2 == 1 and pairing == "nearest":
            p, z = np.concatenate((p, [0.0])), np.concatenate((z, [0.0]))
    else:
        if len(p) < len(z):
            raise ValueError("for analog zpk2sos conversion, must have len(p)>=len(z)")
        n_sections = (len(p) + 1) // 2
    z = np.concatenate(_cplxreal(z))
    p = np.concatenate(_cplxreal(p))
    if not np.isreal(k):
        raise ValueError("k must be real")
    k = k.real

    def worst(v):  # the pole nearest the stability boundary goes last
        return np.argmin(np.abs(np.real(v))) if analog else np.argmin(np.abs(1 - np.abs(v)))

    sos = np.zeros((n_sections, 6))
    for si in range(n_sections - 1, -1, -1):
        i = worst(p)
        p1 = p[i]
        p = np.delete(p, i)
        if np.isreal(p1) and np.isreal(p).sum() == 0:
            if pairing != "minimal" or len(z) > 0:
                j = _nearest(z, p1, "real")
                z1 = z[j]
                z = np.delete(z, j)
                sos[si] = _section([z1, 0], [p1, 0]) if pairing != "minimal" else \
                    _section([z1], [p1])
            else:
                sos[si] = _section([], [p1])
        elif (len(p) + 1 == len(z) and not np.isreal(p1) and np.isreal(p).sum() == 1
              and np.isreal(z).sum() == 1):
            j = _nearest(z, p1, "complex")
            z1 = z[j]
            z = np.delete(z, j)
            sos[si] = _section([z1, z1.conj()], [p1, p1.conj()])
        else:
            if np.isreal(p1):
                reals = np.flatnonzero(np.isreal(p))
                j = reals[worst(p[reals])]
                p2 = p[j]
                p = np.delete(p, j)
            else:
                p2 = p1.conj()
            if len(z) > 0:
                j = _nearest(z, p1, "any")
                z1 = z[j]
                z = np.delete(z, j)
                if not np.isreal(z1):
                    sos[si] = _section([z1, z1.conj()], [p1, p2])
                elif len(z) > 0:
                    j = _nearest(z, p1, "real")
                    z2 = z[j]
                    z = np.delete(z, j)
                    sos[si] = _section([z1, z2], [p1, p2])
                else:
                    sos[si] = _section([z1], [p1, p2])
            else:
                sos[si] = _section([], [p1, p2])
    sos[0][:3] *= k
    return sos


def zpk2sos(z, p, k, pairing=None, *, analog=False):
    """Second-order sections from zeros, poles and gain, paired as SciPy
    pairs them (poles nearest the unit circle, or the imaginary axis for
    analog filters, last; each with its nearest zeros)."""
    return gp.asarray(_zpk2sos(_host(z), _host(p), _host(k), pairing, analog))


def _sos2tf(sos):
    sos = np.asarray(sos)
    b, a = np.array([1.0]), np.array([1.0])
    for s in sos:
        b, a = np.polymul(b, s[:3]), np.polymul(a, s[3:])
    return b, a


def sos2tf(sos):
    """The transfer function of a cascade of second-order sections."""
    sos = _host(sos)
    if sos.ndim != 2 or sos.shape[1] != 6:
        raise ValueError("sos array must be shape (n_sections, 6)")
    return _out(*_sos2tf(sos))


def sos2zpk(sos):
    """Zeros, poles and gain of a cascade of second-order sections (each
    section's two zeros and two poles, zero where a section is first order)."""
    sos = _host(sos)
    n = sos.shape[0]
    z = np.zeros(2 * n, np.complex128)
    p = np.zeros(2 * n, np.complex128)
    k = 1.0
    for i, s in enumerate(sos):
        zz, pp, kk = _tf2zpk(s[:3], s[3:])
        z[2 * i:2 * i + len(zz)] = zz
        p[2 * i:2 * i + len(pp)] = pp
        k *= kk
    return gp.asarray(z), gp.asarray(p), k


def tf2sos(b, a, pairing=None, *, analog=False):
    """Second-order sections of the transfer function b / a."""
    z, p, k = _tf2zpk(_host(b), _host(a))
    return gp.asarray(_zpk2sos(z, p, k, pairing, analog))


# ---- analog prototypes and transformations ------------------------------------------------

def _buttap(N):
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    p = -np.exp(1j * np.pi * np.arange(-N + 1, N, 2) / (2 * N))
    return np.array([]), p, 1.0


def _cheb1ap(N, rp):
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    if N == 0:
        return np.array([]), np.array([]), 10 ** (-rp / 20)
    eps = np.sqrt(10 ** (0.1 * rp) - 1.0)
    mu = 1.0 / N * np.arcsinh(1 / eps)
    theta = np.pi * np.arange(-N + 1, N, 2) / (2 * N)
    p = -np.sinh(mu + 1j * theta)
    k = np.prod(-p, axis=0).real
    if N % 2 == 0:
        k = k / np.sqrt(1 + eps * eps)
    return np.array([]), p, k


def _cheb2ap(N, rs):
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    if N == 0:
        return np.array([]), np.array([]), 1.0
    de = 1.0 / np.sqrt(10 ** (0.1 * rs) - 1)
    mu = np.arcsinh(1.0 / de) / N
    m = (np.concatenate((np.arange(-N + 1, 0, 2), np.arange(2, N, 2))) if N % 2
         else np.arange(-N + 1, N, 2))
    z = -np.conjugate(1j / np.sin(m * np.pi / (2.0 * N)))
    p = -np.exp(1j * np.pi * np.arange(-N + 1, N, 2) / (2 * N))
    p = np.sinh(mu) * p.real + 1j * np.cosh(mu) * p.imag
    p = 1.0 / p
    k = (np.prod(-p, axis=0) / np.prod(-z, axis=0)).real
    return z, p, k


def _degree(z, p):
    d = len(p) - len(z)
    if d < 0:
        raise ValueError("Improper transfer function. Must have at least as many poles as "
                         "zeros.")
    return d


def _lp2lp_zpk(z, p, k, wo=1.0):
    z, p = np.atleast_1d(z), np.atleast_1d(p)
    wo = float(wo)
    d = _degree(z, p)
    return wo * z, wo * p, k * wo ** d


def _lp2hp_zpk(z, p, k, wo=1.0):
    z, p = np.atleast_1d(z), np.atleast_1d(p)
    wo = float(wo)
    d = _degree(z, p)
    zh = np.append(wo / z, np.zeros(d))
    return zh, wo / p, k * np.real(np.prod(-z) / np.prod(-p))


def _lp2bp_zpk(z, p, k, wo=1.0, bw=1.0):
    z, p = np.atleast_1d(z), np.atleast_1d(p)
    wo, bw = float(wo), float(bw)
    d = _degree(z, p)
    zl, pl = z * bw / 2, p * bw / 2
    zl, pl = zl.astype(complex), pl.astype(complex)
    zb = np.concatenate((zl + np.sqrt(zl ** 2 - wo ** 2), zl - np.sqrt(zl ** 2 - wo ** 2)))
    pb = np.concatenate((pl + np.sqrt(pl ** 2 - wo ** 2), pl - np.sqrt(pl ** 2 - wo ** 2)))
    return np.append(zb, np.zeros(d)), pb, k * bw ** d


def _lp2bs_zpk(z, p, k, wo=1.0, bw=1.0):
    z, p = np.atleast_1d(z), np.atleast_1d(p)
    wo, bw = float(wo), float(bw)
    d = _degree(z, p)
    zh, ph = (bw / 2) / z, (bw / 2) / p
    zh, ph = zh.astype(complex), ph.astype(complex)
    zb = np.concatenate((zh + np.sqrt(zh ** 2 - wo ** 2), zh - np.sqrt(zh ** 2 - wo ** 2)))
    pb = np.concatenate((ph + np.sqrt(ph ** 2 - wo ** 2), ph - np.sqrt(ph ** 2 - wo ** 2)))
    zb = np.append(zb, np.full(d, 1j * wo))
    zb = np.append(zb, np.full(d, -1j * wo))
    return zb, pb, k * np.real(np.prod(-z) / np.prod(-p))


def _bilinear_zpk(z, p, k, fs):
    z, p = np.atleast_1d(z), np.atleast_1d(p)
    fs = _validate_fs(fs, allow_none=False)
    d = _degree(z, p)
    fs2 = 2.0 * fs
    zz = (fs2 + z) / (fs2 - z)
    pz = (fs2 + p) / (fs2 - p)
    zz = np.append(zz, -np.ones(d))
    return zz, pz, k * np.real(np.prod(fs2 - z) / np.prod(fs2 - p))


def _validate_fs(fs, allow_none=True):
    if fs is None:
        if not allow_none:
            raise ValueError("Sampling frequency can not be none.")
        return None
    if not np.isscalar(fs):
        raise ValueError("Sampling frequency fs must be a single scalar.")
    return float(fs)


def _wrap_zpk(fn, name, doc):
    def public(z, p, k, *args, **kw):
        z, p, k = fn(_host(z), _host(p), k, *args, **kw)
        return gp.asarray(np.asarray(z)), gp.asarray(np.asarray(p)), k
    public.__name__ = public.__qualname__ = name
    public.__doc__ = doc
    return public


lp2lp_zpk = _wrap_zpk(_lp2lp_zpk, "lp2lp_zpk", "A lowpass prototype moved to cutoff wo.")
lp2hp_zpk = _wrap_zpk(_lp2hp_zpk, "lp2hp_zpk", "A lowpass prototype turned highpass at wo.")
lp2bp_zpk = _wrap_zpk(_lp2bp_zpk, "lp2bp_zpk",
                      "A lowpass prototype turned bandpass about wo, of width bw.")
lp2bs_zpk = _wrap_zpk(_lp2bs_zpk, "lp2bs_zpk",
                      "A lowpass prototype turned bandstop about wo, of width bw.")


def bilinear_zpk(z, p, k, fs):
    """An analog filter's digital twin by the bilinear transform at fs."""
    zz, pz, kz = _bilinear_zpk(_host(z), _host(p), k, fs)
    return gp.asarray(zz), gp.asarray(pz), kz


def _tf_via_zpk(fn):
    def through(b, a, *args):
        z, p, k = _tf2zpk(b, a)
        return _zpk2tf(*fn(z, p, k, *args))
    return through


def lp2lp(b, a, wo=1.0):
    """A lowpass prototype b / a moved to cutoff wo."""
    b, a = _normalize(_host(b), _host(a))
    wo = float(wo)
    d = max(len(a), len(b))
    pwo = wo ** np.arange(d - 1, -1, -1)
    start1, start2 = max(len(b) - len(a), 0), max(len(a) - len(b), 0)
    b = b * pwo[start1] / pwo[start2:]
    a = a * pwo[start1] / pwo[start1:]
    return _out(*_normalize(b, a))


def lp2hp(b, a, wo=1.0):
    """A lowpass prototype b / a turned highpass at wo."""
    b, a = _normalize(_host(b), _host(a))
    wo = float(wo)
    if wo != 1:
        pwo = wo ** np.arange(max(len(a), len(b)))
    else:
        pwo = np.ones(max(len(a), len(b)), b.dtype.char)
    if len(a) >= len(b):
        outa = a[::-1] * pwo
        outb = np.resize(b, (len(a),))
        outb[len(b):] = 0.0
        outb[:len(b)] = b[::-1] * pwo[:len(b)]
    else:
        outb = b[::-1] * pwo
        outa = np.resize(a, (len(b),))
        outa[len(a):] = 0.0
        outa[:len(a)] = a[::-1] * pwo[:len(a)]
    return _out(*_normalize(outb, outa))


def lp2bp(b, a, wo=1.0, bw=1.0):
    """A lowpass prototype b / a turned bandpass about wo, of width bw."""
    b, a = _host(b), _host(a)
    z, p, k = _tf2zpk(b, a)
    return _out(*_zpk2tf(*_lp2bp_zpk(z, p, k, wo, bw)))


def lp2bs(b, a, wo=1.0, bw=1.0):
    """A lowpass prototype b / a turned bandstop about wo, of width bw."""
    b, a = _host(b), _host(a)
    z, p, k = _tf2zpk(b, a)
    return _out(*_zpk2tf(*_lp2bs_zpk(z, p, k, wo, bw)))


def bilinear(b, a, fs=1.0):
    """The digital twin of the analog b / a by the bilinear transform at fs."""
    fs = _validate_fs(fs, allow_none=False)
    a, b = np.atleast_1d(_host(a)), np.atleast_1d(_host(b))
    D, N = len(a) - 1, len(b) - 1
    M = max(N, D)
    Np = Dp = M
    bprime = np.empty(Np + 1, np.result_type(b, np.float64))
    aprime = np.empty(Dp + 1, np.result_type(a, np.float64))
    # the coefficient of z^-j: sum over the terms of s^i = (2 fs (z-1)/(z+1))^i
    for j in range(Np + 1):
        val = 0.0
        for i in range(N + 1):
            for k in range(i + 1):
                for l in range(M - i + 1):
                    if k + l == j:
                        val += (math.comb(i, k) * math.comb(M - i, l) * b[N - i]
                                * pow(2 * fs, i) * (-1) ** k)
        bprime[j] = np.real(val)
    for j in range(Dp + 1):
        val = 0.0
        for i in range(D + 1):
            for k in range(i + 1):
                for l in range(M - i + 1):
                    if k + l == j:
                        val += (math.comb(i, k) * math.comb(M - i, l) * a[D - i]
                                * pow(2 * fs, i) * (-1) ** k)
        aprime[j] = np.real(val)
    return _out(*_normalize(bprime, aprime))


# ---- IIR design ---------------------------------------------------------------------------

_BANDS = {"band": "bandpass", "bandpass": "bandpass", "pass": "bandpass", "bp": "bandpass",
          "bs": "bandstop", "bandstop": "bandstop", "bands": "bandstop", "stop": "bandstop",
          "l": "lowpass", "low": "lowpass", "lowpass": "lowpass", "lp": "lowpass",
          "high": "highpass", "highpass": "highpass", "h": "highpass", "hp": "highpass"}
_FTYPES = {"butter": "butter", "butterworth": "butter", "butt": "butter",
           "cheby1": "cheby1", "chebyshev1": "cheby1", "cheb1": "cheby1", "chebyshevi": "cheby1",
           "cheby2": "cheby2", "chebyshev2": "cheby2", "cheb2": "cheby2",
           "chebyshevii": "cheby2", "ellip": "ellip", "elliptic": "ellip", "cauer": "ellip"}
_BESSEL = ("bessel", "bessel_phase", "bessel_delay", "bessel_mag")


def _iirfilter(N, Wn, rp=None, rs=None, btype="band", analog=False, ftype="butter",
               output="ba", fs=None):
    fs = _validate_fs(fs, allow_none=True)
    ftype, btype, output = (x.lower() for x in (ftype, btype, output))
    Wn = np.asarray(_host(Wn) if isinstance(Wn, gp.ndarray) else Wn, dtype=np.float64)
    if fs is not None:
        if analog:
            raise ValueError("fs cannot be specified for an analog filter")
        Wn = Wn / (fs / 2)
    if np.any(Wn <= 0):
        raise ValueError("filter critical frequencies must be greater than 0")
    if Wn.size > 1 and not Wn[0] < Wn[1]:
        raise ValueError("Wn[0] must be less than Wn[1]")
    try:
        btype = _BANDS[btype]
    except KeyError as e:
        raise ValueError(f"'{btype}' is an invalid bandtype for filter.") from e
    if ftype not in _FTYPES and ftype not in _BESSEL:
        raise ValueError(f"'{ftype}' is not a valid basic IIR filter.")
    if output not in ("ba", "zpk", "sos"):
        raise ValueError(f"'{output}' is not a valid output form.")
    if rp is not None and rp < 0:
        raise ValueError("passband ripple (rp) must be positive")
    if rs is not None and rs < 0:
        raise ValueError("stopband attenuation (rs) must be positive")
    norm = {"bessel": "phase", "bessel_phase": "phase", "bessel_delay": "delay",
            "bessel_mag": "mag"}.get(ftype)
    ftype = _FTYPES.get(ftype, "bessel")
    if ftype == "butter":
        z, p, k = _buttap(N)
    elif ftype == "bessel":
        z, p, k = _besselap(N, norm)
    elif ftype == "ellip":
        if rs is None or rp is None:
            raise ValueError("Both rp and rs must be provided to design an elliptic filter.")
        z, p, k = _ellipap(N, rp, rs)
    elif ftype == "cheby1":
        if rp is None:
            raise ValueError("passband ripple (rp) must be provided to design a Chebyshev I "
                             "filter.")
        z, p, k = _cheb1ap(N, rp)
    else:
        if rs is None:
            raise ValueError("stopband attenuation (rs) must be provided to design an "
                             "Chebyshev II filter.")
        z, p, k = _cheb2ap(N, rs)
    if not analog:
        if np.any(Wn <= 0) or np.any(Wn >= 1):
            if fs is not None:
                raise ValueError(f"Digital filter critical frequencies must be 0 < Wn < fs/2 "
                                 f"(fs={fs} -> fs/2={fs / 2})")
            raise ValueError("Digital filter critical frequencies must be 0 < Wn < 1")
        fs = 2.0
        warped = 2 * fs * np.tan(np.pi * Wn / fs)
    else:
        warped = Wn
    if btype in ("lowpass", "highpass"):
        if np.size(Wn) != 1:
            raise ValueError("Must specify a single critical frequency Wn for lowpass or "
                             "highpass filter")
        fn = _lp2lp_zpk if btype == "lowpass" else _lp2hp_zpk
        z, p, k = fn(z, p, k, wo=float(np.ravel(warped)[0]))
    else:
        try:
            bw = warped[1] - warped[0]
            wo = np.sqrt(warped[0] * warped[1])
        except IndexError as e:
            raise ValueError("Wn must specify start and stop frequencies for bandpass or "
                             "bandstop filter") from e
        fn = _lp2bp_zpk if btype == "bandpass" else _lp2bs_zpk
        z, p, k = fn(z, p, k, wo=wo, bw=bw)
    if not analog:
        z, p, k = _bilinear_zpk(z, p, k, fs=fs)
    if output == "zpk":
        return z, p, k
    if output == "ba":
        return _zpk2tf(z, p, k)
    return _zpk2sos(z, p, k, analog=analog)


def _public_design(out):
    if isinstance(out, tuple):
        return tuple(gp.asarray(np.asarray(v)) if i < 2 or np.ndim(v) else v
                     for i, v in enumerate(out))
    return gp.asarray(out)


def iirfilter(N, Wn, rp=None, rs=None, btype="band", analog=False, ftype="butter",
              output="ba", fs=None):
    """An IIR filter of order N and critical frequencies Wn of the given
    family ('butter', 'cheby1', 'cheby2'), as b/a, zpk or sos."""
    return _public_design(_iirfilter(N, Wn, rp, rs, btype, analog, ftype, output, fs))


def butter(N, Wn, btype="low", analog=False, output="ba", fs=None):
    """A Butterworth filter of order N (maximally flat pass band)."""
    return iirfilter(N, Wn, btype=btype, analog=analog, output=output, ftype="butter", fs=fs)


def cheby1(N, rp, Wn, btype="low", analog=False, output="ba", fs=None):
    """A Chebyshev type I filter of order N, pass-band ripple rp dB."""
    return iirfilter(N, Wn, rp=rp, btype=btype, analog=analog, output=output, ftype="cheby1",
                     fs=fs)


def cheby2(N, rs, Wn, btype="low", analog=False, output="ba", fs=None):
    """A Chebyshev type II filter of order N, stop band rs dB down."""
    return iirfilter(N, Wn, rs=rs, btype=btype, analog=analog, output=output, ftype="cheby2",
                     fs=fs)


def _cheby1_sos(n, rp, wn):
    return _iirfilter(n, wn, rp=rp, btype="low", ftype="cheby1", output="sos")


def buttap(N):
    """The analog Butterworth lowpass prototype (zeros, poles, gain)."""
    z, p, k = _buttap(N)
    return gp.asarray(z), gp.asarray(p), k


def cheb1ap(N, rp):
    """The analog Chebyshev I lowpass prototype (zeros, poles, gain)."""
    z, p, k = _cheb1ap(N, rp)
    return gp.asarray(z), gp.asarray(p), k


def cheb2ap(N, rs):
    """The analog Chebyshev II lowpass prototype (zeros, poles, gain)."""
    z, p, k = _cheb2ap(N, rs)
    return gp.asarray(z), gp.asarray(p), k


# ---- notch and peak filters ---------------------------------------------------------------

def _notch_peak(w0, Q, ftype, fs):
    fs = _validate_fs(fs, allow_none=False)
    w0 = float(w0)
    if w0 <= 0 or w0 >= fs / 2:
        raise ValueError("w0 should be such that 0 < w0 < fs/2")
    w0 = 2 * w0 / fs
    bw = w0 / Q
    bw, w0 = bw * np.pi, w0 * np.pi
    gb = 1 / np.sqrt(2)
    if ftype == "notch":
        beta = (np.sqrt(1.0 - gb ** 2) / gb) * np.tan(bw / 2.0)
    else:
        beta = (gb / np.sqrt(1.0 - gb ** 2)) * np.tan(bw / 2.0)
    gain = 1.0 / (1.0 + beta)
    if ftype == "notch":
        b = gain * np.array([1.0, -2.0 * np.cos(w0), 1.0])
    else:
        b = (1.0 - gain) * np.array([1.0, 0.0, -1.0])
    a = np.array([1.0, -2.0 * gain * np.cos(w0), 2.0 * gain - 1.0])
    return gp.asarray(b), gp.asarray(a)


def iirnotch(w0, Q, fs=2.0):
    """A second-order notch at w0 of quality factor Q."""
    return _notch_peak(w0, Q, "notch", fs)


def iirpeak(w0, Q, fs=2.0):
    """A second-order peak (resonator) at w0 of quality factor Q."""
    return _notch_peak(w0, Q, "peak", fs)


# ---- frequency responses ------------------------------------------------------------------

def _worN(worN, whole, fs, include_nyquist=False):
    """The frequencies (radians per sample) of a response, and in fs's unit."""
    if worN is None:
        worN = 512
    if np.ndim(worN) == 0 and isinstance(worN, (int, np.integer)) or (
            np.ndim(worN) == 0 and float(worN) == int(worN) and not isinstance(worN, float)):
        N = int(worN)
        if N < 0:
            raise ValueError(f"worN must be nonnegative, got {N}")
        lastpoint = 2 * np.pi if whole else np.pi
        w = np.linspace(0, lastpoint, N, endpoint=include_nyquist and not whole)
        return w, w * fs / (2 * np.pi)
    f = np.atleast_1d(_host(worN)).astype(np.float64)
    return 2 * np.pi * f / fs, f


def freqz(b, a=1, worN=512, whole=False, plot=None, fs=2 * np.pi, include_nyquist=False):
    """The frequency response of the digital filter b / a at worN
    frequencies (or the given ones, in fs's unit)."""
    b, a = np.atleast_1d(_host(b)), np.atleast_1d(_host(a))
    fs = _validate_fs(fs, allow_none=False)
    w, f = _worN(worN, whole, fs, include_nyquist)
    zm1 = np.exp(-1j * w)
    num = np.polynomial.polynomial.polyval(zm1, b, tensor=b.ndim > 1 and True)
    den = np.polynomial.polynomial.polyval(zm1, a)
    h = num / den
    if plot is not None:
        plot(f, h)
    return gp.asarray(f), gp.asarray(h)


def freqz_zpk(z, p, k, worN=512, whole=False, fs=2 * np.pi):
    """The frequency response of a digital filter from its zeros, poles and
    gain."""
    z, p = np.atleast_1d(_host(z)), np.atleast_1d(_host(p))
    fs = _validate_fs(fs, allow_none=False)
    w, f = _worN(worN, whole, fs)
    zm = np.exp(1j * w)
    h = k * np.polyval(np.atleast_1d(np.poly(z)), zm) / np.polyval(np.atleast_1d(np.poly(p)), zm)
    return gp.asarray(f), gp.asarray(h)


def freqz_sos(sos, worN=512, whole=False, fs=2 * np.pi):
    """The frequency response of a cascade of second-order sections: the
    product of the sections' responses."""
    sos = _host(sos)
    if sos.ndim != 2 or sos.shape[1] != 6:
        raise ValueError("sos array must be shape (n_sections, 6)")
    fs = _validate_fs(fs, allow_none=False)
    w, f = _worN(worN, whole, fs)
    zm1 = np.exp(-1j * w)
    h = np.ones_like(zm1)
    for s in sos:
        h = h * (np.polynomial.polynomial.polyval(zm1, s[:3])
                 / np.polynomial.polynomial.polyval(zm1, s[3:]))
    return gp.asarray(f), gp.asarray(h)


sosfreqz = freqz_sos


def freqs(b, a, worN=200, plot=None):
    """The frequency response of the analog filter b / a."""
    b, a = np.atleast_1d(_host(b)), np.atleast_1d(_host(a))
    if worN is None or np.ndim(worN) == 0:
        w = _findfreqs(b, a, 200 if worN is None else int(worN))
    else:
        w = np.atleast_1d(_host(worN)).astype(np.float64)
    s = 1j * w
    h = np.polyval(b, s) / np.polyval(a, s)
    if plot is not None:
        plot(w, h)
    return gp.asarray(w), gp.asarray(h)


def freqs_zpk(z, p, k, worN=200):
    """The frequency response of an analog filter from zeros, poles, gain."""
    z, p = np.atleast_1d(_host(z)), np.atleast_1d(_host(p))
    if worN is None or np.ndim(worN) == 0:
        w = _findfreqs(z, p, 200 if worN is None else int(worN), kind="zp")
    else:
        w = np.atleast_1d(_host(worN)).astype(np.float64)
    s = 1j * w
    h = k * np.polyval(np.atleast_1d(np.poly(z)), s) / np.polyval(np.atleast_1d(np.poly(p)), s)
    return gp.asarray(w), gp.asarray(h)


def _findfreqs(num, den, N, kind="ba"):
    """SciPy's span of interesting frequencies of an analog response: two
    decades beyond the outermost pole and zero."""
    if kind == "ba":
        ep = np.atleast_1d(np.roots(den)) + 0j
        tz = np.atleast_1d(np.roots(num)) + 0j
    else:
        ep = np.atleast_1d(den) + 0j
        tz = np.atleast_1d(num) + 0j
    if len(ep) == 0:
        ep = np.atleast_1d(-1000) + 0j
    ez = np.r_[np.compress(ep.imag >= 0, ep, axis=-1),
               np.compress((abs(tz) < 1e5) & (tz.imag >= 0), tz, axis=-1)]
    integ = np.abs(ez) < 1e-10
    hfreq = np.round(np.log10(np.max(3 * np.abs(ez.real + integ) + 1.5 * ez.imag)) + 0.5)
    lfreq = np.round(np.log10(0.1 * np.min(np.abs((ez + integ).real) + 2 * ez.imag)) - 0.5)
    return np.logspace(lfreq, hfreq, N)


def group_delay(system, w=512, whole=False, fs=2 * np.pi):
    """The group delay -d(phase)/dw of the digital filter system = (b, a),
    in samples."""
    b, a = map(np.atleast_1d, (_host(system[0]), _host(system[1])))
    fs = _validate_fs(fs, allow_none=False)
    if w is None:
        w = 512
    if np.ndim(w) == 0 and float(w) == int(w) and not isinstance(w, float):
        n = int(w)
        w = np.linspace(0, 2 * np.pi if whole else np.pi, n, endpoint=False)
    else:
        w = 2 * np.pi * np.atleast_1d(_host(w)).astype(np.float64) / fs
    c = np.convolve(b, np.conjugate(a[::-1]))
    cr = c * np.arange(c.size)
    z = np.exp(-1j * w)
    num = np.polyval(cr[::-1], z)
    den = np.polyval(c[::-1], z)
    with np.errstate(divide="ignore", invalid="ignore"):
        gd = np.real(num / den) - a.size + 1
    singular = ~np.isfinite(gd)
    if np.any(singular):
        gd[singular] = 0
        warnings.warn("The group delay is singular at frequencies "
                      f"[{', '.join(f'{ws:.3f}' for ws in w[singular])}], setting to 0",
                      stacklevel=2)
    elif np.any(np.absolute(den) < 10 * np.finfo(np.float64).eps):
        near = np.absolute(den) < 10 * np.finfo(np.float64).eps
        warnings.warn("The filter's denominator is extremely small at frequencies "
                      f"[{', '.join(f'{ws:.3f}' for ws in w[near])}], around which a "
                      "singularity may be present", stacklevel=2)
    return gp.asarray(w * fs / (2 * np.pi)), gp.asarray(gd)


def iircomb(w0, Q, ftype="notch", fs=2.0, *, pass_zero=False):
    """A comb filter of notches (or peaks) at the multiples of w0, of
    quality factor Q."""
    w0, Q = float(w0), float(Q)
    fs = _validate_fs(fs, allow_none=False)
    ftype = ftype.lower()
    if not 0 < w0 < fs / 2:
        raise ValueError(f"w0 must be between 0 and {fs / 2} (Nyquist), but given {w0}.")
    if ftype not in ("notch", "peak"):
        raise ValueError("ftype must be either notch or peak.")
    N = round(fs / w0)
    if abs(w0 - fs / N) / fs > 1e-14:
        raise ValueError("fs must be divisible by w0.")
    w0 = (2 * np.pi * w0) / fs
    G0, G = (1, 0) if ftype == "notch" else (0, 1)
    beta = math.tan(N * (w0 / Q) / 4)
    ax = (1 - beta) / (1 + beta)
    bx = (G0 + G * beta) / (1 + beta)
    cx = (G0 - G * beta) / (1 + beta)
    sgn = -1.0 if (ftype == "peak") == bool(pass_zero) else 1.0
    b = np.zeros(N + 1)
    b[0], b[-1] = bx, sgn * cx
    a = np.zeros(N + 1)
    a[0], a[-1] = 1.0, sgn * ax
    return gp.asarray(b), gp.asarray(a)


def _hz_to_erb(hz):
    return hz / 9.26449 + 24.7  # Glasberg and Moore's equivalent rectangular bandwidth


def gammatone(freq, ftype, order=None, numtaps=None, fs=None):
    """A gammatone filter (the auditory filter model) centred at freq: an
    FIR of numtaps (order 1..24) or Slaney's fourth-order IIR."""
    freq = float(freq)
    fs = _validate_fs(2 if fs is None else fs, allow_none=False)
    ftype = ftype.lower()
    if not 0 < freq < fs / 2:
        raise ValueError(f"The frequency must be between 0 and {fs / 2} (Nyquist), but given "
                         f"{freq}.")
    if ftype not in ("fir", "iir"):
        raise ValueError("ftype must be either fir or iir.")
    if ftype == "fir":
        import operator
        order = operator.index(4 if order is None else order)
        numtaps = operator.index(max(int(fs * 0.015), 15) if numtaps is None else numtaps)
        if not 0 < order <= 24:
            raise ValueError("Invalid order: order must be > 0 and <= 24.")
        t = np.arange(numtaps) / fs
        bw = 1.019 * _hz_to_erb(freq)
        b = t ** (order - 1) * np.exp(-2 * np.pi * bw * t) * np.cos(2 * np.pi * freq * t)
        b = b * (2 * (2 * np.pi * bw) ** order / math.factorial(order - 1) / fs)
        return gp.asarray(b), gp.asarray(np.array([1.0]))
    if order is not None:
        warnings.warn("order is not used for IIR gammatone filter.", stacklevel=2)
    if numtaps is not None:
        warnings.warn("numtaps is not used for IIR gammatone filter.", stacklevel=2)
    T = 1.0 / fs
    bw = 2 * math.pi * 1.019 * _hz_to_erb(freq)
    fr = 2 * freq * math.pi * T
    bwT = bw * T
    g1 = -2 * np.exp(2j * fr) * T
    g2 = 2 * np.exp(-bwT + 1j * fr) * T
    g3 = math.sqrt(3 + 2 ** 1.5) * math.sin(fr)
    g4 = math.sqrt(3 - 2 ** 1.5) * math.sin(fr)
    g5 = np.exp(2j * fr)
    g = (g1 + g2 * (math.cos(fr) - g4)) * (g1 + g2 * (math.cos(fr) + g4))
    g = g * (g1 + g2 * (math.cos(fr) - g3)) * (g1 + g2 * (math.cos(fr) + g3))
    g = g / ((-2 / math.exp(2 * bwT) - 2 * g5 + 2 * (1 + g5) / math.exp(bwT)) ** 4)
    g = math.hypot(g.real, g.imag)
    c = math.cos
    b = [T ** 4 / g, -4 * T ** 4 * c(fr) / math.exp(bwT) / g,
         6 * T ** 4 * c(2 * fr) / math.exp(2 * bwT) / g,
         -4 * T ** 4 * c(3 * fr) / math.exp(3 * bwT) / g,
         T ** 4 * c(4 * fr) / math.exp(4 * bwT) / g]
    a = [1, -8 * c(fr) / math.exp(bwT), 4 * (4 + 3 * c(2 * fr)) / math.exp(2 * bwT),
         -8 * (6 * c(fr) + c(3 * fr)) / math.exp(3 * bwT),
         2 * (18 + 16 * c(2 * fr) + c(4 * fr)) / math.exp(4 * bwT),
         -8 * (6 * c(fr) + c(3 * fr)) / math.exp(5 * bwT),
         4 * (4 + 3 * c(2 * fr)) / math.exp(6 * bwT), -8 * c(fr) / math.exp(7 * bwT),
         math.exp(-8 * bwT)]
    return gp.asarray(np.array(b, dtype=np.float64)), gp.asarray(np.array(a, dtype=np.float64))


def findfreqs(num, den, N, kind="ba"):
    """Frequencies spanning the interesting part of an analog response: two
    decades beyond its outermost poles and zeros."""
    return gp.asarray(_findfreqs(_host(num), _host(den), N, kind))


# ---- order selection ----------------------------------------------------------------------

def _ellipk(m):
    """The complete elliptic integral of the first kind K(m), by the
    arithmetic-geometric mean."""
    a, b = 1.0, math.sqrt(1.0 - m)
    for _ in range(60):
        if abs(a - b) <= 1e-16 * a:
            break
        a, b = 0.5 * (a + b), math.sqrt(a * b)
    return math.pi / (2 * a)


def _gpass_gstop(gpass, gstop):
    if gpass <= 0.0:
        raise ValueError("gpass should be larger than 0.0")
    if gstop <= 0.0:
        raise ValueError("gstop should be larger than 0.0")
    if gpass > gstop:
        raise ValueError("gpass should be smaller than gstop")


def band_stop_obj(wp, ind, passb, stopb, gpass, gstop, type):
    """The order a band-stop filter needs when passband edge ind moves to
    wp: the objective order selection minimises."""
    _gpass_gstop(gpass, gstop)
    passb = np.array(_host(passb), dtype=np.float64)
    stopb = np.asarray(_host(stopb), dtype=np.float64)
    passb[ind] = wp
    nat = min(abs(stopb * (passb[0] - passb[1]) / (stopb ** 2 - passb[0] * passb[1])))
    GSTOP, GPASS = 10 ** (0.1 * abs(gstop)), 10 ** (0.1 * abs(gpass))
    if type == "butter":
        return np.log10((GSTOP - 1.0) / (GPASS - 1.0)) / (2 * np.log10(nat))
    if type == "cheby":
        return np.arccosh(np.sqrt((GSTOP - 1.0) / (GPASS - 1.0))) / np.arccosh(nat)
    if type == "ellip":
        arg1 = np.sqrt((GPASS - 1.0) / (GSTOP - 1.0))
        arg0 = 1.0 / nat
        return (_ellipk(arg0 ** 2) * _ellipk(1 - arg1 ** 2)
                / (_ellipk(1 - arg0 ** 2) * _ellipk(arg1 ** 2)))
    raise ValueError(f"Incorrect type: {type}")


def _ord_setup(wp, ws, gpass, gstop, analog, fs, kind):
    """Warped band edges, the band type (1 low, 2 high, 3 stop, 4 pass) and
    the natural frequency ratio the order follows from."""
    wp = np.atleast_1d(_host(wp)).astype(np.float64)
    ws = np.atleast_1d(_host(ws)).astype(np.float64)
    if fs is not None:
        if analog:
            raise ValueError("fs cannot be specified for an analog filter")
        wp, ws = 2 * wp / fs, 2 * ws / fs
    ftype = 2 * (wp.shape[0] - 1) + 1 + (1 if wp[0] >= ws[0] else 0)
    passb, stopb = (wp, ws) if analog else (np.tan(np.pi * wp / 2.0), np.tan(np.pi * ws / 2.0))
    if ftype == 1:
        nat = stopb / passb
    elif ftype == 2:
        nat = passb / stopb
    elif ftype == 3:
        wp0 = fminbound(lambda w: band_stop_obj(w, 0, passb, stopb, gpass, gstop, kind),
                        passb[0], stopb[0] - 1e-12)
        wp1 = fminbound(lambda w: band_stop_obj(w, 1, passb, stopb, gpass, gstop, kind),
                        stopb[1] + 1e-12, passb[1])
        passb = np.array([float(wp0), float(wp1)])
        nat = (stopb * (passb[0] - passb[1])) / (stopb ** 2 - passb[0] * passb[1])
    else:
        nat = (stopb ** 2 - passb[0] * passb[1]) / (stopb * (passb[0] - passb[1]))
    return passb, ftype, float(np.min(np.abs(nat)))


def _wn(WN, analog, fs):
    wn = np.asarray(WN) if analog else np.arctan(WN) * 2.0 / np.pi
    if wn.shape[0] == 1:
        wn = wn[0]
    if fs is not None:
        wn = wn * fs / 2
    return gp.asarray(np.asarray(wn)) if np.ndim(wn) else np.float64(wn)


def buttord(wp, ws, gpass, gstop, analog=False, fs=None):
    """The least Butterworth order (and its natural frequency) that loses no
    more than gpass dB in the pass band and gstop dB in the stop band."""
    _gpass_gstop(gpass, gstop)
    fs = _validate_fs(fs, allow_none=True)
    passb, ftype, nat = _ord_setup(wp, ws, gpass, gstop, analog, fs, "butter")
    GSTOP, GPASS = 10 ** (0.1 * abs(gstop)), 10 ** (0.1 * abs(gpass))
    order = int(math.ceil(math.log10((GSTOP - 1.0) / (GPASS - 1.0)) / (2 * math.log10(nat))))
    try:
        W0 = (GPASS - 1.0) ** (-1.0 / (2.0 * order))
    except ZeroDivisionError:
        W0 = 1.0
        warnings.warn("Order is zero...check input parameters.", RuntimeWarning, stacklevel=2)
    if ftype == 1:
        WN = W0 * passb
    elif ftype == 2:
        WN = passb / W0
    elif ftype == 3:
        d = np.sqrt((passb[1] - passb[0]) ** 2 + 4 * W0 ** 2 * passb[0] * passb[1])
        WN = np.sort(np.abs(np.array([((passb[1] - passb[0]) + d) / (2 * W0),
                                      ((passb[1] - passb[0]) - d) / (2 * W0)])))
    else:
        W0 = np.array([-W0, W0])
        WN = np.sort(np.abs(-W0 * (passb[1] - passb[0]) / 2.0
                            + np.sqrt(W0 ** 2 / 4.0 * (passb[1] - passb[0]) ** 2
                                      + passb[0] * passb[1])))
    return order, _wn(WN, analog, fs)


def _cheb_order(wp, ws, gpass, gstop, analog, fs):
    fs = _validate_fs(fs, allow_none=True)
    _gpass_gstop(gpass, gstop)
    passb, ftype, nat = _ord_setup(wp, ws, gpass, gstop, analog, fs, "cheby")
    GSTOP, GPASS = 10 ** (0.1 * abs(gstop)), 10 ** (0.1 * abs(gpass))
    v = math.acosh(math.sqrt((GSTOP - 1.0) / (GPASS - 1.0)))
    return int(math.ceil(v / math.acosh(nat))), v, passb, ftype, fs


def cheb1ord(wp, ws, gpass, gstop, analog=False, fs=None):
    """The least Chebyshev I order (and its critical frequency) meeting the
    pass- and stop-band losses."""
    order, _, passb, _, fs = _cheb_order(wp, ws, gpass, gstop, analog, fs)
    return order, _wn(passb, analog, fs)


def cheb2ord(wp, ws, gpass, gstop, analog=False, fs=None):
    """The least Chebyshev II order (and its critical frequency) meeting the
    pass- and stop-band losses."""
    order, v, passb, ftype, fs = _cheb_order(wp, ws, gpass, gstop, analog, fs)
    f = 1.0 / math.cosh(1.0 / order * v)
    if ftype == 1:
        nat = passb / f
    elif ftype == 2:
        nat = passb * f
    elif ftype == 3:
        n0 = (f / 2.0 * (passb[0] - passb[1])
              + math.sqrt(f ** 2 * (passb[1] - passb[0]) ** 2 / 4.0 + passb[1] * passb[0]))
        nat = np.array([n0, passb[1] * passb[0] / n0])
    else:
        n0 = (1.0 / (2.0 * f) * (passb[0] - passb[1])
              + math.sqrt((passb[1] - passb[0]) ** 2 / (4.0 * f ** 2) + passb[1] * passb[0]))
        nat = np.array([n0, passb[0] * passb[1] / n0])
    return order, _wn(nat, analog, fs)


_ORDERS = {"butter": "butter", "butterworth": "butter", "cheby1": "cheby1",
           "chebyshev1": "cheby1", "chebyshevi": "cheby1", "cheby2": "cheby2",
           "chebyshev2": "cheby2", "chebyshevii": "cheby2", "cauer": "ellip",
           "elliptic": "ellip", "ellip": "ellip"}


def iirdesign(wp, ws, gpass, gstop, analog=False, ftype="ellip", output="ba", fs=None):
    """The IIR filter of least order of the family ftype meeting pass band
    wp (loss <= gpass dB) and stop band ws (loss >= gstop dB)."""
    if ftype in _BESSEL:
        raise ValueError(f"{ftype} does not have order selection. Use iirfilter function.")
    if ftype not in _ORDERS:
        raise ValueError(f"Invalid IIR filter type: {ftype}")
    _gpass_gstop(gpass, gstop)
    wp = np.atleast_1d(_host(wp)).astype(np.float64)
    ws = np.atleast_1d(_host(ws)).astype(np.float64)
    fs = _validate_fs(fs, allow_none=True)
    if wp.shape[0] != ws.shape[0] or wp.shape not in [(1,), (2,)]:
        raise ValueError("wp and ws must have one or two elements each, and the same shape, "
                         f"got {wp.shape} and {ws.shape}")
    if np.any(wp <= 0) or np.any(ws <= 0):
        raise ValueError("Values for wp, ws must be greater than 0")
    if not analog:
        if fs is None:
            if np.any(wp >= 1) or np.any(ws >= 1):
                raise ValueError("Values for wp, ws must be less than 1")
        elif np.any(wp >= fs / 2) or np.any(ws >= fs / 2):
            raise ValueError(f"Values for wp, ws must be less than fs/2 (fs={fs} -> "
                             f"fs/2={fs / 2})")
    if wp.shape[0] == 2 and not ((ws[0] < wp[0] and wp[1] < ws[1])
                                 or (wp[0] < ws[0] and ws[1] < wp[1])):
        raise ValueError("Passband must lie strictly inside stopband or vice versa")
    band = 2 * (wp.shape[0] - 1) + 1 + (1 if wp[0] >= ws[0] else 0)
    btype = {1: "lowpass", 2: "highpass", 3: "bandstop", 4: "bandpass"}[band]
    kind = _ORDERS[ftype]
    ordfunc = {"butter": buttord, "cheby1": cheb1ord, "cheby2": cheb2ord,
               "ellip": ellipord}[kind]
    N, Wn = ordfunc(wp, ws, gpass, gstop, analog=analog, fs=fs)
    return iirfilter(N, Wn, rp=gpass, rs=gstop, analog=analog, btype=btype, ftype=kind,
                     output=output, fs=fs)


# ---- elliptic (Cauer) filters -------------------------------------------------------------

def _agm_K(mc):
    """K(1 - mc), the complete elliptic integral of parameter 1 - mc, by the
    arithmetic-geometric mean of 1 and sqrt(mc) (accurate for tiny mc)."""
    a, b = 1.0, math.sqrt(mc)
    for _ in range(60):
        if abs(a - b) <= 1e-16 * a:
            break
        a, b = 0.5 * (a + b), math.sqrt(a * b)
    return math.pi / (2 * a)


def _ellipk_m(m):
    return _agm_K(1.0 - m)


def _ellipj(u, m):
    """Jacobi's sn, cn, dn of u for parameter m (Cephes' method: the descending
    Landen sequence by the arithmetic-geometric mean, series at either end)."""
    if m < 1e-9:
        t, b = math.sin(u), math.cos(u)
        ai = 0.25 * m * (u - t * b)
        return t - ai * b, b + ai * t, 1.0 - 0.5 * m * t * t
    if m >= 0.9999999999:
        ai = 0.25 * (1.0 - m)
        b, t = math.cosh(u), math.tanh(u)
        phi = 1.0 / b
        twon = b * math.sinh(u)
        sn = t + ai * (twon - u) / (b * b)
        ai *= t * phi
        return sn, phi - ai * (twon - u), phi + ai * (twon + u)
    a, c = [1.0], [math.sqrt(m)]
    b = math.sqrt(1.0 - m)
    twon = 1.0
    while abs(c[-1] / a[-1]) > 1.11022302462515654042e-16 and len(a) < 9:
        ai = a[-1]
        c.append((ai - b) / 2.0)
        t = math.sqrt(ai * b)
        a.append((ai + b) / 2.0)
        b = t
        twon *= 2.0
    i = len(a) - 1
    phi = twon * a[i] * u
    while True:
        t = c[i] * math.sin(phi) / a[i]
        b = phi
        phi = (math.asin(t) + phi) / 2.0
        i -= 1
        if i == 0:
            break
    t = math.cos(phi)
    return math.sin(phi), t, t / math.cos(phi - b)


def _ellipdeg(n, m1):
    """The parameter m of an order-n elliptic filter whose selectivity
    parameter is m1, from the nome's q-series."""
    q = math.exp(-math.pi * _agm_K(m1) / _ellipk_m(m1)) ** (1 / n)
    num = sum(q ** (k * (k + 1)) for k in range(8))
    den = 1 + 2 * sum(q ** (k * k) for k in range(1, 9))
    return 16 * q * (num / den) ** 4


def _arc_jac_sn(w, m):
    """The inverse of Jacobi's sn (complex w allowed), by Landen's
    transformation."""
    def comp(kx):
        return ((1 - kx) * (1 + kx)) ** 0.5
    k = m ** 0.5
    if k > 1:
        return np.nan
    if k == 1:
        return np.arctanh(w)
    ks = [k]
    while ks[-1] != 0:
        kp = comp(ks[-1])
        ks.append((1 - kp) / (1 + kp))
        if len(ks) > 11:
            raise ValueError("Landen transformation not converging")
    K = np.prod(1 + np.array(ks[1:])) * np.pi / 2
    wn = w
    for kn, knext in zip(ks[:-1], ks[1:]):
        wn = 2 * wn / ((1 + knext) * (1 + comp(kn * wn)))
    return K * (2 / np.pi * np.arcsin(wn))


def _arc_jac_sc1(w, m):
    z = _arc_jac_sn(1j * w, m)
    if abs(z.real) > 1e-14:
        raise ValueError
    return z.imag


def _pow10m1(x):
    return math.expm1(math.log(10) * x)


def _ellipap(N, rp, rs):
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    if N == 0:
        return np.array([], complex), np.array([], complex), 10 ** (-rp / 20)
    if N == 1:
        p = -math.sqrt(1.0 / _pow10m1(0.1 * rp))
        return np.array([], complex), np.array([p], complex).reshape(()), -p
    eps_sq = _pow10m1(0.1 * rp)
    eps = math.sqrt(eps_sq)
    ck1_sq = eps_sq / _pow10m1(0.1 * rs)
    if ck1_sq == 0:
        raise ValueError("Cannot design a filter with given rp and rs specifications.")
    K1 = _ellipk_m(ck1_sq)
    m = _ellipdeg(N, ck1_sq)
    capk = _ellipk_m(m)
    j = np.arange(1 - N % 2, N, 2)
    scd = np.array([_ellipj(float(jj) * capk / N, m) for jj in j])
    s, c, d = scd[:, 0], scd[:, 1], scd[:, 2]
    snew = s[abs(s) > 2e-16]
    z = 1j / (np.sqrt(m) * snew)
    z = np.concatenate((z, np.conjugate(z)))
    r = _arc_jac_sc1(1.0 / eps, ck1_sq)
    v0 = capk * r / (N * K1)
    sv, cv, dv = _ellipj(v0, 1 - m)
    p = -(c * d * sv * cv + 1j * s * dv) / (1 - (d * sv) ** 2.0)
    if N % 2:
        keep = abs(p.imag) > 2e-16 * np.sqrt(np.sum(p * np.conjugate(p)).real)
        p = np.concatenate((p, np.conjugate(p[keep])))
    else:
        p = np.concatenate((p, np.conjugate(p)))
    k = (np.prod(-p) / np.prod(-z)).real
    if N % 2 == 0:
        k = k / np.sqrt(1 + eps_sq)
    return z.astype(complex), p.astype(complex), float(k)


def ellipap(N, rp, rs):
    """The analog elliptic (Cauer) lowpass prototype: ripple rp dB in the
    pass band, rs dB down in the stop band."""
    z, p, k = _ellipap(N, rp, rs)
    return gp.asarray(z), gp.asarray(p), k


def ellip(N, rp, rs, Wn, btype="low", analog=False, output="ba", fs=None):
    """An elliptic (Cauer) filter of order N: equiripple in both bands."""
    return iirfilter(N, Wn, rs=rs, rp=rp, btype=btype, analog=analog, output=output,
                     ftype="elliptic", fs=fs)


def ellipord(wp, ws, gpass, gstop, analog=False, fs=None):
    """The least elliptic order (and its critical frequency) meeting the
    pass- and stop-band losses."""
    fs = _validate_fs(fs, allow_none=True)
    _gpass_gstop(gpass, gstop)
    passb, _, nat = _ord_setup(wp, ws, gpass, gstop, analog, fs, "ellip")
    arg1_sq = _pow10m1(0.1 * gpass) / _pow10m1(0.1 * gstop)
    arg0 = 1.0 / nat
    order = int(np.ceil(_ellipk_m(arg0 ** 2) * _agm_K(arg1_sq)
                        / (_agm_K(arg0 ** 2) * _ellipk_m(arg1_sq))))
    return order, _wn(passb, analog, fs)


# ---- Bessel (Thomson) filters -------------------------------------------------------------

def _falling_factorial(x, n):
    val = 1
    for k in range(x - n + 1, x + 1):
        val *= k
    return val


def _kve_half(nu_half, z):
    """K_{n+1/2}(z) e^z for complex z, by the upward recurrence
    K_{v+1} = K_{v-1} + (2v / z) K_v from K_{1/2} e^z = sqrt(pi / 2z) and
    K_{3/2} e^z = sqrt(pi / 2z) (1 + 1/z) (stable: K grows with the order)."""
    n = int(nu_half)
    if n < 0:  # K_{-v} = K_v
        n = -n - 1
    # in extended precision: near the zeros the recurrence's terms are far
    # larger than its sum, which double precision would leave as noise
    z = np.asarray(z, dtype=np.clongdouble)
    k0 = np.sqrt(np.longdouble(np.pi) / (2 * z))
    k1 = k0 * (1 + 1 / z)
    if n == 0:
        return k0.astype(complex)
    for j in range(1, n):
        k0, k1 = k1, k0 + (2 * (j + np.longdouble(0.5)) / z) * k1
    return k1.astype(complex)


def _campos_zeros(n):
    """Campos and Calderon's approximation of the zeros of the Bessel
    polynomial of order n: the starting points of the root search."""
    if n == 1:
        return np.asarray([-1 + 0j])
    pv = np.polynomial.polynomial.polyval
    s = pv(n, [0, 0, 2, 0, -3, 1])
    b3, b2 = pv(n, [16, -8]) / s, pv(n, [-24, -12, 12]) / s
    b1, b0 = pv(n, [8, 24, -12, -2]) / s, pv(n, [0, -6, 0, 5, -1]) / s
    r = pv(n, [0, 0, 2, 1])
    a1, a2 = pv(n, [-6, -6]) / r, 6 / r
    k = np.arange(1, n + 1)
    return pv(k, [0, a1, a2]) + 1j * pv(k, [b0, b1, b2, b3])


def _bessel_zeros(N):
    """The zeros of the order-N Bessel polynomial, refined from Campos' guesses
    by Aberth's simultaneous iteration and then Newton's, on K_{N+1/2}(1/x)."""
    if N == 0:
        return np.asarray([])

    def f(x):
        return _kve_half(N, 1 / x)

    def fp(x):
        return (_kve_half(N - 1, 1 / x) / (2 * x ** 2) - _kve_half(N, 1 / x) / x ** 2
                + _kve_half(N + 1, 1 / x) / (2 * x ** 2))

    x = np.array(_campos_zeros(N), complex)
    for _ in range(50):
        alpha = -f(x) / fp(x)
        beta = np.array([np.sum(1 / (x[k] - np.delete(x, k))) for k in range(N)])
        x = x + alpha / (1 + alpha * beta)
        if not np.all(np.isfinite(x)):
            raise RuntimeError("Root-finding calculation failed")
        if np.all(abs(alpha) <= 1e-15):
            break
    # (the steps may stall at rounding level, 1e-15 of a zero, rather than
    # under it as with SciPy's AMOS Bessel functions: Newton's polish follows)
    for i in range(N):  # Newton's polish, to 1e-15 as SciPy's
        for _ in range(50):
            step = f(x[i:i + 1])[0] / fp(x[i:i + 1])[0]
            x[i] -= step
            if abs(step) <= 1e-15:
                break
    x = np.mean((x, x[::-1].conj()), 0)
    # the zeros sum to -1 (the polynomial's second coefficient); SciPy holds
    # its zeros to 1e-15 there, these to 1e-13 (their Bessel functions are
    # summed by a recurrence, good to a few units in the last place)
    if abs(np.sum(x) + 1) > 1e-13:
        raise RuntimeError("Generated zeros are inaccurate")
    return x


def _norm_factor(p, k):
    """The frequency where |k / prod(jw - p)| = 1/sqrt(2), by the secant
    method from 1.5 (scipy.optimize.newton's default without a derivative,
    to its tolerance)."""
    p = np.asarray(p, dtype=np.complex128)

    def cut(w):
        return np.abs(k / np.prod(1j * w - p)) - 1 / math.sqrt(2)

    x0 = 1.5
    x1 = x0 * (1 + 1e-4) + (1e-4 if x0 >= 0 else -1e-4)
    q0, q1 = cut(x0), cut(x1)
    for _ in range(50):
        if q1 == q0:
            return (x1 + x0) / 2.0
        x2 = x1 - q1 * (x1 - x0) / (q1 - q0) if abs(q1) <= abs(q0) else \
            (-q0 / q1 * x1 + x0) / (1 - q0 / q1)
        if abs(x2 - x1) < 1.48e-8 + 0 * abs(x2):
            return x2
        x0, q0, x1, q1 = x1, q1, x2, cut(x2)
    return x1


def _besselap(N, norm="phase"):
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    N = int(N)
    if N == 0:
        return np.array([]), np.array([], complex), 1.0
    p = 1 / _bessel_zeros(N)
    a_last = _falling_factorial(2 * N, N) // 2 ** N
    if norm in ("delay", "mag"):
        k = a_last
        if norm == "mag":
            nf = _norm_factor(p, k)
            p = p / nf
            k = nf ** -N * a_last
    elif norm == "phase":
        p = p * 10 ** (-math.log10(a_last) / N)
        k = 1
    else:
        raise ValueError("normalization not understood")
    return np.array([]), p.astype(complex), float(k)


def besselap(N, norm="phase"):
    """The analog Bessel (Thomson) lowpass prototype: maximally flat group
    delay, normalised by 'phase', 'delay' or 'mag'."""
    z, p, k = _besselap(N, norm)
    return gp.asarray(z), gp.asarray(p), k


def bessel(N, Wn, btype="low", analog=False, output="ba", norm="phase", fs=None):
    """A Bessel (Thomson) filter of order N."""
    return iirfilter(N, Wn, btype=btype, analog=analog, output=output, ftype="bessel_" + norm,
                     fs=fs)
