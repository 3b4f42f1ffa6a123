/*
 * dtype.c - the dtype table, NumPy 2 promotion (NEP 50) and casting rules,
 * and scalar conversions.
 *
 * Scalar conversions use the kernels' own prelude, so a value the engine
 * converts (a fill value, a scalar operand) is exactly what a kernel's cast
 * would give.
 */
#include <stdio.h>
#include <string.h>

#include "core.h"

/* The kernel prelude, for its conversion helpers. */
#define GPK_WITH_C64 1
#define GPK_WITH_BF16 1
#define GPK_WITH_C128 1
#include "../prelude/host.h"
#include "../prelude/common.h"

const gp_dtype_desc_t gp_dtypes[GP_NDTYPES] = {
    [GP_BOOL] = {GP_KIND_BOOL, 1, 1, '?', "bool", "b", "gpk_b", GP_BOOL},
    [GP_INT8] = {GP_KIND_INT, 1, 1, 'b', "int8", "i8", "gpk_i8", GP_INT8},
    [GP_UINT8] = {GP_KIND_UINT, 1, 1, 'B', "uint8", "u8", "gpk_u8", GP_UINT8},
    [GP_INT16] = {GP_KIND_INT, 2, 2, 'h', "int16", "i16", "gpk_i16", GP_INT16},
    [GP_UINT16] = {GP_KIND_UINT, 2, 2, 'H', "uint16", "u16", "gpk_u16", GP_UINT16},
    [GP_INT32] = {GP_KIND_INT, 4, 4, 'i', "int32", "i32", "gpk_i32", GP_INT32},
    [GP_UINT32] = {GP_KIND_UINT, 4, 4, 'I', "uint32", "u32", "gpk_u32", GP_UINT32},
    [GP_INT64] = {GP_KIND_INT, 8, 8, 'l', "int64", "i64", "gpk_i64", GP_INT64},
    [GP_UINT64] = {GP_KIND_UINT, 8, 8, 'L', "uint64", "u64", "gpk_u64", GP_UINT64},
    [GP_FLOAT16] = {GP_KIND_FLOAT, 2, 2, 'e', "float16", "f16", "gpk_f16", GP_FLOAT32},
    [GP_BFLOAT16] = {GP_KIND_FLOAT, 2, 2, 'E', "bfloat16", "bf16", "gpk_bf16", GP_FLOAT32},
    [GP_FLOAT32] = {GP_KIND_FLOAT, 4, 4, 'f', "float32", "f32", "gpk_f32", GP_FLOAT32},
    [GP_FLOAT64] = {GP_KIND_FLOAT, 8, 8, 'd', "float64", "f64", "gpk_f64", GP_FLOAT64},
    [GP_COMPLEX64] = {GP_KIND_COMPLEX, 8, 4, 'F', "complex64", "c64", "gpk_c64", GP_COMPLEX64},
    [GP_COMPLEX128] = {GP_KIND_COMPLEX, 16, 8, 'D', "complex128", "c128", "gpk_c128", GP_COMPLEX128},
};

/* ---- casting ----------------------------------------------------------- */

/* Bits of an integer dtype, 0 otherwise. */
static int int_bits(int32_t dt) { return gp_dtype_is_int(dt) ? 8 * gp_dtypes[dt].itemsize : 0; }

/* Significand bits (with the hidden one) and exponent bits of each float
 * and complex dtype: a float casts safely to another whose both are at
 * least its own (bfloat16 and float16 go to neither of each other). */
static const struct { int8_t mant, exp; } float_bits[GP_NDTYPES] = {
    [GP_FLOAT16] = {11, 5},     [GP_BFLOAT16] = {8, 8},
    [GP_FLOAT32] = {24, 8},     [GP_FLOAT64] = {53, 11},
    [GP_COMPLEX64] = {24, 8},   [GP_COMPLEX128] = {53, 11},
};

static int mant_bits(int32_t dt) { return float_bits[dt].mant; }

static bool float_fits(int32_t from, int32_t to)
{
    return float_bits[to].mant >= float_bits[from].mant && float_bits[to].exp >= float_bits[from].exp;
}

static bool can_cast_safe(int32_t from, int32_t to)
{
    if (from == to || from == GP_BOOL)
        return true;
    int kf = gp_dtype_kind(from), kt = gp_dtype_kind(to);
    if (kt == GP_KIND_BOOL)
        return false;
    if (kf == GP_KIND_INT || kf == GP_KIND_UINT) {
        int bf = int_bits(from);
        if (kt == GP_KIND_INT)
            return kf == GP_KIND_INT ? int_bits(to) >= bf : int_bits(to) > bf;
        if (kt == GP_KIND_UINT)
            return kf == GP_KIND_UINT && int_bits(to) >= bf;
        /* NumPy counts int64 -> float64 as safe although it rounds: an
         * integer of b bits goes to a float of at least 2b mantissa-ish
         * bits by its table, i.e. 8->16, 16->32, 32/64->64 bit floats;
         * ml_dtypes lets the 8-bit ones into bfloat16, whose 8 significant
         * bits hold them exactly. */
        int need = bf <= 8 ? 8 : (bf <= 16 ? 24 : 53);
        return mant_bits(to) >= need;
    }
    if (kf == GP_KIND_FLOAT)
        return (kt == GP_KIND_FLOAT || kt == GP_KIND_COMPLEX) && float_fits(from, to);
    /* complex */
    return kt == GP_KIND_COMPLEX && float_fits(from, to);
}

/* NEP 50's kind order for same_kind casts: bool < integers < float < complex,
 * with signed -> unsigned forbidden. */
static int kind_rank(int32_t k)
{
    switch (k) {
    case GP_KIND_BOOL: return 0;
    case GP_KIND_INT: case GP_KIND_UINT: return 1;
    case GP_KIND_FLOAT: return 2;
    default: return 3;
    }
}

bool gp_can_cast(int32_t from, int32_t to, int32_t casting)
{
    switch (casting) {
    case GP_CASTING_NO:
    case GP_CASTING_EQUIV:
        return from == to;
    case GP_CASTING_SAFE:
        return can_cast_safe(from, to);
    case GP_CASTING_SAME_KIND: {
        if (can_cast_safe(from, to))
            return true;
        int kf = gp_dtype_kind(from), kt = gp_dtype_kind(to);
        if (kf == GP_KIND_INT && kt == GP_KIND_UINT)
            return false;
        return kind_rank(kf) <= kind_rank(kt);
    }
    default:
        return true;
    }
}

GP_API gp_status_t gp_dtype_can_cast(int32_t from, int32_t to, int32_t casting, int32_t *out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_dtype_can_cast: out is NULL");
    *out = 0;
    if (!gp_dtype_valid(from) || !gp_dtype_valid(to))
        return gp_set_error(GP_ERR_TYPE, "invalid dtype code %d or %d", from, to);
    if (casting < GP_CASTING_NO || casting > GP_CASTING_UNSAFE)
        return gp_set_error(GP_ERR_VALUE, "invalid casting rule %d", casting);
    *out = gp_can_cast(from, to, casting);
    return GP_OK;
}

/* ---- promotion --------------------------------------------------------- */

int32_t gp_promote(int32_t a, int32_t b)
{
    if (a == b)
        return a;
    /* The first dtype in type order that both cast to safely; NumPy's table
     * is exactly that, with float64 as the meeting point of int64/uint64. */
    for (int32_t t = 0; t < GP_NDTYPES; ++t)
        if (can_cast_safe(a, t) && can_cast_safe(b, t))
            return t;
    return GP_COMPLEX128; /* unreachable: everything casts to complex128 */
}

int32_t gp_promote_weak(int32_t strong, int32_t weak_dt)
{
    int ks = kind_rank(gp_dtype_kind(strong)), kw = kind_rank(gp_dtype_kind(weak_dt));
    if (kw <= ks)
        return strong;
    if (gp_dtype_kind(weak_dt) == GP_KIND_COMPLEX && gp_dtype_kind(strong) == GP_KIND_FLOAT)
        return strong == GP_FLOAT64 ? GP_COMPLEX128 : GP_COMPLEX64;
    return weak_dt;
}

GP_API gp_status_t gp_dtype_result_type(int32_t n, const int32_t *dtypes, const int32_t *weak,
                                        int32_t *out)
{
    if (!out || !dtypes)
        return gp_set_error(GP_ERR_MISUSE, "gp_dtype_result_type: NULL argument");
    *out = -1;
    if (n < 1)
        return gp_set_error(GP_ERR_TYPE, "at least one array or dtype is required");
    int32_t strong = -1, weakest = -1;
    for (int32_t k = 0; k < n; ++k) {
        if (!gp_dtype_valid(dtypes[k]))
            return gp_set_error(GP_ERR_TYPE, "invalid dtype code %d", dtypes[k]);
        if (weak && weak[k])
            weakest = weakest < 0 ? dtypes[k] : gp_promote(weakest, dtypes[k]);
        else
            strong = strong < 0 ? dtypes[k] : gp_promote(strong, dtypes[k]);
    }
    if (strong < 0)
        *out = weakest;
    else if (weakest < 0)
        *out = strong;
    else
        *out = gp_promote_weak(strong, weakest);
    return GP_OK;
}

GP_API gp_status_t gp_dtype_get_info(int32_t dtype, gp_dtype_info_t *out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_dtype_get_info: out is NULL");
    if (!gp_dtype_valid(dtype))
        return gp_set_error(GP_ERR_TYPE, "invalid dtype code %d", dtype);
    const gp_dtype_desc_t *d = &gp_dtypes[dtype];
    out->dtype = dtype;
    out->kind = d->kind;
    out->itemsize = d->itemsize;
    out->alignment = d->alignment;
    out->typechar = d->typechar;
    out->name = d->name;
    return GP_OK;
}

GP_API gp_status_t gp_dtype_from_char(char c, int32_t *out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_dtype_from_char: out is NULL");
    /* NumPy's aliases of the 64-bit integers on LP64 Linux */
    if (c == 'q' || c == 'p') c = 'l';
    if (c == 'Q' || c == 'P') c = 'L';
    for (int32_t t = 0; t < GP_NDTYPES; ++t)
        if (gp_dtypes[t].typechar == c) {
            *out = t;
            return GP_OK;
        }
    *out = -1;
    return gp_set_error(GP_ERR_TYPE, "data type '%c' not understood", c);
}

/* ---- scalars ----------------------------------------------------------- */

GP_API gp_status_t gp_scalar_check_fits(const gp_scalar_t *v, int32_t dt)
{
    if (!v)
        return gp_set_error(GP_ERR_MISUSE, "gp_scalar_check_fits: value is NULL");
    if (!gp_dtype_valid(dt) || !gp_dtype_is_int(dt))
        return GP_OK;
    if (!v->weak || (v->dtype != GP_INT64 && v->dtype != GP_UINT64))
        return GP_OK;
    bool big = v->dtype == GP_UINT64;          /* value >= 2**63 */
    int bits = int_bits(dt);
    bool fits;
    if (gp_dtype_kind(dt) == GP_KIND_UINT) {
        if (big)
            fits = bits == 64;
        else
            fits = v->i >= 0 && (bits == 64 || v->i < ((int64_t)1 << bits));
    } else {
        if (big)
            fits = false;
        else
            fits = bits == 64 || (v->i >= -((int64_t)1 << (bits - 1)) &&
                                  v->i < ((int64_t)1 << (bits - 1)));
    }
    if (fits)
        return GP_OK;
    if (big)
        return gp_set_error(GP_ERR_OVERFLOW, "Python integer %llu out of bounds for %s",
                            (unsigned long long)v->i, gp_dtypes[dt].name);
    return gp_set_error(GP_ERR_OVERFLOW, "Python integer %lld out of bounds for %s",
                        (long long)v->i, gp_dtypes[dt].name);
}

/* The value of a scalar, in the widest type of its class. */
typedef struct { int cls; int64_t i; uint64_t u; double re, im; } wide_t;
enum { W_INT, W_UINT, W_FLOAT, W_COMPLEX };

static wide_t widen(const gp_scalar_t *v)
{
    wide_t w = {W_INT, v->i, (uint64_t)v->i, v->re, v->im};
    switch (gp_dtype_kind(v->dtype)) {
    case GP_KIND_BOOL: w.i = v->i != 0; w.u = (uint64_t)w.i; break;
    case GP_KIND_UINT: w.cls = W_UINT; break;
    case GP_KIND_FLOAT: w.cls = W_FLOAT; break;
    case GP_KIND_COMPLEX: w.cls = W_COMPLEX; break;
    default: break;
    }
    return w;
}

/* Integer of `dt` from a wide value (as the kernels' casts). */
static uint64_t wide_to_int_bits(const wide_t *w, int32_t dt)
{
    if (w->cls == W_INT || w->cls == W_UINT)
        return w->u;
    double x = w->re;
    switch (dt) {
    case GP_INT8: return (uint64_t)(int64_t)gpk_f2i8(x);
    case GP_UINT8: return gpk_f2u8(x);
    case GP_INT16: return (uint64_t)(int64_t)gpk_f2i16(x);
    case GP_UINT16: return gpk_f2u16(x);
    case GP_INT32: return (uint64_t)(int64_t)gpk_f2i32(x);
    case GP_UINT32: return gpk_f2u32(x);
    case GP_INT64: return (uint64_t)gpk_f2i64(x);
    default: return gpk_f2u64(x);
    }
}

static double wide_to_double(const wide_t *w)
{
    switch (w->cls) {
    case W_INT: return (double)w->i;
    case W_UINT: return (double)w->u;
    default: return w->re;
    }
}

static float wide_to_float(const wide_t *w)
{
    switch (w->cls) {
    case W_INT: return (float)w->i;
    case W_UINT: return (float)w->u;
    default: return (float)w->re;
    }
}

void gp_scalar_to_storage(const gp_scalar_t *v, int32_t dt, void *dst)
{
    wide_t w = widen(v);
    switch (dt) {
    case GP_BOOL: {
        unsigned char b = (w.cls == W_COMPLEX) ? (w.re != 0 || w.im != 0)
                        : (w.cls == W_FLOAT) ? (w.re != 0) : (w.u != 0);
        memcpy(dst, &b, 1);
        return;
    }
    case GP_INT8: case GP_UINT8: {
        uint8_t x = (uint8_t)wide_to_int_bits(&w, dt);
        memcpy(dst, &x, 1);
        return;
    }
    case GP_INT16: case GP_UINT16: {
        uint16_t x = (uint16_t)wide_to_int_bits(&w, dt);
        memcpy(dst, &x, 2);
        return;
    }
    case GP_INT32: case GP_UINT32: {
        uint32_t x = (uint32_t)wide_to_int_bits(&w, dt);
        memcpy(dst, &x, 4);
        return;
    }
    case GP_INT64: case GP_UINT64: {
        uint64_t x = wide_to_int_bits(&w, dt);
        memcpy(dst, &x, 8);
        return;
    }
    case GP_FLOAT16: {
        gpk_f16 h = (w.cls == W_FLOAT || w.cls == W_COMPLEX)
                        ? gpk_f64_to_f16(w.re)
                        : gpk_f32_to_f16(wide_to_float(&w));
        memcpy(dst, &h, 2);
        return;
    }
    case GP_BFLOAT16: {
        gpk_bf16 h = (w.cls == W_FLOAT || w.cls == W_COMPLEX)
                         ? gpk_f64_to_bf16(w.re)
                         : gpk_f32_to_bf16(wide_to_float(&w));
        memcpy(dst, &h, 2);
        return;
    }
    case GP_FLOAT32: {
        float f = wide_to_float(&w);
        memcpy(dst, &f, 4);
        return;
    }
    case GP_FLOAT64: {
        double d = wide_to_double(&w);
        memcpy(dst, &d, 8);
        return;
    }
    case GP_COMPLEX64: {
        float c[2] = {wide_to_float(&w), w.cls == W_COMPLEX ? (float)w.im : 0.0f};
        memcpy(dst, c, 8);
        return;
    }
    default: {
        double c[2] = {wide_to_double(&w), w.cls == W_COMPLEX ? w.im : 0.0};
        memcpy(dst, c, 16);
        return;
    }
    }
}

int32_t gp_scalar_to_compute(const gp_scalar_t *v, int32_t dt, void *dst)
{
    if (gp_dtypes[dt].compute == dt) {
        gp_scalar_to_storage(v, dt, dst);
        return gp_dtypes[dt].itemsize;
    }
    /* a 16-bit float: its value rounded to it, held as float32 */
    unsigned char h[2];
    gp_scalar_t r;
    gp_scalar_to_storage(v, dt, h);
    gp_scalar_from_storage(h, dt, &r);
    float f = (float)r.re;
    memcpy(dst, &f, 4);
    return 4;
}

void gp_scalar_from_storage(const void *src, int32_t dt, gp_scalar_t *out)
{
    memset(out, 0, sizeof *out);
    out->dtype = dt;
    switch (dt) {
    case GP_BOOL: { uint8_t x; memcpy(&x, src, 1); out->i = x != 0; break; }
    case GP_INT8: { int8_t x; memcpy(&x, src, 1); out->i = x; break; }
    case GP_UINT8: { uint8_t x; memcpy(&x, src, 1); out->i = x; break; }
    case GP_INT16: { int16_t x; memcpy(&x, src, 2); out->i = x; break; }
    case GP_UINT16: { uint16_t x; memcpy(&x, src, 2); out->i = x; break; }
    case GP_INT32: { int32_t x; memcpy(&x, src, 4); out->i = x; break; }
    case GP_UINT32: { uint32_t x; memcpy(&x, src, 4); out->i = x; break; }
    case GP_INT64: case GP_UINT64: { int64_t x; memcpy(&x, src, 8); out->i = x; break; }
    case GP_FLOAT16: { gpk_f16 h; memcpy(&h, src, 2); out->re = gpk_f16_to_f32(h); break; }
    case GP_BFLOAT16: { gpk_bf16 h; memcpy(&h, src, 2); out->re = gpk_bf16_to_f32(h); break; }
    case GP_FLOAT32: { float f; memcpy(&f, src, 4); out->re = f; break; }
    case GP_FLOAT64: memcpy(&out->re, src, 8); break;
    case GP_COMPLEX64: { float c[2]; memcpy(c, src, 8); out->re = c[0]; out->im = c[1]; break; }
    default: { double c[2]; memcpy(c, src, 16); out->re = c[0]; out->im = c[1]; break; }
    }
}
