"""Property tests of the legacy polynomial functions against NumPy: random
coefficient arrays of every dtype (leading and trailing zeros, length 1 and
0 where NumPy takes them), x of any shape or a Python scalar, and the
errors NumPy raises. Sums of products are compared within a few ulps of the
sum of magnitudes; polyfit within the scaled Vandermonde matrix's condition
number times eps; roots as multisets (each NumPy root matched to the
nearest unused one) within a tolerance set by the roots' separation."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import assume, given, strategies as st

import gpunp as gp

from .outcome import host, quiet, same_outcome
from .strategies import assert_same, bounded_values, device_arrays, dtypes, shapes


def _vals(dt, bound=10):
    dt = np.dtype(dt)
    return bounded_values(dt, bound if dt.kind in "iu" else 10.0)


def _coefs(data, label, dt=None, max_len=6, min_len=0):
    dt = dt if dt is not None else data.draw(dtypes(), label=f"dtype {label}")
    n = data.draw(st.integers(min_len, max_len), label=f"len {label}")
    g, h = data.draw(device_arrays(dt, (n,), values=_vals(dt)), label=label)
    lead = data.draw(st.integers(0, 2), label=f"leading zeros {label}")
    if lead and n:
        h = np.concatenate((np.zeros(lead, h.dtype), h))
        g = gp.asarray(h)
    return g, h


def _eps(dt) -> float:
    dt = np.dtype(dt)
    return float(np.finfo(dt).eps) if dt.kind in "fc" else 0.0


def _close(got, want, magnitude, ulps=16):
    """Values within `ulps` eps of `magnitude` (the sum of the terms' sizes)."""
    w = np.asarray(want)
    eps = _eps(w.dtype)
    if eps == 0.0:
        assert_same(got, want)
    else:
        assert_same(got, want, rtol=ulps * eps, atol=ulps * eps * magnitude)


@given(data=st.data())
def test_polyval_matches_numpy(data):
    gp_p, p = _coefs(data, "p")
    dx = data.draw(dtypes(), label="dtype x")
    if data.draw(st.booleans(), label="scalar x"):
        x = data.draw(st.one_of(st.integers(-3, 3), st.floats(-3, 3)), label="x")
        gx = x
    else:
        gx, x = data.draw(device_arrays(dx, data.draw(shapes(max_dims=3), label="shape"),
                                        values=_vals(dx, 3)), label="x")
    got, want = same_outcome(lambda: np.polyval(p, x), lambda: gp.polyval(gp_p, gx))
    if want is None:
        return
    with quiet():
        mag = np.polyval(np.abs(p.astype(np.complex128)), np.abs(np.asarray(x, np.complex128)))
    _close(got, want, np.max(np.abs(mag), initial=1.0))


@pytest.mark.parametrize("name", ["polyadd", "polysub", "polymul"])
@given(data=st.data())
def test_polyadd_polysub_polymul_match_numpy(name, data):
    g1, a1 = _coefs(data, "a1")
    g2, a2 = _coefs(data, "a2")
    if data.draw(st.booleans(), label="a2 as a list"):
        g2 = a2 = a2.tolist()
    got, want = same_outcome(lambda: getattr(np, name)(a1, a2),
                             lambda: getattr(gp, name)(g1, g2))
    if want is None:
        return
    mag = np.abs(np.asarray(a1, np.complex128)).sum() * np.abs(np.asarray(a2, np.complex128)).sum()
    _close(got, want, mag + 1)


def test_polymul_of_a_matrix_is_numpys_error():
    m = np.ones((2, 2))
    same_outcome(lambda: np.polymul(m, [1]), lambda: gp.polymul(gp.asarray(m), [1]))
    with pytest.raises(ValueError):
        gp.polymul(gp.asarray(m), [1])


@given(data=st.data())
def test_polyder_matches_numpy(data):
    if data.draw(st.booleans(), label="0-d"):
        gp_p, p = data.draw(device_arrays(np.float64, ()), label="p")
    else:
        gp_p, p = _coefs(data, "p", max_len=8)
    m = data.draw(st.integers(-1, 4), label="m")
    got, want = same_outcome(lambda: np.polyder(p, m), lambda: gp.polyder(gp_p, m))
    if want is not None:
        _close(got, want, np.abs(np.asarray(p, np.complex128)).max(initial=1) * 8 ** max(m, 0))


@given(data=st.data())
def test_polyint_matches_numpy(data):
    gp_p, p = _coefs(data, "p")
    m = data.draw(st.integers(-1, 3), label="m")
    kind = data.draw(st.sampled_from(["none", "scalar", "list", "array"]), label="k")
    if kind == "none":
        k = gk = None
    elif kind == "scalar":
        k = gk = data.draw(st.integers(-5, 5), label="k value")
    else:
        dk = data.draw(dtypes("iufc"), label="dtype k")
        gk, k = data.draw(device_arrays(dk, (data.draw(st.integers(0, 4), label="len k"),),
                                        values=_vals(dk)), label="k values")
        if kind == "list":
            gk = k = k.tolist()
    got, want = same_outcome(lambda: np.polyint(p, m, k), lambda: gp.polyint(gp_p, m, gk))
    if want is not None:
        _close(got, want, np.abs(np.asarray(p, np.complex128)).max(initial=1) + 10)


@given(data=st.data())
def test_polydiv_matches_numpy(data):
    gu, u = _coefs(data, "u", max_len=7)
    dv = data.draw(dtypes("biufc"), label="dtype v")
    _, rest = _coefs(data, "v", dt=dv, max_len=3)
    # a divisor whose leading coefficient is far from zero keeps the
    # quotient's growth (and the remainder's leading-zero test) well defined
    lead = data.draw(st.sampled_from([1, 2, 3] if dv.kind != "b" else [1]), label="lead of v")
    v = np.concatenate((np.array([lead], dv), np.trim_zeros(rest, "f")))
    gv = gp.asarray(v)
    got, want = same_outcome(lambda: np.polydiv(u, v), lambda: gp.polydiv(gu, gv))
    if want is None:
        return
    mag = np.abs(u.astype(np.complex128)).sum(initial=1) * 10 ** len(u)
    for g, w in zip(got, want):
        assert_same(g, w, rtol=64 * _eps(w.dtype), atol=64 * _eps(w.dtype) * mag)


def test_polydiv_of_empty_is_numpys_error():
    same_outcome(lambda: np.polydiv([], [1.0]), lambda: gp.polydiv([], [1.0]))
    with pytest.raises(IndexError):
        gp.polydiv([], [1.0])


# ---- polyfit ----------------------------------------------------------------------

@st.composite
def _fit_problem(draw):
    """Distinct, spread sample points, values, optional weights: a well
    conditioned least-squares problem of degree < 5."""
    deg = draw(st.integers(0, 4), label="deg")
    m = draw(st.integers(deg + 1, deg + 8), label="points")
    dt = draw(st.sampled_from([np.float64, np.float64, np.int64, np.float32]), label="dtype")
    jitter = draw(st.lists(st.floats(-0.2, 0.2), min_size=m, max_size=m), label="jitter")
    x = (np.arange(m) + np.array(jitter)) * draw(st.sampled_from([1.0, 0.5, 3.0]))
    x = x.astype(dt) if dt != np.int64 else np.arange(m) * 2 - m
    y2 = draw(st.booleans(), label="2-d y")
    y = draw(st.lists(st.floats(-10, 10), min_size=m * 2, max_size=m * 2), label="y")
    y = np.array(y, dt if dt != np.int64 else np.float64).reshape(m, 2)
    y = y if y2 else y[:, 0]
    w = None
    if draw(st.booleans(), label="weights"):
        w = np.array(draw(st.lists(st.floats(0.5, 2), min_size=m, max_size=m)))
    return x, y, deg, w


def _fit_tolerance(x, deg, w, y, dt):
    lhs = np.vander(np.asarray(x, np.float64), deg + 1)
    if w is not None:
        lhs = lhs * w[:, None]
    lhs = lhs / np.sqrt((lhs * lhs).sum(axis=0))
    cond = np.linalg.cond(lhs)
    return 64 * cond * _eps(dt) * max(np.abs(y).max(), 1.0)


@given(problem=_fit_problem(), full=st.booleans(),
       cov=st.sampled_from([False, True, "unscaled"]))
def test_polyfit_matches_numpy(problem, full, cov):
    x, y, deg, w = problem
    gw = None if w is None else gp.asarray(w)
    got, want = same_outcome(
        lambda: np.polyfit(x, y, deg, full=full, w=w, cov=cov),
        lambda: gp.polyfit(gp.asarray(x), gp.asarray(y), deg, full=full, w=gw, cov=cov))
    if want is None:
        return
    dt = np.result_type(x.dtype, 0.0)
    tol = _fit_tolerance(x, deg, w, y, dt)
    scale = np.abs(np.vander(np.asarray(x, np.float64), deg + 1)).max(axis=0)
    if not isinstance(want, tuple):
        got, want = (got,), (want,)
    c, wc = got[0], want[0]
    # a coefficient of x**k is known to tol / max|x|**k
    atol = (tol / scale)[:, None] if wc.ndim == 2 else tol / scale
    assert host(c).dtype == wc.dtype and host(c).shape == wc.shape
    np.testing.assert_allclose(host(c), wc, rtol=0, atol=np.max(atol) + tol)
    if full:
        _, resids, rank, s, rcond = got
        assert int(rank) == int(want[2])
        assert rcond == want[4]
        assert_same(s, want[3], rtol=tol, atol=tol)
        # a sum of squares: its error is twice the residual times its error
        r = np.sqrt(np.max(want[1], initial=0.0))
        assert_same(resids, want[1], rtol=1e-3, atol=4 * tol * (r + tol) * len(x))
    elif cov:
        v, wv = host(got[1]), want[1]
        assert v.shape == wv.shape and v.dtype == wv.dtype
        np.testing.assert_allclose(v, wv, rtol=1e-4, atol=tol * np.abs(wv).max(initial=0))


@given(data=st.data())
def test_polyfit_rank_warning_is_numpys(data):
    """All points at one x: rank 1 for any degree above 0, NumPy's RankWarning
    (not when full=True, which returns the rank instead)."""
    m = data.draw(st.integers(2, 6), label="points")
    deg = data.draw(st.integers(1, 3), label="deg")
    full = data.draw(st.booleans(), label="full")
    # (a nonzero x: a zero column cannot be scaled, NumPy's SVD then fails)
    x = np.full(m, data.draw(st.floats(0.5, 3), label="x") * data.draw(st.sampled_from([1, -1])))
    y = np.arange(m, dtype=np.float64)
    with warnings.catch_warnings(record=True) as wn:
        warnings.simplefilter("always")
        np.polyfit(x, y, deg, full=full)
    with warnings.catch_warnings(record=True) as wg:
        warnings.simplefilter("always")
        gp.polyfit(gp.asarray(x), gp.asarray(y), deg, full=full)
    kinds = [w.category for w in wn if w.category is np.exceptions.RankWarning]
    assert kinds == [w.category for w in wg if w.category is np.exceptions.RankWarning]


@pytest.mark.parametrize("args", [
    ((1, 2, 3), (1, 2, 3), -1, {}),
    (((1, 2), (3, 4)), (1, 2), 1, {}),
    ((), (), 1, {}),
    ((1, 2, 3), np.ones((3, 2, 2)), 1, {}),
    ((1, 2, 3), (1, 2), 1, {}),
    ((1, 2, 3), (1, 2, 3), 1, {"w": (1, 2)}),
    ((1, 2, 3), (1, 2, 3), 1, {"w": ((1, 2, 3),)}),
    ((1, 2, 3), (1, 2, 3), 2, {"cov": True}),
])
def test_polyfit_errors_are_numpys(args):
    x, y, deg, kw = args
    gkw = {k: gp.asarray(np.asarray(v, float)) for k, v in kw.items() if k == "w"}
    gkw.update({k: v for k, v in kw.items() if k != "w"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.RankWarning)
        got, want = same_outcome(
            lambda: np.polyfit(x, y, deg, **kw),
            lambda: gp.polyfit(gp.asarray(np.asarray(x, float)),
                               gp.asarray(np.asarray(y, float)), deg, **gkw))
    assert want is None


# ---- roots and poly ---------------------------------------------------------------

def _match(got, want, tol):
    """Each of NumPy's roots has its own gpunp root within tol."""
    got = list(np.asarray(got, np.complex128))
    assert len(got) == len(want)
    for r in np.asarray(want, np.complex128):
        d = [abs(r - g) for g in got]
        i = int(np.argmin(d))
        assert d[i] <= tol * max(1.0, abs(r)), (r, got)
        got.pop(i)


@given(data=st.data())
def test_roots_match_numpy(data):
    """Polynomials with known, separated roots (a few of them zero: trailing
    zeros), a scaled leading coefficient and leading zeros; or arbitrary short
    coefficient arrays whose roots are compared by their residual."""
    dt = data.draw(st.sampled_from([np.float64, np.int64, np.float32, np.complex128]),
                   label="dtype")
    if data.draw(st.booleans(), label="from roots"):
        r = data.draw(st.lists(st.integers(-6, 6), max_size=5, unique=True), label="roots")
        lead = data.draw(st.sampled_from([1, 2, -3]), label="lead")
        p = lead * np.poly(np.array(r, float)) if r else np.array([float(lead)])
        lz = data.draw(st.integers(0, 2), label="leading zeros")
        p = np.concatenate((np.zeros(lz), p)).astype(dt)
    else:
        gp_p, p = _coefs(data, "p", dt=dt, max_len=4)
    got, want = same_outcome(lambda: np.roots(p), lambda: gp.roots(gp.asarray(p)))
    if want is None:
        return
    g = host(got)
    assert g.dtype == want.dtype and g.shape == want.shape
    if want.size:
        # roots of a polynomial with roots 6 apart at most 12 wide: eigenvalue
        # perturbation of eps * ||companion|| amplified by the root condition
        comp = np.abs(np.asarray(p, np.complex128)).sum() / np.abs(np.trim_zeros(
            np.asarray(p, np.complex128), "f")[0])
        _match(g, want, 1e4 * np.sqrt(_eps(want.dtype)) * comp)


def test_roots_of_a_matrix_is_numpys_error():
    with pytest.raises(ValueError):
        np.roots(np.ones((2, 2)))
    with pytest.raises(ValueError):
        gp.roots(gp.ones((2, 2)))


@given(data=st.data())
def test_poly_matches_numpy(data):
    kind = data.draw(st.sampled_from(["real", "pairs", "complex", "matrix", "int"]),
                     label="zeros")
    n = data.draw(st.integers(0, 5), label="n")
    vals = st.floats(-4, 4)
    if kind == "matrix":
        a = np.array(data.draw(st.lists(vals, min_size=n * n, max_size=n * n)), float)
        z = a.reshape(n, n)
    elif kind == "pairs":
        re = data.draw(st.lists(vals, min_size=n, max_size=n), label="re")
        im = data.draw(st.lists(vals, min_size=n, max_size=n), label="im")
        c = np.array(re) + 1j * np.array(im)
        z = np.concatenate((c, c.conj()))
    else:
        dt = {"real": np.float32, "complex": np.complex64, "int": np.int16}[kind]
        gz, z = data.draw(device_arrays(dt, (n,), values=bounded_values(dt, 4)), label="z")
    got, want = same_outcome(lambda: np.poly(z), lambda: gp.poly(gp.asarray(z)))
    if want is None:
        return
    w = np.asarray(want)
    g = host(got)
    assert g.dtype == w.dtype and g.shape == w.shape
    if kind == "matrix":
        # the eigenvalues' errors are set by the matrix's conditioning
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6 * 10 ** n)
    else:
        mag = np.poly(-np.abs(np.asarray(z, np.complex128))).real if n else 1.0
        np.testing.assert_allclose(g, w, rtol=0, atol=16 * _eps(w.dtype) * np.max(np.abs(mag)))


@pytest.mark.parametrize("z", [np.ones((2, 3)), np.ones((2, 2, 2)), np.ones((0, 0))])
def test_poly_errors_are_numpys(z):
    got, want = same_outcome(lambda: np.poly(z), lambda: gp.poly(gp.asarray(z)))
    assert want is None


# ---- poly1d -----------------------------------------------------------------------

def _same_poly(got, want, mag=1.0):
    assert isinstance(got, gp.poly1d) and isinstance(want, np.poly1d)
    assert got.variable == want.variable
    _close(got.coeffs, want.coeffs, mag)


@given(data=st.data())
def test_poly1d_matches_numpys(data):
    dt = data.draw(st.sampled_from([np.float64, np.int64, np.complex128, np.float32]),
                   label="dtype")
    g1, c1 = _coefs(data, "c1", dt=dt, max_len=4)
    g2, c2 = _coefs(data, "c2", dt=dt, max_len=3)
    var = data.draw(st.sampled_from([None, "z"]), label="variable")
    got, want = same_outcome(lambda: np.poly1d(c1, variable=var),
                             lambda: gp.poly1d(g1, variable=var))
    if want is None:
        return
    p, q = got, want
    p2, q2 = gp.poly1d(g2), np.poly1d(c2)
    assert repr(p) == repr(q) and str(p) == str(q)
    assert len(p) == len(q) and p.order == q.order
    mag = (np.abs(c1.astype(complex)).sum() + 1) * (np.abs(c2.astype(complex)).sum() + 1)
    s = data.draw(st.sampled_from([2, -1, 0.5]), label="scalar")
    with quiet():
        for op in (lambda a, b: a + b, lambda a, b: a - b, lambda a, b: a * b,
                   lambda a, b: -a + b):
            _same_poly(op(p, p2), op(q, q2), mag)
        for op in (lambda a: a + s, lambda a: s - a, lambda a: a * s, lambda a: s * a,
                   lambda a: a / s, lambda a: a ** 2, lambda a: +a, lambda a: a.deriv(),
                   lambda a: a.integ(2, k=s)):
            _same_poly(op(p), op(q), mag * mag)
        x = data.draw(st.floats(-3, 3), label="x")
        _close(p(gp.asarray(np.array([x, 1.0]))), q(np.array([x, 1.0])), mag * 30)
        _same_poly(p(p2), q(q2), mag ** 4)
        assert (p == p2) == (q == q2) and (p != p2) == (q != q2)
        for k in (-1, 0, 1, 5):
            assert_same(gp.asarray(p[k]), np.asarray(q[k]))
        if q2.coeffs[0] != 0 and abs(complex(q2.coeffs[0])) >= 1:
            for g, w in zip(p / p2, q / q2):
                _same_poly(g, w, mag * 10 ** len(c1))
    with pytest.raises(ValueError):
        p ** -1
    with pytest.raises(ValueError):
        np.poly1d(c1) ** -1


def test_poly1d_of_a_matrix_and_from_roots_are_numpys():
    m = np.ones((2, 2))
    with pytest.raises(ValueError):
        np.poly1d(m)
    with pytest.raises(ValueError):
        gp.poly1d(gp.asarray(m))
    _same_poly(gp.poly1d(gp.asarray([1.0, -2.0, 3.0]), r=True),
               np.poly1d([1.0, -2.0, 3.0], r=True), 100)


def test_poly1d_setitem_and_functions_of_poly1d_are_numpys():
    p, q = gp.poly1d([1.0, 2.0]), np.poly1d([1.0, 2.0])
    p[3], q[3] = 5, 5
    _same_poly(p, q)
    with pytest.raises(ValueError):
        p[-1] = 1
    for name in ("polyadd", "polysub", "polymul"):
        _same_poly(getattr(gp, name)(p, [1, 2]), getattr(np, name)(q, [1, 2]), 100)
    _same_poly(gp.polyder(p), np.polyder(q), 100)
    _same_poly(gp.polyint(p), np.polyint(q), 100)
    _close(gp.polyval(p, gp.asarray([2.0])), np.polyval(q, [2.0]), 100)
    _close(gp.roots(p), np.roots(q), 100, ulps=1e6)
