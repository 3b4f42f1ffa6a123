/*
 * nvrtc.c - NVRTC, loaded at run time: kernel source to cubin.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlfcn.h>

#include "../backend/dl.h"
#include "rtc.h"

typedef int nvrtcResult;
typedef struct nvrtc_program *nvrtcProgram;

static struct {
    const char *(*GetErrorString)(nvrtcResult);
    nvrtcResult (*Version)(int *, int *);
    nvrtcResult (*CreateProgram)(nvrtcProgram *, const char *, const char *, int,
                                 const char *const *, const char *const *);
    nvrtcResult (*DestroyProgram)(nvrtcProgram *);
    nvrtcResult (*CompileProgram)(nvrtcProgram, int, const char *const *);
    nvrtcResult (*GetCUBINSize)(nvrtcProgram, size_t *);
    nvrtcResult (*GetCUBIN)(nvrtcProgram, char *);
    nvrtcResult (*GetProgramLogSize)(nvrtcProgram, size_t *);
    nvrtcResult (*GetProgramLog)(nvrtcProgram, char *);
    nvrtcResult (*AddNameExpression)(nvrtcProgram, const char *);
    nvrtcResult (*GetLoweredName)(nvrtcProgram, const char *, const char **);
} nv;

/* Every kernel is compiled with these (besides -arch): -fmad=false gives the
 * same IEEE operations as the host backend's kernels. */
#define OPTIONS_LIST "-std=c++17", "-fmad=false", "-default-device"
#define OPTIONS_TEXT "-std=c++17 -fmad=false -default-device"

static pthread_once_t nv_once = PTHREAD_ONCE_INIT;
static gp_status_t nv_status;
static char nv_problem[4096];
static char nv_ident[256];

static void load_nvrtc(void)
{
    static const char *const names[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so", NULL};
    void *h;
    nv_status = gp_dl_open("NVRTC", names, GP_VENDOR_CUDA, &h);
    if (nv_status != GP_OK) {
        snprintf(nv_problem, sizeof nv_problem, "%s", gp_errmsg());
        return;
    }
#define SYM(f)                                                                \
    do {                                                                      \
        *(void **)&nv.f = dlsym(h, "nvrtc" #f);                               \
        if (!nv.f) {                                                          \
            nv_status = GP_ERR_NOT_FOUND_LIBRARY;                             \
            snprintf(nv_problem, sizeof nv_problem, "NVRTC lacks nvrtc" #f);  \
            return;                                                           \
        }                                                                     \
    } while (0)
    SYM(GetErrorString);
    SYM(Version);
    SYM(CreateProgram);
    SYM(DestroyProgram);
    SYM(CompileProgram);
    SYM(GetCUBINSize);
    SYM(GetCUBIN);
    SYM(GetProgramLogSize);
    SYM(GetProgramLog);
    SYM(AddNameExpression);
    SYM(GetLoweredName);
#undef SYM
    int major = 0, minor = 0;
    nv.Version(&major, &minor);
    snprintf(nv_ident, sizeof nv_ident, "nvrtc %d.%d %s", major, minor, OPTIONS_TEXT);
}

static gp_status_t nvrtc_ready(void)
{
    pthread_once(&nv_once, load_nvrtc);
    if (nv_status != GP_OK)
        return gp_set_error(nv_status, "%s", nv_problem);
    return GP_OK;
}

const char *gp_nvrtc_id(void)
{
    return nvrtc_ready() == GP_OK ? nv_ident : NULL;
}

/* Compiles with `opts`; name expressions registered before and lowered
 * after (lowered may be NULL when nnames is 0). */
static gp_status_t compile(const char *source, const char *arch, int32_t nopts,
                           const char *const *opts, int32_t nnames, const char *const *names,
                           gp_blob_t *out, char **lowered)
{
    out->data = NULL;
    out->size = 0;
    GP_TRY(nvrtc_ready());
    nvrtcProgram prog = NULL;
    nvrtcResult r = nv.CreateProgram(&prog, source, "gpunp_kernel.cu", 0, NULL, NULL);
    if (r != 0)
        return gp_set_error(GP_ERR_COMPILE, "nvrtcCreateProgram: %s", nv.GetErrorString(r));
    for (int32_t k = 0; k < nnames && r == 0; ++k)
        r = nv.AddNameExpression(prog, names[k]);
    if (r == 0)
        r = nv.CompileProgram(prog, nopts, opts);
    gp_status_t s = GP_OK;
    if (r != 0) {
        size_t n = 0;
        nv.GetProgramLogSize(prog, &n);
        char *log = malloc(n + 1);
        if (log) {
            nv.GetProgramLog(prog, log);
            log[n] = '\0';
        }
        s = gp_set_error(GP_ERR_COMPILE, "NVRTC failed to compile a kernel for %s (%s):\n%.3500s",
                         arch, nv.GetErrorString(r), log ? log : "");
        free(log);
    } else {
        size_t n = 0;
        nv.GetCUBINSize(prog, &n);
        out->data = malloc(n ? n : 1);
        if (!out->data) {
            s = gp_set_error(GP_ERR_NOMEM, "out of host memory for a cubin");
        } else {
            nv.GetCUBIN(prog, out->data);
            out->size = n;
        }
        for (int32_t k = 0; k < nnames && s == GP_OK; ++k) {
            const char *low = NULL;
            r = nv.GetLoweredName(prog, names[k], &low);
            lowered[k] = r == 0 && low ? strdup(low) : NULL;
            if (!lowered[k])
                s = gp_set_error(GP_ERR_COMPILE, "NVRTC has no lowered name for '%s'", names[k]);
        }
    }
    nv.DestroyProgram(&prog);
    return s;
}

gp_status_t gp_nvrtc_compile(const char *source, const char *arch, gp_blob_t *out)
{
    char archopt[64];
    snprintf(archopt, sizeof archopt, "-arch=%s", arch);
    const char *opts[] = {archopt, OPTIONS_LIST};
    return compile(source, arch, (int32_t)(sizeof opts / sizeof *opts), opts, 0, NULL, out, NULL);
}

gp_status_t gp_nvrtc_compile_user(const char *source, const char *arch, int32_t nopts,
                                  const char *const *opts, int32_t nnames,
                                  const char *const *names, gp_blob_t *out, char **lowered)
{
    if (nopts < 0 || nopts > 250)
        return gp_set_error(GP_ERR_VALUE, "too many compiler options (%d)", nopts);
    char archopt[64];
    snprintf(archopt, sizeof archopt, "-arch=%s", arch);
    const char *all[256];
    all[0] = archopt;
    for (int32_t k = 0; k < nopts; ++k)
        all[k + 1] = opts[k];
    return compile(source, arch, nopts + 1, all, nnames, names, out, lowered);
}

GP_API gp_status_t gp_rtc_check_cuda(const char *source, const char *arch)
{
    if (!source || !arch)
        return gp_set_error(GP_ERR_MISUSE, "gp_rtc_check_cuda: NULL argument");
    gp_str_t full;
    gp_str_init(&full);
    gp_str_puts(&full, gp_prelude_cuda);
    gp_str_puts(&full, "\n");
    gp_str_puts(&full, gp_prelude_common);
    gp_str_puts(&full, "\n");
    gp_str_puts(&full, source);
    if (full.failed) {
        gp_str_free(&full);
        return gp_set_error(GP_ERR_NOMEM, "out of host memory");
    }
    gp_blob_t img;
    gp_status_t s = gp_nvrtc_compile(full.data, arch, &img);
    free(img.data);
    gp_str_free(&full);
    return s;
}
