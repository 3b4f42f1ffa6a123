/*
 * array.c - the array descriptor: creation, reference counts, metadata and
 * every operation that only makes a view (transpose, basic indexing,
 * squeeze, broadcast_to, as_strided). Operations that may copy live in the
 * kernels layer (csrc/kernels/copy.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"

void gp_array_update_flags(gp_array_t *a)
{
    int64_t isz = gp_dtype_size(a->dtype);
    int32_t f = a->flags & (GP_FLAG_OWNDATA | GP_FLAG_WRITEABLE);
    if (gp_is_c_contiguous(a->ndim, a->shape, a->strides, isz))
        f |= GP_FLAG_C_CONTIGUOUS;
    if (gp_is_f_contiguous(a->ndim, a->shape, a->strides, isz))
        f |= GP_FLAG_F_CONTIGUOUS;
    int64_t al = gp_dtypes[a->dtype].alignment;
    bool aligned = a->size == 0 || ((uintptr_t)gp_array_data(a) % (uintptr_t)al) == 0;
    for (int32_t k = 0; k < a->ndim && aligned && a->size; ++k)
        aligned = a->shape[k] <= 1 || a->strides[k] % al == 0;
    if (aligned)
        f |= GP_FLAG_ALIGNED;
    a->flags = f;
}

gp_array_t *gp_array_wrap(gp_buffer_t *buf, int32_t dtype, int32_t ndim, const int64_t *shape,
                          const int64_t *strides, int64_t offset, int32_t writeable)
{
    gp_array_t *a = gp_handle_alloc(sizeof *a + 2 * (size_t)ndim * sizeof(int64_t));
    if (!a) {
        gp_set_error(GP_ERR_NOMEM, "out of host memory for an array descriptor");
        return NULL;
    }
    a->magic = GP_ARRAY_MAGIC;
    atomic_init(&a->refs, 1);
    a->dtype = dtype;
    a->ndim = ndim;
    a->pad_ = 0;
    a->offset = offset;
    a->buf = buf;
    a->shape = a->dims;
    a->strides = a->dims + ndim;
    if (ndim) {
        memcpy(a->shape, shape, (size_t)ndim * sizeof *shape);
        memcpy(a->strides, strides, (size_t)ndim * sizeof *strides);
    }
    a->size = gp_shape_size(ndim, shape);
    a->flags = writeable ? GP_FLAG_WRITEABLE : 0;
    gp_array_update_flags(a);
    return a;
}

#define GP_TOO_BIG_MSG \
    "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size."

/* Whether a view of `shape` fits NumPy's bound (gp_shape_fits), so its size
 * and byte size are int64's (gp_array_info_t reports both); NumPy's error
 * if not. */
static gp_status_t check_view_size(int32_t dtype, int32_t ndim, const int64_t *shape)
{
    int64_t nbytes;
    if (!gp_shape_fits(ndim, shape, gp_dtype_size(dtype), &nbytes))
        return gp_set_error(GP_ERR_VALUE, GP_TOO_BIG_MSG);
    return GP_OK;
}

gp_status_t gp_array_new_view(const gp_array_t *a, int32_t ndim, const int64_t *shape,
                              const int64_t *strides, int64_t offset, gp_array_t **out)
{
    GP_TRY(check_view_size(a->dtype, ndim, shape));
    gp_buffer_retain(a->buf);
    gp_array_t *v = gp_array_wrap(a->buf, a->dtype, ndim, shape, strides, offset,
                                  (a->flags & GP_FLAG_WRITEABLE) != 0);
    if (!v) {
        gp_buffer_release(a->buf);
        return GP_ERR_NOMEM;
    }
    *out = v;
    return GP_OK;
}

/* Checks dimensions and the byte size of a new array. */
static gp_status_t check_new_shape(int32_t dtype, int32_t ndim, const int64_t *shape,
                                   int64_t *nbytes)
{
    if (!gp_dtype_valid(dtype))
        return gp_set_error(GP_ERR_TYPE, "invalid dtype code %d", dtype);
    if (ndim < 0 || ndim > GP_MAXDIM)
        return gp_set_error(GP_ERR_VALUE, "maximum supported dimension for an ndarray is "
                                          "currently %d, found %d", GP_MAXDIM, ndim);
    if (ndim > 0 && !shape)
        return gp_set_error(GP_ERR_MISUSE, "shape is NULL");
    for (int32_t k = 0; k < ndim; ++k)
        if (shape[k] < 0)
            return gp_set_error(GP_ERR_VALUE, "negative dimensions are not allowed");
    if (!gp_shape_fits(ndim, shape, gp_dtype_size(dtype), nbytes) || *nbytes > ((int64_t)1 << 62))
        return gp_set_error(GP_ERR_VALUE, GP_TOO_BIG_MSG);
    return GP_OK;
}

typedef gp_status_t (*buffer_alloc_fn)(size_t nbytes, gp_buffer_t **out);

static gp_status_t alloc_strided(buffer_alloc_fn alloc, int32_t dtype, int32_t ndim,
                                 const int64_t *shape, const int64_t *strides, gp_array_t **out)
{
    int64_t nbytes;
    GP_TRY(check_new_shape(dtype, ndim, shape, &nbytes));
    gp_buffer_t *buf;
    GP_TRY(alloc((size_t)nbytes, &buf));
    gp_array_t *a = gp_array_wrap(buf, dtype, ndim, shape, strides, 0, 1);
    if (!a) {
        gp_buffer_release(buf);
        return GP_ERR_NOMEM;
    }
    a->flags |= GP_FLAG_OWNDATA;
    *out = a;
    return GP_OK;
}

gp_status_t gp_array_alloc_strided(int32_t dtype, int32_t ndim, const int64_t *shape,
                                   const int64_t *strides, gp_array_t **out)
{
    return alloc_strided(gp_buffer_alloc, dtype, ndim, shape, strides, out);
}

static gp_status_t alloc_like(buffer_alloc_fn alloc, int32_t dtype, int32_t ndim,
                              const int64_t *shape, int32_t n, const int64_t *const *like_strides,
                              int32_t order, gp_array_t **out)
{
    int64_t strides[GP_MAXDIM], nbytes;
    /* the strides below are products of the dimensions that the check bounds */
    GP_TRY(check_new_shape(dtype, ndim, shape, &nbytes));
    if (order == GP_ORDER_K && n > 0 && ndim > 1) {
        int32_t perm[GP_MAXDIM];
        gp_best_axis_order(ndim, n, like_strides, perm);
        int64_t s = gp_dtype_size(dtype);
        for (int32_t k = ndim - 1; k >= 0; --k) {
            strides[perm[k]] = s;
            s *= shape[perm[k]] > 0 ? shape[perm[k]] : 1;
        }
    } else {
        gp_strides_contiguous(ndim, shape, gp_dtype_size(dtype),
                              order == GP_ORDER_F ? GP_ORDER_F : GP_ORDER_C, strides);
    }
    if (gp_shape_size(ndim, shape) == 0) /* NumPy 2 gives new empty arrays zero strides */
        for (int32_t k = 0; k < ndim; ++k)
            strides[k] = 0;
    return alloc_strided(alloc, dtype, ndim, shape, strides, out);
}

gp_status_t gp_array_alloc_like(int32_t dtype, int32_t ndim, const int64_t *shape, int32_t n,
                                const int64_t *const *like_strides, int32_t order,
                                gp_array_t **out)
{
    return alloc_like(gp_buffer_alloc, dtype, ndim, shape, n, like_strides, order, out);
}

static gp_status_t new_array(buffer_alloc_fn alloc, const char *who, int32_t dtype,
                             int32_t ndim, const int64_t *shape, int32_t order, gp_array_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "%s: out is NULL", who);
    *out = NULL;
    if (order != GP_ORDER_C && order != GP_ORDER_F)
        return gp_set_error(GP_ERR_VALUE, "only 'C' or 'F' order is permitted");
    return alloc_like(alloc, dtype, ndim, shape, 0, NULL, order, out);
}

GP_API gp_status_t gp_array_empty(int32_t dtype, int32_t ndim, const int64_t *shape,
                                  int32_t order, gp_array_t **out)
{
    return new_array(gp_buffer_alloc, "gp_array_empty", dtype, ndim, shape, order, out);
}

GP_API gp_status_t gp_array_zeros(int32_t dtype, int32_t ndim, const int64_t *shape,
                                  int32_t order, gp_array_t **out)
{
    return new_array(gp_buffer_alloc_zeroed, "gp_array_zeros", dtype, ndim, shape, order, out);
}

static gp_status_t new_like(buffer_alloc_fn alloc, const char *who, const gp_array_t *a,
                            int32_t dtype, int32_t order, gp_array_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "%s: out is NULL", who);
    *out = NULL;
    GP_CHECK_ARRAY(a);
    GP_TRY(gp_like_order(a, &order));
    const int64_t *lp[1] = {a->strides};
    return alloc_like(alloc, dtype, a->ndim, a->shape, 1, lp, order, out);
}

GP_API gp_status_t gp_array_empty_like(const gp_array_t *a, int32_t dtype, int32_t order,
                                       gp_array_t **out)
{
    return new_like(gp_buffer_alloc, "gp_array_empty_like", a, dtype, order, out);
}

GP_API gp_status_t gp_array_zeros_like(const gp_array_t *a, int32_t dtype, int32_t order,
                                       gp_array_t **out)
{
    return new_like(gp_buffer_alloc_zeroed, "gp_array_zeros_like", a, dtype, order, out);
}

gp_status_t gp_like_order(const gp_array_t *a, int32_t *order)
{
    if (*order == GP_ORDER_A)
        *order = (a->flags & GP_FLAG_F_CONTIGUOUS) && !(a->flags & GP_FLAG_C_CONTIGUOUS)
                     ? GP_ORDER_F : GP_ORDER_C;
    /* K follows a C- or F-contiguous array exactly, as NumPy's empty_like
     * and copies do: that also decides the strides of dimensions of length one */
    if (*order == GP_ORDER_K && (a->flags & (GP_FLAG_C_CONTIGUOUS | GP_FLAG_F_CONTIGUOUS)))
        *order = (a->flags & GP_FLAG_C_CONTIGUOUS) ? GP_ORDER_C : GP_ORDER_F;
    if (*order != GP_ORDER_C && *order != GP_ORDER_F && *order != GP_ORDER_K)
        return gp_set_error(GP_ERR_VALUE, "order must be one of 'C', 'F', 'A', or 'K'");
    return GP_OK;
}

GP_API gp_status_t gp_array_retain(gp_array_t *a)
{
    GP_CHECK_ARRAY(a);
    atomic_fetch_add_explicit(&a->refs, 1, memory_order_relaxed);
    return GP_OK;
}

GP_API gp_status_t gp_array_release(gp_array_t *a)
{
    if (!a)
        return GP_OK;
    GP_CHECK_ARRAY(a);
    if (atomic_fetch_sub_explicit(&a->refs, 1, memory_order_acq_rel) == 1) {
        a->magic = GP_DEAD_MAGIC;
        gp_buffer_release(a->buf);
        gp_handle_free(a);
    }
    return GP_OK;
}

GP_API gp_status_t gp_array_get_info(const gp_array_t *a, gp_array_info_t *out)
{
    GP_CHECK_ARRAY(a);
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_get_info: out is NULL");
    const gp_backend_i *be = gp_backend_running();
    out->dtype = a->dtype;
    out->ndim = a->ndim;
    out->flags = a->flags;
    out->itemsize = gp_dtype_size(a->dtype);
    out->size = a->size;
    out->nbytes = a->size * out->itemsize;
    out->shape = a->shape;
    out->strides = a->strides;
    out->data = (uint64_t)(uintptr_t)gp_array_data(a);
    out->offset = a->offset;
    out->device_type = be ? be->dl_device_type : GP_DL_CPU;
    out->device_id = a->buf->device;
    return GP_OK;
}

GP_API gp_status_t gp_array_buffer_size(const gp_array_t *a, int64_t *out)
{
    GP_CHECK_ARRAY(a);
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_buffer_size: out is NULL");
    *out = (int64_t)a->buf->size;
    return GP_OK;
}

/* The byte range [lo, hi) of the buffer that `a` can touch. */
static void byte_extent(const gp_array_t *a, int64_t *lo, int64_t *hi)
{
    *lo = *hi = a->offset;
    if (a->size == 0)
        return;
    for (int32_t k = 0; k < a->ndim; ++k) {
        int64_t span = (a->shape[k] - 1) * a->strides[k];
        if (span < 0)
            *lo += span;
        else
            *hi += span;
    }
    *hi += gp_dtype_size(a->dtype);
}

GP_API gp_status_t gp_array_may_share_memory(const gp_array_t *a, const gp_array_t *b,
                                             int32_t *out)
{
    GP_CHECK_ARRAY(a);
    GP_CHECK_ARRAY(b);
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_may_share_memory: out is NULL");
    *out = 0;
    if (a->buf != b->buf || a->size == 0 || b->size == 0)
        return GP_OK;
    int64_t alo, ahi, blo, bhi;
    byte_extent(a, &alo, &ahi);
    byte_extent(b, &blo, &bhi);
    *out = alo < bhi && blo < ahi;
    return GP_OK;
}

GP_API gp_status_t gp_array_set_readonly(gp_array_t *a)
{
    GP_CHECK_ARRAY(a);
    a->flags &= ~GP_FLAG_WRITEABLE;
    return GP_OK;
}

/* ---- views -------------------------------------------------------------- */

GP_API gp_status_t gp_array_transpose(const gp_array_t *a, int32_t naxes, const int32_t *axes,
                                      gp_array_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_transpose: out is NULL");
    *out = NULL;
    GP_CHECK_ARRAY(a);
    int32_t nd = a->ndim, perm[GP_MAXDIM];
    if (!axes || naxes == 0) {
        if (axes && nd != 0)
            return gp_set_error(GP_ERR_VALUE, "axes don't match array");
        for (int32_t k = 0; k < nd; ++k)
            perm[k] = nd - 1 - k;
    } else {
        if (naxes != nd)
            return gp_set_error(GP_ERR_VALUE, "axes don't match array");
        bool seen[GP_MAXDIM] = {false};
        for (int32_t k = 0; k < nd; ++k) {
            GP_TRY(gp_normalize_axis(axes[k], nd, &perm[k]));
            if (seen[perm[k]])
                return gp_set_error(GP_ERR_VALUE, "repeated axis in transpose");
            seen[perm[k]] = true;
        }
    }
    int64_t shape[GP_MAXDIM], strides[GP_MAXDIM];
    for (int32_t k = 0; k < nd; ++k) {
        shape[k] = a->shape[perm[k]];
        strides[k] = a->strides[perm[k]];
    }
    return gp_array_new_view(a, nd, shape, strides, a->offset, out);
}

/* CPython's slice semantics for a dimension of `len` elements. */
static gp_status_t slice_adjust(int64_t len, int32_t present, int64_t start, int64_t stop,
                                int64_t step, int64_t *ostart, int64_t *ostep, int64_t *olen)
{
    if (!(present & GP_SLICE_STEP))
        step = 1;
    if (step == 0)
        return gp_set_error(GP_ERR_VALUE, "slice step cannot be zero");
    if (step < -INT64_MAX)
        step = -INT64_MAX;
    if (!(present & GP_SLICE_START)) {
        start = step < 0 ? len - 1 : 0;
    } else if (start < 0) {
        start = start < -len ? (step < 0 ? -1 : 0) : start + len;
    } else if (start >= len) {
        start = step < 0 ? len - 1 : len;
    }
    if (!(present & GP_SLICE_STOP)) {
        stop = step < 0 ? -1 : len;
    } else if (stop < 0) {
        stop = stop < -len ? (step < 0 ? -1 : 0) : stop + len;
    } else if (stop >= len) {
        stop = step < 0 ? len - 1 : len;
    }
    int64_t n = 0;
    if (step < 0) {
        if (stop < start)
            n = (start - stop - 1) / (-step) + 1;
    } else if (start < stop) {
        n = (stop - start - 1) / step + 1;
    }
    *ostart = start;
    *ostep = step;
    *olen = n;
    return GP_OK;
}

/* The stride of a slice of `len` elements stepping by `step`. A slice of
 * at most one element never steps, and its step may be as large as
 * INT64_MAX, where step * stride would overflow. */
static int64_t slice_stride(int64_t len, int64_t step, int64_t stride)
{
    int64_t r;
    /* NumPy reports step * stride even for one element; only where that
     * overflows (then len <= 1: a longer slice stays inside its buffer) is
     * the stride kept */
    if (__builtin_mul_overflow(step, stride, &r))
        return stride;
    (void)len;
    return r;
}

static gp_status_t index_error_int(int64_t idx, int32_t axis, int64_t len)
{
    return gp_set_error(GP_ERR_INDEX, "index %lld is out of bounds for axis %d with size %lld",
                        (long long)idx, axis, (long long)len);
}

GP_API gp_status_t gp_array_index(const gp_array_t *a, int32_t n, const gp_index_item_t *items,
                                  gp_array_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_index: out is NULL");
    *out = NULL;
    GP_CHECK_ARRAY(a);
    if (n > 0 && !items)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_index: items is NULL");
    int32_t consumed = 0, ellipses = 0, added = 0;
    for (int32_t k = 0; k < n; ++k) {
        switch (items[k].kind) {
        case GP_INDEX_INT: case GP_INDEX_SLICE: ++consumed; break;
        case GP_INDEX_NEWAXIS: ++added; break;
        case GP_INDEX_ELLIPSIS: ++ellipses; break;
        default: return gp_set_error(GP_ERR_MISUSE, "bad index item kind %d", items[k].kind);
        }
    }
    if (ellipses > 1)
        return gp_set_error(GP_ERR_INDEX, "an index can only have a single ellipsis ('...')");
    if (consumed > a->ndim)
        return gp_set_error(GP_ERR_INDEX, "too many indices for array: array is "
                                          "%d-dimensional, but %d were indexed",
                            a->ndim, consumed);
    int32_t out_nd = a->ndim + added;
    for (int32_t k = 0; k < n; ++k)
        if (items[k].kind == GP_INDEX_INT)
            --out_nd;
    if (out_nd > GP_MAXDIM)
        return gp_set_error(GP_ERR_INDEX, "number of dimensions must be within [0, %d], but "
                                          "the index gives %d", GP_MAXDIM, out_nd);
    int64_t shape[GP_MAXDIM], strides[GP_MAXDIM], offset = a->offset;
    int32_t src = 0, dst = 0;
    for (int32_t k = 0; k < n; ++k) {
        const gp_index_item_t *it = &items[k];
        switch (it->kind) {
        case GP_INDEX_INT: {
            int64_t len = a->shape[src], i = it->start;
            if (i < -len || i >= len)
                return index_error_int(i, src, len);
            if (i < 0)
                i += len;
            offset += i * a->strides[src];
            ++src;
            break;
        }
        case GP_INDEX_SLICE: {
            int64_t start, step, len;
            GP_TRY(slice_adjust(a->shape[src], it->present, it->start, it->stop, it->step,
                                &start, &step, &len));
            if (len > 0)
                offset += start * a->strides[src];
            shape[dst] = len;
            strides[dst] = slice_stride(len, step, a->strides[src]);
            ++src, ++dst;
            break;
        }
        case GP_INDEX_NEWAXIS:
            shape[dst] = 1;
            strides[dst] = 0;
            ++dst;
            break;
        default: { /* ellipsis: the dimensions no item names */
            int32_t skip = a->ndim - consumed;
            for (int32_t j = 0; j < skip; ++j, ++src, ++dst) {
                shape[dst] = a->shape[src];
                strides[dst] = a->strides[src];
            }
        }
        }
    }
    for (; src < a->ndim; ++src, ++dst) {
        shape[dst] = a->shape[src];
        strides[dst] = a->strides[src];
    }
    return gp_array_new_view(a, dst, shape, strides, offset, out);
}

GP_API gp_status_t gp_array_slice(const gp_array_t *a, int32_t present, int64_t start,
                                  int64_t stop, int64_t step, gp_array_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_slice: out is NULL");
    *out = NULL;
    GP_CHECK_ARRAY(a);
    if (a->ndim == 0)
        return gp_set_error(GP_ERR_INDEX, "too many indices for array: array is "
                                          "0-dimensional, but 1 were indexed");
    int64_t s, st, len;
    GP_TRY(slice_adjust(a->shape[0], present, start, stop, step, &s, &st, &len));
    int64_t shape[GP_MAXDIM], strides[GP_MAXDIM];
    memcpy(shape, a->shape, (size_t)a->ndim * sizeof *shape);
    memcpy(strides, a->strides, (size_t)a->ndim * sizeof *strides);
    shape[0] = len;
    strides[0] = slice_stride(len, st, a->strides[0]);
    return gp_array_new_view(a, a->ndim, shape, strides,
                             a->offset + (len > 0 ? s * a->strides[0] : 0), out);
}

GP_API gp_status_t gp_array_squeeze(const gp_array_t *a, int32_t naxes, const int32_t *axes,
                                    gp_array_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_squeeze: out is NULL");
    *out = NULL;
    GP_CHECK_ARRAY(a);
    bool drop[GP_MAXDIM];
    if (!axes) {
        for (int32_t k = 0; k < a->ndim; ++k)
            drop[k] = a->shape[k] == 1;
    } else {
        GP_TRY(gp_axes_to_mask(naxes, axes, a->ndim, drop));
        for (int32_t k = 0; k < a->ndim; ++k)
            if (drop[k] && a->shape[k] != 1)
                return gp_set_error(GP_ERR_VALUE, "cannot select an axis to squeeze out "
                                                  "which has size not equal to one");
    }
    int64_t shape[GP_MAXDIM], strides[GP_MAXDIM];
    int32_t nd = 0;
    for (int32_t k = 0; k < a->ndim; ++k)
        if (!drop[k]) {
            shape[nd] = a->shape[k];
            strides[nd++] = a->strides[k];
        }
    return gp_array_new_view(a, nd, shape, strides, a->offset, out);
}

GP_API gp_status_t gp_array_broadcast_to(const gp_array_t *a, int32_t ndim,
                                         const int64_t *shape, gp_array_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_broadcast_to: out is NULL");
    *out = NULL;
    GP_CHECK_ARRAY(a);
    if (ndim > 0 && !shape)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_broadcast_to: shape is NULL");
    if (ndim < 0 || ndim > GP_MAXDIM)
        return gp_set_error(GP_ERR_VALUE, "invalid number of dimensions %d", ndim);
    for (int32_t k = 0; k < ndim; ++k)
        if (shape[k] < 0)
            return gp_set_error(GP_ERR_VALUE, "all elements of broadcast shape must be "
                                              "non-negative");
    if (a->ndim > ndim)
        return gp_set_error(GP_ERR_VALUE, "input operand has more dimensions than allowed "
                                          "by the axis remapping");
    GP_TRY(check_view_size(a->dtype, ndim, shape));
    int64_t strides[GP_MAXDIM];
    int32_t off = ndim - a->ndim;
    for (int32_t k = 0; k < ndim; ++k) {
        if (k < off) {
            strides[k] = 0;
            continue;
        }
        int64_t s = a->shape[k - off];
        if (s == shape[k]) {
            strides[k] = s == 1 ? 0 : a->strides[k - off];
        } else if (s == 1) {
            strides[k] = 0;
        } else {
            char sa[512], sb[512];
            gp_shape_format(a->ndim, a->shape, sa, sizeof sa);
            gp_shape_format(ndim, shape, sb, sizeof sb);
            return gp_set_error(GP_ERR_VALUE_BROADCAST,
                                "operands could not be broadcast together with remapped "
                                "shapes [original->remapped]: %s  and requested shape %s",
                                sa, sb);
        }
    }
    GP_TRY(gp_array_new_view(a, ndim, shape, strides, a->offset, out));
    (*out)->flags &= ~GP_FLAG_WRITEABLE;
    return GP_OK;
}

GP_API gp_status_t gp_array_as_strided(const gp_array_t *a, int32_t dtype, int32_t ndim,
                                       const int64_t *shape,
                                       const int64_t *strides, int64_t offset,
                                       gp_array_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_as_strided: out is NULL");
    *out = NULL;
    GP_CHECK_ARRAY(a);
    if (ndim > 0 && (!shape || !strides))
        return gp_set_error(GP_ERR_MISUSE, "gp_array_as_strided: shape or strides is NULL");
    if (dtype == -1)
        dtype = a->dtype;
    if (!gp_dtype_valid(dtype))
        return gp_set_error(GP_ERR_TYPE, "invalid dtype code %d", dtype);
    if (ndim < 0 || ndim > GP_MAXDIM)
        return gp_set_error(GP_ERR_VALUE, "invalid number of dimensions %d", ndim);
    for (int32_t k = 0; k < ndim; ++k)
        if (shape[k] < 0)
            return gp_set_error(GP_ERR_VALUE, "negative dimensions are not allowed");
    GP_TRY(check_view_size(dtype, ndim, shape));
    int64_t size = gp_shape_size(ndim, shape);
    int64_t start;
    if (__builtin_add_overflow(a->offset, offset, &start))
        return gp_set_error(GP_ERR_VALUE, "the view reaches outside the array's memory");
    /* an empty view reads nothing and may start anywhere, as NumPy's (the
     * imaginary part of an empty complex array starts past its buffer); its
     * data pointer is kept inside the buffer, so no pointer arithmetic on it
     * overflows and any view made relative to it is still checked here */
    if (size == 0 && (start < 0 || start > (int64_t)a->buf->size))
        start = start < 0 ? 0 : (int64_t)a->buf->size;
    if (size > 0) {
        /* [lo, hi) is every byte the view can reach; any overflow on the
         * way means it reaches far outside */
        int64_t lo = start, hi = start;
        bool over = __builtin_add_overflow(hi, (int64_t)gp_dtype_size(dtype), &hi);
        for (int32_t k = 0; k < ndim && !over; ++k) {
            int64_t span;
            over = __builtin_mul_overflow(shape[k] - 1, strides[k], &span) ||
                   __builtin_add_overflow(span < 0 ? lo : hi, span, span < 0 ? &lo : &hi);
        }
        if (over || lo < 0 || hi > (int64_t)a->buf->size)
            return gp_set_error(GP_ERR_VALUE, "the view reaches outside the array's memory");
    }
    /* kernels load an element as its type, which a GPU requires aligned;
     * an empty view loads nothing (and NumPy calls it aligned) */
    int64_t align = gp_dtypes[dtype].alignment;
    bool misaligned = size > 0 &&
                      ((uintptr_t)a->buf->ptr + (uint64_t)start) % (uint64_t)align != 0;
    for (int32_t k = 0; k < ndim && size > 0; ++k)
        misaligned |= shape[k] > 1 && strides[k] % align != 0;
    if (misaligned)
        return gp_set_error(GP_ERR_VALUE, "the view's %s elements would not be aligned to "
                                          "%lld bytes, which a device cannot load",
                            gp_dtypes[dtype].name, (long long)align);
    gp_buffer_retain(a->buf);
    gp_array_t *v = gp_array_wrap(a->buf, dtype, ndim, shape, strides, start,
                                  (a->flags & GP_FLAG_WRITEABLE) != 0);
    if (!v) {
        gp_buffer_release(a->buf);
        return GP_ERR_NOMEM;
    }
    *out = v;
    return GP_OK;
}
