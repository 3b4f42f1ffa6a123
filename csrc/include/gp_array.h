/*
 * gp_array.h - the array handle: an n-dimensional view (offset, shape,
 * strides, dtype, flags) of a reference-counted device buffer.
 *
 * Strides are in bytes, as NumPy's. Shapes and strides are int64. A view
 * shares its buffer with the array it was made from; the buffer lives as long
 * as any array that refers to it.
 */
#ifndef GP_ARRAY_H
#define GP_ARRAY_H

#include "gp_dtype.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gp_array gp_array_t;

/* Flag bits of gp_array_info_t.flags. */
enum gp_array_flag {
    GP_FLAG_C_CONTIGUOUS = 1,
    GP_FLAG_F_CONTIGUOUS = 2,
    GP_FLAG_OWNDATA = 4,
    GP_FLAG_WRITEABLE = 8,
    GP_FLAG_ALIGNED = 16
};

/* Memory orders, as NumPy's order= characters. */
enum gp_order {
    GP_ORDER_C = 'C',
    GP_ORDER_F = 'F',
    GP_ORDER_A = 'A', /* F if the input is F-contiguous and not C, else C */
    GP_ORDER_K = 'K'  /* follow the input's memory layout */
};

/* Everything Python needs to know of an array, in one call. `shape` and
 * `strides` are borrowed: valid while the handle is alive. `data` is the
 * address of element 0 on the array's device; `device_type` uses DLPack's
 * numbering (1 = CPU, 2 = CUDA, 10 = ROCm). */
typedef struct gp_array_info {
    int32_t dtype;
    int32_t ndim;
    int32_t flags;
    int32_t itemsize;
    int64_t size;
    int64_t nbytes;
    const int64_t *shape;
    const int64_t *strides;
    uint64_t data;
    int64_t offset;        /* bytes from the start of the buffer */
    int32_t device_type;
    int32_t device_id;
} gp_array_info_t;

/* Kinds of a basic index item. */
enum gp_index_kind {
    GP_INDEX_INT = 0,      /* `start` is the index (negative counts from the end) */
    GP_INDEX_SLICE = 1,    /* start:stop:step, each present per `present` */
    GP_INDEX_NEWAXIS = 2,  /* None */
    GP_INDEX_ELLIPSIS = 3  /* ... */
};

/* Bits of gp_index_item_t.present for a slice. */
enum gp_index_present {
    GP_SLICE_START = 1,
    GP_SLICE_STOP = 2,
    GP_SLICE_STEP = 4
};

/* One item of a basic index (an int, a slice, None or ...). */
typedef struct gp_index_item {
    int32_t kind;
    int32_t present;
    int64_t start;
    int64_t stop;
    int64_t step;
} gp_index_item_t;

/* A new uninitialised array on the current device. `order` is GP_ORDER_C or
 * GP_ORDER_F. GP_ERR_VALUE for negative dimensions, GP_ERR_NOMEM when memory
 * runs out. The caller owns *out. */
GP_API gp_status_t gp_array_empty(int32_t dtype, int32_t ndim, const int64_t *shape,
                                  int32_t order, gp_array_t **out);

/* A new uninitialised array of `dtype` with the shape of `a`, laid out by
 * `order`: C, F, A (F if `a` is F-contiguous and not C) or K (the axis order
 * of `a`'s strides, as numpy.empty_like). */
GP_API gp_status_t gp_array_empty_like(const gp_array_t *a, int32_t dtype, int32_t order,
                                       gp_array_t **out);

/* A new array of zeros (numpy.zeros): the common fill, without a scalar. */
GP_API gp_status_t gp_array_zeros(int32_t dtype, int32_t ndim, const int64_t *shape, int32_t order,
                                  gp_array_t **out);

/* gp_array_empty_like's array, zeroed (numpy.zeros_like). */
GP_API gp_status_t gp_array_zeros_like(const gp_array_t *a, int32_t dtype, int32_t order,
                                       gp_array_t **out);

/* A new array filled with `value` cast to `dtype` (zeros, ones, full).
 * A weak integer that does not fit `dtype` gives GP_ERR_OVERFLOW. */
GP_API gp_status_t gp_array_full(int32_t dtype, int32_t ndim, const int64_t *shape,
                                 int32_t order, const gp_scalar_t *value,
                                 gp_array_t **out);

/* A new array of the current device holding a copy of host memory at `src`
 * whose layout is `shape`/`strides` (bytes, non-negative, describing a dense
 * block of `nbytes` bytes in any axis order). The result keeps that layout. */
GP_API gp_status_t gp_array_from_host(const void *src, int64_t nbytes, int32_t dtype,
                                      int32_t ndim, const int64_t *shape,
                                      const int64_t *strides, gp_array_t **out);

/* Copies the elements of `a` into host memory at `dst`, laid out as a
 * contiguous array of order GP_ORDER_C or GP_ORDER_F. `nbytes` must equal
 * the array's nbytes. Waits for the copy to finish. */
GP_API gp_status_t gp_array_to_host(const gp_array_t *a, void *dst, int64_t nbytes,
                                    int32_t order);

/* Adds a reference to `a`. GP_ERR_MISUSE for a bad handle. */
GP_API gp_status_t gp_array_retain(gp_array_t *a);

/* Drops a reference; the array is freed with the last one. NULL is a no-op. */
GP_API gp_status_t gp_array_release(gp_array_t *a);

/* Fills *out with the array's metadata. */
GP_API gp_status_t gp_array_get_info(const gp_array_t *a, gp_array_info_t *out);

/* The size in bytes of the buffer `a` views: the allocation that holds it
 * (an allocation may be larger than the arrays in it), or the foreign memory
 * it wraps. Its start is `data - offset` of gp_array_get_info. */
GP_API gp_status_t gp_array_buffer_size(const gp_array_t *a, int64_t *out);

/* 1 in *out if `a` and `b` may share memory (their byte ranges in one buffer
 * overlap), else 0. */
GP_API gp_status_t gp_array_may_share_memory(const gp_array_t *a, const gp_array_t *b,
                                             int32_t *out);

/* A copy of `a` in `order` (C, F, A or K). */
GP_API gp_status_t gp_array_copy(const gp_array_t *a, int32_t order, gp_array_t **out);

/* A copy of `a` cast to `dtype`, in `order`; the cast must be allowed by
 * `casting` (GP_ERR_TYPE_CASTING otherwise). */
GP_API gp_status_t gp_array_astype(const gp_array_t *a, int32_t dtype, int32_t order,
                                   int32_t casting, gp_array_t **out);

/* Copies `src`, broadcast to the shape of `dst` and cast under `casting`,
 * into `dst` (numpy.copyto). Overlapping memory is handled. GP_ERR_VALUE if
 * `dst` is read-only, GP_ERR_VALUE_BROADCAST if the shapes do not fit. */
GP_API gp_status_t gp_array_assign(gp_array_t *dst, const gp_array_t *src,
                                   int32_t casting);

/* Sets every element of `dst` to `value` (cast unsafely, but a weak integer
 * must fit: GP_ERR_OVERFLOW). */
GP_API gp_status_t gp_array_fill(gp_array_t *dst, const gp_scalar_t *value);

/* The array with a new shape (one entry may be -1), read in `order` (C or F).
 * A view when the strides allow it, else a copy. GP_ERR_VALUE_RESHAPE with
 * NumPy's message when the sizes differ. */
GP_API gp_status_t gp_array_reshape(const gp_array_t *a, int32_t ndim, const int64_t *shape,
                                    int32_t order, gp_array_t **out);

/* A view with the axes permuted: output axis k is input axis axes[k];
 * `axes` NULL (naxes 0) reverses them. Negative axes count from the end.
 * GP_ERR_VALUE if `axes` is not a permutation, GP_ERR_AXIS if out of range. */
GP_API gp_status_t gp_array_transpose(const gp_array_t *a, int32_t naxes, const int32_t *axes,
                                      gp_array_t **out);

/* The view selected by a basic index of `n` items (ints, slices, None, at
 * most one ...). GP_ERR_INDEX for an integer out of bounds or too many
 * indices. */
GP_API gp_status_t gp_array_index(const gp_array_t *a, int32_t n, const gp_index_item_t *items,
                                  gp_array_t **out);

/* a[start:stop:step] along axis 0 (`present` as in gp_index_item_t): the
 * common slice without building an item list. */
GP_API gp_status_t gp_array_slice(const gp_array_t *a, int32_t present, int64_t start,
                                  int64_t stop, int64_t step, gp_array_t **out);

/* A view without the given axes of length one; `axes` NULL (naxes 0) drops
 * every axis of length one. GP_ERR_VALUE if a given axis is not of length one. */
GP_API gp_status_t gp_array_squeeze(const gp_array_t *a, int32_t naxes, const int32_t *axes,
                                    gp_array_t **out);

/* A read-only view of `a` broadcast to `shape`. */
GP_API gp_status_t gp_array_broadcast_to(const gp_array_t *a, int32_t ndim,
                                         const int64_t *shape, gp_array_t **out);

/* The broadcast shape of `n` shapes into out_shape (GP_MAXDIM entries) and
 * *out_ndim; GP_ERR_VALUE_BROADCAST with NumPy's message if they do not fit. */
GP_API gp_status_t gp_broadcast_shapes(int32_t n, const int32_t *ndims,
                                       const int64_t *const *shapes, int32_t *out_ndim,
                                       int64_t *out_shape);

/* A view of the buffer of `a` as `dtype` (-1: a's dtype) with the given shape
 * and byte strides, starting `offset` bytes after a's first element
 * (numpy.lib.stride_tricks.as_strided; .real, .imag and .view(dtype) too).
 * Every element it can reach must lie inside the buffer: GP_ERR_VALUE if not. */
GP_API gp_status_t gp_array_as_strided(const gp_array_t *a, int32_t dtype, int32_t ndim,
                                       const int64_t *shape,
                                       const int64_t *strides, int64_t offset,
                                       gp_array_t **out);

/* Clears the writeable flag of `a` (views made from it inherit that). */
GP_API gp_status_t gp_array_set_readonly(gp_array_t *a);

#ifdef __cplusplus
}
#endif
#endif /* GP_ARRAY_H */
