/*
 * gp_base.h - status codes, errors, version and the handle conventions of the
 * gpunp C ABI.
 *
 * Conventions that every other header follows:
 *  - Every function returns a gp_status_t (GP_OK on success) and writes its
 *    results through trailing out-pointers. On error, out-pointers that would
 *    receive a handle are set to NULL, and gp_errmsg() holds the detail.
 *  - Handles are opaque pointers. Creators end in `**out`; the caller owns
 *    one reference of what they return and gives it back with the matching
 *    `_release`/`_destroy`, which accepts NULL.
 *  - A handle that is NULL where one is required, stale or of the wrong kind
 *    gives GP_ERR_MISUSE. No function aborts the process.
 *  - Integers are fixed-width; enum values are explicit and never reused.
 *
 * This file is also read by cffi: build_ffi.py preprocesses gpunp.h with
 * GP_CDEF defined, so the Python binding and the C headers cannot disagree.
 */
#ifndef GP_BASE_H
#define GP_BASE_H

#ifndef GP_CDEF
#include <stddef.h>
#include <stdint.h>
#endif

#if defined(GP_CDEF)
#define GP_API
#elif defined(__GNUC__)
#define GP_API __attribute__((visibility("default")))
#else
#define GP_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define GP_VERSION_MAJOR 0
#define GP_VERSION_MINOR 1
#define GP_VERSION_PATCH 0

/* Maximum number of dimensions of an array (NumPy 2's limit). */
#define GP_MAXDIM 64

/* A status: GP_OK, a primary code, or an extended code that keeps its
 * primary code in the low byte (so `status & 0xff` is always primary). */
typedef int32_t gp_status_t;

enum gp_status_code {
    GP_OK = 0,
    GP_ERR_VALUE = 1,       /* a bad argument value (Python ValueError) */
    GP_ERR_TYPE = 2,        /* a bad type or dtype (TypeError) */
    GP_ERR_INDEX = 3,       /* an index out of bounds (IndexError) */
    GP_ERR_AXIS = 4,        /* an axis out of bounds (numpy AxisError) */
    GP_ERR_NOMEM = 5,       /* host or device memory exhausted (MemoryError) */
    GP_ERR_MISUSE = 6,      /* NULL, stale or foreign handle; API misuse */
    GP_ERR_UNSUPPORTED = 7, /* valid, but not implemented (NotImplementedError) */
    GP_ERR_BACKEND = 8,     /* the driver or runtime of a backend failed */
    GP_ERR_COMPILE = 9,     /* run-time compilation of a kernel failed */
    GP_ERR_OVERFLOW = 10,   /* a value does not fit its type (OverflowError) */
    GP_ERR_IO = 11,         /* a file could not be read or written */
    GP_ERR_NOT_FOUND = 12,  /* a library, device or symbol is missing */

    /* extended codes */
    GP_ERR_VALUE_BROADCAST = GP_ERR_VALUE | (1 << 8),      /* shapes do not broadcast */
    GP_ERR_VALUE_RESHAPE = GP_ERR_VALUE | (2 << 8),        /* impossible reshape */
    GP_ERR_TYPE_NO_LOOP = GP_ERR_TYPE | (1 << 8),          /* ufunc has no loop for the dtypes */
    GP_ERR_TYPE_CASTING = GP_ERR_TYPE | (2 << 8),          /* casting rule forbids a cast */
    GP_ERR_NOMEM_DEVICE = GP_ERR_NOMEM | (1 << 8),         /* device allocation failed */
    GP_ERR_NOT_FOUND_LIBRARY = GP_ERR_NOT_FOUND | (1 << 8),/* a shared library is missing */
    GP_ERR_NOT_FOUND_DEVICE = GP_ERR_NOT_FOUND | (2 << 8)  /* no device of the backend */
};

/* The primary code of a status. */
#define GP_PRIMARY(status) ((status) & 0xff)

/* Version of the library at run time, as major * 10000 + minor * 100 + patch. */
GP_API int32_t gp_version(void);

/* Version string, "major.minor.patch". Static storage; never NULL. */
GP_API const char *gp_version_string(void);

/* A short static description of a status code ("value error"...). Unknown
 * codes give "unknown error". Never NULL. */
GP_API const char *gp_errstr(gp_status_t code);

/* The detail of the last error raised on this thread, or "" if none.
 * The pointer stays valid until the next gpunp call on this thread. */
GP_API const char *gp_errmsg(void);

/* The status of the last error raised on this thread (GP_OK if none). */
GP_API gp_status_t gp_errcode(void);

#ifdef __cplusplus
}
#endif
#endif /* GP_BASE_H */
