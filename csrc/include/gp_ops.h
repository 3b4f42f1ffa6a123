/*
 * gp_ops.h - operations: the ufunc table (elementwise ops, their loops and
 * type resolution), reductions, accumulations and generators.
 *
 * Every operation does the whole job in one call: promotion, broadcasting,
 * allocation of results, kernel lookup (generating and compiling the kernel
 * on first use) and launch on the current stream.
 */
#ifndef GP_OPS_H
#define GP_OPS_H

#include "gp_array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The identity of a ufunc, the start value of its reductions. */
enum gp_identity {
    GP_IDENTITY_NONE = 0,
    GP_IDENTITY_ZERO = 1,
    GP_IDENTITY_ONE = 2,
    GP_IDENTITY_MINUS_ONE = 3, /* all bits set, for bitwise_and */
    GP_IDENTITY_FALSE = 4,
    GP_IDENTITY_TRUE = 5,
    GP_IDENTITY_MINUS_INF = 6 /* logaddexp, logaddexp2 */
};

/* Static facts of one ufunc of the op table. */
typedef struct gp_ufunc_info {
    const char *name;   /* NumPy's name ("add") */
    int32_t nin;
    int32_t nout;
    int32_t ntypes;     /* number of loops */
    int32_t identity;   /* enum gp_identity */
    int32_t reorderable;/* 1 if reductions may combine in any order */
} gp_ufunc_info_t;

/* An operand of an operation: an array, or (when `array` is NULL) a scalar. */
typedef struct gp_operand {
    gp_array_t *array;
    gp_scalar_t scalar;
} gp_operand_t;

/* Sentinel for "no axis" (axis=None) where one axis is taken. */
#define GP_AXIS_NONE (-1000000)

/* Number of ufuncs in the op table. */
GP_API gp_status_t gp_ufunc_count(int32_t *out);

/* The id of the ufunc called `name`; GP_ERR_NOT_FOUND if there is none. */
GP_API gp_status_t gp_ufunc_find(const char *name, int32_t *out);

/* Facts of ufunc `id` (0 <= id < count). Strings are static. */
GP_API gp_status_t gp_ufunc_get_info(int32_t id, gp_ufunc_info_t *out);

/* The dtypes of loop `loop` of ufunc `id` into dtypes[0 .. nin+nout-1]. */
GP_API gp_status_t gp_ufunc_get_loop(int32_t id, int32_t loop, int32_t *dtypes);

/* Resolves the loop dtypes of ufunc `id` for operands of `dtypes` (nin+nout
 * entries, -1 for an output not given) and `weak` flags (nin entries, may be
 * NULL), as numpy's ufunc.resolve_dtypes. `signature` (nin+nout entries, -1
 * for free; may be NULL) fixes loop dtypes. Inputs must cast to the loop
 * under `casting`, the loop's outputs to given outputs likewise. Writes
 * nin+nout dtypes into loop_dtypes. GP_ERR_TYPE_NO_LOOP or
 * GP_ERR_TYPE_CASTING with NumPy's message on failure. */
GP_API gp_status_t gp_ufunc_resolve(int32_t id, const int32_t *dtypes, const int32_t *weak,
                                    const int32_t *signature, int32_t casting,
                                    int32_t *loop_dtypes);

/* Calls ufunc `id` on `in` (nin operands). `out` has nout entries: a NULL
 * entry asks for a new array, which the caller then owns; a given array is
 * written in place (it must have the broadcast shape). `where` (may be NULL)
 * is a boolean array broadcast with the inputs: elements where it is false
 * are left untouched. `signature` as in gp_ufunc_resolve. `order` (C, F, A,
 * K) lays out new outputs. On error new outputs are released and set to NULL. */
GP_API gp_status_t gp_ufunc_call(int32_t id, const gp_operand_t *in, gp_array_t **out,
                                 const gp_array_t *where, const int32_t *signature,
                                 int32_t casting, int32_t order);

/* Shortcuts of gp_ufunc_call for Python's operators, which need neither
 * struct building nor options: a new output (the caller owns *out), casting
 * same_kind, order K. _aa takes two arrays; _as an array and a scalar given
 * by its fields (gp_scalar_t's), the scalar first if `scalar_first`; _a one
 * array. */
GP_API gp_status_t gp_ufunc_call_aa(int32_t id, gp_array_t *a, gp_array_t *b, gp_array_t **out);
GP_API gp_status_t gp_ufunc_call_as(int32_t id, gp_array_t *a, int32_t dtype, int32_t weak,
                                    int64_t i, double re, double im, int32_t scalar_first,
                                    gp_array_t **out);
GP_API gp_status_t gp_ufunc_call_a(int32_t id, gp_array_t *a, gp_array_t **out);

/* ufunc.reduce of binary ufunc `id` over `naxes` axes of `a` (`axes` NULL:
 * every axis; naxes 0 with non-NULL axes: none). `dtype` -1 picks NumPy's
 * default (add and multiply raise small integers to the platform integer).
 * `initial` (may be NULL) starts every reduction; without it an empty
 * reduction of a ufunc with no identity is a GP_ERR_VALUE. `*out` NULL gives
 * a new array, else the given array receives the result. */
GP_API gp_status_t gp_ufunc_reduce(int32_t id, const gp_array_t *a, int32_t naxes,
                                   const int32_t *axes, int32_t keepdims, int32_t dtype,
                                   const gp_scalar_t *initial, gp_array_t **out);

/* ufunc.accumulate of binary ufunc `id` along `axis` of `a`, in `dtype`
 * (-1: NumPy's default, as for reduce). `*out` as in gp_ufunc_reduce. */
GP_API gp_status_t gp_ufunc_accumulate(int32_t id, const gp_array_t *a, int32_t axis,
                                       int32_t dtype, gp_array_t **out);

/* numpy.mean over `axes` (as gp_ufunc_reduce); `dtype` -1: float64 for
 * integer and bool input, else the input's dtype (float16 accumulates in
 * float32). */
GP_API gp_status_t gp_array_mean(const gp_array_t *a, int32_t naxes, const int32_t *axes,
                                 int32_t keepdims, int32_t dtype, gp_array_t **out);

/* numpy.argmax (`maximum` 1) or argmin (0) along `axis` (GP_AXIS_NONE:
 * the flattened array). The first of equal extremes wins; NaN is extreme.
 * GP_ERR_VALUE for an empty array. Result dtype int64. */
GP_API gp_status_t gp_array_argextreme(const gp_array_t *a, int32_t maximum, int32_t axis,
                                       int32_t keepdims, gp_array_t **out);

/* numpy.matmul: the matrix products of the last two dims of `a` and `b` (a
 * 1-d operand is a row, resp. column, vector whose dim is dropped from the
 * result), broadcast over the leading dims, in the dtype of NumPy's loop for
 * the two dtypes. `*out` NULL gives a new C-contiguous array; a given array
 * receives the result (casting same_kind; it may overlap the inputs).
 * GP_ERR_VALUE with NumPy's message for mismatched dims. */
GP_API gp_status_t gp_matmul(const gp_array_t *a, const gp_array_t *b, gp_array_t **out);

/* A new 1-d array of `n` elements of `dtype` (not bool) as numpy.arange
 * fills it: elements 0 and 1 are `first` and `second` (cast to the dtype),
 * element i >= 2 is first + i * (second - first) computed in the dtype. */
GP_API gp_status_t gp_array_arange(const gp_scalar_t *first, const gp_scalar_t *second,
                                   int64_t n, int32_t dtype, gp_array_t **out);

#ifdef __cplusplus
}
#endif
#endif /* GP_OPS_H */
