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


def copy_cache(warm, dest: Path) -> list:
    shutil.copytree(warm / "cache", dest)
    entries = sorted(dest.rglob("*.gpk"))
    assert len(entries) >= 3
    return entries


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
