"""The engine's C ABI from Python, for extension authors and for gpunp.scipy.

gpunp's engine is a C library behind a handle-based ABI (the headers of
``csrc/include/``, all of them in ``gpunp.h``). This module is its public
binding: code outside gpunp's private modules (``gpunp.scipy`` among them)
calls the engine through it, and nothing else::

    from gpunp import engine

    out = engine.ffi.new("gp_array_t **")
    engine.check(engine.lib.gp_array_copy(engine.handle(a), ord("C"), out))
    b = engine.adopt(out[0])

- ``ffi``, ``lib``: the cffi module (API mode) of the engine.
- ``check(status)``: raises the exception gpunp raises for a failed call
  (``IndexError``, ``ValueError``, ``TypeError``, ``MemoryError``...), with
  the engine's message; does nothing for ``GP_OK`` (0).
- ``handle(a)``: the ``gp_array_t *`` of a ``gpunp.ndarray``, borrowed: valid
  while ``a`` lives, never released by the caller.
- ``adopt(h)``: a new ``gpunp.ndarray`` that owns ``h``, a handle an engine
  call returned through an out-pointer (the array releases it).
- ``dtype_code(dtype)``: the engine's code (``lib.GP_FLOAT32``...) of a
  NumPy dtype-like; ``TypeError`` for a dtype gpunp lacks.
"""

from __future__ import annotations

from gpunp import _lib, _ndarray

__all__ = ["ffi", "lib", "check", "handle", "adopt", "dtype_code"]

ffi = _lib.ffi
lib = _lib.lib
check = _lib.check
dtype_code = _lib.dtype_code


def handle(a):
    """The engine handle (``gp_array_t *``) of the gpunp array `a`, borrowed
    from it: keep `a` alive while the handle is used. TypeError for anything
    that is not a ``gpunp.ndarray`` (convert with ``gpunp.asarray`` first)."""
    if not isinstance(a, _ndarray.ndarray):
        raise TypeError(f"expected a gpunp.ndarray, got {type(a).__name__}")
    return a._h


def adopt(h):
    """A new ``gpunp.ndarray`` owning the engine handle `h` (from an engine
    call's out-pointer); the array releases it when it is collected. A NULL
    handle is a ValueError (the call failed, or `h` is not one)."""
    if not isinstance(h, ffi.CData) or ffi.typeof(h) is not ffi.typeof("gp_array_t *"):
        raise TypeError("adopt() takes a gp_array_t * an engine call returned")
    if h == ffi.NULL:
        raise ValueError("adopt() of a NULL handle")
    return _ndarray._wrap(h)
