"""``sph_harm_y``: SciPy's is a multi-ufunc whose loops take integer
degrees and orders and give a complex result; here the op table's row
``_sph_harm_y`` gives the real and imaginary parts (the special rows have
real outputs), put together into one complex array."""

import math

import gpunp
from gpunp.scipy.special._functions import from_parts
from gpunp.scipy._version import scipy_version

_row = gpunp.ufunc.of_module("scipy.special")["_sph_harm_y"]
_FLOAT_FIRST = scipy_version() >= 11800
_NO_LOOP = ("ufunc 'sph_harm_y' not supported for the input types, and the inputs could not be "
            "safely coerced to any supported types according to the casting rule ''safe''")


def _integers(v):
    """v as int64, as SciPy's loop ('qqdd->D') takes it: a float, complex or
    uint64 degree has no safe cast there (SciPy's TypeError)"""
    v = gpunp.asarray(v)
    if v.dtype.kind not in "biu" or v.dtype == gpunp.uint64:
        raise TypeError(_NO_LOOP)
    return v.astype(gpunp.int64)


def _whole(v, name):
    """v as a non-negative int, a whole float too (SciPy's non-strict
    check): its ValueError or TypeError otherwise"""
    try:
        if v != math.floor(v):
            raise ValueError()
        v = int(v)
        if v < 0:
            raise ValueError()
    except (ValueError, TypeError) as err:
        raise err.__class__(f"{name} must be a non-negative integer") from err
    return v


def sph_harm_y(n, m, theta, phi, *, diff_n=0):
    """The spherical harmonic Y_n^m(theta, phi) of integer degree n and order
    m, theta the polar and phi the azimuthal angle, as complex128 (complex64
    for float32 angles under SciPy 1.18, computed in double). Only
    ``diff_n=0``: the derivatives (SciPy's diff_n 1 and 2) are not
    implemented and raise NotImplementedError."""
    diff_n = _whole(diff_n, "diff_n")
    if not 0 <= diff_n <= 2:
        raise ValueError("diff_n is currently only implemented for orders 0, 1, and 2,"
                         f" received: {diff_n}.")
    if diff_n:
        raise NotImplementedError("gpunp's sph_harm_y has no derivatives (diff_n > 0)")
    n, m = _integers(n), _integers(m)
    theta, phi = gpunp.asarray(theta), gpunp.asarray(phi)
    if theta.dtype.kind == "c" or phi.dtype.kind == "c":
        raise TypeError(_NO_LOOP)
    # SciPy 1.17's loops are qqdd->D, qqff->F (the double one first: always
    # complex128); 1.18's qqff->F, qqdd->D: complex64 when both angles cast
    # safely to float32 (a Python float is a float64 there)
    single = _FLOAT_FIRST and all(gpunp.can_cast(v.dtype, gpunp.float32)
                                               for v in (theta, phi))
    ftype = gpunp.float32 if single else gpunp.float64
    re, im = _row(n, m, theta.astype(ftype), phi.astype(ftype))
    return from_parts(re, im, gpunp.complex64 if single else gpunp.complex128)
