/*
 * tune.c - the launch shapes and paths that benchmarks tune, read once from
 * the environment. The launchers and the code generator read them here, so
 * neither depends on the other for them.
 */
#include <stdlib.h>

#include "kernels.h"

static int knob(const char *name, int dflt, int lo, int hi)
{
    const char *v = getenv(name);
    int x = v ? atoi(v) : dflt;
    return x >= lo && x <= hi ? x : dflt;
}

const gp_tuning_t *gp_tuning(void)
{
    static gp_tuning_t t = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    if (!t.unroll) {
        t.waves = knob("GPUNP_TUNE_WAVES", 32, 1, 4096);
        t.ew_waves = knob("GPUNP_TUNE_EW_WAVES", 128, 1, 4096);
        t.red_split = knob("GPUNP_TUNE_RED_SPLIT", 1, 1, 64);
        t.scan_vec = knob("GPUNP_TUNE_SCAN_VEC", 1, 0, 1);
        t.scan_cub = knob("GPUNP_TUNE_SCAN_CUB", 1, 0, 1);
        t.scan_cub_threads = knob("GPUNP_TUNE_SCAN_CUB_THREADS", 0, 0, 1024) / 32 * 32;
        t.scan_cub_items = knob("GPUNP_TUNE_SCAN_CUB_ITEMS", 0, 0, 64) / 2 * 2;
        t.copy_kernel = knob("GPUNP_TUNE_COPY_KERNEL", 1, 0, 1);
        t.spmv_vendor = knob("GPUNP_TUNE_SPMV_VENDOR", 0, 0, 1);
        t.unroll = knob("GPUNP_TUNE_UNROLL", 1, 1, 8);
    }
    return &t;
}
