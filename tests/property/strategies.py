"""Hypothesis strategies shared by the property tests: dtypes, shapes, values
with the special cases that break kernels (NaN, +-inf, -0.0, integer
extremes), and device arrays in every memory layout (C, F, transposed,
strided, negative strides, 0-d, zero-size) paired with the NumPy array that
holds the same values."""

from __future__ import annotations

import functools

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import gpunp as gp

ALL_DTYPES = [np.dtype(n) for n in (
    "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
    "float16", "float32", "float64", "complex64", "complex128")]
INT_DTYPES = [d for d in ALL_DTYPES if d.kind in "iu"]
FLOAT_DTYPES = [d for d in ALL_DTYPES if d.kind == "f"]
COMPLEX_DTYPES = [d for d in ALL_DTYPES if d.kind == "c"]
INEXACT_DTYPES = FLOAT_DTYPES + COMPLEX_DTYPES


def dtypes(kinds: str = "biufc"):
    return st.sampled_from([d for d in ALL_DTYPES if d.kind in kinds])


def shapes(min_dims=0, max_dims=4, min_side=0, max_side=5):
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side,
                            max_side=max_side)


def _special_floats(dt):
    fi = np.finfo(dt)
    return [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, float(fi.max), float(fi.min),
            float(fi.tiny), float(fi.eps), 0.5, 2.0]


# Strategies are built once for each set of arguments and shared: Hypothesis
# validates a new strategy object and works out its properties on its first
# draw, which was a fifth of a property test's time where every draw of an
# array built its strategies anew.
@functools.lru_cache(maxsize=None)
def elements(dt: np.dtype, specials: bool = True, finite: bool = False):
    """Element values of `dt`: any value, with its special cases drawn often."""
    dt = np.dtype(dt)
    if dt.kind == "b":
        return st.booleans()
    if dt.kind in "iu":
        info = np.iinfo(dt)
        base = st.integers(int(info.min), int(info.max))
        edges = st.sampled_from([int(info.min), int(info.max), 0, 1, -1 if dt.kind == "i" else 2])
        return st.one_of(edges, base) if specials else base
    if dt.kind == "f":
        width = dt.itemsize * 8
        base = st.floats(width=width, allow_nan=not finite, allow_infinity=not finite,
                         allow_subnormal=True)
        if specials and not finite:
            return st.one_of(st.sampled_from(_special_floats(dt)), base)
        return base
    # complex: parts from the float of the same precision
    part = elements(np.dtype("f4" if dt == np.complex64 else "f8"), specials, finite)
    return st.builds(complex, part, part)


def bounded_values(dt, bound=100.0, specials=()):
    """Elements of `dt` within [-bound, bound] (integers too; unsigned from
    0), with the float `specials` drawn often: values whose sums and
    products cannot overflow in one order of operations and not another.
    None for bool (any value is bounded)."""
    dt = np.dtype(dt)
    if dt.kind == "b":
        return None
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return st.integers(max(int(info.min), -int(bound)), min(int(info.max), int(bound)))
    part = np.dtype("f2" if dt == np.float16 else "f4" if dt in (np.float32, np.complex64)
                    else "f8")
    b = float(part.type(bound))
    f = st.floats(-b, b, width=8 * part.itemsize)
    if specials:
        f = st.one_of(st.sampled_from(list(specials)), f)
    return st.builds(complex, f, f) if dt.kind == "c" else f


def numpy_arrays(dt, shape, specials=True, finite=False, values=None):
    """NumPy arrays of `dt` and `shape`: elements from `values` if given."""
    return _numpy_arrays(np.dtype(dt), tuple(shape) if not isinstance(shape, int) else shape,
                         specials, finite, values)


@functools.lru_cache(maxsize=4096)
def _numpy_arrays(dt, shape, specials, finite, values):
    return hnp.arrays(dt, shape,
                      elements=values if values is not None else elements(dt, specials, finite))


_LAYOUT = st.integers(0, 3)
_ORDER = st.sampled_from("CF")
_STEP = st.sampled_from([1, 2, -1, -2])
_PAD = st.integers(0, 1)


@st.composite
def device_arrays(draw, dt, shape, specials=True, finite=False, layouts=True, values=None):
    """A pair (gpunp array, NumPy array) holding the same values of `shape`
    (elements from the strategy `values` if given),
    the gpunp one laid out in memory as drawn: contiguous, Fortran-ordered,
    transposed, strided, reversed, or a mix, always through gpunp's own views.
    The NumPy array is built by the same steps, so it is the reference."""
    dt = np.dtype(dt)
    shape = tuple(shape)
    nd = len(shape)
    if not layouts or draw(_LAYOUT) == 0:
        host = draw(numpy_arrays(dt, shape, specials, finite, values))
        order = draw(_ORDER)
        host = np.asarray(host, order=order)
        return gp.asarray(host), host
    # a larger base array, viewed with steps (possibly negative) and a
    # permutation of the axes
    perm = draw(st.permutations(range(nd))) if nd > 1 else list(range(nd))
    steps = [draw(_STEP) for _ in range(nd)]
    base_shape = [0] * nd
    for k in range(nd):
        target = shape[perm[k]]
        base_shape[k] = max(target * abs(steps[k]) + draw(_PAD), 0)
    base = draw(numpy_arrays(dt, tuple(base_shape), specials, finite, values))
    index = tuple(slice(None, shape[perm[k]] * abs(steps[k]), steps[k]) if steps[k] > 0
                  else slice(None, None, steps[k]) for k in range(nd))
    gbase = gp.asarray(np.asarray(base, order=draw(_ORDER)))
    hview = base[index]
    gview = gbase[index]
    # trim the reversed axes to the target length
    # (the Ellipsis keeps a 0-d result a view, not a NumPy scalar)
    trim = tuple(slice(0, shape[perm[k]]) for k in range(nd)) + (Ellipsis,)
    hview, gview = hview[trim], gview[trim]
    inverse = np.argsort(perm) if nd > 1 else None
    if nd > 1:
        hview = hview.transpose(inverse)
        gview = gview.transpose(tuple(int(i) for i in inverse))
    assert hview.shape == shape, (hview.shape, shape)
    return gview, hview


def assert_same(got, want, *, rtol=None, atol=0.0, check_dtype=True, equal_nan=True):
    """Compares a gpunp result with NumPy's: dtype, shape, and values (exact for
    exact dtypes, within `rtol` for inexact ones; NaN equals NaN)."""
    g = got.get() if isinstance(got, gp.ndarray) else np.asarray(got)
    w = np.asarray(want)
    if check_dtype:
        assert g.dtype == w.dtype, f"dtype {g.dtype} != NumPy's {w.dtype}"
    assert g.shape == w.shape, f"shape {g.shape} != NumPy's {w.shape}"
    if rtol is None or w.dtype.kind not in "fc":
        np.testing.assert_array_equal(g, w, strict=False)
    else:
        # equal elements need no tolerance; assert_allclose would call two equal
        # complex infinities (-inf-infj) a NaN mismatch
        differ = ~(g == w)
        np.testing.assert_allclose(g[differ], w[differ], rtol=rtol, atol=atol,
                                   equal_nan=equal_nan)


def tolerance(dt) -> float:
    """A relative tolerance for results computed in `dt` by different but
    correct implementations (libm vs NumPy's SIMD loops vs CUDA's math)."""
    dt = np.dtype(dt)
    return {2: 2e-3, 4: 2e-5, 8: 1e-12, 16: 1e-12}.get(
        dt.itemsize if dt.kind != "c" else dt.itemsize // 2, 1e-12)


def broadcastable_shapes(num_shapes: int, max_dims=4, max_side=5):
    """`num_shapes` shapes that broadcast together (size-1 and missing axes
    included), as a BroadcastableShapes(input_shapes, result_shape)."""
    return hnp.mutually_broadcastable_shapes(num_shapes=num_shapes, min_dims=0,
                                             max_dims=max_dims, min_side=0, max_side=max_side)


# Python ints at the edges of every integer dtype and past int64/uint64 and
# float64, where NEP 50's weak-scalar rules raise or compare exactly.
_INT_EDGES = sorted({v for d in INT_DTYPES for v in (
    int(np.iinfo(d).min) - 1, int(np.iinfo(d).min), int(np.iinfo(d).max),
    int(np.iinfo(d).max) + 1)} | {0, 1, -1, 2, 2**100, -2**100, 2**1100})


def python_scalars(kinds: str = "bifc"):
    """Python bool, int, float and complex values (weak scalars under NEP 50),
    with their special cases drawn often."""
    options = []
    if "b" in kinds:
        options.append(st.booleans())
    if "i" in kinds:
        options.append(st.one_of(st.sampled_from(_INT_EDGES), st.integers(-300, 300),
                                 st.integers(-2**64, 2**64)))
    if "f" in kinds:
        options.append(elements(np.float64))
    if "c" in kinds:
        options.append(elements(np.complex128))
    return st.one_of(*options)
