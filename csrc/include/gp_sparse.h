/*
 * gp_sparse.h - products of sparse matrices in CSR form (scipy.sparse's hot
 * kernels): sparse x dense vector or matrix, sparse x sparse; and a sparse
 * direct solve where the backend has a library for it.
 *
 * A CSR matrix of `rows` x `cols` is three 1-d arrays: `indptr` (rows + 1
 * entries), `indices` and `data` (one entry per stored element; row r's are
 * [indptr[r], indptr[r + 1])). indptr and indices are both int32 or both
 * int64; data is bool, int32, int64, float32, float64, complex64 or
 * complex128. A row's indices may be unsorted and repeated (repeats add),
 * as SciPy allows. Arrays need not be contiguous (they are copied when not).
 *
 * Results are new C-contiguous arrays of NumPy's result_type of the two data
 * dtypes; each product of two elements is formed in that dtype and the sums
 * run in it (bool: OR of ANDs; integers wrap), as SciPy's sparsetools do.
 * On the host backend a result element is summed in the order of the stored
 * elements, starting from zero, which is SciPy's order: results are
 * bit-identical to SciPy's. On a GPU the order differs, or the vendor library
 * (cuSPARSE) computes float and complex products.
 *
 * An indptr that decreases, or runs outside the stored elements, and a
 * column index outside [0, cols) give GP_ERR_INDEX ("index 7 is out of
 * bounds for axis 1 with size 5"; axis 0 names a bad indptr value against
 * the number of stored elements); nothing is read outside the arrays. On a
 * GPU that error may come at the next point the host waits for the device,
 * as for gp_array_gather.
 */
#ifndef GP_SPARSE_H
#define GP_SPARSE_H

#include "gp_array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A @ x for the CSR matrix A (`rows` x `cols`) and a dense `x` of shape
 * (cols,) or (cols, k): a new array of shape (rows,) or (rows, k).
 * GP_ERR_VALUE for mismatched shapes or lengths (an indptr not of rows + 1
 * entries, indices and data of different lengths, x's leading dim not cols,
 * negative sizes); GP_ERR_TYPE for index arrays that are not both int32 or
 * both int64, or a data or x dtype outside the seven above. On error `*out`
 * is NULL. */
GP_API gp_status_t gp_csr_matmul(int64_t rows, int64_t cols, const gp_array_t *indptr,
                                 const gp_array_t *indices, const gp_array_t *data,
                                 const gp_array_t *x, gp_array_t **out);

/* C = A @ B for CSR matrices A (a_rows x a_cols) and B (b_rows x b_cols,
 * b_rows == a_cols): C in CSR form, a_rows x b_cols, each row's indices
 * sorted and distinct; an element whose sum is exactly zero is not stored
 * (as SciPy's csr_matmat). C's index arrays are int32 when its number of
 * stored elements and both its sizes fit an int32, else int64. Errors as
 * gp_csr_matmul's (GP_ERR_VALUE for a_cols != b_rows); on error the three
 * outputs are NULL. */
GP_API gp_status_t gp_csr_spgemm(int64_t a_rows, int64_t a_cols, const gp_array_t *a_indptr,
                                 const gp_array_t *a_indices, const gp_array_t *a_data,
                                 int64_t b_rows, int64_t b_cols, const gp_array_t *b_indptr,
                                 const gp_array_t *b_indices, const gp_array_t *b_data,
                                 gp_array_t **indptr, gp_array_t **indices, gp_array_t **data);

/* x with A x = b for the square CSR matrix A (n x n, each row's indices
 * sorted and distinct) by the backend's sparse direct solver (cuSOLVER's
 * sparse QR on CUDA): `b` of shape (n,) or (k, n), each row a right-hand
 * side, of A's dtype (float32/64, complex64/128); `*x` a new array of b's
 * shape. `*singular` is -1, or a row where the factorization found A
 * exactly singular (x's values are then unspecified). GP_ERR_UNSUPPORTED
 * where the backend has no such solver (the host; HIP) or its library
 * declines (too large for its int indices; missing); GP_ERR_TYPE for other
 * dtypes or differing ones; GP_ERR_VALUE for mismatched shapes or a row
 * whose indices are unsorted or repeated; GP_ERR_INDEX as gp_csr_matmul's.
 * On error `*x` is NULL. */
GP_API gp_status_t gp_csr_solve(int64_t n, const gp_array_t *indptr, const gp_array_t *indices,
                                const gp_array_t *data, const gp_array_t *b, gp_array_t **x,
                                int64_t *singular);

#ifdef __cplusplus
}
#endif
#endif /* GP_SPARSE_H */
