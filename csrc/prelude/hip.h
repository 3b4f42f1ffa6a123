/* gpunp kernel prelude: HIP backend (compiled by hiprtc, no includes).
 *
 * What HIP spells its own way, as cuda.h does for CUDA; gpu.h, appended by
 * build_ffi.py, is the rest. A wavefront has GPK_WARP threads: 64 on CDNA
 * (gfx9), 32 on RDNA (gfx10 and later), as the compiler's target says. */
#define GPK_HIP 1
#define GPK_FN static __device__ inline __attribute__((always_inline))
/* helpers built only where called, as in cuda.h */
#define GPK_HELPER template <int = 0> __device__ inline __attribute__((always_inline))
/* ...and one kept out of line: a large helper called from several places
 * in a kernel (the incomplete beta function), which inlined overflowed
 * hiprtc's 128 KiB stack frame or its scalar registers for gfx90a */
#define GPK_HELPER_CALL template <int = 0> __device__ __attribute__((noinline))
#define GPK_WARP __AMDGCN_WAVEFRONT_SIZE

#define NAN __builtin_nanf("")
#define INFINITY __builtin_inff()

/* The wavefront, for the shared GPU prelude (gpu.h, appended to this one). */
#define GPK_SHFL_DOWN_WORD(w, d) __shfl_down((w), (unsigned int)(d), GPK_WARP)
#define GPK_SHFL_UP_WORD(w, d) __shfl_up((w), (unsigned int)(d), GPK_WARP)
#define GPK_SHFL_IDX_WORD(w, s) __shfl((w), (s), GPK_WARP)
/* The wavefront's lanes whose `p` holds, as bits (lane k is bit k); the
 * lanes below this one; the bits set in a 64-bit word. */
#define GPK_BALLOT(p) ((unsigned long long)__ballot(p))
#define GPK_LANES_BELOW ((1ull << (threadIdx.x % GPK_WARP)) - 1ull)
#define GPK_POPC64(x) __popcll(x)

/* IEEE half <-> float through the compiler's _Float16 (the hardware's
 * conversions, round to nearest even). */
typedef unsigned short gpk_f16;

GPK_HELPER float gpk_f16_to_f32(gpk_f16 h) { return (float)__builtin_bit_cast(_Float16, h); }

GPK_HELPER gpk_f16 gpk_f32_to_f16(float f) { return __builtin_bit_cast(gpk_f16, (_Float16)f); }

GPK_HELPER gpk_f16 gpk_f64_to_f16(double d) { return __builtin_bit_cast(gpk_f16, (_Float16)d); }
