/*
 * vendor/blas.c - the GPU backend's BLAS (cuBLAS, hipBLAS): batched matrix products
 * and, where the library has them, triangular solves. Compiled once per
 * vendor (gpu.h).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "../gpu.h"

static struct {
#define X(name, params, syms) int (*name) params;
    GPU_BLAS_API(X)
#undef X
#define T(name, params, ...) int (*name[4]) params; /* S, D, C, Z */
    GPU_BLAS_TYPED_API(T)
#undef T
} blas;

static gp_vendor_lib_t blas_lib = {PTHREAD_ONCE_INIT};

static void load_blas(void)
{
    static const char *const sonames[] = GPU_BLAS_SONAMES;
#define X(name, params, syms) syms "\0", /* gp_dl_symbol: an empty name ends the list */
    static const char *const syms[] = {GPU_BLAS_API(X)};
#undef X
#define X(name, params, syms) (void **)&blas.name,
    void **slots[] = {GPU_BLAS_API(X)};
#undef X
    void *lib = gp_vendor_load(&blas_lib, GPU_BLAS_WHAT, sonames, GPU_DL_VENDOR, syms, slots,
                               (int)(sizeof syms / sizeof *syms));
    (void)lib;
#define T(name, params, ...)                                          \
    if (lib) {                                                        \
        static const char *const names[4] = {__VA_ARGS__};            \
        for (int k = 0; k < 4; ++k)                                   \
            *(void **)&blas.name[k] = dlsym(lib, names[k]);           \
    }
    GPU_BLAS_TYPED_API(T)
#undef T
}

/* One handle per thread and device: a handle is not shared by threads. */
static _Thread_local gpuBlasHandle blas_handles[GPU_MAX_DEVICES];

/* The current device's handle, bound to `stream`. */
static gp_status_t blas_handle(void *stream, gpuBlasHandle *h)
{
    GP_TRY(gp_vendor_ready(&blas_lib, load_blas));
    GP_TRY(GPU_SYM(ctx_current)());
    int d = gp_current_device();
    int r;
    if (!blas_handles[d] && (r = blas.Create(&blas_handles[d])) != GPU_BLAS_SUCCESS)
        return gp_set_error(GP_ERR_BACKEND, "%s: creating a handle failed (status %d)",
                            GPU_BLAS_WHAT, r);
    if ((r = blas.SetStream(blas_handles[d], (gpuStream)stream)) != GPU_BLAS_SUCCESS)
        return gp_set_error(GP_ERR_BACKEND, "%s: setting the stream failed (status %d)",
                            GPU_BLAS_WHAT, r);
    *h = blas_handles[d];
    return GP_OK;
}

gp_status_t GPU_SYM(gemm)(int32_t dtype, int32_t ta, int32_t tb, int64_t m, int64_t n,
                            int64_t k, const void *a, int64_t lda, int64_t stride_a, const void *b,
                            int64_t ldb, int64_t stride_b, void *c, int64_t ldc, int64_t stride_c,
                            int64_t batch, void *stream)
{
    const int64_t lim = 0x7fffffff;
    if (m > lim || n > lim || k > lim || lda > lim || ldb > lim || ldc > lim || batch > lim)
        return gp_set_error(GP_ERR_UNSUPPORTED, "matrix too large for %s's int sizes",
                            GPU_BLAS_WHAT);
    gpuBlasHandle h = NULL;
    GP_TRY(blas_handle(stream, &h));
    int r, type, compute;
    /* alpha = 1 and beta = 0 in the compute type (complex: (1, 0), (0, 0)) */
    float f1[2] = {1.0f, 0.0f}, f0[2] = {0.0f, 0.0f};
    double d1[2] = {1.0, 0.0}, d0[2] = {0.0, 0.0};
    const void *alpha = f1, *beta = f0;
    switch (dtype) {
    case GP_FLOAT16: type = GPU_BLAS_R_16F, compute = GPU_BLAS_COMPUTE_32F; break;
    case GP_BFLOAT16: type = GPU_BLAS_R_16BF, compute = GPU_BLAS_COMPUTE_32F; break;
    case GP_FLOAT32: type = GPU_BLAS_R_32F, compute = GPU_BLAS_COMPUTE_32F; break;
    case GP_COMPLEX64: type = GPU_BLAS_C_32F, compute = GPU_BLAS_COMPUTE_C32F; break;
    case GP_FLOAT64: type = GPU_BLAS_R_64F, compute = GPU_BLAS_COMPUTE_64F; alpha = d1, beta = d0; break;
    case GP_COMPLEX128:
        type = GPU_BLAS_C_64F, compute = GPU_BLAS_COMPUTE_C64F;
        alpha = d1, beta = d0;
        break;
    default:
        return gp_set_error(GP_ERR_UNSUPPORTED, "%s has no product for %s", GPU_BLAS_WHAT,
                            gp_dtypes[dtype].name);
    }
    r = GPU_BLAS_GEMM(h, ta ? GPU_BLAS_OP_T : GPU_BLAS_OP_N, tb ? GPU_BLAS_OP_T : GPU_BLAS_OP_N,
                      (int)m, (int)n, (int)k, alpha, a, type, (int)lda, stride_a, b, (int)ldb,
                      stride_b, beta, c, (int)ldc, stride_c, (int)batch, compute);
    if (r != GPU_BLAS_SUCCESS)
        return gp_set_error(GP_ERR_BACKEND, "%s: the matrix product failed (status %d)",
                            GPU_BLAS_WHAT, r);
    return GP_OK;
}


#if GPU_BLAS_HAS_TRSM
gp_status_t GPU_SYM(trsm)(int32_t dtype, int32_t upper, int32_t unit, int64_t n, int64_t k,
                            const void *a, int64_t lda, void *b, int64_t ldb, int64_t batch,
                            void *stream)
{
    const int64_t lim = 0x7fffffff;
    if (n > lim || k > lim || lda > lim || ldb > lim || batch > lim)
        return gp_set_error(GP_ERR_UNSUPPORTED, "matrix too large for %s's int sizes",
                            GPU_BLAS_WHAT);
    gpuBlasHandle h = NULL;
    GP_TRY(blas_handle(stream, &h));
    int t = gpu_letter(dtype);
    if (!blas.Trsm[t] || !blas.TrsmBatched[t])
        return gp_set_error(GP_ERR_UNSUPPORTED, "%s has no triangular solve", GPU_BLAS_WHAT);
    /* alpha = 1 in A's type (a complex one's imaginary part 0) */
    static const float f1[2] = {1.0f, 0.0f};
    static const double d1[2] = {1.0, 0.0};
    const void *one = dtype == GP_FLOAT32 || dtype == GP_COMPLEX64 ? (const void *)f1
                                                                   : (const void *)d1;
    int fill = upper ? GPU_BLAS_FILL_UPPER : GPU_BLAS_FILL_LOWER;
    int diag = unit ? GPU_BLAS_DIAG_UNIT : GPU_BLAS_DIAG_NON_UNIT;
    int r = batch == 1 ? blas.Trsm[t](h, GPU_BLAS_SIDE_LEFT, fill, GPU_BLAS_OP_N, diag, (int)n,
                                      (int)k, one, a, (int)lda, b, (int)ldb)
                       : blas.TrsmBatched[t](h, GPU_BLAS_SIDE_LEFT, fill, GPU_BLAS_OP_N, diag,
                                             (int)n, (int)k, one, (const void *const *)a,
                                             (int)lda, (void *const *)b, (int)ldb, (int)batch);
    if (r != GPU_BLAS_SUCCESS)
        return gp_set_error(GP_ERR_BACKEND, "%s: a triangular solve failed (status %d)",
                            GPU_BLAS_WHAT, r);
    return GP_OK;
}
#endif
