/*
 * pinned.c - pools of page-locked host memory for users' asynchronous
 * copies (CuPy's PinnedMemoryPool), and the raw page-locked memory of the
 * runtime API (hostAlloc, hostRegister).
 *
 * Page-locking is slow (cuMemHostAlloc maps and pins every page: about a
 * millisecond a megabyte), so a pool keeps the blocks given back and hands
 * one out again to a request of the same rounded size. A block given back
 * while a copy may still use it carries an event recorded on the copy's
 * stream, and is not handed out before the event is done. The host backend
 * has no page-locked memory: its blocks are ordinary aligned memory, with
 * the same pool semantics, so the pool's logic is tested without a GPU.
 *
 * The engine's own staging of large transfers (transfer.c) keeps its own
 * ring of page-locked buffers; these pools serve users only.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "memory.h"

#define PINNED_MAGIC 0x4750506eu /* "GPPn" */
enum { ROUND = 512, ALIGN = 256 };

typedef struct {
    void *p;
    size_t size;  /* rounded */
    bool in_use;
    void *event;  /* a backend event the block waits for while idle, or NULL */
} block_t;

struct gp_pinned_pool {
    uint32_t magic;
    pthread_mutex_t m;
    block_t *b;
    size_t n, cap;
    int64_t used, total, limit;
};

static gp_status_t raw_alloc(const gp_backend_i *be, size_t n, void **out)
{
    if (be->host_alloc)
        return be->host_alloc(n, out);
    *out = aligned_alloc(ALIGN, (n + ALIGN - 1) / ALIGN * ALIGN);
    return *out ? GP_OK
                : gp_set_error(GP_ERR_NOMEM, "out of host memory allocating %zu bytes", n);
}

static void raw_free(const gp_backend_i *be, void *p)
{
    if (be->host_free)
        be->host_free(p);
    else
        free(p);
}

/* Whether idle block `k` may be handed out or freed (its event is done);
 * `wait` 1 waits for it. Lock held. */
static bool settled(const gp_backend_i *be, block_t *k, bool wait)
{
    if (!k->event)
        return true;
    int32_t done = 0;
    if (wait)
        done = be->event_synchronize(k->event) == GP_OK;
    else if (be->event_query(k->event, &done) != GP_OK)
        done = 0;
    gp_clear_error();
    if (!done)
        return false;
    be->event_destroy(k->event);
    k->event = NULL;
    return true;
}

/* Frees the idle blocks (waiting for their events); the bytes freed. Lock
 * held. */
static int64_t drop_idle(const gp_backend_i *be, gp_pinned_pool_t *pool)
{
    int64_t freed = 0;
    size_t keep = 0;
    for (size_t i = 0; i < pool->n; ++i) {
        block_t k = pool->b[i];
        if (k.in_use) {
            pool->b[keep++] = k;
            continue;
        }
        settled(be, &k, true);
        raw_free(be, k.p);
        freed += (int64_t)k.size;
    }
    pool->n = keep;
    pool->total -= freed;
    return freed;
}

static gp_status_t pool_ok(const gp_pinned_pool_t *pool, const char *fn)
{
    if (!pool || pool->magic != PINNED_MAGIC)
        return gp_set_error(GP_ERR_MISUSE, "%s: invalid pinned memory pool handle", fn);
    return GP_OK;
}

GP_API gp_status_t gp_pinned_pool_create(gp_pinned_pool_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_pinned_pool_create: out is NULL");
    *out = NULL;
    gp_pinned_pool_t *pool = calloc(1, sizeof *pool);
    if (!pool)
        return gp_set_error(GP_ERR_NOMEM, "out of host memory for a pinned memory pool");
    pool->magic = PINNED_MAGIC;
    pthread_mutex_init(&pool->m, NULL);
    *out = pool;
    return GP_OK;
}

GP_API gp_status_t gp_pinned_pool_destroy(gp_pinned_pool_t *pool)
{
    if (!pool)
        return GP_OK;
    GP_TRY(pool_ok(pool, "gp_pinned_pool_destroy"));
    const gp_backend_i *be = gp_backend_running();
    for (size_t i = 0; be && i < pool->n; ++i) {
        settled(be, &pool->b[i], true);
        raw_free(be, pool->b[i].p);
    }
    free(pool->b);
    pthread_mutex_destroy(&pool->m);
    pool->magic = GP_DEAD_MAGIC;
    free(pool);
    return GP_OK;
}

GP_API gp_status_t gp_pinned_pool_alloc(gp_pinned_pool_t *pool, int64_t size, void **out)
{
    GP_TRY(pool_ok(pool, "gp_pinned_pool_alloc"));
    if (!out || size < 0)
        return gp_set_error(GP_ERR_MISUSE, "gp_pinned_pool_alloc: invalid argument");
    *out = NULL;
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    size_t n = ((size_t)size + ROUND - 1) / ROUND * ROUND;
    if (n == 0)
        n = ROUND; /* an empty request still gets a distinct block */
    gp_status_t s = GP_OK;
    pthread_mutex_lock(&pool->m);
    for (size_t i = 0; i < pool->n; ++i) {
        block_t *k = &pool->b[i];
        if (!k->in_use && k->size == n && settled(be, k, false)) {
            k->in_use = true;
            pool->used += (int64_t)n;
            *out = k->p;
            goto done;
        }
    }
    if (pool->limit && pool->total + (int64_t)n > pool->limit)
        drop_idle(be, pool);
    if (pool->limit && pool->total + (int64_t)n > pool->limit) {
        s = gp_set_error(GP_ERR_NOMEM, "out of pinned memory: allocating %zu bytes would pass "
                         "the pool's limit of %lld bytes (%lld in use)", n,
                         (long long)pool->limit, (long long)pool->used);
        goto done;
    }
    if (pool->n == pool->cap) {
        size_t cap = pool->cap ? 2 * pool->cap : 16;
        block_t *grown = realloc(pool->b, cap * sizeof *grown);
        if (!grown) {
            s = gp_set_error(GP_ERR_NOMEM, "out of host memory for the pinned pool's table");
            goto done;
        }
        pool->b = grown, pool->cap = cap;
    }
    void *p = NULL;
    if ((s = raw_alloc(be, n, &p)) != GP_OK && GP_PRIMARY(s) == GP_ERR_NOMEM &&
        drop_idle(be, pool) > 0) {
        gp_clear_error();
        s = raw_alloc(be, n, &p); /* what the idle blocks held may serve it */
    }
    if (s != GP_OK)
        goto done;
    pool->b[pool->n++] = (block_t){.p = p, .size = n, .in_use = true};
    pool->total += (int64_t)n;
    pool->used += (int64_t)n;
    *out = p;
done:
    pthread_mutex_unlock(&pool->m);
    return s;
}

GP_API gp_status_t gp_pinned_pool_release(gp_pinned_pool_t *pool, void *p, int32_t wait,
                                          gp_stream_t *s)
{
    GP_TRY(pool_ok(pool, "gp_pinned_pool_release"));
    if (s && !gp_stream_ok(s))
        return gp_set_error(GP_ERR_MISUSE, "gp_pinned_pool_release: invalid stream handle");
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    void *event = NULL;
    if (wait) {
        GP_TRY(be->event_create(0, &event));
        gp_status_t st = be->event_record(event, s ? s->native : gp_current_stream());
        if (st != GP_OK) {
            be->event_destroy(event);
            return st;
        }
    }
    pthread_mutex_lock(&pool->m);
    block_t *k = NULL;
    for (size_t i = 0; i < pool->n && !k; ++i)
        if (pool->b[i].p == p && pool->b[i].in_use)
            k = &pool->b[i];
    if (k) {
        k->in_use = false;
        k->event = event;
        pool->used -= (int64_t)k->size;
    }
    pthread_mutex_unlock(&pool->m);
    if (!k) {
        if (event)
            be->event_destroy(event);
        return gp_set_error(GP_ERR_MISUSE, "%p is not a block in use of this pinned memory pool",
                            p);
    }
    return GP_OK;
}

GP_API gp_status_t gp_pinned_pool_stats(gp_pinned_pool_t *pool, gp_memory_stats_t *out)
{
    GP_TRY(pool_ok(pool, "gp_pinned_pool_stats"));
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_pinned_pool_stats: out is NULL");
    pthread_mutex_lock(&pool->m);
    out->used_bytes = pool->used;
    out->total_bytes = pool->total;
    out->limit_bytes = pool->limit;
    out->free_blocks = 0;
    for (size_t i = 0; i < pool->n; ++i)
        out->free_blocks += !pool->b[i].in_use;
    pthread_mutex_unlock(&pool->m);
    return GP_OK;
}

GP_API gp_status_t gp_pinned_pool_set_limit(gp_pinned_pool_t *pool, int64_t limit)
{
    GP_TRY(pool_ok(pool, "gp_pinned_pool_set_limit"));
    if (limit < 0)
        return gp_set_error(GP_ERR_VALUE, "the limit must be 0 or more, not %lld",
                            (long long)limit);
    pthread_mutex_lock(&pool->m);
    pool->limit = limit;
    pthread_mutex_unlock(&pool->m);
    return GP_OK;
}

GP_API gp_status_t gp_pinned_pool_free_all(gp_pinned_pool_t *pool)
{
    GP_TRY(pool_ok(pool, "gp_pinned_pool_free_all"));
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    pthread_mutex_lock(&pool->m);
    drop_idle(be, pool);
    pthread_mutex_unlock(&pool->m);
    return GP_OK;
}

/* ---- raw page-locked memory ---------------------------------------------------- */

GP_API gp_status_t gp_host_alloc(int64_t size, uint32_t flags, void **out)
{
    if (!out || size < 0)
        return gp_set_error(GP_ERR_MISUSE, "gp_host_alloc: invalid argument");
    *out = NULL;
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    (void)flags; /* portable memory is what every block is (gpu.c) */
    return raw_alloc(be, size ? (size_t)size : 1, out);
}

GP_API gp_status_t gp_host_free(void *p)
{
    if (!p)
        return GP_OK;
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    raw_free(be, p);
    return GP_OK;
}

static gp_status_t no_locking(const gp_backend_i *be, const char *what)
{
    return gp_set_error(GP_ERR_UNSUPPORTED, "%s: the %s backend has no page-locked memory "
                        "(it copies within host memory)", what, be->name);
}

GP_API gp_status_t gp_host_register(void *p, int64_t size, uint32_t flags)
{
    if (!p || size <= 0)
        return gp_set_error(GP_ERR_VALUE, "hostRegister: a NULL pointer or a size of %lld",
                            (long long)size);
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    if (!be->host_register)
        return no_locking(be, "hostRegister");
    return be->host_register(p, (size_t)size, flags);
}

GP_API gp_status_t gp_host_unregister(void *p)
{
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    if (!be->host_unregister)
        return no_locking(be, "hostUnregister");
    return be->host_unregister(p);
}
