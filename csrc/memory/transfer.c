/*
 * transfer.c - copies of arrays between host memory and the device.
 *
 * The driver copies pageable host memory through staging buffers of its own,
 * on the calling thread: on the H200 machine that gives 9.5 GB/s to the
 * device and 3.9 GB/s back (bench/, docs/performance.md), where the copy
 * engines move 55 GB/s from page-locked memory. Above STAGE_MIN bytes gpunp
 * stages instead through a ring of page-locked buffers per device: while the
 * copy engine moves one chunk, several CPU threads copy the next one between
 * the user's memory and the ring. GPUNP_TRANSFER=direct keeps the driver's
 * path (bench/ measures one against the other).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "memory.h"

enum { STAGE_BUFS = 4, MAX_THREADS = 8, MAX_DEVICES = 64 };
#define STAGE_CHUNK ((size_t)8 << 20)
#define STAGE_MIN ((size_t)4 << 20)

/* ---- memcpy on several threads ------------------------------------------------- */

/* One job at a time (`use` is held for a whole job, by callers of any
 * device); helpers copy parts 1.. and the caller part 0. */
static struct {
    pthread_mutex_t use, m;
    pthread_cond_t go, done;
    int helpers;            /* started */
    unsigned long job;      /* generation: helpers run each new one once */
    char *dst;
    const char *src;
    size_t n, part;
    int left;               /* helpers still copying */
} team = {.use = PTHREAD_MUTEX_INITIALIZER, .m = PTHREAD_MUTEX_INITIALIZER,
          .go = PTHREAD_COND_INITIALIZER, .done = PTHREAD_COND_INITIALIZER};

static void *helper(void *arg)
{
    size_t id = (size_t)(uintptr_t)arg;
    unsigned long seen = 0; /* helpers start before the first job */
    pthread_mutex_lock(&team.m);
    for (;;) {
        while (team.job == seen)
            pthread_cond_wait(&team.go, &team.m);
        seen = team.job;
        size_t off = id * team.part;
        size_t len = off < team.n ? (team.n - off < team.part ? team.n - off : team.part) : 0;
        char *d = team.dst + off;
        const char *s = team.src + off;
        pthread_mutex_unlock(&team.m);
        if (len)
            memcpy(d, s, len);
        pthread_mutex_lock(&team.m);
        if (--team.left == 0)
            pthread_cond_signal(&team.done);
    }
    return NULL;
}

/* A forked child has none of the parent's threads. */
static void team_forget(void)
{
    pthread_mutex_init(&team.use, NULL);
    pthread_mutex_init(&team.m, NULL);
    pthread_cond_init(&team.go, NULL);
    pthread_cond_init(&team.done, NULL);
    team.helpers = 0;
}

/* One thread per core, up to MAX_THREADS with the caller. */
static void team_start_once(void)
{
    pthread_atfork(NULL, NULL, team_forget);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int want = cores > MAX_THREADS ? MAX_THREADS : (int)(cores > 1 ? cores : 1);
    pthread_mutex_lock(&team.m);
    for (int k = 1; k < want; ++k) {
        pthread_t t;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        int ok = pthread_create(&t, &at, helper, (void *)(uintptr_t)k) == 0;
        pthread_attr_destroy(&at);
        if (!ok)
            break;
        team.helpers++;
    }
    pthread_mutex_unlock(&team.m);
}

static void team_start(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, team_start_once);
}

static void copy_on_team(void *dst, const void *src, size_t n)
{
    pthread_mutex_lock(&team.use);
    pthread_mutex_lock(&team.m);
    size_t h = (size_t)team.helpers;
    if (h == 0 || n < (h + 1) * 65536) { /* waking the team costs more */
        pthread_mutex_unlock(&team.m);
        memcpy(dst, src, n);
        pthread_mutex_unlock(&team.use);
        return;
    }
    /* parts of whole pages, so that no two threads fault in the same one */
    size_t part = ((n + h) / (h + 1) + 4095) & ~(size_t)4095;
    team.dst = dst;
    team.src = src;
    team.n = n;
    team.part = part;
    team.left = h;
    team.job++;
    pthread_cond_broadcast(&team.go);
    pthread_mutex_unlock(&team.m);
    memcpy(dst, src, part < n ? part : n);
    pthread_mutex_lock(&team.m);
    while (team.left > 0)
        pthread_cond_wait(&team.done, &team.m);
    pthread_mutex_unlock(&team.m);
    pthread_mutex_unlock(&team.use);
}

/* ---- the staging rings ---------------------------------------------------------- */

typedef struct ring {
    pthread_mutex_t m;
    void *buf[STAGE_BUFS];
    void *event[STAGE_BUFS];
    int pending[STAGE_BUFS]; /* a copy to or from buf[i] may still be running */
    int failed;              /* page-locked memory was refused: copy directly */
} ring_t;

static ring_t *rings[MAX_DEVICES];
static pthread_mutex_t rings_m = PTHREAD_MUTEX_INITIALIZER;

static int direct_only(const gp_backend_i *be)
{
    static int which = -1;
    if (which < 0) {
        const char *e = getenv("GPUNP_TRANSFER");
        which = (e && strcmp(e, "direct") == 0) || !be->host_alloc || !be->memcpy_dtoh_async
                || !be->event_create;
    }
    return which;
}

/* The current device's ring, locked; NULL where staging is not possible.
 * Its buffers and events are made on first use and kept. */
static ring_t *ring_lock(const gp_backend_i *be)
{
    int32_t dev = gp_current_device();
    if (dev < 0 || dev >= MAX_DEVICES)
        return NULL;
    pthread_mutex_lock(&rings_m);
    if (!rings[dev]) {
        ring_t *r = calloc(1, sizeof *r);
        if (r) {
            pthread_mutex_init(&r->m, NULL);
            rings[dev] = r;
        }
    }
    ring_t *r = rings[dev];
    pthread_mutex_unlock(&rings_m);
    if (!r)
        return NULL;
    pthread_mutex_lock(&r->m);
    for (int i = 0; i < STAGE_BUFS && !r->failed; ++i) {
        if (!r->buf[i] && be->host_alloc(STAGE_CHUNK, &r->buf[i]) != GP_OK)
            r->failed = 1;
        if (!r->event[i] && be->event_create(0, &r->event[i]) != GP_OK)
            r->failed = 1;
    }
    if (r->failed) {
        gp_clear_error();
        pthread_mutex_unlock(&r->m);
        return NULL;
    }
    team_start();
    return r;
}

/* Waits for the copies still using buffer i. */
static gp_status_t ring_wait(const gp_backend_i *be, ring_t *r, int i)
{
    if (r->pending[i]) {
        GP_TRY(be->event_synchronize(r->event[i]));
        r->pending[i] = 0;
    }
    return GP_OK;
}

static gp_status_t stage_htod(const gp_backend_i *be, ring_t *r, char *dst, const char *src,
                              size_t n, void *stream)
{
    for (size_t off = 0, k = 0; off < n; off += STAGE_CHUNK, ++k) {
        int i = (int)(k % STAGE_BUFS);
        size_t len = n - off < STAGE_CHUNK ? n - off : STAGE_CHUNK;
        GP_TRY(ring_wait(be, r, i));
        copy_on_team(r->buf[i], src + off, len);
        GP_TRY(be->memcpy_htod(dst + off, r->buf[i], len, stream));
        r->pending[i] = 1; /* until the event below has passed (if it fails: forever) */
        GP_TRY(be->event_record(r->event[i], stream));
    }
    return GP_OK;
}

static gp_status_t stage_dtoh(const gp_backend_i *be, ring_t *r, char *dst, const char *src,
                              size_t n, void *stream)
{
    size_t chunks = (n + STAGE_CHUNK - 1) / STAGE_CHUNK;
    for (int i = 0; i < STAGE_BUFS; ++i)
        GP_TRY(ring_wait(be, r, i));
    /* up to STAGE_BUFS chunks in flight ahead of the one being copied out */
    for (size_t issued = 0, done = 0; done < chunks; ++done) {
        for (; issued < chunks && issued - done < STAGE_BUFS; ++issued) {
            int i = (int)(issued % STAGE_BUFS);
            size_t off = issued * STAGE_CHUNK;
            size_t len = n - off < STAGE_CHUNK ? n - off : STAGE_CHUNK;
            GP_TRY(be->memcpy_dtoh_async(r->buf[i], src + off, len, stream));
            r->pending[i] = 1;
            GP_TRY(be->event_record(r->event[i], stream));
        }
        int i = (int)(done % STAGE_BUFS);
        size_t off = done * STAGE_CHUNK;
        GP_TRY(ring_wait(be, r, i));
        copy_on_team(dst + off, r->buf[i], n - off < STAGE_CHUNK ? n - off : STAGE_CHUNK);
    }
    return GP_OK;
}

/* Staging applies to large copies on streams that are not being captured:
 * a graph would replay the copy from the ring, not from the user's memory. */
static ring_t *staging(const gp_backend_i *be, size_t n, void *stream)
{
    if (n < STAGE_MIN || direct_only(be))
        return NULL;
    int32_t capturing = 0;
    if (be->stream_capturing && be->stream_capturing(stream, &capturing) != GP_OK) {
        gp_clear_error();
        return NULL;
    }
    return capturing ? NULL : ring_lock(be);
}

gp_status_t gp_transfer_htod(const gp_backend_i *be, void *dst, const void *src, size_t n,
                             void *stream)
{
    ring_t *r = staging(be, n, stream);
    if (!r)
        return be->memcpy_htod(dst, src, n, stream);
    gp_status_t s = stage_htod(be, r, dst, src, n, stream);
    pthread_mutex_unlock(&r->m);
    return s;
}

gp_status_t gp_transfer_dtoh(const gp_backend_i *be, void *dst, const void *src, size_t n,
                             void *stream)
{
    ring_t *r = staging(be, n, stream);
    if (!r)
        return be->memcpy_dtoh(dst, src, n, stream);
    gp_status_t s = stage_dtoh(be, r, dst, src, n, stream);
    pthread_mutex_unlock(&r->m);
    return s;
}
