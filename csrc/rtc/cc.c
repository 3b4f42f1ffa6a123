/*
 * cc.c - the host backend's compiler: the system C compiler turns a kernel
 * source into a shared object, which is loaded from memory.
 *
 * Why a real compiler rather than an interpreter or precompiled loops: the
 * host backend must run the very source the GPU backends compile, for every
 * kernel the engine can generate (any op, dtype combination and layout), so
 * it compiles that source; the disk cache makes this a one-time cost.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rtc.h"

extern char **environ;

/* Flags every host kernel is compiled with: C11, IEEE semantics (no fast
 * math, no contraction into FMA, so results match the GPU's with
 * -fmad=false), wrapping signed arithmetic as NumPy's integer loops.
 * Every loaded kernel stays mapped, and Linux allows a process 65530
 * mappings: a default shared object takes five, which CI's single test
 * process ran out of after about 13000 kernels (dlopen failed, then NVRTC
 * aborted). One read-execute and one read-write segment take two. */
static const char *const CFLAGS[] = {
    "-O2", "-std=c11", "-fPIC", "-shared", "-fwrapv", "-fno-math-errno",
    "-ffp-contract=off", "-fvisibility=hidden", "-w",
    "-Wl,-z,noseparate-code", "-Wl,-z,norelro", NULL,
};

/* A compiler that never finishes would hold its caller (and those waiting
 * for the same kernel) for ever; ten minutes is far past any kernel's
 * compile, so only a hung compiler meets it. */
#define DEFAULT_COMPILE_TIMEOUT 600.0

gp_status_t gp_compile_timeout(double *seconds)
{
    const char *t = getenv("GPUNP_COMPILE_TIMEOUT");
    *seconds = DEFAULT_COMPILE_TIMEOUT;
    if (!t || !*t)
        return GP_OK;
    char *end;
    double v = strtod(t, &end);
    if (end == t || *end != '\0' || !(v >= 0) || v > 1e9)
        return gp_set_error(GP_ERR_VALUE, "GPUNP_COMPILE_TIMEOUT is '%s', not a number of "
                                          "seconds (0 for no limit)", t);
    *seconds = v;
    return GP_OK;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Waits for child `pid` to end, at most `timeout` seconds (0: no limit);
 * past that, kills its process group, which holds what it started. */
static gp_status_t wait_child(pid_t pid, const char *name, double timeout, int *status)
{
    double deadline = now_seconds() + timeout;
    int pidfd = -1; /* readable when the child ends: no polling delay */
#ifdef SYS_pidfd_open
    if (timeout > 0)
        pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
#endif
    long nap_us = 100;
    gp_status_t s = GP_OK;
    for (;;) {
        pid_t r = waitpid(pid, status, timeout > 0 ? WNOHANG : 0);
        if (r == pid)
            break;
        if (r < 0) {
            if (errno == EINTR)
                continue;
            s = gp_set_error(GP_ERR_BACKEND, "waiting for '%s': %s", name, strerror(errno));
            break;
        }
        double left = deadline - now_seconds();
        if (left <= 0) {
            kill(-pid, SIGKILL);
            while (waitpid(pid, status, 0) < 0 && errno == EINTR)
                ;
            s = gp_set_error(GP_ERR_COMPILE, "'%s' did not finish within %g s and was stopped "
                                             "(GPUNP_COMPILE_TIMEOUT)", name, timeout);
            break;
        }
        if (pidfd >= 0) {
            struct pollfd p = {.fd = pidfd, .events = POLLIN};
            poll(&p, 1, left > 1e6 ? 1000000000 : (int)(left * 1e3) + 1);
        } else {
            long us = left * 1e6 < (double)nap_us ? (long)(left * 1e6) + 1 : nap_us;
            nanosleep(&(struct timespec){us / 1000000, us % 1000000 * 1000}, NULL);
            nap_us = nap_us < 10000 ? 2 * nap_us : nap_us;
        }
    }
    if (pidfd >= 0)
        close(pidfd);
    return s;
}

gp_status_t gp_run_process(char *const argv[], int out_fd, double timeout, int *exit_code)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (out_fd >= 0)
        posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
    else
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    /* a process group of its own, so that stopping it stops the programs
     * it runs (cc1, as, ld) too */
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, &attr, argv, environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return gp_set_error(GP_ERR_NOT_FOUND, "cannot run '%s': %s", argv[0], strerror(rc));
    int status = 0;
    GP_TRY(wait_child(pid, argv[0], timeout, &status));
    *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return GP_OK;
}

/* A new file in the private folder or temporary file set-up: created, never
 * opened if it exists, never through a link, the user's alone. */
static int create_file(const char *path, int access)
{
    return open(path, access | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
}

static const char *tmp_dir(void)
{
    const char *d = getenv("TMPDIR");
    return d && *d ? d : "/tmp";
}

/* Up to n - 1 bytes from the start of the open file `fd`, as text. */
static void read_back(int fd, char *text, size_t n)
{
    ssize_t got = pread(fd, text, n - 1, 0);
    text[got > 0 ? got : 0] = '\0';
}

/* ---- which compiler ------------------------------------------------------- */

#define MAX_CC_WORDS 16
#define MAX_CC_TEXT 1024

static pthread_once_t cc_once = PTHREAD_ONCE_INIT;
static char cc_text[2 * MAX_CC_TEXT]; /* the command's words, each ended by a NUL */
static char *cc_argv[MAX_CC_WORDS];
static int cc_argc;
static char cc_ident[1024];          /* "<command>|<version line>|<flags>" or "" */
static char cc_problem[1024];

/* Splits the command `c` into cc_argv as a POSIX shell splits words, with
 * its quoting and nothing else (no expansions): '...' keeps what it holds,
 * "..." too but for \\, \", \$ and \` (the character after the backslash),
 * and a backslash outside quotes keeps the next character. So a path with
 * spaces is written quoted. NULL, or what is wrong with `c`. */
static const char *split_command(const char *c)
{
    if (strlen(c) >= MAX_CC_TEXT)
        return "is too long";
    char *out = cc_text;
    const char *p = c;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n')
            ++p;
        if (!*p)
            return cc_argc ? NULL : "is empty";
        if (cc_argc == MAX_CC_WORDS - 1)
            return "has too many words";
        cc_argv[cc_argc++] = out;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
            if (*p == '\'') {
                const char *end = strchr(p + 1, '\'');
                if (!end)
                    return "has a ' without its closing '";
                memcpy(out, p + 1, (size_t)(end - p - 1));
                out += end - p - 1;
                p = end + 1;
            } else if (*p == '"') {
                for (++p; *p && *p != '"'; *out++ = *p++)
                    if (*p == '\\' && p[1] && strchr("\\\"$`", p[1]))
                        ++p;
                if (!*p)
                    return "has a \" without its closing \"";
                ++p;
            } else {
                if (*p == '\\' && p[1])
                    ++p;
                *out++ = *p++;
            }
        }
        *out++ = '\0';
    }
}

static void find_cc(void)
{
    const char *c = getenv("GPUNP_CC");
    const char *from = "GPUNP_CC";
    if (!c || !*c) {
        c = getenv("CC");
        from = "CC";
    }
    if (!c || !*c) {
        c = "cc";
        from = NULL;
    }
    const char *bad = split_command(c);
    if (bad) {
        snprintf(cc_problem, sizeof cc_problem, "the C compiler command %s %s: %s",
                 from ? from : "", bad, c);
        return;
    }
    /* Its version line identifies it in the disk cache's keys. */
    double timeout;
    if (gp_compile_timeout(&timeout) != GP_OK) {
        snprintf(cc_problem, sizeof cc_problem, "%s", gp_errmsg());
        return;
    }
    char out_path[4200];
    snprintf(out_path, sizeof out_path, "%s/gpunp-ccv-XXXXXX", tmp_dir());
    int out = mkostemp(out_path, O_CLOEXEC);
    if (out < 0) {
        snprintf(cc_problem, sizeof cc_problem, "cannot create a temporary file in %s: %s",
                 tmp_dir(), strerror(errno));
        return;
    }
    unlink(out_path);
    char *argv[MAX_CC_WORDS + 1];
    int n = 0;
    for (; n < cc_argc; ++n)
        argv[n] = cc_argv[n];
    argv[n++] = "--version";
    argv[n] = NULL;
    int code = -1;
    gp_status_t s = gp_run_process(argv, out, timeout, &code);
    char line[512];
    read_back(out, line, sizeof line);
    close(out);
    line[strcspn(line, "\n")] = '\0';
    if (s != GP_OK || code != 0) {
        snprintf(cc_problem, sizeof cc_problem,
                 "the host backend compiles its kernels with a C compiler, and '%s' "
                 "did not run (%s); install gcc or clang, or set GPUNP_CC",
                 c, s != GP_OK ? gp_errmsg() : line);
        return;
    }
    gp_str_t id;
    gp_str_init(&id);
    gp_str_printf(&id, "%s|%s|", c, line);
    for (int k = 0; CFLAGS[k]; ++k)
        gp_str_printf(&id, " %s", CFLAGS[k]);
    snprintf(cc_ident, sizeof cc_ident, "%s", id.failed ? c : id.data);
    gp_str_free(&id);
}

const char *gp_cc_id(void)
{
    pthread_once(&cc_once, find_cc);
    if (!cc_ident[0]) {
        gp_set_error(GP_ERR_NOT_FOUND, "%s", cc_problem);
        return NULL;
    }
    return cc_ident;
}

/* ---- compile and load ------------------------------------------------------- */

static gp_status_t slurp(const char *path, gp_blob_t *out)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        gp_status_t s = gp_set_error(GP_ERR_IO, "cannot read %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return s;
    }
    size_t n = (size_t)st.st_size, got = 0;
    out->data = n > 0 ? malloc(n) : NULL;
    while (out->data && got < n) {
        ssize_t r = read(fd, (char *)out->data + got, n - got);
        if (r > 0)
            got += (size_t)r;
        else if (r == 0 || errno != EINTR)
            break;
    }
    close(fd);
    if (n == 0 || got != n) {
        free(out->data);
        out->data = NULL;
        return gp_set_error(GP_ERR_IO, "cannot read %s", path);
    }
    out->size = n;
    return GP_OK;
}

gp_status_t gp_cc_compile(const char *source, gp_blob_t *out)
{
    out->data = NULL;
    out->size = 0;
    if (!gp_cc_id())
        return gp_errcode();
    double timeout;
    GP_TRY(gp_compile_timeout(&timeout));
    /* a folder of an unpredictable name that only the user can enter, so
     * nothing can be planted where the compiler reads and writes */
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/gpunp-cc-XXXXXX", tmp_dir());
    if (!mkdtemp(dir))
        return gp_set_error(GP_ERR_IO, "cannot create a directory under %s: %s", tmp_dir(),
                            strerror(errno));
    char src[4200], obj[4200], log[4200];
    snprintf(src, sizeof src, "%s/kernel.c", dir);
    snprintf(obj, sizeof obj, "%s/kernel.so", dir);
    snprintf(log, sizeof log, "%s/log.txt", dir);
    gp_status_t s = GP_OK;
    int log_fd = -1;
    int src_fd = create_file(src, O_WRONLY);
    size_t len = strlen(source), done = 0;
    while (src_fd >= 0 && done < len) {
        ssize_t w = write(src_fd, source + done, len - done);
        if (w > 0)
            done += (size_t)w;
        else if (w == 0 || errno != EINTR)
            break;
    }
    if (src_fd < 0 || done != len || close(src_fd) != 0) {
        s = gp_set_error(GP_ERR_IO, "cannot write %s", src);
        goto cleanup;
    }
    if ((log_fd = create_file(log, O_RDWR)) < 0) {
        s = gp_set_error(GP_ERR_IO, "cannot create %s: %s", log, strerror(errno));
        goto cleanup;
    }
    char *argv[MAX_CC_WORDS + 16];
    int n = 0;
    for (int k = 0; k < cc_argc; ++k)
        argv[n++] = cc_argv[k];
    for (int k = 0; CFLAGS[k]; ++k)
        argv[n++] = (char *)CFLAGS[k];
    argv[n++] = "-o";
    argv[n++] = obj;
    argv[n++] = src;
    argv[n++] = "-lm";
    argv[n] = NULL;
    int code = -1;
    s = gp_run_process(argv, log_fd, timeout, &code);
    if (s != GP_OK)
        goto cleanup;
    if (code != 0) {
        char text[3001];
        read_back(log_fd, text, sizeof text);
        s = gp_set_error(GP_ERR_COMPILE, "the C compiler failed on a generated kernel:\n%s",
                         text);
        goto cleanup;
    }
    s = slurp(obj, out);
cleanup:
    if (log_fd >= 0)
        close(log_fd);
    remove(src);
    remove(obj);
    remove(log);
    rmdir(dir);
    return s;
}

gp_status_t gp_cc_module_load(const gp_blob_t *image, void **module)
{
    /* dlopen recognises an object by its path, so each kernel gets a path
     * never used before in this process; the file is removed once mapped. */
    static atomic_uint counter;
    char path[4200];
    snprintf(path, sizeof path, "%s/gpunp-%d-%u-XXXXXX", tmp_dir(), (int)getpid(),
             atomic_fetch_add(&counter, 1));
    int fd = mkostemp(path, O_CLOEXEC); /* a new file (O_EXCL), the user's alone */
    if (fd < 0)
        return gp_set_error(GP_ERR_IO, "cannot create a file to load a kernel: %s",
                            strerror(errno));
    const char *p = image->data;
    size_t left = image->size;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w <= 0) {
            close(fd);
            remove(path);
            return gp_set_error(GP_ERR_IO, "cannot write a kernel image: %s", strerror(errno));
        }
        p += w;
        left -= (size_t)w;
    }
    close(fd);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    remove(path);
    if (!h)
        return gp_set_error(GP_ERR_BACKEND, "cannot load a compiled kernel: %s", dlerror());
    *module = h;
    return GP_OK;
}

gp_status_t gp_cc_module_function(void *module, const char *name, void **fn)
{
    *fn = dlsym(module, name);
    if (!*fn)
        return gp_set_error(GP_ERR_BACKEND, "kernel %s not found in its module", name);
    return GP_OK;
}
