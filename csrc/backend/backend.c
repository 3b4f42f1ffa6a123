/*
 * backend.c - the engine's lowest service: choosing and starting the
 * backend, and each thread's current device and stream.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

#define GP_MAX_DEVICES 64

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(const gp_backend_i *) running;

static _Thread_local int32_t tls_device;
static _Thread_local gp_stream_t *tls_stream;

static gp_device_props_t props_cache[GP_MAX_DEVICES];
static atomic_int props_valid[GP_MAX_DEVICES];

const gp_backend_i *gp_backend_running(void)
{
    return atomic_load_explicit(&running, memory_order_acquire);
}

static atomic_int failed;
static char failed_why[2048];

void gp_backend_fail_all(const char *why)
{
    pthread_mutex_lock(&init_lock);
    if (!atomic_load(&failed)) {
        snprintf(failed_why, sizeof failed_why, "%s", why);
        atomic_store_explicit(&failed, 1, memory_order_release);
    }
    pthread_mutex_unlock(&init_lock);
}

gp_status_t gp_backend(const gp_backend_i **out)
{
    if (atomic_load_explicit(&failed, memory_order_acquire))
        return gp_set_error(GP_ERR_BACKEND, "%s", failed_why);
    const gp_backend_i *b = gp_backend_running();
    if (!b) {
        GP_TRY(gp_runtime_init(NULL));
        b = gp_backend_running();
    }
    *out = b;
    return GP_OK;
}

int32_t gp_current_device(void) { return tls_device; }

void *gp_current_stream(void) { return tls_stream ? tls_stream->native : NULL; }

/* Starts `b`; on success it becomes the running backend. Lock held. */
static gp_status_t start(const gp_backend_i *b)
{
    GP_TRY(b->init());
    int32_t n = 0;
    GP_TRY(b->device_count(&n));
    if (n < 1)
        return gp_set_error(GP_ERR_NOT_FOUND_DEVICE, "the %s backend found no device", b->name);
    atomic_store_explicit(&running, b, memory_order_release);
    return GP_OK;
}

/* The GPU backend of `name` in this build, or NULL. */
static const gp_backend_i *gpu_backend(const char *name)
{
    if (strcmp(name, "cuda") == 0)
        return &gp_backend_cuda;
    if (strcmp(name, "hip") == 0)
        return &gp_backend_hip;
    return NULL;
}

GP_API gp_status_t gp_runtime_init(const char *name)
{
    pthread_mutex_lock(&init_lock);
    gp_status_t s = GP_OK;
    const gp_backend_i *cur = gp_backend_running();
    const char *want = name;
    if (!want || !*want)
        want = getenv("GPUNP_BACKEND");
    if (!want || !*want)
        want = "auto";
    if (cur) {
        if (name && *name && strcmp(name, "auto") != 0 && strcmp(name, cur->name) != 0)
            s = gp_set_error(GP_ERR_MISUSE, "the %s backend is already running; the backend "
                                            "is chosen once per process", cur->name);
        goto done;
    }
    if (strcmp(want, "host") == 0) {
        s = start(&gp_backend_host);
    } else if (strcmp(want, "cuda") == 0 || strcmp(want, "hip") == 0) {
        const gp_backend_i *g = gpu_backend(want);
        s = g ? start(g)
              : gp_set_error(GP_ERR_UNSUPPORTED, "the %s backend is not part of this build of "
                                                 "gpunp yet", want);
    } else if (strcmp(want, "auto") == 0) {
        /* the first vendor whose runtime loads and finds a device */
        if (start(&gp_backend_cuda) != GP_OK && start(&gp_backend_hip) != GP_OK)
            s = start(&gp_backend_host);
    } else {
        s = gp_set_error(GP_ERR_VALUE, "unknown backend '%s' (GPUNP_BACKEND takes cuda, hip, "
                                       "host or auto)", want);
    }
done:
    pthread_mutex_unlock(&init_lock);
    return s;
}

gp_status_t gp_backend_props(const gp_device_props_t **out)
{
    const gp_backend_i *b;
    GP_TRY(gp_backend(&b));
    int32_t dev = tls_device;
    if (dev < 0 || dev >= GP_MAX_DEVICES)
        return gp_set_error(GP_ERR_VALUE, "invalid device %d", dev);
    if (!atomic_load_explicit(&props_valid[dev], memory_order_acquire)) {
        pthread_mutex_lock(&init_lock);
        gp_status_t s = GP_OK;
        if (!atomic_load(&props_valid[dev])) {
            s = b->device_props(dev, &props_cache[dev]);
            if (s == GP_OK)
                atomic_store_explicit(&props_valid[dev], 1, memory_order_release);
        }
        pthread_mutex_unlock(&init_lock);
        GP_TRY(s);
    }
    *out = &props_cache[dev];
    return GP_OK;
}

/* ---- the current device and stream ----------------------------------------- */

GP_API gp_status_t gp_device_get(int32_t *out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_device_get: out is NULL");
    *out = tls_device;
    return GP_OK;
}

GP_API gp_status_t gp_device_set(int32_t id)
{
    const gp_backend_i *b;
    GP_TRY(gp_backend(&b));
    int32_t n = 0;
    GP_TRY(b->device_count(&n));
    if (id < 0 || id >= n || id >= GP_MAX_DEVICES)
        return gp_set_error(GP_ERR_VALUE, "invalid device id %d (there are %d devices)", id, n);
    GP_TRY(b->device_set(id));
    if (tls_device != id)
        tls_stream = NULL; /* streams belong to a device */
    tls_device = id;
    return GP_OK;
}

GP_API gp_status_t gp_stream_set_current(gp_stream_t *s)
{
    if (s && !gp_stream_ok(s))
        return gp_set_error(GP_ERR_MISUSE, "invalid stream handle");
    if (s && s->device != tls_device)
        return gp_set_error(GP_ERR_VALUE, "the stream belongs to device %d, but device %d is "
                                          "current", s->device, tls_device);
    tls_stream = s;
    return GP_OK;
}

GP_API gp_status_t gp_stream_get_current(gp_stream_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_stream_get_current: out is NULL");
    *out = tls_stream;
    return GP_OK;
}

GP_API gp_status_t gp_stream_native(gp_stream_t *s, uint64_t *out)
{
    if ((s && !gp_stream_ok(s)) || !out)
        return gp_set_error(GP_ERR_MISUSE, "gp_stream_native: invalid argument");
    *out = s ? (uint64_t)(uintptr_t)s->native : 0;
    return GP_OK;
}
