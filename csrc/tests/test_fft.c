/*
 * test_fft.c - gp_fft's layouts, copies and plan cache, on the host.
 *
 * The host backend has no FFT library, so the engine is driven through
 * gp_fft_on with a model backend: the host's vtable plus FFT slots that
 * compute a naive DFT from cuFFT's advanced-layout formula (the layout is
 * all a plan knows), and that overwrite C2R's input as cuFFT may. Results
 * are compared with a reference DFT of the operand's values in C order, so
 * a wrong stride, embed, batch or copy shows as a wrong value.
 */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/kernels.h"
#include "gp_test.h"
#include "gp_test_elems.h"

typedef double complex cplx;

static const double TWO_PI = 6.283185307179586476925286766559;

/* ---- the model of cuFFT ------------------------------------------------------------------ */

static int live_plans, plans_made, execs, bad_imag_ends;
static gp_fft_layout_t last_layout;

static gp_status_t model_plan(const gp_fft_layout_t *l, void *stream, void **plan,
                              int64_t *work)
{
    (void)stream;
    gp_fft_layout_t *p = malloc(sizeof *p);
    if (!p)
        return gp_set_error(GP_ERR_NOMEM, "model plan");
    *p = *l;
    *plan = p;
    *work = 64;
    live_plans++, plans_made++;
    return GP_OK;
}

static gp_status_t model_destroy(void *plan)
{
    free(plan);
    live_plans--;
    return GP_OK;
}

/* Element offset (in elements) of batch b, multi-index x, on one side. */
static int64_t at(const gp_fft_layout_t *l, int side, int64_t b, const int64_t *x)
{
    const int64_t *embed = side ? l->onembed : l->inembed;
    int64_t lin = 0;
    for (int32_t k = 0; k < l->rank; ++k)
        lin = lin * (k ? embed[k] : 1) + x[k];
    return b * (side ? l->odist : l->idist) + (side ? l->ostride : l->istride) * lin;
}

static bool next_index(int32_t rank, const int64_t *ext, int64_t *x)
{
    for (int32_t k = rank - 1; k >= 0; --k) {
        if (++x[k] < ext[k])
            return true;
        x[k] = 0;
    }
    return false;
}

static gp_status_t model_exec(void *plan, const gp_fft_layout_t *l, int32_t inverse,
                              const void *in, void *out)
{
    const gp_fft_layout_t *p = plan;
    if (memcmp(p, l, sizeof *l))
        return gp_set_error(GP_ERR_MISUSE, "model: a plan run with another layout");
    bool dbl = l->dtype == GP_COMPLEX128;
    /* cuFFT's R2C refused real input not aligned to the complex type */
    uintptr_t unit = dbl ? 16 : 8;
    if ((uintptr_t)in % unit || (uintptr_t)out % unit)
        return gp_set_error(GP_ERR_VALUE, "model: data not aligned to the complex type");
    last_layout = *l;
    execs++;
    int32_t cdt = l->dtype, rdt = dbl ? GP_FLOAT64 : GP_FLOAT32;
    int32_t idt = l->kind == GP_FFT_R2C ? rdt : cdt, odt = l->kind == GP_FFT_C2R ? rdt : cdt;
    int64_t iext[3], oext[3], total = 1;
    for (int32_t k = 0; k < l->rank; ++k) {
        iext[k] = oext[k] = l->n[k];
        total *= l->n[k];
    }
    int32_t r = l->rank - 1;
    if (l->kind == GP_FFT_R2C)
        oext[r] = l->n[r] / 2 + 1;
    if (l->kind == GP_FFT_C2R)
        iext[r] = l->n[r] / 2 + 1;
    double sign = inverse ? 1.0 : -1.0;
    cplx *full = malloc((size_t)total * sizeof *full);
    if (!full)
        return gp_set_error(GP_ERR_NOMEM, "model exec");
    for (int64_t b = 0; b < l->batch; ++b) {
        /* the logical input, Hermitian-extended for C2R (rank 1 there) */
        int64_t x[3] = {0, 0, 0};
        do {
            int64_t lin = 0;
            for (int32_t k = 0; k <= r; ++k)
                lin = lin * l->n[k] + x[k];
            full[lin] = elem_load(in, idt, at(l, 0, b, x));
        } while (next_index(l->rank, iext, x));
        if (l->kind == GP_FFT_C2R) {
            int64_t n = l->n[0];
            if (cimag(full[0]) != 0 || (n % 2 == 0 && cimag(full[n / 2]) != 0))
                bad_imag_ends++;
            for (int64_t k = n / 2 + 1; k < n; ++k)
                full[k] = conj(full[n - k]);
        }
        memset(x, 0, sizeof x);
        do {
            cplx acc = 0;
            int64_t y[3] = {0, 0, 0};
            int64_t ext[3] = {l->n[0], l->n[1], l->n[2]};
            int64_t lin = 0;
            do {
                double ph = 0;
                for (int32_t k = 0; k <= r; ++k)
                    ph += (double)(x[k] * y[k] % l->n[k]) / (double)l->n[k];
                int64_t li = 0;
                for (int32_t k = 0; k <= r; ++k)
                    li = li * l->n[k] + y[k];
                acc += full[li] * cexp(sign * TWO_PI * I * ph);
                (void)lin;
            } while (next_index(l->rank, ext, y));
            elem_store(out, odt, at(l, 1, b, x), acc);
        } while (next_index(l->rank, oext, x));
    }
    free(full);
    if (l->kind == GP_FFT_C2R) {
        /* cuFFT's C2R may overwrite its input: so does the model */
        int64_t x[3] = {0, 0, 0};
        for (int64_t b = 0; b < l->batch; ++b)
            do
                elem_store((void *)in, idt, at(l, 0, b, x), 1e30);
            while (next_index(l->rank, iext, x));
    }
    return GP_OK;
}

static gp_backend_i model;

/* ---- reference ----------------------------------------------------------------------------- */

/* An array of `dtype` and shape, values v[i] = f(i) in C order. */
static gp_array_t *make(int32_t dtype, int32_t ndim, const int64_t *shape)
{
    int64_t n = 1;
    for (int32_t d = 0; d < ndim; ++d)
        n *= shape[d];
    int32_t esz = dtype == GP_COMPLEX128 ? 16 : dtype == GP_COMPLEX64 || dtype == GP_FLOAT64 ? 8 : 4;
    void *buf = calloc((size_t)(n ? n : 1), (size_t)esz);
    for (int64_t i = 0; i < n; ++i)
        elem_store(buf, dtype, i, cos(0.7 * (double)i) + I * sin(1.3 * (double)i + 0.2));
    gp_array_t *a = NULL;
    CHECK_OK(gp_array_from_host(buf, n * esz, dtype, ndim, shape, NULL, &a));
    free(buf);
    return a;
}

/* The values of `a` (any layout) in C order, as complex doubles. */
static cplx *values(const gp_array_t *a, int64_t *n)
{
    gp_array_info_t info;
    gp_array_get_info(a, &info);
    char *raw = malloc((size_t)(info.size ? info.size : 1) * (size_t)info.itemsize);
    cplx *v = malloc((size_t)(info.size ? info.size : 1) * sizeof *v);
    *n = gather(a, raw);
    for (int64_t i = 0; i < *n; ++i)
        v[i] = elem_load(raw, info.dtype, i);
    free(raw);
    return v;
}

/* A one-axis DFT of dense C-ordered v (shape) along `axis`, in place;
 * kind as gp_fft's, `n_out` the new length (C2R: n real points; R2C: n/2+1). */
static cplx *dft_axis(cplx *v, int32_t ndim, int64_t *shape, int32_t axis, int32_t kind,
                      int64_t n_last)
{
    int64_t outer = 1, inner = 1;
    for (int32_t d = 0; d < axis; ++d)
        outer *= shape[d];
    for (int32_t d = axis + 1; d < ndim; ++d)
        inner *= shape[d];
    int64_t m = shape[axis];
    int64_t n = kind == GP_FFT_C2R ? n_last : m;
    int64_t mo = kind == GP_FFT_R2C ? n / 2 + 1 : n;
    double sign = kind == GP_FFT_FORWARD || kind == GP_FFT_R2C ? -1.0 : 1.0;
    int64_t total = outer * mo * inner;
    cplx *w = calloc((size_t)(total > 0 ? total : 1), sizeof *w);
    cplx *line = malloc((size_t)n * sizeof *line);
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            for (int64_t k = 0; k < n; ++k) {
                if (kind != GP_FFT_C2R)
                    line[k] = v[(o * m + k) * inner + i];
                else if (k < m)
                    line[k] = v[(o * m + k) * inner + i];
                else
                    line[k] = conj(v[(o * m + (n - k)) * inner + i]);
            }
            if (kind == GP_FFT_C2R) { /* numpy's irfft: the real parts of the ends */
                line[0] = creal(line[0]);
                if (n % 2 == 0)
                    line[n / 2] = creal(line[n / 2]);
            }
            for (int64_t j = 0; j < mo; ++j) {
                cplx acc = 0;
                for (int64_t k = 0; k < n; ++k)
                    acc += line[k] * cexp(sign * TWO_PI * I * (double)(j * k % n) / (double)n);
                w[(o * mo + j) * inner + i] = kind == GP_FFT_C2R ? creal(acc) : acc;
            }
        }
    free(line);
    free(v);
    shape[axis] = mo;
    return w;
}

/* gp_fft_on(model) of `a` against the reference; `direct` 1 when the
 * operand must be read in place (one exec, no copy: the model's layout
 * then addresses the caller's own strides). */
static void check_transform(const gp_array_t *a, int32_t kind, int32_t naxes,
                            const int32_t *axes, int64_t n_last, double tol)
{
    gp_array_info_t info;
    gp_array_get_info(a, &info);
    int64_t n, shape[GP_MAXDIM];
    memcpy(shape, info.shape, (size_t)info.ndim * sizeof *shape);
    cplx *before = values(a, &n);
    cplx *want = malloc((size_t)(n ? n : 1) * sizeof *want);
    memcpy(want, before, (size_t)n * sizeof *want);
    /* the axes one by one, the halved one first for R2C and last for C2R */
    if (kind == GP_FFT_R2C) {
        want = dft_axis(want, info.ndim, shape, axes[naxes - 1], kind, 0);
        for (int32_t k = 0; k < naxes - 1; ++k)
            want = dft_axis(want, info.ndim, shape, axes[k], GP_FFT_FORWARD, 0);
    } else {
        for (int32_t k = 0; k < naxes; ++k)
            want = dft_axis(want, info.ndim, shape, axes[k], kind, n_last);
    }
    gp_array_t *r = NULL;
    int execs0 = execs;
    if (!CHECK_OK(gp_fft_on(&model, kind, a, naxes, axes, n_last, &r))) {
        free(before), free(want);
        return;
    }
    gp_array_info_t ri;
    gp_array_get_info(r, &ri);
    CHECK(ri.flags & GP_FLAG_C_CONTIGUOUS);
    int64_t m;
    cplx *got = values(r, &m);
    int64_t wn = 1;
    for (int32_t d = 0; d < info.ndim; ++d) {
        CHECK_EQ(ri.shape[d], shape[d]);
        wn *= shape[d];
    }
    CHECK_EQ(m, wn);
    double err = 0, scale = 1e-300;
    for (int64_t i = 0; i < m && m == wn; ++i) {
        err = fmax(err, cabs(got[i] - want[i]));
        scale = fmax(scale, cabs(want[i]));
    }
    if (!CHECK(err <= tol * scale))
        fprintf(stderr, "    kind %d naxes %d: error %g of scale %g\n", kind, naxes, err, scale);
    /* one point on every transformed axis is the identity, written by the
     * engine without the library */
    bool one = kind == GP_FFT_C2R ? n_last == 1 : true;
    for (int32_t k = 0; k < naxes && kind != GP_FFT_C2R; ++k)
        one = one && info.shape[axes[k]] == 1;
    CHECK_EQ(execs - execs0, m && !one ? 1 : 0);
    /* the caller's operand is never written (C2R's model scribbles on its input) */
    int64_t k;
    cplx *after = values(a, &k);
    CHECK(k == n && memcmp(after, before, (size_t)n * sizeof *after) == 0);
    free(after), free(got), free(before), free(want);
    gp_array_release(r);
}

/* ---- the cases ------------------------------------------------------------------------------ */

static int32_t ax0[] = {0}, ax1[] = {1}, ax2[] = {2}, ax01[] = {0, 1}, ax12[] = {1, 2},
               ax012[] = {0, 1, 2}, ax02[] = {0, 2}, ax10[] = {1, 0};

/* a[..., ::step] along `axis` */
static gp_array_t *stepped_view(const gp_array_t *a, int32_t axis, int64_t step)
{
    gp_index_item_t items[GP_MAXDIM];
    memset(items, 0, sizeof items);
    for (int32_t d = 0; d <= axis; ++d)
        items[d].kind = GP_INDEX_SLICE;
    items[axis].present = GP_SLICE_STEP;
    items[axis].step = step;
    gp_array_t *v = NULL;
    CHECK_OK(gp_array_index(a, axis + 1, items, &v));
    return v;
}

static void test_in_place_layouts(void)
{
    int64_t s1[] = {7}, s2[] = {4, 6}, s3[] = {2, 3, 5};
    gp_array_t *a = make(GP_COMPLEX128, 1, s1);
    check_transform(a, GP_FFT_FORWARD, 1, ax0, 0, 1e-12);
    CHECK_EQ(last_layout.istride, 1);
    CHECK_EQ(last_layout.batch, 1);
    check_transform(a, GP_FFT_INVERSE, 1, ax0, 0, 1e-12);
    gp_array_release(a);

    /* axis 0 of a C-ordered matrix: the columns interleaved, read in place */
    a = make(GP_COMPLEX128, 2, s2);
    check_transform(a, GP_FFT_FORWARD, 1, ax0, 0, 1e-12);
    CHECK_EQ(last_layout.istride, 6);
    CHECK_EQ(last_layout.idist, 1);
    CHECK_EQ(last_layout.batch, 6);
    check_transform(a, GP_FFT_FORWARD, 1, ax1, 0, 1e-12);
    CHECK_EQ(last_layout.idist, 6);
    CHECK_EQ(last_layout.batch, 4);
    check_transform(a, GP_FFT_FORWARD, 2, ax01, 0, 1e-12);
    CHECK_EQ(last_layout.rank, 2);
    CHECK_EQ(last_layout.inembed[1], 6);
    gp_array_release(a);

    a = make(GP_COMPLEX128, 3, s3);
    check_transform(a, GP_FFT_FORWARD, 2, ax12, 0, 1e-12);
    CHECK_EQ(last_layout.batch, 2);
    CHECK_EQ(last_layout.idist, 15);
    check_transform(a, GP_FFT_FORWARD, 3, ax012, 0, 1e-12);
    CHECK_EQ(last_layout.rank, 3);
    gp_array_release(a);
}

static void test_copied_layouts(void)
{
    int64_t s2[] = {4, 6}, s3[] = {2, 3, 5};
    gp_array_t *a = make(GP_COMPLEX128, 3, s3);
    /* a middle axis: two batch axes around it, computed in the canonical order */
    check_transform(a, GP_FFT_FORWARD, 1, ax1, 0, 1e-12);
    check_transform(a, GP_FFT_INVERSE, 2, ax02, 0, 1e-12);
    check_transform(a, GP_FFT_FORWARD, 2, ax10, 0, 1e-12);
    gp_array_t *r = stepped_view(a, 2, -1);
    check_transform(r, GP_FFT_FORWARD, 1, ax2, 0, 1e-12);
    check_transform(r, GP_FFT_FORWARD, 1, ax0, 0, 1e-12);
    gp_array_release(r);
    gp_array_release(a);

    /* a transposed (Fortran-ordered) and a strided operand */
    a = make(GP_COMPLEX64, 2, s2);
    gp_array_t *t = NULL;
    int32_t perm[] = {1, 0};
    CHECK_OK(gp_array_transpose(a, 2, perm, &t));
    check_transform(t, GP_FFT_FORWARD, 1, ax0, 0, 1e-5);
    check_transform(t, GP_FFT_FORWARD, 2, ax01, 0, 1e-5);
    gp_array_t *st = stepped_view(a, 1, 2);
    check_transform(st, GP_FFT_FORWARD, 1, ax1, 0, 1e-5);
    check_transform(st, GP_FFT_FORWARD, 2, ax01, 0, 1e-5);
    gp_array_release(st);
    gp_array_release(t);
    gp_array_release(a);
}

static void test_real_transforms(void)
{
    int64_t s2[] = {3, 6}, s3[] = {2, 4, 5}, c2[] = {3, 4}, c1[] = {5};
    gp_array_t *a = make(GP_FLOAT64, 2, s2);
    check_transform(a, GP_FFT_R2C, 1, ax1, 0, 1e-12);
    check_transform(a, GP_FFT_R2C, 1, ax0, 0, 1e-12);
    check_transform(a, GP_FFT_R2C, 2, ax01, 0, 1e-12);
    check_transform(a, GP_FFT_R2C, 2, ax10, 0, 1e-12);
    gp_array_release(a);
    a = make(GP_FLOAT32, 3, s3);
    check_transform(a, GP_FFT_R2C, 3, ax012, 0, 1e-5);
    check_transform(a, GP_FFT_R2C, 2, ax02, 0, 1e-5);
    gp_array_release(a);

    /* C2R: the input copied (the model overwrites what it reads) with the
     * imaginary parts of its zero-frequency and Nyquist terms zeroed */
    a = make(GP_COMPLEX128, 2, c2);
    int bad = bad_imag_ends;
    check_transform(a, GP_FFT_C2R, 1, ax1, 6, 1e-12);
    check_transform(a, GP_FFT_C2R, 1, ax1, 7, 1e-12);
    check_transform(a, GP_FFT_C2R, 1, ax0, 4, 1e-12);
    check_transform(a, GP_FFT_C2R, 1, ax0, 5, 1e-12);
    CHECK_EQ(bad_imag_ends, bad);
    gp_array_release(a);
    a = make(GP_COMPLEX64, 1, c1);
    check_transform(a, GP_FFT_C2R, 1, ax0, 8, 1e-5);
    gp_array_t *r = stepped_view(a, 0, -1);
    check_transform(r, GP_FFT_C2R, 1, ax0, 9, 1e-5);
    gp_array_release(r);
    gp_array_release(a);

    /* R2C of real input starting at an odd element: copied to an aligned buffer */
    int64_t r1[] = {9};
    static const int32_t reals[] = {GP_FLOAT32, GP_FLOAT64};
    for (int k = 0; k < 2; ++k) {
        a = make(reals[k], 1, r1);
        gp_index_item_t item;
        memset(&item, 0, sizeof item);
        item.kind = GP_INDEX_SLICE;
        item.present = GP_SLICE_START;
        item.start = 1;
        r = NULL;
        CHECK_OK(gp_array_index(a, 1, &item, &r));
        check_transform(r, GP_FFT_R2C, 1, ax0, 0, 1e-5);
        gp_array_release(r);
        gp_array_release(a);
    }
}

static void test_one_point_transforms(void)
{
    int64_t s2[] = {3, 1}, s3[] = {1, 4, 1}, c1[] = {2, 1};
    gp_array_t *a = make(GP_COMPLEX128, 2, s2);
    check_transform(a, GP_FFT_FORWARD, 1, ax1, 0, 1e-12);
    check_transform(a, GP_FFT_INVERSE, 1, ax1, 0, 1e-12);
    check_transform(a, GP_FFT_C2R, 1, ax1, 1, 1e-12);
    check_transform(a, GP_FFT_FORWARD, 1, ax0, 0, 1e-12); /* 3 points: the library */
    gp_array_release(a);
    a = make(GP_COMPLEX64, 3, s3);
    check_transform(a, GP_FFT_FORWARD, 2, ax02, 0, 1e-6);
    check_transform(a, GP_FFT_C2R, 1, ax2, 1, 1e-6);
    gp_array_release(a);
    a = make(GP_FLOAT32, 2, c1);
    check_transform(a, GP_FFT_R2C, 1, ax1, 0, 1e-6);
    gp_array_release(a);
    /* a one-point C2R of a strided view: the real parts of a stepped axis */
    a = make(GP_COMPLEX128, 2, (int64_t[]){4, 1});
    gp_array_t *r = stepped_view(a, 0, -2);
    check_transform(r, GP_FFT_C2R, 1, ax1, 1, 1e-12);
    gp_array_release(r);
    gp_array_release(a);
}

static void test_empty_and_errors(void)
{
    int64_t s0[] = {0, 4}, s2[] = {3, 4};
    gp_array_t *a = make(GP_COMPLEX128, 2, s0);
    check_transform(a, GP_FFT_FORWARD, 1, ax1, 0, 0);
    gp_array_t *r = NULL;
    CHECK_STATUS(gp_fft_on(&model, GP_FFT_FORWARD, a, 1, ax0, 0, &r), GP_ERR_VALUE);
    gp_array_release(a);

    a = make(GP_COMPLEX128, 2, s2);
    int32_t rep[] = {1, 1}, out_of_range[] = {2};
    CHECK_STATUS(gp_fft_on(&model, GP_FFT_FORWARD, a, 2, rep, 0, &r), GP_ERR_VALUE);
    CHECK_STATUS(gp_fft_on(&model, GP_FFT_FORWARD, a, 1, out_of_range, 0, &r), GP_ERR_AXIS);
    CHECK_STATUS(gp_fft_on(&model, GP_FFT_FORWARD, a, 0, ax0, 0, &r), GP_ERR_VALUE);
    CHECK_STATUS(gp_fft_on(&model, GP_FFT_R2C, a, 1, ax0, 0, &r), GP_ERR_TYPE);
    CHECK_STATUS(gp_fft_on(&model, GP_FFT_C2R, a, 2, ax01, 6, &r), GP_ERR_VALUE);
    CHECK_STATUS(gp_fft_on(&model, GP_FFT_C2R, a, 1, ax1, 5, &r), GP_ERR_VALUE);
    CHECK_STATUS(gp_fft_on(&model, 9, a, 1, ax1, 0, &r), GP_ERR_VALUE);
    CHECK(r == NULL);
    /* the host backend itself has no FFT library */
    CHECK_STATUS(gp_fft(GP_FFT_FORWARD, a, 1, ax1, 0, &r), GP_ERR_UNSUPPORTED);
    gp_array_release(a);
    int64_t s1[] = {4};
    a = make(GP_INT32, 1, s1);
    CHECK_STATUS(gp_fft_on(&model, GP_FFT_FORWARD, a, 1, ax0, 0, &r), GP_ERR_TYPE);
    gp_array_release(a);
}

static void test_plan_cache(void)
{
    gp_fft_cache_info_t ci;
    CHECK_OK(gp_fft_cache_clear());
    CHECK_EQ(live_plans, 0);
    CHECK_OK(gp_fft_cache_info(&ci));
    CHECK_EQ(ci.size, 0);
    CHECK_EQ(ci.limit, 16);
    CHECK_EQ(ci.hits + ci.misses, 0);

    int64_t s2[] = {4, 6};
    gp_array_t *a = make(GP_COMPLEX128, 2, s2), *r = NULL;
    for (int i = 0; i < 3; ++i) {
        CHECK_OK(gp_fft_on(&model, GP_FFT_FORWARD, a, 1, ax1, 0, &r));
        gp_array_release(r);
    }
    /* the inverse shares the forward plan (the direction is the exec's) */
    CHECK_OK(gp_fft_on(&model, GP_FFT_INVERSE, a, 1, ax1, 0, &r));
    gp_array_release(r);
    CHECK_OK(gp_fft_cache_info(&ci));
    CHECK_EQ(ci.size, 1);
    CHECK_EQ(ci.misses, 1);
    CHECK_EQ(ci.hits, 3);
    CHECK_EQ(ci.work_bytes, 64);
    CHECK_OK(gp_fft_on(&model, GP_FFT_FORWARD, a, 1, ax0, 0, &r));
    gp_array_release(r);
    CHECK_OK(gp_fft_cache_info(&ci));
    CHECK_EQ(ci.size, 2);
    CHECK_EQ(ci.misses, 2);

    /* the limit drops the least recently used plans */
    CHECK_OK(gp_fft_cache_set_limit(1));
    CHECK_OK(gp_fft_cache_info(&ci));
    CHECK_EQ(ci.size, 1);
    CHECK_EQ(live_plans, 1);
    CHECK_OK(gp_fft_on(&model, GP_FFT_FORWARD, a, 1, ax0, 0, &r)); /* the one kept */
    gp_array_release(r);
    CHECK_OK(gp_fft_cache_info(&ci));
    CHECK_EQ(ci.hits, 4);
    CHECK_STATUS(gp_fft_cache_set_limit(-1), GP_ERR_VALUE);

    /* limit 0: every transform makes and destroys its plan */
    CHECK_OK(gp_fft_cache_set_limit(0));
    CHECK_EQ(live_plans, 0);
    int made = plans_made;
    CHECK_OK(gp_fft_on(&model, GP_FFT_FORWARD, a, 1, ax0, 0, &r));
    gp_array_release(r);
    CHECK_EQ(plans_made, made + 1);
    CHECK_EQ(live_plans, 0);
    CHECK_OK(gp_fft_cache_set_limit(16));
    CHECK_OK(gp_fft_cache_clear());
    CHECK_OK(gp_fft_cache_info(&ci));
    CHECK_EQ(ci.size + ci.hits + ci.misses, 0);
    CHECK_EQ(live_plans, 0);
    gp_array_release(a);
}

int main(void)
{
    if (gp_test_init()) {
        const gp_backend_i *host;
        if (CHECK_OK(gp_backend(&host))) {
            model = *host;
            model.fft_plan = model_plan;
            model.fft_exec = model_exec;
            model.fft_destroy = model_destroy;
            RUN(test_in_place_layouts);
            RUN(test_copied_layouts);
            RUN(test_real_transforms);
            RUN(test_one_point_transforms);
            RUN(test_empty_and_errors);
            RUN(test_plan_cache);
        }
    }
    return check_summary("test_fft");
}
