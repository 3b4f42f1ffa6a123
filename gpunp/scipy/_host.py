"""Host data handed to gpunp.scipy, as gpunp's own functions take it."""

from __future__ import annotations

import numpy

import gpunp


def as_device(x):
    """x as a gpunp array: host data that NumPy would make an array of
    (lists, scalars) is made one on the device, but a NumPy array is
    refused, as gpunp's own functions refuse it (no implicit transfer:
    docs/differences.md)."""
    if isinstance(x, numpy.ndarray):
        raise TypeError(f"Unsupported type {type(x)}: use gpunp.asarray(x) to move it")
    return gpunp.asarray(x)
