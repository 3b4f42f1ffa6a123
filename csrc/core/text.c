/*
 * text.c - a growable string for generated source and messages, and FNV-1a.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

void gp_str_init(gp_str_t *s)
{
    s->data = NULL;
    s->len = s->cap = 0;
    s->failed = false;
}

void gp_str_free(gp_str_t *s)
{
    free(s->data);
    gp_str_init(s);
}

static bool reserve(gp_str_t *s, size_t extra)
{
    if (s->failed)
        return false;
    if (s->len + extra + 1 <= s->cap)
        return true;
    size_t cap = s->cap ? s->cap : 256;
    while (cap < s->len + extra + 1)
        cap *= 2;
    char *d = realloc(s->data, cap);
    if (!d) {
        s->failed = true;
        return false;
    }
    s->data = d;
    s->cap = cap;
    return true;
}

void gp_str_putn(gp_str_t *s, const char *text, size_t n)
{
    if (!reserve(s, n))
        return;
    memcpy(s->data + s->len, text, n);
    s->len += n;
    s->data[s->len] = '\0';
}

void gp_str_puts(gp_str_t *s, const char *text) { gp_str_putn(s, text, strlen(text)); }

void gp_str_printf(gp_str_t *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(s, (size_t)n)) {
        s->failed = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(s->data + s->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    s->len += (size_t)n;
}

uint64_t gp_fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t k = 0; k < n; ++k) {
        h ^= p[k];
        h *= 0x100000001b3ull;
    }
    return h;
}
