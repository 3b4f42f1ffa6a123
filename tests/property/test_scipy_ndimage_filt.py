"""Property tests of gpunp.scipy.ndimage's filters and interpolation
against SciPy: random 1-3 dimensional arrays (length-1 axes included),
window sizes odd and even and larger than the array, origins, every
boundary mode, spline orders 0-5. The dtypes are float64 and, for the
correlations, float32 and int16 (a kernel compiles once per dtype pair, and
a cold CI run pays for each); tests/scipy/test_ndimage_*.py cover every
dtype."""

from __future__ import annotations

import numpy as np
import scipy.ndimage as sn
from hypothesis import given, settings, strategies as st

import gpunp as gp
import gpunp.scipy.ndimage as gn

MODES = ["reflect", "constant", "nearest", "mirror", "wrap", "grid-mirror", "grid-constant",
         "grid-wrap"]
DTYPES = [np.float64, np.float32, np.int16]


@st.composite
def images(draw, dtypes=(np.float64,), max_side=7):
    nd = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(1, max_side), min_size=nd, max_size=nd)))
    dtype = draw(st.sampled_from(dtypes))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape) * (30 if dtype == np.int16 else 1)
    return x.astype(dtype)


@st.composite
def windows(draw, shape):
    size = tuple(draw(st.integers(1, 5)) for _ in shape)
    origin = tuple(draw(st.integers(-(s // 2), (s - 1) // 2)) for s in size)
    return size, origin


def check(name, x, *args, tol=0.0, **kw):
    try:
        r = getattr(sn, name)(x, *args, **kw)
    except Exception as e:  # noqa: BLE001 - the type is compared
        try:
            getattr(gn, name)(gp.asarray(x), *args, **kw)
        except Exception as e2:  # noqa: BLE001
            assert type(e2) is type(e), (e, e2)
            return
        raise AssertionError(f"gpunp did not raise {e!r}") from None
    g = gp.asnumpy(getattr(gn, name)(gp.asarray(x), *args, **kw))
    assert g.dtype == r.dtype and g.shape == r.shape
    if r.dtype.kind in "iu" and tol:
        # a sum of non-integers truncated to an integer: either side of an integer
        np.testing.assert_allclose(g, r, atol=1)
    else:
        scale = max(1.0, float(np.abs(r).max())) if r.size else 1.0
        np.testing.assert_allclose(g, r, rtol=0, atol=tol * scale)


@settings(max_examples=30)
@given(st.data(), images(DTYPES), st.sampled_from(MODES))
def test_correlate_and_convolve(data, x, mode):
    size, origin = data.draw(windows(x.shape))
    w = np.random.default_rng(sum(size)).integers(-3, 4, size).astype(np.float64)
    cval = data.draw(st.sampled_from([0.0, 1.5]))
    tol = 1e-5 if x.dtype == np.float32 else 1e-13
    check("correlate", x, w, mode=mode, cval=cval, origin=origin, tol=tol)
    check("convolve", x, w, mode=mode, cval=cval, origin=origin, tol=tol)
    axis = data.draw(st.integers(0, x.ndim - 1))
    check("correlate1d", x, w.ravel()[:size[0]], axis=axis, mode=mode, cval=cval,
          origin=origin[0], tol=tol)


@settings(max_examples=30)
@given(st.data(), images(), st.sampled_from(MODES))
def test_rank_and_extreme_filters(data, x, mode):
    size, origin = data.draw(windows(x.shape))
    check("minimum_filter", x, size, mode=mode, origin=origin, cval=-0.5)
    check("maximum_filter1d", x, size[0], axis=-1, mode=mode, origin=origin[0])
    fp = np.random.default_rng(len(size)).random(size) > 0.4
    check("maximum_filter", x, footprint=fp, mode=mode, origin=origin)
    if x.ndim > 1:
        check("median_filter", x, footprint=fp, mode=mode, origin=origin)
        if fp.sum() > 2:
            check("rank_filter", x, 1, footprint=fp, mode=mode, origin=origin)
    else:
        # SciPy's 1-d rank path reads past a line shorter than its window
        # (a one-sample input with size 5 and origin 1 gave 1.6e-322): the
        # reference is its N-d path on the same line as a 1 x n image
        r = sn.median_filter(x[None], size=(1,) + size, mode=mode, origin=(0,) + origin)[0]
        g = gn.median_filter(gp.asarray(x), size=size, mode=mode, origin=origin)
        np.testing.assert_array_equal(g.get(), r)
    check("grey_erosion", x, structure=fp.astype(np.int8), mode=mode, origin=origin)


@settings(max_examples=30)
@given(st.data(), images(), st.sampled_from(MODES))
def test_separable_filters(data, x, mode):
    sigma = data.draw(st.floats(0.3, 3.0))
    order = data.draw(st.integers(0, 2))
    size, origin = data.draw(windows(x.shape))
    tol = 1e-5 if x.dtype == np.float32 else 1e-13
    check("gaussian_filter", x, sigma, order=order, mode=mode, tol=tol)
    check("uniform_filter", x, size, mode=mode, origin=origin, tol=tol)
    check("sobel", x, axis=-1, mode=mode, tol=tol)
    check("gaussian_gradient_magnitude", x, sigma, mode=mode, tol=tol)


@settings(max_examples=30)
@given(st.data(), st.sampled_from(MODES), st.integers(0, 5))
def test_map_coordinates_and_zoom(data, mode, order):
    nd = data.draw(st.integers(1, 3))
    # at least 20 samples an axis: SciPy 1.17's reflect prefilter errs on
    # shorter ones (test_ndimage_interp.py says why)
    shape = tuple(data.draw(st.lists(st.integers(20, 24), min_size=nd, max_size=nd)))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    x = rng.standard_normal(shape)
    coords = rng.uniform(-4, 28, (nd, 6))
    r = sn.map_coordinates(x, coords, order=order, mode=mode, cval=0.5)
    g = gn.map_coordinates(gp.asarray(x), gp.asarray(coords), order=order, mode=mode,
                           cval=0.5)
    np.testing.assert_allclose(g.get(), r, rtol=0, atol=1e-11 * max(1, np.abs(r).max()))
    z = data.draw(st.floats(0.5, 2.0))
    check("zoom", x, z, order=order, mode=mode, tol=1e-11)
    check("shift", x, data.draw(st.floats(-5, 5)), order=order, mode=mode, tol=1e-11)
