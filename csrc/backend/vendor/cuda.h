/*
 * vendor/cuda.h - the CUDA driver API as csrc/backend/gpu.c uses it.
 *
 * gpu.c is written once against the gpu* names below and compiled once per
 * vendor; this header (and vendor/hip.h) is the only difference. Nothing here
 * includes the vendor's headers: the types are opaque handles, the constants
 * are the driver's documented values, and every function is loaded at run
 * time by name (a '\0'-separated list of candidates, newest first).
 */
#ifndef GP_VENDOR_CUDA_H
#define GP_VENDOR_CUDA_H

#define GPU_VENDOR GP_CUDA_BACKEND_NAME
#define GPU_BACKEND gp_backend_cuda
/* the name of a function the GPU backend's files share, one per vendor */
#define GPU_SYM(name) gp_cuda_##name
#define GPU_DL_DEVICE GP_DL_CUDA
#define GPU_DL_VENDOR GP_VENDOR_CUDA
#define GPU_DRIVER_WHAT "the CUDA driver (libcuda)"
#define GPU_DRIVER_SONAMES {"libcuda.so.1", "libcuda.so", NULL}
#define GPU_NO_DEVICE_HINT "no NVIDIA GPU was found"

typedef int gpuResult;
typedef int gpuDevice;
typedef struct gpu_ctx_ *gpuContext;
typedef struct gpu_stream_ *gpuStream;
typedef struct gpu_event_ *gpuEvent;
typedef struct gpu_module_ *gpuModule;
typedef struct gpu_function_ *gpuFunction;
typedef struct gpu_mempool_ *gpuMemPool;
typedef struct gpu_graph_ *gpuGraph;
typedef struct gpu_graph_exec_ *gpuGraphExec;
typedef struct gpu_graph_node_ *gpuGraphNode;
/* CUipcMemHandle, CUipcEventHandle (HIP's alike): 64 opaque bytes, passed by value */
typedef struct {
    char reserved[64];
} gpuIpcHandle;
typedef unsigned long long gpuDevicePtr;

/* A kernel node's launch (CUDA_KERNEL_NODE_PARAMS_v2) */
typedef struct {
    gpuFunction func;
    unsigned int grid[3], block[3], shared_mem;
    void **params, **extra;
    void *kernel, *ctx; /* unused: func is set */
} gpuKernelNode;

#define GPU_PTR(p) ((gpuDevicePtr)(uintptr_t)(p))
#define GPU_VOIDP(d) ((void *)(uintptr_t)(d))

/* Faults that leave the context unusable: an illegal or misaligned address,
 * an illegal instruction, a trap or assert, a launch that failed or timed
 * out. Every later call returns them again. */
#define GPU_STICKY(r) \
    ((r) == 700 || (r) == 702 || (r) == 710 || ((r) >= 714 && (r) <= 719))

enum {
    GPU_SUCCESS = 0,
    GPU_ERROR_OUT_OF_MEMORY = 2,
    GPU_ERROR_NO_DEVICE = 100,
    GPU_ERROR_NOT_READY = 600,

    GPU_ATTR_MAX_THREADS_PER_BLOCK = 1,
    GPU_ATTR_WARP_SIZE = 10,
    GPU_ATTR_MULTIPROCESSOR_COUNT = 16,
    GPU_ATTR_L2_CACHE_SIZE = 38,
    GPU_ATTR_MAX_THREADS_PER_MULTIPROCESSOR = 39,
    GPU_ATTR_CC_MAJOR = 75,
    GPU_ATTR_CC_MINOR = 76,
    GPU_ATTR_MAX_SHARED_PER_BLOCK_OPTIN = 97,
    GPU_ATTR_MEMORY_POOLS_SUPPORTED = 115,
    GPU_FUNC_LOCAL_SIZE_BYTES = 3,   /* a kernel's attribute */
    GPU_LIMIT_STACK_SIZE = 0,        /* a context's limit */

    GPU_STREAM_NON_BLOCKING = 1,
    GPU_EVENT_DISABLE_TIMING = 2,
    GPU_MEMHOSTALLOC_PORTABLE = 1,
    GPU_MEM_ATTACH_GLOBAL = 1,
    GPU_EVENT_INTERPROCESS = 4,
    GPU_IPC_LAZY_ENABLE_PEER_ACCESS = 1,
    GPU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
    GPU_POINTER_ATTRIBUTE_DEVICE_POINTER = 3,
    GPU_POINTER_ATTRIBUTE_HOST_POINTER = 4,
    GPU_POINTER_ATTRIBUTE_IS_MANAGED = 8,
    GPU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9,
    GPU_MEMORYTYPE_HOST = 1,          /* CUmemorytype */
    GPU_MEMORYTYPE_DEVICE = 2,
    GPU_ERROR_INVALID_VALUE = 1,
    GPU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4,
    GPU_CAPTURE_MODE_RELAXED = 2
};

#define GPU_LAUNCH_GRAPHS 1          /* kernels launched as one-node graphs (gpu.c) */
#define GPU_FUNC_SET_ATTRIBUTE 1     /* cuFuncSetAttribute exists */
#define GPU_TARGET_FROM_PROPERTIES 0 /* the target is sm_<major><minor> */
/* Module images: cubins (ELF machine EM_CUDA) and PTX text. */
#define GPU_ELF_MACHINE 190
#define GPU_TAKES_PTX 1

/* The functions gpu.c calls: X(name, parameter list, symbol candidates). */
#define GPU_API(X)                                                                 \
    X(Init, (unsigned int), "cuInit")                                              \
    X(DriverGetVersion, (int *), "cuDriverGetVersion")                             \
    X(GetErrorName, (gpuResult, const char **), "cuGetErrorName")                  \
    X(GetErrorString, (gpuResult, const char **), "cuGetErrorString")              \
    X(DeviceGetCount, (int *), "cuDeviceGetCount")                                 \
    X(DeviceGet, (gpuDevice *, int), "cuDeviceGet")                                \
    X(DeviceGetName, (char *, int, gpuDevice), "cuDeviceGetName")                  \
    X(DeviceGetAttribute, (int *, int, gpuDevice), "cuDeviceGetAttribute")         \
    X(DeviceTotalMem, (size_t *, gpuDevice), "cuDeviceTotalMem_v2")                \
    X(DevicePrimaryCtxRetain, (gpuContext *, gpuDevice), "cuDevicePrimaryCtxRetain") \
    X(CtxSetCurrent, (gpuContext), "cuCtxSetCurrent")                              \
    X(CtxSynchronize, (void), "cuCtxSynchronize")                                  \
    X(MemGetInfo, (size_t *, size_t *), "cuMemGetInfo_v2")                         \
    X(MemAlloc, (gpuDevicePtr *, size_t), "cuMemAlloc_v2")                         \
    X(MemFree, (gpuDevicePtr), "cuMemFree_v2")                                     \
    X(MemAllocAsync, (gpuDevicePtr *, size_t, gpuStream), "cuMemAllocAsync")      \
    X(MemFreeAsync, (gpuDevicePtr, gpuStream), "cuMemFreeAsync")                   \
    X(DeviceGetDefaultMemPool, (gpuMemPool *, gpuDevice), "cuDeviceGetDefaultMemPool") \
    X(MemPoolSetAttribute, (gpuMemPool, int, void *), "cuMemPoolSetAttribute")     \
    X(MemPoolTrimTo, (gpuMemPool, size_t), "cuMemPoolTrimTo")                      \
    X(MemHostAlloc, (void **, size_t, unsigned int), "cuMemHostAlloc")             \
    X(MemFreeHost, (void *), "cuMemFreeHost")                                      \
    X(MemAllocManaged, (gpuDevicePtr *, size_t, unsigned int), "cuMemAllocManaged") \
    X(MemHostRegister, (void *, size_t, unsigned int), "cuMemHostRegister_v2")     \
    X(MemHostUnregister, (void *), "cuMemHostUnregister")                          \
    X(DeviceCanAccessPeer, (int *, gpuDevice, gpuDevice), "cuDeviceCanAccessPeer") \
    X(CtxEnablePeerAccess, (gpuContext, unsigned int), "cuCtxEnablePeerAccess")    \
    X(IpcGetMemHandle, (gpuIpcHandle *, gpuDevicePtr), "cuIpcGetMemHandle")       \
    X(IpcOpenMemHandle, (gpuDevicePtr *, gpuIpcHandle, unsigned int),              \
      "cuIpcOpenMemHandle_v2\0cuIpcOpenMemHandle")                                 \
    X(IpcCloseMemHandle, (gpuDevicePtr), "cuIpcCloseMemHandle")                    \
    X(IpcGetEventHandle, (gpuIpcHandle *, gpuEvent), "cuIpcGetEventHandle")       \
    X(IpcOpenEventHandle, (gpuEvent *, gpuIpcHandle), "cuIpcOpenEventHandle")      \
    X(PointerGetAttribute, (void *, int, gpuDevicePtr), "cuPointerGetAttribute")   \
    X(MemcpyHtoDAsync, (gpuDevicePtr, const void *, size_t, gpuStream),            \
      "cuMemcpyHtoDAsync_v2")                                                      \
    X(MemcpyDtoHAsync, (void *, gpuDevicePtr, size_t, gpuStream), "cuMemcpyDtoHAsync_v2") \
    X(MemcpyDtoDAsync, (gpuDevicePtr, gpuDevicePtr, size_t, gpuStream),            \
      "cuMemcpyDtoDAsync_v2")                                                      \
    X(MemsetD8Async, (gpuDevicePtr, unsigned char, size_t, gpuStream), "cuMemsetD8Async") \
    X(StreamCreateWithPriority, (gpuStream *, unsigned int, int),                  \
      "cuStreamCreateWithPriority")                                                \
    X(StreamDestroy, (gpuStream), "cuStreamDestroy_v2")                            \
    X(StreamSynchronize, (gpuStream), "cuStreamSynchronize")                       \
    X(StreamQuery, (gpuStream), "cuStreamQuery")                                   \
    X(StreamIsCapturing, (gpuStream, int *), "cuStreamIsCapturing")                \
    X(StreamWaitEvent, (gpuStream, gpuEvent, unsigned int), "cuStreamWaitEvent")   \
    X(EventCreate, (gpuEvent *, unsigned int), "cuEventCreate")                    \
    X(EventRecord, (gpuEvent, gpuStream), "cuEventRecord")                         \
    X(EventSynchronize, (gpuEvent), "cuEventSynchronize")                          \
    X(EventQuery, (gpuEvent), "cuEventQuery")                                      \
    X(EventElapsedTime, (float *, gpuEvent, gpuEvent),                             \
      "cuEventElapsedTime_v2\0cuEventElapsedTime")                                 \
    X(EventDestroy, (gpuEvent), "cuEventDestroy_v2")                               \
    X(ModuleLoadData, (gpuModule *, const void *), "cuModuleLoadData")             \
    X(ModuleGetFunction, (gpuFunction *, gpuModule, const char *), "cuModuleGetFunction") \
    X(LaunchKernel, (gpuFunction, unsigned int, unsigned int, unsigned int,        \
                     unsigned int, unsigned int, unsigned int, unsigned int,       \
                     gpuStream, void **, void **), "cuLaunchKernel")                \
    X(FuncGetAttribute, (int *, int, gpuFunction), "cuFuncGetAttribute")           \
    X(FuncSetAttribute, (gpuFunction, int, int), "cuFuncSetAttribute")             \
    X(StreamBeginCapture, (gpuStream, int), "cuStreamBeginCapture_v2")            \
    X(StreamEndCapture, (gpuStream, gpuGraph *), "cuStreamEndCapture")             \
    X(GraphInstantiate, (gpuGraphExec *, gpuGraph, unsigned long long),            \
      "cuGraphInstantiateWithFlags")                                               \
    X(GraphLaunch, (gpuGraphExec, gpuStream), "cuGraphLaunch")                     \
    X(GraphExecDestroy, (gpuGraphExec), "cuGraphExecDestroy")                      \
    X(GraphDestroy, (gpuGraph), "cuGraphDestroy")                                  \
    X(GraphCreate, (gpuGraph *, unsigned int), "cuGraphCreate")                    \
    X(GraphAddKernelNode, (gpuGraphNode *, gpuGraph, const gpuGraphNode *, size_t, \
                           const gpuKernelNode *), "cuGraphAddKernelNode_v2")       \
    X(GraphExecKernelNodeSetParams, (gpuGraphExec, gpuGraphNode, const gpuKernelNode *), \
      "cuGraphExecKernelNodeSetParams_v2")

/* Functions some supported runtimes lack (ROCm 5.2 has no hipLaunchHostFunc):
 * NULL where missing, and the feature reports it. */
#define GPU_OPTIONAL_API(X)                                                        \
    X(LaunchHostFunc, (gpuStream, void (*)(void *), void *), "cuLaunchHostFunc")   \
    X(CtxGetLimit, (size_t *, int), "cuCtxGetLimit")                               \
    X(CtxSetLimit, (int, size_t), "cuCtxSetLimit")

/* No function returns a text: the error texts come through out-pointers. */
#define GPU_TEXT_API(X)
#define GPU_ERROR_TEXTS(r, name, text)                                             \
    ((void)(api.GetErrorName && api.GetErrorName((r), (name))),                    \
     (void)(api.GetErrorString && api.GetErrorString((r), (text))))

/* BLAS: cuBLAS, loaded at first use. */
#define GPU_BLAS_WHAT "cuBLAS"
#define GPU_BLAS_SONAMES {"libcublas.so.13", "libcublas.so.12", "libcublas.so", NULL}
typedef struct gpu_blas_ *gpuBlasHandle;
enum {
    GPU_BLAS_SUCCESS = 0,
    GPU_BLAS_OP_N = 0,
    GPU_BLAS_OP_T = 1,
    GPU_BLAS_R_16F = 2,
    GPU_BLAS_R_16BF = 14,
    GPU_BLAS_R_32F = 0,
    GPU_BLAS_R_64F = 1,
    GPU_BLAS_C_32F = 4,
    GPU_BLAS_C_64F = 5,
    GPU_BLAS_COMPUTE_32F = 68,
    GPU_BLAS_COMPUTE_64F = 70,
    GPU_BLAS_COMPUTE_C32F = 68, /* cuBLAS names complex compute by its real type */
    GPU_BLAS_COMPUTE_C64F = 70,
    GPU_BLAS_GEMM_DEFAULT = -1
};
#define GPU_BLAS_API(X)                                                            \
    X(Create, (gpuBlasHandle *), "cublasCreate_v2")                                \
    X(SetStream, (gpuBlasHandle, gpuStream), "cublasSetStream_v2")                 \
    X(GemmStridedBatchedEx, (gpuBlasHandle, int, int, int, int, int, const void *, \
                             const void *, int, int, long long, const void *, int, int, \
                             long long, const void *, void *, int, int, long long, int, \
                             int, int), "cublasGemmStridedBatchedEx")
#define GPU_BLAS_GEMM(h, ta, tb, m, n, k, alpha, a, type, lda, sa, b, ldb, sb, beta, c, ldc, \
                      sc, batch, compute)                                              \
    blas.GemmStridedBatchedEx(h, ta, tb, m, n, k, alpha, a, type, lda, sa, b, type, ldb, sb, \
                              beta, c, type, ldc, sc, batch, compute, GPU_BLAS_GEMM_DEFAULT)
/* Triangular solves from the left, per type (S, D, C, Z; their typed
 * pointers written void * here): the engine's getrs (csrc/kernels/solver.c)
 * is its own row interchange kernel and two of these. The enums are
 * cublas_api.h's. */
#define GPU_BLAS_HAS_TRSM 1
enum {
    GPU_BLAS_SIDE_LEFT = 0,
    GPU_BLAS_FILL_LOWER = 0,
    GPU_BLAS_FILL_UPPER = 1,
    GPU_BLAS_DIAG_NON_UNIT = 0,
    GPU_BLAS_DIAG_UNIT = 1
};
#define GPU_BLAS_SDCZ(r) "cublasS" r, "cublasD" r, "cublasC" r, "cublasZ" r
#define GPU_BLAS_TYPED_API(X)                                                              \
    X(Trsm, (gpuBlasHandle, int, int, int, int, int, int, const void *, const void *, int,   \
             void *, int), GPU_BLAS_SDCZ("trsm_v2"))                                       \
    X(TrsmBatched, (gpuBlasHandle, int, int, int, int, int, int, const void *,              \
                    const void *const *, int, void *const *, int, int),                    \
      GPU_BLAS_SDCZ("trsmBatched"))

/* Dense solvers: cuSOLVER's dense API, loaded at first use. The 64-bit
 * generic routines (cusolverDnX*) take cudaDataType codes, the same values
 * as GPU_BLAS_R_32F...; orgqr/ungqr exist only per type (S, D, C, Z), their
 * typed pointers written void * here. Xgeev is CUDA 12.6's (cuSOLVER 11.7):
 * optional, so an older cuSOLVER still runs the other routines. */
#define GPU_HAS_SOLVER 1
#define GPU_SOLVER_WHAT "cuSOLVER"
#define GPU_SOLVER_SONAMES {"libcusolver.so.12", "libcusolver.so.11", "libcusolver.so", NULL}
typedef struct gpu_solver_ *gpuSolverHandle;
typedef struct gpu_solver_params_ *gpuSolverParams;
enum {
    GPU_SOLVER_SUCCESS = 0,
    GPU_SOLVER_FILL_LOWER = 0,   /* cublasFillMode_t */
    GPU_SOLVER_FILL_UPPER = 1,
    GPU_SOLVER_OP_N = 0,         /* cublasOperation_t */
    GPU_SOLVER_OP_T = 1,
    GPU_SOLVER_OP_C = 2,
    GPU_SOLVER_EIG_NOVECTOR = 0, /* cusolverEigMode_t */
    GPU_SOLVER_EIG_VECTOR = 1
};
#define GPU_SOLVER_API(X)                                                                   \
    X(Create, (gpuSolverHandle *), "cusolverDnCreate")                                      \
    X(SetStream, (gpuSolverHandle, gpuStream), "cusolverDnSetStream")                       \
    X(CreateParams, (gpuSolverParams *), "cusolverDnCreateParams")                          \
    X(GetrfSize, (gpuSolverHandle, gpuSolverParams, int64_t, int64_t, int, const void *,    \
                  int64_t, int, size_t *, size_t *), "cusolverDnXgetrf_bufferSize")          \
    X(Getrf, (gpuSolverHandle, gpuSolverParams, int64_t, int64_t, int, void *, int64_t,     \
              int64_t *, int, void *, size_t, void *, size_t, int *), "cusolverDnXgetrf")    \
    X(Getrs, (gpuSolverHandle, gpuSolverParams, int, int64_t, int64_t, int, const void *,   \
              int64_t, const int64_t *, int, void *, int64_t, int *), "cusolverDnXgetrs")   \
    X(PotrfSize, (gpuSolverHandle, gpuSolverParams, int, int64_t, int, const void *,        \
                  int64_t, int, size_t *, size_t *), "cusolverDnXpotrf_bufferSize")          \
    X(Potrf, (gpuSolverHandle, gpuSolverParams, int, int64_t, int, void *, int64_t, int,    \
              void *, size_t, void *, size_t, int *), "cusolverDnXpotrf")                    \
    X(GeqrfSize, (gpuSolverHandle, gpuSolverParams, int64_t, int64_t, int, const void *,    \
                  int64_t, int, const void *, int, size_t *, size_t *),                     \
      "cusolverDnXgeqrf_bufferSize")                                                        \
    X(Geqrf, (gpuSolverHandle, gpuSolverParams, int64_t, int64_t, int, void *, int64_t, int, \
              void *, int, void *, size_t, void *, size_t, int *), "cusolverDnXgeqrf")       \
    X(SyevdSize, (gpuSolverHandle, gpuSolverParams, int, int, int64_t, int, const void *,   \
                  int64_t, int, const void *, int, size_t *, size_t *),                     \
      "cusolverDnXsyevd_bufferSize")                                                        \
    X(Syevd, (gpuSolverHandle, gpuSolverParams, int, int, int64_t, int, void *, int64_t,    \
              int, void *, int, void *, size_t, void *, size_t, int *), "cusolverDnXsyevd")  \
    X(GesvdSize, (gpuSolverHandle, gpuSolverParams, signed char, signed char, int64_t,      \
                  int64_t, int, const void *, int64_t, int, const void *, int, const void *, \
                  int64_t, int, const void *, int64_t, int, size_t *, size_t *),            \
      "cusolverDnXgesvd_bufferSize")                                                        \
    X(Gesvd, (gpuSolverHandle, gpuSolverParams, signed char, signed char, int64_t, int64_t, \
              int, void *, int64_t, int, void *, int, void *, int64_t, int, void *, int64_t, \
              int, void *, size_t, void *, size_t, int *), "cusolverDnXgesvd")               \
    X(OrgqrSizeS, (gpuSolverHandle, int, int, int, const void *, int, const void *, int *), \
      "cusolverDnSorgqr_bufferSize")                                                        \
    X(OrgqrSizeD, (gpuSolverHandle, int, int, int, const void *, int, const void *, int *), \
      "cusolverDnDorgqr_bufferSize")                                                        \
    X(OrgqrSizeC, (gpuSolverHandle, int, int, int, const void *, int, const void *, int *), \
      "cusolverDnCungqr_bufferSize")                                                        \
    X(OrgqrSizeZ, (gpuSolverHandle, int, int, int, const void *, int, const void *, int *), \
      "cusolverDnZungqr_bufferSize")                                                        \
    X(OrgqrS, (gpuSolverHandle, int, int, int, void *, int, const void *, void *, int,      \
               int *), "cusolverDnSorgqr")                                                  \
    X(OrgqrD, (gpuSolverHandle, int, int, int, void *, int, const void *, void *, int,      \
               int *), "cusolverDnDorgqr")                                                  \
    X(OrgqrC, (gpuSolverHandle, int, int, int, void *, int, const void *, void *, int,      \
               int *), "cusolverDnCungqr")                                                  \
    X(OrgqrZ, (gpuSolverHandle, int, int, int, void *, int, const void *, void *, int,      \
               int *), "cusolverDnZungqr")
/* loaded where the library has them (NULL otherwise) */
#define GPU_SOLVER_OPTIONAL_API(X)                                                          \
    X(GeevSize, (gpuSolverHandle, gpuSolverParams, int, int, int64_t, int, const void *,    \
                 int64_t, int, const void *, int, const void *, int64_t, int, const void *, \
                 int64_t, int, size_t *, size_t *), "cusolverDnXgeev_bufferSize")            \
    X(Geev, (gpuSolverHandle, gpuSolverParams, int, int, int64_t, int, void *, int64_t, int, \
             void *, int, void *, int64_t, int, void *, int64_t, int, void *, size_t, void *, \
             size_t, int *), "cusolverDnXgeev")
/* Routines that exist per type only: one slot per type (S, D, C, Z), each
 * with its name. Optional, as above. gesvdj is one-sided Jacobi (any m, n;
 * V, not V^H); its Batched form takes matrices up to 32 x 32, always with
 * full U and V. syevjBatched (heevjBatched) takes matrices up to 32 x 32. */
typedef struct gpu_gesvdj_info_ *gpuGesvdjInfo;
typedef struct gpu_syevj_info_ *gpuSyevjInfo;
#define GPU_SOLVER_CREATE_GESVDJ_INFO "cusolverDnCreateGesvdjInfo"
#define GPU_SOLVER_CREATE_SYEVJ_INFO "cusolverDnCreateSyevjInfo"
#define GPU_SOLVER_SDCZ(r) "cusolverDnS" r, "cusolverDnD" r, "cusolverDnC" r, "cusolverDnZ" r
#define GPU_SOLVER_TYPED_API(X)                                                             \
    X(GesvdjSize, (gpuSolverHandle, int, int, int, int, const void *, int, const void *,    \
                   const void *, int, const void *, int, int *, gpuGesvdjInfo),             \
      GPU_SOLVER_SDCZ("gesvdj_bufferSize"))                                                 \
    X(Gesvdj, (gpuSolverHandle, int, int, int, int, void *, int, void *, void *, int, void *, \
               int, void *, int, int *, gpuGesvdjInfo), GPU_SOLVER_SDCZ("gesvdj"))          \
    X(GesvdjBatchedSize, (gpuSolverHandle, int, int, int, const void *, int, const void *,  \
                          const void *, int, const void *, int, int *, gpuGesvdjInfo, int), \
      GPU_SOLVER_SDCZ("gesvdjBatched_bufferSize"))                                          \
    X(GesvdjBatched, (gpuSolverHandle, int, int, int, void *, int, void *, void *, int,     \
                      void *, int, void *, int, int *, gpuGesvdjInfo, int),                 \
      GPU_SOLVER_SDCZ("gesvdjBatched"))                                                     \
    X(SyevjBatchedSize, (gpuSolverHandle, int, int, int, const void *, int, const void *,   \
                         int *, gpuSyevjInfo, int),                                         \
      "cusolverDnSsyevjBatched_bufferSize", "cusolverDnDsyevjBatched_bufferSize",           \
      "cusolverDnCheevjBatched_bufferSize", "cusolverDnZheevjBatched_bufferSize")           \
    X(SyevjBatched, (gpuSolverHandle, int, int, int, void *, int, void *, void *, int, int *, \
                     gpuSyevjInfo, int),                                                    \
      "cusolverDnSsyevjBatched", "cusolverDnDsyevjBatched", "cusolverDnCheevjBatched",      \
      "cusolverDnZheevjBatched")
/* FFT: cuFFT, loaded at first use (CUDA 13 ships it as libcufft.so.12,
 * CUDA 12 as .11). Its handles are ints and its enums are passed as ints;
 * the values are cufft.h's. */
#define GPU_FFT_WHAT "cuFFT"
#define GPU_FFT_SONAMES {"libcufft.so.12", "libcufft.so.11", "libcufft.so", NULL}
typedef int gpuFftHandle;
enum {
    GPU_FFT_SUCCESS = 0,
    GPU_FFT_FORWARD = -1,
    GPU_FFT_INVERSE = 1,
    GPU_FFT_C2C = 0x29,
    GPU_FFT_R2C = 0x2a,
    GPU_FFT_C2R = 0x2c,
    GPU_FFT_Z2Z = 0x69,
    GPU_FFT_D2Z = 0x6a,
    GPU_FFT_Z2D = 0x6c
};
#define GPU_FFT_API(X)                                                                  \
    X(Create, (gpuFftHandle *), "cufftCreate")                                         \
    X(MakePlanMany64, (gpuFftHandle, int, long long *, long long *, long long, long long, \
                       long long *, long long, long long, int, long long, size_t *),     \
      "cufftMakePlanMany64")                                                            \
    X(SetStream, (gpuFftHandle, gpuStream), "cufftSetStream")                           \
    X(ExecC2C, (gpuFftHandle, void *, void *, int), "cufftExecC2C")                     \
    X(ExecZ2Z, (gpuFftHandle, void *, void *, int), "cufftExecZ2Z")                     \
    X(ExecR2C, (gpuFftHandle, void *, void *), "cufftExecR2C")                          \
    X(ExecD2Z, (gpuFftHandle, void *, void *), "cufftExecD2Z")                          \
    X(ExecC2R, (gpuFftHandle, void *, void *), "cufftExecC2R")                          \
    X(ExecZ2D, (gpuFftHandle, void *, void *), "cufftExecZ2D")                          \
    X(Destroy, (gpuFftHandle), "cufftDestroy")

/* Sparse: cuSPARSE's generic API, loaded at first use (CUDA 13 and 12 ship
 * it as libcusparse.so.12). Descriptors are opaque pointers; the enums are
 * cusparse.h's, the value types cudaDataType's (GPU_BLAS_R_32F...). */
#define GPU_SPARSE_WHAT "cuSPARSE"
#define GPU_SPARSE_SONAMES {"libcusparse.so.12", "libcusparse.so.11", "libcusparse.so", NULL}
typedef struct gpu_sparse_ *gpuSparseHandle;
typedef struct gpu_sp_mat_ *gpuSpMat;
typedef struct gpu_dn_mat_ *gpuDnMat;
typedef struct gpu_dn_vec_ *gpuDnVec;
enum {
    GPU_SPARSE_SUCCESS = 0,
    GPU_SPARSE_ALLOC_FAILED = 2,
    GPU_SPARSE_NOT_SUPPORTED = 10,
    GPU_SPARSE_INSUFFICIENT_RESOURCES = 11,
    GPU_SPARSE_INDEX_32I = 2,
    GPU_SPARSE_INDEX_64I = 3,
    GPU_SPARSE_BASE_ZERO = 0,
    GPU_SPARSE_OP_N = 0,
    GPU_SPARSE_ORDER_ROW = 2,
    GPU_SPARSE_SPMM_DEFAULT = 0,
    GPU_SPARSE_SPMV_DEFAULT = 0,
    GPU_SPARSE_SPGEMM_DEFAULT = 0
};
typedef struct gpu_spgemm_ *gpuSpGEMM;
typedef struct gpu_mat_descr_ *gpuMatDescr;
/* SpGEMM's three phases share one argument list (cusparseSpGEMM_*): handle,
 * opA, opB, alpha, A, B, beta, C, compute type, algorithm, descriptor */
#define GPU_SPGEMM_ARGS gpuSparseHandle, int, int, const void *, gpuSpMat, gpuSpMat, \
                        const void *, gpuSpMat, int, int, gpuSpGEMM
#define GPU_SPARSE_API(X)                                                               \
    X(Create, (gpuSparseHandle *), "cusparseCreate")                                    \
    X(SetStream, (gpuSparseHandle, gpuStream), "cusparseSetStream")                     \
    X(CreateCsr, (gpuSpMat *, int64_t, int64_t, int64_t, void *, void *, void *, int, int, \
                  int, int), "cusparseCreateCsr")                                       \
    X(DestroySpMat, (gpuSpMat), "cusparseDestroySpMat")                                 \
    X(CreateDnMat, (gpuDnMat *, int64_t, int64_t, int64_t, void *, int, int),           \
      "cusparseCreateDnMat")                                                            \
    X(DestroyDnMat, (gpuDnMat), "cusparseDestroyDnMat")                                 \
    X(SpMMSize, (gpuSparseHandle, int, int, const void *, gpuSpMat, gpuDnMat, const void *, \
                 gpuDnMat, int, int, size_t *), "cusparseSpMM_bufferSize")              \
    X(SpMM, (gpuSparseHandle, int, int, const void *, gpuSpMat, gpuDnMat, const void *,  \
             gpuDnMat, int, int, void *), "cusparseSpMM")                               \
    X(CreateDnVec, (gpuDnVec *, int64_t, void *, int), "cusparseCreateDnVec")           \
    X(DestroyDnVec, (gpuDnVec), "cusparseDestroyDnVec")                                 \
    X(SpMVSize, (gpuSparseHandle, int, const void *, gpuSpMat, gpuDnVec, const void *,     \
                 gpuDnVec, int, int, size_t *), "cusparseSpMV_bufferSize")              \
    X(SpMV, (gpuSparseHandle, int, const void *, gpuSpMat, gpuDnVec, const void *,         \
             gpuDnVec, int, int, void *), "cusparseSpMV")                               \
    X(SpGEMMCreate, (gpuSpGEMM *), "cusparseSpGEMM_createDescr")                        \
    X(SpGEMMDestroy, (gpuSpGEMM), "cusparseSpGEMM_destroyDescr")                        \
    X(SpGEMMWork, (GPU_SPGEMM_ARGS, size_t *, void *), "cusparseSpGEMM_workEstimation") \
    X(SpGEMMCompute, (GPU_SPGEMM_ARGS, size_t *, void *), "cusparseSpGEMM_compute")     \
    X(SpGEMMCopy, (GPU_SPGEMM_ARGS), "cusparseSpGEMM_copy")                             \
    X(SpMatGetSize, (gpuSpMat, int64_t *, int64_t *, int64_t *), "cusparseSpMatGetSize") \
    X(CsrSetPointers, (gpuSpMat, void *, void *, void *), "cusparseCsrSetPointers")    \
    X(CreateMatDescr, (gpuMatDescr *), "cusparseCreateMatDescr")                        \
    X(DestroyMatDescr, (gpuMatDescr), "cusparseDestroyMatDescr")

/* Sparse direct solves: cuSOLVER's sparse API (cusolverSp, in the dense
 * solvers' library; deprecated for cuDSS since CUDA 12.9 but shipped by
 * CUDA 13), its QR solve of a CSR system with the matrix on the device
 * (csrlsvqr), loaded at first use apart from the dense API so a cuSOLVER
 * without it still runs those. A matrix's legacy descriptor (general,
 * zero-based: cusparseCreateMatDescr's default) comes from cuSPARSE. The
 * typed routines differ in their tolerance's type (float for S and C). */
#define GPU_SPSOLVER_WHAT "cuSOLVER's sparse API"
typedef struct gpu_spsolver_ *gpuSpSolverHandle;
#define GPU_LSVQR_ARGS(tol) gpuSpSolverHandle, int, int, gpuMatDescr, const void *, const int *, \
                            const int *, const void *, tol, int, void *, int *
#define GPU_SPSOLVER_API(X)                                                             \
    X(Create, (gpuSpSolverHandle *), "cusolverSpCreate")                               \
    X(SetStream, (gpuSpSolverHandle, gpuStream), "cusolverSpSetStream")                \
    X(LsvqrS, (GPU_LSVQR_ARGS(float)), "cusolverSpScsrlsvqr")                          \
    X(LsvqrD, (GPU_LSVQR_ARGS(double)), "cusolverSpDcsrlsvqr")                         \
    X(LsvqrC, (GPU_LSVQR_ARGS(float)), "cusolverSpCcsrlsvqr")                          \
    X(LsvqrZ, (GPU_LSVQR_ARGS(double)), "cusolverSpZcsrlsvqr")

/* Run-time compilation: NVRTC, to a cubin for sm_<major><minor>. */
#define GPU_RTC_COMPILE(src, target, out) gp_nvrtc_compile((src), (target), (out))
/* NVRTC's -Ofc=max for a kernel's first calls (hip.h has no such level:
 * HIP compiles each kernel once) */
#define GPU_RTC_COMPILE_QUICK(src, target, out) gp_nvrtc_compile_quick((src), (target), (out))
#define GPU_RTC_COMPILE_USER gp_nvrtc_compile_user
#define GPU_RTC_ID() gp_nvrtc_id()
#define GPU_TARGET_FORMAT "sm_%d%d"
#define GPU_PRELUDE gp_prelude_cuda

#endif /* GP_VENDOR_CUDA_H */
