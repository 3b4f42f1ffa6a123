/*
 * fuzz_abi.c - a libFuzzer harness for the C ABI (`make fuzz`).
 *
 * An input is a small program of ABI calls over a file of eight array
 * handles: creations (shapes with zero, negative and huge dimensions, bad
 * dtypes and orders), views (slices, basic indices, transposes, reshapes,
 * squeezes, broadcasts, as_strided), operations (ufuncs, reductions with an
 * `initial`, means, scans, arg-extremes, sorts, searchsorted, gathers,
 * scatters, nonzero, masks, arange, matmul, copies, casts, assignments,
 * fills), host transfers, retains, releases and uses of released handles.
 * Whatever the program does, every call must return a status of the ABI's
 * list, give NULL out-pointers when it fails, and describe what it made
 * consistently when it succeeds; the sanitizers watch the rest, in the
 * kernels too when they are compiled with ASan (`make fuzz` does).
 *
 * Speed: a new kernel costs a C compile (tens of milliseconds), so arrays
 * come in four dtypes and the ufuncs are five; the kernel cache (memory,
 * then the disk cache of GPUNP_CACHE_DIR) warms within the minute, and the
 * views and argument checks, where most decoding goes, never compile. No
 * array an operation could make from the handles exceeds CAP_BYTES (an
 * empty axis counted as one element: reducing it leaves the others): the
 * fuzzer tests the engine's checks, not the machine's memory.
 *
 * Nothing is steered around: released handles are called through,
 * shapes may overflow int64 in bytes or strides, as_strided gets any offset,
 * stride and alignment, and scalars any dtype code.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpunp.h"

#define NSLOTS 8
#define NDEAD 4
#define MAX_CALLS 48
#define CAP_BYTES ((int64_t)1 << 20)
/* room for the most dimensions a program names (read_shape), past GP_MAXDIM */
#define NDIM_ROOM 100

/* ---- the input ------------------------------------------------------------ */

typedef struct {
    const uint8_t *p;
    size_t n;
} input_t;

static uint8_t u8(input_t *in)
{
    if (!in->n)
        return 0;
    --in->n;
    return *in->p++;
}

static uint32_t u16(input_t *in)
{
    uint32_t lo = u8(in);
    return lo | (uint32_t)u8(in) << 8;
}

/* Values where shape and stride arithmetic goes wrong. */
static const int64_t SPECIAL[] = {
    -1, -2, INT64_MIN, INT64_MAX, INT64_MAX - 1, (int64_t)1 << 62, -((int64_t)1 << 62),
    (int64_t)1 << 31, ((int64_t)1 << 31) - 1, (int64_t)1 << 32, (int64_t)1 << 40,
    ((int64_t)1 << 63) / 3, 1 << 20, 65, 64, 1000,
};
#define NSPECIAL ((int)(sizeof SPECIAL / sizeof SPECIAL[0]))

/* A dimension: mostly 0 to 5, sometimes a special value. */
static int64_t dim(input_t *in)
{
    uint8_t b = u8(in);
    return b < 224 ? b % 6 : SPECIAL[b % NSPECIAL];
}

/* An index, a slice bound or step, a stride or an offset: small (signed,
 * scaled by 1, 2, 4 or 8 bytes) or special. */
static int64_t num(input_t *in)
{
    uint8_t b = u8(in);
    if (b >= 224)
        return SPECIAL[b % NSPECIAL];
    return ((int64_t)(b % 56) - 24) * ((int64_t)1 << (b / 56));
}

/* The dtypes arrays are made of; a kernel is compiled for each dtype (and
 * layout) an operation meets, so they are few. */
static const int32_t DTYPES[] = {GP_FLOAT64, GP_INT32, GP_BOOL, GP_UINT8};
#define NDTYPES ((int)(sizeof DTYPES / sizeof DTYPES[0]))

/* Codes no dtype has. */
static const int32_t BAD_DTYPES[] = {-1, GP_NDTYPES, 100000000, INT32_MIN, -2};

static int32_t dtype(input_t *in)
{
    uint8_t b = u8(in);
    return b < 240 ? DTYPES[b % NDTYPES] : BAD_DTYPES[b % 5];
}

/* ---- what the harness checks ------------------------------------------------ */

static int32_t ufuncs[5]; /* add, maximum, less, negative, sqrt */

static void fail(const char *what, const char *call, gp_status_t s)
{
    fprintf(stderr, "fuzz_abi: %s: %s; status %d (%s)%s%s\n", call, what, (int)s, gp_errstr(s),
            s != GP_OK ? ": " : "", s != GP_OK ? gp_errmsg() : "");
    abort();
}

/* The ABI's promises on every status: a known code; on failure, a NULL
 * handle out-pointer; on success, a handle whose description holds. */
static void check(const char *call, gp_status_t s, gp_array_t **out)
{
    if (GP_PRIMARY(s) > GP_ERR_NOT_FOUND)
        fail("an unknown status", call, s);
    if (!out)
        return;
    if (s != GP_OK) {
        if (*out)
            fail("a handle beside an error", call, s);
        return;
    }
    gp_array_info_t info;
    if (!*out || gp_array_get_info(*out, &info) != GP_OK)
        fail("no valid handle after success", call, s);
    int64_t size = 1, nbytes;
    bool over = false;
    if (info.ndim < 0 || info.ndim > GP_MAXDIM)
        fail("a bad ndim", call, s);
    for (int32_t k = 0; k < info.ndim; ++k) {
        if (info.shape[k] < 0)
            fail("a negative dimension", call, s);
        over |= __builtin_mul_overflow(size, info.shape[k], &size);
    }
    if (size == 0)
        over = false;
    if (over || info.size != size || __builtin_mul_overflow(size, info.itemsize, &nbytes) ||
        info.nbytes != nbytes)
        fail("a size or byte size that does not add up", call, s);
}

/* Whether a new array of `shape` is within the harness's bounds: at most
 * CAP_BYTES, or empty. */
static bool shape_ok(int32_t ndim, const int64_t *shape, int32_t dt)
{
    if (dt < 0 || dt >= GP_NDTYPES || ndim < 0 || ndim > GP_MAXDIM)
        return true; /* refused before any arithmetic */
    gp_dtype_info_t di;
    gp_dtype_get_info(dt, &di);
    int64_t bytes = di.itemsize;
    for (int32_t k = 0; k < ndim; ++k) {
        if (shape[k] <= 0)
            return true; /* empty, or refused */
        if (__builtin_mul_overflow(bytes, shape[k], &bytes))
            return true; /* too big: refused */
    }
    return bytes <= CAP_BYTES;
}

static bool shape_has_zero(int32_t ndim, const int64_t *shape)
{
    for (int32_t k = 0; k < ndim; ++k)
        if (shape[k] == 0)
            return true;
    return false;
}

/* Whether every array an operation can make from `a` stays within `cap`
 * bytes: its shape with empty dimensions counted as 1 (a reduction over an
 * empty axis has the other axes' elements), in the widest dtype. */
static bool small(const gp_array_t *a, int64_t cap)
{
    gp_array_info_t info;
    if (!a || gp_array_get_info(a, &info) != GP_OK)
        return true;
    int64_t bytes = 16;
    for (int32_t k = 0; k < info.ndim; ++k)
        if (__builtin_mul_overflow(bytes, info.shape[k] > 0 ? info.shape[k] : 1, &bytes))
            return false;
    return bytes <= cap;
}

/* ---- the program ----------------------------------------------------------- */

/* The harness owns one reference for each slot holding a handle (a slot
 * may share its handle with another, after a retain). */
typedef struct {
    gp_array_t *slot[NSLOTS];
    gp_array_t *dead[NDEAD]; /* handles released for good: freed memory */
    int ndead;
} state_t;

static gp_array_t **slot(state_t *st, input_t *in) { return &st->slot[u8(in) % NSLOTS]; }

/* An operand: a live array, sometimes none (NULL). */
static gp_array_t *operand(state_t *st, input_t *in)
{
    uint8_t b = u8(in);
    return b < 248 ? st->slot[b % NSLOTS] : NULL;
}

static bool held(const state_t *st, const gp_array_t *a)
{
    for (int k = 0; k < NSLOTS; ++k)
        if (st->slot[k] == a)
            return true;
    return false;
}

/* Drops the reference of slot `s`. */
static void drop(state_t *st, gp_array_t **s)
{
    gp_array_t *a = *s;
    if (!a)
        return;
    check("gp_array_release", gp_array_release(a), NULL);
    *s = NULL;
    if (!held(st, a)) /* the last reference: the oldest dead handle makes room */
        st->dead[st->ndead++ % NDEAD] = a;
}

/* Stores a new handle in slot `dst`, releasing what was there. What the
 * slots hold stays small(), so operations on them need no bounds of their
 * own, bar those that multiply sizes (broadcasting, matmul). */
static void put(state_t *st, gp_array_t **dst, gp_array_t *a)
{
    if (!a)
        return;
    if (!small(a, CAP_BYTES)) {
        check("gp_array_release", gp_array_release(a), NULL);
        return;
    }
    drop(st, dst);
    *dst = a;
}

/* Whether an operation on x and y (broadcast together) makes a result
 * within the harness's bounds. */
static bool result_ok(const gp_array_t *x, const gp_array_t *y)
{
    gp_array_info_t ix, iy;
    if (!x || gp_array_get_info(x, &ix) != GP_OK)
        return true;
    if (!y || gp_array_get_info(y, &iy) != GP_OK)
        iy = ix;
    const int64_t *shapes[2] = {ix.shape, iy.shape};
    int32_t ndims[2] = {ix.ndim, iy.ndim}, nd;
    int64_t shape[GP_MAXDIM], bytes = 16;
    if (gp_broadcast_shapes(2, ndims, shapes, &nd, shape) != GP_OK)
        return true;
    for (int32_t k = 0; k < nd; ++k)
        if (__builtin_mul_overflow(bytes, shape[k], &bytes))
            return shape_has_zero(nd, shape);
    return bytes <= CAP_BYTES;
}

static int32_t read_shape(input_t *in, int64_t *shape)
{
    uint8_t b = u8(in);
    int32_t ndim = b < 250 ? b % 5 : (int32_t[]){-1, 65, GP_MAXDIM, 100, INT32_MIN, 6}[b % 6];
    for (int32_t k = 0; k < ndim; ++k)
        shape[k] = dim(in);
    return ndim;
}

/* A double: small, or one that no integer holds. */
static double real(input_t *in)
{
    static const double odd[] = {NAN, INFINITY, -INFINITY, 1e300, -1e300, -0.0, 9.3e18, -9.3e18};
    uint8_t b = u8(in);
    if (b >= 240)
        return odd[b % 8];
    return (double)num(in) / 4;
}

static gp_scalar_t scalar(input_t *in, bool valid_dtype)
{
    gp_scalar_t v;
    v.dtype = dtype(in);
    if (valid_dtype && (v.dtype < 0 || v.dtype >= GP_NDTYPES))
        v.dtype = GP_INT32;
    v.weak = u8(in) & 1;
    v.i = num(in);
    v.re = real(in);
    v.im = (u8(in) & 1) ? real(in) : 0;
    return v;
}

static int32_t order(input_t *in)
{
    static const int32_t orders[] = {GP_ORDER_C, GP_ORDER_F, GP_ORDER_A, GP_ORDER_K, 'X', 0};
    return orders[u8(in) % 6];
}

static int32_t read_axes(input_t *in, int32_t *axes)
{
    int32_t n = u8(in) % 4;
    for (int32_t k = 0; k < n; ++k)
        axes[k] = (int32_t)(int8_t)u8(in) % 6;
    return n;
}

static void op_create(state_t *st, input_t *in)
{
    int64_t shape[NDIM_ROOM];
    uint8_t how = u8(in) % 3;
    int32_t dt = dtype(in), nd = read_shape(in, shape), ord = order(in);
    gp_array_t **dst = slot(st, in), *a = NULL;
    gp_scalar_t v = scalar(in, false);
    if (!shape_ok(nd, shape, dt))
        return;
    gp_status_t s;
    const char *call;
    if (how == 0)
        s = gp_array_empty(dt, nd, shape, ord, &a), call = "gp_array_empty";
    else if (how == 1)
        s = gp_array_zeros(dt, nd, shape, ord, &a), call = "gp_array_zeros";
    else
        s = gp_array_full(dt, nd, shape, ord, &v, &a), call = "gp_array_full";
    check(call, s, &a);
    put(st, dst, a);
}

static void op_like(state_t *st, input_t *in)
{
    gp_array_t *src = operand(st, in), **dst = slot(st, in), *a = NULL;
    int32_t dt = dtype(in), ord = order(in);
    gp_status_t s = (u8(in) & 1) ? gp_array_zeros_like(src, dt, ord, &a)
                                 : gp_array_empty_like(src, dt, ord, &a);
    check("gp_array_*_like", s, &a);
    put(st, dst, a);
}

static void op_slice(state_t *st, input_t *in)
{
    gp_array_t *src = operand(st, in), **dst = slot(st, in), *a = NULL;
    int32_t present = u8(in) & 7;
    int64_t start = num(in), stop = num(in), step = num(in);
    check("gp_array_slice", gp_array_slice(src, present, start, stop, step, &a), &a);
    put(st, dst, a);
}

static void op_index(state_t *st, input_t *in)
{
    gp_array_t *src = operand(st, in), **dst = slot(st, in), *a = NULL;
    gp_index_item_t items[6];
    int32_t n = u8(in) % 7;
    for (int32_t k = 0; k < n; ++k) {
        uint8_t b = u8(in);
        items[k].kind = b < 250 ? b % 4 : 7;
        items[k].present = u8(in) & 7;
        items[k].start = num(in);
        items[k].stop = num(in);
        items[k].step = num(in);
    }
    check("gp_array_index", gp_array_index(src, n, items, &a), &a);
    put(st, dst, a);
}

static void op_transpose(state_t *st, input_t *in)
{
    gp_array_t *src = operand(st, in), **dst = slot(st, in), *a = NULL;
    int32_t axes[4], n = read_axes(in, axes);
    check("gp_array_transpose", gp_array_transpose(src, n, n ? axes : NULL, &a), &a);
    put(st, dst, a);
}

static void op_reshape(state_t *st, input_t *in)
{
    gp_array_t *src = operand(st, in), **dst = slot(st, in), *a = NULL;
    int64_t shape[NDIM_ROOM];
    int32_t nd = read_shape(in, shape), ord = order(in);
    check("gp_array_reshape", gp_array_reshape(src, nd, shape, ord, &a), &a);
    put(st, dst, a);
}

static void op_squeeze(state_t *st, input_t *in)
{
    gp_array_t *src = operand(st, in), **dst = slot(st, in), *a = NULL;
    int32_t axes[4], n = read_axes(in, axes);
    check("gp_array_squeeze", gp_array_squeeze(src, n, (u8(in) & 1) ? axes : NULL, &a), &a);
    put(st, dst, a);
}

static void op_broadcast_to(state_t *st, input_t *in)
{
    gp_array_t *src = operand(st, in), **dst = slot(st, in), *a = NULL;
    int64_t shape[NDIM_ROOM];
    int32_t nd = read_shape(in, shape);
    check("gp_array_broadcast_to", gp_array_broadcast_to(src, nd, shape, &a), &a);
    put(st, dst, a);
}

static void op_as_strided(state_t *st, input_t *in)
{
    gp_array_t *src = operand(st, in), **dst = slot(st, in), *a = NULL;
    int64_t shape[NDIM_ROOM], strides[NDIM_ROOM];
    uint8_t b = u8(in);
    int32_t dt = b < 128 ? -1 : dtype(in);
    int32_t nd = read_shape(in, shape);
    for (int32_t k = 0; k < nd; ++k)
        strides[k] = num(in);
    int64_t offset = num(in);
    gp_status_t s = gp_array_as_strided(src, dt, nd, shape, strides, offset, &a);
    check("gp_array_as_strided", s, &a);
    gp_array_info_t info;
    if (a && gp_array_get_info(a, &info) == GP_OK && !(info.flags & GP_FLAG_ALIGNED))
        fail("a view misaligned for its dtype", "gp_array_as_strided", s);
    put(st, dst, a);
}

static void op_ufunc(state_t *st, input_t *in)
{
    int32_t id = ufuncs[u8(in) % 5];
    uint8_t how = u8(in) % 3;
    gp_array_t *x = operand(st, in), *y = operand(st, in), **dst = slot(st, in), *a = NULL;
    gp_scalar_t v = scalar(in, false);
    uint8_t first = u8(in) & 1;
    if (!result_ok(x, how == 0 ? y : NULL))
        return;
    gp_status_t s;
    if (how == 0)
        s = gp_ufunc_call_aa(id, x, y, &a);
    else if (how == 1)
        s = gp_ufunc_call_as(id, x, v.dtype, v.weak, v.i, v.re, v.im, first, &a);
    else
        s = gp_ufunc_call_a(id, x, &a);
    check("gp_ufunc_call", s, &a);
    put(st, dst, a);
}

static void op_reduce(state_t *st, input_t *in)
{
    int32_t id = ufuncs[u8(in) % 2]; /* add and maximum: with and without an identity */
    gp_array_t *src = operand(st, in), **dst = slot(st, in), *a = NULL;
    int32_t axes[4], n = read_axes(in, axes);
    uint8_t b = u8(in);
    int32_t keepdims = b & 1, dt = (b & 2) ? dtype(in) : -1;
    gp_scalar_t init = scalar(in, false);
    const int32_t *ax = (b & 4) ? NULL : axes;
    gp_status_t s = gp_ufunc_reduce(id, src, n, ax, keepdims, dt, (b & 8) ? &init : NULL, &a);
    check("gp_ufunc_reduce", s, &a);
    put(st, dst, a);
}

static void op_copy(state_t *st, input_t *in)
{
    gp_array_t *src = operand(st, in), **dst = slot(st, in), *a = NULL;
    uint8_t b = u8(in);
    int32_t dt = dtype(in), ord = order(in), casting = (int32_t)(u8(in) % 6);
    gp_status_t s = (b & 1) ? gp_array_astype(src, dt, ord, casting, &a)
                            : gp_array_copy(src, ord, &a);
    check("gp_array_copy", s, &a);
    put(st, dst, a);
}

static void op_assign(state_t *st, input_t *in)
{
    gp_array_t *d = operand(st, in), *src = operand(st, in);
    gp_scalar_t v = scalar(in, false);
    int32_t casting = (int32_t)(u8(in) % 6);
    if (u8(in) & 1)
        check("gp_array_fill", gp_array_fill(d, &v), NULL);
    else
        check("gp_array_assign", gp_array_assign(d, src, casting), NULL);
}

static void op_retain_release(state_t *st, input_t *in)
{
    gp_array_t **a = slot(st, in), **b = slot(st, in);
    if (!(u8(in) & 1)) {
        drop(st, a);
        return;
    }
    /* b shares a's handle, with a reference of its own */
    if (*a && a != b) {
        gp_status_t s = gp_array_retain(*a);
        check("gp_array_retain", s, NULL);
        if (s == GP_OK)
            put(st, b, *a);
    }
}

/* A released handle, whose memory is freed (or reused), must give
 * GP_ERR_MISUSE: never a crash, never an effect on a live array. */
static void op_stale(state_t *st, input_t *in)
{
    int n = st->ndead < NDEAD ? st->ndead : NDEAD;
    if (!n)
        return;
    gp_array_t *d = st->dead[u8(in) % n], *a = NULL;
    if (held(st, d))
        fail("a released handle's address handed out again", "gp_array_*", GP_OK);
    gp_array_info_t info;
    gp_status_t s;
    switch (u8(in) % 4) {
    case 0: s = gp_array_release(d); break;
    case 1: s = gp_array_retain(d); break;
    case 2: s = gp_array_get_info(d, &info); break;
    default: s = gp_array_slice(d, 0, 0, 0, 1, &a); break;
    }
    if (s != GP_ERR_MISUSE || a)
        fail("not GP_ERR_MISUSE for a released handle", "a call", s);
}

static void op_query(state_t *st, input_t *in)
{
    gp_array_t *x = operand(st, in), *y = operand(st, in);
    int32_t share;
    switch (u8(in) % 4) {
    case 0:
        check("gp_array_may_share_memory", gp_array_may_share_memory(x, y, &share), NULL);
        break;
    case 1: {
        gp_array_info_t info;
        int64_t n = x && gp_array_get_info(x, &info) == GP_OK ? info.nbytes : 0;
        void *buf = malloc(n ? (size_t)n : 1);
        if (!buf)
            return;
        int64_t claimed = (u8(in) & 1) ? n : num(in);
        check("gp_array_to_host", gp_array_to_host(x, buf, claimed, order(in)), NULL);
        free(buf);
        break;
    }
    case 2: {
        int64_t shape[NDIM_ROOM], strides[NDIM_ROOM];
        int32_t dt = dtype(in), nd = read_shape(in, shape);
        for (int32_t k = 0; k < nd; ++k)
            strides[k] = num(in);
        int64_t n = u16(in) % 512; /* the host memory the call may read */
        unsigned char src[512] = {0};
        gp_array_t **dst = slot(st, in), *a = NULL;
        check("gp_array_from_host", gp_array_from_host(src, n, dt, nd, shape, strides, &a), &a);
        put(st, dst, a);
        break;
    }
    default: {
        int64_t sa[NDIM_ROOM], sb[NDIM_ROOM], out[GP_MAXDIM];
        int32_t nda = read_shape(in, sa), ndb = read_shape(in, sb), ndo;
        const int64_t *shapes[2] = {sa, sb};
        int32_t ndims[2] = {nda, ndb};
        check("gp_broadcast_shapes", gp_broadcast_shapes(2, ndims, shapes, &ndo, out), NULL);
    }
    }
}

/* gp_ufunc_call itself: array or scalar operands, given outputs, `where`,
 * a signature, casting and order. */
static void op_ufunc_full(state_t *st, input_t *in)
{
    uint8_t b = u8(in);
    int32_t id = b < 240 ? ufuncs[b % 5] : (int32_t[]){-1, 100000, INT32_MIN, 4096}[b % 4];
    gp_operand_t ops[2];
    for (int k = 0; k < 2; ++k) {
        ops[k].array = (u8(in) & 1) ? operand(st, in) : NULL;
        ops[k].scalar = scalar(in, false);
    }
    gp_array_t *given = (u8(in) & 1) ? operand(st, in) : NULL;
    gp_array_t *out[2] = {given, NULL}, **dst = slot(st, in);
    const gp_array_t *where = (u8(in) & 1) ? operand(st, in) : NULL;
    int32_t sig[3] = {-1, -1, -1};
    uint8_t c = u8(in);
    for (int k = 0; k < 3; ++k)
        if (c & (1 << k))
            sig[k] = dtype(in);
    int32_t casting = (int32_t)(u8(in) % 6) - (c >> 7), ord = order(in);
    if (!result_ok(ops[0].array, ops[1].array) || !result_ok(where, ops[0].array))
        return;
    gp_status_t s = gp_ufunc_call(id, ops, out, where, (c & 8) ? sig : NULL, casting, ord);
    check("gp_ufunc_call", s, NULL);
    if (given && out[0] != given)
        fail("a given output replaced", "gp_ufunc_call", s);
    if (!given) {
        check("gp_ufunc_call", s, &out[0]);
        put(st, dst, out[0]);
    }
}

/* What needs no array: dtype facts, promotion, casting rules, scalar
 * bounds, ufunc facts, loops and resolution. */
static void op_tables(state_t *st, input_t *in)
{
    (void)st;
    /* as many entries as the table's widest ufunc has operands (six:
     * sph_harm_y's parts, 4 in and 2 out), and one more, so that dts + 1 is
     * a signature (five were read past by a 6-operand id) */
    int32_t dts[8], weak[8], loop[8], r;
    for (int k = 0; k < 8; ++k) {
        dts[k] = dtype(in);
        weak[k] = u8(in) & 1;
    }
    uint8_t b = u8(in);
    int32_t id = (b & 1) ? ufuncs[(b >> 1) % 5] : (int32_t)(int8_t)u8(in) * 3;
    gp_dtype_info_t di;
    gp_ufunc_info_t ui;
    gp_scalar_t v = scalar(in, false);
    switch ((b >> 4) % 7) {
    case 0: check("gp_dtype_get_info", gp_dtype_get_info(dts[0], &di), NULL); break;
    case 1:
        check("gp_dtype_result_type",
              gp_dtype_result_type((int32_t)(u8(in) % 6) - 1, dts, weak, &r), NULL);
        break;
    case 2:
        check("gp_dtype_can_cast",
              gp_dtype_can_cast(dts[0], dts[1], (int32_t)(u8(in) % 7) - 1, &r), NULL);
        break;
    case 3: check("gp_scalar_check_fits", gp_scalar_check_fits(&v, dts[0]), NULL); break;
    case 4: check("gp_ufunc_get_info", gp_ufunc_get_info(id, &ui), NULL); break;
    case 5:
        check("gp_ufunc_get_loop", gp_ufunc_get_loop(id, (int32_t)(int8_t)u8(in), loop), NULL);
        break;
    default:
        check("gp_ufunc_resolve", gp_ufunc_resolve(id, dts, weak, (b & 2) ? dts + 1 : NULL,
                                                   (int32_t)(u8(in) % 6), loop), NULL);
        break;
    }
}

/* Reductions along one axis and over several: accumulate, mean, argmax
 * and argmin, sort and argsort. */
static void op_axis(state_t *st, input_t *in)
{
    gp_array_t *src = operand(st, in), **dst = slot(st, in), *a = NULL;
    int32_t axis = (int32_t)(int8_t)u8(in) % 6, axes[4], n = read_axes(in, axes);
    uint8_t b = u8(in);
    int32_t dt = (b & 2) ? dtype(in) : -1;
    if (b & 4)
        axis = GP_AXIS_NONE;
    gp_status_t s;
    const char *call;
    switch (u8(in) % 4) {
    case 0:
        s = gp_ufunc_accumulate(ufuncs[u8(in) % 2], src, axis, dt, &a);
        call = "gp_ufunc_accumulate";
        break;
    case 1:
        s = gp_array_mean(src, n, (b & 8) ? NULL : axes, b & 1, dt, &a);
        call = "gp_array_mean";
        break;
    case 2:
        s = gp_array_argextreme(src, (b >> 4) & 1, axis, b & 1, &a);
        call = "gp_array_argextreme";
        break;
    default:
        s = gp_array_sort(src, axis, (b >> 4) & 1, &a);
        call = "gp_array_sort";
        break;
    }
    check(call, s, &a);
    put(st, dst, a);
}

/* Advanced indexing: gather, scatter, scatter-add, nonzero and a[mask]. */
static void op_fancy(state_t *st, input_t *in)
{
    gp_array_t *a = operand(st, in), *b = operand(st, in), *c = operand(st, in);
    gp_array_t **dst = slot(st, in), *r = NULL;
    int32_t axes[4], n = read_axes(in, axes), mode = (int32_t)(u8(in) % 4);
    gp_array_t *idx[2] = {b, c};
    int32_t nidx = (int32_t)(u8(in) % 3);
    const int32_t *ax = n >= nidx ? axes : NULL;
    /* a scatter may copy its values broadcast to the indices' shape and
     * a's other axes */
    if (!small(a, 4096) || !small(b, 1024) || !small(c, 1024))
        return;
    switch (u8(in) % 5) {
    case 0:
        check("gp_array_gather", gp_array_gather(a, nidx, idx, ax, mode, c), NULL);
        break;
    case 1:
        check("gp_array_scatter", gp_array_scatter(a, nidx, idx, ax, mode, c), NULL);
        break;
    case 2:
        check("gp_array_scatter_add", gp_array_scatter_add(a, nidx, idx, ax, mode, c), NULL);
        break;
    case 3:
        check("gp_array_nonzero", gp_array_nonzero(a, &r), &r);
        put(st, dst, r);
        break;
    default:
        check("gp_array_masked", gp_array_masked(a, b, &r), &r);
        put(st, dst, r);
        break;
    }
}

/* arange, matmul and searchsorted. */
static void op_other(state_t *st, input_t *in)
{
    gp_array_t *x = operand(st, in), *y = operand(st, in), **dst = slot(st, in), *a = NULL;
    uint8_t b = u8(in);
    if (b % 3 == 0) {
        gp_scalar_t first = scalar(in, false), second = scalar(in, false);
        int64_t n = num(in);
        int32_t dt = dtype(in);
        if (n > CAP_BYTES / 8)
            return;
        check("gp_array_arange", gp_array_arange(&first, &second, n, dt, &a), &a);
    } else if (b % 3 == 1) {
        /* the result's rows come from x and its columns from y */
        if (!small(x, 8192) || !small(y, 8192))
            return;
        check("gp_matmul", gp_matmul(x, y, &a), &a);
    } else {
        gp_array_t *sorter = operand(st, in);
        check("gp_array_searchsorted",
              gp_array_searchsorted(x, y, (int32_t)(u8(in) % 3), sorter, &a), &a);
    }
    put(st, dst, a);
}

static void op_readonly(state_t *st, input_t *in)
{
    check("gp_array_set_readonly", gp_array_set_readonly(operand(st, in)), NULL);
}

typedef void (*op_fn)(state_t *, input_t *);
static const op_fn OPS[] = {
    op_create, op_create, op_like, op_slice, op_index, op_transpose, op_reshape, op_squeeze,
    op_broadcast_to, op_as_strided, op_ufunc, op_reduce, op_copy, op_assign,
    op_retain_release, op_stale, op_query, op_readonly, op_axis, op_fancy, op_other,
    op_ufunc_full, op_tables,
};
#define NOPS ((int)(sizeof OPS / sizeof OPS[0]))

/* ---- libFuzzer's entry points ------------------------------------------------- */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    static const char *const names[5] = {"add", "maximum", "less", "negative", "sqrt"};
    if (gp_runtime_init("host") != GP_OK) {
        fprintf(stderr, "fuzz_abi: the host backend does not start: %s\n", gp_errmsg());
        exit(1);
    }
    for (int k = 0; k < 5; ++k)
        if (gp_ufunc_find(names[k], &ufuncs[k]) != GP_OK) {
            fprintf(stderr, "fuzz_abi: no ufunc %s\n", names[k]);
            exit(1);
        }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    input_t in = {data, size};
    state_t st;
    memset(&st, 0, sizeof st);
    for (int calls = 0; in.n > 0 && calls < MAX_CALLS; ++calls)
        OPS[u8(&in) % NOPS](&st, &in);
    for (int k = 0; k < NSLOTS; ++k)
        drop(&st, &st.slot[k]);
    return 0;
}
