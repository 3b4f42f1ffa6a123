/*
 * device_rtc.c - the GPU vendors' run-time compilers, loaded at run time:
 * NVRTC (kernel source to a cubin) and hiprtc (to an AMD code object).
 *
 * Their C APIs are the same but for the prefix of the names and the word
 * for the compiled image (CUBIN, Code), so one loader and one compile
 * function serve both, from a table per vendor.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlfcn.h>

#include "../core/dl.h"
#include "rtc.h"

typedef int rtcResult;
typedef struct rtc_program *rtcProgram;

typedef struct {
    const char *what;                 /* "NVRTC", "hiprtc" */
    const char *prefix;               /* of every symbol */
    const char *image;                /* "CUBIN", "Code" */
    const char *const *sonames;
    int vendor;                       /* gp_dl_open's search rules */
    const char *arch_flag;            /* "-arch=", "--offload-arch=" */
    const char *const *options;       /* every generated kernel's, after the arch */
    const char *options_text;
    const char *fast_option;          /* a generated kernel's too, from version fast_since */
    int fast_since;
    bool fast;                        /* this library takes fast_option */
    void *lib;                        /* the loaded library */
    pthread_once_t once;
    gp_status_t status;
    char problem[4096];
    char ident[256];
    const char *(*GetErrorString)(rtcResult);
    rtcResult (*Version)(int *, int *);
    rtcResult (*CreateProgram)(rtcProgram *, const char *, const char *, int,
                               const char *const *, const char *const *);
    rtcResult (*DestroyProgram)(rtcProgram *);
    rtcResult (*CompileProgram)(rtcProgram, int, const char *const *);
    rtcResult (*GetImageSize)(rtcProgram, size_t *);
    rtcResult (*GetImage)(rtcProgram, char *);
    rtcResult (*GetPTXSize)(rtcProgram, size_t *); /* NVRTC's quick compiles */
    rtcResult (*GetPTX)(rtcProgram, char *);
    rtcResult (*GetProgramLogSize)(rtcProgram, size_t *);
    rtcResult (*GetProgramLog)(rtcProgram, char *);
    rtcResult (*AddNameExpression)(rtcProgram, const char *);
    rtcResult (*GetLoweredName)(rtcProgram, const char *, const char **);
    char fast_compile[24];            /* NVRTC's -Ofc=LEVEL from GPUNP_TUNE_OFC, or "" */
} rtc_t;

/* Every generated kernel is compiled with these (besides the target): no
 * fused multiply-add contraction gives the same IEEE operations as the host
 * backend's kernels. */
static const char *const nv_options[] = {"-std=c++17", "-fmad=false", "-default-device", NULL};
static const char *const nv_sonames[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so", NULL};
static const char *const hip_options[] = {"-std=c++17", "-ffp-contract=off", NULL};
/* hiprtc is part of libamdhip64 before ROCm 7, its own library from ROCm 6 */
static const char *const hip_sonames[] = {"libhiprtc.so.7", "libhiprtc.so.6", "libamdhip64.so.6",
                                          "libamdhip64.so.5", "libhiprtc.so", "libamdhip64.so",
                                          NULL};

/* -minimal leaves out the headers of CUDA's vector and texture types, which
 * generated kernels do not use: on the H200's host it took NVRTC 13's fixed
 * cost from 19 ms to 10 (docs/performance.md). Users' kernels may use them. */
static rtc_t nvrtc = {"NVRTC", "nvrtc", "CUBIN", nv_sonames, GP_VENDOR_CUDA, "-arch=",
                      nv_options, "-std=c++17 -fmad=false -default-device", "-minimal", 13,
                      false, PTHREAD_ONCE_INIT};
static rtc_t hiprtc = {"hiprtc", "hiprtc", "Code", hip_sonames, GP_VENDOR_ROCM, "--offload-arch=",
                       hip_options, "-std=c++17 -ffp-contract=off", NULL, 0, false,
                       PTHREAD_ONCE_INIT};

/* NVRTC opens libnvrtc-builtins.so.MAJOR.MINOR by name when it compiles,
 * through its own RUNPATH, which CUDA 13's nvidia-cuda-nvrtc wheel leaves
 * out: found from site-packages, NVRTC then fails ("failed to open
 * libnvrtc-builtins.so.13.0") unless LD_LIBRARY_PATH names the folder, or
 * takes another toolkit's copy. Opened here first from NVRTC's own folder,
 * its name is already loaded when NVRTC asks for it. Where the folder has
 * none, NVRTC's own search stands. */
static void load_nvrtc_builtins(void *nvrtc_lib, int major, int minor)
{
    char path[4096];
    gp_dl_path(nvrtc_lib, path, sizeof path);
    char *slash = strrchr(path, '/');
    if (!slash)
        return;
    static const char what[] = "NVRTC's builtins";
    char name[64];
    snprintf(name, sizeof name, "libnvrtc-builtins.so.%d.%d", major, minor);
    const char *const names[] = {name, NULL};
    *slash = '\0';
    gp_dl_open_in(what, path, names); /* kept open for the life of the process */
}

static void load(rtc_t *c)
{
    void *h;
    c->status = gp_dl_open(c->what, c->sonames, c->vendor, &h);
    c->lib = h;
    if (c->status != GP_OK) {
        snprintf(c->problem, sizeof c->problem, "%s", gp_errmsg());
        return;
    }
    char sym[64];
#define SYM(field, name)                                                          \
    do {                                                                          \
        snprintf(sym, sizeof sym, "%s%s", c->prefix, name);                       \
        *(void **)&c->field = dlsym(h, sym);                                      \
        if (!c->field) {                                                          \
            c->status = GP_ERR_NOT_FOUND_LIBRARY;                                 \
            snprintf(c->problem, sizeof c->problem, "%s lacks %s", c->what, sym); \
            return;                                                               \
        }                                                                         \
    } while (0)
    SYM(GetErrorString, "GetErrorString");
    SYM(Version, "Version");
    SYM(CreateProgram, "CreateProgram");
    SYM(DestroyProgram, "DestroyProgram");
    SYM(CompileProgram, "CompileProgram");
    char size_name[32], image_name[32];
    snprintf(size_name, sizeof size_name, "Get%sSize", c->image);
    snprintf(image_name, sizeof image_name, "Get%s", c->image);
    SYM(GetImageSize, size_name);
    SYM(GetImage, image_name);
    if (c == &nvrtc) {
        SYM(GetPTXSize, "GetPTXSize");
        SYM(GetPTX, "GetPTX");
    }
    SYM(GetProgramLogSize, "GetProgramLogSize");
    SYM(GetProgramLog, "GetProgramLog");
    SYM(AddNameExpression, "AddNameExpression");
    SYM(GetLoweredName, "GetLoweredName");
#undef SYM
    int major = 0, minor = 0;
    c->Version(&major, &minor);
    if (c == &nvrtc)
        load_nvrtc_builtins(h, major, minor);
    c->fast = c->fast_option && major >= c->fast_since;
    /* GPUNP_TUNE_OFC=min|mid|max: NVRTC's fast-compile level for generated
     * kernels, which trades optimisations for compile time (bench.tune's
     * "compile" group measures both) */
    const char *ofc = c == &nvrtc ? getenv("GPUNP_TUNE_OFC") : NULL;
    if (c->fast && ofc && (!strcmp(ofc, "min") || !strcmp(ofc, "mid") || !strcmp(ofc, "max")))
        snprintf(c->fast_compile, sizeof c->fast_compile, "-Ofc=%s", ofc);
    snprintf(c->ident, sizeof c->ident, "%s %d.%d %s%s%s%s%s", c->prefix, major, minor,
             c->options_text, c->fast ? " " : "", c->fast ? c->fast_option : "",
             c->fast_compile[0] ? " " : "", c->fast_compile);
}

static void load_nvrtc(void) { load(&nvrtc); }
static void load_hiprtc(void) { load(&hiprtc); }

static gp_status_t ready(rtc_t *c)
{
    pthread_once(&c->once, c == &nvrtc ? load_nvrtc : load_hiprtc);
    if (c->status != GP_OK)
        return gp_set_error(c->status, "%s", c->problem);
    return GP_OK;
}

/* Compiles with `opts`; name expressions registered before and lowered
 * after (lowered may be NULL when nnames is 0). The image is the library's
 * binary, or NVRTC's PTX (NUL-terminated) where `ptx`. */
static gp_status_t compile(rtc_t *c, const char *source, const char *arch, int32_t nopts,
                           const char *const *opts, int32_t nnames, const char *const *names,
                           bool ptx, gp_blob_t *out, char **lowered)
{
    out->data = NULL;
    out->size = 0;
    GP_TRY(ready(c));
    rtcProgram prog = NULL;
    rtcResult r = c->CreateProgram(&prog, source, "gpunp_kernel.cu", 0, NULL, NULL);
    if (r != 0)
        return gp_set_error(GP_ERR_COMPILE, "%sCreateProgram: %s", c->prefix,
                            c->GetErrorString(r));
    for (int32_t k = 0; k < nnames && r == 0; ++k)
        r = c->AddNameExpression(prog, names[k]);
    if (r == 0)
        r = c->CompileProgram(prog, nopts, opts);
    gp_status_t s = GP_OK;
    if (r != 0) {
        size_t n = 0;
        c->GetProgramLogSize(prog, &n);
        char *log = malloc(n + 1);
        if (log) {
            c->GetProgramLog(prog, log);
            log[n] = '\0';
        }
        s = gp_set_error(GP_ERR_COMPILE, "%s failed to compile a kernel for %s (%s):\n%.3500s",
                         c->what, arch, c->GetErrorString(r), log ? log : "");
        free(log);
    } else {
        size_t n = 0;
        (ptx ? c->GetPTXSize : c->GetImageSize)(prog, &n);
        out->data = malloc(n ? n : 1);
        if (!out->data) {
            s = gp_set_error(GP_ERR_NOMEM, "out of host memory for a compiled kernel");
        } else {
            (ptx ? c->GetPTX : c->GetImage)(prog, out->data);
            out->size = n;
        }
        for (int32_t k = 0; k < nnames && s == GP_OK; ++k) {
            const char *low = NULL;
            r = c->GetLoweredName(prog, names[k], &low);
            lowered[k] = r == 0 && low ? strdup(low) : NULL;
            if (!lowered[k])
                s = gp_set_error(GP_ERR_COMPILE, "%s has no lowered name for '%s'", c->what,
                                 names[k]);
        }
    }
    c->DestroyProgram(&prog);
    return s;
}

/* ---- CUB (CCCL) headers for generated kernels that include them ------------------------ */

/* Whether `dir` holds CCCL's headers (the ones the sort kernels include). */
static bool is_cccl(const char *dir)
{
    char f[4200];
    snprintf(f, sizeof f, "%s/cub/block/block_radix_sort.cuh", dir);
    FILE *fp = fopen(f, "r");
    if (fp)
        fclose(fp);
    return fp != NULL;
}

/* Tries `dir` (when not empty) as a CCCL folder; notes it in `tried`. */
static bool try_cccl(const char *dir, char *found, size_t n, gp_str_t *tried)
{
    if (!dir || !dir[0])
        return false;
    gp_str_printf(tried, "\n  %s", dir);
    if (!is_cccl(dir))
        return false;
    snprintf(found, n, "%s", dir);
    return true;
}

/* The CCCL include folder, searched in this order: GPUNP_CCCL_PATH, the
 * toolkit (or wheel) the loaded NVRTC came from (<lib>/../include/cccl),
 * the folders of gp_runtime_set_library_path (the nvidia-* wheels: their
 * nvidia/cu13/include/cccl, or CUDA 12's nvidia/cuda_cccl/include), CUDA_PATH,
 * CUDA_HOME, /usr/local/cuda.
 * GP_ERR_NOT_FOUND naming every place looked in if none has it. */
static gp_status_t find_cccl(rtc_t *c, char *found, size_t n)
{
    gp_str_t tried;
    gp_str_init(&tried);
    char d[4200], libpath[4096];
    bool ok = try_cccl(getenv("GPUNP_CCCL_PATH"), found, n, &tried);
    if (!ok && c->lib) {
        gp_dl_path(c->lib, libpath, sizeof libpath);
        char *slash = strrchr(libpath, '/');
        if (slash) {
            *slash = '\0';
            snprintf(d, sizeof d, "%s/../include/cccl", libpath);
            ok = try_cccl(d, found, n, &tried);
        }
    }
    if (!ok) {
        gp_dl_library_path(libpath, sizeof libpath);
        for (char *save = NULL, *dir = strtok_r(libpath, ":", &save); dir && !ok;
             dir = strtok_r(NULL, ":", &save)) {
            /* nvidia/cu13/lib -> nvidia/cu13/include/cccl; the CUDA 12 wheels'
             * nvidia/<library>/lib -> nvidia/cuda_cccl/include */
            snprintf(d, sizeof d, "%s/../include/cccl", dir);
            ok = try_cccl(d, found, n, &tried);
            snprintf(d, sizeof d, "%s/../../cuda_cccl/include", dir);
            ok = ok || try_cccl(d, found, n, &tried);
        }
    }
    const char *const roots[] = {getenv("CUDA_PATH"), getenv("CUDA_HOME"), "/usr/local/cuda"};
    for (int k = 0; k < 3 && !ok; ++k)
        if (roots[k] && roots[k][0]) {
            snprintf(d, sizeof d, "%s/include/cccl", roots[k]);
            ok = try_cccl(d, found, n, &tried);
        }
    gp_status_t s = GP_OK;
    if (!ok)
        s = gp_set_error(GP_ERR_NOT_FOUND, "the CUB headers (CCCL) that gpunp's sort kernels "
                         "include were not found (install the nvidia-cuda-cccl wheel, or set "
                         "GPUNP_CCCL_PATH to the folder holding cub/); looked in:%s",
                         tried.data ? tried.data : "");
    gp_str_free(&tried);
    return s;
}

/* How hard a generated kernel is compiled: for its launches (FULL), for its
 * first calls until its optimised twin is compiled (QUICK, below), or only
 * to learn whether it compiles (CHECK, gp_rtc_check_*: the compiler's least
 * optimisation to the target's machine code, NVRTC's -Ofc=max and hiprtc's
 * -O0, a third of the full compile's time on the CI machine; every stage from
 * parsing to the machine code still runs). */
typedef enum { FULL, QUICK, CHECK } effort_t;

/* A generated kernel: the target and the vendor's fixed options. A source
 * that includes CUB's headers is compiled with CCCL's folder (and the one
 * above it when that holds CCCL's nv/, as in the wheel) and without NVRTC
 * 13's -minimal, since CUB needs the runtime's types. `quick`: NVRTC's
 * fastest compile (-Ofc=max), for a kernel that serves until its optimised
 * twin is compiled (cache.c); NVRTC's is PTX for the target's virtual
 * architecture, which the driver translates as it loads it: on the H200's
 * host that took a new tanh kernel's compile and load from 52 to 42 ms
 * (medians of 7), NVRTC's own PTX-to-cubin step being the slower. */
static gp_status_t compile_kernel(rtc_t *c, const char *source, const char *arch,
                                  effort_t effort, gp_blob_t *out)
{
    bool quick = effort == QUICK;
    out->data = NULL; /* the caller frees it whatever happens */
    out->size = 0;
    bool ptx = quick && c == &nvrtc && strncmp(arch, "sm_", 3) == 0;
    char archopt[96];
    snprintf(archopt, sizeof archopt, "%s%s%s", c->arch_flag, ptx ? "compute_" : "",
             ptx ? arch + 3 : arch);
    const char *opts[12] = {archopt};
    int32_t n = 1;
    for (const char *const *o = c->options; *o && n < 7; ++o)
        opts[n++] = *o;
    GP_TRY(ready(c));
    bool cub = c == &nvrtc && strstr(source, "#include <cub/") != NULL;
    char inc[4300], inc_up[4300];
    if (cub) {
        char dir[4200], nv[4300];
        GP_TRY(find_cccl(c, dir, sizeof dir));
        snprintf(inc, sizeof inc, "-I%s", dir);
        opts[n++] = inc;
        snprintf(nv, sizeof nv, "%s/nv", dir);
        FILE *probe = NULL;
        char target[4400];
        snprintf(target, sizeof target, "%s/target", nv);
        probe = fopen(target, "r");
        if (probe) {
            fclose(probe);
        } else {
            snprintf(inc_up, sizeof inc_up, "-I%s/..", dir);
            opts[n++] = inc_up;
        }
    } else if (c->fast) {
        opts[n++] = c->fast_option;
        if (effort != FULL)
            opts[n++] = "-Ofc=max";
        else if (c->fast_compile[0])
            opts[n++] = c->fast_compile;
    }
    if (effort == CHECK && c == &hiprtc)
        opts[n++] = "-O0";
    return compile(c, source, arch, n, opts, 0, NULL, ptx, out, NULL);
}

/* Users' source: only the target and their options. */
static gp_status_t compile_user(rtc_t *c, const char *source, const char *arch, int32_t nopts,
                                const char *const *opts, int32_t nnames,
                                const char *const *names, gp_blob_t *out, char **lowered)
{
    if (nopts < 0 || nopts > 250)
        return gp_set_error(GP_ERR_VALUE, "too many compiler options (%d)", nopts);
    char archopt[96];
    snprintf(archopt, sizeof archopt, "%s%s", c->arch_flag, arch);
    const char *all[256];
    all[0] = archopt;
    for (int32_t k = 0; k < nopts; ++k)
        all[k + 1] = opts[k];
    return compile(c, source, arch, nopts + 1, all, nnames, names, false, out, lowered);
}

/* The preludes and `source`, compiled for `arch` and thrown away. */
static gp_status_t check(rtc_t *c, const char *vendor_prelude, const char *source,
                         const char *arch)
{
    gp_str_t full;
    gp_str_init(&full);
    gp_kernel_source(&full, vendor_prelude, source, strlen(source));
    if (full.failed) {
        gp_str_free(&full);
        return gp_set_error(GP_ERR_NOMEM, "out of host memory");
    }
    gp_blob_t img;
    gp_status_t s = compile_kernel(c, full.data, arch, CHECK, &img);
    free(img.data);
    gp_str_free(&full);
    return s;
}

/* ---- NVRTC -------------------------------------------------------------------------- */

const char *gp_nvrtc_id(void) { return ready(&nvrtc) == GP_OK ? nvrtc.ident : NULL; }

gp_status_t gp_nvrtc_compile(const char *source, const char *arch, gp_blob_t *out)
{
    return compile_kernel(&nvrtc, source, arch, FULL, out);
}

gp_status_t gp_nvrtc_compile_quick(const char *source, const char *arch, gp_blob_t *out)
{
    return compile_kernel(&nvrtc, source, arch, QUICK, out);
}

gp_status_t gp_nvrtc_compile_user(const char *source, const char *arch, int32_t nopts,
                                  const char *const *opts, int32_t nnames,
                                  const char *const *names, gp_blob_t *out, char **lowered)
{
    return compile_user(&nvrtc, source, arch, nopts, opts, nnames, names, out, lowered);
}

GP_API gp_status_t gp_rtc_check_cuda(const char *source, const char *arch)
{
    if (!source || !arch)
        return gp_set_error(GP_ERR_MISUSE, "gp_rtc_check_cuda: NULL argument");
    return check(&nvrtc, gp_prelude_cuda, source, arch);
}

/* ---- hiprtc ------------------------------------------------------------------------- */

const char *gp_hiprtc_id(void) { return ready(&hiprtc) == GP_OK ? hiprtc.ident : NULL; }

gp_status_t gp_hiprtc_compile(const char *source, const char *arch, gp_blob_t *out)
{
    return compile_kernel(&hiprtc, source, arch, FULL, out);
}

gp_status_t gp_hiprtc_compile_user(const char *source, const char *arch, int32_t nopts,
                                   const char *const *opts, int32_t nnames,
                                   const char *const *names, gp_blob_t *out, char **lowered)
{
    return compile_user(&hiprtc, source, arch, nopts, opts, nnames, names, out, lowered);
}

GP_API gp_status_t gp_rtc_check_hip(const char *source, const char *arch)
{
    if (!source || !arch)
        return gp_set_error(GP_ERR_MISUSE, "gp_rtc_check_hip: NULL argument");
    return check(&hiprtc, gp_prelude_hip, source, arch);
}
