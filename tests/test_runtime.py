"""The runtime: backend choice, configuration, and the kernel cache."""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

import gpunp as gp
from gpunp import _config


# Children start in a neutral folder: from the repository root, `import
# gpunp` would find the source tree (without its compiled engine) first.
NEUTRAL = tempfile.gettempdir()


def run(code: str, env=None, check=True) -> subprocess.CompletedProcess:
    e = dict(os.environ)
    e.update(env or {})
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=e,
                       cwd=NEUTRAL)
    if check and r.returncode != 0:
        raise AssertionError(f"exit {r.returncode}\n{r.stdout}\n{r.stderr}")
    return r


def test_show_config_and_python_m_gpunp():
    import io
    buf = io.StringIO()
    gp.show_config(buf)
    text = buf.getvalue()
    for key in ("gpunp", "backend", "compiler", "cache_dir", "device"):
        assert key in text
    assert gp.__version__ in text
    compiler = next(line for line in text.splitlines() if line.startswith("compiler"))
    assert "|" not in compiler  # the engine's cache key, not for reading
    r = subprocess.run([sys.executable, "-m", "gpunp"], capture_output=True, text=True,
                       cwd=NEUTRAL)
    assert r.returncode == 0 and gp.backend() in r.stdout and "compiler" in r.stdout


def test_import_is_quiet_and_picks_a_backend():
    # any warning at import or first use would fail the child process
    r = run("import gpunp; gpunp.zeros(3); print(gpunp.backend())",
            env={"PYTHONWARNINGS": "error"})
    assert r.stdout.strip() in ("host", "cuda", "hip")
    assert r.stderr == ""


def test_host_backend_on_request():
    r = run("import gpunp; print(gpunp.backend(), gpunp.arange(3).sum().item())",
            env={"GPUNP_BACKEND": "host"})
    assert r.stdout.split() == ["host", "3"]


def test_unknown_backend_is_a_clear_error_not_a_crash():
    r = run("import gpunp\ntry:\n    gpunp.zeros(2)\nexcept ValueError as e:\n    print(e)",
            env={"GPUNP_BACKEND": "tpu"})
    assert "unknown backend 'tpu'" in r.stdout


def test_unavailable_backend_raises_instead_of_crashing():
    code = ("import gpunp\ntry:\n    gpunp.zeros(2); print('ran on', gpunp.backend())\n"
            "except Exception as e:\n    print(type(e).__name__, e)")
    for name in ("cuda", "hip"):
        r = run(code, env={"GPUNP_BACKEND": name})
        assert r.returncode == 0
        assert r.stdout.strip()


HIP_SONAMES = ("libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so")


def _loadable(names) -> bool:
    import ctypes
    for n in names:
        try:
            ctypes.CDLL(n)
            return True
        except OSError:
            pass
    return False


def test_hip_backend_without_an_amd_gpu_says_so():
    """`make test` installs ROCm 5.2's runtime: the HIP backend loads it and
    finds no device. Without the runtime, the error names the library."""
    code = ("import gpunp\ntry:\n    gpunp.zeros(3); print('ran on', gpunp.backend())\n"
            "except gpunp.BackendError as e:\n    print(e)")
    r = run(code, env={"GPUNP_BACKEND": "hip"})
    if r.stdout.startswith("ran on"):
        assert r.stdout.split()[-1] == "hip"  # a machine with an AMD GPU
    elif _loadable(HIP_SONAMES):
        assert r.stdout.startswith("no AMD GPU was found (loaded the HIP runtime (libamdhip64) "
                                   "from /"), r.stdout
        assert "libamdhip64.so" in r.stdout
    else:
        assert "the HIP runtime (libamdhip64) was not found" in r.stdout, r.stdout


KERNEL_USE = ("import gpunp, numpy, json\n"
              "a = gpunp.asarray(numpy.arange(10, dtype=numpy.float32))\n"
              "r = (a * 3 + 1).sum().item()\n"
              "print(json.dumps({'r': r, **gpunp._config.cache_stats()}))")


def _stats(env):
    """The kernel cache's counters of a new process running KERNEL_USE; without
    a kernel pack unless `env` names one (an installed wheel's would serve
    the kernels these tests see compiled)."""
    import json
    return json.loads(run(KERNEL_USE, env={"GPUNP_KERNEL_PACK": ""} | env).stdout)


def test_disk_cache_is_reused_by_a_new_process_and_survives_damage(tmp_path):
    env = {"GPUNP_CACHE_DIR": str(tmp_path), "GPUNP_BACKEND": os.environ.get("GPUNP_BACKEND", "")}
    first = _stats(env)
    assert first["r"] == 145.0
    assert first["compiles"] >= 3 and first["disk_hits"] == 0
    entries = sorted(tmp_path.rglob("*.gpk"))
    assert len(entries) == first["compiles"]
    second = _stats(env)
    assert second["r"] == 145.0
    assert second["compiles"] == 0 and second["disk_hits"] == first["compiles"]
    # damage every entry differently: truncate, flip a byte of the image,
    # rewrite the identity text, empty the file
    for k, p in enumerate(entries):
        data = bytearray(p.read_bytes())
        if k % 4 == 0:
            data = data[: len(data) // 2]
        elif k % 4 == 1:
            data[-10] ^= 0xFF
        elif k % 4 == 2:
            data[40] ^= 0x01
        else:
            data = bytearray()
        p.write_bytes(bytes(data))
    third = _stats(env)
    assert third["r"] == 145.0
    assert third["disk_rejects"] == len(entries) and third["compiles"] == len(entries)
    fourth = _stats(env)
    assert fourth["compiles"] == 0 and fourth["disk_hits"] == len(entries)


def test_an_unwritable_cache_directory_falls_back_to_memory(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    r = _stats({"GPUNP_CACHE_DIR": str(blocker / "cache")})
    assert r["r"] == 145.0 and r["disk_hits"] == 0


PACK = """
import sys
from pathlib import Path
from gpunp import _config
from gpunp._lib import ffi, lib
for f in sorted(Path({log!r}).glob("*.cu")):
    if lib.gp_rtc_pack(_config.config("backend").encode(), f.read_bytes(),
                       _config.config("target").encode(), {pack!r}.encode()):
        sys.exit(ffi.string(lib.gp_errmsg()).decode())
"""


def test_a_kernel_pack_serves_kernels_before_the_compiler(tmp_path):
    """Kernels packed ahead of time (tools/kernel_pack.py, from the sources a
    run logged) are loaded with nothing compiled and nothing added to the
    disk cache; a damaged pack entry is compiled instead; an empty
    GPUNP_KERNEL_PACK turns the pack off."""
    log, pack = tmp_path / "log", tmp_path / "pack"
    first = _stats({"GPUNP_CACHE_DIR": str(tmp_path / "c1"), "GPUNP_KERNEL_LOG": str(log)})
    assert first["r"] == 145.0 and first["compiles"] >= 3 and first["pack_hits"] == 0
    run(PACK.format(log=str(log), pack=str(pack)))
    entries = sorted(pack.rglob("*.gpk"))
    assert entries and all(p.parent.parent == pack for p in entries)
    packed = _stats({"GPUNP_CACHE_DIR": str(tmp_path / "c2"), "GPUNP_KERNEL_PACK": str(pack)})
    assert packed["r"] == 145.0 and packed["compiles"] == 0 and packed["disk_hits"] == 0
    assert packed["pack_hits"] >= 3
    assert not list((tmp_path / "c2").rglob("*.gpk"))
    for p in entries:  # a flipped byte of each image
        data = bytearray(p.read_bytes())
        data[-10] ^= 0xFF
        p.write_bytes(bytes(data))
    damaged = _stats({"GPUNP_CACHE_DIR": str(tmp_path / "c3"), "GPUNP_KERNEL_PACK": str(pack)})
    assert damaged["r"] == 145.0 and damaged["pack_hits"] == 0
    assert damaged["disk_rejects"] == packed["pack_hits"] and damaged["compiles"] >= 3
    off = _stats({"GPUNP_CACHE_DIR": str(tmp_path / "c4")})
    assert off["pack_hits"] == 0 and off["disk_rejects"] == 0 and off["compiles"] >= 3


def test_the_kernel_pack_is_looked_for_beside_the_engine():
    code = ("import gpunp, gpunp._engine as e\n"
            "print(gpunp._config.config('kernel_pack'))\nprint(e.__file__)")
    env = {k: v for k, v in os.environ.items() if k != "GPUNP_KERNEL_PACK"}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       cwd=NEUTRAL, check=True)
    pack, engine = r.stdout.splitlines()
    assert Path(pack) == Path(engine).parent / "_kernels"
    assert run("import gpunp; print(gpunp._config.config('kernel_pack'))",
               env={"GPUNP_KERNEL_PACK": ""}).stdout == "\n"


def test_kernel_log_records_generated_sources(tmp_path):
    log = tmp_path / "log"
    run(KERNEL_USE, env={"GPUNP_KERNEL_LOG": str(log), "GPUNP_CACHE_DIR": str(tmp_path / "c")})
    sources = list(log.glob("*.cu"))
    assert len(sources) >= 3
    assert all("GPK_KERNEL(" in p.read_text() for p in sources)


def test_memory_cache_counts_hits():
    before = _config.cache_stats()
    a = gp.arange(5.0)
    for _ in range(3):
        a + a
    after = _config.cache_stats()
    assert after["memory_hits"] >= before["memory_hits"] + 2


def test_finish_compiles_returns_and_kernels_still_compute():
    a = gp.arange(4096, dtype=np.float32)
    r = gp.cosh(a / 4096)
    _config.finish_compiles()
    _config.finish_compiles()  # nothing queued
    np.testing.assert_allclose(gp.cosh(a / 4096).get(), r.get())
    np.testing.assert_allclose(r.get(), np.cosh(np.arange(4096, dtype=np.float32) / 4096),
                               rtol=1e-6)


def test_host_compiler_failure_is_a_clear_error(tmp_path):
    r = run("import gpunp\ntry:\n    gpunp.arange(3) + 1\nexcept Exception as e:\n"
            "    print(type(e).__name__, e)",
            env={"GPUNP_CC": "/nonexistent/cc", "GPUNP_BACKEND": "host",
                 "GPUNP_CACHE_DIR": str(tmp_path)})
    assert "BackendError" in r.stdout and "GPUNP_CC" in r.stdout


def test_host_arrays_and_byte_order_rules():
    # a NumPy array among the arrays to join: the implicit-copy refusal's advice
    with pytest.raises(TypeError, match="gpunp.asarray"):
        gp.concatenate([gp.ones(2), np.ones(2)])
    with pytest.raises(TypeError, match="gpunp.asarray"):
        gp.stack([np.ones(2), gp.ones(2)])
    # a swapped byte order names the native type, values kept...
    big = np.arange(4, dtype=">f8")
    a = gp.asarray(big)
    assert a.dtype == np.float64 and a.get().tolist() == [0.0, 1.0, 2.0, 3.0]
    assert gp.zeros(2, dtype=">i4").dtype == np.int32
    # ...but a view would read swapped bytes: refused, never reinterpreted silently
    with pytest.raises(NotImplementedError, match="byte order"):
        a.view(">f8")
    assert a.view("<i8").get().tolist() == np.arange(4.0).view("<i8").tolist()
