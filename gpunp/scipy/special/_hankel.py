"""scipy.special.hankel1, hankel2, hankel1e, hankel2e: SciPy's ufuncs are
complex ("fF->F", "dD->D"); gpunp's special rows are real, so a row of each
takes the order and z's real and imaginary parts and gives the value's, and
these wrappers make the complex result. The rows' loops "fff->ff" and
"ddd->dd" resolve the order and z's parts as SciPy's complex loops resolve
the order and z (a float32 order with complex64 or smaller z: complex64)."""

import numpy

import gpunp
from gpunp.scipy.special._functions import from_parts

_ROWS = gpunp.ufunc.of_module("scipy.special")
_PYTHON = (bool, int, float, complex)


def _operand(x, name, order):
    """x as the rows take it: a Python number stays one (weak, as NumPy takes
    it), a NumPy scalar, list or tuple becomes a gpunp array (strong), a
    NumPy array is refused as gpunp's ufuncs refuse it; a complex order and
    non-numbers are SciPy's no-loop TypeError"""
    if isinstance(x, numpy.ndarray):
        raise TypeError("Unsupported type <class 'numpy.ndarray'>: gpunp does not move NumPy "
                        "arrays to the device implicitly; use gpunp.asarray(x)")
    kind = ("c" if isinstance(x, complex) else "f") if isinstance(x, _PYTHON) else None
    if kind is None:
        x = gpunp.asarray(x)
        kind = x.dtype.kind
    if kind not in "biufc" or (order and kind == "c"):
        raise TypeError(f"ufunc '{name}' not supported for the input types, and the inputs could "
                        "not be safely coerced to any supported types according to the casting "
                        "rule ''safe''")
    return x


def _complex_row(name, doc):
    parts = _ROWS[f"_{name}_parts"]

    def f(v, z):
        v, z = _operand(v, name, True), _operand(z, name, False)
        # a real z is z + 0i, its 0 a Python int: weak, so it widens no loop
        if isinstance(z, complex):
            re, im = z.real, z.imag
        elif isinstance(z, _PYTHON):
            re, im = z, 0
        elif z.dtype.kind == "c":
            # copied out of the interleaved complex: the row's kernel is then
            # the contiguous one, not another for each stride (the copies
            # cost little beside the Bessel functions' work)
            re, im = gpunp.ascontiguousarray(z.real), gpunp.ascontiguousarray(z.imag)
        else:
            re, im = z, 0
        hr, hi = parts(v, re, im)
        return from_parts(hr, hi, gpunp.complex64 if hr.dtype == gpunp.float32
                          else gpunp.complex128)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


hankel1 = _complex_row("hankel1", "Hankel's function of the first kind H1_v(z) = J_v(z) + i Y_v(z)"
                                  " of real order v and complex z.")
hankel2 = _complex_row("hankel2", "Hankel's function of the second kind H2_v(z) = J_v(z) - i Y_v(z)"
                                  " of real order v and complex z.")
hankel1e = _complex_row("hankel1e", "The scaled Hankel function of the first kind,"
                                    " H1_v(z) exp(-i z).")
hankel2e = _complex_row("hankel2e", "The scaled Hankel function of the second kind,"
                                    " H2_v(z) exp(i z).")
