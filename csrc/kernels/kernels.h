/*
 * kernels.h - internal declarations of the kernel layer: the op table, the
 * kernel specifications, the code generator and the launchers.
 */
#ifndef GP_KERNELS_H
#define GP_KERNELS_H

#include <string.h>

#include "../array/array.h"
#include "../cache/cache.h"

/* ---- arithmetic on strides --------------------------------------------- */

/* A stride may be any int64 (as_strided gives an empty view, or an axis of
 * length one, any stride), so its magnitude saturates: INT64_MIN's is taken
 * as INT64_MAX. */
static inline int64_t gp_abs_stride(int64_t s)
{
    return s >= 0 ? s : s == INT64_MIN ? INT64_MAX : -s;
}

/* *span += (len - 1) * |stride|, saturating at INT64_MAX: the bytes an index
 * steps across along one axis. An axis of length 0 or 1 adds nothing. */
static inline void gp_span_add(int64_t *span, int64_t len, int64_t stride)
{
    int64_t step;
    if (len > 1 && (__builtin_mul_overflow(len - 1, gp_abs_stride(stride), &step) ||
                    __builtin_add_overflow(*span, step, span)))
        *span = INT64_MAX;
}

/* Whether an axis of `len` elements stepping by `inner` continues exactly
 * into one stepping by `outer`, so the two merge into one axis; an
 * overflowing product does not. */
static inline bool gp_strides_continue(int64_t outer, int64_t inner, int64_t len)
{
    int64_t next;
    return !__builtin_mul_overflow(inner, len, &next) && outer == next;
}

/* ---- the op table (optable.c) ----------------------------------------- */

/* Expression slots of a row, chosen by the kind of the loop's inputs; an
 * empty slot falls back to GP_EK_ANY (GP_EK_U first to GP_EK_I, GP_EK_H
 * and GP_EK_S first to GP_EK_F). */
enum gp_ek {
    GP_EK_ANY = 0,
    GP_EK_B,   /* bool */
    GP_EK_I,   /* signed integer */
    GP_EK_U,   /* unsigned integer */
    GP_EK_F,   /* real float (float16 computes as float32) */
    GP_EK_C,   /* complex */
    GP_EK_SU,  /* first input signed, second unsigned (int64 vs uint64) */
    GP_EK_US,  /* first input unsigned, second signed */
    GP_EK_H,   /* float16, where NumPy's half loop differs from its float loops */
    GP_EK_S,   /* float32, where a function's float loop computes in float */
    GP_EK_COUNT
};

/* How a ufunc picks its loop (NumPy's type resolvers). */
enum gp_resolver {
    GP_RES_DEFAULT = 0, /* first loop the inputs cast to safely */
    GP_RES_UNIFORM,     /* the loop of the inputs' result_type */
    GP_RES_TRUEDIV,     /* uniform, but integers divide as float64 */
    GP_RES_COMPARE,     /* uniform inputs, bool output, exact int64/uint64 */
    GP_RES_LOGICAL,     /* always the bool loop */
    GP_RES_EXACT,       /* SciPy's ufuncs: the loop of exactly the inputs' dtypes (Python
                         * scalars as their default dtypes), else the first the inputs
                         * cast to safely */
    GP_RES_SIZED        /* SciPy's ufuncs that SciPy 1.18 resolves as NumPy does its own
                         * (GP_RES_DEFAULT over its loops by size: float32 first) and
                         * 1.17 as GP_RES_EXACT: gp_set_scipy_version picks */
};

/* The start value of parallel reductions (not NumPy's identity, which is
 * what a user sees: maximum has none, but starts from the lowest value). */
enum gp_neutral {
    GP_NEUTRAL_NONE = 0, /* not reorderable: reduce in order from the first */
    GP_NEUTRAL_ZERO,
    GP_NEUTRAL_ONE,
    GP_NEUTRAL_LOWEST,
    GP_NEUTRAL_HIGHEST,
    GP_NEUTRAL_ALLONES,
    GP_NEUTRAL_NAN_LOWEST,  /* NaN for floats (fmax ignores it), else the lowest */
    GP_NEUTRAL_NAN_HIGHEST  /* NaN for floats (fmin ignores it), else the highest */
};

/* Value checks NumPy makes that need a look at the data. */
enum gp_op_check {
    GP_CHECK_NONE = 0,
    GP_CHECK_INT_POWER /* integers to negative integer powers raise */
};

/* inputs plus outputs of a row: scipy.special.ellipj, two in and four out, is the widest */
#define GP_MAX_LOOP_ARGS 6

/* One row: an elementwise operation. Expressions read the inputs x0, x1...
 * in the loop's compute types; with one output the expression is its
 * value, with several it is statements assigning y0, y1... F(name) names
 * the prelude's helper `gpk_name_<suffix>` for the loop's first input type;
 * `i` is the element's index. */
typedef struct gp_op {
    const char *name;
    int8_t nin;
    int8_t nout;
    int8_t resolver;  /* enum gp_resolver */
    int8_t identity;  /* enum gp_identity */
    int8_t neutral;   /* enum gp_neutral */
    int8_t check;     /* enum gp_op_check */
    const char *loops;/* NumPy's loop signatures: "bb->b ff->f ..." */
    const char *expr[GP_EK_COUNT];
    const char *bool_msg; /* TypeError when the inputs resolve to bool */
} gp_op_t;

/* The name an op's messages give it: a SciPy function's row is named
 * "scipy.special.gamma" (so it never meets NumPy's names), and SciPy's
 * messages name it "gamma". */
static inline const char *gp_op_shown(const gp_op_t *op)
{
    const char *dot = strrchr(op->name, '.');
    return dot ? dot + 1 : op->name;
}

extern const gp_op_t gp_ufuncs[];
/* gp_set_scipy_version's value */
extern int32_t gp_scipy_version;

/* The resolver `op` follows under the SciPy version set. */
static inline int gp_op_resolver(const gp_op_t *op)
{
    if (op->resolver != GP_RES_SIZED)
        return op->resolver;
    return gp_scipy_version >= 11800 ? GP_RES_DEFAULT : GP_RES_EXACT;
}
/* gp_set_numpy_version's value; the kernels see it as GPK_NUMPY_VERSION */
extern int32_t gp_numpy_version;
extern const int32_t gp_nufuncs;

/* Internal rows (not ufuncs): an identity for casts, copies and fills, and
 * arange's fill. */
extern const gp_op_t gp_op_copy;
extern const gp_op_t gp_op_arange;

/* The parsed loops of a row: n loops of nin+nout dtypes. */
typedef struct gp_loops {
    int32_t n;
    int8_t (*dt)[GP_MAX_LOOP_ARGS];
} gp_loops_t;

gp_status_t gp_op_loops(const gp_op_t *op, const gp_loops_t **out);

/* The id of a ufunc row by name, or -1. */
int32_t gp_ufunc_id(const char *name);

/* ---- kernel specifications (their bytes are the cache keys) ------------ */

enum { GP_FAMILY_EW = 1, GP_FAMILY_RED = 2, GP_FAMILY_SCAN = 3, GP_FAMILY_GEMM = 4,
       GP_FAMILY_RANDOM = 5,
       GP_FAMILY_GATHER = 6, GP_FAMILY_NONZERO = 7,
       GP_FAMILY_SEARCH = 8, GP_FAMILY_SORT = 9 /* sort.c */,
       GP_FAMILY_SOLVER = 10 /* solver.c */,
       GP_FAMILY_SPARSE = 11 /* csrc/scipy/sparse/sparse.c */ };
enum { GP_OPND_CONTIG = 0, GP_OPND_STRIDED = 1, GP_OPND_SCALAR = 2 };

/* Operands of an elementwise kernel: inputs, then outputs, then `where`. */
#define GP_EW_MAX (GP_MAX_LOOP_ARGS + 1)

typedef struct gp_ew_spec {
    uint8_t family;     /* GP_FAMILY_EW */
    uint8_t internal;   /* 0: gp_ufuncs[op]; 1: copy; 2: arange */
    uint16_t op;
    uint8_t nin, nout;
    uint8_t has_where;
    uint8_t ndim;       /* 0: contiguous 1-d path; else the strided loop's dims */
    uint8_t idx32;      /* 32-bit index arithmetic */
    uint8_t vec;        /* contiguous path: elements per vector access (1: none) */
    uint8_t tiled;      /* 2-d, input and output transposed: through 32x32 tiles */
    uint8_t unroll;     /* vector path: vector accesses per thread and iteration */
    uint8_t loop[GP_EW_MAX];  /* loop dtypes of inputs and outputs */
    uint8_t dt[GP_EW_MAX];    /* operand dtypes (arrays: storage) */
    uint8_t kind[GP_EW_MAX];  /* GP_OPND_* */
} gp_ew_spec_t;

/* LOGSUMEXP: logaddexp.reduce, log(sum(exp(x))), in one pass: its
 * accumulator is the running maximum m and sum(exp(x - m)) */
enum { GP_RED_UFUNC = 0, GP_RED_MEAN, GP_RED_ARGMAX, GP_RED_ARGMIN, GP_RED_LOGSUMEXP };
/* FINAL: elements to outputs; PARTIAL: elements to M x S partials; COMBINE:
 * partials to outputs; MERGE: partials to fewer partials (planned only
 * where a block is one thread: reduce.c's runs) */
enum { GP_STAGE_FINAL = 0, GP_STAGE_PARTIAL, GP_STAGE_COMBINE, GP_STAGE_MERGE };

typedef struct gp_red_spec {
    uint8_t family;     /* GP_FAMILY_RED */
    uint8_t kind;       /* GP_RED_* */
    uint16_t op;        /* ufunc row (GP_RED_UFUNC, GP_RED_MEAN) */
    uint8_t in_dt;      /* input storage dtype */
    uint8_t loop_dt;    /* dtype the accumulator computes in */
    uint8_t out_dt;     /* output storage dtype */
    uint8_t nkeep;      /* kept dims (0: one output) */
    uint8_t nred;       /* reduced dims (>= 1) */
    uint8_t block_per_out;
    uint8_t stage;      /* GP_STAGE_* */
    uint8_t has_initial;
    uint8_t idx32;
    uint8_t vec;        /* >1: 16-byte reads of `vec` elements; with block_per_out a
                           block reads its contiguous run so, else a thread
                           combines `vec` neighbouring outputs, one per lane */
    uint8_t by_part;    /* GP_STAGE_PARTIAL, MERGE: partials laid out part-major (part
                           s of output o at s * M + o), for a combining stage of
                           a thread per output; else output-major (o * S + s) */
} gp_red_spec_t;

/* Scans (accumulate) along one axis of M lines of K elements. In order (one
 * thread a line) for ufuncs that are not reorderable and for short lines;
 * otherwise in a single pass over tiles of GP_SCAN_THREADS threads by
 * gp_scan_items() elements (on the host one thread's), each tile's prefix
 * found by decoupled look-back over its predecessors' published states. */
enum { GP_SCAN_SEQUENTIAL = 0, GP_SCAN_TILES = 1, GP_SCAN_CUB = 2, GP_SCAN_CUB_INIT = 3 };
#define GP_SCAN_THREADS 128 /* a tile's threads on a GPU: GPK_SCAN_THREADS of gpu.h */
/* On CUDA, contiguous lines of a 4- or 8-byte real dtype go through CUB's
 * single-pass scan instead (GP_SCAN_CUB, after GP_SCAN_CUB_INIT has set up
 * each line's NT + GP_SCAN_CUB_PAD tile descriptors of 2 x itemsize bytes):
 * blocks of cub_warps warps, each thread cub_items * 4 / itemsize items
 * (gp_scan_cub_shape gives the threads and the nominal items). */
#define GP_SCAN_CUB_PAD 32
void gp_scan_cub_shape(int32_t loop_dt, int *threads, int *items);

typedef struct gp_scan_spec {
    uint8_t family;     /* GP_FAMILY_SCAN */
    uint8_t strategy;   /* GP_SCAN_* */
    uint16_t op;
    uint8_t in_dt, loop_dt, out_dt;
    uint8_t nother;     /* dims other than the scanned axis */
    uint8_t idx32;
    uint8_t vec;        /* >1: single-pass tiles of contiguous, 16-byte aligned
                           lines of the loop's dtype, moved as 16-byte vectors
                           of `vec` elements */
    uint8_t cub_warps;  /* GP_SCAN_CUB*: a block's warps */
    uint8_t cub_items;  /* GP_SCAN_CUB*: a thread's items, nominal for 4 bytes */
} gp_scan_spec_t;
int gp_scan_cub_tile(const gp_scan_spec_t *sp); /* a GP_SCAN_CUB tile's elements */

/* Batched matrix products C[b] = A[b] @ B[b] with any strides (the kernel
 * for dtypes without a vendor BLAS, and for the host). */
typedef struct gp_gemm_spec {
    uint8_t family;     /* GP_FAMILY_GEMM */
    uint8_t loop_dt;    /* dtype the products and sums compute in */
    uint8_t a_dt, b_dt, c_dt;
    uint8_t nbatch;     /* collapsed batch dims */
    uint8_t idx32;
    uint8_t pad;
} gp_gemm_spec_t;

/* A random fill (gp_random_fill): a thread per counter block, which makes
 * the block's `per_block` elements; with `vec` they are stored as one
 * vector when the block is whole. */
typedef struct gp_rand_spec {
    uint8_t family;     /* GP_FAMILY_RANDOM */
    uint8_t dist;       /* enum gp_random_dist */
    uint8_t out_dt;     /* output storage dtype */
    uint8_t wide;       /* BITS, INTEGERS: two words an element */
    uint8_t per_block;  /* elements a block: 4 or 2 */
    uint8_t vec;        /* the output is aligned to per_block elements */
    uint8_t pad[2];
} gp_rand_spec_t;

/* Advanced indexing (index.c): k index arrays, broadcast to a shape B of nb
 * dims, pick elements of the first k dims of the indexed array; its nr
 * remaining dims follow. The iteration space is B + remaining dims. A
 * gather copies into an output over that space, a scatter stores (casting)
 * values broadcast over it, or adds them (atomically on a GPU). Each index is loaded in its own dtype, taken as
 * an int64, and wrapped, clipped or checked (an out-of-bounds one claims
 * the device's error record and moves nothing). */
typedef struct gp_gather_spec {
    uint8_t family;     /* GP_FAMILY_GATHER */
    uint8_t scatter;    /* 0: out[i] = a[idx]; 1: a[idx] = values[i]; 2: a[idx] += values[i] */
    uint8_t mode;       /* GP_TAKE_RAISE, _WRAP, _CLIP */
    uint8_t nidx;       /* k */
    uint8_t nb, nr;
    uint8_t check_only; /* checks the indices, moves nothing (nr is 0) */
    uint8_t idx32;
    uint8_t dt;         /* the indexed array's dtype */
    uint8_t val_dt;     /* a scatter's values' dtype */
    uint8_t idx_dt[GP_MAXDIM];
} gp_gather_spec_t;

/* nonzero and a[mask], over a C-contiguous bool array cut in tiles of
 * GP_NONZERO_TILE elements: GP_NZ_COUNT counts each tile's true elements;
 * after an inclusive scan of those counts, GP_NZ_COORDS writes the
 * coordinates (`ndim` dims) of each true element at its rank, and
 * GP_NZ_VALUES the element of dtype `dt` of a C-contiguous array of the
 * mask's size at its rank. */
enum { GP_NZ_COUNT = 0, GP_NZ_COORDS = 1, GP_NZ_VALUES = 2 };
#define GP_NONZERO_TILE 4096
typedef struct gp_nonzero_spec {
    uint8_t family;     /* GP_FAMILY_NONZERO */
    uint8_t stage;      /* GP_NZ_* */
    uint8_t ndim;       /* GP_NZ_COORDS */
    uint8_t dt;         /* GP_NZ_VALUES */
    uint8_t idx32;      /* GP_NZ_COORDS: coordinates in 32-bit arithmetic */
} gp_nonzero_spec_t;

/* A user kernel written as expressions (gp_user.h), with its iteration
 * dimensions. Its cache key is its generated source. */
typedef struct gp_user_desc {
    const char *name;
    const char *operation;   /* elementwise: statements; reduction: map expr */
    const char *reduce_expr; /* reduction: combines a and b */
    const char *post_map;    /* reduction: statements reading a */
    const char *identity;    /* reduction: the start value */
    const char *preamble;
    const char *loop_prep;  /* elementwise: statements before the loop */
    const char *after_loop; /* elementwise: statements after it */
    int32_t ntypes;
    const char *const *type_names;
    const int32_t *type_dtypes;
    int32_t nparams;
    const gp_user_param_t *params;
    const int32_t *dtypes;   /* the operands' dtypes (storage) per param */
    int32_t reduce_dtype;
    int32_t ndim;            /* elementwise: iteration dims; reduction: kept dims */
    int32_t nred;            /* reduction: reduced dims */
    int32_t block_per_out;
    int32_t idx32;
} gp_user_desc_t;

/* The kernel of a user kernel: its source from `gen`, which is its key. */
gp_status_t gp_user_kernel(const gp_user_desc_t *d, gp_kernel_gen_fn gen, const gp_kernel_t **k);

/* ---- code generation (codegen.c) --------------------------------------- */

/* Each names its kernel after its spec ("gpk_add_f32_f32_f32_c4") and
 * writes the source (gp_kernel_gen_fn). */
gp_status_t gp_gen_ew(const void *spec, char *name, size_t name_size, gp_str_t *body);
gp_status_t gp_gen_red(const void *spec, char *name, size_t name_size, gp_str_t *body);
gp_status_t gp_gen_scan(const void *spec, char *name, size_t name_size, gp_str_t *body);
gp_status_t gp_gen_gemm(const void *spec, char *name, size_t name_size, gp_str_t *body);
gp_status_t gp_gen_random(const void *spec, char *name, size_t name_size, gp_str_t *body);

gp_status_t gp_gen_gather(const void *spec, char *name, size_t name_size, gp_str_t *body);
gp_status_t gp_gen_nonzero(const void *spec, char *name, size_t name_size, gp_str_t *body);
gp_status_t gp_gen_user_ew(const void *desc, char *name, size_t name_size, gp_str_t *body);
gp_status_t gp_gen_user_red(const void *desc, char *name, size_t name_size, gp_str_t *body);
gp_status_t gp_gen_fused_step(const gp_op_t *op, const int32_t *loop, const int32_t *in_dt,
                              const char *const *in, const int32_t *out_dt,
                              const char *const *out, gp_str_t *s);

/* The row an elementwise spec refers to. */
const gp_op_t *gp_ew_op(const gp_ew_spec_t *spec);

/* Bytes of the compute type of dtype `dt` in a kernel parameter struct, and
 * its alignment. */
int32_t gp_compute_size(int32_t dt);
int32_t gp_compute_align(int32_t dt);

/* Elements a thread scans in a tile of a single-pass scan computing in
 * `loop_dt` (fewer for wide types, so a tile fits shared memory). */
int gp_scan_items(int32_t loop_dt);

/* ---- parameter packing (launch.c) -------------------------------------- */

/* Builds a kernel's parameter struct as C lays it out (natural alignment). */
typedef struct gp_params {
    unsigned char data[4096];
    size_t size;
    size_t align;
    bool overflow;
} gp_params_t;

void gp_params_init(gp_params_t *p);
void gp_params_put(gp_params_t *p, const void *v, size_t size, size_t align);
void gp_params_index(gp_params_t *p, int64_t v);
void gp_params_ptr(gp_params_t *p, const void *ptr);
/* The final size, padded to the struct's alignment. */
size_t gp_params_size(gp_params_t *p);

/* Launches `k` with geometry `cfg` on the current stream. */
gp_status_t gp_launch(const gp_kernel_t *k, const gp_launch_t *cfg, gp_params_t *params);

/* A grid for `n` items of work on the current device: `block` threads each. */
gp_launch_t gp_grid_for(int64_t n, uint32_t block);

/* The most items a kernel may count with int indices: a grid-stride loop's
 * index steps past n by up to a grid's threads before it stops, and that
 * must not overflow an int (gp_grid_for's grids have at most as many
 * threads as this). */
#define GP_IDX32_ITEMS ((int64_t)1 << 30)

/* ---- tuning knobs (tune.c) ------------------------------------------------ */

/* Launch shapes the benchmarks tune (bench/tune.py): GPUNP_TUNE_UNROLL,
 * vector accesses per thread per iteration; GPUNP_TUNE_WAVES, resident grids
 * per launch at most for every grid-stride kernel but the elementwise
 * runner's (random numbers lost 15% with 128: docs/performance.md);
 * GPUNP_TUNE_EW_WAVES, the same for the elementwise runner, whose streams
 * of one read and one write reach more of the DRAM with more blocks in
 * flight (128: exp 4.04 -> 4.20 TB/s on the H200); GPUNP_TUNE_RED_SPLIT, how many
 * times more blocks a long reduction is split over than fill the device;
 * GPUNP_TUNE_SCAN_VEC=0, single-pass scans of contiguous lines without
 * 16-byte vectors (the path before them, for bench/tune.py scan);
 * GPUNP_TUNE_SCAN_CUB=0, CUDA's contiguous scans by the engine's own tiles
 * rather than CUB's agent; GPUNP_TUNE_SCAN_CUB_THREADS and _ITEMS, that
 * agent's block and nominal items a thread (0: gp_scan_cub_shape's);
 * GPUNP_TUNE_COPY_KERNEL=0, copies between equal dense layouts by the
 * driver's device-to-device copy rather than the elementwise copy kernel
 * (the two move the same bytes per second on the H200 and H100, but the
 * driver's call costs the host 1.5 to 2.6 times the kernel's launch:
 * docs/performance.md; bench/tune.py copy measures the two);
 * GPUNP_TUNE_SPMV_VENDOR=1, CSR SpMV of float and complex data by the
 * sparse library (cuSPARSE, after a pass that checks the indices) rather
 * than the engine's vector kernel, which checks them as it reads
 * (bench's sparse SpMV row measures either). */
typedef struct gp_tuning {
    int unroll;
    int waves;
    int ew_waves;
    int red_split;
    int scan_vec;
    int scan_cub;
    int scan_cub_threads;
    int scan_cub_items;
    int copy_kernel;
    int spmv_vendor;
} gp_tuning_t;

/* The knobs, read from the environment on first use. */
const gp_tuning_t *gp_tuning(void);

/* ---- operations used across the layer ---------------------------------- */

/* Runs an elementwise op row over operands (see gp_ufunc_call), with the
 * loop already chosen. Outputs must be allocated, of the broadcast shape. */
gp_status_t gp_ew_run(const gp_op_t *op, int internal, int32_t op_index, const int8_t *loop,
                      const gp_operand_t *in, gp_array_t *const *out, const gp_array_t *where);

/* Copies (casting) src into dst of the same shape (after broadcasting src). */
gp_status_t gp_copy_into(gp_array_t *dst, const gp_array_t *src);

/* A new contiguous (C or F) copy, possibly cast. */
gp_status_t gp_copy_new(const gp_array_t *a, int32_t dtype, int32_t order, gp_array_t **out);

/* gp_solver_run on the solver slots of `be` (the engine's C test of its
 * getrs gives it a backend whose trsm solves on the host). */
gp_status_t gp_solver_run_on(const gp_backend_i *be, int32_t routine, int32_t flags,
                             int32_t nargs, gp_array_t *const *args);

/* gp_fft on the FFT slots of `be` (the engine's C test gives it a backend
 * whose slots compute from the layout on the host). */
gp_status_t gp_fft_on(const gp_backend_i *be, int32_t kind, const gp_array_t *in,
                      int32_t naxes, const int32_t *axes, int64_t n_last, gp_array_t **out);

#endif /* GP_KERNELS_H */
