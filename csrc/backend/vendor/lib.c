/*
 * vendor/lib.c - loading a vendor library by the pattern of gpu.h. The same
 * for every vendor: compiled once.
 */
#include <stdio.h>

#include "../gpu.h"

void *gp_vendor_load(gp_vendor_lib_t *v, const char *what, const char *const *sonames,
                     int vendor, const char *const *syms, void **const *slots, int n)
{
    void *lib;
    v->status = gp_dl_open(what, sonames, vendor, &lib);
    if (v->status != GP_OK) {
        snprintf(v->problem, sizeof v->problem, "%s", gp_errmsg());
        return NULL;
    }
    for (int i = 0; i < n; ++i) {
        *slots[i] = gp_dl_symbol(lib, syms[i]);
        if (!*slots[i]) {
            v->status = GP_ERR_NOT_FOUND_LIBRARY;
            snprintf(v->problem, sizeof v->problem, "%s lacks %s", what, syms[i]);
            return NULL;
        }
    }
    return lib;
}

gp_status_t gp_vendor_ready(gp_vendor_lib_t *v, void (*load)(void))
{
    pthread_once(&v->once, load);
    if (v->status != GP_OK)
        return gp_set_error(v->status, "%s", v->problem);
    return GP_OK;
}
