"""scipy.fft's helpers that are not transforms: fast lengths, workers, and
the plan object cupyx.scipy.fft offers.

``workers`` has no meaning on a GPU (the device runs the transform), so it
is checked as SciPy checks it and otherwise ignored. gpunp.fft caches cuFFT
plans itself (gpunp.fft.config), so a plan from :func:`get_fft_plan` only
describes a transform: used as ``plan=`` or as a context manager it is
checked against the array it meets, and the cache does the planning."""

from __future__ import annotations

import contextlib
import operator
import os
import threading

import numpy

import gpunp
from gpunp.scipy._host import as_device  # noqa: F401  (for this subpackage's modules)


# the prime factors pocketfft transforms fastest: complex lengths may also
# hold 7 and 11, real ones only 2, 3 and 5 (SciPy's rule)
_COMPLEX_PRIMES = (2, 3, 5, 7, 11)
_REAL_PRIMES = (2, 3, 5)


def _smooth(n: int, primes) -> bool:
    for p in primes:
        while n % p == 0:
            n //= p
    return n == 1


def _target(target) -> int:
    try:
        n = operator.index(target)
    except TypeError:
        raise TypeError(f"'{type(target).__name__}' object cannot be interpreted as an "
                        "integer") from None
    if n < 0:
        raise ValueError("Target cannot be negative")
    return n


def next_fast_len(target, real=False):
    """The smallest length >= target whose prime factors make a fast
    transform (scipy.fft.next_fast_len)."""
    n = _target(target)
    if n == 0:
        return 0
    primes = _REAL_PRIMES if real else _COMPLEX_PRIMES
    while not _smooth(n, primes):
        n += 1
    return n


def prev_fast_len(target, real=False):
    """The largest length <= target whose prime factors make a fast
    transform (scipy.fft.prev_fast_len)."""
    n = _target(target)
    if n == 0:
        return 0
    primes = _REAL_PRIMES if real else _COMPLEX_PRIMES
    while not _smooth(n, primes):
        n -= 1
    return n


# ---- workers ------------------------------------------------------------------------------

_local = threading.local()


def _workers_value(workers) -> int:
    w = operator.index(workers)
    if w == 0:
        raise ValueError("workers must not be zero")
    if w < 0:
        w += (os.cpu_count() or 1) + 1
        if w <= 0:
            raise ValueError(f"workers value out of range; got {workers}, must not be less "
                             f"than {-(os.cpu_count() or 1)}")
    return w


def check_workers(workers) -> None:
    if workers is not None:
        _workers_value(workers)


def get_workers():
    """The workers value of the enclosing set_workers block (1 outside)."""
    return getattr(_local, "workers", 1)


@contextlib.contextmanager
def set_workers(workers):
    """SciPy's context manager; gpunp's transforms run on the device, so
    the value is only recorded (get_workers reads it)."""
    old = get_workers()
    _local.workers = _workers_value(workers)
    try:
        yield
    finally:
        _local.workers = old


# ---- plans ---------------------------------------------------------------------------------

_VALUE_TYPES = ("C2C", "R2C", "C2R")


class Plan:
    """A transform's description (shape, axes, value type), as
    cupyx.scipy.fft.get_fft_plan returns; gpunp.fft's cache holds the cuFFT
    plan itself."""

    __slots__ = ("shape", "axes", "value_type")

    def __init__(self, shape, axes, value_type):
        self.shape, self.axes, self.value_type = shape, axes, value_type

    def __enter__(self):
        stack = getattr(_local, "plans", None)
        if stack is None:
            stack = _local.plans = []
        stack.append(self)
        return self

    def __exit__(self, *exc):
        _local.plans.pop()
        return False

    def __repr__(self):
        return f"Plan(shape={self.shape}, axes={self.axes}, value_type={self.value_type!r})"


def get_fft_plan(a, shape=None, axes=None, value_type="C2C"):
    """A plan for transforming `a` over `axes` (all when None) with input
    `shape` (a's when None), as cupyx.scipy.fft.get_fft_plan."""
    a = as_device(a)
    if value_type not in _VALUE_TYPES:
        raise ValueError(f"value_type must be one of {_VALUE_TYPES}, not {value_type!r}")
    if value_type == "R2C" and a.dtype.kind == "c":
        raise ValueError("Input array a must be real for an R2C plan")
    if value_type != "R2C" and a.dtype.kind != "c":
        raise ValueError(f"Input array a must be complex for a {value_type} plan")
    if axes is None:
        axes = tuple(range(a.ndim))
    elif numpy.ndim(axes) == 0:
        axes = (int(axes),)
    axes = tuple(int(x) % max(a.ndim, 1) for x in axes)
    if len(set(axes)) != len(axes):
        raise ValueError("all axes must be unique")
    shape = a.shape if shape is None else tuple(numpy.atleast_1d(shape).tolist())
    return Plan(tuple(shape), axes, value_type)


def check_plan(plan, x, axes) -> None:
    """A plan given (plan= or the innermost plan block) must be for x's
    shape: cupyx raises ValueError for a plan of another transform."""
    if plan is None:
        stack = getattr(_local, "plans", None)
        plan = stack[-1] if stack else None
    if plan is None:
        return
    if not isinstance(plan, Plan):
        raise TypeError(f"plan must come from get_fft_plan, not {type(plan).__name__}")
    if plan.shape != tuple(x.shape) and not (plan.value_type == "C2R"):
        raise ValueError(f"the plan is for shape {plan.shape}, the array's is {x.shape}")
