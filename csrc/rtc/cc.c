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
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

gp_status_t gp_run_process(char *const argv[], const char *log_path, int *exit_code)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    const char *out = log_path ? log_path : "/dev/null";
    posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return gp_set_error(GP_ERR_NOT_FOUND, "cannot run '%s': %s", argv[0], strerror(rc));
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return gp_set_error(GP_ERR_BACKEND, "waiting for '%s': %s", argv[0], strerror(errno));
    }
    *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return GP_OK;
}

/* ---- which compiler ------------------------------------------------------- */

#define MAX_CC_WORDS 16

static pthread_once_t cc_once = PTHREAD_ONCE_INIT;
static char cc_text[1024];          /* the command, split in place */
static char *cc_argv[MAX_CC_WORDS];
static int cc_argc;
static char cc_ident[1024];         /* "<command>|<version line>|<flags>" or "" */
static char cc_problem[1024];

static void find_cc(void)
{
    const char *c = getenv("GPUNP_CC");
    if (!c || !*c)
        c = getenv("CC");
    if (!c || !*c)
        c = "cc";
    snprintf(cc_text, sizeof cc_text, "%s", c);
    char *save = NULL;
    for (char *w = strtok_r(cc_text, " \t", &save); w && cc_argc < MAX_CC_WORDS - 1;
         w = strtok_r(NULL, " \t", &save))
        cc_argv[cc_argc++] = w;
    if (cc_argc == 0) {
        snprintf(cc_problem, sizeof cc_problem, "the C compiler command is empty");
        return;
    }
    /* Its version line identifies it in the disk cache's keys. */
    char tmpl[] = "/tmp/gpunp-ccv-XXXXXX";
    int fd = mkstemp(tmpl);
    if (fd < 0) {
        snprintf(cc_problem, sizeof cc_problem, "cannot create a temporary file: %s",
                 strerror(errno));
        return;
    }
    close(fd);
    char *argv[MAX_CC_WORDS + 1];
    int n = 0;
    for (; n < cc_argc; ++n)
        argv[n] = cc_argv[n];
    argv[n++] = "--version";
    argv[n] = NULL;
    int code = -1;
    gp_status_t s = gp_run_process(argv, tmpl, &code);
    char line[512] = "";
    FILE *f = fopen(tmpl, "r");
    if (f) {
        if (!fgets(line, sizeof line, f))
            line[0] = '\0';
        fclose(f);
    }
    remove(tmpl);
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
    FILE *f = fopen(path, "rb");
    if (!f)
        return gp_set_error(GP_ERR_IO, "cannot read %s: %s", path, strerror(errno));
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    out->data = n > 0 ? malloc((size_t)n) : NULL;
    gp_status_t s = GP_OK;
    if (n <= 0 || !out->data || fread(out->data, 1, (size_t)n, f) != (size_t)n) {
        free(out->data);
        out->data = NULL;
        s = gp_set_error(GP_ERR_IO, "cannot read %s", path);
    } else {
        out->size = (size_t)n;
    }
    fclose(f);
    return s;
}

gp_status_t gp_cc_compile(const char *source, gp_blob_t *out)
{
    out->data = NULL;
    out->size = 0;
    if (!gp_cc_id())
        return gp_errcode();
    const char *tmpdir = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/gpunp-cc-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(dir))
        return gp_set_error(GP_ERR_IO, "cannot create a directory under %s: %s",
                            tmpdir && *tmpdir ? tmpdir : "/tmp", strerror(errno));
    char src[4200], obj[4200], log[4200];
    snprintf(src, sizeof src, "%s/kernel.c", dir);
    snprintf(obj, sizeof obj, "%s/kernel.so", dir);
    snprintf(log, sizeof log, "%s/log.txt", dir);
    gp_status_t s = GP_OK;
    FILE *f = fopen(src, "w");
    if (!f || fputs(source, f) < 0) {
        s = gp_set_error(GP_ERR_IO, "cannot write %s", src);
        if (f)
            fclose(f);
        goto cleanup;
    }
    fclose(f);
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
    s = gp_run_process(argv, log, &code);
    if (s != GP_OK)
        goto cleanup;
    if (code != 0) {
        gp_blob_t text = {NULL, 0};
        slurp(log, &text);
        s = gp_set_error(GP_ERR_COMPILE, "the C compiler failed on a generated kernel:\n%.*s",
                         (int)(text.size < 3000 ? text.size : 3000),
                         text.data ? (const char *)text.data : "");
        free(text.data);
        goto cleanup;
    }
    s = slurp(obj, out);
cleanup:
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
    const char *tmpdir = getenv("TMPDIR");
    char path[4200];
    snprintf(path, sizeof path, "%s/gpunp-%d-%u-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp",
             (int)getpid(), atomic_fetch_add(&counter, 1));
    int fd = mkstemp(path);
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
