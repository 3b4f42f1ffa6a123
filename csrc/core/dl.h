/*
 * dl.h - finding and opening vendor libraries at run time (never linked).
 */
#ifndef GP_DL_H
#define GP_DL_H

#include "core.h"

enum gp_vendor { GP_VENDOR_CUDA = 0, GP_VENDOR_ROCM = 1 };

/* Opens the first library of `names` (NULL-terminated sonames, preferred
 * first) found in this order: the vendor's override variable
 * (GPUNP_CUDA_PATH / GPUNP_ROCM_PATH), libraries already loaded in the
 * process, the directories set by gp_runtime_set_library_path (the nvidia-*
 * wheels), CUDA_PATH / CUDA_HOME (ROCM_PATH), /usr/local/cuda (/opt/rocm),
 * then the system loader. GP_ERR_NOT_FOUND_LIBRARY naming `what`, the
 * names and every place looked in if none opens. */
gp_status_t gp_dl_open(const char *what, const char *const *names, int vendor, void **out);

/* The first of `names` found in `dir` itself (no other place), or NULL;
 * sets no error. */
void *gp_dl_open_in(const char *what, const char *dir, const char *const *names);

/* The directories set by gp_runtime_set_library_path, ':'-separated, into
 * buf ("" if none). */
void gp_dl_library_path(char *buf, size_t n);

/* The first of `candidates` ('\0'-separated names, ending in an empty one)
 * that `lib` defines, or NULL. */
void *gp_dl_symbol(void *lib, const char *candidates);

/* Every library gp_dl_open has opened in this process, a line each,
 * "what: path" (GPU_DRIVER_WHAT, "NVRTC", "cuBLAS"...), in the order
 * opened; "" if none. Valid for the life of the process. */
const char *gp_dl_opened(void);

/* The path a handle from gp_dl_open was loaded from ("" if unknown). */
const char *gp_dl_path(void *lib, char *buf, size_t n);

#endif /* GP_DL_H */
