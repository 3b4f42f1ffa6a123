/*
 * dl.c - finding and opening vendor libraries at run time.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dl.h"

static pthread_mutex_t path_lock = PTHREAD_MUTEX_INITIALIZER;
static char *extra_paths; /* set from Python: the nvidia-* wheel folders */

GP_API gp_status_t gp_runtime_set_library_path(const char *paths)
{
    char *copy = paths ? strdup(paths) : NULL;
    if (paths && !copy)
        return gp_set_error(GP_ERR_NOMEM, "out of host memory");
    pthread_mutex_lock(&path_lock);
    free(extra_paths);
    extra_paths = copy;
    pthread_mutex_unlock(&path_lock);
    return GP_OK;
}

void gp_dl_library_path(char *buf, size_t n)
{
    pthread_mutex_lock(&path_lock);
    snprintf(buf, n, "%s", extra_paths ? extra_paths : "");
    pthread_mutex_unlock(&path_lock);
}

/* What gp_dl_open opened, "what: path" a line. Each library opened makes a
 * longer copy; the older ones are kept (a dozen libraries at most), so a
 * pointer handed out stays valid for the life of the process. */
static _Atomic(const char *) opened = "";
static char *kept[64];
static int nkept;

static void note_opened(const char *what, void *h)
{
    char path[4096], line[4200];
    snprintf(line, sizeof line, "%s: %s\n", what, gp_dl_path(h, path, sizeof path));
    pthread_mutex_lock(&path_lock);
    const char *old = atomic_load(&opened);
    if (!strstr(old, line) && nkept < (int)(sizeof kept / sizeof kept[0])) {
        size_t n = strlen(old) + strlen(line) + 1;
        char *text = malloc(n);
        if (text) { /* out of memory: the list misses this one */
            snprintf(text, n, "%s%s", old, line);
            kept[nkept++] = text;
            atomic_store(&opened, text);
        }
    }
    pthread_mutex_unlock(&path_lock);
}

const char *gp_dl_opened(void) { return atomic_load(&opened); }

/* Tries dir/sub/name for each name; appends what it tried to `tried`. */
static void *try_dir(const char *dir, const char *sub, const char *const *names, gp_str_t *tried)
{
    if (!dir || !*dir)
        return NULL;
    char path[4096];
    gp_str_printf(tried, "\n  %s%s%s", dir, sub[0] ? "/" : "", sub);
    for (int k = 0; names[k]; ++k) {
        snprintf(path, sizeof path, "%s%s%s/%s", dir, sub[0] ? "/" : "", sub, names[k]);
        void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
        if (h)
            return h;
    }
    return NULL;
}

/* Tries each ':'-separated directory of `list` with the subfolders. */
static void *try_list(const char *list, const char *const *subs, const char *const *names,
                      gp_str_t *tried)
{
    if (!list || !*list)
        return NULL;
    char *copy = strdup(list), *save = NULL;
    void *h = NULL;
    if (!copy)
        return NULL; /* out of memory: this list is skipped, the search goes on */
    for (char *d = strtok_r(copy, ":", &save); d && !h; d = strtok_r(NULL, ":", &save))
        for (int s = 0; subs[s] && !h; ++s)
            h = try_dir(d, subs[s], names, tried);
    free(copy);
    return h;
}

gp_status_t gp_dl_open(const char *what, const char *const *names, int vendor, void **out)
{
    static const char *const lib_subs[] = {"lib64", "lib", "", NULL};
    static const char *const flat[] = {"", NULL};
    const char *override = vendor == GP_VENDOR_ROCM ? "GPUNP_ROCM_PATH" : "GPUNP_CUDA_PATH";
    gp_str_t tried;
    gp_str_init(&tried);
    void *h = try_list(getenv(override), lib_subs, names, &tried);
    for (int k = 0; names[k] && !h; ++k)
        h = dlopen(names[k], RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
    if (!h) {
        gp_str_puts(&tried, "\n  (libraries already loaded)");
        pthread_mutex_lock(&path_lock);
        h = try_list(extra_paths, flat, names, &tried);
        pthread_mutex_unlock(&path_lock);
    }
    if (vendor == GP_VENDOR_ROCM) {
        if (!h)
            h = try_list(getenv("ROCM_PATH"), lib_subs, names, &tried);
        if (!h)
            h = try_dir("/opt/rocm", "lib", names, &tried);
    } else {
        if (!h)
            h = try_list(getenv("CUDA_PATH"), lib_subs, names, &tried);
        if (!h)
            h = try_list(getenv("CUDA_HOME"), lib_subs, names, &tried);
        if (!h)
            h = try_dir("/usr/local/cuda", "lib64", names, &tried);
    }
    for (int k = 0; names[k] && !h; ++k)
        h = dlopen(names[k], RTLD_NOW | RTLD_GLOBAL);
    if (!h) {
        gp_str_t list;
        gp_str_init(&list);
        for (int k = 0; names[k]; ++k)
            gp_str_printf(&list, "%s%s", k ? ", " : "", names[k]);
        gp_set_error(GP_ERR_NOT_FOUND_LIBRARY,
                     "%s was not found (%s); looked in:%s\n  (the system loader's paths)",
                     what, list.failed ? "" : list.data, tried.failed ? "" : tried.data);
        gp_str_free(&list);
        gp_str_free(&tried);
        *out = NULL;
        return GP_ERR_NOT_FOUND_LIBRARY;
    }
    gp_str_free(&tried);
    note_opened(what, h);
    *out = h;
    return GP_OK;
}

void *gp_dl_open_in(const char *what, const char *dir, const char *const *names)
{
    gp_str_t tried;
    gp_str_init(&tried);
    void *h = try_dir(dir, "", names, &tried);
    gp_str_free(&tried);
    if (h)
        note_opened(what, h);
    return h;
}

const char *gp_dl_path(void *lib, char *buf, size_t n)
{
    struct link_map *lm = NULL;
    buf[0] = '\0';
    if (lib && dlinfo(lib, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name)
        snprintf(buf, n, "%s", lm->l_name);
    return buf;
}

void *gp_dl_symbol(void *lib, const char *candidates)
{
    for (const char *s = candidates; *s; s += strlen(s) + 1) {
        void *f = dlsym(lib, s);
        if (f)
            return f;
    }
    return NULL;
}
