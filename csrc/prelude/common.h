/* gpunp kernel prelude: common to every backend.
 *
 * Included after the backend's prelude (which defines GPK_HELPER, the kernel
 * macros and the half conversions). Everything here is valid C11 and CUDA
 * C++, so the generated kernels and these helpers are one source for every
 * backend. Semantics follow NumPy's loops; where NumPy leaves a result to the
 * platform (a float out of an integer type's range), the choice made here is
 * documented in docs/differences.md and is the same on every backend.
 *
 * A section inside #ifdef GPK_WITH_<NAME> reaches only the kernels whose
 * body spells one of its words (the table of gp_kernel_source, rtc/source.c):
 * a new helper in such a section needs its name among that section's words. */

/* ---- storage types ---------------------------------------------------- */
typedef unsigned char gpk_b;
typedef signed char gpk_i8;
typedef unsigned char gpk_u8;
typedef short gpk_i16;
typedef unsigned short gpk_u16;
typedef int gpk_i32;
typedef unsigned int gpk_u32;
typedef long long gpk_i64;
typedef unsigned long long gpk_u64;
typedef float gpk_f32;
typedef double gpk_f64;
typedef struct gpk_c64 { float re; float im; } gpk_c64;
typedef struct gpk_c128 { double re; double im; } gpk_c128;

/* ---- real math, named per type so that F(name) picks the right one ----- */
#define GPK_REAL1(X) X(sqrt) X(cbrt) X(exp) X(exp2) X(expm1) X(log) X(log2)   \
    X(log10) X(log1p) X(sin) X(cos) X(tan) X(asin) X(acos) X(atan) X(sinh)     \
    X(cosh) X(tanh) X(asinh) X(acosh) X(atanh) X(floor) X(ceil) X(trunc)       \
    X(rint) X(fabs)
#define GPK_REAL2(X) X(pow) X(atan2) X(fmod) X(copysign) X(nextafter)       \
    X(fmax) X(fmin)

#define GPK_DEF1_F32(fn) GPK_HELPER float gpk_##fn##_f32(float x) { return fn##f(x); }
#define GPK_DEF1_F64(fn) GPK_HELPER double gpk_##fn##_f64(double x) { return fn(x); }
#define GPK_DEF2_F32(fn) GPK_HELPER float gpk_##fn##_f32(float x, float y) { return fn##f(x, y); }
#define GPK_DEF2_F64(fn) GPK_HELPER double gpk_##fn##_f64(double x, double y) { return fn(x, y); }
GPK_REAL1(GPK_DEF1_F32)
GPK_REAL1(GPK_DEF1_F64)
GPK_REAL2(GPK_DEF2_F32)
GPK_REAL2(GPK_DEF2_F64)

/* hypot, the same on every backend: CUDA's may round a result near the
 * largest double up to infinity (|1 + 1.797e308j|). Single precision is
 * exact in double. Double rounds as glibc's (NumPy's) does, nearly always
 * correctly: the square root of the rounded sum of squares, less the error
 * of that sum, found exactly with fma (Borges's correction). One ulp off
 * near 1 is a relative error of 1e-6 in log1p(1e-5j)'s real part. */
GPK_HELPER float gpk_hypot_f32(float x, float y)
{
    if (isinf(x) || isinf(y)) return INFINITY;
    double a = x, b = y;
    return (float)sqrt(a * a + b * b);
}
GPK_HELPER double gpk_hypot_f64(double x, double y)
{
    x = fabs(x), y = fabs(y);
    if (isinf(x) || isinf(y)) return INFINITY;
    if (x != x || y != y) return x + y;
    if (x < y) { double t = x; x = y; y = t; }
    /* y below half an ulp of x leaves x; the test also keeps y's square
     * above the subnormals after the scaling below */
    if (y <= x * 0x1p-60) return x;
    /* squares of the scaled parts neither overflow nor underflow */
    double s = 1;
    if (x > 0x1p+500) s = 0x1p+600, x *= 0x1p-600, y *= 0x1p-600;
    else if (x < 0x1p-500) s = 0x1p-600, x *= 0x1p+600, y *= 0x1p+600;
    double h = sqrt(fma(x, x, y * y)), hh = h * h, xx = x * x;
    double e = fma(-y, y, hh - xx) + fma(h, h, -hh) - fma(x, x, -xx);
    return (h - e / (2 * h)) * s;
}
GPK_HELPER float gpk_fma_f32(float x, float y, float z) { return fmaf(x, y, z); }
GPK_HELPER double gpk_fma_f64(double x, double y, double z) { return fma(x, y, z); }

/* ---- float -> integer conversions --------------------------------------
 * Out of range and NaN give what x86-64's truncating conversions give
 * (NumPy's results on that platform): the "integer indefinite" value of the
 * 32- or 64-bit conversion, truncated to the target width. */
GPK_HELPER gpk_i64 gpk_f2i64(double x)
{
    return (x >= -9223372036854775808.0 && x < 9223372036854775808.0) ? (gpk_i64)x
                                                                       : (gpk_i64)(-9223372036854775807LL - 1);
}
GPK_HELPER gpk_i32 gpk_f2i32(double x)
{
    return (x > -2147483649.0 && x < 2147483648.0) ? (gpk_i32)x : (gpk_i32)(-2147483647 - 1);
}
GPK_HELPER gpk_u64 gpk_f2u64(double x)
{
    /* x86-64 branches on x >= 2**63, so NaN takes the signed conversion
     * (INT64_MIN, i.e. 2**63), as NumPy's cast there gives */
    if (!(x >= 9223372036854775808.0))
        return (gpk_u64)gpk_f2i64(x);
    return (gpk_u64)gpk_f2i64(x - 9223372036854775808.0) ^ 0x8000000000000000ULL;
}
GPK_HELPER gpk_i8 gpk_f2i8(double x) { return (gpk_i8)gpk_f2i32(x); }
GPK_HELPER gpk_u8 gpk_f2u8(double x) { return (gpk_u8)gpk_f2i32(x); }
GPK_HELPER gpk_i16 gpk_f2i16(double x) { return (gpk_i16)gpk_f2i32(x); }
GPK_HELPER gpk_u16 gpk_f2u16(double x) { return (gpk_u16)gpk_f2i32(x); }
GPK_HELPER gpk_u32 gpk_f2u32(double x) { return (gpk_u32)gpk_f2i64(x); }

#ifdef GPK_WITH_BF16
/* bfloat16 <-> float: bfloat16 is float32's top half, so its conversions
 * are bit arithmetic, exact on every backend, and one definition serves all
 * (a hardware conversion exists only from sm_80 on). Only bfloat16's
 * kernels ask for them (their bodies spell "bf16"). Rounding is to nearest
 * even; a NaN keeps its sign and its payload's top bits, made quiet (as the
 * float16 conversions do; ml_dtypes' makes every NaN the default one), so
 * that a bfloat16 rounded again is unchanged. */
typedef unsigned short gpk_bf16;

GPK_HELPER float gpk_bf16_to_f32(gpk_bf16 h)
{
    union { unsigned int u; float f; } v;
    v.u = (unsigned int)h << 16;
    return v.f;
}

GPK_HELPER gpk_bf16 gpk_f32_to_bf16(float f)
{
    union { float f; unsigned int u; } v;
    v.f = f;
    if ((v.u & 0x7fffffffu) > 0x7f800000u)
        return (gpk_bf16)((v.u >> 16) | 0x0040u);
    return (gpk_bf16)((v.u + 0x7fffu + ((v.u >> 16) & 1u)) >> 16);
}

/* Rounds the double `d` to bfloat16 directly: through float rounded to odd
 * (toward zero, the last bit set if anything was dropped), whose 24 bits
 * leave no tie that the double did not have. */
GPK_HELPER gpk_bf16 gpk_f64_to_bf16(double d)
{
    union { float f; unsigned int u; } v;
    v.f = (float)d;
    if (d != d)
        return gpk_f32_to_bf16(v.f);
    if ((v.f > 0 && v.f > d) || (v.f < 0 && v.f < d))
        v.u -= 1u;                                   /* toward zero */
    if ((double)v.f != d)
        v.u |= 1u;
    return gpk_f32_to_bf16(v.f);
}
#endif /* GPK_WITH_BF16 */

#ifdef GPK_WITH_INT
/* ---- integer helpers ----------------------------------------------------
 * Division by zero gives 0 and MIN / -1 wraps, as NumPy's integer loops;
 * shifts by the width or more give 0 (or -1 for a negative right shift). */
#define GPK_SINT(S, T, BITS)                                                   \
    GPK_HELPER T gpk_floordiv_##S(T a, T b)                                        \
    {                                                                          \
        if (b == 0) return 0;                                                  \
        if (b == -1) return (T)(0ULL - (gpk_u64)a);                            \
        T q = (T)(a / b);                                                      \
        if ((T)(a % b) != 0 && ((a < 0) != (b < 0))) q = (T)(q - 1);           \
        return q;                                                              \
    }                                                                          \
    GPK_HELPER T gpk_remainder_##S(T a, T b)                                       \
    {                                                                          \
        if (b == 0 || b == -1) return 0;                                       \
        T r = (T)(a % b);                                                      \
        if (r != 0 && ((r < 0) != (b < 0))) r = (T)(r + b);                    \
        return r;                                                              \
    }                                                                          \
    GPK_HELPER T gpk_power_##S(T a, T b)                                           \
    {                                                                          \
        gpk_u64 r = 1, x = (gpk_u64)(gpk_i64)a, e = (gpk_u64)(gpk_i64)b;        \
        if (b < 0) return (T)(a == 1 ? 1 : (a == -1 ? ((b & 1) ? -1 : 1) : 0)); \
        while (e) { if (e & 1) r *= x; x *= x; e >>= 1; }                       \
        return (T)r;                                                           \
    }                                                                          \
    GPK_HELPER T gpk_lshift_##S(T a, T b)                                          \
    {                                                                          \
        return (gpk_u64)(gpk_i64)b < (BITS) ? (T)((gpk_u64)(gpk_i64)a << b) : (T)0; \
    }                                                                          \
    GPK_HELPER T gpk_rshift_##S(T a, T b)                                          \
    {                                                                          \
        return (gpk_u64)(gpk_i64)b < (BITS) ? (T)(a >> b) : (T)(a < 0 ? -1 : 0); \
    }                                                                          \
    /* -a and |a| of the most negative value are itself. Written so that   \
     * ptxas keeps them: after a plain neg.s16 or abs.s16 of -32768 it      \
     * leaves +32768 in the 32-bit register and drops the sign extension    \
     * that a wider output needs (seen with CUDA 13.0, sm_90) */            \
    GPK_HELPER T gpk_neg_##S(T a)                                                  \
    {                                                                          \
        if (BITS < 32) return (T)(a == (T)((gpk_u64)1 << (BITS - 1)) ? (int)a : -(int)a); \
        return (T)(0ULL - (gpk_u64)a);                                         \
    }                                                                          \
    GPK_HELPER T gpk_abs_##S(T a)                                                  \
    {                                                                          \
        if (BITS < 32) return (T)(a < 0 ? -(int)a : (int)a);                   \
        return (T)(a < 0 ? 0ULL - (gpk_u64)a : (gpk_u64)a);                    \
    }                                                                          \
    GPK_HELPER T gpk_sign_##S(T a) { return (T)((a > 0) - (a < 0)); }                \
    /* NumPy's loop converts 1.0 / a to T; for a == 0 that is what x86-64 \
     * makes of inf: the most negative int32/int64, 0 in the narrower     \
     * types (they convert through int32) */                             \
    GPK_HELPER T gpk_reciprocal_##S(T a)                                           \
    {                                                                          \
        if (a == 0) return BITS < 32 ? (T)0 : (T)((gpk_u64)1 << (BITS - 1));   \
        return (a == 1 || a == -1) ? a : (T)0;                                 \
    }

#define GPK_UINT(S, T, BITS)                                                   \
    GPK_HELPER T gpk_neg_##S(T a) { return (T)-a; }                                \
    GPK_HELPER T gpk_floordiv_##S(T a, T b) { return b == 0 ? (T)0 : (T)(a / b); } \
    GPK_HELPER T gpk_remainder_##S(T a, T b) { return b == 0 ? (T)0 : (T)(a % b); } \
    GPK_HELPER T gpk_power_##S(T a, T b)                                           \
    {                                                                          \
        gpk_u64 r = 1, x = (gpk_u64)a, e = (gpk_u64)b;                          \
        while (e) { if (e & 1) r *= x; x *= x; e >>= 1; }                       \
        return (T)r;                                                           \
    }                                                                          \
    GPK_HELPER T gpk_lshift_##S(T a, T b) { return b < (BITS) ? (T)((gpk_u64)a << b) : (T)0; } \
    GPK_HELPER T gpk_rshift_##S(T a, T b) { return b < (BITS) ? (T)(a >> b) : (T)0; } \
    GPK_HELPER T gpk_abs_##S(T a) { return a; }                                    \
    GPK_HELPER T gpk_sign_##S(T a) { return (T)(a > 0); }                          \
    GPK_HELPER T gpk_reciprocal_##S(T a) { return (T)(a == 1); }

GPK_SINT(i8, gpk_i8, 8)
GPK_SINT(i16, gpk_i16, 16)
GPK_SINT(i32, gpk_i32, 32)
GPK_SINT(i64, gpk_i64, 64)
GPK_UINT(u8, gpk_u8, 8)
GPK_UINT(u16, gpk_u16, 16)
GPK_UINT(u32, gpk_u32, 32)
GPK_UINT(u64, gpk_u64, 64)

/* ---- more integer helpers ----------------------------------------------
 * NumPy's fmod: C's truncated remainder, 0 for a zero divisor and for
 * MIN % -1. gcd and lcm of |a| and |b| in unsigned arithmetic, cast back
 * (so gcd(INT_MIN, 0) is INT_MIN, as NumPy's npy_gcd gives); lcm wraps like
 * NumPy's a / gcd * b. bitwise_count counts the bits of |a|. */
GPK_HELPER gpk_u64 gpk_ugcd(gpk_u64 a, gpk_u64 b)
{
    while (b) { gpk_u64 t = a % b; a = b; b = t; }
    return a;
}
GPK_HELPER gpk_u8 gpk_popcount(gpk_u64 v)
{
    v = v - ((v >> 1) & 0x5555555555555555ULL);
    v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
    v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (gpk_u8)((v * 0x0101010101010101ULL) >> 56);
}

#define GPK_SINT2(S, T)                                                                      \
    GPK_HELPER gpk_u64 gpk_uabs_##S(T a)                                                         \
    {                                                                                        \
        return a < 0 ? 0ULL - (gpk_u64)(gpk_i64)a : (gpk_u64)(gpk_i64)a;                     \
    }                                                                                        \
    GPK_HELPER T gpk_fmod_##S(T a, T b) { return (b == 0 || b == -1) ? (T)0 : (T)(a % b); }      \
    GPK_HELPER T gpk_gcd_##S(T a, T b) { return (T)gpk_ugcd(gpk_uabs_##S(a), gpk_uabs_##S(b)); } \
    GPK_HELPER T gpk_lcm_##S(T a, T b)                                                           \
    {                                                                                        \
        gpk_u64 x = gpk_uabs_##S(a), y = gpk_uabs_##S(b), g = gpk_ugcd(x, y);                \
        return g == 0 ? (T)0 : (T)(x / g * y);                                               \
    }                                                                                        \
    GPK_HELPER gpk_u8 gpk_bitwise_count_##S(T a) { return gpk_popcount(gpk_uabs_##S(a)); }

#define GPK_UINT2(S, T)                                                           \
    GPK_HELPER T gpk_fmod_##S(T a, T b) { return b == 0 ? (T)0 : (T)(a % b); }        \
    GPK_HELPER T gpk_gcd_##S(T a, T b) { return (T)gpk_ugcd(a, b); }                  \
    GPK_HELPER T gpk_lcm_##S(T a, T b)                                                \
    {                                                                             \
        gpk_u64 g = gpk_ugcd(a, b);                                               \
        return g == 0 ? (T)0 : (T)((gpk_u64)a / g * (gpk_u64)b);                  \
    }                                                                             \
    GPK_HELPER gpk_u8 gpk_bitwise_count_##S(T a) { return gpk_popcount((gpk_u64)a); }

GPK_SINT2(i8, gpk_i8)
GPK_SINT2(i16, gpk_i16)
GPK_SINT2(i32, gpk_i32)
GPK_SINT2(i64, gpk_i64)
GPK_UINT2(u8, gpk_u8)
GPK_UINT2(u16, gpk_u16)
GPK_UINT2(u32, gpk_u32)
GPK_UINT2(u64, gpk_u64)
#endif /* GPK_WITH_INT */

#ifdef GPK_WITH_REAL
/* ---- real float helpers (NumPy's npy_divmod conventions) -------------- */
#define GPK_REAL(S, T)                                                         \
    GPK_HELPER T gpk_floordiv_##S(T a, T b)                                        \
    {                                                                          \
        if (b == 0) return a / b;                                              \
        T mod = gpk_fmod_##S(a, b);                                            \
        T div = (a - mod) / b;                                                 \
        if (mod != 0) {                                                        \
            if ((b < 0) != (mod < 0)) div -= (T)1;                             \
        }                                                                      \
        if (div != 0) {                                                        \
            T fd = gpk_floor_##S(div);                                         \
            if (div - fd > (T)0.5) fd += (T)1;                                 \
            return fd;                                                         \
        }                                                                      \
        return gpk_copysign_##S((T)0, a / b);                                  \
    }                                                                          \
    GPK_HELPER T gpk_remainder_##S(T a, T b)                                       \
    {                                                                          \
        T mod = gpk_fmod_##S(a, b);                                            \
        if (b == 0) return mod;                                                \
        if (mod != 0) {                                                        \
            if ((b < 0) != (mod < 0)) mod += b;                                \
        } else {                                                               \
            mod = gpk_copysign_##S((T)0, b);                                   \
        }                                                                      \
        return mod;                                                            \
    }                                                                          \
    GPK_HELPER T gpk_sign_##S(T a)                                                 \
    {                                                                          \
        return a > 0 ? (T)1 : (a < 0 ? (T)-1 : (a == 0 ? (T)0 : a));           \
    }                                                                          \
    /* NaN propagates; of equal values (0.0 and -0.0) the second wins */     \
    GPK_HELPER T gpk_maximum_##S(T a, T b) { return (a > b || a != a) ? a : b; }   \
    GPK_HELPER T gpk_minimum_##S(T a, T b) { return (a < b || a != a) ? a : b; }   \
    GPK_HELPER T gpk_abs_##S(T a) { return gpk_fabs_##S(a); }                      \
    GPK_HELPER T gpk_power_##S(T a, T b) { return gpk_pow_##S(a, b); }             \
    GPK_HELPER T gpk_reciprocal_##S(T a) { return (T)1 / a; }

GPK_REAL(f32, float)
GPK_REAL(f64, double)

#define GPK_LIBM_f32(fn) fn##f
#define GPK_LIBM_f64(fn) fn
#define GPK_REALX(S, T)                                                                                \
    /* NumPy's npy_heaviside: NaN for NaN, h0 at zero */                                            \
    GPK_HELPER T gpk_heaviside_##S(T x, T h0)                                                           \
    {                                                                                               \
        return x != x ? (T)NAN : (x == 0 ? h0 : (x < 0 ? (T)0 : (T)1));                             \
    }                                                                                               \
    /* npy_logaddexp, npy_logaddexp2: equal arguments (infinities of one                            \
     * sign) first, then the larger plus log1p of the smaller's share */                            \
    GPK_HELPER T gpk_logaddexp_##S(T x, T y)                                                            \
    {                                                                                               \
        if (x == y) return x + (T)0.693147180559945309417232121458176568;                           \
        T t = x - y;                                                                                \
        if (t > 0) return x + gpk_log1p_##S(gpk_exp_##S(-t));                                       \
        if (t <= 0) return y + gpk_log1p_##S(gpk_exp_##S(t));                                       \
        return t;                                                                                   \
    }                                                                                               \
    GPK_HELPER T gpk_logaddexp2_##S(T x, T y)                                                           \
    {                                                                                               \
        const T log2e = (T)1.442695040888963407359924681001892137;                                  \
        if (x == y) return x + 1;                                                                   \
        T t = x - y;                                                                                \
        if (t > 0) return x + log2e * gpk_log1p_##S(gpk_exp2_##S(-t));                              \
        if (t <= 0) return y + log2e * gpk_log1p_##S(gpk_exp2_##S(t));                              \
        return t;                                                                                   \
    }                                                                                               \
    /* npy_spacing: the gap to the next value away from zero (from +0 for                           \
     * both zeros); NaN for infinities */                                                           \
    GPK_HELPER T gpk_spacing_##S(T x)                                                                   \
    {                                                                                               \
        if (isinf(x)) return (T)NAN;                                                                \
        return gpk_nextafter_##S(x, x < 0 ? -(T)INFINITY : (T)INFINITY) - x;                        \
    }                                                                                               \
    GPK_HELPER int gpk_signbit_##S(T x) { return gpk_copysign_##S((T)1, x) < 0; }                       \
    GPK_HELPER T gpk_deg2rad_##S(T x) { return x * ((T)3.14159265358979323846 / (T)180); }              \
    GPK_HELPER T gpk_rad2deg_##S(T x) { return x * ((T)180 / (T)3.14159265358979323846); }              \
    /* frexp of 0, inf and NaN: the value itself and exponent 0 */                                  \
    GPK_HELPER T gpk_frexp_##S(T x, int *e)                                                             \
    {                                                                                               \
        if (x == 0 || !isfinite(x)) { *e = 0; return x + x; }                                       \
        return GPK_LIBM_##S(frexp)(x, e);                                                           \
    }                                                                                               \
    GPK_HELPER T gpk_modf_##S(T x, T *ip)                                                               \
    {                                                                                               \
        if (isinf(x)) { *ip = x; return gpk_copysign_##S((T)0, x); }                                \
        return GPK_LIBM_##S(modf)(x, ip);                                                           \
    }                                                                                               \
    /* NumPy's int64 exponent loops clamp the exponent to int's range */                            \
    GPK_HELPER T gpk_ldexp_##S(T x, long long e)                                                        \
    {                                                                                               \
        int k = e > 2147483647LL ? 2147483647 : (e < -2147483647LL - 1 ? -2147483647 - 1 : (int)e); \
        return GPK_LIBM_##S(ldexp)(x, k);                                                           \
    }

GPK_REALX(f32, float)
GPK_REALX(f64, double)

/* float16's nextafter and spacing work on the bits (npy_half_nextafter,
 * npy_half_spacing): nextafter(x, y) of equal values is x before NumPy 2.5
 * and y, as C's, from 2.5 on (`equal_gives_y`: nextafter(0.0, -0.0) is 0.0,
 * then -0.0); spacing is never negative. Arguments and results are float16
 * values held in float. */
GPK_HELPER float gpk_nextafter_h(float xf, float yf, int equal_gives_y)
{
    gpk_f16 x = gpk_f32_to_f16(xf), y = gpk_f32_to_f16(yf), r;
    if (xf != xf || yf != yf) r = 0x7e00u;
    else if (x == y || ((x | y) & 0x7fffu) == 0) r = equal_gives_y ? y : x;
    else if ((x & 0x7fffu) == 0) r = (gpk_f16)((y & 0x8000u) + 1);
    else if (!(x & 0x8000u)) r = (gpk_f16)((short)x > (short)y ? x - 1 : x + 1);
    else r = (gpk_f16)((!(y & 0x8000u) || (x & 0x7fffu) > (y & 0x7fffu)) ? x - 1 : x + 1);
    return gpk_f16_to_f32(r);
}
GPK_HELPER float gpk_spacing_h(float xf)
{
    gpk_f16 h = gpk_f32_to_f16(xf), e = (gpk_f16)(h & 0x7c00u), m = (gpk_f16)(h & 0x03ffu), r;
    if (e == 0x7c00u) r = 0x7e00u;
    else if (h == 0x7bffu) r = 0x7c00u;
    else if ((h & 0x8000u) && m == 0) /* a negative power of two */
        r = (gpk_f16)(e > 0x2c00u ? e - 0x2c00u : (e > 0x0400u ? 1u << ((e >> 10) - 2) : 1u));
    else
        r = (gpk_f16)(e > 0x2800u ? e - 0x2800u : (e > 0x0400u ? 1u << ((e >> 10) - 1) : 1u));
    return gpk_f16_to_f32(r);
}
#endif /* GPK_WITH_REAL */

#ifdef GPK_WITH_C128 /* defined with GPK_WITH_C64 too (cache.c) */
/* ---- complex ------------------------------------------------------------
 * Arithmetic as NumPy's loops: products with one fused multiply-add per part
 * (NumPy's SIMD loops on x86-64 with FMA and on aarch64; it keeps a finite
 * product from overflowing to inf - inf = NaN), Smith's division. The
 * elementary functions follow C99 Annex G for infinities and NaNs. */
#define GPK_COMPLEX(S, CT, T, R)                                               \
    GPK_HELPER CT gpk_make_##S(T re, T im) { CT z; z.re = re; z.im = im; return z; } \
    GPK_HELPER CT gpk_add_##S(CT a, CT b) { return gpk_make_##S(a.re + b.re, a.im + b.im); } \
    GPK_HELPER CT gpk_sub_##S(CT a, CT b) { return gpk_make_##S(a.re - b.re, a.im - b.im); } \
    GPK_HELPER CT gpk_mul_##S(CT a, CT b)                                          \
    {                                                                          \
        return gpk_make_##S(gpk_fma_##R(a.re, b.re, -(a.im * b.im)),            \
                            gpk_fma_##R(a.re, b.im, a.im * b.re));              \
    }                                                                          \
    /* C99 Annex G's product (G.5.1): where the plain one is NaN in both */    \
    /* parts but a factor is infinite (or a part overflowed), the result is */ \
    /* an infinity; what the C library's cpow multiplies with */              \
    GPK_HELPER CT gpk_mulg_##S(CT z, CT w)                                         \
    {                                                                          \
        T a = z.re, b = z.im, c = w.re, d = w.im;                              \
        T ac = a * c, bd = b * d, ad = a * d, bc = b * c;                      \
        T x = ac - bd, y = ad + bc;                                            \
        if (x == x || y == y) return gpk_make_##S(x, y);                       \
        int again = 0;                                                         \
        if (isinf(a) || isinf(b)) {                                            \
            a = gpk_copysign_##R(isinf(a) ? (T)1 : (T)0, a);                    \
            b = gpk_copysign_##R(isinf(b) ? (T)1 : (T)0, b);                    \
            if (c != c) c = gpk_copysign_##R((T)0, c);                          \
            if (d != d) d = gpk_copysign_##R((T)0, d);                          \
            again = 1;                                                         \
        }                                                                      \
        if (isinf(c) || isinf(d)) {                                            \
            c = gpk_copysign_##R(isinf(c) ? (T)1 : (T)0, c);                    \
            d = gpk_copysign_##R(isinf(d) ? (T)1 : (T)0, d);                    \
            if (a != a) a = gpk_copysign_##R((T)0, a);                          \
            if (b != b) b = gpk_copysign_##R((T)0, b);                          \
            again = 1;                                                         \
        }                                                                      \
        if (!again && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {   \
            if (a != a) a = gpk_copysign_##R((T)0, a);                          \
            if (b != b) b = gpk_copysign_##R((T)0, b);                          \
            if (c != c) c = gpk_copysign_##R((T)0, c);                          \
            if (d != d) d = gpk_copysign_##R((T)0, d);                          \
            again = 1;                                                         \
        }                                                                      \
        if (again) {                                                           \
            x = (T)INFINITY * (a * c - b * d);                                 \
            y = (T)INFINITY * (a * d + b * c);                                 \
        }                                                                      \
        return gpk_make_##S(x, y);                                             \
    }                                                                          \
    GPK_HELPER CT gpk_div_##S(CT a, CT b)                                          \
    {                                                                          \
        T abr = gpk_fabs_##R(b.re), abi = gpk_fabs_##R(b.im);                    \
        if (abr >= abi) {                                                      \
            if (abr == 0 && abi == 0)                                          \
                return gpk_make_##S(a.re / abr, a.im / abr);                    \
            T rat = b.im / b.re, scl = (T)1 / (b.re + b.im * rat);             \
            return gpk_make_##S((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl); \
        }                                                                      \
        T rat = b.re / b.im, scl = (T)1 / (b.im + b.re * rat);                 \
        return gpk_make_##S((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl); \
    }                                                                          \
    /* NumPy's loop: Smith's division of 1 by a, which gives NaN (not inf) */ \
    /* for a = 0 */                                                           \
    GPK_HELPER CT gpk_reciprocal_##S(CT a)                                         \
    {                                                                          \
        if (gpk_fabs_##R(a.im) <= gpk_fabs_##R(a.re)) {                          \
            T r = a.im / a.re, d = a.re + a.im * r;                            \
            return gpk_make_##S((T)1 / d, -r / d);                              \
        }                                                                      \
        T r = a.re / a.im, d = a.re * r + a.im;                                \
        return gpk_make_##S(r / d, (T)-1 / d);                                  \
    }                                                                          \
    GPK_HELPER CT gpk_neg_##S(CT a) { return gpk_make_##S(-a.re, -a.im); }          \
    GPK_HELPER CT gpk_conj_##S(CT a) { return gpk_make_##S(a.re, -a.im); }          \
    GPK_HELPER T gpk_abs_##S(CT a) { return gpk_hypot_##R(a.re, a.im); }            \
    GPK_HELPER int gpk_isnan_##S(CT a) { return a.re != a.re || a.im != a.im; }     \
    GPK_HELPER int gpk_nonzero_##S(CT a) { return a.re != 0 || a.im != 0; }         \
    GPK_HELPER int gpk_eq_##S(CT a, CT b) { return a.re == b.re && a.im == b.im; }   \
    GPK_HELPER int gpk_ne_##S(CT a, CT b) { return !(a.re == b.re && a.im == b.im); } \
    /* NumPy's lexicographic order: a NaN in an imaginary part leaves the */ \
    /* real parts unordered too */                                            \
    GPK_HELPER int gpk_lt_##S(CT a, CT b)                                          \
    {                                                                          \
        return (a.re < b.re && a.im == a.im && b.im == b.im) ||                 \
               (a.re == b.re && a.im < b.im);                                   \
    }                                                                          \
    GPK_HELPER int gpk_le_##S(CT a, CT b)                                          \
    {                                                                          \
        return (a.re < b.re && a.im == a.im && b.im == b.im) ||                 \
               (a.re == b.re && a.im <= b.im);                                  \
    }                                                                          \
    GPK_HELPER int gpk_gt_##S(CT a, CT b) { return gpk_lt_##S(b, a); }              \
    GPK_HELPER int gpk_ge_##S(CT a, CT b) { return gpk_le_##S(b, a); }              \
    /* NumPy's ordering for maximum/minimum: NaN in the first wins, then */    \
    /* NaN in the second. */                                                   \
    GPK_HELPER int gpk_cge_##S(CT a, CT b)                                         \
    {                                                                          \
        return (a.re > b.re && a.im == a.im && b.im == b.im) ||                 \
               (a.re == b.re && a.im >= b.im);                                  \
    }                                                                          \
    GPK_HELPER int gpk_cle_##S(CT a, CT b)                                         \
    {                                                                          \
        return (a.re < b.re && a.im == a.im && b.im == b.im) ||                 \
               (a.re == b.re && a.im <= b.im);                                  \
    }                                                                          \
    GPK_HELPER CT gpk_maximum_##S(CT a, CT b)                                      \
    {                                                                          \
        return (gpk_isnan_##S(a) || gpk_cge_##S(a, b)) ? a : b;                  \
    }                                                                          \
    GPK_HELPER CT gpk_minimum_##S(CT a, CT b)                                      \
    {                                                                          \
        return (gpk_isnan_##S(a) || gpk_cle_##S(a, b)) ? a : b;                  \
    }                                                                          \
    /* z / |z| (NumPy 2): one infinite part gives its direction, whatever */ \
    /* the other (even NaN, as |z| is then inf); two infinite parts have */   \
    /* no direction (NaN) */                                                  \
    GPK_HELPER CT gpk_sign_##S(CT a)                                               \
    {                                                                          \
        T n = gpk_abs_##S(a), q = (T)NAN;                                       \
        if (n != n) return gpk_make_##S(q, q);                                  \
        if (isinf(n)) {                                                        \
            if (isinf(a.re) && isinf(a.im)) return gpk_make_##S(q, q);         \
            if (isinf(a.re)) return gpk_make_##S(gpk_copysign_##R((T)1, a.re), (T)0); \
            return gpk_make_##S((T)0, gpk_copysign_##R((T)1, a.im));             \
        }                                                                      \
        if (n == 0) return gpk_make_##S((T)0, (T)0);                            \
        return gpk_make_##S(a.re / n, a.im / n);                                \
    }                                                                          \
    GPK_HELPER CT gpk_exp_##S(CT z)                                                \
    {                                                                          \
        T x = z.re, y = z.im;                                                  \
        if (isfinite(x)) {                                                     \
            if (y == 0) return gpk_make_##S(gpk_exp_##R(x), y);                 \
            if (!isfinite(y)) return gpk_make_##S(y - y, y - y);               \
            T e = gpk_exp_##R(x);                                               \
            if (isinf(e)) {                                                    \
                /* exp(x) overflows while e * cos(y) may not */                \
                T h = gpk_exp_##R(x * (T)0.5);                                  \
                return gpk_make_##S(h * gpk_cos_##R(y) * h, h * gpk_sin_##R(y) * h); \
            }                                                                  \
            return gpk_make_##S(e * gpk_cos_##R(y), e * gpk_sin_##R(y));         \
        }                                                                      \
        if (isinf(x)) {                                                        \
            if (x > 0) {                                                       \
                if (y == 0) return gpk_make_##S(x, y);                         \
                if (!isfinite(y)) return gpk_make_##S(x, y - y);               \
                return gpk_make_##S(x * gpk_cos_##R(y), x * gpk_sin_##R(y));     \
            }                                                                  \
            /* Annex G leaves the zeros' signs open; the imaginary one */     \
            /* follows y's, as glibc (NumPy's cexp on Linux) has it */         \
            if (!isfinite(y)) return gpk_make_##S((T)0, gpk_copysign_##R((T)0, y)); \
            return gpk_make_##S((T)0 * gpk_cos_##R(y), (T)0 * gpk_sin_##R(y));   \
        }                                                                      \
        /* x is NaN */                                                         \
        if (y == 0) return gpk_make_##S(x, y);                                 \
        return gpk_make_##S(x, x);                                             \
    }                                                                          \
    GPK_HELPER CT gpk_log_##S(CT z)                                                \
    {                                                                          \
        T ax = gpk_fabs_##R(z.re), ay = gpk_fabs_##R(z.im), re;                  \
        if (ax < ay) { T t = ax; ax = ay; ay = t; }                            \
        if (ax != ax || ay != ay) {                                            \
            re = (isinf(ax) || isinf(ay)) ? (T)INFINITY : (T)NAN;              \
        } else if (isinf(ax)) {                                                \
            re = ax;                                                           \
        } else if (ax > (T)(sizeof(T) == 4 ? 1e37 : 1e307) ||                 \
                   (ax > 0 && ax < (T)(sizeof(T) == 4 ? 1e-37 : 1e-307))) {    \
            /* |z| itself would overflow, or lose its digits as a subnormal */ \
            T r = ay / ax;                                                     \
            re = gpk_log_##R(ax) + (T)0.5 * gpk_log1p_##R(r * r);               \
        } else if (ax == 1) {                                                  \
            re = (T)0.5 * gpk_log1p_##R(ay * ay);                               \
        } else if (ax > (T)0.5 && ax < (T)2 && ay < (T)1) {                     \
            re = (T)0.5 * gpk_log1p_##R((ax - (T)1) * (ax + (T)1) + ay * ay);   \
        } else {                                                               \
            re = gpk_log_##R(gpk_hypot_##R(ax, ay));                             \
        }                                                                      \
        return gpk_make_##S(re, gpk_atan2_##R(z.im, z.re));                     \
    }                                                                          \
    GPK_HELPER CT gpk_sqrt_##S(CT z)                                               \
    {                                                                          \
        T x = z.re, y = z.im;                                                  \
        if (x == 0 && y == 0) return gpk_make_##S((T)0, y);                    \
        if (isinf(y)) return gpk_make_##S((T)INFINITY, y);                     \
        if (x != x) return gpk_make_##S(x, x);                                 \
        if (isinf(x)) {                                                        \
            if (x > 0)                                                         \
                return gpk_make_##S(x, y != y ? y : gpk_copysign_##R((T)0, y));  \
            return gpk_make_##S(y != y ? gpk_fabs_##R(y - y) : (T)0,            \
                                gpk_copysign_##R((T)INFINITY, y));              \
        }                                                                      \
        if (y != y) return gpk_make_##S(y, y);                                 \
        /* scale to keep |x| + |z| finite and (x + |z|) / 2 from rounding   \
         * to a subnormal or zero, by powers of two (exact) */               \
        T s = (T)1, ax = gpk_fabs_##R(x), ay = gpk_fabs_##R(y);                  \
        T low = (T)(sizeof(T) == 4 ? 1e-30 : 1e-300);                          \
        if (ax > (T)1e30 || ay > (T)1e30) { s = (T)4; ax *= (T)0.0625; ay *= (T)0.0625; } \
        else if (ax < low && ay < low) {                                       \
            T up = (T)(sizeof(T) == 4 ? 0x1p64 : 0x1p512);                     \
            s = (T)(sizeof(T) == 4 ? 0x1p-32 : 0x1p-256);                      \
            ax *= up; ay *= up;                                                \
        }                                                                      \
        T t = gpk_sqrt_##R((ax + gpk_hypot_##R(ax, ay)) * (T)0.5) * s;          \
        if (x >= 0) return gpk_make_##S(t, y / (2 * t));                       \
        return gpk_make_##S(gpk_fabs_##R(y) / (2 * t), gpk_copysign_##R(t, y));   \
    }                                                                          \
    GPK_HELPER CT gpk_tanh_##S(CT z)                                               \
    {                                                                          \
        T x = z.re, y = z.im;                                                  \
        if (!isfinite(x)) {                                                    \
            if (x != x) return gpk_make_##S(x, y == 0 ? y : x);                \
            return gpk_make_##S(gpk_copysign_##R((T)1, x),                       \
                                isfinite(y) ? gpk_copysign_##R((T)0, gpk_sin_##R(y) * gpk_cos_##R(y)) \
                                            : gpk_copysign_##R((T)0, y));        \
        }                                                                      \
        if (!isfinite(y)) {                                                    \
            if (x == 0) return gpk_make_##S(x, y - y);                         \
            return gpk_make_##S(y - y, y - y);                                 \
        }                                                                      \
        if (gpk_fabs_##R(x) > (T)(sizeof(T) == 4 ? 9 : 22)) {                    \
            T e = gpk_exp_##R(-2 * gpk_fabs_##R(x));                             \
            return gpk_make_##S(gpk_copysign_##R((T)1, x),                       \
                                4 * gpk_sin_##R(y) * gpk_cos_##R(y) * e);         \
        }                                                                      \
        T t = gpk_tan_##R(y), b = 1 + t * t, s = gpk_sinh_##R(x);                \
        T rho = gpk_sqrt_##R(1 + s * s), d = 1 + b * s * s;                      \
        return gpk_make_##S((b * rho * s) / d, t / d);                          \
    }                                                                          \
    /* sinh(z), cosh(z); sin(z) = -i sinh(iz), cos(z) = cosh(iz). Past */    \
    /* where cosh(x) overflows, sinh(x) cos(y) may not: e^|x|/2 is then */     \
    /* applied in two halves */                                                \
    GPK_HELPER int gpk_chbig_##S(T x) { return gpk_fabs_##R(x) > (T)(sizeof(T) == 4 ? 88 : 709); } \
    GPK_HELPER CT gpk_chscaled_##S(T x, T a, T b)                                  \
    {                                                                          \
        /* (sinh(x) a, cosh(x) b) for large |x|: both are +-e^|x| / 2 */      \
        T h = gpk_exp_##R(gpk_fabs_##R(x) * (T)0.5);                             \
        return gpk_make_##S(gpk_copysign_##R((T)1, x) * ((T)0.5 * h * a) * h,  \
                            ((T)0.5 * h * b) * h);                             \
    }                                                                          \
    GPK_HELPER CT gpk_sinh_##S(CT z)                                               \
    {                                                                          \
        T x = z.re, y = z.im;                                                  \
        if (isfinite(x) && isfinite(y)) {                                      \
            if (y == 0) return gpk_make_##S(gpk_sinh_##R(x), y);                \
            if (gpk_chbig_##S(x))                                              \
                return gpk_chscaled_##S(x, gpk_cos_##R(y), gpk_sin_##R(y));     \
            return gpk_make_##S(gpk_sinh_##R(x) * gpk_cos_##R(y),                 \
                                gpk_cosh_##R(x) * gpk_sin_##R(y));                \
        }                                                                      \
        if (x == 0 && !isfinite(y)) return gpk_make_##S(x, y - y);             \
        if (y == 0 && !isfinite(x)) return gpk_make_##S(x, y);                 \
        if (isinf(x) && isfinite(y))                                           \
            return gpk_make_##S(x * gpk_cos_##R(y), (T)INFINITY * gpk_sin_##R(y)); \
        if (isinf(x)) return gpk_make_##S(x, y - y);                           \
        return gpk_make_##S((T)NAN, (T)NAN);                                   \
    }                                                                          \
    GPK_HELPER CT gpk_cosh_##S(CT z)                                               \
    {                                                                          \
        T x = z.re, y = z.im;                                                  \
        if (isfinite(x) && isfinite(y)) {                                      \
            if (y == 0) return gpk_make_##S(gpk_cosh_##R(x), x * y);            \
            if (gpk_chbig_##S(x)) {                                            \
                CT w = gpk_chscaled_##S(x, gpk_sin_##R(y), gpk_cos_##R(y));     \
                return gpk_make_##S(w.im, w.re);                               \
            }                                                                  \
            return gpk_make_##S(gpk_cosh_##R(x) * gpk_cos_##R(y),                 \
                                gpk_sinh_##R(x) * gpk_sin_##R(y));                \
        }                                                                      \
        if (x == 0 && !isfinite(y)) return gpk_make_##S(y - y, (T)0);           \
        if (y == 0 && x != x) return gpk_make_##S(x, gpk_copysign_##R((T)0, y)); \
        if (y == 0 && !isfinite(x))                                            \
            return gpk_make_##S(x * x, gpk_copysign_##R((T)0, x) * y);           \
        if (isinf(x) && isfinite(y))                                           \
            return gpk_make_##S((T)INFINITY * gpk_cos_##R(y), x * gpk_sin_##R(y)); \
        if (isinf(x)) return gpk_make_##S(x * x, y - y);                       \
        return gpk_make_##S((T)NAN, (T)NAN);                                   \
    }                                                                          \
    GPK_HELPER CT gpk_sin_##S(CT z)                                                \
    {                                                                          \
        CT w = gpk_sinh_##S(gpk_make_##S(-z.im, z.re));                         \
        return gpk_make_##S(w.im, -w.re);                                      \
    }                                                                          \
    GPK_HELPER CT gpk_cos_##S(CT z) { return gpk_cosh_##S(gpk_make_##S(-z.im, z.re)); } \
    GPK_HELPER CT gpk_tan_##S(CT z)                                                \
    {                                                                          \
        CT w = gpk_tanh_##S(gpk_make_##S(-z.im, z.re));                         \
        return gpk_make_##S(w.im, -w.re);                                      \
    }                                                                          \
    /* the plain product, as NumPy's scalar cpow multiplies */                \
    GPK_HELPER CT gpk_mulp_##S(CT a, CT b)                                         \
    {                                                                          \
        return gpk_make_##S(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); \
    }                                                                          \
    GPK_HELPER CT gpk_power_##S(CT a, CT b)                                        \
    {                                                                          \
        if (b.re == 0 && b.im == 0) return gpk_make_##S((T)1, (T)0);           \
        if (a.re == 0 && a.im == 0) {                                          \
            /* 0 ** b: 0 when Re b > 0, whatever Im b (NumPy 2) */             \
            if (b.re > 0) return gpk_make_##S((T)0, (T)0);                     \
            return gpk_make_##S((T)NAN, (T)NAN);                               \
        }                                                                      \
        /* small integer powers by products, as NumPy: a, a*a and a*(a*a) */  \
        /* directly, others from 1 by squaring (so 1 * inf may give NaN as */ \
        /* in NumPy), then the reciprocal for negative powers */              \
        if (b.im == 0 && b.re == gpk_floor_##R(b.re) && gpk_fabs_##R(b.re) < 100) { \
            long long n = (long long)b.re, m = n < 0 ? -n : n;                  \
            if (n == 1) return a;                                              \
            if (n == 2) return gpk_mulp_##S(a, a);                              \
            if (n == 3) return gpk_mulp_##S(a, gpk_mulp_##S(a, a));              \
            CT r = gpk_make_##S((T)1, (T)0), x = a;                            \
            while (m) {                                                        \
                if (m & 1) r = gpk_mulp_##S(r, x);                              \
                m >>= 1;                                                       \
                if (m) x = gpk_mulp_##S(x, x);                                  \
            }                                                                  \
            return n < 0 ? gpk_div_##S(gpk_make_##S((T)1, (T)0), r) : r;        \
        }                                                                      \
        /* the C library's cpow: exp(b log a) with Annex G's product */        \
        return gpk_exp_##S(gpk_mulg_##S(b, gpk_log_##S(a)));                    \
    }                                                                          \
    GPK_HELPER CT gpk_square_##S(CT a) { return gpk_mul_##S(a, a); }

/* Parsing these is half of NVRTC's time for a kernel, so a precision's
 * helpers are instantiated only in kernels that name its type. */
#ifdef GPK_WITH_C64
GPK_COMPLEX(c64, gpk_c64, float, f32)
#endif
GPK_COMPLEX(c128, gpk_c128, double, f64)
#endif /* GPK_WITH_C128 */

#ifdef GPK_WITH_RNG
/* ---- random numbers: Philox4x32-10 and exact transformations -------------
 * A counter-based generator (Salmon et al., "Parallel random numbers: as
 * easy as 1, 2, 3", SC'11): a block of four 32-bit words is a pure function
 * of a 128-bit counter and a 64-bit key, so any thread can make any part of
 * a stream. Everything that turns words into numbers uses only integer
 * operations and IEEE +, -, *, / of doubles (kernels are compiled without
 * FMA contraction), never the platform's libm, so every backend computes
 * the same bits. The elementary functions below are written for that: they
 * are within 1 ulp of the exact result on the arguments the generators
 * give them (tests/test_random.py measures it), and, above all, the same
 * on every backend. */
typedef struct gpk_u32x4 { gpk_u32 v[4]; } gpk_u32x4;

/* A generator's key and first counter: words 0-2 of the counter are the
 * index of a block of the stream (96 bits), word 3 the attempt of a
 * rejection sampler (0 for the first draw). */
typedef struct gpk_philox { gpk_u32 c[4]; gpk_u32 k[2]; } gpk_philox;

/* Philox4x32-10 of counter `c` under key (k0, k1) (Random123's
 * philox4x32_R(10, c, k)). */
GPK_HELPER gpk_u32x4 gpk_philox4x32_10(gpk_u32x4 c, gpk_u32 k0, gpk_u32 k1)
{
    for (int r = 0; r < 10; ++r) {
        if (r) {
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        gpk_u64 p0 = (gpk_u64)0xD2511F53u * c.v[0], p1 = (gpk_u64)0xCD9E8D57u * c.v[2];
        gpk_u32x4 n;
        n.v[0] = (gpk_u32)(p1 >> 32) ^ c.v[1] ^ k0;
        n.v[1] = (gpk_u32)p1;
        n.v[2] = (gpk_u32)(p0 >> 32) ^ c.v[3] ^ k1;
        n.v[3] = (gpk_u32)p0;
        c = n;
    }
    return c;
}

/* The words of block `j` of a stream (counter words 0-2 advanced by j, with
 * carry), for attempt `attempt`. */
GPK_HELPER gpk_u32x4 gpk_philox_block(gpk_philox g, gpk_u64 j, gpk_u32 attempt)
{
    gpk_u64 lo = (((gpk_u64)g.c[1] << 32) | g.c[0]) + j;
    gpk_u32x4 c;
    c.v[0] = (gpk_u32)lo;
    c.v[1] = (gpk_u32)(lo >> 32);
    c.v[2] = g.c[2] + (gpk_u32)(lo < j);
    c.v[3] = g.c[3] + attempt;
    return gpk_philox4x32_10(c, g.k[0], g.k[1]);
}

/* Two words as one 64-bit integer, the first the low half. */
GPK_HELPER gpk_u64 gpk_rng_u64(gpk_u32 lo, gpk_u32 hi) { return ((gpk_u64)hi << 32) | lo; }

/* Uniform doubles from the top 53 bits of a 64-bit word: in [0, 1) and in
 * (0, 1]; from the top 24 bits of a 32-bit word, in [0, 1) (a float32
 * value). All exact. */
GPK_HELPER double gpk_rng_unit53(gpk_u64 x) { return (double)(x >> 11) * (1.0 / 9007199254740992.0); }
GPK_HELPER double gpk_rng_unit53_open0(gpk_u64 x)
{
    return ((double)(x >> 11) + 1.0) * (1.0 / 9007199254740992.0);
}
GPK_HELPER double gpk_rng_unit24(gpk_u32 w) { return (double)(w >> 8) * (1.0 / 16777216.0); }

/* A value in [0, range1] from word `w` (Lemire's nearly divisionless
 * method, unbiased): a rejected word is replaced by word `e` of the block
 * of the next attempt (counter word 3 + 1, + 2, ...), so every element
 * depends only on its own block. */
GPK_HELPER gpk_u32 gpk_rng_bounded32(gpk_philox g, gpk_u64 j, int e, gpk_u32 w, gpk_u32 range1)
{
    if (range1 == 0xffffffffu)
        return w;
    gpk_u32 s = range1 + 1u;
    gpk_u64 m = (gpk_u64)w * s;
    if ((gpk_u32)m < s) {
        gpk_u32 t = (0u - s) % s;
        for (gpk_u32 r = 1; (gpk_u32)m < t; ++r)
            m = (gpk_u64)gpk_philox_block(g, j, r).v[e] * s;
    }
    return (gpk_u32)(m >> 32);
}

/* The 128-bit product of a and b: the low half returned, the high in *hi. */
GPK_HELPER gpk_u64 gpk_mul64(gpk_u64 a, gpk_u64 b, gpk_u64 *hi)
{
    gpk_u64 a0 = (gpk_u32)a, a1 = a >> 32, b0 = (gpk_u32)b, b1 = b >> 32;
    gpk_u64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    gpk_u64 mid = (p00 >> 32) + (gpk_u32)p01 + (gpk_u32)p10;
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    return (mid << 32) | (gpk_u32)p00;
}

/* The same for 64-bit ranges: words 2e and 2e+1 of the block. */
GPK_HELPER gpk_u64 gpk_rng_bounded64(gpk_philox g, gpk_u64 j, int e, gpk_u64 x, gpk_u64 range1)
{
    if (range1 == ~0ULL)
        return x;
    gpk_u64 s = range1 + 1u, hi, lo = gpk_mul64(x, s, &hi);
    if (lo < s) {
        gpk_u64 t = (0ULL - s) % s;
        for (gpk_u32 r = 1; lo < t; ++r) {
            gpk_u32x4 y = gpk_philox_block(g, j, r);
            lo = gpk_mul64(gpk_rng_u64(y.v[2 * e], y.v[2 * e + 1]), s, &hi);
        }
    }
    return hi;
}

/* The bits of a double (a float) and back. */
#define GPK_BIT_CASTS(S, T, U)                                                     \
    GPK_HELPER U gpk_##S##_bits(T x)                                                   \
    {                                                                              \
        union { T f; U u; } v;                                                     \
        v.f = x;                                                                   \
        return v.u;                                                                \
    }                                                                              \
    GPK_HELPER T gpk_##S##_from_bits(U u)                                              \
    {                                                                              \
        union { T f; U u; } v;                                                     \
        v.u = u;                                                                   \
        return v.f;                                                                \
    }
GPK_BIT_CASTS(f64, double, gpk_u64)
GPK_BIT_CASTS(f32, float, gpk_u32)

/* Natural logarithm of a positive normal double (the generators' arguments
 * are in [2^-53, 1]): x = 2^k (1 + f) with 1 + f in [sqrt(2)/2, sqrt(2)),
 * log(1 + f) = 2 atanh(s), s = f / (2 + f), by fdlibm's e_log.c polynomial
 * in s^2 (its coefficients; error below 1 ulp), ln 2 split in two parts so
 * that k ln 2 is exact. */
GPK_HELPER double gpk_rng_log(double x)
{
    const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
    const double lg1 = 6.666666666666735130e-01, lg2 = 3.999999999940941908e-01,
                 lg3 = 2.857142874366239149e-01, lg4 = 2.222219843214978396e-01,
                 lg5 = 1.818357216161805012e-01, lg6 = 1.531383769920937332e-01,
                 lg7 = 1.479819860511658591e-01;
    gpk_u64 b = gpk_f64_bits(x);
    int k = (int)(b >> 52) - 1023;
    gpk_u64 m = b & 0x000fffffffffffffULL;
    /* the mantissa's high word decides whether 1 + f is above sqrt(2) */
    gpk_u32 hm = (gpk_u32)(m >> 32);
    gpk_u32 i = (hm + 0x95f64u) & 0x100000u;
    double y = gpk_f64_from_bits(m | ((gpk_u64)(i ^ 0x3ff00000u) << 32)); /* x / 2^k, or half */
    k += (int)(i >> 20);
    double f = y - 1.0, dk = (double)k;
    if (f == 0.0)
        return dk * ln2_hi + dk * ln2_lo;
    double s = f / (2.0 + f), z = s * s, w = z * z;
    double t1 = w * (lg2 + w * (lg4 + w * lg6));
    double t2 = z * (lg1 + w * (lg3 + w * (lg5 + w * lg7)));
    double r = t2 + t1, hfsq = 0.5 * f * f;
    return dk * ln2_hi - ((hfsq - (s * (hfsq + r) + dk * ln2_lo)) - f);
}

/* sin and cos on [0, pi/4] (fdlibm's k_sin.c and k_cos.c polynomials, as
 * musl arranges the cosine; errors below 1 ulp). */
GPK_HELPER double gpk_rng_ksin(double x)
{
    const double s1 = -1.66666666666666324348e-01, s2 = 8.33333333332248946124e-03,
                 s3 = -1.98412698298579493134e-04, s4 = 2.75573137070700676789e-06,
                 s5 = -2.50507602534068634195e-08, s6 = 1.58969099521155010221e-10;
    double z = x * x, v = z * x;
    double r = s2 + z * (s3 + z * (s4 + z * (s5 + z * s6)));
    return x + v * (s1 + z * r);
}
GPK_HELPER double gpk_rng_kcos(double x)
{
    const double c1 = 4.16666666666666019037e-02, c2 = -1.38888888888741095749e-03,
                 c3 = 2.48015872894767294178e-05, c4 = -2.75573143513906633035e-07,
                 c5 = 2.08757232129817482790e-09, c6 = -1.13596475577881948265e-11;
    double z = x * x, w = z * z;
    double r = z * (c1 + z * (c2 + z * c3)) + w * w * (c4 + z * (c5 + z * c6));
    double hz = 0.5 * z, one_hz = 1.0 - hz;
    return one_hz + (((1.0 - one_hz) - hz) + z * r);
}

/* sin(2 pi u) and cos(2 pi u) for u in [0, 1) a multiple of 2^-53: the
 * reduction to an octant is exact (4u = q + f; f or 1 - f in [0, 1/2]),
 * so only the final multiply by pi/2 rounds. */
typedef struct gpk_f64x2 { double v[2]; } gpk_f64x2;
typedef struct gpk_f32x2 { float v[2]; } gpk_f32x2;

/* sin and cos of 2 pi u (v[0], v[1]) from those of the octant's angle:
 * the reflection undone (swap), then quadrant q's signs */
#define GPK_RNG_UNFOLD(S, T, PAIR)                                                 \
    GPK_HELPER PAIR gpk_rng_unfold_##S(T sn, T cs, int q, int swap)                    \
    {                                                                              \
        if (swap) {                                                                \
            T tmp = sn;                                                            \
            sn = cs;                                                               \
            cs = tmp;                                                              \
        }                                                                          \
        PAIR r;                                                                    \
        r.v[0] = q == 0 ? sn : q == 1 ? cs : q == 2 ? -sn : -cs;                   \
        r.v[1] = q == 0 ? cs : q == 1 ? -sn : q == 2 ? -cs : sn;                   \
        return r;                                                                  \
    }
GPK_RNG_UNFOLD(f64, double, gpk_f64x2)
GPK_RNG_UNFOLD(f32, float, gpk_f32x2)

GPK_HELPER gpk_f64x2 gpk_rng_sincos2pi(double u)
{
    const double pio2 = 1.57079632679489661923;
    double t = 4.0 * u;
    int q = (int)t;
    double f = t - (double)q;
    int swap = f > 0.5;
    double x = (swap ? 1.0 - f : f) * pio2;
    double sn = gpk_rng_ksin(x), cs = gpk_rng_kcos(x);
    return gpk_rng_unfold_f64(sn, cs, q, swap);
}

/* Square root of a non-negative double from IEEE operations alone (so as
 * not to depend on every platform's sqrt being correctly rounded, which
 * GPU compilers may trade for speed): an exponent-halving
 * first guess, Newton steps, and a last step from the exact residual
 * x - y*y (Dekker's product, no FMA). Correctly rounded but for rare
 * near-halfway cases, and the same everywhere. */
GPK_HELPER double gpk_rng_sqrt(double x)
{
    if (!(x > 0.0) || x == INFINITY)
        return x == x && x >= 0.0 ? x : NAN; /* 0, inf; NaN for negatives and NaN */
    double scale = 1.0;
    if (x < 2.2250738585072014e-308) { /* subnormal: scale into the normals */
        x *= 18014398509481984.0;      /* 2^54 */
        scale = 1.0 / 134217728.0;     /* 2^-27 */
    }
    double y = gpk_f64_from_bits((gpk_f64_bits(x) >> 1) + 0x1ff8000000000000ULL);
    for (int k = 0; k < 5; ++k)
        y = 0.5 * (y + x / y);
    /* y*y = hi + lo exactly (Veltkamp's split of y into 26-bit halves) */
    double c = 134217729.0 * y, yh = c - (c - y), yl = y - yh;
    double hi = y * y, lo = ((yh * yh - hi) + 2.0 * yh * yl) + yl * yl;
    y += ((x - hi) - lo) / (2.0 * y);
    return y * scale;
}

/* The float32 generators' own functions: float operations only (one
 * double step in the square root's last check), so the float32 normals and
 * exponentials cost a GPU float32 work, and every backend rounds them
 * alike. Their arguments: u in (0, 1] for the log, u in [0, 1) a multiple
 * of 2^-24 for sin and cos of 2 pi u, x = 0 or a normal float up to 47 for
 * the square root. */
/* A word as a float32 in (0, 1]: w 2^-32 + 2^-33, w rounded to 24 bits
 * first; the smallest is 2^-33, so normals reach 6.7 (a 24-bit uniform
 * would stop them at 5.8). */
GPK_HELPER float gpk_rng_unit32_open0(gpk_u32 w)
{
    return (float)w * 2.3283064365386963e-10f + 1.1641532182693481e-10f;
}

/* log of a positive normal float: the same reduction as gpk_rng_log, to
 * 1 + f in [sqrt(2)/2, sqrt(2)), and log(1 + f) = 2 atanh(s) from the series
 * in s^2 to s^9 (|s| < 0.172: the next term is below 2^-27 relative). */
GPK_HELPER float gpk_rng_logf(float x)
{
    const float ln2_hi = 6.9313812256e-01f, ln2_lo = 9.0580006145e-06f;
    gpk_u32 b = gpk_f32_bits(x);
    int k = (int)(b >> 23) - 127;
    gpk_u32 m = b & 0x007fffffu;
    gpk_u32 i = (m + 0x4afb20u) & 0x800000u; /* 1 + f above sqrt(2): halve it */
    float y = gpk_f32_from_bits(m | (i ^ 0x3f800000u));
    k += (int)(i >> 23);
    float f = y - 1.0f, dk = (float)k;
    if (f == 0.0f)
        return dk * ln2_hi + dk * ln2_lo;
    float s = f / (2.0f + f), z = s * s;
    float r = z * (6.6666668653e-01f + z * (4.0000000596e-01f +
                   z * (2.8571429849e-01f + z * 2.2222222388e-01f)));
    float hfsq = 0.5f * f * f;
    return dk * ln2_hi - ((hfsq - (s * (hfsq + r) + dk * ln2_lo)) - f);
}

/* sin(2 pi u) and cos(2 pi u): the octant reduction of gpk_rng_sincos2pi,
 * exact in float too, then the Taylor polynomials on [0, pi/4] to x^11
 * and x^12 (each next term is below 2^-30). */
GPK_HELPER gpk_f32x2 gpk_rng_sincos2pif(float u)
{
    float t = 4.0f * u;
    int q = (int)t;
    float f = t - (float)q;
    int swap = f > 0.5f;
    float x = (swap ? 1.0f - f : f) * 1.57079637e+00f, z = x * x;
    float sn = x + x * z * (-1.66666672e-01f + z * (8.33333377e-03f + z * (-1.98412701e-04f +
                   z * (2.75573188e-06f + z * -2.50521079e-08f))));
    float cs = 1.0f - 0.5f * z + z * z * (4.16666679e-02f + z * (-1.38888892e-03f +
                   z * (2.48015876e-05f + z * (-2.75573188e-07f + z * 2.08767570e-09f))));
    return gpk_rng_unfold_f32(sn, cs, q, swap);
}

/* The correctly rounded square root of 0 or a normal float up to 47. C's
 * sqrtf on the host and NVRTC's sqrtf (-prec-sqrt, its default) are IEEE's,
 * correctly rounded, and far cheaper than the four float divisions of the
 * Newton steps below; hiprtc's may not be, so there (a
 * float's root is never a tie): Newton's iteration in float from an
 * exponent-halving guess, then one step to a neighbour where the midpoint
 * between them says so (a midpoint has 25 bits, its square 50: exact in a
 * double). */
#if defined(GPK_HOST) || defined(GPK_CUDA)
GPK_HELPER float gpk_rng_sqrtf(float x) { return x > 0.0f ? sqrtf(x) : 0.0f; }
#else
GPK_HELPER float gpk_rng_sqrtf(float x)
{
    if (!(x > 0.0f))
        return 0.0f;
    float y = gpk_f32_from_bits((gpk_f32_bits(x) >> 1) + 0x1fc00000u);
    for (int k = 0; k < 4; ++k)
        y = 0.5f * (y + x / y);
    float up = gpk_f32_from_bits(gpk_f32_bits(y) + 1u);
    float down = gpk_f32_from_bits(gpk_f32_bits(y) - 1u);
    double hi = 0.5 * ((double)y + (double)up), lo = 0.5 * ((double)y + (double)down);
    if (hi * hi < (double)x)
        return up;
    return lo * lo > (double)x ? down : y;
}
#endif
#endif /* GPK_WITH_RNG */

#ifdef GPK_WITH_C128
#define GPK_COMPLEX2(S, CT, T, R)                                                                  \
    /* NumPy's own formulas (funcs.inc.src): exp2 is exp(z ln 2), log2 and                         \
     * log10 scale log, log1p is log|1 + z| + i arg(1 + z), expm1 has a                            \
     * real part expm1(x) cos(y) - 2 sin^2(y/2) */                                                 \
    GPK_HELPER CT gpk_exp2_##S(CT z)                                                                   \
    {                                                                                              \
        const T ln2 = (T)0.693147180559945309417232121458176568;                                   \
        return gpk_exp_##S(gpk_make_##S(z.re * ln2, z.im * ln2));                                  \
    }                                                                                              \
    GPK_HELPER CT gpk_expm1_##S(CT z)                                                                  \
    {                                                                                              \
        T a = gpk_sin_##R(z.im / 2);                                                               \
        return gpk_make_##S(gpk_expm1_##R(z.re) * gpk_cos_##R(z.im) - 2 * a * a,                   \
                            gpk_exp_##R(z.re) * gpk_sin_##R(z.im));                                \
    }                                                                                              \
    GPK_HELPER CT gpk_log1p_##S(CT z)                                                                  \
    {                                                                                              \
        T l = gpk_hypot_##R(z.re + 1, z.im);                                                       \
        return gpk_make_##S(gpk_log_##R(l), gpk_atan2_##R(z.im, z.re + 1));                        \
    }                                                                                              \
    /* log(z) / log(b): the logarithm's parts times k = 1 / log(b) */                              \
    GPK_HELPER CT gpk_logscaled_##S(CT z, T k)                                                         \
    {                                                                                              \
        CT l = gpk_log_##S(z);                                                                     \
        return gpk_make_##S(l.re * k, l.im * k);                                                   \
    }                                                                                              \
    GPK_HELPER CT gpk_log10_##S(CT z)                                                                  \
    {                                                                                              \
        return gpk_logscaled_##S(z, (T)0.434294481903251827651128918916605082);                    \
    }                                                                                              \
    GPK_HELPER CT gpk_log2_##S(CT z)                                                                   \
    {                                                                                              \
        return gpk_logscaled_##S(z, (T)1.442695040888963407359924681001892137);                    \
    }                                                                                              \
    GPK_HELPER CT gpk_rint_##S(CT z) { return gpk_make_##S(gpk_rint_##R(z.re), gpk_rint_##R(z.im)); }  \
    /* NaN-ignoring extrema (NumPy): the first unless the second is the                            \
     * larger (smaller) or the first is NaN */                                                     \
    GPK_HELPER CT gpk_fmax_##S(CT a, CT b) { return (gpk_isnan_##S(b) || gpk_cge_##S(a, b)) ? a : b; } \
    GPK_HELPER CT gpk_fmin_##S(CT a, CT b) { return (gpk_isnan_##S(b) || gpk_cle_##S(a, b)) ? a : b; } \
    GPK_HELPER int gpk_isinf_##S(CT a) { return isinf(a.re) || isinf(a.im); }                          \
    GPK_HELPER int gpk_isfinite_##S(CT a) { return isfinite(a.re) && isfinite(a.im); }

#ifdef GPK_WITH_C64
GPK_COMPLEX2(c64, gpk_c64, float, f32)
#endif
GPK_COMPLEX2(c128, gpk_c128, double, f64)

/* ---- complex inverse trigonometric and hyperbolic functions -------------
 * Hull, Fairgrieve and Tang's algorithm (ACM TOMS 23(3), 1997) for asinh
 * and acos, Kahan's for atanh, with C99 Annex G's special values, as the C
 * libraries NumPy calls implement them (npy_casinh... are glibc's on
 * Linux). Double precision; complex64 is computed in it and rounded once.
 * asin, atan and acosh follow from asinh, atanh and acos. */
GPK_HELPER double gpk_cat_half(double a, double b, double h)
{
    /* (h - b) / 2 where h = hypot(a, b), without cancellation */
    if (b < 0) return (h - b) / 2;
    if (b == 0) return a / 2;
    return a * a / (h + b) / 2;
}
/* For x, y >= 0, A = (|z + i| + |z - i|) / 2: *rx = log(A + sqrt(A^2 - 1))
 * = Re asinh(x + iy); Im asinh is asin(*B) when *b_ok, else
 * atan2(*ny, *sq) */
GPK_HELPER void gpk_cat_work(double x, double y, double *rx, int *b_ok, double *B, double *sq,
                         double *ny)
{
    const double eps = 0x1p-52;
    double R = gpk_hypot_f64(x, y + 1), S = gpk_hypot_f64(x, y - 1);
    double A = (R + S) / 2;
    if (A < 1) A = 1;
    if (A < 10) {
        if (y == 1 && x < eps * eps / 128) {
            *rx = sqrt(x);
        } else if (x >= eps * fabs(y - 1)) {
            double am1 = gpk_cat_half(x, 1 + y, R) + gpk_cat_half(x, 1 - y, S);
            *rx = log1p(am1 + sqrt(am1 * (A + 1)));
        } else if (y < 1) {
            *rx = x / sqrt((1 - y) * (1 + y));
        } else {
            *rx = log1p((y - 1) + sqrt((y - 1) * (y + 1)));
        }
    } else {
        *rx = log(A + sqrt(A * A - 1));
    }
    *ny = y;
    if (y < 0x1p-509) {
        /* y / A would lose its digits: atan2 of both scaled up */
        *b_ok = 0;
        *sq = A * (2 / eps);
        *ny = y * (2 / eps);
        return;
    }
    *B = y / A;
    *b_ok = 1;
    if (*B > 0.6417) {
        /* asin(B) is ill-conditioned near 1: atan2(y, sqrt(A^2 - y^2)) */
        *b_ok = 0;
        if (y == 1 && x < eps / 128) {
            *sq = sqrt(x) * sqrt((A + y) / 2);
        } else if (x >= eps * fabs(y - 1)) {
            double amy = gpk_cat_half(x, y + 1, R) + gpk_cat_half(x, y - 1, S);
            *sq = sqrt(amy * (A + y));
        } else if (y > 1) {
            *sq = x * (4 / eps / eps) * y / sqrt((y + 1) * (y - 1));
            *ny = y * (4 / eps / eps);
        } else {
            *sq = sqrt((1 - y) * (1 + y));
        }
    }
}
/* log|z| for |z| past 2^52 (or infinite), |x| and |y| given */
GPK_HELPER double gpk_cat_loglarge(double ax, double ay)
{
    double a = ax > ay ? ax : ay, b = ax > ay ? ay : ax;
    if (isinf(a)) return a;
    return log(a) + 0.5 * log1p((b / a) * (b / a));
}
GPK_HELPER gpk_c128 gpk_asinh_c128(gpk_c128 z)
{
    double x = z.re, y = z.im, ax = fabs(x), ay = fabs(y), rx, ry, B, sq, ny;
    int ok;
    if (x != x || y != y) {
        if (isinf(x)) return gpk_make_c128(x, y + y);
        if (isinf(y)) return gpk_make_c128(y, x + x);
        if (y == 0) return gpk_make_c128(x + x, y);
        return gpk_make_c128((double)NAN, (double)NAN);
    }
    if (ax > 0x1p52 || ay > 0x1p52)
        return gpk_make_c128(copysign(gpk_cat_loglarge(ax, ay) + 0.693147180559945309417, x),
                             copysign(atan2(ay, ax), y));
    if (ax < 1e-8 && ay < 1e-8) return z;
    gpk_cat_work(ax, ay, &rx, &ok, &B, &sq, &ny);
    ry = ok ? asin(B) : atan2(ny, sq);
    return gpk_make_c128(copysign(rx, x), copysign(ry, y));
}
GPK_HELPER gpk_c128 gpk_acos_c128(gpk_c128 z)
{
    const double pio2 = 1.57079632679489661923;
    double x = z.re, y = z.im, ax = fabs(x), ay = fabs(y), rx, ry, B, sq, nx;
    int ok, sx = copysign(1.0, x) < 0, sy = copysign(1.0, y) < 0;
    if (x != x || y != y) {
        if (isinf(x)) return gpk_make_c128(y + y, -(double)INFINITY);
        if (isinf(y)) return gpk_make_c128(x + x, -y);
        if (x == 0) return gpk_make_c128(pio2, y + y);
        return gpk_make_c128((double)NAN, (double)NAN);
    }
    if (ax > 0x1p52 || ay > 0x1p52) {
        ry = gpk_cat_loglarge(ax, ay) + 0.693147180559945309417;
        return gpk_make_c128(atan2(ay, x), sy ? ry : -ry);
    }
    if (x == 1 && y == 0) return gpk_make_c128(0.0, -y);
    if (ax < 1e-8 && ay < 1e-8) return gpk_make_c128(pio2 - x, -y);
    gpk_cat_work(ay, ax, &ry, &ok, &B, &sq, &nx);
    if (ok) rx = acos(sx ? -B : B);
    else rx = atan2(sq, sx ? -nx : nx);
    return gpk_make_c128(rx, sy ? ry : -ry);
}
GPK_HELPER gpk_c128 gpk_acosh_c128(gpk_c128 z)
{
    gpk_c128 w = gpk_acos_c128(z);
    double rx = w.re, ry = w.im;
    if (rx != rx && ry != ry) return gpk_make_c128(ry, rx);
    if (rx != rx) return gpk_make_c128(fabs(ry), rx);
    /* acosh(+-0 + i NaN) = NaN + i pi/2, as glibc (C99 leaves NaN + i NaN
     * open) */
    if (ry != ry) return gpk_make_c128(ry, rx);
    return gpk_make_c128(fabs(ry), copysign(rx, z.im));
}
/* Re(1 / z) = x / (x^2 + y^2) without overflow */
GPK_HELPER double gpk_cat_rerecip(double x, double y)
{
    double ax = fabs(x), ay = fabs(y);
    if (isinf(ax)) return 1 / x;
    if (isinf(ay)) return x / y / y;
    double m = ax > ay ? ax : ay, xs = x / m, ys = y / m;
    return xs / (xs * xs + ys * ys) / m;
}
GPK_HELPER gpk_c128 gpk_atanh_c128(gpk_c128 z)
{
    const double pio2 = 1.57079632679489661923, eps = 0x1p-52;
    double x = z.re, y = z.im, ax = fabs(x), ay = fabs(y), rx, ry, d;
    if (y == 0 && ax <= 1) return gpk_make_c128(atanh(x), y);
    if (x == 0) return gpk_make_c128(x, atan(y));
    if (x != x || y != y) {
        if (isinf(x)) return gpk_make_c128(copysign(0.0, x), y + y);
        if (isinf(y)) return gpk_make_c128(copysign(0.0, x), copysign(pio2, y));
        return gpk_make_c128((double)NAN, (double)NAN);
    }
    if (ax > 0x1p52 || ay > 0x1p52)
        return gpk_make_c128(gpk_cat_rerecip(x, y), copysign(pio2, y));
    if (ax < 1e-8 && ay < 1e-8) return z;
    if (ax == 1 && ay < eps) {
        rx = (0.693147180559945309417 - log(ay)) / 2;
    } else {
        d = ax - 1;
        d = ay < 0x1p-511 ? d * d : d * d + ay * ay;
        rx = log1p(4 * ax / d) / 4;
    }
    if (ax == 1) ry = atan2(2.0, -ay) / 2;
    else if (ay < eps) ry = atan2(2 * ay, (1 - ax) * (1 + ax)) / 2;
    else ry = atan2(2 * ay, (1 - ax) * (1 + ax) - ay * ay) / 2;
    return gpk_make_c128(copysign(rx, x), copysign(ry, y));
}
/* asin(z) = -i asinh(iz) and atan(z) = -i atanh(iz): both are odd and
 * commute with conjugation, so they are asinh and atanh of z with its
 * parts swapped, swapped back */
GPK_HELPER gpk_c128 gpk_asin_c128(gpk_c128 z)
{
    gpk_c128 w = gpk_asinh_c128(gpk_make_c128(z.im, z.re));
    return gpk_make_c128(w.im, w.re);
}
GPK_HELPER gpk_c128 gpk_atan_c128(gpk_c128 z)
{
    gpk_c128 w = gpk_atanh_c128(gpk_make_c128(z.im, z.re));
    return gpk_make_c128(w.im, w.re);
}
#ifdef GPK_WITH_C64
#define GPK_C64_VIA_C128(fn)                                                   \
    GPK_HELPER gpk_c64 gpk_##fn##_c64(gpk_c64 z)                                   \
    {                                                                          \
        gpk_c128 w = gpk_##fn##_c128(gpk_make_c128(z.re, z.im));               \
        return gpk_make_c64((float)w.re, (float)w.im);                         \
    }
GPK_C64_VIA_C128(asinh)
GPK_C64_VIA_C128(acos)
GPK_C64_VIA_C128(acosh)
GPK_C64_VIA_C128(atanh)
GPK_C64_VIA_C128(asin)
GPK_C64_VIA_C128(atan)
#endif
#endif /* GPK_WITH_C128 */
