/*
 * test_sparse.c - the CSR products of gp_sparse.h on the host: the
 * generated kernels against sums written out here, and the road through a
 * sparse library (cuSPARSE's on CUDA) with a model backend: the host's
 * vtable plus a csr_mm slot that computes from the raw pointers, counts its
 * calls and takes workspace as cuSPARSE does. That road converts operands
 * to one dtype, checks the indices before the library sees them, and falls
 * back to the kernels where the library declines.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../scipy/scipy.h"
#include "gp_test.h"

/* ---- the model of the sparse library ---------------------------------------------- */

static int mm_calls, mm_decline;
static int32_t mm_dtype;

static gp_status_t model_csr_mm(const gp_csr_mm_t *c, gp_work_alloc_fn alloc, void *ctx,
                                void *stream)
{
    (void)stream;
    ++mm_calls;
    mm_dtype = c->dtype;
    if (mm_decline)
        return gp_set_error(GP_ERR_UNSUPPORTED, "model: declined");
    if (c->dtype != GP_FLOAT64 || c->idx_dtype != GP_INT32)
        return gp_set_error(GP_ERR_MISUSE, "model: computes float64 with int32 indices only");
    void *work = NULL;
    GP_TRY(alloc(ctx, 256, &work));
    memset(work, 0xff, 256); /* the workspace is the model's to scribble on */
    const int32_t *ptr = c->indptr, *ind = c->indices;
    const double *a = c->data, *x = c->x;
    double *y = c->y;
    int64_t k = c->k ? c->k : 1; /* k = 0: vectors */
    for (int64_t r = 0; r < c->rows; ++r)
        for (int64_t j = 0; j < k; ++j) {
            double s = 0;
            for (int32_t e = ptr[r]; e < ptr[r + 1]; ++e)
                s += a[e] * x[ind[e] * k + j];
            y[r * k + j] = s;
        }
    return GP_OK;
}

static gp_backend_i model;

/* ---- operands ------------------------------------------------------------------------ */

/* 3 x 4:  [[1, 0, 2, 0], [0, 0, 0, 0], [3, 4, 0, 5]], row 2 stored unsorted
 * with a repeat (4 = 1 + 3 at column 1). */
static const int32_t PTR[] = {0, 2, 2, 7};
static const int32_t IND[] = {2, 0, 3, 1, 0, 1, 3};
static const double VAL[] = {2, 1, 2.5, 1, 3, 3, 2.5};
static const double WANT_MV[] = {1 * 1 + 2 * 3, 0, 3 * 1 + 4 * 2 + 5 * 4}; /* x = 1, 2, 3, 4 */

static gp_array_t *host_array(const void *src, int32_t dtype, int32_t ndim, const int64_t *shape)
{
    int64_t n = 1;
    for (int32_t d = 0; d < ndim; ++d)
        n *= shape[d];
    gp_array_t *a = NULL;
    CHECK_OK(gp_array_from_host(src, n * gp_dtype_size(dtype), dtype, ndim, shape, NULL, &a));
    return a;
}

typedef struct {
    gp_array_t *ptr, *ind, *val;
} csr_t;

static csr_t make_csr(int32_t val_dtype)
{
    int64_t n4 = 4, n7 = 7;
    csr_t m = {host_array(PTR, GP_INT32, 1, &n4), host_array(IND, GP_INT32, 1, &n7), NULL};
    gp_array_t *v = host_array(VAL, GP_FLOAT64, 1, &n7);
    if (v && val_dtype != GP_FLOAT64) {
        CHECK_OK(gp_array_astype(v, val_dtype, 'C', GP_CASTING_UNSAFE, &m.val));
        gp_array_release(v);
    } else {
        m.val = v;
    }
    return m;
}

static void free_csr(csr_t *m)
{
    gp_array_release(m->ptr);
    gp_array_release(m->ind);
    gp_array_release(m->val);
}

/* x = 1, 2, 3, 4 as a column (k = 1) of `dtype` */
static gp_array_t *make_x(int32_t dtype, int32_t ndim)
{
    const double x[] = {1, 2, 3, 4};
    int64_t shape[2] = {4, 1};
    gp_array_t *d = host_array(x, GP_FLOAT64, ndim, shape), *out = NULL;
    if (d)
        CHECK_OK(gp_array_astype(d, dtype, 'C', GP_CASTING_UNSAFE, &out));
    gp_array_release(d);
    return out;
}

static int values_f64(gp_array_t *a, const double *want, int64_t n)
{
    double got[8] = {0};
    if (!CHECK_EQ(a->dtype, GP_FLOAT64) || !CHECK_EQ(a->size, n) ||
        !CHECK_OK(gp_array_to_host(a, got, n * 8, 'C')))
        return 0;
    int ok = 1;
    for (int64_t i = 0; i < n; ++i)
        ok &= CHECK(got[i] == want[i]);
    return ok;
}

/* ---- tests ------------------------------------------------------------------------------- */

static void test_kernels(void)
{
    csr_t m = make_csr(GP_FLOAT64);
    gp_array_t *x1 = make_x(GP_FLOAT64, 1), *y = NULL;
    if (CHECK_OK(gp_csr_matmul(3, 4, m.ptr, m.ind, m.val, x1, &y)))
        values_f64(y, WANT_MV, 3);
    gp_array_release(y);
    /* int32 data and float32 x: float64 (NumPy's result_type) */
    csr_t mi = make_csr(GP_INT32);
    gp_array_t *xf = make_x(GP_FLOAT32, 1);
    y = NULL;
    if (CHECK_OK(gp_csr_matmul(3, 4, mi.ptr, mi.ind, mi.val, xf, &y))) {
        const double want[] = {1 * 1 + 2 * 3, 0, 3 * 1 + 4 * 2 + 4 * 4}; /* 2.5 -> 2 */
        values_f64(y, want, 3);
    }
    gp_array_release(y);
    gp_array_release(xf);
    free_csr(&mi);
    gp_array_release(x1);
    free_csr(&m);
}

static void test_library_road(void)
{
    csr_t m = make_csr(GP_FLOAT64);
    gp_array_t *x2 = make_x(GP_FLOAT64, 2), *y = NULL;
    mm_calls = 0;
    if (CHECK_OK(gp_csr_matmul_on(&model, 3, 4, m.ptr, m.ind, m.val, x2, &y)))
        values_f64(y, WANT_MV, 3);
    CHECK_EQ(mm_calls, 1);
    gp_array_release(y);
    /* float32 data with float64 x: the library gets both as float64 */
    csr_t mf = make_csr(GP_FLOAT32);
    y = NULL;
    if (CHECK_OK(gp_csr_matmul_on(&model, 3, 4, mf.ptr, mf.ind, mf.val, x2, &y)))
        values_f64(y, WANT_MV, 3);
    CHECK_EQ(mm_calls, 2);
    CHECK_EQ(mm_dtype, GP_FLOAT64);
    gp_array_release(y);
    free_csr(&mf);
    /* integers never reach it; a vector neither (the engine's vector kernel) */
    csr_t mi = make_csr(GP_INT64);
    gp_array_t *xi = make_x(GP_INT64, 2), *x1 = make_x(GP_FLOAT64, 1);
    y = NULL;
    CHECK_OK(gp_csr_matmul_on(&model, 3, 4, mi.ptr, mi.ind, mi.val, xi, &y));
    gp_array_release(y);
    y = NULL;
    CHECK_OK(gp_csr_matmul_on(&model, 3, 4, m.ptr, m.ind, m.val, x1, &y));
    gp_array_release(y);
    CHECK_EQ(mm_calls, 2);
    /* ... unless GPUNP_TUNE_SPMV_VENDOR=1 says so (set here in the knobs) */
    gp_tuning_t *knobs = (gp_tuning_t *)gp_tuning();
    knobs->spmv_vendor = 1;
    y = NULL;
    if (CHECK_OK(gp_csr_matmul_on(&model, 3, 4, m.ptr, m.ind, m.val, x1, &y)))
        values_f64(y, WANT_MV, 3);
    CHECK_EQ(mm_calls, 3);
    knobs->spmv_vendor = 0;
    gp_array_release(y);
    /* nor a matrix with nothing stored (its arrays may have no memory) */
    const int32_t zp[] = {0, 0, 0, 0};
    int64_t n4 = 4, n0 = 0;
    gp_array_t *zptr = host_array(zp, GP_INT32, 1, &n4), *zind = NULL, *zval = NULL;
    CHECK_OK(gp_array_empty(GP_INT32, 1, &n0, GP_ORDER_C, &zind));
    CHECK_OK(gp_array_empty(GP_FLOAT64, 1, &n0, GP_ORDER_C, &zval));
    y = NULL;
    if (CHECK_OK(gp_csr_matmul_on(&model, 3, 4, zptr, zind, zval, x2, &y))) {
        const double zeros[] = {0, 0, 0};
        values_f64(y, zeros, 3);
    }
    CHECK_EQ(mm_calls, 3);
    gp_array_release(y);
    gp_array_release(zptr);
    gp_array_release(zind);
    gp_array_release(zval);
    /* nor one with more stored elements than it holds (repeats): cuSPARSE
     * refuses to describe it (CUSPARSE_STATUS_INVALID_VALUE) */
    const int32_t rp[] = {0, 3}, ri[] = {0, 0, 0};
    const double rv[] = {1, 2, 4};
    int64_t n2 = 2, n3 = 3, xs[2] = {1, 2};
    const double xr[] = {1, 10};
    gp_array_t *rptr = host_array(rp, GP_INT32, 1, &n2), *rind = host_array(ri, GP_INT32, 1, &n3),
               *rval = host_array(rv, GP_FLOAT64, 1, &n3), *xrep = host_array(xr, GP_FLOAT64, 2, xs);
    y = NULL;
    if (CHECK_OK(gp_csr_matmul_on(&model, 1, 1, rptr, rind, rval, xrep, &y))) {
        const double want[] = {7, 70};
        values_f64(y, want, 2);
    }
    CHECK_EQ(mm_calls, 3);
    gp_array_release(y);
    gp_array_release(rptr);
    gp_array_release(rind);
    gp_array_release(rval);
    gp_array_release(xrep);
    /* a library that declines leaves the work to the kernels */
    mm_decline = 1;
    y = NULL;
    if (CHECK_OK(gp_csr_matmul_on(&model, 3, 4, m.ptr, m.ind, m.val, x2, &y)))
        values_f64(y, WANT_MV, 3);
    CHECK_EQ(mm_calls, 4);
    mm_decline = 0;
    gp_array_release(y);
    /* a column out of range is found before the library reads it */
    const int32_t bad[] = {2, 0, 3, 1, 0, 9, 3};
    int64_t n7 = 7;
    gp_array_t *bad_ind = host_array(bad, GP_INT32, 1, &n7);
    y = NULL;
    CHECK_ERROR(gp_csr_matmul_on(&model, 3, 4, m.ptr, bad_ind, m.val, x2, &y), GP_ERR_INDEX,
                "index 9 is out of bounds for axis 1 with size 4");
    CHECK(y == NULL);
    CHECK_EQ(mm_calls, 4);
    gp_array_release(bad_ind);
    gp_array_release(xi);
    gp_array_release(x1);
    free_csr(&mi);
    gp_array_release(x2);
    free_csr(&m);
}

static void test_spgemm(void)
{
    /* A (3 x 4) @ A^T written as CSR (4 x 3): row 2 is unsorted with a repeat */
    csr_t a = make_csr(GP_FLOAT64);
    const int32_t tp[] = {0, 2, 3, 4, 5}, ti[] = {2, 0, 2, 0, 2};
    const double tv[] = {3, 1, 4, 2, 5};
    int64_t n5 = 5;
    gp_array_t *bp = host_array(tp, GP_INT32, 1, &n5), *bi = host_array(ti, GP_INT32, 1, &n5),
               *bv = host_array(tv, GP_FLOAT64, 1, &n5);
    gp_array_t *cp = NULL, *ci = NULL, *cv = NULL;
    if (CHECK_OK(gp_csr_spgemm(3, 4, a.ptr, a.ind, a.val, 4, 3, bp, bi, bv, &cp, &ci, &cv))) {
        /* [[1, 0, 2, 0], [0...], [3, 4, 0, 5]] @ [[1, 0, 3], [0, 0, 4], [2, 0, 0], [0, 0, 5]] */
        int32_t ptr[4] = {0}, ind[4] = {0};
        const double want[] = {5, 3, 3, 9 + 16 + 25};
        CHECK_EQ(cp->dtype, GP_INT32);
        CHECK_OK(gp_array_to_host(cp, ptr, sizeof ptr, 'C'));
        CHECK_OK(gp_array_to_host(ci, ind, sizeof ind, 'C'));
        CHECK(ptr[0] == 0 && ptr[1] == 2 && ptr[2] == 2 && ptr[3] == 4);
        CHECK(ind[0] == 0 && ind[1] == 2 && ind[2] == 0 && ind[3] == 2);
        values_f64(cv, want, 4);
    }
    gp_array_release(cp);
    gp_array_release(ci);
    gp_array_release(cv);
    /* mismatched inner sizes */
    cp = ci = cv = NULL;
    CHECK_ERROR(gp_csr_spgemm(3, 4, a.ptr, a.ind, a.val, 3, 4, a.ptr, a.ind, a.val, &cp, &ci,
                              &cv), GP_ERR_VALUE,
                "gp_csr_spgemm: dimension mismatch: A is 3 x 4, B 3 x 4");
    CHECK(cp == NULL && ci == NULL && cv == NULL);
    gp_array_release(bp);
    gp_array_release(bi);
    gp_array_release(bv);
    free_csr(&a);
}

int main(void)
{
    if (gp_test_init()) {
        const gp_backend_i *host;
        if (CHECK_OK(gp_backend(&host))) {
            model = *host;
            model.csr_mm = model_csr_mm;
            RUN(test_kernels);
            RUN(test_library_road);
            RUN(test_spgemm);
        }
    }
    return check_summary("test_sparse");
}
