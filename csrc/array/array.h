/*
 * array.h - the array descriptor over a buffer: reference counts, flags,
 * views, allocation in NumPy's layouts (array.c), and zero-copy interop with
 * foreign memory and DLPack (interop.c). Not API.
 */
#ifndef GP_ARRAY_LAYER_H
#define GP_ARRAY_LAYER_H

#include "../memory/memory.h"

#define GP_ARRAY_MAGIC 0x47504172u  /* "GPAr" */

struct gp_array {
    uint32_t magic;
    atomic_int refs;
    int32_t dtype;
    int32_t ndim;
    int32_t flags;
    int32_t pad_;
    int64_t size;
    int64_t offset;      /* bytes from buf->ptr to element 0 */
    gp_buffer_t *buf;
    int64_t *shape;      /* point into dims */
    int64_t *strides;
    int64_t dims[];      /* shape then strides */
};

/* Descriptors' memory (handles.c): a released descriptor's address is not
 * handed out again, so gp_array_check tells a stale handle from a live one. */
gp_array_t *gp_handle_alloc(size_t bytes);
void gp_handle_free(gp_array_t *a);
bool gp_array_check(const gp_array_t *a);
#define GP_CHECK_ARRAY(a)                                                      \
    do {                                                                      \
        if (!gp_array_check(a))                                               \
            return gp_set_error(GP_ERR_MISUSE, "invalid array handle (NULL, " \
                                               "freed or foreign)");          \
    } while (0)

static inline char *gp_array_data(const gp_array_t *a)
{
    return (char *)a->buf->ptr + a->offset;
}

/* The order (C, F or K) a new array like `a` takes for NumPy's `order`
 * (A and K resolved against a's layout); GP_ERR_VALUE for an unknown one. */
gp_status_t gp_like_order(const gp_array_t *a, int32_t *order);

/* A new array descriptor over `buf` (whose reference it takes), computing
 * size and flags. Returns NULL (and sets the error) if out of host memory. */
gp_array_t *gp_array_wrap(gp_buffer_t *buf, int32_t dtype, int32_t ndim, const int64_t *shape,
                          const int64_t *strides, int64_t offset, int32_t writeable);

/* A new view of `a`'s buffer (taking a new buffer reference); writeability
 * is inherited. */
gp_status_t gp_array_new_view(const gp_array_t *a, int32_t ndim, const int64_t *shape,
                              const int64_t *strides, int64_t offset, gp_array_t **out);

/* A new array with the given shape and explicit strides (a dense layout). */
gp_status_t gp_array_alloc_strided(int32_t dtype, int32_t ndim, const int64_t *shape,
                                   const int64_t *strides, gp_array_t **out);

/* A new array of `shape` laid out like `like_strides` would ask (NumPy's
 * order K): axes sorted by the strides of the `n` operand stride lists. */
gp_status_t gp_array_alloc_like(int32_t dtype, int32_t ndim, const int64_t *shape, int32_t n,
                                const int64_t *const *like_strides, int32_t order,
                                gp_array_t **out);

/* Recomputes the contiguity flags of `a`. */
void gp_array_update_flags(gp_array_t *a);

#endif /* GP_ARRAY_LAYER_H */
