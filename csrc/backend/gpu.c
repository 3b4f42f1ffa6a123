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

#include "../rtc/rtc.h"
#include "backend.h"
#include "dl.h"

#if defined(GP_GPU_HIP)
#include "vendor/hip.h"
#else
#include "vendor/cuda.h"
#endif

#define GPU_MAX_DEVICES 64

static struct {
#define X(name, params, syms) gpuResult (*name) params;
    GPU_API(X)
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

static gp_status_t gpu_fail(gpuResult r, const char *what)
{
    const char *name = NULL, *text = NULL;
    GPU_ERROR_TEXTS(r, &name, &text);
    gp_status_t code = r == GPU_ERROR_OUT_OF_MEMORY ? GP_ERR_NOMEM_DEVICE : GP_ERR_BACKEND;
    return gp_set_error(code, "%s failed: %s (%s: %s)", what, text ? text : "", name ? name : "?",
                        GPU_VENDOR);
}

#define GPU_CHECK(call, what)                     \
    do {                                          \
        gpuResult gpu_r_ = (call);                \
        if (gpu_r_ != GPU_SUCCESS)                \
            return gpu_fail(gpu_r_, what);        \
    } while (0)

/* ---- loading ------------------------------------------------------------------------- */

static void *find_symbol(void *lib, const char *candidates)
{
    for (const char *s = candidates; *s; s += strlen(s) + 1) {
        void *f = dlsym(lib, s);
        if (f)
            return f;
    }
    return NULL;
}

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
#define X(name, params, syms)                                                        \
    *(void **)&api.name = find_symbol(lib, syms);                                    \
    if (!api.name) {                                                                 \
        load_status = GP_ERR_NOT_FOUND_LIBRARY;                                      \
        snprintf(load_problem, sizeof load_problem, "%s (%s) lacks %s: the driver is " \
                 "too old", GPU_DRIVER_WHAT, driver_path, syms);                     \
        return;                                                                      \
    }
    GPU_API(X)
    GPU_TEXT_API(X)
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

/* Makes the current device's primary context current on this thread. */
static gp_status_t ctx_current(void)
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
    GP_TRY(ctx_current());
    GPU_CHECK(api.CtxSynchronize(), "synchronizing the device");
    return GP_OK;
}

static gp_status_t gpu_mem_info(int64_t *free_bytes, int64_t *total_bytes)
{
    GP_TRY(ctx_current());
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
    GP_TRY(ctx_current());
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
    GP_TRY(ctx_current());
    GPU_CHECK(api.MemFree(GPU_PTR(p)), "freeing device memory");
    return GP_OK;
}

static gp_status_t gpu_mem_alloc_async(size_t n, void *stream, void **out)
{
    GP_TRY(ctx_current());
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
    GP_TRY(ctx_current());
    GPU_CHECK(api.MemFreeAsync(GPU_PTR(p), (gpuStream)stream), "freeing device memory");
    return GP_OK;
}

static gp_status_t gpu_host_alloc(size_t n, void **out)
{
    GP_TRY(ctx_current());
    gpuResult r = api.MemHostAlloc(out, n, GPU_MEMHOSTALLOC_PORTABLE);
    if (r != GPU_SUCCESS)
        return gpu_fail(r, "allocating pinned host memory");
    return GP_OK;
}

static gp_status_t gpu_host_free(void *p)
{
    GP_TRY(ctx_current());
    GPU_CHECK(api.MemFreeHost(p), "freeing pinned host memory");
    return GP_OK;
}

static gp_status_t gpu_memcpy_htod(void *dst, const void *src, size_t n, void *stream)
{
    GP_TRY(ctx_current());
    GPU_CHECK(api.MemcpyHtoDAsync(GPU_PTR(dst), src, n, (gpuStream)stream),
              "copying host to device");
    return GP_OK;
}

static gp_status_t gpu_memcpy_dtoh(void *dst, const void *src, size_t n, void *stream)
{
    GP_TRY(ctx_current());
    GPU_CHECK(api.MemcpyDtoHAsync(dst, GPU_PTR(src), n, (gpuStream)stream),
              "copying device to host");
    GPU_CHECK(api.StreamSynchronize((gpuStream)stream), "waiting for a copy to the host");
    return GP_OK;
}

static gp_status_t gpu_memcpy_dtoh_async(void *dst, const void *src, size_t n, void *stream)
{
    GP_TRY(ctx_current());
    GPU_CHECK(api.MemcpyDtoHAsync(dst, GPU_PTR(src), n, (gpuStream)stream),
              "copying device to host");
    return GP_OK;
}

static gp_status_t gpu_memcpy_dtod(void *dst, const void *src, size_t n, void *stream)
{
    GP_TRY(ctx_current());
    GPU_CHECK(api.MemcpyDtoDAsync(GPU_PTR(dst), GPU_PTR(src), n, (gpuStream)stream),
              "copying device to device");
    return GP_OK;
}

static gp_status_t gpu_memset8(void *dst, uint8_t v, size_t n, void *stream)
{
    GP_TRY(ctx_current());
    GPU_CHECK(api.MemsetD8Async(GPU_PTR(dst), v, n, (gpuStream)stream), "setting device memory");
    return GP_OK;
}

/* ---- streams and events ----------------------------------------------------------------- */

static gp_status_t gpu_stream_create(int32_t flags, int32_t priority, void **out)
{
    GP_TRY(ctx_current());
    gpuStream s;
    GPU_CHECK(api.StreamCreateWithPriority(&s, (flags & GP_STREAM_NON_BLOCKING)
                                                   ? GPU_STREAM_NON_BLOCKING : 0, priority),
              "creating a stream");
    *out = s;
    return GP_OK;
}

static gp_status_t gpu_stream_capturing(void *s, int32_t *out)
{
    GP_TRY(ctx_current());
    int status = 0;
    GPU_CHECK(api.StreamIsCapturing((gpuStream)s, &status), "querying a stream's capture");
    *out = status != 0;
    return GP_OK;
}

static gp_status_t gpu_stream_destroy(void *s)
{
    GP_TRY(ctx_current());
    GPU_CHECK(api.StreamDestroy((gpuStream)s), "destroying a stream");
    return GP_OK;
}

static gp_status_t gpu_stream_synchronize(void *s)
{
    GP_TRY(ctx_current());
    GPU_CHECK(api.StreamSynchronize((gpuStream)s), "synchronizing a stream");
    return GP_OK;
}

static gp_status_t gpu_stream_query(void *s, int32_t *done)
{
    GP_TRY(ctx_current());
    gpuResult r = api.StreamQuery((gpuStream)s);
    if (r != GPU_SUCCESS && r != GPU_ERROR_NOT_READY)
        return gpu_fail(r, "querying a stream");
    *done = r == GPU_SUCCESS;
    return GP_OK;
}

static gp_status_t gpu_stream_wait_event(void *s, void *e)
{
    GP_TRY(ctx_current());
    GPU_CHECK(api.StreamWaitEvent((gpuStream)s, (gpuEvent)e, 0), "making a stream wait");
    return GP_OK;
}

static gp_status_t gpu_stream_order(void *waiter, void *producer)
{
    GP_TRY(ctx_current());
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
    GP_TRY(ctx_current());
    gpuEvent e;
    GPU_CHECK(api.EventCreate(&e, timing ? 0 : GPU_EVENT_DISABLE_TIMING), "creating an event");
    *out = e;
    return GP_OK;
}

static gp_status_t gpu_event_destroy(void *e)
{
    GP_TRY(ctx_current());
    GPU_CHECK(api.EventDestroy((gpuEvent)e), "destroying an event");
    return GP_OK;
}

static gp_status_t gpu_event_record(void *e, void *s)
{
    GP_TRY(ctx_current());
    GPU_CHECK(api.EventRecord((gpuEvent)e, (gpuStream)s), "recording an event");
    return GP_OK;
}

static gp_status_t gpu_event_synchronize(void *e)
{
    GP_TRY(ctx_current());
    GPU_CHECK(api.EventSynchronize((gpuEvent)e), "waiting for an event");
    return GP_OK;
}

static gp_status_t gpu_event_query(void *e, int32_t *done)
{
    GP_TRY(ctx_current());
    gpuResult r = api.EventQuery((gpuEvent)e);
    if (r != GPU_SUCCESS && r != GPU_ERROR_NOT_READY)
        return gpu_fail(r, "querying an event");
    *done = r == GPU_SUCCESS;
    return GP_OK;
}

static gp_status_t gpu_event_elapsed(void *start, void *end, float *ms)
{
    GP_TRY(ctx_current());
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
    GP_TRY(ctx_current());
    gpuModule m;
    GPU_CHECK(api.ModuleLoadData(&m, image->data), "loading a compiled kernel");
    *module = m;
    return GP_OK;
}

static gp_status_t gpu_module_function(void *module, const char *name, void **fn)
{
    gpuFunction f;
    GPU_CHECK(api.ModuleGetFunction(&f, (gpuModule)module, name), "finding a kernel");
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
    GP_TRY(ctx_current());
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
    GP_TRY(ctx_current());
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
    GP_TRY(ctx_current());
    /* relaxed: the memory pool may still allocate while capturing */
    GPU_CHECK(api.StreamBeginCapture((gpuStream)stream, GPU_CAPTURE_MODE_RELAXED),
              "starting a graph capture");
    return GP_OK;
}

static gp_status_t gpu_capture_end(void *stream, void **out)
{
    GP_TRY(ctx_current());
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
    GP_TRY(ctx_current());
    GPU_CHECK(api.GraphLaunch((gpuGraphExec)graph, (gpuStream)stream), "launching a graph");
    return GP_OK;
}

static gp_status_t gpu_graph_destroy(void *graph)
{
    GP_TRY(ctx_current());
    GPU_CHECK(api.GraphExecDestroy((gpuGraphExec)graph), "destroying a graph");
    return GP_OK;
}

/* ---- vendor libraries ------------------------------------------------------------------ */

/* A vendor library (BLAS, FFT) loaded at first use; a failure is kept and
 * reported by every later call. */
typedef struct vendor_lib {
    pthread_once_t once;
    gp_status_t status;
    char problem[4096];
} vendor_lib_t;

/* Opens `what` (one of `sonames`) and fills slots[i] with symbol syms[i]
 * (a '\0'-separated list of candidates); the library, or NULL on failure. */
static void *load_vendor(vendor_lib_t *v, const char *what, const char *const *sonames,
                         const char *const *syms, void **const *slots, int n)
{
    void *lib;
    v->status = gp_dl_open(what, sonames, GPU_DL_VENDOR, &lib);
    if (v->status != GP_OK) {
        snprintf(v->problem, sizeof v->problem, "%s", gp_errmsg());
        return NULL;
    }
    for (int i = 0; i < n; ++i) {
        *slots[i] = find_symbol(lib, syms[i]);
        if (!*slots[i]) {
            v->status = GP_ERR_NOT_FOUND_LIBRARY;
            snprintf(v->problem, sizeof v->problem, "%s lacks %s", what, syms[i]);
            return NULL;
        }
    }
    return lib;
}

/* Loads `v` by `load` on first use; its status (with the error set). */
static gp_status_t vendor_ready(vendor_lib_t *v, void (*load)(void))
{
    pthread_once(&v->once, load);
    if (v->status != GP_OK)
        return gp_set_error(v->status, "%s", v->problem);
    return GP_OK;
}

/* ---- BLAS ----------------------------------------------------------------------------- */

static struct {
#define X(name, params, syms) int (*name) params;
    GPU_BLAS_API(X)
#undef X
#define T(name, params, ...) int (*name[4]) params; /* S, D, C, Z */
    GPU_BLAS_TYPED_API(T)
#undef T
} blas;

static vendor_lib_t blas_lib = {PTHREAD_ONCE_INIT};

static void load_blas(void)
{
    static const char *const sonames[] = GPU_BLAS_SONAMES;
#define X(name, params, syms) syms,
    static const char *const syms[] = {GPU_BLAS_API(X)};
#undef X
#define X(name, params, syms) (void **)&blas.name,
    void **slots[] = {GPU_BLAS_API(X)};
#undef X
    void *lib = load_vendor(&blas_lib, GPU_BLAS_WHAT, sonames, syms, slots,
                            (int)(sizeof syms / sizeof *syms));
    (void)lib;
#define T(name, params, ...)                                          \
    if (lib) {                                                        \
        static const char *const names[4] = {__VA_ARGS__};            \
        for (int k = 0; k < 4; ++k)                                   \
            *(void **)&blas.name[k] = dlsym(lib, names[k]);           \
    }
    GPU_BLAS_TYPED_API(T)
#undef T
}

/* One handle per thread and device: a handle is not shared by threads. */
static _Thread_local gpuBlasHandle blas_handles[GPU_MAX_DEVICES];

/* The current device's handle, bound to `stream`. */
static gp_status_t blas_handle(void *stream, gpuBlasHandle *h)
{
    GP_TRY(vendor_ready(&blas_lib, load_blas));
    GP_TRY(ctx_current());
    int d = gp_current_device();
    int r;
    if (!blas_handles[d] && (r = blas.Create(&blas_handles[d])) != GPU_BLAS_SUCCESS)
        return gp_set_error(GP_ERR_BACKEND, "%s: creating a handle failed (status %d)",
                            GPU_BLAS_WHAT, r);
    if ((r = blas.SetStream(blas_handles[d], (gpuStream)stream)) != GPU_BLAS_SUCCESS)
        return gp_set_error(GP_ERR_BACKEND, "%s: setting the stream failed (status %d)",
                            GPU_BLAS_WHAT, r);
    *h = blas_handles[d];
    return GP_OK;
}

static gp_status_t gpu_gemm(int32_t dtype, int32_t ta, int32_t tb, int64_t m, int64_t n,
                            int64_t k, const void *a, int64_t lda, int64_t stride_a, const void *b,
                            int64_t ldb, int64_t stride_b, void *c, int64_t ldc, int64_t stride_c,
                            int64_t batch, void *stream)
{
    const int64_t lim = 0x7fffffff;
    if (m > lim || n > lim || k > lim || lda > lim || ldb > lim || ldc > lim || batch > lim)
        return gp_set_error(GP_ERR_UNSUPPORTED, "matrix too large for %s's int sizes",
                            GPU_BLAS_WHAT);
    gpuBlasHandle h = NULL;
    GP_TRY(blas_handle(stream, &h));
    int r, type, compute;
    /* alpha = 1 and beta = 0 in the compute type (complex: (1, 0), (0, 0)) */
    float f1[2] = {1.0f, 0.0f}, f0[2] = {0.0f, 0.0f};
    double d1[2] = {1.0, 0.0}, d0[2] = {0.0, 0.0};
    const void *alpha = f1, *beta = f0;
    switch (dtype) {
    case GP_FLOAT16: type = GPU_BLAS_R_16F, compute = GPU_BLAS_COMPUTE_32F; break;
    case GP_FLOAT32: type = GPU_BLAS_R_32F, compute = GPU_BLAS_COMPUTE_32F; break;
    case GP_COMPLEX64: type = GPU_BLAS_C_32F, compute = GPU_BLAS_COMPUTE_C32F; break;
    case GP_FLOAT64: type = GPU_BLAS_R_64F, compute = GPU_BLAS_COMPUTE_64F; alpha = d1, beta = d0; break;
    case GP_COMPLEX128:
        type = GPU_BLAS_C_64F, compute = GPU_BLAS_COMPUTE_C64F;
        alpha = d1, beta = d0;
        break;
    default:
        return gp_set_error(GP_ERR_UNSUPPORTED, "%s has no product for %s", GPU_BLAS_WHAT,
                            gp_dtypes[dtype].name);
    }
    r = GPU_BLAS_GEMM(h, ta ? GPU_BLAS_OP_T : GPU_BLAS_OP_N, tb ? GPU_BLAS_OP_T : GPU_BLAS_OP_N,
                      (int)m, (int)n, (int)k, alpha, a, type, (int)lda, stride_a, b, (int)ldb,
                      stride_b, beta, c, (int)ldc, stride_c, (int)batch, compute);
    if (r != GPU_BLAS_SUCCESS)
        return gp_set_error(GP_ERR_BACKEND, "%s: the matrix product failed (status %d)",
                            GPU_BLAS_WHAT, r);
    return GP_OK;
}

/* ---- dense solvers -------------------------------------------------------------------- */

#if GPU_HAS_SOLVER
static struct {
#define X(name, params, syms) int (*name) params;
    GPU_SOLVER_API(X)
    GPU_SOLVER_OPTIONAL_API(X)
#undef X
#define T(name, params, ...) int (*name[4]) params; /* S, D, C, Z */
    GPU_SOLVER_TYPED_API(T)
#undef T
    int (*CreateGesvdjInfo)(gpuGesvdjInfo *);
    int (*CreateSyevjInfo)(gpuSyevjInfo *);
} sol;

static vendor_lib_t sol_lib = {PTHREAD_ONCE_INIT};

static void load_solver(void)
{
    static const char *const sonames[] = GPU_SOLVER_SONAMES;
#define X(name, params, syms) syms,
    static const char *const syms[] = {GPU_SOLVER_API(X)};
#undef X
#define X(name, params, syms) (void **)&sol.name,
    void **slots[] = {GPU_SOLVER_API(X)};
#undef X
    void *lib = load_vendor(&sol_lib, GPU_SOLVER_WHAT, sonames, syms, slots,
                            (int)(sizeof syms / sizeof *syms));
    if (!lib)
        return;
#define X(name, params, syms) *(void **)&sol.name = find_symbol(lib, syms);
    GPU_SOLVER_OPTIONAL_API(X)
#undef X
#define T(name, params, ...)                                          \
    {                                                                 \
        static const char *const names[4] = {__VA_ARGS__};            \
        for (int k = 0; k < 4; ++k)                                   \
            *(void **)&sol.name[k] = dlsym(lib, names[k]);            \
    }
    GPU_SOLVER_TYPED_API(T)
#undef T
    *(void **)&sol.CreateGesvdjInfo = dlsym(lib, GPU_SOLVER_CREATE_GESVDJ_INFO);
    *(void **)&sol.CreateSyevjInfo = dlsym(lib, GPU_SOLVER_CREATE_SYEVJ_INFO);
}

/* the Jacobi routines' batch counts are ints: larger batches take several
 * calls, each of at most jacobi_count(c) matrices */
#define JACOBI_MAX_BATCH ((int64_t)1 << 30)
#define jacobi_count(c) ((int)((c)->batch < JACOBI_MAX_BATCH ? (c)->batch : JACOBI_MAX_BATCH))

/* One handle (and its default parameters) per thread and device, as BLAS's. */
static _Thread_local gpuSolverHandle sol_handles[GPU_MAX_DEVICES];
static _Thread_local gpuSolverParams sol_params[GPU_MAX_DEVICES];

static gp_status_t sol_fail(const char *what, int r)
{
    return gp_set_error(GP_ERR_BACKEND, "%s: %s failed (status %d)", GPU_SOLVER_WHAT, what, r);
}

/* The current device's handle, bound to `stream`. */
static gp_status_t sol_handle(void *stream, gpuSolverHandle *h, gpuSolverParams *p)
{
    GP_TRY(vendor_ready(&sol_lib, load_solver));
    GP_TRY(ctx_current());
    int d = gp_current_device();
    int r;
    if (!sol_handles[d]) {
        if ((r = sol.Create(&sol_handles[d])) != GPU_SOLVER_SUCCESS)
            return sol_fail("creating a handle", r);
        if ((r = sol.CreateParams(&sol_params[d])) != GPU_SOLVER_SUCCESS)
            return sol_fail("creating its parameters", r);
    }
    if ((r = sol.SetStream(sol_handles[d], (gpuStream)stream)) != GPU_SOLVER_SUCCESS)
        return sol_fail("setting the stream", r);
    *h = sol_handles[d];
    *p = sol_params[d];
    return GP_OK;
}

static bool gpu_solver_has(int32_t routine)
{
    pthread_once(&sol_lib.once, load_solver);
    if (sol_lib.status != GP_OK)
        return true; /* the call reports the missing library */
    if (routine == GP_SOLVER_GEEV)
        return sol.GeevSize && sol.Geev;
    bool all = true;
    if (routine == GP_SOLVER_GESVDJ) {
        all = sol.CreateGesvdjInfo != NULL;
        for (int k = 0; k < 4; ++k)
            all = all && sol.GesvdjSize[k] && sol.Gesvdj[k] && sol.GesvdjBatchedSize[k] &&
                  sol.GesvdjBatched[k];
    } else if (routine == GP_SOLVER_SYEVJ) {
        all = sol.CreateSyevjInfo != NULL;
        for (int k = 0; k < 4; ++k)
            all = all && sol.SyevjBatchedSize[k] && sol.SyevjBatched[k];
    }
    return all;
}

/* A typed routine's slot for A's dtype: S, D, C, Z. */
static int sol_letter(int32_t dtype)
{
    switch (dtype) {
    case GP_FLOAT32: return 0;
    case GP_FLOAT64: return 1;
    case GP_COMPLEX64: return 2;
    default: return 3;
    }
}

/* The Jacobi routines' parameter objects (the library's defaults: machine
 * precision, 100 sweeps, sorted values: syevj's ascending, as syevd's), one
 * of each per thread and device as the handles, made at first use. */
static _Thread_local gpuGesvdjInfo gesvdj_info[GPU_MAX_DEVICES];
static _Thread_local gpuSyevjInfo syevj_info[GPU_MAX_DEVICES];

static gp_status_t sol_jacobi_info(int32_t routine, gpuGesvdjInfo *gi, gpuSyevjInfo *si)
{
    int d = gp_current_device();
    int r = GPU_SOLVER_SUCCESS;
    if (routine == GP_SOLVER_GESVDJ && !gesvdj_info[d])
        r = sol.CreateGesvdjInfo(&gesvdj_info[d]);
    else if (routine == GP_SOLVER_SYEVJ && !syevj_info[d])
        r = sol.CreateSyevjInfo(&syevj_info[d]);
    if (r != GPU_SOLVER_SUCCESS)
        return sol_fail("creating a Jacobi routine's parameters", r);
    *gi = gesvdj_info[d];
    *si = syevj_info[d];
    return GP_OK;
}

/* A GESVDJ call that runs as one batched call: small matrices, with full
 * U and V (the only shape gesvdjBatched gives). */
static bool gesvdj_batched(const gp_solver_call_t *c)
{
    return c->batch > 1 && c->m <= 32 && c->n <= 32 && (c->flags & GP_SOLVER_FULL);
}

static int sol_econ(const gp_solver_call_t *c) { return !(c->flags & GP_SOLVER_FULL); }

/* gesvdj always computes U and V: asked for the values alone, with no U
 * and V, it failed on the H200 (CUSOLVER_STATUS_EXECUTION_FAILED, then an
 * illegal address) */
#define GESVDJ_JOBZ GPU_SOLVER_EIG_VECTOR

/* The library's type codes: A's, its real counterpart's and its complex one's. */
static void sol_types(int32_t dtype, int *t, int *real, int *cplx)
{
    bool single = dtype == GP_FLOAT32 || dtype == GP_COMPLEX64;
    *real = single ? GPU_BLAS_R_32F : GPU_BLAS_R_64F;
    *cplx = single ? GPU_BLAS_C_32F : GPU_BLAS_C_64F;
    *t = gp_dtype_kind(dtype) == GP_KIND_COMPLEX ? *cplx : *real;
}

static int sol_uplo(const gp_solver_call_t *c)
{
    return c->flags & GP_SOLVER_UPPER ? GPU_SOLVER_FILL_UPPER : GPU_SOLVER_FILL_LOWER;
}

static int sol_jobz(const gp_solver_call_t *c)
{
    return c->flags & GP_SOLVER_VECTORS ? GPU_SOLVER_EIG_VECTOR : GPU_SOLVER_EIG_NOVECTOR;
}

static signed char sol_jobu(const gp_solver_call_t *c)
{
    return !(c->flags & GP_SOLVER_VECTORS) ? 'N' : c->flags & GP_SOLVER_FULL ? 'A' : 'S';
}

/* orgqr/ungqr by A's dtype (the 32-bit API: sizes must fit an int) */
static int (*const *orgqr_size(int32_t dt))(gpuSolverHandle, int, int, int, const void *, int,
                                            const void *, int *)
{
    switch (dt) {
    case GP_FLOAT32: return &sol.OrgqrSizeS;
    case GP_FLOAT64: return &sol.OrgqrSizeD;
    case GP_COMPLEX64: return &sol.OrgqrSizeC;
    default: return &sol.OrgqrSizeZ;
    }
}

static int (*const *orgqr_fn(int32_t dt))(gpuSolverHandle, int, int, int, void *, int,
                                          const void *, void *, int, int *)
{
    switch (dt) {
    case GP_FLOAT32: return &sol.OrgqrS;
    case GP_FLOAT64: return &sol.OrgqrD;
    case GP_COMPLEX64: return &sol.OrgqrC;
    default: return &sol.OrgqrZ;
    }
}

static gp_status_t gpu_solver_workspace(const gp_solver_call_t *c, size_t *dev, size_t *host)
{
    gpuSolverHandle h;
    gpuSolverParams p;
    GP_TRY(sol_handle(NULL, &h, &p));
    int t, rt, ct;
    sol_types(c->dtype, &t, &rt, &ct);
    int64_t m = c->m, n = c->n;
    char *const *a = c->ptr;
    int r = GPU_SOLVER_SUCCESS;
    *dev = *host = 0;
    switch (c->routine) {
    case GP_SOLVER_GETRF: r = sol.GetrfSize(h, p, n, n, t, a[0], n, t, dev, host); break;
    case GP_SOLVER_GETRS: break; /* no workspace */
    case GP_SOLVER_POTRF: r = sol.PotrfSize(h, p, sol_uplo(c), n, t, a[0], n, t, dev, host); break;
    case GP_SOLVER_GEQRF: r = sol.GeqrfSize(h, p, m, n, t, a[0], m, t, a[1], t, dev, host); break;
    case GP_SOLVER_ORGQR: {
        if (m > 0x7fffffff || n > 0x7fffffff)
            return gp_set_error(GP_ERR_UNSUPPORTED, "%s's orgqr takes int sizes",
                                GPU_SOLVER_WHAT);
        int lwork = 0;
        r = (*orgqr_size(c->dtype))(h, (int)m, (int)n, (int)c->k, a[0], (int)m, a[1], &lwork);
        *dev = (size_t)lwork * (size_t)gp_dtype_size(c->dtype);
        break;
    }
    case GP_SOLVER_SYEVD:
        r = sol.SyevdSize(h, p, sol_jobz(c), sol_uplo(c), n, t, a[0], n, rt, a[1], t, dev, host);
        break;
    case GP_SOLVER_GESVD:
        r = sol.GesvdSize(h, p, sol_jobu(c), sol_jobu(c) == 'N' ? 'N' : 'S', m, n, t, a[0], m,
                          rt, a[1], t, a[2], m, t, a[3], n, t, dev, host);
        break;
    case GP_SOLVER_GEEV:
        r = sol.GeevSize(h, p, GPU_SOLVER_EIG_NOVECTOR, sol_jobz(c), n, t, a[0], n, ct, a[1], t,
                         NULL, 1, t, a[2], n, t, dev, host);
        break;
    case GP_SOLVER_GESVDJ: {
        if (m * n > 0x7fffffff) /* its sizes and workspace are ints */
            return gp_set_error(GP_ERR_UNSUPPORTED, "%s's gesvdj takes matrices of fewer "
                                                    "than 2^31 elements", GPU_SOLVER_WHAT);
        gpuGesvdjInfo gi;
        gpuSyevjInfo si;
        GP_TRY(sol_jacobi_info(c->routine, &gi, &si));
        int k = sol_letter(c->dtype), lwork = 0;
        if (gesvdj_batched(c))
            r = sol.GesvdjBatchedSize[k](h, GESVDJ_JOBZ, (int)m, (int)n, a[0], (int)m, a[1], a[2],
                                         (int)m, a[3], (int)n, &lwork, gi, jacobi_count(c));
        else
            r = sol.GesvdjSize[k](h, GESVDJ_JOBZ, sol_econ(c), (int)m, (int)n, a[0], (int)m, a[1],
                                  a[2], (int)m, a[3], (int)n, &lwork, gi);
        *dev = (size_t)lwork * (size_t)gp_dtype_size(c->dtype);
        break;
    }
    case GP_SOLVER_SYEVJ: {
        gpuGesvdjInfo gi;
        gpuSyevjInfo si;
        GP_TRY(sol_jacobi_info(c->routine, &gi, &si));
        int lwork = 0;
        r = sol.SyevjBatchedSize[sol_letter(c->dtype)](
            h, sol_jobz(c), sol_uplo(c), (int)n, a[0], (int)n, a[1], &lwork, si, jacobi_count(c));
        *dev = (size_t)lwork * (size_t)gp_dtype_size(c->dtype);
        break;
    }
    default: return gp_set_error(GP_ERR_VALUE, "unknown solver routine %d", c->routine);
    }
    if (r != GPU_SOLVER_SUCCESS)
        return sol_fail("the workspace query", r);
    return GP_OK;
}

/* A batched Jacobi routine (gesvdjBatched, syevjBatched) over the whole
 * batch, in calls of at most JACOBI_MAX_BATCH matrices; the workspace was
 * sized for one such call. */
static gp_status_t jacobi_run_batched(const gp_solver_call_t *c, gpuSolverHandle h)
{
    gpuGesvdjInfo gi;
    gpuSyevjInfo si;
    GP_TRY(sol_jacobi_info(c->routine, &gi, &si));
    int k = sol_letter(c->dtype), m = (int)c->m, n = (int)c->n;
    int lwork = (int)(c->work_bytes / (size_t)gp_dtype_size(c->dtype));
    for (int64_t b = 0; b < c->batch; b += JACOBI_MAX_BATCH) {
        int count = (int)(c->batch - b < JACOBI_MAX_BATCH ? c->batch - b : JACOBI_MAX_BATCH);
        char *a[GP_SOLVER_MAXARGS];
        for (int32_t i = 0; i < c->nargs; ++i)
            a[i] = c->ptr[i] ? c->ptr[i] + b * c->bstride[i] : NULL;
        int *info = (int *)a[c->nargs - 1];
        int r = c->routine == GP_SOLVER_GESVDJ
                    ? sol.GesvdjBatched[k](h, GESVDJ_JOBZ, m, n, a[0], m, a[1], a[2], m, a[3], n,
                                           c->work, lwork, info, gi, count)
                    : sol.SyevjBatched[k](h, sol_jobz(c), sol_uplo(c), n, a[0], n, a[1],
                                          c->work, lwork, info, si, count);
        if (r != GPU_SOLVER_SUCCESS)
            return sol_fail("a batched factorization", r);
    }
    return GP_OK;
}

static gp_status_t gpu_solver(const gp_solver_call_t *c, void *stream)
{
    gpuSolverHandle h;
    gpuSolverParams p;
    GP_TRY(sol_handle(stream, &h, &p));
    int t, rt, ct;
    sol_types(c->dtype, &t, &rt, &ct);
    int64_t m = c->m, n = c->n;
    void *dw = c->work, *hw = c->host_work;
    size_t db = c->work_bytes, hb = c->host_work_bytes;
    int trans = c->flags & GP_SOLVER_TRANS_C ? GPU_SOLVER_OP_C
                : c->flags & GP_SOLVER_TRANS_T ? GPU_SOLVER_OP_T : GPU_SOLVER_OP_N;
    signed char jobu = sol_jobu(c), jobvt = jobu == 'N' ? 'N' : 'S';
    if ((c->routine == GP_SOLVER_GESVDJ && gesvdj_batched(c)) || c->routine == GP_SOLVER_SYEVJ)
        return jacobi_run_batched(c, h);
    gpuGesvdjInfo gi = NULL;
    gpuSyevjInfo si = NULL;
    if (c->routine == GP_SOLVER_GESVDJ)
        GP_TRY(sol_jacobi_info(c->routine, &gi, &si));
    /* otherwise the batch is a loop of single-matrix calls, each with its
     * info word; one workspace serves them all, as they run in order on the
     * stream */
    for (int64_t b = 0; b < c->batch; ++b) {
        char *a[GP_SOLVER_MAXARGS];
        for (int32_t i = 0; i < c->nargs; ++i)
            a[i] = c->ptr[i] ? c->ptr[i] + b * c->bstride[i] : NULL;
        int *info = (int *)a[c->nargs - 1];
        int r;
        switch (c->routine) {
        case GP_SOLVER_GETRF:
            r = sol.Getrf(h, p, n, n, t, a[0], n, (int64_t *)a[1], t, dw, db, hw, hb, info);
            break;
        case GP_SOLVER_GETRS:
            r = sol.Getrs(h, p, trans, n, c->k, t, a[0], n, (const int64_t *)a[1], t, a[2], n,
                          info);
            break;
        case GP_SOLVER_POTRF:
            r = sol.Potrf(h, p, sol_uplo(c), n, t, a[0], n, t, dw, db, hw, hb, info);
            break;
        case GP_SOLVER_GEQRF:
            r = sol.Geqrf(h, p, m, n, t, a[0], m, t, a[1], t, dw, db, hw, hb, info);
            break;
        case GP_SOLVER_ORGQR:
            r = (*orgqr_fn(c->dtype))(h, (int)m, (int)n, (int)c->k, a[0], (int)m, a[1], dw,
                                      (int)(db / (size_t)gp_dtype_size(c->dtype)), info);
            break;
        case GP_SOLVER_SYEVD:
            r = sol.Syevd(h, p, sol_jobz(c), sol_uplo(c), n, t, a[0], n, rt, a[1], t, dw, db, hw,
                          hb, info);
            break;
        case GP_SOLVER_GESVD:
            /* u is m x m ('A') or m x n ('S'); vt is n x n either way (m >= n) */
            r = sol.Gesvd(h, p, jobu, jobvt, m, n, t, a[0], m, rt, a[1], t, a[2], m, t, a[3], n,
                          t, dw, db, hw, hb, info);
            break;
        case GP_SOLVER_GEEV:
            r = sol.Geev(h, p, GPU_SOLVER_EIG_NOVECTOR, sol_jobz(c), n, t, a[0], n, ct, a[1], t,
                         NULL, 1, t, a[2], n, t, dw, db, hw, hb, info);
            break;
        case GP_SOLVER_GESVDJ:
            r = sol.Gesvdj[sol_letter(c->dtype)](h, GESVDJ_JOBZ, sol_econ(c), (int)m, (int)n,
                                                  a[0], (int)m, a[1], a[2], (int)m, a[3], (int)n,
                                                  dw, (int)(db / (size_t)gp_dtype_size(c->dtype)),
                                                  info, gi);
            break;
        default: return gp_set_error(GP_ERR_VALUE, "unknown solver routine %d", c->routine);
        }
        if (r != GPU_SOLVER_SUCCESS)
            return sol_fail("a factorization", r);
    }
    return GP_OK;
}

#if GPU_BLAS_HAS_TRSM
static gp_status_t gpu_trsm(int32_t dtype, int32_t upper, int32_t unit, int64_t n, int64_t k,
                            const void *a, int64_t lda, void *b, int64_t ldb, int64_t batch,
                            void *stream)
{
    const int64_t lim = 0x7fffffff;
    if (n > lim || k > lim || lda > lim || ldb > lim || batch > lim)
        return gp_set_error(GP_ERR_UNSUPPORTED, "matrix too large for %s's int sizes",
                            GPU_BLAS_WHAT);
    gpuBlasHandle h = NULL;
    GP_TRY(blas_handle(stream, &h));
    int t = sol_letter(dtype);
    if (!blas.Trsm[t] || !blas.TrsmBatched[t])
        return gp_set_error(GP_ERR_UNSUPPORTED, "%s has no triangular solve", GPU_BLAS_WHAT);
    /* alpha = 1 in A's type (a complex one's imaginary part 0) */
    static const float f1[2] = {1.0f, 0.0f};
    static const double d1[2] = {1.0, 0.0};
    const void *one = dtype == GP_FLOAT32 || dtype == GP_COMPLEX64 ? (const void *)f1
                                                                   : (const void *)d1;
    int fill = upper ? GPU_BLAS_FILL_UPPER : GPU_BLAS_FILL_LOWER;
    int diag = unit ? GPU_BLAS_DIAG_UNIT : GPU_BLAS_DIAG_NON_UNIT;
    int r = batch == 1 ? blas.Trsm[t](h, GPU_BLAS_SIDE_LEFT, fill, GPU_BLAS_OP_N, diag, (int)n,
                                      (int)k, one, a, (int)lda, b, (int)ldb)
                       : blas.TrsmBatched[t](h, GPU_BLAS_SIDE_LEFT, fill, GPU_BLAS_OP_N, diag,
                                             (int)n, (int)k, one, (const void *const *)a,
                                             (int)lda, (void *const *)b, (int)ldb, (int)batch);
    if (r != GPU_BLAS_SUCCESS)
        return gp_set_error(GP_ERR_BACKEND, "%s: a triangular solve failed (status %d)",
                            GPU_BLAS_WHAT, r);
    return GP_OK;
}
#endif
#endif /* GPU_HAS_SOLVER */
/* ---- FFT ------------------------------------------------------------------------------ */

#ifdef GPU_FFT_API
/* HIP has no entry here yet (hipFFT's plan API differs): its slots stay NULL
 * and gp_fft reports GP_ERR_UNSUPPORTED. */
static struct {
#define X(name, params, syms) int (*name) params;
    GPU_FFT_API(X)
#undef X
} fftlib;

static vendor_lib_t fft_lib = {PTHREAD_ONCE_INIT};

static void load_fft(void)
{
    static const char *const sonames[] = GPU_FFT_SONAMES;
#define X(name, params, syms) syms,
    static const char *const syms[] = {GPU_FFT_API(X)};
#undef X
#define X(name, params, syms) (void **)&fftlib.name,
    void **slots[] = {GPU_FFT_API(X)};
#undef X
    load_vendor(&fft_lib, GPU_FFT_WHAT, sonames, syms, slots, (int)(sizeof syms / sizeof *syms));
}

static gp_status_t fft_fail(int r, const char *what)
{
    /* cuFFT's status 2 is its allocation failure: the work area did not fit */
    return gp_set_error(r == 2 ? GP_ERR_NOMEM_DEVICE : GP_ERR_BACKEND, "%s: %s failed (status %d)",
                        GPU_FFT_WHAT, what, r);
}

static int fft_type(const gp_fft_layout_t *l)
{
    bool dbl = l->dtype == GP_COMPLEX128;
    switch (l->kind) {
    case GP_FFT_R2C: return dbl ? GPU_FFT_D2Z : GPU_FFT_R2C;
    case GP_FFT_C2R: return dbl ? GPU_FFT_Z2D : GPU_FFT_C2R;
    default: return dbl ? GPU_FFT_Z2Z : GPU_FFT_C2C;
    }
}

static gp_status_t gpu_fft_plan(const gp_fft_layout_t *l, void *stream, void **plan,
                                int64_t *work)
{
    GP_TRY(vendor_ready(&fft_lib, load_fft));
    GP_TRY(ctx_current());
    gpuFftHandle h;
    int r = fftlib.Create(&h);
    if (r != GPU_FFT_SUCCESS)
        return fft_fail(r, "creating a plan");
    /* the 64-bit planner: sizes, strides and distances in elements */
    long long n[3], ie[3], oe[3];
    for (int32_t k = 0; k < l->rank; ++k)
        n[k] = l->n[k], ie[k] = l->inembed[k], oe[k] = l->onembed[k];
    size_t ws = 0;
    r = fftlib.MakePlanMany64(h, l->rank, n, ie, l->istride, l->idist, oe, l->ostride, l->odist,
                              fft_type(l), l->batch, &ws);
    if (r != GPU_FFT_SUCCESS) {
        fftlib.Destroy(h);
        return fft_fail(r, "making a plan");
    }
    /* once: the plan cache keys on the stream, so a plan keeps its stream */
    r = fftlib.SetStream(h, (gpuStream)stream);
    if (r != GPU_FFT_SUCCESS) {
        fftlib.Destroy(h);
        return fft_fail(r, "setting the stream");
    }
    *plan = (void *)(intptr_t)h;
    *work = (int64_t)ws;
    return GP_OK;
}

static gp_status_t gpu_fft_exec(void *plan, const gp_fft_layout_t *l, int32_t inverse,
                                const void *in, void *out)
{
    GP_TRY(ctx_current());
    gpuFftHandle h = (gpuFftHandle)(intptr_t)plan;
    int r;
    void *i = (void *)in;
    int dir = inverse ? GPU_FFT_INVERSE : GPU_FFT_FORWARD;
    switch (fft_type(l)) {
    case GPU_FFT_C2C: r = fftlib.ExecC2C(h, i, out, dir); break;
    case GPU_FFT_Z2Z: r = fftlib.ExecZ2Z(h, i, out, dir); break;
    case GPU_FFT_R2C: r = fftlib.ExecR2C(h, i, out); break;
    case GPU_FFT_D2Z: r = fftlib.ExecD2Z(h, i, out); break;
    case GPU_FFT_C2R: r = fftlib.ExecC2R(h, i, out); break;
    default: r = fftlib.ExecZ2D(h, i, out); break;
    }
    if (r != GPU_FFT_SUCCESS)
        return fft_fail(r, "running a transform");
    return GP_OK;
}

static gp_status_t gpu_fft_destroy(void *plan)
{
    GP_TRY(ctx_current());
    int r = fftlib.Destroy((gpuFftHandle)(intptr_t)plan);
    return r == GPU_FFT_SUCCESS ? GP_OK : fft_fail(r, "destroying a plan");
}
#endif

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
    .gemm = gpu_gemm,
#if GPU_HAS_SOLVER
    .solver_workspace = gpu_solver_workspace,
    .solver = gpu_solver,
    .solver_has = gpu_solver_has,
#if GPU_BLAS_HAS_TRSM
    .trsm = gpu_trsm,
#endif
#endif
#ifdef GPU_FFT_API
    .fft_plan = gpu_fft_plan,
    .fft_exec = gpu_fft_exec,
    .fft_destroy = gpu_fft_destroy,
#endif
};
