"""``gpunp.cuda.memory_hooks``: the memory hooks CuPy ships
(``cupy.cuda.memory_hooks``): ``DebugPrintHook`` prints each allocation and
free as a JSON line; ``LineProfileHook`` sums the bytes allocated by each
line of the Python code that allocated them."""

from __future__ import annotations

import json
import os
import sys

from gpunp.cuda.memory_hook import MemoryHook


class DebugPrintHook(MemoryHook):
    """Prints a JSON line per allocation and free to `file` (stdout by
    default), flushing each line if `flush`."""

    name = "DebugPrintHook"

    def __init__(self, file=None, flush=True):
        self.file = sys.stdout if file is None else file
        self.flush = flush

    def _print(self, record):
        self.file.write(json.dumps(record) + "\n")
        if self.flush:
            self.file.flush()

    def malloc_postprocess(self, device_id, size, mem_size, mem_ptr, pmem_id):
        self._print({"hook": "malloc", "device_id": device_id, "size": size,
                     "mem_size": mem_size, "mem_ptr": mem_ptr, "pmem_id": hex(pmem_id)})

    def free_postprocess(self, device_id, mem_size, mem_ptr, pmem_id):
        self._print({"hook": "free", "device_id": device_id, "mem_size": mem_size,
                     "mem_ptr": mem_ptr, "pmem_id": hex(pmem_id)})


class _Frame:
    __slots__ = ("name", "used_bytes", "children")

    def __init__(self, name):
        self.name, self.used_bytes, self.children = name, 0, {}


class LineProfileHook(MemoryHook):
    """Sums the bytes allocated under each line of Python code (the stack of
    every allocation, gpunp's own frames left out); ``print_report()``
    prints the tree. `max_depth` caps the frames kept per stack."""

    name = "LineProfileHook"

    def __init__(self, max_depth=0):
        self._root = _Frame("_root")
        self._max_depth = max_depth

    def malloc_preprocess(self, device_id, size, mem_size):
        frames = []
        f = sys._getframe(1)
        while f is not None:
            if not _in_gpunp(f.f_code.co_filename):
                frames.append(f"{f.f_code.co_filename}:{f.f_lineno}:{f.f_code.co_name}")
            f = f.f_back
        frames.reverse()
        if self._max_depth > 0:
            frames = frames[:self._max_depth]
        node = self._root
        node.used_bytes += mem_size
        for name in frames:
            node = node.children.setdefault(name, _Frame(name))
            node.used_bytes += mem_size

    def print_report(self, file=None):
        """Prints each frame with the bytes allocated under it."""
        file = sys.stdout if file is None else file
        self._report(self._root, 0, file)
        file.flush()

    def _report(self, node, depth, file):
        file.write(f"{'  ' * depth}{node.name} ({_human(node.used_bytes)})\n")
        for child in node.children.values():
            self._report(child, depth + 1, file)


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _in_gpunp(path: str) -> bool:
    return os.path.abspath(path).startswith(_PACKAGE + os.sep)


def _human(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.2f}{unit}"
        n /= 1024
    return f"{n:.2f}TB"
