"""An integer index, length or count past int64 (2**63, 2**64 - 1, 2**64,
-2**63 - 1, 2**100...), a bool, or no integer at all, raises the error the
running NumPy raises for the same call (or gives its result), and never
wraps into a valid one. NumPy reads such an argument as
an intp: an index overflows its C long (OverflowError), a length is beyond
the "Maximum allowed dimension" (ValueError), and a basic index refuses an
int that does not even fit uint64 ("only integers, slices...", IndexError).
Axes have their own file (test_huge_axis.py).

Left out, where NumPy wraps the integer instead of refusing it:
- arange and linspace of a length past int64 that fits uint64: NumPy's
  arange makes an empty array (linspace then fails writing its last sample,
  IndexError); gpunp refuses the length as NumPy does past uint64;
- tile by np.uint64(2**63): NumPy's repeat casts the count to intp, a
  negative one (ValueError); gpunp overflows as for the Python int.
And the values that are no int for flat[...] and tile: NumPy's flat reads a
float or a string key with int() (flat[2.5] is flat[2]) and tile multiplies
by its counts (np.True_ counts 1); gpunp refuses them."""

from __future__ import annotations

import numpy as np
import pytest

import gpunp as gp

from .outcome import host, same_outcome

HUGE = [2**63, 2**64 - 1, 2**64, -2**63 - 1, 2**100, -2**100, np.uint64(2**63)]
# and what is no int to NumPy's intp converter, or a bool, which it refuses
VALUES = HUGE + [True, np.True_, 2.5, None, "2", np.int8(2)]


def _ids(v):
    return repr(v)


def _set(a, key, value):
    a[key] = value
    return a


def _set_shape(a, shape):
    a.shape = shape
    return a


def _set_flat(a, key):
    a.flat[key] = 1
    return a


def _put(xp, n):
    a = xp.arange(3.0)
    xp.put(a, n, 9.0)
    return a


# (name, call(xp, n)): `xp` is numpy or gpunp, `n` one of HUGE
CALLS = {
    "getitem": lambda xp, n: xp.arange(6.0).reshape(2, 3)[n],
    "getitem_tuple": lambda xp, n: xp.arange(6.0).reshape(2, 3)[0, n],
    "getitem_two_ellipses": lambda xp, n: xp.arange(6.0).reshape(2, 3)[..., ..., n],
    "getitem_zero_step": lambda xp, n: xp.arange(6.0).reshape(2, 3)[::0, n],
    "getitem_with_array": lambda xp, n: xp.arange(6.0).reshape(2, 3)[[0], n],
    "getitem_0d_uint64": lambda xp, n: xp.arange(3.0)[xp.asarray(np.uint64(n))]
    if 0 <= n < 2**64 else xp.arange(3.0)[n],
    "setitem": lambda xp, n: _set(xp.arange(3.0), n, 1.0),
    "setitem_tuple": lambda xp, n: _set(xp.arange(6.0).reshape(2, 3), (n, 0), 1.0),
    "item": lambda xp, n: xp.arange(3.0).item(n),
    "item_tuple": lambda xp, n: xp.arange(6.0).reshape(2, 3).item(0, n),
    "flat": lambda xp, n: xp.arange(3.0).flat[n],
    "flat_set": lambda xp, n: _set_flat(xp.arange(3.0), n),
    "take": lambda xp, n: xp.take(xp.arange(3.0), n),
    "take_list": lambda xp, n: xp.take(xp.arange(3.0), [0, n]),
    "put": _put,
    "zeros": lambda xp, n: xp.zeros(n),
    "empty_tuple": lambda xp, n: xp.empty((n, 0)),
    "ones_tuple": lambda xp, n: xp.ones((0, n)),
    "full": lambda xp, n: xp.full((n,), 1.0),
    "reshape": lambda xp, n: xp.arange(6.0).reshape(n),
    "reshape_tuple": lambda xp, n: xp.arange(0.0).reshape((n, -1)),
    "shape_set": lambda xp, n: _set_shape(xp.arange(0.0), (n, 2)),
    "broadcast_to": lambda xp, n: xp.broadcast_to(xp.arange(1.0), (n,)),
    "tile": lambda xp, n: xp.tile(xp.arange(3.0), n),
    "tile_tuple": lambda xp, n: xp.tile(xp.arange(3.0), (2, n)),
    "linspace": lambda xp, n: xp.linspace(0, 1, n),
    "arange": lambda xp, n: xp.arange(0, n) if n > 0 else xp.arange(0, n, -1),
    "bincount_minlength": lambda xp, n: xp.bincount(xp.arange(3), minlength=n),
}



def _numpy_wraps(name, value) -> bool:
    """The module docstring's cases left out."""
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
        return name.startswith(("flat", "tile"))
    if name == "arange":  # a negative length wraps too
        return -2**64 <= value < 2**64
    if name == "linspace":
        return 2**63 <= value < 2**64
    return name.startswith("tile") and isinstance(value, np.uint64)


@pytest.mark.parametrize("name, value", [
    pytest.param(name, v, id=f"{name}-{_ids(v)}")
    for name in CALLS for v in VALUES if not _numpy_wraps(name, v)])
def test_int_argument_as_numpy(name, value):
    call = CALLS[name]
    got, want = same_outcome(lambda: call(np, value), lambda: call(gp, value))
    if want is not None:
        np.testing.assert_array_equal(host(got), want, strict=True)
