/*
 * cache.c - the kernel cache: in memory (a hash table of loaded kernels), on
 * disk (one file per compiled image) and in the kernel pack (entries of the
 * same form compiled when the wheel was built, read-only, beside the engine).
 *
 * A disk entry holds the full text that determined it (compiler identity,
 * options, target and source) beside the image and a checksum of the image.
 * An entry is used only when that text matches exactly and the checksum
 * holds, so a hash collision, a truncated write or a damaged file is
 * recompiled rather than loaded. Writes go to a new file of an
 * unpredictable name that is renamed into place, so readers never see a
 * partial entry.
 *
 * Loading an entry runs its code, so an entry is read only where nobody but
 * the user (or root, for the pack) could have written it: the folders and
 * the entry are the user's and writable by nobody else, and neither is a
 * link (docs/architecture.md, "What the kernel cache trusts").
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache.h"

/* ---- configuration --------------------------------------------------------- */

static pthread_once_t config_once = PTHREAD_ONCE_INIT;
static char cache_dir[4096];
static char log_dir[4096];
static char pack_dir[4096];
/* The folders, opened once: entries are reached from them by name
 * (openat), so a folder renamed or replaced after it was checked is never
 * followed. -1: none. */
static int cache_fd = -1, log_fd = -1, pack_fd = -1;

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
        if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
            return false;
        *p = '/';
    }
    return mkdir(tmp, 0700) == 0 || errno == EEXIST;
}

/* Where kernel images are read from, and who may have written them. */
typedef struct {
    const char *what; /* for messages */
    const char *root; /* its folder's path */
    bool root_too;    /* root may own it too (a system-wide install) */
    atomic_flag *said;
} place_t;

static atomic_flag cache_said = ATOMIC_FLAG_INIT, pack_said = ATOMIC_FLAG_INIT;
static const place_t CACHE = {"kernel cache", cache_dir, false, &cache_said};
static const place_t PACK = {"kernel pack", pack_dir, true, &pack_said};

/* Tells the user, once per process and place, why entries are passed over:
 * only they can mend it, and it costs compile time, not results, so it is
 * said rather than raised. */
static void pass_over(const place_t *pl, const char *fmt, ...)
{
    if (atomic_flag_test_and_set(pl->said))
        return;
    char why[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    fprintf(stderr, "gpunp: ignoring %s entries: %s\n", pl->what, why);
}

/* Whether nobody but the user (or root, where the place allows) can have
 * written what `fd` holds open (a folder if `dir`, else a regular file),
 * `pl->root`/`sub`/`file` for messages; its size into *size. */
static bool trusted(int fd, bool dir, const place_t *pl, const char *sub, const char *file,
                    size_t *size)
{
    struct stat st;
    uid_t me = geteuid();
    enum { OK, UNSEEN, KIND, OWNER, WRITABLE } wrong = OK;
    int err = 0;
    if (fstat(fd, &st) != 0) {
        wrong = UNSEEN;
        err = errno;
    }
    else if (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
        wrong = KIND;
    else if (st.st_uid != me && !(pl->root_too && st.st_uid == 0))
        wrong = OWNER;
    else if (st.st_mode & (S_IWGRP | S_IWOTH))
        wrong = WRITABLE;
    if (wrong == OK) {
        if (size)
            *size = (size_t)st.st_size;
        return true;
    }
    char shown[4600];
    snprintf(shown, sizeof shown, "%s%s%s%s%s", pl->root, sub ? "/" : "", sub ? sub : "",
             file ? "/" : "", file ? file : "");
    if (wrong == UNSEEN)
        pass_over(pl, "%s cannot be examined (%s)", shown, strerror(err));
    else if (wrong == KIND)
        pass_over(pl, "%s is not a %s", shown, dir ? "folder" : "regular file");
    else if (wrong == OWNER)
        pass_over(pl, "%s is owned by uid %u, not by you (uid %u)", shown, (unsigned)st.st_uid,
                  (unsigned)me);
    else
        pass_over(pl, "%s is writable by %s (chmod go-w '%s' mends it)", shown,
                  st.st_mode & S_IWOTH ? "others" : "its group", shown);
    return false;
}

/* The place's folder at pl->root (which may be reached through links: the
 * user chose it), open if it may be trusted, else -1. */
static int open_root(const place_t *pl)
{
    int fd = open(pl->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0 && !trusted(fd, true, pl, NULL, NULL, NULL)) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* The folder `sub` of the open folder `root` (made if `make`), open if it
 * is a folder and no link and `pl` may trust it (NULL: anything, for a
 * pack being written); else -1. */
static int open_sub(int root, const char *sub, bool make, const place_t *pl)
{
    if (root < 0)
        return -1;
    const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
    int fd = openat(root, sub, flags);
    if (fd < 0 && errno == ENOENT && make && (mkdirat(root, sub, 0700) == 0 || errno == EEXIST))
        fd = openat(root, sub, flags);
    if (fd < 0) {
        if (pl && (errno == ELOOP || errno == ENOTDIR))
            pass_over(pl, "%s/%s is not a folder", pl->root, sub);
        return -1;
    }
    if (pl && !trusted(fd, true, pl, sub, NULL, NULL)) {
        close(fd);
        return -1;
    }
    return fd;
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
    if (cache_dir[0] && mkdirs(cache_dir))
        cache_fd = open_root(&CACHE);
    if (cache_fd < 0)
        cache_dir[0] = '\0'; /* not writable, or not the user's alone: memory only */
    d = getenv("GPUNP_KERNEL_LOG");
    if (d && *d && mkdirs(d) && (log_fd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0)
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
    if (pack_dir[0])
        pack_fd = open_root(&PACK);
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

/* Counted by whichever thread gets there, none holding a lock of the cache
 * throughout: atomic, each on its own. */
static struct {
    atomic_llong memory_hits, disk_hits, compiles, disk_rejects, pack_hits, compile_ns;
} stats;

static void count(atomic_llong *counter)
{
    atomic_fetch_add_explicit(counter, 1, memory_order_relaxed);
}

GP_API gp_status_t gp_cache_get_stats(gp_cache_stats_t *out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_cache_get_stats: out is NULL");
    out->memory_hits = atomic_load(&stats.memory_hits);
    out->disk_hits = atomic_load(&stats.disk_hits);
    out->compiles = atomic_load(&stats.compiles);
    out->disk_rejects = atomic_load(&stats.disk_rejects);
    out->compile_seconds = 1e-9 * (double)atomic_load(&stats.compile_ns);
    out->pack_hits = atomic_load(&stats.pack_hits);
    return GP_OK;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Adds the time since `t0` (now_seconds) to the compile time. */
static void count_compile_time(double t0)
{
    atomic_fetch_add_explicit(&stats.compile_ns, (long long)((now_seconds() - t0) * 1e9),
                              memory_order_relaxed);
}

/* ---- files ------------------------------------------------------------------- */

static const char MAGIC[8] = {'G', 'P', 'N', 'P', 'K', 'C', '0', '1'};

typedef struct {
    char magic[8];
    uint64_t ident_len;
    uint64_t image_len;
    uint64_t image_hash;
} entry_header_t;

/* The file `file` of the open folder `dir` (`sub` of the place), whole
 * (malloc'd): 1, or 0 where there is none, or -1 where there is one that
 * may not be trusted or cannot be read. */
static int read_entry(int dir, const place_t *pl, const char *sub, const char *file, char **data,
                      size_t *size)
{
    /* O_NONBLOCK: a planted FIFO must not block the open */
    int fd = openat(dir, file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT)
            return 0;
        if (errno == ELOOP)
            pass_over(pl, "%s/%s/%s is a symbolic link", pl->root, sub, file);
        return -1;
    }
    size_t n = 0, got = 0;
    *data = NULL;
    if (trusted(fd, false, pl, sub, file, &n) && (*data = malloc(n + 1))) {
        ssize_t r;
        while (got < n && (r = read(fd, *data + got, n - got)) != 0) {
            if (r > 0)
                got += (size_t)r;
            else if (errno != EINTR)
                break;
        }
    }
    close(fd);
    if (!*data || got != n) {
        free(*data);
        *data = NULL;
        return -1;
    }
    *size = n;
    return 1;
}

static bool random_bytes(void *buf, size_t n)
{
    if (getrandom(buf, n, GRND_NONBLOCK) == (ssize_t)n)
        return true;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    bool ok = fd >= 0 && read(fd, buf, n) == (ssize_t)n;
    if (fd >= 0)
        close(fd);
    return ok;
}

static bool write_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* Writes the parts to `file` in the open folder `dir` atomically: into a
 * new file (never one that exists, never through a link: O_EXCL,
 * O_NOFOLLOW) of a name nobody can guess, readable by the user alone,
 * then renamed into place. Best effort: the disk cache may lose an entry. */
static void write_atomic(int dir, const char *file, const void *const *parts,
                         const size_t *sizes, int nparts)
{
    char tmp[200];
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 4; ++tries) {
        uint64_t r;
        if (!random_bytes(&r, sizeof r))
            return;
        snprintf(tmp, sizeof tmp, "%s.tmp-%016llx", file, (unsigned long long)r);
        fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST)
            return;
    }
    if (fd < 0)
        return;
    bool ok = true;
    for (int k = 0; k < nparts && ok; ++k)
        ok = write_all(fd, parts[k], sizes[k]);
    ok = (close(fd) == 0) && ok;
    if (!ok || renameat(dir, tmp, dir, file) != 0)
        unlinkat(dir, tmp, 0);
}

bool gp_cache_entry_image(const void *entry, size_t size, const char *ident, size_t ident_len,
                          const void **image, size_t *image_len)
{
    const char *data = entry;
    entry_header_t h;
    if (size < sizeof h)
        return false;
    memcpy(&h, data, sizeof h);
    /* each length is held to what is left of the file before it is used:
     * a crafted header must not make the comparison or the checksum read
     * past the entry */
    size_t left = size - sizeof h;
    if (memcmp(h.magic, MAGIC, sizeof MAGIC) != 0 || h.ident_len != ident_len ||
        h.ident_len > left || h.image_len != left - h.ident_len ||
        memcmp(data + sizeof h, ident, ident_len) != 0)
        return false;
    const char *img = data + sizeof h + h.ident_len;
    if (gp_fnv1a(GP_FNV_SEED, img, h.image_len) != h.image_hash)
        return false;
    *image = img;
    *image_len = h.image_len;
    return true;
}

/* The image of the entry `file` in the open folder `dir` (`sub` of the
 * place) if its identity text equals `ident`; *rejected where there is an
 * entry but it is not used (damaged, another kernel's, or not trusted). */
static bool load_entry(int dir, const place_t *pl, const char *sub, const char *file,
                       const gp_str_t *ident, gp_blob_t *out, bool *rejected)
{
    char *data = NULL;
    size_t size = 0;
    int found = read_entry(dir, pl, sub, file, &data, &size);
    *rejected = found < 0;
    if (found <= 0)
        return false;
    const void *img;
    size_t len;
    bool ok = gp_cache_entry_image(data, size, ident->data, ident->len, &img, &len);
    if (ok) {
        out->data = malloc(len ? len : 1);
        ok = out->data != NULL;
        if (ok) {
            memcpy(out->data, img, len);
            out->size = len;
        }
    }
    free(data);
    *rejected = !ok;
    return ok;
}

static void store_entry(int dir, const char *file, const gp_str_t *ident, const gp_blob_t *img)
{
    entry_header_t h;
    memcpy(h.magic, MAGIC, sizeof MAGIC);
    h.ident_len = ident->len;
    h.image_len = img->size;
    h.image_hash = gp_fnv1a(GP_FNV_SEED, img->data, img->size);
    const void *parts[3] = {&h, ident->data, img->data};
    size_t sizes[3] = {sizeof h, ident->len, img->size};
    write_atomic(dir, file, parts, sizes, 3);
}

/* An entry's name in its folder: a hash of its identity text. */
static void entry_name(const gp_str_t *ident, char file[24])
{
    snprintf(file, 24, "%016llx.gpk",
             (unsigned long long)gp_fnv1a(GP_FNV_SEED, ident->data, ident->len));
}

/* Which compiler made the entries of a folder: its identity, in the file
 * COMPILER_RECORD beside them. With no compiler at hand, kernels are looked
 * up under it, so a cache or pack still serves every kernel it holds. */
#define COMPILER_RECORD "compiler.id"

/* The identity recorded in the open folder `dir` (`sub` of the place), if
 * the place may trust the record. */
static bool recorded_compiler(int dir, const place_t *pl, const char *sub, char *cid, size_t n)
{
    char *data = NULL;
    size_t size = 0;
    bool ok = dir >= 0 && read_entry(dir, pl, sub, COMPILER_RECORD, &data, &size) > 0 &&
              size > 0 && size < n && !memchr(data, '\0', size);
    if (ok) {
        memcpy(cid, data, size);
        cid[size] = '\0';
    }
    free(data);
    return ok;
}

/* Records `cid` (len bytes) in the open folder `dir`, unless it is there. */
static void record_compiler(int dir, const char *cid, size_t len)
{
    char held[1024];
    int fd = openat(dir, COMPILER_RECORD, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    ssize_t got = fd >= 0 ? read(fd, held, sizeof held) : -1;
    if (fd >= 0)
        close(fd);
    if (got == (ssize_t)len && memcmp(held, cid, len) == 0)
        return;
    const void *parts[1] = {cid};
    size_t sizes[1] = {len};
    write_atomic(dir, COMPILER_RECORD, parts, sizes, 1);
}

static void log_source(const gp_str_t *body)
{
    if (gp_kernel_log_dir()[0] == '\0')
        return;
    char file[32];
    snprintf(file, sizeof file, "%016llx.cu",
             (unsigned long long)gp_fnv1a(GP_FNV_SEED, body->data, body->len));
    struct stat st;
    if (fstatat(log_fd, file, &st, AT_SYMLINK_NOFOLLOW) == 0)
        return;
    const void *parts[1] = {body->data};
    size_t sizes[1] = {body->len};
    write_atomic(log_fd, file, parts, sizes, 1);
}

/* ---- the in-memory table ----------------------------------------------------- */

/* A kernel one caller is building while others may wait for it. The lock
 * is never held across a compile: a kernel already loaded is found at
 * once whatever another thread is compiling, and a kernel several threads
 * ask for at once is compiled once. */
typedef struct {
    bool finished;
    gp_status_t status;
    gp_kernel_t *kernel;        /* once finished, where status is GP_OK */
    int users;                  /* its builder and waiters: the last one frees it */
    char msg[4096];             /* the builder's error (gp_errmsg holds 4096), for the waiters */
} pending_t;

typedef struct {
    uint64_t hash;
    size_t key_len;
    unsigned char *key;   /* NULL: empty slot */
    gp_kernel_t *kernel;  /* its own allocation: callers keep the pointer; NULL until built */
    pending_t *pending;   /* its build under way, or NULL */
} slot_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t built = PTHREAD_COND_INITIALIZER; /* a pending build finished */
static slot_t *slots;
static size_t nslots, nused;

/* Users' modules being compiled (user_module_get), under `lock`. */
typedef struct user_claim {
    const gp_str_t *ident;
    struct user_claim *next;
} user_claim_t;
static user_claim_t *claims;

static void release(pending_t *p)
{
    if (--p->users == 0)
        free(p);
}

/* A forked child has only the thread that forked: builds under way in the
 * parent's other threads will never finish there, so the child builds
 * those kernels itself. The lock is taken across fork, so the child finds
 * the table whole. */
static void fork_prepare(void) { pthread_mutex_lock(&lock); }
static void fork_parent(void) { pthread_mutex_unlock(&lock); }
static void fork_child(void)
{
    pthread_mutex_init(&lock, NULL);
    pthread_cond_init(&built, NULL);
    for (size_t i = 0; i < nslots; ++i)
        slots[i].pending = NULL; /* their builders are not here to free them */
    claims = NULL;
}

static void at_fork(void) { pthread_atfork(fork_prepare, fork_parent, fork_child); }

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
    gp_kernel_t **keep = nused ? realloc(forgotten, (nforgotten + nused) * sizeof *keep)
                               : forgotten;
    if (nused && !keep) {
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

/* The folder of a backend's entries on a target, in the cache and the
 * pack: "<backend>-<target>". */
static void entry_folder(const char *be_name, const char *target, char *sub, size_t n)
{
    snprintf(sub, n, "%s-%s", be_name, target);
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
    char sub[160]; /* its entries' folder in the cache and the pack */
    char file[24]; /* its disk cache entry's name; "" when the disk cache is off */
    gp_status_t no_compiler; /* not GP_OK: the compiler is missing, and why */
    char no_compiler_why[1024];
} kernel_text_t;

static void text_free(kernel_text_t *t)
{
    gp_str_free(&t->body);
    gp_str_free(&t->ident);
}

/* The compiler's identity, or where there is none (it did not run), the
 * identity recorded in the cache's folder `sub` (into `recorded`), with
 * why the compiler is missing kept in *status and `why`; NULL where
 * neither is. */
static const char *compiler_identity(const gp_backend_i *be, const char *sub, char *recorded,
                                     size_t n, gp_status_t *status, char *why, size_t why_size)
{
    *status = GP_OK;
    const char *cid = be->compiler_id();
    if (cid)
        return cid;
    *status = gp_errcode() ? gp_errcode() : GP_ERR_BACKEND;
    snprintf(why, why_size, "%s", gp_errmsg());
    gp_clear_error();
    int dir = gp_cache_dir()[0] ? open_sub(cache_fd, sub, false, &CACHE) : -1;
    bool ok = recorded_compiler(dir, &CACHE, sub, recorded, n);
    if (dir >= 0)
        close(dir);
    return ok ? recorded : NULL;
}

/* Records, once per process, that the compiler `cid` (len bytes) fills the
 * cache's folder `sub`. */
static void remember_compiler(const char *sub, const char *cid, size_t len)
{
    static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    static uint64_t done[8];
    static unsigned ndone;
    uint64_t h = gp_fnv1a(gp_fnv1a(GP_FNV_SEED, sub, strlen(sub) + 1), cid, len);
    pthread_mutex_lock(&m);
    bool known = false;
    for (unsigned k = 0; k < ndone && k < 8 && !known; ++k)
        known = done[k] == h;
    if (!known) {
        int dir = open_sub(cache_fd, sub, true, &CACHE);
        if (dir >= 0) {
            record_compiler(dir, cid, len);
            close(dir);
        }
        done[ndone++ % 8] = h;
    }
    pthread_mutex_unlock(&m);
}

static gp_status_t make_text(const gp_backend_i *be, gp_kernel_gen_fn gen, const void *ctx,
                             kernel_text_t *t)
{
    t->name[0] = t->sub[0] = t->file[0] = '\0';
    t->src_at = 0;
    gp_str_init(&t->body);
    gp_str_init(&t->ident);
    GP_TRY(gen(ctx, t->name, sizeof t->name, &t->body));
    if (t->body.failed)
        return gp_set_error(GP_ERR_NOMEM, "out of host memory generating kernel %s", t->name);
    const gp_device_props_t *props;
    GP_TRY(gp_backend_props(&props));
    entry_folder(be->name, props->target, t->sub, sizeof t->sub);
    char recorded[1024];
    const char *cid = compiler_identity(be, t->sub, recorded, sizeof recorded, &t->no_compiler,
                                        t->no_compiler_why, sizeof t->no_compiler_why);
    if (!cid)
        return GP_OK; /* no compiler, nothing in the cache: only the pack can serve it */
    kernel_ident(&t->ident, cid, be->prelude, t->body.data, t->body.len, &t->src_at);
    if (t->ident.failed)
        return gp_set_error(GP_ERR_NOMEM, "out of host memory generating kernel %s", t->name);
    if (gp_cache_dir()[0]) {
        entry_name(&t->ident, t->file);
        if (t->no_compiler == GP_OK)
            remember_compiler(t->sub, cid, strlen(cid));
    }
    return GP_OK;
}

static gp_status_t load(const gp_backend_i *be, const gp_blob_t *img, const char *name,
                        void **fn)
{
    void *module;
    GP_TRY(be->module_load(img, &module));
    return be->module_function(module, name, fn);
}

/* t's image from the disk cache; *rejected where an entry is there but is
 * not used. */
static bool find_kernel(const kernel_text_t *t, gp_blob_t *img, bool *rejected)
{
    *rejected = false;
    int dir = t->file[0] ? open_sub(cache_fd, t->sub, false, &CACHE) : -1;
    if (dir < 0)
        return false;
    bool ok = load_entry(dir, &CACHE, t->sub, t->file, &t->ident, img, rejected);
    close(dir);
    return ok;
}

static void store_kernel(const kernel_text_t *t, const gp_blob_t *img)
{
    int dir = t->file[0] ? open_sub(cache_fd, t->sub, true, &CACHE) : -1;
    if (dir >= 0) {
        store_entry(dir, t->file, &t->ident, img);
        close(dir);
    }
}

/* Removes t's disk cache entry, whose checks held but whose image did not
 * load (a compiler's faulty output; a driver older than the compiler):
 * kept, it would fail in every process. */
static void drop_kernel(const kernel_text_t *t)
{
    int dir = t->file[0] ? open_sub(cache_fd, t->sub, false, &CACHE) : -1;
    if (dir >= 0) {
        unlinkat(dir, t->file, 0);
        close(dir);
    }
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
        if (t->status == GP_OK)
            store_kernel(&t->text, &t->img);
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
    if (t->status == GP_OK && load(t->be, &t->img, t->text.name, &fn) == GP_OK) {
        atomic_store_explicit(&k->fn, fn, memory_order_release);
    } else {
        if (t->status == GP_OK)
            drop_kernel(&t->text); /* stored before it could be loaded */
        gp_clear_error();          /* the quick kernel stays: it computes the same */
    }
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
    bool ok = make_text(be, quick, ctx, &q) == GP_OK && q.no_compiler == GP_OK &&
              be->compile_quick(q.ident.data + q.src_at, &img) == GP_OK &&
              load(be, &img, q.name, &fn) == GP_OK;
    foreground_compile(false);
    count_compile_time(t0);
    if (ok) {
        count(&stats.compiles);
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
    gp_kernel_pack_dir(); /* opens the pack's folder, once */
    int dir = open_sub(pack_fd, t->sub, false, &PACK);
    if (dir < 0)
        return false;
    gp_str_t ident, whole;
    gp_str_init(&ident);
    gp_str_init(&whole);
    const gp_str_t *src = &t->ident;
    size_t src_at = t->src_at;
    char cid[1024];
    if (t->no_compiler != GP_OK) {
        /* the identity of the compiler that made the pack */
        if (!recorded_compiler(dir, &PACK, t->sub, cid, sizeof cid)) {
            close(dir);
            return false;
        }
        kernel_ident(&whole, cid, be->prelude, t->body.data, t->body.len, &src_at);
        src = &whole;
    }
    pack_ident(&ident, src, src_at, t->body.data, t->body.len);
    char file[24];
    entry_name(&ident, file);
    gp_blob_t img = {NULL, 0};
    bool rejected = false;
    bool ok = !ident.failed && !whole.failed &&
              load_entry(dir, &PACK, t->sub, file, &ident, &img, &rejected) &&
              load(be, &img, t->name, fn) == GP_OK;
    if (rejected)
        count(&stats.disk_rejects);
    if (!ok)
        gp_clear_error();
    close(dir);
    free(img.data);
    gp_str_free(&ident);
    gp_str_free(&whole);
    return ok;
}

/* Compiles (or fetches from disk or the pack) and loads the kernel, the
 * lock not held. */
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
    if (find_kernel(&t, &img, &rejected)) {
        if (load(be, &img, t.name, &fn) == GP_OK) {
            count(&stats.disk_hits);
            goto loaded;
        }
        gp_clear_error();
        drop_kernel(&t);
        rejected = true;
        free(img.data);
        img.data = NULL;
    }
    if (rejected)
        count(&stats.disk_rejects);
    if (load_packed(be, &t, &fn)) {
        count(&stats.pack_hits);
        goto loaded;
    }
    if (t.no_compiler != GP_OK) {
        s = gp_set_error(t.no_compiler, "%s", t.no_compiler_why);
        goto done;
    }
    if (quick && be->compile_quick && build_quick(be, &t, quick, ctx, out))
        goto done; /* the text is the twin's */
    double t0 = now_seconds();
    foreground_compile(true);
    s = be->compile(t.ident.data + t.src_at, &img);
    foreground_compile(false);
    count_compile_time(t0);
    if (s != GP_OK)
        goto done;
    count(&stats.compiles);
    /* stored once loaded: an image that does not load here would fail the
     * next process too */
    s = load(be, &img, t.name, &fn);
    if (s != GP_OK)
        goto done;
    store_kernel(&t, &img);
loaded:
    atomic_store_explicit(&out->fn, fn, memory_order_release);
    /* what built here must build on every backend: tools/check_kernels.py */
    log_source(&t.body);
done:
    free(img.data);
    if (!out->up)
        text_free(&t);
    return s;
}

/* Waits for another caller's build of the same kernel, `lock` held (and
 * released on return). */
static gp_status_t wait_for(pending_t *p, const gp_kernel_t **out)
{
    ++p->users;
    while (!p->finished)
        pthread_cond_wait(&built, &lock);
    gp_status_t s = p->status;
    if (s == GP_OK) {
        count(&stats.memory_hits);
        *out = p->kernel;
    } else {
        gp_set_error(s, "%s", p->msg);
    }
    release(p);
    pthread_mutex_unlock(&lock);
    return s;
}

static gp_status_t get_kernel(const gp_backend_i *be, const void *key, size_t key_len,
                              gp_kernel_gen_fn gen, gp_kernel_gen_fn quick, const void *ctx,
                              const gp_kernel_t **out)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, at_fork);
    uint64_t h = gp_fnv1a(GP_FNV_SEED, key, key_len);
    pthread_mutex_lock(&lock);
    if (2 * (nused + 1) > nslots && !grow()) {
        pthread_mutex_unlock(&lock);
        return gp_set_error(GP_ERR_NOMEM, "out of host memory for the kernel cache");
    }
    slot_t *slot = find_slot(slots, nslots, h, key, key_len);
    if (slot->kernel) {
        count(&stats.memory_hits);
        if (slot->kernel->up)
            take_twin(slot->kernel);
        *out = slot->kernel;
        pthread_mutex_unlock(&lock);
        return GP_OK;
    }
    if (slot->pending)
        return wait_for(slot->pending, out);
    /* a new kernel (or one whose last build failed): this caller builds it */
    gp_kernel_t *k = malloc(sizeof *k);
    pending_t *p = calloc(1, sizeof *p);
    unsigned char *kcopy = slot->key ? NULL : malloc(key_len);
    if (!k || !p || (!slot->key && !kcopy)) {
        free(k);
        free(p);
        free(kcopy);
        pthread_mutex_unlock(&lock);
        return gp_set_error(GP_ERR_NOMEM, "out of host memory for the kernel cache");
    }
    if (!slot->key) {
        memcpy(kcopy, key, key_len);
        slot->hash = h;
        slot->key_len = key_len;
        slot->key = kcopy;
        ++nused;
    }
    p->users = 1;
    slot->pending = p;
    pthread_mutex_unlock(&lock);

    gp_status_t s = build(be, gen, quick, ctx, k);

    pthread_mutex_lock(&lock);
    p->finished = true;
    p->status = s;
    if (s == GP_OK) {
        p->kernel = k;
        *out = k;
    } else {
        snprintf(p->msg, sizeof p->msg, "%s", gp_errmsg());
    }
    /* found again: the table may have grown or been forgotten meanwhile */
    slot = nslots ? find_slot(slots, nslots, h, key, key_len) : NULL;
    if (slot && slot->pending == p) {
        slot->pending = NULL;
        slot->kernel = s == GP_OK ? k : NULL;
    }
    if (s != GP_OK)
        free(k);
    pthread_cond_broadcast(&built);
    release(p);
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

/* Makes the module of `ident` this caller's to compile, once no other
 * caller is compiling it (a second caller then finds it on disk); other
 * modules and kernels go on meanwhile. */
static void claim_module(user_claim_t *claim, const gp_str_t *ident)
{
    pthread_mutex_lock(&lock);
    for (user_claim_t *c = claims; c;) {
        if (c->ident->len == ident->len && !memcmp(c->ident->data, ident->data, ident->len)) {
            pthread_cond_wait(&built, &lock);
            c = claims;
        } else {
            c = c->next;
        }
    }
    claim->ident = ident;
    claim->next = claims;
    claims = claim;
    pthread_mutex_unlock(&lock);
}

static void unclaim_module(user_claim_t *claim)
{
    pthread_mutex_lock(&lock);
    for (user_claim_t **c = &claims; *c; c = &(*c)->next)
        if (*c == claim) {
            *c = claim->next;
            break;
        }
    pthread_cond_broadcast(&built);
    pthread_mutex_unlock(&lock);
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
    kernel_text_t t = {.file = ""};
    const gp_device_props_t *props;
    GP_TRY(gp_backend_props(&props));
    entry_folder(be->name, props->target, t.sub, sizeof t.sub);
    char recorded[1024];
    const char *cid = compiler_identity(be, t.sub, recorded, sizeof recorded, &t.no_compiler,
                                        t.no_compiler_why, sizeof t.no_compiler_why);
    if (!cid)
        return gp_set_error(t.no_compiler, "%s", t.no_compiler_why);
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
    user_claim_t claim;
    claim_module(&claim, &ident);
    t.ident = ident;
    gp_status_t s = GP_OK;
    if (gp_cache_dir()[0]) {
        entry_name(&ident, t.file);
        if (t.no_compiler == GP_OK)
            remember_compiler(t.sub, cid, strlen(cid));
    }
    gp_blob_t packed = {NULL, 0}, image = {NULL, 0};
    bool rejected = false, from_disk = false;
    if (s == GP_OK && find_kernel(&t, &packed, &rejected)) {
        from_disk = unpack_names(&packed, nnames, lowered, &image) &&
                    be->module_load(&image, module) == GP_OK;
        if (from_disk) {
            count(&stats.disk_hits);
        } else {
            gp_clear_error();
            drop_kernel(&t);
            rejected = true;
            for (int32_t k = 0; k < nnames; ++k) {
                free(lowered[k]);
                lowered[k] = NULL;
            }
            free(packed.data);
            packed.data = NULL;
        }
    }
    if (rejected)
        count(&stats.disk_rejects);
    if (!from_disk && t.no_compiler != GP_OK)
        s = gp_set_error(t.no_compiler, "%s", t.no_compiler_why);
    if (s == GP_OK && !from_disk) {
        double t0 = now_seconds();
        s = be->compile_user(source, nopts, opts, nnames, names, &packed, lowered);
        count_compile_time(t0);
        if (s == GP_OK) {
            count(&stats.compiles);
            image = packed;
            if (!pack_names(&packed, nnames, lowered))
                s = gp_set_error(GP_ERR_NOMEM, "out of host memory");
            else
                unpack_names(&packed, nnames, NULL, &image); /* the image past the names */
        }
        if (s == GP_OK)
            s = be->module_load(&image, module);
        if (s == GP_OK)
            store_kernel(&t, &packed);
    }
    unclaim_module(&claim);
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
    char sub[160], file[24];
    entry_folder(be_name, target, sub, sizeof sub);
    entry_name(key, file);
    int root = -1, dir = -1;
    if (ident.failed || packed.failed)
        s = gp_set_error(GP_ERR_NOMEM, "out of host memory");
    else if (pack_dir)
        root = mkdirs(pack_dir) ? open(pack_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    else
        root = gp_cache_dir()[0] ? cache_fd : -1;
    if (s == GP_OK)
        dir = open_sub(root, sub, true, pack_dir ? NULL : &CACHE);
    if (s == GP_OK && dir < 0)
        s = pack_dir ? gp_set_error(GP_ERR_IO, "cannot make the folder of the kernel pack in "
                                               "'%s'", pack_dir)
                     : gp_set_error(GP_ERR_IO, "the disk cache is off: no GPUNP_CACHE_DIR, "
                                               "XDG_CACHE_HOME or HOME that is writable, and "
                                               "by you alone");
    gp_blob_t img = {NULL, 0};
    if (s == GP_OK)
        s = cuda ? gp_nvrtc_compile(ident.data + src_at, target, &img)
                 : gp_cc_compile(ident.data + src_at, &img);
    if (s == GP_OK) {
        store_entry(dir, file, key, &img);
        record_compiler(dir, cid, strlen(cid));
    }
    if (dir >= 0)
        close(dir);
    if (pack_dir && root >= 0)
        close(root);
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
