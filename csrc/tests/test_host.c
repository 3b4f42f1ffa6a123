/*
 * test_host.c - the cache of host blocks behind large .get() results
 * (csrc/memory/host.c): reuse of released blocks of similar sizes, the
 * limit on blocks kept, and misuse.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gpunp.h"

static void test_released_blocks_are_reused(void)
{
    int64_t mib = 1 << 20;
    void *a = NULL, *b = NULL, *c = NULL;
    if (!CHECK_EQ(gp_host_block_new(40 * mib, &a), GP_OK) || !CHECK(a != NULL))
        return;
    CHECK_EQ((uintptr_t)a % 64, 0);
    memset(a, 7, (size_t)(40 * mib)); /* writable, every byte */
    CHECK_EQ(gp_host_block_release(a), GP_OK);
    /* a little smaller or larger fits the same 2 MiB pages: the same block */
    CHECK_EQ(gp_host_block_new(39 * mib, &b), GP_OK);
    CHECK(b == a);
    CHECK_EQ(((unsigned char *)b)[12345], 7);
    CHECK_EQ(gp_host_block_release(b), GP_OK);
    /* more than a quarter smaller: a new block, not a waste of that one */
    CHECK_EQ(gp_host_block_new(8 * mib, &c), GP_OK);
    CHECK(c != a);
    CHECK_EQ(gp_host_block_release(c), GP_OK);
    CHECK_EQ(gp_host_block_free_all(NULL), GP_OK);
}

static void test_the_cache_keeps_at_most_eight_blocks(void)
{
    void *p[9];
    for (int i = 0; i < 9; ++i)
        CHECK_EQ(gp_host_block_new((int64_t)(i + 1) << 20, &p[i]), GP_OK);
    for (int i = 0; i < 9; ++i)
        CHECK_EQ(gp_host_block_release(p[i]), GP_OK);
    /* kept: the first eight, mapped in whole 2 MiB pages with their header
     * (2, 4, 4, 6, 6, 8, 8, 10 MiB); the ninth was unmapped */
    int64_t freed = -1;
    CHECK_EQ(gp_host_block_free_all(&freed), GP_OK);
    CHECK_EQ(freed, (int64_t)48 << 20);
    CHECK_EQ(gp_host_block_free_all(&freed), GP_OK); /* nothing left */
    CHECK_EQ(freed, 0);
}

static void test_misuse(void)
{
    void *out = (void *)1;
    CHECK_EQ(gp_host_block_new(-1, &out), GP_ERR_MISUSE);
    CHECK(out == (void *)1);
    CHECK_EQ(gp_host_block_new(1, NULL), GP_ERR_MISUSE);
    CHECK_EQ(gp_host_block_release(NULL), GP_OK);
    char *heap = calloc(1, 256); /* memory the cache did not hand out */
    if (CHECK(heap != NULL))
        CHECK_EQ(gp_host_block_release(heap + 128), GP_ERR_MISUSE);
    free(heap);
    void *z = NULL;
    CHECK_EQ(gp_host_block_new(0, &z), GP_OK);
    CHECK(z != NULL);
    CHECK_EQ(gp_host_block_release(z), GP_OK);
    CHECK_EQ(gp_host_block_free_all(NULL), GP_OK);
}

int main(void)
{
    RUN(test_released_blocks_are_reused);
    RUN(test_the_cache_keeps_at_most_eight_blocks);
    RUN(test_misuse);
    return check_summary("test_host");
}
