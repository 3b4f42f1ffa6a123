/*
 * index.c - advanced indexing: gathers (a[idx]), scatters (a[idx] = v), the
 * scatter-add (a[idx] += v, every index counted) and nonzero, through the
 * generated kernels of gp_gen_gather/gp_gen_nonzero.
 *
 * Out-of-bounds indices (mode raise) are found by the kernel, which claims
 * the device's error record (csrc/backend/errrec.c) instead of moving the
 * element: the host backend reports the error from the call itself, a GPU
 * at the next point where the host waits for the device.
 */
#include <stdio.h>
#include <string.h>

#include "kernels.h"

/* Bytes between the lowest and the highest byte an array reaches. */
static int64_t span_of(int32_t ndim, const int64_t *shape, const int64_t *strides, int64_t isz)
{
    int64_t span = isz;
    for (int32_t d = 0; d < ndim; ++d)
        gp_span_add(&span, shape[d], strides[d]);
    return span;
}

static gp_status_t broadcast_indices(int32_t k, gp_array_t *const *idx, int32_t *nb, int64_t *B)
{
    int32_t nds[GP_MAXDIM];
    const int64_t *shp[GP_MAXDIM];
    for (int32_t j = 0; j < k; ++j) {
        GP_CHECK_ARRAY(idx[j]);
        if (!gp_dtype_is_int(idx[j]->dtype))
            return gp_set_error(GP_ERR_INDEX, "arrays used as indices must be of integer (or "
                                              "boolean) type");
        nds[j] = idx[j]->ndim;
        shp[j] = idx[j]->shape;
    }
    if (gp_broadcast_shapes(k, nds, shp, nb, B) == GP_OK)
        return GP_OK;
    char msg[1024] = "", one[256];
    size_t used = 0;
    for (int32_t j = 0; j < k && used < sizeof msg; ++j) {
        gp_shape_format(idx[j]->ndim, idx[j]->shape, one, sizeof one);
        used += (size_t)snprintf(msg + used, sizeof msg - used, "%s%s", j ? " " : "", one);
    }
    return gp_set_error(GP_ERR_INDEX, "shape mismatch: indexing arrays could not be broadcast "
                                      "together with shapes %s", msg);
}

/* One launch of the gather family: `scatter` as gp_gather_spec_t's; with
 * `check_only`, the pass over the `nidx` index positions that checks them and
 * moves nothing. */
static gp_status_t launch_pass(gp_array_t *a, int32_t k, const gp_array_t *const *ix,
                               const int32_t *axes, int32_t mode, int32_t scatter,
                               bool check_only, int32_t nb, int32_t nr, const int64_t *shape,
                               int64_t nidx, int64_t n, const gp_array_t *vals)
{
    int32_t nd = nb + nr;
    gp_gather_spec_t sp;
    memset(&sp, 0, sizeof sp);
    sp.family = GP_FAMILY_GATHER;
    sp.scatter = (uint8_t)scatter;
    sp.mode = (uint8_t)mode;
    sp.nidx = (uint8_t)k;
    sp.nb = (uint8_t)nb;
    sp.nr = (uint8_t)(check_only ? 0 : nr);
    sp.check_only = check_only;
    sp.dt = (uint8_t)a->dtype;
    sp.val_dt = (uint8_t)(scatter ? vals->dtype : a->dtype);
    int64_t limit = (int64_t)1 << 31;
    bool small = (check_only ? nidx : n) < GP_IDX32_ITEMS &&
                 span_of(a->ndim, a->shape, a->strides, gp_dtype_size(a->dtype)) < limit &&
                 (check_only || span_of(nd, vals->shape, vals->strides,
                                        gp_dtype_size(vals->dtype)) < limit);
    for (int32_t j = 0; j < k; ++j) {
        sp.idx_dt[j] = (uint8_t)ix[j]->dtype;
        small = small && span_of(ix[j]->ndim, ix[j]->shape, ix[j]->strides,
                                 gp_dtype_size(ix[j]->dtype)) < limit;
    }
    sp.idx32 = small;
    const gp_kernel_t *kern;
    GP_TRY(gp_kernel_get(&sp, sizeof sp, gp_gen_gather, &sp, &kern));
    void *rec;
    GP_TRY(gp_errrec_get(&rec));

    int32_t ndl = check_only ? nb : nd;
    gp_params_t p;
    gp_params_init(&p);
    gp_params_index(&p, check_only ? nidx : n);
    if (ndl) {
        for (int32_t d = 0; d < ndl; ++d)
            gp_params_index(&p, shape[d]);
        for (int32_t d = 0; d < ndl; ++d)
            gp_params_index(&p, check_only ? 0 : vals->shape[d] == 1 ? 0 : vals->strides[d]);
    }
    for (int32_t d = 0; d < sp.nr; ++d)
        gp_params_index(&p, a->shape[k + d] == 1 ? 0 : a->strides[k + d]);
    for (int32_t j = 0; j < k; ++j)
        gp_params_index(&p, a->shape[j]);
    for (int32_t j = 0; j < k; ++j)
        gp_params_index(&p, a->strides[j]);
    for (int32_t j = 0; j < k; ++j)
        gp_params_index(&p, axes ? axes[j] : j);
    for (int32_t j = 0; j < k && nb; ++j) {
        int32_t lead = nb - ix[j]->ndim;
        for (int32_t d = 0; d < nb; ++d) {
            int32_t dj = d - lead;
            gp_params_index(&p, dj >= 0 && ix[j]->shape[dj] != 1 ? ix[j]->strides[dj] : 0);
        }
    }
    for (int32_t j = 0; j < k; ++j)
        gp_params_ptr(&p, gp_array_data(ix[j]));
    gp_params_ptr(&p, check_only ? NULL : gp_array_data(vals));
    gp_params_ptr(&p, gp_array_data(a));
    gp_params_ptr(&p, rec);
    gp_launch_t cfg = gp_grid_for(check_only ? nidx : n, 256);
    GP_TRY(gp_launch(kern, &cfg, &p));
    return mode == GP_TAKE_RAISE ? gp_errrec_launched() : GP_OK;
}

/* The gather (values NULL, into `out`) or the scatter (from `values`; with
 * `add`, added). */
static gp_status_t run(gp_array_t *a, int32_t k, gp_array_t *const *idx, const int32_t *axes,
                       int32_t mode, gp_array_t *out, const gp_array_t *values, bool add)
{
    GP_CHECK_ARRAY(a);
    if (k < 1 || k > a->ndim || !idx)
        return gp_set_error(GP_ERR_INDEX, "too many indices for array: array is %d-dimensional, "
                                          "but %d were indexed", a->ndim, k);
    if (mode < GP_TAKE_RAISE || mode > GP_TAKE_CLIP)
        return gp_set_error(GP_ERR_VALUE, "invalid take mode %d", mode);
    int32_t nb;
    int64_t B[GP_MAXDIM];
    GP_TRY(broadcast_indices(k, idx, &nb, B));
    int32_t nr = a->ndim - k, nd = nb + nr;
    if (nd > GP_MAXDIM)
        return gp_set_error(GP_ERR_INDEX, "number of dimensions must be within [0, %d], but the "
                                          "index gives %d", GP_MAXDIM, nd);
    int64_t shape[GP_MAXDIM];
    memcpy(shape, B, (size_t)nb * sizeof *B);
    memcpy(shape + nb, a->shape + k, (size_t)nr * sizeof *shape);
    int64_t nidx = gp_shape_size(nb, B), n = gp_shape_size(nd, shape);

    gp_array_t *vals = NULL, *owned[GP_MAXDIM + 1];
    int32_t nowned = 0;
    if (values) {
        GP_CHECK_ARRAY(values);
        if (!(a->flags & GP_FLAG_WRITEABLE))
            return gp_set_error(GP_ERR_VALUE, "assignment destination is read-only");
        GP_TRY(gp_array_broadcast_to(values, nd, shape, &vals));
        owned[nowned++] = vals;
    } else {
        GP_CHECK_ARRAY(out);
        bool fits = out->dtype == a->dtype && out->ndim == nd && (out->flags & GP_FLAG_WRITEABLE);
        for (int32_t d = 0; d < nd && fits; ++d)
            fits = out->shape[d] == shape[d];
        if (!fits)
            return gp_set_error(GP_ERR_VALUE, "gather: the output must be a writeable array of "
                                              "the indexed array's dtype and the result's shape");
        vals = out;
    }
    gp_status_t s = GP_OK;
    const gp_array_t *ix[GP_MAXDIM];
    for (int32_t j = 0; j < k; ++j)
        ix[j] = idx[j];
    if (values) {
        /* a scatter reads values and indices that may live in `a`: from copies */
        int32_t share = 0;
        gp_array_may_share_memory(a, vals, &share);
        if (share) {
            gp_array_t *c;
            s = gp_copy_new(vals, vals->dtype, GP_ORDER_K, &c);
            if (s != GP_OK)
                goto done;
            owned[nowned++] = c;
            vals = c;
        }
        for (int32_t j = 0; j < k; ++j) {
            share = 0;
            gp_array_may_share_memory(a, ix[j], &share);
            if (share) {
                gp_array_t *c;
                s = gp_copy_new(ix[j], ix[j]->dtype, GP_ORDER_K, &c);
                if (s != GP_OK)
                    goto done;
                owned[nowned++] = c;
                ix[j] = c;
            }
        }
    }
    if (nidx == 0)
        goto done;
    bool check_only = n == 0;
    if (check_only && mode != GP_TAKE_RAISE)
        goto done; /* nothing to move, nothing that can fail: NumPy's clip gives the
                      empty result even from an empty axis (its wrap loops forever) */
    for (int32_t j = 0; j < k && mode != GP_TAKE_RAISE; ++j)
        if (a->shape[j] == 0) {
            s = gp_set_error(GP_ERR_INDEX, "cannot do a non-empty take from an empty axes.");
            goto done;
        }

    if (values && mode == GP_TAKE_RAISE && !check_only) {
        /* all or nothing, as NumPy: every index is checked before any
         * element moves (the scatter kernel writes nothing once the record
         * holds an error), and the error is the assignment's own, so a GPU
         * waits here for the record */
        s = launch_pass(a, k, ix, axes, mode, 0, true, nb, nr, shape, nidx, n, vals);
        if (s == GP_OK)
            s = launch_pass(a, k, ix, axes, mode, add ? 2 : 1, false, nb, nr, shape, nidx, n,
                            vals);
        if (s == GP_OK)
            s = gp_errrec_check(gp_current_stream(), false);
    } else {
        s = launch_pass(a, k, ix, axes, mode, add ? 2 : values != NULL, check_only, nb, nr, shape,
                        nidx, n, vals);
    }
done:
    for (int32_t j = 0; j < nowned; ++j)
        gp_array_release(owned[j]);
    return s;
}

GP_API gp_status_t gp_array_gather(const gp_array_t *a, int32_t nidx, gp_array_t *const *idx,
                                   const int32_t *axes, int32_t mode, gp_array_t *out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_gather: out is NULL");
    return run((gp_array_t *)a, nidx, idx, axes, mode, out, NULL, false);
}

GP_API gp_status_t gp_array_scatter(gp_array_t *a, int32_t nidx, gp_array_t *const *idx,
                                    const int32_t *axes, int32_t mode, const gp_array_t *values)
{
    if (!values)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_scatter: values is NULL");
    return run(a, nidx, idx, axes, mode, NULL, values, false);
}

GP_API gp_status_t gp_array_scatter_add(gp_array_t *a, int32_t nidx, gp_array_t *const *idx,
                                        const int32_t *axes, int32_t mode,
                                        const gp_array_t *values)
{
    if (!values)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_scatter_add: values is NULL");
    GP_CHECK_ARRAY(a);
    switch (a->dtype) {
    case GP_INT32: case GP_UINT32: case GP_INT64: case GP_UINT64:
    case GP_FLOAT32: case GP_FLOAT64: case GP_COMPLEX64: case GP_COMPLEX128:
        break;
    default: /* the types a GPU adds atomically */
        return gp_set_error(GP_ERR_TYPE, "scatter-add into %s is not supported: only 32- and "
                                         "64-bit integers, float32/64, complex64/128",
                            gp_dtypes[a->dtype].name);
    }
    return run(a, nidx, idx, axes, mode, NULL, values, true);
}

/* Launches the nonzero kernel of `sp`'s stage over the tiles of `n` mask
 * elements: a block of GPK_TILE_THREADS (256, which the kernel's rounds
 * assume) per tile on a GPU, the host's one thread through all of them. */
static gp_status_t nonzero_launch(gp_nonzero_spec_t *sp, int64_t n, gp_params_t *p)
{
    sp->family = GP_FAMILY_NONZERO;
    const gp_kernel_t *kern;
    GP_TRY(gp_kernel_get(sp, sizeof *sp, gp_gen_nonzero, sp, &kern));
    const gp_device_props_t *props;
    GP_TRY(gp_backend_props(&props));
    int64_t ntiles = (n + GP_NONZERO_TILE - 1) / GP_NONZERO_TILE;
    gp_launch_t cfg = {(uint32_t)(ntiles < (1 << 20) ? ntiles : (1 << 20)), 256, 0};
    if (props->max_threads_per_block <= 1)
        cfg.grid = cfg.block = 1;
    return gp_launch(kern, &cfg, p);
}

/* The truth of `a`'s elements in C order (`*m`, a bool array; `a` itself
 * when it is one), the inclusive running count of true elements per tile
 * (`*pos`) and their number, brought to the host. */
static gp_status_t mask_ranks(const gp_array_t *a, gp_array_t **m, gp_array_t **pos,
                              int64_t *count)
{
    *m = *pos = NULL;
    *count = 0;
    if (a->dtype == GP_BOOL &&
        gp_is_c_contiguous(a->ndim, a->shape, a->strides, gp_dtype_size(a->dtype))) {
        gp_array_retain((gp_array_t *)a);
        *m = (gp_array_t *)a;
    } else {
        GP_TRY(gp_copy_new(a, GP_BOOL, GP_ORDER_C, m));
    }
    int64_t n = a->size;
    int64_t ntiles = (n + GP_NONZERO_TILE - 1) / GP_NONZERO_TILE;
    gp_array_t *counts = NULL, *last = NULL;
    gp_status_t s = gp_array_empty(GP_INT64, 1, &ntiles, GP_ORDER_C, &counts);
    if (s == GP_OK) {
        gp_nonzero_spec_t sp;
        memset(&sp, 0, sizeof sp);
        sp.stage = GP_NZ_COUNT;
        gp_params_t p;
        gp_params_init(&p);
        gp_params_index(&p, n);
        gp_params_index(&p, 0);
        gp_params_ptr(&p, gp_array_data(*m));
        gp_params_ptr(&p, gp_array_data(counts));
        s = nonzero_launch(&sp, n, &p);
    }
    if (s == GP_OK)
        s = gp_ufunc_accumulate(gp_ufunc_id("add"), counts, 0, GP_INT64, pos);
    if (s == GP_OK)
        s = gp_array_slice(*pos, GP_SLICE_START, -1, 0, 1, &last);
    if (s == GP_OK)
        s = gp_array_to_host(last, count, sizeof *count, GP_ORDER_C);
    gp_array_release(last);
    gp_array_release(counts);
    if (s != GP_OK) {
        gp_array_release(*pos);
        gp_array_release(*m);
        *m = *pos = NULL;
    }
    return s;
}

GP_API gp_status_t gp_array_nonzero(const gp_array_t *a, gp_array_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_nonzero: out is NULL");
    *out = NULL;
    GP_CHECK_ARRAY(a);
    if (a->ndim == 0)
        return gp_set_error(GP_ERR_VALUE, "Calling nonzero on 0d arrays is not allowed. Use "
                                          "np.atleast_1d(scalar).nonzero() instead.");
    int32_t nd = a->ndim;
    int64_t n = a->size;
    gp_array_t *m = NULL, *pos = NULL;
    int64_t count = 0;
    if (n > 0)
        GP_TRY(mask_ranks(a, &m, &pos, &count));
    int64_t shape[2] = {nd, count};
    gp_status_t s = gp_array_empty(GP_INT64, 2, shape, GP_ORDER_C, out);
    if (s == GP_OK && count > 0) {
        gp_nonzero_spec_t sp;
        memset(&sp, 0, sizeof sp);
        sp.stage = GP_NZ_COORDS;
        sp.ndim = (uint8_t)nd;
        /* 64-bit divisions are slow on a GPU: coordinates of an array under
         * 2^30 elements are computed in int */
        sp.idx32 = n < GP_IDX32_ITEMS;
        gp_params_t p;
        gp_params_init(&p);
        gp_params_index(&p, n);
        gp_params_index(&p, count);
        for (int32_t d = 0; d < nd; ++d)
            gp_params_index(&p, a->shape[d]);
        gp_params_ptr(&p, gp_array_data(m));
        gp_params_ptr(&p, gp_array_data(pos));
        gp_params_ptr(&p, gp_array_data(*out));
        s = nonzero_launch(&sp, n, &p);
    }
    gp_array_release(pos);
    gp_array_release(m);
    if (s != GP_OK) {
        gp_array_release(*out);
        *out = NULL;
    }
    return s;
}

GP_API gp_status_t gp_array_masked(const gp_array_t *a, const gp_array_t *mask, gp_array_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_masked: out is NULL");
    *out = NULL;
    GP_CHECK_ARRAY(a);
    GP_CHECK_ARRAY(mask);
    bool same = a->ndim == mask->ndim;
    for (int32_t d = 0; same && d < a->ndim; ++d)
        same = a->shape[d] == mask->shape[d];
    if (!same)
        return gp_set_error(GP_ERR_INDEX, "boolean index did not match indexed array: the "
                                          "mask must have the array's shape");
    int64_t n = a->size;
    gp_array_t *m = NULL, *pos = NULL, *src = NULL;
    int64_t count = 0;
    if (n > 0)
        GP_TRY(mask_ranks(mask, &m, &pos, &count));
    gp_status_t s = gp_array_empty(a->dtype, 1, &count, GP_ORDER_C, out);
    if (s == GP_OK && count > 0) {
        if (gp_is_c_contiguous(a->ndim, a->shape, a->strides, gp_dtype_size(a->dtype))) {
            gp_array_retain((gp_array_t *)a);
            src = (gp_array_t *)a;
        } else {
            s = gp_copy_new(a, a->dtype, GP_ORDER_C, &src);
        }
    }
    if (s == GP_OK && count > 0) {
        gp_nonzero_spec_t sp;
        memset(&sp, 0, sizeof sp);
        sp.stage = GP_NZ_VALUES;
        sp.dt = (uint8_t)a->dtype;
        gp_params_t p;
        gp_params_init(&p);
        gp_params_index(&p, n);
        gp_params_index(&p, count);
        gp_params_ptr(&p, gp_array_data(m));
        gp_params_ptr(&p, gp_array_data(pos));
        gp_params_ptr(&p, gp_array_data(src));
        gp_params_ptr(&p, gp_array_data(*out));
        s = nonzero_launch(&sp, n, &p);
    }
    gp_array_release(src);
    gp_array_release(pos);
    gp_array_release(m);
    if (s != GP_OK) {
        gp_array_release(*out);
        *out = NULL;
    }
    return s;
}
