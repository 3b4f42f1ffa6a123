/*
 * test_transfer.c - the staged host <-> device copies of transfer.c, on a
 * pretend GPU whose copies run late.
 *
 * The pretend backend queues every asynchronous copy and runs the queue only
 * as far as an event that is waited for (or all of it, for a blocking copy
 * and at the end), the latest a real copy engine could finish. A staging
 * buffer reused before its copy ran, or user memory read before its data
 * arrived, then shows up as wrong bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../memory/memory.h"
#include "check.h"

typedef struct {
    void *dst;
    const void *src;
    size_t n;
} op_t;

static op_t queue[4096];
static size_t queued, ran;
static size_t event_at[64]; /* queue position when each event was recorded */
static int events, capturing, direct_copies, staged_copies;

static void run_to(size_t k)
{
    for (; ran < k; ++ran)
        memcpy(queue[ran].dst, queue[ran].src, queue[ran].n);
}

static gp_status_t enqueue(void *dst, const void *src, size_t n, void *stream)
{
    (void)stream;
    if (queued == sizeof queue / sizeof *queue)
        return gp_set_error(GP_ERR_NOMEM, "pretend queue full");
    queue[queued++] = (op_t){dst, src, n};
    ++staged_copies;
    return GP_OK;
}

/* Page-locked memory (host_alloc's), which copies read or write late;
 * a copy from pageable memory reads it before returning, as the driver's. */
static void *pinned[16];
static size_t pinned_size[16];

static int is_pinned(const void *p, size_t n)
{
    for (int i = 0; i < 16; ++i)
        if (pinned[i] && (const char *)p >= (char *)pinned[i] &&
            (const char *)p + n <= (char *)pinned[i] + pinned_size[i])
            return 1;
    return 0;
}

static gp_status_t htod(void *dst, const void *src, size_t n, void *stream)
{
    if (is_pinned(src, n))
        return enqueue(dst, src, n, stream);
    ++direct_copies;
    memcpy(dst, src, n); /* the driver's own staging, done by the time it returns */
    return GP_OK;
}

static gp_status_t dtoh_async(void *dst, const void *src, size_t n, void *stream)
{
    CHECK(is_pinned(dst, n));
    return enqueue(dst, src, n, stream);
}

static gp_status_t dtoh_blocking(void *dst, const void *src, size_t n, void *stream)
{
    run_to(queued); /* stream order: everything queued before it */
    ++direct_copies;
    memcpy(dst, src, n);
    return GP_OK;
}

static gp_status_t host_alloc(size_t n, void **out)
{
    for (int i = 0; i < 16; ++i)
        if (!pinned[i]) {
            pinned[i] = *out = malloc(n);
            pinned_size[i] = n;
            return *out ? GP_OK : gp_set_error(GP_ERR_NOMEM, "no memory");
        }
    return gp_set_error(GP_ERR_NOMEM, "pretend page-locked memory exhausted");
}

static gp_status_t event_create(int32_t timing, void **out)
{
    (void)timing;
    *out = (void *)(uintptr_t)++events; /* never NULL */
    return GP_OK;
}

static gp_status_t event_record(void *e, void *s)
{
    (void)s;
    event_at[(uintptr_t)e] = queued;
    return GP_OK;
}

static gp_status_t event_synchronize(void *e)
{
    run_to(event_at[(uintptr_t)e]);
    return GP_OK;
}

static gp_status_t stream_capturing(void *s, int32_t *out)
{
    (void)s;
    *out = capturing;
    return GP_OK;
}

static const gp_backend_i pretend = {
    .name = "pretend",
    .host_alloc = host_alloc,
    .memcpy_htod = htod,
    .memcpy_dtoh = dtoh_blocking,
    .memcpy_dtoh_async = dtoh_async,
    .event_create = event_create,
    .event_record = event_record,
    .event_synchronize = event_synchronize,
    .stream_capturing = stream_capturing,
};

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; ++i)
        p[i] = (unsigned char)((i * 2654435761u) >> 13 ^ seed);
}

/* Host -> device -> host of n bytes; the source is overwritten as soon as
 * the copy to the device returns. */
static void round_trip(size_t n, unsigned seed)
{
    unsigned char *src = malloc(n + 1), *dev = malloc(n + 1), *back = malloc(n + 1),
                  *want = malloc(n + 1);
    if (!CHECK(src && dev && back && want))
        goto out;
    fill(src, n, seed);
    memcpy(want, src, n);
    if (CHECK_EQ(gp_transfer_htod(&pretend, dev, src, n, NULL), GP_OK)) {
        memset(src, 0xee, n);
        memset(back, 0x11, n);
        if (CHECK_EQ(gp_transfer_dtoh(&pretend, back, dev, n, NULL), GP_OK))
            if (!CHECK_EQ(memcmp(back, want, n), 0))
                fprintf(stderr, "    after a round trip of %zu bytes\n", n);
    }
out:
    run_to(queued);
    free(src), free(dev), free(back), free(want);
}

static void test_sizes(void)
{
    size_t mib = (size_t)1 << 20;
    size_t sizes[] = {0, 1, 4 * mib - 1, 4 * mib, 8 * mib, 8 * mib + 1, 37 * mib + 4097,
                      64 * mib};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; ++k) {
        check_state.test = "test_sizes";
        round_trip(sizes[k], (unsigned)k);
    }
}

static void test_small_copies_are_direct(void)
{
    direct_copies = staged_copies = 0;
    round_trip((size_t)1 << 20, 7);
    CHECK_EQ(direct_copies, 2);
    CHECK_EQ(staged_copies, 0);
}

static void test_large_copies_are_staged_in_chunks(void)
{
    direct_copies = staged_copies = 0;
    round_trip((size_t)40 << 20, 8); /* five chunks of 8 MiB each way */
    CHECK_EQ(direct_copies, 0);
    CHECK_EQ(staged_copies, 10);
}

static void test_captured_streams_copy_directly(void)
{
    capturing = 1;
    direct_copies = staged_copies = 0;
    round_trip((size_t)40 << 20, 9);
    CHECK_EQ(direct_copies, 2);
    CHECK_EQ(staged_copies, 0);
    capturing = 0;
}

int main(void)
{
    RUN(test_sizes);
    RUN(test_small_copies_are_direct);
    RUN(test_large_copies_are_staged_in_chunks);
    RUN(test_captured_streams_copy_directly);
    return check_summary("test_transfer");
}
