/*
 * errrec.c - the device-side error record: a few words of device memory per
 * device that kernels finding bad input (an out-of-bounds index) write, and
 * that the engine reads back without a synchronisation per launch.
 *
 * A kernel that finds an out-of-bounds index claims the record (an atomic
 * compare-and-swap of its first word on a GPU) and writes the index, its
 * axis and the axis' size. After launching such a kernel the engine notes
 * the record as pending (gp_errrec_launched). On the host backend a launch
 * has finished when it returns, so the record is read at once and the error
 * is the launch's own. On a GPU the record is read at the next point where
 * the host waits for the device anyway: a copy of an array to the host
 * (gp_array_to_host) or a stream or device synchronisation. Reading it
 * costs one 32-byte copy on the stream being waited for, and only while a
 * launch is pending. GPUNP_INDEX_CHECK=deferred makes the host backend
 * defer like a GPU (to test that path without one).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

#define GP_ERRREC_DEVICES 64
#define GP_ERRREC_BYTES (4 * sizeof(long long))

typedef struct {
    void *rec;       /* device memory: flag, index, axis, size */
    uint64_t count;  /* launches that may have written it since the last check */
    void *stream;    /* their stream, while they were all on one */
    bool several;    /* they were on more than one stream */
} errrec_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static errrec_t recs[GP_ERRREC_DEVICES];

static bool deferred(const gp_backend_i *be)
{
    static int mode = -1; /* 0: check at once on the host; 1: defer */
    if (mode < 0) {
        const char *v = getenv("GPUNP_INDEX_CHECK");
        mode = v && strcmp(v, "deferred") == 0;
    }
    return be->dl_device_type != GP_DL_CPU || mode == 1;
}

gp_status_t gp_errrec_get(void **out)
{
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    int32_t dev = gp_current_device();
    if (dev < 0 || dev >= GP_ERRREC_DEVICES)
        return gp_set_error(GP_ERR_VALUE, "invalid device %d", dev);
    pthread_mutex_lock(&lock);
    gp_status_t s = GP_OK;
    if (!recs[dev].rec) {
        void *p = NULL;
        /* not from the pool: the record lives as long as the process */
        s = be->mem_alloc(GP_ERRREC_BYTES, NULL, &p);
        if (s == GP_OK)
            s = be->memset8(p, 0, GP_ERRREC_BYTES, NULL);
        if (s == GP_OK)
            s = be->device_synchronize();
        if (s == GP_OK)
            recs[dev].rec = p;
    }
    *out = recs[dev].rec;
    pthread_mutex_unlock(&lock);
    return s;
}

/* Reads the record of device `dev` on `stream`; an error it holds becomes
 * this thread's GP_ERR_INDEX and the record is cleared. */
static gp_status_t read_record(const gp_backend_i *be, int32_t dev, void *stream, bool *clean)
{
    long long r[4];
    GP_TRY(be->memcpy_dtoh(r, recs[dev].rec, sizeof r, stream));
    *clean = r[0] == 0;
    if (*clean)
        return GP_OK;
    GP_TRY(be->memset8(recs[dev].rec, 0, GP_ERRREC_BYTES, stream));
    GP_TRY(be->stream_synchronize(stream));
    return gp_set_error(GP_ERR_INDEX, "index %lld is out of bounds for axis %lld with size %lld",
                        r[1], r[2], r[3]);
}

gp_status_t gp_errrec_check(void *stream, bool all_streams)
{
    const gp_backend_i *be = gp_backend_running();
    int32_t dev = gp_current_device();
    if (!be || dev < 0 || dev >= GP_ERRREC_DEVICES)
        return GP_OK;
    pthread_mutex_lock(&lock);
    uint64_t count = recs[dev].count;
    bool mine = all_streams || (!recs[dev].several && recs[dev].stream == stream);
    pthread_mutex_unlock(&lock);
    if (count == 0)
        return GP_OK;
    bool clean = true;
    gp_status_t s = read_record(be, dev, stream, &clean);
    pthread_mutex_lock(&lock);
    /* an error clears the record; a clean read clears what it covered (the
     * launches of this stream, or of every stream after a device-wide
     * synchronisation), unless another launch came in meanwhile */
    if ((s == GP_ERR_INDEX || (s == GP_OK && clean && mine)) && recs[dev].count == count) {
        recs[dev].count = 0;
        recs[dev].several = false;
    }
    pthread_mutex_unlock(&lock);
    return s;
}

gp_status_t gp_errrec_launched(void)
{
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    int32_t dev = gp_current_device();
    void *stream = gp_current_stream();
    pthread_mutex_lock(&lock);
    errrec_t *r = &recs[dev];
    if (r->count && r->stream != stream)
        r->several = true;
    r->stream = stream;
    ++r->count;
    pthread_mutex_unlock(&lock);
    return deferred(be) ? GP_OK : gp_errrec_check(stream, false);
}
