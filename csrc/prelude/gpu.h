/* gpunp kernel prelude: shared by the GPU backends. build_ffi.py appends it
 * to cuda.h and to hip.h, which define GPK_WARP (the threads of a warp or
 * wavefront) and GPK_SHFL_DOWN_WORD, GPK_SHFL_UP_WORD, GPK_SHFL_IDX_WORD (a
 * 32-bit word from the lane `d` lanes down or up, or from lane `s`). */

#define GPK_RESTRICT __restrict__
#define GPK_ALIGN(n) alignas(n)

typedef long long gpk_index;

#define GPK_KERNEL(name, P) GPK_KERNEL_ARG(name, P, p)
/* The same with the struct named `arg` (users' kernels: gpk_p). */
#define GPK_KERNEL_ARG(name, P, arg) extern "C" __global__ void name(const P arg)
/* A single-pass scan's entry: on CUDA at most 64 registers a thread, so 8
 * blocks of GPK_SCAN_THREADS stay resident (the float32 scan took 72, 7
 * blocks, without the bound; 64 it fits without spilling). */
#ifdef GPK_CUDA
#define GPK_SCAN_KERNEL(name, P) \
    extern "C" __global__ void __launch_bounds__(GPK_SCAN_THREADS, 8) name(const P p)
#else
#define GPK_SCAN_KERNEL(name, P) GPK_KERNEL(name, P)
#endif

#define GPK_BLOCK_ID ((gpk_index)blockIdx.x)
#define GPK_NUM_BLOCKS ((gpk_index)gridDim.x)
#define GPK_THREAD_ID ((gpk_index)threadIdx.x)
#define GPK_BLOCK_SIZE ((gpk_index)blockDim.x)
#define GPK_SYNC() __syncthreads()
#define GPK_SHARED __shared__
/* The threads of a block of a tiled kernel (transposes; single-pass scans
 * have their own: the engine launches them with as many): constants, so
 * that loops over a tile unroll and a thread's loads are all in flight at
 * once. A scan's block waits at barriers while its warp 0 looks back, so
 * its tiles are long and its blocks small, to keep more of them resident
 * (float32 cumsum on the H200: 256 threads x 16 elements 1.21 ms, 128 x 32
 * 0.82 ms; docs/performance.md). */
#define GPK_TILE_THREADS 256
#define GPK_SCAN_THREADS 128
#define GPK_UNROLL _Pragma("unroll")

/* Visits i in [0, n) once across the grid (grid-stride loop). */
#define GPK_GRID_LOOP(T, i, n)                                                 \
    for (T i = (T)blockIdx.x * (T)blockDim.x + (T)threadIdx.x; i < (T)(n);     \
         i += (T)gridDim.x * (T)blockDim.x)

/* A value of any type moved along the warp, 32 bits at a time:
 * gpk_shfl_down(v, d) from the lane `d` lanes down, gpk_shfl_up(v, d) from
 * the lane `d` lanes up, gpk_shfl_idx(v, s) from lane `s`. */
#define GPK_SHFL_FN(name, WORD)                                                \
    template <typename T>                                                      \
    GPK_FN T name(T v, int d)                                                  \
    {                                                                          \
        union U { T t; int w[(sizeof(T) + 3) / 4]; } in, out;                 \
        in.t = v;                                                              \
        for (int k = 0; k < (int)(sizeof(T) + 3) / 4; ++k)                     \
            out.w[k] = WORD(in.w[k], d);                                       \
        return out.t;                                                          \
    }
GPK_SHFL_FN(gpk_shfl_down, GPK_SHFL_DOWN_WORD)
GPK_SHFL_FN(gpk_shfl_up, GPK_SHFL_UP_WORD)
GPK_SHFL_FN(gpk_shfl_idx, GPK_SHFL_IDX_WORD)

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
            /* lanes past the warps keep their own value, which never          \
             * reaches lane 0, and read no slot lane 0 writes below */         \
            T w_ = threadIdx.x < (unsigned)nw_ ? gpk_red_[threadIdx.x] : (v);  \
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

/* Scan of `v` over the threads of the block: `excl` gets the combination of
 * threads 0..t-1 and `total` the whole block's. Thread 0's `excl` is
 * undefined: no neutral value is ever combined in (0.0 + -0.0 would lose a
 * sum's sign of zero). Needs a block of whole warps (at most 1024 threads),
 * reached by all: shuffles within each warp, then the first warp scans the
 * warps' totals. */
#define GPK_BLOCK_SCAN_EX(T, COMBINE, v, excl, total)                           \
    do {                                                                       \
        __shared__ T gpk_wscan_[1024 / GPK_WARP];                              \
        const int l_ = (int)(threadIdx.x % GPK_WARP);                          \
        const int w_ = (int)(threadIdx.x / GPK_WARP);                          \
        const int nw_ = (int)(blockDim.x / GPK_WARP);                          \
        T i_ = (v);                                                            \
        for (int d_ = 1; d_ < GPK_WARP; d_ <<= 1) {                            \
            T o_ = gpk_shfl_up(i_, d_);                                        \
            if (l_ >= d_)                                                      \
                i_ = COMBINE(o_, i_);                                          \
        }                                                                      \
        T e_ = gpk_shfl_up(i_, 1);                                             \
        if (l_ == GPK_WARP - 1)                                                \
            gpk_wscan_[w_] = i_;                                               \
        __syncthreads();                                                       \
        if (w_ == 0) {                                                         \
            T s_ = l_ < nw_ ? gpk_wscan_[l_] : i_; /* as the reduce's */       \
            for (int d_ = 1; d_ < GPK_WARP; d_ <<= 1) {                        \
                T o_ = gpk_shfl_up(s_, d_);                                    \
                if (l_ >= d_)                                                  \
                    s_ = COMBINE(o_, s_);                                      \
            }                                                                  \
            if (l_ < nw_)                                                      \
                gpk_wscan_[l_] = s_;                                           \
        }                                                                      \
        __syncthreads();                                                       \
        if (w_ > 0)                                                            \
            e_ = l_ ? COMBINE(gpk_wscan_[w_ - 1], e_) : gpk_wscan_[w_ - 1];    \
        (excl) = e_;                                                           \
        (total) = gpk_wscan_[nw_ - 1];                                         \
        __syncthreads();                                                       \
    } while (0)

/* ---- single-pass scans (decoupled look-back) ---------------------------------------- */

/* The next tile to scan: tiles are taken in order from a counter, so every
 * tile a block waits for belongs to a block already running. */
#define GPK_NEXT_TILE(counter) ((gpk_index)atomicAdd((counter), 1ull))

/* A tile's state: flag 1 when its aggregate is published, 2 when its
 * inclusive prefix is. A value of at most 32 bits travels in the flag's
 * 64-bit word (one store, no fence); a wider one lies in a slot of its own
 * per flag (`agg`, `inc`: a reader seeing flag 1 must not read the
 * inclusive prefix that overwrote it), written before the flag with a fence
 * between, and read after it with a fence between. Volatile accesses go to
 * the device-coherent cache, past a multiprocessor's own. */
template <typename T>
GPK_FN void gpk_tile_publish(unsigned long long *st, T *agg, T *inc, gpk_index i,
                             unsigned int flag, T v)
{
    union U { T t; unsigned int w[(sizeof(T) + 3) / 4]; } x;
    x.w[0] = 0;
    x.t = v;
    if (sizeof(T) <= 4) {
        *(volatile unsigned long long *)(st + i) = (unsigned long long)flag << 32 | x.w[0];
        return;
    }
    volatile unsigned int *d = (volatile unsigned int *)((flag == 1 ? agg : inc) + i);
#pragma unroll
    for (int k = 0; k < (int)(sizeof(T) + 3) / 4; ++k)
        d[k] = x.w[k];
    __threadfence();
    *(volatile unsigned long long *)(st + i) = (unsigned long long)flag << 32;
}

/* Tile i's flag (0: nothing yet), and its value into `*v` when there is one. */
template <typename T>
GPK_FN unsigned int gpk_tile_peek(const unsigned long long *st, const T *agg, const T *inc,
                                  gpk_index i, T *v)
{
    const unsigned long long s = *(const volatile unsigned long long *)(st + i);
    const unsigned int flag = (unsigned int)(s >> 32);
    union U { T t; unsigned int w[(sizeof(T) + 3) / 4]; } x;
    x.w[0] = (unsigned int)s;
    if (sizeof(T) > 4 && flag) {
        __threadfence();
        const volatile unsigned int *d =
            (const volatile unsigned int *)((flag == 1 ? agg : inc) + i);
#pragma unroll
        for (int k = 0; k < (int)(sizeof(T) + 3) / 4; ++k)
            x.w[k] = d[k];
    }
    *v = x.t;
    return flag;
}

#define GPK_TILE_PUBLISH(st, agg, inc, i, flag, v) gpk_tile_publish((st), (agg), (inc), (i), (flag), (v))
#define GPK_TILE_PEEK(st, agg, inc, i, v) gpk_tile_peek((st), (agg), (inc), (i), &(v))

/* Claims the device's error record (errrec.c) for the first bad index of a
 * launch: the thread whose compare-and-swap sets the flag writes the index,
 * its axis and the axis' size; later ones leave the record alone. */
/* The scatter-add's addition into memory: atomic, in no fixed order (a
 * float sum rounds by the order the threads arrive in; integers are exact,
 * signed ones added as their two's-complement bits). */
GPK_HELPER void gpk_atomic_add(long long *p, long long v)
{
    atomicAdd((unsigned long long *)p, (unsigned long long)v);
}
GPK_HELPER void gpk_atomic_add(unsigned long long *p, unsigned long long v) { atomicAdd(p, v); }
GPK_HELPER void gpk_atomic_add(int *p, int v) { atomicAdd(p, v); }
GPK_HELPER void gpk_atomic_add(unsigned int *p, unsigned int v) { atomicAdd(p, v); }
GPK_HELPER void gpk_atomic_add(float *p, float v) { atomicAdd(p, v); }
GPK_HELPER void gpk_atomic_add(double *p, double v) { atomicAdd(p, v); }
#define GPK_ATOMIC_ADD(ptr, v) gpk_atomic_add((ptr), (v))

GPK_HELPER void gpk_index_error(long long *rec, long long v, long long axis, long long n)
{
    if (atomicCAS((unsigned long long *)rec, 0ull, 1ull) == 0ull) {
        rec[1] = v;
        rec[2] = axis;
        rec[3] = n;
    }
}
