"""``gpunp.ndarray``: an array in device memory, one engine handle plus cached
metadata. The class body holds what needs only the engine; the methods that
belong to a chapter of NumPy (reductions, sorting, products...) are made by
that chapter's module and named in one table at the end of this file
(``METHODS`` and ``OPERATORS``), which ``gpunp/__init__.py`` attaches once
every module is imported (``attach_methods``).

Below the class: what every layer above needs to make arrays from engine
handles, host data and views (``_new``, ``_wrap``, ``_from_numpy``,
``_strided_view``...)."""

from __future__ import annotations

import contextlib
import importlib
import math
import operator
import types

import numpy

from gpunp import _lib
from gpunp._lib import _tls, check, ffi, lib
from gpunp.cuda import Device
from gpunp.cuda.memory import Memory, MemoryPointer
from gpunp.cuda.stream import _on_stream

_release = lib.gp_array_release
_INT64_MIN, _INT64_MAX, _UINT64_MAX = -(1 << 63), (1 << 63) - 1, (1 << 64) - 1


# the engine's flag bits (enum gp_array_flags in csrc/include/gp_array.h)
_C, _F, _O, _W, _A = (lib.GP_FLAG_C_CONTIGUOUS, lib.GP_FLAG_F_CONTIGUOUS, lib.GP_FLAG_OWNDATA,
                      lib.GP_FLAG_WRITEABLE, lib.GP_FLAG_ALIGNED)


class _Flags:
    """The read-only view of an array's flags (numpy.ndarray.flags)."""

    __slots__ = ("_f",)

    _NAMES = {"C_CONTIGUOUS": _C, "CONTIGUOUS": _C, "C": _C, "F_CONTIGUOUS": _F,
              "FORTRAN": _F, "F": _F, "OWNDATA": _O, "O": _O, "WRITEABLE": _W, "W": _W,
              "ALIGNED": _A, "A": _A}

    def __init__(self, f: int):
        self._f = f

    def __getitem__(self, key):
        try:
            return bool(self._f & self._NAMES[key.upper()])
        except (KeyError, AttributeError):
            raise KeyError(f"Unknown flag {key!r}") from None

    c_contiguous = property(lambda self: bool(self._f & _C))
    f_contiguous = property(lambda self: bool(self._f & _F))
    contiguous = c_contiguous
    fortran = f_contiguous
    owndata = property(lambda self: bool(self._f & _O))
    writeable = property(lambda self: bool(self._f & _W))
    aligned = property(lambda self: bool(self._f & _A))
    forc = property(lambda self: bool(self._f & (_C | _F)))
    fnc = property(lambda self: bool(self._f & _F) and not self._f & _C)

    def __repr__(self):
        names = ("C_CONTIGUOUS", _C), ("F_CONTIGUOUS", _F), ("OWNDATA", _O), ("WRITEABLE", _W), \
            ("ALIGNED", _A)
        return "\n".join(f"  {n} : {bool(self._f & b)}" for n, b in names) + \
            "\n  WRITEBACKIFCOPY : False\n"

    def __eq__(self, other):
        return isinstance(other, _Flags) and other._f == self._f


_BAD_INDEX = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
              "integer or boolean arrays are valid indices")
_ONE_ELLIPSIS = "an index can only have a single ellipsis ('...')"


def _index_int(i) -> int:
    try:
        return _lib.index(i)
    except TypeError:
        raise IndexError(_BAD_INDEX) from None


_MAXDIM = lib.GP_MAXDIM
_MAX_LEN = 1 << 62  # the engine's largest byte count, so also its longest axis


def _shape_tuple(shape) -> tuple:
    """A shape argument (an int or a sequence of ints) as a tuple of ints."""
    if type(shape) is tuple and len(shape) <= _MAXDIM:
        for s in shape:  # the common case, without raising and catching below
            if type(s) is not int or not 0 <= s <= _MAX_LEN:
                break
        else:
            return shape
    if shape is None:
        raise TypeError("Use () not None as shape arguments")
    try:
        shp = (_no_bool(shape),)
    except TypeError:
        if not hasattr(shape, "__iter__"):
            raise TypeError("expected a sequence of integers or a single integer, "
                            f"got '{shape!r}'") from None
        shp = tuple(_no_bool(s) for s in shape)
    if len(shp) > _MAXDIM:
        raise ValueError(f"maximum supported dimension for an ndarray is currently {_MAXDIM}, "
                         f"found {len(shp)}")
    for s in _intp_dims(shp):
        if s < 0:
            raise ValueError("negative dimensions are not allowed")
        if s > _MAX_LEN:
            raise ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger "
                             "than the maximum possible size.")
    return shp


def _reshape_tuple(shape) -> tuple:
    """A new shape as ints; NumPy takes any negative length as the unknown
    one (not only -1), and no length past int64."""
    try:
        shp = (_no_bool(shape),)
    except TypeError:
        shp = tuple(_no_bool(n) for n in shape)
    return tuple(-1 if n < 0 else n for n in _intp_dims(shp))


def _no_bool(n) -> int:
    """operator.index(n), refusing bools as NumPy's intp converter does."""
    if isinstance(n, (bool, numpy.bool_)):
        raise TypeError("an integer is required")
    return operator.index(n)


def _intp_dims(shp: tuple) -> tuple:
    """Lengths or axes as NumPy reads them into intps: one past int64 is
    refused before anything else is checked."""
    for n in shp:
        if not _INT64_MIN <= n <= _INT64_MAX:
            raise ValueError("Maximum allowed dimension exceeded")
    return shp


_TOO_LARGE = "Python int too large to convert to C long"


def _as_intp(i) -> int:
    """An integer argument as NumPy reads it into an intp."""
    v = _lib.index(i)
    if not _INT64_MIN <= v <= _INT64_MAX:
        raise OverflowError(_TOO_LARGE)
    return v


def _intp_arg(i) -> int:
    """An integer argument as NumPy's intp converter reads it: no bool
    (although it is an int), and no int past int64."""
    return _as_intp(_no_bool(i))


def _permutation_axis(a) -> int:
    """An axis of transpose's permutation, as NumPy reads it (an intp, bools
    refused)."""
    return _intp_dims((_no_bool(a),))[0]


def _clamp(v: int) -> int:
    return _INT64_MIN if v < _INT64_MIN else _INT64_MAX if v > _INT64_MAX else v


def _as_index(v):
    """_lib.index(v), or None where v is no integer."""
    try:
        return _lib.index(v)
    except TypeError:
        return None


def _slice_index(v) -> int:
    """A slice's bound, clamped to int64 (the engine clamps it further to
    the axis, as `slice.indices` does); what is not an integer gets
    Python's error, which NumPy raises too."""
    i = _as_index(v)
    if i is None:
        raise TypeError("slice indices must be integers or None or have an __index__ method")
    return _clamp(i)


def _fill_slice(item, s: slice) -> None:
    """Python reads a slice's step first, then its start and stop: the
    first of them in error is the one reported."""
    present = 0
    if s.step is not None:
        item.step = _slice_index(s.step)
        if item.step == 0:
            raise ValueError("slice step cannot be zero")
        present |= 4
    if s.start is not None:
        item.start = _slice_index(s.start)
        present |= 1
    if s.stop is not None:
        item.stop = _slice_index(s.stop)
        present |= 2
    item.present = present


# Results of 32 MiB and more live in host blocks that the engine reuses once
# NumPy frees the array: a fresh NumPy array of that size faults its pages in
# while the copy writes them (csrc/memory/host.c).
_HOST_BLOCK_MIN = 32 << 20


def _host_result(shape, dtype, nbytes, order):
    if nbytes < _HOST_BLOCK_MIN:
        return numpy.empty(shape, dtype, order=order)
    p = ffi.new("void **")
    check(lib.gp_host_block_new(nbytes, p))
    block = ffi.gc(ffi.cast("char *", p[0]), lib.gp_host_block_release, size=nbytes)
    return numpy.frombuffer(ffi.buffer(block, nbytes), dtype).reshape(shape, order=order)


_no_stream = contextlib.nullcontext()


class ndarray:
    """An n-dimensional array in the memory of the current device.

    ``ndarray(shape, dtype=float, order='C')`` makes an uninitialised array,
    as ``numpy.ndarray`` and ``gpunp.empty`` do. Arrays are usually made by
    the creation functions (``gpunp.array``, ``zeros``, ``arange``...).
    """

    __slots__ = ("_h", "_base", "_info", "__weakref__")
    __array_priority__ = 100.0

    # The methods and operators made in other modules are the rows of
    # METHODS and OPERATORS, at the end of this file.

    def __init__(self, shape, dtype=float, order="C"):
        self._h = ffi.NULL
        shp = _shape_tuple(shape)
        out = ffi.new("gp_array_t **")
        check(lib.gp_array_empty(_lib.dtype_code(dtype), len(shp), shp,
                                 _lib.order_code(order, "CF", "C"), out))
        self._h = out[0]
        self._base = None
        self._info = None

    def __del__(self, _release=_release):
        try:
            _release(self._h)  # NULL after a failed constructor: a no-op
        except AttributeError:  # made by __new__ alone, never given a handle
            pass

    # ---- metadata ---------------------------------------------------------

    def _meta(self):
        info = self._info
        if info is None:
            info = ffi.new("gp_array_info_t *")
            check(lib.gp_array_get_info(self._h, info))
            nd = info.ndim
            self._info = info = (tuple(info.shape[0:nd]), _lib.DTYPES[info.dtype],
                                 tuple(info.strides[0:nd]), info.size)
        return info

    @property
    def shape(self) -> tuple:
        return self._meta()[0]

    @shape.setter
    def shape(self, value):
        shp = _reshape_tuple(value)
        out = ffi.new("gp_array_t **")
        check(lib.gp_array_reshape(self._h, len(shp), shp, ord("C"), out))
        new = _wrap(out[0])
        if self.size and not lib_may_share(new, self):
            raise AttributeError("Incompatible shape for in-place modification. Use "
                                 "`.reshape()` to make a copy with the desired shape.")
        self._h, new._h = new._h, self._h
        self._info = None

    @property
    def dtype(self) -> numpy.dtype:
        return self._meta()[1]

    @property
    def ndim(self) -> int:
        return len(self._meta()[0])

    @property
    def size(self) -> int:
        return self._meta()[3]

    @property
    def strides(self) -> tuple:
        return self._meta()[2]

    @property
    def itemsize(self) -> int:
        return self._meta()[1].itemsize

    @property
    def nbytes(self) -> int:
        m = self._meta()
        return m[3] * m[1].itemsize

    def _raw_info(self):
        info = ffi.new("gp_array_info_t *")
        check(lib.gp_array_get_info(self._h, info))
        return info

    @property
    def flags(self) -> _Flags:
        return _Flags(self._raw_info().flags)

    @property
    def data_ptr(self) -> int:
        """The device address of the first element."""
        return int(self._raw_info().data)

    @property
    def data(self) -> MemoryPointer:
        """The address of the first element as CuPy's memory pointer: ``.ptr``,
        ``.device_id``, and ``.mem`` (the buffer: its start and ``.size``).
        It keeps the array, and so the memory, alive."""
        info = self._raw_info()
        size = ffi.new("int64_t *")
        check(lib.gp_array_buffer_size(self._h, size))
        mem = Memory(int(info.data) - info.offset, size[0], info.device_id, self)
        return MemoryPointer(mem, info.offset)

    @property
    def base(self):
        return self._base

    @property
    def T(self) -> "ndarray":
        return self.transpose()

    @property
    def mT(self) -> "ndarray":
        if self.ndim < 2:
            raise ValueError("matrix transpose with ndim < 2 is undefined")
        axes = list(range(self.ndim))
        axes[-2], axes[-1] = axes[-1], axes[-2]
        return self.transpose(axes)

    @property
    def real(self) -> "ndarray":
        if self.dtype.kind != "c":
            return self
        dt = numpy.dtype("f4" if self.dtype == numpy.complex64 else "f8")
        return _as_strided_view(self, dt, 0)

    @property
    def imag(self) -> "ndarray":
        if self.dtype.kind != "c":
            z = _new(lib.gp_array_zeros_like, self._h, _lib.dtype_code(self.dtype), ord("K"))
            lib.gp_array_set_readonly(z._h)
            return z
        dt = numpy.dtype("f4" if self.dtype == numpy.complex64 else "f8")
        # an empty array's buffer has no imaginary part to start at
        return _as_strided_view(self, dt, dt.itemsize if self.size else 0)

    @property
    def device(self):
        """The device holding the array's memory (a gpunp.cuda.Device)."""
        return Device(self._raw_info().device_id)

    # ---- conversion -------------------------------------------------------

    def get(self, stream=None, order="C", out=None, blocking=True) -> numpy.ndarray:
        """A NumPy copy of the array, in host memory (ordered on `stream`),
        done when this returns. With ``blocking=False`` (CuPy's), a
        contiguous array is copied asynchronously on `stream` (None: the
        current one) into page-locked memory (`out`, or a new array from the
        pinned memory pool), which holds the data once the stream has done
        the copy: synchronize it before reading."""
        o = _lib.order_code(order, "CFAK", "C")
        if o == ord("A") or o == ord("K"):
            o = ord("F") if (self.flags.f_contiguous and not self.flags.c_contiguous) else ord("C")
        if out is not None:
            if not isinstance(out, numpy.ndarray):
                raise TypeError("out must be a numpy.ndarray")
            if out.shape != self.shape or out.dtype != self.dtype:
                raise ValueError("out must have the shape and dtype of the array")
            want = out.flags.c_contiguous if o == ord("C") else out.flags.f_contiguous
            if not want:
                raise ValueError("out must be contiguous in the requested order")
            host = out
        if not blocking and (self.flags.c_contiguous if o == ord("C")
                             else self.flags.f_contiguous):
            # CuPy's asynchronous copy: into page-locked memory, ordered on
            # `stream`, valid once the stream has done it
            if out is None:
                from gpunp.x import empty_pinned
                host = empty_pinned(self.shape, self.dtype, order=chr(o))
            if host.nbytes:
                st = ffi.NULL if stream is None else stream._h
                if stream is not None:
                    # after the current stream's work, which may still be
                    # writing the array (an upload, as asarray's, included):
                    # CuPy's uploads are done when they return, gpunp's not
                    check(lib.gp_stream_signal_native(stream.ptr))
                check(lib.gp_memcpy(host.ctypes.data, self.data_ptr, host.nbytes,
                                    lib.GP_MEMCPY_DEVICE_TO_HOST, st, 0))
            return host
        if out is None:
            host = _host_result(self.shape, self.dtype, self.nbytes, chr(o))
        if host.nbytes:
            buf = ffi.from_buffer(host.ravel(order="K"))
            if stream is None:
                check(lib.gp_array_to_host(self._h, buf, host.nbytes, o))
            else:
                with _on_stream(stream):
                    check(lib.gp_array_to_host(self._h, buf, host.nbytes, o))
        return host

    def set(self, arr, stream=None) -> None:
        """Copies the NumPy array `arr` (same shape and dtype) into this
        array's memory (CuPy's ``ndarray.set``). With `stream` the copy is
        staged through page-locked memory and runs on that stream after this
        returns (`arr` may be reused at once); without, it is done when this
        returns."""
        if not isinstance(arr, numpy.ndarray):
            raise TypeError("Only numpy.ndarray can be set to gpunp.ndarray")
        if self.dtype != arr.dtype:
            raise TypeError(f"{arr.dtype} array cannot be set to {self.dtype} array")
        if self.shape != arr.shape:
            raise ValueError(f"Shape mismatch. Old shape: {self.shape}, new shape: {arr.shape}")
        flags = self.flags
        if not flags.writeable:
            raise ValueError("assignment destination is read-only")
        if flags.c_contiguous:
            host = numpy.ascontiguousarray(arr)
        elif flags.f_contiguous:
            host = numpy.asfortranarray(arr)
        else:
            raise RuntimeError("Cannot set to non-contiguous array")
        if not host.nbytes:
            return
        if stream is not None:
            # staged through page-locked memory, so the copy runs on `stream`
            # while the caller goes on (and may reuse `arr`); the block goes
            # back to the pool once the stream is past the copy
            from gpunp.cuda.pinned_memory import alloc_pinned_memory
            pinned = alloc_pinned_memory(host.nbytes)
            numpy.frombuffer(pinned.buffer(), numpy.uint8, host.nbytes)[:] = \
                host.ravel(order="K").view(numpy.uint8)
            check(lib.gp_memcpy(self.data_ptr, pinned.ptr, host.nbytes,
                                lib.GP_MEMCPY_HOST_TO_DEVICE, stream._h, 0))
            pinned.mem._release_after(stream)
            return
        src = host.ctypes.data  # host stays alive across the copy
        with _no_stream:
            check(lib.gp_memcpy(self.data_ptr, src, host.nbytes, lib.GP_MEMCPY_HOST_TO_DEVICE,
                                ffi.NULL, 1))

    def __array__(self, dtype=None, copy=None):
        raise TypeError(
            "Implicit conversion to a NumPy array is not allowed. Please use "
            "`gpunp.asnumpy(x)` or `x.get()` to construct a NumPy array explicitly.")

    def __dask_tokenize__(self):
        # Dask's deterministic token of the array (gpunp.dask): only Dask
        # calls it, so gpunp.dask, which imports Dask, loads here
        from gpunp.dask import _token

        return _token(self)

    def item(self, *args):
        if len(args) == 1 and type(args[0]) is tuple:
            args = args[0]
        if not args:
            if self.size != 1:
                raise ValueError("can only convert an array of size 1 to a Python scalar")
            return self.get().item()
        idx = tuple(_intp_arg(a) for a in args)
        if len(idx) == 1:
            # one int is a position in the flattened (C order) array
            i, n = idx[0], self.size
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for size {n}")
            idx = numpy.unravel_index(i % n, self.shape)
        elif len(idx) != self.ndim:
            raise ValueError("incorrect number of indices for array")
        return self[tuple(int(i) for i in idx)].get().item()

    def tolist(self):
        return self.get().tolist()

    def _scalar_value(self):
        # NumPy 2 converts only 0-d arrays, as Python converts the element
        if self.ndim != 0:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        return self.get().item()

    def __bool__(self):
        n = self.size
        if n == 1:
            return bool(self.get().reshape(()).item())
        if n == 0:
            raise ValueError("The truth value of an empty array is ambiguous. Use "
                             "`array.size > 0` to check that an array is not empty.")
        raise ValueError("The truth value of an array with more than one element is "
                         "ambiguous. Use a.any() or a.all()")

    def __int__(self):
        return int(self._scalar_value())

    def __float__(self):
        return float(self._scalar_value())

    def __complex__(self):
        return complex(self._scalar_value())

    # Python's round() and math.trunc() of a 0-d array are those of the
    # NumPy scalar it stands for (docs/differences.md); NumPy's arrays have
    # none, nor have its complex scalars since 2.3 (2.2 deprecates theirs)
    def __round__(self, ndigits=None):
        if self.ndim != 0:
            raise TypeError("type ndarray doesn't define __round__ method")
        if self.dtype.kind == "c":
            raise TypeError(f"type numpy.{self.dtype.name} doesn't define __round__ method")
        if ndigits is None:
            return round(self.get()[()])
        return _from_numpy(numpy.asarray(round(self.get()[()], ndigits)))

    def __trunc__(self):
        if self.ndim != 0:
            raise TypeError("type ndarray doesn't define __trunc__ method")
        return math.trunc(self.get()[()])

    def __index__(self):
        if self.ndim != 0 or self.dtype.kind not in "iu":
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return int(self.get().item())

    def __len__(self):
        shp = self.shape
        if not shp:
            raise TypeError("len() of unsized object")
        return shp[0]

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    def __contains__(self, value):
        # NumPy's rule, any element equal after broadcasting; Python's own
        # fallback would iterate rows and ask each row's truth
        return bool((self == value).any())

    def __delitem__(self, key):
        raise ValueError("cannot delete array elements")

    def __class_getitem__(cls, item):
        # annotations such as ndarray[Any, dtype[float32]], as NumPy's allow
        if isinstance(item, tuple) and len(item) > 2:
            raise TypeError("Too many arguments for gpunp.ndarray")
        return types.GenericAlias(cls, item)

    def __repr__(self):
        return repr(self.get())

    def __str__(self):
        return str(self.get())

    def __format__(self, spec):
        if self.ndim == 0:
            return format(self.get().item(), spec)
        return format(str(self), spec)

    __hash__ = None

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    # ---- copies and casts ----------------------------------------------------

    def copy(self, order="C") -> "ndarray":
        out = ffi.new("gp_array_t **")
        # the method reads None as C (numpy.copy, a function, as K)
        check(lib.gp_array_copy(self._h, _lib.order_code(order, "CFAK", "C"), out))
        return _wrap(out[0])

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True) -> "ndarray":
        code = _lib.dtype_code(dtype)
        if not copy and code == _lib.dtype_code(self.dtype):
            o = _lib.order_code(order)
            f = self.flags
            if (o == ord("K") or o == ord("A") and (f.c_contiguous or f.f_contiguous)
                    or o == ord("C") and f.c_contiguous or o == ord("F") and f.f_contiguous):
                return self
        out = ffi.new("gp_array_t **")
        check(lib.gp_array_astype(self._h, code, _lib.order_code(order),
                                  _lib.casting_code(casting), out))
        return _wrap(out[0])

    def byteswap(self, inplace=False) -> "ndarray":
        """Each element's bytes reversed (each part's, for complex), as
        NumPy's: a strided reversal of a copy seen as bytes."""
        dt = self.dtype
        part = dt.itemsize // 2 if dt.kind == "c" else dt.itemsize
        if part == 1:
            return self if inplace else self.copy()
        n = self.size
        b = self.copy().reshape(-1).view(numpy.uint8).reshape(n, dt.itemsize // part, part)
        swapped = b[..., ::-1].copy().reshape(n, dt.itemsize).view(dt).reshape(self.shape)
        if not inplace:
            return swapped
        self[...] = swapped
        return self

    def fill(self, value) -> None:
        s = ffi.new("gp_scalar_t *")
        if isinstance(value, ndarray):
            value = value.item()
        _lib.put_scalar(s, _element_value(value, self.dtype))  # as NumPy stores one element
        check(lib.gp_array_fill(self._h, s))

    # ---- shape ---------------------------------------------------------------

    def reshape(self, *shape, order="C", copy=None) -> "ndarray":
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = shape[0]
        shp = self.shape if shape is None else _reshape_tuple(shape)  # None: NumPy's no change
        order = chr(_lib.order_code(order, "CFA", "C"))
        if copy:
            # order A reads in Fortran order only a Fortran-contiguous array
            if order == "A":
                f = self.flags
                order = "F" if f.f_contiguous and not f.c_contiguous else "C"
            return self.copy(order).reshape(shp, order=order)
        out = ffi.new("gp_array_t **")
        check(lib.gp_array_reshape(self._h, len(shp), shp, ord(order), out))
        r = _wrap(out[0])
        if self.size and not lib_may_share(r, self):
            if copy is False:
                raise ValueError("Unable to avoid creating a copy while reshaping.")
            return r
        r._base = self if self._base is None else self._base
        return r

    def transpose(self, *axes) -> "ndarray":
        out = ffi.new("gp_array_t **")
        if not axes or axes == (None,):
            check(lib.gp_array_transpose(self._h, 0, ffi.NULL, out))
            return _wrap(out[0], self)
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = axes[0]
        ax = [_permutation_axis(a) for a in axes]
        nd = self.ndim
        if len(ax) != nd:  # an explicit empty permutation only fits a 0-d array
            raise ValueError("axes don't match array")
        for a in ax:
            # NumPy casts these to a C int unchecked (2**40 + 1 is axis 1):
            # out of range here, as they are
            if not -(1 << 31) <= a < 1 << 31:
                raise _lib._axis_error(f"axis {a} is out of bounds for array of dimension {nd}")
        check(lib.gp_array_transpose(self._h, len(ax), ffi.new("int32_t[]", ax or [0]), out))
        return _wrap(out[0], self)

    def swapaxes(self, axis1, axis2) -> "ndarray":
        n = self.ndim
        # NumPy reads both as C ints (OverflowError) before it checks either
        a1, a2 = _lib.c_int(axis1), _lib.c_int(axis2)
        a1, a2 = _lib.normalize_axis(a1, n), _lib.normalize_axis(a2, n)
        axes = list(range(n))
        axes[a1], axes[a2] = axes[a2], axes[a1]
        return self.transpose(axes)

    def _memory_order(self) -> "ndarray":
        """A view whose C order is NumPy's order K: the axes by decreasing
        stride (ties in axis order), each still read in its own direction."""
        if self.ndim < 2:
            return self
        st = self.strides
        return self.transpose(sorted(range(self.ndim), key=lambda k: (-abs(st[k]), k)))

    def ravel(self, order="C") -> "ndarray":
        # NumPy's rule: a view only of memory that is contiguous in the order
        # asked (K: in memory order, without reversed axes), else a copy
        o = chr(_lib.order_code(order, "CFAK", "C"))
        f = self.flags
        if o == "A":
            o = "F" if f.f_contiguous and not f.c_contiguous else "C"
        elif o == "K" and (f.c_contiguous or f.f_contiguous):
            o = "C" if f.c_contiguous else "F"
        if o == "C":
            return self.reshape(-1) if f.c_contiguous else self.flatten("C")
        if o == "F":
            return self.reshape(-1, order="F") if f.f_contiguous else self.flatten("F")
        v = self._memory_order()
        if v.flags.c_contiguous and all(s > 0 for n, s in zip(self.shape, self.strides)
                                        if n > 1):
            return v.reshape(-1)
        return v.flatten("C")

    def flatten(self, order="C") -> "ndarray":
        o = chr(_lib.order_code(order, "CFAK", "C"))
        if o == "A":
            f = self.flags
            o = "F" if f.f_contiguous and not f.c_contiguous else "C"
        if o == "K":
            return self._memory_order().copy("C").reshape(-1)
        return self.copy(o).reshape(-1, order=o)

    def squeeze(self, axis=None) -> "ndarray":
        out = ffi.new("gp_array_t **")
        if axis is None:
            check(lib.gp_array_squeeze(self._h, 0, ffi.NULL, out))
            return _wrap(out[0], self)
        if isinstance(axis, tuple):
            ax = [_lib.c_int(a, ValueError) for a in axis]
        else:
            ax = [_lib.c_int(axis, ValueError)]
            # NumPy lets a 0-d array take the single axis 0 or -1 (backwards
            # compatibility): nothing to squeeze
            if self.ndim == 0 and ax[0] in (0, -1):
                ax = []
        check(lib.gp_array_squeeze(self._h, len(ax), ffi.new("int32_t[]", ax or [0]), out))
        return _wrap(out[0], self)

    def view(self, dtype=None, type=None) -> "ndarray":
        if type is not None and type is not ndarray:
            raise TypeError("gpunp arrays can only be viewed as gpunp.ndarray")
        if dtype is None or numpy.dtype(dtype) == self.dtype:
            out = ffi.new("gp_array_t **")
            check(lib.gp_array_index(self._h, 0, ffi.NULL, out))
            return _wrap(out[0], self)
        dt = numpy.dtype(dtype)
        if not dt.isnative:
            # elsewhere a swapped byte order names the native type (values
            # kept); a view would have to read the same bytes swapped
            raise NotImplementedError(
                f"gpunp arrays hold their values in the machine's byte order; a view as "
                f"{dt.str!r} would read their bytes swapped: use view({dt.newbyteorder('=').str!r})"
                f" or astype")
        return _view_dtype(self, dt)

    # ---- indexing -------------------------------------------------------------

    def __getitem__(self, key) -> "ndarray":
        out = _tls.out  # _lib.out_cell() inline: this is a per-call row of bench/
        if type(key) is slice:
            # the common slice, without building an index item; cffi
            # refuses an int past int64 (OverflowError), clamped then
            start, stop, step, present = key.start, key.stop, key.step, 0
            if start is None:
                start = 0
            else:
                present = 1
                if type(start) is not int and (start := _as_index(start)) is None:
                    return self[key, ]  # refused, in NumPy's order
            if stop is None:
                stop = 0
            else:
                present |= 2
                if type(stop) is not int and (stop := _as_index(stop)) is None:
                    return self[key, ]  # refused, in NumPy's order
            if step is None:
                step = 1
            else:
                present |= 4
                if type(step) is not int and (step := _as_index(step)) is None:
                    return self[key, ]  # refused, in NumPy's order
            try:
                s = lib.gp_array_slice(self._h, present, start, stop, step, out)
            except OverflowError:
                s = lib.gp_array_slice(self._h, present, _clamp(start), _clamp(stop),
                                       _clamp(step), out)
            if s:
                raise _lib.error(s)
            a = _alloc(ndarray)
            a._h = out[0]
            a._base = self if self._base is None else self._base
            a._info = None
            return a
        try:
            items = _index_items(key)
        except _SliceBoundError as e:
            # NumPy counts the indices and checks the items before a slice's
            # bad bound first: their errors come before its own
            check(lib.gp_array_index(self._h, len(e.items), e.items, out))
            lib.gp_array_release(out[0])
            raise e.error from None
        if items is None:  # integer or boolean arrays: a gather
            return self._getitem_advanced(key)
        check(lib.gp_array_index(self._h, len(items), items, out))
        return _wrap(out[0], self)

    def __setitem__(self, key, value) -> None:
        if key is not Ellipsis and type(key) is not slice and is_advanced(key):
            self._setitem_advanced(key, value)  # a scatter
            return
        view = self[key] if key is not Ellipsis else self
        element = _is_element(key, self.ndim)
        if isinstance(value, ndarray):
            if not (element and value.ndim):
                check(lib.gp_array_assign(view._h, value._h, _lib.CASTING["unsafe"]))
                return
            if view.dtype.kind == "c":  # NumPy converts through complex(), which refuses
                raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
            if view.dtype.kind != "b":
                raise ValueError("setting an array element with a sequence.")
            value = bool(value)  # NumPy stores the truth of any object in a bool
        if element or not isinstance(value, (list, tuple, numpy.ndarray)):
            s = ffi.new("gp_scalar_t *")
            _lib.put_scalar(s, _element_value(value, view.dtype))
            check(lib.gp_array_fill(view._h, s))
            return
        if _contains_device_arrays(value):
            value = _to_host_nested(value)
        # NumPy refuses a sequence deeper than the destination, then converts
        # every element to its dtype (with its errors: a Python int out of
        # range, NaN into integers...)
        if not isinstance(value, numpy.ndarray) and numpy.ndim(value) > view.ndim:
            raise ValueError("setting an array element with a sequence. The requested array "
                             f"would exceed the maximum number of dimension of {view.ndim}.")
        src = _from_numpy(numpy.asarray(value, dtype=view.dtype))
        check(lib.gp_array_assign(view._h, src._h, _lib.CASTING["unsafe"]))


def is_advanced(key) -> bool:
    """Whether a key has an integer or boolean array (or a bool, or a
    sequence) among its items: NumPy's advanced indexing."""
    if type(key) is not tuple:
        key = (key,)
    for k in key:
        if isinstance(k, (bool, numpy.bool_, list, tuple)):
            return True
        if isinstance(k, (ndarray, numpy.ndarray)):
            if k.ndim or k.dtype.kind == "b":
                return True
    return False


_NOT_INTEGERS = (slice, type(None), type(Ellipsis), bool, numpy.bool_, list, ndarray,
                 numpy.ndarray)


def _is_element(key, ndim) -> bool:
    """Whether `key` picks one element with an int per dimension (NumPy then
    assigns a scalar, refusing sequences, rather than into a view)."""
    if type(key) is not tuple:
        key = (key,)
    return len(key) == ndim and not any(isinstance(k, _NOT_INTEGERS) for k in key)


def _element_value(value, dtype):
    """`value` converted as NumPy converts a scalar stored into an array of
    `dtype` (a Python int out of range, NaN or inf into integers, a complex
    into reals and sequences raise NumPy's errors). Python numbers the engine
    converts the same way pass unchanged."""
    t, kind = type(value), dtype.kind
    if t is bool or (t is float and kind in "fc") or (t is complex and kind == "c") or (
            t is int and kind in "iu" and _INT64_MIN <= value <= _UINT64_MAX):
        return value
    host = numpy.empty((), dtype)
    host[()] = value
    return host[()]


def lib_may_share(a: ndarray, b: ndarray) -> bool:
    r = ffi.new("int32_t *")
    check(lib.gp_array_may_share_memory(a._h, b._h, r))
    return bool(r[0])


class _SliceBoundError(Exception):
    """A slice's bound is no integer (`error`); `items` is the index with
    that slice and every int or slice after it made full slices (each
    still takes one axis)."""

    def __init__(self, error, items):
        self.error, self.items = error, items


# the items that make a key advanced indexing (gpunp._indexing)
_ADVANCED_ITEMS = (bool, numpy.bool_, ndarray, list, tuple, numpy.ndarray)


def _index_items(key):
    if type(key) is not tuple:
        key = (key,)
    items = ffi.new("gp_index_item_t[]", len(key))
    ellipsis = False
    for j, (it, k) in enumerate(zip(items, key)):
        if k is None:
            it.kind = lib.GP_INDEX_NEWAXIS
        elif k is Ellipsis:
            if ellipsis:  # NumPy refuses it here, before reading the items after it
                raise IndexError(_ONE_ELLIPSIS)
            ellipsis = True
            it.kind = lib.GP_INDEX_ELLIPSIS
        elif isinstance(k, slice):
            it.kind = lib.GP_INDEX_SLICE
            try:
                _fill_slice(it, k)
            except (TypeError, ValueError) as e:
                if any(isinstance(x, _ADVANCED_ITEMS) for x in key):
                    return None  # advanced indexing, which checks the slices itself
                rest = _taking_axes(key[j + 1:], ellipsis)
                raise _SliceBoundError(e, _index_items(key[:j] + (slice(None),) + rest)) from None
        elif isinstance(k, _ADVANCED_ITEMS):
            return None  # advanced indexing (gpunp._indexing)
        else:
            it.kind = lib.GP_INDEX_INT
            it.start = _index_int_item(k)
    return items


def _taking_axes(key: tuple, ellipsis: bool) -> tuple:
    """The items after a slice with a bad bound, read as NumPy reads them
    before it finds that bound: a second ellipsis is refused, and each int
    (once read) or slice becomes a full slice, which still takes its axis."""
    out = []
    for k in key:
        if k is Ellipsis:
            if ellipsis:
                raise IndexError(_ONE_ELLIPSIS)
            ellipsis = True
        elif k is not None:
            if not isinstance(k, slice):
                _index_int_item(k)
            k = slice(None)
        out.append(k)
    return tuple(out)


def _index_int_item(k) -> int:
    """An integer index as NumPy reads it before any item is applied: what
    is no integer, or one past int64, is refused then: NumPy reads one that
    fits uint64 as such an array and overflows converting it to intp."""
    v = _index_int(k)
    if not _INT64_MIN <= v <= _INT64_MAX:
        if _INT64_MAX < v <= _UINT64_MAX:
            raise OverflowError(_TOO_LARGE)
        raise IndexError(_BAD_INDEX)
    return v


_alloc = object.__new__


def _wrap(h, base=None) -> ndarray:
    """An ndarray owning the engine handle `h`; `base` is the array a view was
    made from (numpy's ``.base``: the owner of the memory)."""
    a = _alloc(ndarray)
    a._h = h
    a._base = base if base is None or base._base is None else base._base
    a._info = None
    return a


def _new(fn, *args) -> ndarray:
    """The array an engine call `fn(*args, out)` makes."""
    out = _lib.out_cell()
    s = fn(*args, out)
    if s:
        raise _lib.error(s)
    return _wrap(out[0])


# ---- host data ---------------------------------------------------------------------

def _from_numpy(a: numpy.ndarray) -> ndarray:
    """A device copy of a NumPy array (of a dtype gpunp has)."""
    if a.dtype.byteorder not in "=|":
        a = a.astype(a.dtype.newbyteorder("="))
    code = _lib.dtype_code(a.dtype)
    # a dense block in any axis order travels as it is; anything else is
    # compacted on the host first (keeping the axis order, as order='K')
    if not (a.flags.c_contiguous or a.flags.f_contiguous) or any(s < 0 for s in a.strides):
        a = a.copy(order="K")
        if not (a.flags.c_contiguous or a.flags.f_contiguous) or any(s < 0 for s in a.strides):
            a = numpy.ascontiguousarray(a)
    # a dense block, walked in memory order, is one buffer
    buf = ffi.from_buffer(a.ravel(order="K"), require_writable=False) if a.size else ffi.NULL
    return _new(lib.gp_array_from_host, buf, a.nbytes, code, a.ndim, a.shape, a.strides)


def _contains_device_arrays(obj) -> bool:
    if isinstance(obj, ndarray):
        return True
    if isinstance(obj, (list, tuple)):
        return any(_contains_device_arrays(x) for x in obj)
    return False


def _to_host_nested(obj):
    if isinstance(obj, ndarray):
        return obj.get()
    if isinstance(obj, (list, tuple)):
        return [_to_host_nested(x) for x in obj]
    return obj


# ---- views with another dtype --------------------------------------------------------------

def _strided_view(a: ndarray, dt, shape: tuple, strides: tuple, offset: int) -> ndarray:
    """A view of a's buffer as `dt` (None: a's dtype) with byte strides,
    `offset` bytes after a's first element. The engine refuses one whose
    elements would be misaligned for their dtype, where NumPy makes it: a GPU
    faults on a misaligned load, and the fault ends the process's use of the
    device."""
    code = -1 if dt is None else _lib.dtype_code(dt)
    v = _new(lib.gp_array_as_strided, a._h, code, len(shape), shape, strides, offset)
    v._base = a if a._base is None else a._base
    return v


def _as_strided_view(a: ndarray, dt: numpy.dtype, offset: int) -> ndarray:
    """A view of `a` as `dt` with a's shape and strides, `offset` bytes in."""
    return _strided_view(a, dt, a.shape, a.strides, offset)


def _view_dtype(a: ndarray, dt: numpy.dtype) -> ndarray:
    old = a.itemsize
    if dt.itemsize == old:
        return _as_strided_view(a, dt, 0)
    if a.ndim == 0 or not a.flags.c_contiguous or a.strides[-1] != old:
        raise ValueError("To change to a dtype of a different size, the last axis must be "
                         "contiguous")
    if (a.shape[-1] * old) % dt.itemsize:
        raise ValueError("When changing to a smaller dtype, its size must be a divisor of "
                         "the size of original dtype" if dt.itemsize < old else
                         "When changing to a larger dtype, its size must be a divisor of the "
                         "total size in bytes of the last axis of the array.")
    shape = a.shape[:-1] + (a.shape[-1] * old // dt.itemsize,)
    strides = a.strides[:-1] + (dt.itemsize,)
    return _strided_view(a, dt, shape, strides, 0)


# ---- the methods and operators made in other modules ----------------------------------------

#: (attribute, module, that module's name for it): ndarray's methods that
#: belong to a chapter of NumPy, made where that chapter's functions are
METHODS = (
    # NumPy's protocols: NEP 13, NEP 18, the array API, DLPack, CUDA
    ("__array_ufunc__", "gpunp._protocols", "array_ufunc"),
    ("__array_function__", "gpunp._protocols", "array_function"),
    ("__array_namespace__", "gpunp._array_api", "_array_namespace"),
    ("to_device", "gpunp._array_api", "_to_device"),
    ("__dlpack__", "gpunp._interop", "_dlpack"),
    ("__dlpack_device__", "gpunp._interop", "_dlpack_device"),
    ("__cuda_array_interface__", "gpunp._interop", "_cuda_array_interface"),  # a property
    # operators that are not one ufunc call (the others: OPERATORS)
    ("__pow__", "gpunp._ufunc", "_pow"),
    ("__ipow__", "gpunp._ufunc", "_ipow"),
    ("__divmod__", "gpunp._ufunc", "_divmod"),
    ("__rdivmod__", "gpunp._ufunc", "_rdivmod"),
    ("__matmul__", "gpunp._products", "_matmul"),
    ("__rmatmul__", "gpunp._products", "_rmatmul"),
    ("__imatmul__", "gpunp._products", "_imatmul"),
    # indexing: the advanced half of __getitem__ and __setitem__, and flat
    ("_getitem_advanced", "gpunp._indexing", "getitem"),
    ("_setitem_advanced", "gpunp._indexing", "setitem"),
    ("flat", "gpunp._flatiter", "_flat"),  # a property
    ("take", "gpunp._indexing", "take"),
    ("put", "gpunp._indexing", "_put_method"),
    ("choose", "gpunp._indexing", "choose"),
    ("nonzero", "gpunp._indexing", "nonzero"),
    ("compress", "gpunp._indexing", "_compress_method"),
    ("diagonal", "gpunp._matrices", "_diagonal_method"),
    ("trace", "gpunp._matrices", "_trace_method"),
    ("repeat", "gpunp._shaping", "_repeat_method"),
    # reductions, scans and statistics
    ("sum", "gpunp._reduction", "_sum_method"),
    ("prod", "gpunp._reduction", "_prod_method"),
    ("max", "gpunp._reduction", "_max_method"),
    ("min", "gpunp._reduction", "_min_method"),
    ("any", "gpunp._reduction", "_any_method"),
    ("all", "gpunp._reduction", "_all_method"),
    ("mean", "gpunp._reduction", "_mean_method"),
    ("argmax", "gpunp._reduction", "_argmax_method"),
    ("argmin", "gpunp._reduction", "_argmin_method"),
    ("cumsum", "gpunp._reduction", "_cumsum_method"),
    ("cumprod", "gpunp._reduction", "_cumprod_method"),
    ("var", "gpunp._statistics", "_var_method"),
    ("std", "gpunp._statistics", "_std_method"),
    # sorting and searching
    ("sort", "gpunp._sorting", "_sort_method"),
    ("argsort", "gpunp._sorting", "_argsort_method"),
    ("partition", "gpunp._sorting", "_partition_method"),
    ("argpartition", "gpunp._sorting", "_argpartition_method"),
    ("searchsorted", "gpunp._sorting", "_searchsorted_method"),
    # elementwise
    ("clip", "gpunp._comparisons", "_clip_method"),
    ("round", "gpunp._comparisons", "_round_method"),
    ("conj", "gpunp._complex", "_conjugate_method"),
    ("conjugate", "gpunp._complex", "_conjugate_method"),
    ("dot", "gpunp._products", "_dot_method"),
    # host bytes and pickles
    ("tobytes", "gpunp._host_io", "_tobytes"),
    ("tofile", "gpunp._host_io", "_tofile"),
    ("dumps", "gpunp._host_io", "_dumps"),
    ("dump", "gpunp._host_io", "_dump"),
    ("__reduce__", "gpunp._host_io", "_reduce"),
)

#: (attribute, ufunc, template): the operators that are one call of a ufunc
#: of the op table, each made by a template of gpunp._ufunc.OPERATOR_TEMPLATES
#: (binary: a.op(b); reflected: b.op(a); inplace: out=a; comparison: binary,
#: with NumPy's == and != of objects no array equals)
OPERATORS = (
    ("__add__", "add", "binary"), ("__radd__", "add", "reflected"),
    ("__iadd__", "add", "inplace"),
    ("__sub__", "subtract", "binary"), ("__rsub__", "subtract", "reflected"),
    ("__isub__", "subtract", "inplace"),
    ("__mul__", "multiply", "binary"), ("__rmul__", "multiply", "reflected"),
    ("__imul__", "multiply", "inplace"),
    ("__truediv__", "true_divide", "binary"), ("__rtruediv__", "true_divide", "reflected"),
    ("__itruediv__", "true_divide", "inplace"),
    ("__floordiv__", "floor_divide", "binary"), ("__rfloordiv__", "floor_divide", "reflected"),
    ("__ifloordiv__", "floor_divide", "inplace"),
    ("__mod__", "remainder", "binary"), ("__rmod__", "remainder", "reflected"),
    ("__imod__", "remainder", "inplace"),
    ("__rpow__", "power", "reflected"),  # __pow__ and __ipow__: METHODS
    ("__and__", "bitwise_and", "binary"), ("__rand__", "bitwise_and", "reflected"),
    ("__iand__", "bitwise_and", "inplace"),
    ("__or__", "bitwise_or", "binary"), ("__ror__", "bitwise_or", "reflected"),
    ("__ior__", "bitwise_or", "inplace"),
    ("__xor__", "bitwise_xor", "binary"), ("__rxor__", "bitwise_xor", "reflected"),
    ("__ixor__", "bitwise_xor", "inplace"),
    ("__lshift__", "left_shift", "binary"), ("__rlshift__", "left_shift", "reflected"),
    ("__ilshift__", "left_shift", "inplace"),
    ("__rshift__", "right_shift", "binary"), ("__rrshift__", "right_shift", "reflected"),
    ("__irshift__", "right_shift", "inplace"),
    ("__lt__", "less", "comparison"), ("__le__", "less_equal", "comparison"),
    ("__gt__", "greater", "comparison"), ("__ge__", "greater_equal", "comparison"),
    ("__eq__", "equal", "comparison"), ("__ne__", "not_equal", "comparison"),
    ("__neg__", "negative", "unary"), ("__pos__", "positive", "unary"),
    ("__abs__", "absolute", "unary"), ("__invert__", "invert", "unary"),
)


def attach_methods() -> None:
    """Sets the rows of METHODS and OPERATORS on ndarray. gpunp/__init__.py
    calls it once, when every module they name is imported: those modules
    import this one, for the class, so it cannot import them."""
    for name, module, attr in METHODS:
        setattr(ndarray, name, getattr(importlib.import_module(module), attr))
    ufuncs = importlib.import_module("gpunp._ufunc")
    for name, uf, template in OPERATORS:
        setattr(ndarray, name, ufuncs.OPERATOR_TEMPLATES[template](ufuncs.UFUNCS[uf]))
