"""The binding layer: the engine's ``ffi``/``lib``, status checking, and the
translation of dtypes and scalars between Python and the engine.

Everything else in the package reaches the engine through this module.
"""

from __future__ import annotations

import functools
import operator
import threading

import numpy

try:
    from gpunp._engine import ffi, lib
except ModuleNotFoundError as e:
    import os
    _root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if e.name != "gpunp._engine" or not os.path.exists(os.path.join(_root, "build_ffi.py")):
        raise
    # NumPy's way: a source tree without its compiled part says what to do
    raise ImportError(
        f"gpunp was imported from its source tree ({_root}), whose engine is not built: "
        "run `make` there (it builds the engine beside the sources too), or start Python "
        "in another folder to import the installed gpunp") from None


@functools.cache  # read on paths as hot as a.flat[k]: parsed once
def _numpy_version() -> int:
    """The running NumPy's version as major * 10000 + minor * 100 + patch:
    the kernels follow its per-element rules where releases differ."""
    parts = numpy.lib.NumpyVersion(numpy.__version__)
    return parts.major * 10000 + parts.minor * 100 + parts.bugfix


# before any kernel is built (csrc/include/gp_ops.h)
lib.gp_set_numpy_version(_numpy_version())

# ---- errors ---------------------------------------------------------------


class CompileError(RuntimeError):
    """A generated or user kernel failed to compile (the compiler's log is in
    the message)."""


class BackendError(RuntimeError):
    """A backend's driver, runtime or library failed or is missing."""


class OutOfMemoryError(MemoryError):
    """Device memory ran out (after gpunp released its cached blocks and
    retried); the message says how much was asked for and what is in use."""


def _axis_error(msg: str) -> Exception:
    return numpy.exceptions.AxisError(msg)


def index(value) -> int:
    """operator.index(value) as NumPy 2.3 and later read an integer
    argument: a NumPy bool is none (TypeError) where NumPy 2.2 only
    deprecates it and reads 0 or 1, whatever NumPy runs; a Python bool is
    0 or 1 in every version."""
    if isinstance(value, numpy.bool_):
        raise TypeError("'numpy.bool' object cannot be interpreted as an integer")
    return operator.index(value)


def c_int(value, error=OverflowError) -> int:
    """An integer argument (an axis) as NumPy reads it into a C int. Past
    one NumPy raises one of two errors, by how the function reads it, and
    the caller names which: OverflowError where it is parsed as a C
    argument (normalize_axis_index, so every axis NumPy checks in Python;
    swapaxes, sort...); ValueError where PyArray_PyIntAsInt reads it (ufunc
    reductions, take, concatenate...), which also refuses bools and, as it
    reads an int64 first, raises OverflowError past that."""
    if error is ValueError and isinstance(value, bool):
        raise TypeError("an integer is required for the axis")
    v = index(value)
    if -(1 << 31) <= v < (1 << 31):
        return v
    if error is ValueError and -(1 << 63) <= v < (1 << 63):
        raise ValueError("integer won't fit into a C int")
    raise OverflowError("Python int too large to convert to C int")


def normalize_axis(axis, ndim: int, error=OverflowError) -> int:
    """`axis` of an array of `ndim` dimensions as 0..ndim-1; NumPy's AxisError
    out of range, after c_int's `error` past a C int."""
    # c_int up front only where it refuses what is in range (a bool)
    a = index(axis) if error is OverflowError else c_int(axis, error)
    if not -ndim <= a < ndim:
        c_int(a, error)  # NumPy reads the int before it checks the bounds
        raise _axis_error(f"axis {a} is out of bounds for array of dimension {ndim}")
    return a % ndim


def normalize_axis_tuple(axis, ndim: int, argname=None, allow_duplicate=False,
                         error=OverflowError) -> tuple:
    """An int or a sequence of axes as a tuple of 0..ndim-1 (numpy's
    normalize_axis_tuple): AxisError out of range, ValueError if repeated,
    c_int's `error` past a C int."""
    if type(axis) not in (tuple, list):
        try:
            axis = [index(axis)]
        except TypeError:
            pass
    try:
        axes = tuple(normalize_axis(a, ndim, error) for a in axis)
    except numpy.exceptions.AxisError as e:
        raise _axis_error(f"{argname}: {e}" if argname else str(e)) from None
    if not allow_duplicate and len(set(axes)) != len(axes):
        raise ValueError(f"repeated axis in `{argname}` argument" if argname else "repeated axis")
    return axes


_ERRORS = {
    lib.GP_ERR_VALUE: ValueError,
    lib.GP_ERR_TYPE: TypeError,
    lib.GP_ERR_INDEX: IndexError,
    lib.GP_ERR_AXIS: _axis_error,
    lib.GP_ERR_NOMEM: MemoryError,
    lib.GP_ERR_MISUSE: RuntimeError,
    lib.GP_ERR_UNSUPPORTED: NotImplementedError,
    lib.GP_ERR_BACKEND: BackendError,
    lib.GP_ERR_COMPILE: CompileError,
    lib.GP_ERR_OVERFLOW: OverflowError,
    lib.GP_ERR_IO: OSError,
    lib.GP_ERR_NOT_FOUND: BackendError,
}


# The exception a Python callback of the engine raised (gpunp.cuda's
# allocator), per thread: the engine returns GP_ERR_CALLBACK and the call's
# check() raises it.
callback_error = threading.local()


def error(status: int) -> Exception:
    """The Python exception for a failed engine call (reads gp_errmsg)."""
    if status == lib.GP_ERR_CALLBACK:
        exc = getattr(callback_error, "exc", None)
        if exc is not None:
            callback_error.exc = None
            return exc
    msg = ffi.string(lib.gp_errmsg()).decode("utf-8", "replace")
    cls = OutOfMemoryError if status == lib.GP_ERR_NOMEM_DEVICE else \
        _ERRORS.get(status & 0xFF, RuntimeError)
    return cls(msg or ffi.string(lib.gp_errstr(status)).decode())


def check(status: int) -> None:
    """Raises the matching Python exception if `status` is not GP_OK."""
    if status:
        raise error(status)


# ---- dtypes -----------------------------------------------------------------

# the engine's dtype codes (enum gp_dtype in csrc/include/gp_dtype.h)
BOOL, INT64, UINT64, FLOAT16, FLOAT32, FLOAT64, COMPLEX128 = (
    lib.GP_BOOL, lib.GP_INT64, lib.GP_UINT64, lib.GP_FLOAT16, lib.GP_FLOAT32, lib.GP_FLOAT64,
    lib.GP_COMPLEX128)
_NUMPY_NAMES = {
    lib.GP_BOOL: "bool", lib.GP_INT8: "int8", lib.GP_UINT8: "uint8", lib.GP_INT16: "int16",
    lib.GP_UINT16: "uint16", lib.GP_INT32: "int32", lib.GP_UINT32: "uint32",
    lib.GP_INT64: "int64", lib.GP_UINT64: "uint64", lib.GP_FLOAT16: "float16",
    lib.GP_FLOAT32: "float32", lib.GP_FLOAT64: "float64", lib.GP_COMPLEX64: "complex64",
    lib.GP_COMPLEX128: "complex128",
}
BFLOAT16 = lib.GP_BFLOAT16
#: numpy dtype of each engine dtype code (indexed by the code); bfloat16's is
#: ml_dtypes', None until bfloat16() loads it (ml_dtypes takes longer to
#: import than NumPy, and only code that meets a bfloat16 needs it)
DTYPES = [numpy.dtype(_NUMPY_NAMES[code]) if code in _NUMPY_NAMES else None
          for code in range(lib.GP_NDTYPES)]
_CODES = {dt: code for code, dt in enumerate(DTYPES) if dt is not None}
#: NumPy's character code of each engine dtype ('E' for bfloat16, as ml_dtypes')
def is_bfloat16(dt: numpy.dtype) -> bool:
    """Whether NumPy dtype `dt` is ml_dtypes' bfloat16 (a void kind to NumPy)."""
    return dt.name == "bfloat16" and dt.type.__module__ == "ml_dtypes"


def bfloat16() -> numpy.dtype:
    """ml_dtypes' bfloat16 dtype, registered as the engine's GP_BFLOAT16 at
    first use; TypeError when ml_dtypes is not installed, or older than the
    0.7 whose promotion and casting rules the engine's tables follow (0.6
    cannot promote bfloat16 with int16 or wider, and takes a Python float to
    float64 in result_type but to float32 in arithmetic)."""
    dt = DTYPES[BFLOAT16]
    if dt is None:
        try:
            import ml_dtypes
        except ImportError:
            raise TypeError("bfloat16 needs the ml_dtypes package (pip install ml_dtypes)") \
                from None
        version = ml_dtypes.__version__
        if tuple(int(p) for p in version.split(".")[:2] if p.isdigit()) < (0, 7):
            raise TypeError(f"bfloat16 needs ml_dtypes 0.7 or later, whose promotion rules gpunp "
                            f"follows ({version} is installed: pip install -U ml_dtypes)")
        dt = DTYPES[BFLOAT16] = numpy.dtype(ml_dtypes.bfloat16)
        _CODES[dt] = _CODES[ml_dtypes.bfloat16] = BFLOAT16
    return dt

CASTING = {"no": lib.GP_CASTING_NO, "equiv": lib.GP_CASTING_EQUIV, "safe": lib.GP_CASTING_SAFE,
           "same_kind": lib.GP_CASTING_SAME_KIND, "unsafe": lib.GP_CASTING_UNSAFE}
ORDERS = {"C": ord("C"), "F": ord("F"), "A": ord("A"), "K": ord("K")}


def dtype_code(dtype) -> int:
    """The engine code of a dtype-like; TypeError for dtypes gpunp lacks."""
    try:
        code = _CODES.get(dtype)
    except TypeError:  # unhashable: not a dtype-like we can remember
        code = None
    if code is not None:
        return code
    if dtype is None:
        return FLOAT64
    code = _dtype_code_slow(dtype)
    try:
        _CODES[dtype] = code  # remember 'f4', numpy.float32, float...
    except TypeError:
        pass
    return code


def _dtype_code_slow(dtype) -> int:
    try:
        dt = numpy.dtype(dtype)
    except TypeError as e:
        raise TypeError(f"data type {dtype!r} not understood") from e
    code = _CODES.get(dt)
    if code is None and is_bfloat16(dt):
        code = _CODES.get(bfloat16())
    if code is None:
        code = _CODES.get(dt.newbyteorder("=")) if dt.byteorder not in "=|" else None
        if code is None:
            raise TypeError(f"gpunp does not support dtype {dt!r}")
    return code


def casting_code(casting: str) -> int:
    try:
        return CASTING[casting]
    except (KeyError, TypeError):
        raise ValueError(
            "casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'") from None


def order_code(order, allowed: str = "CFAK", none: str = "K") -> int:
    """The engine code of a NumPy order argument; None is `none` (K for
    what defaults to K, C for what defaults to C, as in NumPy)."""
    if order is None:
        order = none
    if isinstance(order, bytes):  # NumPy takes b'C' too
        order = order.decode("latin-1")
    if not isinstance(order, str):
        raise TypeError(f"order must be str, not {type(order).__name__}")
    o = order.upper() if len(order) == 1 else None
    if o is None or o not in allowed:
        opts = [f"'{c}'" for c in allowed]
        opts = opts[0] if len(opts) == 1 else ", ".join(opts[:-1]) + ", or " + opts[-1]
        raise ValueError(f"order must be one of {opts} (got {order!r})")
    return ord(o)


# ---- out-pointers -------------------------------------------------------------

class _Cells(threading.local):
    """Each thread's cells; a thread's first use makes them (__init__)."""

    def __init__(self):
        self.out = ffi.new("gp_array_t **")


_tls = _Cells()  # the hot paths read _tls.out directly, saving out_cell()'s call


def out_cell():
    """This thread's `gp_array_t **` for an engine call's result: read it
    right after the call (nothing else on the thread can run in between)."""
    return _tls.out


# ---- scalars ------------------------------------------------------------------

_I64_MIN, _I64_MAX, _U64_MAX = -(1 << 63), (1 << 63) - 1, (1 << 64) - 1


def is_scalar(x) -> bool:
    """A Python number or a NumPy scalar (what operations take by value)."""
    return isinstance(x, (int, float, complex, numpy.generic))


def put_scalar(s, x) -> None:
    """Fills gp_scalar_t `s` from a Python or NumPy scalar. Python bool, int,
    float and complex are weak (NEP 50); NumPy scalars keep their dtype."""
    t = type(x)
    if t is float:
        s.dtype, s.weak, s.re = FLOAT64, 1, x
    elif t is int or t is bool:
        if t is bool:
            s.dtype, s.weak, s.i = BOOL, 1, x
        elif _I64_MIN <= x <= _I64_MAX:
            s.dtype, s.weak, s.i = INT64, 1, x
        elif _I64_MAX < x <= _U64_MAX:
            s.dtype, s.weak, s.i = UINT64, 1, x - (1 << 64)
        else:
            raise OverflowError(f"Python integer {x} out of bounds for int64")
    elif t is complex:
        s.dtype, s.weak, s.re, s.im = COMPLEX128, 1, x.real, x.imag
    elif isinstance(x, numpy.generic):
        code = dtype_code(x.dtype)
        s.dtype, s.weak = code, 0
        kind = x.dtype.kind
        if kind == "b" or kind == "i":
            s.i = int(x)
        elif kind == "u":
            v = int(x)
            s.i = v - (1 << 64) if v > _I64_MAX else v
        elif kind == "f":
            s.re = float(x)
        else:
            s.re, s.im = float(x.real), float(x.imag)
    elif isinstance(x, int):  # int subclasses (e.g. IntEnum)
        put_scalar(s, int(x))
    elif isinstance(x, float):
        put_scalar(s, float(x))
    elif isinstance(x, complex):
        put_scalar(s, complex(x))
    else:
        raise TypeError(f"unsupported scalar type {t.__name__}")
