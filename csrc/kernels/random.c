/*
 * random.c - random fills: streams of Philox4x32-10 made by generated
 * kernels (gp_gen_random), a thread per counter block, so that the host
 * and every GPU give the same bits for the same key and counter.
 */
#include <string.h>

#include "kernels.h"

/* Elements a counter block makes, for `dist` into dtype `dt`; 0 if the
 * distribution does not make that dtype. */
static int per_block(int32_t dist, int32_t dt, bool wide)
{
    switch (dist) {
    case GP_RANDOM_BITS:
        return dt == GP_UINT32 ? 4 : dt == GP_UINT64 ? 2 : 0;
    case GP_RANDOM_UNIFORM:
        return dt == GP_FLOAT32 ? 4 : dt == GP_FLOAT64 ? 2 : 0;
    case GP_RANDOM_INTEGERS:
        return dt == GP_BOOL || gp_dtype_is_int(dt) ? (wide ? 2 : 4) : 0;
    case GP_RANDOM_NORMAL:
    case GP_RANDOM_EXPONENTIAL:
        return dt == GP_FLOAT32 || dt == GP_FLOAT64 ? 2 : 0;
    default:
        return 0;
    }
}

GP_API gp_status_t gp_random_fill(gp_array_t *out, const gp_random_args_t *args, uint64_t *blocks)
{
    if (blocks)
        *blocks = 0;
    GP_CHECK_ARRAY(out);
    if (!args)
        return gp_set_error(GP_ERR_MISUSE, "gp_random_fill: NULL arguments");
    if (args->dist < GP_RANDOM_BITS || args->dist > GP_RANDOM_EXPONENTIAL)
        return gp_set_error(GP_ERR_VALUE, "unknown random distribution %d", (int)args->dist);
    if (!(out->flags & GP_FLAG_WRITEABLE))
        return gp_set_error(GP_ERR_VALUE, "the output array is read-only");
    if (!(out->flags & (GP_FLAG_C_CONTIGUOUS | GP_FLAG_F_CONTIGUOUS)))
        return gp_set_error(GP_ERR_VALUE, "the output array of a random fill must be contiguous");
    bool wide = args->dist == GP_RANDOM_BITS ? out->dtype == GP_UINT64
                                             : args->range1 > 0xffffffffULL;
    int e = per_block(args->dist, out->dtype, wide);
    if (!e)
        return gp_set_error(GP_ERR_TYPE, "random distribution %d does not make dtype %s",
                            (int)args->dist, gp_dtypes[out->dtype].name);
    int64_t n = out->size, nb = (n + e - 1) / e;
    if (blocks)
        *blocks = (uint64_t)nb;
    if (n == 0)
        return GP_OK;

    gp_rand_spec_t sp;
    memset(&sp, 0, sizeof sp);
    sp.family = GP_FAMILY_RANDOM;
    sp.dist = (uint8_t)args->dist;
    sp.out_dt = (uint8_t)out->dtype;
    sp.wide = (args->dist == GP_RANDOM_INTEGERS || args->dist == GP_RANDOM_BITS) && wide;
    sp.per_block = (uint8_t)e;
    int64_t vbytes = (int64_t)e * gp_dtype_size(out->dtype);
    sp.vec = (vbytes & (vbytes - 1)) == 0 && vbytes <= 16 &&
             (uintptr_t)gp_array_data(out) % (uintptr_t)vbytes == 0;
    const gp_kernel_t *k;
    GP_TRY(gp_kernel_get(&sp, sizeof sp, gp_gen_random, &sp, &k));

    gp_params_t p;
    gp_params_init(&p);
    gp_params_index(&p, n);
    gp_params_index(&p, nb);
    gp_params_put(&p, &args->a, sizeof(double), sizeof(double));
    gp_params_put(&p, &args->b, sizeof(double), sizeof(double));
    gp_params_put(&p, &args->low, sizeof(uint64_t), sizeof(uint64_t));
    gp_params_put(&p, &args->range1, sizeof(uint64_t), sizeof(uint64_t));
    uint32_t g[6] = {args->counter[0], args->counter[1], args->counter[2], args->counter[3],
                     args->key[0], args->key[1]};
    gp_params_put(&p, g, sizeof g, sizeof(uint32_t));
    gp_params_ptr(&p, gp_array_data(out));
    gp_launch_t cfg = gp_grid_for(nb, 256);
    return gp_launch(k, &cfg, &p);
}
