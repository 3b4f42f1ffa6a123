/*
 * random.c - random fills: streams of Philox4x32-10 made by generated
 * kernels (gp_gen_random), a thread per counter block, so that the host
 * and every GPU give the same bits for the same key and counter.
 */
#include <stdio.h>
#include <string.h>

#include "kernels.h"

/* The distributions of one element a block (GP_RANDOM_GAMMA on), from the
 * prelude's random.h: the kinds of their parameters (f: double, i: int64),
 * what they make (f: float64 or float32, i: int64) and the expression (or,
 * for a row distribution, the statement) of element j from the stream s
 * and parameters a0, a1, a2. */
typedef struct dist_row {
    const char *name;
    const char *kinds;
    char out;
    bool row;
    const char *code;
} dist_row;

#define GP_RANDOM_FIRST_DIST GP_RANDOM_GAMMA
static const dist_row dists[] = {
    [GP_RANDOM_GAMMA - GP_RANDOM_FIRST_DIST] = {"gamma", "ff", 'f', false,
                                                "a1 * gpk_rng_std_gamma(&s, a0)"},
    [GP_RANDOM_BETA - GP_RANDOM_FIRST_DIST] = {"beta", "ff", 'f', false,
                                               "gpk_rng_beta(&s, a0, a1)"},
    [GP_RANDOM_CHISQUARE - GP_RANDOM_FIRST_DIST] = {"chisquare", "f", 'f', false,
                                                    "gpk_rng_chisquare(&s, a0)"},
    [GP_RANDOM_NONCENTRAL_CHISQUARE - GP_RANDOM_FIRST_DIST] = {
        "noncentral_chisquare", "ff", 'f', false, "gpk_rng_noncentral_chisquare(&s, a0, a1)"},
    [GP_RANDOM_F - GP_RANDOM_FIRST_DIST] = {"f", "ff", 'f', false, "gpk_rng_f(&s, a0, a1)"},
    [GP_RANDOM_NONCENTRAL_F - GP_RANDOM_FIRST_DIST] = {
        "noncentral_f", "fff", 'f', false, "gpk_rng_noncentral_f(&s, a0, a1, a2)"},
    [GP_RANDOM_STANDARD_T - GP_RANDOM_FIRST_DIST] = {"standard_t", "f", 'f', false,
                                                     "gpk_rng_standard_t(&s, a0)"},
    [GP_RANDOM_CAUCHY - GP_RANDOM_FIRST_DIST] = {"cauchy", "", 'f', false, "gpk_rng_cauchy(&s)"},
    [GP_RANDOM_LAPLACE - GP_RANDOM_FIRST_DIST] = {"laplace", "ff", 'f', false,
                                                  "gpk_rng_laplace(&s, a0, a1)"},
    [GP_RANDOM_LOGISTIC - GP_RANDOM_FIRST_DIST] = {"logistic", "ff", 'f', false,
                                                   "gpk_rng_logistic(&s, a0, a1)"},
    [GP_RANDOM_GUMBEL - GP_RANDOM_FIRST_DIST] = {"gumbel", "ff", 'f', false,
                                                 "gpk_rng_gumbel(&s, a0, a1)"},
    [GP_RANDOM_WEIBULL - GP_RANDOM_FIRST_DIST] = {"weibull", "f", 'f', false,
                                                  "gpk_rng_weibull(&s, a0)"},
    [GP_RANDOM_PARETO - GP_RANDOM_FIRST_DIST] = {"pareto", "f", 'f', false,
                                                 "gpk_rng_pareto(&s, a0)"},
    [GP_RANDOM_POWER - GP_RANDOM_FIRST_DIST] = {"power", "f", 'f', false,
                                                "gpk_rng_power(&s, a0)"},
    [GP_RANDOM_RAYLEIGH - GP_RANDOM_FIRST_DIST] = {"rayleigh", "f", 'f', false,
                                                   "gpk_rng_rayleigh(&s, a0)"},
    [GP_RANDOM_LOGNORMAL - GP_RANDOM_FIRST_DIST] = {"lognormal", "ff", 'f', false,
                                                    "gpk_rng_lognormal(&s, a0, a1)"},
    [GP_RANDOM_WALD - GP_RANDOM_FIRST_DIST] = {"wald", "ff", 'f', false,
                                               "gpk_rng_wald(&s, a0, a1)"},
    [GP_RANDOM_TRIANGULAR - GP_RANDOM_FIRST_DIST] = {"triangular", "fff", 'f', false,
                                                     "gpk_rng_triangular(&s, a0, a1, a2)"},
    [GP_RANDOM_VONMISES - GP_RANDOM_FIRST_DIST] = {"vonmises", "ff", 'f', false,
                                                   "gpk_rng_vonmises(&s, a0, a1)"},
    [GP_RANDOM_POISSON - GP_RANDOM_FIRST_DIST] = {"poisson", "f", 'i', false,
                                                  "gpk_rng_poisson(&s, a0)"},
    [GP_RANDOM_BINOMIAL - GP_RANDOM_FIRST_DIST] = {"binomial", "if", 'i', false,
                                                   "gpk_rng_binomial(&s, (double)a0, a1)"},
    [GP_RANDOM_GEOMETRIC - GP_RANDOM_FIRST_DIST] = {"geometric", "f", 'i', false,
                                                    "gpk_rng_geometric(&s, a0)"},
    [GP_RANDOM_NEGATIVE_BINOMIAL - GP_RANDOM_FIRST_DIST] = {
        "negative_binomial", "ff", 'i', false, "gpk_rng_negative_binomial(&s, a0, a1)"},
    [GP_RANDOM_HYPERGEOMETRIC - GP_RANDOM_FIRST_DIST] = {
        "hypergeometric", "iii", 'i', false,
        "gpk_rng_hypergeometric(&s, (double)a0, (double)a1, (double)a2)"},
    [GP_RANDOM_LOGSERIES - GP_RANDOM_FIRST_DIST] = {"logseries", "f", 'i', false,
                                                    "gpk_rng_logseries(&s, a0)"},
    [GP_RANDOM_ZIPF - GP_RANDOM_FIRST_DIST] = {"zipf", "f", 'i', false, "gpk_rng_zipf(&s, a0)"},
    [GP_RANDOM_DIRICHLET - GP_RANDOM_FIRST_DIST] = {
        "dirichlet", "", 'f', true, "gpk_rng_dirichlet_row(&s, p.vec, p.k, p.out + j * p.k)"},
    [GP_RANDOM_MULTINOMIAL - GP_RANDOM_FIRST_DIST] = {
        "multinomial", "i", 'i', true,
        "gpk_rng_multinomial_row(&s, a0, p.vec, p.k, p.out + j * p.k)"},
    [GP_RANDOM_MVHYPERGEOMETRIC - GP_RANDOM_FIRST_DIST] = {
        "mvhypergeometric", "i", 'i', true,
        "gpk_rng_mvhypergeometric_row(&s, a0, p.vec, p.k, p.out + j * p.k)"},
};
#define GP_RANDOM_LAST_DIST (GP_RANDOM_FIRST_DIST + (int)(sizeof dists / sizeof dists[0]) - 1)

/* The kind of parameter k, 0 where the distribution has none. */
static char kind_of(const dist_row *d, int k) { return k < (int)strlen(d->kinds) ? d->kinds[k] : 0; }

/* The kernel of a distribution of dists[]: a thread per element (row),
 * each with its own stream (the prelude's gpk_rng). A parameter is read
 * from its array where one was given, else it is the scalar. */
static gp_status_t gen_dist(const void *vspec, char *name, size_t name_size, gp_str_t *s)
{
    const gp_rand_spec_t *sp = vspec;
    const dist_row *d = &dists[sp->dist - GP_RANDOM_FIRST_DIST];
    const char *T = gp_dtypes[sp->out_dt].storage;
    snprintf(name, name_size, "gpk_random_%s_%s", d->name, gp_dtypes[sp->out_dt].suffix);
    gp_str_puts(s, gp_prelude_random);
    gp_str_printf(s, "\n/* random %s -> %s */\n", d->name, gp_dtypes[sp->out_dt].name);
    gp_str_printf(s, "struct gpk_params {\n  gpk_index n, k;\n  gpk_f64 f0, f1, f2;\n"
                     "  gpk_i64 i0, i1, i2;\n");
    for (int k = 0; k < 3; ++k)
        gp_str_printf(s, "  const %s *arr%d;\n", kind_of(d, k) == 'i' ? "gpk_i64" : "gpk_f64", k);
    gp_str_printf(s, "  const gpk_f64 *vec;\n  gpk_philox g;\n  %s *out;\n};\n", T);
    gp_str_printf(s, "GPK_KERNEL(%s, struct gpk_params)\n{\n"
                     "GPK_GRID_LOOP(gpk_index, j, p.n) {\ngpk_rng s;\n"
                     "gpk_rng_init(&s, p.g, (gpk_u64)j);\n", name);
    for (int k = 0; d->kinds[k]; ++k) {
        bool i = d->kinds[k] == 'i';
        gp_str_printf(s, "const %s a%d = p.arr%d ? p.arr%d[j] : p.%c%d;\n", i ? "gpk_i64" : "gpk_f64",
                      k, k, k, i ? 'i' : 'f', k);
    }
    if (d->row)
        gp_str_printf(s, "%s;\n", d->code);
    else if (d->out == 'i')
        gp_str_printf(s, "p.out[j] = (%s)gpk_rng_count(%s);\n", T, d->code);
    else
        gp_str_printf(s, "p.out[j] = (%s)(%s);\n", T, d->code);
    gp_str_puts(s, "}\n}\n");
    return GP_OK;
}

/* An array parameter: `what` of `dt`, `n` elements in the memory order
 * `order` (a GP_FLAG_*_CONTIGUOUS flag). */
static gp_status_t check_param(const gp_array_t *a, int32_t dt, int64_t n, int32_t order,
                               const char *what)
{
    GP_CHECK_ARRAY(a);
    if (a->dtype != dt || a->size != n || !(a->flags & order))
        return gp_set_error(GP_ERR_VALUE, "random %s: needs a contiguous %s array of %lld "
                            "elements in the result's order", what, gp_dtypes[dt].name,
                            (long long)n);
    return GP_OK;
}

static gp_status_t fill_dist(gp_array_t *out, const gp_random_args_t *args, uint64_t *blocks)
{
    const dist_row *d = &dists[args->dist - GP_RANDOM_FIRST_DIST];
    int32_t dt = out->dtype;
    bool ok = d->out == 'i' ? dt == GP_INT64
                            : dt == GP_FLOAT64 || (dt == GP_FLOAT32 && !d->row);
    if (!ok)
        return gp_set_error(GP_ERR_TYPE, "random %s does not make dtype %s", d->name,
                            gp_dtypes[dt].name);
    int64_t rows = out->size, k = 1;
    int32_t order = out->flags & GP_FLAG_C_CONTIGUOUS ? GP_FLAG_C_CONTIGUOUS : GP_FLAG_F_CONTIGUOUS;
    if (d->row) {
        if (out->ndim < 1 || !(out->flags & GP_FLAG_C_CONTIGUOUS))
            return gp_set_error(GP_ERR_VALUE, "random %s: the result must be C-contiguous "
                                "rows", d->name);
        k = out->shape[out->ndim - 1];
        rows = k ? out->size / k : 0;
        if (!args->vec)
            return gp_set_error(GP_ERR_VALUE, "random %s: no row parameter", d->name);
        GP_TRY(check_param(args->vec, GP_FLOAT64, k, GP_FLAG_C_CONTIGUOUS, d->name));
    }
    for (int j = 0; d->kinds[j]; ++j)
        if (args->arr[j])
            GP_TRY(check_param(args->arr[j], d->kinds[j] == 'i' ? GP_INT64 : GP_FLOAT64, rows,
                               order, d->name));
    if (blocks)
        *blocks = (uint64_t)rows;
    if (rows == 0 || out->size == 0)
        return GP_OK;

    gp_rand_spec_t sp;
    memset(&sp, 0, sizeof sp);
    sp.family = GP_FAMILY_RANDOM;
    sp.dist = (uint8_t)args->dist;
    sp.out_dt = (uint8_t)dt;
    sp.per_block = 1;
    const gp_kernel_t *kern;
    GP_TRY(gp_kernel_get(&sp, sizeof sp, gen_dist, &sp, &kern));

    gp_params_t p;
    gp_params_init(&p);
    gp_params_index(&p, rows);
    gp_params_index(&p, k);
    for (int j = 0; j < 3; ++j)
        gp_params_put(&p, &args->f[j], sizeof(double), sizeof(double));
    for (int j = 0; j < 3; ++j)
        gp_params_put(&p, &args->i[j], sizeof(int64_t), sizeof(int64_t));
    for (int j = 0; j < 3; ++j)
        gp_params_ptr(&p, args->arr[j] && kind_of(d, j) ? gp_array_data(args->arr[j]) : NULL);
    gp_params_ptr(&p, d->row ? gp_array_data(args->vec) : NULL);
    uint32_t g[6] = {args->counter[0], args->counter[1], args->counter[2], args->counter[3],
                     args->key[0], args->key[1]};
    gp_params_put(&p, g, sizeof g, sizeof(uint32_t));
    gp_params_ptr(&p, gp_array_data(out));
    gp_launch_t cfg = gp_grid_for(rows, 256);
    return gp_launch(kern, &cfg, &p);
}

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
        return dt == GP_FLOAT32 ? 4 : dt == GP_FLOAT64 ? 2 : 0;
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
    if (args->dist < GP_RANDOM_BITS || args->dist > GP_RANDOM_LAST_DIST)
        return gp_set_error(GP_ERR_VALUE, "unknown random distribution %d", (int)args->dist);
    if (!(out->flags & GP_FLAG_WRITEABLE))
        return gp_set_error(GP_ERR_VALUE, "the output array is read-only");
    if (!(out->flags & (GP_FLAG_C_CONTIGUOUS | GP_FLAG_F_CONTIGUOUS)))
        return gp_set_error(GP_ERR_VALUE, "the output array of a random fill must be contiguous");
    if (args->dist >= GP_RANDOM_FIRST_DIST)
        return fill_dist(out, args, blocks);
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
