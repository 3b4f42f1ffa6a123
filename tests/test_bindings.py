"""The binding layer: the cdef agrees with the C headers, statuses become
the right Python exceptions, and misuse of the ABI is refused, not fatal."""

import re
from pathlib import Path

import numpy as np
import pytest

from gpunp import _lib
from gpunp._lib import ffi, lib

HEADERS = Path(__file__).resolve().parent.parent / "csrc" / "include"
DECL = re.compile(r"GP_API\s+[\w\s\*]+?\b(gp_\w+)\s*\(", re.S)


def declared_functions():
    names = set()
    for h in HEADERS.glob("*.h"):
        names |= set(DECL.findall(h.read_text()))
    return names


def test_every_header_function_is_bound_and_nothing_else():
    declared = declared_functions()
    assert len(declared) > 40
    bound = {n for n in dir(lib) if n.startswith("gp_")}
    assert declared == bound


def test_header_constants_are_bound():
    text = "".join(h.read_text() for h in HEADERS.glob("*.h"))
    for name, value in re.findall(r"^\s+(GP_[A-Z0-9_]+) = (\d+),?$", text, re.M):
        assert getattr(lib, name) == int(value), name
    assert lib.GP_MAXDIM == 64
    assert lib.gp_version() == (lib.GP_VERSION_MAJOR * 10000 + lib.GP_VERSION_MINOR * 100
                                + lib.GP_VERSION_PATCH)


@pytest.mark.parametrize("code,exc", [
    (lib.GP_ERR_VALUE, ValueError), (lib.GP_ERR_VALUE_BROADCAST, ValueError),
    (lib.GP_ERR_TYPE, TypeError), (lib.GP_ERR_TYPE_NO_LOOP, TypeError),
    (lib.GP_ERR_INDEX, IndexError), (lib.GP_ERR_AXIS, np.exceptions.AxisError),
    (lib.GP_ERR_NOMEM, MemoryError), (lib.GP_ERR_MISUSE, RuntimeError),
    (lib.GP_ERR_UNSUPPORTED, NotImplementedError), (lib.GP_ERR_OVERFLOW, OverflowError),
    (lib.GP_ERR_COMPILE, _lib.CompileError), (lib.GP_ERR_NOT_FOUND_LIBRARY, _lib.BackendError),
])
def test_status_codes_map_to_numpys_exceptions(code, exc):
    assert isinstance(_lib.error(code), exc)
    with pytest.raises(exc):
        _lib.check(code)
    _lib.check(lib.GP_OK)


def test_null_and_foreign_handles_are_misuse_not_crashes():
    info = ffi.new("gp_array_info_t *")
    assert lib.gp_array_get_info(ffi.NULL, info) == lib.GP_ERR_MISUSE
    fake = ffi.new("char[256]")
    assert lib.gp_array_get_info(ffi.cast("gp_array_t *", fake), info) == lib.GP_ERR_MISUSE
    assert "invalid array handle" in ffi.string(lib.gp_errmsg()).decode()
    assert lib.gp_array_release(ffi.NULL) == lib.GP_OK
    assert lib.gp_stream_destroy(ffi.NULL) == lib.GP_OK
    out = ffi.new("gp_array_t **")
    assert lib.gp_array_copy(ffi.NULL, ord("C"), out) == lib.GP_ERR_MISUSE
    assert out[0] == ffi.NULL


def test_bad_dtype_codes_are_type_errors():
    out = ffi.new("gp_array_t **")
    assert lib.gp_array_empty(99, 1, [3], ord("C"), out) & 0xFF == lib.GP_ERR_TYPE
    with pytest.raises(TypeError):
        _lib.dtype_code("U5")
