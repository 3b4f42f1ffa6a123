/*
 * vendor/sparse.c - the GPU backend's sparse library (cuSPARSE's generic
 * API): products of a CSR matrix and a dense row-major matrix (SpMM) or a
 * vector (SpMV), and of two CSR matrices (SpGEMM); and a sparse direct
 * solve (cuSOLVER's sparse QR, beside cuSPARSE as its descriptor is).
 * Compiled once per vendor (gpu.h); the HIP header names no sparse library
 * yet (hipSPARSE is not wired: docs/hip.md), so there the slot stays NULL
 * and the engine's generated kernels run.
 */
#include <stdio.h>

#include "../gpu.h"

#ifdef GPU_SPARSE_API
static struct {
#define X(name, params, syms) int (*name) params;
    GPU_SPARSE_API(X)
#undef X
} sparse;

static gp_vendor_lib_t sparse_lib = {PTHREAD_ONCE_INIT};

static void load_sparse(void)
{
    static const char *const sonames[] = GPU_SPARSE_SONAMES;
#define X(name, params, syms) syms "\0", /* gp_dl_symbol: an empty name ends the list */
    static const char *const syms[] = {GPU_SPARSE_API(X)};
#undef X
#define X(name, params, syms) (void **)&sparse.name,
    void **slots[] = {GPU_SPARSE_API(X)};
#undef X
    gp_vendor_load(&sparse_lib, GPU_SPARSE_WHAT, sonames, GPU_DL_VENDOR, syms, slots,
                   (int)(sizeof syms / sizeof *syms));
}

static gp_status_t sparse_fail(int r, const char *what)
{
    return gp_set_error(r == GPU_SPARSE_ALLOC_FAILED ? GP_ERR_NOMEM_DEVICE
                        : r == GPU_SPARSE_NOT_SUPPORTED ? GP_ERR_UNSUPPORTED
                                                        : GP_ERR_BACKEND,
                        "%s: %s failed (status %d)", GPU_SPARSE_WHAT, what, r);
}

/* One handle per thread and device: a handle is not shared by threads. */
static _Thread_local gpuSparseHandle sparse_handles[GPU_MAX_DEVICES];

/* The current device's handle, bound to `stream`. */
static gp_status_t sparse_handle(void *stream, gpuSparseHandle *h)
{
    GP_TRY(gp_vendor_ready(&sparse_lib, load_sparse));
    GP_TRY(GPU_SYM(ctx_current)());
    int d = gp_current_device();
    int r;
    if (!sparse_handles[d] && (r = sparse.Create(&sparse_handles[d])) != GPU_SPARSE_SUCCESS)
        return sparse_fail(r, "creating a handle");
    if ((r = sparse.SetStream(sparse_handles[d], (gpuStream)stream)) != GPU_SPARSE_SUCCESS)
        return sparse_fail(r, "setting the stream");
    *h = sparse_handles[d];
    return GP_OK;
}

static int value_type(int32_t dtype)
{
    switch (dtype) {
    case GP_FLOAT32: return GPU_BLAS_R_32F;
    case GP_FLOAT64: return GPU_BLAS_R_64F;
    case GP_COMPLEX64: return GPU_BLAS_C_32F;
    default: return GPU_BLAS_C_64F;
    }
}

/* 1 and 0 in the value type (complex: (1, 0) and (0, 0)): alpha and beta */
static void one_zero(int32_t dtype, const void **one, const void **zero)
{
    static const float f1[2] = {1.0f, 0.0f}, f0[2] = {0.0f, 0.0f};
    static const double d1[2] = {1.0, 0.0}, d0[2] = {0.0, 0.0};
    bool single = dtype == GP_FLOAT32 || dtype == GP_COMPLEX64;
    *one = single ? (const void *)f1 : d1;
    *zero = single ? (const void *)f0 : d0;
}

gp_status_t GPU_SYM(csr_mm)(const gp_csr_mm_t *c, gp_work_alloc_fn alloc, void *ctx,
                              void *stream)
{
    /* 32-bit indices address at most 2^31 - 1 stored elements */
    if (c->idx_dtype == GP_INT32 && c->nnz > 0x7fffffff)
        return gp_set_error(GP_ERR_UNSUPPORTED, "%s: too many elements for int32 indices",
                            GPU_SPARSE_WHAT);
    gpuSparseHandle h = NULL;
    GP_TRY(sparse_handle(stream, &h));
    int vt = value_type(c->dtype);
    int it = c->idx_dtype == GP_INT32 ? GPU_SPARSE_INDEX_32I : GPU_SPARSE_INDEX_64I;
    const void *alpha, *beta;
    one_zero(c->dtype, &alpha, &beta);
    gpuSpMat a = NULL;
    gpuDnMat x = NULL, y = NULL;
    gpuDnVec xv = NULL, yv = NULL;
    int r = sparse.CreateCsr(&a, c->rows, c->cols, c->nnz, (void *)c->indptr,
                             (void *)c->indices, (void *)c->data, it, it, GPU_SPARSE_BASE_ZERO,
                             vt);
    const char *what = "describing the sparse matrix";
    if (r == GPU_SPARSE_SUCCESS) {
        what = "describing the dense operands";
        if (c->k == 0) {
            r = sparse.CreateDnVec(&xv, c->cols, (void *)c->x, vt);
            if (r == GPU_SPARSE_SUCCESS)
                r = sparse.CreateDnVec(&yv, c->rows, c->y, vt);
        } else {
            r = sparse.CreateDnMat(&x, c->cols, c->k, c->k, (void *)c->x, vt,
                                   GPU_SPARSE_ORDER_ROW);
            if (r == GPU_SPARSE_SUCCESS)
                r = sparse.CreateDnMat(&y, c->rows, c->k, c->k, c->y, vt, GPU_SPARSE_ORDER_ROW);
        }
    }
    size_t bytes = 0;
    if (r == GPU_SPARSE_SUCCESS) {
        what = "sizing the workspace";
        r = c->k == 0 ? sparse.SpMVSize(h, GPU_SPARSE_OP_N, alpha, a, xv, beta, yv, vt,
                                        GPU_SPARSE_SPMV_DEFAULT, &bytes)
                      : sparse.SpMMSize(h, GPU_SPARSE_OP_N, GPU_SPARSE_OP_N, alpha, a, x, beta, y,
                                        vt, GPU_SPARSE_SPMM_DEFAULT, &bytes);
    }
    gp_status_t st = GP_OK;
    void *work = NULL;
    if (r == GPU_SPARSE_SUCCESS && bytes)
        st = alloc(ctx, bytes, &work);
    if (r == GPU_SPARSE_SUCCESS && st == GP_OK) {
        what = c->k == 0 ? "SpMV" : "SpMM";
        r = c->k == 0 ? sparse.SpMV(h, GPU_SPARSE_OP_N, alpha, a, xv, beta, yv, vt,
                                    GPU_SPARSE_SPMV_DEFAULT, work)
                      : sparse.SpMM(h, GPU_SPARSE_OP_N, GPU_SPARSE_OP_N, alpha, a, x, beta, y, vt,
                                    GPU_SPARSE_SPMM_DEFAULT, work);
    }
    if (r != GPU_SPARSE_SUCCESS && st == GP_OK)
        st = sparse_fail(r, what);
    if (yv)
        sparse.DestroyDnVec(yv);
    if (xv)
        sparse.DestroyDnVec(xv);
    if (y)
        sparse.DestroyDnMat(y);
    if (x)
        sparse.DestroyDnMat(x);
    if (a)
        sparse.DestroySpMat(a);
    return st;
}

/* SpGEMM in cuSPARSE's phases: the work estimate and the product, each
 * asking its workspace size first, then C's size, its arrays, and the copy
 * into them. The library describes C by the engine's indptr. */
gp_status_t GPU_SYM(csr_spgemm)(gp_csr_spgemm_t *c, gp_work_alloc_fn alloc, void *ctx,
                                void *stream)
{
    if (c->idx_dtype == GP_INT32 && (c->a_nnz > 0x7fffffff || c->b_nnz > 0x7fffffff))
        return gp_set_error(GP_ERR_UNSUPPORTED, "%s: too many elements for int32 indices",
                            GPU_SPARSE_WHAT);
    gpuSparseHandle h = NULL;
    GP_TRY(sparse_handle(stream, &h));
    int vt = value_type(c->dtype);
    int it = c->idx_dtype == GP_INT32 ? GPU_SPARSE_INDEX_32I : GPU_SPARSE_INDEX_64I;
    const void *one, *zero;
    one_zero(c->dtype, &one, &zero);
    gpuSpMat a = NULL, b = NULL, m = NULL;
    gpuSpGEMM g = NULL;
    const char *what = "describing the matrices";
    int r = sparse.CreateCsr(&a, c->rows, c->inner, c->a_nnz, (void *)c->a_indptr,
                             (void *)c->a_indices, (void *)c->a_data, it, it,
                             GPU_SPARSE_BASE_ZERO, vt);
    if (r == GPU_SPARSE_SUCCESS)
        r = sparse.CreateCsr(&b, c->inner, c->cols, c->b_nnz, (void *)c->b_indptr,
                             (void *)c->b_indices, (void *)c->b_data, it, it,
                             GPU_SPARSE_BASE_ZERO, vt);
    if (r == GPU_SPARSE_SUCCESS)
        r = sparse.CreateCsr(&m, c->rows, c->cols, 0, c->c_indptr, NULL, NULL, it, it,
                             GPU_SPARSE_BASE_ZERO, vt);
    if (r == GPU_SPARSE_SUCCESS)
        r = sparse.SpGEMMCreate(&g);
#define SPGEMM_ARGS h, GPU_SPARSE_OP_N, GPU_SPARSE_OP_N, one, a, b, zero, m, vt, \
                    GPU_SPARSE_SPGEMM_DEFAULT, g
    gp_status_t st = GP_OK;
    size_t bytes1 = 0, bytes2 = 0;
    void *work1 = NULL, *work2 = NULL;
    if (r == GPU_SPARSE_SUCCESS) {
        what = "estimating the work";
        r = sparse.SpGEMMWork(SPGEMM_ARGS, &bytes1, NULL);
    }
    if (r == GPU_SPARSE_SUCCESS)
        st = alloc(ctx, bytes1, &work1);
    if (r == GPU_SPARSE_SUCCESS && st == GP_OK)
        r = sparse.SpGEMMWork(SPGEMM_ARGS, &bytes1, work1);
    bool estimated = r == GPU_SPARSE_SUCCESS;
    if (r == GPU_SPARSE_SUCCESS && st == GP_OK) {
        what = "computing the product";
        r = sparse.SpGEMMCompute(SPGEMM_ARGS, &bytes2, NULL);
    }
    if (r == GPU_SPARSE_SUCCESS && st == GP_OK)
        st = alloc(ctx, bytes2, &work2);
    if (r == GPU_SPARSE_SUCCESS && st == GP_OK)
        r = sparse.SpGEMMCompute(SPGEMM_ARGS, &bytes2, work2);
    int64_t rows = 0, cols = 0, nnz = 0;
    if (r == GPU_SPARSE_SUCCESS && st == GP_OK) {
        what = "sizing the product";
        r = sparse.SpMatGetSize(m, &rows, &cols, &nnz);
    }
    if (r == GPU_SPARSE_SUCCESS && st == GP_OK)
        st = alloc(ctx, (size_t)nnz * (size_t)gp_dtype_size(c->idx_dtype), &c->c_indices);
    if (r == GPU_SPARSE_SUCCESS && st == GP_OK)
        st = alloc(ctx, (size_t)nnz * (size_t)gp_dtype_size(c->dtype), &c->c_data);
    if (r == GPU_SPARSE_SUCCESS && st == GP_OK) {
        what = "copying the product";
        r = sparse.CsrSetPointers(m, c->c_indptr, c->c_indices, c->c_data);
        if (r == GPU_SPARSE_SUCCESS)
            r = sparse.SpGEMMCopy(SPGEMM_ARGS);
    }
#undef SPGEMM_ARGS
    if (r == GPU_SPARSE_SUCCESS && st == GP_OK)
        c->c_nnz = nnz;
    /* past the library's memory (its default algorithm's limit), or int64
     * indices refused before any work (cuSPARSE does int64 SpGEMM from CUDA
     * 13 on; which status an older one gives is not documented): the kernels */
    if (st == GP_OK && (r == GPU_SPARSE_INSUFFICIENT_RESOURCES ||
                        (r != GPU_SPARSE_SUCCESS && !estimated && c->idx_dtype == GP_INT64)))
        st = gp_set_error(GP_ERR_UNSUPPORTED, "%s: %s declined (status %d)", GPU_SPARSE_WHAT,
                          what, r);
    else if (r != GPU_SPARSE_SUCCESS && st == GP_OK)
        st = sparse_fail(r, what);
    if (g)
        sparse.SpGEMMDestroy(g);
    if (m)
        sparse.DestroySpMat(m);
    if (b)
        sparse.DestroySpMat(b);
    if (a)
        sparse.DestroySpMat(a);
    return st;
}
#endif

#ifdef GPU_SPSOLVER_API
static struct {
#define X(name, params, syms) int (*name) params;
    GPU_SPSOLVER_API(X)
#undef X
} spsolver;

static gp_vendor_lib_t spsolver_lib = {PTHREAD_ONCE_INIT};

static void load_spsolver(void)
{
    static const char *const sonames[] = GPU_SOLVER_SONAMES;
#define X(name, params, syms) syms "\0", /* gp_dl_symbol: an empty name ends the list */
    static const char *const syms[] = {GPU_SPSOLVER_API(X)};
#undef X
#define X(name, params, syms) (void **)&spsolver.name,
    void **slots[] = {GPU_SPSOLVER_API(X)};
#undef X
    gp_vendor_load(&spsolver_lib, GPU_SPSOLVER_WHAT, sonames, GPU_DL_VENDOR, syms, slots,
                   (int)(sizeof syms / sizeof *syms));
}

static _Thread_local gpuSpSolverHandle spsolver_handles[GPU_MAX_DEVICES];

/* A QR solve by cusolverSp (it waits for the device: the singularity comes
 * back to the host). A cuSOLVER without the sparse API (a later CUDA may
 * drop it) declines, and the engine takes its other road. */
gp_status_t GPU_SYM(csr_solve)(gp_csr_solve_t *c, void *stream)
{
    if (c->n > 0x7fffffff || c->nnz > 0x7fffffff)
        return gp_set_error(GP_ERR_UNSUPPORTED, "%s: too many rows or elements for its int",
                            GPU_SPSOLVER_WHAT);
    pthread_once(&spsolver_lib.once, load_spsolver);
    if (spsolver_lib.status != GP_OK)
        return gp_set_error(GP_ERR_UNSUPPORTED, "%s", spsolver_lib.problem);
    GP_TRY(gp_vendor_ready(&sparse_lib, load_sparse));
    GP_TRY(GPU_SYM(ctx_current)());
    int d = gp_current_device();
    int r;
    if (!spsolver_handles[d] && (r = spsolver.Create(&spsolver_handles[d])) != 0)
        return gp_set_error(r == 2 ? GP_ERR_NOMEM_DEVICE : GP_ERR_BACKEND,
                            "%s: creating a handle failed (status %d)", GPU_SPSOLVER_WHAT, r);
    gpuSpSolverHandle h = spsolver_handles[d];
    if ((r = spsolver.SetStream(h, (gpuStream)stream)) != 0)
        return gp_set_error(GP_ERR_BACKEND, "%s: setting the stream failed (status %d)",
                            GPU_SPSOLVER_WHAT, r);
    gpuMatDescr descr = NULL;
    if ((r = sparse.CreateMatDescr(&descr)) != GPU_SPARSE_SUCCESS)
        return sparse_fail(r, "describing the matrix");
    int n = (int)c->n, nnz = (int)c->nnz, singular = -1;
    const int *ptr = c->indptr, *ind = c->indices;
    /* tolerance 0: only an exactly zero diagonal of R is singular, as a zero
     * pivot is SuperLU's; reordering 1 (symrcm) to limit the fill-in */
    switch (c->dtype) {
    case GP_FLOAT32:
        r = spsolver.LsvqrS(h, n, nnz, descr, c->data, ptr, ind, c->b, 0.0f, 1, c->x, &singular);
        break;
    case GP_FLOAT64:
        r = spsolver.LsvqrD(h, n, nnz, descr, c->data, ptr, ind, c->b, 0.0, 1, c->x, &singular);
        break;
    case GP_COMPLEX64:
        r = spsolver.LsvqrC(h, n, nnz, descr, c->data, ptr, ind, c->b, 0.0f, 1, c->x, &singular);
        break;
    default:
        r = spsolver.LsvqrZ(h, n, nnz, descr, c->data, ptr, ind, c->b, 0.0, 1, c->x, &singular);
        break;
    }
    sparse.DestroyMatDescr(descr);
    if (r != 0)
        return gp_set_error(r == 2 ? GP_ERR_NOMEM_DEVICE : GP_ERR_BACKEND,
                            "%s: csrlsvqr failed (status %d)", GPU_SPSOLVER_WHAT, r);
    c->singular = singular;
    return GP_OK;
}
#endif
