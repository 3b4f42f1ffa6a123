"""``gpunp.scipy.linalg``: ``scipy.linalg`` for gpunp arrays, name for name.

The solvers and factorizations (solve with assume_a, LU, Cholesky, QR, RQ,
the SVD, eigh with subsets) are gpunp.linalg's (the engine's dense solvers
on a GPU) and gpunp operations; expm and cosm/sinm are device products and
one solve; the special matrices are made on the device. sqrtm and logm run
on the device where their iteration converges; the Schur family (schur,
solve_sylvester, ldl) and what else needs LAPACK routines cuSOLVER lacks
(hessenberg, qz, ordqz, matrix_balance, cossin, the QR updates, funm and
its kin, the Riccati solvers) run SciPy on a host copy;
get_blas_funcs/get_lapack_funcs give SciPy's host routines. Batched over leading
dimensions where SciPy 1.17 is; errors are SciPy's (LinAlgError,
ValueError for non-finite input with check_finite)."""

from gpunp.scipy.linalg._decomp import (
    LinAlgError, LinAlgWarning, cdf2rdf, cho_factor, cho_solve, cholesky, det, eig, eigh, eigvals,
    eigvalsh, inv, lstsq, lu, lu_factor, lu_solve, norm, pinv, qr, rq, solve, solve_triangular,
    svd, svdvals)
from gpunp.scipy.linalg._matfuncs import (
    bandwidth, block_diag, coshm, cosm, diagsvd, expm, ishermitian, issymmetric, khatri_rao,
    kron, ldl, logm, matmul_toeplitz, null_space, orth, orthogonal_procrustes, pinvh, polar,
    schur, sinhm, sinm, solve_circulant, solve_continuous_lyapunov, solve_discrete_lyapunov,
    solve_lyapunov, solve_sylvester, sqrtm, tanhm, tanm)
from gpunp.scipy.linalg._structured import (
    cho_solve_banded, cholesky_banded, eig_banded, eigh_tridiagonal, eigvals_banded,
    eigvalsh_tridiagonal, expm_frechet, solve_banded, solve_toeplitz, solveh_banded,
    subspace_angles)
from gpunp.scipy.linalg._lapack_more import (
    clarkson_woodruff_transform, cossin, expm_cond, find_best_blas_type,
    fractional_matrix_power, funm, get_blas_funcs, get_lapack_funcs, hessenberg, matrix_balance,
    ordqz, qr_delete, qr_insert, qr_multiply, qr_update, qz, rsf2csf, signm,
    solve_continuous_are, solve_discrete_are)
from gpunp.scipy.linalg._special_matrices import (
    circulant, companion, convolution_matrix, dft, fiedler, fiedler_companion, hadamard, hankel,
    helmert, hilbert, invhilbert, invpascal, leslie, pascal, toeplitz, tri)

# kron and tri are cupyx's (SciPy 1.17 dropped them), so they are not in __all__
__all__ = [
    "LinAlgError", "LinAlgWarning", "block_diag", "cho_factor", "cho_solve", "cholesky",
    "circulant", "companion", "convolution_matrix", "cosm", "det", "dft", "eig", "eigh",
    "eigvals", "eigvalsh", "expm", "fiedler", "fiedler_companion", "hadamard", "hankel",
    "helmert", "hilbert", "inv", "invhilbert", "invpascal", "khatri_rao", "ldl", "leslie",
    "logm", "lstsq", "lu", "lu_factor", "lu_solve", "norm", "null_space", "orth", "pascal",
    "pinv", "polar", "qr", "rq", "schur", "sinm", "solve", "solve_sylvester",
    "solve_triangular", "sqrtm", "svd", "svdvals", "toeplitz", "bandwidth", "coshm",
    "diagsvd", "ishermitian", "issymmetric", "matmul_toeplitz", "orthogonal_procrustes",
    "pinvh", "sinhm", "solve_circulant", "tanhm", "tanm", "eigh_tridiagonal",
    "eigvalsh_tridiagonal", "expm_frechet", "solve_banded", "solve_toeplitz", "solveh_banded",
    "subspace_angles", "cho_solve_banded", "cholesky_banded", "eig_banded", "eigvals_banded",
    "solve_continuous_lyapunov", "solve_discrete_lyapunov", "solve_lyapunov", "cdf2rdf",
    "clarkson_woodruff_transform", "cossin", "expm_cond", "find_best_blas_type",
    "fractional_matrix_power", "funm", "get_blas_funcs", "get_lapack_funcs", "hessenberg",
    "matrix_balance", "ordqz", "qr_delete", "qr_insert", "qr_multiply", "qr_update", "qz",
    "rsf2csf", "signm", "solve_continuous_are", "solve_discrete_are",
]
