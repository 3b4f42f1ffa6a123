"""Property tests of gpunp.scipy.fft's cosine and sine transforms against
scipy.fft: drawn dtypes (float32/64, complex64/128, integers), shapes of one
to three axes, memory layouts (strided, reversed, transposed), axis, n
(cropping and padding), type, norm and orthogonalize. Values are compared
within eps * log2(N) of the result's scale, eps of the transform's
precision; invalid arguments must raise SciPy's exception type."""

from __future__ import annotations

import math

import numpy as np
import scipy.fft as sf
from hypothesis import given, settings, strategies as st

import gpunp as gp
import gpunp.scipy.fft as gf

from .strategies import bounded_values, device_arrays, shapes

SETTINGS = settings(max_examples=25)
DTYPES = ["float32", "float64", "complex64", "complex128", "int16"]


def _signal(dtype, shape):
    # bounded so that no sum overflows: where a transform overflows near the
    # largest float depends on the order of its additions
    values = None if np.dtype(dtype).kind in "iu" else bounded_values(np.dtype(dtype), 1e6)
    return device_arrays(dtype, shape, finite=True, values=values)


def _compare(got, want, n):
    g = got.get()
    assert g.dtype == want.dtype and g.shape == want.shape
    eps = np.finfo(want.dtype).eps
    scale = max(1.0, float(np.abs(want).max(initial=0)))
    np.testing.assert_allclose(g, want, rtol=0, atol=8 * eps * max(1, math.log2(n + 1)) * scale)


def _outcome(fn):
    try:
        return fn(), None
    except Exception as e:  # the exception's type is what is compared
        return None, type(e)


@SETTINGS
@given(st.data(), st.sampled_from(["dct", "idct", "dst", "idst"]), st.sampled_from(DTYPES),
       shapes(1, 3, 0, 6), st.integers(1, 4), st.sampled_from([None, "ortho", "forward"]),
       st.sampled_from([None, True, False]))
def test_one_axis(data, kind, dtype, shape, type_, norm, orth):
    x, h = data.draw(_signal(dtype, shape))
    axis = data.draw(st.integers(-len(shape) - 1, len(shape)))
    n = data.draw(st.one_of(st.none(), st.integers(-1, 9)))
    want, err = _outcome(lambda: getattr(sf, kind)(h, type=type_, n=n, axis=axis, norm=norm,
                                                   orthogonalize=orth))
    if err is not None:
        try:
            getattr(gf, kind)(x, type=type_, n=n, axis=axis, norm=norm, orthogonalize=orth)
        except err:
            return
        raise AssertionError(f"SciPy raised {err.__name__}, gpunp did not")
    got = getattr(gf, kind)(x, type=type_, n=n, axis=axis, norm=norm, orthogonalize=orth)
    _compare(got, want, want.shape[axis] if want.ndim else 1)


@SETTINGS
@given(st.data(), st.sampled_from(["dctn", "idctn", "dstn", "idstn"]),
       st.sampled_from(["float64", "complex64"]), shapes(1, 3, 1, 5), st.integers(1, 4),
       st.sampled_from([None, "ortho", "forward"]))
def test_many_axes(data, kind, dtype, shape, type_, norm):
    x, h = data.draw(_signal(dtype, shape))
    nd = len(shape)
    axes = data.draw(st.one_of(st.none(), st.lists(st.integers(-nd, nd - 1), min_size=1,
                                                  max_size=nd, unique_by=lambda a: a % nd)))
    s = None
    if data.draw(st.booleans()):
        s = data.draw(st.lists(st.integers(2, 6), min_size=len(axes) if axes else 1,
                               max_size=len(axes) if axes else nd))
    want, err = _outcome(lambda: getattr(sf, kind)(h, type=type_, s=s, axes=axes, norm=norm))
    if err is not None:
        try:
            getattr(gf, kind)(x, type=type_, s=s, axes=axes, norm=norm)
        except err:
            return
        raise AssertionError(f"SciPy raised {err.__name__}, gpunp did not")
    got = getattr(gf, kind)(x, type=type_, s=s, axes=axes, norm=norm)
    _compare(got, want, max(want.shape))


ND = ["fftn", "ifftn", "fft2", "ifft2", "rfftn", "rfft2", "irfftn", "irfft2", "hfftn", "hfft2",
      "ihfftn", "ihfft2"]


@SETTINGS
@given(st.data(), st.sampled_from(ND), shapes(1, 3, 1, 5),
       st.sampled_from([None, "backward", "ortho", "forward"]))
def test_complex_and_real_transforms_s_and_axes(data, name, shape, norm):
    real_in = name.startswith(("rfft", "ihfft"))
    x, h = data.draw(_signal("float64" if real_in else "complex128", shape))
    nd = len(shape)
    axes = data.draw(st.one_of(st.none(), st.lists(st.integers(-nd - 1, nd), max_size=nd)))
    s = data.draw(st.one_of(st.none(), st.lists(st.one_of(st.just(-1), st.integers(0, 6)),
                                               max_size=nd + 1)))
    kw = {} if name.endswith("2") and axes is None else {"axes": axes}
    want, err = _outcome(lambda: getattr(sf, name)(h, s=s, norm=norm, **kw))
    if err is not None:
        try:
            getattr(gf, name)(x, s=s, norm=norm, **kw)
        except err:
            return
        raise AssertionError(f"SciPy raised {err.__name__}, gpunp did not")
    got = getattr(gf, name)(x, s=s, norm=norm, **kw)
    _compare(got, want, max(want.shape, default=1))


@SETTINGS
@given(st.data(), st.sampled_from(["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]),
       st.sampled_from(["float32", "float64", "complex64", "complex128"]),
       shapes(1, 3, 0, 5), st.sampled_from([None, "ortho", "forward"]))
def test_one_axis_transforms(data, name, dtype, shape, norm):
    x, h = data.draw(_signal(dtype, shape))
    axis = data.draw(st.integers(-len(shape) - 1, len(shape)))
    n = data.draw(st.one_of(st.none(), st.integers(-1, 7)))
    want, err = _outcome(lambda: getattr(sf, name)(h, n=n, axis=axis, norm=norm))
    if err is not None:
        try:
            getattr(gf, name)(x, n=n, axis=axis, norm=norm)
        except err:
            return
        raise AssertionError(f"SciPy raised {err.__name__}, gpunp did not")
    got = getattr(gf, name)(x, n=n, axis=axis, norm=norm)
    _compare(got, want, max(want.shape, default=1))
