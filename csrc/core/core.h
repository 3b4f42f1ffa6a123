/*
 * core.h - internal declarations of the core layer: errors, the dtype table,
 * shapes, strides, iteration plans and text; finding libraries is dl.h.
 * Nothing here touches a device. Not API.
 */
#ifndef GP_CORE_H
#define GP_CORE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpunp.h"

/* ---- errors (error.c) -------------------------------------------------- */

/* Records `code` and a printf-style message as this thread's last error and
 * returns `code`. Every failure of the engine goes through here. */
gp_status_t gp_set_error(gp_status_t code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Clears this thread's last error (called at the start of API functions
 * whose callers read gp_errmsg only on failure; kept cheap). */
void gp_clear_error(void);

/* The magic number a destroyed handle is left with (misuse detection). */
#define GP_DEAD_MAGIC 0xdeadbeefu

#define GP_TRY(expr)                       \
    do {                                   \
        gp_status_t gp_try_s_ = (expr);    \
        if (gp_try_s_ != GP_OK)            \
            return gp_try_s_;              \
    } while (0)

/* ---- dtypes (dtype.c) ------------------------------------------------- */

/* Static facts the code generator needs beside gp_dtype_info_t. */
typedef struct gp_dtype_desc {
    int32_t kind;
    int32_t itemsize;
    int32_t alignment;
    char typechar;
    const char *name;    /* "float32" */
    const char *suffix;  /* in generated code: "f32" */
    const char *storage; /* storage C type in generated code: "gp_f32" */
    int32_t compute;     /* dtype whose storage type computes values of this
                            one (float16 computes as float32) */
} gp_dtype_desc_t;

extern const gp_dtype_desc_t gp_dtypes[GP_NDTYPES];

static inline bool gp_dtype_valid(int32_t dt) { return dt >= 0 && dt < GP_NDTYPES; }
static inline int32_t gp_dtype_kind(int32_t dt) { return gp_dtypes[dt].kind; }
static inline int32_t gp_dtype_size(int32_t dt) { return gp_dtypes[dt].itemsize; }
static inline bool gp_dtype_is_int(int32_t dt)
{
    return gp_dtypes[dt].kind == GP_KIND_INT || gp_dtypes[dt].kind == GP_KIND_UINT;
}

/* can_cast without argument checks. */
bool gp_can_cast(int32_t from, int32_t to, int32_t casting);

/* Promotion of two strong dtypes (numpy.promote_types). */
int32_t gp_promote(int32_t a, int32_t b);

/* The dtype a weak scalar of dtype `weak_dt` takes next to the strong dtype
 * `strong` (NEP 50). */
int32_t gp_promote_weak(int32_t strong, int32_t weak_dt);

/* Converts scalar `v` to dtype `dt` (unsafe cast semantics of the engine,
 * identical to the kernels') and writes its storage bytes into `dst`
 * (gp_dtype_size(dt) bytes). Float16 values are rounded to half first. */
void gp_scalar_to_storage(const gp_scalar_t *v, int32_t dt, void *dst);

/* Converts scalar `v` to dtype `dt` and writes the value in the *compute*
 * type of `dt` (float16 as float32) into `dst`. Returns the bytes written. */
int32_t gp_scalar_to_compute(const gp_scalar_t *v, int32_t dt, void *dst);

/* Reads one element of dtype `dt` from storage bytes into a scalar. */
void gp_scalar_from_storage(const void *src, int32_t dt, gp_scalar_t *out);

/* ---- shapes (shape.c) ------------------------------------------------- */

/* Number of elements; -1 if the product overflows int64. */
int64_t gp_shape_size(int32_t ndim, const int64_t *shape);

/* NumPy's bound on an array: the product of its nonzero dimensions times
 * `itemsize` fits int64 (a zero dimension makes the array empty, but does
 * not excuse the others: NumPy refuses (0, 2**62, 4) too). The byte size,
 * 0 for an empty array, into *nbytes. */
bool gp_shape_fits(int32_t ndim, const int64_t *shape, int64_t itemsize, int64_t *nbytes);

/* C-contiguous (order 'C') or F-contiguous strides for an itemsize. */
void gp_strides_contiguous(int32_t ndim, const int64_t *shape, int64_t itemsize, int32_t order,
                           int64_t *strides);

bool gp_is_c_contiguous(int32_t ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize);
bool gp_is_f_contiguous(int32_t ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize);

/* Writes "(2,3)" (as NumPy's messages print shapes) into buf. */
void gp_shape_format(int32_t ndim, const int64_t *shape, char *buf, size_t n);

/* Normalises `axis` against ndim; GP_ERR_AXIS with NumPy's message. */
gp_status_t gp_normalize_axis(int32_t axis, int32_t ndim, int32_t *out);

/* Normalises a list of axes into a mask (bit per axis is not enough for 64
 * dims, so a bool array of ndim entries); duplicate axes are a GP_ERR_VALUE
 * ("duplicate value in 'axis'"). NULL axes selects every axis. */
gp_status_t gp_axes_to_mask(int32_t naxes, const int32_t *axes, int32_t ndim, bool *mask);

/* The order of axes (outermost first) in which memory described by the `n`
 * stride lists is best traversed (NumPy's order K): perm[0] is the axis
 * with the largest strides. Ambiguous axes keep C order. */
void gp_best_axis_order(int32_t ndim, int32_t n, const int64_t *const *strides, int32_t *perm);

/* ---- iteration plans (shape.c) ---------------------------------------- */

#define GP_MAX_OPERANDS 16

/* The loop nest of an elementwise operation over `nop` operands: a common
 * shape and each operand's byte strides (0 where broadcast). Dimension
 * ndim-1 is the innermost. */
typedef struct gp_iter {
    int32_t ndim;
    int32_t nop;
    int64_t shape[GP_MAXDIM];
    int64_t strides[GP_MAX_OPERANDS][GP_MAXDIM];
} gp_iter_t;

/* Sets up `it` for operands with the given strides over `shape`: operands
 * with fewer dimensions are broadcast (leading dims), size-1 dims get stride
 * 0. `strides[k]` NULL marks a scalar operand (stride 0 everywhere). */
void gp_iter_init(gp_iter_t *it, int32_t ndim, const int64_t *shape, int32_t nop,
                  const int32_t *op_ndim, const int64_t *const *op_shape,
                  const int64_t *const *strides);

/* Reorders dimensions so operand `ref` is traversed in memory order, drops
 * dimensions of length 1 and merges dimensions that every operand steps
 * through contiguously. A zero-size shape collapses to one dimension of 0. */
void gp_iter_collapse(gp_iter_t *it, int32_t ref);

/* ---- text and hashing (text.c) ---------------------------------------- */

/* A growable string. On allocation failure `failed` is set and further
 * appends are ignored; check it once at the end. */
typedef struct gp_str {
    char *data;
    size_t len;
    size_t cap;
    bool failed;
} gp_str_t;

void gp_str_init(gp_str_t *s);
void gp_str_free(gp_str_t *s);
void gp_str_puts(gp_str_t *s, const char *text);
void gp_str_putn(gp_str_t *s, const char *text, size_t n);
void gp_str_printf(gp_str_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* 64-bit FNV-1a of `n` bytes, continuing from `h` (start with GP_FNV_SEED). */
#define GP_FNV_SEED 0xcbf29ce484222325ull
uint64_t gp_fnv1a(uint64_t h, const void *data, size_t n);

#endif /* GP_CORE_H */
