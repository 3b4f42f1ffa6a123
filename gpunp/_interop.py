"""Zero-copy exchange with other libraries: ``__cuda_array_interface__`` (v3)
and DLPack 1.x, both directions, with the stream ordering the protocols
prescribe."""

from __future__ import annotations

import ctypes

import numpy

from gpunp import _lib
from gpunp._config import backend
from gpunp._lib import check, ffi, lib
from gpunp._ndarray import _from_numpy, _wrap, ndarray

KDL_CPU, KDL_CUDA, KDL_ROCM = 1, 2, 10

# ---- PyCapsules, through the stable C API -------------------------------------------

_py = ctypes.pythonapi
_py.PyCapsule_New.restype = ctypes.py_object
_py.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_py.PyCapsule_GetPointer.restype = ctypes.c_void_p
_py.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_py.PyCapsule_GetName.restype = ctypes.c_char_p
_py.PyCapsule_GetName.argtypes = [ctypes.py_object]
_py.PyCapsule_SetName.restype = ctypes.c_int
_py.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
_IsValid = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_IsValid", _py))
_GetPointer = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", _py))

_VERSIONED, _LEGACY = b"dltensor_versioned", b"dltensor"


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _capsule_destructor(capsule):
    # a capsule nobody consumed still owns its tensor; a consumed one was
    # renamed "used_..." and owns nothing
    for name, versioned in ((_VERSIONED, 1), (_LEGACY, 0)):
        if _IsValid(capsule, name):
            lib.gp_dlpack_delete(ffi.cast("void *", _GetPointer(capsule, name)), versioned)
            return


_DESTRUCTOR = ctypes.cast(_capsule_destructor, ctypes.c_void_p)


# ---- device and streams ----------------------------------------------------------------

def _device_type() -> int:
    return {"cuda": KDL_CUDA, "hip": KDL_ROCM}.get(backend(), KDL_CPU)


def _current_stream_native() -> int:
    """The current stream as other libraries name it (1: the legacy default)."""
    cur = ffi.new("gp_stream_t **")
    check(lib.gp_stream_get_current(cur))
    n = ffi.new("uint64_t *")
    check(lib.gp_stream_native(cur[0], n))
    return n[0] or 1


def _dlpack_device(self) -> tuple:
    dt = _device_type()
    return (dt, 0 if dt == KDL_CPU else int(self._raw_info().device_id))


def _dlpack(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    mine = _dlpack_device(self)
    if dl_device is not None and tuple(dl_device) != mine:
        if tuple(dl_device) != (KDL_CPU, 0):
            raise BufferError(f"gpunp cannot export to device {tuple(dl_device)}")
        if copy is False:
            raise BufferError("exporting to the CPU needs a copy")
        host = self.get()
        return host.__dlpack__(max_version=max_version) if max_version else host.__dlpack__()
    a = self
    if copy or any(st < 0 for st in self.strides):
        # consumers such as PyTorch cannot hold negative strides (and some
        # abort on them): those arrays leave as a copy, which copy=None allows
        if copy is False:
            raise BufferError("an array with negative strides is exported as a copy; "
                              "copy=False forbids that")
        a = self.copy()
    if mine[0] != KDL_CPU:
        if stream is None:
            stream = 1  # the protocol's default: the legacy default stream
        if stream == 0:
            raise ValueError("stream 0 is ambiguous in the DLPack protocol")
        if stream != -1:
            check(lib.gp_stream_signal_native(int(stream)))
    elif stream is not None and stream != -1:
        raise ValueError("a CPU tensor takes no stream")
    versioned = max_version is not None and tuple(max_version)[0] >= 1
    out = ffi.new("void **")
    s = lib.gp_array_to_dlpack(a._h, 1 if versioned else 0, out)
    if s:
        err = _lib.error(s)
        raise BufferError(str(err)) if isinstance(err, ValueError) else err
    return _py.PyCapsule_New(int(ffi.cast("uintptr_t", out[0])),
                             _VERSIONED if versioned else _LEGACY, _DESTRUCTOR)


def from_dlpack(x, /, *, device=None, copy=None) -> ndarray:
    """An array sharing the memory of `x`, any object with ``__dlpack__``
    (a copy only where the memory is on another device, or copy=True)."""
    if isinstance(x, ndarray):
        return x.copy() if copy else x
    mine = _device_type()
    theirs = tuple(x.__dlpack_device__())
    if theirs[0] != mine:
        if copy is False:
            raise BufferError(f"memory on device {theirs} needs a copy to reach gpunp's")
        return _from_numpy(numpy.from_dlpack(x))  # a dtype gpunp lacks: its TypeError
    stream = _current_stream_native() if mine != KDL_CPU else None
    try:
        capsule = x.__dlpack__(stream=stream, max_version=(1, 1))
    except TypeError:  # a producer older than DLPack 1.0
        capsule = x.__dlpack__(stream=stream)
    name = _py.PyCapsule_GetName(capsule)
    versioned = 1 if name == _VERSIONED else 0
    if name not in (_VERSIONED, _LEGACY):
        raise BufferError(f"not a DLPack capsule: {name!r}")
    ptr = _py.PyCapsule_GetPointer(capsule, name)
    out = _lib.out_cell()
    check(lib.gp_array_from_dlpack(ffi.cast("void *", ptr), versioned, out))
    arr = _wrap(out[0])
    # the array owns the tensor now: the capsule must not delete it too
    _py.PyCapsule_SetName(capsule, b"used_" + name)
    if arr._raw_info().dtype == _lib.BFLOAT16:
        _lib.bfloat16()  # kDLBfloat: ml_dtypes' dtype (TypeError without it)
    return arr.copy() if copy else arr


# ---- __cuda_array_interface__ -------------------------------------------------------------

def _cai(self) -> dict:
    if _device_type() != KDL_CUDA:
        raise AttributeError("__cuda_array_interface__ (arrays of the host backend live "
                             "in host memory)")
    info = self._raw_info()
    shape, dtype, strides, _ = self._meta()
    c = bool(info.flags & lib.GP_FLAG_C_CONTIGUOUS)
    return {"shape": shape, "typestr": dtype.str, "descr": [("", dtype.str)],
            "data": (int(info.data) if info.size else 0,
                     not bool(info.flags & lib.GP_FLAG_WRITEABLE)),
            "strides": None if c else strides, "version": 3,
            "stream": _current_stream_native()}


_cuda_array_interface = property(_cai)


def from_cuda_array_interface(obj) -> ndarray:
    """An array over the memory of `obj`'s ``__cuda_array_interface__``,
    keeping `obj` alive as its base."""
    cai = obj.__cuda_array_interface__
    if cai.get("mask") is not None:
        raise NotImplementedError("__cuda_array_interface__ with a mask")
    shape = tuple(int(s) for s in cai["shape"])
    # PyTorch and CuPy give bfloat16 as ml_dtypes' dtype.str, a 2-byte void
    dt = _lib.bfloat16() if cai["typestr"] == "<V2" else numpy.dtype(cai["typestr"])
    ptr, readonly = cai["data"]
    strides = cai.get("strides")
    stream = cai.get("stream")
    if stream is not None:
        if stream == 0:
            raise ValueError("stream 0 is not allowed by __cuda_array_interface__ v3")
        check(lib.gp_stream_wait_native(int(stream)))
    out = _lib.out_cell()
    st = ffi.NULL if strides is None else [int(s) for s in strides]
    cur = ffi.new("int32_t *")
    check(lib.gp_device_get(cur))
    check(lib.gp_array_from_pointer(int(ptr or 0), _lib.dtype_code(dt), len(shape), shape, st,
                                    cur[0], 1 if readonly else 0, out))
    arr = _wrap(out[0])
    arr._base = obj
    return arr
