/*
 * source.c - what a compiler is given for a generated kernel: the backend's
 * prelude, the sections of the common prelude the kernel asks for, then the
 * kernel. The kernel cache hashes exactly this text, and the compile checks
 * (gp_rtc_check_*) compile it.
 */
#include <stdio.h>
#include <string.h>

#include "rtc.h"

/* The common prelude's optional sections (common.h) and the words that ask
 * for each: a helper's name (as gpk_NAME_S or as F(NAME)), a type's suffix.
 * Parsing every section is a fifth of NVRTC's work for a small kernel, so
 * a body gets a section only when it spells one of its words. A word
 * spelled by chance costs only compile time; a helper called without its
 * word fails to compile, which the kernel checks (tools/check_kernels.py)
 * catch for every kernel the tests make. Every complex helper's name and
 * type ends in c64 or c128, and complex64's inverse trigonometric functions
 * are complex128's, rounded. */
typedef struct {
    const char *define;
    const char *words[24];
} section_t;

static const section_t sections[] = {
    {"GPK_WITH_INT", {"floordiv", "remainder", "power", "lshift", "rshift", "neg", "abs", "sign",
                      "reciprocal", "fmod", "gcd", "lcm", "bitwise_count", "popcount"}},
    {"GPK_WITH_REAL", {"floordiv", "remainder", "power", "abs", "sign", "reciprocal", "maximum",
                       "minimum", "heaviside", "logaddexp", "spacing", "deg2rad", "rad2deg",
                       "frexp", "modf", "ldexp", "nextafter"}},
    {"GPK_WITH_BF16", {"bf16"}},
    {"GPK_WITH_RNG", {"philox", "gpk_rng", "mul64", "u32x4", "f32x2"}},
    {"GPK_WITH_C64", {"c64"}},
    {"GPK_WITH_C128", {"c64", "c128"}},
};

/* SciPy's special functions (prelude/special.h), a prelude of their own
 * that a body gets when it calls one (every name starts gpk_sf_), cut the
 * same way: a section for each family, asked for by its functions' calls.
 * The incomplete gamma functions use erfc (their normal limit) and rgamma
 * (their factor x^a e^-x / Gamma(a)), so their calls ask for the error
 * and gamma functions too. */
#define SF_IGAM_WORDS "gpk_sf_gammainc", "gpk_sf_pdtr", "gpk_sf_chdtr", "gpk_sf_gdtr"
/* the incomplete beta functions use beta (GAMMA), erfc (ERF) and their
 * incomplete gamma limit (IGAM) */
#define SF_IBETA_WORDS "gpk_sf_betainc", "gpk_sf_bdtr", "gpk_sf_nbdtr", "gpk_sf_fdtr", \
    "gpk_sf_stdtr", "gpk_sf_pinv_"
/* ndtri_exp uses ndtri and log_ndtr, wofz and owens_t erfcx (ERF) */
#define SF_ERF_KS_WORDS "gpk_sf_ndtri_exp(", "gpk_sf_wofz(", "gpk_sf_owens_t("
/* the inverses of the incomplete beta function and the F distribution on it */
#define SF_IBETAINV_WORDS "gpk_sf_betaincinv", "gpk_sf_betainccinv", "gpk_sf_bdtri", \
    "gpk_sf_nbdtri", "gpk_sf_fdtr", "gpk_sf_stdtr"
/* the orthogonal polynomials (their hypergeometric forms use Gamma, beta,
 * binom and psi) */
#define SF_OPOLY_WORDS "gpk_sf_op_"
static const section_t sf_sections[] = {
    {"GPK_SF_GAMMA", {"gpk_sf_gamma(", "gpk_sf_gamma_f32(", "gpk_sf_gammaln(", "gpk_sf_gammasgn(", "gpk_sf_rgamma(",
                      "gpk_sf_digamma(", "gpk_sf_beta(", "gpk_sf_betaln(", "gpk_sf_poch(",
                      "gpk_sf_binom(", "gpk_sf_loggamma(", SF_IGAM_WORDS, SF_IBETA_WORDS,
                      SF_OPOLY_WORDS}},
    {"GPK_SF_ERF", {"gpk_sf_erf(", "gpk_sf_erf_f32(", "gpk_sf_erfc(", "gpk_sf_erfcx(", "gpk_sf_ndtr(",
                    "gpk_sf_log_ndtr(", "gpk_sf_erfinv(", "gpk_sf_erfcinv(", "gpk_sf_ndtri(",
                    SF_IGAM_WORDS, SF_IBETA_WORDS, SF_ERF_KS_WORDS}},
    {"GPK_SF_MISC", {"gpk_sf_expit(", "gpk_sf_logit(", "gpk_sf_log_expit(", "gpk_sf_xlog",
                     "gpk_sf_entr(", "gpk_sf_rel_entr(", "gpk_sf_kl_div(", "huber(",
                     "boxcox", "gpk_sf_exp10(", "gpk_sf_exp2(", "gpk_sf_cbrt(", "gpk_sf_log1p(",
                     "gpk_sf_expm1(", "gpk_sf_radian(", "dg(", "gpk_sf_round(", "gpk_sf_cosm1("}},
    {"GPK_SF_IGAM", {SF_IGAM_WORDS, SF_IBETA_WORDS}},
    {"GPK_SF_BESSEL", {"gpk_sf_j0(", "gpk_sf_j0_f32(", "gpk_sf_j1(", "gpk_sf_y0(", "gpk_sf_y1(", "gpk_sf_i0",
                       "gpk_sf_i1", "gpk_sf_k0", "gpk_sf_k1", "gpk_sf_yn(", "gpk_sf_kn(",
                       "gpk_sf_spherical_yn", "gpk_sf_bv_"}},
    {"GPK_SF_EXPINT", {"gpk_sf_expn(", "gpk_sf_exp1(", "gpk_sf_expi(", "gpk_sf_exprel(",
                       "gpk_sf_sici(", "gpk_sf_shichi("}},
    {"GPK_SF_ZETA", {"zeta"}},
    {"GPK_SF_ELLIP", {"gpk_sf_ellip"}},
    {"GPK_SF_IBETA", {SF_IBETA_WORDS}},
    {"GPK_SF_JACOBI", {"gpk_sf_jacobi("}},
    {"GPK_SF_LAMBERTW", {"gpk_sf_lambertw(", "gpk_sf_bv_hankel("}},
    {"GPK_SF_DAWSON", {"gpk_sf_erfi(", "gpk_sf_dawsn("}},
    {"GPK_SF_FRESNEL", {"gpk_sf_fresnel("}},
    {"GPK_SF_CARLSON", {"gpk_sf_ellipr"}},
    {"GPK_SF_POLY", {"gpk_sf_cheby", "gpk_sf_sh_cheby", "gpk_sf_herm", "gpk_sf_sph_harm"}},
    {"GPK_SF_AGM", {"gpk_sf_agm("}},
    {"GPK_SF_SPENCE", {"gpk_sf_spence("}},
    {"GPK_SF_BESSELV", {"gpk_sf_bv_"}},
    {"GPK_SF_IBETAINV", {SF_IBETAINV_WORDS}},
    /* Kolmogorov-Smirnov, ndtri_exp, wofz, owens_t (issue 38) */
    {"GPK_SF_KOLMOG", {"gpk_sf_kolmog", "gpk_sf_smirnov"}},
    {"GPK_SF_NDTRIEXP", {"gpk_sf_ndtri_exp("}},
    {"GPK_SF_WOFZ", {"gpk_sf_wofz("}},
    {"GPK_SF_OWENS", {"gpk_sf_owens_t("}},
    {"GPK_SF_HANKEL", {"gpk_sf_bv_hankel("}},
    {"GPK_SF_STDTR", {"gpk_sf_stdtr"}},
    {"GPK_SF_ROOT", {"gpk_sf_chdtriv", "gpk_sf_pdtrik", "gpk_sf_gdtri", "gpk_sf_pinv_"}},
    {"GPK_SF_SHAPEINV", {"gpk_sf_chdtriv", "gpk_sf_pdtrik", "gpk_sf_gdtri"}},
    /* the parameter inverses on the incomplete beta function (issue 38) */
    {"GPK_SF_PINV", {"gpk_sf_pinv_"}},
    {"GPK_SF_OPOLY", {SF_OPOLY_WORDS}},
    /* lpmv (on OPOLY's Gegenbauer function), the Struve functions (on BESSELV) */
    {"GPK_SF_LPMV", {"gpk_sf_op_lpmv("}},
    {"GPK_SF_STRUVE", {"gpk_sf_bv_struve(", "gpk_sf_bv_modstruve("}},
    /* Wright's generalized Bessel function and its log */
    {"GPK_SF_WRIGHT", {"gpk_sf_wright_bessel(", "gpk_sf_log_wright_bessel("}},
};

static bool spells(const char *body, size_t len, const char *what)
{
    size_t n = strlen(what);
    for (size_t i = 0; i + n <= len; ++i)
        if (body[i] == what[0] && memcmp(body + i, what, n) == 0)
            return true;
    return false;
}

/* `text` (a prelude) without the sections of `table` in `skip`: each runs
 * from a line "#ifdef <define>" to the "#endif" line that names it again.
 * The preprocessor would leave them out too, but NVRTC's still reads the
 * lines it skips (a quarter of what the sections cost it). `opener` is the
 * start of the table's #ifdef lines ("\n#ifdef GPK_WITH_"). */
static void put_cut(gp_str_t *out, const char *text, const char *opener, const section_t *table,
                    size_t n_table, const bool *skip)
{
    const char *p = text, *at;
    while ((at = strstr(p, opener)) != NULL) {
        at += 1;
        const char *name = at + strlen("#ifdef ");
        size_t n = strcspn(name, " \n");
        const char *end = NULL;
        for (size_t k = 0; k < n_table && !end; ++k)
            if (skip[k] && strlen(table[k].define) == n &&
                memcmp(name, table[k].define, n) == 0) {
                char close[64];
                snprintf(close, sizeof close, "\n#endif /* %s */\n", table[k].define);
                end = strstr(at, close);
                if (end)
                    end += strlen(close) - 1; /* the line's end stays */
            }
        if (end) {
            gp_str_putn(out, p, (size_t)(at - p));
            p = end;
        } else {
            gp_str_putn(out, p, (size_t)(name - p));
            p = name;
        }
    }
    gp_str_puts(out, p);
}

/* Which sections of `table` `body` asks for (skip[k] false), with their
 * defines written to `out`. */
static void choose_sections(gp_str_t *out, const section_t *table, size_t n, const char *body,
                            size_t len, bool *skip)
{
    for (size_t k = 0; k < n; ++k) {
        skip[k] = true;
        for (const char *const *w = table[k].words; *w && skip[k]; ++w)
            skip[k] = !spells(body, len, *w);
        if (!skip[k])
            gp_str_printf(out, "#define %s 1\n", table[k].define);
    }
}

void gp_kernel_source(gp_str_t *out, const char *prelude, const char *body, size_t len)
{
    enum { NC = sizeof sections / sizeof sections[0], NS = sizeof sf_sections / sizeof sf_sections[0] };
    bool skip[NC], sf_skip[NS];
    choose_sections(out, sections, NC, body, len, skip);
    /* SciPy's special functions are a prelude of their own, some 1,400 lines
     * no other kernel should make NVRTC read: a body gets it when it calls
     * one of them (every name starts gpk_sf_), less the families it does
     * not call */
    bool special = spells(body, len, "gpk_sf_");
    if (special)
        choose_sections(out, sf_sections, NS, body, len, sf_skip);
    gp_str_puts(out, prelude);
    gp_str_puts(out, "\n");
    put_cut(out, gp_prelude_common, "\n#ifdef GPK_WITH_", sections, NC, skip);
    gp_str_puts(out, "\n");
    if (special) {
        put_cut(out, gp_prelude_special, "\n#ifdef GPK_SF_", sf_sections, NS, sf_skip);
        gp_str_puts(out, "\n");
    }
    gp_str_putn(out, body, len);
}
