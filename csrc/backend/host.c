/*
 * host.c - the host backend: device memory is host memory, work runs at once
 * on the calling thread, and kernels are the generated source compiled by
 * the system C compiler.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"

/* Arrays are aligned as a GPU allocation is, so vector paths see the same
 * alignment on every backend. */
#define HOST_ALIGN 256

static gp_status_t host_init(void) { return GP_OK; }

static gp_status_t host_device_count(int32_t *out)
{
    *out = 1;
    return GP_OK;
}

static gp_status_t host_device_props(int32_t dev, gp_device_props_t *out)
{
    (void)dev;
    memset(out, 0, sizeof *out);
    out->multiprocessors = 1;
    out->max_threads_per_block = 1;
    out->warp_size = 1;
    out->max_blocks_per_sm = 1;
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    out->total_memory = pages > 0 && psize > 0 ? (int64_t)pages * psize : 0;
    struct utsname u;
    snprintf(out->target, sizeof out->target, "%.31s", uname(&u) == 0 ? u.machine : "unknown");
    snprintf(out->name, sizeof out->name, "host CPU (%s)", out->target);
    return GP_OK;
}

static gp_status_t host_device_set(int32_t dev)
{
    (void)dev;
    return GP_OK;
}

static gp_status_t host_nothing(void) { return GP_OK; }

static gp_status_t host_mem_info(int64_t *free_bytes, int64_t *total_bytes)
{
    long avail = sysconf(_SC_AVPHYS_PAGES), pages = sysconf(_SC_PHYS_PAGES);
    long psize = sysconf(_SC_PAGESIZE);
    *free_bytes = avail > 0 && psize > 0 ? (int64_t)avail * psize : 0;
    *total_bytes = pages > 0 && psize > 0 ? (int64_t)pages * psize : 0;
    return GP_OK;
}

static gp_status_t host_mem_alloc(size_t n, void *stream, void **out)
{
    (void)stream;
    size_t rounded = (n + HOST_ALIGN - 1) / HOST_ALIGN * HOST_ALIGN;
    *out = aligned_alloc(HOST_ALIGN, rounded);
    if (!*out)
        return gp_set_error(GP_ERR_NOMEM, "out of host memory allocating %zu bytes", n);
    return GP_OK;
}

static gp_status_t host_mem_free(void *p, size_t n, void *stream)
{
    (void)n, (void)stream;
    free(p);
    return GP_OK;
}

static gp_status_t host_mem_alloc_managed(size_t n, void **out)
{
    return host_mem_alloc(n, NULL, out);
}

static gp_status_t host_memcpy(void *dst, const void *src, size_t n, void *stream)
{
    (void)stream;
    if (n)
        memmove(dst, src, n);
    return GP_OK;
}

static gp_status_t host_memset8(void *dst, uint8_t v, size_t n, void *stream)
{
    (void)stream;
    memset(dst, v, n);
    return GP_OK;
}

static gp_status_t host_stream_create(int32_t flags, int32_t priority, void **out)
{
    (void)flags, (void)priority;
    *out = NULL; /* work on the host is done when its call returns */
    return GP_OK;
}

static gp_status_t host_stream_one(void *s)
{
    (void)s;
    return GP_OK;
}

static gp_status_t host_stream_query(void *s, int32_t *done)
{
    (void)s;
    *done = 1;
    return GP_OK;
}

static gp_status_t host_stream_wait_event(void *s, void *e)
{
    (void)s, (void)e;
    return GP_OK;
}

/* A host event is the time it was recorded at: work before it is done. */
static gp_status_t host_event_create(int32_t timing, void **out)
{
    (void)timing;
    double *t = calloc(1, sizeof *t);
    if (!t)
        return gp_set_error(GP_ERR_NOMEM, "out of host memory for an event");
    *out = t;
    return GP_OK;
}

static gp_status_t host_event_destroy(void *e)
{
    free(e);
    return GP_OK;
}

static gp_status_t host_event_record(void *e, void *s)
{
    (void)s;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    *(double *)e = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
    return GP_OK;
}

static gp_status_t host_event_query(void *e, int32_t *done)
{
    (void)e;
    *done = 1;
    return GP_OK;
}

static gp_status_t host_event_one(void *e)
{
    (void)e;
    return GP_OK;
}

static gp_status_t host_event_elapsed(void *start, void *end, float *ms)
{
    *ms = (float)(*(double *)end - *(double *)start);
    return GP_OK;
}

typedef void (*host_entry_t)(const void *params, long long block, long long nblocks);

static gp_status_t host_launch(void *fn, const gp_launch_t *cfg, const void *params,
                               size_t params_size, void *stream)
{
    (void)cfg, (void)params_size, (void)stream;
    /* One block visits the whole grid-stride range. */
    ((host_entry_t)fn)(params, 0, 1);
    return GP_OK;
}

const gp_backend_i gp_backend_host = {
    .name = "host",
    .dl_device_type = GP_DL_CPU,
    .init = host_init,
    .device_count = host_device_count,
    .device_props = host_device_props,
    .device_set = host_device_set,
    .device_synchronize = host_nothing,
    .mem_info = host_mem_info,
    .mem_alloc = host_mem_alloc,
    .mem_free = host_mem_free,
    /* host memory is what the host and the "device" both address */
    .mem_alloc_managed = host_mem_alloc_managed,
    .memcpy_htod = host_memcpy,
    .memcpy_dtoh = host_memcpy,
    .memcpy_dtod = host_memcpy,
    .memset8 = host_memset8,
    .stream_create = host_stream_create,
    .stream_destroy = host_stream_one,
    .stream_synchronize = host_stream_one,
    .stream_query = host_stream_query,
    .stream_wait_event = host_stream_wait_event,
    .event_create = host_event_create,
    .event_destroy = host_event_destroy,
    .event_record = host_event_record,
    .event_synchronize = host_event_one,
    .event_query = host_event_query,
    .event_elapsed = host_event_elapsed,
    .prelude = gp_prelude_host,
    .compiler_id = gp_cc_id,
    .compile = gp_cc_compile,
    .module_load = gp_cc_module_load,
    .module_function = gp_cc_module_function,
    .launch = host_launch,
};
