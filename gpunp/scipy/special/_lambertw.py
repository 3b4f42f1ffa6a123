"""scipy.special.lambertw: SciPy's ufunc behind it is complex ("Dld->D");
gpunp's special rows are real, so one row takes z's real and imaginary parts
and gives W's, and this wrapper makes the complex result."""

import gpunp
from gpunp.scipy.special._functions import from_parts

_parts = gpunp.ufunc.of_module("scipy.special")["_lambertw_parts"]


def _lambertw(z, k, tol):
    """SciPy's private ufunc _lambertw(z, k, tol): W_k(z), complex128."""
    z = gpunp.asarray(z)
    if z.dtype.kind not in "biufc":
        raise TypeError(f"ufunc '_lambertw' not supported for the input types ({z.dtype})")
    if z.dtype.kind == "c":
        re, im = z.real, z.imag
    else:
        re, im = z, gpunp.zeros((), gpunp.float64)
    wr, wi = _parts(re, im, k, tol)
    return from_parts(wr, wi, gpunp.complex128)


def lambertw(z, k=0, tol=1e-8):
    """Lambert's W function W_k(z), the solution w of w e^w = z on branch k
    (whole numbers; a float k is truncated, as SciPy's cast to long does),
    for real or complex z; the result is complex128, as SciPy's."""
    k = gpunp.asarray(k).astype(gpunp.int64)
    return _lambertw(z, k, tol)
