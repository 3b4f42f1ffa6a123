/*
 * test_abi.c - the promises of the C ABI itself (gp_base.h): bad handles
 * and NULL arguments give GP_ERR_MISUSE instead of a crash, failed creators
 * leave NULL behind, reference counts, the thread-local error, status
 * strings, extended codes and the version.
 *
 * Released handles are called through for real (handles.c never hands
 * their addresses out again): right after the release, and after thousands
 * of newer arrays, when the page that held them has been given back.
 */
#define _POSIX_C_SOURCE 200809L /* pthread barriers */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../core/dl.h"
#include "../array/array.h"
#include "gp_test.h"

static int32_t ADD; /* ufunc id of "add" */

/* ---- calls that take an array handle ------------------------------------------ */

/* One entry point called with `bad` where it takes an array handle;
 * `good` is a live array for its other arguments, `out` its handle
 * out-pointer if it has one. */
typedef gp_status_t (*bad_call_t)(gp_array_t *bad, gp_array_t *good, gp_array_t **out);

#define BAD_CALL(name, ...)                                                             \
    static gp_status_t name(gp_array_t *bad, gp_array_t *good, gp_array_t **out)        \
    {                                                                                   \
        (void)bad, (void)good, (void)out;                                               \
        return __VA_ARGS__;                                                             \
    }

static const int64_t S2[1] = {2}, ST4[1] = {4};
static const int32_t AX0[1] = {0};
static const gp_index_item_t ITEM0 = {GP_INDEX_INT, 0, 0, 0, 0};
static const gp_scalar_t ONE = {GP_INT64, 1, 1, 0.0, 0.0};

BAD_CALL(c_empty_like, gp_array_empty_like(bad, GP_INT8, GP_ORDER_C, out))
BAD_CALL(c_zeros_like, gp_array_zeros_like(bad, GP_INT8, GP_ORDER_C, out))
BAD_CALL(c_to_host, gp_array_to_host(bad, (char[64]){0}, 8, GP_ORDER_C))
BAD_CALL(c_retain, gp_array_retain(bad))
BAD_CALL(c_release, gp_array_release(bad))
BAD_CALL(c_get_info, gp_array_get_info(bad, &(gp_array_info_t){0}))
BAD_CALL(c_share_a, gp_array_may_share_memory(bad, good, &(int32_t){0}))
BAD_CALL(c_share_b, gp_array_may_share_memory(good, bad, &(int32_t){0}))
BAD_CALL(c_copy, gp_array_copy(bad, GP_ORDER_C, out))
BAD_CALL(c_astype, gp_array_astype(bad, GP_INT8, GP_ORDER_C, GP_CASTING_UNSAFE, out))
BAD_CALL(c_assign_dst, gp_array_assign(bad, good, GP_CASTING_UNSAFE))
BAD_CALL(c_assign_src, gp_array_assign(good, bad, GP_CASTING_UNSAFE))
BAD_CALL(c_fill, gp_array_fill(bad, &ONE))
BAD_CALL(c_reshape, gp_array_reshape(bad, 1, S2, GP_ORDER_C, out))
BAD_CALL(c_transpose, gp_array_transpose(bad, 0, NULL, out))
BAD_CALL(c_index, gp_array_index(bad, 1, &ITEM0, out))
BAD_CALL(c_slice, gp_array_slice(bad, 0, 0, 0, 0, out))
BAD_CALL(c_squeeze, gp_array_squeeze(bad, 0, NULL, out))
BAD_CALL(c_broadcast_to, gp_array_broadcast_to(bad, 1, S2, out))
BAD_CALL(c_as_strided, gp_array_as_strided(bad, -1, 1, S2, ST4, 0, out))
BAD_CALL(c_set_readonly, gp_array_set_readonly(bad))
/* ufunc outputs are in/out: NULL asks for a new array, which must stay
 * NULL after the failure */
static gp_status_t ufunc_bad(gp_array_t *in0, gp_array_t *in1, gp_array_t *out0,
                             gp_array_t *where)
{
    gp_operand_t in[2] = {{in0, ONE}, {in1, ONE}};
    gp_array_t *out[1] = {out0};
    gp_status_t s = gp_ufunc_call(ADD, in, out, where, NULL, GP_CASTING_SAME_KIND, GP_ORDER_K);
    if (!out0 && !CHECK(out[0] == NULL))
        gp_array_release(out[0]);
    return s;
}

BAD_CALL(c_ufunc_in, ufunc_bad(bad, good, NULL, NULL))
BAD_CALL(c_ufunc_in2, ufunc_bad(good, bad, NULL, NULL))
BAD_CALL(c_ufunc_out, ufunc_bad(good, good, bad, NULL))
BAD_CALL(c_ufunc_where, ufunc_bad(good, good, NULL, bad))
BAD_CALL(c_reduce, gp_ufunc_reduce(ADD, bad, 0, NULL, 0, -1, NULL, &(gp_array_t *){NULL}))
BAD_CALL(c_reduce_out, gp_ufunc_reduce(ADD, good, 1, AX0, 0, -1, NULL, (gp_array_t *[1]){bad}))
BAD_CALL(c_accumulate, gp_ufunc_accumulate(ADD, bad, 0, -1, &(gp_array_t *){NULL}))
BAD_CALL(c_accumulate_out, gp_ufunc_accumulate(ADD, good, 0, -1, (gp_array_t *[1]){bad}))
BAD_CALL(c_mean, gp_array_mean(bad, 0, NULL, 0, -1, &(gp_array_t *){NULL}))
BAD_CALL(c_mean_out, gp_array_mean(good, 1, AX0, 0, -1, (gp_array_t *[1]){bad}))
BAD_CALL(c_argmax, gp_array_argextreme(bad, 1, GP_AXIS_NONE, 0, &(gp_array_t *){NULL}))
BAD_CALL(c_argmax_out, gp_array_argextreme(good, 1, 0, 0, (gp_array_t *[1]){bad}))

enum {
    NULL_IS_VALID = 1,  /* NULL means something there (none, a new array) */
    SETS_OUT = 2,       /* a creator: *out must be NULL after the failure */
};

static const struct {
    const char *name;
    bad_call_t call;
    int flags;
} BAD_CALLS[] = {
    {"gp_array_empty_like", c_empty_like, SETS_OUT},
    {"gp_array_zeros_like", c_zeros_like, SETS_OUT},
    {"gp_array_to_host", c_to_host, 0},
    {"gp_array_retain", c_retain, 0},
    {"gp_array_release", c_release, NULL_IS_VALID},
    {"gp_array_get_info", c_get_info, 0},
    {"gp_array_may_share_memory a", c_share_a, 0},
    {"gp_array_may_share_memory b", c_share_b, 0},
    {"gp_array_copy", c_copy, SETS_OUT},
    {"gp_array_astype", c_astype, SETS_OUT},
    {"gp_array_assign dst", c_assign_dst, 0},
    {"gp_array_assign src", c_assign_src, 0},
    {"gp_array_fill", c_fill, 0},
    {"gp_array_reshape", c_reshape, SETS_OUT},
    {"gp_array_transpose", c_transpose, SETS_OUT},
    {"gp_array_index", c_index, SETS_OUT},
    {"gp_array_slice", c_slice, SETS_OUT},
    {"gp_array_squeeze", c_squeeze, SETS_OUT},
    {"gp_array_broadcast_to", c_broadcast_to, SETS_OUT},
    {"gp_array_as_strided", c_as_strided, SETS_OUT},
    {"gp_array_set_readonly", c_set_readonly, 0},
    {"gp_ufunc_call in[0]", c_ufunc_in, NULL_IS_VALID},
    {"gp_ufunc_call in[1]", c_ufunc_in2, NULL_IS_VALID},
    {"gp_ufunc_call out[0]", c_ufunc_out, NULL_IS_VALID},
    {"gp_ufunc_call where", c_ufunc_where, NULL_IS_VALID},
    {"gp_ufunc_reduce", c_reduce, 0},
    {"gp_ufunc_reduce *out", c_reduce_out, NULL_IS_VALID},
    {"gp_ufunc_accumulate", c_accumulate, 0},
    {"gp_ufunc_accumulate *out", c_accumulate_out, NULL_IS_VALID},
    {"gp_array_mean", c_mean, 0},
    {"gp_array_mean *out", c_mean_out, NULL_IS_VALID},
    {"gp_array_argextreme", c_argmax, 0},
    {"gp_array_argextreme *out", c_argmax_out,
     NULL_IS_VALID},
};

/* Room for a descriptor with a few dimensions. */
typedef union {
    struct gp_array a;
    unsigned char bytes[sizeof(struct gp_array) + 8 * sizeof(int64_t)];
    uint64_t align_;
} fake_array_t;

/* Calls every entry point with `bad`, which must be refused as misuse. */
static void refuse_bad_handle(const char *what, gp_array_t *bad, gp_array_t *good, int stale)
{
    for (int k = 0; k < NELEMS(BAD_CALLS); ++k) {
        int fl = BAD_CALLS[k].flags;
        if (!bad && (fl & NULL_IS_VALID))
            continue;
        gp_array_t *sentinel = good, *out = sentinel;
        gp_status_t s = BAD_CALLS[k].call(bad, good, &out);
        int ok = 1;
        ok = CHECK_STATUS(s, GP_ERR_MISUSE) && CHECK_EQ(gp_errcode(), GP_ERR_MISUSE) &&
             CHECK(gp_errmsg()[0] != '\0');
        if (fl & SETS_OUT)
            ok &= CHECK(out == NULL);
        else
            ok &= CHECK(out == sentinel); /* no out-pointer: nothing written */
        if (s == GP_OK && out != sentinel)
            gp_array_release(out); /* should not happen, but do not leak it */
        if (!ok)
            fprintf(stderr, "    %s with a %s handle\n", BAD_CALLS[k].name, what);
    }
}

static void test_bad_array_handles(void)
{
    static const int64_t s23[2] = {2, 3};
    gp_array_t *good = NULL, *donor = NULL;
    if (!CHECK_OK(gp_array_empty(GP_INT32, 2, s23, GP_ORDER_C, &good)) ||
        !CHECK_OK(gp_array_empty(GP_INT32, 2, s23, GP_ORDER_C, &donor)))
        goto done;

    refuse_bad_handle("NULL", NULL, good, 0);

    /* foreign memory of the right size: garbage, zeros, and a buffer's magic */
    static const unsigned char fills[3] = {0xa5, 0x00, 0xff};
    for (int k = 0; k < 3; ++k) {
        fake_array_t f;
        memset(&f, fills[k], sizeof f);
        refuse_bad_handle("foreign", &f.a, good, 0);
    }
    fake_array_t wrong;
    memset(&wrong, 0x5a, sizeof wrong);
    wrong.a.magic = GP_BUFFER_MAGIC;
    refuse_bad_handle("buffer-kind", &wrong.a, good, 0);

    /* a stale handle: a live descriptor's bytes, marked dead as release does */
    fake_array_t stale;
    memcpy(&stale, donor, sizeof(struct gp_array) + 2 * 2 * sizeof(int64_t));
    stale.a.shape = stale.a.dims;
    stale.a.strides = stale.a.dims + 2;
    stale.a.magic = GP_DEAD_MAGIC;
    refuse_bad_handle("stale", &stale.a, good, 1);

    /* released handles, while their page lives and after it is given back */
    gp_array_t *dead = NULL;
    if (CHECK_OK(gp_array_empty(GP_INT32, 2, s23, GP_ORDER_C, &dead))) {
        CHECK_OK(gp_array_release(dead));
        refuse_bad_handle("released", dead, good, 1);
        enum { N = 20000 };
        static gp_array_t *newer[N];
        int reused = 0;
        for (int k = 0; k < N; ++k) {
            newer[k] = NULL;
            CHECK_OK(gp_array_empty(GP_INT32, 2, s23, GP_ORDER_C, &newer[k]));
            reused |= newer[k] == dead;
        }
        CHECK(!reused);
        refuse_bad_handle("released (address space reused around it)", dead, good, 1);
        for (int k = 0; k < N; ++k)
            CHECK_OK(gp_array_release(newer[k]));
        refuse_bad_handle("released (its page given back)", dead, newer[0], 1);
        refuse_bad_handle("released, among others", newer[N / 2], good, 1);
    }

    /* a stream handle is not an array handle */
    gp_stream_t *st = NULL;
    if (CHECK_OK(gp_stream_create(0, 0, &st)))
        refuse_bad_handle("stream", (gp_array_t *)st, good, 0);
    CHECK_OK(gp_stream_destroy(st));

    /* none of that disturbed the arrays used alongside */
    gp_array_info_t info;
    CHECK_OK(gp_array_get_info(good, &info));
    CHECK_EQ(info.size, 6);
done:
    gp_array_release(good);
    gp_array_release(donor);
}

/* ---- NULL where a result is written ------------------------------------------- */

typedef gp_status_t (*null_call_t)(gp_array_t *good);

#define NULL_CALL(name, ...)                          \
    static gp_status_t name(gp_array_t *good)         \
    {                                                 \
        (void)good;                                   \
        return __VA_ARGS__;                           \
    }

static const int32_t DT2[2] = {GP_INT8, GP_INT8};

NULL_CALL(n_empty, gp_array_empty(GP_INT8, 1, S2, GP_ORDER_C, NULL))
NULL_CALL(n_empty_shape, gp_array_empty(GP_INT8, 1, NULL, GP_ORDER_C, &(gp_array_t *){NULL}))
NULL_CALL(n_empty_like, gp_array_empty_like(good, GP_INT8, GP_ORDER_C, NULL))
NULL_CALL(n_zeros_like, gp_array_zeros_like(good, GP_INT8, GP_ORDER_C, NULL))
NULL_CALL(n_zeros, gp_array_zeros(GP_INT8, 1, S2, GP_ORDER_C, NULL))
NULL_CALL(n_full, gp_array_full(GP_INT8, 1, S2, GP_ORDER_C, &ONE, NULL))
NULL_CALL(n_full_value, gp_array_full(GP_INT8, 1, S2, GP_ORDER_C, NULL, &(gp_array_t *){NULL}))
NULL_CALL(n_from_host, gp_array_from_host((char[8]){0}, 8, GP_INT32, 1, S2, NULL, NULL))
NULL_CALL(n_from_host_src, gp_array_from_host(NULL, 8, GP_INT32, 1, S2, NULL,
                                              &(gp_array_t *){NULL}))
NULL_CALL(n_from_host_shape, gp_array_from_host((char[8]){0}, 8, GP_INT32, 1, NULL, NULL,
                                                &(gp_array_t *){NULL}))
NULL_CALL(n_to_host, gp_array_to_host(good, NULL, 24, GP_ORDER_C))
NULL_CALL(n_get_info, gp_array_get_info(good, NULL))
NULL_CALL(n_share, gp_array_may_share_memory(good, good, NULL))
NULL_CALL(n_copy, gp_array_copy(good, GP_ORDER_C, NULL))
NULL_CALL(n_astype, gp_array_astype(good, GP_INT8, GP_ORDER_C, GP_CASTING_UNSAFE, NULL))
NULL_CALL(n_fill, gp_array_fill(good, NULL))
NULL_CALL(n_reshape, gp_array_reshape(good, 1, S2, GP_ORDER_C, NULL))
NULL_CALL(n_reshape_shape, gp_array_reshape(good, 1, NULL, GP_ORDER_C, &(gp_array_t *){NULL}))
NULL_CALL(n_transpose, gp_array_transpose(good, 0, NULL, NULL))
NULL_CALL(n_index, gp_array_index(good, 1, &ITEM0, NULL))
NULL_CALL(n_index_items, gp_array_index(good, 1, NULL, &(gp_array_t *){NULL}))
NULL_CALL(n_slice, gp_array_slice(good, 0, 0, 0, 0, NULL))
NULL_CALL(n_squeeze, gp_array_squeeze(good, 0, NULL, NULL))
NULL_CALL(n_broadcast_to, gp_array_broadcast_to(good, 1, S2, NULL))
NULL_CALL(n_broadcast_to_shape, gp_array_broadcast_to(good, 1, NULL, &(gp_array_t *){NULL}))
NULL_CALL(n_broadcast_shapes, gp_broadcast_shapes(1, NULL, NULL, &(int32_t){0},
                                                  (int64_t[GP_MAXDIM]){0}))
NULL_CALL(n_broadcast_shapes_out, gp_broadcast_shapes(0, NULL, NULL, NULL, NULL))
NULL_CALL(n_as_strided, gp_array_as_strided(good, -1, 1, S2, ST4, 0, NULL))
NULL_CALL(n_as_strided_shape, gp_array_as_strided(good, -1, 1, NULL, NULL, 0,
                                                  &(gp_array_t *){NULL}))
NULL_CALL(n_dtype_info, gp_dtype_get_info(GP_INT8, NULL))
NULL_CALL(n_from_char, gp_dtype_from_char('b', NULL))
NULL_CALL(n_result_type, gp_dtype_result_type(2, DT2, NULL, NULL))
NULL_CALL(n_result_type_in, gp_dtype_result_type(2, NULL, NULL, &(int32_t){0}))
NULL_CALL(n_can_cast, gp_dtype_can_cast(GP_INT8, GP_INT8, GP_CASTING_SAFE, NULL))
NULL_CALL(n_check_fits, gp_scalar_check_fits(NULL, GP_INT8))
NULL_CALL(n_ufunc_count, gp_ufunc_count(NULL))
NULL_CALL(n_ufunc_find, gp_ufunc_find("add", NULL))
NULL_CALL(n_ufunc_find_name, gp_ufunc_find(NULL, &(int32_t){0}))
NULL_CALL(n_ufunc_info, gp_ufunc_get_info(ADD, NULL))
NULL_CALL(n_ufunc_loop, gp_ufunc_get_loop(ADD, 0, NULL))
NULL_CALL(n_ufunc_resolve, gp_ufunc_resolve(ADD, NULL, NULL, NULL, GP_CASTING_SAFE,
                                            (int32_t[3]){0}))
NULL_CALL(n_ufunc_resolve_out, gp_ufunc_resolve(ADD, (int32_t[3]){GP_INT8, GP_INT8, -1}, NULL,
                                                NULL, GP_CASTING_SAFE, NULL))
NULL_CALL(n_ufunc_call_in, gp_ufunc_call(ADD, NULL, &(gp_array_t *){NULL}, NULL, NULL,
                                         GP_CASTING_SAME_KIND, GP_ORDER_K))
NULL_CALL(n_ufunc_call_out, gp_ufunc_call(ADD, (gp_operand_t[2]){{good, ONE}, {good, ONE}},
                                          NULL, NULL, NULL, GP_CASTING_SAME_KIND, GP_ORDER_K))
NULL_CALL(n_reduce, gp_ufunc_reduce(ADD, good, 0, NULL, 0, -1, NULL, NULL))
NULL_CALL(n_accumulate, gp_ufunc_accumulate(ADD, good, 0, -1, NULL))
NULL_CALL(n_mean, gp_array_mean(good, 0, NULL, 0, -1, NULL))
NULL_CALL(n_argextreme, gp_array_argextreme(good, 1, GP_AXIS_NONE, 0, NULL))
NULL_CALL(n_arange, gp_array_arange(NULL, &ONE, 3, GP_INT64, &(gp_array_t *){NULL}))
NULL_CALL(n_arange_out, gp_array_arange(&ONE, &ONE, 3, GP_INT64, NULL))
NULL_CALL(n_config_key, gp_runtime_config(NULL, &(const char *){NULL}))
NULL_CALL(n_config_out, gp_runtime_config("backend", NULL))
NULL_CALL(n_device_count, gp_device_count(NULL))
NULL_CALL(n_device_get, gp_device_get(NULL))
NULL_CALL(n_stream_create, gp_stream_create(0, 0, NULL))
NULL_CALL(n_stream_current, gp_stream_get_current(NULL))
NULL_CALL(n_cache_stats, gp_cache_get_stats(NULL))
NULL_CALL(n_check_cuda, gp_rtc_check_cuda(NULL, "sm_90"))
NULL_CALL(n_check_cuda_arch, gp_rtc_check_cuda("", NULL))
NULL_CALL(n_check_hip, gp_rtc_check_hip(NULL, "gfx90a"))
NULL_CALL(n_check_hip_arch, gp_rtc_check_hip("", NULL))
NULL_CALL(n_precompile_cuda, gp_rtc_precompile_cuda(NULL, "sm_90"))
NULL_CALL(n_precompile_cuda_arch, gp_rtc_precompile_cuda("", NULL))

static const struct {
    const char *name;
    null_call_t call;
} NULL_CALLS[] = {
    {"gp_array_empty out", n_empty},
    {"gp_array_empty shape", n_empty_shape},
    {"gp_array_empty_like out", n_empty_like},
    {"gp_array_zeros_like out", n_zeros_like},
    {"gp_array_zeros out", n_zeros},
    {"gp_array_full out", n_full},
    {"gp_array_full value", n_full_value},
    {"gp_array_from_host out", n_from_host},
    {"gp_array_from_host src", n_from_host_src},
    {"gp_array_from_host shape", n_from_host_shape},
    {"gp_array_to_host dst", n_to_host},
    {"gp_array_get_info out", n_get_info},
    {"gp_array_may_share_memory out", n_share},
    {"gp_array_copy out", n_copy},
    {"gp_array_astype out", n_astype},
    {"gp_array_fill value", n_fill},
    {"gp_array_reshape out", n_reshape},
    {"gp_array_reshape shape", n_reshape_shape},
    {"gp_array_transpose out", n_transpose},
    {"gp_array_index out", n_index},
    {"gp_array_index items", n_index_items},
    {"gp_array_slice out", n_slice},
    {"gp_array_squeeze out", n_squeeze},
    {"gp_array_broadcast_to out", n_broadcast_to},
    {"gp_array_broadcast_to shape", n_broadcast_to_shape},
    {"gp_broadcast_shapes shapes", n_broadcast_shapes},
    {"gp_broadcast_shapes out", n_broadcast_shapes_out},
    {"gp_array_as_strided out", n_as_strided},
    {"gp_array_as_strided shape", n_as_strided_shape},
    {"gp_dtype_get_info out", n_dtype_info},
    {"gp_dtype_from_char out", n_from_char},
    {"gp_dtype_result_type out", n_result_type},
    {"gp_dtype_result_type dtypes", n_result_type_in},
    {"gp_dtype_can_cast out", n_can_cast},
    {"gp_scalar_check_fits value", n_check_fits},
    {"gp_ufunc_count out", n_ufunc_count},
    {"gp_ufunc_find out", n_ufunc_find},
    {"gp_ufunc_find name", n_ufunc_find_name},
    {"gp_ufunc_get_info out", n_ufunc_info},
    {"gp_ufunc_get_loop dtypes", n_ufunc_loop},
    {"gp_ufunc_resolve dtypes", n_ufunc_resolve},
    {"gp_ufunc_resolve loop_dtypes", n_ufunc_resolve_out},
    {"gp_ufunc_call in", n_ufunc_call_in},
    {"gp_ufunc_call out", n_ufunc_call_out},
    {"gp_ufunc_reduce out", n_reduce},
    {"gp_ufunc_accumulate out", n_accumulate},
    {"gp_array_mean out", n_mean},
    {"gp_array_argextreme out", n_argextreme},
    {"gp_array_arange start", n_arange},
    {"gp_array_arange out", n_arange_out},
    {"gp_runtime_config key", n_config_key},
    {"gp_runtime_config out", n_config_out},
    {"gp_device_count out", n_device_count},
    {"gp_device_get out", n_device_get},
    {"gp_stream_create out", n_stream_create},
    {"gp_stream_get_current out", n_stream_current},
    {"gp_cache_get_stats out", n_cache_stats},
    {"gp_rtc_precompile_cuda source", n_precompile_cuda},
    {"gp_rtc_precompile_cuda arch", n_precompile_cuda_arch},
    {"gp_rtc_check_cuda source", n_check_cuda},
    {"gp_rtc_check_cuda arch", n_check_cuda_arch},
    {"gp_rtc_check_hip source", n_check_hip},
    {"gp_rtc_check_hip arch", n_check_hip_arch},
};

static void test_null_arguments(void)
{
    static const int64_t s23[2] = {2, 3};
    gp_array_t *good = NULL;
    if (!CHECK_OK(gp_array_empty(GP_INT32, 2, s23, GP_ORDER_C, &good)))
        return;
    for (int k = 0; k < NELEMS(NULL_CALLS); ++k)
        if (!CHECK_STATUS(NULL_CALLS[k].call(good), GP_ERR_MISUSE))
            fprintf(stderr, "    %s\n", NULL_CALLS[k].name);
    gp_array_release(good);
}

/* ---- reference counts -------------------------------------------------------- */

static void test_refcounts(void)
{
    static const int64_t s3[1] = {3};
    gp_array_t *a = NULL, *v = NULL;
    if (!CHECK_OK(gp_array_empty(GP_FLOAT64, 1, s3, GP_ORDER_C, &a)))
        return;
    gp_array_t *copy = a; /* a second owner's pointer */
    CHECK_OK(gp_array_retain(a));
    CHECK_OK(gp_array_retain(copy));
    CHECK_OK(gp_array_release(a));      /* two references left */
    gp_array_info_t info;
    CHECK_OK(gp_array_get_info(copy, &info));
    CHECK_EQ(info.size, 3);
    CHECK_OK(gp_array_release(copy));   /* one left */
    if (CHECK_OK(gp_array_slice(a, GP_SLICE_START, 1, 0, 0, &v)))
        CHECK_OK(gp_array_get_info(v, &info));
    CHECK_OK(gp_array_release(a));      /* the last of `a`; the view holds the buffer */
    CHECK_OK(gp_array_get_info(v, &info));
    CHECK_EQ(info.size, 2);
    CHECK_OK(gp_array_release(v));

    /* releasing NULL is allowed and does nothing */
    CHECK_OK(gp_array_release(NULL));
    CHECK_OK(gp_stream_destroy(NULL));
}

/* ---- streams ------------------------------------------------------------------- */

static void test_streams(void)
{
    gp_stream_t *s = NULL, *cur = (gp_stream_t *)&s;
    CHECK_OK(gp_stream_get_current(&cur));
    CHECK(cur == NULL); /* the default stream */
    if (!CHECK_OK(gp_stream_create(GP_STREAM_NON_BLOCKING, 0, &s)))
        return;
    CHECK_OK(gp_stream_synchronize(s));
    CHECK_OK(gp_stream_synchronize(NULL));
    CHECK_OK(gp_stream_set_current(s));
    CHECK_OK(gp_stream_get_current(&cur));
    CHECK(cur == s);
    /* destroying the current stream makes the default one current */
    CHECK_OK(gp_stream_destroy(s));
    CHECK_OK(gp_stream_get_current(&cur));
    CHECK(cur == NULL);

    /* foreign and stale stream handles, and an array as a stream */
    struct { uint32_t magic; int32_t device; void *native; } fake;
    memset(&fake, 0xa5, sizeof fake);
    gp_array_t *arr = NULL;
    CHECK_OK(gp_array_empty(GP_INT8, 0, NULL, GP_ORDER_C, &arr));
    gp_stream_t *bad[3] = {(gp_stream_t *)&fake, (gp_stream_t *)&fake, (gp_stream_t *)arr};
    for (int k = 0; k < 3; ++k) {
        if (k == 1)
            fake.magic = GP_DEAD_MAGIC;
        if (!bad[k])
            continue;
        CHECK_STATUS(gp_stream_destroy(bad[k]), GP_ERR_MISUSE);
        CHECK_STATUS(gp_stream_synchronize(bad[k]), GP_ERR_MISUSE);
        CHECK_STATUS(gp_stream_set_current(bad[k]), GP_ERR_MISUSE);
    }
    CHECK_OK(gp_stream_get_current(&cur));
    CHECK(cur == NULL);
    gp_array_release(arr);
}

/* ---- the runtime ------------------------------------------------------------- */

static void test_runtime(void)
{
    CHECK_OK(gp_runtime_init(NULL));      /* already running: no-op */
    CHECK_OK(gp_runtime_init("host"));
    CHECK_OK(gp_runtime_init("auto"));
    CHECK_ERROR(gp_runtime_init("cuda"), GP_ERR_MISUSE,
                "the host backend is already running; the backend is chosen once per process");
    const char *v = NULL;
    if (CHECK_OK(gp_runtime_config("backend", &v)))
        CHECK_STR_EQ(v, "host");
    CHECK_ERROR(gp_runtime_config("no-such-key", &v), GP_ERR_VALUE,
                "unknown configuration key 'no-such-key'");
    int32_t n = 0, d = -1;
    CHECK_OK(gp_device_count(&n));
    CHECK_EQ(n, 1);
    CHECK_OK(gp_device_get(&d));
    CHECK_EQ(d, 0);
    CHECK_OK(gp_device_set(0));
    CHECK_STATUS(gp_device_set(1), GP_ERR_VALUE);
    CHECK_STATUS(gp_device_set(-1), GP_ERR_VALUE);
    CHECK_OK(gp_device_synchronize());
}

/* Vendor libraries are searched where gp_dl_open says, and a missing one
 * is named with every place tried. */
static void test_library_search(void)
{
    static const char *const missing[] = {"libgpunp-no-such-lib.so.1", NULL};
    static const char *const with_libm[] = {"libgpunp-no-such-lib.so.1", "libm.so.6", NULL};
    CHECK_OK(gp_runtime_set_library_path("/nonexistent-gpunp/a:/nonexistent-gpunp/b"));
    CHECK_EQ(setenv("GPUNP_CUDA_PATH", "/nonexistent-gpunp/override", 1), 0);
    void *h = &h;
    if (CHECK_STATUS(gp_dl_open("the test library", missing, GP_VENDOR_CUDA, &h),
                     GP_ERR_NOT_FOUND_LIBRARY)) {
        const char *m = gp_errmsg();
        static const char head[] =
            "the test library was not found (libgpunp-no-such-lib.so.1); looked in:";
        CHECK(strncmp(m, head, sizeof head - 1) == 0);
        static const char *const places[] = {
            "/nonexistent-gpunp/override/lib64", "(libraries already loaded)",
            "/nonexistent-gpunp/a", "/nonexistent-gpunp/b", "/usr/local/cuda/lib64",
            "(the system loader's paths)",
        };
        for (int k = 0; k < NELEMS(places); ++k)
            CHECK_HAS_STR(m, places[k]);
        /* in that order */
        CHECK(strstr(m, places[0]) < strstr(m, places[2]) &&
              strstr(m, places[2]) < strstr(m, places[4]));
    }
    CHECK(h == NULL);
    CHECK_EQ(unsetenv("GPUNP_CUDA_PATH"), 0);
    if (CHECK_STATUS(gp_dl_open("ROCm test", missing, GP_VENDOR_ROCM, &h),
                     GP_ERR_NOT_FOUND_LIBRARY))
        CHECK_HAS_STR(gp_errmsg(), "/opt/rocm/lib");
    CHECK_OK(gp_runtime_set_library_path(NULL));
    if (CHECK_STATUS(gp_dl_open("again", missing, GP_VENDOR_CUDA, &h), GP_ERR_NOT_FOUND_LIBRARY))
        CHECK(strstr(gp_errmsg(), "/nonexistent-gpunp/a") == NULL);

    /* a later name is taken when the first is missing (libm is loaded) */
    h = NULL;
    if (CHECK_OK(gp_dl_open("libm", with_libm, GP_VENDOR_CUDA, &h)) && CHECK(h != NULL)) {
        char path[512], line[600];
        CHECK_HAS_STR(gp_dl_path(h, path, sizeof path), "libm");
        /* where it came from, once however often it is opened */
        CHECK_OK(gp_dl_open("libm", with_libm, GP_VENDOR_CUDA, &h));
        const char *libs = NULL;
        snprintf(line, sizeof line, "libm: %s\n", path);
        if (CHECK_OK(gp_runtime_config("libraries", &libs))) {
            CHECK_HAS_STR(libs, line);
            CHECK(strstr(strstr(libs, line) + 1, line) == NULL);
        }
    }
    char path[16];
    CHECK_STR_EQ(gp_dl_path(NULL, path, sizeof path), "");
}

/* ---- errors ---------------------------------------------------------------------- */

static void test_errstr(void)
{
    static const struct { gp_status_t code; const char *text; } T[] = {
        {GP_OK, "not an error"},
        {GP_ERR_VALUE, "value error"},
        {GP_ERR_TYPE, "type error"},
        {GP_ERR_INDEX, "index error"},
        {GP_ERR_AXIS, "axis error"},
        {GP_ERR_NOMEM, "out of memory"},
        {GP_ERR_MISUSE, "API misuse"},
        {GP_ERR_UNSUPPORTED, "not supported"},
        {GP_ERR_BACKEND, "backend failure"},
        {GP_ERR_COMPILE, "kernel compilation failed"},
        {GP_ERR_OVERFLOW, "overflow"},
        {GP_ERR_IO, "input/output error"},
        {GP_ERR_NOT_FOUND, "not found"},
    };
    for (int k = 0; k < NELEMS(T); ++k) {
        CHECK_EQ(T[k].code, k); /* primary codes are dense from 0 */
        CHECK_STR_EQ(gp_errstr(T[k].code), T[k].text);
        for (int j = 0; j < k; ++j)
            CHECK(strcmp(gp_errstr(T[j].code), gp_errstr(T[k].code)) != 0);
    }
    static const gp_status_t unknown[] = {13, 99, 255, -1, -255, INT32_MIN, 0x100, 0x7fffff00};
    for (int k = 0; k < NELEMS(unknown); ++k)
        CHECK_STR_EQ(gp_errstr(unknown[k]), "unknown error");

    /* an extended code is its primary code plus detail above the low byte */
    static const struct { gp_status_t ext, primary; } X[] = {
        {GP_ERR_VALUE_BROADCAST, GP_ERR_VALUE},
        {GP_ERR_VALUE_RESHAPE, GP_ERR_VALUE},
        {GP_ERR_TYPE_NO_LOOP, GP_ERR_TYPE},
        {GP_ERR_TYPE_CASTING, GP_ERR_TYPE},
        {GP_ERR_NOMEM_DEVICE, GP_ERR_NOMEM},
        {GP_ERR_NOT_FOUND_LIBRARY, GP_ERR_NOT_FOUND},
        {GP_ERR_NOT_FOUND_DEVICE, GP_ERR_NOT_FOUND},
    };
    for (int k = 0; k < NELEMS(X); ++k) {
        CHECK_EQ(GP_PRIMARY(X[k].ext), X[k].primary);
        CHECK_EQ(X[k].ext & 0xff, X[k].primary);
        CHECK(X[k].ext > 0xff);
        CHECK_STR_EQ(gp_errstr(X[k].ext), gp_errstr(X[k].primary));
        for (int j = 0; j < k; ++j)
            CHECK(X[j].ext != X[k].ext);
    }
}

static void test_version(void)
{
    CHECK_EQ(gp_version(), GP_VERSION_MAJOR * 10000 + GP_VERSION_MINOR * 100 + GP_VERSION_PATCH);
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", GP_VERSION_MAJOR, GP_VERSION_MINOR, GP_VERSION_PATCH);
    CHECK_STR_EQ(gp_version_string(), want);
}

/* Two threads raise different errors at the same moment; each must read
 * back its own. */
typedef struct {
    pthread_barrier_t *barrier;
    int which;
    gp_status_t first_code; /* what a fresh thread sees */
    char first_msg[8];
    gp_status_t status, code;
    char msg[256];
} err_thread_t;

static void *raise_error(void *arg)
{
    err_thread_t *t = arg;
    t->first_code = gp_errcode();
    snprintf(t->first_msg, sizeof t->first_msg, "%s", gp_errmsg());
    int32_t out;
    gp_dtype_info_t info;
    t->status = t->which ? gp_dtype_from_char('x', &out) : gp_dtype_get_info(99, &info);
    pthread_barrier_wait(t->barrier); /* both errors are set now */
    t->code = gp_errcode();
    snprintf(t->msg, sizeof t->msg, "%s", gp_errmsg());
    return NULL;
}

static void test_errmsg_thread_local(void)
{
    /* the main thread's own error, which the threads must not disturb */
    gp_array_t *bad = NULL;
    int64_t four = 4;
    CHECK_STATUS(gp_array_empty(GP_INT8, 1, &four, 'Z', &bad), GP_ERR_VALUE);

    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, 2);
    err_thread_t t[2];
    pthread_t th[2];
    memset(t, 0, sizeof t);
    int started = 0;
    for (int k = 0; k < 2; ++k) {
        t[k].barrier = &barrier;
        t[k].which = k;
        if (CHECK_EQ(pthread_create(&th[k], NULL, raise_error, &t[k]), 0))
            ++started;
    }
    for (int k = 0; k < started; ++k)
        pthread_join(th[k], NULL);
    pthread_barrier_destroy(&barrier);
    if (!CHECK_EQ(started, 2))
        return;
    for (int k = 0; k < 2; ++k) {
        CHECK_EQ(t[k].first_code, GP_OK);
        CHECK_STR_EQ(t[k].first_msg, "");
        CHECK_EQ(t[k].status, GP_ERR_TYPE);
        CHECK_EQ(t[k].code, GP_ERR_TYPE);
    }
    CHECK_STR_EQ(t[0].msg, "invalid dtype code 99");
    CHECK_STR_EQ(t[1].msg, "data type 'x' not understood");
    CHECK_EQ(gp_errcode(), GP_ERR_VALUE);
    CHECK_STR_EQ(gp_errmsg(), "only 'C' or 'F' order is permitted");
}

/* Long messages are cut, never overflowed. */
static void test_long_message(void)
{
    char name[6000];
    memset(name, 'n', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    int32_t id = 0;
    CHECK_STATUS(gp_ufunc_find(name, &id), GP_ERR_NOT_FOUND);
    size_t n = strlen(gp_errmsg());
    CHECK(n > 100 && n < sizeof name);
    CHECK(strncmp(gp_errmsg(), "no ufunc named 'nnn", 19) == 0);
}

int main(void)
{
    if (!gp_test_init() || !CHECK_OK(gp_ufunc_find("add", &ADD)))
        return check_summary("test_abi");
    RUN(test_bad_array_handles);
    RUN(test_null_arguments);
    RUN(test_refcounts);
    RUN(test_streams);
    RUN(test_runtime);
    RUN(test_library_search);
    RUN(test_errstr);
    RUN(test_version);
    RUN(test_errmsg_thread_local);
    RUN(test_long_message);
    return check_summary("test_abi");
}
