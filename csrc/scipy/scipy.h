/*
 * scipy.h - internal declarations of the SciPy layer (csrc/scipy/): what
 * the engine's C tests reach beside the public ABI.
 */
#ifndef GP_SCIPY_H
#define GP_SCIPY_H

#include "../kernels/kernels.h"
#include "gp_sparse.h"

/* gp_csr_matmul on the sparse slot of `be` (the engine's C test gives it a
 * backend whose csr_mm and csr_spgemm compute on the host, to test the
 * vendor road). */
gp_status_t gp_csr_matmul_on(const gp_backend_i *be, int64_t rows, int64_t cols,
                             const gp_array_t *indptr, const gp_array_t *indices,
                             const gp_array_t *data, const gp_array_t *x, gp_array_t **out);

/* gp_csr_spgemm on the sparse slot of `be` (likewise). */
gp_status_t gp_csr_spgemm_on(const gp_backend_i *be, int64_t a_rows, int64_t a_cols,
                             const gp_array_t *a_indptr, const gp_array_t *a_indices,
                             const gp_array_t *a_data, int64_t b_rows, int64_t b_cols,
                             const gp_array_t *b_indptr, const gp_array_t *b_indices,
                             const gp_array_t *b_data, gp_array_t **indptr,
                             gp_array_t **indices, gp_array_t **data);

/* gp_csr_solve on the csr_solve slot of `be` (likewise). */
gp_status_t gp_csr_solve_on(const gp_backend_i *be, int64_t n, const gp_array_t *indptr,
                            const gp_array_t *indices, const gp_array_t *data,
                            const gp_array_t *b, gp_array_t **x, int64_t *singular);

#endif /* GP_SCIPY_H */
