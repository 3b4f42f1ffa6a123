/*
 * test_zeroed.c - zeroed buffers (memory.c): small ones are pieces of a slab
 * that one memset zeroed; large ones, empty ones, those on a stream being
 * captured and those of a backend without a pool get a memset of their own.
 *
 * The host backend has no pool, so the engine is driven through
 * gp_buffer_zeroed_on with a model backend: the host's vtable, pooled, with
 * a memset that records what it zeroed and on which stream, and a capture
 * state the test sets. A piece is right when a memset on its stream,
 * queued before the piece was handed out, covers it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../memory/memory.h"
#include "gp_test.h"

static gp_backend_i model;
static const gp_backend_i *host;
static int capturing;

enum { MAX_SETS = 256 };
static struct {
    char *ptr;
    size_t n;
    void *stream;
} sets[MAX_SETS];
static int nsets;

static gp_status_t model_memset8(void *dst, uint8_t value, size_t n, void *stream)
{
    if (nsets < MAX_SETS && value == 0)
        sets[nsets].ptr = dst, sets[nsets].n = n, sets[nsets++].stream = stream;
    return host->memset8(dst, value, n, stream);
}

static gp_status_t model_capturing(void *s, int32_t *out)
{
    (void)s;
    *out = capturing;
    return GP_OK;
}

/* Whether a recorded memset on `stream` covers [p, p + n). */
static int zeroed_by_a_memset(const gp_buffer_t *b)
{
    const char *p = b->ptr;
    for (int k = 0; k < nsets; ++k)
        if (sets[k].stream == b->stream && sets[k].ptr <= p && p + b->size <= sets[k].ptr + sets[k].n)
            return 1;
    return 0;
}

static int all_zero(const gp_buffer_t *b)
{
    for (size_t k = 0; k < b->size; ++k)
        if (((const unsigned char *)b->ptr)[k])
            return 0;
    return 1;
}

static gp_buffer_t *zeroed_on(void *stream, size_t n)
{
    gp_buffer_t *b = NULL;
    CHECK_OK(gp_buffer_zeroed_on(&model, stream, n, &b));
    return b;
}

static gp_buffer_t *zeroed(size_t n) { return zeroed_on(NULL, n); }

static void fresh(void)
{
    gp_zeroed_forget(0, NULL, true);
    nsets = 0;
    capturing = 0;
}

static void test_pieces_share_one_memset(void)
{
    fresh();
    enum { N = 65 };
    gp_buffer_t *p[N];
    for (int k = 0; k < N; ++k) {
        p[k] = zeroed(4000);
        if (!CHECK(p[k] != NULL))
            return;
        CHECK(p[k]->deleter != NULL);
        CHECK_EQ(p[k]->size, 4000);
        /* as aligned as the slab (a pool block: 512 bytes on a GPU) */
        CHECK_EQ(((char *)p[k]->ptr - (char *)((gp_buffer_t *)p[k]->deleter_ctx)->ptr) % 512, 0);
        CHECK(zeroed_by_a_memset(p[k]));
        CHECK(all_zero(p[k]));
        memset(p[k]->ptr, 0xab, p[k]->size); /* the caller's use */
    }
    /* 64 pieces of 4096 bytes fill one slab of 256 KiB; the 65th starts one */
    CHECK_EQ(nsets, 2);
    for (int k = 1; k < 64; ++k)
        CHECK_EQ((char *)p[k]->ptr - (char *)p[k - 1]->ptr, 4096);
    CHECK(p[64]->deleter_ctx != p[63]->deleter_ctx);
    /* the full slab: a reference per piece (it is no longer carved) */
    gp_buffer_t *full = p[0]->deleter_ctx, *cur = p[64]->deleter_ctx;
    CHECK_EQ(atomic_load(&full->refs), 64);
    CHECK_EQ(atomic_load(&cur->refs), 2);
    for (int k = 0; k < 63; ++k)
        gp_buffer_release(p[k]);
    CHECK_EQ(atomic_load(&full->refs), 1);
    gp_buffer_release(p[63]); /* the slab goes back with its last piece */
    /* the next piece comes after the one in use, untouched by it */
    gp_buffer_t *q = zeroed(100);
    if (CHECK(q != NULL)) {
        CHECK_EQ((char *)q->ptr - (char *)p[64]->ptr, 4096);
        CHECK(all_zero(q));
        CHECK_EQ(nsets, 2);
        gp_buffer_release(q);
    }
    gp_buffer_release(p[64]);
}

static void test_a_stream_gets_its_own_slab(void)
{
    fresh();
    void *other = (void *)(uintptr_t)0x5000; /* a stream handle, never dereferenced */
    gp_buffer_t *a = zeroed(512), *b = zeroed_on(other, 512), *c = zeroed(512);
    if (CHECK(a && b && c)) {
        CHECK_EQ(nsets, 3);
        CHECK(b->stream == other && a->stream == NULL);
        CHECK(sets[1].stream == other);
        CHECK(zeroed_by_a_memset(a) && zeroed_by_a_memset(b) && zeroed_by_a_memset(c));
        CHECK(a->deleter_ctx != b->deleter_ctx && b->deleter_ctx != c->deleter_ctx);
    }
    gp_buffer_t *d = zeroed(512); /* the default stream's slab goes on */
    if (CHECK(d != NULL)) {
        CHECK_EQ(nsets, 3);
        CHECK(d->deleter_ctx == c->deleter_ctx);
    }
    /* a destroyed stream's slab is not carved again (a new stream may
     * reuse the handle); another stream's slab stays */
    gp_buffer_t *e = zeroed_on(other, 512);
    gp_zeroed_forget(0, other, false);
    gp_zeroed_forget(0, NULL, false);
    gp_buffer_t *f = zeroed_on(other, 512);
    if (CHECK(e && f)) {
        CHECK_EQ(nsets, 5);
        CHECK(f->deleter_ctx != e->deleter_ctx);
    }
    gp_buffer_release(a), gp_buffer_release(b), gp_buffer_release(c);
    gp_buffer_release(d), gp_buffer_release(e), gp_buffer_release(f);
}

static void test_some_buffers_are_zeroed_alone(void)
{
    fresh();
    capturing = 1; /* a graph replays its memsets: a slab's would run once */
    gp_buffer_t *a = zeroed(100);
    capturing = 0;
    gp_buffer_t *big = zeroed((16 << 10) + 1);
    gp_buffer_t *none = zeroed(0);
    if (CHECK(a && big && none)) {
        CHECK(a->deleter == NULL && big->deleter == NULL && none->deleter == NULL);
        CHECK_EQ(nsets, 2);
        CHECK(sets[0].ptr == a->ptr && sets[0].n == 100);
        CHECK(sets[1].ptr == big->ptr && sets[1].n == (16 << 10) + 1);
        CHECK(all_zero(a) && all_zero(big));
    }
    gp_buffer_release(a);
    gp_buffer_release(big);
    gp_buffer_release(none);
    /* without a pool (the host backend itself): a memset each */
    gp_buffer_t *h = NULL;
    if (CHECK_OK(gp_buffer_zeroed_on(host, NULL, 64, &h)))
        CHECK(h->deleter == NULL && all_zero(h));
    gp_buffer_release(h);
}

static void test_releasing_the_cache_retires_the_slab(void)
{
    fresh();
    gp_buffer_t *a = zeroed(1000);
    CHECK_OK(gp_memory_free_all_blocks(0));
    gp_buffer_t *b = zeroed(1000);
    if (CHECK(a && b)) {
        CHECK_EQ(nsets, 2);
        CHECK(a->deleter_ctx != b->deleter_ctx);
        CHECK_EQ(atomic_load(&((gp_buffer_t *)a->deleter_ctx)->refs), 1);
    }
    gp_buffer_release(a);
    gp_buffer_release(b);
    gp_zeroed_forget(0, NULL, true);
}

static void test_zeros_through_the_api(void)
{
    int64_t shape[2] = {3, 5};
    gp_array_t *z = NULL;
    if (!CHECK_OK(gp_array_zeros(GP_FLOAT64, 2, shape, GP_ORDER_F, &z)))
        return;
    double v[15];
    CHECK_EQ(gather(z, v), 15);
    for (int k = 0; k < 15; ++k)
        CHECK(v[k] == 0.0);
    gp_array_info_t info;
    CHECK_OK(gp_array_get_info(z, &info));
    CHECK_EQ(info.strides[0], 8);
    CHECK_EQ(info.strides[1], 24);
    /* zeros_like follows the prototype's axis order (K) or the order asked for */
    gp_array_t *zk = NULL, *zc = NULL;
    if (CHECK_OK(gp_array_zeros_like(z, GP_INT16, GP_ORDER_K, &zk)) &&
        CHECK_OK(gp_array_zeros_like(z, GP_INT16, GP_ORDER_C, &zc))) {
        int16_t w[15];
        CHECK_EQ(gather(zk, w), 15);
        for (int k = 0; k < 15; ++k)
            CHECK(w[k] == 0);
        CHECK_OK(gp_array_get_info(zk, &info));
        CHECK(info.dtype == GP_INT16 && info.strides[0] == 2 && info.strides[1] == 6);
        CHECK_OK(gp_array_get_info(zc, &info));
        CHECK(info.strides[0] == 10 && info.strides[1] == 2);
    }
    gp_array_release(zk);
    gp_array_release(zc);
    CHECK_STATUS(gp_array_zeros_like(z, GP_FLOAT64, 77, &zk), GP_ERR_VALUE);
    gp_array_release(z);
    CHECK_STATUS(gp_array_zeros(GP_FLOAT64, 2, shape, GP_ORDER_K, &z), GP_ERR_VALUE);
    int64_t bad[1] = {-1};
    CHECK_STATUS(gp_array_zeros(GP_FLOAT64, 1, bad, GP_ORDER_C, &z), GP_ERR_VALUE);
    CHECK_STATUS(gp_array_zeros(GP_FLOAT64, 99, shape, GP_ORDER_C, &z), GP_ERR_VALUE);
}

int main(void)
{
    if (gp_test_init() && CHECK_OK(gp_backend(&host))) {
        model = *host;
        model.pooled = 1;
        model.memset8 = model_memset8;
        model.stream_capturing = model_capturing;
        RUN(test_pieces_share_one_memset);
        RUN(test_a_stream_gets_its_own_slab);
        RUN(test_some_buffers_are_zeroed_alone);
        RUN(test_releasing_the_cache_retires_the_slab);
        RUN(test_zeros_through_the_api);
    }
    return check_summary("test_zeroed");
}
