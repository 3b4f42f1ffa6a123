"""The rest of scipy.linalg: decompositions and matrix functions built on
LAPACK routines that neither cuSOLVER nor the engine has, the Riccati
solvers built on them, the QR updates, SciPy's BLAS/LAPACK lookups, and the
Clarkson-Woodruff sketch.

``hessenberg``, ``qz``, ``ordqz``, ``matrix_balance``, ``cossin``,
``rsf2csf``, ``qr_update``/``qr_insert``/``qr_delete``/``qr_multiply``
(LAPACK's gehrd, gges, tgsen, gebal, orcsd, Givens updates and ormqr on a
raw QR), ``funm``, ``signm``, ``fractional_matrix_power``, ``expm_cond``
(Schur-based) and ``solve_continuous_are``/``solve_discrete_are`` (QZ-based)
run SciPy's on a host copy and return gpunp arrays, as ``schur`` does; they
need SciPy installed. ``clarkson_woodruff_transform`` draws SciPy's random
hash on the host (the same seed gives SciPy's sketch) and applies it on the
device as a sparse product."""

from __future__ import annotations

import numpy

import gpunp
import gpunp.scipy.sparse as _sparse

from gpunp.scipy._version import scipy_version
from gpunp.scipy.linalg._batch import as_device
from gpunp.scipy.linalg._matfuncs import _on_host

__all__ = ["clarkson_woodruff_transform", "cossin", "expm_cond", "find_best_blas_type",
           "fractional_matrix_power", "funm", "get_blas_funcs", "get_lapack_funcs",
           "hessenberg", "matrix_balance", "ordqz", "qr_delete", "qr_insert", "qr_multiply",
           "qr_update", "qz", "rsf2csf", "signm", "solve_continuous_are", "solve_discrete_are"]

_UNSET = object()


def _given(**kwargs):
    """The keyword arguments the caller gave (SciPy's own defaults apply to the rest)."""
    return {k: v for k, v in kwargs.items() if v is not _UNSET}


def hessenberg(a, calc_q=False, overwrite_a=False, check_finite=True):
    """H (and Q with a = Q H Q^H) of scipy.linalg.hessenberg (SciPy's, on the host)."""
    return _on_host("hessenberg", a, calc_q=calc_q, check_finite=check_finite)


def qz(A, B, output="real", lwork=None, sort=None, overwrite_a=False, overwrite_b=False,
       check_finite=True):
    """(AA, BB, Q, Z) of the generalized Schur decomposition (scipy.linalg.qz,
    SciPy's on the host; `sort` gets SciPy's host arguments)."""
    return _on_host("qz", A, B, output=output, lwork=lwork, sort=sort,
                    check_finite=check_finite)


def ordqz(A, B, sort="lhp", output="real", overwrite_a=False, overwrite_b=False,
          check_finite=True):
    """(AA, BB, alpha, beta, Q, Z) of scipy.linalg.ordqz (SciPy's, on the host)."""
    return _on_host("ordqz", A, B, sort=sort, output=output, check_finite=check_finite)


def matrix_balance(A, permute=True, scale=True, separate=False, overwrite_a=False):
    """(B, T) or (B, (scale, perm)) of scipy.linalg.matrix_balance (SciPy's, on the host)."""
    return _on_host("matrix_balance", A, permute=permute, scale=scale, separate=separate)


def cossin(X, p=None, q=None, separate=False, swap_sign=False, compute_u=True,
           compute_vh=True):
    """The cosine-sine decomposition of scipy.linalg.cossin (SciPy's, on the
    host). `X` is one unitary matrix or the sequence of its four blocks."""
    if isinstance(X, (list, tuple)):
        X = [as_device(x) for x in X]
        return _host_blocks(X, p=p, q=q, separate=separate, swap_sign=swap_sign,
                            compute_u=compute_u, compute_vh=compute_vh)
    return _on_host("cossin", X, p=p, q=q, separate=separate, swap_sign=swap_sign,
                    compute_u=compute_u, compute_vh=compute_vh)


def _host_blocks(blocks, **kwargs):
    import scipy.linalg
    out = scipy.linalg.cossin([gpunp.asnumpy(b) for b in blocks], **kwargs)
    return _to_device(out)


def _to_device(r):
    if isinstance(r, tuple):
        return tuple(_to_device(x) for x in r)
    return gpunp.asarray(r) if isinstance(r, (numpy.ndarray, numpy.generic)) else r


def rsf2csf(T, Z, check_finite=True):
    """The complex Schur form of a real one (scipy.linalg.rsf2csf, on the host)."""
    return _on_host("rsf2csf", T, Z, check_finite=check_finite)


def qr_update(Q, R, u, v, overwrite_qruv=False, check_finite=True):
    """The QR factors of A + u v^T from those of A (scipy.linalg.qr_update, on the host)."""
    return _on_host("qr_update", Q, R, u, v, check_finite=check_finite)


def qr_insert(Q, R, u, k, which="row", rcond=None, overwrite_qru=False, check_finite=True):
    """The QR factors of A with rows or columns `u` inserted before `k`
    (scipy.linalg.qr_insert, on the host)."""
    return _on_host("qr_insert", Q, R, u, k, which=which, rcond=rcond,
                    check_finite=check_finite)


def qr_delete(Q, R, k, p=1, which="row", overwrite_qr=False, check_finite=True):
    """The QR factors of A with `p` rows or columns from `k` deleted
    (scipy.linalg.qr_delete, on the host)."""
    return _on_host("qr_delete", Q, R, k, p=p, which=which, check_finite=check_finite)


def qr_multiply(a, c, mode="right", pivoting=False, conjugate=False, overwrite_a=False,
                overwrite_c=False):
    """Q c or c Q with the Q of a's QR (scipy.linalg.qr_multiply; LAPACK's ormqr
    on a raw QR, SciPy's on the host)."""
    return _on_host("qr_multiply", a, as_device(c), mode=mode, pivoting=pivoting,
                    conjugate=conjugate, overwrite_c=overwrite_c)


def funm(A, func, disp=True):
    """f(A) by the Schur-Parlett method (scipy.linalg.funm, SciPy's on the
    host). `func` is a gpunp function: it is handed the eigenvalues as a
    gpunp array. With disp=False returns (F, errest) as SciPy."""
    import scipy.linalg

    def on_device(x):
        return gpunp.asnumpy(gpunp.asarray(func(gpunp.asarray(x))))
    out = scipy.linalg.funm(gpunp.asnumpy(as_device(A)), on_device, disp=disp)
    return _to_device(out)


def signm(A, disp=_UNSET):
    """The matrix sign function (scipy.linalg.signm, SciPy's on the host)."""
    return _on_host("signm", A, **_given(disp=disp))


def fractional_matrix_power(A, t):
    """A to the real power t (scipy.linalg.fractional_matrix_power, on the host)."""
    return _on_host("fractional_matrix_power", A, t)


def expm_cond(A, check_finite=True):
    """The relative condition number of expm in the Frobenius norm
    (scipy.linalg.expm_cond, on the host)."""
    out = _on_host("expm_cond", A, check_finite=check_finite)
    return out.item() if isinstance(out, gpunp.ndarray) and out.ndim == 0 else out


def solve_continuous_are(a, b, q, r, e=None, s=None, balanced=True):
    """X of the continuous algebraic Riccati equation
    (scipy.linalg.solve_continuous_are, QZ-based: SciPy's on the host)."""
    return _on_host("solve_continuous_are", a, b, q, r,
                    e=None if e is None else as_device(e),
                    s=None if s is None else as_device(s), balanced=balanced)


def solve_discrete_are(a, b, q, r, e=None, s=None, balanced=True):
    """X of the discrete algebraic Riccati equation
    (scipy.linalg.solve_discrete_are, QZ-based: SciPy's on the host)."""
    return _on_host("solve_discrete_are", a, b, q, r,
                    e=None if e is None else as_device(e),
                    s=None if s is None else as_device(s), balanced=balanced)


# ---- SciPy's BLAS and LAPACK lookups -----------------------------------------------------

def _host_like(arrays):
    """Small NumPy arrays with the dtypes and memory orders of gpunp arrays
    (at most 2 along each axis): what SciPy's lookups read from `arrays`."""
    def one(a):
        if not isinstance(a, gpunp.ndarray):
            return a
        fortran = a.flags.f_contiguous and not a.flags.c_contiguous
        return numpy.empty(tuple(min(d, 2) for d in a.shape), dtype=a.dtype,
                           order="F" if fortran else "C")
    return tuple(one(a) for a in arrays)


def find_best_blas_type(arrays=(), dtype=None):
    """scipy.linalg.find_best_blas_type for gpunp (or NumPy) arrays: the BLAS
    prefix, dtype and Fortran-order flag SciPy would pick."""
    import scipy.linalg
    return scipy.linalg.find_best_blas_type(_host_like(arrays), dtype)


def get_blas_funcs(names, arrays=(), dtype=None, ilp64=False):
    """SciPy's BLAS functions for the dtypes of `arrays` (gpunp arrays taken).
    They are SciPy's host routines: they compute on NumPy arrays on the
    host, not on the device (gpunp's products are ``@``/``gpunp.dot``)."""
    import scipy.linalg
    return scipy.linalg.get_blas_funcs(names, _host_like(arrays), dtype, ilp64)


def get_lapack_funcs(names, arrays=(), dtype=None, ilp64=False):
    """SciPy's LAPACK functions for the dtypes of `arrays` (gpunp arrays taken);
    host routines, as ``get_blas_funcs``."""
    import scipy.linalg
    return scipy.linalg.get_lapack_funcs(names, _host_like(arrays), dtype, ilp64)


# ---- the Clarkson-Woodruff sketch ----------------------------------------------------------

def _legacy_state(seed):
    """NumPy's legacy seeding rule (SciPy's check_random_state)."""
    if seed is None or seed is numpy.random:
        return numpy.random.mtrand._rand
    if isinstance(seed, (int, numpy.integer)) and not isinstance(seed, bool):
        return numpy.random.RandomState(seed)
    if isinstance(seed, (numpy.random.RandomState, numpy.random.Generator)):
        return seed
    raise ValueError(f"{seed!r} cannot be used to seed a numpy.random.RandomState instance")


def _hash(n_rows, n_columns, gen):
    """SciPy's draws for the sketch: each input row's output row and sign."""
    if isinstance(gen, numpy.random.Generator):
        rows = gen.integers(0, n_rows, n_columns)
    else:
        rows = gen.randint(0, n_rows, n_columns)
    return rows, gen.choice([1, -1], n_columns)


def clarkson_woodruff_transform(input_matrix, sketch_size, *args, **kwargs):
    """S @ input_matrix with SciPy's sparse sketch S (sketch_size rows, one
    +-1 per column), as scipy.linalg.clarkson_woodruff_transform(input_matrix,
    sketch_size, rng=None): the same `rng` gives the same sketch (``rng=`` by
    keyword through numpy.random.default_rng; by position, or the old
    ``seed=``, by NumPy's legacy rules, as SciPy). A gpunp sparse input gives
    a gpunp sparse result; a dense one (batched over leading axes) a gpunp
    array."""
    given = len(args) + ("rng" in kwargs) + ("seed" in kwargs)
    if len(args) > 1 or set(kwargs) - {"rng", "seed"}:
        raise TypeError("clarkson_woodruff_transform() takes input_matrix, sketch_size "
                        "and rng")
    if given > 1:
        raise TypeError("clarkson_woodruff_transform() got multiple values for argument "
                        "now known as `rng`. Specify one of `rng` or `seed`.")
    if "rng" in kwargs:
        gen = numpy.random.default_rng(kwargs["rng"])
    else:
        gen = _legacy_state(args[0] if args else kwargs.get("seed"))
    sparse_in = _sparse.issparse(input_matrix)
    if not sparse_in:
        input_matrix = as_device(input_matrix)
    elif input_matrix.ndim > 2:
        raise NotImplementedError("Batch support for sparse arrays is not available.")
    n = input_matrix.shape[-2]
    rows, signs = _hash(sketch_size, n, gen)
    S = _sparse.csc_matrix((gpunp.asarray(signs), gpunp.asarray(rows),
                            gpunp.arange(n + 1)), shape=(sketch_size, n))
    if sparse_in and scipy_version() >= 11800:
        # SciPy 1.18 keeps the input's flavour, and its format if CSR or CSC
        fmt = input_matrix.format if input_matrix.format in ("csr", "csc") else "csc"
        kind = "array" if isinstance(input_matrix, _sparse.sparray) else "matrix"
        return getattr(_sparse, f"{fmt}_{kind}")(S @ input_matrix)
    if sparse_in or input_matrix.ndim <= 2:
        return S @ input_matrix
    batch = input_matrix.reshape((-1,) + input_matrix.shape[-2:])
    out = gpunp.stack([S @ m for m in batch])
    return out.reshape(input_matrix.shape[:-2] + out.shape[-2:])
