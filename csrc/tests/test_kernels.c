/*
 * test_kernels.c - a few operations that run generated kernels, so the C
 * tests go through code generation, the system C compiler, the disk cache
 * and dlopen: ufunc calls with promotion and broadcasting, reductions, an
 * accumulation, fills, casts and the copies behind reshape and to_host.
 *
 * The disk cache is a fresh temporary directory (removed at the end), so
 * the first use of every kernel really compiles it.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, setenv, nftw */
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../backend/backend.h"
#include "../cache/cache.h"
#include "gp_test.h"

static int32_t ADD, MAXIMUM;

/* A new array of `dtype` holding `data` (C order). */
static gp_array_t *make(int32_t dtype, int32_t ndim, const int64_t *shape, const void *data)
{
    gp_dtype_info_t info;
    int64_t n = 1;
    for (int32_t k = 0; k < ndim; ++k)
        n *= shape[k];
    gp_array_t *a = NULL;
    if (CHECK_OK(gp_dtype_get_info(dtype, &info)))
        CHECK_OK(gp_array_from_host(data, n * info.itemsize, dtype, ndim, shape, NULL, &a));
    return a;
}

/* Whether `a` has `dtype` and holds the `nbytes` bytes of `want` in C order. */
static int holds(const gp_array_t *a, int32_t dtype, const void *want, int64_t nbytes)
{
    gp_array_info_t info;
    if (!a || gp_array_get_info(a, &info) != GP_OK || info.dtype != dtype ||
        info.nbytes != nbytes)
        return 0;
    unsigned char *got = malloc(nbytes > 0 ? (size_t)nbytes : 1);
    int ok = got && gp_array_to_host(a, got, nbytes, GP_ORDER_C) == GP_OK &&
             memcmp(got, want, (size_t)nbytes) == 0;
    free(got);
    return ok;
}

static gp_status_t add(const gp_operand_t in[2], gp_array_t **out)
{
    return gp_ufunc_call(ADD, in, out, NULL, NULL, GP_CASTING_SAME_KIND, GP_ORDER_K);
}

static gp_operand_t arr(gp_array_t *a)
{
    gp_operand_t o;
    memset(&o, 0, sizeof o);
    o.array = a;
    return o;
}

static gp_operand_t pyint(int64_t v)
{
    gp_operand_t o;
    memset(&o, 0, sizeof o);
    o.scalar.dtype = GP_INT64;
    o.scalar.weak = 1;
    o.scalar.i = v;
    return o;
}

/* ---- the op table, without running anything ------------------------------------ */

static void test_ufunc_table(void)
{
    int32_t n = 0;
    CHECK_OK(gp_ufunc_count(&n));
    CHECK(n > 10);
    gp_ufunc_info_t info;
    if (CHECK_OK(gp_ufunc_get_info(ADD, &info))) {
        CHECK_STR_EQ(info.name, "add");
        CHECK_EQ(info.nin, 2);
        CHECK_EQ(info.nout, 1);
        CHECK_EQ(info.identity, GP_IDENTITY_ZERO);
        CHECK_EQ(info.reorderable, 1);
        CHECK(info.ntypes >= GP_NDTYPES);
        int32_t loop[3] = {-1, -1, -1};
        CHECK_OK(gp_ufunc_get_loop(ADD, info.ntypes - 1, loop));
        CHECK_STATUS(gp_ufunc_get_loop(ADD, info.ntypes, loop), GP_ERR_VALUE);
    }
    for (int32_t id = 0; id < n; ++id) {
        int32_t back = -1;
        if (CHECK_OK(gp_ufunc_get_info(id, &info)) && CHECK_OK(gp_ufunc_find(info.name, &back)))
            CHECK_EQ(back, id); /* names are unique */
    }
    int32_t id = 0;
    CHECK_ERROR(gp_ufunc_find("no_such_ufunc", &id), GP_ERR_NOT_FOUND,
                "no ufunc named 'no_such_ufunc'");
    CHECK_STATUS(gp_ufunc_get_info(-1, &info), GP_ERR_VALUE);
    CHECK_STATUS(gp_ufunc_get_info(n, &info), GP_ERR_VALUE);

    /* loop resolution follows promotion, with NEP 50 weak scalars */
    static const struct {
        int32_t in[2], weak[2], want;
    } R[] = {
        {{GP_INT8, GP_UINT8}, {0, 0}, GP_INT16},
        {{GP_UINT8, GP_INT64}, {0, 1}, GP_UINT8},
        {{GP_INT8, GP_FLOAT64}, {0, 1}, GP_FLOAT64},
        {{GP_FLOAT16, GP_COMPLEX128}, {0, 1}, GP_COMPLEX64},
        {{GP_BOOL, GP_BOOL}, {0, 0}, GP_BOOL},
        {{GP_INT64, GP_UINT64}, {0, 0}, GP_FLOAT64},
    };
    for (int k = 0; k < NELEMS(R); ++k) {
        int32_t dts[3] = {R[k].in[0], R[k].in[1], -1}, loop[3] = {-1, -1, -1};
        if (CHECK_OK(gp_ufunc_resolve(ADD, dts, R[k].weak, NULL, GP_CASTING_SAME_KIND, loop)))
            CHECK(loop[0] == R[k].want && loop[1] == R[k].want && loop[2] == R[k].want);
    }
    int32_t dts[3] = {GP_FLOAT64, GP_FLOAT64, GP_INT32}, loop[3];
    CHECK_ERROR(gp_ufunc_resolve(ADD, dts, NULL, NULL, GP_CASTING_SAME_KIND, loop),
                GP_ERR_TYPE_CASTING,
                "Cannot cast ufunc 'add' output from dtype('float64') to dtype('int32') with "
                "casting rule 'same_kind'");
}

/* ---- ufunc calls ----------------------------------------------------------------- */

static void test_add_compiles_once(void)
{
    static const int64_t s23[2] = {2, 3}, s3[1] = {3};
    const float x[6] = {1, 2, 3, 4, 5, 6}, y[3] = {10, 20, 30};
    const float want[6] = {11, 22, 33, 14, 25, 36};
    gp_array_t *a = make(GP_FLOAT32, 2, s23, x), *b = make(GP_FLOAT32, 1, s3, y);
    gp_array_t *r1 = NULL, *r2 = NULL;
    gp_cache_stats_t s0, s1, s2;
    if (!a || !b)
        goto done;
    CHECK_OK(gp_cache_get_stats(&s0));
    gp_operand_t in[2] = {arr(a), arr(b)};
    if (CHECK_OK(add(in, &r1))) {
        CHECK(has_shape(r1, 2, s23));
        CHECK(holds(r1, GP_FLOAT32, want, sizeof want));
    }
    CHECK_OK(gp_cache_get_stats(&s1));
    CHECK(s1.compiles > s0.compiles); /* a fresh cache: compiled here */
    CHECK(s1.compile_seconds > s0.compile_seconds);
    /* the same call again finds its kernel loaded */
    if (CHECK_OK(add(in, &r2)))
        CHECK(holds(r2, GP_FLOAT32, want, sizeof want));
    CHECK_OK(gp_cache_get_stats(&s2));
    CHECK_EQ(s2.compiles, s1.compiles);
    CHECK(s2.memory_hits > s1.memory_hits);
done:
    gp_array_release(a);
    gp_array_release(b);
    gp_array_release(r1);
    gp_array_release(r2);
}

static void test_add_promotion(void)
{
    static const int64_t s2[1] = {2};
    const int8_t i8[2] = {-1, 100};
    const uint8_t u8[2] = {255, 250};
    gp_array_t *a = make(GP_INT8, 1, s2, i8), *b = make(GP_UINT8, 1, s2, u8);
    gp_array_t *r = NULL, *w = NULL, *big = NULL;
    if (!a || !b)
        goto done;
    /* int8 + uint8 computes in int16 */
    gp_operand_t in[2] = {arr(a), arr(b)};
    const int16_t want16[2] = {254, 350};
    if (CHECK_OK(add(in, &r)))
        CHECK(holds(r, GP_INT16, want16, sizeof want16));
    /* uint8 + Python int stays uint8 and wraps, as NumPy */
    gp_operand_t inw[2] = {arr(b), pyint(10)};
    const uint8_t wantw[2] = {9, 4};
    if (CHECK_OK(add(inw, &w)))
        CHECK(holds(w, GP_UINT8, wantw, sizeof wantw));
    /* a Python int the dtype cannot hold is an error, before any work */
    gp_operand_t inb[2] = {arr(a), pyint(300)};
    CHECK_ERROR(add(inb, &big), GP_ERR_OVERFLOW, "Python integer 300 out of bounds for int8");
    CHECK(big == NULL);
done:
    gp_array_release(a);
    gp_array_release(b);
    gp_array_release(r);
    gp_array_release(w);
}

static void test_add_layouts(void)
{
    static const int64_t s23[2] = {2, 3}, s4[1] = {4}, s3[1] = {3};
    gp_array_t *a = iota_i32(2, s23), *b = iota_i32(1, s3), *t = NULL, *r = NULL;
    gp_array_t *bad = NULL, *ro = NULL, *c = iota_i32(1, s4);
    if (!a || !b || !c)
        goto done;
    /* in place: a += b (row broadcast) */
    gp_operand_t in[2] = {arr(a), arr(b)};
    gp_array_t *out[1] = {a};
    const int32_t sum[6] = {0, 2, 4, 3, 5, 7};
    if (CHECK_OK(add(in, out)))
        CHECK(out[0] == a && holds(a, GP_INT32, sum, sizeof sum));

    /* a transposed input gives an F-ordered result under order K */
    if (CHECK_OK(gp_array_transpose(a, 0, NULL, &t))) {
        gp_operand_t it[2] = {arr(t), pyint(1)};
        if (CHECK_OK(add(it, &r))) {
            CHECK_EQ(flags_of(r) & 3, GP_FLAG_F_CONTIGUOUS);
            const int32_t want[6] = {1, 4, 3, 6, 5, 8};
            CHECK(holds(r, GP_INT32, want, sizeof want));
        }
    }

    /* shapes that do not fit */
    gp_operand_t ib[2] = {arr(a), arr(c)};
    CHECK_ERROR(add(ib, &bad), GP_ERR_VALUE_BROADCAST,
                "operands could not be broadcast together with shapes (2,3) (4,) ");
    CHECK(bad == NULL);
    gp_array_t *wrong[1] = {b};
    CHECK_ERROR(add(in, wrong), GP_ERR_VALUE,
                "non-broadcastable output operand with shape (3,) doesn't match the broadcast "
                "shape (2,3)");
    if (CHECK_OK(gp_array_broadcast_to(b, 2, s23, &ro))) {
        gp_array_t *o[1] = {ro};
        CHECK_ERROR(add(in, o), GP_ERR_VALUE, "output array is read-only");
    }
done:
    gp_array_release(a);
    gp_array_release(b);
    gp_array_release(c);
    gp_array_release(t);
    gp_array_release(r);
    gp_array_release(ro);
}

/* ---- reductions and accumulation ------------------------------------------------ */

static void test_reduce(void)
{
    static const int64_t s23[2] = {2, 3}, s03[2] = {0, 3};
    gp_array_t *a = iota_i32(2, s23), *all = NULL, *ax0 = NULL, *keep = NULL, *rev = NULL;
    gp_array_t *rall = NULL, *init = NULL, *e = NULL, *esum = NULL, *bad = NULL;
    if (!a)
        goto done;
    /* add raises int32 to int64, as NumPy's sum */
    const int64_t w_all = 15, w_ax0[3] = {3, 5, 7}, w_keep[2] = {3, 12};
    if (CHECK_OK(gp_ufunc_reduce(ADD, a, 0, NULL, 0, -1, NULL, &all)))
        CHECK(has_shape(all, 0, NULL) && holds(all, GP_INT64, &w_all, 8));
    static const int32_t axis0[1] = {0}, axis_1[1] = {-1};
    if (CHECK_OK(gp_ufunc_reduce(ADD, a, 1, axis0, 0, -1, NULL, &ax0)))
        CHECK(holds(ax0, GP_INT64, w_ax0, sizeof w_ax0));
    static const int64_t s21[2] = {2, 1};
    if (CHECK_OK(gp_ufunc_reduce(ADD, a, 1, axis_1, 1, -1, NULL, &keep)))
        CHECK(has_shape(keep, 2, s21) && holds(keep, GP_INT64, w_keep, sizeof w_keep));
    /* a reversed view sums the same */
    if (CHECK_OK(gp_array_slice(a, GP_SLICE_STEP, 0, 0, -1, &rev)) &&
        CHECK_OK(gp_ufunc_reduce(ADD, rev, 0, NULL, 0, -1, NULL, &rall)))
        CHECK(holds(rall, GP_INT64, &w_all, 8));
    /* an initial value starts every reduction; maximum keeps the dtype */
    gp_scalar_t ten = {GP_INT64, 1, 10, 0.0, 0.0};
    const int32_t w_init[3] = {10, 10, 10};
    if (CHECK_OK(gp_ufunc_reduce(MAXIMUM, a, 1, axis0, 0, -1, &ten, &init)))
        CHECK(holds(init, GP_INT32, w_init, sizeof w_init));
    /* an initial value's dtype is checked as every other scalar's */
    static const int32_t bad_dtypes[3] = {GP_NDTYPES, -1, 100000000};
    for (int k = 0; k < 3; ++k) {
        gp_scalar_t odd = {bad_dtypes[k], 1, 10, 0.0, 0.0};
        CHECK_STATUS(gp_ufunc_reduce(MAXIMUM, a, 1, axis0, 0, -1, &odd, &bad), GP_ERR_TYPE);
        CHECK(bad == NULL);
    }

    /* empty reductions: the identity, or NumPy's error without one */
    e = iota_i32(2, s03);
    const int64_t zero[3] = {0, 0, 0};
    if (e && CHECK_OK(gp_ufunc_reduce(ADD, e, 1, axis0, 0, -1, NULL, &esum)))
        CHECK(holds(esum, GP_INT64, zero, sizeof zero));
    if (e)
        CHECK_ERROR(gp_ufunc_reduce(MAXIMUM, e, 1, axis0, 0, -1, NULL, &bad), GP_ERR_VALUE,
                    "zero-size array to reduction operation maximum which has no identity");
    CHECK(bad == NULL);
done:
    gp_array_release(a);
    gp_array_release(all);
    gp_array_release(ax0);
    gp_array_release(keep);
    gp_array_release(rev);
    gp_array_release(rall);
    gp_array_release(init);
    gp_array_release(e);
    gp_array_release(esum);
}

static void test_accumulate_mean_argmax(void)
{
    static const int64_t s5[1] = {5};
    const double v[5] = {1, 2, 3, 4, -10};
    gp_array_t *a = make(GP_FLOAT64, 1, s5, v), *cum = NULL, *mean = NULL, *am = NULL;
    if (!a)
        goto done;
    const double w_cum[5] = {1, 3, 6, 10, 0};
    if (CHECK_OK(gp_ufunc_accumulate(ADD, a, 0, -1, &cum)))
        CHECK(holds(cum, GP_FLOAT64, w_cum, sizeof w_cum));
    const double w_mean = 0.0;
    if (CHECK_OK(gp_array_mean(a, 0, NULL, 0, -1, &mean)))
        CHECK(holds(mean, GP_FLOAT64, &w_mean, 8));
    const int64_t w_am = 3;
    if (CHECK_OK(gp_array_argextreme(a, 1, GP_AXIS_NONE, 0, &am)))
        CHECK(holds(am, GP_INT64, &w_am, 8));
done:
    gp_array_release(a);
    gp_array_release(cum);
    gp_array_release(mean);
    gp_array_release(am);
}

/* Long reductions split over parts, as on a GPU: the host's properties are
 * made those of a small GPU (8 multiprocessors of 256 threads), so that the
 * engine plans partial and combining stages, which the host backend then
 * runs with its one thread a block. Small integers keep every float sum
 * exact, whatever the order of its additions. */
static float split_value(int64_t k, int64_t m) { return (float)((k * 31 + m * 17) % 1009 % 7) - 3.0f; }

static gp_array_t *split_input(int64_t K, int64_t M)
{
    float *v = malloc((size_t)(K * M) * sizeof *v);
    if (!CHECK(v != NULL))
        return NULL;
    for (int64_t k = 0; k < K; ++k)
        for (int64_t m = 0; m < M; ++m)
            v[k * M + m] = split_value(k, m);
    const int64_t shape[2] = {K, M};
    gp_array_t *a = make(GP_FLOAT32, 2, shape, v);
    free(v);
    return a;
}

/* sum along axis 0 of K x M, and argmax along it (float32) */
static void check_split_axis0(int64_t K, int64_t M)
{
    gp_array_t *a = split_input(K, M), *sum = NULL, *am = NULL;
    float *ws = malloc((size_t)M * sizeof *ws);
    int64_t *wa = malloc((size_t)M * sizeof *wa);
    if (!a || !CHECK(ws && wa))
        goto done;
    for (int64_t m = 0; m < M; ++m) {
        double t = 0;
        wa[m] = 0;
        for (int64_t k = 0; k < K; ++k) {
            t += split_value(k, m);
            if (split_value(k, m) > split_value(wa[m], m))
                wa[m] = k;
        }
        ws[m] = (float)t;
    }
    static const int32_t axis0[1] = {0};
    if (CHECK_OK(gp_ufunc_reduce(ADD, a, 1, axis0, 0, -1, NULL, &sum)))
        CHECK(holds(sum, GP_FLOAT32, ws, M * (int64_t)sizeof *ws));
    if (CHECK_OK(gp_array_argextreme(a, 1, 0, 0, &am)))
        CHECK(holds(am, GP_INT64, wa, M * (int64_t)sizeof *wa));
done:
    free(ws);
    free(wa);
    gp_array_release(a);
    gp_array_release(sum);
    gp_array_release(am);
}

static void test_split_reductions(void)
{
    const gp_device_props_t *p;
    if (!CHECK_OK(gp_backend_props(&p)))
        return;
    gp_device_props_t *props = (gp_device_props_t *)p, host = *p;
    props->multiprocessors = 8;
    props->max_threads_per_block = 256;
    /* outer: 64 parts, combined a thread an output from a part-major temporary */
    check_split_axis0(8192, 64);
    /* outer: 128 parts, combined a block an output */
    check_split_axis0(16384, 16);
    /* one output: 64 parts of a block each */
    gp_array_t *a = split_input(65536, 1), *all = NULL;
    double t = 0;
    for (int64_t k = 0; k < 65536; ++k)
        t += split_value(k, 0);
    const float w_all = (float)t;
    if (a && CHECK_OK(gp_ufunc_reduce(ADD, a, 0, NULL, 0, -1, NULL, &all)))
        CHECK(holds(all, GP_FLOAT32, &w_all, sizeof w_all));
    gp_array_release(a);
    gp_array_release(all);
    *props = host;
}

/* The host's runs: its blocks are one thread, so a float reduction is cut
 * into runs of at most 128 elements whose partials merge 128 at a time
 * (reduce.c). Small integers keep the sums exact, so each plan's partials
 * must land where its next stage reads them. */
static void test_host_runs(void)
{
    const gp_device_props_t *p;
    if (!CHECK_OK(gp_backend_props(&p)))
        return;
    gp_device_props_t *props = (gp_device_props_t *)p, saved = *p;
    props->multiprocessors = 1;
    props->max_threads_per_block = 1;
    /* outer: 64 runs an output, part-major, combined a thread an output */
    check_split_axis0(8192, 64);
    /* outer: 313 runs an output, merged into 3, combined a block an output */
    check_split_axis0(40000, 3);
    /* one output: 16384 runs, merged into 128, then 1; its sum and mean */
    const int64_t n = (int64_t)1 << 21;
    gp_array_t *a = split_input(n, 1), *all = NULL, *mean = NULL;
    double t = 0;
    for (int64_t k = 0; k < n; ++k)
        t += split_value(k, 0);
    const float w_all = (float)t, w_mean = (float)(t / (double)n);
    if (a && CHECK_OK(gp_ufunc_reduce(ADD, a, 0, NULL, 0, -1, NULL, &all)))
        CHECK(holds(all, GP_FLOAT32, &w_all, sizeof w_all));
    if (a && CHECK_OK(gp_array_mean(a, 0, NULL, 0, -1, &mean)))
        CHECK(holds(mean, GP_FLOAT32, &w_mean, sizeof w_mean));
    gp_array_release(a);
    gp_array_release(all);
    gp_array_release(mean);
    *props = saved;
}

/* ---- copies, casts and fills ---------------------------------------------------- */

static void test_copies(void)
{
    static const int64_t s23[2] = {2, 3}, s6[1] = {6};
    gp_array_t *a = iota_i32(2, s23), *t = NULL, *flat = NULL, *f64 = NULL, *bad = NULL;
    gp_array_t *ones = NULL, *big = NULL, *v = NULL, *tail = NULL, *head = NULL;
    if (!a)
        goto done;
    /* to_host in F order needs a copy kernel for a C array */
    int32_t got[6];
    const int32_t fwant[6] = {0, 3, 1, 4, 2, 5};
    if (CHECK_OK(gp_array_to_host(a, got, sizeof got, GP_ORDER_F)))
        CHECK(memcmp(got, fwant, sizeof got) == 0);

    /* reshaping the transpose to one dimension has no view: it copies */
    if (CHECK_OK(gp_array_transpose(a, 0, NULL, &t)) &&
        CHECK_OK(gp_array_reshape(t, 1, s6, GP_ORDER_C, &flat))) {
        CHECK(data_of(flat) != data_of(a));
        CHECK(holds(flat, GP_INT32, fwant, sizeof fwant));
    }

    /* casts */
    const double dwant[6] = {0, 1, 2, 3, 4, 5};
    if (CHECK_OK(gp_array_astype(a, GP_FLOAT64, GP_ORDER_K, GP_CASTING_SAFE, &f64))) {
        CHECK(holds(f64, GP_FLOAT64, dwant, sizeof dwant));
        CHECK_ERROR(gp_array_astype(f64, GP_INT8, GP_ORDER_C, GP_CASTING_SAFE, &bad),
                    GP_ERR_TYPE_CASTING,
                    "Cannot cast array data from dtype('float64') to dtype('int8') according "
                    "to the rule 'safe'");
        CHECK(bad == NULL);
    }

    /* fills whose bytes differ (a kernel) and a Python int that does not fit */
    gp_scalar_t one = {GP_INT64, 1, 1, 0.0, 0.0}, b300 = {GP_INT64, 1, 300, 0.0, 0.0};
    const int32_t w1[6] = {1, 1, 1, 1, 1, 1};
    if (CHECK_OK(gp_array_full(GP_INT32, 2, s23, GP_ORDER_F, &one, &ones)))
        CHECK(holds(ones, GP_INT32, w1, sizeof w1));
    CHECK_ERROR(gp_array_full(GP_UINT8, 2, s23, GP_ORDER_C, &b300, &big), GP_ERR_OVERFLOW,
                "Python integer 300 out of bounds for uint8");
    CHECK(big == NULL);

    /* overlapping assignment reads the source before writing: v[1:] = v[:-1] */
    const int32_t base[5] = {0, 1, 2, 3, 4}, shifted[5] = {0, 0, 1, 2, 3};
    static const int64_t s5[1] = {5};
    v = make(GP_INT32, 1, s5, base);
    if (v && CHECK_OK(gp_array_slice(v, GP_SLICE_START, 1, 0, 0, &tail)) &&
        CHECK_OK(gp_array_slice(v, GP_SLICE_STOP, 0, -1, 0, &head)) &&
        CHECK_OK(gp_array_assign(tail, head, GP_CASTING_SAFE)))
        CHECK(holds(v, GP_INT32, shifted, sizeof shifted));
done:
    gp_array_release(a);
    gp_array_release(t);
    gp_array_release(flat);
    gp_array_release(f64);
    gp_array_release(ones);
    gp_array_release(v);
    gp_array_release(tail);
    gp_array_release(head);
}

static void test_arange(void)
{
    /* arange takes its first two elements, as NumPy's fill does */
    gp_scalar_t first = {GP_INT64, 1, 5, 0.0, 0.0}, second = {GP_INT64, 1, 3, 0.0, 0.0};
    gp_array_t *r = NULL;
    const int64_t want[4] = {5, 3, 1, -1};
    if (CHECK_OK(gp_array_arange(&first, &second, 4, GP_INT64, &r)))
        CHECK(holds(r, GP_INT64, want, sizeof want));
    gp_array_release(r);
}

/* ---- the temporary cache -------------------------------------------------------- */

static int remove_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb, (void)type, (void)ftw;
    return remove(path);
}

/* A body gets only the common prelude's sections it names: a helper's text
 * is in the source or not, whatever the preprocessor would do with it. */
static void test_prelude_sections(void)
{
    static const struct {
        const char *body, *has[3], *lacks[4];
    } cases[] = {
        {"y0 = F(tanh)(x0);", {"GPK_REAL1(X)", "gpk_f2i64"},
         {"GPK_SINT(S", "gpk_heaviside_", "gpk_philox4x32_10", "GPK_COMPLEX(S"}},
        {"#define F(n) gpk_##n##_i32\ny0 = F(floordiv)(x0, x1);", {"GPK_SINT(S", "gpk_heaviside_"},
         {"gpk_philox4x32_10", "GPK_COMPLEX(S"}},
        {"const gpk_u32x4 x = gpk_philox_block(p.g, j, 0u);", {"gpk_philox4x32_10"},
         {"GPK_SINT(S", "gpk_heaviside_", "GPK_COMPLEX(S"}},
        {"gpk_c64 z;", {"GPK_COMPLEX(c64", "gpk_cat_half", "GPK_C64_VIA_C128(asin)"},
         {"gpk_philox4x32_10", "GPK_SINT(S"}},
        {"gpk_c128 z;", {"GPK_COMPLEX(c128", "gpk_cat_half"}, {"gpk_philox4x32_10"}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        gp_str_t src;
        gp_str_init(&src);
        gp_kernel_source(&src, "", cases[i].body, strlen(cases[i].body));
        if (!CHECK(!src.failed && src.data))
            continue;
        for (int k = 0; k < 3 && cases[i].has[k]; ++k)
            if (!CHECK(strstr(src.data, cases[i].has[k]) != NULL))
                fprintf(stderr, "    body %s: no %s\n", cases[i].body, cases[i].has[k]);
        for (int k = 0; k < 4 && cases[i].lacks[k]; ++k)
            if (!CHECK(strstr(src.data, cases[i].lacks[k]) == NULL))
                fprintf(stderr, "    body %s: has %s\n", cases[i].body, cases[i].lacks[k]);
        gp_str_free(&src);
    }
}

int main(void)
{
    char dir[] = "/tmp/gpunp-test-cache-XXXXXX";
    if (!CHECK(mkdtemp(dir) != NULL) || !CHECK_EQ(setenv("GPUNP_CACHE_DIR", dir, 1), 0))
        return check_summary("test_kernels");
    if (gp_test_init() && CHECK_OK(gp_ufunc_find("add", &ADD)) &&
        CHECK_OK(gp_ufunc_find("maximum", &MAXIMUM))) {
        const char *cache = NULL;
        if (CHECK_OK(gp_runtime_config("cache_dir", &cache)))
            CHECK_STR_EQ(cache, dir);
        RUN(test_ufunc_table);
        RUN(test_add_compiles_once);
        RUN(test_add_promotion);
        RUN(test_add_layouts);
        RUN(test_reduce);
        RUN(test_accumulate_mean_argmax);
        RUN(test_split_reductions);
        RUN(test_host_runs);
        RUN(test_copies);
        RUN(test_arange);
        RUN(test_prelude_sections);
    }
    CHECK_EQ(nftw(dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS), 0);
    return check_summary("test_kernels");
}
