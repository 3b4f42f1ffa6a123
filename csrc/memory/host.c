/*
 * host.c - host memory for large arrays copied back from the device.
 *
 * A new NumPy array of 32 MiB or more is freshly mapped memory: a copy into
 * it faults every page in as it writes them. On the H200 machine that holds
 * a 1 GiB copy back to 8.6-10.7 GB/s, where the same copy into memory
 * already touched runs at 33 GB/s (docs/performance.md). So the results of
 * `get()` live in blocks that go back to a small cache when NumPy frees the
 * array, and the next result of a similar size reuses their pages. The cache
 * holds at most CACHE_BLOCKS blocks and an eighth of the machine's memory
 * (at most 4 GiB); a block that does not fit is unmapped.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "memory.h"

enum { CACHE_BLOCKS = 8 };
#define HOST_MAGIC 0x67706e70686f7374ull /* "gpnphost" */
#define HEADER 64                         /* keeps the data 64-byte aligned */

typedef struct {
    uint64_t magic;
    size_t size; /* of the mapping, header included */
} header_t;

static struct {
    pthread_mutex_t m;
    header_t *block[CACHE_BLOCKS];
    size_t held; /* bytes in the cache */
} cache = {.m = PTHREAD_MUTEX_INITIALIZER};

static size_t cache_limit(void)
{
    static size_t limit;
    if (!limit) {
        long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
        size_t ram = pages > 0 && psz > 0 ? (size_t)pages * (size_t)psz : ((size_t)8 << 30);
        limit = ram / 8 < ((size_t)4 << 30) ? ram / 8 : ((size_t)4 << 30);
    }
    return limit;
}

/* Mapping sizes: whole 2 MiB pages, so that blocks of nearby sizes share. */
static size_t mapping_size(int64_t nbytes)
{
    size_t huge = (size_t)2 << 20;
    return ((size_t)nbytes + HEADER + huge - 1) / huge * huge;
}

GP_API gp_status_t gp_host_block_new(int64_t nbytes, void **out)
{
    if (!out || nbytes < 0)
        return gp_set_error(GP_ERR_MISUSE, "gp_host_block_new: invalid argument");
    *out = NULL;
    size_t want = mapping_size(nbytes);
    header_t *h = NULL;
    pthread_mutex_lock(&cache.m);
    /* the smallest cached block that holds it, wasting at most a quarter */
    int best = -1;
    for (int i = 0; i < CACHE_BLOCKS; ++i)
        if (cache.block[i] && cache.block[i]->size >= want &&
            cache.block[i]->size - want <= want / 4 &&
            (best < 0 || cache.block[i]->size < cache.block[best]->size))
            best = i;
    if (best >= 0) {
        h = cache.block[best];
        cache.block[best] = NULL;
        cache.held -= h->size;
    }
    pthread_mutex_unlock(&cache.m);
    if (!h) {
        void *p = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return gp_set_error(GP_ERR_NOMEM, "out of host memory for %lld bytes",
                                (long long)nbytes);
#ifdef MADV_HUGEPAGE
        madvise(p, want, MADV_HUGEPAGE); /* fewer faults where the kernel allows */
#endif
        h = p;
        h->magic = HOST_MAGIC;
        h->size = want;
    }
    *out = (char *)h + HEADER;
    return GP_OK;
}

GP_API gp_status_t gp_host_block_release(void *p)
{
    if (!p)
        return GP_OK;
    header_t *h = (header_t *)((char *)p - HEADER);
    if (h->magic != HOST_MAGIC)
        return gp_set_error(GP_ERR_MISUSE, "gp_host_block_release: not a host block");
    pthread_mutex_lock(&cache.m);
    int slot = -1;
    for (int i = 0; i < CACHE_BLOCKS && slot < 0; ++i)
        if (!cache.block[i])
            slot = i;
    bool keep = slot >= 0 && cache.held + h->size <= cache_limit();
    if (keep) {
        cache.block[slot] = h;
        cache.held += h->size;
    }
    pthread_mutex_unlock(&cache.m);
    if (!keep)
        munmap(h, h->size);
    return GP_OK;
}

GP_API gp_status_t gp_host_block_free_all(int64_t *freed)
{
    int64_t n = 0;
    header_t *drop[CACHE_BLOCKS];
    pthread_mutex_lock(&cache.m);
    memcpy(drop, cache.block, sizeof drop);
    memset(cache.block, 0, sizeof cache.block);
    cache.held = 0;
    pthread_mutex_unlock(&cache.m);
    for (int i = 0; i < CACHE_BLOCKS; ++i)
        if (drop[i]) {
            n += (int64_t)drop[i]->size;
            munmap(drop[i], drop[i]->size);
        }
    if (freed)
        *freed = n;
    return GP_OK;
}
