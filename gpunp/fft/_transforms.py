"""The transforms of numpy.fft. On a GPU each pass is one call of the
engine's gp_fft (cuFFT, csrc/kernels/fft.c); several distinct axes go into
one plan (up to three). The host backend has no FFT library of its own:
there gpunp computes through NumPy's pocketfft on a zero-copy view of the
array's host memory.

The GPU path follows NumPy's own structure (numpy/fft/_pocketfft.py): the
same argument handling, the same per-pass dtypes and normalisation factors
(computed by NumPy in the pass's real dtype, so a float16 input is scaled by
a float16-rounded factor as NumPy scales it), the same out= checks."""

from __future__ import annotations

import functools
import warnings

import numpy

import gpunp
from gpunp._config import backend
from gpunp._creation import asarray, zeros
from gpunp._lib import check, ffi, lib
from gpunp._ndarray import _wrap, ndarray
from gpunp._shaping import copyto

_FORWARD, _INVERSE, _R2C, _C2R = (lib.GP_FFT_FORWARD, lib.GP_FFT_INVERSE, lib.GP_FFT_R2C,
                                  lib.GP_FFT_C2R)
_MAX_RANK = lib.GP_FFT_MAX_RANK

try:  # NumPy's own argument cooking (s, axes, its deprecations), as it runs
    from numpy.fft._pocketfft import _cook_nd_args as _numpy_cook
except ImportError:  # pragma: no cover - a NumPy that moved it
    _numpy_cook = None


# ---- where the work is done --------------------------------------------------------------

@functools.cache
def _backend() -> str:
    return backend()


def _asarray(a) -> ndarray:
    if isinstance(a, ndarray):
        return a
    return asarray(a)


def _check_out(out):
    if out is not None and not isinstance(out, ndarray):
        raise TypeError(f"out must be a gpunp.ndarray, not {type(out).__name__}")


def _on_host(name, a, args, out):
    """numpy.fft.<name> on the host memory of `a` (the host backend)."""
    view = numpy.from_dlpack(_asarray(a))
    fn = getattr(numpy.fft, name)
    if out is None:
        return asarray(_zero_if_empty(view, fn(view, *args)))
    # NumPy writes into a host twin of `out`, which then goes to `out`: the
    # twin never overlaps the input, as NumPy's own buffering assures
    twin = numpy.empty(out.shape, out.dtype)
    res = _zero_if_empty(view, fn(view, *args, out=twin))
    if res is not twin:  # this NumPy ignores out= for this function
        return asarray(res)
    copyto(out, asarray(twin), casting="unsafe")
    return out


def _zero_if_empty(a, r):
    """An input empty along a transformed axis is all zero padding, and so is
    its transform: NumPy 2.4's irfft and hfft leave that result unwritten."""
    if a.size == 0 and r.size:
        r[...] = 0
    return r


def _hip_unsupported():
    raise NotImplementedError("gpunp.fft is not implemented on the HIP backend yet (hipFFT "
                              "is to come; see docs/hip.md)")


# ---- one pass, as NumPy's _raw_fft ---------------------------------------------------------

_SWAP = {"backward": "forward", None: "forward", "ortho": "ortho", "forward": "backward"}


def _swap_direction(norm):
    try:
        return _SWAP[norm]
    except (KeyError, TypeError):
        raise ValueError(f'Invalid norm value {norm}; should be "backward", '
                         '"ortho" or "forward".') from None


@functools.lru_cache(maxsize=None)
def _pass_dtypes(dtype) -> tuple:
    """(the dtype of a pass' factor, its complex loop dtype, its real loop
    dtype) for an input of `dtype`, once per dtype (each NumPy type
    promotion costs about a microsecond of the call)."""
    factor = numpy.result_type(numpy.dtype(dtype).type(0).real.dtype, 1.0)
    cdt = numpy.result_type(dtype, 1j)
    return factor, cdt, numpy.dtype(numpy.float32 if cdt == numpy.complex64 else numpy.float64)


def _factor(norm, n, dtype, is_forward) -> float:
    """NumPy's normalisation factor of an n-point pass over `dtype`, in the
    pass's real dtype; ValueError for an unknown norm."""
    if not is_forward:
        norm = _swap_direction(norm)
    if norm is None or norm == "backward":
        return 1.0
    real = _pass_dtypes(dtype)[0]
    if norm == "ortho":
        return float(numpy.reciprocal(numpy.sqrt(n, dtype=real)))
    if norm == "forward":
        return float(numpy.reciprocal(n, dtype=real))
    raise ValueError(f'Invalid norm value {norm}; should be "backward",'
                     '"ortho" or "forward".')


def _complex_of(dtype) -> numpy.dtype:
    return _pass_dtypes(dtype)[1]


def _real_of(dtype) -> numpy.dtype:
    return _pass_dtypes(dtype)[2]


def _fit(x: ndarray, axis: int, m: int) -> ndarray:
    """x cropped or zero-padded to length m along axis."""
    k = x.shape[axis]
    if k == m:
        return x
    lead = (slice(None),) * axis
    if k > m:
        return x[lead + (slice(0, m),)]
    shape = list(x.shape)
    shape[axis] = m
    z = zeros(tuple(shape), x.dtype)
    z[lead + (slice(0, k),)] = x
    return z


def _engine(kind, x: ndarray, axes, n_last=0) -> ndarray:
    out = ffi.new("gp_array_t **")
    check(lib.gp_fft(kind, x._h, len(axes), list(axes), n_last, out))
    return _wrap(out[0])


def _scale(r: ndarray, fct: float) -> ndarray:
    if fct != 1.0:
        gpunp.multiply(r, fct, out=r)
    return r


def _negate_imag(r: ndarray) -> ndarray:
    if r.dtype.kind == "c" and r.size:
        im = r.imag
        gpunp.negative(im, out=im)
    return r


def _conjugate(a: ndarray) -> ndarray:
    return _negate_imag(a.copy()) if a.dtype.kind == "c" else a


def _normalize_axis(axis, ndim) -> int:
    return int(numpy.lib.array_utils.normalize_axis_index(axis, ndim))


def _no_rfft_loop(n):
    raise TypeError(f"ufunc 'rfft_n_{'even' if n % 2 == 0 else 'odd'}' not supported for the "
                    "input types, and the inputs could not be safely coerced to any supported "
                    "types according to the casting rule ''safe''")


def _deliver(r: ndarray, out, out_dtype):
    """The pass's result (in its loop dtype) into `out`, checked as NumPy's
    gufunc call checks it, or cast to NumPy's result dtype."""
    if out is None:
        return r if r.dtype == out_dtype else r.astype(out_dtype)
    copyto(out, r, casting="same_kind")
    return out


def _check_out_shape(out, ndim, axis, n_out):
    if out is not None and (out.ndim != ndim or out.shape[axis] != n_out):
        raise ValueError("output array has wrong shape.")


class _Calls(dict):
    """Calls whose checks passed, by their arguments, with what the checks
    worked out: a repeated call skips them (cleared when it holds 4096)."""

    def find(self, key):
        """(key, what was kept), or (None, None) where an argument is not
        hashable (the checks will say what is wrong with it)."""
        try:
            return key, self.get(key)
        except TypeError:
            return None, None

    def keep(self, key, value):
        if key is not None:
            if len(self) >= 4096:
                self.clear()
            self[key] = value


#: fft and ifft calls without out= whose n is the axis' length, by
#: direction, shape, dtype, axis and norm: the plan's axis, factor and dtype
_ONE_CALLS = _Calls()


def _raw_fft(a: ndarray, n, axis, is_real, is_forward, norm, out=None) -> ndarray:
    """One pass of NumPy's _raw_fft on the device."""
    key = None
    if out is None and not is_real and type(n) is int and type(axis) is int:
        key, hit = _ONE_CALLS.find((is_forward, a.shape, a.dtype, n, axis, norm))
        if hit is not None:
            ax, fct, cdt = hit
            x = a if a.dtype == cdt else a.astype(cdt)
            return _scale(_engine(_FORWARD if is_forward else _INVERSE, x, [ax]), fct)
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    fct = _factor(norm, n, a.dtype, is_forward)
    axis = _normalize_axis(axis, a.ndim)
    real_dtype, cdt, loop_real = _pass_dtypes(a.dtype)
    n_out = n // 2 + 1 if is_real and is_forward else n
    out_dtype = real_dtype if is_real and not is_forward else cdt
    _check_out_shape(out, a.ndim, axis, n_out)
    if _backend() == "hip":
        _hip_unsupported()
    if is_real and is_forward:
        if a.dtype.kind == "c":
            _no_rfft_loop(n)
        x = _fit(a if a.dtype == loop_real else a.astype(loop_real), axis, n)
        r = _engine(_R2C, x, [axis])
    elif is_real:
        x = _fit(a if a.dtype == cdt else a.astype(cdt), axis, n // 2 + 1)
        r = _engine(_C2R, x, [axis], n)
    else:
        x = _fit(a if a.dtype == cdt else a.astype(cdt), axis, n)
        r = _engine(_FORWARD if is_forward else _INVERSE, x, [axis])
        if a.shape[axis] == n and a.size:
            _ONE_CALLS.keep(key, (axis, fct, cdt))
    return _deliver(_scale(r, fct), out, out_dtype)


# ---- the one-axis functions ----------------------------------------------------------------

@functools.cache
def _numpy_honours_out(name) -> bool:
    """Whether the running NumPy writes numpy.fft.<name>'s result into out=
    (NumPy 2.4's hfft, ifft2 and irfft2 drop it)."""
    fn = getattr(numpy.fft, name)
    x = numpy.ones((2, 2), numpy.float64 if name.startswith("rfft") else numpy.complex128)
    twin = numpy.empty_like(fn(x))
    return fn(x, out=twin) is twin


def _hfft(a, n, axis, norm, out):
    return irfft(_conjugate(a), n, axis, norm=_swap_direction(norm),
                 out=out if _numpy_honours_out("hfft") else None)


def _ihfft(a, n, axis, norm, out):
    return _negate_imag(rfft(a, n, axis, norm=_swap_direction(norm), out=out))


#: name: (is_real, is_forward) of NumPy's _raw_fft, or the function of a
#: Hermitian transform, and whether n defaults to 2 (m - 1) for m inputs
_ONE_AXIS = {
    "fft": ((False, True), False, "The one-dimensional discrete Fourier transform"),
    "ifft": ((False, False), False, "The one-dimensional inverse discrete Fourier transform"),
    "rfft": ((True, True), False, "The one-dimensional transform of real input, half the "
                                  "spectrum"),
    "irfft": ((True, False), True, "The inverse of rfft: n real points from a half spectrum"),
    "hfft": (_hfft, True, "The transform of a Hermitian-symmetric signal, real output"),
    "ihfft": (_ihfft, False, "The inverse of hfft"),
}


def _one_axis(name):
    how, halved, doc = _ONE_AXIS[name]

    def transform(a, n=None, axis=-1, norm=None, out=None):
        _check_out(out)
        if _backend() == "host":
            return _on_host(name, a, (n, axis, norm), out)
        a = _asarray(a)
        if n is None:
            n = (a.shape[axis] - 1) * 2 if halved else a.shape[axis]
        if callable(how):
            return how(a, n, axis, norm, out)
        return _raw_fft(a, n, axis, *how, norm, out)

    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = f"{doc} (numpy.fft.{name})."
    return transform


fft, ifft, rfft, irfft, hfft, ihfft = (_one_axis(k) for k in _ONE_AXIS)


# ---- the n-dimensional functions -----------------------------------------------------------

class _Shape:
    """What NumPy's _cook_nd_args reads of an array: its shape."""
    __slots__ = ("shape",)

    def __init__(self, shape):
        self.shape = shape


def _cook_nd_args(a, s=None, axes=None, invreal=0):
    nd = a.ndim
    if s is None and (axes is None or type(axes) in (list, tuple)) and not (invreal and nd == 0):
        # the common call (fft2's default axes, fftn's none): what NumPy
        # cooks, without its take of the shape (4 of the call's microseconds)
        ax = list(range(-nd, 0)) if axes is None else axes
        if ax and all(type(k) is int and -nd <= k < nd for k in ax):
            s = [a.shape[k] for k in ax]
            if invreal:
                s[-1] = (a.shape[ax[-1]] - 1) * 2
            return s, ax
    if _numpy_cook is not None:
        return _numpy_cook(_Shape(a.shape), s, axes, invreal)
    if s is None:  # pragma: no cover - NumPy 2.4's rules, should it move them
        shapeless = True
        s = [a.shape[ax] for ax in axes] if axes is not None else list(a.shape)
    else:
        shapeless = False
    s = list(s)
    if axes is None:
        if not shapeless:
            warnings.warn("`axes` should not be `None` if `s` is not `None` (Deprecated in "
                          "NumPy 2.0)", DeprecationWarning, stacklevel=4)
        axes = list(range(-len(s), 0))
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if invreal and shapeless:
        s[-1] = (a.shape[axes[-1]] - 1) * 2
    s = [a.shape[ax] if n == -1 else n for n, ax in zip(s, axes)]
    return s, axes


def _groups(axes):
    """`axes` (distinct) in plans of at most _MAX_RANK axes, ascending in each
    (the order in which a C-ordered array nests them)."""
    axes = sorted(axes)
    return [axes[i:i + _MAX_RANK] for i in range(0, len(axes), _MAX_RANK)]


def _passes_valid(a, s, axes, norm, order):
    """NumPy's per-pass checks, in its pass order (`order`, indices into s
    and axes): the first that fails raises what NumPy raises. The normalised
    axes, or None where they repeat (those go pass by pass, as NumPy)."""
    done = [0] * len(axes)
    for ii in order:
        if s[ii] < 1:
            raise ValueError(f"Invalid number of FFT data points ({s[ii]}) specified.")
        _factor(norm, s[ii], numpy.complex128, True)
        done[ii] = _normalize_axis(axes[ii], a.ndim)
    return done if len(set(done)) == len(done) else None


def _fused_c2c(x: ndarray, groups, forward) -> ndarray:
    """x transformed over each group that _groups gave, one plan a group."""
    for group in groups:
        x = _engine(_FORWARD if forward else _INVERSE, x, group)
    return x


def _nd_start(name, a, s, axes, out, invreal=0):
    """The input, s and axes as NumPy cooks them, and out= unless the
    running NumPy drops it for this function."""
    a = _asarray(a)
    s, axes = _cook_nd_args(a, s, axes, invreal)
    if out is not None and not _numpy_honours_out(name):
        out = None
    return a, s, axes, out


#: fftn, ifftn, fft2 and ifft2 calls of the usual form (no s, no out, axes a
#: tuple or None), by name, shape, dtype, axes and norm: the axes and factor
#: that _fftnd worked out for them: fft2's Python before gp_fft took 10.7 µs
#: on the development machine, 2.3 with this (on the H200 gpunp's whole
#: call of a small fft2 took 14-19 µs, PyTorch's 12.7)
_ND_CALLS = _Calls()


def _fftnd(name, a, s, axes, norm, out):
    forward = not name.startswith("i")
    key = None
    if s is None and out is None and (axes is None or type(axes) is tuple):
        a = _asarray(a)
        key, hit = _ND_CALLS.find((name, a.shape, a.dtype, axes, norm))
        if hit is not None:
            groups, fct, cdt = hit
            x = a if a.dtype == cdt else a.astype(cdt)
            return _scale(_fused_c2c(x, groups, forward), fct)
    a, s, axes, out = _nd_start(name, a, s, axes, out)
    one = fft if forward else ifft
    ax = _passes_valid(a, s, axes, norm, reversed(range(len(axes))))
    cdt = _complex_of(a.dtype)
    # out= of the input's shape, where every pass keeps it, and of the
    # transform's dtype takes the fused result; any other goes pass by pass,
    # for NumPy's per-pass checks and casts
    whole_out = out is None or (out.shape == a.shape and out.dtype == cdt and
                                all(a.shape[k] == n for k, n in zip(ax or (), s)))
    if ax is None or not whole_out or a.size == 0 or not axes:
        for ii in reversed(range(len(axes))):
            a = one(a, n=s[ii], axis=axes[ii], norm=norm, out=out)
        return a
    if _backend() == "hip":
        _hip_unsupported()
    # distinct axes: crop or pad each, then transform them together
    fct, dt = 1.0, a.dtype
    x = a if a.dtype == cdt else a.astype(cdt)
    for n, axis in zip(reversed(s), reversed(ax)):
        fct *= _factor(norm, n, dt, forward)
        dt = x.dtype
        x = _fit(x, axis, n)
    groups = _groups(ax)
    r = _scale(_fused_c2c(x, groups, forward), fct)
    _ND_CALLS.keep(key, (groups, fct, cdt))
    if out is None:
        return r
    copyto(out, r)
    return out


def _rfftnd(name, a, s, axes, norm, out):
    a, s, axes, out = _nd_start(name, a, s, axes, out)
    if not axes:
        raise IndexError("list index out of range")  # NumPy reads s[-1]
    # a complex input fails in NumPy's first pass, before the others' checks
    ax = None if a.dtype.kind == "c" else _passes_valid(a, s, axes, norm,
                                                         reversed(range(len(axes))))
    if ax is None or out is not None or a.size == 0:
        a = rfft(a, s[-1], axes[-1], norm, out=out)
        for ii in range(len(axes) - 2, -1, -1):
            a = fft(a, s[ii], axes[ii], norm, out=out)
        return a
    if _backend() == "hip":
        _hip_unsupported()
    fct = _factor(norm, s[-1], a.dtype, True)
    x = _fit(a.astype(_real_of(a.dtype), copy=False), ax[-1], s[-1])
    for n, axis in zip(s[:-1], ax[:-1]):
        fct *= _factor(norm, n, _complex_of(a.dtype), True)
        x = _fit(x, axis, n)
    others = sorted(ax[:-1])
    # the real axis ends the first plan; the rest as complex plans
    first = others[len(others) - (_MAX_RANK - 1):] if len(others) >= _MAX_RANK else others
    rest = [v for v in others if v not in first]
    x = _engine(_R2C, x, first + [ax[-1]])
    if rest:
        x = _fused_c2c(x, _groups(rest), True)
    return _scale(x, fct)




def _irfftnd(name, a, s, axes, norm, out):
    a, s, axes, out = _nd_start(name, a, s, axes, out, invreal=1)
    if not axes:
        raise IndexError("list index out of range")  # NumPy reads s[-1]
    ax = _passes_valid(a, s, axes, norm, range(len(axes)))
    if ax is None or out is not None or a.size == 0 or len(axes) == 1:
        for ii in range(len(axes) - 1):
            a = ifft(a, s[ii], axes[ii], norm)
        return irfft(a, s[-1], axes[-1], norm, out=out)
    if _backend() == "hip":
        _hip_unsupported()
    cdt = _complex_of(a.dtype)
    fct, dt = 1.0, a.dtype
    x = a.astype(cdt, copy=False)
    for n, axis in zip(s[:-1], ax[:-1]):
        fct *= _factor(norm, n, dt, False)
        dt = cdt
        x = _fit(x, axis, n)
    x = _fused_c2c(x, _groups(ax[:-1]), False)
    last = ax[-1]
    fct *= _factor(norm, s[-1], cdt, False)
    x = _engine(_C2R, _fit(x, last, s[-1] // 2 + 1), [last], s[-1])
    return _scale(x, fct)




#: name: (the transform, its default axes, what it computes)
_MANY_AXES = {
    "fftn": (_fftnd, None, "The n-dimensional discrete Fourier transform"),
    "ifftn": (_fftnd, None, "The n-dimensional inverse discrete Fourier transform"),
    "fft2": (_fftnd, (-2, -1), "The two-dimensional discrete Fourier transform"),
    "ifft2": (_fftnd, (-2, -1), "The two-dimensional inverse discrete Fourier transform"),
    "rfftn": (_rfftnd, None, "The n-dimensional transform of real input"),
    "rfft2": (_rfftnd, (-2, -1), "The two-dimensional transform of real input"),
    "irfftn": (_irfftnd, None, "The inverse of rfftn"),
    "irfft2": (_irfftnd, (-2, -1), "The inverse of rfft2"),
}


def _many_axes(name):
    impl, default_axes, doc = _MANY_AXES[name]

    def transform(a, s=None, axes=default_axes, norm=None, out=None):
        _check_out(out)
        if _backend() == "host":
            return _on_host(name, a, (s, axes, norm), out)
        return impl(name, a, s, axes, norm, out)

    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = f"{doc} (numpy.fft.{name})."
    return transform


fftn, ifftn, fft2, ifft2, rfftn, rfft2, irfftn, irfft2 = (_many_axes(k) for k in _MANY_AXES)


__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "ifftn", "fft2", "ifft2",
           "rfftn", "rfft2", "irfftn", "irfft2"]
