"""The device compiler's disk cache: a new process reuses it; timings of a
new kernel's first call, cold and warm, are printed (not judged)."""

import json
import os
import subprocess
import sys
import tempfile

CODE = """
import time, json, numpy, gpunp
a = gpunp.asarray(numpy.arange(1000, dtype=numpy.float32))
a + 1  # the backend and the add kernel are ready
t = time.perf_counter()
r = gpunp.tan(a)  # a kernel this process has not used
r.sum().item()
first = time.perf_counter() - t
print(json.dumps({"first": first, **gpunp._config.cache_stats()}))
"""


def run(env):
    # without an installed wheel's kernel pack, which would serve tan's kernel
    e = dict(os.environ, GPUNP_KERNEL_PACK="", **env)
    r = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, env=e,
                       cwd=tempfile.gettempdir(), check=True)
    return json.loads(r.stdout)


def test_a_new_process_reuses_compiled_kernels(tmp_path):
    env = {"GPUNP_CACHE_DIR": str(tmp_path)}
    cold = run(env)
    warm = run(env)
    assert cold["compiles"] >= 2 and cold["disk_hits"] == 0
    assert warm["compiles"] == 0 and warm["disk_hits"] == cold["compiles"]
    assert list(tmp_path.glob("cuda-sm_*/*.gpk"))
    print(f"\nfirst call of a new kernel: cold {cold['first'] * 1e3:.1f} ms, "
          f"warm {warm['first'] * 1e3:.1f} ms")


PRECOMPILE = """
import sys
from pathlib import Path
from gpunp._lib import ffi, lib
for f in sorted(Path(sys.argv[1]).glob("*.cu")):
    if lib.gp_rtc_precompile_cuda(f.read_bytes(), sys.argv[2].encode()):
        sys.exit(ffi.string(lib.gp_errmsg()).decode())
"""


def test_a_cache_prepared_without_the_device_leaves_nothing_to_compile(tmp_path):
    """What tools/check_kernels.py --into-cache does on a machine with no GPU:
    the sources one process logged, compiled into a fresh cache with NVRTC
    alone, are the next process's disk hits."""
    from gpunp import _config
    log, cache = tmp_path / "log", tmp_path / "cache"
    first = run({"GPUNP_CACHE_DIR": str(tmp_path / "first"), "GPUNP_KERNEL_LOG": str(log)})
    subprocess.run([sys.executable, "-c", PRECOMPILE, str(log), _config.config("target")],
                   env=dict(os.environ, GPUNP_CACHE_DIR=str(cache)), cwd=tempfile.gettempdir(),
                   check=True)
    again = run({"GPUNP_CACHE_DIR": str(cache)})
    assert first["compiles"] >= 2
    assert again["compiles"] == 0 and again["disk_hits"] == first["compiles"]


FINISH = """
import sys, numpy, gpunp
from pathlib import Path
a = gpunp.asarray(numpy.arange(1 << 16, dtype=numpy.float32))
gpunp.arcsinh(a).get()  # a vector loop: its first calls run a quick scalar loop
gpunp._config.finish_compiles()
stored = [p for p in Path(sys.argv[1]).glob("cuda-*/*.gpk") if b"gpk_arcsinh" in p.read_bytes()]
print(len(stored))
"""


def test_finish_compiles_waits_for_the_twin_on_disk(tmp_path):
    """The optimised twin of a quickly compiled kernel is stored on disk when
    compiled: after finish_compiles it is there."""
    r = subprocess.run([sys.executable, "-c", FINISH, str(tmp_path)], capture_output=True,
                       text=True, env=dict(os.environ, GPUNP_CACHE_DIR=str(tmp_path),
                                           GPUNP_KERNEL_PACK=""),
                       cwd=tempfile.gettempdir(), check=True)
    assert int(r.stdout.split()[-1]) >= 1
