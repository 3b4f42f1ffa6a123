/*
 * backend.h - the backend interface: one static const vtable per backend.
 *
 * The engine calls backends only through gp_backend(), which starts the
 * chosen backend on first use. Every slot returns a gp_status_t and sets the
 * error through gp_set_error. Slots marked optional may be NULL; the
 * wrappers below supply their defaults.
 */
#ifndef GP_BACKEND_H
#define GP_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "../rtc/rtc.h"

/* DLPack device types, reused as backend identities. */
enum { GP_DL_CPU = 1, GP_DL_CUDA = 2, GP_DL_ROCM = 10 };

/* Launch geometry. */
typedef struct gp_launch {
    uint32_t grid;        /* blocks */
    uint32_t block;       /* threads per block */
    uint32_t shared_mem;  /* dynamic shared memory, bytes */
} gp_launch_t;

/* Properties the code generator and launcher size work by. */
typedef struct gp_device_props {
    int32_t multiprocessors;     /* SMs (CUDA), CUs (HIP), 1 (host) */
    int32_t max_threads_per_block;
    int32_t warp_size;
    int32_t max_blocks_per_sm;   /* resident blocks of max_threads_per_block/4 */
    int32_t compute_major;       /* compute capability (CUDA), 0 elsewhere */
    int32_t compute_minor;
    int64_t total_memory;
    char name[128];
    char target[32];             /* "sm_90", "gfx90a", "x86_64" */
} gp_device_props_t;

/* A product of a CSR matrix and a dense matrix for a sparse library
 * (gp_sparse.h): Y = A @ X, A `rows` x `cols` with `nnz` stored elements
 * (indices of `idx_dtype`, int32 or int64), X (cols x k) and Y (rows x k)
 * row-major, or with k = 0 the vectors x (cols) and y (rows), all of
 * `dtype` (float32/64, complex64/128). */
typedef struct gp_csr_mm {
    int32_t dtype;
    int32_t idx_dtype;
    int64_t rows, cols, nnz;
    const void *indptr, *indices, *data;
    int64_t k;
    const void *x;
    void *y;
} gp_csr_mm_t;

/* A product of two CSR matrices for a sparse library (gp_sparse.h):
 * C = A @ B, A `rows` x `inner` and B `inner` x `cols`, with `a_nnz` and
 * `b_nnz` stored elements, each row's indices sorted and distinct; all index
 * arrays of `idx_dtype` (int32 or int64) and all data of `dtype`
 * (float32/64, complex64/128). The engine gives C's indptr (rows + 1
 * entries); the library takes C's indices and data from the call's `alloc`
 * and sets `c_nnz`, `c_indices` and `c_data`. C may store elements whose
 * sums are zero, and need not have its rows' indices sorted: the engine
 * makes it canonical after. */
typedef struct gp_csr_spgemm {
    int32_t dtype;
    int32_t idx_dtype;
    int64_t rows, inner, cols;
    int64_t a_nnz, b_nnz;
    const void *a_indptr, *a_indices, *a_data;
    const void *b_indptr, *b_indices, *b_data;
    void *c_indptr;
    int64_t c_nnz;
    void *c_indices, *c_data;
} gp_csr_spgemm_t;

/* A solve of A x = b by a sparse direct solver (gp_sparse.h): A n x n in
 * CSR form with `nnz` stored elements, int32 indices, each row's sorted and
 * distinct; b and x n entries; all data of `dtype` (float32/64,
 * complex64/128). The library sets `singular`: -1 when A is invertible,
 * else a row where its factorization found A singular (x is then
 * unspecified). */
typedef struct gp_csr_solve {
    int32_t dtype;
    int64_t n, nnz;
    const void *indptr, *indices, *data;
    const void *b;
    void *x;
    int64_t singular;
} gp_csr_solve_t;

/* Device memory a library call asks the engine for (its pool), freed by the
 * engine after the call, ordered on the call's stream. */
typedef gp_status_t (*gp_work_alloc_fn)(void *ctx, size_t bytes, void **ptr);

/* One solver call over a batch of column-major matrices (gp_linalg.h):
 * `routine` and `flags` as gp_solver_run's, the dimensions as the routine
 * names them (GETRF/POTRF/SYEVD/GEEV: n; GETRS: n, nrhs = k; GEQRF: m, n;
 * ORGQR: m, n, k reflectors; GESVD: m >= n). Every matrix's leading
 * dimension is its row count; argument i of matrix b is at
 * ptr[i] + b * bstride[i] (NULL: absent); the last argument is info. */
#define GP_SOLVER_MAXARGS 5
typedef struct gp_solver_call {
    int32_t routine, dtype, flags, nargs;
    int64_t m, n, k;
    int64_t batch;
    char *ptr[GP_SOLVER_MAXARGS];
    int64_t bstride[GP_SOLVER_MAXARGS];
    void *work, *host_work;
    size_t work_bytes, host_work_bytes;
} gp_solver_call_t;
/* One FFT plan's problem in cuFFT's advanced layout: element (b, x0..x_{r-1})
 * of the input lies at b*idist + istride*(x_{r-1} + inembed[r-1]*(x_{r-2} +
 * inembed[r-2]*(...))), in elements of its dtype; the output likewise. n is
 * the logical (real side's) length of each axis; inembed[0] and onembed[0]
 * are not read by the library but are part of the key. */
typedef struct gp_fft_layout {
    int32_t kind;        /* enum gp_fft_kind (GP_FFT_INVERSE plans as FORWARD) */
    int32_t dtype;       /* the complex dtype: GP_COMPLEX64 or GP_COMPLEX128 */
    int32_t rank;        /* 1..GP_FFT_MAX_RANK */
    int32_t pad_;
    int64_t n[3];
    int64_t inembed[3], istride, idist;
    int64_t onembed[3], ostride, odist;
    int64_t batch;
} gp_fft_layout_t;

typedef struct gp_backend_i {
    const char *name;           /* "host", "cuda", "hip" */
    int32_t dl_device_type;     /* GP_DL_* */
    int32_t pooled;             /* 1: the memory layer caches allocations */

    /* Starts the backend: loads its libraries, finds its devices. */
    gp_status_t (*init)(void);

    /* devices */
    gp_status_t (*device_count)(int32_t *out);
    gp_status_t (*device_props)(int32_t dev, gp_device_props_t *out);
    gp_status_t (*device_set)(int32_t dev);        /* current on this thread */
    gp_status_t (*device_synchronize)(void);

    /* free and total bytes of the current device (optional: host memory) */
    gp_status_t (*mem_info)(int64_t *free_bytes, int64_t *total_bytes);

    /* memory on the current device, ordered on `stream` (NULL: default) */
    gp_status_t (*mem_alloc)(size_t n, void *stream, void **out);
    gp_status_t (*mem_free)(void *p, size_t n, void *stream);
    /* the driver's stream-ordered pool (optional: NULL where there is none) */
    gp_status_t (*mem_alloc_async)(size_t n, void *stream, void **out);
    gp_status_t (*mem_free_async)(void *p, size_t n, void *stream);
    /* page-locked host memory for transfers (optional: malloc) */
    gp_status_t (*host_alloc)(size_t n, void **out);
    gp_status_t (*host_free)(void *p);
    /* memory the host and the device both address, freed by mem_free
     * (optional: NULL where the backend has none) */
    gp_status_t (*mem_alloc_managed)(size_t n, void **out);
    /* page-locks host memory the caller allocated, and undoes it (optional:
     * NULL where there is no page-locked memory) */
    gp_status_t (*host_register)(void *p, size_t n, uint32_t flags);
    gp_status_t (*host_unregister)(void *p);
    /* runs fn(arg) on a host thread once the work queued on `stream` before
     * it is done; later work on the stream waits for it (optional: NULL
     * where queued work is done when queued, and the caller runs fn now) */
    gp_status_t (*launch_host_func)(void *stream, void (*fn)(void *), void *arg);
    /* the driver's version, numbered as the vendor does (CUDA 12.4: 12040)
     * (optional: NULL where there is no driver) */
    gp_status_t (*driver_version)(int32_t *out);
    /* peer access between devices (optional, with enable_peer: NULL where
     * there is one device that is the host) */
    gp_status_t (*can_access_peer)(int32_t dev, int32_t peer, int32_t *out);
    /* lets the current device address `peer`'s memory */
    gp_status_t (*enable_peer)(int32_t peer);
    /* interprocess handles (64 bytes) of device memory and events
     * (optional, all five: NULL where there are none) */
    gp_status_t (*ipc_mem_handle)(void *dptr, void *handle);
    gp_status_t (*ipc_open_mem)(const void *handle, void **dptr);
    gp_status_t (*ipc_close_mem)(void *dptr);
    gp_status_t (*ipc_event_handle)(void *event, void *handle);
    gp_status_t (*ipc_open_event)(const void *handle, void **event);
    /* what the driver knows of an address: memory type as cudaMemoryType
     * numbers it (0 unregistered host memory, 1 page-locked host, 2 device,
     * 3 managed), device, device and host addresses (optional: NULL where
     * the driver knows no addresses) */
    gp_status_t (*pointer_attributes)(const void *p, int32_t *type, int32_t *device,
                                      uint64_t *dptr, uint64_t *hptr);
    gp_status_t (*memcpy_htod)(void *dst, const void *src, size_t n, void *stream);
    /* blocks until the copy is done */
    gp_status_t (*memcpy_dtoh)(void *dst, const void *src, size_t n, void *stream);
    /* into page-locked `dst`, ordered on `stream` (optional: GPU only) */
    gp_status_t (*memcpy_dtoh_async)(void *dst, const void *src, size_t n, void *stream);
    gp_status_t (*memcpy_dtod)(void *dst, const void *src, size_t n, void *stream);
    gp_status_t (*memset8)(void *dst, uint8_t value, size_t n, void *stream);

    /* streams */
    gp_status_t (*stream_create)(int32_t flags, int32_t priority, void **out);
    gp_status_t (*stream_destroy)(void *s);
    gp_status_t (*stream_synchronize)(void *s);
    gp_status_t (*stream_query)(void *s, int32_t *done);
    /* 1 while `s` is being captured into a graph (optional: never) */
    gp_status_t (*stream_capturing)(void *s, int32_t *out);
    gp_status_t (*stream_wait_event)(void *s, void *e);
    /* makes `waiter` wait for the work queued so far on `producer` (native
     * handles, foreign streams too). Optional: NULL where work is done when
     * queued (the host). */
    gp_status_t (*stream_order)(void *waiter, void *producer);

    /* events (timing: GP_EVENT_TIMING for timing data, GP_EVENT_INTERPROCESS
     * for an event other processes may open, which has none) */
    gp_status_t (*event_create)(int32_t timing, void **out);
    gp_status_t (*event_destroy)(void *e);
    gp_status_t (*event_record)(void *e, void *s);
    gp_status_t (*event_synchronize)(void *e);
    gp_status_t (*event_query)(void *e, int32_t *done);
    gp_status_t (*event_elapsed)(void *start, void *end, float *ms);

    /* kernels */
    const char *prelude;                         /* prepended to every kernel */
    const char *(*compiler_id)(void);            /* compiler + version + target */
    gp_status_t (*compile)(const char *source, gp_blob_t *out); /* caller frees data */
    /* the same in less time, to slower code: a kernel's first call runs it
     * while `compile` makes the lasting one on a thread of the kernel cache
     * (optional: NULL where each kernel is compiled once) */
    gp_status_t (*compile_quick)(const char *source, gp_blob_t *out);
    gp_status_t (*module_load)(const gp_blob_t *image, void **module);
    gp_status_t (*module_function)(void *module, const char *name, void **fn);
    gp_status_t (*launch)(void *fn, const gp_launch_t *cfg, const void *params,
                          size_t params_size, void *stream);

    /* users' kernels (optional: NULL where the backend has none, GPU only) */
    /* compiles user source with `opts` and name expressions, giving the
     * image and (malloc'd, one per name) the lowered names */
    gp_status_t (*compile_user)(const char *source, int32_t nopts, const char *const *opts,
                                int32_t nnames, const char *const *names, gp_blob_t *image,
                                char **lowered);
    gp_status_t (*function_attribute)(void *fn, int32_t attr, int32_t set, int32_t *value);
    gp_status_t (*launch_user)(void *fn, const uint32_t *grid, const uint32_t *block,
                               uint32_t shared_mem, void *stream, void *const *args);
    /* graphs: capture work queued on a stream, replay it */
    gp_status_t (*capture_begin)(void *stream);
    gp_status_t (*capture_end)(void *stream, void **graph);
    gp_status_t (*graph_launch)(void *graph, void *stream);
    gp_status_t (*graph_destroy)(void *graph);

    /* vendor libraries */
    /* Column-major batched C = op(A) op(B) (BLAS conventions; `ta`, `tb` 1
     * transpose) in `dtype` (float16, bfloat16, float32/64, complex64/128;
     * the 16-bit floats accumulate in float32). Optional: NULL where the backend has no BLAS,
     * and the engine runs its generated kernel. GP_ERR_UNSUPPORTED when a
     * size does not fit the library's int. */
    gp_status_t (*gemm)(int32_t dtype, int32_t ta, int32_t tb, int64_t m, int64_t n, int64_t k,
                        const void *a, int64_t lda, int64_t stride_a, const void *b,
                        int64_t ldb, int64_t stride_b, void *c, int64_t ldc, int64_t stride_c,
                        int64_t batch, void *stream);

    /* Dense solvers (optional: NULL where the backend has none; the engine
     * gives GP_ERR_UNSUPPORTED). `solver_workspace` gives the device and host
     * workspace one call needs (c->work and c->host_work unset); `solver`
     * runs the call on `stream` with the workspace the engine allocated. */
    gp_status_t (*solver_workspace)(const gp_solver_call_t *c, size_t *dev_bytes,
                                    size_t *host_bytes);
    gp_status_t (*solver)(const gp_solver_call_t *c, void *stream);
    /* whether the library has `routine` (optional: every routine) */
    bool (*solver_has)(int32_t routine);
    /* Solves A X = B in place from the left for `batch` systems: A n x n
     * triangular (`upper`, or lower; `unit`: its diagonal read as ones), B
     * n x k, both column-major, in `dtype` (float32/64, complex64/128). With
     * batch 1, `a` and `b` are the matrices; with more, device arrays of the
     * batch's matrix pointers. Optional (NULL where the backend has no BLAS
     * solve; the engine's getrs then calls the solver library's).
     * GP_ERR_UNSUPPORTED when a size does not fit the library's int. */
    gp_status_t (*trsm)(int32_t dtype, int32_t upper, int32_t unit, int64_t n, int64_t k,
                        const void *a, int64_t lda, void *b, int64_t ldb, int64_t batch,
                        void *stream);
    /* An FFT plan for `l` on the current device that runs on `stream`, whose
     * work area the library allocates; `*work` is its size in bytes.
     * Optional (with fft_exec and fft_destroy): NULL where the backend has
     * no FFT library. */
    gp_status_t (*fft_plan)(const gp_fft_layout_t *l, void *stream, void **plan, int64_t *work);
    /* Runs `plan` (made for `l`) on its stream; `inverse` 1 for the C2C
     * inverse. C2R overwrites `in`. */
    gp_status_t (*fft_exec)(void *plan, const gp_fft_layout_t *l, int32_t inverse,
                            const void *in, void *out);
    gp_status_t (*fft_destroy)(void *plan);
    /* Y = A @ X for a CSR matrix (gp_csr_mm_t), its workspace from `alloc`.
     * Optional: NULL where the backend has no sparse library, and the
     * engine runs its generated kernels; GP_ERR_UNSUPPORTED (with nothing
     * written) for sizes past the library's, which the engine takes the
     * same way. The indices are checked before: the library trusts them. */
    gp_status_t (*csr_mm)(const gp_csr_mm_t *c, gp_work_alloc_fn alloc, void *ctx,
                          void *stream);
    /* C = A @ B for CSR matrices (gp_csr_spgemm_t), C's arrays and the
     * workspace from `alloc`. Optional and declining as csr_mm does. */
    gp_status_t (*csr_spgemm)(gp_csr_spgemm_t *c, gp_work_alloc_fn alloc, void *ctx,
                              void *stream);
    /* Solves A x = b (gp_csr_solve_t) on `stream`; waits for the device.
     * Optional (NULL where the backend has no sparse direct solver);
     * GP_ERR_UNSUPPORTED where the library is missing or declines. */
    gp_status_t (*csr_solve)(gp_csr_solve_t *c, void *stream);
} gp_backend_i;

/* The running backend (started on first use by gp_runtime_init, which is
 * here too: choosing the backend is this layer's first service). Never
 * NULL on GP_OK. */
gp_status_t gp_backend(const gp_backend_i **out);

/* After a fault that leaves the device unusable (an illegal address in a
 * kernel), gp_backend fails with `why` from then on: nothing but a new
 * process recovers the device. The first call's `why` is kept. */
void gp_backend_fail_all(const char *why);

/* The running backend if started, else NULL (no side effects). */
const gp_backend_i *gp_backend_running(void);

/* Current device properties (cached per device). */
gp_status_t gp_backend_props(const gp_device_props_t **out);

/* This thread's current device and stream (the stream handle's backend
 * object, NULL for the default stream). */
int32_t gp_current_device(void);
void *gp_current_stream(void);

/* A stream handle of the ABI (gp_runtime.h): the backend's stream and the
 * device it belongs to. Made and destroyed by the runtime API
 * (runtime/runtime.c); made current here (backend.c). */
#define GP_STREAM_MAGIC 0x47505374u /* "GPSt" */
struct gp_stream {
    uint32_t magic;
    int32_t device;
    void *native;
    bool foreign;   /* made elsewhere (gp_stream_wrap): never destroyed here */
};
static inline bool gp_stream_ok(const gp_stream_t *s)
{
    return s && s->magic == GP_STREAM_MAGIC;
}

extern const gp_backend_i gp_backend_host;
extern const gp_backend_i gp_backend_cuda;
extern const gp_backend_i gp_backend_hip;

/* ---- the device-side error record (errrec.c) ---------------------------- */

/* The current device's error record (4 long longs: flag, index, axis,
 * size), made zeroed on first use and kept for the process. Kernels that
 * check their input claim it on the first bad index (gpk_index_error). */
gp_status_t gp_errrec_get(void **out);

/* Notes a launch that may write the record, on the current stream. On the
 * host backend (the launch is done) the record is checked at once: its
 * error comes back as GP_ERR_INDEX. On a GPU the check is deferred. */
gp_status_t gp_errrec_launched(void);

/* Where the host waits for the device (a copy to the host, a stream
 * synchronisation; `all_streams` after a device-wide one): reads the record
 * if a launch is pending, ordered on `stream` (a backend stream, NULL: the
 * default one), and turns an error
 * it holds into GP_ERR_INDEX ("index 10 is out of bounds for axis 0 with
 * size 5"), clearing it. Costs nothing when no launch is pending. */
gp_status_t gp_errrec_check(void *stream, bool all_streams);

#endif /* GP_BACKEND_H */
