"""``gpunp.testing``: NumPy's assertions, accepting gpunp arrays (compared on
the host after an explicit copy)."""

from __future__ import annotations

import numpy.testing as _nt

from gpunp._ndarray import ndarray


def _host(x):
    return x.get() if isinstance(x, ndarray) else x


def _wrap(fn):
    def check(actual, desired, *args, **kwargs):
        return fn(_host(actual), _host(desired), *args, **kwargs)
    check.__name__ = fn.__name__
    check.__doc__ = fn.__doc__
    return check


assert_array_equal = _wrap(_nt.assert_array_equal)
assert_array_almost_equal = _wrap(_nt.assert_array_almost_equal)
assert_allclose = _wrap(_nt.assert_allclose)
assert_equal = _wrap(_nt.assert_equal)
assert_array_less = _wrap(_nt.assert_array_less)
assert_array_max_ulp = _wrap(_nt.assert_array_max_ulp)
