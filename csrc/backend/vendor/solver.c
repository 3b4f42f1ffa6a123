/*
 * vendor/solver.c - the GPU backend's dense solvers (cuSOLVER): each routine
 * of gp_solver_call_t, its workspace and its batched and Jacobi forms. Compiled once per
 * vendor (gpu.h).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "../gpu.h"

#if GPU_HAS_SOLVER
static struct {
#define X(name, params, syms) int (*name) params;
    GPU_SOLVER_API(X)
    GPU_SOLVER_OPTIONAL_API(X)
#undef X
#define T(name, params, ...) int (*name[4]) params; /* S, D, C, Z */
    GPU_SOLVER_TYPED_API(T)
#undef T
    int (*CreateGesvdjInfo)(gpuGesvdjInfo *);
    int (*CreateSyevjInfo)(gpuSyevjInfo *);
} sol;

static gp_vendor_lib_t sol_lib = {PTHREAD_ONCE_INIT};

static void load_solver(void)
{
    static const char *const sonames[] = GPU_SOLVER_SONAMES;
#define X(name, params, syms) syms,
    static const char *const syms[] = {GPU_SOLVER_API(X)};
#undef X
#define X(name, params, syms) (void **)&sol.name,
    void **slots[] = {GPU_SOLVER_API(X)};
#undef X
    void *lib = gp_vendor_load(&sol_lib, GPU_SOLVER_WHAT, sonames, GPU_DL_VENDOR, syms, slots,
                               (int)(sizeof syms / sizeof *syms));
    if (!lib)
        return;
#define X(name, params, syms) *(void **)&sol.name = gp_dl_symbol(lib, syms "\0");
    GPU_SOLVER_OPTIONAL_API(X)
#undef X
#define T(name, params, ...)                                          \
    {                                                                 \
        static const char *const names[4] = {__VA_ARGS__};            \
        for (int k = 0; k < 4; ++k)                                   \
            *(void **)&sol.name[k] = dlsym(lib, names[k]);            \
    }
    GPU_SOLVER_TYPED_API(T)
#undef T
    *(void **)&sol.CreateGesvdjInfo = dlsym(lib, GPU_SOLVER_CREATE_GESVDJ_INFO);
    *(void **)&sol.CreateSyevjInfo = dlsym(lib, GPU_SOLVER_CREATE_SYEVJ_INFO);
}

/* the Jacobi routines' batch counts are ints: larger batches take several
 * calls, each of at most jacobi_count(c) matrices */
#define JACOBI_MAX_BATCH ((int64_t)1 << 30)
#define jacobi_count(c) ((int)((c)->batch < JACOBI_MAX_BATCH ? (c)->batch : JACOBI_MAX_BATCH))

/* One handle (and its default parameters) per thread and device, as BLAS's. */
static _Thread_local gpuSolverHandle sol_handles[GPU_MAX_DEVICES];
static _Thread_local gpuSolverParams sol_params[GPU_MAX_DEVICES];

static gp_status_t sol_fail(const char *what, int r)
{
    return gp_set_error(GP_ERR_BACKEND, "%s: %s failed (status %d)", GPU_SOLVER_WHAT, what, r);
}

/* The current device's handle, bound to `stream`. */
static gp_status_t sol_handle(void *stream, gpuSolverHandle *h, gpuSolverParams *p)
{
    GP_TRY(gp_vendor_ready(&sol_lib, load_solver));
    GP_TRY(GPU_SYM(ctx_current)());
    int d = gp_current_device();
    int r;
    if (!sol_handles[d]) {
        if ((r = sol.Create(&sol_handles[d])) != GPU_SOLVER_SUCCESS)
            return sol_fail("creating a handle", r);
        if ((r = sol.CreateParams(&sol_params[d])) != GPU_SOLVER_SUCCESS)
            return sol_fail("creating its parameters", r);
    }
    if ((r = sol.SetStream(sol_handles[d], (gpuStream)stream)) != GPU_SOLVER_SUCCESS)
        return sol_fail("setting the stream", r);
    *h = sol_handles[d];
    *p = sol_params[d];
    return GP_OK;
}

bool GPU_SYM(solver_has)(int32_t routine)
{
    pthread_once(&sol_lib.once, load_solver);
    if (sol_lib.status != GP_OK)
        return true; /* the call reports the missing library */
    if (routine == GP_SOLVER_GEEV)
        return sol.GeevSize && sol.Geev;
    bool all = true;
    if (routine == GP_SOLVER_GESVDJ) {
        all = sol.CreateGesvdjInfo != NULL;
        for (int k = 0; k < 4; ++k)
            all = all && sol.GesvdjSize[k] && sol.Gesvdj[k] && sol.GesvdjBatchedSize[k] &&
                  sol.GesvdjBatched[k];
    } else if (routine == GP_SOLVER_SYEVJ) {
        all = sol.CreateSyevjInfo != NULL;
        for (int k = 0; k < 4; ++k)
            all = all && sol.SyevjBatchedSize[k] && sol.SyevjBatched[k];
    }
    return all;
}

/* The Jacobi routines' parameter objects (the library's defaults: machine
 * precision, 100 sweeps, sorted values: syevj's ascending, as syevd's), one
 * of each per thread and device as the handles, made at first use. */
static _Thread_local gpuGesvdjInfo gesvdj_info[GPU_MAX_DEVICES];
static _Thread_local gpuSyevjInfo syevj_info[GPU_MAX_DEVICES];

static gp_status_t sol_jacobi_info(int32_t routine, gpuGesvdjInfo *gi, gpuSyevjInfo *si)
{
    int d = gp_current_device();
    int r = GPU_SOLVER_SUCCESS;
    if (routine == GP_SOLVER_GESVDJ && !gesvdj_info[d])
        r = sol.CreateGesvdjInfo(&gesvdj_info[d]);
    else if (routine == GP_SOLVER_SYEVJ && !syevj_info[d])
        r = sol.CreateSyevjInfo(&syevj_info[d]);
    if (r != GPU_SOLVER_SUCCESS)
        return sol_fail("creating a Jacobi routine's parameters", r);
    *gi = gesvdj_info[d];
    *si = syevj_info[d];
    return GP_OK;
}

/* A GESVDJ call that runs as one batched call: small matrices, with full
 * U and V (the only shape gesvdjBatched gives). */
static bool gesvdj_batched(const gp_solver_call_t *c)
{
    return c->batch > 1 && c->m <= 32 && c->n <= 32 && (c->flags & GP_SOLVER_FULL);
}

static int sol_econ(const gp_solver_call_t *c) { return !(c->flags & GP_SOLVER_FULL); }

/* gesvdj always computes U and V: asked for the values alone, with no U
 * and V, it failed on the H200 (CUSOLVER_STATUS_EXECUTION_FAILED, then an
 * illegal address) */
#define GESVDJ_JOBZ GPU_SOLVER_EIG_VECTOR

/* The library's type codes: A's, its real counterpart's and its complex one's. */
static void sol_types(int32_t dtype, int *t, int *real, int *cplx)
{
    bool single = dtype == GP_FLOAT32 || dtype == GP_COMPLEX64;
    *real = single ? GPU_BLAS_R_32F : GPU_BLAS_R_64F;
    *cplx = single ? GPU_BLAS_C_32F : GPU_BLAS_C_64F;
    *t = gp_dtype_kind(dtype) == GP_KIND_COMPLEX ? *cplx : *real;
}

static int sol_uplo(const gp_solver_call_t *c)
{
    return c->flags & GP_SOLVER_UPPER ? GPU_SOLVER_FILL_UPPER : GPU_SOLVER_FILL_LOWER;
}

static int sol_jobz(const gp_solver_call_t *c)
{
    return c->flags & GP_SOLVER_VECTORS ? GPU_SOLVER_EIG_VECTOR : GPU_SOLVER_EIG_NOVECTOR;
}

static signed char sol_jobu(const gp_solver_call_t *c)
{
    return !(c->flags & GP_SOLVER_VECTORS) ? 'N' : c->flags & GP_SOLVER_FULL ? 'A' : 'S';
}

/* orgqr/ungqr by A's dtype (the 32-bit API: sizes must fit an int) */
static int (*const *orgqr_size(int32_t dt))(gpuSolverHandle, int, int, int, const void *, int,
                                            const void *, int *)
{
    switch (dt) {
    case GP_FLOAT32: return &sol.OrgqrSizeS;
    case GP_FLOAT64: return &sol.OrgqrSizeD;
    case GP_COMPLEX64: return &sol.OrgqrSizeC;
    default: return &sol.OrgqrSizeZ;
    }
}

static int (*const *orgqr_fn(int32_t dt))(gpuSolverHandle, int, int, int, void *, int,
                                          const void *, void *, int, int *)
{
    switch (dt) {
    case GP_FLOAT32: return &sol.OrgqrS;
    case GP_FLOAT64: return &sol.OrgqrD;
    case GP_COMPLEX64: return &sol.OrgqrC;
    default: return &sol.OrgqrZ;
    }
}

gp_status_t GPU_SYM(solver_workspace)(const gp_solver_call_t *c, size_t *dev, size_t *host)
{
    gpuSolverHandle h;
    gpuSolverParams p;
    GP_TRY(sol_handle(NULL, &h, &p));
    int t, rt, ct;
    sol_types(c->dtype, &t, &rt, &ct);
    int64_t m = c->m, n = c->n;
    char *const *a = c->ptr;
    int r = GPU_SOLVER_SUCCESS;
    *dev = *host = 0;
    switch (c->routine) {
    case GP_SOLVER_GETRF: r = sol.GetrfSize(h, p, n, n, t, a[0], n, t, dev, host); break;
    case GP_SOLVER_GETRS: break; /* no workspace */
    case GP_SOLVER_POTRF: r = sol.PotrfSize(h, p, sol_uplo(c), n, t, a[0], n, t, dev, host); break;
    case GP_SOLVER_GEQRF: r = sol.GeqrfSize(h, p, m, n, t, a[0], m, t, a[1], t, dev, host); break;
    case GP_SOLVER_ORGQR: {
        if (m > 0x7fffffff || n > 0x7fffffff)
            return gp_set_error(GP_ERR_UNSUPPORTED, "%s's orgqr takes int sizes",
                                GPU_SOLVER_WHAT);
        int lwork = 0;
        r = (*orgqr_size(c->dtype))(h, (int)m, (int)n, (int)c->k, a[0], (int)m, a[1], &lwork);
        *dev = (size_t)lwork * (size_t)gp_dtype_size(c->dtype);
        break;
    }
    case GP_SOLVER_SYEVD:
        r = sol.SyevdSize(h, p, sol_jobz(c), sol_uplo(c), n, t, a[0], n, rt, a[1], t, dev, host);
        break;
    case GP_SOLVER_GESVD:
        r = sol.GesvdSize(h, p, sol_jobu(c), sol_jobu(c) == 'N' ? 'N' : 'S', m, n, t, a[0], m,
                          rt, a[1], t, a[2], m, t, a[3], n, t, dev, host);
        break;
    case GP_SOLVER_GEEV:
        r = sol.GeevSize(h, p, GPU_SOLVER_EIG_NOVECTOR, sol_jobz(c), n, t, a[0], n, ct, a[1], t,
                         NULL, 1, t, a[2], n, t, dev, host);
        break;
    case GP_SOLVER_GESVDJ: {
        if (m * n > 0x7fffffff) /* its sizes and workspace are ints */
            return gp_set_error(GP_ERR_UNSUPPORTED, "%s's gesvdj takes matrices of fewer "
                                                    "than 2^31 elements", GPU_SOLVER_WHAT);
        gpuGesvdjInfo gi;
        gpuSyevjInfo si;
        GP_TRY(sol_jacobi_info(c->routine, &gi, &si));
        int k = gpu_letter(c->dtype), lwork = 0;
        if (gesvdj_batched(c))
            r = sol.GesvdjBatchedSize[k](h, GESVDJ_JOBZ, (int)m, (int)n, a[0], (int)m, a[1], a[2],
                                         (int)m, a[3], (int)n, &lwork, gi, jacobi_count(c));
        else
            r = sol.GesvdjSize[k](h, GESVDJ_JOBZ, sol_econ(c), (int)m, (int)n, a[0], (int)m, a[1],
                                  a[2], (int)m, a[3], (int)n, &lwork, gi);
        *dev = (size_t)lwork * (size_t)gp_dtype_size(c->dtype);
        break;
    }
    case GP_SOLVER_SYEVJ: {
        gpuGesvdjInfo gi;
        gpuSyevjInfo si;
        GP_TRY(sol_jacobi_info(c->routine, &gi, &si));
        int lwork = 0;
        r = sol.SyevjBatchedSize[gpu_letter(c->dtype)](
            h, sol_jobz(c), sol_uplo(c), (int)n, a[0], (int)n, a[1], &lwork, si, jacobi_count(c));
        *dev = (size_t)lwork * (size_t)gp_dtype_size(c->dtype);
        break;
    }
    default: return gp_set_error(GP_ERR_VALUE, "unknown solver routine %d", c->routine);
    }
    if (r != GPU_SOLVER_SUCCESS)
        return sol_fail("the workspace query", r);
    return GP_OK;
}

/* A batched Jacobi routine (gesvdjBatched, syevjBatched) over the whole
 * batch, in calls of at most JACOBI_MAX_BATCH matrices; the workspace was
 * sized for one such call. */
static gp_status_t jacobi_run_batched(const gp_solver_call_t *c, gpuSolverHandle h)
{
    gpuGesvdjInfo gi;
    gpuSyevjInfo si;
    GP_TRY(sol_jacobi_info(c->routine, &gi, &si));
    int k = gpu_letter(c->dtype), m = (int)c->m, n = (int)c->n;
    int lwork = (int)(c->work_bytes / (size_t)gp_dtype_size(c->dtype));
    for (int64_t b = 0; b < c->batch; b += JACOBI_MAX_BATCH) {
        int count = (int)(c->batch - b < JACOBI_MAX_BATCH ? c->batch - b : JACOBI_MAX_BATCH);
        char *a[GP_SOLVER_MAXARGS];
        for (int32_t i = 0; i < c->nargs; ++i)
            a[i] = c->ptr[i] ? c->ptr[i] + b * c->bstride[i] : NULL;
        int *info = (int *)a[c->nargs - 1];
        int r = c->routine == GP_SOLVER_GESVDJ
                    ? sol.GesvdjBatched[k](h, GESVDJ_JOBZ, m, n, a[0], m, a[1], a[2], m, a[3], n,
                                           c->work, lwork, info, gi, count)
                    : sol.SyevjBatched[k](h, sol_jobz(c), sol_uplo(c), n, a[0], n, a[1],
                                          c->work, lwork, info, si, count);
        if (r != GPU_SOLVER_SUCCESS)
            return sol_fail("a batched factorization", r);
    }
    return GP_OK;
}

gp_status_t GPU_SYM(solver)(const gp_solver_call_t *c, void *stream)
{
    gpuSolverHandle h;
    gpuSolverParams p;
    GP_TRY(sol_handle(stream, &h, &p));
    int t, rt, ct;
    sol_types(c->dtype, &t, &rt, &ct);
    int64_t m = c->m, n = c->n;
    void *dw = c->work, *hw = c->host_work;
    size_t db = c->work_bytes, hb = c->host_work_bytes;
    int trans = c->flags & GP_SOLVER_TRANS_C ? GPU_SOLVER_OP_C
                : c->flags & GP_SOLVER_TRANS_T ? GPU_SOLVER_OP_T : GPU_SOLVER_OP_N;
    signed char jobu = sol_jobu(c), jobvt = jobu == 'N' ? 'N' : 'S';
    if ((c->routine == GP_SOLVER_GESVDJ && gesvdj_batched(c)) || c->routine == GP_SOLVER_SYEVJ)
        return jacobi_run_batched(c, h);
    gpuGesvdjInfo gi = NULL;
    gpuSyevjInfo si = NULL;
    if (c->routine == GP_SOLVER_GESVDJ)
        GP_TRY(sol_jacobi_info(c->routine, &gi, &si));
    /* otherwise the batch is a loop of single-matrix calls, each with its
     * info word; one workspace serves them all, as they run in order on the
     * stream */
    for (int64_t b = 0; b < c->batch; ++b) {
        char *a[GP_SOLVER_MAXARGS];
        for (int32_t i = 0; i < c->nargs; ++i)
            a[i] = c->ptr[i] ? c->ptr[i] + b * c->bstride[i] : NULL;
        int *info = (int *)a[c->nargs - 1];
        int r;
        switch (c->routine) {
        case GP_SOLVER_GETRF:
            r = sol.Getrf(h, p, n, n, t, a[0], n, (int64_t *)a[1], t, dw, db, hw, hb, info);
            break;
        case GP_SOLVER_GETRS:
            r = sol.Getrs(h, p, trans, n, c->k, t, a[0], n, (const int64_t *)a[1], t, a[2], n,
                          info);
            break;
        case GP_SOLVER_POTRF:
            r = sol.Potrf(h, p, sol_uplo(c), n, t, a[0], n, t, dw, db, hw, hb, info);
            break;
        case GP_SOLVER_GEQRF:
            r = sol.Geqrf(h, p, m, n, t, a[0], m, t, a[1], t, dw, db, hw, hb, info);
            break;
        case GP_SOLVER_ORGQR:
            r = (*orgqr_fn(c->dtype))(h, (int)m, (int)n, (int)c->k, a[0], (int)m, a[1], dw,
                                      (int)(db / (size_t)gp_dtype_size(c->dtype)), info);
            break;
        case GP_SOLVER_SYEVD:
            r = sol.Syevd(h, p, sol_jobz(c), sol_uplo(c), n, t, a[0], n, rt, a[1], t, dw, db, hw,
                          hb, info);
            break;
        case GP_SOLVER_GESVD:
            /* u is m x m ('A') or m x n ('S'); vt is n x n either way (m >= n) */
            r = sol.Gesvd(h, p, jobu, jobvt, m, n, t, a[0], m, rt, a[1], t, a[2], m, t, a[3], n,
                          t, dw, db, hw, hb, info);
            break;
        case GP_SOLVER_GEEV:
            r = sol.Geev(h, p, GPU_SOLVER_EIG_NOVECTOR, sol_jobz(c), n, t, a[0], n, ct, a[1], t,
                         NULL, 1, t, a[2], n, t, dw, db, hw, hb, info);
            break;
        case GP_SOLVER_GESVDJ:
            r = sol.Gesvdj[gpu_letter(c->dtype)](h, GESVDJ_JOBZ, sol_econ(c), (int)m, (int)n,
                                                  a[0], (int)m, a[1], a[2], (int)m, a[3], (int)n,
                                                  dw, (int)(db / (size_t)gp_dtype_size(c->dtype)),
                                                  info, gi);
            break;
        default: return gp_set_error(GP_ERR_VALUE, "unknown solver routine %d", c->routine);
        }
        if (r != GPU_SOLVER_SUCCESS)
            return sol_fail("a factorization", r);
    }
    return GP_OK;
}

#endif /* GPU_HAS_SOLVER */
