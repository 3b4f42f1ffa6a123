"""Bench rows of gpunp.scipy.ndimage's labels, distance transforms and binary
morphology against cupyx.scipy.ndimage (and SciPy itself at the quick
sizes): `rows(quick)` gives the Workload objects; each row compares every
library's answer with SciPy's before it is timed."""

from __future__ import annotations

import functools

import numpy as np

from bench.workloads import Workload, _scipy, _to_host

# SciPy on the host takes seconds a call at the full sizes: it is measured at
# the quick ones only
_HOST_MAX = 1 << 22


@functools.lru_cache(maxsize=3)
def _mask(side, density, seed):
    return np.random.default_rng(seed).random((side, side)) < density


@functools.lru_cache(maxsize=3)
def _want(name, side):
    import scipy.ndimage as ndi
    a = _mask(side, *_INPUTS[name])
    return _CALLS[name](ndi, a)


_INPUTS = {"label": (0.5, 1), "edt": (0.99, 2), "erosion": (0.5, 3)}
_CALLS = {
    "label": lambda ndi, a: ndi.label(a)[0],
    "edt": lambda ndi, a: ndi.distance_transform_edt(a),
    "erosion": lambda ndi, a: ndi.binary_erosion(a, np.ones((3, 3), bool)),
}


def _row(name):
    def make(lib, side):
        ndi = _scipy(lib, "ndimage")
        if ndi is None or (lib.name == "numpy" and side * side > _HOST_MAX):
            return None
        a = lib.asarray(_mask(side, *_INPUTS[name]))

        def fn():
            return _CALLS[name](ndi, a)

        got, want = _to_host(lib, fn()), _want(name, side)
        # labels and erosions are exact; distances are sums of the same squares
        if got.shape != want.shape or not np.array_equal(got, want):
            raise AssertionError(f"{lib.name}'s answer differs from SciPy's")
        return fn
    return make


def rows(quick: bool) -> list:
    lside = 1024 if quick else 8192
    eside = 1024 if quick else 4096
    return [
        Workload(f"ndimage label, {lside}x{lside} random mask (density 0.5)", "ms", lside,
                 _row("label")),
        Workload(f"ndimage distance_transform_edt, {eside}x{eside} (density 0.99 of ones)",
                 "ms", eside, _row("edt")),
        Workload(f"ndimage binary_erosion 3x3, {lside}x{lside} random mask", "ms", lside,
                 _row("erosion")),
    ]
