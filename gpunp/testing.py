"""``gpunp.testing``: NumPy's assertions, accepting gpunp arrays (compared on
the host after an explicit copy), and CuPy's helpers for writing one test
that runs with NumPy and with gpunp (``numpy_gpunp_allclose``,
``for_all_dtypes``, ``shaped_arange``...; docs/testing.md)."""

from __future__ import annotations

import functools
import importlib
import inspect
import math

import numpy
import numpy.testing as _nt

import gpunp
from gpunp._ndarray import ndarray


def _host(x):
    return x.get() if isinstance(x, ndarray) else x


def _wrap(fn):
    def check(actual, desired, *args, **kwargs):
        return fn(_host(actual), _host(desired), *args, **kwargs)
    check.__name__ = fn.__name__
    check.__doc__ = fn.__doc__
    return check


assert_array_equal = _wrap(_nt.assert_array_equal)
assert_array_almost_equal = _wrap(_nt.assert_array_almost_equal)
assert_allclose = _wrap(_nt.assert_allclose)
assert_equal = _wrap(_nt.assert_equal)
assert_array_less = _wrap(_nt.assert_array_less)
assert_array_max_ulp = _wrap(_nt.assert_array_max_ulp)


# ---- one test for NumPy and gpunp (CuPy's cupy.testing helpers) ---------------------------
#
# A test decorated with numpy_gpunp_allclose (or array_equal, equal, raises)
# takes the array module as an argument (`xp` by default) and returns what
# it computed; the decorator runs it once with numpy and once with gpunp and
# compares the two. The dtype decorators run a test once per dtype, passed
# as `dtype`. Both hide their argument from pytest's fixtures.

def _without(f, *names):
    """`f`'s signature less the parameters `names` (None: none), which
    pytest must not look for fixtures of."""
    sig = inspect.signature(f)
    names = {n for n in names if n is not None}
    for name in names:
        if name not in sig.parameters:
            raise TypeError(f"{f.__name__} has no parameter {name!r}")
    return sig.replace(parameters=[p for p in sig.parameters.values() if p.name not in names])


def _modules(use_gpunp):
    """The array module, SciPy's sparse module and SciPy of one side."""
    if use_gpunp:
        return gpunp, "gpunp.scipy.sparse", "gpunp.scipy"
    return numpy, "scipy.sparse", "scipy"


def _run(impl, args, kwargs, name, sp_name, scipy_name, use_gpunp):
    xp, sp, sci = _modules(use_gpunp)
    kw = dict(kwargs)
    kw[name] = xp
    if sp_name is not None:
        kw[sp_name] = importlib.import_module(sp)
    if scipy_name is not None:
        kw[scipy_name] = importlib.import_module(sci)
    try:
        return impl(*args, **kw), None
    except Exception as e:  # compared with the other side's below
        return None, e


def _compare_errors(n_err, g_err, accept_error, test):
    """None when both sides raised compatible accepted errors; raises when
    only one side did, or they differ."""
    if accept_error is True:
        accept_error = Exception
    elif not accept_error:
        accept_error = ()
    if n_err is not None and g_err is not None:
        if isinstance(n_err, accept_error) and isinstance(g_err, accept_error) and \
                isinstance(g_err, type(n_err)):
            return
        raise AssertionError(f"{test}: NumPy raised {type(n_err).__name__}({n_err}) and gpunp "
                             f"{type(g_err).__name__}({g_err})") from g_err
    err, side = (n_err, "NumPy") if n_err is not None else (g_err, "gpunp")
    if not isinstance(err, accept_error):
        raise err
    raise AssertionError(f"{test}: only {side} raised {type(err).__name__}({err})") from err


def _pairs(n_res, g_res, test):
    """The results of both sides, element by element."""
    if isinstance(n_res, (tuple, list)):
        if not isinstance(g_res, (tuple, list)) or len(g_res) != len(n_res):
            raise AssertionError(f"{test}: NumPy gave {len(n_res)} results, gpunp {g_res!r}")
        for n, g in zip(n_res, g_res):
            yield from _pairs(n, g, test)
        return
    if isinstance(n_res, numpy.ndarray) and not isinstance(g_res, ndarray):
        raise AssertionError(f"{test}: NumPy gave an array, gpunp a {type(g_res).__name__} "
                             "(the test computed on the host?)")
    yield n_res, g_res


def _comparing(check, name, type_check, accept_error, sp_name, scipy_name, layout_check=None):
    def decorator(impl):
        @functools.wraps(impl)
        def test(*args, **kwargs):
            n_res, n_err = _run(impl, args, kwargs, name, sp_name, scipy_name, False)
            g_res, g_err = _run(impl, args, kwargs, name, sp_name, scipy_name, True)
            if n_err is not None or g_err is not None:
                _compare_errors(n_err, g_err, accept_error, impl.__name__)
                return
            for n, g in _pairs(n_res, g_res, impl.__name__):
                h = _host(g)
                if type_check and numpy.asarray(n).dtype != numpy.asarray(h).dtype:
                    raise AssertionError(f"{impl.__name__}: dtypes differ: NumPy "
                                         f"{numpy.asarray(n).dtype}, gpunp "
                                         f"{numpy.asarray(h).dtype}")
                if layout_check is not None:
                    layout_check(n, g, impl.__name__)
                check(h, n)
        test.__signature__ = _without(impl, name, sp_name, scipy_name)
        return test
    return decorator


def _same_contiguity(n, g, test):
    if isinstance(n, numpy.ndarray) and isinstance(g, ndarray):
        for order in ("c_contiguous", "f_contiguous"):
            if getattr(n.flags, order) and not getattr(g.flags, order):
                raise AssertionError(f"{test}: NumPy's result is {order}, gpunp's is not")


def _same_strides(n, g, test):
    if isinstance(n, numpy.ndarray) and isinstance(g, ndarray) and n.strides != g.strides:
        raise AssertionError(f"{test}: strides differ: NumPy {n.strides}, gpunp {g.strides}")


def numpy_gpunp_allclose(rtol=1e-7, atol=0, err_msg="", verbose=True, name="xp",
                         type_check=True, accept_error=False, sp_name=None, scipy_name=None,
                         contiguous_check=True):
    """Runs the test with ``xp=numpy`` and ``xp=gpunp`` and checks that the
    results agree to ``assert_allclose(rtol, atol)``, with the same dtype
    (`type_check`) and, where NumPy's is contiguous, the same contiguity
    (`contiguous_check`). With `accept_error` (True, or exception types)
    both may raise instead, gpunp an error of NumPy's type. `sp_name` and
    `scipy_name` name arguments given ``scipy.sparse``/``scipy`` or
    gpunp.scipy's. Example::

        @gpunp.testing.for_float_dtypes()
        @gpunp.testing.numpy_gpunp_allclose(rtol=1e-6)
        def test_norm(xp, dtype):
            a = gpunp.testing.shaped_arange((3, 4), xp, dtype)
            return xp.linalg.norm(a, axis=1)
    """
    def check(g, n):
        _nt.assert_allclose(g, n, rtol=rtol, atol=atol, err_msg=err_msg, verbose=verbose)
    return _comparing(check, name, type_check, accept_error, sp_name, scipy_name,
                      _same_contiguity if contiguous_check else None)


def numpy_gpunp_array_equal(err_msg="", verbose=True, name="xp", type_check=True,
                            accept_error=False, sp_name=None, scipy_name=None,
                            strides_check=False):
    """As numpy_gpunp_allclose, the results equal (``assert_array_equal``;
    NaNs in the same places), with the same strides if `strides_check`."""
    def check(g, n):
        _nt.assert_array_equal(g, n, err_msg=err_msg, verbose=verbose)
    return _comparing(check, name, type_check, accept_error, sp_name, scipy_name,
                      _same_strides if strides_check else None)


def numpy_gpunp_equal(name="xp", sp_name=None, scipy_name=None):
    """As numpy_gpunp_array_equal for results that are not arrays (shapes,
    Python values): ``==`` on both sides' results."""
    def check(g, n):
        if not (g == n):
            raise AssertionError(f"results differ: NumPy {n!r}, gpunp {g!r}")
    return _comparing(check, name, False, False, sp_name, scipy_name)


def numpy_gpunp_raises(name="xp", sp_name=None, scipy_name=None, accept_error=Exception):
    """Checks that the test raises with ``xp=numpy`` and that gpunp raises
    an error of the same type (a subclass counts) with ``xp=gpunp``."""
    def decorator(impl):
        @functools.wraps(impl)
        def test(*args, **kwargs):
            _, n_err = _run(impl, args, kwargs, name, sp_name, scipy_name, False)
            _, g_err = _run(impl, args, kwargs, name, sp_name, scipy_name, True)
            if n_err is None:
                raise AssertionError(f"{impl.__name__}: NumPy raised nothing")
            if g_err is None:
                raise AssertionError(f"{impl.__name__}: NumPy raised "
                                     f"{type(n_err).__name__}({n_err}), gpunp nothing")
            _compare_errors(n_err, g_err, accept_error, impl.__name__)
        test.__signature__ = _without(impl, name, sp_name, scipy_name)
        return test
    return decorator


def for_dtypes(dtypes, name="dtype"):
    """Runs the test once per dtype of `dtypes`, given as the argument
    `name`; a failure names the dtype."""
    dts = [numpy.dtype(d) for d in dtypes]

    def decorator(impl):
        @functools.wraps(impl)
        def test(*args, **kwargs):
            for dt in dts:
                try:
                    impl(*args, **dict(kwargs, **{name: dt.type}))
                except Exception as e:
                    if hasattr(e, "add_note"):  # Python 3.11
                        e.add_note(f"({name} = {dt})")
                    raise
        test.__signature__ = _without(impl, name)
        return test
    return decorator


_FLOATS = ("float16", "float32", "float64")
_COMPLEX = ("complex64", "complex128")
_SIGNED = ("int8", "int16", "int32", "int64")
_UNSIGNED = ("uint8", "uint16", "uint32", "uint64")


def _dtype_list(floats=True, ints=True, complexes=True, boolean=True, no_float16=False):
    dts = (["bool"] if boolean else []) + (list(_FLOATS) if floats else [])
    dts += (list(_SIGNED + _UNSIGNED) if ints else []) + (list(_COMPLEX) if complexes else [])
    return [d for d in dts if not (no_float16 and d == "float16")]


def for_all_dtypes(name="dtype", no_float16=False, no_bool=False, no_complex=False):
    """for_dtypes over every dtype gpunp has: bool, the floats, the signed
    and unsigned integers and the complex types (less those excluded)."""
    return for_dtypes(_dtype_list(complexes=not no_complex, boolean=not no_bool,
                                  no_float16=no_float16), name)


def for_float_dtypes(name="dtype", no_float16=False):
    return for_dtypes(_dtype_list(ints=False, complexes=False, boolean=False,
                                  no_float16=no_float16), name)


def for_signed_dtypes(name="dtype"):
    return for_dtypes(_SIGNED, name)


def for_unsigned_dtypes(name="dtype"):
    return for_dtypes(_UNSIGNED, name)


def for_int_dtypes(name="dtype", no_bool=False):
    return for_dtypes(_dtype_list(floats=False, complexes=False, boolean=not no_bool), name)


def for_complex_dtypes(name="dtype"):
    return for_dtypes(_COMPLEX, name)


def shaped_arange(shape, xp=gpunp, dtype=numpy.float32, order="C"):
    """1, 2, 3... in `shape` (for bool, True where the count is even; for
    complex, each value times 1 + 1j) as an array of `xp`."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    dt = numpy.dtype(dtype)
    a = numpy.arange(1, math.prod(shape) + 1)
    if dt.kind == "b":
        a = a % 2 == 0
    elif dt.kind == "c":
        a = a * (1 + 1j)
    return xp.array(a.astype(dt).reshape(shape), order=order)


def shaped_random(shape, xp=gpunp, dtype=numpy.float32, scale=10, seed=0, order="C"):
    """Uniform values in [0, scale) (bool: 0 or 1; complex: both parts) of
    `dtype`, the same for the same `seed`, as an array of `xp`."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    dt = numpy.dtype(dtype)
    rng = numpy.random.default_rng(seed)
    if dt.kind == "b":
        a = rng.integers(0, 2, size=shape).astype(bool)
    elif dt.kind == "c":
        a = rng.random(shape) * scale + 1j * rng.random(shape) * scale
    else:
        a = rng.random(shape) * scale
    return xp.array(a.astype(dt), order=order)
