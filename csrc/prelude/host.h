/* gpunp kernel prelude: host backend (C11, compiled by the system C compiler).
 *
 * A kernel runs as a grid of blocks of one thread each; the host backend calls
 * the exported entry once per block. Everything a kernel may use is named
 * gpk_* / GPK_* so that the engine can include this prelude too. */
#include <math.h>

#define GPK_HOST 1
#define GPK_FN static inline
#define GPK_HELPER static inline
#define GPK_HELPER_CALL GPK_HELPER
#define GPK_RESTRICT restrict
#define GPK_ALIGN(n) _Alignas(n)

typedef long long gpk_index;

/* Entry point: `P` is the parameter struct, passed by pointer to the entry
 * and by value to the body, as on a GPU. */
#define GPK_KERNEL(name, P) GPK_KERNEL_ARG(name, P, p)
/* The same with the struct named `arg`: users' kernels name it gpk_p, so
 * that a user's parameter may be called `p`. */
#define GPK_KERNEL_ARG(name, P, arg)                                          \
    static void name##_body(const P arg, gpk_index gpk_block, gpk_index gpk_nblocks); \
    __attribute__((visibility("default"))) void name(const void *gpk_pp, gpk_index b, \
                                                     gpk_index nb)             \
    {                                                                          \
        name##_body(*(const P *)gpk_pp, b, nb);                                \
    }                                                                          \
    static void name##_body(const P arg, gpk_index gpk_block, gpk_index gpk_nblocks)

#define GPK_SCAN_KERNEL(name, P) GPK_KERNEL(name, P)
#define GPK_BLOCK_ID gpk_block
#define GPK_NUM_BLOCKS gpk_nblocks
#define GPK_THREAD_ID 0
#define GPK_BLOCK_SIZE 1
#define GPK_SYNC() ((void)0)
#define GPK_SHARED /* one thread: the block's memory is the function's */
#define GPK_TILE_THREADS 1
#define GPK_SCAN_THREADS 1
#define GPK_UNROLL

/* Visits i in [0, n) once across the grid: block b takes one contiguous
 * chunk, so the inner loop stays a plain counted loop. */
#define GPK_GRID_LOOP(T, i, n)                                                   \
    for (T i = (T)(((n) / gpk_nblocks) * gpk_block +                             \
                   ((n) % gpk_nblocks < gpk_block ? (n) % gpk_nblocks : gpk_block)), \
           i##_end = i + (T)((n) / gpk_nblocks + (gpk_block < (n) % gpk_nblocks));  \
         i < i##_end; ++i)

/* With one thread per block, a block-wide reduction or scan is the value
 * itself (thread 0's exclusive scan is undefined, as on a GPU), and a warp
 * is that thread: its shuffles return the value they are given. */
#define GPK_BLOCK_REDUCE(T, COMBINE, v) ((void)0)
#define GPK_BLOCK_SCAN_EX(T, COMBINE, v, excl, total) ((excl) = (v), (total) = (v))
#define GPK_WARP 1
#define gpk_shfl_down(v, d) (v)
#define gpk_shfl_idx(v, s) (v)
#define GPK_BALLOT(p) ((unsigned long long)((p) != 0))
#define GPK_LANES_BELOW 0ull
#define GPK_POPC64(x) ((long long)__builtin_popcountll(x))

/* Single-pass scans (gpu.h says how a GPU runs them): the one thread takes
 * the tiles in order, so a tile's predecessor has always published its
 * inclusive prefix, and plain memory is enough. */
#define GPK_NEXT_TILE(counter) ((gpk_index)(*(counter))++)
#define GPK_TILE_PUBLISH(st, agg, inc, i, flag, v) \
    (((flag) == 1 ? (agg) : (inc))[i] = (v), (st)[i] = (unsigned long long)(flag) << 32)
#define GPK_TILE_PEEK(st, agg, inc, i, v) \
    ((v) = ((st)[i] >> 32 == 1 ? (agg) : (inc))[i], (unsigned int)((st)[i] >> 32))

/* IEEE half <-> float conversions, round to nearest even. */
typedef unsigned short gpk_f16;

GPK_HELPER float gpk_f16_to_f32(gpk_f16 h)
{
    unsigned int sign = (unsigned int)(h & 0x8000u) << 16;
    unsigned int exp = (h >> 10) & 0x1fu;
    unsigned int man = h & 0x3ffu;
    unsigned int bits;
    if (exp == 0x1fu) {
        bits = sign | 0x7f800000u | (man << 13);
    } else if (exp != 0) {
        bits = sign | ((exp + 112u) << 23) | (man << 13);
    } else if (man == 0) {
        bits = sign;
    } else {
        /* subnormal half: normalise */
        int e = -1;
        do {
            ++e;
            man <<= 1;
        } while ((man & 0x400u) == 0);
        bits = sign | ((unsigned int)(112 - e) << 23) | ((man & 0x3ffu) << 13);
    }
    union { unsigned int u; float f; } v;
    v.u = bits;
    return v.f;
}

/* Rounds the double `x` to half directly (no double rounding through float). */
GPK_HELPER gpk_f16 gpk_f64_to_f16(double x)
{
    union { double d; unsigned long long u; } v;
    v.d = x;
    unsigned long long bits = v.u;
    gpk_f16 sign = (gpk_f16)((bits >> 48) & 0x8000u);
    unsigned long long mag = bits & 0x7fffffffffffffffull;
    if (mag >= 0x7ff0000000000000ull) {             /* inf or nan */
        if (mag == 0x7ff0000000000000ull)
            return (gpk_f16)(sign | 0x7c00u);
        return (gpk_f16)(sign | 0x7e00u | (gpk_f16)((mag >> 42) & 0x3ffu));
    }
    int e = (int)(mag >> 52) - 1023;                  /* unbiased exponent */
    if (e > 15)
        return (gpk_f16)(sign | 0x7c00u);           /* overflow */
    unsigned long long m = (mag & 0xfffffffffffffull) | (e > -1023 ? 0x10000000000000ull : 0);
    int shift;                                       /* bits of m to drop */
    unsigned int he;
    if (e >= -14) {
        he = (unsigned int)(e + 15);
        shift = 42;
    } else {
        if (e < -25)
            return sign;                              /* rounds to zero */
        he = 0;
        shift = 42 + (-14 - e);
    }
    unsigned long long q = m >> shift;
    unsigned long long rem = m & ((1ull << shift) - 1);
    unsigned long long half = 1ull << (shift - 1);
    if (rem > half || (rem == half && (q & 1)))
        ++q;
    unsigned int r;
    if (he == 0)
        r = (unsigned int)q;                           /* may carry into a normal */
    else
        r = (he << 10) + (unsigned int)(q - 0x400u);  /* a carry out of q bumps he */
    if (r >= 0x7c00u)
        r = 0x7c00u;
    return (gpk_f16)(sign | r);
}

GPK_HELPER gpk_f16 gpk_f32_to_f16(float x) { return gpk_f64_to_f16((double)x); }

/* The scatter-add's addition into memory: one thread, a plain add (signed
 * integers wrap: the host compiles with -fwrapv). */
#define GPK_ATOMIC_ADD(ptr, v) (*(ptr) += (v))

/* Claims the error record (errrec.c) for the first bad index of a launch;
 * a host launch is one thread, so no atomics are needed. */
GPK_HELPER void gpk_index_error(long long *rec, long long v, long long axis, long long n)
{
    if (!rec[0]) {
        rec[0] = 1;
        rec[1] = v;
        rec[2] = axis;
        rec[3] = n;
    }
}
