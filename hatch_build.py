"""Hatchling build hook: compiles the engine (build_ffi.py) into the wheel and
tags the wheel for the stable ABI of CPython 3.10+ on the manylinux platform
that the engine's links allow (build_ffi.wheel_platform: the newest glibc
symbol version it uses; the vendor libraries are opened at run time, never
linked). With GPUNP_BUILD_PACK naming a kernel pack made from this tree
(tools/kernel_pack.py, `make wheel PACK_ARCHS=sm_90`), the wheel ships it as
gpunp/_kernels, where the engine looks."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel":
            return
        sys.path.insert(0, self.root)
        import build_ffi

        so = build_ffi.build(Path(self.directory) / "engine-build")
        build_data["force_include"][str(so)] = f"gpunp/{so.name}"
        pack = os.environ.get("GPUNP_BUILD_PACK")
        if pack:
            if not any(Path(pack).glob("cuda-*/*.gpk")):
                raise RuntimeError(f"GPUNP_BUILD_PACK={pack} holds no kernel pack")
            build_data["force_include"][str(Path(pack).resolve())] = "gpunp/_kernels"
        build_data["pure_python"] = False
        build_data["tag"] = f"cp310-abi3-{build_ffi.wheel_platform(so)}"
