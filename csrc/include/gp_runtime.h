/*
 * gp_runtime.h - backends, devices, streams, synchronisation and the kernel
 * cache.
 *
 * The backend is chosen once per process, at the first call that needs one:
 * by gp_runtime_init's argument, else the GPUNP_BACKEND environment variable
 * (cuda, hip, host or auto), else automatically (a GPU backend when a GPU is
 * present, the host backend otherwise).
 */
#ifndef GP_RUNTIME_H
#define GP_RUNTIME_H

#include "gp_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gp_stream gp_stream_t;
typedef struct gp_event gp_event_t;

/* Chooses and starts the backend `name` ("host", "cuda", "hip", "auto"; NULL
 * reads GPUNP_BACKEND, default "auto"). Calling it again with the backend
 * already running, or with NULL, is a no-op; asking for another backend then
 * is GP_ERR_MISUSE. A GPU backend that cannot start gives
 * GP_ERR_NOT_FOUND_LIBRARY or GP_ERR_NOT_FOUND_DEVICE naming what was
 * missing and where it was looked for. */
GP_API gp_status_t gp_runtime_init(const char *name);

/* A configuration value as static or engine-owned text, valid for the life
 * of the process. Keys: "backend", "compiler", "cache_dir", "target",
 * "device_name", "kernel_log", "kernel_pack", "libraries" (each vendor
 * library loaded so far, a line "what: path" each, in the order loaded).
 * Starts the backend if needed (cache_dir, kernel_log, kernel_pack and
 * libraries never do). GP_ERR_VALUE for an unknown key. */
GP_API gp_status_t gp_runtime_config(const char *key, const char **out);

/* Sets a directory list (':'-separated) searched for vendor libraries
 * before the system's default places; Python passes the nvidia-* wheel
 * folders here. Takes effect for libraries not loaded yet. */
GP_API gp_status_t gp_runtime_set_library_path(const char *paths);

/* Number of devices of the running backend (1 for the host). */
GP_API gp_status_t gp_device_count(int32_t *out);

/* The current device of this thread. */
GP_API gp_status_t gp_device_get(int32_t *out);

/* Makes device `id` current on this thread. GP_ERR_VALUE if out of range. */
GP_API gp_status_t gp_device_set(int32_t id);

/* Facts of a device. */
typedef struct gp_device_properties {
    char name[128];
    char target[32];          /* "sm_90", "gfx90a", "x86_64" */
    int64_t total_memory;     /* bytes */
    int32_t multiprocessors;
    int32_t max_threads_per_block;
    int32_t warp_size;
    int32_t compute_major;    /* CUDA compute capability; 0 elsewhere */
    int32_t compute_minor;
} gp_device_properties_t;

GP_API gp_status_t gp_device_get_properties(int32_t device, gp_device_properties_t *out);

/* Waits until all work queued on the current device has finished. */
GP_API gp_status_t gp_device_synchronize(void);

/* Bits of gp_stream_create's flags. */
enum gp_stream_flag {
    GP_STREAM_NON_BLOCKING = 1
};

/* A new stream on the current device. The caller owns it. */
GP_API gp_status_t gp_stream_create(int32_t flags, int32_t priority, gp_stream_t **out);

/* Destroys a stream after its queued work; NULL is a no-op. A stream that is
 * current on this thread stops being current. */
GP_API gp_status_t gp_stream_destroy(gp_stream_t *s);

/* Waits for the work queued on `s` (NULL: the default stream). */
GP_API gp_status_t gp_stream_synchronize(gp_stream_t *s);

/* Makes `s` (NULL: the default stream) the stream this thread's operations,
 * copies and allocations use. */
GP_API gp_status_t gp_stream_set_current(gp_stream_t *s);

/* The current stream of this thread (NULL: the default stream). Borrowed. */
GP_API gp_status_t gp_stream_get_current(gp_stream_t **out);

/* A handle on a stream made elsewhere (a native CUstream/hipStream_t of the
 * current device, as an integer; 0 is the legacy default stream, 2 the
 * per-thread one on CUDA): gpunp queues work on it but never destroys it.
 * The caller owns the handle (gp_stream_destroy frees it, not the native
 * stream). On the host backend any value gives a stream that is the host's. */
GP_API gp_status_t gp_stream_wrap(uint64_t native, gp_stream_t **out);

/* Queues fn(arg) on `s` (NULL: the current stream): it runs on a driver's
 * thread once the work queued before it is done, and work queued after it
 * waits for it. On the host backend, where queued work is done, fn runs
 * before this returns. fn must not call the engine's stream functions. */
GP_API gp_status_t gp_stream_launch_host_func(gp_stream_t *s, void (*fn)(void *), void *arg);

/* 1 in *out if `device` can address `peer`'s memory once peer access is
 * enabled. GP_ERR_UNSUPPORTED on the host backend. */
GP_API gp_status_t gp_device_can_access_peer(int32_t device, int32_t peer, int32_t *out);

/* Lets the current device address `peer`'s memory from now on. Errors as
 * the driver gives them (GP_ERR_BACKEND when already enabled). */
GP_API gp_status_t gp_device_enable_peer_access(int32_t peer);

/* The 64-byte interprocess handle of the device allocation holding `ptr`
 * (cuIpcGetMemHandle: a pool's block, as the driver allocated it),
 * written to `handle`. GP_ERR_UNSUPPORTED on the host backend. */
GP_API gp_status_t gp_ipc_get_mem_handle(uint64_t ptr, uint8_t *handle);

/* Maps another process's allocation from its handle (peer access enabled
 * lazily); the address in *out, until gp_ipc_close_mem_handle. */
GP_API gp_status_t gp_ipc_open_mem_handle(const uint8_t *handle, uint64_t *out);
GP_API gp_status_t gp_ipc_close_mem_handle(uint64_t ptr);

/* What the driver knows of an address (cudaPointerGetAttributes). */
typedef struct gp_pointer_attributes {
    int32_t type;            /* 0 unregistered host memory, 1 page-locked host,
                              * 2 device, 3 managed (cudaMemoryType's numbers) */
    int32_t device;          /* its device, or -2 where it has none */
    uint64_t device_pointer; /* its address on the device, 0 if none */
    uint64_t host_pointer;   /* its address on the host, 0 if none */
} gp_pointer_attributes_t;

/* GP_ERR_UNSUPPORTED on the host backend. */
GP_API gp_status_t gp_pointer_get_attributes(uint64_t ptr, gp_pointer_attributes_t *out);

/* The driver's version as the vendor numbers it (CUDA 12.4: 12040).
 * GP_ERR_UNSUPPORTED on the host backend. */
GP_API gp_status_t gp_driver_version(int32_t *out);

/* 1 in *out if all work queued on `s` (NULL: the default stream) is done. */
GP_API gp_status_t gp_stream_query(gp_stream_t *s, int32_t *out);

/* Makes future work on `s` (NULL: the default stream) wait for `e`. */
GP_API gp_status_t gp_stream_wait_event(gp_stream_t *s, gp_event_t *e);

/* ---- events --------------------------------------------------------------------- */

/* Bits of gp_event_create's flags. */
enum gp_event_flag {
    GP_EVENT_TIMING = 1,       /* usable for gp_event_elapsed */
    GP_EVENT_INTERPROCESS = 2  /* other processes may open it (gp_event_ipc_handle);
                                * it has no timing data */
};

/* A new event on the current device; `flags` of enum gp_event_flag (0 makes
 * it lighter but unusable for gp_event_elapsed). GP_ERR_UNSUPPORTED naming
 * the backend for GP_EVENT_INTERPROCESS where there are no interprocess
 * events (the host). The caller owns it. */
GP_API gp_status_t gp_event_create(int32_t flags, gp_event_t **out);

/* The 64-byte interprocess handle of an event made with
 * GP_EVENT_INTERPROCESS, written to `handle`. */
GP_API gp_status_t gp_event_ipc_handle(gp_event_t *e, uint8_t *handle);

/* An event another process made, from its 64-byte handle; the caller owns
 * the new handle (recording and waiting work as on its own events). */
GP_API gp_status_t gp_event_open_ipc_handle(const uint8_t *handle, gp_event_t **out);

/* Destroys an event; NULL is a no-op. */
GP_API gp_status_t gp_event_destroy(gp_event_t *e);

/* Records `e` on `s` (NULL: the default stream). */
GP_API gp_status_t gp_event_record(gp_event_t *e, gp_stream_t *s);

/* Waits until the work before the event's last record is done. */
GP_API gp_status_t gp_event_synchronize(gp_event_t *e);

/* 1 in *out if the work before the event's last record is done. */
GP_API gp_status_t gp_event_query(gp_event_t *e, int32_t *out);

/* Milliseconds between two recorded events (both created with timing). */
GP_API gp_status_t gp_event_elapsed(gp_event_t *start, gp_event_t *end, float *out);

/* ---- memory ---------------------------------------------------------------------- */

/* The memory pool of a device. */
typedef struct gp_memory_stats {
    int64_t used_bytes;   /* in arrays */
    int64_t total_bytes;  /* held from the driver: used plus cached */
    int64_t free_blocks;  /* cached blocks */
    int64_t limit_bytes;  /* 0: no limit */
} gp_memory_stats_t;

GP_API gp_status_t gp_memory_get_stats(int32_t device, gp_memory_stats_t *out);

/* Limits what the pool of `device` may hold (0: no limit); an allocation
 * past it raises GP_ERR_NOMEM_DEVICE. */
GP_API gp_status_t gp_memory_set_limit(int32_t device, int64_t limit);

/* Gives every cached (unused) block of `device` back to the driver, after
 * waiting for the device to be idle. */
GP_API gp_status_t gp_memory_free_all_blocks(int32_t device);

/* Raw device memory from the current device's pool (the runtime API's
 * malloc/free for users); `size` must be passed back to gp_memory_free. */
GP_API gp_status_t gp_memory_alloc(int64_t size, uint64_t *out);
GP_API gp_status_t gp_memory_free(uint64_t ptr, int64_t size);

/* Host memory for large arrays copied from the device: `nbytes` (64-byte
 * aligned) from a cache of blocks released before when one fits, else newly
 * mapped. A block whose pages were written once is cheap to write again,
 * where fresh memory faults each page in (csrc/memory/host.c). */
GP_API gp_status_t gp_host_block_new(int64_t nbytes, void **out);
/* Gives a block of gp_host_block_new back (kept for reuse, or unmapped
 * where the cache is full); NULL is a no-op. */
GP_API gp_status_t gp_host_block_release(void *p);
/* Unmaps every cached host block; the bytes unmapped in *freed (NULL: not
 * wanted). */
GP_API gp_status_t gp_host_block_free_all(int64_t *freed);

/* Kinds of raw memory (gp_memory_alloc_kind). */
enum gp_memory_kind {
    GP_MEMORY_POOL = 0,    /* the current device's caching pool (gp_memory_alloc's) */
    GP_MEMORY_DIRECT = 1,  /* straight from the driver, freed to it */
    GP_MEMORY_MANAGED = 2, /* managed memory, addressed by host and device alike
                            * (cuMemAllocManaged; host memory on the host backend) */
    GP_MEMORY_ASYNC = 3    /* the driver's stream-ordered pool (cuMemAllocAsync),
                            * ordered on the stream given; GP_ERR_UNSUPPORTED where
                            * the backend has none */
};

/* `size` bytes of memory of `kind` on the current device, ordered on `s`
 * (NULL: the current stream; only GP_MEMORY_ASYNC and the pool use it). Never
 * served by an allocator set by gp_memory_set_allocator. The address in
 * *out (0 on error); give it back with gp_memory_free_kind with the same
 * kind and size. */
GP_API gp_status_t gp_memory_alloc_kind(int32_t kind, int64_t size, gp_stream_t *s,
                                        uint64_t *out);
GP_API gp_status_t gp_memory_free_kind(int32_t kind, uint64_t ptr, int64_t size,
                                       gp_stream_t *s);

/* `size` bytes from the current device's pool as a block that remembers
 * the stream current now (as an array's memory does): its address in *ptr,
 * the block in *block (0 and NULL on error). gp_memory_pool_release gives it
 * back to that stream's cache, whatever stream is current then. Never
 * served by an allocator set by gp_memory_set_allocator. */
GP_API gp_status_t gp_memory_pool_alloc(int64_t size, void **block, uint64_t *ptr);
/* NULL is a no-op; GP_ERR_MISUSE for what is not a live block. */
GP_API gp_status_t gp_memory_pool_release(void *block);

/* An allocator of the process's array memory (a user's Python callable
 * behind a cffi callback): gives `size` bytes of device memory on the current
 * device at *ptr, and in *owner what gp_free_fn is passed when the engine is
 * done with them. It returns GP_OK, GP_ALLOC_DECLINED (the engine's own pool
 * serves this request), or a failure status, which the allocation returns;
 * GP_ERR_CALLBACK says the binding holds the failure itself (the Python
 * exception the callable raised). */
typedef int32_t (*gp_alloc_fn)(int64_t size, uint64_t *ptr, void **owner);
typedef void (*gp_free_fn)(void *owner);
enum {
    GP_ALLOC_DECLINED = -1,
    GP_ERR_CALLBACK = 0x1008 /* GP_ERR_BACKEND | (0x10 << 8) */
};

/* Routes every array allocation (of every thread) through `alloc` from now
 * on; NULL for both restores the engine's pool. A buffer keeps the `release`
 * it was allocated with: it is called once, when the buffer's last
 * reference goes, possibly on another thread, possibly from within another
 * engine call. GP_ERR_MISUSE when only one of the two is NULL. */
GP_API gp_status_t gp_memory_set_allocator(gp_alloc_fn alloc, gp_free_fn release);

/* ---- pinned host memory (csrc/memory/pinned.c) ------------------------------ */

/* A pool of page-locked host memory (CuPy's PinnedMemoryPool): blocks
 * given back are kept and handed out again to requests of the same rounded
 * size (multiples of 512 bytes). From the driver (cuMemHostAlloc,
 * hipHostMalloc) on GPU backends; ordinary aligned memory on the host
 * backend, with the same pool semantics. */
typedef struct gp_pinned_pool gp_pinned_pool_t;

/* A new empty pool. The caller owns it. */
GP_API gp_status_t gp_pinned_pool_create(gp_pinned_pool_t **out);

/* Frees the pool and every block in it, in use or not (the caller keeps the
 * pool alive while blocks are in use); NULL is a no-op. */
GP_API gp_status_t gp_pinned_pool_destroy(gp_pinned_pool_t *pool);

/* `size` bytes (0 allowed) of page-locked memory, 256-byte aligned, at *out.
 * Past the pool's limit it first frees its idle blocks; then
 * GP_ERR_NOMEM naming the limit. */
GP_API gp_status_t gp_pinned_pool_alloc(gp_pinned_pool_t *pool, int64_t size, void **out);

/* Gives a block back to its pool. With `wait` 1 the block is handed out
 * again only once the work queued on `s` (NULL: the current stream) until
 * now is done (a copy from or into it); with 0, at once. GP_ERR_MISUSE for
 * a pointer the pool did not hand out. */
GP_API gp_status_t gp_pinned_pool_release(gp_pinned_pool_t *pool, void *p, int32_t wait,
                                          gp_stream_t *s);

/* used_bytes: in blocks handed out; total_bytes: held, used or idle;
 * free_blocks: idle blocks; limit_bytes: the limit (0: none). */
GP_API gp_status_t gp_pinned_pool_stats(gp_pinned_pool_t *pool, gp_memory_stats_t *out);

/* Limits what the pool holds (0: no limit). */
GP_API gp_status_t gp_pinned_pool_set_limit(gp_pinned_pool_t *pool, int64_t limit);

/* Frees every idle block (after the work it waits for). */
GP_API gp_status_t gp_pinned_pool_free_all(gp_pinned_pool_t *pool);

/* Raw page-locked host memory (cudaHostAlloc, freeHost): `flags` as CUDA's
 * cuMemHostAlloc takes them; ordinary aligned memory on the host backend. */
GP_API gp_status_t gp_host_alloc(int64_t size, uint32_t flags, void **out);
GP_API gp_status_t gp_host_free(void *p);

/* Page-locks `size` bytes of host memory at `p` allocated elsewhere
 * (cuMemHostRegister; `flags` as CUDA's), and undoes it. GP_ERR_UNSUPPORTED
 * naming the backend where there is no page-locked memory (the host). */
GP_API gp_status_t gp_host_register(void *p, int64_t size, uint32_t flags);
GP_API gp_status_t gp_host_unregister(void *p);

/* Sets `size` bytes at device address `ptr` to `value`, ordered on `s`
 * (NULL: the current stream); `sync` 1 waits for it. */
GP_API gp_status_t gp_memset(uint64_t ptr, int32_t value, int64_t size, gp_stream_t *s,
                             int32_t sync);

/* Directions of gp_memcpy. */
enum gp_memcpy_kind {
    GP_MEMCPY_HOST_TO_HOST = 0,
    GP_MEMCPY_HOST_TO_DEVICE = 1,
    GP_MEMCPY_DEVICE_TO_HOST = 2,
    GP_MEMCPY_DEVICE_TO_DEVICE = 3
};

/* Copies `n` bytes in direction `kind`, ordered on `s` (NULL: the current
 * stream); `sync` 1 waits for the copy. */
GP_API gp_status_t gp_memcpy(uint64_t dst, uint64_t src, int64_t n, int32_t kind,
                             gp_stream_t *s, int32_t sync);

/* Free and total memory of `device` as its driver reports them. */
GP_API gp_status_t gp_memory_get_info(int32_t device, int64_t *free_bytes, int64_t *total_bytes);

/* Counters of the kernel cache since the process started. */
typedef struct gp_cache_stats {
    int64_t memory_hits;   /* kernels found loaded */
    int64_t disk_hits;     /* kernels loaded from the disk cache */
    int64_t compiles;      /* kernels compiled */
    int64_t disk_rejects;  /* damaged or mismatched disk entries recompiled */
    double compile_seconds;/* wall time spent compiling */
    int64_t pack_hits;     /* kernels loaded from the kernel pack (built with the wheel) */
} gp_cache_stats_t;

GP_API gp_status_t gp_cache_get_stats(gp_cache_stats_t *out);

/* Forgets the kernels loaded in memory, so the next use of each goes to the
 * disk cache (kernels stay mapped; for tests and benchmarks). */
GP_API gp_status_t gp_cache_forget_loaded(void);

/* Waits until the optimised twins of kernels first compiled quickly (a
 * first call's scalar loop, compiled in the background) are compiled; each
 * kernel takes its twin at its next call. For timing a kernel's steady
 * state: a benchmark that times a new kernel's first calls times its quick
 * code. */
GP_API gp_status_t gp_cache_finish_compiles(void);

/* Compiles a kernel source as generated by the engine (without its prelude)
 * with NVRTC for `arch` ("sm_90"), prepending the CUDA prelude, to a cubin
 * that is thrown away, at NVRTC's least optimisation (-Ofc=max): whether
 * it compiles, not what it runs. Does not need a GPU. GP_ERR_COMPILE with
 * the compiler log in gp_errmsg() if it does not compile;
 * GP_ERR_NOT_FOUND_LIBRARY if NVRTC cannot be loaded. */
GP_API gp_status_t gp_rtc_check_cuda(const char *source, const char *arch);

/* The same with hiprtc for an AMD `arch` ("gfx90a"), prepending the HIP
 * prelude, at -O0. Does not need a GPU. */
GP_API gp_status_t gp_rtc_check_hip(const char *source, const char *arch);

/* gp_rtc_check_cuda's compile, optimised as for a launch, with the image
 * stored in the disk cache where the CUDA backend on a device of `arch`
 * will find it: a machine
 * without a GPU can prepare the cache of one (from the sources
 * GPUNP_KERNEL_LOG kept). The entry is valid for the same NVRTC version
 * there. GP_ERR_IO when the disk cache is off; errors as gp_rtc_check_cuda. */
GP_API gp_status_t gp_rtc_precompile_cuda(const char *source, const char *arch);

/* A generated `source` compiled for `backend` ("cuda", or "host" with the
 * host's C compiler) and `target` ("sm_90"; the host's is gp_runtime_config
 * "target") into the kernel pack in folder `dir` (made if needed): the pack
 * a wheel ships beside the engine (tools/kernel_pack.py), read after the
 * disk cache. Its entries name the prelude by a hash, which keeps them a
 * third of a disk entry's size. */
GP_API gp_status_t gp_rtc_pack(const char *backend, const char *source, const char *target,
                               const char *dir);

#ifdef __cplusplus
}
#endif
#endif /* GP_RUNTIME_H */
