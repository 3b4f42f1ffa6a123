/*
 * fft.c - discrete Fourier transforms on the backend's FFT library (cuFFT),
 * and the per-thread cache of its plans.
 *
 * A transform reads its operand in place whenever cuFFT's advanced layout
 * (gp_fft_layout_t) can describe it: the transformed axes nested (each
 * stride a whole multiple of the next, by at least that axis's length) and
 * every other axis folding into one batch stride. Otherwise the operand is
 * first copied with the engine's copy into the canonical order - the other
 * axes, then the transformed ones - which always fits. The result is
 * C-contiguous as NumPy's; when no single batch stride reaches it (an inner
 * axis transformed among outer and inner batch axes) cuFFT writes the
 * canonical order and the engine's copy transposes it.
 *
 * Plans are cached per thread (a plan's work area must not serve two
 * threads) and keyed by device, stream (two streams sharing a work area
 * would race) and the whole layout. cuFFT allocates each plan's work area
 * itself: a cached plan keeps it, which the cache's limit bounds, and
 * gp_fft_cache_info reports the bytes held.
 */
#include <stdlib.h>
#include <string.h>

#include "../backend/backend.h"
#include "../memory/memory.h"
#include "kernels.h"

/* ---- the plan cache --------------------------------------------------------------------- */

typedef struct plan_entry {
    const gp_backend_i *be; /* the backend that made the plan */
    gp_fft_layout_t key;
    int32_t device;
    void *stream;
    void *plan;
    int64_t work;
    uint64_t used; /* the cache's clock at the last use */
} plan_entry_t;

/* CuPy's default, and the size at which a scan of the entries stays cheap */
#define DEFAULT_LIMIT 16

static _Thread_local struct {
    plan_entry_t *e;
    int32_t n, cap, limit, limit_set;
    int64_t hits, misses;
    uint64_t clock;
} cache;

static int32_t cache_limit(void)
{
    return cache.limit_set ? cache.limit : DEFAULT_LIMIT;
}

/* Destroys entry i (moving the last one into its place). */
static void cache_drop(int32_t i)
{
    const gp_backend_i *be = cache.e[i].be;
    int32_t keep = gp_current_device();
    /* a plan belongs to the device it was made on */
    if (be->device_set(cache.e[i].device) == GP_OK)
        be->fft_destroy(cache.e[i].plan);
    be->device_set(keep);
    gp_clear_error();
    cache.e[i] = cache.e[--cache.n];
}

static void cache_trim(int32_t limit)
{
    while (cache.n > limit) {
        int32_t old = 0;
        for (int32_t i = 1; i < cache.n; ++i)
            if (cache.e[i].used < cache.e[old].used)
                old = i;
        cache_drop(old);
    }
}

/* A plan for `l` on the current device and stream, from the cache or new;
 * `*cached` 0 when the caller must destroy it (the cache is off). */
static gp_status_t cache_get(const gp_backend_i *be, const gp_fft_layout_t *l, void *stream,
                             void **plan, int *cached)
{
    int32_t dev = gp_current_device();
    for (int32_t i = 0; i < cache.n; ++i) {
        plan_entry_t *p = &cache.e[i];
        if (p->be == be && p->device == dev && p->stream == stream &&
            !memcmp(&p->key, l, sizeof *l)) {
            p->used = ++cache.clock;
            cache.hits++;
            *plan = p->plan;
            *cached = 1;
            return GP_OK;
        }
    }
    cache.misses++;
    int64_t work = 0;
    gp_status_t s = be->fft_plan(l, stream, plan, &work);
    if (s == GP_ERR_NOMEM_DEVICE) {
        /* the work area did not fit: give back the cached plans' work areas
         * and the memory pool's idle blocks, and try once more */
        cache_trim(0);
        gp_pool_free_all(be, dev);
        gp_clear_error();
        s = be->fft_plan(l, stream, plan, &work);
    }
    GP_TRY(s);
    int32_t limit = cache_limit();
    *cached = limit > 0;
    if (!*cached)
        return GP_OK;
    cache_trim(limit - 1);
    if (cache.n == cache.cap) {
        int32_t cap = cache.cap ? cache.cap * 2 : 8;
        plan_entry_t *e = realloc(cache.e, (size_t)cap * sizeof *e);
        if (!e) {
            *cached = 0;
            return GP_OK;
        }
        cache.e = e, cache.cap = cap;
    }
    cache.e[cache.n++] = (plan_entry_t){be, *l, dev, stream, *plan, work, ++cache.clock};
    return GP_OK;
}

GP_API gp_status_t gp_fft_cache_info(gp_fft_cache_info_t *out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_fft_cache_info: out is NULL");
    memset(out, 0, sizeof *out);
    out->size = cache.n;
    out->limit = cache_limit();
    out->hits = cache.hits;
    out->misses = cache.misses;
    for (int32_t i = 0; i < cache.n; ++i)
        out->work_bytes += cache.e[i].work;
    return GP_OK;
}

GP_API gp_status_t gp_fft_cache_set_limit(int32_t limit)
{
    if (limit < 0)
        return gp_set_error(GP_ERR_VALUE, "the plan cache's size must be >= 0, not %d", limit);
    cache.limit = limit;
    cache.limit_set = 1;
    cache_trim(limit);
    return GP_OK;
}

GP_API gp_status_t gp_fft_cache_clear(void)
{
    cache_trim(0);
    cache.hits = cache.misses = 0;
    return GP_OK;
}

/* ---- layouts ---------------------------------------------------------------------------- */

/* The layout of transforming `in` into `out` over `rank` axes, or false
 * where cuFFT's advanced layout cannot describe the two arrays. */
static bool layout_of(int32_t kind, const gp_array_t *in, const gp_array_t *out, int32_t rank,
                      const int32_t *axes, gp_fft_layout_t *l)
{
    int64_t ei = gp_dtype_size(in->dtype), eo = gp_dtype_size(out->dtype);
    memset(l, 0, sizeof *l); /* the key is compared bytewise */
    l->kind = kind == GP_FFT_INVERSE ? GP_FFT_FORWARD : kind;
    l->dtype = gp_dtype_kind(in->dtype) == GP_KIND_COMPLEX ? in->dtype : out->dtype;
    l->rank = rank;
    const gp_array_t *sides[2] = {in, out};
    int64_t *embed[2] = {l->inembed, l->onembed};
    int64_t unit[2], block[2];
    for (int side = 0; side < 2; ++side) {
        const gp_array_t *a = sides[side];
        int64_t e = side ? eo : ei, st[GP_FFT_MAX_RANK];
        for (int32_t k = 0; k < rank; ++k) {
            st[k] = a->strides[axes[k]];
            if (st[k] <= 0 || st[k] % e)
                return false;
            st[k] /= e;
        }
        for (int32_t k = 0; k + 1 < rank; ++k) {
            int64_t ext = a->shape[axes[k + 1]];
            if (st[k] % st[k + 1] || st[k] / st[k + 1] < ext)
                return false;
            embed[side][k + 1] = st[k] / st[k + 1];
        }
        embed[side][0] = a->shape[axes[0]];
        unit[side] = st[rank - 1];
        block[side] = st[0] * a->shape[axes[0]];
    }
    for (int32_t k = 0; k < rank; ++k)
        l->n[k] = (kind == GP_FFT_C2R ? out : in)->shape[axes[k]];
    l->istride = unit[0], l->ostride = unit[1];

    /* the other axes must fold into one batch axis on both sides */
    int64_t bsize = 1, bis = 0, bos = 0;
    int32_t nb = 0;
    for (int32_t d = 0; d < in->ndim; ++d) {
        bool transformed = false;
        for (int32_t k = 0; k < rank; ++k)
            transformed |= axes[k] == d;
        if (transformed || in->shape[d] == 1)
            continue;
        int64_t n = in->shape[d], is = in->strides[d], os = out->strides[d];
        if (nb && bis == is * n && bos == os * n) {
            bsize *= n, bis = is, bos = os;
        } else {
            if (nb++)
                return false;
            bsize = n, bis = is, bos = os;
        }
    }
    if (!nb) {
        bis = block[0] * ei, bos = block[1] * eo;
    }
    if (bis <= 0 || bis % ei || bos <= 0 || bos % eo)
        return false;
    l->batch = bsize;
    l->idist = bis / ei, l->odist = bos / eo;
    /* the batches must not overlap: whole blocks apart, or (one axis)
     * interleaved inside the transform's stride */
    for (int side = 0; side < 2 && bsize > 1; ++side) {
        int64_t dist = side ? l->odist : l->idist, str = side ? l->ostride : l->istride;
        bool apart = dist >= block[side];
        bool inside = rank == 1 && str >= dist * bsize;
        if (!apart && !inside)
            return false;
    }
    return true;
}

/* The order that puts the axes not transformed first and `axes` last. */
static void canonical_order(int32_t ndim, int32_t rank, const int32_t *axes, int32_t *perm,
                            int32_t *inv)
{
    int32_t j = 0;
    for (int32_t d = 0; d < ndim; ++d) {
        bool transformed = false;
        for (int32_t k = 0; k < rank; ++k)
            transformed |= axes[k] == d;
        if (!transformed)
            perm[j++] = d;
    }
    for (int32_t k = 0; k < rank; ++k)
        perm[j++] = axes[k];
    for (int32_t d = 0; d < ndim; ++d)
        inv[perm[d]] = d;
}

/* A new array of `shape` whose memory runs in the canonical order, seen in
 * the original axis order; with `src`, a copy of it. */
static gp_status_t canonical_array(const gp_array_t *src, int32_t dtype, int32_t ndim,
                                   const int64_t *shape, int32_t rank, const int32_t *axes,
                                   gp_array_t **out)
{
    int32_t perm[GP_MAXDIM], inv[GP_MAXDIM];
    canonical_order(ndim, rank, axes, perm, inv);
    gp_array_t *c = NULL;
    gp_status_t s;
    if (src) {
        gp_array_t *v = NULL;
        s = gp_array_transpose(src, ndim, perm, &v);
        if (s == GP_OK)
            s = gp_copy_new(v, dtype, GP_ORDER_C, &c);
        gp_array_release(v);
    } else {
        int64_t pshape[GP_MAXDIM];
        for (int32_t d = 0; d < ndim; ++d)
            pshape[d] = shape[perm[d]];
        s = gp_array_empty(dtype, ndim, pshape, GP_ORDER_C, &c);
    }
    if (s == GP_OK)
        s = gp_array_transpose(c, ndim, inv, out);
    gp_array_release(c);
    return s;
}

/* ---- the transform ---------------------------------------------------------------------- */

/* NumPy's irfft reads only the real part of the zero-frequency term (and,
 * for even n, of the Nyquist term), as a Hermitian input has them real;
 * cuFFT's C2R does not promise to ignore their imaginary parts, so the
 * input's copy has them zeroed. */
static gp_status_t zero_imag_ends(gp_array_t *a, int32_t axis, int64_t n)
{
    int32_t real = a->dtype == GP_COMPLEX64 ? GP_FLOAT32 : GP_FLOAT64;
    int64_t shape[GP_MAXDIM];
    memcpy(shape, a->shape, (size_t)a->ndim * sizeof *shape);
    shape[axis] = 1;
    int64_t ends[2] = {0, n / 2};
    for (int i = 0; i < (n % 2 == 0 && n / 2 > 0 ? 2 : 1); ++i) {
        gp_array_t *im = NULL;
        int64_t off = ends[i] * a->strides[axis] + gp_dtype_size(real);
        GP_TRY(gp_array_as_strided(a, real, a->ndim, shape, a->strides, off, &im));
        gp_scalar_t zero;
        memset(&zero, 0, sizeof zero);
        zero.dtype = GP_INT64;
        gp_status_t s = gp_array_fill(im, &zero);
        gp_array_release(im);
        GP_TRY(s);
    }
    return GP_OK;
}

/* Whether every transformed axis has one point: the transform is then the
 * identity, which the engine writes itself. cuFFT's C2R of one point gave
 * 0.0 where the input's real part was -1.27e31 on the H200 (a Hypothesis
 * case of tests/property/test_fft.py that did not repeat on replay). */
static bool one_point(int32_t kind, const gp_array_t *in, int32_t naxes, const int32_t *axes,
                      int64_t n_last)
{
    if (kind == GP_FFT_C2R)
        return n_last == 1;
    for (int32_t k = 0; k < naxes; ++k)
        if (in->shape[axes[k]] != 1)
            return false;
    return true;
}

/* The one-point transform of `in` into `res`: the values (C2C), their real
 * parts (C2R), or the values with zero imaginary parts (R2C). */
static gp_status_t identity_transform(int32_t kind, const gp_array_t *in, gp_array_t *res)
{
    if (kind != GP_FFT_C2R && kind != GP_FFT_R2C)
        return gp_copy_into(res, in);
    const gp_array_t *cplx = kind == GP_FFT_C2R ? in : res;
    int32_t real = cplx->dtype == GP_COMPLEX64 ? GP_FLOAT32 : GP_FLOAT64;
    gp_array_t *part = NULL;
    GP_TRY(gp_array_as_strided(cplx, real, cplx->ndim, cplx->shape, cplx->strides, 0, &part));
    gp_status_t s = GP_OK;
    if (kind == GP_FFT_C2R) {
        s = gp_copy_into(res, part);
    } else {
        gp_scalar_t zero;
        memset(&zero, 0, sizeof zero);
        zero.dtype = GP_INT64;
        s = gp_array_fill(res, &zero);
        if (s == GP_OK)
            s = gp_copy_into(part, in);
    }
    gp_array_release(part);
    return s;
}

static gp_status_t check_args(int32_t kind, const gp_array_t *in, int32_t naxes,
                              const int32_t *axes, int32_t *odtype)
{
    if (kind < GP_FFT_FORWARD || kind > GP_FFT_C2R)
        return gp_set_error(GP_ERR_VALUE, "gp_fft: unknown kind %d", kind);
    if (naxes < 1 || naxes > GP_FFT_MAX_RANK || (kind == GP_FFT_C2R && naxes != 1) || !axes)
        return gp_set_error(GP_ERR_VALUE, "gp_fft: %d axes for a plan of kind %d", naxes, kind);
    for (int32_t k = 0; k < naxes; ++k) {
        if (axes[k] < 0 || axes[k] >= in->ndim)
            return gp_set_error(GP_ERR_AXIS, "gp_fft: axis %d is out of bounds for array of "
                                             "dimension %d", axes[k], in->ndim);
        for (int32_t j = 0; j < k; ++j)
            if (axes[j] == axes[k])
                return gp_set_error(GP_ERR_VALUE, "gp_fft: repeated axis %d", axes[k]);
    }
    bool real = kind == GP_FFT_R2C;
    int32_t want1 = real ? GP_FLOAT32 : GP_COMPLEX64, want2 = real ? GP_FLOAT64 : GP_COMPLEX128;
    if (in->dtype != want1 && in->dtype != want2)
        return gp_set_error(GP_ERR_TYPE, "gp_fft: a transform of kind %d takes %s or %s, not %s",
                            kind, gp_dtypes[want1].name, gp_dtypes[want2].name,
                            gp_dtypes[in->dtype].name);
    bool single = in->dtype == want1;
    if (kind == GP_FFT_R2C)
        *odtype = single ? GP_COMPLEX64 : GP_COMPLEX128;
    else if (kind == GP_FFT_C2R)
        *odtype = single ? GP_FLOAT32 : GP_FLOAT64;
    else
        *odtype = in->dtype;
    return GP_OK;
}

gp_status_t gp_fft_on(const gp_backend_i *be, int32_t kind, const gp_array_t *in,
                      int32_t naxes, const int32_t *axes, int64_t n_last, gp_array_t **out)
{
    GP_CHECK_ARRAY(in);
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_fft: out is NULL");
    *out = NULL;
    int32_t odt = -1;
    GP_TRY(check_args(kind, in, naxes, axes, &odt));
    int32_t last = axes[naxes - 1];
    int64_t oshape[GP_MAXDIM];
    memcpy(oshape, in->shape, (size_t)in->ndim * sizeof *oshape);
    if (kind == GP_FFT_R2C) {
        oshape[last] = in->shape[last] / 2 + 1;
    } else if (kind == GP_FFT_C2R) {
        if (n_last < 1 || in->shape[last] != n_last / 2 + 1)
            return gp_set_error(GP_ERR_VALUE, "gp_fft: %lld points need %lld complex inputs, "
                                              "not %lld", (long long)n_last,
                                (long long)(n_last / 2 + 1), (long long)in->shape[last]);
        oshape[last] = n_last;
    }
    for (int32_t k = 0; k < naxes; ++k)
        if (in->shape[axes[k]] == 0)
            return gp_set_error(GP_ERR_VALUE, "Invalid number of FFT data points (0) "
                                              "specified.");
    if (!be->fft_plan)
        return gp_set_error(GP_ERR_UNSUPPORTED, "the %s backend has no FFT library in gpunp yet",
                            be->name);
    gp_array_t *res = NULL;
    GP_TRY(gp_array_empty(odt, in->ndim, oshape, GP_ORDER_C, &res));
    if (res->size == 0) {
        *out = res;
        return GP_OK;
    }

    if (one_point(kind, in, naxes, axes, n_last)) {
        gp_status_t s = identity_transform(kind, in, res);
        if (s != GP_OK) {
            gp_array_release(res);
            return s;
        }
        *out = res;
        return GP_OK;
    }

    const gp_array_t *src = in;
    gp_array_t *dst = res, *tin = NULL, *tout = NULL;
    gp_fft_layout_t l;
    gp_status_t s = GP_OK;
    /* cuFFT's C2R overwrites its input; its R2C refused (status 4, an
     * invalid value) real input that was not aligned to the complex type,
     * as a view starting at an odd element is */
    bool aligned = (uintptr_t)gp_array_data(in) % (uintptr_t)gp_dtype_size(odt) == 0;
    if (kind == GP_FFT_C2R || !aligned || !layout_of(kind, src, dst, naxes, axes, &l)) {
        s = canonical_array(in, in->dtype, in->ndim, NULL, naxes, axes, &tin);
        src = tin;
        if (s == GP_OK && kind == GP_FFT_C2R)
            s = zero_imag_ends(tin, last, n_last);
    }
    if (s == GP_OK && !layout_of(kind, src, dst, naxes, axes, &l)) {
        s = canonical_array(NULL, odt, in->ndim, oshape, naxes, axes, &tout);
        dst = tout;
        if (s == GP_OK && !layout_of(kind, src, dst, naxes, axes, &l))
            s = gp_set_error(GP_ERR_MISUSE, "gp_fft: no layout for canonical operands");
    }
    void *plan = NULL, *stream = gp_current_stream();
    int cached = 0;
    if (s == GP_OK)
        s = cache_get(be, &l, stream, &plan, &cached);
    if (s == GP_OK) {
        s = be->fft_exec(plan, &l, kind == GP_FFT_INVERSE || kind == GP_FFT_C2R,
                         gp_array_data(src), gp_array_data(dst));
        if (!cached)
            be->fft_destroy(plan);
    }
    if (s == GP_OK && tout)
        s = gp_copy_into(res, tout);
    gp_array_release(tin);
    gp_array_release(tout);
    if (s != GP_OK) {
        gp_array_release(res);
        return s;
    }
    *out = res;
    return GP_OK;
}

GP_API gp_status_t gp_fft(int32_t kind, const gp_array_t *in, int32_t naxes, const int32_t *axes,
                          int64_t n_last, gp_array_t **out)
{
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    return gp_fft_on(be, kind, in, naxes, axes, n_last, out);
}
