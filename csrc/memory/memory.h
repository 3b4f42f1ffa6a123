/*
 * memory.h - device buffers for arrays: allocation on the current device and
 * stream, through the backend, with a caching pool on GPU backends.
 */
#ifndef GP_MEMORY_H
#define GP_MEMORY_H

#include "../backend/backend.h"

#define GP_BUFFER_MAGIC 0x47504266u /* "GPBf" */

/* A reference-counted allocation on one device. */
typedef struct gp_buffer {
    uint32_t magic;
    atomic_int refs;
    void *ptr;           /* device address */
    size_t size;         /* bytes */
    int32_t device;
    void *stream;        /* the stream it was allocated on (pools reuse per stream) */
    /* Who frees the memory: NULL means the engine's allocator. An external
     * owner (DLPack, __cuda_array_interface__) gives a deleter. */
    void (*deleter)(void *ctx);
    void *deleter_ctx;
} gp_buffer_t;

/* A reference more, or one fewer (the last frees the memory, through the
 * pool or the owner's deleter). */
void gp_buffer_retain(gp_buffer_t *b);
void gp_buffer_release(gp_buffer_t *b);

/* A new buffer of `nbytes` (0 allowed) on the current device and stream,
 * one reference owned by the caller. GP_ERR_NOMEM_DEVICE with the size asked
 * for and what is in use when device memory runs out (after the cache was
 * released and the allocation retried). */
gp_status_t gp_buffer_alloc(size_t nbytes, gp_buffer_t **out);

/* The same, never from the users' allocator (gp_memory_set_allocator): the
 * runtime API's raw memory, which has no descriptor to carry a deleter. */
gp_status_t gp_buffer_alloc_pooled(size_t nbytes, gp_buffer_t **out);

/* Fills a descriptor of `size` bytes at `ptr` with one reference;
 * `deleter(ctx)` frees the memory where the engine's allocator does not. */
void gp_buffer_init(gp_buffer_t *b, void *ptr, size_t size, int32_t dev, void *stream,
                    void (*deleter)(void *), void *ctx);

/* The same, its bytes zeroed in stream order; a small one is a piece of a
 * slab zeroed at once (memory.c). _on takes the backend and the current
 * stream, for tests. */
gp_status_t gp_buffer_alloc_zeroed(size_t nbytes, gp_buffer_t **out);
gp_status_t gp_buffer_zeroed_on(const gp_backend_i *be, void *stream, size_t nbytes,
                                gp_buffer_t **out);
/* Stops carving device dev's slab if it serves `stream` (or any stream):
 * before the stream is destroyed, or the pool's cache released. */
void gp_zeroed_forget(int32_t dev, void *stream, bool any_stream);

/* Copies of n bytes between host memory (pageable or not) and the current
 * device, ordered on `stream`, as the backend's memcpy_htod (returns once
 * `src` may be reused) and memcpy_dtoh (returns once `dst` holds the data):
 * large copies go through page-locked staging buffers (transfer.c). */
gp_status_t gp_transfer_htod(const gp_backend_i *be, void *dst, const void *src, size_t n,
                             void *stream);
gp_status_t gp_transfer_dtoh(const gp_backend_i *be, void *dst, const void *src, size_t n,
                             void *stream);

/* ---- the caching pool (pool.c) ----------------------------------------------- */

/* The size class of a request of n bytes. */
size_t gp_pool_round(size_t n);
gp_status_t gp_pool_alloc(const gp_backend_i *be, int32_t dev, void *stream, size_t n,
                          void **out);
void gp_pool_free(int32_t dev, void *stream, void *ptr, size_t n);
/* Moves a destroyed stream's cached blocks to the default stream's lists. */
void gp_pool_forget_stream(int32_t dev, void *stream);
gp_status_t gp_pool_free_all(const gp_backend_i *be, int32_t dev);
/* While `stream` is captured into a graph, blocks freed on it are kept for
 * the graph: _end hands them over (opaque), _release takes them back once
 * the graph is gone. */
void gp_pool_capture_begin(int32_t dev, void *stream);
void *gp_pool_capture_end(int32_t dev);
void gp_pool_capture_release(int32_t dev, void *retained);
gp_status_t gp_pool_stats(int32_t dev, gp_memory_stats_t *out);
gp_status_t gp_pool_set_limit(int32_t dev, int64_t limit);

#endif /* GP_MEMORY_H */
