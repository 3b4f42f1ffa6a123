"""What needs the host by its nature: printing (NumPy's formatter on a host
copy, so numpy.set_printoptions governs gpunp's output too), files
(NumPy's .npy/.npz and text formats, read into host memory and copied to
the device once, written from one host copy) and `vectorize` (a Python
function called once an element, as NumPy calls it, on host copies)."""

from __future__ import annotations

import os
import pickle

import numpy

from gpunp import _lib
from gpunp._creation import array, asarray
from gpunp._ndarray import ndarray


def _host(a):
    return a.get() if isinstance(a, ndarray) else a


def array2string(a, *args, **kwargs) -> str:
    """numpy.array2string of a host copy."""
    return numpy.array2string(_host(a), *args, **kwargs)


def array_repr(arr, *args, **kwargs) -> str:
    """numpy.array_repr of a host copy (the same text as repr())."""
    return numpy.array_repr(_host(arr), *args, **kwargs)


def array_str(a, *args, **kwargs) -> str:
    """numpy.array_str of a host copy."""
    return numpy.array_str(_host(a), *args, **kwargs)


def _device(x):
    return asarray(x) if isinstance(x, numpy.ndarray) else x


def save(file, arr, allow_pickle=True, **kwargs) -> None:
    """numpy.save of one host copy."""
    numpy.save(file, _host(arr), allow_pickle=allow_pickle, **kwargs)


def savez(file, *args, **kwds) -> None:
    """numpy.savez of host copies."""
    numpy.savez(file, *map(_host, args), **{k: _host(v) for k, v in kwds.items()})


def savez_compressed(file, *args, **kwds) -> None:
    """numpy.savez_compressed of host copies."""
    numpy.savez_compressed(file, *map(_host, args), **{k: _host(v) for k, v in kwds.items()})


def savetxt(fname, X, *args, **kwargs) -> None:
    """numpy.savetxt of a host copy."""
    numpy.savetxt(fname, _host(X), *args, **kwargs)


class _NpzOnDevice:
    """numpy.load's NpzFile, each array copied to the device when read."""

    def __init__(self, npz):
        self._npz = npz
        self.files = npz.files

    def __getitem__(self, key):
        return _device(self._npz[key])

    def __contains__(self, key):
        return key in self._npz

    def __iter__(self):
        return iter(self._npz)

    def __len__(self):
        return len(self._npz)

    def keys(self):
        return self._npz.keys()

    def items(self):
        return [(k, self[k]) for k in self.files]

    def close(self):
        self._npz.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def load(file, mmap_mode=None, allow_pickle=False, **kwargs):
    """numpy.load; arrays land on the device (an .npz's when read, as NumPy's
    are read lazily). Pickled objects other than arrays come back as they are."""
    r = numpy.load(file, mmap_mode=mmap_mode, allow_pickle=allow_pickle, **kwargs)
    if isinstance(r, numpy.lib.npyio.NpzFile):
        return _NpzOnDevice(r)
    return _device(r)


def loadtxt(*args, **kwargs):
    """numpy.loadtxt, the result on the device."""
    return _device(numpy.loadtxt(*args, **kwargs))


def genfromtxt(*args, **kwargs):
    """numpy.genfromtxt, the result on the device."""
    return _device(numpy.genfromtxt(*args, **kwargs))


def fromfile(*args, **kwargs):
    """numpy.fromfile, the result on the device."""
    return _device(numpy.fromfile(*args, **kwargs))


def fromstring(*args, **kwargs):
    """numpy.fromstring, the result on the device."""
    return _device(numpy.fromstring(*args, **kwargs))


class vectorize:
    """numpy.vectorize for gpunp arrays: the inputs are copied to the host,
    NumPy's vectorize calls `pyfunc` once per element (or core slice of
    `signature`) there, and array results come back to the device. NumPy's
    arguments and attributes (otypes, excluded, cache, signature)."""

    def __init__(self, pyfunc=numpy._NoValue, otypes=None, doc=None, excluded=None,
                 cache=False, signature=None):
        self._v = numpy.vectorize(pyfunc, otypes=otypes, doc=doc, excluded=excluded,
                                  cache=cache, signature=signature)
        self.__doc__ = self._v.__doc__

    def __getattr__(self, name):
        return getattr(self.__dict__["_v"], name)

    def __call__(self, *args, **kwargs):
        if self._v.pyfunc is numpy._NoValue:  # used as a decorator with arguments
            return vectorize(args[0], otypes=self._v.otypes, doc=self._v.__doc__,
                             excluded=self._v.excluded, cache=self._v.cache,
                             signature=self._v.signature)
        out = self._v(*(_host(a) for a in args), **{k: _host(v) for k, v in kwargs.items()})
        return tuple(_device(o) for o in out) if isinstance(out, tuple) else _device(out)


# ---- NumPy's ndarray methods that write host bytes ---------------------------------------

def _tobytes(self, order="C") -> bytes:
    """The raw bytes of the elements in `order`, from one host copy ('A':
    Fortran order for an array that is Fortran- and not C-contiguous, as
    NumPy decides it from the array itself, not from the copy)."""
    order = chr(_lib.order_code(order, "CFAK", "C"))
    if order == "A":
        f = self.flags
        order = "F" if f.f_contiguous and not f.c_contiguous else "C"
    return self.get().tobytes(order)


def _tofile(self, fid, sep="", format="%s") -> None:
    """numpy.ndarray.tofile of one host copy."""
    self.get().tofile(fid, sep=sep, format=format)


def _dumps(self) -> bytes:
    """A pickle of the array (loads gives a gpunp array back)."""
    return pickle.dumps(self, protocol=2)


def _dump(self, file) -> None:
    """The pickle of `dumps` into a file or a path."""
    if isinstance(file, (str, bytes, os.PathLike)):
        with open(file, "wb") as f:
            pickle.dump(self, f, protocol=2)
    else:
        pickle.dump(self, file, protocol=2)



# ndarray.__reduce__: a pickle holds a host copy, which loads through gpunp.array
def _reduce(self):
    return array, (self.get(),)
