"""Type tests, value clean-ups, printing and files against NumPy:
iscomplexobj, isrealobj, iscomplex, isreal, isposinf, isneginf, fix,
nan_to_num, real_if_close, common_type, isfortran, min_scalar_type on every
dtype and layout (NaN and infinities included); array2string/array_repr/
array_str; save/load/savez/savetxt/loadtxt round trips; the functions
through numpy.f(gpunp_array)."""

from __future__ import annotations

import io
import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp

from .outcome import host, same_outcome
from .strategies import assert_same, device_arrays, dtypes, shapes


def _quietly(fn):
    def run(*args):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return fn(*args)
    return run


def _warnings_of(call) -> list:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            call()
        except (TypeError, ValueError):
            pass
    return [w.category for w in seen]


@pytest.mark.parametrize("name", ["iscomplex", "isreal", "isposinf", "isneginf", "fix",
                                  "real_if_close", "iscomplexobj", "isrealobj"])
@pytest.mark.parametrize("how", ["gpunp", "numpy"])
@given(data=st.data())
def test_value_tests_match_numpy(name, how, data):
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(0, 3), label="shape")), label="arrays")
    if name == "real_if_close" and dt.kind == "c" and data.draw(st.booleans(), label="tiny"):
        with np.errstate(all="ignore"):
            x = (x.real + 1e-30j * x.imag).astype(dt)  # imaginary parts within tol
        g = gp.asarray(x)
    fn = getattr(gp if how == "gpunp" else np, name)
    want_fn = getattr(np, name)
    if name == "fix":  # deprecated in NumPy 2.5: gpunp warns exactly when NumPy does
        assert _warnings_of(lambda: fn(g)) == _warnings_of(lambda: want_fn(x))
        fn, want_fn = _quietly(fn), _quietly(want_fn)
    got, want = same_outcome(lambda: want_fn(x), lambda: fn(g))
    if want is None:
        return
    if isinstance(want, bool):
        assert got is want
    else:
        assert_same(got, want)


@given(data=st.data())
def test_nan_to_num_matches_numpy(data):
    dt = data.draw(dtypes(), label="dtype")
    g, x = data.draw(device_arrays(dt, data.draw(shapes(0, 3), label="shape")), label="arrays")
    kw = {}
    for k in ("nan", "posinf", "neginf"):
        if data.draw(st.booleans(), label=k):
            kw[k] = data.draw(st.sampled_from([0.0, -1.5, 7, 1e300]), label=f"{k}=")
    copy = data.draw(st.booleans(), label="copy")
    got, want = same_outcome(lambda: np.nan_to_num(x.copy(), copy=copy, **kw),
                             lambda: gp.nan_to_num(g, copy=copy, **kw))
    if want is None:
        return
    assert_same(got, want)
    if not copy:
        assert got is g  # in place (or untouched), as NumPy
    else:
        assert got is not g


def test_common_type_isfortran_min_scalar_type():
    a, b = gp.ones(3, np.float32), gp.ones(3, np.int16)
    assert gp.common_type(a, b) is np.common_type(a.get(), b.get())
    assert np.common_type(a) is np.float32
    f = gp.ones((2, 3)).T
    assert gp.isfortran(f) and not gp.isfortran(gp.ones((2, 3))) and not gp.isfortran(gp.ones(3))
    assert gp.min_scalar_type(gp.asarray(300)) == np.min_scalar_type(300)
    assert gp.min_scalar_type(gp.ones(3, np.int32)) == np.min_scalar_type(np.ones(3, np.int32))
    with pytest.raises(TypeError):
        gp.isposinf(gp.ones(2, np.complex64))


def test_printing_is_numpys_of_the_values():
    x = np.array([[1.5, np.nan], [-np.inf, 1e-9]])
    g = gp.asarray(x)
    assert gp.array2string(g, precision=2) == np.array2string(x, precision=2)
    assert np.array_repr(g) == np.array_repr(x) == repr(g)
    assert np.array_str(g) == np.array_str(x) == str(g)
    y = gp.asarray([1.23456, 2.0])
    with gp.printoptions(precision=2):
        assert repr(y) == "array([1.23, 2.  ])"


def test_files_round_trip_through_the_device(tmp_path):
    x = np.arange(12.0).reshape(3, 4)
    g = gp.asarray(x)
    f = io.BytesIO()
    np.save(f, g)  # numpy.save of a gpunp array: gpunp's save
    f.seek(0)
    y = gp.load(f)
    assert isinstance(y, gp.ndarray)
    assert_same(y, x)
    path = tmp_path / "two.npz"
    gp.savez(path, g, b=g[0])
    with gp.load(path) as z:
        assert sorted(z.files) == ["arr_0", "b"]
        assert isinstance(z["b"], gp.ndarray)
        assert_same(z["arr_0"], x)
    txt = tmp_path / "x.txt"
    gp.savetxt(txt, g)
    back = gp.loadtxt(txt)
    assert isinstance(back, gp.ndarray)
    assert_same(back, np.loadtxt(txt))
    assert_same(gp.fromstring("1 2 3", sep=" "), np.fromstring("1 2 3", sep=" "))


def test_errstate_governs_numpy_only():
    """gpunp's kernels give IEEE results without floating-point warnings
    (docs/differences.md); the errstate family is NumPy's."""
    with gp.errstate(divide="raise"):
        assert gp.geterr()["divide"] == "raise"
        assert float(host(gp.asarray(1.0) / 0)) == np.inf
    assert gp.errstate is np.errstate
