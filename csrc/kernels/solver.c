/*
 * solver.c - dense factorizations (gp_linalg.h): the vendor-neutral routine
 * table, the checks of the arguments' shapes, dtypes and layouts, and the
 * workspace, which comes from the engine's pool; the backend's solver slot
 * (cuSOLVER on CUDA, csrc/backend/vendor/solver.c) does the work.
 *
 * The routines take column-major matrices because LAPACK and cuSOLVER do.
 * The Python layer (gpunp/linalg/) copies each input into that layout once,
 * which it must do anyway since every routine overwrites its input, so no
 * routine here needs a transpose flag for C-ordered data.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

enum arg_kind { MAT, VEC, INFO };
/* an argument's dtype relative to A's */
enum arg_type { SAME, REAL, COMPLEX, INT64, INT32 };

typedef struct {
    uint8_t kind, type, optional; /* optional: NULL without GP_SOLVER_VECTORS */
} solver_arg_t;

typedef struct {
    const char *name;
    int32_t nargs;
    solver_arg_t arg[GP_SOLVER_MAXARGS];
    const char *what;
} solver_row_t;

static const solver_row_t routines[GP_SOLVER_COUNT] = {
    [GP_SOLVER_GETRF] = {"getrf", 3, {{MAT, SAME}, {VEC, INT64}, {INFO, INT32}},
                         "LU factorization with partial pivoting"},
    [GP_SOLVER_GETRS] = {"getrs", 4, {{MAT, SAME}, {VEC, INT64}, {MAT, SAME}, {INFO, INT32}},
                         "solution of A X = B from the LU factors"},
    [GP_SOLVER_POTRF] = {"potrf", 2, {{MAT, SAME}, {INFO, INT32}}, "Cholesky factorization"},
    [GP_SOLVER_GEQRF] = {"geqrf", 3, {{MAT, SAME}, {VEC, SAME}, {INFO, INT32}},
                         "Householder QR factorization"},
    [GP_SOLVER_ORGQR] = {"orgqr", 3, {{MAT, SAME}, {VEC, SAME}, {INFO, INT32}},
                         "Q from Householder reflectors"},
    [GP_SOLVER_SYEVD] = {"syevd", 3, {{MAT, SAME}, {VEC, REAL}, {INFO, INT32}},
                         "eigen decomposition of a symmetric or Hermitian matrix"},
    [GP_SOLVER_GESVD] = {"gesvd", 5,
                         {{MAT, SAME}, {VEC, REAL}, {MAT, SAME, 1}, {MAT, SAME, 1},
                          {INFO, INT32}},
                         "singular value decomposition"},
    [GP_SOLVER_GEEV] = {"geev", 4, {{MAT, SAME}, {VEC, COMPLEX}, {MAT, SAME, 1}, {INFO, INT32}},
                        "eigen decomposition of a general matrix"},
    [GP_SOLVER_GESVDJ] = {"gesvdj", 5,
                          {{MAT, SAME}, {VEC, REAL}, {MAT, SAME}, {MAT, SAME}, {INFO, INT32}},
                          "singular value decomposition by Jacobi rotations"},
    [GP_SOLVER_SYEVJ] = {"syevj", 3, {{MAT, SAME}, {VEC, REAL}, {INFO, INT32}},
                         "eigen decomposition of small symmetric or Hermitian matrices by "
                         "Jacobi rotations"},
};

static int32_t arg_dtype(int32_t type, int32_t a)
{
    bool single = a == GP_FLOAT32 || a == GP_COMPLEX64;
    switch (type) {
    case REAL: return single ? GP_FLOAT32 : GP_FLOAT64;
    case COMPLEX: return single ? GP_COMPLEX64 : GP_COMPLEX128;
    case INT64: return GP_INT64;
    case INT32: return GP_INT32;
    default: return a;
    }
}

/* The argument's batch dims, matrix dims and bytes between matrices;
 * GP_ERR_VALUE when its layout is not the one gp_linalg.h prescribes. */
static gp_status_t arg_layout(const solver_row_t *r, int32_t i, const gp_array_t *x,
                              int32_t *nbatch, int64_t *rows, int64_t *cols, int64_t *bstride)
{
    int32_t core = r->arg[i].kind == MAT ? 2 : r->arg[i].kind == VEC ? 1 : 0;
    if (x->ndim < core)
        return gp_set_error(GP_ERR_VALUE, "gp_solver_run: %s argument %d needs %d dims", r->name,
                            i, core);
    int64_t e = gp_dtype_size(x->dtype);
    *nbatch = x->ndim - core;
    *rows = core ? x->shape[*nbatch] : 1;
    *cols = core == 2 ? x->shape[x->ndim - 1] : 1;
    bool ok = true;
    if (x->size > 0 && core == 2) {
        ok = (*rows == 1 || x->strides[x->ndim - 2] == e) &&
             (*cols == 1 || x->strides[x->ndim - 1] == *rows * e);
    }
    int64_t st = *rows * *cols * e;
    *bstride = st;
    for (int32_t d = *nbatch - 1; d >= 0 && x->size > 0; --d) {
        ok = ok && (x->shape[d] == 1 || x->strides[d] == st);
        st *= x->shape[d];
    }
    if (!ok)
        return gp_set_error(GP_ERR_VALUE, "gp_solver_run: %s argument %d is not a batch of %s",
                            r->name, i,
                            core == 2 ? "column-major matrices" : "contiguous vectors");
    return GP_OK;
}

/* The call's dimensions from its arguments' shapes, checked as the routine
 * requires. rows[i], cols[i] are argument i's. */
static gp_status_t call_dims(int32_t routine, int32_t flags, const int64_t *rows,
                             const int64_t *cols, gp_solver_call_t *c)
{
    const char *name = routines[routine].name;
    int64_t m = rows[0], n = cols[0];
    c->m = m, c->n = n, c->k = 0;
    bool ok = true, square = routine != GP_SOLVER_GEQRF && routine != GP_SOLVER_ORGQR &&
                            routine != GP_SOLVER_GESVD && routine != GP_SOLVER_GESVDJ;
    if (square && m != n)
        return gp_set_error(GP_ERR_VALUE, "gp_solver_run: %s needs square matrices", name);
    switch (routine) {
    case GP_SOLVER_GETRF: ok = rows[1] == n; break;
    case GP_SOLVER_GETRS:
        ok = rows[1] == n && rows[2] == n;
        c->k = cols[2];
        break;
    case GP_SOLVER_POTRF: break;
    case GP_SOLVER_GEQRF: ok = rows[1] == (m < n ? m : n); break;
    case GP_SOLVER_ORGQR:
        ok = n <= m && rows[1] <= n;
        c->k = rows[1];
        break;
    case GP_SOLVER_SYEVD: ok = rows[1] == n; break;
    case GP_SOLVER_SYEVJ:
        if (n > 32)
            return gp_set_error(GP_ERR_VALUE, "gp_solver_run: syevj takes matrices up to "
                                              "32 x 32");
        ok = rows[1] == n;
        break;
    case GP_SOLVER_GESVD:
        ok = m >= n && rows[1] == n;
        if (flags & GP_SOLVER_VECTORS)
            ok = ok && rows[2] == m && cols[2] == (flags & GP_SOLVER_FULL ? m : n) &&
                 rows[3] == n && cols[3] == n;
        break;
    case GP_SOLVER_GESVDJ: {
        int64_t k = m < n ? m : n;
        bool full = flags & GP_SOLVER_FULL;
        ok = rows[1] == k && rows[2] == m && cols[2] == (full ? m : k) && rows[3] == n &&
             cols[3] == (full ? n : k);
        break;
    }
    case GP_SOLVER_GEEV:
        ok = rows[1] == n;
        if (flags & GP_SOLVER_VECTORS)
            ok = ok && rows[2] == n && cols[2] == n;
        break;
    }
    if (!ok)
        return gp_set_error(GP_ERR_VALUE, "gp_solver_run: the arguments of %s have mismatched "
                                          "sizes", name);
    return GP_OK;
}

static gp_status_t check_call(int32_t routine, int32_t flags, int32_t nargs,
                              gp_array_t *const *args, gp_solver_call_t *c)
{
    if (routine < 0 || routine >= GP_SOLVER_COUNT)
        return gp_set_error(GP_ERR_VALUE, "gp_solver_run: unknown routine %d", routine);
    const solver_row_t *r = &routines[routine];
    if (nargs != r->nargs || !args)
        return gp_set_error(GP_ERR_MISUSE, "gp_solver_run: %s takes %d arguments", r->name,
                            r->nargs);
    bool vectors = flags & GP_SOLVER_VECTORS;
    memset(c, 0, sizeof *c);
    c->routine = routine, c->flags = flags, c->nargs = nargs;
    if (!args[0])
        return gp_set_error(GP_ERR_MISUSE, "gp_solver_run: %s's matrix is NULL", r->name);
    GP_CHECK_ARRAY(args[0]);
    int32_t dt = args[0]->dtype;
    if (dt != GP_FLOAT32 && dt != GP_FLOAT64 && dt != GP_COMPLEX64 && dt != GP_COMPLEX128)
        return gp_set_error(GP_ERR_TYPE, "gp_solver_run: %s has no routine for %s", r->name,
                            gp_dtypes[dt].name);
    c->dtype = dt;
    int64_t rows[GP_SOLVER_MAXARGS] = {0}, cols[GP_SOLVER_MAXARGS] = {0};
    int32_t nbatch0 = 0;
    const int64_t *bshape0 = args[0]->shape;
    for (int32_t i = 0; i < nargs; ++i) {
        const gp_array_t *x = args[i];
        if (!x) {
            if (r->arg[i].optional && !vectors)
                continue;
            return gp_set_error(GP_ERR_MISUSE, "gp_solver_run: %s argument %d is NULL", r->name,
                                i);
        }
        GP_CHECK_ARRAY(x);
        int32_t want = arg_dtype(r->arg[i].type, dt);
        if (x->dtype != want)
            return gp_set_error(GP_ERR_TYPE, "gp_solver_run: %s argument %d must be %s, not %s",
                                r->name, i, gp_dtypes[want].name, gp_dtypes[x->dtype].name);
        if (r->arg[i].kind != MAT && x->size > 0 && !(x->flags & GP_FLAG_C_CONTIGUOUS))
            return gp_set_error(GP_ERR_VALUE, "gp_solver_run: %s argument %d is not "
                                              "C-contiguous", r->name, i);
        if (!(x->flags & GP_FLAG_WRITEABLE))
            return gp_set_error(GP_ERR_VALUE, "gp_solver_run: %s argument %d is read-only",
                                r->name, i);
        int32_t nb = 0;
        GP_TRY(arg_layout(r, i, x, &nb, &rows[i], &cols[i], &c->bstride[i]));
        if (i == 0) {
            nbatch0 = nb;
            c->batch = gp_shape_size(nb, bshape0);
        } else if (nb != nbatch0 || memcmp(x->shape, bshape0, (size_t)nb * sizeof *bshape0)) {
            return gp_set_error(GP_ERR_VALUE, "gp_solver_run: the batch shapes of %s's "
                                              "arguments differ", r->name);
        }
        c->ptr[i] = gp_array_data(x);
    }
    return call_dims(routine, flags, rows, cols, c);
}

static gp_status_t no_solver(const gp_backend_i *be)
{
    return gp_set_error(GP_ERR_UNSUPPORTED, "the %s backend has no dense solvers%s", be->name,
                        strcmp(be->name, "hip") == 0
                            ? " yet: rocSOLVER is not wired (docs/hip.md)"
                            : " (gpunp.linalg computes through NumPy there)");
}

/* ---- getrs: the pivots' row interchanges, then two triangular solves ----------------- */

/* cuSOLVER's getrs took 1.18 ms for one right-hand side of order 4096 on the
 * H200, where the rows gathered by the pivots' permutation and two cuBLAS
 * trsm took 0.59 ms on the same factors (docs/performance.md): the engine
 * does the interchanges itself where the backend has a trsm. A block takes a
 * matrix's GETRS_COLS columns; its first thread composes the pivots into a
 * permutation in shared memory, one swap after another as LAPACK applies
 * them, then the block gathers its columns' rows into a staging copy in the
 * workspace and writes them back. The permutation holds up to
 * 2^GETRS_CAP_LOG2 rows; larger matrices take the library's getrs. */
#define GETRS_COLS 8
#define GETRS_CAP_LOG2 13

typedef struct {
    uint8_t family;   /* GP_FAMILY_SOLVER */
    uint8_t size;     /* bytes of an element: 4, 8, 16 */
    uint8_t cap_log2; /* the permutation's capacity, 2^cap_log2 rows */
} getrs_spec_t;

static gp_status_t gen_lu_rows(const void *spec, char *name, size_t name_size, gp_str_t *s)
{
    const getrs_spec_t *sp = spec;
    snprintf(name, name_size, "gpk_lu_rows_e%d_c%d", sp->size, sp->cap_log2);
    gp_str_printf(s, "/* LU row interchanges */\n"
                     "typedef struct { GPK_ALIGN(16) unsigned long long w[2]; } gpk_e16;\n"
                     "typedef %s gpk_e;\n",
                  sp->size == 4 ? "unsigned int" : sp->size == 8 ? "unsigned long long"
                                                                  : "gpk_e16");
    gp_str_puts(s, "struct gpk_params {\n  gpk_index n, k, blocks_per, blocks, a_stride, b_stride;\n"
                   "  const long long *ipiv;\n  char *a;\n  char *b;\n  char *work;\n"
                   "  char **aptr;\n  char **bptr;\n};\n");
    gp_str_printf(s, "GPK_KERNEL(%s, struct gpk_params)\n{\n  GPK_SHARED int perm[%d];\n", name,
                  1 << sp->cap_log2);
    /* a loop over the blocks, as the host runs one block for the grid */
    gp_str_printf(
        s,
        "for (gpk_index blk = GPK_BLOCK_ID; blk < p.blocks; blk += GPK_NUM_BLOCKS) {\n"
        "  const gpk_index m = blk / p.blocks_per, c0 = blk %% p.blocks_per * %d;\n"
        "  const gpk_index c1 = c0 + %d < p.k ? c0 + %d : p.k;\n"
        "  const long long *ip = p.ipiv + m * p.n;\n"
        "  GPK_SYNC();\n"
        "  for (gpk_index i = GPK_THREAD_ID; i < p.n; i += GPK_BLOCK_SIZE) perm[i] = (int)i;\n"
        "  GPK_SYNC();\n"
        "  if (GPK_THREAD_ID == 0) {\n"
        "#ifndef GPK_HOST\n#pragma unroll 8\n#endif\n"
        "    for (gpk_index i = 0; i < p.n; ++i) {\n"
        "      long long j = ip[i] - 1; /* LAPACK's rows count from 1 */\n"
        "      if (j < i || j >= p.n) j = i; /* not a pivot of getrf's */\n"
        "      const int t = perm[i];\n      perm[i] = perm[j];\n      perm[j] = t;\n    }\n"
        "    if (c0 == 0 && p.aptr) {\n"
        "      p.aptr[m] = p.a + m * p.a_stride;\n      p.bptr[m] = p.b + m * p.b_stride;\n"
        "    }\n  }\n  GPK_SYNC();\n"
        "  gpk_e *b = (gpk_e *)(p.b + m * p.b_stride), *w = (gpk_e *)(p.work + m * p.b_stride);\n"
        "  const gpk_index count = (c1 - c0) * p.n;\n"
        "  for (gpk_index e = GPK_THREAD_ID; e < count; e += GPK_BLOCK_SIZE) {\n"
        "    const gpk_index col = (c0 + e / p.n) * p.n, i = e %% p.n;\n"
        "    w[col + i] = b[col + perm[i]];\n  }\n  GPK_SYNC();\n"
        "  for (gpk_index e = GPK_THREAD_ID; e < count; e += GPK_BLOCK_SIZE) {\n"
        "    const gpk_index col = (c0 + e / p.n) * p.n, i = e %% p.n;\n"
        "    b[col + i] = w[col + i];\n  }\n}\n}\n",
        GETRS_COLS, GETRS_COLS, GETRS_COLS);
    return GP_OK;
}

/* Whether GETRS runs as gp_getrs does: no transpose, the backend's trsm, a
 * permutation that fits, a grid that fits. */
static bool getrs_own(const gp_backend_i *be, const gp_solver_call_t *c)
{
    int64_t blocks = c->batch * ((c->k + GETRS_COLS - 1) / GETRS_COLS);
    return be->trsm && !(c->flags & (GP_SOLVER_TRANS_T | GP_SOLVER_TRANS_C)) &&
           c->n <= ((int64_t)1 << GETRS_CAP_LOG2) && blocks <= 0x7fffffff;
}

/* GETRS as the row interchanges (gen_lu_rows) and the solves with L (unit
 * diagonal) and U. The workspace holds the staging copy of B and, for a
 * batch, the arrays of matrix pointers the batched trsm reads. */
static gp_status_t gp_getrs(const gp_backend_i *be, const gp_solver_call_t *c, void *stream)
{
    int64_t n = c->n, k = c->k, batch = c->batch;
    int64_t stage = (batch * c->bstride[2] + 15) / 16 * 16;
    int64_t bytes = stage + (batch > 1 ? 2 * batch * (int64_t)sizeof(void *) : 0);
    gp_array_t *ws = NULL;
    GP_TRY(gp_array_empty(GP_UINT8, 1, &bytes, GP_ORDER_C, &ws));
    char *work = gp_array_data(ws);
    char **aptr = batch > 1 ? (char **)(work + stage) : NULL, **bptr = aptr ? aptr + batch : NULL;

    getrs_spec_t sp = {GP_FAMILY_SOLVER, (uint8_t)gp_dtype_size(c->dtype), 8};
    while (((int64_t)1 << sp.cap_log2) < n)
        ++sp.cap_log2;
    const gp_kernel_t *kern;
    gp_status_t s = gp_kernel_get(&sp, sizeof sp, gen_lu_rows, &sp, &kern);
    if (s == GP_OK) {
        int64_t per = (k + GETRS_COLS - 1) / GETRS_COLS;
        gp_params_t p;
        gp_params_init(&p);
        gp_params_index(&p, n);
        gp_params_index(&p, k);
        gp_params_index(&p, per);
        gp_params_index(&p, batch * per);
        gp_params_index(&p, c->bstride[0]);
        gp_params_index(&p, c->bstride[2]);
        gp_params_ptr(&p, c->ptr[1]);
        gp_params_ptr(&p, c->ptr[0]);
        gp_params_ptr(&p, c->ptr[2]);
        gp_params_ptr(&p, work);
        gp_params_ptr(&p, aptr);
        gp_params_ptr(&p, bptr);
        gp_launch_t cfg = {(uint32_t)(batch * per), 256, 0};
        s = gp_launch(kern, &cfg, &p);
    }
    const void *a = aptr ? (const void *)aptr : c->ptr[0];
    void *b = bptr ? (void *)bptr : c->ptr[2];
    if (s == GP_OK)
        s = be->trsm(c->dtype, 0, 1, n, k, a, n, b, n, batch, stream);
    if (s == GP_OK)
        s = be->trsm(c->dtype, 1, 0, n, k, a, n, b, n, batch, stream);
    if (s == GP_OK) /* getrs's info is 0 but for bad arguments, which check_call refused */
        s = be->memset8(c->ptr[3], 0, (size_t)batch * sizeof(int32_t), stream);
    gp_array_release(ws); /* back to the pool ordered on the stream */
    return s;
}

GP_API gp_status_t gp_solver_available(int32_t routine, int32_t *out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_solver_available: out is NULL");
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    *out = routine >= 0 && routine < GP_SOLVER_COUNT && be->solver &&
           (!be->solver_has || be->solver_has(routine));
    return GP_OK;
}

GP_API gp_status_t gp_solver_run(int32_t routine, int32_t flags, int32_t nargs,
                                 gp_array_t *const *args)
{
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    return gp_solver_run_on(be, routine, flags, nargs, args);
}

gp_status_t gp_solver_run_on(const gp_backend_i *be, int32_t routine, int32_t flags,
                             int32_t nargs, gp_array_t *const *args)
{
    gp_solver_call_t c;
    GP_TRY(check_call(routine, flags, nargs, args, &c));
    if (!be->solver)
        return no_solver(be);
    if (be->solver_has && !be->solver_has(routine))
        return gp_set_error(GP_ERR_UNSUPPORTED, "the %s backend's solver library has no %s (%s)",
                            be->name, routines[routine].name, routines[routine].what);
    if (c.batch == 0)
        return GP_OK;
    void *stream = gp_current_stream();
    if (c.m == 0 || c.n == 0 || (routine == GP_SOLVER_GETRS && c.k == 0)) {
        /* an empty matrix, or no right-hand side, succeeds at once (LAPACK's
         * quick return; an empty array's data pointer may be NULL) */
        return be->memset8(c.ptr[nargs - 1], 0, (size_t)c.batch * sizeof(int32_t), stream);
    }
    if (routine == GP_SOLVER_GETRS && getrs_own(be, &c))
        return gp_getrs(be, &c, stream);
    size_t dev = 0, host = 0;
    GP_TRY(be->solver_workspace(&c, &dev, &host));
    gp_array_t *ws = NULL;
    if (dev) {
        int64_t n = (int64_t)dev;
        GP_TRY(gp_array_empty(GP_UINT8, 1, &n, GP_ORDER_C, &ws));
        c.work = gp_array_data(ws);
        c.work_bytes = dev;
    }
    if (host) {
        c.host_work = malloc(host);
        if (!c.host_work) {
            gp_array_release(ws);
            return gp_set_error(GP_ERR_NOMEM, "gp_solver_run: no host memory for %s's "
                                              "workspace of %zu bytes", routines[routine].name,
                                host);
        }
        c.host_work_bytes = host;
    }
    gp_status_t s = be->solver(&c, stream);
    /* the library may use the host workspace until the work is done */
    if (host && s == GP_OK)
        s = be->stream_synchronize(stream);
    free(c.host_work);
    /* the device workspace returns to the pool ordered on the stream */
    gp_array_release(ws);
    return s;
}
