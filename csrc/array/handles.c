/*
 * handles.c - where array descriptors live, so that a released handle is
 * told from a live one.
 *
 * An array handle is the address of its descriptor. Were descriptors
 * malloc'd, a released one's address would soon hold another array, and a
 * second release through the stale handle would free that live array (and
 * reading the freed descriptor at all is undefined). So descriptors come
 * from one range of address space reserved at first use, handed out front to
 * back and never twice: a released descriptor keeps its dead mark until
 * every descriptor of its page is released, and then the page is given back
 * to the system and reads as zeros. Either way a stale handle finds no live
 * mark, and every call through it returns GP_ERR_MISUSE.
 *
 * Each page starts with a count of its live descriptors, plus one while new
 * descriptors are still cut from it; the last release gives the page back.
 * A descriptor never straddles pages (GP_MAXDIM bounds its size). Only when
 * the range is used up (2^44 bytes: some 10^11 arrays) or cannot be
 * reserved do descriptors come from malloc, and handles fall back to the
 * dead mark alone.
 */
#define _DEFAULT_SOURCE /* MAP_NORESERVE, madvise */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <threads.h>
#include <unistd.h>

#include "array.h"

#define COMMIT_BYTES ((size_t)2 << 20) /* made writable this much at a time */

typedef struct {
    atomic_int live;
    int32_t pad_[3]; /* keeps descriptors 16-byte aligned */
} page_head;

static struct {
    once_flag once;
    mtx_t lock;
    char *base, *end;         /* the reserved range; NULL if none */
    char *committed;          /* [base, committed) is writable */
    _Atomic(char *) next;     /* [base, next) has been handed out */
    page_head *cur;           /* the page being cut, or NULL */
    size_t page;
} R = {.once = ONCE_FLAG_INIT};

static void reserve(void)
{
    mtx_init(&R.lock, mtx_plain);
    long page = sysconf(_SC_PAGESIZE);
    R.page = page >= 4096 ? (size_t)page : 4096;
    /* less where the address space is smaller (valgrind, limits) */
    for (int bits = 44; bits >= 28 && !R.base; bits -= 4) {
        void *p = mmap(NULL, (size_t)1 << bits, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p != MAP_FAILED) {
            R.base = p;
            R.end = R.base + ((size_t)1 << bits);
        }
    }
    R.committed = R.base;
    atomic_init(&R.next, R.base);
}

static page_head *head_of(const void *p)
{
    return (page_head *)((uintptr_t)p & ~(uintptr_t)(R.page - 1));
}

static void drop(page_head *h)
{
    if (atomic_fetch_sub_explicit(&h->live, 1, memory_order_acq_rel) == 1)
        madvise(h, R.page, MADV_DONTNEED);
}

/* Cuts `bytes` from the range, under the lock; NULL when it is used up. */
static void *cut(size_t bytes)
{
    char *next = atomic_load_explicit(&R.next, memory_order_relaxed);
    if (!R.cur || next + bytes > (char *)R.cur + R.page) {
        char *page = R.cur ? (char *)R.cur + R.page : R.base;
        if (page + R.page > R.end)
            return NULL;
        if (page + R.page > R.committed) {
            if (mprotect(R.committed, COMMIT_BYTES, PROT_READ | PROT_WRITE) != 0)
                return NULL;
            R.committed += COMMIT_BYTES;
        }
        page_head *h = (page_head *)page;
        atomic_init(&h->live, 1); /* the cutting's own reference */
        if (R.cur)
            drop(R.cur);
        R.cur = h;
        next = page + sizeof *h;
    }
    atomic_fetch_add_explicit(&R.cur->live, 1, memory_order_relaxed);
    atomic_store_explicit(&R.next, next + bytes, memory_order_release);
    return next;
}

gp_array_t *gp_handle_alloc(size_t bytes)
{
    call_once(&R.once, reserve);
    bytes = (bytes + 15) & ~(size_t)15;
    void *p = NULL;
    if (R.base && bytes <= R.page - sizeof(page_head)) {
        mtx_lock(&R.lock);
        p = cut(bytes);
        mtx_unlock(&R.lock);
    }
    return p ? p : malloc(bytes);
}

static bool in_range(const void *p)
{
    return R.base && (const char *)p >= R.base &&
           (const char *)p < atomic_load_explicit(&R.next, memory_order_acquire);
}

void gp_handle_free(gp_array_t *a)
{
    if (in_range(a))
        drop(head_of(a));
    else
        free(a);
}

bool gp_array_check(const gp_array_t *a)
{
    if (!a)
        return false;
    if (in_range(a)) {
        /* a page head, or a misaligned address inside the range, is no handle */
        if ((uintptr_t)a % 16 || (uintptr_t)a % R.page < sizeof(page_head))
            return false;
    } else if (R.base && (const char *)a >= R.base && (const char *)a < R.end) {
        return false; /* never handed out */
    }
    return a->magic == GP_ARRAY_MAGIC;
}
