/*
 * runtime.c - the runtime API of gp_runtime.h over the layers below it: the
 * configuration, devices, streams (whose end returns their cached memory to
 * the pool), events, copies and foreign streams. The current device and
 * stream themselves are the backend layer's (backend.c).
 */
#include <stdlib.h>
#include <string.h>

#include "../cache/cache.h"
#include "../core/dl.h"
#include "../memory/memory.h"

#define GP_EVENT_MAGIC 0x47504576u  /* "GPEv" */

struct gp_event {
    uint32_t magic;
    int32_t device;
    int32_t timing;
    int32_t recorded;
    void *native;
};

GP_API gp_status_t gp_runtime_config(const char *key, const char **out)
{
    if (!key || !out)
        return gp_set_error(GP_ERR_MISUSE, "gp_runtime_config: NULL argument");
    *out = NULL;
    if (strcmp(key, "cache_dir") == 0) {
        *out = gp_cache_dir();
        return GP_OK;
    }
    if (strcmp(key, "kernel_log") == 0) {
        *out = gp_kernel_log_dir();
        return GP_OK;
    }
    if (strcmp(key, "kernel_pack") == 0) {
        *out = gp_kernel_pack_dir();
        return GP_OK;
    }
    if (strcmp(key, "libraries") == 0) {
        *out = gp_dl_opened();
        return GP_OK;
    }
    const gp_backend_i *b;
    GP_TRY(gp_backend(&b));
    if (strcmp(key, "backend") == 0) {
        *out = b->name;
    } else if (strcmp(key, "compiler") == 0) {
        *out = b->compiler_id();
        if (!*out)
            return gp_errcode();
    } else if (strcmp(key, "target") == 0 || strcmp(key, "device_name") == 0) {
        const gp_device_props_t *p;
        GP_TRY(gp_backend_props(&p));
        *out = key[0] == 't' ? p->target : p->name;
    } else {
        return gp_set_error(GP_ERR_VALUE, "unknown configuration key '%s'", key);
    }
    return GP_OK;
}

/* ---- devices -------------------------------------------------------------- */

GP_API gp_status_t gp_device_count(int32_t *out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_device_count: out is NULL");
    const gp_backend_i *b;
    GP_TRY(gp_backend(&b));
    return b->device_count(out);
}

GP_API gp_status_t gp_device_synchronize(void)
{
    const gp_backend_i *b;
    GP_TRY(gp_backend(&b));
    GP_TRY(b->device_synchronize());
    return gp_errrec_check(gp_current_stream(), true);
}

/* ---- streams -------------------------------------------------------------- */

GP_API gp_status_t gp_stream_create(int32_t flags, int32_t priority, gp_stream_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_stream_create: out is NULL");
    *out = NULL;
    const gp_backend_i *b;
    GP_TRY(gp_backend(&b));
    gp_stream_t *s = malloc(sizeof *s);
    if (!s)
        return gp_set_error(GP_ERR_NOMEM, "out of host memory for a stream");
    gp_status_t st = b->stream_create(flags, priority, &s->native);
    if (st != GP_OK) {
        free(s);
        return st;
    }
    s->magic = GP_STREAM_MAGIC;
    s->device = gp_current_device();
    s->foreign = false;
    *out = s;
    return GP_OK;
}

GP_API gp_status_t gp_stream_destroy(gp_stream_t *s)
{
    if (!s)
        return GP_OK;
    if (!gp_stream_ok(s))
        return gp_set_error(GP_ERR_MISUSE, "invalid stream handle");
    const gp_backend_i *b = gp_backend_running();
    gp_stream_t *cur = NULL;
    gp_stream_get_current(&cur);
    if (cur == s)
        gp_stream_set_current(NULL);
    gp_status_t st = GP_OK;
    if (b) {
        /* blocks cached for this stream outlive it: wait for its work, then
         * hand them to the default stream (a new stream may reuse the handle) */
        st = b->stream_synchronize(s->native);
        gp_zeroed_forget(s->device, s->native, false);
        gp_pool_forget_stream(s->device, s->native);
        gp_status_t d = s->foreign ? GP_OK : b->stream_destroy(s->native);
        if (st == GP_OK)
            st = d;
    }
    s->magic = GP_DEAD_MAGIC;
    free(s);
    return st;
}

GP_API gp_status_t gp_stream_synchronize(gp_stream_t *s)
{
    if (s && !gp_stream_ok(s))
        return gp_set_error(GP_ERR_MISUSE, "invalid stream handle");
    const gp_backend_i *b;
    GP_TRY(gp_backend(&b));
    GP_TRY(b->stream_synchronize(s ? s->native : NULL));
    if (s && s->device != gp_current_device())
        return GP_OK; /* the record read is for the current device's streams */
    return gp_errrec_check(s ? s->native : NULL, false);
}

GP_API gp_status_t gp_stream_query(gp_stream_t *s, int32_t *out)
{
    if ((s && !gp_stream_ok(s)) || !out)
        return gp_set_error(GP_ERR_MISUSE, "gp_stream_query: invalid argument");
    const gp_backend_i *b;
    GP_TRY(gp_backend(&b));
    return b->stream_query(s ? s->native : NULL, out);
}

/* ---- events ---------------------------------------------------------------- */

static bool event_ok(const gp_event_t *e) { return e && e->magic == GP_EVENT_MAGIC; }

GP_API gp_status_t gp_event_create(int32_t timing, gp_event_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_event_create: out is NULL");
    *out = NULL;
    const gp_backend_i *b;
    GP_TRY(gp_backend(&b));
    if ((timing & GP_EVENT_INTERPROCESS) && !b->ipc_event_handle)
        return gp_set_error(GP_ERR_UNSUPPORTED, "the %s backend has no interprocess events",
                            b->name);
    gp_event_t *e = malloc(sizeof *e);
    if (!e)
        return gp_set_error(GP_ERR_NOMEM, "out of host memory for an event");
    gp_status_t st = b->event_create(timing, &e->native);
    if (st != GP_OK) {
        free(e);
        return st;
    }
    e->magic = GP_EVENT_MAGIC;
    e->device = gp_current_device();
    e->timing = (timing & GP_EVENT_TIMING) && !(timing & GP_EVENT_INTERPROCESS);
    e->recorded = 0;
    *out = e;
    return GP_OK;
}

GP_API gp_status_t gp_event_destroy(gp_event_t *e)
{
    if (!e)
        return GP_OK;
    if (!event_ok(e))
        return gp_set_error(GP_ERR_MISUSE, "invalid event handle");
    const gp_backend_i *b = gp_backend_running();
    gp_status_t st = b ? b->event_destroy(e->native) : GP_OK;
    e->magic = GP_DEAD_MAGIC;
    free(e);
    return st;
}

GP_API gp_status_t gp_event_record(gp_event_t *e, gp_stream_t *s)
{
    if (!event_ok(e) || (s && !gp_stream_ok(s)))
        return gp_set_error(GP_ERR_MISUSE, "gp_event_record: invalid event or stream");
    const gp_backend_i *b;
    GP_TRY(gp_backend(&b));
    GP_TRY(b->event_record(e->native, s ? s->native : gp_current_stream()));
    e->recorded = 1;
    return GP_OK;
}

GP_API gp_status_t gp_event_synchronize(gp_event_t *e)
{
    if (!event_ok(e))
        return gp_set_error(GP_ERR_MISUSE, "invalid event handle");
    const gp_backend_i *b;
    GP_TRY(gp_backend(&b));
    return b->event_synchronize(e->native);
}

GP_API gp_status_t gp_event_query(gp_event_t *e, int32_t *out)
{
    if (!event_ok(e) || !out)
        return gp_set_error(GP_ERR_MISUSE, "gp_event_query: invalid argument");
    const gp_backend_i *b;
    GP_TRY(gp_backend(&b));
    return b->event_query(e->native, out);
}

GP_API gp_status_t gp_event_elapsed(gp_event_t *start, gp_event_t *end, float *out)
{
    if (!event_ok(start) || !event_ok(end) || !out)
        return gp_set_error(GP_ERR_MISUSE, "gp_event_elapsed: invalid argument");
    if (!start->timing || !end->timing)
        return gp_set_error(GP_ERR_VALUE, "elapsed time needs events created with timing");
    if (!start->recorded || !end->recorded)
        return gp_set_error(GP_ERR_VALUE, "elapsed time needs both events recorded");
    const gp_backend_i *b;
    GP_TRY(gp_backend(&b));
    return b->event_elapsed(start->native, end->native, out);
}

GP_API gp_status_t gp_stream_wait_event(gp_stream_t *s, gp_event_t *e)
{
    if ((s && !gp_stream_ok(s)) || !event_ok(e))
        return gp_set_error(GP_ERR_MISUSE, "gp_stream_wait_event: invalid stream or event");
    const gp_backend_i *b;
    GP_TRY(gp_backend(&b));
    return b->stream_wait_event(s ? s->native : NULL, e->native);
}

GP_API gp_status_t gp_memcpy(uint64_t dst, uint64_t src, int64_t n, int32_t kind,
                             gp_stream_t *s, int32_t sync)
{
    if ((s && !gp_stream_ok(s)) || n < 0 || (n > 0 && (!dst || !src)))
        return gp_set_error(GP_ERR_MISUSE, "gp_memcpy: invalid argument");
    const gp_backend_i *b;
    GP_TRY(gp_backend(&b));
    void *st = s ? s->native : gp_current_stream();
    void *d = (void *)(uintptr_t)dst;
    const void *src_p = (const void *)(uintptr_t)src;
    if (n == 0)
        return GP_OK;
    switch (kind) {
    case GP_MEMCPY_HOST_TO_HOST: memmove(d, src_p, (size_t)n); return GP_OK;
    case GP_MEMCPY_HOST_TO_DEVICE: GP_TRY(b->memcpy_htod(d, src_p, (size_t)n, st)); break;
    case GP_MEMCPY_DEVICE_TO_HOST:
        /* into page-locked memory the copy runs while the caller goes on */
        if (!sync && b->memcpy_dtoh_async)
            return b->memcpy_dtoh_async(d, src_p, (size_t)n, st);
        return b->memcpy_dtoh(d, src_p, (size_t)n, st);
    case GP_MEMCPY_DEVICE_TO_DEVICE: GP_TRY(b->memcpy_dtod(d, src_p, (size_t)n, st)); break;
    default: return gp_set_error(GP_ERR_VALUE, "invalid memcpy kind %d", kind);
    }
    return sync ? b->stream_synchronize(st) : GP_OK;
}

GP_API gp_status_t gp_device_get_properties(int32_t device, gp_device_properties_t *out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_device_get_properties: out is NULL");
    const gp_backend_i *b;
    GP_TRY(gp_backend(&b));
    int32_t n = 0;
    GP_TRY(b->device_count(&n));
    if (device < 0 || device >= n)
        return gp_set_error(GP_ERR_VALUE, "invalid device id %d (there are %d devices)", device, n);
    gp_device_props_t p;
    GP_TRY(b->device_props(device, &p));
    memset(out, 0, sizeof *out);
    memcpy(out->name, p.name, sizeof out->name);
    memcpy(out->target, p.target, sizeof out->target);
    out->total_memory = p.total_memory;
    out->multiprocessors = p.multiprocessors;
    out->max_threads_per_block = p.max_threads_per_block;
    out->warp_size = p.warp_size;
    out->compute_major = p.compute_major;
    out->compute_minor = p.compute_minor;
    return GP_OK;
}

/* ---- foreign streams -------------------------------------------------------- */

GP_API gp_status_t gp_stream_wait_native(uint64_t native)
{
    const gp_backend_i *b;
    GP_TRY(gp_backend(&b));
    if (!b->stream_order)
        return GP_OK;
    return b->stream_order(gp_current_stream(), (void *)(uintptr_t)native);
}

GP_API gp_status_t gp_stream_signal_native(uint64_t native)
{
    const gp_backend_i *b;
    GP_TRY(gp_backend(&b));
    if (!b->stream_order)
        return GP_OK;
    return b->stream_order((void *)(uintptr_t)native, gp_current_stream());
}

/* ---- streams made elsewhere, host functions, versions ------------------------ */

GP_API gp_status_t gp_stream_wrap(uint64_t native, gp_stream_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_stream_wrap: out is NULL");
    *out = NULL;
    const gp_backend_i *b;
    GP_TRY(gp_backend(&b));
    gp_stream_t *s = malloc(sizeof *s);
    if (!s)
        return gp_set_error(GP_ERR_NOMEM, "out of host memory for a stream");
    s->magic = GP_STREAM_MAGIC;
    s->device = gp_current_device();
    /* the host backend's streams are all NULL: its work is done when queued */
    s->native = b->dl_device_type == GP_DL_CPU ? NULL : (void *)(uintptr_t)native;
    s->foreign = true;
    *out = s;
    return GP_OK;
}

GP_API gp_status_t gp_stream_launch_host_func(gp_stream_t *s, void (*fn)(void *), void *arg)
{
    if ((s && !gp_stream_ok(s)) || !fn)
        return gp_set_error(GP_ERR_MISUSE, "gp_stream_launch_host_func: invalid argument");
    const gp_backend_i *b;
    GP_TRY(gp_backend(&b));
    if (!b->launch_host_func) {
        fn(arg);
        return GP_OK;
    }
    return b->launch_host_func(s ? s->native : gp_current_stream(), fn, arg);
}

GP_API gp_status_t gp_driver_version(int32_t *out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_driver_version: out is NULL");
    *out = 0;
    const gp_backend_i *b;
    GP_TRY(gp_backend(&b));
    if (!b->driver_version)
        return gp_set_error(GP_ERR_UNSUPPORTED, "the %s backend has no driver", b->name);
    return b->driver_version(out);
}

/* ---- peers, interprocess handles, pointer attributes --------------------------- */

/* The running backend, or GP_ERR_UNSUPPORTED naming it where it lacks `slot`. */
#define NEED(b, slot, what)                                                              \
    do {                                                                                 \
        GP_TRY(gp_backend(&(b)));                                                        \
        if (!(b)->slot)                                                                  \
            return gp_set_error(GP_ERR_UNSUPPORTED, "%s: the %s backend has none", what, \
                                (b)->name);                                              \
    } while (0)

GP_API gp_status_t gp_device_can_access_peer(int32_t device, int32_t peer, int32_t *out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_device_can_access_peer: out is NULL");
    *out = 0;
    const gp_backend_i *b;
    NEED(b, can_access_peer, "peer access");
    return b->can_access_peer(device, peer, out);
}

GP_API gp_status_t gp_device_enable_peer_access(int32_t peer)
{
    const gp_backend_i *b;
    NEED(b, enable_peer, "peer access");
    return b->enable_peer(peer);
}

GP_API gp_status_t gp_ipc_get_mem_handle(uint64_t ptr, uint8_t *handle)
{
    if (!ptr || !handle)
        return gp_set_error(GP_ERR_MISUSE, "gp_ipc_get_mem_handle: NULL argument");
    const gp_backend_i *b;
    NEED(b, ipc_mem_handle, "interprocess memory handles");
    return b->ipc_mem_handle((void *)(uintptr_t)ptr, handle);
}

GP_API gp_status_t gp_ipc_open_mem_handle(const uint8_t *handle, uint64_t *out)
{
    if (!handle || !out)
        return gp_set_error(GP_ERR_MISUSE, "gp_ipc_open_mem_handle: NULL argument");
    *out = 0;
    const gp_backend_i *b;
    NEED(b, ipc_open_mem, "interprocess memory handles");
    void *p = NULL;
    GP_TRY(b->ipc_open_mem(handle, &p));
    *out = (uint64_t)(uintptr_t)p;
    return GP_OK;
}

GP_API gp_status_t gp_ipc_close_mem_handle(uint64_t ptr)
{
    const gp_backend_i *b;
    NEED(b, ipc_close_mem, "interprocess memory handles");
    return b->ipc_close_mem((void *)(uintptr_t)ptr);
}

GP_API gp_status_t gp_event_ipc_handle(gp_event_t *e, uint8_t *handle)
{
    if (!event_ok(e) || !handle)
        return gp_set_error(GP_ERR_MISUSE, "gp_event_ipc_handle: invalid argument");
    const gp_backend_i *b;
    NEED(b, ipc_event_handle, "interprocess events");
    return b->ipc_event_handle(e->native, handle);
}

GP_API gp_status_t gp_event_open_ipc_handle(const uint8_t *handle, gp_event_t **out)
{
    if (!handle || !out)
        return gp_set_error(GP_ERR_MISUSE, "gp_event_open_ipc_handle: NULL argument");
    *out = NULL;
    const gp_backend_i *b;
    NEED(b, ipc_open_event, "interprocess events");
    gp_event_t *e = malloc(sizeof *e);
    if (!e)
        return gp_set_error(GP_ERR_NOMEM, "out of host memory for an event");
    gp_status_t st = b->ipc_open_event(handle, &e->native);
    if (st != GP_OK) {
        free(e);
        return st;
    }
    e->magic = GP_EVENT_MAGIC;
    e->device = gp_current_device();
    e->timing = 0;
    e->recorded = 1; /* recorded by the process that made it */
    *out = e;
    return GP_OK;
}

GP_API gp_status_t gp_pointer_get_attributes(uint64_t ptr, gp_pointer_attributes_t *out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_pointer_get_attributes: out is NULL");
    memset(out, 0, sizeof *out);
    const gp_backend_i *b;
    NEED(b, pointer_attributes, "pointer attributes");
    return b->pointer_attributes((const void *)(uintptr_t)ptr, &out->type, &out->device,
                                 &out->device_pointer, &out->host_pointer);
}
