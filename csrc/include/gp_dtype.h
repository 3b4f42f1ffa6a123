/*
 * gp_dtype.h - the numeric dtypes, NumPy 2 promotion (NEP 50) and casting
 * rules, and scalars.
 */
#ifndef GP_DTYPE_H
#define GP_DTYPE_H

#include "gp_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The dtypes, in NumPy's type order (which is also the order of ufunc loops).
 * bfloat16 (ml_dtypes' dtype, a user dtype to NumPy) sits after float16:
 * int8 and uint8 promote to it, and float16 stays the first float loop that
 * small integers reach, as in NumPy with ml_dtypes loaded. */
enum gp_dtype {
    GP_BOOL = 0,
    GP_INT8 = 1,
    GP_UINT8 = 2,
    GP_INT16 = 3,
    GP_UINT16 = 4,
    GP_INT32 = 5,
    GP_UINT32 = 6,
    GP_INT64 = 7,
    GP_UINT64 = 8,
    GP_FLOAT16 = 9,
    GP_BFLOAT16 = 10,
    GP_FLOAT32 = 11,
    GP_FLOAT64 = 12,
    GP_COMPLEX64 = 13,
    GP_COMPLEX128 = 14,
    GP_NDTYPES = 15
};

/* Kinds, ordered as NEP 50 orders the Python scalar kinds. */
enum gp_kind {
    GP_KIND_BOOL = 0,
    GP_KIND_INT = 1,     /* signed integer */
    GP_KIND_UINT = 2,    /* unsigned integer */
    GP_KIND_FLOAT = 3,
    GP_KIND_COMPLEX = 4
};

/* Casting rules, as numpy's `casting=` argument. */
enum gp_casting {
    GP_CASTING_NO = 0,
    GP_CASTING_EQUIV = 1,
    GP_CASTING_SAFE = 2,
    GP_CASTING_SAME_KIND = 3,
    GP_CASTING_UNSAFE = 4
};

/* A scalar operand. A *weak* scalar is a Python bool, int, float or
 * complex: under NEP 50 it takes the dtype of the arrays it meets. Its
 * `dtype` is then the dtype Python's value would have alone (GP_BOOL,
 * GP_INT64, GP_UINT64 for ints >= 2**63, GP_FLOAT64, GP_COMPLEX128). A
 * strong scalar (a NumPy scalar) keeps its dtype. The value is in `i` for
 * bool and integer dtypes (uint64 as its bit pattern), `re` for floats, `re`
 * and `im` for complex. */
typedef struct gp_scalar {
    int32_t dtype;
    int32_t weak;
    int64_t i;
    double re;
    double im;
} gp_scalar_t;

/* Static facts of one dtype. */
typedef struct gp_dtype_info {
    int32_t dtype;
    int32_t kind;       /* enum gp_kind */
    int32_t itemsize;   /* bytes */
    int32_t alignment;  /* bytes */
    char typechar;      /* NumPy's character code: '?', 'b', 'B', ..., 'D' ('E' for
                         * bfloat16, as ml_dtypes registers it) */
    const char *name;   /* NumPy's name: "bool", "int8", ..., "complex128" */
} gp_dtype_info_t;

/* Facts of `dtype` into *out. GP_ERR_TYPE for an unknown dtype. */
GP_API gp_status_t gp_dtype_get_info(int32_t dtype, gp_dtype_info_t *out);

/* The dtype whose NumPy character code is `typechar` ('l'/'q' give int64,
 * 'L'/'Q' uint64). GP_ERR_TYPE when there is none. */
GP_API gp_status_t gp_dtype_from_char(char typechar, int32_t *out);

/* NumPy 2 result_type of `n` operands: `dtypes[k]` is the dtype of operand k
 * and `weak[k]` (may be NULL: all strong) says whether it is a weak Python
 * scalar. n >= 1. GP_ERR_TYPE if n < 1 or a dtype is unknown. */
GP_API gp_status_t gp_dtype_result_type(int32_t n, const int32_t *dtypes,
                                        const int32_t *weak, int32_t *out);

/* Whether a value of `from` may be cast to `to` under `casting`
 * (numpy.can_cast for dtypes). *out is 1 or 0. */
GP_API gp_status_t gp_dtype_can_cast(int32_t from, int32_t to, int32_t casting,
                                     int32_t *out);

/* Checks that the weak Python integer `value` (in a gp_scalar_t, dtype
 * GP_INT64 or GP_UINT64) fits integer dtype `dtype`; GP_ERR_OVERFLOW with
 * NumPy's message ("Python integer 300 out of bounds for uint8") if not.
 * GP_OK for non-integer dtypes. */
GP_API gp_status_t gp_scalar_check_fits(const gp_scalar_t *value, int32_t dtype);

#ifdef __cplusplus
}
#endif
#endif /* GP_DTYPE_H */
