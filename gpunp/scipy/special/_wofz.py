"""scipy.special.wofz, the Faddeeva function: SciPy's ufunc is complex only
("F->F", "D->D"); gpunp's special rows are real, so one row takes z's real
and imaginary parts and gives w's, and this wrapper makes the complex
result in the dtype SciPy's loop resolution gives."""

import gpunp
from gpunp.scipy.special._functions import from_parts
from gpunp.scipy._version import scipy_version

_parts = gpunp.ufunc.of_module("scipy.special")["_wofz_parts"]


def _result_dtype(dtype, version):
    """SciPy 1.17 takes the complex64 loop for complex64 alone; 1.18
    resolves as NumPy does, the first loop ("F->F") for every dtype that
    casts safely to complex64 (float32, float16, the small integers)."""
    if dtype == gpunp.complex64:
        return gpunp.complex64
    if version >= 11800 and gpunp.can_cast(dtype, gpunp.complex64):
        return gpunp.complex64
    return gpunp.complex128


def wofz(z, out=None):
    """The Faddeeva function w(z) = exp(-z^2) erfc(-i z), for real or
    complex z; complex128, or complex64 where SciPy's loop is its float one."""
    z = gpunp.asarray(z)
    if z.dtype.kind not in "biufc":
        raise TypeError("ufunc 'wofz' not supported for the input types, and the inputs could "
                        "not be safely coerced to any supported types according to the casting "
                        "rule ''safe''")
    dtype = _result_dtype(z.dtype, scipy_version())
    if out is not None and (not isinstance(out, gpunp.ndarray) or out.dtype.kind != "c"):
        raise TypeError(f"Cannot cast ufunc 'wofz' output from {dtype!r} to "
                        f"{getattr(out, 'dtype', type(out))!r} with casting rule 'same_kind'")
    if z.dtype.kind == "c":
        re, im = z.real.astype(gpunp.float64), z.imag.astype(gpunp.float64)
    else:
        re, im = z.astype(gpunp.float64), gpunp.zeros((), gpunp.float64)
    wr, wi = _parts(re, im)
    return from_parts(wr, wi, dtype, out)
