/* gpunp kernel prelude: shared by the GPU backends. build_ffi.py appends it
 * to cuda.h and to hip.h, which define GPK_WARP (the threads of a warp or
 * wavefront) and GPK_SHFL_DOWN_WORD (a 32-bit word from the lane `d` lanes
 * down). */

#define GPK_RESTRICT __restrict__
#define GPK_ALIGN(n) alignas(n)

typedef long long gpk_index;

#define GPK_KERNEL(name, P) extern "C" __global__ void name(const P p)

#define GPK_BLOCK_ID ((gpk_index)blockIdx.x)
#define GPK_NUM_BLOCKS ((gpk_index)gridDim.x)
#define GPK_THREAD_ID ((gpk_index)threadIdx.x)
#define GPK_BLOCK_SIZE ((gpk_index)blockDim.x)
#define GPK_SYNC() __syncthreads()
#define GPK_SHARED __shared__
/* The threads of a tiled kernel's block (launch.c launches it with as
 * many): a constant, so that the tile loop unrolls and a thread's loads
 * are all in flight at once. */
#define GPK_TILE_THREADS 256
#define GPK_UNROLL _Pragma("unroll")

/* Visits i in [0, n) once across the grid (grid-stride loop). */
#define GPK_GRID_LOOP(T, i, n)                                                 \
    for (T i = (T)blockIdx.x * (T)blockDim.x + (T)threadIdx.x; i < (T)(n);     \
         i += (T)gridDim.x * (T)blockDim.x)

/* A value of any type moved down the warp by `d` lanes, 32 bits at a time. */
template <typename T>
GPK_FN T gpk_shfl_down(T v, int d)
{
    union U { T t; int w[(sizeof(T) + 3) / 4]; } in, out;
    in.t = v;
#pragma unroll
    for (int k = 0; k < (int)(sizeof(T) + 3) / 4; ++k)
        out.w[k] = GPK_SHFL_DOWN_WORD(in.w[k], d);
    return out.t;
}

/* Combines `v` over the threads of the block; every thread gets the result.
 * Needs a block of whole warps (at most 1024 threads), reached by all:
 * shuffles within each warp, then the first warp combines the warps'. */
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

/* Claims the device's error record (errrec.c) for the first bad index of a
 * launch: the thread whose compare-and-swap sets the flag writes the index,
 * its axis and the axis' size; later ones leave the record alone. */
GPK_FN void gpk_index_error(long long *rec, long long v, long long axis, long long n)
{
    if (atomicCAS((unsigned long long *)rec, 0ull, 1ull) == 0ull) {
        rec[1] = v;
        rec[2] = axis;
        rec[3] = n;
    }
}
