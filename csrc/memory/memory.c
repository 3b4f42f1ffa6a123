/*
 * memory.c - buffers: allocation and release through the backend.
 *
 * GPU backends allocate through a pool: gpunp's own (pool.c, the default) or
 * the driver's stream-ordered pool (GPUNP_ALLOCATOR=driver), which
 * bench/ measures against it. The host backend allocates directly.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "memory.h"

enum { ALLOC_POOL = 0, ALLOC_DRIVER = 1 };

static int allocator(const gp_backend_i *be)
{
    static int which = -1;
    if (which < 0) {
        const char *e = getenv("GPUNP_ALLOCATOR");
        which = (e && strcmp(e, "driver") == 0 && be->mem_alloc_async) ? ALLOC_DRIVER
                                                                        : ALLOC_POOL;
    }
    return which;
}

static atomic_llong driver_used[64];

void gp_buffer_init(gp_buffer_t *b, void *ptr, size_t size, int32_t dev, void *stream,
                    void (*deleter)(void *), void *ctx)
{
    b->magic = GP_BUFFER_MAGIC;
    atomic_init(&b->refs, 1);
    b->ptr = ptr;
    b->size = size;
    b->device = dev;
    b->stream = stream;
    b->deleter = deleter;
    b->deleter_ctx = ctx;
}

/* The users' allocator (gp_memory_set_allocator): NULL, or a callback into
 * Python that serves every array allocation. */
static _Atomic(gp_alloc_fn) user_alloc;
static _Atomic(gp_free_fn) user_release;

GP_API gp_status_t gp_memory_set_allocator(gp_alloc_fn alloc, gp_free_fn release)
{
    if (!alloc != !release)
        return gp_set_error(GP_ERR_MISUSE, "gp_memory_set_allocator: give both functions "
                                           "or neither");
    /* release first: a buffer made by `alloc` finds its release set */
    atomic_store_explicit(&user_release, release, memory_order_release);
    atomic_store_explicit(&user_alloc, alloc, memory_order_release);
    return GP_OK;
}

/* A buffer from the users' allocator; GP_ALLOC_DECLINED when it leaves
 * this one to the pool. */
static gp_status_t user_buffer(gp_alloc_fn alloc, size_t nbytes, gp_buffer_t *b)
{
    gp_free_fn release = atomic_load_explicit(&user_release, memory_order_acquire);
    uint64_t ptr = 0;
    void *owner = NULL;
    int32_t s = alloc((int64_t)nbytes, &ptr, &owner);
    if (s == GP_ALLOC_DECLINED)
        return GP_ALLOC_DECLINED;
    if (s == GP_OK && !ptr && nbytes) {
        release(owner);
        return gp_set_error(GP_ERR_VALUE, "the allocator gave a NULL pointer for %zu bytes",
                            nbytes);
    }
    if (s == GP_ERR_CALLBACK)
        return gp_set_error(GP_ERR_CALLBACK, "the allocator raised an exception");
    if (s != GP_OK)
        return gp_set_error(s, "the allocator failed for %zu bytes", nbytes);
    gp_buffer_init(b, (void *)(uintptr_t)ptr, nbytes, gp_current_device(),
                   gp_current_stream(), release, owner);
    return GP_OK;
}

gp_status_t gp_buffer_alloc(size_t nbytes, gp_buffer_t **out)
{
    *out = NULL;
    gp_alloc_fn alloc = atomic_load_explicit(&user_alloc, memory_order_acquire);
    if (alloc) {
        gp_buffer_t *b = malloc(sizeof *b);
        if (!b)
            return gp_set_error(GP_ERR_NOMEM, "out of host memory for a buffer descriptor");
        gp_status_t s = user_buffer(alloc, nbytes, b);
        if (s == GP_OK) {
            *out = b;
            return GP_OK;
        }
        free(b);
        if (s != GP_ALLOC_DECLINED)
            return s;
    }
    return gp_buffer_alloc_pooled(nbytes, out);
}

gp_status_t gp_buffer_alloc_pooled(size_t nbytes, gp_buffer_t **out)
{
    *out = NULL;
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    gp_buffer_t *b = malloc(sizeof *b);
    if (!b)
        return gp_set_error(GP_ERR_NOMEM, "out of host memory for a buffer descriptor");
    void *p = NULL, *stream = gp_current_stream();
    int32_t dev = gp_current_device();
    size_t n = nbytes ? nbytes : 1; /* an empty array still gets a distinct address */
    gp_status_t s;
    if (!be->pooled)
        s = be->mem_alloc(n, stream, &p);
    else if (allocator(be) == ALLOC_DRIVER)
        s = be->mem_alloc_async(n, stream, &p);
    else
        s = gp_pool_alloc(be, dev, stream, n, &p);
    if (s != GP_OK) {
        free(b);
        return s;
    }
    if (be->pooled && allocator(be) == ALLOC_DRIVER)
        atomic_fetch_add(&driver_used[dev & 63], (long long)n);
    gp_buffer_init(b, p, nbytes, dev, stream, NULL, NULL);
    *out = b;
    return GP_OK;
}

void gp_buffer_retain(gp_buffer_t *b) { atomic_fetch_add_explicit(&b->refs, 1, memory_order_relaxed); }

void gp_buffer_release(gp_buffer_t *b)
{
    if (!b || atomic_fetch_sub_explicit(&b->refs, 1, memory_order_acq_rel) != 1)
        return;
    b->magic = GP_DEAD_MAGIC;
    const gp_backend_i *be = gp_backend_running();
    size_t n = b->size ? b->size : 1;
    if (b->deleter) {
        b->deleter(b->deleter_ctx);
    } else if (be && !be->pooled) {
        be->mem_free(b->ptr, n, b->stream);
    } else if (be && allocator(be) == ALLOC_DRIVER) {
        be->mem_free_async(b->ptr, n, b->stream);
        atomic_fetch_sub(&driver_used[b->device & 63], (long long)n);
    } else if (be) {
        gp_pool_free(b->device, b->stream, b->ptr, n);
    }
    free(b);
}

/* ---- zeroed buffers ------------------------------------------------------------ */

/* A small zeros() would pay a memset call per array, which costs more than
 * the allocation (1.3-1.9 us on the H200 against 0.7). Small zeroed buffers
 * are carved instead from a slab that one memset zeroed: each piece holds a
 * reference on the slab, which goes back to the pool with its last piece. A
 * slab serves one device and the stream its memset was queued on (only
 * there is that memset ordered before the pieces' use), and never a stream
 * being captured: a graph must zero its buffers at every replay. */
enum { SLAB_BYTES = 256 << 10, PIECE_MAX = 16 << 10, PIECE_ALIGN = 512 };

static pthread_mutex_t slab_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    gp_buffer_t *buf; /* the slab being carved, or NULL */
    void *stream;     /* the stream its memset was queued on */
    size_t used;      /* bytes handed out from its start */
} slabs[64];

static void piece_gone(void *slab) { gp_buffer_release(slab); }

/* Takes device dev's slab out of service; the caller releases what this
 * returns after unlocking: the last reference may call a user's allocator
 * back (gp_memory_set_allocator), which must not run under the lock. Lock
 * held. */
static gp_buffer_t *retire(int32_t dev)
{
    gp_buffer_t *old = slabs[dev].buf;
    slabs[dev].buf = NULL;
    return old;
}

void gp_zeroed_forget(int32_t dev, void *stream, bool any_stream)
{
    if (dev < 0 || dev >= 64)
        return;
    gp_buffer_t *old = NULL;
    pthread_mutex_lock(&slab_lock);
    if (slabs[dev].buf && (any_stream || slabs[dev].stream == stream))
        old = retire(dev);
    pthread_mutex_unlock(&slab_lock);
    gp_buffer_release(old);
}

static gp_status_t zeroed_alone(const gp_backend_i *be, size_t nbytes, void *stream,
                                gp_buffer_t **out)
{
    GP_TRY(gp_buffer_alloc(nbytes, out));
    gp_status_t s = nbytes ? be->memset8((*out)->ptr, 0, nbytes, stream) : GP_OK;
    if (s != GP_OK) {
        gp_buffer_release(*out);
        *out = NULL;
    }
    return s;
}

gp_status_t gp_buffer_zeroed_on(const gp_backend_i *be, void *stream, size_t nbytes,
                                gp_buffer_t **out)
{
    *out = NULL;
    int32_t dev = gp_current_device(), capturing = 0;
    size_t n = (nbytes + PIECE_ALIGN - 1) & ~(size_t)(PIECE_ALIGN - 1);
    /* a users' allocator (or hook) sees each array's own request, as
     * CuPy's does, not a slab it never asked for */
    if (!be->pooled || nbytes == 0 || n > PIECE_MAX || dev < 0 || dev >= 64 ||
        atomic_load_explicit(&user_alloc, memory_order_acquire))
        return zeroed_alone(be, nbytes, stream, out);
    if (be->stream_capturing && (be->stream_capturing(stream, &capturing) != GP_OK || capturing)) {
        gp_clear_error();
        return zeroed_alone(be, nbytes, stream, out);
    }
    gp_buffer_t *piece = malloc(sizeof *piece);
    if (!piece)
        return gp_set_error(GP_ERR_NOMEM, "out of host memory for a buffer descriptor");
    pthread_mutex_lock(&slab_lock);
    gp_buffer_t *slab = slabs[dev].buf, *old = NULL;
    if (!slab || slabs[dev].stream != stream || slabs[dev].used + n > SLAB_BYTES) {
        old = slab ? retire(dev) : NULL;
        /* a new slab is allocated without the lock: a user's allocator may
         * be called, and may itself ask for zeros */
        pthread_mutex_unlock(&slab_lock);
        gp_buffer_release(old);
        gp_status_t s = gp_buffer_alloc(SLAB_BYTES, &slab);
        if (s == GP_OK && (s = be->memset8(slab->ptr, 0, SLAB_BYTES, stream)) != GP_OK)
            gp_buffer_release(slab);
        if (s != GP_OK) {
            free(piece);
            if (GP_PRIMARY(s) != GP_ERR_NOMEM)
                return s;
            /* the device may still hold the piece alone */
            gp_clear_error();
            return zeroed_alone(be, nbytes, stream, out);
        }
        pthread_mutex_lock(&slab_lock);
        old = slabs[dev].buf ? retire(dev) : NULL; /* another thread's, made meanwhile */
        slabs[dev].buf = slab;
        slabs[dev].stream = stream;
        slabs[dev].used = 0;
    }
    gp_buffer_retain(slab);
    gp_buffer_init(piece, (char *)slab->ptr + slabs[dev].used, nbytes, dev, stream, piece_gone,
                   slab);
    slabs[dev].used += n;
    pthread_mutex_unlock(&slab_lock);
    gp_buffer_release(old);
    *out = piece;
    return GP_OK;
}

gp_status_t gp_buffer_alloc_zeroed(size_t nbytes, gp_buffer_t **out)
{
    const gp_backend_i *be;
    *out = NULL;
    GP_TRY(gp_backend(&be));
    return gp_buffer_zeroed_on(be, gp_current_stream(), nbytes, out);
}

/* ---- the public memory API ---------------------------------------------------- */

/* Runs `fn` with `dev` as this thread's current device. */
static gp_status_t on_device(int32_t dev, gp_status_t (*fn)(const gp_backend_i *, int32_t))
{
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    int32_t n = 0, cur = gp_current_device();
    GP_TRY(be->device_count(&n));
    if (dev < 0 || dev >= n)
        return gp_set_error(GP_ERR_VALUE, "invalid device id %d (there are %d devices)", dev, n);
    if (dev == cur)
        return fn(be, dev);
    GP_TRY(gp_device_set(dev));
    gp_status_t s = fn(be, dev);
    gp_device_set(cur);
    return s;
}

static gp_status_t free_all(const gp_backend_i *be, int32_t dev)
{
    gp_zeroed_forget(dev, NULL, true);
    if (!be->pooled || allocator(be) == ALLOC_DRIVER)
        return GP_OK;
    return gp_pool_free_all(be, dev);
}

GP_API gp_status_t gp_memory_free_all_blocks(int32_t device) { return on_device(device, free_all); }

GP_API gp_status_t gp_memory_get_stats(int32_t device, gp_memory_stats_t *out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_memory_get_stats: out is NULL");
    memset(out, 0, sizeof *out);
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    if (device < 0 || device >= 64)
        return gp_set_error(GP_ERR_VALUE, "invalid device id %d", device);
    if (be->pooled && allocator(be) == ALLOC_DRIVER) {
        out->used_bytes = out->total_bytes = atomic_load(&driver_used[device]);
        return GP_OK;
    }
    return gp_pool_stats(device, out);
}

GP_API gp_status_t gp_memory_set_limit(int32_t device, int64_t limit)
{
    if (device < 0 || device >= 64)
        return gp_set_error(GP_ERR_VALUE, "invalid device id %d", device);
    return gp_pool_set_limit(device, limit);
}

static _Thread_local int64_t info_free, info_total;

static gp_status_t mem_info(const gp_backend_i *be, int32_t dev)
{
    (void)dev;
    return be->mem_info(&info_free, &info_total);
}

GP_API gp_status_t gp_memory_get_info(int32_t device, int64_t *free_bytes, int64_t *total_bytes)
{
    if (!free_bytes || !total_bytes)
        return gp_set_error(GP_ERR_MISUSE, "gp_memory_get_info: NULL argument");
    GP_TRY(on_device(device, mem_info));
    *free_bytes = info_free;
    *total_bytes = info_total;
    return GP_OK;
}

GP_API gp_status_t gp_memory_alloc(int64_t size, uint64_t *out)
{
    if (!out || size < 0)
        return gp_set_error(GP_ERR_MISUSE, "gp_memory_alloc: invalid argument");
    *out = 0;
    gp_buffer_t *b;
    GP_TRY(gp_buffer_alloc_pooled((size_t)size, &b));
    *out = (uint64_t)(uintptr_t)b->ptr;
    /* the descriptor is not needed: the pool keys blocks by stream and size */
    free(b);
    return GP_OK;
}

GP_API gp_status_t gp_memory_free(uint64_t ptr, int64_t size)
{
    if (!ptr)
        return GP_OK;
    gp_buffer_t *heap = malloc(sizeof *heap);
    if (!heap)
        return gp_set_error(GP_ERR_NOMEM, "out of host memory");
    gp_buffer_init(heap, (void *)(uintptr_t)ptr, (size_t)size, gp_current_device(),
                   gp_current_stream(), NULL, NULL);
    gp_buffer_release(heap);
    return GP_OK;
}

GP_API gp_status_t gp_memory_pool_alloc(int64_t size, void **block, uint64_t *ptr)
{
    if (!block || !ptr || size < 0)
        return gp_set_error(GP_ERR_MISUSE, "gp_memory_pool_alloc: invalid argument");
    *block = NULL;
    *ptr = 0;
    gp_buffer_t *b;
    GP_TRY(gp_buffer_alloc_pooled((size_t)size, &b));
    *block = b;
    *ptr = (uint64_t)(uintptr_t)b->ptr;
    return GP_OK;
}

GP_API gp_status_t gp_memory_pool_release(void *block)
{
    gp_buffer_t *b = block;
    if (!b)
        return GP_OK;
    if (b->magic != GP_BUFFER_MAGIC)
        return gp_set_error(GP_ERR_MISUSE, "gp_memory_pool_release: not a live pool block");
    gp_buffer_release(b);
    return GP_OK;
}

/* ---- raw memory of each kind ---------------------------------------------------- */

static gp_status_t kind_backend(int32_t kind, gp_stream_t *s, const gp_backend_i **be,
                                void **stream)
{
    if (s && !gp_stream_ok(s))
        return gp_set_error(GP_ERR_MISUSE, "invalid stream handle");
    if (kind < GP_MEMORY_POOL || kind > GP_MEMORY_ASYNC)
        return gp_set_error(GP_ERR_VALUE, "unknown memory kind %d", kind);
    GP_TRY(gp_backend(be));
    *stream = s ? s->native : gp_current_stream();
    if (kind == GP_MEMORY_MANAGED && !(*be)->mem_alloc_managed)
        return gp_set_error(GP_ERR_UNSUPPORTED, "the %s backend has no managed memory",
                            (*be)->name);
    if (kind == GP_MEMORY_ASYNC && !(*be)->mem_alloc_async)
        return gp_set_error(GP_ERR_UNSUPPORTED, "the %s backend has no stream-ordered "
                            "allocator (cuMemAllocAsync)", (*be)->name);
    return GP_OK;
}

/* The pool's allocation (alloc) or release of *ptr, ordered on `s` (NULL:
 * the current stream), the thread's current stream restored after. */
static gp_status_t pool_on_stream(gp_stream_t *s, bool alloc, int64_t size, uint64_t *ptr)
{
    gp_stream_t *cur = NULL;
    gp_stream_get_current(&cur);
    if (s)
        gp_stream_set_current(s);
    gp_status_t st = alloc ? gp_memory_alloc(size, ptr) : gp_memory_free(*ptr, size);
    gp_stream_set_current(cur);
    return st;
}

GP_API gp_status_t gp_memory_alloc_kind(int32_t kind, int64_t size, gp_stream_t *s,
                                        uint64_t *out)
{
    if (!out || size < 0)
        return gp_set_error(GP_ERR_MISUSE, "gp_memory_alloc_kind: invalid argument");
    *out = 0;
    const gp_backend_i *be;
    void *stream, *p = NULL;
    GP_TRY(kind_backend(kind, s, &be, &stream));
    size_t n = size ? (size_t)size : 1;
    switch (kind) {
    case GP_MEMORY_POOL: return pool_on_stream(s, true, size, out);
    case GP_MEMORY_DIRECT: GP_TRY(be->mem_alloc(n, stream, &p)); break;
    case GP_MEMORY_MANAGED: GP_TRY(be->mem_alloc_managed(n, &p)); break;
    default: GP_TRY(be->mem_alloc_async(n, stream, &p)); break;
    }
    *out = (uint64_t)(uintptr_t)p;
    return GP_OK;
}

GP_API gp_status_t gp_memory_free_kind(int32_t kind, uint64_t ptr, int64_t size,
                                       gp_stream_t *s)
{
    if (!ptr)
        return GP_OK;
    const gp_backend_i *be;
    void *stream;
    GP_TRY(kind_backend(kind, s, &be, &stream));
    void *p = (void *)(uintptr_t)ptr;
    size_t n = size ? (size_t)size : 1;
    switch (kind) {
    case GP_MEMORY_POOL: return pool_on_stream(s, false, size, &ptr);
    case GP_MEMORY_ASYNC: return be->mem_free_async(p, n, stream);
    default: return be->mem_free(p, n, stream); /* managed memory too */
    }
}

GP_API gp_status_t gp_memset(uint64_t ptr, int32_t value, int64_t size, gp_stream_t *s,
                             int32_t sync)
{
    if ((s && !gp_stream_ok(s)) || size < 0 || (size > 0 && !ptr))
        return gp_set_error(GP_ERR_MISUSE, "gp_memset: invalid argument");
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    void *stream = s ? s->native : gp_current_stream();
    if (size)
        GP_TRY(be->memset8((void *)(uintptr_t)ptr, (uint8_t)value, (size_t)size, stream));
    return sync ? be->stream_synchronize(stream) : GP_OK;
}
