/*
 * test_getrs.c - the engine's getrs (solver.c): the pivots' row
 * interchanges by its generated kernel, then two triangular solves, on the
 * host.
 *
 * The host backend has no solvers, so the engine is driven through
 * gp_solver_run_on with a model backend: the host's vtable plus a trsm
 * slot that solves on the host, in double precision, as cuBLAS's would
 * (one matrix, or arrays of matrix pointers for a batch). The expected
 * solution applies LAPACK's interchanges to B one swap after another and
 * then the same model solves, so the engine's result must match it exactly.
 */
#include <complex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/kernels.h"
#include "gp_test.h"
#include "gp_test_elems.h"

typedef double complex cplx;

static gp_backend_i model;
static int trsm_calls;

/* One triangular solve from the left, column-major, computed in double. */
static void solve_one(int32_t dt, int upper, int unit, int64_t n, int64_t k, const void *a,
                      int64_t lda, void *b, int64_t ldb)
{
    for (int64_t j = 0; j < k; ++j)
        for (int64_t s = 0; s < n; ++s) {
            int64_t i = upper ? n - 1 - s : s;
            cplx v = elem_load(b, dt, i + j * ldb);
            for (int64_t t = 0; t < s; ++t) {
                int64_t r = upper ? n - 1 - t : t;
                v -= elem_load(a, dt, i + r * lda) * elem_load(b, dt, r + j * ldb);
            }
            elem_store(b, dt, i + j * ldb, unit ? v : v / elem_load(a, dt, i + i * lda));
        }
}

static gp_status_t model_trsm(int32_t dt, int32_t upper, int32_t unit, int64_t n, int64_t k,
                              const void *a, int64_t lda, void *b, int64_t ldb, int64_t batch,
                              void *stream)
{
    ++trsm_calls;
    /* the host backend's kernels run on the stream's thread */
    GP_TRY(model.stream_synchronize(stream));
    if (batch == 1) {
        solve_one(dt, upper, unit, n, k, a, lda, b, ldb);
        return GP_OK;
    }
    for (int64_t m = 0; m < batch; ++m)
        solve_one(dt, upper, unit, n, k, ((void *const *)a)[m], lda, ((void *const *)b)[m], ldb);
    return GP_OK;
}

static gp_status_t model_solver(const gp_solver_call_t *c, void *stream)
{
    (void)c, (void)stream;
    return gp_set_error(GP_ERR_UNSUPPORTED, "the model has only the engine's getrs");
}

static gp_status_t model_workspace(const gp_solver_call_t *c, size_t *dev, size_t *host)
{
    (void)c;
    *dev = *host = 0;
    return GP_OK;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static double uniform(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static gp_array_t *matrices(int32_t dt, int64_t batch, int64_t rows, int64_t cols)
{
    /* a batch of column-major matrices: C order (batch, cols, rows) */
    int64_t shape[3] = {batch, cols, rows};
    gp_array_t *a = NULL, *t = NULL;
    if (!CHECK_OK(gp_array_empty(dt, 3, shape, GP_ORDER_C, &t)))
        return NULL;
    int32_t axes[3] = {0, 2, 1};
    CHECK_OK(gp_array_transpose(t, 3, axes, &a));
    gp_array_release(t);
    return a;
}

static void *data(const gp_array_t *a) { return (void *)(uintptr_t)data_of(a); }

/* One case: LU factors (partial pivoting, LAPACK's 1-based pivots) of a
 * random matrix for each of `batch`, a random B, the engine's getrs
 * against the interchanges and model solves done here. */
static void check_case(int32_t dt, int64_t n, int64_t k, int64_t batch)
{
    bool cx = dt == GP_COMPLEX64 || dt == GP_COMPLEX128;
    int64_t es = gp_dtype_size(dt);
    gp_array_t *f = matrices(dt, batch, n, n), *b = matrices(dt, batch, n, k), *ipiv = NULL,
               *info = NULL;
    int64_t ishape[2] = {batch, n};
    CHECK_OK(gp_array_empty(GP_INT64, 2, ishape, GP_ORDER_C, &ipiv));
    CHECK_OK(gp_array_empty(GP_INT32, 1, &batch, GP_ORDER_C, &info));
    if (!f || !b || !ipiv || !info)
        goto done;
    char *fd = data(f), *bd = data(b);
    int64_t *pd = data(ipiv);
    char *want = malloc((size_t)(batch * n * k * es));
    for (int64_t m = 0; m < batch; ++m) {
        char *a = fd + m * n * n * es;
        for (int64_t e = 0; e < n * n; ++e)
            elem_store(a, dt, e, uniform() + (cx ? I * uniform() : 0));
        for (int64_t j = 0; j < n; ++j) { /* LU in place, in the dtype's precision */
            int64_t p = j;
            for (int64_t i = j + 1; i < n; ++i)
                if (cabs(elem_load(a, dt, i + j * n)) > cabs(elem_load(a, dt, p + j * n)))
                    p = i;
            pd[m * n + j] = p + 1;
            for (int64_t c = 0; c < n; ++c) {
                cplx t = elem_load(a, dt, j + c * n);
                elem_store(a, dt, j + c * n, elem_load(a, dt, p + c * n));
                elem_store(a, dt, p + c * n, t);
            }
            for (int64_t i = j + 1; i < n; ++i) {
                cplx l = elem_load(a, dt, i + j * n) / elem_load(a, dt, j + j * n);
                elem_store(a, dt, i + j * n, l);
                for (int64_t c = j + 1; c < n; ++c)
                    elem_store(a, dt, i + c * n,
                               elem_load(a, dt, i + c * n) - l * elem_load(a, dt, j + c * n));
            }
        }
        char *bm = bd + m * n * k * es, *w = want + m * n * k * es;
        for (int64_t e = 0; e < n * k; ++e)
            elem_store(bm, dt, e, uniform() + (cx ? I * uniform() : 0));
        memcpy(w, bm, (size_t)(n * k * es));
        for (int64_t i = 0; i < n; ++i) /* LAPACK's laswp */
            for (int64_t c = 0; c < k; ++c) {
                int64_t p = pd[m * n + i] - 1;
                cplx t = elem_load(w, dt, i + c * n);
                elem_store(w, dt, i + c * n, elem_load(w, dt, p + c * n));
                elem_store(w, dt, p + c * n, t);
            }
        solve_one(dt, 0, 1, n, k, a, n, w, n);
        solve_one(dt, 1, 0, n, k, a, n, w, n);
    }
    memset(data(info), 0xff, (size_t)batch * sizeof(int32_t));
    gp_array_t *args[4] = {f, ipiv, b, info};
    int calls = trsm_calls;
    if (CHECK_OK(gp_solver_run_on(&model, GP_SOLVER_GETRS, 0, 4, args))) {
        CHECK_EQ(trsm_calls - calls, 2);
        int bad = 0;
        for (int64_t e = 0; e < batch * n * k; ++e)
            bad += elem_load(bd, dt, e) != elem_load(want, dt, e);
        if (!CHECK_EQ(bad, 0))
            fprintf(stderr, "    %s n=%lld k=%lld batch=%lld\n", gp_dtypes[dt].name,
                    (long long)n, (long long)k, (long long)batch);
        for (int64_t m = 0; m < batch; ++m)
            CHECK_EQ(((int32_t *)data(info))[m], 0);
    }
    free(want);
done:
    gp_array_release(f);
    gp_array_release(b);
    gp_array_release(ipiv);
    gp_array_release(info);
}

static void test_interchanges_and_solves(void)
{
    static const int32_t dts[] = {GP_FLOAT32, GP_FLOAT64, GP_COMPLEX64, GP_COMPLEX128};
    static const int64_t cases[][3] = {{1, 1, 1}, {2, 3, 1}, {5, 1, 3}, {37, 9, 2},
                                       {64, 8, 1}, {70, 17, 1}, {257, 2, 1}, {16, 16, 4}};
    for (int d = 0; d < NELEMS(dts); ++d)
        for (int c = 0; c < NELEMS(cases); ++c)
            check_case(dts[d], cases[c][0], cases[c][1], cases[c][2]);
}

/* A transposed solve is not the engine's: it goes to the library (here the
 * model's solver slot, which refuses). */
static void test_transposed_goes_to_library(void)
{
    gp_array_t *f = matrices(GP_FLOAT64, 1, 3, 3), *b = matrices(GP_FLOAT64, 1, 3, 1);
    gp_array_t *ipiv = NULL, *info = NULL;
    int64_t ishape[2] = {1, 3}, one = 1;
    CHECK_OK(gp_array_zeros(GP_INT64, 2, ishape, GP_ORDER_C, &ipiv));
    CHECK_OK(gp_array_empty(GP_INT32, 1, &one, GP_ORDER_C, &info));
    gp_array_t *args[4] = {f, ipiv, b, info};
    int calls = trsm_calls;
    CHECK_ERROR(gp_solver_run_on(&model, GP_SOLVER_GETRS, GP_SOLVER_TRANS_T, 4, args),
                GP_ERR_UNSUPPORTED, "the model has only the engine's getrs");
    CHECK_EQ(trsm_calls, calls);
    gp_array_release(f);
    gp_array_release(b);
    gp_array_release(ipiv);
    gp_array_release(info);
}

int main(void)
{
    if (gp_test_init()) {
        const gp_backend_i *host;
        if (CHECK_OK(gp_backend(&host))) {
            model = *host;
            model.solver_workspace = model_workspace;
            model.solver = model_solver;
            model.trsm = model_trsm;
            RUN(test_interchanges_and_solves);
            RUN(test_transposed_goes_to_library);
        }
    }
    return check_summary("test_getrs");
}
