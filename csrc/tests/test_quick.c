/*
 * test_quick.c - quick first compiles (cache.c): a kernel found nowhere on
 * disk first runs its quick variant while the kernel itself is compiled on
 * the cache's thread, stored on disk and then put in the quick one's place.
 *
 * The host backend has no quick compile, so the cache is driven through
 * gp_kernel_get_quick_on with a model backend: the host's vtable, whose
 * compiles the test counts, and whose full compile waits at a gate the test
 * opens. The quick variant writes 1 and the kernel 2, so a launch shows
 * which one a call ran (a real pair computes the same).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../kernels/kernels.h"
#include "gp_test.h"

static gp_backend_i model;
static const gp_backend_i *host;
static atomic_int quick_compiles, full_compiles;
static int fail_quick;
static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;
static int gate_open;

static gp_status_t model_compile(const char *source, gp_blob_t *out)
{
    atomic_fetch_add(&full_compiles, 1);
    pthread_mutex_lock(&gate_lock);
    while (!gate_open)
        pthread_cond_wait(&gate_cond, &gate_lock);
    pthread_mutex_unlock(&gate_lock);
    return host->compile(source, out);
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The last quick compile: when it started and ended; with hold_quick > 0 it
 * lasts that much longer, and full_after_hold is full_compiles at its end. */
static double quick_started, quick_ended, hold_quick;
static int full_after_hold;

static gp_status_t model_compile_quick(const char *source, gp_blob_t *out)
{
    quick_started = seconds();
    atomic_fetch_add(&quick_compiles, 1);
    if (fail_quick)
        return gp_set_error(GP_ERR_COMPILE, "the model's quick compile fails");
    if (hold_quick > 0) {
        long long ns = (long long)(hold_quick * 1e9);
        nanosleep(&(struct timespec){ns / 1000000000, ns % 1000000000}, NULL);
        full_after_hold = atomic_load(&full_compiles);
    }
    gp_status_t s = host->compile(source, out);
    quick_ended = seconds();
    return s;
}

static void set_gate(int open)
{
    pthread_mutex_lock(&gate_lock);
    gate_open = open;
    pthread_cond_broadcast(&gate_cond);
    pthread_mutex_unlock(&gate_lock);
}

/* A kernel writing `value` to each of n doubles; `tag` tells apart the
 * kernels of one test (the cache knows kernels by their source). */
typedef struct {
    int tag;
} spec_t;

static gp_status_t gen_value(const spec_t *sp, const char *what, double value, char *name,
                             size_t name_size, gp_str_t *body)
{
    snprintf(name, name_size, "gpk_test_%s_%d", what, sp->tag);
    gp_str_printf(body,
                  "typedef long long gpk_idx;\n"
                  "struct gpk_params { gpk_index n; double *GPK_RESTRICT p0; };\n"
                  "GPK_KERNEL(%s, struct gpk_params)\n{\n"
                  "GPK_GRID_LOOP(gpk_idx, i, p.n) { p.p0[i] = %g; }\n}\n",
                  name, value);
    return GP_OK;
}

static gp_status_t gen_full(const void *ctx, char *name, size_t n, gp_str_t *body)
{
    return gen_value(ctx, "full", 2.0, name, n, body);
}

static gp_status_t gen_quick(const void *ctx, char *name, size_t n, gp_str_t *body)
{
    return gen_value(ctx, "quick", 1.0, name, n, body);
}

/* What the kernel writes (one element), or -1 if the launch fails. */
static double run(const gp_kernel_t *k)
{
    double v = -1.0;
    gp_params_t p;
    gp_params_init(&p);
    gp_params_index(&p, 1);
    gp_params_ptr(&p, &v);
    gp_launch_t cfg = gp_grid_for(1, 256);
    return CHECK_OK(gp_launch(k, &cfg, &p)) ? v : -1.0;
}

static const gp_kernel_t *get(const gp_backend_i *be, int tag)
{
    spec_t sp = {tag};
    const gp_kernel_t *k = NULL;
    CHECK_OK(gp_kernel_get_quick_on(be, &sp, sizeof sp, gen_full, gen_quick, &sp, &k));
    return k;
}

/* Calls for the kernel until it is the full one (or 60 s pass). */
static const gp_kernel_t *wait_for_full(int tag)
{
    const gp_kernel_t *k = NULL;
    for (int ms = 0; ms < 60000; ms += 10) {
        k = get(&model, tag);
        if (!k || !k->up)
            return k;
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    }
    return k;
}

static int disk_entries(void)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "ls %s/host-*/*.gpk 2>/dev/null | wc -l", getenv("GPUNP_CACHE_DIR"));
    FILE *f = popen(cmd, "r");
    int n = -1;
    if (f) {
        if (fscanf(f, "%d", &n) != 1)
            n = -1;
        pclose(f);
    }
    return n;
}

static void test_the_quick_kernel_serves_until_its_twin_is_compiled(void)
{
    set_gate(0);
    int entries = disk_entries();
    const gp_kernel_t *k = get(&model, 1);
    if (!CHECK(k != NULL))
        return;
    CHECK_EQ(atomic_load(&quick_compiles), 1);
    CHECK(k->up != NULL);
    CHECK(run(k) == 1.0);
    CHECK(get(&model, 1) == k && run(k) == 1.0); /* the twin is still at the gate */
    set_gate(1);
    const gp_kernel_t *again = wait_for_full(1);
    CHECK(again == k); /* callers keep their pointer: the function changes in place */
    CHECK(k->up == NULL);
    CHECK(run(k) == 2.0);
    CHECK_EQ(atomic_load(&full_compiles), 1);
    CHECK_EQ(atomic_load(&quick_compiles), 1);
    CHECK_EQ(disk_entries(), entries + 1); /* the twin only: quick code is never stored */

    /* a process that finds the kernel on disk runs it from the first call */
    CHECK_OK(gp_cache_forget_loaded());
    const gp_kernel_t *forgotten = k;
    set_gate(0);
    k = get(&model, 1);
    if (CHECK(k != NULL)) {
        CHECK(k != forgotten && run(forgotten) == 2.0); /* a holder of the old one may launch it */
        CHECK(k->up == NULL && run(k) == 2.0);
        CHECK_EQ(atomic_load(&quick_compiles), 1);
        CHECK_EQ(atomic_load(&full_compiles), 1);
    }
    set_gate(1);
}

static void test_without_a_quick_compile_the_kernel_is_compiled_at_once(void)
{
    set_gate(1);
    int quick = atomic_load(&quick_compiles);
    const gp_kernel_t *k = get(host, 2); /* the host backend itself has none */
    if (CHECK(k != NULL))
        CHECK(k->up == NULL && run(k) == 2.0);
    fail_quick = 1;
    k = get(&model, 3); /* a quick compile that fails: the kernel, at once */
    fail_quick = 0;
    if (CHECK(k != NULL))
        CHECK(k->up == NULL && run(k) == 2.0);
    CHECK_EQ(atomic_load(&quick_compiles), quick + 1);
    /* gp_kernel_get never takes the quick way */
    spec_t sp = {4};
    const gp_kernel_t *g = NULL;
    if (CHECK_OK(gp_kernel_get(&sp, sizeof sp, gen_full, &sp, &g)))
        CHECK(g->up == NULL && run(g) == 2.0);
}

static void test_many_kernels_at_once(void)
{
    /* twins queue behind one another on the one thread */
    set_gate(0);
    const gp_kernel_t *k[6];
    for (int i = 0; i < 6; ++i) {
        k[i] = get(&model, 10 + i);
        if (!CHECK(k[i] != NULL && run(k[i]) == 1.0))
            return;
    }
    set_gate(1);
    for (int i = 0; i < 6; ++i) {
        CHECK(wait_for_full(10 + i) == k[i]);
        CHECK(run(k[i]) == 2.0);
    }
}

static void test_a_twin_waits_while_callers_compile(void)
{
    /* the cache's TWIN_QUIET: no twin starts until the callers' compiles
     * have paused that long */
    const double quiet = 0.05;
    set_gate(0);
    int before = atomic_load(&full_compiles);
    const gp_kernel_t *a = get(&model, 20);
    double a_ended = quick_ended;
    hold_quick = 3 * quiet; /* the next first call compiles for longer than that */
    const gp_kernel_t *b = get(&model, 21);
    hold_quick = 0;
    if (CHECK(a != NULL && b != NULL) && quick_started - a_ended < quiet)
        CHECK_EQ(full_after_hold, before); /* a's twin waited through b's compile */
    set_gate(1);
    CHECK(wait_for_full(20) == a && wait_for_full(21) == b);
    CHECK_EQ(atomic_load(&full_compiles), before + 2);
}

static void *open_gate_later(void *arg)
{
    (void)arg;
    nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL);
    set_gate(1);
    return NULL;
}

static void test_finish_compiles_waits_for_every_twin(void)
{
    set_gate(0);
    int before = atomic_load(&full_compiles);
    const gp_kernel_t *k[3];
    for (int i = 0; i < 3; ++i) {
        k[i] = get(&model, 30 + i);
        if (!CHECK(k[i] != NULL && run(k[i]) == 1.0)) {
            set_gate(1);
            return;
        }
    }
    pthread_t opener;
    double t0 = seconds();
    if (!CHECK_EQ(pthread_create(&opener, NULL, open_gate_later, NULL), 0)) {
        set_gate(1);
        return;
    }
    CHECK_OK(gp_cache_finish_compiles());
    CHECK(seconds() - t0 >= 0.1); /* it waited for the gate */
    CHECK_EQ(atomic_load(&full_compiles), before + 3);
    for (int i = 0; i < 3; ++i) /* each takes its twin at the next call */
        CHECK(get(&model, 30 + i) == k[i] && k[i]->up == NULL && run(k[i]) == 2.0);
    pthread_join(opener, NULL);
    t0 = seconds();
    CHECK_OK(gp_cache_finish_compiles()); /* nothing queued */
    CHECK(seconds() - t0 < 0.05);
}

/* Run as a process of its own (argv[1] "exit"): queues twins and exits at
 * once; the parent then finds them all on disk. */
static int queue_and_exit(void)
{
    if (!gp_test_init() || !CHECK_OK(gp_backend(&host)))
        return 1;
    model = *host;
    model.compile = model_compile;
    model.compile_quick = model_compile_quick;
    set_gate(1);
    for (int i = 0; i < 4; ++i)
        if (!get(&model, 100 + i))
            return 1;
    return 0; /* atexit: the cache's thread compiles all four */
}

static void test_twins_queued_at_exit_are_compiled(const char *self)
{
    int entries = disk_entries();
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "%s exit", self);
    CHECK_EQ(system(cmd), 0);
    CHECK_EQ(disk_entries(), entries + 4);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "exit"))
        return queue_and_exit();
    char dir[] = "/tmp/gpunp_test_quick_XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    setenv("GPUNP_CACHE_DIR", dir, 1);
    if (gp_test_init() && CHECK_OK(gp_backend(&host))) {
        model = *host;
        model.compile = model_compile;
        model.compile_quick = model_compile_quick;
        RUN(test_the_quick_kernel_serves_until_its_twin_is_compiled);
        RUN(test_without_a_quick_compile_the_kernel_is_compiled_at_once);
        RUN(test_many_kernels_at_once);
        RUN(test_a_twin_waits_while_callers_compile);
        RUN(test_finish_compiles_waits_for_every_twin);
        check_state.test = "test_twins_queued_at_exit_are_compiled";
        test_twins_queued_at_exit_are_compiled(argv[0]);
    }
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return check_summary("test_quick");
}
