/*
 * gpu.h - what the GPU backend's files share: the vendor's names
 * (vendor/cuda.h, or vendor/hip.h with GP_GPU_HIP), the driver's context
 * of the current device (gpu.c), the pattern every vendor library is loaded
 * and called by (vendor/lib.c), and the libraries' slots of the backend
 * table (vendor/blas.c, solver.c, fft.c, sparse.c). Each of those files is compiled
 * once per vendor: on its own for CUDA, inside hip.c for HIP, so a function
 * they share is named GPU_SYM(name) (gp_cuda_name, gp_hip_name).
 */
#ifndef GP_GPU_H
#define GP_GPU_H

#include <pthread.h>

#include "../core/dl.h"
#include "backend.h"

#if defined(GP_GPU_HIP)
#include "vendor/hip.h"
#else
#include "vendor/cuda.h"
#endif

#define GPU_MAX_DEVICES 64

/* Makes the current device's primary context current on this thread. */
gp_status_t GPU_SYM(ctx_current)(void);

/* ---- vendor libraries (vendor/lib.c) -------------------------------------------------

 * Each library (BLAS, the dense solvers, FFT) is a table of function
 * pointers filled from its symbol names at first use (a failure is kept and
 * reported by every later call), a handle per thread and device bound to the
 * caller's stream, and its status codes turned into gp_status_t with the
 * library's name in the message. */
typedef struct gp_vendor_lib {
    pthread_once_t once;
    gp_status_t status;
    char problem[4096];
} gp_vendor_lib_t;

/* Opens `what` (one of `sonames`) and fills slots[i] with symbol syms[i]
 * (a '\0'-separated list of candidates), searching as gp_dl_open does for
 * `vendor`; the library, or NULL on failure (kept in `v`). */
void *gp_vendor_load(gp_vendor_lib_t *v, const char *what, const char *const *sonames,
                     int vendor, const char *const *syms, void **const *slots, int n);

/* Loads `v` by `load` on first use; its status (with the error set). */
gp_status_t gp_vendor_ready(gp_vendor_lib_t *v, void (*load)(void));

/* A typed routine's slot for a dtype: S, D, C, Z. */
static inline int gpu_letter(int32_t dtype)
{
    switch (dtype) {
    case GP_FLOAT32: return 0;
    case GP_FLOAT64: return 1;
    case GP_COMPLEX64: return 2;
    default: return 3;
    }
}

/* ---- the libraries' slots of the backend table ----------------------------------------- */

gp_status_t GPU_SYM(gemm)(int32_t dtype, int32_t ta, int32_t tb, int64_t m, int64_t n, int64_t k,
                          const void *a, int64_t lda, int64_t stride_a, const void *b,
                          int64_t ldb, int64_t stride_b, void *c, int64_t ldc, int64_t stride_c,
                          int64_t batch, void *stream);
gp_status_t GPU_SYM(trsm)(int32_t dtype, int32_t upper, int32_t unit, int64_t n, int64_t k,
                          const void *a, int64_t lda, void *b, int64_t ldb, int64_t batch,
                          void *stream);
gp_status_t GPU_SYM(solver_workspace)(const gp_solver_call_t *c, size_t *dev, size_t *host);
gp_status_t GPU_SYM(solver)(const gp_solver_call_t *c, void *stream);
bool GPU_SYM(solver_has)(int32_t routine);
gp_status_t GPU_SYM(fft_plan)(const gp_fft_layout_t *l, void *stream, void **plan,
                              int64_t *work);
gp_status_t GPU_SYM(fft_exec)(void *plan, const gp_fft_layout_t *l, int32_t inverse,
                              const void *in, void *out);
gp_status_t GPU_SYM(fft_destroy)(void *plan);
gp_status_t GPU_SYM(csr_mm)(const gp_csr_mm_t *c, gp_work_alloc_fn alloc, void *ctx,
                            void *stream);
gp_status_t GPU_SYM(csr_spgemm)(gp_csr_spgemm_t *c, gp_work_alloc_fn alloc, void *ctx,
                                void *stream);
gp_status_t GPU_SYM(csr_solve)(gp_csr_solve_t *c, void *stream);

#endif /* GP_GPU_H */
