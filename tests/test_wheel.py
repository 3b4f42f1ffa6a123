"""The wheel PyPI takes and the libraries its CUDA backend finds, without
building a wheel (CI's set-up checks the built one: tools/check_wheel.py)
and without a GPU.

- build_ffi.wheel_platform reads the extension's needs as readelf does and
  tags a wheel manylinux only where glibc's libraries are all it needs;
- the [cuda13]/[cuda12] extras list exactly the NVIDIA wheels of the
  libraries csrc/ opens (tools/check_wheel.py's table), and the check fails
  when they do not;
- the engine finds NVRTC (stand-in libraries built here with NVRTC's
  symbols) in an nvidia-* wheel's folder of site-packages, CUDA 13's layout
  and CUDA 12's, in the documented order against GPUNP_CUDA_PATH and
  CUDA_PATH, opens NVRTC's builtins from the same folder, and says where
  each came from (gpunp config key "libraries").
"""

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _repository_modules():
    # build_ffi and tools/check_wheel are the repository's, not installed:
    # their folders join sys.path for these imports only, since processes
    # this one spawns (Dask's workers) inherit its sys.path and would import
    # the source tree's gpunp, unbuilt on the GPU machine
    paths = [str(ROOT), str(ROOT / "tools")]
    sys.path[:0] = paths
    try:
        import build_ffi
        import check_wheel
    finally:
        for p in paths:
            sys.path.remove(p)
    return build_ffi, check_wheel


build_ffi, check_wheel = _repository_modules()

CC = os.environ.get("CC") or "cc"


def engine_path():
    import gpunp._engine
    return Path(gpunp._engine.__file__)


def readelf_needs(path):
    """DT_NEEDED and the required symbol versions, by binutils' readelf."""
    out = subprocess.run(["readelf", "-d", "-V", "-W", str(path)], check=True,
                         capture_output=True, text=True).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)
    versions = {}
    part = out.split("Version needs section", 1)[-1] if "Version needs section" in out else ""
    lib = None
    for line in part.splitlines():
        m = re.search(r"File: (\S+)", line)
        if m:
            lib = m.group(1)
            versions[lib] = set()
        m = re.search(r"Name: (\S+)\s+Flags", line)
        if m and lib:
            versions[lib].add(m.group(1))
    return needed, versions


def test_engine_needs_as_readelf_reads_them():
    so = engine_path()
    needed, versions = build_ffi.elf_needs(so)
    assert (needed, versions) == readelf_needs(so)
    # only glibc: the vendor libraries are opened at run time, never linked
    assert set(needed) <= build_ffi.GLIBC_LIBS | {n for n in needed if n.startswith("ld-linux")}
    newest = max((v for vs in versions.values() for v in vs),
                 key=lambda v: [int(x) for x in v[6:].split(".")])
    plat = build_ffi.wheel_platform(so, "linux-x86_64")
    assert plat == "manylinux_" + "_".join(newest[6:].split(".")[:2]) + "_x86_64"


def shared(tmp, name, source, *flags):
    c = tmp / (name + ".c")
    c.write_text(textwrap.dedent(source))
    out = tmp / name
    subprocess.run([CC, "-shared", "-fPIC", "-o", str(out), str(c), f"-Wl,-soname,{name}",
                    *flags], check=True, capture_output=True)
    return out


def test_platform_tag_by_what_is_linked(tmp_path):
    # glibc alone: manylinux for its newest symbol version (dlopen's)
    plain = shared(tmp_path, "libplain.so", """
        #include <dlfcn.h>
        void *f(const char *p) { return dlopen(p, RTLD_NOW); }""")
    needed, versions = build_ffi.elf_needs(plain)
    glibc = sorted((tuple(int(x) for x in v[6:].split(".")) for v in versions["libc.so.6"]))
    assert build_ffi.wheel_platform(plain, "linux-x86_64") == \
        "manylinux_{}_{}_x86_64".format(*glibc[-1][:2])
    assert build_ffi.wheel_platform(plain, "linux-aarch64").endswith("_aarch64")
    # a library outside glibc: the build machine's own tag, not manylinux
    other = shared(tmp_path, "libother.so", "int g(void) { return 1; }")
    user = shared(tmp_path, "libuser.so", "int g(void); int h(void) { return g(); }",
                  f"-L{tmp_path}", "-l:libother.so", "-Wl,--no-as-needed")
    assert "libother.so" in build_ffi.elf_needs(user)[0]
    assert build_ffi.wheel_platform(user, "linux-x86_64") == "linux_x86_64"
    assert build_ffi.wheel_platform(plain, "macosx-11.0-arm64") == "macosx_11_0_arm64"
    with pytest.raises(ValueError):
        build_ffi.elf_needs(tmp_path / "libplain.so.c")


def test_extras_are_the_wheels_of_the_libraries_opened():
    extras = check_wheel.pyproject_extras()
    assert check_wheel.check_extras(extras) == []
    if sys.version_info >= (3, 11):
        import tomllib
        with open(ROOT / "pyproject.toml", "rb") as f:
            toml = tomllib.load(f)["project"]["optional-dependencies"]
        assert extras == toml
    opened = check_wheel.engine_sonames()
    assert {"libcuda", "libnvrtc", "libcublas", "libcufft", "libcusolver",
            "libcusparse", "cccl"} <= set(opened)
    # the check fails on a missing wheel, an extra one, and a range whose
    # soname the engine does not ask for
    broken = {k: list(v) for k, v in extras.items()}
    broken["cuda13"] = [r for r in broken["cuda13"] if "cublas" not in r] + ["nvidia-curand"]
    broken["cuda12"] = [r.replace("cufft-cu12>=11,<12", "cufft-cu12>=12,<13")
                        for r in broken["cuda12"]]
    problems = "\n".join(check_wheel.check_extras(broken))
    assert "[cuda13] lacks nvidia-cublas>=13,<14" in problems
    assert "[cuda13] lists nvidia-curand" in problems
    assert "[cuda12] lists nvidia-cufft-cu12>=12,<13" in problems


def test_metadata_extras():
    meta = textwrap.dedent("""\
        Metadata-Version: 2.4
        Name: gpunp
        Requires-Dist: numpy>=2.0
        Provides-Extra: cuda12
        Requires-Dist: nvidia-cufft-cu12<12,>=11; extra == 'cuda12'
        Provides-Extra: cuda13
        Requires-Dist: nvidia-cublas >=13, <14 ; extra == "cuda13"
        """)
    assert check_wheel.metadata_extras(meta) == {
        "cuda12": ["nvidia-cufft-cu12>=11,<12"], "cuda13": ["nvidia-cublas>=13,<14"]}


# ---- where the engine finds NVRTC -------------------------------------------------------

STUB_NVRTC = """
    #include <stddef.h>
    const char *nvrtcGetErrorString(int r) { return "stand-in NVRTC"; }
    int nvrtcVersion(int *major, int *minor) { *major = MAJOR; *minor = MINOR; return 0; }
    int nvrtcCreateProgram(void **p, const char *s, const char *n, int k,
                           const char *const *h, const char *const *i) { return 1; }
    int nvrtcDestroyProgram(void **p) { return 0; }
    int nvrtcCompileProgram(void *p, int n, const char *const *o) { return 1; }
    int nvrtcGetCUBINSize(void *p, size_t *n) { return 1; }
    int nvrtcGetCUBIN(void *p, char *c) { return 1; }
    int nvrtcGetPTXSize(void *p, size_t *n) { return 1; }
    int nvrtcGetPTX(void *p, char *c) { return 1; }
    int nvrtcGetProgramLogSize(void *p, size_t *n) { return 1; }
    int nvrtcGetProgramLog(void *p, char *c) { return 1; }
    int nvrtcAddNameExpression(void *p, const char *n) { return 1; }
    int nvrtcGetLoweredName(void *p, const char *n, const char **l) { return 1; }
"""


@pytest.fixture(scope="module")
def stubs(tmp_path_factory):
    """A site-packages with CUDA 13's nvidia/cu13/lib, one with CUDA 12's
    nvidia/cuda_nvrtc/lib, and a toolkit folder, each with a stand-in NVRTC
    and its builtins library."""
    tmp = tmp_path_factory.mktemp("nvrtc-stubs")
    built = {}
    for major, minor in ((13, 0), (12, 9)):
        d = tmp / f"build{major}"
        d.mkdir()
        built[major] = (shared(d, f"libnvrtc.so.{major}", STUB_NVRTC, f"-DMAJOR={major}",
                               f"-DMINOR={minor}"),
                        shared(d, f"libnvrtc-builtins.so.{major}.{minor}", "int b;"))
    places = {"site13": (tmp / "site13/nvidia/cu13/lib", 13),
              "site12": (tmp / "site12/nvidia/cuda_nvrtc/lib", 12),
              "toolkit": (tmp / "toolkit/lib64", 13)}
    for folder, major in places.values():
        folder.mkdir(parents=True)
        for f in built[major]:
            shutil.copy(f, folder)
    return tmp, {k: v[0] for k, v in places.items()}


def opened_by_engine(tmp, site=None, **env):
    """The engine's "libraries" after it loaded NVRTC (for a compile that the
    stand-in refuses), in a process with only `env`'s CUDA places."""
    # without `site`, no nvidia-* wheel either: the interpreter's own (the
    # GPU machine's PyTorch brings one) would come before the toolkit
    code = ("import gpunp; from gpunp._lib import lib, ffi; from gpunp import _config\n"
            + ("" if site else "lib.gp_runtime_set_library_path(b'')\n") +
            "assert lib.gp_rtc_check_cuda(b'', b'sm_90') != 0\n"
            "print(ffi.string(lib.gp_errmsg()).decode()); print('--'); "
            "print(_config.config('libraries'), end='')")
    e = {k: v for k, v in os.environ.items()
         if k not in ("GPUNP_CUDA_PATH", "CUDA_PATH", "CUDA_HOME", "LD_LIBRARY_PATH")}
    e.update({k: str(v) for k, v in env.items()})
    if site:
        e["PYTHONPATH"] = os.pathsep.join([str(tmp / site)] + [p for p in [
            os.environ.get("PYTHONPATH")] if p])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=e,
                         cwd=str(ROOT), timeout=120)
    assert out.returncode == 0, out.stderr
    err, libs = out.stdout.split("--\n")
    assert "stand-in NVRTC" in err
    return dict(line.split(": ", 1) for line in libs.splitlines())


def test_nvrtc_from_the_cuda13_wheel_before_the_toolkit(stubs):
    tmp, places = stubs
    libs = opened_by_engine(tmp, "site13", CUDA_PATH=tmp / "toolkit")
    assert libs["NVRTC"] == str(places["site13"] / "libnvrtc.so.13")
    assert libs["NVRTC's builtins"] == str(places["site13"] / "libnvrtc-builtins.so.13.0")


def test_nvrtc_from_the_cuda12_wheel(stubs):
    tmp, places = stubs
    libs = opened_by_engine(tmp, "site12")
    assert libs["NVRTC"] == str(places["site12"] / "libnvrtc.so.12")
    assert libs["NVRTC's builtins"] == str(places["site12"] / "libnvrtc-builtins.so.12.9")


def test_override_before_the_wheel_and_the_toolkit_without_it(stubs):
    tmp, places = stubs
    toolkit = {"NVRTC": str(places["toolkit"] / "libnvrtc.so.13"),
               "NVRTC's builtins": str(places["toolkit"] / "libnvrtc-builtins.so.13.0")}
    assert opened_by_engine(tmp, "site13", GPUNP_CUDA_PATH=tmp / "toolkit") == toolkit
    assert opened_by_engine(tmp, None, CUDA_HOME=tmp / "toolkit") == toolkit
