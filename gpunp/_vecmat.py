"""matvec and vecmat (NumPy 2.2's gufuncs (m,n),(n)->(m) and (n),(n,m)->(m)):
the vector becomes a one-column or one-row matrix and the batched product
is gpunp.matmul's, broadcasting the leading axes."""

from __future__ import annotations

from gpunp._creation import _array
from gpunp._ndarray import ndarray
from gpunp._products import matmul
from gpunp._ufunc import UFUNCS


def _need(name: str, x: ndarray, nd: int, which: int) -> None:
    if x.ndim < nd:
        raise ValueError(f"{name}: Input operand {which} does not have enough dimensions "
                         f"(has {x.ndim}, gufunc core with signature "
                         f"{'(m,n),(n)->(m)' if name == 'matvec' else '(n),(n,m)->(m)'} "
                         f"requires {nd})")


def matvec(x1, x2, /) -> ndarray:
    """sum_n x1[..., m, n] * x2[..., n]."""
    x1, x2 = _array(x1), _array(x2)
    _need("matvec", x1, 2, 0)
    _need("matvec", x2, 1, 1)
    return matmul(x1, x2[..., None])[..., 0]


def vecmat(x1, x2, /) -> ndarray:
    """sum_n conj(x1[..., n]) * x2[..., n, m]."""
    x1, x2 = _array(x1), _array(x2)
    _need("vecmat", x1, 1, 0)
    _need("vecmat", x2, 2, 1)
    if x1.dtype.kind == "c":
        x1 = UFUNCS["conjugate"](x1)
    return matmul(x1[..., None, :], x2)[..., 0, :]
