"""Property tests of gpunp.fft against numpy.fft: every transform on 1-3
dimensional arrays of every dtype and memory layout (transposed, strided,
negative strides, zero-size), every axis and axes combination (negative,
repeated, out of bounds), n and s cropping and padding (and invalid ones),
the norm modes, out= (of NumPy's dtype, another one, a wrong shape), and
NumPy's deprecation of s without axes. Values are compared within
eps * log2(N) of the result's scale, eps that of the precision the
transform computes in (or of the result dtype, if coarser).

On the host backend every test runs twice: as gpunp runs there (through
NumPy's pocketfft), and through the GPU path's Python (crop, pad, fused
axes, normalisation, out=) with the engine's gp_fft replaced by a NumPy
model of its contract. On a GPU the engine itself runs."""

from __future__ import annotations

import contextlib
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp
import gpunp.fft._transforms as transforms

from .outcome import error_kind
from .strategies import ALL_DTYPES, device_arrays

ONE_AXIS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
MANY_AXES = ["fftn", "ifftn", "fft2", "ifft2", "rfftn", "rfft2", "irfftn", "irfft2"]
NORMS = [None, "backward", "ortho", "forward", "sideways"]


# ---- the GPU path's Python on the host ------------------------------------------------------

def _model_engine(kind, x, axes, n_last=0):
    """What gp_fft computes (csrc/include/gp_fft.h), by NumPy, with its
    contract checked: 1-3 distinct axes in range, the dtypes it takes, C2R
    on one axis with n_last//2+1 inputs."""
    axes = list(axes)
    assert 1 <= len(axes) <= 3 and len(set(axes)) == len(axes)
    assert all(0 <= ax < x.ndim for ax in axes)
    h = x.get()
    if kind == transforms._R2C:
        assert h.dtype in (np.float32, np.float64)
        r = np.fft.rfftn(h, axes=axes)
        cdt = np.complex64 if h.dtype == np.float32 else np.complex128
    else:
        assert h.dtype in (np.complex64, np.complex128)
        cdt = h.dtype
        if kind == transforms._FORWARD:
            r = np.fft.fftn(h, axes=axes)
        elif kind == transforms._INVERSE:
            r = np.fft.ifftn(h, axes=axes, norm="forward")
        else:
            assert len(axes) == 1 and h.shape[axes[0]] == n_last // 2 + 1
            r = np.fft.irfft(h, n_last, axis=axes[0], norm="forward")
            cdt = np.float32 if h.dtype == np.complex64 else np.float64
    return gp.asarray(np.ascontiguousarray(r.astype(cdt)))


PATHS = ["native", "device-path"] if gp.backend() == "host" else ["native"]


@contextlib.contextmanager
def _on_path(path):
    """The calls inside run on `path`: gpunp as it runs, or (host only) the
    GPU path's Python over the model engine."""
    if path == "native":
        yield
        return
    saved = transforms._backend, transforms._engine
    transforms._backend, transforms._engine = (lambda: "cuda"), _model_engine
    try:
        yield
    finally:
        transforms._backend, transforms._engine = saved


# ---- comparing one call ---------------------------------------------------------------------

def _run(call):
    """(result or exception, whether a DeprecationWarning was given)."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with np.errstate(all="ignore"):
            try:
                r = call()
                if isinstance(r, gp.ndarray):
                    gp.cuda.Device().synchronize()
            except Exception as exc:  # noqa: BLE001 - NumPy's error is the reference
                r = exc
    return r, any(issubclass(x.category, DeprecationWarning) for x in w)


def _eps(dt) -> float:
    dt = np.dtype(dt)
    if dt.kind not in "fc":
        return 0.0
    return float(np.finfo(dt).eps)


def _check_values(got, want, x_dtype, points):
    g = got.get()
    assert g.dtype == want.dtype, f"dtype {g.dtype} != NumPy's {want.dtype}"
    assert g.shape == want.shape, f"shape {g.shape} != NumPy's {want.shape}"
    # the precision the transform computes in, or the result's if coarser
    eps = max(_eps(np.result_type(x_dtype, np.complex64)), _eps(want.dtype))
    scale = float(np.max(np.abs(want))) if want.size else 0.0
    tol = 8 * eps * max(1.0, math.log2(max(points, 2))) * scale
    # NumPy transforms float32 input in double when out= is complex128; the
    # GPU path in float32 resolves nothing below float32's normal range
    floor = points * np.finfo(np.result_type(x_dtype, np.complex64)).tiny
    np.testing.assert_allclose(g, want, rtol=0, atol=tol + floor)


def _compare(np_call, gp_call, x_dtype, points, out_pair=None, path="native"):
    want, warned = _run(np_call)
    with _on_path(path):
        got, gp_warned = _run(gp_call)
    if isinstance(want, Exception):
        assert isinstance(got, error_kind(want)), f"NumPy raised {want!r}, gpunp gave {got!r}"
        return
    if isinstance(got, Exception):
        raise got
    assert gp_warned == warned, "NumPy's DeprecationWarning, or its absence, differs"
    if out_pair is not None:
        assert (got is out_pair[0]) == (want is out_pair[1]), "out= returned differently"
    if isinstance(want, np.ndarray) and not isinstance(got, gp.ndarray):
        raise AssertionError(f"gpunp returned {type(got).__name__}")
    _check_values(got, np.asarray(want), x_dtype, points)


# ---- inputs -------------------------------------------------------------------------------

def _bounded(h):
    # values of a few units: sums of them stay far from overflow (float16
    # results) and integers convert to floats exactly
    if h.dtype.kind in "fc":
        with np.errstate(over="ignore"):
            return np.where(np.abs(h) > 4, 0.5, h).astype(h.dtype)
    if h.dtype.kind in "iu":
        return (h % 5).astype(h.dtype)
    return h


@st.composite
def operands(draw, max_dims=3):
    dt = draw(st.sampled_from(ALL_DTYPES))
    nd = draw(st.integers(1, max_dims))
    shape = tuple(draw(st.lists(st.integers(0, 6), min_size=nd, max_size=nd)))
    if draw(st.integers(0, 9)) and 0 in shape:  # zero-size now and then
        shape = tuple(max(k, 1) for k in shape)
    g, h = draw(device_arrays(dt, shape, finite=True, specials=False))
    h2 = _bounded(h)
    g[...] = gp.asarray(np.ascontiguousarray(h2))
    return g, h2


@st.composite
def out_arrays(draw, want_shape, want_dtype):
    """A pair of out= arrays (gpunp, NumPy): NumPy's result shape (or a wrong
    one) and its dtype (or another)."""
    dt = draw(st.sampled_from([want_dtype, want_dtype, np.complex64, np.complex128,
                               np.float32, np.float64, np.int64]))
    shape = list(want_shape)
    if shape and draw(st.integers(0, 5)) == 0:
        k = draw(st.integers(0, len(shape) - 1))
        shape[k] += 1
    if draw(st.integers(0, 9)) == 0:
        shape = shape[1:]
    return gp.empty(tuple(shape), dt), np.empty(tuple(shape), dt)


def _compare_out(data, np_fn, gp_fn, h, g, kwargs, points, path):
    """The call again with out= arrays drawn after NumPy's result: NumPy's
    checks of their shape and casting, the result written into them."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want = np_fn(h, **kwargs)
        except Exception:  # noqa: BLE001 - errors were compared already
            return
    if want is h:  # no axes: NumPy hands its input back
        return
    go, ho = data.draw(out_arrays(want.shape, want.dtype))
    _compare(lambda: np_fn(h, out=ho, **kwargs), lambda: gp_fn(g, out=go, **kwargs),
             h.dtype, points, out_pair=(go, ho), path=path)


def _points(h, axes_lengths):
    return max(2, math.prod(max(int(n), 1) for n in axes_lengths) if axes_lengths else 2)


def _numpy(name):
    """numpy.fft.<name>, but zeros for an input empty along a transformed axis
    (the transform of its zero padding): NumPy 2.4's irfft and hfft leave
    that output unwritten, whatever memory held."""
    fn = getattr(np.fft, name)

    def call(h, *args, **kwargs):
        r = fn(h, *args, **kwargs)
        if h.size == 0 and r.size:
            r[...] = 0
        return r
    return call


# ---- the one-axis transforms ----------------------------------------------------------------

@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name", ONE_AXIS)
@given(data=st.data())
def test_one_axis(path, name, data):
    g, h = data.draw(operands())
    nd = h.ndim
    n = data.draw(st.one_of(st.none(), st.integers(-1, 9)))
    axis = data.draw(st.integers(-nd - 1, nd))
    norm = data.draw(st.sampled_from(NORMS))
    kwargs = {}
    if data.draw(st.booleans()):
        kwargs["norm"] = norm
    if data.draw(st.booleans()):
        kwargs["axis"] = axis
    if n is not None or data.draw(st.booleans()):
        kwargs["n"] = n
    np_fn, gp_fn = _numpy(name), getattr(gp.fft, name)
    length = h.shape[kwargs.get("axis", -1)] if -nd <= kwargs.get("axis", -1) < nd else 1
    points = kwargs.get("n") or max(2 * length, 2)
    _compare(lambda: np_fn(h, **kwargs), lambda: gp_fn(g, **kwargs), h.dtype, points,
             path=path)
    _compare_out(data, np_fn, gp_fn, h, g, kwargs, points, path)


# ---- the many-axes transforms ---------------------------------------------------------------

@st.composite
def axes_and_shape(draw, nd, two_d):
    """(kwargs of s and axes): axes default, None or a list (negative,
    repeated, out of bounds, empty); s None, matching, or of another length,
    with -1 and invalid lengths now and then."""
    kwargs = {}
    choice = draw(st.integers(0, 3))
    if choice == 1:
        kwargs["axes"] = None
    elif choice >= 2:
        k = draw(st.integers(0 if choice == 2 else 1, 3))
        kwargs["axes"] = draw(st.lists(st.integers(-nd - (choice == 2), nd - (choice == 3)),
                                       min_size=k, max_size=k))
    if draw(st.booleans()):
        axes = kwargs.get("axes")
        length = len(axes) if axes is not None else (2 if two_d else nd)
        if draw(st.integers(0, 7)) == 0:
            length += draw(st.sampled_from([-1, 1]))
        kwargs["s"] = draw(st.lists(st.integers(-1, 7), min_size=max(length, 0),
                                    max_size=max(length, 0)))
    return kwargs


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name", MANY_AXES)
@given(data=st.data())
def test_many_axes(path, name, data):
    g, h = data.draw(operands())
    kwargs = data.draw(axes_and_shape(h.ndim, name.endswith("2")))
    if data.draw(st.booleans()):
        kwargs["norm"] = data.draw(st.sampled_from(NORMS))
    np_fn, gp_fn = _numpy(name), getattr(gp.fft, name)
    lengths = [n for n in kwargs.get("s") or h.shape if n and n > 0]
    points = _points(h, [2 * n for n in lengths])
    _compare(lambda: np_fn(h, **kwargs), lambda: gp_fn(g, **kwargs), h.dtype, points,
             path=path)
    _compare_out(data, np_fn, gp_fn, h, g, kwargs, points, path)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name", MANY_AXES)
def test_empty_axes_returns_input(path, name):
    # NumPy's loop over no axes returns its input itself (rfftn and irfftn
    # read s[-1] and raise)
    h = np.ones((2, 3))
    g = gp.asarray(h)
    _compare(lambda: getattr(np.fft, name)(h, axes=[]),
             lambda: getattr(gp.fft, name)(g, axes=[]), h.dtype, 2, path=path)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name, kwargs", [("irfft", {"n": 3}), ("hfft", {"n": 2}),
                                          ("irfftn", {"s": [4], "axes": [1]}),
                                          ("irfft2", {"s": [2, 5]}), ("fft", {"n": 3})])
def test_padded_empty_input_gives_zeros(path, name, kwargs):
    # NumPy 2.4 leaves irfft's and hfft's result unwritten here
    h = np.zeros((2, 0), np.complex64)
    with _on_path(path):
        got = getattr(gp.fft, name)(gp.asarray(h), **kwargs).get()
    want = _numpy(name)(h, **kwargs)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert not got.any()


# ---- helpers ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
@given(n=st.one_of(st.integers(-3, 40), st.sampled_from([2.0, np.int32(5), True])),
       d=st.sampled_from([1.0, 0.5, 3, np.float32(0.25), -2.0, 1j]))
def test_frequencies(name, n, d):
    _compare(lambda: getattr(np.fft, name)(n, d), lambda: getattr(gp.fft, name)(n, d),
             np.float64, 2)


@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
@given(data=st.data())
def test_shifts(name, data):
    g, h = data.draw(operands())
    nd = h.ndim
    axes = data.draw(st.one_of(
        st.none(), st.integers(-nd - 1, nd),
        st.lists(st.integers(-nd, nd - 1), min_size=0, max_size=3).map(tuple)))
    want, _ = _run(lambda: getattr(np.fft, name)(h, axes))
    got, _ = _run(lambda: getattr(gp.fft, name)(g, axes))
    if isinstance(want, Exception):
        assert isinstance(got, error_kind(want)), (want, got)
        return
    if isinstance(got, Exception):
        raise got
    np.testing.assert_array_equal(got.get(), want, strict=True)


@pytest.mark.parametrize("name", ONE_AXIS + MANY_AXES + ["fftshift", "ifftshift"])
def test_numpy_dispatches(name):
    # numpy.fft.<name>(gpunp array) runs gpunp.fft.<name> (NEP 18)
    g = gp.asarray(np.arange(12.0).reshape(3, 4))
    r = getattr(np.fft, name)(g)
    assert isinstance(r, gp.ndarray)
    np.testing.assert_allclose(r.get(), getattr(np.fft, name)(g.get()), rtol=1e-12, atol=1e-12)
