"""``gpunp.cuda.memory_hook``: hooks on array memory (CuPy's
``cupy.cuda.memory_hook``). A hook used as a context manager sees every
allocation and free of this thread's arrays in the block:
``malloc_preprocess``/``malloc_postprocess`` around an allocation,
``free_preprocess``/``free_postprocess`` around its release.

While a hook is active, allocations go through Python (the engine calls
back for each one), so they cost microseconds more: hooks are for
debugging. ``alloc_preprocess``/``alloc_postprocess`` (CuPy's calls when
its pool takes new memory from the driver) are never called: gpunp's pool
lives in the engine, below the hooks."""

from __future__ import annotations

from gpunp.cuda import memory as _memory


class MemoryHook:
    """Base of memory hooks: subclass it, set `name`, override the calls
    wanted. ``with hook:`` activates it on this thread; two hooks of the
    same name cannot be active at once."""

    name = "MemoryHook"

    def __enter__(self):
        hooks = _memory._state.__dict__.setdefault("hooks", [])
        if any(h.name == self.name for h in hooks):
            raise KeyError(f"memory hook {self.name!r} already exists")
        hooks.append(self)
        _memory._nested += 1
        _memory._install()
        return self

    def __exit__(self, *exc):
        _memory._state.hooks.remove(self)
        _memory._nested -= 1
        _memory._install()

    def alloc_preprocess(self, **kwargs):
        pass

    def alloc_postprocess(self, **kwargs):
        pass

    def malloc_preprocess(self, **kwargs):
        """Before an allocation: device_id, size, mem_size."""

    def malloc_postprocess(self, **kwargs):
        """After it: device_id, size, mem_size, mem_ptr, pmem_id."""

    def free_preprocess(self, **kwargs):
        """Before a release: device_id, mem_size, mem_ptr, pmem_id."""

    def free_postprocess(self, **kwargs):
        """After it: the same."""


def get_memory_hooks() -> dict:
    """This thread's active hooks by name."""
    return {h.name: h for h in getattr(_memory._state, "hooks", [])}
