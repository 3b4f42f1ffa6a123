"""LinearOperator and aslinearoperator, with scipy.sparse.linalg's semantics
on gpunp arrays.

An operator is lazy: sums, products, scalings, powers, adjoints and
transposes of operators are operators that call their operands' products
when applied. Vectors stay on the device; only shapes and dtypes are read on
the host."""

import warnings

import numpy

import gpunp as gp
from gpunp.scipy._version import scipy_version

from ..csgraph._csr import device

__all__ = ["LinearOperator", "aslinearoperator"]


def _is_scalar(x):
    # SciPy asks numpy.isscalar: a 0-d array is not a scalar operand.
    return numpy.isscalar(x)


def _is_sparse(x):
    """A sparse matrix by duck type (gpunp's, SciPy's): it converts to CSR."""
    return not isinstance(x, (gp.ndarray, numpy.ndarray)) and hasattr(x, "tocsr")


def _as_operand(x):
    return x if _is_sparse(x) else device(x)


def _shape2(shape):
    try:
        shape = tuple(shape)
        ok = len(shape) == 2 and all(numpy.ndim(s) == 0 and int(s) == s and s >= 0
                                     for s in shape)
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError(f"invalid shape {shape!r} (must be 2-d)")
    return tuple(int(s) for s in shape)


class LinearOperator:
    """A matrix known only by its products ``A @ x`` (and ``A^H @ x``).

    As in SciPy: build one from callables, ``LinearOperator(shape, matvec,
    rmatvec=None, matmat=None, dtype=None, rmatmat=None)``, or subclass it and
    define ``_matvec`` or ``_matmat`` (and ``_rmatvec``/``_adjoint`` for the
    adjoint). The vectors it is given and returns are gpunp arrays.
    Without a dtype, the dtype is that of ``matvec`` of an int8 zero vector."""

    ndim = 2
    __array_ufunc__ = None

    def __new__(cls, *args, **kwargs):
        if cls is LinearOperator:
            return super().__new__(_CustomLinearOperator)
        obj = super().__new__(cls)
        if (type(obj)._matvec is LinearOperator._matvec
                and type(obj)._matmat is LinearOperator._matmat):
            warnings.warn("LinearOperator subclass should implement at least one of "
                          "_matvec and _matmat.", category=RuntimeWarning, stacklevel=2)
        return obj

    def __init__(self, dtype, shape):
        self.dtype = None if dtype is None else numpy.dtype(dtype)
        self.shape = _shape2(shape)

    def _init_dtype(self):
        if self.dtype is None:
            probe = gp.zeros(self.shape[-1], dtype=gp.int8)
            try:
                self.dtype = device(self.matvec(probe)).dtype
            except OverflowError:
                self.dtype = numpy.dtype(int)

    # what a subclass overrides; each default falls back on the other
    def _matmat(self, X):
        # 1-d columns: a column vector is deprecated in SciPy 1.18's matvec
        cols = [self.matvec(X[:, j]) for j in range(X.shape[1])]
        if not cols:
            return gp.zeros((self.shape[0], 0), dtype=self.dtype or gp.float64)
        return gp.stack(cols, axis=1)

    def _matvec(self, x):
        return self.matmat(x.reshape(-1, 1))

    def _rmatvec(self, x):
        if type(self)._adjoint is LinearOperator._adjoint:
            if type(self)._rmatmat is not LinearOperator._rmatmat:
                return self._rmatmat(x.reshape(-1, 1)).reshape(-1)
            raise NotImplementedError("rmatvec is not defined")
        return self.H.matvec(x)

    def _rmatmat(self, X):
        if type(self)._adjoint is LinearOperator._adjoint:
            cols = [self.rmatvec(X[:, j]) for j in range(X.shape[1])]
            if not cols:
                return gp.zeros((self.shape[1], 0), dtype=self.dtype or gp.float64)
            return gp.stack(cols, axis=1)
        return self.H.matmat(X)

    def _adjoint(self):
        return _AdjointLinearOperator(self)

    def _transpose(self):
        return _TransposedLinearOperator(self)

    # the checked public products
    def _vector_product(self, x, n_in, n_out, fn, name="matvec"):
        x = device(x)
        if x.shape != (n_in,) and x.shape != (n_in, 1):
            raise ValueError("dimension mismatch")
        if x.shape == (n_in, 1) and scipy_version() >= 11800:
            warnings.warn(f"Calling `{name}` on 'column vectors' of shape `({n_in}, 1)` was "
                          "deprecated in SciPy 1.18.0 and will no longer be possible in SciPy "
                          f"1.20.0. Please call `{name.replace('vec', 'mat')}` instead for "
                          "identical behaviour.", FutureWarning, stacklevel=3)
            # and 1.18 hands the operator's own matvec a 1-d vector
            y = device(fn(x.reshape(n_in)))
            return y.reshape(n_out, 1)
        y = device(fn(x))
        return y.reshape(n_out) if x.ndim == 1 else y.reshape(n_out, 1)

    def matvec(self, x):
        """``A @ x`` for x of shape (N,) or (N, 1); the result has shape (M,) or (M, 1)."""
        return self._vector_product(x, self.shape[1], self.shape[0], self._matvec)

    def rmatvec(self, x):
        """``A^H @ x`` for x of shape (M,) or (M, 1)."""
        return self._vector_product(x, self.shape[0], self.shape[1], self._rmatvec, "rmatvec")

    def _matrix_product(self, X, n_in, fn):
        X = _as_operand(X)
        if X.ndim != 2:
            raise ValueError(f"expected 2-d ndarray or matrix, not {X.ndim}-d")
        if X.shape[0] != n_in:
            raise ValueError(f"dimension mismatch: {self.shape}, {X.shape}")
        try:
            return fn(X)
        except Exception as e:
            if _is_sparse(X):
                raise TypeError("Unable to multiply a LinearOperator with a sparse matrix."
                                " Wrap the matrix in aslinearoperator first.") from e
            raise

    def matmat(self, X):
        """``A @ X`` for X of shape (N, K)."""
        return self._matrix_product(X, self.shape[1], self._matmat)

    def rmatmat(self, X):
        """``A^H @ X`` for X of shape (M, K)."""
        return self._matrix_product(X, self.shape[0], self._rmatmat)

    def __call__(self, x):
        return self @ x

    def dot(self, x):
        """A product: an operator for an operator, a scaled operator for a
        scalar, else ``matvec`` (1-d or one column) or ``matmat``."""
        if isinstance(x, LinearOperator):
            return _ProductLinearOperator(self, x)
        if _is_scalar(x):
            return _ScaledLinearOperator(self, x)
        x = _as_operand(x)
        # SciPy 1.18 takes a column as a matrix (its matvec deprecates columns)
        if x.ndim == 1 or (x.ndim == 2 and x.shape[1] == 1 and scipy_version() < 11800):
            return self.matvec(x)
        if x.ndim == 2:
            return self.matmat(x)
        raise ValueError(f"expected 1-d or 2-d array or matrix, got {x!r}")

    def rdot(self, x):
        """``x @ A`` (SciPy 1.18's public name for the product from the right)."""
        return self._rdot(x)

    def _rdot(self, x):
        if isinstance(x, LinearOperator):
            return _ProductLinearOperator(x, self)
        if _is_scalar(x):
            return _ScaledLinearOperator(self, x)
        x = _as_operand(x)
        # x @ A is (A^T @ x^T)^T: the transpose spares a conjugation
        if x.ndim == 1 or (x.ndim == 2 and x.shape[0] == 1 and scipy_version() < 11800):
            return self.T.matvec(x.T).T
        if x.ndim == 2:
            return self.T.matmat(x.T).T
        raise ValueError(f"expected 1-d or 2-d array or matrix, got {x!r}")

    def __mul__(self, x):
        return self.dot(x)

    def __rmul__(self, x):
        if _is_scalar(x):
            return _ScaledLinearOperator(self, x)
        return self._rdot(x)

    def __matmul__(self, other):
        if _is_scalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self.__mul__(other)

    def __rmatmul__(self, other):
        if _is_scalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self.__rmul__(other)

    def __truediv__(self, other):
        if not _is_scalar(other):
            raise ValueError("Can only divide a linear operator by a scalar.")
        return _ScaledLinearOperator(self, 1.0 / other)

    def __pow__(self, p):
        if _is_scalar(p):
            return _PowerLinearOperator(self, p)
        return NotImplemented

    def __add__(self, x):
        if isinstance(x, LinearOperator):
            return _SumLinearOperator(self, x)
        return NotImplemented

    def __neg__(self):
        return _ScaledLinearOperator(self, -1)

    def __sub__(self, x):
        return self.__add__(-x)

    def __repr__(self):
        dt = "unspecified dtype" if self.dtype is None else f"dtype={self.dtype}"
        return f"<{self.shape[0]}x{self.shape[1]} {type(self).__name__} with {dt}>"

    def adjoint(self):
        """The Hermitian adjoint (conjugate transpose), also ``self.H``."""
        return self._adjoint()

    H = property(adjoint)

    def transpose(self):
        """The transpose, also ``self.T``."""
        return self._transpose()

    T = property(transpose)


class _CustomLinearOperator(LinearOperator):
    """An operator from the user's callables."""

    def __init__(self, shape, matvec, rmatvec=None, matmat=None, dtype=None, rmatmat=None):
        super().__init__(dtype, shape)
        self.args = ()
        self._fns = (matvec, rmatvec, matmat, rmatmat)
        self._init_dtype()

    def _matvec(self, x):
        return self._fns[0](x)

    def _rmatvec(self, x):
        if self._fns[1] is None:
            raise NotImplementedError("rmatvec is not defined")
        return self._fns[1](x)

    def _matmat(self, X):
        return self._fns[2](X) if self._fns[2] is not None else super()._matmat(X)

    def _rmatmat(self, X):
        return self._fns[3](X) if self._fns[3] is not None else super()._rmatmat(X)

    def _adjoint(self):
        mv, rmv, mm, rmm = self._fns
        return _CustomLinearOperator((self.shape[1], self.shape[0]), rmv, rmatvec=mv,
                                     matmat=rmm, rmatmat=mm, dtype=self.dtype)


class _AdjointLinearOperator(LinearOperator):
    def __init__(self, A):
        super().__init__(A.dtype, (A.shape[1], A.shape[0]))
        self.A = A
        self.args = (A,)

    def _matvec(self, x):
        return self.A._rmatvec(x)

    def _rmatvec(self, x):
        return self.A._matvec(x)

    def _matmat(self, X):
        return self.A._rmatmat(X)

    def _rmatmat(self, X):
        return self.A._matmat(X)


class _TransposedLinearOperator(LinearOperator):
    """A^T x = conj(A^H conj(x))."""

    def __init__(self, A):
        super().__init__(A.dtype, (A.shape[1], A.shape[0]))
        self.A = A
        self.args = (A,)

    def _matvec(self, x):
        return gp.conj(self.A._rmatvec(gp.conj(x)))

    def _rmatvec(self, x):
        return gp.conj(self.A._matvec(gp.conj(x)))

    def _matmat(self, X):
        return gp.conj(self.A._rmatmat(gp.conj(X)))

    def _rmatmat(self, X):
        return gp.conj(self.A._matmat(gp.conj(X)))


def _result_dtype(operators, extra=()):
    dtypes = [op.dtype for op in operators if op is not None and op.dtype is not None]
    return numpy.result_type(*dtypes, *extra)


def _need_operators(*ops):
    if not all(isinstance(op, LinearOperator) for op in ops):
        raise ValueError("both operands have to be a LinearOperator")


class _SumLinearOperator(LinearOperator):
    def __init__(self, A, B):
        _need_operators(A, B)
        if A.shape != B.shape:
            raise ValueError(f"cannot add {A} and {B}: shape mismatch")
        super().__init__(_result_dtype([A, B]), A.shape)
        self.args = (A, B)

    def _matvec(self, x):
        return self.args[0].matvec(x) + self.args[1].matvec(x)

    def _rmatvec(self, x):
        return self.args[0].rmatvec(x) + self.args[1].rmatvec(x)

    def _matmat(self, X):
        return self.args[0].matmat(X) + self.args[1].matmat(X)

    def _rmatmat(self, X):
        return self.args[0].rmatmat(X) + self.args[1].rmatmat(X)

    def _adjoint(self):
        return self.args[0].H + self.args[1].H


class _ProductLinearOperator(LinearOperator):
    def __init__(self, A, B):
        _need_operators(A, B)
        if A.shape[1] != B.shape[0]:
            raise ValueError(f"cannot multiply {A} and {B}: shape mismatch")
        super().__init__(_result_dtype([A, B]), (A.shape[0], B.shape[1]))
        self.args = (A, B)

    def _matvec(self, x):
        return self.args[0].matvec(self.args[1].matvec(x))

    def _rmatvec(self, x):
        return self.args[1].rmatvec(self.args[0].rmatvec(x))

    def _matmat(self, X):
        return self.args[0].matmat(self.args[1].matmat(X))

    def _rmatmat(self, X):
        return self.args[1].rmatmat(self.args[0].rmatmat(X))

    def _adjoint(self):
        return self.args[1].H @ self.args[0].H


class _ScaledLinearOperator(LinearOperator):
    def __init__(self, A, alpha):
        if not isinstance(A, LinearOperator):
            raise ValueError("LinearOperator expected as A")
        if not _is_scalar(alpha):
            raise ValueError("scalar expected as alpha")
        if isinstance(A, _ScaledLinearOperator):
            A, inner = A.args
            alpha = alpha * inner
        # SciPy 1.18 promotes with alpha's value (a Python scalar is weak:
        # float32 * 2.5 stays float32), older SciPy with its type
        weight = alpha if scipy_version() >= 11800 else type(alpha)
        super().__init__(_result_dtype([A], [weight]), A.shape)
        self.args = (A, alpha)

    def _matvec(self, x):
        return self.args[1] * self.args[0].matvec(x)

    def _rmatvec(self, x):
        return numpy.conj(self.args[1]) * self.args[0].rmatvec(x)

    def _matmat(self, X):
        return self.args[1] * self.args[0].matmat(X)

    def _rmatmat(self, X):
        return numpy.conj(self.args[1]) * self.args[0].rmatmat(X)

    def _adjoint(self):
        return self.args[0].H * numpy.conj(self.args[1])


class _PowerLinearOperator(LinearOperator):
    def __init__(self, A, p):
        if not isinstance(A, LinearOperator):
            raise ValueError("LinearOperator expected as A")
        if A.shape[0] != A.shape[1]:
            raise ValueError(f"square LinearOperator expected, got {A!r}")
        if isinstance(p, bool) or not (numpy.ndim(p) == 0 and int(p) == p) or p < 0:
            raise ValueError("non-negative integer expected as p")
        super().__init__(_result_dtype([A]), A.shape)
        self.args = (A, int(p))

    def _power(self, fn, x):
        y = gp.array(x, copy=True)
        for _ in range(self.args[1]):
            y = fn(y)
        return y

    def _matvec(self, x):
        return self._power(self.args[0].matvec, x)

    def _rmatvec(self, x):
        return self._power(self.args[0].rmatvec, x)

    def _matmat(self, X):
        return self._power(self.args[0].matmat, X)

    def _rmatmat(self, X):
        return self._power(self.args[0].rmatmat, X)

    def _adjoint(self):
        return self.args[0].H ** self.args[1]


class MatrixLinearOperator(LinearOperator):
    """A dense gpunp array or a sparse matrix seen as an operator."""

    def __init__(self, A):
        super().__init__(A.dtype, A.shape)
        self.A = A
        self.args = (A,)
        self._adj = None

    def _matmat(self, X):
        return self.A @ X

    def _matvec(self, x):
        return self.A @ x

    def _adjoint(self):
        # made once: every rmatvec goes through it, and A^H is a copy of A
        if self._adj is None:
            self._adj = _AdjointMatrixOperator(self.A)
        return self._adj


class _AdjointMatrixOperator(MatrixLinearOperator):
    def __init__(self, A):
        LinearOperator.__init__(self, A.dtype, (A.shape[1], A.shape[0]))
        self.A = A.T.conj()
        self.args = (A,)
        self._adj = None

    def _adjoint(self):
        return MatrixLinearOperator(self.args[0])


class IdentityOperator(LinearOperator):
    def __init__(self, shape, dtype=None):
        super().__init__(dtype, shape)

    def _matvec(self, x):
        return x

    def _rmatvec(self, x):
        return x

    def _matmat(self, X):
        return X

    def _rmatmat(self, X):
        return X

    def _adjoint(self):
        return self


def aslinearoperator(A):
    """``A`` as a LinearOperator: an operator as it is; a gpunp array of at
    most 2 dimensions, or a sparse matrix on the device (anything with
    ``tocsr``), as a matrix operator; an object with ``shape`` and ``matvec``
    (and optionally ``rmatvec``, ``rmatmat``, ``dtype``) through its
    methods. NumPy arrays and SciPy's sparse matrices are refused, as gpunp
    refuses host data: moving them is the caller's explicit step."""
    if isinstance(A, LinearOperator):
        return A
    if isinstance(A, (gp.ndarray, numpy.ndarray)):
        A = device(A)
        if A.ndim > 2:
            raise ValueError("array must have ndim <= 2")
        return MatrixLinearOperator(gp.atleast_2d(A))
    if _is_sparse(A):
        if type(A).__module__.startswith("scipy."):
            raise TypeError(f"Unsupported type {type(A)}: a sparse matrix on the host; move it "
                            f"with gpunp.scipy.sparse's classes (e.g. csr_array(x))")
        return MatrixLinearOperator(A)
    if hasattr(A, "shape") and hasattr(A, "matvec"):
        return LinearOperator(A.shape, A.matvec, rmatvec=getattr(A, "rmatvec", None),
                              rmatmat=getattr(A, "rmatmat", None),
                              dtype=getattr(A, "dtype", None))
    raise TypeError("type not understood")
