"""``gpunp.show_config()``: what gpunp runs on."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy

from gpunp._lib import check, ffi, lib


def config(key: str) -> str:
    out = ffi.new("const char **")
    check(lib.gp_runtime_config(key.encode(), out))
    return ffi.string(out[0]).decode() if out[0] != ffi.NULL else ""


def backend() -> str:
    """The name of the running backend ("host", "cuda", "hip")."""
    return config("backend")


def show_config(file=None) -> None:
    """Prints gpunp's version, backend, device, compiler and cache folder."""
    file = file or sys.stdout
    rows = [
        ("gpunp", ffi.string(lib.gp_version_string()).decode()),
        ("backend", config("backend")),
        ("device", config("device_name")),
        ("target", config("target")),
        ("compiler", _compiler_text()),
        ("cache_dir", config("cache_dir") or "(disk cache off)"),
        ("kernel_log", config("kernel_log") or "(off)"),
        ("kernel_pack", _pack_text()),
        ("python", sys.version.split()[0]),
        ("numpy", numpy.__version__),
    ]
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{k:<{width}}  {v}", file=file)


def _compiler_text() -> str:
    """The compiler's identity, or why there is none: cached and packed
    kernels still run without one, so its absence is reported, not raised."""
    try:
        ident = config("compiler")
    except Exception as e:  # noqa: BLE001 - whatever the engine's reason, shown
        return f"(none: {e})"
    # the engine's identity is a disk cache key: "<command>|<version
    # line>|<flags>" (a C compiler's) or "<compiler and flags>|<target>" (a
    # GPU's); a reader wants the parts apart
    parts = ident.split("|", 2)
    if len(parts) == 2:
        return f"{parts[0].strip()}, for {parts[1].strip()}"
    if len(parts) != 3:
        return ident
    command, version, flags = parts
    return f"{command} ({version.strip()}), flags {flags.strip()}"


def _pack_text() -> str:
    """The kernel pack's folder and the targets it holds kernels for."""
    d = config("kernel_pack")
    if not d:
        return "(none)"
    try:
        held = sorted(f"{p.name} ({sum(1 for _ in p.glob('*.gpk'))})" for p in Path(d).iterdir()
                      if p.is_dir())
    except OSError:
        held = []
    return f"{d}: {', '.join(held)}" if held else f"{d} (absent or empty)"


def finish_compiles() -> None:
    """Waits until the kernels first compiled quickly have their optimised
    code compiled (in the background); each takes it at its next call."""
    check(lib.gp_cache_finish_compiles())


def cache_stats() -> dict:
    """Counters of the kernel cache since the process started."""
    s = ffi.new("gp_cache_stats_t *")
    check(lib.gp_cache_get_stats(s))
    return {"memory_hits": s.memory_hits, "disk_hits": s.disk_hits, "compiles": s.compiles,
            "disk_rejects": s.disk_rejects, "compile_seconds": s.compile_seconds,
            "pack_hits": s.pack_hits}
