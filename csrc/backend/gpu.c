/*
 * gpu.c - the GPU backend, one source for CUDA and HIP.
 *
 * Compiled once per vendor: with GP_GPU_HIP defined it includes
 * vendor/hip.h and defines gp_backend_hip, otherwise vendor/cuda.h and
 * gp_backend_cuda. Everything vendor-specific (library names, symbol names,
 * constants, the run-time compiler) lives in those headers. The driver is
 * loaded at run time; nothing is linked.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"

static struct {
#define X(name, params, syms) gpuResult (*name) params;
    GPU_API(X)
    GPU_OPTIONAL_API(X)
#undef X
#define X(name, params, syms) const char *(*name) params;
    GPU_TEXT_API(X)
#undef X
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static gp_status_t load_status;
static char load_problem[4096];
static char driver_path[2048];
static int ndevices;
static gpuDevice devices[GPU_MAX_DEVICES];
static gpuContext contexts[GPU_MAX_DEVICES];
static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static bool launch_graphs = GPU_LAUNCH_GRAPHS; /* GPUNP_LAUNCH: through graphs (below) */

/* The context this thread made current, and for which device. */
static _Thread_local gpuContext tls_ctx;
static _Thread_local int tls_ctx_device = -1;

/* ---- errors ----------------------------------------------------------------------- */

/* The kernels' names by function handle, for the message of a fault (read
 * only then), and the last function launched in the process: a fault shows
 * at a later call, often on another thread, and the last launch is the
 * first suspect. */
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kernel_name {
    void *fn;
    char *name;
} *names;
static size_t nnames, names_cap;
static _Atomic(void *) last_launched;

static void remember_name(void *fn, const char *name)
{
    pthread_mutex_lock(&names_lock);
    /* a function asked for again is known; a handle of an unloaded module
     * that now names another kernel is named anew */
    bool known = false;
    for (size_t i = nnames; !known && i-- > 0;)
        known = names[i].fn == fn && strcmp(names[i].name, name) == 0;
    if (!known && nnames == names_cap) {
        size_t cap = names_cap ? 2 * names_cap : 256;
        struct kernel_name *grown = realloc(names, cap * sizeof *grown);
        if (grown)
            names = grown, names_cap = cap;
    }
    size_t len = strlen(name) + 1;
    char *copy = !known && nnames < names_cap ? malloc(len) : NULL;
    if (copy) {
        memcpy(copy, name, len);
        names[nnames++] = (struct kernel_name){fn, copy};
    }
    pthread_mutex_unlock(&names_lock);
}

static void last_kernel_name(char *out, size_t n)
{
    void *fn = atomic_load_explicit(&last_launched, memory_order_relaxed);
    snprintf(out, n, "%s", fn ? "one of unknown name" : "none");
    pthread_mutex_lock(&names_lock);
    for (size_t i = nnames; fn && i-- > 0;) /* the newest naming of the handle */
        if (names[i].fn == fn) {
            snprintf(out, n, "%s", names[i].name);
            break;
        }
    pthread_mutex_unlock(&names_lock);
}

static gp_status_t gpu_fail(gpuResult r, const char *what)
{
    const char *name = NULL, *text = NULL;
    GPU_ERROR_TEXTS(r, &name, &text);
    gp_status_t code = r == GPU_ERROR_OUT_OF_MEMORY ? GP_ERR_NOMEM_DEVICE : GP_ERR_BACKEND;
    if (!GPU_STICKY(r))
        return gp_set_error(code, "%s failed: %s (%s: %s)", what, text ? text : "",
                            name ? name : "?", GPU_VENDOR);
    char kernel[512], why[2048];
    last_kernel_name(kernel, sizeof kernel);
    snprintf(why, sizeof why, "the device faulted: %s (%s: %s), seen when %s; the last kernel "
             "launched was %s. The device cannot recover from this fault in this process: "
             "every later call fails, and a new process is needed to use the GPU again",
             text ? text : "", name ? name : "?", GPU_VENDOR, what, kernel);
    gp_backend_fail_all(why);
    return gp_set_error(code, "%s", why);
}

#define GPU_CHECK(call, what)                     \
    do {                                          \
        gpuResult gpu_r_ = (call);                \
        if (gpu_r_ != GPU_SUCCESS)                \
            return gpu_fail(gpu_r_, what);        \
    } while (0)

/* ---- loading ------------------------------------------------------------------------- */

static void load(void)
{
    static const char *const sonames[] = GPU_DRIVER_SONAMES;
    void *lib;
    load_status = gp_dl_open(GPU_DRIVER_WHAT, sonames, GPU_DL_VENDOR, &lib);
    if (load_status != GP_OK) {
        snprintf(load_problem, sizeof load_problem, "%s", gp_errmsg());
        return;
    }
    gp_dl_path(lib, driver_path, sizeof driver_path);
    const char *how = getenv("GPUNP_LAUNCH");
    launch_graphs = GPU_LAUNCH_GRAPHS && !(how && strcmp(how, "direct") == 0);
/* gp_dl_symbol reads a list of names up to an empty one: "\0" ends it */
#define X(name, params, syms)                                                        \
    *(void **)&api.name = gp_dl_symbol(lib, syms "\0");                              \
    if (!api.name) {                                                                 \
        load_status = GP_ERR_NOT_FOUND_LIBRARY;                                      \
        snprintf(load_problem, sizeof load_problem, "%s (%s) lacks %s: the driver is " \
                 "too old", GPU_DRIVER_WHAT, driver_path, syms);                     \
        return;                                                                      \
    }
    GPU_API(X)
    GPU_TEXT_API(X)
#undef X
#define X(name, params, syms) *(void **)&api.name = gp_dl_symbol(lib, syms "\0");
    GPU_OPTIONAL_API(X)
#undef X
    gpuResult r = api.Init(0);
    if (r == GPU_SUCCESS)
        r = api.DeviceGetCount(&ndevices);
    if (r != GPU_SUCCESS || ndevices < 1) {
        load_status = GP_ERR_NOT_FOUND_DEVICE;
        const char *name = NULL, *text = NULL;
        GPU_ERROR_TEXTS(r, &name, &text);
        (void)name;
        snprintf(load_problem, sizeof load_problem, "%s (loaded %s from %s%s%s)",
                 GPU_NO_DEVICE_HINT, GPU_DRIVER_WHAT, driver_path, r ? ": " : "",
                 r ? (text ? text : "") : "");
        return;
    }
    if (ndevices > GPU_MAX_DEVICES)
        ndevices = GPU_MAX_DEVICES;
    for (int d = 0; d < ndevices && load_status == GP_OK; ++d) {
        r = api.DeviceGet(&devices[d], d);
        if (r != GPU_SUCCESS) {
            load_status = gpu_fail(r, "getting a device");
            snprintf(load_problem, sizeof load_problem, "%s", gp_errmsg());
        }
    }
}

static gp_status_t gpu_init(void)
{
    pthread_once(&load_once, load);
    if (load_status != GP_OK)
        return gp_set_error(load_status, "%s", load_problem);
    return GP_OK;
}

gp_status_t GPU_SYM(ctx_current)(void)
{
    int d = gp_current_device();
    if (tls_ctx && tls_ctx_device == d)
        return GP_OK;
    if (d < 0 || d >= ndevices)
        return gp_set_error(GP_ERR_VALUE, "invalid device %d", d);
    pthread_mutex_lock(&ctx_lock);
    gpuResult r = GPU_SUCCESS;
    if (!contexts[d])
        r = api.DevicePrimaryCtxRetain(&contexts[d], devices[d]);
    gpuContext c = contexts[d];
    pthread_mutex_unlock(&ctx_lock);
    if (r != GPU_SUCCESS)
        return gpu_fail(r, "retaining the device's primary context");
    GPU_CHECK(api.CtxSetCurrent(c), "making the device's context current");
    tls_ctx = c;
    tls_ctx_device = d;
    return GP_OK;
}

/* ---- devices ---------------------------------------------------------------------------- */

static gp_status_t gpu_device_count(int32_t *out)
{
    *out = ndevices;
    return GP_OK;
}

#if GPU_TARGET_FROM_PROPERTIES
/* The device's architecture ("gfx90a") from its properties. The struct's
 * layout differs between runtime versions (ROCm 6 added fields before the
 * name), so it is read into a buffer larger than any version of it and the
 * name is the string starting "gfx" after the 256-byte device name; the
 * target features after ':' ("gfx90a:sramecc+:xnack-") are dropped, so the
 * code object suits the device whatever its xnack mode. */
static gp_status_t arch_name(int32_t dev, char *out, size_t n)
{
    enum { PROPS_BYTES = 16384, NAME_BYTES = 256 };
    unsigned char *props = calloc(1, PROPS_BYTES);
    if (!props)
        return gp_set_error(GP_ERR_NOMEM, "out of host memory");
    gpuResult r = api.DeviceGetProperties(props, dev);
    props[PROPS_BYTES - 1] = '\0';
    if (r != GPU_SUCCESS) {
        free(props);
        return gpu_fail(r, "reading the device's properties");
    }
    const char *found = NULL;
    for (size_t i = NAME_BYTES; i + 4 < PROPS_BYTES && !found; ++i)
        if (memcmp(props + i, "gfx", 3) == 0 && props[i + 3] >= '0' && props[i + 3] <= '9' &&
            props[i - 1] == '\0')
            found = (const char *)props + i;
    if (found)
        snprintf(out, n, "%.*s", (int)strcspn(found, ":"), found);
    free(props);
    if (!found)
        return gp_set_error(GP_ERR_BACKEND, "the %s backend could not find the device's "
                                            "architecture name", GPU_VENDOR);
    return GP_OK;
}
#endif

static gp_status_t gpu_device_props(int32_t dev, gp_device_props_t *out)
{
    if (dev < 0 || dev >= ndevices)
        return gp_set_error(GP_ERR_VALUE, "invalid device %d", dev);
    memset(out, 0, sizeof *out);
    gpuDevice d = devices[dev];
    int major = 0, minor = 0, per_sm = 0;
    GPU_CHECK(api.DeviceGetAttribute(&out->multiprocessors, GPU_ATTR_MULTIPROCESSOR_COUNT, d),
              "querying the device");
    GPU_CHECK(api.DeviceGetAttribute(&out->max_threads_per_block, GPU_ATTR_MAX_THREADS_PER_BLOCK,
                                     d), "querying the device");
    GPU_CHECK(api.DeviceGetAttribute(&out->warp_size, GPU_ATTR_WARP_SIZE, d), "querying the device");
    GPU_CHECK(api.DeviceGetAttribute(&per_sm, GPU_ATTR_MAX_THREADS_PER_MULTIPROCESSOR, d),
              "querying the device");
    GPU_CHECK(api.DeviceGetAttribute(&major, GPU_ATTR_CC_MAJOR, d), "querying the device");
    GPU_CHECK(api.DeviceGetAttribute(&minor, GPU_ATTR_CC_MINOR, d), "querying the device");
    size_t total = 0;
    GPU_CHECK(api.DeviceTotalMem(&total, d), "querying the device's memory");
    out->total_memory = (int64_t)total;
    out->max_blocks_per_sm = per_sm / (out->max_threads_per_block / 4 > 0
                                           ? out->max_threads_per_block / 4 : 1);
    out->compute_major = major;
    out->compute_minor = minor;
    GPU_CHECK(api.DeviceGetName(out->name, (int)sizeof out->name - 1, d), "querying the device");
#if GPU_TARGET_FROM_PROPERTIES
    GP_TRY(arch_name(dev, out->target, sizeof out->target));
#else
    snprintf(out->target, sizeof out->target, GPU_TARGET_FORMAT, major, minor);
#endif
    return GP_OK;
}

static gp_status_t gpu_device_set(int32_t dev)
{
    (void)dev; /* the context follows gp_current_device() lazily */
    return GP_OK;
}

static gp_status_t gpu_device_synchronize(void)
{
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.CtxSynchronize(), "synchronizing the device");
    return GP_OK;
}

static gp_status_t gpu_mem_info(int64_t *free_bytes, int64_t *total_bytes)
{
    GP_TRY(GPU_SYM(ctx_current)());
    size_t f = 0, t = 0;
    GPU_CHECK(api.MemGetInfo(&f, &t), "querying free memory");
    *free_bytes = (int64_t)f;
    *total_bytes = (int64_t)t;
    return GP_OK;
}

/* ---- memory -------------------------------------------------------------------------------- */

static gp_status_t gpu_mem_alloc(size_t n, void *stream, void **out)
{
    (void)stream;
    GP_TRY(GPU_SYM(ctx_current)());
    gpuDevicePtr p = 0;
    gpuResult r = api.MemAlloc(&p, n);
    if (r != GPU_SUCCESS)
        return gpu_fail(r, "allocating device memory");
    *out = GPU_VOIDP(p);
    return GP_OK;
}

static gp_status_t gpu_mem_free(void *p, size_t n, void *stream)
{
    (void)n, (void)stream;
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.MemFree(GPU_PTR(p)), "freeing device memory");
    return GP_OK;
}

static gp_status_t gpu_mem_alloc_async(size_t n, void *stream, void **out)
{
    GP_TRY(GPU_SYM(ctx_current)());
    static atomic_int threshold_set[GPU_MAX_DEVICES];
    int d = gp_current_device();
    if (!atomic_exchange(&threshold_set[d], 1)) {
        /* keep freed memory in the driver's pool instead of returning it
         * at every synchronisation */
        gpuMemPool pool;
        unsigned long long keep = ~0ull;
        if (api.DeviceGetDefaultMemPool(&pool, devices[d]) == GPU_SUCCESS)
            api.MemPoolSetAttribute(pool, GPU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep);
    }
    gpuDevicePtr p = 0;
    gpuResult r = api.MemAllocAsync(&p, n, (gpuStream)stream);
    if (r != GPU_SUCCESS)
        return gpu_fail(r, "allocating device memory from the driver's pool");
    *out = GPU_VOIDP(p);
    return GP_OK;
}

static gp_status_t gpu_mem_free_async(void *p, size_t n, void *stream)
{
    (void)n;
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.MemFreeAsync(GPU_PTR(p), (gpuStream)stream), "freeing device memory");
    return GP_OK;
}

static gp_status_t gpu_host_alloc(size_t n, void **out)
{
    GP_TRY(GPU_SYM(ctx_current)());
    gpuResult r = api.MemHostAlloc(out, n, GPU_MEMHOSTALLOC_PORTABLE);
    if (r != GPU_SUCCESS)
        return gpu_fail(r, "allocating pinned host memory");
    return GP_OK;
}

static gp_status_t gpu_host_free(void *p)
{
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.MemFreeHost(p), "freeing pinned host memory");
    return GP_OK;
}

static gp_status_t gpu_mem_alloc_managed(size_t n, void **out)
{
    GP_TRY(GPU_SYM(ctx_current)());
    gpuDevicePtr p = 0;
    gpuResult r = api.MemAllocManaged(&p, n, GPU_MEM_ATTACH_GLOBAL);
    if (r != GPU_SUCCESS)
        return gpu_fail(r, "allocating managed memory");
    *out = GPU_VOIDP(p);
    return GP_OK;
}

static gp_status_t gpu_host_register(void *p, size_t n, uint32_t flags)
{
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.MemHostRegister(p, n, flags), "page-locking host memory");
    return GP_OK;
}

static gp_status_t gpu_host_unregister(void *p)
{
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.MemHostUnregister(p), "unlocking host memory");
    return GP_OK;
}

static gp_status_t gpu_launch_host_func(void *stream, void (*fn)(void *), void *arg)
{
    if (!api.LaunchHostFunc)
        return gp_set_error(GP_ERR_UNSUPPORTED, "%s (%s) has no LaunchHostFunc: it is too old "
                            "for Stream.launch_host_func", GPU_DRIVER_WHAT, driver_path);
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.LaunchHostFunc((gpuStream)stream, fn, arg), "queueing a host function");
    return GP_OK;
}

static gp_status_t gpu_can_access_peer(int32_t dev, int32_t peer, int32_t *out)
{
    if (dev < 0 || dev >= ndevices || peer < 0 || peer >= ndevices)
        return gp_set_error(GP_ERR_VALUE, "invalid device pair %d, %d (there are %d devices)",
                            dev, peer, ndevices);
    int can = 0;
    GPU_CHECK(api.DeviceCanAccessPeer(&can, devices[dev], devices[peer]),
              "asking whether a device can access a peer");
    *out = can != 0;
    return GP_OK;
}

static gp_status_t gpu_enable_peer(int32_t peer)
{
    if (peer < 0 || peer >= ndevices)
        return gp_set_error(GP_ERR_VALUE, "invalid peer device %d", peer);
    GP_TRY(GPU_SYM(ctx_current)());
    pthread_mutex_lock(&ctx_lock);
    gpuResult r = GPU_SUCCESS;
    if (!contexts[peer])
        r = api.DevicePrimaryCtxRetain(&contexts[peer], devices[peer]);
    gpuContext c = contexts[peer];
    pthread_mutex_unlock(&ctx_lock);
    if (r != GPU_SUCCESS)
        return gpu_fail(r, "retaining the peer's primary context");
    GPU_CHECK(api.CtxEnablePeerAccess(c, 0), "enabling peer access");
    return GP_OK;
}

static gp_status_t gpu_ipc_mem_handle(void *dptr, void *handle)
{
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.IpcGetMemHandle((gpuIpcHandle *)handle, GPU_PTR(dptr)),
              "getting an interprocess memory handle");
    return GP_OK;
}

static gp_status_t gpu_ipc_open_mem(const void *handle, void **dptr)
{
    GP_TRY(GPU_SYM(ctx_current)());
    gpuIpcHandle h;
    memcpy(&h, handle, sizeof h);
    gpuDevicePtr p = 0;
    GPU_CHECK(api.IpcOpenMemHandle(&p, h, GPU_IPC_LAZY_ENABLE_PEER_ACCESS),
              "opening an interprocess memory handle");
    *dptr = GPU_VOIDP(p);
    return GP_OK;
}

static gp_status_t gpu_ipc_close_mem(void *dptr)
{
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.IpcCloseMemHandle(GPU_PTR(dptr)), "closing an interprocess memory handle");
    return GP_OK;
}

static gp_status_t gpu_ipc_event_handle(void *event, void *handle)
{
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.IpcGetEventHandle((gpuIpcHandle *)handle, (gpuEvent)event),
              "getting an interprocess event handle");
    return GP_OK;
}

static gp_status_t gpu_ipc_open_event(const void *handle, void **event)
{
    GP_TRY(GPU_SYM(ctx_current)());
    gpuIpcHandle h;
    memcpy(&h, handle, sizeof h);
    gpuEvent e;
    GPU_CHECK(api.IpcOpenEventHandle(&e, h), "opening an interprocess event handle");
    *event = e;
    return GP_OK;
}

static gp_status_t gpu_pointer_attributes(const void *p, int32_t *type, int32_t *device,
                                          uint64_t *dptr, uint64_t *hptr)
{
    GP_TRY(GPU_SYM(ctx_current)());
    *type = 0, *device = -2, *dptr = 0, *hptr = 0;
    unsigned mtype = 0;
    gpuResult r = api.PointerGetAttribute(&mtype, GPU_POINTER_ATTRIBUTE_MEMORY_TYPE, GPU_PTR(p));
    if (r == GPU_ERROR_INVALID_VALUE)
        return GP_OK; /* memory the driver does not know: ordinary host memory */
    if (r != GPU_SUCCESS)
        return gpu_fail(r, "querying a pointer's memory type");
    int managed = 0, ordinal = -2;
    void *d = NULL, *h = NULL;
    /* the other attributes are answered for some kinds of memory only (no
     * host address for device memory...): a refusal leaves the default */
    if (api.PointerGetAttribute(&managed, GPU_POINTER_ATTRIBUTE_IS_MANAGED, GPU_PTR(p)) !=
        GPU_SUCCESS)
        managed = 0;
    if (api.PointerGetAttribute(&ordinal, GPU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, GPU_PTR(p)) !=
        GPU_SUCCESS)
        ordinal = -2;
    if (api.PointerGetAttribute(&d, GPU_POINTER_ATTRIBUTE_DEVICE_POINTER, GPU_PTR(p)) !=
        GPU_SUCCESS)
        d = NULL;
    if (api.PointerGetAttribute(&h, GPU_POINTER_ATTRIBUTE_HOST_POINTER, GPU_PTR(p)) !=
        GPU_SUCCESS)
        h = NULL;
    *type = managed                           ? 3
            : mtype == GPU_MEMORYTYPE_HOST   ? 1
            : mtype == GPU_MEMORYTYPE_DEVICE ? 2
                                             : 0;
    *device = ordinal;
    *dptr = (uint64_t)(uintptr_t)d;
    *hptr = (uint64_t)(uintptr_t)h;
    return GP_OK;
}

static gp_status_t gpu_driver_version(int32_t *out)
{
    int v = 0;
    GPU_CHECK(api.DriverGetVersion(&v), "querying the driver's version");
    *out = v;
    return GP_OK;
}

static gp_status_t gpu_memcpy_htod(void *dst, const void *src, size_t n, void *stream)
{
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.MemcpyHtoDAsync(GPU_PTR(dst), src, n, (gpuStream)stream),
              "copying host to device");
    return GP_OK;
}

static gp_status_t gpu_memcpy_dtoh(void *dst, const void *src, size_t n, void *stream)
{
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.MemcpyDtoHAsync(dst, GPU_PTR(src), n, (gpuStream)stream),
              "copying device to host");
    GPU_CHECK(api.StreamSynchronize((gpuStream)stream), "waiting for a copy to the host");
    return GP_OK;
}

static gp_status_t gpu_memcpy_dtoh_async(void *dst, const void *src, size_t n, void *stream)
{
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.MemcpyDtoHAsync(dst, GPU_PTR(src), n, (gpuStream)stream),
              "copying device to host");
    return GP_OK;
}

static gp_status_t gpu_memcpy_dtod(void *dst, const void *src, size_t n, void *stream)
{
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.MemcpyDtoDAsync(GPU_PTR(dst), GPU_PTR(src), n, (gpuStream)stream),
              "copying device to device");
    return GP_OK;
}

static gp_status_t gpu_memset8(void *dst, uint8_t v, size_t n, void *stream)
{
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.MemsetD8Async(GPU_PTR(dst), v, n, (gpuStream)stream), "setting device memory");
    return GP_OK;
}

/* ---- streams and events ----------------------------------------------------------------- */

static gp_status_t gpu_stream_create(int32_t flags, int32_t priority, void **out)
{
    GP_TRY(GPU_SYM(ctx_current)());
    gpuStream s;
    GPU_CHECK(api.StreamCreateWithPriority(&s, (flags & GP_STREAM_NON_BLOCKING)
                                                   ? GPU_STREAM_NON_BLOCKING : 0, priority),
              "creating a stream");
    *out = s;
    return GP_OK;
}

static gp_status_t gpu_stream_capturing(void *s, int32_t *out)
{
    GP_TRY(GPU_SYM(ctx_current)());
    int status = 0;
    GPU_CHECK(api.StreamIsCapturing((gpuStream)s, &status), "querying a stream's capture");
    *out = status != 0;
    return GP_OK;
}

static gp_status_t gpu_stream_destroy(void *s)
{
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.StreamDestroy((gpuStream)s), "destroying a stream");
    return GP_OK;
}

static gp_status_t gpu_stream_synchronize(void *s)
{
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.StreamSynchronize((gpuStream)s), "synchronizing a stream");
    return GP_OK;
}

static gp_status_t gpu_stream_query(void *s, int32_t *done)
{
    GP_TRY(GPU_SYM(ctx_current)());
    gpuResult r = api.StreamQuery((gpuStream)s);
    if (r != GPU_SUCCESS && r != GPU_ERROR_NOT_READY)
        return gpu_fail(r, "querying a stream");
    *done = r == GPU_SUCCESS;
    return GP_OK;
}

static gp_status_t gpu_stream_wait_event(void *s, void *e)
{
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.StreamWaitEvent((gpuStream)s, (gpuEvent)e, 0), "making a stream wait");
    return GP_OK;
}

static gp_status_t gpu_stream_order(void *waiter, void *producer)
{
    GP_TRY(GPU_SYM(ctx_current)());
    gpuEvent e;
    GPU_CHECK(api.EventCreate(&e, GPU_EVENT_DISABLE_TIMING), "creating an event");
    gpuResult r = api.EventRecord(e, (gpuStream)producer);
    if (r == GPU_SUCCESS)
        r = api.StreamWaitEvent((gpuStream)waiter, e, 0);
    api.EventDestroy(e); /* its resources outlive it until the wait is done */
    if (r != GPU_SUCCESS)
        return gpu_fail(r, "ordering a stream after another");
    return GP_OK;
}

static gp_status_t gpu_event_create(int32_t timing, void **out)
{
    GP_TRY(GPU_SYM(ctx_current)());
    gpuEvent e;
    unsigned flags = (timing & GP_EVENT_INTERPROCESS)
                         ? GPU_EVENT_INTERPROCESS | GPU_EVENT_DISABLE_TIMING
                         : (timing & GP_EVENT_TIMING) ? 0 : GPU_EVENT_DISABLE_TIMING;
    GPU_CHECK(api.EventCreate(&e, flags), "creating an event");
    *out = e;
    return GP_OK;
}

static gp_status_t gpu_event_destroy(void *e)
{
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.EventDestroy((gpuEvent)e), "destroying an event");
    return GP_OK;
}

static gp_status_t gpu_event_record(void *e, void *s)
{
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.EventRecord((gpuEvent)e, (gpuStream)s), "recording an event");
    return GP_OK;
}

static gp_status_t gpu_event_synchronize(void *e)
{
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.EventSynchronize((gpuEvent)e), "waiting for an event");
    return GP_OK;
}

static gp_status_t gpu_event_query(void *e, int32_t *done)
{
    GP_TRY(GPU_SYM(ctx_current)());
    gpuResult r = api.EventQuery((gpuEvent)e);
    if (r != GPU_SUCCESS && r != GPU_ERROR_NOT_READY)
        return gpu_fail(r, "querying an event");
    *done = r == GPU_SUCCESS;
    return GP_OK;
}

static gp_status_t gpu_event_elapsed(void *start, void *end, float *ms)
{
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.EventElapsedTime(ms, (gpuEvent)start, (gpuEvent)end),
              "measuring the time between events");
    return GP_OK;
}

/* ---- kernels ------------------------------------------------------------------------------- */

static const char *gpu_compiler_id(void)
{
    static _Thread_local char id[256];
    const gp_device_props_t *p;
    if (gp_backend_props(&p) != GP_OK)
        return NULL;
    const char *rtc = GPU_RTC_ID();
    if (!rtc)
        return NULL;
    snprintf(id, sizeof id, GP_GPU_COMPILER_ID, rtc, p->target);
    return id;
}

static gp_status_t gpu_compile(const char *source, gp_blob_t *out)
{
    const gp_device_props_t *p;
    GP_TRY(gp_backend_props(&p));
    return GPU_RTC_COMPILE(source, p->target, out);
}

#ifdef GPU_RTC_COMPILE_QUICK
static gp_status_t gpu_compile_quick(const char *source, gp_blob_t *out)
{
    const gp_device_props_t *p;
    GP_TRY(gp_backend_props(&p));
    return GPU_RTC_COMPILE_QUICK(source, p->target, out);
}
#define GPU_COMPILE_QUICK gpu_compile_quick
#else
#define GPU_COMPILE_QUICK NULL
#endif

/* An image for the other vendor's devices is refused by name, where the
 * driver would only call it invalid: ELF objects carry their machine
 * (e_machine, little-endian at byte 18), PTX is text. */
static gp_status_t image_check(const gp_blob_t *image)
{
    const unsigned char *p = image->data;
    if (image->size >= 20 && memcmp(p, "\177ELF", 4) == 0) {
        int machine = p[18] | p[19] << 8;
        if (machine != GPU_ELF_MACHINE)
            return gp_set_error(GP_ERR_UNSUPPORTED, "the %s backend cannot load this module: "
                                "it is machine code for %s", GPU_VENDOR,
                                machine == 190 ? "NVIDIA GPUs (a cubin)"
                                : machine == 224 ? "AMD GPUs (a code object)"
                                                 : "another machine");
    } else if (!GPU_TAKES_PTX) {
        return gp_set_error(GP_ERR_UNSUPPORTED, "the %s backend cannot load this module: it is "
                            "not an AMD code object (PTX is CUDA's)", GPU_VENDOR);
    }
    return GP_OK;
}

static gp_status_t gpu_module_load(const gp_blob_t *image, void **module)
{
    GP_TRY(image_check(image));
    GP_TRY(GPU_SYM(ctx_current)());
    gpuModule m;
    GPU_CHECK(api.ModuleLoadData(&m, image->data), "loading a compiled kernel");
    *module = m;
    return GP_OK;
}

/* A kernel whose stack (its frames and spills: local memory per thread)
 * passes the context's limit does not grow it: it overflows, and the fault
 * ends the context (CUDA_ERROR_ILLEGAL_ADDRESS, compute-sanitizer's "stack
 * overflow"; eval_jacobi's 1424 bytes against CUDA's 1 KiB on an H100). So
 * the limit is raised before such a kernel's first launch, with a KiB to
 * spare (bdtr's 1952 bytes ran under 2048, and stdtr's 2032 did not). */
static gp_status_t fit_stack(gpuFunction f)
{
    int local = 0;
    size_t limit = 0;
    if (!api.CtxGetLimit || !api.CtxSetLimit ||
        api.FuncGetAttribute(&local, GPU_FUNC_LOCAL_SIZE_BYTES, f) != GPU_SUCCESS ||
        api.CtxGetLimit(&limit, GPU_LIMIT_STACK_SIZE) != GPU_SUCCESS)
        return GP_OK; /* a runtime that cannot say keeps its own limit */
    size_t want = ((size_t)local + 2047) & ~(size_t)1023;
    if (local <= 0 || want <= limit)
        return GP_OK;
    GPU_CHECK(api.CtxSetLimit(GPU_LIMIT_STACK_SIZE, want), "raising the threads' stack size");
    return GP_OK;
}

static gp_status_t gpu_module_function(void *module, const char *name, void **fn)
{
    gpuFunction f;
    GPU_CHECK(api.ModuleGetFunction(&f, (gpuModule)module, name), "finding a kernel");
    GP_TRY(fit_stack(f));
    remember_name(f, name);
    *fn = f;
    return GP_OK;
}

/* ---- launches --------------------------------------------------------------------------
 * A kernel goes to the device as the one node of a small graph, updated
 * before each launch: on the H200 updating and launching costs 2.2 us where
 * cuLaunchKernel costs 3.3 (docs/performance.md), if the node keeps its
 * kernel (a node changed to another kernel costs as much as a plain launch).
 * So a thread keeps a graph per kernel and stream for the kernels it
 * launched last: a graph's launches are ordered behind its earlier ones,
 * and no graph may tie two streams together. Making a graph costs tens of
 * launches, so a thread makes at most one per GRAPH_COST launches: one
 * cycling through more kernels than it keeps graphs for stays near the
 * plain launch's cost. A stream being captured gets plain launches, which
 * the capture records as its nodes. GPUNP_LAUNCH=direct: plain launches.
 * A vendor whose graph nodes cannot hold a module's kernel (HIP) has plain
 * launches only. */
#if GPU_LAUNCH_GRAPHS
#define LAUNCH_GRAPHS 32
#define GRAPH_COST 64

typedef struct {
    gpuContext ctx;
    gpuStream stream;
    gpuFunction fn;
    gpuGraph graph;
    gpuGraphNode node;
    gpuGraphExec exec;
    uint64_t used; /* the thread's launch count at its last use */
} launch_graph_t;

static _Thread_local launch_graph_t tls_graphs[LAUNCH_GRAPHS];
static _Thread_local uint64_t tls_launches;
static _Thread_local int64_t tls_credit = GRAPH_COST; /* launches that pay for new graphs */
static pthread_key_t graphs_key;
static pthread_once_t graphs_key_once = PTHREAD_ONCE_INIT;

static void drop_graph(launch_graph_t *g)
{
    /* a graph still running is freed when it is done */
    if (g->exec)
        api.GraphExecDestroy(g->exec);
    if (g->graph)
        api.GraphDestroy(g->graph);
    memset(g, 0, sizeof *g);
}

static void drop_thread_graphs(void *graphs)
{
    launch_graph_t *g = graphs;
    for (int i = 0; i < LAUNCH_GRAPHS; ++i)
        if (g[i].exec && api.CtxSetCurrent(g[i].ctx) == GPU_SUCCESS)
            drop_graph(&g[i]);
}

static void make_graphs_key(void) { pthread_key_create(&graphs_key, drop_thread_graphs); }

/* This thread's graph for k's kernel on `stream`, made if there is credit
 * for it; NULL where a plain launch must (capture) or will be used. */
static launch_graph_t *graph_for(gpuStream stream, const gpuKernelNode *k)
{
    int capturing = 0;
    if (stream && (api.StreamIsCapturing(stream, &capturing) != GPU_SUCCESS || capturing))
        return NULL;
    uint64_t now = ++tls_launches;
    if (tls_credit < 4 * GRAPH_COST)
        ++tls_credit;
    launch_graph_t *oldest = &tls_graphs[0];
    for (int i = 0; i < LAUNCH_GRAPHS; ++i) {
        launch_graph_t *g = &tls_graphs[i];
        if (g->fn == k->func && g->stream == stream && g->ctx == tls_ctx && g->exec) {
            g->used = now;
            return g;
        }
        if (g->used < oldest->used)
            oldest = g;
    }
    if (tls_credit < GRAPH_COST)
        return NULL;
    tls_credit -= GRAPH_COST;
    pthread_once(&graphs_key_once, make_graphs_key);
    pthread_setspecific(graphs_key, tls_graphs);
    launch_graph_t *g = oldest;
    drop_graph(g);
    if (api.GraphCreate(&g->graph, 0) != GPU_SUCCESS ||
        api.GraphAddKernelNode(&g->node, g->graph, NULL, 0, k) != GPU_SUCCESS ||
        api.GraphInstantiate(&g->exec, g->graph, 0) != GPU_SUCCESS) {
        drop_graph(g);
        return NULL;
    }
    g->ctx = tls_ctx;
    g->stream = stream;
    g->fn = k->func;
    g->used = now;
    return g;
}
#endif /* GPU_LAUNCH_GRAPHS */

static gp_status_t launch(gpuFunction fn, const uint32_t grid[3], const uint32_t block[3],
                          uint32_t shared_mem, gpuStream stream, void **args)
{
    GP_TRY(GPU_SYM(ctx_current)());
    atomic_store_explicit(&last_launched, (void *)fn, memory_order_relaxed);
#if GPU_LAUNCH_GRAPHS
    if (launch_graphs) {
        gpuKernelNode k = {fn, {grid[0], grid[1], grid[2]}, {block[0], block[1], block[2]},
                           shared_mem, args, NULL, NULL, NULL};
        launch_graph_t *g = graph_for(stream, &k);
        /* where the node refuses the launch, the plain launch says why */
        if (g && api.GraphExecKernelNodeSetParams(g->exec, g->node, &k) == GPU_SUCCESS) {
            GPU_CHECK(api.GraphLaunch(g->exec, stream), "launching a kernel");
            return GP_OK;
        }
    }
#endif
    GPU_CHECK(api.LaunchKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                               shared_mem, stream, args, NULL),
              "launching a kernel");
    return GP_OK;
}

static gp_status_t gpu_launch(void *fn, const gp_launch_t *cfg, const void *params,
                              size_t params_size, void *stream)
{
    (void)params_size;
    void *args[1] = {(void *)params};
    const uint32_t grid[3] = {cfg->grid, 1, 1}, block[3] = {cfg->block, 1, 1};
    return launch((gpuFunction)fn, grid, block, cfg->shared_mem, (gpuStream)stream, args);
}

/* ---- users' kernels and graphs -------------------------------------------------------- */

static gp_status_t gpu_compile_user(const char *source, int32_t nopts, const char *const *opts,
                                    int32_t nnames, const char *const *names, gp_blob_t *image,
                                    char **lowered)
{
    const gp_device_props_t *p;
    GP_TRY(gp_backend_props(&p));
    return GPU_RTC_COMPILE_USER(source, p->target, nopts, opts, nnames, names, image, lowered);
}

static gp_status_t gpu_function_attribute(void *fn, int32_t attr, int32_t set, int32_t *value)
{
    GP_TRY(GPU_SYM(ctx_current)());
    if (set) {
#if GPU_FUNC_SET_ATTRIBUTE
        GPU_CHECK(api.FuncSetAttribute((gpuFunction)fn, attr, *value), "setting a kernel attribute");
#else
        return gp_set_error(GP_ERR_UNSUPPORTED, "setting a kernel's attributes is not available "
                                                "on the %s backend", GPU_VENDOR);
#endif
    } else
        GPU_CHECK(api.FuncGetAttribute(value, attr, (gpuFunction)fn), "reading a kernel attribute");
    return GP_OK;
}

static gp_status_t gpu_launch_user(void *fn, const uint32_t *grid, const uint32_t *block,
                                   uint32_t shared_mem, void *stream, void *const *args)
{
    return launch((gpuFunction)fn, grid, block, shared_mem, (gpuStream)stream, (void **)args);
}

static gp_status_t gpu_capture_begin(void *stream)
{
    GP_TRY(GPU_SYM(ctx_current)());
    /* relaxed: the memory pool may still allocate while capturing */
    GPU_CHECK(api.StreamBeginCapture((gpuStream)stream, GPU_CAPTURE_MODE_RELAXED),
              "starting a graph capture");
    return GP_OK;
}

static gp_status_t gpu_capture_end(void *stream, void **out)
{
    GP_TRY(GPU_SYM(ctx_current)());
    gpuGraph g;
    GPU_CHECK(api.StreamEndCapture((gpuStream)stream, &g), "ending a graph capture");
    gpuGraphExec e;
    gpuResult r = api.GraphInstantiate(&e, g, 0);
    api.GraphDestroy(g);
    if (r != GPU_SUCCESS)
        return gpu_fail(r, "instantiating a captured graph");
    *out = e;
    return GP_OK;
}

static gp_status_t gpu_graph_launch(void *graph, void *stream)
{
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.GraphLaunch((gpuGraphExec)graph, (gpuStream)stream), "launching a graph");
    return GP_OK;
}

static gp_status_t gpu_graph_destroy(void *graph)
{
    GP_TRY(GPU_SYM(ctx_current)());
    GPU_CHECK(api.GraphExecDestroy((gpuGraphExec)graph), "destroying a graph");
    return GP_OK;
}

const gp_backend_i GPU_BACKEND = {
    .name = GPU_VENDOR,
    .dl_device_type = GPU_DL_DEVICE,
    .pooled = 1,
    .init = gpu_init,
    .device_count = gpu_device_count,
    .device_props = gpu_device_props,
    .device_set = gpu_device_set,
    .device_synchronize = gpu_device_synchronize,
    .mem_info = gpu_mem_info,
    .mem_alloc = gpu_mem_alloc,
    .mem_free = gpu_mem_free,
    .mem_alloc_async = gpu_mem_alloc_async,
    .mem_free_async = gpu_mem_free_async,
    .host_alloc = gpu_host_alloc,
    .mem_alloc_managed = gpu_mem_alloc_managed,
    .host_register = gpu_host_register,
    .host_unregister = gpu_host_unregister,
    .launch_host_func = gpu_launch_host_func,
    .driver_version = gpu_driver_version,
    .can_access_peer = gpu_can_access_peer,
    .enable_peer = gpu_enable_peer,
    .ipc_mem_handle = gpu_ipc_mem_handle,
    .ipc_open_mem = gpu_ipc_open_mem,
    .ipc_close_mem = gpu_ipc_close_mem,
    .ipc_event_handle = gpu_ipc_event_handle,
    .ipc_open_event = gpu_ipc_open_event,
    .pointer_attributes = gpu_pointer_attributes,
    .host_free = gpu_host_free,
    .memcpy_htod = gpu_memcpy_htod,
    .memcpy_dtoh = gpu_memcpy_dtoh,
    .memcpy_dtoh_async = gpu_memcpy_dtoh_async,
    .memcpy_dtod = gpu_memcpy_dtod,
    .memset8 = gpu_memset8,
    .stream_create = gpu_stream_create,
    .stream_destroy = gpu_stream_destroy,
    .stream_synchronize = gpu_stream_synchronize,
    .stream_query = gpu_stream_query,
    .stream_capturing = gpu_stream_capturing,
    .stream_wait_event = gpu_stream_wait_event,
    .stream_order = gpu_stream_order,
    .event_create = gpu_event_create,
    .event_destroy = gpu_event_destroy,
    .event_record = gpu_event_record,
    .event_synchronize = gpu_event_synchronize,
    .event_query = gpu_event_query,
    .event_elapsed = gpu_event_elapsed,
    .prelude = GPU_PRELUDE,
    .compiler_id = gpu_compiler_id,
    .compile = gpu_compile,
    .compile_quick = GPU_COMPILE_QUICK,
    .module_load = gpu_module_load,
    .module_function = gpu_module_function,
    .launch = gpu_launch,
    .compile_user = gpu_compile_user,
    .function_attribute = gpu_function_attribute,
    .launch_user = gpu_launch_user,
    .capture_begin = gpu_capture_begin,
    .capture_end = gpu_capture_end,
    .graph_launch = gpu_graph_launch,
    .graph_destroy = gpu_graph_destroy,
    .gemm = GPU_SYM(gemm),
#if GPU_HAS_SOLVER
    .solver_workspace = GPU_SYM(solver_workspace),
    .solver = GPU_SYM(solver),
    .solver_has = GPU_SYM(solver_has),
#if GPU_BLAS_HAS_TRSM
    .trsm = GPU_SYM(trsm),
#endif
#endif
#ifdef GPU_FFT_API
    .fft_plan = GPU_SYM(fft_plan),
    .fft_exec = GPU_SYM(fft_exec),
    .fft_destroy = GPU_SYM(fft_destroy),
#endif
#ifdef GPU_SPARSE_API
    .csr_mm = GPU_SYM(csr_mm),
    .csr_spgemm = GPU_SYM(csr_spgemm),
#endif
#ifdef GPU_SPSOLVER_API
    .csr_solve = GPU_SYM(csr_solve),
#endif
};
