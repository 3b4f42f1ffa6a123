/*
 * vendor/fft.c - the GPU backend's FFT (cuFFT): plans in the advanced layout,
 * their execution and their end. Compiled once per
 * vendor (gpu.h).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "../gpu.h"

#ifdef GPU_FFT_API
/* HIP has no entry here yet (hipFFT's plan API differs): its slots stay NULL
 * and gp_fft reports GP_ERR_UNSUPPORTED. */
static struct {
#define X(name, params, syms) int (*name) params;
    GPU_FFT_API(X)
#undef X
} fftlib;

static gp_vendor_lib_t fft_lib = {PTHREAD_ONCE_INIT};

static void load_fft(void)
{
    static const char *const sonames[] = GPU_FFT_SONAMES;
#define X(name, params, syms) syms "\0", /* gp_dl_symbol: an empty name ends the list */
    static const char *const syms[] = {GPU_FFT_API(X)};
#undef X
#define X(name, params, syms) (void **)&fftlib.name,
    void **slots[] = {GPU_FFT_API(X)};
#undef X
    gp_vendor_load(&fft_lib, GPU_FFT_WHAT, sonames, GPU_DL_VENDOR, syms, slots,
                   (int)(sizeof syms / sizeof *syms));
}

static gp_status_t fft_fail(int r, const char *what)
{
    /* cuFFT's status 2 is its allocation failure: the work area did not fit */
    return gp_set_error(r == 2 ? GP_ERR_NOMEM_DEVICE : GP_ERR_BACKEND, "%s: %s failed (status %d)",
                        GPU_FFT_WHAT, what, r);
}

static int fft_type(const gp_fft_layout_t *l)
{
    bool dbl = l->dtype == GP_COMPLEX128;
    switch (l->kind) {
    case GP_FFT_R2C: return dbl ? GPU_FFT_D2Z : GPU_FFT_R2C;
    case GP_FFT_C2R: return dbl ? GPU_FFT_Z2D : GPU_FFT_C2R;
    default: return dbl ? GPU_FFT_Z2Z : GPU_FFT_C2C;
    }
}

gp_status_t GPU_SYM(fft_plan)(const gp_fft_layout_t *l, void *stream, void **plan,
                                int64_t *work)
{
    GP_TRY(gp_vendor_ready(&fft_lib, load_fft));
    GP_TRY(GPU_SYM(ctx_current)());
    gpuFftHandle h;
    int r = fftlib.Create(&h);
    if (r != GPU_FFT_SUCCESS)
        return fft_fail(r, "creating a plan");
    /* the 64-bit planner: sizes, strides and distances in elements */
    long long n[3], ie[3], oe[3];
    for (int32_t k = 0; k < l->rank; ++k)
        n[k] = l->n[k], ie[k] = l->inembed[k], oe[k] = l->onembed[k];
    size_t ws = 0;
    r = fftlib.MakePlanMany64(h, l->rank, n, ie, l->istride, l->idist, oe, l->ostride, l->odist,
                              fft_type(l), l->batch, &ws);
    if (r != GPU_FFT_SUCCESS) {
        fftlib.Destroy(h);
        return fft_fail(r, "making a plan");
    }
    /* once: the plan cache keys on the stream, so a plan keeps its stream */
    r = fftlib.SetStream(h, (gpuStream)stream);
    if (r != GPU_FFT_SUCCESS) {
        fftlib.Destroy(h);
        return fft_fail(r, "setting the stream");
    }
    *plan = (void *)(intptr_t)h;
    *work = (int64_t)ws;
    return GP_OK;
}

gp_status_t GPU_SYM(fft_exec)(void *plan, const gp_fft_layout_t *l, int32_t inverse,
                                const void *in, void *out)
{
    GP_TRY(GPU_SYM(ctx_current)());
    gpuFftHandle h = (gpuFftHandle)(intptr_t)plan;
    int r;
    void *i = (void *)in;
    int dir = inverse ? GPU_FFT_INVERSE : GPU_FFT_FORWARD;
    switch (fft_type(l)) {
    case GPU_FFT_C2C: r = fftlib.ExecC2C(h, i, out, dir); break;
    case GPU_FFT_Z2Z: r = fftlib.ExecZ2Z(h, i, out, dir); break;
    case GPU_FFT_R2C: r = fftlib.ExecR2C(h, i, out); break;
    case GPU_FFT_D2Z: r = fftlib.ExecD2Z(h, i, out); break;
    case GPU_FFT_C2R: r = fftlib.ExecC2R(h, i, out); break;
    default: r = fftlib.ExecZ2D(h, i, out); break;
    }
    if (r != GPU_FFT_SUCCESS)
        return fft_fail(r, "running a transform");
    return GP_OK;
}

gp_status_t GPU_SYM(fft_destroy)(void *plan)
{
    GP_TRY(GPU_SYM(ctx_current)());
    int r = fftlib.Destroy((gpuFftHandle)(intptr_t)plan);
    return r == GPU_FFT_SUCCESS ? GP_OK : fft_fail(r, "destroying a plan");
}
#endif
