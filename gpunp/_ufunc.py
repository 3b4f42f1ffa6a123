"""``gpunp.ufunc``: the elementwise operations of the engine's op table, the
ndarray operators built on them (the templates of ``_ndarray.OPERATORS``),
and NEP 13's ``__array_ufunc__`` for NumPy's elementwise ufuncs."""

from __future__ import annotations

import importlib
import math
import sys

import numpy

from gpunp import _fusion, _lib, _ufunc_methods
from gpunp._creation import _as_input, asarray, full
from gpunp._fusion import TRACED as _FUSE_TYPES
from gpunp._lib import check, ffi, lib
from gpunp._manipulation import broadcast_to
from gpunp._ndarray import _wrap, ndarray

_NULL = ffi.NULL
_SAME_KIND = _lib.CASTING["same_kind"]
_ORDER_K = ord("K")
_NO_VALUE = object()
_IDENTITY = {lib.GP_IDENTITY_NONE: None, lib.GP_IDENTITY_ZERO: 0, lib.GP_IDENTITY_ONE: 1,
             lib.GP_IDENTITY_MINUS_ONE: -1, lib.GP_IDENTITY_FALSE: False,
             lib.GP_IDENTITY_TRUE: True, lib.GP_IDENTITY_MINUS_INF: -math.inf}
_I64_MIN, _U64_MAX = -(1 << 63), (1 << 64) - 1
# Python types that stand for weak scalars in resolve_dtypes (NumPy takes no
# `bool` there)
_WEAK_TYPES = {int: _lib.INT64, float: _lib.FLOAT64, complex: _lib.COMPLEX128}


def _code_and_weak(x):
    """(engine dtype code, weak flag) of an input, for loop resolution."""
    if isinstance(x, (ndarray, numpy.generic)):
        return _lib.dtype_code(x.dtype), 0
    if isinstance(x, bool):
        return _lib.BOOL, 0  # NumPy takes a Python bool as a numpy.bool_
    for t, code in ((int, _lib.INT64), (float, _lib.FLOAT64),
                    (complex, _lib.COMPLEX128)):
        if isinstance(x, t):
            return code, 1
    return _lib.dtype_code(asarray(x).dtype), 0


def _operand(op, x, keep):
    """Fills gp_operand_t `op` from an input; `keep` holds temporaries."""
    if isinstance(x, ndarray):
        op.array = x._h
    elif _lib.is_scalar(x):
        _lib.put_scalar(op.scalar, x)
    elif isinstance(x, numpy.ndarray):
        raise TypeError(
            "Unsupported type <class 'numpy.ndarray'>: gpunp does not move NumPy arrays to "
            "the device implicitly; use gpunp.asarray(x)")
    elif isinstance(x, (list, tuple)):
        a = asarray(x)
        keep.append(a)
        op.array = a._h
    else:
        raise TypeError(f"Unsupported type {type(x)}")


def _axes(axis, ndim):
    """(naxes, axes cdata or NULL) for an axis argument (None: every axis),
    each axis read as NumPy's ufunc methods read it."""
    if axis is None:
        return 0, _NULL
    if isinstance(axis, tuple):
        ax = [_lib.normalize_axis(a, ndim, ValueError) for a in axis]  # one by one, as NumPy
        return len(ax), ffi.new("int32_t[]", ax) if ax else ffi.new("int32_t[1]")
    return 1, ffi.new("int32_t[1]", [_lib.c_int(axis, ValueError)])


def _reduce_call(uid, a, o, naxes, axes, keepdims, dtype, initial):
    """The engine's reduction of `a` over `axes`, into `o` or a new array."""
    init = _NULL
    if initial is not _NO_VALUE and initial is not None:
        init = ffi.new("gp_scalar_t *")
        _lib.put_scalar(init, initial)
    res = ffi.new("gp_array_t **")
    if o is not None:
        res[0] = o._h
    check(lib.gp_ufunc_reduce(uid, a._h, naxes, axes, bool(keepdims),
                              -1 if dtype is None else _lib.dtype_code(dtype), init, res))
    return o if o is not None else _wrap(res[0])


def extreme_value(dt: numpy.dtype, largest: bool):
    """The value no element passes in a minimum (largest) or maximum search."""
    if dt.kind == "b":
        return largest
    if dt.kind in "iu":
        info = numpy.iinfo(dt)
        return int(info.max if largest else info.min)
    v = numpy.inf if largest else -numpy.inf
    return complex(v, v) if dt.kind == "c" else v


def where_mask(where, shape):
    """A reduction's where= as a bool gpunp array of the input's `shape`
    (NumPy's rules: an array must be bool and broadcasts to the input)."""
    if isinstance(where, numpy.ndarray):
        raise TypeError(
            "Unsupported type <class 'numpy.ndarray'>: gpunp does not move NumPy arrays to "
            "the device implicitly; use gpunp.asarray(x)")
    if isinstance(where, ndarray):
        if where.dtype != numpy.bool_:
            raise TypeError(f"Cannot cast array data from dtype('{where.dtype}') to "
                            f"dtype('bool') according to the rule 'safe'")
        m = where
    else:
        m = asarray(numpy.asarray(where, dtype=numpy.bool_))  # lists, Python and NumPy scalars
    if m.ndim > len(shape):
        raise ValueError("input operand has more dimensions than allowed by the axis remapping")
    return broadcast_to(m, shape)


# Reductions without an identity that where= still allows (with initial=):
# a left-out element becomes the dtype's extreme, which maximum (minimum)
# passes over; the value is the largest for the minima.
_EXTREME_FILL = {"maximum": False, "fmax": False, "minimum": True, "fmin": True}


def _masked(ufunc, a, where, dtype, initial):
    """`a` with the elements `where` leaves out replaced by a value that
    does not change ufunc's reduction: its identity, or a dtype's extreme."""
    name = ufunc.__name__
    if ufunc.identity is None and (initial is _NO_VALUE or initial is None):
        raise ValueError(f"reduction operation '{name}' does not have an identity, so to use "
                         f"a where mask one has to specify 'initial'")
    if ufunc.identity is None and name not in _EXTREME_FILL:
        raise NotImplementedError(f"{name}.reduce with where= is not supported (it has no "
                                  f"identity)")
    mask = where_mask(where, a.shape)
    if dtype is not None:  # the fill must be a value of the loop's dtype
        a = a.astype(dtype)
    if ufunc.identity is None:
        fill = extreme_value(a.dtype, _EXTREME_FILL[name])
    else:
        fill = ufunc.identity
        if fill == -math.inf and a.dtype.kind not in "fc":  # logaddexp: a float loop
            a = a.astype(numpy.promote_types(a.dtype, numpy.float16))
    # where(mask, a, fill): the fill, then a masked copy of `a` over it
    # (maximum(x, x) is x for every dtype, NaN included), as copyto copies
    out = full(a.shape, numpy.array(fill).astype(a.dtype)[()], a.dtype)
    UFUNCS["maximum"](a, a, out=out, where=mask, casting="unsafe")
    return out


def _out_tuple(out, nout):
    if out is None:
        return (None,) * nout
    if not isinstance(out, tuple):
        out = (out,)
    if len(out) != nout:
        raise ValueError(f"The 'out' tuple must have exactly {nout} entries: one per ufunc output")
    for o in out:
        if o is not None and not isinstance(o, ndarray):
            raise TypeError("return arrays must be of gpunp.ndarray type")
    return out


def _single_out(out, what):
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError(f"{what} takes exactly one output")
        out = out[0]
    if out is not None and not isinstance(out, ndarray):
        raise TypeError("output must be a gpunp.ndarray")
    return out


def _signature(sig, dtype, nin, nout):
    """Fixed loop dtypes (-1: free) from numpy's signature= / dtype=."""
    if sig is None and dtype is None:
        return _NULL
    codes = [-1] * (nin + nout)
    if dtype is not None:
        if sig is not None:
            raise TypeError("cannot specify both 'signature' and 'dtype'")
        for k in range(nin, nin + nout):
            codes[k] = _lib.dtype_code(dtype)
    else:
        if isinstance(sig, str):
            sig = [c for c in sig if c not in "->, "]
        if len(sig) == 1 and nin + nout > 1:
            sig = list(sig) * (nin + nout)
        if len(sig) != nin + nout:
            raise ValueError(f"a type-tuple must be specified of length {nin + nout}")
        for k, d in enumerate(sig):
            if d is not None:
                codes[k] = _lib.dtype_code(d)
    return ffi.new("int32_t[]", codes)


class ufunc:
    """An elementwise operation of the engine's op table, with NumPy's ufunc
    interface: ``__call__``, ``reduce``, ``accumulate``, ``resolve_dtypes``."""

    signature = None  # NumPy's, for an elementwise ufunc (a gufunc's core dimensions)

    def __init__(self, uid: int):
        info = ffi.new("gp_ufunc_info_t *")
        check(lib.gp_ufunc_get_info(uid, info))
        self._id = uid
        # a SciPy function's row is "scipy.special.gamma": the module, then the name
        module, _, self.__name__ = ffi.string(info.name).decode().rpartition(".")
        self._module = module or "numpy"
        self.nin = info.nin
        self.nout = info.nout
        self.nargs = info.nin + info.nout
        self._nloops = info.ntypes
        self.identity = _IDENTITY[info.identity]
        self._reorderable = bool(info.reorderable)
        self._types = None
        if self.nout == 1 and self.nin == 1:
            self._unary_op = _unary(uid)
        elif self.nout == 1 and self.nin == 2:
            self._binary_op, self._rbinary_op = _binary(self, False), _binary(self, True)
        where = "gpunp." + (module + "." if module else "")
        self.__doc__ = f"{where}{self.__name__}: {self._module}.{self.__name__} on the device."

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    @classmethod
    def of_module(cls, module: str) -> dict:
        """{name: ufunc} of the op table's rows for another library's module
        (``"scipy.special"``): what ``gpunp.scipy.special`` is made of."""
        return dict(_MODULES.get(module, {}))

    @property
    def types(self) -> list:
        """NumPy's loop signatures; as NumPy lists no user dtype's loops here,
        the bfloat16 ones ('EE->E') are left out though they run."""
        if self._types is None:
            ts = []
            buf = ffi.new("int32_t[]", self.nargs)
            for loop in range(self._nloops):
                check(lib.gp_ufunc_get_loop(self._id, loop, buf))
                if _lib.BFLOAT16 not in buf:
                    chars = [_lib.DTYPES[c].char for c in buf]
                    ts.append("".join(chars[:self.nin]) + "->" + "".join(chars[self.nin:]))
            self._types = ts
        return list(self._types)

    @property
    def ntypes(self) -> int:
        return len(self.types)

    def __call__(self, *args, out=None, where=True, casting="same_kind", order="K",
                 dtype=None, subok=True, signature=None):
        nin, nout = self.nin, self.nout
        if (nout == 1 and out is None and where is True and dtype is None and signature is None
                and casting == "same_kind" and order == "K"):
            # the plain call on arrays (and a scalar) is the operators' path
            if nin == 1 and len(args) == 1 and type(args[0]) is ndarray:
                return self._unary_op(args[0])
            if nin == 2 and len(args) == 2:
                a, b = args
                if type(a) is ndarray:
                    r = self._binary_op(a, b)
                    if r is not NotImplemented:
                        return r
                elif type(b) is ndarray:
                    r = self._rbinary_op(b, a)
                    if r is not NotImplemented:
                        return r
        for x in args:
            if type(x) in _FUSE_TYPES:  # inside a function gpunp.fuse traces
                return _fusion.ufunc_call(self, args, dict(
                    out=out, where=where, dtype=dtype, signature=signature,
                    casting=None if casting == "same_kind" else casting,
                    order=None if order == "K" else order, subok=None if subok else subok))
        if len(args) > nin:
            if out is not None:
                raise TypeError("cannot specify 'out' as both a positional and keyword argument")
            out = tuple(args[nin:])
            args = args[:nin]
        if len(args) != nin:
            raise TypeError(f"{self.__name__}() takes from {nin} to {nin + nout} positional "
                            f"arguments but {len(args)} were given")
        outs = _out_tuple(out, nout)
        for x in args:
            if type(x) is int and not _I64_MIN <= x <= _U64_MAX:
                args = self._big_ints(args, signature, dtype)
                break
        keep = []
        ops = ffi.new("gp_operand_t[]", nin)
        for k in range(nin):
            _operand(ops[k], args[k], keep)
        outp = ffi.new("gp_array_t *[]", nout)
        for k, o in enumerate(outs):
            if o is not None:
                outp[k] = o._h
        wh = _NULL
        if where is not True:
            w = where if isinstance(where, ndarray) else asarray(where)
            if w.dtype != numpy.bool_:
                w = w.astype(numpy.bool_, casting="safe")
            keep.append(w)
            wh = w._h
        check(lib.gp_ufunc_call(self._id, ops, outp, wh, _signature(signature, dtype, nin, nout),
                                _lib.casting_code(casting), _lib.order_code(order), ))
        res = tuple(o if o is not None else _wrap(outp[k]) for k, o in enumerate(outs))
        return res[0] if nout == 1 else res

    def _big_ints(self, args, signature, dtype):
        """The arguments with each Python int past int64 and uint64 (which an
        engine scalar cannot hold) replaced as NumPy treats it: a float where
        the loop computes in floats; an infinity where a comparison meets
        integer arrays, as no element can equal it or lie beyond it; else
        NumPy's OverflowError."""
        codes, weak = [], []
        for x in args:
            c, w = _code_and_weak(x)
            codes.append(c)
            weak.append(w)
        # the loop as NumPy converts Python ints to it: before any cast is
        # checked, so with outputs free and any casting allowed
        codes += [-1] * self.nout
        loop = self._resolve(codes, weak, _signature(signature, dtype, self.nin, self.nout),
                             "unsafe")
        strong = [c for c, w in zip(codes, weak) if not w]
        ints_only = bool(strong) and all(_lib.DTYPES[c].kind in "iu" for c in strong)
        new = list(args)
        for k, x in enumerate(args):
            if type(x) is not int or _I64_MIN <= x <= _U64_MAX:
                continue
            if loop[k].kind in "fc":
                # NumPy converts the int to the loop's dtype (through a
                # float: OverflowError past float64); a NumPy scalar of that
                # dtype keeps the loop a weak float would leave (float16 for
                # int8 arrays in hypot), and warns of an overflow as NumPy's
                # cast does
                new[k] = loop[k].type(float(x))
            elif self.__name__ in _COMPARISONS and ints_only:
                new[k] = math.inf if x > 0 else -math.inf
            else:
                raise OverflowError(f"Python integer {x} out of bounds for {loop[k]}")
        return tuple(new)

    def _resolve(self, codes, weak, sig, casting) -> tuple:
        res = ffi.new("int32_t[]", self.nargs)
        check(lib.gp_ufunc_resolve(self._id, codes, weak, sig, _lib.casting_code(casting), res))
        return tuple(_lib.DTYPES[c] for c in res)

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NO_VALUE,
               where=True):
        a = array if isinstance(array, ndarray) else _as_input(array)
        if where is not True:
            a = _masked(self, a, where, dtype, initial)
        o = _single_out(out, f"{self.__name__}.reduce")
        if isinstance(axis, bool):
            raise TypeError("an integer is required")
        if a.ndim == 0 and axis is not None and not isinstance(axis, tuple) and \
                _lib.c_int(axis, ValueError) in (0, -1):
            axis = None
        naxes, axes = _axes(axis, a.ndim)
        return _reduce_call(self._id, a, o, naxes, axes, keepdims, dtype, initial)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        a = array if isinstance(array, ndarray) else _as_input(array)
        o = _single_out(out, f"{self.__name__}.accumulate")
        if isinstance(axis, bool):
            raise TypeError("an integer is required")
        if a.ndim == 0:
            _ufunc_methods.refuse_scalar(axis, "accumulate")
        if isinstance(axis, tuple) and len(axis) == 1:
            axis = axis[0]
        if axis is None or isinstance(axis, tuple):
            if a.ndim > 1 or isinstance(axis, tuple):
                raise ValueError("accumulate does not allow multiple axes")
            axis = 0
        res = ffi.new("gp_array_t **")
        if o is not None:
            res[0] = o._h
        check(lib.gp_ufunc_accumulate(self._id, a._h, _lib.c_int(axis, ValueError),
                                      -1 if dtype is None else _lib.dtype_code(dtype), res))
        return o if o is not None else _wrap(res[0])

    def outer(self, A, B, /, **kwargs):
        return _ufunc_methods.outer(self, A, B, **kwargs)

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        return _ufunc_methods.reduceat(self, array, indices, axis, dtype, out)

    def at(self, a, indices, b=None, /):
        return _ufunc_methods.at(self, a, indices, b)

    def resolve_dtypes(self, dtypes, *, signature=None, casting=None, reduction=False):
        """The loop dtypes for operands of `dtypes` (numpy.ufunc.resolve_dtypes);
        Python ``int``, ``float``, ``complex``, ``bool`` stand for weak scalars."""
        if reduction:
            raise NotImplementedError("resolve_dtypes(reduction=True) is not supported")
        if len(dtypes) != self.nargs:
            raise TypeError(f"dtypes must be a tuple of {self.nargs} entries")
        codes, weak = [], []
        for k, d in enumerate(dtypes):
            if d is None:
                if k < self.nin:
                    raise TypeError("input dtypes may not be None")
                codes.append(-1)
            elif d is bool:
                raise TypeError("Provided dtype must be a valid NumPy dtype, int, float, "
                                "complex, or None.")
            elif any(d is t for t in _WEAK_TYPES):
                # by identity: numpy.dtype(bool) == bool, but a dtype is strong
                codes.append(_WEAK_TYPES[d])
                weak.append(1)
                continue
            else:
                codes.append(_lib.dtype_code(d))
            if k < self.nin:
                weak.append(0)
        return self._resolve(codes, weak, _signature(signature, None, self.nin, self.nout),
                             casting or "same_kind")


# ---- operators ----------------------------------------------------------------------

def _binary(uf, reflected, operator=False):
    """The operator's fast path (and the plain ufunc call's): one engine
    call without building operand structs."""
    uid = uf._id
    call_aa, call_as = lib.gp_ufunc_call_aa, lib.gp_ufunc_call_as
    tls, is_scalar, put = _lib._tls, _lib.is_scalar, _lib.put_scalar
    F64, I64 = _lib.FLOAT64, _lib.INT64
    imin, imax = -(1 << 63), (1 << 63) - 1
    new = object.__new__
    # what the operators == and != give for an operand NumPy compares as an
    # object (None, a string): no element equals it (its ufuncs refuse those)
    unequal = {"equal": False, "not_equal": True}.get(uf.__name__) if operator else None

    def op(self, other):
        t = type(other)
        out = tls.out  # out_cell() and _wrap() inline: these are per-call rows of bench/
        if t is ndarray:
            s = call_aa(uid, other._h, self._h, out) if reflected else \
                call_aa(uid, self._h, other._h, out)
        elif t is float:
            s = call_as(uid, self._h, F64, 1, 0, other, 0.0, reflected, out)
        elif t is int and imin <= other <= imax:
            s = call_as(uid, self._h, I64, 1, other, 0.0, 0.0, reflected, out)
        elif t is int and not _I64_MIN <= other <= _U64_MAX:
            # an int no engine scalar holds: NumPy's float, infinity or error
            args = uf._big_ints((other, self) if reflected else (self, other), None, None)
            return op(self, args[0] if reflected else args[1])
        elif is_scalar(other):
            sc = ffi.new("gp_scalar_t *")
            put(sc, other)
            s = call_as(uid, self._h, sc.dtype, sc.weak, sc.i, sc.re, sc.im, reflected, out)
        elif t is list or t is tuple:  # NumPy's array-likes: arrays, never weak scalars
            return op(self, asarray(other))
        elif unequal is not None and (other is None or t is str):
            return full(self.shape, unequal)
        else:
            return NotImplemented
        if s:
            raise _lib.error(s)
        r = new(ndarray)
        r._h = out[0]
        r._base = r._info = None
        return r
    return op


def _inplace(uf):
    def op(self, other):
        if not (isinstance(other, (ndarray, list, tuple)) or _lib.is_scalar(other)):
            return NotImplemented
        return uf(self, other, out=self)
    return op


def _unary(uid):
    call_a, tls = lib.gp_ufunc_call_a, _lib._tls
    new = object.__new__

    def op(self):
        out = tls.out
        s = call_a(uid, self._h, out)
        if s:
            raise _lib.error(s)
        r = new(ndarray)
        r._h = out[0]
        r._base = r._info = None
        return r
    return op


# ---- the instances, one per row of the op table ----------------------------------

def _make_ufuncs() -> dict:
    """{module: {name: ufunc}}: NumPy's under "numpy", SciPy's under theirs."""
    n = ffi.new("int32_t *")
    check(lib.gp_ufunc_count(n))
    modules: dict = {}
    for u in (ufunc(k) for k in range(n[0])):
        modules.setdefault(u._module, {})[u.__name__] = u
    return modules


_MODULES = _make_ufuncs()
UFUNCS = _MODULES["numpy"]

# NumPy's aliases of the same objects
ALIASES = {"divide": "true_divide", "mod": "remainder", "abs": "absolute",
           "bitwise_not": "invert", "bitwise_invert": "invert", "pow": "power",
           "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift",
           "acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh",
           "atan": "arctan", "atan2": "arctan2", "atanh": "arctanh", "conj": "conjugate"}


def by_name(name: str):
    u = UFUNCS.get(name)
    if u is None and name in ALIASES:
        u = UFUNCS.get(ALIASES[name])
    return u


#: the templates of gpunp._ndarray.OPERATORS: each makes an operator from a ufunc
OPERATOR_TEMPLATES = {
    "binary": lambda uf: _binary(uf, False),
    "reflected": lambda uf: _binary(uf, True),
    "inplace": _inplace,
    "comparison": lambda uf: _binary(uf, False, operator=True),
    "unary": lambda uf: _unary(uf._id),
}
_COMPARISONS = {"less", "less_equal", "greater", "greater_equal", "equal", "not_equal"}

# ---- the operators that are more than one ufunc call (gpunp._ndarray.METHODS) -----------

_power, _square, _sqrt, _reciprocal, _dm = (
    UFUNCS[n] for n in ("power", "square", "sqrt", "reciprocal", "divmod"))
_pow_op, _ipow_op = _binary(_power, False), _inplace(_power)


def _fast_power(self, other):
    """NumPy's `**` with a Python int 2, or on an inexact array a Python int -1
    or float 0.5, calls square, reciprocal or sqrt instead of power; the
    results can differ (bool ** 2 is int8, not int64; complex sqrt and
    reciprocal round differently from pow)."""
    t = type(other)
    if t is int and other == 2:
        return _square
    if self.dtype.kind in "fc":
        if t is int and other == -1:
            return _reciprocal
        if t is float and other == 0.5:
            return _sqrt
    return None


def _pow(self, other, mod=None):
    if mod is not None:
        return NotImplemented
    fast = _fast_power(self, other)
    return fast(self) if fast is not None else _pow_op(self, other)


def _ipow(self, other):
    fast = _fast_power(self, other)
    return fast(self, out=self) if fast is not None else _ipow_op(self, other)


def _divmod(self, other):
    if not (isinstance(other, (ndarray, list, tuple)) or _lib.is_scalar(other)):
        return NotImplemented
    return _dm(self, other)


def _rdivmod(self, other):
    if not (isinstance(other, (list, tuple)) or _lib.is_scalar(other)):
        return NotImplemented
    return _dm(other, self)


_pow.__name__, _ipow.__name__ = "__pow__", "__ipow__"
_divmod.__name__, _rdivmod.__name__ = "__divmod__", "__rdivmod__"


# ---- NEP 13 ---------------------------------------------------------------------------

_FROM_NUMPY: dict = {}

# Other libraries' ufuncs gpunp answers: (their module, gpunp's module). A
# ufunc that is the object of that name in their module (loaded already, as
# it must be for the ufunc to exist) runs the function of the same name in
# gpunp's, which is imported at that first call, not with gpunp.
# (SciPy's public functions such as zeta call private ufuncs of
# scipy.special._ufuncs, which gpunp.scipy.special has under the same names.)
FOREIGN_UFUNCS = (("scipy.special", "gpunp.scipy.special"),
                  ("scipy.special._ufuncs", "gpunp.scipy.special"))


def _counterpart(uf):
    """gpunp's ufunc (or function) for NumPy's or another library's ufunc, or None."""
    name = uf.__name__
    if getattr(numpy, name, None) is uf or getattr(numpy, ALIASES.get(name, "-"), None) is uf:
        return by_name(name)
    for theirs, mine in FOREIGN_UFUNCS:
        mod = sys.modules.get(theirs)
        if mod is not None and getattr(mod, name, None) is uf:
            return getattr(importlib.import_module(mine), name, None)
    return None


def array_ufunc(self, uf, method, *inputs, **kwargs):
    """NEP 13 for NumPy's elementwise ufuncs: the gpunp ufunc of the same name
    (gpunp._protocols.array_ufunc adds NumPy's gufuncs)."""
    mine = _FROM_NUMPY.get(uf)
    if mine is None:
        mine = _counterpart(uf)
        if mine is None:
            return NotImplemented
        _FROM_NUMPY[uf] = mine
    # NumPy hands its scalars over as 0-d arrays when they meet ours in a
    # comparison (numpy.bool_(1) < a); a 0-d array is a scalar's value, no
    # transfer of an array, so it is taken as that strong scalar
    inputs = tuple(x[()] if type(x) is numpy.ndarray and x.ndim == 0 else x for x in inputs)
    if method == "__call__" and not kwargs:
        return mine(*inputs)  # refuses host arrays itself
    # the operands that are data (reduceat's and at's indices may be host lists)
    data = inputs[:1] + inputs[2:] if method in ("reduceat", "at") else inputs
    for x in data:
        if not (isinstance(x, ndarray) or _lib.is_scalar(x)):
            return NotImplemented
    for o in kwargs.get("out", ()) or ():
        if not isinstance(o, ndarray):
            return NotImplemented
    if method == "__call__":
        return mine(*inputs, **kwargs)
    if method == "reduce":
        return mine.reduce(*inputs, **kwargs)
    if method == "accumulate":
        return mine.accumulate(*inputs, **kwargs)
    if method == "outer":
        return mine.outer(*inputs, **kwargs)
    if method == "reduceat":
        return mine.reduceat(*inputs, **kwargs)
    if method == "at":
        return mine.at(*inputs, **kwargs)
    return NotImplemented
