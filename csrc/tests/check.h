/*
 * check.h - a minimal test harness for the engine's C tests.
 *
 * A failed CHECK prints file:line and the expression and lets the test go
 * on, so one run reports every failure rather than the first. Each check
 * is also an expression giving 1 or 0, so a test can stop before it would
 * dereference something a failed check left NULL:
 *
 *     if (!CHECK_OK(gp_array_empty(..., &a)))
 *         return;
 *
 * CHECK_EQ and friends print both values. check_pass and check_fail
 * let a test file build checks of its own (gp_test.h adds status checks
 * that print the engine's error message).

 */
#ifndef GP_TEST_CHECK_H
#define GP_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static struct {
    long total;
    long failed;
    const char *test; /* the test being run, for failure reports */
} check_state = {0, 0, ""};

/* Counts a passed check; returns 1. */
static inline int check_pass(void)
{
    ++check_state.total;
    return 1;
}

/* Counts a failed check and prints its first line, "file:line: FAIL in
 * test"; the caller prints the details, indented. Returns 0. */
static inline int check_fail(const char *file, int line)
{
    ++check_state.total;
    ++check_state.failed;
    fprintf(stderr, "%s:%d: FAIL in %s\n", file, line, check_state.test);
    return 0;
}

static inline int check_bool(int ok, const char *expr, const char *file, int line)
{
    if (ok)
        return check_pass();
    check_fail(file, line);
    fprintf(stderr, "    CHECK(%s)\n", expr);
    return 0;
}

static inline int check_eq_ll(long long a, long long b, const char *ea, const char *eb,
                              const char *file, int line)
{
    if (a == b)
        return check_pass();
    check_fail(file, line);
    fprintf(stderr, "    CHECK_EQ(%s, %s)\n    %lld != %lld\n", ea, eb, a, b);
    return 0;
}

static inline int check_eq_str(const char *a, const char *b, const char *ea, const char *eb,
                               const char *file, int line)
{
    if (a && b && strcmp(a, b) == 0)
        return check_pass();
    check_fail(file, line);
    fprintf(stderr, "    CHECK_STR_EQ(%s, %s)\n    \"%s\"\n != \"%s\"\n", ea, eb,
            a ? a : "(null)", b ? b : "(null)");
    return 0;
}

static inline int check_has_str(const char *hay, const char *needle, const char *eh,
                                const char *file, int line)
{
    if (hay && needle && strstr(hay, needle))
        return check_pass();
    check_fail(file, line);
    fprintf(stderr, "    CHECK_HAS_STR(%s, \"%s\")\n    \"%s\"\n", eh, needle ? needle : "",
            hay ? hay : "(null)");
    return 0;
}

#define CHECK(cond) check_bool((cond) ? 1 : 0, #cond, __FILE__, __LINE__)
#define CHECK_EQ(a, b) check_eq_ll((long long)(a), (long long)(b), #a, #b, __FILE__, __LINE__)
#define CHECK_STR_EQ(a, b) check_eq_str((a), (b), #a, #b, __FILE__, __LINE__)
#define CHECK_HAS_STR(hay, needle) check_has_str((hay), (needle), #hay, __FILE__, __LINE__)

/* Runs one test function under its name. */
#define RUN(fn)                          \
    do {                                 \
        check_state.test = #fn;          \
        fn();                            \
        check_state.test = "";           \
    } while (0)

/* Prints the summary line; the exit status for main. */
static inline int check_summary(const char *suite)
{
    fprintf(stderr, "%s: %ld checks, %ld failed", suite, check_state.total, check_state.failed);
    fprintf(stderr, "\n");
    return check_state.failed ? 1 : 0;
}

#endif /* GP_TEST_CHECK_H */
