/*
 * cache.c - the kernel cache: in memory (a hash table of loaded kernels), on
 * disk (one file per compiled image) and in the kernel pack (entries of the
 * same form compiled when the wheel was built, read-only, beside the engine).
 *
 * A disk entry holds the full text that determined it (compiler identity,
 * options, target and source) beside the image and a checksum of the image.
 * An entry is used only when that text matches exactly and the checksum
 * holds, so a hash collision, a truncated write or a damaged file is
 * recompiled rather than loaded. Writes go to a temporary file that is
 * renamed into place, so readers never see a partial entry.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache.h"

/* ---- configuration --------------------------------------------------------- */

static pthread_once_t config_once = PTHREAD_ONCE_INIT;
static char cache_dir[4096];
static char log_dir[4096];
static char pack_dir[4096];

static bool mkdirs(const char *path)
{
    char tmp[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof tmp)
        return false;
    memcpy(tmp, path, n + 1);
    for (char *p = tmp + 1; *p; ++p) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
            return false;
        *p = '/';
    }
    return mkdir(tmp, 0755) == 0 || errno == EEXIST;
}

static void read_config(void)
{
    const char *d = getenv("GPUNP_CACHE_DIR");
    if (d && *d) {
        snprintf(cache_dir, sizeof cache_dir, "%s", d);
    } else if ((d = getenv("XDG_CACHE_HOME")) && *d) {
        snprintf(cache_dir, sizeof cache_dir, "%s/gpunp", d);
    } else if ((d = getenv("HOME")) && *d) {
        snprintf(cache_dir, sizeof cache_dir, "%s/.cache/gpunp", d);
    }
    if (cache_dir[0] && !mkdirs(cache_dir))
        cache_dir[0] = '\0'; /* not writable: memory only */
    d = getenv("GPUNP_KERNEL_LOG");
    if (d && *d && mkdirs(d))
        snprintf(log_dir, sizeof log_dir, "%s", d);
    /* The pack ships in the folder `_kernels` beside the engine's library,
     * so an installed wheel finds it wherever it is installed;
     * GPUNP_KERNEL_PACK names another folder, or none when empty (to time
     * or test the compiler's path) */
    Dl_info self;
    if ((d = getenv("GPUNP_KERNEL_PACK")))
        snprintf(pack_dir, sizeof pack_dir, "%s", d);
    else if (dladdr((void *)read_config, &self) && self.dli_fname &&
             strrchr(self.dli_fname, '/'))
        snprintf(pack_dir, sizeof pack_dir, "%.*s/_kernels",
                 (int)(strrchr(self.dli_fname, '/') - self.dli_fname), self.dli_fname);
}

const char *gp_cache_dir(void)
{
    pthread_once(&config_once, read_config);
    return cache_dir;
}

const char *gp_kernel_log_dir(void)
{
    pthread_once(&config_once, read_config);
    return log_dir;
}

const char *gp_kernel_pack_dir(void)
{
    pthread_once(&config_once, read_config);
    return pack_dir;
}

/* ---- statistics -------------------------------------------------------------- */

static gp_cache_stats_t stats;

GP_API gp_status_t gp_cache_get_stats(gp_cache_stats_t *out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_cache_get_stats: out is NULL");
    *out = stats;
    return GP_OK;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- files ------------------------------------------------------------------- */

static const char MAGIC[8] = {'G', 'P', 'N', 'P', 'K', 'C', '0', '1'};

typedef struct {
    char magic[8];
    uint64_t ident_len;
    uint64_t image_len;
    uint64_t image_hash;
} entry_header_t;

static bool read_file(const char *path, char **data, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    bool ok = false;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n >= 0 && fseek(f, 0, SEEK_SET) == 0) {
            *data = malloc((size_t)n + 1);
            if (*data && fread(*data, 1, (size_t)n, f) == (size_t)n) {
                *size = (size_t)n;
                ok = true;
            } else {
                free(*data);
                *data = NULL;
            }
        }
    }
    fclose(f);
    return ok;
}

/* Writes `n` bytes of each of the parts to `path` atomically. */
static void write_atomic(const char *path, const void *const *parts, const size_t *sizes, int nparts)
{
    char tmp[4200];
    static atomic_uint counter;
    snprintf(tmp, sizeof tmp, "%s.tmp.%d.%u", path, (int)getpid(),
             atomic_fetch_add(&counter, 1));
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return; /* the disk cache is best effort */
    bool ok = true;
    for (int k = 0; k < nparts && ok; ++k)
        ok = fwrite(parts[k], 1, sizes[k], f) == sizes[k];
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0)
        remove(tmp);
}

/* The image stored at `path` if its identity text equals `ident`. */
static bool load_entry(const char *path, const gp_str_t *ident, gp_blob_t *out, bool *rejected)
{
    char *data = NULL;
    size_t size = 0;
    *rejected = false;
    if (!read_file(path, &data, &size))
        return false;
    entry_header_t h;
    bool ok = size >= sizeof h;
    if (ok) {
        memcpy(&h, data, sizeof h);
        ok = memcmp(h.magic, MAGIC, sizeof MAGIC) == 0 && h.ident_len == ident->len &&
             h.image_len == size - sizeof h - h.ident_len && h.ident_len < size &&
             memcmp(data + sizeof h, ident->data, ident->len) == 0;
    }
    if (ok) {
        const char *img = data + sizeof h + h.ident_len;
        ok = gp_fnv1a(GP_FNV_SEED, img, h.image_len) == h.image_hash;
        if (ok) {
            out->data = malloc(h.image_len ? h.image_len : 1);
            ok = out->data != NULL;
            if (ok) {
                memcpy(out->data, img, h.image_len);
                out->size = h.image_len;
            }
        }
    }
    free(data);
    *rejected = !ok;
    return ok;
}

static void store_entry(const char *path, const gp_str_t *ident, const gp_blob_t *img)
{
    entry_header_t h;
    memcpy(h.magic, MAGIC, sizeof MAGIC);
    h.ident_len = ident->len;
    h.image_len = img->size;
    h.image_hash = gp_fnv1a(GP_FNV_SEED, img->data, img->size);
    const void *parts[3] = {&h, ident->data, img->data};
    size_t sizes[3] = {sizeof h, ident->len, img->size};
    write_atomic(path, parts, sizes, 3);
}

static void log_source(const gp_str_t *body)
{
    const char *dir = gp_kernel_log_dir();
    if (!dir[0])
        return;
    char path[4200];
    snprintf(path, sizeof path, "%s/%016llx.cu", dir,
             (unsigned long long)gp_fnv1a(GP_FNV_SEED, body->data, body->len));
    if (access(path, F_OK) == 0)
        return;
    const void *parts[1] = {body->data};
    size_t sizes[1] = {body->len};
    write_atomic(path, parts, sizes, 1);
}

/* ---- the in-memory table ----------------------------------------------------- */

typedef struct {
    uint64_t hash;
    size_t key_len;
    unsigned char *key;   /* NULL: empty slot */
    gp_kernel_t *kernel;  /* its own allocation: callers keep the pointer */
} slot_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static slot_t *slots;
static size_t nslots, nused;

static slot_t *find_slot(slot_t *tab, size_t cap, uint64_t h, const void *key, size_t len)
{
    for (size_t i = (size_t)h & (cap - 1);; i = (i + 1) & (cap - 1)) {
        slot_t *s = &tab[i];
        if (!s->key || (s->hash == h && s->key_len == len && memcmp(s->key, key, len) == 0))
            return s;
    }
}

static bool grow(void)
{
    size_t cap = nslots ? 2 * nslots : 1024;
    slot_t *tab = calloc(cap, sizeof *tab);
    if (!tab)
        return false;
    for (size_t i = 0; i < nslots; ++i)
        if (slots[i].key)
            *find_slot(tab, cap, slots[i].hash, slots[i].key, slots[i].key_len) = slots[i];
    free(slots);
    slots = tab;
    nslots = cap;
    return true;
}

/* Kernels forgotten by gp_cache_forget_loaded: a caller may still hold one
 * (between its lookup and its launch, on another thread), and a twin may
 * still be compiling for one, so they are never freed; kept here they stay
 * reachable, which is what they are, rather than leaked. */
static gp_kernel_t **forgotten;
static size_t nforgotten;

GP_API gp_status_t gp_cache_forget_loaded(void)
{
    pthread_mutex_lock(&lock);
    gp_kernel_t **keep = forgotten;
    if (nused)
        keep = realloc(forgotten, (nforgotten + nused) * sizeof *keep);
    if (!keep) {
        pthread_mutex_unlock(&lock);
        return gp_set_error(GP_ERR_NOMEM, "out of host memory for the kernel cache");
    }
    forgotten = keep;
    for (size_t i = 0; i < nslots; ++i) {
        if (!slots[i].key)
            continue;
        forgotten[nforgotten++] = slots[i].kernel;
        free(slots[i].key);
    }
    free(slots);
    slots = NULL;
    nslots = nused = 0;
    pthread_mutex_unlock(&lock);
    return GP_OK;
}

/* Where the entry of `ident` lives in folder `dir` for backend `be_name` on
 * `target` ("" when `dir` is "" or, with `make`, its subfolder cannot be
 * made). */
static void entry_path_in(const char *dir, bool make, const char *be_name, const char *target,
                          const gp_str_t *ident, char *path, size_t n)
{
    path[0] = '\0';
    if (!dir[0])
        return;
    char sub[4200];
    snprintf(sub, sizeof sub, "%s/%s-%s", dir, be_name, target);
    if (!make || mkdirs(sub))
        snprintf(path, n, "%s/%016llx.gpk", sub,
                 (unsigned long long)gp_fnv1a(GP_FNV_SEED, ident->data, ident->len));
}

/* Where the disk cache's entry of `ident` lives ("" when the cache is off). */
static void entry_path(const char *be_name, const char *target, const gp_str_t *ident,
                       char *path, size_t n)
{
    entry_path_in(gp_cache_dir(), true, be_name, target, ident, path, n);
}

/* A generated kernel's identity text: the compiler's identity `cid`, then
 * the source the compiler is given (from *src_at on). */
static void kernel_ident(gp_str_t *ident, const char *cid, const char *prelude,
                         const char *body, size_t len, size_t *src_at)
{
    gp_str_printf(ident, "%s\n", cid);
    *src_at = ident->len;
    gp_kernel_source(ident, prelude, body, len);
}

/* A kernel's identity in the pack: the compiler's identity, a hash of the
 * whole source the compiler was given and the generated body. The prelude,
 * which every entry would repeat (21 of a typical entry's 30 kB), is the
 * one built into the same wheel; the hash still tells a pack built from
 * another prelude apart. */
static void pack_ident(gp_str_t *out, const gp_str_t *ident, size_t src_at, const char *body,
                       size_t len)
{
    gp_str_putn(out, ident->data, src_at);
    gp_str_printf(out, "source %016llx\n",
                  (unsigned long long)gp_fnv1a(GP_FNV_SEED, ident->data + src_at,
                                               ident->len - src_at));
    gp_str_putn(out, body, len);
}

/* A kernel's generated source, its identity text and its disk entry. */
typedef struct {
    char name[128];
    gp_str_t body, ident;
    size_t src_at; /* where the compiler's source starts in ident */
    char path[4400];
} kernel_text_t;

static void text_free(kernel_text_t *t)
{
    gp_str_free(&t->body);
    gp_str_free(&t->ident);
}

static gp_status_t make_text(const gp_backend_i *be, gp_kernel_gen_fn gen, const void *ctx,
                             kernel_text_t *t)
{
    t->name[0] = t->path[0] = '\0';
    gp_str_init(&t->body);
    gp_str_init(&t->ident);
    GP_TRY(gen(ctx, t->name, sizeof t->name, &t->body));
    if (t->body.failed)
        return gp_set_error(GP_ERR_NOMEM, "out of host memory generating kernel %s", t->name);
    const char *cid = be->compiler_id();
    if (!cid)
        return gp_errcode() ? gp_errcode() : GP_ERR_BACKEND;
    kernel_ident(&t->ident, cid, be->prelude, t->body.data, t->body.len, &t->src_at);
    if (t->ident.failed)
        return gp_set_error(GP_ERR_NOMEM, "out of host memory generating kernel %s", t->name);
    const gp_device_props_t *props;
    GP_TRY(gp_backend_props(&props));
    entry_path(be->name, props->target, &t->ident, t->path, sizeof t->path);
    return GP_OK;
}

static gp_status_t load(const gp_backend_i *be, const gp_blob_t *img, const char *name,
                        void **fn)
{
    void *module;
    GP_TRY(be->module_load(img, &module));
    return be->module_function(module, name, fn);
}

/* ---- quick first compiles -------------------------------------------------------- */

/* A kernel compiled quickly serves its first calls while its twin, the
 * kernel itself, is compiled here on one thread of the cache's own and
 * stored on disk; the first call that finds the twin compiled loads it in
 * the kernel's place (loading needs the caller's device). At exit the
 * thread compiles what is still queued, so that the next process finds
 * every kernel on disk; in a forked child the thread is gone and kernels
 * keep their quick code. */
typedef struct gp_twin {
    const gp_backend_i *be;
    int32_t device; /* whose target it is compiled for */
    kernel_text_t text;
    gp_blob_t img;
    gp_status_t status;
    atomic_int done;
    struct gp_twin *next; /* the thread's queue */
} twin_t;

static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t qcond = PTHREAD_COND_INITIALIZER;
static pthread_cond_t qdone = PTHREAD_COND_INITIALIZER; /* a twin compiled */
static twin_t *qhead, *qtail;
static int64_t queued; /* twins queued and not yet compiled */
static bool compiling, stopping;
static pthread_t compiler;

/* A twin starts only once the callers' own compiles have paused for
 * TWIN_QUIET seconds. NVRTC serializes part of two compiles in one process
 * (an empty kernel took 44 ms alone, 86-103 ms when started within 10 ms
 * of another thread's compile), and first calls come in bursts (a
 * script's first pass over its code), so a twin started between two of
 * them would double the second one's wait. */
#define TWIN_QUIET 0.05
static atomic_int fg_compiling;
static atomic_llong fg_ended_ns; /* when the last one ended */

static void foreground_compile(bool starts)
{
    if (starts) {
        atomic_fetch_add(&fg_compiling, 1);
        return;
    }
    atomic_store(&fg_ended_ns, (long long)(now_seconds() * 1e9));
    atomic_fetch_sub(&fg_compiling, 1);
}

/* Seconds until the callers' compiles have paused long enough (0: now). */
static double twin_wait(void)
{
    if (atomic_load(&fg_compiling) > 0)
        return TWIN_QUIET;
    double left = 1e-9 * (double)atomic_load(&fg_ended_ns) + TWIN_QUIET - now_seconds();
    return left > 0 ? left : 0;
}

static void *compile_twins(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&qlock);
    for (;;) {
        while (!qhead && !stopping)
            pthread_cond_wait(&qcond, &qlock);
        if (!qhead)
            break; /* stopping, and every queued twin compiled */
        double wait = stopping ? 0 : twin_wait();
        if (wait > 0) {
            pthread_mutex_unlock(&qlock);
            long long ns = (long long)(wait * 1e9) + 1;
            nanosleep(&(struct timespec){ns / 1000000000, ns % 1000000000}, NULL);
            pthread_mutex_lock(&qlock);
            continue;
        }
        twin_t *t = qhead;
        qhead = t->next;
        if (!qhead)
            qtail = NULL;
        pthread_mutex_unlock(&qlock);
        t->status = t->device == gp_current_device() ? GP_OK : gp_device_set(t->device);
        if (t->status == GP_OK)
            t->status = t->be->compile(t->text.ident.data + t->text.src_at, &t->img);
        if (t->status == GP_OK && t->text.path[0])
            store_entry(t->text.path, &t->text.ident, &t->img);
        atomic_store_explicit(&t->done, 1, memory_order_release);
        pthread_mutex_lock(&qlock);
        --queued;
        pthread_cond_broadcast(&qdone);
    }
    pthread_mutex_unlock(&qlock);
    return NULL;
}

GP_API gp_status_t gp_cache_finish_compiles(void)
{
    pthread_mutex_lock(&qlock);
    while (queued > 0 && compiling)
        pthread_cond_wait(&qdone, &qlock);
    pthread_mutex_unlock(&qlock);
    return GP_OK;
}

static void stop_compiling(void)
{
    pthread_mutex_lock(&qlock);
    bool running = compiling;
    stopping = true;
    pthread_cond_signal(&qcond);
    pthread_mutex_unlock(&qlock);
    if (running)
        pthread_join(compiler, NULL);
}

static void forget_compiler_in_child(void)
{
    pthread_mutex_init(&qlock, NULL);
    pthread_cond_init(&qcond, NULL);
    pthread_cond_init(&qdone, NULL);
    queued = 0;
    compiling = false;
    stopping = true; /* the child compiles every kernel in the caller's thread */
    for (twin_t *t = qhead; t; t = t->next) {
        t->status = GP_ERR_BACKEND;
        atomic_store_explicit(&t->done, 1, memory_order_release);
    }
    qhead = qtail = NULL;
}

static void at_exit_and_fork(void)
{
    atexit(stop_compiling);
    pthread_atfork(NULL, NULL, forget_compiler_in_child);
}

/* Queues `t` for the thread (started on first use); false where there is
 * no thread (at exit, in a forked child, or none could start). */
static bool queue_twin(twin_t *t)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, at_exit_and_fork);
    pthread_mutex_lock(&qlock);
    if (!compiling && !stopping)
        compiling = pthread_create(&compiler, NULL, compile_twins, NULL) == 0;
    bool ok = compiling && !stopping;
    if (ok) {
        t->next = NULL;
        if (qtail)
            qtail->next = t;
        else
            qhead = t;
        qtail = t;
        ++queued;
        pthread_cond_signal(&qcond);
    }
    pthread_mutex_unlock(&qlock);
    return ok;
}

/* Puts a compiled twin in its kernel's place; lock held. */
static void take_twin(gp_kernel_t *k)
{
    twin_t *t = k->up;
    if (!atomic_load_explicit(&t->done, memory_order_acquire))
        return;
    k->up = NULL;
    void *fn;
    if (t->status == GP_OK && load(t->be, &t->img, t->text.name, &fn) == GP_OK)
        atomic_store_explicit(&k->fn, fn, memory_order_release);
    else
        gp_clear_error(); /* the quick kernel stays: it computes the same */
    free(t->img.data);
    text_free(&t->text);
    free(t);
}

/* The quick kernel of `quick` in k's place and its twin, `full`'s kernel,
 * queued (taking full's text); false where that cannot be (the caller
 * compiles `full` itself). */
static bool build_quick(const gp_backend_i *be, kernel_text_t *full, gp_kernel_gen_fn quick,
                        const void *ctx, gp_kernel_t *k)
{
    twin_t *t = calloc(1, sizeof *t);
    if (!t)
        return false;
    kernel_text_t q;
    gp_blob_t img = {NULL, 0};
    void *fn = NULL;
    double t0 = now_seconds();
    foreground_compile(true);
    bool ok = make_text(be, quick, ctx, &q) == GP_OK &&
              be->compile_quick(q.ident.data + q.src_at, &img) == GP_OK &&
              load(be, &img, q.name, &fn) == GP_OK;
    foreground_compile(false);
    stats.compile_seconds += now_seconds() - t0;
    if (ok) {
        ++stats.compiles;
        log_source(&q.body);
        log_source(&full->body);
        t->be = be;
        t->device = gp_current_device();
        t->text = *full; /* the twin owns the text from here */
        atomic_init(&t->done, 0);
        atomic_store_explicit(&k->fn, fn, memory_order_release);
        k->up = t;
        if (!queue_twin(t)) {
            k->up = NULL;
            *full = t->text;
            ok = false;
        }
    }
    if (!ok) {
        gp_clear_error();
        free(t);
    }
    free(img.data);
    text_free(&q);
    return ok;
}

/* t's kernel loaded from the pack, where the pack holds it for this target
 * and the driver loads it (one older than the compiler that made the pack
 * may not: the kernel is compiled then). */
static bool load_packed(const gp_backend_i *be, const kernel_text_t *t, void **fn)
{
    const char *dir = gp_kernel_pack_dir();
    const gp_device_props_t *props;
    if (!dir[0] || gp_backend_props(&props) != GP_OK) {
        gp_clear_error();
        return false;
    }
    gp_str_t ident;
    gp_str_init(&ident);
    pack_ident(&ident, &t->ident, t->src_at, t->body.data, t->body.len);
    char path[4400];
    entry_path_in(dir, false, be->name, props->target, &ident, path, sizeof path);
    gp_blob_t img = {NULL, 0};
    bool rejected = false;
    bool ok = !ident.failed && load_entry(path, &ident, &img, &rejected) &&
              load(be, &img, t->name, fn) == GP_OK;
    if (rejected)
        ++stats.disk_rejects;
    if (!ok)
        gp_clear_error();
    free(img.data);
    gp_str_free(&ident);
    return ok;
}

/* Compiles (or fetches from disk or the pack) and loads the kernel; lock
 * held. */
static gp_status_t build(const gp_backend_i *be, gp_kernel_gen_fn gen, gp_kernel_gen_fn quick,
                         const void *ctx, gp_kernel_t *out)
{
    kernel_text_t t;
    gp_blob_t img = {NULL, 0};
    void *fn = NULL;
    out->up = NULL;
    gp_status_t s = make_text(be, gen, ctx, &t);
    if (s != GP_OK)
        goto done;
    bool rejected = false;
    if (t.path[0] && load_entry(t.path, &t.ident, &img, &rejected)) {
        ++stats.disk_hits;
    } else {
        if (rejected)
            ++stats.disk_rejects;
        if (load_packed(be, &t, &fn)) {
            ++stats.pack_hits;
            goto loaded;
        }
        if (quick && be->compile_quick && build_quick(be, &t, quick, ctx, out))
            goto done; /* the text is the twin's */
        double t0 = now_seconds();
        foreground_compile(true);
        s = be->compile(t.ident.data + t.src_at, &img);
        foreground_compile(false);
        stats.compile_seconds += now_seconds() - t0;
        if (s != GP_OK)
            goto done;
        ++stats.compiles;
        if (t.path[0])
            store_entry(t.path, &t.ident, &img);
    }
    s = load(be, &img, t.name, &fn);
loaded:
    atomic_store_explicit(&out->fn, fn, memory_order_release);
    if (s == GP_OK) /* what built here must build on every backend: tools/check_kernels.py */
        log_source(&t.body);
done:
    free(img.data);
    if (!out->up)
        text_free(&t);
    return s;
}

static gp_status_t get_kernel(const gp_backend_i *be, const void *key, size_t key_len,
                              gp_kernel_gen_fn gen, gp_kernel_gen_fn quick, const void *ctx,
                              const gp_kernel_t **out)
{
    uint64_t h = gp_fnv1a(GP_FNV_SEED, key, key_len);
    pthread_mutex_lock(&lock);
    gp_status_t s = GP_OK;
    if (2 * (nused + 1) > nslots && !grow()) {
        s = gp_set_error(GP_ERR_NOMEM, "out of host memory for the kernel cache");
        goto unlock;
    }
    slot_t *slot = find_slot(slots, nslots, h, key, key_len);
    if (slot->key) {
        ++stats.memory_hits;
        if (slot->kernel->up)
            take_twin(slot->kernel);
        *out = slot->kernel;
        goto unlock;
    }
    gp_kernel_t *k = malloc(sizeof *k);
    unsigned char *kcopy = malloc(key_len);
    if (!k || !kcopy) {
        free(k);
        free(kcopy);
        s = gp_set_error(GP_ERR_NOMEM, "out of host memory for the kernel cache");
        goto unlock;
    }
    s = build(be, gen, quick, ctx, k);
    if (s != GP_OK) {
        free(k);
        free(kcopy);
        goto unlock;
    }
    memcpy(kcopy, key, key_len);
    slot->hash = h;
    slot->key_len = key_len;
    slot->key = kcopy;
    slot->kernel = k;
    ++nused;
    *out = k;
unlock:
    pthread_mutex_unlock(&lock);
    return s;
}

gp_status_t gp_kernel_get(const void *key, size_t key_len, gp_kernel_gen_fn gen, const void *ctx,
                          const gp_kernel_t **out)
{
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    return get_kernel(be, key, key_len, gen, NULL, ctx, out);
}

gp_status_t gp_kernel_get_quick(const void *key, size_t key_len, gp_kernel_gen_fn gen,
                                gp_kernel_gen_fn quick, const void *ctx,
                                const gp_kernel_t **out)
{
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    return get_kernel(be, key, key_len, gen, quick, ctx, out);
}

gp_status_t gp_kernel_get_quick_on(const gp_backend_i *be, const void *key, size_t key_len,
                                   gp_kernel_gen_fn gen, gp_kernel_gen_fn quick,
                                   const void *ctx, const gp_kernel_t **out)
{
    return get_kernel(be, key, key_len, gen, quick, ctx, out);
}

/* ---- users' modules ------------------------------------------------------------------ */

/* A user module's disk entry holds its lowered names before the image:
 * u32 count, then per name a u32 length and the bytes. */
static bool pack_names(gp_blob_t *img, int32_t n, char **lowered)
{
    size_t head = 4;
    for (int32_t k = 0; k < n; ++k)
        head += 4 + strlen(lowered[k]);
    unsigned char *d = malloc(head + img->size + 1);
    if (!d)
        return false;
    uint32_t c = (uint32_t)n;
    memcpy(d, &c, 4);
    size_t at = 4;
    for (int32_t k = 0; k < n; ++k) {
        uint32_t len = (uint32_t)strlen(lowered[k]);
        memcpy(d + at, &len, 4);
        memcpy(d + at + 4, lowered[k], len);
        at += 4 + len;
    }
    memcpy(d + at, img->data, img->size);
    free(img->data);
    img->data = d;
    img->size = head + img->size;
    return true;
}

/* Splits a packed entry: lowered names out (if `lowered` is not NULL),
 * `image` the module image. */
static bool unpack_names(const gp_blob_t *img, int32_t n, char **lowered, gp_blob_t *image)
{
    const unsigned char *d = img->data;
    if (img->size < 4)
        return false;
    uint32_t c;
    memcpy(&c, d, 4);
    if ((int32_t)c != n)
        return false;
    size_t at = 4;
    for (int32_t k = 0; k < n; ++k) {
        uint32_t len;
        if (at + 4 > img->size)
            return false;
        memcpy(&len, d + at, 4);
        if (at + 4 + len > img->size)
            return false;
        if (lowered) {
            if (!(lowered[k] = malloc(len + 1)))
                return false;
            memcpy(lowered[k], d + at + 4, len);
            lowered[k][len] = '\0';
        }
        at += 4 + len;
    }
    image->data = (void *)(d + at);
    image->size = img->size - at;
    return true;
}

gp_status_t gp_user_module_get(const char *source, int32_t nopts, const char *const *opts,
                               int32_t nnames, const char *const *names, void **module,
                               char **lowered)
{
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    if (!be->compile_user)
        return gp_set_error(GP_ERR_UNSUPPORTED, "the %s backend does not compile raw CUDA "
                                                "modules", be->name);
    for (int32_t k = 0; k < nnames; ++k)
        lowered[k] = NULL;
    const char *cid = be->compiler_id();
    if (!cid)
        return gp_errcode() ? gp_errcode() : GP_ERR_BACKEND;
    gp_str_t ident;
    gp_str_init(&ident);
    gp_str_printf(&ident, "%s\nuser module\n", cid);
    for (int32_t k = 0; k < nopts; ++k)
        gp_str_printf(&ident, "option %s\n", opts[k]);
    for (int32_t k = 0; k < nnames; ++k)
        gp_str_printf(&ident, "name %s\n", names[k]);
    gp_str_puts(&ident, source);
    if (ident.failed) {
        gp_str_free(&ident);
        return gp_set_error(GP_ERR_NOMEM, "out of host memory");
    }
    pthread_mutex_lock(&lock);
    gp_status_t s = GP_OK;
    char path[4400] = "";
    const gp_device_props_t *props;
    s = gp_backend_props(&props);
    if (s == GP_OK)
        entry_path(be->name, props->target, &ident, path, sizeof path);
    gp_blob_t packed = {NULL, 0}, image = {NULL, 0};
    bool rejected = false, from_disk = false;
    if (s == GP_OK && path[0] && load_entry(path, &ident, &packed, &rejected)) {
        from_disk = unpack_names(&packed, nnames, lowered, &image);
        if (from_disk) {
            ++stats.disk_hits;
        } else {
            ++stats.disk_rejects;
            for (int32_t k = 0; k < nnames; ++k) {
                free(lowered[k]);
                lowered[k] = NULL;
            }
            free(packed.data);
            packed.data = NULL;
        }
    } else if (rejected) {
        ++stats.disk_rejects;
    }
    if (s == GP_OK && !from_disk) {
        double t0 = now_seconds();
        s = be->compile_user(source, nopts, opts, nnames, names, &packed, lowered);
        stats.compile_seconds += now_seconds() - t0;
        if (s == GP_OK) {
            ++stats.compiles;
            image = packed;
            if (!pack_names(&packed, nnames, lowered))
                s = gp_set_error(GP_ERR_NOMEM, "out of host memory");
            else if (path[0])
                store_entry(path, &ident, &packed);
            if (s == GP_OK)
                unpack_names(&packed, nnames, NULL, &image); /* the image past the names */
        }
    }
    if (s == GP_OK)
        s = be->module_load(&image, module);
    pthread_mutex_unlock(&lock);
    free(packed.data);
    gp_str_free(&ident);
    if (s != GP_OK)
        for (int32_t k = 0; k < nnames; ++k) {
            free(lowered[k]);
            lowered[k] = NULL;
        }
    return s;
}

/* ---- a cache prepared without the device ------------------------------------------- */

/* Compiles generated `source` for backend `be_name` ("cuda" or "host") and
 * `target` into the disk cache, or where `pack_dir` is given, into that
 * kernel pack. */
static gp_status_t precompile(const char *be_name, const char *source, const char *target,
                              const char *pack_dir)
{
    bool cuda = strcmp(be_name, GP_CUDA_BACKEND_NAME) == 0;
    if (!cuda && strcmp(be_name, "host") != 0)
        return gp_set_error(GP_ERR_VALUE, "kernels are packed for the cuda and host backends, "
                                          "not '%s'", be_name);
    const char *id = cuda ? gp_nvrtc_id() : gp_cc_id();
    if (!id)
        return gp_errcode() ? gp_errcode() : GP_ERR_NOT_FOUND_LIBRARY;
    char cid[512];
    if (cuda)
        snprintf(cid, sizeof cid, GP_GPU_COMPILER_ID, id, target);
    else
        snprintf(cid, sizeof cid, "%s", id);
    gp_str_t ident, packed;
    gp_str_init(&ident);
    gp_str_init(&packed);
    size_t src_at;
    kernel_ident(&ident, cid, cuda ? gp_prelude_cuda : gp_prelude_host, source, strlen(source),
                 &src_at);
    if (pack_dir)
        pack_ident(&packed, &ident, src_at, source, strlen(source));
    const gp_str_t *key = pack_dir ? &packed : &ident;
    gp_status_t s = GP_OK;
    char path[4400] = "";
    if (ident.failed || packed.failed)
        s = gp_set_error(GP_ERR_NOMEM, "out of host memory");
    else
        entry_path_in(pack_dir ? pack_dir : gp_cache_dir(), true, be_name, target, key, path,
                      sizeof path);
    if (s == GP_OK && !path[0])
        s = pack_dir ? gp_set_error(GP_ERR_IO, "cannot make the folder of the kernel pack in "
                                               "'%s'", pack_dir)
                     : gp_set_error(GP_ERR_IO, "the disk cache is off: no writable "
                                               "GPUNP_CACHE_DIR, XDG_CACHE_HOME or HOME");
    gp_blob_t img = {NULL, 0};
    if (s == GP_OK)
        s = cuda ? gp_nvrtc_compile(ident.data + src_at, target, &img)
                 : gp_cc_compile(ident.data + src_at, &img);
    if (s == GP_OK)
        store_entry(path, key, &img);
    free(img.data);
    gp_str_free(&ident);
    gp_str_free(&packed);
    return s;
}

GP_API gp_status_t gp_rtc_precompile_cuda(const char *source, const char *arch)
{
    if (!source || !arch)
        return gp_set_error(GP_ERR_MISUSE, "gp_rtc_precompile_cuda: NULL argument");
    return precompile(GP_CUDA_BACKEND_NAME, source, arch, NULL);
}

GP_API gp_status_t gp_rtc_pack(const char *backend, const char *source, const char *target,
                               const char *dir)
{
    if (!backend || !source || !target || !dir || !dir[0])
        return gp_set_error(GP_ERR_MISUSE, "gp_rtc_pack: NULL or empty argument");
    return precompile(backend, source, target, dir);
}
