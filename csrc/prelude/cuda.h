/* gpunp kernel prelude: CUDA backend (compiled by NVRTC, no includes).
 *
 * What CUDA spells its own way; the rest of a GPU kernel's prelude (entry
 * point, thread indices, block reductions and scans) is gpu.h, which
 * build_ffi.py appends. */
#define GPK_CUDA 1
#define GPK_FN static __device__ __forceinline__
/* The prelude's helpers are function templates (of an unused parameter, so
 * calls read as plain calls): NVRTC's front end then builds only those a
 * kernel calls, where it built all of them for every kernel (on the H200's
 * host the front end of a tanh kernel took 18 ms, and 12 as templates). */
#define GPK_HELPER template <int = 0> __device__ __forceinline__
/* ...and a large helper that a kernel reaches from several places, kept
 * out of line (as hip.h does): NVRTC inlined eval_jacobi's hypergeometric
 * series at each of its 12 call sites, a full compile of 5 minutes and more
 * with a 1424-byte stack frame; out of line, 24 s and 80 bytes */
#define GPK_HELPER_CALL template <int = 0> __device__ __noinline__

/* NVRTC compiles without the C library's headers. */
#define NAN __int_as_float(0x7fffffff)
#define INFINITY __int_as_float(0x7f800000)

/* The warp, for the shared GPU prelude (gpu.h, appended to this one). */
#define GPK_WARP 32
#define GPK_SHFL_DOWN_WORD(w, d) __shfl_down_sync(0xffffffffu, (w), (d))
#define GPK_SHFL_UP_WORD(w, d) __shfl_up_sync(0xffffffffu, (w), (d))
#define GPK_SHFL_IDX_WORD(w, s) __shfl_sync(0xffffffffu, (w), (s))
/* The warp's lanes whose `p` holds, as bits (lane k is bit k); the lanes
 * below this one; the bits set in a 64-bit word. */
#define GPK_BALLOT(p) ((unsigned long long)__ballot_sync(0xffffffffu, (p)))
#define GPK_LANES_BELOW ((unsigned long long)((1u << (threadIdx.x % 32u)) - 1u))
#define GPK_POPC64(x) __popcll(x)

/* IEEE half <-> float through the hardware's conversions (round to nearest
 * even, as the host prelude's code). cvt makes every NaN the canonical one,
 * where NumPy and the host prelude keep a NaN's sign and its payload's top
 * bits (signbit of a negative float16 NaN is True): NaNs are rebuilt. */
typedef unsigned short gpk_f16;

GPK_HELPER float gpk_f16_to_f32(gpk_f16 h)
{
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    if ((h & 0x7c00u) == 0x7c00u && (h & 0x3ffu))
        f = __uint_as_float(((unsigned int)(h & 0x8000u) << 16) | 0x7f800000u |
                            ((unsigned int)(h & 0x3ffu) << 13));
    return f;
}

GPK_HELPER gpk_f16 gpk_f32_to_f16(float f)
{
    gpk_f16 h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    if (f != f) {
        unsigned int u = __float_as_uint(f);
        h = (gpk_f16)(((u >> 16) & 0x8000u) | 0x7e00u | ((u >> 13) & 0x3ffu));
    }
    return h;
}

GPK_HELPER gpk_f16 gpk_f64_to_f16(double d)
{
    gpk_f16 h;
    asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(d));
    if (d != d) {
        unsigned long long u = (unsigned long long)__double_as_longlong(d);
        h = (gpk_f16)(((u >> 48) & 0x8000u) | 0x7e00u | ((u >> 42) & 0x3ffu));
    }
    return h;
}
