/*
 * test_core.c - the core layer (csrc/core): dtypes, NumPy 2 promotion and
 * casting, scalar bounds, shapes and strides, broadcasting, iteration
 * plans, views, reshape and host transfers.
 *
 * Mostly through the public ABI; the shape and iteration helpers that the
 * ABI cannot reach are tested through csrc/core/core.h. Expected values
 * are NumPy 2's, written out by hand rather than derived from the rules
 * under test. Nothing here compiles a kernel (test_kernels.c does).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/core.h"
#include "gp_test.h"

/* Type characters in enum order, to index the tables below. */
static const char TYPECHARS[GP_NDTYPES + 1] = "?bBhHiIlLeEfdFD";

static int32_t dt_of(char c)
{
    const char *p = strchr(TYPECHARS, c);
    return p && c ? (int32_t)(p - TYPECHARS) : -1;
}

/* ---- dtypes ---------------------------------------------------------------- */

static void test_dtype_info(void)
{
    static const struct {
        int32_t dt, kind, size, align;
        char c;
        const char *name;
    } T[] = {
        {GP_BOOL, GP_KIND_BOOL, 1, 1, '?', "bool"},
        {GP_INT8, GP_KIND_INT, 1, 1, 'b', "int8"},
        {GP_UINT8, GP_KIND_UINT, 1, 1, 'B', "uint8"},
        {GP_INT16, GP_KIND_INT, 2, 2, 'h', "int16"},
        {GP_UINT16, GP_KIND_UINT, 2, 2, 'H', "uint16"},
        {GP_INT32, GP_KIND_INT, 4, 4, 'i', "int32"},
        {GP_UINT32, GP_KIND_UINT, 4, 4, 'I', "uint32"},
        {GP_INT64, GP_KIND_INT, 8, 8, 'l', "int64"},
        {GP_UINT64, GP_KIND_UINT, 8, 8, 'L', "uint64"},
        {GP_FLOAT16, GP_KIND_FLOAT, 2, 2, 'e', "float16"},
        {GP_BFLOAT16, GP_KIND_FLOAT, 2, 2, 'E', "bfloat16"},
        {GP_FLOAT32, GP_KIND_FLOAT, 4, 4, 'f', "float32"},
        {GP_FLOAT64, GP_KIND_FLOAT, 8, 8, 'd', "float64"},
        {GP_COMPLEX64, GP_KIND_COMPLEX, 8, 4, 'F', "complex64"},
        {GP_COMPLEX128, GP_KIND_COMPLEX, 16, 8, 'D', "complex128"},
    };
    CHECK_EQ(NELEMS(T), GP_NDTYPES);
    for (int k = 0; k < NELEMS(T); ++k) {
        gp_dtype_info_t info;
        memset(&info, 0xff, sizeof info);
        if (!CHECK_OK(gp_dtype_get_info(T[k].dt, &info)))
            continue;
        CHECK_EQ(info.dtype, T[k].dt);
        CHECK_EQ(info.kind, T[k].kind);
        CHECK_EQ(info.itemsize, T[k].size);
        CHECK_EQ(info.alignment, T[k].align);
        CHECK_EQ(info.typechar, T[k].c);
        CHECK_STR_EQ(info.name, T[k].name);
        int32_t dt = -7;
        CHECK_OK(gp_dtype_from_char(T[k].c, &dt));
        CHECK_EQ(dt, T[k].dt);
    }

    /* C long long spellings of the 64-bit integers */
    static const struct { char c; int32_t dt; } alias[] = {{'q', GP_INT64}, {'Q', GP_UINT64}};
    for (int k = 0; k < NELEMS(alias); ++k) {
        int32_t dt = -7;
        CHECK_OK(gp_dtype_from_char(alias[k].c, &dt));
        CHECK_EQ(dt, alias[k].dt);
    }

    /* NumPy types the engine does not have, and nonsense */
    static const char bad[] = "gGOUSVMmx ";
    for (int k = 0; bad[k]; ++k) {
        int32_t dt = 0;
        char msg[64];
        snprintf(msg, sizeof msg, "data type '%c' not understood", bad[k]);
        CHECK_ERROR(gp_dtype_from_char(bad[k], &dt), GP_ERR_TYPE, msg);
        CHECK_EQ(dt, -1);
    }
    int32_t dt = 0;
    CHECK_STATUS(gp_dtype_from_char('\0', &dt), GP_ERR_TYPE);

    static const int32_t invalid[] = {-1, GP_NDTYPES, 127, INT32_MIN, INT32_MAX};
    for (int k = 0; k < NELEMS(invalid); ++k) {
        gp_dtype_info_t info;
        CHECK_STATUS(gp_dtype_get_info(invalid[k], &info), GP_ERR_TYPE);
    }
}

static void test_promotion_table(void)
{
    /* numpy.promote_types(row, column) in NumPy 2, with ml_dtypes' bfloat16 */
    static const char *const table[GP_NDTYPES] = {
        /*          ?bBhHiIlLeEfdFD */
        /* ? */    "?bBhHiIlLeEfdFD",
        /* b */    "bbhhiilldeEfdFD",
        /* B */    "BhBhHiIlLeEfdFD",
        /* h */    "hhhhiilldfffdFD",
        /* H */    "HiHiHiIlLfffdFD",
        /* i */    "iiiiiilldddddDD",
        /* I */    "IlIlIlIlLddddDD",
        /* l */    "lllllllldddddDD",
        /* L */    "LdLdLdLdLddddDD",
        /* e */    "eeeffddddeffdFD",
        /* E */    "EEEffddddfEfdFD",
        /* f */    "fffffddddfffdFD",
        /* d */    "dddddddddddddDD",
        /* F */    "FFFFFDDDDFFFDFD",
        /* D */    "DDDDDDDDDDDDDDD",
    };
    for (int r = 0; r < GP_NDTYPES; ++r) {
        if (!CHECK_EQ(strlen(table[r]), GP_NDTYPES))
            continue;
        for (int c = 0; c < GP_NDTYPES; ++c) {
            int32_t pair[2] = {r, c}, got = -2;
            if (!CHECK_OK(gp_dtype_result_type(2, pair, NULL, &got)))
                continue;
            if (!CHECK_EQ(got, dt_of(table[r][c])))
                fprintf(stderr, "    promote(%c, %c)\n", TYPECHARS[r], TYPECHARS[c]);
        }
    }
}

/* The examples NumPy's documentation and NEP 50 give, spelled out. */
static void test_result_type_examples(void)
{
    static const struct {
        int32_t n;
        int32_t dt[3];
        int32_t weak[3];
        int32_t want;
    } T[] = {
        /* strong pairs (numpy.promote_types) */
        {2, {GP_INT8, GP_UINT8}, {0, 0}, GP_INT16},
        {2, {GP_INT64, GP_UINT64}, {0, 0}, GP_FLOAT64},
        {2, {GP_INT16, GP_FLOAT16}, {0, 0}, GP_FLOAT32},
        {2, {GP_BFLOAT16, GP_FLOAT16}, {0, 0}, GP_FLOAT32},
        {2, {GP_UINT8, GP_BFLOAT16}, {0, 0}, GP_BFLOAT16},
        {2, {GP_COMPLEX64, GP_FLOAT64}, {0, 0}, GP_COMPLEX128},
        {2, {GP_INT32, GP_FLOAT32}, {0, 0}, GP_FLOAT64},
        {2, {GP_UINT32, GP_INT32}, {0, 0}, GP_INT64},
        {1, {GP_FLOAT16}, {0}, GP_FLOAT16},
        /* NEP 50: a Python scalar takes the array's dtype when its kind
         * allows, so no value-based upcasting */
        {2, {GP_UINT8, GP_INT64}, {0, 1}, GP_UINT8},
        {2, {GP_INT64, GP_UINT8}, {1, 0}, GP_UINT8},
        {2, {GP_INT8, GP_FLOAT64}, {0, 1}, GP_FLOAT64},
        {2, {GP_FLOAT16, GP_COMPLEX128}, {0, 1}, GP_COMPLEX64},
        {2, {GP_BFLOAT16, GP_COMPLEX128}, {0, 1}, GP_COMPLEX64},
        {2, {GP_FLOAT32, GP_COMPLEX128}, {0, 1}, GP_COMPLEX64},
        {2, {GP_FLOAT64, GP_COMPLEX128}, {0, 1}, GP_COMPLEX128},
        {2, {GP_BOOL, GP_INT64}, {0, 1}, GP_INT64},
        {2, {GP_BOOL, GP_FLOAT64}, {0, 1}, GP_FLOAT64},
        {2, {GP_INT8, GP_BOOL}, {0, 1}, GP_INT8},
        {2, {GP_FLOAT16, GP_FLOAT64}, {0, 1}, GP_FLOAT16},
        {2, {GP_INT8, GP_UINT64}, {0, 1}, GP_INT8}, /* 2**63 into int8: a value error, later */
        {2, {GP_UINT64, GP_INT64}, {0, 1}, GP_UINT64},
        /* several operands */
        {3, {GP_INT8, GP_UINT8, GP_FLOAT64}, {0, 0, 1}, GP_FLOAT64},
        {3, {GP_FLOAT16, GP_INT64, GP_FLOAT64}, {0, 1, 1}, GP_FLOAT16},
        {3, {GP_INT8, GP_COMPLEX128, GP_INT64}, {0, 1, 1}, GP_COMPLEX128},
        {3, {GP_INT8, GP_INT8, GP_UINT8}, {0, 0, 0}, GP_INT16},
        /* only Python scalars: their own default dtypes */
        {1, {GP_INT64}, {1}, GP_INT64},
        {1, {GP_BOOL}, {1}, GP_BOOL},
        {2, {GP_INT64, GP_FLOAT64}, {1, 1}, GP_FLOAT64},
        {2, {GP_BOOL, GP_INT64}, {1, 1}, GP_INT64},
        {2, {GP_FLOAT64, GP_COMPLEX128}, {1, 1}, GP_COMPLEX128},
    };
    for (int k = 0; k < NELEMS(T); ++k) {
        int32_t got = -2;
        if (CHECK_OK(gp_dtype_result_type(T[k].n, T[k].dt, T[k].weak, &got)) &&
            !CHECK_EQ(got, T[k].want))
            fprintf(stderr, "    case %d\n", k);
    }

    int32_t got = 0, dts[2] = {GP_INT8, 99};
    CHECK_STATUS(gp_dtype_result_type(0, dts, NULL, &got), GP_ERR_TYPE);
    CHECK_EQ(got, -1);
    CHECK_ERROR(gp_dtype_result_type(2, dts, NULL, &got), GP_ERR_TYPE, "invalid dtype code 99");
    dts[1] = -1;
    CHECK_STATUS(gp_dtype_result_type(2, dts, NULL, &got), GP_ERR_TYPE);
}

/* The kind order of NEP 50: bool < integers < floats < complex. */
static int kind_rank(int32_t dt)
{
    switch (dt) {
    case GP_BOOL: return 0;
    case GP_FLOAT16: case GP_BFLOAT16: case GP_FLOAT32: case GP_FLOAT64: return 2;
    case GP_COMPLEX64: case GP_COMPLEX128: return 3;
    default: return 1;
    }
}

static int safe(int32_t from, int32_t to)
{
    int32_t ok = -1;
    if (gp_dtype_can_cast(from, to, GP_CASTING_SAFE, &ok) != GP_OK)
        return -1;
    return ok;
}

static void test_result_type_weak_table(void)
{
    /* strong dtype (row) with a Python bool, int, float, complex */
    static const char *const table[GP_NDTYPES] = {
        "?ldD", "bbdD", "BBdD", "hhdD", "HHdD", "iidD", "IIdD",
        "lldD", "LLdD", "eeeF", "EEEF", "fffF", "dddD", "FFFF", "DDDD",
    };
    static const int32_t pyt[4] = {GP_BOOL, GP_INT64, GP_FLOAT64, GP_COMPLEX128};
    for (int32_t s = 0; s < GP_NDTYPES; ++s)
        for (int w = 0; w < 4; ++w) {
            int32_t dts[2] = {s, pyt[w]}, weak[2] = {0, 1}, got = -2;
            if (!CHECK_OK(gp_dtype_result_type(2, dts, weak, &got)))
                continue;
            if (!CHECK_EQ(got, dt_of(table[s][w])))
                fprintf(stderr, "    %s with weak %s\n", gp_dtypes[s].name,
                        gp_dtypes[pyt[w]].name);
            /* the array's dtype is never lost, and a scalar of a kind no
             * higher than the array's leaves it unchanged */
            CHECK_EQ(safe(s, got), 1);
            if (kind_rank(pyt[w]) <= kind_rank(s))
                CHECK_EQ(got, s);
            /* operand order does not matter */
            int32_t rdts[2] = {pyt[w], s}, rweak[2] = {1, 0}, rgot = -3;
            CHECK_OK(gp_dtype_result_type(2, rdts, rweak, &rgot));
            CHECK_EQ(rgot, got);
        }
}

static void test_promotion_properties(void)
{
    for (int32_t a = 0; a < GP_NDTYPES; ++a)
        for (int32_t b = 0; b < GP_NDTYPES; ++b) {
            int32_t ab[2] = {a, b}, ba[2] = {b, a}, aab[3] = {a, a, b};
            int32_t r = -2, r2 = -3, r3 = -4;
            if (!CHECK_OK(gp_dtype_result_type(2, ab, NULL, &r)))
                continue;
            CHECK_OK(gp_dtype_result_type(2, ba, NULL, &r2));
            CHECK_EQ(r, r2);                 /* symmetric */
            CHECK_OK(gp_dtype_result_type(3, aab, NULL, &r3));
            CHECK_EQ(r3, r);                 /* repeating an operand changes nothing */
            CHECK_EQ(safe(a, r), 1);         /* both operands cast safely to it */
            CHECK_EQ(safe(b, r), 1);
            if (a == GP_BOOL)
                CHECK_EQ(r, b);              /* bool is the identity */
            int32_t rr[2] = {r, a}, rra = -5;
            CHECK_OK(gp_dtype_result_type(2, rr, NULL, &rra));
            CHECK_EQ(rra, r);                /* absorbing */
        }
    for (int32_t a = 0; a < GP_NDTYPES; ++a) {
        int32_t aa[2] = {a, a}, r = -2;
        CHECK_OK(gp_dtype_result_type(2, aa, NULL, &r));
        CHECK_EQ(r, a);                      /* idempotent */
    }
}

/* ---- casting --------------------------------------------------------------- */

static void test_can_cast_safe_table(void)
{
    /* numpy.can_cast(row, column, "safe") is true exactly for these columns */
    static const char *const safe_to[GP_NDTYPES] = {
        "?bBhHiIlLeEfdFD", "bhileEfdFD", "BhHiIlLeEfdFD", "hilfdFD", "HiIlLfdFD",
        "ildD", "IlLdD", "ldD", "LdD", "efdFD", "EfdFD", "fdFD", "dD", "FD", "D",
    };
    for (int32_t f = 0; f < GP_NDTYPES; ++f)
        for (int32_t t = 0; t < GP_NDTYPES; ++t) {
            int want = strchr(safe_to[f], TYPECHARS[t]) != NULL;
            if (!CHECK_EQ(safe(f, t), want))
                fprintf(stderr, "    can_cast(%s, %s, safe)\n", gp_dtypes[f].name,
                        gp_dtypes[t].name);
        }
}

static void test_can_cast_rules(void)
{
    static const struct { int32_t from, to, want; } same_kind[] = {
        {GP_INT64, GP_INT8, 1},      {GP_UINT64, GP_INT8, 1},   {GP_UINT8, GP_INT8, 1},
        {GP_INT8, GP_UINT64, 0},     {GP_INT64, GP_UINT8, 0},   {GP_FLOAT64, GP_FLOAT16, 1},
        {GP_COMPLEX128, GP_COMPLEX64, 1}, {GP_FLOAT64, GP_COMPLEX64, 1},
        {GP_INT64, GP_FLOAT16, 1},   {GP_UINT64, GP_COMPLEX64, 1},
        {GP_FLOAT16, GP_BFLOAT16, 1}, {GP_BFLOAT16, GP_FLOAT16, 1}, {GP_COMPLEX64, GP_BFLOAT16, 0},
        {GP_FLOAT16, GP_INT64, 0},   {GP_FLOAT32, GP_UINT8, 0}, {GP_COMPLEX64, GP_FLOAT64, 0},
        {GP_INT64, GP_BOOL, 0},      {GP_FLOAT64, GP_BOOL, 0},  {GP_BOOL, GP_UINT8, 1},
    };
    for (int k = 0; k < NELEMS(same_kind); ++k) {
        int32_t ok = -1;
        CHECK_OK(gp_dtype_can_cast(same_kind[k].from, same_kind[k].to, GP_CASTING_SAME_KIND, &ok));
        if (!CHECK_EQ(ok, same_kind[k].want))
            fprintf(stderr, "    same_kind %s -> %s\n", gp_dtypes[same_kind[k].from].name,
                    gp_dtypes[same_kind[k].to].name);
    }

    for (int32_t f = 0; f < GP_NDTYPES; ++f)
        for (int32_t t = 0; t < GP_NDTYPES; ++t) {
            int32_t c[5];
            for (int32_t rule = GP_CASTING_NO; rule <= GP_CASTING_UNSAFE; ++rule) {
                c[rule] = -1;
                CHECK_OK(gp_dtype_can_cast(f, t, rule, &c[rule]));
            }
            CHECK_EQ(c[GP_CASTING_NO], f == t);
            CHECK_EQ(c[GP_CASTING_EQUIV], f == t);
            CHECK_EQ(c[GP_CASTING_UNSAFE], 1);
            /* each rule allows at least what the stricter one does */
            CHECK(!c[GP_CASTING_EQUIV] || c[GP_CASTING_SAFE]);
            CHECK(!c[GP_CASTING_SAFE] || c[GP_CASTING_SAME_KIND]);
            if (f == t)
                CHECK_EQ(c[GP_CASTING_NO], 1);
            if (f == GP_BOOL)
                CHECK_EQ(c[GP_CASTING_SAFE], 1);
            if (t == GP_BOOL)
                CHECK_EQ(c[GP_CASTING_SAFE], f == GP_BOOL);
            if (gp_dtype_kind(f) == GP_KIND_INT && gp_dtype_kind(t) == GP_KIND_UINT)
                CHECK_EQ(c[GP_CASTING_SAME_KIND], 0);
            if (kind_rank(f) > kind_rank(t))
                CHECK_EQ(c[GP_CASTING_SAME_KIND], 0);
            /* safe casting composes */
            for (int32_t u = 0; u < GP_NDTYPES; ++u)
                if (c[GP_CASTING_SAFE] && safe(t, u) == 1)
                    CHECK_EQ(safe(f, u), 1);
        }

    int32_t ok = 7;
    CHECK_ERROR(gp_dtype_can_cast(GP_INT8, GP_INT8, 5, &ok), GP_ERR_VALUE,
                "invalid casting rule 5");
    CHECK_STATUS(gp_dtype_can_cast(GP_INT8, GP_INT8, -1, &ok), GP_ERR_VALUE);
    CHECK_STATUS(gp_dtype_can_cast(-1, GP_INT8, GP_CASTING_SAFE, &ok), GP_ERR_TYPE);
    CHECK_EQ(ok, 0);
    CHECK_STATUS(gp_dtype_can_cast(GP_INT8, GP_NDTYPES, GP_CASTING_UNSAFE, &ok), GP_ERR_TYPE);
}

/* ---- Python integers against integer dtypes -------------------------------- */

static void test_scalar_check_fits(void)
{
    const int64_t U64MAX_BITS = -1; /* 2**64 - 1 as a bit pattern */
    const int64_t TWO63_BITS = INT64_MIN; /* 2**63 */
    static const char *const OK = NULL;
    const struct {
        int32_t vdt; /* GP_INT64, or GP_UINT64 for values >= 2**63 */
        int64_t v;
        int32_t to;
        const char *err; /* NumPy's OverflowError message, or OK */
    } T[] = {
        {GP_INT64, 0, GP_UINT8, OK},
        {GP_INT64, 255, GP_UINT8, OK},
        {GP_INT64, 256, GP_UINT8, "Python integer 256 out of bounds for uint8"},
        {GP_INT64, -1, GP_UINT8, "Python integer -1 out of bounds for uint8"},
        {GP_INT64, 127, GP_INT8, OK},
        {GP_INT64, -128, GP_INT8, OK},
        {GP_INT64, 128, GP_INT8, "Python integer 128 out of bounds for int8"},
        {GP_INT64, -129, GP_INT8, "Python integer -129 out of bounds for int8"},
        {GP_INT64, 65535, GP_UINT16, OK},
        {GP_INT64, 65536, GP_UINT16, "Python integer 65536 out of bounds for uint16"},
        {GP_INT64, 32767, GP_INT16, OK},
        {GP_INT64, -32768, GP_INT16, OK},
        {GP_INT64, 32768, GP_INT16, "Python integer 32768 out of bounds for int16"},
        {GP_INT64, -32769, GP_INT16, "Python integer -32769 out of bounds for int16"},
        {GP_INT64, INT32_MAX, GP_INT32, OK},
        {GP_INT64, INT32_MIN, GP_INT32, OK},
        {GP_INT64, (int64_t)INT32_MAX + 1, GP_INT32,
         "Python integer 2147483648 out of bounds for int32"},
        {GP_INT64, (int64_t)INT32_MIN - 1, GP_INT32,
         "Python integer -2147483649 out of bounds for int32"},
        {GP_INT64, UINT32_MAX, GP_UINT32, OK},
        {GP_INT64, (int64_t)UINT32_MAX + 1, GP_UINT32,
         "Python integer 4294967296 out of bounds for uint32"},
        {GP_INT64, INT64_MAX, GP_INT64, OK},
        {GP_INT64, INT64_MIN, GP_INT64, OK},
        {GP_INT64, INT64_MAX, GP_UINT64, OK},
        {GP_INT64, INT64_MIN, GP_UINT64,
         "Python integer -9223372036854775808 out of bounds for uint64"},
        {GP_INT64, -1, GP_UINT64, "Python integer -1 out of bounds for uint64"},
        {GP_UINT64, TWO63_BITS, GP_UINT64, OK},
        {GP_UINT64, U64MAX_BITS, GP_UINT64, OK},
        {GP_UINT64, TWO63_BITS, GP_INT64,
         "Python integer 9223372036854775808 out of bounds for int64"},
        {GP_UINT64, U64MAX_BITS, GP_INT64,
         "Python integer 18446744073709551615 out of bounds for int64"},
        {GP_UINT64, U64MAX_BITS, GP_UINT8,
         "Python integer 18446744073709551615 out of bounds for uint8"},
        /* only integer dtypes have bounds to check */
        {GP_INT64, 1000000, GP_FLOAT16, OK},
        {GP_UINT64, U64MAX_BITS, GP_FLOAT32, OK},
        {GP_INT64, 2, GP_BOOL, OK},
        {GP_INT64, -5, GP_COMPLEX64, OK},
    };
    for (int k = 0; k < NELEMS(T); ++k) {
        gp_scalar_t v = {T[k].vdt, 1, T[k].v, 0.0, 0.0};
        gp_status_t s = gp_scalar_check_fits(&v, T[k].to);
        int ok = T[k].err ? CHECK_ERROR(s, GP_ERR_OVERFLOW, T[k].err)
                          : CHECK_OK(s);
        if (!ok)
            fprintf(stderr, "    case %d\n", k);
    }
    /* NumPy scalars (strong) and non-integer Python scalars are not checked */
    gp_scalar_t strong = {GP_INT64, 0, 300, 0.0, 0.0};
    CHECK_OK(gp_scalar_check_fits(&strong, GP_UINT8));
    gp_scalar_t pyfloat = {GP_FLOAT64, 1, 0, 1e300, 0.0};
    CHECK_OK(gp_scalar_check_fits(&pyfloat, GP_INT8));
    gp_scalar_t pybool = {GP_BOOL, 1, 1, 0.0, 0.0};
    CHECK_OK(gp_scalar_check_fits(&pybool, GP_UINT8));
}

/* ---- shapes and strides ---------------------------------------------------- */

static void test_contiguity(void)
{
    static const struct {
        int32_t nd;
        int64_t shape[3], strides[3], isz;
        int c, f;
    } T[] = {
        {0, {0}, {0}, 8, 1, 1},                     /* 0-d */
        {1, {3}, {8}, 8, 1, 1},
        {1, {3}, {16}, 8, 0, 0},
        {1, {3}, {-8}, 8, 0, 0},
        {2, {2, 3}, {24, 8}, 8, 1, 0},
        {2, {2, 3}, {8, 16}, 8, 0, 1},
        {2, {2, 3}, {-24, 8}, 8, 0, 0},
        {2, {2, 2}, {8, 8}, 8, 0, 0},
        /* a dimension of length one may have any stride */
        {2, {1, 3}, {999, 8}, 8, 1, 1},
        {2, {3, 1}, {8, -1234}, 8, 1, 1},
        {3, {2, 1, 3}, {24, -5, 8}, 8, 1, 0},
        {2, {1, 1}, {7, 3}, 8, 1, 1},
        /* an empty array is contiguous both ways, whatever its strides */
        {2, {0, 3}, {5, 7}, 8, 1, 1},
        {2, {3, 0}, {-5, 0}, 8, 1, 1},
        {3, {2, 0, 2}, {1, 2, 3}, 4, 1, 1},
        /* the itemsize counts */
        {2, {2, 3}, {12, 4}, 4, 1, 0},
        {2, {2, 3}, {12, 4}, 8, 0, 0},
    };
    for (int k = 0; k < NELEMS(T); ++k) {
        int c = gp_is_c_contiguous(T[k].nd, T[k].shape, T[k].strides, T[k].isz);
        int f = gp_is_f_contiguous(T[k].nd, T[k].shape, T[k].strides, T[k].isz);
        if (!(CHECK_EQ(c, T[k].c) & CHECK_EQ(f, T[k].f)))
            fprintf(stderr, "    case %d\n", k);
    }

    static const struct {
        int32_t nd;
        int64_t shape[3], isz, c[3], f[3];
    } S[] = {
        {3, {2, 3, 4}, 4, {48, 16, 4}, {4, 8, 24}},
        {2, {5, 1}, 8, {8, 8}, {8, 40}},
        /* zero-length dimensions count as one, as NumPy's empty arrays */
        {3, {2, 0, 3}, 8, {24, 24, 8}, {8, 16, 16}},
        {1, {0}, 2, {2}, {2}},
    };
    for (int k = 0; k < NELEMS(S); ++k) {
        int64_t c[3] = {0}, f[3] = {0};
        gp_strides_contiguous(S[k].nd, S[k].shape, S[k].isz, GP_ORDER_C, c);
        gp_strides_contiguous(S[k].nd, S[k].shape, S[k].isz, GP_ORDER_F, f);
        for (int32_t d = 0; d < S[k].nd; ++d) {
            CHECK_EQ(c[d], S[k].c[d]);
            CHECK_EQ(f[d], S[k].f[d]);
        }
        CHECK(gp_is_c_contiguous(S[k].nd, S[k].shape, c, S[k].isz));
        CHECK(gp_is_f_contiguous(S[k].nd, S[k].shape, f, S[k].isz));
    }
}

static void test_shape_helpers(void)
{
    static const int64_t s0[1] = {0}, s23[2] = {2, 3}, s3[1] = {3}, s203[3] = {2, 0, 3};
    static const int64_t huge[3] = {INT64_MAX / 2, 3, 1}, huge0[3] = {INT64_MAX, INT64_MAX, 0};
    CHECK_EQ(gp_shape_size(0, s0), 1);
    CHECK_EQ(gp_shape_size(2, s23), 6);
    CHECK_EQ(gp_shape_size(3, s203), 0);
    CHECK_EQ(gp_shape_size(3, huge), -1);
    CHECK_EQ(gp_shape_size(3, huge0), 0); /* a zero wins over an overflow */

    char buf[64];
    gp_shape_format(0, s0, buf, sizeof buf);
    CHECK_STR_EQ(buf, "()");
    gp_shape_format(1, s3, buf, sizeof buf);
    CHECK_STR_EQ(buf, "(3,)");
    gp_shape_format(2, s23, buf, sizeof buf);
    CHECK_STR_EQ(buf, "(2,3)");
    gp_shape_format(3, s203, buf, sizeof buf);
    CHECK_STR_EQ(buf, "(2,0,3)");
    char small[4];
    memset(small, 'x', sizeof small);
    gp_shape_format(2, s23, small, sizeof small); /* truncates, terminated */
    CHECK_STR_EQ(small, "(2,");

    static const struct { int32_t axis, nd, want; } A[] = {
        {0, 1, 0}, {-1, 1, 0}, {2, 3, 2}, {-3, 3, 0}, {-1, 3, 2},
    };
    for (int k = 0; k < NELEMS(A); ++k) {
        int32_t got = -9;
        CHECK_OK(gp_normalize_axis(A[k].axis, A[k].nd, &got));
        CHECK_EQ(got, A[k].want);
    }
    int32_t got;
    CHECK_ERROR(gp_normalize_axis(3, 2, &got), GP_ERR_AXIS,
                "axis 3 is out of bounds for array of dimension 2");
    CHECK_ERROR(gp_normalize_axis(-3, 2, &got), GP_ERR_AXIS,
                "axis -3 is out of bounds for array of dimension 2");
    CHECK_ERROR(gp_normalize_axis(0, 0, &got), GP_ERR_AXIS,
                "axis 0 is out of bounds for array of dimension 0");

    bool mask[4];
    const int32_t ax1[2] = {-1, 0};
    CHECK_OK(gp_axes_to_mask(2, ax1, 3, mask));
    CHECK(mask[0] && !mask[1] && mask[2]);
    CHECK_OK(gp_axes_to_mask(0, NULL, 3, mask));
    CHECK(mask[0] && mask[1] && mask[2]);
    CHECK_OK(gp_axes_to_mask(0, ax1, 3, mask)); /* an empty list selects none */
    CHECK(!mask[0] && !mask[1] && !mask[2]);
    const int32_t dup[2] = {1, -2};
    CHECK_ERROR(gp_axes_to_mask(2, dup, 3, mask), GP_ERR_VALUE, "duplicate value in 'axis'");
    const int32_t far[1] = {4};
    CHECK_STATUS(gp_axes_to_mask(1, far, 3, mask), GP_ERR_AXIS);
}

static void test_broadcast_shapes(void)
{
    enum { MAXOPS = 3 };
    static const struct {
        int32_t n, nd[MAXOPS];
        int64_t s[MAXOPS][4];
        int32_t want_nd; /* -1: they do not broadcast */
        int64_t want[4];
        const char *msg;
    } T[] = {
        {2, {2, 1}, {{2, 3}, {3}}, 2, {2, 3}, NULL},
        {2, {2, 2}, {{2, 1}, {1, 3}}, 2, {2, 3}, NULL},
        {2, {3, 2}, {{5, 1, 4}, {3, 1}}, 3, {5, 3, 4}, NULL},
        {2, {0, 2}, {{0}, {2, 2}}, 2, {2, 2}, NULL},
        {2, {1, 1}, {{0}, {1}}, 1, {0}, NULL},
        {3, {1, 2, 0}, {{1}, {3, 1}, {0}}, 2, {3, 1}, NULL},
        {1, {0}, {{0}}, 0, {0}, NULL},
        {0, {0}, {{0}}, 0, {0}, NULL},
        {2, {2, 1}, {{2, 3}, {4}}, -1, {0},
         "operands could not be broadcast together with shapes (2,3) (4,) "},
        {2, {1, 1}, {{0}, {2}}, -1, {0},
         "operands could not be broadcast together with shapes (0,) (2,) "},
        {3, {1, 2, 0}, {{3}, {2, 1}, {0}}, 2, {2, 3}, NULL},
        {3, {1, 2, 0}, {{3}, {2, 2}, {0}}, -1, {0},
         "operands could not be broadcast together with shapes (3,) (2,2) () "},
    };
    for (int k = 0; k < NELEMS(T); ++k) {
        const int64_t *shapes[MAXOPS] = {T[k].s[0], T[k].s[1], T[k].s[2]};
        int32_t nd = -5;
        int64_t out[GP_MAXDIM];
        gp_status_t s = gp_broadcast_shapes(T[k].n, T[k].nd, shapes, &nd, out);
        if (T[k].want_nd < 0) {
            if (!CHECK_ERROR(s, GP_ERR_VALUE_BROADCAST, T[k].msg))
                fprintf(stderr, "    case %d\n", k);
            CHECK_EQ(GP_PRIMARY(s), GP_ERR_VALUE);
            continue;
        }
        if (!CHECK_OK(s) || !CHECK_EQ(nd, T[k].want_nd)) {
            fprintf(stderr, "    case %d\n", k);
            continue;
        }
        for (int32_t d = 0; d < nd; ++d)
            CHECK_EQ(out[d], T[k].want[d]);
    }
    int32_t nd65[1] = {GP_MAXDIM + 1}, nd;
    int64_t out[GP_MAXDIM], one[1] = {1};
    const int64_t *sp[1] = {one};
    CHECK_STATUS(gp_broadcast_shapes(1, nd65, sp, &nd, out), GP_ERR_VALUE);
    nd65[0] = -1;
    CHECK_STATUS(gp_broadcast_shapes(1, nd65, sp, &nd, out), GP_ERR_VALUE);
}

static void test_best_axis_order(void)
{
    enum { ND = 3 };
    static const struct {
        int32_t nd, n;
        int64_t st[2][ND];
        int null_second; /* the second operand is a scalar (NULL strides) */
        int32_t want[ND];
    } T[] = {
        {2, 1, {{24, 8}}, 0, {0, 1}},                   /* C */
        {2, 1, {{8, 16}}, 0, {1, 0}},                   /* F */
        {3, 1, {{8, 96, 24}}, 0, {1, 2, 0}},            /* permuted */
        {2, 1, {{-24, 8}}, 0, {0, 1}},                  /* a reversed axis still sorts by size */
        {2, 1, {{INT64_MIN, 8}}, 0, {0, 1}},            /* a magnitude past INT64_MAX */
        {2, 1, {{8, -16}}, 0, {1, 0}},
        {2, 1, {{0, 8}}, 0, {0, 1}},                    /* broadcast axes have no say */
        {2, 1, {{8, 0}}, 0, {0, 1}},
        {3, 1, {{8, 0, 16}}, 0, {1, 2, 0}},
        {2, 1, {{8, 8}}, 0, {0, 1}},                    /* ties keep C order */
        {2, 2, {{24, 8}, {8, 16}}, 0, {0, 1}},          /* disagreement keeps C order */
        {2, 2, {{0, 8}, {8, 0}}, 0, {0, 1}},
        {2, 2, {{8, 16}, {0, 0}}, 1, {1, 0}},           /* a scalar operand is ignored */
        {2, 2, {{8, 16}, {0, 32}}, 0, {1, 0}},
    };
    for (int k = 0; k < NELEMS(T); ++k) {
        const int64_t *st[2] = {T[k].st[0], T[k].null_second ? NULL : T[k].st[1]};
        int32_t perm[ND] = {-1, -1, -1};
        gp_best_axis_order(T[k].nd, T[k].n, st, perm);
        int ok = 1;
        for (int32_t d = 0; d < T[k].nd; ++d)
            ok &= CHECK_EQ(perm[d], T[k].want[d]);
        if (!ok)
            fprintf(stderr, "    case %d\n", k);
    }
}

/* ---- iteration plans --------------------------------------------------------- */

enum { IT_ND = 4, IT_OPS = 3 };

static int rows_nop;

static int cmp_rows(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    for (int k = 0; k < rows_nop; ++k)
        if (x[k] != y[k])
            return x[k] < y[k] ? -1 : 1;
    return 0;
}

/* The elements a plan visits, as sorted rows of the operands' byte offsets:
 * collapsing may reorder the walk but must visit exactly the same rows. */
static int64_t *plan_rows(const gp_iter_t *it, int64_t *count)
{
    int64_t n = gp_shape_size(it->ndim, it->shape);
    int64_t *rows = malloc((size_t)(n > 0 ? n : 1) * (size_t)it->nop * sizeof *rows);
    int64_t idx[GP_MAXDIM] = {0};
    for (int64_t e = 0; rows && e < n; ++e) {
        for (int32_t op = 0; op < it->nop; ++op) {
            int64_t off = 0;
            for (int32_t d = 0; d < it->ndim; ++d)
                off += idx[d] * it->strides[op][d];
            rows[e * it->nop + op] = off;
        }
        for (int32_t d = it->ndim - 1; d >= 0; --d) {
            if (++idx[d] < it->shape[d])
                break;
            idx[d] = 0;
        }
    }
    rows_nop = it->nop;
    if (rows)
        qsort(rows, (size_t)n, (size_t)it->nop * sizeof *rows, cmp_rows);
    *count = n;
    return rows;
}

/* Collapses `it` for operand `ref` and checks it still visits the same
 * elements with no more dimensions than before. */
static int collapse_keeps_elements(gp_iter_t *it, int32_t ref)
{
    int64_t n0, n1;
    int32_t nd0 = it->ndim;
    int64_t *before = plan_rows(it, &n0);
    gp_iter_collapse(it, ref);
    int64_t *after = plan_rows(it, &n1);
    int ok = before && after && n0 == n1 &&
             memcmp(before, after, (size_t)n0 * (size_t)it->nop * sizeof *before) == 0 &&
             it->ndim >= 1 && (it->ndim <= nd0 || nd0 == 0);
    free(before);
    free(after);
    return ok;
}

static void test_iter_collapse(void)
{
    static const struct {
        const char *what;
        int32_t nd;
        int64_t shape[IT_ND];
        int32_t nop, ref;
        int32_t op_nd[IT_OPS];      /* -1: a scalar operand */
        int64_t op_shape[IT_OPS][IT_ND];
        int64_t op_st[IT_OPS][IT_ND];
        int32_t want_nd;
        int64_t want_shape[IT_ND];
        int64_t want_st[IT_OPS][IT_ND];
    } T[] = {
        {"C-contiguous to one dim", 3, {2, 3, 4}, 1, 0, {3}, {{2, 3, 4}}, {{48, 16, 4}},
         1, {24}, {{4}}},
        {"F-contiguous to one dim", 3, {2, 3, 4}, 1, 0, {3}, {{2, 3, 4}}, {{4, 8, 24}},
         1, {24}, {{4}}},
        {"permuted dense to one dim", 3, {2, 3, 4}, 1, 0, {3}, {{2, 3, 4}}, {{4, 32, 8}},
         1, {24}, {{4}}},
        {"two C operands of different itemsizes", 2, {2, 3}, 2, 0, {2, 2},
         {{2, 3}, {2, 3}}, {{12, 4}, {24, 8}}, 1, {6}, {{4}, {8}}},
        {"C and F operands, C reference", 2, {2, 3}, 2, 0, {2, 2},
         {{2, 3}, {2, 3}}, {{12, 4}, {4, 8}}, 2, {2, 3}, {{12, 4}, {4, 8}}},
        {"C and F operands, F reference", 2, {2, 3}, 2, 1, {2, 2},
         {{2, 3}, {2, 3}}, {{12, 4}, {4, 8}}, 2, {3, 2}, {{4, 12}, {8, 4}}},
        {"broadcast row", 2, {2, 3}, 2, 0, {2, 1}, {{2, 3}, {3}}, {{12, 4}, {4}},
         2, {2, 3}, {{12, 4}, {0, 4}}},
        {"broadcast length-one dim", 2, {2, 3}, 2, 0, {2, 2}, {{2, 3}, {1, 3}},
         {{12, 4}, {999, 4}}, 2, {2, 3}, {{12, 4}, {0, 4}}},
        {"broadcast column", 2, {2, 3}, 2, 0, {2, 2}, {{2, 3}, {2, 1}},
         {{12, 4}, {8, 4}}, 2, {2, 3}, {{12, 4}, {8, 0}}},
        {"scalar operand", 2, {2, 3}, 2, 0, {2, -1}, {{2, 3}}, {{12, 4}},
         1, {6}, {{4}, {0}}},
        {"reversed contiguous merges", 2, {2, 3}, 1, 0, {2}, {{2, 3}}, {{-12, -4}},
         1, {6}, {{-4}}},
        {"reversed rows do not merge", 2, {2, 3}, 1, 0, {2}, {{2, 3}}, {{12, -4}},
         2, {2, 3}, {{12, -4}}},
        {"reversed columns do not merge", 2, {2, 3}, 1, 0, {2}, {{2, 3}}, {{-12, 4}},
         2, {2, 3}, {{-12, 4}}},
        {"padded rows merge inside only", 3, {2, 3, 4}, 1, 0, {3}, {{2, 3, 4}},
         {{64, 16, 4}}, 2, {2, 12}, {{64, 4}}},
        {"length-one dims dropped", 3, {1, 3, 1}, 1, 0, {3}, {{1, 3, 1}}, {{999, 4, 777}},
         1, {3}, {{4}}},
        {"one element", 2, {1, 1}, 2, 0, {2, 2}, {{1, 1}, {1, 1}}, {{8, 8}, {4, 4}},
         1, {1}, {{0}, {0}}},
        {"zero-size", 3, {2, 0, 3}, 2, 0, {3, 1}, {{2, 0, 3}, {3}}, {{0, 12, 4}, {4}},
         1, {0}, {{0}, {0}}},
        {"0-d", 0, {0}, 1, 0, {0}, {{0}}, {{0}}, 1, {1}, {{0}}},
    };
    for (int k = 0; k < NELEMS(T); ++k) {
        const int64_t *shapes[IT_OPS], *strides[IT_OPS];
        for (int32_t op = 0; op < T[k].nop; ++op) {
            shapes[op] = T[k].op_shape[op];
            strides[op] = T[k].op_nd[op] < 0 ? NULL : T[k].op_st[op];
        }
        gp_iter_t it;
        gp_iter_init(&it, T[k].nd, T[k].shape, T[k].nop, T[k].op_nd, shapes, strides);
        int ok = CHECK(collapse_keeps_elements(&it, T[k].ref));
        ok &= CHECK_EQ(it.ndim, T[k].want_nd);
        for (int32_t d = 0; ok && d < it.ndim; ++d) {
            ok &= CHECK_EQ(it.shape[d], T[k].want_shape[d]);
            for (int32_t op = 0; op < T[k].nop; ++op)
                ok &= CHECK_EQ(it.strides[op][d], T[k].want_st[op][d]);
        }
        if (!ok)
            fprintf(stderr, "    case \"%s\"\n", T[k].what);
    }
}

/* A fixed-seed generator, so a failure reproduces. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33) % n;
}

/* Random layouts (any axis order, reversed axes, broadcast dims, zero
 * sizes) keep their elements through collapsing. */
static void test_iter_collapse_random(void)
{
    int bad = 0;
    for (int trial = 0; trial < 400; ++trial) {
        int32_t nd = (int32_t)rnd(5), nop = 1 + (int32_t)rnd(3);
        int64_t shape[IT_ND];
        for (int32_t d = 0; d < nd; ++d)
            shape[d] = rnd(12) == 0 ? 0 : 1 + rnd(3);
        int64_t op_shape[IT_OPS][IT_ND], op_st[IT_OPS][IT_ND];
        int32_t op_nd[IT_OPS];
        const int64_t *shapes[IT_OPS], *strides[IT_OPS];
        for (int32_t op = 0; op < nop; ++op) {
            op_nd[op] = nd - (int32_t)rnd((uint32_t)nd + 1); /* fewer dims broadcast */
            int32_t off = nd - op_nd[op];
            int32_t perm[IT_ND];
            for (int32_t d = 0; d < op_nd[op]; ++d) {
                op_shape[op][d] = rnd(3) == 0 ? 1 : shape[off + d];
                perm[d] = d;
            }
            for (int32_t d = op_nd[op] - 1; d > 0; --d) {
                int32_t j = (int32_t)rnd((uint32_t)d + 1), t = perm[d];
                perm[d] = perm[j];
                perm[j] = t;
            }
            int64_t s = 1 << rnd(4); /* itemsize 1..8 */
            for (int32_t j = op_nd[op] - 1; j >= 0; --j) {
                int32_t d = perm[j];
                op_st[op][d] = rnd(4) == 0 ? -s : s;
                s *= op_shape[op][d] > 0 ? op_shape[op][d] : 1;
            }
            shapes[op] = op_shape[op];
            strides[op] = rnd(8) == 0 ? NULL : op_st[op];
        }
        gp_iter_t it;
        gp_iter_init(&it, nd, shape, nop, op_nd, shapes, strides);
        if (!collapse_keeps_elements(&it, (int32_t)rnd((uint32_t)nop)))
            ++bad;
    }
    CHECK_EQ(bad, 0);
}

/* ---- arrays and views ----------------------------------------------------------- */

static void test_array_empty(void)
{
    static const int64_t shape[3] = {2, 3, 4};
    gp_array_t *c = NULL, *f = NULL;
    if (!CHECK_OK(gp_array_empty(GP_FLOAT32, 3, shape, GP_ORDER_C, &c)) ||
        !CHECK_OK(gp_array_empty(GP_FLOAT32, 3, shape, GP_ORDER_F, &f)))
        goto done;
    gp_array_info_t info;
    CHECK_OK(gp_array_get_info(c, &info));
    CHECK_EQ(info.dtype, GP_FLOAT32);
    CHECK_EQ(info.ndim, 3);
    CHECK_EQ(info.itemsize, 4);
    CHECK_EQ(info.size, 24);
    CHECK_EQ(info.nbytes, 96);
    CHECK_EQ(info.offset, 0);
    CHECK_EQ(info.device_type, 1); /* kDLCPU */
    CHECK_EQ(info.device_id, 0);
    CHECK_EQ(info.flags, GP_FLAG_C_CONTIGUOUS | GP_FLAG_OWNDATA | GP_FLAG_WRITEABLE |
                             GP_FLAG_ALIGNED);
    static const int64_t cst[3] = {48, 16, 4}, fst[3] = {4, 8, 24};
    CHECK(has_strides(c, 3, cst));
    CHECK(has_strides(f, 3, fst));
    CHECK_EQ(flags_of(f) & (GP_FLAG_C_CONTIGUOUS | GP_FLAG_F_CONTIGUOUS), GP_FLAG_F_CONTIGUOUS);

    /* 0-d and zero-size arrays exist and are contiguous both ways */
    gp_array_t *z = NULL, *e = NULL;
    static const int64_t zs[2] = {3, 0};
    if (CHECK_OK(gp_array_empty(GP_COMPLEX128, 0, NULL, GP_ORDER_C, &z))) {
        CHECK_OK(gp_array_get_info(z, &info));
        CHECK_EQ(info.size, 1);
        CHECK_EQ(info.nbytes, 16);
        CHECK_EQ(info.flags & 3, 3);
    }
    if (CHECK_OK(gp_array_empty(GP_INT8, 2, zs, GP_ORDER_C, &e))) {
        CHECK_OK(gp_array_get_info(e, &info));
        CHECK_EQ(info.size, 0);
        CHECK_EQ(info.nbytes, 0);
        CHECK_EQ(info.flags & 3, 3);
        CHECK(info.data != 0);
    }
    gp_array_release(z);
    gp_array_release(e);

    gp_array_t *bad = (gp_array_t *)&info; /* must come back NULL */
    static const int64_t neg[2] = {2, -1};
    CHECK_ERROR(gp_array_empty(GP_INT8, 2, neg, GP_ORDER_C, &bad), GP_ERR_VALUE,
                "negative dimensions are not allowed");
    CHECK(bad == NULL);
    CHECK_STATUS(gp_array_empty(GP_INT8, GP_MAXDIM + 1, shape, GP_ORDER_C, &bad), GP_ERR_VALUE);
    CHECK_STATUS(gp_array_empty(GP_INT8, -1, shape, GP_ORDER_C, &bad), GP_ERR_VALUE);
    CHECK_STATUS(gp_array_empty(GP_NDTYPES, 1, shape, GP_ORDER_C, &bad), GP_ERR_TYPE);
    CHECK_ERROR(gp_array_empty(GP_INT8, 1, shape, GP_ORDER_K, &bad), GP_ERR_VALUE,
                "only 'C' or 'F' order is permitted");
    static const int64_t big[2] = {INT64_MAX / 4, 8};
    CHECK_STATUS(gp_array_empty(GP_INT8, 2, big, GP_ORDER_C, &bad), GP_ERR_VALUE);
    static const int64_t big2[1] = {((int64_t)1 << 61) + 1};
    CHECK_STATUS(gp_array_empty(GP_INT64, 1, big2, GP_ORDER_C, &bad), GP_ERR_VALUE);
    /* NumPy's bound leaves zero dimensions out: a zero does not excuse the
     * others, in any place, for new arrays and for views */
    static const int64_t big0[3][3] = {{0, (int64_t)1 << 62, 4}, {(int64_t)1 << 62, 4, 0},
                                       {(int64_t)1 << 61, 0, 4}};
    for (int k = 0; k < 3; ++k) {
        CHECK_ERROR(gp_array_empty(GP_INT8, 3, big0[k], GP_ORDER_C, &bad), GP_ERR_VALUE,
                    "array is too big; `arr.size * arr.dtype.itemsize` is larger than the "
                    "maximum possible size.");
        CHECK_STATUS(gp_array_zeros(GP_INT8, 3, big0[k], GP_ORDER_F, &bad), GP_ERR_VALUE);
        CHECK(bad == NULL);
    }
    static const int64_t fit0[3] = {0, (int64_t)1 << 60, 4}; /* 2**62 bytes were it not empty */
    if (CHECK_OK(gp_array_empty(GP_INT8, 3, fit0, GP_ORDER_C, &e))) {
        CHECK_OK(gp_array_get_info(e, &info));
        CHECK_EQ(info.nbytes, 0);
        gp_array_t *r = NULL;
        CHECK_ERROR(gp_array_reshape(e, 3, big0[0], GP_ORDER_C, &r), GP_ERR_VALUE,
                    "array is too big; `arr.size * arr.dtype.itemsize` is larger than the "
                    "maximum possible size.");
        CHECK(r == NULL);
        gp_array_release(e);
    }
    CHECK(bad == NULL);
done:
    gp_array_release(c);
    gp_array_release(f);
}

static void test_empty_like(void)
{
    static const int64_t shape[3] = {2, 3, 4};
    gp_array_t *a = iota_i32(3, shape), *t = NULL, *k = NULL, *af = NULL, *ac = NULL;
    if (!a)
        return;
    static const int32_t axes[3] = {2, 0, 1};
    if (!CHECK_OK(gp_array_transpose(a, 3, axes, &t))) /* shape (4,2,3) */
        goto done;
    /* order K keeps the memory order of the axes, A follows contiguity */
    if (CHECK_OK(gp_array_empty_like(t, GP_FLOAT64, GP_ORDER_K, &k))) {
        static const int64_t kst[3] = {8, 96, 32};
        CHECK(has_strides(k, 3, kst));
    }
    gp_array_t *f = NULL;
    if (CHECK_OK(gp_array_transpose(a, 0, NULL, &f))) {
        CHECK_OK(gp_array_empty_like(f, GP_INT8, GP_ORDER_A, &af));
        CHECK_EQ(flags_of(af) & 3, GP_FLAG_F_CONTIGUOUS);
        CHECK_OK(gp_array_empty_like(f, GP_INT8, GP_ORDER_C, &ac));
        CHECK_EQ(flags_of(ac) & 3, GP_FLAG_C_CONTIGUOUS);
        gp_array_t *bad = a;
        CHECK_STATUS(gp_array_empty_like(f, GP_INT8, 'X', &bad), GP_ERR_VALUE);
        CHECK(bad == NULL);
    }
    gp_array_release(f);
done:
    gp_array_release(a);
    gp_array_release(t);
    gp_array_release(k);
    gp_array_release(af);
    gp_array_release(ac);
}

/* Python's slice semantics on an axis of `len` elements, checked against
 * values computed by CPython (list(range(len))[start:stop:step]). */
static void test_slices(void)
{
    static const struct {
        int64_t len;
        int32_t present;
        int64_t start, stop, step, n;
        int32_t want[5];
    } T[] = {
        {5, 0, 0, 0, 0, 5, {0, 1, 2, 3, 4}},
        {5, 3, 1, 3, 0, 2, {1, 2}},
        {5, 1, -2, 0, 0, 2, {3, 4}},
        {5, 4, 0, 0, -1, 5, {4, 3, 2, 1, 0}},
        {5, 7, 3, 0, -1, 3, {3, 2, 1}},
        {5, 3, -100, 100, 0, 5, {0, 1, 2, 3, 4}},
        {5, 1, 100, 0, 0, 0, {0}},
        {5, 2, 0, -100, 0, 0, {0}},
        {5, 4, 0, 0, -2, 3, {4, 2, 0}},
        {5, 5, -100, 0, -1, 0, {0}},
        {5, 5, 100, 0, -1, 5, {4, 3, 2, 1, 0}},
        {5, 6, 0, 100, -1, 0, {0}},
        {5, 7, 1, -1, 2, 2, {1, 3}},
        {5, 7, 4, 1, -2, 2, {4, 2}},
        {5, 7, 0, 5, 3, 2, {0, 3}},
        {5, 4, 0, 0, INT64_MIN, 1, {4}},
        {5, 3, INT64_MIN, INT64_MAX, 0, 5, {0, 1, 2, 3, 4}},
        {5, 4, 0, 0, INT64_MAX, 1, {0}},
        {5, 7, -1, -6, -1, 5, {4, 3, 2, 1, 0}},
        {5, 7, -6, -1, 1, 4, {0, 1, 2, 3}},
        {5, 3, 2, 2, 0, 0, {0}},
        {5, 3, 3, 1, 0, 0, {0}},
        {5, 4, 0, 0, 7, 1, {0}},
        {5, 5, 5, 0, -1, 5, {4, 3, 2, 1, 0}},
        {5, 5, -5, 0, -1, 1, {0}},
        {5, 6, 0, -5, -1, 4, {4, 3, 2, 1}},
        {5, 6, 0, -6, -1, 5, {4, 3, 2, 1, 0}},
        {0, 0, 0, 0, 0, 0, {0}},
        {0, 4, 0, 0, -1, 0, {0}},
        {0, 7, -1, -6, -1, 0, {0}},
        {0, 3, -100, 100, 0, 0, {0}},
        {0, 4, 0, 0, INT64_MIN, 0, {0}},
    };
    const int64_t GARBAGE = 0x5eed; /* in fields `present` says are absent */
    for (int k = 0; k < NELEMS(T); ++k) {
        gp_array_t *a = iota_i32(1, &T[k].len), *v1 = NULL, *v2 = NULL;
        if (!a)
            continue;
        int32_t p = T[k].present;
        int64_t start = p & GP_SLICE_START ? T[k].start : GARBAGE;
        int64_t stop = p & GP_SLICE_STOP ? T[k].stop : GARBAGE;
        int64_t step = p & GP_SLICE_STEP ? T[k].step : GARBAGE;
        gp_index_item_t item = {GP_INDEX_SLICE, p, start, stop, step};
        int ok = CHECK_OK(gp_array_slice(a, p, start, stop, step, &v1)) &&
                 CHECK_OK(gp_array_index(a, 1, &item, &v2)) &&
                 CHECK(has_shape(v1, 1, &T[k].n)) && CHECK(has_shape(v2, 1, &T[k].n)) &&
                 CHECK(values_i32(v1, T[k].want, T[k].n)) &&
                 CHECK(values_i32(v2, T[k].want, T[k].n));
        if (ok && T[k].n > 0) /* views share the memory of their base */
            CHECK_EQ(data_of(v1), data_of(a) + 4 * (uint64_t)T[k].want[0]);
        if (!ok)
            fprintf(stderr, "    case %d\n", k);
        gp_array_release(v1);
        gp_array_release(v2);
        gp_array_release(a);
    }

    int64_t five = 5;
    gp_array_t *a = iota_i32(1, &five), *v = (gp_array_t *)&five;
    CHECK_ERROR(gp_array_slice(a, GP_SLICE_STEP, 0, 0, 0, &v), GP_ERR_VALUE,
                "slice step cannot be zero");
    CHECK(v == NULL);
    gp_array_t *z = NULL;
    if (CHECK_OK(gp_array_empty(GP_INT32, 0, NULL, GP_ORDER_C, &z)))
        CHECK_ERROR(gp_array_slice(z, 0, 0, 0, 0, &v), GP_ERR_INDEX,
                    "too many indices for array: array is 0-dimensional, but 1 were indexed");
    gp_array_release(z);

    /* slicing a reversed view composes */
    gp_array_t *r = NULL, *rr = NULL;
    if (CHECK_OK(gp_array_slice(a, GP_SLICE_STEP, 0, 0, -1, &r)) &&
        CHECK_OK(gp_array_slice(r, GP_SLICE_START | GP_SLICE_STEP, 1, 0, 2, &rr))) {
        static const int32_t want[2] = {3, 1};
        CHECK(values_i32(rr, want, 2));
    }
    gp_array_release(r);
    gp_array_release(rr);
    gp_array_release(a);
}

static void test_index(void)
{
    static const int64_t shape[2] = {3, 4};
    gp_array_t *a = iota_i32(2, shape);
    if (!a)
        return;
    enum { I = GP_INDEX_INT, S = GP_INDEX_SLICE, N = GP_INDEX_NEWAXIS, E = GP_INDEX_ELLIPSIS };
    static const struct {
        const char *what;
        int32_t n;
        gp_index_item_t it[4];
        int32_t nd;
        int64_t shape[4];
        int32_t want[12];
    } T[] = {
        {"a[1]", 1, {{I, 0, 1, 0, 0}}, 1, {4}, {4, 5, 6, 7}},
        {"a[-1]", 1, {{I, 0, -1, 0, 0}}, 1, {4}, {8, 9, 10, 11}},
        {"a[-3]", 1, {{I, 0, -3, 0, 0}}, 1, {4}, {0, 1, 2, 3}},
        {"a[1, 2]", 2, {{I, 0, 1, 0, 0}, {I, 0, 2, 0, 0}}, 0, {0}, {6}},
        {"a[:, ::-1]", 2, {{S, 0, 0, 0, 0}, {S, GP_SLICE_STEP, 0, 0, -1}}, 2, {3, 4},
         {3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8}},
        {"a[::-2, 1:3]", 2, {{S, GP_SLICE_STEP, 0, 0, -2}, {S, 3, 1, 3, 0}}, 2, {2, 2},
         {9, 10, 1, 2}},
        {"a[None, 1]", 2, {{N, 0, 0, 0, 0}, {I, 0, 1, 0, 0}}, 2, {1, 4}, {4, 5, 6, 7}},
        {"a[..., 2]", 2, {{E, 0, 0, 0, 0}, {I, 0, 2, 0, 0}}, 1, {3}, {2, 6, 10}},
        {"a[..., None]", 2, {{E, 0, 0, 0, 0}, {N, 0, 0, 0, 0}}, 3, {3, 4, 1},
         {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
        {"a[1, ..., 2]", 3, {{I, 0, 1, 0, 0}, {E, 0, 0, 0, 0}, {I, 0, 2, 0, 0}}, 0, {0}, {6}},
        {"a[None, ..., None]", 3, {{N, 0, 0, 0, 0}, {E, 0, 0, 0, 0}, {N, 0, 0, 0, 0}}, 4,
         {1, 3, 4, 1}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
        {"a[2:0:-1, -1]", 2, {{S, 7, 2, 0, -1}, {I, 0, -1, 0, 0}}, 1, {2}, {11, 7}},
        {"a[()]", 0, {{0}}, 2, {3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
        {"a[5:]", 1, {{S, GP_SLICE_START, 5, 0, 0}}, 2, {0, 4}, {0}},
    };
    for (int k = 0; k < NELEMS(T); ++k) {
        gp_array_t *v = NULL;
        int64_t n = gp_shape_size(T[k].nd, T[k].shape);
        int ok = CHECK_OK(gp_array_index(a, T[k].n, T[k].it, &v)) &&
                 CHECK(has_shape(v, T[k].nd, T[k].shape)) && CHECK(values_i32(v, T[k].want, n));
        if (!ok)
            fprintf(stderr, "    %s\n", T[k].what);
        gp_array_release(v);
    }

    static const struct {
        const char *what;
        int32_t n;
        gp_index_item_t it[4];
        gp_status_t code;
        const char *msg;
    } E_[] = {
        {"a[5]", 1, {{I, 0, 5, 0, 0}}, GP_ERR_INDEX,
         "index 5 is out of bounds for axis 0 with size 3"},
        {"a[-4]", 1, {{I, 0, -4, 0, 0}}, GP_ERR_INDEX,
         "index -4 is out of bounds for axis 0 with size 3"},
        {"a[0, 9]", 2, {{I, 0, 0, 0, 0}, {I, 0, 9, 0, 0}}, GP_ERR_INDEX,
         "index 9 is out of bounds for axis 1 with size 4"},
        {"a[..., 4]", 2, {{E, 0, 0, 0, 0}, {I, 0, 4, 0, 0}}, GP_ERR_INDEX,
         "index 4 is out of bounds for axis 1 with size 4"},
        {"a[0, 0, 0]", 3, {{I, 0, 0, 0, 0}, {I, 0, 0, 0, 0}, {I, 0, 0, 0, 0}}, GP_ERR_INDEX,
         "too many indices for array: array is 2-dimensional, but 3 were indexed"},
        {"a[..., ...]", 2, {{E, 0, 0, 0, 0}, {E, 0, 0, 0, 0}}, GP_ERR_INDEX,
         "an index can only have a single ellipsis ('...')"},
        {"a[::0]", 1, {{S, GP_SLICE_STEP, 0, 0, 0}}, GP_ERR_VALUE, "slice step cannot be zero"},
        {"bad kind", 1, {{99, 0, 0, 0, 0}}, GP_ERR_MISUSE, "bad index item kind 99"},
    };
    for (int k = 0; k < NELEMS(E_); ++k) {
        gp_array_t *v = a;
        if (!CHECK_ERROR(gp_array_index(a, E_[k].n, E_[k].it, &v), E_[k].code, E_[k].msg))
            fprintf(stderr, "    %s\n", E_[k].what);
        CHECK(v == NULL);
    }

    /* an integer index gives a 0-d view, which indexes with () */
    gp_index_item_t i21[2] = {{I, 0, 2, 0, 0}, {I, 0, 1, 0, 0}};
    gp_array_t *s = NULL, *s2 = NULL;
    if (CHECK_OK(gp_array_index(a, 2, i21, &s))) {
        gp_array_info_t info;
        CHECK_OK(gp_array_get_info(s, &info));
        CHECK_EQ(info.ndim, 0);
        CHECK_EQ(info.size, 1);
        CHECK_EQ(info.offset, 36);
        CHECK_EQ(info.flags & GP_FLAG_OWNDATA, 0);
        CHECK_OK(gp_array_index(s, 0, NULL, &s2));
        static const int32_t nine = 9;
        CHECK(values_i32(s2, &nine, 1));
        gp_array_t *bad = NULL;
        CHECK_STATUS(gp_array_index(s, 1, i21, &bad), GP_ERR_INDEX);
    }
    gp_array_release(s);
    gp_array_release(s2);
    gp_array_release(a);
}

static void test_transpose(void)
{
    static const int64_t shape[3] = {2, 3, 4};
    gp_array_t *a = iota_i32(3, shape);
    if (!a)
        return;
    static const struct {
        int32_t naxes;
        int32_t axes[3];
        int use_null;
        int64_t shape[3], strides[3];
    } T[] = {
        {0, {0}, 1, {4, 3, 2}, {4, 16, 48}},
        {3, {1, 0, 2}, 0, {3, 2, 4}, {16, 48, 4}},
        {3, {-1, 0, 1}, 0, {4, 2, 3}, {4, 48, 16}},
        {3, {0, 1, 2}, 0, {2, 3, 4}, {48, 16, 4}},
    };
    for (int k = 0; k < NELEMS(T); ++k) {
        gp_array_t *t = NULL;
        if (CHECK_OK(gp_array_transpose(a, T[k].naxes, T[k].use_null ? NULL : T[k].axes, &t))) {
            CHECK(has_shape(t, 3, T[k].shape));
            CHECK(has_strides(t, 3, T[k].strides));
            CHECK_EQ(data_of(t), data_of(a));
        }
        gp_array_release(t);
    }
    /* the reversed transpose of a C array is F-contiguous; values follow */
    gp_array_t *t = NULL;
    if (CHECK_OK(gp_array_transpose(a, 0, NULL, &t))) {
        CHECK_EQ(flags_of(t) & 3, GP_FLAG_F_CONTIGUOUS);
        int32_t want[24], n = 0;
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 3; ++j)
                for (int k = 0; k < 2; ++k)
                    want[n++] = k * 12 + j * 4 + i;
        CHECK(values_i32(t, want, 24));
    }
    gp_array_release(t);

    static const struct {
        int32_t naxes;
        int32_t axes[4];
        gp_status_t code;
        const char *msg;
    } E_[] = {
        {2, {1, 0}, GP_ERR_VALUE, "axes don't match array"},
        {4, {0, 1, 2, 3}, GP_ERR_VALUE, "axes don't match array"},
        {3, {0, 0, 1}, GP_ERR_VALUE, "repeated axis in transpose"},
        {3, {0, -3, 1}, GP_ERR_VALUE, "repeated axis in transpose"},
        {3, {0, 5, 1}, GP_ERR_AXIS, "axis 5 is out of bounds for array of dimension 3"},
        {3, {0, 1, -4}, GP_ERR_AXIS, "axis -4 is out of bounds for array of dimension 3"},
    };
    for (int k = 0; k < NELEMS(E_); ++k) {
        gp_array_t *bad = a;
        CHECK_ERROR(gp_array_transpose(a, E_[k].naxes, E_[k].axes, &bad), E_[k].code, E_[k].msg);
        CHECK(bad == NULL);
    }
    /* an empty, non-NULL axes list only fits a 0-d array */
    static const int32_t none[1] = {0};
    gp_array_t *bad = NULL;
    CHECK_ERROR(gp_array_transpose(a, 0, none, &bad), GP_ERR_VALUE, "axes don't match array");
    gp_array_t *z = NULL, *zt = NULL;
    if (CHECK_OK(gp_array_empty(GP_INT8, 0, NULL, GP_ORDER_C, &z)))
        CHECK_OK(gp_array_transpose(z, 0, none, &zt));
    gp_array_release(z);
    gp_array_release(zt);
    gp_array_release(a);
}

static void test_squeeze(void)
{
    static const int64_t shape[3] = {1, 3, 1};
    gp_array_t *a = iota_i32(3, shape);
    if (!a)
        return;
    static const struct {
        int32_t naxes;
        int32_t axes[2];
        int use_null;
        int32_t nd;
        int64_t shape[3];
    } T[] = {
        {0, {0}, 1, 1, {3}},
        {1, {0}, 0, 2, {3, 1}},
        {1, {-1}, 0, 2, {1, 3}},
        {2, {2, 0}, 0, 1, {3}},
        {0, {0}, 0, 3, {1, 3, 1}}, /* an empty list drops nothing */
    };
    for (int k = 0; k < NELEMS(T); ++k) {
        gp_array_t *s = NULL;
        if (CHECK_OK(gp_array_squeeze(a, T[k].naxes, T[k].use_null ? NULL : T[k].axes, &s))) {
            CHECK(has_shape(s, T[k].nd, T[k].shape));
            static const int32_t want[3] = {0, 1, 2};
            CHECK(values_i32(s, want, 3));
        }
        gp_array_release(s);
    }
    static const int32_t one[1] = {1}, five[1] = {5}, dup[2] = {0, -3};
    gp_array_t *bad = a;
    CHECK_ERROR(gp_array_squeeze(a, 1, one, &bad), GP_ERR_VALUE,
                "cannot select an axis to squeeze out which has size not equal to one");
    CHECK(bad == NULL);
    CHECK_ERROR(gp_array_squeeze(a, 1, five, &bad), GP_ERR_AXIS,
                "axis 5 is out of bounds for array of dimension 3");
    CHECK_ERROR(gp_array_squeeze(a, 2, dup, &bad), GP_ERR_VALUE, "duplicate value in 'axis'");

    /* all ones squeeze to 0-d */
    static const int64_t ones[2] = {1, 1};
    gp_array_t *o = iota_i32(2, ones), *s = NULL;
    if (o && CHECK_OK(gp_array_squeeze(o, 0, NULL, &s)))
        CHECK(has_shape(s, 0, NULL));
    gp_array_release(o);
    gp_array_release(s);
    gp_array_release(a);
}

static void test_broadcast_to(void)
{
    int64_t three = 3;
    gp_array_t *a = iota_i32(1, &three), *b = NULL, *v = NULL;
    if (!a)
        return;
    static const int64_t s23[2] = {2, 3}, st[2] = {0, 4};
    if (CHECK_OK(gp_array_broadcast_to(a, 2, s23, &b))) {
        CHECK(has_shape(b, 2, s23));
        CHECK(has_strides(b, 2, st));
        static const int32_t want[6] = {0, 1, 2, 0, 1, 2};
        CHECK(values_i32(b, want, 6));
        /* read-only, and so is every view of it */
        CHECK_EQ(flags_of(b) & GP_FLAG_WRITEABLE, 0);
        CHECK_EQ(flags_of(a) & GP_FLAG_WRITEABLE, GP_FLAG_WRITEABLE);
        if (CHECK_OK(gp_array_slice(b, GP_SLICE_START, 1, 0, 0, &v)))
            CHECK_EQ(flags_of(v) & GP_FLAG_WRITEABLE, 0);
        gp_scalar_t zero = {GP_INT64, 1, 0, 0.0, 0.0};
        CHECK_ERROR(gp_array_fill(b, &zero), GP_ERR_VALUE, "assignment destination is read-only");
    }
    gp_array_release(b);
    gp_array_release(v);

    /* length-one dims stretch; to zero as well */
    static const int64_t s13[2] = {1, 3}, s43[3] = {2, 4, 3}, s0[2] = {0, 3};
    gp_array_t *c = iota_i32(2, s13), *d = NULL, *e = NULL;
    if (c && CHECK_OK(gp_array_broadcast_to(c, 3, s43, &d))) {
        static const int64_t dst[3] = {0, 0, 4};
        CHECK(has_strides(d, 3, dst));
    }
    if (c && CHECK_OK(gp_array_broadcast_to(c, 2, s0, &e)))
        CHECK(has_shape(e, 2, s0));

    static const int64_t s4[1] = {4}, s3[1] = {3}, sneg[2] = {-1, 3};
    gp_array_t *bad = a;
    CHECK_ERROR(gp_array_broadcast_to(a, 1, s4, &bad), GP_ERR_VALUE_BROADCAST,
                "operands could not be broadcast together with remapped shapes "
                "[original->remapped]: (3,)  and requested shape (4,)");
    CHECK(bad == NULL);
    CHECK_ERROR(gp_array_broadcast_to(c, 1, s3, &bad), GP_ERR_VALUE,
                "input operand has more dimensions than allowed by the axis remapping");
    CHECK_STATUS(gp_array_broadcast_to(a, 2, sneg, &bad), GP_ERR_VALUE);
    /* NumPy refuses a view whose size or byte size does not fit */
    static const int64_t huge2[2] = {(int64_t)1 << 62, (int64_t)1 << 62};
    static const int64_t huge1[1] = {(int64_t)1 << 62};
    int64_t one = 1;
    gp_array_t *a1 = iota_i32(1, &one);
    CHECK_ERROR(gp_array_broadcast_to(a1, 2, huge2, &bad), GP_ERR_VALUE,
                "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
                "possible size.");
    CHECK_STATUS(gp_array_broadcast_to(a1, 1, huge1, &bad), GP_ERR_VALUE); /* 2**64 bytes */
    CHECK(bad == NULL);
    gp_array_release(a1);
    gp_array_release(c);
    gp_array_release(d);
    gp_array_release(e);
    gp_array_release(a);
}

static void test_as_strided(void)
{
    int64_t twelve = 12;
    gp_array_t *a = iota_i32(1, &twelve); /* a buffer of 48 bytes */
    if (!a)
        return;
    static const struct {
        int32_t dtype, nd;
        int64_t shape[2], strides[2], offset;
        int fits;
        int32_t want[4];
    } T[] = {
        {-1, 1, {3}, {16}, 0, 1, {0, 4, 8}},
        {-1, 2, {2, 2}, {0, 4}, 0, 1, {0, 1, 0, 1}},
        {-1, 1, {12}, {4}, 0, 1, {0}},
        {-1, 1, {3}, {-4}, 8, 1, {2, 1, 0}},
        {-1, 1, {1}, {0}, 44, 1, {11}},
        {-1, 1, {13}, {4}, 0, 0, {0}},         /* one past the end */
        {-1, 1, {12}, {4}, 4, 0, {0}},
        {-1, 1, {1}, {0}, 45, 0, {0}},         /* the element straddles the end */
        {-1, 1, {1}, {0}, -4, 0, {0}},         /* before the start */
        {-1, 1, {3}, {-4}, 4, 0, {0}},
        {-1, 2, {2, 2}, {40, 4}, 0, 1, {0, 1, 10, 11}},
        {-1, 2, {2, 2}, {44, 4}, 0, 0, {0}},
        {-1, 1, {0}, {1000}, 48, 1, {0}},      /* nothing to reach, from inside */
        {-1, 1, {0}, {1000}, 1000, 1, {0}},    /* nothing to reach, from outside */
        {-1, 1, {0}, {4}, INT64_MAX - 64, 1, {0}},
        {-1, 1, {0}, {4}, -4, 1, {0}},
        {-1, 1, {0}, {4}, 2, 1, {0}},          /* nothing to load: aligned, as NumPy */
        {-1, 2, {0, 2}, {4, 6}, 0, 1, {0}},    /* strides of an empty view step nowhere */
        {GP_UINT8, 1, {48}, {1}, 0, 1, {0}},
        {GP_FLOAT64, 1, {6}, {8}, 0, 1, {0}},
        {GP_COMPLEX128, 1, {3}, {16}, 0, 1, {0}},
        {GP_COMPLEX128, 1, {3}, {16}, 8, 0, {0}},
        /* spans whose arithmetic would overflow int64 */
        {-1, 1, {2}, {INT64_MAX}, 0, 0, {0}},
        {-1, 1, {3}, {INT64_MAX / 2}, 0, 0, {0}},
        {-1, 1, {2}, {INT64_MIN + 1}, 0, 0, {0}},
        {-1, 2, {2, 2}, {INT64_MAX / 2 + 1, INT64_MAX / 2 + 1}, 0, 0, {0}},
        {-1, 2, {2, 2}, {-(INT64_MAX / 2) - 2, -(INT64_MAX / 2) - 2}, 0, 0, {0}},
        {-1, 1, {1}, {0}, INT64_MAX, 0, {0}},
        {-1, 1, {1}, {0}, INT64_MAX - 3, 0, {0}},
        {-1, 1, {1}, {0}, INT64_MIN, 0, {0}},
        /* an element must start at a multiple of its dtype's alignment */
        {-1, 1, {2}, {4}, 2, 0, {0}},
        {-1, 1, {2}, {6}, 0, 0, {0}},
        {GP_FLOAT64, 1, {2}, {8}, 4, 0, {0}},
        {GP_FLOAT64, 2, {2, 2}, {16, 12}, 0, 0, {0}},
        {-1, 2, {1, 2}, {3, 4}, 0, 1, {0, 1}},   /* a length-1 axis steps nowhere */
        {GP_UINT8, 1, {3}, {3}, 1, 1, {0}},
    };
    for (int k = 0; k < NELEMS(T); ++k) {
        gp_array_t *v = a;
        gp_status_t s = gp_array_as_strided(a, T[k].dtype, T[k].nd, T[k].shape, T[k].strides,
                                            T[k].offset, &v);
        int ok;
        if (T[k].fits) {
            ok = CHECK_OK(s) && CHECK(has_shape(v, T[k].nd, T[k].shape)) &&
                 CHECK(has_strides(v, T[k].nd, T[k].strides));
            int64_t n = gp_shape_size(T[k].nd, T[k].shape);
            if (ok && T[k].dtype < 0 && n <= NELEMS(T[k].want))
                ok = CHECK(values_i32(v, T[k].want, n));
        } else {
            ok = CHECK_STATUS(s, GP_ERR_VALUE) && CHECK(v == NULL);
        }
        if (!ok)
            fprintf(stderr, "    case %d\n", k);
        if (s == GP_OK)
            gp_array_release(v);
    }

    /* the bound is the buffer, not the view it starts from */
    gp_array_t *tail = NULL, *back = NULL;
    if (CHECK_OK(gp_array_slice(a, GP_SLICE_START, 8, 0, 0, &tail))) {
        static const int64_t one[1] = {1}, zero[1] = {0};
        CHECK_OK(gp_array_as_strided(tail, -1, 1, one, zero, -32, &back));
        static const int32_t want = 0;
        CHECK(back && values_i32(back, &want, 1));
        gp_array_t *bad = NULL;
        CHECK_STATUS(gp_array_as_strided(tail, -1, 1, one, zero, 16, &bad), GP_ERR_VALUE);
    }
    gp_array_release(tail);
    gp_array_release(back);

    static const int64_t sh[1] = {2}, neg[1] = {-1}, st[1] = {4};
    gp_array_t *bad = NULL;
    CHECK_STATUS(gp_array_as_strided(a, GP_NDTYPES, 1, sh, st, 0, &bad), GP_ERR_TYPE);
    CHECK_STATUS(gp_array_as_strided(a, -1, 1, neg, st, 0, &bad), GP_ERR_VALUE);
    CHECK_STATUS(gp_array_as_strided(a, -1, GP_MAXDIM + 1, sh, st, 0, &bad), GP_ERR_VALUE);
    /* every element may be the same one, but the byte size must still fit */
    static const int64_t huge[2] = {(int64_t)1 << 62, 4}, zero2[2] = {0, 0};
    CHECK_ERROR(gp_array_as_strided(a, GP_COMPLEX128, 1, huge, zero2, 0, &bad), GP_ERR_VALUE,
                "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
                "possible size.");
    CHECK_STATUS(gp_array_as_strided(a, -1, 2, huge, zero2, 0, &bad), GP_ERR_VALUE);
    CHECK(bad == NULL);
    static const int64_t many[1] = {(int64_t)1 << 40};
    gp_array_t *same = NULL;
    if (CHECK_OK(gp_array_as_strided(a, -1, 1, many, zero2, 4, &same))) {
        gp_array_info_t info;
        CHECK_OK(gp_array_get_info(same, &info));
        CHECK_EQ(info.nbytes, (int64_t)1 << 42);
    }
    gp_array_release(same);
    gp_array_release(a);
}

static void test_reshape_views(void)
{
    static const int64_t s34[2] = {3, 4};
    gp_array_t *a = iota_i32(2, s34);
    if (!a)
        return;
    static const int32_t iota12[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    static const struct {
        int32_t nd;
        int64_t ask[4], shape[4], strides[4];
    } T[] = {
        {1, {12}, {12}, {4}},
        {1, {-1}, {12}, {4}},
        {2, {2, -1}, {2, 6}, {24, 4}},
        {2, {-1, 2}, {6, 2}, {8, 4}},
        {4, {1, 3, 1, 4}, {1, 3, 1, 4}, {48, 16, 16, 4}},
        {3, {3, 4, 1}, {3, 4, 1}, {16, 4, 4}},
        {2, {3, 4}, {3, 4}, {16, 4}},
    };
    for (int k = 0; k < NELEMS(T); ++k) {
        gp_array_t *r = NULL;
        int ok = CHECK_OK(gp_array_reshape(a, T[k].nd, T[k].ask, GP_ORDER_C, &r)) &&
                 CHECK(has_shape(r, T[k].nd, T[k].shape)) &&
                 CHECK(has_strides(r, T[k].nd, T[k].strides)) &&
                 CHECK_EQ(data_of(r), data_of(a)) &&                 /* a view */
                 CHECK_EQ(flags_of(r) & GP_FLAG_OWNDATA, 0) &&
                 CHECK(values_i32(r, iota12, 12));
        if (!ok)
            fprintf(stderr, "    case %d\n", k);
        gp_array_release(r);
    }

    /* the transpose, read in F order, is the original memory */
    gp_array_t *t = NULL, *r = NULL, *r3 = NULL;
    if (CHECK_OK(gp_array_transpose(a, 0, NULL, &t))) {
        int64_t n12 = 12;
        if (CHECK_OK(gp_array_reshape(t, 1, &n12, GP_ORDER_F, &r))) {
            CHECK_EQ(data_of(r), data_of(a));
            CHECK(values_i32(r, iota12, 12));
        }
        static const int64_t s223[3] = {2, 2, 3};
        if (CHECK_OK(gp_array_reshape(t, 3, s223, GP_ORDER_F, &r3))) {
            int32_t want[12], n = 0;
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 2; ++j)
                    for (int k = 0; k < 3; ++k)
                        want[n++] = i + 2 * j + 4 * k;
            CHECK_EQ(data_of(r3), data_of(a));
            CHECK(values_i32(r3, want, 12));
        }
        /* order A reads an F-contiguous array in F order: again a view */
        gp_array_t *ra = NULL;
        if (CHECK_OK(gp_array_reshape(t, 1, &n12, GP_ORDER_A, &ra)))
            CHECK_EQ(data_of(ra), data_of(a));
        gp_array_release(ra);
    }
    gp_array_release(t);
    gp_array_release(r);
    gp_array_release(r3);

    /* every other row: splitting rows is a view, merging them is not */
    gp_array_t *h = NULL, *hv = NULL;
    if (CHECK_OK(gp_array_slice(a, GP_SLICE_STEP, 0, 0, 2, &h))) {
        static const int64_t s222[3] = {2, 2, 2}, st[3] = {32, 8, 4};
        if (CHECK_OK(gp_array_reshape(h, 3, s222, GP_ORDER_C, &hv))) {
            CHECK(has_strides(hv, 3, st));
            CHECK_EQ(data_of(hv), data_of(a));
            static const int32_t want[8] = {0, 1, 2, 3, 8, 9, 10, 11};
            CHECK(values_i32(hv, want, 8));
        }
    }
    gp_array_release(h);
    gp_array_release(hv);

    /* 0-d and zero-size arrays */
    gp_index_item_t i12[2] = {{GP_INDEX_INT, 0, 1, 0, 0}, {GP_INDEX_INT, 0, 2, 0, 0}};
    gp_array_t *s = NULL, *s11 = NULL, *s0 = NULL;
    if (CHECK_OK(gp_array_index(a, 2, i12, &s))) {
        static const int64_t one1[2] = {1, 1};
        static const int32_t six = 6;
        if (CHECK_OK(gp_array_reshape(s, 2, one1, GP_ORDER_C, &s11)))
            CHECK(values_i32(s11, &six, 1));
        if (CHECK_OK(gp_array_reshape(s11, 0, NULL, GP_ORDER_C, &s0)))
            CHECK(has_shape(s0, 0, NULL) && values_i32(s0, &six, 1));
    }
    gp_array_release(s);
    gp_array_release(s11);
    gp_array_release(s0);
    static const int64_t s03[2] = {0, 3}, m13[2] = {-1, 3}, s305[3] = {3, 0, 5};
    static const int64_t m10[2] = {-1, 0};
    gp_array_t *z = iota_i32(2, s03), *z1 = NULL, *z2 = NULL, *bad = a;
    if (z) {
        if (CHECK_OK(gp_array_reshape(z, 2, m13, GP_ORDER_C, &z1)))
            CHECK(has_shape(z1, 2, s03));
        if (CHECK_OK(gp_array_reshape(z, 3, s305, GP_ORDER_C, &z2)))
            CHECK(has_shape(z2, 3, s305));
        CHECK_ERROR(gp_array_reshape(z, 2, m10, GP_ORDER_C, &bad), GP_ERR_VALUE_RESHAPE,
                    "cannot reshape array of size 0 into shape (-1,0)");
        CHECK(bad == NULL);
    }
    gp_array_release(z);
    gp_array_release(z1);
    gp_array_release(z2);
    gp_array_release(a);

    /* NumPy's errors */
    static const int64_t s23[2] = {2, 3}, four[1] = {4}, m1m1[2] = {-1, -1};
    static const int64_t five_m1[2] = {5, -1}, m2[2] = {-2, -3};
    gp_array_t *b = iota_i32(2, s23);
    if (!b)
        return;
    bad = b;
    CHECK_ERROR(gp_array_reshape(b, 1, four, GP_ORDER_C, &bad), GP_ERR_VALUE_RESHAPE,
                "cannot reshape array of size 6 into shape (4,)");
    CHECK(bad == NULL);
    CHECK_EQ(GP_PRIMARY(GP_ERR_VALUE_RESHAPE), GP_ERR_VALUE);
    CHECK_ERROR(gp_array_reshape(b, 2, five_m1, GP_ORDER_C, &bad), GP_ERR_VALUE_RESHAPE,
                "cannot reshape array of size 6 into shape (5,-1)");
    CHECK_ERROR(gp_array_reshape(b, 2, m1m1, GP_ORDER_C, &bad), GP_ERR_VALUE,
                "can only specify one unknown dimension");
    CHECK_STATUS(gp_array_reshape(b, 2, m2, GP_ORDER_C, &bad), GP_ERR_VALUE);
    CHECK_STATUS(gp_array_reshape(b, 1, four, GP_ORDER_K, &bad), GP_ERR_VALUE);
    CHECK_STATUS(gp_array_reshape(b, GP_MAXDIM + 1, four, GP_ORDER_C, &bad), GP_ERR_VALUE);
    gp_array_release(b);
}

static void test_host_transfers(void)
{
    /* C order */
    const int16_t src[6] = {10, 11, 12, 20, 21, 22}; /* [[10,11,12],[20,21,22]] */
    static const int64_t s23[2] = {2, 3}, cst[2] = {6, 2}, fst[2] = {2, 4};
    int16_t back[6];
    gp_array_t *c = NULL, *f = NULL;
    if (CHECK_OK(gp_array_from_host(src, sizeof src, GP_INT16, 2, s23, NULL, &c))) {
        CHECK(has_strides(c, 2, cst));
        CHECK_EQ(flags_of(c) & 3, GP_FLAG_C_CONTIGUOUS);
        CHECK(data_of(c) != (uint64_t)(uintptr_t)src); /* a copy */
        memset(back, 0, sizeof back);
        CHECK_OK(gp_array_to_host(c, back, sizeof back, GP_ORDER_C));
        CHECK(memcmp(back, src, sizeof src) == 0);
    }
    /* F order: the same logical array, stored column by column */
    const int16_t fsrc[6] = {10, 20, 11, 21, 12, 22};
    if (CHECK_OK(gp_array_from_host(fsrc, sizeof fsrc, GP_INT16, 2, s23, fst, &f))) {
        CHECK(has_strides(f, 2, fst)); /* the layout is kept */
        CHECK_EQ(flags_of(f) & 3, GP_FLAG_F_CONTIGUOUS);
        int16_t logical[6];
        CHECK_EQ(gather(f, logical), 6);
        CHECK(memcmp(logical, src, sizeof src) == 0);
        memset(back, 0, sizeof back);
        CHECK_OK(gp_array_to_host(f, back, sizeof back, GP_ORDER_F));
        CHECK(memcmp(back, fsrc, sizeof fsrc) == 0);
    }
    gp_array_release(c);
    gp_array_release(f);

    /* any axis order: axis 1 outermost, then 2, then 0 */
    int32_t p[24];
    for (int k = 0; k < 24; ++k)
        p[k] = k;
    static const int64_t s234[3] = {2, 3, 4}, pst[3] = {4, 32, 8};
    gp_array_t *pa = NULL;
    if (CHECK_OK(gp_array_from_host(p, sizeof p, GP_INT32, 3, s234, pst, &pa))) {
        CHECK(has_strides(pa, 3, pst));
        int32_t want[24], n = 0;
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 3; ++j)
                for (int k = 0; k < 4; ++k)
                    want[n++] = i + 2 * k + 8 * j;
        CHECK(values_i32(pa, want, 24));
    }
    gp_array_release(pa);

    /* a length-one dimension's stride is free */
    static const int64_t s213[3] = {2, 1, 3}, ost[3] = {12, 999, 4};
    gp_array_t *o = NULL;
    CHECK_OK(gp_array_from_host(p, 24, GP_INT32, 3, s213, ost, &o));
    gp_array_release(o);

    /* refused layouts and sizes */
    static const struct { int64_t st[2]; } holes[] = {
        {{16, 4}}, {{12, 8}}, {{4, 4}}, {{-12, 4}}, {{12, -4}}, {{0, 4}},
    };
    for (int k = 0; k < NELEMS(holes); ++k) {
        gp_array_t *bad = (gp_array_t *)p;
        if (!CHECK_ERROR(gp_array_from_host(p, 24, GP_INT32, 2, s23, holes[k].st, &bad),
                         GP_ERR_VALUE, "host memory is not a dense block"))
            fprintf(stderr, "    case %d\n", k);
        CHECK(bad == NULL);
    }
    gp_array_t *bad = NULL;
    CHECK_ERROR(gp_array_from_host(p, 10, GP_INT32, 2, s23, NULL, &bad), GP_ERR_VALUE,
                "host buffer of 10 bytes does not hold the array");
    CHECK_STATUS(gp_array_from_host(p, 24, GP_NDTYPES, 2, s23, NULL, &bad), GP_ERR_TYPE);
    static const int64_t neg[2] = {-2, -3};
    CHECK_STATUS(gp_array_from_host(p, 24, GP_INT32, 2, neg, NULL, &bad), GP_ERR_VALUE);
    CHECK_STATUS(gp_array_from_host(p, 24, GP_INT32, GP_MAXDIM + 1, s23, NULL, &bad),
             GP_ERR_VALUE);

    /* 0-d and zero-size */
    double x = -2.5, y = 0;
    gp_array_t *d0 = NULL, *e = NULL;
    if (CHECK_OK(gp_array_from_host(&x, 8, GP_FLOAT64, 0, NULL, NULL, &d0))) {
        CHECK_OK(gp_array_to_host(d0, &y, 8, GP_ORDER_F));
        CHECK(y == x);
    }
    static const int64_t s03[2] = {0, 3};
    if (CHECK_OK(gp_array_from_host(NULL, 0, GP_INT32, 2, s03, NULL, &e)))
        CHECK_OK(gp_array_to_host(e, NULL, 0, GP_ORDER_C));
    gp_array_release(e);

    /* to_host's own checks */
    if (d0) {
        CHECK_ERROR(gp_array_to_host(d0, &y, 4, GP_ORDER_C), GP_ERR_VALUE,
                    "host buffer of 4 bytes for an array of 8 bytes");
        CHECK_ERROR(gp_array_to_host(d0, &y, 8, GP_ORDER_A), GP_ERR_VALUE,
                    "order must be 'C' or 'F'");
    }
    gp_array_release(d0);

    /* a contiguous view goes out straight from its offset */
    static const int64_t s34[2] = {3, 4};
    gp_array_t *a = iota_i32(2, s34), *tail = NULL;
    if (a && CHECK_OK(gp_array_slice(a, GP_SLICE_START, 1, 0, 0, &tail))) {
        int32_t got[8];
        CHECK_OK(gp_array_to_host(tail, got, sizeof got, GP_ORDER_C));
        for (int k = 0; k < 8; ++k)
            CHECK_EQ(got[k], 4 + k);
    }
    gp_array_release(tail);
    gp_array_release(a);
}

static void test_sharing_and_lifetime(void)
{
    static const int64_t s34[2] = {3, 4};
    gp_array_t *a = iota_i32(2, s34), *b = iota_i32(2, s34);
    gp_array_t *top = NULL, *rest = NULL, *t = NULL, *none = NULL;
    if (!a || !b)
        goto done;
    int32_t share = -1;
    if (!CHECK_OK(gp_array_slice(a, GP_SLICE_STOP, 0, 1, 0, &top)) ||
        !CHECK_OK(gp_array_slice(a, GP_SLICE_START, 1, 0, 0, &rest)) ||
        !CHECK_OK(gp_array_transpose(a, 0, NULL, &t)) ||
        !CHECK_OK(gp_array_slice(a, GP_SLICE_START, 3, 0, 0, &none)))
        goto done;
    static const struct { int x, y, want; } T[] = {
        {0, 1, 1}, {0, 2, 1}, {0, 3, 1}, {1, 2, 0}, {1, 3, 1}, {2, 3, 1},
        {0, 4, 0}, {4, 0, 0}, {0, 5, 0},
    };
    gp_array_t *arr[6] = {a, top, rest, t, b, none};
    for (int k = 0; k < NELEMS(T); ++k) {
        share = -1;
        CHECK_OK(gp_array_may_share_memory(arr[T[k].x], arr[T[k].y], &share));
        if (!CHECK_EQ(share, T[k].want))
            fprintf(stderr, "    case %d\n", k);
    }

    /* a view keeps the buffer alive after its base is released */
    gp_array_release(a);
    a = NULL;
    static const int32_t want[8] = {4, 5, 6, 7, 8, 9, 10, 11};
    CHECK(values_i32(rest, want, 8));

    /* a read-only array makes read-only views */
    gp_array_t *v = NULL;
    CHECK_OK(gp_array_set_readonly(rest));
    CHECK_EQ(flags_of(rest) & GP_FLAG_WRITEABLE, 0);
    if (CHECK_OK(gp_array_transpose(rest, 0, NULL, &v)))
        CHECK_EQ(flags_of(v) & GP_FLAG_WRITEABLE, 0);
    CHECK_EQ(flags_of(t) & GP_FLAG_WRITEABLE, GP_FLAG_WRITEABLE); /* others keep theirs */
    gp_array_release(v);
done:
    gp_array_release(a);
    gp_array_release(b);
    gp_array_release(top);
    gp_array_release(rest);
    gp_array_release(t);
    gp_array_release(none);
}

/* NumPy's limit of 64 dimensions holds for every way of making a view. */
static void test_max_dims(void)
{
    int64_t ones[GP_MAXDIM + 1];
    for (int k = 0; k <= GP_MAXDIM; ++k)
        ones[k] = 1;
    gp_array_t *a = NULL, *t = NULL, *sq = NULL, *r = NULL, *v = NULL, *bad = NULL;
    if (!CHECK_OK(gp_array_empty(GP_INT16, GP_MAXDIM, ones, GP_ORDER_C, &a)))
        return;
    CHECK_OK(gp_array_transpose(a, 0, NULL, &t));
    if (CHECK_OK(gp_array_squeeze(a, 0, NULL, &sq)))
        CHECK(has_shape(sq, 0, NULL));
    if (sq && CHECK_OK(gp_array_reshape(sq, GP_MAXDIM, ones, GP_ORDER_F, &r)))
        CHECK(has_shape(r, GP_MAXDIM, ones));
    CHECK_STATUS(gp_array_broadcast_to(a, GP_MAXDIM + 1, ones, &bad), GP_ERR_VALUE);
    CHECK_STATUS(gp_array_reshape(a, GP_MAXDIM + 1, ones, GP_ORDER_C, &bad), GP_ERR_VALUE);

    /* None items: up to 64 dimensions, then IndexError */
    gp_index_item_t items[GP_MAXDIM + 1];
    memset(items, 0, sizeof items);
    for (int k = 0; k <= GP_MAXDIM; ++k)
        items[k].kind = GP_INDEX_NEWAXIS;
    items[0].kind = GP_INDEX_INT; /* drops one of a's dims */
    if (CHECK_OK(gp_array_index(a, 2, items, &v)))
        CHECK(has_shape(v, GP_MAXDIM, ones));
    CHECK_ERROR(gp_array_index(a, 1, items + 1, &bad), GP_ERR_INDEX,
                "number of dimensions must be within [0, 64], but the index gives 65");
    CHECK(bad == NULL);
    int32_t nd = GP_MAXDIM;
    int64_t out[GP_MAXDIM];
    const int64_t *sp[1] = {ones};
    CHECK_OK(gp_broadcast_shapes(1, &nd, sp, &nd, out));
    gp_array_release(a);
    gp_array_release(t);
    gp_array_release(sq);
    gp_array_release(r);
    gp_array_release(v);
}

int main(void)
{
    if (!gp_test_init())
        return check_summary("test_core");
    RUN(test_dtype_info);
    RUN(test_promotion_table);
    RUN(test_result_type_examples);
    RUN(test_result_type_weak_table);
    RUN(test_promotion_properties);
    RUN(test_can_cast_safe_table);
    RUN(test_can_cast_rules);
    RUN(test_scalar_check_fits);
    RUN(test_contiguity);
    RUN(test_shape_helpers);
    RUN(test_broadcast_shapes);
    RUN(test_best_axis_order);
    RUN(test_iter_collapse);
    RUN(test_iter_collapse_random);
    RUN(test_array_empty);
    RUN(test_empty_like);
    RUN(test_slices);
    RUN(test_index);
    RUN(test_transpose);
    RUN(test_squeeze);
    RUN(test_broadcast_to);
    RUN(test_as_strided);
    RUN(test_reshape_views);
    RUN(test_host_transfers);
    RUN(test_sharing_and_lifetime);
    RUN(test_max_dims);
    return check_summary("test_core");
}
