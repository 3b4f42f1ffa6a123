/*
 * gp_fft.h - discrete Fourier transforms through the backend's FFT library
 * (cuFFT on CUDA), with a per-thread cache of plans.
 *
 * The engine computes unnormalised transforms only; numpy.fft's arguments
 * (n, s, norm, out, axis normalisation) are the Python layer's. The host
 * backend has no FFT library here: gpunp.fft computes through NumPy there.
 */
#ifndef GP_FFT_H
#define GP_FFT_H

#include "gp_array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kind of a transform. */
enum gp_fft_kind {
    GP_FFT_FORWARD = 0, /* complex to complex, exp(-2 pi i jk/n) */
    GP_FFT_INVERSE = 1, /* complex to complex, exp(+2 pi i jk/n), unscaled */
    GP_FFT_R2C = 2,     /* real to the n/2+1 half spectrum (forward) */
    GP_FFT_C2R = 3      /* half spectrum to n reals (inverse, unscaled) */
};

/* The most axes one plan transforms. */
#define GP_FFT_MAX_RANK 3

/* The unnormalised transform of `in` over `naxes` (1 to GP_FFT_MAX_RANK)
 * distinct axes (0 <= axis < ndim), in one plan. `in` is complex64 or
 * complex128 (FORWARD, INVERSE, C2R) or float32/float64 (R2C); the result
 * has the matching complex or real dtype. The last axis of `axes` is the
 * halved one of R2C (length n -> n/2+1) and C2R (length n_last/2+1 ->
 * n_last; C2R takes one axis only, since a multi-axis C2R plan assumes a
 * Hermitian input that numpy.fft does not). `n_last` is ignored by the
 * other kinds. `*out` is a new C-contiguous array that the caller owns
 * (NULL on error). `in` is never written. GP_ERR_UNSUPPORTED where the
 * backend has no FFT library (the host, HIP for now). */
GP_API gp_status_t gp_fft(int32_t kind, const gp_array_t *in, int32_t naxes, const int32_t *axes,
                          int64_t n_last, gp_array_t **out);

/* Statistics of this thread's plan cache. */
typedef struct gp_fft_cache_info {
    int32_t size;   /* plans held */
    int32_t limit;  /* most plans held; least recently used go first */
    int64_t hits;
    int64_t misses;
    int64_t work_bytes; /* work area the held plans own */
} gp_fft_cache_info_t;

/* This thread's plan cache statistics. */
GP_API gp_status_t gp_fft_cache_info(gp_fft_cache_info_t *out);

/* Sets the most plans this thread's cache holds (>= 0; 0 disables the cache,
 * each transform then makes and destroys its plan), destroying the least
 * recently used plans above it. GP_ERR_VALUE for a negative limit. */
GP_API gp_status_t gp_fft_cache_set_limit(int32_t limit);

/* Destroys every plan of this thread's cache and zeroes its hit and miss
 * counts. */
GP_API gp_status_t gp_fft_cache_clear(void);

#ifdef __cplusplus
}
#endif

#endif
