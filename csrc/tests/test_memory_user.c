/*
 * test_memory_user.c - the memory control users reach through the ABI, on
 * the host backend: pinned memory pools (csrc/memory/pinned.c), a user's
 * allocator called back for every array (gp_memory_set_allocator), raw
 * memory of each kind, memset, wrapped streams, host functions, and the
 * calls the host backend refuses.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gpunp.h"

static void test_pinned_pool(void)
{
    gp_pinned_pool_t *pool = NULL;
    if (!CHECK_EQ(gp_pinned_pool_create(&pool), GP_OK))
        return;
    void *a = NULL, *b = NULL, *c = NULL;
    gp_memory_stats_t st;
    CHECK_EQ(gp_pinned_pool_alloc(pool, 1000, &a), GP_OK);
    CHECK_EQ((uintptr_t)a % 256, 0);
    memset(a, 1, 1000);
    CHECK_EQ(gp_pinned_pool_stats(pool, &st), GP_OK);
    CHECK_EQ(st.used_bytes, 1024);
    CHECK_EQ(st.total_bytes, 1024);
    CHECK_EQ(st.free_blocks, 0);
    CHECK_EQ(gp_pinned_pool_release(pool, a, 1, NULL), GP_OK); /* waits on the stream */
    CHECK_EQ(gp_pinned_pool_release(pool, a, 0, NULL), GP_ERR_MISUSE); /* twice */
    CHECK_EQ(gp_pinned_pool_alloc(pool, 600, &b), GP_OK); /* rounds to 1024: a again */
    CHECK(b == a);
    CHECK_EQ(gp_pinned_pool_set_limit(pool, 2048), GP_OK);
    CHECK_EQ(gp_pinned_pool_alloc(pool, 1024, &c), GP_OK);
    void *d = NULL;
    CHECK_EQ(gp_pinned_pool_alloc(pool, 1, &d), GP_ERR_NOMEM);
    CHECK(d == NULL);
    CHECK_HAS_STR(gp_errmsg(), "limit");
    CHECK_EQ(gp_pinned_pool_release(pool, c, 0, NULL), GP_OK);
    CHECK_EQ(gp_pinned_pool_alloc(pool, 512, &d), GP_OK); /* c's idle block freed for it */
    CHECK_EQ(gp_pinned_pool_stats(pool, &st), GP_OK);
    CHECK_EQ(st.total_bytes, 1024 + 512);
    CHECK_EQ(st.limit_bytes, 2048);
    CHECK_EQ(gp_pinned_pool_release(pool, d, 0, NULL), GP_OK);
    CHECK_EQ(gp_pinned_pool_free_all(pool), GP_OK);
    CHECK_EQ(gp_pinned_pool_stats(pool, &st), GP_OK);
    CHECK_EQ(st.total_bytes, 1024);
    CHECK_EQ(st.free_blocks, 0);
    int local = 0;
    CHECK_EQ(gp_pinned_pool_release(pool, &local, 0, NULL), GP_ERR_MISUSE);
    CHECK_EQ(gp_pinned_pool_alloc(pool, -1, &d), GP_ERR_MISUSE);
    CHECK_EQ(gp_pinned_pool_set_limit(pool, -1), GP_ERR_VALUE);
    CHECK_EQ(gp_pinned_pool_destroy(pool), GP_OK); /* b still in use: freed with the pool */
    CHECK_EQ(gp_pinned_pool_destroy(NULL), GP_OK);
    CHECK_EQ(gp_pinned_pool_stats((gp_pinned_pool_t *)&local, &st), GP_ERR_MISUSE);
}

/* A user's allocator: malloc'd memory, every call and release counted. */
static int allocs, releases, mode; /* mode 0 serve, 1 decline, 2 fail */
static void *owners[64];

static int32_t user_alloc(int64_t size, uint64_t *ptr, void **owner)
{
    if (mode == 1)
        return GP_ALLOC_DECLINED;
    if (mode == 2)
        return GP_ERR_NOMEM_DEVICE;
    void *p = malloc(size ? (size_t)size : 1);
    owners[allocs++ % 64] = p;
    *ptr = (uint64_t)(uintptr_t)p;
    *owner = p;
    return GP_OK;
}

static void user_release(void *owner)
{
    ++releases;
    free(owner);
}

static void test_user_allocator(void)
{
    int64_t shape[1] = {100};
    gp_array_t *a = NULL, *b = NULL, *c = NULL;
    CHECK_EQ(gp_memory_set_allocator(user_alloc, NULL), GP_ERR_MISUSE);
    if (!CHECK_EQ(gp_memory_set_allocator(user_alloc, user_release), GP_OK))
        return;
    mode = 0;
    CHECK_EQ(gp_array_empty(GP_FLOAT64, 1, shape, 'C', &a), GP_OK);
    CHECK_EQ(allocs, 1);
    gp_array_info_t info;
    if (a && CHECK_EQ(gp_array_get_info(a, &info), GP_OK))
        CHECK(info.data == (uint64_t)(uintptr_t)owners[0]);
    gp_array_t *view = NULL;
    CHECK_EQ(gp_array_transpose(a, 0, NULL, &view), GP_OK);
    gp_array_release(a);
    CHECK_EQ(releases, 0); /* the view holds the buffer */
    gp_array_release(view);
    CHECK_EQ(releases, 1); /* once, with the last reference */
    mode = 1; /* declined: the engine's own allocation serves it */
    CHECK_EQ(gp_array_empty(GP_FLOAT64, 1, shape, 'C', &b), GP_OK);
    CHECK_EQ(allocs, 1);
    gp_array_release(b);
    CHECK_EQ(releases, 1);
    mode = 2; /* the allocator's failure is the allocation's */
    CHECK_EQ(gp_array_empty(GP_FLOAT64, 1, shape, 'C', &c), GP_ERR_NOMEM_DEVICE);
    CHECK(c == NULL);
    /* raw runtime memory never goes to the user's allocator */
    mode = 0;
    uint64_t raw = 0;
    CHECK_EQ(gp_memory_alloc(256, &raw), GP_OK);
    CHECK_EQ(allocs, 1);
    CHECK_EQ(gp_memory_free(raw, 256), GP_OK);
    CHECK_EQ(gp_memory_set_allocator(NULL, NULL), GP_OK);
    CHECK_EQ(gp_array_empty(GP_FLOAT64, 1, shape, 'C', &c), GP_OK);
    CHECK_EQ(allocs, 1);
    gp_array_release(c);
}

static void test_raw_kinds_and_memset(void)
{
    uint64_t p = 0;
    CHECK_EQ(gp_memory_alloc_kind(GP_MEMORY_MANAGED, 64, NULL, &p), GP_OK);
    if (p) {
        CHECK_EQ(gp_memset(p, 0x5a, 64, NULL, 1), GP_OK);
        CHECK_EQ(((unsigned char *)(uintptr_t)p)[63], 0x5a); /* the host addresses it */
        CHECK_EQ(gp_memory_free_kind(GP_MEMORY_MANAGED, p, 64, NULL), GP_OK);
    }
    CHECK_EQ(gp_memory_alloc_kind(GP_MEMORY_DIRECT, 32, NULL, &p), GP_OK);
    CHECK_EQ(gp_memory_free_kind(GP_MEMORY_DIRECT, p, 32, NULL), GP_OK);
    CHECK_EQ(gp_memory_alloc_kind(GP_MEMORY_ASYNC, 32, NULL, &p), GP_ERR_UNSUPPORTED);
    CHECK_HAS_STR(gp_errmsg(), "host backend");
    CHECK_EQ(gp_memory_alloc_kind(9, 32, NULL, &p), GP_ERR_VALUE);
    CHECK_EQ(gp_memset(0, 0, 8, NULL, 1), GP_ERR_MISUSE);
}

static int ran;
static void host_fn(void *arg) { ran = *(int *)arg; }

static void test_streams_and_refusals(void)
{
    gp_stream_t *s = NULL;
    CHECK_EQ(gp_stream_wrap(12345, &s), GP_OK);
    int value = 42;
    CHECK_EQ(gp_stream_launch_host_func(s, host_fn, &value), GP_OK);
    CHECK_EQ(ran, 42); /* the host's queued work is done: it ran at once */
    CHECK_EQ(gp_stream_synchronize(s), GP_OK);
    CHECK_EQ(gp_stream_destroy(s), GP_OK);
    CHECK_EQ(gp_stream_launch_host_func(NULL, NULL, NULL), GP_ERR_MISUSE);
    int32_t v = 0;
    CHECK_EQ(gp_driver_version(&v), GP_ERR_UNSUPPORTED);
    char buf[64];
    CHECK_EQ(gp_host_register(buf, sizeof buf, 0), GP_ERR_UNSUPPORTED);
    CHECK_HAS_STR(gp_errmsg(), "host backend");
    CHECK_EQ(gp_device_can_access_peer(0, 0, &v), GP_ERR_UNSUPPORTED);
    uint8_t h[64];
    CHECK_EQ(gp_ipc_get_mem_handle((uint64_t)(uintptr_t)buf, h), GP_ERR_UNSUPPORTED);
    gp_pointer_attributes_t at;
    CHECK_EQ(gp_pointer_get_attributes((uint64_t)(uintptr_t)buf, &at), GP_ERR_UNSUPPORTED);
    gp_event_t *e = NULL;
    CHECK_EQ(gp_event_create(GP_EVENT_INTERPROCESS, &e), GP_ERR_UNSUPPORTED);
    CHECK(e == NULL);
    void *hp = NULL;
    CHECK_EQ(gp_host_alloc(100, 0, &hp), GP_OK);
    CHECK(hp != NULL);
    CHECK_EQ(gp_host_free(hp), GP_OK);
}

int main(void)
{
    RUN(test_pinned_pool);
    RUN(test_user_allocator);
    RUN(test_raw_kinds_and_memset);
    RUN(test_streams_and_refusals);
    return check_summary("test_memory_user");
}
