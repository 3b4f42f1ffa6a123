/* gpunp kernel prelude: HIP backend (compiled by hiprtc, no includes).
 *
 * The same macros as the CUDA prelude (cuda.h), for AMD GPUs: a kernel runs
 * as a grid of blocks of GPK_BLOCK_SIZE threads; its one parameter is the
 * parameter struct, by value. A wavefront has GPK_WARP threads: 64 on CDNA
 * (gfx9), 32 on RDNA (gfx10 and later), as the compiler's target says. */
#define GPK_HIP 1
#define GPK_FN static __device__ inline __attribute__((always_inline))
#define GPK_RESTRICT __restrict__
#define GPK_ALIGN(n) alignas(n)
#define GPK_WARP __AMDGCN_WAVEFRONT_SIZE

typedef long long gpk_index;

#define NAN __builtin_nanf("")
#define INFINITY __builtin_inff()

#define GPK_KERNEL(name, P) extern "C" __global__ void name(const P p)

#define GPK_BLOCK_ID ((gpk_index)blockIdx.x)
#define GPK_NUM_BLOCKS ((gpk_index)gridDim.x)
#define GPK_THREAD_ID ((gpk_index)threadIdx.x)
#define GPK_BLOCK_SIZE ((gpk_index)blockDim.x)
#define GPK_SYNC() __syncthreads()
#define GPK_SHARED __shared__

/* Visits i in [0, n) once across the grid (grid-stride loop). */
#define GPK_GRID_LOOP(T, i, n)                                                 \
    for (T i = (T)blockIdx.x * (T)blockDim.x + (T)threadIdx.x; i < (T)(n);     \
         i += (T)gridDim.x * (T)blockDim.x)

/* A value of any type moved down the wavefront by `d` lanes, 32 bits at a
 * time. */
template <typename T>
static __device__ inline T gpk_shfl_down(T v, int d)
{
    union U { T t; int w[(sizeof(T) + 3) / 4]; } in, out;
    in.t = v;
#pragma unroll
    for (int k = 0; k < (int)(sizeof(T) + 3) / 4; ++k)
        out.w[k] = __shfl_down(in.w[k], (unsigned int)d, GPK_WARP);
    return out.t;
}

/* Combines `v` over the threads of the block; every thread gets the result.
 * Needs a block of whole wavefronts (at most 1024 threads), reached by all:
 * shuffles within each wavefront, then the first one combines the others'. */
#define GPK_BLOCK_REDUCE(T, COMBINE, v)                                        \
    do {                                                                       \
        __shared__ T gpk_red_[1024 / GPK_WARP];                                \
        for (int d_ = GPK_WARP / 2; d_ > 0; d_ >>= 1)                          \
            (v) = COMBINE((v), gpk_shfl_down((v), d_));                        \
        const int nw_ = (int)(blockDim.x / GPK_WARP);                          \
        if ((threadIdx.x % GPK_WARP) == 0)                                     \
            gpk_red_[threadIdx.x / GPK_WARP] = (v);                            \
        __syncthreads();                                                       \
        if (threadIdx.x < GPK_WARP) {                                          \
            T w_ = gpk_red_[threadIdx.x < (unsigned)nw_ ? threadIdx.x : 0];     \
            for (int d_ = GPK_WARP / 2; d_ > 0; d_ >>= 1) {                    \
                T o_ = gpk_shfl_down(w_, d_);                                  \
                if ((int)threadIdx.x + d_ < nw_)                               \
                    w_ = COMBINE(w_, o_);                                      \
            }                                                                  \
            if (threadIdx.x == 0)                                              \
                gpk_red_[0] = w_;                                              \
        }                                                                      \
        __syncthreads();                                                       \
        (v) = gpk_red_[0];                                                     \
        __syncthreads();                                                       \
    } while (0)

/* Inclusive scan of `v` over the threads of the block (thread t gets the
 * combination of threads 0..t); `total` gets the whole block's. Needs a
 * block of at most 1024 threads, reached by all. */
#define GPK_BLOCK_SCAN(T, COMBINE, v, total)                                    \
    do {                                                                       \
        __shared__ T gpk_scan_[1024];                                          \
        gpk_scan_[threadIdx.x] = (v);                                          \
        __syncthreads();                                                       \
        for (unsigned int d_ = 1; d_ < blockDim.x; d_ <<= 1) {                 \
            T o_ = threadIdx.x >= d_ ? gpk_scan_[threadIdx.x - d_] : (v);      \
            __syncthreads();                                                   \
            if (threadIdx.x >= d_)                                             \
                (v) = COMBINE(o_, (v));                                        \
            gpk_scan_[threadIdx.x] = (v);                                      \
            __syncthreads();                                                   \
        }                                                                      \
        (total) = gpk_scan_[blockDim.x - 1];                                   \
        __syncthreads();                                                       \
    } while (0)

/* The exclusive form: `excl` gets the combination of threads 0..t-1
 * (`neutral` for thread 0), `total` the whole block's. */
#define GPK_BLOCK_SCAN_EX(T, COMBINE, v, neutral, excl, total)                  \
    do {                                                                       \
        T gpk_in_ = (v);                                                       \
        GPK_BLOCK_SCAN(T, COMBINE, gpk_in_, total);                            \
        __shared__ T gpk_ex_[1024];                                            \
        gpk_ex_[threadIdx.x] = gpk_in_;                                        \
        __syncthreads();                                                       \
        (excl) = threadIdx.x ? gpk_ex_[threadIdx.x - 1] : (neutral);           \
        __syncthreads();                                                       \
    } while (0)

/* IEEE half <-> float through the compiler's _Float16 (the hardware's
 * conversions, round to nearest even). */
typedef unsigned short gpk_f16;

GPK_FN float gpk_f16_to_f32(gpk_f16 h) { return (float)__builtin_bit_cast(_Float16, h); }

GPK_FN gpk_f16 gpk_f32_to_f16(float f) { return __builtin_bit_cast(gpk_f16, (_Float16)f); }

GPK_FN gpk_f16 gpk_f64_to_f16(double d) { return __builtin_bit_cast(gpk_f16, (_Float16)d); }
