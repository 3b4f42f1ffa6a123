/*
 * test_sparse.c - the CSR products of gp_sparse.h on the host: the
 * generated kernels against sums written out here, and the road through a
 * sparse library (cuSPARSE's on CUDA) with a model backend: the host's
 * vtable plus a csr_mm slot that computes from the raw pointers, counts its
 * calls and takes workspace as cuSPARSE does, and a csr_spgemm slot that
 * returns C unsorted with its cancelled zeros. That road converts operands
 * to one dtype, checks the indices before the library sees them, makes the
 * library's C canonical, and falls back to the kernels where the library
 * declines or the operands are not canonical.
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

/* SpGEMM as a library might give it: each row's columns in descending
 * order, every product stored (sums of exactly zero too); its workspace
 * and C's arrays from `alloc`. Index dtype int64 only when asked. */
static int gemm_calls, gemm_decline;
static int32_t gemm_idx;

static gp_status_t model_csr_spgemm(gp_csr_spgemm_t *c, gp_work_alloc_fn alloc, void *ctx,
                                    void *stream)
{
    (void)stream;
    ++gemm_calls;
    gemm_idx = c->idx_dtype;
    if (gemm_decline)
        return gp_set_error(GP_ERR_UNSUPPORTED, "model: declined");
    if ((c->dtype != GP_FLOAT64 && c->dtype != GP_COMPLEX128) || c->cols > 16)
        return gp_set_error(GP_ERR_MISUSE, "model: float64 or complex128, 16 columns at most");
    bool i64 = c->idx_dtype == GP_INT64;
    int w = c->dtype == GP_COMPLEX128 ? 2 : 1; /* doubles an element */
#define IDX(p, e) (i64 ? ((const int64_t *)(p))[e] : ((const int32_t *)(p))[e])
    const double *a = c->a_data, *b = c->b_data;
    double row[16][2];
    bool hit[16];
    void *work = NULL;
    GP_TRY(alloc(ctx, 64, &work));
    int64_t nnz = 0;
    for (int pass = 0; pass < 2; ++pass) { /* 0: count, 1: write */
        nnz = 0;
        for (int64_t r = 0; r < c->rows; ++r) {
            memset(hit, 0, sizeof hit);
            memset(row, 0, sizeof row);
            for (int64_t e = IDX(c->a_indptr, r); e < IDX(c->a_indptr, r + 1); ++e) {
                int64_t k = IDX(c->a_indices, e);
                for (int64_t t = IDX(c->b_indptr, k); t < IDX(c->b_indptr, k + 1); ++t) {
                    int64_t j = IDX(c->b_indices, t);
                    const double *x = a + w * e, *y = b + w * t;
                    row[j][0] += w == 1 ? x[0] * y[0] : x[0] * y[0] - x[1] * y[1];
                    row[j][1] += w == 1 ? 0 : x[0] * y[1] + x[1] * y[0];
                    hit[j] = true;
                }
            }
            for (int64_t j = c->cols - 1; j >= 0; --j) {
                if (!hit[j])
                    continue;
                if (pass) {
                    if (i64)
                        ((int64_t *)c->c_indices)[nnz] = j;
                    else
                        ((int32_t *)c->c_indices)[nnz] = (int32_t)j;
                    memcpy((double *)c->c_data + w * nnz, row[j], (size_t)w * 8);
                }
                ++nnz;
            }
            if (pass) {
                if (i64)
                    ((int64_t *)c->c_indptr)[r + 1] = nnz;
                else
                    ((int32_t *)c->c_indptr)[r + 1] = (int32_t)nnz;
            }
        }
        if (!pass) {
            GP_TRY(alloc(ctx, (size_t)nnz * (i64 ? 8 : 4), &c->c_indices));
            GP_TRY(alloc(ctx, (size_t)nnz * 8 * (size_t)w, &c->c_data));
        }
    }
#undef IDX
    c->c_nnz = nnz;
    return GP_OK;
}

/* A direct solve of a float64 system of up to 4 rows: Gaussian elimination
 * on its dense form, partial pivoting; singular at an exactly zero pivot. */
static int solve_calls;

static gp_status_t model_csr_solve(gp_csr_solve_t *c, void *stream)
{
    (void)stream;
    ++solve_calls;
    if (c->dtype != GP_FLOAT64 || c->n > 4)
        return gp_set_error(GP_ERR_UNSUPPORTED, "model: float64 of 4 rows at most");
    const int32_t *ptr = c->indptr, *ind = c->indices;
    const double *a = c->data, *b = c->b;
    double m[4][5] = {{0}};
    int n = (int)c->n;
    for (int r = 0; r < n; ++r) {
        for (int32_t e = ptr[r]; e < ptr[r + 1]; ++e)
            m[r][ind[e]] = a[e];
        m[r][4] = b[r];
    }
    c->singular = -1;
    for (int j = 0; j < n; ++j) {
        int p = j;
        for (int r = j + 1; r < n; ++r)
            if (fabs(m[r][j]) > fabs(m[p][j]))
                p = r;
        if (m[p][j] == 0) {
            c->singular = j;
            return GP_OK;
        }
        for (int t = 0; t < 5; ++t) {
            double v = m[j][t];
            m[j][t] = m[p][t], m[p][t] = v;
        }
        for (int r = 0; r < n; ++r)
            if (r != j) {
                double f = m[r][j] / m[j][j];
                for (int t = 0; t < 5; ++t)
                    m[r][t] -= f * m[j][t];
            }
    }
    for (int r = 0; r < n; ++r)
        ((double *)c->x)[r] = m[r][4] / m[r][r];
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

/* C's three arrays against int32 indptr/indices and float64 values */
static void check_product(gp_array_t *cp, gp_array_t *ci, gp_array_t *cv, int64_t rows,
                          const int32_t *want_ptr, const int32_t *want_ind,
                          const double *want_val)
{
    int64_t nnz = want_ptr[rows];
    int32_t ptr[8] = {0}, ind[8] = {0};
    if (!CHECK_EQ(cp->dtype, GP_INT32) || !CHECK_EQ(ci->dtype, GP_INT32) ||
        !CHECK_EQ(ci->size, nnz) || !CHECK_OK(gp_array_to_host(cp, ptr, (rows + 1) * 4, 'C')) ||
        !CHECK_OK(gp_array_to_host(ci, ind, nnz * 4, 'C')))
        return;
    for (int64_t r = 0; r <= rows; ++r)
        CHECK_EQ(ptr[r], want_ptr[r]);
    for (int64_t e = 0; e < nnz; ++e)
        CHECK_EQ(ind[e], want_ind[e]);
    values_f64(cv, want_val, nnz);
}

static void test_spgemm_library_road(void)
{
    /* A = [[1, 1, 0], [0, 0, 0], [0, 2, 3]] (canonical), B = [[1, 0, 4], [-1, 5, 0], [0, 0, 2]]:
     * A @ B = [[0, 5, 4], [0, 0, 0], [-2, 10, 6]], whose (0, 0) is 1 - 1: not stored */
    const int32_t ap[] = {0, 2, 2, 4}, ai[] = {0, 1, 1, 2};
    const double av[] = {1, 1, 2, 3};
    const int32_t bp[] = {0, 2, 4, 5}, bi[] = {0, 2, 0, 1, 2};
    const double bv[] = {1, 4, -1, 5, 2};
    const int32_t want_ptr[] = {0, 2, 2, 5}, want_ind[] = {1, 2, 0, 1, 2};
    const double want_val[] = {5, 4, -2, 10, 6};
    int64_t n4 = 4, n5 = 5;
    gp_array_t *a_p = host_array(ap, GP_INT32, 1, &n4), *a_i = host_array(ai, GP_INT32, 1, &n4),
               *a_v = host_array(av, GP_FLOAT64, 1, &n4), *b_p = host_array(bp, GP_INT32, 1, &n4),
               *b_i = host_array(bi, GP_INT32, 1, &n5), *b_v = host_array(bv, GP_FLOAT64, 1, &n5);
    gp_array_t *cp = NULL, *ci = NULL, *cv = NULL;
    gemm_calls = 0;
    /* the library's rows come back sorted, without the cancelled zero */
    if (CHECK_OK(gp_csr_spgemm_on(&model, 3, 3, a_p, a_i, a_v, 3, 3, b_p, b_i, b_v, &cp, &ci,
                                  &cv)))
        check_product(cp, ci, cv, 3, want_ptr, want_ind, want_val);
    CHECK_EQ(gemm_calls, 1);
    CHECK_EQ(gemm_idx, GP_INT32);
    gp_array_release(cp);
    gp_array_release(ci);
    gp_array_release(cv);
    /* int32 and int64 indices: the library gets both as int64, the result
     * is int32 again */
    gp_array_t *b_p64 = NULL, *b_i64 = NULL;
    CHECK_OK(gp_array_astype(b_p, GP_INT64, 'C', GP_CASTING_UNSAFE, &b_p64));
    CHECK_OK(gp_array_astype(b_i, GP_INT64, 'C', GP_CASTING_UNSAFE, &b_i64));
    cp = ci = cv = NULL;
    if (CHECK_OK(gp_csr_spgemm_on(&model, 3, 3, a_p, a_i, a_v, 3, 3, b_p64, b_i64, b_v, &cp,
                                  &ci, &cv)))
        check_product(cp, ci, cv, 3, want_ptr, want_ind, want_val);
    CHECK_EQ(gemm_calls, 2);
    CHECK_EQ(gemm_idx, GP_INT64);
    gp_array_release(cp);
    gp_array_release(ci);
    gp_array_release(cv);
    /* complex128, with a float64 operand brought to it: the same product */
    gp_array_t *a_c = NULL;
    CHECK_OK(gp_array_astype(a_v, GP_COMPLEX128, 'C', GP_CASTING_UNSAFE, &a_c));
    cp = ci = cv = NULL;
    if (CHECK_OK(gp_csr_spgemm_on(&model, 3, 3, a_p, a_i, a_c, 3, 3, b_p, b_i, b_v, &cp, &ci,
                                  &cv))) {
        gp_array_t *re = NULL;
        CHECK_EQ(cv->dtype, GP_COMPLEX128);
        double z[10] = {0};
        CHECK_OK(gp_array_to_host(cv, z, sizeof z, 'C'));
        CHECK_OK(gp_array_astype(cv, GP_FLOAT64, 'C', GP_CASTING_UNSAFE, &re));
        if (re)
            check_product(cp, ci, re, 3, want_ptr, want_ind, want_val);
        for (int i = 0; i < 5; ++i)
            CHECK(z[2 * i + 1] == 0);
        gp_array_release(re);
    }
    CHECK_EQ(gemm_calls, 3);
    gp_array_release(a_c);
    gp_array_release(cp);
    gp_array_release(ci);
    gp_array_release(cv);
    /* a declining library leaves the product to the kernels */
    gemm_decline = 1;
    cp = ci = cv = NULL;
    if (CHECK_OK(gp_csr_spgemm_on(&model, 3, 3, a_p, a_i, a_v, 3, 3, b_p, b_i, b_v, &cp, &ci,
                                  &cv)))
        check_product(cp, ci, cv, 3, want_ptr, want_ind, want_val);
    CHECK_EQ(gemm_calls, 4);
    gemm_decline = 0;
    gp_array_release(cp);
    gp_array_release(ci);
    gp_array_release(cv);
    /* B's row 0 unsorted ({2, 0}): the kernels, the library never called */
    const int32_t bu[] = {2, 0, 0, 1, 2};
    const double bvu[] = {4, 1, -1, 5, 2};
    gp_array_t *b_iu = host_array(bu, GP_INT32, 1, &n5), *b_vu = host_array(bvu, GP_FLOAT64, 1, &n5);
    cp = ci = cv = NULL;
    if (CHECK_OK(gp_csr_spgemm_on(&model, 3, 3, a_p, a_i, a_v, 3, 3, b_p, b_iu, b_vu, &cp, &ci,
                                  &cv)))
        check_product(cp, ci, cv, 3, want_ptr, want_ind, want_val);
    CHECK_EQ(gemm_calls, 4);
    gp_array_release(cp);
    gp_array_release(ci);
    gp_array_release(cv);
    /* integers neither */
    gp_array_t *a_vi = NULL, *b_vi = NULL;
    CHECK_OK(gp_array_astype(a_v, GP_INT64, 'C', GP_CASTING_UNSAFE, &a_vi));
    CHECK_OK(gp_array_astype(b_v, GP_INT64, 'C', GP_CASTING_UNSAFE, &b_vi));
    cp = ci = cv = NULL;
    CHECK_OK(gp_csr_spgemm_on(&model, 3, 3, a_p, a_i, a_vi, 3, 3, b_p, b_i, b_vi, &cp, &ci, &cv));
    CHECK_EQ(gemm_calls, 4);
    gp_array_release(cp);
    gp_array_release(ci);
    gp_array_release(cv);
    /* a column out of range is an IndexError before the library reads it */
    const int32_t bad[] = {0, 7, 0, 1, 2};
    gp_array_t *b_bad = host_array(bad, GP_INT32, 1, &n5);
    cp = ci = cv = NULL;
    CHECK_ERROR(gp_csr_spgemm_on(&model, 3, 3, a_p, a_i, a_v, 3, 3, b_p, b_bad, b_v, &cp, &ci,
                                 &cv), GP_ERR_INDEX, "index 7 is out of bounds for axis 1 with size 3");
    CHECK(cp == NULL && ci == NULL && cv == NULL);
    CHECK_EQ(gemm_calls, 4);
    gp_array_release(b_bad);
    gp_array_release(a_vi);
    gp_array_release(b_vi);
    gp_array_release(b_iu);
    gp_array_release(b_vu);
    gp_array_release(b_p64);
    gp_array_release(b_i64);
    gp_array_t *all[] = {a_p, a_i, a_v, b_p, b_i, b_v};
    for (int i = 0; i < 6; ++i)
        gp_array_release(all[i]);
}

static void test_solve(void)
{
    /* A = [[4, 1, 0], [1, 3, 0], [0, 0, 2]], two right-hand sides as rows */
    const int32_t ap[] = {0, 2, 4, 5}, ai[] = {0, 1, 0, 1, 2};
    const double av[] = {4, 1, 1, 3, 2};
    const double bv[] = {5, 4, 2, 9, 7, 4}; /* x = (1, 1, 1) and (20/11, 19/11, 2) */
    int64_t n4 = 4, n5 = 5, bs[2] = {2, 3};
    gp_array_t *a_p = host_array(ap, GP_INT32, 1, &n4), *a_i = host_array(ai, GP_INT32, 1, &n5),
               *a_v = host_array(av, GP_FLOAT64, 1, &n5), *b = host_array(bv, GP_FLOAT64, 2, bs);
    gp_array_t *x = NULL;
    int64_t singular = 7;
    /* the host backend has no solver: the caller's other road */
    CHECK_ERROR(gp_csr_solve(3, a_p, a_i, a_v, b, &x, &singular), GP_ERR_UNSUPPORTED,
                "gp_csr_solve: the backend has no sparse direct solver");
    CHECK(x == NULL && singular == -1);
    solve_calls = 0;
    if (CHECK_OK(gp_csr_solve_on(&model, 3, a_p, a_i, a_v, b, &x, &singular))) {
        const double want[] = {1, 1, 1, 20.0 / 11, 19.0 / 11, 2};
        double got[6] = {0};
        CHECK_EQ(singular, -1);
        CHECK_EQ(x->ndim, 2);
        CHECK_OK(gp_array_to_host(x, got, sizeof got, 'C'));
        for (int i = 0; i < 6; ++i)
            CHECK(fabs(got[i] - want[i]) < 1e-14);
    }
    CHECK_EQ(solve_calls, 2);
    gp_array_release(x);
    /* int64 indices reach the library as int32 */
    gp_array_t *p64 = NULL, *i64 = NULL;
    CHECK_OK(gp_array_astype(a_p, GP_INT64, 'C', GP_CASTING_UNSAFE, &p64));
    CHECK_OK(gp_array_astype(a_i, GP_INT64, 'C', GP_CASTING_UNSAFE, &i64));
    x = NULL;
    if (CHECK_OK(gp_csr_solve_on(&model, 3, p64, i64, a_v, b, &x, &singular)))
        CHECK_EQ(singular, -1);
    CHECK_EQ(solve_calls, 4);
    gp_array_release(x);
    /* singular (row 2 empty): the first singular row, the other sides skipped */
    const int32_t sp[] = {0, 2, 4, 4};
    gp_array_t *s_p = host_array(sp, GP_INT32, 1, &n4), *s_i = host_array(ai, GP_INT32, 1, &n4),
               *s_v = host_array(av, GP_FLOAT64, 1, &n4);
    x = NULL;
    if (CHECK_OK(gp_csr_solve_on(&model, 3, s_p, s_i, s_v, b, &x, &singular)))
        CHECK_EQ(singular, 2);
    CHECK_EQ(solve_calls, 5);
    gp_array_release(x);
    /* bad input: unsorted rows, another dtype, another length */
    const int32_t ui[] = {1, 0, 0, 1, 2};
    gp_array_t *u_i = host_array(ui, GP_INT32, 1, &n5), *bf = NULL, *b1 = NULL;
    x = NULL;
    CHECK_ERROR(gp_csr_solve_on(&model, 3, a_p, u_i, a_v, b, &x, &singular), GP_ERR_VALUE,
                "gp_csr_solve: A's rows must have sorted, distinct indices");
    CHECK_OK(gp_array_astype(b, GP_FLOAT32, 'C', GP_CASTING_UNSAFE, &bf));
    CHECK_ERROR(gp_csr_solve_on(&model, 3, a_p, a_i, a_v, bf, &x, &singular), GP_ERR_TYPE,
                "gp_csr_solve: b's dtype float32 is not A's float64");
    int64_t n2 = 2;
    b1 = host_array(bv, GP_FLOAT64, 1, &n2);
    CHECK_ERROR(gp_csr_solve_on(&model, 3, a_p, a_i, a_v, b1, &x, &singular), GP_ERR_VALUE,
                "gp_csr_solve: b must be of shape (3,) or (k, 3)");
    CHECK(x == NULL);
    CHECK_EQ(solve_calls, 5);
    gp_array_t *all[] = {a_p, a_i, a_v, b, p64, i64, s_p, s_i, s_v, u_i, bf, b1};
    for (int i = 0; i < 12; ++i)
        gp_array_release(all[i]);
}

int main(void)
{
    if (gp_test_init()) {
        const gp_backend_i *host;
        if (CHECK_OK(gp_backend(&host))) {
            model = *host;
            model.csr_mm = model_csr_mm;
            model.csr_spgemm = model_csr_spgemm;
            model.csr_solve = model_csr_solve;
            RUN(test_kernels);
            RUN(test_library_road);
            RUN(test_spgemm);
            RUN(test_spgemm_library_road);
            RUN(test_solve);
        }
    }
    return check_summary("test_sparse");
}
