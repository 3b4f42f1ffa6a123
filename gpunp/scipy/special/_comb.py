"""scipy.special's counting functions, which are not ufuncs: ``comb``,
``perm``, ``factorial``, ``factorial2`` and ``factorialk``.

Their floating results are the op table's ``binom``, ``poch``, ``gamma``
rows with SciPy's masks (0 outside the domain), as gpunp arrays (0-d for
scalars, gpunp's convention where SciPy gives a NumPy scalar). The exact
results are Python ints for scalars, as SciPy's are; for an array SciPy
gives int64 up to its 64-bit limits, which gpunp gives too (a table of the
multifactorials gathered on the device), and past them an object array of
Python ints, which a gpunp array cannot hold: that raises OverflowError."""

import math
import numbers

import gpunp

_rows = gpunp.ufunc.of_module("scipy.special")
_binom, _poch, _gamma, _rgamma = (_rows[f] for f in ("binom", "poch", "gamma", "rgamma"))

# the largest n whose multifactorial of order k fits int64 (SciPy 1.17's
# bounds: past them, or for k > 9, its exact array is of Python ints)
_LIMITS_64 = {1: 20, 2: 33, 3: 44, 4: 54, 5: 65, 6: 74, 7: 84, 8: 93, 9: 101}

_NON_INTEGER = "Non-integer `N` and `k` with `exact=True` is not supported."


def _masked(vals, cond):
    """vals where cond holds, else 0 (SciPy's vals[~cond] = 0)"""
    return gpunp.where(cond, vals, gpunp.zeros((), vals.dtype))


def comb(N, k, *, exact=False, repetition=False):
    """The number of combinations of N things taken k at a time ("N choose
    k"), with repetition if asked: binom(N, k) where 0 <= k <= N, else 0; a
    Python int for exact=True (scalars only)."""
    if repetition:
        if exact:
            if k == 0 and int(N) == N and N >= 0:
                return 1
            return comb(N + k - 1, k, exact=True)
        k, N = gpunp.asarray(k), gpunp.asarray(N)
        vals = _binom(N + k - 1, k)
        return gpunp.where((k == 0) & (N >= 0), gpunp.ones((), vals.dtype), vals)
    if exact:
        if int(N) == N and int(k) == k:
            N, k = int(N), int(k)
            return 0 if k > N or N < 0 or k < 0 else math.comb(N, k)
        raise ValueError(_NON_INTEGER)
    k, N = gpunp.asarray(k), gpunp.asarray(N)
    return _masked(_binom(N, k), (k <= N) & (N >= 0) & (k >= 0))


def _scalar_or_size1(v):
    """SciPy's np.squeeze(v)[()]: a size-1 array's element, else v itself"""
    if isinstance(v, gpunp.ndarray):
        return v.reshape(()).item() if v.size == 1 else None
    return v


def perm(N, k, exact=False):
    """The number of permutations of N things taken k at a time: poch(N - k
    + 1, k) where 0 <= k <= N, else 0; a Python int for exact=True (scalars,
    or arrays of one element, only)."""
    if exact:
        N, k = _scalar_or_size1(N), _scalar_or_size1(k)
        if not (isinstance(N, numbers.Number) and isinstance(k, numbers.Number)) \
                or isinstance(N, complex) or isinstance(k, complex):
            raise ValueError("`N` and `k` must be scalar integers with `exact=True`.")
        if not (int(N) == N and int(k) == k):
            raise ValueError(_NON_INTEGER)
        if k > N or N < 0 or k < 0:
            return 0
        return math.prod(range(int(N) - int(k) + 1, int(N) + 1))
    k, N = gpunp.asarray(k), gpunp.asarray(N)
    return _masked(_poch(N - k + 1, k), (k <= N) & (N >= 0) & (k >= 0))


# ---- factorial, factorial2, factorialk -------------------------------------------------

def _kind(v):
    """'i', 'f', 'c' or None for a Python or NumPy scalar's type or a dtype"""
    dt = getattr(v, "dtype", None)
    if dt is not None:
        return {"i": "i", "u": "i", "f": "f", "c": "c"}.get(dt.kind)
    if isinstance(v, bool):
        return None
    if isinstance(v, numbers.Integral):
        return "i"
    if isinstance(v, numbers.Real):
        return "f"
    if isinstance(v, numbers.Complex):
        return "c"
    return None


def _multifactorial(n, k):
    """n(n - k)(n - 2k)... as a Python int"""
    return math.factorial(n) if k == 1 else math.prod(range(n, 0, -k))


def _gamma1p(v):
    """Gamma(v + 1), NaN at v = -1 (SciPy's, not Gamma's pole)"""
    res = _gamma(v + 1)
    return gpunp.where(v == -1, gpunp.asarray(gpunp.nan, res.dtype), res)


def _approx(n, k, extend, scalar):
    """SciPy's floating multifactorial: Gamma(n + 1) for k = 1 (NaN at -1);
    for k > 1 k^(n/k) Gamma(n/k + 1) times a correction by n mod k, or for
    extend='complex' k^(n/k) Gamma(n/k + 1) / (k^(1/k) Gamma(1/k + 1))"""
    if k == 1:  # gamma of the integers' own dtype (SciPy 1.18 takes float32 for int8)
        return _gamma1p(n)
    if not gpunp.issubdtype(n.dtype, gpunp.inexact):
        n = n.astype(gpunp.float64)
    if extend == "complex":
        if isinstance(k, complex) or k < 0:  # SciPy's result is complex there
            raise TypeError("gpunp.scipy.special has no complex loops: a negative or "
                            "complex `k` is not supported")
        res = gpunp.power(k, n / k) * _gamma1p(n / k)
        # a scalar factor (SciPy's NumPy float64, multiplied in place): the
        # result keeps n's float dtype
        return res * float(_rgamma(gpunp.asarray(1 / k + 1)) / gpunp.power(k, 1 / k))
    r = n % k
    if scalar:  # SciPy's scalar path: its own arrangement of the same product
        return (gpunp.power(k, (n - r) / k) * _gamma(n / k + 1) / _gamma(r / k + 1)
                * gpunp.maximum(r, 1))
    corr = gpunp.power(k, -r / k) / _gamma(r / k + 1) * r
    return gpunp.power(k, n / k) * _gamma(n / k + 1) * gpunp.where(r == 0, 1.0, corr)


def _factorialx(fname, n, k, exact, extend):
    if extend not in ("zero", "complex"):
        raise ValueError(
            f"argument `extend` must be either 'zero' or 'complex', received: {extend}")
    if exact and extend == "complex":
        raise ValueError("Incompatible options: `exact=True` and `extend='complex'`")
    unsupported = "Unsupported data type for {} in " + fname + ": {}\n" + (
        "Permitted data types are integers and floating point numbers, as well as complex "
        "numbers if `extend='complex' is passed." if fname == "factorial" else
        "Permitted data types are integers, as well as floating point numbers and complex "
        "numbers if `extend='complex' is passed.")
    needs_complex = (
        "In order to use non-integer arguments, you must opt into this by passing "
        "`extend='complex'`. Note that this changes the result for all negative "
        "arguments (which by default return 0).")
    if fname == "factorial2":
        needs_complex += (" Additionally, it will rescale the values of the double"
                          " factorial at even integers by a factor of sqrt(2/pi).")
    elif fname == "factorialk":
        needs_complex += (" Additionally, it will perturb the values of the"
                          " multifactorial at most positive integers `n`.")
        if _kind(k) is None:
            raise ValueError(unsupported.format("`k`", type(k)))
        if _kind(k) in "fc" and extend != "complex":
            raise ValueError(needs_complex)
        if extend == "zero" and k < 1:
            raise ValueError(
                f"For `extend='zero'`, k must be a positive integer, received: {k}")
        if k == 0:
            raise ValueError("Parameter k cannot be zero!")
    complex_kinds = "c" if fname == "factorial" else "fc"

    if not isinstance(n, gpunp.ndarray) and getattr(n, "ndim", 0) == 0 \
            and not isinstance(n, (list, tuple)):
        kind = _kind(n)
        if kind is None and n is not None:
            raise ValueError(unsupported.format("`n`", type(n)))
        if kind is not None and kind in complex_kinds and extend != "complex":
            raise ValueError(needs_complex)
        if n is None or n != n:
            return gpunp.asarray(gpunp.nan)
        if extend == "zero" and n < 0:
            return 0 if exact else gpunp.asarray(0.0)
        if n in (0, 1):
            return 1 if exact else gpunp.asarray(1.0)
        if exact and kind == "i":
            return _multifactorial(int(n), k)
        if exact:
            raise ValueError(f"`exact=True` only supports integers, cannot use data type "
                             f"{type(n)}")
        if kind == "c":
            raise TypeError("gpunp.scipy.special has no complex loops: a complex `n` "
                            "is not supported")
        return _approx(gpunp.asarray(n), k, extend, scalar=True)

    n = gpunp.asarray(n)
    kind = _kind(n)
    if kind is None:
        raise ValueError(unsupported.format("`n`", n.dtype))
    if kind in complex_kinds and extend != "complex":
        raise ValueError(needs_complex)
    if exact and kind == "f":
        raise ValueError(f"`exact=True` only supports integers, cannot use data type {n.dtype}")
    if n.size == 0:
        return n
    if kind == "c":
        raise TypeError("gpunp.scipy.special has no complex loops: a complex `n` is not "
                        "supported")
    if exact:
        top = int(gpunp.max(n))
        if k not in _LIMITS_64 or top > _LIMITS_64[k]:
            raise OverflowError(
                f"{fname}(exact=True) of this array is SciPy's object array of Python ints "
                "(past int64), which a gpunp array cannot hold; pass a NumPy array or "
                "exact=False")
        table = gpunp.asarray([_multifactorial(j, k) if j > 1 else 1
                               for j in range(max(top, 0) + 1)], dtype=gpunp.int64)
        out = gpunp.take(table, gpunp.clip(n, 0, max(top, 0)).astype(gpunp.int64))
        return gpunp.where(n < 0, gpunp.zeros((), gpunp.int64), out)
    if extend == "complex":
        return _approx(n, k, extend, scalar=False)
    res = _approx(gpunp.where(n >= 0, n, 0), k, extend, scalar=False).astype(gpunp.float64)
    res = gpunp.where(n >= 0, res, 0.0)
    return gpunp.where(n != n, gpunp.nan, res)


def factorial(n, exact=False, extend="zero"):
    """n! = Gamma(n + 1), 0 for n < 0 (extend='zero'); a Python int (or an
    int64 array) for exact=True."""
    return _factorialx("factorial", n, 1, exact, extend)


def factorial2(n, exact=False, extend="zero"):
    """The double factorial n!! = n (n - 2) (n - 4)..."""
    return _factorialx("factorial2", n, 2, exact, extend)


def factorialk(n, k, exact=False, extend="zero"):
    """The multifactorial of order k, n (n - k) (n - 2k)..."""
    return _factorialx("factorialk", n, k, exact, extend)
