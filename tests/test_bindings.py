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


def _build_ffi():
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "build_ffi", Path(__file__).resolve().parent.parent / "build_ffi.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_only_the_descriptor_calls_keep_the_gil(tmp_path):
    """build_ffi.keep_gil takes cffi's release of the GIL out of exactly the
    KEEP_GIL wrappers: every other engine call (launches, compiles, copies,
    synchronizations) still lets other Python threads run while it waits."""
    cffi = pytest.importorskip("cffi")
    pytest.importorskip("pycparser", reason="cffi's cdef parser, a build dependency the "
                        "installed module does not need")
    b = _build_ffi()
    f = cffi.FFI()
    f.cdef(b.cdef())
    f.set_source(b.MODULE, '#include "gpunp.h"', py_limited_api=True)
    f.emit_c_code(str(tmp_path / "m.c"))
    emitted = (tmp_path / "m.c").read_text()
    src = b.keep_gil(emitted)
    wrappers = dict(re.findall(r"\n_cffi_f_(gp_\w+)\(PyObject \*self.*?\n(.*?)\n}\n", src, re.S))
    assert set(b.KEEP_GIL) < set(wrappers) == declared_functions()
    for name, body in wrappers.items():
        assert ("Py_BEGIN_ALLOW_THREADS" in body) == (name not in b.KEEP_GIL), name
        assert "{ result = %s(" % name in body or "{ %s(" % name in body, name
    with pytest.raises(RuntimeError, match="gp_no_such_call"):
        b.KEEP_GIL += ("gp_no_such_call",)
        b.keep_gil(emitted)


_COMPILING = """
import threading, time, numpy, gpunp
seen, stop = [], threading.Event()
def tick():
    while not stop.is_set():
        seen.append(time.perf_counter())
        time.sleep(0.001)
t = threading.Thread(target=tick)
a = gpunp.asarray(numpy.linspace(0.1, 0.9, 100))
t.start()
time.sleep(0.05)
t0 = time.perf_counter()
gpunp.arctanh(a).get()  # a kernel compiled in this call: the cache is empty
t1 = time.perf_counter()
stop.set()
t.join()
print(t1 - t0, sum(t0 < s < t1 for s in seen))
"""


def test_a_compiling_call_lets_other_threads_run(tmp_path):
    """The GIL is free while the engine compiles a new kernel: a Python
    thread ticking every millisecond keeps ticking through the call."""
    import os
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-c", _COMPILING], capture_output=True, text=True,
                       env=dict(os.environ, GPUNP_CACHE_DIR=str(tmp_path), GPUNP_KERNEL_PACK=""),
                       cwd=tmp_path, check=True)
    took, ticks = r.stdout.split()
    assert float(took) > 0.01 and int(ticks) >= 3, r.stdout
