/*
 * sort.c - sorting and searching (gp_sort.h): binary search in generated
 * kernels (a thread per searched value), and stable radix sorts driven
 * from here: onesweep (CUB's agent) for one row of 4- and 8-byte integers
 * and floats, LSD passes for the rest (see docs/architecture.md, "Sorting").
 *
 * NumPy's order is the one every kernel follows: NaNs last and equal to
 * each other, -0.0 equal to 0.0, complex numbers in the four NaN classes
 * [R + Rj, R + nanj, nan + Rj, nan + nanj], lexicographic within a class.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

/* ---- the order, in generated code ------------------------------------------------------- */

/* Types and loads of a kernel over elements of dtype `dt`: gpk_st is the
 * storage type, gpk_ct the type values compare in (float16, bfloat16 as float32),
 * GPK_VAL(x) a stored element's value, and gpk_lt(a, b) NumPy's "a sorts
 * before b". */
static void emit_order(gp_str_t *s, int32_t dt)
{
    int32_t kind = gp_dtype_kind(dt);
    gp_str_printf(s, "typedef %s gpk_st;\ntypedef %s gpk_ct;\n", gp_dtypes[dt].storage,
                  gp_dtypes[gp_dtypes[dt].compute].storage);
    if (gp_dtypes[dt].compute != dt)
        gp_str_printf(s, "#define GPK_VAL(x) gpk_%s_to_f32(x)\n", gp_dtypes[dt].suffix);
    else
        gp_str_puts(s, "#define GPK_VAL(x) (x)\n");
    if (kind == GP_KIND_COMPLEX) {
        /* npy_sort's CLT: the classes first, then real, then imaginary part */
        gp_str_puts(s, "GPK_FN int gpk_lt(gpk_ct a, gpk_ct b)\n{\n"
                       "  if (a.re < b.re) return a.im == a.im || b.im != b.im;\n"
                       "  if (a.re > b.re) return b.im != b.im && a.im == a.im;\n"
                       "  if (a.re == b.re || (a.re != a.re && b.re != b.re))\n"
                       "    return a.im < b.im || (b.im != b.im && a.im == a.im);\n"
                       "  return b.re != b.re;\n}\n");
    } else if (kind == GP_KIND_FLOAT) {
        gp_str_puts(s, "GPK_FN int gpk_lt(gpk_ct a, gpk_ct b) "
                       "{ return a < b || (b != b && a == a); }\n");
    } else {
        gp_str_puts(s, "GPK_FN int gpk_lt(gpk_ct a, gpk_ct b) { return a < b; }\n");
    }
}

/* ---- searchsorted ----------------------------------------------------------------------- */

typedef struct gp_search_spec {
    uint8_t family;     /* GP_FAMILY_SEARCH */
    uint8_t dt;
    uint8_t side;       /* enum gp_search_side */
    uint8_t sorter;     /* a[sorter[i]] is the i-th element */
} gp_search_spec_t;

/* A thread per value of `v` (C-contiguous) finds its place in `a` (any
 * stride, bytes) by bisection, as NumPy's binsearch. */
static gp_status_t gen_search(const void *vspec, char *name, size_t name_size, gp_str_t *s)
{
    const gp_search_spec_t *sp = vspec;
    snprintf(name, name_size, "gpk_searchsorted_%s_%s%s", gp_dtypes[sp->dt].suffix,
             sp->side == GP_SEARCH_LEFT ? "left" : "right", sp->sorter ? "_sorter" : "");
    gp_str_printf(s, "/* searchsorted */\ntypedef long long gpk_idx;\n");
    emit_order(s, sp->dt);
    gp_str_puts(s, "struct gpk_params {\n  gpk_index n, m, as, ss;\n  const char *a;\n"
                   "  const char *sorter;\n  const gpk_st *v;\n  long long *out;\n"
                   "  long long *rec;\n};\n");
    gp_str_printf(s, "GPK_KERNEL(%s, struct gpk_params)\n{\n", name);
    gp_str_puts(s, "GPK_GRID_LOOP(gpk_idx, i, p.m) {\n"
                   "  const gpk_ct x = GPK_VAL(p.v[i]);\n"
                   "  gpk_idx lo = 0, hi = p.n;\n"
                   "  while (lo < hi) {\n"
                   "    const gpk_idx mid = lo + ((hi - lo) >> 1);\n");
    /* a sorter's value outside [0, n) is reported, and never read through */
    if (sp->sorter)
        gp_str_puts(s, "    gpk_idx j = *(const long long *)(p.sorter + mid * p.ss);\n"
                       "    if (j < 0 || j >= p.n) {\n"
                       "      gpk_index_error(p.rec, j, 0, p.n);\n"
                       "      j = mid;\n"
                       "    }\n");
    else
        gp_str_puts(s, "    const gpk_idx j = mid;\n");
    gp_str_puts(s, "    const gpk_ct y = GPK_VAL(*(const gpk_st *)(p.a + j * p.as));\n");
    gp_str_printf(s, "    if (%s) lo = mid + 1; else hi = mid;\n  }\n  p.out[i] = lo;\n}\n}\n",
                  sp->side == GP_SEARCH_LEFT ? "gpk_lt(y, x)" : "!gpk_lt(x, y)");
    return GP_OK;
}

GP_API gp_status_t gp_array_searchsorted(const gp_array_t *a, const gp_array_t *v, int32_t side,
                                         const gp_array_t *sorter, gp_array_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_searchsorted: out is NULL");
    *out = NULL;
    GP_CHECK_ARRAY(a);
    GP_CHECK_ARRAY(v);
    if (a->ndim != 1)
        return gp_set_error(GP_ERR_VALUE, "object %s for desired array",
                            a->ndim ? "too deep" : "of too small depth");
    if (side != GP_SEARCH_LEFT && side != GP_SEARCH_RIGHT)
        return gp_set_error(GP_ERR_VALUE, "search side must be 'left' or 'right'");
    if (a->dtype != v->dtype)
        return gp_set_error(GP_ERR_TYPE, "searchsorted: a and v must have one dtype");
    if (sorter) {
        GP_CHECK_ARRAY(sorter);
        if (sorter->ndim != 1 || sorter->dtype != GP_INT64)
            return gp_set_error(GP_ERR_TYPE, "searchsorted: sorter must be a 1-d int64 array");
        if (sorter->shape[0] != a->shape[0])
            return gp_set_error(GP_ERR_VALUE, "sorter.size must equal a.size");
    }
    gp_array_t *vc = NULL;
    if (v->flags & GP_FLAG_C_CONTIGUOUS) {
        gp_array_retain((gp_array_t *)v);
        vc = (gp_array_t *)v;
    } else {
        GP_TRY(gp_copy_new(v, v->dtype, GP_ORDER_C, &vc));
    }
    gp_status_t s = gp_array_empty(GP_INT64, v->ndim, v->shape, GP_ORDER_C, out);
    if (s == GP_OK && v->size > 0) {
        gp_search_spec_t sp = {GP_FAMILY_SEARCH, (uint8_t)a->dtype, (uint8_t)side,
                               sorter != NULL};
        const gp_kernel_t *k;
        void *rec = NULL;
        s = gp_kernel_get(&sp, sizeof sp, gen_search, &sp, &k);
        if (s == GP_OK && sorter)
            s = gp_errrec_get(&rec);
        if (s == GP_OK) {
            gp_params_t p;
            gp_params_init(&p);
            gp_params_index(&p, a->shape[0]);
            gp_params_index(&p, v->size);
            gp_params_index(&p, a->strides[0]);
            gp_params_index(&p, sorter ? sorter->strides[0] : 0);
            gp_params_ptr(&p, gp_array_data(a));
            gp_params_ptr(&p, sorter ? gp_array_data(sorter) : NULL);
            gp_params_ptr(&p, gp_array_data(vc));
            gp_params_ptr(&p, gp_array_data(*out));
            gp_params_ptr(&p, rec);
            gp_launch_t cfg = gp_grid_for(v->size, 256);
            s = gp_launch(k, &cfg, &p);
            if (s == GP_OK && sorter)
                s = gp_errrec_launched();
        }
    }
    gp_array_release(vc);
    if (s != GP_OK) {
        gp_array_release(*out);
        *out = NULL;
    }
    return s;
}

/* ---- stable radix sorts ------------------------------------------------------------------
 *
 * An LSD radix sort of 8-bit digits. Each element's order is a sequence of
 * unsigned key words, least significant first, each sorted by stable
 * passes of its digits: a real dtype's value (the bits mapped so that they
 * order as NumPy does), a complex dtype's imaginary part, real part and NaN
 * class, and for sorts along an axis of several rows, the row number last
 * (most significant). A pass is three launches: a histogram of the digit
 * per tile (counts laid out digit-major, counts[d * ntiles + t]), an
 * inclusive scan of those counts (the accumulate machinery), and a scatter
 * that moves each tile's elements to the start of their digit's run for the
 * tile plus their stable rank in the tile. On CUDA a tile is 256 threads'
 * items ranked by CUB's BlockRadixSort and written in striped order (so
 * neighbouring threads write neighbouring slots of a digit's run); on the
 * host the whole array is one tile, scattered in order by one thread. Both
 * are stable, so they give the one stable answer.
 *
 * The payload moved with the keys is the element itself where one key word
 * of the whole array decides (a float dtype, one row), else the element's
 * index, through which later words read their keys and the result is
 * gathered at the end. Integers and bools of one row, and floats of one row
 * without NaNs and -0.0, move no payload: their keys map back to the values
 * (SORT_DECODE). */

enum { SORT_KEYS = 0, SORT_HIST = 1, SORT_SCATTER = 2, SORT_FINISH = 3, SORT_DECODE = 4,
       SORT_OS_HIST = 5, SORT_OS_SCAN = 6, SORT_OS_PASS = 7 };
enum { WORD_VALUE = 0, WORD_IMAG = 1, WORD_REAL = 2, WORD_CLASS = 3, WORD_ROW = 4 };

#define SORT_THREADS 256

typedef struct gp_sort_spec {
    uint8_t family;      /* GP_FAMILY_SORT */
    uint8_t step;        /* SORT_* */
    uint8_t dt;          /* the elements' dtype */
    uint8_t word;        /* SORT_KEYS: WORD_* */
    uint8_t key_bytes;   /* 1, 2, 4, 8 */
    uint8_t pay_bytes;   /* 0: none; else the payload's bytes */
    uint8_t gather;      /* SORT_KEYS: the element at idx[i], not at i */
    uint8_t count_bytes; /* 4 or 8 */
    uint8_t items;       /* a GPU thread's keys in a tile */
    uint8_t indices;     /* SORT_FINISH: idx % L (argsort), not the elements */
    uint8_t detect;      /* SORT_KEYS of floats: sets *flag where a NaN or -0.0 is */
    uint8_t pad;
} gp_sort_spec_t;

static const char *uint_type(int bytes)
{
    return bytes == 1 ? "gpk_u8" : bytes == 2 ? "gpk_u16" : bytes == 4 ? "gpk_u32" : "gpk_u64";
}

/* Statements setting `k` (gpk_kt) from the bits `u` (gpk_kt) of a float:
 * sign-magnitude to an unsigned order, every NaN to the largest key, -0.0
 * to +0.0's key (so the stable order of zeros is kept). With `detect`, a
 * NaN or a -0.0 sets *p.flag: without them the keys map back to the
 * values. */
static void emit_float_key(gp_str_t *s, int32_t dt, const char *u, bool detect)
{
    const char *mark = detect ? " *p.flag = 1;" : "";
    int bytes = gp_dtype_size(dt);
    const char *inf = dt == GP_FLOAT16 ? "0x7c00u" : dt == GP_BFLOAT16 ? "0x7f80u"
                      : bytes == 4 ? "0x7f800000u" : "0x7ff0000000000000ull";
    gp_str_printf(s, "  { const gpk_kt sign_ = (gpk_kt)((gpk_kt)1 << %d);\n"
                     "    gpk_kt u_ = %s;\n"
                     "    if ((gpk_kt)(u_ & (gpk_kt)~sign_) > (gpk_kt)%s) {"
                     " k = (gpk_kt)~(gpk_kt)0;%s }\n"
                     "    else { if (u_ == sign_) { u_ = 0;%s }\n"
                     "      k = (u_ & sign_) ? (gpk_kt)~u_ : (gpk_kt)(u_ | sign_); } }\n",
                  bytes * 8 - 1, u, inf, mark, mark);
}

static void emit_keys(gp_str_t *s, const gp_sort_spec_t *sp, const char *name)
{
    int32_t dt = sp->dt, kind = gp_dtype_kind(dt);
    gp_str_puts(s, "struct gpk_params {\n  gpk_index n, L;\n  const gpk_st *w;\n"
                   "  const long long *idx;\n  gpk_kt *keys;\n  int *flag;\n};\n");
    gp_str_printf(s, "GPK_KERNEL(%s, struct gpk_params)\n{\nGPK_GRID_LOOP(gpk_idx, i, p.n) {\n",
                  name);
    gp_str_printf(s, "  const gpk_idx src = %s;\n  gpk_kt k;\n", sp->gather ? "p.idx[i]" : "i");
    int part = kind == GP_KIND_COMPLEX ? gp_dtype_size(dt) / 2 : gp_dtype_size(dt);
    if (sp->word == WORD_ROW) {
        gp_str_puts(s, "  k = (gpk_kt)(src / p.L);\n");
    } else if (sp->word == WORD_CLASS) {
        gp_str_puts(s, "  const gpk_st x = p.w[src];\n"
                       "  k = (gpk_kt)((x.re != x.re) * 2 + (x.im != x.im));\n");
    } else if (sp->word == WORD_REAL || sp->word == WORD_IMAG) {
        gp_str_printf(s, "  union { %s f; gpk_kt u; } b_;\n  b_.f = p.w[src].%s;\n",
                      part == 4 ? "gpk_f32" : "gpk_f64", sp->word == WORD_REAL ? "re" : "im");
        emit_float_key(s, part == 4 ? GP_FLOAT32 : GP_FLOAT64, "b_.u", false);
    } else if (kind == GP_KIND_FLOAT && gp_dtypes[dt].compute != dt) {
        /* a 16-bit float's storage is its bits */
        emit_float_key(s, dt, "(gpk_kt)p.w[src]", sp->detect);
    } else if (kind == GP_KIND_FLOAT) {
        gp_str_printf(s, "  union { gpk_st f; gpk_kt u; } b_;\n  b_.f = p.w[src];\n");
        emit_float_key(s, dt, "b_.u", sp->detect);
    } else if (kind == GP_KIND_INT) {
        gp_str_printf(s, "  k = (gpk_kt)((gpk_kt)p.w[src] ^ (gpk_kt)((gpk_kt)1 << %d));\n",
                      part * 8 - 1);
    } else if (kind == GP_KIND_BOOL) {
        gp_str_puts(s, "  k = (gpk_kt)(p.w[src] != 0);\n");
    } else {
        gp_str_puts(s, "  k = (gpk_kt)p.w[src];\n");
    }
    gp_str_puts(s, "  p.keys[i] = k;\n}\n}\n");
}

static void emit_hist(gp_str_t *s, const char *name)
{
    gp_str_puts(s, "struct gpk_params {\n  gpk_index n, tile, ntiles;\n  int shift;\n"
                   "  const gpk_kt *keys;\n  gpk_ct *counts;\n};\n");
    gp_str_printf(s, "GPK_KERNEL(%s, struct gpk_params)\n{\n", name);
    gp_str_puts(s, "#ifdef GPK_HOST\n"
                   "for (gpk_idx t = 0; t < p.ntiles; ++t) {\n"
                   "  gpk_ct h[256] = {0};\n"
                   "  const gpk_idx hi = (t + 1) * p.tile < p.n ? (t + 1) * p.tile : p.n;\n"
                   "  for (gpk_idx i = t * p.tile; i < hi; ++i) ++h[(p.keys[i] >> p.shift) & 255];\n"
                   "  for (int d = 0; d < 256; ++d) p.counts[d * p.ntiles + t] = h[d];\n"
                   "}\n"
                   "#else\n"
                   "__shared__ unsigned int h[256];\n"
                   "for (gpk_idx t = GPK_BLOCK_ID; t < p.ntiles; t += GPK_NUM_BLOCKS) {\n"
                   "  for (int d = (int)GPK_THREAD_ID; d < 256; d += (int)GPK_BLOCK_SIZE) h[d] = 0;\n"
                   "  GPK_SYNC();\n"
                   "  const gpk_idx hi = (t + 1) * p.tile < p.n ? (t + 1) * p.tile : p.n;\n"
                   "  for (gpk_idx i = t * p.tile + GPK_THREAD_ID; i < hi; i += GPK_BLOCK_SIZE)\n"
                   "    atomicAdd(&h[(p.keys[i] >> p.shift) & 255], 1u);\n"
                   "  GPK_SYNC();\n"
                   "  for (int d = (int)GPK_THREAD_ID; d < 256; d += (int)GPK_BLOCK_SIZE)\n"
                   "    p.counts[d * p.ntiles + t] = (gpk_ct)h[d];\n"
                   "  GPK_SYNC();\n"
                   "}\n"
                   "#endif\n}\n");
}

static void emit_scatter(gp_str_t *s, const gp_sort_spec_t *sp, const char *name)
{
    bool pay = sp->pay_bytes != 0;
    gp_str_puts(s, "struct gpk_params {\n  gpk_index n, tile, ntiles;\n  int shift;\n"
                   "  const gpk_kt *keys;\n  const gpk_pt *pay;\n  gpk_kt *keys_out;\n"
                   "  gpk_pt *pay_out;\n  const gpk_ct *counts;\n  const gpk_ct *incl;\n};\n");
    gp_str_printf(s, "GPK_KERNEL(%s, struct gpk_params)\n{\n", name);
    /* the host: one tile, in order */
    gp_str_printf(s, "#ifdef GPK_HOST\n"
                     "for (gpk_idx t = 0; t < p.ntiles; ++t) {\n"
                     "  gpk_ct off[256];\n"
                     "  for (int d = 0; d < 256; ++d)\n"
                     "    off[d] = p.incl[d * p.ntiles + t] - p.counts[d * p.ntiles + t];\n"
                     "  const gpk_idx hi = (t + 1) * p.tile < p.n ? (t + 1) * p.tile : p.n;\n"
                     "  for (gpk_idx i = t * p.tile; i < hi; ++i) {\n"
                     "    const gpk_ct j = off[(p.keys[i] >> p.shift) & 255]++;\n"
                     "    p.keys_out[j] = p.keys[i];\n%s"
                     "  }\n}\n",
                  pay ? "    p.pay_out[j] = p.pay[i];\n" : "");
    /* CUDA: a tile per block, ranked by CUB */
    gp_str_printf(s, "#elif defined(GPK_CUDA)\n"
                     "typedef cub::BlockRadixSort<gpk_kt, %d, %d, %s> gpk_sort_t;\n"
                     "typedef cub::BlockScan<unsigned int, %d> gpk_scan_t;\n"
                     "__shared__ union { typename gpk_sort_t::TempStorage sort;\n"
                     "  typename gpk_scan_t::TempStorage scan; } tmp;\n"
                     "__shared__ gpk_ct base[256];\n"
                     "const gpk_idx t = GPK_BLOCK_ID;\n"
                     "const gpk_idx lo = t * p.tile;\n"
                     "const int valid = (int)(p.n - lo < p.tile ? p.n - lo : p.tile);\n"
                     "{\n"
                     "  const int d = (int)GPK_THREAD_ID;\n"
                     "  const gpk_ct c = p.counts[d * p.ntiles + t];\n"
                     "  unsigned int ex;\n"
                     "  gpk_scan_t(tmp.scan).ExclusiveSum((unsigned int)c, ex);\n"
                     "  base[d] = p.incl[d * p.ntiles + t] - c - (gpk_ct)ex;\n"
                     "}\n"
                     "GPK_SYNC();\n"
                     "gpk_kt k[%d];\n",
                  SORT_THREADS, sp->items, pay ? "gpk_pt" : "cub::NullType", SORT_THREADS,
                  sp->items);
    /* a whole tile in vectors where aligned (the keys always are: the
     * pool's; the first pass' payload is the caller's elements) */
    gp_str_puts(s, "const bool whole = valid == (int)p.tile;\n"
                   "if (whole) cub::LoadDirectBlockedVectorized((int)GPK_THREAD_ID, "
                   "(gpk_kt *)(p.keys + lo), k);\n"
                   "else cub::LoadDirectBlocked((int)GPK_THREAD_ID, p.keys + lo, k, valid, "
                   "(gpk_kt)~(gpk_kt)0);\n");
    if (pay)
        gp_str_printf(s, "gpk_pt v[%d];\n"
                         "if (whole && (unsigned long long)(p.pay + lo) %% 16 == 0)\n"
                         "  cub::LoadDirectBlockedVectorized((int)GPK_THREAD_ID, "
                         "(gpk_pt *)(p.pay + lo), v);\n"
                         "else cub::LoadDirectBlocked((int)GPK_THREAD_ID, p.pay + lo, v, valid, "
                         "(gpk_pt)0);\n"
                         "gpk_sort_t(tmp.sort).SortBlockedToStriped(k, v, p.shift, p.shift + 8);\n",
                      sp->items);
    else
        gp_str_puts(s, "gpk_sort_t(tmp.sort).SortBlockedToStriped(k, p.shift, p.shift + 8);\n");
    gp_str_printf(s, "#pragma unroll\n"
                     "for (int j = 0; j < %d; ++j) {\n"
                     "  const int q = j * %d + (int)GPK_THREAD_ID;\n"
                     "  if (q < valid) {\n"
                     "    const gpk_ct o = base[(k[j] >> p.shift) & 255] + (gpk_ct)q;\n"
                     "    p.keys_out[o] = k[j];\n%s"
                     "  }\n}\n",
                  sp->items, SORT_THREADS, pay ? "    p.pay_out[o] = v[j];\n" : "");
    /* no CUB on HIP (no hipCUB here): the engine refuses before a launch */
    gp_str_puts(s, "#else\n__builtin_trap();\n#endif\n}\n");
}

static void emit_finish(gp_str_t *s, const gp_sort_spec_t *sp, const char *name)
{
    gp_str_puts(s, "struct gpk_params {\n  gpk_index n, L;\n  const long long *idx;\n"
                   "  const gpk_st *w;\n  void *out;\n};\n");
    gp_str_printf(s, "GPK_KERNEL(%s, struct gpk_params)\n{\nGPK_GRID_LOOP(gpk_idx, i, p.n) {\n",
                  name);
    if (sp->indices)
        gp_str_puts(s, "  ((long long *)p.out)[i] = p.idx[i] % p.L;\n}\n}\n");
    else
        gp_str_puts(s, "  ((gpk_st *)p.out)[i] = p.w[p.idx[i]];\n}\n}\n");
}

/* Elements back from their keys: integers and bools, and floats without
 * NaNs and -0.0. */
static void emit_decode(gp_str_t *s, const gp_sort_spec_t *sp, const char *name)
{
    gp_str_puts(s, "struct gpk_params {\n  gpk_index n, L;\n  const gpk_kt *keys;\n"
                   "  const void *unused;\n  gpk_st *out;\n};\n");
    gp_str_printf(s, "GPK_KERNEL(%s, struct gpk_params)\n{\nGPK_GRID_LOOP(gpk_idx, i, p.n) {\n",
                  name);
    if (gp_dtype_kind(sp->dt) == GP_KIND_FLOAT)
        gp_str_printf(s, "  const gpk_kt sign_ = (gpk_kt)((gpk_kt)1 << %d);\n"
                         "  const gpk_kt k = p.keys[i];\n"
                         "  union { gpk_st f; gpk_kt u; } b_;\n"
                         "  b_.u = (k & sign_) ? (gpk_kt)(k ^ sign_) : (gpk_kt)~k;\n"
                         "  p.out[i] = b_.f;\n", gp_dtype_size(sp->dt) * 8 - 1);
    else if (gp_dtype_kind(sp->dt) == GP_KIND_INT)
        gp_str_printf(s, "  p.out[i] = (gpk_st)(gpk_kt)(p.keys[i] ^ (gpk_kt)((gpk_kt)1 << %d));\n",
                      gp_dtype_size(sp->dt) * 8 - 1);
    else
        gp_str_puts(s, "  p.out[i] = (gpk_st)p.keys[i];\n");
    gp_str_puts(s, "}\n}\n");
}

/* ---- onesweep (Adinets & Merrill 2022): the 1-row key-only sorts --------------------
 *
 * One launch counts the digits of every pass over the whole array (bins,
 * pass-major, then turned into each digit's exclusive start); then a launch
 * per pass ranks each tile and finds the tile's start in every digit's run
 * by decoupled look-back over the tiles before it (CUB's onesweep agent on
 * CUDA), so no pass reads the keys twice. The keys are the elements
 * themselves (CUB's own order of floats and integers), which agrees with
 * NumPy's but for NaNs: the histogram raises a flag where it sees one, and
 * the engine then takes the LSD path. The host runs each pass as one tile
 * in order, from the same bins. */

#define OS_THREADS 384  /* CUB's sm_90 onesweep block (tuning_radix_sort.cuh) */
#define OS_HIST_THREADS 256

/* gpk_os_digit(u, shift): the digit of the key whose bits are `u`, as CUB's
 * onesweep ranks it (its bit order, -0.0 taken as +0.0). */
static void emit_os_digit(gp_str_t *s, int32_t dt)
{
    int32_t kind = gp_dtype_kind(dt), bits = gp_dtype_size(dt) * 8;
    gp_str_printf(s, "GPK_FN unsigned gpk_os_digit(gpk_ut u, int shift)\n{\n"
                     "  const gpk_ut sign = (gpk_ut)((gpk_ut)1 << %d);\n", bits - 1);
    if (kind == GP_KIND_FLOAT)
        gp_str_puts(s, "  if (u == sign) u = 0;\n"
                       "  u = (u & sign) ? (gpk_ut)~u : (gpk_ut)(u | sign);\n");
    else if (kind == GP_KIND_INT)
        gp_str_puts(s, "  u = (gpk_ut)(u ^ sign);\n");
    gp_str_puts(s, "  return (unsigned)(u >> shift) & 255u;\n}\n");
    const char *inf = bits == 32 ? "0x7f800000u" : "0x7ff0000000000000ull";
    if (kind == GP_KIND_FLOAT)
        gp_str_printf(s, "GPK_FN int gpk_os_nan(gpk_ut u) "
                         "{ return (gpk_ut)(u & (gpk_ut)~((gpk_ut)1 << %d)) > (gpk_ut)%s; }\n",
                      bits - 1, inf);
    else
        gp_str_puts(s, "GPK_FN int gpk_os_nan(gpk_ut u) { (void)u; return 0; }\n");
    gp_str_puts(s, "GPK_FN gpk_ut gpk_os_bits(gpk_kt k) "
                   "{ union { gpk_kt k; gpk_ut u; } b_; b_.k = k; return b_.u; }\n");
}

/* All passes' digit counts in one read of the keys. A block keeps 32 KiB of
 * counts: 32 / passes copies, lane l of a warp adding to copy l % copies, so
 * the lanes whose keys share a digit (the high digit of floats of one
 * binade) add to different words (one copy's counts took the H200 319 us
 * for 1e8 float32, CUB's histogram 161). */
static void emit_os_hist(gp_str_t *s, const gp_sort_spec_t *sp, const char *name)
{
    gp_str_printf(s, "#define GPK_PASSES %d\n", sp->key_bytes);
    gp_str_puts(s, "struct gpk_params {\n  gpk_index n;\n  const gpk_kt *keys;\n"
                   "  unsigned int *bins;\n  int *flag;\n};\n");
    gp_str_printf(s, "GPK_KERNEL(%s, struct gpk_params)\n{\n", name);
    gp_str_puts(s, "#ifdef GPK_HOST\n"
                   "int nan_ = 0;\n"
                   "for (gpk_idx i = 0; i < p.n; ++i) {\n"
                   "  const gpk_ut u = gpk_os_bits(p.keys[i]);\n"
                   "  nan_ |= gpk_os_nan(u);\n"
                   "  for (int q = 0; q < GPK_PASSES; ++q) ++p.bins[q * 256 + gpk_os_digit(u, 8 * q)];\n"
                   "}\n"
                   "if (nan_) *p.flag = 1;\n"
                   "#else\n"
                   "enum { H = GPK_PASSES * 256, COPIES = 32 / GPK_PASSES };\n"
                   "__shared__ unsigned int h[COPIES * H];\n"
                   "__shared__ int nan_;\n"
                   "for (int d = (int)GPK_THREAD_ID; d < COPIES * H; d += (int)GPK_BLOCK_SIZE) h[d] = 0;\n"
                   "if (GPK_THREAD_ID == 0) nan_ = 0;\n"
                   "GPK_SYNC();\n"
                   "unsigned int *const mine_h = h + (GPK_THREAD_ID % COPIES) * H;\n"
                   "int mine = 0;\n"
                   "GPK_GRID_LOOP(gpk_idx, i, p.n) {\n"
                   "  const gpk_ut u = gpk_os_bits(p.keys[i]);\n"
                   "  mine |= gpk_os_nan(u);\n"
                   "  GPK_UNROLL for (int q = 0; q < GPK_PASSES; ++q)\n"
                   "    atomicAdd(&mine_h[q * 256 + gpk_os_digit(u, 8 * q)], 1u);\n"
                   "}\n"
                   "if (mine) nan_ = 1;\n"
                   "GPK_SYNC();\n"
                   "for (int d = (int)GPK_THREAD_ID; d < H; d += (int)GPK_BLOCK_SIZE) {\n"
                   "  unsigned int c = 0;\n"
                   "  for (int k = 0; k < COPIES; ++k) c += h[k * H + d];\n"
                   "  if (c) atomicAdd(&p.bins[d], c);\n"
                   "}\n"
                   "if (GPK_THREAD_ID == 0 && nan_) *p.flag = 1;\n"
                   "#endif\n}\n");
}

/* Each pass' counts into its digits' exclusive starts: a block per pass. */
static void emit_os_scan(gp_str_t *s, const gp_sort_spec_t *sp, const char *name)
{
    gp_str_puts(s, "struct gpk_params {\n  gpk_index passes;\n  unsigned int *bins;\n};\n");
    gp_str_printf(s, "GPK_KERNEL(%s, struct gpk_params)\n{\n", name);
    gp_str_puts(s, "#ifdef GPK_HOST\n"
                   "for (gpk_idx q = 0; q < p.passes; ++q) {\n"
                   "  unsigned int run = 0;\n"
                   "  for (int d = 0; d < 256; ++d) {\n"
                   "    const unsigned int c = p.bins[q * 256 + d];\n"
                   "    p.bins[q * 256 + d] = run;\n    run += c;\n  }\n}\n"
                   "#elif defined(GPK_CUDA)\n"
                   "typedef cub::BlockScan<unsigned int, 256> gpk_scan_t;\n"
                   "__shared__ typename gpk_scan_t::TempStorage tmp;\n"
                   "unsigned int *b = p.bins + GPK_BLOCK_ID * 256;\n"
                   "unsigned int c = b[GPK_THREAD_ID], ex;\n"
                   "gpk_scan_t(tmp).ExclusiveSum(c, ex);\n"
                   "b[GPK_THREAD_ID] = ex;\n"
                   "#else /* onesweep is CUDA's alone (CUB) */\n"
                   "__builtin_trap();\n"
                   "#endif\n}\n");
}

/* Blocks of a onesweep pass kept resident on an SM. NVRTC gives the pass of
 * 4-byte keys alone 74-80 registers a thread, so 2 blocks of 384 fit (37%
 * of the warps; CUB's own kernel, built by nvcc, has 56 and 3 blocks): the
 * H200's float32 passes took 565-595 us against CUB's 470-509. Capped for
 * 3 blocks they take 56 registers without spilling; with 8-byte keys or
 * values the cap spills, so those keep the compiler's count. */
static int os_min_blocks(const gp_sort_spec_t *sp)
{
    return sp->key_bytes == 4 && !sp->pay_bytes ? 3 : 1;
}

static void emit_os_pass(gp_str_t *s, const gp_sort_spec_t *sp, const char *name)
{
    bool pay = sp->pay_bytes != 0;
    gp_str_puts(s, "struct gpk_params {\n  int n, shift;\n  int *lookback;\n  int *ctr;\n"
                   "  const unsigned int *bins;\n  const gpk_kt *keys;\n  gpk_kt *keys_out;\n"
                   "  const gpk_pt *vals;\n  gpk_pt *vals_out;\n};\n");
    gp_str_printf(s, "#ifdef GPK_HOST\nGPK_KERNEL(%s, struct gpk_params)\n{\n"
                     "unsigned int off[256];\n"
                     "for (int d = 0; d < 256; ++d) off[d] = p.bins[d];\n"
                     "for (int i = 0; i < p.n; ++i) {\n"
                     "  const unsigned int j = off[gpk_os_digit(gpk_os_bits(p.keys[i]), p.shift)]++;\n"
                     "  p.keys_out[j] = p.keys[i];\n%s"
                     "}\n}\n", name, pay ? "  p.vals_out[j] = p.vals[i];\n" : "");
    /* CUB's sm_90 policy (tuning_radix_sort.cuh, Policy900): 384 threads;
     * keys alone 20 four-byte items (19 for floats), 8-byte keys 30; with
     * 8-byte values 30 (4-byte keys) or 24 (8-byte keys); CUB halves the
     * nominal count for a dominant type of 8 bytes (RegBoundScaling) */
    gp_str_printf(s, "#elif defined(GPK_CUDA)\n"
                     "typedef cub::AgentRadixSortOnesweepPolicy<%d, %d, %s, 1,\n"
                     "  cub::RADIX_RANK_MATCH_EARLY_COUNTS_ANY, cub::BLOCK_SCAN_RAKING_MEMOIZE,\n"
                     "  cub::RADIX_SORT_STORE_DIRECT, 8> gpk_policy;\n"
                     "typedef cub::detail::radix_sort::AgentRadixSortOnesweep<gpk_policy, false, gpk_kt,\n"
                     "  %s, unsigned int, int> gpk_agent;\n"
                     "extern \"C\" __global__ void __launch_bounds__(%d, %d) %s(const struct gpk_params p)\n"
                     "{\n  __shared__ typename gpk_agent::TempStorage tmp;\n"
                     "  gpk_agent(tmp, p.lookback, p.ctr, (unsigned int *)0, p.bins, p.keys_out, p.keys,\n"
                     "            %s, p.n, p.shift, 8).Process();\n}\n"
                     "#else\nGPK_KERNEL(%s, struct gpk_params) { __builtin_trap(); }\n#endif\n",
                  OS_THREADS, sp->items,
                  pay && sp->pay_bytes > sp->key_bytes ? "gpk_pt" : "gpk_kt",
                  pay ? "gpk_pt" : "cub::NullType", OS_THREADS, os_min_blocks(sp), name,
                  pay ? "p.vals_out, p.vals"
                      : "(cub::NullType *)0, (const cub::NullType *)0", name);
}

static gp_status_t gen_sort(const void *vspec, char *name, size_t name_size, gp_str_t *s)
{
    const gp_sort_spec_t *sp = vspec;
    static const char *const steps[] = {"keys", "hist", "scatter", "finish", "decode",
                                        "oshist", "osscan", "ospass"};
    snprintf(name, name_size, "gpk_sort_%s_%s_w%d_k%d_p%d_g%d_c%d_i%d_x%d%s", steps[sp->step],
             gp_dtypes[sp->dt].suffix, sp->word, sp->key_bytes, sp->pay_bytes, sp->gather,
             sp->count_bytes, sp->items, sp->indices, sp->detect ? "_d" : "");
    if (sp->step == SORT_OS_SCAN)
        gp_str_puts(s, "#if defined(GPK_CUDA)\n#include <cub/block/block_scan.cuh>\n#endif\n");
    if (sp->step == SORT_OS_PASS)
        /* the agent uses the block loads, stores and ranks without
         * including them (the device-wide dispatch header does) */
        gp_str_puts(s, "#if defined(GPK_CUDA)\n"
                       "#include <cub/block/block_load.cuh>\n"
                       "#include <cub/block/block_store.cuh>\n"
                       "#include <cub/block/block_radix_rank.cuh>\n"
                       "#include <cub/agent/agent_radix_sort_onesweep.cuh>\n"
                       "#endif\n");
    if (sp->step == SORT_SCATTER)
        gp_str_puts(s, "#if defined(GPK_CUDA)\n"
                       "#include <cub/block/block_radix_sort.cuh>\n"
                       "#include <cub/block/block_load.cuh>\n"
                       "#include <cub/block/block_scan.cuh>\n"
                       "#endif\n");
    gp_str_printf(s, "/* radix sort: %s */\ntypedef long long gpk_idx;\n", steps[sp->step]);
    gp_str_printf(s, "typedef %s gpk_st;\ntypedef %s gpk_kt;\ntypedef %s gpk_ct;\n",
                  gp_dtypes[sp->dt].storage,
                  sp->step >= SORT_OS_HIST ? gp_dtypes[sp->dt].storage : uint_type(sp->key_bytes),
                  uint_type(sp->count_bytes));
    gp_str_printf(s, "typedef %s gpk_pt;\n", uint_type(sp->pay_bytes ? sp->pay_bytes : 1));
    if (sp->step >= SORT_OS_HIST) {
        gp_str_printf(s, "typedef %s gpk_ut;\n", uint_type(sp->key_bytes));
        emit_os_digit(s, sp->dt);
    }
    if (sp->step == SORT_OS_HIST)
        emit_os_hist(s, sp, name);
    else if (sp->step == SORT_OS_SCAN)
        emit_os_scan(s, sp, name);
    else if (sp->step == SORT_OS_PASS)
        emit_os_pass(s, sp, name);
    else if (sp->step == SORT_KEYS)
        emit_keys(s, sp, name);
    else if (sp->step == SORT_HIST)
        emit_hist(s, name);
    else if (sp->step == SORT_SCATTER)
        emit_scatter(s, sp, name);
    else if (sp->step == SORT_FINISH)
        emit_finish(s, sp, name);
    else
        emit_decode(s, sp, name);
    return GP_OK;
}

/* ---- the driver ----------------------------------------------------------------------- */

typedef struct sort_word {
    int word;     /* WORD_* */
    int bytes;    /* of its key type */
    int digits;   /* 8-bit digits that can differ */
} sort_word_t;

static int32_t uint_dtype(int bytes)
{
    return bytes == 1 ? GP_UINT8 : bytes == 2 ? GP_UINT16 : bytes == 4 ? GP_UINT32 : GP_UINT64;
}

static gp_status_t get_kernel(const gp_sort_spec_t *sp, const gp_kernel_t **k)
{
    return gp_kernel_get(sp, sizeof *sp, gen_sort, sp, k);
}

/* One stable pass over `n` keys (and payloads) by the digit at `shift`,
 * from keys/pay into keys_out/pay_out. */
static gp_status_t digit_pass(gp_sort_spec_t sp, int64_t n, int64_t tile, int shift,
                              gp_array_t *counts, const void *keys, const void *pay,
                              void *keys_out, void *pay_out)
{
    int64_t ntiles = counts->size / 256;
    const gp_kernel_t *k;
    /* the digits' kernels see only key and payload bits: one per size */
    sp.dt = GP_UINT8;
    sp.word = 0;
    sp.step = SORT_HIST;
    GP_TRY(get_kernel(&sp, &k));
    gp_params_t p;
    gp_params_init(&p);
    gp_params_index(&p, n);
    gp_params_index(&p, tile);
    gp_params_index(&p, ntiles);
    int32_t sh = shift;
    gp_params_put(&p, &sh, sizeof sh, sizeof sh);
    gp_params_ptr(&p, keys);
    gp_params_ptr(&p, gp_array_data(counts));
    gp_launch_t cfg = {(uint32_t)ntiles, SORT_THREADS, 0};
    const gp_device_props_t *props;
    GP_TRY(gp_backend_props(&props));
    bool host = props->max_threads_per_block <= 1;
    if (host)
        cfg.grid = cfg.block = 1;
    GP_TRY(gp_launch(k, &cfg, &p));

    gp_array_t *incl = NULL;
    GP_TRY(gp_ufunc_accumulate(gp_ufunc_id("add"), counts, 0, counts->dtype, &incl));
    sp.step = SORT_SCATTER;
    gp_status_t s = get_kernel(&sp, &k);
    if (s == GP_OK) {
        gp_params_init(&p);
        gp_params_index(&p, n);
        gp_params_index(&p, tile);
        gp_params_index(&p, ntiles);
        gp_params_put(&p, &sh, sizeof sh, sizeof sh);
        gp_params_ptr(&p, keys);
        gp_params_ptr(&p, pay);
        gp_params_ptr(&p, keys_out);
        gp_params_ptr(&p, pay_out);
        gp_params_ptr(&p, gp_array_data(counts));
        gp_params_ptr(&p, gp_array_data(incl));
        s = gp_launch(k, &cfg, &p);
    }
    gp_array_release(incl);
    return s;
}

/* Launches the elementwise step `sp` (SORT_KEYS or SORT_FINISH) over n. */
static gp_status_t ew_step(const gp_sort_spec_t *sp, int64_t n, int64_t L, const void *a,
                           const void *b, void *c, void *flag)
{
    const gp_kernel_t *k;
    GP_TRY(get_kernel(sp, &k));
    gp_params_t p;
    gp_params_init(&p);
    gp_params_index(&p, n);
    gp_params_index(&p, L);
    gp_params_ptr(&p, a);
    gp_params_ptr(&p, b);
    gp_params_ptr(&p, c);
    if (sp->step == SORT_KEYS)
        gp_params_ptr(&p, flag);
    gp_launch_t cfg = gp_grid_for(n, 256);
    return gp_launch(k, &cfg, &p);
}

/* The result, from the final keys (SORT_DECODE) or indices (SORT_FINISH:
 * the elements of `w` they index, or with `indices` the indices in their
 * rows), into a new 1-d *out. */
static gp_status_t last_step(int step, int32_t dt, int key_bytes, bool indices, int64_t n,
                             int64_t L, const gp_array_t *from, const gp_array_t *w,
                             gp_array_t **out)
{
    GP_TRY(gp_array_empty(indices ? GP_INT64 : dt, 1, &n, GP_ORDER_C, out));
    gp_sort_spec_t sp;
    memset(&sp, 0, sizeof sp);
    sp.family = GP_FAMILY_SORT;
    sp.step = (uint8_t)step;
    sp.dt = (uint8_t)dt;
    sp.key_bytes = (uint8_t)key_bytes;
    sp.indices = indices;
    gp_status_t s = ew_step(&sp, n, L, gp_array_data(from), w ? gp_array_data(w) : NULL,
                            gp_array_data(*out), NULL);
    if (s != GP_OK) {
        gp_array_release(*out);
        *out = NULL;
    }
    return s;
}

/* The host sorts in one tile, unless GPUNP_SORT_TILE asks for tiles of
 * that many elements: then the tiles' counts and offsets go the GPU's way,
 * which the tests check on the host. */
static int64_t host_tile(int64_t n)
{
    const char *e = getenv("GPUNP_SORT_TILE");
    long long t = e ? atoll(e) : 0;
    return t > 0 && t < n ? (int64_t)t : n;
}

/* GPUNP_TUNE_SORT=lsd keeps the 1-row key-only sorts on the LSD passes,
 * for bench/tune.py's comparison; read once. */
static bool onesweep_enabled(void)
{
    static int on = -1;
    if (on < 0) {
        const char *e = getenv("GPUNP_TUNE_SORT");
        on = !(e && strcmp(e, "lsd") == 0);
    }
    return on != 0;
}

/* Onesweep's tiles stay within one portion of CUB's size (its look-back
 * words hold a count of under 2^30); longer arrays take the LSD path. */
#define OS_MAX_ITEMS ((1 << 28) - (1 << 16))

/* Sorts the n elements of the C-contiguous 1-row array `w` (an integer or
 * a 4- or 8-byte float dtype) by onesweep into a new *out: the values, or
 * with `indices` their int64 indices. Where a float array sorted for its
 * values holds a NaN it returns GP_OK with *out NULL: CUB's order of NaNs
 * is not NumPy's, and the caller sorts by the LSD path. An argsort of
 * floats sorts their mapped keys (SORT_KEYS: every NaN the largest key,
 * -0.0 +0.0's), whose order is NumPy's. */
static gp_status_t onesweep_sort(const gp_array_t *w, bool indices, bool host, gp_array_t **out)
{
    *out = NULL;
    int32_t dt = w->dtype;
    int64_t n = w->size;
    int bytes = gp_dtype_size(dt);
    bool is_float = gp_dtype_kind(dt) == GP_KIND_FLOAT;
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    gp_array_t *scratch = NULL, *flag_arr = NULL, *mapped = NULL, *iota = NULL;
    gp_array_t *kt[2] = {NULL, NULL}, *vt = NULL;
    gp_sort_spec_t sp;
    memset(&sp, 0, sizeof sp);
    sp.family = GP_FAMILY_SORT;
    gp_status_t s = GP_OK;
    const void *keys_in = gp_array_data(w);
    if (indices && is_float) {
        s = gp_array_empty(uint_dtype(bytes), 1, &n, GP_ORDER_C, &mapped);
        if (s == GP_OK) {
            sp.step = SORT_KEYS;
            sp.dt = (uint8_t)dt;
            sp.word = WORD_VALUE;
            sp.key_bytes = (uint8_t)bytes;
            s = ew_step(&sp, n, n, gp_array_data(w), NULL, gp_array_data(mapped), NULL);
        }
        dt = uint_dtype(bytes);
        is_float = false;
        keys_in = mapped ? gp_array_data(mapped) : NULL;
        memset(&sp, 0, sizeof sp);
        sp.family = GP_FAMILY_SORT;
    }
    sp.dt = (uint8_t)dt;
    sp.key_bytes = (uint8_t)bytes;
    sp.pay_bytes = indices ? 8 : 0;
    sp.count_bytes = 4;
    /* the policy's nominal items of four bytes, halved by CUB where the
     * key or value has eight */
    sp.items = (uint8_t)(host ? 1 : indices ? (bytes == 8 ? 24 : 30)
                                            : (bytes == 8 ? 30 : is_float ? 19 : 20));
    bool wide = bytes == 8 || indices;
    int64_t tile = host ? n : (int64_t)OS_THREADS * (wide ? sp.items / 2 : sp.items);
    int64_t nblocks = (n + tile - 1) / tile;
    int passes = bytes;
    /* scratch, in int32 words: bins (passes x 256), the pass counters (a
     * tile counter each), the look-back words (cleared before each pass) */
    int64_t words = passes * 256 + passes + (host ? 0 : nblocks * 256);
    if (s == GP_OK)
        s = gp_array_empty(GP_INT32, 1, &words, GP_ORDER_C, &scratch);
    char *base = scratch ? gp_array_data(scratch) : NULL;
    unsigned int *bins = (unsigned int *)base;
    int *ctrs = (int *)(bins + passes * 256), *lookback = ctrs + passes;
    if (s == GP_OK)
        s = be->memset8(base, 0, (size_t)(passes * 256 + passes) * 4, gp_current_stream());
    if (s == GP_OK)
        s = gp_array_zeros(GP_INT32, 0, NULL, GP_ORDER_C, &flag_arr);
    int *flag = flag_arr ? (int *)gp_array_data(flag_arr) : NULL;
    const gp_kernel_t *k;
    gp_params_t p;
    if (s == GP_OK) {
        sp.step = SORT_OS_HIST;
        s = get_kernel(&sp, &k);
    }
    if (s == GP_OK) {
        gp_params_init(&p);
        gp_params_index(&p, n);
        gp_params_ptr(&p, keys_in);
        gp_params_ptr(&p, bins);
        gp_params_ptr(&p, flag);
        /* a few resident blocks per SM, each flushing its shared counts once
         * (a block per tile would add 256 x passes global atomics a tile) */
        const gp_device_props_t *props;
        s = gp_backend_props(&props);
        gp_launch_t cfg = gp_grid_for(n, OS_HIST_THREADS);
        if (s == GP_OK && !host && cfg.grid > (uint32_t)props->multiprocessors * 4)
            cfg.grid = (uint32_t)props->multiprocessors * 4;
        if (s == GP_OK)
            s = gp_launch(k, &cfg, &p);
    }
    bool nan = false;
    if (s == GP_OK && is_float) {
        /* the one synchronisation: whether a NaN sends the sort elsewhere */
        int32_t found = 0;
        s = gp_array_to_host(flag_arr, &found, sizeof found, GP_ORDER_C);
        nan = found != 0;
    }
    if (s == GP_OK && !nan) {
        sp.step = SORT_OS_SCAN;
        s = get_kernel(&sp, &k);
        if (s == GP_OK) {
            gp_params_init(&p);
            gp_params_index(&p, passes);
            gp_params_ptr(&p, bins);
            gp_launch_t cfg = {host ? 1u : (uint32_t)passes, host ? 1u : 256u, 0};
            s = gp_launch(k, &cfg, &p);
        }
        if (s == GP_OK)
            s = gp_array_empty(indices ? GP_INT64 : dt, 1, &n, GP_ORDER_C, out);
        if (s == GP_OK)
            s = gp_array_empty(dt, 1, &n, GP_ORDER_C, &kt[0]);
        if (s == GP_OK && indices)
            s = gp_array_empty(dt, 1, &n, GP_ORDER_C, &kt[1]);
        if (s == GP_OK && indices)
            s = gp_array_empty(GP_INT64, 1, &n, GP_ORDER_C, &vt);
        if (s == GP_OK && indices) {
            gp_scalar_t zero = {GP_INT64, 0, 0, 0, 0}, one = {GP_INT64, 0, 1, 1, 0};
            s = gp_array_arange(&zero, &one, n, GP_INT64, &iota);
        }
        if (s == GP_OK) {
            sp.step = SORT_OS_PASS;
            s = get_kernel(&sp, &k);
        }
    }
    if (s == GP_OK && !nan) {
        /* an even number of passes: the input -> [0] -> [1] -> [0] ... -> [1],
         * [1] the result (the keys, or with indices the values) */
        char *kb[2] = {gp_array_data(kt[0]), gp_array_data(indices ? kt[1] : *out)};
        char *vb[2] = {indices ? gp_array_data(vt) : NULL, indices ? gp_array_data(*out) : NULL};
        for (int q = 0; q < passes && s == GP_OK; ++q) {
            if (!host)
                s = be->memset8(lookback, 0, (size_t)nblocks * 256 * 4, gp_current_stream());
            if (s != GP_OK)
                break;
            gp_params_init(&p);
            int32_t nn = (int32_t)n, shift = 8 * q;
            gp_params_put(&p, &nn, sizeof nn, sizeof nn);
            gp_params_put(&p, &shift, sizeof shift, sizeof shift);
            gp_params_ptr(&p, lookback);
            gp_params_ptr(&p, ctrs + q);
            gp_params_ptr(&p, bins + q * 256);
            gp_params_ptr(&p, q == 0 ? keys_in : kb[(q - 1) & 1]);
            gp_params_ptr(&p, kb[q & 1]);
            gp_params_ptr(&p, !indices ? NULL : q == 0 ? gp_array_data(iota) : vb[(q - 1) & 1]);
            gp_params_ptr(&p, vb[q & 1]);
            gp_launch_t cfg = {host ? 1u : (uint32_t)nblocks, host ? 1u : OS_THREADS, 0};
            s = gp_launch(k, &cfg, &p);
        }
    }
    gp_array_release(kt[0]);
    gp_array_release(kt[1]);
    gp_array_release(vt);
    gp_array_release(iota);
    gp_array_release(mapped);
    gp_array_release(flag_arr);
    gp_array_release(scratch);
    if (s != GP_OK) {
        gp_array_release(*out);
        *out = NULL;
    }
    return s;
}

/* Sorts each of the R rows of L elements of the C-contiguous array `w`
 * (n = R * L > 0): into *out a new 1-d array of the sorted elements (dtype
 * of w), or with `indices` of their int64 indices within the rows. */
static gp_status_t radix_sort(const gp_array_t *w, int64_t R, int64_t L, bool indices,
                              gp_array_t **out)
{
    int32_t dt = w->dtype, kind = gp_dtype_kind(dt), size = gp_dtype_size(dt);
    int64_t n = w->size;
    const gp_device_props_t *props;
    GP_TRY(gp_backend_props(&props));
    bool host = props->max_threads_per_block <= 1;
    const gp_backend_i *be = gp_backend_running();
    if (!host && be && strcmp(be->name, "hip") == 0)
        return gp_set_error(GP_ERR_UNSUPPORTED, "sorting on HIP needs hipCUB/rocPRIM, which "
                                                "gpunp does not use yet (docs/hip.md)");
    bool os = R == 1 && size >= 4 &&
              (kind == GP_KIND_INT || kind == GP_KIND_UINT || kind == GP_KIND_FLOAT);
    if (os && n <= OS_MAX_ITEMS && onesweep_enabled()) {
        GP_TRY(onesweep_sort(w, indices, host, out));
        if (*out)
            return GP_OK;
    }
    sort_word_t words[4];
    int nwords = 0;
    if (kind == GP_KIND_COMPLEX) {
        words[nwords++] = (sort_word_t){WORD_IMAG, size / 2, size / 2};
        words[nwords++] = (sort_word_t){WORD_REAL, size / 2, size / 2};
        words[nwords++] = (sort_word_t){WORD_CLASS, 1, 1};
    } else {
        words[nwords++] = (sort_word_t){WORD_VALUE, size, size};
    }
    if (R > 1) {
        int digits = 0;
        for (uint64_t r = (uint64_t)(R - 1); r; r >>= 8)
            ++digits;
        words[nwords++] = (sort_word_t){WORD_ROW, digits <= 1 ? 1 : digits <= 2 ? 2 :
                                                  digits <= 4 ? 4 : 8, digits};
    }
    bool by_value = nwords == 1 && !indices;
    /* floats of one row without NaNs and -0.0 sort keys alone too: the keys
     * kernel looks for them */
    bool detect = by_value && kind == GP_KIND_FLOAT;
    bool keys_only = by_value && !detect;
    int count_bytes = n < ((int64_t)1 << 32) ? 4 : 8;

    gp_array_t *pay[2] = {NULL, NULL}, *keys[2] = {NULL, NULL}, *counts = NULL, *flag = NULL;
    gp_status_t s = GP_OK;
    const void *pay_in = NULL; /* the payload the next pass reads */
    int cur = 0;               /* pay[cur] holds it, once it is not w's elements */
    for (int wi = 0; wi < nwords && s == GP_OK; ++wi) {
        const sort_word_t *wd = &words[wi];
        gp_array_release(keys[0]);
        gp_array_release(keys[1]);
        keys[0] = keys[1] = NULL;
        s = gp_array_empty(uint_dtype(wd->bytes), 1, &n, GP_ORDER_C, &keys[0]);
        if (s == GP_OK)
            s = gp_array_empty(uint_dtype(wd->bytes), 1, &n, GP_ORDER_C, &keys[1]);
        if (s == GP_OK && detect)
            s = gp_array_zeros(GP_INT32, 0, NULL, GP_ORDER_C, &flag);
        if (s != GP_OK)
            break;
        gp_sort_spec_t sp;
        memset(&sp, 0, sizeof sp);
        sp.family = GP_FAMILY_SORT;
        sp.dt = (uint8_t)dt;
        sp.word = (uint8_t)wd->word;
        sp.key_bytes = (uint8_t)wd->bytes;
        sp.count_bytes = (uint8_t)count_bytes;
        sp.step = SORT_KEYS;
        sp.gather = wi > 0 || wd->word == WORD_ROW;
        sp.detect = detect;
        s = ew_step(&sp, n, L, gp_array_data(w), pay_in, gp_array_data(keys[0]),
                    detect ? gp_array_data(flag) : NULL);
        sp.gather = sp.detect = 0;
        if (s == GP_OK && detect) {
            int32_t found = 0;
            s = gp_array_to_host(flag, &found, sizeof found, GP_ORDER_C);
            keys_only = found == 0;
        }
        if (s == GP_OK && wi == 0 && !keys_only) {
            /* index payloads start as 0..n-1; element payloads as w itself */
            int32_t pay_dt = by_value ? dt : GP_INT64;
            s = gp_array_empty(pay_dt, 1, &n, GP_ORDER_C, &pay[1]);
            if (s == GP_OK && !by_value) {
                gp_scalar_t zero = {GP_INT64, 0, 0, 0, 0}, one = {GP_INT64, 0, 1, 1, 0};
                s = gp_array_arange(&zero, &one, n, GP_INT64, &pay[0]);
            } else if (s == GP_OK) {
                s = gp_array_empty(pay_dt, 1, &n, GP_ORDER_C, &pay[0]);
            }
            pay_in = s != GP_OK ? NULL : by_value ? gp_array_data(w) : gp_array_data(pay[0]);
        }
        int pay_bytes = keys_only ? 0 : by_value ? size : 8;
        sp.pay_bytes = (uint8_t)pay_bytes;
        sp.items = host ? 1 : wd->bytes + pay_bytes <= 8 ? 16 : 8;
        int64_t tile = host ? host_tile(n) : (int64_t)SORT_THREADS * sp.items;
        int64_t ncounts = 256 * ((n + tile - 1) / tile);
        gp_array_release(counts);
        counts = NULL;
        if (s == GP_OK)
            s = gp_array_empty(uint_dtype(count_bytes), 1, &ncounts, GP_ORDER_C, &counts);
        for (int d = 0; d < wd->digits && s == GP_OK; ++d) {
            int nxt = by_value && pay_in == gp_array_data(w) ? 1 : 1 - cur;
            s = digit_pass(sp, n, tile, 8 * d, counts, gp_array_data(keys[d & 1]), pay_in,
                           gp_array_data(keys[1 - (d & 1)]),
                           keys_only ? NULL : gp_array_data(pay[nxt]));
            cur = nxt;
            pay_in = keys_only ? NULL : gp_array_data(pay[cur]);
        }
    }
    if (s == GP_OK && keys_only) {
        s = last_step(SORT_DECODE, dt, size, false, n, L, keys[words[0].digits & 1], NULL, out);
    } else if (s == GP_OK && (by_value || (nwords == 1 && indices))) {
        *out = pay[cur];
        pay[cur] = NULL;
    } else if (s == GP_OK) {
        s = last_step(SORT_FINISH, dt, 0, indices, n, L, pay[cur], w, out);
    }
    gp_array_release(pay[0]);
    gp_array_release(pay[1]);
    gp_array_release(keys[0]);
    gp_array_release(keys[1]);
    gp_array_release(counts);
    gp_array_release(flag);
    return s;
}

GP_API gp_status_t gp_array_sort(const gp_array_t *a, int32_t axis, int32_t indices,
                                 gp_array_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_sort: out is NULL");
    *out = NULL;
    GP_CHECK_ARRAY(a);
    int32_t nd = a->ndim, perm[GP_MAXDIM], inv[GP_MAXDIM];
    gp_array_t *t = NULL;
    if (axis == GP_AXIS_NONE) {
        int64_t n = a->size;
        GP_TRY(gp_array_reshape(a, 1, &n, GP_ORDER_C, &t));
        nd = 1;
        perm[0] = inv[0] = 0;
    } else {
        int32_t ax;
        GP_TRY(gp_normalize_axis(axis, nd, &ax));
        for (int32_t d = 0, j = 0; d < nd; ++d)
            if (d != ax)
                perm[j++] = d;
        perm[nd - 1] = ax;
        for (int32_t d = 0; d < nd; ++d)
            inv[perm[d]] = d;
        GP_TRY(gp_array_transpose(a, nd, perm, &t));
    }
    /* the rows, C-contiguous: read-only below, so a contiguous input serves */
    gp_array_t *w = NULL, *flat = NULL, *shaped = NULL;
    gp_status_t s = GP_OK;
    if (t->flags & GP_FLAG_C_CONTIGUOUS) {
        gp_array_retain(t);
        w = t;
    } else {
        s = gp_copy_new(t, t->dtype, GP_ORDER_C, &w);
    }
    int64_t n = t->size, L = nd ? t->shape[nd - 1] : 1;
    if (s == GP_OK && (n == 0 || L <= 1)) {
        if (indices)
            s = gp_array_zeros(GP_INT64, 1, &n, GP_ORDER_C, &flat);
        else
            s = gp_copy_new(w, w->dtype, GP_ORDER_C, &flat);
    } else if (s == GP_OK) {
        s = radix_sort(w, n / L, L, indices != 0, &flat);
    }
    if (s == GP_OK)
        s = gp_array_reshape(flat, nd, t->shape, GP_ORDER_C, &shaped);
    if (s == GP_OK)
        s = gp_array_transpose(shaped, nd, inv, out);
    gp_array_release(shaped);
    gp_array_release(flat);
    gp_array_release(w);
    gp_array_release(t);
    return s;
}
