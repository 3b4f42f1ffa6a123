/*
 * test_fuzzed.c - what the ABI's fuzzer (csrc/fuzz/fuzz_abi.c) found: each
 * test is a call that once crashed the engine or broke a sanitizer's rule,
 * now answered with a status.
 */
#include "gp_test.h"

static int32_t ufunc(const char *name)
{
    int32_t id = -1;
    CHECK_OK(gp_ufunc_find(name, &id));
    return id;
}

/* The operators' shortcuts hold as many operands as their ufunc should
 * take: a binary ufunc given to gp_ufunc_call_a read a second operand past
 * the one it had, and a ufunc of two outputs would write a second result
 * past the caller's one pointer. */
static void test_shortcuts_refuse_other_arities(void)
{
    static const int64_t s3[1] = {3};
    gp_array_t *a = NULL, *out = NULL;
    if (!CHECK_OK(gp_array_zeros(GP_FLOAT64, 1, s3, GP_ORDER_C, &a)))
        return;
    int32_t add = ufunc("add"), neg = ufunc("negative"), divmod = ufunc("divmod");
    int32_t modf = ufunc("modf");
    CHECK_ERROR(gp_ufunc_call_a(add, a, &out), GP_ERR_MISUSE,
                "gp_ufunc_call_a takes a ufunc of 1 input and 1 output; add has 2 and 1");
    CHECK(out == NULL);
    CHECK_STATUS(gp_ufunc_call_a(modf, a, &out), GP_ERR_MISUSE);
    CHECK_STATUS(gp_ufunc_call_aa(neg, a, a, &out), GP_ERR_MISUSE);
    CHECK_STATUS(gp_ufunc_call_aa(divmod, a, a, &out), GP_ERR_MISUSE);
    CHECK_STATUS(gp_ufunc_call_as(neg, a, GP_INT64, 1, 2, 0, 0, 0, &out), GP_ERR_MISUSE);
    CHECK_STATUS(gp_ufunc_call_as(divmod, a, GP_INT64, 1, 2, 0, 0, 1, &out), GP_ERR_MISUSE);
    CHECK_STATUS(gp_ufunc_call_a(-1, a, &out), GP_ERR_VALUE);
    CHECK(out == NULL);
    /* the right arity still works */
    if (CHECK_OK(gp_ufunc_call_a(neg, a, &out)))
        gp_array_release(out);
    gp_array_release(a);
}

/* A sorter value outside [0, len(a)) made searchsorted's kernel read
 * outside `a` (ASan, in the kernel, found by the fuzzer). */
static void test_searchsorted_checks_the_sorter(void)
{
    static const double av[3] = {1, 2, 3}, vv[2] = {2.5, 0};
    static const int64_t good[3] = {0, 1, 2}, bad[3] = {0, 400, 2}, neg[3] = {0, 1, -1};
    static const int64_t s3[1] = {3}, s2[1] = {2}, st8[1] = {8};
    gp_array_t *a = NULL, *v = NULL, *sorter = NULL, *out = NULL;
    if (!CHECK_OK(gp_array_from_host(av, sizeof av, GP_FLOAT64, 1, s3, st8, &a)) ||
        !CHECK_OK(gp_array_from_host(vv, sizeof vv, GP_FLOAT64, 1, s2, st8, &v)))
        goto done;
    const int64_t *bads[2] = {bad, neg};
    for (int k = 0; k < 2; ++k) {
        if (!CHECK_OK(gp_array_from_host(bads[k], sizeof bad, GP_INT64, 1, s3, st8, &sorter)))
            goto done;
        CHECK_ERROR(gp_array_searchsorted(a, v, GP_SEARCH_LEFT, sorter, &out), GP_ERR_INDEX,
                    k ? "index -1 is out of bounds for axis 0 with size 3"
                      : "index 400 is out of bounds for axis 0 with size 3");
        CHECK(out == NULL);
        gp_array_release(sorter);
        sorter = NULL;
    }
    /* the error is not left behind for the next call */
    if (CHECK_OK(gp_array_from_host(good, sizeof good, GP_INT64, 1, s3, st8, &sorter)) &&
        CHECK_OK(gp_array_searchsorted(a, v, GP_SEARCH_RIGHT, sorter, &out))) {
        int64_t r[2] = {-1, -1};
        CHECK_OK(gp_array_to_host(out, r, sizeof r, GP_ORDER_C));
        CHECK_EQ(r[0], 2);
        CHECK_EQ(r[1], 0);
    }
done:
    gp_array_release(out);
    gp_array_release(sorter);
    gp_array_release(v);
    gp_array_release(a);
}

/* The byte size of a host block was computed with a signed overflow
 * (UBSan, found by the fuzzer). */
static void test_from_host_of_a_huge_shape(void)
{
    static const int64_t huge[1] = {(int64_t)1 << 62}, huge2[2] = {(int64_t)1 << 62, 4};
    static const double x[1] = {0};
    gp_array_t *a = NULL;
    CHECK_ERROR(gp_array_from_host(x, 0, GP_FLOAT64, 1, huge, NULL, &a), GP_ERR_VALUE,
                "host buffer of 0 bytes does not hold the array");
    CHECK_STATUS(gp_array_from_host(x, 8, GP_INT8, 2, huge2, NULL, &a), GP_ERR_VALUE);
    CHECK(a == NULL);
}

/* An empty view may have any strides (as_strided), and reducing or
 * scanning one multiplied them by the lengths of its other axes when
 * merging axes: a signed overflow (UBSan in reduce.c, found by the
 * fuzzer). The merge now refuses such axes, and |INT64_MIN| saturates. */
static void test_reductions_of_empty_views_with_huge_strides(void)
{
    static const int64_t s4[1] = {4}, shape[3] = {0, 2, 2};
    static const int64_t strides[3] = {8, 8, (int64_t)1 << 62};
    gp_array_t *a = NULL, *v = NULL, *r = NULL;
    if (!CHECK_OK(gp_array_zeros(GP_FLOAT64, 1, s4, GP_ORDER_C, &a)) ||
        !CHECK_OK(gp_array_as_strided(a, -1, 3, shape, strides, 0, &v)))
        goto done;
    int32_t add = ufunc("add"), axis0 = 0;
    if (CHECK_OK(gp_ufunc_reduce(add, v, 1, &axis0, 0, -1, NULL, &r))) {
        double x[4] = {1, 1, 1, 1};
        CHECK_OK(gp_array_to_host(r, x, sizeof x, GP_ORDER_C));
        CHECK(x[0] == 0 && x[1] == 0 && x[2] == 0 && x[3] == 0);
    }
    gp_array_release(r);
    r = NULL;
    if (CHECK_OK(gp_array_mean(v, 1, &axis0, 1, -1, &r)))
        gp_array_release(r);
    r = NULL;
    if (CHECK_OK(gp_ufunc_accumulate(add, v, 1, -1, &r)))
        gp_array_release(r);
done:
    gp_array_release(v);
    gp_array_release(a);
}

/* NumPy's reshape errors, without the overflow that computed them: a
 * known product that overflows cannot match the size; an empty shape
 * whose other dimensions overflow in bytes is too big. */
static void test_reshape_of_huge_shapes(void)
{
    static const int64_t s0[1] = {0};
    static const int64_t over[3] = {(int64_t)1 << 62, 4, 0}, big[3] = {0, (int64_t)1 << 62, 4};
    static const int64_t unknown[3] = {-1, (int64_t)1 << 62, 4};
    gp_array_t *a = NULL, *r = NULL;
    if (!CHECK_OK(gp_array_empty(GP_FLOAT64, 1, s0, GP_ORDER_C, &a)))
        return;
    CHECK_ERROR(gp_array_reshape(a, 3, over, GP_ORDER_C, &r), GP_ERR_VALUE_RESHAPE,
                "cannot reshape array of size 0 into shape (4611686018427387904,4,0)");
    CHECK_ERROR(gp_array_reshape(a, 3, big, GP_ORDER_C, &r), GP_ERR_VALUE,
                "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
                "possible size.");
    CHECK_STATUS(gp_array_reshape(a, 3, big, GP_ORDER_F, &r), GP_ERR_VALUE);
    CHECK_STATUS(gp_array_reshape(a, 3, unknown, GP_ORDER_C, &r), GP_ERR_VALUE_RESHAPE);
    CHECK(r == NULL);
    gp_array_release(a);
}

int main(void)
{
    if (!gp_test_init())
        return check_summary("test_fuzzed");
    RUN(test_shortcuts_refuse_other_arities);
    RUN(test_searchsorted_checks_the_sorter);
    RUN(test_from_host_of_a_huge_shape);
    RUN(test_reductions_of_empty_views_with_huge_strides);
    RUN(test_reshape_of_huge_shapes);
    return check_summary("test_fuzzed");
}
