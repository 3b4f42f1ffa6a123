"""``gpunp.ndarray``: an array in device memory, one engine handle plus cached
metadata. Operators and reductions are attached by the modules that define
them (``_ufunc``, ``_reduction``), from tables."""

from __future__ import annotations

import math
import operator
import types

import numpy

from gpunp import _lib
from gpunp._lib import _tls, check, ffi, lib

_release = lib.gp_array_release
_INT64_MIN, _INT64_MAX, _UINT64_MAX = -(1 << 63), (1 << 63) - 1, (1 << 64) - 1


class _Flags:
    """The read-only view of an array's flags (numpy.ndarray.flags)."""

    __slots__ = ("_f",)

    _NAMES = {"C_CONTIGUOUS": 1, "CONTIGUOUS": 1, "C": 1, "F_CONTIGUOUS": 2,
              "FORTRAN": 2, "F": 2, "OWNDATA": 4, "O": 4, "WRITEABLE": 8, "W": 8,
              "ALIGNED": 16, "A": 16}

    def __init__(self, f: int):
        self._f = f

    def __getitem__(self, key):
        try:
            return bool(self._f & self._NAMES[key.upper()])
        except (KeyError, AttributeError):
            raise KeyError(f"Unknown flag {key!r}") from None

    c_contiguous = property(lambda self: bool(self._f & 1))
    f_contiguous = property(lambda self: bool(self._f & 2))
    contiguous = c_contiguous
    fortran = f_contiguous
    owndata = property(lambda self: bool(self._f & 4))
    writeable = property(lambda self: bool(self._f & 8))
    aligned = property(lambda self: bool(self._f & 16))
    forc = property(lambda self: bool(self._f & 3))
    fnc = property(lambda self: bool(self._f & 2) and not self._f & 1)

    def __repr__(self):
        names = ("C_CONTIGUOUS", 1), ("F_CONTIGUOUS", 2), ("OWNDATA", 4), ("WRITEABLE", 8), \
            ("ALIGNED", 16)
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


class ndarray:
    """An n-dimensional array in the memory of the current device.

    ``ndarray(shape, dtype=float, order='C')`` makes an uninitialised array,
    as ``numpy.ndarray`` and ``gpunp.empty`` do. Arrays are usually made by
    the creation functions (``gpunp.array``, ``zeros``, ``arange``...).
    """

    __slots__ = ("_h", "_base", "_info", "__weakref__")
    __array_priority__ = 100.0

    def __init__(self, shape, dtype=float, order="C"):
        from gpunp._creation import _shape_tuple
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
    def base(self):
        return self._base

    @property
    def flat(self):
        """A flat iterator over the array (numpy.ndarray.flat)."""
        from gpunp._flatiter import flatiter
        return flatiter(self)

    @flat.setter
    def flat(self, value) -> None:
        self.flat[...] = value

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
        from gpunp._creation import _as_strided_view
        dt = numpy.dtype("f4" if self.dtype == numpy.complex64 else "f8")
        return _as_strided_view(self, dt, 0)

    @property
    def imag(self) -> "ndarray":
        if self.dtype.kind != "c":
            from gpunp._creation import zeros_like
            z = zeros_like(self)
            lib.gp_array_set_readonly(z._h)
            return z
        from gpunp._creation import _as_strided_view
        dt = numpy.dtype("f4" if self.dtype == numpy.complex64 else "f8")
        return _as_strided_view(self, dt, dt.itemsize)

    @property
    def device(self):
        """The device holding the array's memory (a gpunp.cuda.Device)."""
        from gpunp.cuda import Device
        return Device(self._raw_info().device_id)

    # ---- conversion -------------------------------------------------------

    def get(self, stream=None, order="C", out=None) -> numpy.ndarray:
        """A NumPy copy of the array, in host memory."""
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
        else:
            host = _host_result(self.shape, self.dtype, self.nbytes, chr(o))
        if host.nbytes:
            buf = ffi.from_buffer(host.ravel(order="K"))
            if stream is None:
                check(lib.gp_array_to_host(self._h, buf, host.nbytes, o))
            else:
                from gpunp.cuda import _on_stream
                with _on_stream(stream):
                    check(lib.gp_array_to_host(self._h, buf, host.nbytes, o))
        return host

    def __array__(self, dtype=None, copy=None):
        raise TypeError(
            "Implicit conversion to a NumPy array is not allowed. Please use "
            "`gpunp.asnumpy(x)` or `x.get()` to construct a NumPy array explicitly.")

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
        from gpunp._creation import asarray
        return asarray(round(self.get()[()], ndigits))

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

    def __reduce__(self):
        from gpunp._creation import array
        return array, (self.get(),)

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
        from gpunp._creation import _view_dtype
        return _view_dtype(self, numpy.dtype(dtype))

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
            a = _new(ndarray)
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
            from gpunp._indexing import getitem
            return getitem(self, key)
        check(lib.gp_array_index(self._h, len(items), items, out))
        return _wrap(out[0], self)

    def __setitem__(self, key, value) -> None:
        if key is not Ellipsis and type(key) is not slice:
            from gpunp._indexing import is_advanced, setitem
            if is_advanced(key):
                setitem(self, key, value)  # a scatter
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
        from gpunp._creation import _contains_device_arrays, _to_host_nested, asarray
        if _contains_device_arrays(value):
            value = _to_host_nested(value)
        # NumPy refuses a sequence deeper than the destination, then converts
        # every element to its dtype (with its errors: a Python int out of
        # range, NaN into integers...)
        if not isinstance(value, numpy.ndarray) and numpy.ndim(value) > view.ndim:
            raise ValueError("setting an array element with a sequence. The requested array "
                             f"would exceed the maximum number of dimension of {view.ndim}.")
        src = asarray(numpy.asarray(value, dtype=view.dtype))
        check(lib.gp_array_assign(view._h, src._h, _lib.CASTING["unsafe"]))


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


_new = object.__new__


def _wrap(h, base=None) -> ndarray:
    """An ndarray owning the engine handle `h`; `base` is the array a view was
    made from (numpy's ``.base``: the owner of the memory)."""
    a = _new(ndarray)
    a._h = h
    a._base = base if base is None or base._base is None else base._base
    a._info = None
    return a
