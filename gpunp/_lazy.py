"""Automatic fusion of eager code: ``gpunp.fusion()`` and ``GPUNP_FUSION=1``.

While a thread records, an elementwise ufunc call (operators included) on
gpunp arrays and scalars returns an array whose value is not computed yet: it
has no engine handle, and its metadata cache `_info` (shape, dtype, strides,
size) carries a fifth item, its `_Node` (the ufunc and its operands, which
may be such nodes in turn), so the eager path's class is unchanged. The
first time anything reaches for the handle of any array (a reduction,
indexing, a host read, a library call, an in-place op, a write), every
pending array is computed first, each by one kernel made from
its expression with gpunp.fuse's machinery (`_fusion._Trace`, whose steps are
the engine's own C through gp_fused_step), so the values are the eager ones
bit for bit.

Off (the default) nothing of this is in the way: the recording operators,
``ufunc.__call__`` and the handle property that flushes are put on the
classes only while some thread may record (`_install`), and taken off again
after a last flush.

Why flushing at *any* handle read is enough: a pending array reads its
operands' memory later, so nothing may write that memory in between; every
write to device memory goes through an engine call, which takes an array's
handle first; so the flush always comes before the write. Metadata (shape,
dtype, flags) read without a flush.
"""

from __future__ import annotations

import contextlib
import os
import threading
import weakref

import numpy

from gpunp import _fusion, _lib, _ndarray, _ufunc
from gpunp._lib import check, ffi, lib
from gpunp._ndarray import _Flags, ndarray
from gpunp.cuda import Device

# the handle's slot, reached past whatever `ndarray._h` is at the moment
_SLOT = ndarray.__dict__["_h"]
_get, _set = _SLOT.__get__, _SLOT.__set__
_release = lib.gp_array_release
_alloc = object.__new__

# a kernel's operands (gp_elementwise_user's GP_MAX_OPERANDS) and a bound on
# the steps of one expression (its source and compile time grow with them)
_MAX_PARAMS = 16
_MAX_STEPS = 64
_PRUNE_AT = 1024
_WEAK = {int: "w:int", float: "w:float", complex: "w:complex"}
_I64_MIN, _U64_MAX = -(1 << 63), (1 << 64) - 1
_BOOL = numpy.dtype(bool)

_lock = threading.RLock()  # recording, flushing, switching
_tls = threading.local()   # on: this thread's fusion() state (None: the global switch)
_global_on = False
_contexts = 0              # fusion(True) contexts open, all threads together
_installed = False
_pending: list = []        # weak references to the arrays not computed yet (all threads)


class _Node:
    """A pending array's expression: `uf` applied to `args` (nodes, arrays,
    scalars); `value` is the array once computed."""

    __slots__ = ("uf", "args", "dtype", "shape", "nparams", "nsteps", "device", "value")

    def __init__(self, uf, args, dtype, shape, nparams, nsteps, device):
        self.uf, self.args, self.dtype, self.shape = uf, args, dtype, shape
        self.nparams, self.nsteps, self.device, self.value = nparams, nsteps, device, None


# ---- the switch -------------------------------------------------------------------------

def _recording() -> bool:
    on = getattr(_tls, "on", None)
    return _global_on if on is None else on


def set_fusion(enabled: bool) -> bool:
    """Switches automatic fusion on or off for every thread that is not
    inside a ``gpunp.fusion(...)`` context (``GPUNP_FUSION=1`` switches it on
    at import); returns the previous setting. Switching off computes every
    pending array first."""
    global _global_on
    with _lock:
        prev, _global_on = _global_on, bool(enabled)
        _update()
    return prev


def fusion_enabled() -> bool:
    """Whether the calling thread records elementwise calls now."""
    return _recording()


@contextlib.contextmanager
def fusion(enabled: bool = True):
    """``with gpunp.fusion():`` records the calling thread's elementwise
    ufunc calls lazily and runs each chain as one kernel when its value is
    needed; ``gpunp.fusion(False)`` runs eagerly inside. Every pending array
    is computed when the context ends."""
    global _contexts
    enabled = bool(enabled)
    prev = getattr(_tls, "on", None)
    with _lock:
        _tls.on = enabled
        _contexts += enabled
        _update()
    try:
        yield
    finally:
        try:
            flush()
        finally:
            with _lock:
                _tls.on = prev
                _contexts -= enabled
                _update()


def _update():
    if _global_on or _contexts:
        if not _installed:
            _install()
    elif _installed:
        flush()
        _uninstall()


# ---- the hooks on ndarray and ufunc, present only while fusion may record ------------

def _handle(self):
    """ndarray._h while installed: computes every pending array first."""
    try:
        h = _get(self)
    except AttributeError:  # this array is pending
        flush()
        return _get(self)
    if _pending and not getattr(_tls, "flushing", False):
        flush()
    return h


def _del(self):
    try:
        info = self._info
        if info is not None and len(info) == 5:  # pending: nothing allocated
            return
        h = _get(self)
    except AttributeError:  # made by __new__ alone, never given a handle
        return
    _release(h)


def _info_of(x):
    """(shape, dtype, strides, flags, device) of a computed array, read past
    the flushing handle property (metadata needs no flush)."""
    info = getattr(_tls, "info", None)
    if info is None:
        info = _tls.info = ffi.new("gp_array_info_t *")
    check(lib.gp_array_get_info(_get(x), info))
    nd = info.ndim
    return (tuple(info.shape[0:nd]), _lib.DTYPES[info.dtype], tuple(info.strides[0:nd]),
            info.flags, info.device_id)


def _meta(self):
    info = self._info
    if info is None:  # a pending array's is set when it is recorded
        shape, dt, strides, _, _ = _info_of(self)
        n = 1
        for s in shape:
            n *= s
        self._info = info = (shape, dt, strides, n)
    return info


def _flags(self):
    try:
        return _Flags(_info_of(self)[3])
    except AttributeError:  # pending: its flags are the computed array's
        self._h  # noqa: B018
        return _Flags(_info_of(self)[3])


def _recording_op(orig, uf, reflected):
    def op(self, other):
        if _recording():
            r = _record(uf, (other, self) if reflected else (self, other))
            if r is not None:
                return r
        return orig(self, other)
    op.__name__ = orig.__name__
    return op


def _recording_unary(orig, uf):
    def op(self):
        if _recording():
            r = _record(uf, (self,))
            if r is not None:
                return r
        return orig(self)
    op.__name__ = orig.__name__
    return op


def _recording_pow(orig):
    square, recip, sqrt, power = (_ufunc.UFUNCS[n] for n in
                                  ("square", "reciprocal", "sqrt", "power"))

    def op(self, other, mod=None):
        if mod is None and _recording():
            # NumPy's ** picks these ufuncs for these scalars (_ufunc._fast_power)
            t, kind = type(other), _dtype_of(self).kind
            if t is int and other == 2:
                r = _record(square, (self,))
            elif kind in "fc" and t is int and other == -1:
                r = _record(recip, (self,))
            elif kind in "fc" and t is float and other == 0.5:
                r = _record(sqrt, (self,))
            else:
                r = _record(power, (self, other))
            if r is not None:
                return r
        return orig(self, other, mod)
    op.__name__ = "__pow__"
    return op


def _recording_call(orig):
    def call(self, *args, **kwargs):
        if not kwargs and len(args) == self.nin and _recording():
            r = _record(self, args)
            if r is not None:
                return r
        return orig(self, *args, **kwargs)
    call.__name__ = "__call__"
    return call


_saved: list = []  # (class, name, original attribute) while installed


_several_devices = False


def _install():
    global _installed, _several_devices
    n = ffi.new("int32_t *")
    _several_devices = lib.gp_device_count(n) == 0 and n[0] > 1
    hooks = [(ndarray, "_h", property(_handle, _set)), (ndarray, "__del__", _del),
             (ndarray, "_meta", _meta), (ndarray, "flags", property(_flags)),
             (ndarray, "__pow__", _recording_pow(ndarray.__dict__["__pow__"])),
             (_ufunc.ufunc, "__call__", _recording_call(_ufunc.ufunc.__dict__["__call__"]))]
    for name, uf, template in _ndarray.OPERATORS:
        orig = ndarray.__dict__[name]
        if template in ("binary", "comparison", "reflected"):
            hooks.append((ndarray, name, _recording_op(orig, _ufunc.UFUNCS[uf],
                                                       template == "reflected")))
        elif template == "unary":
            hooks.append((ndarray, name, _recording_unary(orig, _ufunc.UFUNCS[uf])))
    for cls, name, hook in hooks:
        _saved.append((cls, name, cls.__dict__[name]))
        setattr(cls, name, hook)
    _installed = True


def _uninstall():
    global _installed
    while _saved:
        cls, name, orig = _saved.pop()
        setattr(cls, name, orig)
    _installed = False


# ---- recording --------------------------------------------------------------------------

def _dtype_of(x):
    return _meta(x)[1]


def _c_strides(shape, itemsize):
    st, s = [], itemsize
    for n in reversed(shape):
        st.append(s)
        s *= n if n > 0 else 1
    return tuple(reversed(st))


def _c_flags(shape):
    """The contiguity flags of a new C-ordered array of `shape`."""
    f = lib.GP_FLAG_C_CONTIGUOUS
    if 0 in shape or sum(n > 1 for n in shape) <= 1:
        f |= lib.GP_FLAG_F_CONTIGUOUS
    return f


def _full_strides(shape, strides, nd):
    off = nd - len(shape)
    return [0 if d < off or shape[d - off] == 1 else strides[d - off] for d in range(nd)]


def _best_axis_order(nd, like):
    """The engine's order-K axis order (gp_best_axis_order in
    csrc/core/shape.c): an axis moves inside another when every operand that
    steps along both steps further along the other; C order on a tie."""
    perm = list(range(nd))
    for i in range(nd - 2, -1, -1):
        ax, pos = perm[i], i
        for j in range(i + 1, nd):
            other = perm[j]
            swap = keep = False
            for st in like:
                sa, sb = abs(st[ax]), abs(st[other])
                if sa == 0 or sb == 0:
                    continue
                if sb <= sa:
                    keep = True
                else:
                    swap = True
            if keep:
                break
            if swap:
                pos = j
        if pos != i:
            del perm[i]
            perm.insert(pos, ax)
    return perm


def _eager_is_c(shape, arrays) -> bool:
    """Whether the eager ufunc's new output would be C-contiguous (the
    engine's order K in gp_ufunc_call): only such a result is recorded, so a
    computed array has the strides the eager one would have."""
    nd = len(shape)
    size = 1
    for n in shape:
        size *= n
    if nd <= 1 or size == 0:
        return True
    # a pending operand comes as (shape, None, itemsize), C-ordered; a
    # computed one as (shape, array, None)
    full = []
    for s, x, itemsize in arrays:
        if x is None:
            full.append((s, _c_strides(s, itemsize), _c_flags(s)))
        else:
            _, _, strides, flags, _ = _info_of(x)
            full.append((s, strides, flags))
    arrays = full
    allc = all(len(s) == nd and f & lib.GP_FLAG_C_CONTIGUOUS for s, _, f in arrays)
    allf = all(len(s) == nd and f & lib.GP_FLAG_F_CONTIGUOUS for s, _, f in arrays)
    if allc or allf:
        return allc
    like = [_full_strides(s, st, nd) for s, st, _ in arrays if len(s)]
    if not like:
        return True
    perm = _best_axis_order(nd, like)
    st, s = [0] * nd, 1
    for k in range(nd - 1, -1, -1):
        st[perm[k]] = s
        s *= shape[perm[k]]
    return tuple(st) == _c_strides(shape, 1)


_RANGES: dict = {}


def _int_range(dt):
    r = _RANGES.get(dt)
    if r is None:
        info = numpy.iinfo(dt)
        r = _RANGES[dt] = (int(info.min), int(info.max))
    return r


_STEPS: dict = {}  # (ufunc id, operand kinds) -> loop dtypes, or None where it cannot fuse


def _step_loop(uf, kinds, dts):
    """The loop of `uf` for operands of `dts` (dtypes, or int/float/complex
    for weak scalars), where gpunp.fuse's trace can make its step; else None
    (no loop, integer power...: the eager call runs, raising its error)."""
    key = (uf._id, kinds)
    try:
        return _STEPS[key]
    except KeyError:
        pass
    loop = None
    try:
        t = _fusion._Trace(len(dts))
        ops = [_fusion._Weak(t, k, d) if d in _WEAK else t.param(d, frozenset(), ("arg", k, None))
               for k, d in enumerate(dts)]
        t.ufunc(uf, ops)
        loop = uf.resolve_dtypes(tuple(dts) + (None,) * uf.nout, casting="same_kind")
    except Exception:  # noqa: BLE001 - whatever the reason, the eager call says it
        loop = None
    _STEPS[key] = loop
    return loop


def _record(uf, args):
    """A pending array for uf(*args), or None where the call must run eagerly."""
    if uf.nout != 1:
        return None
    with _lock:
        if not _installed:  # switched off meanwhile
            return None
        return _record_locked(uf, args)


def _record_locked(uf, args):
    dts, kinds, operands, arrays, shapes = [], [], [], [], []
    nparams, nsteps, device = 1, 1, None
    for x in args:
        t = type(x)
        if t is ndarray:
            info = x._info
            if info is not None and len(info) == 5:
                n = info[4]
                shape, dt, dev = n.shape, n.dtype, n.device
                arrays.append((shape, None, dt.itemsize))
                nparams += n.nparams
                nsteps += n.nsteps
                operands.append(n)
            else:
                # shape and dtype cached on the array; flags and device read
                # from the engine only where they can matter
                shape, dt = _meta(x)[:2]
                arrays.append((shape, x, None))
                dev = _info_of(x)[4] if _several_devices else 0
                nparams += 1
                operands.append(x)
            if device is None:
                device = dev
            elif dev != device:
                return None  # the eager call's error
            shapes.append(shape)
            dts.append(dt)
            kinds.append(dt.num)
            continue
        if t is bool:
            dts.append(_BOOL)
            kinds.append(_BOOL.num)
        elif t in _WEAK:
            if t is int and not _I64_MIN <= x <= _U64_MAX:
                return None
            dts.append(t)
            kinds.append(_WEAK[t])
        elif isinstance(x, numpy.generic):
            try:
                _lib.dtype_code(x.dtype)
            except Exception:  # noqa: BLE001 - a dtype gpunp has not: the eager error
                return None
            dts.append(x.dtype)
            kinds.append(x.dtype.num)
        else:
            return None
        nparams += 1
        operands.append(x)
    if not shapes:
        return None
    loop = _step_loop(uf, tuple(kinds), dts)
    if loop is None:
        return None
    for k, x in enumerate(operands):
        # NumPy's OverflowError (or a comparison's exact answer) for a
        # Python int the integer loop cannot hold: the eager call's
        if type(x) is int and loop[k].kind in "iu":
            lo, hi = _int_range(loop[k])
            if not lo <= x <= hi:
                return None
    shape = shapes[0]
    for other in shapes[1:]:
        if other != shape:
            try:
                shape = numpy.broadcast_shapes(*shapes)
            except ValueError:  # the eager call's error
                return None
            break
    if len(shape) > 1 and not _eager_is_c(shape, arrays):
        return None
    if nparams > _MAX_PARAMS or nsteps > _MAX_STEPS:
        # too big for one kernel: the operands are computed, and the call
        # starts a new expression over them
        flush()
        return _record_locked(uf, args)
    out = loop[uf.nin]
    size = 1
    for n in shape:
        size *= n
    node = _Node(uf, tuple(operands), out, shape, nparams, nsteps, device)
    a = _alloc(ndarray)
    a._base = None
    a._info = (shape, out, (0,) * len(shape) if size == 0 else _c_strides(shape, out.itemsize),
               size, node)
    _pending.append(weakref.ref(a))
    if len(_pending) > _PRUNE_AT:
        # a long recording of arrays dropped unread: forget the dead ones
        _pending[:] = [r for r in _pending if r() is not None]
    return a


# ---- flushing ---------------------------------------------------------------------------

def flush() -> None:
    """Computes every pending array (of every thread)."""
    global _pending
    with _lock:
        if not _pending or getattr(_tls, "flushing", False):
            return
        todo, _pending = _pending, []
        _tls.flushing = True
        # the flush runs inside an engine call's argument list: the thread's
        # result cell that call may have cleared must read the same after
        cell = _lib._tls.out
        saved = cell[0]
        k = 0
        try:
            # in recording order: an array computed before its users is a
            # plain input of theirs
            for k, ref in enumerate(todo):
                a = ref()
                if a is not None:
                    _materialize(a)
        except BaseException:
            _pending[:0] = todo[k:]
            raise
        finally:
            _tls.flushing = False
            cell[0] = saved


def _materialize(a):
    node = a._info[4]
    o = _compute(node)
    h = _get(o)
    _set(o, ffi.NULL)
    _set(a, h)
    a._info = None
    node.value, node.args = a, ()


_PLANS: dict = {}  # the expression's structure and operand kinds -> (kernel, types, sources)


def _compute(target):
    """A new array holding `target`'s value, by one kernel."""
    from gpunp._creation import empty
    leaves, steps, key, seen = [], [], [], {}

    def ref(x):
        if type(x) is _Node:
            if x.value is None:
                r = seen.get(id(x))
                if r is None:
                    refs = tuple(ref(y) for y in x.args)
                    r = ("n", len(steps))
                    steps.append((x.uf, refs))
                    key.append((x.uf._id, refs))
                    seen[id(x)] = r
                return r
            x = x.value
        if type(x) is ndarray:
            r = seen.get(id(x))
            if r is None:
                r = seen[id(x)] = ("a", len(leaves))
                leaves.append(x)
                key.append(_meta(x)[1].num)
            return r
        leaves.append(x)
        t = type(x)
        key.append(_WEAK[t] if t in _WEAK else "bool" if t is bool else ("s", x.dtype.num))
        return ("s", len(leaves) - 1)

    ref(target)
    key = tuple(key)
    plan = _PLANS.get(key)
    if plan is None:
        plan = _PLANS[key] = _plan(leaves, steps)
    launch, sources, out_dtype = plan
    with Device(target.device):  # the operands' device, whichever is current now
        out = empty(target.shape, out_dtype)
        launch([leaves[k] for k in sources] + [out])
    return out


def _plan(leaves, steps):
    """The kernel of an expression (gpunp.fuse's trace over its steps)."""
    from gpunp._kernel import ElementwiseKernel
    t = _fusion._Trace(len(leaves))
    vs = []
    for k, x in enumerate(leaves):
        tx = type(x)
        if tx in _WEAK:
            vs.append(_fusion._Weak(t, k, tx))
        else:
            dt = _meta(x)[1] if tx is ndarray else numpy.dtype(bool) if tx is bool else x.dtype
            vs.append(t.param(dt, frozenset((k,)), ("arg", k, None)))
    res = []
    for uf, refs in steps:
        res.append(t.ufunc(uf, [res[i] if kind == "n" else vs[i] for kind, i in refs]))
    out = res[-1]
    t.use(out)
    t.params = [p for p in t.params if p[0] in t.used]
    if len(t.params) + 1 > _MAX_PARAMS:  # _record bounds the operands: a bug if reached
        raise RuntimeError("gpunp fusion: an expression past the kernel's operands")
    body = "\n".join(t.lines + [f"o0 = {out.name};"])
    in_params = ", ".join(f"{t.type_name(d)} {n}" for n, d, _ in t.params)
    kernel = ElementwiseKernel(in_params, f"{t.type_name(out.dtype)} o0", body, "gpunp_fused")
    sources = [src[1] for _, _, src in t.params]
    arrays = [type(leaves[k]) is ndarray for k in sources] + [True]
    return _Launch(kernel, dict(t.types), arrays), sources, out.dtype


class _Launch:
    """An ElementwiseKernel's engine call with everything but the operands
    made once (ElementwiseKernel._run binds and converts its parameters at
    every call; a plan's are fixed)."""

    def __init__(self, kernel, types, arrays):
        from gpunp._kernel import _cparams, _types
        params = kernel.in_params + kernel.out_params
        self.cps, self.keep = _cparams(params, types, set(kernel.out_params))
        for q, is_array in zip(self.cps, arrays):
            q.kind = lib.GP_PARAM_ARRAY if is_array else lib.GP_PARAM_SCALAR
        self.ntypes, self.names, self.dtypes = _types(types, self.keep)
        self.n, self.arrays = len(params), arrays
        self.name, self.operation = kernel.name.encode(), kernel.operation.encode()

    def __call__(self, values):
        ops = ffi.new("gp_operand_t[]", self.n)
        for op, v, is_array in zip(ops, values, self.arrays):
            if is_array:
                op.array = v._h
            else:
                _lib.put_scalar(op.scalar, v)
        check(lib.gp_elementwise_user(self.name, self.operation, b"", b"", b"", self.ntypes,
                                      self.names, self.dtypes, -1, self.n, self.cps, ops))


if os.environ.get("GPUNP_FUSION", "") not in ("", "0"):
    set_fusion(True)
