/*
 * shape.c - shapes, strides, axes, broadcasting and iteration plans.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

int64_t gp_shape_size(int32_t ndim, const int64_t *shape)
{
    int64_t n = 1;
    bool overflow = false;
    for (int32_t k = 0; k < ndim; ++k) {
        if (shape[k] == 0)
            return 0;
        if (__builtin_mul_overflow(n, shape[k], &n))
            overflow = true;
    }
    return overflow ? -1 : n;
}

bool gp_shape_fits(int32_t ndim, const int64_t *shape, int64_t itemsize, int64_t *nbytes)
{
    int64_t n = itemsize;
    bool empty = false;
    for (int32_t k = 0; k < ndim; ++k) {
        if (shape[k] == 0)
            empty = true;
        else if (__builtin_mul_overflow(n, shape[k], &n))
            return false;
    }
    *nbytes = empty ? 0 : n;
    return true;
}

/* The running product saturates rather than overflows: a shape that does
 * not fit (gp_shape_fits) is refused by the caller, and until then the
 * strides are only numbers. */
static int64_t times_dim(int64_t s, int64_t dim)
{
    int64_t r;
    return __builtin_mul_overflow(s, dim > 0 ? dim : 1, &r) ? INT64_MAX : r;
}

void gp_strides_contiguous(int32_t ndim, const int64_t *shape, int64_t itemsize, int32_t order,
                           int64_t *strides)
{
    int64_t s = itemsize;
    if (order == GP_ORDER_F) {
        for (int32_t k = 0; k < ndim; ++k) {
            strides[k] = s;
            s = times_dim(s, shape[k]);
        }
    } else {
        for (int32_t k = ndim - 1; k >= 0; --k) {
            strides[k] = s;
            s = times_dim(s, shape[k]);
        }
    }
}

/* NumPy's definition: dimensions of length 1 may have any stride, and an
 * empty array is contiguous both ways. */
bool gp_is_c_contiguous(int32_t ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize)
{
    if (gp_shape_size(ndim, shape) == 0)
        return true;
    int64_t s = itemsize;
    for (int32_t k = ndim - 1; k >= 0; --k) {
        if (shape[k] != 1) {
            if (strides[k] != s || __builtin_mul_overflow(s, shape[k], &s))
                return false;
        }
    }
    return true;
}

bool gp_is_f_contiguous(int32_t ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize)
{
    if (gp_shape_size(ndim, shape) == 0)
        return true;
    int64_t s = itemsize;
    for (int32_t k = 0; k < ndim; ++k) {
        if (shape[k] != 1) {
            if (strides[k] != s || __builtin_mul_overflow(s, shape[k], &s))
                return false;
        }
    }
    return true;
}

void gp_shape_format(int32_t ndim, const int64_t *shape, char *buf, size_t n)
{
    size_t used = 0;
    if (n == 0)
        return;
    buf[0] = '\0';
#define PUT(...)                                                         \
    do {                                                                 \
        int w_ = snprintf(buf + used, used < n ? n - used : 0, __VA_ARGS__); \
        if (w_ > 0) used += (size_t)w_;                                  \
    } while (0)
    PUT("(");
    for (int32_t k = 0; k < ndim; ++k)
        PUT(k ? ",%lld" : "%lld", (long long)shape[k]);
    PUT(ndim == 1 ? ",)" : ")");
#undef PUT
}

gp_status_t gp_normalize_axis(int32_t axis, int32_t ndim, int32_t *out)
{
    if (axis < -ndim || axis >= ndim)
        return gp_set_error(GP_ERR_AXIS, "axis %d is out of bounds for array of dimension %d",
                            axis, ndim);
    *out = axis < 0 ? axis + ndim : axis;
    return GP_OK;
}

gp_status_t gp_axes_to_mask(int32_t naxes, const int32_t *axes, int32_t ndim, bool *mask)
{
    if (!axes) {
        for (int32_t k = 0; k < ndim; ++k)
            mask[k] = true;
        return GP_OK;
    }
    for (int32_t k = 0; k < ndim; ++k)
        mask[k] = false;
    for (int32_t j = 0; j < naxes; ++j) {
        int32_t ax;
        GP_TRY(gp_normalize_axis(axes[j], ndim, &ax));
        if (mask[ax])
            return gp_set_error(GP_ERR_VALUE, "duplicate value in 'axis'");
        mask[ax] = true;
    }
    return GP_OK;
}

/* unsigned, so INT64_MIN (a stride an axis of length 1 may carry) has one */
static uint64_t abs64(int64_t x) { return x < 0 ? 0 - (uint64_t)x : (uint64_t)x; }

void gp_best_axis_order(int32_t ndim, int32_t n, const int64_t *const *strides, int32_t *perm)
{
    /* Insertion sort from the innermost axis outwards. An axis moves inside
     * another when every operand that steps along both steps further along
     * the other; operands with a zero stride on either have no say, and
     * equal strides or disagreement keep C order. */
    for (int32_t k = 0; k < ndim; ++k)
        perm[k] = k;
    for (int32_t i = ndim - 2; i >= 0; --i) {
        int32_t ax = perm[i];
        int32_t pos = i;
        for (int32_t j = i + 1; j < ndim; ++j) {
            int32_t other = perm[j];
            bool swap = false, keep = false;
            for (int32_t op = 0; op < n; ++op) {
                if (!strides[op])
                    continue;
                uint64_t sa = abs64(strides[op][ax]), sb = abs64(strides[op][other]);
                if (sa == 0 || sb == 0)
                    continue;
                if (sb <= sa)
                    keep = true; /* on conflict C order wins */
                else
                    swap = true;
            }
            if (keep)
                break;
            if (swap)
                pos = j;
            /* ambiguous (no operand steps along both): look further in */
        }
        if (pos != i) {
            memmove(&perm[i], &perm[i + 1], (size_t)(pos - i) * sizeof *perm);
            perm[pos] = ax;
        }
    }
}

/* ---- broadcasting ------------------------------------------------------ */

GP_API gp_status_t gp_broadcast_shapes(int32_t n, const int32_t *ndims,
                                       const int64_t *const *shapes, int32_t *out_ndim,
                                       int64_t *out_shape)
{
    if (!out_ndim || !out_shape || (n > 0 && (!ndims || !shapes)))
        return gp_set_error(GP_ERR_MISUSE, "gp_broadcast_shapes: NULL argument");
    int32_t nd = 0;
    for (int32_t k = 0; k < n; ++k) {
        if (ndims[k] < 0 || ndims[k] > GP_MAXDIM)
            return gp_set_error(GP_ERR_VALUE, "invalid number of dimensions %d", ndims[k]);
        if (ndims[k] > nd)
            nd = ndims[k];
    }
    for (int32_t d = 0; d < nd; ++d)
        out_shape[d] = 1;
    for (int32_t k = 0; k < n; ++k) {
        int32_t off = nd - ndims[k];
        for (int32_t d = 0; d < ndims[k]; ++d) {
            int64_t s = shapes[k][d], *o = &out_shape[off + d];
            if (s == *o || s == 1)
                continue;
            if (*o == 1) {
                *o = s;
                continue;
            }
            /* NumPy's message lists every operand's shape */
            char msg[1024];
            size_t used = 0;
            used += (size_t)snprintf(msg, sizeof msg,
                                     "operands could not be broadcast together with shapes ");
            for (int32_t j = 0; j < n && used < sizeof msg; ++j) {
                char sh[256];
                gp_shape_format(ndims[j], shapes[j], sh, sizeof sh);
                used += (size_t)snprintf(msg + used, sizeof msg - used, "%s ", sh);
            }
            return gp_set_error(GP_ERR_VALUE_BROADCAST, "%s", msg);
        }
    }
    *out_ndim = nd;
    return GP_OK;
}

/* ---- iteration plans ---------------------------------------------------- */

void gp_iter_init(gp_iter_t *it, int32_t ndim, const int64_t *shape, int32_t nop,
                  const int32_t *op_ndim, const int64_t *const *op_shape,
                  const int64_t *const *strides)
{
    it->ndim = ndim;
    it->nop = nop;
    memcpy(it->shape, shape, (size_t)ndim * sizeof *shape);
    for (int32_t op = 0; op < nop; ++op) {
        int32_t off = ndim - (strides[op] ? op_ndim[op] : 0);
        for (int32_t d = 0; d < ndim; ++d) {
            int64_t s = 0;
            if (strides[op] && d >= off && op_shape[op][d - off] != 1)
                s = strides[op][d - off];
            it->strides[op][d] = s;
        }
    }
}

void gp_iter_collapse(gp_iter_t *it, int32_t ref)
{
    int32_t nd = it->ndim, nop = it->nop;
    if (gp_shape_size(nd, it->shape) == 0) {
        it->ndim = 1;
        it->shape[0] = 0;
        for (int32_t op = 0; op < nop; ++op)
            it->strides[op][0] = 0;
        return;
    }
    /* 1. order dimensions so the reference operand is walked in memory
     *    order (outermost = largest stride); stable, so ties keep C order */
    int32_t perm[GP_MAXDIM];
    const int64_t *rs[1] = {it->strides[ref]};
    gp_best_axis_order(nd, 1, rs, perm);
    int64_t shape[GP_MAXDIM], strides[GP_MAX_OPERANDS][GP_MAXDIM];
    int32_t m = 0;
    for (int32_t k = 0; k < nd; ++k) {
        int32_t d = perm[k];
        if (it->shape[d] == 1)
            continue; /* 2. drop length-1 dimensions */
        shape[m] = it->shape[d];
        for (int32_t op = 0; op < nop; ++op)
            strides[op][m] = it->strides[op][d];
        ++m;
    }
    /* 3. merge dimension k into k+1 (its inner neighbour) when every operand
     *    steps from the end of one row of k+1 to the next row exactly */
    int32_t out = 0;
    for (int32_t k = 0; k < m; ++k) {
        if (out > 0) {
            bool merge = true;
            for (int32_t op = 0; op < nop && merge; ++op)
                merge = strides[op][out - 1] == strides[op][k] * shape[k];
            if (merge) {
                shape[out - 1] *= shape[k];
                for (int32_t op = 0; op < nop; ++op)
                    strides[op][out - 1] = strides[op][k];
                continue;
            }
        }
        shape[out] = shape[k];
        for (int32_t op = 0; op < nop; ++op)
            strides[op][out] = strides[op][k];
        ++out;
    }
    if (out == 0) { /* every dimension had length 1: one element */
        out = 1;
        shape[0] = 1;
        for (int32_t op = 0; op < nop; ++op)
            strides[op][0] = 0;
    }
    it->ndim = out;
    memcpy(it->shape, shape, (size_t)out * sizeof *shape);
    for (int32_t op = 0; op < nop; ++op)
        memcpy(it->strides[op], strides[op], (size_t)out * sizeof **strides);
}
