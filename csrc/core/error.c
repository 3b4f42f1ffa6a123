/*
 * error.c - the thread-local last error, status strings and version.
 */
#include <stdarg.h>
#include <stdio.h>

#include "core.h"

#define GP_ERRMSG_MAX 4096

static _Thread_local char tls_msg[GP_ERRMSG_MAX];
static _Thread_local gp_status_t tls_code;

gp_status_t gp_set_error(gp_status_t code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tls_msg, sizeof tls_msg, fmt, ap);
    va_end(ap);
    tls_code = code;
    return code;
}

void gp_clear_error(void)
{
    tls_msg[0] = '\0';
    tls_code = GP_OK;
}

GP_API const char *gp_errmsg(void) { return tls_msg; }

GP_API gp_status_t gp_errcode(void) { return tls_code; }

GP_API const char *gp_errstr(gp_status_t code)
{
    /* codes are non-negative, and GP_OK has no extended forms: 0x100 or
     * INT32_MIN must not read as success */
    if (code < 0 || (code != GP_OK && GP_PRIMARY(code) == GP_OK))
        return "unknown error";
    switch (GP_PRIMARY(code)) {
    case GP_OK: return "not an error";
    case GP_ERR_VALUE: return "value error";
    case GP_ERR_TYPE: return "type error";
    case GP_ERR_INDEX: return "index error";
    case GP_ERR_AXIS: return "axis error";
    case GP_ERR_NOMEM: return "out of memory";
    case GP_ERR_MISUSE: return "API misuse";
    case GP_ERR_UNSUPPORTED: return "not supported";
    case GP_ERR_BACKEND: return "backend failure";
    case GP_ERR_COMPILE: return "kernel compilation failed";
    case GP_ERR_OVERFLOW: return "overflow";
    case GP_ERR_IO: return "input/output error";
    case GP_ERR_NOT_FOUND: return "not found";
    default: return "unknown error";
    }
}

#define GP_STR2(x) #x
#define GP_STR(x) GP_STR2(x)

GP_API int32_t gp_version(void)
{
    return GP_VERSION_MAJOR * 10000 + GP_VERSION_MINOR * 100 + GP_VERSION_PATCH;
}

GP_API const char *gp_version_string(void)
{
    return GP_STR(GP_VERSION_MAJOR) "." GP_STR(GP_VERSION_MINOR) "." GP_STR(GP_VERSION_PATCH);
}
