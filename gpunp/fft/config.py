"""gpunp.fft.config: the engine's cache of FFT plans, as CuPy's
``cupy.fft.config.get_plan_cache()``. The cache is per thread (a plan and
its work area serve one thread) and holds plans of every device, each keyed
by device, stream and layout; cuFFT allocates each plan's work area, which
the plan keeps while cached."""

from __future__ import annotations

import sys

from gpunp._lib import check, ffi, lib


def _info():
    info = ffi.new("gp_fft_cache_info_t *")
    check(lib.gp_fft_cache_info(info))
    return info


class PlanCache:
    """This thread's plan cache: at most ``get_size()`` plans, least recently
    used dropped first."""

    __slots__ = ()

    @property
    def size(self) -> int:
        """The most plans the cache holds."""
        return int(_info().limit)

    def get_size(self) -> int:
        return int(_info().limit)

    def set_size(self, size: int) -> None:
        """Sets the most plans held (0 turns the cache off)."""
        if not isinstance(size, int):
            raise TypeError(f"the plan cache's size must be an int, not {type(size).__name__}")
        check(lib.gp_fft_cache_set_limit(size))

    def get_curr_size(self) -> int:
        """The plans held now."""
        return int(_info().size)

    def __len__(self) -> int:
        return self.get_curr_size()

    def get_memsize(self) -> int:
        """Bytes of work area the held plans own."""
        return int(_info().work_bytes)

    @property
    def hits(self) -> int:
        return int(_info().hits)

    @property
    def misses(self) -> int:
        return int(_info().misses)

    def clear(self) -> None:
        """Destroys every plan held and zeroes the hit and miss counts."""
        check(lib.gp_fft_cache_clear())

    def show_info(self, file=None) -> None:
        i = _info()
        print(f"gpunp.fft plan cache (this thread): {i.size} of at most {i.limit} plans, "
              f"{i.work_bytes} bytes of work area, {i.hits} hits, {i.misses} misses",
              file=file or sys.stdout)


_CACHE = PlanCache()


def get_plan_cache() -> PlanCache:
    """This thread's FFT plan cache."""
    return _CACHE


def set_plan_cache_size(size: int) -> None:
    _CACHE.set_size(size)


def get_plan_cache_size() -> int:
    return _CACHE.get_size()


def clear_plan_cache() -> None:
    _CACHE.clear()


__all__ = ["PlanCache", "get_plan_cache", "set_plan_cache_size", "get_plan_cache_size",
           "clear_plan_cache"]
