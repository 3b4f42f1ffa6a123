"""gpunp arrays as Dask chunks: dask.array, dask.distributed and xarray on gpunp.

``import gpunp.dask`` registers everything at once. Without it Dask
registers gpunp itself: through the lazy entries that ``import gpunp``
leaves in Dask's dispatch tables, now or when Dask is imported
(gpunp/_dask_hook.py), the first time it looks a gpunp chunk up; and
through the ``dask.array.backends`` entry point of gpunp's package metadata
when a program asks for the ``"gpunp"`` array backend
(``dask.config.set({"array.backend": "gpunp"})``). Registered are dask's ``sizeof``, dask.array's
dispatch for gpunp chunks, the array backend and, where dask.distributed is
imported, its serialisers. ``LocalCluster`` starts a cluster of one worker
per GPU (worker processes on the host backend without one), each of which
imports gpunp.dask at start. ``import gpunp`` imports none of this, nor Dask.

See docs/multi-gpu.md ("More than one GPU").
"""

import sys
import threading

import numpy

import gpunp

_done = set()
# Dask's threads may meet their first gpunp chunk at once; reentrant, as the
# backend entry point made inside registers too
_lock = threading.RLock()


def _token(x):
    # ndarray.__dask_tokenize__: the bytes' hash (one device-to-host copy, as
    # dask's token of a NumPy array reads its bytes; from_array(x, name=False)
    # takes none); Dask's own fallback would pickle the array
    from dask.hashing import hash_buffer_hex

    host = numpy.ascontiguousarray(gpunp.asnumpy(x)).reshape(-1)
    return ("gpunp.ndarray", x.shape, x.dtype.str, hash_buffer_hex(host.view(numpy.uint8)))


def register():
    """Registers gpunp with Dask: dask's ``sizeof`` of gpunp arrays,
    dask.array's dispatch for gpunp chunks and the ``"gpunp"`` array backend,
    and dask.distributed's serialisers where distributed is imported (a
    later call adds them once it is). Idempotent."""
    with _lock:
        _register()


def _register():
    if "array" not in _done:
        from dask.sizeof import sizeof

        sizeof.register(gpunp.ndarray, lambda x: int(x.nbytes))
        from gpunp.dask._array import _register_dispatch

        _register_dispatch()
        _done.add("array")
        from dask.array.backends import array_creation_dispatch

        from gpunp.dask._array import GpunpBackendEntrypoint

        array_creation_dispatch.register_backend("gpunp", GpunpBackendEntrypoint())
    if "distributed" not in _done and "distributed" in sys.modules:
        from gpunp.dask._distributed import _register_serializers

        _register_serializers()
        _done.add("distributed")


def __getattr__(name):
    if name == "LocalCluster":
        from gpunp.dask._cluster import LocalCluster

        return LocalCluster
    raise AttributeError(f"module 'gpunp.dask' has no attribute {name!r}")


register()
