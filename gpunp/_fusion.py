"""gpunp.fuse: a function of arrays and scalars traced into one elementwise
kernel (CuPy's ``cupy.fuse``).

The first call for a signature (each argument's dtype and ndim, or its
Python scalar type) runs the function on stand-ins (`Var`) that record every
ufunc it applies; the engine writes each step's C (gp_fused_step, the same
expressions and casts its own kernels use, a step's results held as storing
them in arrays would leave them), and the steps become one
`ElementwiseKernel`. Reductions of the result (``sum``, ``max``, ...) run on
its output with gpunp's own reductions, so a fused function gives the unfused
one's values bit for bit: broadcasting, NEP 50 promotion and casts included.

What it cannot fuse (indexing, a ufunc's ``out=``/``where=``, arithmetic on
a reduction's result, integer ``power``, more operands than a kernel takes,
anything but gpunp ufuncs, ``where`` and ``astype`` on the stand-ins) makes
that signature run the function as written: slower, never different.
"""

from __future__ import annotations

import functools

import numpy

# a ufunc step's C text is short; the buffer only bounds a runaway
_STEP_BYTES = 1 << 16
# gp_elementwise_user's operands (GP_MAX_OPERANDS in the engine)
_MAX_PARAMS = 16


class _Unfusable(Exception):
    """Raised while tracing: this signature runs unfused."""


class Var:
    """A value inside a traced function: an argument, a constant or a step's
    result, named in the kernel's C."""

    # deps: the arguments whose arrays' shapes broadcast to this value's
    __slots__ = ("trace", "name", "dtype", "deps")
    __array_priority__ = 1e6  # NumPy scalars' operators defer to ours

    def __init__(self, trace, name, dtype, deps):
        self.trace, self.name, self.dtype, self.deps = trace, name, dtype, deps

    # the ufuncs' operators, as ndarray's
    def _op(self, ufunc, *args):
        from gpunp._ufunc import UFUNCS
        return self.trace.ufunc(UFUNCS[ufunc], args)

    def __add__(self, o): return self._op("add", self, o)
    def __radd__(self, o): return self._op("add", o, self)
    def __sub__(self, o): return self._op("subtract", self, o)
    def __rsub__(self, o): return self._op("subtract", o, self)
    def __mul__(self, o): return self._op("multiply", self, o)
    def __rmul__(self, o): return self._op("multiply", o, self)
    def __truediv__(self, o): return self._op("true_divide", self, o)
    def __rtruediv__(self, o): return self._op("true_divide", o, self)
    def __floordiv__(self, o): return self._op("floor_divide", self, o)
    def __rfloordiv__(self, o): return self._op("floor_divide", o, self)
    def __mod__(self, o): return self._op("remainder", self, o)
    def __rmod__(self, o): return self._op("remainder", o, self)
    def __pow__(self, o):
        # NumPy's ** 2, ** -1 and ** 0.5 are square, reciprocal and sqrt, as
        # ndarray's (on a GPU power rounds otherwise)
        from gpunp._ufunc import _fast_power
        fast = _fast_power(self, o)
        return self._op(fast.__name__, self) if fast is not None else self._op("power", self, o)

    def __rpow__(self, o): return self._op("power", o, self)
    def __and__(self, o): return self._op("bitwise_and", self, o)
    def __rand__(self, o): return self._op("bitwise_and", o, self)
    def __or__(self, o): return self._op("bitwise_or", self, o)
    def __ror__(self, o): return self._op("bitwise_or", o, self)
    def __xor__(self, o): return self._op("bitwise_xor", self, o)
    def __rxor__(self, o): return self._op("bitwise_xor", o, self)
    def __lshift__(self, o): return self._op("left_shift", self, o)
    def __rlshift__(self, o): return self._op("left_shift", o, self)
    def __rshift__(self, o): return self._op("right_shift", self, o)
    def __rrshift__(self, o): return self._op("right_shift", o, self)
    def __lt__(self, o): return self._op("less", self, o)
    def __le__(self, o): return self._op("less_equal", self, o)
    def __gt__(self, o): return self._op("greater", self, o)
    def __ge__(self, o): return self._op("greater_equal", self, o)
    def __eq__(self, o): return self._op("equal", self, o)
    def __ne__(self, o): return self._op("not_equal", self, o)
    def __neg__(self): return self._op("negative", self)
    def __pos__(self): return self._op("positive", self)
    def __abs__(self): return self._op("absolute", self)
    def __invert__(self): return self._op("invert", self)

    # in place: the argument's array receives the value at the end
    def _iop(self, ufunc, o):
        from gpunp._ufunc import UFUNCS
        return self.trace.ufunc(UFUNCS[ufunc], (self, o), into=self)

    def __iadd__(self, o): return self._iop("add", o)
    def __isub__(self, o): return self._iop("subtract", o)
    def __imul__(self, o): return self._iop("multiply", o)
    def __itruediv__(self, o): return self._iop("true_divide", o)
    def __ifloordiv__(self, o): return self._iop("floor_divide", o)
    def __imod__(self, o): return self._iop("remainder", o)
    def __ipow__(self, o): return self._iop("power", o)
    def __iand__(self, o): return self._iop("bitwise_and", o)
    def __ior__(self, o): return self._iop("bitwise_or", o)
    def __ixor__(self, o): return self._iop("bitwise_xor", o)
    def __ilshift__(self, o): return self._iop("left_shift", o)
    def __irshift__(self, o): return self._iop("right_shift", o)

    __hash__ = None

    def __bool__(self):
        # control flow on a traced value cannot be one kernel
        raise _Unfusable("the truth value of a traced array")

    def __getitem__(self, key):
        raise _Unfusable("indexing")

    def __setitem__(self, key, value):
        raise _Unfusable("indexing")

    def astype(self, dtype, copy=True):
        return self.trace.cast(self, numpy.dtype(dtype))

    def _reduce(self, name, *args, **kwargs):
        return Reduced(self, name, args, kwargs)

    def sum(self, *args, **kwargs): return self._reduce("sum", *args, **kwargs)
    def prod(self, *args, **kwargs): return self._reduce("prod", *args, **kwargs)
    def max(self, *args, **kwargs): return self._reduce("max", *args, **kwargs)
    def min(self, *args, **kwargs): return self._reduce("min", *args, **kwargs)
    def mean(self, *args, **kwargs): return self._reduce("mean", *args, **kwargs)
    def any(self, *args, **kwargs): return self._reduce("any", *args, **kwargs)
    def all(self, *args, **kwargs): return self._reduce("all", *args, **kwargs)


class _Weak:
    """A Python int, float or complex argument: weak (NEP 50) in every step
    it enters, as the unfused call's scalar is, and passed to the kernel in
    each loop dtype it meets."""

    __slots__ = ("trace", "arg", "type")

    def __init__(self, trace, arg, type_):
        self.trace, self.arg, self.type = trace, arg, type_


# what a ufunc or where met among its operands when a fused function is traced
TRACED = frozenset((Var, _Weak))


class Reduced:
    """A reduction of a traced value: run by gpunp on the kernel's output of
    that value, so it can only be returned."""

    __slots__ = ("var", "name", "args", "kwargs")

    def __init__(self, var, name, args, kwargs):
        if kwargs.get("out") is not None:
            raise _Unfusable("a reduction's out=")
        self.var, self.name, self.args, self.kwargs = var, name, args, kwargs

    def __getattr__(self, name):
        raise _Unfusable("using a reduction's result inside the function")


def _unfusable(*args, **kwargs):
    raise _Unfusable("arithmetic on a reduction's result")


for _name in ("add sub mul truediv floordiv mod pow and or xor lshift rshift lt le gt ge eq "
              "ne radd rsub rmul rtruediv rfloordiv rmod rpow rand ror rxor neg pos abs "
              "invert bool getitem").split():
    setattr(Reduced, f"__{_name}__", _unfusable)


class _Trace:
    """The recording of one signature: the kernel's parameters, its
    statements, and each parameter's source at call time."""

    def __init__(self, nargs):
        self.nargs = nargs
        self.captured, self.captured_vars = [], []
        # (C name, dtype, source): source ("arg", k, how) reads argument k at
        # call time, ("const", value, how) a constant of the function
        self.params = []
        self.lines = []
        self.types = {}     # placeholder name -> dtype, for the temporaries' declarations
        self.ntemp = 0
        self.into = {}      # argument index -> Var written back into it
        self.arg_vars = {}  # argument index -> its Var
        self.used = set()
        self.scalars = {}   # a scalar parameter's key -> its Var, one parameter for repeats

    def type_name(self, dtype):
        name = f"fz_{dtype.name}"
        self.types[name] = dtype
        return name

    def temp(self, dtype, deps):
        v = Var(self, f"t{self.ntemp}", dtype, deps)
        self.ntemp += 1
        self.lines.append(f"{self.type_name(dtype)} {v.name};")
        return v

    def param(self, dtype, deps, source):
        name = f"p{len(self.params)}"
        self.params.append((name, dtype, source))
        return Var(self, name, dtype, deps)

    def use(self, *vs):
        """Notes the parameters a step reads (the kernel takes only those)."""
        self.used.update(v.name for v in vs)

    def operand(self, x):
        """A traced operand: a Var, or a constant scalar taken as a weak
        Python scalar or a NumPy scalar (its dtype)."""
        if isinstance(x, Var):
            if x.trace is not self:
                raise _Unfusable("a value of another fused function")
            return x
        if isinstance(x, Reduced):
            raise _Unfusable("a reduction's result as an operand")
        if isinstance(x, (_Weak, bool, int, float, complex, numpy.generic)):
            return x
        if hasattr(x, "_h") and hasattr(x, "dtype"):
            # a gpunp array the function made or found (a global, a constant
            # computed eagerly): an input of this call's kernel, after the
            # arguments; the plan is traced again at every call, since the
            # next call may find another
            for k, a in enumerate(self.captured):
                if a is x:
                    return self.captured_vars[k]
            k = self.nargs + len(self.captured)
            self.captured.append(x)
            self.captured_vars.append(self.param(x.dtype, frozenset((k,)), ("arg", k, None)))
            return self.captured_vars[-1]
        raise _Unfusable(f"an operand of type {type(x).__name__}")

    def scalar_var(self, x, dtype, how):
        """A parameter holding the scalar `x` (a constant, or a _Weak
        argument) converted to `dtype`; `how` checks the value at call time
        as the unfused call would ("int": NumPy's OverflowError for an int
        out of an integer loop's range; "where": where's conversion)."""
        # repeats of a constant share one parameter: a kernel takes 16 (a
        # payoff with ten literals ran unfused); the key tells 1, 1.0, True
        # and NumPy scalars of other dtypes apart, and keeps NaN one key
        if isinstance(x, _Weak):
            key, source = ("arg", x.arg), ("arg", x.arg, how)
        else:
            value = x.tobytes() if isinstance(x, numpy.generic) else repr(x)
            key, source = ("const", type(x), getattr(x, "dtype", None), value), ("const", x, how)
        key += (dtype, how)
        if key not in self.scalars:
            self.scalars[key] = self.param(dtype, frozenset(), source)
        return self.scalars[key]

    def ufunc(self, uf, args, into=None, **kwargs):
        from gpunp._lib import check, dtype_code, ffi, lib
        if any(v is not None and v is not True for v in kwargs.values()):
            raise _Unfusable("a ufunc's keywords")
        if len(args) != uf.nin:
            raise _Unfusable("a ufunc call with outputs")
        ops = [self.operand(x) for x in args]
        dts = []
        for x in ops:
            if isinstance(x, Var):
                dts.append(x.dtype)
            elif isinstance(x, numpy.generic):
                dts.append(x.dtype)
            elif isinstance(x, _Weak):
                dts.append(x.type)
            elif type(x) is bool:
                dts.append(numpy.dtype(bool))
            else:
                dts.append(type(x))  # weak
        outs = [None] * uf.nout
        if into is not None:
            outs[0] = into.dtype
        loop = uf.resolve_dtypes(tuple(dts) + tuple(outs), casting="same_kind")
        ins = []
        for k, x in enumerate(ops):
            if not isinstance(x, Var):
                how = "int" if type(x) is int or getattr(x, "type", None) is int else None
                x = self.scalar_var(x, loop[k], how)
            ins.append(x)
        self.use(*ins)
        deps = frozenset().union(*(x.deps for x in ins))
        res = [self.temp(outs[k] if outs[k] is not None else loop[uf.nin + k], deps)
               for k in range(uf.nout)]
        keep = [ffi.new("char[]", v.name.encode()) for v in ins + res]
        text = ffi.new("char[]", _STEP_BYTES)
        st = lib.gp_fused_step(
            uf._id, ffi.new("int32_t[]", [dtype_code(d) for d in loop]),
            ffi.new("int32_t[]", [dtype_code(v.dtype) for v in ins]), keep[:uf.nin],
            ffi.new("int32_t[]", [dtype_code(v.dtype) for v in res]), keep[uf.nin:],
            text, _STEP_BYTES)
        if st == lib.GP_ERR_UNSUPPORTED:
            raise _Unfusable(f"ufunc {uf.__name__}")
        check(st)
        self.lines.append(ffi.string(text).decode())
        if into is not None:
            self._write_back(into, res[0])
            return into
        return res[0] if uf.nout == 1 else tuple(res)

    def _write_back(self, into, value):
        """`into` (an argument's Var, or what an earlier in-place op left in
        it) now holds `value`; the argument's array receives it at the end."""
        arg = next((k for k, v in self.arg_vars.items() if v is into), None)
        if arg is None:
            arg = next((k for k, v in self.into.items() if v is into), None)
        if arg is None:
            raise _Unfusable("an in-place operation on a value that is not an argument")
        self.into[arg] = value
        # the name the function holds now reads the new value
        into.name = value.name

    def cast(self, v, dtype):
        from gpunp._lib import check, dtype_code, ffi, lib
        v = self.operand(v)
        if not isinstance(v, Var):
            raise _Unfusable("astype of a constant")
        self.use(v)
        out = self.temp(dtype, v.deps)
        text = ffi.new("char[]", _STEP_BYTES)
        names = [ffi.new("char[]", v.name.encode()), ffi.new("char[]", out.name.encode())]
        code = dtype_code(dtype)
        check(lib.gp_fused_step(-1, ffi.new("int32_t[]", [code, code]),
                                ffi.new("int32_t[]", [dtype_code(v.dtype)]), names[:1],
                                ffi.new("int32_t[]", [code]), names[1:], text, _STEP_BYTES))
        self.lines.append(ffi.string(text).decode())
        return out

    def where(self, cond, x, y):
        cond, x, y = (self.operand(v) for v in (cond, x, y))
        rep = {bool: False, int: 0, float: 0.0, complex: 0j}
        dt = numpy.result_type(*(v.dtype if isinstance(v, (Var, numpy.generic)) else
                                 rep[v.type if isinstance(v, _Weak) else type(v)]
                                 for v in (x, y)))
        if not isinstance(cond, Var):
            raise _Unfusable("where with a constant condition")
        c = cond if cond.dtype == numpy.bool_ else self.cast(cond, numpy.dtype(bool))
        xs = [self.cast(v, dt) if isinstance(v, Var) else self.scalar_var(v, dt, "where")
              for v in (x, y)]
        self.use(c, *xs)
        out = self.temp(dt, frozenset().union(*(v.deps for v in (c, *xs))))
        self.lines.append(f"{out.name} = {c.name} ? {xs[0].name} : {xs[1].name};")
        return out


def where(condition, x, y):
    """gpunp.where(condition, x, y) called on traced values."""
    for v in (condition, x, y):
        if isinstance(v, (Var, _Weak)):
            return v.trace.where(condition, x, y)
    raise _Unfusable("where")


def ufunc_call(uf, args, kwargs):
    """A gpunp ufunc called on traced values."""
    for v in args:
        if isinstance(v, (Var, _Weak)):
            return v.trace.ufunc(uf, args, **kwargs)
    raise _Unfusable(f"ufunc {uf.__name__}")


class _Plan:
    """A traced signature's kernel and how to call it; `kernel` None runs the
    function as written."""

    def __init__(self, func, args, name):
        self.kernel, self.retrace = None, False
        try:
            self._trace(func, args, name)
        except Exception as e:  # noqa: BLE001
            # _Unfusable, or an error the function meets: run as written, it
            # raises its own error the unfused way
            self.kernel, self.why = None, e

    def _trace(self, func, args, name):
        from gpunp._kernel import ElementwiseKernel
        from gpunp._ndarray import ndarray
        t = _Trace(len(args))
        stand_ins = []
        for k, a in enumerate(args):
            if type(a) in (int, float, complex):
                stand_ins.append(_Weak(t, k, type(a)))
                continue
            # an array, a NumPy scalar or a bool (NumPy's bool_): of its dtype
            dt = a.dtype if hasattr(a, "dtype") else numpy.dtype(bool)
            v = t.param(dt, frozenset((k,)) if isinstance(a, ndarray) else frozenset(),
                        ("arg", k, None))
            t.arg_vars[k] = v
            stand_ins.append(v)
        result = func(*stand_ins)
        single = not isinstance(result, tuple)
        results = (result,) if single else result
        # what the kernel writes: each returned value (or the value a
        # reduction reads) and each argument written in place
        outs, ret = [], []
        for r in results:
            if isinstance(r, Reduced):
                outs.append(r.var)
                ret.append(("reduce", len(outs) - 1, r.name, r.args, r.kwargs))
            elif isinstance(r, Var):
                ret.append(self._returned_var(t, r, outs))
            elif isinstance(r, _Weak):
                ret.append(("arg", r.arg))
            elif r is None or isinstance(r, (bool, int, float, complex, numpy.generic)):
                ret.append(("value", r))
            elif isinstance(r, ndarray):
                ret.append(("value", r))  # made without the arguments: anew each call
                self.retrace = True
            else:
                raise _Unfusable(f"returning {type(r).__name__}")
        into = sorted(t.into.items())
        for _, v in into:
            outs.append(v)
        if not outs:
            raise _Unfusable("nothing computed")
        t.use(*outs)
        t.params = [p for p in t.params if p[0] in t.used]
        if len(t.params) + len(outs) > _MAX_PARAMS:
            raise _Unfusable("too many operands")
        self.deps = [sorted(v.deps) for v in outs]
        self.shape_args = sorted(frozenset().union(*(v.deps for v in outs)))
        if not self.shape_args:
            raise _Unfusable("no array argument in the kernel")
        outs_c = [f"o{k}" for k in range(len(outs))]
        body = t.lines + [f"{o} = {v.name};" for o, v in zip(outs_c, outs)]
        in_params = ", ".join(f"{t.type_name(d)} {n}" for n, d, _ in t.params)
        out_params = ", ".join(f"{t.type_name(v.dtype)} {o}" for o, v in zip(outs_c, outs))
        self.kernel = ElementwiseKernel(in_params, out_params, "\n".join(body), name)
        self.captured = tuple(t.captured)
        self.retrace = self.retrace or bool(self.captured)
        self.types = dict(t.types)
        self.sources = [src for _, _, src in t.params]
        self.dtypes = [d for _, d, _ in t.params]
        self.ret, self.single = ret, single
        self.into = [(k, len(outs) - len(into) + j) for j, (k, _) in enumerate(into)]

    @staticmethod
    def _returned_var(t, v, outs):
        for k, a in t.arg_vars.items():
            if a is v:
                return ("arg", k)  # the argument itself, written in place or not
        for name, _, src in t.params:
            if name == v.name:
                return ("value", src[1])  # a constant as it came
        outs.append(v)
        return ("out", len(outs) - 1)

    def inputs(self, args):
        """The kernel's input values and its shape for a call, or None where
        the call must run unfused, which raises NumPy's error or gives its
        special result: an int scalar outside its integer loop's range
        (OverflowError, or a comparison's exact answer), a scalar where's
        conversion refuses, an argument written in place that the result
        does not fit or that overlaps another array (the kernel would read
        its own writes element by element), results of several shapes."""
        from gpunp._function_base import may_share_memory
        from gpunp._indexing import _where_operand
        args = tuple(args) + self.captured
        vals = []
        for src, dt in zip(self.sources, self.dtypes):
            x, how = args[src[1]] if src[0] == "arg" else src[1], src[2]
            try:
                if how == "where":
                    x = _where_operand(x, dt)
                elif how == "int" and dt.kind in "iu":
                    numpy.array(x, dtype=dt)
            except (OverflowError, ValueError, TypeError):
                return None
            vals.append(x)
        shape = numpy.broadcast_shapes(*(args[k].shape for k in self.shape_args))
        if any(numpy.broadcast_shapes(*(args[k].shape for k in d)) != shape
               for d in self.deps):
            return None
        for arg, _ in self.into:
            if args[arg].shape != shape or any(
                    k != arg and b is not args[arg] and may_share_memory(args[arg], b)
                    for k, b in enumerate(args)):
                return None
        return vals, shape

    def __call__(self, args, vals, shape):
        from gpunp import _reduction
        from gpunp._creation import empty
        nout = self.kernel.nout
        outs = [None] * nout
        for arg, k in self.into:
            outs[k] = args[arg]
        for k in range(nout):
            if outs[k] is None:
                outs[k] = empty(shape, self.kernel.out_params[k].dtype or
                                self.types[self.kernel.out_params[k].type])
        self.kernel._run(vals + outs, None, None, None, self.types)
        res = []
        for r in self.ret:
            if r[0] == "out":
                res.append(outs[r[1]])
            elif r[0] == "arg":
                res.append(args[r[1]])
            elif r[0] == "value":
                res.append(r[1])
            else:
                _, k, name, rargs, rkw = r
                res.append(getattr(_reduction, name)(outs[k], *rargs, **rkw))
        return res[0] if self.single else tuple(res)


class fuse:
    """Fuses a function of gpunp arrays and scalars into one kernel
    (``cupy.fuse``): ``@gpunp.fuse()`` or ``@gpunp.fuse(kernel_name="k")``
    or ``@gpunp.fuse``. Elementwise ufuncs, their operators, ``where`` and
    ``astype`` make the kernel; a returned ``sum``/``prod``/``max``/``min``/
    ``mean``/``any``/``all`` runs on its output. Each signature (dtypes,
    ndims, scalar types) is traced once. A call with no gpunp array runs the
    function as written."""

    def __init__(self, *args, kernel_name=None):
        if len(args) == 1 and callable(args[0]):
            self._init(args[0], kernel_name)
        elif args:
            raise TypeError("fuse() takes a function, or keywords only")
        else:
            self.func = None
            self.kernel_name = kernel_name

    def _init(self, func, kernel_name):
        self.func = func
        self.kernel_name = kernel_name or getattr(func, "__name__", "fused")
        self._plans = {}
        functools.update_wrapper(self, func)

    def __call__(self, *args, **kwargs):
        if self.func is None:
            # @fuse(kernel_name=...) applied to the function
            if len(args) != 1 or kwargs or not callable(args[0]):
                raise TypeError("fuse(...) decorates one function")
            f = fuse(kernel_name=self.kernel_name)
            f._init(args[0], self.kernel_name)
            return f
        if kwargs:
            return self.func(*args, **kwargs)
        from gpunp._ndarray import ndarray
        key = []
        for a in args:
            if isinstance(a, ndarray):
                key.append((a.dtype, a.ndim))
            elif isinstance(a, numpy.generic):
                key.append(a.dtype)
            elif type(a) in (bool, int, float, complex):
                key.append(type(a))
            else:
                return self.func(*args)
        if not any(isinstance(a, ndarray) for a in args):
            return self.func(*args)
        key = tuple(key)
        plan = self._plans.get(key)
        if plan is None:
            plan = _Plan(self.func, args, self.kernel_name)
            if not plan.retrace:
                self._plans[key] = plan
        run = plan.inputs(args) if plan.kernel is not None else None
        if run is None:
            return self.func(*args)
        return plan(args, *run)
