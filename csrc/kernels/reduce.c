/*
 * reduce.c - reductions (ufunc.reduce, mean, argmax/argmin) and
 * accumulations (ufunc.accumulate).
 *
 * A reduction maps the kept dimensions to outputs and the reduced ones to
 * the elements combined into each. Both groups are collapsed separately.
 * When the reduced elements are adjacent in memory a block of threads
 * combines each output (inner reductions); otherwise each thread walks its
 * own output while neighbouring threads read neighbouring memory (outer
 * reductions). On a GPU an output whose elements are too many for one
 * block is split: partial results first, then a second pass combines them.
 * Accumulations of reorderable ufuncs along long lines run in one pass over
 * tiles (decoupled look-back); the others run in order, a thread a line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

/* The dimensions of a reduction after collapsing. */
typedef struct {
    int32_t nkeep, nred;
    int64_t kshape[GP_MAXDIM], kin[GP_MAXDIM], kout[GP_MAXDIM];
    int64_t rshape[GP_MAXDIM], rin[GP_MAXDIM];
    int64_t M, K;
} red_plan_t;

/* Merges dim k into its outer neighbour in place when each listed stride
 * array steps contiguously; returns the new count. */
static int32_t merge_dims(int32_t n, int64_t *shape, int64_t **strides, int nstr)
{
    int32_t out = 0;
    for (int32_t k = 0; k < n; ++k) {
        if (shape[k] == 1)
            continue;
        if (out > 0) {
            bool ok = true;
            for (int j = 0; j < nstr && ok; ++j)
                ok = gp_strides_continue(strides[j][out - 1], strides[j][k], shape[k]);
            if (ok) {
                shape[out - 1] *= shape[k];
                for (int j = 0; j < nstr; ++j)
                    strides[j][out - 1] = strides[j][k];
                continue;
            }
        }
        shape[out] = shape[k];
        for (int j = 0; j < nstr; ++j)
            strides[j][out] = strides[j][k];
        ++out;
    }
    return out;
}

/* Splits the dims of `a` by `mask` into kept (with output strides from
 * `out`, whose dims are the kept ones, or all of them with keepdims) and
 * reduced dims. `ordered` keeps the reduced dims in C order (arg-reductions
 * report C-order positions; in-order reductions combine in C order);
 * otherwise they are sorted so memory is walked in order. */
static void plan(const gp_array_t *a, const bool *mask, const gp_array_t *out, bool keepdims,
                 bool ordered, red_plan_t *p)
{
    p->nkeep = p->nred = 0;
    int32_t od = 0;
    for (int32_t d = 0; d < a->ndim; ++d) {
        if (mask[d]) {
            p->rshape[p->nred] = a->shape[d];
            p->rin[p->nred++] = a->strides[d];
            if (keepdims)
                ++od;
        } else {
            p->kshape[p->nkeep] = a->shape[d];
            p->kin[p->nkeep] = a->strides[d];
            p->kout[p->nkeep++] = out->strides[od++];
        }
    }
    if (!ordered) {
        /* insertion sort of reduced dims by decreasing |stride| (stable) */
        for (int32_t i = 1; i < p->nred; ++i) {
            int64_t s = p->rshape[i], st = p->rin[i];
            int32_t j = i;
            for (; j > 0 && gp_abs_stride(p->rin[j - 1]) < gp_abs_stride(st); --j) {
                p->rshape[j] = p->rshape[j - 1];
                p->rin[j] = p->rin[j - 1];
            }
            p->rshape[j] = s;
            p->rin[j] = st;
        }
    }
    p->M = gp_shape_size(p->nkeep, p->kshape);
    p->K = gp_shape_size(p->nred, p->rshape);
    int64_t *ks[2] = {p->kin, p->kout}, *rs[1] = {p->rin};
    p->nkeep = merge_dims(p->nkeep, p->kshape, ks, 2);
    p->nred = merge_dims(p->nred, p->rshape, rs, 1);
    if (p->nred == 0) { /* one element per output */
        p->nred = 1;
        p->rshape[0] = 1;
        p->rin[0] = 0;
    }
}

/* Output shape of a reduction of `a` over `mask`. */
static int32_t reduced_shape(const gp_array_t *a, const bool *mask, bool keepdims, int64_t *shape)
{
    int32_t n = 0;
    for (int32_t d = 0; d < a->ndim; ++d) {
        if (!mask[d])
            shape[n++] = a->shape[d];
        else if (keepdims)
            shape[n++] = 1;
    }
    return n;
}

/* A given output must have the reduced shape; else a new one is made. */
static gp_status_t prepare_out(const gp_array_t *a, const bool *mask, bool keepdims, int32_t dt,
                               const char *what, gp_array_t **out, bool *made)
{
    int64_t shape[GP_MAXDIM];
    int32_t nd = reduced_shape(a, mask, keepdims, shape);
    *made = false;
    if (*out) {
        GP_CHECK_ARRAY(*out);
        bool same = (*out)->ndim == nd;
        for (int32_t d = 0; d < nd && same; ++d)
            same = (*out)->shape[d] == shape[d];
        if (!same) {
            char x[512], y[512];
            gp_shape_format((*out)->ndim, (*out)->shape, x, sizeof x);
            gp_shape_format(nd, shape, y, sizeof y);
            return gp_set_error(GP_ERR_VALUE, "output parameter for %s has the wrong shape %s "
                                              "(expected %s)", what, x, y);
        }
        if (!((*out)->flags & GP_FLAG_WRITEABLE))
            return gp_set_error(GP_ERR_VALUE, "output array is read-only");
        return GP_OK;
    }
    /* laid out like the kept dims of the input */
    int64_t like[GP_MAXDIM];
    int32_t n = 0;
    for (int32_t d = 0; d < a->ndim; ++d) {
        if (!mask[d])
            like[n++] = a->strides[d];
        else if (keepdims)
            like[n++] = 0;
    }
    const int64_t *lp[1] = {like};
    GP_TRY(gp_array_alloc_like(dt, nd, shape, 1, lp, GP_ORDER_K, out));
    *made = true;
    return GP_OK;
}

/* Runs one reduction kernel of spec `sp` over plan `p` from `in` (its data
 * pointer) into `out`. */
static gp_status_t launch_red(gp_red_spec_t *sp, const red_plan_t *p, int64_t S, const char *in,
                              char *out, const void *init, int32_t init_size, int32_t init_align,
                              int64_t count)
{
    sp->nkeep = (uint8_t)p->nkeep;
    sp->nred = (uint8_t)p->nred;
    int64_t span = 0;
    for (int32_t d = 0; d < p->nkeep; ++d) {
        gp_span_add(&span, p->kshape[d], p->kin[d]);
        gp_span_add(&span, p->kshape[d], p->kout[d]);
    }
    for (int32_t d = 0; d < p->nred; ++d)
        gp_span_add(&span, p->rshape[d], p->rin[d]);
    sp->idx32 = span < ((int64_t)1 << 30) && p->M * S < ((int64_t)1 << 30) &&
                p->K < ((int64_t)1 << 30);
    const gp_kernel_t *k;
    GP_TRY(gp_kernel_get(sp, sizeof *sp, gp_gen_red, sp, &k));
    gp_params_t pr;
    gp_params_init(&pr);
    gp_params_index(&pr, p->M);
    gp_params_index(&pr, p->K);
    gp_params_index(&pr, S);
    gp_params_index(&pr, count);
    for (int32_t d = 0; d < p->nkeep; ++d)
        gp_params_index(&pr, p->kshape[d]);
    for (int32_t d = 0; d < p->nkeep; ++d)
        gp_params_index(&pr, p->kin[d]);
    for (int32_t d = 0; d < p->nkeep; ++d)
        gp_params_index(&pr, p->kout[d]);
    for (int32_t d = 0; d < p->nred; ++d)
        gp_params_index(&pr, p->rshape[d]);
    for (int32_t d = 0; d < p->nred; ++d)
        gp_params_index(&pr, p->rin[d]);
    gp_params_ptr(&pr, in);
    gp_params_ptr(&pr, out);
    if (sp->has_initial)
        gp_params_put(&pr, init, (size_t)init_size, (size_t)init_align);
    gp_launch_t cfg;
    if (sp->block_per_out)
        cfg = gp_grid_for(p->M * S * 256, 256);
    else
        cfg = gp_grid_for(p->M / (sp->vec > 1 ? sp->vec : 1) * S, 256);
    return gp_launch(k, &cfg, &pr);
}

static bool narrow_loop(int32_t dt) { return gp_dtypes[dt].compute != dt; }

/* Whether a reduction's accumulator is a pair (a value and its index, or
 * logsumexp's maximum and sum), not a value of the loop dtype. */
static bool pair_acc(const gp_red_spec_t *sp)
{
    return sp->kind == GP_RED_ARGMAX || sp->kind == GP_RED_ARGMIN ||
           sp->kind == GP_RED_LOGSUMEXP;
}

/* Size of one accumulator of a reduction spec (bytes, alignment 8 max). */
static int32_t acc_size(const gp_red_spec_t *sp)
{
    int32_t v = gp_compute_size(sp->loop_dt);
    if (sp->kind == GP_RED_ARGMAX || sp->kind == GP_RED_ARGMIN)
        return (v + 7) / 8 * 8 + 8;
    return sp->kind == GP_RED_LOGSUMEXP ? 2 * v : v;
}

/* Elements per 16-byte read when a block combines contiguous runs that all
 * start 16-byte aligned; 0 otherwise. */
static uint8_t vector_width(const gp_red_spec_t *sp, const red_plan_t *p, const gp_array_t *a)
{
    int32_t isz = gp_dtype_size(sp->in_dt);
    if (!sp->block_per_out || p->nred != 1 || p->rin[0] != isz || p->K < 64 ||
        gp_dtype_kind(sp->in_dt) == GP_KIND_COMPLEX || ((uintptr_t)gp_array_data(a) & 15))
        return 0;
    for (int32_t d = 0; d < p->nkeep; ++d)
        if (p->kin[d] & 15)
            return 0;
    return (uint8_t)(16 / isz);
}

/* Outputs per thread of an outer reduction, one per lane of 16-byte reads:
 * when the innermost kept dim is contiguous and a multiple of the vector
 * long, and every vector starts aligned; 0 otherwise. Not for pair or
 * in-order reductions (their accumulators carry more than a value). */
static uint8_t lane_width(const gp_red_spec_t *sp, const red_plan_t *p, const gp_array_t *a,
                          bool seq)
{
    int32_t isz = gp_dtype_size(sp->in_dt), last = p->nkeep - 1, w = 16 / isz;
    if (sp->block_per_out || seq || last < 0 || pair_acc(sp) ||
        gp_dtype_kind(sp->in_dt) == GP_KIND_COMPLEX ||
        p->kin[last] != isz || p->kshape[last] % w || ((uintptr_t)gp_array_data(a) & 15))
        return 0;
    for (int32_t d = 0; d < last; ++d)
        if (p->kin[d] & 15)
            return 0;
    for (int32_t d = 0; d < p->nred; ++d)
        if (p->rin[d] & 15)
            return 0;
    return (uint8_t)w;
}

/* A block of one thread (the host backend's) has no tree within it: every
 * element of a part goes through the one accumulator. So where the order of
 * combination changes the result (a float or complex loop), a reduction on
 * such a device is cut into runs of at most RED_RUN elements, and their
 * partials merge RED_RUN at a time: no accumulator takes more than RED_RUN
 * values, and the rounding error grows with log(K) / log(RED_RUN), not K,
 * as NumPy's pairwise sum's grows with log(K). Shorter runs cost time (a
 * partial written and read back for every run). */
enum { RED_RUN = 128 };

/* The plan of a stage reading M x S partials of `p`'s outputs from a
 * temporary, part-major or output-major. */
static red_plan_t partials_plan(const red_plan_t *p, int64_t S, bool by_part, int32_t acc)
{
    red_plan_t q = *p;
    q.nred = 1;
    q.rshape[0] = S;
    q.rin[0] = by_part ? p->M * acc : acc;
    q.K = S;
    /* the partials of output o: its column or its row of the temporary */
    int64_t step = by_part ? acc : S * acc, n = 1;
    for (int32_t d = q.nkeep - 1; d >= 0; --d) {
        q.kin[d] = n * step;
        n *= q.kshape[d];
    }
    return q;
}

/* Plans and runs a reduction of `a` over `mask` into `out`. */
static gp_status_t run_reduction(gp_red_spec_t *sp, const gp_array_t *a, const bool *mask,
                                 bool keepdims, gp_array_t *out, const void *init,
                                 int32_t init_size, bool ordered)
{
    int32_t share = 0;
    gp_array_may_share_memory(a, out, &share);
    if (share) {
        /* an output overlapping the input: read from a copy, as NumPy does */
        gp_array_t *copy;
        GP_TRY(gp_copy_new(a, a->dtype, GP_ORDER_K, &copy));
        gp_status_t s = run_reduction(sp, copy, mask, keepdims, out, init, init_size, ordered);
        gp_array_release(copy);
        return s;
    }
    red_plan_t p;
    plan(a, mask, out, keepdims, ordered, &p);
    if (p.M == 0)
        return GP_OK;
    const gp_device_props_t *props;
    GP_TRY(gp_backend_props(&props));
    bool seq = !pair_acc(sp) && gp_ufuncs[sp->op].neutral == GP_NEUTRAL_NONE;
    /* inner reduction: the reduced elements are the nearest in memory */
    int64_t rmin = p.nred ? gp_abs_stride(p.rin[p.nred - 1]) : 0, kmin = INT64_MAX;
    for (int32_t d = 0; d < p.nkeep; ++d)
        if (gp_abs_stride(p.kin[d]) < kmin)
            kmin = gp_abs_stride(p.kin[d]);
    bool inner = p.K > 1 && rmin <= kmin;
    int32_t gpu_threads = props->multiprocessors * props->max_threads_per_block;
    sp->block_per_out = !seq && (inner || p.M < props->multiprocessors);
    sp->vec = sp->block_per_out ? vector_width(sp, &p, a) : lane_width(sp, &p, a, seq);
    /* threads of an outer reduction (one per output, or per lanes) */
    int64_t units = sp->block_per_out || sp->vec < 2 ? p.M : p.M / sp->vec;
    /* split long reductions over several blocks when the outputs alone do
     * not fill the device: to 16 blocks per SM for block-wide ones, to
     * a block's worth of threads per SM for outer ones (bench/tune.py
     * reduction measured these best on the H200) */
    int32_t lk = gp_dtype_kind(sp->loop_dt);
    bool rounds = (sp->kind == GP_RED_UFUNC || sp->kind == GP_RED_MEAN ||
                   sp->kind == GP_RED_LOGSUMEXP) && (lk == GP_KIND_FLOAT || lk == GP_KIND_COMPLEX);
    /* ...and an outer float sum from 2 RED_RUN on, where one thread per
     * output would push its whole column through one accumulator (NumPy's
     * error along a strided axis: 2e-6 of a 2048-row float32 column sum) */
    int64_t split_from = rounds && !sp->block_per_out ? 2 * RED_RUN : 8192;
    int64_t S = 1;
    if (!seq && props->max_threads_per_block > 1 && p.K >= split_from &&
        (sp->block_per_out ? p.M < 2 * props->multiprocessors : units < gpu_threads)) {
        int64_t want = (sp->block_per_out ? 16 * props->multiprocessors / (p.M ? p.M : 1)
                                          : (int64_t)gpu_threads / (units ? units : 1)) *
                       gp_tuning()->red_split;
        S = want < 1 ? 1 : want;
        /* a part is at least 1024 elements for a block, 128 for a thread */
        int64_t most = p.K / (sp->block_per_out ? 1024 : 128);
        if (S > most)
            S = most;
        if (S < 1)
            S = 1;
    }
    bool runs = props->max_threads_per_block == 1 && !seq && p.K > RED_RUN && rounds;
    if (runs)
        S = (p.K + RED_RUN - 1) / RED_RUN;
    int64_t count = p.K;
    if (S == 1) {
        sp->stage = GP_STAGE_FINAL;
        return launch_red(sp, &p, 1, gp_array_data(a), gp_array_data(out), init, init_size,
                          gp_compute_align(sp->loop_dt), count);
    }
    /* two stages through a temporary of M x S accumulators. A few partials
     * per output (an outer reduction split in a few parts) are combined by
     * a thread per output, neighbouring threads on neighbouring outputs, from
     * a part-major temporary; a block per output would leave most of its
     * threads idle (16384 blocks for 33 partials each took a tenth of
     * sum(axis=0) of 16384x16384 float32 on the H200). Many partials per
     * output are combined by a block per output from its row. */
    bool by_part = !sp->block_per_out && S <= 64;
    int32_t acc = acc_size(sp);
    gp_array_t *tmp;
    int64_t tshape[1] = {p.M * S * acc};
    GP_TRY(gp_array_empty(GP_UINT8, 1, tshape, GP_ORDER_C, &tmp));
    gp_red_spec_t s1 = *sp;
    s1.stage = GP_STAGE_PARTIAL;
    s1.has_initial = 0;
    s1.out_dt = s1.loop_dt;
    s1.by_part = by_part;
    gp_status_t s = launch_red(&s1, &p, S, gp_array_data(a), gp_array_data(tmp), NULL, 0, 1,
                               count);
    /* runs: the partials merge RED_RUN at a time while more remain */
    while (s == GP_OK && runs && S > RED_RUN) {
        red_plan_t q = partials_plan(&p, S, by_part, acc);
        int64_t S2 = (S + RED_RUN - 1) / RED_RUN;
        gp_red_spec_t sm = *sp;
        sm.stage = GP_STAGE_MERGE;
        sm.vec = 0;
        sm.in_dt = sm.out_dt = sp->loop_dt;
        sm.has_initial = 0;
        sm.block_per_out = !by_part;
        sm.by_part = by_part = !sm.block_per_out && S2 <= 64;
        gp_array_t *next = NULL;
        tshape[0] = p.M * S2 * acc;
        s = gp_array_empty(GP_UINT8, 1, tshape, GP_ORDER_C, &next);
        if (s == GP_OK)
            s = launch_red(&sm, &q, S2, gp_array_data(tmp), gp_array_data(next), NULL, 0, 1,
                           count);
        gp_array_release(tmp);
        tmp = next;
        S = S2;
    }
    if (s == GP_OK) {
        red_plan_t q = partials_plan(&p, S, by_part, acc);
        gp_red_spec_t s2 = *sp;
        s2.stage = GP_STAGE_COMBINE;
        s2.vec = 0;
        s2.in_dt = sp->loop_dt;
        s2.block_per_out = !by_part;
        s = launch_red(&s2, &q, 1, gp_array_data(tmp), gp_array_data(out), init, init_size,
                       gp_compute_align(sp->loop_dt), count);
    }
    gp_array_release(tmp);
    return s;
}

/* The dtype NumPy reduces in by default: add and multiply raise small
 * integers and bool to the platform integer. */
static int32_t default_reduce_dtype(const gp_op_t *op, int32_t dt)
{
    bool arith = strcmp(op->name, "add") == 0 || strcmp(op->name, "multiply") == 0;
    if (arith && gp_dtype_size(dt) < 8) {
        if (dt == GP_BOOL || gp_dtype_kind(dt) == GP_KIND_INT)
            return GP_INT64;
        if (gp_dtype_kind(dt) == GP_KIND_UINT)
            return GP_UINT64;
    }
    return dt;
}

/* The one dtype of a reduction's (or accumulation's) loop, resolved as
 * NumPy resolves reduce-like methods: `dtype` fixes it; else a given output
 * takes part as the accumulator (the first operand); else add and multiply
 * raise small integers. Inputs and outputs are then cast unsafely, so a given
 * output of any dtype is accepted. */
static gp_status_t reduce_loop(int32_t id, int32_t in_dt, const gp_array_t *out,
                               int32_t dtype, const char *method, int32_t *loop_dt)
{
    const gp_op_t *op = &gp_ufuncs[id];
    if (gp_op_resolver(op) == GP_RES_LOGICAL) {
        /* NumPy reduces logical ufuncs in bool whatever their input (its
         * loops such as bb->? do not chain) and has no other loop for them */
        if (dtype >= 0 && dtype != GP_BOOL)
            return gp_set_error(GP_ERR_TYPE_NO_LOOP, "No loop matching the specified signature "
                                                     "and casting was found for ufunc %s",
                                gp_op_shown(op));
        *loop_dt = GP_BOOL;
        return GP_OK;
    }
    int32_t dts[3], weak[2] = {0, 0}, sig[3] = {-1, -1, dtype}, ld[3];
    if (dtype >= 0) {
        dts[0] = dts[1] = dtype;
        dts[2] = -1;
    } else if (out) {
        dts[0] = dts[2] = out->dtype;
        dts[1] = in_dt;
    } else {
        dts[0] = dts[1] = default_reduce_dtype(op, in_dt);
        dts[2] = -1;
    }
    GP_TRY(gp_ufunc_resolve(id, dts, weak, dtype >= 0 ? sig : NULL, GP_CASTING_UNSAFE, ld));
    if (ld[0] != ld[1] || ld[0] != ld[2])
        return gp_set_error(GP_ERR_TYPE, "the resolved dtypes are not compatible with %s.%s. "
                                         "Resolved (dtype('%s'), dtype('%s'), dtype('%s'))",
                            gp_op_shown(op), method, gp_dtypes[ld[0]].name, gp_dtypes[ld[1]].name,
                            gp_dtypes[ld[2]].name);
    *loop_dt = ld[0];
    return GP_OK;
}

/* 1 in *out if any element of `a`, cast to the signed integer dtype `dt`, is
 * negative. */
static gp_status_t any_negative_as(const gp_array_t *a, int32_t dt, bool *out)
{
    *out = false;
    if (a->size == 0)
        return GP_OK;
    gp_array_t *cast = NULL, *neg = NULL, *any = NULL;
    if (a->dtype != dt)
        GP_TRY(gp_copy_new(a, dt, GP_ORDER_K, &cast));
    gp_operand_t ops[2];
    memset(ops, 0, sizeof ops);
    ops[0].array = cast ? cast : (gp_array_t *)a;
    ops[1].scalar.dtype = GP_INT64;
    ops[1].scalar.weak = 1;
    gp_status_t s = gp_ufunc_call(gp_ufunc_id("less"), ops, &neg, NULL, NULL,
                                  GP_CASTING_SAME_KIND, GP_ORDER_K);
    if (s == GP_OK)
        s = gp_ufunc_reduce(gp_ufunc_id("logical_or"), neg, 0, NULL, 0, -1, NULL, &any);
    unsigned char v = 0;
    if (s == GP_OK)
        s = gp_array_to_host(any, &v, 1, GP_ORDER_C);
    gp_array_release(cast);
    gp_array_release(neg);
    gp_array_release(any);
    *out = v != 0;
    return s;
}

/* NumPy's integer power loops refuse negative exponents. Along a reduced or
 * accumulated `axis` (-1: none) every element is an exponent but the first,
 * which starts the result unless an initial value does. */
static gp_status_t check_exponents(const gp_op_t *op, int32_t loop_dt, const gp_array_t *a,
                                   int32_t axis, bool has_initial)
{
    if (op->check != GP_CHECK_INT_POWER || gp_dtype_kind(loop_dt) != GP_KIND_INT)
        return GP_OK;
    if (axis < 0 && !has_initial)
        return GP_OK;
    gp_array_t *exps;
    if (has_initial) {
        GP_TRY(gp_array_new_view(a, a->ndim, a->shape, a->strides, a->offset, &exps));
    } else {
        int64_t shape[GP_MAXDIM];
        memcpy(shape, a->shape, (size_t)a->ndim * sizeof *shape);
        int64_t offset = a->offset;
        if (shape[axis] > 0) {
            shape[axis] -= 1;
            offset += a->strides[axis];
        }
        GP_TRY(gp_array_new_view(a, a->ndim, shape, a->strides, offset, &exps));
    }
    bool neg;
    gp_status_t s = any_negative_as(exps, loop_dt, &neg);
    gp_array_release(exps);
    if (s == GP_OK && neg)
        s = gp_set_error(GP_ERR_VALUE, "Integers to negative integer powers are not allowed.");
    return s;
}

/* NumPy converts a Python scalar `initial` to the loop's dtype as Python
 * converts numbers (int(x) for an integer dtype): NaN, infinities and
 * integers out of range fail, a complex number does not become a real one.
 * NumPy scalars are cast as arrays are. */
static gp_status_t convert_initial(const gp_scalar_t *v, int32_t loop_dt, gp_scalar_t *out)
{
    *out = *v;
    int32_t lk = gp_dtype_kind(loop_dt), vk = gp_dtype_kind(v->dtype);
    if (!v->weak || lk == GP_KIND_BOOL)
        return GP_OK;
    if (vk == GP_KIND_COMPLEX && lk != GP_KIND_COMPLEX)
        return gp_set_error(GP_ERR_TYPE, "%s() argument must be a string or a real number, "
                                         "not 'complex'", lk == GP_KIND_FLOAT ? "float" : "int");
    if (vk == GP_KIND_FLOAT && (lk == GP_KIND_INT || lk == GP_KIND_UINT)) {
        double x = v->re;
        if (x != x)
            return gp_set_error(GP_ERR_VALUE, "cannot convert float NaN to integer");
        if (x == INFINITY || x == -INFINITY)
            return gp_set_error(GP_ERR_OVERFLOW, "cannot convert float infinity to integer");
        double t = trunc(x);
        if (t >= -9223372036854775808.0 && t < 9223372036854775808.0) {
            out->dtype = GP_INT64;
            out->i = (int64_t)t;
        } else if (t >= 0 && t < 18446744073709551616.0) {
            out->dtype = GP_UINT64;
            out->i = (int64_t)(uint64_t)t;
        } else {
            return gp_set_error(GP_ERR_OVERFLOW, "Python int too large to convert to %s",
                                gp_dtypes[loop_dt].name);
        }
    }
    return gp_scalar_check_fits(out, loop_dt);
}

static gp_status_t identity_scalar(const gp_op_t *op, gp_scalar_t *v)
{
    memset(v, 0, sizeof *v);
    v->dtype = GP_INT64;
    switch (op->identity) {
    case GP_IDENTITY_ZERO: case GP_IDENTITY_FALSE: v->i = 0; break;
    case GP_IDENTITY_ONE: case GP_IDENTITY_TRUE: v->i = 1; break;
    case GP_IDENTITY_MINUS_ONE: v->i = -1; break;
    case GP_IDENTITY_MINUS_INF: v->dtype = GP_FLOAT64; v->re = -HUGE_VAL; break;
    default: return GP_ERR_VALUE;
    }
    return GP_OK;
}

/* The checks reduce and accumulate share: the handles, a binary ufunc, the dtype. */
static gp_status_t binary_method_args(int32_t id, const gp_array_t *a, gp_array_t **out,
                                      int32_t dtype, const char *method, const gp_op_t **op)
{
    GP_CHECK_ARRAY(a);
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_ufunc_%s: out is NULL", method);
    if (*out)
        GP_CHECK_ARRAY(*out);
    if (id < 0 || id >= gp_nufuncs)
        return gp_set_error(GP_ERR_VALUE, "invalid ufunc id %d", id);
    *op = &gp_ufuncs[id];
    if ((*op)->nin != 2 || (*op)->nout != 1)
        return gp_set_error(GP_ERR_VALUE, "%s only supported for binary functions", method);
    if (dtype != -1 && !gp_dtype_valid(dtype))
        return gp_set_error(GP_ERR_TYPE, "invalid dtype code %d", dtype);
    return GP_OK;
}

GP_API gp_status_t gp_ufunc_reduce(int32_t id, const gp_array_t *a, int32_t naxes,
                                   const int32_t *axes, int32_t keepdims, int32_t dtype,
                                   const gp_scalar_t *initial, gp_array_t **out)
{
    const gp_op_t *op;
    GP_TRY(binary_method_args(id, a, out, dtype, "reduce", &op));
    if (initial && !gp_dtype_valid(initial->dtype))
        return gp_set_error(GP_ERR_TYPE, "invalid scalar dtype %d", initial->dtype);
    bool mask[GP_MAXDIM];
    GP_TRY(gp_axes_to_mask(naxes, axes, a->ndim, mask));
    int32_t nred = 0;
    for (int32_t d = 0; d < a->ndim; ++d)
        nred += mask[d];
    /* NumPy's order of errors: the dtypes are resolved before the axes are
     * checked against the ufunc */
    int32_t loop_dt;
    GP_TRY(reduce_loop(id, a->dtype, *out, dtype, "reduce", &loop_dt));
    if (op->neutral == GP_NEUTRAL_NONE && nred > 1)
        return gp_set_error(GP_ERR_VALUE, "reduction operation '%s' is not reorderable, so at "
                                          "most one axis may be specified", gp_op_shown(op));
    gp_scalar_t init_value;
    if (initial) {
        GP_TRY(convert_initial(initial, loop_dt, &init_value));
        initial = &init_value;
    }

    int64_t K = 1;
    int32_t axis = -1;
    for (int32_t k = 0; k < a->ndim; ++k)
        if (mask[k]) {
            K *= a->shape[k];
            axis = k;
        }
    GP_TRY(check_exponents(op, loop_dt, a, nred == 1 ? axis : -1, initial != NULL));
    bool made;
    GP_TRY(prepare_out(a, mask, keepdims, loop_dt, gp_op_shown(op), out, &made));
    gp_status_t s = GP_OK;
    if (K == 0 || a->size == 0) {
        /* nothing to combine: every output is the initial value or the
         * identity */
        gp_scalar_t v;
        if (initial)
            v = *initial;
        else if (K == 0 && identity_scalar(op, &v) != GP_OK)
            s = gp_set_error(GP_ERR_VALUE, "zero-size array to reduction operation %s which "
                                           "has no identity", gp_op_shown(op));
        if (s == GP_OK && (*out)->size > 0)
            s = gp_array_fill(*out, &v);
    } else {
        gp_red_spec_t sp;
        memset(&sp, 0, sizeof sp);
        sp.family = GP_FAMILY_RED;
        /* logaddexp's in one pass, a float32 or float64 loop (a 16-bit
         * one rounds every step, as NumPy's) from its identity */
        sp.kind = !initial && !narrow_loop(loop_dt) && strcmp(op->name, "logaddexp") == 0
                      ? GP_RED_LOGSUMEXP : GP_RED_UFUNC;
        sp.op = (uint16_t)id;
        sp.in_dt = (uint8_t)a->dtype;
        sp.loop_dt = (uint8_t)loop_dt;
        sp.out_dt = (uint8_t)(*out)->dtype;
        sp.has_initial = initial != NULL;
        unsigned char init[16] = {0};
        int32_t isz = initial ? gp_scalar_to_compute(initial, loop_dt, init) : 0;
        s = run_reduction(&sp, a, mask, keepdims, *out, init, isz,
                          op->neutral == GP_NEUTRAL_NONE);
    }
    if (s != GP_OK && made) {
        gp_array_release(*out);
        *out = NULL;
    }
    return s;
}

/* numpy.mean's two steps, for results the fused kernel does not give: the
 * sum in `sum_dt` (-1: resolved with the output) written into *out (cast
 * unsafely), then divided in place by the number of elements (an int64, as
 * NumPy's intp: in float64 or complex128 for smaller dtypes), cast back
 * unsafely. */
static gp_status_t mean_in_steps(const gp_array_t *a, int32_t naxes, const int32_t *axes,
                                 int32_t keepdims, int32_t sum_dt, int64_t count,
                                 gp_array_t **out)
{
    bool made = *out == NULL;
    GP_TRY(gp_ufunc_reduce(gp_ufunc_id("add"), a, naxes, axes, keepdims, sum_dt, NULL, out));
    gp_operand_t ops[2];
    memset(ops, 0, sizeof ops);
    ops[0].array = *out;
    ops[1].scalar.dtype = GP_INT64; /* NumPy's intp count, not weak: complex64 divides in
                                       complex128 */
    ops[1].scalar.i = count;
    gp_array_t *res[1] = {*out};
    gp_status_t s = gp_ufunc_call(gp_ufunc_id("true_divide"), ops, res, NULL, NULL,
                                  GP_CASTING_UNSAFE, GP_ORDER_K);
    if (s != GP_OK && made) {
        gp_array_release(*out);
        *out = NULL;
    }
    return s;
}

GP_API gp_status_t gp_array_mean(const gp_array_t *a, int32_t naxes, const int32_t *axes,
                                 int32_t keepdims, int32_t dtype, gp_array_t **out)
{
    GP_CHECK_ARRAY(a);
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_mean: out is NULL");
    if (*out)
        GP_CHECK_ARRAY(*out);
    if (dtype != -1 && !gp_dtype_valid(dtype))
        return gp_set_error(GP_ERR_TYPE, "invalid dtype code %d", dtype);
    bool mask[GP_MAXDIM];
    GP_TRY(gp_axes_to_mask(naxes, axes, a->ndim, mask));
    int64_t count = 1;
    for (int32_t d = 0; d < a->ndim; ++d)
        if (mask[d])
            count *= a->shape[d];
    bool inexact_in = gp_dtype_kind(a->dtype) == GP_KIND_FLOAT ||
                      gp_dtype_kind(a->dtype) == GP_KIND_COMPLEX;
    int32_t res = dtype >= 0 ? dtype : inexact_in ? a->dtype : GP_FLOAT64;
    bool inexact_res = gp_dtype_kind(res) == GP_KIND_FLOAT ||
                       gp_dtype_kind(res) == GP_KIND_COMPLEX;
    /* NumPy casts every element to a float16 result's dtype before it sums
     * (65535 as float16 is inf); the fused kernel would load it straight
     * into its float32 accumulator (bfloat16 the same) */
    bool into_16 = gp_dtypes[res].compute != res && a->dtype != res;
    if (!inexact_res || into_16 || (*out && (*out)->dtype != res)) {
        /* NumPy sums in the given dtype, float64 for integers, float32 for
         * float16 (and bfloat16), else in what the input and the output
         * resolve to */
        int32_t sum_dt = dtype >= 0 ? dtype : !inexact_in ? GP_FLOAT64
                         : gp_dtypes[a->dtype].compute != a->dtype ? GP_FLOAT32 : -1;
        return mean_in_steps(a, naxes, axes, keepdims, sum_dt, count, out);
    }
    int32_t acc = gp_dtypes[res].compute;
    bool made;
    GP_TRY(prepare_out(a, mask, keepdims, res, "mean", out, &made));
    gp_red_spec_t sp;
    memset(&sp, 0, sizeof sp);
    sp.family = GP_FAMILY_RED;
    sp.kind = GP_RED_MEAN;
    sp.op = (uint16_t)gp_ufunc_id("add");
    sp.in_dt = (uint8_t)a->dtype;
    sp.loop_dt = (uint8_t)acc;
    sp.out_dt = (uint8_t)(*out)->dtype;
    /* an empty mean is 0/0 = NaN, as NumPy's (which also warns) */
    gp_status_t s = run_reduction(&sp, a, mask, keepdims, *out, NULL, 0, false);
    if (s != GP_OK && made) {
        gp_array_release(*out);
        *out = NULL;
    }
    return s;
}

GP_API gp_status_t gp_array_argextreme(const gp_array_t *a, int32_t maximum, int32_t axis,
                                       int32_t keepdims, gp_array_t **out)
{
    GP_CHECK_ARRAY(a);
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_argextreme: out is NULL");
    if (*out)
        GP_CHECK_ARRAY(*out);
    bool mask[GP_MAXDIM];
    if (axis == GP_AXIS_NONE) {
        GP_TRY(gp_axes_to_mask(0, NULL, a->ndim, mask));
    } else {
        int32_t ax;
        GP_TRY(gp_normalize_axis(axis, a->ndim, &ax));
        for (int32_t d = 0; d < a->ndim; ++d)
            mask[d] = d == ax;
    }
    int64_t K = 1;
    for (int32_t d = 0; d < a->ndim; ++d)
        if (mask[d])
            K *= a->shape[d];
    const char *what = maximum ? "argmax" : "argmin";
    if (K == 0)
        return gp_set_error(GP_ERR_VALUE, "attempt to get %s of an empty sequence", what);
    /* NumPy takes an output whose dtype casts safely to int64 and writes the
     * indices back into it */
    if (*out) {
        if (!gp_can_cast((*out)->dtype, GP_INT64, GP_CASTING_SAFE))
            return gp_set_error(GP_ERR_TYPE_CASTING, "Cannot cast scalar from dtype('%s') to "
                                                     "dtype('int64') according to the rule "
                                                     "'safe'", gp_dtypes[(*out)->dtype].name);
    }
    bool made;
    GP_TRY(prepare_out(a, mask, keepdims, GP_INT64, what, out, &made));
    gp_array_t *idx = *out;
    gp_status_t s = GP_OK;
    if ((*out)->dtype != GP_INT64) {
        const int64_t *lp[1] = {(*out)->strides};
        s = gp_array_alloc_like(GP_INT64, (*out)->ndim, (*out)->shape, 1, lp, GP_ORDER_K, &idx);
    }
    if (s == GP_OK) {
        gp_red_spec_t sp;
        memset(&sp, 0, sizeof sp);
        sp.family = GP_FAMILY_RED;
        sp.kind = maximum ? GP_RED_ARGMAX : GP_RED_ARGMIN;
        sp.in_dt = (uint8_t)a->dtype;
        sp.loop_dt = (uint8_t)a->dtype;
        sp.out_dt = GP_INT64;
        s = run_reduction(&sp, a, mask, keepdims, idx, NULL, 0, true);
        if (s == GP_OK && idx != *out)
            s = gp_copy_into(*out, idx);
        if (idx != *out)
            gp_array_release(idx);
    }
    if (s != GP_OK && made) {
        gp_array_release(*out);
        *out = NULL;
    }
    return s;
}

GP_API gp_status_t gp_ufunc_accumulate(int32_t id, const gp_array_t *a, int32_t axis,
                                       int32_t dtype, gp_array_t **out)
{
    const gp_op_t *op;
    GP_TRY(binary_method_args(id, a, out, dtype, "accumulate", &op));
    if (a->ndim == 0)
        return gp_set_error(GP_ERR_TYPE, "cannot accumulate on a scalar");
    int32_t ax;
    GP_TRY(gp_normalize_axis(axis, a->ndim, &ax));
    int32_t ld[1];
    GP_TRY(reduce_loop(id, a->dtype, *out, dtype, "accumulate", ld));
    GP_TRY(check_exponents(op, ld[0], a, ax, false));
    bool made = false;
    if (*out) {
        bool same = (*out)->ndim == a->ndim;
        for (int32_t k = 0; k < a->ndim && same; ++k)
            same = (*out)->shape[k] == a->shape[k];
        if (!same)
            return gp_set_error(GP_ERR_VALUE, "output parameter for accumulate has the wrong "
                                              "shape");
        if (!((*out)->flags & GP_FLAG_WRITEABLE))
            return gp_set_error(GP_ERR_VALUE, "output array is read-only");
    } else {
        const int64_t *lp[1] = {a->strides};
        GP_TRY(gp_array_alloc_like(ld[0], a->ndim, a->shape, 1, lp, GP_ORDER_K, out));
        made = true;
    }
    if (a->size == 0)
        return GP_OK;
    gp_array_t *copy = NULL;
    if (!made) {
        /* each element is read before its own output is written, so only an
         * output that overlaps the input otherwise needs a copy of it */
        int32_t share = 0;
        gp_array_may_share_memory(a, *out, &share);
        bool same = gp_array_data(a) == gp_array_data(*out) && a->dtype == (*out)->dtype;
        for (int32_t k = 0; k < a->ndim && same; ++k)
            same = a->shape[k] == 1 || a->strides[k] == (*out)->strides[k];
        if (share && !same) {
            GP_TRY(gp_copy_new(a, a->dtype, GP_ORDER_K, &copy));
            a = copy;
        }
    }
    /* the lines: every dim but the axis, collapsed */
    int64_t shape[GP_MAXDIM], sin[GP_MAXDIM], sout[GP_MAXDIM];
    int32_t n = 0;
    for (int32_t k = 0; k < a->ndim; ++k)
        if (k != ax) {
            shape[n] = a->shape[k];
            sin[n] = a->strides[k];
            sout[n++] = (*out)->strides[k];
        }
    int64_t M = gp_shape_size(n, shape);
    int64_t *st[2] = {sin, sout};
    n = merge_dims(n, shape, st, 2);
    gp_scan_spec_t sp;
    memset(&sp, 0, sizeof sp);
    sp.family = GP_FAMILY_SCAN;
    sp.op = (uint16_t)id;
    sp.in_dt = (uint8_t)a->dtype;
    sp.loop_dt = (uint8_t)ld[0];
    sp.out_dt = (uint8_t)(*out)->dtype;
    sp.nother = (uint8_t)n;
    int64_t span = 0;
    for (int32_t k = 0; k < a->ndim; ++k) {
        gp_span_add(&span, a->shape[k], a->strides[k]);
        gp_span_add(&span, a->shape[k], (*out)->strides[k]);
    }
    sp.idx32 = span < ((int64_t)1 << 30) && a->size < ((int64_t)1 << 30);
    int64_t K = a->shape[ax];
    const gp_device_props_t *props = NULL;
    const gp_backend_i *be = NULL;
    gp_status_t s = gp_backend_props(&props);
    if (s == GP_OK)
        s = gp_backend(&be);
    /* reorderable ufuncs scan lines longer than half a tile in one pass
     * over tiles; the scratch is a tile counter and each tile's state word
     * (cleared for every launch), then its value slots (aggregate, inclusive) */
    uint32_t threads = props && props->max_threads_per_block > 1 ? GP_SCAN_THREADS : 1;
    int64_t T = (int64_t)threads * gp_scan_items(ld[0]), NT = (K + T - 1) / T;
    int64_t acc = gp_compute_size(ld[0]), words = 8 * (1 + M * NT);
    sp.strategy = op->neutral != GP_NEUTRAL_NONE && 2 * K > T ? GP_SCAN_TILES
                                                              : GP_SCAN_SEQUENTIAL;
    /* 16-byte vectors where every line is contiguous in the loop's own
     * dtype of 4 or 8 bytes (a thread's row, 128 bytes, is 8 vectors) and
     * starts 16-byte aligned; on CUDA such lines of a real dtype, aligned
     * or not, go through CUB's agent (whose tile descriptor holds a
     * primitive value with its status in one word) */
    int64_t isz = gp_dtype_size(ld[0]);
    bool lines = sp.strategy == GP_SCAN_TILES && a->dtype == ld[0] && (*out)->dtype == ld[0] &&
                 gp_compute_size(ld[0]) == isz && (isz == 4 || isz == 8) &&
                 a->strides[ax] == isz && (*out)->strides[ax] == isz;
    bool aligned = (uintptr_t)gp_array_data(a) % 16 == 0 &&
                   (uintptr_t)gp_array_data(*out) % 16 == 0;
    for (int32_t j = 0; j < n; ++j)
        aligned = aligned && sin[j] % 16 == 0 && sout[j] % 16 == 0;
    if (lines && gp_dtype_kind(ld[0]) != GP_KIND_COMPLEX && be && strcmp(be->name, "cuda") == 0 &&
        gp_tuning()->scan_cub) {
        int ct, ci;
        gp_scan_cub_shape(ld[0], &ct, &ci);
        gp_scan_spec_t cub = sp;
        cub.strategy = GP_SCAN_CUB;
        cub.cub_warps = (uint8_t)(ct / 32);
        cub.cub_items = (uint8_t)ci;
        int64_t tile = gp_scan_cub_tile(&cub), cnt = (K + tile - 1) / tile;
        if (M * cnt <= INT32_MAX) {
            sp = cub;
            threads = (uint32_t)ct;
            NT = cnt;
            words = M * (NT + GP_SCAN_CUB_PAD) * 2 * isz;
        }
    }
    sp.vec = sp.strategy == GP_SCAN_TILES && lines && aligned && gp_tuning()->scan_vec
                 ? (uint8_t)(16 / isz)
                 : 0;
    gp_array_t *part = NULL;
    if (s == GP_OK && sp.strategy != GP_SCAN_SEQUENTIAL) {
        int64_t pbytes = sp.strategy == GP_SCAN_CUB ? words : words + 2 * M * NT * acc;
        s = gp_array_empty(GP_UINT8, 1, &pbytes, GP_ORDER_C, &part);
        if (s == GP_OK && sp.strategy == GP_SCAN_TILES)
            s = be->memset8(gp_array_data(part), 0, (size_t)words, gp_current_stream());
    }
    gp_params_t pr;
    gp_params_init(&pr);
    gp_params_index(&pr, M);
    gp_params_index(&pr, K);
    gp_params_index(&pr, NT);
    for (int32_t j = 0; j < n; ++j)
        gp_params_index(&pr, shape[j]);
    for (int32_t j = 0; j < n; ++j)
        gp_params_index(&pr, sin[j]);
    for (int32_t j = 0; j < n; ++j)
        gp_params_index(&pr, sout[j]);
    gp_params_index(&pr, a->strides[ax]);
    gp_params_index(&pr, (*out)->strides[ax]);
    gp_params_ptr(&pr, gp_array_data(a));
    gp_params_ptr(&pr, gp_array_data(*out));
    char *scratch = part ? gp_array_data(part) : NULL;
    gp_params_ptr(&pr, scratch);
    gp_params_ptr(&pr, sp.strategy == GP_SCAN_TILES ? scratch + words : NULL);
    gp_params_ptr(&pr, sp.strategy == GP_SCAN_TILES ? scratch + words + M * NT * acc : NULL);
    const gp_kernel_t *k;
    if (s == GP_OK && sp.strategy == GP_SCAN_CUB) {
        /* the tile descriptors first; then a block a tile, as CUB's agent
         * takes tile blockIdx.x + start_tile and a tile waits only on
         * lower blocks */
        gp_scan_spec_t init = sp;
        init.strategy = GP_SCAN_CUB_INIT;
        s = gp_kernel_get(&init, sizeof init, gp_gen_scan, &init, &k);
        if (s == GP_OK) {
            gp_launch_t cfg = gp_grid_for(M * (NT + GP_SCAN_CUB_PAD), 256);
            s = gp_launch(k, &cfg, &pr);
        }
    }
    if (s == GP_OK)
        s = gp_kernel_get(&sp, sizeof sp, gp_gen_scan, &sp, &k);
    if (s == GP_OK) {
        gp_launch_t cfg = sp.strategy == GP_SCAN_CUB     ? (gp_launch_t){(uint32_t)(M * NT), threads, 0}
                          : sp.strategy == GP_SCAN_TILES ? gp_grid_for(M * NT * threads, threads)
                                                         : gp_grid_for(M, 256);
        s = gp_launch(k, &cfg, &pr);
    }
    gp_array_release(part);
    gp_array_release(copy);
    if (s != GP_OK && made) {
        gp_array_release(*out);
        *out = NULL;
    }
    return s;
}

/* ---- users' reduction kernels ------------------------------------------------------- */

GP_API gp_status_t gp_reduction_user(const char *name, const char *map_expr,
                                     const char *reduce_expr, const char *post_map,
                                     const char *identity, const char *preamble,
                                     int32_t ntypes, const char *const *type_names,
                                     const int32_t *type_dtypes, int32_t reduce_dtype,
                                     const gp_user_param_t *in_param, const gp_array_t *in,
                                     const gp_user_param_t *out_param, gp_array_t *out,
                                     int32_t naxes, const int32_t *axes)
{
    if (!map_expr || !reduce_expr || !post_map || !identity || !in_param || !out_param ||
        !in_param->name || !out_param->name || ntypes < 0 ||
        (ntypes > 0 && (!type_names || !type_dtypes)))
        return gp_set_error(GP_ERR_MISUSE, "gp_reduction_user: invalid argument");
    GP_CHECK_ARRAY(in);
    GP_CHECK_ARRAY(out);
    if (!gp_dtype_valid(reduce_dtype) || !gp_dtype_valid(in_param->dtype) ||
        !gp_dtype_valid(out_param->dtype))
        return gp_set_error(GP_ERR_TYPE, "invalid dtype for a reduction kernel");
    bool mask[GP_MAXDIM];
    GP_TRY(gp_axes_to_mask(naxes, axes, in->ndim, mask));
    bool keepdims = out->ndim == in->ndim && in->ndim > 0;
    int64_t want[GP_MAXDIM];
    int32_t wnd = reduced_shape(in, mask, keepdims, want);
    bool same = out->ndim == wnd;
    for (int32_t d = 0; d < wnd && same; ++d)
        same = out->shape[d] == want[d];
    if (!same)
        return gp_set_error(GP_ERR_VALUE, "the output of reduction kernel %s has the wrong "
                                          "shape", name ? name : "");
    if (!(out->flags & GP_FLAG_WRITEABLE))
        return gp_set_error(GP_ERR_VALUE, "output array is read-only");
    red_plan_t p;
    plan(in, mask, out, keepdims, false, &p);
    if (p.M == 0)
        return GP_OK;
    const gp_device_props_t *props;
    GP_TRY(gp_backend_props(&props));
    int64_t rmin = gp_abs_stride(p.rin[p.nred - 1]), kmin = INT64_MAX;
    for (int32_t d = 0; d < p.nkeep; ++d)
        if (gp_abs_stride(p.kin[d]) < kmin)
            kmin = gp_abs_stride(p.kin[d]);
    gp_user_param_t ps[2] = {*in_param, *out_param};
    int32_t dts[2] = {in->dtype, out->dtype};
    gp_user_desc_t d = {.name = name, .operation = map_expr, .reduce_expr = reduce_expr,
                        .post_map = post_map, .identity = identity, .preamble = preamble,
                        .ntypes = ntypes, .type_names = type_names, .type_dtypes = type_dtypes,
                        .nparams = 2, .params = ps, .dtypes = dts, .reduce_dtype = reduce_dtype,
                        .ndim = p.nkeep, .nred = p.nred};
    d.block_per_out = (p.K > 1 && rmin <= kmin) || p.M < props->multiprocessors;
    d.idx32 = in->size * gp_dtype_size(in->dtype) < ((int64_t)1 << 30) &&
              out->size * gp_dtype_size(out->dtype) < ((int64_t)1 << 30);
    const gp_kernel_t *k;
    GP_TRY(gp_user_kernel(&d, gp_gen_user_red, &k));
    gp_params_t pr;
    gp_params_init(&pr);
    gp_params_index(&pr, p.M);
    gp_params_index(&pr, p.K);
    for (int32_t j = 0; j < p.nkeep; ++j)
        gp_params_index(&pr, p.kshape[j]);
    for (int32_t j = 0; j < p.nkeep; ++j)
        gp_params_index(&pr, p.kin[j]);
    for (int32_t j = 0; j < p.nkeep; ++j)
        gp_params_index(&pr, p.kout[j]);
    for (int32_t j = 0; j < p.nred; ++j)
        gp_params_index(&pr, p.rshape[j]);
    for (int32_t j = 0; j < p.nred; ++j)
        gp_params_index(&pr, p.rin[j]);
    gp_params_ptr(&pr, gp_array_data(in));
    gp_params_ptr(&pr, gp_array_data(out));
    gp_launch_t cfg = d.block_per_out ? gp_grid_for(p.M * 256, 256) : gp_grid_for(p.M, 256);
    return gp_launch(k, &cfg, &pr);
}
