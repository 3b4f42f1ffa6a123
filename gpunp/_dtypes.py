"""Type promotion and casting rules, answered by the engine (the rules every
operation uses), with NumPy's signatures."""

from __future__ import annotations

import numpy

from gpunp import _lib
from gpunp._lib import check, ffi, lib
from gpunp._ndarray import ndarray

_WEAK = {bool: _lib.BOOL, int: _lib.INT64, float: _lib.FLOAT64, complex: _lib.COMPLEX128}
_INT64_MIN, _INT64_MAX, _UINT64_MAX = -(1 << 63), (1 << 63) - 1, (1 << 64) - 1


def _code_and_weak(x):
    """(engine dtype code, weak flag) of an operand of result_type."""
    t = type(x)
    if isinstance(x, ndarray):
        return _lib.dtype_code(x.dtype), 0
    if t in _WEAK:
        # a Python scalar's value never matters next to other operands
        return _WEAK[t], 1
    if isinstance(x, (numpy.generic, numpy.ndarray)):
        return _lib.dtype_code(x.dtype), 0
    # dtype-likes, the Python types included (numpy.dtype(int) is int64)
    return _lib.dtype_code(x), 0


def _lone_int(x) -> numpy.dtype:
    """A Python int on its own takes the first of int64 and uint64 that holds
    it; NumPy falls back to its object dtype, which gpunp lacks."""
    if _INT64_MIN <= x <= _INT64_MAX:
        return _lib.DTYPES[_lib.INT64]
    if _INT64_MAX < x <= _UINT64_MAX:
        return _lib.DTYPES[_lib.UINT64]
    raise TypeError(f"the Python integer {x} needs NumPy's object dtype, which gpunp does "
                    "not support")


def _promote(a: int, b: int) -> int:
    out = ffi.new("int32_t *")
    check(lib.gp_dtype_result_type(2, [a, b], ffi.NULL, out))
    return out[0]


def _promote_strong(codes: list) -> int:
    """NumPy 2's promotion of several dtypes, which does not depend on their
    order: every dtype is promoted with the "main" one (the latest in NumPy's
    type numbering, where float16 comes last), and those results with each
    other. int8, uint8, float16 thus give float16, not float32 as
    (int8 + uint8 = int16) + float16 would."""
    if len(codes) <= 2:
        return codes[0] if len(codes) == 1 else _promote(codes[0], codes[1])
    main = max(codes, key=lambda c: _lib.DTYPES[c].num)
    result = _promote(main, codes[0])
    for c in codes[1:]:
        result = _promote(result, _promote(main, c))
    return result


def result_type(*arrays_and_dtypes) -> numpy.dtype:
    """numpy.result_type under NEP 50: Python scalars are weak."""
    if not arrays_and_dtypes:
        raise ValueError("at least one array or dtype is required")
    if len(arrays_and_dtypes) == 1 and type(arrays_and_dtypes[0]) is int:
        return _lone_int(arrays_and_dtypes[0])
    pairs = [_code_and_weak(x) for x in arrays_and_dtypes]
    strong = [c for c, w in pairs if not w]
    codes = ([_promote_strong(strong)] if strong else []) + [c for c, w in pairs if w]
    weak = ([0] if strong else []) + [1] * (len(codes) - bool(strong))
    out = ffi.new("int32_t *")
    check(lib.gp_dtype_result_type(len(codes), codes, weak, out))
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
