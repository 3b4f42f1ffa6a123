"""The kernel cache against its user's adversaries (docs/architecture.md,
"What the kernel cache trusts"): planted entries and links, damaged
entries, compilers that hang or are missing, threads that must not wait.

Every test runs gpunp in a child process on the host backend, with a cache
folder of its own, so what it plants reaches no other test.
"""

import json
import os
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

# Children start in a neutral folder: from the repository root, `import
# gpunp` would find the source tree (without its compiled engine) first.
NEUTRAL = tempfile.gettempdir()
CC = shutil.which("cc") or shutil.which("gcc")

pytestmark = pytest.mark.skipif(CC is None, reason="no C compiler to build the planted objects")

KERNEL_USE = ("import gpunp, numpy, json\n"
              "a = gpunp.asarray(numpy.arange(10, dtype=numpy.float32))\n"
              "r = (a * 3 + 1).sum().item()\n"
              "print(json.dumps({'r': r, **gpunp._config.cache_stats()}))")

HEADER = struct.Struct("=8sQQQ")  # cache.c's entry_header_t: magic, lengths, image hash


def run(code, env=None, **kw):
    e = dict(os.environ)
    e.update({"GPUNP_BACKEND": "host", "GPUNP_KERNEL_PACK": ""})
    e.update(env or {})
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=e,
                          cwd=NEUTRAL, timeout=kw.pop("timeout", 60), **kw)


def stats(env, marker=None):
    """KERNEL_USE's result and cache counters, and what it said on stderr;
    first of all, that nothing planted ran (`marker`)."""
    r = run(KERNEL_USE, env | ({"GPUNP_TEST_MARKER": str(marker)} if marker else {}))
    assert not (marker and marker.exists()), "the planted code ran"
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout), r.stderr


def fnv1a(data: bytes) -> int:
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def with_image(entry: bytes, image: bytes) -> bytes:
    """The entry with its image replaced, checksum and lengths made good:
    what someone who can write the file plants (the identity text is no
    secret: the same code run in their own cache writes it)."""
    magic, ident_len, _, _ = HEADER.unpack_from(entry)
    ident = entry[HEADER.size:HEADER.size + ident_len]
    return HEADER.pack(magic, ident_len, len(image), fnv1a(image)) + ident + image


def script(path: Path, body: str) -> Path:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


@pytest.fixture(scope="module")
def warm(tmp_path_factory):
    """A cache KERNEL_USE filled (and the sources it logged)."""
    d = tmp_path_factory.mktemp("warm")
    s, _ = stats({"GPUNP_CACHE_DIR": str(d / "cache"), "GPUNP_KERNEL_LOG": str(d / "log")})
    assert s["r"] == 145.0 and s["compiles"] >= 3
    return d


@pytest.fixture(scope="module")
def planted_so(tmp_path_factory):
    """A shared object whose constructor writes the file GPUNP_TEST_MARKER
    names: loading it is running someone else's code."""
    d = tmp_path_factory.mktemp("planted")
    src = d / "planted.c"
    src.write_text("#include <stdio.h>\n#include <stdlib.h>\n"
                   "__attribute__((constructor)) static void planted(void)\n{\n"
                   "    const char *p = getenv(\"GPUNP_TEST_MARKER\");\n"
                   "    FILE *f = p ? fopen(p, \"w\") : NULL;\n"
                   "    if (f) { fputs(\"ran\", f); fclose(f); }\n}\n")
    subprocess.run([CC, "-shared", "-fPIC", "-o", str(d / "planted.so"), str(src)], check=True)
    return (d / "planted.so").read_bytes()


@pytest.fixture(scope="module")
def pack(tmp_path_factory, warm):
    """A kernel pack of the kernels `warm` logged (tools/kernel_pack.py's way)."""
    d = tmp_path_factory.mktemp("pack")
    code = ("import sys\nfrom pathlib import Path\nfrom gpunp import _config\n"
            "from gpunp._lib import ffi, lib\n"
            f"for f in sorted(Path({str(warm / 'log')!r}).glob('*.cu')):\n"
            "    if lib.gp_rtc_pack(b'host', f.read_bytes(), _config.config('target').encode(),\n"
            f"                       {str(d / 'pack')!r}.encode()):\n"
            "        sys.exit(ffi.string(lib.gp_errmsg()).decode())\n")
    r = run(code, {"GPUNP_CACHE_DIR": str(d / "cache")})
    assert r.returncode == 0, r.stderr + r.stdout
    assert len(list((d / "pack").rglob("*.gpk"))) >= 3
    return d / "pack"


def copy_cache(warm, dest: Path) -> list:
    shutil.copytree(warm / "cache", dest)
    entries = sorted(dest.rglob("*.gpk"))
    assert len(entries) >= 3
    return entries


# ---- what is loaded ----------------------------------------------------------------------

HOW = ["entry_writable_by_others", "folder_writable_by_group", "cache_writable_by_others",
       "entry_is_a_symlink", "entry_owned_by_another_user"]


@pytest.mark.parametrize("how", HOW)
def test_a_planted_entry_does_not_run(tmp_path, warm, planted_so, how):
    """An entry where the victim's would be, with a good checksum and the
    right identity text, is ignored (and the reason said once) when anyone
    but the user could have written it: the entry or a folder on the way
    writable by others, the entry a link, or owned by someone else."""
    if how == "entry_owned_by_another_user" and os.geteuid() != 0:
        pytest.skip("only root can give a file to another user")
    cache = tmp_path / "cache"
    entries = copy_cache(warm, cache)
    for p in entries:
        planted = with_image(p.read_bytes(), planted_so)
        if how == "entry_is_a_symlink":
            outside = tmp_path / ("outside-" + p.name)
            outside.write_bytes(planted)
            p.unlink()
            p.symlink_to(outside)
        else:
            p.write_bytes(planted)
            if how == "entry_writable_by_others":
                p.chmod(0o666)
            elif how == "entry_owned_by_another_user":
                os.chown(p, 65534, 65534)
    if how == "folder_writable_by_group":
        entries[0].parent.chmod(0o770)
    elif how == "cache_writable_by_others":
        cache.chmod(0o777)
    marker = tmp_path / "marker"
    s, err = stats({"GPUNP_CACHE_DIR": str(cache)}, marker)
    assert s["r"] == 145.0 and s["disk_hits"] == 0 and s["compiles"] == len(entries)
    said = [line for line in err.splitlines() if line.startswith("gpunp:")]
    assert len(said) == 1, err  # once, however many entries
    if how == "entry_is_a_symlink":
        for p in entries:  # the link is replaced, never written through
            assert p.is_file() and not p.is_symlink()
            assert (tmp_path / ("outside-" + p.name)).read_bytes()[-len(planted_so):] == planted_so


def test_an_entry_the_user_wrote_is_trusted(tmp_path, warm, planted_so):
    """The other side of the line the test above draws (and the proof that
    its planted entries would run): what the user could write is trusted,
    as the user's own code is. Its image has no kernel, so it fails to load
    and is replaced by the kernel compiled again."""
    cache = tmp_path / "cache"
    entries = copy_cache(warm, cache)
    for p in entries:
        p.write_bytes(with_image(p.read_bytes(), planted_so))
    marker = tmp_path / "marker"
    s, _ = stats({"GPUNP_CACHE_DIR": str(cache), "GPUNP_TEST_MARKER": str(marker)})
    assert marker.exists()
    assert s["r"] == 145.0 and s["compiles"] == len(entries)
    assert all(planted_so not in p.read_bytes() for p in entries)


def test_an_entry_that_fails_to_load_is_replaced(tmp_path, warm):
    """An entry whose checks hold but whose image does not load is removed
    and compiled again, not kept to fail every later process."""
    cache = tmp_path / "cache"
    entries = copy_cache(warm, cache)
    for p in entries:
        p.write_bytes(with_image(p.read_bytes(), b"not a shared object"))
    s, _ = stats({"GPUNP_CACHE_DIR": str(cache)})
    assert s["r"] == 145.0 and s["compiles"] == len(entries)
    assert s["disk_rejects"] == len(entries)
    s, _ = stats({"GPUNP_CACHE_DIR": str(cache)})
    assert s["compiles"] == 0 and s["disk_hits"] == len(entries)


def test_a_compiled_kernel_that_fails_to_load_is_not_stored(tmp_path):
    """A compiler whose output does not load (here it writes text) fails
    the call and leaves nothing in the cache for the next process."""
    cc = script(tmp_path / "badcc", f"""case "$*" in *--version*) exec {CC} "$@";; esac
while [ $# -gt 0 ]; do [ "$1" = -o ] && printf 'not a shared object' > "$2"; shift; done
""")
    cache = tmp_path / "cache"
    r = run(KERNEL_USE, {"GPUNP_CACHE_DIR": str(cache), "GPUNP_CC": str(cc)})
    assert r.returncode != 0 and "cannot load a compiled kernel" in r.stderr
    assert not list(cache.rglob("*.gpk"))


def test_a_short_entry_is_rejected(tmp_path, warm):
    """A header whose lengths run past the end of the file (the identity
    text claimed whole, the image length wrapped below zero) is rejected
    before either is read (csrc/tests/test_cache.c reads it next to an
    unmapped page)."""
    cache = tmp_path / "cache"
    entries = copy_cache(warm, cache)
    for p in entries:
        data = p.read_bytes()
        magic, ident_len, _, _ = HEADER.unpack_from(data)
        short = HEADER.size + ident_len - 8
        p.write_bytes(HEADER.pack(magic, ident_len, (short - HEADER.size - ident_len) % 2**64, 0)
                      + data[HEADER.size:short])
    s, _ = stats({"GPUNP_CACHE_DIR": str(cache)})
    assert s["r"] == 145.0 and s["disk_rejects"] == len(entries)


def test_the_writer_does_not_follow_a_planted_link(tmp_path, warm):
    """Links planted under every name the victim's temporary files had
    while they were named predictably (the entry's name, '.tmp.', the pid
    and a counter) neither redirect its writes nor end up as its entries:
    a temporary file is always a new one (O_EXCL, O_NOFOLLOW)."""
    cache = tmp_path / "cache"
    names = [p.relative_to(warm / "cache") for p in sorted((warm / "cache").rglob("*.gpk"))]
    for n in names:
        (cache / n.parent).mkdir(parents=True, exist_ok=True, mode=0o700)
    cache.chmod(0o700)
    precious = tmp_path / "precious"
    precious.write_text("precious")
    code = "import sys, gpunp\nsys.stdin.readline()\n" + KERNEL_USE
    e = dict(os.environ, GPUNP_BACKEND="host", GPUNP_KERNEL_PACK="", GPUNP_CACHE_DIR=str(cache))
    child = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=e,
                             cwd=NEUTRAL)
    for n in names:
        for k in range(64):
            (cache / f"{n}.tmp.{child.pid}.{k}").symlink_to(precious)
    out, err = child.communicate("go\n", timeout=60)
    assert child.returncode == 0, err
    assert json.loads(out)["r"] == 145.0
    assert precious.read_bytes() == b"precious"
    for n in names:
        p = cache / n
        assert p.is_file() and not p.is_symlink()
        assert stat.S_IMODE(p.stat().st_mode) == 0o600


def test_a_planted_pack_entry_does_not_run(tmp_path, pack, planted_so):
    """The kernel pack is held to the same rule (its owner may also be
    root): a pack folder writable by others serves nothing."""
    pack = Path(shutil.copytree(pack, tmp_path / "pack"))
    entries = sorted(pack.rglob("*.gpk"))
    good, _ = stats({"GPUNP_CACHE_DIR": str(tmp_path / "c1"), "GPUNP_KERNEL_PACK": str(pack)})
    assert good["pack_hits"] >= 3 and good["compiles"] == 0
    for p in entries:
        p.write_bytes(with_image(p.read_bytes(), planted_so))
    entries[0].parent.chmod(0o777)
    marker = tmp_path / "marker"
    s, err = stats({"GPUNP_CACHE_DIR": str(tmp_path / "c2"), "GPUNP_KERNEL_PACK": str(pack)},
                   marker)
    assert s["r"] == 145.0 and s["pack_hits"] == 0 and s["compiles"] >= 3
    assert len([line for line in err.splitlines() if line.startswith("gpunp:")]) == 1, err


def test_cache_folders_are_the_users_alone(tmp_path):
    cache = tmp_path / "a" / "b"
    s, _ = stats({"GPUNP_CACHE_DIR": str(cache)})
    assert s["compiles"] >= 3
    for p in [tmp_path / "a", cache, *[q for q in cache.rglob("*")]]:
        mode = stat.S_IMODE(p.stat().st_mode)
        assert mode == (0o700 if p.is_dir() else 0o600), (p, oct(mode))


# ---- compilers ---------------------------------------------------------------------------

def test_a_hung_compiler_is_stopped(tmp_path):
    """GPUNP_COMPILE_TIMEOUT bounds a compile: the compiler (and what it
    started) is killed and the call raises CompileError saying why."""
    pids = tmp_path / "pids"
    cc = script(tmp_path / "hungcc", f"""case "$*" in *--version*) exec {CC} "$@";; esac
sleep 120 &
echo $! > {pids}
wait
""")
    code = ("import gpunp\ntry:\n    gpunp.arange(3.0) + 1\n    print('no error')\n"
            "except Exception as e:\n    print(type(e).__name__, e)")
    r = run(code, {"GPUNP_CACHE_DIR": str(tmp_path / "c"), "GPUNP_CC": str(cc),
                   "GPUNP_COMPILE_TIMEOUT": "0.5"}, timeout=30)
    assert r.stdout.startswith("CompileError") and "GPUNP_COMPILE_TIMEOUT" in r.stdout, r.stdout
    sleeper = int(pids.read_text())
    try:
        with open(f"/proc/{sleeper}/stat") as f:
            assert f.read().split(") ")[1][0] in "ZX"  # dead, perhaps not yet reaped
    except FileNotFoundError:
        pass


THREADS = """
import json, os, threading, time
import gpunp, numpy
d = os.environ["GP_TEST_DIR"]
release = os.path.join(d, "release")
open(release, "w").close()
a = gpunp.arange(10.0)
b = a + 1  # compiled now, while the compiler is free
warm = len(open(os.path.join(d, "compiles")).read().split())
os.remove(release)
os.remove(os.path.join(d, "started"))

def wait_for(name):
    for _ in range(2000):
        if os.path.exists(os.path.join(d, name)):
            return True
        time.sleep(0.01)
    return False

cosh = {}
def new_kernel(k):
    cosh[k] = gpunp.cosh(a).get()
hits = []
def loaded_kernel():
    for _ in range(50):
        hits.append((a + 1).get())

first = threading.Thread(target=new_kernel, args=(0,))
first.start()
started = wait_for("started")
second = threading.Thread(target=new_kernel, args=(1,))  # the same kernel: waits for it
second.start()
other = threading.Thread(target=loaded_kernel)
other.start()
other.join(timeout=20)
done_while_compiling = not other.is_alive()
open(release, "w").close()
for t in (first, second, other):
    t.join()
print(json.dumps({"warm": warm, "started": started, "done_while_compiling": done_while_compiling,
                  "hits": len(hits), "ok": all((h == numpy.arange(10.0) + 1).all() for h in hits)
                  and all(numpy.allclose(cosh[k], numpy.cosh(numpy.arange(10.0)), rtol=1e-12)
                          for k in (0, 1))}))
"""


def test_a_loaded_kernel_does_not_wait_for_another_threads_compile(tmp_path):
    """While one thread's compile is held (the fake compiler waits for a
    file the test writes only afterwards), another thread runs an already
    loaded kernel to the end; a third asking for the kernel being compiled
    waits for it, and it is compiled once."""
    log = tmp_path / "compiles"
    cc = script(tmp_path / "slowcc", f"""case "$*" in *--version*) exec {CC} "$@";; esac
echo x >> {log}
touch {tmp_path}/started
i=0
while [ ! -e {tmp_path}/release ] && [ $i -lt 3000 ]; do sleep 0.01; i=$((i+1)); done
exec {CC} "$@"
""")
    r = run(THREADS, {"GPUNP_CACHE_DIR": str(tmp_path / "c"), "GPUNP_CC": str(cc),
                      "GP_TEST_DIR": str(tmp_path)}, timeout=120)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["started"] and out["ok"] and out["hits"] == 50
    assert out["done_while_compiling"]
    assert len(log.read_text().split()) == out["warm"] + 1  # cosh's kernel, once


def test_no_compiler_still_serves_a_warm_cache(tmp_path, warm):
    """Without a compiler, kernels compiled before are found under the
    identity of the compiler that last filled the cache; a new one raises,
    naming the compiler; show_config says so instead of raising."""
    cache = tmp_path / "cache"
    entries = copy_cache(warm, cache)
    env = {"GPUNP_CACHE_DIR": str(cache), "GPUNP_CC": "/nonexistent/cc"}
    s, _ = stats(env)
    assert s["r"] == 145.0 and s["compiles"] == 0 and s["disk_hits"] == len(entries)
    r = run("import gpunp\ntry:\n    gpunp.cosh(gpunp.ones(3))\nexcept Exception as e:\n"
            "    print(type(e).__name__, e)", env)
    assert r.stdout.startswith("BackendError") and "GPUNP_CC" in r.stdout, r.stdout + r.stderr
    r = run("import gpunp\ngpunp.show_config()", env)
    assert r.returncode == 0, r.stderr
    row = [line for line in r.stdout.splitlines() if line.startswith("compiler")]
    assert row and "/nonexistent/cc" in row[0], r.stdout


def test_no_compiler_still_serves_the_pack(tmp_path, pack):
    s, _ = stats({"GPUNP_CACHE_DIR": str(tmp_path / "c"), "GPUNP_KERNEL_PACK": str(pack),
                  "GPUNP_CC": "/nonexistent/cc"})
    assert s["r"] == 145.0 and s["compiles"] == 0 and s["pack_hits"] >= 3


def test_a_compiler_path_with_a_space(tmp_path):
    """GPUNP_CC is split as a shell splits words: a quoted path may hold
    spaces, and words after it are arguments."""
    folder = tmp_path / "my tools"
    folder.mkdir()
    cc = script(folder / "cc", f'exec {CC} "$@"\n')
    s, _ = stats({"GPUNP_CACHE_DIR": str(tmp_path / "c"), "GPUNP_CC": f"'{cc}' -pipe"})
    assert s["r"] == 145.0 and s["compiles"] >= 3
