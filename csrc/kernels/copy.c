/*
 * copy.c - every operation that copies or fills memory: copy, astype,
 * assignment, fill, full, reshape (which copies when no view exists),
 * transfers between host and device, and arange.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../memory/memory.h"
#include "kernels.h"

static const char *casting_name(int32_t c)
{
    static const char *const names[] = {"no", "equiv", "safe", "same_kind", "unsafe"};
    return c >= 0 && c <= 4 ? names[c] : "?";
}

/* Whether `a` and `b` lay out the same shape identically and contiguously. */
static bool same_dense_layout(const gp_array_t *a, const gp_array_t *b)
{
    if (a->ndim != b->ndim || a->dtype != b->dtype)
        return false;
    for (int32_t d = 0; d < a->ndim; ++d)
        if (a->shape[d] != b->shape[d] || (a->shape[d] > 1 && a->strides[d] != b->strides[d]))
            return false;
    int32_t c = GP_FLAG_C_CONTIGUOUS | GP_FLAG_F_CONTIGUOUS;
    return (a->flags & c) && (b->flags & c) && ((a->flags & c) & (b->flags & c));
}

gp_status_t gp_copy_into(gp_array_t *dst, const gp_array_t *src)
{
    if (dst->size == 0)
        return GP_OK;
    if (same_dense_layout(dst, src) && !gp_tuning()->copy_kernel) {
        const gp_backend_i *be;
        GP_TRY(gp_backend(&be));
        return be->memcpy_dtod(gp_array_data(dst), gp_array_data(src),
                               (size_t)(dst->size * gp_dtype_size(dst->dtype)),
                               gp_current_stream());
    }
    gp_operand_t in;
    memset(&in, 0, sizeof in);
    in.array = (gp_array_t *)src;
    int8_t loop[2] = {(int8_t)src->dtype, (int8_t)src->dtype};
    return gp_ew_run(&gp_op_copy, 1, 0, loop, &in, &dst, NULL);
}

gp_status_t gp_copy_new(const gp_array_t *a, int32_t dtype, int32_t order, gp_array_t **out)
{
    GP_TRY(gp_like_order(a, &order));
    const int64_t *lp[1] = {a->strides};
    GP_TRY(gp_array_alloc_like(dtype, a->ndim, a->shape, 1, lp, order, out));
    gp_status_t s = gp_copy_into(*out, a);
    if (s != GP_OK) {
        gp_array_release(*out);
        *out = NULL;
    }
    return s;
}

GP_API gp_status_t gp_array_copy(const gp_array_t *a, int32_t order, gp_array_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_copy: out is NULL");
    *out = NULL;
    GP_CHECK_ARRAY(a);
    return gp_copy_new(a, a->dtype, order, out);
}

GP_API gp_status_t gp_array_astype(const gp_array_t *a, int32_t dtype, int32_t order,
                                   int32_t casting, gp_array_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_astype: out is NULL");
    *out = NULL;
    GP_CHECK_ARRAY(a);
    if (!gp_dtype_valid(dtype))
        return gp_set_error(GP_ERR_TYPE, "invalid dtype code %d", dtype);
    if (!gp_can_cast(a->dtype, dtype, casting))
        return gp_set_error(GP_ERR_TYPE_CASTING, "Cannot cast array data from dtype('%s') to "
                                                 "dtype('%s') according to the rule '%s'",
                            gp_dtypes[a->dtype].name, gp_dtypes[dtype].name,
                            casting_name(casting));
    return gp_copy_new(a, dtype, order, out);
}

GP_API gp_status_t gp_array_assign(gp_array_t *dst, const gp_array_t *src, int32_t casting)
{
    GP_CHECK_ARRAY(dst);
    GP_CHECK_ARRAY(src);
    if (!(dst->flags & GP_FLAG_WRITEABLE))
        return gp_set_error(GP_ERR_VALUE, "assignment destination is read-only");
    if (!gp_can_cast(src->dtype, dst->dtype, casting))
        return gp_set_error(GP_ERR_TYPE_CASTING, "Cannot cast array data from dtype('%s') to "
                                                 "dtype('%s') according to the rule '%s'",
                            gp_dtypes[src->dtype].name, gp_dtypes[dst->dtype].name,
                            casting_name(casting));
    /* src must broadcast to dst's shape */
    bool ok = src->ndim <= dst->ndim;
    for (int32_t d = 0; d < src->ndim && ok; ++d) {
        int64_t s = src->shape[src->ndim - 1 - d], t = dst->shape[dst->ndim - 1 - d];
        ok = s == t || s == 1;
    }
    if (!ok) {
        /* NumPy tolerates extra leading ones in the source */
        int32_t lead = 0;
        while (lead < src->ndim && src->shape[lead] == 1 && src->ndim - lead > dst->ndim)
            ++lead;
        if (lead > 0 && src->ndim - lead <= dst->ndim) {
            gp_array_t *v;
            GP_TRY(gp_array_new_view(src, src->ndim - lead, src->shape + lead,
                                     src->strides + lead, src->offset, &v));
            gp_status_t s = gp_array_assign(dst, v, casting);
            gp_array_release(v);
            return s;
        }
        char a[512], b[512];
        gp_shape_format(src->ndim, src->shape, a, sizeof a);
        gp_shape_format(dst->ndim, dst->shape, b, sizeof b);
        return gp_set_error(GP_ERR_VALUE_BROADCAST, "could not broadcast input array from shape "
                                                    "%s into shape %s", a, b);
    }
    int32_t share = 0;
    gp_array_may_share_memory(dst, src, &share);
    if (share && !(gp_array_data(dst) == gp_array_data(src) && same_dense_layout(dst, src))) {
        gp_array_t *tmp;
        GP_TRY(gp_copy_new(src, src->dtype, GP_ORDER_K, &tmp));
        gp_status_t s = gp_copy_into(dst, tmp);
        gp_array_release(tmp);
        return s;
    }
    return gp_copy_into(dst, src);
}

GP_API gp_status_t gp_array_fill(gp_array_t *dst, const gp_scalar_t *value)
{
    GP_CHECK_ARRAY(dst);
    if (!value)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_fill: value is NULL");
    if (!gp_dtype_valid(value->dtype))
        return gp_set_error(GP_ERR_TYPE, "invalid scalar dtype %d", value->dtype);
    if (!(dst->flags & GP_FLAG_WRITEABLE))
        return gp_set_error(GP_ERR_VALUE, "assignment destination is read-only");
    GP_TRY(gp_scalar_check_fits(value, dst->dtype));
    if (dst->size == 0)
        return GP_OK;
    unsigned char bytes[16];
    gp_scalar_to_storage(value, dst->dtype, bytes);
    int32_t isz = gp_dtype_size(dst->dtype);
    bool uniform = true;
    for (int32_t k = 1; k < isz; ++k)
        uniform = uniform && bytes[k] == bytes[0];
    if (uniform && (dst->flags & (GP_FLAG_C_CONTIGUOUS | GP_FLAG_F_CONTIGUOUS))) {
        const gp_backend_i *be;
        GP_TRY(gp_backend(&be));
        return be->memset8(gp_array_data(dst), bytes[0], (size_t)(dst->size * isz),
                           gp_current_stream());
    }
    gp_operand_t in;
    memset(&in, 0, sizeof in);
    in.scalar = *value;
    int8_t loop[2] = {(int8_t)dst->dtype, (int8_t)dst->dtype};
    return gp_ew_run(&gp_op_copy, 1, 0, loop, &in, &dst, NULL);
}

GP_API gp_status_t gp_array_full(int32_t dtype, int32_t ndim, const int64_t *shape,
                                 int32_t order, const gp_scalar_t *value, gp_array_t **out)
{
    if (!out || !value)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_full: NULL argument");
    *out = NULL;
    if (!gp_dtype_valid(value->dtype))
        return gp_set_error(GP_ERR_TYPE, "invalid scalar dtype %d", value->dtype);
    if (gp_dtype_valid(dtype))
        GP_TRY(gp_scalar_check_fits(value, dtype));
    GP_TRY(gp_array_empty(dtype, ndim, shape, order, out));
    gp_status_t s = gp_array_fill(*out, value);
    if (s != GP_OK) {
        gp_array_release(*out);
        *out = NULL;
    }
    return s;
}

/* ---- reshape -------------------------------------------------------------- */

/* Strides that view `a`'s memory with `shape` read in C order, if any. */
static bool reshape_nocopy_c(int32_t ond, const int64_t *oshape, const int64_t *ostrides,
                             int32_t nnd, const int64_t *nshape, int64_t itemsize, int64_t *nstr)
{
    int64_t od[GP_MAXDIM], os[GP_MAXDIM];
    int32_t n = 0;
    for (int32_t k = 0; k < ond; ++k)
        if (oshape[k] != 1) {
            od[n] = oshape[k];
            os[n++] = ostrides[k];
        }
    int32_t i = 0, j = 0;
    while (i < n && j < nnd) {
        int32_t oi = i, nj = j;
        int64_t np = nshape[j], op = od[i];
        while (np != op) {
            if (np < op) {
                if (++j >= nnd)
                    return false;
                np *= nshape[j];
            } else {
                if (++i >= n)
                    return false;
                op *= od[i];
            }
        }
        for (int32_t k = oi; k < i; ++k)
            if (os[k] != od[k + 1] * os[k + 1])
                return false;
        nstr[j] = os[i];
        for (int32_t k = j; k > nj; --k)
            nstr[k - 1] = nstr[k] * nshape[k];
        ++i, ++j;
    }
    if (i < n)
        return false;
    for (; j < nnd; ++j)
        nstr[j] = itemsize; /* trailing dimensions of length one */
    return true;
}

static bool reshape_nocopy(const gp_array_t *a, int32_t nnd, const int64_t *nshape, int32_t order,
                           int64_t *nstr)
{
    int64_t isz = gp_dtype_size(a->dtype);
    if (a->size == 0) {
        gp_strides_contiguous(nnd, nshape, isz, order, nstr);
        return true;
    }
    if (order == GP_ORDER_C)
        return reshape_nocopy_c(a->ndim, a->shape, a->strides, nnd, nshape, isz, nstr);
    /* F order is C order over reversed dimensions */
    int64_t os[GP_MAXDIM] = {0}, ost[GP_MAXDIM] = {0}, ns[GP_MAXDIM] = {0}, nst[GP_MAXDIM];
    for (int32_t k = 0; k < a->ndim; ++k) {
        os[k] = a->shape[a->ndim - 1 - k];
        ost[k] = a->strides[a->ndim - 1 - k];
    }
    for (int32_t k = 0; k < nnd; ++k)
        ns[k] = nshape[nnd - 1 - k];
    if (!reshape_nocopy_c(a->ndim, os, ost, nnd, ns, isz, nst))
        return false;
    for (int32_t k = 0; k < nnd; ++k)
        nstr[k] = nst[nnd - 1 - k];
    return true;
}

GP_API gp_status_t gp_array_reshape(const gp_array_t *a, int32_t ndim, const int64_t *shape,
                                    int32_t order, gp_array_t **out)
{
    if (!out || (ndim > 0 && !shape))
        return gp_set_error(GP_ERR_MISUSE, "gp_array_reshape: NULL argument");
    *out = NULL;
    GP_CHECK_ARRAY(a);
    if (ndim < 0 || ndim > GP_MAXDIM)
        return gp_set_error(GP_ERR_VALUE, "maximum supported dimension for an ndarray is "
                                          "currently %d, found %d", GP_MAXDIM, ndim);
    if (order == GP_ORDER_A)
        order = (a->flags & GP_FLAG_F_CONTIGUOUS) && !(a->flags & GP_FLAG_C_CONTIGUOUS)
                    ? GP_ORDER_F : GP_ORDER_C;
    if (order != GP_ORDER_C && order != GP_ORDER_F)
        return gp_set_error(GP_ERR_VALUE, "order must be one of 'C', 'F', or 'A'");
    int64_t ns[GP_MAXDIM] = {0}, known = 1;
    int32_t unknown = -1;
    for (int32_t k = 0; k < ndim; ++k) {
        ns[k] = shape[k];
        if (shape[k] == -1) {
            if (unknown >= 0)
                return gp_set_error(GP_ERR_VALUE, "can only specify one unknown dimension");
            unknown = k;
        } else if (shape[k] < 0) {
            return gp_set_error(GP_ERR_VALUE, "negative dimensions not allowed");
        }
    }
    /* NumPy's order of checks: the known product in the order given (an
     * overflow there cannot match the size), then the byte size of the
     * shape's non-zero dimensions, which an empty result must fit too: its
     * strides are laid out from them */
    bool ok = true;
    for (int32_t k = 0; k < ndim && ok; ++k)
        if (k != unknown)
            ok = !__builtin_mul_overflow(known, shape[k], &known);
    if (ok && unknown >= 0) {
        if (known == 0 || a->size % known != 0)
            ok = false;
        else
            ns[unknown] = a->size / known;
    } else if (ok) {
        ok = known == a->size;
    }
    int64_t bytes = gp_dtype_size(a->dtype);
    for (int32_t k = 0; k < ndim && ok; ++k)
        if (ns[k] > 0 && __builtin_mul_overflow(bytes, ns[k], &bytes))
            return gp_set_error(GP_ERR_VALUE, "array is too big; `arr.size * arr.dtype.itemsize` "
                                              "is larger than the maximum possible size.");
    if (!ok) {
        char sh[1024];
        gp_shape_format(ndim, shape, sh, sizeof sh);
        return gp_set_error(GP_ERR_VALUE_RESHAPE, "cannot reshape array of size %lld into shape %s",
                            (long long)a->size, sh);
    }
    int64_t nst[GP_MAXDIM];
    if (reshape_nocopy(a, ndim, ns, order, nst))
        return gp_array_new_view(a, ndim, ns, nst, a->offset, out);
    gp_array_t *c;
    GP_TRY(gp_copy_new(a, a->dtype, order, &c));
    gp_strides_contiguous(ndim, ns, gp_dtype_size(a->dtype), order, nst);
    gp_status_t s = gp_array_new_view(c, ndim, ns, nst, 0, out);
    gp_array_release(c);
    return s;
}

/* ---- transfers ----------------------------------------------------------------- */

GP_API gp_status_t gp_array_from_host(const void *src, int64_t nbytes, int32_t dtype,
                                      int32_t ndim, const int64_t *shape,
                                      const int64_t *strides, gp_array_t **out)
{
    if (!out || (ndim > 0 && !shape) || (nbytes > 0 && !src))
        return gp_set_error(GP_ERR_MISUSE, "gp_array_from_host: NULL argument");
    *out = NULL;
    if (!gp_dtype_valid(dtype))
        return gp_set_error(GP_ERR_TYPE, "invalid dtype code %d", dtype);
    if (ndim < 0 || ndim > GP_MAXDIM)
        return gp_set_error(GP_ERR_VALUE, "invalid number of dimensions %d", ndim);
    int64_t isz = gp_dtype_size(dtype), st[GP_MAXDIM];
    for (int32_t k = 0; k < ndim; ++k)
        if (shape[k] < 0)
            return gp_set_error(GP_ERR_VALUE, "negative dimensions are not allowed");
    int64_t size = gp_shape_size(ndim, shape), want;
    if (size < 0 || __builtin_mul_overflow(size, isz, &want) || nbytes != want)
        return gp_set_error(GP_ERR_VALUE, "host buffer of %lld bytes does not hold the array",
                            (long long)nbytes);
    if (strides) {
        /* a dense block: sorted by stride, each is the product of the inner
         * lengths */
        memcpy(st, strides, (size_t)ndim * sizeof *st);
        if (size > 0) {
            int32_t perm[GP_MAXDIM];
            const int64_t *sp[1] = {st};
            gp_best_axis_order(ndim, 1, sp, perm);
            int64_t expect = isz;
            for (int32_t k = ndim - 1; k >= 0; --k) {
                int32_t d = perm[k];
                if (shape[d] == 1)
                    continue;
                if (st[d] != expect)
                    return gp_set_error(GP_ERR_VALUE, "host memory is not a dense block");
                expect *= shape[d];
            }
        }
    } else {
        gp_strides_contiguous(ndim, shape, isz, GP_ORDER_C, st);
    }
    GP_TRY(gp_array_alloc_strided(dtype, ndim, shape, st, out));
    const gp_backend_i *be;
    gp_status_t s = gp_backend(&be);
    if (s == GP_OK && nbytes > 0)
        s = gp_transfer_htod(be, gp_array_data(*out), src, (size_t)nbytes, gp_current_stream());
    if (s != GP_OK) {
        gp_array_release(*out);
        *out = NULL;
    }
    return s;
}

GP_API gp_status_t gp_array_to_host(const gp_array_t *a, void *dst, int64_t nbytes, int32_t order)
{
    GP_CHECK_ARRAY(a);
    if (!dst && nbytes > 0)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_to_host: dst is NULL");
    if (order != GP_ORDER_C && order != GP_ORDER_F)
        return gp_set_error(GP_ERR_VALUE, "order must be 'C' or 'F'");
    int64_t need = a->size * gp_dtype_size(a->dtype);
    if (nbytes != need)
        return gp_set_error(GP_ERR_VALUE, "host buffer of %lld bytes for an array of %lld bytes",
                            (long long)nbytes, (long long)need);
    if (need == 0)
        return GP_OK;
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    int32_t want = order == GP_ORDER_C ? GP_FLAG_C_CONTIGUOUS : GP_FLAG_F_CONTIGUOUS;
    if (a->flags & want) {
        GP_TRY(gp_transfer_dtoh(be, dst, gp_array_data(a), (size_t)need, gp_current_stream()));
        /* the host has waited for the stream: a deferred index error surfaces */
        return gp_errrec_check(gp_current_stream(), false);
    }
    gp_array_t *c;
    GP_TRY(gp_copy_new(a, a->dtype, order, &c));
    gp_status_t s = gp_transfer_dtoh(be, dst, gp_array_data(c), (size_t)need, gp_current_stream());
    gp_array_release(c);
    GP_TRY(s);
    return gp_errrec_check(gp_current_stream(), false);
}

/* ---- arange ------------------------------------------------------------------------ */

GP_API gp_status_t gp_array_arange(const gp_scalar_t *start, const gp_scalar_t *second,
                                   int64_t n, int32_t dtype, gp_array_t **out)
{
    if (!start || !second || !out)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_arange: NULL argument");
    *out = NULL;
    if (!gp_dtype_valid(dtype) || !gp_dtype_valid(start->dtype) || !gp_dtype_valid(second->dtype))
        return gp_set_error(GP_ERR_TYPE, "invalid dtype code");
    if (n < 0)
        return gp_set_error(GP_ERR_VALUE, "arange: negative length %lld", (long long)n);
    if (dtype == GP_BOOL)
        return gp_set_error(GP_ERR_TYPE, "arange of dtype bool is made by the caller");
    GP_TRY(gp_array_empty(dtype, 1, &n, GP_ORDER_C, out));
    gp_operand_t in[2];
    memset(in, 0, sizeof in);
    in[0].scalar = *start;
    in[1].scalar = *second;
    int8_t loop[3] = {(int8_t)dtype, (int8_t)dtype, (int8_t)dtype};
    gp_status_t s = gp_ew_run(&gp_op_arange, 2, 0, loop, in, out, NULL);
    if (s != GP_OK) {
        gp_array_release(*out);
        *out = NULL;
    }
    return s;
}
