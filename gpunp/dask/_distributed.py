"""dask.distributed's serialisers for gpunp chunks: the "dask" family (host
frames, for TCP) and the "cuda" family (device frames, for UCX), neither
of them a pickle.

A chunk travels as its bytes in C order, one frame, with its shape and
dtype in the header. Where the array's memory is the host's (the host
backend) the frame is a view of it, no copy; on a GPU the "dask" frame is
one device-to-host copy and the "cuda" frame is the device memory itself
(a flat uint8 gpunp array, which exposes ``__cuda_array_interface__``).
"""

import numpy

import gpunp
from distributed.protocol import (
    cuda_deserialize, cuda_serialize, dask_deserialize, dask_serialize)

_KDL_CPU = 1


def _header(x):
    return {"shape": list(x.shape), "dtype": x.dtype.str}


def _flat_bytes(x):
    # the bytes of x in C order as a flat uint8 gpunp array (x itself where
    # it is contiguous: reshape and view make no copy then)
    x = gpunp.ascontiguousarray(x)
    return x.reshape(-1).view(numpy.uint8)


def _host_frame(x):
    flat = _flat_bytes(x)
    if flat.__dlpack_device__()[0] == _KDL_CPU:
        return memoryview(numpy.from_dlpack(flat))  # the host backend's memory, shared
    return memoryview(flat.get())


def _from_frame(header, frame):
    dtype = numpy.dtype(header["dtype"])
    shape = tuple(header["shape"])
    if hasattr(frame, "__cuda_array_interface__"):
        flat = gpunp.asarray(frame)  # a device frame (UCX): shared, not copied
    else:
        flat = gpunp.asarray(numpy.frombuffer(frame, dtype=numpy.uint8))
    if flat.dtype != numpy.uint8:
        flat = flat.view(numpy.uint8)
    return flat.view(dtype).reshape(shape)


def _dask_dumps(x):
    return _header(x), [_host_frame(x)]


def _dask_loads(header, frames):
    return _from_frame(header, frames[0])


def _cuda_dumps(x):
    flat = _flat_bytes(x)
    if flat.__dlpack_device__()[0] == _KDL_CPU:
        return _header(x), [_host_frame(x)]
    return _header(x), [flat]


def _register_serializers():
    dask_serialize.register(gpunp.ndarray)(_dask_dumps)
    dask_deserialize.register(gpunp.ndarray)(_dask_loads)
    cuda_serialize.register(gpunp.ndarray)(_cuda_dumps)
    cuda_deserialize.register(gpunp.ndarray)(_dask_loads)
