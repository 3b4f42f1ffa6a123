/*
 * rtc.h - run-time compilation: what a compiler is given for a kernel
 * (source.c), the system C compiler for the host backend (cc.c), and NVRTC
 * and hiprtc for the GPU ones (device_rtc.c). No device is touched here:
 * the backends load what these compile, and the kernel cache (cache/)
 * decides when to compile.
 */
#ifndef GP_RTC_H
#define GP_RTC_H

#include "../core/core.h"

/* A compiled kernel image (host: a shared object; CUDA: a cubin). */
typedef struct gp_blob {
    void *data;
    size_t size;
} gp_blob_t;

/* Appends to `out` what a compiler is given for a kernel: the backend's
 * prelude, the common prelude (less the sections `body` does not ask for by
 * name, source.c), then the generated `body` (len bytes). */
void gp_kernel_source(gp_str_t *out, const char *prelude, const char *body, size_t len);

/* Text of the embedded preludes (generated from csrc/prelude/). */
extern const char gp_prelude_common[];
extern const char gp_prelude_host[];
extern const char gp_prelude_cuda[];
extern const char gp_prelude_hip[];
extern const char gp_prelude_random[]; /* the distributions (random.c's kernels) */
extern const char gp_prelude_special[]; /* SciPy's special functions (source.c) */

/* ---- compilers ----------------------------------------------------------- */

/* The system C compiler, for the host backend: GPUNP_CC, else CC, else
 * cc, split into words as a shell splits them (quotes and backslashes
 * kept, nothing expanded), so a path with spaces is written quoted; the
 * first word is the program, the others its first arguments. */
gp_status_t gp_cc_compile(const char *source, gp_blob_t *out);
const char *gp_cc_id(void);
gp_status_t gp_cc_module_load(const gp_blob_t *image, void **module);
gp_status_t gp_cc_module_function(void *module, const char *name, void **fn);

/* NVRTC: `source` compiled to a cubin for `arch` ("sm_90"); _quick in
 * NVRTC's least time (-Ofc=max, where NVRTC has it), to slower code. */
gp_status_t gp_nvrtc_compile(const char *source, const char *arch, gp_blob_t *out);
gp_status_t gp_nvrtc_compile_quick(const char *source, const char *arch, gp_blob_t *out);
/* NVRTC for users' source: only -arch and their options; `lowered[k]`
 * (malloc'd) gets the mangled name of names[k]. */
gp_status_t gp_nvrtc_compile_user(const char *source, const char *arch, int32_t nopts,
                                  const char *const *opts, int32_t nnames,
                                  const char *const *names, gp_blob_t *out, char **lowered);

/* A GPU backend's compiler identity in the disk cache: the run-time
 * compiler's, then the target ("nvrtc 13.0 <options>|sm_90"). */
#define GP_GPU_COMPILER_ID "%s|%s"
/* The CUDA backend's name, its disk cache folder's prefix. */
#define GP_CUDA_BACKEND_NAME "cuda"

/* "nvrtc <major>.<minor>", or NULL (with the error set) if NVRTC is missing. */
const char *gp_nvrtc_id(void);

/* hiprtc, the same for AMD targets ("gfx90a"): a code object. */
gp_status_t gp_hiprtc_compile(const char *source, const char *arch, gp_blob_t *out);
gp_status_t gp_hiprtc_compile_user(const char *source, const char *arch, int32_t nopts,
                                   const char *const *opts, int32_t nnames,
                                   const char *const *names, gp_blob_t *out, char **lowered);
const char *gp_hiprtc_id(void);

/* Runs `argv` (argv[0] looked up in PATH) with stdin from /dev/null and
 * stdout and stderr into the open file `out_fd` (-1 discards them), in a
 * process group of its own; *exit_code gets its exit status (-1 if it was
 * killed). Past `timeout` seconds (0: no limit) the group is killed and
 * the result is GP_ERR_COMPILE, naming GPUNP_COMPILE_TIMEOUT. */
gp_status_t gp_run_process(char *const argv[], int out_fd, double timeout, int *exit_code);

/* How long a compiler may run: GPUNP_COMPILE_TIMEOUT seconds (0: no
 * limit; default 600); GP_ERR_VALUE when it is not a number. */
gp_status_t gp_compile_timeout(double *seconds);

#endif /* GP_RTC_H */
