"""Reductions the kernels read as 16-byte vectors (a block combining one
contiguous run; a thread combining neighbouring outputs, one per lane), and
the layouts just outside those paths (offsets that break the alignment,
rows that are not whole vectors), for every real dtype, against NumPy."""

import numpy as np
import pytest

import gpunp as gp

REAL = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
        "float16", "float32", "float64", "complex64"]

# (shape, view): the view keeps runs aligned, breaks alignment, or strides
LAYOUTS = [((6, 64), lambda a: a), ((6, 64), lambda a: a[1:]), ((6, 64), lambda a: a[:, 1:]),
           ((3, 5, 32), lambda a: a), ((64, 48), lambda a: a[::2]), ((7, 33), lambda a: a),
           ((4, 16, 8), lambda a: a[:, :, :]), ((200,), lambda a: a[3:])]


def _data(dt, shape, seed):
    rng = np.random.default_rng(seed)
    if dt == "bool":
        return rng.random(shape) < 0.5
    if np.dtype(dt).kind in "iu":
        return rng.integers(0, 5, shape).astype(dt)  # small: products stay exact
    # magnitudes near 1, so that products neither overflow nor vanish (where
    # they would, the order of the products decides between inf and nan)
    x = rng.choice([-1.0, 1.0], shape) * (1 + 0.05 * rng.standard_normal(shape))
    if dt.startswith("complex"):
        x = x * np.exp(2j * np.pi * rng.random(shape))
    return x.astype(dt)


def _axes(ndim):
    return [None] + list(range(ndim)) + ([(0, ndim - 1)] if ndim > 2 else [])


@pytest.mark.parametrize("dt", REAL)
@pytest.mark.parametrize("layout", range(len(LAYOUTS)))
def test_reductions_match_numpy(dt, layout):
    shape, view = LAYOUTS[layout]
    h = view(_data(dt, shape, layout))
    g = view(gp.asarray(_data(dt, shape, layout)))
    exact = np.dtype(dt).kind in "biu"
    for axis in _axes(h.ndim):
        for name in ("sum", "prod", "max", "min", "any", "all", "mean"):
            if name in ("max", "min") and dt.startswith("complex"):
                continue
            want = getattr(h, name)(axis=axis)
            got = getattr(g, name)(axis=axis).get()
            assert got.dtype == want.dtype, (name, axis)
            if exact and name != "mean":
                np.testing.assert_array_equal(got, want, err_msg=f"{name} axis={axis}")
            else:
                tol = 2e-2 if dt in ("float16", "complex64", "float32") else 1e-6
                np.testing.assert_allclose(got, want, rtol=tol, atol=tol,
                                           err_msg=f"{name} axis={axis}")
        if not isinstance(axis, tuple) and not dt.startswith("complex"):
            np.testing.assert_array_equal(g.argmax(axis=axis).get(), h.argmax(axis=axis))
            np.testing.assert_array_equal(g.argmin(axis=axis).get(), h.argmin(axis=axis))
