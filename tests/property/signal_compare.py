"""Comparing gpunp.scipy.signal's answers with SciPy's: the same exception
type, or the same structure (tuples, dicts), shapes, dtypes and values
within a tolerance relative to the largest value."""

from __future__ import annotations

import warnings

import numpy as np

import gpunp as gp


def outcome(f, *args, **kwargs):
    """f's result, or the exception it raised (warnings silenced)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return f(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - the kind of error is compared
        return e


def host(v):
    return gp.asnumpy(v) if isinstance(v, gp.ndarray) else v


def same(g, r, tol=1e-9, path="result"):
    """Assert gpunp's g matches SciPy's r (see the module's docstring)."""
    if isinstance(r, Exception):
        assert isinstance(g, type(r)), f"{path}: SciPy raised {r!r}, gpunp gave {g!r}"
        return
    assert not isinstance(g, Exception), f"{path}: gpunp raised {g!r}"
    if isinstance(r, dict):
        assert set(g) == set(r), (path, set(g), set(r))
        for k in r:
            same(g[k], r[k], tol, f"{path}[{k!r}]")
        return
    if isinstance(r, (tuple, list)) and not isinstance(r, np.ndarray):
        assert len(g) == len(r), (path, len(g), len(r))
        for i, (gg, rr) in enumerate(zip(g, r)):
            same(gg, rr, tol, f"{path}[{i}]")
        return
    if isinstance(r, (bool, np.bool_, str)):
        assert g == r, (path, g, r)
        return
    g, r = np.asarray(host(g)), np.asarray(r)
    assert g.shape == r.shape, (path, g.shape, r.shape)
    assert g.dtype == r.dtype, (path, g.dtype, r.dtype)
    finite = np.abs(r[np.isfinite(r)])
    scale = max(1.0, float(finite.max())) if finite.size else 1.0
    np.testing.assert_allclose(g, r, rtol=tol, atol=tol * scale, equal_nan=True,
                               err_msg=path)
