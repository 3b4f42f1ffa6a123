/*
 * gp_interop.h - arrays shared with other libraries without a copy: raw
 * device pointers (__cuda_array_interface__) and DLPack, and the stream
 * hand-offs both protocols prescribe.
 */
#ifndef GP_INTEROP_H
#define GP_INTEROP_H

#include "gp_array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An array over memory gpunp does not own: element 0 at `ptr` on `device`
 * of the running backend, `strides` in bytes (NULL: C-contiguous). gpunp
 * never frees it: the caller keeps its owner alive as long as any array
 * made from it (gpunp.ndarray does, through `.base`). */
GP_API gp_status_t gp_array_from_pointer(uint64_t ptr, int32_t dtype, int32_t ndim,
                                         const int64_t *shape, const int64_t *strides,
                                         int32_t device, int32_t readonly, gp_array_t **out);

/* DLPack export: a new DLManagedTensorVersioned (`versioned` 1) or legacy
 * DLManagedTensor (0) describing `a`, holding a reference to it that the
 * tensor's deleter releases. GP_ERR_VALUE (Python BufferError) if a stride
 * is not a whole number of elements. */
GP_API gp_status_t gp_array_to_dlpack(gp_array_t *a, int32_t versioned, void **out);

/* DLPack import: an array over the memory of `managed` (a
 * DLManagedTensorVersioned, or a legacy DLManagedTensor when `versioned` is
 * 0), whose ownership it takes: the tensor's deleter runs when the last
 * array on that memory goes. On error the tensor is left to its owner. The
 * tensor must live on the running backend's device type (CUDA, ROCm, or CPU
 * for the host backend) and hold one of gpunp's dtypes. */
GP_API gp_status_t gp_array_from_dlpack(void *managed, int32_t versioned, gp_array_t **out);

/* Calls the deleter of a DLPack tensor nobody consumed (a capsule's
 * destructor). */
GP_API gp_status_t gp_dlpack_delete(void *managed, int32_t versioned);

/* The native handle of a stream as other libraries name it: 0 for NULL
 * (the default stream). */
GP_API gp_status_t gp_stream_native(gp_stream_t *s, uint64_t *out);

/* Makes future work on this thread's current stream wait for the work
 * already queued on the foreign stream `native` (1: the legacy default
 * stream, 2: the per-thread default stream, else a handle). No-op on the
 * host backend. */
GP_API gp_status_t gp_stream_wait_native(uint64_t native);

/* Makes future work on the foreign stream `native` wait for the work
 * already queued on this thread's current stream. No-op on the host
 * backend. */
GP_API gp_status_t gp_stream_signal_native(uint64_t native);

#ifdef __cplusplus
}
#endif
#endif /* GP_INTEROP_H */
