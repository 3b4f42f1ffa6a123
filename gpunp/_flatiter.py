"""``ndarray.flat`` (numpy.flatiter): an array read and written as if it
were flattened in C order. Reads index the flattened array (a view where
the array is C-contiguous, else a copy); writes go to the positions the key
picks, on the device, with the values repeated cyclically to the number of
positions, as NumPy does."""

from __future__ import annotations

import math

import numpy

from gpunp._creation import arange, asarray
from gpunp._lib import _numpy_version
from gpunp._ndarray import _BAD_INDEX, _as_intp, ndarray

_TOO_MANY = "too many indices for flat iterator: flat iterator is 1-dimensional"
_NO_INDEX = "each index entry must be either a slice, an integer, Ellipsis, or newaxis"
_NO_BOOLS = ("boolean indices for iterators are not supported because of previous behavior "
             "that was confusing (valid boolean indices are expected to work in the future)")


class flatiter:
    """The flat iterator of an array (`a.flat`): ``len``, iteration in C
    order, ``flat[key]`` and ``flat[key] = values`` for an integer, a
    slice, ``...``, an integer array or a boolean mask of the flattened
    array, ``copy()`` and ``base``."""

    __slots__ = ("_base",)

    def __init__(self, base):
        self._base = base

    @property
    def base(self):
        """The array being iterated."""
        return self._base

    def __len__(self) -> int:
        return self._base.size

    def __iter__(self):
        return iter(self._base.ravel())

    def copy(self):
        """A flattened copy of the array."""
        return self._base.ravel().copy()

    @staticmethod
    def _key(key, size: int, setting: bool = False):
        """The key of the flattened array (of `size` elements) that NumPy's
        flat iterator reads `key` as, for a read or (`setting`) a write. A
        bool mask must be a 1-d array; a bool alone (which NumPy 2.4 refuses
        as np.bool_ and deprecates as a Python bool) and a list of bools
        (which NumPy 2.4 refuses) are refused. Where NumPy 2.4's rewritten
        flat iterator raises IndexError for a mask of more dimensions or
        elements and OverflowError for an integer past int64, an older NumPy
        raises ValueError and IndexError, and so does gpunp under it."""
        old = _numpy_version() < 20400
        if isinstance(key, tuple):
            if len(key) > 1:
                raise IndexError(f"{_TOO_MANY}, but {len(key)} were indexed")
            key = key[0] if key else Ellipsis
        if key is None:
            raise IndexError(_BAD_INDEX)
        if isinstance(key, (ndarray, numpy.ndarray)) and key.dtype == numpy.bool_:
            if key.ndim > 1:
                if old:
                    raise ValueError("boolean index array should have 1 dimension")
                raise IndexError(f"{_TOO_MANY}, but {key.ndim} were indexed")
            if key.ndim == 0:
                raise IndexError(_NO_BOOLS)
            if old and key.shape[0] > size:
                raise ValueError("boolean index array has too many values" if setting
                                 else "too many boolean indices")
        if isinstance(key, (bool, numpy.bool_)) or (type(key) is list and key and all(
                isinstance(k, (bool, numpy.bool_)) for k in key)):
            raise IndexError(_NO_BOOLS)
        if isinstance(key, (int, numpy.integer)):
            try:
                _as_intp(key)  # NumPy's flat reads an integer key as an intp
            except OverflowError:
                if not old:
                    raise
                # before 2.4 NumPy's flat took one past int64 for no index at all
                raise IndexError("unsupported iterator index" if setting else _NO_INDEX) from None
        return key

    def __getitem__(self, key):
        if type(key) is tuple and not key and _numpy_version() < 20400:
            return self._base  # NumPy before 2.4 answers flat[()] with the array itself
        key = self._key(key, self._base.size)
        _raise_bad_index(self, key)  # before the gather, whose error a GPU defers
        return self._base.ravel()[key]

    def __setitem__(self, key, value) -> None:
        a = self._base
        if type(key) is tuple and not key:
            raise IndexError("Assigning to a flat iterator with a 0-D index is not supported")
        key = self._key(key, a.size, setting=True)
        single = isinstance(key, (int, numpy.integer)) and not isinstance(key, bool)
        # the positions the key names (what they hold does not matter: the
        # write below checks the key itself, so on a GPU a bad index is
        # skipped and reported at the next synchronisation, as for a[idx] = v)
        # NumPy's error, after what precedes the bad index is written
        _raise_bad_index(self, key, value, writing=True)
        shape = arange(a.size)[key].shape
        n = math.prod(shape)
        v = asarray(value)
        # one element takes a scalar; NumPy converts an array there as a
        # Python scalar, which only a bool's truth value does for a 1-element one
        if single and v.ndim and not (a.dtype == numpy.bool_ and v.size == 1):
            raise ValueError("Error setting single item of array.")
        v = v.reshape(-1)
        if n == 0 or v.size == 0:
            return
        if v.size != n:
            v = v[arange(n) % v.size]
        v = v.reshape(shape)
        if a.flags.c_contiguous:
            a.reshape(-1)[key] = v
        else:
            flat = a.ravel()  # a copy
            flat[key] = v
            a[...] = flat.reshape(a.shape)


def _first_bad(key, size: int):
    """(position, index) of the first out-of-bounds integer of a flat key
    (in C order of an index array), or None."""
    if isinstance(key, (int, numpy.integer)):
        return None if -size <= key < size else (0, int(key))
    if not isinstance(key, (list, numpy.ndarray, ndarray)):
        return None  # a slice, `...`: never out of bounds
    try:
        idx = asarray(key)
    except (TypeError, ValueError):
        return None
    if idx.dtype.kind not in "iu":
        return None
    idx = idx.reshape(-1)
    bad = (idx >= size) | (idx < -size)
    if not bad.any():
        return None
    k = int(bad.argmax())
    return k, int(idx[k])


def _raise_bad_index(it: flatiter, key, value=None, writing=False) -> None:
    """NumPy's flat iterator says "index 9 is out of bounds for size 4";
    its assignment writes its positions in order and stops at the first
    out-of-bounds one, so what comes before it is written first. Checked
    before the flat iterator's gather or scatter, on every backend (a GPU's
    gather would report its own error later): one reduction over an index
    array, nothing for an integer. Returns where the key holds no
    out-of-bounds integer."""
    size = it._base.size
    bad = _first_bad(key, size)
    if bad is None:
        return
    k, i = bad
    if writing and k:
        v = asarray(value).reshape(-1)
        if v.size:
            it[asarray(key).reshape(-1)[:k]] = v[arange(k) % v.size]
    raise IndexError(f"index {i} is out of bounds for size {size}") from None


# ndarray.flat (a row of gpunp._ndarray.METHODS)
def _flat_iterator(self):
    """A flat iterator over the array (numpy.ndarray.flat)."""
    return flatiter(self)


def _set_flat(self, value) -> None:
    flatiter(self)[...] = value


_flat = property(_flat_iterator, _set_flat)
