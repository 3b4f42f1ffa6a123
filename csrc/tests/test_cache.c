/*
 * test_cache.c - the kernel cache's reading of an entry (cache.c): a
 * header whose lengths do not fit the file is refused before anything it
 * describes is read.
 *
 * Each entry is placed to end where an unmapped page begins, so a read of
 * one byte past it faults instead of passing unseen. The entry format is
 * written out here by hand: an 8-byte magic, the identity text's length,
 * the image's length and the image's FNV-1a hash (native 64-bit words),
 * then the identity text and the image.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../cache/cache.h"
#include "gp_test.h"

#define HEADER 32

static const char IDENT[] = "cc|a compiler 1.0| -O2\nthe source of a kernel, long enough to "
                            "run past the end of a short entry";
static const char IMAGE[] = "an image";

static unsigned char *region;
static size_t region_len;

/* Room for `n` bytes that end where an unmapped page begins. */
static unsigned char *at_page_end(size_t n)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t pages = (n + page - 1) / page + 1;
    if (region)
        munmap(region, region_len);
    region_len = pages * page;
    region = mmap(NULL, region_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region == MAP_FAILED || mprotect(region + region_len - page, page, PROT_NONE) != 0)
        return NULL;
    return region + region_len - page - n;
}

/* An entry of `size` bytes at a page's end: the header with the lengths
 * given, then as much of the identity text and image as fits. */
static unsigned char *entry(size_t size, uint64_t ident_len, uint64_t image_len)
{
    unsigned char *e = at_page_end(size);
    if (!e)
        return NULL;
    unsigned char whole[HEADER + sizeof IDENT + sizeof IMAGE];
    uint64_t hash = gp_fnv1a(GP_FNV_SEED, IMAGE, strlen(IMAGE));
    memcpy(whole, "GPNPKC01", 8);
    memcpy(whole + 8, &ident_len, 8);
    memcpy(whole + 16, &image_len, 8);
    memcpy(whole + 24, &hash, 8);
    memcpy(whole + HEADER, IDENT, strlen(IDENT));
    memcpy(whole + HEADER + strlen(IDENT), IMAGE, strlen(IMAGE));
    memcpy(e, whole, size < sizeof whole ? size : sizeof whole);
    return e;
}

static int parses(const unsigned char *e, size_t size)
{
    const void *img = NULL;
    size_t len = 0;
    return e && gp_cache_entry_image(e, size, IDENT, strlen(IDENT), &img, &len) &&
           len == strlen(IMAGE) && memcmp(img, IMAGE, len) == 0;
}

static void test_a_whole_entry_gives_its_image(void)
{
    size_t size = HEADER + strlen(IDENT) + strlen(IMAGE);
    CHECK(parses(entry(size, strlen(IDENT), strlen(IMAGE)), size));
}

static void test_lengths_past_the_end_are_refused(void)
{
    size_t L = strlen(IDENT);
    /* the identity text claimed whole in a file 8 bytes short of it, the
     * image's length wrapped below zero to match the file's size */
    size_t size = HEADER + L - 8;
    CHECK(!parses(entry(size, L, (uint64_t)size - HEADER - L), size));
    /* the same, the image's length honest */
    CHECK(!parses(entry(size, L, 0), size));
    /* an image longer than what is left */
    size = HEADER + L + strlen(IMAGE) - 1;
    CHECK(!parses(entry(size, L, strlen(IMAGE)), size));
    /* an identity text longer than the file */
    size = HEADER + L + strlen(IMAGE);
    CHECK(!parses(entry(size, UINT64_MAX, strlen(IMAGE) + L + 1), size));
    /* shorter than a header, and empty */
    CHECK(!parses(entry(HEADER - 1, L, strlen(IMAGE)), HEADER - 1));
    CHECK(!parses(entry(0, 0, 0), 0));
}

int main(void)
{
    RUN(test_a_whole_entry_gives_its_image);
    RUN(test_lengths_past_the_end_are_refused);
    return check_summary("test_cache");
}
