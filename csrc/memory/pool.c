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
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory.h"

#define MAX_DEVICES 64

typedef struct block {
    struct block *next;
    void *ptr;
    size_t size;
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
}

static gp_status_t out_of_memory(pool_t *p, size_t n, const char *why)
{
    return gp_set_error(GP_ERR_NOMEM_DEVICE,
                        "Out of memory allocating %zu bytes (allocated so far: %lld bytes, "
                        "cached: %lld bytes%s%s)",
                        n, (long long)p->used, (long long)(p->total - p->used),
                        why ? "; " : "", why ? why : "");
}

gp_status_t gp_pool_alloc(const gp_backend_i *be, int32_t dev, void *stream, size_t n,
                          void **out)
{
    pool_t *p = pool_of(dev);
    if (!p)
        return gp_set_error(GP_ERR_VALUE, "invalid device %d", dev);
    size_t size = gp_pool_round(n);
    pthread_mutex_lock(&p->lock);
    gp_status_t s = GP_OK;
    if (2 * (p->nused + 1) > p->nbuckets && !grow(p)) {
        s = gp_set_error(GP_ERR_NOMEM, "out of host memory for the memory pool");
        goto done;
    }
    bucket_t *b = find(p->buckets, p->nbuckets, stream, size);
    if (b->size && b->head) {
        block_t *k = b->head;
        b->head = k->next;
        *out = k->ptr;
        free(k);
        --p->free_blocks;
        p->used += (int64_t)size;
        goto done;
    }
    if (p->limit && p->total + (int64_t)size > p->limit) {
        release_cached(be, p);
        if (p->total + (int64_t)size > p->limit) {
            char why[96];
            snprintf(why, sizeof why, "limit: %lld bytes", (long long)p->limit);
            s = out_of_memory(p, size, why);
            goto done;
        }
    }
    s = be->mem_alloc(size, stream, out);
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
done:
    pthread_mutex_unlock(&p->lock);
    return s;
}

void gp_pool_free(int32_t dev, void *stream, void *ptr, size_t n)
{
    pool_t *p = pool_of(dev);
    block_t *k = malloc(sizeof *k);
    size_t size = gp_pool_round(n);
    pthread_mutex_lock(&p->lock);
    if (k && p->capture && stream == p->capture) {
        /* the graph being captured may still write this block when it is
         * replayed: it stays the graph's until the graph is destroyed */
        k->ptr = ptr;
        k->size = size;
        k->next = p->retained;
        p->retained = k;
        p->used -= (int64_t)size;
        pthread_mutex_unlock(&p->lock);
        return;
    }
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
        k->next = b->head;
        b->head = k;
        ++p->free_blocks;
    } else {
        /* no room to cache it: give it back */
        const gp_backend_i *be = gp_backend_running();
        free(k);
        if (be) {
            be->device_synchronize();
            be->mem_free(ptr, size, NULL);
        }
        p->total -= (int64_t)size;
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
     * join the default stream's lists, since the handle may be reused */
    pthread_mutex_lock(&p->lock);
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
        gp_pool_free(dev, NULL, k->ptr, k->size);
        free(k);
    }
}
