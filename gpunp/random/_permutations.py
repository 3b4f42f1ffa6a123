"""NumPy's Generator permutations and sampling: permutation, shuffle,
permuted, choice — on the device, by sorting random keys.

A random permutation of n is the stable argsort of n random 64-bit words
(a uniform permutation but for ties of two words, which have probability
below n^2 / 2^65 and are then in index order), so the data never leaves
the device and the result is the same on every backend (the sort is
deterministic). Weighted sampling without replacement sorts exponential
keys e_i / p_i (Efraimidis and Spirakis): the k smallest are a sample
drawn one by one in proportion to the remaining weights, as NumPy's
`choice(replace=False, p=...)` draws. Weighted sampling with replacement
inverts the cumulative sum of p, which is computed on the host with NumPy
(p is a parameter of n numbers, like a covariance), so that every backend
searches the same table.
"""

from __future__ import annotations

import operator

import numpy

import gpunp
from gpunp._lib import normalize_axis
from gpunp._ndarray import ndarray
from gpunp.random._common import _shape


def _perm_keys(bg, shape):
    """Random uint64 keys of `shape` (two words of a counter block each)."""
    return bg.random_raw(shape)


class Permutations:
    """permutation, shuffle, permuted and choice (mixed into Generator)."""

    def _permutation_index(self, n: int) -> ndarray:
        return gpunp.argsort(_perm_keys(self._bit_generator, (n,)), kind="stable")

    def permutation(self, x, axis=0) -> ndarray:
        """A permuted arange(x) for an integer x, else a permuted copy of
        the array x along `axis`."""
        if isinstance(x, (int, numpy.integer)):  # True too, and arange(-1) is empty
            return self._permutation_index(max(operator.index(x), 0))
        a = gpunp.asarray(x)
        ax = normalize_axis(axis, a.ndim)  # NumPy's AxisError for a 0-d x too
        return gpunp.take(a, self._permutation_index(a.shape[ax]), axis=ax)

    def shuffle(self, x, axis=0) -> None:
        """Permutes the gpunp array x in place along `axis`."""
        if not isinstance(x, ndarray):
            raise TypeError("gpunp.random shuffle: x must be a gpunp.ndarray (shuffling a "
                            f"{type(x).__name__} in place would copy it to the device and back)")
        if x.ndim == 0:
            raise TypeError("shuffle: x must be at least 1-dimensional")
        if not x.flags.writeable:
            raise ValueError("array is read-only")
        ax = normalize_axis(axis, x.ndim)
        x[...] = gpunp.take(x, self._permutation_index(x.shape[ax]), axis=ax)

    def permuted(self, x, axis=None, out=None) -> ndarray:
        """x with every slice along `axis` (the flattened array for None)
        permuted on its own; into `out` if given."""
        a = gpunp.asarray(x)
        if out is not None:
            if not isinstance(out, ndarray):
                raise TypeError("out must be a gpunp.ndarray")
            if out.shape != a.shape:
                raise ValueError("out must have the same shape as x")
        if axis is None:
            flat = a.reshape(-1)
            r = gpunp.take(flat, self._permutation_index(flat.size)).reshape(a.shape)
        else:
            ax = normalize_axis(axis, a.ndim)
            order = gpunp.argsort(_perm_keys(self._bit_generator, a.shape), axis=ax,
                                  kind="stable")
            r = gpunp.take_along_axis(a, order, axis=ax)
        if out is None:
            return r
        out[...] = r
        return out

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """Samples of arange(a) (an integer a) or of the array a along
        `axis`: uniform, or with probabilities `p`; with or without
        replacement. `shuffle` is accepted; samples without replacement are
        always in random order."""
        pop = None
        if isinstance(a, (int, numpy.integer)) and not isinstance(a, (bool, numpy.bool_)):
            pop = operator.index(a)
            arr = None
        else:
            arr = gpunp.asarray(a)
            if arr.ndim == 0:
                raise ValueError("a must be a sequence or an integer, not <class 'numpy.ndarray'>"
                                 if isinstance(a, numpy.ndarray) else
                                 f"a must be a sequence or an integer, not {type(a)}")
            pop = arr.shape[axis]  # NumPy's IndexError out of range (huge or not)
            axis = normalize_axis(axis, arr.ndim)
        shape = _shape(size)
        k = int(numpy.prod(shape, dtype=numpy.int64))
        if pop <= 0 and k > 0 or pop < 0:
            raise ValueError("a must be a positive integer unless no samples are taken"
                             if arr is None else "a cannot be empty unless no samples are taken")
        pr = None
        if p is not None:
            pr = numpy.asarray(p.get() if isinstance(p, ndarray) else p, dtype=numpy.float64)
            if pr.ndim != 1:
                raise ValueError("p must be 1-dimensional")
            if pr.size != pop:
                raise ValueError("a and p must have same size")
            # the rest of p's checks (signs, sum) by the running NumPy, with its
            # messages: a choice of no samples from the host's generator
            numpy.random.default_rng(0).choice(pop, size=0, replace=True, p=pr)
        if replace:
            if pr is None:
                idx = self.integers(0, pop, size=shape) if k else gpunp.zeros(shape, numpy.int64)
            else:
                cdf = numpy.cumsum(pr)
                cdf /= cdf[-1]
                u = self.random(shape)
                # u < 1 = cdf[-1]: the index is below pop, never one of p = 0
                idx = gpunp.searchsorted(gpunp.asarray(cdf), u, side="right")
        else:
            if k > pop:
                raise ValueError("Cannot take a larger sample than population when "
                                 "replace is False")
            if pr is not None and numpy.count_nonzero(pr > 0) < k:
                raise ValueError("Fewer non-zero entries in p than size")
            if pr is None:
                order = self._permutation_index(pop)
            else:
                keys = self.standard_exponential(pop) / gpunp.asarray(pr)
                order = gpunp.argsort(keys, kind="stable")
            idx = order[:k].reshape(shape)
        if arr is None:
            return idx
        return gpunp.take(arr, idx, axis=axis)
