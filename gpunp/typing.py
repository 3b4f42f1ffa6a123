"""Names for annotations, as ``numpy.typing``'s, so that an annotated
script runs with ``import gpunp as np``: ``NDArray[float32]`` is gpunp's
ndarray subscripted as NumPy's is; the others are NumPy's own (gpunp's
dtypes and scalar types are NumPy's)."""

from typing import Any, TypeVar

import numpy
from numpy.typing import ArrayLike, DTypeLike, NBitBase

from gpunp._ndarray import ndarray

__all__ = ["ArrayLike", "DTypeLike", "NBitBase", "NDArray"]

_ScalarT = TypeVar("_ScalarT", bound=numpy.generic)

NDArray = ndarray[tuple[Any, ...], numpy.dtype[_ScalarT]]
