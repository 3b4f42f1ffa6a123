/*
 * interop.c - arrays over memory other libraries own (raw pointers, DLPack
 * imports) and DLPack exports of gpunp's arrays.
 */
#include <stdlib.h>
#include <string.h>

#include "../third_party/dlpack/dlpack.h"
#include "array.h"

static void no_free(void *ctx) { (void)ctx; }

/* The byte range [lo, hi) relative to element 0 that a layout reaches. */
static void extent(int32_t ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize,
                   int64_t *lo, int64_t *hi)
{
    *lo = 0;
    *hi = itemsize;
    if (gp_shape_size(ndim, shape) == 0) {
        *hi = 0;
        return;
    }
    for (int32_t k = 0; k < ndim; ++k) {
        int64_t span = (shape[k] - 1) * strides[k];
        if (span < 0)
            *lo += span;
        else
            *hi += span;
    }
}

/* An array over [base + lo, base + hi) with element 0 at base; the buffer
 * runs `deleter(ctx)` when it goes. */
static gp_status_t wrap_external(uintptr_t base, int32_t dtype, int32_t ndim, const int64_t *shape,
                                 const int64_t *strides, int32_t device, int32_t readonly,
                                 void (*deleter)(void *), void *ctx, gp_array_t **out)
{
    int64_t lo, hi;
    extent(ndim, shape, strides, gp_dtype_size(dtype), &lo, &hi);
    gp_buffer_t *b = malloc(sizeof *b);
    if (!b)
        return gp_set_error(GP_ERR_NOMEM, "out of host memory for a buffer descriptor");
    gp_buffer_init(b, (void *)(base + (uintptr_t)lo), (size_t)(hi - lo), device, NULL, deleter,
                   ctx);
    gp_array_t *a = gp_array_wrap(b, dtype, ndim, shape, strides, -lo, !readonly);
    if (!a) {
        b->deleter = no_free; /* the caller still owns the memory */
        gp_buffer_release(b);
        return GP_ERR_NOMEM;
    }
    *out = a;
    return GP_OK;
}

static gp_status_t check_layout(int32_t dtype, int32_t ndim, const int64_t *shape)
{
    if (!gp_dtype_valid(dtype))
        return gp_set_error(GP_ERR_TYPE, "invalid dtype code %d", dtype);
    if (ndim < 0 || ndim > GP_MAXDIM)
        return gp_set_error(GP_ERR_VALUE, "invalid number of dimensions %d", ndim);
    if (ndim > 0 && !shape)
        return gp_set_error(GP_ERR_MISUSE, "shape is NULL");
    for (int32_t k = 0; k < ndim; ++k)
        if (shape[k] < 0)
            return gp_set_error(GP_ERR_VALUE, "negative dimensions are not allowed");
    if (gp_shape_size(ndim, shape) < 0)
        return gp_set_error(GP_ERR_VALUE, "array is too big");
    return GP_OK;
}

GP_API gp_status_t gp_array_from_pointer(uint64_t ptr, int32_t dtype, int32_t ndim,
                                         const int64_t *shape, const int64_t *strides,
                                         int32_t device, int32_t readonly, gp_array_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_from_pointer: out is NULL");
    *out = NULL;
    GP_TRY(check_layout(dtype, ndim, shape));
    int64_t st[GP_MAXDIM];
    if (strides)
        memcpy(st, strides, (size_t)ndim * sizeof *st);
    else
        gp_strides_contiguous(ndim, shape, gp_dtype_size(dtype), GP_ORDER_C, st);
    if (!ptr && gp_shape_size(ndim, shape) > 0)
        return gp_set_error(GP_ERR_VALUE, "a NULL pointer for a non-empty array");
    return wrap_external((uintptr_t)ptr, dtype, ndim, shape, st, device, readonly, no_free, NULL,
                         out);
}

/* ---- DLPack ------------------------------------------------------------------------- */

static bool dl_of_dtype(int32_t dt, DLDataType *out)
{
    static const uint8_t codes[GP_NDTYPES] = {
        [GP_BOOL] = kDLBool, [GP_INT8] = kDLInt, [GP_UINT8] = kDLUInt, [GP_INT16] = kDLInt,
        [GP_UINT16] = kDLUInt, [GP_INT32] = kDLInt, [GP_UINT32] = kDLUInt, [GP_INT64] = kDLInt,
        [GP_UINT64] = kDLUInt, [GP_FLOAT16] = kDLFloat, [GP_BFLOAT16] = kDLBfloat,
        [GP_FLOAT32] = kDLFloat,
        [GP_FLOAT64] = kDLFloat, [GP_COMPLEX64] = kDLComplex, [GP_COMPLEX128] = kDLComplex};
    out->code = codes[dt];
    out->bits = (uint8_t)(8 * gp_dtype_size(dt));
    out->lanes = 1;
    return true;
}

static int32_t dtype_of_dl(DLDataType t)
{
    if (t.lanes != 1)
        return -1;
    for (int32_t dt = 0; dt < GP_NDTYPES; ++dt) {
        DLDataType d;
        dl_of_dtype(dt, &d);
        if (d.code == t.code && d.bits == t.bits)
            return dt;
    }
    return -1;
}

/* What an export holds: the DLPack struct first, then the shape and
 * strides it points to. */
typedef struct {
    struct DLManagedTensorVersioned v;
    gp_array_t *array;
    int64_t dims[];
} export_versioned_t;

typedef struct {
    DLManagedTensor m;
    gp_array_t *array;
    int64_t dims[];
} export_legacy_t;

static void delete_versioned(struct DLManagedTensorVersioned *self)
{
    export_versioned_t *e = (export_versioned_t *)self;
    gp_array_release(e->array);
    free(e);
}

static void delete_legacy(DLManagedTensor *self)
{
    export_legacy_t *e = (export_legacy_t *)self;
    gp_array_release(e->array);
    free(e);
}

static void fill_tensor(DLTensor *t, gp_array_t *a, int64_t *dims, const DLDevice *dev)
{
    memset(t, 0, sizeof *t);
    t->data = a->size ? gp_array_data(a) : NULL;
    t->device = *dev;
    t->ndim = a->ndim;
    dl_of_dtype(a->dtype, &t->dtype);
    t->shape = dims;
    t->strides = dims + a->ndim;
    int64_t isz = gp_dtype_size(a->dtype);
    for (int32_t k = 0; k < a->ndim; ++k) {
        dims[k] = a->shape[k];
        dims[a->ndim + k] = a->strides[k] / isz;
    }
    t->byte_offset = 0;
}

GP_API gp_status_t gp_array_to_dlpack(gp_array_t *a, int32_t versioned, void **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_to_dlpack: out is NULL");
    *out = NULL;
    GP_CHECK_ARRAY(a);
    int64_t isz = gp_dtype_size(a->dtype);
    for (int32_t k = 0; k < a->ndim; ++k)
        if (a->strides[k] % isz != 0)
            return gp_set_error(GP_ERR_VALUE, "DLPack counts strides in elements, and this "
                                              "view's are not whole elements");
    const gp_backend_i *be = gp_backend_running();
    DLDevice dev = {be ? (DLDeviceType)be->dl_device_type : kDLCPU,
                    be && be->dl_device_type != GP_DL_CPU ? a->buf->device : 0};
    size_t dims = 2 * (size_t)a->ndim * sizeof(int64_t);
    gp_array_retain(a);
    if (versioned) {
        export_versioned_t *e = calloc(1, sizeof *e + dims);
        if (!e) {
            gp_array_release(a);
            return gp_set_error(GP_ERR_NOMEM, "out of host memory for a DLPack tensor");
        }
        e->v.version.major = DLPACK_MAJOR_VERSION;
        e->v.version.minor = DLPACK_MINOR_VERSION;
        e->v.manager_ctx = a;
        e->v.deleter = delete_versioned;
        e->v.flags = (a->flags & GP_FLAG_WRITEABLE) ? 0 : DLPACK_FLAG_BITMASK_READ_ONLY;
        e->array = a;
        fill_tensor(&e->v.dl_tensor, a, e->dims, &dev);
        *out = e;
    } else {
        export_legacy_t *e = calloc(1, sizeof *e + dims);
        if (!e) {
            gp_array_release(a);
            return gp_set_error(GP_ERR_NOMEM, "out of host memory for a DLPack tensor");
        }
        e->m.manager_ctx = a;
        e->m.deleter = delete_legacy;
        e->array = a;
        fill_tensor(&e->m.dl_tensor, a, e->dims, &dev);
        *out = e;
    }
    return GP_OK;
}

static void call_versioned_deleter(void *ctx)
{
    struct DLManagedTensorVersioned *m = ctx;
    if (m->deleter)
        m->deleter(m);
}

static void call_legacy_deleter(void *ctx)
{
    DLManagedTensor *m = ctx;
    if (m->deleter)
        m->deleter(m);
}

GP_API gp_status_t gp_array_from_dlpack(void *managed, int32_t versioned, gp_array_t **out)
{
    if (!out || !managed)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_from_dlpack: NULL argument");
    *out = NULL;
    const DLTensor *t;
    int32_t readonly = 0;
    if (versioned) {
        struct DLManagedTensorVersioned *m = managed;
        if (m->version.major != DLPACK_MAJOR_VERSION)
            return gp_set_error(GP_ERR_UNSUPPORTED, "DLPack version %u.%u is not supported "
                                                    "(gpunp reads %d.x)", m->version.major,
                                m->version.minor, DLPACK_MAJOR_VERSION);
        t = &m->dl_tensor;
        readonly = (m->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
    } else {
        t = &((DLManagedTensor *)managed)->dl_tensor;
    }
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    bool ok_device = (int32_t)t->device.device_type == be->dl_device_type;
    if (!ok_device)
        return gp_set_error(GP_ERR_UNSUPPORTED, "a DLPack tensor on device type %d cannot be "
                                                "used by the %s backend without a copy",
                            (int)t->device.device_type, be->name);
    int32_t dt = dtype_of_dl(t->dtype);
    if (dt < 0)
        return gp_set_error(GP_ERR_TYPE, "DLPack dtype (code %u, %u bits, %u lanes) has no "
                                         "gpunp dtype", t->dtype.code, t->dtype.bits,
                            t->dtype.lanes);
    GP_TRY(check_layout(dt, t->ndim, t->shape));
    int64_t isz = gp_dtype_size(dt), st[GP_MAXDIM];
    if (t->strides) {
        for (int32_t k = 0; k < t->ndim; ++k)
            st[k] = t->strides[k] * isz;
    } else {
        gp_strides_contiguous(t->ndim, t->shape, isz, GP_ORDER_C, st);
    }
    uintptr_t base = (uintptr_t)t->data + (uintptr_t)t->byte_offset;
    int32_t device = be->dl_device_type == GP_DL_CPU ? 0 : t->device.device_id;
    return wrap_external(base, dt, t->ndim, t->shape, st, device, readonly,
                         versioned ? call_versioned_deleter : call_legacy_deleter, managed, out);
}

GP_API gp_status_t gp_dlpack_delete(void *managed, int32_t versioned)
{
    if (!managed)
        return GP_OK;
    if (versioned)
        call_versioned_deleter(managed);
    else
        call_legacy_deleter(managed);
    return GP_OK;
}
