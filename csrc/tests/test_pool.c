/*
 * test_pool.c - the caching pool of GPU backends (pool.c), its zeroed slabs
 * in particular, on a pretend device whose memory is host memory.
 *
 * The pretend driver fills every new allocation with garbage, logs each
 * memset with its stream, and counts a free of anything it did not hand out
 * (an interior pointer of a slab, say) as a failure; the tests end with
 * every block returned, so a leak shows too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../memory/memory.h"
#include "check.h"

#define SLAB GP_POOL_SLAB_BYTES

static struct {
    void *ptr;
    size_t size;
} live[256];
static int nlive, bad_frees, allocs;

typedef struct {
    char *ptr;
    size_t n;
    void *stream;
} memset_t;
static memset_t memsets[256];
static int nmemsets;

static gp_status_t mem_alloc(size_t n, void *stream, void **out)
{
    (void)stream;
    if (nlive == (int)(sizeof live / sizeof *live))
        return gp_set_error(GP_ERR_NOMEM_DEVICE, "pretend device full");
    void *p = aligned_alloc(256, (n + 255) & ~(size_t)255);
    if (!p)
        return gp_set_error(GP_ERR_NOMEM_DEVICE, "pretend device full");
    memset(p, 0xab, n);
    live[nlive].ptr = p;
    live[nlive++].size = n;
    ++allocs;
    *out = p;
    return GP_OK;
}

static gp_status_t mem_free(void *p, size_t n, void *stream)
{
    (void)stream;
    for (int i = 0; i < nlive; ++i)
        if (live[i].ptr == p && live[i].size == n) {
            live[i] = live[--nlive];
            free(p);
            return GP_OK;
        }
    ++bad_frees;
    return GP_OK;
}

static gp_status_t memset8(void *dst, uint8_t v, size_t n, void *stream)
{
    if (nmemsets < (int)(sizeof memsets / sizeof *memsets))
        memsets[nmemsets++] = (memset_t){dst, n, stream};
    memset(dst, v, n);
    return GP_OK;
}

static gp_status_t device_synchronize(void) { return GP_OK; }

static const gp_backend_i pretend = {
    .name = "pretend",
    .pooled = 1,
    .mem_alloc = mem_alloc,
    .mem_free = mem_free,
    .memset8 = memset8,
    .device_synchronize = device_synchronize,
};

static void *const A = (void *)(uintptr_t)0x1000, *const B = (void *)(uintptr_t)0x2000;

/* The latest memset covering [p, p + n): it must be on `stream`. */
static int zeroed_on(const void *p, size_t n, void *stream)
{
    for (int i = nmemsets - 1; i >= 0; --i)
        if ((const char *)p >= memsets[i].ptr &&
            (const char *)p + n <= memsets[i].ptr + memsets[i].n)
            return memsets[i].stream == stream;
    return 0;
}

static int all_zero(const void *p, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (((const unsigned char *)p)[i])
            return 0;
    return 1;
}

static void *piece(void *stream, size_t n, void **slab)
{
    void *p = NULL;
    *slab = NULL;
    if (!CHECK_EQ(gp_pool_alloc_zeroed(&pretend, 0, stream, n, &p, slab), GP_OK) ||
        !CHECK(p != NULL) || !CHECK(*slab != NULL))
        return NULL;
    CHECK(all_zero(p, n));
    CHECK(zeroed_on(p, n, stream));
    return p;
}

/* Everything handed back: nothing may be left with the pretend driver. */
static void drain(void)
{
    CHECK_EQ(gp_pool_free_all(&pretend, 0), GP_OK);
    CHECK_EQ(nlive, 0);
    CHECK_EQ(bad_frees, 0);
    gp_memory_stats_t st;
    if (CHECK_EQ(gp_pool_stats(0, &st), GP_OK)) {
        CHECK_EQ(st.used_bytes, 0);
        CHECK_EQ(st.total_bytes, 0);
    }
}

static void test_one_memset_for_many_pieces(void)
{
    enum { N = 200 };
    void *p[N], *slab[N];
    int m0 = nmemsets;
    for (int i = 0; i < N; ++i) {
        if (!(p[i] = piece(A, 4000, &slab[i])))
            return;
        memset(p[i], 0x5a, 4000); /* the user's writes */
    }
    CHECK_EQ(nmemsets - m0, 1);
    CHECK_EQ(memsets[m0].n, SLAB);
    for (int i = 1; i < N; ++i) {
        CHECK(slab[i] == slab[0]);
        CHECK_EQ((char *)p[i] - (char *)p[i - 1], 4096); /* a 512-byte multiple each */
    }
    gp_memory_stats_t st;
    if (CHECK_EQ(gp_pool_stats(0, &st), GP_OK)) {
        CHECK_EQ(st.used_bytes, N * 4096);
        CHECK_EQ(st.total_bytes, SLAB);
    }
    for (int i = 0; i < N; ++i)
        gp_pool_free_piece(0, slab[i], 4000);
    drain();
}

static void test_freed_pieces_are_not_zero_memory(void)
{
    void *s1, *s2;
    char *p = piece(A, 1000, &s1);
    if (!p)
        return;
    memset(p, 0x77, 1000);
    gp_pool_free_piece(0, s1, 1000);
    /* the next pieces come from further on, still zero, never from p */
    for (int i = 0; i < 100; ++i) {
        char *q = piece(A, 1000, &s2);
        if (!q)
            return;
        CHECK(q != p);
        memset(q, 0x66, 1000);
        gp_pool_free_piece(0, s2, 1000);
    }
    drain();
}

static void test_pieces_stay_on_their_stream(void)
{
    void *sa, *sb;
    char *pa = piece(A, 8192, &sa), *pb = piece(B, 8192, &sb);
    if (!pa || !pb)
        return;
    CHECK(sa != sb);
    CHECK(pb < pa || pb >= pa + SLAB); /* B's piece is not in A's slab */
    /* a slab emptied on A goes back to A's free list only */
    int m0 = nmemsets;
    gp_pool_free_piece(0, sb, 8192);
    gp_pool_forget_stream(0, (void *)(uintptr_t)0x3000); /* another stream: no effect */
    char *pb2 = piece(B, 8192, &sb);
    CHECK(sb != NULL && pb2 == pb + 8192);
    CHECK_EQ(nmemsets, m0);
    gp_pool_free_piece(0, sa, 8192);
    gp_pool_free_piece(0, sb, 8192);
    drain();
}

static void test_full_slab_returns_as_ordinary_block(void)
{
    enum { PIECE = 64 << 10, PER = (int)(SLAB / PIECE) };
    void *p[PER + 1], *slab[PER + 1];
    for (int i = 0; i <= PER; ++i)
        if (!(p[i] = piece(A, PIECE, &slab[i])))
            return;
    CHECK(slab[PER] != slab[0]); /* the first slab was cut up: a second one */
    for (int i = 1; i < PER; ++i)
        CHECK(slab[i] == slab[0]);
    char *base = p[0];
    for (int i = 0; i < PER; ++i)
        gp_pool_free_piece(0, slab[i], PIECE);
    /* the first slab's block is cached for A, not zeroed, and not B's */
    void *q = NULL, *r = NULL;
    int a0 = allocs;
    CHECK_EQ(gp_pool_alloc(&pretend, 0, B, SLAB, &r), GP_OK);
    CHECK(r != base);
    CHECK_EQ(allocs, a0 + 1);
    CHECK_EQ(gp_pool_alloc(&pretend, 0, A, SLAB, &q), GP_OK);
    CHECK(q == base);
    CHECK_EQ(allocs, a0 + 1);
    gp_pool_free(0, A, q, SLAB);
    gp_pool_free(0, B, r, SLAB);
    gp_pool_free_piece(0, slab[PER], PIECE);
    drain();
}

static void test_large_requests_decline(void)
{
    void *p = (void *)1, *slab = (void *)1;
    CHECK_EQ(gp_pool_alloc_zeroed(&pretend, 0, A, GP_POOL_PIECE_MAX + 1, &p, &slab), GP_OK);
    CHECK(p == NULL && slab == NULL);
    CHECK_EQ(nlive, 0);
    void *q = piece(A, GP_POOL_PIECE_MAX, &slab);
    if (q)
        gp_pool_free_piece(0, slab, GP_POOL_PIECE_MAX);
    drain();
}

static void test_capture(void)
{
    void *slab, *s2;
    char *p = piece(A, 512, &slab);
    if (!p)
        return;
    gp_pool_capture_begin(0, A);
    void *q = (void *)1;
    CHECK_EQ(gp_pool_alloc_zeroed(&pretend, 0, A, 512, &q, &s2), GP_OK);
    CHECK(q == NULL); /* the graph must replay a memset of its own */
    CHECK_EQ(gp_pool_alloc_zeroed(&pretend, 0, B, 512, &q, &s2), GP_OK);
    CHECK(q == NULL);
    /* freed while captured: the piece (so its slab) stays the graph's */
    gp_pool_free_piece(0, slab, 512);
    void *retained = gp_pool_capture_end(0);
    CHECK(retained != NULL);
    CHECK_EQ(gp_pool_free_all(&pretend, 0), GP_OK);
    CHECK_EQ(nlive, 1);
    gp_pool_capture_release(0, retained);
    drain();
}

static void test_free_all_keeps_slabs_in_use(void)
{
    void *s1, *s2;
    char *p = piece(A, 2048, &s1), *q = piece(B, 2048, &s2);
    if (!p || !q)
        return;
    gp_pool_free_piece(0, s2, 2048);
    CHECK_EQ(gp_pool_free_all(&pretend, 0), GP_OK);
    CHECK_EQ(nlive, 1); /* B's idle slab went back to the driver, A's is in use */
    CHECK_EQ(bad_frees, 0);
    CHECK(all_zero(p, 2048));
    gp_pool_free_piece(0, s1, 2048);
    drain();
}

static void test_forgotten_stream_gets_a_new_slab(void)
{
    void *s1, *s2;
    char *p = piece(A, 4096, &s1);
    if (!p)
        return;
    gp_pool_forget_stream(0, A);
    int m0 = nmemsets;
    char *q = piece(A, 4096, &s2); /* a new stream with A's handle */
    CHECK(s2 != s1);
    CHECK_EQ(nmemsets, m0 + 1);
    gp_pool_free_piece(0, s1, 4096);
    gp_pool_free_piece(0, s2, 4096);
    (void)q;
    drain();
}

int main(void)
{
    RUN(test_one_memset_for_many_pieces);
    RUN(test_freed_pieces_are_not_zero_memory);
    RUN(test_pieces_stay_on_their_stream);
    RUN(test_full_slab_returns_as_ordinary_block);
    RUN(test_large_requests_decline);
    RUN(test_capture);
    RUN(test_free_all_keeps_slabs_in_use);
    RUN(test_forgotten_stream_gets_a_new_slab);
    return check_summary("test_pool");
}
