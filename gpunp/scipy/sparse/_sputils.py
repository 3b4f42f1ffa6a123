"""Small helpers shared by the sparse formats: index dtypes as SciPy picks
them, dtype checks, shapes, and what counts as a scalar or a dense operand."""

import operator

import numpy

import gpunp

INT32_MAX = numpy.iinfo(numpy.int32).max

# the dtypes scipy.sparse accepts (float16 and the rest are refused, as SciPy does)
_SUPPORTED = tuple(numpy.dtype(t) for t in (
    numpy.bool_, numpy.int8, numpy.uint8, numpy.int16, numpy.uint16, numpy.int32, numpy.uint32,
    numpy.int64, numpy.uint64, numpy.float32, numpy.float64, numpy.complex64, numpy.complex128))


class SparseWarning(Warning):
    pass


class SparseEfficiencyWarning(SparseWarning):
    pass


def getdtype(dtype, default=None):
    """A dtype scipy.sparse supports, or SciPy's ValueError."""
    if dtype is None:
        if default is None:
            raise TypeError("could not interpret data type")
        dtype = default
    dt = numpy.dtype(dtype)
    if dt == numpy.dtype(object):
        raise ValueError("object dtype is not supported by sparse matrices")
    if dt not in _SUPPORTED:
        names = ", ".join(t.name for t in _SUPPORTED)
        raise ValueError(f"scipy.sparse does not support dtype {dt.name}. "
                         f"The only supported types are: {names}.")
    return dt


def get_index_dtype(arrays=(), maxval=None, check_contents=False):
    """int32 where `maxval` and the index arrays fit it, else int64 (SciPy's
    rule; `check_contents` looks at the values of wider integer arrays)."""
    dtype = numpy.dtype(numpy.int32)
    if maxval is not None and int(maxval) > INT32_MAX:
        return numpy.dtype(numpy.int64)
    if isinstance(arrays, (gpunp.ndarray, numpy.ndarray)):
        arrays = (arrays,)
    for arr in arrays:
        dt = numpy.dtype(arr.dtype)
        if numpy.can_cast(dt, numpy.int32):
            continue
        if check_contents and numpy.issubdtype(dt, numpy.integer):
            if arr.size == 0:
                continue
            if int(arr.min()) >= -INT32_MAX - 1 and int(arr.max()) <= INT32_MAX:
                continue
        return numpy.dtype(numpy.int64)
    return dtype


def upcast(*dtypes):
    """The result dtype of a sparse operation on these data dtypes."""
    return getdtype(numpy.result_type(*dtypes))


def isscalarlike(x) -> bool:
    """A Python or NumPy scalar, or a 0-d array."""
    if isinstance(x, (gpunp.ndarray, numpy.ndarray)):
        return x.ndim == 0
    return numpy.isscalar(x)


def isintlike(x) -> bool:
    try:
        operator.index(x)
    except (TypeError, ValueError):
        return False
    return True


def isshape(x, nonneg=False, allow_nd=(2,)) -> bool:
    """Whether `x` is a tuple of ints that makes a shape of one of `allow_nd` lengths."""
    if not isinstance(x, tuple) or len(x) not in allow_nd:
        return False
    if not all(isintlike(d) and not isinstance(d, (bool, numpy.bool_)) for d in x):
        return False
    return not nonneg or all(operator.index(d) >= 0 for d in x)


def check_shape(shape, allow_nd=(2,)) -> tuple:
    """A validated shape tuple, with SciPy's errors."""
    if isintlike(shape):
        shape = (shape,)
    try:
        shape = tuple(operator.index(d) for d in shape)
    except TypeError:
        raise TypeError("shape must be a tuple of integers") from None
    if len(shape) not in allow_nd:
        if allow_nd == (2,):
            raise ValueError("shape must be a 2-tuple")
        raise ValueError(f"shape must have length in {allow_nd}. Got shape={shape}")
    if any(d < 0 for d in shape):
        raise ValueError("'shape' elements cannot be negative")
    return shape


def as_device(x, dtype=None):
    """`x` (gpunp or NumPy array, list, scalar) as a gpunp array on the device."""
    if isinstance(x, gpunp.ndarray):
        return x if dtype is None or x.dtype == dtype else x.astype(dtype)
    return gpunp.asarray(numpy.asarray(x, dtype=dtype))


def is_dense(x) -> bool:
    return isinstance(x, (gpunp.ndarray, numpy.ndarray))


def validate_axis(axis, ndim):
    """None, or `axis` as a non-negative int below ndim (NumPy's AxisError)."""
    if axis is None:
        return None
    if isinstance(axis, tuple):
        if len(axis) == 1:
            axis = axis[0]
        else:
            norm = [validate_axis(a, ndim) for a in axis]
            if len(set(norm)) != len(norm):
                raise ValueError("duplicate value in 'axis'")
            return None if len(norm) == ndim else ()
    if not isintlike(axis) or isinstance(axis, (bool, numpy.bool_)):
        raise TypeError(f"axis must be an integer, not {type(axis).__name__}")
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise numpy.exceptions.AxisError(f"axis {axis} is out of bounds for array of dimension "
                                         f"{ndim}")
    return axis % ndim
