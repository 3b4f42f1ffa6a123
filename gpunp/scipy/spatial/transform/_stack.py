"""The container side shared by Rotation and RigidTransform: one element
or a batch of any shape, held as one array whose last axes are an
element's (a quaternion, a 4 x 4 matrix)."""

from __future__ import annotations


class Stack:
    """A subclass names its array's attribute (its one slot), an element's
    number of axes (_ITEM_NDIM), the noun of SciPy's messages (_NOUN) and
    SciPy's message for len() of one element (_NO_LEN)."""

    __slots__ = ()

    @property
    def _data(self):
        return getattr(self, type(self).__slots__[0])

    @property
    def single(self):
        """Whether this is one element (shape ())."""
        return self._data.ndim == self._ITEM_NDIM

    @property
    def shape(self):
        return tuple(self._data.shape[:self._data.ndim - self._ITEM_NDIM])

    def _one_element(self, what):
        if self.single:
            raise TypeError(f"Single {self._NOUN} is not {what}.")

    def __len__(self):
        if self.single:
            raise TypeError(self._NO_LEN)
        return self._data.shape[0]

    def __getitem__(self, indexer):
        self._one_element("subscriptable")
        if isinstance(indexer, tuple):
            return self._raw(self._data[indexer + (Ellipsis,)])
        return self._raw(self._data[indexer])

    def __setitem__(self, indexer, value):
        self._one_element("subscriptable")
        if not isinstance(value, type(self)):
            raise TypeError(f"value must be a {type(self).__name__} object")
        self._data[indexer] = value._data

    def __iter__(self):
        self._one_element("iterable")
        for i in range(self._data.shape[0]):
            yield self._raw(self._data[i])
