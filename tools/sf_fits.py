"""Regenerates the polynomial fits of csrc/prelude/special.h's fast Bessel
(J0, J1, Y0, Y1) and Gamma functions, with mpmath (not a dependency of
gpunp: `pip install mpmath`, then `python tools/sf_fits.py`; it prints the C
tables, which special.h holds verbatim).

Every fit is mpmath's Chebyshev interpolation (near-minimax) of a smooth
function, at 40 digits, converted to powers of a local variable so that the
kernel evaluates it by Horner's rule; the degree is the least that brings
the fit's error below a quarter of a double's rounding:

- J0, J1, Y0, Y1 on [i, i + 1), i = 0..7, in t = x - (i + 1/2): f(x) / (x - z)
  where z is the zero of f in [i - 1/2, i + 3/2) (J1's at 0 included; the
  zeros are more than 3 apart), or f itself where there is none. The
  kernel multiplies back (a x - z_hi) - z_lo, with the zero split in two
  doubles and a = 1 (x - z_hi is exact near the zero, Sterbenz's lemma, so
  the value keeps its relative accuracy there), or a = 0, z_hi = -1,
  z_lo = 0 (the factor 1) where there is no zero. Y's rows start at 2.
- Y0 and Y1 below 2 by their logarithmic forms Y0 = (2/pi) log(x) J0(x) +
  S0(x^2), Y1 = (2/pi) (log(x) J1(x) - 1/x) + x S1(x^2): S0 and S1 are
  entire, fitted in u = x^2 on [0, 4].
- From x = 8 Hankel's form J = A (P cos chi - Q sin chi), Y = A (P sin chi +
  Q cos chi), A = sqrt(2 / (pi x)), chi = x - (2 nu + 1) pi / 4, with P and
  x Q fitted in w = 64 / x^2 on [0, 1] (P, Q are smooth there, though
  their asymptotic series diverge).
- 1 / Gamma(1 + f) on [0, 1] in t = f - 1/2 (1/Gamma is entire, so the fit
  is short and the kernel's Gamma is one division).
- Gamma's float loop (gpk_sf_gamma_f32): Gamma(1 + f) on [0, 1] in
  t = f - 1/2, to 2^-32 (the float's rounding is 2^-24).
- erf's float loop (gpk_sf_erf_f32), in floats, to 2^-30 of 1 (its value
  is then SciPy's float loop's within 1 ULP): (erf(x) / x - 2/sqrt(pi)) / x^2
  in t = x^2 on [0, 1], and erfc on each quarter of [1, 4) in the distance
  from the quarter's middle, all quarters of one degree (the table is
  coefficient-major: a warp's lanes read one coefficient of several
  quarters from a few cache sectors).
- J0's float loop (gpk_sf_j0_f32) below 64: on [2i, 2i + 2), i = 0..31, in
  t = x - (2i + 1), J0(x) / (x - z) with z the zero in [2i - 1/2, 2i + 5/2)
  (at most one: the zeros are more than 3 apart), or J0 itself, to 2^-31
  of the row's least value, all rows of one degree. The kernel sums the
  first two terms in double (doubles in the table) and the rest in float;
  z is a float and a double remainder. Coefficient-major, 32 rows: a
  warp's lanes read one coefficient from one 128-byte line.

The script runs in about 40 s; its output, pasted over the tables of the
same names in special.h, leaves the file unchanged.
"""

from __future__ import annotations

import mpmath as mp

mp.mp.dps = 40
TARGET = mp.mpf(2) ** -55  # a quarter of the double rounding's relative 2^-53


def fit(g, a, b, scale, nmax=30, target=TARGET):
    """The shortest Chebyshev fit of g on [a, b] whose error is below target
    relative to `scale`: its monomial coefficients, lowest first."""
    for n in range(4, nmax):
        c, err = mp.chebyfit(g, [a, b], n, error=True)
        if err <= target * scale:
            return [float(v) for v in reversed(c)], n
    raise RuntimeError("no fit")


def split(z):
    hi = float(z)
    return hi, float(z - hi)


ZEROS = {  # the zeros of each function below 8.5
    "j0": [mp.besseljzero(0, k) for k in (1, 2)],
    "j1": [mp.mpf(0)] + [mp.besseljzero(1, k) for k in (1, 2)],
    "y0": [mp.besselyzero(0, k) for k in (1, 2, 3)],
    "y1": [mp.besselyzero(1, k) for k in (1, 2)],
}
FUNC = {"j0": lambda x: mp.besselj(0, x), "j1": lambda x: mp.besselj(1, x),
        "y0": lambda x: mp.bessely(0, x), "y1": lambda x: mp.bessely(1, x)}


def zero_rows(f, zeros, starts, width, points, target=TARGET):
    """f on [s, s + width) for each s in starts, in t = x - (s + width / 2):
    f(x) / (x - z) with z the zero within half a unit of the interval (the
    values near a zero just past its end keep their relative accuracy as
    well), or f itself where there is none. All of one degree (the kernel's
    loop), the largest any interval needs for an error below target relative
    to the least |value| at `points` (inside, not at the ends: J1 / x at 0).
    (z or None, coefficients) for each interval."""
    h = mp.mpf(width) / 2
    parts = []
    for s in starts:
        c = s + h
        z = next((z for z in zeros if s - 0.5 <= z < s + width + 0.5), None)
        if z is None:
            g = (lambda t, c=c: f(c + t))
        else:
            g = (lambda t, c=c, z=z: f(c + t) / (c + t - z))
        scale = min(abs(g(t)) for t in points)
        parts.append((g, z, fit(g, -h, h, scale, target=target)[1]))
    n = max(p[2] for p in parts)
    return [(z, [float(v) for v in reversed(mp.chebyfit(g, [-h, h], n))]) for g, z, _ in parts]


def small_rows(name, first):
    """(a, z_hi, z_lo, coefficients...) for each unit interval below 8."""
    rows = zero_rows(FUNC[name], ZEROS[name], range(first, 8), 1,
                     [mp.mpf(t) / 8 for t in range(-3, 4)])
    rows = [((0.0, -1.0, 0.0) if z is None else (1.0, *split(z)), coef) for z, coef in rows]
    return rows, len(rows[0][1])


def log_form(nu):
    def s(u):
        if u == 0:
            return -2 / mp.pi * (mp.log(2) - mp.euler) if nu == 0 else \
                (2 * mp.euler - 1 - 2 * mp.log(2)) / (2 * mp.pi)
        x = mp.sqrt(u)
        if nu == 0:
            return mp.bessely(0, x) - 2 / mp.pi * mp.log(x) * mp.besselj(0, x)
        return (mp.bessely(1, x) - 2 / mp.pi * (mp.log(x) * mp.besselj(1, x) - 1 / x)) / x
    scale = min(abs(s(mp.mpf(u) / 2)) for u in range(9))
    return fit(s, 0, 4, scale)


def hankel(nu, which):
    def pq(w):
        if w == 0:
            return mp.mpf(1) if which == "p" else mp.mpf(4 * nu * nu - 1) / 8
        x = 8 / mp.sqrt(w)
        chi = x - (2 * nu + 1) * mp.pi / 4
        a = mp.sqrt(2 / (mp.pi * x))
        j, y = mp.besselj(nu, x), mp.bessely(nu, x)
        if which == "p":
            return (j * mp.cos(chi) + y * mp.sin(chi)) / a
        return (y * mp.cos(chi) - j * mp.sin(chi)) / a * x
    # P is near 1 and x Q near (4 nu^2 - 1) / 8; Q enters J and Y divided by x >= 8
    return fit(pq, 0, 1, 1 if which == "p" else 8)


def rgamma1p():
    return fit(lambda t: 1 / mp.gamma(mp.mpf(1.5) + t), -0.5, 0.5, mp.mpf(1) / mp.gamma(1.5) * 0.8)


def gamma_f32():
    # 0.885: Gamma's least on [1, 2]
    return fit(lambda t: mp.gamma(mp.mpf(1.5) + t), -0.5, 0.5, mp.mpf(0.885),
               target=mp.mpf(2) ** -32)


def erf_f32():
    """The small argument's fit and the quarters' rows, at 2^-30 of 1."""
    target = mp.mpf(2) ** -30
    c0 = 2 / mp.sqrt(mp.pi)

    def g(t):
        if t == 0:
            return -c0 / 3
        x = mp.sqrt(t)
        return (mp.erf(x) / x - c0) / t

    small = fit(g, 0, 1, c0, target=target)[0]
    mids = [1 + (2 * i + 1) * mp.mpf(1) / 8 for i in range(12)]
    n = max(fit(lambda u, m=m: mp.erfc(m + u), -0.125, 0.125, 1, target=target)[1] for m in mids)
    rows = [[float(v) for v in reversed(mp.chebyfit(lambda u, m=m: mp.erfc(m + u),
                                                     [-0.125, 0.125], n))] for m in mids]
    return small, float(c0), float(c0 - mp.mpf(f32(float(c0)))), rows


def j0_f32():
    """The 32 rows (z, coefficients) of J0's float loop, all of one degree."""
    return zero_rows(FUNC["j0"], [mp.besseljzero(0, k) for k in range(1, 22)], range(0, 64, 2),
                     2, [mp.mpf(t) / 8 for t in range(-7, 8)], target=mp.mpf(2) ** -31)


def f32(v):
    """v rounded to a float (through the bits of an IEEE single)."""
    import struct
    return struct.unpack("f", struct.pack("f", float(v)))[0]


def c_float(v):
    text = f"{f32(v):.9g}"
    return text + ("f" if any(ch in text for ch in ".e") else ".0f")


def c_floats(values):
    return ", ".join(c_float(v) for v in values)


def c_array(name, values, indent="    "):
    items = [repr(v) for v in values]
    lines = [", ".join(items[k:k + 3]) for k in range(0, len(items), 3)]
    return f"{indent}static const double {name} = {{\n{indent}    " + \
        f",\n{indent}    ".join(lines) + "};"


def main():
    for name, first in (("j0", 0), ("j1", 0), ("y0", 2), ("y1", 2)):
        rows, n = small_rows(name, first)
        size = len(rows) * (3 + n)
        print(f"    /* rows for [i, i + 1), i = {first}..7: a, z_hi, z_lo, then {n} coefficients */")
        print(f"    static const double rows[{size}] = {{")
        body = []
        for i, (head, coef) in enumerate(rows, first):
            items = [repr(v) for v in (*head, *coef)]
            body.append(f"        /* {i} */ " + ", ".join(items[:3]) + ",\n        " +
                        ",\n        ".join(", ".join(items[k:k + 3]) for k in range(3, len(items), 3)))
        print(",\n".join(body) + "};")
    for nu in (0, 1):
        c, n = log_form(nu)
        print(c_array(f"s{nu}[{n}]", c, "        "))
    for nu in (0, 1):
        for which in ("p", "q"):
            c, n = hankel(nu, which)
            print(c_array(f"{which}{nu}[{n}]", c))
    c, n = rgamma1p()
    print(c_array(f"c[{n}]", c))
    c, n = gamma_f32()
    print(c_array(f"c[{n}]", c))
    small, c0, c0_lo, rows = erf_f32()
    print(f"    static const float small[{len(small)}] = {{\n        {c_floats(small[:5])},\n"
          f"        {c_floats(small[5:])}}};")
    cols = [[r[k] for r in rows] for k in range(len(rows[0]))]  # coefficient-major
    print(f"    static const float quarters[{len(cols)}][{len(rows)}] = {{")
    print(",\n".join(f"        {{{c_floats(c[:6])},\n         {c_floats(c[6:])}}}" for c in cols)
          + "};")
    print(f"    /* 2/sqrt(pi) = {f32(c0):.9g}f + {f32(c0_lo):.9g}f */")
    rows = j0_f32()
    cols = [[r[1][k] for r in rows] for k in range(len(rows[0][1]))]
    print(f"    GPK_ALIGN(128) static const double lo[2][32] = {{")
    print(",\n".join("        {" + ",\n         ".join(", ".join(repr(v) for v in c[k:k + 4])
                                                  for k in range(0, 32, 4)) + "}"
                     for c in cols[:2]) + "};")
    print(f"    GPK_ALIGN(128) static const float hi[{len(cols) - 2}][32] = {{")
    print(",\n".join("        {" + ",\n         ".join(c_floats(c[k:k + 6]) for k in range(0, 32, 6))
                     + "}" for c in cols[2:]) + "};")
    zhi = [f32(float(z)) if z is not None else -1.0 for z, _ in rows]
    zlo = [float(z - mp.mpf(h)) if z is not None else 0.0 for (z, _), h in zip(rows, zhi)]
    print("    GPK_ALIGN(128) static const float zhi[32] = {\n        " +
          ",\n        ".join(c_floats(zhi[k:k + 6]) for k in range(0, 32, 6)) + "};")
    print("    GPK_ALIGN(128) static const double zlo[32] = {\n        " +
          ",\n        ".join(", ".join(repr(v) for v in zlo[k:k + 4]) for k in range(0, 32, 4)) + "};")


if __name__ == "__main__":
    main()
