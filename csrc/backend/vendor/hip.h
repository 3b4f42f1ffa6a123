/*
 * vendor/hip.h - the HIP runtime API as csrc/backend/gpu.c uses it.
 *
 * The counterpart of vendor/cuda.h: gpu.c compiled with GP_GPU_HIP defined
 * is the HIP backend. The constants are the values of ROCm's headers, the
 * same from ROCm 5.2 to 6.x (hipDeviceAttribute_t was renumbered before
 * 5.0, so older runtimes are not supported). HIP's module API mirrors
 * CUDA's driver API, so most rows differ only in the symbol's name.
 *
 * Where HIP differs, this header says so and gpu.c follows it:
 * - hipGetErrorName/hipGetErrorString return the text (GPU_TEXT_API);
 * - a graph's kernel node takes a host function, not a module's kernel, so
 *   launches are plain hipModuleLaunchKernel calls (GPU_LAUNCH_GRAPHS 0);
 * - a module's kernel has no attribute setter (GPU_FUNC_SET_ATTRIBUTE 0);
 * - the compile target is the device's gcnArchName ("gfx90a"), found in
 *   hipDeviceProp_t, whose layout changed in ROCm 6 (GPU_TARGET_FROM_PROPERTIES);
 * - BLAS is rocBLAS, whose strided batched product also names the output
 *   D and an algorithm (GPU_BLAS_GEMM).
 * - the dense solvers (rocSOLVER) are not wired yet (GPU_HAS_SOLVER 0): the
 *   backend has no solver slot, and gpunp.linalg's factorizations raise
 *   NotImplementedError on HIP (docs/hip.md).
 */
#ifndef GP_VENDOR_HIP_H
#define GP_VENDOR_HIP_H

#define GPU_VENDOR "hip"
#define GPU_BACKEND gp_backend_hip
/* the name of a function the GPU backend's files share, one per vendor */
#define GPU_SYM(name) gp_hip_##name
#define GPU_DL_DEVICE GP_DL_ROCM
#define GPU_DL_VENDOR GP_VENDOR_ROCM
#define GPU_DRIVER_WHAT "the HIP runtime (libamdhip64)"
#define GPU_DRIVER_SONAMES \
    {"libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so", NULL}
#define GPU_NO_DEVICE_HINT "no AMD GPU was found"

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
typedef void *gpuDevicePtr; /* hipDeviceptr_t */
/* hipIpcMemHandle_t, hipIpcEventHandle_t: 64 opaque bytes, passed by value */
typedef struct {
    char reserved[64];
} gpuIpcHandle;

#define GPU_PTR(p) ((gpuDevicePtr)(p))
#define GPU_VOIDP(d) ((void *)(d))

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

    GPU_ATTR_MAX_THREADS_PER_BLOCK = 56,
    GPU_ATTR_WARP_SIZE = 87,
    GPU_ATTR_MULTIPROCESSOR_COUNT = 63,
    GPU_ATTR_L2_CACHE_SIZE = 19,
    GPU_ATTR_MAX_THREADS_PER_MULTIPROCESSOR = 57,
    GPU_ATTR_CC_MAJOR = 23,
    GPU_ATTR_CC_MINOR = 61,
    GPU_ATTR_MAX_SHARED_PER_BLOCK_OPTIN = 75,
    GPU_ATTR_MEMORY_POOLS_SUPPORTED = 88,
    GPU_FUNC_LOCAL_SIZE_BYTES = 3,   /* a kernel's attribute */
    GPU_LIMIT_STACK_SIZE = 0,        /* a context's limit */

    GPU_STREAM_NON_BLOCKING = 1,
    GPU_EVENT_DISABLE_TIMING = 2,
    GPU_MEMHOSTALLOC_PORTABLE = 1,
    GPU_MEM_ATTACH_GLOBAL = 1,
    GPU_EVENT_INTERPROCESS = 4,       /* hipEventInterprocess */
    GPU_IPC_LAZY_ENABLE_PEER_ACCESS = 1,
    GPU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2, /* HIP_POINTER_ATTRIBUTE_*: CUDA's numbers */
    GPU_POINTER_ATTRIBUTE_DEVICE_POINTER = 3,
    GPU_POINTER_ATTRIBUTE_HOST_POINTER = 4,
    GPU_POINTER_ATTRIBUTE_IS_MANAGED = 8,
    GPU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9,
    GPU_MEMORYTYPE_HOST = 1,          /* hipMemoryType of ROCm 6 (CUDA's numbers) */
    GPU_MEMORYTYPE_DEVICE = 2,
    GPU_ERROR_INVALID_VALUE = 1,
    GPU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4,
    GPU_CAPTURE_MODE_RELAXED = 2
};

#define GPU_LAUNCH_GRAPHS 0
#define GPU_FUNC_SET_ATTRIBUTE 0
#define GPU_TARGET_FROM_PROPERTIES 1
/* Module images: AMD code objects (ELF machine EM_AMDGPU); no PTX. */
#define GPU_ELF_MACHINE 224
#define GPU_TAKES_PTX 0

#define GPU_API(X)                                                                 \
    X(Init, (unsigned int), "hipInit")                                             \
    X(DriverGetVersion, (int *), "hipDriverGetVersion")                            \
    X(DeviceGetCount, (int *), "hipGetDeviceCount")                                \
    X(DeviceGet, (gpuDevice *, int), "hipDeviceGet")                               \
    X(DeviceGetName, (char *, int, gpuDevice), "hipDeviceGetName")                 \
    X(DeviceGetAttribute, (int *, int, gpuDevice), "hipDeviceGetAttribute")        \
    X(DeviceTotalMem, (size_t *, gpuDevice), "hipDeviceTotalMem")                  \
    X(DeviceGetProperties, (void *, int),                                          \
      "hipGetDevicePropertiesR0600\0hipGetDeviceProperties")                       \
    X(DevicePrimaryCtxRetain, (gpuContext *, gpuDevice), "hipDevicePrimaryCtxRetain") \
    X(CtxSetCurrent, (gpuContext), "hipCtxSetCurrent")                             \
    X(CtxSynchronize, (void), "hipDeviceSynchronize")                              \
    X(MemGetInfo, (size_t *, size_t *), "hipMemGetInfo")                           \
    X(MemAlloc, (gpuDevicePtr *, size_t), "hipMalloc")                             \
    X(MemFree, (gpuDevicePtr), "hipFree")                                          \
    X(MemAllocAsync, (gpuDevicePtr *, size_t, gpuStream), "hipMallocAsync")       \
    X(MemFreeAsync, (gpuDevicePtr, gpuStream), "hipFreeAsync")                     \
    X(DeviceGetDefaultMemPool, (gpuMemPool *, gpuDevice), "hipDeviceGetDefaultMemPool") \
    X(MemPoolSetAttribute, (gpuMemPool, int, void *), "hipMemPoolSetAttribute")    \
    X(MemPoolTrimTo, (gpuMemPool, size_t), "hipMemPoolTrimTo")                     \
    X(MemHostAlloc, (void **, size_t, unsigned int), "hipHostMalloc")              \
    X(MemFreeHost, (void *), "hipHostFree")                                        \
    X(MemAllocManaged, (gpuDevicePtr *, size_t, unsigned int), "hipMallocManaged") \
    X(MemHostRegister, (void *, size_t, unsigned int), "hipHostRegister")          \
    X(MemHostUnregister, (void *), "hipHostUnregister")                            \
    X(DeviceCanAccessPeer, (int *, gpuDevice, gpuDevice), "hipDeviceCanAccessPeer") \
    X(CtxEnablePeerAccess, (gpuContext, unsigned int), "hipCtxEnablePeerAccess")   \
    X(IpcGetMemHandle, (gpuIpcHandle *, gpuDevicePtr), "hipIpcGetMemHandle")      \
    X(IpcOpenMemHandle, (gpuDevicePtr *, gpuIpcHandle, unsigned int),              \
      "hipIpcOpenMemHandle")                                                       \
    X(IpcCloseMemHandle, (gpuDevicePtr), "hipIpcCloseMemHandle")                   \
    X(IpcGetEventHandle, (gpuIpcHandle *, gpuEvent), "hipIpcGetEventHandle")      \
    X(IpcOpenEventHandle, (gpuEvent *, gpuIpcHandle), "hipIpcOpenEventHandle")     \
    X(PointerGetAttribute, (void *, int, gpuDevicePtr), "hipPointerGetAttribute")  \
    X(MemcpyHtoDAsync, (gpuDevicePtr, const void *, size_t, gpuStream),            \
      "hipMemcpyHtoDAsync")                                                        \
    X(MemcpyDtoHAsync, (void *, gpuDevicePtr, size_t, gpuStream), "hipMemcpyDtoHAsync") \
    X(MemcpyDtoDAsync, (gpuDevicePtr, gpuDevicePtr, size_t, gpuStream),            \
      "hipMemcpyDtoDAsync")                                                        \
    X(MemsetD8Async, (gpuDevicePtr, unsigned char, size_t, gpuStream), "hipMemsetD8Async") \
    X(StreamCreateWithPriority, (gpuStream *, unsigned int, int),                  \
      "hipStreamCreateWithPriority")                                               \
    X(StreamDestroy, (gpuStream), "hipStreamDestroy")                              \
    X(StreamSynchronize, (gpuStream), "hipStreamSynchronize")                      \
    X(StreamQuery, (gpuStream), "hipStreamQuery")                                  \
    X(StreamIsCapturing, (gpuStream, int *), "hipStreamIsCapturing")               \
    X(StreamWaitEvent, (gpuStream, gpuEvent, unsigned int), "hipStreamWaitEvent")  \
    X(EventCreate, (gpuEvent *, unsigned int), "hipEventCreateWithFlags")          \
    X(EventRecord, (gpuEvent, gpuStream), "hipEventRecord")                        \
    X(EventSynchronize, (gpuEvent), "hipEventSynchronize")                         \
    X(EventQuery, (gpuEvent), "hipEventQuery")                                     \
    X(EventElapsedTime, (float *, gpuEvent, gpuEvent), "hipEventElapsedTime")      \
    X(EventDestroy, (gpuEvent), "hipEventDestroy")                                 \
    X(ModuleLoadData, (gpuModule *, const void *), "hipModuleLoadData")            \
    X(ModuleGetFunction, (gpuFunction *, gpuModule, const char *), "hipModuleGetFunction") \
    X(LaunchKernel, (gpuFunction, unsigned int, unsigned int, unsigned int,        \
                     unsigned int, unsigned int, unsigned int, unsigned int,       \
                     gpuStream, void **, void **), "hipModuleLaunchKernel")         \
    X(FuncGetAttribute, (int *, int, gpuFunction), "hipFuncGetAttribute")          \
    X(StreamBeginCapture, (gpuStream, int), "hipStreamBeginCapture")              \
    X(StreamEndCapture, (gpuStream, gpuGraph *), "hipStreamEndCapture")            \
    X(GraphInstantiate, (gpuGraphExec *, gpuGraph, unsigned long long),            \
      "hipGraphInstantiateWithFlags")                                              \
    X(GraphLaunch, (gpuGraphExec, gpuStream), "hipGraphLaunch")                    \
    X(GraphExecDestroy, (gpuGraphExec), "hipGraphExecDestroy")                     \
    X(GraphDestroy, (gpuGraph), "hipGraphDestroy")

/* Functions some supported runtimes lack (ROCm 5.2 has no hipLaunchHostFunc):
 * NULL where missing, and the feature reports it. */
#define GPU_OPTIONAL_API(X)                                                        \
    X(LaunchHostFunc, (gpuStream, void (*)(void *), void *), "hipLaunchHostFunc")  \
    X(CtxGetLimit, (size_t *, int), "hipDeviceGetLimit")                           \
    X(CtxSetLimit, (int, size_t), "hipDeviceSetLimit")

/* The functions that return a text instead of a status. */
#define GPU_TEXT_API(X)                                                            \
    X(GetErrorName, (gpuResult), "hipGetErrorName")                                \
    X(GetErrorString, (gpuResult), "hipGetErrorString")
#define GPU_ERROR_TEXTS(r, name, text)                                             \
    (*(name) = api.GetErrorName ? api.GetErrorName(r) : NULL,                      \
     *(text) = api.GetErrorString ? api.GetErrorString(r) : NULL)

/* BLAS: rocBLAS, loaded at first use (its C ABI is stable across ROCm
 * releases; hipBLAS changed its type enums in ROCm 6 and 7). */
#define GPU_BLAS_WHAT "rocBLAS"
#define GPU_BLAS_SONAMES {"librocblas.so.5", "librocblas.so.4", "librocblas.so.0", "librocblas.so", NULL}
typedef struct gpu_blas_ *gpuBlasHandle;
enum {
    GPU_BLAS_SUCCESS = 0,
    GPU_BLAS_OP_N = 111,
    GPU_BLAS_OP_T = 112,
    GPU_BLAS_R_16F = 150,
    GPU_BLAS_R_16BF = 168,
    GPU_BLAS_R_32F = 151,
    GPU_BLAS_R_64F = 152,
    GPU_BLAS_C_32F = 154,
    GPU_BLAS_C_64F = 155,
    /* rocBLAS computes complex products in the complex type */
    GPU_BLAS_COMPUTE_32F = 151,
    GPU_BLAS_COMPUTE_64F = 152,
    GPU_BLAS_COMPUTE_C32F = 154,
    GPU_BLAS_COMPUTE_C64F = 155,
    GPU_BLAS_GEMM_STANDARD = 0
};
#define GPU_BLAS_API(X)                                                            \
    X(Create, (gpuBlasHandle *), "rocblas_create_handle")                          \
    X(SetStream, (gpuBlasHandle, gpuStream), "rocblas_set_stream")                 \
    X(GemmStridedBatchedEx, (gpuBlasHandle, int, int, int, int, int, const void *, \
                             const void *, int, int, long long, const void *, int, int, \
                             long long, const void *, const void *, int, int, long long, \
                             void *, int, int, long long, int, int, int, int, unsigned), \
      "rocblas_gemm_strided_batched_ex")
/* C = A B written in place: rocBLAS's D is C. */
#define GPU_BLAS_GEMM(h, ta, tb, m, n, k, alpha, a, type, lda, sa, b, ldb, sb, beta, c, ldc, \
                      sc, batch, compute)                                              \
    blas.GemmStridedBatchedEx(h, ta, tb, m, n, k, alpha, a, type, lda, sa, b, type, ldb, sb, \
                              beta, c, type, ldc, sc, c, type, ldc, sc, batch, compute,   \
                              GPU_BLAS_GEMM_STANDARD, 0, 0)

/* No triangular solves: only the engine's getrs uses them, and it needs
 * the dense solvers. */
#define GPU_BLAS_HAS_TRSM 0
#define GPU_BLAS_TYPED_API(X)

/* Dense solvers: rocSOLVER is not wired yet (see the top of this file). */
#define GPU_HAS_SOLVER 0

/* Run-time compilation: hiprtc, to a code object for the device's gfx arch. */
#define GPU_RTC_COMPILE(src, target, out) gp_hiprtc_compile((src), (target), (out))
#define GPU_RTC_COMPILE_USER gp_hiprtc_compile_user
#define GPU_RTC_ID() gp_hiprtc_id()
#define GPU_PRELUDE gp_prelude_hip

#endif /* GP_VENDOR_HIP_H */
