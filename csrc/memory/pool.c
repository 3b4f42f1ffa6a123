/*
 * pool.c - the caching, stream-ordered device allocator of GPU backends.
 *
 * Freed blocks are kept on a free list of their stream and size class and
 * handed out again to allocations of the same stream and class: work queued
 * on one stream runs in order, so a block freed there can be reused there at
 * once, without a synchronisation. Blocks go back to the driver only when an
 * allocation fails (then the allocation is retried) or on free_all_blocks.
 *
 * Size classes: multiples of 512 bytes up to 1 MiB, then eight classes per
 * power of two, so no block is more than 12.5% larger than asked for.
 *
 * Small zeroed requests (zeros(1000)) are pieces of a slab: one pool block
 * per stream, zeroed by one memset queued on that stream, cut front to back.
 * The driver's memset call costs more CPU time than the rest of an
 * allocation, and a slab pays it once for many pieces. A piece is handed
 * out only on the slab's stream (after its memset in that stream's order),
 * is never handed out again when freed, and the slab's block returns to
 * the free lists of its stream when its last piece is freed, as an
 * ordinary (not zeroed) block. While a stream is captured into a graph no
 * slab is used: the graph must replay the memset of its zeros.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory.h"

#define MAX_DEVICES 64

typedef struct slab {
    struct slab *next; /* the pool's list of active slabs */
    void *ptr;
    void *stream;
    size_t cut;        /* bytes handed out from the front */
    int64_t live;      /* pieces not yet freed */
    bool active;       /* still cut from (one per stream) */
} slab_t;

typedef struct block {
    struct block *next;
    void *ptr;
    size_t size;
    slab_t *slab;      /* a retained piece's slab, else NULL */
} block_t;

typedef struct {
    void *stream;
    size_t size;   /* 0: empty slot */
    block_t *head;
} bucket_t;

typedef struct {
    pthread_mutex_t lock;
    bucket_t *buckets;
    size_t nbuckets, nused;
    int64_t used;      /* bytes in blocks handed out */
    int64_t total;     /* bytes held from the driver */
    int64_t free_blocks;
    int64_t limit;     /* 0: none */
    void *capture;     /* the stream being captured into a graph, or NULL */
    block_t *retained; /* blocks freed on it while capturing */
    slab_t *slabs;     /* the active slab of each stream that has one */
} pool_t;

static pool_t pools[MAX_DEVICES];
static pthread_once_t pools_once = PTHREAD_ONCE_INIT;

static void init_pools(void)
{
    for (int d = 0; d < MAX_DEVICES; ++d)
        pthread_mutex_init(&pools[d].lock, NULL);
}

static pool_t *pool_of(int32_t dev)
{
    pthread_once(&pools_once, init_pools);
    return dev >= 0 && dev < MAX_DEVICES ? &pools[dev] : NULL;
}

size_t gp_pool_round(size_t n)
{
    if (n <= 512)
        return 512;
    if (n <= ((size_t)1 << 20))
        return (n + 511) & ~(size_t)511;
    size_t p = (size_t)1 << (63 - __builtin_clzll((unsigned long long)n));
    size_t step = p / 8;
    return (n + step - 1) / step * step;
}

static size_t hash(void *stream, size_t size)
{
    uint64_t h = (uint64_t)(uintptr_t)stream * 0x9e3779b97f4a7c15ull ^ (uint64_t)size;
    h ^= h >> 31;
    return (size_t)(h * 0xbf58476d1ce4e5b9ull);
}

static bucket_t *find(bucket_t *tab, size_t cap, void *stream, size_t size)
{
    for (size_t i = hash(stream, size) & (cap - 1);; i = (i + 1) & (cap - 1))
        if (tab[i].size == 0 || (tab[i].size == size && tab[i].stream == stream))
            return &tab[i];
}

static bool grow(pool_t *p)
{
    size_t cap = p->nbuckets ? 2 * p->nbuckets : 256;
    bucket_t *tab = calloc(cap, sizeof *tab);
    if (!tab)
        return false;
    for (size_t i = 0; i < p->nbuckets; ++i)
        if (p->buckets[i].size)
            *find(tab, cap, p->buckets[i].stream, p->buckets[i].size) = p->buckets[i];
    free(p->buckets);
    p->buckets = tab;
    p->nbuckets = cap;
    return true;
}

/* Returns every cached block of `p` to the driver; lock held. The device
 * must be idle first: a cached block may still be read by queued work. */
static void release_cached(const gp_backend_i *be, pool_t *p)
{
    be->device_synchronize();
    for (size_t i = 0; i < p->nbuckets; ++i) {
        bucket_t *b = &p->buckets[i];
        while (b->head) {
            block_t *k = b->head;
            b->head = k->next;
            be->mem_free(k->ptr, b->size, NULL);
            p->total -= (int64_t)b->size;
            --p->free_blocks;
            free(k);
        }
    }
    for (slab_t **q = &p->slabs; *q;) {
        slab_t *sl = *q;
        if (sl->live) {
            q = &sl->next;
            continue;
        }
        *q = sl->next;
        be->mem_free(sl->ptr, GP_POOL_SLAB_BYTES, NULL);
        p->total -= (int64_t)GP_POOL_SLAB_BYTES;
        free(sl);
    }
}

static gp_status_t out_of_memory(pool_t *p, size_t n, const char *why)
{
    return gp_set_error(GP_ERR_NOMEM_DEVICE,
                        "Out of memory allocating %zu bytes (allocated so far: %lld bytes, "
                        "cached: %lld bytes%s%s)",
                        n, (long long)p->used, (long long)(p->total - p->used),
                        why ? "; " : "", why ? why : "");
}

/* A block of size class `size` for `stream`, from its free list or the
 * driver, counted as used; lock held. */
static gp_status_t take_block(const gp_backend_i *be, pool_t *p, void *stream, size_t size,
                              void **out)
{
    if (2 * (p->nused + 1) > p->nbuckets && !grow(p))
        return gp_set_error(GP_ERR_NOMEM, "out of host memory for the memory pool");
    bucket_t *b = find(p->buckets, p->nbuckets, stream, size);
    if (b->size && b->head) {
        block_t *k = b->head;
        b->head = k->next;
        *out = k->ptr;
        free(k);
        --p->free_blocks;
        p->used += (int64_t)size;
        return GP_OK;
    }
    if (p->limit && p->total + (int64_t)size > p->limit) {
        release_cached(be, p);
        if (p->total + (int64_t)size > p->limit) {
            char why[96];
            snprintf(why, sizeof why, "limit: %lld bytes", (long long)p->limit);
            return out_of_memory(p, size, why);
        }
    }
    gp_status_t s = be->mem_alloc(size, stream, out);
    if (s != GP_OK && GP_PRIMARY(s) == GP_ERR_NOMEM) {
        release_cached(be, p);
        s = be->mem_alloc(size, stream, out);
        if (s != GP_OK && GP_PRIMARY(s) == GP_ERR_NOMEM)
            s = out_of_memory(p, size, NULL);
    }
    if (s == GP_OK) {
        p->total += (int64_t)size;
        p->used += (int64_t)size;
    }
    return s;
}

gp_status_t gp_pool_alloc(const gp_backend_i *be, int32_t dev, void *stream, size_t n,
                          void **out)
{
    pool_t *p = pool_of(dev);
    if (!p)
        return gp_set_error(GP_ERR_VALUE, "invalid device %d", dev);
    pthread_mutex_lock(&p->lock);
    gp_status_t s = take_block(be, p, stream, gp_pool_round(n), out);
    pthread_mutex_unlock(&p->lock);
    return s;
}

/* Puts a block no longer used by `stream`'s work on that stream's free
 * list (or, without room for it, back to the driver); lock held. */
static void cache_block(pool_t *p, void *stream, void *ptr, size_t size)
{
    block_t *k = malloc(sizeof *k);
    bucket_t *b = NULL;
    if (k && (2 * (p->nused + 1) <= p->nbuckets || grow(p)))
        b = find(p->buckets, p->nbuckets, stream, size);
    if (b) {
        if (!b->size) {
            b->size = size;
            b->stream = stream;
            ++p->nused;
        }
        k->ptr = ptr;
        k->size = size;
        k->slab = NULL;
        k->next = b->head;
        b->head = k;
        ++p->free_blocks;
    } else {
        const gp_backend_i *be = gp_backend_running();
        free(k);
        if (be) {
            be->device_synchronize();
            be->mem_free(ptr, size, NULL);
        }
        p->total -= (int64_t)size;
    }
}

/* Stops cutting from `sl` (unlinked by the caller); an idle slab's block
 * goes back to its stream's free list at once. Lock held. */
static void retire_slab(pool_t *p, slab_t *sl)
{
    sl->active = false;
    if (sl->live == 0) {
        cache_block(p, sl->stream, sl->ptr, GP_POOL_SLAB_BYTES);
        free(sl);
    }
}

gp_status_t gp_pool_alloc_zeroed(const gp_backend_i *be, int32_t dev, void *stream, size_t n,
                                 void **out, void **slab)
{
    *out = NULL;
    *slab = NULL;
    pool_t *p = pool_of(dev);
    if (!p)
        return gp_set_error(GP_ERR_VALUE, "invalid device %d", dev);
    size_t size = gp_pool_round(n);
    if (size > GP_POOL_PIECE_MAX)
        return GP_OK;
    pthread_mutex_lock(&p->lock);
    gp_status_t s = GP_OK;
    if (p->capture)
        goto done;
    slab_t **q = &p->slabs;
    while (*q && (*q)->stream != stream)
        q = &(*q)->next;
    slab_t *sl = *q;
    if (sl && sl->cut + size > GP_POOL_SLAB_BYTES) {
        *q = sl->next;
        retire_slab(p, sl);
        sl = NULL;
    }
    if (!sl) {
        sl = calloc(1, sizeof *sl);
        if (!sl) {
            s = gp_set_error(GP_ERR_NOMEM, "out of host memory for the memory pool");
            goto done;
        }
        s = take_block(be, p, stream, GP_POOL_SLAB_BYTES, &sl->ptr);
        if (s == GP_OK) {
            p->used -= (int64_t)GP_POOL_SLAB_BYTES; /* its pieces count as they are cut */
            s = be->memset8(sl->ptr, 0, GP_POOL_SLAB_BYTES, stream);
            if (s != GP_OK)
                cache_block(p, stream, sl->ptr, GP_POOL_SLAB_BYTES);
        }
        if (s != GP_OK) {
            free(sl);
            goto done;
        }
        sl->stream = stream;
        sl->active = true;
        sl->next = p->slabs;
        p->slabs = sl;
    }
    *out = (char *)sl->ptr + sl->cut;
    *slab = sl;
    sl->cut += size;
    ++sl->live;
    p->used += (int64_t)size;
done:
    pthread_mutex_unlock(&p->lock);
    return s;
}

void gp_pool_free_piece(int32_t dev, void *slab, size_t n)
{
    pool_t *p = pool_of(dev);
    slab_t *sl = slab;
    size_t size = gp_pool_round(n);
    pthread_mutex_lock(&p->lock);
    block_t *k;
    if (p->capture && sl->stream == p->capture && (k = malloc(sizeof *k))) {
        /* the graph may still write the piece: it stays the graph's */
        k->ptr = NULL;
        k->size = size;
        k->slab = sl;
        k->next = p->retained;
        p->retained = k;
    } else if (--sl->live == 0 && !sl->active) {
        cache_block(p, sl->stream, sl->ptr, GP_POOL_SLAB_BYTES);
        free(sl);
    }
    p->used -= (int64_t)size;
    pthread_mutex_unlock(&p->lock);
}

void gp_pool_free(int32_t dev, void *stream, void *ptr, size_t n)
{
    pool_t *p = pool_of(dev);
    size_t size = gp_pool_round(n);
    pthread_mutex_lock(&p->lock);
    block_t *k;
    if (p->capture && stream == p->capture && (k = malloc(sizeof *k))) {
        /* the graph being captured may still write this block when it is
         * replayed: it stays the graph's until the graph is destroyed */
        k->ptr = ptr;
        k->size = size;
        k->slab = NULL;
        k->next = p->retained;
        p->retained = k;
    } else {
        cache_block(p, stream, ptr, size);
    }
    p->used -= (int64_t)size;
    pthread_mutex_unlock(&p->lock);
}

void gp_pool_forget_stream(int32_t dev, void *stream)
{
    pool_t *p = pool_of(dev);
    if (!p || !stream)
        return;
    /* the stream's work is done (its destroyer synchronized it): its blocks
     * join the default stream's lists, since the handle may be reused;
     * its slab is cut no more */
    pthread_mutex_lock(&p->lock);
    for (slab_t **q = &p->slabs; *q; q = &(*q)->next)
        if ((*q)->stream == stream) {
            slab_t *sl = *q;
            *q = sl->next;
            if (sl->live == 0)
                sl->stream = NULL;
            retire_slab(p, sl);
            break;
        }
    for (size_t i = 0; i < p->nbuckets; ++i) {
        bucket_t *b = &p->buckets[i];
        if (b->size == 0 || b->stream != stream || !b->head)
            continue;
        block_t *list = b->head;
        b->head = NULL;
        bucket_t *d = find(p->buckets, p->nbuckets, NULL, b->size);
        if (!d->size) {
            d->size = b->size;
            d->stream = NULL;
            ++p->nused;
        }
        while (list) {
            block_t *k = list;
            list = k->next;
            k->next = d->head;
            d->head = k;
        }
    }
    pthread_mutex_unlock(&p->lock);
}

gp_status_t gp_pool_free_all(const gp_backend_i *be, int32_t dev)
{
    pool_t *p = pool_of(dev);
    if (!p)
        return gp_set_error(GP_ERR_VALUE, "invalid device %d", dev);
    pthread_mutex_lock(&p->lock);
    release_cached(be, p);
    pthread_mutex_unlock(&p->lock);
    return GP_OK;
}

gp_status_t gp_pool_stats(int32_t dev, gp_memory_stats_t *out)
{
    pool_t *p = pool_of(dev);
    if (!p)
        return gp_set_error(GP_ERR_VALUE, "invalid device %d", dev);
    pthread_mutex_lock(&p->lock);
    out->used_bytes = p->used;
    out->total_bytes = p->total;
    out->free_blocks = p->free_blocks;
    out->limit_bytes = p->limit;
    pthread_mutex_unlock(&p->lock);
    return GP_OK;
}

gp_status_t gp_pool_set_limit(int32_t dev, int64_t limit)
{
    pool_t *p = pool_of(dev);
    if (!p)
        return gp_set_error(GP_ERR_VALUE, "invalid device %d", dev);
    if (limit < 0)
        return gp_set_error(GP_ERR_VALUE, "the memory limit must be >= 0");
    pthread_mutex_lock(&p->lock);
    p->limit = limit;
    pthread_mutex_unlock(&p->lock);
    return GP_OK;
}

void gp_pool_capture_begin(int32_t dev, void *stream)
{
    pool_t *p = pool_of(dev);
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->capture = stream;
    p->retained = NULL;
    pthread_mutex_unlock(&p->lock);
}

void *gp_pool_capture_end(int32_t dev)
{
    pool_t *p = pool_of(dev);
    if (!p)
        return NULL;
    pthread_mutex_lock(&p->lock);
    block_t *r = p->retained;
    p->capture = NULL;
    p->retained = NULL;
    pthread_mutex_unlock(&p->lock);
    return r;
}

void gp_pool_capture_release(int32_t dev, void *retained)
{
    /* the caller waited for the graph's last replay */
    block_t *list = retained;
    while (list) {
        block_t *k = list;
        list = k->next;
        pool_t *p = pool_of(dev);
        pthread_mutex_lock(&p->lock);
        p->used += (int64_t)k->size; /* gp_pool_free takes it back out */
        pthread_mutex_unlock(&p->lock);
        if (k->slab)
            gp_pool_free_piece(dev, k->slab, k->size);
        else
            gp_pool_free(dev, NULL, k->ptr, k->size);
        free(k);
    }
}
