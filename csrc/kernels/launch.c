/*
 * launch.c - kernel parameters, launch geometry, and the elementwise runner
 * that every elementwise operation (ufuncs, casts, copies, fills, arange)
 * goes through.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

/* ---- parameters ------------------------------------------------------------ */

void gp_params_init(gp_params_t *p)
{
    p->size = 0;
    p->align = 1;
    p->overflow = false;
}

void gp_params_put(gp_params_t *p, const void *v, size_t size, size_t align)
{
    size_t off = (p->size + align - 1) / align * align;
    if (off + size > sizeof p->data) {
        p->overflow = true;
        return;
    }
    memset(p->data + p->size, 0, off - p->size);
    memcpy(p->data + off, v, size);
    p->size = off + size;
    if (align > p->align)
        p->align = align;
}

void gp_params_index(gp_params_t *p, int64_t v) { gp_params_put(p, &v, sizeof v, sizeof v); }

void gp_params_ptr(gp_params_t *p, const void *ptr) { gp_params_put(p, &ptr, sizeof ptr, sizeof ptr); }

size_t gp_params_size(gp_params_t *p)
{
    size_t n = (p->size + p->align - 1) / p->align * p->align;
    memset(p->data + p->size, 0, n - p->size);
    return n;
}

gp_status_t gp_launch(const gp_kernel_t *k, const gp_launch_t *cfg, gp_params_t *params)
{
    if (params->overflow)
        return gp_set_error(GP_ERR_UNSUPPORTED, "too many kernel parameters (more than %zu bytes)",
                            sizeof params->data);
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    size_t n = gp_params_size(params);
    return be->launch(k->fn, cfg, params->data, n, gp_current_stream());
}

/* A grid of `block`-thread blocks for n threads, at most `waves` grids
 * resident at once (grid-stride loops cover the rest). */
static gp_launch_t grid_capped(int64_t n, uint32_t block, int waves)
{
    gp_launch_t cfg = {1, 1, 0};
    const gp_device_props_t *p;
    if (gp_backend_props(&p) != GP_OK || p->max_threads_per_block <= 1)
        return cfg; /* the host runs one block of one thread */
    if (block > (uint32_t)p->max_threads_per_block)
        block = (uint32_t)p->max_threads_per_block;
    int64_t blocks = (n + block - 1) / block;
    int64_t cap = (int64_t)p->multiprocessors * p->max_blocks_per_sm * waves;
    if (cap > GP_IDX32_ITEMS / block)
        cap = GP_IDX32_ITEMS / block;
    if (blocks > cap)
        blocks = cap;
    cfg.grid = (uint32_t)(blocks > 0 ? blocks : 1);
    cfg.block = block;
    return cfg;
}

gp_launch_t gp_grid_for(int64_t n, uint32_t block)
{
    return grid_capped(n, block, gp_tuning()->waves);
}

/* ---- the elementwise runner -------------------------------------------------- */

/* Whether every reachable byte offset of the operand fits in int32. */
static bool fits32(const gp_iter_t *it, int op, int64_t itemsize)
{
    int64_t span = itemsize;
    for (int32_t d = 0; d < it->ndim; ++d)
        gp_span_add(&span, it->shape[d], it->strides[op][d]);
    return span < ((int64_t)1 << 31);
}

/* Elements per vector access on the contiguous path: as many as fit 16
 * bytes of the widest operand (at most 8), when every array's address is
 * aligned to its vector; 1 otherwise. */
static int vector_width(const gp_array_t *const *arr, int nop, int64_t n)
{
    int widest = 1;
    for (int k = 0; k < nop; ++k)
        if (arr[k] && gp_dtype_size(arr[k]->dtype) > widest)
            widest = gp_dtype_size(arr[k]->dtype);
    int w = 16 / widest;
    if (w > 8)
        w = 8;
    for (; w > 1; w /= 2) {
        bool aligned = n >= w;
        for (int k = 0; k < nop && aligned; ++k)
            if (arr[k])
                aligned = (uintptr_t)gp_array_data(arr[k]) %
                              ((uintptr_t)w * (uintptr_t)gp_dtype_size(arr[k]->dtype)) == 0;
        if (aligned)
            return w;
    }
    return 1;
}

/* The elementwise kernel of `ctx` as one scalar loop: the same parameters,
 * and right for any grid (its loop strides over the grid). */
static gp_status_t gen_ew_scalar(const void *ctx, char *name, size_t name_size, gp_str_t *body)
{
    gp_ew_spec_t sp = *(const gp_ew_spec_t *)ctx;
    sp.vec = sp.unroll = 1;
    return gp_gen_ew(&sp, name, name_size, body);
}

gp_status_t gp_ew_run(const gp_op_t *op, int internal, int32_t op_index, const int8_t *loop,
                      const gp_operand_t *in, gp_array_t *const *out, const gp_array_t *where)
{
    int nin = op->nin, nout = op->nout, nop = nin + nout + (where ? 1 : 0);
    const gp_array_t *arr[GP_EW_MAX];
    for (int k = 0; k < nin; ++k)
        arr[k] = in[k].array;
    for (int k = 0; k < nout; ++k)
        arr[nin + k] = out[k];
    if (where)
        arr[nin + nout] = where;

    /* the iteration space: the outputs' shape */
    const gp_array_t *o0 = out[0];
    if (o0->size == 0)
        return GP_OK;
    int32_t ndims[GP_EW_MAX];
    const int64_t *shapes[GP_EW_MAX], *strides[GP_EW_MAX];
    for (int k = 0; k < nop; ++k) {
        ndims[k] = arr[k] ? arr[k]->ndim : 0;
        shapes[k] = arr[k] ? arr[k]->shape : NULL;
        strides[k] = arr[k] ? arr[k]->strides : NULL;
    }
    gp_iter_t it;
    gp_iter_init(&it, o0->ndim, o0->shape, nop, ndims, shapes, strides);
    gp_iter_collapse(&it, nin);

    gp_ew_spec_t sp;
    memset(&sp, 0, sizeof sp);
    sp.family = GP_FAMILY_EW;
    sp.internal = (uint8_t)internal;
    sp.op = (uint16_t)op_index;
    sp.nin = (uint8_t)nin;
    sp.nout = (uint8_t)nout;
    sp.has_where = where != NULL;
    bool contig = it.ndim == 1;
    bool small = o0->size < GP_IDX32_ITEMS;
    for (int k = 0; k < nop; ++k) {
        int32_t ldt = k < nin + nout ? loop[k] : GP_BOOL;
        sp.loop[k] = (uint8_t)ldt;
        if (!arr[k]) {
            sp.kind[k] = GP_OPND_SCALAR;
            sp.dt[k] = (uint8_t)ldt;
            continue;
        }
        sp.dt[k] = (uint8_t)arr[k]->dtype;
        int64_t isz = gp_dtype_size(arr[k]->dtype);
        if (it.strides[k][0] != isz)
            contig = false;
        small = small && fits32(&it, k, isz);
    }
    contig = contig || o0->size == 1; /* one element: every layout is contiguous */
    for (int k = 0; k < nop; ++k)
        if (arr[k])
            sp.kind[k] = contig ? GP_OPND_CONTIG : GP_OPND_STRIDED;
    sp.ndim = contig ? 0 : (uint8_t)it.ndim;
    sp.idx32 = small;
    sp.vec = contig && !where ? (uint8_t)vector_width(arr, nop, o0->size) : 1;
    sp.unroll = sp.vec > 1 ? (uint8_t)gp_tuning()->unroll : 1;
    /* a unary op between transposed 2-d layouts (a.T.copy(), exp(a.T)):
     * the output steps by its itemsize along dim 1, the input along dim 0 */
    sp.tiled = !contig && nin == 1 && nout == 1 && !where && arr[0] && it.ndim == 2 &&
               it.strides[1][1] == gp_dtype_size(arr[1]->dtype) &&
               it.strides[0][0] == gp_dtype_size(arr[0]->dtype) && it.shape[0] >= 32 &&
               it.shape[1] >= 32;

    /* a vector loop's first call may run one scalar loop, compiled quickly */
    const gp_kernel_t *kern;
    GP_TRY(gp_kernel_get_quick(&sp, sizeof sp, gp_gen_ew, sp.vec > 1 ? gen_ew_scalar : NULL, &sp,
                               &kern));

    gp_params_t p;
    gp_params_init(&p);
    gp_params_index(&p, o0->size);
    for (int d = 0; d < sp.ndim; ++d)
        gp_params_index(&p, it.shape[d]);
    for (int k = 0; k < nop; ++k) {
        if (!arr[k]) {
            unsigned char v[16];
            int32_t n = gp_scalar_to_compute(&in[k].scalar, sp.loop[k], v);
            gp_params_put(&p, v, (size_t)n, (size_t)gp_compute_align(sp.loop[k]));
            continue;
        }
        gp_params_ptr(&p, gp_array_data(arr[k]));
        for (int d = 0; d < sp.ndim; ++d)
            gp_params_index(&p, it.strides[k][d]);
    }
    /* a tiled block has the prelude's GPK_TILE_THREADS (256) threads */
    int64_t threads = sp.tiled ? ((it.shape[0] + 31) / 32) * ((it.shape[1] + 31) / 32) * 256
                      : sp.vec > 1 ? o0->size / sp.vec / sp.unroll
                                   : o0->size;
    gp_launch_t cfg = grid_capped(threads, 256, gp_tuning()->ew_waves);
    return gp_launch(kern, &cfg, &p);
}
