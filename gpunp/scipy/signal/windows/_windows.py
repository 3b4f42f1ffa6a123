"""SciPy's window functions. A window is M numbers computed once from a
closed formula or a small eigenproblem, so it is computed on the host in
float64 (as SciPy does) and handed over as one gpunp array."""

from __future__ import annotations

import operator

import numpy as np

import gpunp as gp


def _guard(M):
    """True where the window is all ones (M of 0 or 1); rejects bad M."""
    if int(M) != M or M < 0:
        raise ValueError("Window length M must be a non-negative integer")
    return M <= 1


def _window(fn):
    """The public form of a host window formula: guards M, extends a
    periodic (sym=False) window by one point and drops it afterwards."""
    takes = fn.__code__.co_argcount - 1  # parameters between M and sym

    def public(M, *args, sym=True, **kw):
        if len(args) > takes:  # sym given by position, as SciPy allows
            if len(args) > takes + 1:
                raise TypeError(f"{public.__name__}() takes at most {takes + 2} "
                                "positional arguments")
            sym, args = args[takes], args[:takes]
        if _guard(M):
            return gp.ones(int(M), dtype=np.float64)
        M = int(M)
        w = fn(M + (not sym), *args, **kw)
        return gp.asarray(w[:M])
    public.__name__ = public.__qualname__ = fn.__name__.lstrip("_")
    public.__doc__ = fn.__doc__
    return public


def _cosine_sum(M, a):
    x = np.linspace(-np.pi, np.pi, M)
    return sum(c * np.cos(k * x) for k, c in enumerate(a))


@_window
def _general_cosine(M, a):
    """A weighted sum of cosines: sum_k a[k] cos(k x), x over [-pi, pi]."""
    return _cosine_sum(M, a)


def _fixed_cosine(name, a):
    def fn(M):
        return _cosine_sum(M, a)
    fn.__name__ = "_" + name
    fn.__doc__ = f"The {name} window: a cosine sum with weights {list(a)}."
    return _window(fn)


blackman = _fixed_cosine("blackman", (0.42, 0.50, 0.08))
nuttall = _fixed_cosine("nuttall", (0.3635819, 0.4891775, 0.1365995, 0.0106411))
blackmanharris = _fixed_cosine("blackmanharris", (0.35875, 0.48829, 0.14128, 0.01168))
flattop = _fixed_cosine("flattop", (0.21557895, 0.41663158, 0.277263158, 0.083578947,
                                    0.006947368))
hann = _fixed_cosine("hann", (0.5, 0.5))
hamming = _fixed_cosine("hamming", (0.54, 0.46))
general_cosine = _general_cosine


@_window
def _general_hamming(M, alpha):
    """alpha - (1 - alpha) cos(2 pi n / (M - 1))."""
    return _cosine_sum(M, (alpha, 1.0 - alpha))


@_window
def _boxcar(M):
    """All ones."""
    return np.ones(M)


@_window
def _triang(M):
    """A triangle that does not reach zero at the ends."""
    n = np.arange(1, (M + 1) // 2 + 1)
    if M % 2 == 0:
        half = (2 * n - 1.0) / M
        return np.concatenate([half, half[::-1]])
    half = 2 * n / (M + 1.0)
    return np.concatenate([half, half[-2::-1]])


@_window
def _parzen(M):
    """The Parzen (de la Vallee Poussin) piecewise cubic."""
    n = np.arange(-(M - 1) / 2.0, (M - 1) / 2.0 + 0.5, 1.0)
    outer = n[n < -(M - 1) / 4.0]
    inner = n[np.abs(n) <= (M - 1) / 4.0]
    wo = 2 * (1 - np.abs(outer) / (M / 2.0)) ** 3
    r = np.abs(inner) / (M / 2.0)
    wi = 1 - 6 * r ** 2 + 6 * r ** 3
    return np.concatenate([wo, wi, wo[::-1]])


@_window
def _bohman(M):
    """The Bohman window: a triangle convolved with itself, smoothed."""
    f = np.abs(np.linspace(-1, 1, M)[1:-1])
    w = (1 - f) * np.cos(np.pi * f) + np.sin(np.pi * f) / np.pi
    return np.concatenate([[0.0], w, [0.0]])


@_window
def _bartlett(M):
    """A triangle that reaches zero at the ends."""
    n = np.arange(M)
    return np.where(n <= (M - 1) / 2.0, 2.0 * n / (M - 1), 2.0 - 2.0 * n / (M - 1))


@_window
def _tukey(M, alpha=0.5):
    """A flat top with cosine tapers over a fraction alpha of the window."""
    if alpha <= 0:
        return np.ones(M)
    if alpha >= 1.0:
        return _cosine_sum(M, (0.5, 0.5))
    n = np.arange(M)
    width = int(np.floor(alpha * (M - 1) / 2.0))
    n1, n3 = n[:width + 1], n[M - width - 1:]
    w1 = 0.5 * (1 + np.cos(np.pi * (-1 + 2.0 * n1 / alpha / (M - 1))))
    w3 = 0.5 * (1 + np.cos(np.pi * (-2.0 / alpha + 1 + 2.0 * n3 / alpha / (M - 1))))
    return np.concatenate([w1, np.ones(M - len(n1) - len(n3)), w3])


@_window
def _barthann(M):
    """The modified Bartlett-Hann window."""
    f = np.abs(np.arange(M) / (M - 1.0) - 0.5)
    return 0.62 - 0.48 * f + 0.38 * np.cos(2 * np.pi * f)


def _kaiser_host(M, beta):
    n = np.arange(M)
    half = (M - 1) / 2.0
    return np.i0(beta * np.sqrt(1 - ((n - half) / half) ** 2.0)) / np.i0(float(beta))


@_window
def _kaiser(M, beta):
    """I0(beta sqrt(1 - (2n/(M-1) - 1)^2)) / I0(beta)."""
    return _kaiser_host(M, beta)


def kaiser_bessel_derived(M, beta, *, sym=True):
    """The Kaiser-Bessel derived window (for the MDCT): the square root of
    the normalised running sum of a Kaiser window, mirrored."""
    if not sym:
        raise ValueError("Kaiser-Bessel Derived windows are only defined for symmetric "
                         "shapes")
    if M < 1:
        return gp.asarray(np.array([]))
    if M % 2:
        raise ValueError("Kaiser-Bessel Derived windows are only defined for even number "
                         "of points")
    k = _kaiser_host(M // 2 + 1, beta)
    c = np.cumsum(k)
    half = np.sqrt(c[:-1] / c[-1])
    return gp.asarray(np.concatenate([half, half[::-1]]))


@_window
def _gaussian(M, std):
    """exp(-n^2 / (2 std^2)), n centred."""
    n = np.arange(M) - (M - 1.0) / 2.0
    return np.exp(-n ** 2 / (2 * std * std))


@_window
def _general_gaussian(M, p, sig):
    """exp(-|n / sig|^(2p) / 2), n centred."""
    n = np.arange(M) - (M - 1.0) / 2.0
    return np.exp(-0.5 * np.abs(n / sig) ** (2 * p))


@_window
def _chebwin(M, at):
    """The Dolph-Chebyshev window: the inverse DFT of a Chebyshev polynomial
    sampled on the unit circle, with side lobes at -at dB."""
    if np.abs(at) < 45:
        import warnings
        warnings.warn("This window is not suitable for spectral analysis for "
                      "attenuation values lower than about 45dB because the equivalent "
                      "noise bandwidth of a Chebyshev window does not grow monotonically "
                      "with increasing sidelobe attenuation when the attenuation is "
                      "smaller than about 45 dB.", stacklevel=3)
    order = M - 1.0
    beta = np.cosh(1.0 / order * np.arccosh(10 ** (np.abs(at) / 20.0)))
    x = beta * np.cos(np.pi * np.arange(M) / M)
    big, small = x > 1, x < -1
    p = np.zeros(M)
    p[big] = np.cosh(order * np.arccosh(x[big]))
    p[small] = (2 * (M % 2) - 1) * np.cosh(order * np.arccosh(-x[small]))
    mid = ~(big | small)
    p[mid] = np.cos(order * np.arccos(x[mid]))
    if M % 2:
        w = np.real(np.fft.fft(p))
        n = (M + 1) // 2
        w = np.concatenate([w[n - 1:0:-1], w[:n]])
    else:
        w = np.real(np.fft.fft(p * np.exp(1j * np.pi / M * np.arange(M))))
        n = M // 2 + 1
        w = np.concatenate([w[n - 1:0:-1], w[1:n]])
    return w / np.max(w)


@_window
def _cosine(M):
    """A half period of a sine."""
    return np.sin(np.pi / M * (np.arange(M) + 0.5))


def exponential(M, center=None, tau=1.0, sym=True):
    """exp(-|n - center| / tau); center defaults to the middle."""
    if sym and center is not None:
        raise ValueError("If sym==True, center must be None.")
    if _guard(M):
        return gp.ones(int(M), dtype=np.float64)
    M = int(M)
    m = M + (not sym)
    c = (m - 1) / 2.0 if center is None else center
    return gp.asarray(np.exp(-np.abs(np.arange(m) - c) / tau)[:M])


@_window
def _taylor(M, nbar=4, sll=30, norm=True):
    """The Taylor window: nbar - 1 cosine terms whose weights put the side
    lobes at -sll dB (radar's taper)."""
    B = 10 ** (sll / 20)
    A = np.arccosh(B) / np.pi
    s2 = nbar ** 2 / (A ** 2 + (nbar - 0.5) ** 2)
    ma = np.arange(1, nbar)
    m2 = ma * ma
    Fm = np.empty(nbar - 1)
    for i, m in enumerate(ma):
        sign = 1 if i % 2 == 0 else -1
        numer = sign * np.prod(1 - m2[i] / s2 / (A ** 2 + (ma - 0.5) ** 2))
        denom = 2 * np.prod(1 - m2[i] / m2[:i]) * np.prod(1 - m2[i] / m2[i + 1:])
        Fm[i] = numer / denom

    def W(n):
        return 1 + 2 * np.dot(Fm, np.cos(2 * np.pi * ma[:, None] * (n - M / 2.0 + 0.5) / M))

    w = W(np.arange(M))
    if norm:
        w = w / W((M - 1) / 2)
    return w


@_window
def _lanczos(M):
    """sinc(2n / (M - 1) - 1), built from its right half so it is exactly
    symmetric."""
    right = np.sinc(2.0 * np.arange((M + 1) // 2, M) / (M - 1) - 1.0)
    mid = [1.0] if M % 2 else []
    return np.concatenate([right[::-1], mid, right])


def _tridiagonal_top(d, e, k):
    """The k largest eigenpairs of the symmetric tridiagonal (d, e), largest
    first, eigenvectors as rows."""
    a = np.diag(d) + np.diag(e, 1) + np.diag(e, -1)
    vals, vecs = np.linalg.eigh(a)
    return vals[::-1][:k], vecs[:, ::-1][:, :k].T.copy()


def dpss(M, NW, Kmax=None, sym=True, norm=None, return_ratios=False):
    """Discrete prolate spheroidal (Slepian) sequences: the Kmax sequences of
    length M most concentrated in the band [-NW/M, NW/M], from the
    tridiagonal eigenproblem that commutes with the concentration one."""
    if norm is None:
        norm = "approximate" if Kmax is None else 2
    if norm not in (2, "approximate", "subsample"):
        raise ValueError(f"norm must be one of {(2, 'approximate', 'subsample')}, got {norm}")
    single = Kmax is None
    Kmax = 1 if single else Kmax
    if _guard(M):
        ones = gp.ones(int(M), dtype=np.float64)
        if not return_ratios:
            return ones
        return (ones, 1.0) if single else (ones, gp.ones(1, dtype=np.float64))
    Kmax = operator.index(Kmax)
    if not 0 < Kmax <= M:
        raise ValueError("Kmax must be greater than 0 and less than M")
    if NW >= M / 2.0:
        raise ValueError("NW must be less than M/2.")
    if NW <= 0:
        raise ValueError("NW must be positive")
    M0, M = int(M), int(M) + (not sym)
    W = float(NW) / M
    n = np.arange(M, dtype=np.float64)
    d = ((M - 1 - 2 * n) / 2.0) ** 2 * np.cos(2 * np.pi * W)
    e = n[1:] * (M - n[1:]) / 2.0
    _, win = _tridiagonal_top(d, e, Kmax)
    # Percival and Walden's signs: even tapers sum positive, odd ones start
    # with a positive lobe (the first point clearly above the noise)
    win[::2][win[::2].sum(axis=1) < 0] *= -1
    thresh = max(1e-7, 1.0 / M)
    for i in range(1, Kmax, 2):
        if win[i][win[i] ** 2 > thresh][0] < 0:
            win[i] *= -1
    ratios = None
    if return_ratios:
        L = 1 << (2 * M - 2).bit_length()
        f = np.fft.rfft(win, L, axis=-1)
        rxx = np.fft.irfft(f * f.conj(), L)[:, :M]
        r = 4 * W * np.sinc(2 * W * n)
        r[0] = 2 * W
        ratios = rxx @ r
        ratios = ratios[0] if single else gp.asarray(ratios)
    if norm != 2:
        win /= win.max()
        if M % 2 == 0:
            if norm == "approximate":
                corr = M ** 2 / float(M ** 2 + NW)
            else:
                s = np.fft.rfft(win[0])
                shift = -(1 - 1.0 / M) * np.arange(1, M // 2 + 1)
                s[1:] *= 2 * np.exp(-1j * np.pi * shift)
                corr = M / s.real.sum()
            win *= corr
    win = win[:, :M0]
    out = gp.asarray(win[0] if single else win)
    return (out, ratios) if return_ratios else out


boxcar, triang, parzen, bohman, bartlett = _boxcar, _triang, _parzen, _bohman, _bartlett
tukey, barthann, general_hamming, kaiser = _tukey, _barthann, _general_hamming, _kaiser
gaussian, general_gaussian, chebwin, cosine = _gaussian, _general_gaussian, _chebwin, _cosine
taylor, lanczos = _taylor, _lanczos

# get_window's names: (aliases, function, parameters: no / yes / optional)
_NAMES = [
    (("barthann", "brthan", "bth"), barthann, "no"),
    (("bartlett", "bart", "brt"), bartlett, "no"),
    (("blackman", "black", "blk"), blackman, "no"),
    (("blackmanharris", "blackharr", "bkh"), blackmanharris, "no"),
    (("bohman", "bman", "bmn"), bohman, "no"),
    (("boxcar", "box", "ones", "rect", "rectangular"), boxcar, "no"),
    (("chebwin", "cheb"), chebwin, "yes"),
    (("cosine", "halfcosine"), cosine, "no"),
    (("dpss",), dpss, "yes"),
    (("exponential", "poisson"), exponential, "optional"),
    (("flattop", "flat", "flt"), flattop, "no"),
    (("gaussian", "gauss", "gss"), gaussian, "yes"),
    (("general cosine", "general_cosine"), general_cosine, "yes"),
    (("general gaussian", "general_gaussian", "general gauss", "general_gauss", "ggs"),
     general_gaussian, "yes"),
    (("general hamming", "general_hamming"), general_hamming, "yes"),
    (("hamming", "hamm", "ham"), hamming, "no"),
    (("hann", "han"), hann, "no"),
    (("kaiser", "ksr"), kaiser, "yes"),
    (("kaiser bessel derived", "kaiser_bessel_derived", "kbd"), kaiser_bessel_derived, "yes"),
    (("lanczos", "sinc"), lanczos, "no"),
    (("nuttall", "nutl", "nut"), nuttall, "no"),
    (("parzen", "parz", "par"), parzen, "no"),
    (("taylor", "taylorwin"), taylor, "optional"),
    (("triangle", "triang", "tri"), triang, "no"),
    (("tukey", "tuk"), tukey, "optional"),
]
_BY_NAME = {alias: (fn, params) for names, fn, params in _NAMES for alias in names}


def get_window(window, Nx, fftbins=True):
    """The window named by a string, or by a tuple (name, parameters...), of
    Nx points; periodic (for FFTs) unless fftbins is False or the name ends
    in '_symmetric'."""
    sym = not fftbins
    name = window if isinstance(window, str) else window[0]
    if name.endswith("_symmetric"):
        sym, name = True, name[:-10]
    elif name.endswith("_periodic"):
        sym, name = False, name[:-9]
    if name not in _BY_NAME:
        raise ValueError(f"Invalid window name '{name}' in parameter {window=}!")
    fn, params = _BY_NAME[name]
    args = tuple(window[1:]) if isinstance(window, tuple) else ()
    if args and params == "no":
        raise ValueError(f"'{name}' does not allow parameters, but {window=}!")
    if not args and params == "yes":
        raise ValueError(f"'{name}' must have parameters, but {window=}!")
    if fn is dpss:
        if len(args) != 1:
            raise ValueError(f"Window {name} must have one parameter but {window=}")
        return dpss(Nx, args[0], Kmax=None, sym=sym)
    return fn(Nx, *args, sym=sym)
