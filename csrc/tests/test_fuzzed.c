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

int main(void)
{
    if (!gp_test_init())
        return check_summary("test_fuzzed");
    RUN(test_shortcuts_refuse_other_arities);
    return check_summary("test_fuzzed");
}
