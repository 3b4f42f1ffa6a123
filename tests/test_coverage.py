"""The NumPy names gpunp claims (tests/coverage_claims.txt): each exists and
is of NumPy's kind, each function NumPy dispatches through
__array_function__ is routed to gpunp (so numpy.f(gpunp_array) stays on the
device), and docs/coverage.md (tools/coverage.py's output) lists each as
implemented and lists nothing gpunp lacks. Only the claimed names are
compared with the document, so a NumPy with a few more names (the H200's
2.5) does not make it stale."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import pathlib

import numpy as np
import pytest

import gpunp as gp
from gpunp import _protocols

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _tool():
    spec = importlib.util.spec_from_file_location("coverage_tool", ROOT / "tools" / "coverage.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


TOOL = _tool()
CLAIMS = TOOL.read_claims()
CLAIMED = [(section, name) for section, names in CLAIMS.items() for name in names]


def _kind(x) -> str:
    if inspect.ismodule(x):
        return "module"
    if isinstance(x, type):
        return "class"
    return "callable" if callable(x) else "value"


def _dispatches(f) -> bool:
    """Whether NumPy hands calls of `f` with gpunp arrays to __array_function__."""
    return type(f).__name__ == "_ArrayFunctionDispatcher"


def test_claims_file_is_sorted_without_repeats():
    for section, names in CLAIMS.items():
        assert names == sorted(set(names)), f"[{section}] not sorted, or a name twice"


@pytest.mark.parametrize("section, name", CLAIMED)
def test_claimed_name_exists_with_numpys_kind(section, name):
    mine = importlib.import_module(dict(TOOL.SECTIONS)[section])
    theirs = importlib.import_module(section)
    assert hasattr(mine, name), f"gpunp lacks {section}.{name}"
    if hasattr(theirs, name):  # a name this NumPy dropped stays claimed
        assert _kind(getattr(mine, name)) == _kind(getattr(theirs, name))


def test_dispatched_claims_are_routed_to_gpunp():
    routed = _protocols.routes()
    missing = [n for s, n in CLAIMED if s == "numpy" and _dispatches(getattr(np, n, None))
               and getattr(np, n) not in routed]
    assert not missing, f"not routed (missing from gpunp.__all__, or NumPy's own): {missing}"


def _device_results(x) -> bool:
    """No NumPy array anywhere in a result (a tuple or list of arrays too)."""
    if isinstance(x, (list, tuple)):
        return all(_device_results(y) for y in x)
    return not isinstance(x, np.ndarray)


# numpy.f(gpunp arrays) for a sample of the routed functions, with arguments
# of their own where one array is not enough
_CALLS = {
    "pad": lambda a: (a, 1), "insert": lambda a: (a, 1, 7), "delete": lambda a: (a, 0),
    "concat": lambda a: ([a, a],), "concatenate": lambda a: ([a, a],),
    "stack": lambda a: ([a, a],), "unstack": lambda a: (a,),
    "matrix_transpose": lambda a: (a,), "cumulative_sum": lambda a: (a, ), "linspace":
    lambda a: (a[0], a[1], 3), "where": lambda a: (a > 2, a, 0), "take": lambda a: (a, [0]),
    "repeat": lambda a: (a, 2), "tile": lambda a: (a, 2), "reshape": lambda a: (a, -1),
    "split": lambda a: (a, 2), "roll": lambda a: (a, 1), "moveaxis": lambda a: (a, 0, 1),
}


@pytest.mark.parametrize("name", sorted(n for s, n in CLAIMED if s == "numpy"
                                        and _dispatches(getattr(np, n, None))))
def test_numpy_functions_on_gpunp_arrays_stay_on_the_device(name):
    a = gp.arange(6.0).reshape(2, 3)
    args = _CALLS.get(name, lambda a: (a,))(a)
    try:
        want = getattr(gp, name)(*args)
    except Exception as exc:  # noqa: BLE001 - one array is not this function's call
        with pytest.raises(type(exc)):
            getattr(np, name)(*args)
        return
    got = getattr(np, name)(*args)
    assert _device_results(got), f"numpy.{name} returned host data"
    assert type(got) is type(want)


def test_fromiter_and_frombuffer_with_like_stay_on_the_device():
    a = gp.ones(2)
    assert isinstance(np.fromiter(range(3), float, like=a), gp.ndarray)
    assert isinstance(np.frombuffer(b"\x01\x02", np.uint8, like=a), gp.ndarray)


def test_coverage_doc_lists_the_claims_and_only_what_gpunp_has():
    doc = TOOL.parse((ROOT / "docs" / "coverage.md").read_text())
    for section, names in CLAIMS.items():
        listed = doc.get(section, {})
        for name in names:
            if name in TOOL.public_names(section):
                assert listed.get(name) is True, \
                    f"docs/coverage.md does not list {section}.{name}: run tools/coverage.py"
        mine = TOOL.gpunp_module(dict(TOOL.SECTIONS)[section])
        wrong = [n for n, ok in listed.items() if ok and not hasattr(mine, n)]
        assert not wrong, f"docs/coverage.md claims what gpunp lacks: {wrong}"


def test_generator_derives_implemented_from_gpunp():
    have = TOOL.implemented("numpy")
    assert have["pad"] and have["concatenate"]
    assert all(ok == hasattr(gp, n) for n, ok in have.items())
    text = TOOL.render()
    assert "| `pad` | yes |" in text and TOOL.parse(text)["numpy"] == have


@pytest.mark.parametrize("section, gp_name", TOOL.SCIPY_SECTIONS)
def test_scipy_part_is_current(section, gp_name):
    """docs/coverage.md's SciPy part says yes exactly where gpunp.scipy has the
    name (both ways, for every name it lists): run tools/coverage.py after
    adding one. Names a newer SciPy adds are not compared."""
    listed = TOOL.parse((ROOT / "docs" / "coverage.md").read_text()).get(section)
    assert listed, f"docs/coverage.md has no section {section}: run tools/coverage.py"
    mine = TOOL.gpunp_module(gp_name)
    stale = [n for n, ok in listed.items() if ok != (mine is not None and hasattr(mine, n))]
    assert not stale, f"docs/coverage.md is out of date for {stale}: run tools/coverage.py"


#: cupyx.scipy's names, per group of SciPy's modules (CuPy 14.2)
CUPY_NAMES = ((("scipy.sparse", "scipy.sparse.linalg", "scipy.sparse.csgraph"), 63),
              (("scipy.linalg",), 21), (("scipy.fft",), 34), (("scipy.fftpack",), 9),
              (("scipy.signal", "scipy.signal.windows"), 179), (("scipy.ndimage",), 70),
              (("scipy.interpolate",), 29), (("scipy.stats",), 5),
              (("scipy.spatial", "scipy.spatial.distance"), 24), (("scipy.special",), 108))


@pytest.mark.parametrize("modules, cupy", CUPY_NAMES, ids=lambda v: str(v))
def test_scipy_has_at_least_cupys_names(modules, cupy):
    """gpunp.scipy has at least as many of SciPy's names as cupyx.scipy, by
    the coverage page's count."""
    assert sum(sum(TOOL.implemented(s).values()) for s in modules) >= cupy
