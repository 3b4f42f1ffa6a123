"""The parameter inverses on the incomplete beta function (btdtria,
btdtrib, bdtrik, bdtrin, nbdtrik, nbdtrin, stdtridf, fdtridfd) against
SciPy's.

SciPy's btdtria and btdtrib are Boost's root finders (to full precision);
its others are CDFLIB's searches (dinvr), which stop within 1e-10 of the
root and search within fixed bounds (SciPy 1.17; 1.18 moved bdtrik, bdtrin,
nbdtrik and nbdtrin to Boost's quantiles, whose edges the engine follows
when 1.18 runs, and which test_scipy_118s_edges_and_roots checks under
CI's 1.17). gpunp's roots are its own (to 2 eps),
so a root passes where it is within 1e-8 of SciPy's, or where it solves the
forward function (SciPy's, evaluated at both roots) at least as well as
SciPy's own root does, within 1e-12 of the tail p. That second test is the
one that decides where SciPy's search is inaccurate (bdtrik(1e-300, 1e10,
0.4): SciPy 3994140627.9, whose binomial tail is 1e-290, not 1e-300; gpunp
3998185115.6) and where the computed forward function is flat, so that a
whole stretch of parameters solves it (a tail underflowed to 0 at p = 0 or
1: bdtrin(2, 0, 0.4) is SciPy's 1957.5, where its first step past the
underflow landed, gpunp's 2.2e50, where its first did; stdtridf(0.5, -3):
every df below about 1e-18 gives 1/2), and where Boost's search fails and
SciPy returns NaN though a root exists (btdtria(0.3, 1e300, 0.4) is
gpunp's 6.7e299, whose I_0.4(a, 1e300) is 0.3); a root also passes where
the forward function crosses p within 4 ULPs of it (I_0.4(a, 1e300) goes
from 0 to 1 within 1e-150 of a, no double solves it better). The bounds SciPy returns
where no root is inside its search (CDFLIB's bounds, and stdtridf's -1e100
for a root below 1e-100; Boost's inf and smallest normal number at p = 0
and 1) and its NaNs for arguments outside the domain are matched exactly.

KNOWN: btdtrib(a, p, 1) for p below about 1e-16: SciPy's (Boost's) steps
run below the normal numbers and return a subnormal b (btdtrib(2, 1e-300,
1) = 1.4e-315), though I_1(a, b) = 1 for every b > 0; gpunp returns NaN,
as SciPy does for larger p.

Each hypothesis example is one seed for a few hundred points in one array,
so that every function costs one kernel compile per dtype."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import warnings

import numpy as np
import pytest
import scipy.special as ss
from hypothesis import given, settings, strategies as st

import gpunp as gp
import gpunp.scipy.special as sp

SEEDS = st.integers(0, 2**32 - 1)
NAN, INF = np.nan, np.inf
EPS = np.finfo(np.float64).eps


def _bdtr(k, n, pr):
    """bdtr continuous in k and n (CDFLIB's): I_{1-pr}(n - k, k + 1), 1 from k = n"""
    with np.errstate(all="ignore"):
        return np.where(k < n, ss.betainc(np.maximum(n - k, 0), k + 1, 1 - pr), 1.0)


def _betainc(a, b, x):
    """SciPy's, and where it is NaN for b past 1e8 (a + 1)^1.5 (b = 1e300
    and x = 1e-300) its incomplete gamma limit P(a, -(b + (a - 1) / 2)
    log(1 - x)), whose error is O((a + 1)^3 / b^2)"""
    with np.errstate(all="ignore"):
        v = ss.betainc(a, b, x)
        lim = ss.gammainc(a, -(b + (a - 1) / 2) * np.log1p(-x))
    return np.where(np.isnan(v) & (b > 1e8 * (a + 1) ** 1.5), lim, v)


# the place of p among the arguments, and the lower tail F at the root r
# of the other arguments (SciPy's forward functions)
INVERSES = {
    "btdtria": (0, lambda p, b, x, r: _betainc(r, b, x)),
    "btdtrib": (1, lambda a, p, x, r: _betainc(a, r, x)),
    "bdtrik": (0, lambda p, n, pr, r: _bdtr(r, n, pr)),
    "bdtrin": (1, lambda k, p, pr, r: _bdtr(k, r, pr)),
    "nbdtrik": (0, lambda p, n, pr, r: ss.betainc(n, r + 1, pr)),
    "nbdtrin": (1, lambda k, p, pr, r: ss.betainc(r, k + 1, pr)),
    "stdtridf": (0, lambda p, t, r: ss.stdtr(r, t)),
    "fdtridfd": (1, lambda dfn, p, f, r: ss.fdtr(dfn, r, f)),
}
NAMES = sorted(INVERSES)

P_EDGE = [NAN, -0.1, 0, 1e-300, 0.3, 0.5, 0.7, 1, 1.1]
GRIDS = {
    "btdtria": [P_EDGE, [NAN, -1, 0, 1e-300, 2, 1e300, INF], [NAN, -0.1, 0, 1e-300, 0.4, 1, 1.1]],
    "btdtrib": [[NAN, -1, 0, 1e-300, 2, 1e300, INF], P_EDGE, [NAN, -0.1, 0, 1e-300, 0.4, 1, 1.1]],
    "bdtrik": [P_EDGE, [NAN, -1, 0, 0.5, 3, 50.5, 1e10, INF], [NAN, -0.1, 0, 1e-20, 0.4, 1, 1.1]],
    "bdtrin": [[NAN, -1, 0, 0.5, 2, 50.5, 1e10, INF], P_EDGE, [NAN, -0.1, 0, 1e-20, 0.4, 1, 1.1]],
    "nbdtrik": [P_EDGE, [NAN, -1, 0, 0.5, 3, 50.5, 1e10, INF], [NAN, -0.1, 0, 1e-20, 0.4, 1, 1.1]],
    "nbdtrin": [[NAN, -1, 0, 0.5, 2, 50.5, 1e10, INF], P_EDGE, [NAN, -0.1, 0, 1e-20, 0.4, 1, 1.1]],
    "stdtridf": [P_EDGE, [NAN, -INF, -1e5, -3, -1e-300, 0, 1e-300, 0.5, 3, 1e5, INF]],
    "fdtridfd": [[NAN, -1, 0, 1e-300, 2, 1e10, INF], P_EDGE,
                 [NAN, -1, 0, 1e-300, 0.5, 2, 1e300, INF]],
}


def _known(name, args, ref):
    """SciPy's values replaced where they are KNOWN (module docstring)"""
    if name == "btdtrib":
        return np.where((args[2] == 1) & (args[1] > 0) & (args[1] < 1), NAN, ref)
    return ref


def _scipy(name, args):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _known(name, args, getattr(ss, name)(*args))


def _gpunp(name, args, dtype=np.float64):
    return getattr(sp, name)(*[gp.asarray(np.asarray(a, dtype)) for a in args]).get()


def _residual(name, args, r, signed=False):
    """|tail at r - tail p| (signed: F(r) - p) for the smaller tail (SciPy's
    forward function)"""
    k, lower = INVERSES[name]
    p = args[k]
    up = p > 0.5
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        F = np.asarray(lower(*args, r), np.float64)
    d = F - p if signed else np.abs(np.where(up, (1 - F) - (1 - p), F - p))
    return d, np.where(up, 1 - p, p)


def _check(name, args, got, ref, rtol=1e-8):
    args = [np.asarray(a, np.float64) for a in np.broadcast_arrays(*args)]
    got, ref = np.asarray(got, np.float64), np.asarray(ref, np.float64)
    same = (got == ref) | (np.isnan(got) & np.isnan(ref))
    with np.errstate(all="ignore"):
        close = np.isfinite(ref) & (np.abs(got - ref) <= rtol * np.abs(ref))
    rg, tail = _residual(name, args, got)
    rr, _ = _residual(name, args, ref)
    # SciPy's NaN where a root exists (Boost's search failed): gpunp's
    # root must solve the forward function to 1e-12 of the tail
    rr = np.where(np.isnan(ref), 0.0, rr)
    solves = ~np.isnan(got) & (rg <= 2 * rr + 1e-12 * tail)
    # a root whose tail moves past p within 4 ULPs either side of it (a
    # jump across neighbouring doubles: I_0.4(a, 1e300) goes from 0 to 1
    # within 1e-150 of a)
    with np.errstate(all="ignore"):
        lo, _ = _residual(name, args, got * (1 - 4 * EPS), signed=True)
        hi, _ = _residual(name, args, got * (1 + 4 * EPS), signed=True)
    solves |= np.isfinite(got) & (got != 0) & (np.sign(lo) * np.sign(hi) <= 0)
    # inf for a root past the doubles: the tail has not reached p at 1e308,
    # nor 16 times below it
    with np.errstate(all="ignore"):
        big = 1e308  # (SciPy's betainc is NaN at the largest double)
        top, _ = _residual(name, args, np.full(got.shape, big), signed=True)
        below, _ = _residual(name, args, np.full(got.shape, big / 16), signed=True)
    solves |= (got == INF) & (np.sign(top) * np.sign(below) > 0)
    bad = ~(same | close | solves)
    if bad.any():
        i = np.flatnonzero(bad)[0]
        raise AssertionError(f"{name}{tuple(float(a[i]) for a in args)}: gpunp {got[i]!r}, "
                             f"SciPy {ref[i]!r}; tail residuals {rg[i]:.3g} and {rr[i]:.3g} "
                             f"of {tail[i]:.3g}")


@pytest.mark.parametrize("name", NAMES)
def test_edges_match_scipy(name):
    """NaN, 0, the bounds, the limits of every argument, all combinations"""
    args = [np.array(a) for a in zip(*itertools.product(*GRIDS[name]))]
    _check(name, args, _gpunp(name, args), _scipy(name, args))


def _draw(name, rng, n=200):
    """p uniform, log-uniform down to 1e-300 and up to 1 - 1e-16; the
    parameters log-uniform over the ranges SciPy's own forward functions
    hold their digits in"""
    def lu(lo, hi):
        return 10 ** rng.uniform(lo, hi, n)
    p = rng.uniform(0, 1, n)
    p = np.where(rng.uniform(size=n) < 0.3, lu(-300, -1), p)
    p = np.where(rng.uniform(size=n) < 0.2, 1 - lu(-16, -1), p)
    u = rng.uniform(0, 1, n)
    return {
        "btdtria": (p, lu(-3, 4), u),
        "btdtrib": (lu(-3, 4), p, u),
        "bdtrik": (p, lu(0, 8), u),
        "bdtrin": (lu(-1, 6), p, u),
        "nbdtrik": (p, lu(-1, 6), u),
        "nbdtrin": (lu(-1, 6), p, u),
        "stdtridf": (p, rng.standard_cauchy(n) * 3),
        "fdtridfd": (lu(-2, 4), p, lu(-3, 3)),
    }[name]


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=4, deadline=None)
@given(seed=SEEDS)
def test_hypothesis_matches_scipy(name, seed):
    args = _draw(name, np.random.default_rng(seed))
    _check(name, args, _gpunp(name, args), _scipy(name, args))


@pytest.mark.parametrize("name", NAMES)
def test_float32_loops_match_scipy(name):
    """SciPy's float loops: CDFLIB's in double, rounded; Boost's in float
    (p = 1 for btdtria and p = 0 for btdtrib are float's smallest normal
    number): 4e-6 of SciPy's root or its residual, in double"""
    args = [a.astype(np.float32) for a in _draw(name, np.random.default_rng(7), 100)]
    k, _ = INVERSES[name]
    edge = {"btdtria": 1, "btdtrib": 0}.get(name)
    if edge is not None:
        args[k][:2] = edge
    got = _gpunp(name, args, np.float32)
    ref = _scipy(name, args)
    assert got.dtype == ref.dtype == np.float32
    if edge is not None:
        assert (got[:2] == np.finfo(np.float32).tiny).all()
    _check(name, args, got, ref, rtol=4e-6)


# SciPy 1.18.1's answers where they differ from 1.17's (Boost's edges: p = 0
# and 1, a tail that the count 0 already reaches, pr at 0 or 1, infinite n
# or k; roots anywhere, as bdtrin's 1.2e20 at pr = 1e-20); CI runs 1.17, so
# the engine is switched to 1.18's rows here
V118 = {
    "bdtrik": [((0, 3, 0.4), 0.0), ((1e-300, 3, 1.0), 3.0), ((0.3, 3, 1e-20), 0.0),
               ((1, 3, 0.4), 3.0), ((0.3, 0.5, 0.4), 0.0), ((0.3, INF, 0.4), NAN),
               ((0.7, 0, 0.4), 0.0), ((0.3, 3, 0.4), 0.21120666734751725)],
    "bdtrin": [((0, 0, 0.4), INF), ((0, 1, 0.4), 2.2250738585072014e-308), ((2, 1, 0.4), 2.0),
               ((0, 0.3, 0.0), NAN), ((0, 0.3, 1.0), NAN), ((INF, 0.3, 0.4), NAN),
               ((0, 0.3, 1e-20), 1.2039728043259363e+20), ((2, 0.7, 0.4), 4.8765853738701015)],
    "nbdtrik": [((0.3, 0, 0.4), NAN), ((1, 3, 0.4), INF), ((0, 3, 0.4), 0.0), ((0.3, 0.5, 0.4), 0.0),
                ((0.3, 3, 0.0), INF), ((0.3, 3, 1e-20), 1.9137757941270623e+20),
                ((0.7, 3, 0.4), 5.167028401405844), ((0.3, INF, 0.4), NAN)],
    "nbdtrin": [((0, 0.3, 0.0), NAN), ((0, 0.3, 1.0), NAN), ((0, 0, 0.4), NAN), ((0, 1, 0.4), NAN),
                ((INF, 0.3, 0.4), NAN), ((2, 0.3, 0.4), 3.10372372394003),
                ((0, 1e-300, 1e-20), 14.999999999999996)],
}


def test_scipy_118s_edges_and_roots():
    # in a fresh process: a version switch forgets every loaded kernel, which
    # the worker's other tests would then load again (gpunp.scipy.special's
    # import sets the installed SciPy's)
    code = (
        "import json, sys, numpy as np, gpunp as gp, gpunp.engine as engine\n"
        "import gpunp.scipy.special as sp\n"
        "engine.check(engine.lib.gp_set_scipy_version(11800))\n"
        "rows = json.loads(sys.stdin.read())\n"
        "out = {n: getattr(sp, n)(*[gp.asarray(np.array(a, np.float64)) for a in args]).get().tolist()\n"
        "       for n, args in rows.items()}\n"
        "f = [gp.asarray(np.array(a, np.float32)) for a in ([0, 2], [1, 1], [0.4, 0.4])]\n"
        "got = sp.bdtrin(*f).get()\n"
        "out['f32'] = [str(got.dtype)] + got.tolist()\n"
        "print(json.dumps(out))\n")
    rows = {n: [list(a) for a in zip(*[r[0] for r in v])] for n, v in V118.items()}
    r = subprocess.run([sys.executable, "-c", code], input=json.dumps(rows), capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.splitlines()[-1])
    for name, v in V118.items():
        np.testing.assert_allclose(out[name], [w for _, w in v], rtol=1e-8, err_msg=name)
    # the float loop's p = 1: float's smallest normal number past k
    assert out["f32"] == ["float32", float(np.finfo(np.float32).tiny), 2.0]
