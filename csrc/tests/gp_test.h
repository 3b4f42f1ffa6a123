/*
 * gp_test.h - helpers shared by the engine's C tests: status checks that
 * show gp_errmsg(), arrays of known contents, and reading an array's
 * elements straight from memory.
 *
 * The tests run on the host backend, where device memory is host memory,
 * so an array's elements can be read through gp_array_info_t.data without
 * a copy kernel. That lets the view tests check metadata and contents
 * without compiling anything.
 */
#ifndef GP_TEST_H
#define GP_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gpunp.h"

/* A status compared with the expected one; on a mismatch the engine's
 * message is printed too. The status is a value here, so the message is
 * read after the call that set it. */
static inline int check_status_at(gp_status_t got, gp_status_t want, const char *expr,
                                  const char *file, int line)
{
    if (got == want)
        return check_pass();
    check_fail(file, line);
    fprintf(stderr, "    %s\n    gave %d (%s), expected %d (%s)\n", expr, (int)got,
            gp_errstr(got), (int)want, gp_errstr(want));
    if (got != GP_OK)
        fprintf(stderr, "    gp_errmsg: %s\n", gp_errmsg());
    return 0;
}

/* As check_status_at, and the message must be `msg` exactly. */
static inline int check_error_at(gp_status_t got, gp_status_t want, const char *msg,
                                 const char *expr, const char *file, int line)
{
    if (!check_status_at(got, want, expr, file, line))
        return 0;
    if (strcmp(gp_errmsg(), msg) == 0)
        return 1; /* counted once, as one check */
    --check_state.total;
    check_fail(file, line);
    fprintf(stderr, "    %s\n    message \"%s\"\n    expected \"%s\"\n", expr, gp_errmsg(),
            msg);
    return 0;
}

#define CHECK_OK(expr) check_status_at((expr), GP_OK, #expr, __FILE__, __LINE__)
#define CHECK_STATUS(expr, code) check_status_at((expr), (code), #expr, __FILE__, __LINE__)
#define CHECK_ERROR(expr, code, msg) check_error_at((expr), (code), (msg), #expr, __FILE__, __LINE__)

#define NELEMS(x) ((int)(sizeof(x) / sizeof((x)[0])))

/* Starts the host backend, which every test expects. */
static inline int gp_test_init(void) { return CHECK_OK(gp_runtime_init("host")); }

/* A C-contiguous int32 array whose elements are 0, 1, 2, ... in C order,
 * so an element's value names its position in the original array. NULL
 * (after a failed check) on error. */
static inline gp_array_t *iota_i32(int32_t ndim, const int64_t *shape)
{
    int64_t n = 1;
    for (int32_t k = 0; k < ndim; ++k)
        n *= shape[k];
    int32_t *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    if (!CHECK(v != NULL))
        return NULL;
    for (int64_t k = 0; k < n; ++k)
        v[k] = (int32_t)k;
    gp_array_t *a = NULL;
    CHECK_OK(gp_array_from_host(v, n * 4, GP_INT32, ndim, shape, NULL, &a));
    free(v);
    return a;
}

/* Copies the elements of `a` in C order into `dst` (room for info.nbytes)
 * by walking its strides in memory; returns the number of elements. */
static inline int64_t gather(const gp_array_t *a, void *dst)
{
    gp_array_info_t info;
    if (gp_array_get_info(a, &info) != GP_OK)
        return -1;
    if (info.size == 0)
        return 0;
    int64_t idx[GP_MAXDIM] = {0};
    const char *base = (const char *)(uintptr_t)info.data;
    char *out = dst;
    for (int64_t e = 0; e < info.size; ++e) {
        int64_t off = 0;
        for (int32_t d = 0; d < info.ndim; ++d)
            off += idx[d] * info.strides[d];
        memcpy(out + e * info.itemsize, base + off, (size_t)info.itemsize);
        for (int32_t d = info.ndim - 1; d >= 0; --d) {
            if (++idx[d] < info.shape[d])
                break;
            idx[d] = 0;
        }
    }
    return info.size;
}

/* Whether int32 array `a` holds exactly `n` elements equal to `want` in C
 * order; prints both on a mismatch. */
static inline int values_i32(const gp_array_t *a, const int32_t *want, int64_t n)
{
    gp_array_info_t info;
    if (gp_array_get_info(a, &info) != GP_OK || info.dtype != GP_INT32)
        return 0;
    int32_t *got = malloc((size_t)(info.size > 0 ? info.size : 1) * sizeof *got);
    if (!got)
        return 0;
    int64_t m = gather(a, got);
    int ok = m == n && (n == 0 || memcmp(got, want, (size_t)n * sizeof *got) == 0);
    if (!ok) {
        fprintf(stderr, "    got  [");
        for (int64_t k = 0; k < m; ++k)
            fprintf(stderr, "%s%d", k ? ", " : "", got[k]);
        fprintf(stderr, "]\n    want [");
        for (int64_t k = 0; k < n; ++k)
            fprintf(stderr, "%s%d", k ? ", " : "", want[k]);
        fprintf(stderr, "]\n");
    }
    free(got);
    return ok;
}

/* Whether `a` has exactly this shape. */
static inline int has_shape(const gp_array_t *a, int32_t ndim, const int64_t *shape)
{
    gp_array_info_t info;
    if (gp_array_get_info(a, &info) != GP_OK || info.ndim != ndim)
        return 0;
    for (int32_t k = 0; k < ndim; ++k)
        if (info.shape[k] != shape[k])
            return 0;
    return 1;
}

/* Whether `a` has exactly these byte strides. */
static inline int has_strides(const gp_array_t *a, int32_t ndim, const int64_t *strides)
{
    gp_array_info_t info;
    if (gp_array_get_info(a, &info) != GP_OK || info.ndim != ndim)
        return 0;
    for (int32_t k = 0; k < ndim; ++k)
        if (info.strides[k] != strides[k])
            return 0;
    return 1;
}

static inline int32_t flags_of(const gp_array_t *a)
{
    gp_array_info_t info;
    return gp_array_get_info(a, &info) == GP_OK ? info.flags : -1;
}

static inline uint64_t data_of(const gp_array_t *a)
{
    gp_array_info_t info;
    return gp_array_get_info(a, &info) == GP_OK ? info.data : 0;
}

#endif /* GP_TEST_H */
