"""Property tests of gpunp.random's array parameters against NumPy's
Generator: for drawn broadcastable shapes (0-d, zero-size, size-1 axes),
layouts (strided, reversed, Fortran-ordered) and dtypes of the parameters,
and drawn sizes, a distribution's result has NumPy's shape and dtype, or
raises NumPy's exception; and element i depends on its parameters alone
(the values equal those of the same distribution with the parameters
broadcast first), so a layout never changes the stream."""

from __future__ import annotations

import numpy as np
from hypothesis import given, strategies as st

import gpunp as gp

from .strategies import broadcastable_shapes, device_arrays

# (method, the range of each parameter's values: valid for NumPy, but for uniform's)
METHODS = [
    ("gamma", [(0.05, 20.0), (0.1, 5.0)]),
    ("beta", [(0.05, 5.0), (0.05, 5.0)]),
    ("noncentral_f", [(0.5, 10.0), (0.5, 10.0), (0.0, 5.0)]),
    ("wald", [(0.1, 5.0), (0.1, 5.0)]),
    ("vonmises", [(-3.0, 3.0), (0.0, 50.0)]),
    ("poisson", [(0.0, 3000.0)]),
    ("binomial", [(0, 500), (0.0, 1.0)]),
    ("negative_binomial", [(0.5, 50.0), (0.05, 1.0)]),
    ("hypergeometric", [(0, 40), (0, 40), (0, 0)]),  # nsample drawn below ngood + nbad
    ("zipf", [(1.1, 5.0)]),
    ("uniform", [(-5.0, 5.0), (-5.0, 5.0)]),  # high below low raises NumPy's ValueError
]


def _values(data, lo, hi, shape, integer):
    if integer:
        return np.asarray(data.draw(st.lists(st.integers(lo, hi), min_size=int(np.prod(shape)),
                                             max_size=int(np.prod(shape)))),
                          dtype=np.int64).reshape(shape)
    return np.asarray(data.draw(st.lists(st.floats(lo, hi), min_size=int(np.prod(shape)),
                                         max_size=int(np.prod(shape)))),
                      dtype=np.float64).reshape(shape)


@given(data=st.data())
def test_array_parameters_match_numpy(data):
    name, ranges = data.draw(st.sampled_from(METHODS), label="method")
    shapes = data.draw(broadcastable_shapes(len(ranges), max_dims=3, max_side=4), label="shapes")
    host = []
    for (lo, hi), shape in zip(ranges, shapes.input_shapes):
        integer = isinstance(lo, int)
        host.append(_values(data, lo, hi, shape, integer))
    if name == "hypergeometric":
        total = np.broadcast_arrays(host[0] + host[1], host[2])[0]
        host[2] = np.zeros(shapes.input_shapes[2], dtype=np.int64)  # nsample 0: always valid
        host[2] = np.minimum(host[2] + data.draw(st.integers(0, 5), label="nsample"),
                             total.min(initial=5))
    args = []
    for h in host:
        as_scalar = h.ndim == 0 and data.draw(st.booleans(), label="as a scalar")
        if as_scalar:
            args.append(h.item())
        else:
            g, hh = data.draw(device_arrays(h.dtype, h.shape, specials=False), label="layout")
            g[...] = gp.asarray(h)
            args.append(g)
    size = data.draw(st.sampled_from([None, "shape", "bigger", "wrong"]), label="size")
    kw = {}
    if size == "shape":
        kw["size"] = shapes.result_shape
    elif size == "bigger":
        kw["size"] = (2,) + shapes.result_shape
    elif size == "wrong":
        kw["size"] = (7,) * (len(shapes.result_shape) + 1)
    try:
        want = getattr(np.random.default_rng(0), name)(*host, **kw)
    except Exception as e:
        try:
            getattr(gp.random.default_rng(1), name)(*args, **kw)
        except type(e):
            return
        raise AssertionError(f"NumPy raised {type(e).__name__}: {e}; gpunp did not")
    got = getattr(gp.random.default_rng(1), name)(*args, **kw)
    want = np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype
    # the stream: the parameters broadcast first give the same values
    shape = got.shape
    flat = [np.broadcast_to(h, shape).copy() for h in host]
    again = getattr(gp.random.default_rng(1), name)(*flat)
    np.testing.assert_array_equal(got.get(), again.get().reshape(shape))
