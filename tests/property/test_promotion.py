"""Type promotion, casting rules and ufunc loop resolution against NumPy.

None of these run a kernel, so every case is enumerated (all pairs and
triples of gpunp's 14 dtypes, every casting rule, every ufunc of the op
table) rather than sampled."""

from __future__ import annotations

import functools
import itertools
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

import gpunp as gp
from gpunp._ufunc import UFUNCS

from property.strategies import ALL_DTYPES

CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")
PY_TYPES = (bool, int, float, complex)
# Python scalars: weak under NEP 50, their values never change the result
# (except alone, where an int past int64 needs NumPy's object dtype).
PY_VALUES = (True, False, 0, 1, -1, 300, -300, 2**31, 2**63 - 1, 2**63, 2**64 - 1, 2**64,
             -2**63, -2**63 - 1, 2**100, 1.0, -0.0, float("nan"), float("inf"), 1e300, 1j,
             complex(1e300, -1))
NAMES = sorted(UFUNCS)


def outcome(fn, *args, **kwargs):
    """fn's result, or the builtin class of the exception it raised."""
    try:
        return fn(*args, **kwargs)
    except (TypeError, ValueError, OverflowError) as e:
        for cls in (TypeError, OverflowError, ValueError):
            if isinstance(e, cls):
                return cls
        raise


def expected(value):
    """NumPy's answer as gpunp must give it: a dtype gpunp lacks (object,
    for a lone Python int past int64) must be refused with a TypeError."""
    if isinstance(value, np.dtype) and value not in ALL_DTYPES:
        return TypeError
    if isinstance(value, tuple) and any(d not in ALL_DTYPES for d in value):
        return TypeError
    return value


class Mismatches:
    """Collects every case where gpunp and NumPy disagree, so that one run
    shows the whole pattern rather than the first case."""

    def __init__(self):
        self.cases = []

    def __call__(self, got, want, what):
        if got != expected(want):
            self.cases.append(f"{what}: gpunp {got!r}, NumPy {want!r}")

    def check(self):
        shown = "\n".join(self.cases[:30])
        assert not self.cases, f"{len(self.cases)} mismatches, the first:\n{shown}"


@pytest.fixture
def same():
    m = Mismatches()
    yield m
    m.check()


# ---- result_type / promote_types ------------------------------------------------------

def test_result_type_every_pair(same):
    for a, b in itertools.product(ALL_DTYPES, repeat=2):
        same(outcome(gp.result_type, a, b), outcome(np.result_type, a, b), (a, b))
        same(outcome(gp.promote_types, a, b), outcome(np.promote_types, a, b), (a, b))


def test_result_type_every_triple(same):
    for t in itertools.product(ALL_DTYPES, repeat=3):
        same(outcome(gp.result_type, *t), outcome(np.result_type, *t), t)


def test_result_type_single_and_arrays_and_numpy_scalars(same):
    for d in ALL_DTYPES:
        same(outcome(gp.result_type, d), outcome(np.result_type, d), d)
        ga, ha = gp.zeros(2, d), np.zeros(2, d)
        s = d.type(0)
        for e in ALL_DTYPES:
            # arrays and NumPy scalars are strong: only their dtype counts
            same(outcome(gp.result_type, ga, e), outcome(np.result_type, ha, e), (d, "array", e))
            same(outcome(gp.result_type, s, e), outcome(np.result_type, s, e), (d, "scalar", e))


def test_result_type_python_scalars(same):
    for v in PY_VALUES:
        same(outcome(gp.result_type, v), outcome(np.result_type, v), v)
        for d in ALL_DTYPES:
            same(outcome(gp.result_type, d, v), outcome(np.result_type, d, v), (d, v))
            same(outcome(gp.result_type, v, d), outcome(np.result_type, v, d), (v, d))
        for w in PY_VALUES:
            same(outcome(gp.result_type, v, w), outcome(np.result_type, v, w), (v, w))


def test_result_type_two_dtypes_and_a_python_scalar(same):
    for a, b in itertools.product(ALL_DTYPES, repeat=2):
        for v in (True, 1, 2**64, 1.0, 1j):
            same(outcome(gp.result_type, a, v, b), outcome(np.result_type, a, v, b), (a, v, b))


def test_result_type_python_types(same):
    # the types themselves (not values) are dtype-likes: int is int64, strong
    for t in PY_TYPES:
        same(outcome(gp.result_type, t), outcome(np.result_type, t), t)
        for d in ALL_DTYPES:
            same(outcome(gp.result_type, d, t), outcome(np.result_type, d, t), (d, t))
            same(outcome(gp.result_type, t, d), outcome(np.result_type, t, d), (t, d))


# ---- can_cast ------------------------------------------------------------------------

def test_can_cast_every_pair_and_rule(same):
    for a, b in itertools.product(ALL_DTYPES, repeat=2):
        for c in CASTINGS:
            same(outcome(gp.can_cast, a, b, c), outcome(np.can_cast, a, b, c), (a, b, c))
        # the default rule is 'safe'
        same(outcome(gp.can_cast, a, b), outcome(np.can_cast, a, b), (a, b))


def test_can_cast_scalars_and_bad_rule(same):
    for d in ALL_DTYPES:
        s = d.type(1)
        for e in ALL_DTYPES:
            same(outcome(gp.can_cast, s, e), outcome(np.can_cast, s, e), (s, e))
        for v in (1, 1.0, 1j, True):
            same(outcome(gp.can_cast, v, d), outcome(np.can_cast, v, d), (v, d))
        same(outcome(gp.can_cast, d, d, "sometimes"), outcome(np.can_cast, d, d, "sometimes"),
             (d, "bad rule"))


# ---- ufunc.resolve_dtypes ----------------------------------------------------------------
#
# NumPy caches ufunc dispatch, and calls made earlier in a process change what
# resolve_dtypes answers later (after numpy.equal.reduce(int8, dtype=bool),
# resolve_dtypes((bool, int8, None), signature=(None, None, bool)) raises
# TypeError; in a new process it gives int8). NumPy's answers are therefore
# taken from a new interpreter, all at once.

def _resolve_cases(nin):
    """Every input tuple of dtypes, then every one with Python types (weak)."""
    yield from itertools.product(ALL_DTYPES, repeat=nin)
    weak_or_dtype = list(ALL_DTYPES) + list(PY_TYPES)
    for t in itertools.product(weak_or_dtype, repeat=nin):
        if any(x in PY_TYPES for x in t):
            yield t


def _signatures(nin, nout):
    """Signatures that fix every operand, only the outputs (dtype=), only the
    first or the last input, to each dtype; and the mixed int64/uint64 ones."""
    for d in ALL_DTYPES:
        yield (d,) * (nin + nout)
        yield (None,) * nin + (d,) * nout
        yield (d,) + (None,) * (nin + nout - 1)
        if nin > 1:
            yield (None,) * (nin - 1) + (d,) + (None,) * nout
    if nin == 2:
        i8, u8 = np.dtype("int64"), np.dtype("uint64")
        yield from ((i8, u8, None), (u8, i8, None), (i8, u8) + (np.dtype(bool),) * nout)


def _calls(kind, nin, nout):
    """The (dtypes, keyword arguments) of every resolve_dtypes call of a test."""
    if kind == "inputs":
        for ins in _resolve_cases(nin):
            yield ins + (None,) * nout, {}
    elif kind == "output dtype":
        for ins in itertools.product(ALL_DTYPES, repeat=nin):
            for out in ALL_DTYPES:
                yield ins + (out,) * nout, {}
    elif kind == "casting, dtype=":
        for ins in itertools.product(ALL_DTYPES, repeat=nin):
            args = ins + (None,) * nout
            for c in CASTINGS:
                yield args, {"casting": c}
            for sig_dt in ALL_DTYPES:
                # dtype= of a call: the output's dtype fixed, inputs free
                yield args, {"signature": (None,) * nin + (sig_dt,) * nout}
    else:  # "signature under each casting"
        sigs = list(_signatures(nin, nout))
        for ins in itertools.product(ALL_DTYPES, repeat=nin):
            for c in ("safe", "same_kind", "unsafe"):
                for sig in sigs:
                    yield ins + (None,) * nout, {"signature": sig, "casting": c}


KINDS = ("inputs", "output dtype", "casting, dtype=", "signature under each casting")


def numpy_answers() -> dict:
    """NumPy's outcome of every call, per (ufunc name, kind)."""
    out = {}
    for name in NAMES:
        n, g = getattr(np, name), UFUNCS[name]
        for kind in KINDS:
            out[name, kind] = [outcome(n.resolve_dtypes, a, **kw)
                               for a, kw in _calls(kind, g.nin, g.nout)]
    return out


@functools.lru_cache(maxsize=None)
def _fresh_numpy_answers() -> dict:
    tests_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    code = ("import pickle, sys; sys.path.insert(0, %r); "
            "from property import test_promotion as t; "
            "sys.stdout.buffer.write(pickle.dumps(t.numpy_answers()))" % tests_dir)
    # run from the tests folder: from the project's root, `import gpunp` would
    # find the source tree (which has no built engine) before the installed one
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=tests_dir)
    assert r.returncode == 0, r.stderr.decode(errors="replace")
    return pickle.loads(r.stdout)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", NAMES)
def test_resolve_dtypes(name, kind, same):
    g = UFUNCS[name]
    answers = _fresh_numpy_answers()[name, kind]
    for (args, kw), want in zip(_calls(kind, g.nin, g.nout), answers, strict=True):
        same(outcome(g.resolve_dtypes, args, **kw), want, (args, kw))
