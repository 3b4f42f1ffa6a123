/*
 * gp_linalg.h - dense matrix factorizations on the device (numpy.linalg's
 * kernels): LU, Cholesky, QR, symmetric/Hermitian and general eigenproblems,
 * the singular value decomposition. On CUDA they are cuSOLVER's; the host
 * backend has none (gpunp computes its linalg through NumPy there) and HIP's
 * are not written yet: both give GP_ERR_UNSUPPORTED.
 *
 * Layout. The routines are LAPACK's, which read matrices column-major. Every
 * matrix argument is a batch of column-major matrices: an array of shape
 * (..., rows, cols) whose last two strides are (itemsize, rows * itemsize)
 * and whose batch dims are C-contiguous (the transpose of a C-contiguous
 * array of shape (..., cols, rows)). Vector arguments are C-contiguous
 * arrays of shape (..., len); `info` is a C-contiguous int32 array of the
 * batch shape (...), into which each matrix's LAPACK info is written on the
 * device (0: success; > 0: singular, not positive definite, or not
 * converged, as LAPACK defines it). Arguments are overwritten in place.
 * The batch shapes of all arguments must be equal.
 */
#ifndef GP_LINALG_H
#define GP_LINALG_H

#include "gp_array.h"
#include "gp_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The routines and their arguments (A's dtype: float32/64, complex64/128;
 * "real" is A's real dtype; k = min(m, n)). */
enum gp_solver_routine {
    GP_SOLVER_GETRF = 0, /* a (n x n) <- P L U, ipiv (int64, n), info */
    GP_SOLVER_GETRS = 1, /* a, ipiv from GETRF; b (n x nrhs) <- op(A)^-1 b; info */
    GP_SOLVER_POTRF = 2, /* a (n x n) <- L (lower triangle; GP_SOLVER_UPPER: U), info */
    GP_SOLVER_GEQRF = 3, /* a (m x n) <- R and the reflectors, tau (k), info */
    GP_SOLVER_ORGQR = 4, /* a (m x n, n <= m) from GEQRF <- Q's first n columns,
                            tau (j <= n reflectors), info */
    GP_SOLVER_SYEVD = 5, /* a (n x n, lower; GP_SOLVER_UPPER: upper) <- eigenvectors
                            (GP_SOLVER_VECTORS), w (real, n, ascending), info */
    GP_SOLVER_GESVD = 6, /* a (m x n, m >= n) destroyed, s (real, n, descending),
                            u (m x n; GP_SOLVER_FULL: m x m), vt (n x n), info;
                            u and vt NULL without GP_SOLVER_VECTORS */
    GP_SOLVER_GEEV = 7,  /* a (n x n) destroyed, w (complex, n), vr (n x n, a's dtype;
                            NULL without GP_SOLVER_VECTORS), info. A real a gives
                            LAPACK's real vectors: for a pair w[j], w[j+1] = conj(w[j])
                            with Im w[j] > 0, the vectors are vr[:, j] +- i vr[:, j+1] */
    GP_SOLVER_GESVDJ = 8, /* GESVD by one-sided Jacobi, any m, n (k = min(m, n), fewer than
                            2^31 elements): a destroyed, s (real, k, descending), u (m x k;
                            GP_SOLVER_FULL: m x m), v (n x k; FULL: n x n; V itself, not
                            V^H), info (k + 1: not converged). u and v are always computed
                            (GP_SOLVER_VECTORS is not read): cuSOLVER's gesvdj failed
                            without them. A batch of matrices up to 32 x 32 with FULL is
                            one batched call */
    GP_SOLVER_SYEVJ = 9,  /* SYEVD's arguments by Jacobi rotations, n <= 32, the whole batch
                            in one call; info > 0: not converged */
    GP_SOLVER_COUNT = 10
};

/* Flags of a call. */
enum gp_solver_flags {
    GP_SOLVER_TRANS_T = 1, /* GETRS: solve A^T x = b */
    GP_SOLVER_TRANS_C = 2, /* GETRS: solve A^H x = b */
    GP_SOLVER_UPPER = 4,   /* POTRF, SYEVD(J): the upper triangle */
    GP_SOLVER_VECTORS = 8, /* SYEVD(J), GESVD, GEEV: vectors too */
    GP_SOLVER_FULL = 16    /* GESVD(J): all m columns of u (and n of GESVDJ's v) */
};

/* Runs `routine` on every matrix of the batch, in place, ordered on the
 * current stream; `args` are the routine's arguments in the order above, the
 * last one `info`. Nothing is read back: the caller reads `info`. Errors:
 * GP_ERR_VALUE or GP_ERR_TYPE for arguments of the wrong shape, dtype or
 * layout, GP_ERR_UNSUPPORTED where the backend has no solver (host, HIP) or
 * the library lacks the routine, GP_ERR_NOT_FOUND_LIBRARY when cuSOLVER
 * cannot be loaded. */
GP_API gp_status_t gp_solver_run(int32_t routine, int32_t flags, int32_t nargs,
                                 gp_array_t *const *args);

/* Whether the running backend has the routine (1) or not (0). */
GP_API gp_status_t gp_solver_available(int32_t routine, int32_t *out);

#ifdef __cplusplus
}
#endif
#endif /* GP_LINALG_H */
