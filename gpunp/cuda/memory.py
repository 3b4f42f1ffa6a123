"""``ndarray.data``: CuPy's memory pointer objects. A ``MemoryPointer`` is an
address inside a ``Memory`` (the buffer an array views); both keep the
array that owns the buffer alive, so the address stays valid while they do.
The copies go through gpunp.cuda.runtime's memcpy (on the host backend, a
host copy)."""

from __future__ import annotations

import operator

import gpunp
from gpunp.cuda import runtime


class Memory:
    """A device buffer: its start `ptr`, its `size` in bytes (the allocation,
    which may be larger than the arrays in it) and its `device_id`."""

    __module__ = "gpunp.cuda"
    __slots__ = ("ptr", "size", "device_id", "_owner")

    def __init__(self, ptr: int, size: int, device_id: int, owner=None):
        self.ptr, self.size, self.device_id = int(ptr), int(size), int(device_id)
        self._owner = owner  # what keeps the memory alive (an array)

    @property
    def device(self):
        return gpunp.cuda.Device(self.device_id)

    def __int__(self):
        return self.ptr

    def __repr__(self):
        return f"<gpunp.cuda.Memory ptr={self.ptr:#x} size={self.size} device={self.device_id}>"


class MemoryPointer:
    """An address `ptr` inside `mem` (CuPy's ``cupy.cuda.MemoryPointer``):
    ``MemoryPointer(mem, offset)``; ``int(p)`` is the address and ``p + n``
    the address `n` bytes on, in the same memory."""

    __module__ = "gpunp.cuda"
    __slots__ = ("mem", "ptr", "device_id")

    def __init__(self, mem: Memory, offset: int):
        self.mem = mem
        self.ptr = mem.ptr + operator.index(offset)
        self.device_id = mem.device_id

    @property
    def device(self):
        return self.mem.device

    def __int__(self):
        return self.ptr

    def __add__(self, offset):
        return MemoryPointer(self.mem, self.ptr - self.mem.ptr + operator.index(offset))

    __radd__ = __add__

    def __sub__(self, offset):
        return self + -operator.index(offset)

    def __repr__(self):
        return f"<gpunp.cuda.MemoryPointer ptr={self.ptr:#x} device={self.device_id}>"

    def copy_from_device(self, src: "MemoryPointer", size: int) -> None:
        """Copies `size` bytes from the device memory at `src` to here."""
        runtime.memcpy(self.ptr, int(src), size, runtime.memcpyDeviceToDevice)

    def copy_from_host(self, mem, size: int) -> None:
        """Copies `size` bytes from host memory at `mem` (an address, or a
        ctypes pointer) to here."""
        runtime.memcpy(self.ptr, _host_address(mem), size, runtime.memcpyHostToDevice)

    def copy_to_host(self, mem, size: int) -> None:
        """Copies `size` bytes from here to host memory at `mem`."""
        runtime.memcpy(_host_address(mem), self.ptr, size, runtime.memcpyDeviceToHost)


def _host_address(mem) -> int:
    value = getattr(mem, "value", None)  # a ctypes c_void_p
    return int(value) if value is not None else operator.index(mem)
