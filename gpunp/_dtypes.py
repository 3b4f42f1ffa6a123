"""Type promotion and casting rules, answered by the engine (the rules every
operation uses), with NumPy's signatures."""

from __future__ import annotations

import numpy

from gpunp import _lib
from gpunp._lib import check, ffi, lib
from gpunp._ndarray import ndarray

_WEAK = {bool: _lib.BOOL, int: _lib.INT64, float: _lib.FLOAT64, complex: _lib.COMPLEX128}


def _code_and_weak(x):
    t = type(x)
    if isinstance(x, ndarray):
        return _lib.dtype_code(x.dtype), 0
    if t in _WEAK:
        if t is int and x > (1 << 63) - 1:
            return _lib.UINT64, 1
        return _WEAK[t], 1
    if x in _WEAK:  # the Python types themselves stand for weak scalars
        return _WEAK[x], 1
    if isinstance(x, numpy.generic):
        return _lib.dtype_code(x.dtype), 0
    if isinstance(x, numpy.ndarray):
        return _lib.dtype_code(x.dtype), 0
    return _lib.dtype_code(x), 0


def result_type(*arrays_and_dtypes) -> numpy.dtype:
    """numpy.result_type under NEP 50: Python scalars are weak."""
    if not arrays_and_dtypes:
        raise ValueError("at least one array or dtype is required")
    pairs = [_code_and_weak(x) for x in arrays_and_dtypes]
    out = ffi.new("int32_t *")
    check(lib.gp_dtype_result_type(len(pairs), [c for c, _ in pairs], [w for _, w in pairs],
                                   out))
    return _lib.DTYPES[out[0]]


def promote_types(type1, type2) -> numpy.dtype:
    out = ffi.new("int32_t *")
    check(lib.gp_dtype_result_type(2, [_lib.dtype_code(type1), _lib.dtype_code(type2)],
                                   ffi.NULL, out))
    return _lib.DTYPES[out[0]]


def can_cast(from_, to, casting="safe") -> bool:
    if isinstance(from_, (int, float, complex)) and not isinstance(from_, numpy.generic):
        raise TypeError("can_cast() does not support Python ints, floats, and complex "
                        "because the result used to depend on the value.")
    src = _lib.dtype_code(from_.dtype if isinstance(from_, (ndarray, numpy.generic)) else from_)
    out = ffi.new("int32_t *")
    check(lib.gp_dtype_can_cast(src, _lib.dtype_code(to), _lib.casting_code(casting), out))
    return bool(out[0])
