/*
 * matmul.c - numpy.matmul: batched, broadcast matrix products.
 *
 * Float and complex products go to the backend's BLAS when it has one
 * (cuBLAS on CUDA), reading transposed (Fortran-ordered) matrices in place
 * by BLAS's transpose flags rather than copying them; other dtypes (integers,
 * bool) and backends without a BLAS run the generated product kernel, which
 * takes any strides.
 */
#include <stdio.h>
#include <string.h>

#include "kernels.h"

typedef struct {
    int32_t nb;                 /* batch dims */
    int64_t bshape[GP_MAXDIM];
    int64_t ba[GP_MAXDIM], bb[GP_MAXDIM], bc[GP_MAXDIM]; /* batch strides */
    int64_t M, N, K;
    int64_t am, ak, bk, bn, cm, cn; /* matrix strides, bytes */
} mm_plan_t;

static gp_status_t core_error(int op, int dim, int64_t got, int64_t want)
{
    return gp_set_error(GP_ERR_VALUE, "matmul: Input operand %d has a mismatch in its core "
                                      "dimension %d, with gufunc signature (n?,k),(k,m?)->(n?,m?) "
                                      "(size %lld is different from %lld)",
                        op, dim, (long long)got, (long long)want);
}

/* Whether a matrix with byte strides (rs, cs) of `rows` x `cols` elements of
 * `e` bytes is one BLAS reads: row-major (column stride e) or column-major
 * (row stride e). Gives the column-major transpose flag and leading
 * dimension of the matrix's *transpose* as BLAS sees row-major data. */
static bool blas_layout(int64_t rs, int64_t cs, int64_t rows, int64_t cols, int64_t e,
                        int32_t *trans, int64_t *ld)
{
    if ((cs == e || cols == 1) && rs > 0 && rs % e == 0 && rs / e >= cols) {
        *trans = 0;
        *ld = rs / e;
        return true;
    }
    if ((rs == e || rows == 1) && cs > 0 && cs % e == 0 && cs / e >= rows) {
        *trans = 1;
        *ld = cs / e;
        return true;
    }
    if (rows == 1 && cols == 1) {
        *trans = 0;
        *ld = 1;
        return true;
    }
    return false;
}

static gp_status_t run_generic(const mm_plan_t *p, int32_t ld, const gp_array_t *a,
                               const gp_array_t *b, gp_array_t *c)
{
    gp_gemm_spec_t sp;
    memset(&sp, 0, sizeof sp);
    sp.family = GP_FAMILY_GEMM;
    sp.loop_dt = (uint8_t)ld;
    sp.a_dt = (uint8_t)a->dtype;
    sp.b_dt = (uint8_t)b->dtype;
    sp.c_dt = (uint8_t)c->dtype;
    sp.nbatch = (uint8_t)p->nb;
    int64_t total = gp_shape_size(p->nb, p->bshape) * p->M * p->N;
    sp.idx32 = total < ((int64_t)1 << 30) && a->size * gp_dtype_size(a->dtype) < ((int64_t)1 << 30) &&
               b->size * gp_dtype_size(b->dtype) < ((int64_t)1 << 30) &&
               c->size * gp_dtype_size(c->dtype) < ((int64_t)1 << 30);
    const gp_kernel_t *k;
    GP_TRY(gp_kernel_get(&sp, sizeof sp, gp_gen_gemm, &sp, &k));
    gp_params_t pr;
    gp_params_init(&pr);
    gp_params_index(&pr, p->M);
    gp_params_index(&pr, p->N);
    gp_params_index(&pr, p->K);
    gp_params_index(&pr, gp_shape_size(p->nb, p->bshape));
    const int64_t *arrs[4] = {p->bshape, p->ba, p->bb, p->bc};
    for (int j = 0; j < 4; ++j)
        for (int32_t d = 0; d < p->nb; ++d)
            gp_params_index(&pr, arrs[j][d]);
    int64_t ms[6] = {p->am, p->ak, p->bk, p->bn, p->cm, p->cn};
    for (int j = 0; j < 6; ++j)
        gp_params_index(&pr, ms[j]);
    gp_params_ptr(&pr, gp_array_data(a));
    gp_params_ptr(&pr, gp_array_data(b));
    gp_params_ptr(&pr, gp_array_data(c));
    gp_launch_t cfg = gp_grid_for(total, 256);
    return gp_launch(k, &cfg, &pr);
}

/* The product through the backend's BLAS; GP_ERR_UNSUPPORTED (without an
 * error worth reporting) when the operands' layout does not suit it. */
static gp_status_t run_blas(const gp_backend_i *be, const mm_plan_t *p, int32_t ld,
                            const gp_array_t *a, const gp_array_t *b, gp_array_t *c)
{
    int64_t e = gp_dtype_size(ld);
    int32_t ta, tb;
    int64_t lda, ldb;
    /* row-major C = A B is column-major C^T = B^T A^T */
    if (!blas_layout(p->bk, p->bn, p->K, p->N, e, &tb, &ldb) ||
        !blas_layout(p->am, p->ak, p->M, p->K, e, &ta, &lda) || p->cn != e || p->cm != p->N * e)
        return GP_ERR_UNSUPPORTED;
    /* the innermost batch dim is BLAS's; the others are a loop here */
    int32_t nb = p->nb;
    int64_t batch = nb ? p->bshape[nb - 1] : 1;
    int64_t sa = nb ? p->ba[nb - 1] / e : 0, sb = nb ? p->bb[nb - 1] / e : 0;
    int64_t sc = nb ? p->bc[nb - 1] / e : 0;
    if (nb && (p->ba[nb - 1] % e || p->bb[nb - 1] % e || p->bc[nb - 1] % e))
        return GP_ERR_UNSUPPORTED;
    int64_t outer = nb > 1 ? gp_shape_size(nb - 1, p->bshape) : 1;
    for (int64_t o = 0; o < outer; ++o) {
        int64_t oa = 0, ob = 0, oc = 0, r = o;
        for (int32_t d = nb - 2; d >= 0; --d) {
            int64_t i = r % p->bshape[d];
            r /= p->bshape[d];
            oa += i * p->ba[d];
            ob += i * p->bb[d];
            oc += i * p->bc[d];
        }
        GP_TRY(be->gemm(ld, tb, ta, p->N, p->M, p->K, gp_array_data(b) + ob, ldb, sb,
                        gp_array_data(a) + oa, lda, sa, gp_array_data(c) + oc, p->N, sc, batch,
                        gp_current_stream()));
    }
    return GP_OK;
}

GP_API gp_status_t gp_matmul(const gp_array_t *a, const gp_array_t *b, gp_array_t **out)
{
    GP_CHECK_ARRAY(a);
    GP_CHECK_ARRAY(b);
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_matmul: out is NULL");
    if (*out)
        GP_CHECK_ARRAY(*out);
    for (int op = 0; op < 2; ++op) {
        const gp_array_t *x = op ? b : a;
        if (x->ndim == 0)
            return gp_set_error(GP_ERR_VALUE, "matmul: Input operand %d does not have enough "
                                              "dimensions (has 0, gufunc core with signature "
                                              "(n?,k),(k,m?)->(n?,m?) requires 1)", op);
    }
    mm_plan_t p;
    memset(&p, 0, sizeof p);
    int64_t K = a->shape[a->ndim - 1];
    int64_t Kb = b->ndim == 1 ? b->shape[0] : b->shape[b->ndim - 2];
    if (K != Kb)
        return core_error(1, 0, Kb, K);
    p.K = K;
    p.M = a->ndim > 1 ? a->shape[a->ndim - 2] : 1;
    p.N = b->ndim > 1 ? b->shape[b->ndim - 1] : 1;
    p.ak = a->strides[a->ndim - 1];
    p.am = a->ndim > 1 ? a->strides[a->ndim - 2] : 0;
    p.bk = b->ndim == 1 ? b->strides[0] : b->strides[b->ndim - 2];
    p.bn = b->ndim > 1 ? b->strides[b->ndim - 1] : 0;

    /* batch dims broadcast */
    int32_t na = a->ndim > 2 ? a->ndim - 2 : 0, nbb = b->ndim > 2 ? b->ndim - 2 : 0;
    int32_t nds[2] = {na, nbb};
    const int64_t *shps[2] = {a->shape, b->shape};
    GP_TRY(gp_broadcast_shapes(2, nds, shps, &p.nb, p.bshape));
    for (int32_t d = 0; d < p.nb; ++d) {
        int32_t da = d - (p.nb - na), db = d - (p.nb - nbb);
        p.ba[d] = da >= 0 && a->shape[da] != 1 ? a->strides[da] : 0;
        p.bb[d] = db >= 0 && b->shape[db] != 1 ? b->strides[db] : 0;
    }
    int64_t oshape[GP_MAXDIM];
    int32_t ond = p.nb;
    memcpy(oshape, p.bshape, (size_t)p.nb * sizeof *oshape);
    if (a->ndim > 1)
        oshape[ond++] = p.M;
    if (b->ndim > 1)
        oshape[ond++] = p.N;

    /* NumPy's loop: that of multiply for the two dtypes */
    int32_t dts[3] = {a->dtype, b->dtype, -1}, weak[2] = {0, 0}, ld3[3];
    GP_TRY(gp_ufunc_resolve(gp_ufunc_id("multiply"), dts, weak, NULL, GP_CASTING_SAME_KIND, ld3));
    int32_t ld = ld3[2];
    bool given = *out != NULL;
    if (given) {
        bool same = (*out)->ndim == ond;
        for (int32_t d = 0; d < ond && same; ++d)
            same = (*out)->shape[d] == oshape[d];
        if (!same) {
            char x[512], y[512];
            gp_shape_format((*out)->ndim, (*out)->shape, x, sizeof x);
            gp_shape_format(ond, oshape, y, sizeof y);
            return gp_set_error(GP_ERR_VALUE, "matmul: Output operand 0 has a mismatch in its "
                                              "shape %s, expected %s", x, y);
        }
        if (!gp_can_cast(ld, (*out)->dtype, GP_CASTING_SAME_KIND))
            return gp_set_error(GP_ERR_TYPE_CASTING, "Cannot cast ufunc 'matmul' output from "
                                                     "dtype('%s') to dtype('%s') with casting rule "
                                                     "'same_kind'", gp_dtypes[ld].name,
                                gp_dtypes[(*out)->dtype].name);
        if (!((*out)->flags & GP_FLAG_WRITEABLE))
            return gp_set_error(GP_ERR_VALUE, "output array is read-only");
    }

    /* the result is computed into a C-contiguous array of the loop dtype,
     * unless the given output already is one that overlaps no input */
    gp_array_t *c = NULL;
    bool direct = false;
    if (given) {
        int32_t sa = 0, sb = 0;
        gp_array_may_share_memory(*out, a, &sa);
        gp_array_may_share_memory(*out, b, &sb);
        direct = (*out)->dtype == ld && ((*out)->flags & GP_FLAG_C_CONTIGUOUS) && !sa && !sb;
    }
    if (direct) {
        c = *out;
    } else {
        GP_TRY(gp_array_empty(ld, ond, oshape, GP_ORDER_C, &c));
    }
    /* the output's strides in matrix and batch terms (C-contiguous) */
    int64_t e = gp_dtype_size(ld), st = p.M * p.N * e;
    p.cn = e;
    p.cm = p.N * e;
    for (int32_t d = p.nb - 1; d >= 0; --d) {
        p.bc[d] = st;
        st *= p.bshape[d];
    }

    gp_status_t s = GP_OK;
    const gp_backend_i *be;
    s = gp_backend(&be);
    if (s == GP_OK && c->size > 0) {
        if (p.K == 0) {
            gp_scalar_t zero;
            memset(&zero, 0, sizeof zero);
            zero.dtype = GP_INT64;
            s = gp_array_fill(c, &zero);
        } else {
            bool blas = be->gemm && (gp_dtype_kind(ld) == GP_KIND_FLOAT ||
                                     gp_dtype_kind(ld) == GP_KIND_COMPLEX);
            gp_array_t *ca = NULL, *cb = NULL;
            const gp_array_t *ua = a, *ub = b;
            if (blas && a->dtype != ld) {
                s = gp_copy_new(a, ld, GP_ORDER_C, &ca);
                ua = ca;
            }
            if (blas && s == GP_OK && b->dtype != ld) {
                s = gp_copy_new(b, ld, GP_ORDER_C, &cb);
                ub = cb;
            }
            if (s == GP_OK && blas && (ca || cb)) {
                /* the copies are C-contiguous: restride the plan */
                mm_plan_t q = p;
                if (ca) {
                    q.ak = e;
                    q.am = ua->ndim > 1 ? ua->strides[ua->ndim - 2] : 0;
                    for (int32_t d = 0; d < q.nb; ++d) {
                        int32_t da = d - (q.nb - na);
                        q.ba[d] = da >= 0 && ua->shape[da] != 1 ? ua->strides[da] : 0;
                    }
                }
                if (cb) {
                    q.bk = ub->ndim == 1 ? ub->strides[0] : ub->strides[ub->ndim - 2];
                    q.bn = ub->ndim > 1 ? ub->strides[ub->ndim - 1] : 0;
                    for (int32_t d = 0; d < q.nb; ++d) {
                        int32_t db = d - (q.nb - nbb);
                        q.bb[d] = db >= 0 && ub->shape[db] != 1 ? ub->strides[db] : 0;
                    }
                }
                p = q;
            }
            if (s == GP_OK) {
                s = blas ? run_blas(be, &p, ld, ua, ub, c) : GP_ERR_UNSUPPORTED;
                if (s == GP_ERR_UNSUPPORTED) {
                    gp_clear_error();
                    s = run_generic(&p, ld, ua, ub, c);
                }
            }
            gp_array_release(ca);
            gp_array_release(cb);
        }
    }
    if (s == GP_OK && given && !direct)
        s = gp_array_assign(*out, c, GP_CASTING_SAME_KIND);
    if (c != *out && (s != GP_OK || given))
        gp_array_release(c);
    if (s == GP_OK && !given)
        *out = c;
    return s;
}
