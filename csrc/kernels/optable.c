/*
 * optable.c - the op table: every elementwise operation is one row.
 *
 * A row gives NumPy's name, arity, loops (in NumPy's order and notation),
 * how a loop is chosen, the reduction identity, and the C expression of the
 * operation. The code generator writes every kernel from these rows; the
 * Python ufunc objects, their `types` and the tests' parameter lists come
 * from the same table through gp_ufunc_get_info/gp_ufunc_get_loop.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

/* Loop lists, in NumPy's order ("?\?" keeps C from reading a trigraph). */
#define L_ALL2                                                                 \
    "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L ee->e EE->E ff->f dd->d " \
    "FF->F DD->D"
#define L_NUM2                                                                 \
    "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L ee->e EE->E ff->f dd->d FF->F " \
    "DD->D"
#define L_INT2 "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L"
#define L_REAL2 L_INT2 " ee->e EE->E ff->f dd->d"
#define L_BITS2 "?\?->? " L_INT2
#define L_FLOAT2 "ee->e EE->E ff->f dd->d FF->F DD->D"
#define L_CMP                                                                  \
    "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? lL->? Ll->? ee->? EE->? " \
    "ff->? dd->? FF->? DD->?"
#define L_LOGIC2                                                               \
    "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? ee->? EE->? ff->? dd->? " \
    "FF->? DD->?"
#define L_NUM1 "b->b B->B h->h H->H i->i I->I l->l L->L e->e E->E f->f d->d F->F D->D"
#define L_FLOAT1 "e->e E->E f->f d->d F->F D->D"
#define L_LOGIC1                                                               \
    "?->? b->? B->? h->? H->? i->? I->? l->? L->? e->? E->? f->? d->? F->? D->?"

#define L_REALF1 "e->e E->E f->f d->d"
#define L_REALF2 "ee->e EE->E ff->f dd->d"
#define L_ROUND1 "?->? b->b B->B h->h H->H i->i I->I l->l L->L e->e E->E f->f d->d"
/* nextafter and spacing step float16's bits (GP_EK_H); bfloat16 has no
 * such helper yet, so it takes the float32 loop as it would without ml_dtypes */
#define L_REALF1_H "e->e f->f d->d"
#define L_REALF2_H "ee->e ff->f dd->d"
#define L_TWO2                                                                 \
    "bb->bb BB->BB hh->hh HH->HH ii->ii II->II ll->ll LL->LL ee->ee EE->EE ff->ff "   \
    "dd->dd"

#define ANY(e) [GP_EK_ANY] = e
#define B(e) [GP_EK_B] = e
#define C(e) [GP_EK_C] = e
#define I_(e) [GP_EK_I] = e
#define F_(e) [GP_EK_F] = e
#define SU(e) [GP_EK_SU] = e
#define US(e) [GP_EK_US] = e
#define H(e) [GP_EK_H] = e
#define S_(e) [GP_EK_S] = e

/* Comparisons: the generic form, the complex helper, and the exact forms
 * for int64 against uint64 (NumPy 2's qQ/Qq loops). */
#define CMP(name, op, cfn, su, us)                                             \
    {name, 2, 1, GP_RES_COMPARE, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, \
     L_CMP, {ANY("x0 " op " x1"), C("F(" cfn ")(x0, x1)"), SU(su), US(us)}, NULL}

#define LOGIC(e) ANY("(x0 != 0) " e " (x1 != 0)"), C("F(nonzero)(x0) " e " F(nonzero)(x1)")

/* A row of scipy.special: n inputs, one output, the helper's call; SZ for
 * the functions SciPy 1.18 resolves as NumPy resolves its own (GP_RES_SIZED). */
#define SF(n, name, loops, call)                                               \
    {"scipy.special." name, n, 1, GP_RES_EXACT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE,     \
     GP_CHECK_NONE, loops, {ANY(call)}, NULL}
#define SZ(n, name, loops, call)                                               \
    {"scipy.special." name, n, 1, GP_RES_SIZED, GP_IDENTITY_NONE, GP_NEUTRAL_NONE,     \
     GP_CHECK_NONE, loops, {ANY(call)}, NULL}
/* ...and one whose float32 loop computes in float (`fcall`), to SciPy's float
 * loop within its rounding, where double arithmetic was the kernel's limit */
#define SZS(n, name, loops, call, fcall)                                       \
    {"scipy.special." name, n, 1, GP_RES_SIZED, GP_IDENTITY_NONE, GP_NEUTRAL_NONE,     \
     GP_CHECK_NONE, loops, {ANY(call), S_(fcall)}, NULL}
/* ...and one with an integer-degree loop ("l...") of its own: `icall` for
 * an integer first input, `call` for the float loops */
#define SFL(n, name, loops, icall, call)                                       \
    {"scipy.special." name, n, 1, GP_RES_EXACT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE,     \
     GP_CHECK_NONE, loops, {ANY(call), I_(icall)}, NULL}
/* ...and one of several outputs: `body` assigns y0.. from double temporaries
 * (the float loops' outputs are floats) */
#define SFN(n, nout, name, loops, body)                                        \
    {"scipy.special." name, n, nout, GP_RES_EXACT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE,  \
     GP_CHECK_NONE, loops, {ANY(body)}, NULL}
#define SZN(n, nout, name, loops, body)                                        \
    {"scipy.special." name, n, nout, GP_RES_SIZED, GP_IDENTITY_NONE, GP_NEUTRAL_NONE,  \
     GP_CHECK_NONE, loops, {ANY(body)}, NULL}

static const char BOOL_SUB_MSG[] =
    "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, "
    "the `^` operator, or the logical_xor function instead.";
static const char BOOL_NEG_MSG[] =
    "The numpy boolean negative, the `-` operator, is not supported, use the `~` "
    "operator or the logical_not function instead.";

const gp_op_t gp_ufuncs[] = {
    /* arithmetic */
    {"add", 2, 1, GP_RES_UNIFORM, GP_IDENTITY_ZERO, GP_NEUTRAL_ZERO, GP_CHECK_NONE, L_ALL2,
     {ANY("x0 + x1"), B("x0 | x1"), C("F(add)(x0, x1)")}, NULL},
    {"subtract", 2, 1, GP_RES_UNIFORM, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_NUM2,
     {ANY("x0 - x1"), C("F(sub)(x0, x1)")}, BOOL_SUB_MSG},
    {"multiply", 2, 1, GP_RES_UNIFORM, GP_IDENTITY_ONE, GP_NEUTRAL_ONE, GP_CHECK_NONE, L_ALL2,
     {ANY("x0 * x1"), B("x0 & x1"), C("F(mul)(x0, x1)")}, NULL},
    {"true_divide", 2, 1, GP_RES_TRUEDIV, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE,
     L_FLOAT2, {ANY("x0 / x1"), C("F(div)(x0, x1)")}, NULL},
    {"floor_divide", 2, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE,
     L_REAL2, {ANY("F(floordiv)(x0, x1)")}, NULL},
    {"remainder", 2, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE,
     L_REAL2, {ANY("F(remainder)(x0, x1)")}, NULL},
    {"power", 2, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_INT_POWER,
     L_REAL2 " FF->F DD->D", {ANY("F(power)(x0, x1)")}, NULL},
    {"negative", 1, 1, GP_RES_UNIFORM, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_NUM1,
     {ANY("-x0"), I_("F(neg)(x0)"), C("F(neg)(x0)")}, BOOL_NEG_MSG},
    {"positive", 1, 1, GP_RES_UNIFORM, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_NUM1,
     {ANY("x0")}, NULL},
    {"absolute", 1, 1, GP_RES_UNIFORM, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE,
     "?->? b->b B->B h->h H->H i->i I->I l->l L->L e->e E->E f->f d->d F->f D->d",
     {ANY("F(abs)(x0)"), B("x0")}, NULL},
    {"sign", 1, 1, GP_RES_UNIFORM, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_NUM1,
     {ANY("F(sign)(x0)")}, NULL},
    {"reciprocal", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE,
     L_NUM1, {ANY("F(reciprocal)(x0)")}, NULL},
    {"square", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_NUM1,
     {ANY("x0 * x0"), C("F(square)(x0)")}, NULL},

    /* exponents, logarithms, trigonometry */
    {"sqrt", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_FLOAT1,
     {ANY("F(sqrt)(x0)")}, NULL},
    {"exp", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_FLOAT1,
     {ANY("F(exp)(x0)")}, NULL},
    {"log", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_FLOAT1,
     {ANY("F(log)(x0)")}, NULL},
    {"sin", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_FLOAT1,
     {ANY("F(sin)(x0)")}, NULL},
    {"cos", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_FLOAT1,
     {ANY("F(cos)(x0)")}, NULL},
    {"tan", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_FLOAT1,
     {ANY("F(tan)(x0)")}, NULL},
    {"tanh", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_FLOAT1,
     {ANY("F(tanh)(x0)")}, NULL},

    /* extrema: NumPy's float and double loops give the second of equal values
     * (0.0, -0.0), its half loop the first */
    {"maximum", 2, 1, GP_RES_UNIFORM, GP_IDENTITY_NONE, GP_NEUTRAL_LOWEST, GP_CHECK_NONE, L_ALL2,
     {ANY("(x0 > x1 ? x0 : x1)"), B("x0 | x1"), F_("F(maximum)(x0, x1)"),
      C("F(maximum)(x0, x1)"), H("((x0 >= x1 || x0 != x0) ? x0 : x1)")}, NULL},
    {"minimum", 2, 1, GP_RES_UNIFORM, GP_IDENTITY_NONE, GP_NEUTRAL_HIGHEST, GP_CHECK_NONE, L_ALL2,
     {ANY("(x0 < x1 ? x0 : x1)"), B("x0 & x1"), F_("F(minimum)(x0, x1)"),
      C("F(minimum)(x0, x1)"), H("((x0 <= x1 || x0 != x0) ? x0 : x1)")}, NULL},

    /* comparisons */
    CMP("equal", "==", "eq", "(x0 >= 0 && (gpk_u64)x0 == x1)", "(x1 >= 0 && x0 == (gpk_u64)x1)"),
    CMP("not_equal", "!=", "ne", "(x0 < 0 || (gpk_u64)x0 != x1)", "(x1 < 0 || x0 != (gpk_u64)x1)"),
    CMP("less", "<", "lt", "(x0 < 0 || (gpk_u64)x0 < x1)", "(x1 >= 0 && x0 < (gpk_u64)x1)"),
    CMP("less_equal", "<=", "le", "(x0 < 0 || (gpk_u64)x0 <= x1)", "(x1 >= 0 && x0 <= (gpk_u64)x1)"),
    CMP("greater", ">", "gt", "(x0 >= 0 && (gpk_u64)x0 > x1)", "(x1 < 0 || x0 > (gpk_u64)x1)"),
    CMP("greater_equal", ">=", "ge", "(x0 >= 0 && (gpk_u64)x0 >= x1)", "(x1 < 0 || x0 >= (gpk_u64)x1)"),

    /* logic */
    {"logical_and", 2, 1, GP_RES_LOGICAL, GP_IDENTITY_TRUE, GP_NEUTRAL_ONE, GP_CHECK_NONE,
     L_LOGIC2, {LOGIC("&&")}, NULL},
    {"logical_or", 2, 1, GP_RES_LOGICAL, GP_IDENTITY_FALSE, GP_NEUTRAL_ZERO, GP_CHECK_NONE,
     L_LOGIC2, {LOGIC("||")}, NULL},
    {"logical_xor", 2, 1, GP_RES_LOGICAL, GP_IDENTITY_FALSE, GP_NEUTRAL_ZERO, GP_CHECK_NONE,
     L_LOGIC2, {LOGIC("!=")}, NULL},
    {"logical_not", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE,
     L_LOGIC1, {ANY("x0 == 0"), C("!F(nonzero)(x0)")}, NULL},

    /* bits */
    {"bitwise_and", 2, 1, GP_RES_UNIFORM, GP_IDENTITY_MINUS_ONE, GP_NEUTRAL_ALLONES,
     GP_CHECK_NONE, L_BITS2, {ANY("x0 & x1")}, NULL},
    {"bitwise_or", 2, 1, GP_RES_UNIFORM, GP_IDENTITY_ZERO, GP_NEUTRAL_ZERO, GP_CHECK_NONE,
     L_BITS2, {ANY("x0 | x1")}, NULL},
    {"bitwise_xor", 2, 1, GP_RES_UNIFORM, GP_IDENTITY_ZERO, GP_NEUTRAL_ZERO, GP_CHECK_NONE,
     L_BITS2, {ANY("x0 ^ x1")}, NULL},
    {"invert", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE,
     "?->? b->b B->B h->h H->H i->i I->I l->l L->L", {ANY("~x0"), B("!x0")}, NULL},
    {"left_shift", 2, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE,
     L_INT2, {ANY("F(lshift)(x0, x1)")}, NULL},
    {"right_shift", 2, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE,
     L_INT2, {ANY("F(rshift)(x0, x1)")}, NULL},
    /* inverse trigonometric and hyperbolic functions */
    {"arccos", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_FLOAT1,
     {ANY("F(acos)(x0)")}, NULL},
    {"arccosh", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_FLOAT1,
     {ANY("F(acosh)(x0)")}, NULL},
    {"arcsin", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_FLOAT1,
     {ANY("F(asin)(x0)")}, NULL},
    {"arcsinh", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_FLOAT1,
     {ANY("F(asinh)(x0)")}, NULL},
    {"arctan", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_FLOAT1,
     {ANY("F(atan)(x0)")}, NULL},
    {"arctanh", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_FLOAT1,
     {ANY("F(atanh)(x0)")}, NULL},
    {"cosh", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_FLOAT1,
     {ANY("F(cosh)(x0)")}, NULL},
    {"sinh", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_FLOAT1,
     {ANY("F(sinh)(x0)")}, NULL},
    {"arctan2", 2, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_REALF2,
     {ANY("F(atan2)(x0, x1)")}, NULL},
    {"hypot", 2, 1, GP_RES_DEFAULT, GP_IDENTITY_ZERO, GP_NEUTRAL_ZERO, GP_CHECK_NONE, L_REALF2,
     {ANY("F(hypot)(x0, x1)")}, NULL},
    {"deg2rad", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_REALF1,
     {ANY("F(deg2rad)(x0)")}, NULL},
    {"radians", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_REALF1,
     {ANY("F(deg2rad)(x0)")}, NULL},
    {"rad2deg", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_REALF1,
     {ANY("F(rad2deg)(x0)")}, NULL},
    {"degrees", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_REALF1,
     {ANY("F(rad2deg)(x0)")}, NULL},

    /* exponents and logarithms */
    {"exp2", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_FLOAT1,
     {ANY("F(exp2)(x0)")}, NULL},
    {"expm1", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_FLOAT1,
     {ANY("F(expm1)(x0)")}, NULL},
    {"log10", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_FLOAT1,
     {ANY("F(log10)(x0)")}, NULL},
    {"log1p", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_FLOAT1,
     {ANY("F(log1p)(x0)")}, NULL},
    {"log2", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_FLOAT1,
     {ANY("F(log2)(x0)")}, NULL},
    {"cbrt", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_REALF1,
     {ANY("F(cbrt)(x0)")}, NULL},
    {"logaddexp", 2, 1, GP_RES_DEFAULT, GP_IDENTITY_MINUS_INF, GP_NEUTRAL_LOWEST, GP_CHECK_NONE, L_REALF2,
     {ANY("F(logaddexp)(x0, x1)")}, NULL},
    {"logaddexp2", 2, 1, GP_RES_DEFAULT, GP_IDENTITY_MINUS_INF, GP_NEUTRAL_LOWEST, GP_CHECK_NONE, L_REALF2,
     {ANY("F(logaddexp2)(x0, x1)")}, NULL},
    {"float_power", 2, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, "dd->d DD->D",
     {ANY("F(power)(x0, x1)")}, NULL},

    /* rounding; integers and bool are their own ceil, floor and trunc */
    {"ceil", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_ROUND1,
     {ANY("x0"), F_("F(ceil)(x0)")}, NULL},
    {"floor", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_ROUND1,
     {ANY("x0"), F_("F(floor)(x0)")}, NULL},
    {"trunc", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_ROUND1,
     {ANY("x0"), F_("F(trunc)(x0)")}, NULL},
    {"rint", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_FLOAT1,
     {ANY("F(rint)(x0)")}, NULL},
    {"fabs", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_REALF1,
     {ANY("F(fabs)(x0)")}, NULL},
    {"conjugate", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_NUM1,
     {ANY("x0"), C("F(conj)(x0)")}, NULL},

    /* NaN-ignoring extrema (the first of equal values) and remainders */
    {"fmax", 2, 1, GP_RES_UNIFORM, GP_IDENTITY_NONE, GP_NEUTRAL_NAN_LOWEST, GP_CHECK_NONE, L_ALL2,
     {ANY("(x0 > x1 ? x0 : x1)"), B("x0 | x1"), F_("((x0 >= x1 || x1 != x1) ? x0 : x1)"), C("F(fmax)(x0, x1)")}, NULL},
    {"fmin", 2, 1, GP_RES_UNIFORM, GP_IDENTITY_NONE, GP_NEUTRAL_NAN_HIGHEST, GP_CHECK_NONE, L_ALL2,
     {ANY("(x0 < x1 ? x0 : x1)"), B("x0 & x1"), F_("((x0 <= x1 || x1 != x1) ? x0 : x1)"), C("F(fmin)(x0, x1)")}, NULL},
    {"fmod", 2, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_REAL2,
     {ANY("F(fmod)(x0, x1)")}, NULL},
    {"divmod", 2, 2, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_TWO2,
     {ANY("y0 = F(floordiv)(x0, x1); y1 = F(remainder)(x0, x1);")}, NULL},
    {"heaviside", 2, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_REALF2,
     {ANY("F(heaviside)(x0, x1)")}, NULL},

    /* floating-point bits and classes */
    {"isnan", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_LOGIC1,
     {ANY("0"), F_("(x0 != x0)"), C("F(isnan)(x0)")}, NULL},
    {"isinf", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_LOGIC1,
     {ANY("0"), F_("(isinf(x0) != 0)"), C("F(isinf)(x0)")}, NULL},
    {"isfinite", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_LOGIC1,
     {ANY("1"), F_("(isfinite(x0) != 0)"), C("F(isfinite)(x0)")}, NULL},
    {"signbit", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, "e->? E->? f->? d->?",
     {ANY("F(signbit)(x0)")}, NULL},
    {"copysign", 2, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_REALF2,
     {ANY("F(copysign)(x0, x1)")}, NULL},
    {"nextafter", 2, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_REALF2_H,
     {ANY("F(nextafter)(x0, x1)"), H("gpk_nextafter_h(x0, x1, GPK_NUMPY_VERSION >= 20500)")},
     NULL},
    {"spacing", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_REALF1_H,
     {ANY("F(spacing)(x0)"), H("gpk_spacing_h(x0)")}, NULL},
    {"frexp", 1, 2, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, "e->ei E->Ei f->fi d->di",
     {ANY("y0 = F(frexp)(x0, &y1);")}, NULL},
    {"modf", 1, 2, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, "e->ee E->EE f->ff d->dd",
     {ANY("y0 = F(modf)(x0, &y1);")}, NULL},
    {"ldexp", 2, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, "ei->e Ei->E fi->f el->e El->E fl->f di->d dl->d",
     {ANY("F(ldexp)(x0, x1)")}, NULL},

    /* integers */
    {"gcd", 2, 1, GP_RES_UNIFORM, GP_IDENTITY_ZERO, GP_NEUTRAL_ZERO, GP_CHECK_NONE, L_INT2,
     {ANY("F(gcd)(x0, x1)")}, NULL},
    {"lcm", 2, 1, GP_RES_UNIFORM, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, L_INT2,
     {ANY("F(lcm)(x0, x1)")}, NULL},
    {"bitwise_count", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE, "b->B B->B h->B H->B i->B I->B l->B L->B",
     {ANY("F(bitwise_count)(x0)")}, NULL},

    /* SciPy's special functions (scipy.special), named "scipy.special.<name>"
     * so that they never meet NumPy's names; gpunp.scipy.special gives them
     * SciPy's. Loops are SciPy's real ones in SciPy's order (so an integer
     * or float16 input takes the loop SciPy's takes); every loop computes in
     * double (csrc/prelude/special.h) and rounds once. */
    SZS(1, "gamma", "d->d f->f", "gpk_sf_gamma(x0)", "gpk_sf_gamma_f32(x0)"),
    SZ(1, "gammaln", "d->d f->f", "gpk_sf_gammaln(x0)"),
    SZ(1, "gammasgn", "d->d f->f", "gpk_sf_gammasgn(x0)"),
    SZ(1, "rgamma", "d->d f->f", "gpk_sf_rgamma(x0)"),
    SZ(1, "psi", "d->d f->f", "gpk_sf_digamma(x0)"),
    SZS(1, "erf", "d->d f->f", "gpk_sf_erf(x0)", "gpk_sf_erf_f32(x0)"),
    SZ(1, "erfc", "d->d f->f", "gpk_sf_erfc(x0)"),
    SZ(1, "erfcx", "d->d f->f", "gpk_sf_erfcx(x0)"),
    SF(1, "erfinv", "f->f d->d", "gpk_sf_erfinv(x0)"),
    SF(1, "erfcinv", "f->f d->d", "gpk_sf_erfcinv(x0)"),
    SZ(1, "ndtr", "d->d f->f", "gpk_sf_ndtr(x0)"),
    SZ(1, "log_ndtr", "d->d f->f", "gpk_sf_log_ndtr(x0)"),
    SF(1, "ndtri", "f->f d->d", "gpk_sf_ndtri(x0)"),
    SZ(1, "expit", "d->d f->f", "gpk_sf_expit(x0)"),
    SF(1, "logit", "d->d f->f", "gpk_sf_logit(x0)"),
    SZ(1, "log_expit", "d->d f->f", "gpk_sf_log_expit(x0)"),
    SF(1, "entr", "f->f d->d", "gpk_sf_entr(x0)"),
    SZ(1, "exp10", "d->d f->f", "gpk_sf_exp10(x0)"),
    SZ(1, "exp2", "d->d f->f", "gpk_sf_exp2(x0)"),
    SZ(1, "cbrt", "d->d f->f", "gpk_sf_cbrt(x0)"),
    SZ(1, "log1p", "d->d f->f", "gpk_sf_log1p(x0)"),
    SZ(1, "expm1", "d->d f->f", "gpk_sf_expm1(x0)"),
    SZ(1, "sindg", "d->d f->f", "gpk_sf_sindg(x0)"),
    SZ(1, "cosdg", "d->d f->f", "gpk_sf_cosdg(x0)"),
    SZ(1, "tandg", "d->d f->f", "gpk_sf_tandg(x0)"),
    SZ(1, "cotdg", "d->d f->f", "gpk_sf_cotdg(x0)"),
    SZS(1, "j0", "d->d f->f", "gpk_sf_j0(x0)", "gpk_sf_j0_f32(x0)"),
    SZ(1, "j1", "d->d f->f", "gpk_sf_j1(x0)"),
    SZ(1, "y0", "d->d f->f", "gpk_sf_y0(x0)"),
    SZ(1, "y1", "d->d f->f", "gpk_sf_y1(x0)"),
    SZ(1, "i0", "d->d f->f", "gpk_sf_i0(x0)"),
    SZ(1, "i0e", "d->d f->f", "gpk_sf_i0e(x0)"),
    SZ(1, "i1", "d->d f->f", "gpk_sf_i1(x0)"),
    SZ(1, "i1e", "d->d f->f", "gpk_sf_i1e(x0)"),
    SZ(1, "k0", "d->d f->f", "gpk_sf_k0(x0)"),
    SZ(1, "k0e", "d->d f->f", "gpk_sf_k0e(x0)"),
    SZ(1, "k1", "d->d f->f", "gpk_sf_k1(x0)"),
    SZ(1, "k1e", "d->d f->f", "gpk_sf_k1e(x0)"),
    SF(1, "exp1", "f->f d->d", "gpk_sf_exp1(x0)"),
    SF(1, "expi", "f->f d->d", "gpk_sf_expi(x0)"),
    SZ(1, "exprel", "d->d f->f", "gpk_sf_exprel(x0)"),
    SZ(1, "zetac", "d->d f->f", "gpk_sf_zetac(x0)"),
    SF(1, "_riemann_zeta", "d->d f->f", "gpk_sf_riemann_zeta(x0)"),
    SZ(2, "beta", "dd->d ff->f", "gpk_sf_beta(x0, x1)"),
    SZ(2, "betaln", "dd->d ff->f", "gpk_sf_betaln(x0, x1)"),
    SF(2, "poch", "ff->f dd->d", "gpk_sf_poch(x0, x1)"),
    SF(2, "binom", "ff->f dd->d", "gpk_sf_binom(x0, x1)"),
    SZ(2, "xlogy", "dd->d ff->f", "gpk_sf_xlogy(x0, x1)"),
    SZ(2, "xlog1py", "dd->d ff->f", "gpk_sf_xlog1py(x0, x1)"),
    SF(2, "rel_entr", "ff->f dd->d", "gpk_sf_rel_entr(x0, x1)"),
    SF(2, "kl_div", "ff->f dd->d", "gpk_sf_kl_div(x0, x1)"),
    SF(2, "huber", "ff->f dd->d", "gpk_sf_huber(x0, x1)"),
    SF(2, "pseudo_huber", "ff->f dd->d", "gpk_sf_pseudo_huber(x0, x1)"),
    SF(2, "boxcox", "ff->f dd->d", "gpk_sf_boxcox(x0, x1)"),
    SF(2, "boxcox1p", "ff->f dd->d", "gpk_sf_boxcox1p(x0, x1)"),
    SF(2, "inv_boxcox", "ff->f dd->d", "gpk_sf_inv_boxcox(x0, x1)"),
    SF(2, "inv_boxcox1p", "ff->f dd->d", "gpk_sf_inv_boxcox1p(x0, x1)"),
    SZ(2, "gammainc", "dd->d ff->f", "gpk_sf_gammainc(x0, x1)"),
    SZ(2, "gammaincc", "dd->d ff->f", "gpk_sf_gammaincc(x0, x1)"),
    SF(2, "pdtr", "ff->f dd->d", "gpk_sf_pdtr(x0, x1)"),
    SF(2, "pdtrc", "ff->f dd->d", "gpk_sf_pdtrc(x0, x1)"),
    SF(2, "chdtr", "ff->f dd->d", "gpk_sf_chdtr(x0, x1)"),
    SF(2, "chdtrc", "ff->f dd->d", "gpk_sf_chdtrc(x0, x1)"),
    SF(2, "expn", "ld->d ff->f dd->d", "gpk_sf_expn(x0, x1)"),
    SF(2, "_zeta", "ff->f dd->d", "gpk_sf_zeta(x0, x1)"),
    SF(3, "gdtr", "fff->f ddd->d", "gpk_sf_gdtr(x0, x1, x2)"),
    SF(3, "gdtrc", "fff->f ddd->d", "gpk_sf_gdtrc(x0, x1, x2)"),
    SZ(3, "radian", "ddd->d fff->f", "gpk_sf_radian(x0, x1, x2)"),
    SF(2, "yn", "ld->d ff->f dd->d", "gpk_sf_yn(x0, x1)"),
    SF(2, "kn", "ld->d ff->f dd->d", "gpk_sf_kn(x0, x1)"),
    SF(1, "round", "f->f d->d", "gpk_sf_round(x0)"),
    SZ(1, "ellipk", "d->d f->f", "gpk_sf_ellipk(x0)"),
    SZ(1, "loggamma", "d->d f->f", "gpk_sf_loggamma(x0)"),
    SZ(1, "ellipkm1", "d->d f->f", "gpk_sf_ellipkm1(x0)"),
    SZ(2, "gammaincinv", "dd->d ff->f", "gpk_sf_gammaincinv(x0, x1)"),
    SZ(2, "gammainccinv", "dd->d ff->f", "gpk_sf_gammainccinv(x0, x1)"),
    SF(2, "chdtri", "ff->f dd->d", "gpk_sf_chdtri(x0, x1)"),
    SF(2, "pdtri", "ld->d ff->f dd->d", "gpk_sf_pdtri(x0, x1)"),
    SF(3, "betainc", "fff->f ddd->d", "gpk_sf_betainc(x0, x1, x2)"),
    SF(3, "betaincc", "fff->f ddd->d", "gpk_sf_betaincc(x0, x1, x2)"),
    SF(3, "bdtr", "fff->f dld->d ddd->d", "gpk_sf_bdtr(x0, x1, x2)"),
    SF(3, "bdtrc", "fff->f dld->d ddd->d", "gpk_sf_bdtrc(x0, x1, x2)"),
    SF(3, "nbdtr", "lld->d fff->f ddd->d", "gpk_sf_nbdtr(x0, x1, x2)"),
    SF(3, "nbdtrc", "lld->d fff->f ddd->d", "gpk_sf_nbdtrc(x0, x1, x2)"),
    SZ(1, "cosm1", "d->d f->f", "gpk_sf_cosm1(x0)"),
    SZ(1, "ellipe", "d->d f->f", "gpk_sf_ellipe(x0)"),
    SZ(2, "ellipkinc", "dd->d ff->f", "gpk_sf_ellipkinc(x0, x1)"),
    SZ(2, "ellipeinc", "dd->d ff->f", "gpk_sf_ellipeinc(x0, x1)"),
    SF(2, "_spherical_yn", "ld->d lf->f", "gpk_sf_spherical_yn(x0, x1)"),
    SF(2, "_spherical_yn_d", "ld->d lf->f", "gpk_sf_spherical_yn_d(x0, x1)"),
    SFN(1, 2, "sici", "f->ff d->dd", "{ double s_, c_; gpk_sf_sici(x0, &s_, &c_); y0 = s_; y1 = c_; }"),
    SFN(1, 2, "shichi", "f->ff d->dd", "{ double s_, c_; gpk_sf_shichi(x0, &s_, &c_); y0 = s_; y1 = c_; }"),
    /* Jacobi's elliptic functions, erfi, Dawson's and Fresnel's integrals,
     * Carlson's elliptic integrals, and the real
     * parts behind lambertw (gpunp/scipy/special/_lambertw.py) */
    SZN(2, 4, "ellipj", "dd->dddd ff->ffff",
        "{ double s_, c_, d_, p_; gpk_sf_jacobi(x0, x1, &s_, &c_, &d_, &p_); "
        "y0 = s_; y1 = c_; y2 = d_; y3 = p_; }"),
    SZ(1, "erfi", "d->d f->f", "gpk_sf_erfi(x0)"),
    SZ(1, "dawsn", "d->d f->f", "gpk_sf_dawsn(x0)"),
    SZN(1, 2, "fresnel", "d->dd f->ff", "{ double s_, c_; gpk_sf_fresnel(x0, &s_, &c_); y0 = s_; y1 = c_; }"),
    SF(2, "elliprc", "ff->f dd->d", "gpk_sf_elliprc(x0, x1)"),
    SF(3, "elliprd", "fff->f ddd->d", "gpk_sf_elliprd(x0, x1, x2)"),
    SF(3, "elliprf", "fff->f ddd->d", "gpk_sf_elliprf(x0, x1, x2)"),
    SF(3, "elliprg", "fff->f ddd->d", "gpk_sf_elliprg(x0, x1, x2)"),
    SFN(4, 2, "_lambertw_parts", "ddld->dd",
        "{ double r_, i_; gpk_sf_lambertw(x0, x1, (double)x2, x3, &r_, &i_); y0 = r_; y1 = i_; }"),
    /* orthogonal polynomials and spherical harmonics (sfpoly) */
    SF(2, "eval_chebyt", "ld->d ff->f dd->d", "gpk_sf_chebyt(x0, x1)"),
    SF(2, "eval_chebyu", "ld->d ff->f dd->d", "gpk_sf_chebyu(x0, x1)"),
    SF(2, "eval_chebyc", "ld->d ff->f dd->d", "gpk_sf_chebyc(x0, x1)"),
    SF(2, "eval_chebys", "ld->d ff->f dd->d", "gpk_sf_chebys(x0, x1)"),
    SF(2, "eval_sh_chebyt", "ld->d ff->f dd->d", "gpk_sf_sh_chebyt(x0, x1)"),
    SF(2, "eval_sh_chebyu", "ld->d ff->f dd->d", "gpk_sf_sh_chebyu(x0, x1)"),
    SF(2, "eval_hermite", "ld->d", "gpk_sf_hermite(x0, x1)"),
    SF(2, "eval_hermitenorm", "ld->d", "gpk_sf_hermitenorm(x0, x1)"),
    SFN(4, 2, "_sph_harm_y", "lldd->dd llff->ff",
        "{ double r_, i_; gpk_sf_sph_harm_y(x0, x1, x2, x3, &r_, &i_); y0 = r_; y1 = i_; }"),
    SF(2, "agm", "ff->f dd->d", "gpk_sf_agm(x0, x1)"),
    SF(1, "spence", "f->f d->d", "gpk_sf_spence(x0)"),
    /* Bessel functions of real order */
    SF(2, "jv", "ff->f dd->d", "gpk_sf_bv_jv(x0, x1)"),
    SF(2, "jve", "ff->f dd->d", "gpk_sf_bv_jve(x0, x1)"),
    SF(2, "yv", "ff->f dd->d", "gpk_sf_bv_yv(x0, x1)"),
    SF(2, "yve", "ff->f dd->d", "gpk_sf_bv_yve(x0, x1)"),
    SF(2, "iv", "ff->f dd->d", "gpk_sf_bv_iv(x0, x1)"),
    SF(2, "ive", "ff->f dd->d", "gpk_sf_bv_ive(x0, x1)"),
    SF(2, "kv", "ff->f dd->d", "gpk_sf_bv_kv(x0, x1)"),
    SF(2, "kve", "ff->f dd->d", "gpk_sf_bv_kve(x0, x1)"),
    SF(2, "_spherical_jn", "ld->d lf->f", "gpk_sf_bv_sph_jn(x0, x1)"),
    SF(2, "_spherical_jn_d", "ld->d lf->f", "gpk_sf_bv_sph_jn_d(x0, x1)"),
    SF(2, "_spherical_in", "ld->d lf->f", "gpk_sf_bv_sph_in(x0, x1)"),
    SF(2, "_spherical_in_d", "ld->d lf->f", "gpk_sf_bv_sph_in_d(x0, x1)"),
    SF(2, "_spherical_kn", "ld->d lf->f", "gpk_sf_bv_sph_kn(x0, x1)"),
    SF(2, "_spherical_kn_d", "ld->d lf->f", "gpk_sf_bv_sph_kn_d(x0, x1)"),
    SFN(1, 4, "airy", "f->ffff d->dddd", "{ double a_, b_, c_, d_; gpk_sf_bv_airy(x0, 0, &a_, &b_, &c_, &d_); y0 = a_; y1 = b_; y2 = c_; y3 = d_; }"),
    SFN(1, 4, "airye", "f->ffff d->dddd", "{ double a_, b_, c_, d_; gpk_sf_bv_airy(x0, 1, &a_, &b_, &c_, &d_); y0 = a_; y1 = b_; y2 = c_; y3 = d_; }"),
    /* the distribution functions and their inverses (issue 38) */
    SF(3, "betaincinv", "fff->f ddd->d", "gpk_sf_betaincinv(x0, x1, x2)"),
    SF(3, "betainccinv", "fff->f ddd->d", "gpk_sf_betainccinv(x0, x1, x2)"),
    SF(3, "bdtri", "fff->f dld->d ddd->d", "gpk_sf_bdtri(x0, x1, x2)"),
    SF(3, "nbdtri", "lld->d fff->f ddd->d", "gpk_sf_nbdtri(x0, x1, x2)"),
    SF(3, "fdtr", "fff->f ddd->d", "gpk_sf_fdtr(x0, x1, x2)"),
    SF(3, "fdtrc", "fff->f ddd->d", "gpk_sf_fdtrc(x0, x1, x2)"),
    SF(3, "fdtri", "fff->f ddd->d", "gpk_sf_fdtri(x0, x1, x2)"),
    /* Kolmogorov-Smirnov, ndtri_exp, the real parts behind wofz
     * (gpunp/scipy/special/_wofz.py), Owen's T (sfks) */
    SF(1, "kolmogorov", "f->f d->d", "gpk_sf_kolmogorov(x0)"),
    SF(1, "kolmogi", "f->f d->d", "gpk_sf_kolmogi(x0)"),
    SF(2, "smirnov", "ld->d ff->f dd->d", "gpk_sf_smirnov(x0, x1)"),
    SF(2, "smirnovi", "ld->d ff->f dd->d", "gpk_sf_smirnovi(x0, x1)"),
    SF(1, "ndtri_exp", "f->f d->d", "gpk_sf_ndtri_exp(x0)"),
    SFN(2, 2, "_wofz_parts", "dd->dd", "{ double r_, i_; gpk_sf_wofz(x0, x1, &r_, &i_); y0 = r_; y1 = i_; }"),
    SF(2, "owens_t", "ff->f dd->d", "gpk_sf_owens_t(x0, x1)"),
    /* the Hankel functions' real and imaginary parts, order and z's parts in
     * (gpunp/scipy/special/_hankel.py) */
#define HANKEL_ROW(name, kind, scaled)                                                   \
    SFN(3, 2, name, "fff->ff ddd->dd",                                                   \
        "{ double r_, i_; gpk_sf_bv_hankel(" #kind ", " #scaled ", x0, x1, x2, &r_, &i_); " \
        "y0 = r_; y1 = i_; }")
    HANKEL_ROW("_hankel1_parts", 1, 0),
    HANKEL_ROW("_hankel2_parts", 2, 0),
    HANKEL_ROW("_hankel1e_parts", 1, 1),
    HANKEL_ROW("_hankel2e_parts", 2, 1),
#undef HANKEL_ROW
    /* Student's t and the parameter inverses of the distributions (issue 38) */
    SF(2, "stdtr", "ff->f dd->d", "gpk_sf_stdtr(x0, x1)"),
    SF(2, "stdtrit", "ff->f dd->d", "gpk_sf_stdtrit(x0, x1)"),
    SF(2, "chdtriv", "ff->f dd->d", "gpk_sf_chdtriv(x0, x1)"),
    SF(2, "pdtrik", "ff->f dd->d", "gpk_sf_pdtrik(x0, x1)"),
    SF(3, "gdtria", "fff->f ddd->d", "gpk_sf_gdtria(x0, x1, x2)"),
    SF(3, "gdtrib", "fff->f ddd->d", "gpk_sf_gdtrib(x0, x1, x2)"),
    SF(3, "gdtrix", "fff->f ddd->d", "gpk_sf_gdtrix(x0, x1, x2)"),
    /* the parameter inverses on the incomplete beta function: Boost's
     * btdtria and btdtrib (whose float loops answer p = 1 and p = 0 with
     * float's smallest normal number), CDFLIB's others, but Boost's bdtrik,
     * bdtrin, nbdtrik and nbdtrin when SciPy 1.18 runs (issue 38) */
    SF(3, "btdtria", "fff->f ddd->d", "gpk_sf_pinv_btdtria(x0, x1, x2, sizeof(x0) == 4)"),
    SF(3, "btdtrib", "fff->f ddd->d", "gpk_sf_pinv_btdtrib(x0, x1, x2, sizeof(x0) == 4)"),
    SF(3, "bdtrik", "fff->f ddd->d", "gpk_sf_pinv_bdtrik(x0, x1, x2, GPK_SCIPY_VERSION >= 11800)"),
    SF(3, "bdtrin", "fff->f ddd->d", "gpk_sf_pinv_bdtrin(x0, x1, x2, sizeof(x0) == 4, GPK_SCIPY_VERSION >= 11800)"),
    SF(3, "nbdtrik", "fff->f ddd->d", "gpk_sf_pinv_nbdtrik(x0, x1, x2, GPK_SCIPY_VERSION >= 11800)"),
    SF(3, "nbdtrin", "fff->f ddd->d", "gpk_sf_pinv_nbdtrin(x0, x1, x2, GPK_SCIPY_VERSION >= 11800)"),
    SF(2, "stdtridf", "ff->f dd->d", "gpk_sf_pinv_stdtridf(x0, x1)"),
    SF(3, "fdtridfd", "fff->f ddd->d", "gpk_sf_pinv_fdtridfd(x0, x1, x2)"),
    /* Legendre, Laguerre, Gegenbauer and Jacobi polynomials (sfpoly, issue 38);
     * SciPy 1.18 changed Gegenbauer's and Jacobi's edges: the helpers take
     * which SciPy runs */
    SFL(2, "eval_legendre", "ld->d ff->f dd->d", "gpk_sf_op_legendre_int(x0, x1)",
        "gpk_sf_op_legendre(x0, x1)"),
    SFL(2, "eval_sh_legendre", "ld->d ff->f dd->d", "gpk_sf_op_sh_legendre_int(x0, x1)",
        "gpk_sf_op_sh_legendre(x0, x1)"),
    SFL(2, "eval_laguerre", "ld->d ff->f dd->d", "gpk_sf_op_laguerre_int(x0, x1)",
        "gpk_sf_op_laguerre(x0, x1)"),
    SFL(3, "eval_genlaguerre", "ldd->d fff->f ddd->d", "gpk_sf_op_genlaguerre_int(x0, x1, x2)",
        "gpk_sf_op_genlaguerre(x0, x1, x2)"),
    SFL(3, "eval_gegenbauer", "ldd->d fff->f ddd->d", "gpk_sf_op_gegenbauer_int(x0, x1, x2, GPK_SCIPY_VERSION >= 11800)",
        "gpk_sf_op_gegenbauer(x0, x1, x2, GPK_SCIPY_VERSION >= 11800)"),
    SFL(4, "eval_jacobi", "lddd->d ffff->f dddd->d", "gpk_sf_op_jacobi_int(x0, x1, x2, x3, GPK_SCIPY_VERSION >= 11800)",
        "gpk_sf_op_jacobi(x0, x1, x2, x3, GPK_SCIPY_VERSION >= 11800)"),
    SFL(4, "eval_sh_jacobi", "lddd->d ffff->f dddd->d", "gpk_sf_op_sh_jacobi_int(x0, x1, x2, x3, GPK_SCIPY_VERSION >= 11800)",
        "gpk_sf_op_sh_jacobi(x0, x1, x2, x3, GPK_SCIPY_VERSION >= 11800)"),
    /* the associated Legendre function of a real degree and the Struve
     * functions (sfa, issue 38) */
    SF(3, "lpmv", "fff->f ddd->d", "gpk_sf_op_lpmv(x0, x1, x2)"),
    SZ(2, "struve", "dd->d ff->f", "gpk_sf_bv_struve(x0, x1)"),
    SZ(2, "modstruve", "dd->d ff->f", "gpk_sf_bv_modstruve(x0, x1)"),
    /* Wright's generalized Bessel function and its log (wb, issue 38) */
    SZ(3, "wright_bessel", "ddd->d fff->f", "gpk_sf_wright_bessel(x0, x1, x2)"),
    SZ(3, "log_wright_bessel", "ddd->d fff->f", "gpk_sf_log_wright_bessel(x0, x1, x2)"),
};

const int32_t gp_nufuncs = (int32_t)(sizeof gp_ufuncs / sizeof *gp_ufuncs);

#define L_ID1 "?->? b->b B->B h->h H->H i->i I->I l->l L->L e->e E->E f->f d->d F->F D->D"

const gp_op_t gp_op_copy = {"_copy", 1, 1, GP_RES_DEFAULT, GP_IDENTITY_NONE, GP_NEUTRAL_NONE,
                            GP_CHECK_NONE, L_ID1, {ANY("x0")}, NULL};

/* arange: elements 0 and 1 given (x0, x1), the rest x0 + i * (x1 - x0) in the
 * dtype's compute type, as NumPy's dtype fill functions compute them */
const gp_op_t gp_op_arange = {
    "_arange", 2, 1, GP_RES_UNIFORM, GP_IDENTITY_NONE, GP_NEUTRAL_NONE, GP_CHECK_NONE,
    "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L ee->e EE->E ff->f dd->d FF->F DD->D",
    {ANY("(i == 0 ? x0 : i == 1 ? x1 : x0 + i * (x1 - x0))"),
     C("(i == 0 ? x0 : i == 1 ? x1 : F(make)(x0.re + i * (x1.re - x0.re), "
       "x0.im + i * (x1.im - x0.im)))")},
    NULL};

/* ---- parsed loops ---------------------------------------------------------- */

static pthread_once_t parse_once = PTHREAD_ONCE_INIT;
static gp_loops_t *parsed;       /* gp_nufuncs + 2 entries */
static gp_loops_t *by_size;      /* GP_RES_SIZED rows' loops in SciPy 1.18's order */
static gp_status_t parse_status;

static int32_t char_dtype(char c)
{
    int32_t dt = -1;
    if (gp_dtype_from_char(c, &dt) != GP_OK)
        return -1;
    return dt;
}

static gp_status_t parse_row(const gp_op_t *op, gp_loops_t *out)
{
    int32_t nargs = op->nin + op->nout, n = 0;
    if (nargs > GP_MAX_LOOP_ARGS) /* a row past the loops' width */
        return GP_ERR_TYPE;
    size_t len = strlen(op->loops);
    out->dt = calloc(len / 3 + 1, sizeof *out->dt);
    if (!out->dt)
        return GP_ERR_NOMEM;
    for (const char *p = op->loops; *p;) {
        while (*p == ' ')
            ++p;
        if (!*p)
            break;
        int32_t k = 0;
        for (; k < nargs && *p; ++p) {
            if (*p == '-' || *p == '>')
                continue;
            int32_t dt = char_dtype(*p);
            if (dt < 0)
                return GP_ERR_TYPE;
            out->dt[n][k++] = (int8_t)dt;
        }
        if (k != nargs)
            return GP_ERR_TYPE;
        ++n;
    }
    out->n = n;
    return GP_OK;
}

/* SciPy 1.18's order of a function's loops: real before complex, each by
 * the width of its widest inexact input (float32 before float64); stable. */
static int size_rank(const gp_loops_t *l, int32_t c, int nin)
{
    int complex = 0, width = 0;
    for (int k = 0; k < nin; ++k) {
        int32_t dt = l->dt[c][k], kind = gp_dtype_kind(dt);
        complex |= kind == GP_KIND_COMPLEX;
        if ((kind == GP_KIND_FLOAT || kind == GP_KIND_COMPLEX) && gp_dtype_size(dt) > width)
            width = (int)gp_dtype_size(dt);
    }
    return complex * 64 + width;
}

static gp_status_t sort_by_size(const gp_op_t *op, const gp_loops_t *in, gp_loops_t *out)
{
    out->n = in->n;
    out->dt = calloc((size_t)in->n + 1, sizeof *out->dt);
    if (!out->dt)
        return GP_ERR_NOMEM;
    int32_t n = 0;
    for (int r = 0; r < 2 * 64; ++r) /* a counting sort: ranks are small */
        for (int32_t c = 0; c < in->n; ++c)
            if (size_rank(in, c, op->nin) == r)
                memcpy(out->dt[n++], in->dt[c], sizeof *in->dt);
    return n == in->n ? GP_OK : GP_ERR_TYPE;
}

static void parse_all(void)
{
    parsed = calloc((size_t)gp_nufuncs + 2, sizeof *parsed);
    if (!parsed) {
        parse_status = GP_ERR_NOMEM;
        return;
    }
    by_size = calloc((size_t)gp_nufuncs, sizeof *by_size);
    if (!by_size) {
        parse_status = GP_ERR_NOMEM;
        return;
    }
    for (int32_t k = 0; k < gp_nufuncs && parse_status == GP_OK; ++k) {
        parse_status = parse_row(&gp_ufuncs[k], &parsed[k]);
        if (parse_status == GP_OK && gp_ufuncs[k].resolver == GP_RES_SIZED)
            parse_status = sort_by_size(&gp_ufuncs[k], &parsed[k], &by_size[k]);
    }
    if (parse_status == GP_OK)
        parse_status = parse_row(&gp_op_copy, &parsed[gp_nufuncs]);
    if (parse_status == GP_OK)
        parse_status = parse_row(&gp_op_arange, &parsed[gp_nufuncs + 1]);
}

gp_status_t gp_op_loops(const gp_op_t *op, const gp_loops_t **out)
{
    pthread_once(&parse_once, parse_all);
    if (parse_status != GP_OK)
        return gp_set_error(parse_status, "the op table's loop lists are malformed");
    ptrdiff_t k = op - gp_ufuncs;
    if (op == &gp_op_copy)
        k = gp_nufuncs;
    else if (op == &gp_op_arange)
        k = gp_nufuncs + 1;
    *out = op->resolver == GP_RES_SIZED && gp_scipy_version >= 11800 ? &by_size[k] : &parsed[k];
    return GP_OK;
}

int32_t gp_ufunc_id(const char *name)
{
    for (int32_t k = 0; k < gp_nufuncs; ++k)
        if (strcmp(gp_ufuncs[k].name, name) == 0)
            return k;
    return -1;
}

/* ---- the public view of the table -------------------------------------------- */

/* A switch of the followed release: the loaded kernels of the version's
 * expressions were generated for the old one, and the in-memory cache's key
 * (the kernel's spec) does not hold it, so they are forgotten (their disk
 * entries differ by source and stay valid). */
static gp_status_t set_version(int32_t *current, int32_t version)
{
    if (*current == version)
        return GP_OK;
    *current = version;
    return gp_cache_forget_loaded();
}

int32_t gp_numpy_version = 20400;

GP_API gp_status_t gp_set_numpy_version(int32_t version)
{
    if (version < 20000)
        return gp_set_error(GP_ERR_VALUE, "gpunp follows NumPy 2, not version %d", version);
    return set_version(&gp_numpy_version, version);
}

int32_t gp_scipy_version = 11700;

GP_API gp_status_t gp_set_scipy_version(int32_t version)
{
    if (version < 10000)
        return gp_set_error(GP_ERR_VALUE, "gpunp.scipy follows SciPy 1, not version %d", version);
    return set_version(&gp_scipy_version, version);
}

GP_API gp_status_t gp_ufunc_count(int32_t *out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_ufunc_count: out is NULL");
    *out = gp_nufuncs;
    return GP_OK;
}

GP_API gp_status_t gp_ufunc_find(const char *name, int32_t *out)
{
    if (!name || !out)
        return gp_set_error(GP_ERR_MISUSE, "gp_ufunc_find: NULL argument");
    *out = gp_ufunc_id(name);
    if (*out < 0)
        return gp_set_error(GP_ERR_NOT_FOUND, "no ufunc named '%s'", name);
    return GP_OK;
}

GP_API gp_status_t gp_ufunc_get_info(int32_t id, gp_ufunc_info_t *out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_ufunc_get_info: out is NULL");
    if (id < 0 || id >= gp_nufuncs)
        return gp_set_error(GP_ERR_VALUE, "invalid ufunc id %d", id);
    const gp_op_t *op = &gp_ufuncs[id];
    const gp_loops_t *loops;
    GP_TRY(gp_op_loops(op, &loops));
    out->name = op->name;
    out->nin = op->nin;
    out->nout = op->nout;
    out->ntypes = loops->n;
    out->identity = op->identity;
    out->reorderable = op->neutral != GP_NEUTRAL_NONE;
    return GP_OK;
}

GP_API gp_status_t gp_ufunc_get_loop(int32_t id, int32_t loop, int32_t *dtypes)
{
    if (!dtypes)
        return gp_set_error(GP_ERR_MISUSE, "gp_ufunc_get_loop: dtypes is NULL");
    if (id < 0 || id >= gp_nufuncs)
        return gp_set_error(GP_ERR_VALUE, "invalid ufunc id %d", id);
    const gp_op_t *op = &gp_ufuncs[id];
    const gp_loops_t *loops;
    GP_TRY(gp_op_loops(op, &loops));
    if (loop < 0 || loop >= loops->n)
        return gp_set_error(GP_ERR_VALUE, "invalid loop %d of ufunc %s", loop, op->name);
    for (int32_t k = 0; k < op->nin + op->nout; ++k)
        dtypes[k] = loops->dt[loop][k];
    return GP_OK;
}
