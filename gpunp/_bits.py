"""packbits and unpackbits: bits become uint8 values by a weighted sum over
groups of eight along the axis (weights 128..1 for big-endian bit order,
1..128 for little), and come back by shifting each byte right by 7..0
(or 0..7) and masking; all on the device, the axis moved last and back."""

from __future__ import annotations

import numpy

import gpunp as gp
from gpunp import _lib
from gpunp._creation import _array
from gpunp._ndarray import ndarray
from gpunp._ufunc import UFUNCS

_U8 = numpy.dtype(numpy.uint8)


def _big(bitorder, whole_word: bool) -> bool:
    """Big-endian bit order? packbits reads the word 'big' or 'little' at the
    start of the string, unpackbits only its first letter (NumPy's rules)."""
    if not isinstance(bitorder, str):
        raise TypeError(f"bitorder must be str, not {type(bitorder).__name__}")
    words = ("little", "big") if whole_word else ("l", "b")
    if bitorder.startswith(words[0]):
        return False
    if bitorder.startswith(words[1]):
        return True
    raise ValueError("'order' must be either 'little' or 'big'")


def _along(a: ndarray, axis):
    """a with the working axis last (a 0-d or axis=None array raveled, as
    NumPy does), and that axis' index in the result."""
    if axis is None or a.ndim == 0:
        a = a.reshape(-1)
        axis = 0 if axis is None else axis
    axis = _lib.normalize_axis(axis, a.ndim, ValueError)
    return a.swapaxes(axis, -1), axis


def _shifts(big: bool) -> ndarray:
    """Each bit's position in its byte, in the order the bits are laid out."""
    return gp.arange(7, -1, -1, dtype=_U8) if big else gp.arange(8, dtype=_U8)


def packbits(a, /, axis=None, bitorder="big") -> ndarray:
    a = _array(a)
    big = _big(bitorder, True)
    if a.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    a, axis = _along(a, axis)
    n = a.shape[-1]
    groups = -(-n // 8)
    bits = (a != 0).astype(_U8)
    if groups * 8 != n:
        bits = gp.concatenate((bits, gp.zeros(a.shape[:-1] + (groups * 8 - n,), _U8)), axis=-1)
    bits = bits.reshape(a.shape[:-1] + (groups, 8))
    weights = UFUNCS["left_shift"](gp.ones(8, _U8), _shifts(big))
    packed = (bits * weights).sum(axis=-1, dtype=_U8)
    return packed.swapaxes(axis, -1)


def unpackbits(a, /, axis=None, count=None, bitorder="big") -> ndarray:
    a = _array(a)
    big = _big(bitorder, False)
    if a.dtype != _U8:
        raise TypeError("Expected an input array of unsigned byte data type")
    a, axis = _along(a, axis)
    n = a.shape[-1] * 8
    bits = UFUNCS["right_shift"](a[..., None], _shifts(big)) & numpy.uint8(1)
    bits = bits.reshape(a.shape[:-1] + (n,))
    if count is not None:
        if isinstance(count, (bool, numpy.bool_)):
            raise TypeError("an integer is required")
        count = _lib.index(count)
        if count < 0:
            if -count > n:
                raise ValueError("-count larger than number of elements")
            count += n
        if count > n:
            bits = gp.concatenate((bits, gp.zeros(a.shape[:-1] + (count - n,), _U8)), axis=-1)
        else:
            bits = bits[..., :count]
    return bits.swapaxes(axis, -1)
