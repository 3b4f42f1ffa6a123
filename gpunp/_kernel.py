"""Users' kernels, with CuPy's interfaces: RawKernel and RawModule (CUDA
source through NVRTC and gpunp's kernel cache), ElementwiseKernel and
ReductionKernel (expressions through gpunp's code generator, so on every
backend where the code is plain C)."""

from __future__ import annotations

import contextlib
import operator
import re
import struct

import numpy

from gpunp import _lib
from gpunp._lib import check, ffi, lib
from gpunp._creation import asarray, ascontiguousarray, empty
from gpunp._ndarray import ndarray
from gpunp.cuda.stream import _on_stream

# ---- raw modules ------------------------------------------------------------------------


def _strings(items):
    keep = [ffi.new("char[]", s.encode()) for s in items]
    return keep, ffi.new("char *[]", keep) if keep else ffi.NULL


class RawModule:
    """A CUDA module: compiled from `code` by NVRTC (with `options`, and C++
    `name_expressions` for templates), or loaded from a cubin/PTX `path`."""

    def __init__(self, code=None, *, path=None, options=(), backend="nvrtc",
                 translate_cucomplex=False, enable_cooperative_groups=False,
                 name_expressions=None, jitify=False):
        if (code is None) == (path is None):
            raise TypeError("give either code or path")
        if backend != "nvrtc":
            raise NotImplementedError("gpunp compiles user code with NVRTC only")
        if translate_cucomplex or enable_cooperative_groups or jitify:
            raise NotImplementedError(
                "translate_cucomplex, cooperative groups and jitify are not supported")
        self.code, self.path, self.options = code, path, tuple(options)
        self.name_expressions = tuple(name_expressions or ())
        out = ffi.new("gp_module_t **")
        if code is not None:
            keep_o, opts = _strings(self.options)
            keep_n, names = _strings(self.name_expressions)
            check(lib.gp_module_compile(code.encode(), len(self.options), opts,
                                        len(self.name_expressions), names, out))
        else:
            with open(path, "rb") as f:
                image = f.read()
            check(lib.gp_module_load(image, len(image), out))
        self._h = ffi.gc(out[0], lib.gp_module_destroy)
        self._kernels = {}

    def get_function(self, name: str) -> "RawKernel":
        """The kernel `name`: a function name, or one of the module's name
        expressions (its mangled name is looked up)."""
        k = self._kernels.get(name)
        if k is None:
            kname = name
            if name in self.name_expressions:
                low = ffi.new("const char **")
                check(lib.gp_module_lowered_name(self._h, name.encode(), low))
                kname = ffi.string(low[0]).decode()
            fn = ffi.new("gp_function_t **")
            check(lib.gp_module_get_function(self._h, kname.encode(), fn))
            k = RawKernel._bound(self, name, fn[0])
            self._kernels[name] = k
        return k


def _dims(x, what):
    if type(x) is tuple and len(x) == 1 and type(x[0]) is int and x[0] > 0:
        return x[0], 1, 1
    if type(x) is int and x > 0:
        return x, 1, 1
    t = (x,) if isinstance(x, int) else tuple(x)
    if not 1 <= len(t) <= 3:
        raise ValueError(f"{what} must have 1 to 3 dimensions")
    t = tuple(operator.index(v) for v in t) + (1,) * (3 - len(t))
    if any(v <= 0 for v in t):
        raise ValueError(f"{what} dimensions must be positive")
    return t


_F64 = struct.Struct("<d")
_U64 = (1 << 64) - 1


_LETTERS = {("b", 1): "?", ("i", 1): "b", ("i", 2): "h", ("i", 4): "i", ("i", 8): "q",
            ("u", 1): "B", ("u", 2): "H", ("u", 4): "I", ("u", 8): "Q",
            ("f", 2): "e", ("f", 4): "f", ("f", 8): "d"}
#: NumPy's real scalar types (long and longlong are distinct types of one
#: size), each with the packer of its value's bytes
_PACK = {dt.type: struct.Struct("<" + _LETTERS[dt.kind, dt.itemsize]).pack
         for dt in map(numpy.dtype, "?bBhHiIlLqQefd")}


def _put_arg(c, a):
    """One kernel argument into its gp_kernel_arg_t (checked most common
    first: this runs for every argument of every launch)."""
    t = type(a)
    if t is ndarray:
        c.array = a._h
        return
    pack = _PACK.get(t)
    if pack is not None:
        c.bytes[0] = int.from_bytes(pack(a), "little")
    elif t is float:
        c.bytes[0] = int.from_bytes(_F64.pack(a), "little")
    elif isinstance(a, ndarray):
        c.array = a._h
    elif t is bool or isinstance(a, numpy.bool_):
        c.bytes[0] = 1 if a else 0
    elif isinstance(a, int):
        if not -(1 << 63) <= a < (1 << 63):
            raise OverflowError(f"kernel argument {a} does not fit in int64")
        c.bytes[0] = a & _U64
    elif isinstance(a, numpy.generic):
        if a.dtype.kind not in "biufc" or a.itemsize > 16:
            raise TypeError(f"unsupported kernel argument type {a.dtype}")
        ffi.memmove(c.bytes, a.tobytes(), a.itemsize)
    elif t is complex:
        c.bytes[0] = int.from_bytes(_F64.pack(a.real), "little")
        c.bytes[1] = int.from_bytes(_F64.pack(a.imag), "little")
    else:
        raise TypeError(f"unsupported kernel argument type {t.__name__}")


class RawKernel:
    """A kernel of CUDA C++ `code` named `name`, compiled by NVRTC at first
    use and launched as ``kernel(grid, block, args, shared_mem=0,
    stream=None)``. Arguments: gpunp arrays (their device pointer), NumPy
    scalars (their dtype), Python int/float/bool/complex (as int64, double,
    bool, complex128)."""

    def __init__(self, code, name, options=(), backend="nvrtc", translate_cucomplex=False,
                 *, enable_cooperative_groups=False, jitify=False):
        self.code, self.name, self.options = code, name, tuple(options)
        self._backend = backend
        self._flags = (translate_cucomplex, enable_cooperative_groups, jitify)
        self._module = None
        self._fn = None

    @classmethod
    def _bound(cls, module, name, fn):
        k = cls.__new__(cls)
        k.code, k.name, k.options = module.code, name, module.options
        k._module, k._fn = module, fn
        return k

    def _function(self):
        if self._fn is None:
            tc, coop, jit = self._flags
            self._module = RawModule(code=self.code, options=self.options,
                                     backend=self._backend, translate_cucomplex=tc,
                                     enable_cooperative_groups=coop, jitify=jit)
            self._fn = self._module.get_function(self.name)._fn
        return self._fn

    def __call__(self, grid, block, args, *, shared_mem=0, stream=None):
        fn = self._fn if self._fn is not None else self._function()
        gx, gy, gz = _dims(grid, "grid")
        bx, by, bz = _dims(block, "block")
        n = len(args)
        cargs = ffi.new("gp_kernel_arg_t[]", n) if n else ffi.NULL
        for k in range(n):
            _put_arg(cargs[k], args[k])
        s = ffi.NULL if stream is None else stream._h
        sh = shared_mem if type(shared_mem) is int else operator.index(shared_mem)
        st = lib.gp_function_launch(fn, gx, gy, gz, bx, by, bz, sh, s, n, cargs)
        if st:
            check(st)

    def _attr(self, which):
        out = ffi.new("int32_t *")
        check(lib.gp_function_get_attribute(self._function(), which, out))
        return int(out[0])

    @property
    def attributes(self) -> dict:
        return {name: self._attr(code) for name, code in _ATTRS.items()}

    @property
    def max_threads_per_block(self) -> int:
        return self._attr(lib.GP_FUNC_MAX_THREADS_PER_BLOCK)

    @property
    def num_regs(self) -> int:
        return self._attr(lib.GP_FUNC_NUM_REGS)

    @property
    def max_dynamic_shared_size_bytes(self) -> int:
        return self._attr(lib.GP_FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES)

    @max_dynamic_shared_size_bytes.setter
    def max_dynamic_shared_size_bytes(self, value):
        check(lib.gp_function_set_attribute(self._function(),
                                            lib.GP_FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                            int(value)))


_ATTRS = {"max_threads_per_block": lib.GP_FUNC_MAX_THREADS_PER_BLOCK,
          "shared_size_bytes": lib.GP_FUNC_SHARED_SIZE_BYTES,
          "const_size_bytes": lib.GP_FUNC_CONST_SIZE_BYTES,
          "local_size_bytes": lib.GP_FUNC_LOCAL_SIZE_BYTES, "num_regs": lib.GP_FUNC_NUM_REGS,
          "ptx_version": lib.GP_FUNC_PTX_VERSION, "binary_version": lib.GP_FUNC_BINARY_VERSION,
          "max_dynamic_shared_size_bytes": lib.GP_FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES}


# ---- kernels from expressions --------------------------------------------------------------

_PARAM = re.compile(r"^\s*(raw\s+)?([A-Za-z_][A-Za-z0-9_]*)\s+([A-Za-z_][A-Za-z0-9_]*)\s*$")


class _Param:
    __slots__ = ("raw", "type", "name", "dtype")

    def __init__(self, raw, type_, name):
        self.raw, self.type, self.name = raw, type_, name
        self.dtype = None
        try:
            dt = numpy.dtype(type_)
            _lib.dtype_code(dt)
            self.dtype = dt
        except TypeError:
            pass  # a placeholder such as T

    @property
    def placeholder(self):
        return self.dtype is None


def _parse(params: str) -> list:
    out = []
    for item in params.split(",") if params.strip() else []:
        m = _PARAM.match(item)
        if not m:
            raise ValueError(f"cannot read parameter {item.strip()!r}")
        out.append(_Param(bool(m.group(1)), m.group(2), m.group(3)))
    names = [p.name for p in out]
    if len(set(names)) != len(names):
        raise ValueError("parameter names must differ")
    return out


def _bind(params, args, bound):
    """Resolves placeholder types from the arguments' dtypes (arrays first,
    as CuPy does; then scalars, by NumPy's rules)."""
    for p, a in zip(params, args):
        if p.placeholder and isinstance(a, ndarray):
            prev = bound.setdefault(p.type, a.dtype)
            if prev != a.dtype:
                raise TypeError(f"type {p.type} is bound to {prev} and {a.dtype}")
    for p, a in zip(params, args):
        if p.placeholder and p.type not in bound and a is not None:
            bound[p.type] = numpy.asarray(a).dtype
    return bound


def _dtype_of(p, bound):
    if p.dtype is not None:
        return p.dtype
    if p.type not in bound:
        raise TypeError(f"cannot tell the type {p.type} from the arguments")
    return bound[p.type]


def _cparams(params, bound, outputs):
    arr = ffi.new("gp_user_param_t[]", len(params))
    keep = []
    for q, p in zip(arr, params):
        name = ffi.new("char[]", p.name.encode())
        keep.append(name)
        q.name = name
        q.dtype = _lib.dtype_code(_dtype_of(p, bound))
        q.output = 1 if p in outputs else 0
    return arr, keep


def _types(bound, keep):
    names = [ffi.new("char[]", t.encode()) for t in bound]
    keep += names
    return (len(names), ffi.new("char *[]", names) if names else ffi.NULL,
            ffi.new("int32_t[]", [_lib.dtype_code(d) for d in bound.values()]) if names
            else ffi.NULL)


def _stream_ctx(stream):
    if stream is None:
        return contextlib.nullcontext()
    return _on_stream(stream)


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    out = []
    for a in axis if isinstance(axis, tuple) else (axis,):
        out.append(_lib.normalize_axis(a, ndim))
    if len(set(out)) != len(out):
        raise ValueError("duplicate value in 'axis'")
    return tuple(out)


def _as_device(a):
    if isinstance(a, ndarray) or _lib.is_scalar(a):
        return a
    return asarray(a)


def _split_args(name, nin, nout, args, out):
    """A kernel call's inputs and outputs: the arguments are the inputs, or
    the inputs then the outputs; outputs not given (or out=) are None."""
    if len(args) == nin + nout:
        return list(args[:nin]), list(args[nin:])
    if len(args) == nin:
        outs = [None] * nout if out is None else list(out if isinstance(out, tuple) else (out,))
        return list(args), outs
    raise TypeError(f"{name} takes {nin} or {nin + nout} arguments, got {len(args)}")


def _options(options):
    """CuPy's `options`: a tuple of compiler flags (strings)."""
    if isinstance(options, str):
        options = (options,)
    out = tuple(options)
    if not all(isinstance(o, str) for o in out):
        raise TypeError("options must be a tuple of str")
    return out


class ElementwiseKernel:
    """An elementwise kernel from C code (CuPy's ElementwiseKernel):
    ``ElementwiseKernel('T x, T y', 'T z', 'z = (x - y) * (x - y)', 'sq')``.
    Inputs broadcast; `raw` parameters are whole (C-contiguous) arrays the
    code indexes itself; `i` is the element's C-order index. `loop_prep` runs
    in each thread before its elements and `after_loop` after them (both see
    the scalar and raw parameters). The generated kernel's own names start
    with ``gpk_``; every other name is free for parameters.

    `reduce_dims` is accepted for CuPy's code: `i` is the C-order index of
    the broadcast shape either way, and gpunp always merges the dimensions
    every operand steps through contiguously. `options` are kept
    (``self.options``) but the kernel is compiled by gpunp's code generator
    with its own flags."""

    def __init__(self, in_params, out_params, operation, name="kernel", reduce_dims=True,
                 preamble="", no_return=False, return_tuple=False, *, loop_prep="",
                 after_loop="", options=()):
        self.in_params, self.out_params = _parse(in_params), _parse(out_params)
        if not self.out_params:
            raise ValueError("an elementwise kernel needs an output")
        self.operation, self.name, self.preamble = operation, name, preamble
        self.loop_prep, self.after_loop = loop_prep, after_loop
        self.reduce_dims = bool(reduce_dims)
        self.options = _options(options)
        self.no_return, self.return_tuple = no_return, return_tuple
        self.nin, self.nout = len(self.in_params), len(self.out_params)
        self.nargs = self.nin + self.nout

    def __call__(self, *args, out=None, size=None, block_size=None, stream=None):
        return self._run(args, out, size, stream, {})

    def _run(self, args, out, size, stream, types):
        """The kernel over `args` (inputs, or inputs then outputs); `types`
        binds placeholder names beforehand (a composed ReductionKernel's
        `_type_reduce`)."""
        args, outs = _split_args(self.name, self.nin, self.nout, args, out)
        args = [_as_device(a) for a in args]
        for p, a in zip(self.in_params, args):
            if p.raw and not isinstance(a, ndarray):
                raise TypeError(f"raw parameter {p.name} takes an array")
        bound = _bind(self.in_params, args, dict(types))
        bound = _bind(self.out_params, outs, bound)
        for k, p in enumerate(self.in_params):
            # the code indexes a raw input as a C array of its parameter's type
            if p.raw:
                args[k] = ascontiguousarray(args[k], dtype=_dtype_of(p, bound))
        shapes = [a.shape for p, a in zip(self.in_params, args)
                  if isinstance(a, ndarray) and not p.raw]
        shapes += [o.shape for p, o in zip(self.out_params, outs)
                   if o is not None and not p.raw]
        if shapes:
            shape = numpy.broadcast_shapes(*shapes)
        elif size is not None:
            shape = (operator.index(size),)
        else:
            raise ValueError("the loop size is unknown: give size= or a non-raw array")
        for k, p in enumerate(self.out_params):
            if outs[k] is None:
                if p.raw:
                    raise TypeError(f"raw output {p.name} must be given")
                outs[k] = empty(shape, _dtype_of(p, bound))
        params = self.in_params + self.out_params
        cps, keep = _cparams(params, bound, set(self.out_params))
        operands = ffi.new("gp_operand_t[]", len(params))
        for k, (p, a) in enumerate(zip(params, list(args) + outs)):
            if isinstance(a, ndarray):
                cps[k].kind = lib.GP_PARAM_RAW if p.raw else lib.GP_PARAM_ARRAY
                operands[k].array = a._h
            else:
                cps[k].kind = lib.GP_PARAM_SCALAR
                _lib.put_scalar(operands[k].scalar, a)
        nt, tn, td = _types(bound, keep)
        with _stream_ctx(stream):
            check(lib.gp_elementwise_user(self.name.encode(), self.operation.encode(),
                                          self.preamble.encode(), self.loop_prep.encode(),
                                          self.after_loop.encode(), nt, tn, td,
                                          -1 if size is None else operator.index(size),
                                          len(params), cps, operands))
        if self.no_return:
            return None
        if self.nout == 1 and not self.return_tuple:
            return outs[0]
        return tuple(outs)


def _param_list(params) -> str:
    return ", ".join(("raw " if p.raw else "") + f"{p.type} {p.name}" for p in params)


class ReductionKernel:
    """A reduction kernel from C expressions (CuPy's ReductionKernel):
    ``ReductionKernel('T x', 'T y', 'x * x', 'a + b', 'y = sqrt(a)', '0',
    'l2norm')`` maps each element, combines the mapped values `a` and `b`
    from `identity` in `reduce_type` (``_type_reduce`` in the code; the first
    output's type by default), and gives the result `a` to the post-map.

    Inputs are arrays (broadcast together) and scalars. One array input and
    one output is one engine kernel; otherwise the map is one elementwise
    pass into a `reduce_type` array, reduced by that kernel, and the
    post-map a third pass over the reduced shape (it sees `a` and the
    outputs). `reduce_dims` and
    `options` are accepted as ElementwiseKernel's are."""

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity,
                 name="reduce_kernel", reduce_type=None, reduce_dims=True, preamble="",
                 options=()):
        self.in_params, self.out_params = _parse(in_params), _parse(out_params)
        if not self.in_params or not self.out_params:
            raise ValueError("a reduction kernel needs an input and an output")
        if any(p.raw for p in self.in_params + self.out_params):
            raise NotImplementedError("gpunp's ReductionKernel takes no raw parameters")
        self.map_expr, self.reduce_expr = map_expr, reduce_expr
        self.post_map_expr, self.identity = post_map_expr, identity
        self.name, self.preamble = name, preamble
        self.reduce_type = reduce_type
        self.reduce_dims = bool(reduce_dims)
        self.options = _options(options)
        self.nin, self.nout = len(self.in_params), len(self.out_params)
        self._stages = None

    def __call__(self, *args, out=None, axis=None, keepdims=False, stream=None):
        args, outs = _split_args(self.name, self.nin, self.nout, args, out)
        if len(outs) != self.nout:
            raise TypeError(f"{self.name} has {self.nout} outputs, got {len(outs)}")
        args = [_as_device(a) for a in args]
        bound = _bind(self.in_params, args, {})
        bound = _bind(self.out_params, outs, bound)
        rt = numpy.dtype(self.reduce_type) if self.reduce_type is not None else \
            _dtype_of(self.out_params[0], bound)
        shapes = [a.shape for a in args if isinstance(a, ndarray)]
        if not shapes:
            raise ValueError("a reduction kernel needs an array input")
        full = numpy.broadcast_shapes(*shapes)
        axes = _axes(axis, len(full))
        shape = tuple(1 if k in axes else n for k, n in enumerate(full) if keepdims or
                      k not in axes)
        for k, p in enumerate(self.out_params):
            if outs[k] is None:
                outs[k] = empty(shape, _dtype_of(p, bound))
            elif not isinstance(outs[k], ndarray):
                raise TypeError("out must be a gpunp.ndarray")
            elif outs[k].shape != shape:
                raise ValueError(f"output shape {outs[k].shape} differs from the reduced "
                                 f"shape {shape}")
        with _stream_ctx(stream):
            if self.nin == 1 and self.nout == 1:
                self._reduce(args[0], self.in_params[0], self.map_expr, self.post_map_expr,
                             outs[0], self.out_params[0], bound, rt, axes)
            else:
                self._composed(args, outs, bound, rt, axes, keepdims)
        return outs[0] if self.nout == 1 else tuple(outs)

    def _reduce(self, x, pin, map_expr, post_map, out, pout, bound, rt, axes):
        """One engine reduction of the one array `x` into `out`."""
        cps, keep = _cparams([pin, pout], bound, {pout})
        nt, tn, td = _types(bound, keep)
        ax = ffi.new("int32_t[]", list(axes)) if axes else ffi.new("int32_t[1]")
        check(lib.gp_reduction_user(self.name.encode(), map_expr.encode(),
                                    self.reduce_expr.encode(), post_map.encode(),
                                    str(self.identity).encode(), self.preamble.encode(), nt,
                                    tn, td, _lib.dtype_code(rt), cps, x._h, cps + 1, out._h,
                                    len(axes), ax))

    def _composed(self, args, outs, bound, rt, axes, keepdims):
        """Several inputs or outputs: map, reduce, post-map."""
        if self._stages is None:
            self._stages = (
                ElementwiseKernel(_param_list(self.in_params), "_type_reduce gpk_m",
                                  f"gpk_m = (_type_reduce)({self.map_expr})", self.name,
                                  preamble=self.preamble),
                _parse("gpk_R gpk_x"), _parse("gpk_R gpk_r"),
                ElementwiseKernel("_type_reduce a",
                                  _param_list(self.out_params), self.post_map_expr,
                                  self.name, preamble=self.preamble),
            )
        mapk, pin, pout, postk = self._stages
        types = dict(bound, _type_reduce=rt)
        mapped = mapk._run(tuple(args), None, None, None, types)
        reduced = empty(tuple(1 if k in axes else n for k, n in enumerate(mapped.shape)
                              if keepdims or k not in axes), rt)
        self._reduce(mapped, pin[0], "gpk_x", "gpk_r = a", reduced, pout[0],
                     dict(bound, gpk_R=rt), rt, axes)
        postk._run((reduced,) + tuple(outs), None, None, None, types)
