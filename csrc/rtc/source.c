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
static const struct {
    const char *define;
    const char *words[20];
} sections[] = {
    {"GPK_WITH_INT", {"floordiv", "remainder", "power", "lshift", "rshift", "neg", "abs", "sign",
                      "reciprocal", "fmod", "gcd", "lcm", "bitwise_count", "popcount"}},
    {"GPK_WITH_REAL", {"floordiv", "remainder", "power", "abs", "sign", "reciprocal", "maximum",
                       "minimum", "heaviside", "logaddexp", "spacing", "deg2rad", "rad2deg",
                       "frexp", "modf", "ldexp", "nextafter"}},
    {"GPK_WITH_RNG", {"philox", "gpk_rng", "mul64", "u32x4", "f32x2"}},
    {"GPK_WITH_C64", {"c64"}},
    {"GPK_WITH_C128", {"c64", "c128"}},
};

static bool spells(const char *body, size_t len, const char *what)
{
    size_t n = strlen(what);
    for (size_t i = 0; i + n <= len; ++i)
        if (body[i] == what[0] && memcmp(body + i, what, n) == 0)
            return true;
    return false;
}

/* The common prelude without the sections in `skip`: each runs from a line
 * "#ifdef GPK_WITH_<NAME>" to the "#endif" line that names it again. The
 * preprocessor would leave them out too, but NVRTC's still reads the lines
 * it skips (a quarter of what the sections cost it). */
static void put_common(gp_str_t *out, const bool *skip)
{
    const char *p = gp_prelude_common, *at;
    while ((at = strstr(p, "\n#ifdef GPK_WITH_")) != NULL) {
        at += 1;
        const char *name = at + strlen("#ifdef ");
        size_t n = strcspn(name, " \n");
        const char *end = NULL;
        for (size_t k = 0; k < sizeof sections / sizeof sections[0] && !end; ++k)
            if (skip[k] && strlen(sections[k].define) == n &&
                memcmp(name, sections[k].define, n) == 0) {
                char close[64];
                snprintf(close, sizeof close, "\n#endif /* %s */\n", sections[k].define);
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

void gp_kernel_source(gp_str_t *out, const char *prelude, const char *body, size_t len)
{
    bool skip[sizeof sections / sizeof sections[0]];
    for (size_t k = 0; k < sizeof sections / sizeof sections[0]; ++k) {
        skip[k] = true;
        for (const char *const *w = sections[k].words; *w && skip[k]; ++w)
            skip[k] = !spells(body, len, *w);
        if (!skip[k])
            gp_str_printf(out, "#define %s 1\n", sections[k].define);
    }
    gp_str_puts(out, prelude);
    gp_str_puts(out, "\n");
    put_common(out, skip);
    gp_str_puts(out, "\n");
    /* SciPy's special functions are a prelude of their own, thousands of
     * lines no other kernel should make NVRTC read: a body gets it when it
     * calls one of them (every name starts gpk_sf_) */
    if (spells(body, len, "gpk_sf_")) {
        gp_str_puts(out, gp_prelude_special);
        gp_str_puts(out, "\n");
    }
    gp_str_putn(out, body, len);
}
